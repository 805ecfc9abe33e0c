/*
 * rec-split-coll.c - collectives on a split communicator, and every blocking
 * collective on MPI_COMM_WORLD.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MPI_Comm_split into even and odd ranks; on each half an MPI_Bcast (root
 * 0) and an MPI_Reduce (root 1); MPI_Comm_dup of the half and an
 * MPI_Allreduce on the duplicate; then on MPI_COMM_WORLD: Gather(v),
 * Scatter(v), Allgather(v), Alltoall(v), Scan, Exscan, Reduce_scatter,
 * Reduce_scatter_block; finally both communicators are freed.
 * Instances (p >= 4, even): 1 split + 2 x (bcast, reduce, dup, allreduce,
 * 2 frees) + 12 on the world = 25.
 */
#include "rec-test.h"

#include <string.h>

#define N 4

int
main (int    argc,
      char **argv)
{
  int size = rec_init (&argc, &argv, 4);
  MPI_Comm half, dup;
  int hrank, hsize;
  int buf[N], x, sum = -1;
  int *all = malloc ((size_t) size * N * sizeof *all);
  int *all2 = malloc ((size_t) size * N * sizeof *all2);
  int *counts = malloc ((size_t) size * sizeof *counts);
  int *displs = malloc ((size_t) size * sizeof *displs);

  REC_CHECK (all && all2 && counts && displs, "out of memory");
  for (int i = 0; i < size; i++)
    {
      counts[i] = N;
      displs[i] = i * N;
    }

  MPI_Comm_split (MPI_COMM_WORLD, rec_rank % 2, rec_rank, &half); /* CALLSITE:MPI_Comm_split */
  MPI_Comm_rank (half, &hrank);
  MPI_Comm_size (half, &hsize);

  for (int i = 0; i < N; i++)
    buf[i] = hrank == 0 ? 10 * (rec_rank % 2) + i : -1;
  MPI_Bcast (buf, N, MPI_INT, 0, half); /* CALLSITE:MPI_Bcast */
  REC_CHECK (buf[N - 1] == 10 * (rec_rank % 2) + N - 1, "bcast gave %d", buf[N - 1]);

  x = rec_rank;
  MPI_Reduce (&x, &sum, 1, MPI_INT, MPI_SUM, 1, half); /* CALLSITE:MPI_Reduce */
  if (hrank == 1)
    {
      int expect = 0;

      for (int r = rec_rank % 2; r < size; r += 2)
        expect += r;
      REC_CHECK (sum == expect, "reduce gave %d, expected %d", sum, expect);
    }

  MPI_Comm_dup (half, &dup); /* CALLSITE:MPI_Comm_dup */
  MPI_Allreduce (&x, &sum, 1, MPI_INT, MPI_MAX, dup); /* CALLSITE:MPI_Allreduce */

  /* every blocking collective once on the world */
  for (int i = 0; i < N; i++)
    buf[i] = rec_rank;
  MPI_Gather (buf, N, MPI_INT, all, N, MPI_INT, 0, MPI_COMM_WORLD); /* CALLSITE:MPI_Gather */
  MPI_Gatherv (buf, N, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD); /* CALLSITE:MPI_Gatherv */
  MPI_Scatter (all, N, MPI_INT, buf, N, MPI_INT, 0, MPI_COMM_WORLD); /* CALLSITE:MPI_Scatter */
  MPI_Scatterv (all, counts, displs, MPI_INT, buf, N, MPI_INT, 0, MPI_COMM_WORLD); /* CALLSITE:MPI_Scatterv */
  REC_CHECK (buf[0] == rec_rank, "scatterv gave %d", buf[0]);
  MPI_Allgather (buf, N, MPI_INT, all, N, MPI_INT, MPI_COMM_WORLD); /* CALLSITE:MPI_Allgather */
  MPI_Allgatherv (buf, N, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD); /* CALLSITE:MPI_Allgatherv */
  memcpy (all2, all, (size_t) size * N * sizeof *all);
  MPI_Alltoall (all2, N, MPI_INT, all, N, MPI_INT, MPI_COMM_WORLD); /* CALLSITE:MPI_Alltoall */
  MPI_Alltoallv (all2, counts, displs, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD); /* CALLSITE:MPI_Alltoallv */
  MPI_Scan (&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* CALLSITE:MPI_Scan */
  REC_CHECK (sum == rec_rank * (rec_rank + 1) / 2, "scan gave %d", sum);
  MPI_Exscan (&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* CALLSITE:MPI_Exscan */
  MPI_Reduce_scatter (all2, buf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* CALLSITE:MPI_Reduce_scatter */
  MPI_Reduce_scatter_block (all2, buf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* CALLSITE:MPI_Reduce_scatter_block */

  MPI_Comm_free (&dup); /* CALLSITE:MPI_Comm_free */
  MPI_Comm_free (&half); /* CALLSITE:MPI_Comm_free */
  free (all);
  free (all2);
  free (counts);
  free (displs);
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
