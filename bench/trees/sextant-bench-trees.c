/*
 * sextant-bench-trees.c: what building the tree of a collective costs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-bench-trees [-n REPS] [-r REGION] STORE [ID...]
 *
 * Times, on one store, what the tree view and `sextant tree` call:
 * sextant_graph_list_collectives() (the listing of every collective),
 * sextant_graph_collective_at() at REPS points of the run (what a click in
 * the timeline asks), and sextant_graph_build_collective() for the given
 * IDs, or by default the first, middle and last collective of every kind
 * and operation the listing has, plus (-r REGION) the first, middle and
 * last visit of a region as an exchange (a region the listing leaves out,
 * such as the benchmark trace's halo_exchange). Each tree is built once on
 * a fresh connection (cold: the column tables' chunk cache is empty, the
 * file in the page cache) and then REPS times (default 9) on it; prints the
 * cold time and the median, fastest and slowest warm ones, in ms, with the
 * tree's size. The program's start and the store's opening are not timed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sextant-graph.h"

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;

  return (x > y) - (x < y);
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static SextantStore *
open_store (const char *path)
{
  g_autoptr(GError) error = NULL;
  SextantStore *store = sextant_store_open (path, &error);

  if (store == NULL)
    {
      fprintf (stderr, "sextant-bench-trees: %s\n", error->message);
      exit (1);
    }

  return store;
}

/* Median, min and max of @times (sorted here). */
static void
summarize (GArray *times,
           double *median,
           double *min,
           double *max)
{
  g_array_sort (times, compare_doubles);
  *median = g_array_index (times, double, times->len / 2);
  *min = g_array_index (times, double, 0);
  *max = g_array_index (times, double, times->len - 1);
}

static void
time_tree (const char *path,
           const char *id,
           int         reps)
{
  g_autoptr(SextantStore) store = open_store (path);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantCommTree) first = NULL;
  double t0, cold, median, min, max;

  t0 = now_ms ();
  first = sextant_graph_build_collective (store, id, SEXTANT_TREE_LAYOUT_RECORDED, &error);
  cold = now_ms () - t0;
  if (first == NULL)
    {
      printf ("| `%s` | - | - | - | %s |\n", id, error->message);
      return;
    }
  for (int i = 0; i < reps; i++)
    {
      g_autoptr(SextantCommTree) tree = NULL;

      t0 = now_ms ();
      tree = sextant_graph_build_collective (store, id, SEXTANT_TREE_LAYOUT_RECORDED, NULL);
      g_array_append_val (times, (double){ now_ms () - t0 });
    }
  summarize (times, &median, &min, &max);
  printf ("| `%s` | %u / %u | %.2f | %.2f (%.2f-%.2f) | %s |\n", id, sextant_comm_tree_get_n_nodes (first),
          sextant_comm_tree_get_n_edges (first), cold, median, min, max, sextant_comm_tree_get_title (first));
}

/* The first, middle and last collective of each (kind, operation). */
static GPtrArray *
sample_ids (GPtrArray *refs)
{
  g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify)g_ptr_array_unref);
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GList) keys = NULL;

  for (guint i = 0; i < refs->len; i++)
    {
      SextantCollectiveRef *ref = g_ptr_array_index (refs, i);
      g_autofree char *key = g_strdup_printf ("%s %s", sextant_tree_kind_to_string (ref->kind), ref->operation);
      GPtrArray *group = g_hash_table_lookup (groups, key);

      if (group == NULL)
        {
          group = g_ptr_array_new ();
          g_hash_table_insert (groups, g_steal_pointer (&key), group);
        }
      g_ptr_array_add (group, ref);
    }

  keys = g_list_sort (g_hash_table_get_keys (groups), (GCompareFunc)g_strcmp0);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      GPtrArray *group = g_hash_table_lookup (groups, l->data);
      guint picks[] = { 0, group->len / 2, group->len - 1 };

      for (guint k = 0; k < G_N_ELEMENTS (picks); k++)
        if (k == 0 || picks[k] != picks[k - 1])
          g_ptr_array_add (ids, g_strdup (((SextantCollectiveRef *)g_ptr_array_index (group, picks[k]))->id));
    }

  return ids;
}

int
main (int    argc,
      char **argv)
{
  int reps = 9;
  g_autofree char *region = NULL;
  g_autoptr(GOptionContext) context = g_option_context_new ("STORE [ID...] - time the trees of collectives");
  GOptionEntry entries[] = {
    { "reps", 'n', 0, G_OPTION_ARG_INT, &reps, "Builds of each tree (9)", "N" },
    { "region", 'r', 0, G_OPTION_ARG_STRING, &region, "Also the first, middle and last visit of REGION", "NAME" },
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) refs = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) locations = NULL;
  SextantTimeSpan span;
  double t0, list_ms, median, min, max;
  guint found = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 2 || reps < 1)
    {
      fprintf (stderr, "usage: sextant-bench-trees [-n REPS] [-r REGION] STORE [ID...]%s%s\n",
               error != NULL ? ": " : "", error != NULL ? error->message : "");
      return 2;
    }

  store = open_store (argv[1]);
  t0 = now_ms ();
  refs = sextant_graph_list_collectives (store, &error);
  list_ms = now_ms () - t0;
  if (refs == NULL || !sextant_store_get_time_span (store, &span, &error) ||
      !(locations = sextant_store_list_locations (store, &error)))
    {
      fprintf (stderr, "sextant-bench-trees: %s\n", error->message);
      return 1;
    }
  printf ("store %s: %u collectives listed in %.1f ms (cold)\n\n", argv[1], refs->len, list_ms);

  /* collective_at at reps points spread over the run, on location i % n */
  for (int i = 0; i < reps; i++)
    {
      gint64 loc = ((SextantLocationInfo *)g_ptr_array_index (locations, (guint)i % locations->len))->id;
      gint64 time = span.begin + (span.end - span.begin) * (i + 1) / (reps + 1);
      g_autofree char *id = NULL;

      t0 = now_ms ();
      id = sextant_graph_collective_at (store, loc, time, NULL);
      g_array_append_val (times, (double){ now_ms () - t0 });
      found += id != NULL;
    }
  summarize (times, &median, &min, &max);
  printf ("collective_at, %d points: median %.2f ms (%.2f-%.2f), %u in a collective\n\n", reps, median, min, max,
          found);

  if (argc > 2)
    {
      ids = g_ptr_array_new_with_free_func (g_free);
      for (int i = 2; i < argc; i++)
        g_ptr_array_add (ids, g_strdup (argv[i]));
    }
  else
    ids = sample_ids (refs);

  if (region != NULL)
    {
      g_autoptr(GHashTable) names = sextant_store_read_region_names (store, NULL);
      g_autoptr(GPtrArray) presence = sextant_store_list_region_presence (store, NULL);
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, names);
      while (g_hash_table_iter_next (&iter, &key, &value))
        if (g_str_equal (value, region))
          {
            gint64 visits = 0;

            for (guint i = 0; presence != NULL && i < presence->len; i++)
              {
                SextantRegionPresence *row = g_ptr_array_index (presence, i);

                if (row->region == *(gint64 *)key)
                  visits = MAX (visits, row->visits);
              }
            if (visits > 0)
              {
                g_ptr_array_add (ids, g_strdup_printf ("exchange:%" G_GINT64_FORMAT ":1", *(gint64 *)key));
                g_ptr_array_add (ids, g_strdup_printf ("exchange:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                                                       *(gint64 *)key, (visits + 1) / 2));
                g_ptr_array_add (ids, g_strdup_printf ("exchange:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                                                       *(gint64 *)key, visits));
              }
          }
    }

  printf ("| id | nodes / edges | cold (ms) | warm median (min-max) (ms) | tree |\n");
  printf ("|---|---:|---:|---:|---|\n");
  for (guint i = 0; i < ids->len; i++)
    time_tree (argv[1], g_ptr_array_index (ids, i), reps);

  return 0;
}
