/*
 * sextant-tree-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tree-communication view: a SextantCommTree (who sent to whom inside
 * a collective, or who delayed whom behind a wait state) drawn top-down by
 * depth with the time axis to the right. A node is a box at the time its
 * data (or its release) arrived, with a thin bar to the time it finished,
 * filled by its lateness (neutral to red, with a legend); edges go from
 * the parent's send to the child's arrival, the critical path bold, with
 * their bytes and latency where they fit. Past 24 nodes at one depth, the
 * least late siblings of a parent (with their subtrees) are one box "+ 37
 * ranks"; a click on it shows 96 more of them. Hover: a node's details; a
 * click: the session selects its location at its arrival.
 *
 * It shows its session's choice: the chosen collective's tree, else the
 * chosen instance's delay chain (or, for an instance in a collective that
 * has no chain, the collective's tree), built on a worker thread with a
 * connection of its own (sextant-graph.h). Errors of the builders are
 * drawn in the view and set as "error"; an instance that is no wait for
 * another location and lies in no collective has no tree, which the view
 * says ("notice").
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-comm-tree.h"
#include "sextant-session.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_TREE_VIEW (sextant_tree_view_get_type ())
G_DECLARE_FINAL_TYPE (SextantTreeView, sextant_tree_view, SEXTANT, TREE_VIEW, GtkWidget)

GtkWidget       *sextant_tree_view_new              (void);
void             sextant_tree_view_set_session      (SextantTreeView *self,
                                                     SextantSession  *session);
SextantSession  *sextant_tree_view_get_session      (SextantTreeView *self);
void             sextant_tree_view_set_tree         (SextantTreeView *self,
                                                     SextantCommTree *tree);
SextantCommTree *sextant_tree_view_get_tree         (SextantTreeView *self);
gboolean         sextant_tree_view_get_ready        (SextantTreeView *self);
const char      *sextant_tree_view_get_error        (SextantTreeView *self);
const char      *sextant_tree_view_get_notice       (SextantTreeView *self);
const char      *sextant_tree_view_get_title        (SextantTreeView *self);
gboolean         sextant_tree_view_get_node_area    (SextantTreeView *self,
                                                     guint            node,
                                                     graphene_rect_t *area);
guint            sextant_tree_view_get_n_aggregates (SextantTreeView *self);
char            *sextant_tree_view_dup_edge_label   (SextantTreeView *self,
                                                     guint            e);
gboolean         sextant_tree_view_get_aggregate_area (SextantTreeView *self,
                                                     guint            aggregate,
                                                     guint           *members,
                                                     graphene_rect_t *area);
/* The border of every node box, and of no other pixel the view draws */
const GdkRGBA   *sextant_tree_view_node_border_color (void);
const GdkRGBA   *sextant_tree_view_phase_color      (guint            phase);

G_END_DECLS
