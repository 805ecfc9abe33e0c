#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/parallel-import/crossing.sh - what a message between ranks costs a
# parallel import more than a message within a rank
#
#   bench/parallel-import/crossing.sh [-n REPS] [-r RANKS] WORKDIR ARCHIVE...
#
# For each ARCHIVE (an anchor file, e.g. sextant-bench-gen's traces.otf2),
# REPS rounds (default 5) of three imports in an order that rotates from
# round to round: `sextant-mpi import --stats` on one rank, on RANKS ranks
# (default 2) with the processes in runs (the importer's deal: neighbours
# share a rank), and on RANKS ranks with the processes dealt out one by one
# (SEXTANT_SHARE_CYCLIC: on a stencil, neighbours cross). Each rank runs
# under its own /usr/bin/time. The two deals import the same events, the
# same collectives and the same number of locations a rank; they differ in
# the messages that cross, so the difference of their CPU in a round over
# the difference of their halves is what a crossing half costs (c_h) and
# nothing else. Writes WORKDIR/crossing.tsv, one row per archive and
# import: the median CPU (user + system, all ranks together), the median of
# each round's CPU minus the one-rank import's of that round (the extra),
# the median of each round's cyclic CPU minus its blocks CPU (cyclic rows),
# the exchange's CPU (--stats), the message halves the ranks sent one
# another (each rank's debug line "sends N message halves") and the
# collective instances between ranks the ranks combined ("N collective
# instances between ranks combined"). model.py --crossing fits c_h and the
# exchange's CPU on its rows (docs/benchmarks.md, "What a message between
# ranks costs"). Prints the table and the load average. Environment:
# BUILDDIR (build).

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

invocation="$0 $*"
reps=5
ranks=2
while getopts "n:r:h" opt; do
  case "$opt" in
    n) reps=$OPTARG ;;
    r) ranks=$OPTARG ;;
    h) sed -n '4,29s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || die "usage: crossing.sh [-n REPS] [-r RANKS] WORKDIR ARCHIVE..."
require_positive "$reps" "$ranks"
[ "$ranks" -ge 2 ] || die "-r: two ranks or more"

workdir=$1
shift
builddir=${BUILDDIR:-build}
sextant_mpi=$builddir/parallel/sextant-mpi
# shellcheck disable=SC2034  # lib.sh's timed() runs it
timer=/usr/bin/time
mpirun=(timeout 600 mpirun --oversubscribe --allow-run-as-root --mca osc sm)
logs=$workdir/logs
mkdir -p "$logs"
rm -f "$logs"/*

# one: a single rank; blocks: RANKS ranks, the importer's deal; cyclic:
# RANKS ranks, the processes dealt out one by one
configs=(one blocks cyclic)
tsv=$workdir/crossing.tsv
printf 'archive\tranks\tdeal\tcpu_s\textra_cpu_s\tover_blocks_cpu_s\texchange_cpu_s\thalves\tinstances\n' >"$tsv"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# the sum over the ranks of the number in the debug lines of $1 that match
# the sed expression $2
sum_ranks ()
{
  sed -n "$2" "$1" | awk '{ t += $1 } END { print t + 0 }'
}

k=0
for anchor in "$@"; do
  k=$((k + 1))
  for i in $(seq 1 "$reps"); do
    for j in 0 1 2; do
      c=${configs[$(((i + j) % 3))]}
      name=$k.$c.$i
      n=$ranks
      [ "$c" = one ] && n=1
      rm -rf "$workdir/p.$k.sextant" "$workdir/p.$k.sextant.shards"
      (
        [ "$c" != cyclic ] || export SEXTANT_SHARE_CYCLIC=1
        G_MESSAGES_DEBUG=Sextant-Trace timed "$name" "${mpirun[@]}" -np "$n" sh -c \
          'exec /usr/bin/time -f "%U %S" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$logs/$name.rank" \
          "$sextant_mpi" import --stats "$anchor" -o "$workdir/p.$k.sextant"
      )
      cat "$logs/$name.rank".* | awk '{ t += $1 + $2 } END { print t }' >"$logs/$name.cpu"
    done
  done
  rm -rf "$workdir/p.$k.sextant" "$workdir/p.$k.sextant.shards"
  for c in "${configs[@]}"; do
    n=$ranks
    [ "$c" = one ] && n=1
    cpu=$(cat "$logs/$k.$c".*.cpu | median)
    extra=$(for i in $(seq 1 "$reps"); do
              paste "$logs/$k.$c.$i.cpu" "$logs/$k.one.$i.cpu" | awk '{ print $1 - $2 }'
            done | median)
    xcpu=$(for i in $(seq 1 "$reps"); do
             sum_ranks "$logs/$k.$c.$i.out" 's/.*the exchange took \([0-9.]*\) s of CPU.*/\1/p'
           done | median)
    halves=$(sum_ranks "$logs/$k.$c.1.out" 's/.*sends \([0-9]*\) message halves.*/\1/p')
    instances=$(sum_ranks "$logs/$k.$c.1.out" 's/.*: \([0-9]*\) collective instances between ranks combined.*/\1/p')
    # the cyclic deal's CPU over the importer's deal's, round by round
    over=0
    if [ "$c" = cyclic ]; then
      over=$(for i in $(seq 1 "$reps"); do
               paste "$logs/$k.cyclic.$i.cpu" "$logs/$k.blocks.$i.cpu" | awk '{ print $1 - $2 }'
             done | median)
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$anchor" "$n" "$c" "$cpu" "$extra" "$over" "$xcpu" "$halves" \
      "$instances" >>"$tsv"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

column -t -s $'\t' "$tsv"
echo
echo "- $reps rounds per archive, the imports of a round in a rotating order, warm page cache"
echo "- load average (1, 5, 15 min) before: $load_before; after: $load_after; $(nproc) CPUs"
echo "- BUILDDIR=$builddir $invocation"
