/*
 * sextant-tree-view-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where the tree view draws each node. Depths are rows, top-down from the
 * root (for a delay chain the root cause: what caused a wait is above it,
 * as a sender is above its receivers, so the delay runs down the rows and
 * to the right in time); inside a row a node's box sits at its arrival
 * time, and nodes whose boxes or bars would overlap go into lanes. A row
 * shows MAX_PER_DEPTH nodes, the critical path's and the latest (by
 * lateness) of the others, and EXPAND_STEP more of a parent's children
 * for each click on its collapsed box; the other children of each
 * parent, with their subtrees, become one aggregate box. Linear in the
 * nodes but for the lanes (quadratic in the items of one row).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-tree-view-private.h"

/* Sorting one depth's candidates: which are shown first */
typedef struct
{
  SextantCommTree *tree;
  const gboolean  *critical;
} Priority;

static int
compare_priority (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const Priority *p = user_data;
  int i = *(const int *)a;
  int j = *(const int *)b;
  const SextantTreeNode *x = sextant_comm_tree_get_node (p->tree, (guint)i);
  const SextantTreeNode *y = sextant_comm_tree_get_node (p->tree, (guint)j);

  if (p->critical[i] != p->critical[j])
    return p->critical[i] ? -1 : 1;
  if (x->lateness != y->lateness)
    return x->lateness > y->lateness ? -1 : 1;
  if (x->arrival != y->arrival)
    return x->arrival < y->arrival ? -1 : 1;
  return (i > j) - (i < j);
}

/* The location's label without what every rank's label says: "Rank 3",
 * "Rank 3 / thread 2" */
static char *
box_text (const SextantTreeNode *node)
{
  const char *name = node->name != NULL ? node->name : "?";

  if (g_str_has_prefix (name, "MPI "))
    name += strlen ("MPI ");

  return g_strdup (name);
}

static void
item_clear (gpointer data)
{
  Item *item = data;

  g_free (item->text);
}

void
_sextant_tree_layout_free (Layout *layout)
{
  g_free (layout->parent);
  g_free (layout->edge_in);
  g_free (layout->item_of);
  g_clear_pointer (&layout->items, g_array_unref);
  g_free (layout->depth_y);
  g_free (layout->depth_lanes);
  g_clear_pointer (&layout->torus, _sextant_tree_torus_plan_free);
  g_free (layout);
}

/* A layout of @n_nodes nodes, none placed yet (item_of -1), no items */
Layout *
_sextant_tree_layout_alloc (guint n_nodes,
                            int   width)
{
  Layout *layout = g_new0 (Layout, 1);

  layout->n_nodes = n_nodes;
  layout->width = width;
  layout->parent = g_new (int, MAX (n_nodes, 1));
  layout->edge_in = g_new (int, MAX (n_nodes, 1));
  layout->item_of = g_new (int, MAX (n_nodes, 1));
  for (guint i = 0; i < n_nodes; i++)
    layout->parent[i] = layout->edge_in[i] = layout->item_of[i] = -1;
  layout->items = g_array_new (FALSE, TRUE, sizeof (Item));
  g_array_set_clear_func (layout->items, item_clear);

  return layout;
}

double
_sextant_tree_layout_x (Layout *layout,
                        gint64  t)
{
  return layout->x0 + (double)(t - layout->t0) / (double)(layout->t1 - layout->t0) * layout->plot;
}

/* The parents the layout uses: the recorded ones (or, in the model layout,
 * the assumed algorithm's edges), each with the edge that reached it */
static void
find_parents (Layout          *layout,
              SextantCommTree *tree,
              gboolean         model)
{
  guint n_edges = sextant_comm_tree_get_n_edges (tree);
  int root = sextant_comm_tree_get_root (tree);
  gboolean has_model = FALSE;

  for (guint e = 0; e < n_edges; e++)
    has_model |= sextant_comm_tree_get_edge (tree, e)->model;
  layout->model = model && has_model;

  for (guint i = 0; i < layout->n_nodes; i++)
    {
      layout->parent[i] = layout->model ? -1 : sextant_comm_tree_get_node (tree, i)->parent;
      layout->edge_in[i] = -1;
    }
  for (guint e = 0; e < n_edges; e++)
    {
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (tree, e);

      if (edge->from == edge->to || edge->to == root || edge->model != layout->model)
        continue;
      if (layout->model && layout->parent[edge->to] < 0)
        layout->parent[edge->to] = edge->from;
      if (layout->edge_in[edge->to] < 0 && layout->parent[edge->to] == edge->from)
        layout->edge_in[edge->to] = (int)e;
    }
  for (guint i = 0; i < layout->n_nodes; i++)
    if (layout->parent[i] < 0 || (guint)layout->parent[i] >= layout->n_nodes)
      layout->parent[i] = -1;
}

/* The time axis: everything the tree holds, so that expanding a box does
 * not move the others */
static void
find_span (Layout          *layout,
           SextantCommTree *tree)
{
  gint64 t0 = G_MAXINT64, t1 = G_MININT64;

#define SPAN(t) G_STMT_START { if ((t) != SEXTANT_NULL) { t0 = MIN (t0, (t)); t1 = MAX (t1, (t)); } } G_STMT_END
  for (guint i = 0; i < layout->n_nodes; i++)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (tree, i);

      SPAN (node->arrival);
      SPAN (node->finish);
      SPAN (node->begin);
      SPAN (node->end);
      layout->max_lateness = MAX (layout->max_lateness, node->lateness);
    }
  for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
    {
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (tree, e);

      if (edge->model != layout->model && edge->model)
        continue;
      SPAN (edge->begin);
      SPAN (edge->end);
    }
#undef SPAN
  if (t0 > t1)
    t0 = t1 = 0;
  layout->t0 = t0;
  layout->t1 = MAX (t1, t0 + 1);
}

static Item *
add_item (Layout   *layout,
          ItemKind  kind,
          int       node,
          guint     depth)
{
  Item item = { 0 };

  item.kind = kind;
  item.node = node;
  item.depth = depth;
  g_array_append_val (layout->items, item);

  return &g_array_index (layout->items, Item, layout->items->len - 1);
}

/* Lanes: in one depth, each item goes into the first lane where its box
 * and its bar overlap nothing (in a row crowded past MAX_PER_DEPTH, its
 * box: the bars run under the later boxes, and the row is as many lanes
 * high as the boxes need, not one a member); the critical path's first,
 * so that it keeps to lane 0 */
static guint
pack_lanes (Layout *layout,
            GArray *row)
{
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (GArray *));
  gboolean crowded = row->len > MAX_PER_DEPTH;
  guint lanes = 0;

  for (guint k = 0; k < row->len; k++)
    {
      Item *item = &g_array_index (layout->items, Item, g_array_index (row, guint, k));
      double from = item->box.origin.x;
      double to = (crowded ? item->box.origin.x + item->box.size.width
                           : MAX (item->box.origin.x + item->box.size.width, item->bar_end)) + ITEM_GAP;
      guint lane;

      for (lane = 0; lane < lanes; lane++)
        {
          GArray *taken = g_array_index (ends, GArray *, lane);
          gboolean free = TRUE;

          for (guint s = 0; s < taken->len && free; s += 2)
            free = to <= g_array_index (taken, double, s) || from >= g_array_index (taken, double, s + 1);
          if (free)
            break;
        }
      if (lane == lanes)
        {
          GArray *taken = g_array_new (FALSE, FALSE, sizeof (double));

          g_array_append_val (ends, taken);
          lanes++;
        }
      g_array_append_val (g_array_index (ends, GArray *, lane), from);
      g_array_append_val (g_array_index (ends, GArray *, lane), to);
      item->lane = lane;
    }
  for (guint lane = 0; lane < lanes; lane++)
    g_array_unref (g_array_index (ends, GArray *, lane));

  return MAX (lanes, 1);
}

static int
compare_row (gconstpointer a,
             gconstpointer b,
             gpointer      user_data)
{
  GArray *items = user_data;
  const Item *x = &g_array_index (items, Item, *(const guint *)a);
  const Item *y = &g_array_index (items, Item, *(const guint *)b);

  if (x->critical != y->critical)
    return x->critical ? -1 : 1;
  return (x->box.origin.x > y->box.origin.x) - (x->box.origin.x < y->box.origin.x);
}

/* The boxes' widths, the time axis between the margins, then the rows'
 * lanes and places, and the height */
static void
place_items (Layout      *layout,
             PangoLayout *text)
{
  double widest = BOX_MIN_WIDTH;
  double y;

  for (guint k = 0; k < layout->items->len; k++)
    {
      Item *item = &g_array_index (layout->items, Item, k);
      int text_width;

      if (item->kind == ITEM_AGGREGATE)
        item->text = g_strdup_printf ("+ %u %s", item->members, item->members == 1 ? "rank" : "ranks");
      pango_layout_set_text (text, item->text, -1);
      pango_layout_get_pixel_size (text, &text_width, NULL);
      item->box.size.width = CLAMP (text_width + 2 * BOX_PAD, BOX_MIN_WIDTH, BOX_MAX_WIDTH);
      item->box.size.height = BOX_HEIGHT;
      widest = MAX (widest, item->box.size.width);
    }
  layout->x0 = MARGIN;
  layout->plot = MAX (layout->width - 2 * MARGIN - widest, 60);
  for (guint k = 0; k < layout->items->len; k++)
    {
      Item *item = &g_array_index (layout->items, Item, k);

      item->box.origin.x = floor (_sextant_tree_layout_x (layout, item->t));
      item->bar_end = _sextant_tree_layout_x (layout, item->t_end);
    }

  /* lanes, depth by depth; then the rows' places */
  layout->depth_y = g_new0 (double, MAX (layout->n_depths, 1));
  layout->depth_lanes = g_new0 (guint, MAX (layout->n_depths, 1));
  y = LEGEND_HEIGHT + RULER_HEIGHT + 10;
  for (guint d = 0; d < layout->n_depths; d++)
    {
      g_autoptr(GArray) row = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint k = 0; k < layout->items->len; k++)
        if (g_array_index (layout->items, Item, k).depth == d)
          g_array_append_val (row, k);
      g_array_sort_with_data (row, compare_row, layout->items);
      layout->depth_lanes[d] = pack_lanes (layout, row);
      layout->depth_y[d] = y;
      for (guint k = 0; k < row->len; k++)
        {
          Item *item = &g_array_index (layout->items, Item, g_array_index (row, guint, k));

          item->box.origin.y = y + item->lane * (BOX_HEIGHT + LANE_GAP);
        }
      y += layout->depth_lanes[d] * (BOX_HEIGHT + LANE_GAP) - LANE_GAP + DEPTH_GAP;
    }
  layout->height = (int)ceil (y - DEPTH_GAP + MARGIN);
}

/* An exchange (sextant_comm_tree_is_exchange()): a row per node, in the
 * tree's order (by location); past MAX_EXCHANGE_ROWS (and EXPAND_STEP more
 * for each click on the box) the critical path's and the first of the
 * others, the rest in one box at the bottom */
static void
layout_exchange (Layout          *layout,
                 SextantCommTree *tree,
                 GHashTable      *expanded,
                 const gboolean  *critical)
{
  guint n = layout->n_nodes, shown = 0, hidden = 0;
  guint rows = MAX_EXCHANGE_ROWS + GPOINTER_TO_UINT (g_hash_table_lookup (expanded, GINT_TO_POINTER (1)));
  Item *agg = NULL;

  for (guint i = 0; i < n; i++)
    {
      layout->parent[i] = -1;
      layout->edge_in[i] = -1;
      layout->item_of[i] = -1;
      shown += critical[i];
    }
  for (guint i = 0; i < n; i++)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (tree, i);
      Item *item;

      if (!critical[i] && shown >= rows)
        {
          hidden++;
          continue;
        }
      shown += !critical[i];
      item = add_item (layout, ITEM_NODE, (int)i, layout->n_depths++);
      item->critical = critical[i];
      item->t = node->arrival;
      item->t_end = MAX (node->finish, node->arrival);
      item->text = box_text (node);
      layout->item_of[i] = (int)layout->items->len - 1;
    }
  for (guint i = 0; i < n && hidden > 0; i++)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (tree, i);

      if (layout->item_of[i] >= 0)
        continue;
      if (agg == NULL)
        {
          agg = add_item (layout, ITEM_AGGREGATE, -1, layout->n_depths++);
          agg->t = node->arrival;
          agg->t_end = node->finish;
        }
      agg->members++;
      agg->t = MIN (agg->t, node->arrival);
      agg->t_end = MAX (agg->t_end, node->finish);
    }
}

/**
 * _sextant_tree_layout_new:
 * @expanded: node index + 2 (-1: the roots) -> how many more of its
 *   collapsed children show (GUINT_TO_POINTER)
 * @model: lay the tree out on its model edges when it has any
 * @width: the widget's width
 * @text: a layout of the widget's, to measure the boxes' text
 *
 * Returns: (transfer full): where everything goes, and the widget's height
 */
Layout *
_sextant_tree_layout_new (SextantCommTree *tree,
                          GHashTable      *expanded,
                          gboolean         model,
                          int              width,
                          PangoLayout     *text)
{
  guint n = sextant_comm_tree_get_n_nodes (tree);
  g_autoptr(Layout) layout = _sextant_tree_layout_alloc (n, width);
  const GArray *path = sextant_comm_tree_get_critical_path (tree);
  g_autofree gboolean *critical = g_new0 (gboolean, MAX (n, 1));
  g_autofree guint *budget = g_new0 (guint, n + 1);
  g_autofree gboolean *visible = g_new0 (gboolean, MAX (n, 1));
  g_autofree int *child_start = g_new0 (int, n + 2);
  g_autofree int *children = g_new (int, MAX (n, 1));
  g_autofree int *order = g_new (int, MAX (n, 1));
  g_autofree guint *depth = g_new0 (guint, MAX (n, 1));
  g_autofree guint *subtree = g_new (guint, MAX (n, 1));
  g_autofree gint64 *subtree_last = g_new (gint64, MAX (n, 1));
  g_autoptr(GArray) level = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) next = g_array_new (FALSE, FALSE, sizeof (int));
  Priority priority = { tree, critical };
  guint n_order = 0;
  int root = sextant_comm_tree_get_root (tree);

  find_parents (layout, tree, model);
  find_span (layout, tree);
  for (guint k = 0; k < path->len; k++)
    critical[g_array_index (path, int, k)] = TRUE;
  if (sextant_comm_tree_is_exchange (tree))
    {
      layout_exchange (layout, tree, expanded, critical);
      place_items (layout, text);
      return g_steal_pointer (&layout);
    }

  /* children, in node order */
  for (guint i = 0; i < n; i++)
    if (layout->parent[i] >= 0)
      child_start[layout->parent[i] + 2]++;
  for (guint i = 0; i < n; i++)
    child_start[i + 2] += child_start[i + 1];
  for (guint i = 0; i < n; i++)
    if (layout->parent[i] >= 0)
      children[child_start[layout->parent[i] + 1]++] = (int)i;

  /* breadth first from the roots (the tree's first); a node that no root
   * reaches (a loop of parents) becomes a root */
  {
    g_autofree gboolean *seen = g_new0 (gboolean, MAX (n, 1));
    guint head = 0;

    for (int pass = 0; pass < 3; pass++)
      for (guint i = 0; i < n; i++)
        {
          gboolean take = pass == 0 ? (int)i == root : pass == 1 ? layout->parent[i] < 0 : TRUE;

          if (seen[i] || !take)
            continue;
          seen[i] = TRUE;
          layout->parent[i] = pass == 2 ? -1 : layout->parent[i];
          if (pass == 2)
            layout->edge_in[i] = -1;
          depth[i] = 0;
          order[n_order++] = (int)i;
          for (; head < n_order; head++)
            {
              int p = order[head];

              for (int c = child_start[p]; c < child_start[p + 1]; c++)
                if (!seen[children[c]])
                  {
                    seen[children[c]] = TRUE;
                    depth[children[c]] = depth[p] + 1;
                    order[n_order++] = children[c];
                  }
            }
        }
  }

  /* the size and the last arrival of each subtree */
  for (guint i = 0; i < n; i++)
    {
      subtree[i] = 1;
      subtree_last[i] = sextant_comm_tree_get_node (tree, i)->arrival;
    }
  for (guint k = n_order; k-- > 0;)
    {
      int i = order[k];
      int p = layout->parent[i];

      if (p >= 0)
        {
          subtree[p] += subtree[i];
          subtree_last[p] = MAX (subtree_last[p], subtree_last[i]);
        }
    }

  /* depth by depth: which candidates show, which are collapsed */
  for (guint i = 0; i < n; i++)
    layout->item_of[i] = -1;
  for (int p = -1; p < (int)n; p++)
    budget[p + 1] = GPOINTER_TO_UINT (g_hash_table_lookup (expanded, GINT_TO_POINTER (p + 2)));
  for (guint k = 0; k < n_order && depth[order[k]] == 0; k++)
    g_array_append_val (level, order[k]);
  for (guint d = 0; level->len > 0; d++)
    {
      guint shown = 0;

      g_array_sort_with_data (level, compare_priority, &priority);
      g_array_set_size (next, 0);
      for (guint k = 0; k < level->len; k++)
        {
          int i = g_array_index (level, int, k);
          int p = layout->parent[i];

          gboolean show = critical[i] || shown < MAX_PER_DEPTH || budget[p + 1] > 0;

          if (show && !critical[i] && shown >= MAX_PER_DEPTH)
            budget[p + 1]--;
          else if (show && !critical[i])
            shown++;
          if (show)
            {
              Item *item = add_item (layout, ITEM_NODE, i, d);
              const SextantTreeNode *node = sextant_comm_tree_get_node (tree, (guint)i);

              visible[i] = TRUE;
              item->critical = critical[i];
              item->t = node->arrival;
              item->t_end = MAX (node->finish, node->arrival);
              item->text = box_text (node);
              layout->item_of[i] = (int)layout->items->len - 1;
              for (int c = child_start[i]; c < child_start[i + 1]; c++)
                g_array_append_val (next, children[c]);
            }
          else
            {
              /* with its siblings collapsed under its parent: one box per parent */
              Item *agg = NULL;
              const SextantTreeNode *node = sextant_comm_tree_get_node (tree, (guint)i);

              for (guint a = layout->items->len; a-- > 0;)
                {
                  Item *item = &g_array_index (layout->items, Item, a);

                  if (item->depth != d)
                    break;
                  if (item->kind == ITEM_AGGREGATE && item->node == p)
                    {
                      agg = item;
                      break;
                    }
                }
              if (agg == NULL)
                {
                  agg = add_item (layout, ITEM_AGGREGATE, p, d);
                  agg->t = node->arrival;
                  agg->t_end = subtree_last[i];
                }
              agg->members += subtree[i];
              agg->t = MIN (agg->t, node->arrival);
              agg->t_end = MAX (agg->t_end, subtree_last[i]);
              layout->item_of[i] = (int)(agg - &g_array_index (layout->items, Item, 0));
            }
        }
      g_array_set_size (level, 0);
      g_array_append_vals (level, next->data, next->len);
      layout->n_depths = d + 1;
    }
  /* what the aggregates hold, down their subtrees */
  for (guint k = 0; k < n_order; k++)
    {
      int i = order[k];

      if (layout->item_of[i] < 0 && layout->parent[i] >= 0)
        layout->item_of[i] = layout->item_of[layout->parent[i]];
    }

  place_items (layout, text);

  return g_steal_pointer (&layout);
}

int
_sextant_tree_layout_hit (Layout *layout,
                          double  x,
                          double  y)
{
  for (guint k = 0; k < layout->items->len; k++)
    {
      const Item *item = &g_array_index (layout->items, Item, k);
      graphene_rect_t near;

      graphene_rect_inset_r (&item->box, -2, -2, &near);
      if (graphene_rect_contains_point (&near, &GRAPHENE_POINT_INIT (x, y)))
        return (int)k;
    }

  return -1;
}
