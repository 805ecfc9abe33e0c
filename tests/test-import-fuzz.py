#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`sextant import` answers every damaged archive in bounded time and space.

Damaged copies of small real archives (bits flipped, bytes set to 0x00 or
0xff, truncations, random chunks, in the anchor, the definitions and the
event files), each imported under a time limit. Every input must give
either a store that `sextant info` and `sextant analyze` read, or exit
status 1 with one line "sextant: ..." on stderr - never a crash, a hang or
a leftover file - and a store's pyramid stays within what its events allow,
whatever the timestamps say.

First the inputs that once hung (kept as regressions: a flipped bit in a
timestamp made the pyramid grow with the time span and fill the disk, a
flipped bit in the anchor's property count sent libotf2 into a loop), then
SEXTANT_FUZZ_RUNS (default 60) seeded random variants, and
SEXTANT_FUZZ_STORE_RUNS (default 20) stores with random bytes overwritten,
each read by info, analyze and report; SEXTANT_FUZZ_SEED picks another seed
(the failing variant's seed and mutation are printed).
Output is TAP.
"""

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import sextant_sqlite  # noqa: F401  (the column tables)
from tap import finish
from tap import ok as record

SEXTANT = os.environ.get("SEXTANT", "sextant")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
RUNS = int(os.environ.get("SEXTANT_FUZZ_RUNS", "60"))
STORE_RUNS = int(os.environ.get("SEXTANT_FUZZ_STORE_RUNS", "20"))
SEED = int(os.environ.get("SEXTANT_FUZZ_SEED", "20261126"))
# One import of these archives takes 0.1 s; a variant that takes this long
# hangs.
LIMIT = 60

SOURCES = ["pipit-ping-pong-otf2", "casita-4_mpi_ls_barr", "sst-elements-ember-bcast"]

# (archive, file, [(offset, new byte)], what the answer must say)
REGRESSIONS = [
    ("pipit-ping-pong-otf2", "traces.otf2", [(22, 0x05), (46, 0x80)],
     "anchor file is damaged"),
    ("pipit-ping-pong-otf2", "traces/1.evt", [(133, 0x1b), (578, 0x1a)], "timestamp_out_of_range"),
    ("pipit-ping-pong-otf2", "traces/0.evt", [(513, 0x3a)], "timestamp_out_of_range"),
    ("pipit-ping-pong-otf2", "traces/1.evt", [(73, 0x3a)], "timestamp_out_of_range"),
    ("pipit-ping-pong-otf2", "traces/1.evt", [(285, 0x91), (399, 0x3a), (678, 0x8d)],
     "timestamp_out_of_range"),
    ("pipit-ping-pong-otf2", "traces/0.evt", [(338, 0x20), (521, 0xea), (570, 0x08)], None),
    ("pipit-ping-pong-otf2", "traces/0.evt", [(524, 0x69), (525, 0xda), (526, 0x1c), (527, 0xf6),
                                              (528, 0xba)], None),
    ("pipit-ping-pong-otf2", "traces/1.evt", [(98, 0x04), (257, 0xf1), (273, 0x0c)], None),
]


def ok(cond, name, detail=""):
    record(cond, name, detail)
    return bool(cond)


def archive_files(root):
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith((".otf2", ".def", ".evt")):
                files.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(files)


def copy_archive(name, dest):
    shutil.copytree(os.path.join(TRACES, name), dest)
    for d, _, names in os.walk(dest):
        os.chmod(d, 0o755)
        for n in names:
            os.chmod(os.path.join(d, n), 0o644)


def mutate(rng, data):
    """One random damage; returns the new bytes and what was done."""
    b = bytearray(data)
    kind = rng.choice(["flip", "flip", "flip", "zero", "ones", "truncate", "chunk"])
    if not b:
        return b, "empty"
    if kind == "flip":
        spots = [rng.randrange(len(b)) for _ in range(rng.randint(1, 3))]
        for k in spots:
            b[k] ^= 1 << rng.randrange(8)
        return b, "bits flipped at %s" % spots
    if kind in ("zero", "ones"):
        k = rng.randrange(len(b))
        n = rng.randint(1, 8)
        b[k:k + n] = bytes([0 if kind == "zero" else 0xff]) * len(b[k:k + n])
        return b, "%d bytes set to %s at %d" % (n, "0x00" if kind == "zero" else "0xff", k)
    if kind == "truncate":
        n = rng.randrange(len(b))
        return b[:n], "truncated to %d bytes" % n
    k = rng.randrange(len(b))
    n = rng.randint(1, 32)
    b[k:k + n] = bytes(rng.randrange(256) for _ in range(n))
    return b, "%d random bytes at %d" % (n, k)


def run(*args):
    """Runs sextant; None if it hangs. Its output is decoded leniently and
    .utf8 says whether it was valid UTF-8 (a store holds UTF-8 only)."""
    try:
        done = subprocess.run([SEXTANT, *args], capture_output=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        return None
    try:
        done.stdout.decode()
        done.stderr.decode()
        done.utf8 = True
    except UnicodeDecodeError:
        done.utf8 = False
    done.stdout = done.stdout.decode(errors="replace")
    done.stderr = done.stderr.decode(errors="replace")
    return done


def pyramid_within_bounds(db):
    """The pyramid has at most one row per bucket of every level, and its
    levels follow from the number of events, not from the timestamps."""
    con = sqlite3.connect(db)
    meta = dict(con.execute("SELECT key, value FROM meta"))
    levels = int(meta.get("lod_levels", 0))
    rows = con.execute("SELECT count(*) FROM lod").fetchone()[0]
    locations = con.execute("SELECT count(*) FROM location").fetchone()[0]
    con.close()
    return levels <= 27 and rows <= locations * (1 << (levels + 1)), \
        "%d rows, %d levels, %d locations" % (rows, levels, locations)


def check(label, archive, out, expect=None):
    """Imports @archive into @out; the answer must be bounded and clean."""
    db = os.path.join(out, "t.db")
    imp = run("import", "-q", "-o", db, archive)
    if not ok(imp is not None, "%s: the import finishes within %d s" % (label, LIMIT)):
        return
    if imp.returncode == 0:
        info = run("info", db)
        good = ok(info is not None and info.returncode == 0, "%s: info reads the store" % label,
                  info.stderr if info else "hung")
        ok(info is None or info.utf8, "%s: info prints UTF-8" % label)
        within, why = pyramid_within_bounds(db)
        ok(within, "%s: the pyramid is bounded by the events" % label, why)
        analysis = run("analyze", "--no-user-patterns", db)
        ok(analysis is not None and analysis.returncode == 0 and analysis.utf8,
           "%s: analyze reads the store and prints UTF-8" % label, analysis.stderr if analysis else "hung")
        if expect is not None:
            ok(good and expect in info.stdout, "%s: the import log says %s" % (label, expect),
               info.stdout if info else "")
        os.unlink(db)
    else:
        lines = imp.stderr.strip().splitlines()
        ok(imp.returncode == 1 and len(lines) == 1 and lines[0].startswith("sextant: "),
           "%s: exit 1 with one error line" % label, "status %d: %s" % (imp.returncode, imp.stderr.strip()))
        if expect is not None:
            ok(expect in imp.stderr, "%s: the error says %s" % (label, expect), imp.stderr.strip())
    ok(os.listdir(out) == [], "%s: nothing left behind" % label, str(os.listdir(out)))


def damaged_stores(work, rng):
    """A store with 1 to 8 random bytes overwritten: info, analyze and report
    answer, each within the limit, with a result or one error line."""
    db = os.path.join(work, "store.db")
    imp = run("import", "-q", "-o", db, os.path.join(TRACES, "casita-4_mpi_ls_barr"))
    ok(imp is not None and imp.returncode == 0, "a store to damage", imp.stderr if imp else "hung")
    with open(db, "rb") as f:
        base = f.read()
    os.unlink(db)
    for i in range(STORE_RUNS):
        data = bytearray(base)
        spots = [rng.randrange(len(data)) for _ in range(rng.randint(1, 8))]
        for k in spots:
            data[k] = rng.randrange(256)
        with open(db, "wb") as f:
            f.write(data)
        label = "seed %d store %d (bytes %s)" % (SEED, i, spots)
        report = os.path.join(work, "report.json")
        for args in (["info", db], ["analyze", "--no-user-patterns", db], ["report", "-f", "json", "-o", report, db]):
            done = run(*args)
            lines = done.stderr.strip().splitlines() if done else []
            ok(done is not None and (done.returncode == 0 or
                                     (done.returncode == 1 and len(lines) == 1 and lines[0].startswith("sextant: "))),
               "%s: %s answers" % (label, args[0]),
               "hung" if done is None else "status %d: %s" % (done.returncode, done.stderr.strip()))
        for name in os.listdir(work):
            if name.startswith(("store.db", "report")):
                os.unlink(os.path.join(work, name))


def main():
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out")
        os.mkdir(out)

        for i, (name, path, changes, expect) in enumerate(REGRESSIONS):
            archive = os.path.join(work, "regression-%d" % i)
            copy_archive(name, archive)
            with open(os.path.join(archive, path), "r+b") as f:
                for offset, value in changes:
                    f.seek(offset)
                    f.write(bytes([value]))
            check("regression %d (%s %s)" % (i, name, path), archive, out, expect)
            shutil.rmtree(archive)

        rng = random.Random(SEED)
        for i in range(RUNS):
            name = SOURCES[i % len(SOURCES)]
            archive = os.path.join(work, "variant-%d" % i)
            copy_archive(name, archive)
            path = rng.choice(archive_files(archive))
            with open(os.path.join(archive, path), "rb") as f:
                data, what = mutate(rng, f.read())
            with open(os.path.join(archive, path), "wb") as f:
                f.write(data)
            check("seed %d variant %d: %s %s %s" % (SEED, i, name, path, what), archive, out)
            shutil.rmtree(archive)

        damaged_stores(work, rng)
    finish()


if __name__ == "__main__":
    sys.exit(main())
