/*
 * sextant-timeline-flows.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the layers share: the rows a frame's items fall on (each location
 * looked up once per call) and the drawing of "flows", the lines of
 * messages and one-sided operations. A flow is drawn as a line of its own
 * while the flows stay apart; where more than about one per 4 pixels
 * would leave or reach a row, those of one pair of rows in one 16-pixel
 * window of time merge into a bundle (one line, wider with the log of its
 * count); and where even the bundles would cover a window of a row, the
 * window's flows become a density band: a strip at the bottom of the
 * sender's row, per pixel column darker where more of them leave. A flow
 * toward a row out of view leaves the area toward it, or when there are
 * hundreds of those (a few rows of thousands in view) is a short stub in
 * its direction. The rows' middles stay readable at any density.
 *
 * Cost: O(flows + rows in view x pixel columns) to decide (the band's
 * counts per pixel column). Given the layers' pixels (the timeline at a
 * scale of 1), the lines, the bundles without heads and the band are
 * painted into them by hand, in O(their pixels); else O(lines + bundles +
 * rows) nodes to draw: one picture per row for its band. 126 000
 * messages on 64 rows of 1200 pixels: 35-43 ms on a loaded 2-core
 * machine, most of it placing and bundling the flows
 * (tests/test-timeline-layers.c). Main thread, inside a snapshot.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-snapshot-util.h"
#include "sextant-timeline-layers-private.h"

/* Rows -------------------------------------------------------------------- */

typedef struct
{
  int   row;      /* index into rows->rows, -1: none in view */
  float edge_y;   /* row -1: where a line toward it leaves the area, or NAN */
} LayerEnd;

void
_sextant_layer_rows_init (SextantLayerRows              *rows,
                          const SextantTimelineGeometry *geometry)
{
  rows->geometry = geometry;
  rows->by_loc = g_array_new (FALSE, TRUE, sizeof (guint32));
  rows->ends = g_hash_table_new (g_direct_hash, g_direct_equal);
  rows->ends_array = g_array_new (FALSE, FALSE, sizeof (LayerEnd));
  rows->by_y = g_hash_table_new (g_direct_hash, g_direct_equal);
  rows->rows = g_array_new (FALSE, FALSE, sizeof (SextantLayerRow));
}

void
_sextant_layer_rows_clear (SextantLayerRows *rows)
{
  g_clear_pointer (&rows->by_loc, g_array_unref);
  g_clear_pointer (&rows->ends, g_hash_table_unref);
  g_clear_pointer (&rows->ends_array, g_array_unref);
  g_clear_pointer (&rows->by_y, g_hash_table_unref);
  g_clear_pointer (&rows->rows, g_array_unref);
}

static gpointer
float_key (float y)
{
  guint32 bits;

  memcpy (&bits, &y, sizeof bits);

  return GUINT_TO_POINTER (bits);
}

int
_sextant_layer_rows_lookup (SextantLayerRows *rows,
                            gint64            loc,
                            float            *edge_y)
{
  /* locations are store ids, small integers: an array, a hash table past it */
  gboolean small = loc >= 0 && loc < (1 << 20);
  gpointer key = GSIZE_TO_POINTER ((gsize)loc);
  guint index;
  LayerEnd end;

  if (small)
    index = (guint)loc < rows->by_loc->len ? g_array_index (rows->by_loc, guint32, loc) : 0;
  else
    index = GPOINTER_TO_UINT (g_hash_table_lookup (rows->ends, key));

  if (index == 0)
    {
      const SextantTimelineGeometry *g = rows->geometry;
      float y = NAN, height = 0;

      end.row = -1;
      end.edge_y = NAN;
      if (g->row_of (g->row_data, loc, &y, &height) && height > 0 && y + height > g->top && y < g->bottom)
        {
          guint r = GPOINTER_TO_UINT (g_hash_table_lookup (rows->by_y, float_key (y)));

          if (r == 0)
            {
              SextantLayerRow row = { y, height };

              g_array_append_val (rows->rows, row);
              r = rows->rows->len;
              g_hash_table_insert (rows->by_y, float_key (y), GUINT_TO_POINTER (r));
            }
          end.row = (int)r - 1;
        }
      else if (isfinite (y))
        /* out of view, on a known side: lines toward it leave the area */
        end.edge_y = y < g->top ? g->top - 8 : g->bottom + 8;
      g_array_append_val (rows->ends_array, end);
      index = rows->ends_array->len;
      if (small)
        {
          if ((guint)loc >= rows->by_loc->len)
            g_array_set_size (rows->by_loc, (guint)loc + 1);
          g_array_index (rows->by_loc, guint32, loc) = index;
        }
      else
        g_hash_table_insert (rows->ends, key, GUINT_TO_POINTER (index));
    }
  end = g_array_index (rows->ends_array, LayerEnd, index - 1);
  if (edge_y != NULL)
    *edge_y = end.edge_y;

  return end.row;
}

void
_sextant_layer_band_strip (const SextantLayerRow *row,
                           gboolean               top,
                           float                 *y,
                           float                 *height)
{
  float h = CLAMP (roundf (row->height / 6), 1.0f, 4.0f);

  *height = MIN (h, row->height);
  *y = top ? row->y : row->y + row->height - *height;
}

cairo_t *
_sextant_layer_cairo (GtkSnapshot                   *snapshot,
                      const SextantTimelineGeometry *geometry)
{
  graphene_rect_t area = GRAPHENE_RECT_INIT (geometry->plot_x, geometry->top, geometry->plot_width,
                                             geometry->bottom - geometry->top);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &area);

  cairo_rectangle (cr, area.origin.x, area.origin.y, area.size.width, area.size.height);
  cairo_clip (cr);

  return cr;
}


/* Flows ------------------------------------------------------------------- */

typedef enum
{
  AS_LINE,
  AS_BUNDLE,
  AS_BAND,
  AS_NOTHING,
} FlowAs;

/* A flow on screen */
typedef struct
{
  float  x0, y0, x1, y1;
  int    row0, row1;      /* -1: out of view */
  int    win0, win1;      /* their windows */
  gint64 count;
  guint8 head;
  guint8 dashed;
  guint8 as;              /* FlowAs */
  guint  bundle;          /* AS_BUNDLE: index into bundles */
} Placed;

typedef struct
{
  gint64 key;             /* in bundle_of: its rows, then its window */
  gboolean stream;        /* one of 3 or more in consecutive windows */
  gint64 count;
  double x0, x1;          /* sums of the ends' x, weighted by count */
  float  y0, y1;
  int    row0, row1, win0, win1;
  guint8 head;
} Bundle;

/* A bundle's width: 1 pixel for one, growing with the log of the count,
 * at most 4 */
static float
bundle_width (gint64 count)
{
  return (float)MIN (1.0 + log2 ((double)MAX (count, 1)) * 0.75, 4.0);
}

/* More flows than this toward rows out of view, and each is a stub
 * EDGE_STUB pixels high toward its other end, not a line across the pane:
 * a few rows of thousands in view had tens of thousands of lines from
 * their rows to the pane's edges (a hairball, and 20-30 ms to paint) */
#define EDGE_LINES 512
#define EDGE_STUB 24.0f

static void
shorten_leaving (GArray *placed)
{
  guint leaving = 0;

  for (guint i = 0; i < placed->len; i++)
    leaving += (g_array_index (placed, Placed, i).row0 < 0) != (g_array_index (placed, Placed, i).row1 < 0);
  if (leaving <= EDGE_LINES)
    return;
  for (guint i = 0; i < placed->len; i++)
    {
      Placed *p = &g_array_index (placed, Placed, i);
      gboolean out0 = p->row0 < 0;
      float *x = out0 ? &p->x0 : &p->x1, *y = out0 ? &p->y0 : &p->y1;
      float x_in = out0 ? p->x1 : p->x0, y_in = out0 ? p->y1 : p->y0;
      float dy = *y - y_in;

      if ((p->row0 < 0) == (p->row1 < 0) || fabsf (dy) <= EDGE_STUB)
        continue;
      *x = x_in + (*x - x_in) * EDGE_STUB / fabsf (dy);
      *y = y_in + (dy > 0 ? EDGE_STUB : -EDGE_STUB);
    }
}

/* The bits of a window's index in a bundle's key: plots up to 256k pixels */
#define WINDOW_BITS 14

/* The window of @x, from -1 (left of the plot) to n_windows - 2 (right) */
static int
window_of (const SextantTimelineGeometry *g,
           float                          x,
           int                            n_windows)
{
  double w = floor ((x - g->plot_x) / SEXTANT_FLOW_WINDOW);

  return (int)CLAMP (w, -1, MIN (n_windows, 1 << WINDOW_BITS) - 2) + 1;
}

static void
arrow_head (cairo_t *cr,
            double   x0,
            double   y0,
            double   x1,
            double   y1,
            float    size,
            guint8   head)
{
  double dx = x1 - x0, dy = y1 - y0;
  double len = hypot (dx, dy);
  double ux, uy;

  if (head == SEXTANT_FLOW_HEAD_NONE)
    return;
  if (len < 0.5)
    {
      ux = 0;
      uy = 1;
    }
  else
    {
      ux = dx / len;
      uy = dy / len;
    }
  cairo_move_to (cr, x1, y1);
  cairo_line_to (cr, x1 - ux * size * 1.8 - uy * size, y1 - uy * size * 1.8 + ux * size);
  cairo_line_to (cr, x1 - ux * size * 1.8 + uy * size, y1 - uy * size * 1.8 - ux * size);
  cairo_close_path (cr);
  if (head == SEXTANT_FLOW_HEAD_FILLED)
    cairo_fill (cr);
  else
    {
      cairo_save (cr);
      cairo_set_line_width (cr, 1);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_stroke (cr);
      cairo_restore (cr);
    }
}

/* The bundles by key: open addressing, linear probing (a GHashTable of
 * boxed 64-bit keys cost 300 ns a flow) */
typedef struct
{
  gint64 *keys;      /* 0: empty (a key has a row in view: never 0) */
  guint  *values;
  gsize   mask;
} KeyTable;

static void
key_table_init (KeyTable *t,
                gsize     n)
{
  gsize size = 16;

  while (size < 2 * n)
    size *= 2;
  t->keys = g_new0 (gint64, size);
  t->values = g_new (guint, size);
  t->mask = size - 1;
}

static void
key_table_clear (KeyTable *t)
{
  g_clear_pointer (&t->keys, g_free);
  g_clear_pointer (&t->values, g_free);
}

/* @key's slot: its value's place; *@found says whether it was there (if
 * not, the slot is now @key's) */
static guint *
key_table_slot (KeyTable *t,
                gint64    key,
                gboolean *found)
{
  gsize i = (gsize)(((guint64)key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 20) & t->mask;

  while (t->keys[i] != 0 && t->keys[i] != key)
    i = (i + 1) & t->mask;
  *found = t->keys[i] == key;
  t->keys[i] = key;

  return &t->values[i];
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  gint64 ka = *(const gint64 *)a, kb = *(const gint64 *)b;

  return ka < kb ? -1 : ka > kb;
}

/* Ink is counted per half of a row: a line toward a row above crosses the
 * top half of its rows' windows, one toward a row below the bottom half,
 * one within the row (whole-machine rows) both */
static void
add_ink (float *ink,
         int    row,
         int    win,
         int    n_windows,
         float  y,
         float  y_other,
         float  width)
{
  gsize at = ((gsize)row * n_windows + win) * 2;

  if (y_other <= y)
    ink[at] += width;
  if (y_other >= y)
    ink[at + 1] += width;
}

/* What @ink has in the half (or halves) of the window a line from
 * @y toward @y_other crosses, per 16 pixels (the plot's last window can be
 * narrower); 0 for a row out of view */
static float
ink_at (const float *ink,
        int          row,
        int          win,
        int          n_windows,
        int          width,
        float        y,
        float        y_other)
{
  gsize at = ((gsize)row * n_windows + win) * 2;
  int pixels = SEXTANT_FLOW_WINDOW;

  if (row < 0)
    return 0;
  if (win >= 1 && win <= n_windows - 2)
    pixels = CLAMP (width - (win - 1) * SEXTANT_FLOW_WINDOW, 1, SEXTANT_FLOW_WINDOW);

  return MAX (y_other <= y ? ink[at] : 0, y_other >= y ? ink[at + 1] : 0) * SEXTANT_FLOW_WINDOW / pixels;
}

/* The band: per row, a picture of its strip, a shade per pixel column
 * (one node per row, whatever the number of columns); or painted into
 * @canvas */
static void
draw_band (GtkSnapshot                   *snapshot,
           SextantLayerCanvas            *canvas,
           const SextantTimelineGeometry *g,
           SextantLayerRows              *rows,
           const guint32                 *columns,
           int                            width,
           const GdkRGBA                 *color,
           SextantFlowStats              *stats)
{
  guint32 max = 0;
  double scale;
  guint32 shades[6];

  for (gsize i = 0; i < (gsize)rows->rows->len * width; i++)
    max = MAX (max, columns[i]);
  if (max == 0)
    return;
  scale = log2 (1.0 + (double)max);
  /* six shades, from a light one for a single flow to the line colour's
   * for the densest column of the frame */
  for (int l = 0; l < 6; l++)
    {
      GdkRGBA shade = *color;

      shade.alpha = (float)(color->alpha * (0.2 + 0.16 * l));
      shades[l] = sextant_timeline_premultiplied (&shade);
    }
  for (guint r = 0; r < rows->rows->len; r++)
    {
      const SextantLayerRow *row = &g_array_index (rows->rows, SextantLayerRow, r);
      const guint32 *c = columns + (gsize)r * width;
      g_autoptr(GskRenderNode) node = NULL;
      guint32 *pixels;
      float y, h;
      int rows_px;
      gboolean any = FALSE;

      for (int x = 0; x < width && !any; x++)
        any = c[x] > 0;
      if (!any)
        continue;
      _sextant_layer_band_strip (row, FALSE, &y, &h);
      rows_px = MAX ((int)lroundf (h), 1);
      if (canvas != NULL)
        {
          for (int x = 0; x < width; x++)
            if (c[x] > 0)
              {
                int l = CLAMP ((int)floor (5 * log2 (1.0 + (double)c[x]) / scale), 0, 5);

                _sextant_layer_canvas_rect (canvas, g->plot_x + x, y, g->plot_x + x + 1, y + rows_px, shades[l]);
                if (stats != NULL)
                  stats->band_columns++;
              }
          continue;
        }
      pixels = sextant_pixels_new (width, rows_px);
      for (int x = 0; x < width; x++)
        if (c[x] > 0)
          {
            int l = CLAMP ((int)floor (5 * log2 (1.0 + (double)c[x]) / scale), 0, 5);

            pixels[x] = shades[l];
            if (stats != NULL)
              stats->band_columns++;
          }
      for (int k = 1; k < rows_px; k++)
        memcpy (pixels + (gsize)k * width, pixels, (gsize)width * 4);
      node = sextant_pixels_node_new (pixels, width, rows_px,
                                      &GRAPHENE_RECT_INIT (g->plot_x, y, (float)width, (float)rows_px));
      gtk_snapshot_append_node (snapshot, node);
    }
}

/* Single lines are drawn by hand (sextant-timeline-canvas.c: Wu's
 * anti-aliased lines, a pixel wide): into the layers' pixels when given,
 * else when many into a picture of their own. Cairo stroking
 * thousands of crossing lines cost the frame 45 ms (one stroke each; 140
 * ms as one path) for the 3,360 messages of a 1/256 view of the 10
 * M-event store, and 6 ms for 127; this costs what the lines' pixels do. */
#define RASTER_FROM_LINES 256

/* The single solid lines of @placed painted into @canvas; returns how
 * many */
static guint
raster_lines (SextantLayerCanvas            *canvas,
              GArray                        *placed,
              const SextantFlowStyle        *style)
{
  GdkRGBA color = style->color;
  /* bold lines (a pair's) as wide as they are; others a pixel wide */
  gboolean wide = style->line_width >= 2;
  guint32 premultiplied;
  guint n = 0;

  /* a pixel-wide line carries the ink of a wider one */
  if (!wide)
    color.alpha = (float)MIN (1.0, color.alpha * MAX (style->line_width, 1.0f) * 0.8);
  premultiplied = sextant_timeline_premultiplied (&color);
  for (guint i = 0; i < placed->len; i++)
    {
      const Placed *p = &g_array_index (placed, Placed, i);

      if (p->as != AS_LINE || p->dashed)
        continue;
      if (wide)
        _sextant_layer_canvas_wide_line (canvas, p->x0, p->y0, p->x1, p->y1, style->line_width, premultiplied);
      else
        _sextant_layer_canvas_line (canvas, p->x0, p->y0, p->x1, p->y1, premultiplied);
      n++;
    }

  return n;
}

/* Those lines as a picture of their own over the geometry's area */
static guint
raster_lines_node (GtkSnapshot                   *snapshot,
                   const SextantTimelineGeometry *g,
                   GArray                        *placed,
                   const SextantFlowStyle        *style)
{
  SextantLayerCanvas canvas = { NULL, (int)g->plot_x, (int)g->top, (int)ceilf (g->plot_width),
                                (int)ceilf (g->bottom - g->top) };
  g_autoptr(GskRenderNode) node = NULL;
  guint n;

  if (canvas.width <= 0 || canvas.height <= 0)
    return 0;
  canvas.pixels = sextant_pixels_new (canvas.width, canvas.height);
  n = raster_lines (&canvas, placed, style);
  node = sextant_pixels_node_new (canvas.pixels, canvas.width, canvas.height,
                                  &GRAPHENE_RECT_INIT (canvas.x, canvas.top, canvas.width, canvas.height));
  gtk_snapshot_append_node (snapshot, node);

  return n;
}

/**
 * _sextant_timeline_draw_flows:
 * @canvas: (nullable): the layers' pixels, where what is drawn by hand
 *   goes (single lines, bundles without heads, the band)
 * @flows: (element-type SextantFlow): what to draw
 * @style: their colour and the width of a single line
 * @stats: (out) (optional): what was drawn
 *
 * Draws @flows as lines, bundles and a band (the file's top comment says
 * which where).
 */
void
_sextant_timeline_draw_flows (GtkSnapshot                   *snapshot,
                              SextantLayerCanvas            *canvas,
                              const SextantTimelineGeometry *g,
                              GArray                        *flows,
                              const SextantFlowStyle        *style,
                              SextantFlowStats              *stats)
{
  SextantLayerRows rows;
  g_autoptr(GArray) placed = g_array_sized_new (FALSE, FALSE, sizeof (Placed), flows->len);
  g_autoptr(GArray) bundles = g_array_new (FALSE, FALSE, sizeof (Bundle));
  KeyTable bundle_of;
  g_autofree float *weight = NULL;     /* per row, window and half: flows ending there */
  g_autofree float *ink = NULL;        /* per row, window and half: the pixels wide their lines are */
  g_autofree guint32 *columns = NULL;  /* per row and pixel column: the band's flows */
  int width = (int)ceilf (g->plot_width);
  int n_windows = (width + SEXTANT_FLOW_WINDOW - 1) / SEXTANT_FLOW_WINDOW + 2;
  gboolean any_band = FALSE, any_line = FALSE;
  guint solid = 0, lines = 0;
  guint32 premultiplied = sextant_timeline_premultiplied (&style->color);
  gboolean rastered;
  cairo_t *cr;

  if (stats != NULL)
    memset (stats, 0, sizeof *stats);
  if (flows == NULL || flows->len == 0 || width <= 0)
    return;
  _sextant_layer_rows_init (&rows, g);

  /* where each flow's ends fall */
  for (guint i = 0; i < flows->len; i++)
    {
      const SextantFlow *f = &g_array_index (flows, SextantFlow, i);
      Placed p = { 0 };
      float e0, e1;

      p.row0 = _sextant_layer_rows_lookup (&rows, f->loc0, &e0);
      p.row1 = _sextant_layer_rows_lookup (&rows, f->loc1, &e1);
      if ((p.row0 < 0 && p.row1 < 0) || (p.row0 < 0 && isnan (e0)) || (p.row1 < 0 && isnan (e1)))
        {
          if (stats != NULL)
            stats->skipped++;
          continue;
        }
      p.x0 = (float)sextant_timeline_geometry_x (g, f->t0);
      p.x1 = (float)sextant_timeline_geometry_x (g, f->t1);
      if (MAX (p.x0, p.x1) < g->plot_x || MIN (p.x0, p.x1) > g->plot_x + g->plot_width)
        continue;
      p.y0 = p.row0 >= 0 ? g_array_index (rows.rows, SextantLayerRow, p.row0).y +
                           g_array_index (rows.rows, SextantLayerRow, p.row0).height / 2
                         : e0;
      p.y1 = p.row1 >= 0 ? g_array_index (rows.rows, SextantLayerRow, p.row1).y +
                           g_array_index (rows.rows, SextantLayerRow, p.row1).height / 2
                         : e1;
      p.count = MAX (f->count, 1);
      p.head = f->head;
      p.dashed = f->dashed;
      g_array_append_val (placed, p);
    }
  if (placed->len == 0)
    {
      _sextant_layer_rows_clear (&rows);
      return;
    }
  shorten_leaving (placed);

  /* how many flows end in each window of each row, per half (as ink) */
  weight = g_new0 (float, (gsize)rows.rows->len * n_windows * 2);
  ink = g_new0 (float, (gsize)rows.rows->len * n_windows * 2);
  for (guint i = 0; i < placed->len; i++)
    {
      Placed *p = &g_array_index (placed, Placed, i);

      p->win0 = window_of (g, p->x0, n_windows);
      p->win1 = window_of (g, p->x1, n_windows);
      if (p->row0 >= 0)
        add_ink (weight, p->row0, p->win0, n_windows, p->y0, p->y1, (float)p->count);
      if (p->row1 >= 0)
        add_ink (weight, p->row1, p->win1, n_windows, p->y1, p->y0, (float)p->count);
    }

  /* alone: a line; else in its pair of rows' bundle of the sender's window */
  key_table_init (&bundle_of, placed->len);
  for (guint i = 0; i < placed->len; i++)
    {
      Placed *p = &g_array_index (placed, Placed, i);
      float dense = MAX (ink_at (weight, p->row0, p->win0, n_windows, width, p->y0, p->y1),
                         ink_at (weight, p->row1, p->win1, n_windows, width, p->y1, p->y0));

      if (p->count == 1 && dense <= SEXTANT_FLOW_LINES_PER_WINDOW)
        {
          p->as = AS_LINE;
          if (p->row0 >= 0)
            add_ink (ink, p->row0, p->win0, n_windows, p->y0, p->y1, style->line_width);
          if (p->row1 >= 0)
            add_ink (ink, p->row1, p->win1, n_windows, p->y1, p->y0, style->line_width);
        }
      else
        {
          /* the key: rows (+1: -1 is out of view, on either side), then
           * the windows of both ends (a long flow and a short one from one
           * window are two bundles) */
          gint64 key = ((gint64)(p->row0 + 1) << 44) | ((gint64)(p->row1 + 1) << 28) |
                       ((gint64)p->win0 << WINDOW_BITS) | p->win1;
          gboolean found;
          guint *slot;
          guint b;

          /* an out-of-view end on the other side is another pair (below
           * the end in view, or above) */
          if (p->row0 < 0 && p->y0 > p->y1)
            key |= (gint64)1 << 62;
          if (p->row1 < 0 && p->y1 > p->y0)
            key |= (gint64)1 << 61;
          slot = key_table_slot (&bundle_of, key, &found);
          if (found)
            b = *slot;
          else
            {
              Bundle nb = { 0 };

              nb.key = key;
              nb.y0 = p->y0;
              nb.y1 = p->y1;
              nb.row0 = p->row0;
              nb.row1 = p->row1;
              nb.win0 = p->win0;
              nb.win1 = p->win1;
              nb.head = p->head;
              g_array_append_val (bundles, nb);
              b = bundles->len - 1;
              *slot = b;
            }
          p->as = AS_BUNDLE;
          p->bundle = b;
          g_array_index (bundles, Bundle, b).count += p->count;
          g_array_index (bundles, Bundle, b).x0 += (double)p->x0 * p->count;
          g_array_index (bundles, Bundle, b).x1 += (double)p->x1 * p->count;
          if (g_array_index (bundles, Bundle, b).head != p->head)
            g_array_index (bundles, Bundle, b).head = SEXTANT_FLOW_HEAD_FILLED;
        }
    }
  /* the bundles' ink where they end */
  for (guint b = 0; b < bundles->len; b++)
    {
      Bundle *bundle = &g_array_index (bundles, Bundle, b);
      float w = bundle_width (bundle->count);
      int win1 = window_of (g, (float)(bundle->x1 / bundle->count), n_windows);

      bundle->win1 = win1;
      if (bundle->row0 >= 0)
        add_ink (ink, bundle->row0, bundle->win0, n_windows, bundle->y0, bundle->y1, w);
      if (bundle->row1 >= 0)
        add_ink (ink, bundle->row1, win1, n_windows, bundle->y1, bundle->y0, w);
    }

  /* bundles of one pair of rows in 3 or more consecutive windows: a
   * stream (a burst straddling two windows is not) */
  if (bundles->len > 2)
    {
      g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (gint64), bundles->len);

      for (guint b = 0; b < bundles->len; b++)
        {
          g_array_append_val (order, g_array_index (bundles, Bundle, b).key);
        }
      g_array_sort (order, compare_keys);
      /* sorted by rows, then sending window: a run of windows one after
       * the other (several bundles in one window when their receiving
       * windows differ) */
      for (guint i = 0; i < order->len; )
        {
          guint j = i + 1, windows = 1;

          for (; j < order->len; j++)
            {
              gint64 at = g_array_index (order, gint64, j) >> WINDOW_BITS;
              gint64 before = g_array_index (order, gint64, j - 1) >> WINDOW_BITS;

              if (at != before && at != before + 1)
                break;
              windows += at != before;
            }
          for (guint k = i; windows >= 3 && k < j; k++)
            {
              gboolean found;
              guint b = *key_table_slot (&bundle_of, g_array_index (order, gint64, k), &found);

              g_array_index (bundles, Bundle, b).stream = TRUE;
            }
          i = j;
        }
    }

  key_table_clear (&bundle_of);

  /* a window covered by more than its share of ink: its flows to the band */
  columns = g_new0 (guint32, (gsize)rows.rows->len * width);
  for (guint i = 0; i < placed->len; i++)
    {
      Placed *p = &g_array_index (placed, Placed, i);
      const float most = (float)(SEXTANT_FLOW_BAND_INK * SEXTANT_FLOW_WINDOW);
      gboolean band0 = ink_at (ink, p->row0, p->win0, n_windows, width, p->y0, p->y1) > most;
      gboolean band1 = ink_at (ink, p->row1, p->win1, n_windows, width, p->y1, p->y0) > most;
      /* covered at both ends, or at one and short: a long flow out of a
       * crowd (a late message, a slow operation) stays a line */
      gboolean band = (band0 && band1) || ((band0 || band1) && fabsf (p->x1 - p->x0) < SEXTANT_FLOW_WINDOW);

      /* a stream, not a burst: its bundles would hatch the rows */
      if (!band && p->as == AS_BUNDLE)
        band = g_array_index (bundles, Bundle, p->bundle).stream;

      if (!band)
        continue;
      if (p->as == AS_BUNDLE)
        g_array_index (bundles, Bundle, p->bundle).count -= p->count;
      p->as = AS_BAND;
      any_band = TRUE;
      /* on the sender's row where it leaves; on the receiver's when the
       * sender is out of view */
      if (p->row0 >= 0)
        {
          int x = (int)floorf (p->x0 - g->plot_x);

          if (x >= 0 && x < width)
            columns[(gsize)p->row0 * width + x] += (guint32)MIN (p->count, G_MAXUINT32 / 2);
        }
      else
        {
          int x = (int)floorf (p->x1 - g->plot_x);

          if (x >= 0 && x < width)
            columns[(gsize)p->row1 * width + x] += (guint32)MIN (p->count, G_MAXUINT32 / 2);
        }
    }
  if (any_band)
    draw_band (snapshot, canvas, g, &rows, columns, width, &style->color, stats);

  /* single solid lines drawn by hand: into @canvas, or when many into a
   * picture of their own (Cairo stroking 127 crossing lines as one path
   * costs 6 ms: its tessellator finds every crossing) */
  for (guint i = 0; i < placed->len; i++)
    solid += g_array_index (placed, Placed, i).as == AS_LINE && !g_array_index (placed, Placed, i).dashed;
  rastered = solid > 0 && (canvas != NULL || solid >= RASTER_FROM_LINES);
  if (rastered && canvas != NULL)
    lines = raster_lines (canvas, placed, style);
  else if (rastered)
    lines = raster_lines_node (snapshot, g, placed, style);

  /* bundles without heads painted by hand too, with their width */
  for (guint b = 0; b < bundles->len && canvas != NULL; b++)
    {
      Bundle *bundle = &g_array_index (bundles, Bundle, b);

      if (bundle->count <= 0 || bundle->head != SEXTANT_FLOW_HEAD_NONE)
        continue;
      _sextant_layer_canvas_wide_line (canvas, bundle->x0 / bundle->count, bundle->y0, bundle->x1 / bundle->count,
                                       bundle->y1, MAX (bundle_width (bundle->count), style->line_width),
                                       premultiplied);
      bundle->count = 0;   /* drawn */
      if (stats != NULL)
        stats->bundles++;
    }

  /* a Cairo node (a surface the size of the area) only for what is left:
   * bundles with heads, dashed lines, heads, single lines when few */
  for (guint b = 0; b < bundles->len && !any_line; b++)
    any_line = g_array_index (bundles, Bundle, b).count > 0;
  for (guint i = 0; i < placed->len && !any_line; i++)
    {
      const Placed *p = &g_array_index (placed, Placed, i);

      any_line = p->as == AS_LINE && (p->dashed || !rastered || p->head != SEXTANT_FLOW_HEAD_NONE);
    }
  if (stats != NULL)
    stats->lines += lines;
  if (!any_line)
    {
      _sextant_layer_rows_clear (&rows);
      return;
    }
  cr = _sextant_layer_cairo (snapshot, g);
  gdk_cairo_set_source_rgba (cr, &style->color);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);

  /* bundles, each with its width; the x of its ends: the mean of its flows' */
  for (guint b = 0; b < bundles->len; b++)
    {
      const Bundle *bundle = &g_array_index (bundles, Bundle, b);
      double x0, x1;
      float w;

      if (bundle->count <= 0)
        continue;
      x0 = bundle->x0 / bundle->count;
      x1 = bundle->x1 / bundle->count;
      w = MAX (bundle_width (bundle->count), style->line_width);
      cairo_set_line_width (cr, w);
      cairo_move_to (cr, x0, bundle->y0);
      cairo_line_to (cr, x1, bundle->y1);
      cairo_stroke (cr);
      arrow_head (cr, x0, bundle->y0, x1, bundle->y1, 2.5f + w, bundle->head);
      if (stats != NULL)
        stats->bundles++;
    }

  /* the single lines not drawn by hand, the dashed ones apart; then their
   * heads */
  cairo_set_line_width (cr, style->line_width);
  for (int dashed = 0; dashed < 2; dashed++)
    {
      gboolean any = FALSE;

      if (dashed)
        cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
      for (guint i = 0; i < placed->len; i++)
        {
          const Placed *p = &g_array_index (placed, Placed, i);

          if (p->as != AS_LINE || p->dashed != dashed || (rastered && !dashed))
            continue;
          cairo_move_to (cr, p->x0, p->y0);
          cairo_line_to (cr, p->x1, p->y1);
          any = TRUE;
          if (stats != NULL)
            stats->lines++;
        }
      if (any)
        cairo_stroke (cr);
    }
  cairo_set_dash (cr, NULL, 0, 0);
  for (guint i = 0; i < placed->len; i++)
    {
      const Placed *p = &g_array_index (placed, Placed, i);

      if (p->as == AS_LINE && p->head != SEXTANT_FLOW_HEAD_NONE)
        arrow_head (cr, p->x0, p->y0, p->x1, p->y1, 3.5f, p->head);
    }
  cairo_destroy (cr);
  _sextant_layer_rows_clear (&rows);
}
