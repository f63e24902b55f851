#!/usr/bin/env bash
# The code's shape, checked on every run: no function of edan.h, tools/ or
# probes/ over 150 lines (decoders' switch tables excepted), no file of
# tools/ or probes/ over 1,200 lines (edan.h, the single header, is the one
# long file), the includes without a cycle, no private name of edan.h
# (edan__) used outside it, and each rule of the model caught by
# tests/unit/test_paths.c when it is changed in one feeding path alone. Each
# check is also shown to fail on a tree made to break it. Every benchmark
# runs without the user's profile.
. "$(dirname "$0")/../lib.sh"
out=$(bash tests/funclen.sh) && ok "no function over 150 lines" || bad "functions over 150 lines: $out"
# the files of tools/ and probes/ (and of their subfolders) over 1,200 lines under root $1
long_files() {
  find "$1/tools" "$1/probes" -type f ! -path '*/__pycache__/*' -exec wc -l {} + |
    awk -v root="$1/" '$2 != "total" && $1 > 1200 { sub("^" root, "", $2); print $2 ": " $1 " lines"; n++ } END { exit n > 0 }'
}
out=$(long_files .) && ok "no file of tools/ or probes/ over 1,200 lines" || bad "files over 1,200 lines: $out"
out=$(bash tests/include_graph.sh) && ok "the includes make no cycle" || bad "includes: $out"
out=$(bash tests/private_names.sh) && ok "tools/, probes/, tests/ and examples/ use edan.h's API alone, no edan__ name" \
  || bad "edan.h's private names used outside it: $(head -5 <<< "$out")"
# the scope and run options of a traced program are declared once, in
# tools/cmd/options.c (cli_scope_opts): edan trace, edan annotate and the
# plugin name them by id
out=$(grep -nE '\{"--(func|region|exclude|threads|no-markers|max-insns|max-seconds)"' \
  tools/trace/trace.c tools/cmd/annotate.c tools/trace/plugin.c)
[ -z "$out" ] && ok "the scope and run options are declared once (tools/cmd/options.c)" \
  || bad "scope or run options declared again: $out"
out=$(python3 tests/mutate_paths.py) && ok "every rule changed in one feeding path is caught ($(grep -c CAUGHT <<< "$out") mutations)" \
  || bad "a mutation of one feeding path: $out"
# every benchmark's analysis names its profile (or none): a profile in the
# user's home would change what its rows mean
hermetic() { grep -nE '(\./edan|/edan"?) (trace|analyze) ' "$@" | grep -vE ':[0-9]+:\s*(#|echo|row |printf|traces\+=)|label=' |
  grep -vE -- '--no-profile|--profile'; }
out=$(hermetic tests/bench/*.sh) && bad "benchmarks that may read the user's profile: $out" \
  || ok "every benchmark's edan trace and analyze passes --no-profile or --profile"
printf 'cmd=(./edan trace --quiet -o r -- prog)\n' > "$T/b.sh"
hermetic "$T/b.sh" > /dev/null && ok "the scan finds a benchmark without --no-profile" || bad "the scan missed one"
# the scans themselves find what they look for: a long function, a cycle,
# a private name
mkdir -p "$T/tree/tools/cmd" "$T/tree/tools/common" "$T/tree/probes" "$T/tree/tests/unit"
cp tests/funclen.sh tests/include_graph.sh tests/private_names.sh "$T/tree/tests/"
{ echo '#include "b.h"'; } > "$T/tree/tools/cmd/a.h"
{ echo '#include "a.h"'; } > "$T/tree/tools/cmd/b.h"
{ echo 'int f(void)'; echo '{'; for i in $(seq 151); do echo "    (void)$i;"; done; echo '    return 0;'; echo '}'; } > "$T/tree/tools/cmd/long.c"
echo '/* the header */' > "$T/tree/edan.h"
echo '/* a probe */' > "$T/tree/probes/p.c"
printf '#define EDAN__HIDDEN 1\n' >> "$T/tree/edan.h"
printf 'int t(void)\n{\n    return EDAN__HIDDEN + edan__secret() + EDAN__OWN_MACRO;\n}\n' > "$T/tree/tests/unit/t.c"
out=$(bash "$T/tree/tests/funclen.sh") && bad "funclen.sh missed a function of 155 lines" \
  || { grep -q "tools/cmd/long.c:1: f: 155 lines" <<< "$out" && ok "funclen.sh finds a function of 155 lines" || bad "funclen.sh said: $out"; }
seq 1201 > "$T/tree/probes/long.c"
out=$(long_files "$T/tree") && bad "the file scan missed a file of 1201 lines" \
  || { grep -qx "probes/long.c: 1201 lines" <<< "$out" && ok "the file scan finds a file of 1201 lines" || bad "the file scan said: $out"; }
out=$(bash "$T/tree/tests/include_graph.sh") && bad "include_graph.sh missed a cycle" \
  || { grep -q "include cycle" <<< "$out" && ok "include_graph.sh finds a cycle" || bad "include_graph.sh said: $out"; }
out=$(bash "$T/tree/tests/private_names.sh") && bad "private_names.sh missed edan__secret and EDAN__HIDDEN" \
  || { [ "$out" = "$(printf 'tests/unit/t.c:3: EDAN__HIDDEN\ntests/unit/t.c:3: edan__secret')" ] \
       && ok "private_names.sh finds an edan__ function and an EDAN__ macro of edan.h, not a file's own EDAN__ macro" \
       || bad "private_names.sh said: $out"; }
# one test builds alone: after edan.h changes, `make test T=core` rebuilds
# test_core and nothing else; T=probe what test_probe.sh runs (probe, the
# plugin and examples, build/test_profile) and no fuzzer
built=$(make -n -W edan.h test T=core 2>/dev/null | grep -o -- '-o [^ ]*' | sort -u | tr '\n' ' ')
[ "$built" = "-o build/test_core " ] && ok "make test T=core after edan.h changed builds build/test_core alone" \
  || bad "make test T=core builds: $built"
built=$(make -n -W edan.h test T=probe 2>/dev/null | grep -o -- '-o [^ ]*' | sort -u | tr '\n' ' ')
grep -q -- "-o build/test_profile" <<< "$built" && grep -q -- "-o probe" <<< "$built" && ! grep -q "fuzz_\|test_core" <<< "$built" \
  && ok "make test T=probe builds probe and build/test_profile, no fuzzer, no other unit test" || bad "make test T=probe builds: $built"
exit $fail
