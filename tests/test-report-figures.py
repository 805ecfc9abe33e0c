#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The figures of the HTML report, read against the trace store.

On real traces - two third-party archives, a synthetic one with threads
(tests/otf2gen every-kind), a third-party one whose processes are given long
names in its store, and a 64-rank run of the import benchmark's generator -
the report's SVG figures are parsed and compared with what the store says:

* every top instance with an interval has a timeline whose rows are named as
  the store's location_label view names the instance's location and its
  peer (the heading too); a long name is wrapped or shortened with "…", its
  whole text in a <title>;
* every timeline has a time axis with at least two tick labels in s, ms or µs
  since the start of the run, increasing and inside the plotted window; read
  through its ticks, the axis puts the instance's interval (from the store)
  where the shaded lost band is;
* no <text> is under 10 px; the matrix's rank labels are 11 px or more;
* the communication matrix has one cell per pair of locations that exchanged
  messages, its tooltip naming sender and receiver by label with the store's
  message count and bytes; each rank label sits on its row or column;
* drawn by Chromium (when it is installed): no text leaves its figure or
  overlaps another, the row labels do not reach the bars, a region's name
  fits in its bar, and the computed font sizes obey the rules above.

Output is TAP.
"""

import html
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter

import sextant_sqlite  # noqa: F401  (the column tables: visit, message, pattern_instance)
from tap import finish, ok, skip

SEXTANT = os.environ.get("SEXTANT", "sextant")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
OTF2GEN = os.environ.get("SEXTANT_OTF2GEN", "")
BENCH_GEN = os.environ.get("SEXTANT_BENCH_GEN", "")
SVG = "{http://www.w3.org/2000/svg}"
TICK = re.compile(r"^(-?[0-9\u202f]+)(\.[0-9]+)? (s|ms|µs|ns)$")
UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}
CELL = re.compile(r"^(.*) → (.*): ([0-9]+) messages?, .*\(([0-9]+) bytes\)$")
LONG_NAME = "Node r12c3n07.cluster.example.org process %d of the CUDA job"
TOP_INSTANCES = 10


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def classed(root, tag, cls):
    return [e for e in root.iter(SVG + tag) if cls in (e.get("class") or "").split()]


def shown_text(text):
    """What a <text> shows: its <tspan> lines joined by spaces, or its text."""
    spans = list(text.iter(SVG + "tspan"))
    return " ".join(s.text or "" for s in spans) if spans else (text.text or "")


def shows(visible, whole):
    """Whether @visible is @whole, wrapped, or shortened with "…"."""
    visible, whole = " ".join(visible.split()), " ".join(whole.split())
    if visible == whole:
        return True
    if "…" not in visible:
        return False
    at = 0
    for part in visible.split("…"):
        part = part.strip()
        found = whole.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def tick_value(text):
    """(seconds, rounding) of a tick label such as "20 085 340 µs"."""
    m = TICK.match(text)
    if not m:
        return None
    digits = m.group(1).replace("\u202f", "") + (m.group(2) or "")
    unit = UNITS[m.group(3)]
    decimals = len(m.group(2)) - 1 if m.group(2) else 0
    return float(digits) * unit, 0.5 * 10 ** -decimals * unit


def font_sizes(svg, inherited=16.0):
    """(size, text element, class of its group) of every <text> in @svg."""
    out = []

    def walk(e, size, cls):
        size = float(e.get("font-size", size))
        cls = e.get("class") or cls
        if e.tag == SVG + "text":
            out.append((size, e, cls))
        for c in e:
            walk(c, size, cls)
    walk(svg, inherited, "")
    return out


def sections(page):
    """The report's instance chunks (one per <h3>) and its figures."""
    begin = page.index('<h2 id="instances">')
    end = page.index('<h2 id="profile">')
    chunks = page[begin:end].split("<h3>")[1:]
    svgs = [ET.fromstring(s) for s in re.findall(r"<svg.*?</svg>(?=</div>)", page, re.S)]
    return chunks, svgs


class Store:
    def __init__(self, path):
        con = sqlite3.connect(path)
        meta = dict(con.execute("SELECT key, value FROM meta"))
        self.resolution = int(meta["resolution"])
        self.time_begin = int(meta["time_begin"])
        self.label = dict(con.execute("SELECT loc, label FROM location_label"))
        self.top = con.execute('SELECT loc, peer_loc, begin, "end" FROM pattern_instance '
                               "ORDER BY severity DESC, id LIMIT ?", (TOP_INSTANCES,)).fetchall()
        self.pairs = con.execute("SELECT send_loc, recv_loc, count (*), coalesce (sum (bytes), 0) FROM message "
                                 "WHERE send_time IS NOT NULL AND recv_time IS NOT NULL GROUP BY 1, 2").fetchall()
        con.close()

    def since_start(self, ticks):
        return (ticks - self.time_begin) / self.resolution


def check_timeline(name, n, svg, store, loc, peer, begin, end, window):
    what = "%s: instance %d's timeline" % (name, n)
    rows = classed(svg, "g", "row-label")
    titles = [g.find(SVG + "title").text for g in rows]
    want = [store.label[loc]] + ([store.label[peer]] if peer is not None and peer != loc else [])
    ok(titles == want, "%s names its rows as the store labels its locations" % what, "%s != %s" % (titles, want))
    visible = [shown_text(g.find(SVG + "text")) for g in rows]
    ok(all(shows(v, t) for v, t in zip(visible, titles)), "%s shows the names, whole, wrapped or with …" % what,
       str(list(zip(visible, titles))))

    ticks = []
    for g in classed(svg, "g", "tick"):
        value = tick_value(g.find(SVG + "text").text)
        ticks.append((value, float(g.find(SVG + "line").get("x1")), g.find(SVG + "text").text))
    labels = [t[2] for t in ticks]
    ok(len(ticks) >= 2 and all(t[0] is not None for t in ticks), "%s has an axis with 2 or more tick labels in "
       "s/ms/µs" % what, str(labels))
    if len(ticks) < 2 or any(t[0] is None for t in ticks):
        return
    values = [t[0][0] for t in ticks]
    xs = [t[1] for t in ticks]
    lo, hi = window
    ok(all(a < b for a, b in zip(values, values[1:])) and all(a < b for a, b in zip(xs, xs[1:])),
       "%s: tick values increase left to right" % what, str(labels))
    ok(all(lo - r - 1e-12 <= v <= hi + r + 1e-12 for (v, r), _, _ in ticks),
       "%s: ticks lie in the plotted window %.9g..%.9g s" % (what, lo, hi), str(labels))

    # the axis, read through its first and last tick, puts the store's interval under the lost band
    (v0, _), x0, _ = ticks[0]
    (v1, _), x1, _ = ticks[-1]
    at = lambda s: x0 + (s - v0) * (x1 - x0) / (v1 - v0)  # noqa: E731
    band = classed(svg, "g", "lost")[0].find(SVG + "rect")
    b, e = store.since_start(begin), store.since_start(end)
    bx, bw = float(band.get("x")), float(band.get("width"))
    ok(abs(at(b) - bx) <= 1.0 and abs(at(e) - (bx + bw)) <= 1.0 + (1.0 if e == b else 0),
       "%s: the axis puts the lost interval where the band is" % what,
       "band %.1f..%.1f, axis %.1f..%.1f" % (bx, bx + bw, at(b), at(e)))


def check_matrix(name, svg, store):
    what = "%s: matrix" % name
    want = Counter((store.label[s], store.label[r], n, b) for s, r, n, b in store.pairs)
    got = Counter()
    rects = []
    for g in classed(svg, "g", "cell"):
        m = CELL.match(g.find(SVG + "title").text)
        if not m:
            got[("?", g.find(SVG + "title").text, 0, 0)] += 1
            continue
        got[(m.group(1), m.group(2), int(m.group(3)), int(m.group(4)))] += 1
        r = g.find(SVG + "rect")
        rects.append((m.group(1), m.group(2), float(r.get("x")) + float(r.get("width")) / 2,
                      float(r.get("y")) + float(r.get("height")) / 2))
    ok(got == want, "%s: a cell per pair, named by label, with the store's messages and bytes" % what,
       "extra %s\nmissing %s" % (list((got - want).items())[:5], list((want - got).items())[:5]))

    names = {store.label[s] for s, _, _, _ in store.pairs} | {store.label[r] for _, r, _, _ in store.pairs}
    unique = Counter(store.label[s] for s in {p[0] for p in store.pairs} | {p[1] for p in store.pairs})
    for kind, axis, end in (("row-label", 3, 0), ("col-label", 2, 1)):
        labels = classed(svg, "g", kind)
        titles = [g.find(SVG + "title").text for g in labels]
        texts = [g.find(SVG + "text") for g in labels]
        ok(len(labels) >= min(2, len(names)) and set(titles) <= names,
           "%s: %d %ss name locations that exchanged messages" % (what, len(labels), kind), str(titles[:5]))
        ok(all(shows(t.text, title) or t.text in title for t, title in zip(texts, titles)),
           "%s: each %s shows its location's name or the part that tells it apart" % (what, kind),
           str([(t.text, title) for t, title in zip(texts, titles)][:5]))
        # each label on its row (column): the cells of that sender (receiver) are centred on it
        place = "y" if axis == 3 else "x"
        off = [(title, float(t.get(place)), c[axis]) for title, t in zip(titles, texts) for c in rects
               if c[end] == title and unique[title] == 1 and abs(float(t.get(place)) - c[axis]) > 0.75]
        ok(not off, "%s: each %s sits on its %s" % (what, kind, "row" if axis == 3 else "column"), str(off[:5]))
        positions = sorted(float(t.get(place)) for t in texts)
        ok(all(b - a >= 12 for a, b in zip(positions, positions[1:])),
           "%s: %ss are 12 px apart or more" % (what, kind), str(positions[:10]))
        small = [(t.text, s) for s, t, _ in font_sizes(svg) if t in texts and s < 11]
        ok(not small, "%s: %ss are 11 px or more" % (what, kind), str(small[:5]))


def check_report(name, db, work):
    page_path = os.path.join(work, name + ".html")
    model_path = os.path.join(work, name + ".json")
    done, err = run([SEXTANT, "report", "-f", "html", "-o", page_path, db])
    ok(done, "%s: report -f html" % name, err)
    done, err = run([SEXTANT, "report", "-f", "json", "-o", model_path, db])
    if not done:
        ok(False, "%s: report -f json" % name, err)
        return None
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    with open(model_path, encoding="utf-8") as f:
        model = json.load(f)
    store = Store(db)
    chunks, svgs = sections(page)

    # the timelines, in the order of the store's worst instances
    ok(len(chunks) == len(store.top), "%s: %d top instances, as in the store" % (name, len(chunks)))
    for n, (chunk, (loc, peer, begin, end), inst) in enumerate(zip(chunks, store.top, model["instances"]), 1):
        heading = html.unescape(chunk[:chunk.index("</h3>")])
        ok(store.label[loc] in heading, "%s: instance %d's heading names %s" % (name, n, store.label[loc]), heading)
        found = re.search(r"<svg.*?</svg>(?=</div>)", chunk, re.S)
        if begin is None:
            ok(found is None, "%s: instance %d has no interval and no timeline" % (name, n))
            continue
        ok(found is not None, "%s: instance %d has a timeline" % (name, n))
        if found is not None:
            tl = inst["timeline"]
            window = (tl["begin_seconds"] - tl["origin_seconds"], tl["end_seconds"] - tl["origin_seconds"])
            check_timeline(name, n, ET.fromstring(found.group(0)), store, loc, peer, begin, end, window)

    small = [(shown_text(t), s) for svg in svgs for s, t, _ in font_sizes(svg) if s < 10]
    ok(not small, "%s: no text in the figures is under 10 px" % name, str(small[:5]))

    matrices = [s for s in svgs if s.get("class") == "matrix"]
    ok(len(matrices) == (1 if store.pairs else 0), "%s: a matrix where the trace has messages" % name)
    if matrices:
        check_matrix(name, matrices[0], store)
    return page_path


# Drawn by a browser --------------------------------------------------------------

MEASURE = """<script>
function box (e) { const r = e.getBoundingClientRect (); return [r.left, r.top, r.right, r.bottom]; }
const out = [];
for (const svg of document.querySelectorAll ('svg')) {
  if (svg.ownerSVGElement) continue;
  const texts = [];
  for (const t of svg.querySelectorAll ('text')) {
    const g = t.closest ('g');
    const rect = g && g.querySelector (':scope > rect');
    const clip = t.closest ('svg') !== svg ? box (t.closest ('svg')) : null;
    texts.push ({ cls: (g && g.getAttribute ('class')) || '', text: t.textContent, box: box (t),
                  size: parseFloat (getComputedStyle (t).fontSize), bar: rect && !g.getAttribute ('class') ? box (rect) : null,
                  clip: clip });
  }
  const axis = svg.querySelector ('g.axis > line'), ground = svg.querySelector ('rect.ground');
  out.push ({ cls: svg.getAttribute ('class'), box: box (svg), texts: texts,
              plot: axis ? box (axis)[0] : null, ground: ground ? box (ground) : null });
}
const pre = document.createElement ('pre'); pre.id = 'measure'; pre.textContent = JSON.stringify (out);
document.body.appendChild (pre);
</script>"""


def overlap(a, b, slack=0.5):
    return a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]


def check_drawn(name, page_path, browser, work):
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    probe = os.path.join(work, name + "-probe.html")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", MEASURE + "</body>"))
    r = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--user-data-dir=" + os.path.join(work, "chromium"), "--window-size=1400,1000",
                        "--dump-dom", "file://" + probe], capture_output=True, text=True, timeout=300)
    m = re.search(r'<pre id="measure">(.*?)</pre>', r.stdout, re.S)
    ok(m is not None, "%s: Chromium draws the report" % name, r.stderr[-2000:])
    if m is None:
        return
    figures = json.loads(html.unescape(m.group(1)))
    outside, overlaid, reach, cut, bars, small = [], [], [], [], [], []
    for fig in figures:
        texts = fig["texts"]
        for t in texts:
            b, s = t["box"], fig["box"]
            if b[0] < s[0] - 0.5 or b[1] < s[1] - 0.5 or b[2] > s[2] + 0.5 or b[3] > s[3] + 0.5:
                outside.append((fig["cls"], t["text"]))
            if t["cls"] == "row-label" and fig["plot"] is not None and b[2] > fig["plot"] - 2:
                reach.append((t["text"], b[2], fig["plot"]))
            if t["clip"] is not None and b[2] > t["clip"][2] + 0.5:
                cut.append((t["text"], b[2], t["clip"][2]))
            if t["bar"] is not None and (b[0] < t["bar"][0] - 0.5 or b[2] > t["bar"][2] + 0.5):
                bars.append((t["text"], b, t["bar"]))
            if t["size"] < (11 if fig["cls"] == "matrix" and t["cls"] in ("row-label", "col-label") else 10):
                small.append((t["text"], t["size"]))
            if fig["ground"] is not None and t["cls"] in ("row-label", "col-label") and overlap(b, fig["ground"]):
                reach.append((t["text"], b, fig["ground"]))
        for i, a in enumerate(texts):
            for c in texts[i + 1:]:
                if overlap(a["box"], c["box"]):
                    overlaid.append((fig["cls"], a["text"], c["text"]))
    ok(not outside, "%s: drawn, every text stays inside its figure" % name, str(outside[:5]))
    ok(not overlaid, "%s: drawn, no two texts overlap" % name, str(overlaid[:5]))
    ok(not reach, "%s: drawn, no rank or row label reaches the bars or cells" % name, str(reach[:5]))
    ok(not cut, "%s: drawn, no row label is cut off by its column" % name, str(cut[:5]))
    ok(not bars, "%s: drawn, a region's name stays in its bar" % name, str(bars[:5]))
    ok(not small, "%s: drawn, texts are 10 px or more, the matrix's labels 11" % name, str(small[:5]))


# The cases -----------------------------------------------------------------------

def imported(name, archive, work):
    db = os.path.join(work, name + ".db")
    done, err = run([SEXTANT, "import", "--quiet", "--force", "-o", db, archive])
    ok(done, "%s: import" % name, err)
    return db if done else None


def main():
    browser = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
    with tempfile.TemporaryDirectory() as work:
        cases = []
        for archive in ("casita-4_mpi_ls_barr", "sstmacro-otf2_test_traces"):
            cases.append((archive, imported(archive, os.path.join(TRACES, archive), work)))

        # threads beside ranks: "MPI Rank 1 / Master thread"
        if OTF2GEN and os.path.exists(OTF2GEN):
            out = os.path.join(work, "every-kind")
            done, err = run([OTF2GEN, "--force", "every-kind", out])
            ok(done, "otf2gen every-kind", err)
            cases.append(("every-kind", imported("every-kind", out, work) if done else None))
        else:
            skip("every-kind", "SEXTANT_OTF2GEN is not built")

        # processes with long names: a third-party trace's, renamed in its store
        db = imported("long-names", os.path.join(TRACES, "casita-2_cuda_simple"), work)
        if db is not None:
            con = sqlite3.connect(db)
            for gid, in con.execute("SELECT id FROM location_group").fetchall():
                con.execute("UPDATE location_group SET name = ? WHERE id = ?", (LONG_NAME % gid, gid))
            con.commit()
            con.close()
        cases.append(("long-names", db))

        # 64 ranks: the matrix labels every few
        if BENCH_GEN and os.path.exists(BENCH_GEN):
            out = os.path.join(work, "ranks-64")
            done, err = run([BENCH_GEN, "--ranks", "64", "--events", "200000", "--force", out])
            ok(done, "sextant-bench-gen --ranks 64", err)
            cases.append(("ranks-64", imported("ranks-64", out, work) if done else None))
        else:
            skip("ranks-64", "SEXTANT_BENCH_GEN is not built")

        for name, db in cases:
            if db is None:
                continue
            page = check_report(name, db, work)
            if page is None:
                continue
            if browser is None:
                skip("%s: drawn by Chromium" % name, "Chromium is not installed")
            else:
                check_drawn(name, page, browser, work)

        # a long name keeps what tells the rows apart
        if not os.path.exists(os.path.join(work, "long-names.html")):
            return finish()
        with open(os.path.join(work, "long-names.html"), encoding="utf-8") as f:
            svgs = sections(f.read())[1]
        shown = [shown_text(g.find(SVG + "text")) for s in svgs if s.get("class") == "timeline"
                 for g in classed(s, "g", "row-label")]
        ok(any("process 0" in v for v in shown) and any("process 1" in v for v in shown),
           "long-names: the row labels keep the process numbers", str(shown[:4]))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
