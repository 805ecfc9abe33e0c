/*
 * rec-overhead.c - the cost of a recorded MPI call (measure-overhead.py).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   rec-overhead KERNEL N [RUNS]
 *
 * Rank 0 prints "KERNEL <ns per operation>" for the best of RUNS (default
 * 40) runs of N operations (short runs, and the minimum of many, filter out
 * the other jobs that share the machine's cores):
 *   iprobe    MPI_Iprobe on an empty queue, one rank alone: the recorder's
 *             own cost per call (ENTER, call site, LEAVE) on top of a
 *             cheap MPI call;
 *   send      rank 0 sends N empty messages (MPI_Send, eager) to rank 1,
 *             which receives them; time per send on rank 0;
 *   pingpong  ranks 0 and 1 exchange empty messages; time per round trip,
 *             which has four recorded calls on its critical path.
 * Run the same binary with and without the recorder.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static double
kernel (const char *name,
        int         rank,
        int         n)
{
  double t0, t1;
  int flag;

  MPI_Barrier (MPI_COMM_WORLD);
  t0 = MPI_Wtime ();
  if (strcmp (name, "iprobe") == 0)
    {
      for (int i = 0; i < n; i++)
        MPI_Iprobe (MPI_ANY_SOURCE, 12345, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
    }
  else if (strcmp (name, "send") == 0)
    {
      for (int i = 0; i < n; i++)
        {
          if (rank == 0)
            MPI_Send (NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
          else if (rank == 1)
            MPI_Recv (NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      t1 = MPI_Wtime ();
      /* the receiver catches up before the next run */
      MPI_Barrier (MPI_COMM_WORLD);
      return (t1 - t0) / n;
    }
  else if (strcmp (name, "pingpong") == 0)
    {
      for (int i = 0; i < n; i++)
        {
          if (rank == 0)
            {
              MPI_Send (NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
              MPI_Recv (NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
          else if (rank == 1)
            {
              MPI_Recv (NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
              MPI_Send (NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
    }
  else
    {
      fprintf (stderr, "unknown kernel %s\n", name);
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  t1 = MPI_Wtime ();
  return (t1 - t0) / n;
}

int
main (int    argc,
      char **argv)
{
  const char *name = argc > 1 ? argv[1] : "iprobe";
  int n = argc > 2 ? atoi (argv[2]) : 100000;
  int runs = argc > 3 ? atoi (argv[3]) : 40;
  double best = 1e30;
  int rank;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  for (int run = 0; run < runs; run++)
    {
      double t = kernel (name, rank, n);

      if (t < best)
        best = t;
    }
  if (rank == 0)
    printf ("%s %.1f\n", name, best * 1e9);
  MPI_Finalize ();
  return 0;
}
