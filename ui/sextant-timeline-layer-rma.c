/*
 * sextant-timeline-layer-rma.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one-sided operations' layer: an arrow per operation where the data
 * goes (a put or an accumulate from the origin's row at its issue to the
 * target's at its completion, a get from the target's row back to the
 * origin's), with a filled head for puts and gets and an open one for
 * atomics, dashed when the trace never completed it; bundled and banded
 * like messages when dense (sextant-timeline-flows.c). The windows'
 * synchronisation as marks on the row: a bar for a fence, "[" where an
 * access epoch opens (lock, start), "]" where it closes, a short tick for
 * a flush, a dotted bracket for an exposure epoch (post .. wait); marks of
 * a row closer than 3 pixels become a strip at the row's top.
 * O(operations + synchronisations + rows); main thread, inside a snapshot.
 */
#include "config.h"

#include <math.h>

#include "sextant-timeline-layers-private.h"

/* Marks of a row closer than this (pixels) merge into a strip */
#define MARK_GAP 3.0

typedef struct
{
  double x0;       /* the run's first mark */
  double x1;       /* its last */
  guint  n;
  SextantViewSyncKind kind;   /* the first's */
  gboolean open;   /* at least one mark */
} MarkRun;

static void
draw_mark (cairo_t                *cr,
           const SextantLayerRow  *row,
           SextantViewSyncKind     kind,
           double                  x)
{
  double y0 = row->y + 1, y1 = row->y + row->height - 1;
  double serif = MIN (3.0, row->height / 4);

  if (y1 - y0 < 2)
    {
      y0 = row->y;
      y1 = row->y + row->height;
    }
  switch (kind)
    {
    case SEXTANT_VIEW_SYNC_FENCE:
      cairo_rectangle (cr, x - 1, row->y, 2, row->height);
      cairo_fill (cr);
      break;
    case SEXTANT_VIEW_SYNC_LOCK:
    case SEXTANT_VIEW_SYNC_EXPOSE:
      if (kind == SEXTANT_VIEW_SYNC_EXPOSE)
        cairo_set_dash (cr, (double[]) { 1.5, 1.5 }, 2, 0);
      cairo_move_to (cr, x + serif, y0 + 0.5);
      cairo_line_to (cr, x + 0.5, y0 + 0.5);
      cairo_line_to (cr, x + 0.5, y1 - 0.5);
      cairo_line_to (cr, x + serif, y1 - 0.5);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    case SEXTANT_VIEW_SYNC_UNLOCK:
      cairo_move_to (cr, x - serif, y0 + 0.5);
      cairo_line_to (cr, x - 0.5, y0 + 0.5);
      cairo_line_to (cr, x - 0.5, y1 - 0.5);
      cairo_line_to (cr, x - serif, y1 - 0.5);
      cairo_stroke (cr);
      break;
    case SEXTANT_VIEW_SYNC_FLUSH:
      cairo_move_to (cr, x, row->y + row->height / 2);
      cairo_line_to (cr, x, y1);
      cairo_stroke (cr);
      break;
    case SEXTANT_VIEW_SYNC_OTHER:
    default:
      cairo_arc (cr, x, row->y + row->height / 2, MIN (1.5, row->height / 2), 0, 2 * G_PI);
      cairo_fill (cr);
      break;
    }
}

static void
flush_run (cairo_t                       *cr,
           const SextantTimelineGeometry *g,
           const SextantLayerRow         *row,
           MarkRun                       *run)
{
  if (!run->open)
    return;
  if (run->n == 1)
    draw_mark (cr, row, run->kind, run->x0);
  else
    {
      float y, h;
      double x0 = MAX (run->x0, g->plot_x), x1 = MIN (run->x1, g->plot_x + g->plot_width);

      _sextant_layer_band_strip (row, TRUE, &y, &h);
      cairo_save (cr);
      cairo_set_source_rgba (cr, _sextant_timeline_rma_color ()->red, _sextant_timeline_rma_color ()->green,
                             _sextant_timeline_rma_color ()->blue, 0.7);
      cairo_rectangle (cr, x0 - 1, y, MAX (x1 - x0, 0) + 2, h);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  run->open = FALSE;
}

/* Where a synchronisation is drawn: the epoch opens at the call's start
 * and closes at its end; a fence or a flush at its end, when all the
 * operations before it are complete */
static double
mark_x (const SextantTimelineGeometry *g,
        const SextantViewSync         *s)
{
  gint64 t = s->kind == SEXTANT_VIEW_SYNC_LOCK || s->kind == SEXTANT_VIEW_SYNC_EXPOSE ? s->begin : s->end;

  return sextant_timeline_geometry_x (g, t == SEXTANT_NULL ? s->begin : t);
}

static void
draw_syncs (GtkSnapshot                   *snapshot,
            const SextantTimelineGeometry *g,
            GArray                        *syncs)
{
  SextantLayerRows rows;
  g_autoptr(GArray) runs = g_array_new (FALSE, TRUE, sizeof (MarkRun));
  cairo_t *cr = _sextant_layer_cairo (snapshot, g);

  _sextant_layer_rows_init (&rows, g);
  gdk_cairo_set_source_rgba (cr, _sextant_timeline_rma_color ());
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < syncs->len; i++)
    {
      const SextantViewSync *s = &g_array_index (syncs, SextantViewSync, i);
      int r = _sextant_layer_rows_lookup (&rows, s->loc, NULL);
      double x = mark_x (g, s);
      MarkRun *run;

      if (r < 0 || x < g->plot_x - 4 || x > g->plot_x + g->plot_width + 4)
        continue;
      if ((guint)r >= runs->len)
        g_array_set_size (runs, r + 1);
      run = &g_array_index (runs, MarkRun, r);
      if (run->open && fabs (x - run->x1) < MARK_GAP)
        {
          run->x0 = MIN (run->x0, x);
          run->x1 = MAX (run->x1, x);
          run->n++;
          continue;
        }
      flush_run (cr, g, &g_array_index (rows.rows, SextantLayerRow, r), run);
      *run = (MarkRun) { x, x, 1, s->kind, TRUE };
    }
  for (guint r = 0; r < runs->len; r++)
    flush_run (cr, g, &g_array_index (rows.rows, SextantLayerRow, r), &g_array_index (runs, MarkRun, r));
  cairo_destroy (cr);
  _sextant_layer_rows_clear (&rows);
}

/* An operation whose target has no location: a small ring on the origin's
 * row where it was issued */
static void
draw_targetless (GtkSnapshot                   *snapshot,
                 const SextantTimelineGeometry *g,
                 GArray                        *ops)
{
  SextantLayerRows rows;
  cairo_t *cr = NULL;

  _sextant_layer_rows_init (&rows, g);
  for (guint i = 0; i < ops->len; i++)
    {
      const SextantViewRma *op = &g_array_index (ops, SextantViewRma, i);
      const SextantLayerRow *row;
      int r;

      if (op->target_loc != SEXTANT_NULL || (r = _sextant_layer_rows_lookup (&rows, op->origin_loc, NULL)) < 0)
        continue;
      if (cr == NULL)
        {
          cr = _sextant_layer_cairo (snapshot, g);
          gdk_cairo_set_source_rgba (cr, _sextant_timeline_rma_color ());
          cairo_set_line_width (cr, 1.2);
        }
      row = &g_array_index (rows.rows, SextantLayerRow, r);
      cairo_new_sub_path (cr);
      cairo_arc (cr, sextant_timeline_geometry_x (g, op->issue_time), row->y + row->height / 2,
                 MIN (2.5, row->height / 2), 0, 2 * G_PI);
    }
  if (cr != NULL)
    {
      cairo_stroke (cr);
      cairo_destroy (cr);
    }
  _sextant_layer_rows_clear (&rows);
}

/**
 * sextant_timeline_layer_rma:
 * @snapshot: where to draw
 * @geometry: the view and its rows
 * @ops: (element-type SextantViewRma) (nullable): the frame's one-sided operations
 * @syncs: (element-type SextantViewSync) (nullable): its window synchronisations
 *
 * Draws the operations as arrows where their data goes and the epochs as
 * marks on the rows (the file's top comment says how).
 */
void
sextant_timeline_layer_rma (GtkSnapshot                   *snapshot,
                            const SextantTimelineGeometry *geometry,
                            GArray                        *ops,
                            GArray                        *syncs)
{
  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (geometry != NULL && geometry->t1 > geometry->t0);

  if (syncs != NULL && syncs->len > 0)
    draw_syncs (snapshot, geometry, syncs);
  if (ops != NULL && ops->len > 0)
    {
      g_autoptr(GArray) flows = g_array_sized_new (FALSE, FALSE, sizeof (SextantFlow), ops->len);
      SextantFlowStyle style = { *_sextant_timeline_rma_color (), 1.5f };

      for (guint i = 0; i < ops->len; i++)
        {
          const SextantViewRma *op = &g_array_index (ops, SextantViewRma, i);
          gboolean done = op->complete_time != SEXTANT_NULL;
          gint64 end = done ? MAX (op->complete_time, op->issue_time) : op->issue_time;
          SextantFlow f = { 0 };

          if (op->target_loc == SEXTANT_NULL)
            continue;
          f.count = 1;
          f.dashed = !done;
          f.head = op->kind == SEXTANT_VIEW_RMA_ATOMIC ? SEXTANT_FLOW_HEAD_OPEN : SEXTANT_FLOW_HEAD_FILLED;
          if (op->kind == SEXTANT_VIEW_RMA_GET)
            {
              /* the data comes back: from the target to the origin */
              f.loc0 = op->target_loc;
              f.loc1 = op->origin_loc;
            }
          else
            {
              f.loc0 = op->origin_loc;
              f.loc1 = op->target_loc;
            }
          f.t0 = op->issue_time;
          f.t1 = end;
          g_array_append_val (flows, f);
        }
      _sextant_timeline_draw_flows (snapshot, NULL, geometry, flows, &style, NULL);
      draw_targetless (snapshot, geometry, ops);
    }
}
