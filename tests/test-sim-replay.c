/*
 * test-sim-replay.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The event queue's calendar pops exactly what its heap pops, in the same
 * order, through wrap-arounds of the ring and events beyond it; the
 * network's neighbour table is the torus's; the replay
 * of a recorded run on a modelled torus (sim/sextant-torus-replay.c) gives
 * the times derived by hand from the model's parameters for two ranks and
 * one message, and for a broadcast on 2x2x2 through the hardware tree and
 * as point-to-point messages; a run that cannot be replayed is refused
 * with a message that names why.
 */
#include "config.h"

#include <string.h>

#include "sextant-sim-queue.h"
#include "sextant-torus-replay.h"

#define US 1000000        /* ps */

/* The simulation's pattern: pop the earliest, push a few events a random
 * way ahead (sometimes far beyond the ring, sometimes at the same time) */
static void
test_queue_calendar (void)
{
  g_autoptr(SextantSimQueue) heap = sextant_sim_queue_new (0);
  g_autoptr(SextantSimQueue) calendar = sextant_sim_queue_new (2000);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  SextantSimEvent a, b;
  guint64 popped = 0;

  for (guint i = 0; i < 100; i++)
    {
      SextantSimEvent ev = { .time = 2000 * g_rand_int_range (rand, 0, 50), .node = i };

      sextant_sim_queue_push (heap, &ev);
      sextant_sim_queue_push (calendar, &ev);
    }
  while (sextant_sim_queue_pop (heap, &a))
    {
      SextantSimEvent next;
      gboolean peeked = sextant_sim_queue_peek_ahead (calendar, 0, &next);

      g_assert_true (sextant_sim_queue_pop (calendar, &b));
      g_assert_cmpint (a.time, ==, b.time);
      g_assert_cmpuint (a.node, ==, b.node);
      g_assert_cmpuint (a.source, ==, b.source);
      g_assert_cmpuint (a.packet, ==, b.packet);
      g_assert_cmpuint (a.kind, ==, b.kind);
      g_assert_cmpuint (a.tree, ==, b.tree);
      if (peeked)
        g_assert_true (next.node == b.node && next.source == b.source && next.packet == b.packet &&
                       next.kind == b.kind && next.tree == b.tree);
      popped++;
      if (popped < 200000)
        for (guint j = g_rand_int_range (rand, 0, 4); j > 0; j--)
          {
            gint64 ahead = g_rand_int_range (rand, 0, 8) == 0 ? g_rand_int_range (rand, 0, 300000)
                                                               : g_rand_int_range (rand, 0, 40);
            /* every field at its widest: the calendar packs them in 8 bytes */
            SextantSimEvent ev = { .time = a.time + 2000 * ahead, .node = (guint32)(popped * 5 % (1u << 20)),
                                   .source = j == 3 ? G_MAXUINT32 : (guint32)(popped * 7 % ((1u << 21) - 1)),
                                   .packet = (guint16)(popped % 4096), .kind = (guint8)(popped % 16),
                                   .tree = (guint8)(j * 5) };

            sextant_sim_queue_push (heap, &ev);
            sextant_sim_queue_push (calendar, &ev);
          }
    }
  g_assert_false (sextant_sim_queue_pop (calendar, &b));
  g_assert_cmpuint (popped, >, 200000);
  g_assert_cmpuint (sextant_sim_queue_get_n_pushed (heap), ==, sextant_sim_queue_get_n_pushed (calendar));
  g_assert_cmpuint (sextant_sim_queue_get_peak (heap), ==, sextant_sim_queue_get_peak (calendar));
}

/* The network's neighbour table is the torus's own, every node and way */
static void
test_net_neighbors (void)
{
  const char * const tori[] = { "2x2", "5x3", "2x3x4", "4x4x4x2", "3x2x5x2" };

  for (guint i = 0; i < G_N_ELEMENTS (tori); i++)
    {
      g_autoptr(SextantTorus) torus = sextant_torus_new_from_string (tori[i], NULL);
      SextantTorusNet net;

      sextant_torus_net_init (&net, torus, 2000, 82000, 300000, 300000, FALSE);
      for (guint v = 0; v < sextant_torus_get_n_nodes (torus); v++)
        for (guint dir = 0; dir < 2 * sextant_torus_get_n_dims (torus); dir++)
          g_assert_cmpuint (sextant_torus_net_neighbor (&net, v, dir), ==, sextant_torus_get_neighbor (torus, v, dir));
      sextant_torus_net_clear (&net);
    }
}

typedef struct
{
  SextantTorusReplayInput input;
} Recorded;

static void
recorded_init (Recorded *r,
               guint     n_ranks,
               gint64    end)
{
  r->input = (SextantTorusReplayInput) {
    .n_ranks = n_ranks,
    .end = end,
    .calls = g_array_new (FALSE, FALSE, sizeof (SextantReplayCall)),
    .messages = g_array_new (FALSE, FALSE, sizeof (SextantReplayMessage)),
    .collectives = g_array_new (FALSE, FALSE, sizeof (SextantReplayCollective)),
    .members = g_array_new (FALSE, FALSE, sizeof (SextantReplayMember)),
  };
}

static void
recorded_clear (Recorded *r)
{
  g_array_unref (r->input.calls);
  g_array_unref (r->input.messages);
  g_array_unref (r->input.collectives);
  g_array_unref (r->input.members);
}

static void
add_call (Recorded   *r,
          guint       rank,
          const char *name,
          gint64      enter,
          gint64      leave)
{
  SextantReplayCall call = { rank, name, enter, leave };

  g_array_append_val (r->input.calls, call);
}

static SextantTorusReplay *
replay (Recorded    *r,
        const char  *dims,
        GError     **error)
{
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string (dims, NULL);

  return sextant_torus_replay_run (torus, NULL, &r->input, SEXTANT_REPLAY_MAP_LINEAR, error);
}

/* Rank 0 computes 1 us and sends 256 bytes to rank 1 (its neighbour along
 * X), which waits in MPI_Recv from 0.2 us; the recorded run ends at 3.5 us.
 * By hand, default parameters (cycle 2 ns, 16 flits = 32 ns):
 *   injection starts at 1 us, the host has injected all at 1.032 us, the
 *   head is at the router at 1.3 us (+ injection 300 ns), at the next
 *   router at 1.382 us (+ link 80 ns + routing 2 ns), ejected by 1.414 us,
 *   at rank 1's host at 1.714 us (+ ejection 300 ns);
 *   rank 0 ends 1.032 + its recorded 2 us after the send = 3.032 us,
 *   rank 1 ends 1.714 + 0.5 us = 2.214 us: the run, 3.032 us. */
static void
test_replay_one_message (void)
{
  g_autoptr(SextantTorusReplay) result = NULL;
  g_autoptr(GError) error = NULL;
  SextantReplayMessage msg = { 0, 1, 256, 1400000, 3 * US };
  const SextantReplayCallTimes *times;
  Recorded r;

  recorded_init (&r, 2, 3500000);
  add_call (&r, 1, "MPI_Recv", 200000, 3 * US);
  add_call (&r, 0, "MPI_Send", 1 * US, 1500000);
  g_array_append_val (r.input.messages, msg);
  result = replay (&r, "2x2", &error);
  g_assert_no_error (error);

  for (SextantReplayKind kind = 0; kind < SEXTANT_REPLAY_N_KINDS; kind++)
    {
      g_assert_cmpint (sextant_torus_replay_get_ps (result, kind), ==, 3032000);
      g_assert_cmpint (sextant_torus_replay_get_arrivals (result, kind)[0], ==, 1714000);
      times = sextant_torus_replay_get_times (result, kind);
      /* the calls by rank: rank 0's send, rank 1's receive */
      g_assert_cmpint (times[0].begin, ==, 1 * US);
      g_assert_cmpint (times[0].end, ==, 1032000);
      g_assert_cmpint (times[1].begin, ==, 200000);
      g_assert_cmpint (times[1].end, ==, 1714000);
    }
  g_assert_cmpint (sextant_torus_replay_get_recorded_ps (result), ==, 3500000);
  g_assert_cmpfloat (sextant_torus_replay_get_ratio (result), ==, 1.0);
  g_assert_cmpuint (sextant_torus_replay_get_node (result, 1), ==, 1);
  recorded_clear (&r);
}

/* 8 ranks on 2x2x2 enter a broadcast of 256 bytes from rank 0 at 1 us and
 * compute 1 us after it. By hand: the hardware tree takes injection + depth
 * 3 x (link 80 + routing 2) + 16 flits + ejection = 300 + 246 + 32 + 300 =
 * 878 ns; point-to-point over the same tree 3 hops x (300 + 82 + 32 + 300)
 * = 2142 ns. The runs: 1 + 0.878 + 1 = 2.878 us and 1 + 2.142 + 1 =
 * 4.142 us. */
static void
test_replay_bcast (void)
{
  g_autoptr(SextantTorusReplay) result = NULL;
  g_autoptr(GError) error = NULL;
  SextantReplayCollective bcast = {
    .op = SEXTANT_TORUS_OP_BCAST, .modelled = TRUE, .root = 0, .bytes = 256, .comm = 1,
    .first_member = 0, .n_members = 8, .recorded = 4 * US,
  };
  Recorded r;

  recorded_init (&r, 8, 6 * US);
  for (guint rank = 0; rank < 8; rank++)
    {
      SextantReplayMember member = { rank, 1 * US };

      add_call (&r, rank, "MPI_Bcast", 1 * US, 5 * US);
      g_array_append_val (r.input.members, member);
    }
  g_array_append_val (r.input.collectives, bcast);
  result = replay (&r, "2x2x2", &error);
  g_assert_no_error (error);

  g_assert_cmpint (sextant_torus_replay_get_collective_ps (result, SEXTANT_REPLAY_HARDWARE), ==, 878000);
  g_assert_cmpint (sextant_torus_replay_get_collective_ps (result, SEXTANT_REPLAY_POINT_TO_POINT), ==, 2142000);
  g_assert_cmpint (sextant_torus_replay_get_ps (result, SEXTANT_REPLAY_HARDWARE), ==, 2878000);
  g_assert_cmpint (sextant_torus_replay_get_ps (result, SEXTANT_REPLAY_POINT_TO_POINT), ==, 4142000);
  g_assert_cmpfloat_with_epsilon (sextant_torus_replay_get_ratio (result), 4142.0 / 2878.0, 1e-12);
  g_assert_cmpuint (sextant_torus_replay_get_n_modelled (result), ==, 1);

  /* a collective the trees do not do keeps its recorded 4 us */
  g_array_index (r.input.collectives, SextantReplayCollective, 0).modelled = FALSE;
  g_clear_pointer (&result, sextant_torus_replay_free);
  result = replay (&r, "2x2x2", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sextant_torus_replay_get_ps (result, SEXTANT_REPLAY_HARDWARE), ==, 6 * US);
  g_assert_cmpint (sextant_torus_replay_get_ps (result, SEXTANT_REPLAY_POINT_TO_POINT), ==, 6 * US);
  recorded_clear (&r);
}

static void
test_replay_refused (void)
{
  g_autoptr(GError) error = NULL;
  SextantReplayMessage msg = { 0, 1, 16, 100, 200 };
  SextantReplayMessage back = { 1, 0, 16, 150, 180 };
  Recorded r;

  /* more ranks than nodes */
  recorded_init (&r, 5, US);
  g_assert_null (replay (&r, "2x2", &error));
  g_assert_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, "5 ranks"));
  g_clear_error (&error);
  recorded_clear (&r);

  /* a send outside the sender's calls */
  recorded_init (&r, 2, US);
  add_call (&r, 1, "MPI_Recv", 0, 300);
  g_array_append_val (r.input.messages, msg);
  g_assert_null (replay (&r, "2x2", &error));
  g_assert_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_REPLAY);
  g_assert_nonnull (strstr (error->message, "the send of message 0 (rank 0"));
  g_clear_error (&error);

  /* both ranks receive before they send, in the same call each: a
   * deadlock the replay names */
  add_call (&r, 0, "MPI_Recv", 0, 120);
  add_call (&r, 0, "MPI_Send", 130, 140);
  g_array_index (r.input.messages, SextantReplayMessage, 0).send_time = 135;
  g_array_append_val (r.input.messages, back);
  g_array_index (r.input.messages, SextantReplayMessage, 1).recv_time = 110;
  g_array_index (r.input.messages, SextantReplayMessage, 1).send_time = 250;
  g_array_index (r.input.messages, SextantReplayMessage, 0).recv_time = 100;
  g_assert_null (replay (&r, "2x2", &error));
  g_assert_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_REPLAY);
  g_assert_nonnull (strstr (error->message, "stuck"));
  recorded_clear (&r);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sim/queue/calendar", test_queue_calendar);
  g_test_add_func ("/sim/net/neighbors", test_net_neighbors);
  g_test_add_func ("/sim/replay/one-message", test_replay_one_message);
  g_test_add_func ("/sim/replay/bcast", test_replay_bcast);
  g_test_add_func ("/sim/replay/refused", test_replay_refused);

  return g_test_run ();
}
