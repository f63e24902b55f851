#!/usr/bin/env python3
"""Runs a command once; prints its wall time, the CPU time of all its
threads and processes, and the CPU time of its busiest thread (seconds), as
one line: `wall_s cpu_s busiest_s threads`. On a machine whose cores are
busy with other work, the wall time measures the others too; the busiest
thread's CPU time is what the wall time would be with a core for each
thread. Threads are read from /proc every 10 ms (a thread's last 10 ms
before it ends may be missed). With --each, every busy thread's CPU time
follows, the busiest first. usage: threadcpu.py [--each] CMD ARGS..."""
import os, subprocess, sys, time

tick = os.sysconf("SC_CLK_TCK")


def tree(root):
    """root and its descendants' pids."""
    kids, out = {}, [root]
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        kids.setdefault(ppid, []).append(int(p))
    i = 0
    while i < len(out):
        out += kids.get(out[i], [])
        i += 1
    return out


each = len(sys.argv) > 1 and sys.argv[1] == "--each"
cmd = sys.argv[2:] if each else sys.argv[1:]
if not cmd:
    print("usage: threadcpu.py [--each] CMD ARGS...", file=sys.stderr)
    sys.exit(2)
seen = {}
t0 = time.perf_counter()
child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while child.poll() is None:
    for pid in tree(child.pid):
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for t in tids:
            try:
                with open(f"/proc/{pid}/task/{t}/stat") as f:
                    v = f.read().rsplit(")", 1)[1].split()
                seen[(pid, t)] = int(v[11]) + int(v[12])
            except OSError:
                pass
    time.sleep(0.01)
wall = time.perf_counter() - t0
if child.returncode != 0:
    sys.exit(f"threadcpu: {' '.join(cmd)} failed with status {child.returncode}")
busy = [v for v in seen.values() if v > 0]
line = f"{wall:.3f} {sum(seen.values()) / tick:.2f} {max(busy + [0]) / tick:.2f} {len(busy)}"
if each:
    line += " " + " ".join(f"{v / tick:.2f}" for v in sorted(busy, reverse=True))
print(line)
