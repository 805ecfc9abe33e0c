#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Messages and collectives of processes with several threads are matched
per process (tests/otf2gen/otf2gen-threads.h).

threads-recv: rank 0 sends 6 messages with one tag to rank 1, whose two
threads post the receives in turn (an MPI_Irecv completed late by the main
thread, a blocking MPI_Recv by the other). MPI gives the n-th message to
the n-th receive posted, whichever thread posted it: every message is
matched, the even ones to the main thread (location 1), the odd ones to the
thread, and the import logs no unmatched half.

threads-colls: two threads per rank call 7 collectives on MPI_COMM_WORLD
and a duplicate of it, interleaved, each rank in the same order but from
other threads. MPI matches a communicator's collectives per process in the
order the process calls them: 7 instances of 2 members each, as the
header's table gives them, none incomplete or mismatched.

threads-wait: on each of 2 ranks one thread starts requests (MPI_Isend on
rank 0, MPI_Irecv on rank 1) and the other completes them in an
MPI_Waitall, with request ids 1-3 on both ranks and 1 again after its
completion. The requests are paired per process: 4 messages, each with
its send's completion and its receive's post from the other thread, as the
header's table gives them, and no request logged incomplete or unknown.

threads-nbc: on each of 2 ranks one thread starts an MPI_Ibarrier and an
MPI_Iallreduce, their requests naming MPI_COMM_WORLD, and the other thread
completes them (rank 0 in the opposite order); one thread posts an
MPI_Irecv (rank 0) or an MPI_Isend (rank 1) the other cancels. The
requests are paired per process: 2 collectives of 2 members, matched in
the order they started, each member on the location that started it, from
its start to the other thread's completion; no message (both sides were
cancelled); no request incomplete or unknown, no collective incomplete or
mismatched.
Output is TAP.
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
THREAD = 1 << 32
WORLD, DUP = "MPI_COMM_WORLD", "MPI_Comm_dup(MPI_COMM_WORLD)"

# threads-colls, from the table in otf2gen-threads.h: (begin, communicator,
# operation, root rank, members' OTF2 location ids); rank 0 calls at t,
# rank 1 at t + 2, each call lasts 10 ticks
COLLECTIVES = [
    (10, WORLD, "BARRIER", None, [0, 1]),                  # W1: both main threads
    (30, DUP, "ALLREDUCE", None, [1 | THREAD, 0]),         # D1: rank 1's thread
    (50, WORLD, "ALLREDUCE", None, [1, THREAD]),           # W2: rank 0's thread
    (70, DUP, "BCAST", 0, [1, THREAD]),                    # D2
    (100, WORLD, "BCAST", 1, [1 | THREAD, 0]),             # W3
    (120, WORLD, "BARRIER", None, [1, THREAD]),            # W4
    (150, DUP, "BARRIER", None, [1 | THREAD, 0]),          # D3
]


def run(*args, env=None):
    return subprocess.run(list(args), capture_output=True, text=True, env=env)


def generate_and_import(work, env, scenario):
    out = os.path.join(work, scenario)
    db = os.path.join(work, scenario + ".db")
    gen = run(OTF2GEN, scenario, out)
    imp = run(SEXTANT, "import", "--quiet", "-o", db, os.path.join(out, "traces.otf2"), env=env)
    ok(gen.returncode == 0 and imp.returncode == 0, "%s: generated and imported" % scenario,
       gen.stderr + imp.stderr)
    return db


def messages(work, env):
    con = sqlite3.connect(generate_and_import(work, env, "threads-recv"))
    rows = con.execute("SELECT m.send_time, s.otf2_id, r.otf2_id, m.recv_time FROM message AS m "
                       "LEFT JOIN location AS s ON s.id = m.send_loc "
                       "LEFT JOIN location AS r ON r.id = m.recv_loc ORDER BY m.send_time").fetchall()
    logged = con.execute("SELECT kind, count FROM import_log "
                         "WHERE kind LIKE 'unmatched%' OR kind LIKE 'duplicate%'").fetchall()
    con.close()

    ok(len(rows) == 6 and all(s == 0 and r is not None for _, s, r, _ in rows),
       "6 messages, all matched", str(rows))
    want = [(100 * (n + 1), 0, 1 if n % 2 == 0 else THREAD | 1) for n in range(6)]
    ok([(t, s, r) for t, s, r, _ in rows] == want,
       "the n-th message goes to the thread that posted the n-th receive", str(rows))
    ok(all(recv > send for send, _, _, recv in rows), "every receive ends after its send", str(rows))
    ok(not logged, "no unmatched or duplicate halves logged", str(logged))


def collectives(work, env):
    con = sqlite3.connect(generate_and_import(work, env, "threads-colls"))
    rows = con.execute("SELECT c.id, c.begin, c.\"end\", k.name, c.kind, c.root, c.members, c.expected "
                       "FROM collective AS c JOIN comm AS k ON k.id = c.comm ORDER BY c.begin").fetchall()
    members = {}
    for coll, otf2_id, begin, end in con.execute(
            "SELECT m.collective, l.otf2_id, m.begin, m.\"end\" FROM collective_member AS m "
            "JOIN location AS l ON l.id = m.loc ORDER BY m.collective, l.otf2_id"):
        members.setdefault(coll, []).append((otf2_id, begin, end))
    logged = con.execute("SELECT kind, count FROM import_log WHERE kind IN "
                         "('collective_mismatch', 'incomplete_collective')").fetchall()
    con.close()

    ok(len(rows) == 7 and all(n == 2 and expected == 2 for *_, n, expected in rows),
       "7 collectives of 2 members each", str(rows))
    got = [(begin, comm, kind, root, sorted(m[0] for m in members.get(coll, [])))
           for coll, begin, _, comm, kind, root, _, _ in rows]
    want = [(t, comm, kind, root, sorted(locs)) for t, comm, kind, root, locs in COLLECTIVES]
    ok(got == want, "each instance has the calls of both processes, whichever thread called", str(got))
    ok(all(sorted((b, e) for _, b, e in members.get(coll, [])) == [(t, t + 10), (t + 2, t + 12)]
           for coll, t, *_ in rows),
       "each member keeps its own call's times", str(members))
    ok(not logged, "no incomplete or mismatched collective logged", str(logged))


# threads-wait, from the table in otf2gen-threads.h: (sent, send completed,
# posted, received)
WAITED = [(10, 101, 20, 201), (20, 102, 30, 202), (30, 103, 40, 203), (300, 401, 310, 501)]


def waited(work, env):
    con = sqlite3.connect(generate_and_import(work, env, "threads-wait"))
    rows = con.execute("SELECT m.send_time, m.send_complete_time, m.recv_post_time, m.recv_time, "
                       "s.otf2_id, r.otf2_id, cs.otf2_id, cv.name, rv.name FROM message AS m "
                       "LEFT JOIN location AS s ON s.id = m.send_loc "
                       "LEFT JOIN location AS r ON r.id = m.recv_loc "
                       "LEFT JOIN visit AS sv ON sv.id = m.send_complete_visit "
                       "LEFT JOIN location AS cs ON cs.id = sv.loc "
                       "LEFT JOIN region AS cv ON cv.id = sv.region "
                       "LEFT JOIN visit AS pv ON pv.id = m.recv_post_visit "
                       "LEFT JOIN region AS rv ON rv.id = pv.region "
                       "ORDER BY m.send_time").fetchall()
    logged = con.execute("SELECT kind, count, message FROM import_log WHERE kind LIKE 'unmatched%' "
                         "OR kind LIKE 'duplicate%' OR kind LIKE '%request%'").fetchall()
    con.close()

    ok([r[:4] for r in rows] == WAITED,
       "4 messages with the send completion and the receive post of the other thread", str(rows))
    ok(all(r[4:7] == (THREAD, 1, 0) for r in rows),
       "sent by rank 0's thread, received by rank 1's main thread, completed by rank 0's main thread",
       str(rows))
    ok(all(r[7:] == ("MPI_Waitall", "MPI_Irecv") for r in rows),
       "the completion's visit is the MPI_Waitall, the post's the MPI_Irecv", str(rows))
    ok(not logged, "no unmatched half nor incomplete or unknown request logged", str(logged))


# threads-nbc, from the table in otf2gen-threads.h: operation -> members
# (OTF2 location id, begin, end, the location of the completing call)
# (by location id)
NBC = {
    "BARRIER": [(1, 12, 201, 1 | THREAD), (0 | THREAD, 10, 102, 0)],
    "ALLREDUCE": [(1, 22, 202, 1 | THREAD), (0 | THREAD, 20, 101, 0)],
}


def nbc(work, env):
    con = sqlite3.connect(generate_and_import(work, env, "threads-nbc"))
    rows = con.execute("SELECT c.id, c.kind, k.name, c.nonblocking, c.members, c.expected FROM collective AS c "
                       "JOIN comm AS k ON k.id = c.comm ORDER BY c.begin").fetchall()
    members = {}
    for coll, otf2_id, begin, end, done in con.execute(
            "SELECT m.collective, l.otf2_id, m.begin, m.\"end\", el.otf2_id FROM collective_member AS m "
            "JOIN location AS l ON l.id = m.loc LEFT JOIN visit AS ev ON ev.id = m.end_visit "
            "LEFT JOIN location AS el ON el.id = ev.loc ORDER BY m.collective, l.otf2_id"):
        members.setdefault(coll, []).append((otf2_id, begin, end, done))
    n_messages = con.execute("SELECT count(*) FROM message").fetchone()[0]
    logged = con.execute("SELECT kind, count, message FROM import_log WHERE kind LIKE 'unmatched%' "
                         "OR kind LIKE '%request%' OR kind IN ('collective_mismatch', 'incomplete_collective')"
                         ).fetchall()
    con.close()

    ok([r[1:] for r in rows] == [("BARRIER", WORLD, 1, 2, 2), ("ALLREDUCE", WORLD, 1, 2, 2)],
       "2 non-blocking collectives on MPI_COMM_WORLD of 2 members each, in the order they started", str(rows))
    ok({kind: members.get(coll) for coll, kind, *_ in rows} == NBC,
       "each member on the thread that started it, from its start to the other thread's completion",
       str(members))
    ok(n_messages == 0, "the cancelled send and receive are no message", str(n_messages))
    ok(not logged, "no unmatched half, incomplete or unknown request, incomplete or mismatched collective",
       str(logged))


def main():
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(work, "data"))
        messages(work, env)
        collectives(work, env)
        waited(work, env)
        nbc(work, env)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
