/*
 * test-import-location-rows.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows the importer writes per location once its events are read -
 * call_path_profile and event_count - which it writes for a batch of
 * locations at once, many rows an INSERT (sextant_store_run_rows()): on a
 * generated archive of 24 locations (more rows than one INSERT takes, and
 * a remainder), every location's event counts add up to the events it
 * read, and its profile holds one row per call path its visits have, with
 * their number of visits, the last of them, and the time they took
 * (inclusive: the visits' own; exclusive: less their children's), as the
 * visits themselves say. And the definitions' rows, many to an INSERT
 * too (sextant_store_run_rows_keep_first()): a row whose id came before,
 * in the same statement, is skipped and counted, the first kept, and the
 * statement's other rows are written once.
 */
#include "config.h"

#include "sextant-test-util.h"

#define ROWS_PER_INSERT SEXTANT_STORE_ROWS_PER_INSERT

static gint64
q (SextantStore *store,
   const char   *sql,
   gint64        loc)
{
  g_autoptr(GError) error = NULL;
  gint64 value = -1;

  g_assert_true (sextant_store_foreach_sql (store, sql, sextant_test_take_int, &value, &error, loc < 0 ? "" : "i",
                                            loc));
  g_assert_no_error (error);

  return value;
}

static void
test_location_rows (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-location-rows-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "archive", NULL);
  g_autofree char *anchor = g_build_filename (out, "traces.otf2", NULL);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = NULL;
  const char *argv[] = { g_getenv ("SEXTANT_BENCH_GEN"), "--ranks", "24", "--events", "20000", out, NULL };
  gint64 n_locs, n_counts, n_profiles;

  sextant_test_spawn (argv);
  store = sextant_test_import (anchor, &tmpdir);

  /* several INSERTs of ROWS_PER_INSERT rows and a rest, for both tables */
  n_locs = q (store, "SELECT count (*) FROM location", -1);
  n_counts = q (store, "SELECT count (*) FROM event_count", -1);
  n_profiles = q (store, "SELECT count (*) FROM call_path_profile", -1);
  g_assert_cmpint (n_locs, ==, 24);
  g_assert_cmpint (n_counts, >, 2 * ROWS_PER_INSERT);
  g_assert_cmpint (n_counts % ROWS_PER_INSERT, !=, 0);
  g_assert_cmpint (n_profiles, >, 2 * ROWS_PER_INSERT);
  g_assert_cmpint (n_profiles % ROWS_PER_INSERT, !=, 0);

  for (gint64 loc = 0; loc < n_locs; loc++)
    {
      gint64 events = q (store, "SELECT events FROM location WHERE id = ?1", loc);

      g_assert_cmpint (events, >, 0);
      g_assert_cmpint (q (store, "SELECT sum (count) FROM event_count WHERE loc = ?1", loc), ==, events);
      g_assert_cmpint (q (store, "SELECT count (*) FROM event_count WHERE loc = ?1 AND kind = 'ENTER'", loc), ==, 1);
      /* one row per call path of the location's visits */
      g_assert_cmpint (q (store, "SELECT count (*) FROM call_path_profile WHERE loc = ?1", loc), ==,
                       q (store, "SELECT count (DISTINCT path) FROM visit WHERE loc = ?1", loc));
      /* each with what its visits say */
      g_assert_cmpint (q (store,
                          "SELECT count (*) FROM call_path_profile AS p JOIN "
                          "(SELECT path, count (*) AS visits, max (id) AS last_visit, "
                          "        sum (leave - enter) AS inclusive FROM visit WHERE loc = ?1 GROUP BY path) AS v "
                          "ON v.path = p.path WHERE p.loc = ?1 AND p.visits = v.visits "
                          "AND p.last_visit = v.last_visit AND p.inclusive = v.inclusive "
                          "AND p.exclusive <= p.inclusive", loc), ==,
                       q (store, "SELECT count (*) FROM call_path_profile WHERE loc = ?1", loc));
    }
  g_assert_cmpint (q (store, "SELECT sum (count) FROM event_count", -1), ==,
                   q (store, "SELECT sum (events) FROM location", -1));

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
  sextant_test_remove_tree (dir);
}

static void
test_keep_first (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-keep-first-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "store.sextant", NULL);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  SextantStoreValue values[2 * 2 * ROWS_PER_INSERT];
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;
  guint skipped = G_MAXUINT;

  for (guint r = 0; r < 2 * ROWS_PER_INSERT; r++)
    {
      /* row 70 gives string 5 again, in the second statement */
      char *text = r == 70 ? g_strdup ("again") : g_strdup_printf ("s%u", r);

      g_ptr_array_add (texts, text);
      values[2 * r].i = r == 70 ? 5 : r;
      values[2 * r + 1].t = text;
    }

  g_assert_nonnull (store = sextant_store_create (path, &error));
  g_assert_true (sextant_store_begin (store, &error));
  g_assert_true (sextant_store_run_rows_keep_first (store, SEXTANT_STMT_STRING, "it", values, 2 * ROWS_PER_INSERT,
                                                    &skipped, &error));
  g_assert_no_error (error);
  g_assert_true (sextant_store_commit (store, &error));
  g_assert_cmpuint (skipped, ==, 1);
  g_assert_cmpint (q (store, "SELECT count (*) FROM string", -1), ==, 2 * ROWS_PER_INSERT - 1);
  g_assert_cmpint (q (store, "SELECT count (*) FROM string WHERE id = 5 AND value = 's5'", -1), ==, 1);
  g_assert_cmpint (q (store, "SELECT count (*) FROM string WHERE id = 69 OR id = 71", -1), ==, 2);

  g_clear_object (&store);
  sextant_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/import/location-rows", test_location_rows);
  g_test_add_func ("/import/definition-rows-keep-first", test_keep_first);

  return g_test_run ();
}
