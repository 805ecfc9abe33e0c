#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/allreduce/plot.py - tables, targets and SVG plots (matplotlib, via
bench/sextant_plot.py) for the reduce/allreduce benchmark.

    python3 bench/allreduce/plot.py OUTDIR

Reads OUTDIR/results.csv, which bench/allreduce/run.sh fills: one row per
(repetition, P, size, algorithm),
  mode,P,bytes,algo,median_us,min_us,model_us,alpha,beta,gamma
where median_us is the median over the calls of the slowest rank's time and
model_us the alpha-beta-gamma model with the parameters that run measured.
With several repetitions every figure is the median of the repetitions'.
Writes into OUTDIR:
  summary.md                 parameters, the large-vector table, the targets'
                             verdicts (with the numbers that decide them),
                             the fastest algorithm per (P, size) against
                             AUTO's choice, the model's error
  MODE-pP.svg                latency vs size, every algorithm, with models
  MODE-ratio-prior-art.svg   S0/S1 / prior art vs size, one line per
                             non-power-of-two P
  MODE-ratio-rab.svg         S0/S1 / Open MPI's Rabenseifner vs size
  MODE-large.svg             latency vs P at the largest sizes
(MODE is allreduce or reduce.)

Targets (issue 18, point 6): for vectors of 1 MiB and up, S0/S1 faster than
the prior art at every non-power-of-two P, and within 1.2x of Open MPI's
Rabenseifner or faster.
"""

import collections
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sextant_plot import LogPlot, fmt_bytes, short_bytes  # noqa: E402  (bench/sextant_plot.py)

ALGOS = ["binomial", "rhrd", "prior-art", "s0s1", "auto", "mpi", "mpi-rab"]
STYLE = {
    "binomial": "#8c5fbf",
    "rhrd": "#17a8b8",
    "prior-art": "#e07b10",
    "s0s1": "#2a9a2a",
    "auto": "#a8a820",
    "mpi": "#222222",
    "mpi-rab": "#c0282d",
}
LABEL = {"s0s1": "S0/S1 (patented)", "prior-art": "prior art (MPICH)", "mpi": "Open MPI default",
         "mpi-rab": "Open MPI Rabenseifner", "rhrd": "RHRD", "binomial": "binomial",
         "auto": "auto"}
P_COLOURS = ["#1f6fb4", "#e07b10", "#2a9a2a", "#c0282d", "#8c5fbf", "#8c564b",
             "#d462b8", "#555555", "#a8a820", "#17a8b8", "#0a3d6b", "#7a4400"]
LARGE = 1 << 20
RAB_BOUND = 1.2


def fmt_us(us):
    if us is None:
        return "-"
    if us >= 1e4:
        return "%.1f ms" % (us / 1e3)
    if us >= 1e3:
        return "%.2f ms" % (us / 1e3)
    if us >= 10:
        return "%.0f us" % us
    return "%.1f us" % us


def pow2(p):
    return p & (p - 1) == 0


def load(path):
    """{(mode, P, bytes, algo): [median_us per repetition]}, {mode: params}."""
    lat = collections.defaultdict(list)
    model = {}
    params = collections.defaultdict(lambda: ([], [], []))
    with open(path) as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#"):
                continue
            mode, P, b, algo = row[0], int(row[1]), int(row[2]), row[3]
            lat[(mode, P, b, algo)].append(float(row[4]))
            if float(row[6]) > 0:
                model[(mode, P, b, algo)] = float(row[6])
            for i in range(3):
                v = float(row[7 + i])
                if v > 0:
                    params[mode][i].append(v)
    med = {k: statistics.median(v) for k, v in lat.items()}
    reps = {k: len(v) for k, v in lat.items()}
    # how far the repetitions lie apart: (largest - smallest) / median
    spread = {k: (max(v) - min(v)) / med[k] if med[k] else 0.0 for k, v in lat.items()}
    prm = {m: tuple(statistics.median(x) if x else 0.0 for x in v) for m, v in params.items()}
    return med, reps, spread, model, prm


def ratio_series(med, mode, P, num, den):
    sizes = sorted(b for (m, p, b, a) in med if m == mode and p == P and a == num)
    return [(b, med[(mode, P, b, num)] / med[(mode, P, b, den)])
            for b in sizes if (mode, P, b, den) in med and med[(mode, P, b, den)] > 0]


def plot_latency(med, model, mode, P, path):
    pl = LogPlot("N' = %d: %s latency (median over calls of the slowest rank); "
                 "dashed: the alpha-beta-gamma model" % (P, mode))
    for a in ALGOS:
        pts = sorted((b, v) for (m, p, b, al), v in med.items() if m == mode and p == P and al == a)
        if not pts:
            continue
        pl.series(pts, LABEL[a], STYLE[a])
        mp = sorted((b, v) for (m, p, b, al), v in model.items()
                    if m == mode and p == P and al == a and a in ("prior-art", "s0s1", "rhrd"))
        if mp:
            pl.series(mp, "model " + LABEL[a], STYLE[a], dash="2,3", markers=False, width=1.2)
    return pl.save(path, cols=3)


def plot_ratio(med, mode, plist, den, path, title, bound=None):
    pl = LogPlot(title, ylabel="ratio (below 1: S0/S1 faster)",
                 ytick=lambda e: "%g" % 10 ** e)
    pl.include(0.5, 2.0)
    pl.hline(1.0, colour="#444", dash="4,3")
    if bound:
        pl.hline(bound, colour="#c0282d", dash="4,3", label="%gx (target)" % bound)
    i = 0
    for P in plist:
        if pow2(P):
            continue
        r = ratio_series(med, mode, P, "s0s1", den)
        if r:
            pl.series(r, "N' = %d" % P, P_COLOURS[i % len(P_COLOURS)])
            i += 1
    return pl.save(path, cols=6)


def plot_large(med, mode, plist, path):
    """Latency against P at the largest measured size (x: P, drawn on the
    size axis's place by LogPlot's log2 scale, labelled as P)."""
    sizes = sorted({b for (m, p, b, a) in med if m == mode and b >= LARGE})
    if not sizes:
        return False
    b = sizes[-1]
    pl = LogPlot("%s of %s: latency against the number of processes N'" % (mode, fmt_bytes(b)),
                 xlabel="processes N'")
    for a in ("prior-art", "s0s1", "rhrd", "mpi", "mpi-rab"):
        pts = [(P, med[(mode, P, b, a)]) for P in plist if (mode, P, b, a) in med]
        pl.series(pts, LABEL[a], STYLE[a])
    return pl.save(path, cols=3)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: plot.py OUTDIR\n")
        return 2
    out = argv[1]
    med, reps, spread, model, prm = load(os.path.join(out, "results.csv"))
    lines = []
    w = lines.append
    w("# Reduce and allreduce: onecoll against Open MPI\n")
    made = []
    verdicts = []
    for mode in ("allreduce", "reduce"):
        keys = [k for k in med if k[0] == mode]
        if not keys:
            continue
        plist = sorted({k[1] for k in keys})
        sizes = sorted({k[2] for k in keys})
        nrep = max(reps[k] for k in keys)
        a, bt, g = prm.get(mode, (0, 0, 0))
        w("## %s\n" % mode)
        w("N' = %s; sizes %s .. %s; %d repetition(s), medians. Measured: alpha %.2f us, "
          "beta %.3g s/B (%.2f GB/s), gamma %.3g s/B (%.2f GB/s).\n"
          % (", ".join(map(str, plist)), fmt_bytes(sizes[0]), fmt_bytes(sizes[-1]), nrep,
             a * 1e6, bt, 1e-9 / bt if bt else 0, g, 1e-9 / g if g else 0))

        # Large vectors, the targets' table.
        w("### Vectors of 1 MiB and up\n")
        w("| N' | size | prior art | S0/S1 | Open MPI default | Open MPI Rabenseifner | "
          "S0/S1 / prior art | S0/S1 / Rabenseifner | model S0/S1 / prior art |")
        w("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        miss_prior, miss_rab, n_cases, n_noise = [], [], 0, 0
        for P in plist:
            for b in sizes:
                if b < LARGE or pow2(P):
                    continue
                g_ = lambda al: med.get((mode, P, b, al))  # noqa: E731
                pa, ss, mp, rb = g_("prior-art"), g_("s0s1"), g_("mpi"), g_("mpi-rab")
                if pa is None or ss is None:
                    continue
                n_cases += 1
                r_pa = ss / pa
                r_rb = ss / rb if rb else None
                m_pa, m_ss = model.get((mode, P, b, "prior-art")), model.get((mode, P, b, "s0s1"))
                w("| %d | %s | %s | %s | %s | %s | %.2f | %s | %s |"
                  % (P, fmt_bytes(b), fmt_us(pa), fmt_us(ss), fmt_us(mp), fmt_us(rb), r_pa,
                     "%.2f" % r_rb if r_rb else "-",
                     "%.2f" % (m_ss / m_pa) if m_pa and m_ss else "-"))
                if r_pa >= 1.0:
                    # why: the two algorithms' repetitions lie further apart than the miss
                    sp = max(spread[(mode, P, b, "prior-art")], spread[(mode, P, b, "s0s1")])
                    n_noise += r_pa - 1.0 < sp
                    miss_prior.append("N'=%d %s: %.2f (repetitions %.0f %% apart)"
                                      % (P, short_bytes(b), r_pa, 100 * sp))
                if r_rb is not None and r_rb > RAB_BOUND:
                    miss_rab.append("N'=%d %s: %.2f" % (P, short_bytes(b), r_rb))
        w("")
        verdicts.append("- **%s, S0/S1 faster than the prior art at 1 MiB and up, every "
                        "non-power-of-two N'**: %s (%d cases)%s"
                        % (mode, "HOLDS" if not miss_prior else "FAILS in %d" % len(miss_prior),
                           n_cases, ": " + ", ".join(miss_prior) if miss_prior else "."))
        if miss_prior:
            spreads = sorted(max(spread[(mode, P, b, "prior-art")], spread[(mode, P, b, "s0s1")])
                             for (m, P, b, al) in med if m == mode and al == "s0s1"
                             and b >= LARGE and not pow2(P) and (mode, P, b, "prior-art") in med)
            verdicts.append("  %d of the %d misses are smaller than the spread of their repetitions "
                            "(largest - smallest over the median, the larger of the two algorithms'), "
                            "which is %.0f %% at the median over all %d cases: this run cannot tell "
                            "them from S0/S1 being faster."
                            % (n_noise, len(miss_prior), 100 * statistics.median(spreads), n_cases))
        verdicts.append("- **%s, S0/S1 within %.1fx of Open MPI's Rabenseifner or faster**: %s%s"
                        % (mode, RAB_BOUND, "HOLDS" if not miss_rab else
                           "FAILS in %d of %d" % (len(miss_rab), n_cases),
                           ": " + ", ".join(miss_rab) if miss_rab else "."))

        # The fastest onecoll algorithm per (P, size) against AUTO's choice.
        w("### Fastest onecoll algorithm per N' and size (AUTO's time beside it)\n")
        w("| N' | " + " | ".join(fmt_bytes(b) for b in sizes) + " |")
        w("|---:|" + "---|" * len(sizes))
        for P in plist:
            cells = []
            for b in sizes:
                cand = [(med[(mode, P, b, al)], al) for al in ("binomial", "rhrd", "prior-art",
                                                                "s0s1")
                        if (mode, P, b, al) in med]
                if not cand:
                    cells.append("-")
                    continue
                best = min(cand)
                auto = med.get((mode, P, b, "auto"))
                cells.append("%s (auto %s)" % (best[1], "%.2fx" % (auto / best[0])
                                               if auto else "-"))
            w("| %d | %s |" % (P, " | ".join(cells)))
        w("")

        # The model's error.
        w("### Model against measurement (onecoll algorithms, median of |model/measured - 1|)\n")
        w("| algorithm | below 1 MiB | 1 MiB and up |")
        w("|---|---:|---:|")
        for al in ("binomial", "rhrd", "prior-art", "s0s1"):
            errs = [[], []]
            for (m, P, b, a2), v in med.items():
                if m == mode and a2 == al and (m, P, b, a2) in model:
                    errs[b >= LARGE].append(abs(model[(m, P, b, a2)] / v - 1))
            w("| %s | %s | %s |" % (al, "%.0f %%" % (100 * statistics.median(errs[0]))
                                     if errs[0] else "-",
                                     "%.0f %%" % (100 * statistics.median(errs[1]))
                                     if errs[1] else "-"))
        w("\nThe model assumes a core per rank; with more ranks than the 2 cores it is a lower "
          "bound, not a prediction.\n")

        for P in plist:
            name = "%s-p%d.svg" % (mode, P)
            if plot_latency(med, model, mode, P, os.path.join(out, name)):
                made.append(name)
        for den, bound, title in (("prior-art", None,
                                   "S0/S1 / prior art (below 1: the patented scheme is faster)"),
                                  ("mpi-rab", RAB_BOUND,
                                   "S0/S1 / Open MPI's Rabenseifner")):
            name = "%s-ratio-%s.svg" % (mode, den)
            if plot_ratio(med, mode, plist, den, os.path.join(out, name),
                          "%s: %s" % (mode, title), bound):
                made.append(name)
        name = "%s-large.svg" % mode
        if plot_large(med, mode, plist, os.path.join(out, name)):
            made.append(name)

    w("## Targets\n")
    lines.extend(verdicts)
    w("\n## Plots\n")
    w(", ".join("[%s](%s)" % (m, m) for m in made))
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
