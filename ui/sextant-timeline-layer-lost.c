/*
 * sextant-timeline-layer-lost.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The time lost by pattern instances, over the rows: per location and
 * pattern style the union of the instances' intervals (in pixels: those
 * less than a pixel apart join), so that overlapping instances (a late
 * sender inside a wait at N x N) do not darken each other. A wait state is
 * hatched: diagonal stripes in its family's dark colour on a light wash,
 * one repeating-gradient node per interval (the stripes of all the
 * intervals line up); other patterns are outlined. Neither is red, so
 * lost time stays apart from the MPI red under it.
 * O(instances + pixels); main thread, inside a snapshot.
 */
#include "config.h"

#include <math.h>

#include "sextant-snapshot-util.h"
#include "sextant-timeline-layers-private.h"

/* The stripes: 45 degrees, a period of 4 pixels along each axis (5.7
 * across), the dark part 35 % of it */
#define HATCH_PERIOD 4.0f
#define HATCH_DARK 0.35f

typedef struct
{
  GdkRGBA  color;
  gboolean hatched;
  /* the interval under way on the current location, in pixels */
  double   x0;
  double   x1;
  gboolean open;
} Style;

static void
draw_interval (GtkSnapshot                   *snapshot,
               const SextantTimelineGeometry *g,
               const SextantLayerRow         *row,
               const Style                   *style)
{
  double x0 = MAX (style->x0, g->plot_x), x1 = MIN (style->x1, g->plot_x + g->plot_width);
  graphene_rect_t rect;

  if (x1 < x0)
    return;
  if (style->hatched)
    {
      GdkRGBA dark = style->color, light = { 1, 1, 1, 0.55f };
      GskColorStop stops[4] = {
        { 0, dark }, { HATCH_DARK, dark }, { HATCH_DARK, light }, { 1, light },
      };

      if (x1 - x0 < 1)
        x1 = x0 + 1;
      dark.alpha = 0.9f;
      stops[0].color = stops[1].color = dark;
      rect = GRAPHENE_RECT_INIT ((float)x0, row->y, (float)(x1 - x0), row->height);
      /* anchored at the plot's origin, so that the stripes of every
       * interval line up */
      gtk_snapshot_append_repeating_linear_gradient (snapshot, &rect, &GRAPHENE_POINT_INIT (g->plot_x, g->top),
                                                     &GRAPHENE_POINT_INIT (g->plot_x + HATCH_PERIOD,
                                                                           g->top + HATCH_PERIOD),
                                                     stops, G_N_ELEMENTS (stops));
    }
  else if (x1 - x0 >= 4 && row->height >= 6)
    {
      rect = GRAPHENE_RECT_INIT ((float)x0, row->y, (float)(x1 - x0), row->height);
      sextant_snapshot_frame (snapshot, &rect, 2, &style->color);
    }
  else
    {
      GdkRGBA c = style->color;

      c.alpha = 0.8f;
      /* at least 2 pixels, centred on the instance */
      if (x1 - x0 < 2)
        {
          double middle = (x0 + x1) / 2;

          x0 = middle - 1;
          x1 = middle + 1;
        }
      gtk_snapshot_append_color (snapshot, &c, &GRAPHENE_RECT_INIT ((float)x0, row->y, (float)(x1 - x0), row->height));
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
 * Draws the lost time in its patterns' styles.
 */
void
sextant_timeline_layer_lost (GtkSnapshot                   *snapshot,
                             const SextantTimelineGeometry *geometry,
                             GArray                        *lost,
                             GHashTable                    *patterns)
{
  const SextantTimelineGeometry *g = geometry;
  SextantLayerRows rows;
  g_autoptr(GArray) styles = g_array_new (FALSE, FALSE, sizeof (Style));
  g_autoptr(GHashTable) cache = g_hash_table_new (g_direct_hash, g_direct_equal);

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (geometry != NULL && geometry->t1 > geometry->t0);

  if (lost == NULL || lost->len == 0)
    return;
  _sextant_layer_rows_init (&rows, g);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (g->plot_x, g->top, g->plot_width, g->bottom - g->top));
  for (guint i = 0; i < lost->len; )
    {
      gint64 loc = g_array_index (lost, SextantViewLost, i).loc;
      int r = _sextant_layer_rows_lookup (&rows, loc, NULL);
      const SextantLayerRow *row = r >= 0 ? &g_array_index (rows.rows, SextantLayerRow, r) : NULL;

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
            draw_interval (snapshot, g, row, style);
          style->x0 = x0;
          style->x1 = x1;
          style->open = TRUE;
        }
      for (guint s = 0; s < styles->len; s++)
        {
          Style *style = &g_array_index (styles, Style, s);

          if (style->open && row != NULL)
            draw_interval (snapshot, g, row, style);
          style->open = FALSE;
        }
    }
  gtk_snapshot_pop (snapshot);
  _sextant_layer_rows_clear (&rows);
}
