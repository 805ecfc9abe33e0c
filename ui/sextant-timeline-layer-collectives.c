/*
 * sextant-timeline-layer-collectives.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The collectives' layer. A collective alone in its stretch of time is a
 * navy line across its members' rows at the moment the last of them
 * arrived (nobody leaves a synchronising collective before) and a short
 * tick on each member's row where it arrived. Collectives closer than a
 * few pixels (an iterative code's allreduce at whole-run zoom) make one
 * run, drawn as a band: on each member row a strip at the row's top from
 * the run's first to its last collective, darker the more collectives per
 * pixel, so that the rows under it stay readable.
 * Drawn into a snapshot, or painted by hand into the layers' pixels.
 * O(members + collectives log collectives); main thread, inside a snapshot.
 */
#include "config.h"

#include <math.h>

#include "sextant-timeline-layers-private.h"

/* Collectives whose lines are closer than this (pixels) make a band */
#define COLLECTIVE_GAP 6.0

typedef struct
{
  double x;         /* where the last member arrived */
  guint  first;     /* its members: [first, last) of the frame's */
  guint  last;
  float  top;       /* the middles of its first and last rows in view */
  float  bottom;
  guint  n_rows;    /* members with a row in view */
} Collective;

static int
compare_x (gconstpointer a,
           gconstpointer b)
{
  double xa = ((const Collective *)a)->x, xb = ((const Collective *)b)->x;

  return xa < xb ? -1 : xa > xb;
}

/* A run of collectives [@first, @last) of @cs: each member row's strip */
static void
draw_band (GtkSnapshot                   *snapshot,
           SextantLayerCanvas            *canvas,
           const SextantTimelineGeometry *g,
           SextantLayerRows              *rows,
           GArray                        *members,
           GArray                        *cs,
           guint                          first,
           guint                          last,
           guint                         *stamp,
           guint                          run)
{
  const Collective *a = &g_array_index (cs, Collective, first);
  const Collective *b = &g_array_index (cs, Collective, last - 1);
  double x0 = MAX (a->x, g->plot_x), x1 = MIN (b->x, g->plot_x + g->plot_width);
  double per_px = (last - first) / MAX (x1 - x0, 1.0);
  GdkRGBA shade = *sextant_timeline_collective_color ();

  shade.alpha = (float)CLAMP (0.35 + 0.12 * log2 (1 + per_px), 0.35, 0.85);
  for (guint c = first; c < last; c++)
    {
      const Collective *col = &g_array_index (cs, Collective, c);

      for (guint k = col->first; k < col->last; k++)
        {
          int r = _sextant_layer_rows_lookup (rows, g_array_index (members, SextantViewMember, k).loc, NULL);
          float y, h;

          if (r < 0 || stamp[r] == run)
            continue;
          stamp[r] = run;
          _sextant_layer_band_strip (&g_array_index (rows->rows, SextantLayerRow, r), TRUE, &y, &h);
          if (canvas != NULL)
            _sextant_layer_canvas_rect (canvas, x0 - 1, y, x1 + 1, y + h, sextant_timeline_premultiplied (&shade));
          else
            gtk_snapshot_append_color (snapshot, &shade,
                                       &GRAPHENE_RECT_INIT ((float)x0 - 1, y, (float)(x1 - x0) + 2, h));
        }
    }
}

/**
 * sextant_timeline_layer_collectives:
 * @snapshot: where to draw
 * @canvas: (nullable): where to paint them by hand instead (the layers'
 *   pixels)
 * @geometry: the view and its rows
 * @members: (element-type SextantViewMember) (nullable): the frame's
 *   collectives' members, grouped by collective
 *
 * Draws the collectives: lines and ticks where they stay apart, bands
 * where they would not.
 */
void
sextant_timeline_layer_collectives (GtkSnapshot                   *snapshot,
                                    SextantLayerCanvas            *canvas,
                                    const SextantTimelineGeometry *geometry,
                                    GArray                        *members)
{
  const SextantTimelineGeometry *g = geometry;
  SextantLayerRows rows;
  g_autoptr(GArray) cs = NULL;
  g_autofree guint *stamp = NULL;
  cairo_t *cr = NULL;
  guint32 pixel = sextant_timeline_premultiplied (sextant_timeline_collective_color ());

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (geometry != NULL && geometry->t1 > geometry->t0);

  if (members == NULL || members->len == 0)
    return;
  _sextant_layer_rows_init (&rows, g);
  cs = g_array_new (FALSE, FALSE, sizeof (Collective));
  for (guint i = 0; i < members->len; )
    {
      gint64 id = g_array_index (members, SextantViewMember, i).collective;
      Collective c = { 0, i, i, G_MAXFLOAT, -G_MAXFLOAT, 0 };
      gint64 last = G_MININT64;

      for (; c.last < members->len && g_array_index (members, SextantViewMember, c.last).collective == id; c.last++)
        {
          const SextantViewMember *m = &g_array_index (members, SextantViewMember, c.last);
          float edge = NAN;
          int r = _sextant_layer_rows_lookup (&rows, m->loc, &edge);

          last = MAX (last, m->begin);
          /* a member scrolled out of view: the line leaves the area toward it */
          if (r < 0 && isfinite (edge))
            {
              c.top = MIN (c.top, edge);
              c.bottom = MAX (c.bottom, edge);
            }
          if (r < 0)
            continue;
          c.top = MIN (c.top, g_array_index (rows.rows, SextantLayerRow, r).y +
                              g_array_index (rows.rows, SextantLayerRow, r).height / 2);
          c.bottom = MAX (c.bottom, g_array_index (rows.rows, SextantLayerRow, r).y +
                                    g_array_index (rows.rows, SextantLayerRow, r).height / 2);
          c.n_rows++;
        }
      i = c.last;
      c.x = sextant_timeline_geometry_x (g, last);
      if (c.n_rows > 0 && c.x >= g->plot_x - COLLECTIVE_GAP && c.x <= g->plot_x + g->plot_width + COLLECTIVE_GAP)
        g_array_append_val (cs, c);
    }
  g_array_sort (cs, compare_x);
  stamp = g_new0 (guint, rows.rows->len);

  for (guint i = 0, run = 1; i < cs->len; run++)
    {
      guint j = i + 1;

      while (j < cs->len && g_array_index (cs, Collective, j).x - g_array_index (cs, Collective, j - 1).x < COLLECTIVE_GAP)
        j++;
      if (j - i > 1)
        draw_band (snapshot, canvas, g, &rows, members, cs, i, j, stamp, run);
      else
        {
          const Collective *c = &g_array_index (cs, Collective, i);

          if (cr == NULL && canvas == NULL)
            {
              cr = _sextant_layer_cairo (snapshot, g);
              gdk_cairo_set_source_rgba (cr, sextant_timeline_collective_color ());
              cairo_set_line_width (cr, 2);
            }
          /* where each member arrived */
          for (guint k = c->first; k < c->last; k++)
            {
              const SextantViewMember *m = &g_array_index (members, SextantViewMember, k);
              int r = _sextant_layer_rows_lookup (&rows, m->loc, NULL);
              const SextantLayerRow *row;
              float tick;
              double x;

              if (r < 0)
                continue;
              row = &g_array_index (rows.rows, SextantLayerRow, r);
              tick = MIN (3.0f, row->height / 3);
              x = sextant_timeline_geometry_x (g, m->begin);
              /* two pixels wide, as Cairo strokes them (butt caps) */
              if (canvas != NULL)
                _sextant_layer_canvas_rect (canvas, x - 1, row->y + row->height / 2 - tick, x + 1,
                                            row->y + row->height / 2 + tick, pixel);
              else
                {
                  cairo_move_to (cr, x, row->y + row->height / 2 - tick);
                  cairo_rel_line_to (cr, 0, 2 * tick);
                }
            }
          if (c->top < c->bottom && canvas != NULL)
            _sextant_layer_canvas_rect (canvas, c->x - 1, c->top, c->x + 1, c->bottom, pixel);
          else if (c->top < c->bottom)
            {
              cairo_move_to (cr, c->x, c->top);
              cairo_line_to (cr, c->x, c->bottom);
            }
        }
      i = j;
    }
  if (cr != NULL)
    {
      cairo_stroke (cr);
      cairo_destroy (cr);
    }
  _sextant_layer_rows_clear (&rows);
}
