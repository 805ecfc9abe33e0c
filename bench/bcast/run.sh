#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/bcast/run.sh - broadcast latency over p ranks: onecoll vs MPI_Bcast,
# the spec's LogP/LogGP model, crossover points and plots
#
#   bench/bcast/run.sh [-a] [-p "P1 P2 ..."] [-n REPS] [-t SECONDS] [-W] [-q]
#                      [-x "BENCH ARGS"] [OUTDIR]
#
# For each repetition and each process count p it runs, under `timeout`,
#   (1) sextant-bench-bcast with its defaults: sizes 1 B .. 16 MiB in
#       powers of 4 plus 40 MiB, every variant (onecoll linear, binomial
#       smallest- and largest-subtree-first, adaptive and fixed polling,
#       MPI_Bcast), non-roots receiving into their own buffers, and the
#       model parameters L, o, g, G, Gnode, Or;
#   (2) unless -W, an in-window pass for the model at large m: 1, 4, 16,
#       40 MiB, adaptive onecoll variants and MPI_Bcast, --buffer window
#       (no copy-out on the receivers, as the spec's model assumes).
# Then bench/bcast/plot.py (python3 and matplotlib) writes into
# OUTDIR (default /tmp/sextant-bench-bcast): results.csv, summary.md
# (tables, crossovers, model errors, the verdicts on the targets) and SVG
# plots. Raw CSV, JSON, logs and the load average around every run are
# kept in OUTDIR/raw. The repetitions loop outside the process counts, so
# that a burst of load on a shared machine does not hit one p only.
#
# Options: -a        all p = 2..16 (default: 2 4 8 12 16, about 3.5 minutes
#                    per repetition on the 2-core VM, so 7 to 8 minutes in
#                    all; -a takes about 10 minutes per repetition with -W)
#          -p LIST   these process counts (quoted, space-separated)
#          -n REPS   repetitions (default 2); plot.py takes medians
#          -t SECS   timeout of each mpirun (default 900)
#          -W        skip the in-window pass
#          -q        smoke test: p = 2 4 8, --quick --params, 1 MiB window
#                    pass, one repetition unless -n (about 30 s)
#          -x ARGS   extra arguments for every sextant-bench-bcast run
# Environment: BUILDDIR (build), BENCH ($BUILDDIR/bench/bcast/sextant-bench-bcast),
#              MPIRUN (mpirun), PYTHON (/usr/bin/python3: Debian's, with
#              python3-matplotlib).

set -euo pipefail

invocation="$0 $*"
plist="2 4 8 12 16"
reps=2
reps_set=0
secs=900
window_pass=1
quick=0
extra=()

usage ()
{
  sed -n '4,38s/^# \{0,1\}//p' "$0"
}

die ()
{
  echo "run.sh: $*" >&2
  exit 1
}

while getopts "ap:n:t:Wqx:h" opt; do
  case "$opt" in
    a) plist="$(seq -s ' ' 2 16)" ;;
    p) plist=$OPTARG ;;
    n) reps=$OPTARG; reps_set=1 ;;
    t) secs=$OPTARG ;;
    W) window_pass=0 ;;
    q) quick=1; plist="2 4 8" ;;
    x) read -r -a extra <<< "$OPTARG" ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || { usage >&2; exit 2; }
outdir=${1:-/tmp/sextant-bench-bcast}
[ "$quick" = 0 ] || [ "$reps_set" = 1 ] || reps=1

for value in "$reps" "$secs" $plist; do
  [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "not a positive integer: '$value'"
done

here=$(cd "$(dirname "$0")" && pwd)
builddir=${BUILDDIR:-build}
bench=${BENCH:-$builddir/bench/bcast/sextant-bench-bcast}
mpirun=${MPIRUN:-mpirun}
python=${PYTHON:-/usr/bin/python3}
[ -x "$bench" ] || die "no benchmark at $bench (build first: meson setup $builddir && ninja -C $builddir)"
command -v "$mpirun" > /dev/null || die "no $mpirun"
command -v "$python" > /dev/null || die "no $python"
command -v timeout > /dev/null || die "no timeout (coreutils)"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The project's recipe (research/collectives.md section 8), plus
# mpi_yield_when_idle: Open MPI turns it on by itself only when it sees more
# ranks than slots, i.e. here for p > 2. At p = 2 its ranks would busy-poll
# without yielding, and every time another thread (a Broadcaster, or any
# other process on a shared machine) takes a core, the peer spins away whole
# 4 ms scheduler ticks (measured: MPI_Bcast of 1 byte 8 ms instead of 8 us).
# shellcheck disable=SC2054  # the commas are inside option values
mpi_opts=(--oversubscribe --allow-run-as-root --bind-to none
          --mca osc sm --mca btl self,vader --mca mpi_yield_when_idle 1)

user_args=()
# shellcheck disable=SC2054
window_args=(--no-params --buffer window --sizes 1M,4M,16M,40M
             --algos linear/adaptive,binomial-sf/adaptive,binomial-lf/adaptive,mpi-bcast)
if [ "$quick" = 1 ]; then
  user_args=(--quick --params)
  # shellcheck disable=SC2054
  window_args=(--quick --buffer window --sizes 1M
               --algos linear/adaptive,binomial-sf/adaptive,binomial-lf/adaptive,mpi-bcast)
fi

mkdir -p "$outdir/raw"
rm -f "$outdir"/raw/*.csv "$outdir"/raw/*.json "$outdir"/raw/*.log "$outdir"/raw/load.tsv
printf 'p\tpass\trep\tload_before\tload_after\tseconds\n' > "$outdir/raw/load.tsv"
{
  echo "invocation: $invocation"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -nrm), $(nproc) online CPUs"
  echo "commit: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)$([ -z "$(git -C "$here" status --porcelain -- . 2>/dev/null)" ] || echo ' + working tree')"
  echo "mpirun: $(command -v "$mpirun") ${mpi_opts[*]}"
  echo "bench: $bench"
} > "$outdir/raw/run-info.txt"

# run_one P PASS REP ARGS... : one mpirun under timeout, load logged.
run_one ()
{
  local p=$1 pass=$2 rep=$3
  shift 3
  local tag="$pass-p$p-r$rep" load0 load1 t0 t1 rc=0
  load0=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  echo "run.sh: p=$p $pass rep $rep: $bench $*" >&2
  timeout --kill-after=10 "$secs" "$mpirun" "${mpi_opts[@]}" -np "$p" "$bench" \
    --csv "$outdir/raw/$tag.csv" "$@" "${extra[@]}" > "$outdir/raw/$tag.log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  load1=$(cut -d' ' -f1 /proc/loadavg)
  awk -v p="$p" -v pass="$pass" -v rep="$rep" -v l0="$load0" -v l1="$load1" \
      -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%s\t%s\t%s\t%s\t%s\t%.1f\n", p, pass, rep, l0, l1, t1 - t0 }' \
      >> "$outdir/raw/load.tsv"
  if [ "$rc" != 0 ]; then
    tail -n 20 "$outdir/raw/$tag.log" >&2
    die "p=$p $pass rep $rep failed with status $rc (124 = timeout after $secs s); log: $outdir/raw/$tag.log"
  fi
}

start=$(date +%s)
for rep in $(seq 1 "$reps"); do
  for p in $plist; do
    run_one "$p" user "$rep" --json "$outdir/raw/params-p$p-r$rep.json" "${user_args[@]}"
    if [ "$window_pass" = 1 ]; then
      run_one "$p" window "$rep" "${window_args[@]}"
    fi
  done
done
echo "run.sh: measured in $(( $(date +%s) - start )) s" >&2

"$python" "$here/plot.py" "$outdir"
echo "run.sh: results in $outdir (summary.md, results.csv, *.svg; raw data in raw/)" >&2
