/*
 * test-store-manifest.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A parallel import's manifest read as one trace (trace/sextant-store-union.c):
 * shards made by threads playing the ranks (sextant-test-share.h, no MPI,
 * so the sanitizer build runs it), a manifest written as sextant-mpi's rank
 * 0 writes it; then the manifest gives what the single-process store of
 * the same archive gives: the SQL of the store's readers (counts, events,
 * visits, messages, collectives with their members, the profile), the span,
 * and the lod reader's buckets, visits, messages and collective members.
 * A read of one location opens only its shard; a message found by its id
 * is the one listed with it; a shard removed after the manifest was opened
 * makes the reads fail naming it. A shard changed (its write-ahead log or
 * its file) while the manifest holds no analysis' mark is refused, naming
 * it; with the mark, readers refuse the manifest (its last analysis did
 * not finish, or one runs) and an analysis accepts it.
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sextant-lod-reader.h"
#include "sextant-manifest-lock.h"
#include "sextant-store-shard-analysis.h"
#include "sextant-store-shards.h"
#include "sextant-test-share.h"
#include "sextant-test-util.h"

/* Every query's rows, sorted: the order of a manifest's rows is the shards' */
static const char * const queries[] = {
  "SELECT (SELECT count(*) FROM visit), "
  "  (SELECT count(*) FROM message WHERE send_time IS NOT NULL AND recv_time IS NOT NULL), "
  "  (SELECT count(*) FROM message WHERE send_time IS NULL OR recv_time IS NULL), "
  "  (SELECT count(*) FROM collective), (SELECT count(*) FROM rma_op), (SELECT count(*) FROM lock), "
  "  (SELECT count(*) FROM metric_value)",
  "SELECT loc, kind, count FROM event_count",
  "SELECT id, events, first_visit, last_visit, time_begin, time_end FROM location",
  "SELECT id, loc, region, enter, leave, depth, parent FROM visit",
  "SELECT comm, tag, bytes, send_loc, recv_loc, send_mode, recv_mode, send_time, send_visit, "
  "  send_complete_time, recv_post_time, recv_time, recv_visit, recv_bytes FROM message",
  "SELECT c.comm, c.kind, c.root, c.members, c.begin, c.\"end\", m.loc, m.visit, m.begin, m.\"end\" "
  "FROM collective AS c JOIN collective_member AS m ON m.collective = c.id",
  "SELECT p.loc, cp.name, p.visits, p.inclusive, p.exclusive FROM call_path_profile AS p "
  "JOIN call_path AS cp ON cp.id = p.path",
  "SELECT loc, kind, win, bytes, issue_time, complete_time FROM rma_op",
  "SELECT loc, kind, time FROM rma_sync",
  "SELECT key, value FROM meta WHERE key IN ('events', 'time_begin', 'time_end', 'resolution', 'lod_base_ticks')",
  "SELECT kind, loc, count FROM (SELECT * FROM import_log WHERE kind NOT LIKE '%unmatched%')",
};

static gboolean
text_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  GPtrArray *lines = user_data;
  GString *line = g_string_new (NULL);

  for (int c = 0; c < sextant_row_get_n_columns (row); c++)
    g_string_append_printf (line, "%s|", sextant_row_is_null (row, c) ? "NULL" : sextant_row_get_text (row, c));
  g_ptr_array_add (lines, g_string_free (line, FALSE));

  return TRUE;
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* @sql's rows on @store, sorted, a row a line */
static char *
rows (SextantStore *store,
      const char   *sql)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;

  g_assert_true (sextant_store_foreach_sql (store, sql, text_row, lines, &error, ""));
  g_assert_no_error (error);
  g_ptr_array_sort (lines, compare_lines);
  g_ptr_array_add (lines, NULL);

  return g_strjoinv ("\n", (char **)lines->pdata);
}

/* Writes the manifest of @ranks' shards (in @dir) at @manifest, as rank 0
 * of sextant-mpi does: the definitions, then the shard tables */
static void
write_manifest (const char      *archive,
                const char      *manifest,
                const char      *dir,
                SextantTestRank *ranks,
                guint            n)
{
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, manifest);
  g_autoptr(GPtrArray) shards = g_ptr_array_new ();
  g_autofree SextantShardInfo *infos = g_new0 (SextantShardInfo, n);
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;
  SextantImportShare share = { 0, 1, TRUE, NULL, NULL };

  sextant_importer_set_share (importer, &share);
  g_assert_true (g_file_set_contents (manifest, "", 0, NULL));
  g_assert_true (sextant_importer_run_into (importer, manifest, NULL, &error));
  g_assert_no_error (error);
  for (guint r = 0; r < n; r++)
    {
      g_assert_true (ranks[r].ok);
      infos[r].name = g_path_get_basename (ranks[r].shard);
      infos[r].locations = ranks[r].locations;
      g_ptr_array_add (shards, &infos[r]);
    }
  store = sextant_store_open (manifest, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_store_add_shards (store, dir, "", shards, &error));
  g_assert_no_error (error);
  g_assert_true (sextant_store_close (store, &error));
  for (guint r = 0; r < n; r++)
    g_free (infos[r].name);
}

static int
compare_messages (gconstpointer a,
                  gconstpointer b)
{
  const SextantViewMessage *x = a;
  const SextantViewMessage *y = b;
  gint64 ka[] = { x->send_loc, x->recv_loc, x->send_time, x->recv_time, x->bytes };
  gint64 kb[] = { y->send_loc, y->recv_loc, y->send_time, y->recv_time, y->bytes };

  for (guint i = 0; i < G_N_ELEMENTS (ka); i++)
    if (ka[i] != kb[i])
      return ka[i] < kb[i] ? -1 : 1;

  return 0;
}

static int
compare_members (gconstpointer a,
                 gconstpointer b)
{
  const SextantViewMember *x = a;
  const SextantViewMember *y = b;
  gint64 ka[] = { x->loc, x->begin, x->end };
  gint64 kb[] = { y->loc, y->begin, y->end };

  for (guint i = 0; i < G_N_ELEMENTS (ka); i++)
    if (ka[i] != kb[i])
      return ka[i] < kb[i] ? -1 : 1;

  return 0;
}

/* The lod reader on @manifest reads what it reads on @single */
static void
check_lod_reader (SextantStore *single,
                  SextantStore *manifest)
{
  g_autoptr(GError) error = NULL;
  SextantLodReader *a = sextant_lod_reader_new (single, &error);
  SextantLodReader *b = sextant_lod_reader_new (manifest, &error);
  g_autoptr(GArray) locs = sextant_test_locations (single, FALSE);
  g_autoptr(GArray) ma = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
  g_autoptr(GArray) mb = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
  g_autoptr(GArray) ca = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
  g_autoptr(GArray) cb = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
  SextantTimeSpan span;
  gboolean too_many = FALSE;

  g_assert_no_error (error);
  g_assert_cmpuint (sextant_lod_reader_get_n_levels (a), ==, sextant_lod_reader_get_n_levels (b));
  g_assert_true (sextant_store_get_time_span (single, &span, &error));
  for (guint i = 0; i < locs->len; i++)
    {
      gint64 loc = g_array_index (locs, gint64, i);

      for (guint level = 0; level < sextant_lod_reader_get_n_levels (a); level++)
        {
          g_autoptr(GArray) ba = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
          g_autoptr(GArray) bb = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));

          g_assert_true (sextant_lod_reader_read (a, loc, level, span.begin, span.end + 1, ba, &error));
          g_assert_true (sextant_lod_reader_read (b, loc, level, span.begin, span.end + 1, bb, &error));
          g_assert_cmpmem (ba->data, ba->len * sizeof (SextantLodBucket), bb->data, bb->len * sizeof (SextantLodBucket));
        }
      {
        g_autoptr(GArray) va = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
        g_autoptr(GArray) vb = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));

        g_assert_true (sextant_lod_reader_read_visits (a, loc, span.begin, span.end + 1, va, &error));
        g_assert_true (sextant_lod_reader_read_visits (b, loc, span.begin, span.end + 1, vb, &error));
        g_assert_cmpmem (va->data, va->len * sizeof (SextantLodBucket), vb->data, vb->len * sizeof (SextantLodBucket));
      }
    }
  g_assert_no_error (error);

  g_assert_true (sextant_lod_reader_read_messages (a, (const gint64 *)locs->data, locs->len, span.begin, span.end + 1,
                                                   G_MAXUINT, ma, &too_many, &error));
  g_assert_true (sextant_lod_reader_read_messages (b, (const gint64 *)locs->data, locs->len, span.begin, span.end + 1,
                                                   G_MAXUINT, mb, &too_many, &error));
  g_assert_no_error (error);
  g_array_sort (ma, compare_messages);
  g_array_sort (mb, compare_messages);
  g_assert_cmpuint (ma->len, ==, mb->len);
  for (guint i = 0; i < ma->len; i++)
    g_assert_cmpint (compare_messages (&g_array_index (ma, SextantViewMessage, i),
                                       &g_array_index (mb, SextantViewMessage, i)), ==, 0);

  g_assert_true (sextant_lod_reader_read_collectives (a, span.begin, span.end + 1, G_MAXUINT, ca, &too_many, &error));
  g_assert_true (sextant_lod_reader_read_collectives (b, span.begin, span.end + 1, G_MAXUINT, cb, &too_many, &error));
  g_assert_no_error (error);
  g_array_sort (ca, compare_members);
  g_array_sort (cb, compare_members);
  g_assert_cmpuint (ca->len, ==, cb->len);
  for (guint i = 0; i < ca->len; i++)
    g_assert_cmpint (compare_members (&g_array_index (ca, SextantViewMember, i),
                                      &g_array_index (cb, SextantViewMember, i)), ==, 0);

  sextant_lod_reader_free (a);
  sextant_lod_reader_free (b);
}

typedef struct
{
  SextantStore *store;
  guint         checked;
} ById;

/* Each message found again by its id */
static gboolean
message_by_id (const SextantRow  *row,
               gpointer           user_data,
               GError           **error)
{
  ById *by_id = user_data;
  g_autofree char *want = g_strdup_printf ("%s|%s|%s|", sextant_row_get_text (row, 1),
                                           sextant_row_is_null (row, 2) ? "NULL" : sextant_row_get_text (row, 2),
                                           sextant_row_is_null (row, 3) ? "NULL" : sextant_row_get_text (row, 3));
  g_autofree char *sql = g_strdup_printf ("SELECT id, coalesce (send_loc, recv_loc), send_time, recv_time "
                                          "FROM message WHERE id = %" G_GINT64_FORMAT, sextant_row_get_int (row, 0));
  g_autofree char *got = rows (by_id->store, sql);

  g_assert_true (g_str_has_suffix (got, want));
  g_assert_null (strchr (got, '\n'));
  by_id->checked++;

  return by_id->checked < 200;
}

static void
check_archive (const char *scenario,
               guint       n)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-manifest-XXXXXX", NULL);
  g_autofree char *gen_dir = g_build_filename (dir, "archive", NULL);
  g_autofree char *archive = sextant_test_otf2gen (scenario, gen_dir);
  g_autofree char *single_path = g_build_filename (dir, "single.db", NULL);
  g_autofree char *manifest_path = g_build_filename (dir, "run.sextant", NULL);
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, single_path);
  g_autoptr(SextantStore) single = NULL;
  g_autoptr(SextantStore) manifest = NULL;
  g_autoptr(GError) error = NULL;
  SextantTimeSpan span_a, span_b;
  SextantTestHub hub = { 0 };
  SextantTestRank *ranks;
  ById by_id = { NULL, 0 };

  g_test_message ("%s on %u shards", scenario, n);
  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  ranks = sextant_test_import_shared (archive, dir, n, -1, &hub);
  write_manifest (archive, manifest_path, dir, ranks, n);

  single = sextant_store_open (single_path, &error);
  g_assert_no_error (error);
  manifest = sextant_store_open (manifest_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sextant_store_get_n_shards (single), ==, 0);
  g_assert_cmpuint (sextant_store_get_n_shards (manifest), ==, n);
  g_assert_cmpuint (sextant_store_get_n_open_shards (manifest), ==, 0);

  /* a read of one location opens only its shard */
  {
    g_autoptr(GArray) locs = sextant_test_locations (single, FALSE);
    gint64 last = g_array_index (locs, gint64, locs->len - 1);
    g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM visit WHERE loc = %" G_GINT64_FORMAT, last);
    g_autofree char *a = rows (single, sql);
    g_autofree char *b = rows (manifest, sql);

    g_assert_cmpstr (a, ==, b);
    g_assert_cmpuint (sextant_store_get_n_open_shards (manifest), ==, 1);
    g_assert_cmpuint (sextant_store_get_location_shard (manifest, last), <, n);
  }

  for (guint k = 0; k < G_N_ELEMENTS (queries); k++)
    {
      g_autofree char *a = rows (single, queries[k]);
      g_autofree char *b = rows (manifest, queries[k]);

      g_assert_cmpstr (a, ==, b);
    }
  g_assert_true (sextant_store_get_time_span (single, &span_a, &error));
  g_assert_true (sextant_store_get_time_span (manifest, &span_b, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (&span_a, sizeof span_a, &span_b, sizeof span_b);
  check_lod_reader (single, manifest);

  by_id.store = manifest;
  g_assert_true (sextant_store_foreach_sql (manifest, "SELECT id, coalesce (send_loc, recv_loc), send_time, recv_time "
                                            "FROM message", message_by_id, &by_id, &error, ""));
  g_assert_no_error (error);

  /* a shard gone after the manifest was opened: the reads that need it fail, naming it */
  if (n > 1)
    {
      g_autoptr(SextantStore) again = sextant_store_open (manifest_path, &error);
      g_autofree char *name = g_path_get_basename (ranks[n - 1].shard);
      gint64 count = 0;

      g_assert_no_error (error);
      g_assert_cmpint (g_unlink (ranks[n - 1].shard), ==, 0);
      g_assert_false (sextant_store_foreach_sql (again, "SELECT count(*) FROM visit", sextant_test_take_int, &count,
                                                 &error, ""));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, name));
      g_clear_error (&error);
    }

  g_clear_object (&manifest);
  g_clear_object (&single);
  sextant_test_ranks_free (ranks, &hub);
  sextant_test_remove_tree (dir);
}

static void
test_every_kind (void)
{
  for (guint n = 1; n <= 3; n++)
    check_archive ("every-kind", n);
}

static void
test_threads (void)
{
  check_archive ("threads-recv", 2);
}

/* more ranks than locations: shards with no events */
static void
test_idle_ranks (void)
{
  check_archive ("threads-recv", 5);
}

static void
stat_file (const char *path,
           GStatBuf   *st)
{
  g_assert_cmpint (g_stat (path, st), ==, 0);
}

/* Opening @manifest fails with @code, the message holding @a and @b */
static void
assert_refused (const char *manifest,
                int         code,
                const char *a,
                const char *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = sextant_store_open (manifest, &error);

  g_assert_null (store);
  g_assert_error (error, SEXTANT_TRACE_ERROR, code);
  g_assert_nonnull (strstr (error->message, a));
  g_assert_nonnull (strstr (error->message, b));
}

/* The lock an analysis holds on the shards' directory @dir
 * (sextant-manifest-lock.c): close the descriptor to drop it */
static int
take_lock (const char *dir)
{
  int fd = g_open (dir, O_RDONLY | O_DIRECTORY, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), ==, 0);

  return fd;
}

/* A shard changed while the manifest holds no analysis' mark (its
 * write-ahead log holds writes, then the file changed) is refused naming
 * it, "import the archive again" (by an analysis too), and the refusal
 * takes nothing into the file; while an analysis holds the lock, readers
 * say that it runs, the mark or not (it may not have set it yet). With the
 * mark (an analysis wrote into the shards and was killed before it
 * recorded them anew), readers refuse the manifest naming it, "run sextant
 * analyze again"; an analysis takes the lock, and its record of the
 * shards removes the mark. */
static void
test_killed_analysis (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-manifest-XXXXXX", NULL);
  g_autofree char *gen_dir = g_build_filename (dir, "archive", NULL);
  g_autofree char *archive = sextant_test_otf2gen ("every-kind", gen_dir);
  g_autofree char *manifest_path = g_build_filename (dir, "run.sextant", NULL);
  g_autofree char *name = NULL;
  g_autofree char *shards_dir = NULL;
  g_autofree char *again = NULL;
  g_autofree char *moved = NULL;
  g_autoptr(SextantStore) manifest = NULL;
  g_autoptr(SextantManifestLock) lock = NULL;
  g_autoptr(GError) error = NULL;
  SextantTestHub hub = { 0 };
  SextantTestRank *ranks;
  sqlite3 *writer = NULL;
  GStatBuf before, after;
  int fd;

  ranks = sextant_test_import_shared (archive, dir, 2, -1, &hub);
  write_manifest (archive, manifest_path, dir, ranks, 2);
  name = g_path_get_basename (ranks[1].shard);
  shards_dir = g_path_get_dirname (ranks[1].shard);
  again = g_strdup_printf ("run `sextant analyze %s` again", manifest_path);
  manifest = sextant_store_open (manifest_path, &error);
  g_assert_no_error (error);
  g_clear_object (&manifest);

  /* the writer stays open, as a killed one leaves its log: SQLite takes
   * the log into the file when the last connection closes */
  stat_file (ranks[1].shard, &before);
  g_assert_cmpint (sqlite3_open (ranks[1].shard, &writer), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (writer, "INSERT INTO meta (key, value) VALUES ('halo', 'of a killed analysis')",
                                 NULL, NULL, NULL), ==, SQLITE_OK);

  assert_refused (manifest_path, SEXTANT_TRACE_ERROR_CORRUPT, name, "write-ahead log");
  stat_file (ranks[1].shard, &after);
  g_assert_cmpint (after.st_size, ==, before.st_size);
  g_assert_cmpint (after.st_mtim.tv_sec, ==, before.st_mtim.tv_sec);
  g_assert_cmpint (after.st_mtim.tv_nsec, ==, before.st_mtim.tv_nsec);
  fd = take_lock (shards_dir);
  assert_refused (manifest_path, SEXTANT_TRACE_ERROR_BUSY, "run.sextant", "an analysis of this manifest is running");
  close (fd);

  /* the writer closed: SQLite wrote its log into the file, which is now
   * not the one recorded; an analysis refuses it too */
  g_assert_cmpint (sqlite3_close (writer), ==, SQLITE_OK);
  assert_refused (manifest_path, SEXTANT_TRACE_ERROR_CORRUPT, name, "changed since the import");
  fd = take_lock (shards_dir);
  assert_refused (manifest_path, SEXTANT_TRACE_ERROR_BUSY, "run.sextant", "an analysis of this manifest is running");
  close (fd);
  manifest = sextant_store_open_unchecked (manifest_path, &error);
  g_assert_no_error (error);
  lock = sextant_manifest_lock_take (manifest, &error);
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "import the archive again"));
  g_assert_null (lock);
  g_clear_error (&error);

  /* marked, as an analysis marks it before it writes into a shard, and
   * killed: readers refuse it naming the manifest */
  g_assert_true (sextant_store_mark_analysis (manifest, &error));
  g_assert_no_error (error);
  g_clear_object (&manifest);
  assert_refused (manifest_path, SEXTANT_TRACE_ERROR_CORRUPT, "its last analysis did not finish (killed?)", again);
  fd = take_lock (shards_dir);
  assert_refused (manifest_path, SEXTANT_TRACE_ERROR_BUSY, "run.sextant", "an analysis of this manifest is running");
  close (fd);
  /* a shard gone is named, the mark or not */
  moved = g_strconcat (ranks[1].shard, ".away", NULL);
  g_assert_cmpint (g_rename (ranks[1].shard, moved), ==, 0);
  assert_refused (manifest_path, SEXTANT_TRACE_ERROR_NOT_FOUND, name, "missing");
  g_assert_cmpint (g_rename (moved, ranks[1].shard), ==, 0);

  /* an analysis accepts it, and its record of the shards ends the mark */
  manifest = sextant_store_open_unchecked (manifest_path, &error);
  g_assert_no_error (error);
  lock = sextant_manifest_lock_take (manifest, &error);
  g_assert_no_error (error);
  g_assert_nonnull (lock);
  g_assert_true (sextant_store_merge_shard_analyses (manifest, FALSE, &error));
  g_assert_no_error (error);
  g_clear_pointer (&lock, sextant_manifest_lock_release);
  /* released, it stays the manifest's, shared, until the manifest closes;
   * a reader holds it so too */
  fd = g_open (shards_dir, O_RDONLY | O_DIRECTORY, 0);
  g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), !=, 0);
  g_assert_cmpint (flock (fd, LOCK_SH | LOCK_NB), ==, 0);
  g_clear_object (&manifest);
  g_assert_cmpint (flock (fd, LOCK_UN), ==, 0);
  manifest = sextant_store_open (manifest_path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (manifest);
  g_assert_null (sextant_store_get_meta (manifest, SEXTANT_SHARD_ANALYSIS_UNFINISHED));
  g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), !=, 0);
  g_clear_object (&manifest);
  g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), ==, 0);
  close (fd);

  sextant_test_ranks_free (ranks, &hub);
  sextant_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/StoreManifest/every-kind", test_every_kind);
  g_test_add_func ("/StoreManifest/threads", test_threads);
  g_test_add_func ("/StoreManifest/idle-ranks", test_idle_ranks);
  g_test_add_func ("/StoreManifest/killed-analysis", test_killed_analysis);

  return g_test_run ();
}
