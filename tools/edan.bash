# tools/edan.bash - bash completion for edan and probe. The options come
# from the commands' own --help, so they stay what the programs take.
# Installed by `make install` as share/bash-completion/completions/{edan,probe}.

_edan_options()     # _edan_options COMMAND...: the --options its --help lists
{
    "$@" --help 2>/dev/null | grep -oE '(^|[ [(|])--[a-z0-9-]+' | sed 's/^[ [(|]//' | sort -u
}

_edan()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[0]} sub="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in -*) ;; *) sub=${COMP_WORDS[i]}; break ;; esac
    done
    if [ -z "$sub" ]; then
        COMPREPLY=($(compgen -W "analyze trace rank roofline plot job annotate --help --version" -- "$cur"))
        return
    fi
    case $prev in
        --profile|--timeline|--dot|--layers|--sweep|--text|--binary|-o|--output|--elf|--app|--qemu|--plugin)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --sysroot) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_edan_options "$cmd" "$sub")" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

_probe()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in -o|--profile|--check) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac
    COMPREPLY=($(compgen -W "$(_edan_options "${COMP_WORDS[0]}") -o -q" -- "$cur"))
}

complete -F _edan edan ./edan
complete -F _probe probe ./probe
