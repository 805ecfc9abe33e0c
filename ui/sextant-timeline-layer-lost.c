/*
 * sextant-timeline-layer-lost.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The time lost by pattern instances, over the rows: per location and
 * pattern style the union of the instances' intervals (in pixels: those
 * less than a pixel apart join), so that overlapping instances (a late
 * sender inside a wait at N x N) do not darken each other. A wait state is
 * hatched: diagonal stripes in its family's dark colour on a light wash
 * (the stripes of all the intervals line up); other patterns are
 * outlined. Neither is red, so lost time stays apart from the MPI red
 * under it. Painted by hand into one picture over the rows it covers: as
 * a repeating-gradient node per interval Cairo took 10 ms to draw a
 * screen of wait states. O(instances + pixels); main thread, inside a
 * snapshot.
 */
#include "config.h"

#include <math.h>

#include "sextant-snapshot-util.h"
#include "sextant-timeline-layers-private.h"

/* The stripes: 45 degrees, 8 pixels apart along each axis (5.7
 * across), the dark part 35 % of them */
#define HATCH_PERIOD 8
#define HATCH_DARK 0.35

typedef struct
{
  GdkRGBA  color;
  gboolean hatched;
  /* the interval under way on the current location, in pixels */
  double   x0;
  double   x1;
  gboolean open;
} Style;

/* Widget pixels [@x0, @x1) x [@y0, @y1), clipped; @dark and @light the
 * hatch's two pixels (the same for a plain fill). The hatch's phase is
 * counted from the plot's corner, so the stripes of every interval line
 * up, and matches a repeating gradient from there to (4, 4) sampled at
 * the pixels' middles. */
static void
canvas_fill (SextantLayerCanvas            *canvas,
             const SextantTimelineGeometry *g,
             int                            x0,
             int                            x1,
             int                            y0,
             int                            y1,
             guint32                        dark,
             guint32                        light)
{
  int left = (int)floorf (g->plot_x), top = (int)floorf (g->top);

  G_STATIC_ASSERT ((HATCH_PERIOD & (HATCH_PERIOD - 1)) == 0);
  x0 = MAX (x0, canvas->x);
  x1 = MIN (x1, canvas->x + canvas->width);
  y0 = MAX (y0, canvas->top);
  y1 = MIN (y1, canvas->top + canvas->height);
  for (int y = y0; y < y1; y++)
    {
      guint32 *line = canvas->pixels + (gsize)(y - canvas->top) * canvas->width - canvas->x;
      guint32 pattern[HATCH_PERIOD];
      int phase = x0 - left + y - top + 1;

      /* the line's stripes from x0 on; most pixels under them are clear */
      for (int k = 0; k < HATCH_PERIOD; k++)
        pattern[k] = ((phase + k) % HATCH_PERIOD + HATCH_PERIOD) % HATCH_PERIOD < HATCH_DARK * HATCH_PERIOD ? dark
                                                                                                          : light;
      for (int x = x0, k = 0; x < x1; x++, k = (k + 1) & (HATCH_PERIOD - 1))
        line[x] = line[x] == 0 ? pattern[k] : _sextant_pixel_over (pattern[k], line[x]);
    }
}

static void
draw_interval (SextantLayerCanvas            *canvas,
               const SextantTimelineGeometry *g,
               const SextantLayerRow         *row,
               const Style                   *style)
{
  double x0 = MAX (style->x0, g->plot_x), x1 = MIN (style->x1, g->plot_x + g->plot_width);
  int y0 = (int)lroundf (row->y), y1 = (int)lroundf (row->y + row->height);
  int left, right;

  if (x1 < x0)
    return;
  if (style->hatched)
    {
      GdkRGBA dark = style->color, light = { 1, 1, 1, 0.55f };

      dark.alpha = 0.9f;
      left = (int)lround (x0);
      right = MAX ((int)lround (x1), left + 1);
      canvas_fill (canvas, g, left, right, y0, y1, sextant_timeline_premultiplied (&dark),
                   sextant_timeline_premultiplied (&light));
    }
  else if (x1 - x0 >= 4 && row->height >= 6)
    {
      guint32 pixel = sextant_timeline_premultiplied (&style->color);

      /* a frame two pixels wide inside the interval */
      left = (int)lround (x0);
      right = (int)lround (x1);
      canvas_fill (canvas, g, left, right, y0, y0 + 2, pixel, pixel);
      canvas_fill (canvas, g, left, right, y1 - 2, y1, pixel, pixel);
      canvas_fill (canvas, g, left, left + 2, y0 + 2, y1 - 2, pixel, pixel);
      canvas_fill (canvas, g, right - 2, right, y0 + 2, y1 - 2, pixel, pixel);
    }
  else
    {
      GdkRGBA c = style->color;
      guint32 pixel;

      c.alpha = 0.8f;
      pixel = sextant_timeline_premultiplied (&c);
      /* at least 2 pixels, centred on the instance */
      if (x1 - x0 < 2)
        {
          double middle = (x0 + x1) / 2;

          x0 = middle - 1;
          x1 = middle + 1;
        }
      canvas_fill (canvas, g, (int)lround (x0), (int)lround (x1), y0, y1, pixel, pixel);
    }
}

/* The style of pattern @number: its index in @styles, found or added */
static guint
style_of (GArray     *styles,
          GHashTable *cache,
          GHashTable *patterns,
          guint       number)
{
  gpointer value;
  const char *name = NULL;
  Style style = { 0 };
  guint i;

  if (g_hash_table_lookup_extended (cache, GUINT_TO_POINTER (number), NULL, &value))
    return GPOINTER_TO_UINT (value);
  if (patterns != NULL)
    name = g_hash_table_lookup (patterns, GUINT_TO_POINTER (number));
  sextant_timeline_lost_style (name, &style.color, &style.hatched);
  for (i = 0; i < styles->len; i++)
    if (g_array_index (styles, Style, i).hatched == style.hatched &&
        gdk_rgba_equal (&g_array_index (styles, Style, i).color, &style.color))
      break;
  if (i == styles->len)
    g_array_append_val (styles, style);
  g_hash_table_insert (cache, GUINT_TO_POINTER (number), GUINT_TO_POINTER (i));

  return i;
}

/* The lines of @canvas (widget coordinates) the instances of @lost in
 * view cover */
static void
covered_lines (SextantLayerRows              *rows,
               const SextantTimelineGeometry *g,
               GArray                        *lost,
               float                         *top,
               float                         *bottom)
{
  *top = G_MAXFLOAT;
  *bottom = -G_MAXFLOAT;
  for (guint i = 0; i < lost->len; i++)
    {
      const SextantViewLost *l = &g_array_index (lost, SextantViewLost, i);
      const SextantLayerRow *row;
      int r;

      if (l->end <= g->t0 || l->begin >= g->t1 || (r = _sextant_layer_rows_lookup (rows, l->loc, NULL)) < 0)
        continue;
      row = &g_array_index (rows->rows, SextantLayerRow, r);
      *top = MIN (*top, row->y);
      *bottom = MAX (*bottom, row->y + row->height);
    }
}

static void
paint_lost (SextantLayerCanvas            *canvas,
            SextantLayerRows              *rows,
            const SextantTimelineGeometry *g,
            GArray                        *lost,
            GHashTable                    *patterns)
{
  g_autoptr(GArray) styles = g_array_new (FALSE, FALSE, sizeof (Style));
  g_autoptr(GHashTable) cache = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint i = 0; i < lost->len; )
    {
      gint64 loc = g_array_index (lost, SextantViewLost, i).loc;
      int r = _sextant_layer_rows_lookup (rows, loc, NULL);
      const SextantLayerRow *row = r >= 0 ? &g_array_index (rows->rows, SextantLayerRow, r) : NULL;

      for (; i < lost->len && g_array_index (lost, SextantViewLost, i).loc == loc; i++)
        {
          const SextantViewLost *l = &g_array_index (lost, SextantViewLost, i);
          Style *style;
          double x0, x1;
          guint s;

          if (row == NULL || l->end <= g->t0 || l->begin >= g->t1)
            continue;
          /* found (or added) first: adding moves the array */
          s = style_of (styles, cache, patterns, l->pattern);
          style = &g_array_index (styles, Style, s);
          x0 = sextant_timeline_geometry_x (g, l->begin);
          x1 = sextant_timeline_geometry_x (g, l->end);
          if (style->open && x0 <= style->x1 + 1)
            {
              style->x1 = MAX (style->x1, x1);
              continue;
            }
          if (style->open)
            draw_interval (canvas, g, row, style);
          style->x0 = x0;
          style->x1 = x1;
          style->open = TRUE;
        }
      for (guint s = 0; s < styles->len; s++)
        {
          Style *style = &g_array_index (styles, Style, s);

          if (style->open && row != NULL)
            draw_interval (canvas, g, row, style);
          style->open = FALSE;
        }
    }
}

/**
 * sextant_timeline_layer_lost:
 * @snapshot: where to draw
 * @geometry: the view and its rows
 * @lost: (element-type SextantViewLost) (nullable): the frame's lost time,
 *   sorted by location, then begin
 * @patterns: (nullable) (element-type guint utf8): pattern number
 *   (GUINT_TO_POINTER) -> the pattern's id ("late_sender"); %NULL: every
 *   instance in the style of an unknown pattern (hatched)
 *
 * Draws the lost time in its patterns' styles: one picture over the rows
 * it covers.
 */
void
sextant_timeline_layer_lost (GtkSnapshot                   *snapshot,
                             const SextantTimelineGeometry *geometry,
                             GArray                        *lost,
                             GHashTable                    *patterns)
{
  const SextantTimelineGeometry *g = geometry;
  SextantLayerRows rows;
  g_autoptr(GskRenderNode) node = NULL;
  float top, bottom;
  SextantLayerCanvas canvas;

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (geometry != NULL && geometry->t1 > geometry->t0);

  if (lost == NULL || lost->len == 0)
    return;
  _sextant_layer_rows_init (&rows, g);
  covered_lines (&rows, g, lost, &top, &bottom);
  canvas.x = (int)floorf (g->plot_x);
  canvas.width = (int)ceilf (g->plot_x + g->plot_width) - canvas.x;
  canvas.top = (int)floorf (MAX (top, g->top));
  canvas.height = (int)ceilf (MIN (bottom, g->bottom)) - canvas.top;
  if (canvas.width > 0 && canvas.height > 0)
    {
      canvas.pixels = sextant_pixels_new (canvas.width, canvas.height);
      paint_lost (&canvas, &rows, g, lost, patterns);
      node = sextant_pixels_node_new (canvas.pixels, canvas.width, canvas.height,
                                      &GRAPHENE_RECT_INIT (canvas.x, canvas.top, canvas.width, canvas.height));
      gtk_snapshot_append_node (snapshot, node);
    }
  _sextant_layer_rows_clear (&rows);
}

/**
 * sextant_timeline_layer_lost_paint:
 * @canvas: the layers' pixels
 *
 * sextant_timeline_layer_lost() painted into @canvas, under what is drawn
 * over it later: no picture of its own to make and draw.
 */
void
sextant_timeline_layer_lost_paint (SextantLayerCanvas            *canvas,
                                   const SextantTimelineGeometry *geometry,
                                   GArray                        *lost,
                                   GHashTable                    *patterns)
{
  SextantLayerRows rows;

  g_return_if_fail (canvas != NULL && canvas->pixels != NULL);
  g_return_if_fail (geometry != NULL && geometry->t1 > geometry->t0);

  if (lost == NULL || lost->len == 0)
    return;
  _sextant_layer_rows_init (&rows, geometry);
  paint_lost (canvas, &rows, geometry, lost, patterns);
  _sextant_layer_rows_clear (&rows);
}
