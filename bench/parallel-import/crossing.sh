#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/parallel-import/crossing.sh - what a message between ranks costs a
# parallel import more than in the single-process import
#
#   bench/parallel-import/crossing.sh [-n REPS] [-p "1 2 4"] WORKDIR ARCHIVE...
#
# For each ARCHIVE (an anchor file, e.g. sextant-bench-gen's traces.otf2),
# REPS rounds (default 5) of: the single-process `sextant import` and
# `mpirun -np N sextant-mpi import --stats` for each N of -p, in an order
# that rotates from round to round; each rank under its own
# /usr/bin/time. Writes WORKDIR/crossing.tsv, one row per archive and
# import: the median CPU (user + system, all ranks together), the median
# of each round's CPU minus the single import's of that round (the extra),
# the exchange's CPU (--stats), and what crossed: the message halves the
# ranks sent one another (each rank's debug line "sends N message halves")
# and the collective members they sent (the copies: the bytes less the
# halves', the parts' headers, the locations they name (4 bytes each) and
# the allreduce of the number of blocks, 112 bytes a member). model.py --crossing
# fits on its rows what a crossing half and a member cost (docs/benchmarks.md,
# "What a message between ranks costs"). Prints the table and the load
# average. Environment: BUILDDIR (build).

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

invocation="$0 $*"
reps=5
counts="1 2 4"
while getopts "n:p:h" opt; do
  case "$opt" in
    n) reps=$OPTARG ;;
    p) counts=$OPTARG ;;
    h) sed -n '4,22s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || die "usage: crossing.sh [-n REPS] [-p \"1 2 4\"] WORKDIR ARCHIVE..."
# shellcheck disable=SC2086
require_positive "$reps" $counts

workdir=$1
shift
builddir=${BUILDDIR:-build}
sextant=$builddir/app/sextant
sextant_mpi=$builddir/parallel/sextant-mpi
# shellcheck disable=SC2034  # lib.sh's timed() runs it
timer=/usr/bin/time
mpirun=(timeout 600 mpirun --oversubscribe --allow-run-as-root --mca osc sm)
logs=$workdir/logs
mkdir -p "$logs"
rm -f "$logs"/*
# the member and header sizes on the wire (trace/sextant-import-share.c; the
# halves' bytes, one or two 64-byte records each, trace/sextant-half-wire.h,
# each rank says)
member_bytes=112
header_bytes=32
location_bytes=4
blocks_bytes=16

configs=(s)
for n in $counts; do configs+=("p$n"); done
tsv=$workdir/crossing.tsv
printf 'archive\tranks\tcpu_s\textra_cpu_s\texchange_cpu_s\thalves\tmembers\n' >"$tsv"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
k=0
for anchor in "$@"; do
  k=$((k + 1))
  timed "warm.$k" "$sextant" import --quiet --force -o "$workdir/single.$k.sextant.db" "$anchor"
  for i in $(seq 1 "$reps"); do
    m=${#configs[@]}
    for j in $(seq 0 $((m - 1))); do
      c=${configs[$(((i + j) % m))]}
      name=$k.$c.$i
      if [ "$c" = s ]; then
        timed "$name" "$sextant" import --quiet --force -o "$workdir/single.$k.sextant.db" "$anchor"
        awk '{ print $3 + $4 }' "$logs/$name.time" >"$logs/$name.cpu"
      else
        G_MESSAGES_DEBUG=Sextant-Trace timed "$name" "${mpirun[@]}" -np "${c#p}" sh -c \
          'exec /usr/bin/time -f "%U %S" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$logs/$name.rank" \
          "$sextant_mpi" import --stats "$anchor" -o "$workdir/p.$k.sextant"
        cat "$logs/$name.rank".* | awk '{ t += $1 + $2 } END { print t }' >"$logs/$name.cpu"
      fi
    done
  done
  for c in "${configs[@]}"; do
    cpu=$(cat "$logs/$k.$c".*.cpu | median)
    extra=$(for i in $(seq 1 "$reps"); do
              paste "$logs/$k.$c.$i.cpu" "$logs/$k.s.$i.cpu" | awk '{ print $1 - $2 }'
            done | median)
    if [ "$c" = s ]; then
      n=0 xcpu=0 halves=0 members=0
    else
      n=${c#p}
      xcpu=$(for i in $(seq 1 "$reps"); do
               sed -n 's/.*the exchange took \([0-9.]*\) s of CPU.*/\1/p' "$logs/$k.$c.$i.out" |
                 awk '{ t += $1 } END { print t }'
             done | median)
      halves=$(sed -n 's/.*sends \([0-9]*\) message halves.*/\1/p' "$logs/$k.$c.1.out" | awk '{ t += $1 } END { print t + 0 }')
      bytes=$(sed -n 's/.*the ranks exchanged \([0-9]*\) bytes.*/\1/p' "$logs/$k.$c.1.out")
      half_bytes=$(sed -n 's/.*message halves in \([0-9]*\) bytes.*/\1/p' "$logs/$k.$c.1.out" | awk '{ t += $1 } END { print t + 0 }')
      # a build before the compact records: 120 bytes a half
      if [ "$half_bytes" = 0 ]; then half_bytes=$((120 * halves)); fi
      locations=$(sed -n 's/.*naming \([0-9]*\) locations.*/\1/p' "$logs/$k.$c.1.out" | awk '{ t += $1 } END { print t + 0 }')
      members=$(( (bytes - half_bytes - header_bytes * n * (n - 1) - location_bytes * locations -
                   blocks_bytes * (n - 1)) / member_bytes ))
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$anchor" "$n" "$cpu" "$extra" "$xcpu" "$halves" "$members" >>"$tsv"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

column -t -s $'\t' "$tsv"
echo
echo "- $reps rounds per archive, the imports of a round in a rotating order, warm page cache"
echo "- load average (1, 5, 15 min) before: $load_before; after: $load_after; $(nproc) CPUs"
echo "- BUILDDIR=$builddir $invocation"
