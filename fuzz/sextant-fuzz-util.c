/*
 * sextant-fuzz-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fuzz targets' shared part (sextant-fuzz-util.h). The window's reads
 * are those of ui/ without GTK: sextant-session-load.c's load, the pattern
 * browser's lists, sextant-timeline-frame.c's read_rows()/read_lines() for
 * a whole view, a zoomed-in one and the whole-machine mode, the details
 * pane, the tree and matrix views.
 *
 * Workload: per input, one import of an archive of a few KB or one store
 * of a few hundred KB read; all of it on the calling thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sextant-comm-matrix.h"
#include "sextant-fuzz-util.h"
#include "sextant-graph.h"
#include "sextant-importer.h"
#include "sextant-lod-reader.h"
#include "sextant-store-details.h"
#include "sextant-store-rows.h"
#include "sextant-store.h"

/* The timeline's bounds (ui/sextant-timeline-private.h) */
#define MAX_LOST          20000
#define MAX_MEMBERS       16000
#define MAX_MESSAGES      8000
#define MAX_DENSITY       40000
#define MAX_RMA           8000
#define EXACT_FROM_PIXELS 8
#define VIEW_WIDTH        1000
/* The details, trees and instances read per list: the first few */
#define FEW               4
#define TICKS_BOUND       ((gint64)1 << 58)

static char *tmpdir;

static void
remove_tmpdir (void)
{
  /* GLib 2.74 has no recursive delete: rm -rf */
  const char *argv[] = { "rm", "-rf", tmpdir, NULL };

  if (tmpdir == NULL)
    return;
  g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, NULL, NULL);
  g_clear_pointer (&tmpdir, g_free);
}

static void
discard_print (const char *text)
{
}

void
sextant_fuzz_init (void)
{
  g_autofree char *template = NULL;
  g_autofree char *data_home = NULL;
  int null_fd;

  if (tmpdir != NULL)
    return;
  template = g_build_filename (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir (),
                               "sextant-fuzz-XXXXXX", NULL);
  if (!(tmpdir = g_mkdtemp (g_steal_pointer (&template))))
    g_error ("cannot create a temporary directory: %s", g_strerror (errno));
  atexit (remove_tmpdir);

  /* no user patterns; the reports' and analyses' files in here */
  data_home = g_build_filename (tmpdir, "data", NULL);
  g_mkdir_with_parents (data_home, 0700);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  /* a g_critical () is a broken precondition: a bug, as a crash is */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR);
  /* the commands' output and their one-line errors; libFuzzer writes to
   * standard error, which stays */
  g_set_print_handler (discard_print);
  g_set_printerr_handler (discard_print);
  if ((null_fd = open ("/dev/null", O_WRONLY | O_CLOEXEC)) >= 0)
    {
      fflush (stdout);
      dup2 (null_fd, STDOUT_FILENO);
      close (null_fd);
    }
}

const char *
sextant_fuzz_tmpdir (void)
{
  g_assert (tmpdir != NULL);
  return tmpdir;
}

const char *
sextant_fuzz_seed_dir (void)
{
  const char *dir = g_getenv ("SEXTANT_FUZZ_SEEDS");

  return dir != NULL ? dir : SEXTANT_FUZZ_BUILD_SEEDS;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The files of @dir below it, as paths relative to @base */
static void
list_files (const char *base,
            const char *rel,
            GPtrArray  *files)
{
  g_autofree char *path = g_build_filename (base, rel, NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *child_rel = *rel != '\0' ? g_build_filename (rel, name, NULL) : g_strdup (name);
      g_autofree char *child = g_build_filename (base, child_rel, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        list_files (base, child_rel, files);
      else if (g_str_has_suffix (name, ".otf2") || g_str_has_suffix (name, ".def") ||
               g_str_has_suffix (name, ".evt"))
        g_ptr_array_add (files, g_steal_pointer (&child_rel));
    }
}

static SextantFuzzArchive *
copy_archive (const char *seed,
              const char *name)
{
  SextantFuzzArchive *archive = g_new0 (SextantFuzzArchive, 1);

  archive->dir = g_build_filename (tmpdir, "archives", name, NULL);
  archive->files = g_ptr_array_new_with_free_func (g_free);
  archive->contents = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  list_files (seed, "", archive->files);
  g_ptr_array_sort (archive->files, compare_strings);
  for (guint i = 0; i < archive->files->len; i++)
    {
      const char *file = g_ptr_array_index (archive->files, i);
      g_autofree char *from = g_build_filename (seed, file, NULL);
      g_autofree char *to = g_build_filename (archive->dir, file, NULL);
      g_autofree char *to_dir = g_path_get_dirname (to);
      g_autoptr(GError) error = NULL;
      char *data;
      gsize size;

      if (!g_file_get_contents (from, &data, &size, &error))
        g_error ("%s", error->message);
      g_ptr_array_add (archive->contents, g_bytes_new_take (data, size));
      g_mkdir_with_parents (to_dir, 0700);
      if (!g_file_set_contents (to, data, size, &error))
        g_error ("%s", error->message);
      if (g_str_has_suffix (file, ".otf2") && strchr (file, '/') == NULL)
        archive->anchor = g_steal_pointer (&to);
    }
  if (archive->anchor == NULL)
    g_error ("%s: no anchor file", seed);

  return archive;
}

GPtrArray *
sextant_fuzz_archives (void)
{
  static GPtrArray *archives;
  g_autofree char *seeds = NULL;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (archives != NULL)
    return archives;

  seeds = g_build_filename (sextant_fuzz_seed_dir (), "archives", NULL);
  if (!(dir = g_dir_open (seeds, 0, NULL)))
    g_error ("%s: no seed archives (run fuzz/sextant-fuzz-run.py --corpus-only, or set SEXTANT_FUZZ_SEEDS)", seeds);
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);
  if (names->len == 0)
    g_error ("%s: no seed archives", seeds);

  archives = g_ptr_array_new ();
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *seed = g_build_filename (seeds, g_ptr_array_index (names, i), NULL);

      g_ptr_array_add (archives, copy_archive (seed, g_ptr_array_index (names, i)));
    }

  return archives;
}

static gboolean
file_is (const char      *file,
         SextantFuzzFile  kind)
{
  gboolean local = strchr (file, '/') != NULL;

  switch (kind)
    {
    case SEXTANT_FUZZ_FILE_ANY:
      return TRUE;
    case SEXTANT_FUZZ_FILE_ANCHOR:
      return !local && g_str_has_suffix (file, ".otf2");
    case SEXTANT_FUZZ_FILE_GLOBAL_DEFS:
      return !local && g_str_has_suffix (file, ".def");
    case SEXTANT_FUZZ_FILE_LOCAL_DEFS:
      return local && g_str_has_suffix (file, ".def");
    case SEXTANT_FUZZ_FILE_EVENTS:
      return local && g_str_has_suffix (file, ".evt");
    default:
      g_assert_not_reached ();
    }
}

int
sextant_fuzz_archive_pick (SextantFuzzArchive *archive,
                           SextantFuzzFile     kind,
                           guint               wanted)
{
  guint n = 0;

  for (guint i = 0; i < archive->files->len; i++)
    n += file_is (g_ptr_array_index (archive->files, i), kind);
  if (n == 0)
    return -1;
  wanted %= n;
  for (guint i = 0; i < archive->files->len; i++)
    if (file_is (g_ptr_array_index (archive->files, i), kind) && wanted-- == 0)
      return (int)i;
  g_assert_not_reached ();
}

static void
write_file (const char   *path,
            const guint8 *data,
            gsize         size)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, (const char *)data, (gssize)size, &error))
    g_error ("%s", error->message);
}

void
sextant_fuzz_archive_replace (SextantFuzzArchive *archive,
                              guint               index,
                              const guint8       *data,
                              gsize               size)
{
  g_autofree char *path = g_build_filename (archive->dir, g_ptr_array_index (archive->files, index), NULL);

  write_file (path, data, size);
}

void
sextant_fuzz_archive_restore (SextantFuzzArchive *archive)
{
  for (guint i = 0; i < archive->files->len; i++)
    {
      GBytes *bytes = g_ptr_array_index (archive->contents, i);
      g_autofree char *path = g_build_filename (archive->dir, g_ptr_array_index (archive->files, i), NULL);
      gsize size;
      const guint8 *data = g_bytes_get_data (bytes, &size);

      write_file (path, data, size);
    }
}

void
sextant_fuzz_remove_store (const char *path)
{
  static const char * const suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *file = g_strconcat (path, suffixes[i], NULL);

      g_unlink (file);
    }
}

void
sextant_fuzz_import (const char *anchor,
                     gboolean    read)
{
  g_autofree char *db = g_build_filename (tmpdir, "import.sextant.db", NULL);
  g_autoptr(SextantImporter) importer = sextant_importer_new (anchor, db);
  g_autoptr(GError) error = NULL;

  sextant_fuzz_remove_store (db);
  if (sextant_importer_run_into (importer, db, NULL, &error) && read)
    sextant_fuzz_read_as_window (db);
  sextant_fuzz_remove_store (db);
}

/* The window's reads ------------------------------------------------------ */

/* sextant-session-load.c: what a session loads when the store opens; the
 * window shows an error and reads nothing more when one of them fails */
static gboolean
read_session (SextantStore    *store,
              GPtrArray      **locations,
              SextantTimeSpan *span)
{
  g_autoptr(GHashTable) regions = NULL;
  g_auto(SextantAnalysisScope) scope = { FALSE, NULL, NULL };
  g_autoptr(GError) error = NULL;

  return (*locations = sextant_store_list_locations (store, &error)) != NULL &&
         (regions = sextant_store_read_region_names (store, &error)) != NULL &&
         sextant_store_get_time_span (store, span, &error) &&
         sextant_store_get_analysis_scope (store, &scope, &error);
}

/* The pattern browser and the find bar; the ids of a few instances into
 * @instances */
static void
read_patterns (SextantStore *store,
               GArray       *instances)
{
  g_autoptr(GHashTable) numbers = NULL;
  g_autoptr(GPtrArray) totals = NULL;
  g_autoptr(GError) error = NULL;

  numbers = sextant_store_list_pattern_numbers (store, NULL);
  if (!(totals = sextant_store_list_pattern_totals (store, &error)))
    return;
  for (guint i = 0; i < totals->len; i++)
    {
      const SextantPatternTotal *total = g_ptr_array_index (totals, i);
      g_autoptr(GPtrArray) list = sextant_store_list_pattern_instances (store, total->id, 100, NULL);

      for (guint j = 0; list != NULL && j < list->len && j < FEW; j++)
        {
          const SextantPatternInstance *listed = g_ptr_array_index (list, j);
          SextantPatternInstance *instance = NULL;
          SextantWaitState state;
          gboolean found;

          g_array_append_val (instances, listed->id);
          if (sextant_store_get_pattern_instance (store, listed->id, &instance, NULL))
            sextant_pattern_instance_free (instance);
          sextant_store_get_wait_state (store, listed->id, &state, &found, NULL);
        }
    }
}

/* ui/sextant-timeline-frame.c: read_rows () and read_lines () of one
 * frame of @width pixels over [@t0, @t1) for the rows @locs; the
 * details pane for the first items drawn */
static void
read_frame (SextantStore     *store,
            SextantLodReader *reader,
            GArray           *locs,
            GPtrArray        *metrics,
            gint64            t0,
            gint64            t1,
            guint             width)
{
  g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  g_autoptr(GArray) points = g_array_new (FALSE, FALSE, sizeof (SextantCounterPoint));
  g_autoptr(GArray) messages = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
  g_autoptr(GArray) density = g_array_new (FALSE, FALSE, sizeof (SextantViewMessageDensity));
  g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
  g_autoptr(GArray) rma = g_array_new (FALSE, FALSE, sizeof (SextantViewRma));
  g_autoptr(GArray) syncs = g_array_new (FALSE, FALSE, sizeof (SextantViewSync));
  g_autoptr(GArray) lost = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
  const gint64 *loc_ids = (const gint64 *)(void *)locs->data;
  guint level;
  gint64 bucket_ticks;
  gboolean exact;
  gboolean too_many = FALSE;

  if (t1 <= t0)
    t1 = t0 + 1;
  level = sextant_lod_reader_pick_level (reader, (double)(t1 - t0) / width);
  bucket_ticks = sextant_lod_reader_get_bucket_ticks (reader, level);
  exact = level == 0 && bucket_ticks * width > EXACT_FROM_PIXELS * (t1 - t0);
  if (!exact && locs->len > 1)
    sextant_lod_reader_prefetch (reader, loc_ids, locs->len, level, NULL);
  for (guint i = 0; i < locs->len; i++)
    {
      g_array_set_size (buckets, 0);
      if (exact)
        sextant_lod_reader_read_visits (reader, loc_ids[i], t0, t1, buckets, NULL);
      else
        sextant_lod_reader_read (reader, loc_ids[i], level, t0, t1, buckets, NULL);
      /* a click on the row: the visit under the first bucket */
      if (buckets->len > 0)
        {
          const SextantLodBucket *b = &g_array_index (buckets, SextantLodBucket, 0);
          g_autoptr(SextantItemDetails) details = NULL;

          sextant_store_read_item_details (store, SEXTANT_DETAILS_VISIT, loc_ids[i], b->begin + (b->end - b->begin) / 2,
                                           SEXTANT_NULL, &details, NULL);
        }
    }

  for (guint i = 0; metrics != NULL && i < metrics->len; i++)
    {
      const SextantLocationMetric *metric = g_ptr_array_index (metrics, i);

      g_array_set_size (points, 0);
      sextant_store_read_counter (store, metric->loc, metric->metric, t0, t1, width, points, NULL);
    }

  if (sextant_lod_reader_read_messages (reader, loc_ids, locs->len, t0, t1, MAX_MESSAGES, messages, &too_many, NULL) &&
      too_many)
    sextant_lod_reader_read_message_density (reader, loc_ids, locs->len, t0, t1, MAX ((t1 - t0) * 4 / width, 1),
                                             MAX_DENSITY, density, NULL);
  sextant_lod_reader_read_collectives (reader, t0, t1, MAX_MEMBERS, members, &too_many, NULL);
  sextant_lod_reader_read_rma (reader, t0, t1, MAX_RMA, rma, &too_many, NULL);
  sextant_lod_reader_read_rma_sync (reader, t0, t1, MAX_RMA, syncs, &too_many, NULL);
  sextant_lod_reader_read_lost (reader, t0, t1, MAX_LOST, lost, &too_many, NULL);

  /* clicks on the first items drawn */
  for (guint i = 0; i < messages->len && i < FEW; i++)
    {
      const SextantViewMessage *m = &g_array_index (messages, SextantViewMessage, i);
      g_autoptr(SextantItemDetails) details = NULL;

      sextant_store_read_item_details (store, SEXTANT_DETAILS_MESSAGE, m->send_loc, m->send_time, m->id,
                                       &details, NULL);
    }
  for (guint i = 0; i < members->len && i < FEW; i++)
    {
      const SextantViewMember *m = &g_array_index (members, SextantViewMember, i);
      g_autoptr(SextantItemDetails) details = NULL;

      sextant_store_read_item_details (store, SEXTANT_DETAILS_COLLECTIVE, m->loc, m->begin, m->collective,
                                       &details, NULL);
    }
  for (guint i = 0; i < rma->len && i < FEW; i++)
    {
      const SextantViewRma *r = &g_array_index (rma, SextantViewRma, i);
      g_autoptr(SextantItemDetails) details = NULL;

      sextant_store_read_item_details (store, SEXTANT_DETAILS_RMA, r->origin_loc, r->issue_time, r->id,
                                       &details, NULL);
    }
}

/* The whole-machine mode: every location in at most 64 bands */
static void
read_machine (SextantLodReader *reader,
              GArray           *locs,
              gint64            t0,
              gint64            t1)
{
  guint n_bands = MIN (locs->len, 64);
  g_autofree SextantMachineCell *cells = NULL;
  guint categories = 0;

  if (n_bands == 0 || t1 <= t0)
    return;
  cells = g_new0 (SextantMachineCell, (gsize)n_bands * VIEW_WIDTH);
  sextant_lod_reader_read_machine (reader, (const gint64 *)(void *)locs->data, locs->len, n_bands, 0, n_bands,
                                   t0, t1, VIEW_WIDTH, cells, &categories, NULL);
}

/* The tree view (collectives, delay chains) and the matrix view */
static void
read_graphs (SextantStore          *store,
             const SextantTimeSpan *span,
             GArray                *instances)
{
  g_autoptr(GPtrArray) refs = sextant_graph_list_collectives (store, NULL);

  for (guint i = 0; refs != NULL && i < refs->len && i < FEW; i++)
    {
      const SextantCollectiveRef *ref = g_ptr_array_index (refs, i);
      g_autoptr(SextantCommTree) tree = NULL;
      g_autoptr(SextantCommTree) binomial = NULL;

      tree = sextant_graph_build_collective (store, ref->id, SEXTANT_TREE_LAYOUT_RECORDED, NULL);
      binomial = sextant_graph_build_collective (store, ref->id, SEXTANT_TREE_LAYOUT_BINOMIAL, NULL);
    }
  for (guint i = 0; i < instances->len && i < FEW; i++)
    {
      g_autoptr(SextantCommTree) chain = NULL;

      chain = sextant_graph_build_delay_chain (store, g_array_index (instances, gint64, i),
                                               SEXTANT_DELAY_CHAIN_MAX_DEPTH, NULL);
    }
  for (int t = 0; t < SEXTANT_N_MATRIX_TRANSFERS; t++)
    {
      SextantCommMatrix *matrix = sextant_comm_matrix_build_full (store, span->begin, span->end + 1, t, NULL);

      if (matrix != NULL)
        sextant_comm_matrix_unref (matrix);
    }
}

void
sextant_fuzz_read_as_window (const char *path)
{
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) locations = NULL;
  g_autoptr(GPtrArray) places = NULL;
  g_autoptr(GPtrArray) metrics = NULL;
  g_autoptr(SextantLodReader) reader = NULL;
  g_autoptr(GArray) locs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) instances = g_array_new (FALSE, FALSE, sizeof (gint64));
  SextantTimeSpan span;
  gint64 length;

  if (!(store = sextant_store_open (path, NULL)) || !read_session (store, &locations, &span))
    return;
  read_patterns (store, instances);

  /* the timeline's rows: the locations with events */
  places = sextant_store_list_location_places (store, NULL);
  metrics = sextant_store_list_location_metrics (store, NULL);
  for (guint i = 0; i < locations->len; i++)
    {
      const SextantLocationInfo *info = g_ptr_array_index (locations, i);

      if (info->events > 0)
        g_array_append_val (locs, info->id);
    }
  if ((reader = sextant_lod_reader_new (store, NULL)) != NULL)
    {
      /* the whole run, the middle thousandth, the first millionth (the
       * window's extreme zoom reads visits) */
      /* a damaged span far out: the harness's own sums (and the frame's
       * 8 (t1 - t0), as ui/ computes it) stay in range */
      span.begin = CLAMP (span.begin, -TICKS_BOUND, TICKS_BOUND);
      span.end = CLAMP (span.end, span.begin, TICKS_BOUND);
      length = span.end - span.begin + 1;
      read_frame (store, reader, locs, metrics, span.begin, span.begin + length, VIEW_WIDTH);
      read_frame (store, reader, locs, metrics, span.begin + length / 2, span.begin + length / 2 + length / 1000 + 1,
                  VIEW_WIDTH);
      read_frame (store, reader, locs, metrics, span.begin, span.begin + length / 1000000 + 1, VIEW_WIDTH);
      read_machine (reader, locs, span.begin, span.begin + length);
    }
  read_graphs (store, &span, instances);
}
