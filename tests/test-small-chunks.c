/*
 * test-small-chunks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The view of an archive that declares smaller chunks
 * (trace/sextant-small-chunks.c): libotf2 reads through it exactly what it
 * reads from the archive (otf2-print's whole output, events, mapping tables
 * and clock offsets, global definitions), on every third-party archive in
 * ../shared/traces/external and on a generated one of many locations; an
 * import through it gives the store of an import without it and the event
 * count of otf2-print; the archive is left as it was and the view leaves
 * nothing behind; a file as large as the chunk keeps the declared size.
 *
 * SEXTANT_TEST_RANKS sets the generated archive's locations (default 64;
 * 4096 takes minutes to generate on a loaded machine); SEXTANT_TEST_ARCHIVE
 * names an anchor of sextant-bench-gen's to check instead (of as many
 * ranks).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "sextant-importer.h"
#include "sextant-small-chunks.h"
#include "sextant-anchor.h"
#include "sextant-test-util.h"

#define KIB 1024
#define MIB (1024 * 1024)

/* Digests of otf2-print's output - the global definitions, the mapping
 * tables and clock offsets of the local definitions; the events - and the
 * number of events (@n_events) */
static char *
otf2_print (const char *anchor,
            guint64    *n_events)
{
  /* streamed through sha256sum and awk: otf2-print's output of the larger
   * archives is hundreds of MB, too much to hold and split in the ASan
   * build. The events are the lines with a name, a location and a
   * timestamp from the third line after the events' heading on. */
  static const char script[] =
    "set -e; otf2-print -G -M -C \"$1\" | sha256sum; otf2-print \"$1\" | sha256sum; "
    "otf2-print \"$1\" | awk 'found { i++; if (i >= 3 && NF >= 3 && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/) n++ } "
    "/=== Events ===/ && !found { found = 1; i = 0 } END { print n + 0 }'";
  const char *argv[] = { "sh", "-c", script, "sh", anchor, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, 3);
  *n_events = g_ascii_strtoull (lines[2], NULL, 10);

  /* the two digests */
  return g_strdup_printf ("%s\n%s", lines[0], lines[1]);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *)a, *(char * const *)b);
}

/* Every file of @dir and below: name, size and modification time. */
static void
list_tree (const char *dir,
           GString    *out)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      GStatBuf st;

      g_assert_cmpint (g_lstat (path, &st), ==, 0);
      g_string_append_printf (out, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", path,
                              (gint64)st.st_size, (gint64)st.st_mtime);
      if (S_ISDIR (st.st_mode))
        list_tree (path, out);
    }
}

/* Makes the view of @anchor, checks the chunk sizes it declares (0: no
 * view expected) and that otf2-print prints through it what it prints from
 * the archive, and removes it; returns otf2-print's event count. */
static guint64
check_view (const char *anchor,
            guint64     event_chunk,
            guint64     def_chunk)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantSmallChunks) view = NULL;
  g_autofree char *dir = g_path_get_dirname (anchor);
  g_autofree char *view_dir = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *printed = NULL;
  GString *before = g_string_new (NULL);
  GString *after = g_string_new (NULL);
  SextantAnchor fields;
  guint64 n_events, printed_events;

  list_tree (dir, before);
  view = sextant_small_chunks_new (anchor, &error);
  g_assert_no_error (error);
  if (event_chunk == 0)
    {
      g_assert_null (view);
      g_string_free (before, TRUE);
      g_string_free (after, TRUE);
      return 0;
    }

  g_assert_nonnull (view);
  g_assert_cmpuint (sextant_small_chunks_get_event_chunk (view), ==, event_chunk);
  g_assert_cmpuint (sextant_small_chunks_get_def_chunk (view), ==, def_chunk);
  g_assert_true (sextant_anchor_read (sextant_small_chunks_get_anchor (view), &fields, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fields.event_chunk_size, ==, event_chunk);
  g_assert_cmpuint (fields.def_chunk_size, ==, def_chunk);

  expected = otf2_print (anchor, &n_events);
  printed = otf2_print (sextant_small_chunks_get_anchor (view), &printed_events);
  g_assert_cmpstr (printed, ==, expected);
  g_assert_cmpuint (printed_events, ==, n_events);
  g_assert_cmpuint (n_events, >, 0);

  /* the view goes, the archive stays as it was */
  view_dir = g_path_get_dirname (sextant_small_chunks_get_anchor (view));
  g_clear_pointer (&view, sextant_small_chunks_free);
  g_assert_false (g_file_test (view_dir, G_FILE_TEST_EXISTS));
  list_tree (dir, after);
  g_assert_cmpstr (after->str, ==, before->str);
  g_string_free (before, TRUE);
  g_string_free (after, TRUE);

  return n_events;
}

typedef struct
{
  const char *archive;
  guint64     event_chunk;   /* 0: no view */
  guint64     def_chunk;
} External;

/* The archives declare 1 MiB event chunks and 256 KiB or 4 MiB definition
 * chunks; the new event chunk is the largest event file + 1 rounded up to
 * 4 KiB, at least 256 KiB; the definition chunk stays. */
static const External externals[] = {
  { "casita-10_scorep_mpi_tags/traces.otf2", 256 * KIB, 4 * MIB },
  { "casita-1_ocl_deps/traces.otf2", 256 * KIB, 256 * KIB },
  { "casita-1_scorep-ompt-host-nested/traces.otf2", 256 * KIB, 256 * KIB },
  { "casita-1_sptc/traces.otf2", 256 * KIB, 256 * KIB },
  { "casita-1_xeonphi_jacobi_01/traces.otf2", 256 * KIB, 4 * MIB },
  /* its largest event file is 898,019 bytes */
  { "casita-2_cloverleaf_oaccregions_cudafull/traces.otf2", 220 * 4 * KIB, 256 * KIB },
  { "casita-2_cuda_simple/traces.otf2", 256 * KIB, 4 * MIB },
  /* 940,942 bytes */
  { "casita-2_jacobi_blame_cpu_015/traces.otf2", 230 * 4 * KIB, 4 * MIB },
  { "casita-4_mpi_ls_barr/traces.otf2", 256 * KIB, 4 * MIB },
  { "fastotf2-simple-mi300/traces.otf2", 256 * KIB, 256 * KIB },
  /* event files of 1.4 MB, two chunks: the event chunk stays, no view */
  { "otf2-integrity-testtrace/TestTrace.otf2", 0, 0 },
  { "pipit-ping-pong-otf2/traces.otf2", 256 * KIB, 256 * KIB },
  { "pipit-ping-pong-otf2-papi/traces.otf2", 256 * KIB, 256 * KIB },
  { "sst-elements-ember-bcast/traces.otf2", 256 * KIB, 256 * KIB },
  { "sstmacro-otf2_test_traces/traces.otf2", 256 * KIB, 256 * KIB },
};

static void
test_external (gconstpointer data)
{
  const External *e = data;
  g_autofree char *anchor = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), e->archive, NULL);

  check_view (anchor, e->event_chunk, e->def_chunk);
}

/* A digest of every row of every table of the store at @path but the
 * import's time and SQLite's statistics (ANALYZE's row estimates follow
 * the pages, not only the rows). */
static char *
store_digest (const char *path)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                       "sql NOT LIKE '%VIRTUAL%' AND name NOT LIKE 'sqlite%' ORDER BY name", -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_ptr_array_add (tables, g_strdup ((const char *)sqlite3_column_text (stmt, 0)));
  sqlite3_finalize (stmt);
  g_assert_cmpuint (tables->len, >, 10);

  for (guint t = 0; t < tables->len; t++)
    {
      const char *table = g_ptr_array_index (tables, t);
      g_autofree char *sql = g_str_equal (table, "meta")
        ? g_strdup ("SELECT * FROM meta WHERE key <> 'imported_at' ORDER BY 1")
        : g_strdup_printf ("SELECT * FROM \"%s\"", table);

      g_checksum_update (sum, (const guchar *)table, -1);
      g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        for (int c = 0; c < sqlite3_column_count (stmt); c++)
          {
            const void *bytes = sqlite3_column_blob (stmt, c);
            int n = sqlite3_column_bytes (stmt, c);

            g_checksum_update (sum, (const guchar *)&n, sizeof n);
            if (n > 0)
              g_checksum_update (sum, bytes, n);
          }
      sqlite3_finalize (stmt);
    }
  sqlite3_close (db);

  return g_strdup (g_checksum_get_string (sum));
}

static char *
import (const char *anchor,
        const char *db,
        gboolean    full_chunks)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantImporter) importer = NULL;

  if (full_chunks)
    g_setenv ("SEXTANT_IMPORT_FULL_CHUNKS", "1", TRUE);
  importer = sextant_importer_new (anchor, db);
  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  g_unsetenv ("SEXTANT_IMPORT_FULL_CHUNKS");

  return store_digest (db);
}

/* Many locations, each a few KiB of events in chunks of 1 MiB: imported
 * through the view and without it, the stores are the same and hold the
 * events otf2-print counts. */
static void
test_generated (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *out = g_build_filename (tmp, "archive", NULL);
  const char *given = g_getenv ("SEXTANT_TEST_ARCHIVE");
  g_autofree char *anchor = given != NULL ? g_strdup (given) : g_build_filename (out, "traces.otf2", NULL);
  g_autofree char *small_db = g_build_filename (tmp, "small.db", NULL);
  g_autofree char *full_db = g_build_filename (tmp, "full.db", NULL);
  g_autofree char *small = NULL;
  g_autofree char *full = NULL;
  const char *ranks = g_getenv ("SEXTANT_TEST_RANKS");
  g_autofree char *events = NULL;
  g_autoptr(SextantStore) store = NULL;
  guint64 n_events;
  int status = -1;

  g_assert_no_error (error);
  if (ranks == NULL)
    ranks = "64";
  /* about 25 events per location */
  events = g_strdup_printf ("%" G_GUINT64_FORMAT, g_ascii_strtoull (ranks, NULL, 10) * 25);
  if (given == NULL)
    {
      const char *argv[] = { g_getenv ("SEXTANT_BENCH_GEN"), "--ranks", ranks, "--events", events, out, NULL };

      g_assert_nonnull (argv[0]);
      g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                                   &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
    }

  /* the generator declares 1 MiB of events and 4 MiB of definitions */
  n_events = check_view (anchor, 256 * KIB, 4 * MIB);

  small = import (anchor, small_db, FALSE);
  full = import (anchor, full_db, TRUE);
  g_assert_cmpstr (small, ==, full);
  store = sextant_store_open (small_db, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sextant_test_meta_int (store, "events"), ==, (gint64)n_events);
  {
    g_autoptr(GArray) locations = sextant_test_locations (store, TRUE);

    g_assert_cmpint (locations->len, ==, g_ascii_strtoll (ranks, NULL, 10));
  }

  g_clear_object (&store);
  sextant_test_remove_tree (tmp);
}

/* The first event file of the archive whose anchor is @anchor. */
static char *
first_event_file (const char *anchor)
{
  g_autofree char *dir = g_path_get_dirname (anchor);
  g_autofree char *locations = g_build_filename (dir, "traces", NULL);
  g_autoptr(GDir) d = g_dir_open (locations, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".evt"))
      return g_build_filename (locations, name, NULL);
  g_assert_not_reached ();
}

/* The event chunk follows the largest event file, and stays what the anchor
 * declares once a file is as large: it may hold several chunks. */
static void
test_fallback (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *from = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), "sst-elements-ember-bcast", NULL);
  g_autofree char *copy = g_build_filename (tmp, "archive", NULL);
  g_autofree char *anchor = g_build_filename (copy, "traces.otf2", NULL);
  g_autofree char *evt = NULL;
  g_autoptr(SextantSmallChunks) view = NULL;

  g_assert_no_error (error);
  sextant_test_copy_tree (from, copy);
  evt = first_event_file (anchor);

  /* declared: 1 MiB of events, 256 KiB of definitions */
  g_assert_cmpint (truncate (evt, 300 * KIB), ==, 0);
  view = sextant_small_chunks_new (anchor, &error);
  g_assert_no_error (error);
  g_assert_nonnull (view);
  g_assert_cmpuint (sextant_small_chunks_get_event_chunk (view), ==, 300 * KIB + 4 * KIB);
  g_clear_pointer (&view, sextant_small_chunks_free);

  g_assert_cmpint (truncate (evt, MIB - 4 * KIB - 1), ==, 0);
  view = sextant_small_chunks_new (anchor, &error);
  g_assert_no_error (error);
  g_assert_nonnull (view);
  g_assert_cmpuint (sextant_small_chunks_get_event_chunk (view), ==, MIB - 4 * KIB);
  g_clear_pointer (&view, sextant_small_chunks_free);

  /* a byte more and the chunk would be the declared one: no view */
  g_assert_cmpint (truncate (evt, MIB - 4 * KIB), ==, 0);
  view = sextant_small_chunks_new (anchor, &error);
  g_assert_no_error (error);
  g_assert_null (view);

  g_assert_cmpint (truncate (evt, MIB), ==, 0);
  view = sextant_small_chunks_new (anchor, &error);
  g_assert_no_error (error);
  g_assert_null (view);

  g_assert_cmpint (truncate (evt, 3 * MIB), ==, 0);
  view = sextant_small_chunks_new (anchor, &error);
  g_assert_no_error (error);
  g_assert_null (view);

  sextant_test_remove_tree (tmp);
}

/* The view of a process that ended without removing it (a killed import
 * worker's) goes with the next view; what its links point to stays. */
static void
test_stale (void)
{
  g_autoptr(GError) error = NULL;
  /* cat: alive until its input is closed, so that its identifier is read
   * while it runs (GSubprocess forgets it once the child was reaped, which
   * GLib's worker thread can do before a `true` is asked) */
  g_autoptr(GSubprocess) ended = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE, &error, "cat", NULL);
  g_autofree char *target_dir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *target = g_build_filename (target_dir, "kept", NULL);
  g_autofree char *template = NULL;
  g_autofree char *stale = NULL;
  g_autofree char *link = NULL;
  g_autofree char *anchor = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"),
                                              "casita-1_ocl_deps", "traces.otf2", NULL);
  g_autoptr(SextantSmallChunks) view = NULL;

  g_assert_no_error (error);
  /* the identifier (its pid) is gone once it was waited for */
  g_assert_nonnull (g_subprocess_get_identifier (ended));
  template = g_strdup_printf ("sextant-otf2-%s-XXXXXX", g_subprocess_get_identifier (ended));
  g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (ended), NULL, &error));
  g_assert_true (g_subprocess_wait (ended, NULL, &error));
  g_assert_true (g_file_set_contents (target, "x", 1, &error));
  stale = g_dir_make_tmp (template, &error);
  g_assert_no_error (error);
  link = g_build_filename (stale, "traces.def", NULL);
  g_assert_cmpint (symlink (target, link), ==, 0);

  view = sextant_small_chunks_new (anchor, &error);
  g_assert_no_error (error);
  g_assert_nonnull (view);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (target, G_FILE_TEST_IS_REGULAR));

  sextant_test_remove_tree (target_dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (externals); i++)
    {
      g_autofree char *dir = g_path_get_dirname (externals[i].archive);
      g_autofree char *path = g_strdup_printf ("/small-chunks/external/%s", dir);

      g_test_add_data_func (path, &externals[i], test_external);
    }
  g_test_add_func ("/small-chunks/generated", test_generated);
  g_test_add_func ("/small-chunks/fallback", test_fallback);
  g_test_add_func ("/small-chunks/stale", test_stale);

  return g_test_run ();
}
