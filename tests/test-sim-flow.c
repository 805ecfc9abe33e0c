/*
 * test-sim-flow.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The flow-level model of the all-gather (sim/sextant-torus-flow.c)
 * against the packet model it stands in for (docs/sim.md, "The
 * all-gather of 32768 nodes"): both run here on every torus where the
 * packet model is fast (8 to 2048 nodes, 1, 4 and 16 trees); the flow
 * model's hardware and point-to-point times and ratio lie within the
 * tolerance measured for their size (10 % below 512 nodes, 5 % from 512);
 * the same with the model's options (store-and-forward, host overhead,
 * routing cycles, several packets, transit nodes) on 8x8x8; exactly the
 * packet model's times where nothing contends; the ejection
 * channels' bound on 65536 nodes, which the packet model refuses; other
 * operations and traces refused with a message.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-torus-sim.h"

static SextantTorusSim *
run_job (const char               *dims,
         const SextantTorusParams *params,
         SextantTorusJob          *job,
         SextantTorusModel         model,
         GError                  **error)
{
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string (dims, NULL);

  g_assert_nonnull (torus);
  job->op = SEXTANT_TORUS_OP_ALLGATHER;
  job->model = model;

  return sextant_torus_sim_run (torus, params, job, error);
}

static SextantTorusSim *
run_allgather (const char        *dims,
               guint              trees,
               SextantTorusModel  model,
               GError           **error)
{
  SextantTorusJob job;

  sextant_torus_job_init (&job);
  job.n_trees = trees;

  return run_job (dims, NULL, &job, model, error);
}

static double
deviation (double flow,
           double packet)
{
  return flow / packet - 1;
}

/* Every torus up to 2048 nodes the packet model runs in a fraction of a
 * second, with 1, 4 and 16 trees (at most the nodes) */
static void
test_against_packet (void)
{
  static const char * const tori[] = {
    "2x2x2", "4x4", "2x2x2x2", "4x4x4", "8x4x2", "8x8x8", "4x4x4x4", "16x16x2", "8x8x8x4", "16x16x8",
  };
  static const guint trees[] = { 1, 4, 16 };

  for (guint i = 0; i < G_N_ELEMENTS (tori); i++)
    {
      double worst[3] = { 0, 0, 0 };
      double tolerance = 0;

      for (guint t = 0; t < G_N_ELEMENTS (trees); t++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(SextantTorusSim) packet = NULL;
          g_autoptr(SextantTorusSim) flow = NULL;
          double dev[3];
          guint n;

          packet = run_allgather (tori[i], trees[t], SEXTANT_TORUS_MODEL_PACKET, &error);
          if (packet == NULL && g_error_matches (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_SIZE))
            continue;   /* more trees than nodes */
          g_assert_no_error (error);
          flow = run_allgather (tori[i], trees[t], SEXTANT_TORUS_MODEL_FLOW, &error);
          g_assert_no_error (error);
          n = sextant_torus_get_n_nodes (sextant_torus_sim_get_torus (flow));
          tolerance = n < 512 ? 0.10 : 0.05;
          dev[0] = deviation (sextant_torus_sim_get_hw_ps (flow), sextant_torus_sim_get_hw_ps (packet));
          dev[1] = deviation (sextant_torus_sim_get_p2p_ps (flow), sextant_torus_sim_get_p2p_ps (packet));
          dev[2] = deviation (sextant_torus_sim_get_ratio (flow), sextant_torus_sim_get_ratio (packet));
          g_test_message ("%s (%u nodes), %u trees: hardware %.3f / %.3f us (%+.2f %%), point-to-point "
                          "%.3f / %.3f us (%+.2f %%), ratio %.3f / %.3f (%+.2f %%); CPU %.3f / %.3f s",
                          tori[i], n, trees[t], sextant_torus_sim_get_hw_ps (flow) / 1e6,
                          sextant_torus_sim_get_hw_ps (packet) / 1e6, 100 * dev[0],
                          sextant_torus_sim_get_p2p_ps (flow) / 1e6, sextant_torus_sim_get_p2p_ps (packet) / 1e6,
                          100 * dev[1], sextant_torus_sim_get_ratio (flow), sextant_torus_sim_get_ratio (packet),
                          100 * dev[2], sextant_torus_sim_get_cpu_seconds (flow),
                          sextant_torus_sim_get_cpu_seconds (packet));
          for (guint d = 0; d < 3; d++)
            {
              if (fabs (dev[d]) > fabs (worst[d]))
                worst[d] = dev[d];
              g_assert_cmpfloat (fabs (dev[d]), <=, tolerance);
            }
          g_assert_cmpstr (sextant_torus_sim_get_p2p_algorithm (flow), ==,
                           sextant_torus_sim_get_p2p_algorithm (packet));
          g_assert_cmpuint (sextant_torus_sim_get_flow_iterations (flow), >, 0);
          g_assert_cmpuint (sextant_torus_sim_get_flow_iterations (packet), ==, 0);
        }
      g_test_message ("%s: worst hardware %+.2f %%, point-to-point %+.2f %%, ratio %+.2f %% (tolerance %.0f %%)",
                      tori[i], 100 * worst[0], 100 * worst[1], 100 * worst[2], 100 * tolerance);
    }
}

/* The model's parameters and the job's options move both models alike:
 * store-and-forward, host overhead, routing cycles, pieces of several
 * packets, transit nodes; 8x8x8, 16 trees, within the 5 % of its size */
static void
test_options (void)
{
  static const guint transit[] = { 5, 77, 300 };
  static const struct { const char *what; gboolean sf; double host; guint cycles; guint64 bytes; gboolean transit; } cases[] = {
    { "store-and-forward", TRUE, 0, 1, 256, FALSE },
    { "host overhead 100 ns", FALSE, 100, 1, 256, FALSE },
    { "routing 4 cycles", FALSE, 0, 4, 256, FALSE },
    { "1000 bytes (4 packets)", FALSE, 0, 1, 1000, FALSE },
    { "4096 bytes, store-and-forward", TRUE, 0, 1, 4096, FALSE },
    { "3 transit nodes", FALSE, 0, 1, 256, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SextantTorusSim) packet = NULL;
      g_autoptr(SextantTorusSim) flow = NULL;
      SextantTorusParams params;
      SextantTorusJob job;
      double dev[3];

      sextant_torus_params_init (&params);
      params.store_and_forward = cases[i].sf;
      params.host_overhead_ns = cases[i].host;
      params.router_cycles = cases[i].cycles;
      sextant_torus_job_init (&job);
      job.bytes = cases[i].bytes;
      if (cases[i].transit)
        {
          job.transit = transit;
          job.n_transit = G_N_ELEMENTS (transit);
        }
      packet = run_job ("8x8x8", &params, &job, SEXTANT_TORUS_MODEL_PACKET, &error);
      g_assert_no_error (error);
      flow = run_job ("8x8x8", &params, &job, SEXTANT_TORUS_MODEL_FLOW, &error);
      g_assert_no_error (error);
      dev[0] = deviation (sextant_torus_sim_get_hw_ps (flow), sextant_torus_sim_get_hw_ps (packet));
      dev[1] = deviation (sextant_torus_sim_get_p2p_ps (flow), sextant_torus_sim_get_p2p_ps (packet));
      dev[2] = deviation (sextant_torus_sim_get_ratio (flow), sextant_torus_sim_get_ratio (packet));
      g_test_message ("8x8x8, %s: hardware %+.2f %%, point-to-point %+.2f %%, ratio %+.2f %%", cases[i].what,
                      100 * dev[0], 100 * dev[1], 100 * dev[2]);
      for (guint d = 0; d < 3; d++)
        g_assert_cmpfloat (fabs (dev[d]), <=, 0.05);
    }
}

/* Where nothing contends the flows run at a flit per cycle and both
 * models give the latencies plus the flits: recursive doubling on a torus
 * of sizes 2; one tree per node, each with only its root's piece, is
 * bound by the ejection channels: injection + a hop + (N - 1) pieces +
 * ejection */
static void
test_exact (void)
{
  static const char * const tori[] = { "2x2x2", "2x2x2x2" };

  for (guint i = 0; i < G_N_ELEMENTS (tori); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SextantTorusSim) packet = run_allgather (tori[i], 0, SEXTANT_TORUS_MODEL_PACKET, &error);
      g_autoptr(SextantTorusSim) flow = run_allgather (tori[i], 0, SEXTANT_TORUS_MODEL_FLOW, &error);

      g_assert_no_error (error);
      g_assert_cmpint (sextant_torus_sim_get_p2p_ps (flow), ==, sextant_torus_sim_get_p2p_ps (packet));
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SextantTorusSim) packet = run_allgather ("2x2x2x2", 16, SEXTANT_TORUS_MODEL_PACKET, &error);
    g_autoptr(SextantTorusSim) flow = run_allgather ("2x2x2x2", 16, SEXTANT_TORUS_MODEL_FLOW, &error);
    gint64 bound = 300000 + 82000 + 15 * 16 * 2000 + 300000;

    g_assert_no_error (error);
    g_assert_cmpint (sextant_torus_sim_get_hw_ps (flow), ==, bound);
    g_assert_cmpint (sextant_torus_sim_get_hw_ps (packet), ==, bound);
  }
}

/* 65536 nodes: the packet model refuses them (about 2^32 events); the flow
 * model runs them, at least the ejection channels' N - 1 pieces and within
 * 1 % of that bound plus the tree's latencies */
static void
test_large (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantTorusSim) packet = run_allgather ("64x32x32", 16, SEXTANT_TORUS_MODEL_PACKET, &error);
  g_autoptr(SextantTorusSim) flow = NULL;
  gint64 bound = 300000 + (gint64)65535 * 16 * 2000 + 300000;
  double ratio;

  g_assert_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TOO_BIG);
  g_assert_null (packet);
  g_assert_nonnull (strstr (error->message, "--model flow"));
  g_clear_error (&error);

  flow = run_allgather ("64x32x32", 16, SEXTANT_TORUS_MODEL_FLOW, &error);
  g_assert_no_error (error);
  ratio = sextant_torus_sim_get_ratio (flow);
  g_test_message ("64x32x32 (65536 nodes), 16 trees, flow model: hardware %.3f us, point-to-point %.3f us, "
                  "ratio %.2f, %" G_GUINT64_FORMAT " progressive-filling rounds, %.2f s CPU",
                  sextant_torus_sim_get_hw_ps (flow) / 1e6, sextant_torus_sim_get_p2p_ps (flow) / 1e6, ratio,
                  sextant_torus_sim_get_flow_iterations (flow), sextant_torus_sim_get_cpu_seconds (flow));
  g_assert_cmpint (sextant_torus_sim_get_hw_ps (flow), >=, bound);
  g_assert_cmpfloat (sextant_torus_sim_get_hw_ps (flow), <=, 1.01 * bound);
  g_assert_cmpint (sextant_torus_sim_get_p2p_ps (flow), >, sextant_torus_sim_get_hw_ps (flow));
}

static void
test_refused (void)
{
  static const SextantTorusOp ops[] = { SEXTANT_TORUS_OP_BCAST, SEXTANT_TORUS_OP_REDUCE, SEXTANT_TORUS_OP_ALLREDUCE };
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string ("4x4", NULL);
  SextantTorusJob job;

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      g_autoptr(GError) error = NULL;

      sextant_torus_job_init (&job);
      job.op = ops[i];
      job.model = SEXTANT_TORUS_MODEL_FLOW;
      g_assert_null (sextant_torus_sim_run (torus, NULL, &job, &error));
      g_assert_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_PARAMS);
      g_assert_nonnull (strstr (error->message, "all-gather only"));
      g_assert_nonnull (strstr (error->message, sextant_torus_op_to_string (ops[i])));
    }
  {
    g_autoptr(GError) error = NULL;

    sextant_torus_job_init (&job);
    job.op = SEXTANT_TORUS_OP_ALLGATHER;
    job.model = SEXTANT_TORUS_MODEL_FLOW;
    job.record = TRUE;
    g_assert_null (sextant_torus_sim_run (torus, NULL, &job, &error));
    g_assert_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_PARAMS);
    g_assert_nonnull (strstr (error->message, "--trace needs --model packet"));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/flow/against-packet", test_against_packet);
  g_test_add_func ("/sim/flow/options", test_options);
  g_test_add_func ("/sim/flow/exact", test_exact);
  g_test_add_func ("/sim/flow/large", test_large);
  g_test_add_func ("/sim/flow/refused", test_refused);

  return g_test_run ();
}
