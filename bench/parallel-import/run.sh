#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/parallel-import/run.sh - `sextant-mpi import` on N ranks against the
# single-process `sextant import` of the same archive (docs/parallel.md)
#
#   bench/parallel-import/run.sh [-n REPS] [-r RANKS] [-e EVENTS] [-p "1 2 4"] [WORKDIR]
#
# Generates the import benchmark's stencil trace once (sextant-bench-gen,
# RANKS locations, EVENTS events; kept in WORKDIR, default
# /tmp/sextant-bench-parallel), warms the page cache with one untimed
# import, then runs REPS rounds (default 3) of: (s) the single-process
# import, (pN) `mpirun -np N sextant-mpi import` for each N of -p, in a
# rotating order so that none always runs first. Prints a Markdown table:
# median wall time, events/s, the median ratio to (s) of the same round,
# the median CPU time (user + system, all ranks together) and its ratio to
# (s)'s, the largest peak RSS of one rank (of the rounds and ranks) and the
# bytes the ranks exchanged (all, the most one rank sent, the most one
# rank received: `sextant-mpi import --stats`), then the load average
# before and after and the commands. On a shared machine the wall times
# follow what else runs; the CPU times much less. Also writes
# WORKDIR/summary.tsv, the same figures for bench/parallel-import/model.py
# (with the trace's messages and collective members: `sextant info`).
# Environment: BUILDDIR (build), SEXTANT, SEXTANT_MPI, BENCH_GEN.

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

invocation="$0 $*"
reps=3
ranks=64
events=2000000
counts="1 2 4"

usage ()
{
  sed -n '4,19s/^# \{0,1\}//p' "$0"
}

while getopts "n:r:e:p:h" opt; do
  case "$opt" in
    n) reps=$OPTARG ;;
    r) ranks=$OPTARG ;;
    e) events=$OPTARG ;;
    p) counts=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || { usage >&2; exit 2; }
# shellcheck disable=SC2086
require_positive "$reps" "$ranks" "$events" $counts

workdir=${1:-/tmp/sextant-bench-parallel}
builddir=${BUILDDIR:-build}
sextant=${SEXTANT:-$builddir/app/sextant}
sextant_mpi=${SEXTANT_MPI:-$builddir/parallel/sextant-mpi}
gen=${BENCH_GEN:-$builddir/bench/import/sextant-bench-gen}
timer=/usr/bin/time
mpirun=(timeout 600 mpirun --oversubscribe --allow-run-as-root --mca osc sm)

[ -x "$timer" ] || die "$timer not found (apt install time)"
for tool in "$gen" "$sextant" "$sextant_mpi"; do
  [ -x "$tool" ] || die "$tool is not an executable (build first, or set BUILDDIR)"
done

trace_dir=$workdir/trace-r$ranks-e$events
anchor=$trace_dir/traces.otf2
logs=$workdir/logs
mkdir -p "$workdir" "$logs"
rm -f "$logs"/*

if [ ! -f "$anchor" ]; then
  echo "generating $anchor ..." >&2
  timed generate "$gen" --ranks "$ranks" --events "$events" --force "$trace_dir"
fi

single_cmd=("$sextant" import --quiet --force -o "$workdir/single.sextant.db" "$anchor")
echo "warming the page cache ..." >&2
timed warmup "${single_cmd[@]}"
n_events=$(sqlite3 "$workdir/single.sextant.db" "SELECT value FROM meta WHERE key = 'events'")

# One parallel import on $1 ranks, each rank's "peak-RSS user sys" in $logs/$2.rss.RANK
parallel ()
{
  local n=$1 name=$2
  timed "$name" "${mpirun[@]}" -np "$n" sh -c \
    'exec /usr/bin/time -f "%M %U %S" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$logs/$name.rss" \
    "$sextant_mpi" import --stats "$anchor" -o "$workdir/p$n.sextant"
}

configs=(s)
for n in $counts; do configs+=("p$n"); done
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq 1 "$reps"); do
  echo "round $i/$reps ..." >&2
  k=${#configs[@]}
  for j in $(seq 0 $((k - 1))); do
    c=${configs[$(((i + j) % k))]}
    if [ "$c" = s ]; then
      timed "s.$i" "${single_cmd[@]}"
    else
      parallel "${c#p}" "$c.$i"
    fi
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# the messages and the collective members (a member records one MPI_COLLECTIVE_BEGIN)
"$sextant" info "$workdir/single.sextant.db" >"$logs/info.out"
n_messages=$(awk '$1 == "Messages:" { print $2 }' "$logs/info.out")
n_members=$(awk '$1 == "MPI_COLLECTIVE_BEGIN" { print $2 }' "$logs/info.out")
n_collectives=$(awk '$1 == "Collectives:" { print $2 }' "$logs/info.out")
summary=$workdir/summary.tsv
printf 'ranks\tlocations\tevents\tmessages\tcollectives\tmembers\twall_s\tcpu_s\trss_kb\texchange_cpu_s\tbytes\tmost_sent\tmost_received\n' \
  >"$summary"

echo "| import | median wall (s) | events/s | wall / single's, median of the rounds | median CPU, all ranks (s) | CPU / single's | largest RSS of a rank (MiB) | bytes exchanged (all; most from one rank; most to one rank) | CPU of the exchange, all ranks (s) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in "${configs[@]}"; do
  wall=$(for i in $(seq 1 "$reps"); do cut -d' ' -f1 "$logs/$c.$i.time"; done | median)
  ratio=$(for i in $(seq 1 "$reps"); do
            paste -d' ' "$logs/s.$i.time" "$logs/$c.$i.time" | awk '{ print $5 / $1 }'
          done | median)
  if [ "$c" = s ]; then
    cpu=$(for i in $(seq 1 "$reps"); do awk '{ print $3 + $4 }' "$logs/s.$i.time"; done | median)
    cpu_ratio=1
    rss=$(for i in $(seq 1 "$reps"); do cut -d' ' -f2 "$logs/s.$i.time"; done | largest)
    label="single process, \`sextant import\`"
    exchanged="-"
    volume="0 0 0"
    exchange_cpu=0
    n=0
  else
    rss=$(cat "$logs/$c".*.rss.* | cut -d' ' -f1 | largest)
    cpu=$(for i in $(seq 1 "$reps"); do cat "$logs/$c.$i.rss".* | awk '{ t += $2 + $3 } END { print t }'; done | median)
    cpu_ratio=$(for i in $(seq 1 "$reps"); do
                  s_cpu=$(awk '{ print $3 + $4 }' "$logs/s.$i.time")
                  cat "$logs/$c.$i.rss".* | awk -v s="$s_cpu" '{ t += $2 + $3 } END { print t / s }'
                done | median)
    label="\`sextant-mpi import\` on ${c#p} rank(s)"
    volume=$(sed -n 's/.*exchanged \([0-9]*\) bytes (the most from one rank: \([0-9]*\), to one rank: \([0-9]*\)).*/\1 \2 \3/p' \
               "$logs/$c.1.out")
    exchanged=${volume// /; }
    # the CPU the ranks' exchanges took together (--stats), median of the rounds
    exchange_cpu=$(for i in $(seq 1 "$reps"); do
                     sed -n 's/.*the exchange took \([0-9.]*\) s of CPU.*/\1/p' "$logs/$c.$i.out" | awk '{ t += $1 } END { print t }'
                   done | median)
    n=${c#p}
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$ranks" "$n_events" "$n_messages" "$n_collectives" \
    "$n_members" "$wall" "$cpu" "$rss" "$exchange_cpu" \
    "${volume// /$'\t'}" >>"$summary"
  awk -v l="$label" -v w="$wall" -v e="$n_events" -v r="$ratio" -v c="$cpu" -v cr="$cpu_ratio" -v m="$rss" \
      -v x="$exchanged" -v xc="$exchange_cpu" \
    'BEGIN { printf "| %s | %.2f | %.0f | %.2f | %.2f | %.2f | %.0f | %s | %.2f |\n", l, w, e / w, r, c, cr, m / 1024, x, xc }'
done
echo
echo "- events: $n_events; $ranks locations; $n_messages messages, $n_collectives collectives with $n_members members; $reps rounds, the imports of a round in a rotating order, warm page cache"
echo "- load average (1, 5, 15 min) before: $load_before; after: $load_after"
echo "- machine: $(nproc) CPUs, $(uname -sr)"
echo
echo '```'
echo "# BUILDDIR=$builddir $invocation"
echo "$gen --ranks $ranks --events $events --force $trace_dir"
echo "/usr/bin/time -f '%e %M %U %S' ${single_cmd[*]}"
echo "/usr/bin/time -f '%e %M %U %S' ${mpirun[*]} -np N sh -c 'exec /usr/bin/time -f \"%M %U %S\" -o \"\$0.\$OMPI_COMM_WORLD_RANK\" \"\$@\"' RSS $sextant_mpi import --stats $anchor -o $workdir/pN.sextant"
echo '```'
