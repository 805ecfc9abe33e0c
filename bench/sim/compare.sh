#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/sim/compare.sh - the same runs of two `sextant` builds, result by result
#
#   bench/sim/compare.sh BEFORE AFTER
#
# Runs `sextant sim torus --json` of both executables for every op on
# several tori, sizes, tree counts, transit nodes and parameter sets, and
# compares what the model computed: the hardware and point-to-point times,
# the ratio, the event count and, with --trace, every node's end times as
# the trace's event counts. Prints one line per case and exits 1 when any
# differs (a change to the model's event handling must not change a result).

set -euo pipefail

[ $# -eq 2 ] || { echo "usage: compare.sh BEFORE AFTER" >&2; exit 2; }
before=$1
after=$2
differ=0
cases=0

run ()
{
  "$1" sim torus --json "${@:2}" |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["hw_ns"], j["p2p_ns"], j["ratio"], j["events"])'
}

check ()
{
  local a b
  a=$(run "$before" "$@")
  b=$(run "$after" "$@")
  cases=$((cases + 1))
  if [ "$a" = "$b" ]; then
    echo "same     $* : $a"
  else
    echo "DIFFERENT $* : before $a, after $b"
    differ=1
  fi
}

for dims in 2x2x2 3x5x7 4x4x4 8x8x8 2x2 5x3 4x4x4x4 8x8x8x2 16x16x8; do
  for op in bcast reduce allreduce allgather; do
    n=$(python3 -c "import math; print(math.prod(int(x) for x in '$dims'.split('x')))")
    if [ "$op" = allgather ] && [ $((n & (n - 1))) -ne 0 ]; then
      continue
    fi
    check --dims "$dims" --op "$op"
    check --dims "$dims" --op "$op" --bytes 1000 --root $((n / 3))
    check --dims "$dims" --op "$op" --trees 4 --store-and-forward
    check --dims "$dims" --op "$op" --host-overhead 100 --router-cycles 3 --link-latency 80.5
    check --dims "$dims" --op "$op" --link-latency 80.001
  done
done
check --dims 8x8x8 --op allreduce --bytes 65536
check --dims 8x8x8 --op bcast --bytes 65536 --transit 1,2,3,100
check --dims 8x8x8 --op allreduce --bytes 20000 --transit 5,6,7 --trees 3
check --dims 8x8x8x4 --op allgather
check --dims 8x8x8x4 --op allgather --bytes 600 --trees 7
check --dims 16x16x32 --op allreduce --bytes 65536

echo "$cases cases, $([ $differ = 0 ] && echo all the same || echo SOME DIFFER)"
exit $differ
