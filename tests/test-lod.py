#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The level-of-detail pyramid against a reference model.

For real archives, the `lod` table written by the importer must equal what a
deliberately naive model computes from the `visit` table: exclusive time of
each visit cut into base buckets, summed per category and region, every level
the sum of the one below, the dominant region the one with the most time -
from the location's first level on: a location with few events stores none
below the finest level whose buckets hold at least MIN_EVENTS of its events
on average (tests/test-lod-sparse.c checks that the reader computes them).
It also checks the geometry promises of docs/schema.md. Output is TAP.
"""

import os
import sqlite3

import sextant_sqlite  # noqa: F401  (the column tables)
import subprocess
import sys
import tempfile

from tap import finish, ok
from collections import defaultdict

SEXTANT = os.environ.get("SEXTANT", "sextant")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
ARCHIVES = ["casita-4_mpi_ls_barr", "sstmacro-otf2_test_traces", "casita-2_jacobi_blame_cpu_015",
            "casita-1_scorep-ompt-host-nested"]
CATEGORIES = ["MPI", "RMA", "USER", "OMP", "THREAD", "IO", "ACCEL", "OTHER"]
MIN_EVENTS = 16  # SEXTANT_LOD_MIN_EVENTS


def first_level(events, levels):
    first = 0
    while events > 0 and first + 1 < levels and (events >> (levels - 1 - first)) < MIN_EVENTS:
        first += 1
    return first



def exclusive_intervals(visits):
    """(t0, t1, region) pieces where each visit is the innermost open one.
    Naive: every visit's span minus its direct children's spans."""
    children = defaultdict(list)
    for v in visits.values():
        if v["parent"] is not None:
            children[v["parent"]].append(v)
    for v in visits.values():
        cursor = v["enter"]
        for c in sorted(children[v["id"]], key=lambda c: c["enter"]):
            if c["enter"] > cursor:
                yield cursor, c["enter"], v["region"]
            cursor = max(cursor, c["leave"])
        if v["leave"] > cursor:
            yield cursor, v["leave"], v["region"]


def model(con, loc, origin, base, levels, category):
    visits = {r[0]: {"id": r[0], "region": r[1], "enter": r[2], "leave": r[3], "parent": r[4]}
              for r in con.execute("SELECT id, region, enter, leave, parent FROM visit WHERE loc = ?", (loc,))}
    # level 0: bucket -> {'busy', cat -> t, region -> t}
    buckets = defaultdict(lambda: {"busy": 0, "cat": defaultdict(int), "reg": defaultdict(int)})
    for t0, t1, region in exclusive_intervals(visits):
        while t0 < t1:
            b = (t0 - origin) // base
            end = min(t1, origin + (b + 1) * base)
            d = end - t0
            buckets[b]["busy"] += d
            buckets[b]["cat"][category.get(region, "OTHER")] += d
            buckets[b]["reg"][region] += d
            t0 = end
    rows = {}
    level = {k: v for k, v in buckets.items() if v["busy"] > 0}
    for k in range(levels):
        for b, v in level.items():
            dominant = min(v["reg"], key=lambda r: (-v["reg"][r], r))
            rows[(k, b)] = (dominant, v["busy"]) + tuple(v["cat"][c] for c in CATEGORIES)
        parent = defaultdict(lambda: {"busy": 0, "cat": defaultdict(int), "reg": defaultdict(int)})
        for b, v in level.items():
            p = parent[b >> 1]
            p["busy"] += v["busy"]
            for c, t in v["cat"].items():
                p["cat"][c] += t
            for r, t in v["reg"].items():
                p["reg"][r] += t
        level = parent
    return rows


def check(name, work):
    db = os.path.join(work, name + ".db")
    run = subprocess.run([SEXTANT, "import", "--quiet", "-o", db, os.path.join(TRACES, name)],
                         capture_output=True, text=True)
    ok(run.returncode == 0, "%s: imports" % name, run.stderr)
    if run.returncode != 0:
        return
    con = sqlite3.connect(db)
    meta = dict(con.execute("SELECT key, value FROM meta"))
    origin, base, levels = int(meta["lod_origin"]), int(meta["lod_base_ticks"]), int(meta["lod_levels"])
    span = int(meta["time_end"]) - int(meta["time_begin"])
    ok(9 <= levels <= 15, "%s: 2^8..2^14 base buckets" % name, str(levels))
    ok(base << (levels - 1) > span, "%s: the top level is one bucket for the whole run" % name)
    category = dict(con.execute("SELECT id, category FROM region"))
    cols = "region, busy, " + ", ".join("t_" + c.lower() for c in CATEGORIES)
    sparse = 0
    for (loc, events) in con.execute("SELECT id, defined_events FROM location "
                                     "WHERE first_visit IS NOT NULL").fetchall():
        first = first_level(events, levels)
        sparse += first > 0
        want = {k: v for k, v in model(con, loc, origin, base, levels, category).items() if k[0] >= first}
        got = {(r[0], r[1]): tuple(r[2:]) for r in
               con.execute("SELECT level, bucket, %s FROM lod WHERE loc = ?" % cols, (loc,))}
        if got != want:
            diff = sorted(set(got.items()) ^ set(want.items()))[:6]
            ok(False, "%s: location %d equals the reference model" % (name, loc), str(diff))
            break
        rows_per_level = defaultdict(int)
        for (k, _b) in got:
            rows_per_level[k] += 1
        if any(n > (1 << (levels - 1 - k)) for k, n in rows_per_level.items()):
            ok(False, "%s: location %d has at most 2^(B-k) rows on level k" % (name, loc))
            break
    else:
        ok(True, "%s: every location equals the reference model (%d from a coarser level)" % (name, sparse))
    bad = con.execute("SELECT count(*) FROM lod WHERE busy != t_mpi + t_rma + t_user + t_omp + "
                      "t_thread + t_io + t_accel + t_other").fetchone()[0]
    ok(bad == 0, "%s: categories add up to busy" % name, str(bad))
    con.close()


def main():
    with tempfile.TemporaryDirectory() as work:
        for name in ARCHIVES:
            check(name, work)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
