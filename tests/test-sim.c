/*
 * test-sim.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The torus model (sim/) against the paper it reproduces (Mukosey,
 * Semenov, Simonov 2015; docs/sim.md): the broadcast ratios the model
 * computes from its parameters within 15 % of the published 2.39, 6.97 and
 * 6.18, all-reduce close to broadcast, the hardware time equal to the
 * closed form of its parameters; the dimension-ordered trees valid and
 * every hand-broken table rejected naming the rule it breaks; dimensions,
 * sizes, roots and parameters out of range rejected; credits and link
 * contention changing the times the way they must.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-torus-sim.h"

#define TOLERANCE 0.15

static SextantTorusSim *
run_op (const char     *dims,
        SextantTorusOp  op,
        guint64         bytes,
        const SextantTorusParams *params)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string (dims, &error);
  SextantTorusJob job;
  SextantTorusSim *sim;

  g_assert_no_error (error);
  sextant_torus_job_init (&job);
  job.op = op;
  job.bytes = bytes;
  sim = sextant_torus_sim_run (torus, params, &job, &error);
  g_assert_no_error (error);

  return sim;
}

/* The paper's figure 7a: one 256-byte packet */
static void
test_bcast_ratios (void)
{
  static const struct { const char *dims; double paper; } cases[] = {
    { "2x2x2", 2.39 }, { "16x16x32", 6.97 }, { "8x8x8x16", 6.18 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SextantTorusSim) sim = run_op (cases[i].dims, SEXTANT_TORUS_OP_BCAST, 256, NULL);
      double ratio = sextant_torus_sim_get_ratio (sim);

      g_test_message ("broadcast %s: hardware %.3f us, point-to-point %.3f us, ratio %.2f (paper %.2f, %+.1f %%)",
                      cases[i].dims, sextant_torus_sim_get_hw_ps (sim) / 1e6,
                      sextant_torus_sim_get_p2p_ps (sim) / 1e6, ratio, cases[i].paper,
                      100 * (ratio / cases[i].paper - 1));
      g_assert_cmpfloat (fabs (ratio / cases[i].paper - 1), <=, TOLERANCE);
    }
}

/* "All-reduce: about the same": within 15 % of the broadcast's ratio on
 * the 8192-node tori; on 2x2x2 the hardware all-reduce saves more (it
 * injects and ejects once for two tree traversals) */
static void
test_allreduce_ratios (void)
{
  static const char * const dims[] = { "2x2x2", "16x16x32", "8x8x8x16" };

  for (guint i = 0; i < G_N_ELEMENTS (dims); i++)
    {
      g_autoptr(SextantTorusSim) bcast = run_op (dims[i], SEXTANT_TORUS_OP_BCAST, 256, NULL);
      g_autoptr(SextantTorusSim) allreduce = run_op (dims[i], SEXTANT_TORUS_OP_ALLREDUCE, 256, NULL);
      double rb = sextant_torus_sim_get_ratio (bcast);
      double ra = sextant_torus_sim_get_ratio (allreduce);

      g_test_message ("all-reduce %s: ratio %.2f, broadcast %.2f", dims[i], ra, rb);
      g_assert_cmpfloat (ra, >, 1.5);
      if (i == 0)
        g_assert_cmpfloat (ra, >=, rb);
      else
        g_assert_cmpfloat (fabs (ra / rb - 1), <=, TOLERANCE);
      /* all-reduce is a reduce up and a broadcast down: slower than either */
      g_assert_cmpint (sextant_torus_sim_get_hw_ps (allreduce), >, sextant_torus_sim_get_hw_ps (bcast));
      g_assert_cmpint (sextant_torus_sim_get_p2p_ps (allreduce), ==, 2 * sextant_torus_sim_get_p2p_ps (bcast));
    }
}

/* With no contention the event-driven times are the closed forms of the
 * parameters: hardware = injection + depth x (link + routing) + the
 * packet's flits + ejection; point-to-point = depth x (injection + link +
 * routing + flits + ejection) when every size is even (then one child of
 * a host has the deepest subtree, and is sent to first); with odd sizes
 * two children tie and the second waits for the first's injection, up to
 * once per hop */
static void
test_closed_form (void)
{
  static const struct { const char *dims; gboolean even; } cases[] = {
    { "2x2", TRUE }, { "3x5", FALSE }, { "2x3x4x5", FALSE }, { "16x16x32", TRUE }, { "7x9x3", FALSE }, { "4x6x2x8", TRUE },
  };
  SextantTorusParams params;

  sextant_torus_params_init (&params);
  params.link_latency_ns = 100;
  params.router_cycles = 3;
  params.router_clock_mhz = 250;   /* 4 ns */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SextantTorusSim) sim = run_op (cases[i].dims, SEXTANT_TORUS_OP_BCAST, 200, &params);
      const SextantTorusTree *tree = sextant_torus_sim_get_tree (sim, 0);
      SextantTorus *torus = sextant_torus_sim_get_torus (sim);
      gint64 depth = sextant_torus_tree_get_depth (tree);
      gint64 flits = 13 * 4000;   /* 200 bytes: 13 flits of 4 ns */
      guint expected_depth = 0;

      for (guint d = 0; d < sextant_torus_get_n_dims (torus); d++)
        expected_depth += sextant_torus_get_size (torus, d) / 2;
      g_assert_cmpint (depth, ==, expected_depth);
      g_assert_cmpint (sextant_torus_sim_get_hw_ps (sim), ==, 300000 + depth * (100000 + 12000) + flits + 300000);
      if (cases[i].even)
        g_assert_cmpint (sextant_torus_sim_get_p2p_ps (sim), ==, depth * (300000 + 100000 + 12000 + flits + 300000));
      else
        {
          g_assert_cmpint (sextant_torus_sim_get_p2p_ps (sim), >, depth * (300000 + 100000 + 12000 + flits + 300000));
          g_assert_cmpint (sextant_torus_sim_get_p2p_ps (sim), <=,
                           depth * (300000 + 100000 + 12000 + 2 * flits + 300000));
        }
    }
}

static void
test_store_and_forward (void)
{
  SextantTorusParams params;
  g_autoptr(SextantTorusSim) cut = run_op ("16x16x32", SEXTANT_TORUS_OP_BCAST, 256, NULL);
  g_autoptr(SextantTorusSim) sf = NULL;

  sextant_torus_params_init (&params);
  params.store_and_forward = TRUE;
  sf = run_op ("16x16x32", SEXTANT_TORUS_OP_BCAST, 256, &params);
  /* every one of the 32 hops waits for the 16 flits (32 ns) */
  g_assert_cmpint (sextant_torus_sim_get_hw_ps (sf) - sextant_torus_sim_get_hw_ps (cut), ==, 32 * 32000);
  g_assert_cmpfloat (sextant_torus_sim_get_ratio (sf), <, sextant_torus_sim_get_ratio (cut));
}

static guint
dims_sum_half (SextantTorus *torus)
{
  guint sum = 0;

  for (guint d = 0; d < sextant_torus_get_n_dims (torus); d++)
    sum += sextant_torus_get_size (torus, d) / 2;
  return sum;
}

static void
test_dimension_order_trees (void)
{
  static const char * const dims[] = { "2x2", "3x3", "2x2x2", "4x5", "3x4x5", "2x3x4x5", "8x8x8x16", "5x5x5x5" };

  for (guint i = 0; i < G_N_ELEMENTS (dims); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SextantTorus) torus = sextant_torus_new_from_string (dims[i], &error);
      guint n = sextant_torus_get_n_nodes (torus);

      g_assert_no_error (error);
      for (guint root = 0; root < n; root += MAX (1, n / 7))
        {
          g_autoptr(SextantTorusTree) tree = sextant_torus_tree_new_dimension_order (torus, root, &error);

          g_assert_no_error (error);
          g_assert_cmpuint (sextant_torus_tree_get_root (tree), ==, root);
          g_assert_cmpuint (sextant_torus_tree_get_n_in_tree (tree), ==, n);
          g_assert_cmpuint (sextant_torus_tree_get_n_members (tree), ==, n);
          /* the depth is the torus's diameter, every node at its distance */
          g_assert_cmpuint (sextant_torus_tree_get_depth (tree), ==, dims_sum_half (torus));
          for (guint v = 0; v < n; v++)
            g_assert_cmpuint (sextant_torus_tree_get_node_depth (tree, v), ==,
                              sextant_torus_get_distance (torus, root, v));
          g_assert_true (sextant_torus_tree_validate (tree, &error));
        }
    }
}

/* A hand-made 4x4 table: the dimension-ordered tree of root 0, then one
 * change that breaks @rule */
static void
assert_broken (SextantTorusTree *tree,
               int               code,
               const char       *rule)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (sextant_torus_tree_validate (tree, &error));
  g_assert_error (error, SEXTANT_SIM_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, rule));
}

static SextantTorusTree *
copy_tree (SextantTorus *torus,
           guint         root)
{
  g_autoptr(SextantTorusTree) good = sextant_torus_tree_new_dimension_order (torus, root, NULL);
  SextantTorusTree *copy = sextant_torus_tree_new (torus);

  for (guint v = 0; v < sextant_torus_get_n_nodes (torus); v++)
    sextant_torus_tree_set_row (copy, v, sextant_torus_tree_get_row (good, v));
  g_assert_true (sextant_torus_tree_validate (copy, NULL));

  return copy;
}

static void
test_invalid_trees (void)
{
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string ("4x4", NULL);
  /* node ids: x + 4y; root 0 = (0,0) */
  guint n10 = 1, n01 = 4, n11 = 5, n20 = 2;

  {
    /* rule 1: no root, two roots */
    g_autoptr(SextantTorusTree) none = copy_tree (torus, 0);
    g_autoptr(SextantTorusTree) two = copy_tree (torus, 0);
    SextantTorusTreeRow row = *sextant_torus_tree_get_row (none, 0);

    row.is_root = FALSE;
    sextant_torus_tree_set_row (none, 0, &row);
    assert_broken (none, SEXTANT_SIM_ERROR_TREE_ROOT, "rule 1");

    row = *sextant_torus_tree_get_row (two, 15);
    row.is_root = TRUE;
    row.to_root = SEXTANT_TORUS_DIR_NONE;
    sextant_torus_tree_set_row (two, 15, &row);
    assert_broken (two, SEXTANT_SIM_ERROR_TREE_ROOT, "rule 1");
  }
  {
    /* rule 2: a down-link to a node outside the tree */
    g_autoptr(SextantTorusTree) tree = copy_tree (torus, 0);
    SextantTorusTreeRow row = *sextant_torus_tree_get_row (tree, n11);

    row.in_tree = FALSE;
    sextant_torus_tree_set_row (tree, n11, &row);
    assert_broken (tree, SEXTANT_SIM_ERROR_TREE_DOWN_LINK, "rule 2");
  }
  {
    /* rule 2: (1,0) -> (1,1) down, but (1,1)'s up-link points along -X */
    g_autoptr(SextantTorusTree) tree = copy_tree (torus, 0);
    SextantTorusTreeRow row = *sextant_torus_tree_get_row (tree, n11);

    row.to_root = SEXTANT_TORUS_DIR (0, TRUE);
    sextant_torus_tree_set_row (tree, n11, &row);
    assert_broken (tree, SEXTANT_SIM_ERROR_TREE_DOWN_LINK, "rule 2");
  }
  {
    /* rule 3: (0,1), whose up-link is -Y, sends down along +X: an earlier
     * dimension; (1,1) hangs from it, so rule 2 holds */
    g_autoptr(SextantTorusTree) tree = copy_tree (torus, 0);
    SextantTorusTreeRow from = *sextant_torus_tree_get_row (tree, n01);
    SextantTorusTreeRow to = *sextant_torus_tree_get_row (tree, n11);
    SextantTorusTreeRow old_parent = *sextant_torus_tree_get_row (tree, n10);

    from.dirs |= 1u << SEXTANT_TORUS_DIR (0, FALSE);
    to.to_root = SEXTANT_TORUS_DIR (0, TRUE);
    to.dirs = 0;
    old_parent.dirs &= ~(1u << SEXTANT_TORUS_DIR (1, FALSE));
    sextant_torus_tree_set_row (tree, n01, &from);
    sextant_torus_tree_set_row (tree, n11, &to);
    sextant_torus_tree_set_row (tree, n10, &old_parent);
    /* (1,1)'s children (1,2) hang from it by +Y: give them to nobody */
    for (guint v = 0; v < 16; v++)
      {
        SextantTorusTreeRow r = *sextant_torus_tree_get_row (tree, v);

        if (v != n11 && !r.is_root && sextant_torus_tree_get_parent (tree, v) == n11)
          {
            r.in_tree = FALSE;
            sextant_torus_tree_set_row (tree, v, &r);
          }
      }
    assert_broken (tree, SEXTANT_SIM_ERROR_TREE_ORDER, "rule 3");
  }
  {
    /* rule 3: a down-link back along the up-link's own direction */
    g_autoptr(SextantTorusTree) tree = copy_tree (torus, 0);
    SextantTorusTreeRow row = *sextant_torus_tree_get_row (tree, n20);

    /* (2,0) hangs from (1,0) by -X; a down-link -X leads back to (1,0) */
    row.dirs |= 1u << SEXTANT_TORUS_DIR (0, TRUE);
    sextant_torus_tree_set_row (tree, n20, &row);
    /* rule 2 catches it first: (1,0)'s up-link does not point to (2,0) */
    assert_broken (tree, SEXTANT_SIM_ERROR_TREE_DOWN_LINK, "rule 2");
  }
  {
    /* detached: a tree node with no up-link */
    g_autoptr(SextantTorusTree) tree = copy_tree (torus, 0);
    SextantTorusTreeRow row = *sextant_torus_tree_get_row (tree, 15);

    row.to_root = SEXTANT_TORUS_DIR_NONE;
    sextant_torus_tree_set_row (tree, 15, &row);
    assert_broken (tree, SEXTANT_SIM_ERROR_TREE_DETACHED, "no up-link");
  }
  {
    /* detached: a cycle of up-links the root does not reach */
    g_autoptr(SextantTorusTree) tree = sextant_torus_tree_new (torus);
    SextantTorusTreeRow root = { TRUE, TRUE, SEXTANT_TORUS_DIR_NONE, TRUE, 0 };

    sextant_torus_tree_set_row (tree, 0, &root);
    for (guint x = 0; x < 4; x++)
      {
        SextantTorusTreeRow ring = { TRUE, FALSE, SEXTANT_TORUS_DIR (0, TRUE), TRUE,
                                     1u << SEXTANT_TORUS_DIR (0, FALSE) };

        sextant_torus_tree_set_row (tree, 4 + x, &ring);   /* y = 1 */
      }
    assert_broken (tree, SEXTANT_SIM_ERROR_TREE_DETACHED, "not reached from the root");
  }
}

static void
test_bad_input (void)
{
  static const char * const bad_dims[] = { "16", "", "2x2x2x2x2", "1x4", "0x4", "ax4", "4x", "4x-4", "4096x4096x4096" };
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string ("4x4x4", NULL);
  SextantTorusParams params;
  SextantTorusJob job;
  guint transit_root = 0;

  for (guint i = 0; i < G_N_ELEMENTS (bad_dims); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (sextant_torus_new_from_string (bad_dims[i], &error));
      g_assert_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_DIMS);
    }

#define ASSERT_RUN_FAILS(code) \
  G_STMT_START { \
    g_autoptr(GError) error = NULL; \
    g_assert_null (sextant_torus_sim_run (torus, &params, &job, &error)); \
    g_assert_error (error, SEXTANT_SIM_ERROR, code); \
  } G_STMT_END

  sextant_torus_params_init (&params);
  sextant_torus_job_init (&job);
  job.root = 64;
  ASSERT_RUN_FAILS (SEXTANT_SIM_ERROR_NODE);
  sextant_torus_job_init (&job);
  job.bytes = 0;
  ASSERT_RUN_FAILS (SEXTANT_SIM_ERROR_SIZE);
  job.bytes = SEXTANT_TORUS_MAX_BYTES + 1;
  ASSERT_RUN_FAILS (SEXTANT_SIM_ERROR_SIZE);
  sextant_torus_job_init (&job);
  job.n_trees = 17;
  ASSERT_RUN_FAILS (SEXTANT_SIM_ERROR_SIZE);
  sextant_torus_job_init (&job);
  job.transit = &transit_root;
  job.n_transit = 1;
  ASSERT_RUN_FAILS (SEXTANT_SIM_ERROR_NODE);
  sextant_torus_job_init (&job);
  params.router_clock_mhz = 0;
  ASSERT_RUN_FAILS (SEXTANT_SIM_ERROR_PARAMS);
  sextant_torus_params_init (&params);
  params.credits = 17;
  ASSERT_RUN_FAILS (SEXTANT_SIM_ERROR_PARAMS);
  {
    g_autoptr(SextantTorus) odd = sextant_torus_new_from_string ("3x4", NULL);
    g_autoptr(GError) error = NULL;

    sextant_torus_params_init (&params);
    job.op = SEXTANT_TORUS_OP_ALLGATHER;
    g_assert_null (sextant_torus_sim_run (odd, &params, &job, &error));
    g_assert_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_SIZE);
  }
#undef ASSERT_RUN_FAILS
}

/* 256 reduce packets: with one credit at a time a child waits a credit
 * round trip per packet; the default 16 credits keep the links busy */
static void
test_credits (void)
{
  SextantTorusParams params;
  g_autoptr(SextantTorusSim) many = run_op ("8x8x8", SEXTANT_TORUS_OP_ALLREDUCE, 65536, NULL);
  g_autoptr(SextantTorusSim) one = NULL;
  gint64 packet = 16 * 2000;

  sextant_torus_params_init (&params);
  params.credits = 1;
  params.credit_batch = 1;
  one = run_op ("8x8x8", SEXTANT_TORUS_OP_ALLREDUCE, 65536, &params);
  g_test_message ("all-reduce of 256 packets on 8x8x8: %.3f us with 16 credits, %.3f us with 1",
                  sextant_torus_sim_get_hw_ps (many) / 1e6, sextant_torus_sim_get_hw_ps (one) / 1e6);
  /* 16 credits: about the injection of 256 packets plus the tree */
  g_assert_cmpint (sextant_torus_sim_get_hw_ps (many), <, 256 * packet + 10000000);
  /* 1 credit: a round trip (packet up, credit down: 2 links) per packet */
  g_assert_cmpint (sextant_torus_sim_get_hw_ps (one), >, 256 * (2 * 80000));
}

/* An all-gather of 16 trees: every node ejects every other node's packet,
 * so the ejection channel bounds it; the trees share the links */
static void
test_allgather_contention (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string ("8x8x8", NULL);
  SextantTorusJob job;
  g_autoptr(SextantTorusSim) sim16 = NULL;
  g_autoptr(SextantTorusSim) bcast = run_op ("8x8x8", SEXTANT_TORUS_OP_BCAST, 256, NULL);
  gint64 packet = 16 * 2000;

  sextant_torus_job_init (&job);
  job.op = SEXTANT_TORUS_OP_ALLGATHER;
  sim16 = sextant_torus_sim_run (torus, NULL, &job, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sextant_torus_sim_get_n_trees (sim16), ==, 16);
  g_assert_cmpstr (sextant_torus_sim_get_p2p_algorithm (sim16), ==, "recursive doubling");
  g_assert_cmpint (sextant_torus_sim_get_hw_ps (sim16), >=, 511 * packet);
  /* and the rest hides behind it: within a few broadcasts of the bound */
  g_assert_cmpint (sextant_torus_sim_get_hw_ps (sim16), <, 511 * packet + 4 * sextant_torus_sim_get_hw_ps (bcast));
  g_test_message ("all-gather 8x8x8, 16 trees: hardware %.3f us, recursive doubling %.3f us",
                  sextant_torus_sim_get_hw_ps (sim16) / 1e6, sextant_torus_sim_get_p2p_ps (sim16) / 1e6);
}

static void
test_transit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string ("4x4x4", NULL);
  guint transit[] = { 1, 2, 5 };
  SextantTorusJob job;

  for (SextantTorusOp op = SEXTANT_TORUS_OP_BCAST; op <= SEXTANT_TORUS_OP_ALLREDUCE; op++)
    {
      g_autoptr(SextantTorusSim) sim = NULL;

      sextant_torus_job_init (&job);
      job.op = op;
      job.transit = transit;
      job.n_transit = G_N_ELEMENTS (transit);
      job.record = TRUE;
      sim = sextant_torus_sim_run (torus, NULL, &job, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (sextant_torus_tree_get_n_members (sextant_torus_sim_get_tree (sim, 0)), ==, 61);
      for (guint i = 0; i < G_N_ELEMENTS (transit); i++)
        {
          const GArray *messages = sextant_torus_sim_get_messages (sim);

          g_assert_false (sextant_torus_sim_is_member (sim, transit[i]));
          /* a transit node's host neither ejects nor sends nor receives */
          g_assert_cmpint (sextant_torus_sim_get_hw_end (sim)[transit[i]], ==, 0);
          for (guint m = 0; m < messages->len; m++)
            {
              const SextantTorusMessage *msg = &g_array_index (messages, SextantTorusMessage, m);

              g_assert_cmpuint (msg->from, !=, transit[i]);
              g_assert_cmpuint (msg->to, !=, transit[i]);
            }
        }
      /* one message per taking-part non-root node and direction */
      g_assert_cmpuint (sextant_torus_sim_get_messages (sim)->len, ==, op == SEXTANT_TORUS_OP_ALLREDUCE ? 120 : 60);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sim/ratios/bcast", test_bcast_ratios);
  g_test_add_func ("/sim/ratios/allreduce", test_allreduce_ratios);
  g_test_add_func ("/sim/closed-form", test_closed_form);
  g_test_add_func ("/sim/store-and-forward", test_store_and_forward);
  g_test_add_func ("/sim/tree/dimension-order", test_dimension_order_trees);
  g_test_add_func ("/sim/tree/invalid", test_invalid_trees);
  g_test_add_func ("/sim/bad-input", test_bad_input);
  g_test_add_func ("/sim/credits", test_credits);
  g_test_add_func ("/sim/allgather-contention", test_allgather_contention);
  g_test_add_func ("/sim/transit", test_transit);

  return g_test_run ();
}
