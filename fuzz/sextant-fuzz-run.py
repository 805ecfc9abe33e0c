#!/usr/bin/env python3
# fuzz/sextant-fuzz-run.py: runs one libFuzzer target of fuzz/ for a bounded
# time, after building its seed corpus into the build tree.
#
#   sextant-fuzz-run.py NAME EXE [--seconds N] [--timeout N] [--keep]
#                       [-- LIBFUZZER_ARGS...]
#   sextant-fuzz-run.py fuzz-store EXE --sweep   (every row edit once)
#
# The environment (fuzz/meson.build sets it for `meson test`):
#   SEXTANT_FUZZ_SOURCE      fuzz/ in the source tree (its regressions/)
#   SEXTANT_FUZZ_BUILD       fuzz/ in the build tree (seeds, corpora, artifacts)
#   SEXTANT_FUZZ_SEEDS       where the targets find the seed archives and stores
#   SEXTANT                  the build's `sextant`, which imports the seed stores
#   SEXTANT_EXTERNAL_TRACES  the external traces the seeds are copied from
#   SEXTANT_FUZZ_SECONDS     the default of --seconds (40)
#
# Seeds (built once per build tree, under a lock: the tests run in parallel):
#   seeds/archives/NAME   copies of the small external archives (their .otf2,
#                         .def and .evt files: a few KB each)
#   seeds/stores/NAME.sextant.db   each imported and analysed
#   corpus-seed/TARGET/   the targets' inputs made of the seeds' files (the
#                         input formats are described in fuzz-archive.c and
#                         fuzz-store.c)
# The run reads corpus-seed/TARGET/ and the regressions,
# fuzz/regressions/TARGET/ (inputs that once crashed or hung: each must now
# pass), and writes what it finds to a temporary directory; with --keep
# (the long runs) to corpus/TARGET/, which the next --keep run starts from.
# An input that crashes, leaks, trips UBSan or takes more than --timeout
# seconds fails the run and is written to artifacts/.
import argparse
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile

# The smallest external archives, each a few KB (their traits: MPI
# point-to-point, barriers, broadcasts, tags, PAPI metrics, OpenMP, OpenCL)
SEED_ARCHIVES = [
    "casita-10_scorep_mpi_tags",
    "casita-1_ocl_deps",
    "casita-1_scorep-ompt-host-nested",
    "casita-4_mpi_ls_barr",
    "pipit-ping-pong-otf2",
    "pipit-ping-pong-otf2-papi",
    "sst-elements-ember-bcast",
]
# fuzz-archive.c
SEPARATOR = b"\n--sextant-fuzz-file--\n"
TARGETS = ["fuzz-anchor", "fuzz-global-defs", "fuzz-local-defs", "fuzz-events", "fuzz-archive", "fuzz-store"]


def archive_files(directory):
    """The files a target sees, as fuzz/sextant-fuzz-util.c lists them:
    .otf2, .def and .evt, by relative path, sorted."""
    files = []
    for root, _, names in os.walk(directory):
        for name in names:
            if name.endswith((".otf2", ".def", ".evt")):
                files.append(os.path.relpath(os.path.join(root, name), directory))
    return sorted(files)


def kind_of(rel):
    local = "/" in rel
    if rel.endswith(".otf2"):
        return "anchor" if not local else None
    if rel.endswith(".def"):
        return "local-defs" if local else "global-defs"
    return "events" if local else None


def build_seeds(build, external, sextant):
    seeds = os.path.join(build, "seeds")
    stamp = os.path.join(build, "seeds.done")
    if os.path.exists(stamp):
        return
    shutil.rmtree(seeds, ignore_errors=True)
    corpus = os.path.join(build, "corpus-seed")
    shutil.rmtree(corpus, ignore_errors=True)
    for target in TARGETS:
        os.makedirs(os.path.join(corpus, target))
    os.makedirs(os.path.join(seeds, "stores"))

    def write(target, name, data):
        with open(os.path.join(corpus, target, name), "wb") as f:
            f.write(data)

    env = dict(os.environ)
    home = tempfile.mkdtemp(prefix="sextant-fuzz-seeds-")
    env["XDG_DATA_HOME"] = home
    for i, name in enumerate(SEED_ARCHIVES):
        source = os.path.join(external, name)
        copy = os.path.join(seeds, "archives", name)
        files = archive_files(source)
        per_kind = {}
        for j, rel in enumerate(files):
            os.makedirs(os.path.dirname(os.path.join(copy, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(source, rel), os.path.join(copy, rel))
            with open(os.path.join(source, rel), "rb") as f:
                data = f.read()
            kind = kind_of(rel)
            k = per_kind.get(kind, 0)
            per_kind[kind] = k + 1
            write("fuzz-archive", f"{name}-{j}", bytes([i, j]) + data)
            if kind == "anchor":
                write("fuzz-anchor", f"{name}", data)
            elif kind is not None:
                write("fuzz-" + kind, f"{name}-{k}", bytes([i, k]) + data)
        store = os.path.join(seeds, "stores", name + ".sextant.db")
        for command in (["import", copy, "-o", store], ["analyze", store]):
            subprocess.run([sextant] + command, env=env, check=True, stdout=subprocess.DEVNULL)
        # the window's reads and each command (fuzz-store.c's run_command ())
        # on the first store; the window, analyze and report on the others
        for command in list(range(8)) + [4 + 8, 4 + 16, 4 + 24, 7 + 8] if i == 0 else [0, 3, 4]:
            write("fuzz-store", f"{name}-{command}", bytes([i, command]))
        # row edits (bit 6): a value of the first row of every sixth table
        # set to -1, or a blob's first bytes to 0xff
        if i == 0:
            for table in range(0, 48, 6):
                edit = bytes([table, 0, 0, table // 6, 1, 0xff]) if table % 12 else \
                    bytes([table, 0, 0, table // 6, 10, 0, 0]) + b"\xff" * 8
                write("fuzz-store", f"{name}-edit-{table}", bytes([i, 0x40]) + edit)
    shutil.rmtree(home, ignore_errors=True)
    with open(stamp, "w") as f:
        f.write("done\n")


def write_sweep(build, directory):
    """fuzz-store's row edits, every one: each column of the first and the
    middle row of each table of rows of the first seed store set to NULL,
    -1, 0, 2^62, or its blob's first 8 bytes to 0xff, or bytes 7-14 to 0x80
    (read by the window; a -1 in the first row also analysed)."""
    import sqlite3
    import struct
    stores = sorted(n for n in os.listdir(os.path.join(build, "seeds", "stores")) if n.endswith(".sextant.db"))
    path = os.path.join(build, "seeds", "stores", stores[0])
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    # the tables fuzz-store.c's edit_rows () picks from, in its order
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' "
        "AND sql NOT LIKE 'CREATE VIRTUAL%' AND sql NOT LIKE '%WITHOUT ROWID%' ORDER BY name")]
    values = [b"", b"\xff", b"\x00", struct.pack("<q", 1 << 62), b"\x00\x00" + b"\xff" * 8, b"\x07\x00" + b"\x80" * 8]
    os.makedirs(directory, exist_ok=True)
    n = 0
    for t, table in enumerate(tables):
        columns = [r[0] for r in db.execute(f"SELECT name FROM pragma_table_info ('{table}')")]
        rows = db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        for c, column in enumerate(columns):
            for v, value in enumerate(values):
                for row in sorted({0, rows // 2}) if rows > 0 else []:
                    command = 0x40 | (3 if v == 1 and row == 0 else 0)
                    data = bytes([0, command, t, row & 0xff, row >> 8, c, len(value)]) + value
                    with open(os.path.join(directory, f"{table}-{column}-{v}-{row}"), "wb") as f:
                        f.write(data)
                    n += 1
    db.close()
    return n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("name")
    parser.add_argument("exe")
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("SEXTANT_FUZZ_SECONDS", "40")))
    parser.add_argument("--timeout", type=int, default=30, help="seconds an input may take")
    parser.add_argument("--corpus-only", action="store_true", help="build the seeds and stop")
    parser.add_argument("--keep", action="store_true", help="keep what the run finds in corpus/NAME")
    parser.add_argument("--sweep", action="store_true",
                        help="fuzz-store: run every row edit of write_sweep () once instead of fuzzing")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)

    source = os.environ["SEXTANT_FUZZ_SOURCE"]
    build = os.environ["SEXTANT_FUZZ_BUILD"]
    external = os.environ["SEXTANT_EXTERNAL_TRACES"]
    if not os.path.isdir(external):
        print(f"{external}: no external traces", file=sys.stderr)
        return 77
    os.makedirs(build, exist_ok=True)
    with open(os.path.join(build, "seeds.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_seeds(build, external, os.environ["SEXTANT"])
    if args.corpus_only:
        return 0

    if args.sweep:
        sweep = os.path.join(build, "sweep")
        shutil.rmtree(sweep, ignore_errors=True)
        print(f"{write_sweep(build, sweep)} row edits", flush=True)
        result = subprocess.run([args.exe, "-runs=0", f"-timeout={args.timeout}", "-rss_limit_mb=2560",
                                 f"-artifact_prefix={build}/artifacts/{args.name}-", sweep])
        return 0 if result.returncode == 0 else 1

    if args.keep:
        work = os.path.join(build, "corpus", args.name)
        os.makedirs(work, exist_ok=True)
    else:
        scratch = tempfile.TemporaryDirectory(prefix="sextant-fuzz-corpus-")
        work = scratch.name
    artifacts = os.path.join(build, "artifacts")
    os.makedirs(artifacts, exist_ok=True)
    dirs = [work, os.path.join(build, "corpus-seed", args.name)]
    regressions = os.path.join(source, "regressions", args.name)
    if os.path.isdir(regressions):
        dirs.append(regressions)
    # -malloc_limit_mb: libotf2's event reader asks for 9 GB on a damaged
    # event file (regressions/fuzz-events/libotf2-event-alloc-cf996fa9) and
    # never touches the pages; libFuzzer's default limit (the RSS limit)
    # would call that out of memory.
    # One allocation of 16 GiB or more still fails the run, and so does the
    # memory really used (-rss_limit_mb).
    command = [args.exe, f"-max_total_time={args.seconds}", f"-timeout={args.timeout}",
               "-rss_limit_mb=2560", "-malloc_limit_mb=16384", "-print_final_stats=1",
               f"-artifact_prefix={artifacts}/{args.name}-"]
    if args.name == "fuzz-store":
        # its seeds are 2 bytes (a store and a command) and a patch takes 6
        # at least: libFuzzer's slow growth of the length from the seeds'
        # would keep it from patching for hours
        command += ["-max_len=1024", "-len_control=0"]
    dictionary = os.path.join(source, args.name + ".dict")
    if os.path.exists(dictionary):
        command.append(f"-dict={dictionary}")
    command += extra + dirs
    print(" ".join(command), flush=True)
    result = subprocess.run(command)
    # libFuzzer exits 77 on a leak or a sanitizer's report, which meson
    # counts as a skipped test
    return 0 if result.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
