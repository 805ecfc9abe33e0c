/*
 * sextant-tree-exchange.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Collectives made of point-to-point messages ("exchange:REGION:N"): a
 * user's hand-written tree, or onecoll's reduce and allreduce, whose
 * messages the trace groups by the region they run in. Built as a tree
 * when one location had the data first, as an exchange (no parents, a
 * critical chain of messages: sextant_comm_tree_finish_exchange()) when
 * several did; each edge names the phase it was sent in. A phase region is a region
 * (not an MPI call) whose visits contain matched messages with both the
 * send and the receive inside visits of that region on their locations;
 * the N-th visit on every location that has one is instance N, its
 * messages the edges of the tree.
 *
 * The listing (docs/trees.md, "Phase regions") takes:
 *  - named phase regions: "phase" in the name (any case), onecoll_allreduce*
 *    and onecoll_reduce*, every instance with messages;
 *  - other regions that look like one: not MPI, entered on at least two
 *    locations, at most SEXTANT_EXCHANGE_MAX_INSTANCES times on each and
 *    never at the top level (a program's main), closed (no message has only
 *    one end inside their visits), with messages in every instance and at
 *    most p (ceil (log2 p) + 1) messages per instance for p locations (a
 *    tree or a recursive doubling moves no more; a solver loop does).
 * An iterative code's halo exchange (thousands of visits per location) is
 * therefore not listed, but its tree can still be built by id.
 *
 * Workload: a tree reads the N-th visit of the region on each location
 * (the call-path profile says which locations; the last visit is read
 * directly, another by scanning the location's visits up to it) and the
 * messages sent during the instance (message chunks of that time). The
 * listing reads the call-path profile, and only when a region qualifies
 * so far, the visits of those regions and every message once.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-graph-private.h"

gboolean
_sextant_tree_is_phase_name (const char *name)
{
  g_autofree char *lower = NULL;

  if (name == NULL)
    return FALSE;
  if (g_str_has_prefix (name, "onecoll_allreduce") || g_str_has_prefix (name, "onecoll_reduce"))
    return TRUE;
  lower = g_ascii_strdown (name, -1);

  return strstr (lower, "phase") != NULL;
}

/* First send and receive of a location in one instance */
typedef struct
{
  gint64 first_send;
  gint64 first_recv;
} LocStat;

static LocStat *
loc_stat (GHashTable *stats,
          gint64      loc)
{
  LocStat *stat = g_hash_table_lookup (stats, &loc);

  if (stat == NULL)
    {
      stat = g_new (LocStat, 1);
      stat->first_send = G_MAXINT64;
      stat->first_recv = G_MAXINT64;
      g_hash_table_insert (stats, g_memdup2 (&loc, sizeof loc), stat);
    }

  return stat;
}

static GHashTable *
loc_stats_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

static void
note_message (GHashTable               *stats,
              const SextantMessageInfo *m)
{
  LocStat *send = loc_stat (stats, m->send_loc);
  LocStat *recv = loc_stat (stats, m->recv_loc);

  send->first_send = MIN (send->first_send, m->send_time);
  recv->first_recv = MIN (recv->first_recv, m->recv_time);
}

/* The exchange's root: the location whose first send is the earliest among
 * those that received nothing before it; without one (every sender
 * received first), the earliest sender. SEXTANT_NULL for no message. */
static gint64
choose_root (GHashTable *stats)
{
  GHashTableIter iter;
  gpointer key, value;
  gint64 root = SEXTANT_NULL, root_send = G_MAXINT64;
  gint64 any = SEXTANT_NULL, any_send = G_MAXINT64;

  g_hash_table_iter_init (&iter, stats);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 loc = *(gint64 *)key;
      const LocStat *stat = value;

      if (stat->first_send == G_MAXINT64)
        continue;
      if (stat->first_send < any_send || (stat->first_send == any_send && loc < any))
        {
          any = loc;
          any_send = stat->first_send;
        }
      if (stat->first_send <= stat->first_recv &&
          (stat->first_send < root_send || (stat->first_send == root_send && loc < root)))
        {
          root = loc;
          root_send = stat->first_send;
        }
    }

  return root != SEXTANT_NULL ? root : any;
}

/* Listing --------------------------------------------------------------------- */

typedef struct
{
  gint64      messages;
  gint64      bytes;
  GHashTable *stats;          /* loc -> LocStat of the locations in its messages */
} Instance;

typedef struct
{
  gint64      region;
  char       *name;
  gboolean    named;
  gboolean    open;           /* a message with one end inside, or ends in two instances */
  guint       n_locs;         /* locations that entered it */
  gint64      max_visits;     /* on one location */
  gint64      min_depth;
  gboolean    mpi;
  GHashTable *visits;         /* loc -> GArray of SextantVisitSpan, in enter order */
  GPtrArray  *instances;      /* Instance, index n - 1 */
} Phase;

static void
instance_free (Instance *instance)
{
  g_clear_pointer (&instance->stats, g_hash_table_unref);
  g_free (instance);
}

static void
phase_free (Phase *phase)
{
  g_free (phase->name);
  g_clear_pointer (&phase->visits, g_hash_table_unref);
  g_clear_pointer (&phase->instances, g_ptr_array_unref);
  g_free (phase);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Phase, phase_free)

/* The instance (n >= 1) of @phase's visit on @loc open at @time, or 0. */
static gint64
instance_at (Phase  *phase,
             gint64  loc,
             gint64  time)
{
  GArray *visits = g_hash_table_lookup (phase->visits, &loc);
  guint lo = 0, hi;

  if (visits == NULL || visits->len == 0)
    return 0;

  /* the last visit entered at or before @time */
  hi = visits->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (visits, SextantVisitSpan, mid).enter <= time)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* a recursive region: an outer visit may hold @time when the inner one ended */
  for (guint i = lo, steps = 0; i-- > 0 && steps < 8; steps++)
    if (g_array_index (visits, SextantVisitSpan, i).leave >= time)
      return (gint64)i + 1;

  return 0;
}

typedef struct
{
  GPtrArray *phases;
} Scan;

static gboolean
scan_message (const SextantMessageInfo *m,
              gpointer                  user_data)
{
  Scan *scan = user_data;

  if (m->send_loc == m->recv_loc)
    return TRUE;                          /* a location's message to itself is no exchange */
  for (guint i = 0; i < scan->phases->len; i++)
    {
      Phase *phase = g_ptr_array_index (scan->phases, i);
      gint64 s = instance_at (phase, m->send_loc, m->send_time);
      gint64 r = instance_at (phase, m->recv_loc, m->recv_time);
      Instance *instance;

      if (s == 0 && r == 0)
        continue;
      if (s != r || s == 0)
        {
          phase->open = TRUE;
          continue;
        }
      while (phase->instances->len < (guint)s)
        {
          instance = g_new0 (Instance, 1);
          instance->stats = loc_stats_new ();
          g_ptr_array_add (phase->instances, instance);
        }
      instance = g_ptr_array_index (phase->instances, s - 1);
      instance->messages++;
      instance->bytes += m->bytes;
      note_message (instance->stats, m);
    }

  return TRUE;
}

/* The regions that may be phase regions, from the call-path profile. */
static GPtrArray *
candidate_phases (SextantStore  *store,
                  GError       **error)
{
  g_autoptr(GPtrArray) presence = sextant_store_list_region_presence (store, error);
  g_autoptr(GPtrArray) phases = g_ptr_array_new_with_free_func ((GDestroyNotify)phase_free);
  Phase *phase = NULL;

  if (presence == NULL)
    return NULL;

  for (guint i = 0; i < presence->len; i++)
    {
      const SextantRegionPresence *row = g_ptr_array_index (presence, i);

      if (phase == NULL || phase->region != row->region)
        {
          phase = g_new0 (Phase, 1);
          phase->region = row->region;
          phase->name = g_strdup (row->name);
          phase->named = _sextant_tree_is_phase_name (row->name);
          phase->mpi = g_str_equal (row->paradigm, "MPI") || g_str_has_prefix (row->name, "MPI_");
          phase->min_depth = G_MAXINT64;
          g_ptr_array_add (phases, phase);
        }
      phase->n_locs++;
      phase->max_visits = MAX (phase->max_visits, row->visits);
      phase->min_depth = MIN (phase->min_depth, row->min_depth);
    }

  for (guint i = phases->len; i-- > 0;)
    {
      Phase *p = g_ptr_array_index (phases, i);
      gboolean keep = !p->mpi && p->n_locs >= 2 &&
                      (p->named || (p->max_visits <= SEXTANT_EXCHANGE_MAX_INSTANCES && p->min_depth >= 1 &&
                                    !g_str_has_prefix (p->name, "onecoll_")));

      if (!keep)
        g_ptr_array_remove_index (phases, i);
    }

  return g_steal_pointer (&phases);
}

static gboolean
qualifies (Phase *phase)
{
  double p = phase->n_locs;
  gint64 bound = (gint64)(p * (ceil (log2 (p)) + 1));

  if (phase->named)
    return TRUE;
  if (phase->open || phase->instances->len < (guint)phase->max_visits)
    return FALSE;
  for (guint n = 0; n < phase->instances->len; n++)
    {
      Instance *instance = g_ptr_array_index (phase->instances, n);

      if (instance->messages == 0 || instance->messages > bound)
        return FALSE;
    }

  return TRUE;
}

static void
add_refs (Phase     *phase,
          GPtrArray *refs)
{
  for (guint n = 0; n < phase->instances->len; n++)
    {
      Instance *instance = g_ptr_array_index (phase->instances, n);
      SextantCollectiveRef *ref;
      GHashTableIter iter;
      gpointer key;

      if (instance->messages == 0)
        continue;
      ref = g_new0 (SextantCollectiveRef, 1);
      ref->id = g_strdup_printf ("exchange:%" G_GINT64_FORMAT ":%u", phase->region, n + 1);
      ref->kind = SEXTANT_TREE_P2P_EXCHANGE;
      ref->operation = g_strdup (phase->name);
      ref->root_loc = choose_root (instance->stats);
      ref->members = g_hash_table_size (instance->stats);
      ref->begin = G_MAXINT64;
      ref->end = G_MININT64;
      ref->bytes = instance->bytes;
      g_hash_table_iter_init (&iter, instance->stats);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          GArray *visits = g_hash_table_lookup (phase->visits, key);
          const SextantVisitSpan *visit = &g_array_index (visits, SextantVisitSpan, n);

          ref->begin = MIN (ref->begin, visit->enter);
          ref->end = MAX (ref->end, visit->leave);
        }
      g_ptr_array_add (refs, ref);
    }
}

gboolean
_sextant_tree_list_exchanges (SextantStore  *store,
                              GPtrArray     *refs,
                              GError       **error)
{
  g_autoptr(GPtrArray) phases = candidate_phases (store, error);
  g_autoptr(GArray) regions = NULL;
  g_autoptr(GArray) visits = NULL;
  Scan scan;

  if (phases == NULL)
    return FALSE;
  if (phases->len == 0)
    return TRUE;

  regions = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < phases->len; i++)
    {
      Phase *phase = g_ptr_array_index (phases, i);

      g_array_append_val (regions, phase->region);
      phase->visits = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify)g_array_unref);
      phase->instances = g_ptr_array_new_with_free_func ((GDestroyNotify)instance_free);
    }
  if (!(visits = sextant_store_list_region_visits (store, (const gint64 *)(gpointer)regions->data, regions->len,
                                                   error)))
    return FALSE;

  /* by id: location, then enter order */
  for (guint i = 0; i < visits->len; i++)
    {
      const SextantVisitSpan *visit = &g_array_index (visits, SextantVisitSpan, i);
      Phase *phase = NULL;
      GArray *on_loc;

      for (guint k = 0; k < phases->len && phase == NULL; k++)
        if (((Phase *)g_ptr_array_index (phases, k))->region == visit->region)
          phase = g_ptr_array_index (phases, k);
      if (phase == NULL)
        continue;
      if (!(on_loc = g_hash_table_lookup (phase->visits, &visit->loc)))
        {
          on_loc = g_array_new (FALSE, FALSE, sizeof (SextantVisitSpan));
          g_hash_table_insert (phase->visits, g_memdup2 (&visit->loc, sizeof (gint64)), on_loc);
        }
      g_array_append_val (on_loc, *visit);
    }

  scan.phases = phases;
  if (!sextant_store_foreach_message (store, SEXTANT_NULL, SEXTANT_NULL, FALSE, scan_message, &scan, error))
    return FALSE;

  for (guint i = 0; i < phases->len; i++)
    {
      Phase *phase = g_ptr_array_index (phases, i);

      if (qualifies (phase))
        add_refs (phase, refs);
    }

  return TRUE;
}

/* Building ---------------------------------------------------------------------- */

typedef struct
{
  GHashTable *spans;          /* loc -> SextantVisitSpan (the N-th visit) */
  GArray     *messages;       /* SextantMessageInfo inside the instance */
} Collect;

static gboolean
collect_message (const SextantMessageInfo *m,
                 gpointer                  user_data)
{
  Collect *collect = user_data;
  const SextantVisitSpan *send = g_hash_table_lookup (collect->spans, &m->send_loc);
  const SextantVisitSpan *recv = g_hash_table_lookup (collect->spans, &m->recv_loc);

  if (send != NULL && recv != NULL && m->send_loc != m->recv_loc &&
      send->enter <= m->send_time && m->send_time <= send->leave &&
      recv->enter <= m->recv_time && m->recv_time <= recv->leave)
    g_array_append_val (collect->messages, *m);

  return TRUE;
}

static int
compare_by_receive (gconstpointer a,
                    gconstpointer b)
{
  const SextantMessageInfo *x = a;
  const SextantMessageInfo *y = b;

  if (x->recv_time != y->recv_time)
    return x->recv_time < y->recv_time ? -1 : 1;

  return x->id < y->id ? -1 : x->id > y->id;
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *)a;
  gint64 y = *(const gint64 *)b;

  return x < y ? -1 : x > y;
}

/* Locations that sent before they received anything: data of their own.
 * One is a tree's root; several make an exchange (every rank of an
 * allreduce sends its own vector first). */
static guint
count_sources (GHashTable *stats)
{
  GHashTableIter iter;
  gpointer value;
  guint sources = 0;

  g_hash_table_iter_init (&iter, stats);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const LocStat *stat = value;

      sources += stat->first_send != G_MAXINT64 && stat->first_send <= stat->first_recv;
    }

  return sources;
}

/* Reading the phases of more messages than this would take longer than
 * the tree is worth: their edges say "sender". */
#define MAX_PHASE_LOOKUPS 4096

/* The phase each message was sent in: the region the sender was in just
 * below the exchange's visit at the send (onecoll_red_halving inside
 * onecoll_allreduce), NULL when the send call sits directly in the visit.
 * Sets @n_phases to the number of different phases.
 *
 * Returns: (transfer container): a name (owned by @names) or NULL per
 *   message, NULL on error */
static GPtrArray *
phases_of_messages (SextantStore  *store,
                    GArray        *messages,
                    GHashTable    *spans,
                    GHashTable    *names,
                    guint         *n_phases,
                    GError       **error)
{
  g_autoptr(GPtrArray) phases = g_ptr_array_sized_new (messages->len);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < messages->len; i++)
    {
      const SextantMessageInfo *m = &g_array_index (messages, SextantMessageInfo, i);
      const SextantVisitSpan *span = g_hash_table_lookup (spans, &m->send_loc);
      g_autoptr(GArray) stack = NULL;
      const char *phase = NULL;

      if (i < MAX_PHASE_LOOKUPS)
        {
          if (!(stack = sextant_store_list_visits_at (store, m->send_loc, m->send_time, error)))
            return NULL;
          for (guint k = 0; k < stack->len; k++)
            {
              const SextantVisitSpan *v = &g_array_index (stack, SextantVisitSpan, k);
              const char *region = g_hash_table_lookup (names, &v->region);

              if (v->depth == span->depth + 1 && v->enter >= span->enter && v->leave <= span->leave &&
                  region != NULL && !g_str_has_prefix (region, "MPI_"))
                phase = region;
            }
        }
      if (phase != NULL)
        g_hash_table_add (seen, (gpointer)phase);
      g_ptr_array_add (phases, (gpointer)phase);
    }
  *n_phases = g_hash_table_size (seen);

  return g_steal_pointer (&phases);
}

SextantCommTree *
_sextant_tree_build_exchange (SextantStore  *store,
                              const char    *id,
                              gint64         region,
                              gint64         n,
                              GError       **error)
{
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GArray) visits = NULL;
  g_autoptr(GHashTable) spans = NULL;
  g_autoptr(GArray) messages = NULL;
  g_autoptr(GHashTable) stats = NULL;
  g_autoptr(GArray) locs = NULL;
  g_autoptr(GHashTable) node_of = NULL;
  g_autoptr(SextantCommTree) tree = NULL;
  g_autoptr(GPtrArray) phases = NULL;
  g_autofree char *title = NULL;
  g_auto(SextantGraphContext) ctx = { { 0 } };
  const char *name;
  gint64 lo = G_MAXINT64, hi = G_MININT64, root_loc;
  gboolean exchange;
  guint n_phases = 0;
  Collect collect;

  if (!(names = sextant_store_read_region_names (store, error)))
    return NULL;
  if (!(name = g_hash_table_lookup (names, &region)))
    {
      _sextant_graph_set_unknown_id (error, id, "there is no region with that id");
      return NULL;
    }
  if (!(visits = sextant_store_list_nth_visits (store, region, n, error)))
    return NULL;
  if (visits->len == 0)
    {
      g_autofree char *why = g_strdup_printf ("no location entered region %s %" G_GINT64_FORMAT " times", name, n);

      _sextant_graph_set_unknown_id (error, id, why);
      return NULL;
    }

  spans = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < visits->len; i++)
    {
      SextantVisitSpan *visit = &g_array_index (visits, SextantVisitSpan, i);

      g_hash_table_insert (spans, &visit->loc, visit);
      lo = MIN (lo, visit->enter);
      hi = MAX (hi, visit->leave);
    }

  messages = g_array_new (FALSE, FALSE, sizeof (SextantMessageInfo));
  collect.spans = spans;
  collect.messages = messages;
  if (!sextant_store_foreach_message (store, lo, hi, TRUE, collect_message, &collect, error))
    return NULL;
  if (messages->len == 0)
    {
      g_set_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA,
                   "exchange %s: no message was both sent and received inside visit %" G_GINT64_FORMAT
                   " of region %s on its locations", id, n, name);
      return NULL;
    }
  g_array_sort (messages, compare_by_receive);
  if (!_sextant_graph_context_init (&ctx, store, error))
    return NULL;

  stats = loc_stats_new ();
  for (guint i = 0; i < messages->len; i++)
    note_message (stats, &g_array_index (messages, SextantMessageInfo, i));
  root_loc = choose_root (stats);
  exchange = count_sources (stats) >= 2;

  /* a tree: the locations in its messages; an exchange: every location
   * of the visit, in the order of their ids */
  locs = g_array_new (FALSE, FALSE, sizeof (gint64));
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, exchange ? spans : stats);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_array_append_val (locs, *(gint64 *)key);
    g_array_sort (locs, compare_int64);
  }
  if (exchange && !(phases = phases_of_messages (store, messages, spans, names, &n_phases, error)))
    return NULL;

  if (exchange && n_phases > 1)
    title = g_strdup_printf ("%s, visit %" G_GINT64_FORMAT " (a phase region): %u messages among %u locations "
                             "in %u phases, every location sending its own data",
                             name, n, messages->len, locs->len, n_phases);
  else if (exchange)
    title = g_strdup_printf ("%s, visit %" G_GINT64_FORMAT " (a phase region): %u messages among %u locations, "
                             "every location sending its own data", name, n, messages->len, locs->len);
  else
    title = g_strdup_printf ("%s, visit %" G_GINT64_FORMAT " (a phase region): %u messages among %u locations",
                             name, n, messages->len, locs->len);
  tree = _sextant_graph_context_new_tree (&ctx, SEXTANT_TREE_P2P_EXCHANGE, id, title);
  node_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < locs->len; i++)
    {
      gint64 loc = g_array_index (locs, gint64, i);
      const SextantVisitSpan *visit = g_hash_table_lookup (spans, &loc);
      const LocStat *stat = g_hash_table_lookup (stats, &loc);
      const SextantLocationProcess *location = _sextant_graph_context_location (&ctx, loc);
      /* the root had what it sends from the start; so has a location that
       * only sends, and in an exchange every location */
      gint64 arrival = exchange || loc == root_loc || stat->first_recv == G_MAXINT64 ? visit->enter
                                                                                      : stat->first_recv;
      SextantTreeNode node = _sextant_graph_node (loc, location != NULL ? location->label : NULL, arrival,
                                                  visit->leave, exchange ? visit->enter - lo : 0);
      int index = sextant_comm_tree_add_node (tree, &node);

      g_hash_table_insert (node_of, g_memdup2 (&loc, sizeof loc), GINT_TO_POINTER (index));
      if (loc == root_loc)
        sextant_comm_tree_set_root (tree, index);
    }

  for (guint i = 0; i < messages->len; i++)
    {
      const SextantMessageInfo *m = &g_array_index (messages, SextantMessageInfo, i);
      const char *phase = phases != NULL ? g_ptr_array_index (phases, i) : NULL;
      SextantTreeEdge edge = {
        .from = GPOINTER_TO_INT (g_hash_table_lookup (node_of, &m->send_loc)),
        .to = GPOINTER_TO_INT (g_hash_table_lookup (node_of, &m->recv_loc)),
        .bytes = m->bytes,
        .begin = m->send_enter != SEXTANT_NULL ? m->send_enter : m->send_time,
        .end = m->recv_time,
        .by_loc = m->send_loc,
        .by = (char *)(phase != NULL ? phase : "sender"),
        .model = FALSE,
      };

      sextant_comm_tree_add_edge (tree, &edge);
    }

  if (exchange)
    sextant_comm_tree_finish_exchange (tree);
  else
    sextant_comm_tree_finish (tree);

  return g_steal_pointer (&tree);
}
