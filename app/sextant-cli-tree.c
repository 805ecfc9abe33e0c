/*
 * sextant-cli-tree.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant tree DB|ARCHIVE (--collective ID | --instance ID) [--layout
 * recorded|binomial] [--json]`: the tree of one collective (who sent to
 * whom, graph/sextant-graph.h) or the chain of waits behind one pattern
 * instance, as an indented tree or as the JSON of sextant_comm_tree_to_json(),
 * and `sextant info DB --collectives [--json]`, the ids it takes
 * (docs/trees.md). A collective's nodes that the trace places on a torus
 * (sextant_store_read_torus_coords()) say where: "at (1,1,0)" in the
 * text, "torus_coords" in the JSON, beside the root's "torus_dims". Exit
 * status 0, 1 for a runtime failure (an unknown id, a tree the trace has
 * no data for, malformed torus coordinates), 2 for a usage error.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "sextant-cli.h"
#include "sextant-cli-private.h"
#include "sextant-graph.h"
#include "sextant-json.h"
#include "sextant-report.h"

/* Durations in the unit that suits them, 3 significant digits: "0 s",
 * "472 ns", "12.3 µs", "1.5 ms" (999.7 µs is "1 ms", not "1e+03 µs"). */
static char *
format_duration (double seconds)
{
  static const struct { double scale; const char *unit; } units[] = {
    { 1, "s" }, { 1e3, "ms" }, { 1e6, "µs" }, { 1e9, "ns" },
  };
  double a = seconds < 0 ? -seconds : seconds;

  if (a == 0)
    return g_strdup ("0 s");
  for (guint i = 0; i + 1 < G_N_ELEMENTS (units); i++)
    if (a * units[i].scale >= 0.9995)
      return g_strdup_printf ("%.3g %s", seconds * units[i].scale, units[i].unit);

  return g_strdup_printf ("%.3g ns", seconds * 1e9);
}

/* A time since the run's start, to the microsecond, or "-" when unknown. */
static char *
format_time (SextantCommTree *tree,
             gint64           ticks)
{
  if (ticks == SEXTANT_NULL)
    return g_strdup ("-");

  return g_strdup_printf ("%.6f s", sextant_comm_tree_seconds (tree, ticks));
}

static gboolean
on_critical_path (SextantCommTree *tree,
                  int              node)
{
  const GArray *path = sextant_comm_tree_get_critical_path (tree);

  for (guint i = 0; i < path->len; i++)
    if (g_array_index (path, int, i) == node)
      return TRUE;

  return FALSE;
}

static void
print_node (SextantCommTree          *tree,
            int                       index,
            const SextantTorusCoords *places)
{
  const SextantTreeNode *node = sextant_comm_tree_get_node (tree, (guint)index);
  g_autofree char *arrival = format_time (tree, node->arrival);
  g_autofree char *finish = format_time (tree, node->finish);
  g_autofree char *lateness = format_duration ((double)node->lateness /
                                               (double)sextant_comm_tree_get_resolution (tree));

  g_autofree char *at = sextant_torus_coords_format (places, node->loc);

  g_print ("%s (location %" G_GINT64_FORMAT "): arrival %s, finish %s, lateness %s",
           node->name != NULL ? node->name : "?", node->loc, arrival, finish, lateness);
  if (at != NULL)
    g_print (", at %s", at);
  if (node->cause != SEXTANT_CAUSE_NONE && node->region_name != NULL)
    {
      g_print (", %s", node->region_name);
      if (node->file != NULL)
        g_print (" at %s:%" G_GINT64_FORMAT, node->file, node->line == SEXTANT_NULL ? 0 : node->line);
    }
  g_print ("\n");
}

static void
print_edge (SextantCommTree       *tree,
            const SextantTreeEdge *edge)
{
  g_autofree char *begin = format_time (tree, edge->begin);
  g_autofree char *end = format_time (tree, edge->end);
  g_autofree char *length = format_duration (edge->begin == SEXTANT_NULL || edge->end == SEXTANT_NULL ? 0 :
                                             (double)(edge->end - edge->begin) /
                                             (double)sextant_comm_tree_get_resolution (tree));

  g_print ("[");
  if (edge->bytes != SEXTANT_NULL)
    g_print ("%" G_GINT64_FORMAT " B, ", edge->bytes);
  g_print ("%s", edge->by != NULL ? edge->by : "?");
  if (edge->by_loc != SEXTANT_NULL)
    g_print (" (location %" G_GINT64_FORMAT ")", edge->by_loc);
  g_print (", %s to %s, %s]", begin, end, length);
}

static gboolean
has_model_edges (SextantCommTree *tree)
{
  for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
    if (sextant_comm_tree_get_edge (tree, e)->model)
      return TRUE;

  return FALSE;
}

/* The edge that links @child to its parent: in a tree laid out on a model
 * (whose parents follow it) the model edge, else the first recorded one. */
static int
parent_edge (SextantCommTree *tree,
             int              child,
             gboolean         model)
{
  const SextantTreeNode *node = sextant_comm_tree_get_node (tree, (guint)child);
  int found = -1;

  for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
    {
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (tree, e);

      if (edge->to != child || edge->from != node->parent)
        continue;
      if (edge->model == model)
        return (int)e;
      if (found < 0)
        found = (int)e;
    }

  return found;
}

static void
print_subtree (SextantCommTree          *tree,
               int                       index,
               const char               *prefix,
               gboolean                 *shown,
               guint                     depth,
               const SextantTorusCoords *places)
{
  guint n = sextant_comm_tree_get_n_nodes (tree);
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (int));

  shown[index] = TRUE;
  for (guint i = 0; i < n; i++)
    if (sextant_comm_tree_get_node (tree, i)->parent == index && !shown[i])
      g_array_append_val (children, i);

  for (guint c = 0; c < children->len && depth < n; c++)
    {
      int child = g_array_index (children, int, c);
      gboolean last = c + 1 == children->len;
      int e = parent_edge (tree, child, has_model_edges (tree));
      g_autofree char *inner = g_strconcat (prefix, last ? "    " : "│   ", NULL);

      g_print ("%s%s%s ", prefix, last ? "└── " : "├── ", on_critical_path (tree, child) ? "*" : " ");
      if (e >= 0)
        {
          print_edge (tree, sextant_comm_tree_get_edge (tree, (guint)e));
          g_print (" ");
        }
      print_node (tree, child, places);
      print_subtree (tree, child, inner, shown, depth + 1, places);
    }
}

static void
print_tree (SextantCommTree          *tree,
            const SextantTorusCoords *places)
{
  guint n = sextant_comm_tree_get_n_nodes (tree);
  g_autofree gboolean *shown = g_new0 (gboolean, MAX (n, 1));
  g_autofree gboolean *printed_edge = NULL;
  int root = sextant_comm_tree_get_root (tree);
  guint others = 0;

  g_print ("%s\n", sextant_comm_tree_get_title (tree));
  g_print ("%s %s; times in seconds since the run's start; * marks the critical path "
           "(root to the node that finished last)\n\n",
           sextant_tree_kind_to_string (sextant_comm_tree_get_kind (tree)), sextant_comm_tree_get_id (tree));
  if (places->n_dims > 0)
    {
      g_print ("On a torus ");
      for (guint d = 0; d < places->n_dims; d++)
        g_print (d == 0 ? "%u" : "x%u", places->sizes[d]);
      g_print (" (the trace's " SEXTANT_LOCATION_COORDS_PROPERTY "): \"at (X,Y,...)\"\n\n");
    }

  /* the root's tree, then whatever hangs from nothing */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        gboolean start = pass == 0 ? (int)i == root
                                   : !shown[i] && sextant_comm_tree_get_node (tree, i)->parent < 0;

        if (!start)
          continue;
        g_print ("%s ", on_critical_path (tree, (int)i) ? "*" : " ");
        print_node (tree, (int)i, places);
        print_subtree (tree, (int)i, "  ", shown, 0, places);
      }

  /* the edges the tree's parents do not show: more messages between the
   * same locations, a collective's releases next to its model tree */
  printed_edge = g_new0 (gboolean, MAX (sextant_comm_tree_get_n_edges (tree), 1));
  for (guint i = 0; i < n; i++)
    {
      int e = sextant_comm_tree_get_node (tree, i)->parent >= 0
              ? parent_edge (tree, (int)i, has_model_edges (tree)) : -1;

      if (e >= 0)
        printed_edge[e] = TRUE;
    }
  for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
    {
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (tree, e);

      if (printed_edge[e])
        continue;
      if (others++ == 0)
        g_print ("\nOther edges:\n");
      g_print ("  %s%s -> %s ", sextant_comm_tree_edge_is_critical (tree, e) ? "*" : "",
               sextant_comm_tree_get_node (tree, (guint)edge->from)->name,
               sextant_comm_tree_get_node (tree, (guint)edge->to)->name);
      print_edge (tree, edge);
      g_print ("\n");
    }
}

static int
compare_edge_begin (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  SextantCommTree *tree = user_data;
  const SextantTreeEdge *x = sextant_comm_tree_get_edge (tree, *(const guint *)a);
  const SextantTreeEdge *y = sextant_comm_tree_get_edge (tree, *(const guint *)b);

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return (*(const guint *)a > *(const guint *)b) - (*(const guint *)a < *(const guint *)b);
}

/* An exchange (every location sent data of its own): the locations, then
 * every message by the time its send began, each with its phase. */
static void
print_exchange (SextantCommTree          *tree,
                const SextantTorusCoords *places)
{
  guint n = sextant_comm_tree_get_n_nodes (tree);
  guint n_edges = sextant_comm_tree_get_n_edges (tree);
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_edges);

  g_print ("%s\n", sextant_comm_tree_get_title (tree));
  g_print ("%s %s; times in seconds since the run's start; lateness: its enter less the earliest; "
           "* marks the critical path (the chain of messages, each received before the next was sent, "
           "that ended at the location that finished last)\n\n",
           sextant_tree_kind_to_string (sextant_comm_tree_get_kind (tree)), sextant_comm_tree_get_id (tree));
  for (guint i = 0; i < n; i++)
    {
      g_print ("%s ", on_critical_path (tree, (int)i) ? "*" : " ");
      print_node (tree, (int)i, places);
    }
  for (guint e = 0; e < n_edges; e++)
    g_array_append_val (order, e);
  g_array_sort_with_data (order, compare_edge_begin, tree);
  g_print ("\nMessages, by the begin of their send:\n");
  for (guint k = 0; k < n_edges; k++)
    {
      guint e = g_array_index (order, guint, k);
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (tree, e);

      g_print ("  %s %s -> %s ", sextant_comm_tree_edge_is_critical (tree, e) ? "*" : " ",
               sextant_comm_tree_get_node (tree, (guint)edge->from)->name,
               sextant_comm_tree_get_node (tree, (guint)edge->to)->name);
      print_edge (tree, edge);
      g_print ("\n");
    }
}

/* A delay chain, from the waiting location to its root cause: each link
 * with its pattern, wait, call and source line, the root cause's region
 * and line (graph/sextant-delay-chain.c). */
static void
print_chain (SextantCommTree *tree)
{
  guint n = sextant_comm_tree_get_n_nodes (tree);

  g_print ("%s\n", sextant_comm_tree_get_title (tree));
  g_print ("%s %s; times in seconds since the run's start; each location waited for the next\n\n",
           sextant_tree_kind_to_string (sextant_comm_tree_get_kind (tree)), sextant_comm_tree_get_id (tree));

  for (guint i = 0; i < n; i++)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (tree, i);
      g_autofree char *begin = format_time (tree, node->begin);
      g_autofree char *end = format_time (tree, node->end);
      g_autofree char *waited = format_duration ((double)node->lateness /
                                                 (double)sextant_comm_tree_get_resolution (tree));
      const char *lead = i == 0 ? "   " : "<- ";

      switch (node->cause)
        {
        case SEXTANT_CAUSE_ROOT:
          g_print ("%sROOT CAUSE %s (location %" G_GINT64_FORMAT "), %s to %s", lead, node->name, node->loc, begin,
                   end);
          break;
        case SEXTANT_CAUSE_TRUNCATED:
          g_print ("%s%s (location %" G_GINT64_FORMAT "): the chain stops here (depth bound or a loop)", lead,
                   node->name, node->loc);
          if (node->instance != SEXTANT_NULL)
            g_print ("; it waited in instance %" G_GINT64_FORMAT " (%s), %s to %s", node->instance, node->pattern,
                     begin, end);
          break;
        case SEXTANT_CAUSE_WAITING:
        case SEXTANT_CAUSE_NONE:
        default:
          g_print ("%s%s (location %" G_GINT64_FORMAT ") waited %s, %s to %s: %s, instance %" G_GINT64_FORMAT,
                   lead, node->name, node->loc, waited, begin, end, node->pattern, node->instance);
          break;
        }
      if (node->region_name != NULL)
        {
          g_print (", in %s", node->region_name);
          if (node->file != NULL)
            g_print (" at %s:%" G_GINT64_FORMAT, node->file, node->line == SEXTANT_NULL ? 0 : node->line);
        }
      g_print ("\n");
    }
}

/* An instance id: a whole number */
/* "torus_dims" on the tree, "torus_coords" on each placed node */
static void
add_torus_coords (JsonNode                 *json,
                  const SextantTorusCoords *places)
{
  JsonObject *root = json_node_get_object (json);
  JsonArray *nodes = json_object_get_array_member (root, "nodes");
  JsonArray *dims;

  if (places->n_dims == 0)
    return;
  dims = json_array_new ();
  for (guint d = 0; d < places->n_dims; d++)
    json_array_add_int_element (dims, places->sizes[d]);
  json_object_set_array_member (root, SEXTANT_TORUS_DIMS_PROPERTY, dims);
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);
      const SextantLocationCoords *at = sextant_torus_coords_find (places,
                                                                   json_object_get_int_member (node, "location"));
      JsonArray *coords;

      if (at == NULL)
        continue;
      coords = json_array_new ();
      for (guint d = 0; d < places->n_dims; d++)
        json_array_add_int_element (coords, at->coords[d]);
      json_object_set_array_member (node, SEXTANT_LOCATION_COORDS_PROPERTY, coords);
    }
}

static gboolean
parse_instance (const char *text,
                gint64     *id)
{
  char *end = NULL;

  *id = g_ascii_strtoll (text, &end, 10);

  return end != text && *end == '\0';
}

static gboolean
parse_layout (const char        *name,
              SextantTreeLayout *layout)
{
  if (name == NULL || g_str_equal (name, "recorded"))
    *layout = SEXTANT_TREE_LAYOUT_RECORDED;
  else if (g_str_equal (name, "binomial"))
    *layout = SEXTANT_TREE_LAYOUT_BINOMIAL;
  else
    return FALSE;

  return TRUE;
}

int
sextant_cli_tree (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("DB|ARCHIVE - the tree of a collective");
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantCommTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *collective = NULL;
  g_autofree char *instance = NULL;
  g_autofree char *layout_name = NULL;
  SextantTreeLayout layout;
  g_auto(SextantTorusCoords) places = { 0 };
  gint64 instance_id = 0;
  gboolean as_json = FALSE;
  int status = 0;
  GOptionEntry entries[] = {
    { "collective", 'c', 0, G_OPTION_ARG_STRING, &collective,
      "The collective (an id of `sextant info DB --collectives`)", "ID" },
    { "instance", 'i', 0, G_OPTION_ARG_STRING, &instance,
      "The chain of waits behind a pattern instance (an id of `sextant analyze --json`)", "ID" },
    { "layout", 'l', 0, G_OPTION_ARG_STRING, &layout_name,
      "recorded (default) or binomial: an MPI BCAST or REDUCE also on Open MPI's binomial tree", "LAYOUT" },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &as_json, "Print JSON", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context,
    "Prints the tree of one collective as the trace recorded it: the relays of a\n"
    "onecoll broadcast (who put the data to whom: the root, a Broadcaster, a waiting\n"
    "thread, the root's help), the members of an MPI collective hanging from the one\n"
    "that released them, or the messages inside a phase region; each node with the\n"
    "time the data reached it, when it finished and its lateness, the critical path\n"
    "marked. With --instance, the chain of waits behind a wait-state instance.\n"
    "An ARCHIVE is imported first (or its up-to-date database beside it is used).\n"
    "docs/trees.md explains each kind.");
  if (!_sextant_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _sextant_cli_usage_error (context, "tree needs exactly one DB or ARCHIVE");
  if ((collective == NULL) == (instance == NULL))
    return _sextant_cli_usage_error (context, "tree needs exactly one of --collective ID and --instance ID");
  if (!parse_layout (layout_name, &layout))
    return _sextant_cli_usage_error (context, "--layout must be recorded or binomial");

  if (instance != NULL && !parse_instance (instance, &instance_id))
    return _sextant_cli_usage_error (context, "--instance needs an instance id (a number)");

  if (!(store = _sextant_cli_open_or_import (argv[1], &db_path, &error)))
    return _sextant_cli_runtime_error (error);
  if (instance != NULL)
    tree = sextant_graph_build_delay_chain (store, instance_id, SEXTANT_DELAY_CHAIN_MAX_DEPTH, &error);
  else
    tree = sextant_graph_build_collective (store, collective, layout, &error);
  if (tree == NULL)
    return _sextant_cli_runtime_error (error);
  if (instance == NULL && !sextant_store_read_torus_coords (store, &places, &error))
    return _sextant_cli_runtime_error (error);

  if (as_json)
    {
      g_autoptr(JsonNode) json = sextant_comm_tree_to_json (tree);
      g_autofree char *text = NULL;

      if (!_sextant_cli_add_otf2_locations (store, json, &error))
        return _sextant_cli_runtime_error (error);
      add_torus_coords (json, &places);
      text = sextant_report_json_to_data (json);

      g_print ("%s\n", text);
    }
  else if (instance != NULL)
    print_chain (tree);
  else if (sextant_comm_tree_is_exchange (tree))
    print_exchange (tree, &places);
  else
    print_tree (tree, &places);

  return EXIT_SUCCESS;
}

/* info --collectives ----------------------------------------------------------- */

int
_sextant_cli_print_collectives (SextantStore *store,
                                const char   *db_path,
                                gboolean      as_json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) refs = NULL;
  g_autoptr(GPtrArray) locations = NULL;
  SextantTimeSpan span;

  if (!sextant_store_get_time_span (store, &span, &error) ||
      !(locations = sextant_store_list_locations (store, &error)) ||
      !(refs = sextant_graph_list_collectives (store, &error)))
    return _sextant_cli_runtime_error (error);

  if (as_json)
    {
      g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
      JsonObject *object = json_object_new ();
      JsonArray *list = json_array_new ();
      g_autofree char *text = NULL;

      for (guint i = 0; i < refs->len; i++)
        {
          const SextantCollectiveRef *ref = g_ptr_array_index (refs, i);
          JsonObject *row = json_object_new ();

          json_object_set_string_member (row, "id", ref->id);
          json_object_set_string_member (row, "kind", sextant_tree_kind_to_string (ref->kind));
          json_object_set_string_member (row, "operation", ref->operation);
          sextant_json_set_string_or_null (row, "comm", ref->comm);
          sextant_json_set_int_or_null (row, "root", ref->root_loc);
          json_object_set_int_member (row, "members", ref->members);
          sextant_json_set_seconds_or_null (row, "begin", ref->begin, span.begin, span.resolution);
          sextant_json_set_seconds_or_null (row, "end", ref->end, span.begin, span.resolution);
          sextant_json_set_int_or_null (row, "bytes", ref->bytes);
          json_array_add_object_element (list, row);
        }
      json_object_set_string_member (object, "database", db_path);
      json_object_set_array_member (object, "collectives", list);
      json_node_take_object (root, object);
      text = sextant_report_json_to_data (root);
      g_print ("%s\n", text);

      return EXIT_SUCCESS;
    }

  g_print ("%u collectives (times in seconds since the run's start; `sextant tree %s --collective ID` "
           "draws one)\n\n", refs->len, db_path);
  g_print ("  %-24s %-14s %-26s %-30s %-28s %7s %12s %12s %10s\n", "id", "kind", "operation", "comm", "root",
           "members", "begin", "end", "bytes");
  for (guint i = 0; i < refs->len; i++)
    {
      const SextantCollectiveRef *ref = g_ptr_array_index (refs, i);
      const SextantLocationInfo *root = ref->root_loc != SEXTANT_NULL && ref->root_loc >= 0 &&
                                        (guint64)ref->root_loc < locations->len
                                        ? g_ptr_array_index (locations, ref->root_loc) : NULL;
      g_autofree char *bytes = ref->bytes != SEXTANT_NULL
                               ? g_strdup_printf ("%" G_GINT64_FORMAT, ref->bytes) : g_strdup ("-");

      g_print ("  %-24s %-14s %-26s %-30s %-28s %7" G_GINT64_FORMAT " %12.6f %12.6f %10s\n", ref->id,
               sextant_tree_kind_to_string (ref->kind), ref->operation, ref->comm != NULL ? ref->comm : "-",
               root != NULL ? root->label : "-", ref->members,
               (double)(ref->begin - span.begin) / (double)span.resolution,
               (double)(ref->end - span.begin) / (double)span.resolution, bytes);
    }

  return EXIT_SUCCESS;
}
