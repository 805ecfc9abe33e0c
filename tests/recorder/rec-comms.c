/*
 * rec-comms.c - communicators the recorder learns about late, and handles
 * that MPI reuses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On 4 ranks: MPI_Comm_dup(MPI_COMM_WORLD) with a barrier, freed; then
 * MPI_Comm_create_group of {0, 1} on ranks 0 and 1 and of {2, 3} on ranks
 * 2 and 3 (Open MPI may give them the freed duplicate's handle), a barrier
 * on each, freed; then MPI_Intercomm_merge of an inter-communicator
 * between the two pairs (a 4-rank intra-communicator the recorder did not
 * see made) with a barrier. Collectives: the duplicate's barrier (4
 * members), two barriers of 2 members, the merged barrier (4 members), the
 * dup's CREATE_HANDLE and DESTROY_HANDLE on MPI_COMM_WORLD.
 */
#include "rec-test.h"

int
main (int    argc,
      char **argv)
{
  MPI_Comm dup, pair, inter, merged;
  MPI_Group world, half;
  int ranks[2], size;

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
  MPI_Intercomm_merge (inter, rec_rank >= 2, &merged); /* CALLSITE:MPI_Intercomm_merge */
  MPI_Comm_size (merged, &size);
  REC_CHECK (size == 4, "the merged communicator has %d ranks", size);
  MPI_Barrier (merged); /* CALLSITE:MPI_Barrier */

  MPI_Comm_free (&merged); /* CALLSITE:MPI_Comm_free */
  /* not freed: MPI_Comm_free would show the recorder the
   * inter-communicator, which it records for each rank alone (warned) */
  MPI_Comm_free (&pair); /* CALLSITE:MPI_Comm_free */
  MPI_Group_free (&half);
  MPI_Group_free (&world);
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
