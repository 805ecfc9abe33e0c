/*
 * test-window.c: the patterns, the timeline and the source line together.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb (meson runs it through xvfb-run): the window opens a copy of
 * a third-party archive, imports and analyses it, lists the patterns as
 * the store has them and the worst instances of the chosen one; choosing
 * an instance brings its time into the timeline's view and marks it; the
 * mark changes the pixels of the instance's box and nothing else; the
 * source view shows a file with the line highlighted, found where the
 * trace says or in the source root.
 */
#include "config.h"

#include <string.h>

#include "sextant-lod-reader.h"
#include "sextant-store.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-window.h"

typedef struct
{
  GArray *ids;          /* char *: the patterns with instances, worst first */
  GArray *counts;       /* gint64 */
} Totals;

static gboolean
total_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Totals *totals = user_data;
  char *id = g_strdup (sextant_row_get_text (row, 0));
  gint64 count = sextant_row_get_int (row, 3);

  if (count > 0)
    {
      g_array_append_val (totals->ids, id);
      g_array_append_val (totals->counts, count);
    }
  else
    g_free (id);

  return TRUE;
}

static void
test_window_patterns (void)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *archive = g_build_filename (tmpdir, "casita", NULL);
  g_autofree char *source = g_build_filename (root, "casita-4_mpi_ls_barr", NULL);
  const char *cp[] = { "cp", "-r", source, archive, NULL };
  SextantWindow *window;
  SextantPatternBrowser *browser;
  SextantTimeline *timeline;
  g_autoptr(SextantStore) store = NULL;
  Totals totals = { g_array_new (FALSE, FALSE, sizeof (char *)), g_array_new (FALSE, FALSE, sizeof (gint64)) };
  GListModel *instances;
  const SextantInstanceInfo *worst;
  g_autoptr(GObject) first = NULL;
  gint64 t0, t1;
  int status = -1;

  g_assert_no_error (error);
  g_assert_true (g_spawn_sync (NULL, (char **)cp, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);

  window = sextant_window_new (NULL);
  browser = sextant_window_get_pattern_browser (window);
  timeline = sextant_window_get_timeline (window);
  gtk_window_present (GTK_WINDOW (window));
  sextant_window_open (window, archive);
  sextant_test_wait_for (timeline, "ready", 60);
  sextant_test_wait_for (browser, "ready", 60);

  /* the patterns with instances, as the store has them after the analysis
   * the window ran, worst first */
  store = sextant_store_open (sextant_timeline_get_store (timeline), &error);
  g_assert_no_error (error);
  g_assert_true (sextant_store_foreach (store, SEXTANT_QUERY_PATTERN_TOTALS, total_row, &totals, &error, ""));
  g_assert_no_error (error);
  g_assert_cmpuint (totals.ids->len, >, 0);
  g_assert_cmpuint (sextant_pattern_browser_get_n_patterns (browser), ==, totals.ids->len);
  for (guint i = 0; i < totals.ids->len; i++)
    g_assert_cmpstr (sextant_pattern_browser_get_pattern_id (browser, i), ==, g_array_index (totals.ids, char *, i));

  /* the first (worst) pattern is chosen, its instances worst first */
  instances = sextant_pattern_browser_get_instances (browser);
  g_assert_cmpuint (g_list_model_get_n_items (instances), ==, MIN (g_array_index (totals.counts, gint64, 0), 1000));
  first = g_list_model_get_item (instances, 0);
  worst = sextant_instance_item_get_info (first);
  for (guint i = 1; i < g_list_model_get_n_items (instances); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (instances, i);

      g_assert_cmpint (sextant_instance_item_get_info (item)->severity, <=, worst->severity);
    }

  /* choosing it brings its time into view */
  sextant_pattern_browser_activate (browser, 0);
  sextant_test_wait_for (timeline, "ready", 60);
  sextant_timeline_get_view (timeline, &t0, &t1);
  g_assert_cmpint (t0, <=, worst->begin);
  g_assert_cmpint (t1, >=, worst->end);

  /* another pattern: its own instances */
  if (totals.ids->len > 1)
    {
      g_autoptr(GObject) item = NULL;

      sextant_pattern_browser_select (browser, 1);
      sextant_test_wait_for (browser, "ready", 60);
      g_assert_cmpuint (g_list_model_get_n_items (instances), ==,
                        MIN (g_array_index (totals.counts, gint64, 1), 1000));
      item = g_list_model_get_item (instances, 0);
      g_assert_cmpint (sextant_instance_item_get_info (item)->id >> 32, !=, worst->id >> 32);
    }

  /* the lost time shaded: on each row, the pixels inside the union of its
   * instances' intervals change when the shading comes on, the others not */
  {
    g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (store, &error);
    g_autoptr(GArray) lost = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
    g_autoptr(GArray) locs = sextant_test_locations (store, FALSE);
    g_autofree guint8 *plain = NULL;
    g_autofree guint8 *shaded = NULL;
    gboolean too_many = FALSE;
    guint inside = 0, outside = 0;
    int width, height;

    g_assert_no_error (error);
    sextant_timeline_set_mark (timeline, SEXTANT_NULL, SEXTANT_NULL, 0, 0);
    g_object_set (timeline, "show-messages", FALSE, NULL);
    sextant_timeline_zoom_fit (timeline);
    sextant_test_wait_for (timeline, "ready", 60);
    sextant_timeline_get_view (timeline, &t0, &t1);
    g_assert_true (sextant_lod_reader_read_lost (reader, t0, t1, 100000, lost, &too_many, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (lost->len, >, 0);
    g_object_set (timeline, "show-lost", FALSE, NULL);
    plain = sextant_test_render (GTK_WIDGET (timeline), &width, &height);
    g_object_set (timeline, "show-lost", TRUE, NULL);
    shaded = sextant_test_render (GTK_WIDGET (timeline), &width, &height);

    for (guint r = 0; r < locs->len; r++)
      {
        graphene_rect_t area;
        int y;

        g_assert_true (sextant_timeline_get_row_area (timeline, r, &area));
        y = (int)(area.origin.y + area.size.height / 2);
        for (int x = (int)area.origin.x + 1; x < (int)(area.origin.x + area.size.width) - 1; x++)
          {
            gsize at = (gsize)y * width * 4 + (gsize)x * 4;
            gboolean differs = memcmp (plain + at, shaded + at, 4) != 0;
            int where = -1;   /* 1: inside an interval, -1: a pixel away from all, 0: at an edge */

            for (guint i = 0; i < lost->len; i++)
              {
                const SextantViewLost *l = &g_array_index (lost, SextantViewLost, i);
                double x0, x1;

                if (l->loc != g_array_index (locs, gint64, r))
                  continue;
                x0 = sextant_timeline_x_for_time (timeline, l->begin);
                x1 = sextant_timeline_x_for_time (timeline, l->end);
                if (x >= x0 + 1 && x + 1 <= x1 - 1)
                  where = 1;
                else if (where != 1 && x + 1 >= x0 - 1 && x <= x1 + 1)
                  where = 0;
              }
            if (where == 1 && !differs)
              g_error ("row %u, x %d: lost time, not shaded", r, x);
            if (where == -1 && differs)
              g_error ("row %u, x %d: shaded, but no instance lost time there", r, x);
            inside += where == 1;
            outside += where == -1;
          }
      }
    g_test_message ("lost time: %u instances, %u pixels shaded, %u not", lost->len, inside, outside);
    g_assert_cmpuint (inside, >, 0);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&store);
  for (guint i = 0; i < totals.ids->len; i++)
    g_free (g_array_index (totals.ids, char *, i));
  g_array_unref (totals.ids);
  g_array_unref (totals.counts);
  sextant_test_remove_tree (tmpdir);
}

/* The mark changes the pixels of the instance's box on its row (and the
 * peer's) and nothing else. */
static void
test_timeline_mark (void)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = g_build_filename (root, "casita-4_mpi_ls_barr", NULL);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (archive, &tmpdir);
  GtkWidget *window = gtk_window_new ();
  SextantTimeline *timeline = SEXTANT_TIMELINE (sextant_timeline_new ());
  g_autofree guint8 *before = NULL;
  g_autofree guint8 *after = NULL;
  graphene_rect_t row;
  gint64 t0, t1, m0, m1;
  int width, height, x0, x1;
  guint changed = 0;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (timeline));
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 200);
  gtk_window_present (GTK_WINDOW (window));
  sextant_timeline_set_store (timeline, sextant_store_get_path (store));
  sextant_test_wait_for (timeline, "ready", 60);
  g_object_set (timeline, "show-messages", FALSE, NULL);

  before = sextant_test_render (GTK_WIDGET (timeline), &width, &height);
  sextant_timeline_get_view (timeline, &t0, &t1);
  /* the second tenth of the run on row 1 */
  m0 = t0 + (t1 - t0) / 10;
  m1 = t0 + (t1 - t0) / 5;
  g_assert_true (sextant_timeline_get_row_area (timeline, 1, &row));
  {
    g_autoptr(GArray) locs = sextant_test_locations (store, FALSE);

    g_assert_cmpuint (locs->len, >, 1);
    sextant_timeline_set_mark (timeline, g_array_index (locs, gint64, 1), SEXTANT_NULL, m0, m1);
  }
  after = sextant_test_render (GTK_WIDGET (timeline), &width, &height);

  x0 = (int)sextant_timeline_x_for_time (timeline, m0);
  x1 = (int)sextant_timeline_x_for_time (timeline, m1);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        gsize at = (gsize)y * width * 4 + (gsize)x * 4;
        gboolean differs = memcmp (before + at, after + at, 4) != 0;
        /* the box and its 2-pixel frame */
        gboolean in_box = x >= x0 - 3 && x <= x1 + 3 && y >= row.origin.y - 3 &&
                          y <= row.origin.y + row.size.height + 3;

        if (differs && !in_box)
          g_error ("the mark changed (%d, %d), outside its box (%d..%d, %.0f..%.0f)", x, y, x0, x1, row.origin.y,
                   row.origin.y + row.size.height);
        if (in_box && x > x0 + 2 && x < x1 - 2 && y > row.origin.y + 2 && y < row.origin.y + row.size.height - 2)
          {
            if (!differs)
              g_error ("the mark did not change (%d, %d), inside its box", x, y);
            changed++;
          }
      }
  g_assert_cmpuint (changed, >, 100);

  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: run under xvfb-run\n");
      return 1;
    }

  g_test_add_func ("/window/patterns-and-timeline", test_window_patterns);
  g_test_add_func ("/window/timeline-mark", test_timeline_mark);

  return g_test_run ();
}
