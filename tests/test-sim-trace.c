/*
 * test-sim-trace.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The torus coordinates of a model run's archive (sim/sextant-torus-trace.c)
 * as the store reads them back (sextant_store_read_torus_coords()): the
 * archive written by the model, imported by the importer, and every node's
 * coordinates and the torus's sizes exactly the model's, on 2-, 3- and
 * 4-dimensional tori, with transit nodes placed too. In the ASan build as
 * in the others (it needs no sextant executable).
 */
#include "config.h"

#include "sextant-test-util.h"
#include "sextant-torus-trace.h"

static void
check_coords (gconstpointer data)
{
  const char *dims = data;
  static const guint transit[] = { 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantTorus) torus = sextant_torus_new_from_string (dims, &error);
  g_autoptr(SextantTorusSim) sim = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_auto(SextantTorusCoords) places = { 0 };
  g_autofree char *dir = g_dir_make_tmp ("sextant-test-sim-XXXXXX", &error);
  g_autofree char *trace = g_build_filename (dir, "trace", NULL);
  g_autofree char *anchor = g_build_filename (trace, "traces.otf2", NULL);
  g_autofree char *tmpdir = NULL;
  SextantTorusTraceCounts counts;
  SextantTorusJob job;
  guint n;

  g_assert_no_error (error);
  n = sextant_torus_get_n_nodes (torus);
  sextant_torus_job_init (&job);
  job.op = SEXTANT_TORUS_OP_ALLREDUCE;
  job.transit = transit;
  job.n_transit = G_N_ELEMENTS (transit);
  job.record = TRUE;
  sim = sextant_torus_sim_run (torus, NULL, &job, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_torus_trace_write (sim, trace, &counts, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (counts.n_collectives, ==, n - 1);

  store = sextant_test_import (anchor, &tmpdir);
  g_assert_true (sextant_store_read_torus_coords (store, &places, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (places.n_dims, ==, sextant_torus_get_n_dims (torus));
  for (guint d = 0; d < places.n_dims; d++)
    g_assert_cmpuint (places.sizes[d], ==, sextant_torus_get_size (torus, d));
  /* every node, the transit one too: location v is node v */
  g_assert_cmpuint (places.locations->len, ==, n);
  for (guint v = 0; v < n; v++)
    {
      const SextantLocationCoords *at = sextant_torus_coords_find (&places, v);
      g_autofree char *text = sextant_torus_coords_format (&places, v);
      g_autofree char *model = sextant_torus_format_node (torus, v);

      g_assert_nonnull (at);
      for (guint d = 0; d < places.n_dims; d++)
        g_assert_cmpuint (at->coords[d], ==, sextant_torus_get_coord (torus, v, d));
      g_assert_cmpstr (text, ==, model);
    }
  g_assert_null (sextant_torus_coords_find (&places, n));
  g_assert_null (sextant_torus_coords_format (&places, n));

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
  sextant_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/sim/trace/coords/3x5", "3x5", check_coords);
  g_test_add_data_func ("/sim/trace/coords/4x4x2", "4x4x2", check_coords);
  g_test_add_data_func ("/sim/trace/coords/2x2x2x2", "2x2x2x2", check_coords);

  return g_test_run ();
}
