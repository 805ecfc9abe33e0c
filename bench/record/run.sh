#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/record/run.sh - what the recorder adds to an MPI call, side by side
#
#   bench/record/run.sh [-n REPS] [-N ROUND_TRIPS] [-b MIB] [-c OTHER_LIB] [-j]
#                       [-g] [-l ITERS] [-s] [WORKDIR]
#
# Runs sextant-bench-record (bench/record/sextant-bench-record.c) under
# Open MPI, interleaved, REPS times (default 7):
#   bare          not recorded
#   cp8           recorded by this build's libsextant-record.so, call paths
#                 of 8 frames (the default)
#   cp0           the same, call site only (SEXTANT_RECORD_CALLPATH=0)
#   nojournal     with -j: cp8 without the crash journal
#                 (SEXTANT_RECORD_JOURNAL=0: event chunks in anonymous memory)
#   other         with -c: recorded by OTHER_LIB (another build's
#                 libsextant-record.so, for an A/B comparison), call paths
#                 of 8 frames
# for three kernels, each process timing 100 short runs of its kernel after
# a warm-up: pingpong (2 ranks, runs of N/100 round trips of one int, N =
# ROUND_TRIPS, default 100000 as in the issue: 100000 round trips in all),
# iprobe (1 rank, runs of N/10 MPI_Iprobe) and isend (2 ranks, runs of N/100
# Irecv+Isend+Waitall). It prints a Markdown table: per configuration the
# median over the repetitions of each process's best run (wall and CPU time
# - user + system of rank 0's main thread - per operation) and of its median
# run, and the recorder's addition per MPI call: (value - bare value) / MPI
# calls per operation and rank (2 for pingpong, 1 for iprobe, 3 for isend),
# and the page faults of rank 0's main thread per 1000 MPI calls in the
# timed runs (a recorder's event memory that is not ready shows there).
# On a loaded 2-core machine a ping-pong's wall time is mostly the
# scheduler (a rank waits for its partner to get a core back); the best of
# many short runs is the run nobody interrupted. The mean CPU time of the
# runs includes the recorder's flushes of its buffer to disk: the recorded
# runs use SEXTANT_RECORD_BUFFER=MIB (-b, default 1), so that they flush
# within the timed runs as a long run does (a 16 MiB buffer fills after
# about 370,000 calls).
#
# -g   also count instructions with valgrind's callgrind (deterministic,
#      unaffected by the load): the iprobe kernel, 100000 calls, recorded by
#      each library, and what each part of the recorded call costs.
# -l ITERS  also the long run for the memory bound: the long kernel on 1
#      rank (11 recorded calls per iteration, from 55 call paths), ITERS
#      iterations (1000000: 11 million calls), bare and recorded, and the
#      resident set size after 10^3, 10^4, ... iterations. The recorded run
#      writes about 45 bytes per call to WORKDIR (deleted after).
# -s   skip the side-by-side runs (for -g or -l alone).
#
# Environment: BUILDDIR (build), MPIRUN (mpirun), BENCH
# ($BUILDDIR/bench/record/sextant-bench-record), RECORD_LIB
# ($BUILDDIR/recorder/libsextant-record.so), LAUNCHER
# ($BUILDDIR/recorder/sextant-record).

set -euo pipefail

. "$(dirname "$0")/../lib.sh"

invocation="$0 $*"
reps=7
n=100000
other=
grind=0
long_iters=
skip=0
buffer=1

usage ()
{
  sed -n '4,52s/^# \{0,1\}//p' "$0"
}

runs=100

journal_off=0

while getopts "n:N:b:c:jgl:sh" opt; do
  case "$opt" in
    n) reps=$OPTARG ;;
    N) n=$OPTARG ;;
    b) buffer=$OPTARG ;;
    c) other=$OPTARG ;;
    j) journal_off=1 ;;
    g) grind=1 ;;
    l) long_iters=$OPTARG ;;
    s) skip=1 ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || { usage >&2; exit 2; }
require_positive "$reps" "$n" "$buffer" ${long_iters:+"$long_iters"}

workdir=${1:-/tmp/sextant-bench-record}
builddir=${BUILDDIR:-build}
mpirun=${MPIRUN:-mpirun}
bench=${BENCH:-$builddir/bench/record/sextant-bench-record}
lib=${RECORD_LIB:-$builddir/recorder/libsextant-record.so}
launcher=${LAUNCHER:-$builddir/recorder/sextant-record}
logs=$workdir/logs
timer=/usr/bin/time

for tool in "$bench" "$launcher"; do
  [ -x "$tool" ] || die "$tool is not an executable (build first, or set BUILDDIR)"
done
for l in "$lib" ${other:+"$other"}; do
  [ -f "$l" ] || die "$l not found"
done
lib=$(realpath "$lib")
[ -z "$other" ] || other=$(realpath "$other")
mkdir -p "$workdir" "$logs"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

mpi=("$mpirun" --oversubscribe --allow-run-as-root --bind-to none --mca osc sm --mca btl self,vader)
configs=(bare cp8 cp0)
[ "$journal_off" = 0 ] || configs+=(nojournal)
[ -z "$other" ] || configs+=(other)

# run CONFIG NP KERNEL N: one run; its "KERNEL ops=... wall_ns=W cpu_ns=C"
# line goes to stdout
run ()
{
  local config=$1 np=$2 kernel=$3 count=$4 out=$logs/run.out
  local cmd=("${mpi[@]}" -np "$np" "$bench" "$kernel" "$count" "$runs")

  rm -rf "$workdir/trace"
  case "$config" in
    bare) timeout 600 "${cmd[@]}" >"$out" 2>&1 ;;
    cp8) SEXTANT_RECORD_LIB=$lib SEXTANT_RECORD_CALLPATH=8 SEXTANT_RECORD_BUFFER=$buffer \
           timeout 600 "$launcher" -o "$workdir/trace" "${cmd[@]}" >"$out" 2>&1 ;;
    cp0) SEXTANT_RECORD_LIB=$lib SEXTANT_RECORD_CALLPATH=0 SEXTANT_RECORD_BUFFER=$buffer \
           timeout 600 "$launcher" -o "$workdir/trace" "${cmd[@]}" >"$out" 2>&1 ;;
    nojournal) SEXTANT_RECORD_LIB=$lib SEXTANT_RECORD_CALLPATH=8 SEXTANT_RECORD_BUFFER=$buffer \
           SEXTANT_RECORD_JOURNAL=0 timeout 600 "$launcher" -o "$workdir/trace" "${cmd[@]}" >"$out" 2>&1 ;;
    other) SEXTANT_RECORD_LIB=$other SEXTANT_RECORD_CALLPATH=8 SEXTANT_RECORD_BUFFER=$buffer \
             timeout 600 "$launcher" -o "$workdir/trace" "${cmd[@]}" >"$out" 2>&1 ;;
  esac || { tail -n 20 "$out" >&2; die "failed: $config ${cmd[*]}"; }
  grep "^$kernel ops=" "$out" || die "no result in $out"
}

field ()
{
  sed -n "s/.* $1=\([0-9.]*\).*/\1/p"
}

if [ "$skip" = 0 ]; then
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  # KERNEL RANKS OPS_PER_RUN MPI_CALLS_PER_OP: many short runs per process
  kernels=("pingpong 2 $((n / 100)) 2" "iprobe 1 $((n / 10)) 1" "isend 2 $((n / 100)) 3")
  for k in "${kernels[@]}"; do
    read -r kernel np count calls <<<"$k"
    for c in "${configs[@]}"; do : >"$logs/$kernel.$c"; done
    for i in $(seq 1 "$reps"); do
      echo "$kernel: repetition $i/$reps ..." >&2
      # the configurations take turns at going first
      for j in $(seq 0 $((${#configs[@]} - 1))); do
        c=${configs[$(((i + j) % ${#configs[@]}))]}
        run "$c" "$np" "$kernel" "$count" >>"$logs/$kernel.$c"
      done
    done
  done
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)

  echo "| kernel | configuration | best run, wall (ns/op) | best run, CPU | median run, wall | mean CPU (with flushes) | added per MPI call: best wall | best CPU | median wall | mean CPU | page faults per 1000 calls |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for k in "${kernels[@]}"; do
    read -r kernel np count calls <<<"$k"
    bb=$(field best_ns <"$logs/$kernel.bare" | median)
    bc=$(field best_cpu_ns <"$logs/$kernel.bare" | median)
    bw=$(field wall_ns <"$logs/$kernel.bare" | median)
    bm=$(field mean_cpu_ns <"$logs/$kernel.bare" | median)
    for c in "${configs[@]}"; do
      b=$(field best_ns <"$logs/$kernel.$c" | median)
      u=$(field best_cpu_ns <"$logs/$kernel.$c" | median)
      w=$(field wall_ns <"$logs/$kernel.$c" | median)
      m=$(field mean_cpu_ns <"$logs/$kernel.$c" | median)
      f=$(field faults <"$logs/$kernel.$c" | median)
      awk -v f="$f" -v k="$kernel" -v np="$np" -v cnt="$count" -v runs="$runs" -v c="$c" -v b="$b" -v u="$u" -v w="$w" \
          -v m="$m" -v bb="$bb" -v bc="$bc" -v bw="$bw" -v bm="$bm" -v calls="$calls" 'BEGIN {
        if (c == "bare")
          printf "| %s (%d ranks, %d x %d ops) | %s | %.0f | %.0f | %.0f | %.0f | | | | | %.2f |\n", k, np, runs, cnt, c,
                 b, u, w, m, f * 1000 / (runs * cnt * calls)
        else
          printf "| %s | %s | %.0f | %.0f | %.0f | %.0f | %+.0f | %+.0f | %+.0f | %+.0f | %.2f |\n", k, c, b, u, w, m,
                 (b - bb) / calls, (u - bc) / calls, (w - bw) / calls, (m - bm) / calls,
                 f * 1000 / (runs * cnt * calls)
      }'
    done
  done
  echo
  echo "- $reps repetitions (processes), the configurations interleaved (each repetition starts with another); each process times $runs runs after a warm-up and reports its best and its median run; the table has the medians over the repetitions"
  echo "- bare: not recorded; cp8: $lib, call paths of 8 frames; cp0: the same, call site only${other:+; other: $other, call paths of 8 frames}; the crash journal on (the default) but in nojournal"
  echo "- load average (1, 5, 15 min) before: $load_before; after: $load_after"
  echo "- machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(uname -sr)"
fi

if [ "$grind" = 1 ]; then
  command -v valgrind >/dev/null || die "valgrind not found (apt install valgrind)"
  echo
  echo "Instructions per recorded MPI_Iprobe (callgrind, 1 rank, 110000 calls incl. the warm-up, inclusive counts):"
  echo
  parts=(MPI_Iprobe PMPI_Iprobe sextant__begin add_callsite sextant__callsite OTF2_EvtWriter_Enter
         OTF2_AttributeList_AddAttribute sextant__end OTF2_EvtWriter_Leave clock_gettime sextant__tsc_slow)
  header="| library |"
  rule="|---|"
  for p in "${parts[@]}"; do header+=" $p |"; rule+="---:|"; done
  echo "$header"
  echo "$rule"
  grind_libs=("bare:" "cp8:$lib")
  [ -z "$other" ] || grind_libs+=("other:$other")
  for entry in "${grind_libs[@]}"; do
    name=${entry%%:*}
    l=${entry#*:}
    rm -rf "$workdir/trace" "$logs/callgrind.$name".*
    cmd=("${mpi[@]}" -np 1 valgrind --tool=callgrind --callgrind-out-file="$logs/callgrind.$name.%p"
         --toggle-collect=iprobe "$bench" iprobe 100000 1)
    if [ -z "$l" ]; then
      timeout 900 "${cmd[@]}" >"$logs/grind.out" 2>&1 || die "callgrind run failed (see $logs/grind.out)"
    else
      SEXTANT_RECORD_LIB=$l timeout 900 "$launcher" -o "$workdir/trace" "${cmd[@]}" >"$logs/grind.out" 2>&1 \
        || die "callgrind run failed (see $logs/grind.out)"
    fi
    callgrind_annotate --inclusive=yes --threshold=100 "$logs/callgrind.$name".* >"$logs/annotate.$name" 2>/dev/null
    row="| $name |"
    for p in "${parts[@]}"; do
      # the first line of the function with its object file: callgrind_annotate
      # may list it again by source file alone
      v=$(awk -v f="$p" '$0 ~ ":" f "[@ ].*\\[" && !done { gsub(",", "", $1); v = $1; done = 1 }
                         END { printf "%.0f", v / 110000 }' "$logs/annotate.$name")
      row+=" $v |"
    done
    echo "$row"
  done
fi

if [ -n "$long_iters" ]; then
  echo
  echo "Memory over a long run (long kernel, 1 rank, VmRSS / VmHWM in MiB after so many iterations of 11 recorded calls):"
  echo
  rm -rf "$workdir/trace"
  long_cmd=("${mpi[@]}" -np 1 "$bench" long "$long_iters")
  timeout 3600 "${long_cmd[@]}" >"$logs/long.bare" 2>&1 || die "long run failed (bare)"
  SEXTANT_RECORD_LIB=$lib timeout 3600 "$timer" -f '%e %M %U %S' -o "$logs/long.time" \
    "$launcher" -o "$workdir/trace" "${long_cmd[@]}" >"$logs/long.cp8" 2>&1 \
    || die "long run failed (recorded)"
  trace_bytes=$(du -sb "$workdir/trace" | cut -f1)
  rm -rf "$workdir/trace"
  echo "| iterations | MPI calls | bare RSS / HWM | recorded RSS / HWM |"
  echo "|---:|---:|---:|---:|"
  join <(sed -n 's/^long iter=\([0-9]*\) calls=\([0-9]*\) rss_kib=\([0-9]*\) hwm_kib=\([0-9]*\)/\1 \2 \3 \4/p' "$logs/long.bare") \
       <(sed -n 's/^long iter=\([0-9]*\) calls=\([0-9]*\) rss_kib=\([0-9]*\) hwm_kib=\([0-9]*\)/\1 \2 \3 \4/p' "$logs/long.cp8") |
    awk '{ printf "| %d | %d | %.1f / %.1f | %.1f / %.1f |\n", $1, $2, $3 / 1024, $4 / 1024, $6 / 1024, $7 / 1024 }'
  echo
  echo "- recorded run: $(cut -d' ' -f1 "$logs/long.time") s wall; trace $(awk -v b="$trace_bytes" 'BEGIN { printf "%.0f MiB", b / 1048576 }')"
fi

echo
echo "Commands:"
echo
echo '```'
echo "# BUILDDIR=$builddir $invocation"
echo "${mpi[*]} -np 2 $bench pingpong $((n / 100)) $runs"
echo "SEXTANT_RECORD_LIB=$lib SEXTANT_RECORD_CALLPATH=8 SEXTANT_RECORD_BUFFER=$buffer $launcher -o TRACE ${mpi[*]} -np 2 $bench pingpong $((n / 100)) $runs"
echo '```'
