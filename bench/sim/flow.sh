#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/sim/flow.sh - the flow model of the all-gather against the packet model
#
#   bench/sim/flow.sh [DIMS...]      (default: 16x16x32 8x8x8x16)
#
# Runs `sextant sim torus --json --op allgather` with --model packet and
# --model flow on each torus with 1, 4 and 16 trees, and prints per run
# both models' hardware and point-to-point times, ratios and CPU seconds
# and the flow model's deviation; per torus the worst deviations. The
# validation of tests/test-sim-flow.c on tori too large for a test (the
# packet model takes seconds at 8192 nodes).
#
# Environment: BUILDDIR (build), SEXTANT ($BUILDDIR/app/sextant).

set -euo pipefail

builddir=${BUILDDIR:-build}
sextant=${SEXTANT:-$builddir/app/sextant}
[ -x "$sextant" ] || { echo "flow.sh: no $sextant (build first)" >&2; exit 1; }
[ $# -gt 0 ] || set -- 16x16x32 8x8x8x16

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for dims in "$@"; do
  for trees in 1 4 16; do
    packet=$("$sextant" sim torus --json --dims "$dims" --op allgather --trees "$trees")
    flow=$("$sextant" sim torus --json --dims "$dims" --op allgather --trees "$trees" --model flow)
    echo "$dims $trees $packet" | tr -d '\n'
    echo
    echo "$dims $trees $flow" | tr -d '\n'
    echo
  done
done | python3 -c '
import json, sys
worst = {}
lines = sys.stdin.read().splitlines()
for i in range(0, len(lines), 2):
    dims, trees, p = lines[i].split(" ", 2)
    f = json.loads(lines[i + 1].split(" ", 2)[2])
    p = json.loads(p)
    dev = {k: f[k] / p[k] - 1 for k in ("hw_ns", "p2p_ns", "ratio")}
    w = worst.setdefault(dims, {k: 0.0 for k in dev})
    for k in dev:
        if abs(dev[k]) > abs(w[k]):
            w[k] = dev[k]
    print("%-9s %5d nodes %2s trees: hardware %10.3f / %10.3f us (%+.2f %%), point-to-point %10.3f / %10.3f us "
          "(%+.2f %%), ratio %.3f / %.3f (%+.2f %%), CPU %.3f / %.3f s" % (
          dims, p["nodes"], trees, f["hw_ns"] / 1e3, p["hw_ns"] / 1e3, 100 * dev["hw_ns"], f["p2p_ns"] / 1e3,
          p["p2p_ns"] / 1e3, 100 * dev["p2p_ns"], f["ratio"], p["ratio"], 100 * dev["ratio"],
          f["model_cpu_seconds"], p["model_cpu_seconds"]))
for dims, w in worst.items():
    print("%s: worst hardware %+.2f %%, point-to-point %+.2f %%, ratio %+.2f %%" % (
          dims, 100 * w["hw_ns"], 100 * w["p2p_ns"], 100 * w["ratio"]))
'
