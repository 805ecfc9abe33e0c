/*
 * rec-callpath.c - the same MPI calls made from two functions each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On 2 ranks, ROUNDS times: rank 0 sends two messages, each after a sleep
 * (HALO_MS, then RESULT_MS), and rank 1 receives them in two functions,
 * receive_halo() and receive_result(), which both call MPI_Recv: two Late
 * Senders per round, one per function. Then both ranks call early_gatherv(),
 * where rank 1 arrives HALO_MS late; at the end final_gatherv(), where it
 * arrives RESULT_MS late: the root waits in MPI_Gatherv from two functions
 * (Early Reduce). The recorder writes no visits of these functions, only
 * each MPI call's calling context, so the call paths must come from those.
 *
 * A comment PATH:<frames> on a marked call line is the call path its visits
 * must have: the frames joined by '/', each function frame with the line of
 * its call to the next (a line marked CALLSITE:<next frame>: send_after()
 * is called from two lines of main(), so its MPI_Send has two call paths),
 * the last function frame with this line.
 */
#include "rec-test.h"

#define ROUNDS 3
#define HALO_MS 30
#define RESULT_MS 60

__attribute__ ((noinline)) static void
send_after (int value, /* DECL:send_after */
            int tag,
            int ms)
{
  rec_sleep_ms (ms);
  MPI_Send (&value, 1, MPI_INT, 1, tag, MPI_COMM_WORLD); /* CALLSITE:MPI_Send PATH:main/send_after/MPI_Send */
}

__attribute__ ((noinline)) static int
receive_halo (void) /* DECL:receive_halo */
{
  int value = -1;

  MPI_Recv (&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv PATH:main/receive_halo/MPI_Recv */
  return value;
}

__attribute__ ((noinline)) static int
receive_result (void) /* DECL:receive_result */
{
  int value = -1;

  MPI_Recv (&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* CALLSITE:MPI_Recv PATH:main/receive_result/MPI_Recv */
  return value;
}

__attribute__ ((noinline)) static void
early_gatherv (int round) /* DECL:early_gatherv */
{
  int counts[2] = { 1, 1 };
  int displs[2] = { 0, 1 };
  int all[2] = { -1, -1 };

  if (rec_rank == 1)
    rec_sleep_ms (HALO_MS);
  MPI_Gatherv (&round, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD); /* CALLSITE:MPI_Gatherv PATH:main/early_gatherv/MPI_Gatherv */
  REC_CHECK (rec_rank != 0 || (all[0] == round && all[1] == round), "gathered %d %d in round %d",
             all[0], all[1], round);
}

__attribute__ ((noinline)) static void
final_gatherv (int value) /* DECL:final_gatherv */
{
  int counts[2] = { 1, 1 };
  int displs[2] = { 0, 1 };
  int all[2] = { -1, -1 };

  if (rec_rank == 1)
    rec_sleep_ms (RESULT_MS);
  MPI_Gatherv (&value, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD); /* CALLSITE:MPI_Gatherv PATH:main/final_gatherv/MPI_Gatherv */
  REC_CHECK (rec_rank != 0 || (all[0] == value && all[1] == value), "gathered %d %d", all[0], all[1]);
}

int
main (int    argc,
      char **argv)
{
  rec_init (&argc, &argv, 2);
  for (int round = 0; round < ROUNDS; round++)
    {
      if (rec_rank == 0)
        {
          send_after (round, 1, HALO_MS); /* CALLSITE:send_after */
          send_after (round, 2, RESULT_MS); /* CALLSITE:send_after */
        }
      else if (rec_rank == 1)
        {
          int halo = receive_halo (); /* CALLSITE:receive_halo */
          int result = receive_result (); /* CALLSITE:receive_result */

          REC_CHECK (halo == round && result == round, "round %d received %d and %d", round, halo, result);
        }
      early_gatherv (round); /* CALLSITE:early_gatherv */
    }
  final_gatherv (ROUNDS); /* CALLSITE:final_gatherv */
  MPI_Finalize (); /* CALLSITE:MPI_Finalize */
  return 0;
}
