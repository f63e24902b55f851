#!/usr/bin/env bash
# `make install` into a scratch prefix: the binaries, the header, the plugin,
# pkg-config, the manual pages and bash completion. The manual pages render
# (man -l) and name every option each command's --help lists; the
# completion offers the subcommands, a subcommand's options and probe's.
. "$(dirname "$0")/../lib.sh"
make --no-print-directory install PREFIX="$T/p" > "$T/log" 2>&1 || { cat "$T/log"; bad "make install"; exit 1; }
for f in bin/edan bin/probe include/edan.h include/edan_trace.h lib/edan/edan-plugin.so lib/pkgconfig/edan.pc \
         share/man/man1/edan.1 share/man/man1/probe.1 share/bash-completion/completions/edan \
         share/bash-completion/completions/probe; do
  [ -s "$T/p/$f" ] && ok "installed $f" || bad "make install did not install $f"
done
for page in edan probe; do
  MANWIDTH=100 man -l "$T/p/share/man/man1/$page.1" > "$T/$page.txt" 2> "$T/err" && [ -s "$T/$page.txt" ] \
    && ok "man -l $page.1 renders" || bad "man -l $page.1: $(cat "$T/err")"
done
opts() { "$@" --help 2>/dev/null | grep -oE '(^|[ [(|])--[a-z0-9-]+' | sed 's/^[ [(|]//' | sort -u; }
for c in analyze trace rank plot roofline annotate; do
  missing=$(for o in $(opts ./edan $c); do grep -q -- "$o" "$T/edan.txt" || echo "$o"; done)
  [ -z "$missing" ] && ok "man edan names every option of edan $c --help" || bad "man edan lacks $c's $missing"
done
missing=$(for o in $(opts ./probe); do grep -q -- "$o" "$T/probe.txt" || echo "$o"; done)
[ -z "$missing" ] && ok "man probe names every option of probe --help" || bad "man probe lacks $missing"
# completion: what bash would offer after `edan `, `edan analyze --ca` and `probe --qu`
complete_of() {  # complete_of WORDS...: the completions of the last word
  bash -c '. tools/edan.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); f=_edan; [ "$1" = ./probe ] && f=_probe; $f; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
}
[ "$(complete_of ./edan ana)" = analyze ] && ok "completion: edan ana -> analyze" || bad "completion of subcommands: $(complete_of ./edan ana)"
[ "$(complete_of ./edan ann)" = annotate ] && ok "completion: edan ann -> annotate" || bad "completion of annotate: $(complete_of ./edan ann)"
complete_of ./edan analyze --ca | grep -qx -- --cache && ok "completion: edan analyze --ca -> --cache" \
  || bad "completion of options: $(complete_of ./edan analyze --ca)"
complete_of ./edan trace --fu | grep -qx -- --func && ok "completion: edan trace --fu -> --func" || bad "completion of trace options"
complete_of ./probe --qu | grep -qx -- --quick && ok "completion: probe --qu -> --quick" || bad "completion of probe"
exit $fail
