/*
 * sextant-torus-replay.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Replays a recorded MPI run on a modelled torus, twice: collectives
 * through the hardware trees, then as point-to-point trees.
 *
 * Each rank runs on its own torus node (--map) and goes through its
 * recorded MPI calls in order. The time between two calls (computation) is
 * the recorded one; a call's duration is predicted:
 *  - a send injects the message at its host (the call goes on when the
 *    host has injected it all), the message is routed in dimension order
 *    over the torus's links and ejected at the receiver's host, each link
 *    and channel a FIFO server shared by every message (sextant-torus-net.h);
 *  - a receive's completion waits for the message's arrival;
 *  - a collective ends when its last member has arrived plus the model's
 *    time for it (sextant_torus_sim_run () on an idle torus, the
 *    non-members as transit nodes, one tree rooted at the root's node): the
 *    hardware tree's time in one replay, point-to-point over the same tree
 *    in the other; collectives the trees do not do keep their recorded
 *    duration in both;
 *  - a call with none of these keeps its recorded duration.
 * The records (send, receive completion, collective begin) belong to the
 * call of their rank around their time; a call's records run in time
 * order. A rank ends its recorded tail after its last call.
 *
 * The replay is a discrete-event run: a rank waits in the event queue for
 * its next call or a message or collective it needs.
 *
 * Workload: O(calls + messages + members) events and one model run per
 * distinct collective (communicator, op, root, size).
 */
#include "config.h"

#include <string.h>

#include "sextant-sim-queue.h"
#include "sextant-torus-replay.h"

#define NONE G_MAXUINT

enum
{
  OP_SEND,
  OP_COLLECTIVE,
  OP_RECV,
};

typedef struct
{
  guint  call;
  guint  kind;
  guint  index;
  gint64 time;
} Op;

typedef struct
{
  guint    first_op;
  guint    n_ops;
} CallOps;

typedef struct
{
  guint    next;        /* its next call (index into calls) */
  guint    op;          /* the op it is at, in a call */
  gboolean in_call;
  gboolean in_collective;
  gint64   cur;
  gint64   prev_leave;  /* recorded leave of its previous call */
  gint64   end;
} RankState;

typedef struct
{
  guint  arrived;
  gint64 latest;
  gint64 done;
} CollectiveState;

struct _SextantTorusReplay
{
  SextantTorus             *torus;
  SextantTorusParams        params;
  guint                     n_ranks;
  gint64                    recorded;
  guint                    *node;        /* per rank */
  GArray                   *calls;       /* sorted by rank, then enter */
  guint                    *rank_first;  /* CSR of calls per rank */
  CallOps                  *call_ops;
  GArray                   *ops;
  GArray                   *messages;
  GArray                   *collectives;
  GArray                   *members;
  GHashTable               *model_cache;  /* key -> gint64[2] */
  guint                     n_modelled;

  gint64                    total[SEXTANT_REPLAY_N_KINDS];
  gint64                    collective_ps[SEXTANT_REPLAY_N_KINDS];
  SextantReplayCallTimes   *times[SEXTANT_REPLAY_N_KINDS];
  gint64                   *arrivals[SEXTANT_REPLAY_N_KINDS];
  /* for the trace: per op, when its record happens (a send's start, a
   * receive's completion, a member's arrival); per collective, its end */
  gint64                   *op_time[SEXTANT_REPLAY_N_KINDS];
  gint64                   *coll_done[SEXTANT_REPLAY_N_KINDS];
};

/* One replay's state */
typedef struct
{
  SextantTorusReplay *self;
  SextantReplayKind   kind;
  SextantTorusNet     net;
  SextantSimQueue    *queue;
  RankState          *ranks;
  CollectiveState    *coll;
  guint              *waiter;    /* per message: the rank waiting for it */
  GError             *error;
} Run;

gboolean
sextant_replay_map_from_string (const char       *text,
                                SextantReplayMap *map)
{
  static const char * const names[] = { "linear", "spread" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (text, names[i]))
      {
        *map = (SextantReplayMap)i;
        return TRUE;
      }

  return FALSE;
}

static int
compare_calls (gconstpointer a,
               gconstpointer b)
{
  const SextantReplayCall *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->enter < y->enter ? -1 : x->enter > y->enter ? 1 : 0;
}

static int
compare_ops (gconstpointer a,
             gconstpointer b)
{
  const Op *x = a, *y = b;

  if (x->call != y->call)
    return x->call < y->call ? -1 : 1;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/* Returns: the call of @rank around @time, or NONE */
static guint
find_call (SextantTorusReplay *self,
           guint               rank,
           gint64              time)
{
  guint lo = self->rank_first[rank], hi = self->rank_first[rank + 1];

  /* the last call that entered at or before @time */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->calls, SextantReplayCall, mid).enter <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == self->rank_first[rank] || g_array_index (self->calls, SextantReplayCall, lo - 1).leave < time)
    return NONE;

  return lo - 1;
}

static gboolean
add_op (SextantTorusReplay  *self,
        guint                rank,
        guint                kind,
        guint                index,
        gint64               time,
        GError             **error)
{
  static const char * const what[] = { "the send of message", "collective", "the receive of message" };
  Op op = { find_call (self, rank, time), kind, index, time };

  if (rank >= self->n_ranks || op.call == NONE)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_REPLAY,
                   "%s %u (rank %u, at %" G_GINT64_FORMAT " ps) is in none of the rank's MPI calls",
                   what[kind], index, rank, time);
      return FALSE;
    }
  g_array_append_val (self->ops, op);

  return TRUE;
}

/* Sorts the calls per rank and hangs every record on its call */
static gboolean
index_input (SextantTorusReplay  *self,
             GError             **error)
{
  guint n_calls = self->calls->len;

  g_array_sort (self->calls, compare_calls);
  self->rank_first = g_new0 (guint, self->n_ranks + 1);
  for (guint i = 0; i < n_calls; i++)
    {
      const SextantReplayCall *c = &g_array_index (self->calls, SextantReplayCall, i);

      if (c->rank >= self->n_ranks || c->leave < c->enter)
        {
          g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_REPLAY,
                       "call %s of rank %u: not a rank of the run, or it leaves before it enters", c->name, c->rank);
          return FALSE;
        }
      self->rank_first[c->rank + 1]++;
    }
  for (guint r = 0; r < self->n_ranks; r++)
    self->rank_first[r + 1] += self->rank_first[r];

  self->ops = g_array_new (FALSE, FALSE, sizeof (Op));
  for (guint m = 0; m < self->messages->len; m++)
    {
      const SextantReplayMessage *msg = &g_array_index (self->messages, SextantReplayMessage, m);

      if (!add_op (self, msg->from, OP_SEND, m, msg->send_time, error) ||
          !add_op (self, msg->to, OP_RECV, m, msg->recv_time, error))
        return FALSE;
    }
  for (guint k = 0; k < self->collectives->len; k++)
    {
      const SextantReplayCollective *c = &g_array_index (self->collectives, SextantReplayCollective, k);

      for (guint j = 0; j < c->n_members; j++)
        {
          const SextantReplayMember *m = &g_array_index (self->members, SextantReplayMember, c->first_member + j);

          if (!add_op (self, m->rank, OP_COLLECTIVE, k, m->time, error))
            return FALSE;
        }
    }
  g_array_sort (self->ops, compare_ops);

  self->call_ops = g_new0 (CallOps, MAX (n_calls, 1));
  for (guint i = self->ops->len; i-- > 0;)
    {
      const Op *op = &g_array_index (self->ops, Op, i);

      self->call_ops[op->call].first_op = i;
      self->call_ops[op->call].n_ops++;
    }

  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Collectives                                                             */
/* ---------------------------------------------------------------------- */

/* Returns: the model's (hardware, point-to-point) times of collective @k,
 * or NULL with @error set */
static const gint64 *
model_collective (SextantTorusReplay  *self,
                  guint                k,
                  GError             **error)
{
  const SextantReplayCollective *c = &g_array_index (self->collectives, SextantReplayCollective, k);
  guint n = sextant_torus_get_n_nodes (self->torus);
  g_autofree char *key = g_strdup_printf ("%d %" G_GUINT64_FORMAT " %u %" G_GINT64_FORMAT " %u", c->op, c->bytes,
                                          c->root, c->comm, c->n_members);
  g_autofree guint8 *member = NULL;
  g_autofree guint *transit = NULL;
  g_autoptr(SextantTorusSim) sim = NULL;
  g_autoptr(GError) local = NULL;
  SextantTorusJob job;
  gint64 *times;
  guint n_transit = 0;

  if ((times = g_hash_table_lookup (self->model_cache, key)) != NULL)
    return times;

  member = g_new0 (guint8, n);
  for (guint j = 0; j < c->n_members; j++)
    member[self->node[g_array_index (self->members, SextantReplayMember, c->first_member + j).rank]] = 1;
  transit = g_new (guint, n);
  for (guint v = 0; v < n; v++)
    if (!member[v])
      transit[n_transit++] = v;

  sextant_torus_job_init (&job);
  job.op = c->op;
  job.bytes = CLAMP (c->bytes, 1, SEXTANT_TORUS_MAX_BYTES);
  job.root = self->node[c->root];
  job.n_trees = 1;
  job.transit = transit;
  job.n_transit = n_transit;
  if (!(sim = sextant_torus_sim_run (self->torus, &self->params, &job, &local)))
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_REPLAY, "collective %u (%s of %" G_GUINT64_FORMAT
                   " bytes, %u members): %s", k, sextant_torus_op_to_string (c->op), c->bytes, c->n_members,
                   local->message);
      return NULL;
    }
  times = g_new (gint64, 2);
  times[SEXTANT_REPLAY_HARDWARE] = sextant_torus_sim_get_hw_ps (sim);
  times[SEXTANT_REPLAY_POINT_TO_POINT] = sextant_torus_sim_get_p2p_ps (sim);
  g_hash_table_insert (self->model_cache, g_steal_pointer (&key), times);

  return times;
}

/* ---------------------------------------------------------------------- */
/* A replay                                                                */
/* ---------------------------------------------------------------------- */

static void
wake (Run    *run,
      guint   rank,
      gint64  time)
{
  SextantSimEvent ev = { .time = time, .node = rank };

  sextant_sim_queue_push (run->queue, &ev);
}

static void
send_message (Run   *run,
              guint  m,
              gint64 *cur)
{
  SextantTorusReplay *self = run->self;
  const SextantReplayMessage *msg = &g_array_index (self->messages, SextantReplayMessage, m);
  guint u = self->node[msg->from], v = self->node[msg->to];
  guint64 flits = MAX ((msg->bytes + SEXTANT_TORUS_FLIT_BYTES - 1) / SEXTANT_TORUS_FLIT_BYTES, 1);
  gint64 head = sextant_torus_net_inject (&run->net, u, *cur, flits, NULL);
  gint64 arrival = sextant_torus_net_eject (&run->net, v, sextant_torus_net_route (&run->net, u, v, head, flits),
                                            flits);

  self->arrivals[run->kind][m] = arrival;
  *cur = run->net.inj_free[u];
  if (run->waiter[m] != NONE)
    {
      wake (run, run->waiter[m], arrival);
      run->waiter[m] = NONE;
    }
}

/* @rank arrives at collective @k; Returns: FALSE while it waits */
static gboolean
collective (Run       *run,
            guint      k,
            RankState *s,
            guint      rank)
{
  SextantTorusReplay *self = run->self;
  const SextantReplayCollective *c = &g_array_index (self->collectives, SextantReplayCollective, k);
  CollectiveState *cs = &run->coll[k];
  gint64 duration;

  if (s->in_collective)
    {
      if (cs->done < 0)
        return FALSE;
      s->cur = MAX (s->cur, cs->done);
      s->in_collective = FALSE;
      return TRUE;
    }

  s->in_collective = TRUE;
  cs->latest = MAX (cs->latest, s->cur);
  if (++cs->arrived < c->n_members)
    return FALSE;

  if (c->modelled)
    {
      const gint64 *times = model_collective (self, k, run->error == NULL ? &run->error : NULL);

      duration = times != NULL ? times[run->kind] : 0;
    }
  else
    duration = c->recorded;
  self->collective_ps[run->kind] += duration;
  cs->done = cs->latest + duration;
  self->coll_done[run->kind][k] = cs->done;
  for (guint j = 0; j < c->n_members; j++)
    wake (run, g_array_index (self->members, SextantReplayMember, c->first_member + j).rank, cs->done);

  return FALSE;
}

/* @rank goes on from @t until it waits or has made its last call */
static void
resume (Run    *run,
        guint   rank,
        gint64  t)
{
  SextantTorusReplay *self = run->self;
  RankState *s = &run->ranks[rank];
  SextantReplayCallTimes *times = self->times[run->kind];

  s->cur = MAX (s->cur, t);
  for (;;)
    {
      const SextantReplayCall *c;
      const CallOps *ops;

      if (!s->in_call)
        {
          gint64 start;

          if (s->next == self->rank_first[rank + 1])
            {
              s->end = s->cur + MAX (self->recorded - s->prev_leave, 0);
              return;
            }
          c = &g_array_index (self->calls, SextantReplayCall, s->next);
          start = s->cur + MAX (c->enter - s->prev_leave, 0);
          s->in_call = TRUE;
          s->op = self->call_ops[s->next].first_op;
          times[s->next].begin = start;
          if (start > s->cur)
            {
              s->cur = start;
              wake (run, rank, start);
              return;
            }
        }
      c = &g_array_index (self->calls, SextantReplayCall, s->next);
      ops = &self->call_ops[s->next];
      for (; s->op < ops->first_op + ops->n_ops; s->op++)
        {
          const Op *op = &g_array_index (self->ops, Op, s->op);

          switch (op->kind)
            {
            case OP_SEND:
              self->op_time[run->kind][s->op] = s->cur;
              send_message (run, op->index, &s->cur);
              break;
            case OP_RECV:
              if (self->arrivals[run->kind][op->index] < 0)
                {
                  run->waiter[op->index] = rank;
                  return;
                }
              s->cur = MAX (s->cur, self->arrivals[run->kind][op->index]);
              self->op_time[run->kind][s->op] = s->cur;
              break;
            case OP_COLLECTIVE:
              if (!s->in_collective)
                self->op_time[run->kind][s->op] = s->cur;
              if (!collective (run, op->index, s, rank))
                return;
              break;
            default:
              g_assert_not_reached ();
            }
        }
      times[s->next].end = ops->n_ops == 0 ? times[s->next].begin + (c->leave - c->enter) : s->cur;
      s->cur = times[s->next].end;
      s->prev_leave = c->leave;
      s->next++;
      s->in_call = FALSE;
    }
}

static gboolean
replay (SextantTorusReplay  *self,
        SextantReplayKind    kind,
        GError             **error)
{
  Run run = { .self = self, .kind = kind };
  SextantSimEvent ev;
  gboolean ok = TRUE;

  sextant_torus_net_init_params (&run.net, self->torus, &self->params);
  run.queue = sextant_sim_queue_new (0);
  run.ranks = g_new0 (RankState, self->n_ranks);
  run.coll = g_new0 (CollectiveState, MAX (self->collectives->len, 1));
  run.waiter = g_new (guint, MAX (self->messages->len, 1));
  self->times[kind] = g_new0 (SextantReplayCallTimes, MAX (self->calls->len, 1));
  self->arrivals[kind] = g_new (gint64, MAX (self->messages->len, 1));
  self->op_time[kind] = g_new0 (gint64, MAX (self->ops->len, 1));
  self->coll_done[kind] = g_new0 (gint64, MAX (self->collectives->len, 1));
  for (guint m = 0; m < self->messages->len; m++)
    {
      run.waiter[m] = NONE;
      self->arrivals[kind][m] = -1;
    }
  for (guint k = 0; k < self->collectives->len; k++)
    run.coll[k].done = -1;
  for (guint r = 0; r < self->n_ranks; r++)
    {
      run.ranks[r].next = self->rank_first[r];
      run.ranks[r].end = -1;
      wake (&run, r, 0);
    }

  while (run.error == NULL && sextant_sim_queue_pop (run.queue, &ev))
    resume (&run, ev.node, ev.time);

  if (run.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&run.error));
      ok = FALSE;
    }
  for (guint r = 0; ok && r < self->n_ranks; r++)
    {
      if (run.ranks[r].end < 0)
        {
          const SextantReplayCall *c = &g_array_index (self->calls, SextantReplayCall, run.ranks[r].next);

          g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_REPLAY,
                       "the replay is stuck: rank %u waits in %s (recorded at %" G_GINT64_FORMAT
                       " ps) for a message or collective that never comes", r, c->name, c->enter);
          ok = FALSE;
          break;
        }
      self->total[kind] = MAX (self->total[kind], run.ranks[r].end);
    }

  sextant_torus_net_clear (&run.net);
  sextant_sim_queue_free (run.queue);
  g_free (run.ranks);
  g_free (run.coll);
  g_free (run.waiter);

  return ok;
}

/**
 * sextant_torus_replay_run:
 * @torus: (transfer none): the torus (the result keeps a reference)
 * @params: (nullable): the model's parameters; NULL: the defaults
 * @input: the recorded run (the result keeps references to its arrays)
 * @map: how ranks go to nodes: rank i on node i (linear), or spread evenly
 *   over the node ids (rank i on node i * nodes / ranks)
 * @error: SEXTANT_SIM_ERROR_SIZE (more ranks than nodes), _PARAMS,
 *   _REPLAY (a record outside the calls, a replay that cannot finish, a
 *   collective the model refuses)
 *
 * Returns: (transfer full) (nullable): the predicted runs
 */
SextantTorusReplay *
sextant_torus_replay_run (SextantTorus                  *torus,
                          const SextantTorusParams      *params,
                          const SextantTorusReplayInput *input,
                          SextantReplayMap               map,
                          GError                       **error)
{
  g_autoptr(SextantTorusReplay) self = NULL;
  guint n = sextant_torus_get_n_nodes (torus);

  g_return_val_if_fail (torus != NULL && input != NULL, NULL);

  if (input->n_ranks == 0 || input->n_ranks > n)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_SIZE,
                   "the run has %u ranks and the torus %u nodes: a rank per node needs 1 to %u ranks",
                   input->n_ranks, n, n);
      return NULL;
    }

  self = g_new0 (SextantTorusReplay, 1);
  self->torus = sextant_torus_ref (torus);
  if (params != NULL)
    self->params = *params;
  else
    sextant_torus_params_init (&self->params);
  if (!sextant_torus_params_check (&self->params, error))
    return NULL;
  self->n_ranks = input->n_ranks;
  self->recorded = input->end;
  self->calls = g_array_copy (input->calls);
  self->messages = g_array_ref (input->messages);
  self->collectives = g_array_copy (input->collectives);
  self->members = g_array_ref (input->members);
  self->model_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->node = g_new (guint, self->n_ranks);
  for (guint r = 0; r < self->n_ranks; r++)
    self->node[r] = map == SEXTANT_REPLAY_MAP_SPREAD ? (guint)((guint64)r * n / self->n_ranks) : r;
  /* the model's all-gather runs on every node of the torus (its
   * point-to-point side, recursive doubling, on a power-of-two count) */
  for (guint k = 0; k < self->collectives->len; k++)
    {
      SextantReplayCollective *c = &g_array_index (self->collectives, SextantReplayCollective, k);

      if (c->op == SEXTANT_TORUS_OP_ALLGATHER && (c->n_members != n || (n & (n - 1)) != 0))
        c->modelled = FALSE;
      self->n_modelled += c->modelled ? 1 : 0;
    }

  if (!index_input (self, error))
    return NULL;
  for (SextantReplayKind kind = 0; kind < SEXTANT_REPLAY_N_KINDS; kind++)
    if (!replay (self, kind, error))
      return NULL;

  return g_steal_pointer (&self);
}

void
sextant_torus_replay_free (SextantTorusReplay *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->torus, sextant_torus_unref);
  g_clear_pointer (&self->calls, g_array_unref);
  g_clear_pointer (&self->ops, g_array_unref);
  g_clear_pointer (&self->messages, g_array_unref);
  g_clear_pointer (&self->collectives, g_array_unref);
  g_clear_pointer (&self->members, g_array_unref);
  g_clear_pointer (&self->model_cache, g_hash_table_unref);
  g_free (self->node);
  g_free (self->rank_first);
  g_free (self->call_ops);
  for (guint k = 0; k < SEXTANT_REPLAY_N_KINDS; k++)
    {
      g_free (self->times[k]);
      g_free (self->arrivals[k]);
      g_free (self->op_time[k]);
      g_free (self->coll_done[k]);
    }
  g_free (self);
}

guint
sextant_torus_replay_get_node (const SextantTorusReplay *self,
                               guint                     rank)
{
  g_return_val_if_fail (rank < self->n_ranks, 0);

  return self->node[rank];
}

/* Returns: the recorded run's duration, ps */
gint64
sextant_torus_replay_get_recorded_ps (const SextantTorusReplay *self)
{
  return self->recorded;
}

/* Returns: the predicted run's duration, ps: its last rank's end */
gint64
sextant_torus_replay_get_ps (const SextantTorusReplay *self,
                             SextantReplayKind         kind)
{
  return self->total[kind];
}

/* Returns: the collectives' predicted durations summed, ps */
gint64
sextant_torus_replay_get_collective_ps (const SextantTorusReplay *self,
                                        SextantReplayKind         kind)
{
  return self->collective_ps[kind];
}

/* Returns: the point-to-point replay's duration over the hardware one's */
double
sextant_torus_replay_get_ratio (const SextantTorusReplay *self)
{
  return self->total[SEXTANT_REPLAY_HARDWARE] > 0
         ? (double)self->total[SEXTANT_REPLAY_POINT_TO_POINT] / (double)self->total[SEXTANT_REPLAY_HARDWARE] : 0;
}

/* Returns: collectives done on the trees (the others keep their recorded time) */
guint
sextant_torus_replay_get_n_modelled (const SextantTorusReplay *self)
{
  return self->n_modelled;
}

/* Returns: (transfer none) (element-type SextantReplayCall): the calls,
 * by rank then enter: the order of sextant_torus_replay_get_times () */
const GArray *
sextant_torus_replay_get_calls (const SextantTorusReplay *self)
{
  return self->calls;
}

/* Returns: (transfer none): per call (sextant_torus_replay_get_calls ()), its predicted times */
const SextantReplayCallTimes *
sextant_torus_replay_get_times (const SextantTorusReplay *self,
                                SextantReplayKind         kind)
{
  return self->times[kind];
}

/* Returns: (transfer none): per message, when the receiver's host has it (ps) */
const gint64 *
sextant_torus_replay_get_arrivals (const SextantTorusReplay *self,
                                   SextantReplayKind         kind)
{
  return self->arrivals[kind];
}

guint
sextant_torus_replay_get_n_ranks (const SextantTorusReplay *self)
{
  return self->n_ranks;
}

SextantTorus *
sextant_torus_replay_get_torus (const SextantTorusReplay *self)
{
  return self->torus;
}

/* Returns: (transfer none) (element-type SextantReplayCollective) */
const GArray *
sextant_torus_replay_get_collectives (const SextantTorusReplay *self)
{
  return self->collectives;
}

/* Returns: (transfer none) (element-type SextantReplayMember) */
const GArray *
sextant_torus_replay_get_members (const SextantTorusReplay *self)
{
  return self->members;
}

/**
 * sextant_torus_replay_foreach_record:
 * @func: called for every record of @rank's predicted run in @kind, in
 *   time order: each call's enter, its sends, receives and collective
 *   begin and end, its leave
 */
void
sextant_torus_replay_foreach_record (const SextantTorusReplay *self,
                                     SextantReplayKind         kind,
                                     guint                     rank,
                                     SextantReplayRecordFunc   func,
                                     gpointer                  user_data)
{
  g_return_if_fail (rank < self->n_ranks);

  for (guint c = self->rank_first[rank]; c < self->rank_first[rank + 1]; c++)
    {
      const SextantReplayCall *call = &g_array_index (self->calls, SextantReplayCall, c);
      const CallOps *ops = &self->call_ops[c];
      SextantReplayRecord rec = { .kind = SEXTANT_REPLAY_RECORD_ENTER, .time = self->times[kind][c].begin,
                                  .call = call };

      func (&rec, user_data);
      for (guint i = ops->first_op; i < ops->first_op + ops->n_ops; i++)
        {
          const Op *op = &g_array_index (self->ops, Op, i);

          rec = (SextantReplayRecord) { .time = self->op_time[kind][i], .call = call, .index = op->index };
          if (op->kind == OP_COLLECTIVE)
            {
              rec.kind = SEXTANT_REPLAY_RECORD_COLLECTIVE_BEGIN;
              func (&rec, user_data);
              rec.kind = SEXTANT_REPLAY_RECORD_COLLECTIVE_END;
              rec.time = self->coll_done[kind][op->index];
            }
          else
            {
              const SextantReplayMessage *m = &g_array_index (self->messages, SextantReplayMessage, op->index);

              rec.kind = op->kind == OP_SEND ? SEXTANT_REPLAY_RECORD_SEND : SEXTANT_REPLAY_RECORD_RECV;
              rec.peer = op->kind == OP_SEND ? m->to : m->from;
              rec.bytes = m->bytes;
            }
          func (&rec, user_data);
        }
      rec = (SextantReplayRecord) { .kind = SEXTANT_REPLAY_RECORD_LEAVE, .time = self->times[kind][c].end,
                                    .call = call };
      func (&rec, user_data);
    }
}
