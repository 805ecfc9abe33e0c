#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/sim/run.sh - the torus model's run time and memory
#
#   bench/sim/run.sh [-n REPS] [-b BEFORE] [-g] [-a] [-f] [WORKDIR]
#
# Runs `sextant sim torus` REPS times (default 5) for a broadcast and an
# all-reduce of one 256-byte packet on 8192 nodes (16x16x32, 8x8x8x16) and
# 32768 nodes (32x32x32, 8x8x16x32), an all-gather over 16 trees on 2048
# and 8192 nodes, and a 32768-node broadcast with --trace; prints per case
# the model's CPU seconds (its own figure, --json), the process's wall and
# user seconds and peak RSS (/usr/bin/time), medians. With -b, every case
# also with the executable BEFORE, its runs interleaved with this build's
# (a row "(before)" above each case), for a before/after comparison on a
# shared machine. With -a, the all-gather of 32768 nodes (32x32x32) once
# (minutes each, with -b BEFORE too). With -g and SimGrid built
# (bench/sim/sextant-bench-sim-simgrid), the point-to-point broadcast of
# 8192 and 32768 nodes in SimGrid against the model, once each. With -f,
# only the all-gathers: the packet model on 2048 and 8192 nodes and the
# flow model (--model flow) on 8192, 32768 and 65536 nodes (64x32x32; the
# packet model refuses it).
#
# Environment: BUILDDIR (build), SEXTANT ($BUILDDIR/app/sextant).

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

reps=5
simgrid=0
before=
allgather32k=0
allgather_only=0
while getopts "n:b:gaf" opt; do
  case $opt in
    n) reps=$OPTARG ;;
    b) before=$OPTARG ;;
    g) simgrid=1 ;;
    a) allgather32k=1 ;;
    f) allgather_only=1 ;;
    *) die "usage: run.sh [-n REPS] [-b BEFORE] [-g] [-a] [-f] [WORKDIR]" ;;
  esac
done
shift $((OPTIND - 1))
require_positive "$reps"

builddir=${BUILDDIR:-build}
sextant=${SEXTANT:-$builddir/app/sextant}
simgrid_bench=$builddir/bench/sim/sextant-bench-sim-simgrid
workdir=${1:-/tmp/sextant-bench-sim}
logs=$workdir/logs
timer=/usr/bin/time
mkdir -p "$logs"
[ -x "$sextant" ] || die "no $sextant (build first)"
[ -z "$before" ] || [ -x "$before" ] || die "no executable $before"

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-34s %7s %10s %9s %9s %9s %8s\n' case nodes events model_s wall_s user_s rss_MiB

# One row: the medians of the runs of executable $1 logged as $2-0, $2-1, ...
print_row ()
{
  local label=$1 name=$2 i w r u model=() wall=() user=() rss=() events nodes
  for ((i = 0; i < reps; i++)); do
    read -r w r u _ < "$logs/$name-$i.time"
    wall+=("$w"); user+=("$u"); rss+=("$r")
    model+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["model_cpu_seconds"])' "$logs/$name-$i.out")")
  done
  events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$logs/$name-0.out")
  nodes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nodes"])' "$logs/$name-0.out")
  printf '%-34s %7s %10s %9.4f %9.2f %9.2f %8.1f\n' "$label" "$nodes" "$events" \
    "$(printf '%s\n' "${model[@]}" | median)" "$(printf '%s\n' "${wall[@]}" | median)" \
    "$(printf '%s\n' "${user[@]}" | median)" "$(printf '%s\n' "${rss[@]}" | median | awk '{ print $1 / 1024 }')"
}

# Runs a case REPS times (interleaved with BEFORE's runs when -b), prints its rows
bench_case ()
{
  local name=$1 i
  shift
  for ((i = 0; i < reps; i++)); do
    if [ -n "$before" ]; then
      [ "$1" != "--trace" ] || rm -rf "$workdir/trace"
      timed "$name-before-$i" "$before" sim torus --json "$@"
    fi
    [ "$1" != "--trace" ] || rm -rf "$workdir/trace"
    timed "$name-$i" "$sextant" sim torus --json "$@"
  done
  if [ -n "$before" ]; then
    print_row "$name (before)" "$name-before"
  fi
  print_row "$name" "$name"
}

if [ "$allgather_only" = 0 ]; then
bench_case bcast-16x16x32      --dims 16x16x32 --op bcast
bench_case allreduce-16x16x32  --dims 16x16x32 --op allreduce
bench_case bcast-8x8x8x16      --dims 8x8x8x16 --op bcast
bench_case allreduce-8x8x8x16  --dims 8x8x8x16 --op allreduce
bench_case bcast-32x32x32      --dims 32x32x32 --op bcast
bench_case allreduce-32x32x32  --dims 32x32x32 --op allreduce
bench_case bcast-8x8x16x32     --dims 8x8x16x32 --op bcast
bench_case allreduce-8x8x16x32 --dims 8x8x16x32 --op allreduce
bench_case allreduce-64k-16x16x32 --dims 16x16x32 --op allreduce --bytes 65536
fi
bench_case allgather-8x8x8x4   --dims 8x8x8x4 --op allgather
bench_case allgather-16x16x32  --dims 16x16x32 --op allgather
bench_case allgather-flow-16x16x32 --dims 16x16x32 --op allgather --model flow
bench_case allgather-flow-32x32x32 --dims 32x32x32 --op allgather --model flow
bench_case allgather-flow-64x32x32 --dims 64x32x32 --op allgather --model flow
[ "$allgather_only" = 1 ] || reps=1 bench_case trace-bcast-32x32x32 --trace "$workdir/trace" --dims 32x32x32 --op bcast
if [ "$allgather32k" = 1 ]; then
  reps=1 bench_case allgather-32x32x32 --dims 32x32x32 --op allgather
fi

if [ "$simgrid" = 1 ]; then
  [ -x "$simgrid_bench" ] || die "no $simgrid_bench (SimGrid not found at configure time)"
  for dims in 16x16x32 8x8x8x16 32x32x32 8x8x16x32; do
    timed "simgrid-$dims" "$simgrid_bench" "$dims" --cfg=network/model:CM02 --cfg=contexts/stack-size:64 \
      --cfg=contexts/guard-size:0 --log=root.thres:warning
    read -r w r u _ < "$logs/simgrid-$dims.time"
    echo "simgrid $dims: $(tail -n 1 "$logs/simgrid-$dims.out") wall ${w} s, user ${u} s, RSS $((r / 1024)) MiB"
  done
fi
