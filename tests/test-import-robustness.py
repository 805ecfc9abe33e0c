#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Anomaly tests of `sextant import`, on damaged copies of a real archive:
each bad input gives its own error on stderr naming the file, a non-zero
exit, no database and no temporary file; the archive is never modified; an
existing database survives a failed re-import; re-importing is idempotent and
a current database is reused. Output is TAP.
"""

import hashlib
import os
import shutil
import sqlite3

import sextant_sqlite  # noqa: F401  (the column tables)
import subprocess
import sys
import tempfile

from tap import finish, ok, skip

SEXTANT = os.environ.get("SEXTANT", "sextant")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
SOURCE = os.path.join(TRACES, "casita-4_mpi_ls_barr")



def tree_digest(path):
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(path)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            h.update(p[len(path):].encode())
            if os.path.islink(p):
                h.update(os.readlink(p).encode())
            else:
                with open(p, "rb") as fh:
                    h.update(fh.read())
    return h.hexdigest()


def sextant(*args):
    return subprocess.run([SEXTANT, *args], capture_output=True, text=True)


def damage_truncate_evt(d):
    with open(os.path.join(d, "traces", "1.evt"), "r+b") as f:
        f.truncate(100)
    return "traces/1.evt", "cannot read the events"


def damage_delete_global_def(d):
    os.unlink(os.path.join(d, "traces.def"))
    return "traces.def", "global definitions"


def damage_truncate_global_def(d):
    with open(os.path.join(d, "traces.def"), "r+b") as f:
        f.truncate(500)
    return "traces.def", "cannot read the global definitions"


def damage_delete_local_def(d):
    os.unlink(os.path.join(d, "traces", "2.def"))
    return "traces/2.def", "local definitions"


def damage_garbage_local_def(d):
    with open(os.path.join(d, "traces", "2.def"), "wb") as f:
        f.write(b"this is not an OTF2 definition file\n" * 8)
    return "traces/2.def", "local definitions"


# A local definition file that holds no record, as a writer that defines
# everything globally leaves it: a chunk header (type 3, the endianness, the
# numbers of the first and last event) and the marks of the end of the file
# and of the buffer. The importer does not hand such files to libotf2.
EMPTY_LOCAL_DEF = bytes([3, 0x42, 1]) + bytes(15) + bytes([2, 1])


def empty_local_defs(d):
    for f in os.listdir(os.path.join(d, "traces")):
        if f.endswith(".def"):
            with open(os.path.join(d, "traces", f), "wb") as fh:
                fh.write(EMPTY_LOCAL_DEF)


def damage_delete_local_def_among_empty(d):
    empty_local_defs(d)
    os.unlink(os.path.join(d, "traces", "2.def"))
    return "traces/2.def", "local definitions"


def damage_garbage_anchor(d):
    with open(os.path.join(d, "traces.otf2"), "wb") as f:
        f.write(bytes(range(256)) * 2)
    return "traces.otf2", "not an OTF2 archive"


def damage_empty_directory(d):
    shutil.rmtree(d)
    os.mkdir(d)
    return os.path.basename(d), "not an OTF2 archive"


def damage_missing_evt(d):
    os.unlink(os.path.join(d, "traces", "3.evt"))
    return "traces/3.evt", "cannot open the events"


def damage_unreadable_evt(d):
    # As root, permissions do not stop a read: a dangling link does.
    p = os.path.join(d, "traces", "3.evt")
    os.unlink(p)
    os.symlink("/nonexistent/3.evt", p)
    return "traces/3.evt", "cannot open the events"


def damage_garbage_evt(d):
    with open(os.path.join(d, "traces", "0.evt"), "wb") as f:
        f.write(b"this is not an OTF2 event file\n" * 8)
    return "traces/0.evt", "events of location 0"


DAMAGES = [damage_truncate_evt, damage_delete_global_def, damage_truncate_global_def,
           damage_delete_local_def, damage_garbage_local_def, damage_delete_local_def_among_empty,
           damage_garbage_anchor, damage_empty_directory,
           damage_missing_evt, damage_unreadable_evt, damage_garbage_evt]


def leftovers(out_dir):
    return sorted(os.listdir(out_dir))


def dump(db):
    """Every row of every table, except the time of the import."""
    con = sqlite3.connect(db)
    rows = []
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    for t in tables:
        for r in con.execute('SELECT * FROM "%s" ORDER BY 1, 2' % t):
            if t == "meta" and r[0] in ("imported_at", "archive_path"):
                continue
            rows.append((t,) + tuple(r))
    con.close()
    return tables, rows


def main():
    with tempfile.TemporaryDirectory() as work:
        for damage in DAMAGES:
            name = damage.__name__[len("damage_"):]
            archive = os.path.join(work, name)
            out = os.path.join(work, "out-" + name)
            os.mkdir(out)
            shutil.copytree(SOURCE, archive, symlinks=True)
            culprit, words = damage(archive)
            before = tree_digest(archive)
            run = sextant("import", "-o", os.path.join(out, "t.db"), archive)
            ok(run.returncode == 1, "%s: exit status 1" % name, "got %d" % run.returncode)
            ok(culprit in run.stderr and words in run.stderr and run.stderr.startswith("sextant: "),
               "%s: error names %s" % (name, culprit), run.stderr.strip())
            ok("[OTF2]" not in run.stderr, "%s: no raw libotf2 output" % name, run.stderr.strip())
            ok(leftovers(out) == [], "%s: nothing left behind" % name, str(leftovers(out)))
            ok(tree_digest(archive) == before, "%s: archive untouched" % name)

        # A failed import leaves an existing database as it was.
        archive = os.path.join(work, "good")
        shutil.copytree(SOURCE, archive)
        out = os.path.join(work, "out-good")
        os.mkdir(out)
        db = os.path.join(out, "t.db")
        before = tree_digest(archive)
        old_umask = os.umask(0o027)
        run = sextant("import", "-o", db, archive)
        os.umask(old_umask)
        ok(run.returncode == 0, "good archive imports", run.stderr)
        mode = os.stat(db).st_mode & 0o777
        ok(mode == 0o640, "the database's mode is 0666 less the umask (027)", "mode %o" % mode)
        ok(tree_digest(archive) == before, "import leaves the archive untouched")
        first = dump(db)
        with open(db, "rb") as f:
            db_bytes = f.read()
        run = sextant("import", "-o", db, archive)
        ok(run.returncode == 0 and "up to date" in run.stdout, "a current database is reused", run.stdout)
        with open(db, "rb") as f:
            ok(f.read() == db_bytes, "reuse does not rewrite the database")
        run = sextant("import", "--force", "-o", db, archive)
        ok(run.returncode == 0, "forced re-import succeeds", run.stderr)
        second = dump(db)
        ok(first == second, "re-import is idempotent (every row equal)")

        # Local definition files with no record are as good as none: the
        # same store either way (and an import, not an error).
        stores = []
        for name, prepare in (("empty-local-defs", empty_local_defs),
                              ("no-local-defs", lambda d: [os.unlink(os.path.join(d, "traces", f))
                                                           for f in os.listdir(os.path.join(d, "traces"))
                                                           if f.endswith(".def")])):
            copy = os.path.join(work, name)
            shutil.copytree(SOURCE, copy)
            prepare(copy)
            tdb = os.path.join(out, name + ".db")
            run = sextant("import", "-o", tdb, copy)
            ok(run.returncode == 0, "%s: imports" % name, run.stderr)
            stores.append(dump(tdb) if run.returncode == 0 else None)
            if os.path.exists(tdb):
                os.unlink(tdb)
        ok(stores[0] is not None and stores[0] == stores[1],
           "local definition files with no record give the store of no files")

        # The store does not depend on how many threads read the locations.
        for name in ("casita-10_scorep_mpi_tags", "sstmacro-otf2_test_traces", "casita-4_mpi_ls_barr"):
            dumps = []
            for threads in ("1", "2", "5"):
                tdb = os.path.join(out, "threads-%s.db" % threads)
                run = subprocess.run([SEXTANT, "import", "--force", "-o", tdb, os.path.join(TRACES, name)],
                                     capture_output=True, text=True,
                                     env=dict(os.environ, SEXTANT_IMPORT_THREADS=threads))
                ok(run.returncode == 0, "%s imports with %s thread(s)" % (name, threads), run.stderr)
                dumps.append(dump(tdb))
                os.unlink(tdb)
            ok(dumps[0] == dumps[1] == dumps[2], "%s: 1, 2 and 5 threads give equal stores" % name)
        ok(leftovers(out) == ["t.db"], "only the database remains", str(leftovers(out)))

        damaged = os.path.join(work, "damaged")
        shutil.copytree(SOURCE, damaged)
        damage_truncate_evt(damaged)
        os.unlink(os.path.join(damaged, "traces.def"))
        shutil.copy(os.path.join(archive, "traces.def"), os.path.join(damaged, "traces.def"))
        run = sextant("import", "--force", "-o", db, damaged)
        ok(run.returncode == 1, "re-import of a damaged archive fails")
        ok(dump(db) == second, "the existing database survives a failed re-import")
        ok(leftovers(out) == ["t.db"], "no temporary file after the failed re-import", str(leftovers(out)))

        # A store written by another build (other schema text) is refused with
        # advice, and re-imported when the archive is given.
        con = sqlite3.connect(db)
        con.execute("UPDATE meta SET value = 'other' WHERE key = 'schema_checksum'")
        con.commit()
        con.close()
        run = sextant("info", db)
        ok(run.returncode == 1 and "another build of Sextant" in run.stderr, "a store of another build is refused",
           run.stderr)
        run = sextant("import", "-o", db, archive)
        ok(run.returncode == 0 and "imported" in run.stdout, "and re-imported without --force", run.stdout)

        # A changed archive is re-imported without --force.
        os.utime(os.path.join(archive, "traces.otf2"), (1, 1))
        run = sextant("import", "-o", db, archive)
        ok(run.returncode == 0 and "imported" in run.stdout, "a changed archive is re-imported", run.stdout)

        # Default database location: beside the anchor, <anchor name>.sextant.db
        run = sextant("import", "--quiet", archive)
        ok(run.returncode == 0 and os.path.exists(os.path.join(archive, "traces.sextant.db")),
           "default database beside the anchor", run.stderr)

        # A full disk: a tmpfs too small for the database (needs root).
        tiny = os.path.join(work, "tiny")
        os.mkdir(tiny)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny],
                                 capture_output=True).returncode == 0
        if mounted:
            try:
                big = os.path.join(TRACES, "casita-2_jacobi_blame_cpu_015")
                run = sextant("import", "-o", os.path.join(tiny, "t.db"), big)
                ok(run.returncode == 1 and "no space left" in run.stderr and "t.db" in run.stderr,
                   "full disk: clear error", run.stderr)
                ok(os.listdir(tiny) == [], "full disk: nothing left behind", str(os.listdir(tiny)))
            finally:
                subprocess.run(["umount", tiny])
        else:
            skip("full disk", "cannot mount a small tmpfs here")

        # Usage errors exit with 2 and say why.
        run = sextant("import")
        ok(run.returncode == 2 and "ARCHIVE" in run.stderr, "import without ARCHIVE is a usage error")
        run = sextant("frobnicate")
        ok(run.returncode == 2 and "unknown command" in run.stderr, "unknown command is a usage error")
        for cmd in ("import", "info"):
            run = sextant(cmd, "--help")
            ok(run.returncode == 0 and "Usage" in run.stdout, "%s --help" % cmd)
        run = sextant("info", os.path.join(work, "no-such.db"))
        ok(run.returncode == 1 and "no-such.db" in run.stderr, "info on a missing database fails")
        notdb = os.path.join(work, "not-a-db.db")
        with open(notdb, "w") as f:
            f.write("hello\n" * 100)
        run = sextant("info", notdb)
        ok(run.returncode == 1 and "not a Sextant trace store" in run.stderr, "info on a non-store fails",
           run.stderr)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
