#!/usr/bin/env bash
# Every output of every subcommand against the targets users give it
# (tools/common/files.h): a regular file (replaced whole), - (standard output), a
# FIFO (written into, still a FIFO), a symbolic link (its file written, the
# link kept), /dev/null (written, still a device), /dev/full (exit 2 and a
# message, the device kept), a full filesystem (root: a small tmpfs; exit 2,
# the old file intact, no temporary file left) and a closed pipe (exit 2 and
# a message, for what writes to standard output).
. "$(dirname "$0")/../lib.sh"

# inputs
./edan trace --quiet --text "$T/t.txt" --func kernel -- build/examples/sum 30 >/dev/null 2>&1 || { bad "setup: text trace"; exit 1; }
./edan trace --quiet --json --tau 20 -o "$T/r.json" --func kernel -- build/examples/sum 30 >/dev/null 2>&1 \
  || { bad "setup: report"; exit 1; }

# name | a command with OUT where the output goes (stdout: none)
cmds=(
  "analyze --timeline|./edan analyze --quiet --tau 20 --timeline OUT $T/t.txt"
  "analyze --dot|./edan analyze --quiet --dot OUT $T/t.txt"
  "analyze --sweep|./edan analyze --quiet --sweep OUT $T/t.txt"
  "trace -o|./edan trace --quiet -o OUT --func kernel -- build/examples/sum 10"
  "trace --text|./edan trace --quiet --text OUT --func kernel -- build/examples/sum 10"
  "trace --binary|./edan trace --quiet --binary OUT --func kernel -- build/examples/sum 10"
  "plot -o|./edan plot $T/r.json -o OUT"
  "roofline -o|./edan roofline hwprofiles/vm.json -o OUT"
  "probe -o|./probe --quick --budget 1 -q -o OUT"
)
# what writes its result to standard output
stdout_cmds=(
  "analyze|./edan analyze --quiet $T/t.txt"
  "rank|./edan rank $T/r.json"
  "trace|./edan trace --quiet --func kernel -- build/examples/sum 10"
  "trace --text -|./edan trace --quiet --text - --func kernel -- build/examples/sum 10"
)

run_to() {  # run_to CMD TARGET: CMD with OUT replaced by TARGET; status in $rc, stderr in $T/err
  local c=${1//OUT/$2}
  eval "$c" > "$T/stdout" 2> "$T/err" < /dev/null; rc=$?
}

for cs in "${cmds[@]}"; do
  name=${cs%%|*}; cmd=${cs#*|}
  # a regular file: replaced whole (a new inode), exit 0
  echo old > "$T/reg"; ino=$(stat -c %i "$T/reg")
  run_to "$cmd" "$T/reg"
  [ $rc -eq 0 ] && [ -s "$T/reg" ] && [ "$(head -c 3 "$T/reg")" != old ] && [ "$(stat -c %i "$T/reg")" != "$ino" ] \
    && ok "$name: a regular file is replaced" || bad "$name: regular file (exit $rc) $(head -c 200 "$T/err")"
  ls "$T" | grep -q '\.tmp\.' && bad "$name: a temporary file was left"
  # a FIFO: written into, still a FIFO
  rm -f "$T/fifo"; mkfifo "$T/fifo"
  exec 3<>"$T/fifo"     # a writer of our own, so that the reader ends when we close it, whatever the command did
  exec 4<"$T/fifo"      # the reader's end, open before the command runs (else what it writes could be
  cat <&4 3>&- > "$T/fifo.out" & reader=$!   # dropped with the last descriptor, and cat wait for ever)
  exec 4<&-
  run_to "$cmd" "$T/fifo"
  exec 3>&-
  wait $reader
  [ $rc -eq 0 ] && [ -p "$T/fifo" ] && [ -s "$T/fifo.out" ] \
    && ok "$name: a FIFO is written into and stays a FIFO" || bad "$name: FIFO (exit $rc) $(head -c 200 "$T/err")"
  # a symbolic link: its file written, the link kept
  rm -f "$T/link" "$T/linked"; ln -s linked "$T/link"
  run_to "$cmd" "$T/link"
  [ $rc -eq 0 ] && [ -L "$T/link" ] && [ -s "$T/linked" ] \
    && ok "$name: a symbolic link keeps pointing at the written file" || bad "$name: symlink (exit $rc) $(head -c 200 "$T/err")"
  # /dev/null: fine; /dev/full: exit 2, said, still a device
  run_to "$cmd" /dev/null
  [ $rc -eq 0 ] && [ -c /dev/null ] && ok "$name: /dev/null" || bad "$name: /dev/null (exit $rc) $(head -c 200 "$T/err")"
  run_to "$cmd" /dev/full
  [ $rc -eq 2 ] && grep -qi "space\|/dev/full" "$T/err" && [ -c /dev/full ] \
    && ok "$name: /dev/full: exit 2, said" || bad "$name: /dev/full (exit $rc) $(head -c 200 "$T/err")"
done

# standard output: -, a closed pipe
for cs in "${stdout_cmds[@]}"; do
  name=${cs%%|*}; cmd=${cs#*|}
  run_to "$cmd" x
  [ $rc -eq 0 ] && [ -s "$T/stdout" ] && ok "$name: standard output" || bad "$name: standard output (exit $rc)"
  python3 - "$cmd" > "$T/pipe" 2>&1 <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)                                     # nobody will read: every write fails
p = subprocess.run(sys.argv[1], shell=True, stdout=w, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
os.close(w)
print(p.returncode)
sys.stdout.write(p.stderr.decode(errors="replace"))
PY
  prc=$(head -n 1 "$T/pipe")
  [ "$prc" = 2 ] && grep -qi "broken pipe\|standard output" "$T/pipe" \
    && ok "$name: a closed pipe: exit 2, said" || bad "$name: closed pipe: $(head -c 300 "$T/pipe")"
done

# a file replaced keeps its mode; one without write permission is refused,
# untouched; a hard link is replaced by a new file (the other name keeps
# the old content, as README.md says)
echo old > "$T/old"
for cs in "${cmds[@]}"; do
  name=${cs%%|*}; cmd=${cs#*|}
  echo old > "$T/mode.out"; chmod 600 "$T/mode.out"
  run_to "$cmd" "$T/mode.out"
  [ $rc -eq 0 ] && [ "$(stat -c %a "$T/mode.out")" = 600 ] && ! cmp -s "$T/mode.out" "$T/old" \
    && ok "$name: a 0600 file replaced: still 0600" || bad "$name: 0600 file: exit $rc, mode $(stat -c %a "$T/mode.out")"
  echo old > "$T/ro.out"; chmod 444 "$T/ro.out"
  run_to "$cmd" "$T/ro.out"
  [ $rc -eq 2 ] && [ "$(cat "$T/ro.out")" = old ] && grep -q "read-only" "$T/err" \
    && ok "$name: a 0444 file: exit 2, said, untouched" || bad "$name: 0444 file: exit $rc $(head -c 200 "$T/err")"
  rm -f "$T/ro.out"
  echo old > "$T/link1"; rm -f "$T/link2"; ln "$T/link1" "$T/link2"
  run_to "$cmd" "$T/link2"
  [ $rc -eq 0 ] && cmp -s "$T/link1" "$T/old" && ! cmp -s "$T/link2" "$T/old" \
    && ok "$name: a hard link: a new file, the other name keeps the old content" || bad "$name: hard link: exit $rc"
done

# an output that is an input (or the program) is refused, the input intact;
# two outputs on one file or on standard output are refused
cp build/examples/sum "$T/prog"
cp "$T/t.txt" "$T/t2.txt"
cp hwprofiles/vm.json "$T/p.json"
cp "$T/r.json" "$T/r2.json"
cp hwprofiles/qemu-2node.json "$T/l-cluster0.svg"
for cs in "analyze --timeline|./edan analyze --quiet --tau 20 --timeline $T/t2.txt $T/t2.txt|$T/t2.txt" \
          "analyze --sweep|./edan analyze --quiet --sweep $T/t2.txt $T/t2.txt|$T/t2.txt" \
          "analyze --dot|./edan analyze --quiet --dot $T/t2.txt $T/t2.txt|$T/t2.txt" \
          "analyze --profile --sweep|./edan analyze --quiet --profile $T/p.json --sweep $T/p.json $T/t.txt|$T/p.json" \
          "trace -o the program|./edan trace --quiet -o $T/prog -- $T/prog 4|$T/prog" \
          "plot -o its report|./edan plot $T/r2.json -o $T/r2.json|$T/r2.json" \
          "roofline -o its profile|./edan roofline $T/p.json -o $T/p.json|$T/p.json" \
          "roofline --larm, a cluster's chart its profile|./edan roofline $T/l-cluster0.svg --larm -o $T/l.svg|$T/l-cluster0.svg"; do
  IFS='|' read -r name cmd file <<< "$cs"
  sum=$(md5sum < "$file")
  $cmd > /dev/null 2> "$T/err"; rc=$?
  [ $rc -eq 2 ] && [ "$(md5sum < "$file")" = "$sum" ] && grep -q "would destroy it" "$T/err" \
    && ok "$name on its input: exit 2, said, the input intact" || bad "$name on its input: exit $rc $(head -c 200 "$T/err")"
done
for cs in "analyze --json --sweep -|./edan analyze --quiet --json --sweep - $T/t.txt" \
          "trace --sweep -|./edan trace --quiet --sweep - --func kernel -- build/examples/sum 4" \
          "trace --timeline -|./edan trace --quiet --tau 20 --timeline - -o $T/x.json --func kernel -- build/examples/sum 4" \
          "analyze --timeline X --sweep X|./edan analyze --quiet --tau 20 --timeline $T/x.csv --sweep $T/x.csv $T/t.txt"; do
  IFS='|' read -r name cmd <<< "$cs"
  $cmd > "$T/out" 2> "$T/err"; rc=$?
  [ $rc -eq 2 ] && [ ! -s "$T/out" ] && grep -q "standard output\|the same file" "$T/err" \
    && ok "$name: two outputs on one stream or file: exit 2, said" || bad "$name: exit $rc $(head -c 200 "$T/err")"
done
# help that cannot be written is an error
for c in "./edan --help" "./edan analyze --help" "./probe --help"; do
  $c > /dev/full 2> "$T/err"; rc=$?
  [ $rc -eq 2 ] && grep -q "standard output" "$T/err" && ok "$c > /dev/full: exit 2, said" || bad "$c > /dev/full: exit $rc"
done

# a full filesystem (root only: a 256 KiB tmpfs filled up)
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=256k tmpfs "$T/full" 2>/dev/null; then
  echo old > "$T/full/out"
  dd if=/dev/zero of="$T/full/fill" bs=4k count=1000 2>/dev/null
  for cs in "${cmds[@]}"; do
    name=${cs%%|*}; cmd=${cs#*|}
    run_to "$cmd" "$T/full/out"
    left=$(ls "$T/full" | grep -c '\.tmp\.' || true)
    [ $rc -eq 2 ] && [ "$(cat "$T/full/out")" = old ] && [ "$left" -eq 0 ] && grep -qi "space" "$T/err" \
      && ok "$name: a full filesystem: exit 2, said, the old file intact, nothing left" \
      || bad "$name: full filesystem (exit $rc, $left temporary files) $(head -c 200 "$T/err")"
  done
  umount "$T/full"
else
  skip "full filesystem" "needs root to mount a small tmpfs"
fi
exit $fail
