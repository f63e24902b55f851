#!/usr/bin/env bash
# tests/funclen.sh [LIMIT] - every function of edan.h, tools/ and probes/ longer
# than LIMIT lines (default 150), as "file:line: name: N lines"; exit 1 when one
# is found. The RISC-V decoder's switch table is exempt (EXEMPT below): a table
# of cases reads best as one switch. A function starts at a line in column 0 that opens
# a brace after a parameter list, and ends at the "}" in column 0.
cd "$(dirname "$0")/.."
shopt -s nullglob
LIMIT=${1:-150}
EXEMPT=" edan__rv_decode32 "
awk -v limit="$LIMIT" -v exempt="$EXEMPT" '
  FNR == 1 { infn = 0; sig = "" }
  !infn && /^[A-Za-z_][A-Za-z0-9_ *]*\(/ { sig = $0; sigline = FNR }
  !infn && /^[A-Za-z_].*\)[ ]*\{[ ]*$/ && sig != "" { infn = 1; start = sigline; name = sig; next }
  !infn && /^\{/ && sig != "" { infn = 1; start = sigline; name = sig; next }
  infn && /^\}/ {
    n = FNR - start + 1
    sub(/\(.*/, "", name); k = split(name, w, /[ *]+/); name = w[k]
    if (n > limit && index(exempt, " " name " ") == 0) { printf "%s:%d: %s: %d lines\n", FILENAME, start, name, n; bad = 1 }
    infn = 0; sig = ""
  }
  !infn && /;[ ]*$/ { sig = "" }
  END { exit bad }
' edan.h tools/*/*.c tools/*/*.h probes/*.c probes/*.h
