#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Readers of a manifest while an analysis of it runs (docs/parallel.md,
"Analysis", "Readers"): every reader (`sextant info`, `info
--collectives`, `matrix`, `report`) either prints what it prints when no
analysis runs, or says "an analysis of this manifest is running ...: wait
until it ends" with exit status 1; never an SQLite error, never a mix of
the shards before and during the analysis.

The import benchmark's stencil (12 ranks) imported on 2 ranks, analysed
once, so that what the readers print is the same before and after each
analysis. Then:

  * an analysis held once every shard's halo is committed (the hook
    SEXTANT_ANALYSIS_HALO_PAUSE): every reader refuses the manifest;
  * a reader's lock held here (as sextant_store_open() takes it): the
    analysis waits for it (the manifest is not marked meanwhile), then
    runs once it is dropped;
  * 30 analyses, free-running, each with readers started 0-0.4 s after
    it; and the same readers of the single store while `sextant analyze`
    runs on it, which always print the store's output.

Output is TAP.
"""

import fcntl
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

from parallel_cases import MPIRUN, run
from tap import finish, ok

SEXTANT = os.environ.get("SEXTANT", "sextant")
SEXTANT_MPI = os.environ.get("SEXTANT_MPI", "sextant-mpi")
BENCH_GEN = os.environ.get("SEXTANT_BENCH_GEN", "sextant-bench-gen")
TRIES = int(os.environ.get("SEXTANT_READER_TRIES", "30"))
DELAYS = (0.0, 0.03, 0.08, 0.15, 0.25, 0.4)
BUSY = "%s: an analysis of this manifest is running (it writes into its shards): wait until it ends"


def readers(work):
    """(name, argv tail) of each reader; the report's file is numbered"""
    return (("info", ["info"]), ("info --collectives", ["info", "--collectives"]), ("matrix", ["matrix"]),
            ("report", ["report", "-f", "md", "-o", os.path.join(work, "report-%d.md")]))


def start_reader(argv, db, n):
    """the reader started, and the file it writes (or None)"""
    files = [a % n for a in argv if "%d" in a]
    args = [SEXTANT] + [a % n if "%d" in a else a for a in argv] + [db]
    return (subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
            files[0] if files else None)


def result(proc, out):
    """(exit status, stdout or the report written, stderr) of a reader"""
    stdout, stderr = proc.communicate(timeout=300)
    if out is not None:
        try:
            with open(out) as f:
                stdout = f.read()
            os.unlink(out)
        except OSError:
            stdout = ""
    return proc.returncode, stdout, stderr


def wants(work, db):
    got = {}
    for n, (name, argv) in enumerate(readers(work)):
        got[name] = result(*start_reader(argv, db, 1000 + n))
    return got


def judge(name, got, want, busy):
    """'same', 'busy' or what went wrong"""
    rc, out, err = got
    if rc == 0 and out == want[1] and not err.strip():
        return "same"
    if busy is not None and rc == 1 and err.strip() == "sextant: " + busy and not out:
        return "busy"
    return "%s: exit %d, %s" % (name, rc, (err.strip() or "its output differs")[:300])


def marked(manifest):
    con = sqlite3.connect(manifest)
    try:
        return con.execute("SELECT count (*) FROM meta WHERE key = 'analysis_unfinished'").fetchone()[0] > 0
    finally:
        con.close()


def held(work, manifest, want):
    """the analysis held with its halo written: every reader refuses"""
    job = subprocess.Popen([SEXTANT, "analyze", "--no-user-patterns", manifest], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           env=dict(os.environ, SEXTANT_ANALYSIS_HALO_PAUSE="5", G_MESSAGES_DEBUG="Sextant-Patterns"))
    paused = 0
    for line in job.stdout:     # (GLib prints debug messages on stdout)
        paused += "SEXTANT_ANALYSIS_HALO_PAUSE" in line
        if paused == 2:
            break
    outcomes = []
    for n, (name, argv) in enumerate(readers(work)):
        outcomes.append(judge(name, result(*start_reader(argv, manifest, n)), want[name], BUSY % manifest))
    job.stdout.read()
    ok(paused == 2 and outcomes == ["busy"] * len(outcomes),
       "an analysis held after its halo: every reader says it is running, exit 1", "\n".join(outcomes))
    ok(job.wait(timeout=300) == 0, "the held analysis then ends")


def waits_for_reader(manifest):
    """a reader's lock (shared, on the shards' directory) held here: the
    analysis waits, and runs when it is dropped"""
    fd = os.open(manifest + ".shards", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        job = subprocess.Popen([SEXTANT, "analyze", "--no-user-patterns", manifest], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        time.sleep(2)
        waiting = job.poll() is None and not marked(manifest)
    finally:
        os.close(fd)
    err = job.communicate(timeout=300)[1]
    ok(waiting and job.returncode == 0,
       "an analysis waits for a reader (no mark set), and runs once it ends",
       "waiting: %s, exit %s: %s" % (waiting, job.returncode, err))


def free_running(work, db, want, busy, what):
    """TRIES analyses of @db, each with a reader of each kind started at
    each delay: the outcomes counted"""
    counts = {}
    failed = []
    for t in range(TRIES):
        analysis = subprocess.Popen([SEXTANT, "analyze", "--no-user-patterns", db], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
        start = time.monotonic()
        started = []
        for d, delay in enumerate(DELAYS):
            time.sleep(max(0.0, start + delay - time.monotonic()))
            name, argv = readers(work)[(t + d) % len(readers(work))]
            started.append((name, start_reader(argv, db, t * 100 + d)))
        for name, (proc, out) in started:
            outcome = judge(name, result(proc, out), want[name], busy)
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome not in ("same", "busy"):
                failed.append("try %d: %s" % (t, outcome))
        err = analysis.communicate(timeout=300)[1]
        if analysis.returncode != 0:
            failed.append("try %d: the analysis failed: %s" % (t, err.strip()[:300]))
    print("# %s: %d tries, readers: %s" % (what, TRIES, ", ".join("%s %d" % kv for kv in sorted(counts.items())
                                                                   if kv[0] in ("same", "busy"))))
    ok(not failed, "%s, %d analyses with readers beside each: every reader prints the %s output or that "
       "an analysis is running, every analysis succeeds" % (what, TRIES, "store's" if busy is None else "manifest's"),
       "\n".join(failed[:10]))
    return counts


def main():
    with tempfile.TemporaryDirectory() as work:
        gen = run(BENCH_GEN, "--ranks", "12", "--events", "120000", os.path.join(work, "st"))
        ok(gen.returncode == 0, "sextant-bench-gen wrote the stencil", gen.stderr)
        archive = os.path.join(work, "st", "traces.otf2")
        manifest = os.path.join(work, "m2.sextant")
        single = os.path.join(work, "single.db")
        imp = run(*MPIRUN, "-np", 2, SEXTANT_MPI, "import", archive, "-o", manifest)
        ok(imp.returncode == 0, "imported on 2 ranks", imp.stdout + imp.stderr)
        imp = run(SEXTANT, "import", "--quiet", "-o", single, archive)
        ok(imp.returncode == 0, "single-process import", imp.stderr)
        for db in (manifest, single):
            res = run(SEXTANT, "analyze", "--no-user-patterns", db)
            ok(res.returncode == 0, "%s analysed" % os.path.basename(db), res.stderr)
        want = wants(work, manifest)
        ok(all(rc == 0 and out for rc, out, _ in want.values()), "the readers of the analysed manifest",
           repr({k: v[2] for k, v in want.items()}))
        single_want = wants(work, single)

        held(work, manifest, want)
        waits_for_reader(manifest)
        free_running(work, manifest, want, BUSY % manifest, "manifest")
        free_running(work, single, single_want, None, "single store")
        ok(wants(work, manifest) == want, "after them, the readers print the manifest's output")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
