/*
 * sextant-timeline-layers-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline's layers (sextant-timeline-layer-*.c) share and the
 * widget need not see: the rows the frame's items fall on, looked up once
 * per location and call; "flows" (a message, a one-sided operation: a line
 * from a time on one row to a time on another) with the choice between
 * single lines, bundles and a density band; the stripes of a row's band.
 * Main thread, inside a snapshot.
 */
#pragma once

#include "sextant-timeline-layers.h"

G_BEGIN_DECLS

/* The rows a layer's items fall on, in order of first use */
typedef struct
{
  float y;          /* the row's top */
  float height;
} SextantLayerRow;

typedef struct
{
  const SextantTimelineGeometry *geometry;
  GArray     *by_loc;   /* guint32 per location id below 2^20: index + 1 into ends_array */
  GHashTable *ends;     /* the other locations: loc -> index + 1 into ends_array */
  GArray     *ends_array;   /* LayerEnd, private */
  GHashTable *by_y;     /* a row's top (float bits) -> index + 1 into rows */
  GArray     *rows;     /* SextantLayerRow */
} SextantLayerRows;

void  _sextant_layer_rows_init   (SextantLayerRows              *rows,
                                  const SextantTimelineGeometry *geometry);
void  _sextant_layer_rows_clear  (SextantLayerRows              *rows);
/* @loc's row: its index in rows->rows, or -1 when it has none in view;
 * then @edge_y is where a line toward it leaves the area (above @top or
 * below @bottom) when the geometry said on which side it is, else NAN */
int   _sextant_layer_rows_lookup (SextantLayerRows              *rows,
                                  gint64                         loc,
                                  float                         *edge_y);

/* A flow: what a line from (@t0 on @loc0's row) to (@t1 on @loc1's row)
 * stands for, @count messages or operations (more than one for a
 * density entry) */
typedef struct
{
  gint64 loc0;
  gint64 loc1;
  gint64 t0;
  gint64 t1;
  gint64 count;
  guint8 head;      /* SextantFlowHead at (@t1, @loc1) */
  guint8 dashed;    /* never completed: dashed */
} SextantFlow;

typedef enum
{
  SEXTANT_FLOW_HEAD_NONE,
  SEXTANT_FLOW_HEAD_FILLED,
  SEXTANT_FLOW_HEAD_OPEN,
} SextantFlowHead;

typedef struct
{
  GdkRGBA color;
  float   line_width;    /* of a single line */
} SextantFlowStyle;

/* What _sextant_timeline_draw_flows() drew, for tests and benchmarks */
typedef struct
{
  guint lines;
  guint bundles;
  guint band_columns;    /* (row, pixel column) cells of the band */
  guint skipped;         /* flows with no end in view */
} SextantFlowStats;

/* The pixel width of the windows in which flows are counted, per row and
 * half of a row (lines toward rows above cross the top half, toward rows
 * below the bottom half) */
#define SEXTANT_FLOW_WINDOW 16
/* At most this many flows ending in a half window and they are drawn one
 * by one (one line per 4 pixels of a row's span) */
#define SEXTANT_FLOW_LINES_PER_WINDOW 4
/* A half window whose lines and bundles would be wider, summed, than this
 * share of it (4 single lines are 6 of 16 pixels) turns into the density
 * band */
#define SEXTANT_FLOW_BAND_INK 0.4

/* @canvas (nullable): where the single solid lines are painted by hand
 * (else Cairo strokes them, or a picture of their own when many) */
void  _sextant_timeline_draw_flows (GtkSnapshot                   *snapshot,
                                    SextantLayerCanvas            *canvas,
                                    const SextantTimelineGeometry *geometry,
                                    GArray                        *flows,
                                    const SextantFlowStyle        *style,
                                    SextantFlowStats              *stats);

/* The strip of a row's band: at the bottom (@top FALSE) or the top of the
 * row, a sixth of its height, 1 to 4 pixels */
void  _sextant_layer_band_strip    (const SextantLayerRow         *row,
                                    gboolean                       top,
                                    float                         *y,
                                    float                         *height);

/* The colour of one-sided operations' arrows and marks */
const GdkRGBA *_sextant_timeline_rma_color (void);

/* The colour of the lock waits, holds and hand-overs */
const GdkRGBA *_sextant_timeline_lock_color (void);

/* A Cairo context for the geometry's area, clipped to it */
cairo_t *_sextant_layer_cairo (GtkSnapshot                   *snapshot,
                               const SextantTimelineGeometry *geometry);

/* sextant-timeline-canvas.c: painting into a SextantLayerCanvas by hand
 * (widget coordinates, clipped to the canvas, over what is there) */
/* [@x0, @x1) x [@y0, @y1) filled with @pixel, its edge pixels by the
 * share they cover */
void     _sextant_layer_canvas_rect      (SextantLayerCanvas *canvas,
                                          double              x0,
                                          double              y0,
                                          double              x1,
                                          double              y1,
                                          guint32             pixel);
/* Wu's line, a pixel wide, from (@x0, @y0) to (@x1, @y1) */
void     _sextant_layer_canvas_line      (SextantLayerCanvas *canvas,
                                          double              x0,
                                          double              y0,
                                          double              x1,
                                          double              y1,
                                          guint32             color);
/* A line @thickness pixels wide (across it), its ends square */
void     _sextant_layer_canvas_wide_line (SextantLayerCanvas *canvas,
                                          double              x0,
                                          double              y0,
                                          double              x1,
                                          double              y1,
                                          double              thickness,
                                          guint32             color);

/* Pixels the layers paint by hand: premultiplied ARGB32 in a guint32 */

/* @src over @dst */
static inline guint32
_sextant_pixel_over (guint32 src,
                     guint32 dst)
{
  guint32 keep = 255 - (src >> 24);
  guint32 rb = ((dst & 0x00ff00ffu) * keep + 0x00800080u) >> 8 & 0x00ff00ffu;
  guint32 ag = ((dst >> 8 & 0x00ff00ffu) * keep + 0x00800080u) & 0xff00ff00u;

  return src + (rb | ag);
}

/* @pixel times @coverage / 256 (0 to 256) */
static inline guint32
_sextant_pixel_scale (guint32 pixel,
                      guint   coverage)
{
  guint32 rb = ((pixel & 0x00ff00ffu) * coverage >> 8) & 0x00ff00ffu;
  guint32 ag = ((pixel >> 8 & 0x00ff00ffu) * coverage) & 0xff00ff00u;

  return rb | ag;
}

G_END_DECLS
