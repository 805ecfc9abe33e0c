/*
 * sextant-timeline-canvas.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the layers paint by hand into their pixels (SextantLayerCanvas:
 * premultiplied ARGB32, source-over): rectangles whose edge pixels get
 * the share they cover, Wu's anti-aliased lines a pixel wide in fixed
 * point, and wider lines as a span of the minor axis per step. Cairo
 * stroking thousands of crossing lines cost a frame tens of ms (its
 * tessellator finds every crossing), and every Cairo node GTK 4.8 draws
 * costs a copy of its area: these cost what their pixels do. Any thread;
 * each call writes only the pixels under what it paints.
 */
#include "config.h"

#include <math.h>

#include "sextant-timeline-layers-private.h"

void
_sextant_layer_canvas_rect (SextantLayerCanvas *canvas,
                            double              x0,
                            double              y0,
                            double              x1,
                            double              y1,
                            guint32             pixel)
{
  int left = MAX ((int)floor (x0), canvas->x), right = MIN ((int)ceil (x1), canvas->x + canvas->width);
  int top = MAX ((int)floor (y0), canvas->top), bottom = MIN ((int)ceil (y1), canvas->top + canvas->height);

  for (int y = top; y < bottom; y++)
    {
      guint32 *line = canvas->pixels + (gsize)(y - canvas->top) * canvas->width - canvas->x;
      double cover_y = MIN (y1, y + 1.0) - MAX (y0, (double)y);

      for (int x = left; x < right; x++)
        {
          double cover = cover_y * (MIN (x1, x + 1.0) - MAX (x0, (double)x));
          guint32 src = cover >= 1 ? pixel : _sextant_pixel_scale (pixel, (guint)(cover * 256 + 0.5));

          line[x] = _sextant_pixel_over (src, line[x]);
        }
    }
}

/* A line's ends in @canvas's pixels, the ends and the axes swapped so
 * that x is its major axis and x0 <= x1, and its @gradient along it;
 * returns whether the axes were swapped (a steep line) */
static gboolean
line_along_x (const SextantLayerCanvas *canvas,
              double                   *x0,
              double                   *y0,
              double                   *x1,
              double                   *y1,
              double                   *gradient)
{
  gboolean steep;
  double t;

  *x0 -= canvas->x;
  *x1 -= canvas->x;
  *y0 -= canvas->top;
  *y1 -= canvas->top;
  steep = fabs (*y1 - *y0) > fabs (*x1 - *x0);
  if (steep)
    {
      t = *x0; *x0 = *y0; *y0 = t;
      t = *x1; *x1 = *y1; *y1 = t;
    }
  if (*x0 > *x1)
    {
      t = *x0; *x0 = *x1; *x1 = t;
      t = *y0; *y0 = *y1; *y1 = t;
    }
  *gradient = *x1 - *x0 > 1e-9 ? (*y1 - *y0) / (*x1 - *x0) : 0;

  return steep;
}

void
_sextant_layer_canvas_line (SextantLayerCanvas *canvas,
                            double              x0,
                            double              y0,
                            double              x1,
                            double              y1,
                            guint32             color)
{
  guint32 *pixels = canvas->pixels;
  int width = canvas->width, height = canvas->height;
  gboolean steep;
  double gradient;
  int major0, major1, limit;

  steep = line_along_x (canvas, &x0, &y0, &x1, &y1, &gradient);
  limit = steep ? height : width;
  /* the major axis clipped to the image */
  major0 = MAX ((int)floor (x0), 0);
  major1 = MIN ((int)ceil (x1), limit - 1);
  /* the minor axis in 1/65536 pixels, stepped; a pixel's two shares of
   * the line in 1/256: 256 - f above, f below */
  {
    gint64 minor = (gint64)llround ((y0 + gradient * (major0 + 0.5 - x0) - 0.5) * 65536);
    gint64 step = (gint64)llround (gradient * 65536);
    int minor_limit = steep ? width : height;
    gsize major_stride = steep ? (gsize)width : 1, minor_stride = steep ? 1 : (gsize)width;

    for (int m = major0; m <= major1; m++, minor += step)
      {
        int n = (int)(minor >> 16);   /* floor: an arithmetic shift */
        guint f = (guint)(minor >> 8 & 255);
        gsize at = (gsize)m * major_stride;

        if (n >= 0 && n < minor_limit)
          pixels[at + (gsize)n * minor_stride] =
            _sextant_pixel_over (_sextant_pixel_scale (color, 256 - f), pixels[at + (gsize)n * minor_stride]);
        if (f > 0 && n + 1 >= 0 && n + 1 < minor_limit)
          pixels[at + (gsize)(n + 1) * minor_stride] =
            _sextant_pixel_over (_sextant_pixel_scale (color, f), pixels[at + (gsize)(n + 1) * minor_stride]);
      }
  }
}

void
_sextant_layer_canvas_wide_line (SextantLayerCanvas *canvas,
                  double              x0,
                  double              y0,
                  double              x1,
                  double              y1,
                  double              thickness,
                  guint32             color)
{
  gboolean steep;
  double gradient, extent;
  int major0, major1, limit, minor_limit;
  gsize major_stride, minor_stride;

  steep = line_along_x (canvas, &x0, &y0, &x1, &y1, &gradient);
  extent = thickness * sqrt (1 + gradient * gradient);
  limit = steep ? canvas->height : canvas->width;
  minor_limit = steep ? canvas->width : canvas->height;
  major_stride = steep ? (gsize)canvas->width : 1;
  minor_stride = steep ? 1 : (gsize)canvas->width;
  major0 = MAX ((int)floor (x0), 0);
  major1 = MIN ((int)ceil (x1), limit - 1);
  for (int m = major0; m <= major1; m++)
    {
      double centre = y0 + gradient * (m + 0.5 - x0);
      double lo = centre - extent / 2, hi = centre + extent / 2;
      int n0 = MAX ((int)floor (lo), 0), n1 = MIN ((int)ceil (hi), minor_limit);

      for (int n = n0; n < n1; n++)
        {
          guint cover = (guint)((MIN (hi, n + 1.0) - MAX (lo, (double)n)) * 256 + 0.5);
          guint32 *pixel = canvas->pixels + (gsize)m * major_stride + (gsize)n * minor_stride;

          *pixel = _sextant_pixel_over (cover >= 256 ? color : _sextant_pixel_scale (color, cover), *pixel);
        }
    }
}
