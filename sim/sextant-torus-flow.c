/*
 * sextant-torus-flow.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The flow-level model of the all-gather (`sextant sim torus --model
 * flow`, docs/sim.md): the packet model's resources (every directed link,
 * every injection and ejection channel, one flit per router cycle) shared
 * by flows instead of packets, the way SimGrid's fluid models do it. A
 * flow has a volume (flits) and a rate; it takes a share of its rate on
 * each resource it crosses (its coefficient there), and the rates are
 * max-min fair: progressive filling raises every flow's rate alike until a
 * resource is full, freezes the flows crossing it, and goes on with the
 * others. When a flow has passed its volume the others are filled again.
 *
 * The hardware all-gather: one flow per tree, its volume every piece of
 * the tree (node i's on tree i mod K). It crosses each source's injection
 * channel with 1/S of its rate (S pieces on the tree), each up-link of the
 * tree with the share of the sources below it, every down-link of the tree
 * whole (the routers copy), and every taking-part node's ejection channel
 * with the share of the pieces not its own. So a tree's pieces move at one
 * rate, and the model holds O(nodes x trees) pairs of flow and resource.
 * A node has its tree's pieces one injection latency, its depth's hops and
 * one ejection latency after the flow has passed, or after the farthest
 * source's piece could reach the root, whichever is later.
 *
 * The point-to-point all-gather: recursive doubling as
 * sextant-torus-p2p.c, as rounds: in step s every node's message of 2^s
 * pieces is a flow over its injection channel, its dimension-ordered route
 * and the partner's ejection channel; a message arrives its latencies
 * (injection, hops, ejection) after its flow has passed; a round ends with
 * its last message, the next starts the host overhead later.
 *
 * What flows cannot see: the packets' order at a resource (the packet
 * model's results depend on it), the gaps it leaves, and that nodes of the
 * packet model start their next doubling step as soon as they have their
 * partner's message rather than all together.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-torus-sim-private.h"

/* A resource with less capacity left than this is full; a flow with less
 * volume left (relative) is done */
#define FULL   1e-9

enum { RUNNING, FROZEN, DONE };

typedef struct
{
  guint   n;          /* nodes: resources are n x 8 links, n injection, n ejection */
  GArray *first;      /* guint per flow: its first entry; one more, the end */
  GArray *res;        /* guint per entry: the resource */
  GArray *coef;       /* float per entry: the share of the flow's rate on it */
  GArray *volume;     /* double per flow: flits */
  double *finish;     /* per flow: cycles until its volume has passed */
  guint  *limit;      /* per flow: the resource that froze it first (its bottleneck at time 0) */
  double *cap;        /* per resource: capacity left (flits per cycle) */
  double *load;       /* per resource: the coefficients of unfrozen flows */
  guint64 iterations;
  guint64 peak_entries;
} FlowSet;

static inline guint
link_res (guint node,
          guint dir)
{
  return node * SEXTANT_TORUS_MAX_DIRS + dir;
}

static inline guint
inj_res (const FlowSet *fs,
         guint          node)
{
  return fs->n * SEXTANT_TORUS_MAX_DIRS + node;
}

static inline guint
ej_res (const FlowSet *fs,
        guint          node)
{
  return fs->n * (SEXTANT_TORUS_MAX_DIRS + 1) + node;
}

static void
flow_set_init (FlowSet *fs,
               guint    n,
               gsize    entries)
{
  gsize n_res = (gsize)n * (SEXTANT_TORUS_MAX_DIRS + 2);

  *fs = (FlowSet) {
    .n = n,
    .first = g_array_new (FALSE, FALSE, sizeof (guint)),
    .res = g_array_sized_new (FALSE, FALSE, sizeof (guint), (guint)entries),
    .coef = g_array_sized_new (FALSE, FALSE, sizeof (float), (guint)entries),
    .volume = g_array_new (FALSE, FALSE, sizeof (double)),
    .cap = g_new (double, n_res),
    .load = g_new (double, n_res),
  };
}

static void
flow_set_clear (FlowSet *fs)
{
  g_array_unref (fs->first);
  g_array_unref (fs->res);
  g_array_unref (fs->coef);
  g_array_unref (fs->volume);
  g_free (fs->finish);
  g_free (fs->limit);
  g_free (fs->cap);
  g_free (fs->load);
}

/* Empties @fs for the next set of flows */
static void
flow_set_reset (FlowSet *fs)
{
  g_array_set_size (fs->first, 0);
  g_array_set_size (fs->res, 0);
  g_array_set_size (fs->coef, 0);
  g_array_set_size (fs->volume, 0);
}

/* Starts a flow of @flits; flow_use () adds its resources */
static void
flow_add (FlowSet *fs,
          double   flits)
{
  guint at = fs->res->len;

  g_array_append_val (fs->first, at);
  g_array_append_val (fs->volume, flits);
}

static inline void
flow_use (FlowSet *fs,
          guint    res,
          double   share)
{
  float c = (float)share;

  g_array_append_val (fs->res, res);
  g_array_append_val (fs->coef, c);
}

/* Max-min fair rates of the flows not done, by progressive filling */
static void
flow_set_fill (FlowSet *fs,
               double  *rate,
               guint8  *state,
               gboolean first_fill)
{
  gsize n_res = (gsize)fs->n * (SEXTANT_TORUS_MAX_DIRS + 2);
  guint n_flows = fs->volume->len;
  const guint *first = (const guint *)(gpointer)fs->first->data;
  const guint *res = (const guint *)(gpointer)fs->res->data;
  const float *coef = (const float *)(gpointer)fs->coef->data;
  guint n_unfrozen = 0;

  for (guint f = 0; f < n_flows; f++)
    {
      rate[f] = 0;
      if (state[f] != DONE)
        {
          state[f] = RUNNING;
          n_unfrozen++;
        }
    }
  for (gsize j = 0; j < n_res; j++)
    fs->cap[j] = 1;

  while (n_unfrozen > 0)
    {
      double delta = INFINITY;

      memset (fs->load, 0, n_res * sizeof (double));
      for (guint f = 0; f < n_flows; f++)
        if (state[f] == RUNNING)
          for (guint e = first[f]; e < first[f + 1]; e++)
            fs->load[res[e]] += coef[e];
      for (gsize j = 0; j < n_res; j++)
        if (fs->load[j] > 0)
          delta = MIN (delta, fs->cap[j] / fs->load[j]);
      g_assert (isfinite (delta));
      for (gsize j = 0; j < n_res; j++)
        if (fs->load[j] > 0)
          fs->cap[j] -= fs->load[j] * delta;
      for (guint f = 0; f < n_flows; f++)
        if (state[f] == RUNNING)
          {
            rate[f] += delta;
            for (guint e = first[f]; e < first[f + 1]; e++)
              if (fs->cap[res[e]] <= FULL)
                {
                  if (first_fill)
                    fs->limit[f] = res[e];
                  state[f] = FROZEN;
                  n_unfrozen--;
                  break;
                }
          }
      fs->iterations++;
    }
}

/* Runs the flows from time 0 to the last one's end: fs->finish */
static void
flow_set_run (FlowSet *fs)
{
  guint n_flows = fs->volume->len;
  const double *volume = (const double *)(gpointer)fs->volume->data;
  g_autofree double *rate = g_new (double, n_flows);
  g_autofree double *left = g_memdup2 (volume, sizeof (double) * n_flows);
  g_autofree guint8 *state = g_new0 (guint8, n_flows);
  guint n_running = n_flows;
  double now = 0;

  g_array_append_val (fs->first, fs->res->len);
  fs->peak_entries = MAX (fs->peak_entries, fs->res->len);
  fs->finish = g_renew (double, fs->finish, n_flows);
  fs->limit = g_renew (guint, fs->limit, n_flows);
  while (n_running > 0)
    {
      double dt = INFINITY;
      guint next = 0;

      flow_set_fill (fs, rate, state, n_running == n_flows);
      for (guint f = 0; f < n_flows; f++)
        if (state[f] != DONE && left[f] / rate[f] < dt)
          {
            dt = left[f] / rate[f];
            next = f;
          }
      now += dt;
      for (guint f = 0; f < n_flows; f++)
        if (state[f] != DONE)
          {
            left[f] -= rate[f] * dt;
            if (f == next || left[f] <= FULL * volume[f])
              {
                state[f] = DONE;
                fs->finish[f] = now;
                n_running--;
              }
          }
    }
}

/* From a head leaving a router to it leaving the next: with
 * store-and-forward, a packet's worth of @flits more (as
 * sextant_torus_net_link_send () and sextant_torus_net_route ()) */
static gint64
hop_ps (const SextantTorusSim *self,
        guint64                flits)
{
  return self->net.hop + (self->params.store_and_forward ? (gint64)MIN (flits, SEXTANT_TORUS_PACKET_FLITS) * self->cycle : 0);
}

static gint64
cycles_to_ps (const SextantTorusSim *self,
              double                 cycles)
{
  return (gint64)llround (cycles * (double)self->cycle);
}

/* The hardware all-gather: a flow per tree */
static void
flow_hardware (SextantTorusSim *self,
               FlowSet         *fs)
{
  guint n = self->n;
  guint n_trees = self->n_trees;
  gint64 hop = hop_ps (self, self->message_flits);
  g_autofree guint *below = g_new (guint, n);
  guint up[SEXTANT_TORUS_MAX_TREES];
  gint64 passed[SEXTANT_TORUS_MAX_TREES];

  for (guint k = 0; k < n_trees; k++)
    {
      const SextantTorusTree *tree = self->trees[k];
      const SextantTorusTreeRow *rows = self->rows[k];
      const guint *order = sextant_torus_tree_get_order (tree);
      guint n_in = sextant_torus_tree_get_n_in_tree (tree);
      guint sources = (n - k + n_trees - 1) / n_trees;

      /* the sources (node i's piece is on tree i mod K) below each node */
      up[k] = 0;
      for (guint j = 0; j < n_in; j++)
        below[order[j]] = order[j] % n_trees == k;
      for (guint j = n_in; j-- > 1;)
        {
          guint v = order[j];

          below[neighbor (self, v, rows[v].to_root)] += below[v];
          if (v % n_trees == k)
            up[k] = MAX (up[k], sextant_torus_tree_get_node_depth (tree, v));
        }

      flow_add (fs, (double)sources * (double)self->message_flits);
      for (guint j = 0; j < n_in; j++)
        {
          guint v = order[j];
          gboolean source = v % n_trees == k;

          if (source)
            flow_use (fs, inj_res (fs, v), 1.0 / sources);
          if (!rows[v].is_root && below[v] > 0)
            flow_use (fs, link_res (v, rows[v].to_root), (double)below[v] / sources);
          for (guint dir = 0; dir < SEXTANT_TORUS_MAX_DIRS; dir++)
            if (rows[v].dirs & (1u << dir))
              flow_use (fs, link_res (v, dir), 1);
          if (rows[v].pe && sources > (source ? 1u : 0u))
            flow_use (fs, ej_res (fs, v), (double)(sources - (source ? 1 : 0)) / sources);
        }
    }
  flow_set_run (fs);

  /* Tree k's stream reaches node v the injection latency and its
   * depth's hops after it passed the root: once the tree's flow has
   * passed (or its farthest source's piece could reach the root), or, if
   * the flow's bottleneck is an ejection channel, the trees' streams end
   * at v's channel: it cannot end before any tree's stream arrives (a hop
   * away at least) plus the pieces of the trees arriving as late or later */
  for (guint k = 0; k < n_trees; k++)
    {
      gint64 piece = (gint64)self->message_flits * self->cycle;

      passed[k] = fs->limit[k] >= ej_res (fs, 0) ? piece : cycles_to_ps (self, fs->finish[k]);
      passed[k] = MAX (passed[k], (gint64)up[k] * hop + piece);
    }
  for (guint v = 0; v < n; v++)
    {
      guint depth[SEXTANT_TORUS_MAX_TREES];
      gint64 work[SEXTANT_TORUS_MAX_TREES];
      guint m = 0;
      gint64 done = 0, late = 0;

      if (!self->rows[0][v].pe)
        continue;
      for (guint k = 0; k < n_trees; k++)
        {
          guint sources = (n - k + n_trees - 1) / n_trees - (v % n_trees == k ? 1 : 0);
          guint d = sextant_torus_tree_get_node_depth (self->trees[k], v);
          guint j;

          if (sources == 0)
            continue;
          done = MAX (done, passed[k] + (gint64)d * hop);
          /* sorted by depth, deepest first */
          for (j = m++; j > 0 && depth[j - 1] < d; j--)
            {
              depth[j] = depth[j - 1];
              work[j] = work[j - 1];
            }
          depth[j] = d;
          work[j] = (gint64)sources * (gint64)self->message_flits * self->cycle;
        }
      for (guint j = 0; j < m; j++)
        {
          late += work[j];
          done = MAX (done, (gint64)MAX (depth[j], 1) * hop + late);
        }
      if (m == 0)
        continue;
      done += self->inj + self->ej;
      self->hw_end[v] = done;
      self->hw_done = MAX (self->hw_done, done);
    }
}

/* Adds the links of the dimension-ordered route from @u to @v to the
 * current flow (the route of sextant_torus_net_route ()); returns its hops */
static guint
flow_use_route (SextantTorusSim *self,
                FlowSet         *fs,
                guint            u,
                guint            v)
{
  guint hops = 0;

  for (guint d = 0; d < sextant_torus_get_n_dims (self->torus); d++)
    {
      int offset = sextant_torus_get_offset (self->torus, u, v, d);
      guint dir = SEXTANT_TORUS_DIR (d, offset < 0);

      for (int h = ABS (offset); h > 0; h--, hops++)
        {
          flow_use (fs, link_res (u, dir), 1);
          u = neighbor (self, u, dir);
        }
    }

  return hops;
}

/* Recursive doubling, a round of flows per step */
static void
flow_p2p (SextantTorusSim *self,
          FlowSet         *fs)
{
  guint n = self->n;
  g_autofree guint *hops = g_new (guint, n);
  gint64 start = 0;

  self->p2p_algorithm = "recursive doubling";
  for (guint step = 0; step < self->steps; step++)
    {
      guint64 bytes = self->job.bytes << step;
      guint64 flits = (bytes + SEXTANT_TORUS_FLIT_BYTES - 1) / SEXTANT_TORUS_FLIT_BYTES;
      gint64 hop = hop_ps (self, flits);
      gint64 round = 0;

      flow_set_reset (fs);
      for (guint u = 0; u < n; u++)
        {
          guint v = u ^ (1u << step);

          flow_add (fs, (double)flits);
          flow_use (fs, inj_res (fs, u), 1);
          hops[u] = flow_use_route (self, fs, u, v);
          flow_use (fs, ej_res (fs, v), 1);
        }
      flow_set_run (fs);
      for (guint u = 0; u < n; u++)
        {
          guint v = u ^ (1u << step);
          gint64 done = self->inj + cycles_to_ps (self, fs->finish[u]) + (gint64)hops[u] * hop + self->ej;

          self->p2p_end[v] = MAX (self->p2p_end[v], start + done);
          round = MAX (round, done);
        }
      start += round;
      self->p2p_done = start;
      if (step + 1 < self->steps)
        start += self->host;
    }
}

/**
 * _sextant_torus_flow_check:
 * @error: SEXTANT_SIM_ERROR_PARAMS: the flow model asked for another
 *   operation than the all-gather, or to record a trace
 */
gboolean
_sextant_torus_flow_check (const SextantTorusJob  *job,
                           GError                **error)
{
  if (job->op != SEXTANT_TORUS_OP_ALLGATHER)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_PARAMS,
                   "the flow model runs the all-gather only, not %s: the packet model (--model packet) "
                   "runs it exactly, in milliseconds", sextant_torus_op_to_string (job->op));
      return FALSE;
    }
  if (job->record)
    {
      g_set_error_literal (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_PARAMS,
                           "the flow model has no packets or messages to trace: --trace needs --model packet");
      return FALSE;
    }

  return TRUE;
}

/* Runs the all-gather of a set-up @self as flows: both sides */
void
_sextant_torus_flow_run (SextantTorusSim *self)
{
  FlowSet fs;

  /* per tree: about a down-link, an up-link and an ejection per node */
  flow_set_init (&fs, self->n, (gsize)self->n_trees * (3 * (gsize)self->n + self->n / self->n_trees + 1));
  flow_hardware (self, &fs);
  flow_set_reset (&fs);
  flow_p2p (self, &fs);
  self->flow_iterations = fs.iterations;
  self->flow_entries = fs.peak_entries;
  flow_set_clear (&fs);
}
