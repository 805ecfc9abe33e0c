/*
 * sextant-store-rows.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The readers behind the timeline's rows (sextant-store-rows.h): the
 * locations with their process, node and rank, the metrics they recorded,
 * and a metric's values per pixel column.
 *
 * Workload: the places and the metrics are read once per session: the
 * places are one pass over location joined to its group by primary key,
 * plus the system tree and MPI_COMM_WORLD's members (at 4096 locations the
 * timeline's whole row model is built in 10-14 ms); the metrics are one
 * pass over metric_value grouped by location, metric and position (72,670
 * values in fastotf2-simple-mi300), which no index serves: a trace of
 * millions of metric values pays a scan of them once per session.
 * A counter read runs per frame and counter row in view: a range of the
 * index metric_value_loc (loc, time) (schema-1-index.sql), so its cost is
 * the location's values in the view (of all the metrics that location
 * recorded: those of the other metrics are skipped in SQL), never the
 * table's.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-store-private.h"
#include "sextant-store-rows.h"

/* Every location, its group, the group's creator and system tree node */
static const char places_sql[] =
  "SELECT l.id, coalesce (l.name, ''), l.type, l.events, l.first_visit IS NOT NULL, "
  "       EXISTS (SELECT 1 FROM event_count AS e WHERE e.loc = l.id AND e.kind = 'METRIC' AND e.count > 0), "
  "       l.location_group, g.name, g.creating_group, g.system_tree_node "
  "FROM location AS l "
  "LEFT JOIN location_group AS g ON g.id = l.location_group "
  "ORDER BY l.id";

/* The ranks of MPI_COMM_WORLD's members; a process's rank is the smallest
 * of its locations' (one per process in MPI traces). Joined to the places
 * in C: a join in SQL (or the location_rank view, which joins location to
 * itself) costs 5 ms more at 4096 locations. */
static const char world_ranks_sql[] =
  "SELECT cm.loc, cm.rank FROM comm AS c JOIN comm_member AS cm ON cm.comm = c.id "
  "WHERE c.name = 'MPI_COMM_WORLD'";

static const char system_tree_sql[] =
  "SELECT id, name, class_name, parent FROM system_tree_node";

/* The metric members whose values each location recorded: a metric_value
 * row names a metric class or instance and a position in it; the class
 * (an instance's own, or itself) says which member sits there. */
static const char metrics_sql[] =
  "SELECT v.loc, cm.member, coalesce (mm.name, '?'), coalesce (mm.unit, '') "
  "FROM (SELECT DISTINCT loc, metric, position FROM metric_value) AS v "
  "JOIN metric AS m ON m.id = v.metric "
  "JOIN metric_class_member AS cm ON cm.metric = coalesce (m.class, m.id) AND cm.position = v.position "
  "LEFT JOIN metric_member AS mm ON mm.id = cm.member "
  "GROUP BY v.loc, cm.member "
  "ORDER BY v.loc, cm.member";

/* The values of member ?2 on location ?1 in [?3, ?4), in time order: the
 * range (loc, time) of the index metric_value_loc, filtered by the (metric,
 * position) pairs where the member sits (one per class or instance that
 * holds it: a handful, evaluated once). */
static const char counter_sql[] =
  "SELECT v.time, v.value FROM metric_value AS v "
  "WHERE v.loc = ?1 AND v.time >= ?3 AND v.time < ?4 AND v.value IS NOT NULL "
  "  AND (v.metric, v.position) IN (SELECT m.id, cm.position FROM metric AS m "
  "                                 JOIN metric_class_member AS cm ON cm.metric = coalesce (m.class, m.id) "
  "                                 WHERE cm.member = ?2) "
  "ORDER BY v.time";

/* Places ------------------------------------------------------------------- */

/**
 * sextant_location_place_free:
 * @place: (nullable): from sextant_store_list_location_places()
 */
void
sextant_location_place_free (SextantLocationPlace *place)
{
  if (place == NULL)
    return;

  g_free (place->name);
  g_free (place->process_name);
  g_free (place->node_name);
  g_free (place);
}

typedef struct
{
  gint64  id;
  char   *name;
  char   *class_name;
  gint64  parent;
} TreeNode;

static void
tree_node_free (gpointer data)
{
  TreeNode *node = data;

  g_free (node->name);
  g_free (node->class_name);
  g_free (node);
}

static gboolean
tree_node_row (const SextantRow  *row,
               gpointer           user_data,
               GError           **error)
{
  TreeNode *node = g_new0 (TreeNode, 1);

  node->id = sextant_row_get_int (row, 0);
  node->name = sextant_row_dup_text (row, 1);
  node->class_name = sextant_row_dup_text (row, 2);
  node->parent = sextant_row_get_int_or_null (row, 3);
  g_hash_table_insert (user_data, &node->id, node);

  return TRUE;
}

/* The machine node of system tree node @id: the nearest node of class
 * "node" at or above it, else @id itself */
static const TreeNode *
find_machine_node (GHashTable *tree,
                   gint64      id)
{
  const TreeNode *start = g_hash_table_lookup (tree, &id);
  const TreeNode *node = start;

  /* the tree is a tree: bounded by its size, should a parent loop */
  for (guint steps = 0; node != NULL && steps <= g_hash_table_size (tree); steps++)
    {
      if (node->class_name != NULL && g_ascii_strcasecmp (node->class_name, "node") == 0)
        return node;
      if (node->parent == SEXTANT_NULL)
        break;
      node = g_hash_table_lookup (tree, &node->parent);
    }

  return start;
}

typedef struct
{
  GPtrArray  *places;
  GHashTable *tree;        /* system_tree_node.id -> TreeNode */
  GHashTable *ranks;       /* location_group.id -> its rank (gint64 *, owned by the places) */
} PlacesRead;

static SextantLocationType
location_type_from_string (const char *type)
{
  if (g_strcmp0 (type, "CPU_THREAD") == 0)
    return SEXTANT_LOCATION_CPU_THREAD;
  if (g_strcmp0 (type, "ACCELERATOR_STREAM") == 0)
    return SEXTANT_LOCATION_ACCELERATOR_STREAM;
  if (g_strcmp0 (type, "METRIC") == 0)
    return SEXTANT_LOCATION_METRIC;
  return SEXTANT_LOCATION_OTHER;
}

static gboolean
place_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  PlacesRead *read = user_data;
  SextantLocationPlace *place = g_new0 (SextantLocationPlace, 1);
  gint64 tree_node = sextant_row_get_int_or_null (row, 9);

  place->loc = sextant_row_get_int (row, 0);
  place->name = g_strdup (sextant_row_get_text (row, 1));
  place->type = location_type_from_string (sextant_row_get_text (row, 2));
  place->events = sextant_row_get_int (row, 3);
  place->has_visits = sextant_row_get_int (row, 4) != 0;
  place->has_metrics = sextant_row_get_int (row, 5) != 0;
  place->process = sextant_row_get_int_or_null (row, 6);
  place->process_name = sextant_row_dup_text (row, 7);
  place->creator = sextant_row_get_int_or_null (row, 8);
  place->rank = SEXTANT_NULL;
  place->node = SEXTANT_NULL;
  if (tree_node != SEXTANT_NULL)
    {
      const TreeNode *node = find_machine_node (read->tree, tree_node);

      if (node != NULL)
        {
          place->node = node->id;
          place->node_name = g_strdup (node->name);
        }
    }
  g_ptr_array_add (read->places, place);

  return TRUE;
}

/* A member of MPI_COMM_WORLD: its process gets the rank, or keeps a
 * smaller one */
static gboolean
world_rank_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  PlacesRead *read = user_data;
  gint64 loc = sextant_row_get_int (row, 0);
  gint64 rank = sextant_row_get_int (row, 1);
  SextantLocationPlace *place;
  gint64 *known;

  /* location.id is the dense index: the places' index */
  if (loc < 0 || loc >= read->places->len)
    return TRUE;
  place = g_ptr_array_index (read->places, loc);
  if (place->loc != loc || place->process == SEXTANT_NULL)
    return TRUE;
  known = g_hash_table_lookup (read->ranks, &place->process);
  if (known == NULL)
    {
      place->rank = rank;
      g_hash_table_insert (read->ranks, &place->process, &place->rank);
    }
  else if (rank < *known)
    {
      *known = rank;
    }

  return TRUE;
}

/**
 * sextant_store_list_location_places:
 *
 * Every location with its process, node and MPI_COMM_WORLD rank (an
 * accelerator context without a rank of its own gets its creator's).
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type SextantLocationPlace): the
 *   locations in location.id order (index = location.id), or %NULL with
 *   @error set (%G_IO_ERROR_CANCELLED or a %SEXTANT_TRACE_ERROR)
 */
GPtrArray *
sextant_store_list_location_places (SextantStore  *self,
                                    GError       **error)
{
  g_autoptr(GPtrArray) places = NULL;
  g_autoptr(GHashTable) tree = NULL;
  g_autoptr(GHashTable) ranks = NULL;
  PlacesRead read;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  places = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_location_place_free);
  tree = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, tree_node_free);
  ranks = g_hash_table_new (g_int64_hash, g_int64_equal);
  read = (PlacesRead) { places, tree, ranks };
  if (!sextant_store_foreach_sql (self, system_tree_sql, tree_node_row, tree, error, "") ||
      !sextant_store_foreach_sql (self, places_sql, place_row, &read, error, "") ||
      !sextant_store_foreach_sql (self, world_ranks_sql, world_rank_row, &read, error, ""))
    return NULL;

  /* every location of a process has its rank; an accelerator context
   * without one its host process's */
  for (guint i = 0; i < places->len; i++)
    {
      SextantLocationPlace *place = g_ptr_array_index (places, i);
      const gint64 *rank = NULL;

      if (place->process != SEXTANT_NULL)
        rank = g_hash_table_lookup (ranks, &place->process);
      if (rank == NULL && place->creator != SEXTANT_NULL)
        rank = g_hash_table_lookup (ranks, &place->creator);
      if (rank != NULL)
        place->rank = *rank;
    }

  return g_steal_pointer (&places);
}

/* Metrics ------------------------------------------------------------------ */

/**
 * sextant_location_metric_free:
 * @metric: (nullable): from sextant_store_list_location_metrics()
 */
void
sextant_location_metric_free (SextantLocationMetric *metric)
{
  if (metric == NULL)
    return;

  g_free (metric->name);
  g_free (metric->unit);
  g_free (metric);
}

static gboolean
metric_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  SextantLocationMetric *metric = g_new0 (SextantLocationMetric, 1);

  metric->loc = sextant_row_get_int (row, 0);
  metric->metric = sextant_row_get_int (row, 1);
  metric->name = g_strdup (sextant_row_get_text (row, 2));
  metric->unit = g_strdup (sextant_row_get_text (row, 3));
  g_ptr_array_add (user_data, metric);

  return TRUE;
}

/**
 * sextant_store_list_location_metrics:
 *
 * The metrics each location recorded values of (one entry per location
 * and metric member, however many classes or instances carried it).
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type SextantLocationMetric): sorted by
 *   location then metric, or %NULL with @error set
 */
GPtrArray *
sextant_store_list_location_metrics (SextantStore  *self,
                                     GError       **error)
{
  g_autoptr(GPtrArray) metrics = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  metrics = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_location_metric_free);
  if (!sextant_store_foreach_sql (self, metrics_sql, metric_row, metrics, error, ""))
    return NULL;

  return g_steal_pointer (&metrics);
}

/* Counters ----------------------------------------------------------------- */

typedef struct
{
  GArray *points;
  gint64  t0;
  double  columns_per_tick;
  guint   width;
  guint   column;       /* of the last point, G_MAXUINT before the first */
} CounterRead;

static gboolean
counter_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  CounterRead *read = user_data;
  gint64 time = sextant_row_get_int (row, 0);
  double value = sextant_row_get_double (row, 1);
  double x = floor ((double)(time - read->t0) * read->columns_per_tick);
  guint column = (guint)CLAMP (x, 0.0, (double)(read->width - 1));

  if (read->column != column)
    {
      SextantCounterPoint point = { time, value, value, value };

      g_array_append_val (read->points, point);
      read->column = column;
    }
  else
    {
      SextantCounterPoint *point = &g_array_index (read->points, SextantCounterPoint, read->points->len - 1);

      point->time = time;
      point->min = MIN (point->min, value);
      point->max = MAX (point->max, value);
      point->last = value;
    }

  return TRUE;
}

/**
 * sextant_store_read_counter:
 * @loc: location.id of the location that recorded the metric
 * @metric: the metric (metric_member.id, as sextant_store_list_location_metrics()
 *   gives it)
 * @t0: ticks: the view's first
 * @t1: ticks: its end (exclusive), > @t0
 * @width: pixel columns across [@t0, @t1), at least 1
 * @points: (element-type SextantCounterPoint): where the points are
 *   appended (it is not cleared): at most one per pixel column that holds
 *   values, in time order, each with the smallest, largest and last value
 *   of its column
 *
 * Reads @metric's values on @loc in [@t0, @t1), reduced to the pixel
 * columns of a view @width pixels wide. Costs the values of @loc in the
 * range (index metric_value_loc), whatever @width.
 *
 * Threading: the store's owning thread.
 *
 * Returns: %TRUE, or %FALSE with @error set
 */
gboolean
sextant_store_read_counter (SextantStore  *store,
                            gint64         loc,
                            gint64         metric,
                            gint64         t0,
                            gint64         t1,
                            guint          width,
                            GArray        *points,
                            GError       **error)
{
  CounterRead read;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), FALSE);
  g_return_val_if_fail (points != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (points) == sizeof (SextantCounterPoint), FALSE);

  if (t1 <= t0 || width == 0)
    return TRUE;

  read = (CounterRead) { points, t0, (double)width / (double)(t1 - t0), width, G_MAXUINT };

  return sextant_store_foreach_sql (store, counter_sql, counter_row, &read, error, "iiii", loc, metric, t0, t1);
}
