/*
 * sextant-mpi-import.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A parallel import (sextant-mpi-import.h): the temporary directory, the
 * shards, the agreement on the outcome, the manifest, and the moves that
 * put them in place.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "sextant-importer.h"
#include "sextant-mpi-import.h"
#include "sextant-store-private.h"
#include "sextant-store-shards.h"

#define PATH_BYTES 4096

/* Removes a directory and the files in it (a shard directory has no
 * subdirectories). */
static void
remove_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (path, name, NULL);

      g_unlink (file);
    }
  g_rmdir (path);
}

/* The temporary directories of imports into @manifest that were killed */
static void
remove_stale_temporaries (const char *manifest)
{
  g_autofree char *dir_name = g_path_get_dirname (manifest);
  g_autofree char *base = g_path_get_basename (manifest);
  g_autofree char *prefix = g_strconcat (base, ".tmp-", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_name, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix))
      {
        g_autofree char *path = g_build_filename (dir_name, name, NULL);

        if (g_file_test (path, G_FILE_TEST_IS_DIR))
          remove_dir (path);
        else
          g_unlink (path);
      }
}

/* Rank 0 makes the temporary directory and tells the others its name
 * ("" when it could not). */
static char *
share_temporary_dir (SextantShardExchange  *exchange,
                     const char            *manifest,
                     GError               **error)
{
  char path[PATH_BYTES] = "";
  int errsv = 0;

  if (sextant_shard_exchange_get_rank (exchange) == 0)
    {
      g_autofree char *tmp = g_strconcat (manifest, ".tmp-XXXXXX", NULL);

      remove_stale_temporaries (manifest);
      if (strlen (tmp) >= sizeof path)
        errsv = ENAMETOOLONG;
      else if (g_mkdtemp_full (tmp, 0755) == NULL)
        errsv = errno;
      else
        g_strlcpy (path, tmp, sizeof path);
    }
  sextant_shard_exchange_bcast (exchange, path, sizeof path, MPI_CHAR);
  if (path[0] == '\0')
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "%s: cannot create the directory of the shards: %s", manifest,
                   errsv != 0 ? g_strerror (errsv) : "rank 0 could not");
      return NULL;
    }

  return g_strdup (path);
}

static char *
shard_name (guint rank)
{
  return g_strdup_printf ("rank-%05u.sextant", rank);
}

/* This rank's shard, into @path. */
static gboolean
import_shard (SextantShardExchange  *exchange,
              const char            *archive,
              const char            *path,
              GArray               **locations,
              GError               **error)
{
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, path);
  g_autofree char *spill_path = g_strconcat (path, ".halves", NULL);
  SextantImportShare share;

  sextant_shard_exchange_init_share (exchange, &share);
  share.spill_path = spill_path;
  sextant_importer_set_share (importer, &share);
  if (!g_file_set_contents (path, "", 0, error) ||
      !sextant_importer_run_into (importer, path, NULL, error))
    return FALSE;
  *locations = g_array_ref (sextant_importer_get_share_locations (importer));

  return TRUE;
}

/* Every rank's shard span at rank 0 (SextantShardSpan by rank, %NULL
 * elsewhere): each rank read its own, beside the others, where rank 0
 * opened every shard in turn (4 ms of CPU a shard: 4 s at 1024 ranks).
 * A rank without a span (its import failed) sends an empty one. */
static SextantShardSpan *
gather_spans (MPI_Comm                 comm,
              guint                    rank,
              guint                    n_ranks,
              const SextantShardSpan  *mine)
{
  gint64 head[4] = { mine->events, mine->begin, mine->end,
                     mine->locations != NULL ? (gint64)strlen (mine->locations) + 1 : 0 };
  g_autofree gint64 *heads = rank == 0 ? g_new (gint64, 4 * (gsize)n_ranks) : NULL;
  g_autofree int *counts = rank == 0 ? g_new0 (int, n_ranks) : NULL;
  g_autofree int *offsets = rank == 0 ? g_new0 (int, n_ranks) : NULL;
  g_autofree char *text = NULL;
  SextantShardSpan *spans = NULL;
  gsize total = 0;

  MPI_Gather (head, 4, MPI_INT64_T, heads, 4, MPI_INT64_T, 0, comm);
  for (guint r = 0; rank == 0 && r < n_ranks; r++)
    {
      offsets[r] = (int)total;
      counts[r] = (int)heads[4 * r + 3];
      total += (gsize)counts[r];
    }
  text = rank == 0 ? g_malloc (MAX (total, 1)) : NULL;
  MPI_Gatherv (mine->locations != NULL ? mine->locations : "", (int)head[3], MPI_CHAR,
               text, counts, offsets, MPI_CHAR, 0, comm);
  if (rank != 0)
    return NULL;

  spans = g_new0 (SextantShardSpan, MAX (n_ranks, 1));
  for (guint r = 0; r < n_ranks; r++)
    {
      spans[r].events = heads[4 * r];
      spans[r].begin = heads[4 * r + 1];
      spans[r].end = heads[4 * r + 2];
      spans[r].locations = counts[r] > 0 ? g_strndup (text + offsets[r], (gsize)counts[r]) : g_strdup ("[]");
    }

  return spans;
}

static void
free_spans (SextantShardSpan *spans,
            guint             n)
{
  for (guint r = 0; spans != NULL && r < n; r++)
    sextant_shard_span_clear (&spans[r]);
  g_free (spans);
}

/* Rank 0: the definitions into the manifest at @path, copied from its
 * own shard @shard0 (every shard holds them whole: reading the archive's
 * definitions again cost as much), and the shards of @dir named in it,
 * with the @spans their ranks read. */
static gboolean
write_manifest (const char              *shard0,
                const char              *path,
                const char              *dir,
                const char              *prefix,
                GPtrArray               *locations,
                const SextantShardSpan  *spans,
                GError                 **error)
{
  g_autoptr(GPtrArray) shards = g_ptr_array_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree SextantShardInfo *infos = g_new0 (SextantShardInfo, MAX (locations->len, 1));
  g_autoptr(SextantStore) created = NULL;
  g_autoptr(SextantStore) store = NULL;

  if (!(created = sextant_store_create (path, error)) ||
      !sextant_store_copy_definitions (created, shard0, error) ||
      !sextant_store_finish_load (created, error) ||
      !sextant_store_close (created, error))
    return FALSE;

  for (guint r = 0; r < locations->len; r++)
    {
      infos[r].name = shard_name (r);
      infos[r].locations = g_ptr_array_index (locations, r);
      infos[r].span = &spans[r];
      g_ptr_array_add (names, infos[r].name);
      g_ptr_array_add (shards, &infos[r]);
    }

  return (store = sextant_store_open (path, error)) != NULL &&
         sextant_store_add_shards (store, dir, prefix, shards, error) &&
         sextant_store_close (store, error);
}

/* Rank 0: the shards' directory and the manifest take their places; an
 * older import at the same name goes. */
static gboolean
move_into_place (const char  *tmp_dir,
                 const char  *tmp_manifest,
                 const char  *manifest,
                 GError     **error)
{
  g_autofree char *shards_dir = g_strconcat (manifest, ".shards", NULL);
  g_autofree char *moved_manifest = g_strconcat (tmp_dir, ".manifest", NULL);
  g_autofree char *old_dir = g_strconcat (tmp_dir, ".old", NULL);
  gboolean had_old = g_file_test (shards_dir, G_FILE_TEST_IS_DIR);

  if (g_rename (tmp_manifest, moved_manifest) != 0 ||
      (had_old && g_rename (shards_dir, old_dir) != 0) ||
      g_rename (tmp_dir, shards_dir) != 0 ||
      g_rename (moved_manifest, manifest) != 0)
    {
      int errsv = errno;

      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "%s: cannot move the finished import into place: %s", manifest, g_strerror (errsv));
      g_unlink (moved_manifest);
      return FALSE;
    }
  if (had_old)
    remove_dir (old_dir);

  return TRUE;
}

gboolean
sextant_mpi_import (SextantShardExchange  *exchange,
                    MPI_Comm               comm,
                    const char            *archive,
                    const char            *manifest,
                    GError               **error)
{
  guint rank = sextant_shard_exchange_get_rank (exchange);
  g_autofree char *abs_manifest = g_canonicalize_filename (manifest, NULL);
  g_autofree char *tmp_dir = NULL;
  g_autofree char *name = shard_name (rank);
  g_autofree char *path = NULL;
  g_autoptr(GArray) locations = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GPtrArray) lists = NULL;
  g_auto(SextantShardSpan) span = { 0, 0, 0, NULL };
  SextantShardSpan *spans = NULL;
  gboolean all_ok = FALSE;
  int done = 0;

  if (!(tmp_dir = share_temporary_dir (exchange, abs_manifest, error)))
    return FALSE;
  path = g_build_filename (tmp_dir, name, NULL);

  if (!import_shard (exchange, archive, path, &locations, &local_error))
    sextant_shard_exchange_abandon (exchange);
  else
    sextant_store_read_shard_span (path, &span, &local_error);
  messages = sextant_shard_exchange_gather_errors (exchange, local_error, &all_ok);
  lists = sextant_shard_exchange_gather_locations (exchange, locations);
  spans = gather_spans (comm, rank, sextant_shard_exchange_get_size (exchange), &span);

  if (all_ok && rank == 0)
    {
      g_autofree char *tmp_manifest = g_build_filename (tmp_dir, "manifest.sextant", NULL);
      g_autofree char *base = g_path_get_basename (abs_manifest);
      g_autofree char *prefix = g_strconcat (base, ".shards", NULL);

      gint64 start_usec = g_get_monotonic_time ();
      gint64 start_cpu = sextant_thread_cpu_usec ();

      g_clear_error (&local_error);
      done = write_manifest (path, tmp_manifest, tmp_dir, prefix, lists, spans, &local_error) &&
             move_into_place (tmp_dir, tmp_manifest, abs_manifest, &local_error);
      g_debug ("rank 0 wrote the manifest of %u shard(s): %.3f s (%.3f s of CPU)", lists->len,
               (g_get_monotonic_time () - start_usec) / 1e6, (sextant_thread_cpu_usec () - start_cpu) / 1e6);
    }
  free_spans (spans, sextant_shard_exchange_get_size (exchange));
  sextant_shard_exchange_bcast (exchange, &done, 1, MPI_INT);
  if (done)
    return TRUE;

  /* nothing stays: each rank its shard, then rank 0 the directory */
  sextant_store_remove_files (path);
  sextant_shard_exchange_barrier (exchange);
  if (rank != 0)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "rank %u: the parallel import failed (rank 0 reports why)", rank);
      return FALSE;
    }
  remove_dir (tmp_dir);
  if (!all_ok)
    sextant_shard_exchange_set_failures (messages, "the parallel import failed; nothing was written:", error);
  else
    g_propagate_error (error, g_steal_pointer (&local_error));

  return FALSE;
}
