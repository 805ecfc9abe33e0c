#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/allreduce/run.sh - onecoll's allreduce (or reduce) algorithms against
# Open MPI's default MPI_Allreduce and its Rabenseifner, side by side, with
# the alpha-beta-gamma model of each beside the measurement.
#
#   bench/allreduce/run.sh [-r] [-n REPS] [-p "P1 P2 ..."] [-s "B1,B2,..."] [OUTDIR]
#
# For each repetition and each P (default 2..16) it runs, under `timeout`,
# sextant-bench-allreduce (every algorithm and Open MPI's default), then
# the same with only the MPI rows and Open MPI's Rabenseifner forced
# (--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 6,
# resp. coll_tuned_reduce_algorithm for -r), named "mpi-rab". The
# repetitions loop outside the process counts, so that a burst of load on a
# shared machine does not hit one P only. The tables go to stdout and
# OUTDIR/results.txt, the CSV to OUTDIR/results.csv (default OUTDIR
# /tmp/sextant-bench-allreduce; an older results.csv there is moved aside),
# then bench/allreduce/plot.py writes OUTDIR/summary.md (medians of the
# repetitions, the targets' verdicts) and the SVG plots.
# Options: -r reduce instead of allreduce; -n repetitions (default 1);
# -p process counts; -s sizes in bytes (default 8 B .. 16 MiB in powers of 4).
# The default, 2..16 x 8 B..16 MiB once, takes about 15 minutes on 2 cores.
# Environment: BUILDDIR (build), MPIRUN (mpirun), PYTHON (/usr/bin/python3:
# Debian's, with python3-matplotlib).

set -euo pipefail

plist="2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"
sizes=""
reps=1
mode=()
while getopts "rn:p:s:" opt; do
  case $opt in
    r) mode=(--reduce) ;;
    n) reps=$OPTARG ;;
    p) plist=$OPTARG ;;
    s) sizes=$OPTARG ;;
    *) sed -n '4,25s/^# \{0,1\}//p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
out=${1:-/tmp/sextant-bench-allreduce}
builddir=${BUILDDIR:-build}
bench=$builddir/bench/allreduce/sextant-bench-allreduce
mpirun=${MPIRUN:-mpirun}
python=${PYTHON:-/usr/bin/python3}
mkdir -p "$out"
[ -e "$out/results.csv" ] && mv "$out/results.csv" "$out/results.csv.old"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
size_args=()
[ -n "$sizes" ] && size_args=(--sizes "$sizes")
if [ ${#mode[@]} -gt 0 ]; then rab_var=coll_tuned_reduce_algorithm rab_alg=7; else rab_var=coll_tuned_allreduce_algorithm rab_alg=6; fi
run ()
{
  timeout --kill-after=10 1800 "$mpirun" --oversubscribe --allow-run-as-root --bind-to none \
    --mca btl self,vader "$@"
}
for rep in $(seq "$reps"); do
for p in $plist; do
  echo "# repetition $rep, load: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/results.txt"
  run -np "$p" "$bench" "${mode[@]}" "${size_args[@]}" --csv "$out/results.csv" \
    | tee -a "$out/results.txt"
  run --mca coll_tuned_use_dynamic_rules 1 --mca "$rab_var" "$rab_alg" -np "$p" \
    "$bench" "${mode[@]}" "${size_args[@]}" --algos mpi --mpi-label mpi-rab \
    --csv "$out/results.csv" | grep -v '^#\|^P ' | tee -a "$out/results.txt"
done
done
"$python" "$(dirname "$0")/plot.py" "$out" > /dev/null
echo "run.sh: results in $out (summary.md, results.csv, results.txt, *.svg)"
