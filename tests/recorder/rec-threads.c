/*
 * rec-threads.c - MPI calls from several threads: one location each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MPI_THREAD_MULTIPLE; on each of ranks 0 and 1, THREADS threads each
 * exchange MESSAGES messages with the same thread of the other rank, on a
 * communicator of their own (duplicated by the main thread). Every rank
 * gets THREADS + 1 locations; each thread location has MESSAGES MPI_SEND
 * and MESSAGES MPI_RECV records.
 */
#include "rec-test.h"

#include <pthread.h>

#define THREADS 2
#define MESSAGES 10

static MPI_Comm comms[THREADS];

static void *
worker (void *data)
{
  int k = (int) (long) data;
  int other = 1 - rec_rank, value;

  for (int i = 0; i < MESSAGES; i++)
    {
      value = rec_rank * 100 + i;
      if (rec_rank == 0)
        {
          MPI_Send (&value, 1, MPI_INT, other, i, comms[k]); /* CALLSITE:MPI_Send */
          MPI_Recv (&value, 1, MPI_INT, other, i, comms[k], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
        }
      else
        {
          MPI_Recv (&value, 1, MPI_INT, other, i, comms[k], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
          MPI_Send (&value, 1, MPI_INT, other, i, comms[k]); /* CALLSITE:MPI_Send */
        }
    }
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  pthread_t threads[THREADS];
  int provided, size;

  MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided); /* CALLSITE:MPI_Init_thread */
  MPI_Comm_rank (MPI_COMM_WORLD, &rec_rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  REC_CHECK (provided == MPI_THREAD_MULTIPLE, "no MPI_THREAD_MULTIPLE");
  REC_CHECK (size == 2, "runs on 2 ranks");
  for (int k = 0; k < THREADS; k++)
    MPI_Comm_dup (MPI_COMM_WORLD, &comms[k]); /* CALLSITE:MPI_Comm_dup */
  for (int k = 0; k < THREADS; k++)
    REC_CHECK (pthread_create (&threads[k], NULL, worker, (void *) (long) k) == 0, "pthread_create");
  for (int k = 0; k < THREADS; k++)
    pthread_join (threads[k], NULL);
  for (int k = 0; k < THREADS; k++)
    MPI_Comm_free (&comms[k]); /* CALLSITE:MPI_Comm_free */
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
