/*
 * sextant-timeline-counter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The counter layer of the timeline (sextant-timeline-layers.h): a
 * metric's values in one row, as the points of sextant_store_read_counter()
 * give them (at most one per pixel column). Each column's range from its
 * smallest to its largest value is shaded, the last values are joined by a
 * step line (a value holds until the next one), and the row says the
 * largest value in view with its unit, at its top right on a white veil. Colour rectangles only: O(points),
 * at most two rectangles and a shade per pixel column.
 */
#include "config.h"

#include <math.h>

#include "sextant-store-rows.h"
#include "sextant-timeline-layers.h"

/* The plot's line and its shade: a blue apart from the categories' hues */
static const GdkRGBA counter_line = { 0.10f, 0.37f, 0.71f, 1.0f };
static const GdkRGBA counter_shade = { 0.10f, 0.37f, 0.71f, 0.30f };
static const GdkRGBA counter_text = { 0.13f, 0.13f, 0.13f, 1.0f };
static const GdkRGBA label_veil = { 1.0f, 1.0f, 1.0f, 0.75f };

/* pixels between the row's edges and the plot */
#define PAD 2.0f
#define LINE 1.5f

/* "max " and @value with an SI prefix and @unit, 3 significant digits:
 * "max 1.3 Gbytes", "max 688 M", "max 49" ("" and "#", a count, are no
 * units to write) */
static char *
format_max (double      value,
            const char *unit)
{
  static const char prefixes[] = "kMGTPE";
  int p = -1;

  if (unit == NULL || g_strcmp0 (unit, "#") == 0)
    unit = "";
  while (fabs (value) >= 1000.0 && p + 1 < (int)sizeof prefixes - 1)
    {
      value /= 1000.0;
      p++;
    }
  if (p < 0)
    return *unit != '\0' ? g_strdup_printf ("max %.4g %s", value, unit) : g_strdup_printf ("max %.4g", value);
  return g_strdup_printf ("max %.3g %c%s", value, prefixes[p], unit);
}

/**
 * sextant_timeline_layer_counter:
 * @snapshot: where to draw
 * @geometry: the view (only its times and plot's x extent and its clip)
 * @layout: (nullable): a layout of the widget's font for the label; %NULL:
 *   no label
 * @y: the row's top
 * @height: the row's height
 * @points: (element-type SextantCounterPoint) (nullable): the metric's
 *   points in view, in time order; %NULL or empty: nothing is drawn
 * @unit: (nullable): the metric's unit; "" and "#" (a count) are not
 *   written
 *
 * Draws a counter row's plot: scaled from the smallest value in view (at
 * the row's bottom) to the largest (at its top); a metric that stayed
 * constant is a line across the middle.
 */
void
sextant_timeline_layer_counter (GtkSnapshot                   *snapshot,
                                const SextantTimelineGeometry *geometry,
                                PangoLayout                   *layout,
                                float                          y,
                                float                          height,
                                GArray                        *points,
                                const char                    *unit)
{
  float top = MAX (y, geometry->top);
  float bottom = MIN (y + height, geometry->bottom);
  float plot_top = y + PAD;
  float plot_height = height - 2 * PAD;
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
  float prev_x = 0, prev_y = 0;

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (geometry != NULL);

  if (points == NULL || points->len == 0 || bottom <= top || plot_height <= 0)
    return;

  for (guint i = 0; i < points->len; i++)
    {
      const SextantCounterPoint *p = &g_array_index (points, SextantCounterPoint, i);

      lo = MIN (lo, p->min);
      hi = MAX (hi, p->max);
    }

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (geometry->plot_x, top, geometry->plot_width, bottom - top));

#define VALUE_Y(v) (hi > lo ? plot_top + (float)((hi - (v)) / (hi - lo)) * plot_height \
                            : plot_top + plot_height / 2)

  for (guint i = 0; i < points->len; i++)
    {
      const SextantCounterPoint *p = &g_array_index (points, SextantCounterPoint, i);
      float x = floorf ((float)sextant_timeline_geometry_x (geometry, p->time));
      float y_max = VALUE_Y (p->max);
      float y_min = VALUE_Y (p->min);
      float y_last = VALUE_Y (p->last);

      /* the column's spread */
      if (p->max > p->min)
        gtk_snapshot_append_color (snapshot, &counter_shade,
                                   &GRAPHENE_RECT_INIT (x, y_max, 1, MAX (y_min - y_max, 1)));

      /* the step from the previous value: along at its level, then up or
       * down to this one */
      if (i > 0)
        {
          gtk_snapshot_append_color (snapshot, &counter_line,
                                     &GRAPHENE_RECT_INIT (prev_x, prev_y - LINE / 2, MAX (x - prev_x, 1), LINE));
          gtk_snapshot_append_color (snapshot, &counter_line,
                                     &GRAPHENE_RECT_INIT (x - LINE / 2, MIN (prev_y, y_last) - LINE / 2, LINE,
                                                          fabsf (y_last - prev_y) + LINE));
        }
      prev_x = x;
      prev_y = y_last;
    }
  /* the last value, a pixel wide */
  gtk_snapshot_append_color (snapshot, &counter_line, &GRAPHENE_RECT_INIT (prev_x, prev_y - LINE / 2, 1, LINE));

#undef VALUE_Y

  if (layout != NULL)
    {
      g_autofree char *text = format_max (hi, unit);
      int text_width, text_height;

      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      if (text_height <= height)
        {
          /* on a veil, so that the plot under it does not cross the text */
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (geometry->plot_x + geometry->plot_width - text_width - 4, y));
          gtk_snapshot_append_color (snapshot, &label_veil, &GRAPHENE_RECT_INIT (-2, 0, text_width + 4, text_height));
          gtk_snapshot_append_layout (snapshot, layout, &counter_text);
          gtk_snapshot_restore (snapshot);
        }
    }

  gtk_snapshot_pop (snapshot);
}
