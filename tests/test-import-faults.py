#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Faults during `sextant import`: each leaves either the old store or the
new one, complete - never a half store, never a lost older store.

- the process killed (SIGKILL) at several moments of an import over an
  existing store; the next import cleans up what it left;
- a file size limit (ulimit -f) reached while writing;
- a read-only target directory (a read-only tmpfs; needs root);
- an event file truncated, or the whole archive deleted, while the archive
  is read;
- two imports of one archive into one store at the same time;
- a store written by a newer schema version, refused as such.
Output is TAP.
"""

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import sextant_sqlite  # noqa: F401  (the column tables)
from tap import finish, ok, skip

SEXTANT = os.environ.get("SEXTANT", "sextant")
BENCH_GEN = os.environ["SEXTANT_BENCH_GEN"]
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
SMALL = os.path.join(TRACES, "casita-4_mpi_ls_barr")


def sextant(*args, **kw):
    return subprocess.run([SEXTANT, *args], capture_output=True, text=True, timeout=300, **kw)


def events(db):
    con = sqlite3.connect(db)
    value = dict(con.execute("SELECT key, value FROM meta")).get("events")
    con.close()
    return value


def complete(db):
    """The store opens, says it is complete, and its visits can be read."""
    run = sextant("info", db)
    if run.returncode != 0:
        return False
    con = sqlite3.connect(db)
    meta = dict(con.execute("SELECT key, value FROM meta"))
    visits = con.execute("SELECT count(*) FROM visit").fetchone()[0]
    con.close()
    return str(meta.get("import_complete")) == "1" and visits > 0


def others(directory, keep=("t.db",)):
    return sorted(set(os.listdir(directory)) - set(keep))


def killed_imports(work):
    """SIGKILL at several moments; the store is the old one or the new one."""
    big = os.path.join(work, "big")
    gen = subprocess.run([BENCH_GEN, "-r", "16", "-e", "2000000", big], capture_output=True, text=True)
    ok(gen.returncode == 0, "the generator writes a 2 M-event archive", gen.stderr)
    out = os.path.join(work, "killed")
    os.mkdir(out)
    db = os.path.join(out, "t.db")
    run = sextant("import", "-q", "-o", db, SMALL)
    ok(run.returncode == 0, "an older store is there first", run.stderr)
    old_events = events(db)
    scratch = os.path.join(work, "scratch.db")
    run = sextant("import", "-q", "-o", scratch, big)
    ok(run.returncode == 0, "the 2 M-event archive imports", run.stderr)
    new_events = events(scratch)
    os.unlink(scratch)
    left_behind = set()
    for delay in (0.0, 0.05, 0.15, 0.4, 1.0):
        proc = subprocess.Popen([SEXTANT, "import", "-q", "--force", "-o", db, big],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # wait for the temporary store, then a little longer
        deadline = time.monotonic() + 60
        while proc.poll() is None and not others(out) and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(delay)
        finished = proc.poll() is not None
        proc.kill()
        proc.wait()
        present = events(db) if os.path.exists(db) else None
        left_behind.update(others(out))
        ok(present in (old_events, new_events),
           "killed %.2f s into the import%s: the store is the old or the new one (%s events)"
           % (delay, " (it had finished)" if finished else "", present))
        ok(complete(db), "killed %.2f s into the import: the store is complete" % delay)
        # the next import of the old archive cleans up after the killed one
        run = sextant("import", "-q", "--force", "-o", db, SMALL)
        ok(run.returncode == 0 and others(out) == [],
           "killed %.2f s in: the next import leaves only the store" % delay, run.stderr + str(others(out)))
    ok(left_behind, "the killed imports left files that the next import removed", str(sorted(left_behind)))
    shutil.rmtree(big)


def size_limit(work):
    out = os.path.join(work, "fsize")
    os.mkdir(out)
    db = os.path.join(out, "t.db")
    run = sextant("import", "-q", "-o", db, SMALL)
    before = events(db)

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, resource.RLIM_INFINITY))

    big = os.path.join(TRACES, "casita-2_jacobi_blame_cpu_015")
    run = sextant("import", "--force", "-o", db, big, preexec_fn=limit)
    ok(run.returncode == 1 and "file size limit" in run.stderr and "nothing was written" in run.stderr,
       "a file size limit: exit 1 and says so", run.stderr)
    ok(events(db) == before and complete(db), "a file size limit: the old store is kept")
    ok(others(out) == [], "a file size limit: nothing else left", str(others(out)))


def read_only(work):
    ro = os.path.join(work, "ro")
    os.mkdir(ro)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro], capture_output=True).returncode:
        skip("a read-only directory", "cannot mount a read-only tmpfs here")
        return
    try:
        run = sextant("import", "-o", os.path.join(ro, "t.db"), SMALL)
        ok(run.returncode == 1 and "Read-only file system" in run.stderr and "t.db" in run.stderr,
           "a read-only directory: exit 1 and says so", run.stderr)
    finally:
        subprocess.run(["umount", ro])


def truncate_an_event_file(src):
    victim = os.path.join(src, "traces", "3.evt")
    with open(victim, "r+b") as f:
        f.truncate(os.path.getsize(victim) // 3)


def delete_the_archive(src):
    shutil.rmtree(src)


def changed_while_read(work, change, label):
    """The archive changed by @change as the import reads it: the import
    finishes with a complete store or fails with one error line, keeping the
    old store; either way nothing else is left."""
    src = os.path.join(work, "changed")
    gen = subprocess.run([BENCH_GEN, "-r", "4", "-e", "2000000", src], capture_output=True, text=True)
    ok(gen.returncode == 0, "%s: the generator writes a 4-rank archive" % label, gen.stderr)
    out = os.path.join(work, "changed-out")
    os.mkdir(out)
    db = os.path.join(out, "t.db")
    sextant("import", "-q", "-o", db, SMALL)
    before = events(db)
    proc = subprocess.Popen([SEXTANT, "import", "-q", "--force", "-o", db, src],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while proc.poll() is None and not others(out) and time.monotonic() < deadline:
        time.sleep(0.002)
    change(src)
    _, err = proc.communicate(timeout=300)
    if proc.returncode == 0:
        ok(complete(db), "%s: the import finished with a complete store" % label)
    else:
        ok(proc.returncode == 1 and err.startswith("sextant: "), "%s: exit 1 with an error" % label, err)
        ok(events(db) == before and complete(db), "%s: the old store is kept" % label)
    ok(others(out) == [], "%s: nothing else left" % label, str(others(out)))
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(out)


def concurrent(work):
    out = os.path.join(work, "two")
    os.mkdir(out)
    db = os.path.join(out, "t.db")
    big = os.path.join(TRACES, "casita-2_jacobi_blame_cpu_015")
    procs = [subprocess.Popen([SEXTANT, "import", "-q", "--force", "-o", db, big],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [p.communicate(timeout=300) + (p.returncode,) for p in procs]
    ok(all(r[2] == 0 for r in results), "two imports at once both succeed", str(results))
    ok(complete(db), "two imports at once: the store is complete")
    ok(others(out) == [], "two imports at once: nothing else left", str(others(out)))


def newer_schema(work):
    db = os.path.join(work, "newer.db")
    sextant("import", "-q", "-o", db, SMALL)
    con = sqlite3.connect(db)
    version = int(dict(con.execute("SELECT key, value FROM meta"))["schema_version"])
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version + 1),))
    con.commit()
    con.close()
    run = sextant("info", db)
    ok(run.returncode == 1 and "newer Sextant" in run.stderr and str(version + 1) in run.stderr,
       "a store of a newer schema version is refused as such", run.stderr)


def main():
    with tempfile.TemporaryDirectory() as work:
        killed_imports(work)
        size_limit(work)
        read_only(work)
        changed_while_read(work, truncate_an_event_file, "an event file truncated while read")
        changed_while_read(work, delete_the_archive, "the archive deleted while read")
        concurrent(work)
        newer_schema(work)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
