/*
 * sextant-bench-graph.c: what a delay chain and the communication matrix
 * cost on an analysed store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-bench-graph [-n REPS] [-c CHAINS] STORE
 *
 * On one connection, opened once (as a worker thread's):
 *  - the matrix of the whole run, and of the middle tenth of the run,
 *    REPS times each (default 5);
 *  - the delay chains of CHAINS wait states (default 200): the propagated
 *    ones first (the longest chains), then direct ones, spread over the
 *    instance ids, each built once (a chain reads its instances once, so a
 *    repeat would measure the connection's cache), and the chain with the
 *    most links REPS times more.
 * Prints the median, fastest and slowest wall time of each and the median
 * CPU time of the thread (on a shared machine the wall time says more about
 * the other jobs), and for the chains the links and the time per link. The store must have been
 * analysed by this build (`sextant analyze STORE`).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sextant-comm-matrix.h"
#include "sextant-graph.h"
#include "sextant-store-private.h"

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a;
  double y = *(const double *)b;

  return (x > y) - (x < y);
}

/* CPU time of this (the only working) thread, in ms: on a shared machine
 * the figure that says what a build costs */
static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static GArray *cpu;    /* the CPU ms of the runs being timed */

static void
print_times (const char *what,
             GArray     *ms)
{
  g_array_sort (ms, compare_doubles);
  g_array_sort (cpu, compare_doubles);
  printf ("| %s | %u | %.2f | %.2f | %.2f | %.2f |\n", what, ms->len, g_array_index (ms, double, ms->len / 2),
          g_array_index (ms, double, 0), g_array_index (ms, double, ms->len - 1),
          g_array_index (cpu, double, cpu->len / 2));
  g_array_set_size (cpu, 0);
}

static gboolean
add_id (const SextantRow  *row,
        gpointer           user_data,
        GError           **error)
{
  gint64 id = sextant_row_get_int (row, 0);

  g_array_append_val ((GArray *)user_data, id);
  return TRUE;
}

static double
time_matrix (SextantStore  *store,
             gint64         begin,
             gint64         end,
             guint         *size,
             GError       **error)
{
  gint64 start = g_get_monotonic_time ();
  double cpu_start = cpu_ms ();
  g_autoptr(SextantCommMatrix) matrix = sextant_comm_matrix_build (store, begin, end, error);
  double used = cpu_ms () - cpu_start;

  if (matrix == NULL)
    return -1;
  *size = sextant_comm_matrix_get_size (matrix);
  g_array_append_val (cpu, used);

  return (g_get_monotonic_time () - start) / 1000.0;
}

static double
time_chain (SextantStore  *store,
            gint64         id,
            guint         *links,
            GError       **error)
{
  gint64 start = g_get_monotonic_time ();
  double cpu_start = cpu_ms ();
  g_autoptr(SextantCommTree) chain = sextant_graph_build_delay_chain (store, id, 0, error);
  double used = cpu_ms () - cpu_start;

  if (chain == NULL)
    return -1;
  *links = sextant_comm_tree_get_n_edges (chain);
  g_array_append_val (cpu, used);

  return (g_get_monotonic_time () - start) / 1000.0;
}

int
main (int    argc,
      char **argv)
{
  int reps = 5;
  int n_chains = 200;
  g_autoptr(GOptionContext) context = g_option_context_new ("STORE - time delay chains and the matrix");
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GArray) propagated = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) direct = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) per_link = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) per_link_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  SextantTimeSpan span;
  gint64 longest = -1;
  guint longest_links = 0, size = 0, total_links = 0;
  GOptionEntry entries[] = {
    { "reps", 'n', 0, G_OPTION_ARG_INT, &reps, "Repetitions of the matrix and of the longest chain (5)", "N" },
    { "chains", 'c', 0, G_OPTION_ARG_INT, &n_chains, "Delay chains to build (200)", "N" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || reps < 1 || n_chains < 1)
    {
      fprintf (stderr, "%s\n", error != NULL ? error->message : "usage: sextant-bench-graph [-n N] [-c N] STORE");
      return 2;
    }

  if (!(store = sextant_store_open (argv[1], &error)) || !sextant_store_get_time_span (store, &span, &error) ||
      !sextant_store_foreach_sql (store, "SELECT instance FROM wait_state WHERE cause = 'propagated' ORDER BY 1",
                                  add_id, propagated, &error, "") ||
      !sextant_store_foreach_sql (store, "SELECT instance FROM wait_state WHERE cause = 'direct' ORDER BY 1",
                                  add_id, direct, &error, ""))
    {
      fprintf (stderr, "sextant-bench-graph: %s\n", error->message);
      return 1;
    }

  cpu = g_array_new (FALSE, FALSE, sizeof (double));
  printf ("| what | runs | median ms | fastest ms | slowest ms | median CPU ms |\n|---|---:|---:|---:|---:|---:|\n");

  for (int i = 0; i < reps; i++)
    {
      double t = time_matrix (store, SEXTANT_NULL, SEXTANT_NULL, &size, &error);

      if (t < 0)
        goto failed;
      g_array_append_val (ms, t);
    }
  print_times ("matrix, whole run", ms);
  g_array_set_size (ms, 0);
  for (int i = 0; i < reps; i++)
    {
      gint64 tenth = (span.end - span.begin) / 10;
      double t = time_matrix (store, span.begin + 4 * tenth, span.begin + 5 * tenth, &size, &error);

      if (t < 0)
        goto failed;
      g_array_append_val (ms, t);
    }
  print_times ("matrix, a tenth of the run", ms);

  g_array_set_size (ms, 0);
  for (int i = 0; i < n_chains; i++)
    {
      gboolean from_propagated = (guint)i < propagated->len;
      GArray *ids = from_propagated ? propagated : direct;
      guint k = from_propagated ? (guint)i : (guint)(((guint64)(i - propagated->len) * direct->len) /
                                                      MAX ((guint)n_chains - propagated->len, 1));
      gint64 id;
      guint links = 0;
      double t;

      if (k >= ids->len)
        break;
      id = g_array_index (ids, gint64, k);
      if ((t = time_chain (store, id, &links, &error)) < 0)
        goto failed;
      g_array_append_val (ms, t);
      total_links += links;
      if (links > longest_links)
        {
          longest_links = links;
          longest = id;
        }
      t /= MAX (links, 1);
      g_array_append_val (per_link, t);
      g_array_append_val (per_link_cpu, g_array_index (cpu, double, cpu->len - 1));
      g_array_index (per_link_cpu, double, per_link_cpu->len - 1) /= MAX (links, 1);
    }
  print_times ("delay chain", ms);
  g_array_append_vals (cpu, per_link_cpu->data, per_link_cpu->len);
  print_times ("delay chain, per link", per_link);

  g_array_set_size (ms, 0);
  for (int i = 0; longest >= 0 && i < reps; i++)
    {
      guint links = 0;
      double t = time_chain (store, longest, &links, &error);

      if (t < 0)
        goto failed;
      g_array_append_val (ms, t);
    }
  if (ms->len > 0)
    {
      g_autofree char *what = g_strdup_printf ("longest chain (%u links, instance %" G_GINT64_FORMAT ")",
                                               longest_links, longest);

      print_times (what, ms);
    }

  printf ("\n- %u locations in the matrix; %u wait states propagated, %u direct; %u links in %u chains\n", size,
          propagated->len, direct->len, total_links, per_link->len);
  printf ("- command: sextant-bench-graph -n %d -c %d %s\n", reps, n_chains, argv[1]);

  return 0;

failed:
  fprintf (stderr, "sextant-bench-graph: %s\n", error->message);
  return 1;
}
