/*
 * sextant-torus-tree.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A collective tree on the torus (Mukosey, Semenov, Simonov 2015, §1-2.1;
 * docs/sim.md). The dimension-ordered tree from root r: a node's route
 * from r goes the short way along X, then Y, then Z, then W (offsets of
 * sextant_torus_get_offset ()), so its up-link goes back one link along
 * the last dimension in which it differs from r, and its down-links are
 * the next node along that dimension (away from r, while still the short
 * way) and both neighbours along every later dimension.
 *
 * A valid tree (the router's rules, checked by
 * sextant_torus_tree_validate () for any table, dimension-ordered or not):
 *   1. exactly one root;
 *   2. a down-link leads to a tree node whose up-link points back;
 *   3. down-links go only along dimensions later than the up-link's, or
 *      opposite to the up-link (carrying on the same way);
 * and, implied for a tree but not by the three rules, every tree node is
 * reached from the root. Validation also computes the breadth-first order
 * from the root, each node's depth and the height of its subtree, which
 * the model (sextant-torus-sim.c) uses.
 *
 * Workload: linear in the nodes; 5 bytes of table and 12 of derived data
 * per node.
 */
#include "config.h"

#include <string.h>

#include "sextant-torus-tree.h"

struct _SextantTorusTree
{
  SextantTorus        *torus;
  SextantTorusTreeRow *rows;
  /* valid after sextant_torus_tree_validate () */
  gboolean             valid;
  guint                root;
  guint                depth;
  guint                n_members;
  guint                n_in_tree;
  guint               *order;     /* breadth-first from the root */
  guint16             *depths;
  guint16             *heights;
};

/**
 * sextant_torus_tree_new:
 * @torus: (transfer none): the torus, which the tree keeps a reference to
 *
 * Returns: (transfer full): a table with no node in the tree; fill it with
 * sextant_torus_tree_set_row (), then validate it
 */
SextantTorusTree *
sextant_torus_tree_new (SextantTorus *torus)
{
  SextantTorusTree *self = g_new0 (SextantTorusTree, 1);
  guint n = sextant_torus_get_n_nodes (torus);

  self->torus = sextant_torus_ref (torus);
  self->rows = g_new0 (SextantTorusTreeRow, n);
  for (guint i = 0; i < n; i++)
    self->rows[i].to_root = SEXTANT_TORUS_DIR_NONE;

  return self;
}

/**
 * sextant_torus_tree_new_dimension_order:
 * @torus: (transfer none): the torus
 * @root: the root node
 * @error: SEXTANT_SIM_ERROR_NODE when @root is not in the torus
 *
 * Returns: (transfer full) (nullable): the validated tree of every node,
 * all participating, built from @root in dimension order X, Y, Z, W
 */
SextantTorusTree *
sextant_torus_tree_new_dimension_order (SextantTorus  *torus,
                                        guint          root,
                                        GError       **error)
{
  g_autoptr(SextantTorusTree) self = NULL;
  guint n = sextant_torus_get_n_nodes (torus);
  guint n_dims = sextant_torus_get_n_dims (torus);

  if (root >= n)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_NODE,
                   "root %u is not a node of the torus (0 to %u)", root, n - 1);
      return NULL;
    }

  self = sextant_torus_tree_new (torus);
  for (guint v = 0; v < n; v++)
    {
      SextantTorusTreeRow *row = &self->rows[v];
      int last = -1;
      int offset = 0;

      row->in_tree = TRUE;
      row->pe = TRUE;
      for (guint d = 0; d < n_dims; d++)
        {
          int o = sextant_torus_get_offset (torus, root, v, d);

          if (o != 0)
            {
              last = (int)d;
              offset = o;
            }
        }

      if (last < 0)
        row->is_root = TRUE;
      else
        {
          int size = (int)sextant_torus_get_size (torus, last);
          int further = offset > 0 ? offset + 1 : offset - 1;

          /* back towards the root along the last dimension that differs */
          row->to_root = SEXTANT_TORUS_DIR (last, offset > 0);
          /* on along it while the node there is still reached this way */
          if (further > -((size + 1) / 2) && further <= size / 2 && (further > 0) == (offset > 0))
            row->dirs |= 1u << SEXTANT_TORUS_DIR (last, offset < 0);
        }
      for (guint d = (guint)(last + 1); d < n_dims; d++)
        {
          row->dirs |= 1u << SEXTANT_TORUS_DIR (d, FALSE);
          /* with size 2 both ways lead to one node, reached going + */
          if (sextant_torus_get_size (torus, d) > 2)
            row->dirs |= 1u << SEXTANT_TORUS_DIR (d, TRUE);
        }
    }

  if (!sextant_torus_tree_validate (self, error))
    g_return_val_if_reached (NULL);

  return g_steal_pointer (&self);
}

void
sextant_torus_tree_free (SextantTorusTree *self)
{
  if (self == NULL)
    return;

  sextant_torus_unref (self->torus);
  g_free (self->rows);
  g_free (self->order);
  g_free (self->depths);
  g_free (self->heights);
  g_free (self);
}

/* Sets @node's row; the tree must be validated again. */
void
sextant_torus_tree_set_row (SextantTorusTree          *self,
                            guint                      node,
                            const SextantTorusTreeRow *row)
{
  g_return_if_fail (node < sextant_torus_get_n_nodes (self->torus));

  self->rows[node] = *row;
  self->valid = FALSE;
}

const SextantTorusTreeRow *
sextant_torus_tree_get_row (const SextantTorusTree *self,
                            guint                   node)
{
  g_return_val_if_fail (node < sextant_torus_get_n_nodes (self->torus), NULL);

  return &self->rows[node];
}

/* Returns: (transfer none): the rows of every node, by node id (the
 * model's inner loop reads them without a call per row) */
const SextantTorusTreeRow *
sextant_torus_tree_get_rows (const SextantTorusTree *self)
{
  return self->rows;
}

/**
 * sextant_torus_tree_set_transit:
 * @error: SEXTANT_SIM_ERROR_NODE when @node is not a tree node
 *
 * Makes @node a transit node: in the tree, its processor not taking part
 * (Pe = 0). The validity of the tree is unchanged.
 */
gboolean
sextant_torus_tree_set_transit (SextantTorusTree  *self,
                                guint              node,
                                GError           **error)
{
  if (node >= sextant_torus_get_n_nodes (self->torus) || !self->rows[node].in_tree)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_NODE,
                   "transit node %u is not a node of the tree", node);
      return FALSE;
    }
  if (self->rows[node].pe && self->valid)
    self->n_members--;
  self->rows[node].pe = FALSE;

  return TRUE;
}

/**
 * sextant_torus_tree_validate:
 * @error: the rule broken: SEXTANT_SIM_ERROR_TREE_ROOT (rule 1),
 *   _TREE_DOWN_LINK (rule 2), _TREE_ORDER (rule 3) or _TREE_DETACHED, with
 *   the node and link in the message
 *
 * Checks the table against the router's rules; on success computes the
 * depths and heights the getters return.
 *
 * Returns: whether the tree is valid
 */
gboolean
sextant_torus_tree_validate (SextantTorusTree  *self,
                             GError           **error)
{
  guint n = sextant_torus_get_n_nodes (self->torus);
  guint n_roots = 0, n_in = 0, head = 0, tail = 0;
  guint root = 0;

  self->valid = FALSE;
  for (guint v = 0; v < n; v++)
    {
      const SextantTorusTreeRow *row = &self->rows[v];

      if (!row->in_tree)
        continue;
      n_in++;
      if (row->is_root)
        {
          root = v;
          n_roots++;
        }
    }
  if (n_roots != 1)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TREE_ROOT,
                   "rule 1 (exactly one root) broken: the tree has %u roots", n_roots);
      return FALSE;
    }

  for (guint v = 0; v < n; v++)
    {
      const SextantTorusTreeRow *row = &self->rows[v];

      if (row->in_tree && !row->is_root && row->to_root >= 2 * sextant_torus_get_n_dims (self->torus))
        {
          g_autofree char *at = sextant_torus_format_node (self->torus, v);

          g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TREE_DETACHED,
                       "node %u %s is in the tree but has no up-link", v, at);
          return FALSE;
        }
    }

  for (guint v = 0; v < n; v++)
    {
      const SextantTorusTreeRow *row = &self->rows[v];

      if (!row->in_tree)
        continue;
      for (guint dir = 0; dir < SEXTANT_TORUS_MAX_DIRS; dir++)
        {
          g_autofree char *at = NULL;
          g_autofree char *link = NULL;
          guint w;

          if ((row->dirs & (1u << dir)) == 0)
            continue;
          at = sextant_torus_format_node (self->torus, v);
          link = sextant_torus_dir_to_string (dir);
          if (dir >= 2 * sextant_torus_get_n_dims (self->torus))
            {
              g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TREE_DOWN_LINK,
                           "rule 2 (a down-link leads to a tree node) broken: node %u %s has a down-link %s "
                           "along a dimension the torus does not have", v, at, link);
              return FALSE;
            }
          w = sextant_torus_get_neighbor (self->torus, v, dir);
          if (!self->rows[w].in_tree || self->rows[w].is_root ||
              sextant_torus_get_neighbor (self->torus, w, self->rows[w].to_root) != v ||
              (self->rows[w].to_root != SEXTANT_TORUS_DIR_OPPOSITE (dir) &&
               sextant_torus_get_size (self->torus, SEXTANT_TORUS_DIR_DIM (dir)) > 2))
            {
              g_autofree char *wat = sextant_torus_format_node (self->torus, w);

              g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TREE_DOWN_LINK,
                           "rule 2 (a down-link leads to a tree node whose up-link points back) broken: "
                           "node %u %s has a down-link %s to node %u %s, %s", v, at, link, w, wat,
                           !self->rows[w].in_tree ? "which is not in the tree"
                           : self->rows[w].is_root ? "which is the root"
                                                   : "whose up-link does not point back");
              return FALSE;
            }
          if (!row->is_root && dir != SEXTANT_TORUS_DIR_OPPOSITE (row->to_root) &&
              SEXTANT_TORUS_DIR_DIM (dir) <= SEXTANT_TORUS_DIR_DIM (row->to_root))
            {
              g_autofree char *up = sextant_torus_dir_to_string (row->to_root);

              g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TREE_ORDER,
                           "rule 3 (down-links only along later dimensions than the up-link, or opposite "
                           "to it) broken: node %u %s has the up-link %s and a down-link %s",
                           v, at, up, link);
              return FALSE;
            }
        }
    }

  /* breadth-first from the root: every tree node reached exactly once
   * (rule 2 gives each node one parent at most) */
  g_clear_pointer (&self->order, g_free);
  g_clear_pointer (&self->depths, g_free);
  g_clear_pointer (&self->heights, g_free);
  self->order = g_new (guint, n_in);
  self->depths = g_new0 (guint16, n);
  self->heights = g_new0 (guint16, n);
  self->order[tail++] = root;
  self->depth = 0;
  while (head < tail)
    {
      guint v = self->order[head++];

      for (guint dir = 0; dir < SEXTANT_TORUS_MAX_DIRS; dir++)
        if (self->rows[v].dirs & (1u << dir))
          {
            guint w = sextant_torus_get_neighbor (self->torus, v, dir);

            if (tail == n_in)
              {
                g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TREE_DETACHED,
                             "the down-links from the root reach node %u twice", w);
                return FALSE;
              }
            self->order[tail++] = w;
            self->depths[w] = self->depths[v] + 1;
            self->depth = MAX (self->depth, self->depths[w]);
          }
    }
  if (tail != n_in)
    {
      guint v = 0;

      for (v = 0; v < n; v++)
        if (self->rows[v].in_tree && v != root && self->depths[v] == 0)
          break;
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TREE_DETACHED,
                   "%u tree nodes are not reached from the root %u (node %u first): an up-link cycle",
                   n_in - tail, root, v);
      return FALSE;
    }
  for (guint i = n_in; i-- > 1;)
    {
      guint v = self->order[i];
      guint p = sextant_torus_get_neighbor (self->torus, v, self->rows[v].to_root);

      self->heights[p] = MAX (self->heights[p], self->heights[v] + 1);
    }

  self->n_members = 0;
  for (guint i = 0; i < n_in; i++)
    self->n_members += self->rows[self->order[i]].pe ? 1 : 0;
  self->root = root;
  self->n_in_tree = n_in;
  self->valid = TRUE;

  return TRUE;
}

SextantTorus *
sextant_torus_tree_get_torus (const SextantTorusTree *self)
{
  return self->torus;
}

guint
sextant_torus_tree_get_root (const SextantTorusTree *self)
{
  g_return_val_if_fail (self->valid, 0);

  return self->root;
}

/* Returns: the node @node's up-link leads to, or @node at the root */
guint
sextant_torus_tree_get_parent (const SextantTorusTree *self,
                               guint                   node)
{
  if (self->rows[node].is_root || self->rows[node].to_root >= 2 * sextant_torus_get_n_dims (self->torus))
    return node;

  return sextant_torus_get_neighbor (self->torus, node, self->rows[node].to_root);
}

/* Returns: the most links from the root to a tree node */
guint
sextant_torus_tree_get_depth (const SextantTorusTree *self)
{
  g_return_val_if_fail (self->valid, 0);

  return self->depth;
}

guint
sextant_torus_tree_get_node_depth (const SextantTorusTree *self,
                                   guint                   node)
{
  g_return_val_if_fail (self->valid, 0);

  return self->depths[node];
}

/* Returns: the most links from @node down to a leaf of its subtree */
guint
sextant_torus_tree_get_height (const SextantTorusTree *self,
                               guint                   node)
{
  g_return_val_if_fail (self->valid, 0);

  return self->heights[node];
}

/* Returns: (transfer none): the tree nodes, breadth-first from the root */
const guint *
sextant_torus_tree_get_order (const SextantTorusTree *self)
{
  g_return_val_if_fail (self->valid, NULL);

  return self->order;
}

/* Returns: the nodes in the tree (the length of the order) */
guint
sextant_torus_tree_get_n_in_tree (const SextantTorusTree *self)
{
  g_return_val_if_fail (self->valid, 0);

  return self->n_in_tree;
}

/* Returns: the participating (not transit) tree nodes */
guint
sextant_torus_tree_get_n_members (const SextantTorusTree *self)
{
  return self->n_members;
}

guint
sextant_torus_tree_get_n_children (const SextantTorusTree *self,
                                   guint                   node)
{
  return (guint)__builtin_popcount (self->rows[node].dirs);
}

/**
 * sextant_torus_tree_get_children:
 * @dirs: (out caller-allocates) (array fixed-size=8): the down-link
 *   directions, deepest subtree first (ties: dimension order)
 *
 * Returns: how many
 */
guint
sextant_torus_tree_get_children (const SextantTorusTree *self,
                                 guint                   node,
                                 guint8                 *dirs)
{
  guint k = 0;

  for (guint dir = 0; dir < SEXTANT_TORUS_MAX_DIRS; dir++)
    if (self->rows[node].dirs & (1u << dir))
      {
        guint h = self->heights[sextant_torus_get_neighbor (self->torus, node, dir)];
        guint j = k++;

        /* insertion sort by height, stable */
        while (j > 0 && self->heights[sextant_torus_get_neighbor (self->torus, node, dirs[j - 1])] < h)
          {
            dirs[j] = dirs[j - 1];
            j--;
          }
        dirs[j] = (guint8)dir;
      }

  return k;
}
