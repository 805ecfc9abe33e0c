#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""lock_contention is linear: 50,000 contended lock acquisitions in seconds.

sextant-otf2gen's lock-storm trace (tests/otf2gen/otf2gen-locks.h) has 4
ranks taking 50,000 locks (RMA exclusive and shared on two targets, and
pthread mutexes) in rounds; `sextant-otf2gen --expect-instances` prints the
instances its criterion gives, computed round by round by brute force. The
test imports the trace, runs `sextant analyze --pattern lock_contention`
under a time bound that the quadratic query it replaced (249 s at 50,000)
could not meet, and compares every instance (location, severity, peer).
On lock-storm-small (2,000 locks) it also runs that quadratic query, kept
below as the reference, on the same store: the same instances. Output is TAP.
"""

import collections
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

import sextant_sqlite  # noqa: F401  (the column tables)
from tap import finish, ok

SEXTANT = os.environ.get("SEXTANT", "sextant")
OTF2GEN = os.environ.get("SEXTANT_OTF2GEN", "sextant-otf2gen")
# the analysis of 50,000 locks takes 1.5 s on a loaded 2-core machine
BOUND_SECONDS = 60

# patterns/sql/lock_contention.sql before it used sextant_lock_holder: a
# correlated subquery per acquisition, O(n^2).
QUADRATIC = """
WITH held AS (
  SELECT lk.id, lk.loc, lk.family, lk.win, lk.target, lk.lock_id, lk.lock_type,
         lk.acquire_time, lk.release_time, lk.acquire_visit,
         coalesce (lk.request_time, v.enter, lk.acquire_time) AS asked
  FROM lock AS lk LEFT JOIN visit AS v ON v.id = lk.acquire_visit
  WHERE lk.acquire_time IS NOT NULL
),
waits AS (
  SELECT a.*,
         (SELECT h.loc FROM held AS h
          WHERE h.loc != a.loc AND h.family = a.family
            AND (CASE WHEN a.family = 'RMA' THEN h.win IS a.win AND h.target IS a.target
                      ELSE h.lock_id IS a.lock_id END)
            AND (a.family != 'RMA' OR a.lock_type IS NOT 'SHARED' OR h.lock_type IS NOT 'SHARED')
            AND h.acquire_time < a.acquire_time
            AND coalesce (h.release_time, a.acquire_time) > a.asked
          ORDER BY h.release_time DESC LIMIT 1) AS holder
  FROM held AS a
)
SELECT loc, acquire_visit, acquire_time - asked, holder
FROM waits
WHERE holder IS NOT NULL AND acquire_time - asked > 0
"""


def run(*args, env=None):
    return subprocess.run(list(args), capture_output=True, text=True, env=env)


def found(db):
    """The lock_contention instances as (OTF2 location, severity, OTF2 peer), and by visit."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT l.otf2_id, i.severity, p.otf2_id, i.visit FROM pattern_instance AS i "
                       "JOIN location AS l ON l.id = i.loc LEFT JOIN location AS p ON p.id = i.peer_loc "
                       "WHERE i.pattern = 'lock_contention'").fetchall()
    con.close()
    return rows


def check(name, work, env, quadratic):
    out = os.path.join(work, name)
    db = os.path.join(work, name + ".db")
    gen = run(OTF2GEN, name, out)
    exp = run(OTF2GEN, "--expect-instances", name)
    imp = run(SEXTANT, "import", "--quiet", "-o", db, os.path.join(out, "traces.otf2"), env=env)
    ok(gen.returncode == 0 and exp.returncode == 0 and imp.returncode == 0, "%s: generated and imported" % name,
       gen.stderr + exp.stderr + imp.stderr)

    con = sqlite3.connect(db)
    n_locks = con.execute("SELECT count (*) FROM lock").fetchone()[0]
    con.close()

    start = time.monotonic()
    ana = run(SEXTANT, "analyze", "--no-user-patterns", "--pattern", "lock_contention", db, env=env)
    seconds = time.monotonic() - start
    ok(ana.returncode == 0, "%s: analyze" % name, ana.stderr)
    ok(seconds < BOUND_SECONDS, "%s: %d lock acquisitions analysed in %.1f s (bound %d s)"
       % (name, n_locks, seconds, BOUND_SECONDS))

    expected = collections.Counter()
    for line in exp.stdout.splitlines():
        _, loc, severity, peer = line.split()
        expected[(int(loc), int(severity), int(peer))] += 1
    rows = found(db)
    actual = collections.Counter((loc, severity, peer) for loc, severity, peer, _ in rows)
    missing = expected - actual
    extra = actual - expected
    ok(not missing and not extra,
       "%s: %d instances, total severity %d ticks, as the brute force gives"
       % (name, sum(expected.values()), sum(k[1] * n for k, n in expected.items())),
       "missing %s\nextra %s" % (list(missing.items())[:10], list(extra.items())[:10]))

    if quadratic:
        con = sqlite3.connect(db)
        ids = dict(con.execute("SELECT id, otf2_id FROM location"))
        old = collections.Counter((ids[loc], visit, severity, ids[peer])
                                  for loc, visit, severity, peer in con.execute(QUADRATIC))
        con.close()
        new = collections.Counter((loc, visit, severity, peer) for loc, severity, peer, visit in rows)
        ok(old == new, "%s: the quadratic query finds the same %d instances (visit, severity, peer)"
           % (name, sum(old.values())), "only old %s\nonly new %s"
           % (list((old - new).items())[:10], list((new - old).items())[:10]))


def main():
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(work, "data"))
        check("lock-storm-small", work, env, quadratic=True)
        check("lock-storm", work, env, quadratic=False)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
