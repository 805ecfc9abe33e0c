/*
 * rec-bench-onecoll.c - a onecoll broadcast loop, for the recorder's slowdown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   rec-bench-onecoll N BYTES [RUNS]
 *
 * N binomial broadcasts of BYTES bytes from a root that moves around the
 * ranks, each completed with onecoll_bcast_flush(); rank 0 prints
 * "onecoll-bcast <us per broadcast>" for the best of RUNS (default 10) runs.
 * Built twice: plain, and linked with the recorder (measure-overhead.py).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "onecoll.h"

int
main (int    argc,
      char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  int bytes = argc > 2 ? atoi (argv[2]) : 1024;
  int runs = argc > 3 ? atoi (argv[3]) : 10;
  int provided, rank, size;
  double best = 1e30;
  unsigned char *buf;
  onecoll_win win;

  MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  buf = calloc ((size_t) bytes + 1, 1);
  if (buf == NULL || provided != MPI_THREAD_MULTIPLE || onecoll_init (MPI_COMM_WORLD, NULL) != ONECOLL_OK ||
      onecoll_win_create (bytes, NULL, &win) != ONECOLL_OK)
    {
      fprintf (stderr, "rec-bench-onecoll: setup failed\n");
      MPI_Abort (MPI_COMM_WORLD, 1);
    }
  for (int run = 0; run < runs; run++)
    {
      double t0, t;

      MPI_Barrier (MPI_COMM_WORLD);
      t0 = MPI_Wtime ();
      for (int i = 0; i < n; i++)
        {
          int root = i % size;

          if (onecoll_bcast (win, buf, bytes, root, NULL) != ONECOLL_OK ||
              onecoll_bcast_flush (win) != ONECOLL_OK)
            {
              fprintf (stderr, "rec-bench-onecoll: broadcast %d failed\n", i);
              MPI_Abort (MPI_COMM_WORLD, 1);
            }
        }
      MPI_Barrier (MPI_COMM_WORLD);
      t = (MPI_Wtime () - t0) / n;
      if (t < best)
        best = t;
    }
  if (rank == 0)
    printf ("onecoll-bcast %.1f\n", best * 1e6);
  onecoll_win_free (win);
  onecoll_finalize ();
  free (buf);
  MPI_Finalize ();
  return 0;
}
