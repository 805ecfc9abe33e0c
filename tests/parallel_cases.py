# tests/parallel_cases.py: what the tests of the parallel import and
# analysis (test-parallel-import.py, test-parallel-analyze.py) share.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sqlite3
import subprocess

from sextant_traces import anchor, external_archives  # noqa: F401  (shared with the tests that import this)

MPIRUN = ["timeout", "300", "mpirun", "--oversubscribe", "--allow-run-as-root", "--mca", "osc", "sm"]


def run(*args, env=None):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env)


def shards(manifest):
    """[(shard path, [locations])] as the manifest names them"""
    con = sqlite3.connect(manifest)
    try:
        listed = con.execute("SELECT id, path FROM shard ORDER BY id").fetchall()
        locs = {i: [l for (l,) in con.execute("SELECT loc FROM shard_location WHERE shard = ? ORDER BY loc",
                                              (i,))] for i, _ in listed}
    finally:
        con.close()
    here = os.path.dirname(manifest)
    return [(os.path.join(here, p), locs[i]) for i, p in listed]
