# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/lib.sh - shell helpers of the benchmark scripts (sourced by
# bench/import/run.sh and bench/analysis/run.sh).
#
# The caller sets $logs (a directory) and $timer (/usr/bin/time).

die ()
{
  echo "run.sh: $*" >&2
  exit 1
}

# Dies unless every argument is a positive integer.
require_positive ()
{
  local value
  for value in "$@"; do
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "expected a positive integer, got '$value'"
  done
}

# Runs "$@" under /usr/bin/time; leaves "WALL RSS_KB USER SYS" in
# $logs/$name.time and the command's output in $logs/$name.out.
timed ()
{
  local name=$1
  shift
  if ! "$timer" -f '%e %M %U %S' -o "$logs/$name.time" "$@" >"$logs/$name.out" 2>&1; then
    tail -n 20 "$logs/$name.out" >&2
    die "failed: $*"
  fi
}

# The median of the numbers on standard input, one per line.
median ()
{
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The largest of the numbers on standard input.
largest ()
{
  sort -g | tail -n 1
}
