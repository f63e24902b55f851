#!/usr/bin/env python3
"""Writes README's table of where the speed stands (between the lines
`<!-- speed -->` and `<!-- speed end -->`) from the figures that
tests/bench/bench_trace.sh and tests/bench/bench_trace_x86.sh leave in
build/bench/speed-ISA-SIZE.json: the build, the machine, each online run's
median time and the median of the rounds' own ratios to QEMU alone, and the
least ratio the machine's cores allow the same work (--jobs 1 over the cores).

usage: readme_speed.py [--size N (400)] [--dir DIR (build/bench)] [--readme FILE (README.md)]
Exits 2 when a figure file or the README's lines are missing or unreadable."""
import json, os, sys, textwrap

BEGIN, END = "<!-- speed -->", "<!-- speed end -->"
ISAS = (("riscv64", "RISC-V", "bench_trace.sh", {"none": 3, "l12": 4}),
        ("x86_64", "x86-64", "bench_trace_x86.sh", {"none": 5}))


def fail(msg):
    sys.stderr.write(f"readme_speed.py: {msg}\n")
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
        d["seconds"]["qemu"], d["ratio"]["jobs1_l12"], d["instructions"]  # the fields the table reads
        return d
    except FileNotFoundError:
        fail(f"{path}: missing (run the bench that writes it)")
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{path}: not a bench summary ({e})")


def cell(d, run):
    t = d["seconds"][run]
    return f"{t:.2f} s, {d['ratio'][run]:.2f}x ({d['instructions'] / t / 1e6:.1f} M instr/s)"


def block(figs, size):
    first = figs[0][1]
    same = all(d["commit"] == first["commit"] and d["date"] == first["date"] for _, d in figs)
    when = (f"at {first['commit']} on {first['date']}" if same else
            "; ".join(f"{isa[1]} at {d['commit']} on {d['date']}" for isa, d in figs))
    cmds = " and ".join(f"`RUNS={d['rounds']} bash tests/bench/{isa[2]} {size}`" for isa, d in figs)
    counts = ", ".join(f"{isa[1]} {d['instructions'] / 1e6:.0f}M instructions" for isa, d in figs)
    cores = first["cores"]
    intro = (f"Online analysis of the gemm example at n = {size} ({counts}), all of the program "
             f"analysed, the windowed schedule on (the default), {when}, on {first['cpu']} "
             f"({cores} cores; load {', '.join(d['load'] for _, d in figs)}), from {cmds}: medians of "
             "the rounds, each ratio the median of the rounds' own ratios to QEMU alone "
             "(written by `python3 tests/bench/readme_speed.py` from the benches' figures):")
    out = [BEGIN, textwrap.fill(intro, 76, break_long_words=False, break_on_hyphens=False), "",
           f"| run | QEMU alone | no cache | L1 32K + L2 1M | `--jobs 1` over {cores} cores (no cache, L1+L2) | targets |",
           "|---|---|---|---|---|---|"]
    for isa, d in figs:
        r = d["ratio"]
        targets = "; ".join(f"{'no cache' if k == 'none' else 'L1+L2'} <= {v}x: {'met' if r[k] <= v else 'not met'}"
                            for k, v in isa[3].items())
        out.append(f"| {isa[1]} | {d['seconds']['qemu']:.2f} s | {cell(d, 'none')} | {cell(d, 'l12')} | "
                   f"{r['jobs1_none'] / cores:.2f}x, {r['jobs1_l12'] / cores:.2f}x | {targets} |")
    out.append(END)
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    opts = {"--size": "400", "--dir": os.path.join("build", "bench"), "--readme": "README.md"}
    while args:
        if args[0] in ("-h", "--help"):
            print(__doc__)
            return
        if args[0] not in opts or len(args) < 2:
            fail(f"unknown or incomplete option {args[0]!r} (see --help)")
        opts[args[0]], args = args[1], args[2:]
    if not opts["--size"].isdigit():
        fail(f"--size {opts['--size']!r}: not a number")
    figs = [(isa, load(os.path.join(opts["--dir"], f"speed-{isa[0]}-{opts['--size']}.json"))) for isa in ISAS]
    path = opts["--readme"]
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    a, b = text.find(BEGIN + "\n"), text.find(END + "\n")
    if a < 0 or b < a:
        fail(f"{path}: no lines {BEGIN!r} and then {END!r} to write between")
    new = text[:a] + block(figs, opts["--size"]) + text[b + len(END) + 1:]
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, path)
    print(f"{path}: the speed table written from {opts['--dir']}/speed-*-{opts['--size']}.json")


main()
