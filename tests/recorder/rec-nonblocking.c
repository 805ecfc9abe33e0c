/*
 * rec-nonblocking.c - non-blocking point-to-point and collectives, every
 * completion call.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On a ring of p ranks, ROUNDS rounds of "Irecv from the left, Isend to the
 * right" per way of completing them: MPI_Waitall, MPI_Wait x 2,
 * MPI_Testall loop, MPI_Waitany x 2, MPI_Waitsome loop, MPI_Testany and
 * MPI_Testsome loops. Then ROUNDS MPI_Sendrecv around the ring; one
 * MPI_Iallreduce + MPI_Wait, one MPI_Ibarrier + MPI_Test loop, one
 * MPI_Ibcast + MPI_Waitall(MPI_STATUSES_IGNORE); a receive that is
 * cancelled; a send to MPI_PROC_NULL (no message record).
 * Per rank: 7 x ROUNDS MPI_ISEND and MPI_IRECV, ROUNDS MPI_SEND and
 * MPI_RECV, one MPI_REQUEST_CANCELLED, 3 non-blocking collectives.
 */
#include "rec-test.h"

#define ROUNDS 10

static int left, right;

static void
post (int          *in,
      int          *out,
      int           tag,
      MPI_Request   req[2])
{
  *out = rec_rank * 1000 + tag;
  MPI_Irecv (in, 1, MPI_INT, left, tag, MPI_COMM_WORLD, &req[0]); /* CALLSITE:MPI_Irecv */
  MPI_Isend (out, 1, MPI_INT, right, tag, MPI_COMM_WORLD, &req[1]); /* CALLSITE:MPI_Isend */
}

static void
check (int in,
       int tag)
{
  REC_CHECK (in == left * 1000 + tag, "tag %d: received %d", tag, in);
}

int
main (int    argc,
      char **argv)
{
  int size = rec_init (&argc, &argv, 2);
  MPI_Request req[2];
  MPI_Status status[2];
  int in, out, tag = 0;

  left = (rec_rank + size - 1) % size;
  right = (rec_rank + 1) % size;

  for (int r = 0; r < ROUNDS; r++, tag++)
    {
      post (&in, &out, tag, req);
      MPI_Waitall (2, req, status); /* CALLSITE:MPI_Waitall */
      check (in, tag);
    }
  for (int r = 0; r < ROUNDS; r++, tag++)
    {
      post (&in, &out, tag, req);
      MPI_Wait (&req[0], &status[0]); /* CALLSITE:MPI_Wait */
      MPI_Wait (&req[1], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
      check (in, tag);
    }
  for (int r = 0; r < ROUNDS; r++, tag++)
    {
      int flag = 0;

      post (&in, &out, tag, req);
      while (!flag)
        MPI_Testall (2, req, &flag, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Testall */
      check (in, tag);
    }
  for (int r = 0; r < ROUNDS; r++, tag++)
    {
      int index;

      post (&in, &out, tag, req);
      MPI_Waitany (2, req, &index, &status[0]); /* CALLSITE:MPI_Waitany */
      MPI_Waitany (2, req, &index, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Waitany */
      check (in, tag);
    }
  for (int r = 0; r < ROUNDS; r++, tag++)
    {
      int done = 0, outcount, indices[2];

      post (&in, &out, tag, req);
      while (done < 2)
        {
          MPI_Waitsome (2, req, &outcount, indices, status); /* CALLSITE:MPI_Waitsome */
          done += outcount;
        }
      check (in, tag);
    }
  for (int r = 0; r < ROUNDS; r++, tag++)
    {
      int flag = 0, index, done = 0;

      post (&in, &out, tag, req);
      while (done < 1)
        {
          MPI_Testany (2, req, &index, &flag, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Testany */
          done += flag && index != MPI_UNDEFINED;
        }
      MPI_Waitall (2, req, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitall */
      check (in, tag);
    }
  for (int r = 0; r < ROUNDS; r++, tag++)
    {
      int done = 0, outcount, indices[2];

      post (&in, &out, tag, req);
      while (done < 2)
        {
          MPI_Testsome (2, req, &outcount, indices, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Testsome */
          done += outcount;
        }
      check (in, tag);
    }
  for (int r = 0; r < ROUNDS; r++, tag++)
    {
      out = rec_rank * 1000 + tag;
      MPI_Sendrecv (&out, 1, MPI_INT, right, tag, &in, 1, MPI_INT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Sendrecv */
      check (in, tag);
    }

  /* non-blocking collectives */
  {
    int one = 1, sum = 0, flag = 0, value = rec_rank == 0 ? 77 : 0;
    MPI_Request creq;

    MPI_Iallreduce (&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &creq); /* CALLSITE:MPI_Iallreduce */
    MPI_Wait (&creq, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
    REC_CHECK (sum == size, "Iallreduce gave %d", sum);
    MPI_Ibarrier (MPI_COMM_WORLD, &creq); /* CALLSITE:MPI_Ibarrier */
    while (!flag)
      MPI_Test (&creq, &flag, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Test */
    MPI_Ibcast (&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &creq); /* CALLSITE:MPI_Ibcast */
    MPI_Waitall (1, &creq, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitall */
    REC_CHECK (value == 77, "Ibcast gave %d", value);
  }

  /* a cancelled receive, and a send to nobody */
  {
    int cancelled = 0, dummy = 0;

    MPI_Irecv (&in, 1, MPI_INT, left, 999999, MPI_COMM_WORLD, &req[0]); /* CALLSITE:MPI_Irecv */
    MPI_Cancel (&req[0]); /* CALLSITE:MPI_Cancel */
    MPI_Wait (&req[0], &status[0]); /* CALLSITE:MPI_Wait */
    MPI_Test_cancelled (&status[0], &cancelled);
    REC_CHECK (cancelled, "the receive was not cancelled");
    MPI_Isend (&dummy, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req[1]); /* CALLSITE:MPI_Isend */
    MPI_Wait (&req[1], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
  }
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
