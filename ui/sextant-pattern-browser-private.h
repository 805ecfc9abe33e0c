/*
 * sextant-pattern-browser-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of SextantPatternBrowser: sextant-pattern-browser.c
 * (the widget, the patterns' totals and metric tree, the pattern chosen)
 * and -instances.c (the chosen pattern's instances, read on a GTask
 * thread, and the chosen instance: its row and its details).
 */
#pragma once

#include "sextant-pattern-browser.h"
#include "sextant-pattern-tree.h"

G_BEGIN_DECLS

struct _SextantPatternBrowser
{
  GtkWidget           parent_instance;

  /* Template widgets */
  GtkWidget          *box;
  GtkLabel           *status;
  GtkWidget          *scope_box;
  GtkLabel           *scope_label;
  GtkListView        *patterns;               /* of `rows`: the nodes of `tree` shown */
  GtkSingleSelection *pattern_selection;
  GtkListItemFactory *pattern_factory;
  GtkColumnView      *instances_view;
  GtkColumnViewColumn *lost_column;
  GtkSingleSelection *selection;
  GtkSortListModel   *sorted;
  GListStore         *instances;
  GtkLabel           *details;

  /* Owned references */
  SextantSession     *session;
  GSignalGroup       *session_signals;
  GPtrArray          *totals;                 /* SextantPatternTotal with instances, worst first */
  SextantPatternTree *tree;                   /* the metric tree of all the patterns */
  GtkTreeListModel   *rows;                   /* the tree's rows, GtkTreeListRow of GtkStringObject (ids) */
  GCancellable       *cancellable;            /* of the totals, and of the instances through the next */
  GCancellable       *instances_cancellable;  /* of the chosen pattern's instances */
  char               *chosen;                 /* the chosen pattern's id */
  guint               scroll_tick;            /* scrolls the list to the selected row; 0: none */
  guint               scroll_frames;          /* the frames it has seen */

  gboolean            ready;
  gboolean            filling;                /* the instances are being replaced: no choice made */
};

/* In sextant-pattern-browser.c */
void             _sextant_pattern_browser_set_ready         (SextantPatternBrowser *self,
                                                             gboolean               ready);
void             _sextant_pattern_browser_show_error        (SextantPatternBrowser *self,
                                                             const GError          *error);

/* In sextant-pattern-browser-instances.c */
void             _sextant_pattern_browser_load_instances    (SextantPatternBrowser *self,
                                                             guint                  index);
void             _sextant_pattern_browser_clear_instances   (SextantPatternBrowser *self);
const char      *_sextant_pattern_browser_instance_pattern  (SextantPatternBrowser *self);
void             _sextant_pattern_browser_show_instance     (SextantPatternBrowser *self,
                                                             SextantInstance       *instance);
void             _sextant_pattern_browser_show_details      (SextantPatternBrowser *self,
                                                             SextantInstance       *instance);
void             _sextant_pattern_browser_connect_instances (SextantPatternBrowser *self);

G_END_DECLS
