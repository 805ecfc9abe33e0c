/*
 * rec-rma.c - one-sided communication in every synchronisation mode.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On a window from MPI_Win_allocate (osc/sm needs it), every rank:
 *  1. exclusive lock on its right neighbour, MPI_Put, unlock;
 *  2. fence; MPI_Put to the left, MPI_Get from the right; fence;
 *  3. lock_all; MPI_Accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap on
 *     rank 0; MPI_Win_flush; unlock_all;
 *  4. post/start/complete/wait: even rank e puts into odd rank e + 1;
 *  5. shared lock on itself, MPI_Win_sync, unlock.
 * Per rank: 2 puts (+1 on even ranks), 1 get, 3 atomics, 3 locks, 2 group
 * synchronisations, all operations completed.
 */
#include "rec-test.h"

#define SLOTS 8

int
main (int    argc,
      char **argv)
{
  int size = rec_init (&argc, &argv, 2);
  int right = (rec_rank + 1) % size, left = (rec_rank + size - 1) % size;
  int *base, value = 100 + rec_rank, got = -1, one = 1, old = -1, cmp = 0, swap = 5, res = -1;
  MPI_Win win;
  MPI_Group world, partner;

  MPI_Win_allocate (SLOTS * sizeof (int), sizeof (int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win); /* CALLSITE:MPI_Win_allocate */
  MPI_Win_lock (MPI_LOCK_EXCLUSIVE, rec_rank, 0, win); /* CALLSITE:MPI_Win_lock */
  for (int i = 0; i < SLOTS; i++)
    base[i] = 0;
  MPI_Win_unlock (rec_rank, win); /* CALLSITE:MPI_Win_unlock */
  MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */

  /* 1. passive target, exclusive */
  MPI_Win_lock (MPI_LOCK_EXCLUSIVE, right, 0, win); /* CALLSITE:MPI_Win_lock */
  MPI_Put (&value, 1, MPI_INT, right, 0, 1, MPI_INT, win); /* CALLSITE:MPI_Put */
  MPI_Win_unlock (right, win); /* CALLSITE:MPI_Win_unlock */
  MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */

  /* 2. fence epoch */
  MPI_Win_fence (0, win); /* CALLSITE:MPI_Win_fence */
  MPI_Put (&value, 1, MPI_INT, left, 1, 1, MPI_INT, win); /* CALLSITE:MPI_Put */
  MPI_Get (&got, 1, MPI_INT, right, 0, 1, MPI_INT, win); /* CALLSITE:MPI_Get */
  MPI_Win_fence (0, win); /* CALLSITE:MPI_Win_fence */
  REC_CHECK (got == value, "get from the right gave %d, expected %d", got, value);

  /* 3. atomics under lock_all */
  MPI_Win_lock_all (0, win); /* CALLSITE:MPI_Win_lock_all */
  MPI_Accumulate (&one, 1, MPI_INT, 0, 2, 1, MPI_INT, MPI_SUM, win); /* CALLSITE:MPI_Accumulate */
  MPI_Fetch_and_op (&one, &old, MPI_INT, 0, 3, MPI_SUM, win); /* CALLSITE:MPI_Fetch_and_op */
  MPI_Compare_and_swap (&swap, &cmp, &res, MPI_INT, 0, 4, win); /* CALLSITE:MPI_Compare_and_swap */
  MPI_Win_flush (0, win); /* CALLSITE:MPI_Win_flush */
  MPI_Win_unlock_all (win); /* CALLSITE:MPI_Win_unlock_all */
  MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
  if (rec_rank == 0)
    {
      MPI_Win_lock (MPI_LOCK_SHARED, 0, 0, win); /* CALLSITE:MPI_Win_lock */
      REC_CHECK (base[2] == size && base[3] == size && base[4] == swap,
                 "atomics: %d %d %d", base[2], base[3], base[4]);
      MPI_Win_unlock (0, win); /* CALLSITE:MPI_Win_unlock */
    }

  /* 4. general active target: pairs (even, odd) */
  MPI_Comm_group (MPI_COMM_WORLD, &world);
  if (rec_rank % 2 == 0 && rec_rank + 1 < size)
    {
      int other = rec_rank + 1;

      MPI_Group_incl (world, 1, &other, &partner);
      MPI_Win_start (partner, 0, win); /* CALLSITE:MPI_Win_start */
      MPI_Put (&value, 1, MPI_INT, other, 5, 1, MPI_INT, win); /* CALLSITE:MPI_Put */
      MPI_Win_complete (win); /* CALLSITE:MPI_Win_complete */
      MPI_Group_free (&partner);
    }
  else if (rec_rank % 2 == 1)
    {
      int other = rec_rank - 1;

      MPI_Group_incl (world, 1, &other, &partner);
      MPI_Win_post (partner, 0, win); /* CALLSITE:MPI_Win_post */
      MPI_Win_wait (win); /* CALLSITE:MPI_Win_wait */
      REC_CHECK (base[5] == 100 + other, "PSCW put gave %d", base[5]);
      MPI_Group_free (&partner);
    }
  MPI_Group_free (&world);

  /* 5. a shared lock on itself and a memory sync */
  MPI_Win_lock (MPI_LOCK_SHARED, rec_rank, 0, win); /* CALLSITE:MPI_Win_lock */
  MPI_Win_sync (win); /* CALLSITE:MPI_Win_sync */
  MPI_Win_unlock (rec_rank, win); /* CALLSITE:MPI_Win_unlock */

  MPI_Win_free (&win); /* CALLSITE:MPI_Win_free */
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
