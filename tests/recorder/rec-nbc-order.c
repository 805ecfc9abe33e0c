/*
 * rec-nbc-order.c - non-blocking collectives completed in different orders
 * on different ranks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ROUNDS times on MPI_COMM_WORLD: MPI_Ibcast then MPI_Iallreduce; even
 * ranks wait for the broadcast first, odd ranks for the reduction first.
 * MPI matches them by the order they started, so every instance has all
 * ranks (2 x ROUNDS collectives), however they completed.
 */
#include "rec-test.h"

#define ROUNDS 5

int
main (int    argc,
      char **argv)
{
  int size = rec_init (&argc, &argv, 2);

  for (int r = 0; r < ROUNDS; r++)
    {
      MPI_Request req[2];
      int b = rec_rank == 0 ? r : -1, one = 1, sum = 0;

      MPI_Ibcast (&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[0]); /* CALLSITE:MPI_Ibcast */
      MPI_Iallreduce (&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]); /* CALLSITE:MPI_Iallreduce */
      if (rec_rank % 2 == 0)
        {
          MPI_Wait (&req[0], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
          MPI_Wait (&req[1], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
        }
      else
        {
          MPI_Wait (&req[1], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
          MPI_Wait (&req[0], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
        }
      REC_CHECK (b == r && sum == size, "round %d: bcast %d, sum %d", r, b, sum);
    }
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
