#!/usr/bin/env bash
# `edan analyze` end to end: trace variants give the same metrics, every
# input path (file, .gz, stdin, CRLF) agrees, bad input gives FILE:LINE and
# exit status 2, and the outputs (--json, --timeline, --dot, --top,
# --config) hold what they should.
. "$(dirname "$0")/../lib.sh"
# json FILE EXPR: evaluate a Python expression over the parsed report `r`
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }
# metrics of every configuration, without the source name
metrics() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); [c.pop('name') for c in r['configs']]; print(json.dumps(r['configs'], sort_keys=True))" "$1"; }

cc -O2 -o "$T/gen" tests/gen_trace.c || exit 1

# --- the paper's Fig. 5 summation trace (n = 4): W = 4, D = 1 -----------------
cat > "$T/sum.txt" <<'EOF'
add a3,a0,a1
mv a0,zero
lw a4,0(a5);0x40080290
addi a5,a5,4
addw a0,a0,a4
bne a3,a5,-6
lw a4,0(a5);0x40080294
addi a5,a5,4
addw a0,a0,a4
bne a3,a5,-6
lw a4,0(a5);0x40080298
addi a5,a5,4
addw a0,a0,a4
bne a3,a5,-6
lw a4,0(a5);0x4008029c
addi a5,a5,4
addw a0,a0,a4
bne a3,a5,-6
EOF
./edan analyze --json --alpha 1 "$T/sum.txt" > "$T/sum.json" || bad "analyze sum.txt"
[ "$(json "$T/sum.json" "r['configs'][0]['W'], r['configs'][0]['D'], r['configs'][0]['instructions']")" = "4 1 18" ] \
  && ok "summation kernel: W = 4, D = 1" || bad "summation kernel: $(json "$T/sum.json" "r['configs'][0]['W'], r['configs'][0]['D']")"

# --- every accepted line format gives the same metrics -------------------------
for f in paper authors pc; do "$T/gen" 20000 8192 $f > "$T/v-$f.txt"; done
for f in paper authors pc; do
  ./edan analyze --json --tau 50 --cache 1K:2:64 "$T/v-$f.txt" > "$T/v-$f.json" || bad "analyze $f"
done
a=$(metrics "$T/v-paper.json")
[ "$a" = "$(metrics "$T/v-authors.json")" ] && [ "$a" = "$(metrics "$T/v-pc.json")" ] \
  && ok "paper, authors' and PC formats agree" || bad "line formats disagree"

# --- data after a gzip stream: refused, as gzip -t refuses it ----------------------
printf 'lw a0,0(a0);0x1000\n' | gzip > "$T/trail.gz"
printf 'garbage' >> "$T/trail.gz"
./edan analyze "$T/trail.gz" > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "7 bytes after the end of the compressed stream" "$T/err" \
  && ok "data after a gzip stream: refused, exit 2" || bad "data after a gzip stream: rc=$rc $(cat "$T/err")"
printf 'lw a0,0(a0);0x1000\n' | gzip > "$T/two.gz"
printf 'lw a0,0(a0);0x2000\n' | gzip >> "$T/two.gz"
[ "$(./edan analyze --json "$T/two.gz" | python3 -c 'import json,sys; print(json.load(sys.stdin)["configs"][0]["W"])')" = 2 ] \
  && ok "two gzip members: one stream, both read" || bad "two gzip members"

# --- file, gzip, stdin, CRLF agree ------------------------------------------------
gzip -c "$T/v-paper.txt" > "$T/v.txt.gz"
sed 's/$/\r/' "$T/v-paper.txt" > "$T/v-crlf.txt"
./edan analyze --json --tau 50 --cache 1K:2:64 "$T/v.txt.gz" > "$T/gz.json" || bad "analyze .gz"
./edan analyze --json --tau 50 --cache 1K:2:64 - < "$T/v-paper.txt" > "$T/stdin.json" || bad "analyze stdin"
./edan analyze --json --tau 50 --cache 1K:2:64 "$T/v-crlf.txt" > "$T/crlf.json" || bad "analyze CRLF"
[ "$a" = "$(metrics "$T/gz.json")" ] && [ "$a" = "$(metrics "$T/stdin.json")" ] && [ "$a" = "$(metrics "$T/crlf.json")" ] \
  && ok ".gz, stdin and CRLF agree with the plain file" || bad ".gz/stdin/CRLF disagree"

# --- a long trace: read on its own thread in batches of 256 KiB, the same
# answer, and messages at the right line, in any batch ----------------------------
"$T/gen" 150000 65536 paper > "$T/long.txt"
long=$(wc -l < "$T/long.txt")
c4k=$(head -c 3999 /dev/zero | tr '\0' c)
# 4000-byte comment lines every 37 111 lines: some straddle the batches' ends
awk -v c="#$c4k" 'NR % 37111 == 0 { print c } { print }' "$T/long.txt" > "$T/long-c.txt"
./edan analyze --json --cache 4K:4:64 "$T/long.txt" > "$T/long.json" || bad "analyze long"
./edan analyze --json --cache 4K:4:64 "$T/long-c.txt" > "$T/long-c.json" || bad "analyze long with comments"
cat "$T/long-c.txt" | ./edan analyze --json --cache 4K:4:64 - > "$T/long-p.json" || bad "analyze long from a pipe"
[ "$(metrics "$T/long.json")" = "$(metrics "$T/long-c.json")" ] && [ "$(metrics "$T/long.json")" = "$(metrics "$T/long-p.json")" ] \
  && [ "$(json "$T/long.json" "r['configs'][0]['instructions']")" = "$long" ] \
  && ok "$long lines in batches: long comment lines and a pipe change nothing, every instruction counted" \
  || bad "long trace: $(json "$T/long.json" "r['configs'][0]['instructions']") instructions of $long, or comments/pipe differ"
# a parse error and an engine error (an access that wraps around), each deep in the file
sed '120001s/.*/lw a4,0(a5/' "$T/long.txt" > "$T/long-e1.txt"
sed '130001s/.*/ld a4,0(a5);0xfffffffffffffffc/' "$T/long.txt" > "$T/long-e2.txt"
./edan analyze --quiet "$T/long-e1.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "long-e1.txt:120001: .*lw a4,0(a5$" "$T/err" && [ "$(wc -l < "$T/err")" = 1 ] \
  && ok "a parse error at line 120001 is reported there, alone" || bad "parse error deep: rc=$rc $(cat "$T/err")"
./edan analyze --quiet "$T/long-e2.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "long-e2.txt:130001: .*wraps around.*0xfffffffffffffffc" "$T/err" && [ "$(wc -l < "$T/err")" = 1 ] \
  && ok "an engine error at line 130001 is reported there, alone" || bad "engine error deep: rc=$rc $(cat "$T/err")"

# --- several configurations in one pass equal separate runs ---------------------
./edan analyze --json "$T/v-paper.txt" --config --cache 4K:4:64 --config --cache 1K:1:32:wt > "$T/multi.json" || bad "multi"
./edan analyze --json "$T/v-paper.txt" > "$T/c0.json"
./edan analyze --json --cache 4K:4:64 "$T/v-paper.txt" > "$T/c1.json"
./edan analyze --json --cache 1K:1:32:wt "$T/v-paper.txt" > "$T/c2.json"
m=$(python3 - "$T" <<'EOF'
import json, sys
d = sys.argv[1]
multi = json.load(open(d + "/multi.json"))["configs"]
single = [json.load(open(f"{d}/c{i}.json"))["configs"][0] for i in range(3)]
for c in multi + single: c.pop("name")
print("same" if multi == single else "different")
EOF
)
[ "$m" = same ] && ok "--config: three configurations in one pass equal three runs" || bad "--config differs from separate runs"

# --- Lambda takes its baseline alpha0, the bounds alpha -----------------------
./edan analyze --json --alpha 300 --alpha0 120 --cache 4K:4:64 "$T/v-paper.txt" > "$T/a0.json"
python3 - "$T/a0.json" <<'EOF' && ok "--alpha0: Lambda = lambda / (lambda x alpha0 + C), the bounds at alpha" || bad "--alpha0"
import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
assert c["alpha"] == 300 and c["alpha0"] == 120
for m, b in c["m"].items():
    assert abs(b["Lambda"] - b["lambda"] / (b["lambda"] * 120 + c["C"])) < 1e-15, (m, b)
    assert abs(b["M_upper"] - b["lambda"] * 300) < 1e-6, (m, b)
EOF

# --- bounds and Lambda hold on every report above -----------------------------
python3 - "$T"/*.json <<'EOF' && ok "lower <= layered <= upper, 0 <= Lambda <= 1 in every report" || bad "bounds violated"
import json, sys
for f in sys.argv[1:]:
    for c in json.load(open(f))["configs"]:
        for m, b in c["m"].items():
            assert b["M_lower"] <= b["M_layered"] + 1e-9 <= b["M_upper"] + 2e-9, (f, m, b)
            assert 0 <= b["Lambda"] <= 1, (f, m, b)
            assert abs(b["lambda"] - ((c["W"] - c["D"]) / int(m) + c["D"] if c["W"] else 0)) < 1e-9
EOF

# --- timeline CSV, DOT, hotspots ---------------------------------------------------
./edan analyze --quiet --tau 100 --timeline "$T/tl.csv" "$T/v-paper.txt" > /dev/null || bad "timeline"
rows=$(($(wc -l < "$T/tl.csv") - 1))
want=$(./edan analyze --json --tau 100 "$T/v-paper.txt" | python3 -c "import json,sys,math; c=json.load(sys.stdin)['configs'][0]; print(math.ceil(c['Tinf']/100)+1)")
[ "$rows" = "$want" ] && ok "timeline CSV has ceil(Tinf/tau)+1 rows ($rows)" || bad "timeline rows $rows, want $want"
./edan analyze --timeline "$T/x.csv" "$T/v-paper.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "needs --tau" "$T/err" && ok "--timeline without --tau refused" \
  || bad "--timeline without --tau: exit $rc, $(cat "$T/err")"
./edan analyze --dot "$T/sum.dot" "$T/sum.txt" > /dev/null || bad "dot"
grep -q "digraph" "$T/sum.dot" && [ "$(grep -c '#e04040' "$T/sum.dot")" = 4 ] && grep -q "penwidth=3" "$T/sum.dot" \
  && ok "--dot: 4 red memory vertices and a highlighted critical path" || bad "dot content"
# the same four loads of one line through a cache: one miss, three hits that
# wait for it (fill edges, dashed), none under the paper's rule
./edan analyze --cache 1K:2:64 --dot "$T/sumc.dot" "$T/sum.txt" > /dev/null || bad "dot with a cache"
fe=$(./edan analyze --json --cache 1K:2:64 "$T/sum.txt" | python3 -c "import json,sys; print(json.load(sys.stdin)['configs'][0]['fill_edges'])")
[ "$(grep -c '#e04040' "$T/sumc.dot")" = 1 ] && [ "$(grep -c 'style=dashed' "$T/sumc.dot")" = 3 ] && [ "$fe" = 3 ] \
  && ok "--dot with a cache: 1 memory vertex, 3 fill edges dashed (fill_edges = $fe)" || bad "dot fill edges (fill_edges $fe)"
./edan analyze --paper-cache --cache 1K:2:64 --dot "$T/sump.dot" "$T/sum.txt" > /dev/null || bad "dot --paper-cache"
! grep -q 'style=dashed' "$T/sump.dot" && ok "--dot --paper-cache: no fill edges" || bad "--paper-cache drew fill edges"
./edan analyze --dot "$T/big.dot" "$T/v-paper.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -ne 0 ] && grep -q "DOT output is limited" "$T/err" && [ ! -e "$T/big.dot" ] \
  && ok "--dot refuses a large eDAG and leaves no file" || bad "--dot on a large trace: rc=$rc $(cat "$T/err")"
./edan analyze --json --top 4 "$T/v-pc.txt" > "$T/top.json" || bad "top"
python3 - "$T/top.json" <<'EOF' && ok "--top: the list walk chains every ld, each fsd waits for its loads, fld never waits" || bad "--top: $(json "$T/top.json" "r['configs'][0]['hotspots']")"
import json, sys
h = {x["op"]: x for x in json.load(open(sys.argv[1]))["configs"][0]["hotspots"]}
ld, fsd, fld = h["ld"], h["fsd"], h["fld"]
assert ld["pc"] == "0x10420" and ld["chained"] == ld["mem_vertices"] - 1 and ld["max_md"] == ld["mem_vertices"], ld
assert fsd["chained"] == fsd["mem_vertices"] and fsd["max_md"] == 2, fsd
assert fld["chained"] == 0 and fld["max_md"] == 1, fld
EOF

# --- what-if and sweep: the upper bound grows by exactly lambda x delta-alpha ------
./edan analyze --json --freq 2.5 --alpha-add 80 --m 1,4 --sweep "$T/sweep.csv" "$T/v-paper.txt" --config --cache 4K:4:64 > "$T/wi.json" \
  || bad "what-if run"
python3 - "$T/wi.json" "$T/sweep.csv" <<'EOF' && ok "what-if: T_upper(far) - T_upper = lambda x 80 ns x 2.5 GHz; the sweep starts at the local bounds and grows linearly" || bad "what-if numbers"
import csv, json, sys
r = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
for c in r["configs"]:
    w = c["what_if"]
    assert w["alpha_far_cycles"] == c["alpha"] + 80 * 2.5
    for m, b in c["m"].items():
        f = w["m"][m]
        assert f["delta_T_upper"] == b["lambda"] * 200.0, (f, b)
        assert f["T_upper"] == b["T_upper"] + b["lambda"] * 200.0
        mine = [x for x in rows if x["config"] == c["name"] and x["m"] == m]
        assert len(mine) == 51 and float(mine[0]["T_upper"]) == b["T_upper"]
        for x in mine:  # T_upper(ns) = T_upper + lambda * ns * freq
            assert abs(float(x["T_upper"]) - (b["T_upper"] + b["lambda"] * int(x["added_ns"]) * 2.5)) < 1e-6 * b["T_upper"]
assert r["configs"][0]["flops"] > 0 and r["configs"][0]["arithmetic_intensity"] > 0
EOF

# --- bad input: FILE:LINE: message, exit status 2 ----------------------------------
expect_error() {  # name, file, pattern
  ./edan analyze --quiet "$2" > /dev/null 2> "$T/err"; rc=$?
  if [ $rc -eq 2 ] && grep -qE "$3" "$T/err"; then ok "bad input: $1"; else bad "bad input: $1 (rc=$rc): $(head -c 300 "$T/err")"; fi
}
printf 'addi a5,a5,4\nfrobnicate a0,a1\n' > "$T/e1.txt";      expect_error "unknown mnemonic" "$T/e1.txt" "e1.txt:2: .*frobnicate"
printf 'addi a5,a5,4\nlw a4,0(a5\n' > "$T/e2.txt";            expect_error "malformed operand" "$T/e2.txt" "e2.txt:2: "
printf 'lw a4,0(a5)\n' > "$T/e3.txt";                         expect_error "load without address" "$T/e3.txt" "e3.txt:1: "
printf 'lw a4,0(a5);0xzz12\n' > "$T/e4.txt";                  expect_error "malformed address" "$T/e4.txt" "e4.txt:1: "
printf 'addi a5,a5,4\nlw a4,0(a5);0x10\nadd' > "$T/e5.txt";   expect_error "truncated last line" "$T/e5.txt" "e5.txt:3: "
: > "$T/e6.txt";                                              expect_error "empty file" "$T/e6.txt" "e6.txt: no instructions"
head -c 3000 /dev/urandom > "$T/e7.txt";                      expect_error "binary garbage" "$T/e7.txt" "e7.txt:[0-9]+: "
printf 'addi a5,a5,4\n' > "$T/e8.txt"; expect_error "missing file" "$T/nonexistent.txt" "nonexistent.txt: No such file"
# a mistyped option gets the closest of the command's options (not a word of
# its prose: plot's help mentions analyze's --tau); a known one without its value says so
for cmd in "analyze --cahce 1K $T/sum.txt|did you mean --cache?" "rank --mm 2 x.json|did you mean --m?" \
           "plot --lable A x.json|did you mean --label?" \
           "plot --tua 5 x.json|unknown option --tua (see edan plot --help)" "roofline hwprofiles/vm.json -o|-o needs a value" \
           "roofline hwprofiles/vm.json --cluster|--cluster needs a value" \
           "analyze --tau 5 --timeline --config=b $T/sum.txt|--timeline needs a value, not the option '--config=b'"; do
  ./edan ${cmd%|*} > /dev/null 2> "$T/err"; rc=$?
  [ $rc -eq 2 ] && grep -qF -- "${cmd#*|}" "$T/err" && ok "edan ${cmd%|*}: ${cmd#*|}" \
    || bad "edan ${cmd%|*}: rc=$rc $(cat "$T/err")"
done
# a mistyped command: the closest command, in one line; a word near none: the list alone
for cmd in "anlyze $T/sum.txt|did you mean analyze?" "trcae -- x|did you mean trace?" "--hepl|did you mean --help?" \
           "jbo r.json|did you mean job?" "anotate -- x|did you mean annotate?" \
           "frobnicate|unknown command 'frobnicate' (commands: analyze, trace, rank, roofline, plot, job, annotate; see edan --help)"; do
  ./edan ${cmd%|*} > "$T/out" 2> "$T/err"; rc=$?
  [ $rc -eq 2 ] && grep -qF -- "${cmd#*|}" "$T/err" && [ "$(wc -l < "$T/err")" = 1 ] && [ ! -s "$T/out" ] \
    && ok "edan ${cmd%|*}: ${cmd#*|}" || bad "edan ${cmd%|*}: rc=$rc $(cat "$T/err")"
done
./edan frobnicate 2> "$T/err"; grep -q "did you mean" "$T/err" && bad "edan frobnicate: a suggestion: $(cat "$T/err")"
./edan analyze --cache 1000:3:64 "$T/sum.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "not a multiple" "$T/err" && ok "bad cache geometry refused" || bad "cache geometry: rc=$rc"
./edan analyze --skip-unknown --json "$T/e1.txt" > "$T/skip.json" 2> "$T/err"; rc=$?
[ $rc -eq 0 ] && grep -q "skipped 1 line" "$T/err" && [ "$(json "$T/skip.json" "r['configs'][0]['instructions']")" = 1 ] \
  && ok "--skip-unknown counts and reports the skipped line" || bad "--skip-unknown: rc=$rc $(cat "$T/err")"

# --- numbers from options are range-checked, with a message naming the option ---
optbad() {  # optbad PATTERN DESCRIPTION OPTIONS...
  local pat=$1 what=$2; shift 2
  ./edan analyze "$@" "$T/sum.txt" > /dev/null 2> "$T/err"; local rc=$?
  [ $rc -eq 2 ] && grep -qE -- "$pat" "$T/err" && ok "refused: $what" || bad "$what: exit $rc, $(cat "$T/err")"
}
optbad "--cache 17179869185G" "a cache size that wraps around 64 bits" --cache 17179869185G:8:64
optbad "--tau" "a tau that wraps around" --tau 99999999999999999G
optbad "--freq inf" "an infinite clock" --freq inf
optbad "--alpha0 inf" "an infinite alpha0" --alpha0 inf
optbad "--alpha0 nan" "alpha0 nan" --alpha0 nan
optbad "given twice" "--m with a repeated value (duplicate JSON keys)" --m 4,4
optbad "--top 4294967295" "--top past the limit (the report was printed, then out of memory)" --top 4294967295
optbad "--alpha 0" "alpha 0" --alpha 0
optbad "cannot write /nonexistent" "an unwritable --timeline, before the analysis" --tau 10 --timeline /nonexistent/d/t.csv
optbad "cannot write /nonexistent" "an unwritable --dot, before the analysis" --dot /nonexistent/d/t.dot
optbad "cannot write /nonexistent" "an unwritable --sweep, before the analysis" --sweep /nonexistent/d/t.csv

# --- a cut-off .gz is an error, not the part that was there -------------------
"$T/gen" 200000 65536 | gzip > "$T/full.gz"
sz=$(stat -c %s "$T/full.gz"); head -c $((sz / 2)) "$T/full.gz" > "$T/cut.gz"
./edan analyze --quiet "$T/full.gz" > /dev/null || bad "a whole .gz trace"
./edan analyze --quiet "$T/cut.gz" > /dev/null 2> "$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "ends early" "$T/err" && ok "a cut-off .gz: exit 2, said" || bad "cut-off .gz: exit $rc, $(cat "$T/err")"

# --- memory: a cache of 16 GiB costs the sets a small trace touches; the
# timeline's bins are bounded (tau doubles past 2^20 bins, said)
python3 - "$T/sum.txt" <<'EOF' && ok "a 16 GiB cache on a small trace: peak RSS under 1 GiB" || bad "16 GiB cache: memory"
import resource, subprocess, sys
subprocess.run(["./edan", "analyze", "--quiet", "--cache", "16G:16:64", sys.argv[1]], stdout=subprocess.DEVNULL, check=True)
sys.exit(0 if resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 1 << 20 else 1)
EOF
python3 -c "
import sys
sys.stdout.write('addi a5,a5,1\n' * 1100000)" > "$T/chain.txt"
./edan analyze --json --tau 1 "$T/chain.txt" > "$T/chain.json" || bad "tau 1 on a long chain"
python3 - "$T/chain.json" <<'EOF' && ok "--tau 1 past 2^20 bins: tau doubled to 2 (tau_requested 1), the bins bounded" || bad "timeline bins: $(head -c 300 "$T/chain.json")"
import json, sys
t = json.load(open(sys.argv[1]))["configs"][0]["timeline"]
assert t["tau"] == 2 and t["tau_requested"] == 1 and len(t["bins"]) <= 1 << 20, (t["tau"], len(t["bins"]))
EOF

# --- the verdict by the paper's bounds (--window 0; the window's: test_verdict.sh): its numbers
# (added time = the lower and upper bound's growth: max(D, W/m) and lambda(m)
# times 100 ns, whatever the clock; slowdown = the upper bound's ratio)
./edan analyze --window 0 --json --cache 1K:2:64 --m 1,4,8 --freq 2.5 --alpha 300 "$T/v-paper.txt" > "$T/verdict.json" || bad "verdict run"
python3 - "$T/verdict.json" <<'EOF' && ok "verdict: the chain's share, D, added time and slowdown follow from the metrics" || bad "verdict numbers"
import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
v = c["verdict"]
W, D, m = c["W"], c["D"], v["m"]
assert m == 4, m                                        # the paper's m when evaluated, no profile
lam = (W - D) / m + D
assert abs(v["chain_share"] - D / lam) < 1e-12 and abs(v["lambda"] - c["m"]["4"]["lambda"]) < 1e-12, v
assert abs(v["added_seconds_max"] - lam * 100e-9) < 1e-15 * max(1, lam)
assert abs(v["added_seconds_min"] - max(D, W / m) * 100e-9) < 1e-15 * max(1, lam)
far = c["m"]["4"]["T_upper"] + lam * 100 * 2.5
assert abs(v["slowdown_max"] - far / c["m"]["4"]["T_upper"]) < 1e-12
assert f"all {W:,} RAM accesses" in v["text"] and f"makes {D:,} RAM round trip" in v["text"], v["text"]
EOF

# --- a text trace of two threads (#edan-thread lines) ------------------------------
# each thread chases its own list through a0, interleaved: thread 0 three
# loads, thread 1 two; registers per thread, so D = 3 (one register file
# would chain all five: 5); the per-thread table and JSON say 3/3 and 2/2
printf '#edan-thread create 0 1\nlw a0,0(a0);0x1000\n#edan-thread switch 1\nlw a0,0(a0);0x2000\n#edan-thread switch 0\nlw a0,0(a0);0x1008\n#edan-thread switch 1\nlw a0,0(a0);0x2008\n#edan-thread switch 0\nlw a0,0(a0);0x1010\n' > "$T/threads.txt"
./edan analyze --json "$T/threads.txt" > "$T/threads.json" 2> "$T/err" || bad "two-thread trace: $(cat "$T/err")"
python3 - "$T/threads.json" <<'EOF' && ok "#edan-thread: two threads, D 3 (not 5), per thread W/D 3/3 and 2/2" || bad "two-thread trace: $(head -c 400 "$T/threads.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["configs"][0]["W"] == 5 and d["configs"][0]["D"] == 3, d["configs"][0]
th = [(t["thread"], t["instructions"], t["configs"][0]["W"], t["configs"][0]["D"]) for t in d["threads"]]
assert th == [(0, 3, 3, 3), (1, 2, 2, 2)], th
EOF
./edan analyze "$T/threads.txt" | grep -q "^Threads \[" || bad "the table has no Threads section"
printf 'lw a0,0(a0);0x1000\n#edan-thread switch 3\n' > "$T/badthread.txt"
./edan analyze "$T/badthread.txt" > /dev/null 2> "$T/err"; rc=$?
[ $rc = 2 ] && grep -q "badthread.txt:2: switch to thread 3: it is not running" "$T/err" \
  && ok "#edan-thread switch to an unknown thread: FILE:LINE, exit 2" || bad "bad #edan-thread: rc=$rc $(cat "$T/err")"
# instructions after the running thread exited belong to no thread: refused,
# as after a lone exit of thread 0; thread ids are plain decimals only
printf '#edan-thread create 0 1\n#edan-thread switch 1\naddi a0,a0,1\n#edan-thread exit 1\naddi a1,a1,1\n' > "$T/t1.txt"
printf 'addi a0,a0,1\n#edan-thread exit 0\naddi a1,a1,1\n' > "$T/t2.txt"
for f in t1:5 t2:3; do
  ./edan analyze "$T/${f%%:*}.txt" > /dev/null 2> "$T/err"; rc=$?
  [ $rc = 2 ] && grep -q "${f%%:*}.txt:${f#*:}: instruction 2: no thread is running" "$T/err" \
    && ok "an instruction after its thread's exit (${f%%:*}): FILE:LINE, no thread is running, exit 2" \
    || bad "an instruction after its thread's exit (${f%%:*}): rc=$rc $(cat "$T/err")"
done
for id in -18446744073709551615 +1 1x 4294967296 ' 0 0'; do
  printf '#edan-thread create 0 %s\naddi a0,a0,1\n' "$id" > "$T/t3.txt"
  ./edan analyze "$T/t3.txt" > /dev/null 2> "$T/err"; rc=$?
  [ $rc = 2 ] && grep -q "t3.txt:1: bad #edan-thread line" "$T/err" \
    && ok "#edan-thread create 0 '$id': refused, exit 2" || bad "#edan-thread create 0 '$id': rc=$rc $(cat "$T/err")"
done
exit $fail
