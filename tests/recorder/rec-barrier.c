/*
 * rec-barrier.c - an imbalanced barrier: rank r arrives r x STEP_MS late.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One MPI_Barrier after rank r slept r x STEP_MS. The checker expects one
 * collective with every rank, member begins spread by about
 * (p - 1) x STEP_MS, and no member leaving before the last one entered.
 */
#include "rec-test.h"

#define STEP_MS 100   /* the checker asks for 15: room for a loaded machine */

int
main (int    argc,
      char **argv)
{
  rec_init (&argc, &argv, 2);
  rec_sleep_ms (rec_rank * STEP_MS);
  MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
