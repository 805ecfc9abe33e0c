/*
 * rec-late-barrier.c - one MPI_Barrier that one rank reaches late.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   rec-late-barrier LATE_RANK
 *
 * Every rank enters the barrier at once except LATE_RANK, which computes
 * (sleeps) LATE_MS first. tests/test-trees.py records it through the
 * sextant-record launcher: the barrier's tree must have LATE_RANK as its
 * root (the last to arrive releases the others).
 */
#include "../recorder/rec-test.h"

#define LATE_MS 200

int
main (int    argc,
      char **argv)
{
  int late;

  rec_init (&argc, &argv, 2);
  late = argc > 1 ? atoi (argv[1]) : 1;
  MPI_Barrier (MPI_COMM_WORLD);
  if (rec_rank == late)
    rec_sleep_ms (LATE_MS);
  MPI_Barrier (MPI_COMM_WORLD);
  MPI_Finalize ();
  return 0;
}
