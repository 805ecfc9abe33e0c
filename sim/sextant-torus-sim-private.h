/*
 * sextant-torus-sim-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the torus model's files share (sextant-torus-sim.c, the hardware
 * side and the run; sextant-torus-p2p.c, the point-to-point side;
 * sextant-torus-flow.c, the flow model of the all-gather): the
 * state of a run, its event kinds and the inline helpers of the event
 * handlers.
 */
#pragma once

#include "sextant-sim-queue.h"
#include "sextant-torus-sim.h"

G_BEGIN_DECLS

#define REDUCE_SLOTS     16      /* ReduceId 0..15 */
#define NO_SOURCE        G_MAXUINT32

enum
{
  EV_HW_UP,            /* a packet's head at a router on its way to the root */
  EV_HW_DOWN,          /* a packet's head at a router on its way down */
  EV_RD_CONTRIB,       /* all of a reduce packet in a router's Reducer */
  EV_RD_CREDIT,        /* a credit packet from the parent */
  EV_P2P_BCAST,        /* a host holds the broadcast message */
  EV_P2P_REDUCE_RECV,  /* a host received a child's partial result */
  EV_P2P_RD_STEP,      /* a host starts a recursive-doubling step */
  EV_P2P_RD_RECV,      /* a host received a recursive-doubling message */
};

struct _SextantTorusSim
{
  SextantTorus       *torus;
  SextantTorusParams  params;
  SextantTorusJob     job;
  guint              *transit;
  guint               n;
  guint               n_trees;
  SextantTorusTree   *trees[SEXTANT_TORUS_MAX_TREES];
  const SextantTorusTreeRow *rows[SEXTANT_TORUS_MAX_TREES];
  guint               n_packets;
  guint               last_flits;
  guint64             message_flits;

  /* in picoseconds */
  gint64              cycle;
  gint64              link;
  gint64              inj;
  gint64              ej;
  gint64              router;
  gint64              combine;
  gint64              host;

  SextantSimQueue    *queue;
  SextantTorusNet     net;

  gint64              hw_done;
  gint64              p2p_done;
  gint64             *hw_end;
  gint64             *p2p_end;
  GArray             *messages;
  guint64             n_events;
  gsize               peak_queue;
  double              cpu_seconds;
  const char         *p2p_algorithm;
  guint               cur_tree;     /* the tree of the message being sent */

  /* reduce state per (tree, node) */
  guint8             *active;
  guint8             *expected;
  guint8             *count;        /* per (tree, node, slot) */
  guint16            *credits;
  guint32            *sent;
  guint16            *pending;      /* ring per (tree, node) */
  guint8             *pending_head;
  guint8             *pending_len;
  guint16            *host_next;    /* the host's next packet to inject */

  /* point-to-point tree per (tree, node) */
  guint              *anc;          /* nearest taking-part ancestor */
  guint              *kid_start;    /* CSR of the point-to-point children */
  guint              *kids;
  guint16            *kid_count;

  /* the flow model: progressive-filling rounds, and the most
   * (flow, resource) pairs held at once */
  guint64             flow_iterations;
  guint64             flow_entries;

  /* recursive doubling per node */
  guint               steps;
  gint8              *cur_step;
  gint64             *recv_time;
  gint64             *inj_end;
};

static inline guint
packet_flits (const SextantTorusSim *self,
              guint                  packet)
{
  return packet + 1 < self->n_packets ? SEXTANT_TORUS_PACKET_FLITS : self->last_flits;
}

static inline void
push (SextantTorusSim *self,
      gint64           time,
      guint            kind,
      guint            tree,
      guint            node,
      guint            source,
      guint            packet)
{
  SextantSimEvent ev = { .time = time, .node = node, .source = source, .packet = (guint16)packet,
                         .kind = (guint8)kind, .tree = (guint8)tree };

  sextant_sim_queue_push (self->queue, &ev);
}

static inline guint
neighbor (const SextantTorusSim *self,
          guint                  node,
          guint                  dir)
{
  return sextant_torus_net_neighbor (&self->net, node, dir);
}

static inline guint
tree_root (const SextantTorusSim *self,
           guint                  tree)
{
  return sextant_torus_tree_get_root (self->trees[tree]);
}

static inline gboolean
takes_part (const SextantTorusSim *self,
            guint                  tree,
            guint                  node)
{
  return self->rows[tree][node].pe;
}

SextantTorusSim *_sextant_torus_sim_new (SextantTorus             *torus,
                                         const SextantTorusParams *params,
                                         const SextantTorusJob    *job,
                                         GError                  **error);

gboolean _sextant_torus_flow_check (const SextantTorusJob *job,
                                    GError               **error);
void     _sextant_torus_flow_run   (SextantTorusSim       *self);

void _sextant_torus_sim_p2p_start (SextantTorusSim       *self);
void _sextant_torus_sim_p2p_event (SextantTorusSim       *self,
                                   const SextantSimEvent *ev);

G_END_DECLS
