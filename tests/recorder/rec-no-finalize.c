/*
 * rec-no-finalize.c - programs that never reach MPI_Finalize.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   rec-no-finalize exit    every rank exchanges a few messages and returns
 *                           from main without MPI_Finalize (run it on one
 *                           rank: mpirun then reports the missing finalize);
 *   rec-no-finalize abort   rank 1 calls MPI_Abort after a barrier, the
 *                           others wait in MPI_Recv until they are killed;
 *   rec-no-finalize hang FILE  ranks 0 and 1 ping-pong ITERATIONS times,
 *                           then rank 0 creates FILE and every rank sleeps
 *                           until it is killed.
 */
#include "rec-test.h"

#include <string.h>

#define ITERATIONS 60000

int
main (int    argc,
      char **argv)
{
  int size = rec_init (&argc, &argv, 1);
  const char *mode = argc > 1 ? argv[1] : "exit";
  int value = 0;

  for (int i = 0; i < 10 && size > 1; i++)
    {
      if (rec_rank == 0)
        MPI_Send (&value, 1, MPI_INT, 1, i, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
      else if (rec_rank == 1)
        MPI_Recv (&value, 1, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
    }
  MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */

  if (strcmp (mode, "abort") == 0)
    {
      if (rec_rank == 1)
        MPI_Abort (MPI_COMM_WORLD, 3); /* CALLSITE:MPI_Abort */
      MPI_Recv (&value, 1, MPI_INT, 1, 12345, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
    }
  else if (strcmp (mode, "hang") == 0 && argc > 2)
    {
      for (int i = 0; i < ITERATIONS && size > 1; i++)
        {
          if (rec_rank == 0)
            {
              MPI_Send (&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
              MPI_Recv (&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
            }
          else if (rec_rank == 1)
            {
              MPI_Recv (&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
              MPI_Send (&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
            }
        }
      if (rec_rank == 0)
        {
          FILE *f = fopen (argv[2], "w");

          if (f != NULL)
            fclose (f);
        }
      for (;;)
        rec_sleep_ms (1000);
    }
  /* "exit": leave without MPI_Finalize */
  return 0;
}
