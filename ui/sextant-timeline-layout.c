/*
 * sextant-timeline-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's layout: where its rows are (their height, the pane's
 * share of each; the whole-machine mode when there are more rows than
 * pixels), which are in view as they scroll under the fixed ruler
 * (GtkScrollable), where a location and a time are drawn, and the
 * widget's size. Main thread; arithmetic on the row count, nothing read.
 */
#include "config.h"

#include <math.h>

#include "sextant-timeline-private.h"

/* Geometry ------------------------------------------------------------------- */

int
_sextant_timeline_plot_width (SextantTimeline *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - self->label_width, 1);
}

static double
scroll_offset (SextantTimeline *self)
{
  return self->vadjustment != NULL && !self->machine ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

/* The top of row @row in the widget (above the rows' area when scrolled
 * past) */
double
_sextant_timeline_row_top (SextantTimeline *self,
                           guint            row)
{
  return RULER_HEIGHT + ROW_GAP + row * (self->row_height + ROW_GAP) - scroll_offset (self);
}

/* The row at @y, or -1 */
int
_sextant_timeline_row_at (SextantTimeline *self,
                          double           y)
{
  double offset = y - RULER_HEIGHT - ROW_GAP + scroll_offset (self);
  int row;

  if (y < RULER_HEIGHT || offset < 0 || self->machine)
    return -1;
  row = (int)floor (offset / (self->row_height + ROW_GAP));
  if ((guint)row >= _sextant_timeline_n_rows (self) || offset - row * (self->row_height + ROW_GAP) > self->row_height)
    return -1;

  return row;
}

/* The rows in view: [@first, @last); empty when none */
void
_sextant_timeline_visible_rows (SextantTimeline *self,
                                guint           *first,
                                guint           *last)
{
  double offset = scroll_offset (self);
  double pitch = self->row_height + ROW_GAP;
  int height = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT;

  *first = *last = 0;
  if (self->machine || _sextant_timeline_n_rows (self) == 0 || height <= 0)
    return;
  *first = MIN ((guint)MAX (floor (offset / pitch), 0), _sextant_timeline_n_rows (self));
  *last = MIN ((guint)ceil ((offset + height) / pitch), _sextant_timeline_n_rows (self));
}

gint64
_sextant_timeline_time_at (SextantTimeline *self,
                           double           x)
{
  return self->t0 + (gint64)llround ((x - self->label_width) / _sextant_timeline_plot_width (self) *
                                     (double)(self->t1 - self->t0));
}

/* Where @loc is drawn (SextantTimelineGeometry.row_of): its row, wherever
 * it is scrolled; in the whole-machine mode its share of the pane */
static gboolean
row_of_loc (gpointer  data,
            gint64    loc,
            float    *y,
            float    *height)
{
  SextantTimeline *self = data;
  int row;

  if (self->rows == NULL)
    return FALSE;
  if (self->machine)
    {
      GArray *all = sextant_timeline_rows_get_all_locations (self->rows);
      double area = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT - ROW_GAP;
      gpointer index;

      if (self->machine_index == NULL || all->len == 0 ||
          !g_hash_table_lookup_extended (self->machine_index, &loc, NULL, &index))
        return FALSE;
      *y = (float)(RULER_HEIGHT + ROW_GAP + GPOINTER_TO_UINT (index) * area / all->len);
      *height = (float)MAX (area / all->len, 1.0);
      return TRUE;
    }
  if ((row = sextant_timeline_rows_row_of_loc (self->rows, loc)) < 0)
    return FALSE;
  *y = (float)_sextant_timeline_row_top (self, (guint)row);
  *height = (float)self->row_height;

  return TRUE;
}

void
_sextant_timeline_geometry (SextantTimeline         *self,
                            SextantTimelineGeometry *geometry)
{
  geometry->t0 = self->t0;
  geometry->t1 = MAX (self->t1, self->t0 + 1);
  geometry->plot_x = self->label_width;
  geometry->plot_width = _sextant_timeline_plot_width (self);
  geometry->top = RULER_HEIGHT;
  geometry->bottom = gtk_widget_get_height (GTK_WIDGET (self));
  geometry->row_of = row_of_loc;
  geometry->row_data = self;
}

/* The rows' height and the scrollbar, for the widget's height: the rows
 * share the pane up to ROW_MAX each, at least ROW_MIN (then they scroll);
 * more rows than pixels: the whole-machine mode, unless the user chose */
void
_sextant_timeline_update_layout (SextantTimeline *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double area = height - RULER_HEIGHT - ROW_GAP;
  guint n = _sextant_timeline_n_rows (self);
  gboolean machine = self->machine;

  if (!self->machine_set && self->rows != NULL && height > 0)
    machine = n > 0 && n > area;
  if (machine != self->machine)
    {
      self->machine = machine;
      g_object_notify (G_OBJECT (self), "whole-machine");
    }
  self->row_height = n > 0 ? CLAMP (floor (area / n) - ROW_GAP, ROW_MIN, ROW_MAX) : ROW_MIN;

  if (self->vadjustment != NULL)
    {
      double upper = self->machine ? height : RULER_HEIGHT + ROW_GAP + n * (self->row_height + ROW_GAP);
      double page = MAX (height, 1);

      gtk_adjustment_configure (self->vadjustment, CLAMP (gtk_adjustment_get_value (self->vadjustment), 0,
                                                          MAX (upper - page, 0)),
                                0, MAX (upper, page), self->row_height + ROW_GAP, page * 0.9, page);
    }
}

gboolean
sextant_timeline_get_row_area (SextantTimeline *self,
                               guint            row,
                               graphene_rect_t *area)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), FALSE);

  if (self->rows == NULL || row >= _sextant_timeline_n_rows (self) || self->machine)
    return FALSE;

  graphene_rect_init (area, self->label_width, (float)_sextant_timeline_row_top (self, row),
                      _sextant_timeline_plot_width (self), (float)self->row_height);

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

/**
 * sextant_timeline_get_content_height:
 *
 * Returns: how high what the timeline draws is: the ruler and its rows at
 *   their height now (all of its height when they fill it, or in the
 *   whole-machine mode); what an export of the view keeps
 */
int
sextant_timeline_get_content_height (SextantTimeline *self)
{
  int height;

  g_return_val_if_fail (SEXTANT_IS_TIMELINE (self), 0);

  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (self->machine)
    return height;

  return MIN (height, RULER_HEIGHT + ROW_GAP +
                       (int)ceil (_sextant_timeline_n_rows (self) * (self->row_height + ROW_GAP) - scroll_offset (self)));
}

/* Scrolls rows @a and @b, the rows between them and one above and below,
 * into view, as little as it can; when they do not fit, @a's alone */
static void
scroll_to_rows (SextantTimeline *self,
                int              a,
                int              b)
{
  double pitch = self->row_height + ROW_GAP;
  double area = gtk_widget_get_height (GTK_WIDGET (self)) - RULER_HEIGHT - ROW_GAP;
  double value = gtk_adjustment_get_value (self->vadjustment);
  int first = MIN (a, b), last = MAX (a, b);
  double top, bottom;

  if ((last - first + 3) * pitch > area)
    first = last = a;
  top = first * pitch - pitch;
  bottom = last * pitch + 2 * pitch;
  if (top < value)
    gtk_adjustment_set_value (self->vadjustment, MAX (top, 0));
  else if (bottom > value + area)
    gtk_adjustment_set_value (self->vadjustment, bottom - area);
}

/**
 * sextant_timeline_scroll_to_location:
 *
 * Scrolls the row that draws @loc into view (a row above or below comes
 * with it); nothing when it has none (hidden, filtered out).
 */
void
sextant_timeline_scroll_to_location (SextantTimeline *self,
                                     gint64           loc)
{
  sextant_timeline_scroll_to_locations (self, loc, SEXTANT_NULL);
}

/**
 * sextant_timeline_scroll_to_locations:
 * @peer: another location to show with @loc (an instance's peer), or
 *   %SEXTANT_NULL
 *
 * Scrolls the rows of @loc and @peer into view, both where the view can
 * hold the rows from one to the other, else @loc's.
 */
void
sextant_timeline_scroll_to_locations (SextantTimeline *self,
                                      gint64           loc,
                                      gint64           peer)
{
  int row, other;

  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  if (self->rows == NULL || self->vadjustment == NULL || self->machine ||
      (row = sextant_timeline_rows_row_of_loc (self->rows, loc)) < 0)
    return;
  other = peer != SEXTANT_NULL ? sextant_timeline_rows_row_of_loc (self->rows, peer) : -1;
  scroll_to_rows (self, row, other >= 0 ? other : row);
}

/* Size -------------------------------------------------------------------------- */

void
_sextant_timeline_measure (GtkWidget      *widget,
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
      /* scrolled: the natural height shows every row at its least height */
      *minimum = RULER_HEIGHT + ROW_GAP + ROW_MIN;
      *natural = MAX (*minimum, RULER_HEIGHT + ROW_GAP + (int)_sextant_timeline_n_rows (self) * (ROW_MIN + ROW_GAP));
    }
}

void
_sextant_timeline_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);

  _sextant_timeline_update_layout (self);
  _sextant_timeline_queue_frame (self);
}

/* GtkScrollable ---------------------------------------------------------------- */

static void
vadjustment_changed_cb (SextantTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  /* a frame holds a page either side: scrolling past it reads the rows */
  _sextant_timeline_read_frame (self);
}

void
_sextant_timeline_set_vadjustment (SextantTimeline *self,
                                   GtkAdjustment   *adjustment)
{
  if (self->vadjustment == adjustment)
    return;
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, vadjustment_changed_cb, self);
  g_set_object (&self->vadjustment, adjustment);
  if (adjustment != NULL)
    {
      g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (vadjustment_changed_cb), self);
      _sextant_timeline_update_layout (self);
    }
}

static gboolean
sextant_timeline_get_border (GtkScrollable *scrollable,
                             GtkBorder     *border)
{
  /* the ruler stays above the rows */
  border->top = RULER_HEIGHT;

  return TRUE;
}

void
_sextant_timeline_scrollable_init (GtkScrollableInterface *iface)
{
  iface->get_border = sextant_timeline_get_border;
}
