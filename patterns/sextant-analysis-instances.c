/*
 * sextant-analysis-instances.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes the instances of a finished pattern query (a Job of
 * sextant-analysis.c): numbered in the canonical order, each checked
 * against the invariants, given its call site (sextant-analysis-sites.c)
 * and written as integers into column chunks, with the pattern's row and
 * its aggregates by location, call path and call site; a shard's, once the
 * shards have counted each location's instances (sextant-analysis-shard.c).
 */
#include "config.h"

#include "sextant-analysis-private.h"
#include "sextant-chunk-writer.h"
#include "sextant-wait-causes.h"

/* instances per chunk of pattern_instance_data */
#define INSTANCE_CHUNK_ROWS 4096

/* Instances summed by location, call path and call site */
typedef struct
{
  gint64  loc;
  gint64  path;
  gint64  site;
  gint64  severity;
  gint64  instances;
} Aggregate;

static guint
aggregate_hash (gconstpointer key)
{
  const Aggregate *a = key;

  /* unsigned: call path ids run to 2^53 (docs/schema.md) */
  guint64 h = (guint64)a->loc * 1000003u ^ (guint64)a->path * 7919u ^ (guint64)a->site;

  return (guint)(h ^ h >> 32);
}

static gboolean
aggregate_equal (gconstpointer a,
                 gconstpointer b)
{
  const Aggregate *x = a, *y = b;

  return x->loc == y->loc && x->path == y->path && x->site == y->site;
}

static void
aggregate_add (GHashTable  *aggregates,
               gint64       loc,
               gint64       path,
               gint64       site,
               gint64       severity)
{
  Aggregate key = { loc, path, site, 0, 0 };
  Aggregate *a = g_hash_table_lookup (aggregates, &key);

  if (a == NULL)
    {
      a = g_memdup2 (&key, sizeof key);
      g_hash_table_add (aggregates, a);
    }
  a->severity += severity;
  a->instances++;
}

static gboolean
insert_instance (SextantAnalysis     *self,
                 SextantPattern      *pattern,
                 SextantChunkWriter  *rows,
                 const Found         *f,
                 GHashTable          *aggregates,
                 gboolean             wait_state,
                 GError             **error)
{
  gint64 values[SEXTANT_INSTANCE_N_COLUMNS];
  gint64 site = SEXTANT_NULL;
  gint64 id;

  if ((f->visit != SEXTANT_NULL || f->example != SEXTANT_NULL) && f->path != SEXTANT_NULL)
    {
      Source *source = _sextant_analysis_call_site (self, f->scl, f->context, f->path, error);

      if (source == NULL || (source->file != NULL && !_sextant_analysis_site_id (self, source, &site, error)))
        return FALSE;
    }
  else if (f->visit != SEXTANT_NULL || f->example != SEXTANT_NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "pattern %s returned %s %" G_GINT64_FORMAT ", which does not exist",
                   sextant_pattern_get_id (pattern), f->visit != SEXTANT_NULL ? "visit" : "example_visit",
                   f->visit != SEXTANT_NULL ? f->visit : f->example);
      return FALSE;
    }

  aggregate_add (aggregates, f->loc, f->path, site, f->severity);

  values[SEXTANT_INSTANCE_SEVERITY] = f->severity;
  values[SEXTANT_INSTANCE_LOC] = f->loc;
  values[SEXTANT_INSTANCE_VISIT] = f->visit;
  values[SEXTANT_INSTANCE_REGION] = f->region;
  values[SEXTANT_INSTANCE_PATH] = f->path;
  values[SEXTANT_INSTANCE_SITE] = site;
  values[SEXTANT_INSTANCE_BEGIN] = f->begin;
  values[SEXTANT_INSTANCE_END] = f->end;
  values[SEXTANT_INSTANCE_PEER_LOC] = f->peer;
  values[SEXTANT_INSTANCE_MESSAGE] = f->message;
  values[SEXTANT_INSTANCE_COLLECTIVE] = f->collective;
  if ((id = sextant_chunk_writer_append (rows, values, error)) < 0)
    return FALSE;
  if (wait_state)
    {
      SextantWaitInterval wait = { id, f->loc, f->peer, f->begin, f->end };

      g_array_append_val (self->waits, wait);
    }

  return f->comment == NULL ||
         sextant_store_run (self->store, SEXTANT_STMT_PATTERN_NOTE, error, "it", id, f->comment);
}

/* The canonical order of a pattern's instances, which gives them their
 * ids: by location, visit, interval, peer, severity, then the rest. Both
 * the single-process analysis and the shards of a parallel one number in
 * it (the order in which a query emitted its rows depends on the plan and
 * the store), and a location's instances are consecutive in it, so a
 * shard numbers its locations' runs once it knows how many instances the
 * locations before them have (sextant-analysis-shard.c). */
static int
compare_found (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  FoundList *list = user_data;
  const Found *x = found_list_get (list, *(const guint *)a);
  const Found *y = found_list_get (list, *(const guint *)b);
  const gint64 xs[] = { x->loc, x->visit, x->begin, x->end, x->peer, x->severity, x->example, x->collective, x->message };
  const gint64 ys[] = { y->loc, y->visit, y->begin, y->end, y->peer, y->severity, y->example, y->collective, y->message };

  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    if (xs[i] != ys[i])
      return xs[i] < ys[i] ? -1 : 1;

  return g_strcmp0 (x->comment, y->comment);
}

/* @job's rows in canonical order (indexes into its found list), and the
 * runs of one location each in it (SextantInstanceRun, first unset). */
guint *
_sextant_analysis_order_found (Job     *job,
                               GArray **runs)
{
  guint *order = g_new (guint, MAX (job->found.len, 1));

  for (guint i = 0; i < job->found.len; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint)job->found.len, sizeof *order, compare_found, &job->found);

  *runs = g_array_new (FALSE, FALSE, sizeof (SextantInstanceRun));
  for (guint i = 0; i < job->found.len; i++)
    {
      gint64 loc = found_list_get (&job->found, order[i])->loc;

      if ((*runs)->len == 0 || g_array_index (*runs, SextantInstanceRun, (*runs)->len - 1).loc != loc)
        {
          SextantInstanceRun run = { loc, 0, 0 };

          g_array_append_val (*runs, run);
        }
      g_array_index (*runs, SextantInstanceRun, (*runs)->len - 1).count++;
    }

  return order;
}

/* Writes a finished job: the pattern and its instances, in @order. Their
 * ids are (the pattern's index << 32) + n: n counts from 0 in @order, or,
 * with @runs (a shard's), from each run's first. */
gboolean
_sextant_analysis_write_job (SextantAnalysis  *self,
                             Job              *job,
                             const guint      *order,
                             GArray           *runs,
                             GError          **error)
{
  SextantPattern *pattern = job->pattern;
  gint64 cpu_start = sextant_thread_cpu_usec ();
  g_autoptr(GHashTable) aggregates = NULL;
  SextantChunkWriter *rows;
  GHashTableIter iter;
  gpointer value;
  gboolean wait_state = sextant_wait_causes_is_wait_state (sextant_pattern_get_id (pattern));
  gboolean ok = TRUE;

  if (job->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&job->error));
      return FALSE;
    }

  if (!sextant_store_run (self->store, SEXTANT_STMT_PATTERN, error, "tittttttt",
                          sextant_pattern_get_id (pattern), (gint64)job->index,
                          sextant_pattern_get_title (pattern), sextant_pattern_get_parent (pattern),
                          sextant_pattern_get_description (pattern), sextant_pattern_get_criterion (pattern),
                          sextant_pattern_get_comment (pattern), sextant_pattern_get_origin (pattern),
                          job->described))
    return FALSE;

  aggregates = g_hash_table_new_full (aggregate_hash, aggregate_equal, g_free, NULL);
  rows = sextant_chunk_writer_new (self->store, SEXTANT_CHUNK_PATTERN_INSTANCE, SEXTANT_INSTANCE_N_COLUMNS,
                                   (gint64)job->index << 32, INSTANCE_CHUNK_ROWS);
  for (guint i = 0, run = 0, left = 0; ok && i < job->found.len; i++)
    {
      Found *f = found_list_get (&job->found, order[i]);

      /* a shard's next location: its instances' ids go on from the count
       * of the instances on the locations before it, on every shard */
      if (runs != NULL && left == 0)
        {
          const SextantInstanceRun *r = &g_array_index (runs, SextantInstanceRun, run++);

          if (!(ok = sextant_chunk_writer_flush (rows, error)))
            break;
          sextant_chunk_writer_restart (rows, ((gint64)job->index << 32) + r->first);
          left = r->count;
        }
      if (runs != NULL)
        left--;

      /* single-row writes are too short for SQLite to notice a
       * cancellation: a pattern with a million instances checks itself */
      if (i % INSTANCE_CHUNK_ROWS == 0 && sextant_store_set_error_if_cancelled (self->store, error))
        ok = FALSE;
      else
        ok = sextant_invariants_check_instance (self->invariants, sextant_pattern_get_id (pattern), f->loc,
                                                f->visit, f->enter, f->leave, &f->severity, &f->begin, &f->end,
                                                error) &&
             insert_instance (self, pattern, rows, f, aggregates, wait_state, error);
    }
  ok = ok && sextant_chunk_writer_flush (rows, error);
  sextant_chunk_writer_free (rows);

  g_hash_table_iter_init (&iter, aggregates);
  while (ok && g_hash_table_iter_next (&iter, &value, NULL))
    {
      const Aggregate *a = value;
      const char *callpath = NULL;
      const Source *site = NULL;

      if (!_sextant_analysis_path_name (self, a->path, &callpath, error))
        return FALSE;
      if (a->site != SEXTANT_NULL)
        site = g_ptr_array_index (self->site_sources, a->site - 1);
      ok = sextant_store_run (self->store, SEXTANT_STMT_PATTERN_AGGREGATE, error, "tittnttii",
                              sextant_pattern_get_id (pattern), a->loc, callpath,
                              site != NULL ? site->file : NULL, site != NULL ? site->line : SEXTANT_NULL,
                              _sextant_analysis_site_kind_name (site != NULL ? site->kind : SEXTANT_SITE_NONE),
                              site != NULL ? site->function : NULL, a->severity, a->instances);
    }

  g_debug ("pattern %s: %u instances written, %.3f s CPU", sextant_pattern_get_id (pattern), job->found.len,
           (sextant_thread_cpu_usec () - cpu_start) / (double)G_USEC_PER_SEC);

  return ok;
}

/* A shard's jobs, once all are done: the shards tell each other how many
 * instances each location has, then each writes its own with the ids they
 * have in the canonical order over all locations. Every shard takes part
 * in the count, failed (@ok FALSE, @error set) or not. */
gboolean
_sextant_analysis_write_shard_jobs (SextantAnalysis  *self,
                                    Job             **jobs,
                                    guint             n_jobs,
                                    gboolean          ok,
                                    GCancellable     *cancellable,
                                    GError          **error)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr(GPtrArray) orders = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n_jobs; i++)
    {
      GArray *job_runs = NULL;

      g_ptr_array_add (orders, _sextant_analysis_order_found (jobs[i], &job_runs));
      g_ptr_array_add (runs, job_runs);
    }
  ok = _sextant_analysis_shard_number (self, runs, !ok, ok ? error : NULL) && ok;

  for (guint i = 0; ok && i < n_jobs; i++)
    {
      ok = !g_cancellable_set_error_if_cancelled (cancellable, error) &&
           _sextant_analysis_write_job (self, jobs[i], g_ptr_array_index (orders, i), g_ptr_array_index (runs, i),
                                        error);
      if (ok && self->progress != NULL)
        self->progress ((double)(i + 1) / n_jobs, sextant_pattern_get_id (jobs[i]->pattern), self->progress_data);
    }

  return ok;
}
