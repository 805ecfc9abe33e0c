/*
 * sextant-analysis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs pattern queries and turns their rows into pattern instances: the
 * queries and the run are here, the writing of a query's instances in
 * sextant-analysis-instances.c.
 *
 * A pattern query returns one row per instance with at least the columns
 * `loc` (location.id) and `severity` (ticks lost), and optionally `visit`
 * (the call that lost the time) or `example_visit` (a statistic's: a call
 * that shows where, not charged), `begin`, `end`, `peer_loc`, `message`,
 * `collective` and `comment` (and, when it read them already, its visit's
 * context as `sextant_path`, `sextant_region`, `sextant_scl`,
 * `sextant_context`, `sextant_enter` and `sextant_leave`; else the store
 * joins them on). This file adds what a user needs to act on an
 * instance: the call path and region of the visit, and the source file and
 * line of the call (its call-site attribute, else its calling context, else
 * the definition of the enclosing region). The comment is the pattern's
 * template, filled in when the instance is read (the pattern_instance view).
 * Every instance is checked against the invariants of
 * sextant-invariants.c (none charges a call more than it lasted) before
 * it is written.
 * Once every pattern is written, the wait states among the instances are
 * judged direct or propagated and their root causes found
 * (graph/sextant-wait-causes.c, the wait_state table), in the same
 * transaction.
 *
 * Threads: the queries run on one worker per core (at most 4), each on a
 * connection of its own that it keeps (its cache of decoded chunks serves
 * its next queries), while the thread
 * that runs the analysis clears the previous one and writes the instances
 * of the queries done, inside one transaction, in the order the queries
 * started (a query's once those before it are written: the sites are then
 * numbered alike from run to run). The queries start the heaviest first
 * (those over the messages, then over the collectives); a shared view is computed once, by the first worker whose
 * query reads it, and read by every worker from its chunks in memory
 * (SextantSharedViews); a worker starts another query while a view it
 * needs is being computed (Schedule). Every connection follows one cancellable: the
 * caller's, chained, which the run also cancels itself when a pattern
 * fails, so the queries still running stop.
 *
 * Workload: a pattern can have hundreds of thousands of instances. The
 * visit's call path, region and call-site ids come with each row (the store
 * joins them onto the query); file and line are looked up once per source
 * code location, calling context or call path and cached, and an instance
 * is written as integers into column chunks.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "sextant-analysis-private.h"
#include "sextant-invariants.h"
#include "sextant-store-private.h"
#include "sextant-wait-causes.h"

G_DEFINE_FINAL_TYPE (SextantAnalysis, sextant_analysis, G_TYPE_OBJECT)

static void
sextant_analysis_finalize (GObject *object)
{
  SextantAnalysis *self = (SextantAnalysis *)object;

  g_clear_object (&self->store);
  g_clear_object (&self->patterns);
  g_clear_pointer (&self->overrides, g_hash_table_unref);
  g_clear_pointer (&self->selected, g_hash_table_unref);
  g_clear_pointer (&self->selection, g_ptr_array_unref);
  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  g_clear_pointer (&self->scl_sources, g_hash_table_unref);
  g_clear_pointer (&self->ctx_sources, g_hash_table_unref);
  g_clear_pointer (&self->path_sources, g_hash_table_unref);
  g_clear_pointer (&self->region_sources, g_hash_table_unref);
  g_clear_pointer (&self->sites, g_hash_table_unref);
  g_clear_pointer (&self->site_sources, g_ptr_array_unref);
  g_clear_pointer (&self->path_names, g_hash_table_unref);
  g_clear_pointer (&self->waits, g_array_unref);
  g_clear_pointer (&self->invariants, sextant_invariants_free);
  g_clear_pointer (&self->shard, _sextant_analysis_shard_free);

  G_OBJECT_CLASS (sextant_analysis_parent_class)->finalize (object);
}

static void
sextant_analysis_class_init (SextantAnalysisClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sextant_analysis_finalize;
}

static void
sextant_analysis_init (SextantAnalysis *self)
{
  self->overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

SextantAnalysis *
sextant_analysis_new (SextantStore      *store,
                      SextantPatternSet *patterns)
{
  SextantAnalysis *self;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);
  g_return_val_if_fail (SEXTANT_IS_PATTERN_SET (patterns), NULL);

  self = g_object_new (SEXTANT_TYPE_ANALYSIS, NULL);
  self->store = g_object_ref (store);
  self->patterns = g_object_ref (patterns);

  return self;
}

gboolean
_sextant_analysis_is_selected (SextantAnalysis *self,
                               SextantPattern  *pattern)
{
  if (self->selected == NULL)
    return TRUE;

  if (g_hash_table_contains (self->selected, sextant_pattern_get_id (pattern)))
    return TRUE;

  /* one of its ancestors, patterns or groups */
  for (const char *up = sextant_pattern_get_parent (pattern); up != NULL;
       up = sextant_pattern_set_get_parent_of (self->patterns, up))
    if (g_hash_table_contains (self->selected, up))
      return TRUE;

  return FALSE;
}

/* Running a pattern ---------------------------------------------------------- */

static Found *
found_list_append (FoundList *list)
{
  if (list->len == list->blocks->len * FOUND_BLOCK_ROWS)
    {
      Found *block = g_async_queue_try_pop (list->pool);

      g_ptr_array_add (list->blocks, block != NULL ? block : g_new (Found, FOUND_BLOCK_ROWS));
    }

  list->len++;

  return found_list_get (list, list->len - 1);
}

/* Frees the comments and gives the blocks back to the pool, which keeps
 * FOUND_POOL_BLOCKS (the instances of a pattern of 65,000 instances) and
 * frees the others: the workers' queries of the next patterns reuse them,
 * and a pattern of several hundred thousand instances does not hold its
 * blocks after it is written. */
static void
found_list_clear (FoundList *list)
{
  for (guint i = 0; i < list->len; i++)
    g_free (found_list_get (list, i)->comment);
  for (guint b = 0; b < list->blocks->len; b++)
    if (g_async_queue_length (list->pool) < FOUND_POOL_BLOCKS)
      g_async_queue_push (list->pool, g_ptr_array_index (list->blocks, b));
    else
      g_free (g_ptr_array_index (list->blocks, b));
  g_ptr_array_set_size (list->blocks, 0);
  list->len = 0;
}

typedef struct _Schedule Schedule;

static void
job_free (Job *job)
{
  g_clear_object (&job->pattern);
  g_clear_pointer (&job->bound, g_hash_table_unref);
  if (job->found.blocks != NULL)
    {
      found_list_clear (&job->found);
      g_ptr_array_unref (job->found.blocks);
    }
  g_clear_pointer (&job->found.pool, g_async_queue_unref);
  g_clear_error (&job->error);
  g_free (job->described);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Job, job_free)

static const char * const columns[] = {
  "loc", "severity", "visit", "begin", "end", "peer_loc", "message", "collective", "comment",
  "sextant_scl", "sextant_context", "sextant_path", "sextant_region", "sextant_enter", "sextant_leave",
  "example_visit",
};

G_STATIC_ASSERT (G_N_ELEMENTS (columns) == G_N_ELEMENTS (((Job *)NULL)->col));

static gint64
opt_int (const SextantRow *row,
         int               col)
{
  if (col < 0 || sextant_row_is_null (row, col))
    return SEXTANT_NULL;

  return sextant_row_get_int (row, col);
}

static char *
opt_text (const SextantRow *row,
          int               col)
{
  if (col < 0 || sextant_row_is_null (row, col))
    return NULL;

  return g_strdup (sextant_row_get_text (row, col));
}

static gboolean
collect_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  Job *job = user_data;
  Found *found;
  gint64 loc;

  if (job->col[0] < 0)
    for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
      job->col[i] = sextant_row_find_column (row, columns[i]);

  /* a shard keeps the instances charged to its own locations: a message
   * or collective it shares with another shard is charged there once */
  loc = sextant_row_get_int (row, job->col[0]);
  if (job->own != NULL && !g_hash_table_contains (job->own, &loc))
    return TRUE;
  found = found_list_append (&job->found);
  found->loc = loc;
  found->severity = sextant_row_get_int (row, job->col[1]);
  found->visit = opt_int (row, job->col[2]);
  found->begin = opt_int (row, job->col[3]);
  found->end = opt_int (row, job->col[4]);
  found->peer = opt_int (row, job->col[5]);
  found->message = opt_int (row, job->col[6]);
  found->collective = opt_int (row, job->col[7]);
  found->comment = opt_text (row, job->col[8]);
  found->scl = opt_int (row, job->col[9]);
  found->context = opt_int (row, job->col[10]);
  found->path = opt_int (row, job->col[11]);
  found->region = opt_int (row, job->col[12]);
  found->enter = opt_int (row, job->col[13]);
  found->leave = opt_int (row, job->col[14]);
  found->example = opt_int (row, job->col[15]);

  return TRUE;
}

/* Runs @job's query on @store, the worker's connection (opened on its
 * first job; kept, with its cache of decoded chunks, for its next jobs),
 * which reads the shared views of @views. */
static void
run_job (Job                 *job,
         SextantStore       **store,
         const char          *store_path,
         SextantSharedViews  *views,
         GCancellable        *cancellable)
{
  static const char * const required[] = { "loc", "severity", NULL };
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  gint64 cpu_start = sextant_thread_cpu_usec ();
  gint64 views_cpu = 0;

  if (*store == NULL && (*store = sextant_store_open (store_path, &error)) != NULL)
    {
      sextant_store_set_cancellable (*store, cancellable);
      sextant_store_set_shared_views (*store, views);
    }
  if (*store != NULL && sextant_store_materialize_views (*store, sextant_pattern_get_sql (job->pattern), &error))
    views_cpu = sextant_thread_cpu_usec () - cpu_start;
  if (*store == NULL || error != NULL ||
      !sextant_store_run_query (*store, sextant_pattern_get_sql (job->pattern), job->bound, required, TRUE,
                                collect_row, job, &error))
    job->error = g_error_new (error->domain, error->code, "pattern %s (%s): %s",
                              sextant_pattern_get_id (job->pattern), sextant_pattern_get_origin (job->pattern),
                              error->message);

  /* the CPU of the shared views this query copied first, if any, is part
   * of the query's */
  g_debug ("pattern %s: query %.3f s (%.3f s CPU, shared views %.3f s), %u instances",
           sextant_pattern_get_id (job->pattern), (g_get_monotonic_time () - start) / (double)G_USEC_PER_SEC,
           (sextant_thread_cpu_usec () - cpu_start) / (double)G_USEC_PER_SEC, views_cpu / (double)G_USEC_PER_SEC,
           job->found.len);
}

/* The run's queries, handed to the workers. A shared view is computed by
 * the first worker that runs a query reading it and then read by all
 * (SextantSharedViews). A worker takes the first job of @pending, in their
 * order, whose views are done or nobody's yet (it will compute them);
 * when every job left needs a view another worker is computing, the first
 * of them (it waits for the view). When none is left, it stops. */
struct _Schedule
{
  GMutex              lock;
  GPtrArray          *pending;     /* Job*, in the order they should start */
  guint               claimed;     /* the fills a worker took a job for */
  SextantSharedViews *views;
  GAsyncQueue        *results;     /* Job*, done */
  char               *store_path;
  GCancellable       *cancellable; /* the run's: every connection follows it */
};

/* The next job for @worker, or NULL when none is left. */
static Job *
schedule_next (Schedule *schedule)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&schedule->lock);
  guint busy = schedule->claimed & ~sextant_shared_views_get_ready (schedule->views);
  guint pick = 0;
  Job *job;

  if (schedule->pending->len == 0)
    return NULL;
  for (guint i = 0; i < schedule->pending->len; i++)
    if (!(((Job *)g_ptr_array_index (schedule->pending, i))->views & busy))
      {
        pick = i;
        break;
      }
  job = g_ptr_array_steal_index (schedule->pending, pick);
  schedule->claimed |= job->views;

  return job;
}

/* A worker thread: runs jobs on a connection of its own until none is left
 * for it. */
static void
run_worker_jobs (gpointer data,
                 gpointer user_data)
{
  Schedule *schedule = user_data;
  g_autoptr(SextantStore) store = NULL;
  Job *job;

  while ((job = schedule_next (schedule)) != NULL)
    {
      run_job (job, &store, schedule->store_path, schedule->views, schedule->cancellable);
      g_async_queue_push (schedule->results, job);
    }
}

/* How much a query reads, roughly, from the tables it names: the order
 * jobs start in, the longest first, so that no long one starts last. The
 * messages (and the views over them) weigh most, then the collectives. */
static guint
job_weight (const char *sql)
{
  if (strstr (sql, "message") != NULL || strstr (sql, "receive_wait") != NULL)
    return 2;
  if (strstr (sql, "collective") != NULL)
    return 1;

  return 0;
}

static int
compare_jobs (gconstpointer a,
              gconstpointer b)
{
  const Job *x = *(Job * const *)a, *y = *(Job * const *)b;

  if (x->weight != y->weight)
    return x->weight > y->weight ? -1 : 1;

  return x->index < y->index ? -1 : x->index > y->index;
}

/* The parameters a pattern runs with: its defaults, overridden. */
static Job *
job_new (SextantAnalysis *self,
         SextantPattern  *pattern,
         GAsyncQueue     *pool,
         guint            index)
{
  Job *job = g_new0 (Job, 1);
  g_autoptr(GString) described = g_string_new (NULL);
  GPtrArray *params = sextant_pattern_get_params (pattern);

  job->pattern = g_object_ref (pattern);
  job->views = sextant_store_reads_shared_views (sextant_pattern_get_sql (pattern));
  job->weight = job_weight (sextant_pattern_get_sql (pattern));
  job->index = index;
  job->found.blocks = g_ptr_array_new ();
  job->found.pool = g_async_queue_ref (pool);
  for (guint i = 0; i < G_N_ELEMENTS (job->col); i++)
    job->col[i] = -1;
  job->bound = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_variant_unref);

  g_hash_table_insert (job->bound, g_strdup ("resolution"), g_variant_ref_sink (g_variant_new_int64 (self->resolution)));
  for (guint i = 0; i < params->len; i++)
    {
      SextantPatternParam *param = g_ptr_array_index (params, i);
      g_autofree char *specific = g_strconcat (sextant_pattern_get_id (pattern), ".", param->name, NULL);
      double *override = g_hash_table_lookup (self->overrides, specific);
      double value;
      GVariant *variant;

      if (override == NULL)
        override = g_hash_table_lookup (self->overrides, param->name);
      value = override != NULL ? *override : param->value;

      if (g_str_equal (param->unit, "s"))
        variant = g_variant_new_int64 ((gint64)llround (value * self->resolution));
      else if (value == floor (value) && fabs (value) < 9e18)
        variant = g_variant_new_int64 ((gint64)value);
      else
        variant = g_variant_new_double (value);
      g_hash_table_insert (job->bound, g_strdup (param->name), g_variant_ref_sink (variant));
      g_string_append_printf (described, "%s%s=%g%s", described->len > 0 ? " " : "", param->name, value,
                              param->unit);
    }
  job->described = g_string_free (g_steal_pointer (&described), FALSE);

  return job;
}

static gboolean
resolution_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  *(gint64 *)user_data = MAX (1, g_ascii_strtoll (sextant_row_get_text (row, 1), NULL, 10));

  return TRUE;
}

static void
cancel_run (GCancellable *cancellable,
            gpointer      user_data)
{
  g_cancellable_cancel (user_data);
}

/* The run, on the store whose cancellable is @run: the caller's, chained,
 * and cancelled too when a pattern fails, so the queries still running
 * stop. */
static gboolean
run_patterns (SextantAnalysis  *self,
              GCancellable     *cancellable,
              GCancellable     *run,
              GError          **error)
{
  GPtrArray *patterns;
  GThreadPool *pool = NULL;
  GAsyncQueue *blocks;
  Schedule schedule = { 0 };
  guint n_jobs = 0;
  guint n_workers;
  g_autofree Job **done = NULL;     /* the jobs done and not written yet, by index */
  g_autofree guint *start_order = NULL;   /* the jobs' indexes in the order they start */
  gboolean ok = TRUE;
  SextantStepClock clock;

  g_clear_pointer (&self->scl_sources, g_hash_table_unref);
  g_clear_pointer (&self->ctx_sources, g_hash_table_unref);
  g_clear_pointer (&self->path_sources, g_hash_table_unref);
  g_clear_pointer (&self->region_sources, g_hash_table_unref);
  g_clear_pointer (&self->sites, g_hash_table_unref);
  g_clear_pointer (&self->site_sources, g_ptr_array_unref);
  g_clear_pointer (&self->path_names, g_hash_table_unref);
  g_clear_pointer (&self->waits, g_array_unref);
  g_clear_pointer (&self->invariants, sextant_invariants_free);
  self->scl_sources = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, _sextant_analysis_source_free);
  self->ctx_sources = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, _sextant_analysis_source_free);
  self->path_sources = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, _sextant_analysis_source_free);
  self->region_sources = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, _sextant_analysis_source_free);
  self->sites = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->site_sources = g_ptr_array_new ();
  self->path_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->waits = g_array_new (FALSE, FALSE, sizeof (SextantWaitInterval));
  self->resolution = 1;

  if (!sextant_store_foreach (self->store, SEXTANT_QUERY_TOTAL_TIME, resolution_row, &self->resolution,
                              error, ""))
    return FALSE;
  self->invariants = sextant_invariants_new (sextant_invariants_is_strict_env (), self->resolution);
  /* a shard first takes in the other shards' calls that its rules read */
  if (self->shard != NULL && !_sextant_analysis_shard_add_halo (self, FALSE, error))
    return FALSE;

  /* Workers run the queries on connections of their own (the store is in
   * WAL mode: they read the data as it was before this run's transaction),
   * one per core, while this thread clears the previous analysis and then
   * writes the instances of the queries done. A worker keeps its
   * connection: its cache of decoded event chunks serves its next
   * queries; the shared views are computed once for all (Schedule). */
  patterns = sextant_pattern_set_get_patterns (self->patterns);
  blocks = g_async_queue_new_full (g_free);
  g_mutex_init (&schedule.lock);
  schedule.pending = g_ptr_array_new ();
  schedule.views = sextant_shared_views_new ();
  schedule.results = g_async_queue_new ();
  schedule.store_path = g_strdup (sextant_store_get_path (self->store));
  schedule.cancellable = run;
  for (guint i = 0; i < patterns->len; i++)
    {
      SextantPattern *pattern = g_ptr_array_index (patterns, i);

      if (!_sextant_analysis_is_selected (self, pattern))
        continue;
      g_ptr_array_add (schedule.pending, job_new (self, pattern, blocks, n_jobs));
      n_jobs++;
    }
  for (guint i = 0; self->shard != NULL && i < n_jobs; i++)
    ((Job *)g_ptr_array_index (schedule.pending, i))->own = self->shard->own;
  done = g_new0 (Job *, MAX (n_jobs, 1));
  g_ptr_array_sort (schedule.pending, compare_jobs);
  start_order = g_new (guint, MAX (n_jobs, 1));
  for (guint i = 0; i < n_jobs; i++)
    start_order[i] = ((Job *)g_ptr_array_index (schedule.pending, i))->index;
  n_workers = MIN (MAX (1, MIN (g_get_num_processors (), 4)), MAX (n_jobs, 1));
  if (n_jobs > 0)
    {
      pool = g_thread_pool_new (run_worker_jobs, &schedule, (gint)n_workers, TRUE, NULL);
      for (guint w = 0; w < n_workers; w++)
        g_thread_pool_push (pool, GUINT_TO_POINTER (w + 1), NULL);
    }

  ok = sextant_store_begin (self->store, error) &&
       sextant_store_exec (self->store, SEXTANT_STMT_CLEAR_PATTERNS, error) && _sextant_analysis_write_scope (self, error);
  if (!ok)
    g_cancellable_cancel (run);     /* the queries stop */

  /* An instance's id is (pattern index << 32) + n, so the ids do not
   * depend on which query finished first; the pattern_site ids do: a site
   * is numbered when an instance first names it. So the single store
   * writes the jobs in the order they started (the heaviest first, as they
   * mostly finish), each once those before it are written, and a shard
   * once every shard has counted its instances, by index: the same
   * analysis of the same store writes the same bytes. */
  for (guint i = 0, written = 0; i < n_jobs; i++)
    {
      Job *job = g_async_queue_pop (schedule.results);

      if (ok && job->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&job->error));
          ok = FALSE;
          g_cancellable_cancel (run);     /* the other queries stop */
        }
      done[job->index] = job;
      while (self->shard == NULL && written < n_jobs && done[start_order[written]] != NULL)
        {
          g_autoptr(Job) next = g_steal_pointer (&done[start_order[written++]]);
          g_autoptr(GArray) runs = NULL;
          g_autofree guint *order = NULL;

          if (!ok)
            continue;
          order = _sextant_analysis_order_found (next, &runs);
          ok = !g_cancellable_set_error_if_cancelled (cancellable, error) &&
               _sextant_analysis_write_job (self, next, order, NULL, error);
          if (!ok)
            g_cancellable_cancel (run);     /* the other queries stop */
          else if (self->progress != NULL)
            self->progress ((double)written / n_jobs, sextant_pattern_get_id (next->pattern), self->progress_data);
        }
    }
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
#ifdef __GLIBC__
  /* the workers' connections are closed: give their memory (tens of MB of
   * decoded chunks, in the workers' own malloc arenas) back before the
   * wait causes take theirs */
  malloc_trim (0);
#endif
  g_ptr_array_unref (schedule.pending);
  sextant_shared_views_unref (schedule.views);
  g_async_queue_unref (schedule.results);
  g_free (schedule.store_path);
  g_mutex_clear (&schedule.lock);
  sextant_step_clock_start (&clock);
  if (self->shard != NULL)
    {
      ok = _sextant_analysis_write_shard_jobs (self, done, n_jobs, ok, cancellable, error);
      sextant_step_clock_lap (&clock, "shard %u: the instances numbered and written", self->shard->rank);
    }
  for (guint i = 0; done != NULL && i < n_jobs; i++)
    g_clear_pointer (&done[i], job_free);
  g_async_queue_unref (blocks);

  /* which wait states were direct and which propagated: once all are in
   * (and no visit is charged more than it lasted); a shard's wait states
   * wait for those of the others (their causes cross locations), and every
   * shard takes part, failed or not */
  ok = ok && !g_cancellable_set_error_if_cancelled (cancellable, error) &&
       sextant_invariants_finish (self->invariants, error);
  if (self->shard != NULL)
    {
      g_autoptr(GArray) all = NULL;

      ok = _sextant_analysis_shard_gather_waits (self, !ok, &all, ok ? error : NULL) && ok;
      sextant_step_clock_lap (&clock, "shard %u: the wait states gathered", self->shard->rank);
      ok = ok && sextant_wait_causes_write (self->store, all, self->shard->own, error);
      sextant_step_clock_lap (&clock, "shard %u: %u wait states judged and written", self->shard->rank,
                               all != NULL ? all->len : 0);
      ok = ok && _sextant_analysis_shard_remove_halo (self, TRUE, error);
      sextant_step_clock_lap (&clock, "shard %u: the halo taken out", self->shard->rank);
    }
  else if (ok)
    {
      ok = sextant_wait_causes_write (self->store, self->waits, NULL, error);
      sextant_step_clock_lap (&clock, "%u wait states judged and written", self->waits->len);
    }
  g_clear_pointer (&self->waits, g_array_unref);
  g_clear_pointer (&self->invariants, sextant_invariants_free);

  /* a cancellation after the last pattern was written: nothing is lost by
   * honouring it, and the caller asked for the previous state */
  if (!ok || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      sextant_store_rollback (self->store);
      return FALSE;
    }

  ok = sextant_store_commit (self->store, error);
  sextant_step_clock_lap (&clock, "the analysis committed");

  return ok;
}

/**
 * sextant_analysis_run:
 * @cancellable: (nullable): stops the run: the queries under way are
 *   interrupted (sqlite3_interrupt()) on every connection of the run
 *
 * Replaces the store's pattern instances with those of this run, and its
 * recorded scope with this run's, in one transaction: on failure or
 * cancellation the store keeps the previous analysis. Cancelled on a large
 * store, it returns within a fraction of a second (docs/patterns.md).
 *
 * Threading: blocks; runs the pattern queries on a pool of worker threads,
 * each with its own connection to the store's file, and writes from the
 * calling thread, which owns the store meanwhile. The progress function is
 * called in the calling thread.
 *
 * Returns: %TRUE, or %FALSE with @error set: %G_IO_ERROR_CANCELLED when
 *   @cancellable was cancelled, %G_IO_ERROR_PENDING when this analysis
 *   runs already, %SEXTANT_TRACE_ERROR_QUERY (a user pattern's query is
 *   invalid; the message names the pattern and its file) or another
 *   %SEXTANT_TRACE_ERROR of the store
 */
gboolean
sextant_analysis_run (SextantAnalysis  *self,
                      GCancellable     *cancellable,
                      GError          **error)
{
  g_autoptr(GCancellable) run = NULL;
  g_autoptr(GCancellable) previous = NULL;
  g_autofree char *manifest = NULL;
  gulong chained = 0;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_ANALYSIS (self), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);

  if (!g_atomic_int_compare_and_exchange (&self->running, FALSE, TRUE))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, "the analysis is running already");
      return FALSE;
    }

  run = g_cancellable_new ();
  if (cancellable != NULL)
    chained = g_cancellable_connect (cancellable, G_CALLBACK (cancel_run), run, NULL);
  previous = sextant_store_get_cancellable (self->store);
  if (previous != NULL)
    g_object_ref (previous);
  sextant_store_set_cancellable (self->store, run);

  if (self->shard == NULL && (manifest = sextant_store_get_meta (self->store, "shards")) != NULL)
    ok = sextant_pattern_set_check_tree (self->patterns, error) &&
         _sextant_analysis_run_manifest (self, cancellable, error);
  else
    {
      if (self->shard != NULL)
        self->shard->steps = 0;
      ok = sextant_pattern_set_check_tree (self->patterns, error) && run_patterns (self, cancellable, run, error);
      /* a shard that failed before a step takes part in it all the same;
       * the halo goes with the analysis's transaction, or after it */
      if (self->shard != NULL)
        {
          _sextant_analysis_shard_complete (self, ok);
          if (!ok)
            _sextant_analysis_shard_remove_halo (self, FALSE, NULL);
          g_clear_pointer (&self->shard->halo, sextant_halo_free);
        }
    }

  sextant_store_set_cancellable (self->store, previous);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, chained);
  g_atomic_int_set (&self->running, FALSE);

  return ok;
}
