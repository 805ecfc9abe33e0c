/*
 * sextant-window-timeline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bar above the window's timeline: the legend (the colours of what is
 * in view, the colour mode), the hidden rows ("3 hidden": a click shows
 * them), the rows' filter (a search entry: Ctrl+F in the timeline) and
 * the whole-machine mode (a toggle, key H).
 */
#include "config.h"

#include "sextant-window-private.h"

/* The hidden rows' button: shown while some are */
static void
rows_changed_cb (SextantWindow *self)
{
  SextantTimelineRows *rows = sextant_timeline_get_rows (self->timeline);
  guint hidden = rows != NULL ? sextant_timeline_rows_get_n_hidden (rows) : 0;

  gtk_widget_set_visible (self->hidden_button, hidden > 0);
  if (hidden > 0)
    {
      g_autofree char *label = g_strdup_printf (g_dngettext (NULL, "%u row hidden", "%u rows hidden", hidden),
                                                hidden);

      gtk_button_set_label (GTK_BUTTON (self->hidden_button), label);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-all-rows", hidden > 0);
}

static void
row_filter_cb (SextantWindow *self)
{
  SextantTimelineRows *rows = sextant_timeline_get_rows (self->timeline);

  if (rows != NULL)
    sextant_timeline_rows_set_filter (rows, gtk_editable_get_text (GTK_EDITABLE (self->row_filter)));
}

/* Escape in the filter: all rows again */
static void
row_filter_stop_cb (SextantWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->row_filter), "");
}

static void
show_all_rows_action (GtkWidget  *widget,
                      const char *name,
                      GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);
  SextantTimelineRows *rows = sextant_timeline_get_rows (self->timeline);

  if (rows != NULL)
    sextant_timeline_rows_show_all (rows);
}

static void
find_rows_action (GtkWidget  *widget,
                  const char *name,
                  GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->row_filter));
}

/* A frame drawn: the legend names what it holds */
static void
timeline_ready_cb (SextantWindow *self)
{
  g_autoptr(GPtrArray) regions = NULL;
  g_auto(GStrv) patterns = NULL;
  g_auto(GStrv) titles = NULL;
  g_autofree guint *categories = NULL;

  if (!sextant_timeline_get_ready (self->timeline))
    return;
  regions = sextant_timeline_dup_regions (self->timeline, &categories);
  patterns = sextant_timeline_dup_patterns (self->timeline, &titles);
  sextant_timeline_legend_set_categories (self->legend, sextant_timeline_get_categories (self->timeline));
  sextant_timeline_legend_set_regions (self->legend, regions, categories);
  sextant_timeline_legend_set_patterns (self->legend, (const char * const *)patterns,
                                        (const char * const *)titles);
}

/**
 * sextant_window_get_legend:
 *
 * Returns: (transfer none): the timeline's legend (SextantTimelineLegend)
 */
GtkWidget *
sextant_window_get_legend (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return GTK_WIDGET (self->legend);
}

/* A trace shown: its rows' filter empty, the bar's state its rows' */
void
_sextant_window_timeline_update (SextantWindow *self)
{
  SextantTimelineRows *rows = sextant_timeline_get_rows (self->timeline);

  gtk_widget_set_visible (self->timeline_bar, rows != NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->row_filter), "");
  if (rows != NULL)
    g_signal_connect_object (rows, "changed", G_CALLBACK (rows_changed_cb), self, G_CONNECT_SWAPPED);
  rows_changed_cb (self);
}

void
_sextant_window_timeline_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, timeline_bar);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, legend_box);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, hidden_button);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, row_filter);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, machine_button);
  gtk_widget_class_install_action (widget_class, "win.show-all-rows", NULL, show_all_rows_action);
  gtk_widget_class_install_action (widget_class, "win.find-rows", NULL, find_rows_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find-rows", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, 0, "win.whole-machine", NULL);
}

void
_sextant_window_timeline_init (SextantWindow *self)
{
  g_autoptr(GPropertyAction) machine = g_property_action_new ("whole-machine", self->timeline, "whole-machine");

  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (machine));
  self->legend = SEXTANT_TIMELINE_LEGEND (sextant_timeline_legend_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->legend), TRUE);
  gtk_box_append (GTK_BOX (self->legend_box), GTK_WIDGET (self->legend));
  g_object_bind_property (self->legend, "color-mode", self->timeline, "color-mode", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->timeline, "notify::ready", G_CALLBACK (timeline_ready_cb), self, G_CONNECT_SWAPPED);
  /* the lost time shown or hidden: the legend's patterns follow */
  g_signal_connect_object (self->timeline, "notify::show-lost", G_CALLBACK (timeline_ready_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->row_filter, "search-changed", G_CALLBACK (row_filter_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->row_filter, "stop-search", G_CALLBACK (row_filter_stop_cb), self, G_CONNECT_SWAPPED);
  gtk_search_entry_set_key_capture_widget (self->row_filter, NULL);
  _sextant_window_timeline_update (self);
}
