/*
 * rec-wrong-order.c - messages received in the other order than sent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rank 0 sends two small messages to rank 1, tag 1 then tag 2 (small
 * enough for the eager protocol, so the sends do not block); rank 1 sleeps,
 * then receives tag 2 first and tag 1 second. Both messages must be matched
 * by tag, not by order.
 */
#include "rec-test.h"

int
main (int    argc,
      char **argv)
{
  int a = 11, b = 22;

  rec_init (&argc, &argv, 2);
  if (rec_rank == 0)
    {
      MPI_Send (&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
      MPI_Send (&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
    }
  else if (rec_rank == 1)
    {
      rec_sleep_ms (20);
      MPI_Recv (&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
      MPI_Recv (&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
      REC_CHECK (a == 11 && b == 22, "received a=%d b=%d", a, b);
    }
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
