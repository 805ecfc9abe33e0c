/*
 * sextant-matrix-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The communication matrix: a heat map of the point-to-point traffic,
 * senders down, receivers across, of the bytes, the message count or the
 * time spent in the receives ("metric"), for the whole run or the
 * session's view ("visible-range"). A colour scale (logarithmic when the
 * values span more than two decades) with its legend; the axes' labels,
 * thinned when dense. Past one location per pixel, rows and columns are
 * summed into square blocks. Hover gives a cell's numbers; a click
 * narrows the timeline to that pair's (or block's) messages: the session's
 * view becomes their span and its pair filter their locations.
 *
 * The matrix is built on a worker thread with a connection of its own
 * (sextant-comm-matrix.h); for the visible range, again when the session's
 * view settles (debounced), and only while the view is shown.
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-comm-matrix.h"
#include "sextant-session.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_MATRIX_VIEW (sextant_matrix_view_get_type ())
G_DECLARE_FINAL_TYPE (SextantMatrixView, sextant_matrix_view, SEXTANT, MATRIX_VIEW, GtkWidget)

GtkWidget         *sextant_matrix_view_new           (void);
void               sextant_matrix_view_set_session   (SextantMatrixView   *self,
                                                      SextantSession      *session);
SextantSession    *sextant_matrix_view_get_session   (SextantMatrixView   *self);
SextantCommMatrix *sextant_matrix_view_get_matrix    (SextantMatrixView   *self);
gboolean           sextant_matrix_view_get_ready     (SextantMatrixView   *self);
const char        *sextant_matrix_view_get_error     (SextantMatrixView   *self);
SextantMatrixMetric sextant_matrix_view_get_metric   (SextantMatrixView   *self);
void               sextant_matrix_view_set_metric    (SextantMatrixView   *self,
                                                      SextantMatrixMetric  metric);
SextantMatrixTransfers sextant_matrix_view_get_transfers (SextantMatrixView *self);
void               sextant_matrix_view_set_transfers (SextantMatrixView      *self,
                                                      SextantMatrixTransfers  transfers);
gboolean           sextant_matrix_view_get_visible_range (SextantMatrixView *self);
void               sextant_matrix_view_set_visible_range (SextantMatrixView *self,
                                                      gboolean             visible_range);
guint              sextant_matrix_view_get_block     (SextantMatrixView   *self);
gboolean           sextant_matrix_view_get_cell_area (SextantMatrixView   *self,
                                                      guint                sender,
                                                      guint                receiver,
                                                      graphene_rect_t     *area);
void               sextant_matrix_view_activate_cell (SextantMatrixView   *self,
                                                      guint                sender,
                                                      guint                receiver);

G_END_DECLS
