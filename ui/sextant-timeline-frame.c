/*
 * sextant-timeline-frame.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's model: a frame is what one view shows, read on a worker
 * thread from the store through the level-of-detail reader (the rows)
 * and on a second thread with a reader of its own (the lines and the lost
 * time) at once. Its cost is bounded by what is in view, never by the
 * trace's size:
 * - the buckets of the locations whose rows are in view (a page above and
 *   below too, so that scrolling has them), at most 2 W + 2 per location,
 *   or the pieces of the visits when zoomed in past the pyramid;
 * - the counter rows' points, at most one per pixel column;
 * - in the whole-machine mode, the picture of every location squeezed
 *   into the pane's pixel rows, at a level the reader bounds (half of its
 *   bands on each thread, with their reader each);
 * - (but for the first frame of a store, which shows the rows at once:
 *   the first message read builds the reader's message index, 0.45 s on
 *   the 10 M-event store)
 * - the messages in flight with an end in the rows read (lines, at most
 *   MAX_MESSAGES, or their density per pair of locations and stretch of
 *   time; the whole machine: all of them), the collectives' members,
 *   the one-sided operations and window synchronisations, and the time
 *   the pattern instances lost, each capped.
 */
#include "config.h"

#include "sextant-snapshot-util.h"
#include "sextant-store-rows.h"
#include "sextant-timeline-private.h"

static void
source_clear (gpointer data)
{
  Source *source = data;

  g_clear_pointer (&source->reader, sextant_lod_reader_free);
  g_clear_object (&source->store);
  g_clear_pointer (&source->lines_reader, sextant_lod_reader_free);
  g_clear_object (&source->lines_store);
  g_clear_object (&source->session);
}

Source *
_sextant_timeline_source_new (SextantSession *session)
{
  Source *source = g_atomic_rc_box_new0 (Source);

  source->session = g_object_ref (session);

  return source;
}

void
_sextant_timeline_source_release (Source *source)
{
  if (source != NULL)
    g_atomic_rc_box_release_full (source, source_clear);
}

/* On the worker thread: a connection and its reader */
static gboolean
source_open (SextantSession    *session,
             SextantStore     **store,
             SextantLodReader **reader,
             GError           **error)
{
  if (*reader != NULL)
    return TRUE;

  g_clear_object (store);
  return (*store = sextant_session_open_store (session, error)) != NULL &&
         (*reader = sextant_lod_reader_new (*store, error)) != NULL;
}

static void
frame_loc_free (gpointer data)
{
  FrameLoc *fl = data;

  g_array_unref (fl->buckets);
  g_free (fl);
}

static void
frame_counter_free (gpointer data)
{
  FrameCounter *fc = data;

  g_array_unref (fc->points);
  g_free (fc);
}

void
_sextant_timeline_frame_free (Frame *frame)
{
  if (frame == NULL)
    return;

  g_clear_pointer (&frame->filter, sextant_pair_filter_free);
  g_clear_pointer (&frame->locs, g_hash_table_unref);
  g_clear_pointer (&frame->counters, g_ptr_array_unref);
  g_clear_pointer (&frame->regions, g_array_unref);
  g_clear_pointer (&frame->messages, g_array_unref);
  g_clear_pointer (&frame->density, g_array_unref);
  g_clear_pointer (&frame->members, g_array_unref);
  g_clear_pointer (&frame->lost, g_array_unref);
  g_clear_pointer (&frame->rma, g_array_unref);
  g_clear_pointer (&frame->syncs, g_array_unref);
  g_clear_pointer (&frame->locks, g_array_unref);
  if (frame->cells != NULL)
    sextant_pixels_free ((guint32 *)(void *)frame->cells);
  g_free (frame);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Frame, _sextant_timeline_frame_free)

void
_sextant_timeline_frame_request_free (FrameRequest *request)
{
  g_clear_pointer (&request->filter, sextant_pair_filter_free);
  _sextant_timeline_source_release (request->source);
  g_clear_pointer (&request->locs, g_array_unref);
  g_clear_pointer (&request->counters, g_array_unref);
  g_clear_pointer (&request->machine_locs, g_array_unref);
  g_free (request);
}

/* The frame's lost time by location, then begin: the lost-time layer
 * merges a row's intervals in one pass */
static int
compare_lost (gconstpointer a,
              gconstpointer b)
{
  const SextantViewLost *x = a;
  const SextantViewLost *y = b;

  return x->loc != y->loc ? (x->loc > y->loc) - (x->loc < y->loc) : (x->begin > y->begin) - (x->begin < y->begin);
}

static int
compare_region_time (gconstpointer a,
                     gconstpointer b)
{
  const FrameRegion *x = a;
  const FrameRegion *y = b;

  return (x->time < y->time) - (x->time > y->time);
}

/* For the legend: the categories the buckets hold, the regions with the
 * most time */
static void
sum_legend (Frame *frame)
{
  g_autoptr(GHashTable) times = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  /* the regions met last, by their id's low bits: a row's buckets
   * alternate between a few (a lookup per bucket cost 1 ms of a
   * whole-run view's 131,072) */
  FrameRegion *recent[64] = { NULL };
  GHashTableIter iter;
  FrameLoc *fl;
  FrameRegion *r = NULL;
  guint categories = 0;

  frame->regions = g_array_new (FALSE, FALSE, sizeof (FrameRegion));
  g_hash_table_iter_init (&iter, frame->locs);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&fl))
    for (guint i = 0; i < fl->buckets->len; i++)
      {
        const SextantLodBucket *b = &g_array_index (fl->buckets, SextantLodBucket, i);

        /* without branches: a whole-run view has 131,072 buckets */
        for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
          categories |= (guint)(b->time[c] > 0) << c;
        if (b->region == SEXTANT_NULL)
          continue;
        /* a row's buckets in a row are mostly of one region; a region's
         * category is the one of the first bucket it has most time in */
        if (r == NULL || r->region != b->region)
          {
            FrameRegion **slot = &recent[(guint64)b->region % G_N_ELEMENTS (recent)];

            if (*slot != NULL && (*slot)->region == b->region)
              r = *slot;
            else if ((r = g_hash_table_lookup (times, &b->region)) == NULL)
              {
                r = g_new0 (FrameRegion, 1);
                r->region = b->region;
                for (guint c = 1; c < SEXTANT_N_CATEGORIES; c++)
                  if (b->time[c] > b->time[r->category])
                    r->category = c;
                g_hash_table_insert (times, &r->region, r);
              }
            *slot = r;
          }
        r->time += b->busy;
      }
  frame->categories |= categories;
  g_hash_table_iter_init (&iter, times);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&r))
    g_array_append_val (frame->regions, *r);
  g_array_sort (frame->regions, compare_region_time);
  g_array_set_size (frame->regions, MIN (frame->regions->len, 12));
}

/* The whole machine's bands [@first, @last) into the frame's cells (two
 * threads, with a reader each, fill a half each), their categories into
 * @categories */
static gboolean
read_machine (Frame            *frame,
              FrameRequest     *request,
              SextantLodReader *reader,
              guint             first,
              guint             last,
              guint            *categories,
              GError          **error)
{
  return frame->cells == NULL ||
         sextant_lod_reader_read_machine (reader, (const gint64 *)(void *)request->machine_locs->data,
                                          request->machine_locs->len, request->n_bands, first, last, request->t0,
                                          request->t1, (guint)request->width, frame->cells, categories, error);
}

/* The rows' buckets, counters and the machine picture */
static gboolean
read_rows (Frame            *frame,
           FrameRequest     *request,
           SextantLodReader *reader,
           SextantStore     *store,
           GCancellable     *cancellable,
           GError          **error)
{
  frame->level = sextant_lod_reader_pick_level (reader, (double)(request->t1 - request->t0) / request->width);
  frame->bucket_ticks = sextant_lod_reader_get_bucket_ticks (reader, frame->level);
  /* in doubles: a damaged clock can give a span near G_MAXINT64 */
  frame->exact = frame->level == 0 &&
                 (double)frame->bucket_ticks * request->width > EXACT_FROM_PIXELS * (double)(request->t1 - request->t0);
  frame->locs = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, frame_loc_free);
  /* the rows' chunks of the level in one statement */
  if (!frame->exact && request->locs->len > 1 &&
      !sextant_lod_reader_prefetch (reader, (const gint64 *)(void *)request->locs->data, request->locs->len,
                                    frame->level, error))
    return FALSE;
  for (guint i = 0; i < request->locs->len; i++)
    {
      FrameLoc *fl = g_new0 (FrameLoc, 1);
      gboolean ok;

      fl->loc = g_array_index (request->locs, gint64, i);
      fl->buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
      g_hash_table_replace (frame->locs, &fl->loc, fl);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (frame->exact)
        ok = sextant_lod_reader_read_visits (reader, fl->loc, request->t0, request->t1, fl->buckets, error);
      else
        ok = sextant_lod_reader_read (reader, fl->loc, frame->level, request->t0, request->t1, fl->buckets, error);
      if (!ok)
        return FALSE;
    }

  frame->counters = g_ptr_array_new_with_free_func (frame_counter_free);
  for (guint i = 0; request->counters != NULL && i + 1 < request->counters->len; i += 2)
    {
      FrameCounter *fc = g_new0 (FrameCounter, 1);

      fc->loc = g_array_index (request->counters, gint64, i);
      fc->metric = g_array_index (request->counters, gint64, i + 1);
      fc->points = g_array_new (FALSE, FALSE, sizeof (SextantCounterPoint));
      g_ptr_array_add (frame->counters, fc);
      if (!sextant_store_read_counter (store, fc->loc, fc->metric, request->t0, request->t1, (guint)request->width,
                                       fc->points, error))
        return FALSE;
    }

  /* the whole machine's first bands (the lines' thread reads the others) */
  if (!read_machine (frame, request, reader, 0, request->rows_only ? frame->n_bands : frame->n_bands / 2,
                     &frame->categories, error))
    return FALSE;
  /* here, while the lines are read on their thread */
  sum_legend (frame);

  return TRUE;
}

/* Messages (lines, or their density), collectives, one-sided operations,
 * lost time */
static gboolean
read_lines (Frame            *frame,
            FrameRequest     *request,
            SextantLodReader *reader,
            GError          **error)
{
  gboolean too_many = FALSE;
  /* the messages with an end in the rows read (the whole machine: all) */
  const gint64 *locs = request->machine ? NULL : (const gint64 *)(void *)request->locs->data;
  guint n_locs = request->machine ? 0 : request->locs->len;

  frame->messages = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
  if (!sextant_lod_reader_read_messages (reader, locs, n_locs, request->t0, request->t1,
                                            request->filter != NULL ? MAX_FILTERED_READ : MAX_MESSAGES,
                                            frame->messages, &too_many, error))
    return FALSE;
  /* the pair's messages only */
  if (request->filter != NULL && !too_many)
    {
      guint kept = 0;

      for (guint i = 0; i < frame->messages->len; i++)
        {
          const SextantViewMessage *m = &g_array_index (frame->messages, SextantViewMessage, i);

          if (sextant_pair_filter_matches (request->filter, m->send_loc, m->recv_loc))
            g_array_index (frame->messages, SextantViewMessage, kept++) = *m;
        }
      g_array_set_size (frame->messages, kept);
      too_many = kept > MAX_MESSAGES;
    }
  if (too_many)
    {
      g_clear_pointer (&frame->messages, g_array_unref);
      /* about 4 pixels a stretch */
      frame->density = g_array_new (FALSE, FALSE, sizeof (SextantViewMessageDensity));
      if (request->filter == NULL && !request->machine &&
          !sextant_lod_reader_read_message_density (reader, locs, n_locs, request->t0, request->t1,
                                                       MAX ((request->t1 - request->t0) * 4 / request->width, 1),
                                                       MAX_DENSITY, frame->density, error))
        return FALSE;
    }

  frame->members = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
  if (!sextant_lod_reader_read_collectives (reader, request->t0, request->t1, MAX_MEMBERS, frame->members,
                                            &too_many, error))
    return FALSE;
  if (too_many)
    g_clear_pointer (&frame->members, g_array_unref);

  frame->rma = g_array_new (FALSE, FALSE, sizeof (SextantViewRma));
  if (!sextant_lod_reader_read_rma (reader, request->t0, request->t1, MAX_RMA, frame->rma, &too_many, error))
    return FALSE;
  if (too_many)
    g_clear_pointer (&frame->rma, g_array_unref);

  frame->syncs = g_array_new (FALSE, FALSE, sizeof (SextantViewSync));
  if (!sextant_lod_reader_read_rma_sync (reader, request->t0, request->t1, MAX_RMA, frame->syncs, &too_many, error))
    return FALSE;
  if (too_many)
    g_clear_pointer (&frame->syncs, g_array_unref);

  frame->locks = g_array_new (FALSE, FALSE, sizeof (SextantLockWait));
  /* those the layer draws: a few pixels wide */
  if (!sextant_lod_reader_read_lock_waits (reader, request->t0, request->t1,
                                           MAX ((request->t1 - request->t0) * SEXTANT_LOCK_WAIT_MIN_PIXELS
                                                / MAX (request->width, 1), 1),
                                           MAX_LOCK_WAITS, frame->locks, &too_many, error))
    return FALSE;
  if (too_many)
    g_clear_pointer (&frame->locks, g_array_unref);

  frame->lost = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
  if (!sextant_lod_reader_read_lost (reader, request->t0, request->t1, MAX_LOST, frame->lost, &too_many, error))
    return FALSE;
  if (too_many)
    g_clear_pointer (&frame->lost, g_array_unref);
  else
    g_array_sort (frame->lost, compare_lost);

  return TRUE;
}

/* The lines of a frame, read on their own thread while the worker reads
 * the rows */
typedef struct
{
  Frame        *frame;
  FrameRequest *request;
  guint         categories;   /* of its half of the machine's cells */
  GError       *error;
} Lines;

static gpointer
lines_thread (gpointer data)
{
  Lines *lines = data;
  Source *source = lines->request->source;

  if (source_open (source->session, &source->lines_store, &source->lines_reader, &lines->error) &&
      read_lines (lines->frame, lines->request, source->lines_reader, &lines->error))
    read_machine (lines->frame, lines->request, source->lines_reader, lines->frame->n_bands / 2,
                  lines->frame->n_bands, &lines->categories, &lines->error);

  return NULL;
}

void
_sextant_timeline_read_frame_worker (GTask        *task,
                                     gpointer      source_object,
                                     gpointer      task_data,
                                     GCancellable *cancellable)
{
  FrameRequest *request = task_data;
  Source *source = request->source;
  g_autoptr(Frame) frame = g_new0 (Frame, 1);
  Lines lines = { frame, request, 0, NULL };
  GThread *thread = NULL;
  GError *error = NULL;
  gboolean ok;

  frame->t0 = request->t0;
  frame->t1 = request->t1;
  frame->width = request->width;
  frame->generation = request->generation;
  frame->filter = request->filter != NULL ? sextant_pair_filter_copy (request->filter) : NULL;
  frame->rows_serial = request->rows_serial;
  frame->first_row = request->first_row;
  frame->last_row = request->last_row;
  frame->machine = request->machine;
  frame->rows_only = request->rows_only;
  if (request->machine_locs != NULL && request->machine_locs->len > 0 && request->n_bands > 0)
    {
      frame->n_bands = request->n_bands;
      frame->machine_locs = request->machine_locs->len;
      /* 8 bytes a cell, from the pictures' pool: a fresh 10 MB (1469 x
       * 874 cells) costs 2,500 page faults, 5-10 ms in this VM; the
       * reads clear their bands */
      frame->cells = (SextantMachineCell *)(void *)sextant_pixels_new_dirty (2 * request->width, request->n_bands);
    }
  /* the two halves write apart: the rows' fields and the lines', a half
   * of the machine's cells each */
  if (!request->rows_only)
    thread = g_thread_new ("sextant-timeline-lines", lines_thread, &lines);
  ok = source_open (source->session, &source->store, &source->reader, &error) &&
       read_rows (frame, request, source->reader, source->store, cancellable, &error);
  if (thread != NULL)
    g_thread_join (thread);
  if (!ok || lines.error != NULL)
    {
      if (ok)
        error = g_steal_pointer (&lines.error);
      g_clear_error (&lines.error);
      g_task_return_error (task, error);
      return;
    }
  frame->categories |= lines.categories;
  g_task_return_pointer (task, g_steal_pointer (&frame), (GDestroyNotify)_sextant_timeline_frame_free);
}
