/*
 * rec-comms.c - communicators the recorder learns about late, and handles
 * that MPI reuses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On 4 ranks: MPI_Comm_dup(MPI_COMM_WORLD) with a barrier, freed; then
 * MPI_Comm_create_group of {0, 1} on ranks 0 and 1 and of {2, 3} on ranks
 * 2 and 3 (Open MPI may give them the freed duplicate's handle), a barrier
 * on each; then an inter-communicator between the two pairs, which the
 * recorder did not see made: a message each way between rank r of one pair
 * and rank r of the other (MPI_Sendrecv, then MPI_Isend/MPI_Irecv), a
 * broadcast from rank 0 of the first pair (MPI_ROOT there, MPI_PROC_NULL on
 * its partner), an allreduce and a barrier on it, a barrier on its
 * MPI_Comm_dup; an MPI_Comm_idup of it with an MPI_Ibarrier and a second
 * inter-communicator between the pairs, with the same members, with an
 * MPI_Iallreduce, ranks 0 and 2 first using the idup's, 1 and 3 the second
 * one (named by their members in the order of first use, the two would
 * swap names on one side and the barrier meet the allreduce); then
 * MPI_Intercomm_merge of the first (a 4-rank intra-communicator the
 * recorder did not see made) with a barrier. Collectives: the duplicate's
 * barrier (4 members), two barriers of 2 members, the inter-communicator's
 * broadcast, allreduce and barrier, its duplicate's barrier, the Ibarrier
 * and the Iallreduce (4 members each), the merged barrier (4 members),
 * the dups' CREATE_HANDLE (the idup's non-blocking) and DESTROY_HANDLE.
 * Messages: 8, all matched. Last, an
 * inter-communicator of unequal groups, {0} and {1, 2, 3}, whose per-peer
 * arrays have the remote group's size: an MPI_Alltoallw of one int per peer
 * (rank 0 sends and receives 12 bytes, the others 4) and an MPI_Gather to
 * rank 0 (MPI_ROOT there: it receives 12 bytes, the others send 4).
 */
#include "rec-test.h"

#include <stdlib.h>

int
main (int    argc,
      char **argv)
{
  MPI_Comm dup, pair, inter, inter_dup, inter_idup, inter2, merged, side, uneven;
  MPI_Group world, half;
  MPI_Request reqs[2], idup;
  int ranks[2], size, local, out, in = -1, sum = 0, remote, got[3];

  rec_init (&argc, &argv, 4);
  MPI_Comm_dup (MPI_COMM_WORLD, &dup); /* CALLSITE:MPI_Comm_dup */
  MPI_Barrier (dup); /* CALLSITE:MPI_Barrier */
  MPI_Comm_free (&dup); /* CALLSITE:MPI_Comm_free */

  MPI_Comm_group (MPI_COMM_WORLD, &world);
  ranks[0] = rec_rank / 2 * 2;
  ranks[1] = ranks[0] + 1;
  MPI_Group_incl (world, 2, ranks, &half);
  MPI_Comm_create_group (MPI_COMM_WORLD, half, 7, &pair); /* CALLSITE:MPI_Comm_create_group */
  MPI_Comm_size (pair, &size);
  REC_CHECK (size == 2, "the pair has %d ranks", size);
  MPI_Barrier (pair); /* CALLSITE:MPI_Barrier */

  MPI_Intercomm_create (pair, 0, MPI_COMM_WORLD, rec_rank < 2 ? 2 : 0, 8, &inter); /* CALLSITE:MPI_Intercomm_create */
  /* ranks on an inter-communicator are the remote group's */
  MPI_Comm_rank (inter, &local);
  out = rec_rank;
  MPI_Sendrecv (&out, 1, MPI_INT, local, 1, &in, 1, MPI_INT, local, 1, inter, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Sendrecv */
  REC_CHECK (in == (rec_rank + 2) % 4, "rank %d got %d across the inter-communicator", rec_rank, in);
  MPI_Irecv (&in, 1, MPI_INT, local, 2, inter, &reqs[0]); /* CALLSITE:MPI_Irecv */
  MPI_Isend (&out, 1, MPI_INT, local, 2, inter, &reqs[1]); /* CALLSITE:MPI_Isend */
  MPI_Waitall (2, reqs, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitall */
  in = rec_rank == 0 ? 42 : -1;
  MPI_Bcast (&in, 1, MPI_INT, rec_rank >= 2 ? 0 : rec_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter); /* CALLSITE:MPI_Bcast */
  REC_CHECK (rec_rank < 2 || in == 42, "rank %d got %d from the broadcast", rec_rank, in);
  MPI_Allreduce (&out, &sum, 1, MPI_INT, MPI_SUM, inter); /* CALLSITE:MPI_Allreduce */
  MPI_Barrier (inter); /* CALLSITE:MPI_Barrier */
  MPI_Comm_dup (inter, &inter_dup); /* CALLSITE:MPI_Comm_dup */
  MPI_Barrier (inter_dup); /* CALLSITE:MPI_Barrier */
  MPI_Comm_free (&inter_dup); /* CALLSITE:MPI_Comm_free */
  /* the recorder defines an idup's communicator when its request
   * completes, as a child of its parent: the same on every rank, whatever
   * other communicators of the same members each rank uses first */
  MPI_Comm_idup (inter, &inter_idup, &idup); /* CALLSITE:MPI_Comm_idup */
  MPI_Wait (&idup, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
  MPI_Intercomm_create (pair, 0, MPI_COMM_WORLD, rec_rank < 2 ? 2 : 0, 10, &inter2); /* CALLSITE:MPI_Intercomm_create */
  if (rec_rank % 2 == 0)
    {
      MPI_Ibarrier (inter_idup, &reqs[0]); /* CALLSITE:MPI_Ibarrier */
      MPI_Iallreduce (&out, &sum, 1, MPI_INT, MPI_SUM, inter2, &reqs[1]); /* CALLSITE:MPI_Iallreduce */
    }
  else
    {
      MPI_Iallreduce (&out, &sum, 1, MPI_INT, MPI_SUM, inter2, &reqs[0]); /* CALLSITE:MPI_Iallreduce */
      MPI_Ibarrier (inter_idup, &reqs[1]); /* CALLSITE:MPI_Ibarrier */
    }
  MPI_Waitall (2, reqs, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitall */
  MPI_Comm_free (&inter2); /* CALLSITE:MPI_Comm_free */
  MPI_Comm_free (&inter_idup); /* CALLSITE:MPI_Comm_free */
  MPI_Intercomm_merge (inter, rec_rank >= 2, &merged); /* CALLSITE:MPI_Intercomm_merge */
  MPI_Comm_size (merged, &size);
  REC_CHECK (size == 4, "the merged communicator has %d ranks", size);
  MPI_Barrier (merged); /* CALLSITE:MPI_Barrier */

  MPI_Comm_split (MPI_COMM_WORLD, rec_rank > 0, rec_rank, &side); /* CALLSITE:MPI_Comm_split */
  MPI_Intercomm_create (side, 0, MPI_COMM_WORLD, rec_rank == 0 ? 1 : 0, 9, &uneven); /* CALLSITE:MPI_Intercomm_create */
  MPI_Comm_remote_size (uneven, &remote);
  {
    /* exactly the remote group's entries: reading more would take garbage */
    int *counts = malloc ((size_t) remote * sizeof *counts);
    int *displs = malloc ((size_t) remote * sizeof *displs);
    MPI_Datatype *types = malloc ((size_t) remote * sizeof *types);
    int mine[3] = { rec_rank, rec_rank, rec_rank };

    REC_CHECK (counts != NULL && displs != NULL && types != NULL, "out of memory");
    for (int i = 0; i < remote; i++)
      {
        counts[i] = 1;
        displs[i] = i * (int) sizeof (int);
        types[i] = MPI_INT;
      }
    MPI_Alltoallw (mine, counts, displs, types, got, counts, displs, types, uneven); /* CALLSITE:MPI_Alltoallw */
    REC_CHECK (rec_rank == 0 ? got[0] == 1 && got[2] == 3 : got[0] == 0, "rank %d: alltoallw got %d",
               rec_rank, got[0]);
    MPI_Gather (mine, 1, MPI_INT, got, 1, MPI_INT, rec_rank == 0 ? MPI_ROOT : 0, uneven); /* CALLSITE:MPI_Gather */
    free (counts);
    free (displs);
    free (types);
  }
  MPI_Comm_free (&uneven); /* CALLSITE:MPI_Comm_free */
  MPI_Comm_free (&side); /* CALLSITE:MPI_Comm_free */

  MPI_Comm_free (&merged); /* CALLSITE:MPI_Comm_free */
  MPI_Comm_free (&inter); /* CALLSITE:MPI_Comm_free */
  MPI_Comm_free (&pair); /* CALLSITE:MPI_Comm_free */
  MPI_Group_free (&half);
  MPI_Group_free (&world);
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
