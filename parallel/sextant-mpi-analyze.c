/*
 * sextant-mpi-analyze.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ranks' analysis of a manifest (sextant-mpi-analyze.h). Each rank
 * opens its shard and runs its part (patterns/sextant-analysis-shard.c),
 * whose two steps among the shards go over MPI through the import's
 * exchange; a rank that cannot start takes part in them failed. The ranks
 * then agree on the outcome and rank 0 writes the manifest's summary (or
 * clears it when a shard failed: the manifest is then not analysed).
 */
#include "config.h"

#include "sextant-analysis.h"
#include "sextant-manifest-lock.h"
#include "sextant-mpi-analyze.h"
#include "sextant-store-private.h"
#include "sextant-store-shard-analysis.h"
#include "sextant-store-shards.h"

/* This rank's analysis of its shard, configured; NULL with @error set */
static SextantAnalysis *
shard_analysis (SextantShardExchange  *exchange,
                SextantStore          *store,
                const char            *manifest,
                char                 **patterns,
                char                 **params,
                GArray               **locations,
                GError               **error)
{
  guint rank = sextant_shard_exchange_get_rank (exchange);
  guint n = sextant_shard_exchange_get_size (exchange);
  g_autoptr(SextantStore) shard = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  g_autoptr(GPtrArray) lists = NULL;
  g_autoptr(SextantPatternSet) set = NULL;
  g_autoptr(SextantAnalysis) analysis = NULL;

  if (!(paths = sextant_store_list_shards_unchecked (store, error)) ||   /* rank 0 checked them, locked */
      !(lists = sextant_store_list_shard_locations (store, error)))
    return NULL;
  if (paths->len != n || lists->len != n)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_ARGUMENT,
                   "%s has %u shards: run sextant-mpi analyze on %u ranks (mpirun -np %u), not %u", manifest,
                   paths->len, paths->len, paths->len, n);
      return NULL;
    }
  if (!(set = sextant_pattern_set_new_default (error)) ||
      !(shard = sextant_store_open (g_ptr_array_index (paths, rank), error)))
    return NULL;

  analysis = sextant_analysis_new (shard, set);
  for (guint i = 0; params != NULL && params[i] != NULL; i++)
    if (!sextant_analysis_set_param (analysis, params[i], error))
      return NULL;
  for (guint i = 0; patterns != NULL && patterns[i] != NULL; i++)
    if (!sextant_analysis_select (analysis, patterns[i], error))
      return NULL;
  *locations = g_array_ref (g_ptr_array_index (lists, rank));

  return g_steal_pointer (&analysis);
}

gboolean
sextant_mpi_analyze (SextantShardExchange  *exchange,
                     const char            *manifest,
                     char                 **patterns,
                     char                 **params,
                     GError               **error)
{
  guint rank = sextant_shard_exchange_get_rank (exchange);
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantAnalysis) analysis = NULL;
  g_autoptr(GArray) locations = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(SextantManifestLock) lock = NULL;
  SextantImportShare share;
  int locked;
  gboolean all_ok = FALSE;
  int done = 0;

  sextant_shard_exchange_init_share (exchange, &share);
  /* rank 0 keeps the manifest open to write it at the end, when its
   * shards have changed, and holds its lock (another analysis of it would
   * write into the same shards) and, under it, checks the shards (as
   * recorded, or as an analysis that did not finish left them: the
   * others open the manifest unchecked) and marks the manifest until it
   * records them anew; the others start only once it has it, else abandon
   * with no error of their own (rank 0 says why) */
  store = sextant_store_open_unchecked (manifest, &local_error);
  if (rank == 0 && store != NULL && (lock = sextant_manifest_lock_take (store, &local_error)) != NULL &&
      !sextant_store_mark_analysis (store, &local_error))
    g_clear_pointer (&lock, sextant_manifest_lock_release);
  locked = rank != 0 || lock != NULL;
  sextant_shard_exchange_bcast (exchange, &locked, 1, MPI_INT);
  if (locked && store != NULL &&
      (analysis = shard_analysis (exchange, store, manifest, patterns, params, &locations, &local_error)) != NULL)
    {
      sextant_analysis_set_shard (analysis, rank, share.n_ranks, locations, share.exchange, share.user_data);
      sextant_analysis_run (analysis, NULL, &local_error);
    }
  else
    sextant_analysis_abandon_shard (rank, share.n_ranks, share.exchange, share.user_data);
  g_clear_object (&analysis);     /* the shard closed before rank 0 records it */
  if (rank != 0)
    g_clear_object (&store);
  messages = sextant_shard_exchange_gather_errors (exchange, local_error, &all_ok);

  if (rank == 0)
    {
      /* the shards changed: the manifest records them anew, with the
       * merged summary or, when a shard failed, none; unless another
       * analysis holds them (the manifest is that one's to write) */
      g_clear_error (&local_error);
      done = store != NULL && locked &&
             sextant_store_merge_shard_analyses (store, all_ok, all_ok ? &local_error : NULL) && all_ok;
      if (!locked)
        sextant_shard_exchange_set_failures (messages, "the parallel analysis did not start:", error);
      else if (!all_ok)
        sextant_shard_exchange_set_failures (messages, "the parallel analysis failed; the manifest is not "
                                             "analysed:", error);
      else if (!done)
        g_propagate_error (error, g_steal_pointer (&local_error));
    }
  sextant_shard_exchange_bcast (exchange, &done, 1, MPI_INT);
  if (!done && rank != 0)
    g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                 "rank %u: the parallel analysis failed (rank 0 reports why)", rank);

  return done != 0;
}
