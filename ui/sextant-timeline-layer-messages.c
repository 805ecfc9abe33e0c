/*
 * sextant-timeline-layer-messages.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The messages' layer: a line from each send on the sender's row to its
 * receive on the receiver's, as tools of the field draw them, aggregated
 * into bundles and a density band where they would overlap
 * (sextant-timeline-flows.c). A frame too dense to read its messages one
 * by one gives their counts per pair of locations and slot of time
 * instead: each such entry is a flow of that many messages. O(messages +
 * pixels); main thread, inside a snapshot.
 */
#include "config.h"

#include "sextant-timeline-layers-private.h"

/* The pair filter's (and the selection's) blue */
static const GdkRGBA filter_color = { 0.11f, 0.44f, 0.85f, 1 };

/**
 * sextant_timeline_layer_messages:
 * @snapshot: where to draw
 * @canvas: (nullable): where to paint the single lines by hand (the
 *   layers' pixels, under what @snapshot draws)
 * @geometry: the view and its rows
 * @messages: (element-type SextantViewMessage) (nullable): the frame's messages
 * @density: (element-type SextantViewMessageDensity) (nullable): their
 *   counts, when @messages is %NULL
 * @filtered: they are a pair's (the pair filter): bolder, in blue
 *
 * Draws the messages: lines while they stay apart, bundles and a density
 * band where they would not.
 */
void
sextant_timeline_layer_messages (GtkSnapshot                   *snapshot,
                                 SextantLayerCanvas            *canvas,
                                 const SextantTimelineGeometry *geometry,
                                 GArray                        *messages,
                                 GArray                        *density,
                                 gboolean                       filtered)
{
  g_autoptr(GArray) flows = NULL;
  SextantFlowStyle style;

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (geometry != NULL && geometry->t1 > geometry->t0);

  if (messages != NULL)
    {
      flows = g_array_sized_new (FALSE, FALSE, sizeof (SextantFlow), messages->len);
      for (guint i = 0; i < messages->len; i++)
        {
          const SextantViewMessage *m = &g_array_index (messages, SextantViewMessage, i);
          SextantFlow f = { m->send_loc, m->recv_loc, m->send_time, m->recv_time, 1, SEXTANT_FLOW_HEAD_NONE, FALSE };

          g_array_append_val (flows, f);
        }
    }
  else if (density != NULL)
    {
      flows = g_array_sized_new (FALSE, FALSE, sizeof (SextantFlow), density->len);
      for (guint i = 0; i < density->len; i++)
        {
          const SextantViewMessageDensity *d = &g_array_index (density, SextantViewMessageDensity, i);
          SextantFlow f = { d->send_loc, d->recv_loc, d->begin, d->end, d->count, SEXTANT_FLOW_HEAD_NONE, FALSE };

          if (d->count > 0)
            g_array_append_val (flows, f);
        }
    }
  else
    return;

  if (filtered)
    style = (SextantFlowStyle) { filter_color, 2.5f };
  else
    style = (SextantFlowStyle) { { 0, 0, 0, 0.85f }, 1.5f };
  _sextant_timeline_draw_flows (snapshot, canvas, geometry, flows, &style, NULL);
}
