#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generate a sextant-otf2gen archive and compare otf2-print's per-location
record counts with what the generator promises (sextant-otf2gen --expect).

  check-kind-counts.py --generator PATH --otf2-print PATH --outdir DIR
                       [--scenario every-kind] [--anchor traces.otf2]

OUTDIR is deleted and regenerated.  Exit status 0 when otf2-print accepts the
archive and every (location, kind) count matches, 1 otherwise (the differences
are printed).
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

# otf2-print event lines: KIND  LOCATION  TIMESTAMP  attributes...
EVENT_LINE = re.compile(r"^([A-Z][A-Z0-9_]+)\s+(\d+)\s+(\d+)(\s|$)")


def run(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited with {proc.returncode}")
    return proc.stdout


def printed_counts(otf2_print, anchor):
    counts = collections.Counter()
    in_events = False
    for line in run([otf2_print, anchor]).splitlines():
        if line.startswith("=== Events"):
            in_events = True
            continue
        if line.startswith("==="):
            in_events = False
            continue
        match = EVENT_LINE.match(line) if in_events else None
        if match:
            counts[(int(match.group(2)), match.group(1))] += 1
    return counts


def expected_counts(generator, scenario):
    counts = collections.Counter()
    for line in run([generator, "--expect", scenario]).splitlines():
        location, kind, count = line.split()
        counts[(int(location), kind)] = int(count)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generator", required=True)
    parser.add_argument("--otf2-print", required=True)
    parser.add_argument("--outdir", required=True)
    parser.add_argument("--scenario", default="every-kind")
    parser.add_argument("--anchor", default="traces.otf2", help="anchor file name inside OUTDIR")
    args = parser.parse_args()

    if os.path.isdir(args.outdir):
        shutil.rmtree(args.outdir)
    run([args.generator, args.scenario, args.outdir])
    anchor = os.path.join(args.outdir, args.anchor)

    run([args.otf2_print, "--silent", anchor])
    printed = printed_counts(args.otf2_print, anchor)
    expected = expected_counts(args.generator, args.scenario)

    failures = []
    for key in sorted(set(printed) | set(expected)):
        if printed[key] != expected[key]:
            location, kind = key
            failures.append(f"  location {location} {kind}: otf2-print {printed[key]}, expected {expected[key]}")

    total = sum(printed.values())
    if failures:
        print(f"FAIL: {len(failures)} (location, kind) counts differ:")
        print("\n".join(failures))
        return 1

    kinds = {kind for _, kind in printed}
    print(f"ok: {total} records, {len(kinds)} kinds, {len({loc for loc, _ in printed})} locations match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
