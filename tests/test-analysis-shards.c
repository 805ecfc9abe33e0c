/*
 * test-analysis-shards.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The analysis of a parallel import's manifest (patterns/
 * sextant-analysis-manifest.c, -shard.c) without MPI, so that the sanitizer
 * build runs it: threads import otf2gen's every-kind archive into 1 to 4
 * shards (SextantShareHub), the manifest is written as sextant-mpi writes
 * it, and sextant_analysis_run() on the manifest analyses the shards. The
 * shards' instances, together, are the single store's: the same ids,
 * severities, locations, visits, messages and collectives (by their
 * visits), causes; the manifest's summary is the single store's; the
 * shards hold no other location's visit afterwards (the halo is gone).
 * Read through the manifest (trace/sextant-store-union.c), the instances
 * and the pattern_instance view are the single store's too, and an
 * instance looked up by its id is read from its shard alone. Analysed
 * again, a store and every shard hold the same sites and instance chunks,
 * byte for byte.
 * tests/test-parallel-analyze.py runs the same on Open MPI ranks and every
 * external archive.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sextant-analysis.h"
#include "sextant-importer.h"
#include "sextant-store-private.h"
#include "sextant-store-shards.h"
#include "sextant-test-manifest.h"
#include "sextant-test-util.h"

/* Every instance, a message by its ends' visits (its id is each store's),
 * a collective by its id (canonical: a shard holds only its own members) */
static const char instances_sql[] =
  "SELECT i.id, p.id, i.severity, i.loc, i.visit, i.begin, i.\"end\", i.peer_loc, "
  "  (SELECT m.send_visit || ':' || m.recv_visit FROM message AS m WHERE m.id = i.message), "
  "  i.collective, "
  "  w.cause, w.cause_instance, w.root_instance, w.root_loc "
  "FROM pattern_instance_data AS i JOIN pattern AS p ON p.number = i.id >> 32 "
  "LEFT JOIN wait_state AS w ON w.instance = i.id";

/* The pattern_instance view (as the window and the report read it) */
static const char view_sql[] =
  "SELECT id, pattern, severity, loc, visit, begin, \"end\", peer_loc, callpath, file, line, cause, root_loc, "
  "  comment FROM pattern_instance";
static const char aggregates_sql[] =
  "SELECT pattern, loc, callpath, file, line, site_kind, function, severity, instances FROM pattern_aggregate";

typedef struct
{
  GPtrArray *lines;
  int        n_columns;
} Lines;

static gboolean
add_line (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  Lines *lines = user_data;
  GString *line = g_string_new (NULL);

  for (int c = 0; c < lines->n_columns; c++)
    g_string_append_printf (line, "%s|", sextant_row_is_null (row, c) ? "NULL" : sextant_row_get_text (row, c));
  g_ptr_array_add (lines->lines, g_string_free (line, FALSE));

  return TRUE;
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The rows of @sql (@n_columns) in the stores of @paths, one sorted text */
static char *
rows (const char * const *paths,
      const char         *sql,
      int                 n_columns)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  Lines all = { lines, n_columns };

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autoptr(SextantStore) store = sextant_store_open (paths[i], NULL);
      g_autoptr(GError) error = NULL;

      g_assert_nonnull (store);
      g_assert_true (sextant_store_foreach_sql (store, sql, add_line, &all, &error, ""));
      g_assert_no_error (error);
    }
  g_ptr_array_sort (lines, compare_lines);
  g_ptr_array_add (lines, NULL);

  return g_strjoinv ("\n", (char **)lines->pdata);
}

/* An instance of shard @rank, looked up by its id through @manifest (a
 * new connection), its wait state and its note too, opens that shard
 * alone (sextant-store-instance-routes.h); an id no shard holds opens
 * none. */
static void
check_routes (const char *manifest,
              const char *shard)
{
  g_autoptr(SextantStore) one = sextant_store_open (shard, NULL);
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;
  gint64 id = -1;
  gint64 found = 0;

  g_assert_nonnull (one);
  g_assert_true (sextant_store_foreach_sql (one, "SELECT max (id) FROM pattern_instance_data", sextant_test_take_int,
                                            &id, &error, ""));
  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);

  store = sextant_store_open (manifest, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_store_foreach_sql (store, "SELECT count (*) FROM pattern_instance_data WHERE id = ?",
                                            sextant_test_take_int, &found, &error, "i", id));
  g_assert_no_error (error);
  g_assert_cmpint (found, ==, 1);
  g_assert_true (sextant_store_foreach_sql (store, "SELECT (SELECT count (*) FROM wait_state WHERE instance = ?1) + "
                                                   "(SELECT count (*) FROM pattern_note WHERE instance = ?1)",
                                            sextant_test_take_int, &found, &error, "i", id));
  g_assert_no_error (error);
  g_assert_cmpuint (sextant_store_get_n_open_shards (store), ==, 1);
  g_clear_object (&store);

  store = sextant_store_open (manifest, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_store_foreach_sql (store, "SELECT count (*) FROM pattern_instance_data WHERE id = ?",
                                            sextant_test_take_int, &found, &error, "i",
                                            G_GINT64_CONSTANT (999) << 32));
  g_assert_no_error (error);
  g_assert_cmpint (found, ==, 0);
  g_assert_cmpuint (sextant_store_get_n_open_shards (store), ==, 0);
}

static void
analyze (const char *path)
{
  g_autoptr(SextantStore) store = sextant_store_open (path, NULL);
  g_autoptr(SextantPatternSet) patterns = sextant_pattern_set_new ();
  g_autoptr(SextantAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (store);
  g_assert_true (sextant_pattern_set_add_builtin (patterns, &error));
  analysis = sextant_analysis_new (store, patterns);
  g_assert_true (sextant_analysis_run (analysis, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (sextant_analysis_is_current (analysis));
}

static void
test_every_kind (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-analysis-shards-XXXXXX", NULL);
  g_autofree char *gen_dir = g_build_filename (dir, "archive", NULL);
  g_autofree char *archive = sextant_test_otf2gen ("every-kind", gen_dir);
  g_autofree char *single = g_build_filename (dir, "single.sextant", NULL);
  const char *single_paths[] = { single, NULL };
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, single);
  g_autoptr(GError) error = NULL;
  g_autofree char *want = NULL;
  g_autofree char *want_summary = NULL;
  g_autofree char *want_view = NULL;

  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  analyze (single);
  want = rows (single_paths, instances_sql, 14);
  want_summary = rows (single_paths, aggregates_sql, 9);
  want_view = rows (single_paths, view_sql, 14);
  g_assert_cmpuint (strlen (want), >, 0);

  for (guint n = 1; n <= 4; n++)
    {
      g_autofree char *manifest = g_strdup_printf ("%s/run-%u.sextant", dir, n);
      const char *manifest_paths[] = { manifest, NULL };
      g_autoptr(SextantStore) store = NULL;
      g_autoptr(GPtrArray) shards = NULL;
      g_autofree char *got = NULL;
      g_autofree char *got_summary = NULL;
      g_autofree char *foreign = NULL;
      g_autoptr(GString) zeros = g_string_new (NULL);

      sextant_test_import_manifest (archive, manifest, n);
      analyze (manifest);

      /* the manifest is current (the shards recorded anew) and names them */
      store = sextant_store_open (manifest, &error);
      g_assert_no_error (error);
      shards = sextant_store_list_shards (store, &error);
      g_assert_no_error (error);
      g_ptr_array_add (shards, NULL);

      got = rows ((const char * const *)shards->pdata, instances_sql, 14);
      g_assert_cmpstr (got, ==, want);
      got_summary = rows (manifest_paths, aggregates_sql, 9);
      g_assert_cmpstr (got_summary, ==, want_summary);
      /* the manifest reads the shards' instances as one store's */
      g_free (got);
      got = rows (manifest_paths, instances_sql, 14);
      g_assert_cmpstr (got, ==, want);
      g_free (got);
      got = rows (manifest_paths, view_sql, 14);
      g_assert_cmpstr (got, ==, want_view);

      check_routes (manifest, g_ptr_array_index (shards, n - 1));

      /* the halo is gone: a shard holds its own locations' visits only */
      foreign = rows ((const char * const *)shards->pdata,
                      "SELECT count (*) FROM visit WHERE loc NOT IN (SELECT loc FROM event_count)", 1);
      for (guint r = 0; r < n; r++)
        g_string_append (zeros, r > 0 ? "\n0|" : "0|");
      g_assert_cmpstr (foreign, ==, zeros->str);
    }

  sextant_test_remove_tree (dir);
}

/* What an analysis writes that the readers do not compare: the sites' ids
 * and the instances' chunks as bytes */
static const char sites_sql[] = "SELECT id, file, line, kind, function FROM pattern_site";
static const char chunks_sql[] =
  "SELECT first_row, n, hex (header), hex (data) FROM pattern_instance_data_chunk";

/* The same analysis of the same store writes the same bytes: pattern_site
 * ids (numbered as instances first name them) do not depend on which query
 * finished first, on a single store and on each shard of a manifest */
static void
test_repeat (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-analysis-shards-XXXXXX", NULL);
  g_autofree char *gen_dir = g_build_filename (dir, "archive", NULL);
  g_autofree char *archive = sextant_test_otf2gen ("every-kind", gen_dir);
  g_autofree char *single = g_build_filename (dir, "single.sextant", NULL);
  g_autofree char *manifest = g_build_filename (dir, "run.sextant", NULL);
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, single);
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_sites = NULL;
  g_autofree char *first_chunks = NULL;

  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  sextant_test_import_manifest (archive, manifest, 3);
  store = sextant_store_open (manifest, &error);
  g_assert_no_error (error);
  paths = sextant_store_list_shards (store, &error);
  g_assert_no_error (error);
  g_clear_object (&store);
  g_ptr_array_insert (paths, 0, g_strdup (single));
  g_ptr_array_add (paths, NULL);

  for (guint run = 0; run < 4; run++)
    {
      g_autofree char *sites = NULL;
      g_autofree char *chunks = NULL;

      analyze (single);
      analyze (manifest);
      sites = rows ((const char * const *)paths->pdata, sites_sql, 5);
      chunks = rows ((const char * const *)paths->pdata, chunks_sql, 4);
      g_assert_cmpuint (strlen (sites), >, 0);
      if (run == 0)
        {
          first_sites = g_steal_pointer (&sites);
          first_chunks = g_steal_pointer (&chunks);
          continue;
        }
      g_assert_cmpstr (sites, ==, first_sites);
      g_assert_cmpstr (chunks, ==, first_chunks);
    }

  sextant_test_remove_tree (dir);
}

/* A shard that cannot be opened fails the analysis of the manifest, and
 * no shard waits for it */
static void
test_missing_shard (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-analysis-shards-XXXXXX", NULL);
  g_autofree char *gen_dir = g_build_filename (dir, "archive", NULL);
  g_autofree char *archive = sextant_test_otf2gen ("every-kind", gen_dir);
  g_autofree char *manifest = g_build_filename (dir, "run.sextant", NULL);
  g_autofree char *shard = g_build_filename (dir, "run.sextant.shards", "rank-00001.sextant", NULL);
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantPatternSet) patterns = sextant_pattern_set_new ();
  g_autoptr(SextantAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;

  sextant_test_import_manifest (archive, manifest, 3);
  store = sextant_store_open (manifest, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_pattern_set_add_builtin (patterns, &error));
  analysis = sextant_analysis_new (store, patterns);
  g_assert_cmpint (g_unlink (shard), ==, 0);
  g_assert_false (sextant_analysis_run (analysis, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "rank-00001.sextant"));

  sextant_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/AnalysisShards/every-kind", test_every_kind);
  g_test_add_func ("/AnalysisShards/missing-shard", test_missing_shard);
  g_test_add_func ("/AnalysisShards/repeat", test_repeat);

  return g_test_run ();
}
