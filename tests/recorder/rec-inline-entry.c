/*
 * rec-inline-entry.c - a function that begins with inlined code.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * step() begins with round_skipped(), an always_inline helper; at -O2 GCC
 * tests it before step()'s prologue (shrink-wrapping), so that step()'s
 * first instruction belongs to the inlined helper, where libdw's scopes
 * are those of round_skipped only. step() makes its MPI calls itself and
 * through a second inlined helper, reduce_round(). ROUNDS (argv[1],
 * default 20) rounds on every rank.
 * Expected: the region of step has this file and step's declaration line
 * (marked DECL), as main has its own; the call in reduce_round has its line
 * in reduce_round, in the calling context step <- main.
 */
#include "rec-test.h"

static inline __attribute__ ((always_inline)) int
round_skipped (const int *skip,
               int        iter)
{
  return skip[iter & 7] != 0;
}

static inline __attribute__ ((always_inline)) void
reduce_round (int *sum,
              int  iter)
{
  *sum = iter;
  MPI_Allreduce (MPI_IN_PLACE, sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* CALLSITE:MPI_Allreduce */
}

__attribute__ ((noinline)) static int
step (const int *skip, /* DECL:step */
      int        iter)
{
  int sum;

  if (round_skipped (skip, iter))
    return 0;
  reduce_round (&sum, iter);
  MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
  return sum;
}

int
main (int    argc, /* DECL:main */
      char **argv)
{
  int skip[8];
  int rounds = argc > 1 ? atoi (argv[1]) : 20;
  int done = 0;
  int size = rec_init (&argc, &argv, 1);

  /* filled at run time: with a constant table GCC clones step() for it
   * (step.constprop.0 would be the region's name) */
  for (int i = 0; i < 8; i++)
    skip[i] = i == 3;
  for (int i = 0; i < rounds; i++)
    {
      int sum = step (skip, i); /* CALLSITE:step */

      if (!round_skipped (skip, i))
        {
          REC_CHECK (sum == i * size, "round %d summed to %d", i, sum);
          done++;
        }
    }
  REC_CHECK (done == rounds - (rounds + 4) / 8, "%d of %d rounds done", done, rounds);
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
