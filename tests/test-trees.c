/*
 * test-trees.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The builders of graph/sextant-graph.h through their C API, on real
 * stores: synthetic traces with known collectives (tests/otf2gen) and
 * third-party archives. Every listed collective builds into a well-formed
 * tree (one node per member, a root, parents without cycles, a critical
 * path from the root down parents to the node that finished last, no
 * negative lateness); sextant_graph_collective_at() finds the collective a
 * location was in, from the call itself or the Wait of a non-blocking one;
 * the errors carry their codes. (tests/test-trees.py checks the trees'
 * contents through the command line, and onecoll's on recorded runs.)
 */
#include "config.h"

#include <string.h>

#include "sextant-graph.h"
#include "sextant-test-util.h"

#define NS 1   /* planted-collectives: 1 GHz, ticks are nanoseconds */

/* Generates otf2gen's @scenario into @tmpdir; returns its anchor. */
static char *
generate (const char *scenario,
          const char *tmpdir)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = g_build_filename (tmpdir, scenario, NULL);
  const char *argv[] = { g_getenv ("SEXTANT_OTF2GEN"), scenario, out, NULL };
  int status = -1;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  return g_build_filename (out, "traces.otf2", NULL);
}

typedef struct
{
  char         *tmpdir;
  char         *gendir;
  SextantStore *store;
} Fixture;

static void
fixture_open (Fixture    *fixture,
              const char *scenario,
              const char *external)
{
  g_autofree char *anchor = NULL;

  fixture->gendir = g_dir_make_tmp ("sextant-test-trees-XXXXXX", NULL);
  g_assert_nonnull (fixture->gendir);
  if (external != NULL)
    anchor = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), external, "traces.otf2", NULL);
  else
    anchor = generate (scenario, fixture->gendir);
  fixture->store = sextant_test_import (anchor, &fixture->tmpdir);
}

static void
fixture_close (Fixture *fixture)
{
  g_clear_object (&fixture->store);
  sextant_test_remove_tree (fixture->tmpdir);
  sextant_test_remove_tree (fixture->gendir);
  g_free (fixture->tmpdir);
  g_free (fixture->gendir);
}

/* A tree is well formed, whatever its kind. */
static void
check_shape (SextantCommTree *tree)
{
  guint n = sextant_comm_tree_get_n_nodes (tree);
  int root = sextant_comm_tree_get_root (tree);
  const GArray *path = sextant_comm_tree_get_critical_path (tree);
  gint64 last = G_MININT64;

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpint (root, >=, 0);
  g_assert_cmpint (root, <, (int)n);
  g_assert_cmpint (sextant_comm_tree_get_node (tree, (guint)root)->parent, ==, -1);

  for (guint i = 0; i < n; i++)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (tree, i);
      int steps = 0;

      g_assert_nonnull (node->name);
      g_assert_cmpint (node->lateness, >=, 0);
      if (node->arrival != SEXTANT_NULL && node->finish != SEXTANT_NULL)
        g_assert_cmpint (node->finish, >=, node->arrival);
      /* parents reach a top without a cycle */
      for (int p = node->parent; p >= 0; p = sextant_comm_tree_get_node (tree, (guint)p)->parent)
        g_assert_cmpint (++steps, <=, (int)n);
      if (node->finish != SEXTANT_NULL)
        last = MAX (last, node->finish);
    }
  for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
    {
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (tree, e);

      g_assert_cmpint (edge->from, >=, 0);
      g_assert_cmpint (edge->to, <, (int)n);
      g_assert_cmpint (edge->from, !=, edge->to);
      g_assert_nonnull (edge->by);
      if (edge->begin != SEXTANT_NULL && edge->end != SEXTANT_NULL)
        g_assert_cmpint (edge->end, >=, edge->begin);
    }

  /* the critical path: from a top down parents to the node that finished
   * last; in an exchange (no parents), along critical edges */
  g_assert_cmpuint (path->len, >, 0);
  for (guint i = 1; i < path->len; i++)
    if (sextant_comm_tree_is_exchange (tree))
      {
        gboolean linked = FALSE;

        for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
          linked |= sextant_comm_tree_edge_is_critical (tree, e) &&
                    sextant_comm_tree_get_edge (tree, e)->from == g_array_index (path, int, i - 1) &&
                    sextant_comm_tree_get_edge (tree, e)->to == g_array_index (path, int, i);
        g_assert_true (linked);
      }
    else
      g_assert_cmpint (sextant_comm_tree_get_node (tree, (guint)g_array_index (path, int, i))->parent, ==,
                       g_array_index (path, int, i - 1));
  g_assert_cmpint (sextant_comm_tree_get_node (tree, (guint)g_array_index (path, int, path->len - 1))->finish, ==,
                   last);
}

/* Every listed collective builds; the tree has one node per member. */
static guint
check_all (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) refs = sextant_graph_list_collectives (store, &error);

  g_assert_no_error (error);
  g_assert_nonnull (refs);
  for (guint i = 0; i < refs->len; i++)
    {
      SextantCollectiveRef *ref = g_ptr_array_index (refs, i);
      g_autoptr(SextantCommTree) tree = sextant_graph_build_collective (store, ref->id, SEXTANT_TREE_LAYOUT_RECORDED,
                                                                        &error);

      g_assert_no_error (error);
      g_assert_nonnull (tree);
      g_assert_cmpint (sextant_comm_tree_get_kind (tree), ==, ref->kind);
      g_assert_cmpstr (sextant_comm_tree_get_id (tree), ==, ref->id);
      g_assert_cmpint (sextant_comm_tree_get_n_nodes (tree), ==, ref->members);
      /* a model layout (the window's Binomial Layout) only for MPI BCAST and REDUCE */
      g_assert_cmpint (sextant_comm_tree_get_has_model_layout (tree), ==,
                       ref->kind == SEXTANT_TREE_MPI_COLLECTIVE &&
                       (g_str_equal (ref->operation, "BCAST") || g_str_equal (ref->operation, "REDUCE")));
      g_assert_cmpint (ref->end, >=, ref->begin);
      if (i > 0)
        g_assert_cmpint (ref->begin, >=, ((SextantCollectiveRef *)g_ptr_array_index (refs, i - 1))->begin);
      check_shape (tree);
    }

  return refs->len;
}

/* The id of the MPI collective @loc was in at @time; NULL for none. */
static char *
at (SextantStore *store,
    gint64        loc,
    gint64        time)
{
  g_autoptr(GError) error = NULL;
  char *id = sextant_graph_collective_at (store, loc, time, &error);

  g_assert_no_error (error);
  return id;
}

static const char *
find_id (GPtrArray  *refs,
         const char *operation,
         gint64      begin)
{
  for (guint i = 0; i < refs->len; i++)
    {
      SextantCollectiveRef *ref = g_ptr_array_index (refs, i);

      if (g_str_equal (ref->operation, operation) && ref->begin == begin)
        return ref->id;
    }

  return NULL;
}

static void
test_planted_collectives (void)
{
  Fixture f = { NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) refs = NULL;
  g_autoptr(SextantCommTree) tree = NULL;
  g_autofree char *in_barrier = NULL;
  g_autofree char *in_wait = NULL;
  g_autofree char *in_post = NULL;
  g_autofree char *nothing = NULL;
  g_autofree char *in_self = NULL;
  const char *barrier, *ibarrier;

  fixture_open (&f, "planted-collectives", NULL);
  /* barrier, allreduce, bcast, reduce, scan, non-blocking barrier and
   * allreduce; the one-member ones are not listed */
  g_assert_cmpuint (check_all (f.store), ==, 7);

  refs = sextant_graph_list_collectives (f.store, &error);
  g_assert_no_error (error);
  barrier = find_id (refs, "BARRIER", 100 * NS);
  ibarrier = find_id (refs, "BARRIER", 1700 * NS);
  g_assert_nonnull (barrier);
  g_assert_nonnull (ibarrier);
  for (guint i = 0; i < refs->len; i++)
    g_assert_cmpint (((SextantCollectiveRef *)g_ptr_array_index (refs, i))->kind, ==, SEXTANT_TREE_MPI_COLLECTIVE);

  /* rank 0 (location 0): in the barrier [100, 210], in main only at 50, in
   * the MPI_Ibarrier post [1700, 1702] and its MPI_Wait [1750, 1790] */
  in_barrier = at (f.store, 0, 150 * NS);
  nothing = at (f.store, 0, 50 * NS);
  in_post = at (f.store, 0, 1701 * NS);
  in_wait = at (f.store, 0, 1760 * NS);
  in_self = at (f.store, 0, 1520 * NS);
  g_assert_cmpstr (in_barrier, ==, barrier);
  g_assert_null (nothing);
  g_assert_cmpstr (in_post, ==, ibarrier);
  g_assert_cmpstr (in_wait, ==, ibarrier);
  /* its MPI_COMM_SELF allreduce is a collective of one, but one */
  g_assert_nonnull (in_self);
  g_assert_cmpstr (in_self, !=, barrier);

  /* ids as users read them: the barrier is the first collective on
   * communicator 0 (MPI_COMM_WORLD), the self allreduce location 0's first
   * on a self communicator; the number (collective.id) draws the same tree,
   * named as listed */
  g_assert_cmpstr (barrier, ==, "mpi:0:1");
  g_assert_true (g_str_has_prefix (in_self, "self:0:"));
  tree = sextant_graph_build_collective (f.store, "4294967297", SEXTANT_TREE_LAYOUT_RECORDED, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sextant_comm_tree_get_id (tree), ==, "mpi:0:1");
  g_assert_true (g_str_has_prefix (sextant_comm_tree_get_title (tree), "MPI BARRIER #1 on "));
  g_clear_pointer (&tree, sextant_comm_tree_unref);

  /* the barrier's root: rank 3, who arrived last; lateness from the first */
  tree = sextant_graph_build_collective (f.store, barrier, SEXTANT_TREE_LAYOUT_BINOMIAL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sextant_comm_tree_get_node (tree, (guint)sextant_comm_tree_get_root (tree))->loc, ==, 3);
  g_assert_cmpint (sextant_comm_tree_get_node (tree, (guint)sextant_comm_tree_get_root (tree))->lateness, ==, 90);
  /* no model for a barrier: the binomial layout changes nothing */
  for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
    g_assert_false (sextant_comm_tree_get_edge (tree, e)->model);

  fixture_close (&f);
}

static void
test_errors (void)
{
  Fixture f = { NULL };
  static const char * const unknown[] = {
    "99999", "", "bogus", "onecoll:1", "onecoll:65536:1", "onecoll:-1:2", "exchange:999:1", "exchange:2:0",
    "exchange:2:99", "1:2", "mpi:0:99", "mpi:0:0", "mpi:-1:1", "mpi:0", "self:9:1", "mpi:1048574:1",
  };

  fixture_open (&f, "planted-late-sender", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (unknown); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SextantCommTree) tree = sextant_graph_build_collective (f.store, unknown[i],
                                                                        SEXTANT_TREE_LAYOUT_RECORDED, &error);

      g_assert_null (tree);
      g_assert_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_UNKNOWN_ID);
      g_assert_nonnull (strstr (error->message, unknown[i]));
      g_assert_nonnull (strstr (error->message, "--collectives"));
    }

  /* driver() runs on rank 2 only: no message has both ends inside its
   * visits, so its exchange has no data */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GHashTable) names = sextant_store_read_region_names (f.store, &error);
    g_autoptr(SextantCommTree) tree = NULL;
    g_autofree char *id = NULL;
    GHashTableIter iter;
    gpointer key, value;
    gint64 driver = -1;

    g_hash_table_iter_init (&iter, names);
    while (g_hash_table_iter_next (&iter, &key, &value))
      if (g_str_equal (value, "driver"))
        driver = *(gint64 *)key;
    g_assert_cmpint (driver, >=, 0);
    id = g_strdup_printf ("exchange:%" G_GINT64_FORMAT ":1", driver);
    tree = sextant_graph_build_collective (f.store, id, SEXTANT_TREE_LAYOUT_RECORDED, &error);
    g_assert_null (tree);
    g_assert_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA);
  }

  g_assert_cmpuint (check_all (f.store), ==, 2);
  fixture_close (&f);
}

static void
test_external (gconstpointer data)
{
  Fixture f = { NULL };
  g_autofree char *anchor = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), data, "traces.otf2", NULL);

  if (!g_file_test (anchor, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the external traces are not there");
      return;
    }
  fixture_open (&f, NULL, data);
  g_assert_cmpuint (check_all (f.store), >, 0);
  fixture_close (&f);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph/trees/planted-collectives", test_planted_collectives);
  g_test_add_func ("/graph/trees/errors", test_errors);
  g_test_add_data_func ("/graph/trees/external/casita-4_mpi_ls_barr", "casita-4_mpi_ls_barr", test_external);
  g_test_add_data_func ("/graph/trees/external/sstmacro-otf2_test_traces", "sstmacro-otf2_test_traces",
                        test_external);
  g_test_add_data_func ("/graph/trees/external/casita-2_cloverleaf_oaccregions_cudafull",
                        "casita-2_cloverleaf_oaccregions_cudafull", test_external);

  return g_test_run ();
}
