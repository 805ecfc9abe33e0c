/*
 * sextant-sim-queue.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The event queue of the torus model's discrete-event simulation: events in
 * time order, ties in the order they were pushed (so a run is
 * deterministic); a calendar of one bucket per unit of time when every
 * time is a multiple of a known unit, else a heap.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* With a unit the calendar keeps an event in 8 bytes: node < 2^20, source
 * < 2^21 - 1 or G_MAXUINT32, packet < 4096, kind and tree < 16 */
typedef struct
{
  gint64  time;      /* picoseconds */
  guint64 seq;
  guint32 node;
  guint32 source;
  guint16 packet;
  guint8  kind;
  guint8  tree;
} SextantSimEvent;

typedef struct _SextantSimQueue SextantSimQueue;

SextantSimQueue *sextant_sim_queue_new         (gint64                 unit);
void             sextant_sim_queue_free        (SextantSimQueue       *self);
void             sextant_sim_queue_push        (SextantSimQueue       *self,
                                                const SextantSimEvent *event);
gboolean         sextant_sim_queue_pop         (SextantSimQueue       *self,
                                                SextantSimEvent       *event);
gboolean         sextant_sim_queue_peek_ahead  (const SextantSimQueue *self,
                                                guint                  ahead,
                                                SextantSimEvent       *event);
guint64          sextant_sim_queue_get_n_pushed (const SextantSimQueue *self);
gsize            sextant_sim_queue_get_peak    (const SextantSimQueue *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantSimQueue, sextant_sim_queue_free)

G_END_DECLS
