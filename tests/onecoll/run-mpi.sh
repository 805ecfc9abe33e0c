#!/bin/sh
# run-mpi.sh SECONDS NP PROGRAM [ARGS...]
#
# Runs PROGRAM on NP Open MPI ranks on this machine, killed after SECONDS.
# The options are the recipe of shared research/collectives.md section 8:
# oversubscribe the cores, shared-memory one-sided (osc/sm, which needs
# MPI_Win_allocate'd windows), shared-memory point-to-point, no binding so
# that the main threads and Broadcasters of oversubscribed ranks can move
# between cores. MPIRUN may name the launcher (default: mpirun).
set -eu
secs=$1 np=$2
shift 2
exec timeout --kill-after=10 "$secs" "${MPIRUN:-mpirun}" \
  --oversubscribe --allow-run-as-root --bind-to none \
  --mca osc sm --mca btl self,vader \
  -np "$np" "$@"
