/*
 * sextant-import-rounds.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads the events of an import: the locations in batches of a bounded
 * size, every location's decoder of a batch in rounds through time windows,
 * on one thread per core, with the matcher beside them (see
 * _sextant_import_decode_events()).
 */
#include "config.h"

#include <sys/resource.h>
#include <time.h>

#include "sextant-chunk-queue.h"
#include "sextant-import-private.h"

/* Locations open at once: libotf2 gives each open event reader a buffer of
 * one event chunk (1 MiB in Score-P's and our generator's archives) that it
 * clears when it opens the location, so 4096 locations open at once took
 * 4 GiB. The buffers of a batch stay under BATCH_BUDGET; a batch is never
 * smaller than MIN_BATCH (reading in parallel needs a few) and never larger
 * than MAX_BATCH: the decoders' rows and what the matcher holds grow with
 * the batch too (batches of 512 locations of 256 KiB chunks took 520 MB at
 * 4096 locations, and more system time, than batches of 128). The
 * environment variable SEXTANT_IMPORT_BATCH sets the size (for tests). */
#define BATCH_BUDGET (128 * 1024 * 1024)
#define MIN_BATCH 16
#define MAX_BATCH 128

guint
_sextant_import_plan_batch (SextantImport *import)
{
  const char *env = g_getenv ("SEXTANT_IMPORT_BATCH");
  guint n = import->locations->len;
  uint64_t chunk_events = 0;
  uint64_t chunk_defs = 0;
  guint64 batch;

  if (env != NULL)
    batch = g_ascii_strtoull (env, NULL, 10);
  else if (import->reader != NULL &&
           OTF2_Reader_GetChunkSize (import->reader, &chunk_events, &chunk_defs) == OTF2_SUCCESS &&
           chunk_events > 0)
    batch = CLAMP (BATCH_BUDGET / chunk_events, MIN_BATCH, MAX_BATCH);
  else
    batch = MAX_BATCH;

  return (guint)CLAMP (batch, 1, MAX (n, 1));
}

/* Rows per chunk: 4096, fewer when many locations (open at once) each
 * buffer their own. */
guint
_sextant_import_plan_chunk_rows (guint n_locations)
{
  const gsize budget = 96 * 1024 * 1024;
  gsize per_location = budget / MAX (n_locations, 1) / (3 * SEXTANT_VISIT_N_COLUMNS * sizeof (gint64));

  return (guint)CLAMP (per_location, 256, 4096);
}

/* A round of decoding: every location not done reads up to the round's
 * time; each thread claims the tasks no other thread has claimed, starting
 * at its own place among them. Task 0, the biggest,
 * puts every chunk queued so far into the store; task i + 1 reads location
 * i. Beside the rounds runs the matcher: the halves of messages and
 * collectives a round found are one batch, and a thread that finds batches
 * waiting while no other thread matches matches them, in the order of the
 * rounds (which keeps the ids deterministic), whether or not the round that
 * settled them is over; a round ends when its tasks are done, not when the
 * matcher is. So the threads are as many as the cores, nobody waits for the
 * store, and nobody waits for the matcher (it had held up one round in
 * three at its end). */
typedef struct
{
  SextantImport  *import;
  GPtrArray      *decoders;      /* by location; those of the batch are open */
  const guint32  *order;         /* the locations decoded here, ascending (all but in a
                                  * parallel import's share) */
  guint           first;         /* the batch: locations order[first .. first + n_locs - 1] */
  GPtrArray      *spare_decoders; /* closed, for the next batch's locations (under `lock`) */
  guint           n_locs;
  gboolean       *done;
  gint64          until;
  guint64         max_events;
  gboolean        finishing;     /* the last round: the locations write what is still open */
  gint64          match_usec;    /* time matching, all rounds (under `lock`) */
  gint64          match_cpu_usec; /* CPU time of the threads matching, all rounds (under `lock`) */
  gint64          write_usec;    /* time in task 0, all rounds */
  gint           *claimed;       /* per task (0 the store's, i + 1 location i): the generation
                                  * that took it last (atomic) */
  gint            completed;     /* atomic: tasks of this round done */
  gint            failed;        /* atomic: the remaining tasks are skipped */
  gint            pending;       /* atomic: the length of `batches` */
  gint            generation;    /* atomic: rounds started, the helpers start one when it changes */
  guint           n_threads;     /* this one and the helpers */
  gint            helpers_started; /* atomic: gives each helper its number */
  gint            quit;          /* atomic: the helpers return at the next generation */
  GPtrArray      *helpers;       /* GThread* */
  GMutex          lock;
  GQueue          batches;       /* GPtrArray* of halves (a location's, a location's collective ones, ...),
                                  * settled and not matched yet, oldest first */
  GPtrArray      *spare_halves;  /* the arrays of halves the matcher is done with, for the decoders */
  GPtrArray      *spare_coll_halves;
  gboolean        matching;      /* a thread matches */
  GCond           start;
  GCond           finished;      /* the round's last task is done */
  GCond           matched;       /* a thread stopped matching */
  GError         *error;         /* the first failure of a thread */
} Round;

static void
halves_free (gpointer array)
{
  if (array != NULL)
    g_array_unref (array);
}

/* Hands a batch of halves, every location's in location order, to the
 * matcher. */
static gboolean
match_batch (SextantImport  *import,
             GPtrArray      *batch,
             GError        **error)
{
  /* first which processes have several locations with messages or
   * collectives, so that a round's halves of a threaded process are held
   * together */
  for (guint i = 0; i + 1 < batch->len; i += 2)
    {
      _sextant_matcher_note_halves (import->matcher, g_ptr_array_index (batch, i));
      _sextant_matcher_note_collectives (import->matcher, g_ptr_array_index (batch, i + 1));
    }
  for (guint i = 0; i + 1 < batch->len; i += 2)
    if (!_sextant_matcher_add_deferred (import->matcher, g_ptr_array_index (batch, i),
                                        g_ptr_array_index (batch, i + 1), error))
      return FALSE;

  return TRUE;
}

/* Keeps the first failure; the tasks still to come are skipped. */
static void
round_fail (Round  *round,
            GError *error)
{
  g_mutex_lock (&round->lock);
  if (round->error == NULL)
    round->error = error;
  else
    g_error_free (error);
  g_mutex_unlock (&round->lock);
  g_atomic_int_set (&round->failed, TRUE);
}

/* Matches the batches waiting, oldest first, unless another thread does. */
static void
pump_matcher (Round *round)
{
  g_mutex_lock (&round->lock);
  while (!round->matching && !g_queue_is_empty (&round->batches) && !g_atomic_int_get (&round->failed))
    {
      GPtrArray *batch = g_queue_pop_head (&round->batches);
      GError *error = NULL;
      gint64 start;
      gint64 start_cpu;
      gboolean ok;

      g_atomic_int_add (&round->pending, -1);
      round->matching = TRUE;
      g_mutex_unlock (&round->lock);

      start = g_get_monotonic_time ();
      start_cpu = sextant_thread_cpu_usec ();
      ok = match_batch (round->import, batch, &error);
      if (!ok)
        round_fail (round, error);

      g_mutex_lock (&round->lock);
      round->match_usec += g_get_monotonic_time () - start;
      round->match_cpu_usec += sextant_thread_cpu_usec () - start_cpu;
      /* a batch has a location's halves and its collective halves in turn,
       * NULL for a location that had none */
      for (guint i = 0; i < batch->len; i++)
        if (batch->pdata[i] != NULL)
          g_ptr_array_add (i % 2 == 0 ? round->spare_halves : round->spare_coll_halves,
                           g_steal_pointer (&batch->pdata[i]));
      g_ptr_array_unref (batch);
      round->matching = FALSE;
      g_cond_broadcast (&round->matched);
    }
  g_mutex_unlock (&round->lock);
}

/* Task 0: the chunks queued so far go into the store (those queued
 * meanwhile go with the next round's). */
static gboolean
round_write (Round   *round,
             GError **error)
{
  gint64 start = g_get_monotonic_time ();
  gboolean ok = sextant_chunk_queue_write (round->import->chunks, error);

  round->write_usec += g_get_monotonic_time () - start;

  return ok;
}

/* A decoder of location @loc: one that a location of an earlier batch is
 * done with, else a new one. */
static SextantLocationDecoder *
open_decoder (Round   *round,
              guint    loc,
              GError **error)
{
  SextantLocationDecoder *decoder = NULL;

  g_mutex_lock (&round->lock);
  if (round->spare_decoders->len > 0)
    decoder = g_ptr_array_steal_index_fast (round->spare_decoders, round->spare_decoders->len - 1);
  g_mutex_unlock (&round->lock);

  if (decoder == NULL)
    return _sextant_location_decoder_new (round->import, loc, error);
  if (!_sextant_location_decoder_reopen (decoder, loc, error))
    {
      _sextant_location_decoder_free (decoder);
      return NULL;
    }

  return decoder;
}

/* Writes the call_path_profile and event_count rows of the batch's
 * locations, which their finish made, in location order and many rows a
 * statement: at 4096 locations one statement a row cost 0.1 to 0.2 s of
 * CPU for their 127,000 rows (see sextant_store_run_rows()). */
static gboolean
write_location_rows (Round   *round,
                     GError **error)
{
  g_autoptr(GArray) profiles = g_array_new (FALSE, FALSE, sizeof (SextantStoreValue));
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (SextantStoreValue));
  SextantStore *store = round->import->store;

  for (guint k = round->first; k < round->first + round->n_locs; k++)
    {
      SextantLocationDecoder *decoder = g_ptr_array_index (round->decoders, round->order[k]);

      if (decoder != NULL)
        _sextant_location_decoder_take_rows (decoder, profiles, counts);
    }

  return sextant_store_run_rows (store, SEXTANT_STMT_CALL_PATH_PROFILE, "iiiiii",
                                 (const SextantStoreValue *)(void *)profiles->data, profiles->len / 6, error) &&
         sextant_store_run_rows (store, SEXTANT_STMT_EVENT_COUNT, "iti",
                                 (const SextantStoreValue *)(void *)counts->data, counts->len / 3, error);
}

/* Closes the decoders of the batch; those that finished keep their memory
 * for the locations of the next batch. */
static void
close_batch (Round    *round,
             gboolean  finished)
{
  for (guint k = round->first; k < round->first + round->n_locs; k++)
    {
      SextantLocationDecoder *decoder = g_steal_pointer (&round->decoders->pdata[round->order[k]]);

      if (decoder == NULL)
        continue;
      if (!finished)
        {
          _sextant_location_decoder_free (decoder);
          continue;
        }
      _sextant_location_decoder_close (decoder);
      g_mutex_lock (&round->lock);
      g_ptr_array_add (round->spare_decoders, decoder);
      g_mutex_unlock (&round->lock);
    }
}

static gboolean
round_task (Round   *round,
            guint    i,
            GError **error)
{
  guint loc = i > 0 ? round->order[round->first + i - 1] : 0;

  if (i == 0)
    return round_write (round, error);
  if (round->finishing)
    return _sextant_location_decoder_finish (g_ptr_array_index (round->decoders, loc), error);
  if (round->done[loc])
    return TRUE;
  /* the first round opens the locations, on the threads that read them:
   * libotf2 allocates and clears a chunk for each, 1 MiB by default */
  if (g_ptr_array_index (round->decoders, loc) == NULL &&
      (round->decoders->pdata[loc] = open_decoder (round, loc, error)) == NULL)
    return FALSE;

  return _sextant_location_decoder_read (g_ptr_array_index (round->decoders, loc), round->until,
                                         round->max_events, &round->done[loc], error);
}

/* Takes the tasks of round @generation that no thread has claimed yet,
 * scanning them all once from @first (each thread starts elsewhere, so a
 * location is mostly read by the same thread round after round, and its
 * state stays in that core's cache). A thread that @may_match matches the
 * batches waiting before it takes the next; with helper threads, this
 * thread leaves that to them: it settles the locations between the rounds,
 * and a round that waits for it to finish a batch would wait idle. */
static void
round_work (Round    *round,
            gint      generation,
            guint     first,
            gboolean  may_match)
{
  guint n_tasks = round->n_locs + 1;

  for (guint k = 0; k < n_tasks; k++)
    {
      guint i = (first + k) % n_tasks;
      gint taken;

      if (may_match && g_atomic_int_get (&round->pending) > 0)
        pump_matcher (round);

      /* generations only grow: a thread late from the round before
       * (taken >= its generation) must not take a task of this one */
      if ((taken = g_atomic_int_get (&round->claimed[i])) >= generation ||
          !g_atomic_int_compare_and_exchange (&round->claimed[i], taken, generation))
        continue;

      if (!g_atomic_int_get (&round->failed))
        {
          GError *error = NULL;

          if (!round_task (round, i, &error))
            round_fail (round, error);
        }

      if ((guint)g_atomic_int_add (&round->completed, 1) + 1 == n_tasks)
        {
          g_mutex_lock (&round->lock);
          g_cond_signal (&round->finished);
          g_mutex_unlock (&round->lock);
        }
    }
}

/* How long a thread spins before it sleeps, waiting for the next round or
 * for the others to finish this one. A round takes milliseconds and the gap
 * between two rounds tens of microseconds, while waking a sleeping thread
 * can take a hundred (on a virtual machine whose idle CPU halted): with a
 * thread pool that slept, the helper thread was idle for 12 % of the rounds. */
#define ROUND_SPIN_USEC 2000

static inline void
spin_pause (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#endif
}

/* Spins while @lo <= *@value <= @hi, for at most ROUND_SPIN_USEC; returns
 * the value last read. */
static gint
spin_while_in (gint *value,
               gint  lo,
               gint  hi)
{
  gint64 deadline = g_get_monotonic_time () + ROUND_SPIN_USEC;
  gint v;

  for (guint i = 1; ; i++)
    {
      v = g_atomic_int_get (value);
      if (v < lo || v > hi)
        break;
      spin_pause ();
      if (i % 256 == 0)
        {
          if (g_get_monotonic_time () > deadline)
            break;
          /* lets whatever else wants this CPU run */
          g_thread_yield ();
        }
    }

  return v;
}

static gpointer
round_thread (gpointer data)
{
  Round *round = data;
  guint index = (guint)g_atomic_int_add (&round->helpers_started, 1) + 1;
  gint seen = 0;

  for (;;)
    {
      gint generation = spin_while_in (&round->generation, seen, seen);

      if (generation == seen)
        {
          g_mutex_lock (&round->lock);
          while ((generation = g_atomic_int_get (&round->generation)) == seen)
            g_cond_wait (&round->start, &round->lock);
          g_mutex_unlock (&round->lock);
        }
      seen = generation;
      if (g_atomic_int_get (&round->quit))
        return NULL;

      /* helper k of the n_threads - 1 starts at task k n_tasks / n_threads */
      round_work (round, generation, index * (round->n_locs + 1) / round->n_threads, TRUE);
    }
}

/* Starts the next generation of the helper threads; returns it. */
static gint
start_helpers (Round *round)
{
  gint generation;

  g_mutex_lock (&round->lock);
  generation = g_atomic_int_add (&round->generation, 1) + 1;
  g_cond_broadcast (&round->start);
  g_mutex_unlock (&round->lock);

  return generation;
}

/* Runs a round on this thread and the helpers (set its parameters first);
 * returns the time this thread waited for them. A helper may still be
 * matching when it returns. */
static gint64
run_round (Round *round)
{
  gint n_tasks = (gint)round->n_locs + 1;
  gint64 wait_start;
  gint generation;

  /* a helper that comes late from the round before finds every task
   * claimed by its generation or this one, and takes none */
  g_atomic_int_set (&round->completed, 0);
  generation = start_helpers (round);

  round_work (round, generation, 0, round->helpers->len == 0);
  wait_start = g_get_monotonic_time ();
  if (spin_while_in (&round->completed, G_MININT, n_tasks - 1) < n_tasks)
    {
      g_mutex_lock (&round->lock);
      while (g_atomic_int_get (&round->completed) < n_tasks)
        g_cond_wait (&round->finished, &round->lock);
      g_mutex_unlock (&round->lock);
    }

  return g_get_monotonic_time () - wait_start;
}

/* Returns when every batch is matched (or a thread failed) and no thread
 * matches: matches what is left on this thread, or waits for the thread
 * that does. */
static void
drain_matcher (Round *round)
{
  g_mutex_lock (&round->lock);
  for (;;)
    {
      while (round->matching)
        g_cond_wait (&round->matched, &round->lock);
      if (g_queue_is_empty (&round->batches) || g_atomic_int_get (&round->failed))
        break;
      g_mutex_unlock (&round->lock);
      pump_matcher (round);
      g_mutex_lock (&round->lock);
    }
  g_mutex_unlock (&round->lock);
}

/* The error that stopped a round: a callback's (in the import) or the
 * reader's. */
static gboolean
round_failed (Round   *round,
              GError **error)
{
  SextantImport *import = round->import;

  if (import->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&import->error));
      g_clear_error (&round->error);
      return TRUE;
    }
  if (round->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&round->error));
      return TRUE;
    }

  return FALSE;
}

/* CPU time of the process so far (user + system), for the debug log. */
static gint64
cpu_usec (void)
{
  struct rusage usage;

  if (getrusage (RUSAGE_SELF, &usage) != 0)
    return 0;

  return (gint64)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_USEC_PER_SEC +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

/* Hands the halves the decoders of the batch found since they were last
 * settled to the matcher, as one batch behind the others (call paths first
 * seen get their ids here); counts the events and the locations of the
 * batch not done, and the earliest time of those. */
static gboolean
settle_batch (Round      *round,
              GPtrArray  *spare_halves,
              GPtrArray  *spare_coll_halves,
              guint      *left,
              gint64     *next_time,
              GError    **error)
{
  SextantImport *import = round->import;
  GPtrArray *batch = g_ptr_array_new_with_free_func (halves_free);
  gboolean ok = TRUE;

  g_mutex_lock (&round->lock);
  while (round->spare_halves->len > 0)
    g_ptr_array_add (spare_halves, g_ptr_array_steal_index_fast (round->spare_halves, round->spare_halves->len - 1));
  while (round->spare_coll_halves->len > 0)
    g_ptr_array_add (spare_coll_halves,
                     g_ptr_array_steal_index_fast (round->spare_coll_halves, round->spare_coll_halves->len - 1));
  g_mutex_unlock (&round->lock);

  *left = 0;
  *next_time = G_MAXINT64;
  for (guint k = round->first; ok && k < round->first + round->n_locs; k++)
    {
      guint i = round->order[k];
      guint64 events = 0;
      GArray *halves = NULL;
      GArray *coll_halves = NULL;

      ok = _sextant_location_decoder_settle (g_ptr_array_index (round->decoders, i), &events, spare_halves,
                                             spare_coll_halves, &halves, &coll_halves, error);
      g_ptr_array_add (batch, halves);
      g_ptr_array_add (batch, coll_halves);
      import->events_read += events;
      *left += !round->done[i];
      if (!round->done[i])
        *next_time = MIN (*next_time, _sextant_location_decoder_get_time (g_ptr_array_index (round->decoders, i)));
    }
  if (!ok)
    {
      g_ptr_array_unref (batch);
      return FALSE;
    }

  g_mutex_lock (&round->lock);
  g_queue_push_tail (&round->batches, batch);
  g_atomic_int_inc (&round->pending);
  g_mutex_unlock (&round->lock);

  return TRUE;
}

/* Reads the locations in batches of _sextant_import_plan_batch() (all at
 * once when they are as few: every trace of 128 locations or less), and
 * the locations of a batch in turns through time windows, so that both
 * halves of a message (and all members of a collective) arrive at the
 * matcher close together and it holds only what is in flight across a
 * window's edge, and, with many locations, what waits for a location of a
 * later batch. A batch has as many of the 1024 windows as it has of the
 * locations (at least one), so the rounds stay about 1024 and read as many
 * events each whatever the number of locations. With no clock properties
 * the windows are rounds of events instead. When a batch is done, its
 * locations write what is still open and are closed: libotf2 frees their
 * chunk buffers, which the next batch's readers reuse, and their decoders,
 * emptied, read the next batch's locations (no allocations per location).
 *
 * Each round reads the locations in parallel, one thread per core, and
 * stores what the round before found, while the matcher matches the
 * batches of the rounds before; between rounds, this thread settles every
 * location in order (call paths seen for the first time get their ids,
 * halves are collected into the round's batch), so the store does not
 * depend on which thread read what: two imports of one archive are equal
 * row for row. Batches of another size give the same rows but for the ids
 * that follow the order in which things are met: of call paths, of
 * messages (their rows' order) and of collectives. */
gboolean
_sextant_import_decode_events (SextantImport  *import,
                               GError        **error)
{
  guint n = import->share != NULL ? import->share_locations->len : import->locations->len;
  guint batch_size = _sextant_import_plan_batch (import);
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));
  g_autoptr(GPtrArray) decoders = g_ptr_array_new_with_free_func ((GDestroyNotify)_sextant_location_decoder_free);
  g_autofree gboolean *done = g_new0 (gboolean, MAX (import->locations->len, 1));
  const guint n_windows = 1024;
  const char *threads_env = g_getenv ("SEXTANT_IMPORT_THREADS");
  guint n_threads = threads_env != NULL ? (guint)CLAMP (g_ascii_strtoull (threads_env, NULL, 10), 1, 64)
                                        : MIN ((guint)g_get_num_processors (), 8);
  Round round = { .import = import, .order = order, .done = done, .max_events = G_MAXUINT64 };
  gboolean ok = TRUE;
  gint64 settle_start;
  gint64 settle_usec = 0;
  gint64 wait_usec = 0;
  gint64 start_usec = g_get_monotonic_time ();
  gint64 start_cpu = cpu_usec ();
  gint64 rounds_usec;
  gint64 rounds_cpu;
  guint n_rounds = 0;
  g_autoptr(GPtrArray) spare_halves = g_ptr_array_new_with_free_func (halves_free);
  g_autoptr(GPtrArray) spare_coll_halves = g_ptr_array_new_with_free_func (halves_free);

  for (guint k = 0; k < n; k++)
    order[k] = import->share != NULL ? g_array_index (import->share_locations, guint32, k) : k;
  /* opened by the first round of their batch */
  g_ptr_array_set_size (decoders, import->locations->len);
  round.decoders = decoders;
  round.spare_decoders = g_ptr_array_new_with_free_func ((GDestroyNotify)_sextant_location_decoder_free);
  round.claimed = g_new0 (gint, batch_size + 1);
  round.spare_halves = g_ptr_array_new_with_free_func (halves_free);
  round.spare_coll_halves = g_ptr_array_new_with_free_func (halves_free);
  rounds_usec = g_get_monotonic_time ();
  rounds_cpu = cpu_usec ();
  g_mutex_init (&round.lock);
  g_cond_init (&round.start);
  g_cond_init (&round.finished);
  g_cond_init (&round.matched);
  n_threads = MAX (1, MIN (n_threads, batch_size));
  round.n_threads = n_threads;
  round.helpers = g_ptr_array_new ();
  for (guint t = 1; t < n_threads; t++)
    g_ptr_array_add (round.helpers, g_thread_new ("sextant-import", round_thread, &round));

  for (guint first = 0; ok && first < n; first += batch_size)
    {
      guint windows = MAX ((guint)((guint64)n_windows * MIN (batch_size, n - first) / n), 1);
      gint64 step = import->have_clock && import->trace_length > 0
                    ? MAX ((gint64)(import->trace_length / windows), 1) : 0;
      guint left = MIN (batch_size, n - first);
      gint64 next_time;

      round.first = first;
      round.n_locs = left;
      round.until = 0;
      round.max_events = step > 0 ? G_MAXUINT64 : 65536;
      while (ok && left > 0)
        {
          round.until = step > 0 && round.until <= G_MAXINT64 - step ? round.until + step : G_MAXINT64;
          wait_usec += run_round (&round);
          if (round_failed (&round, error))
            {
              ok = FALSE;
              break;
            }

          settle_start = g_get_monotonic_time ();
          ok = settle_batch (&round, spare_halves, spare_coll_halves, &left, &next_time, error);
          settle_usec += g_get_monotonic_time () - settle_start;
          n_rounds++;

          /* every location still reading is past the window now: when the clock
           * properties understate the run, skip the windows nobody is in */
          if (step > 0 && next_time != G_MAXINT64 && next_time - step > round.until)
            round.until = next_time - step;
          if (ok)
            {
              _sextant_import_report_progress (import);
              ok = !g_cancellable_set_error_if_cancelled (import->cancellable, error);
            }
        }

      /* one more round: the locations write what is still open, beside the
       * matching of the last round's halves; what that leaves goes to the
       * matcher behind them, and the batch's locations are closed */
      if (ok)
        {
          round.finishing = TRUE;
          run_round (&round);
          round.finishing = FALSE;
          ok = !round_failed (&round, error) &&
               settle_batch (&round, spare_halves, spare_coll_halves, &left, &next_time, error) &&
               write_location_rows (&round, error);
        }
      close_batch (&round, ok);
    }

  g_debug ("%u rounds on %u thread(s), %u location(s) at once, in %.3f s (%.2f CPUs busy): matching %.3f s "
           "(%.3f s of CPU), writing %.3f s, waits for the other threads %.3f s, settling between rounds %.3f s",
           n_rounds, n_threads, batch_size, (g_get_monotonic_time () - rounds_usec) / (double)G_USEC_PER_SEC,
           (cpu_usec () - rounds_cpu) / (double)MAX (g_get_monotonic_time () - rounds_usec, 1),
           round.match_usec / (double)G_USEC_PER_SEC, round.match_cpu_usec / (double)G_USEC_PER_SEC,
           round.write_usec / (double)G_USEC_PER_SEC,
           wait_usec / (double)G_USEC_PER_SEC, settle_usec / (double)G_USEC_PER_SEC);
  if (ok)
    {
      drain_matcher (&round);
      ok = !round_failed (&round, error);
    }
  g_atomic_int_set (&round.failed, TRUE);
  g_atomic_int_set (&round.quit, TRUE);
  start_helpers (&round);
  for (guint t = 0; t < round.helpers->len; t++)
    g_thread_join (g_ptr_array_index (round.helpers, t));
  g_ptr_array_unref (round.helpers);
  g_cond_clear (&round.start);
  g_cond_clear (&round.finished);
  g_cond_clear (&round.matched);
  g_mutex_clear (&round.lock);
  g_queue_clear_full (&round.batches, (GDestroyNotify)g_ptr_array_unref);
  g_ptr_array_unref (round.spare_halves);
  g_ptr_array_unref (round.spare_coll_halves);
  g_ptr_array_unref (round.spare_decoders);
  g_free (round.claimed);
  if (!ok)
    return FALSE;

  /* a parallel import pairs its processes' requests before the exchange,
   * which takes the halves and members with other ranks */
  if ((import->share != NULL && (!_sextant_matcher_add_paired_requests (import->matcher, error) ||
                                 !_sextant_import_share_exchange (import, error))) ||
      !_sextant_matcher_finish (import->matcher, error) ||
      !sextant_chunk_queue_write (import->chunks, error) ||
      !sextant_store_exec (import->store, SEXTANT_STMT_RESOLVE_RMA_TARGETS, error))
    return FALSE;
  g_debug ("events decoded: %.3f s for %.3f s of CPU", (g_get_monotonic_time () - start_usec) / (double)G_USEC_PER_SEC,
           (cpu_usec () - start_cpu) / (double)G_USEC_PER_SEC);

  return TRUE;
}
