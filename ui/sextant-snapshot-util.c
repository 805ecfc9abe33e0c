/*
 * sextant-snapshot-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-snapshot-util.h"

/* @text with its top left corner at (@x, @y), in @layout's font */
void
sextant_snapshot_text (GtkSnapshot   *snapshot,
                       PangoLayout   *layout,
                       const char    *text,
                       double         x,
                       double         y,
                       const GdkRGBA *color)
{
  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)x, (float)y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/* A border of @width pixels inside @rect */
void
sextant_snapshot_frame (GtkSnapshot           *snapshot,
                        const graphene_rect_t *rect,
                        float                  width,
                        const GdkRGBA         *color)
{
  GskRoundedRect frame;

  gsk_rounded_rect_init_from_rect (&frame, rect, 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { width, width, width, width },
                              (GdkRGBA[4]) { *color, *color, *color, *color });
}

/* @text centred in @widget, wrapped @margin pixels from its sides: what an
 * empty view says (nothing chosen, being read, an error) */
void
sextant_snapshot_message (GtkWidget     *widget,
                          GtkSnapshot   *snapshot,
                          const char    *text,
                          float          margin,
                          const GdkRGBA *color)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int h;

  pango_layout_set_width (layout, MAX (gtk_widget_get_width (widget) - 2 * (int)margin, 50) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_get_pixel_size (layout, NULL, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (margin, MAX ((gtk_widget_get_height (widget) - h) / 2.0f, margin)));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/**
 * sextant_scale_color:
 * @stops: the scale's colours (red, green, blue), evenly spaced from 0 to 1
 * @n_stops: at least 2
 * @fraction: where on the scale, clamped to 0..1
 * @color: (out): the colour there, between its two stops, opaque
 */
void
sextant_scale_color (const float (*stops)[3],
                     guint         n_stops,
                     double        fraction,
                     GdkRGBA      *color)
{
  double f = CLAMP (fraction, 0, 1) * (n_stops - 1);
  guint s = MIN ((guint)f, n_stops - 2);
  float u = (float)(f - s);

  color->red = stops[s][0] + u * (stops[s + 1][0] - stops[s][0]);
  color->green = stops[s][1] + u * (stops[s + 1][1] - stops[s][1]);
  color->blue = stops[s][2] + u * (stops[s + 1][2] - stops[s][2]);
  color->alpha = 1;
}
