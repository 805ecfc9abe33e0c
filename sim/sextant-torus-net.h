/*
 * sextant-torus-net.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The torus's network resources as the model sees them: every directed
 * link and every node's injection (host to router) and ejection (router
 * to host) channel is a FIFO server busy one router cycle per flit. A
 * transfer takes a resource when both are ready and holds it for its
 * flits. The model of the collectives (sextant-torus-sim.c) and the replay
 * of recorded traces (sextant-torus-replay.c) send through it; the calls of
 * the inner loop are inline. Times in integer picoseconds.
 */
#pragma once

#include "sextant-torus.h"

G_BEGIN_DECLS

/* A collective packet: at most 16 flits of 128 bits (256 bytes) */
#define SEXTANT_TORUS_FLIT_BYTES    16
#define SEXTANT_TORUS_PACKET_FLITS  16
#define SEXTANT_TORUS_PACKET_BYTES  (SEXTANT_TORUS_FLIT_BYTES * SEXTANT_TORUS_PACKET_FLITS)

/**
 * SextantTorusNet:
 * @n: nodes
 * @cycle: a router cycle (one flit on a link or channel)
 * @hop: a link's latency plus the routing cycles: from a head leaving a
 *   router to it leaving the next
 * @inj: injection latency
 * @ej: ejection latency
 * @store_and_forward: a router forwards a packet once it holds all of it
 * @neighbors: per (node, dir): the node one link away
 * @link_free: per (node, dir): when the link is next free
 * @inj_free: per node: when its injection channel is next free
 * @ej_free: per node: when its ejection channel is next free
 */
typedef struct
{
  SextantTorus *torus;
  guint         n;
  gint64        cycle;
  gint64        hop;
  gint64        inj;
  gint64        ej;
  gboolean      store_and_forward;
  guint        *neighbors;
  gint64       *link_free;
  gint64       *inj_free;
  gint64       *ej_free;
} SextantTorusNet;

void   sextant_torus_net_init  (SextantTorusNet *net,
                                SextantTorus    *torus,
                                gint64           cycle,
                                gint64           hop,
                                gint64           inj,
                                gint64           ej,
                                gboolean         store_and_forward);
void   sextant_torus_net_clear (SextantTorusNet *net);
void   sextant_torus_net_reset (SextantTorusNet *net);
gint64 sextant_torus_net_route (SextantTorusNet *net,
                                guint            u,
                                guint            v,
                                gint64           t,
                                guint64          flits);

static inline guint
sextant_torus_net_neighbor (const SextantTorusNet *net,
                            guint                  node,
                            guint                  dir)
{
  return net->neighbors[(gsize)node * SEXTANT_TORUS_MAX_DIRS + dir];
}

/* Sends @flits from @u along @dir at @t; returns when the head is at the
 * next router (the last of @sf_flits too with store-and-forward) */
static inline gint64
sextant_torus_net_link_send (SextantTorusNet *net,
                             guint            u,
                             guint            dir,
                             gint64           t,
                             guint64          flits,
                             guint            sf_flits)
{
  gint64 *free_at = &net->link_free[(gsize)u * SEXTANT_TORUS_MAX_DIRS + dir];
  gint64 start = MAX (t, *free_at);

  *free_at = start + (gint64)flits * net->cycle;

  return start + net->hop + (net->store_and_forward ? sf_flits * net->cycle : 0);
}

/* The head of @flits at @v's router at @t; returns when its host has all */
static inline gint64
sextant_torus_net_eject (SextantTorusNet *net,
                         guint            v,
                         gint64           t,
                         guint64          flits)
{
  gint64 start = MAX (t, net->ej_free[v]);

  net->ej_free[v] = start + (gint64)flits * net->cycle;

  return net->ej_free[v] + net->ej;
}

/* @v's host injects @flits from @t; returns when the head is at the router,
 * and in @begin (nullable) when the injection started */
static inline gint64
sextant_torus_net_inject (SextantTorusNet *net,
                          guint            v,
                          gint64           t,
                          guint64          flits,
                          gint64          *begin)
{
  gint64 start = MAX (t, net->inj_free[v]);

  net->inj_free[v] = start + (gint64)flits * net->cycle;
  if (begin != NULL)
    *begin = start;

  return start + net->inj;
}

G_END_DECLS
