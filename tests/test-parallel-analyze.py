#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The analysis of a parallel import's manifest gives what the analysis of
the single-process store gives (docs/parallel.md, "Analysis").

For every external archive that tests/test-external-traces.py checks and
for otf2gen's every-kind and threads-recv traces, at 1 to 4 ranks, after
`sextant-mpi import`:

  * `sextant analyze --json MANIFEST` (the shards analysed by threads of
    one process) prints what `sextant analyze --json` prints for the single
    store: the totals, the metric tree, every instance (--instances 0) with
    its id, severity, locations, interval, call site and cause;
  * every instance the shards hold (the union of the shards) is one of the
    single store's and none is missing: id, pattern, severity, location,
    visit, collective (its id: canonical), message (by its two visits),
    cause, cause and root instances, root location;
  * `mpirun -np N sextant-mpi analyze MANIFEST` (rank r analyses shard r)
    leaves the same instances in the shards and the same summary
    (pattern_aggregate) in the manifest.

Every pattern is compared, slow_workers and overloaded_master too: they
count a master's workers over the whole trace's messages, which a shard
takes in with its halo (every-kind on 3 and 4 ranks has a worker on
another shard than its master).

And: a shard analysed alone is refused naming its manifest; sextant-mpi
analyze on a number of ranks other than the shards' fails saying so; while
another analysis holds the manifest's lock, both ways of analysing it
refuse to start and leave its summary; the report of a manifest is
written; an analysis killed after it wrote into the shards (sextant
analyze, or sextant-mpi analyze) leaves the manifest refused by readers,
naming it, "run sextant analyze again", and the analysis run again gives
the single store's output. Output is TAP.
"""

import fcntl
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import parallel_cases
import sextant_sqlite  # noqa: F401  (the column tables)
from parallel_cases import MPIRUN, anchor, external_archives, run
from tap import finish, ok, skip

SEXTANT = os.environ.get("SEXTANT", "sextant")
SEXTANT_MPI = os.environ.get("SEXTANT_MPI", "sextant-mpi")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]
OTF2GEN = os.environ.get("SEXTANT_OTF2GEN", "sextant-otf2gen")

# Every instance with what identifies it across stores: its collective by
# its id (canonical: the same in a shard as in the single store), a message
# by its two ends' visits (a shard numbers its messages in the order it
# matched them).
INSTANCES = (
    "SELECT i.id, p.id, i.severity, i.loc, i.visit, i.begin, i.\"end\", i.peer_loc, i.collective, "
    "  (SELECT m.send_visit || ':' || m.recv_visit || ':' || m.send_loc || ':' || m.recv_loc "
    "   FROM message AS m WHERE m.id = i.message), "
    "  w.cause, w.cause_instance, w.root_instance, w.root_loc "
    "FROM pattern_instance_data AS i JOIN pattern AS p ON p.number = i.id >> 32 "
    "LEFT JOIN wait_state AS w ON w.instance = i.id")
AGGREGATES = ("SELECT pattern, loc, callpath, file, line, site_kind, function, severity, instances "
              "FROM pattern_aggregate")



def rows(db, sql):
    con = sqlite3.connect(db)
    try:
        return sorted(con.execute(sql).fetchall(), key=repr)
    finally:
        con.close()


def shards(manifest):
    return [path for path, _ in parallel_cases.shards(manifest)]


def analyze_json(db):
    res = run(SEXTANT, "analyze", "--json", "--instances", "0", "--no-user-patterns", db)
    if res.returncode != 0:
        return None, res.stderr
    doc = json.loads(res.stdout)
    doc.pop("database", None)
    return doc, res.stderr


def first_difference(a, b, path="$"):
    if type(a) is not type(b):
        return "%s: %r != %r" % (path, a, b)
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s.%s: only in %s" % (path, k, "the manifest's" if k in a else "the single store's")
            d = first_difference(a[k], b[k], path + "." + k)
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return "%s: %d elements, want %d" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return None if a == b else "%s: %r != %r" % (path, a, b)


def compare_instances(name, ranks, how, manifest, want):
    got = sorted((r for path in shards(manifest) for r in rows(path, INSTANCES)), key=repr)
    extra = [r for r in got if r not in want]
    missing = [r for r in want if r not in got]
    ok(not extra and not missing and len(got) == len(want),
       "%s, %d rank(s), %s: the shards hold the single store's %d instances, each once"
       % (name, ranks, how, len(want)),
       "%d instances, want %d; extra %r; missing %r" % (len(got), len(want), extra[:3], missing[:3]))


def uncommented(doc):
    """@doc (analyze --json) without the instances' comments"""
    doc = dict(doc)
    doc["instances"] = [{k: v for k, v in i.items() if k != "comment"} for i in doc["instances"]]
    return doc


def check(name, archive, work, ranks, single, want_json, want_rows, want_aggregates):
    manifest = os.path.join(work, "%s-%d.sextant" % (name, ranks))
    imp = run(*MPIRUN, "-np", ranks, SEXTANT_MPI, "import", archive, "-o", manifest)
    ok(imp.returncode == 0, "%s: imported on %d rank(s)" % (name, ranks), imp.stdout + imp.stderr)
    if imp.returncode != 0:
        return None

    got, err = analyze_json(manifest)
    compare_instances(name, ranks, "sextant analyze", manifest, want_rows)
    want = want_json
    ok(got is not None and uncommented(got) == uncommented(want),
       "%s, %d rank(s): analyze --json of the manifest prints the single store's" % (name, ranks),
       err if got is None else first_difference(uncommented(got), uncommented(want)))
    # (read through the manifest, a propagated wait's comment sees the root
    # cause's visits on every shard)
    ok(got is not None and got == want, "%s, %d rank(s): the comments of analyze --json too" % (name, ranks),
       err if got is None else first_difference(got, want))
    ok(rows(manifest, AGGREGATES) == want_aggregates,
       "%s, %d rank(s): the manifest's summary is the single store's" % (name, ranks))

    res = run(*MPIRUN, "-np", ranks, SEXTANT_MPI, "analyze", manifest)
    ok(res.returncode == 0, "%s, %d rank(s): sextant-mpi analyze" % (name, ranks), res.stdout + res.stderr)
    compare_instances(name, ranks, "sextant-mpi analyze", manifest, want_rows)
    ok(rows(manifest, AGGREGATES) == want_aggregates,
       "%s, %d rank(s), sextant-mpi analyze: the manifest's summary is the single store's" % (name, ranks))
    return manifest


def faults(work, manifest, want_json):
    parts = shards(manifest)
    res = run(SEXTANT, "analyze", parts[0])
    ok(res.returncode == 1 and os.path.basename(manifest) in res.stderr and "analyse the manifest" in res.stderr,
       "a shard analysed alone is refused, naming its manifest", res.stdout + res.stderr)
    res = run(*MPIRUN, "-np", len(parts) + 1, SEXTANT_MPI, "analyze", manifest)
    ok(res.returncode == 1 and "has %d shards" % len(parts) in res.stderr,
       "sextant-mpi analyze on more ranks than shards fails saying how many", res.stdout + res.stderr)
    res = run(SEXTANT, "analyze", "--no-user-patterns", manifest)
    ok(res.returncode == 0, "the manifest opens and is analysed after the failed run", res.stderr)
    # another analysis running (its lock held here, as sextant-manifest-lock.c
    # takes it): both ways of analysing refuse to start, and the summary the
    # manifest holds stays
    summary = rows(manifest, AGGREGATES)
    fd = os.open(os.path.dirname(parts[0]), os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        res = run(SEXTANT, "analyze", "--no-user-patterns", manifest)
        ok(res.returncode == 1 and os.path.basename(manifest) in res.stderr and
           "another analysis of this manifest is running" in res.stderr,
           "sextant analyze of a manifest another analysis holds is refused, naming it", res.stdout + res.stderr)
        res = run(*MPIRUN, "-np", len(parts), SEXTANT_MPI, "analyze", manifest)
        ok(res.returncode == 1 and "did not start" in res.stderr and
           "another analysis of this manifest is running" in res.stderr,
           "sextant-mpi analyze of a manifest another analysis holds is refused", res.stdout + res.stderr)
    finally:
        os.close(fd)
    ok(summary and rows(manifest, AGGREGATES) == summary,
       "the refused analyses left the manifest's summary as it was", "%d rows" % len(summary))
    res = run(SEXTANT, "report", "-f", "json", "-o", os.path.join(work, "report.json"), manifest)
    ok(res.returncode == 0 and os.path.exists(os.path.join(work, "report.json")),
       "the report of a manifest is written (tests/test-manifest-views.py compares it)", res.stdout + res.stderr)

    # an analysis killed once it wrote into a shard (its halo, committed,
    # is in the shard's write-ahead log), by either way of analysing: the
    # readers refuse the manifest, naming it, "run sextant analyze again";
    # the analysis run again succeeds and prints the single store's
    for how, cmd in (("sextant analyze", [SEXTANT, "analyze", "--no-user-patterns", manifest]),
                     ("sextant-mpi analyze", [*MPIRUN, "-np", str(len(parts)), SEXTANT_MPI, "analyze", manifest])):
        killed(how, cmd, manifest, parts, want_json)


def descendants(pid):
    """the processes @pid started, and theirs, deepest first"""
    found = []
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return found
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                children = [int(c) for c in f.read().split()]
        except OSError:
            continue
        for child in children:
            found += descendants(child) + [child]
    return found


def killed(how, cmd, manifest, parts, want_json):
    # the analysis waits once a shard's halo is committed (a test's hook,
    # which it says in a debug message): killed when every shard's has, it leaves
    # its halo in the shards
    job = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           env=dict(os.environ, SEXTANT_ANALYSIS_HALO_PAUSE="60", G_MESSAGES_DEBUG="Sextant-Patterns"))
    lines = []

    def read():
        for line in job.stdout:    # (GLib prints debug messages on stdout)
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    written = False
    while not written and job.poll() is None and time.monotonic() < deadline:
        written = sum("SEXTANT_ANALYSIS_HALO_PAUSE" in line for line in list(lines)) == len(parts)
        if not written:
            time.sleep(0.01)
    if written:
        # the ranks first (mpirun then ends), the job's own process last
        for pid in descendants(job.pid) + [job.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    try:
        job.wait(timeout=120)
    except subprocess.TimeoutExpired:
        job.kill()
        job.wait()
    ok(written and rows(manifest, "SELECT 1 FROM meta WHERE key = 'analysis_unfinished'"),
       "%s killed once every shard's halo was committed: the manifest keeps the analysis' mark" % how,
       "".join(lines[-20:]))
    if not written:
        return
    info = run(SEXTANT, "info", manifest)
    want = "%s: its last analysis did not finish (killed?): run `sextant analyze %s` again" % (manifest, manifest)
    ok(info.returncode == 1 and want in info.stderr,
       "%s killed after it wrote into the shards: sextant info refuses the manifest, naming it, "
       "'run sextant analyze again'" % how, info.stdout + info.stderr)
    again = run(SEXTANT, "analyze", "--no-user-patterns", manifest,
                env=dict(os.environ, G_MESSAGES_DEBUG="Sextant-Trace"))
    ok(again.returncode == 0, "%s killed: sextant analyze runs again" % how, again.stdout + again.stderr)
    # the halo the killed one committed into a shard is taken out before
    # the new one is written (visit chunks of the same first rows)
    left = (again.stdout + again.stderr).count("taking out the halo an analysis that did not finish left")
    ok(left == len(parts), "%s killed: the halo it left in each of the %d shards is taken out first"
       % (how, len(parts)), (again.stdout + again.stderr)[-2000:])
    got, err = analyze_json(manifest)
    ok(got is not None and got == want_json,
       "%s killed, then analysed again: analyze --json prints the single store's" % how,
       err if got is None else first_difference(got, want_json))


def main():
    last = None
    with tempfile.TemporaryDirectory() as work:
        cases = []
        for i, name in enumerate(external_archives(TRACES)):
            cases.append((name, anchor(os.path.join(TRACES, name)), [1 + (i + 2) % 4]))
        for scenario, ranks in (("every-kind", [1, 2, 3, 4]), ("threads-recv", [2, 3])):
            out = os.path.join(work, scenario)
            gen = run(OTF2GEN, scenario, out)
            ok(gen.returncode == 0, "otf2gen wrote %s" % scenario, gen.stderr)
            cases.append((scenario, os.path.join(out, "traces.otf2"), ranks))

        for name, archive, counts in cases:
            single = os.path.join(work, name + ".db")
            imp = run(SEXTANT, "import", "--quiet", "--force", "-o", single, archive)
            ok(imp.returncode == 0, "%s: single-process import" % name, imp.stderr)
            if imp.returncode != 0:
                continue
            want_json, err = analyze_json(single)
            ok(want_json is not None, "%s: analyze --json of the single store" % name, err)
            if want_json is None:
                continue
            want_rows = rows(single, INSTANCES)
            want_aggregates = rows(single, AGGREGATES)
            for ranks in counts:
                got = check(name, archive, work, ranks, single, want_json, want_rows, want_aggregates)
                last = (got, want_json) if got else last
        if last:
            faults(work, *last)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
