/*
 * rec-late-sender.c - the receiver waits in MPI_Recv for a sender that is late.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ROUNDS times: rank 1 enters MPI_Recv at once, rank 0 sleeps DELAY_MS
 * and then sends; a barrier separates the rounds. The checker verifies that
 * each receive began at least DELAY_MS - slack before its send on the
 * trace's common time line.
 */
#include "rec-test.h"

#define ROUNDS 3
/* the checker asks for 50 ms: on a loaded machine the other rank may come
 * out of the barrier tens of ms late */
#define DELAY_MS 300

int
main (int    argc,
      char **argv)
{
  int value = 0;

  rec_init (&argc, &argv, 2);
  for (int round = 0; round < ROUNDS; round++)
    {
      if (rec_rank == 0)
        {
          value = round + 1;
          rec_sleep_ms (DELAY_MS);
          MPI_Send (&value, 1, MPI_INT, 1, 42, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
        }
      else if (rec_rank == 1)
        {
          MPI_Recv (&value, 1, MPI_INT, 0, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
          REC_CHECK (value == round + 1, "round %d received %d", round, value);
        }
      MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
    }
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
