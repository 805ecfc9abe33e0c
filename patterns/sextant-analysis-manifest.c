/*
 * sextant-analysis-manifest.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An analysis of a manifest on one machine (`sextant analyze MANIFEST`,
 * docs/parallel.md "Analysis"): a thread per shard runs the shard's part
 * (sextant-analysis-shard.c) on the shard's store, the threads meeting in
 * memory (SextantShareHub) for the steps that `sextant-mpi analyze` takes
 * over MPI; then
 * the shards' summaries are merged into the manifest.
 */
#include "config.h"

#include <string.h>

#include "sextant-analysis-private.h"
#include "sextant-manifest-lock.h"
#include "sextant-share-hub.h"
#include "sextant-store-shard-analysis.h"
#include "sextant-store-shards.h"

typedef struct
{
  SextantAnalysis *analysis;
  GCancellable    *cancellable;
  gboolean         ok;
  GError          *error;
} Shard;

static gpointer
run_shard (gpointer data)
{
  Shard *shard = data;

  shard->ok = sextant_analysis_run (shard->analysis, shard->cancellable, &shard->error);

  return NULL;
}

/* A shard's analysis, configured as @self is */
static SextantAnalysis *
shard_analysis (SextantAnalysis  *self,
                const char       *path,
                GError          **error)
{
  g_autoptr(SextantStore) store = sextant_store_open (path, error);
  g_autoptr(SextantAnalysis) analysis = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (store == NULL)
    return NULL;
  analysis = sextant_analysis_new (store, self->patterns);
  g_hash_table_iter_init (&iter, self->overrides);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_replace (analysis->overrides, g_strdup (key), g_memdup2 (value, sizeof (double)));
  for (guint i = 0; self->selection != NULL && i < self->selection->len; i++)
    if (!sextant_analysis_select (analysis, g_ptr_array_index (self->selection, i), error))
      return NULL;

  return g_steal_pointer (&analysis);
}

static void
forward_progress (double      fraction,
                  const char *pattern_id,
                  gpointer    user_data)
{
  SextantAnalysis *self = user_data;

  self->progress (fraction, pattern_id, self->progress_data);
}

/**
 * _sextant_analysis_run_manifest:
 *
 * The run of sextant_analysis_run() on a manifest: every shard analysed at
 * once, each by a thread, then the summaries merged into the manifest
 * (cleared when a shard failed). The progress is the first shard's. The
 * manifest's lock is held throughout (another analysis of it fails with
 * %SEXTANT_TRACE_ERROR_BUSY), and the manifest marked from the first write
 * into a shard until it records them anew (readers refuse it meanwhile,
 * and after a kill until an analysis ran again).
 */
gboolean
_sextant_analysis_run_manifest (SextantAnalysis  *self,
                                GCancellable     *cancellable,
                                GError          **error)
{
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GPtrArray) locations = NULL;
  g_autofree Shard *shards = NULL;
  g_autofree GThread **threads = NULL;
  g_autoptr(SextantShareHub) hub = NULL;
  g_autoptr(SextantManifestLock) lock = NULL;
  gboolean all_ok = TRUE;
  gboolean first_stopped = FALSE;
  guint n;
  SextantStepClock clock;

  if (!(lock = sextant_manifest_lock_take (self->store, error)) ||
      !(paths = g_ptr_array_ref (sextant_manifest_lock_get_shards (lock))) ||   /* checked under the lock */
      !(locations = sextant_store_list_shard_locations (self->store, error)))
    return FALSE;
  n = paths->len;
  if (locations->len != n || n == 0)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "%s: the manifest names %u shards and the locations of %u", sextant_store_get_path (self->store),
                   n, locations->len);
      return FALSE;
    }

  shards = g_new0 (Shard, n);
  hub = sextant_share_hub_new (n);
  for (guint r = 0; r < n; r++)
    {
      shards[r].cancellable = cancellable;
      if (!(shards[r].analysis = shard_analysis (self, g_ptr_array_index (paths, r), error)))
        {
          for (guint k = 0; k < r; k++)
            g_object_unref (shards[k].analysis);
          return FALSE;
        }
      sextant_analysis_set_shard (shards[r].analysis, r, n, g_ptr_array_index (locations, r),
                                  sextant_share_hub_exchange, sextant_share_hub_get_rank (hub, r));
    }
  if (self->progress != NULL)
    sextant_analysis_set_progress_func (shards[0].analysis, forward_progress, self, NULL);

  /* from here the shards change until the manifest records them anew */
  if (!sextant_store_mark_analysis (self->store, error))
    {
      for (guint r = 0; r < n; r++)
        g_object_unref (shards[r].analysis);
      return FALSE;
    }
  threads = g_new0 (GThread *, n);
  for (guint r = 0; r < n; r++)
    threads[r] = g_thread_new ("sextant-shard", run_shard, &shards[r]);
  for (guint r = 0; r < n; r++)
    g_thread_join (threads[r]);

  /* the first shard that failed for a reason of its own (the others
   * stopped because it did) */
  for (guint r = 0; r < n; r++)
    if (!shards[r].ok)
      {
        gboolean own = strstr (shards[r].error->message, ": stopped at ") == NULL;

        if (all_ok || (own && first_stopped))
          {
            g_clear_error (error);
            g_propagate_prefixed_error (error, g_steal_pointer (&shards[r].error), "%s: ",
                                        (const char *)g_ptr_array_index (paths, r));
            first_stopped = !own;
          }
        all_ok = FALSE;
      }
  for (guint r = 0; r < n; r++)
    {
      g_clear_error (&shards[r].error);
      g_object_unref (shards[r].analysis);
    }

  /* the manifest: the merged summary, or none when a shard failed; the
   * shards' sizes and times anew either way (the analysis changed them) */
  if (!all_ok)
    {
      sextant_store_merge_shard_analyses (self->store, FALSE, NULL);
      return FALSE;
    }

  sextant_step_clock_start (&clock);
  all_ok = sextant_store_merge_shard_analyses (self->store, TRUE, error);
  sextant_step_clock_lap (&clock, "the shards' summaries merged into the manifest");

  return all_ok;
}
