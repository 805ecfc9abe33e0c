/*
 * rec-threads-many.c - many short-lived threads, each making MPI calls.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MPI_THREAD_MULTIPLE; every rank starts THREADS threads, at most ALIVE at
 * a time, and each makes CALLS MPI_Barrier on MPI_COMM_SELF before it ends.
 * Recorded, a rank has a location per thread alive at once (the recorder
 * reuses the location of a thread that ended), not one per thread: at most
 * ALIVE + 1 locations, each thread's barriers on one of them. The
 * argument overrides THREADS.
 */
#include "rec-test.h"

#include <pthread.h>
#include <stdlib.h>

#define THREADS 10000
#define ALIVE 4
#define CALLS 2

static void *
worker (void *data)
{
  for (int i = 0; i < CALLS; i++)
    MPI_Barrier (MPI_COMM_SELF); /* CALLSITE:MPI_Barrier */
  return data;
}

int
main (int    argc,
      char **argv)
{
  pthread_t threads[ALIVE];
  int provided, n = argc > 1 ? atoi (argv[1]) : THREADS;

  MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided); /* CALLSITE:MPI_Init_thread */
  MPI_Comm_rank (MPI_COMM_WORLD, &rec_rank);
  REC_CHECK (provided == MPI_THREAD_MULTIPLE, "no MPI_THREAD_MULTIPLE");
  for (int k = 0; k < n; k += ALIVE)
    {
      int m = n - k < ALIVE ? n - k : ALIVE;

      for (int j = 0; j < m; j++)
        REC_CHECK (pthread_create (&threads[j], NULL, worker, NULL) == 0, "pthread_create");
      for (int j = 0; j < m; j++)
        pthread_join (threads[j], NULL);
    }
  MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
