/*
 * sextant-ruler.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A ruler is a few dozen colour nodes and labels: drawn anew each frame.
 */
#include "config.h"

#include <math.h>

#include "sextant-ruler.h"

/**
 * sextant_ruler_step:
 * @seconds: the time the ruler spans
 * @width: its pixels
 *
 * Returns: a tick step of 1, 2 or 5 times a power of ten seconds that puts
 * about one label every 100 pixels
 */
double
sextant_ruler_step (double seconds,
                    double width)
{
  double raw = seconds / MAX (width / 100.0, 1.0);
  double power = pow (10.0, floor (log10 (raw)));

  if (raw <= power)
    return power;
  if (raw <= 2 * power)
    return 2 * power;
  if (raw <= 5 * power)
    return 5 * power;
  return 10 * power;
}

/**
 * sextant_ruler_format:
 * @seconds: the time to write
 * @step: the ruler's step: as many decimals as it needs
 * @magnitude: the largest time on the ruler: its unit is the label's
 *
 * Returns: (transfer full): "100.5 ms", "2 s"
 */
char *
sextant_ruler_format (double seconds,
                      double step,
                      double magnitude)
{
  static const struct { double unit; const char *name; } units[] = {
    { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" },
  };
  guint u = 0;
  int decimals;

  while (u + 1 < G_N_ELEMENTS (units) && magnitude < units[u].unit)
    u++;
  decimals = (int)CLAMP (ceil (-log10 (step / units[u].unit) - 1e-9), 0, 9);

  return g_strdup_printf ("%.*f %s", decimals, seconds / units[u].unit, units[u].name);
}

/**
 * sextant_ruler_snapshot:
 * @layout: a layout of the widget's, for the labels
 * @fg: the text colour
 * @x: where the plot begins (time @s0)
 * @width: the plot's width (time @s1 at its end)
 * @ruler_height: the ruler's height, from the top
 * @grid_height: how far down the plot the grid lines go, under the ruler
 * @s0: seconds since the run's start at @x
 * @s1: seconds at @x + @width
 *
 * Draws the ticks and labels of [@s0, @s1] and the grid under them. A
 * label that would run past the plot's end is left out.
 */
void
sextant_ruler_snapshot (GtkSnapshot   *snapshot,
                        PangoLayout   *layout,
                        const GdkRGBA *fg,
                        float          x,
                        float          width,
                        float          ruler_height,
                        float          grid_height,
                        double         s0,
                        double         s1)
{
  double step = sextant_ruler_step (s1 - s0, width);
  GdkRGBA grid = *fg;

  if (!(s1 > s0) || width <= 0)
    return;

  grid.alpha = 0.15;
  for (double s = ceil (s0 / step) * step; s <= s1; s += step)
    {
      float at = x + (float)((s - s0) / (s1 - s0) * width);
      g_autofree char *text = sextant_ruler_format (fabs (s) < step * 1e-6 ? 0 : s, step, MAX (fabs (s0), fabs (s1)));
      int text_width;

      gtk_snapshot_append_color (snapshot, fg, &GRAPHENE_RECT_INIT (at, ruler_height - 6, 1, 6));
      gtk_snapshot_append_color (snapshot, &grid, &GRAPHENE_RECT_INIT (at, ruler_height, 1, grid_height));
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &text_width, NULL);
      if (at + 3 + text_width > x + width)
        continue;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (at + 3, 2));
      gtk_snapshot_append_layout (snapshot, layout, fg);
      gtk_snapshot_restore (snapshot);
    }
  gtk_snapshot_append_color (snapshot, &grid, &GRAPHENE_RECT_INIT (x, ruler_height - 1, width, 1));
}
