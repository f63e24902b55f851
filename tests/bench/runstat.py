#!/usr/bin/env python3
"""Runs a command REPS times; prints the median wall time, min/max, and the
peak RSS of the child (MiB) as one line: `median_s min_s max_s rss_mib`.
usage: runstat.py REPS CMD ARGS...   (stdout of CMD goes to /dev/null)"""
import os, resource, subprocess, sys, time

reps = int(sys.argv[1])
cmd = sys.argv[2:]
times, rss = [], 0
for _ in range(reps):
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    times.append(time.perf_counter() - t0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"runstat: {' '.join(cmd)} failed with status {os.waitstatus_to_exitcode(status)}")
    rss = max(rss, ru.ru_maxrss / 1024.0)
times.sort()
print(f"{times[len(times)//2]:.3f} {times[0]:.3f} {times[-1]:.3f} {rss:.1f}")
