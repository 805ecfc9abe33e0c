/*
 * sextant-timeline-input.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's input, besides a click on the plot
 * (sextant-timeline-click.c):
 * - Ctrl + wheel zooms the session's view around the pointer, Shift +
 *   wheel (or a horizontal wheel) pans it; the plain wheel scrolls the
 *   rows (the GtkScrolledWindow's);
 * - a drag on the plot pans; a drag with Shift, or one that starts on the
 *   ruler, chooses a range and zooms to it when released (a step of the
 *   session's history: Alt+Left goes back);
 * - in the label column, a click on a row's expander (or a double click
 *   on its label) expands or collapses it; the context menu (right click,
 *   or Shift+F10 / Menu on the focused timeline) hides the row, shows
 *   the hidden ones, expands or collapses them all;
 * - tooltips: the row's full name, the time, what ran there.
 */
#include "config.h"

#include <math.h>

#include "sextant-timeline-private.h"

/* A range narrower than this is a click, not a zoom */
#define MIN_RANGE_PIXELS 4

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

  /* the rows scroll */
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

/* Drags: pan, or choose a range --------------------------------------------------- */

static void
drag_begin_cb (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               SextantTimeline *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  /* the label column has its own clicks */
  if (x < self->label_width)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->drag_t0 = (double)self->t0;
  self->drag_t1 = (double)self->t1;
  self->panned = FALSE;
  self->selecting = (state & GDK_SHIFT_MASK) != 0 || y < RULER_HEIGHT;
  self->range_x0 = self->range_x1 = x;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update_cb (GtkGestureDrag  *gesture,
                double           dx,
                double           dy,
                SextantTimeline *self)
{
  double shift;

  if (self->session == NULL)
    return;
  /* GtkGestureClick still emits "released" after the pointer moved: a
   * drag is no click (released_cb() asks this) */
  if (gtk_drag_check_threshold (GTK_WIDGET (self), 0, 0, (int)dx, (int)dy))
    self->panned = TRUE;
  if (self->selecting)
    {
      self->range_x1 = CLAMP (self->range_x0 + dx, self->label_width,
                              self->label_width + _sextant_timeline_plot_width (self));
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  shift = -dx / _sextant_timeline_plot_width (self) * (self->drag_t1 - self->drag_t0);
  sextant_session_set_view (self->session, (gint64)llround (self->drag_t0 + shift),
                            (gint64)llround (self->drag_t1 + shift));
}

static void
drag_end_cb (GtkGestureDrag  *gesture,
             double           dx,
             double           dy,
             SextantTimeline *self)
{
  double x0 = MIN (self->range_x0, self->range_x1);
  double x1 = MAX (self->range_x0, self->range_x1);

  if (!self->selecting)
    return;
  self->selecting = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (self->session == NULL || x1 - x0 < MIN_RANGE_PIXELS)
    return;
  sextant_timeline_zoom_to_range (self, _sextant_timeline_time_at (self, x0), _sextant_timeline_time_at (self, x1));
}

/**
 * sextant_timeline_zoom_to_range:
 *
 * Shows [@t0, @t1) (ticks): what a drag with Shift, or on the ruler, does
 * when released. One step of the session's history.
 */
void
sextant_timeline_zoom_to_range (SextantTimeline *self,
                                gint64           t0,
                                gint64           t1)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  if (self->session == NULL || t1 <= t0)
    return;
  sextant_session_zoom_to_range (self->session, t0, t1);
}

/* The label column ---------------------------------------------------------------- */

static void
label_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  SextantTimeline *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  const SextantTimelineRow *row;
  int position;

  if (x >= self->label_width || self->rows == NULL || (position = _sextant_timeline_row_at (self, y)) < 0)
    return;
  row = sextant_timeline_rows_get_row (self->rows, (guint)position);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (button == GDK_BUTTON_SECONDARY)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      sextant_timeline_popup_row_menu (self, (guint)position, x, y);
      return;
    }
  /* the expander, or a double click on the label */
  if (row->expandable && (n_press == 2 || (x >= LABEL_PAD - 4 && x < LABEL_PAD + (row->depth + 1) * INDENT + 2)))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      sextant_timeline_rows_set_expanded (self->rows, row->key, !row->expanded);
    }
}

/**
 * sextant_timeline_popup_row_menu:
 * @row: a shown row
 *
 * The label column's context menu for @row, at (@x, @y): Hide, Show All
 * Rows, Expand All, Collapse All.
 */
void
sextant_timeline_popup_row_menu (SextantTimeline *self,
                                 guint            row,
                                 double           x,
                                 double           y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) all = g_menu_new ();
  g_autofree char *hide = NULL;
  const SextantTimelineRow *r;
  GtkWidget *popover;

  g_return_if_fail (SEXTANT_IS_TIMELINE (self));

  if (self->rows == NULL || row >= sextant_timeline_rows_get_n_rows (self->rows))
    return;
  r = sextant_timeline_rows_get_row (self->rows, row);
  hide = g_strdup_printf ("timeline.hide-row(uint32 %u)", r->key);
  g_menu_append (menu, "_Hide Row", hide);
  if (r->expandable)
    {
      g_autofree char *toggle = g_strdup_printf ("timeline.toggle-row(uint32 %u)", r->key);

      g_menu_append (menu, r->expanded ? "_Collapse" : "_Expand", toggle);
    }
  g_menu_append (all, "_Show All Rows", "timeline.show-all-rows");
  g_menu_append (all, "E_xpand All", "timeline.expand-all");
  g_menu_append (all, "C_ollapse All", "timeline.collapse-all");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (all));

  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_widget_set_parent (popover, GTK_WIDGET (self));
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle) { (int)x, (int)y, 1, 1 });
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  g_signal_connect (popover, "closed", G_CALLBACK (gtk_widget_unparent), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
}

static void
hide_row_action (GtkWidget  *widget,
                 const char *name,
                 GVariant   *parameter)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);

  if (self->rows != NULL)
    sextant_timeline_rows_set_hidden (self->rows, g_variant_get_uint32 (parameter), TRUE);
}

static void
toggle_row_action (GtkWidget  *widget,
                   const char *name,
                   GVariant   *parameter)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);
  int row;

  if (self->rows == NULL || (row = sextant_timeline_rows_find (self->rows, g_variant_get_uint32 (parameter))) < 0)
    return;
  sextant_timeline_rows_set_expanded (self->rows, g_variant_get_uint32 (parameter),
                                      !sextant_timeline_rows_get_row (self->rows, (guint)row)->expanded);
}

static void
rows_action (GtkWidget  *widget,
             const char *name,
             GVariant   *parameter)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);

  if (self->rows == NULL)
    return;
  if (g_str_equal (name, "timeline.show-all-rows"))
    sextant_timeline_rows_show_all (self->rows);
  else
    sextant_timeline_rows_expand_all (self->rows, g_str_equal (name, "timeline.expand-all"));
}

/* The keyboard's context menu: for the first row in view */
static void
menu_action (GtkWidget  *widget,
             const char *name,
             GVariant   *parameter)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);
  guint first, last;

  _sextant_timeline_visible_rows (self, &first, &last);
  if (first < last)
    sextant_timeline_popup_row_menu (self, first, self->label_width / 2.0,
                                     _sextant_timeline_row_top (self, first) + self->row_height / 2);
}

/* Tooltips ------------------------------------------------------------------------ */

/* The location, the time, and what ran in the bucket there */
static gboolean
query_tooltip (GtkWidget  *widget,
               int         x,
               int         y,
               gboolean    keyboard,
               GtkTooltip *tooltip)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);
  g_autoptr(GString) text = g_string_new (NULL);
  const SextantTimelineRow *row;
  FrameLoc *fl;
  int position;
  gint64 t;

  if (self->rows == NULL || self->t1 <= self->t0 || y < RULER_HEIGHT)
    return FALSE;
  if (self->machine)
    {
      GArray *all = sextant_timeline_rows_get_all_locations (self->rows);
      double area = gtk_widget_get_height (widget) - RULER_HEIGHT - ROW_GAP;
      guint index = (guint)CLAMP ((y - RULER_HEIGHT - ROW_GAP) / area * all->len, 0, all->len - 1);
      int r;

      if (all->len == 0 || (r = sextant_timeline_rows_row_of_loc (self->rows, g_array_index (all, gint64, index))) < 0)
        return FALSE;
      position = r;
    }
  else if ((position = _sextant_timeline_row_at (self, y)) < 0)
    return FALSE;
  row = sextant_timeline_rows_get_row (self->rows, (guint)position);
  g_string_append_printf (text, "<b>%s</b>", row->tooltip != NULL ? row->tooltip : row->label);
  if (row->locs->len > 1)
    g_string_append_printf (text, " (%u locations)", row->locs->len);
  if (x < self->label_width)
    {
      if (row->expandable)
        g_string_append (text, row->expanded ? "\nClick the triangle to collapse" : "\nClick the triangle to expand");
      gtk_tooltip_set_markup (tooltip, text->str);
      return TRUE;
    }

  t = _sextant_timeline_time_at (self, x);
  g_string_append_printf (text, "\n%.6f s", (t - self->t_begin) / (double)self->resolution);
  fl = self->frame != NULL && self->frame->locs != NULL && row->locs->len == 1
       ? g_hash_table_lookup (self->frame->locs, &g_array_index (row->locs, gint64, 0)) : NULL;
  for (guint i = 0; fl != NULL && i < fl->buckets->len; i++)
    {
      const SextantLodBucket *b = &g_array_index (fl->buckets, SextantLodBucket, i);
      const char *region;

      if (t < b->begin || t >= b->end)
        continue;
      region = g_hash_table_lookup (self->regions, &b->region);
      g_string_append_printf (text, "\nmostly <tt>%s</tt>", region != NULL ? region : "?");
      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        if (b->time[c] > 0)
          g_string_append_printf (text, "\n%s %.0f %%", sextant_category_names[c], 100.0 * b->time[c] / (b->end - b->begin));
      break;
    }
  gtk_tooltip_set_markup (tooltip, text->str);

  return TRUE;
}

void
_sextant_timeline_input_init (SextantTimeline *self)
{
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *labels = gtk_gesture_click_new ();

  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (labels), 0);
  g_signal_connect (labels, "pressed", G_CALLBACK (label_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (labels));
}

void
_sextant_timeline_input_class_init (GtkWidgetClass *widget_class)
{
  widget_class->query_tooltip = query_tooltip;
  gtk_widget_class_install_action (widget_class, "timeline.hide-row", "u", hide_row_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-row", "u", toggle_row_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-all-rows", NULL, rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.expand-all", NULL, rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.collapse-all", NULL, rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.menu", NULL, menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "timeline.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.menu", NULL);
}
