#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/analysis/run.sh - how long `sextant analyze` takes on a large trace
#
#   bench/analysis/run.sh [-n REPS] [-r RANKS] [-e EVENTS] [-s SEED] [-b SEXTANT] [WORKDIR]
#
# Generates the simulated MPI trace of bench/import (sextant-bench-gen, kept
# in WORKDIR, default /tmp/sextant-bench-analysis), imports it once, then
# runs `$SEXTANT analyze --no-user-patterns DB` REPS times (default 5), each
# under /usr/bin/time (Debian package `time`), and prints a Markdown table:
# median wall time, median CPU time (user + system), peak RSS (largest of the
# REPS) and the number of instances.
#
# With -b SEXTANT (another build, e.g. of an older commit) both binaries run,
# alternating, each on a store it imported itself, and the table gets a row
# for each and the ratio of the medians: compare builds side by side in one
# run, on a shared machine.
#
# Options: -n REPS, -r RANKS (64), -e EVENTS (10000000), -s SEED (1),
#          -b SEXTANT baseline binary.
# Environment: BUILDDIR (build), SEXTANT ($BUILDDIR/app/sextant),
#              BENCH_GEN ($BUILDDIR/bench/import/sextant-bench-gen).

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

invocation="$0 $*"
reps=5
ranks=64
events=10000000
seed=1
baseline=

usage ()
{
  sed -n '4,25s/^# \{0,1\}//p' "$0"
}


while getopts "n:r:e:s:b:h" opt; do
  case "$opt" in
    n) reps=$OPTARG ;;
    r) ranks=$OPTARG ;;
    e) events=$OPTARG ;;
    s) seed=$OPTARG ;;
    b) baseline=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || { usage >&2; exit 2; }
require_positive "$reps" "$ranks" "$events" "$seed"

workdir=${1:-/tmp/sextant-bench-analysis}
builddir=${BUILDDIR:-build}
sextant=${SEXTANT:-$builddir/app/sextant}
gen=${BENCH_GEN:-$builddir/bench/import/sextant-bench-gen}
timer=/usr/bin/time

[ -x "$timer" ] || die "$timer not found (apt install time)"
for tool in "$gen" "$sextant" ${baseline:+"$baseline"}; do
  [ -x "$tool" ] || die "$tool is not an executable (build first, or set BUILDDIR / SEXTANT)"
done

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
trace_dir=$workdir/trace-r$ranks-e$events-s$seed
anchor=$trace_dir/traces.otf2
logs=$workdir/logs
mkdir -p "$workdir" "$logs"



if [ ! -f "$anchor" ]; then
  echo "generating $anchor ..." >&2
  timed generate "$gen" --ranks "$ranks" --events "$events" --seed "$seed" --force "$trace_dir"
fi

# name -> binary; the baseline first, so that it is not the one that runs
# on a cooler machine
names=(current)
declare -A binary=([current]=$sextant)
if [ -n "$baseline" ]; then
  names=(baseline current)
  binary[baseline]=$baseline
fi

for name in "${names[@]}"; do
  echo "importing with $name ..." >&2
  timed "import-$name" "${binary[$name]}" import -q "$anchor" -o "$workdir/$name.sextant.db" --force
  : >"$logs/$name.all"
done

for i in $(seq 1 "$reps"); do
  for name in "${names[@]}"; do
    echo "repetition $i/$reps: $name ..." >&2
    timed "$name.$i" "${binary[$name]}" analyze --no-user-patterns "$workdir/$name.sextant.db"
    cat "$logs/$name.$i.time" >>"$logs/$name.all"
  done
done

printf "| build | median wall (s) | median CPU (s) | peak RSS (MiB) | instances |\n"
printf "|---|---:|---:|---:|---:|\n"
for name in "${names[@]}"; do
  wall=$(cut -d' ' -f1 "$logs/$name.all" | median)
  cpu=$(awk '{ print $3 + $4 }' "$logs/$name.all" | median)
  rss=$(cut -d' ' -f2 "$logs/$name.all" | largest)
  instances=$(awk '$1 ~ /^[a-z_]+$/ && $4 ~ /^[0-9]+$/ { n += $4 } END { print n + 0 }' "$logs/$name.$reps.out")
  printf "| %s (%s) | %.2f | %.2f | %.0f | %d |\n" "$name" "${binary[$name]}" "$wall" "$cpu" "$((rss / 1024))" \
    "$instances"
  echo "$wall $cpu" >"$logs/$name.median"
done
if [ -n "$baseline" ]; then
  read -r bw bc <"$logs/baseline.median"
  read -r cw cc <"$logs/current.median"
  awk -v bw="$bw" -v bc="$bc" -v cw="$cw" -v cc="$cc" 'BEGIN {
    printf "\n- current / baseline: wall %.2f, CPU %.2f\n", cw / bw, cc / bc }'
fi
echo "- $reps repetitions$([ -n "$baseline" ] && echo ", alternating"); peak RSS is the largest of them"
echo "- load average (1, 5, 15 min) before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(uname -sr)"
echo
echo "Command: \`BUILDDIR=$builddir SEXTANT=$sextant $invocation\`"
