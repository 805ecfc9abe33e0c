/*
 * sextant-delay-chain.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Who delayed whom: the chain of wait states behind one wait state, back to
 * its root cause (sextant_graph_build_delay_chain(), `sextant tree
 * --instance`).
 *
 * The rule (docs/delay-chains.md; the analysis judged every wait state,
 * graph/sextant-wait-causes.c): a wait state of location L waited over
 * [begin, end] for its peer P; its end is when P released it (sent,
 * arrived at the collective, posted the receive, freed the lock), so
 * [begin, end] on P is P's delay. When P was itself in wait states for at
 * least half of that interval the wait is propagated, and the next link is
 * P's wait state that overlapped it most (wait_state.cause_instance);
 * otherwise P is the root cause, and its node carries where P spent the
 * interval: the region of the program with the most exclusive time in it,
 * at that visit's call site (call-site attribute, else calling context,
 * else where the region begins), or, in a trace of MPI calls only, the
 * late call and the function it was made in
 * (sextant_store_find_delay_activity()).
 *
 * A lock wait (lock_contention) was caused by the holder's hold, not by
 * what the holder did while the waiter waited: when the chain's root
 * cause is a lock's holder, its node covers the hold (from the holder's
 * acquisition to its release, sextant-store-locks.h) and says where the
 * holder spent that time, the code it ran holding the lock.
 *
 * The tree: nodes in chain order, node 0 the waiting location of the
 * instance asked for and the last node the root cause; each waiting node
 * carries its instance (pattern, the call it waited in and its source line,
 * the wait as begin/end, the waited ticks as lateness); an edge runs from
 * each delayer to the location it delayed (from = node i + 1, to = node i)
 * with the pattern as "by" and the wait as its interval. The tree's root is
 * the last node. At most @max_depth links: a chain that goes on ends in a
 * node marked SEXTANT_CAUSE_TRUNCATED (so does one that meets an instance
 * it passed already, or one whose next wait state has no peer).
 *
 * Workload: per link, two reads by id (the instance through the
 * pattern_instance view, its wait_state row), plus the visits of the root
 * cause's location around the interval: well under 100 ms for 64 links on
 * the 10 M-event store (docs/benchmarks.md).
 */
#include "config.h"

#include "sextant-graph.h"
#include "sextant-store-locks.h"

/* The instance and its wait_state row; FALSE with @error set on failure. */
static gboolean
read_link (SextantStore             *store,
           gint64                    id,
           SextantPatternInstance  **instance,
           SextantWaitState         *state,
           gboolean                 *is_wait,
           GError                  **error)
{
  gboolean found = FALSE;

  *is_wait = FALSE;
  if (!sextant_store_get_pattern_instance (store, id, instance, error))
    return FALSE;
  if (*instance == NULL)
    return TRUE;
  if (!sextant_store_get_wait_state (store, id, state, &found, error))
    return FALSE;
  *is_wait = found && state->cause != SEXTANT_WAIT_CAUSE_NONE && (*instance)->peer_loc != SEXTANT_NULL &&
             (*instance)->begin != SEXTANT_NULL && (*instance)->end != SEXTANT_NULL;

  return TRUE;
}

/* The node of a location in a wait state. */
static int
add_waiting (SextantCommTree              *tree,
             const SextantPatternInstance *instance,
             SextantCauseKind              cause)
{
  SextantTreeNode node = {
    .loc = instance->loc,
    .name = instance->location,
    .arrival = instance->end,
    .finish = instance->end,
    .lateness = MAX (instance->severity, 1),
    .parent = -1,
    .cause = cause,
    .instance = instance->id,
    .pattern = instance->pattern,
    .region = SEXTANT_NULL,
    .region_name = instance->call,
    .file = instance->file,
    .line = instance->file != NULL ? instance->line : SEXTANT_NULL,
    .begin = instance->begin,
    .end = instance->end,
  };

  return sextant_comm_tree_add_node (tree, &node);
}

static void
add_link (SextantCommTree              *tree,
          int                           delayer,
          int                           delayed,
          const SextantPatternInstance *instance)
{
  SextantTreeEdge edge = {
    .from = delayer,
    .to = delayed,
    .bytes = SEXTANT_NULL,
    .begin = instance->begin,
    .end = instance->end,
    .by_loc = SEXTANT_NULL,
    .by = instance->pattern,
    .model = FALSE,
  };

  sextant_comm_tree_add_edge (tree, &edge);
}

/* The last node of a chain that stops before its root cause: the peer
 * of @instance, which was waiting. */
static int
add_truncated (SextantCommTree              *tree,
               const SextantPatternInstance *instance,
               const SextantPatternInstance *next)
{
  SextantTreeNode node = {
    .loc = instance->peer_loc,
    .name = instance->peer,
    .arrival = instance->begin,
    .finish = instance->end,
    .parent = -1,
    .cause = SEXTANT_CAUSE_TRUNCATED,
    .instance = next != NULL ? next->id : SEXTANT_NULL,
    .pattern = next != NULL ? next->pattern : NULL,
    .region = SEXTANT_NULL,
    .region_name = next != NULL ? next->call : NULL,
    .file = next != NULL ? next->file : NULL,
    .line = next != NULL && next->file != NULL ? next->line : SEXTANT_NULL,
    .begin = next != NULL ? next->begin : SEXTANT_NULL,
    .end = next != NULL ? next->end : SEXTANT_NULL,
  };

  return sextant_comm_tree_add_node (tree, &node);
}

/* The interval over which @instance's peer delayed it: a lock wait's
 * holder, its hold of the lock; else the wait itself */
static gboolean
delay_interval (SextantStore                  *store,
                const SextantPatternInstance  *instance,
                gint64                        *begin,
                gint64                        *end,
                GError                       **error)
{
  g_autoptr(GArray) waits = NULL;

  *begin = instance->begin;
  *end = instance->end;
  if (g_strcmp0 (instance->pattern, "lock_contention") != 0)
    return TRUE;
  /* the acquisition that ended the wait, and the hold it waited for */
  waits = g_array_new (FALSE, FALSE, sizeof (SextantLockWait));
  if (!sextant_store_read_lock_waits (store, instance->end, instance->end + 1, 0, instance->loc, SEXTANT_NULL, 1,
                                      0, waits, error))
    return FALSE;
  for (guint i = 0; i < waits->len; i++)
    {
      const SextantLockWait *w = &g_array_index (waits, SextantLockWait, i);

      if (w->holder_loc == instance->peer_loc)
        {
          *begin = w->hold_begin;
          *end = w->hold_end;
          break;
        }
    }

  return TRUE;
}

/* The root cause: the peer of the direct wait state @instance, and where
 * it spent the wait (a lock's holder: its hold). */
static int
add_root (SextantStore                  *store,
          SextantCommTree               *tree,
          const SextantPatternInstance  *instance,
          GError                       **error)
{
  g_auto(SextantDelayActivity) activity = { 0 };
  SextantTreeNode node = {
    .loc = instance->peer_loc,
    .name = instance->peer,
    .arrival = instance->begin,
    .finish = instance->end,
    .parent = -1,
    .cause = SEXTANT_CAUSE_ROOT,
    .instance = SEXTANT_NULL,
    .region = SEXTANT_NULL,
    .line = SEXTANT_NULL,
    .begin = instance->begin,
    .end = instance->end,
  };

  if (!delay_interval (store, instance, &node.begin, &node.end, error) ||
      !sextant_store_find_delay_activity (store, instance->peer_loc, node.begin, node.end, &activity, error))
    return -1;
  node.region = activity.region;
  node.region_name = activity.function != NULL ? activity.function : activity.call;
  node.file = activity.file;
  node.line = activity.file != NULL ? activity.line : SEXTANT_NULL;

  return sextant_comm_tree_add_node (tree, &node);
}

/**
 * sextant_graph_build_delay_chain:
 * @instance: a pattern instance id (pattern_instance.id, as `sextant
 *   analyze --json` lists them)
 * @max_depth: at most this many links; 0 for SEXTANT_DELAY_CHAIN_MAX_DEPTH
 *
 * The chain of wait states behind @instance back to its root cause (see
 * the top of this file).
 *
 * Threading: the thread that owns @store.
 *
 * Returns: (transfer full): the chain, or %NULL with @error set:
 *   %SEXTANT_GRAPH_ERROR_NOT_ANALYSED (no analysis in the store),
 *   %SEXTANT_GRAPH_ERROR_UNKNOWN_ID (no instance @instance),
 *   %SEXTANT_GRAPH_ERROR_NO_DATA (an instance of a pattern that is no wait
 *   state, or one without a peer or an interval), or an error of the store
 */
SextantCommTree *
sextant_graph_build_delay_chain (SextantStore  *store,
                                 gint64         instance,
                                 guint          max_depth,
                                 GError       **error)
{
  g_auto(SextantAnalysisScope) scope = { 0 };
  g_autoptr(SextantPatternInstance) current = NULL;
  g_autoptr(SextantCommTree) tree = NULL;
  g_autoptr(GHashTable) visited = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autofree char *id = NULL;
  g_autofree char *title = NULL;
  g_autofree char *pattern_title = NULL;
  SextantTimeSpan span;
  SextantWaitState state;
  gboolean is_wait = FALSE;
  int node;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  if (max_depth == 0)
    max_depth = SEXTANT_DELAY_CHAIN_MAX_DEPTH;

  if (!sextant_store_get_analysis_scope (store, &scope, error))
    return NULL;
  if (!scope.analysed)
    {
      g_set_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NOT_ANALYSED,
                   "%s has not been analysed: run `sextant analyze` on it first (delay chains follow the "
                   "wait states an analysis found)", sextant_store_get_path (store));
      return NULL;
    }

  if (!read_link (store, instance, &current, &state, &is_wait, error))
    return NULL;
  if (current == NULL)
    {
      g_set_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_UNKNOWN_ID,
                   "no pattern instance with id %" G_GINT64_FORMAT " in the last analysis "
                   "(`sextant analyze --json` lists the instances with their ids)", instance);
      return NULL;
    }
  if (!is_wait)
    {
      g_set_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA,
                   "instance %" G_GINT64_FORMAT " (%s on %s) is no wait state for another location: delay "
                   "chains start at a Late Sender, Late Receiver, a wait in a collective or a lock",
                   instance, current->pattern, current->location);
      return NULL;
    }

  if (!sextant_store_get_time_span (store, &span, error))
    return NULL;
  if (!(pattern_title = sextant_store_dup_pattern_title (store, current->pattern, error)))
    return NULL;
  id = g_strdup_printf ("%" G_GINT64_FORMAT, instance);
  title = g_strdup_printf ("Who delayed %s: the chain behind its %s (instance %s)", current->location,
                           pattern_title, id);
  tree = sextant_comm_tree_new (SEXTANT_TREE_DELAY_CHAIN, id, title, span.begin, span.resolution);

  node = add_waiting (tree, current, SEXTANT_CAUSE_WAITING);
  g_hash_table_add (visited, g_memdup2 (&instance, sizeof instance));

  for (guint links = 1; ; links++)
    {
      g_autoptr(SextantPatternInstance) next = NULL;
      SextantWaitState next_state;
      gboolean next_is_wait = FALSE;
      int delayer;

      if (state.cause == SEXTANT_WAIT_CAUSE_DIRECT)
        {
          if ((delayer = add_root (store, tree, current, error)) < 0)
            return NULL;
          add_link (tree, delayer, node, current);
          break;
        }

      /* propagated: the peer's wait state, unless the chain stops here */
      if (state.cause_instance != SEXTANT_NULL &&
          !g_hash_table_contains (visited, &state.cause_instance) &&
          !read_link (store, state.cause_instance, &next, &next_state, &next_is_wait, error))
        return NULL;
      if (next == NULL || !next_is_wait || links == max_depth ||
          g_hash_table_contains (visited, &state.cause_instance))
        {
          delayer = add_truncated (tree, current, next);
          add_link (tree, delayer, node, current);
          break;
        }

      delayer = add_waiting (tree, next, SEXTANT_CAUSE_WAITING);
      add_link (tree, delayer, node, current);
      g_hash_table_add (visited, g_memdup2 (&next->id, sizeof next->id));
      g_clear_pointer (&current, sextant_pattern_instance_free);
      current = g_steal_pointer (&next);
      state = next_state;
      node = delayer;
    }

  sextant_comm_tree_set_root (tree, (int)sextant_comm_tree_get_n_nodes (tree) - 1);
  sextant_comm_tree_finish (tree);

  return g_steal_pointer (&tree);
}
