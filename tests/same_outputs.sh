#!/usr/bin/env bash
# tests/same_outputs.sh [REV] - every subcommand's outputs, byte for byte,
# from this checkout's build and from REV's (default HEAD), on the example
# kernels and the shipped profiles: traces (text and binary), analyze reports
# (text, JSON, timeline CSV, DOT, sweep CSV, hotspots, profiles, several
# configurations), online trace reports, rank, plot and roofline charts.
# A refactoring that promises "behaviour unchanged" runs this before it lands;
# a change that fixes a defect names the files it changes.
#
# REV is built in a git worktree under build/same/; both builds run the same
# example binaries (this checkout's), so only the tools differ. Exit status 0
# when every output is the same, 1 when one differs (each listed, with the
# first lines of its diff), 2 when a build or a command fails.
set -u
cd "$(dirname "$0")/.."
REV=${1:-HEAD}
ROOT=$PWD
W=$ROOT/build/same
sha=$(git rev-parse --verify -q "$REV^{commit}") || { echo "same_outputs: no revision $REV" >&2; exit 2; }
mkdir -p "$W"

# REV's tools: a worktree, built once per commit
OLD=$W/tree-${sha:0:12}
if [ ! -x "$OLD/edan" ] || [ ! -e "$OLD/build/edan-plugin.so" ]; then
  rm -rf "$OLD"
  git worktree prune
  git worktree add -q --detach "$OLD" "$sha" || exit 2
  mkdir -p "$OLD/build/qemu" && cp -p build/qemu/qemu-plugin.h "$OLD/build/qemu/" 2>/dev/null
  cp -p build/deps.ok "$OLD/build/" 2>/dev/null
  echo "building $REV (${sha:0:12}) in $OLD" >&2
  make -s -C "$OLD" edan build/edan-plugin.so > "$W/build-old.log" 2>&1 \
    || { echo "same_outputs: building $REV failed (see $W/build-old.log)" >&2; exit 2; }
fi
make -s edan build/edan-plugin.so examples > "$W/build-new.log" 2>&1 \
  || { echo "same_outputs: building this checkout failed (see $W/build-new.log)" >&2; exit 2; }

# run_all TOOLS_DIR OUT: the battery, with TOOLS_DIR's edan
run_all() {
  local tools=$1 out=$2 ex=$ROOT/build/examples
  rm -rf "$out"; mkdir -p "$out"
  local E=$tools/edan
  step() {      # NAME COMMAND...: stdout into NAME.out; a failing command stops the run
    local name=$1; shift
    # a fixed environment: the traced programs' stack (and so their
    # addresses) depends on it
    (cd "$out" && env -i PATH="$PATH" HOME="$HOME" LC_ALL=C "$@") > "$out/$name.out" 2> "$out/$name.err" \
      || { echo "same_outputs: $* failed in $out (exit $?): $(head -c 300 "$out/$name.err")" >&2; return 1; }
    rm -f "$out/$name.err"
  }
  local k
  for k in "sum 4096 kernel" "gemm 24 kernel_gemm" "chase 4096 kernel_chase" "triad 8192 kernel_triad" \
           "lu 24 kernel_lu" "mvt 64 kernel_mvt" "spmv 16 --region kernel_cg_step"; do
    set -- $k
    local name=$1 size=$2 scope
    if [ "$3" = --region ]; then scope="--region $4"; else scope="--func $3"; fi
    step "$name-trace-text" "$E" trace --quiet --text "$name.txt" $scope -- "$ex/$name" "$size" || return 1
    step "$name-trace-bin" "$E" trace --quiet --binary "$name.bin" $scope -- "$ex/$name" "$size" || return 1
    step "$name-online" "$E" trace --cache 1K:2:64 --top 3 $scope -- "$ex/$name" "$size" || return 1
    step "$name-analyze" "$E" analyze "$name.txt" || return 1
    step "$name-analyze-bin" "$E" analyze --json "$name.bin" || return 1
    step "$name-caches" "$E" analyze --json --m 1,4,8 --cache 1K:2:64 --cache 8K:4:64 --tau 50 \
      --timeline "$name-tl.csv" --sweep "$name-sweep.csv" --top 5 "$name.txt" || return 1
    step "$name-configs" "$E" analyze --config=none --config=small --cache 1K:2:64:wt \
      --config=paper --paper-cache --cache 2K:4:64 "$name.txt" || return 1
    step "$name-profile" "$E" analyze --profile "$ROOT/hwprofiles/vm.json" --alpha-add 80 --json "$name.txt" || return 1
    step "$name-plot" "$E" plot -o "$name-dm.svg" "$name-caches.out" || return 1
    step "$name-plot-sweep" "$E" plot -o "$name-sweep.svg" --sweep "$name-sweep.csv" || return 1
  done
  step sum-small "$E" trace --quiet --text sum-small.txt --func kernel -- "$ex/sum" 16 || return 1
  step dot "$E" analyze --dot sum-small.dot --cache 1K:2:64 sum-small.txt || return 1
  step rank "$E" rank sum-profile.out gemm-profile.out chase-profile.out triad-profile.out lu-profile.out \
    mvt-profile.out spmv-profile.out || return 1
  local p
  for p in vm; do
    step "roofline-$p" "$E" roofline -o "roofline-$p.svg" "$ROOT/hwprofiles/$p.json" || return 1
  done
  for p in qemu-2node reference-tpds19-joe0 reference-tpds19-knl; do
    step "roofline-$p" "$E" roofline --larm -o "roofline-$p.svg" "$ROOT/hwprofiles/$p.json" || return 1
  done
  step roofline-app "$E" roofline -o roofline-app.svg --app gemm-profile.out --app triad-profile.out \
    "$ROOT/hwprofiles/vm.json" || return 1
  step roofline-larm "$E" roofline -o roofline-larm.svg --cluster 0 "$ROOT/hwprofiles/qemu-2node.json" || return 1
}

echo "outputs of $REV (${sha:0:12})" >&2
run_all "$OLD" "$W/old" || exit 2
echo "outputs of this checkout" >&2
run_all "$ROOT" "$W/new" || exit 2

n=0 differ=0
for f in "$W"/old/*; do
  b=$(basename "$f")
  n=$((n + 1))
  if [ ! -e "$W/new/$b" ]; then
    echo "only in $REV: $b"; differ=$((differ + 1))
  elif ! cmp -s "$f" "$W/new/$b"; then
    echo "differs: $b"; differ=$((differ + 1))
    diff <(head -c 200000 "$f") <(head -c 200000 "$W/new/$b") | head -6 | sed 's/^/    /'
  fi
done
for f in "$W"/new/*; do
  [ -e "$W/old/$(basename "$f")" ] || { echo "only in this checkout: $(basename "$f")"; differ=$((differ + 1)); }
done
echo "$((n - differ)) of $n outputs byte-identical to $REV, $differ differ"
[ "$differ" = 0 ]
