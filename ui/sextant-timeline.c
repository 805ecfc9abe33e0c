/*
 * sextant-timeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline shows its session's view (view-begin, view-end) and marks
 * its chosen instance; the user's wheel and drags change the session's
 * view, and every other view follows. The rows come from the row model
 * (sextant-timeline-rows.h: grouped, collapsible, filtered). The widget is
 * GtkScrollable: the rows scroll under a fixed ruler, and only those in
 * view (and a page either side) are read and drawn, so a view of 4096
 * ranks costs what a view of 40 does. Rows share the pane's height up to
 * ROW_MAX pixels each; where there are more rows than the pane has pixels,
 * the whole-machine mode squeezes every location into it instead.
 *
 * The rows' geometry, the scrolling and the size are the layout's
 * (sextant-timeline-layout.c); this file is the widget, its session and
 * the frames it asks for. A frame (sextant-timeline-frame.c) is read on a
 * worker thread for every view the user settles on. At most one frame is read at a time; a view
 * change meanwhile is read when it finishes. Until then the last frame is
 * drawn where its buckets fall in the new view, so zooming and panning
 * answer at once.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-timeline-legend.h"
#include "sextant-timeline-private.h"

G_DEFINE_FINAL_TYPE_WITH_CODE (SextantTimeline, sextant_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, _sextant_timeline_scrollable_init))

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_READY,
  PROP_ERROR,
  PROP_SHOW_MESSAGES,
  PROP_SHOW_LOST,
  PROP_WHOLE_MACHINE,
  PROP_COLOR_MODE,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

/* Frames --------------------------------------------------------------------- */

static void
set_ready (SextantTimeline *self,
           gboolean         ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

/* The bands of the whole-machine picture: a pixel row each, at most one
 * per location */
static guint
machine_bands (SextantTimeline *self)
{
  int area = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT - ROW_GAP;
  GArray *all = self->rows != NULL ? sextant_timeline_rows_get_all_locations (self->rows) : NULL;

  return all != NULL ? MIN ((guint)MAX (area, 1), all->len) : 0;
}

/* The rows a frame is read for: those in view and a page either side */
static void
wanted_rows (SextantTimeline *self,
             guint           *first,
             guint           *last)
{
  guint page;

  _sextant_timeline_visible_rows (self, first, last);
  page = *last - *first;
  *first = *first > page ? *first - page : 0;
  *last = MIN (*last + page, _sextant_timeline_n_rows (self));
}

static gboolean
frame_is_current (SextantTimeline *self)
{
  guint first, last;

  if (self->frame == NULL || self->frame->t0 != self->t0 || self->frame->t1 != self->t1 ||
      self->frame->width != _sextant_timeline_plot_width (self) || self->frame->generation != self->generation ||
      !sextant_pair_filter_equal (self->frame->filter, self->filter) ||
      self->frame->rows_serial != self->rows_serial || self->frame->machine != self->machine ||
      self->frame->rows_only)
    return FALSE;
  if (self->machine)
    return self->frame->n_bands == machine_bands (self);
  _sextant_timeline_visible_rows (self, &first, &last);

  return first >= self->frame->first_row && last <= self->frame->last_row;
}

/* A manifest's shards are being analysed: they hold other shards' rows
 * for it (the halo) and their tables change under a reader, so they are
 * not read then; the analysis's end (a new generation) reads them again */
static gboolean
shards_being_analysed (SextantTimeline *self)
{
  return sextant_session_get_n_shards (self->session) > 0 && sextant_session_get_analysing (self->session);
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
      _sextant_timeline_frame_free (g_task_propagate_pointer (G_TASK (result), NULL));
      return;
    }

  self->reading = FALSE;
  if (!(frame = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      g_clear_handle_id (&self->stale_draw, g_source_remove);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      /* a read the shards' analysis overlapped: read again at its end */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !shards_being_analysed (self) &&
          ((FrameRequest *)g_task_get_task_data (G_TASK (result)))->generation ==
          sextant_session_get_generation (self->session))
        {
          g_free (self->error);
          self->error = g_strdup (error->message);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
          gtk_widget_queue_draw (GTK_WIDGET (self));
        }
      return;
    }

  _sextant_timeline_frame_free (self->frame);
  self->frame = frame;
  g_clear_handle_id (&self->stale_draw, g_source_remove);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  /* the view moved on while it was read */
  if (!frame_is_current (self))
    _sextant_timeline_read_frame (self);
  else
    set_ready (self, TRUE);
}

static FrameRequest *
frame_request_new (SextantTimeline *self)
{
  FrameRequest *request = g_new0 (FrameRequest, 1);
  guint first, last;

  request->source = g_atomic_rc_box_acquire (self->source);
  request->locs = g_array_new (FALSE, FALSE, sizeof (gint64));
  request->counters = g_array_new (FALSE, FALSE, sizeof (gint64));
  request->t0 = self->t0;
  request->t1 = self->t1;
  request->width = _sextant_timeline_plot_width (self);
  request->generation = self->generation;
  request->filter = self->filter != NULL ? sextant_pair_filter_copy (self->filter) : NULL;
  request->rows_serial = self->rows_serial;
  request->machine = self->machine;
  /* the first frame of the store: its rows at once, the lines next */
  request->rows_only = self->frame == NULL;
  if (self->machine)
    {
      request->machine_locs = g_array_ref (sextant_timeline_rows_get_all_locations (self->rows));
      request->n_bands = machine_bands (self);
      return request;
    }

  wanted_rows (self, &first, &last);
  request->first_row = first;
  request->last_row = last;
  for (guint i = first; i < last; i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);

      if (row->kind == SEXTANT_TIMELINE_ROW_COUNTER)
        {
          g_array_append_val (request->counters, g_array_index (row->locs, gint64, 0));
          g_array_append_val (request->counters, row->metric);
        }
      else
        g_array_append_vals (request->locs, row->locs->data, row->locs->len);
    }

  return request;
}

void
_sextant_timeline_read_frame (SextantTimeline *self)
{
  g_autoptr(GTask) task = NULL;

  /* not before the widget has its size: a frame is read for a width and
   * the rows in view */
  if (self->rows == NULL || self->reading || self->error != NULL || frame_is_current (self) ||
      shards_being_analysed (self) ||
      gtk_widget_get_width (GTK_WIDGET (self)) <= self->label_width || gtk_widget_get_height (GTK_WIDGET (self)) <= 0)
    return;

  self->reading = TRUE;
  task = g_task_new (NULL, self->cancellable, frame_read_cb, g_object_ref (self));
  g_task_set_source_tag (task, _sextant_timeline_read_frame);
  g_task_set_task_data (task, frame_request_new (self), (GDestroyNotify)_sextant_timeline_frame_request_free);
  g_task_run_in_thread (task, _sextant_timeline_read_frame_worker);
}

static gboolean
stale_draw_cb (gpointer data)
{
  SextantTimeline *self = data;

  self->stale_draw = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));

  return G_SOURCE_REMOVE;
}

/* Something that changes what a frame holds: read the new one, and draw
 * the last one where it falls if the read takes longer than
 * STALE_AFTER_MS */
void
_sextant_timeline_queue_frame (SextantTimeline *self)
{
  set_ready (self, frame_is_current (self));
  _sextant_timeline_read_frame (self);
  if (self->reading && self->frame != NULL)
    {
      if (self->stale_draw == 0)
        self->stale_draw = g_timeout_add (STALE_AFTER_MS, stale_draw_cb, self);
    }
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The session ------------------------------------------------------------------ */

/* The session's view moved: draw the frame there, read the view's */
static void
session_view_cb (SextantTimeline *self)
{
  gint64 t0 = sextant_session_get_view_begin (self->session);
  gint64 t1 = sextant_session_get_view_end (self->session);

  if (self->rows == NULL || (t0 == self->t0 && t1 == self->t1))
    return;

  self->t0 = t0;
  self->t1 = t1;
  _sextant_timeline_queue_frame (self);
}

/* The patterns' names by number, for the lost time's styles, and their
 * titles, for the legend (the `pattern` table's few rows, by key) */
static void
read_patterns (SextantTimeline *self,
               SextantStore    *store)
{
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer name;

  g_clear_pointer (&self->patterns, g_hash_table_unref);
  g_clear_pointer (&self->pattern_titles, g_hash_table_unref);
  if (!(self->patterns = sextant_store_list_pattern_numbers (store, &error)))
    {
      g_warning ("The patterns' names: %s", error->message);
      return;
    }
  self->pattern_titles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_iter_init (&iter, self->patterns);
  while (g_hash_table_iter_next (&iter, NULL, &name))
    {
      char *title = sextant_store_dup_pattern_title (store, name, &error);

      if (title == NULL)
        {
          g_warning ("The patterns' titles: %s", error->message);
          return;
        }
      g_hash_table_insert (self->pattern_titles, g_strdup (name), title);
    }
}

/* The store's content changed (an analysis wrote its instances, whose lost
 * time the timeline shades): the frame stays drawn, but is not the view's
 * any more, nor is one being read now; the next is read on a new
 * connection */
static void
session_generation_cb (SextantTimeline *self)
{
  if (self->rows == NULL)
    return;

  self->generation = sextant_session_get_generation (self->session);
  _sextant_timeline_source_release (self->source);
  self->source = _sextant_timeline_source_new (self->session);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SextantStore) store = sextant_session_open_store (self->session, &error);

    if (store != NULL)
      read_patterns (self, store);
    else
      g_warning ("The patterns' names: %s", error->message);
  }
  _sextant_timeline_queue_frame (self);
}

/* An analysis ended: the shards a manifest's analysis kept from being
 * read are read now (shards_being_analysed) */
static void
session_analysing_cb (SextantTimeline *self)
{
  if (self->rows != NULL && !sextant_session_get_analysing (self->session))
    _sextant_timeline_queue_frame (self);
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
      sextant_timeline_scroll_to_locations (self, record->loc, record->peer_loc);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The selection (a node clicked in the tree view): marked, its row
 * scrolled into view (the session brings its time into the view) */
static void
session_selection_cb (SextantTimeline *self)
{
  gint64 loc, time;

  if (!sextant_session_get_selection (self->session, &loc, &time))
    {
      self->selection_loc = SEXTANT_NULL;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->selection_loc = loc;
  self->selection_time = time;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  sextant_timeline_scroll_to_location (self, loc);
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
  _sextant_timeline_queue_frame (self);
}

/* The rows changed (expanded, collapsed, hidden, filtered) */
static void
rows_changed_cb (SextantTimeline *self)
{
  GArray *all = sextant_timeline_rows_get_all_locations (self->rows);

  self->rows_serial++;
  g_clear_pointer (&self->machine_index, g_hash_table_unref);
  self->machine_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < all->len; i++)
    g_hash_table_insert (self->machine_index, &g_array_index (all, gint64, i), GUINT_TO_POINTER (i));
  _sextant_timeline_update_layout (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  _sextant_timeline_queue_frame (self);
}

gboolean
sextant_timeline_get_ready (SextantTimeline *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), FALSE);

  return self->ready;
}

/* The label column: as wide as the widest row name, within bounds (of
 * thousands, the first rows and the labels nearly as long as the longest
 * are measured) */
static void
measure_labels (SextantTimeline *self)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  guint n = _sextant_timeline_n_rows (self);
  gsize longest = 0;
  int widest = 0;

  for (guint i = 0; i < n; i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);

      longest = MAX (longest, strlen (row->label) + 2 * row->depth);
    }
  for (guint i = 0; i < n; i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);
      int w;

      if (i >= 64 && strlen (row->label) + 2 * row->depth + 2 < longest)
        continue;
      pango_layout_set_text (layout, row->label, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, w + LABEL_PAD + (int)row->depth * INDENT + INDENT);
    }
  self->label_width = CLAMP (widest + 14, LABEL_MIN, LABEL_MAX);
}

/**
 * sextant_timeline_set_session:
 * @session: (nullable): a loaded session, or %NULL for nothing
 *
 * Shows @session's trace: its view, its chosen instance, its content. The
 * rows are read here (a few ms for thousands of locations).
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
  g_clear_handle_id (&self->stale_draw, g_source_remove);
  if (self->rows != NULL)
    g_signal_handlers_disconnect_by_data (self->rows, self);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->machine_index, g_hash_table_unref);
  g_clear_pointer (&self->regions, g_hash_table_unref);
  g_clear_pointer (&self->patterns, g_hash_table_unref);
  g_clear_pointer (&self->pattern_titles, g_hash_table_unref);
  _sextant_timeline_source_release (g_steal_pointer (&self->source));
  g_clear_pointer (&self->frame, _sextant_timeline_frame_free);
  g_clear_pointer (&self->rows_node, gsk_render_node_unref);
  g_clear_pointer (&self->layers_node, gsk_render_node_unref);
  g_clear_pointer (&self->labels_node, gsk_render_node_unref);
  g_clear_pointer (&self->error, g_free);
  self->reading = FALSE;
  self->t0 = self->t1 = 0;
  self->mark_loc = self->mark_peer = SEXTANT_NULL;
  self->selection_loc = SEXTANT_NULL;
  self->machine_set = FALSE;
  g_clear_pointer (&self->filter, sextant_pair_filter_free);
  g_cancellable_cancel (self->click_cancellable);
  g_set_object (&self->session, session);
  g_signal_group_set_target (self->session_signals, session);
  set_ready (self, FALSE);
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, 0);
  if (session != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SextantStore) store = sextant_session_open_store (session, &error);

      self->cancellable = g_cancellable_new ();
      if (store == NULL || !(self->rows = sextant_timeline_rows_new (store, &error)))
        {
          self->error = g_strdup (error->message);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
        }
      else
        {
          g_signal_connect_swapped (self->rows, "changed", G_CALLBACK (rows_changed_cb), self);
          self->source = _sextant_timeline_source_new (session);
          self->regions = g_hash_table_ref (sextant_session_get_region_names (session));
          self->t_begin = sextant_session_get_time_begin (session);
          self->t_end = sextant_session_get_time_end (session);
          self->resolution = sextant_session_get_resolution (session);
          self->generation = sextant_session_get_generation (session);
          read_patterns (self, store);
          measure_labels (self);
          rows_changed_cb (self);
          session_instance_cb (self);
          session_selection_cb (self);
          if (sextant_session_get_pair_filter (session) != NULL)
            self->filter = sextant_pair_filter_copy (sextant_session_get_pair_filter (session));
          session_view_cb (self);
        }
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

/* Returns: (transfer none) (nullable): the rows of the session's trace */
SextantTimelineRows *
sextant_timeline_get_rows (SextantTimeline *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), NULL);

  return self->rows;
}

gboolean
sextant_timeline_get_whole_machine (SextantTimeline *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), FALSE);

  return self->machine;
}

/**
 * sextant_timeline_set_whole_machine:
 *
 * Squeezes every location into the pane (several a pixel row), or shows
 * the rows again; the user's choice stays for the session (else the mode
 * follows the number of rows: on when there are more than pixel rows).
 */
void
sextant_timeline_set_whole_machine (SextantTimeline *self,
                                    gboolean         machine)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  self->machine_set = TRUE;
  if (self->machine == !!machine)
    return;
  self->machine = !!machine;
  _sextant_timeline_update_layout (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WHOLE_MACHINE]);
  _sextant_timeline_queue_frame (self);
}

/* The legend's data ---------------------------------------------------------------- */

/**
 * sextant_timeline_get_categories:
 *
 * Returns: the categories drawn in the frame shown (bit 1 << category)
 */
guint
sextant_timeline_get_categories (SextantTimeline *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), 0);

  return self->frame != NULL ? self->frame->categories : 0;
}

/**
 * sextant_timeline_dup_regions:
 * @categories: (out) (transfer full): each region's category
 *
 * Returns: (transfer full) (element-type utf8): the names of the regions
 *   with the most time in the frame shown, most first (at most 12)
 */
GPtrArray *
sextant_timeline_dup_regions (SextantTimeline  *self,
                              guint           **categories)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GArray *regions = self->frame != NULL ? self->frame->regions : NULL;

  *categories = g_new0 (guint, regions != NULL ? regions->len + 1 : 1);
  for (guint i = 0; regions != NULL && i < regions->len; i++)
    {
      const FrameRegion *r = &g_array_index (regions, FrameRegion, i);
      const char *name = g_hash_table_lookup (self->regions, &r->region);

      (*categories)[names->len] = r->category;
      g_ptr_array_add (names, g_strdup (name != NULL ? name : "?"));
    }

  return names;
}

typedef struct
{
  guint   number;
  gint64  lost;     /* ticks drawn in the frame */
} PatternLost;

static int
compare_lost (gconstpointer a,
              gconstpointer b)
{
  const PatternLost *x = a, *y = b;

  return x->lost != y->lost ? (x->lost > y->lost ? -1 : 1) : (x->number > y->number) - (x->number < y->number);
}

/**
 * sextant_timeline_dup_patterns:
 * @titles: (out) (transfer full) (optional): their titles ("Late Sender",
 *   the id where the store has none), in the same order
 *
 * Returns: (transfer full): the patterns whose lost time the frame shown
 *   draws ("late_sender", ...), the most time drawn first, NULL-terminated
 */
char **
sextant_timeline_dup_patterns (SextantTimeline   *self,
                               char            ***titles)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) title_builder = g_strv_builder_new ();
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) patterns = g_array_new (FALSE, FALSE, sizeof (PatternLost));
  GArray *lost = self->frame != NULL && self->show_lost ? self->frame->lost : NULL;

  for (guint i = 0; lost != NULL && self->patterns != NULL && i < lost->len; i++)
    {
      const SextantViewLost *l = &g_array_index (lost, SextantViewLost, i);
      gpointer at;

      if (g_hash_table_lookup (self->patterns, GUINT_TO_POINTER (l->pattern)) == NULL)
        continue;
      if (!g_hash_table_lookup_extended (index, GUINT_TO_POINTER (l->pattern), NULL, &at))
        {
          PatternLost entry = { l->pattern, 0 };

          at = GUINT_TO_POINTER (patterns->len);
          g_hash_table_insert (index, GUINT_TO_POINTER (l->pattern), at);
          g_array_append_val (patterns, entry);
        }
      g_array_index (patterns, PatternLost, GPOINTER_TO_UINT (at)).lost += MAX (l->end - l->begin, 0);
    }
  g_array_sort (patterns, compare_lost);
  for (guint i = 0; i < patterns->len; i++)
    {
      const char *name = g_hash_table_lookup (self->patterns,
                                              GUINT_TO_POINTER (g_array_index (patterns, PatternLost, i).number));
      const char *title = self->pattern_titles != NULL ? g_hash_table_lookup (self->pattern_titles, name) : NULL;

      g_strv_builder_add (builder, name);
      g_strv_builder_add (title_builder, title != NULL ? title : name);
    }

  if (titles != NULL)
    *titles = g_strv_builder_end (title_builder);
  return g_strv_builder_end (builder);
}

/* GObject ---------------------------------------------------------------------- */

static void
sextant_timeline_dispose (GObject *object)
{
  SextantTimeline *self = SEXTANT_TIMELINE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->stale_draw, g_source_remove);
  g_cancellable_cancel (self->click_cancellable);
  g_clear_object (&self->click_cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  if (self->rows != NULL)
    g_signal_handlers_disconnect_by_data (self->rows, self);
  g_clear_object (&self->rows);
  _sextant_timeline_set_vadjustment (self, NULL);
  g_clear_object (&self->hadjustment);

  G_OBJECT_CLASS (sextant_timeline_parent_class)->dispose (object);
}

static void
sextant_timeline_finalize (GObject *object)
{
  SextantTimeline *self = SEXTANT_TIMELINE (object);

  _sextant_timeline_source_release (self->source);
  g_clear_pointer (&self->machine_index, g_hash_table_unref);
  g_clear_pointer (&self->regions, g_hash_table_unref);
  g_clear_pointer (&self->patterns, g_hash_table_unref);
  g_clear_pointer (&self->pattern_titles, g_hash_table_unref);
  g_clear_pointer (&self->frame, _sextant_timeline_frame_free);
  g_clear_pointer (&self->rows_node, gsk_render_node_unref);
  g_clear_pointer (&self->layers_node, gsk_render_node_unref);
  g_clear_pointer (&self->labels_node, gsk_render_node_unref);
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
    case PROP_WHOLE_MACHINE:
      g_value_set_boolean (value, self->machine);
      break;
    case PROP_COLOR_MODE:
      g_value_set_enum (value, self->color_mode);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_flag (SextantTimeline *self,
          gboolean        *flag,
          gboolean         value,
          GParamSpec      *pspec)
{
  if (*flag == value)
    return;
  *flag = value;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
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
      set_flag (self, &self->show_messages, g_value_get_boolean (value), pspec);
      break;
    case PROP_SHOW_LOST:
      set_flag (self, &self->show_lost, g_value_get_boolean (value), pspec);
      break;
    case PROP_WHOLE_MACHINE:
      sextant_timeline_set_whole_machine (self, g_value_get_boolean (value));
      break;
    case PROP_COLOR_MODE:
      if (self->color_mode != (SextantTimelineColorMode)g_value_get_enum (value))
        {
          self->color_mode = g_value_get_enum (value);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_HADJUSTMENT:
      g_set_object (&self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      _sextant_timeline_set_vadjustment (self, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
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
  widget_class->measure = _sextant_timeline_measure;
  widget_class->size_allocate = _sextant_timeline_size_allocate;
  _sextant_timeline_input_class_init (widget_class);

  /* the trace shown */
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SEXTANT_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* lines from each send to its receive, collectives, one-sided operations */
  properties[PROP_SHOW_MESSAGES] = g_param_spec_boolean ("show-messages", NULL, NULL, TRUE,
                                                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                         G_PARAM_STATIC_STRINGS);
  /* the time the last analysis's pattern instances lost */
  properties[PROP_SHOW_LOST] = g_param_spec_boolean ("show-lost", NULL, NULL, TRUE,
                                                     G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  /* every location squeezed into the pane */
  properties[PROP_WHOLE_MACHINE] = g_param_spec_boolean ("whole-machine", NULL, NULL, FALSE,
                                                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                         G_PARAM_STATIC_STRINGS);
  /* SextantTimelineColorMode: by category or by region */
  properties[PROP_COLOR_MODE] = g_param_spec_enum ("color-mode", NULL, NULL, SEXTANT_TYPE_TIMELINE_COLOR_MODE,
                                                   SEXTANT_TIMELINE_COLOR_BY_CATEGORY,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                   G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

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
  self->show_messages = TRUE;
  self->show_lost = TRUE;
  self->label_width = 160;
  self->row_height = ROW_MIN;
  self->mark_loc = self->mark_peer = SEXTANT_NULL;
  self->selection_loc = SEXTANT_NULL;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  self->session_signals = g_signal_group_new (SEXTANT_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::view-begin", G_CALLBACK (session_view_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::view-end", G_CALLBACK (session_view_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::generation", G_CALLBACK (session_generation_cb),
                                  self);
  g_signal_group_connect_swapped (self->session_signals, "notify::instance", G_CALLBACK (session_instance_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::analysing", G_CALLBACK (session_analysing_cb),
                                  self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-loc", G_CALLBACK (session_selection_cb),
                                  self);
  g_signal_group_connect_swapped (self->session_signals, "notify::pair-filter", G_CALLBACK (session_filter_cb), self);

  _sextant_timeline_input_init (self);
  _sextant_timeline_click_init (self);
}

GtkWidget *
sextant_timeline_new (void)
{
  return g_object_new (SEXTANT_TYPE_TIMELINE, NULL);
}
