/*
 * sextant-pattern-tree.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The groups of the metric tree and the tree of an analysis's patterns
 * under them, with inclusive times (see sextant-pattern-tree.h).
 *
 * The groups follow Scalasca 2.6's metric hierarchy (its scout pattern
 * specifications: MPI.pattern, MPI_RMA.pattern), with Cube's short names:
 * Time > MPI > Management (Init/Finalize, Window management),
 * Synchronization (Collective, One-sided: active and passive target),
 * Communication (Point-to-point, Collective, One-sided). Scalasca's MPI,
 * Communication, ... nodes hold the time in the calls of their class; ours
 * hold the waiting found below them (the sum of their children), so a
 * share is a share of the run's total time lost to the patterns below.
 * Sextant's own branches: onecoll (the bundled RMA broadcast), Locks (one
 * pattern for MPI window, thread and onecoll locks, which Scalasca splits by
 * paradigm) and Diagnostics.
 */
#include "config.h"

#include <string.h>

#include "sextant-pattern-tree.h"

static const SextantPatternGroup groups[] = {
  { "time", "Time", NULL,
    "The run's total time: the sum over locations of the time from their first to their last event "
    "(Scalasca's Time). The wait states below it are parts of it; none is counted twice.", TRUE },
  { "mpi", "MPI", "time", "Waiting time in MPI calls.", TRUE },
  { "mpi_management", "Management", "mpi", "Waiting in MPI's management calls: initialisation, "
    "finalisation, window creation and release.", TRUE },
  { "mpi_init_exit", "Init/Finalize", "mpi_management", "MPI_Init, MPI_Init_thread and MPI_Finalize.", TRUE },
  { "mpi_mgmt_win", "Window management", "mpi_management", "MPI_Win_create and MPI_Win_free "
    "(and the other window constructors).", TRUE },
  { "mpi_synchronization", "Synchronization", "mpi", "Waiting in MPI's explicit synchronisation: barriers "
    "and one-sided epochs.", TRUE },
  { "mpi_sync_collective", "Collective", "mpi_synchronization", "MPI barriers.", TRUE },
  { "mpi_rma_synchronization", "One-sided", "mpi_synchronization", "One-sided (RMA) synchronisation.", TRUE },
  { "mpi_rma_sync_active", "Active target", "mpi_rma_synchronization", "Fences and general active target "
    "synchronisation.", TRUE },
  { "mpi_communication", "Communication", "mpi", "Waiting in MPI communication calls: point-to-point, "
    "collective and one-sided.", TRUE },
  { "mpi_point2point", "Point-to-point", "mpi_communication", "Sends, receives and the waits that "
    "complete them.", TRUE },
  { "mpi_collective", "Collective", "mpi_communication", "Collective communication (all but barriers).", TRUE },
  { "mpi_rma_communication", "One-sided", "mpi_communication", "One-sided (RMA) communication: puts, "
    "gets and atomics.", TRUE },
  { "onecoll", "onecoll", "time", "The RMA collectives of the bundled onecoll library: the binomial "
    "broadcast's relays and flushes.", TRUE },
  { "locks", "Locks", "time", "Waiting for locks: MPI window locks (Scalasca's MPI > Synchronization > "
    "One-sided > Passive target), OpenMP and POSIX thread locks, onecoll's shared-memory locks.", TRUE },
  { "diagnostics", "Diagnostics", NULL,
    "Statistics and hints that are not wait states of Scalasca's tree. Each counts time that the wait "
    "states under Time count too, or time that is not waiting, so they overlap and are not added up.",
    FALSE },
  { "diagnostics_point2point", "Point-to-point", "diagnostics", "Message order, early waits and "
    "send-receive pairs.", FALSE },
  { "diagnostics_collective", "Collective", "diagnostics", "Time alone inside collectives.", FALSE },
  { "hot_spots", "Hot spots", "diagnostics", "Call sites worth a look: frequent or large messages, "
    "imbalanced calls.", FALSE },
  { "master_worker", "Master/worker", "diagnostics", "Late Sender time of master/worker exchanges "
    "(part of late_sender's).", FALSE },
};

/**
 * sextant_pattern_group_lookup:
 * @id: a group's id
 *
 * Returns: (nullable) (transfer none): the group, or %NULL if @id names no
 *   group of the catalogue
 */
const SextantPatternGroup *
sextant_pattern_group_lookup (const char *id)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (groups); i++)
    if (strcmp (groups[i].id, id) == 0)
      return &groups[i];

  return NULL;
}

typedef struct
{
  char      *id;
  char      *title;
  char      *parent_id;
  char      *description;
  gboolean   is_group;
  gboolean   additive;
  gint64     exclusive;
  gint64     inclusive;
  gint64     sort_key;        /* inclusive, or for a non-additive group the sum of its children */
  gint64     instances;
  gint64     instances_below;
  int        parent;          /* index in items */
  GArray    *children;        /* of int, indexes in items */
} Item;

struct _SextantPatternTree
{
  GPtrArray *items;           /* Item*, patterns as added, then the groups they need */
  GArray    *nodes;           /* SextantPatternTreeNode, in tree order, once built */
};

static void
item_free (gpointer data)
{
  Item *item = data;

  g_free (item->id);
  g_free (item->title);
  g_free (item->parent_id);
  g_free (item->description);
  g_clear_pointer (&item->children, g_array_unref);
  g_free (item);
}

/**
 * sextant_pattern_tree_new:
 *
 * Returns: (transfer full): an empty tree: add the patterns, then build it
 */
SextantPatternTree *
sextant_pattern_tree_new (void)
{
  SextantPatternTree *self = g_new0 (SextantPatternTree, 1);

  self->items = g_ptr_array_new_with_free_func (item_free);
  self->nodes = g_array_new (FALSE, TRUE, sizeof (SextantPatternTreeNode));

  return self;
}

void
sextant_pattern_tree_free (SextantPatternTree *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->items);
  g_array_unref (self->nodes);
  g_free (self);
}

static Item *
item_new (const char *id,
          const char *title,
          const char *parent,
          const char *description)
{
  Item *item = g_new0 (Item, 1);

  item->id = g_strdup (id);
  item->title = g_strdup (title != NULL ? title : id);
  item->parent_id = g_strdup (parent);
  item->description = g_strdup (description);
  item->additive = TRUE;
  item->parent = -1;
  item->children = g_array_new (FALSE, FALSE, sizeof (int));

  return item;
}

/**
 * sextant_pattern_tree_add_pattern:
 * @parent: (nullable): the pattern's `-- parent:`, a group or a pattern
 * @description: (nullable): what it measures
 * @severity: the ticks its instances lost (its exclusive time)
 *
 * Adds a pattern before sextant_pattern_tree_build(). Ids are unique.
 */
void
sextant_pattern_tree_add_pattern (SextantPatternTree *self,
                                  const char         *id,
                                  const char         *title,
                                  const char         *parent,
                                  const char         *description,
                                  gint64              severity,
                                  gint64              instances)
{
  Item *item;

  g_return_if_fail (self != NULL);
  g_return_if_fail (id != NULL);

  item = item_new (id, title, parent, description);
  item->exclusive = MAX (severity, 0);
  item->instances = instances;
  g_ptr_array_add (self->items, item);
}

/* The index of the group @id's item, added (with the groups above it) if
 * it is not there yet. */
static int
ensure_group (SextantPatternTree *self,
              GHashTable         *index,
              const char         *id)
{
  const SextantPatternGroup *group = sextant_pattern_group_lookup (id);
  gpointer found;
  Item *item;
  int at;

  if (g_hash_table_lookup_extended (index, id, NULL, &found))
    return GPOINTER_TO_INT (found);

  item = item_new (group->id, group->title, group->parent, group->description);
  item->is_group = TRUE;
  item->additive = group->additive;
  g_ptr_array_add (self->items, item);
  at = (int)self->items->len - 1;
  g_hash_table_insert (index, item->id, GINT_TO_POINTER (at));
  if (group->parent != NULL)
    item->parent = ensure_group (self, index, group->parent);

  return at;
}

static void
compute (SextantPatternTree *self,
         int                 at,
         gint64              total_time)
{
  Item *item = g_ptr_array_index (self->items, at);
  gint64 sum = 0;

  item->instances_below = item->instances;
  for (guint k = 0; k < item->children->len; k++)
    {
      Item *child = g_ptr_array_index (self->items, g_array_index (item->children, int, k));

      compute (self, g_array_index (item->children, int, k), total_time);
      sum += child->additive ? child->inclusive : 0;
      item->instances_below += child->instances_below;
    }

  if (!item->is_group)
    item->inclusive = item->exclusive + sum;
  else if (!item->additive)
    item->inclusive = -1;
  else if (strcmp (item->id, "time") == 0)
    {
      /* the run's total time, of which the patterns below are parts */
      item->inclusive = MAX (total_time, sum);
      item->exclusive = item->inclusive - sum;
    }
  else
    item->inclusive = sum;

  item->sort_key = item->additive ? item->inclusive : sum;
}

/* Siblings: the roots Time and Diagnostics first, then by time
 * (inclusive), then by title */
static int
compare_siblings (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  GPtrArray *items = user_data;
  const Item *x = g_ptr_array_index (items, *(const int *)a);
  const Item *y = g_ptr_array_index (items, *(const int *)b);
  int time_x = x->is_group && strcmp (x->id, "time") == 0;
  int time_y = y->is_group && strcmp (y->id, "time") == 0;
  int diag_x = x->is_group && strcmp (x->id, "diagnostics") == 0;
  int diag_y = y->is_group && strcmp (y->id, "diagnostics") == 0;

  if (time_x != time_y)
    return time_y - time_x;
  if (diag_x != diag_y)
    return diag_y - diag_x;
  if (x->sort_key != y->sort_key)
    return x->sort_key > y->sort_key ? -1 : 1;

  return g_strcmp0 (x->title, y->title) != 0 ? g_strcmp0 (x->title, y->title) : g_strcmp0 (x->id, y->id);
}

static void
emit (SextantPatternTree *self,
      int                 at,
      int                 parent,
      guint               depth)
{
  Item *item = g_ptr_array_index (self->items, at);
  SextantPatternTreeNode node = {
    .id = item->id, .title = item->title, .description = item->description, .parent = parent,
    .depth = depth, .n_children = item->children->len, .is_group = item->is_group, .additive = item->additive,
    .exclusive = item->exclusive, .inclusive = item->inclusive, .instances = item->instances,
    .instances_below = item->instances_below,
  };
  guint self_index = self->nodes->len;

  g_array_append_val (self->nodes, node);
  for (guint k = 0; k < item->children->len; k++)
    emit (self, g_array_index (item->children, int, k), (int)self_index, depth + 1);
  g_array_index (self->nodes, SextantPatternTreeNode, self_index).n_below = self->nodes->len - self_index - 1;
}

/**
 * sextant_pattern_tree_build:
 * @total_time: the run's total time in ticks (the sum over locations of
 *   their time span), the root Time's
 *
 * Places the patterns added under their parents, adds the groups they
 * need (and Time, always), computes the inclusive times and lays the nodes
 * out in tree order: roots Time, then Diagnostics, then the others;
 * siblings by time, the largest first. A pattern whose parent is neither a
 * pattern nor a group, or that would be its own ancestor, is a root.
 */
void
sextant_pattern_tree_build (SextantPatternTree *self,
                            gint64              total_time)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (int));
  guint n_patterns;

  g_return_if_fail (self != NULL);
  g_return_if_fail (self->nodes->len == 0);

  n_patterns = self->items->len;
  for (guint i = 0; i < n_patterns; i++)
    {
      Item *item = g_ptr_array_index (self->items, i);

      g_hash_table_insert (index, item->id, GINT_TO_POINTER ((int)i));
    }
  ensure_group (self, index, "time");

  for (guint i = 0; i < n_patterns; i++)
    {
      Item *item = g_ptr_array_index (self->items, i);
      gpointer found;

      if (item->parent_id == NULL)
        continue;
      if (g_hash_table_lookup_extended (index, item->parent_id, NULL, &found))
        item->parent = GPOINTER_TO_INT (found);
      else if (sextant_pattern_group_lookup (item->parent_id) != NULL)
        item->parent = ensure_group (self, index, item->parent_id);
    }

  /* a pattern that is its own ancestor (a -> b -> a) becomes a root */
  for (guint i = 0; i < n_patterns; i++)
    {
      Item *item = g_ptr_array_index (self->items, i);
      int up = item->parent;

      for (guint steps = 0; up >= 0 && steps <= self->items->len; steps++)
        {
          if (up == (int)i)
            {
              item->parent = -1;
              break;
            }
          up = ((Item *)g_ptr_array_index (self->items, up))->parent;
        }
    }

  for (guint i = 0; i < self->items->len; i++)
    {
      Item *item = g_ptr_array_index (self->items, i);
      int at = (int)i;

      if (item->parent >= 0)
        g_array_append_val (((Item *)g_ptr_array_index (self->items, item->parent))->children, at);
      else
        g_array_append_val (roots, at);
    }

  for (guint r = 0; r < roots->len; r++)
    compute (self, g_array_index (roots, int, r), total_time);

  g_array_sort_with_data (roots, compare_siblings, self->items);
  for (guint i = 0; i < self->items->len; i++)
    g_array_sort_with_data (((Item *)g_ptr_array_index (self->items, i))->children, compare_siblings, self->items);

  for (guint r = 0; r < roots->len; r++)
    emit (self, g_array_index (roots, int, r), -1, 0);
}

guint
sextant_pattern_tree_get_n_nodes (SextantPatternTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->nodes->len;
}

/**
 * sextant_pattern_tree_get_node:
 * @index: below sextant_pattern_tree_get_n_nodes()
 *
 * Returns: (transfer none): the node, valid as long as the tree
 */
const SextantPatternTreeNode *
sextant_pattern_tree_get_node (SextantPatternTree *self,
                               guint               index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->nodes->len, NULL);
  return &g_array_index (self->nodes, SextantPatternTreeNode, index);
}

/**
 * sextant_pattern_tree_lookup:
 *
 * Returns: the index of the node @id, or -1
 */
int
sextant_pattern_tree_lookup (SextantPatternTree *self,
                             const char         *id)
{
  g_return_val_if_fail (self != NULL, -1);

  for (guint i = 0; i < self->nodes->len; i++)
    if (g_strcmp0 (g_array_index (self->nodes, SextantPatternTreeNode, i).id, id) == 0)
      return (int)i;

  return -1;
}
