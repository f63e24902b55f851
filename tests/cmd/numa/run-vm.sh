#!/usr/bin/env bash
# tests/cmd/numa/run-vm.sh MACHINE OUT [PROGRAM ARGS...]
# Boots an emulated NUMA machine (qemu-system-x86_64, TCG) with Debian's
# cloud kernel and an initramfs holding busybox and PROGRAM (default: the
# numa driver, built here), runs PROGRAM ARGS inside, and writes the serial
# console log to OUT. MACHINE is one of
#   2node  2 nodes x 2 CPUs, HMAT latencies and bandwidths;
#   hbm    2 CPU nodes + 2 CPU-less "HBM" nodes with higher HMAT bandwidth.
# Inside, PROGRAM runs once (then the file $VM_SHOW, if set, is printed
# between @@EDAN-NUMA-BEGIN/END lines), then again with
# MEMKIND_HBW_NODES=$HBW_NODES when HBW_NODES is set (only then with
# HBW_ONLY=1). The kernel package is cached under build/numa/; the
# initramfs is built under build/numa/ by the name of OUT, so that machines
# with different OUT files can run side by side.
set -euo pipefail
cd "$(dirname "$0")/../../.."
machine=${1:?usage: run-vm.sh 2node|hbm OUT [PROGRAM ARGS...]}
out=${2:?usage: run-vm.sh 2node|hbm OUT [PROGRAM ARGS...]}
shift 2
B=build/numa
mkdir -p "$B"

die() { echo "run-vm.sh: $*" >&2; exit 1; }

# --- the kernel: linux-image-cloud-amd64's image package, unpacked, not
# installed; fetched once under a lock (machines start side by side)
(
  flock 9
  if ! ls "$B"/kernel/boot/vmlinuz-* > /dev/null 2>&1; then
    image=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
    [ -n "$image" ] || die "apt-cache knows no linux-image-cloud-amd64 (run apt-get update)"
    (cd "$B" && rm -f ./*.deb && apt-get download "$image" >/dev/null 2>&1) || die "apt-get download $image failed"
    rm -rf "$B/kernel.tmp" && dpkg-deb -x "$B"/"$image"_*.deb "$B/kernel.tmp" && mv "$B/kernel.tmp" "$B/kernel"
  fi
) 9> "$B/kernel.lock" || exit 1
kernel=$(ls "$B"/kernel/boot/vmlinuz-* 2>/dev/null | head -n1)
[ -n "$kernel" ] || die "no kernel in $B/kernel"

# --- the program
if [ $# -eq 0 ]; then
  nice ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -D_GNU_SOURCE -O2 -I. -o "$B/numa-driver" \
    tests/cmd/numa/driver.c probes/numa*.c probes/measure.c probes/topo.c $(pkg-config --libs hwloc) -lmemkind -lnuma -lpthread -lm
  set -- "$B/numa-driver" --quick
fi
prog=$1; shift
[ -x "$prog" ] || die "$prog: not an executable"

# --- the initramfs: busybox, the program, the shared objects it needs
tag=$(basename "$out" .log)
root=$B/root-$tag
rm -rf "$root"
mkdir -p "$root"/{bin,proc,sys,dev,tmp}
cp /bin/busybox "$root/bin/busybox"
cp "$prog" "$root/bin/program"
for lib in $(ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
  [ -f "$lib" ] || continue
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
{
  echo '#!/bin/busybox sh'
  echo 'export PATH=/bin'
  echo '/bin/busybox mount -t proc proc /proc'
  echo '/bin/busybox mount -t sysfs sysfs /sys'
  echo '/bin/busybox mount -t devtmpfs devtmpfs /dev'
  echo 'echo @@EDAN-VM-BOOTED'
  echo 'if [ -z "$edan_hbw_only" ]; then'
  printf '  /bin/program'; printf ' %q' "$@"; echo
  echo '  echo "@@EDAN-VM-EXIT $?"'
  if [ -n "${VM_SHOW:-}" ]; then    # a file the program wrote, printed between the markers
    printf '  echo @@EDAN-NUMA-BEGIN; /bin/busybox cat %q; echo; echo @@EDAN-NUMA-END\n' "$VM_SHOW"
  fi
  echo 'fi'
  echo 'if [ -n "$edan_hbw_nodes" ]; then'
  printf '  MEMKIND_HBW_NODES=$edan_hbw_nodes /bin/program'; printf ' %q' "$@"; echo
  echo '  echo "@@EDAN-VM-EXIT $?"'
  echo 'fi'
  echo '/bin/busybox poweroff -f'
} > "$root/init"
chmod +x "$root/init"
initrd=$B/initrd-$tag.gz
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd.tmp" && mv "$initrd.tmp" "$initrd"

# --- the machine
lb() { echo "-numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-latency,latency=$3" \
            "-numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-bandwidth,bandwidth=$4"; }
case $machine in
  2node)
    mem=2048
    numa="-object memory-backend-ram,size=1G,id=m0 -object memory-backend-ram,size=1G,id=m1
          -numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0
          -numa node,nodeid=1,cpus=2-3,memdev=m1,initiator=1
          -numa dist,src=0,dst=1,val=21
          $(lb 0 0 80 20G) $(lb 0 1 140 10G) $(lb 1 0 140 10G) $(lb 1 1 80 20G)"
    ;;
  hbm)
    # memkind counts a node as high-bandwidth from 200 GiB/s (HMAT, through hwloc)
    mem=2560
    numa="-object memory-backend-ram,size=1G,id=m0 -object memory-backend-ram,size=1G,id=m1
          -object memory-backend-ram,size=256M,id=m2 -object memory-backend-ram,size=256M,id=m3
          -numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0
          -numa node,nodeid=1,cpus=2-3,memdev=m1,initiator=1
          -numa node,nodeid=2,memdev=m2,initiator=0
          -numa node,nodeid=3,memdev=m3,initiator=1
          -numa dist,src=0,dst=1,val=21 -numa dist,src=0,dst=2,val=11 -numa dist,src=0,dst=3,val=31
          -numa dist,src=1,dst=2,val=31 -numa dist,src=1,dst=3,val=11 -numa dist,src=2,dst=3,val=41
          $(lb 0 0 80 20G) $(lb 0 1 140 10G) $(lb 0 2 90 400G) $(lb 0 3 160 40G)
          $(lb 1 0 140 10G) $(lb 1 1 80 20G) $(lb 1 2 160 40G) $(lb 1 3 90 400G)"
    ;;
  *) die "unknown machine '$machine' (2node, hbm)";;
esac
append="console=ttyS0 quiet panic=-1"
[ -n "${HBW_NODES:-}" ] && append="$append edan_hbw_nodes=$HBW_NODES"
[ -n "${HBW_NODES:-}" ] && [ "${HBW_ONLY:-0}" = 1 ] && append="$append edan_hbw_only=1"
# shellcheck disable=SC2086
timeout "${VM_TIMEOUT:-240}" nice qemu-system-x86_64 -accel tcg -machine pc,hmat=on -cpu max \
  -smp 4,sockets=2,cores=2,threads=1 -m "$mem" $numa \
  -kernel "$kernel" -initrd "$initrd" -append "$append" \
  -nographic -no-reboot -nodefaults -serial stdio </dev/null > "$out.tmp" 2>&1 || {
    rc=$?; mv "$out.tmp" "$out"; die "qemu failed or timed out (exit $rc); log in $out"; }
mv "$out.tmp" "$out"
grep -q '@@EDAN-VM-BOOTED' "$out" || die "the machine did not boot; log in $out"
