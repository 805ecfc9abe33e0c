/*
 * rec-pingpong.c - ping-pong between ranks 0 and 1, from a helper function.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ITERATIONS round trips (argv[1], default 100) with 1..8 ints, through
 * exchange(), so that the calling context of each call is
 * exchange <- main. Other ranks only take part in the final barrier.
 * Expected: 2 x ITERATIONS messages, all matched; one barrier.
 */
#include "rec-test.h"

__attribute__ ((noinline)) static void
exchange (int *buf,
          int  n,
          int  iter)
{
  MPI_Status status;

  if (rec_rank == 0)
    {
      buf[0] = iter;
      MPI_Send (buf, n, MPI_INT, 1, iter, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
      MPI_Recv (buf, n, MPI_INT, 1, iter, MPI_COMM_WORLD, &status); /* CALLSITE:MPI_Recv */
      REC_CHECK (buf[0] == iter + 1, "round %d came back as %d", iter, buf[0]);
    }
  else if (rec_rank == 1)
    {
      MPI_Recv (buf, n, MPI_INT, 0, iter, MPI_COMM_WORLD, &status); /* CALLSITE:MPI_Recv */
      REC_CHECK (buf[0] == iter, "round %d arrived as %d", iter, buf[0]);
      buf[0] = iter + 1;
      MPI_Send (buf, n, MPI_INT, 0, iter, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
    }
}

int
main (int    argc,
      char **argv)
{
  int buf[8] = { 0 };
  int iterations = argc > 1 ? atoi (argv[1]) : 100;

  rec_init (&argc, &argv, 2);
  for (int i = 0; i < iterations; i++)
    exchange (buf, 1 + i % 8, i); /* CALLSITE:exchange */
  MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
