/*
 * sextant-torus-p2p.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The point-to-point side of the torus model (sextant-torus-sim.c runs
 * it after the hardware side, on the same idle network and trees): a host
 * sends a message (injection, links in dimension order, ejection), the
 * receiving host forwards it after the host overhead. Broadcast: each
 * host sends to its children one after the other, deepest subtree first;
 * reduce: a host sends its partial result up once it has every child's;
 * all-reduce: a reduce, then a broadcast. Transit nodes are skipped: a host
 * sends to its nearest taking-part descendants. All-gather: recursive
 * doubling, for a power-of-two node count. A message reserves its route's
 * links and the receiver's ejection channel when it is sent.
 */
#include "config.h"

#include <string.h>

#include "sextant-torus-sim-private.h"

/* @u's host sends @flits (@bytes) to @v's from @t; returns when @v's host
 * has them all */
static gint64
p2p_send (SextantTorusSim *self,
          guint            u,
          guint            v,
          gint64           t,
          guint64          flits,
          guint64          bytes)
{
  gint64 begin = 0;
  gint64 head = sextant_torus_net_inject (&self->net, u, t, flits, &begin);
  gint64 done = sextant_torus_net_eject (&self->net, v, sextant_torus_net_route (&self->net, u, v, head, flits), flits);

  self->p2p_end[u] = MAX (self->p2p_end[u], self->net.inj_free[u]);
  self->p2p_end[v] = MAX (self->p2p_end[v], done);
  self->p2p_done = MAX (self->p2p_done, done);
  if (self->messages != NULL)
    {
      SextantTorusMessage m = { u, v, self->cur_tree, bytes, begin, self->net.inj_free[u], done };

      g_array_append_val (self->messages, m);
    }

  return done;
}

static int
compare_heights (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const SextantTorusTree *tree = user_data;
  guint ha = sextant_torus_tree_get_height (tree, *(const guint *)a);
  guint hb = sextant_torus_tree_get_height (tree, *(const guint *)b);

  if (ha != hb)
    return ha > hb ? -1 : 1;
  return sextant_torus_tree_get_node_depth (tree, *(const guint *)a) <
         sextant_torus_tree_get_node_depth (tree, *(const guint *)b) ? -1 : 0;
}

/* The point-to-point trees: every taking-part node hangs from its nearest
 * taking-part ancestor; children deepest subtree first */
static void
p2p_build_trees (SextantTorusSim *self)
{
  gsize total = (gsize)self->n_trees * self->n;
  guint next = 0;

  self->anc = g_new (guint, total);
  self->kid_start = g_new0 (guint, total + 1);
  self->kid_count = g_new0 (guint16, total);
  self->kids = g_new (guint, total);
  for (guint k = 0; k < self->n_trees; k++)
    {
      const SextantTorusTree *tree = self->trees[k];
      const guint *order = sextant_torus_tree_get_order (tree);
      guint *anc = self->anc + (gsize)k * self->n;
      guint n_in = sextant_torus_tree_get_n_in_tree (tree);

      for (guint v = 0; v < self->n; v++)
        anc[v] = G_MAXUINT;
      for (guint j = 1; j < n_in; j++)
        {
          guint v = order[j];
          guint parent = sextant_torus_tree_get_parent (tree, v);

          anc[v] = takes_part (self, k, parent) ? parent : anc[parent];
          if (takes_part (self, k, v))
            self->kid_count[(gsize)k * self->n + anc[v]]++;
        }
      for (guint v = 0; v < self->n; v++)
        {
          self->kid_start[(gsize)k * self->n + v] = next;
          next += self->kid_count[(gsize)k * self->n + v];
        }
    }
  self->kid_start[total] = next;

  {
    g_autofree guint *fill = g_new0 (guint, total);

    for (guint k = 0; k < self->n_trees; k++)
      {
        const guint *order = sextant_torus_tree_get_order (self->trees[k]);
        guint n_in = sextant_torus_tree_get_n_in_tree (self->trees[k]);

        for (guint j = 1; j < n_in; j++)
          {
            guint v = order[j];
            gsize a;

            if (!takes_part (self, k, v))
              continue;
            a = (gsize)k * self->n + self->anc[(gsize)k * self->n + v];
            self->kids[self->kid_start[a] + fill[a]++] = v;
          }
        for (guint v = 0; v < self->n; v++)
          {
            gsize a = (gsize)k * self->n + v;

            if (self->kid_count[a] > 1)
              g_qsort_with_data (self->kids + self->kid_start[a], self->kid_count[a], sizeof (guint),
                                 compare_heights, self->trees[k]);
          }
      }
  }
}

static void
p2p_bcast (SextantTorusSim *self,
           guint            tree,
           guint            node,
           gint64           t)
{
  gsize a = (gsize)tree * self->n + node;

  self->cur_tree = tree;
  self->p2p_end[node] = MAX (self->p2p_end[node], t);
  for (guint j = 0; j < self->kid_count[a]; j++)
    {
      guint child = self->kids[self->kid_start[a] + j];
      gint64 done = p2p_send (self, node, child, t, self->message_flits, self->job.bytes);

      push (self, done + self->host, EV_P2P_BCAST, tree, child, NO_SOURCE, 0);
    }
}

/* @node's host has its subtree's partial result at @t */
static void
p2p_reduce_ready (SextantTorusSim *self,
                  guint            tree,
                  guint            node,
                  gint64           t)
{
  guint parent;
  gint64 done;

  if (node == tree_root (self, tree))
    {
      self->p2p_end[node] = MAX (self->p2p_end[node], t);
      self->p2p_done = MAX (self->p2p_done, t);
      if (self->job.op == SEXTANT_TORUS_OP_ALLREDUCE)
        p2p_bcast (self, tree, node, t);
      return;
    }
  parent = self->anc[(gsize)tree * self->n + node];
  self->cur_tree = tree;
  done = p2p_send (self, node, parent, t, self->message_flits, self->job.bytes);
  push (self, done + self->host, EV_P2P_REDUCE_RECV, tree, parent, NO_SOURCE, 0);
}

static void
rdbl_start_step (SextantTorusSim *self,
                 guint            node,
                 guint            step,
                 gint64           t)
{
  guint partner;
  guint64 bytes;
  gint64 received;

  if (step == self->steps)
    {
      self->p2p_end[node] = MAX (self->p2p_end[node], t);
      return;
    }
  self->cur_step[node] = (gint8)step;
  partner = node ^ (1u << step);
  bytes = self->job.bytes << step;
  push (self, p2p_send (self, node, partner, t, (bytes + SEXTANT_TORUS_FLIT_BYTES - 1) / SEXTANT_TORUS_FLIT_BYTES, bytes),
        EV_P2P_RD_RECV, 0, partner, NO_SOURCE, step);
  self->inj_end[node] = self->net.inj_free[node];
  received = self->recv_time[(gsize)node * self->steps + step];
  if (received >= 0)
    push (self, MAX (received, self->inj_end[node]) + self->host, EV_P2P_RD_STEP, 0, node, NO_SOURCE, step + 1);
}

void
_sextant_torus_sim_p2p_event (SextantTorusSim       *self,
                              const SextantSimEvent *ev)
{
  switch (ev->kind)
    {
    case EV_P2P_BCAST:
      p2p_bcast (self, ev->tree, ev->node, ev->time);
      break;
    case EV_P2P_REDUCE_RECV:
      {
        gsize a = (gsize)ev->tree * self->n + ev->node;

        if (++self->count[a] == self->kid_count[a])
          p2p_reduce_ready (self, ev->tree, ev->node, ev->time);
      }
      break;
    case EV_P2P_RD_STEP:
      rdbl_start_step (self, ev->node, ev->packet, ev->time);
      break;
    case EV_P2P_RD_RECV:
      self->recv_time[(gsize)ev->node * self->steps + ev->packet] = ev->time;
      if (self->cur_step[ev->node] == (gint8)ev->packet)
        push (self, MAX (ev->time, self->inj_end[ev->node]) + self->host, EV_P2P_RD_STEP, 0, ev->node, NO_SOURCE,
              ev->packet + 1u);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Sets up the point-to-point run and pushes its first events */
void
_sextant_torus_sim_p2p_start (SextantTorusSim *self)
{
  if (self->job.op == SEXTANT_TORUS_OP_ALLGATHER)
    {
      gsize total = (gsize)self->n * self->steps;

      self->p2p_algorithm = "recursive doubling";
      self->cur_step = g_new (gint8, self->n);
      memset (self->cur_step, -1, self->n);
      self->recv_time = g_new (gint64, total);
      for (gsize i = 0; i < total; i++)
        self->recv_time[i] = -1;
      self->inj_end = g_new0 (gint64, self->n);
      for (guint v = 0; v < self->n; v++)
        push (self, 0, EV_P2P_RD_STEP, 0, v, NO_SOURCE, 0);
      return;
    }

  self->p2p_algorithm = "point-to-point over the same tree";
  p2p_build_trees (self);
  memset (self->count, 0, (gsize)self->n_trees * self->n);
  for (guint k = 0; k < self->n_trees; k++)
    {
      if (self->job.op == SEXTANT_TORUS_OP_BCAST)
        push (self, 0, EV_P2P_BCAST, k, tree_root (self, k), NO_SOURCE, 0);
      else
        for (guint v = 0; v < self->n; v++)
          if (takes_part (self, k, v) && self->kid_count[(gsize)k * self->n + v] == 0)
            p2p_reduce_ready (self, k, v, 0);
    }
}
