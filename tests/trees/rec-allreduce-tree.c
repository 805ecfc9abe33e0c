/*
 * rec-allreduce-tree.c - one onecoll allreduce whose exchange is known.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   rec-allreduce-tree ALGO COUNT
 *
 * Linked with the recorder and onecoll (sextant_recorder_onecoll_dep);
 * tests/test-trees.py records it and checks the exchange `sextant tree`
 * draws: every rank a node, every message of the allreduce an edge in its
 * phase (prepare, halving, doubling, distribute), the critical path a
 * chain of messages. ALGO is a name of onecoll_reduce_algo_name() ("rhrd",
 * "prior-art", "s0s1"); COUNT doubles. The only point-to-point messages
 * of the run are the allreduce's; the result is checked on every rank.
 */
#include "../recorder/rec-test.h"

#include "onecoll.h"

#include <stdlib.h>
#include <string.h>

int
main (int    argc,
      char **argv)
{
  onecoll_reduce_opts opts = { ONECOLL_REDUCE_AUTO, ONECOLL_CHECK_LOCAL };
  double *in, *out;
  int size, count, rc;

  size = rec_init (&argc, &argv, 2);
  REC_CHECK (argc == 3, "usage: rec-allreduce-tree ALGO COUNT");
  for (int a = 0; a < ONECOLL_REDUCE_N_ALGOS; a++)
    if (strcmp (onecoll_reduce_algo_name (a), argv[1]) == 0)
      opts.algo = (onecoll_reduce_algo) a;
  REC_CHECK (opts.algo != ONECOLL_REDUCE_AUTO, "unknown algorithm %s", argv[1]);
  count = atoi (argv[2]);
  in = malloc ((size_t) count * sizeof *in);
  out = malloc ((size_t) count * sizeof *out);
  REC_CHECK (in != NULL && out != NULL, "out of memory");
  for (int i = 0; i < count; i++)
    in[i] = rec_rank + i;

  MPI_Barrier (MPI_COMM_WORLD);
  rc = onecoll_allreduce (in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &opts);
  REC_CHECK (rc == MPI_SUCCESS, "onecoll_allreduce (%s): %d", argv[1], rc);
  for (int i = 0; i < count; i++)
    REC_CHECK (out[i] == (double) size * (size - 1) / 2 + (double) size * i,
               "element %d: %g", i, out[i]);

  free (in);
  free (out);
  MPI_Finalize ();
  return 0;
}
