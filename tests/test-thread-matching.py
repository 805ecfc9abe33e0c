#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Messages to a process with several threads are matched per process.

sextant-otf2gen's threads-recv trace (tests/otf2gen/otf2gen-threads.h):
rank 0 sends 6 messages with one tag to rank 1, whose two threads post the
receives in turn (an MPI_Irecv completed late by the main thread, a
blocking MPI_Recv by the other). MPI gives the n-th message to the n-th
receive posted, whichever thread posted it: every message is matched, the
even ones to the main thread (location 1), the odd ones to the thread, and
the import logs no unmatched half. Output is TAP.
"""

import os
import sqlite3
import subprocess
import sys
import tempfile

import sextant_sqlite  # noqa: F401  (the column tables)
from tap import finish, ok

SEXTANT = os.environ.get("SEXTANT", "sextant")
OTF2GEN = os.environ.get("SEXTANT_OTF2GEN", "sextant-otf2gen")
THREAD = (1 << 32) | 1


def run(*args, env=None):
    return subprocess.run(list(args), capture_output=True, text=True, env=env)


def main():
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(work, "data"))
        out = os.path.join(work, "threads-recv")
        db = os.path.join(work, "threads-recv.db")
        gen = run(OTF2GEN, "threads-recv", out)
        imp = run(SEXTANT, "import", "--quiet", "-o", db, os.path.join(out, "traces.otf2"), env=env)
        ok(gen.returncode == 0 and imp.returncode == 0, "threads-recv: generated and imported",
           gen.stderr + imp.stderr)

        con = sqlite3.connect(db)
        rows = con.execute("SELECT m.send_time, s.otf2_id, r.otf2_id, m.recv_time FROM message AS m "
                           "LEFT JOIN location AS s ON s.id = m.send_loc "
                           "LEFT JOIN location AS r ON r.id = m.recv_loc ORDER BY m.send_time").fetchall()
        logged = con.execute("SELECT kind, count FROM import_log "
                             "WHERE kind LIKE 'unmatched%' OR kind LIKE 'duplicate%'").fetchall()
        con.close()

        ok(len(rows) == 6 and all(s == 0 and r is not None for _, s, r, _ in rows),
           "6 messages, all matched", str(rows))
        want = [(100 * (n + 1), 0, 1 if n % 2 == 0 else THREAD) for n in range(6)]
        ok([(t, s, r) for t, s, r, _ in rows] == want,
           "the n-th message goes to the thread that posted the n-th receive", str(rows))
        ok(all(recv > send for send, _, _, recv in rows), "every receive ends after its send", str(rows))
        ok(not logged, "no unmatched or duplicate halves logged", str(logged))

    return finish()


if __name__ == "__main__":
    sys.exit(main())
