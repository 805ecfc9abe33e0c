/*
 * sextant-timeline-layer-locks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lock waits' layer: for each wait for a lock in view (a location
 * asked for a lock another one held; sextant-store-locks.h), who held it.
 * On the holder's row its hold: a bar along the row's top from the
 * acquisition to the release, and a tick across the row at the release;
 * on the waiter's row the wait: a dashed line along the row's bottom from
 * the request to the acquisition; and a line with a head from the
 * holder's release to the waiter's acquisition (the hand-over), bundled
 * like messages when dense (sextant-timeline-flows.c). All in the lock
 * colour, magenta: apart from MPI red, user green, the RMA orange, the
 * collectives' navy and the lost time's violet, petrol and near-black. The chosen lock_contention instance's hold is
 * outlined by the timeline's mark (sextant_timeline_find_lock_wait()).
 * A wait narrower than SEXTANT_LOCK_WAIT_MIN_PIXELS is not drawn, nor its hold: at a
 * run's zoom the thousands of microsecond waits of a threaded code would
 * cover the rows (casita-2_jacobi_blame_cpu_015: 8,000 thread locks) and
 * say nothing one can read; zoomed in, they are drawn.
 * O(waits + rows); main thread, inside a snapshot.
 */
#include "config.h"

#include "sextant-timeline-layers-private.h"


static gboolean
wide_enough (const SextantTimelineGeometry *g,
             const SextantLockWait         *w)
{
  return sextant_timeline_geometry_x (g, w->acquired) - sextant_timeline_geometry_x (g, w->asked) >= SEXTANT_LOCK_WAIT_MIN_PIXELS;
}

const GdkRGBA *
_sextant_timeline_lock_color (void)
{
  static const GdkRGBA magenta = { 0.85f, 0.05f, 0.60f, 1 };

  return &magenta;
}

/* The holds and the waits, on their rows */
static void
draw_intervals (GtkSnapshot                   *snapshot,
                const SextantTimelineGeometry *g,
                GArray                        *waits)
{
  double left = g->plot_x - 4, right = g->plot_x + g->plot_width + 4;
  cairo_t *cr = _sextant_layer_cairo (snapshot, g);

  gdk_cairo_set_source_rgba (cr, _sextant_timeline_lock_color ());
  /* the holds: a bar along the top, a tick at the release */
  for (guint i = 0; i < waits->len; i++)
    {
      const SextantLockWait *w = &g_array_index (waits, SextantLockWait, i);
      double x0 = MAX (sextant_timeline_geometry_x (g, w->hold_begin), left);
      double x1 = MIN (sextant_timeline_geometry_x (g, w->hold_end), right);
      float y, h, bar;

      if (!wide_enough (g, w) || x1 < left || x0 > right || !g->row_of (g->row_data, w->holder_loc, &y, &h))
        continue;
      bar = CLAMP (h / 4, 3, 6);
      cairo_rectangle (cr, x0, y, MAX (x1 - x0, 1), bar);
      if (x1 < right)
        cairo_rectangle (cr, x1 - 1, y, 2, h);
    }
  cairo_fill (cr);
  /* the waits: dashed along the bottom */
  cairo_set_line_width (cr, 2);
  cairo_set_dash (cr, (double[]) { 4, 2 }, 2, 0);
  for (guint i = 0; i < waits->len; i++)
    {
      const SextantLockWait *w = &g_array_index (waits, SextantLockWait, i);
      double x0 = MAX (sextant_timeline_geometry_x (g, w->asked), left);
      double x1 = MIN (sextant_timeline_geometry_x (g, w->acquired), right);
      float y, h;

      if (!wide_enough (g, w) || x1 < left || x0 > right || !g->row_of (g->row_data, w->loc, &y, &h))
        continue;
      cairo_move_to (cr, x0, y + h - 1);
      cairo_line_to (cr, MAX (x1, x0 + 1), y + h - 1);
    }
  cairo_stroke (cr);
  cairo_destroy (cr);
}

/**
 * sextant_timeline_layer_locks:
 * @snapshot: where to draw
 * @geometry: the view and its rows
 * @waits: (element-type SextantLockWait): the frame's lock waits
 *
 * Draws each wait, the hold it waited for and the hand-over between them
 * (the file's top comment says how).
 */
void
sextant_timeline_layer_locks (GtkSnapshot                   *snapshot,
                              const SextantTimelineGeometry *geometry,
                              GArray                        *waits)
{
  g_autoptr(GArray) flows = NULL;
  SextantFlowStyle style = { *_sextant_timeline_lock_color (), 1.5f };

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (geometry != NULL && geometry->t1 > geometry->t0);

  if (waits == NULL || waits->len == 0)
    return;
  draw_intervals (snapshot, geometry, waits);
  flows = g_array_sized_new (FALSE, FALSE, sizeof (SextantFlow), waits->len);
  for (guint i = 0; i < waits->len; i++)
    {
      const SextantLockWait *w = &g_array_index (waits, SextantLockWait, i);
      SextantFlow f = { w->holder_loc, w->loc, w->hold_end, MAX (w->acquired, w->hold_end), 1,
                        SEXTANT_FLOW_HEAD_FILLED, FALSE };

      if (wide_enough (geometry, w))
        g_array_append_val (flows, f);
    }
  if (flows->len > 0)
    _sextant_timeline_draw_flows (snapshot, NULL, geometry, flows, &style, NULL);
}

/**
 * sextant_timeline_find_lock_wait:
 * @waits: (element-type SextantLockWait) (nullable): a frame's lock waits
 * @loc: the waiting location
 * @acquired: when its wait ended (a lock_contention instance's end)
 * @holder_loc: the holder (the instance's peer), or %SEXTANT_NULL: any
 *
 * Returns: (nullable) (transfer none): the wait of @loc that ended at
 *   @acquired, for @holder_loc; %NULL when @waits has none
 */
const SextantLockWait *
sextant_timeline_find_lock_wait (GArray *waits,
                                 gint64  loc,
                                 gint64  acquired,
                                 gint64  holder_loc)
{
  for (guint i = 0; waits != NULL && i < waits->len; i++)
    {
      const SextantLockWait *w = &g_array_index (waits, SextantLockWait, i);

      if (w->loc == loc && w->acquired == acquired && (holder_loc == SEXTANT_NULL || w->holder_loc == holder_loc))
        return w;
    }

  return NULL;
}
