#!/usr/bin/python3
"""bench/locks/plot.py RESULTS... OUTDIR: the SVG plots of the lock benchmark.

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

and prints on stdout the Markdown tables docs/benchmarks.md quotes: per
mode, mean +- sd (relative error) per scheme and N, and the ratios of the
two proposed schemes to 2N-mutex.
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


def load(paths):
    data = defaultdict(dict)   # (mode, scheme) -> N -> (mean, sd, relative error)
    for line in (line for path in paths for line in open(path)):
        f = line.split()
        if not f or f[0] != "sum":
            continue
        mode, scheme, n = f[1], f[2], int(f[3])
        data[(mode, scheme)][n] = (float(f[5]), float(f[7]), float(f[9]))
    return data


TABLES = [("read", "Read-only (M acq/s", 1e-6), ("write", "Write-only (M wrlock/s", 1e-6),
          ("conc-rd", "Concurrent, clients' reads (M acq/s", 1e-6),
          ("conc-wo", "Concurrent, writer's lock overhead per write (us", 1.0)]


def tables(data):
    ns = sorted({n for series in data.values() for n in series})
    head = "| scheme | " + " | ".join("N = %d" % n for n in ns) + " |"
    rule = "|---|" + "---|" * len(ns)
    for mode, title, scale in TABLES:
        print("%s; mean \u00b1 sd, relative error)\n\n%s\n%s" % (title, head, rule))
        for s in SCHEMES:
            cells = []
            for n in ns:
                m = data.get((mode, s), {}).get(n)
                cells.append("%.3g \u00b1 %.2g (%.0f %%)" % (m[0] * scale, m[1] * scale, m[2] * 100) if m else "")
            print("| %s | %s |" % (s, " | ".join(cells)))
        print()
    print("Ratios to 2N-mutex (> 1: the proposed scheme is better)\n\n" + head + "\n" + rule)
    for s in ["n-mutex-signal", "n-mcs"]:
        for mode, what, inverse in [("conc-wo", "conc. wrlock overhead 2N/scheme", True),
                                    ("write", "write-only throughput scheme/2N", False),
                                    ("read", "read-only throughput scheme/2N", False),
                                    ("conc-rd", "concurrent reads scheme/2N", False)]:
            base, mine = data.get((mode, "2n-mutex"), {}), data.get((mode, s), {})
            cells = []
            for n in ns:
                if n in base and n in mine and base[n][0] and mine[n][0]:
                    cells.append("%.2f" % (base[n][0] / mine[n][0] if inverse else mine[n][0] / base[n][0]))
                else:
                    cells.append("")
            print("| %s: %s | %s |" % (s, what, " | ".join(cells)))


def plot(data, mode, title, ylabel, scale, out, log=False):
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for s in SCHEMES:
        pts = sorted(data.get((mode, s), {}).items())
        if not pts:
            continue
        colour, marker, dash = STYLE[s]
        ax.errorbar([n for n, _ in pts], [m[0] * scale for _, m in pts],
                    yerr=[m[1] * scale for _, m in pts], label=s, color=colour,
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
    data = load(sys.argv[1:-1])
    out = sys.argv[-1]
    plot(data, "read", "Read-only: lock acquisitions per second, all clients",
         "million acquisitions / s", 1e-6, out + "/locks-read.svg", log=True)
    plot(data, "write", "Write-only: write locks per second",
         "million write locks / s", 1e-6, out + "/locks-write.svg", log=True)
    plot(data, "conc-rd", "Concurrent: the clients' read throughput",
         "million acquisitions / s", 1e-6, out + "/locks-conc-read.svg", log=True)
    plot(data, "conc-wo", "Concurrent: writer's lock overhead (wrlock until all held)",
         "microseconds per write lock (mean of 100)", 1.0, out + "/locks-conc-wlock.svg", log=True)
    ratio(data, out + "/locks-ratio.svg")
    tables(data)


if __name__ == "__main__":
    main()
