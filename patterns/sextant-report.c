/*
 * sextant-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Gathers the report model from an analysed store (sextant_report_gather)
 * and renders it (sextant_report_render). Every format is rendered from the
 * same model, so the figures in HTML, Markdown and CSV are the ones in the
 * JSON, and the pattern list is the one `sextant analyze --json` prints.
 * The instances, the top ones with their timelines and source lines and
 * those of every pattern, are gathered in sextant-report-instances.c.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-json.h"
#include "sextant-pattern-tree.h"
#include "sextant-report-gather-private.h"
#include "sextant-store-shards.h"
#include "sextant-store-private.h"

#define PROFILE_ROWS      30
#define TOP_INSTANCES     10

/* Summary ------------------------------------------------------------------ */

static gboolean
meta_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  JsonObject *meta = user_data;

  json_object_set_string_member (meta, sextant_row_get_text (row, 0), sextant_row_get_text (row, 1));
  return TRUE;
}

static gboolean
total_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Gather *g = user_data;

  g->total_ticks = sextant_row_get_int (row, 0);
  g->resolution = MAX (1, g_ascii_strtoll (sextant_row_get_text (row, 1), NULL, 10));
  return TRUE;
}

/* The stores of a manifest's shards (NULL for a single store) */
static gboolean
open_shards (SextantStore  *store,
             GPtrArray    **shards,
             GError       **error)
{
  g_autofree char *manifest = sextant_store_get_meta (store, "shards");
  g_autoptr(GPtrArray) paths = NULL;

  *shards = NULL;
  if (manifest == NULL)
    return TRUE;
  if (!(paths = sextant_store_list_shards (store, error)))
    return FALSE;
  *shards = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint r = 0; r < paths->len; r++)
    {
      SextantStore *shard = sextant_store_open (g_ptr_array_index (paths, r), error);

      if (shard == NULL)
        {
          g_clear_pointer (shards, g_ptr_array_unref);
          return FALSE;
        }
      g_ptr_array_add (*shards, shard);
    }

  return TRUE;
}

/* The total time (and the resolution): on a manifest, the sum of its
 * shards' (each that of its own locations) */
gboolean
_sextant_report_read_total (Gather  *g,
                            GError **error)
{
  g_autoptr(GPtrArray) shards = NULL;
  gint64 total = 0;

  if (!sextant_store_foreach (g->store, SEXTANT_QUERY_TOTAL_TIME, total_row, g, error, "") ||
      !open_shards (g->store, &shards, error))
    return FALSE;
  for (guint r = 0; shards != NULL && r < shards->len; r++)
    {
      if (!sextant_store_foreach (g_ptr_array_index (shards, r), SEXTANT_QUERY_TOTAL_TIME, total_row, g, error, ""))
        return FALSE;
      total += g->total_ticks;
    }
  if (shards != NULL)
    g->total_ticks = total;

  return TRUE;
}

static gboolean
counts_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  JsonObject *summary = user_data;
  static const char * const names[] = {
    "visits", "messages_matched", "messages_unmatched", "collectives", "rma_operations", "locks",
    "metric_values",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    json_object_set_int_member (summary, names[i], sextant_row_get_int (row, i));
  return TRUE;
}

static gboolean
count_locations_row (const SextantRow  *row,
                     gpointer           user_data,
                     GError           **error)
{
  JsonObject *summary = user_data;

  json_object_set_int_member (summary, "locations", json_object_get_int_member (summary, "locations") + 1);
  return TRUE;
}

static gboolean
gather_summary (Gather  *g,
                GError **error)
{
  g_autoptr(JsonObject) meta = json_object_new ();
  JsonObject *summary = json_object_new ();
  const char *keys[] = { "archive_path", "creator", "otf2_version", "events", "imported_at" };
  const char *names[] = { "archive", "creator", "otf2_version", "events", "imported_at" };

  json_object_set_object_member (g->root, "summary", summary);
  json_object_set_int_member (summary, "locations", 0);

  if (!sextant_store_foreach (g->store, SEXTANT_QUERY_META, meta_row, meta, error, "") ||
      !sextant_store_foreach (g->store, SEXTANT_QUERY_SUMMARY_COUNTS, counts_row, summary, error, "") ||
      !sextant_store_foreach (g->store, SEXTANT_QUERY_LOCATIONS, count_locations_row, summary, error, ""))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *value = json_object_get_string_member_with_default (meta, keys[i], NULL);

      if (value == NULL)
        json_object_set_null_member (summary, names[i]);
      else if (g_str_equal (names[i], "events"))
        json_object_set_int_member (summary, names[i], g_ascii_strtoll (value, NULL, 10));
      else
        json_object_set_string_member (summary, names[i], value);
    }

  g->time_begin = g_ascii_strtoll (json_object_get_string_member_with_default (meta, "time_begin", "0"), NULL, 10);
  g->time_end = MAX (g->time_begin,
                     g_ascii_strtoll (json_object_get_string_member_with_default (meta, "time_end", "0"), NULL, 10));

  json_object_set_string_member (summary, "database", sextant_store_get_path (g->store));
  json_object_set_int_member (summary, "resolution", g->resolution);
  json_object_set_double_member (summary, "duration_seconds", seconds (g, g->time_end - g->time_begin));
  json_object_set_double_member (summary, "total_time_seconds", seconds (g, g->total_ticks));

  return TRUE;
}

/* Location labels ---------------------------------------------------------- */

/* Labels as the trace names the locations (the location_label view: "MPI
 * Rank 3", or "MPI Rank 3 / Master thread" where a rank has several threads),
 * by store id and by OTF2 id; the report names locations by these. */
static gboolean
label_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Gather *g = user_data;
  gint64 loc = sextant_row_get_int (row, 0);

  if (!sextant_row_is_null (row, 1))
    g_hash_table_insert (g->labels, g_memdup2 (&loc, sizeof loc), g_strdup (sextant_row_get_text (row, 1)));
  return TRUE;
}

static gboolean
otf2_label_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  Gather *g = user_data;
  gint64 loc = sextant_row_get_int (row, 0);
  gint64 otf2_id = sextant_row_get_int (row, 1);
  const char *label = g_hash_table_lookup (g->labels, &loc);

  if (label != NULL)
    g_hash_table_insert (g->otf2_labels, g_memdup2 (&otf2_id, sizeof otf2_id), g_strdup (label));
  return TRUE;
}

static gboolean
gather_labels (Gather  *g,
               GError **error)
{
  return sextant_store_foreach (g->store, SEXTANT_QUERY_LOCATION_LABELS, label_row, g, error, "") &&
         sextant_store_foreach (g->store, SEXTANT_QUERY_LOCATIONS, otf2_label_row, g, error, "");
}

/* Sets @name to the label of @id in @labels, "location ID" if it has none. */
void
_sextant_report_set_label (JsonObject *object,
                           const char *name,
                           GHashTable *labels,
                           gint64      id)
{
  const char *label = g_hash_table_lookup (labels, &id);
  g_autofree char *fallback = NULL;

  if (label == NULL)
    label = fallback = g_strdup_printf ("location %" G_GINT64_FORMAT, id);
  json_object_set_string_member (object, name, label);
}

/* Patterns (the list `sextant analyze --json` prints) ----------------------- */

typedef struct
{
  Gather     *g;
  JsonObject *object;
} Rows;

static gboolean
by_location_row (const SextantRow  *row,
                 gpointer           user_data,
                 GError           **error)
{
  Rows *r = user_data;
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT, sextant_row_get_int (row, 0));

  json_object_set_double_member (r->object, key, seconds (r->g, sextant_row_get_int (row, 1)));
  return TRUE;
}

static gboolean
site_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  Rows *r = user_data;
  JsonObject *site = json_object_new ();

  set_text_or_null (site, "file", row, 0);
  set_int_or_null (site, "line", row, 1);
  json_object_set_double_member (site, "severity_seconds", seconds (r->g, sextant_row_get_int (row, 2)));
  json_object_set_int_member (site, "instances", sextant_row_get_int (row, 3));
  set_text_or_null (site, "callpath", row, 4);
  /* "call": the call's own line; "function": where the enclosing
   * "function" begins (the trace has no call site); "none" */
  set_text_or_null (site, "kind", row, 5);
  set_text_or_null (site, "function", row, 6);
  json_array_add_object_element (json_object_get_array_member (r->object, "top_sites"), site);

  return TRUE;
}

/* by_callpath: call path -> { location id -> seconds } */
static gboolean
callpath_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  Rows *r = user_data;
  const char *path = sextant_row_get_text (row, 0);
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT, sextant_row_get_int (row, 1));
  JsonObject *cells;

  if (!json_object_has_member (r->object, path))
    json_object_set_object_member (r->object, path, json_object_new ());
  cells = json_object_get_object_member (r->object, path);
  json_object_set_double_member (cells, key, seconds (r->g, sextant_row_get_int (row, 2)));

  return TRUE;
}

static gboolean
pattern_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  Gather *g = user_data;
  JsonObject *pattern = json_object_new ();
  JsonObject *by_location = json_object_new ();
  JsonObject *by_callpath = json_object_new ();
  Rows loc_rows = { g, by_location };
  Rows path_rows = { g, by_callpath };
  Rows site_rows = { g, pattern };
  const char *id = sextant_row_get_text (row, 0);
  gint64 severity = sextant_row_get_int (row, 4);

  json_object_set_string_member (pattern, "id", id);
  json_object_set_string_member (pattern, "title", sextant_row_get_text (row, 1));
  set_text_or_null (pattern, "parent", row, 2);
  set_text_or_null (pattern, "description", row, 5);
  json_object_set_double_member (pattern, "severity_seconds", seconds (g, severity));
  json_object_set_double_member (pattern, "share", g->total_ticks > 0 ? (double)severity / g->total_ticks : 0);
  json_object_set_int_member (pattern, "instances", sextant_row_get_int (row, 3));
  json_object_set_string_member (pattern, "origin", sextant_row_get_text (row, 6));
  json_object_set_object_member (pattern, "by_location", by_location);
  json_object_set_object_member (pattern, "by_callpath", by_callpath);
  json_object_set_array_member (pattern, "top_sites", json_array_new ());
  json_array_add_object_element (json_object_get_array_member (g->root, "patterns"), pattern);
  sextant_pattern_tree_add_pattern (g->tree, id, sextant_row_get_text (row, 1),
                                    sextant_row_is_null (row, 2) ? NULL : sextant_row_get_text (row, 2),
                                    sextant_row_is_null (row, 5) ? NULL : sextant_row_get_text (row, 5),
                                    severity, sextant_row_get_int (row, 3));

  return sextant_store_foreach (g->store, SEXTANT_QUERY_PATTERN_BY_LOCATION, by_location_row, &loc_rows,
                                error, "t", id) &&
         sextant_store_foreach (g->store, SEXTANT_QUERY_PATTERN_BY_CALLPATH, callpath_row, &path_rows,
                                error, "t", id) &&
         sextant_store_foreach (g->store, SEXTANT_QUERY_PATTERN_TOP_SITES, site_row, &site_rows,
                                error, "t", id);
}

/* The metric tree: builds g->tree from the patterns read, gives each
 * pattern its inclusive time and sets the root's "tree": every node in tree
 * order (see sextant-pattern-tree.h). */
static void
gather_tree (Gather *g)
{
  JsonArray *patterns = json_object_get_array_member (g->root, "patterns");
  JsonArray *nodes = json_array_new ();
  guint n;

  sextant_pattern_tree_build (g->tree, g->total_ticks);
  n = sextant_pattern_tree_get_n_nodes (g->tree);
  for (guint i = 0; i < n; i++)
    {
      const SextantPatternTreeNode *node = sextant_pattern_tree_get_node (g->tree, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "id", node->id);
      json_object_set_string_member (object, "title", node->title);
      json_object_set_string_member (object, "kind", node->is_group ? "group" : "pattern");
      if (node->parent >= 0)
        json_object_set_string_member (object, "parent", sextant_pattern_tree_get_node (g->tree, node->parent)->id);
      else
        json_object_set_null_member (object, "parent");
      json_object_set_int_member (object, "depth", node->depth);
      sextant_json_set_string_or_null (object, "description", node->description);
      json_object_set_double_member (object, "exclusive_seconds", seconds (g, node->exclusive));
      if (node->additive)
        {
          json_object_set_double_member (object, "inclusive_seconds", seconds (g, node->inclusive));
          json_object_set_double_member (object, "share",
                                         g->total_ticks > 0 ? (double)node->inclusive / g->total_ticks : 0);
        }
      else
        {
          json_object_set_null_member (object, "inclusive_seconds");
          json_object_set_null_member (object, "share");
        }
      json_object_set_int_member (object, "instances", node->instances);
      json_object_set_int_member (object, "instances_below", node->instances_below);
      json_array_add_object_element (nodes, object);
    }
  json_object_set_array_member (g->root, "tree", nodes);

  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *pattern = json_array_get_object_element (patterns, i);
      int at = sextant_pattern_tree_lookup (g->tree, json_object_get_string_member (pattern, "id"));
      const SextantPatternTreeNode *node = sextant_pattern_tree_get_node (g->tree, (guint)at);

      json_object_set_double_member (pattern, "inclusive_seconds", seconds (g, node->inclusive));
      json_object_set_double_member (pattern, "inclusive_share",
                                     g->total_ticks > 0 ? (double)node->inclusive / g->total_ticks : 0);
    }
}

/* Profile, matrix, histogram ----------------------------------------------- */

static gboolean
profile_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  Gather *g = user_data;
  JsonObject *region = json_object_new ();

  set_text_or_null (region, "region", row, 0);
  json_object_set_string_member (region, "category", sextant_row_get_text (row, 1));
  json_object_set_int_member (region, "visits", sextant_row_get_int (row, 2));
  json_object_set_double_member (region, "inclusive_seconds", seconds (g, sextant_row_get_int (row, 3)));
  json_object_set_double_member (region, "exclusive_seconds", seconds (g, sextant_row_get_int (row, 4)));
  set_text_or_null (region, "file", row, 5);
  set_int_or_null (region, "line", row, 6);
  json_array_add_object_element (json_object_get_array_member (g->root, "profile"), region);

  return TRUE;
}

static gboolean
matrix_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  JsonArray *cells = user_data;
  JsonObject *cell = json_object_new ();

  json_object_set_int_member (cell, "from", sextant_row_get_int (row, 0));
  json_object_set_int_member (cell, "to", sextant_row_get_int (row, 1));
  json_object_set_int_member (cell, "messages", sextant_row_get_int (row, 2));
  json_object_set_int_member (cell, "bytes", sextant_row_get_int (row, 3));
  json_array_add_object_element (cells, cell);

  return TRUE;
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *)a;
  gint64 y = *(const gint64 *)b;

  return x < y ? -1 : x > y;
}

/* The matrix's rows and columns: every location that sent or received a
 * message, by OTF2 id, with its label. */
static gboolean
gather_matrix (Gather     *g,
               JsonObject *matrix,
               GError    **error)
{
  JsonArray *cells = json_array_new ();
  JsonArray *locations = json_array_new ();
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  json_object_set_array_member (matrix, "cells", cells);
  json_object_set_array_member (matrix, "locations", locations);
  if (!sextant_store_foreach (g->store, SEXTANT_QUERY_COMM_MATRIX, matrix_row, cells, error, ""))
    return FALSE;

  for (guint i = 0; i < json_array_get_length (cells); i++)
    {
      JsonObject *c = json_array_get_object_element (cells, i);
      gint64 ends[2] = { json_object_get_int_member (c, "from"), json_object_get_int_member (c, "to") };

      g_array_append_vals (ids, ends, 2);
    }
  g_array_sort (ids, compare_int64);

  for (guint k = 0; k < ids->len; k++)
    {
      gint64 id = g_array_index (ids, gint64, k);
      JsonObject *location;

      if (k > 0 && id == g_array_index (ids, gint64, k - 1))
        continue;
      location = json_object_new ();
      json_object_set_int_member (location, "location", id);
      _sextant_report_set_label (location, "label", g->otf2_labels, id);
      json_array_add_object_element (locations, location);
    }

  return TRUE;
}

/* Message sizes in power-of-two buckets: [0], [1], [2, 3], [4, 7], ... */
static gboolean
size_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  gint64 *buckets = user_data;
  gint64 bytes = sextant_row_is_null (row, 0) ? 0 : sextant_row_get_int (row, 0);
  guint b = 0;

  while (b < 63 && bytes > 0 && ((gint64)1 << b) <= bytes)
    b++;
  buckets[b] += sextant_row_get_int (row, 1);

  return TRUE;
}

static gboolean
gather_sizes (Gather  *g,
              GError **error)
{
  gint64 buckets[65] = { 0 };
  JsonArray *sizes = json_array_new ();

  json_object_set_array_member (g->root, "message_sizes", sizes);
  if (!sextant_store_foreach (g->store, SEXTANT_QUERY_MESSAGE_SIZES, size_row, buckets, error, ""))
    return FALSE;

  for (guint b = 0; b < G_N_ELEMENTS (buckets); b++)
    {
      JsonObject *bucket;

      if (buckets[b] == 0)
        continue;
      bucket = json_object_new ();
      json_object_set_int_member (bucket, "min_bytes", b == 0 ? 0 : (gint64)1 << (b - 1));
      json_object_set_int_member (bucket, "max_bytes", b == 0 ? 0 : ((gint64)1 << (b - 1)) * 2 - 1);
      json_object_set_int_member (bucket, "messages", buckets[b]);
      json_array_add_object_element (sizes, bucket);
    }

  return TRUE;
}

/**
 * sextant_report_gather_patterns:
 * @total_time_seconds: (out): the sum over locations of their time span
 * @tree: (out) (optional) (transfer full): the metric tree: every node,
 *   groups and patterns, in tree order, each `{"id", "title", "kind"
 *   ("group" or "pattern"), "parent", "depth", "description",
 *   "exclusive_seconds", "inclusive_seconds", "share", "instances",
 *   "instances_below"}` (`inclusive_seconds` and `share` null for the
 *   groups of diagnostics, whose children overlap)
 *
 * The pattern list of the last analysis, by severity: what `sextant analyze
 * --json` prints and what every report shows. Each pattern has its
 * `severity_seconds` (its own, exclusive time) and `share` of the total
 * time, its `parent` and its `inclusive_seconds` and `inclusive_share`
 * (its own time and the time of the patterns below it).
 *
 * Returns: (transfer full): a JSON array, or %NULL with @error set
 */
JsonArray *
sextant_report_gather_patterns (SextantStore  *store,
                                double        *total_time_seconds,
                                JsonArray    **tree,
                                GError       **error)
{
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(SextantPatternTree) pattern_tree = sextant_pattern_tree_new ();
  Gather g = { .store = store, .resolution = 1, .root = root, .tree = pattern_tree };

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  json_object_set_array_member (root, "patterns", json_array_new ());
  if (!_sextant_report_read_total (&g, error) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_PATTERN_TOTALS, pattern_row, &g, error, ""))
    return NULL;
  gather_tree (&g);

  *total_time_seconds = seconds (&g, g.total_ticks);
  if (tree != NULL)
    *tree = json_array_ref (json_object_get_array_member (root, "tree"));

  return json_array_ref (json_object_get_array_member (root, "patterns"));
}

static gboolean
tree_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  sextant_pattern_tree_add_pattern (user_data, sextant_row_get_text (row, 0), sextant_row_get_text (row, 1),
                                    sextant_row_is_null (row, 2) ? NULL : sextant_row_get_text (row, 2),
                                    sextant_row_is_null (row, 5) ? NULL : sextant_row_get_text (row, 5),
                                    sextant_row_get_int (row, 4), sextant_row_get_int (row, 3));
  return TRUE;
}

/**
 * sextant_report_read_pattern_tree:
 *
 * The metric tree of the last analysis (every pattern of it, with or
 * without instances, under its groups), in ticks: what the report's and
 * `sextant analyze`'s tree show, without the per-location and per-call-path
 * figures (two queries over the patterns' totals). Any thread, with a store
 * that thread owns.
 *
 * Returns: (transfer full): the built tree, or %NULL with @error set
 */
SextantPatternTree *
sextant_report_read_pattern_tree (SextantStore  *store,
                                  GError       **error)
{
  g_autoptr(SextantPatternTree) tree = sextant_pattern_tree_new ();
  Gather g = { .store = store, .resolution = 1 };

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  if (!_sextant_report_read_total (&g, error) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_PATTERN_TOTALS, tree_row, tree, error, ""))
    return NULL;
  sextant_pattern_tree_build (tree, g.total_ticks);

  return g_steal_pointer (&tree);
}

/**
 * sextant_report_gather:
 * @source_root: (nullable): where to look for source files that are not at
 *   the path the trace names (traces made on another machine)
 *
 * Returns: (transfer full): the report model, or %NULL with @error set
 */
JsonNode *
sextant_report_gather (SextantStore  *store,
                       const char    *source_root,
                       GError       **error)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GHashTable) labels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GHashTable) otf2_labels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(SextantPatternTree) tree = sextant_pattern_tree_new ();
  JsonObject *matrix = json_object_new ();
  Gather g = {
    .store = store, .source_root = source_root, .resolution = 1,
    .labels = labels, .otf2_labels = otf2_labels, .tree = tree, .root = json_object_new (),
  };

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  json_node_take_object (node, g.root);
  json_object_set_array_member (g.root, "patterns", json_array_new ());
  json_object_set_array_member (g.root, "profile", json_array_new ());
  json_object_set_array_member (g.root, "instances", json_array_new ());
  json_object_set_object_member (g.root, "matrix", matrix);

  if (!_sextant_report_read_total (&g, error) ||
      !gather_summary (&g, error) ||
      !gather_labels (&g, error) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_PATTERN_TOTALS, pattern_row, &g, error, ""))
    return NULL;
  gather_tree (&g);
  if (!sextant_store_foreach (store, SEXTANT_QUERY_REGION_PROFILE, profile_row, &g, error, "i",
                              (gint64)PROFILE_ROWS) ||
      !gather_matrix (&g, matrix, error) ||
      !gather_sizes (&g, error) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_TOP_INSTANCES, _sextant_report_instance_row, &g, error, "i",
                              (gint64)TOP_INSTANCES))
    return NULL;

  return g_steal_pointer (&node);
}

/**
 * sextant_report_json_to_data:
 *
 * Pretty-prints @node as JSON. json-glib 1.6 writes a double such as 1e-08
 * as "1e-08.0", which is not JSON; such numbers are repaired here, so every
 * JSON Sextant prints goes through this function.
 *
 * Returns: (transfer full): the text
 */
char *
sextant_report_json_to_data (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GRegex) broken = g_regex_new ("([:\\[,]\\s*-?[0-9]+(?:\\.[0-9]+)?e[-+]?[0-9]+)\\.0(?![0-9])",
                                          G_REGEX_OPTIMIZE, 0, NULL);
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);

  return g_regex_replace (broken, text, -1, 0, "\\1", 0, NULL);
}

gboolean
sextant_report_format_from_string (const char          *name,
                                   SextantReportFormat *format)
{
  static const struct { const char *name; SextantReportFormat format; } formats[] = {
    { "html", SEXTANT_REPORT_HTML }, { "md", SEXTANT_REPORT_MARKDOWN }, { "markdown", SEXTANT_REPORT_MARKDOWN },
    { "csv", SEXTANT_REPORT_CSV }, { "json", SEXTANT_REPORT_JSON },
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (name, formats[i].name) == 0)
      {
        *format = formats[i].format;
        return TRUE;
      }

  return FALSE;
}
