/*
 * rec-chain.c - a planted chain of waits: rank 3 waits for rank 2, which
 * waits for rank 1, which computes late.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ROUNDS times: rank 1 runs compute_late, a busy loop of DELAY_MS that
 * ends in the send of its result to rank 2; rank 2 receives it and passes
 * it on to rank 3; rank 3 receives from rank 2; rank 0 only waits at the
 * barrier that ends each round. So rank 2's Late Sender is direct (rank 1
 * was computing), rank 3's is propagated (rank 2 was itself waiting), and
 * the chain behind rank 3's wait ends at rank 1 in compute_late, before
 * its MPI_Send (tests/test-delay-chain.py checks the chain against the
 * lines marked here).
 */
#include "rec-test.h"

#define ROUNDS 2
#define DELAY_MS 150
#define TAG 7

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* rank 1: the work that makes everybody else wait, then its result. Not
 * inlined (the build may use -O2): a call inlined into main() is recorded
 * as made in main(), so the chain would end "in main". */
static void __attribute__ ((noinline))
compute_late (int round)   /* DECL:compute_late */
{
  double start = now_ms ();
  volatile double sum = 0;
  int value;

  while (now_ms () - start < DELAY_MS)
    for (int i = 0; i < 1000; i++)
      sum += i * 0.5;
  value = round + 100;
  MPI_Send (&value, 1, MPI_INT, 2, TAG, MPI_COMM_WORLD); /* CALLSITE:MPI_Send LATE:compute_late */
}

int
main (int    argc,
      char **argv)
{
  int value = 0;

  rec_init (&argc, &argv, 4);
  for (int round = 0; round < ROUNDS; round++)
    {
      if (rec_rank == 1)
        compute_late (round); /* CALLSITE:compute_late */
      else if (rec_rank == 2)
        {
          MPI_Recv (&value, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
          REC_CHECK (value == round + 100, "round %d: rank 2 received %d", round, value);
          MPI_Send (&value, 1, MPI_INT, 3, TAG, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
        }
      else if (rec_rank == 3)
        {
          MPI_Recv (&value, 1, MPI_INT, 2, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
          REC_CHECK (value == round + 100, "round %d: rank 3 received %d", round, value);
        }
      MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
    }
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
