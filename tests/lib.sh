# tests/lib.sh - sourced first by the test scripts that report check by
# check: runs from the project root, gives a temporary directory $T removed
# on exit, and ok/bad to report one check (bad sets fail=1; the script ends
# with `exit $fail`).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
