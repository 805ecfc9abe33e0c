#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Patterns are queries, and users can write their own.

A pattern file dropped into $XDG_DATA_HOME/sextant/patterns/ or given with
--pattern-file runs and appears in `sextant analyze` like the built-in ones;
a bad one (invalid SQL, a missing column, a statement that writes, a broken
header, a duplicate id) gives a clear error and a non-zero exit and never
changes the store's data. Parameters (--param) and the selection (--pattern)
change the result as documented. Output is TAP.
"""

import hashlib
import json
import os
import sqlite3

import sextant_sqlite  # noqa: F401  (the column tables)
import subprocess
import sys
import tempfile

from tap import finish, ok

SEXTANT = os.environ.get("SEXTANT", "sextant")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]



LONG_CALLS = """-- id: long_calls
-- title: Long MPI calls
-- description: MPI calls that took longer than a threshold.
-- comment: {location} spent {seconds} in {call} at {site}
-- param: min_time = 1 s: shorter calls are not instances
SELECT v.loc AS loc, v.id AS visit, v.leave - v.enter AS severity
FROM visit AS v JOIN region AS r ON r.id = v.region
WHERE r.paradigm = 'MPI' AND v.leave - v.enter > :min_time
"""

# charges each MPI_Recv twice its length, from a second before it entered:
# the invariants (patterns/sextant-invariants.c) refuse it, or clip it
OVERCHARGE = """-- id: overcharge
-- title: Overcharge
-- description: More time than the call lasted, partly before it.
SELECT v.loc AS loc, v.id AS visit, 2 * (v.leave - v.enter) AS severity,
       v.enter - :resolution AS begin, v.leave AS "end"
FROM visit AS v JOIN region AS r ON r.id = v.region
WHERE r.name = 'MPI_Recv'
"""

# every key of a comment template, the three units of {seconds} rounded half
# up from the exact ticks (1 ns here), the words for what is not known, and
# a comment the query writes itself
TEMPLATE_KEYS = """-- id: template_keys
-- title: Template keys
-- description: Every key of a comment template, and a comment of its own.
-- comment: [{location}|{peer}|{seconds}|{call}|{site}|{callpath}|{other}]
SELECT v.loc AS loc, v.id AS visit, 2005000000 AS severity,
       (SELECT min (id) FROM location) AS peer_loc, NULL AS comment
FROM visit AS v JOIN region AS r ON r.id = v.region
WHERE r.name = 'MPI_Recv' AND v.leave - v.enter > 10000000000
UNION ALL SELECT (SELECT min (id) FROM location), NULL, 1500000, NULL, NULL
UNION ALL SELECT (SELECT min (id) FROM location), NULL, 150, NULL, NULL
UNION ALL SELECT (SELECT min (id) FROM location), NULL, 999949, NULL, NULL
UNION ALL SELECT (SELECT min (id) FROM location), NULL, 50, NULL, 'its own words'
"""
# in the order of the instances' ids: by location, visit (none first),
# interval, peer, severity (sextant-analysis-instances.c, compare_found)
TEMPLATE_COMMENTS = [
    "its own words",
    "[MPI Rank 0|another process|0.2 µs|the call|an unknown source line||{other}]",
    "[MPI Rank 0|another process|999.9 µs|the call|an unknown source line||{other}]",
    "[MPI Rank 0|another process|1.50 ms|the call|an unknown source line||{other}]",
    "[MPI Rank 2|MPI Rank 0|2.01 s|MPI_Recv|gen_mpi.c:52 (where late_sender begins; the trace gives no call site)|"
    "main/late_sender/MPI_Recv|{other}]",
    "[MPI Rank 3|MPI Rank 0|2.01 s|MPI_Recv|gen_mpi.c:52 (where late_sender begins; the trace gives no call site)|"
    "main/late_sender/MPI_Recv|{other}]",
]

BAD = {
    "bad_sql": "-- id: bad_sql\n-- title: Bad\nSELEC loc, severity FROM visit\n",
    "missing_column": "-- id: missing_column\n-- title: Missing\nSELECT loc FROM visit\n",
    "writes": "-- id: writes\n-- title: Writes\nDELETE FROM region\n",
    "writes_events": "-- id: writes_events\n-- title: Writes\nDELETE FROM visit\n",
    "two_statements": "-- id: two_statements\n-- title: Two\nSELECT loc, 1 AS severity FROM visit; DELETE FROM visit\n",
    "no_title": "-- id: no_title\nSELECT loc, 1 AS severity FROM visit\n",
    "unknown_param": "-- id: unknown_param\n-- title: P\nSELECT loc, 1 AS severity FROM visit WHERE loc > :nope\n",
    "bad_header": "-- id: bad_header\n-- title: H\n-- frobnicate: yes\nSELECT loc, 1 AS severity FROM visit\n",
}
EXPECT = {
    "bad_sql": "invalid SQL",
    "missing_column": 'no column named "severity"',
    "writes": "must be a SELECT",
    "writes_events": "table visit may not be modified",
    "two_statements": "only one SQL statement",
    "no_title": "title",
    "unknown_param": "unknown parameter :nope",
    "bad_header": 'unknown header field "frobnicate"',
}


def data_digest(db):
    con = sqlite3.connect(db)
    h = hashlib.sha256()
    for t in ("visit", "message", "collective", "collective_member", "location", "region"):
        for row in con.execute('SELECT * FROM "%s" ORDER BY 1' % t):
            h.update(repr(row).encode())
    con.close()
    return h.hexdigest()


def main():
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(work, "data"))
        db = os.path.join(work, "t.db")

        def sextant(*args):
            return subprocess.run([SEXTANT, *args], capture_output=True, text=True, env=env)

        run = sextant("import", "--quiet", "-o", db, os.path.join(TRACES, "casita-4_mpi_ls_barr"))
        ok(run.returncode == 0, "import", run.stderr)
        before = data_digest(db)

        # a user pattern in the patterns folder
        folder = os.path.join(work, "data", "sextant", "patterns")
        os.makedirs(folder)
        with open(os.path.join(folder, "long_calls.sql"), "w") as f:
            f.write(LONG_CALLS)
        run = sextant("analyze", "--json", db)
        ok(run.returncode == 0, "analyze with a user pattern", run.stderr)
        out = json.loads(run.stdout) if run.returncode == 0 else {"patterns": []}
        pats = {p["id"]: p for p in out["patterns"]}
        ok("long_calls" in pats and "late_sender" in pats, "the user pattern appears beside the built-in ones")
        if "long_calls" in pats:
            p = pats["long_calls"]
            # the receives of the late sender chain and the barriers last longer than 1 s
            ok(p["instances"] == 6, "long_calls: 6 MPI calls over 1 s", str(p))
            ok(p["origin"].endswith("long_calls.sql"), "long_calls: origin is the file", p["origin"])
            ok(p["top_sites"] and p["top_sites"][0]["file"].endswith("gen_mpi.c"),
               "long_calls: linked to the source file", str(p["top_sites"][:1]))
        con = sqlite3.connect(db)
        comment = con.execute("SELECT comment FROM pattern_instance WHERE pattern = 'long_calls' "
                              "ORDER BY severity DESC LIMIT 1").fetchone()
        con.close()
        ok(comment and comment[0].startswith("MPI Rank 3 spent 10.99 s in MPI_Recv at gen_mpi.c:52"),
           "long_calls: the comment template is filled", str(comment))

        # its parameter, globally and per pattern
        run = sextant("analyze", "--json", "--param", "min_time=10.5", db)
        pats = {p["id"]: p for p in json.loads(run.stdout)["patterns"]} if run.returncode == 0 else {}
        ok(pats.get("long_calls", {}).get("instances") == 1, "--param min_time=10.5 leaves one instance")
        run = sextant("analyze", "--json", "--param", "late_sender.eps=9.5", db)
        pats = {p["id"]: p for p in json.loads(run.stdout)["patterns"]} if run.returncode == 0 else {}
        ok(pats.get("late_sender", {}).get("instances") == 2 and pats.get("long_calls", {}).get("instances") == 6,
           "--param late_sender.eps=9.5 affects only late_sender")

        # selection
        run = sextant("analyze", "--json", "--pattern", "late_sender", db)
        ids = sorted(p["id"] for p in json.loads(run.stdout)["patterns"]) if run.returncode == 0 else []
        ok(ids == ["late_sender", "late_sender_wrong_order"], "--pattern selects a subtree", str(ids))

        # the comment template, filled in when an instance is read
        keys = os.path.join(work, "template_keys.sql")
        with open(keys, "w") as f:
            f.write(TEMPLATE_KEYS)
        run = sextant("analyze", "--no-user-patterns", "--pattern-file", keys, "--pattern", "template_keys", db)
        ok(run.returncode == 0, "analyze template_keys", run.stderr)
        con = sqlite3.connect(db)
        comments = [r[0] for r in con.execute("SELECT comment FROM pattern_instance "
                                              "WHERE pattern = 'template_keys' ORDER BY id")]
        con.close()
        ok(comments == TEMPLATE_COMMENTS, "template_keys: every key filled in", "\n".join(map(str, comments)))

        # a single file on the command line; the folder can be switched off
        extra = os.path.join(work, "extra.sql")
        with open(extra, "w") as f:
            f.write(LONG_CALLS.replace("long_calls", "long_calls_2"))
        run = sextant("analyze", "--json", "--no-user-patterns", "--pattern-file", extra, db)
        ids = [p["id"] for p in json.loads(run.stdout)["patterns"]] if run.returncode == 0 else []
        ok("long_calls_2" in ids and "long_calls" not in ids, "--pattern-file and --no-user-patterns", str(ids))

        # the printed metric tree and call sites name patterns by title, as
        # the window and the reports do, with the id --pattern takes
        run = sextant("analyze", db)
        tree_lines = run.stdout.split("\nTop call sites:")[0].splitlines()
        site_lines = run.stdout.split("\nTop call sites:")[-1].splitlines()
        ok(run.returncode == 0 and any(l.strip().startswith("Late Sender (late_sender) ") for l in tree_lines)
           and any(l.strip().startswith("Long MPI calls (long_calls) ") for l in tree_lines)
           and any(l.strip().startswith("Late Sender ") for l in site_lines)
           and not any(l.strip().startswith("late_sender") for l in run.stdout.splitlines()),
           "the printed tree and call sites name patterns by title", run.stdout + run.stderr)

        # the metric tree: a user pattern names a group or a pattern as parent
        tree_file = os.path.join(work, "tree.sql")
        with open(tree_file, "w") as f:
            f.write(LONG_CALLS.replace("-- title: Long MPI calls", "-- title: Long MPI calls\n-- parent: hot_spots"))
        below = os.path.join(work, "below.sql")
        with open(below, "w") as f:
            f.write(LONG_CALLS.replace("long_calls", "long_recvs")
                    .replace("-- title: Long MPI calls", "-- title: Long receives\n-- parent: long_calls")
                    .replace("r.paradigm = 'MPI'", "r.name = 'MPI_Recv'"))
        run = sextant("analyze", "--json", "--no-user-patterns", "--pattern-file", below, "--pattern-file", tree_file, db)
        out = json.loads(run.stdout) if run.returncode == 0 else {"patterns": [], "tree": []}
        nodes = {n["id"]: n for n in out["tree"]}
        pats = {p["id"]: p for p in out["patterns"]}
        ok(nodes.get("long_calls", {}).get("parent") == "hot_spots" and nodes.get("hot_spots", {}).get("parent")
           == "diagnostics" and nodes.get("long_recvs", {}).get("parent") == "long_calls",
           "user patterns in the tree: under a group, under a pattern", str({k: nodes.get(k) for k in
                                                                            ("long_calls", "long_recvs")}))
        ok(pats and abs(pats["long_calls"]["inclusive_seconds"] - pats["long_calls"]["severity_seconds"]
                        - pats["long_recvs"]["severity_seconds"]) < 1e-9,
           "a parent's inclusive time is its own and its child's", str(pats.get("long_calls")))
        run = sextant("analyze", "--json", "--no-user-patterns", "--pattern-file", below, "--pattern-file", tree_file,
                      "--pattern", "diagnostics", db)
        ids = sorted(p["id"] for p in json.loads(run.stdout)["patterns"]) if run.returncode == 0 else []
        ok("long_recvs" in ids and "frequent_communication" in ids and "late_sender" not in ids,
           "--pattern diagnostics selects the group's subtree, the user's patterns too", str(ids))
        typo = os.path.join(work, "typo.sql")
        with open(typo, "w") as f:
            f.write(LONG_CALLS.replace("-- title: Long MPI calls", "-- title: Long MPI calls\n-- parent: hotspots"))
        run = sextant("analyze", "--no-user-patterns", "--pattern-file", typo, db)
        ok(run.returncode == 1 and 'the parent "hotspots" is neither a group of the pattern tree nor a pattern'
           in run.stderr and "typo.sql" in run.stderr, "a parent that names nothing is refused", run.stderr)

        # usage errors
        for args, words in ((("--param", "nope=1"), 'no pattern has a parameter "nope"'),
                            (("--param", "eps=abc"), "not a number"),
                            (("--pattern", "nope"), 'no pattern with id "nope"')):
            run = sextant("analyze", *args, db)
            ok(run.returncode == 1 and words in run.stderr, "error: %s" % " ".join(args), run.stderr)

        # bad pattern files: a clear error, non-zero exit, the data untouched
        for name, text in sorted(BAD.items()):
            path = os.path.join(work, name + ".sql")
            with open(path, "w") as f:
                f.write(text)
            run = sextant("analyze", "--no-user-patterns", "--pattern-file", path, db)
            ok(run.returncode == 1 and EXPECT[name] in run.stderr and "Traceback" not in run.stderr,
               "bad pattern %s: clear error" % name, run.stderr)
        dup = os.path.join(work, "dup.sql")
        with open(dup, "w") as f:
            f.write(LONG_CALLS.replace("long_calls", "late_sender"))
        run = sextant("analyze", "--no-user-patterns", "--pattern-file", dup, db)
        ok(run.returncode == 1 and 'pattern "late_sender" is defined already' in run.stderr,
           "a duplicate id is refused", run.stderr)
        # a pattern that charges a call more than it lasted: strict (as in the
        # test suite) the analysis fails and keeps the previous one; else it
        # warns once and clips every instance to its call
        path = os.path.join(work, "overcharge.sql")
        with open(path, "w") as f:
            f.write(OVERCHARGE)
        con = sqlite3.connect(db)
        kept = con.execute("SELECT count (*) FROM pattern_instance").fetchone()[0]
        con.close()
        env["SEXTANT_STRICT_INVARIANTS"] = "1"
        run = sextant("analyze", "--no-user-patterns", "--pattern-file", path, "--pattern", "overcharge", db)
        con = sqlite3.connect(db)
        still = con.execute("SELECT count (*) FROM pattern_instance").fetchone()[0]
        con.close()
        ok(run.returncode == 1 and "pattern overcharge charges visit" in run.stderr
           and "more than the call lasted" in run.stderr and still == kept,
           "strict: a pattern charging a call more than it lasted fails the analysis, the last one kept",
           run.stderr + " (%d instances, %d before)" % (still, kept))
        env["SEXTANT_STRICT_INVARIANTS"] = "0"
        run = sextant("analyze", "--no-user-patterns", "--pattern-file", path, "--pattern", "overcharge", db)
        con = sqlite3.connect(db)
        rows = con.execute("SELECT i.severity, i.\"begin\", i.\"end\", v.enter, v.leave FROM pattern_instance AS i "
                           "JOIN visit AS v ON v.id = i.visit WHERE i.pattern = 'overcharge'").fetchall()
        con.close()
        ok(run.returncode == 0 and run.stderr.count("pattern overcharge charges visit") == 1
           and "clipped to the call" in run.stderr,
           "not strict: one warning for the pattern", run.stderr)
        ok(len(rows) == 3 and all(r[0] == r[4] - r[3] and r[1] == r[3] and r[2] == r[4] for r in rows),
           "not strict: each of the 3 receives is charged its own length, inside it", str(rows))
        del env["SEXTANT_STRICT_INVARIANTS"]

        ok(data_digest(db) == before, "the store's data is unchanged by all of this")

    return finish()


if __name__ == "__main__":
    sys.exit(main())
