/*
 * test-timeline-rows.c: the timeline's rows (ui/sextant-timeline-rows.h),
 * its counters' data (trace/sextant-store-rows.h) and their plot
 * (sextant_timeline_layer_counter), on stores the test imports from real
 * traces.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *  - casita-1_scorep-ompt-host-nested: one process of ten OpenMP threads,
 *    recorded in the order 3, 2, 4...: shown master first, then by number;
 *    collapse, expand, hide, filter and row_of_loc on it;
 *  - sstmacro-otf2_test_traces: ten nodes, a node row each;
 *  - fastotf2-simple-mi300: 29 metric-only locations ("Process /" rows
 *    before): a counter row for each metric that has values, none empty;
 *  - pipit-ping-pong-otf2-papi: PAPI counters on the MPI ranks' threads;
 *  - onecoll's broadcast recorded in the test on 4 ranks (two runtimes: two
 *    Broadcaster sessions per rank), and the demo's archive when the build
 *    has made it (scripts/demo: 8 ranks, 12 sessions each): a rank's
 *    sessions are one "Broadcaster" row;
 *  - the counters' points against the values read from metric_value;
 *  - the plot's pixels, drawn by GTK's Cairo renderer.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sextant-store-rows.h"
#include "sextant-test-util.h"
#include "sextant-timeline-layers.h"
#include "sextant-timeline-rows.h"
#include "sextant-ui-test-util.h"

/* @name imported, or NULL when it is not there (the test is skipped) */
static SextantStore *
import_external (const char  *name,
                 char       **tmpdir)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = NULL;

  g_assert_nonnull (root);
  archive = g_build_filename (root, name, "traces.otf2", NULL);
  if (!g_file_test (archive, G_FILE_TEST_EXISTS))
    {
      g_autofree char *why = g_strdup_printf ("%s is not there", name);

      g_test_skip (why);
      return NULL;
    }

  return sextant_test_import (archive, tmpdir);
}

static SextantTimelineRows *
new_rows (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  SextantTimelineRows *rows = sextant_timeline_rows_new (store, &error);

  g_assert_no_error (error);
  g_assert_nonnull (rows);

  return rows;
}

static const SextantTimelineRow *
row_at (SextantTimelineRows *rows,
        guint                position)
{
  g_assert_cmpuint (position, <, sextant_timeline_rows_get_n_rows (rows));
  return sextant_timeline_rows_get_row (rows, position);
}

/* The shown row labelled @label, or -1 */
static int
find_label (SextantTimelineRows *rows,
            const char          *label)
{
  for (guint i = 0; i < sextant_timeline_rows_get_n_rows (rows); i++)
    if (g_str_equal (row_at (rows, i)->label, label))
      return i;
  return -1;
}

static void
count_changed (SextantTimelineRows *rows,
               guint               *n)
{
  (*n)++;
}

static gboolean
int_row (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  g_array_append_val ((GArray *)user_data, (gint64){ sextant_row_get_int (row, 0) });
  return TRUE;
}

/* The first column of @sql's rows */
static GArray *
read_ints (SextantStore *store,
           const char   *sql)
{
  g_autoptr(GError) error = NULL;
  GArray *values = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_assert_true (sextant_store_foreach_sql (store, sql, int_row, values, &error, ""));
  g_assert_no_error (error);

  return values;
}

static gboolean
array_has (GArray *array,
           gint64  value)
{
  for (guint i = 0; i < array->len; i++)
    if (g_array_index (array, gint64, i) == value)
      return TRUE;
  return FALSE;
}

/* OpenMP --------------------------------------------------------------------- */

static void
test_openmp (void)
{
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = import_external ("casita-1_scorep-ompt-host-nested", &tmpdir);
  g_autoptr(SextantTimelineRows) rows = NULL;
  g_autoptr(GArray) with_events = NULL;
  const SextantTimelineRow *row;
  GArray *all;
  guint process_key, thread5_key = 0, n_changed = 0;
  gint64 thread5_loc = -1;
  int prev = 1;

  if (store == NULL)
    return;
  rows = new_rows (store);
  g_signal_connect (rows, "changed", G_CALLBACK (count_changed), &n_changed);
  with_events = read_ints (store, "SELECT id FROM location WHERE events > 0 ORDER BY id");
  g_assert_cmpuint (with_events->len, ==, 10);

  /* one node, one process: its master thread, then its threads by number
   * (the trace defines them in the order 3, 2, 4, ..., 10) */
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 10);
  row = row_at (rows, 0);
  g_assert_cmpint (row->kind, ==, SEXTANT_TIMELINE_ROW_PROCESS);
  g_assert_cmpstr (row->label, ==, "Process");
  g_assert_cmpstr (row->tooltip, ==, "cluster-phi.rz.RWTH-Aachen.DE / Process / Master thread");
  g_assert_true (row->expandable && row->expanded);
  g_assert_cmpuint (row->depth, ==, 0);
  g_assert_cmpuint (row->locs->len, ==, 1);
  g_assert_cmpint (g_array_index (row->locs, gint64, 0), ==, 0);
  g_assert_cmpint (row->rank, ==, -1);
  g_assert_cmpint (row->metric, ==, -1);
  process_key = row->key;
  for (guint i = 1; i < 10; i++)
    {
      g_autofree char *expected = g_strdup_printf ("OMP thread %u", i + 1);
      g_autofree char *tooltip = g_strdup_printf ("cluster-phi.rz.RWTH-Aachen.DE / Process / OMP thread %u", i + 1);
      int number;

      row = row_at (rows, i);
      g_assert_cmpint (row->kind, ==, SEXTANT_TIMELINE_ROW_LOCATION);
      g_assert_cmpstr (row->label, ==, expected);
      g_assert_cmpstr (row->tooltip, ==, tooltip);
      g_assert_cmpuint (row->depth, ==, 1);
      g_assert_false (row->expandable);
      g_assert_cmpuint (row->locs->len, ==, 1);
      g_assert_cmpuint (row->n_threads, ==, 1);
      number = atoi (row->label + strlen ("OMP thread "));
      g_assert_cmpint (number, >, prev);
      prev = number;
      g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, g_array_index (row->locs, gint64, 0)), ==, i);
      g_assert_cmpint (sextant_timeline_rows_find (rows, row->key), ==, i);
      if (number == 5)
        {
          thread5_key = row->key;
          thread5_loc = g_array_index (row->locs, gint64, 0);
        }
    }
  g_assert_cmpint (thread5_loc, >=, 0);
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, 0), ==, 0);
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, 10), ==, -1);  /* no such location */
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, -1), ==, -1);

  /* the whole machine: every location once, in row order */
  all = sextant_timeline_rows_get_all_locations (rows);
  g_assert_cmpuint (all->len, ==, 10);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpint (g_array_index (all, gint64, i), ==, g_array_index (row_at (rows, i)->locs, gint64, 0));
  for (guint i = 0; i < with_events->len; i++)
    g_assert_true (array_has (all, g_array_index (with_events, gint64, i)));

  /* collapsed: one row, the aggregate of the ten threads */
  sextant_timeline_rows_set_expanded (rows, process_key, FALSE);
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 1);
  row = row_at (rows, 0);
  g_assert_cmpstr (row->label, ==, "Process (10 threads)");
  g_assert_true (row->expandable && !row->expanded);
  g_assert_cmpuint (row->locs->len, ==, 10);
  g_assert_cmpuint (row->n_threads, ==, 10);
  for (guint i = 0; i < with_events->len; i++)
    {
      g_assert_true (array_has (row->locs, g_array_index (with_events, gint64, i)));
      g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, g_array_index (with_events, gint64, i)), ==, 0);
    }
  g_assert_cmpint (sextant_timeline_rows_find (rows, thread5_key), ==, -1);
  sextant_timeline_rows_set_expanded (rows, process_key, FALSE);   /* no change: no signal */
  g_assert_cmpuint (n_changed, ==, 1);
  sextant_timeline_rows_set_expanded (rows, thread5_key, FALSE);   /* not a group */
  g_assert_cmpuint (n_changed, ==, 1);
  sextant_timeline_rows_expand_all (rows, TRUE);
  g_assert_cmpuint (n_changed, ==, 2);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 10);
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, thread5_loc), ==,
                   sextant_timeline_rows_find (rows, thread5_key));

  /* hidden: the row goes, its location has no row, and the collapsed
   * process leaves it out of its aggregate */
  sextant_timeline_rows_set_hidden (rows, thread5_key, TRUE);
  g_assert_cmpuint (n_changed, ==, 3);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 9);
  g_assert_cmpuint (sextant_timeline_rows_get_n_hidden (rows), ==, 1);
  g_assert_cmpint (find_label (rows, "OMP thread 5"), ==, -1);
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, thread5_loc), ==, -1);
  g_assert_cmpint (sextant_timeline_rows_find (rows, thread5_key), ==, -1);
  g_assert_cmpint (find_label (rows, "OMP thread 6"), ==, 4);
  sextant_timeline_rows_expand_all (rows, FALSE);
  row = row_at (rows, 0);
  g_assert_cmpstr (row->label, ==, "Process (10 threads)");
  g_assert_cmpuint (row->locs->len, ==, 9);
  g_assert_cmpuint (row->n_threads, ==, 9);
  g_assert_false (array_has (row->locs, thread5_loc));
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, thread5_loc), ==, -1);
  sextant_timeline_rows_expand_all (rows, TRUE);
  sextant_timeline_rows_show_all (rows);
  g_assert_cmpuint (sextant_timeline_rows_get_n_hidden (rows), ==, 0);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 10);
  g_assert_cmpint (find_label (rows, "OMP thread 5"), ==, 4);

  /* hiding the process hides its threads */
  sextant_timeline_rows_set_hidden (rows, process_key, TRUE);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 0);
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, 0), ==, -1);
  sextant_timeline_rows_show_all (rows);

  /* filtered by name, case-insensitive: the process stays for its thread */
  n_changed = 0;
  sextant_timeline_rows_set_filter (rows, "omp THREAD 1");
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_cmpstr (sextant_timeline_rows_get_filter (rows), ==, "omp THREAD 1");
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 2);
  g_assert_cmpstr (row_at (rows, 0)->label, ==, "Process");
  g_assert_cmpstr (row_at (rows, 1)->label, ==, "OMP thread 10");
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, thread5_loc), ==, -1);
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, 0), ==, 0);
  sextant_timeline_rows_set_filter (rows, "Process");  /* the group: all of it */
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 10);
  sextant_timeline_rows_set_filter (rows, "no such row");
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 0);
  sextant_timeline_rows_set_filter (rows, "");
  g_assert_null (sextant_timeline_rows_get_filter (rows));
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 10);
  g_assert_cmpuint (n_changed, ==, 4);
  sextant_timeline_rows_set_filter (rows, NULL);
  g_assert_cmpuint (n_changed, ==, 4);

  sextant_test_remove_tree (tmpdir);
}

/* Nodes --------------------------------------------------------------------- */

static void
test_nodes (void)
{
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = import_external ("sstmacro-otf2_test_traces", &tmpdir);
  g_autoptr(SextantTimelineRows) rows = NULL;
  const SextantTimelineRow *row;

  if (store == NULL)
    return;
  rows = new_rows (store);

  /* ten nodes of one rank each: a heading per node, its rank under it */
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 20);
  for (guint n = 0; n < 10; n++)
    {
      g_autofree char *node = g_strdup_printf ("kn%u.eth", n + 1);
      const SextantTimelineRow *process;

      row = row_at (rows, 2 * n);
      process = row_at (rows, 2 * n + 1);
      g_assert_cmpint (row->kind, ==, SEXTANT_TIMELINE_ROW_NODE);
      g_assert_cmpstr (row->label, ==, node);
      g_assert_cmpuint (row->depth, ==, 0);
      g_assert_cmpuint (row->locs->len, ==, 0);
      g_assert_true (row->expandable && row->expanded);
      g_assert_cmpint (process->kind, ==, SEXTANT_TIMELINE_ROW_LOCATION);
      g_assert_cmpuint (process->depth, ==, 1);
      g_assert_cmpint (process->rank, ==, n);
      g_assert_true (g_str_has_prefix (process->tooltip, node));
    }

  /* a collapsed node draws its processes */
  row = row_at (rows, 0);
  {
    gint64 loc = g_array_index (row_at (rows, 1)->locs, gint64, 0);
    guint key = row->key;

    sextant_timeline_rows_set_expanded (rows, key, FALSE);
    g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 19);
    row = row_at (rows, 0);
    g_assert_cmpstr (row->label, ==, "kn1.eth (1 process)");
    g_assert_cmpuint (row->locs->len, ==, 1);
    g_assert_cmpuint (row->n_threads, ==, 1);
    g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, loc), ==, 0);
    sextant_timeline_rows_expand_all (rows, FALSE);
    g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 10);
  }
  g_assert_cmpuint (sextant_timeline_rows_get_all_locations (rows)->len, ==, 10);

  sextant_test_remove_tree (tmpdir);
}

/* Metrics -------------------------------------------------------------------- */

static void
test_metrics_mi300 (void)
{
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = import_external ("fastotf2-simple-mi300", &tmpdir);
  g_autoptr(SextantTimelineRows) rows = NULL;
  g_autoptr(GArray) metric_locs = NULL;
  g_autoptr(GArray) n_series = NULL;
  guint counters = 0;
  GArray *all;

  if (store == NULL)
    return;
  rows = new_rows (store);
  /* what the data says: the locations with values, and how many metric
   * members they recorded (a class's values and its instances' are one) */
  metric_locs = read_ints (store, "SELECT DISTINCT loc FROM metric_value ORDER BY loc");
  n_series = read_ints (store, "SELECT count (DISTINCT v.loc || ' ' || cm.member) FROM metric_value AS v "
                               "JOIN metric AS m ON m.id = v.metric "
                               "JOIN metric_class_member AS cm ON cm.metric = coalesce (m.class, m.id) "
                               "AND cm.position = v.position");
  g_assert_cmpuint (metric_locs->len, ==, 29);

  for (guint i = 0; i < sextant_timeline_rows_get_n_rows (rows); i++)
    {
      const SextantTimelineRow *row = row_at (rows, i);

      /* no empty "Process /" rows */
      g_assert_false (g_str_has_suffix (row->label, "/"));
      g_assert_false (g_str_has_suffix (row->label, "/ "));
      g_assert_cmpstr (row->label, !=, "");
      if (row->kind != SEXTANT_TIMELINE_ROW_COUNTER)
        {
          g_assert_cmpint (row->metric, ==, -1);
          for (guint l = 0; l < row->locs->len; l++)
            g_assert_false (array_has (metric_locs, g_array_index (row->locs, gint64, l)));
          continue;
        }
      counters++;
      g_assert_cmpuint (row->locs->len, ==, 1);
      g_assert_true (array_has (metric_locs, g_array_index (row->locs, gint64, 0)));
      g_assert_cmpint (row->metric, >=, 0);
      g_assert_nonnull (row->unit);
      g_assert_cmpuint (row->depth, ==, 1);
      /* a location that recorded only metrics: its counter is its row */
      g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, g_array_index (row->locs, gint64, 0)), ==, i);
    }
  g_assert_cmpuint (counters, ==, g_array_index (n_series, gint64, 0));
  g_assert_cmpuint (counters, ==, 29);
  g_assert_cmpint (find_label (rows, "HIP Memory"), >, 0);
  g_assert_cmpstr (row_at (rows, find_label (rows, "HIP Memory"))->unit, ==, "bytes");
  /* the process: its master thread, with the counters under it; the two
   * HIP contexts after it */
  g_assert_cmpstr (row_at (rows, 0)->label, ==, "Process");
  g_assert_cmpint (row_at (rows, 0)->kind, ==, SEXTANT_TIMELINE_ROW_PROCESS);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 1 + 29 + 2);
  g_assert_cmpstr (row_at (rows, 30)->label, ==, "HIP Context 0");
  g_assert_cmpstr (row_at (rows, 31)->label, ==, "HIP Context 1");
  /* the whole machine has no metric locations */
  all = sextant_timeline_rows_get_all_locations (rows);
  g_assert_cmpuint (all->len, ==, 3);
  sextant_timeline_rows_set_expanded (rows, row_at (rows, 0)->key, FALSE);
  g_assert_cmpstr (row_at (rows, 0)->label, ==, "Process (29 counters)");
  g_assert_cmpuint (row_at (rows, 0)->locs->len, ==, 1);
  g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, g_array_index (metric_locs, gint64, 0)), ==, -1);
  /* the filter finds a counter by its metric's name */
  sextant_timeline_rows_expand_all (rows, TRUE);
  sextant_timeline_rows_set_filter (rows, "hip memory");
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 2);
  g_assert_cmpstr (row_at (rows, 1)->label, ==, "HIP Memory");

  sextant_test_remove_tree (tmpdir);
}

static void
test_metrics_papi (void)
{
  static const char * const papi[] = { "PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP" };
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = import_external ("pipit-ping-pong-otf2-papi", &tmpdir);
  g_autoptr(SextantTimelineRows) rows = NULL;

  if (store == NULL)
    return;
  rows = new_rows (store);

  /* two ranks, each its thread's row with its three counters under it */
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 8);
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *label = g_strdup_printf ("MPI Rank %u", r);
      const SextantTimelineRow *row = row_at (rows, 4 * r);
      gint64 loc = g_array_index (row->locs, gint64, 0);

      g_assert_cmpint (row->kind, ==, SEXTANT_TIMELINE_ROW_PROCESS);
      g_assert_cmpstr (row->label, ==, label);
      g_assert_cmpint (row->rank, ==, r);
      g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, loc), ==, 4 * r);
      for (guint m = 0; m < 3; m++)
        {
          const SextantTimelineRow *counter = row_at (rows, 4 * r + 1 + m);

          g_assert_cmpint (counter->kind, ==, SEXTANT_TIMELINE_ROW_COUNTER);
          g_assert_cmpstr (counter->label, ==, papi[m]);
          g_assert_cmpstr (counter->unit, ==, "#");
          g_assert_cmpint (counter->metric, ==, m);
          g_assert_cmpint (counter->rank, ==, r);
          g_assert_cmpint (g_array_index (counter->locs, gint64, 0), ==, loc);
        }
    }

  sextant_test_remove_tree (tmpdir);
}

/* Counter points ------------------------------------------------------------- */

typedef struct
{
  gint64 time;
  double value;
} Value;

static gboolean
value_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Value value = { sextant_row_get_int (row, 0), sextant_row_get_double (row, 1) };

  g_array_append_val ((GArray *)user_data, value);
  return TRUE;
}

/* @loc's values of metric member @metric, straight from metric_value: the
 * rows whose (metric, position) the definitions map to @metric */
static GArray *
read_values (SextantStore *store,
             gint64        loc,
             gint64        metric)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = g_strdup_printf ("SELECT v.time, v.value FROM metric_value AS v, metric AS m, "
                                          "metric_class_member AS cm WHERE v.loc = %" G_GINT64_FORMAT
                                          " AND m.id = v.metric AND cm.metric = ifnull (m.class, m.id) "
                                          "AND cm.position = v.position AND cm.member = %" G_GINT64_FORMAT
                                          " ORDER BY v.time",
                                          loc, metric);
  GArray *values = g_array_new (FALSE, FALSE, sizeof (Value));

  g_assert_true (sextant_store_foreach_sql (store, sql, value_row, values, &error, ""));
  g_assert_no_error (error);

  return values;
}

/* sextant_store_read_counter() on [t0, t1) and @width against @values */
static void
check_points (SextantStore *store,
              gint64        loc,
              gint64        metric,
              GArray       *values,
              gint64        t0,
              gint64        t1,
              guint         width)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) points = g_array_new (FALSE, FALSE, sizeof (SextantCounterPoint));
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (SextantCounterPoint));
  int column = -1;

  for (guint i = 0; i < values->len; i++)
    {
      const Value *v = &g_array_index (values, Value, i);
      int c;

      if (v->time < t0 || v->time >= t1)
        continue;
      c = (int)((long double)(v->time - t0) * width / (t1 - t0));
      if (c != column)
        {
          SextantCounterPoint p = { v->time, v->value, v->value, v->value };

          g_assert_cmpint (c, >, column);
          g_array_append_val (expected, p);
          column = c;
        }
      else
        {
          SextantCounterPoint *p = &g_array_index (expected, SextantCounterPoint, expected->len - 1);

          p->time = v->time;
          p->min = MIN (p->min, v->value);
          p->max = MAX (p->max, v->value);
          p->last = v->value;
        }
    }

  g_assert_true (sextant_store_read_counter (store, loc, metric, t0, t1, width, points, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (points->len, <=, width);
  g_assert_cmpuint (points->len, ==, expected->len);
  for (guint i = 0; i < points->len; i++)
    {
      const SextantCounterPoint *p = &g_array_index (points, SextantCounterPoint, i);
      const SextantCounterPoint *e = &g_array_index (expected, SextantCounterPoint, i);

      g_assert_cmpint (p->time, ==, e->time);
      g_assert_cmpfloat (p->min, ==, e->min);
      g_assert_cmpfloat (p->max, ==, e->max);
      g_assert_cmpfloat (p->last, ==, e->last);
    }
}

static void
check_counters (SextantStore *store,
                guint        *checked)
{
  g_autoptr(SextantTimelineRows) rows = new_rows (store);
  SextantTimeSpan span;
  g_autoptr(GError) error = NULL;

  g_assert_true (sextant_store_get_time_span (store, &span, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < sextant_timeline_rows_get_n_rows (rows); i++)
    {
      const SextantTimelineRow *row = row_at (rows, i);
      gint64 loc, d = span.end + 1 - span.begin;
      g_autoptr(GArray) values = NULL;

      if (row->kind != SEXTANT_TIMELINE_ROW_COUNTER)
        continue;
      loc = g_array_index (row->locs, gint64, 0);
      values = read_values (store, loc, row->metric);
      g_assert_cmpuint (values->len, >, 0);
      check_points (store, loc, row->metric, values, span.begin, span.end + 1, 1);
      check_points (store, loc, row->metric, values, span.begin, span.end + 1, 7);
      check_points (store, loc, row->metric, values, span.begin, span.end + 1, 1000);
      check_points (store, loc, row->metric, values, span.begin + d / 3, span.begin + d / 2, 300);
      check_points (store, loc, row->metric, values, span.end + 1, span.end + 100, 300);
      (*checked)++;
    }
}

static void
test_counter_points (void)
{
  const char *traces[] = { "pipit-ping-pong-otf2-papi", "fastotf2-simple-mi300" };
  guint checked = 0;

  for (guint t = 0; t < G_N_ELEMENTS (traces); t++)
    {
      g_autofree char *tmpdir = NULL;
      g_autoptr(SextantStore) store = import_external (traces[t], &tmpdir);

      if (store == NULL)
        return;
      check_counters (store, &checked);
      sextant_test_remove_tree (tmpdir);
    }
  /* every counter row of both: pipit's 2 x 3, mi300's 29 */
  g_assert_cmpuint (checked, ==, 6 + 29);
}

/* The plot's pixels ---------------------------------------------------------- */

typedef struct
{
  float top;
  float height;
} OneRow;

static gboolean
one_row (gpointer  row_data,
         gint64    loc,
         float    *y,
         float    *height)
{
  OneRow *row = row_data;

  *y = row->top;
  *height = row->height;
  return TRUE;
}

static gboolean
is_plot (const guint8 *p)
{
  /* the counter's blue (B > R), line or shade: B, G, R, A premultiplied */
  return p[3] > 40 && p[0] > p[2] + 20;
}

static void
test_counter_pixels (void)
{
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = import_external ("fastotf2-simple-mi300", &tmpdir);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) points = g_array_new (FALSE, FALSE, sizeof (SextantCounterPoint));
  g_autoptr(GskRenderer) renderer = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  g_autofree guint8 *pixels = NULL;
  GtkWidget *label;
  GtkSnapshot *snapshot;
  SextantTimeSpan span;
  OneRow row = { 20, 40 };
  SextantTimelineGeometry geometry;
  const int width = 240, height = 80, stride = width * 4;
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
  guint dark = 0, outside = 0, under_label = 0;
  int label_width, label_height;
  gint64 loc;

  if (store == NULL)
    return;
  /* a metric that changes: location 4's (122 M to 688 M) */
  g_assert_true (sextant_store_get_time_span (store, &span, &error));
  geometry = (SextantTimelineGeometry) { span.begin, span.end + 1, 20, 200, 0, height, one_row, &row };
  loc = 4;
  {
    g_autoptr(SextantTimelineRows) rows = new_rows (store);
    int r = sextant_timeline_rows_row_of_loc (rows, loc);

    g_assert_cmpint (r, >, 0);
    g_assert_true (sextant_store_read_counter (store, loc, row_at (rows, r)->metric, geometry.t0, geometry.t1,
                                               (guint)geometry.plot_width, points, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpuint (points->len, >, 100);
  for (guint i = 0; i < points->len; i++)
    {
      lo = MIN (lo, g_array_index (points, SextantCounterPoint, i).min);
      hi = MAX (hi, g_array_index (points, SextantCounterPoint, i).max);
    }
  g_assert_cmpfloat (hi, >, lo);

  label = g_object_ref_sink (gtk_label_new (NULL));
  layout = gtk_widget_create_pango_layout (label, NULL);
  snapshot = gtk_snapshot_new ();
  sextant_timeline_layer_counter (snapshot, &geometry, layout, row.top, row.height, points, "#");
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  renderer = gsk_cairo_renderer_new ();
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  pixels = g_malloc0 (stride * height);
  gdk_texture_download (texture, pixels, stride);
  gsk_renderer_unrealize (renderer);
  g_object_unref (label);

  /* nothing outside the row and the plot's columns */
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        const guint8 *p = pixels + y * stride + x * 4;

        if (p[3] == 0)
          continue;
        if (y < row.top || y >= row.top + row.height || x < geometry.plot_x
            || x >= geometry.plot_x + geometry.plot_width)
          outside++;
        if (p[3] > 200 && p[0] < 80 && p[1] < 80 && p[2] < 80)
          dark++;   /* the label's text */
      }
  g_assert_cmpuint (outside, ==, 0);
  g_assert_cmpuint (dark, >, 10);
  /* the label, at the top right: "max 688 M" */
  g_assert_cmpstr (pango_layout_get_text (layout), ==, "max 688 M");
  pango_layout_get_pixel_size (layout, &label_width, &label_height);

  /* each point's last value on the line, at its height on the scale: the
   * largest value at the plot's top, the smallest at its bottom (where the
   * label's text does not cover it) */
  for (guint i = 0; i < points->len; i++)
    {
      const SextantCounterPoint *p = &g_array_index (points, SextantCounterPoint, i);
      int x = (int)floor (sextant_timeline_geometry_x (&geometry, p->time));
      double y = row.top + 2 + (hi - p->last) / (hi - lo) * (row.height - 4);
      gboolean found = FALSE;

      if (x >= geometry.plot_x + geometry.plot_width - label_width - 6 && y < row.top + label_height + 1)
        {
          under_label++;
          continue;
        }

      for (int dy = -1; dy <= 1 && !found; dy++)
        {
          int py = (int)floor (y) + dy;

          found = py >= 0 && py < height && is_plot (pixels + py * stride + x * 4);
        }
      g_assert_true (found);
    }
  g_assert_cmpuint (under_label, <, points->len / 2);   /* this metric ends at its top, on the right */
  /* the top and bottom of the scale are reached */
  {
    gboolean top = FALSE, bottom = FALSE;

    for (int x = geometry.plot_x; x < geometry.plot_x + geometry.plot_width; x++)
      {
        top |= is_plot (pixels + (int)(row.top + 2) * stride + x * 4);
        bottom |= is_plot (pixels + (int)(row.top + row.height - 3) * stride + x * 4);
      }
    g_assert_true (top);
    g_assert_true (bottom);
  }

  /* nothing to draw: no pixels */
  {
    g_autoptr(GskRenderNode) empty = NULL;

    snapshot = gtk_snapshot_new ();
    g_array_set_size (points, 0);
    sextant_timeline_layer_counter (snapshot, &geometry, layout, row.top, row.height, points, "#");
    empty = gtk_snapshot_free_to_node (snapshot);
    g_assert_null (empty);
  }

  sextant_test_remove_tree (tmpdir);
}

/* onecoll's Broadcaster ------------------------------------------------------- */

/* Every rank of @store: its master thread's row, with one Broadcaster row
 * under it that holds all the rank's sessions */
static void
check_broadcasters (SextantStore *store,
                    guint         n_ranks,
                    guint         sessions)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantTimelineRows) rows = new_rows (store);
  g_autoptr(GPtrArray) locations = sextant_store_list_locations (store, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 2 * n_ranks);
  for (guint r = 0; r < n_ranks; r++)
    {
      g_autofree char *process = g_strdup_printf ("MPI Rank %u", r);
      g_autofree char *collapsed = g_strdup_printf ("MPI Rank %u (2 threads)", r);
      const SextantTimelineRow *master = row_at (rows, 2 * r);
      const SextantTimelineRow *bcaster = row_at (rows, 2 * r + 1);
      guint expected = 0;
      guint key = master->key;

      g_assert_cmpint (master->kind, ==, SEXTANT_TIMELINE_ROW_PROCESS);
      g_assert_cmpstr (master->label, ==, process);
      g_assert_cmpint (master->rank, ==, r);
      g_assert_cmpuint (master->locs->len, ==, 1);
      g_assert_cmpint (bcaster->kind, ==, SEXTANT_TIMELINE_ROW_LOCATION);
      g_assert_cmpstr (bcaster->label, ==, "Broadcaster");
      g_assert_cmpuint (bcaster->depth, ==, 1);
      g_assert_cmpuint (bcaster->n_threads, ==, 1);
      g_assert_true (g_str_has_suffix (bcaster->tooltip, "MPI Rank 0 / Broadcaster") ||
                     g_str_has_suffix (bcaster->tooltip, " / Broadcaster"));
      for (guint i = 0; i < locations->len; i++)
        {
          const SextantLocationInfo *info = g_ptr_array_index (locations, i);

          if (g_strcmp0 (info->group, process) != 0 || info->events == 0)
            continue;
          if (g_str_equal (info->name, "onecoll-broadcaster"))
            {
              expected++;
              g_assert_true (array_has (bcaster->locs, info->id));
              g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, info->id), ==, 2 * r + 1);
            }
          else
            {
              g_assert_cmpint (g_array_index (master->locs, gint64, 0), ==, info->id);
            }
        }
      g_assert_cmpuint (expected, ==, sessions);
      g_assert_cmpuint (bcaster->locs->len, ==, sessions);

      /* collapsed: the rank's two threads, the sessions one of them */
      sextant_timeline_rows_set_expanded (rows, key, FALSE);
      master = row_at (rows, 2 * r);
      g_assert_cmpstr (master->label, ==, collapsed);
      g_assert_cmpuint (master->locs->len, ==, 1 + sessions);
      g_assert_cmpuint (master->n_threads, ==, 2);
      sextant_timeline_rows_set_expanded (rows, key, TRUE);
    }
}

static void
test_onecoll_recorded (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *anchor = NULL;
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = NULL;

  if (g_getenv ("SEXTANT_TEST_ONECOLL") == NULL)
    {
      g_test_skip ("no MPI or no recorder: onecoll's broadcast cannot be recorded");
      return;
    }
  dir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  anchor = sextant_test_record_onecoll (dir);
  store = sextant_test_import (anchor, &tmpdir);
  sextant_test_remove_tree (dir);

  /* 4 ranks, two runtimes (onecoll_init twice): two sessions each */
  check_broadcasters (store, 4, 2);
  sextant_test_remove_tree (tmpdir);
}

static void
test_onecoll_demo (void)
{
  g_autofree char *archive = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "demo", "trace", "traces.otf2",
                                               NULL);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = NULL;

  if (!g_file_test (archive, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the demo's trace is not there (scripts/demo makes it)");
      return;
    }
  store = sextant_test_import (archive, &tmpdir);
  /* 8 ranks, twelve Broadcaster sessions each */
  check_broadcasters (store, 8, 12);
  sextant_test_remove_tree (tmpdir);
}

/* Many ranks ----------------------------------------------------------------- */

static void
test_many_ranks (void)
{
  const char *path = g_getenv ("SEXTANT_TEST_ROWS_STORE");
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantTimelineRows) rows = NULL;
  gint64 start, built;
  guint n, n_nodes = 0, n_processes = 0;

  if (path == NULL)
    path = g_getenv ("SEXTANT_TEST_1024_STORE");
  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no store of many ranks");
      return;
    }
  store = sextant_store_open (path, &error);
  g_assert_no_error (error);
  /* the store read once before, as a session's is (the schema parsed,
   * the pages in the cache) */
  g_clear_object (&rows);
  rows = new_rows (store);
  g_clear_object (&rows);
  start = g_get_monotonic_time ();
  rows = new_rows (store);
  built = g_get_monotonic_time () - start;
  n = sextant_timeline_rows_get_n_rows (rows);
  g_test_message ("%u rows built in %.1f ms", n, built / 1000.0);
  g_assert_cmpuint (n, >=, 1024);

  /* by rank, under their nodes (the generator puts 16 ranks on a node);
   * every location's row found at once */
  for (guint i = 0; i < n; i++)
    {
      const SextantTimelineRow *row = row_at (rows, i);

      if (row->kind == SEXTANT_TIMELINE_ROW_NODE)
        {
          n_nodes++;
          g_assert_cmpuint (row->locs->len, ==, 0);
          continue;
        }
      g_assert_cmpint (row->rank, ==, n_processes);
      n_processes++;
      g_assert_cmpint (sextant_timeline_rows_row_of_loc (rows, g_array_index (row->locs, gint64, 0)), ==, i);
    }
  g_assert_cmpuint (n_nodes + n_processes, ==, n);
  g_assert_cmpuint (sextant_timeline_rows_get_all_locations (rows)->len, ==, n_processes);
  start = g_get_monotonic_time ();
  sextant_timeline_rows_set_filter (rows, "MPI Rank 10");
  g_test_message ("filtered in %.2f ms", (g_get_monotonic_time () - start) / 1000.0);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), >=, 1);
  /* generous: a loaded 2-core machine builds 4096 rows in about 10 ms */
  g_assert_cmpint (built, <, 2 * G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: run under xvfb-run\n");
      return 1;
    }

  g_test_add_func ("/timeline-rows/openmp", test_openmp);
  g_test_add_func ("/timeline-rows/nodes", test_nodes);
  g_test_add_func ("/timeline-rows/metrics/mi300", test_metrics_mi300);
  g_test_add_func ("/timeline-rows/metrics/papi", test_metrics_papi);
  g_test_add_func ("/timeline-rows/counter/points", test_counter_points);
  g_test_add_func ("/timeline-rows/counter/pixels", test_counter_pixels);
  g_test_add_func ("/timeline-rows/onecoll/recorded", test_onecoll_recorded);
  g_test_add_func ("/timeline-rows/onecoll/demo", test_onecoll_demo);
  g_test_add_func ("/timeline-rows/many-ranks", test_many_ranks);

  return g_test_run ();
}
