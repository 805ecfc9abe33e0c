#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sextant analyze --json` against Scalasca 2.6's numbers.

../shared/traces/external/README.md lists, for some archives, the metric
totals Scalasca's trace analyzer reports and the values per call path and
location. For every wait-state metric Sextant has a pattern for, the totals,
the values per location and the values per call path and location must agree
to a relative 1e-6 (absolute 1e-12 s for values that are zero). Output is TAP.
"""

import json
import os
import re
import sqlite3

import sextant_sqlite  # noqa: F401  (the column tables)
import subprocess
import sys
import tempfile

from tap import finish, ok

SEXTANT = os.environ.get("SEXTANT", "sextant")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
ARCHIVES = ["casita-4_mpi_ls_barr", "pipit-ping-pong-otf2"]

# Scalasca metric -> Sextant pattern
METRICS = {
    "mpi_latesender": "late_sender",
    "mpi_latesender_wo": "late_sender_wrong_order",
    "mpi_latereceiver": "late_receiver",
    "mpi_barrier_wait": "wait_at_barrier",
    "mpi_barrier_completion": "barrier_completion",
    "mpi_wait_nxn": "wait_at_nxn",
    "mpi_nxn_completion": "nxn_completion",
    "mpi_latebroadcast": "late_broadcast",
    "mpi_earlyreduce": "early_reduce",
    "mpi_earlyscan": "early_scan",
    "mpi_finalize_wait": "wait_at_finalize",
    "mpi_init_completion": "init_completion",
}
# Instance counts Scalasca reports, where its trace.stat gives them
COUNTS = {"mpi_cls_count": "late_sender", "mpi_clr_count": "late_receiver"}



def close(a, b):
    return abs(a - b) <= max(1e-12, 1e-6 * abs(b))


def reference(readme, archive):
    """totals {metric: value}, cells {(metric, callpath, location): value}"""
    section = readme.split("\n## " + archive + "\n", 1)[1].split("\n## ", 1)[0]
    totals, cells = {}, {}
    for line in section.splitlines():
        m = re.match(r"^\| (?:&nbsp;)*`([a-z_]+)` \| [^|]* \| ([-0-9.e+]+) \|$", line)
        if m:
            totals[m.group(1)] = float(m.group(2))
        m = re.match(r"^\| `([a-z_]+)` \| `([^`]+)` \| (\d+) \| ([-0-9.e+]+) \|$", line)
        if m:
            cells[(m.group(1), m.group(2), int(m.group(3)))] = float(m.group(4))
    return totals, cells


def check(readme, archive, work):
    totals, cells = reference(readme, archive)
    db = os.path.join(work, archive + ".db")
    run = subprocess.run([SEXTANT, "import", "--quiet", "-o", db, os.path.join(TRACES, archive)],
                         capture_output=True, text=True)
    ok(run.returncode == 0, "%s: imports" % archive, run.stderr)
    run = subprocess.run([SEXTANT, "analyze", "--json", "--no-user-patterns", db],
                         capture_output=True, text=True)
    ok(run.returncode == 0, "%s: analyzes" % archive, run.stderr)
    if run.returncode != 0:
        return
    out = json.loads(run.stdout)
    patterns = {p["id"]: p for p in out["patterns"]}

    ok(close(out["total_time_seconds"], totals["time"]), "%s: total time %.9g = Scalasca's %.9g"
       % (archive, out["total_time_seconds"], totals["time"]))

    for metric, pid in sorted(METRICS.items()):
        want = totals.get(metric, 0.0)
        got = patterns[pid]["severity_seconds"]
        ok(close(got, want), "%s: %s total %.9g = Scalasca's %s %.9g" % (archive, pid, got, metric, want))

        per_loc = {}
        for (m, _path, loc), v in cells.items():
            if m == metric:
                per_loc[loc] = per_loc.get(loc, 0.0) + v
        if per_loc:
            got_loc = {int(k): v for k, v in patterns[pid]["by_location"].items()}
            same = set(got_loc) == set(per_loc) and all(close(got_loc[k], per_loc[k]) for k in per_loc)
            ok(same, "%s: %s per location" % (archive, pid), "got %s want %s" % (got_loc, per_loc))

    for metric, pid in COUNTS.items():
        if metric in totals:
            ok(patterns[pid]["instances"] == int(totals[metric]),
               "%s: %s instances = Scalasca's %s" % (archive, pid, metric),
               "got %d want %d" % (patterns[pid]["instances"], totals[metric]))

    # per call path and location, in analyze --json ...
    for (metric, path, loc), want in sorted(cells.items()):
        pid = METRICS.get(metric)
        if pid is None:
            continue
        got = patterns[pid]["by_callpath"].get(path, {}).get(str(loc), 0.0)
        ok(close(got, want), "%s: JSON %s by_callpath %s on %d: %.9g = %.9g" % (archive, pid, path, loc, got, want))

    # ... and straight from the store
    con = sqlite3.connect(db)
    res = int(con.execute("SELECT value FROM meta WHERE key = 'resolution'").fetchone()[0])
    for (metric, path, loc), want in sorted(cells.items()):
        pid = METRICS.get(metric)
        if pid is None:
            continue
        got = con.execute("SELECT coalesce (sum (i.severity), 0) FROM pattern_instance AS i "
                          "JOIN location AS l ON l.id = i.loc WHERE i.pattern = ? AND i.callpath = ? "
                          "AND l.otf2_id = ?", (pid, path, loc)).fetchone()[0] / res
        ok(close(got, want), "%s: %s at %s on %d: %.9g = %.9g" % (archive, pid, path, loc, got, want))
    con.close()


def main():
    with open(os.path.join(TRACES, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    with tempfile.TemporaryDirectory() as work:
        for archive in ARCHIVES:
            check(readme, archive, work)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
