/*
 * sextant-tree-collective.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tree of an MPI collective. A PMPI trace records no messages inside
 * the MPI library, only each member's call (enter, leave, the collective's
 * begin and end records, bytes), so the tree is the one the semantics
 * imply: the member that released the others is the root - the last to
 * arrive for N x N operations and barriers, the root for one-to-all ones,
 * the last contributor for all-to-one ones - and every other member hangs
 * from it by an edge that is its wait for the release. Lateness is how
 * much later than the first member a member arrived.
 *
 * With SEXTANT_TREE_LAYOUT_BINOMIAL, a BCAST or REDUCE also gets the edges
 * of the binomial tree Open MPI builds for the communicator's size and root
 * (marked as model edges), and the nodes' parents follow that tree. Open
 * MPI's coll/base (ompi/mca/coll/base/coll_base_topo.c, used by coll/tuned):
 *  - ompi_coll_base_bcast_intra_binomial uses ompi_coll_base_topo_build_bmtree:
 *    with vrank = (rank - root + size) % size, the parent is vrank with its
 *    highest set bit cleared (index ^ (next_poweroftwo (index) >> 1)), the
 *    children are vrank + 2^k for every 2^k above vrank (vrank ^ mask for
 *    mask = next_poweroftwo (vrank), doubling, below size). Size 8:
 *    0 -> 1, 2, 4; 1 -> 3, 5; 2 -> 6; 3 -> 7.
 *  - ompi_coll_base_reduce_intra_binomial uses
 *    ompi_coll_base_topo_build_in_order_bmtree: the parent is vrank with its
 *    lowest set bit cleared, the children are vrank + 2^k for every 2^k
 *    below vrank's lowest set bit (MPICH's MST). Size 8: 0 -> 1, 2, 4;
 *    2 -> 3; 4 -> 5, 6; 6 -> 7.
 * Whether Open MPI chose the binomial algorithm for a given call depends on
 * its decision rules (message size, communicator size); the layout shows
 * the members on that tree, it does not claim that the library used it.
 *
 * Workload: one collective's members (a chunk of collective_member) and
 * their calls; linear in the members.
 */
#include "config.h"

#include <string.h>

#include "sextant-graph-private.h"

typedef enum
{
  RELEASE_LAST_ARRIVAL,      /* N x N, barriers, anything else */
  RELEASE_ROOT,              /* one-to-all */
  RELEASE_LAST_CONTRIBUTOR,  /* all-to-one */
} ReleaseRule;

static ReleaseRule
release_rule (const char *kind)
{
  static const char * const one_to_all[] = { "BCAST", "SCATTER", "SCATTERV" };
  static const char * const all_to_one[] = { "REDUCE", "GATHER", "GATHERV" };

  for (guint i = 0; i < G_N_ELEMENTS (one_to_all); i++)
    if (g_str_equal (kind, one_to_all[i]))
      return RELEASE_ROOT;
  for (guint i = 0; i < G_N_ELEMENTS (all_to_one); i++)
    if (g_str_equal (kind, all_to_one[i]))
      return RELEASE_LAST_CONTRIBUTOR;

  return RELEASE_LAST_ARRIVAL;
}

static const char *
release_rule_text (ReleaseRule rule)
{
  switch (rule)
    {
    case RELEASE_ROOT:
      return "the root releases a one-to-all operation";
    case RELEASE_LAST_CONTRIBUTOR:
      return "the last contributor releases an all-to-one operation";
    case RELEASE_LAST_ARRIVAL:
    default:
      return "the last to arrive releases the others";
    }
}

/**
 * _sextant_binomial_parent:
 * @vrank: a relative rank (rank - root + size) % size, > 0
 * @in_order: %FALSE for Open MPI's bmtree (bcast), %TRUE for its in-order
 *   bmtree (reduce)
 *
 * Returns: the relative rank of @vrank's parent in that tree.
 */
int
_sextant_binomial_parent (int      vrank,
                          gboolean in_order)
{
  g_return_val_if_fail (vrank > 0, 0);

  if (in_order)
    return vrank & (vrank - 1);                 /* lowest set bit cleared */

  return vrank & ~(1 << g_bit_nth_msf ((gulong)vrank, -1));   /* highest set bit cleared */
}

/* The index of the member at @loc, or -1. */
static int
member_index (GArray *members,
              gint64  loc)
{
  for (guint i = 0; i < members->len; i++)
    if (g_array_index (members, SextantCollectiveMember, i).loc == loc)
      return (int)i;

  return -1;
}

/* The model edges of Open MPI's binomial tree over the members (nodes in
 * members' order) and the parents along it; FALSE when the members cannot
 * be placed on it (no root, ranks unknown, or not every rank took part). */
static gboolean
add_binomial (SextantCommTree       *tree,
              SextantStore          *store,
              SextantCollectiveInfo *info,
              GArray                *members,
              gboolean               in_order,
              GError               **error)
{
  g_autoptr(GArray) ranks = NULL;
  g_autofree int *node_of_rank = NULL;
  int size, root_node;

  if (info->root == SEXTANT_NULL || info->comm == SEXTANT_NULL)
    return TRUE;
  if (!(ranks = sextant_store_read_comm_ranks (store, info->comm, error)))
    return FALSE;
  size = (int)ranks->len;
  if (size < 1 || info->root < 0 || info->root >= size || (guint)size != members->len)
    return TRUE;

  node_of_rank = g_new (int, size);
  for (int r = 0; r < size; r++)
    if ((node_of_rank[r] = member_index (members, g_array_index (ranks, gint64, r))) < 0)
      return TRUE;

  root_node = node_of_rank[info->root];
  for (int v = 1; v < size; v++)
    {
      int child_rank = (int)((v + info->root) % size);
      int parent_rank = (int)((_sextant_binomial_parent (v, in_order) + info->root) % size);
      const SextantCollectiveMember *child = &g_array_index (members, SextantCollectiveMember,
                                                             node_of_rank[child_rank]);
      const SextantCollectiveMember *parent = &g_array_index (members, SextantCollectiveMember,
                                                              node_of_rank[parent_rank]);
      SextantTreeEdge edge = {
        .from = node_of_rank[parent_rank],
        .to = node_of_rank[child_rank],
        /* a bcast's child receives the data, a reduce's child sends its part */
        .bytes = in_order ? child->bytes_sent : child->bytes_received,
        .begin = MAX (parent->enter, child->enter),
        .end = MAX (MAX (parent->enter, child->enter), child->leave),
        .by_loc = SEXTANT_NULL,
        .by = (char *)"model",
        .model = TRUE,
      };

      sextant_comm_tree_add_edge (tree, &edge);
      sextant_comm_tree_set_parent (tree, edge.to, edge.from);
    }
  sextant_comm_tree_set_root (tree, root_node);

  return TRUE;
}

SextantCommTree *
_sextant_tree_build_mpi_collective (SextantStore       *store,
                                    const char         *id,
                                    gint64              collective,
                                    SextantTreeLayout   layout,
                                    GError            **error)
{
  g_autoptr(SextantCollectiveInfo) info = NULL;
  g_autoptr(GArray) members = NULL;
  g_autoptr(SextantCommTree) tree = NULL;
  g_autofree char *title = NULL;
  g_auto(SextantGraphContext) ctx = { { 0 } };
  GError *local = NULL;
  const SextantLocationProcess *where;
  ReleaseRule rule;
  gint64 earliest = G_MAXINT64;
  g_autofree char *canonical = sextant_collective_id_to_string (collective);
  gboolean binomial;
  gint64 number;
  int releaser = -1;

  if (!(info = sextant_store_get_collective (store, collective, &local)))
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else
        _sextant_graph_set_unknown_id (error, id, "there is no MPI collective with that number");
      return NULL;
    }
  if (!(members = sextant_store_list_collective_members (store, collective, error)))
    return NULL;
  if (members->len == 0)
    {
      g_set_error (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA,
                   "MPI collective %s (%s) has no recorded members", id, info->kind);
      return NULL;
    }
  if (!_sextant_graph_context_init (&ctx, store, error))
    return NULL;

  rule = release_rule (info->kind);
  for (guint i = 0; i < members->len; i++)
    {
      const SextantCollectiveMember *m = &g_array_index (members, SextantCollectiveMember, i);
      const SextantCollectiveMember *r = releaser >= 0
        ? &g_array_index (members, SextantCollectiveMember, releaser) : NULL;

      earliest = MIN (earliest, m->enter);
      switch (rule)
        {
        case RELEASE_ROOT:
          if (m->loc == info->root_loc)
            releaser = (int)i;
          break;
        case RELEASE_LAST_CONTRIBUTOR:
          if (m->loc != info->root_loc && (r == NULL || m->enter > r->enter))
            releaser = (int)i;
          break;
        case RELEASE_LAST_ARRIVAL:
        default:
          if (r == NULL || m->enter > r->enter)
            releaser = (int)i;
          break;
        }
    }
  /* a root that did not take part, or a one-member reduce: the last to arrive */
  if (releaser < 0)
    for (guint i = 0; i < members->len; i++)
      if (releaser < 0 || g_array_index (members, SextantCollectiveMember, i).enter >
                          g_array_index (members, SextantCollectiveMember, releaser).enter)
        releaser = (int)i;

  where = _sextant_graph_context_location (&ctx, g_array_index (members, SextantCollectiveMember, releaser).loc);
  binomial = layout == SEXTANT_TREE_LAYOUT_BINOMIAL &&
             (g_str_equal (info->kind, "BCAST") || g_str_equal (info->kind, "REDUCE"));
  if (!sextant_collective_id_instance (info->id, &number))
    number = info->id;
  title = g_strdup_printf ("MPI %s%s #%" G_GINT64_FORMAT " on %s, %u members: released by %s (%s)%s",
                           info->nonblocking ? "non-blocking " : "", info->kind, number,
                           info->comm_name != NULL ? info->comm_name : "an unnamed communicator",
                           members->len, where != NULL ? where->label : "?", release_rule_text (rule),
                           binomial ? "; laid out on Open MPI's binomial tree" : "");
  /* the id as the listing gives it, whichever form was asked for */
  tree = _sextant_graph_context_new_tree (&ctx, SEXTANT_TREE_MPI_COLLECTIVE, canonical, title);
  sextant_comm_tree_set_has_model_layout (tree, g_str_equal (info->kind, "BCAST") || g_str_equal (info->kind, "REDUCE"));

  for (guint i = 0; i < members->len; i++)
    {
      const SextantCollectiveMember *m = &g_array_index (members, SextantCollectiveMember, i);
      const SextantLocationProcess *location = _sextant_graph_context_location (&ctx, m->loc);
      SextantTreeNode node = _sextant_graph_node (m->loc, location != NULL ? location->label : NULL, m->enter,
                                                  m->leave, m->enter - earliest);

      sextant_comm_tree_add_node (tree, &node);
    }
  sextant_comm_tree_set_root (tree, releaser);

  for (guint i = 0; i < members->len; i++)
    {
      const SextantCollectiveMember *m = &g_array_index (members, SextantCollectiveMember, i);
      const SextantCollectiveMember *r = &g_array_index (members, SextantCollectiveMember, releaser);
      SextantTreeEdge edge = {
        .from = releaser,
        .to = (int)i,
        .bytes = m->bytes_received,
        .begin = m->enter,
        .end = MIN (m->leave, MAX (m->enter, r->enter)),
        .by_loc = r->loc,
        .by = (char *)"release",
        .model = FALSE,
      };

      if ((int)i != releaser)
        sextant_comm_tree_add_edge (tree, &edge);
    }

  if (binomial && !add_binomial (tree, store, info, members, g_str_equal (info->kind, "REDUCE"), error))
    return NULL;

  sextant_comm_tree_finish (tree);

  return g_steal_pointer (&tree);
}

gboolean
_sextant_tree_list_mpi (SextantStore  *store,
                        GPtrArray     *refs,
                        GError       **error)
{
  g_autoptr(GPtrArray) infos = sextant_store_list_collective_infos (store, error);

  if (infos == NULL)
    return FALSE;

  for (guint i = 0; i < infos->len; i++)
    {
      SextantCollectiveInfo *info = g_ptr_array_index (infos, i);
      SextantCollectiveRef *ref = g_new0 (SextantCollectiveRef, 1);

      ref->id = sextant_collective_id_to_string (info->id);
      ref->kind = SEXTANT_TREE_MPI_COLLECTIVE;
      ref->operation = g_strdup (info->kind);
      ref->comm = g_strdup (info->comm_name);
      ref->root_loc = info->root_loc;
      ref->members = info->members;
      ref->begin = info->begin;
      ref->end = info->end;
      ref->bytes = info->bytes;
      g_ptr_array_add (refs, ref);
    }

  return TRUE;
}
