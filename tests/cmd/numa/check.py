#!/usr/bin/env python3
"""tests/cmd/numa/check.py LOG MACHINE RUN [EXPECT...]

Checks the structure of the "numa" section printed by the numa driver
inside an emulated machine, or of a whole profile written there by
`probe --numa` (run-vm.sh writes the serial log LOG). RUN picks
the RUN-th JSON block of the log (0-based). MACHINE (2node, hbm) says what
the emulated machine is, as configured in run-vm.sh; EXPECT words:
  hbw=N,M   memkind's HBW kind gives node N from cluster 0, M from cluster 1
  nohbw     memkind finds no HBW node
  hbwenv=S  MEMKIND_HBW_NODES was S
Bandwidths under TCG mean nothing: only shape, placement and consistency
are checked. Exits non-zero with FILE:LINE-free messages naming the field."""
import json
import math
import sys

errors = []


def fail(msg):
    errors.append(msg)


def blocks(text):
    out, cur = [], None
    for line in text.splitlines():
        line = line.rstrip("\r")
        if line.endswith("@@EDAN-NUMA-BEGIN"):
            cur = []
        elif line.endswith("@@EDAN-NUMA-END") and cur is not None:
            out.append("\n".join(cur))
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


# what run-vm.sh configures: (nodes, clusters, local nodes per cluster, HMAT
# local bandwidth MiB/s and latency ns per node)
MACHINES = {
    "2node": {"nodes": [0, 1], "clusters": [0, 1], "local": {0: {0}, 1: {1}},
              "hmat": {0: (0, 20480, 80), 1: (1, 20480, 80)}},
    "hbm": {"nodes": [0, 1, 2, 3], "clusters": [0, 1], "local": {0: {0, 2}, 1: {1, 3}},
            "hmat": {0: (0, 20480, 80), 1: (1, 20480, 80), 2: (0, 409600, 90), 3: (1, 409600, 90)}},
}


def stats_ok(where, s):
    if not isinstance(s, dict):
        return fail(f"{where}: no GBps/ns statistics")
    med, lo, hi = s.get("median"), s.get("min"), s.get("max")
    if not all(isinstance(v, (int, float)) for v in (med, lo, hi)):
        return fail(f"{where}: statistics not numbers: {s}")
    if not (0 < lo <= med <= hi):
        fail(f"{where}: expected 0 < min <= median <= max, got {s}")


def pages_ok(where, e, expect_pages):
    p = e.get("pages")
    if not isinstance(p, dict):
        return fail(f"{where}: no page check")
    if p.get("checked") != expect_pages:
        fail(f"{where}: {p.get('checked')} pages checked, expected {expect_pages}")
    if p.get("misplaced_before") != 0 or p.get("misplaced_after") != 0:
        fail(f"{where}: pages misplaced: {p}")
    if e.get("valid") is not True:
        fail(f"{where}: not valid")


def eval_tfit(theta, b, q):
    names = ["lf", "ls", "sf", "ss"]
    t = [q[k] / b[k] if q[k] > 0 else 0.0 for k in range(4)]
    d = 0
    for k in range(1, 4):
        if t[k] > t[d]:
            d = k
    s = t[d]
    for k in range(4):
        if k != d and t[k] > 0:
            th = theta[names[d]][names[k]]
            s += (th if th is not None else 0.0) * t[k]
    return s


def check(doc, machine, expect):
    m = MACHINES[machine]
    page = doc.get("page_bytes")
    if doc.get("skipped") is not False:
        fail(f"skipped is {doc.get('skipped')!r} on a {len(m['nodes'])}-node machine")
    if doc.get("nodes") != len(m["nodes"]):
        fail(f"nodes = {doc.get('nodes')}, expected {len(m['nodes'])}")
    if [c.get("cluster") for c in doc.get("clusters", [])] != m["clusters"]:
        fail(f"clusters = {doc.get('clusters')}, expected {m['clusters']}")
    threads = {c["cluster"]: c["threads"] for c in doc.get("clusters", [])}
    if any(v != 2 for v in threads.values()):
        fail(f"each cluster has 2 cores, got {threads}")
    if not isinstance(doc.get("numa_balancing"), int):
        fail("numa_balancing state not recorded")

    # node kinds and HMAT
    info = {n["node"]: n for n in doc.get("node_info", [])}
    if sorted(info) != m["nodes"]:
        fail(f"node_info covers {sorted(info)}, expected {m['nodes']}")
    for node, (cl, bw, lat) in m["hmat"].items():
        n = info.get(node)
        if not n:
            continue
        if n.get("cpus") != (node in m["clusters"]):
            fail(f"node {node}: cpus = {n.get('cpus')}")
        local_to = set(n.get("local_to", []))
        want = {c for c, s in m["local"].items() if node in s}
        if local_to != want:
            fail(f"node {node}: local_to {sorted(local_to)}, expected {sorted(want)}")
        h = [x for x in n.get("hmat", []) if x.get("cluster") == cl]
        if not h:
            fail(f"node {node}: no HMAT attributes for initiator cluster {cl}")
            continue
        if h[0].get("bandwidth_MiBps") != bw or h[0].get("latency_ns") != lat:
            fail(f"node {node}: HMAT {h[0]}, expected bandwidth {bw} MiB/s latency {lat} ns")

    # memkind
    hbw = doc.get("memkind", {}).get("hbw", {})
    for word in expect:
        if word == "nohbw":
            if hbw.get("available") is not False or not hbw.get("reason"):
                fail(f"memkind hbw: expected unavailable with a reason, got {hbw}")
        elif word.startswith("hbw="):
            want = [int(x) for x in word[4:].split(",")]
            got = [x.get("node") for x in hbw.get("from_cluster", [])]
            if hbw.get("available") is not True or got != want:
                fail(f"memkind hbw: expected nodes {want} from clusters 0, 1, got {hbw}")
            for node in set(want):
                if not info.get(node, {}).get("memkind_hbw"):
                    fail(f"node {node}: memkind_hbw not set")
        elif word.startswith("hbwenv="):
            if hbw.get("MEMKIND_HBW_NODES") != word[7:]:
                fail(f"MEMKIND_HBW_NODES recorded as {hbw.get('MEMKIND_HBW_NODES')!r}")
        else:
            fail(f"unknown expectation {word}")

    meth = doc.get("method", {})
    bpt = meth.get("bytes_per_thread")
    if not isinstance(bpt, int) or bpt <= 0 or not page or bpt % page:
        return fail(f"method.bytes_per_thread = {bpt!r}")
    pages_per_thread = bpt // page

    # the LARM matrix: every (cluster, node) x {load, store}, contended per
    # (node, cluster), congested per cluster
    roofs = doc.get("roofs", [])
    seen = {}
    for e in roofs:
        key = (e.get("roof"), e.get("cluster"), e.get("node"), e.get("op"))
        if key in seen:
            fail(f"roof {key} twice")
        seen[key] = e
    for c in m["clusters"]:
        for n in m["nodes"]:
            kind = "local" if n in m["local"][c] else "remote"
            for op in ("load", meth.get("store", "").startswith("non-temporal") and "store_nt" or "store"):
                e = seen.pop((kind, c, n, op), None)
                if e is None:
                    fail(f"missing {kind} {op} roof cluster {c} node {n}")
                    continue
                where = f"{kind} {op} cluster {c} node {n}"
                stats_ok(where, e.get("GBps"))
                pages_ok(where, e, threads[c] * pages_per_thread)
                if e.get("threads") != threads[c] or e.get("threads_total") != threads[c]:
                    fail(f"{where}: threads {e.get('threads')}/{e.get('threads_total')}")
            e = seen.pop(("contended", c, n, "load"), None)
            if e is None:
                fail(f"missing contended roof cluster {c} node {n}")
            else:
                where = f"contended cluster {c} node {n}"
                stats_ok(where, e.get("GBps"))
                pages_ok(where, e, threads[c] * pages_per_thread)
                if e.get("threads_total") != sum(threads.values()):
                    fail(f"{where}: threads_total {e.get('threads_total')}")
        e = seen.pop(("congested", c, None, "load"), None)
        if e is None:
            fail(f"missing congested roof cluster {c}")
        else:
            stats_ok(f"congested cluster {c}", e.get("GBps"))
            pages_ok(f"congested cluster {c}", e, threads[c] * pages_per_thread)
    if seen:
        fail(f"unexpected roofs: {sorted(seen, key=str)}")

    lat = {(e.get("cluster"), e.get("node")): e for e in doc.get("latency", [])}
    for c in m["clusters"]:
        for n in m["nodes"]:
            e = lat.get((c, n))
            if not e:
                fail(f"missing latency cluster {c} node {n}")
                continue
            stats_ok(f"latency cluster {c} node {n}", e.get("ns"))
            pages_ok(f"latency cluster {c} node {n}", e, e.get("bytes", 0) // page)

    # hybrid sweep and fit
    hy = {h.get("cluster"): h for h in doc.get("hybrid", [])}
    if sorted(hy) != m["clusters"]:
        fail(f"hybrid entries for clusters {sorted(hy)}, expected {m['clusters']}")
    names = ["lf", "ls", "sf", "ss"]
    for c, h in hy.items():
        where = f"hybrid cluster {c}"
        fast, slow = h.get("fast_node"), h.get("slow_node")
        if fast not in m["nodes"] or slow not in m["nodes"] or fast == slow:
            fail(f"{where}: fast {fast} slow {slow}")
            continue
        hbw_words = [w for w in expect if w.startswith("hbw=")]
        if hbw_words:
            want = int(hbw_words[0][4:].split(",")[c])
            if want != c and (fast != want or h.get("fast_from") != "memkind_hbw" or slow != c):
                fail(f"{where}: expected fast {want} from memkind_hbw and slow {c}, got {fast} "
                     f"({h.get('fast_from')}) and {slow}")
        pts = h.get("points", [])
        grid = sorted((p.get("fast_fraction"), p.get("store_fraction")) for p in pts)
        want_grid = sorted((i / 8, j / 4) for i in range(9) for j in range(5))
        if grid != want_grid:
            fail(f"{where}: sweep grid is not 9 fast x 5 store fractions")
            continue
        total = threads[c] * bpt / 1e9
        qs, ys = [], []
        for p in pts:
            pw = f"{where} point f={p['fast_fraction']} s={p['store_fraction']}"
            stats_ok(pw, p.get("GBps"))
            pages_ok(pw, p, threads[c] * pages_per_thread)
            q = [p.get("q_GB", {}).get(k) for k in names]
            if not all(isinstance(v, (int, float)) and v >= 0 for v in q):
                fail(f"{pw}: q_GB {p.get('q_GB')}")
                continue
            # the quantities come from where move_pages found the pages; they
            # must match the requested fractions (page rounding aside)
            f, s = p["fast_fraction"], p["store_fraction"]
            tol = 2 * threads[c] * page / 1e9
            want_q = [total * (1 - s) * f, total * (1 - s) * (1 - f), total * s * f, total * s * (1 - f)]
            if any(abs(a - b) > tol for a, b in zip(q, want_q)):
                fail(f"{pw}: q_GB {q}, expected about {want_q}")
            qs.append(q)
            ys.append(p["GBps"]["median"])
        b = [h.get("bandwidth_GBps", {}).get(k) for k in names]
        theta = h.get("theta", {})
        if not all(isinstance(v, (int, float)) and v > 0 for v in b):
            fail(f"{where}: bandwidth_GBps {h.get('bandwidth_GBps')}")
            continue
        if sorted(theta) != names or any(sorted(theta[d]) != sorted(set(names) - {d}) for d in names):
            fail(f"{where}: theta must have 4 x 3 entries, got {theta}")
            continue
        if not any(isinstance(theta[d][k], (int, float)) for d in names for k in theta[d]):
            fail(f"{where}: no theta was fitted")
        # the corners of the sweep are the four bandwidths
        corner = {(1.0, 0.0): 0, (0.0, 0.0): 1, (1.0, 1.0): 2, (0.0, 1.0): 3}
        for p in pts:
            k = corner.get((p["fast_fraction"], p["store_fraction"]))
            if k is not None and not math.isclose(p["GBps"]["median"], b[k], rel_tol=1e-5):
                fail(f"{where}: bandwidth {names[k]} {b[k]} is not the corner's median {p['GBps']['median']}")
        # footnote 10, recomputed here from the printed theta and points
        if h.get("points_fitted") != len(qs):
            fail(f"{where}: points_fitted {h.get('points_fitted')}, expected {len(qs)}")
        if qs:
            tfits = [eval_tfit(theta, b, q) for q in qs]
            got = h.get("error_pct")
            if min(tfits) <= 0:
                # a fit that gives a non-positive time somewhere has no error
                if got is not None or not h.get("error_note"):
                    fail(f"{where}: a point has t_fit <= 0 but error_pct is {got!r} without a note")
            else:
                r2 = 0.0
                for q, y, tf in zip(qs, ys, tfits):
                    yhat = sum(q) / tf
                    r2 += ((y - yhat) / yhat) ** 2
                err = 100.0 / len(qs) * math.sqrt(r2)
                if not isinstance(got, (int, float)) or not math.isclose(got, err, rel_tol=1e-3, abs_tol=1e-3):
                    fail(f"{where}: error_pct {got}, recomputed {err:.6g}")
            # least squares in time (Eq. 5): the printed theta minimise the
            # squared time residuals, so nudging any of them, or zeroing all,
            # cannot lower the sum
            def sse(th):
                return sum((sum(q) / y - eval_tfit(th, b, q)) ** 2 for q, y in zip(qs, ys))
            base = sse(theta)
            zero = {d: {k: 0.0 for k in names if k != d} for d in names}
            if base > sse(zero) * (1 + 1e-6) + 1e-18:
                fail(f"{where}: fitted theta worse than theta = 0")
            for d in names:
                for k in names:
                    if k == d or not isinstance(theta[d][k], (int, float)):
                        continue
                    for step in (-0.01, 0.01):
                        th = {x: dict(v) for x, v in theta.items()}
                        th[d][k] += step
                        if sse(th) < base * (1 - 1e-6) - 1e-18:
                            fail(f"{where}: theta {d}.{k} is not a least-squares optimum")


def main():
    if len(sys.argv) < 4 or sys.argv[2] not in MACHINES:
        print(__doc__, file=sys.stderr)
        return 2
    log, machine, run = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(log, errors="replace") as fh:
        bl = blocks(fh.read())
    if len(bl) <= run:
        print(f"{log}: {len(bl)} JSON blocks, run {run} missing", file=sys.stderr)
        return 1
    try:
        doc = json.loads(bl[run])
    except json.JSONDecodeError as e:
        print(f"{log}: run {run}: invalid JSON: {e}", file=sys.stderr)
        return 1
    if isinstance(doc, dict) and doc.get("schema") == "edan-hwprofile":
        # a whole profile (probe --numa -o FILE): check its numa section
        if not isinstance(doc.get("numa"), dict):
            print(f"{log}: run {run}: the profile has no numa section", file=sys.stderr)
            return 1
        doc = doc["numa"]
    check(doc, machine, sys.argv[4:])
    for e in errors:
        print(f"{log}: run {run}: {e}", file=sys.stderr)
    if not errors:
        print(f"{log}: run {run}: {machine}: ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
