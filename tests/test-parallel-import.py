#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sextant-mpi import` on real Open MPI ranks gives what the single-process
import gives (docs/parallel.md).

For every external archive that tests/test-external-traces.py checks, for
generated archives (the import benchmark's stencil, otf2gen's every-kind,
threads-recv, threads-colls, threads-wait and threads-nbc) and at 1 to 4
ranks, the union of the shards equals the single-process store of the same
archive, compared as sorted SQL results:

  * event records by location and kind, and every visit (id, location,
    region, enter, leave, depth, parent, call path name);
  * the call paths (name, region, depth, call site) of its locations'
    visits and their profile, and no other call path (a shard numbers its
    call paths itself);
  * the messages: each shard holds exactly the single store's messages with
    an end among its locations, both ends, the same visits and times;
  * the collectives: each shard holds exactly the instances with a member
    among its locations, with the same ids (canonical) and every member's
    times;
  * the requests logged never completed, unknown or reused, per location
    (threads-wait, threads-nbc: requests one thread starts and another
    completes are paired per process, none is logged).

And the faults: an archive that is no archive fails on every rank and
leaves nothing; a rank killed mid-import fails the job and leaves no
manifest and no shard; more ranks than locations work; a shard that is
missing or changed makes `sextant info MANIFEST` refuse the manifest,
naming the shard. Output is TAP.
"""

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import sextant_sqlite  # noqa: F401  (the column tables)
from parallel_cases import MPIRUN, anchor, external_archives, run, shards
from tap import finish, ok

SEXTANT = os.environ.get("SEXTANT", "sextant")
SEXTANT_MPI = os.environ.get("SEXTANT_MPI", "sextant-mpi")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
BENCH_GEN = os.environ.get("SEXTANT_BENCH_GEN", "sextant-bench-gen")
OTF2GEN = os.environ.get("SEXTANT_OTF2GEN", "sextant-otf2gen")


def mpi_import(archive, manifest, n, env=None):
    return run(*MPIRUN, "-np", n, SEXTANT_MPI, "import", archive, "-o", manifest, env=env)


# What is compared: each query's rows for a set of locations (:locs, a
# comma-separated list through instr()) -------------------------------------

IN_LOCS = "instr(',' || :locs || ',', ',' || {} || ',') > 0"

EVENTS = ("SELECT loc, kind, count FROM event_count WHERE " + IN_LOCS.format("loc"))
VISITS = ("SELECT v.id, v.loc, v.region, v.enter, v.leave, v.depth, v.parent, p.name "
          "FROM visit AS v LEFT JOIN call_path AS p ON p.id = v.path WHERE " + IN_LOCS.format("v.loc"))
# the paths of the locations' visits and their ancestors, by name (their ids are the shard's)
CALL_PATHS = ("WITH RECURSIVE up (id) AS (SELECT DISTINCT path FROM visit WHERE " + IN_LOCS.format("loc") +
              "  UNION SELECT p.parent FROM call_path AS p JOIN up ON p.id = up.id WHERE p.parent IS NOT NULL) "
              "SELECT p.name, p.region, p.depth, p.scl FROM call_path AS p JOIN up ON p.id = up.id")
PROFILE = ("SELECT f.loc, p.name, f.visits, f.inclusive, f.exclusive, f.last_visit FROM call_path_profile AS f "
           "JOIN call_path AS p ON p.id = f.path WHERE " + IN_LOCS.format("f.loc"))
MESSAGES = ("SELECT comm, tag, bytes, send_loc, recv_loc, send_mode, recv_mode, send_time, send_visit, "
            "send_complete_time, recv_post_time, recv_time, recv_visit, recv_bytes FROM message "
            "WHERE " + IN_LOCS.format("send_loc") + " OR " + IN_LOCS.format("recv_loc"))
# an instance with a member among the locations: its row (the whole
# instance's count and bounds) and its members there
COLLECTIVES = ("SELECT c.*, "
               "group_concat(m.loc || ':' || m.begin || ':' || m.\"end\" || ':' || m.visit || ':' || "
               "m.bytes_sent || ':' || m.bytes_received, ' ') "
               "FROM collective AS c JOIN (SELECT * FROM collective_member WHERE " + IN_LOCS.format("loc") +
               " ORDER BY loc) AS m ON m.collective = c.id GROUP BY c.id")
REQUESTS = ("SELECT kind, loc, first_time, count, message FROM import_log "
            "WHERE kind IN ('incomplete_request', 'unknown_request', 'request_reused') AND "
            + IN_LOCS.format("loc"))
QUERIES = {"events": EVENTS, "visits": VISITS, "call paths": CALL_PATHS, "call-path profile": PROFILE,
           "messages": MESSAGES, "collectives": COLLECTIVES, "requests": REQUESTS}
# every call path a shard has is one of the single store's
ALL_CALL_PATHS = "SELECT name, region, depth, scl FROM call_path"
# a shard holds its own locations' collective members, and another shard's
# only of a SCAN or EXSCAN (their rule compares a member with every lower rank's)
STRAY_MEMBERS = ("SELECT m.collective, m.loc FROM collective_member AS m JOIN collective AS c "
                 "ON c.id = m.collective WHERE " + IN_LOCS.format("m.loc") +
                 " AND c.kind NOT IN ('SCAN', 'EXSCAN')")



def rows(db, sql, locs):
    con = sqlite3.connect(db)
    try:
        return sorted(con.execute(sql, {"locs": ",".join(map(str, locs))}).fetchall(), key=repr)
    finally:
        con.close()


def all_locations(db):
    con = sqlite3.connect(db)
    try:
        return [l for (l,) in con.execute("SELECT id FROM location ORDER BY id")]
    finally:
        con.close()


IDLE = []   # the imports with a rank that had no location


def compare(name, archive, work, ranks, single, env=None):
    manifest = os.path.join(work, "%s-%d.sextant" % (name, ranks))
    imp = mpi_import(archive, manifest, ranks, env=env)
    ok(imp.returncode == 0, "%s: imported on %d rank(s)" % (name, ranks), imp.stdout + imp.stderr)
    if imp.returncode != 0:
        return []
    parts = shards(manifest)
    IDLE.extend("%s on %d ranks" % (name, ranks) for _, locs in parts if not locs)
    covered = sorted(l for _, locs in parts for l in locs)
    ok(len(parts) == ranks and covered == all_locations(single),
       "%s, %d rank(s): the manifest names %d shards that share the locations" % (name, ranks, ranks),
       "%r\n%r" % (parts, covered))
    for what, sql in QUERIES.items():
        diffs = []
        for path, locs in parts:
            want = rows(single, sql, locs)
            got = rows(path, sql, locs)
            if want != got:
                extra = [r for r in got if r not in want][:3]
                missing = [r for r in want if r not in got][:3]
                diffs.append("%s (%d locations): %d rows, want %d; extra %r; missing %r"
                             % (os.path.basename(path), len(locs), len(got), len(want), extra, missing))
        ok(not diffs, "%s, %d rank(s): %s as in the single-process store" % (name, ranks, what),
           "\n".join(diffs))
    single_paths = set(rows(single, ALL_CALL_PATHS, []))
    for path, locs in parts:
        strange = [r for r in rows(path, ALL_CALL_PATHS, []) if r not in single_paths]
        ok(not strange, "%s, %d rank(s): %s's call paths are the single store's"
           % (name, ranks, os.path.basename(path)), repr(strange[:3]))
    # and the rows no shard may hold: events and visits of another shard's locations
    for path, locs in parts:
        others = [l for l in covered if l not in locs]
        stray = rows(path, EVENTS, others) + rows(path, VISITS, others) + rows(path, STRAY_MEMBERS, others)
        ok(not stray, "%s, %d rank(s): %s holds only its own locations' events and collective members"
           % (name, ranks, os.path.basename(path)), repr(stray[:3]))
    return parts


def reader_of(parent, path):
    """The process under @parent (ours: the mpirun we started) that has
    @path open, or None"""
    todo = [parent]
    while todo:
        pid = todo.pop()
        try:
            for fd in os.listdir("/proc/%d/fd" % pid):
                if os.readlink("/proc/%d/fd/%s" % (pid, fd)) == path:
                    return pid
            for task in os.listdir("/proc/%d/task" % pid):
                with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return None


def single_import(archive, db):
    imp = run(SEXTANT, "import", "--quiet", "--force", "-o", db, archive)
    ok(imp.returncode == 0, "%s: single-process import" % os.path.basename(db), imp.stderr)
    return imp.returncode == 0


# the halves a rank sets aside spill to a file past 240 bytes (two halves):
# a failing import leaves no spill file either
SPILL_ENV = dict(os.environ, SEXTANT_SHARE_BLOCK_BYTES="240")


# the processes dealt out to the ranks one by one (the benchmark's way of
# making neighbours cross ranks, bench/parallel-import/crossing.sh)
CYCLIC_ENV = dict(SPILL_ENV, SEXTANT_SHARE_CYCLIC="1")


def spill_files(work):
    return [os.path.join(d, f) for d, _, files in os.walk(work) for f in files if f.endswith(".halves")]


def faults(work, archive):
    # an archive that is none: every rank fails, the job too, nothing written
    bad = os.path.join(work, "bad.otf2")
    with open(bad, "w") as f:
        f.write("not an archive\n")
    manifest = os.path.join(work, "bad.sextant")
    imp = mpi_import(bad, manifest, 2)
    ok(imp.returncode == 1 and "rank 0:" in imp.stderr and "rank 1:" in imp.stderr,
       "not an archive: the import fails naming each rank and why", imp.stdout + imp.stderr)
    ok(sorted(f for f in os.listdir(work) if f.startswith("bad.sextant")) == [],
       "not an archive: no manifest, no shard, no temporary left", repr(os.listdir(work)))

    # one rank's location is damaged: that rank fails and says why, the
    # other stops at the exchange, the job fails, nothing is written
    damaged = os.path.join(work, "damaged")
    shutil.copytree(os.path.dirname(archive), damaged)
    last = max(int(f[:-4]) for f in os.listdir(os.path.join(damaged, "traces")) if f.endswith(".evt"))
    with open(os.path.join(damaged, "traces", "%d.evt" % last), "r+b") as f:
        f.seek(100)
        f.write(b"\xff" * 64)
    manifest = os.path.join(work, "damaged.sextant")
    imp = mpi_import(os.path.join(damaged, "traces.otf2"), manifest, 2, env=SPILL_ENV)
    ok(imp.returncode == 1 and "rank 1: " in imp.stderr and "%d.evt" % last in imp.stderr and
       "rank 0: " not in imp.stderr,
       "a damaged event file: the rank that reads it fails naming it, the other waits for nothing",
       imp.stdout + imp.stderr)
    ok([f for f in os.listdir(work) if f.startswith("damaged.sextant")] == [] and spill_files(work) == [],
       "a damaged event file: no manifest, no shard, no temporary, no spill file left",
       repr(os.listdir(work)) + repr(spill_files(work)))

    # a rank killed while it imports: its event file is a FIFO nobody
    # writes, so the rank that reads it waits there until it is killed
    fifo_archive = os.path.join(work, "fifo")
    shutil.copytree(os.path.dirname(archive), fifo_archive)
    fifo = os.path.join(fifo_archive, "traces", "0.evt")
    os.unlink(fifo)
    os.mkfifo(fifo)
    manifest = os.path.join(work, "killed.sextant")
    writer = []   # the FIFO's write end, held open: the reader waits in read()
    opener = threading.Thread(target=lambda: writer.append(open(fifo, "wb")), daemon=True)
    opener.start()
    job = subprocess.Popen(MPIRUN + ["-np", "2", SEXTANT_MPI, "import", os.path.join(fifo_archive, "traces.otf2"),
                                     "-o", manifest], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=SPILL_ENV)
    victim = None
    deadline = time.monotonic() + 120
    while victim is None and job.poll() is None and time.monotonic() < deadline:
        victim = reader_of(job.pid, fifo)
        time.sleep(0.2)
    if victim is not None:
        os.kill(victim, signal.SIGKILL)
    try:
        out, err = job.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        job.kill()
        out, err = job.communicate()
    if not writer:
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))   # lets the opener return
    opener.join()
    for w in writer:
        w.close()
    ok(victim is not None and job.returncode != 0 and not os.path.exists(manifest) and
       not os.path.exists(manifest + ".shards") and spill_files(work) == [],
       "a killed rank: the import fails, no manifest, no shard directory, no spill file",
       "victim %r, status %r\n%s%s" % (victim, job.returncode, out, err))
    imp = mpi_import(archive, manifest, 2)
    ok(imp.returncode == 0 and [f for f in os.listdir(work) if f.startswith("killed.sextant.tmp-")] == [],
       "the next import removes what the killed one left", imp.stderr + repr(os.listdir(work)))

    # a stale shard, then a missing one: the manifest is refused naming it
    parts = shards(manifest)
    info = run(SEXTANT, "info", manifest)
    ok(info.returncode == 0 and re.search(r"^Locations: +12$", info.stdout, re.M),
       "a manifest whose shards are in place opens as one trace (tests/test-manifest-views.py compares it)",
       info.stdout + info.stderr)
    # a manifest of a build whose shards numbered call paths and collectives
    # apart (no meta canonical_ids) is refused, naming it
    older = os.path.join(work, "older.sextant")
    shutil.copy(manifest, older)   # its shards: killed.sextant.shards/, as it names them
    con = sqlite3.connect(older)
    with con:
        con.execute("DELETE FROM meta WHERE key = 'canonical_ids'")
    con.close()
    info = run(SEXTANT, "info", older)
    ok(info.returncode != 0 and older in info.stderr and "import the archive again" in info.stderr
       and not info.stdout, "a manifest whose shards number their ids apart is refused, naming it",
       info.stdout + info.stderr)
    info = run(SEXTANT, "info", parts[1][0])
    again = run(SEXTANT, "info", manifest)
    ok(info.returncode == 0 and again.returncode == 0 and again.stdout == run(SEXTANT, "info", manifest).stdout,
       "a shard opens as a store, and reading it or the manifest leaves the manifest current",
       info.stderr + again.stderr)
    with open(parts[1][0], "ab") as f:
        f.write(b"\0" * 4096)
    info = run(SEXTANT, "info", manifest)
    ok(info.returncode != 0 and os.path.basename(parts[1][0]) in info.stderr and "changed" in info.stderr,
       "a changed shard: the manifest is refused, naming the shard", info.stdout + info.stderr)
    os.unlink(parts[1][0])
    info = run(SEXTANT, "info", manifest)
    ok(info.returncode != 0 and os.path.basename(parts[1][0]) in info.stderr and "missing" in info.stderr,
       "a missing shard: the manifest is refused, naming the shard", info.stdout + info.stderr)


def binding_hint(work, archive):
    """A rank that mpirun bound to fewer cores than its node has says so
    once (rank 0), and a rank that may use them all does not"""
    probe = run(*MPIRUN, "-np", "1", sys.executable, "-c", "import os; print(len(os.sched_getaffinity(0)))")
    allowed = int(probe.stdout.split()[0]) if probe.returncode == 0 and probe.stdout.split() else 0
    hint = "mpirun --bind-to none"
    bound = mpi_import(archive, os.path.join(work, "bound.sextant"), 1)
    ok(bound.returncode == 0 and (hint in bound.stderr) == (0 < allowed < os.cpu_count()),
       "1 rank that mpirun bound to %d of the node's %d cores: a hint on stderr iff cores stay idle"
       % (allowed, os.cpu_count()), bound.stderr)
    free = run(*MPIRUN, "--bind-to", "none", "-np", "1", SEXTANT_MPI, "import", archive,
               "-o", os.path.join(work, "free.sextant"))
    ok(free.returncode == 0 and hint not in free.stderr, "1 rank free to use every core: no hint", free.stderr)


def main():
    with tempfile.TemporaryDirectory() as work:
        cases = []
        for i, name in enumerate(external_archives(TRACES)):
            # every archive, on 1 to 4 ranks in turn (4 ranks: more than
            # the locations of several)
            cases.append((name, anchor(os.path.join(TRACES, name)), [1 + (i + 1) % 4]))

        stencil = os.path.join(work, "stencil")
        gen = run(BENCH_GEN, "--ranks", "12", "--events", "120000", stencil)
        ok(gen.returncode == 0, "the import benchmark's generator wrote a 12-rank stencil", gen.stderr)
        cases.append(("stencil", os.path.join(stencil, "traces.otf2"), [1, 2, 3, 4]))
        for scenario, ranks in (("every-kind", [3]), ("threads-recv", [2, 4]), ("threads-colls", [2]),
                                ("threads-wait", [1, 2, 3]), ("threads-nbc", [2])):
            out = os.path.join(work, scenario)
            gen = run(OTF2GEN, scenario, out)
            ok(gen.returncode == 0, "otf2gen wrote %s" % scenario, gen.stderr)
            cases.append((scenario, os.path.join(out, "traces.otf2"), ranks))

        for name, archive, counts in cases:
            single = os.path.join(work, name + ".db")
            if not single_import(archive, single):
                continue
            for ranks in counts:
                compare(name, archive, work, ranks, single)
            # the halves exchanged in blocks of two, spilled to a file
            # while they were set aside, make the same shards
            if name in ("stencil", "threads-recv", "every-kind"):
                compare(name + "-blocks", archive, work, counts[-1], single, env=SPILL_ENV)
            # most messages cross when the processes are dealt out one by one
            if name == "stencil":
                parts = compare(name + "-cyclic", archive, work, 3, single, env=CYCLIC_ENV)
                ok([locs for _, locs in parts] == [list(range(r, 12, 3)) for r in range(3)],
                   "stencil, SEXTANT_SHARE_CYCLIC: rank r holds locations r, r + 3, ...", repr(parts))

        ok(IDLE, "more ranks than processes: idle ranks import too (%s)" % ", ".join(sorted(set(IDLE))))
        binding_hint(work, os.path.join(stencil, "traces.otf2"))
        faults(work, os.path.join(stencil, "traces.otf2"))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
