#!/usr/bin/env bash
# Shadow memory grows with the words a trace writes, not with the pages it
# touches: 300,000 stores to distinct pages (6.9 MB of text) are analysed in
# far less memory than a page's worth of entries each (12 KB a page: 3.6 GB),
# and an array written word by word costs no more than an entry a word. Peak
# memory is the child's, from getrusage.
. "$(dirname "$0")/../lib.sh"
# peak_mib OUT CMD...: runs CMD (standard output into OUT) and prints its peak RSS in MiB
peak_mib() {
  python3 - "$@" <<'EOF'
import resource, subprocess, sys
with open(sys.argv[1], "w") as out:
    rc = subprocess.run(sys.argv[2:], stdout=out).returncode
if rc != 0:
    sys.exit(f"{' '.join(sys.argv[2:])}: exit status {rc}")
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
EOF
}
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }

# one 8-byte store in each of 300,000 pages, then a load of one of them
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "sd a5,%d(a4);0x%x\n", 8 * (i % 512), 268435456 + 4096 * i + 8 * (i % 512);
             printf "ld a3,0(a4);0x%x\n", 268435456 + 4096 * 1234 + 8 * 210 }' > "$T/pages.txt"
if mib=$(peak_mib "$T/pages.json" ./edan analyze --json "$T/pages.txt"); then
  w=$(json "$T/pages.json" "r['configs'][0]['W']"); e=$(json "$T/pages.json" "r['configs'][0]['edges']")
  [ "$w" = 300001 ] && [ "$e" = 1 ] && ok "300,000 pages with a word each: W $w, the load's edge found" \
    || bad "300,000 pages: W $w (expected 300001), edges $e (expected 1)"
  [ "$mib" -lt 200 ] && ok "300,000 pages with a word each: peak $mib MiB (< 200)" \
    || bad "300,000 pages with a word each: peak $mib MiB, expected < 200 (12 KB a page would be 3.6 GB)"
else
  bad "edan analyze of 300,000 pages failed"
fi

# an array of 2.4 MB written word by word (600 pages), then read: 24 bytes an 8-byte word
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "sd a5,0(a4);0x%x\n", 268435456 + 8 * i;
             for (i = 0; i < 300000; i += 7) printf "ld a3,0(a4);0x%x\n", 268435456 + 8 * i }' > "$T/array.txt"
if mib=$(peak_mib "$T/array.json" ./edan analyze --json "$T/array.txt"); then
  e=$(json "$T/array.json" "r['configs'][0]['edges']")
  [ "$e" = 42858 ] && ok "an array written word by word, read back: every load's edge ($e)" \
    || bad "an array written word by word: $e edges, expected 42858"
  [ "$mib" -lt 60 ] && ok "an array of 300,000 words: peak $mib MiB (< 60)" \
    || bad "an array of 300,000 words: peak $mib MiB, expected < 60"
else
  bad "edan analyze of an array failed"
fi
exit $fail
