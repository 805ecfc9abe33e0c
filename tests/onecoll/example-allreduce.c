/*
 * example-allreduce.c - the example of docs/onecoll.md ("Installed
 * library"): an MPI program built against the installed onecoll with
 *   mpicc example-allreduce.c $(pkg-config --cflags --libs onecoll)
 * (tests/onecoll/install-test.sh builds and runs it from a DESTDIR copy).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <onecoll.h>
#include <stdio.h>

int
main (int    argc,
      char **argv)
{
  enum { COUNT = 100003 };
  static double in[COUNT], out[COUNT];
  onecoll_reduce_opts opts = { ONECOLL_REDUCE_S0S1, ONECOLL_CHECK_AGREE };
  int rank, size, rc, bad = 0;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  for (int i = 0; i < COUNT; i++)
    in[i] = rank + i;
  rc = onecoll_allreduce (in, out, COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &opts);
  for (int i = 0; i < COUNT; i++)
    if (out[i] != (double) size * (size - 1) / 2 + (double) size * i)
      bad++;
  if (rank == 0)
    printf ("example: onecoll_allreduce (%s) on %d ranks: rc %d, %d wrong elements\n",
            onecoll_reduce_algo_name (opts.algo), size, rc, bad);
  MPI_Finalize ();
  return rc != MPI_SUCCESS || bad != 0;
}
