#!/usr/bin/env python3
"""tools/run.py [REPORT_DIR] - `make run`: from this machine to a verdict.

Probes this machine (./probe --quick; the profile becomes the machine's own,
which later edan runs use, when it has none: probe --install), traces and
analyses the example
kernels with its profile (a data-movement timeline, a what-if at +100 ns and
a 0..250 ns sweep per kernel), ranks them (edan rank), draws the roofline
(edan roofline) and the data movement (edan plot), and writes
REPORT_DIR/README.md (default build/report): the machine, the rankings, the
what-if table, the charts and the exact commands behind every number
(REPORT_DIR/commands.sh).

Environment:
  EDAN_RUN_ISA      host (default): the kernels built for this machine
                    (build/examples-host/, gcc -O2), analysed with its
                    profile, and beside them the RISC-V builds' answers
                    without a cache; riscv: the RISC-V builds
                    (build/examples/, the EDAN paper's setting). The paper's
                    Fig. 9 (lu 64) is always the RISC-V build's, when there
                    is one.
  EDAN_RUN_KERNELS  kernels to run, "name[:size[:tau]] ..." (default: the
                    set below); a kernel not in the table below needs all three
  EDAN_RUN_PROFILE  use this hardware profile instead of probing (none: no
                    profile, the model's defaults)
  EDAN_RUN_DM_PLOTS kernels whose data movement is drawn, "name[:log] ..."
                    (default: spmv:log triad; the EDAN paper's Fig. 9
                    setting, lu 64, is always drawn)
  EDAN_RUN_ADD_NS   latency added in the what-if (default 100 ns)
  EDAN, PROBE       the edan and probe binaries (default ./edan, ./probe)
Progress goes to stderr; a failing step stops the run with its message and
exit status 1. What could not be done (no profile, no roofline) is said in
the report.
"""
import datetime
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time

# name, size, tau, scope: the kernel function, or the region of spmv's CG
# step (its three iterations are the three bursts of the data-movement
# chart). The chase's list (2M nodes, 32 MiB) is larger than the last cache
# level of the machines we know, as a pointer-chase benchmark's must be.
KERNEL_TABLE = {
    "sum":     ("4000000", "1000", "--func", "kernel"),
    "gemm":    ("128", "10", "--func", "kernel_gemm"),
    "omp_gemm": ("128", "10", "--func", "kernel_gemm"),       # gemm.c with OpenMP, OMP_NUM_THREADS threads
    "mvt":     ("1024", "10", "--func", "kernel_mvt"),
    "atax":    ("1024", "100", "--func", "kernel_atax"),
    "bicg":    ("1024", "100", "--func", "kernel_bicg"),
    "gesummv": ("1024", "10", "--func", "kernel_gesummv"),
    "trmm":    ("128", "10", "--func", "kernel_trmm"),
    "syrk":    ("128", "10", "--func", "kernel_syrk"),
    "trisolv": ("2048", "1000", "--func", "kernel_trisolv"),
    "lu":      ("128", "10", "--func", "kernel_lu"),
    "triad":   ("1048576", "1000", "--func", "kernel_triad"),
    "chase":   ("2097152", "100000", "--func", "kernel_chase"),
    "spmv":    ("256", "100", "--region", "kernel_cg_step"),
}
DEFAULT_KERNELS = "sum gemm omp_gemm mvt atax bicg gesummv trmm syrk trisolv lu triad chase spmv"
CLASSES = {"latency-bound", "mixed", "throughput-bound", "compute-bound"}   # a verdict's classes (README, "Reading the verdict")
BUILDS = {"host": ("build/examples-host", "built for this machine (gcc -O2, `build/examples-host/`)"),
          "riscv": ("build/examples", "cross-compiled for RISC-V (RV64GC, `build/examples/`)")}


class Run:
    """The run's clock, its progress lines, and commands.sh."""

    def __init__(self, report):
        self.t0 = time.monotonic()
        self.report = report
        self.cmds = os.path.join(report, "commands.sh")
        self.missing = []       # what could not be done, for the report
        self.steps = []         # "seconds|what" per step, for the report

    def seconds(self):
        return int(time.monotonic() - self.t0)

    def say(self, msg):
        print(f"[{self.seconds():3d}s] {msg}", file=sys.stderr, flush=True)

    def die(self, msg):
        print(f"[{self.seconds():3d}s] make run: {msg}", file=sys.stderr, flush=True)
        sys.exit(1)

    def record(self, line):
        with open(self.cmds, "a") as f:
            f.write(line + "\n")

    def run(self, args, out=None, log=None):
        """Records the command in commands.sh and runs it niced; its standard
        output into `out`, its standard error into `log` (files, or
        nowhere). Returns its exit status."""
        self.record(shlex.join(args) + (f" > {shlex.quote(out)}" if out else ""))
        with open(out or os.devnull, "wb") as o, open(log or os.devnull, "ab") as e:
            try:
                return subprocess.run(["nice", "-n", "10"] + args, stdout=o, stderr=e).returncode
            except OSError as x:
                e.write(f"{args[0]}: {x}\n".encode())
                return 127

    def step_done(self, since, what):
        self.steps.append(f"{self.seconds() - since}|{what}")


def last_line(path):
    try:
        lines = [l for l in open(path, errors="replace").read().splitlines() if l.strip()]
        return lines[-1] if lines else ""
    except OSError:
        return ""


def nonempty(path):
    return os.path.isfile(path) and os.path.getsize(path) > 0


def getconf(name):
    try:
        v = subprocess.run(["getconf", name], capture_output=True, text=True).stdout.strip()
        return int(v)
    except (OSError, ValueError):
        return 0


def main():
    report = sys.argv[1] if len(sys.argv) > 1 else "build/report"
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    edan = os.environ.get("EDAN", "./edan")
    probe = os.environ.get("PROBE", "./probe")
    add_ns = os.environ.get("EDAN_RUN_ADD_NS", "100")
    dm_plots = os.environ.get("EDAN_RUN_DM_PLOTS", "spmv:log triad")
    R = Run(report)

    try:
        os.makedirs(report, exist_ok=True)
        # only what this run writes is removed, so stale results cannot mix in
        for d in ("json", "sweep", "svg", "logs"):
            shutil.rmtree(os.path.join(report, d), ignore_errors=True)
        for f in os.listdir(report):
            if f in ("commands.sh", "README.md") or (f.startswith("ranking") and f.endswith((".txt", ".json"))):
                os.remove(os.path.join(report, f))
        for d in ("json", "sweep", "svg", "logs"):
            os.makedirs(os.path.join(report, d))
        with open(R.cmds, "w") as f:
            f.write("#!/bin/sh\n# The commands of `make run`, in order (from the repository root).\nset -e\n")
    except OSError as e:
        R.die(f"cannot write in {report}: {e}")
    rp = lambda *p: os.path.join(report, *p)

    if not os.access(edan, os.X_OK): R.die(f"{edan} is not built (run make)")
    isa = os.environ.get("EDAN_RUN_ISA", "host")
    if isa not in BUILDS: R.die(f"EDAN_RUN_ISA={isa}: host or riscv")
    examples, build_text = BUILDS[isa]
    if not os.path.isdir(examples): R.die(f"{examples} is missing (run make examples)")
    R.say(f"kernels {build_text.replace('`', '')}")

    # ---- 1. the machine
    profile = ""
    installed = ""
    t = R.seconds()
    given = os.environ.get("EDAN_RUN_PROFILE", "")
    if given == "none":
        R.say("hardware profile: none (EDAN_RUN_PROFILE=none)")
        R.missing.append("no hardware profile: EDAN_RUN_PROFILE=none")
    elif given:
        if not os.access(given, os.R_OK): R.die(f"EDAN_RUN_PROFILE={given}: no such file")
        try:
            with open(given, "rb") as src, open(rp("profile.json"), "wb") as dst:
                dst.write(src.read())
        except OSError:
            R.die(f"cannot copy {given}")
        R.record(f"# hardware profile given with EDAN_RUN_PROFILE\ncp {shlex.quote(given)} {shlex.quote(rp('profile.json'))}")
        profile = rp("profile.json")
        R.say(f"hardware profile: {given} (given)")
    else:
        if not os.access(probe, os.X_OK): R.die(f"{probe} is not built (run make)")
        R.say(f"probing this machine: {probe} --quick (at most about 20 s)")
        if os.path.exists(rp("profile.json")): os.remove(rp("profile.json"))
        log = rp("logs", "probe.log")
        if R.run([probe, "--quick", "-o", rp("profile.json")], log=log):
            R.die(f"{probe} --quick failed: see {log} ({last_line(log)})")
        if not nonempty(rp("profile.json")):
            R.die(f"{probe} --quick wrote no profile")
        profile = rp("profile.json")
        R.say(f"hardware profile: {profile}")
        # what was measured becomes the machine's own profile, which later edan
        # runs use without --profile, when it has none (a given profile does not)
        out = subprocess.run([probe, "--install", profile], capture_output=True, text=True)
        installed = " ".join((out.stdout if out.returncode == 0 else out.stderr).split())
        if installed: R.say(installed)
    R.step_done(t, "hardware profile")
    if profile:
        try:
            said = profile_checks(json.load(open(profile)))
        except (OSError, ValueError):
            said = []
        for line in said:
            R.say(line[2:] if line.startswith("- ") else line)

    # Analysis options: the profile's caches, alpha, m and clock in the first
    # configuration, and the same kernel without caches (the model's RAM-only
    # view, as in the EDAN paper's Fig. 9) in the second.
    if profile:
        cfg = ["--profile", profile]
        settings = "caches, alpha, m and clock from the hardware profile `profile.json`"
    else:
        # this machine's data caches as the C library reports them; the
        # model's default RAM latency (200 cycles) and clock (1 GHz)
        cfg = ["--no-profile"]     # not this machine's own either
        for l in (1, 2, 3):
            p = "LEVEL1_DCACHE" if l == 1 else f"LEVEL{l}_CACHE"
            size, assoc, line = getconf(p + "_SIZE"), getconf(p + "_ASSOC"), getconf(p + "_LINESIZE")
            if size > 0 and assoc > 0 and line > 0:
                cfg += ["--cache", f"{size}:{assoc}:{line}"]
        settings = ("no hardware profile: the data caches getconf reports, the model's default RAM latency "
                    "(alpha = 200 cycles) and clock (1 GHz)")

    # ---- 2. trace and analyse the kernels
    kernels = []
    omp_threads = os.environ.setdefault("OMP_NUM_THREADS", "2")
    R.record(f"export OMP_NUM_THREADS={shlex.quote(omp_threads)}  # the threads of the OpenMP kernels (omp_*)")
    for spec in os.environ.get("EDAN_RUN_KERNELS", DEFAULT_KERNELS).split():
        parts = spec.split(":")
        name = parts[0]
        size = parts[1] if len(parts) > 1 and parts[1] else None
        tau = parts[2] if len(parts) > 2 and parts[2] else None
        sopt, sname = "--func", "kernel_" + name
        if name in KERNEL_TABLE:
            dsize, dtau, sopt, sname = KERNEL_TABLE[name]
            size, tau = size or dsize, tau or dtau
        if not size or not tau:
            R.die(f"kernel {spec}: give name:size:tau (not in the table of tools/run.py)")
        if not os.access(f"{examples}/{name}", os.X_OK):
            R.die(f"{examples}/{name} is missing (run make examples)")
        kernels.append(name)
        with open(rp("logs", "kernels.txt"), "a") as f:
            f.write(f"{name} {size} {tau} {sopt} {sname}\n")
        R.say(f"trace {name} {size} (tau {tau} cycles)")
        t = R.seconds()
        log = rp("logs", f"{name}.log")
        if R.run([edan, "trace", "--quiet", "--json", sopt, sname, "--tau", tau] + cfg
                 + ["--config=no-cache", "--no-cache", "--alpha-add", add_ns, "--sweep", rp("sweep", f"{name}.csv"),
                    "-o", rp("json", f"{name}.json"), "--", f"{examples}/{name}", size],
                 out=rp("logs", f"{name}.out"), log=log):
            R.die(f"edan trace of {name} failed: see {log} ({last_line(log)})")
        if not nonempty(rp("json", f"{name}.json")):
            R.die(f"edan trace of {name} wrote no report")
        R.step_done(t, f"trace and analyse {name} ({size})")
    if not kernels: R.die("no kernels (EDAN_RUN_KERNELS is empty)")

    # The same kernels built for RISC-V, without a cache: an x86-64
    # instruction is cracked into the loads, operation and stores a
    # load/store machine executes, so the two ISAs' W and D agree but for
    # register allocation, spills and vectorisation (side by side in the
    # report).
    if isa == "host":
        for k, size, tau, sopt, sname in [l.split() for l in open(rp("logs", "kernels.txt")) if l.strip()]:
            rv = f"{BUILDS['riscv'][0]}/{k}"
            if not os.access(rv, os.X_OK):
                R.missing.append(f"the RISC-V answer of {k}: {rv} is not built")
                continue
            R.say(f"trace {k} {size} built for RISC-V (no cache)")
            t = R.seconds()
            log = rp("logs", f"rv-{k}.log")
            if R.run([edan, "trace", "--quiet", "--json", sopt, sname, "--no-cache", "-o", rp("json", f"rv-{k}.json"),
                      "--", rv, size], out=rp("logs", f"rv-{k}.out"), log=log):
                R.die(f"edan trace of {rv} failed: see {log} ({last_line(log)})")
            R.step_done(t, f"trace and analyse {k} ({size}) built for RISC-V")

    # The EDAN paper's Fig. 9 setting: lu at N = 64, no cache, RAM accesses
    # 200 cycles, other instructions 1, tau = 1 cycle, the paper's model
    # (--paper: no store-to-load forwarding, its cache rule).
    fig9 = "build/examples/lu"
    if not os.access(fig9, os.X_OK):
        fig9 = f"{examples}/lu"
        R.missing.append(f"the EDAN paper's Fig. 9 setting without its RISC-V build (build/examples/lu): "
                         f"{fig9} instead")
    R.say(f"trace lu 64 in the setting of the EDAN paper's Fig. 9 ({fig9})")
    t = R.seconds()
    log = rp("logs", "fig9-lu.log")
    if R.run([edan, "trace", "--quiet", "--json", "--paper", "--func", "kernel_lu", "--alpha", "200", "--tau", "1",
              "-o", rp("json", "fig9-lu.json"), "--", fig9, "64"], out=rp("logs", "fig9-lu.out"), log=log):
        R.die(f"edan trace of lu 64 failed: see {log} ({last_line(log)})")
    R.step_done(t, "trace and analyse lu (64) as in the paper's Fig. 9")
    jsons = [rp("json", f"{k}.json") for k in kernels]
    sweeps = [rp("sweep", f"{k}.csv") for k in kernels]

    # One m for the whole report: the verdicts' (the profile's measured m,
    # else the EDAN paper's 4), which the rankings and the what-if use too.
    try:
        c0 = json.load(open(jsons[0]))["configs"][0]
        ms = list(c0["m"].keys())
        M = str(c0.get("verdict", {}).get("m", ""))
    except (OSError, ValueError, KeyError, IndexError):
        R.die(f"cannot read {jsons[0]}")
    if M not in ms: M = "4" if "4" in ms else ms[0]

    # ---- 3. rank
    t = R.seconds()
    R.say(f"rank (m = {M})")
    log = rp("logs", "rank.log")
    for c in ("0", "1"):
        if R.run([edan, "rank", "--m", M, "--config", c] + jsons, out=rp(f"ranking-{c}.txt"), log=log):
            R.die(f"edan rank failed: {last_line(log)}")
        if R.run([edan, "rank", "--json", "--m", M, "--config", c] + jsons, out=rp(f"ranking-{c}.json"), log=log):
            R.die(f"edan rank --json failed: {last_line(log)}")
    R.step_done(t, "rank")

    # ---- 4. roofline
    t = R.seconds()
    roofline = ""
    roof_note = ""
    if not profile:
        R.say("roofline: no hardware profile, no roofline")
        R.missing.append("no roofline: it needs the hardware profile")
    else:
        R.say("roofline with the kernels on it")
        log = rp("logs", "roofline.log")
        apps = []   # one --app per kernel that does floating-point work
        for path in jsons:
            if json.load(open(path))["configs"][0].get("flops", 0) > 0:
                apps += ["--app", path]
        if R.run([edan, "roofline", profile] + apps + ["-o", rp("svg", "roofline.svg")], log=log):
            R.die(f"edan roofline failed: {last_line(log)}")
        roof_note = ("Each kernel with floating-point work (configuration 0) sits at its arithmetic intensity "
                     "(flops per byte loaded or stored) and the model's performance: its flops over the windowed "
                     "schedule's time T_window at the profile's m, at the report's clock (`edan roofline --app "
                     "FILE:SECONDS` draws a measured runtime's point beside it).")
        # a profile of probe --numa on a machine with several nodes: the LARM charts too
        numa = json.load(open(profile)).get("numa", {})
        if isinstance(numa, dict) and numa.get("roofs") and not numa.get("skipped"):
            if R.run([edan, "roofline", profile] + apps + ["--larm", "-o", rp("svg", "larm.svg")], log=log):
                R.die(f"edan roofline --larm failed: {last_line(log)}")
            roof_note += " The locality-aware charts, one per cluster: svg/larm-cluster*.svg."
        roofline = "svg/roofline.svg"
    R.step_done(t, "roofline")

    # ---- 5. data movement and what-if charts
    t = R.seconds()
    plots = []
    R.say("charts: data movement and what-if")
    log = rp("logs", "plot.log")
    if R.run([edan, "plot", rp("json", "fig9-lu.json"), "--title",
              "Data movement over time: lu, N = 64 (the setting of the EDAN paper's Fig. 9)",
              "-o", rp("svg", "dm-fig9-lu.svg")], log=log):
        R.die(f"edan plot failed: {last_line(log)}")
    plots.append("dm-fig9-lu")
    for spec in dm_plots.split():
        k = spec.split(":")[0]
        scale = ["--log"] if spec == k + ":log" else []
        if not nonempty(rp("json", f"{k}.json")):
            continue
        if R.run([edan, "plot"] + scale + [rp("json", f"{k}.json"), "--title", f"Data movement over time: {k}",
                                            "-o", rp("svg", f"dm-{k}.svg")], log=log):
            R.die(f"edan plot failed: {last_line(log)}")
        plots.append(f"dm-{k}")
    sw = [a for s in sweeps for a in ("--sweep", s)]
    if R.run([edan, "plot", "--config", "0", "--m", M, "--slowdown", "--title",
              f"Slowdown when RAM gets farther (m = {M})"] + sw + ["-o", rp("svg", "whatif.svg")], log=log):
        R.die(f"edan plot --sweep failed: {last_line(log)}")
    plots.append("whatif")
    for k in ("chase", "gemm"):
        if not nonempty(rp("sweep", f"{k}.csv")):
            continue
        if R.run([edan, "plot", "--log", "--sweep", rp("sweep", f"{k}.csv"), "--title",
                  f"Upper time bound of {k} when RAM gets farther", "-o", rp("svg", f"whatif-{k}.svg")], log=log):
            R.die(f"edan plot --sweep failed: {last_line(log)}")
        plots.append(f"whatif-{k}")
    R.step_done(t, "charts")

    # ---- 6. the summary
    R.say(f"summary: {rp('README.md')}")
    R.step_done(0, "make run after the build (total)")
    with open(rp("logs", "missing.txt"), "w") as f:
        f.write("".join(m + "\n" for m in R.missing) or "\n")
    with open(rp("logs", "steps.txt"), "w") as f:
        f.write("".join(s + "\n" for s in R.steps))
    try:
        write_readme(report, M, add_ns, settings, "profile.json" if profile else "", roofline, " ".join(plots),
                     roof_note, dm_plots, build_text, installed)
    except (OSError, ValueError, KeyError) as e:
        R.die(f"cannot write {rp('README.md')}: {e}")
    R.say(f"done: {rp('README.md')}")


def profile_checks(p):
    """The report's lines on probe's checks of the profile's figures against
    the machine's limits ("checks") and the figures that stayed unstable
    ("stability"): each failed check with its figures. None for a profile
    with neither."""
    checks = p.get("checks") if isinstance(p.get("checks"), dict) else {}
    results = [r for r in checks.get("results", []) if isinstance(r, dict)] if isinstance(checks.get("results"), list) else []
    stab = p.get("stability") if isinstance(p.get("stability"), dict) else {}
    unstable = [u for u in stab.get("unstable", []) if isinstance(u, dict)] if isinstance(stab.get("unstable"), list) else []
    if not results and not unstable:
        return []
    failed = [r for r in results if r.get("passed") is False]
    out = []
    if results:
        out.append(f"- probe's checks against the machine's limits: {len(failed)} of {len(results)} failed"
                   + (" after their re-measurements; these figures break physics, do not trust them:" if failed else ""))
    else:
        out.append("- probe's checks against the machine's limits: none recorded (a profile of an older probe)")
    for r in failed:
        figs = r.get("figures") if isinstance(r.get("figures"), dict) else {}
        out.append(f"  - {r.get('check', '?')} {r.get('figure', '?')}: {r.get('value', '?'):.4g} > {r.get('limit', '?'):.4g}"
                   if isinstance(r.get("value"), (int, float)) and isinstance(r.get("limit"), (int, float))
                   else f"  - {r.get('check', '?')} {r.get('figure', '?')}")
        if figs:
            out[-1] += " (" + ", ".join(f"{k} {v:.4g}" if isinstance(v, (int, float)) else f"{k} {v}"
                                        for k, v in figs.items()) + ")"
    if unstable:
        total = stab.get("figures")
        out.append(f"- figures that stayed unstable: {len(unstable)}" + (f" of {total}" if isinstance(total, int) else "")
                   + " (the middle half of their repetitions spans more than "
                   + f"{100 * stab.get('threshold', 0.1):.0f}% of the median): "
                   + ", ".join(str(u.get("figure", "?")) for u in unstable))
    return out


def write_readme(rep, M, add_ns, settings, profile, roofline, plots, roof_note, dm_specs, build_text, installed=""):
    """REPORT_DIR/README.md from the files the run wrote (written to a temporary
    name and renamed)."""
    dm_specs = dm_specs.split()
    plots = plots.split()
    kinfo = [l.split() for l in open(os.path.join(rep, "logs/kernels.txt")) if l.strip()]
    kernels = [k[0] for k in kinfo]

    def load(p):
        with open(os.path.join(rep, p)) as f:
            return json.load(f)

    def num(v, kind):
        """int: thousands separators; fix2: 2 decimals; sig: 4 significant digits."""
        if v is None: return "n/a"
        if kind == "int": return f"{v:,.0f}"
        if kind == "fix2": return f"{v:,.2f}"
        return f"{v:.4g}"

    def fmt(v, d=4):
        if v is None: return "n/a"
        if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15): return f"{int(v):,}"
        return f"{v:.{d}g}"

    out = []
    w = out.append
    w("# EDAN report: memory-latency sensitivity of the example kernels on this machine\n")
    w(f"Written by `make run` on {datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M UTC')}. "
      "Every number below comes from the files next to this one; `commands.sh` holds the exact commands "
      "(run from the repository root) that produced them.\n")

    # ---- machine
    w("## The machine\n")
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip(); break
    except OSError:
        pass
    w(f"- host `{platform.node()}`, {platform.system()} {platform.release()} {platform.machine()}, "
      f"{os.cpu_count()} CPUs{', ' + cpu if cpu else ''}")
    def get(d, *path):
        for k in path:
            if isinstance(d, dict): d = d.get(k)
            elif isinstance(d, list) and isinstance(k, int) and k < len(d): d = d[k]
            else: return None
        return d

    def val(x):
        """a number, or the median of a {median, min, max} object"""
        if isinstance(x, dict): x = x.get("median")
        return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None

    if profile:
        p = load("profile.json")
        mode = p.get("mode")
        w(f"- hardware profile: [`{profile}`]({profile}), measured by `./probe`"
          + (f" ({mode} mode)" if isinstance(mode, str) else "")
          + (f" on {p['created']}" if isinstance(p.get("created"), str) else ""))
        if installed: w(f"- {installed}")
        cpu_p = get(p, "topology", "cpu_model")
        cores = get(p, "topology", "cores")
        if cpu_p: w(f"- CPU: {' '.join(str(cpu_p).split())}" + (f", {cores} cores" if cores else ""))
        ghz = val(get(p, "frequency", "core_ghz"))
        if ghz: w(f"- core clock: {ghz:.3g} GHz (measured)")
        caches = get(p, "caches")
        if isinstance(caches, list) and caches:
            parts = []
            derived = []
            for c in caches:
                if not isinstance(c, dict): continue
                sz = val(c.get("size_bytes"))
                eff = val(c.get("effective_bytes"))
                lat = val(c.get("latency_cycles"))
                parts.append(f"{c.get('level', '?')} {sz / 1024:.0f} KiB" if sz else str(c.get("level", "?")))
                if c.get("assoc"): parts[-1] += f" {c['assoc']}-way"
                if lat: parts[-1] += f" ({lat:.0f} cycles)"
                if sz and eff and eff != sz:   # the size the analysis takes, and why
                    parts[-1] += f", analysed as {eff / 1024:.0f} KiB"
                    derived.append(f"{c.get('level', '?')} is analysed as {eff / 1024:.0f} KiB, not the "
                                   f"{sz / 1024:.0f} KiB {c.get('source', 'the system')} reports: "
                                   f"{c.get('effective_source', 'probe measured it so')}")
            w("- caches: " + ", ".join(parts))
            for d in derived: w(f"  ({d})")
        lats = get(p, "latency")
        if isinstance(lats, list):
            for l in lats:
                if isinstance(l, dict) and str(l.get("level", "")).upper() in ("DRAM", "RAM", "MEMORY"):
                    ns, cyc = val(l.get("ns")), val(l.get("cycles"))
                    if ns: w(f"- RAM latency: {ns:.1f} ns" + (f" = {cyc:.0f} core cycles" if cyc else ""))
        m = val(get(p, "mlp", "m"))
        if m: w(f"- memory-level parallelism m: {m:g} (measured; the m of every verdict, ranking and what-if below)")
        roofs = get(p, "roofs", "compute")
        if isinstance(roofs, list):
            for r in roofs:
                g = val(get(r, "GFLOPs"))
                t = r.get("threads")
                if g: w(f"- compute roof {r.get('name', '')}" + (f" ({t} thread{'s' if t != 1 else ''})" if t else "")
                        + f": {g:.1f} GFLOP/s")
        bw = get(p, "bandwidth")
        if isinstance(bw, list):
            best = {}
            for b in bw:
                if not isinstance(b, dict): continue
                g = val(b.get("GBps"))
                key = (str(b.get("level", "?")), b.get("threads"))
                if g and g > best.get(key, 0): best[key] = g
            if best:
                w("- bandwidth (best op, GB/s): " + ", ".join(
                    f"{lv} {g:.1f} ({t} thread{'s' if t != 1 else ''})" for (lv, t), g in best.items()))
        for line in profile_checks(p):
            w(line)
    else:
        w("- no hardware profile (see *Missing* below)")
    w("")

    # ---- settings
    r0 = load(f"json/{kernels[0]}.json")
    w("## How the kernels were analysed\n")
    omp = [k for k in kernels if k.startswith("omp_")]
    omp_text = (f" The OpenMP kernels ({', '.join(omp)}: the serial source built with -fopenmp) ran with "
                f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '')} threads, all of them in one eDAG."
                if omp else "")
    w(f"Each kernel, {build_text}, was run under QEMU with `edan trace`, scoped to its kernel function, "
      f"with two configurations analysed in the same pass ({settings}).{omp_text}\n")
    w("| # | configuration | caches (size / ways / line / hit latency) | alpha (cycles) | clock (GHz) | m |")
    w("|---|---|---|---|---|---|")
    for i, c in enumerate(r0["configs"]):
        caches = ", ".join(f"L{l['level']} {l['size']//1024} KiB / {l['assoc']} / {l['line']} B / {l['latency']}"
                           for l in c.get("cache", [])) or "none (every access reaches RAM)"
        w(f"| {i} | {c['name']} | {caches} | {c['alpha']} | {fmt(c['freq_ghz'])} | {', '.join(c['m'].keys())} |")
    w(f"\nThe bounds are computed at each m of the table; every verdict, ranking and what-if of this report "
      f"reads them at one, **m = {M}** ("
      + ("the profile's measured memory-level parallelism" if profile and str(M) == str(fmt(get(load("profile.json"), "mlp", "m")))
         else "the EDAN paper's") + ").")
    w("")
    w("| kernel | problem size | scope | tau (cycles) | instructions | vertices (N) |")
    w("|---|---|---|---|---|---|")
    for k, size, tau, sopt, sname in kinfo:
        r = load(f"json/{k}.json")
        n = r["configs"][0]["instructions"]
        w(f"| {k} | {size} | `{sopt} {sname}` | {tau} | {num(r.get('machine_instructions', n), 'int')} | "
          f"{num(n, 'int')} |")
    if r0.get("isa") == "x86-64":
        w("\nAn x86-64 instruction is cracked into the vertices a load/store machine executes (its loads, an "
          "operation, its stores): N counts the vertices.")
    w("")

    # ---- verdicts
    def verdict(k, c):
        cf = load(f"json/{k}.json")["configs"]
        return cf[c].get("verdict", {}) if c < len(cf) else {}

    def classes(c, order):
        """'latency-bound: a, b; mixed: none; ...' of configuration c's verdicts, kernels in `order`"""
        by = {}
        for k in order:
            by.setdefault(verdict(k, c).get("class", "n/a"), []).append(k)
        return "; ".join(f"{cl}: {', '.join(by[cl]) if by.get(cl) else 'none'}"
                         for cl in ["latency-bound", "mixed", "throughput-bound", "compute-bound"] + sorted(set(by) - CLASSES))

    v0 = verdict(kernels[0], 0)
    w("## Verdicts\n")
    if v0.get("from") == "window":
        win = r0["configs"][0].get("window", {})
        w("The windowed schedule plays each kernel's eDAG through one core's window, "
          f"{win.get('rob', '?')} instructions in flight with {win.get('lq', '?')} loads and {win.get('sq', '?')} "
          f"stores, {win.get('width', '?')} a cycle and m RAM accesses at a time (the window's source: "
          f"{win.get('source', '?')}), so that accesses too far apart for one window do not overlap as the paper's "
          "bounds let them; its time T_window and λ_window, the RAM latencies on its critical path, are what a "
          "core's run time follows when RAM latency changes. Each kernel's verdict on this machine (configuration "
          "0), as `edan` prints it above its report, is compute-bound when RAM latency is under "
          f"{fmt(v0.get('compute_bound_below'))} of T_window, else takes its class from the share of T_window that "
          f"is RAM latency more accesses in flight would not hide: latency-bound from {fmt(v0.get('latency_bound_from'))}, mixed "
          f"from {fmt(v0.get('mixed_from'))}, else throughput-bound; the paper's bounds stand beside it (README.md of "
          "the repository, *Reading the verdict*).\n")
    else:
        w("Each kernel's verdict on this machine (configuration 0), as `edan` prints it above its report. Its "
          "class is compute-bound when RAM latency is under "
          f"{fmt(v0.get('compute_bound_below'))} of the upper time bound, else the longest chain's share of the RAM "
          f"latencies in the upper time bound, D / λ(m) at the verdict's m: latency-bound from {fmt(v0.get('latency_bound_from'))}, mixed from "
          f"{fmt(v0.get('mixed_from'))}, else throughput-bound; then the chain's RAM round trips against the W/m "
          "rounds that all RAM accesses take m at a time, and what 100 ns more RAM latency would add at least and "
          "at most (README.md of the repository, *Reading the verdict*).\n")
    w("| kernel | verdict |")
    w("|---|---|")
    for k in kernels:
        w(f"| {k} | {verdict(k, 0).get('text', 'n/a')} |")
    w(f"\nBy class: {classes(0, kernels)}.\n")

    # ---- the two ISAs
    rv = [k for k in kernels if os.path.exists(os.path.join(rep, f"json/rv-{k}.json"))]
    if rv:
        w("## x86-64 and RISC-V side by side\n")
        w("The same kernels built for RISC-V (RV64GC, gcc -O3) and traced the same way, without a cache. "
          "An x86-64 instruction with memory operands is cracked into the loads, operation and stores a "
          "load/store machine executes (README.md of the repository, *x86-64*), and a register spilled to the "
          "stack comes back by store-to-load forwarding, so that the two answers agree but for register "
          "allocation and vectorisation; N counts x86-64's vertices (micro-operations).\n")
        w("| kernel | x86-64 instructions | x86-64 N | x86-64 W | x86-64 D | RISC-V N | RISC-V W | RISC-V D | "
          "W x86-64 / RISC-V |")
        w("|---|---|---|---|---|---|---|---|---|")
        for k in rv:
            x = load(f"json/{k}.json")
            xc = next((c for c in x["configs"] if not c.get("cache")), x["configs"][-1])
            r = load(f"json/rv-{k}.json")["configs"][0]
            ratio = xc["W"] / r["W"] if r["W"] else 0.0
            w(f"| {k} | {num(x.get('machine_instructions'), 'int')} | {num(xc['instructions'], 'int')} | "
              f"{num(xc['W'], 'int')} | {num(xc['D'], 'int')} | {num(r['instructions'], 'int')} | "
              f"{num(r['W'], 'int')} | {num(r['D'], 'int')} | {ratio:.3f} |")
        w("")

    # ---- rankings
    w(f"## Ranking by memory-latency sensitivity (m = {M})\n")
    w("λ = (W − D)/m + D: how many RAM latencies the worst-case time grows by per cycle of added latency "
      "(absolute); Λ = λ/(λ·α₀ + C): the same relative to the kernel's time. The paper ranks with λ "
      "(Fig. 11) and Λ (Fig. 12); Λ ranks well only where W/C is large (≥ 0.3 in the paper).\n")
    w("λ is absolute: a large kernel whose RAM accesses are independent adds W/m RAM latencies to its worst "
      "case, so it can outrank a smaller one whose every access waits for the one before; Λ divides by the "
      "kernel's own time. Neither says whether the RAM time is a chain's: the verdict's class does.\n")
    for c in (0, 1):
        path = f"ranking-{c}.json"
        if not os.path.exists(os.path.join(rep, path)):
            continue
        rk = load(path)
        name = r0["configs"][c]["name"] if c < len(r0["configs"]) else str(c)
        w(f"### Configuration {c}: {name}\n")
        bl = {a["name"]: a["rank"] for a in rk["by_lambda"]}
        bL = {a["name"]: a["rank"] for a in rk["by_Lambda"]}
        bw = {a["name"]: a["rank"] for a in rk.get("by_lambda_window", [])}
        w("| rank by λ | kernel | W | D | C | λ_window | λ | Λ | W/C | rank by Λ | rank by λ_window |")
        w("|---|---|---|---|---|---|---|---|---|---|---|")
        for a in rk["by_lambda"]:
            wc = a['W_over_C']
            w(f"| {a['rank']} | {a['name']} | {num(a['W'], 'int')} | {num(a['D'], 'int')} | {num(a['C'], 'int')} | "
              f"{num(a['lambda_window'], 'int') if 'lambda_window' in a else '-'} | "
              f"{num(a['lambda'], 'fix2')} | {num(a['Lambda'], 'sig')} | {wc:.3g}{'' if wc >= 0.3 else ' (< 0.3)'} | "
              f"{bL.get(a['name'], '?')} | {bw.get(a['name'], '-')} |")
        first = lambda by, key: f"{by[0]['name']} ({num(by[0][key], 'fix2' if key == 'lambda' else 'sig')})"
        w(f"\nFirst by λ: {first(rk['by_lambda'], 'lambda')}; first by Λ: {first(rk['by_Lambda'], 'Lambda')}. "
          f"The verdicts' classes in this configuration, kernels in the order of λ: "
          f"{classes(c, [a['name'] for a in rk['by_lambda']])}.\n")
        w(f"(`edan rank --m {M} --config {c}`: [`ranking-{c}.txt`](ranking-{c}.txt), [`ranking-{c}.json`](ranking-{c}.json))\n")
    if not os.path.exists(os.path.join(rep, "ranking-0.json")):
        w("No ranking (see *Missing*).\n")

    # ---- what-if
    w(f"## What-if: RAM {add_ns} ns farther (m = {M})\n")
    w("The time bounds at the far latency are exact (W, D, the layers and C do not depend on alpha): "
      "the upper bound grows by exactly λ × Δα. The increase column is edan's (`what_if` in each report); "
      "the λ × Δα column is computed here from λ and the two latencies, as a check.\n")
    w("| kernel | configuration | α → α far (cycles) | T_upper (cycles) | T_upper far (cycles) | "
      "increase (edan) | λ × Δα (here) | slowdown |")
    w("|---|---|---|---|---|---|---|---|")
    for k in kernels:
        r = load(f"json/{k}.json")
        for c in r["configs"]:
            wi = c.get("what_if")
            if not wi or M not in wi["m"]: continue
            far = wi["m"][M]
            base = c["m"][M]["T_upper"]
            lam_da = c["m"][M]["lambda"] * (wi["alpha_far_cycles"] - wi["alpha_cycles"])
            w(f"| {k} | {c['name']} | {wi['alpha_cycles']} → {num(wi['alpha_far_cycles'], 'sig')} | {num(base, 'int')} | "
              f"{num(far['T_upper'], 'int')} | {num(far['delta_T_upper'], 'int')} | {num(lam_da, 'int')} | "
              f"{far['slowdown_upper']:.4f}× |")
    w(f"\nThe 0..250 ns sweeps, every configuration and m: `sweep/KERNEL.csv`.\n")

    # ---- charts
    w("## Charts\n")
    if roofline:
        w(f"### Roofline of this machine with the kernels\n")
        if roof_note: w(roof_note + "\n")
        w(f"![roofline]({roofline})\n")
    titles = {"whatif": f"Slowdown of every kernel against the added RAM latency (configuration 0, m = {M})"}
    if "whatif" in plots:
        w(f"### What-if\n\n{titles['whatif']}:\n\n![what-if](svg/whatif.svg)\n")
    for p in plots:
        if p.startswith("whatif-"):
            w(f"Upper time bound of {p[7:]} against the added latency, every configuration and m (log scale):\n\n"
              f"![{p}](svg/{p}.svg)\n")
    dm = [p for p in plots if p.startswith("dm-")]
    if dm:
        w("### Data movement over time\n")
        w("Bytes moved to or from RAM by the memory accesses under way at each time (U_i of the model, "
          "τ-cycle phases of the ASAP schedule with unbounded parallelism), one line per configuration, "
          "as in the EDAN paper's Fig. 9 and 15.\n")
        for p in dm:
            if p == "dm-fig9-lu":
                w("lu at N = 64 without caches, RAM accesses 200 cycles, other instructions 1 cycle, τ = 1 cycle, "
                  "the paper's model (`--paper`: no store-to-load forwarding): "
                  "the setting of the paper's Fig. 9 (`json/fig9-lu.json`), to compare with it: bursts of data "
                  "movement that shrink as the factorisation proceeds.\n")
            else:
                log = any(d == p[3:] + ":log" for d in dm_specs)
                w(f"{p[3:]} with the configurations of the ranking (`json/{p[3:]}.json`)"
                  + (", log scale (zero on the bottom edge)" if log else "") + ":\n")
            w(f"![{p}](svg/{p}.svg)\n")
    if not roofline and not plots:
        w("No charts (see *Missing*).\n")

    # ---- missing, timings, commands
    missing = [l for l in open(os.path.join(rep, "logs/missing.txt")).read().splitlines() if l]
    if missing:
        w("## Missing\n")
        for m in missing: w(f"- {m}")
        w("")
    w("## Time taken\n")
    w("| step | seconds |")
    w("|---|---|")
    for l in open(os.path.join(rep, "logs/steps.txt")).read().splitlines():
        if l:
            s, what = l.split("|", 1)
            w(f"| {what} | {s} |")
    w("")
    w("## Commands\n")
    w("Run from the repository root after `make` and `make examples` (the same as [`commands.sh`](commands.sh)):\n")
    w("```sh")
    for l in open(os.path.join(rep, "commands.sh")).read().splitlines():
        if l.startswith("#!") or l == "set -e": continue
        w(l)
    w("```")
    tmp = os.path.join(rep, "README.md.tmp")
    with open(tmp, "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, os.path.join(rep, "README.md"))


if __name__ == "__main__":
    main()
