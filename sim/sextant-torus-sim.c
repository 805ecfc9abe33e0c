/*
 * sextant-torus-sim.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The discrete-event model of Angara's collective subnetwork (Mukosey,
 * Semenov, Simonov 2015; docs/sim.md has the model, its parameters and how
 * it compares with the paper's figures).
 *
 * Resources, each a FIFO server busy one router cycle per flit: every
 * directed link (two per dimension per node), every node's injection
 * channel (host to router) and ejection channel (router to host). A packet
 * that takes a resource starts when both it and the resource are ready;
 * its head reaches the next router after the link latency and the
 * router's routing cycles (and after its last flit as well with
 * store-and-forward). Time is in integer picoseconds.
 *
 * The hardware run:
 *  - broadcast: the source's host injects the packets; a packet not at the
 *    root goes up the tree (VCUp), then down from the root (VCDown); every
 *    router copies it to every down-link and, if its node takes part (not
 *    transit, not the source), ejects it to the host.
 *  - reduce / all-reduce: every taking-part host injects its packet; a
 *    router's Reducer combines its host's packet (unless transit) and one
 *    from every child whose subtree takes part, once it holds all of each,
 *    adds combine_cycles and sends the result up. A child sends a parent
 *    at most `credits` packets ahead; the parent sends each child a credit
 *    packet (one flit) for every credit_batch results it forwarded, worth
 *    credit_batch more. A host has at most 16 packets (ReduceId 0..15) of a
 *    tree in its router: the next goes in when one's result leaves (the
 *    paper's credits to the PE, every 128 results or 4096 cycles, are not
 *    modelled). At the root, reduce ejects the result, all-reduce
 *    broadcasts it down (without ejecting it first).
 *  - all-gather: every node broadcasts its piece on tree i mod n_trees.
 * Then the point-to-point run (sextant-torus-p2p.c) on the same idle
 * resources and trees.
 *
 * The resources are sextant-torus-net.h's; the events go through a
 * calendar queue (sextant-sim-queue.c) whose unit is the greatest common
 * divisor of the model's times, so a push and a pop are O(1) and the run
 * pops exactly what a heap of (time, push order) would.
 *
 * Workload: a broadcast or reduce of P packets on N nodes takes O(N P)
 * events; an all-gather O(N^2 P) (refused above 2^31 events: 32768 nodes
 * run, 65536 do not). Memory is linear in N times the trees, about 120
 * bytes per node and tree, plus the trace's per-node times and messages
 * when recorded, plus 8 bytes per pending event: for an all-gather the
 * packets waiting in link queues, which grow as N^2 (the model's links
 * have unbounded buffers).
 *
 * That is the packet model, the reference and the default. With
 * SextantTorusJob.model = SEXTANT_TORUS_MODEL_FLOW the all-gather runs in
 * the flow model instead (sextant-torus-flow.c: flows sharing the same
 * resources, memory linear in the nodes); both start from the run set up
 * by _sextant_torus_sim_new ().
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sextant-torus-sim-private.h"

#define MAX_EVENTS       (G_GUINT64_CONSTANT (1) << 31)
#define PREFETCH_AHEAD   8
static const char * const op_names[] = { "bcast", "reduce", "allreduce", "allgather" };
static const char * const model_names[] = { "packet", "flow" };

/* The index of @text in @names, in @index */
static gboolean
name_index (const char * const *names,
            guint               n_names,
            const char         *text,
            guint              *index)
{
  for (guint i = 0; i < n_names; i++)
    if (g_str_equal (text, names[i]))
      {
        *index = i;
        return TRUE;
      }

  return FALSE;
}

/* sextant_torus_NAME_to_string () and _from_string () of the enum TYPE
 * whose values are the indexes of NAMES */
#define ENUM_NAMES(name, Type, names)                                        \
  const char *                                                              \
  sextant_torus_##name##_to_string (Type value)                             \
  {                                                                         \
    g_return_val_if_fail ((guint)value < G_N_ELEMENTS (names), "?");        \
    return names[value];                                                    \
  }                                                                         \
                                                                            \
  gboolean                                                                  \
  sextant_torus_##name##_from_string (const char *text,                     \
                                      Type       *value)                    \
  {                                                                         \
    guint i;                                                                \
                                                                            \
    if (!name_index (names, G_N_ELEMENTS (names), text, &i))                \
      return FALSE;                                                         \
    *value = (Type)i;                                                       \
    return TRUE;                                                            \
  }

ENUM_NAMES (op, SextantTorusOp, op_names)
ENUM_NAMES (model, SextantTorusModel, model_names)

/**
 * sextant_torus_params_init:
 *
 * Sets the defaults: the Angara 2013 router chip of the paper's table (link
 * 80 ns, router 500 MHz, injection and ejection 300 ns), one cycle to
 * route and one to combine, no host overhead, 16 credits granted 8 at a
 * time.
 */
void
sextant_torus_params_init (SextantTorusParams *params)
{
  *params = (SextantTorusParams) {
    .link_latency_ns = 80,
    .router_clock_mhz = 500,
    .inject_latency_ns = 300,
    .eject_latency_ns = 300,
    .router_cycles = 1,
    .combine_cycles = 1,
    .host_overhead_ns = 0,
    .store_and_forward = FALSE,
    .credits = 16,
    .credit_batch = 8,
  };
}

void
sextant_torus_job_init (SextantTorusJob *job)
{
  *job = (SextantTorusJob) {
    .op = SEXTANT_TORUS_OP_BCAST,
    .bytes = SEXTANT_TORUS_PACKET_BYTES,
    .root = 0,
    .n_trees = 0,
    .model = SEXTANT_TORUS_MODEL_PACKET,
  };
}

/* ---------------------------------------------------------------------- */
/* The hardware run                                                        */
/* ---------------------------------------------------------------------- */

static void
hw_down (SextantTorusSim *self,
         guint            tree,
         guint            node,
         gint64           t,
         guint            source,
         guint            packet)
{
  const SextantTorusTreeRow *row = &self->rows[tree][node];
  guint flits = packet_flits (self, packet);

  for (guint dir = 0; dir < SEXTANT_TORUS_MAX_DIRS; dir++)
    if (row->dirs & (1u << dir))
      push (self, sextant_torus_net_link_send (&self->net, node, dir, t, flits, flits), EV_HW_DOWN, tree,
            neighbor (self, node, dir), source, packet);

  if (row->pe && node != source)
    {
      gint64 done = sextant_torus_net_eject (&self->net, node, t, flits);

      self->hw_end[node] = MAX (self->hw_end[node], done);
      self->hw_done = MAX (self->hw_done, done);
    }
}

static void
hw_up (SextantTorusSim *self,
       guint            tree,
       guint            node,
       gint64           t,
       guint            source,
       guint            packet)
{
  const SextantTorusTreeRow *row = &self->rows[tree][node];
  guint flits = packet_flits (self, packet);

  if (row->is_root)
    {
      hw_down (self, tree, node, t, source, packet);
      return;
    }
  push (self, sextant_torus_net_link_send (&self->net, node, row->to_root, t, flits, flits), EV_HW_UP, tree,
        neighbor (self, node, row->to_root), source, packet);
}

/* A broadcast of every packet from @source on @tree */
static void
hw_start_bcast (SextantTorusSim *self,
                guint            tree,
                guint            source)
{
  for (guint p = 0; p < self->n_packets; p++)
    {
      gint64 head = sextant_torus_net_inject (&self->net, source, 0, packet_flits (self, p), NULL);

      self->hw_end[source] = MAX (self->hw_end[source], self->net.inj_free[source]);
      push (self, head, EV_HW_UP, tree, source, source, p);
    }
}

/* @node's host injects its next reduce packet from @t */
static void
rd_host_inject (SextantTorusSim *self,
                guint            tree,
                guint            node,
                gint64           t)
{
  gsize i = (gsize)tree * self->n + node;
  guint p = self->host_next[i]++;
  guint flits = packet_flits (self, p);
  gint64 head = sextant_torus_net_inject (&self->net, node, t, flits, NULL);

  if (self->job.op == SEXTANT_TORUS_OP_REDUCE)
    self->hw_end[node] = MAX (self->hw_end[node], self->net.inj_free[node]);
  push (self, head + flits * self->cycle, EV_RD_CONTRIB, tree, node, NO_SOURCE, p);
}

/* @node sent a result up (or the root has one) at @t: its slot is free for
 * its host's next packet; every credit_batch results, a credit to each
 * child */
static void
rd_results_sent (SextantTorusSim *self,
                 guint            tree,
                 guint            node,
                 gint64           t)
{
  gsize i = (gsize)tree * self->n + node;
  const SextantTorusTreeRow *row;

  if (takes_part (self, tree, node) && self->host_next[i] < self->n_packets)
    rd_host_inject (self, tree, node, t);
  if (++self->sent[i] % self->params.credit_batch != 0)
    return;

  row = &self->rows[tree][node];
  for (guint dir = 0; dir < SEXTANT_TORUS_MAX_DIRS; dir++)
    if (row->dirs & (1u << dir))
      {
        guint child = neighbor (self, node, dir);

        if (self->active[(gsize)tree * self->n + child])
          push (self, sextant_torus_net_link_send (&self->net, node, dir, t, 1, 1) + (self->params.store_and_forward ? 0 : self->cycle),
                EV_RD_CREDIT, tree, child, NO_SOURCE, 0);
      }
}

static void
rd_try_send_up (SextantTorusSim *self,
                guint            tree,
                guint            node,
                gint64           t)
{
  gsize i = (gsize)tree * self->n + node;
  const SextantTorusTreeRow *row = &self->rows[tree][node];
  guint parent = neighbor (self, node, row->to_root);

  while (self->pending_len[i] > 0 && self->credits[i] > 0)
    {
      guint p = self->pending[i * REDUCE_SLOTS + self->pending_head[i]];
      guint flits = packet_flits (self, p);
      gint64 head;

      self->pending_head[i] = (self->pending_head[i] + 1) % REDUCE_SLOTS;
      self->pending_len[i]--;
      self->credits[i]--;
      head = sextant_torus_net_link_send (&self->net, node, row->to_root, t, flits, flits);
      push (self, head + (self->params.store_and_forward ? 0 : flits * self->cycle), EV_RD_CONTRIB, tree, parent,
            NO_SOURCE, p);
      rd_results_sent (self, tree, node, t);
    }
}

static void
rd_contrib (SextantTorusSim *self,
            guint            tree,
            guint            node,
            gint64           t,
            guint            packet)
{
  gsize i = (gsize)tree * self->n + node;
  guint8 *count = &self->count[i * REDUCE_SLOTS + packet % REDUCE_SLOTS];
  gint64 result;

  if (++*count < self->expected[i])
    return;

  *count = 0;
  result = t + self->combine;
  if (node == tree_root (self, tree))
    {
      rd_results_sent (self, tree, node, result);
      if (self->job.op == SEXTANT_TORUS_OP_REDUCE)
        {
          gint64 done = sextant_torus_net_eject (&self->net, node, result, packet_flits (self, packet));

          self->hw_end[node] = MAX (self->hw_end[node], done);
          self->hw_done = MAX (self->hw_done, done);
        }
      else
        hw_down (self, tree, node, result, NO_SOURCE, packet);
      return;
    }

  g_assert (self->pending_len[i] < REDUCE_SLOTS);
  self->pending[i * REDUCE_SLOTS + (self->pending_head[i] + self->pending_len[i]) % REDUCE_SLOTS] = (guint16)packet;
  self->pending_len[i]++;
  rd_try_send_up (self, tree, node, result);
}

static void
hw_start_reduce (SextantTorusSim *self)
{
  for (guint k = 0; k < self->n_trees; k++)
    {
      const guint *order = sextant_torus_tree_get_order (self->trees[k]);
      guint n_in = sextant_torus_tree_get_n_in_tree (self->trees[k]);

      /* bottom-up: a node is active when it or a descendant takes part */
      for (guint j = n_in; j-- > 0;)
        {
          guint v = order[j];
          gsize i = (gsize)k * self->n + v;
          const SextantTorusTreeRow *row = sextant_torus_tree_get_row (self->trees[k], v);

          self->expected[i] += row->pe ? 1 : 0;
          self->active[i] = self->expected[i] > 0;
          self->credits[i] = (guint16)self->params.credits;
          if (self->active[i] && !row->is_root)
            self->expected[(gsize)k * self->n + sextant_torus_tree_get_parent (self->trees[k], v)]++;
        }
    }

  /* a host has at most REDUCE_SLOTS packets of a tree in its router's
   * Reducer (ReduceId); the next goes in when one leaves */
  for (guint p = 0; p < MIN (self->n_packets, REDUCE_SLOTS); p++)
    for (guint k = 0; k < self->n_trees; k++)
      for (guint v = 0; v < self->n; v++)
        if (takes_part (self, k, v))
          rd_host_inject (self, k, v, 0);
}

/* The broadcast's events of a large run miss the cache on the node's row,
 * links, neighbours and ejection channel: fetch them for the event
 * PREFETCH_AHEAD places on while this one runs */
static inline void
prefetch_ahead (const SextantTorusSim *self)
{
  SextantSimEvent next;

  if (!sextant_sim_queue_peek_ahead (self->queue, PREFETCH_AHEAD, &next) ||
      (next.kind != EV_HW_UP && next.kind != EV_HW_DOWN))
    return;
  __builtin_prefetch (&self->rows[next.tree][next.node]);
  __builtin_prefetch (&self->net.link_free[(gsize)next.node * SEXTANT_TORUS_MAX_DIRS], 1);
  __builtin_prefetch (&self->net.neighbors[(gsize)next.node * SEXTANT_TORUS_MAX_DIRS]);
  __builtin_prefetch (&self->net.ej_free[next.node], 1);
  __builtin_prefetch (&self->hw_end[next.node], 1);
}

static void
run_events (SextantTorusSim *self)
{
  SextantSimEvent ev;

  while (sextant_sim_queue_pop (self->queue, &ev))
    {
      prefetch_ahead (self);
      switch (ev.kind)
        {
        case EV_HW_UP:
          hw_up (self, ev.tree, ev.node, ev.time, ev.source, ev.packet);
          break;
        case EV_HW_DOWN:
          hw_down (self, ev.tree, ev.node, ev.time, ev.source, ev.packet);
          break;
        case EV_RD_CONTRIB:
          rd_contrib (self, ev.tree, ev.node, ev.time, ev.packet);
          break;
        case EV_RD_CREDIT:
          self->credits[(gsize)ev.tree * self->n + ev.node] += self->params.credit_batch;
          rd_try_send_up (self, ev.tree, ev.node, ev.time);
          break;
        default:
          _sextant_torus_sim_p2p_event (self, &ev);
        }
    }
  self->n_events = sextant_sim_queue_get_n_pushed (self->queue);
  self->peak_queue = MAX (self->peak_queue, sextant_sim_queue_get_peak (self->queue));
}

static void
run_p2p (SextantTorusSim *self)
{
  _sextant_torus_sim_p2p_start (self);
  run_events (self);
}

/* ---------------------------------------------------------------------- */
/* The run                                                                 */
/* ---------------------------------------------------------------------- */

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static gint64
to_ps (double ns)
{
  return (gint64)llround (ns * 1000.0);
}

static gint64
gcd (gint64 a,
     gint64 b)
{
  while (b != 0)
    {
      gint64 r = a % b;

      a = b;
      b = r;
    }

  return a;
}

/* Every event time is a sum of these constants, so a multiple of their
 * greatest common divisor: the event queue's unit. Below a 64th of a cycle
 * the calendar would step through mostly empty buckets: 0, the heap. */
static gint64
time_unit (const SextantTorusSim *self)
{
  gint64 unit = self->cycle;

  unit = gcd (unit, self->link);
  unit = gcd (unit, self->inj);
  unit = gcd (unit, self->ej);
  unit = gcd (unit, self->host);

  return unit * 64 >= self->cycle ? unit : 0;
}

/**
 * sextant_torus_params_check:
 * @error: SEXTANT_SIM_ERROR_PARAMS naming the parameter out of range
 */
gboolean
sextant_torus_params_check (const SextantTorusParams  *params,
                            GError                   **error)
{
  const char *bad = NULL;

  if (!(params->router_clock_mhz >= 1 && params->router_clock_mhz <= 100000))
    bad = "the router clock must be 1 MHz to 100 GHz";
  else if (!(params->link_latency_ns >= 0 && params->link_latency_ns < 1e9))
    bad = "the link latency must be 0 to 1 s";
  else if (!(params->inject_latency_ns >= 0 && params->inject_latency_ns < 1e9) ||
           !(params->eject_latency_ns >= 0 && params->eject_latency_ns < 1e9))
    bad = "the injection and ejection latencies must be 0 to 1 s";
  else if (!(params->host_overhead_ns >= 0 && params->host_overhead_ns < 1e9))
    bad = "the host overhead must be 0 to 1 s";
  else if (params->router_cycles > 1000000 || params->combine_cycles > 1000000)
    bad = "router and combine cycles must be at most 1000000";
  else if (params->credits < 1 || params->credits > REDUCE_SLOTS)
    bad = "credits must be 1 to 16 (ReduceId 0..15)";
  else if (params->credit_batch < 1 || params->credit_batch > params->credits)
    bad = "a credit's batch must be 1 to the credits";
  if (bad == NULL)
    return TRUE;

  g_set_error_literal (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_PARAMS, bad);
  return FALSE;
}

/**
 * sextant_torus_net_init_params:
 *
 * sextant_torus_net_init () with the times of @params, in picoseconds as
 * the model rounds them.
 */
void
sextant_torus_net_init_params (SextantTorusNet          *net,
                               SextantTorus             *torus,
                               const SextantTorusParams *params)
{
  gint64 cycle = (gint64)llround (1e6 / params->router_clock_mhz);

  sextant_torus_net_init (net, torus, cycle, to_ps (params->link_latency_ns) + cycle * params->router_cycles,
                          to_ps (params->inject_latency_ns), to_ps (params->eject_latency_ns),
                          params->store_and_forward);
}

/* Checks @job and @params, builds the trees and the resources: a run
 * ready to start (either model) */
SextantTorusSim *
_sextant_torus_sim_new (SextantTorus              *torus,
                        const SextantTorusParams  *params,
                        const SextantTorusJob     *job,
                        GError                   **error)
{
  g_autoptr(SextantTorusSim) self = NULL;
  SextantTorusParams defaults;
  guint n = sextant_torus_get_n_nodes (torus);
  guint n_trees;

  if (params == NULL)
    {
      sextant_torus_params_init (&defaults);
      params = &defaults;
    }
  if (!sextant_torus_params_check (params, error))
    return NULL;
  if (job->bytes < 1 || job->bytes > SEXTANT_TORUS_MAX_BYTES)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_SIZE,
                   "the message size must be 1 to %" G_GUINT64_FORMAT " bytes, not %" G_GUINT64_FORMAT,
                   SEXTANT_TORUS_MAX_BYTES, job->bytes);
      return NULL;
    }
  if (job->root >= n)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_NODE,
                   "root %u is not a node of the torus (0 to %u)", job->root, n - 1);
      return NULL;
    }
  n_trees = job->n_trees != 0 ? job->n_trees
            : job->op == SEXTANT_TORUS_OP_ALLGATHER ? MIN (SEXTANT_TORUS_MAX_TREES, n) : 1;
  if (n_trees > SEXTANT_TORUS_MAX_TREES || n_trees > n)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_SIZE,
                   "the router has 1 to %u trees (and a torus of %u nodes at most %u roots), not %u",
                   SEXTANT_TORUS_MAX_TREES, n, MIN (n, SEXTANT_TORUS_MAX_TREES), n_trees);
      return NULL;
    }
  if (job->op == SEXTANT_TORUS_OP_ALLGATHER && (n & (n - 1)) != 0)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_SIZE,
                   "the all-gather's point-to-point side is recursive doubling, which needs a power-of-two "
                   "node count, not %u", n);
      return NULL;
    }

  self = g_new0 (SextantTorusSim, 1);
  self->torus = sextant_torus_ref (torus);
  self->params = *params;
  self->job = *job;
  self->job.n_trees = n_trees;
  self->n = n;
  self->n_trees = n_trees;
  self->n_packets = (guint)((job->bytes + SEXTANT_TORUS_PACKET_BYTES - 1) / SEXTANT_TORUS_PACKET_BYTES);
  self->last_flits = (guint)((job->bytes - (guint64)(self->n_packets - 1) * SEXTANT_TORUS_PACKET_BYTES +
                              SEXTANT_TORUS_FLIT_BYTES - 1) / SEXTANT_TORUS_FLIT_BYTES);
  self->message_flits = (job->bytes + SEXTANT_TORUS_FLIT_BYTES - 1) / SEXTANT_TORUS_FLIT_BYTES;
  for (self->steps = 0; (1u << self->steps) < n; self->steps++)
    ;

  self->cycle = (gint64)llround (1e6 / params->router_clock_mhz);
  self->link = to_ps (params->link_latency_ns);
  self->inj = to_ps (params->inject_latency_ns);
  self->ej = to_ps (params->eject_latency_ns);
  self->router = self->cycle * params->router_cycles;
  self->combine = self->cycle * params->combine_cycles;
  self->host = to_ps (params->host_overhead_ns);

  for (guint k = 0; k < n_trees; k++)
    {
      guint root = (guint)((job->root + (guint64)k * n / n_trees) % n);

      if (!(self->trees[k] = sextant_torus_tree_new_dimension_order (torus, root, error)))
        return NULL;
      for (guint t = 0; t < job->n_transit; t++)
        {
          if (job->transit[t] == root)
            {
              g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_NODE,
                           "node %u is the root of tree %u: a root takes part, it cannot be a transit node",
                           root, k);
              return NULL;
            }
          if (!sextant_torus_tree_set_transit (self->trees[k], job->transit[t], error))
            return NULL;
        }
    }
  for (guint k = 0; k < n_trees; k++)
    self->rows[k] = sextant_torus_tree_get_rows (self->trees[k]);
  if (job->n_transit > 0)
    {
      self->transit = g_memdup2 (job->transit, sizeof (guint) * job->n_transit);
      self->job.transit = self->transit;
    }

  sextant_torus_net_init_params (&self->net, torus, params);
  self->hw_end = g_new0 (gint64, n);
  self->p2p_end = g_new0 (gint64, n);

  return g_steal_pointer (&self);
}

/* The packet model's run of a set-up @self */
static gboolean
packet_run (SextantTorusSim  *self,
            GError          **error)
{
  const SextantTorusJob *job = &self->job;
  guint n = self->n;
  guint64 estimate;

  estimate = (guint64)self->n_packets * n * (job->op == SEXTANT_TORUS_OP_ALLGATHER ? n : 4 * self->n_trees);
  if (estimate > MAX_EVENTS)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TOO_BIG,
                   "%s of %" G_GUINT64_FORMAT " bytes on %u nodes would take about %" G_GUINT64_FORMAT
                   " events, more than the packet model's limit of %" G_GUINT64_FORMAT
                   " (an all-gather grows with the square of the nodes; --model flow runs it)",
                   sextant_torus_op_to_string (job->op), job->bytes, n, estimate, MAX_EVENTS);
      return FALSE;
    }

  self->queue = sextant_sim_queue_new (time_unit (self));
  if (job->record)
    self->messages = g_array_new (FALSE, FALSE, sizeof (SextantTorusMessage));
  {
    gsize total = (gsize)self->n_trees * n;

    self->count = g_new0 (guint8, total * REDUCE_SLOTS);
    if (job->op == SEXTANT_TORUS_OP_REDUCE || job->op == SEXTANT_TORUS_OP_ALLREDUCE)
      {
        self->active = g_new0 (guint8, total);
        self->expected = g_new0 (guint8, total);
        self->credits = g_new0 (guint16, total);
        self->sent = g_new0 (guint32, total);
        self->pending = g_new (guint16, total * REDUCE_SLOTS);
        self->pending_head = g_new0 (guint8, total);
        self->pending_len = g_new0 (guint8, total);
        self->host_next = g_new0 (guint16, total);
      }
  }

  /* the hardware run */
  switch (job->op)
    {
    case SEXTANT_TORUS_OP_BCAST:
      for (guint k = 0; k < self->n_trees; k++)
        hw_start_bcast (self, k, tree_root (self, k));
      break;
    case SEXTANT_TORUS_OP_ALLGATHER:
      for (guint p = 0; p < self->n_packets; p++)
        for (guint v = 0; v < n; v++)
          {
            gint64 head = sextant_torus_net_inject (&self->net, v, 0, packet_flits (self, p), NULL);

            push (self, head, EV_HW_UP, v % self->n_trees, v, v, p);
          }
      break;
    case SEXTANT_TORUS_OP_REDUCE:
    case SEXTANT_TORUS_OP_ALLREDUCE:
      hw_start_reduce (self);
      break;
    }
  run_events (self);

  /* the point-to-point run, on an idle network */
  sextant_torus_net_reset (&self->net);
  g_clear_pointer (&self->queue, sextant_sim_queue_free);
  self->queue = sextant_sim_queue_new (time_unit (self));
  {
    guint64 hw_events = self->n_events;

    run_p2p (self);
    self->n_events += hw_events;
  }
  g_clear_pointer (&self->queue, sextant_sim_queue_free);

  return TRUE;
}

/**
 * sextant_torus_sim_run:
 * @torus: (transfer none): the torus (the result keeps a reference)
 * @params: (nullable): the model's parameters; NULL: the defaults
 * @job: what to run, and with which model (@job->model)
 * @error: SEXTANT_SIM_ERROR_NODE (root or transit node not in the torus,
 *   root transit), _SIZE (bytes, trees; an all-gather's point-to-point
 *   side needs a power-of-two node count), _PARAMS (also: the flow model
 *   asked for another operation than the all-gather, or to record),
 *   _TOO_BIG
 *
 * Runs @job through the hardware trees, then through point-to-point
 * messages over the same trees, each on an idle network: packet by packet
 * (SEXTANT_TORUS_MODEL_PACKET) or as flows sharing the resources
 * (SEXTANT_TORUS_MODEL_FLOW, sextant-torus-flow.c). Runs in the calling
 * thread; the result is immutable.
 *
 * Returns: (transfer full) (nullable): the result
 */
SextantTorusSim *
sextant_torus_sim_run (SextantTorus              *torus,
                       const SextantTorusParams  *params,
                       const SextantTorusJob     *job,
                       GError                   **error)
{
  g_autoptr(SextantTorusSim) self = NULL;
  double started = cpu_seconds ();

  g_return_val_if_fail (torus != NULL && job != NULL, NULL);

  if (job->model == SEXTANT_TORUS_MODEL_FLOW && !_sextant_torus_flow_check (job, error))
    return NULL;
  if (!(self = _sextant_torus_sim_new (torus, params, job, error)))
    return NULL;
  if (job->model == SEXTANT_TORUS_MODEL_FLOW)
    _sextant_torus_flow_run (self);
  else if (!packet_run (self, error))
    return NULL;
  self->cpu_seconds = cpu_seconds () - started;

  return g_steal_pointer (&self);
}

void
sextant_torus_sim_free (SextantTorusSim *self)
{
  if (self == NULL)
    return;

  for (guint k = 0; k < SEXTANT_TORUS_MAX_TREES; k++)
    g_clear_pointer (&self->trees[k], sextant_torus_tree_free);
  g_clear_pointer (&self->queue, sextant_sim_queue_free);
  g_clear_pointer (&self->messages, g_array_unref);
  sextant_torus_unref (self->torus);
  g_free (self->transit);
  sextant_torus_net_clear (&self->net);
  g_free (self->hw_end);
  g_free (self->p2p_end);
  g_free (self->active);
  g_free (self->expected);
  g_free (self->count);
  g_free (self->credits);
  g_free (self->sent);
  g_free (self->pending);
  g_free (self->pending_head);
  g_free (self->pending_len);
  g_free (self->host_next);
  g_free (self->anc);
  g_free (self->kid_start);
  g_free (self->kids);
  g_free (self->kid_count);
  g_free (self->cur_step);
  g_free (self->recv_time);
  g_free (self->inj_end);
  g_free (self);
}

SextantTorus *
sextant_torus_sim_get_torus (const SextantTorusSim *self)
{
  return self->torus;
}

/* Returns: (transfer none): the job as run (n_trees filled in) */
const SextantTorusJob *
sextant_torus_sim_get_job (const SextantTorusSim *self)
{
  return &self->job;
}

const SextantTorusTree *
sextant_torus_sim_get_tree (const SextantTorusSim *self,
                            guint                  tree)
{
  g_return_val_if_fail (tree < self->n_trees, NULL);

  return self->trees[tree];
}

guint
sextant_torus_sim_get_n_trees (const SextantTorusSim *self)
{
  return self->n_trees;
}

/* Returns: the hardware run's completion time, ps */
gint64
sextant_torus_sim_get_hw_ps (const SextantTorusSim *self)
{
  return self->hw_done;
}

/* Returns: the point-to-point run's completion time, ps */
gint64
sextant_torus_sim_get_p2p_ps (const SextantTorusSim *self)
{
  return self->p2p_done;
}

/* Returns: point-to-point time over hardware time */
double
sextant_torus_sim_get_ratio (const SextantTorusSim *self)
{
  return self->hw_done > 0 ? (double)self->p2p_done / (double)self->hw_done : 0;
}

guint
sextant_torus_sim_get_n_packets (const SextantTorusSim *self)
{
  return self->n_packets;
}

/* Returns: the events of both runs */
guint64
sextant_torus_sim_get_n_events (const SextantTorusSim *self)
{
  return self->n_events;
}

/* Returns: the CPU time of the process during sextant_torus_sim_run () */
double
sextant_torus_sim_get_cpu_seconds (const SextantTorusSim *self)
{
  return self->cpu_seconds;
}

gsize
sextant_torus_sim_get_peak_queue (const SextantTorusSim *self)
{
  return self->peak_queue;
}

/* Returns: the flow model's progressive-filling rounds (0: packet model) */
guint64
sextant_torus_sim_get_flow_iterations (const SextantTorusSim *self)
{
  return self->flow_iterations;
}

/* Returns: the most (flow, resource) pairs the flow model held at once */
guint64
sextant_torus_sim_get_flow_entries (const SextantTorusSim *self)
{
  return self->flow_entries;
}

const char *
sextant_torus_sim_get_p2p_algorithm (const SextantTorusSim *self)
{
  return self->p2p_algorithm;
}

/* Returns: (transfer none): per node, when its part of the hardware run ended (ps) */
const gint64 *
sextant_torus_sim_get_hw_end (const SextantTorusSim *self)
{
  return self->hw_end;
}

/* Returns: (transfer none): per node, when its part of the point-to-point run ended (ps) */
const gint64 *
sextant_torus_sim_get_p2p_end (const SextantTorusSim *self)
{
  return self->p2p_end;
}

/* Returns: (transfer none) (nullable): the point-to-point messages, with job->record */
const GArray *
sextant_torus_sim_get_messages (const SextantTorusSim *self)
{
  return self->messages;
}

/* Returns: whether @node's processor takes part (is not a transit node) */
gboolean
sextant_torus_sim_is_member (const SextantTorusSim *self,
                             guint                  node)
{
  return takes_part (self, 0, node);
}
