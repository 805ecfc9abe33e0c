/*
 * sextant-timeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two kinds of work leave the main thread: the outline (the locations, the
 * regions' names, the run's time span), read once per store, and a frame
 * (a location's buckets for the view), read for every view the user
 * settles on. At most one frame is read at a time; a view change meanwhile
 * is read when it finishes. Until then the last frame is drawn where its
 * buckets fall in the new view, so zooming and panning answer at once.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-lod-reader.h"
#include "sextant-store.h"
#include "sextant-store-private.h"
#include "sextant-timeline.h"

#define LABEL_MIN     100    /* the label column: its widest label, within these */
#define LABEL_MAX     320
#define RULER_HEIGHT   26
#define ROW_HEIGHT     18
#define ROW_GAP         2
#define MIN_PLOT_WIDTH 200

typedef struct
{
  gint64  loc;
  char   *group;        /* the process */
  char   *name;         /* the thread */
  char   *label;        /* the process, and the thread if it has several */
} Row;

/* The worker's connection and reader, kept from frame to frame (a new
 * connection reads the column tables' directories again): used by one
 * frame at a time, on whatever thread runs it, and opened by the first.
 * A connection keeps what it read of those directories, so when another
 * one wrote to the store (the analysis) the timeline takes a new Source. */
typedef struct
{
  char             *db_path;
  SextantStore     *store;
  SextantLodReader *reader;
} Source;

static void
source_clear (gpointer data)
{
  Source *source = data;

  g_clear_pointer (&source->reader, sextant_lod_reader_free);
  g_clear_object (&source->store);
  g_free (source->db_path);
}

static Source *
source_new (const char *db_path)
{
  Source *source = g_atomic_rc_box_new0 (Source);

  source->db_path = g_strdup (db_path);

  return source;
}

/* On the worker thread */
static gboolean
source_open (Source  *source,
             GError **error)
{
  if (source->reader != NULL)
    return TRUE;

  g_clear_object (&source->store);
  return (source->store = sextant_store_open (source->db_path, error)) != NULL &&
         (source->reader = sextant_lod_reader_new (source->store, error)) != NULL;
}

/* What a store shows, read once */
typedef struct
{
  char       *db_path;
  Source     *source;        /* g_atomic_rc_box */
  GArray     *rows;          /* Row, in location order */
  GHashTable *regions;       /* region id (gint64*) -> name */
  GHashTable *row_of;        /* location id (gint64*) -> row + 1 */
  gint64      t_begin;
  gint64      t_end;         /* exclusive */
  gint64      resolution;    /* ticks per second */
} Outline;

/* The buckets of every row for one view, read on a worker thread */
typedef struct
{
  gint64     t0;
  gint64     t1;
  int        width;
  guint      level;
  gint64     bucket_ticks;
  gboolean   exact;          /* the visits themselves, past the pyramid */
  guint      generation;     /* of the store's content it was read from */
  GPtrArray *buckets;        /* GArray of SextantLodBucket per row */
  GArray    *messages;       /* SextantViewMessage, NULL when too many to draw */
  GArray    *members;        /* SextantViewMember, by collective; NULL when too many */
  GArray    *lost;           /* SextantViewLost, NULL when too many */
} Frame;

/* Pattern instances whose lost time is shaded, at most */
#define MAX_LOST 20000

/* Likewise for the members of collectives (64 ranks: 250 collectives) */
#define MAX_MEMBERS 16000

/* A view with more messages in flight than this draws none: the lines
 * would be a grey wash (about 4 per pixel column of a 1920-pixel view) */
#define MAX_MESSAGES 8000

/* Past the pyramid: the visits are read when a base bucket is this many
 * pixels wide (it holds about 32 events of the busiest location, so a
 * row has at most about 4 events a pixel) */
#define EXACT_FROM_PIXELS 8

struct _SextantTimeline
{
  GtkWidget     parent_instance;

  Outline      *outline;
  Frame        *frame;
  char         *error;
  gint64        t0;            /* the view */
  gint64        t1;
  GCancellable *cancellable;   /* of the outline's load and the frame being read */
  gboolean      reading;
  gboolean      ready;

  double        drag_t0;       /* the view when a drag began */
  double        drag_t1;
  double        pointer_x;     /* where Ctrl + wheel zooms around */
  guint         generation;    /* of the store's content: sextant_timeline_refresh() counts up */
  GArray       *columns;       /* double: snapshot_row()'s sums per pixel column and category */
  gboolean      show_messages;
  gboolean      show_lost;
  int           label_width;   /* the column of the rows' names */
  gint64        mark_loc;      /* SEXTANT_NULL: no mark */
  gint64        mark_peer;
  gint64        mark_t0;
  gint64        mark_t1;
  double        wanted_from;   /* seconds: the view to show once the outline is in */
  double        wanted_to;
};

G_DEFINE_FINAL_TYPE (SextantTimeline, sextant_timeline, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_STORE,
  PROP_READY,
  PROP_ERROR,
  PROP_SHOW_MESSAGES,
  PROP_SHOW_LOST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void read_frame (SextantTimeline *self);

/* Vampir's colours, as tools of the field use them: MPI red, user green. */
static const GdkRGBA category_colors[SEXTANT_N_CATEGORIES] = {
  [SEXTANT_CATEGORY_MPI]    = { 0.86, 0.20, 0.22, 1 },
  [SEXTANT_CATEGORY_RMA]    = { 0.96, 0.49, 0.13, 1 },
  [SEXTANT_CATEGORY_USER]   = { 0.22, 0.64, 0.35, 1 },
  [SEXTANT_CATEGORY_OMP]    = { 0.15, 0.45, 0.85, 1 },
  [SEXTANT_CATEGORY_THREAD] = { 0.56, 0.33, 0.78, 1 },
  [SEXTANT_CATEGORY_IO]     = { 0.93, 0.74, 0.17, 1 },
  [SEXTANT_CATEGORY_ACCEL]  = { 0.07, 0.62, 0.58, 1 },
  [SEXTANT_CATEGORY_OTHER]  = { 0.55, 0.55, 0.60, 1 },
};

const GdkRGBA *
sextant_timeline_category_color (guint category)
{
  g_return_val_if_fail (category < SEXTANT_N_CATEGORIES, NULL);

  return &category_colors[category];
}

/* Outline and frame ---------------------------------------------------------- */

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_free (row->group);
  g_free (row->name);
  g_free (row->label);
}

static void
outline_free (Outline *outline)
{
  g_free (outline->db_path);
  if (outline->source != NULL)
    g_atomic_rc_box_release_full (outline->source, source_clear);
  g_clear_pointer (&outline->rows, g_array_unref);
  g_clear_pointer (&outline->regions, g_hash_table_unref);
  g_clear_pointer (&outline->row_of, g_hash_table_unref);
  g_free (outline);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Outline, outline_free)

static void
frame_free (Frame *frame)
{
  g_clear_pointer (&frame->buckets, g_ptr_array_unref);
  g_clear_pointer (&frame->messages, g_array_unref);
  g_clear_pointer (&frame->members, g_array_unref);
  g_clear_pointer (&frame->lost, g_array_unref);
  g_free (frame);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Frame, frame_free)

static gint64
meta_int (SextantStore *store,
          const char   *key,
          gint64        fallback)
{
  g_autofree char *text = sextant_store_get_meta (store, key);

  return text != NULL ? g_ascii_strtoll (text, NULL, 10) : fallback;
}

static gboolean
location_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  GArray *rows = user_data;
  const char *name = sextant_row_is_null (row, 2) ? "?" : sextant_row_get_text (row, 2);
  const char *group = sextant_row_is_null (row, 4) ? NULL : sextant_row_get_text (row, 4);
  Row r;

  /* locations without events have no row */
  if (sextant_row_get_int (row, 6) == 0)
    return TRUE;

  r.loc = sextant_row_get_int (row, 0);
  r.group = g_strdup (group);
  r.name = g_strdup (name);
  r.label = NULL;
  g_array_append_val (rows, r);

  return TRUE;
}

static void
load_outline_worker (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  const char *db_path = task_data;
  g_autoptr(Outline) outline = g_new0 (Outline, 1);
  SextantStore *store;
  GError *error = NULL;

  outline->db_path = g_strdup (db_path);
  outline->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  g_array_set_clear_func (outline->rows, row_clear);
  outline->source = source_new (db_path);

  if (!source_open (outline->source, &error) || !(store = outline->source->store) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_LOCATIONS, location_row, outline->rows, &error, "") ||
      !(outline->regions = sextant_store_read_names (store, SEXTANT_QUERY_REGION_NAMES, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  /* "MPI Rank 3", or "MPI Rank 3 / OpenMP thread 2" where a process has
   * several threads */
  {
    g_autoptr(GHashTable) threads = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; i < outline->rows->len; i++)
      {
        Row *r = &g_array_index (outline->rows, Row, i);

        if (r->group != NULL)
          g_hash_table_insert (threads, r->group,
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (threads, r->group)) + 1));
      }
    for (guint i = 0; i < outline->rows->len; i++)
      {
        Row *r = &g_array_index (outline->rows, Row, i);

        if (r->group == NULL)
          r->label = g_strdup (r->name);
        else if (GPOINTER_TO_UINT (g_hash_table_lookup (threads, r->group)) > 1)
          r->label = g_strdup_printf ("%s / %s", r->group, r->name);
        else
          r->label = g_strdup (r->group);
      }
  }

  outline->row_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < outline->rows->len; i++)
    g_hash_table_insert (outline->row_of, &g_array_index (outline->rows, Row, i).loc, GUINT_TO_POINTER (i + 1));

  outline->t_begin = meta_int (store, "time_begin", 0);
  outline->t_end = MAX (meta_int (store, "time_end", 0), outline->t_begin) + 1;
  outline->resolution = MAX (meta_int (store, "resolution", 1), 1);
  g_task_return_pointer (task, g_steal_pointer (&outline), (GDestroyNotify)outline_free);
}

typedef struct
{
  Source *source;
  GArray *locs;      /* gint64, the rows' locations */
  gint64  t0;
  gint64  t1;
  int     width;
  guint   generation;
} FrameRequest;

static void
frame_request_free (FrameRequest *request)
{
  g_atomic_rc_box_release_full (request->source, source_clear);
  g_array_unref (request->locs);
  g_free (request);
}

/* The frame's lost time by location, then begin: snapshot_lost() merges
 * a row's intervals in one pass */
static int
compare_lost (gconstpointer a,
              gconstpointer b)
{
  const SextantViewLost *x = a;
  const SextantViewLost *y = b;

  return x->loc != y->loc ? (x->loc > y->loc) - (x->loc < y->loc) : (x->begin > y->begin) - (x->begin < y->begin);
}

static void
read_frame_worker (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  FrameRequest *request = task_data;
  SextantLodReader *reader;
  g_autoptr(Frame) frame = g_new0 (Frame, 1);
  GError *error = NULL;

  if (!source_open (request->source, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  reader = request->source->reader;

  frame->t0 = request->t0;
  frame->t1 = request->t1;
  frame->width = request->width;
  frame->generation = request->generation;
  frame->buckets = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);

  frame->level = sextant_lod_reader_pick_level (reader, (double)(request->t1 - request->t0) / request->width);
  frame->bucket_ticks = sextant_lod_reader_get_bucket_ticks (reader, frame->level);
  frame->exact = frame->level == 0 &&
                 frame->bucket_ticks * request->width > EXACT_FROM_PIXELS * (request->t1 - request->t0);
  for (guint i = 0; i < request->locs->len; i++)
    {
      GArray *buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
      gint64 loc = g_array_index (request->locs, gint64, i);
      gboolean ok;

      g_ptr_array_add (frame->buckets, buckets);
      if (g_task_return_error_if_cancelled (task))
        return;
      if (frame->exact)
        ok = sextant_lod_reader_read_visits (reader, loc, request->t0, request->t1, buckets, &error);
      else
        ok = sextant_lod_reader_read (reader, loc, frame->level, request->t0, request->t1, buckets, &error);
      if (!ok)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  {
    gboolean too_many = FALSE;

    frame->messages = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
    if (!sextant_lod_reader_read_messages (reader, request->t0, request->t1, MAX_MESSAGES, frame->messages,
                                           &too_many, &error))
      {
        g_task_return_error (task, error);
        return;
      }
    if (too_many)
      g_clear_pointer (&frame->messages, g_array_unref);

    frame->members = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
    if (!sextant_lod_reader_read_collectives (reader, request->t0, request->t1, MAX_MEMBERS, frame->members,
                                              &too_many, &error))
      {
        g_task_return_error (task, error);
        return;
      }
    if (too_many)
      g_clear_pointer (&frame->members, g_array_unref);

    frame->lost = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
    if (!sextant_lod_reader_read_lost (reader, request->t0, request->t1, MAX_LOST, frame->lost, &too_many, &error))
      {
        g_task_return_error (task, error);
        return;
      }
    if (too_many)
      g_clear_pointer (&frame->lost, g_array_unref);
    else
      g_array_sort (frame->lost, compare_lost);
  }

  g_task_return_pointer (task, g_steal_pointer (&frame), (GDestroyNotify)frame_free);
}

/* The view ------------------------------------------------------------------- */

static int
plot_width (SextantTimeline *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - self->label_width, 1);
}

static void
set_ready (SextantTimeline *self,
           gboolean         ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

static gboolean
frame_is_current (SextantTimeline *self)
{
  return self->frame != NULL && self->frame->t0 == self->t0 && self->frame->t1 == self->t1 &&
         self->frame->width == plot_width (self) && self->frame->generation == self->generation;
}

static void
frame_read_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(SextantTimeline) self = user_data;
  g_autoptr(GError) error = NULL;
  Frame *frame;

  /* a read of a store shown before: the one of this store may be running,
   * on the same connection, so `reading` stays as it is */
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      if ((frame = g_task_propagate_pointer (G_TASK (result), NULL)) != NULL)
        frame_free (frame);
      return;
    }

  self->reading = FALSE;
  if (!(frame = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_free (self->error);
          self->error = g_strdup (error->message);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
          gtk_widget_queue_draw (GTK_WIDGET (self));
        }
      return;
    }

  g_clear_pointer (&self->frame, frame_free);
  self->frame = frame;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  /* the view moved on while it was read */
  if (!frame_is_current (self))
    read_frame (self);
  else
    set_ready (self, TRUE);
}

static void
read_frame (SextantTimeline *self)
{
  g_autoptr(GTask) task = NULL;
  FrameRequest *request;

  /* not before the widget has its width: a frame is read for a width */
  if (self->outline == NULL || self->reading || self->error != NULL || frame_is_current (self) ||
      gtk_widget_get_width (GTK_WIDGET (self)) <= self->label_width)
    return;

  request = g_new0 (FrameRequest, 1);
  request->source = g_atomic_rc_box_acquire (self->outline->source);
  request->locs = g_array_sized_new (FALSE, FALSE, sizeof (gint64), self->outline->rows->len);
  for (guint i = 0; i < self->outline->rows->len; i++)
    g_array_append_val (request->locs, g_array_index (self->outline->rows, Row, i).loc);
  request->t0 = self->t0;
  request->t1 = self->t1;
  request->width = plot_width (self);
  request->generation = self->generation;

  self->reading = TRUE;
  task = g_task_new (NULL, self->cancellable, frame_read_cb, g_object_ref (self));
  g_task_set_source_tag (task, read_frame);
  g_task_set_task_data (task, request, (GDestroyNotify)frame_request_free);
  g_task_run_in_thread (task, read_frame_worker);
}

static void
view_changed (SextantTimeline *self)
{
  set_ready (self, frame_is_current (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  read_frame (self);
}

void
sextant_timeline_set_view (SextantTimeline *self,
                           gint64           t0,
                           gint64           t1)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  if (self->outline != NULL)
    {
      /* within the run, and at least a tick a pixel */
      gint64 span = self->outline->t_end - self->outline->t_begin;
      gint64 width = MAX (t1 - t0, MIN (span, MIN_PLOT_WIDTH));

      width = MIN (width, span);
      t0 = CLAMP (t0, self->outline->t_begin, self->outline->t_end - width);
      t1 = t0 + width;
    }
  if (t0 == self->t0 && t1 == self->t1)
    return;

  self->t0 = t0;
  self->t1 = t1;
  view_changed (self);
}

void
sextant_timeline_set_view_seconds (SextantTimeline *self,
                                   double           from,
                                   double           to)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));
  g_return_if_fail (to > from);

  self->wanted_from = from;
  self->wanted_to = to;
  if (self->outline != NULL)
    {
      double res = (double)self->outline->resolution;

      sextant_timeline_set_view (self, self->outline->t_begin + (gint64)llround (from * res),
                                 self->outline->t_begin + (gint64)llround (to * res));
    }
}

void
sextant_timeline_get_view (SextantTimeline *self,
                           gint64          *t0,
                           gint64          *t1)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  if (t0 != NULL)
    *t0 = self->t0;
  if (t1 != NULL)
    *t1 = self->t1;
}

/* Zooms by @factor (> 1: in) keeping the time at @at_fraction of the plot
 * where it is. */
void
sextant_timeline_zoom (SextantTimeline *self,
                       double           factor,
                       double           at_fraction)
{
  double width = (double)(self->t1 - self->t0);
  double at = self->t0 + at_fraction * width;
  double new_width = width / factor;

  g_return_if_fail (factor > 0);

  sextant_timeline_set_view (self, (gint64)llround (at - at_fraction * new_width),
                             (gint64)llround (at - at_fraction * new_width + new_width));
}

void
sextant_timeline_zoom_fit (SextantTimeline *self)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  if (self->outline != NULL)
    sextant_timeline_set_view (self, self->outline->t_begin, self->outline->t_end);
}

void
sextant_timeline_refresh (SextantTimeline *self)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  /* the frame stays drawn, but is not the view's any more, nor is one
   * being read now; the next is read on a new connection */
  self->generation++;
  if (self->outline != NULL)
    {
      Source *fresh = source_new (self->outline->db_path);

      g_atomic_rc_box_release_full (self->outline->source, source_clear);
      self->outline->source = fresh;
    }
  view_changed (self);
}

gboolean
sextant_timeline_get_ready (SextantTimeline *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), FALSE);

  return self->ready;
}

static void
outline_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SextantTimeline) self = user_data;
  g_autoptr(GError) error = NULL;
  Outline *outline;

  if (!(outline = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->error = g_strdup (error->message);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
          gtk_widget_queue_draw (GTK_WIDGET (self));
        }
      return;
    }

  self->outline = outline;
  {
    g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
    int widest = 0;

    for (guint i = 0; i < outline->rows->len; i++)
      {
        int w;

        pango_layout_set_text (layout, g_array_index (outline->rows, Row, i).label, -1);
        pango_layout_get_pixel_size (layout, &w, NULL);
        widest = MAX (widest, w);
      }
    self->label_width = CLAMP (widest + 14, LABEL_MIN, LABEL_MAX);
  }
  gtk_widget_queue_resize (GTK_WIDGET (self));
  /* a view asked for before the store was there, once */
  if (self->wanted_to > self->wanted_from)
    sextant_timeline_set_view_seconds (self, self->wanted_from, self->wanted_to);
  else
    sextant_timeline_zoom_fit (self);
  self->wanted_from = self->wanted_to = 0;
}

void
sextant_timeline_set_store (SextantTimeline *self,
                            const char      *db_path)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->outline, outline_free);
  g_clear_pointer (&self->frame, frame_free);
  g_clear_pointer (&self->error, g_free);
  self->reading = FALSE;
  self->t0 = self->t1 = 0;
  self->mark_loc = self->mark_peer = SEXTANT_NULL;
  set_ready (self, FALSE);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
  if (db_path == NULL)
    return;

  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, outline_loaded_cb, g_object_ref (self));
  g_task_set_source_tag (task, sextant_timeline_set_store);
  g_task_set_task_data (task, g_strdup (db_path), g_free);
  g_task_run_in_thread (task, load_outline_worker);
}

const char *
sextant_timeline_get_store (SextantTimeline *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), NULL);

  return self->outline != NULL ? self->outline->db_path : NULL;
}

void
sextant_timeline_set_mark (SextantTimeline *self,
                           gint64           loc,
                           gint64           peer_loc,
                           gint64           t0,
                           gint64           t1)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  self->mark_loc = loc;
  self->mark_peer = peer_loc;
  self->mark_t0 = t0;
  self->mark_t1 = MAX (t1, t0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sextant_timeline_show_range (SextantTimeline *self,
                             gint64           t0,
                             gint64           t1)
{
  gint64 width;

  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  /* the range in the middle fifth, wide enough to see what came before */
  width = MAX (MAX (t1 - t0, 0) * 5, MIN_PLOT_WIDTH);
  sextant_timeline_set_view (self, t0 - (width - (t1 - t0)) / 2, t0 - (width - (t1 - t0)) / 2 + width);
}

gboolean
sextant_timeline_get_row_area (SextantTimeline *self,
                               guint            row,
                               graphene_rect_t *area)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), FALSE);

  if (self->outline == NULL || row >= self->outline->rows->len)
    return FALSE;

  graphene_rect_init (area, self->label_width, RULER_HEIGHT + ROW_GAP + row * (ROW_HEIGHT + ROW_GAP), plot_width (self),
                      ROW_HEIGHT);

  return TRUE;
}

double
sextant_timeline_x_for_time (SextantTimeline *self,
                             gint64           t)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), 0);

  if (self->t1 <= self->t0)
    return self->label_width;

  return self->label_width + (double)(t - self->t0) / (self->t1 - self->t0) * plot_width (self);
}

/* Drawing -------------------------------------------------------------------- */

/* A tick step of 1, 2 or 5 times a power of ten seconds that puts about
 * one label every 100 pixels. */
static double
ruler_step (double seconds,
            int    width)
{
  double raw = seconds / MAX (width / 100.0, 1.0);
  double power = pow (10.0, floor (log10 (raw)));

  if (raw <= power)
    return power;
  if (raw <= 2 * power)
    return 2 * power;
  if (raw <= 5 * power)
    return 5 * power;
  return 10 * power;
}

/* @seconds in the unit of @magnitude (the largest time on the ruler), with
 * as many decimals as @step needs: "100.5 ms", "2 s" */
static char *
format_seconds (double seconds,
                double step,
                double magnitude)
{
  static const struct { double unit; const char *name; } units[] = {
    { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" },
  };
  guint u = 0;
  int decimals;

  while (u + 1 < G_N_ELEMENTS (units) && magnitude < units[u].unit)
    u++;
  decimals = (int)CLAMP (ceil (-log10 (step / units[u].unit) - 1e-9), 0, 9);

  return g_strdup_printf ("%.*f %s", decimals, seconds / units[u].unit, units[u].name);
}

static void
snapshot_ruler (SextantTimeline *self,
                GtkSnapshot     *snapshot,
                PangoLayout     *layout,
                const GdkRGBA   *fg,
                int              width,
                int              height)
{
  double res = (double)self->outline->resolution;
  double s0 = (self->t0 - self->outline->t_begin) / res;
  double s1 = (self->t1 - self->outline->t_begin) / res;
  double step = ruler_step (s1 - s0, width - self->label_width);
  GdkRGBA grid = *fg;

  grid.alpha = 0.15;
  for (double s = ceil (s0 / step) * step; s <= s1; s += step)
    {
      float x = self->label_width + (float)((s - s0) / (s1 - s0) * (width - self->label_width));
      g_autofree char *text = format_seconds (fabs (s) < step * 1e-6 ? 0 : s, step, MAX (fabs (s0), fabs (s1)));

      int text_width;

      gtk_snapshot_append_color (snapshot, fg, &GRAPHENE_RECT_INIT (x, RULER_HEIGHT - 6, 1, 6));
      gtk_snapshot_append_color (snapshot, &grid, &GRAPHENE_RECT_INIT (x, RULER_HEIGHT, 1, height - RULER_HEIGHT));
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &text_width, NULL);
      if (x + 3 + text_width > width)
        continue;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 3, 2));
      gtk_snapshot_append_layout (snapshot, layout, fg);
      gtk_snapshot_restore (snapshot);
    }
  gtk_snapshot_append_color (snapshot, &grid, &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT - 1, width, 1));
}

/* Bottom to top in a row: computation first, waiting and communication on
 * top, where the eye looks for them. */
static const guint stack_order[SEXTANT_N_CATEGORIES] = {
  SEXTANT_CATEGORY_USER, SEXTANT_CATEGORY_OMP, SEXTANT_CATEGORY_ACCEL, SEXTANT_CATEGORY_IO,
  SEXTANT_CATEGORY_THREAD, SEXTANT_CATEGORY_OTHER, SEXTANT_CATEGORY_RMA, SEXTANT_CATEGORY_MPI,
};

/* One row: the frame's buckets summed per pixel column of the current
 * view; each column is a stack, a category's height its share of the
 * column's time (a column half idle is half empty). Columns with the same
 * stack make one rectangle per category. */
static void
snapshot_row (SextantTimeline *self,
              GtkSnapshot     *snapshot,
              GArray          *buckets,
              float            y,
              int              plot)
{
  double *time;
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  guint8 run[SEXTANT_N_CATEGORIES] = { 0 };
  int start = 0;

  /* the columns' sums, in a buffer the rows and the frames share */
  g_array_set_size (self->columns, 0);
  g_array_set_size (self->columns, (guint)plot * SEXTANT_N_CATEGORIES);
  time = (double *)(void *)self->columns->data;

  for (guint i = 0; i < buckets->len; i++)
    {
      const SextantLodBucket *b = &g_array_index (buckets, SextantLodBucket, i);
      double x0 = (b->begin - self->t0) / ticks_per_px;
      double x1 = (b->end - self->t0) / ticks_per_px;

      /* a bucket's time spread over the columns it covers, in proportion */
      for (int x = MAX ((int)floor (x0), 0); x < MIN ((int)ceil (x1), plot); x++)
        {
          double share = (MIN (x1, x + 1.0) - MAX (x0, (double)x)) / (x1 - x0);

          for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
            time[(gsize)x * SEXTANT_N_CATEGORIES + c] += share * b->time[c];
        }
    }

  for (int x = 0; x <= plot; x++)
    {
      guint8 stack[SEXTANT_N_CATEGORIES] = { 0 };

      if (x < plot)
        {
          /* heights in whole pixels, rounded on the running sum so that
           * they add up to the rounded total */
          double sum = 0;
          int below = 0;

          for (guint k = 0; k < SEXTANT_N_CATEGORIES; k++)
            {
              int top;

              sum += time[(gsize)x * SEXTANT_N_CATEGORIES + stack_order[k]];
              top = (int)lround (MIN (sum / ticks_per_px, 1.0) * ROW_HEIGHT);
              stack[k] = (guint8)(top - below);
              below = top;
            }
        }
      if (x == plot || memcmp (stack, run, sizeof stack) != 0)
        {
          float bottom = y + ROW_HEIGHT;

          for (guint k = 0; k < SEXTANT_N_CATEGORIES && x > start; k++)
            if (run[k] > 0)
              {
                bottom -= run[k];
                gtk_snapshot_append_color (snapshot, &category_colors[stack_order[k]],
                                           &GRAPHENE_RECT_INIT (self->label_width + start, bottom, x - start, run[k]));
              }
          memcpy (run, stack, sizeof run);
          start = x;
        }
    }
}

/* The middle of row @row (0-based) */
static inline double
row_middle (guint row)
{
  return RULER_HEIGHT + ROW_GAP + row * (ROW_HEIGHT + ROW_GAP) + ROW_HEIGHT / 2.0;
}

/* The time lost by pattern instances, dark over the rows: per row the
 * union of the instances' intervals, so that overlapping patterns (a late
 * sender inside a wait at N x N) do not darken each other. */
static void
snapshot_lost (SextantTimeline *self,
               GtkSnapshot     *snapshot,
               int              plot)
{
  static const GdkRGBA shade = { 0, 0, 0, 0.35f };
  GArray *lost = self->frame->lost;   /* sorted by the worker */
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;

  for (guint i = 0; i < lost->len; )
    {
      gint64 loc = g_array_index (lost, SextantViewLost, i).loc;
      guint row = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &loc));
      guint j = i;

      while (j < lost->len && g_array_index (lost, SextantViewLost, j).loc == loc)
        {
          gint64 begin = g_array_index (lost, SextantViewLost, j).begin;
          gint64 end = g_array_index (lost, SextantViewLost, j).end;
          double x0, x1;

          for (j++; j < lost->len && g_array_index (lost, SextantViewLost, j).loc == loc &&
                    g_array_index (lost, SextantViewLost, j).begin <= end; j++)
            end = MAX (end, g_array_index (lost, SextantViewLost, j).end);
          if (row == 0)
            continue;
          x0 = CLAMP ((begin - self->t0) / ticks_per_px, 0, plot);
          x1 = CLAMP ((end - self->t0) / ticks_per_px, 0, plot);
          if (x1 - x0 < 1)
            x1 = MIN (x0 + 1, plot);
          gtk_snapshot_append_color (snapshot, &shade,
                                     &GRAPHENE_RECT_INIT (self->label_width + (float)x0, row_middle (row - 1) - ROW_HEIGHT / 2.0f,
                                                          (float)(x1 - x0), ROW_HEIGHT));
        }
      i = j;
    }
}

/* A Cairo context for the plot, clipped to it, for the lines */
static cairo_t *
plot_cairo (SextantTimeline *self,
            GtkSnapshot     *snapshot,
            int              plot,
            int              height)
{
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, plot,
                                                                          height - RULER_HEIGHT));

  cairo_rectangle (cr, self->label_width, RULER_HEIGHT, plot, height - RULER_HEIGHT);
  cairo_clip (cr);

  return cr;
}

/* A line from the send on the sender's row to the receive on the
 * receiver's, over the rows, as tools of the field draw messages. */
static void
snapshot_messages (SextantTimeline *self,
                   GtkSnapshot     *snapshot,
                   int              plot,
                   int              height)
{
  cairo_t *cr = plot_cairo (self, snapshot, plot, height);
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  GArray *messages = self->frame->messages;

  cairo_set_line_width (cr, 1.5);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.85);
  for (guint i = 0; i < messages->len; i++)
    {
      const SextantViewMessage *m = &g_array_index (messages, SextantViewMessage, i);
      guint from = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &m->send_loc));
      guint to = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &m->recv_loc));

      if (from == 0 || to == 0)
        continue;
      cairo_move_to (cr, self->label_width + (m->send_time - self->t0) / ticks_per_px, row_middle (from - 1));
      cairo_line_to (cr, self->label_width + (m->recv_time - self->t0) / ticks_per_px, row_middle (to - 1));
    }
  cairo_stroke (cr);
  cairo_destroy (cr);
}

const GdkRGBA *
sextant_timeline_collective_color (void)
{
  static const GdkRGBA navy = { 0.05f, 0.10f, 0.40f, 1 };

  return &navy;
}

/* A collective: a navy line across its members' rows at the moment the
 * last of them arrived (nobody leaves a synchronising collective before),
 * and a short tick on each member's row where it arrived. */
static void
snapshot_collectives (SextantTimeline *self,
                      GtkSnapshot     *snapshot,
                      int              plot,
                      int              height)
{
  cairo_t *cr = plot_cairo (self, snapshot, plot, height);
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  GArray *members = self->frame->members;

  gdk_cairo_set_source_rgba (cr, sextant_timeline_collective_color ());
  cairo_set_line_width (cr, 2);
  for (guint i = 0; i < members->len; )
    {
      gint64 id = g_array_index (members, SextantViewMember, i).collective;
      gint64 last = G_MININT64;
      guint top = G_MAXUINT, bottom = 0;
      guint j;

      for (j = i; j < members->len && g_array_index (members, SextantViewMember, j).collective == id; j++)
        {
          const SextantViewMember *m = &g_array_index (members, SextantViewMember, j);
          guint row = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &m->loc));

          last = MAX (last, m->begin);
          if (row == 0)
            continue;
          top = MIN (top, row - 1);
          bottom = MAX (bottom, row - 1);
          /* where it arrived */
          cairo_move_to (cr, self->label_width + (m->begin - self->t0) / ticks_per_px, row_middle (row - 1) - 3);
          cairo_rel_line_to (cr, 0, 6);
        }
      if (top < bottom)
        {
          double x = self->label_width + (last - self->t0) / ticks_per_px;

          cairo_move_to (cr, x, row_middle (top));
          cairo_line_to (cr, x, row_middle (bottom));
        }
      i = j;
    }
  cairo_stroke (cr);
  cairo_destroy (cr);
}

static const GdkRGBA mark_fill = { 1.0, 0.85, 0.0, 1 };

/* A yellow box with a dark frame over @loc's row from mark_t0 to mark_t1
 * (at least 3 pixels wide, so that a short instance shows) */
static void
snapshot_mark (SextantTimeline *self,
               GtkSnapshot     *snapshot,
               gint64           loc,
               int              plot,
               float            alpha)
{
  guint row = self->outline != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &loc)) : 0;
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  float x0, x1, y;
  GdkRGBA fill = mark_fill;
  GdkRGBA border = { 0, 0, 0, alpha };
  GskRoundedRect frame;

  if (loc == SEXTANT_NULL || row == 0)
    return;

  x0 = (float)CLAMP (self->label_width + (self->mark_t0 - self->t0) / ticks_per_px, self->label_width - 2, self->label_width + plot + 2);
  x1 = (float)CLAMP (self->label_width + (self->mark_t1 - self->t0) / ticks_per_px, self->label_width - 2, self->label_width + plot + 2);
  if (x1 - x0 < 3)
    {
      x0 = (x0 + x1) / 2 - 1.5f;
      x1 = x0 + 3;
    }
  y = RULER_HEIGHT + ROW_GAP + (row - 1) * (ROW_HEIGHT + ROW_GAP);
  fill.alpha = alpha * 0.6f;
  gtk_snapshot_append_color (snapshot, &fill, &GRAPHENE_RECT_INIT (x0, y, x1 - x0, ROW_HEIGHT));
  gsk_rounded_rect_init_from_rect (&frame, &GRAPHENE_RECT_INIT (x0 - 1, y - 1, x1 - x0 + 2, ROW_HEIGHT + 2), 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { border, border, border, border });
}

/* The frame's buckets lie in its own view; drawn in the current one they
 * keep their times, so a frame read before a zoom is still in place. */
static void
sextant_timeline_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int plot = width - self->label_width;
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  GdkRGBA fg;
  GdkRGBA stripe;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  stripe = fg;
  stripe.alpha = 0.05;

  /* an error is the window's to show */
  if (self->error != NULL || self->outline == NULL || plot <= 0 || self->t1 <= self->t0)
    return;

  snapshot_ruler (self, snapshot, layout, &fg, width, height);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_width (layout, (self->label_width - 12) * PANGO_SCALE);
  for (guint i = 0; i < self->outline->rows->len; i++)
    {
      const Row *row = &g_array_index (self->outline->rows, Row, i);
      float y = RULER_HEIGHT + ROW_GAP + i * (ROW_HEIGHT + ROW_GAP);

      gtk_snapshot_append_color (snapshot, &stripe, &GRAPHENE_RECT_INIT (self->label_width, y, plot, ROW_HEIGHT));
      pango_layout_set_text (layout, row->label, -1);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (6, y + 1));
      gtk_snapshot_append_layout (snapshot, layout, &fg);
      gtk_snapshot_restore (snapshot);
      if (self->frame != NULL && i < self->frame->buckets->len)
        snapshot_row (self, snapshot, g_ptr_array_index (self->frame->buckets, i), y, plot);
    }
  if (self->show_lost && self->frame != NULL && self->frame->lost != NULL && self->frame->lost->len > 0)
    snapshot_lost (self, snapshot, plot);
  /* the collectives over the messages: fewer, and they order the run */
  if (self->show_messages && self->frame != NULL && self->frame->messages != NULL && self->frame->messages->len > 0)
    snapshot_messages (self, snapshot, plot, height);
  if (self->show_messages && self->frame != NULL && self->frame->members != NULL && self->frame->members->len > 0)
    snapshot_collectives (self, snapshot, plot, height);
  if (self->mark_loc != SEXTANT_NULL)
    {
      snapshot_mark (self, snapshot, self->mark_peer, plot, 0.35);
      snapshot_mark (self, snapshot, self->mark_loc, plot, 0.75);
    }
}

static void
sextant_timeline_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = self->label_width + MIN_PLOT_WIDTH;
      *natural = self->label_width + 800;
    }
  else
    {
      guint rows = self->outline != NULL ? self->outline->rows->len : 0;

      *minimum = *natural = RULER_HEIGHT + ROW_GAP + (int)rows * (ROW_HEIGHT + ROW_GAP);
    }
}

static void
sextant_timeline_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);

  /* a frame is read for a width */
  if (self->frame != NULL && self->frame->width != plot_width (self))
    view_changed (self);
  else
    read_frame (self);
}

/* Tooltips: the location, the time, and what ran in the bucket there */
static gboolean
sextant_timeline_query_tooltip (GtkWidget  *widget,
                                int         x,
                                int         y,
                                gboolean    keyboard,
                                GtkTooltip *tooltip)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);
  int row = (y - RULER_HEIGHT - ROW_GAP) / (ROW_HEIGHT + ROW_GAP);
  g_autoptr(GString) text = g_string_new (NULL);
  GArray *buckets;
  gint64 t;

  if (self->outline == NULL || self->frame == NULL || x < self->label_width || y < RULER_HEIGHT + ROW_GAP ||
      row < 0 || (guint)row >= self->frame->buckets->len)
    return FALSE;

  t = self->t0 + (gint64)((double)(x - self->label_width) / plot_width (self) * (self->t1 - self->t0));
  g_string_append_printf (text, "<b>%s</b>\n%.6f s", g_array_index (self->outline->rows, Row, row).label,
                          (t - self->outline->t_begin) / (double)self->outline->resolution);
  buckets = g_ptr_array_index (self->frame->buckets, row);
  for (guint i = 0; i < buckets->len; i++)
    {
      const SextantLodBucket *b = &g_array_index (buckets, SextantLodBucket, i);
      const char *region;

      if (t < b->begin || t >= b->end)
        continue;
      region = g_hash_table_lookup (self->outline->regions, &b->region);
      g_string_append_printf (text, "\nmostly <tt>%s</tt>", region != NULL ? region : "?");
      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        if (b->time[c] > 0)
          g_string_append_printf (text, "\n%s %.0f %%", sextant_category_names[c], 100.0 * b->time[c] / (b->end - b->begin));
      break;
    }
  gtk_tooltip_set_markup (tooltip, text->str);

  return TRUE;
}

/* Input ---------------------------------------------------------------------- */

static double
fraction_at (SextantTimeline *self,
             double           x)
{
  return CLAMP ((x - self->label_width) / plot_width (self), 0.0, 1.0);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SextantTimeline          *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->outline == NULL)
    return FALSE;

  if ((state & GDK_CONTROL_MASK) != 0)
    {
      sextant_timeline_zoom (self, pow (1.25, -dy), fraction_at (self, self->pointer_x));
      return TRUE;
    }
  if ((state & GDK_SHIFT_MASK) != 0 || dx != 0)
    {
      double shift = ((state & GDK_SHIFT_MASK) != 0 ? dy : dx) * 0.1 * (self->t1 - self->t0);

      sextant_timeline_set_view (self, self->t0 + (gint64)shift, self->t1 + (gint64)shift);
      return TRUE;
    }

  return FALSE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SextantTimeline          *self)
{
  self->pointer_x = x;
}

static void
drag_begin_cb (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               SextantTimeline *self)
{
  self->drag_t0 = (double)self->t0;
  self->drag_t1 = (double)self->t1;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update_cb (GtkGestureDrag  *gesture,
                double           dx,
                double           dy,
                SextantTimeline *self)
{
  double shift = -dx / plot_width (self) * (self->drag_t1 - self->drag_t0);

  sextant_timeline_set_view (self, (gint64)llround (self->drag_t0 + shift), (gint64)llround (self->drag_t1 + shift));
}

static void
zoom_in_action (GtkWidget  *widget,
                const char *action,
                GVariant   *parameter)
{
  sextant_timeline_zoom (SEXTANT_TIMELINE (widget), 2.0, 0.5);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action,
                 GVariant   *parameter)
{
  sextant_timeline_zoom (SEXTANT_TIMELINE (widget), 0.5, 0.5);
}

static void
zoom_fit_action (GtkWidget  *widget,
                 const char *action,
                 GVariant   *parameter)
{
  sextant_timeline_zoom_fit (SEXTANT_TIMELINE (widget));
}

static void
pan_action (GtkWidget  *widget,
            const char *action,
            GVariant   *parameter)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);
  gint64 shift = (gint64)(g_variant_get_double (parameter) * (self->t1 - self->t0));

  sextant_timeline_set_view (self, self->t0 + shift, self->t1 + shift);
}

/* GObject -------------------------------------------------------------------- */

static void
sextant_timeline_dispose (GObject *object)
{
  SextantTimeline *self = SEXTANT_TIMELINE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (sextant_timeline_parent_class)->dispose (object);
}

static void
sextant_timeline_finalize (GObject *object)
{
  SextantTimeline *self = SEXTANT_TIMELINE (object);

  g_clear_pointer (&self->outline, outline_free);
  g_clear_pointer (&self->frame, frame_free);
  g_clear_pointer (&self->columns, g_array_unref);
  g_free (self->error);

  G_OBJECT_CLASS (sextant_timeline_parent_class)->finalize (object);
}

static void
sextant_timeline_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SextantTimeline *self = SEXTANT_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_string (value, sextant_timeline_get_store (self));
      break;
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_SHOW_MESSAGES:
      g_value_set_boolean (value, self->show_messages);
      break;
    case PROP_SHOW_LOST:
      g_value_set_boolean (value, self->show_lost);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_timeline_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SextantTimeline *self = SEXTANT_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_STORE:
      sextant_timeline_set_store (self, g_value_get_string (value));
      break;
    case PROP_SHOW_MESSAGES:
      if (self->show_messages != g_value_get_boolean (value))
        {
          self->show_messages = g_value_get_boolean (value);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SHOW_LOST:
      if (self->show_lost != g_value_get_boolean (value))
        {
          self->show_lost = g_value_get_boolean (value);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_timeline_class_init (SextantTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sextant_timeline_dispose;
  object_class->finalize = sextant_timeline_finalize;
  object_class->get_property = sextant_timeline_get_property;
  object_class->set_property = sextant_timeline_set_property;

  widget_class->snapshot = sextant_timeline_snapshot;
  widget_class->measure = sextant_timeline_measure;
  widget_class->size_allocate = sextant_timeline_size_allocate;
  widget_class->query_tooltip = sextant_timeline_query_tooltip;

  properties[PROP_STORE] = g_param_spec_string ("store", NULL, NULL, NULL,
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* lines from each send to its receive, where the view has few enough */
  properties[PROP_SHOW_MESSAGES] = g_param_spec_boolean ("show-messages", NULL, NULL, TRUE,
                                                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                         G_PARAM_STATIC_STRINGS);
  /* the time the last analysis's pattern instances lost, shaded */
  properties[PROP_SHOW_LOST] = g_param_spec_boolean ("show-lost", NULL, NULL, TRUE,
                                                     G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_install_property_action (widget_class, "timeline.show-messages", "show-messages");
  gtk_widget_class_install_property_action (widget_class, "timeline.show-lost", "show-lost");

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_fit_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan", "d", pan_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan", "d", 0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, 0, "timeline.show-messages", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "timeline.show-lost", NULL);

  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
sextant_timeline_init (SextantTimeline *self)
{
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->show_messages = TRUE;
  self->show_lost = TRUE;
  self->columns = g_array_new (FALSE, TRUE, sizeof (double));
  self->label_width = 160;
  self->mark_loc = self->mark_peer = SEXTANT_NULL;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
}

GtkWidget *
sextant_timeline_new (void)
{
  return g_object_new (SEXTANT_TYPE_TIMELINE, NULL);
}
