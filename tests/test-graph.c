/*
 * test-graph.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Who delayed whom, and the communication matrix, through the C API
 * (graph/): the rule that judges wait states direct or propagated on
 * intervals made for it (exactly half, just under half, overlapping waits
 * of the peer counted once, a loop); the delay chain on the third-party
 * trace casita-4_mpi_ls_barr (rank 3 waits for 2, which waits for 1, which
 * waits for 0, which computes in foo: rank 0 is the root cause, as the
 * trace's visits show), cut by the depth bound, and its errors (a store
 * without analysis, an unknown id, an instance that is no wait state); the
 * matrix's sums against the message table's, per pair and in a range.
 * The recorded chain (real MPI) is tests/test-delay-chain.py.
 */
#include "config.h"

#include <string.h>

#include "sextant-analysis.h"
#include "sextant-comm-matrix.h"
#include "sextant-graph.h"
#include "sextant-store-private.h"
#include "sextant-test-util.h"
#include "sextant-wait-causes.h"

/* Helpers ------------------------------------------------------------------- */

static char *
external_anchor (const char *name)
{
  return g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), name, "traces.otf2", NULL);
}

static void
analyse (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantPatternSet) set = sextant_pattern_set_new ();
  g_autoptr(SextantAnalysis) analysis = NULL;

  g_assert_true (sextant_pattern_set_add_builtin (set, &error));
  g_assert_no_error (error);
  analysis = sextant_analysis_new (store, set);
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
}

/* The instance of @pattern on @loc (the first by severity). */
static SextantPatternInstance *
find_instance (SextantStore *store,
               const char   *pattern,
               gint64        loc)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) instances = sextant_store_list_pattern_instances (store, pattern, 1000, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < instances->len; i++)
    {
      SextantPatternInstance *instance = g_ptr_array_index (instances, i);

      if (instance->loc == loc)
        return g_ptr_array_steal_index (instances, i);
    }
  g_assert_not_reached ();
}

static gboolean
int_row (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  gint64 *values = user_data;

  for (int i = 0; i < 3; i++)
    values[i] = sextant_row_is_null (row, i) ? 0 : sextant_row_get_int (row, i);
  return TRUE;
}

/* Three integers of one row of @sql. */
static void
query3 (SextantStore *store,
        const char   *sql,
        gint64       *values,
        gint64        a,
        gint64        b)
{
  g_autoptr(GError) error = NULL;

  values[0] = values[1] = values[2] = 0;
  g_assert_true (sextant_store_foreach_sql (store, sql, int_row, values, &error, "ii", a, b));
  g_assert_no_error (error);
}

/* The rule ------------------------------------------------------------------- */

#define N SEXTANT_NULL

static const SextantWaitInterval rule_waits[] = {
  /* 0 waits for 1 over [0, 100]; 1 waited for 2 over [0, 60]: propagated,
   * and 1's wait is direct (2 never waits): the root cause is 2 */
  { 101, 0, 1, 0, 100 },
  { 102, 1, 2, 0, 60 },
  /* exactly half: propagated */
  { 103, 3, 4, 0, 100 },
  { 104, 4, 5, 50, 100 },
  /* just under half: direct */
  { 105, 6, 7, 0, 100 },
  { 106, 7, 8, 51, 100 },
  /* two waits of the peer that overlap each other cover 40 of 100, not
   * 30 + 30: direct */
  { 107, 9, 10, 0, 100 },
  { 108, 10, 11, 0, 30 },
  { 109, 10, 11, 10, 40 },
  /* two apart cover 60: propagated; the tie goes to the later one */
  { 110, 12, 13, 0, 100 },
  { 111, 13, 11, 0, 30 },
  { 112, 13, 11, 40, 70 },
  /* waiting for each other: propagated, without a root */
  { 113, 14, 15, 0, 100 },
  { 114, 15, 14, 0, 100 },
  /* no peer, no interval: not judged */
  { 115, 16, N, 0, 100 },
  { 116, 17, 18, N, N },
};

static const struct
{
  gint64           instance;
  SextantWaitCause cause;
  gint64           cause_instance;
  gint64           root_instance;
  gint64           root_loc;
} rule_expected[] = {
  { 101, SEXTANT_WAIT_CAUSE_PROPAGATED, 102, 102, 2 },
  { 102, SEXTANT_WAIT_CAUSE_DIRECT, N, 102, 2 },
  { 103, SEXTANT_WAIT_CAUSE_PROPAGATED, 104, 104, 5 },
  { 104, SEXTANT_WAIT_CAUSE_DIRECT, N, 104, 5 },
  { 105, SEXTANT_WAIT_CAUSE_DIRECT, N, 105, 7 },
  { 106, SEXTANT_WAIT_CAUSE_DIRECT, N, 106, 8 },
  { 107, SEXTANT_WAIT_CAUSE_DIRECT, N, 107, 10 },
  { 108, SEXTANT_WAIT_CAUSE_DIRECT, N, 108, 11 },
  { 109, SEXTANT_WAIT_CAUSE_DIRECT, N, 109, 11 },
  { 110, SEXTANT_WAIT_CAUSE_PROPAGATED, 112, 112, 11 },
  { 111, SEXTANT_WAIT_CAUSE_DIRECT, N, 111, 11 },
  { 112, SEXTANT_WAIT_CAUSE_DIRECT, N, 112, 11 },
  { 113, SEXTANT_WAIT_CAUSE_PROPAGATED, 114, N, N },
  { 114, SEXTANT_WAIT_CAUSE_PROPAGATED, 113, N, N },
  { 115, SEXTANT_WAIT_CAUSE_NONE, N, N, N },
  { 116, SEXTANT_WAIT_CAUSE_NONE, N, N, N },
};

static void
test_rule (void)
{
  g_autoptr(GArray) states = sextant_wait_causes_classify (rule_waits, G_N_ELEMENTS (rule_waits));

  G_STATIC_ASSERT (G_N_ELEMENTS (rule_waits) == G_N_ELEMENTS (rule_expected));
  g_assert_cmpuint (states->len, ==, G_N_ELEMENTS (rule_waits));
  for (guint i = 0; i < states->len; i++)
    {
      const SextantWaitState *s = &g_array_index (states, SextantWaitState, i);

      g_test_message ("instance %" G_GINT64_FORMAT, s->instance);
      g_assert_cmpint (s->instance, ==, rule_expected[i].instance);
      g_assert_cmpint (s->cause, ==, rule_expected[i].cause);
      g_assert_cmpint (s->cause_instance, ==, rule_expected[i].cause_instance);
      g_assert_cmpint (s->root_instance, ==, rule_expected[i].root_instance);
      g_assert_cmpint (s->root_loc, ==, rule_expected[i].root_loc);
    }

  g_assert_true (sextant_wait_causes_is_wait_state ("late_sender"));
  g_assert_true (sextant_wait_causes_is_wait_state ("wait_at_barrier"));
  g_assert_false (sextant_wait_causes_is_wait_state ("wrong_order"));
  g_assert_false (sextant_wait_causes_is_wait_state ("barrier_completion"));
}

/* casita-4_mpi_ls_barr ------------------------------------------------------- */

typedef struct
{
  SextantStore           *store;
  char                   *tmpdir;
  SextantPatternInstance *late[4];   /* analysed: the Late Sender on ranks 1, 2 and 3 */
} Casita;

static void
casita_setup (Casita        *fixture,
              gconstpointer  analysed)
{
  g_autofree char *anchor = external_anchor ("casita-4_mpi_ls_barr");

  fixture->store = sextant_test_import (anchor, &fixture->tmpdir);
  if (!GPOINTER_TO_INT (analysed))
    return;
  analyse (fixture->store);
  for (gint64 rank = 1; rank <= 3; rank++)
    fixture->late[rank] = find_instance (fixture->store, "late_sender", rank);
}

static void
casita_teardown (Casita        *fixture,
                 gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixture->late); i++)
    g_clear_pointer (&fixture->late[i], sextant_pattern_instance_free);
  g_clear_object (&fixture->store);
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

/* The trace: rank 0 computes in foo (gen_mpi.c:32) for 10 s and sends to
 * 1; 1, waiting in MPI_Recv since 1.2 s, computes 1 s more and sends to 2;
 * 2 does the same for 3. */
static void
test_casita_causes (Casita        *fixture,
                    gconstpointer  data)
{
  const SextantPatternInstance *one = fixture->late[1], *two = fixture->late[2], *three = fixture->late[3];
  g_autoptr(SextantPatternInstance) barrier = find_instance (fixture->store, "wait_at_barrier", 2);
  g_autoptr(SextantPatternInstance) completion = find_instance (fixture->store, "barrier_completion", 2);

  g_assert_cmpint (one->cause, ==, SEXTANT_WAIT_CAUSE_DIRECT);
  g_assert_cmpint (one->root_loc, ==, 0);
  g_assert_cmpstr (one->root_label, ==, "MPI Rank 0");
  g_assert_cmpint (one->cause_instance, ==, SEXTANT_NULL);
  g_assert_nonnull (strstr (one->comment, "Move work from before the send on MPI Rank 0"));

  g_assert_cmpint (two->cause, ==, SEXTANT_WAIT_CAUSE_PROPAGATED);
  g_assert_cmpint (two->cause_instance, ==, one->id);
  g_assert_cmpint (two->root_loc, ==, 0);
  g_assert_cmpint (three->cause, ==, SEXTANT_WAIT_CAUSE_PROPAGATED);
  g_assert_cmpint (three->cause_instance, ==, two->id);
  g_assert_cmpint (three->root_loc, ==, 0);
  g_assert_cmpstr (three->root_label, ==, "MPI Rank 0");
  g_assert_cmpstr (three->comment, ==,
                   "MPI Rank 3 waited 10.99 s in MPI_Recv at gen_mpi.c:52 (where late_sender begins; the trace "
                   "gives no call site) for MPI Rank 2, which was itself waiting (propagated); the root cause is "
                   "MPI Rank 0 in foo at gen_mpi.c:32 (where foo begins; the trace gives no call site): balance "
                   "the work there.");

  /* rank 0 arrived last at the barrier, computing in foo */
  g_assert_cmpint (barrier->cause, ==, SEXTANT_WAIT_CAUSE_DIRECT);
  g_assert_cmpint (barrier->root_loc, ==, 0);
  /* no wait state */
  g_assert_cmpint (completion->cause, ==, SEXTANT_WAIT_CAUSE_NONE);
  g_assert_cmpint (completion->root_loc, ==, SEXTANT_NULL);
  g_assert_null (completion->root_label);
}

static void
test_casita_chain (Casita        *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const SextantPatternInstance *one = fixture->late[1], *two = fixture->late[2], *three = fixture->late[3];
  g_autoptr(SextantCommTree) chain = sextant_graph_build_delay_chain (fixture->store, three->id, 0, &error);
  const SextantPatternInstance *links[] = { three, two, one };
  const SextantTreeNode *root;
  const GArray *path;
  g_autoptr(JsonNode) json = NULL;
  JsonArray *nodes;

  g_assert_no_error (error);
  g_assert_cmpint (sextant_comm_tree_get_kind (chain), ==, SEXTANT_TREE_DELAY_CHAIN);
  g_assert_cmpuint (sextant_comm_tree_get_n_nodes (chain), ==, 4);
  g_assert_cmpuint (sextant_comm_tree_get_n_edges (chain), ==, 3);
  g_assert_cmpint (sextant_comm_tree_get_root (chain), ==, 3);

  for (guint i = 0; i < 3; i++)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (chain, i);
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (chain, i);

      g_assert_cmpint (node->loc, ==, 3 - (gint64)i);
      g_assert_cmpint (node->cause, ==, SEXTANT_CAUSE_WAITING);
      g_assert_cmpint (node->instance, ==, links[i]->id);
      g_assert_cmpstr (node->pattern, ==, "late_sender");
      g_assert_cmpstr (node->region_name, ==, "MPI_Recv");
      g_assert_cmpint (node->begin, ==, links[i]->begin);
      g_assert_cmpint (node->end, ==, links[i]->end);
      g_assert_cmpint (node->lateness, ==, links[i]->severity);
      g_assert_cmpint (node->parent, ==, (int)i + 1);
      /* the delayer to the delayed, over the wait */
      g_assert_cmpint (edge->from, ==, (int)i + 1);
      g_assert_cmpint (edge->to, ==, (int)i);
      g_assert_cmpstr (edge->by, ==, "late_sender");
      g_assert_cmpint (edge->begin, ==, links[i]->begin);
      g_assert_cmpint (edge->end, ==, links[i]->end);
    }

  root = sextant_comm_tree_get_node (chain, 3);
  g_assert_cmpint (root->loc, ==, 0);
  g_assert_cmpstr (root->name, ==, "MPI Rank 0");
  g_assert_cmpint (root->cause, ==, SEXTANT_CAUSE_ROOT);
  g_assert_cmpstr (root->region_name, ==, "foo");
  g_assert_true (g_str_has_suffix (root->file, "/gen_mpi.c"));
  g_assert_cmpint (root->line, ==, 32);
  g_assert_cmpint (root->begin, ==, one->begin);
  g_assert_cmpint (root->end, ==, one->end);
  g_assert_cmpint (root->parent, ==, -1);

  /* the critical path: from the root cause to the wait that ended last */
  path = sextant_comm_tree_get_critical_path (chain);
  g_assert_cmpuint (path->len, ==, 4);
  g_assert_cmpint (g_array_index (path, int, 0), ==, 3);
  g_assert_cmpint (g_array_index (path, int, 3), ==, 0);

  json = sextant_comm_tree_to_json (chain);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json), "kind"), ==, "delay_chain");
  nodes = json_object_get_array_member (json_node_get_object (json), "nodes");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (nodes, 3), "cause"), ==,
                   "root_cause");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (nodes, 3), "line"), ==, 32);
}

static void
test_casita_depth (Casita        *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const SextantPatternInstance *one = fixture->late[1], *two = fixture->late[2], *three = fixture->late[3];
  g_autoptr(SextantCommTree) one_link = sextant_graph_build_delay_chain (fixture->store, three->id, 1, &error);
  g_autoptr(SextantCommTree) two_links = NULL;
  const SextantTreeNode *last;

  g_assert_no_error (error);
  g_assert_cmpuint (sextant_comm_tree_get_n_nodes (one_link), ==, 2);
  last = sextant_comm_tree_get_node (one_link, 1);
  g_assert_cmpint (last->cause, ==, SEXTANT_CAUSE_TRUNCATED);
  g_assert_cmpint (last->loc, ==, 2);
  g_assert_cmpint (last->instance, ==, two->id);

  two_links = sextant_graph_build_delay_chain (fixture->store, three->id, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sextant_comm_tree_get_n_nodes (two_links), ==, 3);
  last = sextant_comm_tree_get_node (two_links, 2);
  g_assert_cmpint (last->cause, ==, SEXTANT_CAUSE_TRUNCATED);
  g_assert_cmpint (last->loc, ==, 1);
  g_assert_cmpint (last->instance, ==, one->id);
  g_assert_cmpint (sextant_comm_tree_get_root (two_links), ==, 2);
}

static void
test_casita_errors (Casita        *fixture,
                    gconstpointer  analysed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantCommTree) chain = NULL;

  if (!GPOINTER_TO_INT (analysed))
    {
      chain = sextant_graph_build_delay_chain (fixture->store, 51539607554, 0, &error);
      g_assert_null (chain);
      g_assert_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NOT_ANALYSED);
      g_assert_nonnull (strstr (error->message, "sextant analyze"));
      return;
    }

  chain = sextant_graph_build_delay_chain (fixture->store, 12345, 0, &error);
  g_assert_null (chain);
  g_assert_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_UNKNOWN_ID);
  g_assert_nonnull (strstr (error->message, "12345"));
  g_clear_error (&error);

  {
    g_autoptr(SextantPatternInstance) completion = find_instance (fixture->store, "barrier_completion", 2);

    chain = sextant_graph_build_delay_chain (fixture->store, completion->id, 0, &error);
    g_assert_null (chain);
    g_assert_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA);
    g_assert_nonnull (strstr (error->message, "barrier_completion"));
  }
}

/* The matrix ------------------------------------------------------------------ */

static const char matched_sql[] =
  "SELECT count (*), coalesce (sum (bytes), 0), 0 FROM message "
  "WHERE send_time IS NOT NULL AND recv_time IS NOT NULL AND send_loc = ?1 AND recv_loc = ?2";
static const char total_sql[] =
  "SELECT count (*), coalesce (sum (bytes), 0), 0 FROM message "
  "WHERE send_time IS NOT NULL AND recv_time IS NOT NULL AND ?1 = ?2";
/* every receive call counted once */
static const char receive_time_sql[] =
  "SELECT coalesce (sum (v.leave - v.enter), 0), count (*), 0 FROM visit AS v WHERE v.id IN "
  "(SELECT recv_visit FROM message WHERE send_time IS NOT NULL AND recv_time IS NOT NULL) AND ?1 = ?2";
static const char range_sql[] =
  "SELECT count (*), coalesce (sum (bytes), 0), 0 FROM message "
  "WHERE send_time IS NOT NULL AND recv_time IS NOT NULL "
  "  AND ((send_time >= ?1 AND send_time < ?2) OR (recv_time >= ?1 AND recv_time < ?2))";

static void
test_matrix_sums (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *anchor = external_anchor ("sstmacro-otf2_test_traces");
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (anchor, &tmpdir);
  g_autoptr(SextantCommMatrix) matrix = sextant_comm_matrix_build (store, SEXTANT_NULL, SEXTANT_NULL, &error);
  g_autoptr(SextantCommMatrix) part = NULL;
  g_autoptr(SextantCommMatrix) none = NULL;
  SextantTimeSpan span;
  gint64 totals[3], receives[3], in_range[3], sends[3];
  double sum_bytes = 0, sum_count = 0;
  gint64 b, e;
  guint pairs = 0;

  g_assert_no_error (error);
  g_assert_true (sextant_store_get_time_span (store, &span, &error));
  query3 (store, total_sql, totals, 0, 0);
  query3 (store, receive_time_sql, receives, 0, 0);
  g_assert_cmpint (totals[0], ==, 1440);

  g_assert_cmpfloat (sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_COUNT), ==, totals[0]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_BYTES), ==, totals[1]);
  g_assert_cmpfloat_with_epsilon (sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_TIME),
                                  (double)receives[0] / span.resolution, 1e-9);

  /* every cell is its pair's messages */
  for (guint s = 0; s < sextant_comm_matrix_get_size (matrix); s++)
    for (guint r = 0; r < sextant_comm_matrix_get_size (matrix); r++)
      {
        gint64 cell[3];

        query3 (store, matched_sql, cell, sextant_comm_matrix_get_loc (matrix, s),
                sextant_comm_matrix_get_loc (matrix, r));
        g_assert_cmpfloat (sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_COUNT, s, r), ==, cell[0]);
        g_assert_cmpfloat (sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_BYTES, s, r), ==, cell[1]);
        g_assert_cmpint (sextant_comm_matrix_get_pair_span (matrix, s, r, &b, &e), ==, cell[0] > 0);
        if (cell[0] > 0)
          {
            g_assert_cmpint (b, <=, e);
            pairs++;
          }
        sum_count += sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_COUNT, s, r);
        sum_bytes += sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_BYTES, s, r);
      }
  g_assert_cmpuint (pairs, >, 1);
  g_assert_cmpfloat (sum_count, ==, totals[0]);
  g_assert_cmpfloat (sum_bytes, ==, totals[1]);
  g_assert_cmpint (sextant_comm_matrix_find_loc (matrix, sextant_comm_matrix_get_loc (matrix, 1)), ==, 1);
  g_assert_cmpint (sextant_comm_matrix_find_loc (matrix, 999999), ==, -1);

  /* from just after the first send to half way to the last: the messages
   * sent or received there (the first one is received there) */
  query3 (store, "SELECT min (send_time), max (send_time), 0 FROM message WHERE ?1 = ?2", sends, 0, 0);
  b = sends[0] + 1;
  e = sends[0] + (sends[1] - sends[0]) / 2;
  part = sextant_comm_matrix_build (store, b, e, &error);
  g_assert_no_error (error);
  query3 (store, range_sql, in_range, b, e);
  g_assert_cmpint (in_range[0], >, 0);
  g_assert_cmpint (in_range[0], <, totals[0]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (part, SEXTANT_MATRIX_COUNT), ==, in_range[0]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (part, SEXTANT_MATRIX_BYTES), ==, in_range[1]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (part, SEXTANT_MATRIX_TIME), <,
                     sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_TIME));

  /* before the first event: nothing */
  none = sextant_comm_matrix_build (store, span.begin - 1000, span.begin - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sextant_comm_matrix_get_size (none), ==, 0);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (none, SEXTANT_MATRIX_COUNT), ==, 0);

  sextant_test_remove_tree (tmpdir);
}

/* casita-4_mpi_ls_barr: three messages of 4 bytes, 0 -> 1 -> 2 -> 3; the
 * time in the receives is the three MPI_Recv calls (9.02 s, 10.01 s,
 * 10.99 s). */
/* One-sided transfers: a PUT's bytes go origin -> target, a GET's fetched
 * bytes target -> origin, an ATOMIC's both; an operation counts once (where
 * its PUT/ATOMIC data goes, or its GET data comes from) */
static const char rma_cell_sql[] =
  "SELECT coalesce (sum (CASE WHEN kind <> 'GET' AND loc = ?1 AND target_loc = ?2 THEN 1 "
  "                           WHEN kind = 'GET' AND loc = ?2 AND target_loc = ?1 THEN 1 ELSE 0 END), 0), "
  "       coalesce (sum (CASE WHEN kind <> 'GET' AND loc = ?1 AND target_loc = ?2 THEN bytes ELSE 0 END "
  "                    + CASE WHEN kind <> 'PUT' AND loc = ?2 AND target_loc = ?1 THEN bytes_received ELSE 0 END), 0), "
  "       0 FROM rma_op";
static const char rma_total_sql[] =
  "SELECT count (*), coalesce (sum (CASE kind WHEN 'PUT' THEN bytes WHEN 'GET' THEN bytes_received "
  "                                           ELSE bytes + bytes_received END), 0), "
  "       (SELECT count (*) FROM rma_op WHERE target_loc IS NULL) "
  "FROM rma_op WHERE target_loc IS NOT NULL AND ?1 = ?2";
static const char rma_range_sql[] =
  "SELECT count (*), 0, 0 FROM rma_op WHERE target_loc IS NOT NULL AND issue_time >= ?1 AND issue_time < ?2";

/* The matrix with the one-sided operations of a synthetic trace of every
 * record kind (4 ranks: puts, a get and an atomic between them, and a few
 * messages), imported for real. */
static void
test_matrix_one_sided (void)
{
  const char *otf2gen = g_getenv ("SEXTANT_OTF2GEN");
  g_autoptr(GError) error = NULL;
  g_autofree char *gendir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *out = g_build_filename (gendir, "archive", NULL);
  g_autofree char *anchor = g_build_filename (out, "traces.otf2", NULL);
  g_autofree char *tmpdir = NULL;
  const char *argv[] = { otf2gen, "every-kind", out, NULL };
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantCommMatrix) messages = NULL;
  g_autoptr(SextantCommMatrix) old = NULL;
  g_autoptr(SextantCommMatrix) one_sided = NULL;
  g_autoptr(SextantCommMatrix) all = NULL;
  g_autoptr(SextantCommMatrix) part = NULL;
  g_autoptr(JsonNode) json = NULL;
  gint64 totals[3], message_totals[3], issues[3], in_range[3];
  double sum_bytes = 0, sum_count = 0;
  int status = -1;

  g_assert_no_error (error);
  g_assert_nonnull (otf2gen);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  store = sextant_test_import (anchor, &tmpdir);

  messages = sextant_comm_matrix_build_full (store, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_MATRIX_TRANSFERS_MESSAGES,
                                             &error);
  g_assert_no_error (error);
  old = sextant_comm_matrix_build (store, SEXTANT_NULL, SEXTANT_NULL, &error);
  g_assert_no_error (error);
  one_sided = sextant_comm_matrix_build_full (store, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_MATRIX_TRANSFERS_ONE_SIDED,
                                              &error);
  g_assert_no_error (error);
  all = sextant_comm_matrix_build_full (store, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_MATRIX_TRANSFERS_ALL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sextant_comm_matrix_get_transfers (old), ==, SEXTANT_MATRIX_TRANSFERS_MESSAGES);
  g_assert_cmpint (sextant_comm_matrix_get_transfers (one_sided), ==, SEXTANT_MATRIX_TRANSFERS_ONE_SIDED);

  /* messages only: as before, the message table's */
  query3 (store, total_sql, message_totals, 0, 0);
  g_assert_cmpint (message_totals[0], >, 0);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (messages, SEXTANT_MATRIX_COUNT), ==, message_totals[0]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (messages, SEXTANT_MATRIX_BYTES), ==, message_totals[1]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (old, SEXTANT_MATRIX_BYTES), ==, message_totals[1]);
  g_assert_cmpuint (sextant_comm_matrix_get_size (old), ==, sextant_comm_matrix_get_size (messages));

  /* one-sided: rma_op's, summed apart in SQL */
  query3 (store, rma_total_sql, totals, 0, 0);
  g_assert_cmpint (totals[0], >=, 4);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (one_sided, SEXTANT_MATRIX_COUNT), ==, totals[0]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (one_sided, SEXTANT_MATRIX_BYTES), ==, totals[1]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (one_sided, SEXTANT_MATRIX_TIME), ==, 0);
  g_assert_cmpint (sextant_comm_matrix_get_n_skipped (one_sided), ==, totals[2]);
  for (guint s = 0; s < sextant_comm_matrix_get_size (one_sided); s++)
    for (guint r = 0; r < sextant_comm_matrix_get_size (one_sided); r++)
      {
        gint64 cell[3], b, e;

        query3 (store, rma_cell_sql, cell, sextant_comm_matrix_get_loc (one_sided, s),
                sextant_comm_matrix_get_loc (one_sided, r));
        g_assert_cmpfloat (sextant_comm_matrix_get_value (one_sided, SEXTANT_MATRIX_COUNT, s, r), ==, cell[0]);
        g_assert_cmpfloat (sextant_comm_matrix_get_value (one_sided, SEXTANT_MATRIX_BYTES, s, r), ==, cell[1]);
        g_assert_cmpint (sextant_comm_matrix_get_pair_span (one_sided, s, r, &b, &e), ==, cell[0] > 0 || cell[1] > 0);
        if (cell[0] > 0)
          {
            gint64 times[3];

            /* the span: the pair's first issue to its last completion */
            query3 (store, "SELECT min (issue_time), max (coalesce (complete_time, issue_time)), 0 FROM rma_op "
                           "WHERE (kind <> 'GET' AND loc = ?1 AND target_loc = ?2) "
                           "   OR (kind <> 'PUT' AND loc = ?2 AND target_loc = ?1)",
                    times, sextant_comm_matrix_get_loc (one_sided, s), sextant_comm_matrix_get_loc (one_sided, r));
            g_assert_cmpint (b, ==, times[0]);
            g_assert_cmpint (e, ==, times[1]);
          }
        sum_count += sextant_comm_matrix_get_value (one_sided, SEXTANT_MATRIX_COUNT, s, r);
        sum_bytes += sextant_comm_matrix_get_value (one_sided, SEXTANT_MATRIX_BYTES, s, r);
      }
  g_assert_cmpfloat (sum_count, ==, totals[0]);
  g_assert_cmpfloat (sum_bytes, ==, totals[1]);

  /* all: both, cell by cell */
  for (guint m = 0; m < SEXTANT_N_MATRIX_METRICS; m++)
    g_assert_cmpfloat_with_epsilon (sextant_comm_matrix_get_total (all, m),
                                    sextant_comm_matrix_get_total (messages, m) +
                                    sextant_comm_matrix_get_total (one_sided, m), 1e-9);
  for (guint s = 0; s < sextant_comm_matrix_get_size (all); s++)
    for (guint r = 0; r < sextant_comm_matrix_get_size (all); r++)
      {
        int ms = sextant_comm_matrix_find_loc (messages, sextant_comm_matrix_get_loc (all, s));
        int mr = sextant_comm_matrix_find_loc (messages, sextant_comm_matrix_get_loc (all, r));
        int os = sextant_comm_matrix_find_loc (one_sided, sextant_comm_matrix_get_loc (all, s));
        int orr = sextant_comm_matrix_find_loc (one_sided, sextant_comm_matrix_get_loc (all, r));
        double bytes = (ms >= 0 && mr >= 0 ? sextant_comm_matrix_get_value (messages, SEXTANT_MATRIX_BYTES, ms, mr) : 0) +
                       (os >= 0 && orr >= 0 ? sextant_comm_matrix_get_value (one_sided, SEXTANT_MATRIX_BYTES, os, orr) : 0);

        g_assert_cmpfloat (sextant_comm_matrix_get_value (all, SEXTANT_MATRIX_BYTES, s, r), ==, bytes);
      }

  /* a range: the operations issued in it */
  query3 (store, "SELECT min (issue_time), max (issue_time), 0 FROM rma_op WHERE ?1 = ?2", issues, 0, 0);
  part = sextant_comm_matrix_build_full (store, issues[0] + 1, issues[1] + 1, SEXTANT_MATRIX_TRANSFERS_ONE_SIDED,
                                         &error);
  g_assert_no_error (error);
  query3 (store, rma_range_sql, in_range, issues[0] + 1, issues[1] + 1);
  g_assert_cmpint (in_range[0], >, 0);
  g_assert_cmpint (in_range[0], <, totals[0]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (part, SEXTANT_MATRIX_COUNT), ==, in_range[0]);

  json = sextant_comm_matrix_to_json (one_sided, SEXTANT_MATRIX_BYTES);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json), "transfers"), ==, "one-sided");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json), "bytes"), ==, totals[1]);

  /* `sextant matrix --transfers` */
  {
    const char *sextant = g_getenv ("SEXTANT");
    const char *db = sextant_store_get_path (store);
    const char *cli[] = { sextant, "matrix", db, "--json", "--transfers", "one-sided", NULL };
    const char *bad[] = { sextant, "matrix", db, "--transfers", "rma", NULL };
    g_autofree char *stdout_text = NULL;
    g_autofree char *stderr_text = NULL;
    g_autoptr(JsonNode) printed = NULL;

    g_assert_nonnull (sextant);
    g_assert_true (g_spawn_sync (NULL, (char **)cli, NULL, G_SPAWN_DEFAULT, NULL, NULL, &stdout_text, NULL,
                                 &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    printed = json_from_string (stdout_text, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (printed), "transfers"), ==, "one-sided");
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (printed), "messages"), ==, totals[0]);
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (printed), "bytes"), ==, totals[1]);

    g_clear_pointer (&stdout_text, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **)bad, NULL, G_SPAWN_DEFAULT, NULL, NULL, &stdout_text, &stderr_text,
                                 &status, &error));
    g_assert_no_error (error);
    g_assert_false (g_spawn_check_wait_status (status, &error));
    g_assert_error (error, G_SPAWN_EXIT_ERROR, 2);
    g_clear_error (&error);
    g_assert_nonnull (strstr (stderr_text, "--transfers"));
  }

  sextant_test_remove_tree (tmpdir);
  sextant_test_remove_tree (gendir);
}

static void
test_matrix_casita (Casita        *fixture,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantCommMatrix) matrix = sextant_comm_matrix_build (fixture->store, SEXTANT_NULL, SEXTANT_NULL,
                                                                   &error);
  g_autoptr(JsonNode) json = NULL;
  g_autofree char *csv = NULL;
  JsonObject *root;

  g_assert_no_error (error);
  g_assert_cmpuint (sextant_comm_matrix_get_size (matrix), ==, 4);
  for (guint s = 0; s < 4; s++)
    for (guint r = 0; r < 4; r++)
      g_assert_cmpfloat (sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_BYTES, s, r), ==, r == s + 1 ? 4 : 0);
  g_assert_cmpfloat_with_epsilon (sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_TIME, 0, 1), 9.0249, 1e-4);
  g_assert_cmpfloat_with_epsilon (sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_TIME, 2, 3), 10.9911, 1e-4);
  g_assert_cmpstr (sextant_comm_matrix_get_label (matrix, 3), ==, "MPI Rank 3");
  g_assert_cmpfloat (sextant_comm_matrix_get_max (matrix, SEXTANT_MATRIX_COUNT), ==, 1);

  json = sextant_comm_matrix_to_json (matrix, SEXTANT_MATRIX_COUNT);
  root = json_node_get_object (json);
  g_assert_cmpstr (json_object_get_string_member (root, "metric"), ==, "count");
  g_assert_cmpint (json_object_get_int_member (root, "messages"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (root, "bytes"), ==, 12);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "cells")), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "locations")), ==, 4);

  csv = sextant_comm_matrix_to_csv (matrix, SEXTANT_MATRIX_BYTES);
  g_assert_cmpstr (csv, ==, "sender\\receiver,0,1,2,3\n0,0,4,0,0\n1,0,0,4,0\n2,0,0,0,4\n3,0,0,0,0\n");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/graph/wait-causes/rule", test_rule);
  g_test_add ("/graph/wait-causes/casita", Casita, GINT_TO_POINTER (TRUE), casita_setup, test_casita_causes,
              casita_teardown);
  g_test_add ("/graph/delay-chain/casita", Casita, GINT_TO_POINTER (TRUE), casita_setup, test_casita_chain,
              casita_teardown);
  g_test_add ("/graph/delay-chain/depth", Casita, GINT_TO_POINTER (TRUE), casita_setup, test_casita_depth,
              casita_teardown);
  g_test_add ("/graph/delay-chain/errors", Casita, GINT_TO_POINTER (TRUE), casita_setup, test_casita_errors,
              casita_teardown);
  g_test_add ("/graph/delay-chain/not-analysed", Casita, GINT_TO_POINTER (FALSE), casita_setup,
              test_casita_errors, casita_teardown);
  g_test_add_func ("/graph/matrix/sums", test_matrix_sums);
  g_test_add_func ("/graph/matrix/one-sided", test_matrix_one_sided);
  g_test_add ("/graph/matrix/casita", Casita, GINT_TO_POINTER (FALSE), casita_setup, test_matrix_casita,
              casita_teardown);

  return g_test_run ();
}
