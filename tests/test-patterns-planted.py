#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every pattern finds exactly the wait states planted in synthetic traces.

sextant-otf2gen writes small traces (tests/otf2gen/otf2gen-planted.h) in
which every wait state has a size known to the tick, and prints with
--expect-patterns the pattern instances each one must produce, derived by
hand from the documented criteria. For every trace this test imports it,
checks that the import needed no repair and read every record, and runs
`sextant analyze --json` once per planned parameter set. For every pattern
of the catalogue (except those a trace marks unchecked) the instances in
pattern_instance must be exactly the expected ones - location, severity in
ticks, peer location, call path, source file and line, and where given a
piece of the comment - and the JSON must agree: instance count, total
severity, severity per location, top call sites. total_time_seconds must
be the sum over locations of (last record - first record). Output is TAP.
"""

import collections
import json
import os
import re
import sqlite3

import sextant_sqlite  # noqa: F401  (the column tables)
import subprocess
import sys
import tempfile

from tap import finish, ok

SEXTANT = os.environ.get("SEXTANT", "sextant")
OTF2GEN = os.environ.get("SEXTANT_OTF2GEN", "sextant-otf2gen")



def close(a, b):
    return abs(a - b) <= 1e-12 + 1e-9 * abs(b)


def run(*args, env=None):
    return subprocess.run(list(args), capture_output=True, text=True, env=env)


def parse_json(text):
    """(document, None) or, when the text is not JSON, (a lenient parse or None, the error).

    The lenient parse only repairs numbers like `1e-08.0` (a fraction after
    an exponent, which JSON does not allow), so that one bad number does not
    hide the other checks; the error is still reported."""
    try:
        return json.loads(text), None
    except json.JSONDecodeError as e:
        around = text[max(0, e.pos - 60):e.pos + 20]
        error = "%s near %r" % (e, around)
    try:
        return json.loads(re.sub(r"(\d[eE][-+]?\d+)\.0\b", r"\1", text)), error
    except json.JSONDecodeError:
        return None, error


def describe(i):
    """One instance, expected or found, as a line of the diagnosis."""
    site = "%s:%s" % (i["file"], i["line"]) if i["file"] is not None else "(no source)"
    text = "%s loc %s severity %s peer %s %s %s" % (i["pattern"], i["loc"], i["severity"], i["peer"],
                                                   i["callpath"], site)
    if i.get("comment"):
        text += " comment %r" % i["comment"]
    return text


def matches(exp, act):
    if (exp["loc"], exp["severity"], exp["callpath"], exp["file"], exp["line"]) != \
       (act["loc"], act["severity"], act["callpath"], act["file"], act["line"]):
        return False
    if exp["peer"] != "any" and exp["peer"] != act["peer"]:
        return False
    if exp["comment"] is not None and (act["comment"] is None or exp["comment"] not in act["comment"]):
        return False
    return True


def found_instances(con, pattern):
    rows = con.execute(
        "SELECT l.otf2_id, i.severity, p.otf2_id, i.callpath, i.file, i.line, i.comment "
        "FROM pattern_instance AS i JOIN location AS l ON l.id = i.loc "
        "LEFT JOIN location AS p ON p.id = i.peer_loc WHERE i.pattern = ? ORDER BY i.id", (pattern,))
    return [{"pattern": pattern, "loc": r[0], "severity": r[1], "peer": r[2], "callpath": r[3],
             "file": r[4], "line": r[5], "comment": r[6]} for r in rows]


def site_key(site):
    return (-site[2], site[0] or "", site[1] or 0)


def compare_pattern(con, summary, expected, resolution):
    """The differences between what a pattern should and did report."""
    problems = []
    found = found_instances(con, summary["id"])

    unmatched = list(found)
    missing = []
    for exp in expected:
        hit = next((a for a in unmatched if matches(exp, a)), None)
        if hit is None:
            missing.append(exp)
        else:
            unmatched.remove(hit)
    for exp in missing:
        problems.append("expected: " + describe(exp))
    for act in unmatched:
        problems.append("found:    " + describe(act))

    if summary["instances"] != len(expected):
        problems.append("JSON instances %d, expected %d" % (summary["instances"], len(expected)))
    total = sum(e["severity"] for e in expected) / resolution
    if not close(summary["severity_seconds"], total):
        problems.append("JSON severity_seconds %r, expected %r" % (summary["severity_seconds"], total))

    per_loc = collections.defaultdict(int)
    for e in expected:
        per_loc[str(e["loc"])] += e["severity"]
    by_location = summary["by_location"]
    if sorted(by_location) != sorted(per_loc) or \
       any(not close(by_location[k], per_loc[k] / resolution) for k in per_loc):
        problems.append("JSON by_location %r, expected %r"
                        % (by_location, {k: v / resolution for k, v in per_loc.items()}))

    # top_sites: one per (file, line), severity summed, the smallest call path
    sites = {}
    for e in expected:
        key = (e["file"], e["line"] if e["file"] is not None else None)
        s = sites.setdefault(key, [key[0], key[1], 0, 0, e["callpath"]])
        s[2] += e["severity"]
        s[3] += 1
        s[4] = min(s[4], e["callpath"])
    want = sorted(([f, l, sev / resolution, n, cp] for f, l, sev, n, cp in sites.values()), key=site_key)
    got = sorted(([s["file"], s.get("line"), s["severity_seconds"], s["instances"], s["callpath"]]
                  for s in summary["top_sites"]), key=site_key)
    if len(want) != len(got) or any(w[0] != g[0] or w[1] != g[1] or not close(g[2], w[2]) or
                                    w[3] != g[3] or w[4] != g[4] for w, g in zip(want, got)):
        problems.append("JSON top_sites %r, expected %r" % (got, want))

    return problems


def check_scenario(sc, work, env):
    name = sc["name"]
    outdir = os.path.join(work, name)
    db = os.path.join(work, name + ".db")
    resolution = sc["resolution"]

    gen = run(OTF2GEN, name, outdir)
    ok(gen.returncode == 0, "%s: generated" % name, gen.stderr)
    if gen.returncode != 0:
        return
    imp = run(SEXTANT, "import", "--quiet", "-o", db, os.path.join(outdir, "traces.otf2"), env=env)
    ok(imp.returncode == 0, "%s: imported" % name, imp.stderr)
    if imp.returncode != 0:
        return

    con = sqlite3.connect(db)
    log = con.execute("SELECT kind, loc, count, message FROM import_log").fetchall()
    ok(not log, "%s: the import needed no repair" % name, "\n".join(map(str, log)))
    counts = collections.defaultdict(dict)
    for loc, kind, n in con.execute("SELECT l.otf2_id, e.kind, e.count FROM event_count AS e "
                                    "JOIN location AS l ON l.id = e.loc WHERE e.count > 0"):
        counts[str(loc)][kind] = n
    ok(dict(counts) == sc["event_counts"], "%s: every record was read" % name,
       "found %r\nexpected %r" % (dict(counts), sc["event_counts"]))
    con.close()

    for number, r in enumerate(sc["runs"]):
        args = [SEXTANT, "analyze", "--json", "--no-user-patterns"]
        for p in r["params"]:
            args += ["--param", p]
        ana = run(*args, db, env=env)
        title = "%s: %s" % (name, r["name"])
        ok(ana.returncode == 0, "%s: analyzed" % title, ana.stderr)
        if ana.returncode != 0:
            continue
        out, error = parse_json(ana.stdout)
        ok(error is None, "%s: the output is valid JSON" % title, error or "")
        if out is None:
            continue

        if number == 0:
            total = sc["total_ticks"] / resolution
            ok(close(out["total_time_seconds"], total),
               "%s: total_time_seconds is the sum of (last - first record) per location, %d ticks"
               % (name, sc["total_ticks"]),
               "got %r, expected %r" % (out["total_time_seconds"], total))

        summaries = {p["id"]: p for p in out["patterns"]}
        planted = {i["pattern"] for i in sc["instances"]}
        ok(planted <= set(summaries), "%s: every expected pattern exists" % title,
           "unknown: %s" % sorted(planted - set(summaries)))

        con = sqlite3.connect(db)
        for pid in sorted(summaries):
            if pid in sc["unchecked"]:
                continue
            expected = [i for i in sc["instances"] if i["pattern"] == pid and r["name"] in i["runs"]]
            problems = compare_pattern(con, summaries[pid], expected, resolution)
            what = ", ".join("%s %d" % (e["loc"], e["severity"]) for e in expected) or "none"
            ok(not problems, "%s: %s: %s" % (title, pid, what), "\n".join(problems))
        con.close()


def check_every_kind_rma(work, env):
    """The RMA part of the every-kind archive (tests/otf2gen/otf2gen-every-kind.h):
    rank 0's accumulate into rank 3 is issued at 6525 in MPI_Accumulate
    (6520-6530) and completed remotely at 6595, inside the MPI_Win_flush of
    6590-6600 that waits for it (atomic_wait 6595 - 6590 = 5 ticks, charged to
    the flush, peer rank 3: the time between the calls was not spent
    waiting); rank 1 requests a shared lock
    on rank 3 at 6512 and gets it at 6618, after rank 0's exclusive hold
    (lock_contention 106 ticks, peer rank 0); rank 1's OpenMP thread waits 25
    ticks for each of the two locks rank 1 holds (thread and legacy OpenMP
    records), from entering the call that acquires it."""
    out = os.path.join(work, "every-kind")
    gen = run(OTF2GEN, "every-kind", out)
    db = os.path.join(work, "every-kind.db")
    imp = run(SEXTANT, "import", "--quiet", "-o", db, out, env=env)
    ana = run(SEXTANT, "analyze", "--json", "--no-user-patterns", "--pattern", "atomic_wait",
              "--pattern", "lock_contention", db, env=env)
    ok(gen.returncode == 0 and imp.returncode == 0 and ana.returncode == 0, "every-kind: analyze",
       gen.stderr + imp.stderr + ana.stderr)
    con = sqlite3.connect(db)
    rows = con.execute("SELECT i.pattern, l.otf2_id, i.severity, p.otf2_id FROM pattern_instance AS i "
                       "JOIN location AS l ON l.id = i.loc JOIN location AS p ON p.id = i.peer_loc "
                       "ORDER BY 1, 2, 3").fetchall()
    con.close()
    thread = (1 << 32) | 1
    ok(rows == [("atomic_wait", 0, 5, 3), ("lock_contention", 1, 106, 0),
                ("lock_contention", thread, 25, 1), ("lock_contention", thread, 25, 1)],
       "every-kind: atomic_wait 5 on rank 0, lock_contention 106 on rank 1 and 2 x 25 on its thread", str(rows))


def main():
    expect = run(OTF2GEN, "--expect-patterns")
    ok(expect.returncode == 0, "sextant-otf2gen --expect-patterns", expect.stderr)
    scenarios = json.loads(expect.stdout)["scenarios"] if expect.returncode == 0 else []
    ok(len(scenarios) > 0, "there are planted traces")

    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(work, "data"))
        for sc in scenarios:
            check_scenario(sc, work, env)
        check_every_kind_rma(work, env)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
