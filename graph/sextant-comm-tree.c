/*
 * sextant-comm-tree.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tree type: storage, the parents / critical path / lateness computed
 * once the builder has added its nodes and edges, and the JSON of `sextant
 * tree`. Trees hold up to a few thousand nodes (one per member of a
 * collective) or 65 (a delay chain); everything here is linear in that.
 */
#include "config.h"

#include "sextant-comm-tree.h"
#include "sextant-json.h"

struct _SextantCommTree
{
  SextantTreeKind  kind;
  char            *id;
  char            *title;
  gint64           origin;
  gint64           resolution;
  int              root;
  gboolean         has_model_layout;
  gboolean         exchange;       /* no parents: see sextant_comm_tree_finish_exchange() */
  GArray          *nodes;          /* SextantTreeNode */
  GArray          *edges;          /* SextantTreeEdge */
  GArray          *critical;       /* int: node indices, root first */
  GArray          *critical_edge;  /* gboolean per edge */
};

G_DEFINE_BOXED_TYPE (SextantCommTree, sextant_comm_tree, sextant_comm_tree_ref, sextant_comm_tree_unref)

static const char * const kind_names[] = {
  [SEXTANT_TREE_ONECOLL_BCAST] = "onecoll_bcast",
  [SEXTANT_TREE_MPI_COLLECTIVE] = "mpi_collective",
  [SEXTANT_TREE_P2P_EXCHANGE] = "p2p_exchange",
  [SEXTANT_TREE_DELAY_CHAIN] = "delay_chain",
};

static const char * const cause_names[] = {
  [SEXTANT_CAUSE_NONE] = NULL,
  [SEXTANT_CAUSE_WAITING] = "waiting",
  [SEXTANT_CAUSE_ROOT] = "root_cause",
  [SEXTANT_CAUSE_TRUNCATED] = "truncated",
};

const char *
sextant_tree_kind_to_string (SextantTreeKind kind)
{
  g_return_val_if_fail (kind <= SEXTANT_TREE_DELAY_CHAIN, NULL);
  return kind_names[kind];
}

static void
node_clear (gpointer data)
{
  SextantTreeNode *node = data;

  g_clear_pointer (&node->name, g_free);
  g_clear_pointer (&node->pattern, g_free);
  g_clear_pointer (&node->region_name, g_free);
  g_clear_pointer (&node->file, g_free);
}

static void
edge_clear (gpointer data)
{
  SextantTreeEdge *edge = data;

  g_clear_pointer (&edge->by, g_free);
}

static void
tree_free (gpointer data)
{
  SextantCommTree *self = data;

  g_free (self->id);
  g_free (self->title);
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_array_unref (self->critical);
  g_array_unref (self->critical_edge);
}

/**
 * sextant_comm_tree_new:
 * @kind: what the tree shows
 * @id: the collective id (sextant-comm-tree.h) or the instance id as text
 * @title: (nullable): a one-line description for the view's header
 * @origin: the run's first tick (times print relative to it)
 * @resolution: ticks per second
 *
 * Returns: (transfer full): an empty tree to fill with
 *   sextant_comm_tree_add_node() and _add_edge(), then _finish().
 */
SextantCommTree *
sextant_comm_tree_new (SextantTreeKind  kind,
                       const char      *id,
                       const char      *title,
                       gint64           origin,
                       gint64           resolution)
{
  SextantCommTree *self = g_atomic_rc_box_new0 (SextantCommTree);

  self->kind = kind;
  self->id = g_strdup (id);
  self->title = g_strdup (title);
  self->origin = origin;
  self->resolution = MAX (resolution, 1);
  self->root = -1;
  self->nodes = g_array_new (FALSE, TRUE, sizeof (SextantTreeNode));
  g_array_set_clear_func (self->nodes, node_clear);
  self->edges = g_array_new (FALSE, TRUE, sizeof (SextantTreeEdge));
  g_array_set_clear_func (self->edges, edge_clear);
  self->critical = g_array_new (FALSE, FALSE, sizeof (int));
  self->critical_edge = g_array_new (FALSE, TRUE, sizeof (gboolean));
  return self;
}

SextantCommTree *
sextant_comm_tree_ref (SextantCommTree *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
sextant_comm_tree_unref (SextantCommTree *self)
{
  g_atomic_rc_box_release_full (self, tree_free);
}

/* Returns: the new node's index. */
int
sextant_comm_tree_add_node (SextantCommTree       *self,
                            const SextantTreeNode *node)
{
  SextantTreeNode copy = *node;

  copy.name = g_strdup (node->name);
  copy.pattern = g_strdup (node->pattern);
  copy.region_name = g_strdup (node->region_name);
  copy.file = g_strdup (node->file);
  g_array_append_val (self->nodes, copy);
  return (int) self->nodes->len - 1;
}

void
sextant_comm_tree_add_edge (SextantCommTree       *self,
                            const SextantTreeEdge *edge)
{
  SextantTreeEdge copy = *edge;

  g_return_if_fail (edge->from >= 0 && (guint) edge->from < self->nodes->len);
  g_return_if_fail (edge->to >= 0 && (guint) edge->to < self->nodes->len);
  copy.by = g_strdup (edge->by);
  g_array_append_val (self->edges, copy);
}

void
sextant_comm_tree_set_root (SextantCommTree *self,
                            int              root)
{
  g_return_if_fail (root >= 0 && (guint) root < self->nodes->len);
  self->root = root;
}

static SextantTreeNode *
node_at (SextantCommTree *self,
         int              i)
{
  return &g_array_index (self->nodes, SextantTreeNode, i);
}

/**
 * sextant_comm_tree_set_parent:
 * @node: a node's index
 * @parent: the index of its parent, or -1
 *
 * Sets a parent the builder knows (the layout of an assumed algorithm),
 * which sextant_comm_tree_finish() keeps; only while building.
 */
void
sextant_comm_tree_set_parent (SextantCommTree *self,
                              int              node,
                              int              parent)
{
  g_return_if_fail (node >= 0 && (guint) node < self->nodes->len);
  g_return_if_fail (parent >= -1 && parent < (int) self->nodes->len);
  node_at (self, node)->parent = parent;
}

/**
 * sextant_comm_tree_finish:
 *
 * Completes a built tree: each node's parent is the sender of the first
 * recorded (non-model) edge into it (nodes the builder gave a parent keep
 * it), the lateness of each node that has a parent and a lateness of 0 is
 * arrival - (parent's arrival + transfer time), at least 0, and the critical
 * path runs from the root, through parents, to the node that finished last
 * (of several, the deepest in the tree, then the first). Edges on that path
 * are marked critical.
 * A parent chain that loops (a builder's mistake) is cut at the loop.
 */
/* No critical path yet: no node on it, every edge off it */
static void
clear_critical (SextantCommTree *self)
{
  g_array_set_size (self->critical, 0);
  g_array_set_size (self->critical_edge, self->edges->len);
  for (guint e = 0; e < self->edges->len; e++)
    g_array_index (self->critical_edge, gboolean, e) = FALSE;
}

void
sextant_comm_tree_finish (SextantCommTree *self)
{
  guint n = self->nodes->len;
  g_autofree int *edge_into = g_new (int, MAX (n, 1));
  int last = -1;

  for (guint i = 0; i < n; i++)
    edge_into[i] = -1;
  for (guint e = 0; e < self->edges->len; e++)
    {
      SextantTreeEdge *edge = &g_array_index (self->edges, SextantTreeEdge, e);

      if (!edge->model && edge_into[edge->to] < 0 && edge->to != self->root)
        edge_into[edge->to] = (int) e;
    }

  for (guint i = 0; i < n; i++)
    {
      SextantTreeNode *node = node_at (self, (int) i);

      if ((int) i == self->root)
        {
          node->parent = -1;
          continue;
        }
      if (node->parent < 0 && edge_into[i] >= 0)
        node->parent = g_array_index (self->edges, SextantTreeEdge, edge_into[i]).from;
      if (node->parent >= 0 && node->lateness == 0 && edge_into[i] >= 0)
        {
          SextantTreeEdge *edge = &g_array_index (self->edges, SextantTreeEdge, edge_into[i]);
          SextantTreeNode *parent = node_at (self, node->parent);

          if (edge->from == node->parent)
            node->lateness = MAX (0, node->arrival - (parent->arrival + (edge->end - edge->begin)));
        }
    }

  /* of the nodes that finished last, the deepest: a sender's finish is
   * often the end of its last delivery, which is when the receiver got it */
  {
    g_autofree guint *depth = g_new (guint, MAX (n, 1));

    for (guint i = 0; i < n; i++)
      {
        guint d = 0;

        for (int p = node_at (self, (int) i)->parent; p >= 0 && d <= n; p = node_at (self, p)->parent)
          d++;
        depth[i] = d;
      }
    for (guint i = 0; i < n; i++)
      {
        gint64 finish = node_at (self, (int) i)->finish;

        if (last < 0 || finish > node_at (self, last)->finish ||
            (finish == node_at (self, last)->finish && depth[i] > depth[last]))
          last = (int) i;
      }
  }

  clear_critical (self);
  if (last < 0)
    return;

  /* walk up from the last node; at most n steps, so a loop ends the walk */
  for (int i = last, steps = 0; i >= 0 && (guint) steps <= n; i = node_at (self, i)->parent, steps++)
    {
      g_array_prepend_val (self->critical, i);
      if (edge_into[i] >= 0 && node_at (self, i)->parent >= 0)
        g_array_index (self->critical_edge, gboolean, edge_into[i]) = TRUE;
      if (i == self->root)
        break;
    }
}

/* The critical path of an exchange: the chain of messages (each received
 * before the next one was sent) that ended at the node that finished
 * last, found backwards: from that node's finish, the last message it
 * received before then; from that message's sender, at the moment it
 * began to send, the last message that sender had received; and so on to
 * a message whose sender had received nothing before it. At most one step
 * per edge: the walk's time only goes back. */
void
sextant_comm_tree_finish_exchange (SextantCommTree *self)
{
  guint n = self->nodes->len;
  int last = -1;
  gint64 t;

  self->exchange = TRUE;
  for (guint i = 0; i < n; i++)
    {
      node_at (self, (int) i)->parent = -1;
      if (last < 0 || node_at (self, (int) i)->finish > node_at (self, last)->finish)
        last = (int) i;
    }
  clear_critical (self);
  if (last < 0)
    return;

  g_array_prepend_val (self->critical, last);
  t = node_at (self, last)->finish;
  for (guint steps = 0; steps < self->edges->len; steps++)
    {
      int into = g_array_index (self->critical, int, 0), best = -1;
      const SextantTreeEdge *edge;

      for (guint e = 0; e < self->edges->len; e++)
        {
          edge = &g_array_index (self->edges, SextantTreeEdge, e);
          if (edge->to == into && edge->from != into && edge->end <= t && !edge->model &&
              (best < 0 || edge->end > g_array_index (self->edges, SextantTreeEdge, best).end))
            best = (int) e;
        }
      if (best < 0)
        break;
      edge = &g_array_index (self->edges, SextantTreeEdge, best);
      if (edge->begin >= t)
        break;
      g_array_index (self->critical_edge, gboolean, best) = TRUE;
      g_array_prepend_val (self->critical, edge->from);
      t = edge->begin;
    }
}

gboolean
sextant_comm_tree_is_exchange (SextantCommTree *self)
{
  return self->exchange;
}

void
sextant_comm_tree_set_has_model_layout (SextantCommTree *self,
                                        gboolean         has_model_layout)
{
  self->has_model_layout = has_model_layout;
}

gboolean
sextant_comm_tree_get_has_model_layout (SextantCommTree *self)
{
  return self->has_model_layout;
}

SextantTreeKind
sextant_comm_tree_get_kind (SextantCommTree *self)
{
  return self->kind;
}

const char *
sextant_comm_tree_get_id (SextantCommTree *self)
{
  return self->id;
}

const char *
sextant_comm_tree_get_title (SextantCommTree *self)
{
  return self->title;
}

gint64
sextant_comm_tree_get_origin (SextantCommTree *self)
{
  return self->origin;
}

gint64
sextant_comm_tree_get_resolution (SextantCommTree *self)
{
  return self->resolution;
}

int
sextant_comm_tree_get_root (SextantCommTree *self)
{
  return self->root;
}

guint
sextant_comm_tree_get_n_nodes (SextantCommTree *self)
{
  return self->nodes->len;
}

const SextantTreeNode *
sextant_comm_tree_get_node (SextantCommTree *self,
                            guint            index)
{
  g_return_val_if_fail (index < self->nodes->len, NULL);
  return &g_array_index (self->nodes, SextantTreeNode, index);
}

guint
sextant_comm_tree_get_n_edges (SextantCommTree *self)
{
  return self->edges->len;
}

const SextantTreeEdge *
sextant_comm_tree_get_edge (SextantCommTree *self,
                            guint            index)
{
  g_return_val_if_fail (index < self->edges->len, NULL);
  return &g_array_index (self->edges, SextantTreeEdge, index);
}

const GArray *
sextant_comm_tree_get_critical_path (SextantCommTree *self)
{
  return self->critical;
}

gboolean
sextant_comm_tree_edge_is_critical (SextantCommTree *self,
                                    guint            edge)
{
  return edge < self->critical_edge->len && g_array_index (self->critical_edge, gboolean, edge);
}

double
sextant_comm_tree_seconds (SextantCommTree *self,
                           gint64           ticks)
{
  return (double) (ticks - self->origin) / (double) self->resolution;
}

static void
set_time (SextantCommTree *self,
          JsonObject      *object,
          const char      *name,
          gint64           ticks)
{
  sextant_json_set_seconds_or_null (object, name, ticks, self->origin, self->resolution);
}

/**
 * sextant_comm_tree_to_json:
 *
 * Returns: (transfer full): the tree as `sextant tree --json` prints it.
 *   Nodes and edges name locations (location.id); an edge also gives the
 *   node indices ("from_node", "to_node"), which tell apart two links of a
 *   delay chain on one location.
 */
JsonNode *
sextant_comm_tree_to_json (SextantCommTree *self)
{
  JsonNode *root_node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *root = json_object_new ();
  JsonArray *nodes = json_array_new ();
  JsonArray *edges = json_array_new ();
  JsonArray *path = json_array_new ();

  json_node_take_object (root_node, root);
  json_object_set_string_member (root, "kind", sextant_tree_kind_to_string (self->kind));
  json_object_set_string_member (root, "shape", self->exchange ? "exchange" : "tree");
  sextant_json_set_string_or_null (root, "id", self->id);
  sextant_json_set_string_or_null (root, "title", self->title);
  if (self->root >= 0)
    json_object_set_int_member (root, "root", node_at (self, self->root)->loc);
  else
    json_object_set_null_member (root, "root");

  for (guint i = 0; i < self->nodes->len; i++)
    {
      SextantTreeNode *node = node_at (self, (int) i);
      JsonObject *object = json_object_new ();

      json_object_set_int_member (object, "location", node->loc);
      sextant_json_set_string_or_null (object, "name", node->name);
      set_time (self, object, "arrival", node->arrival);
      set_time (self, object, "finish", node->finish);
      json_object_set_double_member (object, "lateness_seconds",
                                     (double) node->lateness / (double) self->resolution);
      if (node->parent >= 0)
        json_object_set_int_member (object, "parent", node_at (self, node->parent)->loc);
      else
        json_object_set_null_member (object, "parent");
      if (self->kind == SEXTANT_TREE_DELAY_CHAIN)
        {
          sextant_json_set_string_or_null (object, "cause", cause_names[node->cause]);
          sextant_json_set_int_or_null (object, "instance", node->instance);
          sextant_json_set_string_or_null (object, "pattern", node->pattern);
          sextant_json_set_string_or_null (object, "region", node->region_name);
          sextant_json_set_string_or_null (object, "file", node->file);
          sextant_json_set_int_or_null (object, "line", node->line);
          set_time (self, object, "begin", node->begin);
          set_time (self, object, "end", node->end);
        }
      json_array_add_object_element (nodes, object);
    }
  json_object_set_array_member (root, "nodes", nodes);

  for (guint e = 0; e < self->edges->len; e++)
    {
      SextantTreeEdge *edge = &g_array_index (self->edges, SextantTreeEdge, e);
      JsonObject *object = json_object_new ();

      json_object_set_int_member (object, "from", node_at (self, edge->from)->loc);
      json_object_set_int_member (object, "to", node_at (self, edge->to)->loc);
      json_object_set_int_member (object, "from_node", edge->from);
      json_object_set_int_member (object, "to_node", edge->to);
      sextant_json_set_int_or_null (object, "bytes", edge->bytes);
      set_time (self, object, "begin", edge->begin);
      set_time (self, object, "end", edge->end);
      sextant_json_set_string_or_null (object, "by", edge->by);
      sextant_json_set_int_or_null (object, "by_location", edge->by_loc);
      json_object_set_boolean_member (object, "model", edge->model);
      json_object_set_boolean_member (object, "critical", sextant_comm_tree_edge_is_critical (self, e));
      json_array_add_object_element (edges, object);
    }
  json_object_set_array_member (root, "edges", edges);

  for (guint i = 0; i < self->critical->len; i++)
    json_array_add_int_element (path, node_at (self, g_array_index (self->critical, int, i))->loc);
  json_object_set_array_member (root, "critical_path", path);

  return root_node;
}
