/*
 * rec-behaviour.c - a program whose output and exit status the recorder
 * must not change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every rank prints what an allreduce, a ring exchange with MPI_Waitall of
 * small Isends and a non-blocking collective on MPI_COMM_SELF gave, and
 * rank 0 exits with status 3 after MPI_Finalize. check-recording.py runs it
 * bare and recorded and compares the two.
 */
#include "rec-test.h"

int
main (int    argc,
      char **argv)
{
  int size = rec_init (&argc, &argv, 2);
  int left, right, sum = 0, one = 1, in[4], out[4], self = 0;
  MPI_Request req[8];

  left = (rec_rank + size - 1) % size;
  right = (rec_rank + 1) % size;
  MPI_Allreduce (&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* CALLSITE:MPI_Allreduce */
  for (int i = 0; i < 4; i++)
    {
      out[i] = rec_rank * 10 + i;
      MPI_Irecv (&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &req[i]); /* CALLSITE:MPI_Irecv */
      MPI_Isend (&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &req[4 + i]); /* CALLSITE:MPI_Isend */
    }
  MPI_Waitall (8, req, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitall */
  MPI_Iallreduce (&one, &self, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &req[0]); /* CALLSITE:MPI_Iallreduce */
  MPI_Wait (&req[0], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
  printf ("rank %d: sum %d, from the left %d %d %d %d, self %d\n", rec_rank, sum, in[0], in[1], in[2],
          in[3], self);
  fflush (stdout);
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return rec_rank == 0 ? 3 : 0;
}
