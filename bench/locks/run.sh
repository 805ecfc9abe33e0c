#!/bin/sh
# bench/locks/run.sh [BUILD_DIR] [OUT]: the paper's three modes for the five
# schemes, N = 1..16 client processes, 10 repetitions, pinned (writer on CPU
# 0, client i on CPU (i + 1) mod ncpu), all side by side in one run; then the
# SVG plots (bench/locks/plot.py, matplotlib) into docs/images/ (Debian's python3-matplotlib, hence /usr/bin/python3). The load
# average before and after goes into OUT's header: the figures mean little
# without it.
set -eu
build=${1:-build}
out=${2:-locks-bench.txt}
here=$(dirname "$0")
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(uname -m) $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  timeout 3600 "$build/bench/locks/sextant-bench-locks" --pin --n 1 16 --reps 10
  echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out"
/usr/bin/python3 "$here/plot.py" "$out" "$here/../../docs/images"
