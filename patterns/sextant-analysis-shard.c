/*
 * sextant-analysis-shard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A shard's part of a parallel analysis (docs/parallel.md, "Analysis").
 * Every shard of a parallel import runs the pattern catalogue on its store
 * (its locations' events and whole copies of the messages and collective
 * instances that touch them) and keeps the instances charged to its own
 * locations: a message or collective instance in two shards is charged
 * once, to the location it lies on. Two steps meet the other shards,
 * through an exchange that the caller brings (SextantShareExchange, as the
 * import's: MPI under `sextant-mpi`, memory for the threads of `sextant
 * analyze MANIFEST`), each an all-gather:
 *
 *   1. the number of instances of every pattern on every location, so that
 *      each shard numbers its instances as the single-process analysis
 *      does: in the canonical order (by location first), a location's
 *      instances from the count of those on the locations before it;
 *   2. the wait states (instance, location, peer, interval: 40 bytes
 *      each), whose causes cross locations and so shards: each shard
 *      judges all of them, as the single-process analysis does, and writes
 *      the rows of its own.
 *
 * Each step's message starts with a byte that says whether the shard
 * failed before it: a shard that fails still takes part in every step, so
 * none waits for it, and every shard then fails naming the first that did.
 */
#include "config.h"

#include <string.h>

#include "sextant-analysis-private.h"
#include "sextant-store-shard-analysis.h"
#include "sextant-wait-causes.h"

/* The exchanges of a run: the halo's requests and rows, the numbering, the
 * wait states */
#define SHARD_STEPS 4

/**
 * sextant_analysis_set_shard:
 * @rank: this shard's number, 0 to @n_ranks - 1
 * @locations: (element-type gint64): the location ids (location.id) whose
 *   instances this shard keeps
 * @exchange: carries the two steps among the shards (each calls it with
 *   what goes to every shard; see sextant-import-share.h)
 *
 * Makes the run a shard's part of a parallel analysis: before a run, on
 * every shard, with the same patterns, selection and parameters.
 */
void
sextant_analysis_set_shard (SextantAnalysis      *self,
                            guint                 rank,
                            guint                 n_ranks,
                            GArray               *locations,
                            SextantShareExchange  exchange,
                            gpointer              user_data)
{
  SextantAnalysisShard *shard;

  g_return_if_fail (SEXTANT_IS_ANALYSIS (self));
  g_return_if_fail (rank < n_ranks && locations != NULL && exchange != NULL);

  g_clear_pointer (&self->shard, _sextant_analysis_shard_free);
  shard = g_new0 (SextantAnalysisShard, 1);
  shard->rank = rank;
  shard->n_ranks = n_ranks;
  shard->own = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  shard->exchange = exchange;
  shard->user_data = user_data;
  for (guint i = 0; i < locations->len; i++)
    g_hash_table_add (shard->own, g_memdup2 (&g_array_index (locations, gint64, i), sizeof (gint64)));
  self->shard = shard;
}

void
_sextant_analysis_shard_free (SextantAnalysisShard *shard)
{
  g_hash_table_unref (shard->own);
  g_clear_pointer (&shard->halo, sextant_halo_free);
  g_free (shard);
}

static void
free_parts (GBytes  **parts,
            guint     n)
{
  for (guint r = 0; r < n; r++)
    g_clear_pointer (&parts[r], g_bytes_unref);
  g_free (parts);
}

/* One step: @out[r] to shard r, behind the byte that says whether this
 * shard @failed. Returns what every shard sent here (by rank, the byte
 * left off), or NULL: the exchange failed, or a shard did (@error names
 * the first; left unset when this one did, whose error is set). */
static GBytes **
exchange_step (SextantAnalysisShard  *shard,
               const char            *step,
               gboolean               failed,
               GBytes               **out,
               GError               **error)
{
  g_autofree GBytes **flagged = g_new0 (GBytes *, shard->n_ranks);
  GBytes **in = g_new0 (GBytes *, shard->n_ranks);
  g_autoptr(GError) local_error = NULL;
  guint8 flag = failed ? 1 : 0;
  gboolean ok;

  shard->steps++;
  for (guint r = 0; r < shard->n_ranks; r++)
    {
      gsize size = 0;
      gconstpointer data = out[r] != NULL ? g_bytes_get_data (out[r], &size) : NULL;
      g_autoptr(GByteArray) message = g_byte_array_sized_new ((guint)size + 1);

      g_byte_array_append (message, &flag, 1);
      if (size > 0)
        g_byte_array_append (message, data, (guint)size);
      flagged[r] = g_byte_array_free_to_bytes (g_steal_pointer (&message));
    }
  ok = shard->exchange (flagged, in, shard->user_data, &local_error);
  for (guint r = 0; r < shard->n_ranks; r++)
    g_bytes_unref (flagged[r]);
  if (!ok)
    {
      free_parts (in, shard->n_ranks);
      if (!failed)
        g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "shard %u: %s: ", shard->rank, step);
      return NULL;
    }

  for (guint r = 0; r < shard->n_ranks; r++)
    {
      gsize n = in[r] != NULL ? g_bytes_get_size (in[r]) : 0;
      const guint8 *bytes = in[r] != NULL ? g_bytes_get_data (in[r], NULL) : NULL;

      if (n == 0 || bytes[0] != 0)
        {
          free_parts (in, shard->n_ranks);
          if (!failed)
            g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                         "shard %u: stopped at %s: shard %u failed", shard->rank, step, r);
          return NULL;
        }
      {
        GBytes *body = g_bytes_new_from_bytes (in[r], 1, n - 1);

        g_bytes_unref (in[r]);
        in[r] = body;
      }
    }

  return in;
}

/* One step: the same @size bytes of @data to every shard */
static GBytes **
all_gather (SextantAnalysisShard  *shard,
            const char            *step,
            gboolean               failed,
            gconstpointer          data,
            gsize                  size,
            GError               **error)
{
  g_autoptr(GBytes) mine = g_bytes_new (data, size);
  g_autofree GBytes **out = g_new (GBytes *, shard->n_ranks);

  for (guint r = 0; r < shard->n_ranks; r++)
    out[r] = mine;

  return exchange_step (shard, step, failed, out, error);
}

/* What a shard tells the others of a pattern's instances on one location */
typedef struct
{
  guint32 job;      /* the pattern's index in the run */
  guint32 count;
  gint64  loc;
} Count;

static int
compare_counts (gconstpointer a,
                gconstpointer b)
{
  const Count *x = a, *y = b;

  if (x->job != y->job)
    return x->job < y->job ? -1 : 1;

  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

/* Every shard's parts, one array of @size-byte records; FALSE when a part
 * is not whole records */
static gboolean
concat_parts (SextantAnalysisShard  *shard,
              GBytes               **parts,
              GArray                *all,
              guint                  size,
              GError               **error)
{
  for (guint r = 0; r < shard->n_ranks; r++)
    {
      gsize n = 0;
      gconstpointer data = g_bytes_get_data (parts[r], &n);

      if (n % size != 0)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                       "shard %u: shard %u sent %" G_GSIZE_FORMAT " bytes, not whole records of %u",
                       shard->rank, r, n, size);
          return FALSE;
        }
      if (n > 0)
        g_array_append_vals (all, data, (guint)(n / size));
    }

  return TRUE;
}

/**
 * _sextant_analysis_shard_number:
 * @runs: (element-type GArray<SextantInstanceRun>): by pattern index, the
 *   runs of this shard's instances in canonical order
 * @failed: this shard failed before (it takes part all the same)
 *
 * Step 1: sets each run's first to the number of instances of its pattern
 * on the locations before its location, on every shard.
 */
gboolean
_sextant_analysis_shard_number (SextantAnalysis  *self,
                                GPtrArray        *runs,
                                gboolean          failed,
                                GError          **error)
{
  SextantAnalysisShard *shard = self->shard;
  g_autoptr(GArray) mine = g_array_new (FALSE, FALSE, sizeof (Count));
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (Count));
  GBytes **parts;
  gboolean ok;
  guint at = 0;

  for (guint j = 0; !failed && j < runs->len; j++)
    {
      GArray *job_runs = g_ptr_array_index (runs, j);

      for (guint k = 0; k < job_runs->len; k++)
        {
          const SextantInstanceRun *run = &g_array_index (job_runs, SextantInstanceRun, k);
          Count count = { j, run->count, run->loc };

          g_array_append_val (mine, count);
        }
    }

  if (!(parts = all_gather (shard, "the numbering of the instances", failed, mine->data,
                            (gsize)mine->len * sizeof (Count), error)))
    return FALSE;
  ok = concat_parts (shard, parts, all, sizeof (Count), error);
  free_parts (parts, shard->n_ranks);
  if (!ok)
    return FALSE;

  /* by pattern, then location: a run's first is the sum before it */
  g_array_sort (all, compare_counts);
  for (guint j = 0; j < runs->len; j++)
    {
      GArray *job_runs = g_ptr_array_index (runs, j);
      gint64 before = 0;

      while (at < all->len && g_array_index (all, Count, at).job < j)
        at++;
      for (guint k = 0; k < job_runs->len; k++)
        {
          SextantInstanceRun *run = &g_array_index (job_runs, SextantInstanceRun, k);

          for (; at < all->len && g_array_index (all, Count, at).job == j &&
                 g_array_index (all, Count, at).loc < run->loc; at++)
            before += g_array_index (all, Count, at).count;
          run->first = before;
        }
    }

  return TRUE;
}

/**
 * _sextant_analysis_shard_gather_waits:
 * @failed: this shard failed before (it takes part all the same)
 * @all: (out) (element-type SextantWaitInterval): every shard's wait
 *   states, by rank
 *
 * Step 2: the wait states of every shard.
 */
gboolean
_sextant_analysis_shard_gather_waits (SextantAnalysis  *self,
                                      gboolean          failed,
                                      GArray          **all,
                                      GError          **error)
{
  SextantAnalysisShard *shard = self->shard;
  GBytes **parts;
  gboolean ok;

  g_assert (failed || self->waits != NULL);
  parts = all_gather (shard, "the wait states", failed, failed ? NULL : self->waits->data,
                      failed ? 0 : (gsize)self->waits->len * sizeof (SextantWaitInterval), error);
  if (parts == NULL)
    return FALSE;
  *all = g_array_new (FALSE, FALSE, sizeof (SextantWaitInterval));
  ok = concat_parts (shard, parts, *all, sizeof (SextantWaitInterval), error);
  free_parts (parts, shard->n_ranks);

  return ok;
}

/* The steps of the run that a shard, failed before them, did not take:
 * the other shards wait for it there. */
void
_sextant_analysis_shard_complete (SextantAnalysis *self,
                                  gboolean         ok)
{
  SextantAnalysisShard *shard = self->shard;

  g_return_if_fail (shard->steps <= SHARD_STEPS);

  while (shard->steps < SHARD_STEPS)
    {
      GBytes **parts = all_gather (shard, "the end", TRUE, NULL, 0, NULL);

      if (parts != NULL)
        free_parts (parts, shard->n_ranks);
    }
}

/**
 * sextant_analysis_abandon_shard:
 *
 * A shard that cannot even start its part (its store is missing, ...)
 * takes part in the steps of the others' runs all the same, failed, so
 * that they fail rather than wait for it.
 */
void
sextant_analysis_abandon_shard (guint                 rank,
                                guint                 n_ranks,
                                SextantShareExchange  exchange,
                                gpointer              user_data)
{
  g_autoptr(SextantAnalysis) analysis = g_object_new (SEXTANT_TYPE_ANALYSIS, NULL);
  g_autoptr(GArray) none = g_array_new (FALSE, FALSE, sizeof (gint64));

  sextant_analysis_set_shard (analysis, rank, n_ranks, none, exchange, user_data);
  _sextant_analysis_shard_complete (analysis, FALSE);
}

/* What a shard asks the others in the halo's first step: the visits it
 * wants (a count, then the ids), then what every shard sends every other
 * (sextant_store_read_halo_extras()) */
static GBytes *
halo_request (GArray *wanted,
              GBytes *extras)
{
  g_autoptr(GByteArray) message = g_byte_array_new ();
  guint64 n = wanted->len;

  g_byte_array_append (message, (const guint8 *)&n, sizeof n);
  g_byte_array_append (message, (const guint8 *)wanted->data, wanted->len * sizeof (gint64));
  g_byte_array_append (message, g_bytes_get_data (extras, NULL), (guint)g_bytes_get_size (extras));

  return g_byte_array_free_to_bytes (g_steal_pointer (&message));
}

/* The parts of shard @r's request: the ids of its wanted visits on
 * @shard's locations, and its extras; FALSE when it is malformed */
static gboolean
halo_parse (SextantAnalysisShard  *shard,
            guint                  r,
            GBytes                *request,
            GArray               **ids,
            GBytes               **extras,
            GError               **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (request, &size);
  guint64 n = 0;

  if (size >= sizeof n)
    memcpy (&n, data, sizeof n);
  if (size < sizeof n || n > (size - sizeof n) / sizeof (gint64))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "shard %u: shard %u's request for the halo is malformed", shard->rank, r);
      return FALSE;
    }
  *ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint64 i = 0; i < n; i++)
    {
      gint64 id;
      gint64 loc;

      memcpy (&id, data + sizeof n + i * sizeof id, sizeof id);
      loc = id >> 32;
      if (g_hash_table_contains (shard->own, &loc))
        g_array_append_val (*ids, id);
    }
  *extras = g_bytes_new_from_bytes (request, sizeof n + n * sizeof (gint64),
                                    size - sizeof n - n * sizeof (gint64));

  return TRUE;
}

/* SEXTANT_ANALYSIS_HALO_PAUSE=SECONDS: a test's hook - the analysis
 * waits once a shard's halo is committed, so that the test can kill it
 * there (tests/test-parallel-analyze.py) */
static void
pause_after_halo (guint rank)
{
  const char *value = g_getenv ("SEXTANT_ANALYSIS_HALO_PAUSE");
  guint64 seconds = 0;

  if (value != NULL && g_ascii_string_to_unsigned (value, 10, 1, 3600, &seconds, NULL))
    {
      g_debug ("shard %u: the halo is committed; waiting %" G_GUINT64_FORMAT " s (SEXTANT_ANALYSIS_HALO_PAUSE)",
               rank, seconds);
      g_usleep (seconds * G_USEC_PER_SEC);
    }
}

/**
 * _sextant_analysis_shard_add_halo:
 * @failed: this shard failed before (it takes part all the same)
 *
 * Steps 1 and 2, before the queries: every shard asks the others for the
 * visits of their locations that its messages and collectives name and
 * sends all its RMA collectives' records, its MPI call-path profile and
 * its locks; then answers with the visits asked for (one pass over its
 * visits), with its calls of MPI_Init and MPI_Finalize, of its RMA
 * collectives and of its lock acquisitions; and writes what it got into
 * its store (the halo: what the rules read of the other shards).
 * _sextant_analysis_shard_remove_halo() takes it out again.
 */
gboolean
_sextant_analysis_shard_add_halo (SextantAnalysis  *self,
                                  gboolean          failed,
                                  GError          **error)
{
  SextantAnalysisShard *shard = self->shard;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GArray) wanted = NULL;
  g_autoptr(GArray) pairs = NULL;
  g_autoptr(GBytes) mine = NULL;
  g_autoptr(GBytes) request = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) extras = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  g_autofree GBytes **out = g_new0 (GBytes *, shard->n_ranks);
  GBytes **requests;
  GBytes **answers;
  gboolean ok;
  SextantStepClock clock;

  sextant_step_clock_start (&clock);
  if (!failed && !(wanted = sextant_store_list_halo_visits (self->store, shard->own, &pairs, &local_error)))
    failed = TRUE;
  sextant_step_clock_lap (&clock, "shard %u: the halo's visits listed", shard->rank);
  if (!failed && !(mine = sextant_store_read_halo_extras (self->store, pairs, &local_error)))
    failed = TRUE;
  sextant_step_clock_lap (&clock, "shard %u: the halo's extras read", shard->rank);
  if (!failed)
    request = halo_request (wanted, mine);
  requests = all_gather (shard, "the halo", failed, request != NULL ? g_bytes_get_data (request, NULL) : NULL,
                         request != NULL ? g_bytes_get_size (request) : 0, failed ? NULL : &local_error);
  failed = failed || requests == NULL;

  /* the visits of this shard that each of the others asked for */
  if (!failed)
    {
      g_autoptr(GPtrArray) asked = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
      g_autoptr(GPtrArray) answers_out = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);

      for (guint r = 0; !failed && r < shard->n_ranks; r++)
        {
          GArray *ids = NULL;
          GBytes *theirs = NULL;

          g_ptr_array_add (answers_out, g_array_new (FALSE, FALSE, sizeof (gint64)));
          if (r != shard->rank && !halo_parse (shard, r, requests[r], &ids, &theirs, &local_error))
            failed = TRUE;
          g_ptr_array_add (asked, ids != NULL ? ids : g_array_new (FALSE, FALSE, sizeof (gint64)));
          if (theirs != NULL)
            g_ptr_array_add (extras, theirs);
        }
      sextant_step_clock_lap (&clock, "shard %u: the halo's requests exchanged", shard->rank);
      if (!failed && !sextant_store_read_halo_visits (self->store, shard->rank, asked, answers_out, &local_error))
        failed = TRUE;
      sextant_step_clock_lap (&clock, "shard %u: the visits asked for read", shard->rank);
      for (guint r = 0; !failed && r < shard->n_ranks; r++)
        {
          GArray *answer = g_ptr_array_index (answers_out, r);

          if (r != shard->rank)
            out[r] = g_bytes_new (answer->data, answer->len * sizeof (gint64));
        }
    }
  if (requests != NULL)
    free_parts (requests, shard->n_ranks);
  answers = exchange_step (shard, "the halo", failed, out, failed ? NULL : &local_error);
  for (guint r = 0; r < shard->n_ranks; r++)
    g_clear_pointer (&out[r], g_bytes_unref);
  if (answers == NULL)
    {
      if (local_error != NULL)
        g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  sextant_step_clock_lap (&clock, "shard %u: the visits exchanged", shard->rank);
  ok = concat_parts (shard, answers, rows, sizeof (gint64), &local_error);
  free_parts (answers, shard->n_ranks);
  if (ok && rows->len % SEXTANT_HALO_COLUMNS != 0)
    {
      g_set_error (&local_error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "shard %u: the halo's visits are not whole rows", shard->rank);
      ok = FALSE;
    }
  if (ok)
    {
      shard->halo = sextant_halo_new ();
      ok = sextant_store_add_halo (self->store, (gint64 *)(void *)rows->data, rows->len / SEXTANT_HALO_COLUMNS,
                                   extras, shard->halo, &local_error);
      if (!ok)
        g_clear_pointer (&shard->halo, sextant_halo_free);
      sextant_step_clock_lap (&clock, "shard %u: the halo written", shard->rank);
      if (ok)
        pause_after_halo (shard->rank);
    }
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&local_error));

  return ok;
}

/**
 * _sextant_analysis_shard_remove_halo:
 * @in_transaction: inside the analysis's transaction (else in one of its own)
 *
 * Takes the halo out of the shard's store: after the analysis a shard
 * holds its own locations' rows only.
 */
gboolean
_sextant_analysis_shard_remove_halo (SextantAnalysis  *self,
                                     gboolean          in_transaction,
                                     GError          **error)
{
  SextantAnalysisShard *shard = self->shard;

  return shard->halo == NULL || sextant_store_remove_halo (self->store, shard->halo, in_transaction, error);
}
