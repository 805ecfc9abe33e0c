/*
 * rec-requests.c - requests that share a handle, every completion call,
 * freed and persistent requests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Open MPI gives every request that is complete when it starts the same
 * handle (&ompi_request_empty): small eager MPI_Isends, non-blocking
 * collectives on MPI_COMM_SELF. On 2 ranks, per rank:
 *  - NSMALL small Isends to the other rank, four times, completed by
 *    MPI_Wait each, MPI_Waitall, a MPI_Waitsome loop and a MPI_Testany
 *    loop; the other rank receives them with MPI_Recv (4 x NSMALL
 *    ISEND, ISEND_COMPLETE, RECV);
 *  - NSMALL non-blocking collectives on MPI_COMM_SELF, three times,
 *    completed by MPI_Waitall, a MPI_Testsome loop and a MPI_Waitany loop
 *    (3 x NSMALL NON_BLOCKING_COLLECTIVE_REQUEST and _COMPLETE);
 *  - an Isend and an Irecv (given source and tag) freed active with
 *    MPI_Request_free: the message is matched (1 ISEND, ISEND_COMPLETE,
 *    IRECV_REQUEST, IRECV);
 *  - a persistent send and receive (MPI_Send_init, MPI_Recv_init) started
 *    NPERSIST times with MPI_Startall and completed with MPI_Waitall, then
 *    freed (NPERSIST ISEND, ISEND_COMPLETE, IRECV_REQUEST, IRECV).
 */
#include "rec-test.h"

#define NSMALL 4
#define NPERSIST 3

static void
small_sends (int          peer,
             int          tag,
             MPI_Request  req[NSMALL],
             int          out[NSMALL])
{
  for (int i = 0; i < NSMALL; i++)
    {
      out[i] = rec_rank * 100 + tag + i;
      MPI_Isend (&out[i], 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &req[i]); /* CALLSITE:MPI_Isend */
    }
}

static void
small_receives (int peer,
                int tag)
{
  for (int i = 0; i < NSMALL; i++)
    {
      int in = -1;

      MPI_Recv (&in, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv */
      REC_CHECK (in == peer * 100 + tag + i, "tag %d: received %d", tag, in);
    }
}

static void
self_collectives (MPI_Request req[NSMALL],
                  int         value[NSMALL],
                  int         sum[NSMALL])
{
  for (int i = 0; i < NSMALL; i++)
    {
      value[i] = i;
      if (i % 2 == 0)
        MPI_Iallreduce (&value[i], &sum[i], 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &req[i]); /* CALLSITE:MPI_Iallreduce */
      else
        MPI_Ibarrier (MPI_COMM_SELF, &req[i]); /* CALLSITE:MPI_Ibarrier */
    }
}

int
main (int    argc,
      char **argv)
{
  MPI_Request req[NSMALL];
  int out[NSMALL], value[NSMALL], sum[NSMALL];
  int peer, done, tag = 0;

  rec_init (&argc, &argv, 2);
  peer = 1 - rec_rank;

  /* small sends, one way of completing them after the other; the two
   * ranks take turns so that the receives do not block the sends */
  for (int way = 0; way < 4; way++, tag += 10)
    {
      for (int turn = 0; turn < 2; turn++)
        {
          if (turn != rec_rank)
            {
              small_receives (peer, tag);
              continue;
            }
          small_sends (peer, tag, req, out);
          switch (way)
            {
            case 0:
              for (int i = 0; i < NSMALL; i++)
                MPI_Wait (&req[i], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
              break;
            case 1:
              MPI_Waitall (NSMALL, req, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitall */
              break;
            case 2:
              for (done = 0; done < NSMALL;)
                {
                  int n = 0, idx[NSMALL];

                  MPI_Waitsome (NSMALL, req, &n, idx, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitsome */
                  REC_CHECK (n != MPI_UNDEFINED, "Waitsome found no active request");
                  done += n;
                }
              break;
            default:
              for (done = 0; done < NSMALL;)
                {
                  int idx, flag = 0;

                  MPI_Testany (NSMALL, req, &idx, &flag, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Testany */
                  if (flag && idx != MPI_UNDEFINED)
                    done++;
                }
              break;
            }
        }
    }

  /* non-blocking collectives on MPI_COMM_SELF */
  self_collectives (req, value, sum);
  MPI_Waitall (NSMALL, req, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitall */
  self_collectives (req, value, sum);
  for (done = 0; done < NSMALL;)
    {
      int n = 0, idx[NSMALL];

      MPI_Testsome (NSMALL, req, &n, idx, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Testsome */
      REC_CHECK (n != MPI_UNDEFINED, "Testsome found no active request");
      done += n;
    }
  self_collectives (req, value, sum);
  for (done = 0; done < NSMALL; done++)
    {
      int idx;

      MPI_Waitany (NSMALL, req, &idx, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Waitany */
      REC_CHECK (idx != MPI_UNDEFINED, "Waitany found no active request");
    }
  for (int i = 0; i < NSMALL; i += 2)
    REC_CHECK (sum[i] == i, "Iallreduce on MPI_COMM_SELF gave %d", sum[i]);

  /* requests freed while active: rank 0 sends, rank 1 receives */
  {
    int x = 7, y = -1;

    if (rec_rank == 0)
      {
        MPI_Isend (&x, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &req[0]); /* CALLSITE:MPI_Isend */
        MPI_Request_free (&req[0]); /* CALLSITE:MPI_Request_free */
      }
    else
      {
        MPI_Irecv (&y, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &req[0]); /* CALLSITE:MPI_Irecv */
        MPI_Request_free (&req[0]); /* CALLSITE:MPI_Request_free */
      }
    /* both are complete once the other rank has its reply */
    MPI_Sendrecv (&x, 1, MPI_INT, peer, 98, &y, 1, MPI_INT, peer, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Sendrecv */
  }

  /* persistent requests */
  {
    int x = 0, y = -1;
    MPI_Request p[2];

    MPI_Recv_init (&y, 1, MPI_INT, peer, 50, MPI_COMM_WORLD, &p[0]); /* CALLSITE:MPI_Recv_init */
    MPI_Send_init (&x, 1, MPI_INT, peer, 50, MPI_COMM_WORLD, &p[1]); /* CALLSITE:MPI_Send_init */
    for (int i = 0; i < NPERSIST; i++)
      {
        x = rec_rank * 10 + i;
        MPI_Startall (2, p); /* CALLSITE:MPI_Startall */
        MPI_Waitall (2, p, MPI_STATUSES_IGNORE); /* CALLSITE:MPI_Waitall */
        REC_CHECK (y == peer * 10 + i, "persistent receive %d gave %d", i, y);
      }
    MPI_Start (&p[0]); /* CALLSITE:MPI_Start */
    MPI_Send (&x, 1, MPI_INT, peer, 50, MPI_COMM_WORLD); /* CALLSITE:MPI_Send */
    MPI_Wait (&p[0], MPI_STATUS_IGNORE); /* CALLSITE:MPI_Wait */
    MPI_Request_free (&p[0]); /* CALLSITE:MPI_Request_free */
    MPI_Request_free (&p[1]); /* CALLSITE:MPI_Request_free */
  }

  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
