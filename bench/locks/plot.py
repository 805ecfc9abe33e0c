#!/usr/bin/python3
"""bench/locks/plot.py RESULTS OUTDIR: the SVG plots of the lock benchmark.

Reads the "sum" lines of sextant-bench-locks (mode, scheme, N, mean, sd,
relative error) and draws, with matplotlib (Debian's python3-matplotlib,
so run it with /usr/bin/python3), one plot per mode with the five schemes
side by side, the standard deviation as error bars:

  locks-read.svg       read-only throughput (all clients) vs N
  locks-write.svg      write-only throughput vs N
  locks-conc-read.svg  concurrent mode: the clients' read throughput vs N
  locks-conc-wlock.svg concurrent mode: the writer's lock overhead vs N
  locks-ratio.svg      2N-mutex / scheme: write-lock overhead (concurrent)
                       and write-only time per lock, vs N
"""
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCHEMES = ["pthread-rwlock", "1n-mutex", "2n-mutex", "n-mutex-signal", "n-mcs"]
STYLE = {
    "pthread-rwlock": ("#7f7f7f", "s", ":"),
    "1n-mutex": ("#9467bd", "v", "--"),
    "2n-mutex": ("#d62728", "o", "-"),
    "n-mutex-signal": ("#1f77b4", "^", "-"),
    "n-mcs": ("#2ca02c", "D", "-"),
}


def load(path):
    data = defaultdict(dict)   # (mode, scheme) -> N -> (mean, sd)
    for line in open(path):
        f = line.split()
        if not f or f[0] != "sum":
            continue
        mode, scheme, n = f[1], f[2], int(f[3])
        data[(mode, scheme)][n] = (float(f[5]), float(f[7]))
    return data


def plot(data, mode, title, ylabel, scale, out, log=False):
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for s in SCHEMES:
        pts = sorted(data.get((mode, s), {}).items())
        if not pts:
            continue
        colour, marker, dash = STYLE[s]
        ax.errorbar([n for n, _ in pts], [m * scale for _, (m, _) in pts],
                    yerr=[sd * scale for _, (_, sd) in pts], label=s, color=colour,
                    marker=marker, linestyle=dash, markersize=4, capsize=2, linewidth=1.2)
    finish(fig, ax, title, ylabel, out, log)


def finish(fig, ax, title, ylabel, out, log):
    ax.set_title(title)
    ax.set_xlabel("N (client processes)")
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def ratio(data, out):
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for s in ["n-mutex-signal", "n-mcs"]:
        colour, marker, _ = STYLE[s]
        for mode, dash, what in [("conc-wo", "-", "concurrent write-lock overhead"),
                                 ("write", "--", "write-only time per lock")]:
            base = data.get((mode, "2n-mutex"), {})
            mine = data.get((mode, s), {})
            ns = sorted(set(base) & set(mine))
            if mode == "conc-wo":
                ys = [base[n][0] / mine[n][0] if mine[n][0] else 0 for n in ns]
            else:   # throughputs: time per lock is the inverse
                ys = [mine[n][0] / base[n][0] if base[n][0] else 0 for n in ns]
            ax.plot(ns, ys, color=colour, marker=marker, linestyle=dash, markersize=4,
                    label="%s: %s" % (s, what))
    ax.axhline(1.0, color="#000", linewidth=0.8)
    finish(fig, ax, "2N-mutex / scheme (> 1: the scheme is faster)", "ratio", out, True)


def main():
    data = load(sys.argv[1])
    out = sys.argv[2]
    plot(data, "read", "Read-only: lock acquisitions per second, all clients",
         "million acquisitions / s", 1e-6, out + "/locks-read.svg", log=True)
    plot(data, "write", "Write-only: write locks per second",
         "million write locks / s", 1e-6, out + "/locks-write.svg", log=True)
    plot(data, "conc-rd", "Concurrent: the clients' read throughput",
         "million acquisitions / s", 1e-6, out + "/locks-conc-read.svg", log=True)
    plot(data, "conc-wo", "Concurrent: writer's lock overhead (wrlock until all held)",
         "microseconds per write lock (mean of 100)", 1.0, out + "/locks-conc-wlock.svg", log=True)
    ratio(data, out + "/locks-ratio.svg")


if __name__ == "__main__":
    main()
