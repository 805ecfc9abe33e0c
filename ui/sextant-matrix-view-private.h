/*
 * sextant-matrix-view-private.h: the matrix view's state, shared by its
 * building and input (sextant-matrix-view.c) and its drawing
 * (sextant-matrix-view-draw.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sextant-matrix-view.h"

G_BEGIN_DECLS

struct _SextantMatrixView
{
  GtkWidget            parent_instance;

  SextantSession      *session;
  GSignalGroup        *session_signals;
  SextantCommMatrix   *matrix;
  char                *error;
  char                *summary;
  SextantMatrixMetric  metric;
  SextantMatrixTransfers transfers;
  gboolean             pick_transfers; /* the session's first matrix: one-sided if no messages */
  gboolean             visible_range;
  gboolean             ready;
  gboolean             building;
  gboolean             stale;          /* to build when mapped */
  GCancellable        *cancellable;
  guint                serial;
  guint                debounce;

  /* What is drawn, for the matrix, the metric and the size */
  char               **labels;         /* short labels, by matrix index */
  char                *shared;         /* what every label begins with ("MPI Rank "), or NULL */
  int                  width;
  int                  height;
  int                  left;           /* the plot's top left corner */
  int                  top;
  int                  cell;           /* pixels per drawn row and column */
  guint                block;          /* matrix rows per drawn row */
  guint                rows;           /* drawn rows (and columns) */
  double              *values;         /* rows x rows, the metric summed per block */
  double               low;            /* the smallest value above 0 */
  double               high;
  gboolean             log_scale;
  GskRenderNode       *cells;          /* their picture (sextant_pixels_node_new()) */
  int                  hover_row;
  int                  hover_col;
};

/* @value of @metric as the legend and the tooltips write it */
char     *_sextant_matrix_view_format_value (SextantMatrixMetric  metric,
                                             double               value);
/* The labels without the words they all begin with: "MPI Rank 3" -> "3" */
void      _sextant_matrix_view_make_labels  (SextantMatrixView   *self);
/* Forgets the cells' picture and values (the matrix, metric or size changed) */
void      _sextant_matrix_view_clear_cells  (SextantMatrixView   *self);
/* The sum of @metric over the block of matrix rows and columns drawn as
 * row @row, column @col */
double    _sextant_matrix_view_block_value  (SextantMatrixView   *self,
                                             SextantMatrixMetric  metric,
                                             guint                row,
                                             guint                col);
/* The plot's place and its cells' pixels, for the widget's size */
void      _sextant_matrix_view_layout_cells (SextantMatrixView   *self);
/* The drawn row and column under (@x, @y), FALSE outside the plot */
gboolean  _sextant_matrix_view_cell_at      (SextantMatrixView   *self,
                                             double               x,
                                             double               y,
                                             guint               *row,
                                             guint               *col);
/* GtkWidget.snapshot */
void      _sextant_matrix_view_snapshot     (GtkWidget           *widget,
                                             GtkSnapshot         *snapshot);

G_END_DECLS
