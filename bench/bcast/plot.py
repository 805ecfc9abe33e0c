#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/bcast/plot.py - tables, LogP/LogGP predictions, crossover points and
SVG plots for the broadcast benchmark. Python 3 and matplotlib
(bench/sextant_plot.py draws the plots).

    python3 bench/bcast/plot.py OUTDIR

Reads what bench/bcast/run.sh leaves in OUTDIR/raw:
  {user,window}-pP-rR.csv   one row per (size, variant) of sextant-bench-bcast
  params-pP-rR.json         the model parameters measured in that run
  load.tsv, run-info.txt    the load average around every run, the command
and writes into OUTDIR:
  results.csv               medians over the repetitions, with the model
  summary.md                tables, crossovers, model errors, verdicts
  bcast-pP.svg              latency vs size, every variant (like the paper's
                            figures 9-12, one plot per p)
  bcast-model-pP.svg        measurement vs the spec's model
  bcast-ratio.svg           binomial / linear (adaptive polling) vs size

The latency of a broadcast is the CSV's med_us: the median over iterations
of the slowest rank's time (for onecoll that is the root, whose flush lasts
until every rank has the data). With several repetitions, the median of
those. The OSU columns (per-rank averages, min/avg/max over ranks) stay in
results.csv.

The model is the spec's (shared/spec/rma-bcast.md), with q = max(o, g) and
ceil(log2 P) stages for P that are not powers of two:
  binomial  (o + (m-1) G + 2q + L + Or) * ceil(log2 P) + o + L
  linear    o + (P-1) * max(g, (m-1) G) + L
Parameters: the median, over every run of this invocation, of what the
benchmark measured (they describe the machine, not p). Or is the one
measured with the variant's polling and relay mode (adaptive, adaptive-bc,
fixed).

Not in the spec: the PS model (ps_model below), the same LogGP costs on a
node whose cores all copy: a fluid simulation of the broadcast's schedule
(the tree's PutLoops, the flags' L + Or, the receivers' copy-outs when they
use their own buffers) in which the copies running at one moment share the
node's copy bandwidth, measured by the benchmark for n copies at once
(Gshare(n); Gshare(1) = Gquiet, one such copy alone), and every copy is
slower by Gbusy / Gquiet, the
measured slowdown of one rank's copy while the other ranks of that p wait
in onecoll (polling). LogGP's (m-1) G per stage assumes that the 2^k copies
of a stage run on 2^k network interfaces in parallel; on one node they share
C cores and one memory system, with the waiting ranks' threads too. No
parameter is fitted to the broadcast latencies. Also shown: the node bound
(P-1) m Gnode.
"""

import csv
import glob
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sextant_plot import LogPlot, fmt_bytes, short_bytes  # noqa: E402  (bench/sextant_plot.py)

VARIANTS = [
    "mpi-bcast", "linear/adaptive", "binomial-sf/adaptive", "binomial-lf/adaptive",
    "linear/adaptive-bc", "binomial-sf/adaptive-bc", "binomial-lf/adaptive-bc",
    "linear/fixed", "binomial-sf/fixed", "binomial-lf/fixed", "mpi-bcast/rt",
]
STYLE = {  # colour, dash
    "mpi-bcast": ("#222222", None),
    "mpi-bcast/rt": ("#888888", None),
    "linear/adaptive": ("#1f6fb4", None),
    "binomial-sf/adaptive": ("#e07b10", None),
    "binomial-lf/adaptive": ("#2a9a2a", None),
    "linear/fixed": ("#1f6fb4", "6,4"),
    "binomial-sf/fixed": ("#e07b10", "6,4"),
    "binomial-lf/fixed": ("#2a9a2a", "6,4"),
    "linear/adaptive-bc": ("#7fb2de", "2,2"),
    "binomial-sf/adaptive-bc": ("#f0b070", "2,2"),
    "binomial-lf/adaptive-bc": ("#8fd08f", "2,2"),
}
P_COLOURS = ["#1f6fb4", "#e07b10", "#2a9a2a", "#c0282d", "#8c5fbf", "#8c564b",
             "#d462b8", "#555555", "#a8a820", "#17a8b8", "#0a3d6b", "#7a4400",
             "#0d5a0d", "#6b0d10", "#4a2a7a"]
LARGE_M = 16 * 1024 * 1024         # "large m" for the model target
SMALL_M = 64 * 1024                # "small m" for the per-hop floor


# ---------------------------------------------------------------- formatting

def fmt_us(us):
    if us is None or (isinstance(us, float) and math.isnan(us)):
        return "-"
    if us >= 1e6:
        return "%.2f s" % (us / 1e6)
    if us >= 1e4:
        return "%.0f ms" % (us / 1e3)
    if us >= 1e3:
        return "%.1f ms" % (us / 1e3)
    if us >= 100:
        return "%.0f us" % us
    if us >= 10:
        return "%.1f us" % us
    return "%.2f us" % us


def fmt_pct(x):
    return "%+.0f %%" % (100 * x)


# ---------------------------------------------------------------- input

def load(outdir):
    raw = os.path.join(outdir, "raw")
    rows = []
    for path in sorted(glob.glob(os.path.join(raw, "*-p*-r*.csv"))):
        m = re.match(r"(user|window)-p(\d+)-r(\d+)\.csv$", os.path.basename(path))
        if not m:
            continue
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                r["pass"] = m.group(1)
                r["rep"] = int(m.group(3))
                rows.append(r)
    params = []
    for path in sorted(glob.glob(os.path.join(raw, "params-p*-r*.json"))):
        with open(path) as f:
            j = json.load(f)
        if "params" in j:
            j["params"]["p"] = j["p"]
            params.append((j, j["params"]))
    loads = []
    lpath = os.path.join(raw, "load.tsv")
    if os.path.exists(lpath):
        with open(lpath, newline="") as f:
            loads = list(csv.DictReader(f, delimiter="\t"))
    info = ""
    ipath = os.path.join(raw, "run-info.txt")
    if os.path.exists(ipath):
        with open(ipath) as f:
            info = f.read().strip()
    return rows, params, loads, info


def aggregate(rows):
    """(pass, p, variant, bytes) -> medians over repetitions."""
    groups = {}
    for r in rows:
        key = (r["pass"], int(r["p"]), r["variant"], int(r["bytes"]))
        groups.setdefault(key, []).append(r)
    agg = {}
    for key, rs in groups.items():
        def med(col):
            return statistics.median(float(r[col]) for r in rs)
        agg[key] = {
            "lat": med("med_us"), "avg": med("avg_us"), "min": med("min_us"),
            "max": med("max_us"), "root": med("root_us"), "itmax": med("itmax_us"),
            "reps": len(rs), "iters": int(rs[0]["iters"]),
            "lat_lo": min(float(r["med_us"]) for r in rs),
            "lat_hi": max(float(r["med_us"]) for r in rs),
        }
    return agg


def machine_params(params):
    keys = ["o_us", "o_acc_us", "g_us", "rtt_us", "L_us", "G_ns_per_byte",
            "Gnode_ns_per_byte", "bin2_adaptive_us", "bin2_fixed_us",
            "Or_adaptive_us", "Or_fixed_us"]
    out = {k: statistics.median(pr[k] for _, pr in params) for k in keys}
    # Gshare(n): the median over the runs that measured n (runs with p >= n)
    share = {}
    for _, pr in params:
        for e in pr.get("Gshare", []):
            share.setdefault(e["n"], []).append(e["ns_per_byte"])
    out["Gshare"] = {n: statistics.median(v) for n, v in share.items()}
    # Gbusy depends on p (how many ranks wait): the median per p and policy
    # (and Gquiet, the same put with the other ranks asleep)
    busy = {}
    for _, pr in params:
        for pol in ("adaptive", "fixed", "quiet"):
            key = "Gquiet_ns_per_byte" if pol == "quiet" else "Gbusy_%s_ns_per_byte" % pol
            if pr.get(key):
                busy.setdefault((pol, pr["p"]), []).append(pr[key])
    out["Gbusy"] = {k: statistics.median(v) for k, v in busy.items()}
    quiet = [v for (pol, _), vs in busy.items() if pol == "quiet" for v in vs]
    out["Gquiet"] = statistics.median(quiet) if quiet else None
    if 2 not in out["Gshare"]:
        out["Gshare"][2] = out["Gnode_ns_per_byte"]
    return out


# ---------------------------------------------------------------- model

def stages(P):
    return math.ceil(math.log2(P)) if P > 1 else 0


def model(variant, P, m, prm):
    """The spec's prediction in us, or None for MPI_Bcast."""
    o, g, L = prm["o_us"], prm["g_us"], prm["L_us"]
    G = prm["G_ns_per_byte"] / 1e3
    q = max(o, g)
    mb = max(m - 1, 0)
    if variant.startswith("linear"):
        return o + (P - 1) * max(g, mb * G) + L
    if variant.startswith("binomial"):
        Or = prm["Or_fixed_us"] if variant.endswith("/fixed") else prm["Or_adaptive_us"]
        return (o + mb * G + 2 * q + L + Or) * stages(P) + o + L
    return None


def node_bound(P, m, prm):
    return (P - 1) * m * prm["Gnode_ns_per_byte"] / 1e3


# ---------------------------------------------------------------- PS model

def children(v, P, order):
    """Relative ranks of the children of relative rank v, in sending order."""
    if v == 0:
        limit = 1
        while limit < P:
            limit <<= 1
    else:
        limit = v & -v
    masks = []
    mask = 1
    while mask < limit:
        masks.append(mask)
        mask <<= 1
    if order == "lf":
        masks.reverse()
    return [v + k for k in masks if v + k < P]


def share_rate(n, prm):
    """Bytes per us that each of n concurrent copies gets: the node's
    aggregate copy rate with n copies at once (measured Gshare(n),
    interpolated linearly in n between the measured counts, constant
    beyond the largest), split evenly, and never faster than one copy
    alone. One copy alone is Gquiet, the median time per byte of a 16 MiB
    put while the other ranks sleep (the same size and statistic as
    Gshare; the spec's G is a fitted slope over 16-40 MiB of minimum
    times), or G if it was not measured."""
    if n < 1:
        return 0.0
    G = (prm.get("Gquiet") or prm["G_ns_per_byte"]) / 1e3
    pts = [(1, 1 / G)] + sorted((k, 1 / (v / 1e3)) for k, v in prm["Gshare"].items())
    agg = pts[-1][1]
    for (n0, r0), (n1, r1) in zip(pts, pts[1:]):
        if n0 <= n <= n1:
            agg = r0 + (r1 - r0) * (n - n0) / (n1 - n0)
            break
    return min(1 / G, agg / n)


def busy_factor(variant, P, prm):
    """Gbusy / Gquiet for the variant's polling at P ranks (1 if not
    measured): how much slower one rank copies while the other P - 1 wait in
    onecoll, polling, than while they sleep."""
    pol = "fixed" if variant.endswith("/fixed") else "adaptive"
    gb = prm.get("Gbusy", {}).get((pol, P))
    gq = prm.get("Gbusy", {}).get(("quiet", P))
    return max(gb / gq, 1.0) if gb and gq else 1.0


def ps_model(variant, P, m, prm, copyout):
    """The spec's LogGP costs with the copies sharing the node (processor
    sharing): a fluid simulation of the broadcast's schedule in which every
    rank runs its own steps in order - fixed LogGP delays, and copies of m
    bytes whose speed depends on how many copies run at that moment
    (share_rate). Binomial: a rank with the data runs PutLoop (per child:
    o, the copy, 2q for descriptor and flag); the child starts L + Or after
    its flag; a relay counts itself arrived after its PutLoop, and the root
    sees the last arrival o + L later. Linear: the root's P-1 puts one after
    the other (o or g, then the copy), then o + L until the ranks see their
    arrival. With copyout (receivers' own buffers), every non-root copies
    the m bytes out from its arrival on, sharing the node with every other
    copy running then. Every copy runs 1/busy_factor slower: the cores are
    shared with the waiting ranks' polling too. Returns the time in us until
    the last rank is complete, or None for MPI_Bcast."""
    o, g, L = prm["o_us"], prm["g_us"], prm["L_us"]
    q = max(o, g)
    if variant.startswith("linear"):
        kind = "linear"
    elif variant.startswith("binomial"):
        kind = "binomial"
        order = "sf" if variant.startswith("binomial-sf") else "lf"
        Or = max(prm["Or_fixed_us"] if variant.endswith("/fixed") else prm["Or_adaptive_us"], 0.0)
    else:
        return None
    if P < 2:
        return 0.0
    tau = busy_factor(variant, P, prm)
    tail = [("copy", m)] if copyout else []
    # steps[r]: ("delay", us), ("copy", bytes), ("start", rank, after_us), ("arrived",),
    # ("all_arrived",); a rank runs its steps in order once it has started
    steps = {r: [] for r in range(P)}
    if kind == "binomial":
        for v in range(P):
            for c in children(v, P, order):
                steps[v] += [("delay", o), ("copy", m), ("delay", 2 * q), ("start", c, L + Or)]
            if v != 0:
                steps[v] += [("arrived",)] + tail
    else:
        for c in range(1, P):
            steps[0] += [("delay", o if c == 1 else g), ("copy", m)]
        steps[0] += [("delay", o + L), ("all_arrived",)]
        for c in range(1, P):
            steps[c] = [("arrived",)] + tail
    arrived = {}
    end = {}
    pos = {r: 0 for r in range(P)}
    busy = {}                       # rank -> ["delay", end time] or ["copy", bytes left]
    pending = {0: 0.0}              # rank -> time it starts its steps

    def advance(r, now):
        """Runs rank r's steps that take no time, up to one that does."""
        while pos[r] < len(steps[r]):
            st = steps[r][pos[r]]
            pos[r] += 1
            if st[0] == "delay":
                busy[r] = ["delay", now + st[1]]
                return
            if st[0] == "copy":
                busy[r] = ["copy", float(st[1])]
                return
            if st[0] == "start":
                pending[st[1]] = now + st[2]
            elif st[0] == "arrived":
                arrived[r] = now
            elif st[0] == "all_arrived":
                for c in range(1, P):
                    pending[c] = now
        busy.pop(r, None)
        end[r] = now

    t = 0.0
    for _ in range(1000000):
        for r, at in list(pending.items()):
            if at <= t + 1e-9:
                del pending[r]
                advance(r, t)
        if not busy and not pending:
            break
        copies = [r for r, b in busy.items() if b[0] == "copy"]
        rate = share_rate(len(copies), prm) / tau
        nxt = [b[1] for b in busy.values() if b[0] == "delay"] + list(pending.values())
        nxt += [t + busy[r][1] / rate for r in copies]
        t_next = max(min(nxt), t)
        for r in copies:
            busy[r][1] -= rate * (t_next - t)
        t = t_next
        for r, b in list(busy.items()):
            if (b[0] == "delay" and b[1] <= t + 1e-9) or (b[0] == "copy" and b[1] <= 1e-6):
                del busy[r]
                advance(r, t)
    last_arrival = max(arrived[r] for r in range(1, P))
    root_done = last_arrival + o + L if kind == "binomial" else end[0]
    return max([root_done] + [end[r] for r in range(1, P)])


# ---------------------------------------------------------------- analysis

def sizes_of(agg, pss, P, variant):
    return sorted(b for (a, p, v, b) in agg if a == pss and p == P and v == variant)


def crossover(agg, pss, P, cand, base):
    """Smallest size from which cand is faster than base at every larger
    measured size: (size, last size where base won or None), or None if
    base wins at the largest size. Only sizes measured for both count."""
    sizes = [s for s in sizes_of(agg, pss, P, cand) if (pss, P, base, s) in agg]
    if not sizes:
        return "n/a"
    wins = [agg[(pss, P, cand, s)]["lat"] < agg[(pss, P, base, s)]["lat"] for s in sizes]
    if not wins[-1]:
        return None
    k = len(sizes) - 1
    while k > 0 and wins[k - 1]:
        k -= 1
    return (sizes[k], sizes[k - 1] if k > 0 else None)


def fmt_cross(c):
    if c == "n/a":
        return "n/a"
    if c is None:
        return "never (up to the largest size)"
    size, prev = c
    if prev is None:
        return "every size"
    return "from %s (loses at %s)" % (fmt_bytes(size), fmt_bytes(prev))


def ratios(agg, pss, P, num, den):
    out = []
    for s in sizes_of(agg, pss, P, num):
        if (pss, P, den, s) in agg:
            out.append((s, agg[(pss, P, num, s)]["lat"] / agg[(pss, P, den, s)]["lat"]))
    return out


# ---------------------------------------------------------------- plots

def plot_latency(agg, P, path):
    keys = [(v, sizes_of(agg, "user", P, v)) for v in VARIANTS]
    keys = [(v, ss) for v, ss in keys if ss]
    if not keys:
        return False
    pl = LogPlot("p = %d: broadcast latency, root 0 (median over iterations of the slowest rank)"
                 % P)
    for v, ss in keys:
        colour, dash = STYLE.get(v, ("#000", None))
        pl.series([(s, agg[("user", P, v, s)]["lat"]) for s in ss], v, colour, dash)
    pl.save(path, cols=3)
    return True


def plot_model(agg, prm, P, path):
    pts_all = []
    lines = []
    for v in ("linear/adaptive", "binomial-lf/adaptive"):
        ss = sizes_of(agg, "user", P, v)
        if ss:
            meas = [(s, agg[("user", P, v, s)]["lat"]) for s in ss]
            lines.append(("measured " + v, meas, STYLE[v][0], None, True, False))
            pts_all += meas
        ws = sizes_of(agg, "window", P, v)
        if ws:
            meas = [(s, agg[("window", P, v, s)]["lat"]) for s in ws]
            lines.append(("measured %s, in window" % v.split("/")[0], meas, STYLE[v][0], None,
                          True, True))
            pts_all += meas
    if not pts_all or prm is None:
        return False
    sizes = sorted(set(s for s, _ in pts_all))
    grid = sorted(set(sizes + [2 ** k for k in range(0, 27)]))
    grid = [s for s in grid if sizes[0] <= s <= sizes[-1]]
    ml = [(s, model("linear/adaptive", P, s, prm)) for s in grid]
    mb = [(s, model("binomial-lf/adaptive", P, s, prm)) for s in grid]
    nb = [(s, node_bound(P, s, prm)) for s in grid]
    pgrid = [s for s in grid if s >= 1 << 16]
    pl_ = [(s, ps_model("linear/adaptive", P, s, prm, False)) for s in pgrid]
    pb = [(s, ps_model("binomial-lf/adaptive", P, s, prm, False)) for s in pgrid]
    pbu = [(s, ps_model("binomial-lf/adaptive", P, s, prm, True)) for s in pgrid]
    pl = LogPlot("p = %d: measurement vs the spec's LogGP model and the PS model (adaptive)" % P)
    for label, pts, colour, dash, markers, hollow in lines:
        pl.series(pts, label, colour, dash, markers=markers, hollow=hollow)
    pl.series(ml, "model linear", STYLE["linear/adaptive"][0], "2,3", markers=False, width=2.2)
    pl.series(mb, "model binomial", STYLE["binomial-lf/adaptive"][0], "2,3", markers=False,
              width=2.2)
    pl.series(pl_, "PS model linear, in window", STYLE["linear/adaptive"][0], "8,3",
              markers=False, width=1.2)
    pl.series(pb, "PS model binomial, in window", STYLE["binomial-lf/adaptive"][0], "8,3",
              markers=False, width=1.2)
    pl.series(pbu, "PS model binomial, own buffers", "#0d5a0d", "8,3,2,3", markers=False,
              width=1.2)
    pl.series([(s, v) for s, v in nb if s >= 1024], "node bound (P-1) m Gnode (not spec)",
              "#888", "8,3,2,3", markers=False)
    pl.save(path, cols=3)
    return True


def plot_ratio(agg, plist, path, num="binomial-lf/adaptive", den="linear/adaptive"):
    series = [(P, ratios(agg, "user", P, num, den)) for P in plist]
    series = [(P, r) for P, r in series if r]
    if not series:
        return False
    pl = LogPlot("binomial (largest subtree first) / linear, both adaptive: latency ratio",
                 ylabel="ratio (below 1: binomial faster)", ytick=lambda e: "%g" % 10 ** e)
    pl.include(0.5, 2.0)
    pl.hline(1.0, colour="#444", dash="4,3")
    pl.hline(1.5, colour="#c0282d", dash="4,3", label="1.5x (target)")
    for i, (P, r) in enumerate(series):
        pl.series(r, "p = %d" % P, P_COLOURS[i % len(P_COLOURS)])
    pl.save(path, cols=min(len(series), 8))
    return True


# ---------------------------------------------------------------- summary

def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    outdir = argv[1]
    rows, params, loads, info = load(outdir)
    if not rows:
        print("plot.py: no results in %s/raw" % outdir, file=sys.stderr)
        return 1
    agg = aggregate(rows)
    prm = machine_params(params) if params else None
    plist = sorted(set(p for (_, p, _, _) in agg))
    out = []
    w = out.append

    # results.csv
    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        cw = csv.writer(f)
        cw.writerow(["pass", "p", "variant", "bytes", "reps", "iters", "lat_us", "lat_min_rep_us",
                     "lat_max_rep_us", "osu_avg_us", "osu_min_us", "osu_max_us", "root_us",
                     "itmax_us", "model_us", "ps_model_us", "node_bound_us"])
        for key in sorted(agg, key=lambda k: (k[0], k[1], VARIANTS.index(k[2])
                                              if k[2] in VARIANTS else 99, k[3])):
            a = agg[key]
            mdl = model(key[2], key[1], key[3], prm) if prm else None
            psm = ps_model(key[2], key[1], key[3], prm, key[0] == "user") if prm else None
            cw.writerow([key[0], key[1], key[2], key[3], a["reps"], a["iters"],
                         "%.3f" % a["lat"], "%.3f" % a["lat_lo"], "%.3f" % a["lat_hi"],
                         "%.3f" % a["avg"], "%.3f" % a["min"], "%.3f" % a["max"],
                         "%.3f" % a["root"], "%.3f" % a["itmax"],
                         "" if mdl is None else "%.3f" % mdl,
                         "" if psm is None else "%.3f" % psm,
                         "%.3f" % node_bound(key[1], key[3], prm) if prm else ""])

    w("# Broadcast latency: onecoll vs MPI_Bcast (bench/bcast)\n")
    if info:
        w("```\n%s\n```\n" % info)
    if loads:
        lv = [float(r["load_before"]) for r in loads] + [float(r["load_after"]) for r in loads]
        secs = sum(float(r["seconds"]) for r in loads)
        w("%d runs, %.0f s of mpirun. 1-minute load average around the runs: min %.1f, median %.1f, "
          "max %.1f (the machine has %d CPUs).\n" % (len(loads), secs, min(lv), statistics.median(lv),
                                                       max(lv), os.cpu_count() or 0))
    reps = max(a["reps"] for a in agg.values())
    w("Latency = median over iterations of the slowest rank's time (CSV `med_us`)%s.\n"
      % (", median over %d repetitions" % reps if reps > 1 else ""))

    # parameters
    if prm:
        w("## Model parameters\n")
        w("| run | o | o_acc | g | L | G (ns/B) | Gnode (ns/B) | Or adaptive | Or fixed |")
        w("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for j, pr in sorted(params, key=lambda t: t[0]["p"]):
            w("| p = %d | %.3f us | %.3f us | %.3f us | %.3f us | %.4f | %.4f | %s | %s |"
              % (j["p"], pr["o_us"], pr["o_acc_us"], pr["g_us"], pr["L_us"], pr["G_ns_per_byte"],
                 pr["Gnode_ns_per_byte"], fmt_us(pr["Or_adaptive_us"]), fmt_us(pr["Or_fixed_us"])))
        w("| **median (used)** | %.3f us | %.3f us | %.3f us | %.3f us | %.4f | %.4f | %s | %s |\n"
          % (prm["o_us"], prm["o_acc_us"], prm["g_us"], prm["L_us"], prm["G_ns_per_byte"],
             prm["Gnode_ns_per_byte"], fmt_us(prm["Or_adaptive_us"]), fmt_us(prm["Or_fixed_us"])))
        w("G = %.2f GB/s for one copy, Gnode = %.2f GB/s for the node (both cores copying).\n"
          % (1 / prm["G_ns_per_byte"], 1 / prm["Gnode_ns_per_byte"]))
        if prm["Gbusy"]:
            w("Gbusy, one rank copying 16 MiB while the others wait in onecoll, against Gquiet, "
              "the same copy while they sleep (medians per p; Gbusy / Gquiet is the PS model's "
              "processor-sharing factor):\n")
            w("| p | Gquiet (ns/B) | Gbusy adaptive | factor | Gbusy fixed | factor |")
            w("|---:|---:|---:|---:|---:|---:|")
            for P in sorted(set(k[1] for k in prm["Gbusy"])):
                gq = prm["Gbusy"].get(("quiet", P))
                cells = []
                for pol in ("adaptive", "fixed"):
                    gb = prm["Gbusy"].get((pol, P))
                    cells += ["%.4f" % gb if gb else "-",
                              "%.2f" % (gb / gq) if gb and gq else "-"]
                w("| %d | %s | %s |" % (P, "%.4f" % gq if gq else "-", " | ".join(cells)))
            w("")
        if prm["Gshare"]:
            w("Gshare(n), n copies at once (median over runs; the copy bandwidth of the node "
              "they share): " + ", ".join("n = %d: %.4f ns/B (%.1f GB/s)" % (n, v, 1 / v)
                                           for n, v in sorted(prm["Gshare"].items())) + ".\n")

    # latency tables
    w("## Latency (non-roots receive into their own buffer)\n")
    vs = [v for v in VARIANTS if any(k[2] == v for k in agg)]
    for P in plist:
        sizes = sorted(set(k[3] for k in agg if k[0] == "user" and k[1] == P))
        if not sizes:
            continue
        w("### p = %d\n" % P)
        w("| size | " + " | ".join(vs) + " |")
        w("|---:|" + "---:|" * len(vs))
        for s in sizes:
            cells = [fmt_us(agg[("user", P, v, s)]["lat"]) if ("user", P, v, s) in agg else "-"
                     for v in vs]
            w("| %s | %s |" % (fmt_bytes(s), " | ".join(cells)))
        w("")

    # ratios and per-hop
    w("## Binomial vs linear, adaptive polling: worst ratio over sizes\n")
    w("| p | lf/linear worst | at | sf/linear worst | at | lf/linear at the largest size | "
      "binomial-lf per hop, worst up to 64 KiB (adaptive / fixed) | "
      "lf-bc/linear-bc worst (only Broadcasters relay) | at |")
    w("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    verdict_ratio = {}
    verdict_hop = {}
    for P in plist:
        rl = ratios(agg, "user", P, "binomial-lf/adaptive", "linear/adaptive")
        rs = ratios(agg, "user", P, "binomial-sf/adaptive", "linear/adaptive")
        if not rl:
            continue
        wl = max(rl, key=lambda t: t[1])
        ws = max(rs, key=lambda t: t[1]) if rs else (0, float("nan"))
        hops = {}
        for pol in ("adaptive", "fixed"):
            v = "binomial-lf/" + pol
            hs = [agg[("user", P, v, s)]["lat"] / stages(P) for s in sizes_of(agg, "user", P, v)
                  if s <= SMALL_M and stages(P) > 0]
            hops[pol] = max(hs) if hs else float("nan")
        verdict_ratio[P] = wl[1]
        verdict_hop[P] = hops["adaptive"]
        rb = ratios(agg, "user", P, "binomial-lf/adaptive-bc", "linear/adaptive-bc")
        wb = max(rb, key=lambda t: t[1]) if rb else None
        w("| %d | %.2f | %s | %.2f | %s | %.2f | %s / %s | %s | %s |"
          % (P, wl[1], fmt_bytes(wl[0]), ws[1], fmt_bytes(ws[0]) if rs else "-", rl[-1][1],
             fmt_us(hops["adaptive"]), fmt_us(hops["fixed"]),
             "%.2f" % wb[1] if wb else "-", fmt_bytes(wb[0]) if wb else "-"))
    w("")

    # crossovers
    w("## Crossover points (smallest size from which the first beats the second at every larger size)\n")
    pairs = [("binomial-lf/adaptive", "linear/adaptive"), ("binomial-sf/adaptive", "linear/adaptive"),
             ("binomial-lf/fixed", "linear/fixed"), ("binomial-sf/fixed", "linear/fixed"),
             ("binomial-lf/adaptive", "mpi-bcast"), ("linear/adaptive", "mpi-bcast")]
    w("| p | " + " | ".join("%s vs %s" % pr for pr in pairs) + " |")
    w("|---:|" + "---|" * len(pairs))
    for P in plist:
        w("| %d | %s |" % (P, " | ".join(fmt_cross(crossover(agg, "user", P, a, b)) for a, b in pairs)))
    w("")
    if any(k[0] == "window" for k in agg):
        w("In-window pass (non-roots read the window in place, sizes >= 1 MiB):\n")
        pairs_w = [("binomial-lf/adaptive", "linear/adaptive"), ("binomial-sf/adaptive", "linear/adaptive"),
                   ("binomial-lf/adaptive", "mpi-bcast")]
        w("| p | " + " | ".join("%s vs %s" % pr for pr in pairs_w) + " |")
        w("|---:|" + "---|" * len(pairs_w))
        for P in plist:
            w("| %d | %s |" % (P, " | ".join(fmt_cross(crossover(agg, "window", P, a, b))
                                            for a, b in pairs_w)))
        w("")

    # model vs measurement
    model_err = {}
    ps_err = {}
    if prm:
        w("## Model vs measurement, m >= 1 MiB (error = model / measured - 1)\n")
        w("LogGP is the spec's model; PS is the same costs with the copies sharing the node "
          "(Gshare(n), see the top of plot.py).\n")
        for pss in ("window", "user"):
            if not any(k[0] == pss for k in agg):
                continue
            w("### %s\n" % ("in window (no copy-out, the spec's setting)" if pss == "window"
                            else "own buffers (a copy-out per receiver: in the PS model, not in LogGP)"))
            vs_m = ("linear/adaptive", "binomial-lf/adaptive", "binomial-sf/adaptive")
            w("| p | size | " + " | ".join("%s meas | LogGP | err | PS | err" % v.split("/")[0]
                                          for v in vs_m) + " | node bound |")
            w("|---:|---:|" + "---:|" * (5 * len(vs_m) + 1))
            for P in plist:
                for sz in sizes_of(agg, pss, P, "linear/adaptive"):
                    if sz < 1 << 20:
                        continue
                    row = [str(P), fmt_bytes(sz)]
                    for v in vs_m:
                        if (pss, P, v, sz) not in agg:
                            row += ["-"] * 5
                            continue
                        meas = agg[(pss, P, v, sz)]["lat"]
                        mdl = model(v, P, sz, prm)
                        psm = ps_model(v, P, sz, prm, pss == "user")
                        err, perr = mdl / meas - 1, psm / meas - 1
                        if sz >= LARGE_M:
                            model_err[(pss, P, v, sz)] = err
                            ps_err[(pss, P, v, sz)] = perr
                        row += [fmt_us(meas), fmt_us(mdl), fmt_pct(err), fmt_us(psm), fmt_pct(perr)]
                    row.append(fmt_us(node_bound(P, sz, prm)))
                    w("| " + " | ".join(row) + " |")
            w("")

    # verdicts
    w("## Targets\n")
    big = [P for P in plist if P >= 8]
    t1 = {}
    for pss in ("user", "window"):
        for P in plist:
            for s in sizes_of(agg, pss, P, "binomial-lf/adaptive"):
                if s >= LARGE_M and (pss, P, "linear/adaptive", s) in agg:
                    t1.setdefault((pss, P), []).append(
                        agg[(pss, P, "binomial-lf/adaptive", s)]["lat"]
                        < agg[(pss, P, "linear/adaptive", s)]["lat"])
    def holds(pss, P):
        return all(t1.get((pss, P), [False]))
    for pss in ("user", "window"):
        if any(k[0] == pss for k in t1):
            good = [P for P in plist if (pss, P) in t1 and holds(pss, P)]
            bad = [P for P in plist if (pss, P) in t1 and not holds(pss, P)]
            ok = bool(big) and all(holds(pss, P) for P in big if (pss, P) in t1)
            w("- **Binomial beats linear for large buffers (>= 16 MiB) from p = 8** (%s): %s. "
              "Holds at p = %s; fails at p = %s."
              % (pss, "HOLDS" if ok else "FAILS", ", ".join(map(str, good)) or "none",
                 ", ".join(map(str, bad)) or "none"))
    if verdict_ratio:
        bad = [P for P, r in verdict_ratio.items() if r > 1.5]
        w("- **Adaptive binomial within 1.5x of linear at every size**: %s. Worst ratio per p: %s."
          % ("HOLDS" if not bad else "FAILS at p = " + ", ".join(map(str, bad)),
             ", ".join("%d: %.2f" % (P, r) for P, r in sorted(verdict_ratio.items()))))
        badh = [P for P, h in verdict_hop.items() if not h < 1000]
        w("- **Never the 1 ms-per-hop floor (adaptive, sizes <= 64 KiB)**: %s. Worst per hop: %s."
          % ("HOLDS" if not badh else "FAILS at p = " + ", ".join(map(str, badh)),
             ", ".join("%d: %s" % (P, fmt_us(h)) for P, h in sorted(verdict_hop.items()))))
    for name, errs_all in (("LogGP (spec)", model_err), ("PS (LogGP + shared copies)", ps_err)):
        for pss in ("window", "user"):
            for v in ("linear/adaptive", "binomial-lf/adaptive", "binomial-sf/adaptive"):
                errs = {(P, s): e for (a, P, vv, s), e in errs_all.items() if a == pss and vv == v}
                if not errs:
                    continue
                bad = sorted(set(P for (P, s), e in errs.items() if abs(e) > 0.3))
                w("- **%s model within 30 %% for large m (>= 16 MiB), %s, %s**: %s. Errors: %s."
                  % (name, v.split("/")[0], pss,
                     "HOLDS" if not bad else "FAILS at p = " + ", ".join(map(str, bad)),
                     ", ".join("p=%d %s %s" % (P, short_bytes(s), fmt_pct(e))
                               for (P, s), e in sorted(errs.items()))))
    w("")

    # plots
    made = []
    for P in plist:
        if plot_latency(agg, P, os.path.join(outdir, "bcast-p%d.svg" % P)):
            made.append("bcast-p%d.svg" % P)
        if prm and plot_model(agg, prm, P, os.path.join(outdir, "bcast-model-p%d.svg" % P)):
            made.append("bcast-model-p%d.svg" % P)
    if plot_ratio(agg, plist, os.path.join(outdir, "bcast-ratio.svg")):
        made.append("bcast-ratio.svg")
    w("## Plots\n")
    w(", ".join("[%s](%s)" % (m, m) for m in made) + "\n")

    with open(os.path.join(outdir, "summary.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
