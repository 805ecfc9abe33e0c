/*
 * sextant-timeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline shows its session's view (view-begin, view-end) and marks
 * its chosen instance; the user's wheel and drags change the session's
 * view, and every other view follows. The rows come from the session's
 * locations. A frame (every row's buckets for the view, the messages,
 * collectives and lost time in it) is read on a worker thread for every
 * view the user settles on. At most one frame is read at a time; a view
 * change meanwhile is read when it finishes. Until then the last frame is
 * drawn where its buckets fall in the new view, so zooming and panning
 * answer at once.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-timeline-private.h"

static void
source_clear (gpointer data)
{
  Source *source = data;

  g_clear_pointer (&source->reader, sextant_lod_reader_free);
  g_clear_object (&source->store);
  g_clear_object (&source->session);
}

static Source *
source_new (SextantSession *session)
{
  Source *source = g_atomic_rc_box_new0 (Source);

  source->session = g_object_ref (session);

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
  return (source->store = sextant_session_open_store (source->session, error)) != NULL &&
         (source->reader = sextant_lod_reader_new (source->store, error)) != NULL;
}

G_DEFINE_FINAL_TYPE (SextantTimeline, sextant_timeline, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_READY,
  PROP_ERROR,
  PROP_SHOW_MESSAGES,
  PROP_SHOW_LOST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void read_frame (SextantTimeline *self);

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
  g_clear_pointer (&frame->filter, sextant_pair_filter_free);
  g_clear_pointer (&frame->buckets, g_ptr_array_unref);
  g_clear_pointer (&frame->messages, g_array_unref);
  g_clear_pointer (&frame->members, g_array_unref);
  g_clear_pointer (&frame->lost, g_array_unref);
  g_free (frame);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Frame, frame_free)

/* The rows: the locations that have events, labelled as the session
 * labels them ("MPI Rank 3", "MPI Rank 3 / OpenMP thread 2") */
static Outline *
outline_new (SextantSession *session)
{
  Outline *outline = g_new0 (Outline, 1);
  GPtrArray *locations = sextant_session_get_locations (session);

  outline->source = source_new (session);
  outline->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  g_array_set_clear_func (outline->rows, row_clear);
  for (guint i = 0; i < locations->len; i++)
    {
      const SextantLocationInfo *info = g_ptr_array_index (locations, i);
      Row r;

      if (info->events == 0)
        continue;
      r.loc = info->id;
      r.group = g_strdup (info->group);
      r.name = g_strdup (info->name);
      r.label = g_strdup (info->label);
      g_array_append_val (outline->rows, r);
    }
  outline->row_of = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < outline->rows->len; i++)
    g_hash_table_insert (outline->row_of, &g_array_index (outline->rows, Row, i).loc, GUINT_TO_POINTER (i + 1));
  outline->regions = g_hash_table_ref (sextant_session_get_region_names (session));
  outline->t_begin = sextant_session_get_time_begin (session);
  outline->t_end = sextant_session_get_time_end (session);
  outline->resolution = sextant_session_get_resolution (session);

  return outline;
}

typedef struct
{
  Source *source;
  GArray *locs;      /* gint64, the rows' locations */
  gint64  t0;
  gint64  t1;
  int     width;
  guint   generation;
  SextantPairFilter *filter;
} FrameRequest;

static void
frame_request_free (FrameRequest *request)
{
  g_clear_pointer (&request->filter, sextant_pair_filter_free);
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
  frame->filter = request->filter != NULL ? sextant_pair_filter_copy (request->filter) : NULL;
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
    if (!sextant_lod_reader_read_messages (reader, request->t0, request->t1,
                                           request->filter != NULL ? MAX_FILTERED_READ : MAX_MESSAGES,
                                           frame->messages, &too_many, &error))
      {
        g_task_return_error (task, error);
        return;
      }
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

int
_sextant_timeline_plot_width (SextantTimeline *self)
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
         self->frame->width == _sextant_timeline_plot_width (self) && self->frame->generation == self->generation &&
         sextant_pair_filter_equal (self->frame->filter, self->filter);
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
  request->width = _sextant_timeline_plot_width (self);
  request->generation = self->generation;
  request->filter = self->filter != NULL ? sextant_pair_filter_copy (self->filter) : NULL;

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

/* The session's view moved: draw the frame there, read the view's */
static void
session_view_cb (SextantTimeline *self)
{
  gint64 t0 = sextant_session_get_view_begin (self->session);
  gint64 t1 = sextant_session_get_view_end (self->session);

  if (self->outline == NULL || (t0 == self->t0 && t1 == self->t1))
    return;

  self->t0 = t0;
  self->t1 = t1;
  view_changed (self);
}

/* The store's content changed (an analysis wrote its instances, whose lost
 * time the timeline shades): the frame stays drawn, but is not the view's
 * any more, nor is one being read now; the next is read on a new
 * connection */
static void
session_generation_cb (SextantTimeline *self)
{
  Source *fresh;

  if (self->outline == NULL)
    return;

  self->generation = sextant_session_get_generation (self->session);
  fresh = source_new (self->session);
  g_atomic_rc_box_release_full (self->outline->source, source_clear);
  self->outline->source = fresh;
  view_changed (self);
}

/* The chosen instance: marked on its location's row, and on its peer's */
static void
session_instance_cb (SextantTimeline *self)
{
  SextantInstance *instance = sextant_session_get_instance (self->session);
  const SextantPatternInstance *record = instance != NULL ? sextant_instance_get_record (instance) : NULL;

  if (record == NULL || record->begin == SEXTANT_NULL || record->end == SEXTANT_NULL)
    self->mark_loc = self->mark_peer = SEXTANT_NULL;
  else
    {
      self->mark_loc = record->loc;
      self->mark_peer = record->peer_loc;
      self->mark_t0 = record->begin;
      self->mark_t1 = MAX (record->end, record->begin);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The selection (a node clicked in the tree view): marked, its row
 * scrolled into view (the session brings its time into the view) */
static void
session_selection_cb (SextantTimeline *self)
{
  GtkWidget *scrolled;
  gint64 loc, time;
  guint row;

  if (!sextant_session_get_selection (self->session, &loc, &time))
    {
      self->selection_loc = SEXTANT_NULL;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->selection_loc = loc;
  self->selection_time = time;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  row = self->outline != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &loc)) : 0;
  scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  if (row > 0 && scrolled != NULL)
    {
      GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
      double y = RULER_HEIGHT + ROW_GAP + (row - 1) * (ROW_HEIGHT + ROW_GAP);

      gtk_adjustment_clamp_page (adjustment, MAX (y - ROW_HEIGHT, 0), y + 2 * ROW_HEIGHT);
    }
}

/* The pair filter: the messages drawn are read again */
static void
session_filter_cb (SextantTimeline *self)
{
  const SextantPairFilter *filter = sextant_session_get_pair_filter (self->session);

  if (sextant_pair_filter_equal (filter, self->filter))
    return;
  g_clear_pointer (&self->filter, sextant_pair_filter_free);
  self->filter = filter != NULL ? sextant_pair_filter_copy (filter) : NULL;
  view_changed (self);
}

gboolean
sextant_timeline_get_ready (SextantTimeline *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), FALSE);

  return self->ready;
}

/* The label column: as wide as the widest row name, within bounds */
static void
measure_labels (SextantTimeline *self)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  int widest = 0;

  for (guint i = 0; i < self->outline->rows->len; i++)
    {
      int w;

      pango_layout_set_text (layout, g_array_index (self->outline->rows, Row, i).label, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, w);
    }
  self->label_width = CLAMP (widest + 14, LABEL_MIN, LABEL_MAX);
}

/**
 * sextant_timeline_set_session:
 * @session: (nullable): a loaded session, or %NULL for nothing
 *
 * Shows @session's trace: its view, its chosen instance, its content.
 */
void
sextant_timeline_set_session (SextantTimeline *self,
                              SextantSession  *session)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));
  g_return_if_fail (session == NULL || (SEXTANT_IS_SESSION (session) && sextant_session_get_loaded (session)));

  if (session == self->session)
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->outline, outline_free);
  g_clear_pointer (&self->frame, frame_free);
  g_clear_pointer (&self->error, g_free);
  self->reading = FALSE;
  self->t0 = self->t1 = 0;
  self->mark_loc = self->mark_peer = SEXTANT_NULL;
  self->selection_loc = SEXTANT_NULL;
  g_clear_pointer (&self->filter, sextant_pair_filter_free);
  g_cancellable_cancel (self->click_cancellable);
  g_set_object (&self->session, session);
  g_signal_group_set_target (self->session_signals, session);
  set_ready (self, FALSE);
  if (session != NULL)
    {
      self->cancellable = g_cancellable_new ();
      self->outline = outline_new (session);
      self->generation = sextant_session_get_generation (session);
      measure_labels (self);
      session_instance_cb (self);
      session_selection_cb (self);
      if (sextant_session_get_pair_filter (session) != NULL)
        self->filter = sextant_pair_filter_copy (sextant_session_get_pair_filter (session));
      session_view_cb (self);
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* Returns: (transfer none) (nullable): the session shown */
SextantSession *
sextant_timeline_get_session (SextantTimeline *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), NULL);

  return self->session;
}

gboolean
sextant_timeline_get_row_area (SextantTimeline *self,
                               guint            row,
                               graphene_rect_t *area)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), FALSE);

  if (self->outline == NULL || row >= self->outline->rows->len)
    return FALSE;

  graphene_rect_init (area, self->label_width, RULER_HEIGHT + ROW_GAP + row * (ROW_HEIGHT + ROW_GAP), _sextant_timeline_plot_width (self),
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

  return self->label_width + (double)(t - self->t0) / (self->t1 - self->t0) * _sextant_timeline_plot_width (self);
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
  if (self->frame != NULL && self->frame->width != _sextant_timeline_plot_width (self))
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

  t = self->t0 + (gint64)((double)(x - self->label_width) / _sextant_timeline_plot_width (self) * (self->t1 - self->t0));
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
  return CLAMP ((x - self->label_width) / _sextant_timeline_plot_width (self), 0.0, 1.0);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SextantTimeline          *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->session == NULL)
    return FALSE;

  if ((state & GDK_CONTROL_MASK) != 0)
    {
      sextant_session_zoom (self->session, pow (1.25, -dy), fraction_at (self, self->pointer_x));
      return TRUE;
    }
  if ((state & GDK_SHIFT_MASK) != 0 || dx != 0)
    {
      sextant_session_pan (self->session, ((state & GDK_SHIFT_MASK) != 0 ? dy : dx) * 0.1);
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
  double shift = -dx / _sextant_timeline_plot_width (self) * (self->drag_t1 - self->drag_t0);

  if (self->session != NULL)
    sextant_session_set_view (self->session, (gint64)llround (self->drag_t0 + shift),
                              (gint64)llround (self->drag_t1 + shift));
}

/* GObject -------------------------------------------------------------------- */

static void
sextant_timeline_dispose (GObject *object)
{
  SextantTimeline *self = SEXTANT_TIMELINE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->click_cancellable);
  g_clear_object (&self->click_cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sextant_timeline_parent_class)->dispose (object);
}

static void
sextant_timeline_finalize (GObject *object)
{
  SextantTimeline *self = SEXTANT_TIMELINE (object);

  g_clear_pointer (&self->outline, outline_free);
  g_clear_pointer (&self->frame, frame_free);
  g_clear_pointer (&self->columns, g_array_unref);
  g_clear_pointer (&self->filter, sextant_pair_filter_free);
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
    case PROP_SESSION:
      g_value_set_object (value, self->session);
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
    case PROP_SESSION:
      sextant_timeline_set_session (self, g_value_get_object (value));
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

  widget_class->snapshot = _sextant_timeline_snapshot;
  widget_class->measure = sextant_timeline_measure;
  widget_class->size_allocate = sextant_timeline_size_allocate;
  widget_class->query_tooltip = sextant_timeline_query_tooltip;

  /* the trace shown */
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SEXTANT_TYPE_SESSION,
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
  /* the window's action: the view is the session's */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "win.pan", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "win.pan", "d", 0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Left, 0, "win.pan", "d", -0.1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Right, 0, "win.pan", "d", 0.1);

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
  self->selection_loc = SEXTANT_NULL;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  self->session_signals = g_signal_group_new (SEXTANT_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::view-begin", G_CALLBACK (session_view_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::view-end", G_CALLBACK (session_view_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::generation", G_CALLBACK (session_generation_cb),
                                  self);
  g_signal_group_connect_swapped (self->session_signals, "notify::instance", G_CALLBACK (session_instance_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-loc", G_CALLBACK (session_selection_cb),
                                  self);
  g_signal_group_connect_swapped (self->session_signals, "notify::pair-filter", G_CALLBACK (session_filter_cb), self);

  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  _sextant_timeline_click_init (self);
}

GtkWidget *
sextant_timeline_new (void)
{
  return g_object_new (SEXTANT_TYPE_TIMELINE, NULL);
}
