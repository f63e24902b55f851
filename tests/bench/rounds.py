#!/usr/bin/env python3
"""Times one command under several builds of edan, in rounds: each round runs
every build once, the order rotated a round, so that a drift of the
machine's speed falls on all of them alike. Prints each build's median wall
time and the median of its rounds' ratios to the first build's.

usage: rounds.py ROUNDS NAME=DIR [NAME=DIR ...] -- ARGS...
  DIR holds `edan` and `edan-plugin.so` (a checkout's build: DIR/edan and
  DIR/build/edan-plugin.so are found too); ARGS are edan's own, e.g.
  trace --no-profile --quiet -o /dev/null -- build/examples/gemm 250
Exits 1 when a run fails, 2 on a usage error."""
import os, statistics, subprocess, sys, time


def usage(msg):
    sys.stderr.write(f"rounds.py: {msg}\n{__doc__.split(chr(10) + chr(10))[1]}\n")
    sys.exit(2)


def plugin_of(d):
    for p in (os.path.join(d, "edan-plugin.so"), os.path.join(d, "build", "edan-plugin.so")):
        if os.path.exists(p):
            return p
    usage(f"{d}: no edan-plugin.so there or in its build/")


def main():
    if len(sys.argv) < 4 or "--" not in sys.argv:
        usage("too few arguments")
    try:
        rounds = int(sys.argv[1])
    except ValueError:
        usage(f"ROUNDS: not a number: {sys.argv[1]}")
    cut = sys.argv.index("--")
    builds = []
    for a in sys.argv[2:cut]:
        name, sep, d = a.partition("=")
        if not sep or not os.access(os.path.join(d, "edan"), os.X_OK):
            usage(f"{a}: not NAME=DIR with DIR/edan")
        builds.append((name, os.path.abspath(d), plugin_of(d)))
    args = sys.argv[cut + 1:]
    if rounds < 1 or not builds or not args:
        usage("nothing to run")
    times = {name: [] for name, _, _ in builds}
    for r in range(rounds):
        k = r % len(builds)
        for name, d, plugin in builds[k:] + builds[:k]:
            env = dict(os.environ, EDAN_PLUGIN=plugin)
            t0 = time.monotonic()
            rc = subprocess.run([os.path.join(d, "edan")] + args, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode
            times[name].append(time.monotonic() - t0)
            if rc != 0:
                sys.stderr.write(f"rounds.py: {name}: edan {' '.join(args)} exited {rc}\n")
                sys.exit(1)
    first = builds[0][0]
    for name, _, _ in builds:
        t = times[name]
        ratio = [a / b for a, b in zip(t, times[first])]
        print(f"{name}: median {statistics.median(t):.3f} s (min {min(t):.3f}, max {max(t):.3f}); "
              f"against {first}: median {statistics.median(ratio):.3f} (min {min(ratio):.3f}, max {max(ratio):.3f})")


main()
