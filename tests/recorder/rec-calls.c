/*
 * rec-calls.c - the MPI calls the recorder's table added: neighbourhood
 * collectives, MPI_Alltoallw, matched probes, buffered sends and
 * MPI_Buffer_detach, request-based RMA, generalized
 * requests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On 4 ranks in a periodic ring (a 1-D Cartesian communicator):
 *  - MPI_Neighbor_allgather, MPI_Ineighbor_alltoall + MPI_Wait: 2
 *    collectives with 4 members, each rank sends 2 x 4 bytes and receives
 *    2 x 4;
 *  - MPI_Alltoallw and MPI_Ialltoallw on MPI_COMM_WORLD: 2 collectives;
 *  - to the right: MPI_Send, received with MPI_Mprobe + MPI_Mrecv; again,
 *    received with a MPI_Improbe loop + MPI_Imrecv + MPI_Wait; MPI_Bsend
 *    into an attached buffer, received with MPI_Recv, then
 *    MPI_Buffer_detach: 3 messages per rank, all matched;
 *  - MPI_Rget + MPI_Rput to the right in a MPI_Win_lock_all epoch (the
 *    tests run with --mca osc sm, which has no dynamic windows for
 *    MPI_Win_attach/detach): 2 RMA operations per rank;
 *  - a generalized request completed at once and waited for.
 */
#include "rec-test.h"

static int
query (void       *state,
       MPI_Status *status)
{
  (void) state;
  MPI_Status_set_elements (status, MPI_BYTE, 0);
  MPI_Status_set_cancelled (status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}

static int
free_state (void *state)
{
  (void) state;
  return MPI_SUCCESS;
}

static int
cancel (void *state,
        int   complete)
{
  (void) state;
  (void) complete;
  return MPI_SUCCESS;
}

int
main (int    argc,
      char **argv)
{
  int size = rec_init (&argc, &argv, 4);
  int dims[1] = { 0 }, periods[1] = { 1 };
  int left = (rec_rank + size - 1) % size, right = (rec_rank + 1) % size;
  MPI_Comm ring;
  MPI_Request req;

  dims[0] = size;
  MPI_Cart_create (MPI_COMM_WORLD, 1, dims, periods, 0, &ring); /* CALLSITE:MPI_Cart_create */
  {
    int mine = rec_rank, got[2] = { -1, -1 };

    MPI_Neighbor_allgather (&mine, 1, MPI_INT, got, 1, MPI_INT, ring); /* CALLSITE:MPI_Neighbor_allgather */
    REC_CHECK (got[0] == left && got[1] == right, "neighbours %d %d", got[0], got[1]);
    MPI_Ineighbor_alltoall (got, 1, MPI_INT, got, 1, MPI_INT, ring, &req); /* CALLSITE:MPI_Ineighbor_alltoall */
    MPI_Wait (&req, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
  }
  {
    int counts[64], displs[64], out[64], in[64];
    MPI_Datatype types[64];

    for (int i = 0; i < size; i++)
      {
        counts[i] = 1;
        displs[i] = i * (int) sizeof (int);
        types[i] = MPI_INT;
        out[i] = rec_rank * 100 + i;
      }
    MPI_Alltoallw (out, counts, displs, types, in, counts, displs, types, MPI_COMM_WORLD); /* CALLSITE:MPI_Alltoallw */
    REC_CHECK (in[left] == left * 100 + rec_rank, "alltoallw gave %d", in[left]);
    MPI_Ialltoallw (out, counts, displs, types, in, counts, displs, types, MPI_COMM_WORLD, &req); /* CALLSITE:MPI_Ialltoallw */
    MPI_Wait (&req, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
  }
  {
    int x = rec_rank, y = -1, flag = 0;
    MPI_Message msg;
    MPI_Status status;

    MPI_Send (&x, 1, MPI_INT, right, 1, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
    MPI_Mprobe (left, 1, MPI_COMM_WORLD, &msg, &status); /* CALLSITE:MPI_Mprobe */
    MPI_Mrecv (&y, 1, MPI_INT, &msg, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Mrecv */
    REC_CHECK (y == left, "Mrecv gave %d", y);
    MPI_Send (&x, 1, MPI_INT, right, 2, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
    while (!flag)
      MPI_Improbe (left, 2, MPI_COMM_WORLD, &flag, &msg, &status); /* CALLSITE:MPI_Improbe */
    MPI_Imrecv (&y, 1, MPI_INT, &msg, &req); /* CALLSITE:MPI_Imrecv */
    MPI_Wait (&req, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
  }
  {
    static char buffer[1024 + MPI_BSEND_OVERHEAD];
    void *detached;
    int x = rec_rank, y = -1, n;

    MPI_Buffer_attach (buffer, sizeof buffer); /* CALLSITE:MPI_Buffer_attach */
    MPI_Bsend (&x, 1, MPI_INT, right, 3, MPI_COMM_WORLD); /* CALLSITE:MPI_Bsend */
    MPI_Recv (&y, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
    MPI_Buffer_detach (&detached, &n); /* CALLSITE:MPI_Buffer_detach */
  }
  {
    MPI_Win win;
    int *local, got = -1, x = rec_rank;

    MPI_Win_allocate (sizeof (int), sizeof (int), MPI_INFO_NULL, MPI_COMM_WORLD, &local, &win); /* CALLSITE:MPI_Win_allocate */
    *local = rec_rank;
    MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
    MPI_Win_lock_all (0, win); /* CALLSITE:MPI_Win_lock_all */
    MPI_Rget (&got, 1, MPI_INT, right, 0, 1, MPI_INT, win, &req); /* CALLSITE:MPI_Rget */
    MPI_Wait (&req, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
    REC_CHECK (got == right, "Rget gave %d", got);
    MPI_Win_flush_all (win); /* CALLSITE:MPI_Win_flush_all */
    MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
    MPI_Rput (&x, 1, MPI_INT, right, 0, 1, MPI_INT, win, &req); /* CALLSITE:MPI_Rput */
    MPI_Wait (&req, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
    MPI_Win_unlock_all (win); /* CALLSITE:MPI_Win_unlock_all */
    MPI_Barrier (MPI_COMM_WORLD); /* CALLSITE:MPI_Barrier */
    MPI_Win_lock (MPI_LOCK_SHARED, rec_rank, 0, win); /* CALLSITE:MPI_Win_lock */
    REC_CHECK (*local == left, "Rput left %d", *local);
    MPI_Win_unlock (rec_rank, win); /* CALLSITE:MPI_Win_unlock */
    MPI_Win_free (&win); /* CALLSITE:MPI_Win_free */
  }
  MPI_Grequest_start (query, free_state, cancel, NULL, &req); /* CALLSITE:MPI_Grequest_start */
  MPI_Grequest_complete (req); /* CALLSITE:MPI_Grequest_complete */
  MPI_Wait (&req, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */

  MPI_Comm_free (&ring); /* CALLSITE:MPI_Comm_free */
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
