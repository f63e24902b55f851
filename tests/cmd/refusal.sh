# tests/cmd/refusal.sh - sourced after tests/lib.sh by the tests of bad
# numbers in the inputs of the chart commands (test_plot_input.sh,
# test_roofline.sh).

# refused WHAT PATTERN COMMAND...: COMMAND exits 2 with a message matching
# PATTERN and leaves no $T/out* (its output goes there) nor a temporary file
refused() {
  local what=$1 pat=$2 rc; shift 2
  rm -f "$T"/out*
  "$@" > /dev/null 2> "$T/err"; rc=$?
  if [ $rc -eq 2 ] && grep -q -- "$pat" "$T/err" && ! ls "$T"/out* "$T"/*.tmp > /dev/null 2>&1; then
    ok "refused: $what"
  else
    bad "$what: rc=$rc $(cat "$T/err")"
  fi
}

# svg_numbers FILE: every attribute of the SVG but the free-text data-label
# is free of nan and inf (a coordinate or size that is not a number)
svg_numbers() {
  python3 - "$1" <<'PY'
import re, sys, xml.etree.ElementTree as ET
for e in ET.parse(sys.argv[1]).getroot().iter():
    for k, v in e.attrib.items():
        if k != "data-label" and re.search(r"nan|inf", v, re.I):
            sys.exit(f"{e.tag} {k}={v!r}")
PY
}
