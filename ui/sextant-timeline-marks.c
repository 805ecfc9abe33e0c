/*
 * sextant-timeline-marks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline draws over its rows and layers that is not the data:
 * the label column (expanders and names, or in the whole-machine mode a
 * name every 40 pixels), the chosen instance's outline, the session's
 * selection, the range being chosen and the pair filter's badge.
 * sextant-timeline-draw.c calls these in that order.
 */
#include "config.h"

#include <math.h>

#include "sextant-timeline-private.h"

/* The selection's and the pair filter's colour */
static const GdkRGBA selection_color = { 0.11f, 0.44f, 0.85f, 1 };

/* Labels ----------------------------------------------------------------------- */

/* A triangle pointing right (collapsed) or down (expanded) */
static void
append_expander (GtkSnapshot   *snapshot,
                 float          x,
                 float          y,
                 gboolean       expanded,
                 const GdkRGBA *fg)
{
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x - 1, y - 6, 10, 12));

  gdk_cairo_set_source_rgba (cr, fg);
  if (expanded)
    {
      cairo_move_to (cr, x, y - 2);
      cairo_line_to (cr, x + 8, y - 2);
      cairo_line_to (cr, x + 4, y + 3);
    }
  else
    {
      cairo_move_to (cr, x + 2, y - 4);
      cairo_line_to (cr, x + 7, y);
      cairo_line_to (cr, x + 2, y + 4);
    }
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_destroy (cr);
}

void
_sextant_timeline_snapshot_labels (SextantTimeline *self,
                 GtkSnapshot     *snapshot,
                 PangoLayout     *layout,
                 const GdkRGBA   *fg,
                 int              height)
{
  guint first, last;
  int text_height;

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_text (layout, "X", -1);
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  if (self->machine)
    {
      /* a label every 40 pixels or so: the location at that height */
      GArray *all = sextant_timeline_rows_get_all_locations (self->rows);
      double area = height - RULER_HEIGHT - ROW_GAP;
      guint step = (guint)MAX (ceil (all->len * 40.0 / MAX (area, 1)), 1);

      pango_layout_set_width (layout, (self->label_width - 12) * PANGO_SCALE);
      for (guint i = 0; i < all->len; i += step)
        {
          gint64 loc = g_array_index (all, gint64, i);
          int row = sextant_timeline_rows_row_of_loc (self->rows, loc);
          const SextantTimelineRow *r = row >= 0 ? sextant_timeline_rows_get_row (self->rows, (guint)row) : NULL;
          float y = (float)(RULER_HEIGHT + ROW_GAP + i * area / all->len);

          if (r == NULL)
            continue;
          /* the row's own name ("MPI Rank 112"), under a tick at its band */
          pango_layout_set_text (layout, r->label, -1);
          gtk_snapshot_append_color (snapshot, fg, &GRAPHENE_RECT_INIT (self->label_width - 5, y, 4, 1));
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (LABEL_PAD, y));
          gtk_snapshot_append_layout (snapshot, layout, fg);
          gtk_snapshot_restore (snapshot);
        }
      return;
    }

  _sextant_timeline_visible_rows (self, &first, &last);
  for (guint i = first; i < last; i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);
      float y = (float)_sextant_timeline_row_top (self, i);
      float x = LABEL_PAD + row->depth * INDENT;

      if (row->expandable)
        append_expander (snapshot, x, y + (float)self->row_height / 2, row->expanded, fg);
      x += INDENT;
      pango_layout_set_width (layout, (int)MAX (self->label_width - x - 6, 10) * PANGO_SCALE);
      pango_layout_set_text (layout, row->label, -1);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y + ((float)self->row_height - text_height) / 2));
      gtk_snapshot_append_layout (snapshot, layout, fg);
      gtk_snapshot_restore (snapshot);
    }
}

/* Marks ------------------------------------------------------------------------ */

static const GdkRGBA mark_halo = { 1.0, 0.85, 0.0, 1 };

/* An outline around @loc's row from @t0 to @t1 (at least 3 pixels
 * wide, so that a short instance shows): a dark frame with a yellow halo
 * outside it, so that it stands out on any colour; what is drawn inside
 * stays as it is */
void
_sextant_timeline_snapshot_mark (SextantTimeline               *self,
               GtkSnapshot                   *snapshot,
               const SextantTimelineGeometry *geometry,
               gint64                         loc,
               gint64                         t0,
               gint64                         t1,
               float                          alpha)
{
  GdkRGBA halo = mark_halo;
  GdkRGBA border = { 0, 0, 0, alpha };
  GskRoundedRect frame;
  float x0, x1, y, h;

  if (loc == SEXTANT_NULL || !geometry->row_of (geometry->row_data, loc, &y, &h))
    return;

  x0 = (float)CLAMP (sextant_timeline_geometry_x (geometry, t0), self->label_width - 2,
                     geometry->plot_x + geometry->plot_width + 2);
  x1 = (float)CLAMP (sextant_timeline_geometry_x (geometry, t1), self->label_width - 2,
                     geometry->plot_x + geometry->plot_width + 2);
  if (x1 - x0 < 3)
    {
      x0 = (x0 + x1) / 2 - 1.5f;
      x1 = x0 + 3;
    }
  h = MAX (h, 3);
  halo.alpha = alpha;
  gsk_rounded_rect_init_from_rect (&frame, &GRAPHENE_RECT_INIT (x0 - 3, y - 3, x1 - x0 + 6, h + 6), 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { halo, halo, halo, halo });
  gsk_rounded_rect_init_from_rect (&frame, &GRAPHENE_RECT_INIT (x0 - 1, y - 1, x1 - x0 + 2, h + 2), 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { border, border, border, border });
}

/* The session's selection: its row tinted, a line at its time with a
 * triangle above it */
void
_sextant_timeline_snapshot_selection (SextantTimeline               *self,
                    GtkSnapshot                   *snapshot,
                    const SextantTimelineGeometry *geometry)
{
  GdkRGBA tint = selection_color;
  float y, h, x;
  cairo_t *cr;

  if (!geometry->row_of (geometry->row_data, self->selection_loc, &y, &h))
    return;
  tint.alpha = 0.18f;
  gtk_snapshot_append_color (snapshot, &tint, &GRAPHENE_RECT_INIT (geometry->plot_x, y, geometry->plot_width, h));
  if (self->selection_time < self->t0 || self->selection_time >= self->t1)
    return;
  x = (float)sextant_timeline_geometry_x (geometry, self->selection_time);
  gtk_snapshot_append_color (snapshot, &selection_color, &GRAPHENE_RECT_INIT (x - 1, y - 3, 2, h + 6));
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x - 6, y - 10, 12, 8));
  gdk_cairo_set_source_rgba (cr, &selection_color);
  cairo_move_to (cr, x - 5, y - 9);
  cairo_line_to (cr, x + 5, y - 9);
  cairo_line_to (cr, x, y - 3);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_destroy (cr);
}

/* While a range is being chosen: it tinted, the rest as it is */
void
_sextant_timeline_snapshot_range (SextantTimeline *self,
                GtkSnapshot     *snapshot,
                int              height)
{
  float x0 = (float)MIN (self->range_x0, self->range_x1);
  float x1 = (float)MAX (self->range_x0, self->range_x1);
  GdkRGBA tint = selection_color;

  x0 = MAX (x0, self->label_width);
  tint.alpha = 0.2f;
  gtk_snapshot_append_color (snapshot, &tint, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, height));
  gtk_snapshot_append_color (snapshot, &selection_color, &GRAPHENE_RECT_INIT (x0, 0, 1, height));
  gtk_snapshot_append_color (snapshot, &selection_color, &GRAPHENE_RECT_INIT (x1 - 1, 0, 1, height));
}

/* While the pair filter is set: a badge at the ruler's right end says
 * whose messages are drawn */
void
_sextant_timeline_snapshot_filter_badge (SextantTimeline *self,
                       GtkSnapshot     *snapshot,
                       PangoLayout     *layout,
                       int              width)
{
  g_autofree char *pair = sextant_session_dup_pair_filter_text (self->session);
  g_autofree char *text = g_strdup_printf ("Only %s (Escape: all)", pair != NULL ? pair : "a pair");
  int w, h;

  pango_layout_set_width (layout, -1);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_append_color (snapshot, &selection_color,
                             &GRAPHENE_RECT_INIT (width - w - 12, 1, w + 10, RULER_HEIGHT - 3));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (width - w - 7, (RULER_HEIGHT - 2 - h) / 2.0f));
  gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 1, 1, 1, 1 });
  gtk_snapshot_restore (snapshot);
}
