/*
 * sextant-torus-net.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The torus's links and host channels as FIFO servers (sextant-torus-net.h):
 * their state, and a message routed in dimension order. Memory: 8 links and
 * 2 channels per node, 88 bytes per node with the neighbour table.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-torus-net.h"

/**
 * sextant_torus_net_init:
 * @torus: (transfer none): the torus; @net keeps a reference
 *
 * Every resource free from time 0. sextant_torus_net_clear () frees @net's
 * arrays.
 */
void
sextant_torus_net_init (SextantTorusNet *net,
                        SextantTorus    *torus,
                        gint64           cycle,
                        gint64           hop,
                        gint64           inj,
                        gint64           ej,
                        gboolean         store_and_forward)
{
  guint n = sextant_torus_get_n_nodes (torus);

  *net = (SextantTorusNet) {
    .torus = sextant_torus_ref (torus),
    .n = n,
    .cycle = cycle,
    .hop = hop,
    .inj = inj,
    .ej = ej,
    .store_and_forward = store_and_forward,
    .neighbors = g_new0 (guint, (gsize)n * SEXTANT_TORUS_MAX_DIRS),
    .link_free = g_new0 (gint64, (gsize)n * SEXTANT_TORUS_MAX_DIRS),
    .inj_free = g_new0 (gint64, n),
    .ej_free = g_new0 (gint64, n),
  };
  /* the nodes in id order, their coordinates counted along (X fastest) */
  {
    guint n_dims = sextant_torus_get_n_dims (torus);
    guint size[SEXTANT_TORUS_MAX_DIMS], stride[SEXTANT_TORUS_MAX_DIMS], c[SEXTANT_TORUS_MAX_DIMS] = { 0 };

    for (guint d = 0; d < n_dims; d++)
      {
        size[d] = sextant_torus_get_size (torus, d);
        stride[d] = d == 0 ? 1 : stride[d - 1] * size[d - 1];
      }
    for (guint v = 0; v < n; v++)
      {
        guint *row = &net->neighbors[(gsize)v * SEXTANT_TORUS_MAX_DIRS];

        for (guint d = 0; d < n_dims; d++)
          {
            row[SEXTANT_TORUS_DIR (d, FALSE)] = c[d] + 1 < size[d] ? v + stride[d] : v - c[d] * stride[d];
            row[SEXTANT_TORUS_DIR (d, TRUE)] = c[d] > 0 ? v - stride[d] : v + (size[d] - 1) * stride[d];
          }
        for (guint d = 0; d < n_dims && ++c[d] == size[d]; d++)
          c[d] = 0;
      }
  }
}

void
sextant_torus_net_clear (SextantTorusNet *net)
{
  g_clear_pointer (&net->torus, sextant_torus_unref);
  g_clear_pointer (&net->neighbors, g_free);
  g_clear_pointer (&net->link_free, g_free);
  g_clear_pointer (&net->inj_free, g_free);
  g_clear_pointer (&net->ej_free, g_free);
}

/* Every resource free again from time 0 */
void
sextant_torus_net_reset (SextantTorusNet *net)
{
  memset (net->link_free, 0, sizeof (gint64) * net->n * SEXTANT_TORUS_MAX_DIRS);
  memset (net->inj_free, 0, sizeof (gint64) * net->n);
  memset (net->ej_free, 0, sizeof (gint64) * net->n);
}

/**
 * sextant_torus_net_route:
 *
 * Routes @flits from @u's router at @t to @v's in dimension order, the
 * short way round along each dimension (a packet's worth with
 * store-and-forward at each router).
 *
 * Returns: when the head is at @v's router
 */
gint64
sextant_torus_net_route (SextantTorusNet *net,
                         guint            u,
                         guint            v,
                         gint64           t,
                         guint64          flits)
{
  guint sf = (guint)MIN (flits, SEXTANT_TORUS_PACKET_FLITS);

  for (guint d = 0; d < sextant_torus_get_n_dims (net->torus); d++)
    {
      int offset = sextant_torus_get_offset (net->torus, u, v, d);
      guint dir = SEXTANT_TORUS_DIR (d, offset < 0);

      for (int h = abs (offset); h > 0; h--)
        {
          t = sextant_torus_net_link_send (net, u, dir, t, flits, sf);
          u = sextant_torus_net_neighbor (net, u, dir);
        }
    }

  return t;
}
