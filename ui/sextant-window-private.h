/*
 * sextant-window-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of SextantWindow: sextant-window.c (the trace it
 * shows, its state), sextant-window-actions.c (what the menu, the buttons
 * and the keys do) and sextant-window-dnd.c (dropping a trace on it).
 */
#pragma once

#include "sextant-details-pane.h"
#include "sextant-timeline-legend.h"
#include "sextant-window.h"

G_BEGIN_DECLS

struct _SextantWindow
{
  AdwApplicationWindow   parent_instance;

  /* Template widgets */
  AdwWindowTitle        *window_title;
  AdwToastOverlay       *toasts;
  GtkWidget             *zoom_box;           /* the timeline's controls: shown with a trace */
  GtkWidget             *messages_button;
  GtkWidget             *lost_button;
  GtkRevealer           *error_revealer;
  GtkLabel              *error_label;
  GtkRevealer           *progress_revealer;
  GtkLabel              *progress_label;
  GtkProgressBar        *progress_bar;
  GtkStack              *stack;
  AdwPreferencesGroup   *recent_group;
  GtkListBox            *recent_list;
  GMenu                 *recent_menu;
  SextantPatternBrowser *browser;
  GtkPaned              *down;               /* the timeline over the pages */
  SextantTimeline       *timeline;
  GtkWidget             *timeline_bar;       /* the legend, the rows' filter and mode */
  GtkWidget             *legend_box;
  SextantTimelineLegend *legend;
  GtkWidget             *hidden_button;
  GtkSearchEntry        *row_filter;
  GtkWidget             *machine_button;
  GtkRevealer           *details_revealer;   /* at the right of the timeline: shown with an item */
  SextantDetailsPane    *details_pane;
  GtkRevealer           *filter_revealer;    /* the pair filter's bar, above the timeline */
  GtkLabel              *filter_label;
  GtkStack              *views;              /* the pages under the timeline: source, tree, matrix */
  SextantSourceView     *source_view;
  SextantTreeView       *tree_view;
  GtkLabel              *tree_title;
  GtkToggleButton       *tree_model_button;
  GtkToggleButton       *tree_torus_button;
  SextantMatrixView     *matrix_view;
  GtkLabel              *matrix_summary;
  GtkDropDown           *matrix_metric;
  GtkDropDown           *matrix_transfers;
  GtkToggleButton       *matrix_range_button;

  /* Owned references */
  SextantSession        *session;            /* shown; NULL: the start page */
  SextantSession        *loading;            /* being opened: replaces `session` when loaded */
  GCancellable          *load_cancellable;
  GCancellable          *analysis_cancellable;
  GCancellable          *instance_cancellable; /* --instance: finding it in the store */
  GSettings             *settings;
  GSignalGroup          *session_signals;
  GSignalGroup          *loading_signals;
  GtkFileChooserNative  *chooser;
  GStrv                  extra_roots;        /* --source-root, for this window */
  char                  *error;

  /* State */
  double                 initial_from;       /* --view, seconds; to <= from: none */
  double                 initial_to;
  gboolean               choose_worst;       /* --show-worst, until done */
  char                  *pending_collective; /* --collective, chosen once the trace is shown */
  gint64                 pending_instance;   /* --instance, once analysed; SEXTANT_NULL: none */
  gboolean               finding_instance;
  gboolean               fit_panes;          /* a trace shown: the timeline's pane to fit its rows */
  gboolean               ready;
};

void _sextant_window_class_actions_init  (GtkWidgetClass *widget_class);
void _sextant_window_actions_init        (SextantWindow  *self);
void _sextant_window_actions_update      (SextantWindow  *self);
void _sextant_window_dnd_init            (SextantWindow  *self);
void _sextant_window_show_error          (SextantWindow  *self,
                                          const char     *message);
void _sextant_window_analyse             (SextantWindow  *self);
void _sextant_window_toast               (SextantWindow  *self,
                                          const char     *text);
GtkWidget *_sextant_window_page_widget   (SextantWindow  *self);
void _sextant_window_timeline_class_init (GtkWidgetClass *widget_class);
void _sextant_window_timeline_init       (SextantWindow  *self);
void _sextant_window_timeline_update     (SextantWindow  *self);

G_END_DECLS
