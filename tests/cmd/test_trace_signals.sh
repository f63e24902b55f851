#!/usr/bin/env bash
# edan trace when the run ends early (tests/cmd/stopme.c, built for both
# ISAs):
#  - SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGUSR1 to edan while the program
#    spins, at their default action or ignoring SIGINT and SIGTERM, and
#    while it waits in sleep() ignoring SIGTERM: exit 1, the report of what
#    was analysed marked partial (text and JSON), the binary trace written
#    and whole (its analysis has the report's W), no process and no
#    temporary file left;
#  - SIGINT at several points of an endless chain (chase): the partial
#    report, D = W; under nohup SIGHUP does not end the run;
#  - SIGKILL to edan: qemu goes too (a program that ignores SIGTERM
#    included); only edan's own temporary directory may stay;
#  - a crash after the traced function ran: exit 128+11, the function's
#    W reported (partial), on both ISAs;
#  - --max-insns and --max-seconds: exit 0, partial;
#  - an execv that fails: the analysis goes on to the end (not ended at the
#    exec; x86-64 ran into SIGSEGV), on both ISAs.
. "$(dirname "$0")/../lib.sh"
E=./edan
mkdir -p "$T/tmp"
export TMPDIR=$T/tmp
gcc -O2 -o "$T/stopme" tests/cmd/stopme.c || { bad "cannot build stopme"; exit 1; }
riscv64-linux-gnu-gcc -O2 -static -o "$T/stopme.rv" tests/cmd/stopme.c || { bad "cannot build stopme for RISC-V"; exit 1; }

# wait_for FILE: until it exists (the program is set up), at most 60 s
wait_for() { local k; for k in $(seq 600); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }
# gone PATTERN: until no process matches, at most 60 s
gone() { local k; for k in $(seq 600); do pgrep -f "$1" > /dev/null || return 0; sleep 0.1; done; return 1; }
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(*[d.get(k, d["configs"][0].get(k)) for k in sys.argv[2:]], sep="|")' "$@"; }

# 1. a signal to edan
for case in "INT spin" "TERM spin" "QUIT spin" "HUP spin" "USR1 spin" "INT ignore" "TERM ignore" "TERM sleep"; do
  set -- $case
  sig=$1 mode=$2
  rm -f "$T/ready" "$T/r.json" "$T/r.bt"
  # (SIGHUP's default given back: under nohup, edan keeps an ignored SIGHUP ignored, as below)
  env --default-signal=HUP $E trace --quiet --json -o "$T/r.json" --binary "$T/r.bt" --analyze --func work -- "$T/stopme" "$mode" "$T/ready" \
    > /dev/null 2> "$T/err" &
  pid=$!
  wait_for "$T/ready" || bad "SIG$sig $mode: the program did not start"
  sleep 0.5
  kill -"$sig" $pid
  wait $pid; rc=$?
  left=$(ls -A "$T/tmp" | wc -l)
  if [ $rc = 1 ] && [ -s "$T/r.json" ] && [ "$(json "$T/r.json" partial)" = True ] && gone "$T/stopme $mode" &&
     [ "$left" = 0 ] && [ "$($E analyze --json --quiet "$T/r.bt" | python3 -c 'import json,sys; print(json.load(sys.stdin)["configs"][0]["W"])')" = "$(json "$T/r.json" W)" ]; then
    ok "SIG$sig to edan, program '$mode': exit 1, partial report ($(json "$T/r.json" partial_reason)), its binary trace whole, nothing left"
  else
    bad "SIG$sig to edan, program '$mode': exit $rc, $left files left in TMPDIR, report '$(head -c 300 "$T/r.json" 2>/dev/null)': $(tail -3 "$T/err")"
  fi
done
# the text report says so too
rm -f "$T/ready"
$E trace --quiet --func work -- "$T/stopme" spin "$T/ready" > "$T/report.txt" 2> "$T/err" &
pid=$!
wait_for "$T/ready"; sleep 0.5; kill -INT $pid; wait $pid; rc=$?
[ $rc = 1 ] && grep -q "^PARTIAL: the run ended early" "$T/report.txt" && ok "the text report of a stopped run: PARTIAL" \
  || bad "text report of a stopped run: exit $rc $(head -5 "$T/report.txt")"

# SIGINT at several points of an endless chain of dependent loads (both
# ISAs): the partial report of every load run until then, D = W (each load
# a layer); the report's size does not depend on how far the chain got.
# How long the report takes is measured in tests/bench/bench_layers.sh.
for isa in x86 rv; do
  p=$T/stopme; [ $isa = rv ] && p=$T/stopme.rv
  for at in 0 0.5 3; do
    rm -f "$T/ready" "$T/r.json"
    $E trace --quiet --json -o "$T/r.json" --func chase -- "$p" chase "$T/ready" > /dev/null 2> "$T/err" &
    pid=$!
    wait_for "$T/ready" || bad "$isa chase: the program did not start"
    sleep $at
    kill -INT $pid
    wait $pid; rc=$?
    dw=$(json "$T/r.json" partial D W 2>&1)
    d=$(echo "$dw" | cut -d'|' -f2)
    if [ $rc = 1 ] && [ "$dw" = "True|$d|$d" ] && gone "$p chase"; then
      ok "$isa: SIGINT ${at} s into an endless chain: exit 1, partial report, D = W = $d"
    else
      bad "$isa: SIGINT ${at} s into an endless chain: exit $rc, '$dw' $(tail -2 "$T/err")"
    fi
  done
done
# nohup: SIGHUP stays ignored, the run goes on (then SIGTERM ends it)
rm -f "$T/ready" "$T/r.json"
nohup $E trace --quiet --json -o "$T/r.json" --func work -- "$T/stopme" spin "$T/ready" > /dev/null 2> "$T/err" &
pid=$!
wait_for "$T/ready"
kill -HUP $pid; sleep 0.5
if kill -0 $pid 2> /dev/null; then
  kill -TERM $pid; wait $pid; rc=$?
  [ $rc = 1 ] && [ "$(json "$T/r.json" partial)" = True ] && ok "under nohup: SIGHUP ignored, SIGTERM then stops the run"     || bad "under nohup: after SIGTERM exit $rc $(tail -2 "$T/err")"
else
  wait $pid; bad "under nohup: SIGHUP ended the run (exit $?)"
fi

# 2. SIGKILL to edan: qemu goes too, though the program ignores SIGTERM
rm -f "$T/ready"
$E trace --quiet --func work -- "$T/stopme" ignore "$T/ready" > /dev/null 2>&1 &
pid=$!
wait_for "$T/ready"
kill -KILL $pid
{ wait $pid; } 2> /dev/null
gone "$T/stopme ignore" && ok "SIGKILL to edan: qemu went too" || bad "SIGKILL to edan: qemu left running"
rm -rf "${T:?}"/tmp/*

# 3. a crash after the traced function ran: its accesses reported (1000 + 1 and ret's)
for isa in x86 rv; do
  p=$T/stopme; [ $isa = rv ] && p=$T/stopme.rv
  want=1002; [ $isa = rv ] && want=1001
  $E trace --quiet --json -o "$T/c.json" --func work -- "$p" crash > /dev/null 2> "$T/err"; rc=$?
  [ $rc = 139 ] && [ "$(json "$T/c.json" partial W)" = "True|$want" ] && grep -q "crashed" "$T/err" \
    && ok "$isa: a crash after the function ran: exit 139, its W $want reported, partial" \
    || bad "$isa: crash: exit $rc, '$(json "$T/c.json" partial W 2>&1)' $(tail -2 "$T/err")"
done

# 4. limits
$E trace --quiet --json -o "$T/l.json" --max-insns 100000 --func work -- "$T/stopme" spin > /dev/null 2> "$T/err"; rc=$?
n=$(json "$T/l.json" machine_instructions)
[ $rc = 0 ] && [ "$(json "$T/l.json" partial)" = True ] && [ "$n" -ge 100000 ] && [ "$n" -lt 101000 ] \
  && ok "--max-insns 100000: exit 0, partial, $n instructions" || bad "--max-insns: exit $rc, $n $(tail -2 "$T/err")"
$E trace --quiet --json -o "$T/l.json" --max-seconds 1 -- "$T/stopme" sleep > /dev/null 2> "$T/err"; rc=$?
[ $rc = 0 ] && [ "$(json "$T/l.json" partial)" = True ] && ok "--max-seconds 1 of a sleeping program: exit 0, partial" \
  || bad "--max-seconds: exit $rc $(tail -2 "$T/err")"
$E trace --quiet --max-insns 0 -- "$T/stopme" spin > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "max-insns" "$T/err" && ok "--max-insns 0: exit 2, said" || bad "--max-insns 0: exit $rc"

# 5. an execv that fails: the analysis goes on (W of work(100) and work(1000),
# whose first load is forwarded from work(100)'s last store, and ret's on x86-64)
for isa in x86 rv; do
  p=$T/stopme; [ $isa = rv ] && p=$T/stopme.rv
  want=1103; [ $isa = rv ] && want=1101
  $E trace --quiet --json -o "$T/e.json" --func work -- "$p" exec > /dev/null 2> "$T/err"; rc=$?
  [ $rc = 0 ] && [ "$(json "$T/e.json" partial W)" = "False|$want" ] && ! grep -q "replaced itself" "$T/err" \
    && ok "$isa: a failed execv: the analysis went on, W $want" \
    || bad "$isa: failed execv: exit $rc, '$(json "$T/e.json" partial W 2>&1)' $(tail -2 "$T/err")"
done
exit $fail
