# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/sextant_plot.py - the benchmarks' plots: latency (or a ratio)
against message size, drawn with matplotlib (Debian python3-matplotlib) into
SVG files for docs/.

One shape serves every collective benchmark (bench/bcast/plot.py,
bench/allreduce/plot.py): a log2 size axis labelled 1K, 64K, 1M, ...; a log10
value axis labelled in us/ms/s (or plain numbers for ratios); series of
measured points (filled markers and a line, or hollow markers alone) and
model curves (dashed lines without markers); horizontal reference lines;
the legend below the axes in columns.

    from sextant_plot import LogPlot, short_bytes, tick_us
    pl = LogPlot("p = 8: latency", ylabel="latency")
    pl.series([(8, 1.5), (1024, 3.2)], "binomial", "#1f6fb4")
    pl.series(model_pts, "model", "#1f6fb4", dash="2,3", markers=False)
    pl.hline(1.0, label="1x")
    pl.save("out.svg", cols=3)

Dashes are SVG-style strings ("6,4": 6 on, 4 off, in points).
"""

import math
import textwrap

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter  # noqa: E402

matplotlib.rcParams.update({
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "svg.fonttype": "none",        # text stays text: smaller files, greppable
    "svg.hashsalt": "sextant",     # stable ids: regenerated plots diff cleanly
})


def fmt_bytes(b):
    """1024 -> "1 KiB", 3 << 20 -> "3 MiB", 100 -> "100 B"."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= size and b % size == 0:
            return "%d %s" % (b // size, unit)
    return "%d B" % b


def short_bytes(b):
    """1024 -> "1K", 3 << 20 -> "3M", 100 -> "100"."""
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if b >= size and b % size == 0:
            return "%d%s" % (b // size, unit)
    return "%d" % b


def tick_us(e):
    """Label of the tick 10**e microseconds."""
    for unit, scale in (("s", 6), ("ms", 3), ("us", 0), ("ns", -3)):
        if e >= scale:
            return "%d %s" % (10 ** (e - scale), unit)
    return "1e%d us" % e


def _dashes(dash):
    if not dash:
        return "-"
    return (0, tuple(float(x) for x in dash.split(",")))


class LogPlot:
    """A plot of values against message size (bytes, log2 axis).

    The value axis is log10 (ticks labelled by @ytick(exponent), microseconds
    by default) or, with @ylog False, linear. Axis limits follow the data."""

    def __init__(self, title, ylabel="latency", ylog=True, ytick=tick_us,
                 xlabel="message size (bytes)", width=7.6, height=4.8):
        self.fig, self.ax = plt.subplots(figsize=(width, height))
        self.ax.set_title(textwrap.fill(title, 72))
        self.ax.set_xlabel(xlabel)
        self.ax.set_ylabel(ylabel)
        self.ylog, self.ytick = ylog, ytick
        self.xs, self.ys = [], []

    def series(self, pts, label, colour, dash=None, markers=True, hollow=False, width=1.6):
        """Adds points (size, value); values None or <= 0 are left out."""
        pts = [(b, v) for b, v in pts if v is not None and v > 0]
        if not pts:
            return
        xs, ys = zip(*pts)
        self.xs += xs
        self.ys += ys
        kw = dict(color=colour, label=label)
        if hollow:
            self.ax.plot(xs, ys, linestyle="none", marker="o", markersize=6,
                         markerfacecolor="white", markeredgewidth=1.2, **kw)
        else:
            self.ax.plot(xs, ys, linestyle=_dashes(dash), linewidth=width,
                         marker="o" if markers else None, markersize=4, **kw)

    def include(self, *values):
        """Makes the value axis reach @values even where no series does."""
        self.ys += values

    def hline(self, v, colour="#c0282d", dash="3,3", label=None):
        """A horizontal reference line, labelled at its right end."""
        self.ax.axhline(v, color=colour, linestyle=_dashes(dash), linewidth=1.2)
        self.ys.append(v)
        if label:
            self.ax.annotate(label, xy=(1, v), xycoords=("axes fraction", "data"),
                             xytext=(-4, 3), textcoords="offset points",
                             ha="right", va="bottom", color=colour, fontsize=8)

    def _axes(self):
        ax = self.ax
        ax.set_xscale("log", base=2)
        lo, hi = min(self.xs), max(self.xs)
        e0, e1 = math.floor(math.log2(max(lo, 1))), math.ceil(math.log2(max(hi, 2)))
        step = 1 if e1 - e0 <= 8 else 2
        ticks = [2 ** e for e in range(e0, e1 + 1, step) if lo <= 2 ** e <= hi]
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda b, _: short_bytes(int(round(b)))))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlim(lo / 2 ** 0.25, hi * 2 ** 0.25)
        if self.ylog:
            ax.set_yscale("log")
            ymin, ymax = min(self.ys), max(self.ys)
            emin, emax = math.floor(math.log10(ymin)), math.ceil(math.log10(ymax))
            if emax == emin:
                emax += 1
            ax.set_ylim(10 ** emin, 10 ** emax)
            ax.yaxis.set_major_locator(LogLocator(base=10, numticks=20))
            ax.yaxis.set_major_formatter(
                FuncFormatter(lambda v, _: self.ytick(int(round(math.log10(v))))))
            ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(True, which="major", color="#d8d8d8", linewidth=0.8)
        ax.set_axisbelow(True)

    def save(self, path, cols=3):
        """Writes the plot as SVG, the legend below the axes in @cols columns."""
        if not self.xs:
            plt.close(self.fig)
            return False
        self._axes()
        handles, labels = self.ax.get_legend_handles_labels()
        if handles:
            self.fig.legend(handles, labels, loc="lower center", ncol=cols, frameon=False,
                            fontsize=8)
            rows = (len(handles) + cols - 1) // cols
            self.fig.tight_layout(rect=(0, 0.035 * rows + 0.02, 1, 1))
        else:
            self.fig.tight_layout()
        self.fig.savefig(path, format="svg", metadata={"Date": None})
        plt.close(self.fig)
        return True
