#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/trees/run.sh - how long the tree of a collective takes on a large trace
#
#   bench/trees/run.sh [-n REPS] [-r RANKS] [-e EVENTS] [-s SEED] [-x STORE]... [WORKDIR]
#
# Generates the simulated MPI trace of bench/import (sextant-bench-gen, kept
# in WORKDIR, default /tmp/sextant-bench-trees), imports it once, then runs
# sextant-bench-trees on the store: the listing of every collective,
# sextant_graph_collective_at() at REPS points, and the tree of the first,
# middle and last collective of each operation (BARRIER, BCAST, ALLREDUCE)
# plus the first, middle and last halo_exchange visit as an exchange, each
# built once cold and REPS times warm (default 9), in a C program so that
# no command-line start-up is counted. Each -x STORE (a onecoll recording,
# say build/demo/bcast.sextant.db) is timed the same way.
#
# Options: -n REPS, -r RANKS (64), -e EVENTS (10000000), -s SEED (1),
#          -x STORE also time this store (repeatable).
# Environment: BUILDDIR (build), SEXTANT ($BUILDDIR/app/sextant),
#              BENCH_GEN ($BUILDDIR/bench/import/sextant-bench-gen),
#              BENCH_TREES ($BUILDDIR/bench/trees/sextant-bench-trees).

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

reps=9
ranks=64
events=10000000
seed=1
stores=()

usage ()
{
  sed -n '4,21s/^# \{0,1\}//p' "$0"
}

while getopts "n:r:e:s:x:h" opt; do
  case "$opt" in
    n) reps=$OPTARG ;;
    r) ranks=$OPTARG ;;
    e) events=$OPTARG ;;
    s) seed=$OPTARG ;;
    x) stores+=("$OPTARG") ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || { usage >&2; exit 2; }
workdir=${1:-/tmp/sextant-bench-trees}
require_positive "$reps" "$ranks" "$events" "$seed"

builddir=${BUILDDIR:-build}
sextant=${SEXTANT:-$builddir/app/sextant}
gen=${BENCH_GEN:-$builddir/bench/import/sextant-bench-gen}
bench=${BENCH_TREES:-$builddir/bench/trees/sextant-bench-trees}
timer=/usr/bin/time

[ -x "$timer" ] || die "$timer not found (apt install time)"
for tool in "$gen" "$sextant" "$bench"; do
  [ -x "$tool" ] || die "$tool is not an executable (build first, or set BUILDDIR)"
done

trace_dir=$workdir/trace-r$ranks-e$events-s$seed
anchor=$trace_dir/traces.otf2
db=$workdir/r$ranks-e$events-s$seed.sextant.db
logs=$workdir/logs
mkdir -p "$workdir" "$logs"

if [ ! -f "$anchor" ]; then
  echo "generating $anchor ..." >&2
  timed generate "$gen" --ranks "$ranks" --events "$events" --seed "$seed" --force "$trace_dir"
fi
echo "importing ..." >&2
timed import "$sextant" import -q "$anchor" -o "$db"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$bench" -n "$reps" -r halo_exchange "$db"
for store in "${stores[@]}"; do
  echo
  "$bench" -n "$reps" "$store"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: $0 -n $reps -r $ranks -e $events -s $seed${stores[*]:+ -x ${stores[*]}} $workdir"
