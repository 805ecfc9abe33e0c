#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/import/run.sh - how fast `sextant import` is, against the libotf2 floor
#
#   bench/import/run.sh [-n REPS] [-r RANKS] [-e EVENTS] [-s SEED] [-m MIX]
#                       [-g] [-f] [-c OTHER_SEXTANT] [WORKDIR]
#
# Generates a simulated MPI trace once (sextant-bench-gen, kept in WORKDIR,
# default /tmp/sextant-bench-import, reused by later runs with the same
# parameters), reads it once untimed to warm the page cache, then alternates
# REPS times (default 5):
#   (a) sextant-bench-raw-read ANCHOR        libotf2 with empty callbacks
#   (b) $SEXTANT import ANCHOR -o DB --force  the real importer
# each under /usr/bin/time -f '%e %M %U %S' (Debian package `time`), and prints
# a Markdown table: median wall time, median CPU time (user + system), events/s,
# peak RSS (largest of the REPS), the ratio b/a (the median of the
# repetitions' own ratios, and the ratio of the medians), the database size per event
# and the load average before and after, followed by the commands. On a
# shared machine the wall times depend on what else runs; the CPU times much
# less.
#
# Options: -n REPS, -r RANKS (64), -e EVENTS (10000000), -s SEED (1),
#          -m MIX the generator's mix: stencil (default) or collectives
#             (every iteration little more than an MPI_Allreduce over all
#             ranks: --halo-every 11 --flat),
#          -g read with the merging global event reader in (a),
#          -f regenerate the trace even if it exists,
#          -c OTHER_SEXTANT also time (c) OTHER_SEXTANT import in every
#             repetition (before or after (b), in turns), for an A/B
#             comparison of two builds: adds its row and the median of the
#             repetitions' c/b.
# Environment: BUILDDIR (build), SEXTANT ($BUILDDIR/app/sextant),
#              BENCH_GEN / BENCH_RAW_READ (the tools in $BUILDDIR/bench/import).

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

invocation="$0 $*"
reps=5
ranks=64
events=10000000
seed=1
raw_flags=()
raw_label="per-location readers"
regenerate=0
other=
mix=stencil

usage ()
{
  sed -n '4,30s/^# \{0,1\}//p' "$0"
}


while getopts "n:r:e:s:m:gfc:h" opt; do
  case "$opt" in
    n) reps=$OPTARG ;;
    r) ranks=$OPTARG ;;
    e) events=$OPTARG ;;
    s) seed=$OPTARG ;;
    m) mix=$OPTARG ;;
    g) raw_flags=(--global); raw_label="global (merged) reader" ;;
    f) regenerate=1 ;;
    c) other=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || { usage >&2; exit 2; }
require_positive "$reps" "$ranks" "$events" "$seed"

workdir=${1:-/tmp/sextant-bench-import}
builddir=${BUILDDIR:-build}
sextant=${SEXTANT:-$builddir/app/sextant}
gen=${BENCH_GEN:-$builddir/bench/import/sextant-bench-gen}
raw=${BENCH_RAW_READ:-$builddir/bench/import/sextant-bench-raw-read}
timer=/usr/bin/time

[ -x "$timer" ] || die "$timer not found (apt install time)"
for tool in "$gen" "$raw" "$sextant" ${other:+"$other"}; do
  [ -x "$tool" ] || die "$tool is not an executable (build first, or set BUILDDIR / SEXTANT)"
done

case "$mix" in
  stencil) mix_flags=(); mix_tag= ;;
  collectives) mix_flags=(--halo-every 11 --flat); mix_tag=-coll ;;
  *) die "unknown mix '$mix' (stencil or collectives)" ;;
esac

trace_dir=$workdir/trace-r$ranks-e$events-s$seed$mix_tag
anchor=$trace_dir/traces.otf2
db=$workdir/import.sextant.db
logs=$workdir/logs
mkdir -p "$workdir" "$logs"




gen_cmd=("$gen" --ranks "$ranks" --events "$events" --seed "$seed" "${mix_flags[@]}" --force "$trace_dir")
raw_cmd=("$raw" "${raw_flags[@]}" "$anchor")
import_cmd=("$sextant" import "$anchor" -o "$db" --force)
other_cmd=("$other" import "$anchor" -o "$workdir/other.sextant.db" --force)

gen_seconds="(reused)"
if [ "$regenerate" = 1 ] || [ ! -f "$anchor" ]; then
  echo "generating $anchor ..." >&2
  timed generate "${gen_cmd[@]}"
  gen_seconds=$(cut -d' ' -f1 "$logs/generate.time")
fi

echo "warming the page cache ..." >&2
timed warmup "${raw_cmd[@]}"
n_events=$(awk '$1 == "events" { print $2 }' "$logs/warmup.out")
[ -n "$n_events" ] || die "no event count in $logs/warmup.out"

: >"$logs/raw.all"
: >"$logs/import.all"
: >"$logs/other.all"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq 1 "$reps"); do
  echo "repetition $i/$reps ..." >&2
  timed "raw.$i" "${raw_cmd[@]}"
  # (b) and (c) take turns at going first: neither always runs on the cache
  # the other left
  if [ -n "$other" ] && [ $((i % 2)) = 0 ]; then
    timed "other.$i" "${other_cmd[@]}"
  fi
  timed "import.$i" "${import_cmd[@]}"
  if [ -n "$other" ] && [ $((i % 2)) = 1 ]; then
    timed "other.$i" "${other_cmd[@]}"
  fi
  cat "$logs/raw.$i.time" >>"$logs/raw.all"
  cat "$logs/import.$i.time" >>"$logs/import.all"
  [ -z "$other" ] || cat "$logs/other.$i.time" >>"$logs/other.all"
  n=$(awk '$1 == "events" { print $2 }' "$logs/raw.$i.out")
  [ "$n" = "$n_events" ] || die "raw read $i saw $n events, not $n_events"
done

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
raw_wall=$(cut -d' ' -f1 "$logs/raw.all" | median)
raw_cpu=$(awk '{ print $3 + $4 }' "$logs/raw.all" | median)
raw_rss=$(cut -d' ' -f2 "$logs/raw.all" | largest)
import_wall=$(cut -d' ' -f1 "$logs/import.all" | median)
import_cpu=$(awk '{ print $3 + $4 }' "$logs/import.all" | median)
import_rss=$(cut -d' ' -f2 "$logs/import.all" | largest)
# each repetition's (b) against the (a) just before it: the machine's speed
# drifts between repetitions, less within one
pair_ratio=$(paste -d' ' "$logs/raw.all" "$logs/import.all" | awk '{ print $5 / $1 }' | median)
pair_min=$(paste -d' ' "$logs/raw.all" "$logs/import.all" | awk '{ print $5 / $1 }' | sort -g | head -1)
pair_max=$(paste -d' ' "$logs/raw.all" "$logs/import.all" | awk '{ print $5 / $1 }' | sort -g | tail -1)
db_bytes=$(stat -c %s "$db")
archive_bytes=$(du -sbL "$trace_dir" | cut -f1)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)

awk -v e="$n_events" -v rw="$raw_wall" -v rr="$raw_rss" -v iw="$import_wall" -v ir="$import_rss" \
    -v rc="$raw_cpu" -v ic="$import_cpu" \
    -v db="$db_bytes" -v ab="$archive_bytes" -v reps="$reps" -v label="$raw_label" \
    -v pr="$pair_ratio" -v pmin="$pair_min" -v pmax="$pair_max" 'BEGIN {
  printf "| step | median wall (s) | median CPU, user + sys (s) | events/s | peak RSS (MiB) |\n"
  printf "|---|---:|---:|---:|---:|\n"
  printf "| (a) raw read, libotf2 + empty callbacks, %s | %.2f | %.2f | %.0f | %.0f |\n", label, rw, rc, e / rw, rr / 1024
  printf "| (b) sextant import | %.2f | %.2f | %.0f | %.0f |\n", iw, ic, e / iw, ir / 1024
  printf "\n"
  printf "- ratio b/a: **%.2f**, the median of the repetitions\x27 ratios (each (b) against the (a) just before it; %.2f to %.2f); %.2f from the median walls\n", pr, pmin, pmax, iw / rw
  printf "- events: %d; archive: %.1f MiB (%.1f bytes/event)\n", e, ab / 1048576, ab / e
  printf "- database: %.1f MiB, **%.1f bytes/event**\n", db / 1048576, db / e
  printf "- %d repetitions, alternating (a) and (b), warm page cache; peak RSS is the largest of the repetitions\n", reps
}'
if [ -n "$other" ]; then
  other_wall=$(cut -d' ' -f1 "$logs/other.all" | median)
  other_cpu=$(awk '{ print $3 + $4 }' "$logs/other.all" | median)
  other_rss=$(cut -d' ' -f2 "$logs/other.all" | largest)
  other_ratio=$(paste -d' ' "$logs/raw.all" "$logs/other.all" | awk '{ print $5 / $1 }' | median)
  cb_ratio=$(paste -d' ' "$logs/import.all" "$logs/other.all" | awk '{ print $5 / $1 }' | median)
  cb_cpu=$(paste -d' ' "$logs/import.all" "$logs/other.all" | awk '{ print ($7 + $8) / ($3 + $4) }' | median)
  awk -v e="$n_events" -v w="$other_wall" -v c="$other_cpu" -v r="$other_rss" \
      -v ra="$other_ratio" -v cb="$cb_ratio" -v cc="$cb_cpu" -v bin="$other" 'BEGIN {
    printf "- (c) %s import: median wall %.2f s, CPU %.2f s, %.0f events/s, peak RSS %.0f MiB; c/a %.2f\n", bin, w, c, e / w, r / 1024, ra
    printf "- **c/b: %.3f** wall, %.3f CPU (medians of the repetitions\x27 own ratios)\n", cb, cc
  }'
fi
echo "- load average (1, 5, 15 min) before: $load_before; after: $load_after"
echo "- trace generation: $gen_seconds s"
echo "- machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(uname -sr)"
echo
echo "Commands:"
echo
echo '```'
echo "# BUILDDIR=$builddir SEXTANT=$sextant $invocation"
echo "${gen_cmd[*]}"
echo "/usr/bin/time -f '%e %M %U %S' ${raw_cmd[*]}"
echo "/usr/bin/time -f '%e %M %U %S' ${import_cmd[*]}"
[ -z "$other" ] || echo "/usr/bin/time -f '%e %M %U %S' ${other_cmd[*]}"
echo '```'
