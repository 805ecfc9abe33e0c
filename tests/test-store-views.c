/*
 * test-store-views.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared views that an analysis copies into temporary tables
 * (sextant_store_materialize_views) are computed in C, not by SQLite: the
 * copy must hold exactly the rows of the view in schema-1.sql. Checked on
 * every third-party archive with messages and on the synthetic traces whose
 * receives complete together (Waitall: peers in the window's order), from
 * the wrong source, or never; collective_visit on every third-party archive
 * with blocking collectives and on the synthetic traces of every collective
 * wait state (ties of the first and last to arrive among them).
 */
#include "config.h"

#include "sextant-store-private.h"
#include "sextant-test-util.h"

typedef struct
{
  gint64 rows;
  gint64 value;
} Count;

static gboolean
count_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Count *count = user_data;

  count->rows = sextant_row_get_int (row, 0);
  count->value = sextant_row_is_null (row, 1) ? 0 : sextant_row_get_int (row, 1);

  return TRUE;
}

static Count
query_count (SextantStore *store,
             const char   *sql)
{
  g_autoptr(GError) error = NULL;
  Count count = { -1, 0 };

  g_assert_true (sextant_store_run_query (store, sql, NULL, NULL, FALSE, count_row, &count, &error));
  g_assert_no_error (error);

  return count;
}

#define RECEIVE_WAIT_COLUMNS \
  "loc, visit, enter, message, peer_loc, send_time, idle, later_send, later_send_same, charged"

/* Imports @archive and compares the copy of receive_wait with the view. */
static void
check_receive_wait (const char *archive)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (archive, &tmpdir);
  Count view, copy, missing, extra, ties;

  view = query_count (store, "SELECT count (*), sum (later_send IS NULL) FROM main.receive_wait");
  /* the same rows, whatever SQLite's windows would compute: every column of
   * the view (the copy adds wo_buffered, which only C computes) */
  g_assert_true (sextant_store_materialize_views (store, "SELECT * FROM receive_wait", &error));
  g_assert_no_error (error);
  copy = query_count (store, "SELECT count (*), sum (later_send IS NULL) FROM temp.receive_wait");
  missing = query_count (store, "SELECT count (*), 0 FROM (SELECT * FROM main.receive_wait "
                                "EXCEPT SELECT " RECEIVE_WAIT_COLUMNS " FROM temp.receive_wait)");
  extra = query_count (store, "SELECT count (*), 0 FROM (SELECT " RECEIVE_WAIT_COLUMNS " FROM temp.receive_wait "
                              "EXCEPT SELECT * FROM main.receive_wait)");
  /* messages received at the same time by one location */
  ties = query_count (store, "SELECT count (*), 0 FROM (SELECT 1 FROM message WHERE recv_visit IS NOT NULL "
                             "GROUP BY recv_loc, recv_time HAVING count (*) > 1)");

  g_test_message ("%s: %" G_GINT64_FORMAT " receives (%" G_GINT64_FORMAT " without a later send), "
                  "%" G_GINT64_FORMAT " times with several", archive, view.rows, view.value, ties.rows);
  g_assert_cmpint (copy.rows, ==, view.rows);
  g_assert_cmpint (copy.value, ==, view.value);
  g_assert_cmpint (missing.rows, ==, 0);
  g_assert_cmpint (extra.rows, ==, 0);

  /* a query of the same connection now reads the copy */
  g_assert_cmpint (query_count (store, "SELECT count (*), sum (later_send IS NULL) FROM receive_wait").rows,
                   ==, view.rows);

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

#define COLLECTIVE_VISIT_COLUMNS \
  "collective, kind, root_loc, loc, visit, enter, leave, region, path, scl, context, begin, \"end\", " \
  "sends, receives, last_enter, " \
  "last_loc, first_leave, others_enter, others_leave, root_enter, latest_begin, earliest_end"

/* Imports @archive and compares the copy of collective_visit with the view:
 * the same rows, every column (NULLs compare equal in EXCEPT). */
static void
check_collective_visit (const char *archive)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (archive, &tmpdir);
  Count view, copy, missing, extra, members, ties;

  view = query_count (store, "SELECT count (*), sum (others_enter = enter) FROM main.collective_visit");
  ties = query_count (store, "SELECT count (*), 0 FROM main.collective_visit "
                             "WHERE enter = last_enter AND loc != last_loc");
  members = query_count (store, "SELECT count (*), 0 FROM collective_member AS cm "
                                "JOIN collective AS c ON c.id = cm.collective "
                                "WHERE c.nonblocking = 0 AND c.members > 1");
  g_assert_true (sextant_store_materialize_views (store, "SELECT * FROM collective_visit", &error));
  g_assert_no_error (error);
  copy = query_count (store, "SELECT count (*), sum (others_enter = enter) FROM temp.collective_visit");
  missing = query_count (store, "SELECT count (*), 0 FROM (SELECT * FROM main.collective_visit "
                                "EXCEPT SELECT " COLLECTIVE_VISIT_COLUMNS " FROM temp.collective_visit)");
  extra = query_count (store, "SELECT count (*), 0 FROM (SELECT " COLLECTIVE_VISIT_COLUMNS
                              " FROM temp.collective_visit EXCEPT SELECT * FROM main.collective_visit)");

  g_test_message ("%s: %" G_GINT64_FORMAT " members of blocking collectives, %" G_GINT64_FORMAT
                  " entered with the first of the others, %" G_GINT64_FORMAT " with the last",
                  archive, view.rows, view.value, ties.rows);
  g_assert_cmpint (view.rows, ==, members.rows);
  g_assert_cmpint (copy.rows, ==, view.rows);
  g_assert_cmpint (copy.value, ==, view.value);
  g_assert_cmpint (missing.rows, ==, 0);
  g_assert_cmpint (extra.rows, ==, 0);

  /* a query of the same connection now reads the copy */
  g_assert_cmpint (query_count (store, "SELECT count (*), 0 FROM collective_visit").rows, ==, view.rows);

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

/* Runs @check on the third-party archive @name. */
static void
check_external (const char  *name,
                void       (*check) (const char *archive))
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = NULL;

  g_assert_nonnull (root);
  archive = g_build_filename (root, name, NULL);
  check (archive);
}

static void
test_external (gconstpointer data)
{
  check_external (data, check_receive_wait);
}

static void
test_external_collectives (gconstpointer data)
{
  check_external (data, check_collective_visit);
}

/* Writes the synthetic trace @scenario and runs @check on it. */
static void
check_planted (const char  *scenario,
               void       (*check) (const char *archive))
{
  const char *otf2gen = g_getenv ("SEXTANT_OTF2GEN");
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *out = g_build_filename (tmpdir, "archive", NULL);
  g_autofree char *anchor = NULL;
  /* the import benchmark's trace: its collectives have ties of the first
   * and the last to arrive */
  const char *bench[] = { g_getenv ("SEXTANT_BENCH_GEN"), "--ranks", "16", "--events", "200000", out, NULL };
  const char *argv[] = { otf2gen, scenario, out, NULL };
  const char * const *run = g_str_equal (scenario, "bench") ? bench : argv;
  int status = -1;

  g_assert_no_error (error);
  g_assert_nonnull (run[0]);
  g_assert_true (g_spawn_sync (NULL, (char **)run, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  anchor = g_build_filename (out, "traces.otf2", NULL);
  check (g_file_test (anchor, G_FILE_TEST_EXISTS) ? anchor : out);
  sextant_test_remove_tree (tmpdir);
}

static void
test_planted (gconstpointer data)
{
  check_planted (data, check_receive_wait);
}

static void
test_planted_collectives (gconstpointer data)
{
  check_planted (data, check_collective_visit);
}

/* A test /store-views/@view/NAME for each of @names. */
static void
add_tests (const char         *view,
           const char * const *names,
           guint               n,
           GTestDataFunc       func)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("/store-views/%s/%s", view, names[i]);

      g_test_add_data_func (path, names[i], func);
    }
}

int
main (int    argc,
      char **argv)
{
  static const char * const external[] = {
    "casita-4_mpi_ls_barr", "casita-10_scorep_mpi_tags", "pipit-ping-pong-otf2",
    "sstmacro-otf2_test_traces",
  };
  static const char * const planted[] = {
    "planted-late-sender", "planted-wrong-order", "planted-early-wait", "planted-close", "planted-eps",
    "planted-hotspots",
  };
  static const char * const external_collectives[] = {
    "casita-4_mpi_ls_barr", "casita-2_jacobi_blame_cpu_015", "sstmacro-otf2_test_traces",
    "sst-elements-ember-bcast",
  };
  static const char * const planted_collectives[] = {
    "planted-collectives", "planted-nonblocking", "every-kind", "bench",
  };

  g_test_init (&argc, &argv, NULL);

  add_tests ("receive-wait", external, G_N_ELEMENTS (external), test_external);
  add_tests ("receive-wait", planted, G_N_ELEMENTS (planted), test_planted);
  add_tests ("collective-visit", external_collectives, G_N_ELEMENTS (external_collectives),
             test_external_collectives);
  add_tests ("collective-visit", planted_collectives, G_N_ELEMENTS (planted_collectives),
             test_planted_collectives);

  return g_test_run ();
}
