/*
 * sextant-graph.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The front of the graph layer's collective trees: the error domain, the
 * listing of every collective of a trace (MPI collectives, onecoll
 * broadcasts, exchanges inside phase regions), the collective a location
 * was in at a time, and sextant_graph_build_collective(), which reads the
 * id's form and hands it to the builder of its kind
 * (sextant-tree-onecoll.c, sextant-tree-collective.c,
 * sextant-tree-exchange.c).
 *
 * Workload: building is a few queries of one collective (milliseconds);
 * the listing reads every collective once, and the messages of the run
 * when the trace has phase regions to check (sextant-tree-exchange.c).
 */
#include "config.h"

#include <string.h>

#include "sextant-graph-private.h"

G_DEFINE_QUARK (sextant-graph-error-quark, sextant_graph_error)

/**
 * sextant_collective_ref_free:
 * @ref: (nullable): a row of sextant_graph_list_collectives()
 */
void
sextant_collective_ref_free (SextantCollectiveRef *ref)
{
  if (ref == NULL)
    return;

  g_free (ref->id);
  g_free (ref->operation);
  g_free (ref->comm);
  g_free (ref);
}

/* Context ------------------------------------------------------------------ */

gboolean
_sextant_graph_context_init (SextantGraphContext  *ctx,
                             SextantStore         *store,
                             GError              **error)
{
  memset (ctx, 0, sizeof *ctx);
  if (!sextant_store_get_time_span (store, &ctx->span, error))
    return FALSE;
  ctx->locations = sextant_store_list_location_processes (store, error);

  return ctx->locations != NULL;
}

void
_sextant_graph_context_clear (SextantGraphContext *ctx)
{
  g_clear_pointer (&ctx->locations, g_ptr_array_unref);
}

/* The location @loc, or NULL for an id the store does not define. */
const SextantLocationProcess *
_sextant_graph_context_location (SextantGraphContext *ctx,
                                 gint64               loc)
{
  if (loc < 0 || (guint64)loc >= ctx->locations->len)
    return NULL;

  return g_ptr_array_index (ctx->locations, loc);
}

SextantCommTree *
_sextant_graph_context_new_tree (SextantGraphContext *ctx,
                                 SextantTreeKind      kind,
                                 const char          *id,
                                 const char          *title)
{
  return sextant_comm_tree_new (kind, id, title, ctx->span.begin, ctx->span.resolution);
}

SextantTreeNode
_sextant_graph_node (gint64      loc,
                     const char *name,
                     gint64      arrival,
                     gint64      finish,
                     gint64      lateness)
{
  SextantTreeNode node = {
    .loc = loc,
    .name = (char *)(name != NULL ? name : "?"),
    .arrival = arrival,
    .finish = finish,
    .lateness = lateness,
    .parent = -1,
    .cause = SEXTANT_CAUSE_NONE,
    .instance = SEXTANT_NULL,
    .region = SEXTANT_NULL,
    .line = SEXTANT_NULL,
    .begin = SEXTANT_NULL,
    .end = SEXTANT_NULL,
  };

  return node;
}

void
_sextant_graph_set_unknown_id (GError     **error,
                               const char  *id,
                               const char  *why)
{
  g_set_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_UNKNOWN_ID,
               "no collective '%s' in this trace (%s); `sextant info DB --collectives` lists the collectives "
               "and their ids: mpi:COMMUNICATOR:N for the N-th MPI collective on a communicator, onecoll:WINDOW:SEQUENCE for a onecoll "
               "broadcast, exchange:REGION:N for the messages inside phase region REGION's N-th visit",
               id, why);
}

/* Listing ------------------------------------------------------------------ */

static int
compare_refs (gconstpointer a,
              gconstpointer b)
{
  const SextantCollectiveRef *x = *(SextantCollectiveRef * const *)a;
  const SextantCollectiveRef *y = *(SextantCollectiveRef * const *)b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;

  return strcmp (x->id, y->id);
}

/**
 * sextant_graph_list_collectives:
 * @store: a store, owned by the calling thread
 *
 * Every collective of the trace whose tree sextant_graph_build_collective()
 * can draw: the MPI collectives of more than one member, the onecoll
 * broadcasts, and the exchanges of the phase regions (docs/trees.md, "Phase
 * regions"), by begin time.
 *
 * Threading: the store's owning thread. On the 10 M-event benchmark store
 * this reads the 300 000 collective members, the visits and the 850 000
 * messages once each (it has a candidate phase region to check).
 *
 * Returns: (transfer container) (element-type SextantCollectiveRef): the
 *   collectives, or %NULL with @error set (%G_IO_ERROR_CANCELLED or a
 *   %SEXTANT_TRACE_ERROR)
 */
GPtrArray *
sextant_graph_list_collectives (SextantStore  *store,
                                GError       **error)
{
  g_autoptr(GPtrArray) refs = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  refs = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_collective_ref_free);
  if (!_sextant_tree_list_mpi (store, refs, error) ||
      !_sextant_tree_list_onecoll (store, refs, error) ||
      !_sextant_tree_list_exchanges (store, refs, error))
    return NULL;
  g_ptr_array_sort (refs, compare_refs);

  return g_steal_pointer (&refs);
}

/* The collective a location was in ------------------------------------------ */

/* The exchange whose instance @visit (of a phase region, on @loc) is */
static char *
phase_at (SextantStore           *store,
          gint64                  loc,
          const SextantVisitSpan *visit,
          GError                **error)
{
  gint64 n = sextant_store_count_visits_before (store, loc, visit->region, visit->id, error);

  if (n < 0)
    return NULL;

  return g_strdup_printf ("exchange:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, visit->region, n);
}

/**
 * sextant_graph_collective_at:
 * @store: a store, owned by the calling thread
 * @loc: a location (location.id)
 * @time: ticks
 *
 * What the timeline asks when a user picks a point: the innermost of the
 * visits of @loc open at @time that belongs to a collective - an MPI call
 * that began or completed an MPI collective, an onecoll region of a
 * broadcast (the put of a relay, the flush that waited for it, ...), or
 * a visit of a named phase region (docs/trees.md).
 *
 * Threading: the store's owning thread. Reads the chunks of @loc around
 * @time; a phase region also counts its visits before this one.
 *
 * Returns: (transfer full) (nullable): the collective's id, or %NULL: with
 *   @error unset when @loc was in none at @time
 */
char *
sextant_graph_collective_at (SextantStore  *store,
                             gint64         loc,
                             gint64         time,
                             GError       **error)
{
  g_autoptr(GArray) stack = NULL;
  g_autoptr(GHashTable) names = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(stack = sextant_store_list_visits_at (store, loc, time, error)) || stack->len == 0)
    return NULL;
  if (!(names = sextant_store_read_region_names (store, error)))
    return NULL;

  /* innermost first: a put inside a relay, a relay inside a flush */
  for (guint i = stack->len; i-- > 0;)
    {
      const SextantVisitSpan *visit = &g_array_index (stack, SextantVisitSpan, i);
      const char *name = g_hash_table_lookup (names, &visit->region);
      GError *local = NULL;

      if (name == NULL)
        continue;
      if (sextant_region_is_onecoll_reduce (name))
        {
          /* onecoll's reduce and allreduce, and their phases: the
           * exchange of the call's region (below), not a broadcast */
          if (!_sextant_tree_is_phase_name (name))
            continue;
          return phase_at (store, loc, visit, error);
        }
      if (g_str_has_prefix (name, "onecoll_"))
        {
          gint64 win, seq;

          if (!sextant_store_get_onecoll_ids (store, visit->id, &win, &seq, error))
            return NULL;
          if (win != SEXTANT_NULL && seq != SEXTANT_NULL)
            return g_strdup_printf ("onecoll:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, win, seq);
        }
      else if (g_str_has_prefix (name, "MPI_"))
        {
          gint64 collective = sextant_store_find_collective_call (store, loc, visit->id, visit->enter,
                                                                  visit->leave, &local);

          if (local != NULL)
            {
              g_propagate_error (error, local);
              return NULL;
            }
          if (collective != SEXTANT_NULL)
            return sextant_collective_id_to_string (collective);
        }
      else if (_sextant_tree_is_phase_name (name))
        return phase_at (store, loc, visit, error);
    }

  return NULL;
}

/* Building ------------------------------------------------------------------ */

/**
 * sextant_graph_build_collective:
 * @store: a store, owned by the calling thread
 * @id: a collective id (sextant-comm-tree.h): "mpi:COMM:N" (or its number,
 *   sextant-collective-id.h), "onecoll:WIN:SEQ" or
 *   "exchange:REGION:N"
 * @layout: %SEXTANT_TREE_LAYOUT_BINOMIAL adds Open MPI's binomial tree to
 *   an MPI BCAST or REDUCE (and changes nothing for the other kinds)
 *
 * The tree of one collective, from what the trace recorded (docs/trees.md
 * says what each kind's nodes, edges, arrival, finish and lateness are).
 *
 * Threading: the store's owning thread; the tree may then go to any thread.
 * Takes milliseconds on the 10 M-event benchmark store (docs/benchmarks.md).
 *
 * Returns: (transfer full): the tree, or %NULL with @error set:
 *   %SEXTANT_GRAPH_ERROR_UNKNOWN_ID for an id of no known form or of no
 *   collective of the trace, %SEXTANT_GRAPH_ERROR_NO_DATA when the trace
 *   lacks what the tree needs (a broadcast without recorded deliveries, an
 *   exchange without messages), %G_IO_ERROR_CANCELLED or a
 *   %SEXTANT_TRACE_ERROR
 */
SextantCommTree *
sextant_graph_build_collective (SextantStore       *store,
                                const char         *id,
                                SextantTreeLayout   layout,
                                GError            **error)
{
  gint64 a, b;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  if (sextant_collective_id_parse_pair (id, "onecoll:", G_MAXINT64, 0, G_MAXINT64, &a, &b))
    return _sextant_tree_build_onecoll (store, id, a, b, error);
  if (sextant_collective_id_parse_pair (id, "exchange:", G_MAXINT64, 0, G_MAXINT64, &a, &b))
    return _sextant_tree_build_exchange (store, id, a, b, error);
  if (sextant_collective_id_from_string (id, &a))
    return _sextant_tree_build_mpi_collective (store, id, a, layout, error);

  _sextant_graph_set_unknown_id (error, id, "not an id of any of the three forms");
  return NULL;
}
