/*
 * test-import-share.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The importer's side of a parallel import (trace/sextant-import-share.c),
 * without MPI: N threads play the ranks, each imports its share into a
 * shard, and their exchange meets in memory. This runs where MPI does not
 * (the sanitizer build); tests/test-parallel-import.py runs the same on
 * Open MPI ranks.
 *
 * Each shard holds, for its locations, what the single-process store holds:
 * event records, visits, every message with an end among them (both ends)
 * and every collective instance with a member among them (all members); the
 * shares cover every location once. A rank that fails before the exchange
 * makes the other ranks' imports fail, saying so.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "sextant-column-table.h"
#include "sextant-importer.h"
#include "sextant-test-share.h"
#include "sextant-test-util.h"

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The rows of @sql (with ?1 the locations, comma-separated) as one sorted
 * text, a row a line */
static char *
rows (const char *db_path,
      const char *sql,
      const char *locs)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  char *text;

  g_assert_cmpint (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_nonnull (sextant_column_table_register (db, NULL));
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, locs, -1, SQLITE_STATIC);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      GString *line = g_string_new (NULL);

      for (int c = 0; c < sqlite3_column_count (stmt); c++)
        g_string_append_printf (line, "%s|", sqlite3_column_type (stmt, c) == SQLITE_NULL
                                              ? "NULL" : (const char *)sqlite3_column_text (stmt, c));
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  g_ptr_array_sort (lines, compare_lines);
  g_ptr_array_add (lines, NULL);
  text = g_strjoinv ("\n", (char **)lines->pdata);

  return text;
}

#define IN_LOCS(col) "instr(',' || ?1 || ',', ',' || " col " || ',') > 0"

static const char * const queries[] = {
  "SELECT loc, kind, count FROM event_count WHERE " IN_LOCS ("loc"),
  "SELECT id, loc, region, enter, leave, depth, parent FROM visit WHERE " IN_LOCS ("loc"),
  "SELECT comm, tag, bytes, send_loc, recv_loc, send_time, send_visit, recv_post_time, recv_time, recv_visit "
  "FROM message WHERE " IN_LOCS ("send_loc") " OR " IN_LOCS ("recv_loc"),
  /* an instance with a member here: its row, bounds included, and its
   * members here */
  "SELECT c.*, "
  "  (SELECT group_concat (m.loc || ':' || m.begin || ':' || m.\"end\" || ':' || m.visit, ' ') FROM "
  "     (SELECT * FROM collective_member WHERE collective = c.id AND " IN_LOCS ("loc") " ORDER BY loc) AS m) "
  "FROM collective AS c WHERE EXISTS (SELECT 1 FROM collective_member AS m "
  "  WHERE m.collective = c.id AND " IN_LOCS ("m.loc") ")",
};

/* A shard's members of other shards' locations: none, but those of a SCAN
 * or EXSCAN (their rule compares each member with every lower rank's) */
static const char foreign_members[] =
  "SELECT count (*) FROM collective_member AS m JOIN collective AS c ON c.id = m.collective "
  "WHERE NOT " IN_LOCS ("m.loc") " AND c.kind NOT IN ('SCAN', 'EXSCAN')";

static void
check_archive (const char *scenario,
               guint       n)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-share-XXXXXX", NULL);
  g_autofree char *gen_dir = g_build_filename (dir, "archive", NULL);
  g_autofree char *archive = sextant_test_otf2gen (scenario, gen_dir);
  g_autofree char *count = NULL;
  g_autofree char *single = g_build_filename (dir, "single.db", NULL);
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, single);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *seen = NULL;
  SextantTestHub hub = { 0 };
  SextantTestRank *ranks;
  gint64 n_locations;
  gint64 crossing = 0;

  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  count = rows (single, "SELECT count(*) FROM location WHERE ?1 IS NOT NULL", "");
  n_locations = g_ascii_strtoll (count, NULL, 10);
  g_assert_cmpint (n_locations, >, 0);
  seen = g_new0 (guint8, n_locations);

  ranks = sextant_test_import_shared (archive, dir, n, -1, &hub);
  for (guint r = 0; r < n; r++)
    {
      g_autoptr(GString) locs = g_string_new (NULL);

      g_assert_cmpstr (ranks[r].message, ==, NULL);
      g_assert_true (ranks[r].ok);
      for (guint i = 0; i < ranks[r].locations->len; i++)
        {
          guint32 loc = g_array_index (ranks[r].locations, guint32, i);

          g_assert_cmpuint (loc, <, n_locations);
          g_assert_false (seen[loc]);
          seen[loc] = TRUE;
          g_string_append_printf (locs, "%s%u", i > 0 ? "," : "", loc);
        }
      {
        /* messages and collectives with an end on another shard: what the exchange brought */
        g_autofree char *n_crossing = rows (ranks[r].shard,
                                            "SELECT (SELECT count(*) FROM message WHERE NOT (" IN_LOCS ("send_loc")
                                            " AND " IN_LOCS ("recv_loc") ")) + (SELECT count(*) FROM collective_member "
                                            "WHERE NOT " IN_LOCS ("loc") ")", locs->str);

        g_autofree char *n_foreign = rows (ranks[r].shard, foreign_members, locs->str);

        crossing += g_ascii_strtoll (n_crossing, NULL, 10);
        g_assert_cmpstr (n_foreign, ==, "0|");
      }
      for (guint k = 0; k < G_N_ELEMENTS (queries); k++)
        {
          g_autofree char *want = rows (single, queries[k], locs->str);
          g_autofree char *got = rows (ranks[r].shard, queries[k], locs->str);

          g_assert_cmpstr (got, ==, want);
        }
    }
  for (gint64 l = 0; l < n_locations; l++)
    g_assert_true (seen[l]);
  if (n > 1 && g_str_equal (scenario, "every-kind"))
    g_assert_cmpint (crossing, >, 0);
  sextant_test_ranks_free (ranks, &hub);
  sextant_store_remove_files (single);
  sextant_test_remove_tree (dir);
}

/* On 3 and 4 ranks the split communicator (world ranks 1 and 3) spans two
 * shares and not the others: every rank agrees on the layout of the
 * summaries, those without a member of it too. */
static void
test_every_kind (void)
{
  for (guint n = 1; n <= 4; n++)
    check_archive ("every-kind", n);
}

static void
test_threads (void)
{
  check_archive ("threads-recv", 2);
  /* collectives of two threads per rank on two communicators */
  check_archive ("threads-colls", 2);
}

/* more ranks than locations: ranks with no member of any collective
 * still take part in the allreduces of the summaries */
static void
test_idle_ranks (void)
{
  check_archive ("threads-recv", 5);
  check_archive ("every-kind", 6);
}

static void
test_failed_rank (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-share-XXXXXX", NULL);
  g_autofree char *gen_dir = g_build_filename (dir, "archive", NULL);
  g_autofree char *archive = sextant_test_otf2gen ("every-kind", gen_dir);
  SextantTestHub hub = { 0 };
  SextantTestRank *ranks = sextant_test_import_shared (archive, dir, 3, 1, &hub);

  for (guint r = 0; r < 3; r++)
    if (r != 1)
      {
        g_assert_false (ranks[r].ok);
        g_assert_nonnull (strstr (ranks[r].message, "another rank failed"));
      }
  sextant_test_ranks_free (ranks, &hub);
  sextant_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ImportShare/every-kind", test_every_kind);
  g_test_add_func ("/ImportShare/threads", test_threads);
  g_test_add_func ("/ImportShare/idle-ranks", test_idle_ranks);
  g_test_add_func ("/ImportShare/failed-rank", test_failed_rank);

  return g_test_run ();
}
