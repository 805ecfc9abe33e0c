/*
 * sextant-tree-onecoll.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The relay tree of one onecoll broadcast ("onecoll:WIN:SEQ"), from what
 * onecoll's trace hooks and the recorder wrote (onecoll/onecoll-trace.h,
 * docs/onecoll.md "Relays"): every delivery to a rank is an
 * onecoll_put_request region (peer = the target rank) inside an
 * onecoll_put_loop, which runs
 *  - in onecoll_bcast on the root's application thread: the root's own
 *    children (binomial) or every rank (linear)                -> "root";
 *  - in onecoll_broadcaster_relay on a rank's Broadcaster thread  -> "broadcaster";
 *  - in onecoll_broadcaster_relay nested in onecoll_flush, _test or
 *    _wait_release on an application thread (progress by the waiting
 *    thread)                                                   -> "waiting thread";
 *  - in onecoll_help_relay on the root (peer = the rank it relayed for):
 *    the root did that rank's puts                              -> "root help".
 * The MPI_Put operations to the target inside the put loop (small
 * broadcasts put the data of all children first, before the put requests)
 * give the edge's bytes and start; the put request's leave (after the flag
 * was set) or the puts' recorded completion, whichever is later, its end.
 *
 * Nodes are the ranks (processes): the location of each rank's
 * onecoll_bcast visit (its application thread), named after its process.
 * The edge into a rank comes from the process that did the put, so the
 * root's help shows as the root delivering to a grandchild: the place
 * where the binomial tree degenerated towards the linear one.
 *
 * Workload: the broadcast's regions (index visit_attribute_value) and the
 * RMA operations of each put loop (index rma_op_loc): a few hundred rows
 * for 16 ranks.
 */
#include "config.h"

#include <string.h>

#include "sextant-graph-private.h"

typedef struct
{
  const SextantOnecollVisit *request;  /* the onecoll_put_request */
  gint64       target_rank;
  gint64       target_loc;             /* from its puts, SEXTANT_NULL if none */
  gint64       bytes;
  gint64       begin;
  gint64       end;
  const char  *by;
} Delivery;

typedef struct
{
  gint64  key;            /* the process (location_group), or -1 - loc without one */
  gint64  loc;            /* the node's location */
  gint64  rank;           /* in onecoll's communicator, SEXTANT_NULL if unknown */
  gint64  bcast_enter;    /* its onecoll_bcast, SEXTANT_NULL if none */
  int     node;
} Process;

typedef struct
{
  SextantGraphContext  ctx;
  GPtrArray           *visits;      /* SextantOnecollVisit */
  GHashTable          *by_id;       /* visit id -> SextantOnecollVisit */
  GHashTable          *ops;         /* put loop (or request) id -> GArray of SextantRmaOp */
  GArray              *deliveries;  /* Delivery */
  GArray              *ranks;       /* rank -> loc, from the windows' communicator; or NULL */
  GPtrArray           *processes;   /* Process */
  gint64               comm;
} Builder;

static void
builder_clear (Builder *b)
{
  _sextant_graph_context_clear (&b->ctx);
  g_clear_pointer (&b->visits, g_ptr_array_unref);
  g_clear_pointer (&b->by_id, g_hash_table_unref);
  g_clear_pointer (&b->ops, g_hash_table_unref);
  g_clear_pointer (&b->deliveries, g_array_unref);
  g_clear_pointer (&b->ranks, g_array_unref);
  g_clear_pointer (&b->processes, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Builder, builder_clear)

static gint64
process_key (Builder *b,
             gint64   loc)
{
  const SextantLocationProcess *location = _sextant_graph_context_location (&b->ctx, loc);

  return location != NULL && location->process != SEXTANT_NULL ? location->process : -1 - loc;
}

static const SextantOnecollVisit *
visit_by_id (Builder *b,
             gint64   id)
{
  return id == SEXTANT_NULL ? NULL : g_hash_table_lookup (b->by_id, &id);
}

static gboolean
is_wait_region (const char *name)
{
  return g_strcmp0 (name, "onecoll_flush") == 0 || g_strcmp0 (name, "onecoll_test") == 0 ||
         g_strcmp0 (name, "onecoll_wait_release") == 0;
}

/* Whether @loc ran an onecoll_bcast of this broadcast: an application thread. */
static gboolean
is_application_thread (Builder *b,
                       gint64   loc)
{
  for (guint i = 0; i < b->visits->len; i++)
    {
      const SextantOnecollVisit *v = g_ptr_array_index (b->visits, i);

      if (v->loc == loc && g_str_equal (v->region, "onecoll_bcast"))
        return TRUE;
    }

  return FALSE;
}

/* Who did a delivery, from the region its put loop ran in. */
static const char *
delivered_by (Builder                   *b,
              const SextantOnecollVisit *request,
              const SextantOnecollVisit *loop)
{
  const char *outer = loop != NULL ? loop->parent_region : NULL;

  if (g_strcmp0 (outer, "onecoll_bcast") == 0)
    return "root";
  if (g_strcmp0 (outer, "onecoll_help_relay") == 0)
    return "root help";
  if (g_strcmp0 (outer, "onecoll_broadcaster_relay") == 0)
    {
      const SextantOnecollVisit *relay = visit_by_id (b, loop->parent);

      if ((relay != NULL && is_wait_region (relay->parent_region)) || is_application_thread (b, request->loc))
        return "waiting thread";
      return "broadcaster";
    }

  return is_application_thread (b, request->loc) ? "root" : "broadcaster";
}

/* The RMA operations of @loop (or of @request without one), read once. */
static GArray *
ops_of (Builder                    *b,
        SextantStore               *store,
        const SextantOnecollVisit  *request,
        const SextantOnecollVisit  *loop,
        GError                    **error)
{
  const SextantOnecollVisit *span = loop != NULL ? loop : request;
  GArray *ops = g_hash_table_lookup (b->ops, &span->visit);

  if (ops != NULL)
    return ops;
  if (!(ops = sextant_store_list_rma_ops (store, span->loc, span->enter, span->leave, error)))
    return NULL;
  g_hash_table_insert (b->ops, g_memdup2 (&span->visit, sizeof (gint64)), ops);

  return ops;
}

static gboolean
read_deliveries (Builder       *b,
                 SextantStore  *store,
                 GError       **error)
{
  for (guint i = 0; i < b->visits->len; i++)
    {
      const SextantOnecollVisit *request = g_ptr_array_index (b->visits, i);
      const SextantOnecollVisit *loop;
      Delivery d = { request, request->peer, SEXTANT_NULL, SEXTANT_NULL, G_MAXINT64, request->leave, NULL };
      GArray *ops;

      if (!g_str_equal (request->region, "onecoll_put_request") || request->peer == SEXTANT_NULL)
        continue;
      loop = visit_by_id (b, request->parent);
      if (loop != NULL && !g_str_equal (loop->region, "onecoll_put_loop"))
        loop = NULL;
      if (!(ops = ops_of (b, store, request, loop, error)))
        return FALSE;

      /* the data of this delivery: the puts to the target up to the
       * request's end (a put loop serves each child once) */
      for (guint k = 0; k < ops->len; k++)
        {
          const SextantRmaOp *op = &g_array_index (ops, SextantRmaOp, k);

          if (op->comm != SEXTANT_NULL && b->comm == SEXTANT_NULL)
            b->comm = op->comm;
          if (op->kind != SEXTANT_RMA_PUT || op->target != d.target_rank || op->issue_time > request->leave)
            continue;
          d.bytes = (d.bytes == SEXTANT_NULL ? 0 : d.bytes) + op->bytes;
          d.begin = MIN (d.begin, op->issue_time);
          if (op->complete_time != SEXTANT_NULL)
            d.end = MAX (d.end, op->complete_time);
          if (op->target_loc != SEXTANT_NULL)
            d.target_loc = op->target_loc;
        }
      if (d.begin == G_MAXINT64)
        d.begin = request->enter;
      d.by = delivered_by (b, request, loop);
      g_array_append_val (b->deliveries, d);
    }

  return TRUE;
}

static Process *
find_process (Builder *b,
              gint64   key)
{
  for (guint i = 0; i < b->processes->len; i++)
    {
      Process *p = g_ptr_array_index (b->processes, i);

      if (p->key == key)
        return p;
    }

  return NULL;
}

static Process *
add_process (Builder *b,
             gint64   key,
             gint64   loc)
{
  Process *p = find_process (b, key);

  if (p != NULL)
    return p;
  p = g_new0 (Process, 1);
  p->key = key;
  p->loc = loc;
  p->rank = SEXTANT_NULL;
  p->bcast_enter = SEXTANT_NULL;
  p->node = -1;
  g_ptr_array_add (b->processes, p);

  return p;
}

/* The process of @rank of onecoll's communicator: through the windows'
 * communicator, else a delivery's resolved target, else MPI_COMM_WORLD. */
static Process *
process_of_rank (Builder *b,
                 gint64   rank,
                 gint64   fallback_loc)
{
  gint64 loc = SEXTANT_NULL;

  if (rank == SEXTANT_NULL)
    return NULL;
  if (b->ranks != NULL && rank >= 0 && (guint64)rank < b->ranks->len)
    loc = g_array_index (b->ranks, gint64, rank);
  if (loc == SEXTANT_NULL)
    loc = fallback_loc;
  if (loc == SEXTANT_NULL)
    for (guint i = 0; i < b->ctx.locations->len && loc == SEXTANT_NULL; i++)
      {
        const SextantLocationProcess *location = g_ptr_array_index (b->ctx.locations, i);

        if (location->world_rank == rank)
          loc = location->loc;
      }
  if (loc == SEXTANT_NULL)
    return NULL;

  return add_process (b, process_key (b, loc), loc);
}

static int
compare_processes (gconstpointer a,
                   gconstpointer b)
{
  const Process *x = *(Process * const *)a;
  const Process *y = *(Process * const *)b;

  /* by rank, those without one last, then by location */
  if ((x->rank == SEXTANT_NULL) != (y->rank == SEXTANT_NULL))
    return x->rank == SEXTANT_NULL ? 1 : -1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;

  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

static int
compare_deliveries (gconstpointer a,
                    gconstpointer b)
{
  const Delivery *x = a;
  const Delivery *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;

  return x->request->visit < y->request->visit ? -1 : x->request->visit > y->request->visit;
}

static char *
make_title (Builder       *b,
            gint64         win,
            gint64         seq,
            const Process *root)
{
  const SextantLocationProcess *where = root != NULL ? _sextant_graph_context_location (&b->ctx, root->loc) : NULL;
  guint p = b->processes->len;
  guint from_root_loop = 0;
  guint helped = 0;
  gboolean star = TRUE;
  const char *shape;

  for (guint i = 0; i < b->deliveries->len; i++)
    {
      const Delivery *d = &g_array_index (b->deliveries, Delivery, i);

      if (g_str_equal (d->by, "root"))
        from_root_loop++;
      if (g_str_equal (d->by, "root help"))
        helped++;
      if (root == NULL || process_key (b, d->request->loc) != root->key)
        star = FALSE;
    }

  if (star && from_root_loop + 1 >= p && p > 3)
    shape = "linear: the root delivered to every rank itself, a star";
  else if (star && helped == 0)
    shape = "a star from the root (at up to 3 ranks the binomial tree is one)";
  else if (helped > 0)
    shape = "binomial; the root's help delivered to some ranks whose parents had not relayed";
  else
    shape = "binomial";

  return g_strdup_printf ("onecoll broadcast %" G_GINT64_FORMAT " on window %" G_GINT64_FORMAT
                          " from %s, %u ranks: %s", seq, win,
                          where != NULL ? where->process_name : "an unknown root", p, shape);
}

SextantCommTree *
_sextant_tree_build_onecoll (SextantStore  *store,
                             const char    *id,
                             gint64         win,
                             gint64         seq,
                             GError       **error)
{
  g_auto(Builder) b = { { { 0 } } };
  g_autoptr(SextantCommTree) tree = NULL;
  g_autofree char *title = NULL;
  g_autofree gint64 *finish = NULL;
  g_autofree gint64 *arrival = NULL;
  gint64 root_rank = SEXTANT_NULL;
  Process *root = NULL;

  if (!(b.visits = sextant_store_list_onecoll_visits (store, win, seq, error)))
    return NULL;
  if (b.visits->len == 0)
    {
      _sextant_graph_set_unknown_id (error, id, "no onecoll region carries that window and sequence number");
      return NULL;
    }
  if (!_sextant_graph_context_init (&b.ctx, store, error))
    return NULL;

  b.by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  b.ops = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify)g_array_unref);
  b.deliveries = g_array_new (FALSE, FALSE, sizeof (Delivery));
  b.processes = g_ptr_array_new_with_free_func (g_free);
  b.comm = SEXTANT_NULL;
  for (guint i = 0; i < b.visits->len; i++)
    {
      SextantOnecollVisit *v = g_ptr_array_index (b.visits, i);

      g_hash_table_insert (b.by_id, &v->visit, v);
      if (root_rank == SEXTANT_NULL && v->root != SEXTANT_NULL)
        root_rank = v->root;
    }

  if (!read_deliveries (&b, store, error))
    return NULL;
  if (b.deliveries->len == 0)
    {
      g_set_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA,
                   "onecoll broadcast %s has no recorded deliveries (no onecoll_put_request region): "
                   "a broadcast on one rank, or a trace recorded without onecoll's regions", id);
      return NULL;
    }
  g_array_sort (b.deliveries, compare_deliveries);
  if (b.comm != SEXTANT_NULL && !(b.ranks = sextant_store_read_comm_ranks (store, b.comm, error)))
    return NULL;

  /* the ranks: every process that called onecoll_bcast, each at the
   * thread that called it, then whatever the deliveries reach */
  for (guint i = 0; i < b.visits->len; i++)
    {
      const SextantOnecollVisit *v = g_ptr_array_index (b.visits, i);

      if (g_str_equal (v->region, "onecoll_bcast"))
        {
          Process *p = add_process (&b, process_key (&b, v->loc), v->loc);

          p->loc = v->loc;
          if (p->bcast_enter == SEXTANT_NULL || v->enter < p->bcast_enter)
            p->bcast_enter = v->enter;
        }
    }
  for (guint i = 0; i < b.deliveries->len; i++)
    {
      const Delivery *d = &g_array_index (b.deliveries, Delivery, i);
      Process *target = process_of_rank (&b, d->target_rank, d->target_loc);

      if (target != NULL)
        target->rank = d->target_rank;
      add_process (&b, process_key (&b, d->request->loc), d->request->loc);
    }
  if ((root = process_of_rank (&b, root_rank, SEXTANT_NULL)) != NULL)
    root->rank = root_rank;
  else
    for (guint i = 0; i < b.visits->len && root == NULL; i++)
      {
        const SextantOnecollVisit *v = g_ptr_array_index (b.visits, i);

        if (g_str_equal (v->region, "onecoll_put_loop") && g_strcmp0 (v->parent_region, "onecoll_bcast") == 0)
          root = find_process (&b, process_key (&b, v->loc));
      }
  g_ptr_array_sort (b.processes, compare_processes);

  title = make_title (&b, win, seq, root);
  tree = _sextant_graph_context_new_tree (&b.ctx, SEXTANT_TREE_ONECOLL_BCAST, id, title);
  arrival = g_new (gint64, b.processes->len);
  finish = g_new (gint64, b.processes->len);
  for (guint i = 0; i < b.processes->len; i++)
    {
      Process *p = g_ptr_array_index (b.processes, i);

      p->node = (int)i;
      arrival[i] = p == root ? p->bcast_enter : SEXTANT_NULL;
      finish[i] = SEXTANT_NULL;
    }

  /* arrival: the end of the first delivery to a rank; finish: the leave of
   * the last put request it did itself */
  for (guint i = 0; i < b.deliveries->len; i++)
    {
      const Delivery *d = &g_array_index (b.deliveries, Delivery, i);
      Process *from = find_process (&b, process_key (&b, d->request->loc));
      Process *to = process_of_rank (&b, d->target_rank, d->target_loc);

      if (from != NULL && from->node >= 0)
        finish[from->node] = finish[from->node] == SEXTANT_NULL ? d->request->leave
                                                                : MAX (finish[from->node], d->request->leave);
      if (to != NULL && to->node >= 0 && to != root && arrival[to->node] == SEXTANT_NULL)
        arrival[to->node] = d->end;
    }

  for (guint i = 0; i < b.processes->len; i++)
    {
      Process *p = g_ptr_array_index (b.processes, i);
      const SextantLocationProcess *location = _sextant_graph_context_location (&b.ctx, p->loc);
      SextantTreeNode node = _sextant_graph_node (p->loc, location != NULL ? location->process_name : NULL,
                                                  arrival[i],
                                                  finish[i] != SEXTANT_NULL ? MAX (finish[i], arrival[i])
                                                                            : arrival[i], 0);

      sextant_comm_tree_add_node (tree, &node);
    }
  if (root != NULL)
    sextant_comm_tree_set_root (tree, root->node);

  for (guint i = 0; i < b.deliveries->len; i++)
    {
      const Delivery *d = &g_array_index (b.deliveries, Delivery, i);
      Process *from = find_process (&b, process_key (&b, d->request->loc));
      Process *to = process_of_rank (&b, d->target_rank, d->target_loc);
      SextantTreeEdge edge = {
        .bytes = d->bytes,
        .begin = d->begin,
        .end = d->end,
        .by_loc = d->request->loc,
        .by = (char *)d->by,
        .model = FALSE,
      };

      if (from == NULL || to == NULL || from->node < 0 || to->node < 0)
        continue;
      edge.from = from->node;
      edge.to = to->node;
      sextant_comm_tree_add_edge (tree, &edge);
    }

  sextant_comm_tree_finish (tree);

  return g_steal_pointer (&tree);
}

gboolean
_sextant_tree_list_onecoll (SextantStore  *store,
                            GPtrArray     *refs,
                            GError       **error)
{
  g_autoptr(GArray) bcasts = sextant_store_list_onecoll_bcasts (store, error);

  if (bcasts == NULL)
    return FALSE;

  for (guint i = 0; i < bcasts->len; i++)
    {
      const SextantOnecollBcast *bcast = &g_array_index (bcasts, SextantOnecollBcast, i);
      SextantCollectiveRef *ref = g_new0 (SextantCollectiveRef, 1);

      ref->id = g_strdup_printf ("onecoll:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, bcast->win, bcast->seq);
      ref->kind = SEXTANT_TREE_ONECOLL_BCAST;
      ref->operation = g_strdup ("onecoll_bcast");
      ref->comm = NULL;
      ref->root_loc = bcast->root_loc;
      ref->members = bcast->members;
      ref->begin = bcast->begin;
      ref->end = bcast->end;
      ref->bytes = bcast->bytes;
      g_ptr_array_add (refs, ref);
    }

  return TRUE;
}
