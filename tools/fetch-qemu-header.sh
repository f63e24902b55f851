#!/usr/bin/env bash
# Puts QEMU's plugin API header at $1 (default build/qemu/qemu-plugin.h).
# Debian does not package qemu-plugin.h, so it is taken from Debian's qemu
# source package, of the version of the installed qemu-user:
#   - from QEMU_SRC=dir (an unpacked QEMU source tree) when set;
#   - otherwise `apt-get source --download-only qemu` with a temporary
#     deb-src list (private apt state under build/, the system's apt
#     configuration is not touched), then only that header is extracted.
# The header is cached and never committed.
set -euo pipefail
out=${1:-build/qemu/qemu-plugin.h}
[ -s "$out" ] && exit 0
mkdir -p "$(dirname "$out")"
tmp_out="$out.tmp.$$"
trap 'rm -f "$tmp_out"' EXIT

if [ -n "${QEMU_SRC:-}" ]; then
  src="$QEMU_SRC/include/qemu/qemu-plugin.h"
  if [ ! -f "$src" ]; then
    echo "fetch-qemu-header: QEMU_SRC=$QEMU_SRC has no include/qemu/qemu-plugin.h" >&2
    exit 1
  fi
  cp "$src" "$tmp_out"
  mv "$tmp_out" "$out"
  exit 0
fi

for tool in apt-get tar dpkg-query; do
  command -v $tool >/dev/null || { echo "fetch-qemu-header: $tool not found" >&2; exit 1; }
done
work=$(cd "$(dirname "$out")" && pwd)/apt
mkdir -p "$work/lists/partial" "$work/archives/partial" "$work/src"

# deb-src entries mirroring the system's deb entries (one-line and deb822 styles).
srclist="$work/sources.list"
: > "$srclist"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] || continue
  sed -n 's/^[[:space:]]*deb[[:space:]]\+/deb-src /p' "$f" | grep -v 'cloud.google\|nodesource' >> "$srclist" || true
done
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  awk 'BEGIN{RS=""; FS="\n"}
       { uris=""; suites=""; comps=""; signed=""; isdeb=0
         for (i = 1; i <= NF; i++) {
           if ($i ~ /^Types:/ && $i ~ /[[:space:]]deb([[:space:]]|$)/) isdeb=1
           if ($i ~ /^URIs:/) { uris=$i; sub(/^URIs:[[:space:]]*/, "", uris) }
           if ($i ~ /^Suites:/) { suites=$i; sub(/^Suites:[[:space:]]*/, "", suites) }
           if ($i ~ /^Components:/) { comps=$i; sub(/^Components:[[:space:]]*/, "", comps) }
           if ($i ~ /^Signed-By:/) { signed=$i; sub(/^Signed-By:[[:space:]]*/, "", signed) }
         }
         if (!isdeb || uris == "" || uris !~ /debian/) next
         n = split(suites, s, /[[:space:]]+/)
         for (j = 1; j <= n; j++) if (s[j] != "") {
           opt = signed != "" ? "[signed-by=" signed "] " : ""
           print "deb-src " opt uris " " s[j] " " comps
         }
       }' "$f" >> "$srclist"
done
if [ ! -s "$srclist" ]; then
  echo "deb-src http://deb.debian.org/debian bookworm main" > "$srclist"
fi

apt_opts=(-o Dir::Etc::SourceList="$srclist" -o Dir::Etc::SourceParts=/dev/null
          -o Dir::State::Lists="$work/lists" -o Dir::Cache::Archives="$work/archives"
          -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
          -o APT::Sandbox::User=root -o Debug::NoLocking=1)
echo "fetch-qemu-header: downloading Debian's qemu source package (once)" >&2
apt-get "${apt_opts[@]}" -qq update >&2
ver=$(dpkg-query -W -f='${source:Version}' qemu-user 2>/dev/null || true)
spec=qemu
[ -n "$ver" ] && spec="qemu=$ver"
( cd "$work/src" &&
  { apt-get "${apt_opts[@]}" -qq source --download-only "$spec" >&2 ||
    apt-get "${apt_opts[@]}" -qq source --download-only qemu >&2; } )
tarball=$(ls "$work"/src/qemu_*.orig.tar.* 2>/dev/null | head -n 1)
if [ -z "$tarball" ]; then
  echo "fetch-qemu-header: no qemu source tarball was downloaded" >&2
  exit 1
fi
member=$(tar -tf "$tarball" | grep -m1 '/include/qemu/qemu-plugin.h$' || true)
if [ -z "$member" ]; then
  echo "fetch-qemu-header: $tarball has no include/qemu/qemu-plugin.h" >&2
  exit 1
fi
tar -xOf "$tarball" "$member" > "$tmp_out"
grep -q 'QEMU_PLUGIN_VERSION' "$tmp_out" || { echo "fetch-qemu-header: extracted file is not the plugin header" >&2; exit 1; }
mv "$tmp_out" "$out"
# Keep only the header: the source package is large.
rm -rf "$work/src"
echo "fetch-qemu-header: $out" >&2
