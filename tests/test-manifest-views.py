#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A parallel import's manifest read as one trace shows what the
single-process store of the same archive shows (docs/parallel.md).

For every external archive that tests/test-external-traces.py checks (on 1
to 4 ranks in turn), the import benchmark's stencil and otf2gen's
every-kind, `sextant-mpi import` on real Open MPI ranks and `sextant import`
of the same archive; then on the manifest and on the store:

  * `sextant info`: every count (event records by kind, per location,
    visits, messages, collectives, RMA operations, the span, the warnings);
  * `sextant info --collectives`: the same listing, ids included (a
    collective's id is canonical: the same in a shard as in the store);
  * `sextant matrix`: the same communication matrix;
  * `sextant tree --collective`: the same tree for the first, middle and
    last collective, by the same id;
  * after `sextant analyze` of both: `sextant analyze --json --instances 0`
    of the manifest, whose instances are the `pattern_instance` view read
    through the manifest (the shards hold them), lists the single store's
    instances (id, pattern, severity, locations, interval, call path, call
    site, cause, cause instance, root location, comment); `sextant tree
    --instance` of the first three wait states with a cause; `sextant
    report -f md` of the manifest is the store's;
  * the window (stencil and one external archive), both analysed: the
    timeline exported as PNG with its lost-time layer, whole and zoomed in
    past the level of detail, the window's pattern browser, timeline and
    matrix page in a screenshot, and the window with the worst instance
    chosen (--show-worst: the timeline goes to it), the same pixels (the
    window shows the analysis `sextant analyze` left; tests/
    test-window-manifest.c has the window analyse a manifest itself).

Output is TAP.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import zlib

from sextant_traces import anchor, external_archives
from tap import finish, ok

SEXTANT = os.environ.get("SEXTANT", "sextant")
SEXTANT_MPI = os.environ.get("SEXTANT_MPI", "sextant-mpi")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
BENCH_GEN = os.environ.get("SEXTANT_BENCH_GEN", "sextant-bench-gen")
OTF2GEN = os.environ.get("SEXTANT_OTF2GEN", "sextant-otf2gen")
MPIRUN = ["timeout", "300", "mpirun", "--oversubscribe", "--allow-run-as-root", "--mca", "osc", "sm"]
XVFB = ["timeout", "300", "xvfb-run", "-a", "-s", "-screen 0 1920x1200x24"]

# what identifies an instance across stores in analyze --json (which lists
# no message or collective ids: tests/test-parallel-analyze.py compares
# those in the shards)
INSTANCE_KEYS = ("id", "pattern", "severity_seconds", "location", "peer", "begin_seconds", "end_seconds", "call",
                 "callpath", "file", "line", "kind", "function", "cause", "cause_instance", "root_cause_location",
                 "comment")


def run(*args):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True)


def same(name, a, b, path_a, path_b):
    """The outputs @a (of @path_a) and @b (of @path_b) are the same but for
    the file's name."""
    a = a.replace(path_a, "DB").replace(os.path.basename(path_a), "DB")
    b = b.replace(path_b, "DB").replace(os.path.basename(path_b), "DB")
    detail = ""
    if a != b:
        la, lb = a.splitlines(), b.splitlines()
        for i in range(max(len(la), len(lb))):
            x = la[i] if i < len(la) else "(none)"
            y = lb[i] if i < len(lb) else "(none)"
            if x != y:
                detail = "line %d:\n  store:    %s\n  manifest: %s" % (i + 1, x, y)
                break
    ok(a == b, name, detail)


def collectives(listing):
    """id -> the rest of its line, from `sextant info --collectives`"""
    found = {}
    for line in listing.splitlines():
        m = re.match(r"^  (\d+)\s+(\S.*)$", line)
        if m:
            found[int(m.group(1))] = m.group(2)
    return found


def compare_cli(name, single, manifest):
    # the matrix's JSON has every pair's time in the receives too; a range
    # reads its messages with another query
    for args in (["info"], ["matrix"], ["matrix", "--json", "--range", "0.000001:"]):
        a = run(SEXTANT, *args, single)
        b = run(SEXTANT, *args, manifest)
        ok(a.returncode == 0 and b.returncode == 0, "%s: sextant %s on both" % (name, " ".join(args)), a.stderr + b.stderr)
        same("%s: sextant %s, manifest as store" % (name, " ".join(args)), a.stdout, b.stdout, single, manifest)

    a = run(SEXTANT, "info", "--collectives", single)
    b = run(SEXTANT, "info", "--collectives", manifest)
    ca, cb = collectives(a.stdout), collectives(b.stdout)
    ok(b.returncode == 0 and ca == cb, "%s: the same %d collectives, ids included" % (name, len(ca)),
       b.stderr or "store only: %r\nmanifest only: %r" % (sorted(set(ca.items()) - set(cb.items()))[:3],
                                                        sorted(set(cb.items()) - set(ca.items()))[:3]))
    if not ca or ca != cb:
        return
    # the same tree for the first, middle and last collective, by their ids
    ids = sorted(ca)
    for cid in sorted({ids[0], ids[len(ids) // 2], ids[-1]}):
        ta = run(SEXTANT, "tree", single, "--collective", cid)
        tb = run(SEXTANT, "tree", manifest, "--collective", cid)
        ok(ta.returncode == tb.returncode, "%s: tree of collective %d: the same exit" % (name, cid), tb.stderr)
        same("%s: tree of collective %d" % (name, cid), ta.stdout, tb.stdout, single, manifest)


def png_pixels(path):
    """(width, height, rows of RGBA or RGB bytes) of an 8-bit non-interlaced PNG"""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        size = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            channels = {6: 4, 2: 3}[body[9]]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + size
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def rgb_in(rows, channels, box):
    """The pixels of @rows (RGB or RGBA) in @box (x0, y0, x1, y1) as RGB
    rows; None if one there is not opaque"""
    x0, y0, x1, y1 = box
    out = []
    for row in rows[y0:y1]:
        part = row[x0 * channels:x1 * channels]
        if channels == 4:
            if any(v != 255 for v in part[3::4]):
                return None
            part = bytes(v for i, v in enumerate(part) if i % 4 != 3)
        out.append(bytes(part))
    return out


def same_pixels(name, a, b, box=None):
    """The PNGs @a and @b have the same pixels (in @box: x0, y0, x1, y1)"""
    try:
        wa, ha, ca, ra = png_pixels(a)
        wb, hb, cb, rb = png_pixels(b)
    except (OSError, KeyError, zlib.error) as e:
        ok(False, name, str(e))
        return
    if (wa, ha) != (wb, hb):
        ok(False, name, "%dx%d against %dx%d" % (wa, ha, wb, hb))
        return
    x0, y0, x1, y1 = box or (0, 0, wa, ha)
    if ca != cb:
        # one PNG with an alpha channel (the window's transparent corners),
        # the other without: the colours in the box, where both are opaque
        ra, rb = rgb_in(ra, ca, (x0, y0, x1, y1)), rgb_in(rb, cb, (x0, y0, x1, y1))
        if ra is None or rb is None:
            ok(False, name, "a picture is not opaque in the box compared")
            return
        ca = cb = 3
        x0, y0, x1, y1 = 0, 0, x1 - x0, y1 - y0
    differ = [y for y in range(y0, y1) if ra[y][x0 * ca:x1 * ca] != rb[y][x0 * cb:x1 * cb]]
    ok(not differ, name, "%d rows differ, the first %s" % (len(differ), differ[:1]))


def analyzed_instances(db):
    """`sextant analyze --json --instances 0` of @db: (its instances as
    tuples of INSTANCE_KEYS by pattern, stderr), or (None, stderr)"""
    r = run(SEXTANT, "analyze", "--json", "--instances", "0", "--no-user-patterns", db)
    if r.returncode != 0:
        return None, r.stderr
    doc = json.loads(r.stdout)
    found = {}
    for i in doc["instances"]:
        found.setdefault(i["pattern"], []).append(tuple(i.get(k) for k in INSTANCE_KEYS))
    return {p: sorted(rows, key=repr) for p, rows in found.items()}, r.stderr


def compare_analysis(name, single, manifest):
    """Both analysed; the manifest's instances (the pattern_instance view
    read through it) are the store's."""
    want, err = analyzed_instances(single)
    ok(want is not None, "%s: sextant analyze of the store" % name, err)
    got, err = analyzed_instances(manifest)
    ok(got is not None, "%s: sextant analyze of the manifest" % name, err)
    if want is None or got is None:
        return
    g = [r for p in sorted(got) for r in got[p]]
    w = [r for p in sorted(want) for r in want[p]]
    differ = [(a, b) for a, b in zip(g, w) if a != b]
    ok(g == w, "%s: the manifest's %d pattern instances read through it are the store's" % (name, len(w)),
       "%d instances, want %d; first difference %r" % (len(g), len(w), differ[:1]))
    # the delay chain of the first wait states with a cause
    waits = sorted(r[0] for r in w if r[INSTANCE_KEYS.index("cause")] is not None)[:3]
    for i in waits:
        a = run(SEXTANT, "tree", single, "--instance", i)
        b = run(SEXTANT, "tree", manifest, "--instance", i)
        ok(a.returncode == 0 and b.returncode == 0, "%s: tree --instance %d of both" % (name, i), a.stderr + b.stderr)
        same("%s: tree --instance %d of the manifest is the store's" % (name, i), a.stdout, b.stdout, single, manifest)
    a = run(SEXTANT, "report", single, "-f", "md", "-o", "-")
    b = run(SEXTANT, "report", manifest, "-f", "md", "-o", "-")
    ok(a.returncode == 0 and b.returncode == 0, "%s: sextant report of both" % name, a.stderr + b.stderr)
    same("%s: sextant report of the manifest is the store's" % name, a.stdout, b.stdout, single, manifest)


def compare_window(name, single, manifest, work, seconds):
    """The window on the manifest and on the store, both analysed"""
    tag = os.path.join(work, name)
    views = [("whole run", []), ("zoomed in", ["--view", "%.9f:%.9f" % (seconds * 0.4, seconds * 0.4 + seconds / 2000)])]
    for what, view in views:
        pngs = []
        for db, which in ((single, "store"), (manifest, "manifest")):
            png = "%s-%s-%d.png" % (tag, which, len(pngs))
            r = run(*XVFB, SEXTANT, "--size", "1200x700", *view, "--export", png, db)
            ok(r.returncode == 0 and os.path.exists(png), "%s: the timeline of the %s exported (%s)" % (name, which, what),
               r.stderr)
            pngs.append(png)
        same_pixels("%s: the %s's timeline is the store's, pixel for pixel (%s)" % (name, "manifest", what), *pngs)

    # the window: the pattern browser, the timeline and the matrix page
    # (below the header, which names the file)
    shots = []
    for db, which in ((single, "store"), (manifest, "manifest")):
        png = "%s-%s-window.png" % (tag, which)
        r = run(*XVFB, SEXTANT, "open", db, "--size", "1400x900", "--page", "matrix", "--screenshot", png)
        ok(r.returncode == 0 and os.path.exists(png), "%s: a screenshot of the window on the %s" % (name, which),
           r.stderr)
        shots.append(png)
    try:
        width, height, _, _ = png_pixels(shots[0])
    except (OSError, KeyError, zlib.error):
        return
    # right of the pattern browser: its inner pane's divider lands a pixel
    # or two apart from one run to another, as the window's first
    # allocations fall (seen on the store as on the manifest); what the
    # browser lists is compared above, from analyze --json
    right = 610
    same_pixels("%s: the window's timeline, details and matrix on the manifest are the store's" % name, *shots,
                box=(right, 60, width, height))

    # the worst instance chosen in the pattern browser (as a click chooses
    # it): the timeline shows it, its details and source as on the store
    shots = []
    for db, which in ((single, "store"), (manifest, "manifest")):
        png = "%s-%s-worst.png" % (tag, which)
        r = run(*XVFB, SEXTANT, "open", db, "--size", "1400x900", "--show-worst", "--screenshot", png)
        ok(r.returncode == 0 and os.path.exists(png), "%s: the window on the %s, its worst instance chosen"
           % (name, which), r.stderr)
        shots.append(png)
    same_pixels("%s: the window on the manifest shows its worst instance as the store's does" % name, *shots,
                box=(right, 60, width, height))


def span_seconds(db):
    r = run(SEXTANT, "info", db)
    m = re.search(r"^Duration:\s+([0-9.]+) s", r.stdout, re.M)
    return float(m.group(1)) if m else 0.0


def main():
    with tempfile.TemporaryDirectory(prefix="manifest-views-") as work:
        cases = []
        for i, name in enumerate(external_archives(TRACES)):
            cases.append((name, anchor(os.path.join(TRACES, name)), 1 + (i + 1) % 4, i == 0))
        stencil = os.path.join(work, "stencil")
        gen = run(BENCH_GEN, "--ranks", "12", "--events", "120000", stencil)
        ok(gen.returncode == 0, "the import benchmark's generator wrote a 12-rank stencil", gen.stderr)
        cases.append(("stencil", os.path.join(stencil, "traces.otf2"), 3, True))
        out = os.path.join(work, "every-kind")
        gen = run(OTF2GEN, "every-kind", out)
        ok(gen.returncode == 0, "otf2gen wrote every-kind", gen.stderr)
        cases.append(("every-kind", os.path.join(out, "traces.otf2"), 2, False))

        for name, archive, ranks, window in cases:
            single = os.path.join(work, name + ".db")
            manifest = os.path.join(work, name + ".sextant")
            imp = run(SEXTANT, "import", "--quiet", "--force", "-o", single, archive)
            ok(imp.returncode == 0, "%s: single-process import" % name, imp.stderr)
            mpi = run(*MPIRUN, "-np", ranks, SEXTANT_MPI, "import", archive, "-o", manifest)
            ok(mpi.returncode == 0, "%s: sextant-mpi import on %d ranks" % (name, ranks), mpi.stderr)
            if imp.returncode != 0 or mpi.returncode != 0:
                continue
            compare_cli("%s (%d ranks)" % (name, ranks), single, manifest)
            compare_analysis("%s (%d ranks)" % (name, ranks), single, manifest)
            if window:
                compare_window(name, single, manifest, work, span_seconds(single))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
