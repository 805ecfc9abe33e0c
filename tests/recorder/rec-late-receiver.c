/*
 * rec-late-receiver.c - a synchronous send waits for a receiver that is late.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ROUNDS times: rank 0 enters MPI_Ssend at once, rank 1 sleeps DELAY_MS
 * and then receives. MPI_Ssend cannot complete before the receive has
 * started, so the checker expects each send call to last about DELAY_MS
 * and to begin that much before its receive.
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
  double payload[16] = { 0 };

  rec_init (&argc, &argv, 2);
  for (int round = 0; round < ROUNDS; round++)
    {
      if (rec_rank == 0)
        {
          payload[0] = round;
          MPI_Ssend (payload, 16, MPI_DOUBLE, 1, round, MPI_COMM_WORLD); /* CALLSITE:MPI_Ssend */
        }
      else if (rec_rank == 1)
        {
          rec_sleep_ms (DELAY_MS);
          MPI_Recv (payload, 16, MPI_DOUBLE, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
          REC_CHECK (payload[0] == round, "round %d received %g", round, payload[0]);
        }
      MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
    }
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
