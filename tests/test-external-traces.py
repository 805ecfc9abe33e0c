#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every archive in ../shared/traces/external imports, and `sextant info --json`
equals the ground truth in that folder's README exactly: event records by kind
(totals and per location), locations (id, name, type, group, event count) and
global definitions by kind; and an import that reads one location at a time
(SEXTANT_IMPORT_BATCH=1: open, read, close, as the importer does in batches
at many locations) gives the same summary: visits, messages matched and
unmatched, collectives, events, warnings.

The README's tables were made with otf2-print (Debian otf2-tools 3.0.2); this
test parses them, so a new archive with its section is checked with no change
here. Output is TAP. Usage: test-external-traces.py [ARCHIVE-DIR-NAME...]
"""

import json
import os
import re
import subprocess
import sys
import tempfile

SEXTANT = os.environ.get("SEXTANT", "sextant")
TRACES = os.environ["SEXTANT_EXTERNAL_TRACES"]


def parse_table(lines, start):
    """Rows of the markdown table whose header line is lines[start]."""
    rows = []
    i = start + 2  # skip the header and the |---| rule
    while i < len(lines) and lines[i].startswith("|"):
        rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
        i += 1
    return rows


def ground_truth(readme):
    """{archive dir: {'total', 'events', 'locations', 'definitions'}}"""
    sections = {}
    name = None
    lines = readme.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^## (\S+)\s*$", line)
        if m:
            name = m.group(1)
            continue
        if name is None:
            continue
        truth = sections.setdefault(name, {})
        m = re.search(r"total event records: \*\*(\d+)\*\*", line)
        if m:
            truth["total"] = int(m.group(1))
        if line.startswith("| event type | count |"):
            truth["events"] = {r[0]: int(r[1]) for r in parse_table(lines, i)}
        elif line.startswith("| definition type | count |"):
            truth["definitions"] = {r[0]: int(r[1]) for r in parse_table(lines, i)}
        elif line.startswith("| location | name | type | location group |"):
            truth["locations"] = [
                {"id": int(r[0]), "name": r[1], "type": r[2], "group": r[3],
                 "defined": int(r[4]), "counted": int(r[5])}
                for r in parse_table(lines, i)]
    return {k: v for k, v in sections.items() if "events" in v}


def import_info(archive, db, batch=None):
    """`sextant info --json` of a fresh import, or a failure message."""
    env = dict(os.environ)
    if batch is not None:
        env["SEXTANT_IMPORT_BATCH"] = str(batch)
    run = subprocess.run([SEXTANT, "import", "--quiet", "--force", "-o", db, archive],
                         capture_output=True, text=True, env=env)
    if run.returncode != 0:
        return "import failed: " + run.stderr.strip()
    run = subprocess.run([SEXTANT, "info", "--json", db], capture_output=True, text=True)
    if run.returncode != 0:
        return "info failed: " + run.stderr.strip()
    return json.loads(run.stdout)


def check(name, truth, workdir):
    """Returns a list of failure messages (empty = pass)."""
    failures = []
    archive = os.path.join(TRACES, name)
    info = import_info(archive, os.path.join(workdir, name + ".db"))
    if isinstance(info, str):
        return [info]
    batched = import_info(archive, os.path.join(workdir, name + ".batched.db"), batch=1)
    if isinstance(batched, str):
        return ["one location at a time: " + batched]
    for key in ("total_events", "events", "locations", "definitions", "visits", "messages",
                "collectives", "rma_operations", "locks", "metric_values", "time", "warnings"):
        if batched.get(key) != info.get(key):
            failures.append("one location at a time, %s: got %s, want %s" %
                            (key, batched.get(key), info.get(key)))

    if info["events"] != truth["events"]:
        failures.append("events by kind: got %s, want %s" % (info["events"], truth["events"]))
    if info["total_events"] != truth["total"]:
        failures.append("total events: got %d, want %d" % (info["total_events"], truth["total"]))
    if info["definitions"] != truth["definitions"]:
        failures.append("definitions: got %s, want %s" % (info["definitions"], truth["definitions"]))

    # Sextant lists locations by id; otf2-print in definition order
    got = sorted(info["locations"], key=lambda l: l["id"])
    want = sorted(truth["locations"], key=lambda l: l["id"])
    if len(got) != len(want):
        failures.append("locations: got %d, want %d" % (len(got), len(want)))
    for g, w in zip(got, want):
        group = g["group"] if g["group"] is not None else "INVALID <0>"
        per_kind = sum(g["events"].values())
        if (g["id"], g["name"], g["type"]) != (w["id"], w["name"], w["type"]) or \
           group != w["group"] or g["defined_events"] != w["defined"] or \
           per_kind != w["counted"] or g["total_events"] != w["counted"]:
            failures.append("location %d: got %s, want %s" % (w["id"], g, w))
    # the per-location counts by kind add up to the archive's totals
    totals = {}
    for g in got:
        for kind, n in g["events"].items():
            totals[kind] = totals.get(kind, 0) + n
    if totals != info["events"]:
        failures.append("per-location kinds do not add up to the totals")
    return failures


def main():
    with open(os.path.join(TRACES, "README.md"), encoding="utf-8") as f:
        truths = ground_truth(f.read())
    names = sys.argv[1:] or sorted(truths)
    archives = sorted(d for d in os.listdir(TRACES) if os.path.isdir(os.path.join(TRACES, d)))
    print("1..%d" % (len(names) + 1))
    failed = 0
    # every archive in the folder has its ground truth
    missing = [a for a in archives if a not in truths]
    if missing and not sys.argv[1:]:
        print("not ok 1 - archives without ground truth: %s" % missing)
        failed += 1
    else:
        print("ok 1 - %d archives have ground truth" % len(archives))
    with tempfile.TemporaryDirectory() as workdir:
        for n, name in enumerate(names, start=2):
            failures = check(name, truths[name], workdir)
            if failures:
                failed += 1
                print("not ok %d - %s" % (n, name))
                for msg in failures:
                    print("# " + msg[:2000])
            else:
                print("ok %d - %s" % (n, name))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
