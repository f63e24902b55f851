#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, once.
# As root: apt-get. Otherwise: prints the exact command and fails.
set -u
pkgs=(gcc g++ gfortran make clang libclang-rt-14-dev zlib1g-dev pkg-config
      libhwloc-dev hwloc libnuma-dev libmemkind-dev libpapi-dev libelf-dev libdw-dev libiberty-dev libzydis-dev libc6-dbg
      qemu-user gcc-riscv64-linux-gnu g++-riscv64-linux-gnu libc6-dev-riscv64-cross
      python3 dpkg-dev qemu-system-x86 busybox-static cpio librsvg2-bin fonts-dejavu-core man-db time
      openmpi-bin libopenmpi-dev slurm-wlm munge libblas-dev)
[ $# -gt 0 ] && pkgs+=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "edan: missing Debian packages. Run as root:" >&2
  echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "edan: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 && apt-get install -y -qq "${missing[@]}" >&2
