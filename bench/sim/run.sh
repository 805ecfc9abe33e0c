#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/sim/run.sh - the torus model's run time and memory
#
#   bench/sim/run.sh [-n REPS] [-g] [WORKDIR]
#
# Runs `sextant sim torus` REPS times (default 5) for a broadcast and an
# all-reduce of one 256-byte packet on 8192 nodes (16x16x32, 8x8x8x16) and
# 32768 nodes (32x32x32, 8x8x16x32), an all-gather over 16 trees on 2048
# and 8192 nodes, and a 32768-node broadcast with --trace; prints per case
# the model's CPU seconds (its own figure, --json), the process's wall and
# user seconds and peak RSS (/usr/bin/time), medians. With -g and SimGrid
# built (bench/sim/sextant-bench-sim-simgrid), the point-to-point broadcast
# of 8192 and 32768 nodes in SimGrid against the model, once each.
#
# Environment: BUILDDIR (build), SEXTANT ($BUILDDIR/app/sextant).

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

reps=5
simgrid=0
while getopts "n:g" opt; do
  case $opt in
    n) reps=$OPTARG ;;
    g) simgrid=1 ;;
    *) die "usage: run.sh [-n REPS] [-g] [WORKDIR]" ;;
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

echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-34s %7s %10s %9s %9s %9s %8s\n' case nodes events model_s wall_s user_s rss_MiB

bench_case ()
{
  local name=$1
  shift
  local i model=() wall=() user=() rss=() events=0 nodes=0
  for ((i = 0; i < reps; i++)); do
    [ "$1" != "--trace" ] || rm -rf "$workdir/trace"
    timed "$name" "$sextant" sim torus --json "$@"
    read -r w r u _ < "$logs/$name.time"
    wall+=("$w"); user+=("$u"); rss+=("$r")
    model+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["model_cpu_seconds"])' "$logs/$name.out")")
    events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$logs/$name.out")
    nodes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nodes"])' "$logs/$name.out")
  done
  printf '%-34s %7s %10s %9.4f %9.2f %9.2f %8.1f\n' "$name" "$nodes" "$events" \
    "$(printf '%s\n' "${model[@]}" | median)" "$(printf '%s\n' "${wall[@]}" | median)" \
    "$(printf '%s\n' "${user[@]}" | median)" "$(printf '%s\n' "${rss[@]}" | median | awk '{ print $1 / 1024 }')"
}

bench_case bcast-16x16x32      --dims 16x16x32 --op bcast
bench_case allreduce-16x16x32  --dims 16x16x32 --op allreduce
bench_case bcast-8x8x8x16      --dims 8x8x8x16 --op bcast
bench_case allreduce-8x8x8x16  --dims 8x8x8x16 --op allreduce
bench_case bcast-32x32x32      --dims 32x32x32 --op bcast
bench_case allreduce-32x32x32  --dims 32x32x32 --op allreduce
bench_case bcast-8x8x16x32     --dims 8x8x16x32 --op bcast
bench_case allreduce-8x8x16x32 --dims 8x8x16x32 --op allreduce
bench_case allreduce-64k-16x16x32 --dims 16x16x32 --op allreduce --bytes 65536
bench_case allgather-8x8x8x4   --dims 8x8x8x4 --op allgather
reps=1 bench_case allgather-16x16x32  --dims 16x16x32 --op allgather
reps=1 bench_case trace-bcast-32x32x32 --trace "$workdir/trace" --dims 32x32x32 --op bcast

if [ "$simgrid" = 1 ]; then
  [ -x "$simgrid_bench" ] || die "no $simgrid_bench (SimGrid not found at configure time)"
  for dims in 16x16x32 8x8x8x16 32x32x32 8x8x16x32; do
    timed "simgrid-$dims" "$simgrid_bench" "$dims" --cfg=network/model:CM02 --cfg=contexts/stack-size:64 \
      --cfg=contexts/guard-size:0 --log=root.thres:warning
    read -r w r u _ < "$logs/simgrid-$dims.time"
    echo "simgrid $dims: $(tail -n 1 "$logs/simgrid-$dims.out") wall ${w} s, user ${u} s, RSS $((r / 1024)) MiB"
  done
fi
