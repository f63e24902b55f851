#!/usr/bin/env bash
# `make test` and `make run` on a fresh Debian 12: a minimal bookworm system
# (debootstrap --variant=minbase) with nothing added but make and git, the
# project cloned from this checkout's HEAD; `make check` with nothing added
# but a C compiler, as a user who is not root; then `bash .ci/run` (make test)
# and `make run` inside it as root, so that every package the build and the
# tests need must come from tools/deps.sh; last, as a user who is not root,
# tools/deps.sh must print the apt-get line of a missing package and fail.
# Needs root and Debian's package mirror (debootstrap is installed if
# missing). About 10 minutes; also `make test-fresh`. KEEP=1 keeps the
# system in FRESH_DIR (default: a new directory under /var/tmp).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "fresh_machine: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || {
  echo "fresh_machine: installing debootstrap" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
}
mirror=${MIRROR:-http://deb.debian.org/debian}
root=${FRESH_DIR:-$(mktemp -d /var/tmp/edan-fresh.XXXXXX)}
chmod 755 "$root"          # the system's /: mktemp makes it 0700, which shuts the user out
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" || umount -l "${mounted[$i]}"; done
  if [ "${KEEP:-0}" = 1 ]; then echo "fresh_machine: kept $root" >&2; else rm -rf --one-file-system "$root"; fi
}
trap cleanup EXIT
step() { echo "[$(date +%T)] fresh_machine: $*" >&2; }

step "debootstrap bookworm into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.debootstrap.log" 2>&1 ||
  { tail -20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"
for d in proc sys dev dev/pts; do mount --bind "/$d" "$root/$d"; mounted+=("$root/$d"); done
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin bash -c "$1"; }

step "apt-get install make git (nothing else)"
in_root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make git ca-certificates >/dev/null'
git clone -q . "$root/root/edan"          # HEAD's commit, detached or not

step "make check with only a C compiler (gcc, libc6-dev), as a user who is not root"
in_root 'apt-get install -y -qq gcc libc6-dev >/dev/null && useradd -m edancheck &&
         git clone -q /root/edan /home/edancheck/edan && chown -R edancheck /home/edancheck/edan'
in_root "su edancheck -c 'cd /home/edancheck/edan && make check'" ||
  { echo "fresh_machine: make check failed without the Debian packages" >&2; exit 1; }

step "bash .ci/run (make test), as root"
in_root 'cd /root/edan && bash .ci/run'
step "make run, as root"
in_root 'cd /root/edan && make run && test -s build/report/README.md'

step "tools/deps.sh as a user who is not root, with a package missing"
in_root 'useradd -m edanuser && cp -r /root/edan /home/edanuser/ && chown -R edanuser /home/edanuser/edan'
pkg=likwid
in_root "apt-get remove -y -qq $pkg >/dev/null"      # succeeds when it is not installed
out=$(in_root "su edanuser -c 'cd /home/edanuser/edan && bash tools/deps.sh $pkg'" 2>&1) && {
  echo "fresh_machine: deps.sh succeeded without root and without $pkg:" >&2; echo "$out" >&2; exit 1; }
echo "$out" | grep -q "apt-get update && apt-get install -y $pkg" ||
  { echo "fresh_machine: deps.sh did not print the apt-get line:" >&2; echo "$out" >&2; exit 1; }
step "ok: make test and make run pass on a fresh Debian 12; without root deps.sh prints: $(echo "$out" | tail -1 | sed 's/^ *//')"
