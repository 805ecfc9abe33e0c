/*
 * test-window.c: the application window as a user drives it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb (meson runs it through xvfb-run, with the Cairo renderer):
 * the window opens a copy of a third-party archive, imports and analyses
 * it, and lists the patterns as the store has them; choosing an instance
 * brings its time into view, marks it and shows its details and source
 * line; the instance table sorts by each column and sizes its columns to
 * their content; keys typed with sextant_test_xdotool (real X events) work wherever the
 * focus is; a failed open keeps the trace shown and says why; the start
 * page lists the recent traces that opened; a dropped file opens; a
 * partial analysis is said and analysed again whole; the view and the
 * report export to files that parse; an import is cancelled; the pages
 * under the timeline follow Alt+1, 2, 3, a click on a collective's line
 * shows its tree, a chosen instance's tree is its delay chain.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "sextant-collective-id.h"
#include "sextant-lod-reader.h"
#include "sextant-pattern-tree.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-preferences-window.h"
#include "sextant-settings.h"
#include "sextant-window.h"

/* The archive every test opens (copied: the import writes beside it) */
typedef struct
{
  char          *tmpdir;
  char          *archive;
  SextantWindow *window;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *source = g_build_filename (root, data != NULL ? data : "casita-4_mpi_ls_barr", NULL);
  g_autoptr(GError) error = NULL;

  fixture->tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->archive = g_build_filename (fixture->tmpdir, "casita", NULL);
  sextant_test_copy_tree (source, fixture->archive);
  fixture->window = sextant_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1300, 720);
  gtk_window_present (GTK_WINDOW (fixture->window));
  sextant_test_focus_window (GTK_WINDOW (fixture->window));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->archive);
  g_free (fixture->tmpdir);
}

/* Opens @path in the fixture's window and waits until it is shown, analysed and drawn */
static void
open_and_wait (Fixture    *fixture,
               const char *path)
{
  sextant_window_open (fixture->window, path);
  sextant_test_wait_for (fixture->window, "ready", 120);
  g_assert_null (sextant_window_get_error (fixture->window));
}

static SextantStore *
open_shown_store (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  SextantStore *store = sextant_session_open_store (sextant_window_get_session (fixture->window), &error);

  g_assert_no_error (error);

  return store;
}

/* Patterns, instances, the choice ---------------------------------------------------- */

static void
test_patterns (Fixture       *fixture,
               gconstpointer  data)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (fixture->window);
  SextantTimeline *timeline = sextant_window_get_timeline (fixture->window);
  SextantSession *session;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) totals = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *instances;
  const SextantPatternInstance *worst;
  guint listed = 0;

  open_and_wait (fixture, fixture->archive);
  session = sextant_window_get_session (fixture->window);
  g_assert_cmpstr (sextant_session_get_title (session), ==, "casita");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "casita");
  /* analysed by the window, whole */
  g_assert_true (sextant_session_get_analysis_scope (session)->analysed);
  g_assert_null (sextant_session_get_analysis_scope (session)->selected);
  g_assert_null (sextant_pattern_browser_get_scope_text (browser));

  /* the patterns with instances, as the store has them, worst first */
  store = open_shown_store (fixture);
  totals = sextant_store_list_pattern_totals (store, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < totals->len; i++)
    {
      const SextantPatternTotal *total = g_ptr_array_index (totals, i);

      if (total->instances == 0)
        continue;
      g_assert_cmpstr (sextant_pattern_browser_get_pattern_id (browser, listed), ==, total->id);
      listed++;
    }
  g_assert_cmpuint (listed, >, 0);
  g_assert_cmpuint (sextant_pattern_browser_get_n_patterns (browser), ==, listed);
  g_assert_nonnull (strstr (sextant_pattern_browser_get_status (browser), "patterns found"));

  /* the worst pattern's instances, worst first, with their texts */
  instances = sextant_pattern_browser_get_instances (browser);
  g_assert_cmpuint (g_list_model_get_n_items (instances), >, 0);
  worst = sextant_instance_get_record (sextant_test_instance_at (browser, 0));
  for (guint i = 0; i < g_list_model_get_n_items (instances); i++)
    {
      SextantInstance *instance = sextant_test_instance_at (browser, i);
      const char *lost = sextant_instance_get_lost (instance);

      g_assert_cmpint (sextant_instance_get_severity (instance), <=, worst->severity);
      /* one unit system: s, ms, µs */
      g_assert_true (g_str_has_suffix (lost, " s") || g_str_has_suffix (lost, " ms") ||
                     g_str_has_suffix (lost, " µs"));
      g_assert_null (strstr (sextant_instance_get_diagnosis (instance), " us "));
    }

  /* choosing it: its time in view, its details, its source line */
  sextant_pattern_browser_activate (browser, 0);
  g_assert_true (sextant_session_get_instance (session) == sextant_test_instance_at (browser, 0));
  sextant_test_wait_for (fixture->window, "ready", 60);
  g_assert_cmpint (sextant_session_get_view_begin (session), <=, worst->begin);
  g_assert_cmpint (sextant_session_get_view_end (session), >=, worst->end);
  {
    const char *details = sextant_pattern_browser_get_details (browser);
    const char *first = strstr (details, worst->comment);
    g_autofree char *twice = g_strdup_printf ("%s: %s", worst->location, worst->location);

    /* the whole diagnosis, once, without its location said twice */
    g_assert_nonnull (first);
    g_assert_null (strstr (first + 1, worst->comment));
    g_assert_null (strstr (details, twice));
    g_assert_nonnull (strstr (details, "Lost"));
    g_assert_nonnull (strstr (details, worst->location));
    /* casita-4_mpi_ls_barr's worst wait, rank 3's Late Sender, was
     * propagated from rank 2, itself waiting for rank 1, who waited for
     * rank 0: the details say so and name the root cause */
    g_assert_cmpint (worst->cause, ==, SEXTANT_WAIT_CAUSE_PROPAGATED);
    g_assert_cmpstr (worst->root_label, ==, "MPI Rank 0");
    g_assert_nonnull (strstr (details, "Cause propagated: MPI Rank 2 was itself waiting; "
                                       "the root cause is MPI Rank 0"));
  }
  if (worst->file != NULL && g_file_test (worst->file, G_FILE_TEST_EXISTS))
    g_assert_cmpint (sextant_source_view_get_line (sextant_window_get_source_view (fixture->window)), ==,
                     worst->line);

  /* another pattern: its own instances */
  if (listed > 1)
    {
      sextant_pattern_browser_select (browser, 1);
      sextant_test_wait_for (browser, "ready", 60);
      g_assert_cmpuint (g_list_model_get_n_items (instances), >, 0);
      g_assert_cmpstr (sextant_instance_get_record (sextant_test_instance_at (browser, 0))->pattern, ==,
                       sextant_pattern_browser_get_pattern_id (browser, 1));
    }

  /* the lost time shaded: on each row, the pixels inside the union of its
   * instances' intervals change when the shading comes on, the others not */
  {
    g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (store, &error);
    g_autoptr(GArray) lost = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
    g_autoptr(GArray) locs = sextant_test_timeline_rows (timeline);
    g_autofree guint8 *plain = NULL;
    g_autofree guint8 *shaded = NULL;
    gboolean too_many = FALSE;
    guint inside = 0, outside = 0;
    int width, height;

    g_assert_no_error (error);
    sextant_session_set_instance (session, NULL);
    g_object_set (timeline, "show-messages", FALSE, NULL);
    sextant_session_zoom_fit (session);
    sextant_test_wait_for (timeline, "ready", 60);
    g_assert_true (sextant_lod_reader_read_lost (reader, sextant_session_get_view_begin (session),
                                                 sextant_session_get_view_end (session), 100000, lost, &too_many,
                                                 &error));
    g_assert_no_error (error);
    g_assert_cmpuint (lost->len, >, 0);
    /* the pair is taken again while anything else changed the widget's
     * pixels meanwhile (the window settling: a style or layout change as
     * the source view loads makes text and edges differ by a shade) */
    for (guint attempt = 0; attempt < 10; attempt++)
      {
        g_autofree guint8 *again = NULL;
        int shaded_width, shaded_height, again_width, again_height;

        g_clear_pointer (&plain, g_free);
        g_clear_pointer (&shaded, g_free);
        g_object_set (timeline, "show-lost", FALSE, NULL);
        plain = sextant_test_render (GTK_WIDGET (timeline), &width, &height);
        g_object_set (timeline, "show-lost", TRUE, NULL);
        shaded = sextant_test_render (GTK_WIDGET (timeline), &shaded_width, &shaded_height);
        g_object_set (timeline, "show-lost", FALSE, NULL);
        again = sextant_test_render (GTK_WIDGET (timeline), &again_width, &again_height);
        g_object_set (timeline, "show-lost", TRUE, NULL);
        if (shaded_width == width && shaded_height == height && again_width == width && again_height == height &&
            memcmp (plain, again, (gsize)width * height * 4) == 0)
          break;
        g_test_message ("the timeline's pixels changed between two renders of one state: again");
      }

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
}

/* The chosen instance's mark outlines its box on its row: the frame's
 * pixels change, nothing outside it, and nothing inside it (what the box
 * holds stays readable). A timeline of its own: the window would zoom to
 * it */
static void
test_mark (void)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = g_build_filename (root, "casita-4_mpi_ls_barr", NULL);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (archive, &tmpdir);
  g_autoptr(SextantSession) session = sextant_test_load_session (sextant_store_get_path (store));
  g_autoptr(GArray) locs = NULL;
  GtkWidget *window = gtk_window_new ();
  SextantTimeline *timeline = SEXTANT_TIMELINE (sextant_timeline_new ());
  g_autoptr(SextantInstance) instance = NULL;
  SextantPatternInstance *record;
  g_autofree guint8 *before = NULL;
  g_autofree guint8 *after = NULL;
  graphene_rect_t row;
  gint64 t0, t1;
  int width, height, x0, x1;
  guint changed = 0;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (timeline));
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 200);
  gtk_window_present (GTK_WINDOW (window));
  sextant_test_focus_window (GTK_WINDOW (window));
  sextant_timeline_set_session (timeline, session);
  sextant_test_wait_for (timeline, "ready", 60);
  locs = sextant_test_timeline_rows (timeline);
  g_assert_cmpuint (locs->len, >, 1);
  g_object_set (timeline, "show-messages", FALSE, "show-lost", FALSE, NULL);
  before = sextant_test_render (GTK_WIDGET (timeline), &width, &height);

  /* an instance on row 1 over the second tenth of the run */
  t0 = sextant_session_get_view_begin (session);
  t1 = sextant_session_get_view_end (session);
  record = g_new0 (SextantPatternInstance, 1);
  record->pattern = g_strdup ("late_sender");
  record->loc = g_array_index (locs, gint64, 1);
  record->peer_loc = SEXTANT_NULL;
  record->begin = t0 + (t1 - t0) / 10;
  record->end = t0 + (t1 - t0) / 5;
  record->severity = record->end - record->begin;
  record->location = g_strdup ("row 1");
  record->comment = g_strdup ("planted by the test");
  instance = sextant_instance_new (record, sextant_session_get_resolution (session));
  sextant_session_set_instance (session, instance);
  after = sextant_test_render (GTK_WIDGET (timeline), &width, &height);
  g_assert_true (sextant_timeline_get_row_area (timeline, 1, &row));

  x0 = (int)sextant_timeline_x_for_time (timeline, record->begin);
  x1 = (int)sextant_timeline_x_for_time (timeline, record->end);
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
            if (differs)
              g_error ("the mark covered (%d, %d), inside its box", x, y);
          }
        else if (differs)
          changed++;
      }
  /* the frame and its halo: 2 + 2 pixels around the box */
  g_assert_cmpuint (changed, >, 4 * (x1 - x0));

  /* no instance, no mark */
  sextant_session_set_instance (session, NULL);
  g_clear_pointer (&after, g_free);
  after = sextant_test_render (GTK_WIDGET (timeline), &width, &height);
  g_assert_cmpmem (before, (gsize)width * height * 4, after, (gsize)width * height * 4);

  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

/* The instance table --------------------------------------------------------------- */

static GtkColumnViewColumn *
column_titled (GtkColumnView *view,
               const char    *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_str_equal (gtk_column_view_column_get_title (column), title))
        return column;
    }
  g_error ("no column %s", title);
}

static void
test_sort (Fixture       *fixture,
           gconstpointer  data)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (fixture->window);
  GtkColumnView *view = sextant_pattern_browser_get_instance_view (browser);
  GListModel *instances = sextant_pattern_browser_get_instances (browser);
  guint n;

  open_and_wait (fixture, fixture->archive);
  n = g_list_model_get_n_items (instances);
  g_assert_cmpuint (n, >, 1);

  /* what a click on each header does */
  gtk_column_view_sort_by_column (view, column_titled (view, "Location"), GTK_SORT_ASCENDING);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (sextant_instance_get_record (sextant_test_instance_at (browser, i - 1))->loc, <=,
                     sextant_instance_get_record (sextant_test_instance_at (browser, i))->loc);
  gtk_column_view_sort_by_column (view, column_titled (view, "Lost"), GTK_SORT_ASCENDING);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (sextant_instance_get_severity (sextant_test_instance_at (browser, i - 1)), <=,
                     sextant_instance_get_severity (sextant_test_instance_at (browser, i)));
  gtk_column_view_sort_by_column (view, column_titled (view, "Diagnosis"), GTK_SORT_DESCENDING);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (g_utf8_collate (sextant_instance_get_diagnosis (sextant_test_instance_at (browser, i - 1)),
                                     sextant_instance_get_diagnosis (sextant_test_instance_at (browser, i))), >=, 0);
  /* the chosen row is the chosen instance whatever the order */
  sextant_pattern_browser_activate (browser, n - 1);
  g_assert_true (sextant_session_get_instance (sextant_window_get_session (fixture->window)) ==
                 sextant_test_instance_at (browser, n - 1));
}

/* Every cell but the diagnosis's shows its whole text; the diagnosis is
 * ellipsized at the end, with the whole text as its tooltip */
static void
test_columns (Fixture       *fixture,
              gconstpointer  data)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (fixture->window);
  GtkColumnView *view = sextant_pattern_browser_get_instance_view (browser);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  guint whole = 0, diagnoses = 0;

  open_and_wait (fixture, fixture->archive);
  sextant_test_run_frames (GTK_WIDGET (view), 5);
  sextant_test_collect_labels (GTK_WIDGET (view), labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);
      int natural = 0;

      if (!gtk_widget_get_mapped (label) || gtk_label_get_text (GTK_LABEL (label))[0] == '\0')
        continue;
      if (gtk_label_get_ellipsize (GTK_LABEL (label)) != PANGO_ELLIPSIZE_NONE)
        {
          g_assert_cmpstr (gtk_widget_get_tooltip_text (label), ==, gtk_label_get_text (GTK_LABEL (label)));
          diagnoses++;
          continue;
        }
      gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      if (gtk_widget_get_width (label) < natural)
        g_error ("the cell \"%s\" is %d px wide, its text %d px", gtk_label_get_text (GTK_LABEL (label)),
                 gtk_widget_get_width (label), natural);
      whole++;
    }
  g_test_message ("%u cells whole, %u diagnoses", whole, diagnoses);
  g_assert_cmpuint (whole, >, 6);
  g_assert_cmpuint (diagnoses, >, 0);
}

/* Keys, as X events ----------------------------------------------------------------- */

/* The key goes to the X server, which sends it to the focused window */
static void
press (Fixture    *fixture,
       const char *key)
{
  sextant_test_xdotool ("key", "--clearmodifiers", key, NULL);
  /* a round trip: the events came */
  sextant_test_run_frames (GTK_WIDGET (fixture->window), 3);
}

static gint64
view_width (SextantSession *session)
{
  return sextant_session_get_view_end (session) - sextant_session_get_view_begin (session);
}

static void
test_keys (Fixture       *fixture,
           gconstpointer  data)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (fixture->window);
  SextantSession *session;
  GtkWidget *focus_on[4];
  gint64 whole;

  if (g_find_program_in_path ("xdotool") == NULL)
    {
      g_test_skip ("no xdotool");
      return;
    }

  open_and_wait (fixture, fixture->archive);
  session = sextant_window_get_session (fixture->window);
  sextant_test_focus_window (GTK_WINDOW (fixture->window));
  whole = view_width (session);

  /* with the focus in the pattern list, the instance table, the source
   * view and the timeline: none of them use these keys, so they reach the
   * window; the arrows pan when the timeline has the focus */
  focus_on[0] = GTK_WIDGET (browser);
  focus_on[1] = GTK_WIDGET (sextant_pattern_browser_get_instance_view (browser));
  focus_on[2] = GTK_WIDGET (sextant_window_get_source_view (fixture->window));
  focus_on[3] = GTK_WIDGET (sextant_window_get_timeline (fixture->window));
  for (guint i = 0; i < G_N_ELEMENTS (focus_on); i++)
    {
      g_assert_true (gtk_widget_grab_focus (focus_on[i]) || gtk_widget_child_focus (focus_on[i], GTK_DIR_TAB_FORWARD));
      sextant_test_run_frames (GTK_WIDGET (fixture->window), 2);
      g_test_message ("focus on %s", G_OBJECT_TYPE_NAME (gtk_window_get_focus (GTK_WINDOW (fixture->window))));

      sextant_session_zoom_fit (session);
      press (fixture, "plus");
      g_assert_cmpint (llabs (view_width (session) - whole / 2), <=, 2);
      press (fixture, "plus");
      g_assert_cmpint (llabs (view_width (session) - whole / 4), <=, 2);
      press (fixture, "minus");
      g_assert_cmpint (llabs (view_width (session) - whole / 2), <=, 2);
      if (focus_on[i] == GTK_WIDGET (sextant_window_get_timeline (fixture->window)))
        {
          gint64 before = sextant_session_get_view_begin (session);

          press (fixture, "Right");
          g_assert_cmpint (sextant_session_get_view_begin (session), >, before);
          press (fixture, "Left");
          g_assert_cmpint (sextant_session_get_view_begin (session), ==, before);
        }
      press (fixture, "0");
      g_assert_cmpint (view_width (session), ==, whole);
    }

  /* the keyboard alone: Down in the pattern list goes down the tree's rows
   * (from the row that has the focus) to another pattern, past the groups'
   * rows, which choose none; Tab goes to its
   * instances, Down chooses the first */
  gtk_widget_grab_focus (GTK_WIDGET (browser));
  sextant_test_run_frames (GTK_WIDGET (fixture->window), 2);
  if (sextant_pattern_browser_get_n_patterns (browser) > 1)
    {
      g_autofree char *first = g_strdup (sextant_pattern_browser_get_chosen (browser));
      g_autofree char *second = NULL;

      sextant_session_set_instance (session, NULL);
      for (guint tries = 0; tries < 20 && second == NULL; tries++)
        {
          press (fixture, "Down");
          sextant_test_wait_for (browser, "ready", 60);
          if (sextant_pattern_browser_get_chosen (browser) != NULL &&
              g_strcmp0 (sextant_pattern_browser_get_chosen (browser), first) != 0)
            second = g_strdup (sextant_pattern_browser_get_chosen (browser));
        }
      g_assert_nonnull (second);
      g_assert_cmpstr (second, !=, first);
      press (fixture, "Tab");
      g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (fixture->window)),
                                             GTK_WIDGET (sextant_pattern_browser_get_instance_view (browser))));
      press (fixture, "Down");
      g_assert_nonnull (sextant_session_get_instance (session));
      g_assert_cmpstr (sextant_instance_get_record (sextant_session_get_instance (session))->pattern, ==, second);
    }

  /* F6: the next part of the window, Shift+F6 back */
  gtk_widget_grab_focus (GTK_WIDGET (browser));
  press (fixture, "F6");
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (fixture->window)) ==
                 GTK_WIDGET (sextant_window_get_timeline (fixture->window)));
  press (fixture, "F6");
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (fixture->window)),
                                         GTK_WIDGET (sextant_window_get_source_view (fixture->window))));
  press (fixture, "shift+F6");
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (fixture->window)) ==
                 GTK_WIDGET (sextant_window_get_timeline (fixture->window)));
  press (fixture, "F6");
  press (fixture, "F6");
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (fixture->window)), GTK_WIDGET (browser)));

  /* M and W toggle the lines and the shading */
  gtk_widget_grab_focus (GTK_WIDGET (browser));
  for (guint round = 0; round < 2; round++)
    {
      gboolean messages, lost, now_messages, now_lost;

      g_object_get (sextant_window_get_timeline (fixture->window), "show-messages", &messages, "show-lost", &lost,
                    NULL);
      press (fixture, "m");
      press (fixture, "w");
      g_object_get (sextant_window_get_timeline (fixture->window), "show-messages", &now_messages, "show-lost",
                    &now_lost, NULL);
      g_assert_cmpint (now_messages, ==, !messages);
      g_assert_cmpint (now_lost, ==, !lost);
    }
}

/* The pages under the timeline --------------------------------------------------------- */

static gboolean
collective_chosen (gpointer data)
{
  return sextant_session_get_collective (data) != NULL;
}

/* A click on the barrier's line in the timeline chooses it and shows its
 * tree on the Tree page; Alt+1, 2, 3 show the pages; the chosen instance's
 * tree is its delay chain */
static void
test_pages (Fixture       *fixture,
            gconstpointer  data)
{
  SextantTimeline *timeline = sextant_window_get_timeline (fixture->window);
  SextantTreeView *tree_view = sextant_window_get_tree_view (fixture->window);
  SextantSession *session;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantLodReader) reader = NULL;
  g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  gboolean too_many = FALSE;
  gint64 last = G_MININT64;
  graphene_rect_t row;

  if (g_find_program_in_path ("xdotool") == NULL)
    {
      g_test_skip ("no xdotool");
      return;
    }
  open_and_wait (fixture, fixture->archive);
  session = sextant_window_get_session (fixture->window);
  sextant_test_focus_window (GTK_WINDOW (fixture->window));
  g_assert_cmpstr (sextant_window_get_page (fixture->window), ==, "source");

  /* the keys */
  press (fixture, "alt+2");
  g_assert_cmpstr (sextant_window_get_page (fixture->window), ==, "tree");
  press (fixture, "alt+3");
  g_assert_cmpstr (sextant_window_get_page (fixture->window), ==, "matrix");
  press (fixture, "alt+1");
  g_assert_cmpstr (sextant_window_get_page (fixture->window), ==, "source");

  /* the barrier's line: where its last member arrived, across the rows */
  store = open_shown_store (fixture);
  reader = sextant_lod_reader_new (store, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_lod_reader_read_collectives (reader, sextant_session_get_view_begin (session),
                                                      sextant_session_get_view_end (session), 1000, members,
                                                      &too_many, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (members->len, >, 1);
  for (guint i = 0; i < members->len; i++)
    if (g_array_index (members, SextantViewMember, i).collective == g_array_index (members, SextantViewMember, 0).collective)
      last = MAX (last, g_array_index (members, SextantViewMember, i).begin);
  id = sextant_collective_id_to_string (g_array_index (members, SextantViewMember, 0).collective);
  g_assert_true (sextant_timeline_get_row_area (timeline, 0, &row));
  sextant_test_click (GTK_WIDGET (timeline), sextant_timeline_x_for_time (timeline, last),
                      row.origin.y + row.size.height / 2);
  sextant_test_wait_until (collective_chosen, session, 30);
  g_assert_cmpstr (sextant_session_get_collective (session), ==, id);
  g_assert_cmpstr (sextant_window_get_page (fixture->window), ==, "tree");
  sextant_test_wait_for (fixture->window, "ready", 60);
  g_assert_cmpstr (sextant_tree_view_get_error (tree_view), ==, NULL);
  g_assert_cmpstr (sextant_comm_tree_get_id (sextant_tree_view_get_tree (tree_view)), ==, id);
  g_assert_cmpuint (sextant_comm_tree_get_n_nodes (sextant_tree_view_get_tree (tree_view)), ==, 4);

  /* the worst instance chosen: the collective is no longer, the tree is
   * the chain of waits behind the instance */
  sextant_pattern_browser_activate (sextant_window_get_pattern_browser (fixture->window), 0);
  g_assert_null (sextant_session_get_collective (session));
  g_assert_cmpstr (sextant_window_get_page (fixture->window), ==, "tree");
  sextant_test_wait_for (fixture->window, "ready", 60);
  g_assert_cmpstr (sextant_tree_view_get_error (tree_view), ==, NULL);
  g_assert_cmpint (sextant_comm_tree_get_kind (sextant_tree_view_get_tree (tree_view)), ==, SEXTANT_TREE_DELAY_CHAIN);
}

/* Errors, the start page, recent traces, drops --------------------------------------- */

static void
test_error_keeps_trace (Fixture       *fixture,
                        gconstpointer  data)
{
  SextantSession *session;
  g_autofree char *garbage = g_build_filename (fixture->tmpdir, "garbage.otf2", NULL);
  g_autofree char *store = g_build_filename (fixture->tmpdir, "garbage.sextant.db", NULL);
  g_autofree char *missing = g_build_filename (fixture->tmpdir, "missing", "traces.otf2", NULL);
  const char *bad[] = { garbage, store, missing };

  open_and_wait (fixture, fixture->archive);
  session = sextant_window_get_session (fixture->window);
  g_assert_true (g_file_set_contents (garbage, "\x13\x37 this is not an anchor file\n", -1, NULL));
  g_assert_true (g_file_set_contents (store, "and this is not a database, far from it", -1, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *base = g_path_get_basename (bad[i]);

      sextant_window_open (fixture->window, bad[i]);
      while (sextant_window_get_error (fixture->window) == NULL)
        g_main_context_iteration (NULL, TRUE);
      g_test_message ("%s: %s", base, sextant_window_get_error (fixture->window));
      /* it names the file, and the trace shown stays */
      g_assert_nonnull (strstr (sextant_window_get_error (fixture->window), base));
      g_assert_true (sextant_window_get_session (fixture->window) == session);
      g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "casita");
      sextant_test_wait_for (fixture->window, "ready", 60);
      gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.dismiss-error", NULL);
      g_assert_null (sextant_window_get_error (fixture->window));
    }
  /* no archive was written to, no store left behind */
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

static void
test_start_and_recent (Fixture       *fixture,
                       gconstpointer  data)
{
  GtkRecentManager *recent = gtk_recent_manager_get_default ();
  g_autofree char *garbage = g_build_filename (fixture->tmpdir, "other.otf2", NULL);
  SextantWindow *empty;
  GList *items;
  guint ours = 0;

  /* an empty window is the start page */
  g_assert_true (sextant_window_is_empty (fixture->window));
  g_assert_null (sextant_window_get_session (fixture->window));

  open_and_wait (fixture, fixture->archive);
  g_assert_true (g_file_set_contents (garbage, "garbage", -1, NULL));
  sextant_window_open (fixture->window, garbage);
  while (sextant_window_get_error (fixture->window) == NULL)
    g_main_context_iteration (NULL, TRUE);

  /* the trace that opened is recent, by its directory's name; the failed one is not */
  items = gtk_recent_manager_get_items (recent);
  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      g_autofree char *path = g_filename_from_uri (gtk_recent_info_get_uri (info), NULL, NULL);

      if (!gtk_recent_info_has_application (info, "sextant"))
        continue;
      g_assert_cmpstr (path, !=, garbage);
      if (g_strcmp0 (path, fixture->archive) == 0)
        {
          g_assert_cmpstr (gtk_recent_info_get_display_name (info), ==, "casita");
          ours++;
        }
    }
  g_list_free_full (items, (GDestroyNotify)gtk_recent_info_unref);
  g_assert_cmpuint (ours, ==, 1);

  /* a new window offers it on its start page; choosing it opens it */
  empty = sextant_window_new (NULL);
  gtk_window_present (GTK_WINDOW (empty));
  g_assert_true (sextant_window_is_empty (empty));
  gtk_widget_activate_action (GTK_WIDGET (empty), "win.open-recent", "s", fixture->archive);
  sextant_test_wait_for (empty, "ready", 120);
  g_assert_cmpstr (sextant_session_get_title (sextant_window_get_session (empty)), ==, "casita");
  gtk_window_destroy (GTK_WINDOW (empty));
}

static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }

  return NULL;
}

/* A drop of the archive's directory, as a file manager sends it */
static void
test_drop (Fixture       *fixture,
           gconstpointer  data)
{
  GtkDropTarget *target = find_drop_target (GTK_WIDGET (fixture->window));
  g_autoptr(GFile) file = g_file_new_for_path (fixture->archive);
  GSList *files = g_slist_prepend (NULL, file);
  g_auto(GValue) value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  g_assert_nonnull (target);
  g_assert_true (g_type_is_a (gtk_drop_target_get_gtypes (target, NULL)[0], GDK_TYPE_FILE_LIST));
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_slist_free (files);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
  sextant_test_wait_for (fixture->window, "ready", 120);
  g_assert_cmpstr (sextant_session_get_path (sextant_window_get_session (fixture->window)), ==, fixture->archive);
}

/* Partial analysis, re-analysis --------------------------------------------------- */

static void
test_partial_analysis (Fixture       *fixture,
                       gconstpointer  data)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (fixture->window);
  g_autofree char *db = g_build_filename (fixture->tmpdir, "casita.sextant.db", NULL);
  const char *import[] = { "import", "--quiet", "-o", db, fixture->archive, NULL };
  const char *analyze[] = { "analyze", "--pattern", "late_sender", db, NULL };
  const SextantAnalysisScope *scope;
  guint partial;

  g_assert_cmpint (sextant_test_run_sextant (import, NULL), ==, 0);
  g_assert_cmpint (sextant_test_run_sextant (analyze, NULL), ==, 0);
  open_and_wait (fixture, db);

  /* the window says the analysis was partial, and does not redo it */
  scope = sextant_session_get_analysis_scope (sextant_window_get_session (fixture->window));
  g_assert_nonnull (scope->selected);
  g_assert_nonnull (sextant_pattern_browser_get_scope_text (browser));
  g_assert_nonnull (strstr (sextant_pattern_browser_get_scope_text (browser), "late_sender"));
  partial = sextant_pattern_browser_get_n_patterns (browser);
  for (guint i = 0; i < partial; i++)
    g_assert_true (g_str_has_prefix (sextant_pattern_browser_get_pattern_id (browser, i), "late_sender"));

  /* Analyse All (F5): every pattern, the scope is whole */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.analyse", NULL);
  g_assert_true (sextant_session_get_analysing (sextant_window_get_session (fixture->window)));
  sextant_test_wait_for (fixture->window, "ready", 120);
  scope = sextant_session_get_analysis_scope (sextant_window_get_session (fixture->window));
  g_assert_null (scope->selected);
  g_assert_null (sextant_pattern_browser_get_scope_text (browser));
  g_assert_cmpuint (sextant_pattern_browser_get_n_patterns (browser), >, partial);
}

/* Preferences ---------------------------------------------------------------------- */

typedef gboolean (*Match) (GtkWidget     *widget,
                           gconstpointer  data);

/* The first widget under @widget (itself included) that @match takes */
static GtkWidget *
find_widget (GtkWidget     *widget,
             Match          match,
             gconstpointer  data)
{
  if (match (widget, data))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
is_combo_row (GtkWidget     *widget,
              gconstpointer  data)
{
  return ADW_IS_COMBO_ROW (widget);
}

/* the spin button of a pattern parameter ("eps", "late_receiver.eager_limit") */
static gboolean
is_spin_of (GtkWidget     *widget,
            gconstpointer  key)
{
  return GTK_IS_SPIN_BUTTON (widget) && g_strcmp0 (g_object_get_data (G_OBJECT (widget), "key"), key) == 0;
}

/* What the Preferences set is what the window uses: the source folders in
 * the source view, the pattern parameters in the next analysis */
static void
test_preferences (Fixture       *fixture,
                  gconstpointer  data)
{
  GSettings *settings = sextant_settings_get_default ();
  SextantPreferencesWindow *prefs;
  SextantSourceView *source = sextant_window_get_source_view (fixture->window);
  GtkWidget *eps;
  g_auto(GStrv) roots = NULL;
  g_autofree char *style = NULL;

  g_settings_reset (settings, "source-roots");
  g_settings_reset (settings, "pattern-parameters");
  open_and_wait (fixture, fixture->archive);
  prefs = sextant_preferences_window_new (GTK_WINDOW (fixture->window));
  gtk_window_present (GTK_WINDOW (prefs));

  /* a source folder, once */
  sextant_preferences_window_add_source_root (prefs, fixture->tmpdir);
  sextant_preferences_window_add_source_root (prefs, fixture->tmpdir);
  roots = g_settings_get_strv (settings, "source-roots");
  g_assert_cmpuint (g_strv_length (roots), ==, 1);
  g_assert_cmpstr (roots[0], ==, fixture->tmpdir);
  g_assert_true (g_strv_contains (sextant_source_view_get_source_roots (source), fixture->tmpdir));

  /* eps, shown in µs, set for every pattern; back to its default, unset */
  eps = find_widget (GTK_WIDGET (prefs), is_spin_of, "eps");
  g_assert_nonnull (eps);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (eps), 2.5);
  {
    g_auto(GStrv) parameters = sextant_settings_dup_parameters (settings);

    g_assert_cmpuint (g_strv_length (parameters), ==, 1);
    g_assert_cmpstr (parameters[0], ==, "eps=2.5e-06");
  }

  /* the next analysis runs with it, and the store says so */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.analyse", NULL);
  sextant_test_wait_for (fixture->window, "ready", 120);
  g_assert_nonnull (strstr (sextant_session_get_analysis_scope (sextant_window_get_session (fixture->window))->parameters,
                            "eps=2.5e-06"));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (eps), 0);
  {
    g_autoptr(GVariant) overrides = g_settings_get_value (settings, "pattern-parameters");

    g_assert_cmpuint (g_variant_n_children (overrides), ==, 0);
  }

  /* the style */
  g_object_set (find_widget (GTK_WIDGET (prefs), is_combo_row, NULL), "selected", 2, NULL);
  style = g_settings_get_string (settings, "color-scheme");
  g_assert_cmpstr (style, ==, "dark");
  g_settings_reset (settings, "color-scheme");
  g_settings_reset (settings, "source-roots");
  gtk_window_destroy (GTK_WINDOW (prefs));
}

/* Exports ------------------------------------------------------------------------- */

static void
check_svg (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;
  static const GMarkupParser parser = { 0 };
  gsize length;

  g_assert_true (g_file_get_contents (path, &text, &length, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "<svg"));
  context = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  g_assert_true (g_markup_parse_context_parse (context, text, (gssize)length, &error) &&
                 g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
}

static void
check_pdf (const char *path)
{
  g_autofree char *text = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "pdfinfo", path, NULL };
  int status = -1;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_true (g_str_has_prefix (text, "%PDF-"));
  if (g_find_program_in_path ("pdfinfo") == NULL)
    return;
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status,
                               &error));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "Pages:"));
  g_assert_cmpint (g_ascii_strtoll (strstr (out, "Pages:") + strlen ("Pages:"), NULL, 10), ==, 1);
}

static void
report_written_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  char **path = user_data;
  g_autoptr(GError) error = NULL;

  *path = g_strdup (sextant_window_export_report_finish (SEXTANT_WINDOW (object), result, &error));
  g_assert_no_error (error);
}

static void
test_exports (Fixture       *fixture,
              gconstpointer  data)
{
  GtkWidget *timeline = GTK_WIDGET (sextant_window_get_timeline (fixture->window));
  g_autofree char *png = g_build_filename (fixture->tmpdir, "view.png", NULL);
  g_autofree char *svg = g_build_filename (fixture->tmpdir, "view.svg", NULL);
  g_autofree char *pdf = g_build_filename (fixture->tmpdir, "view.PDF", NULL);
  g_autofree char *bad = g_build_filename (fixture->tmpdir, "view.bmp", NULL);
  g_autofree char *report = g_build_filename (fixture->tmpdir, "report", NULL);
  g_autofree char *written = NULL;
  g_autofree char *html = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;

  open_and_wait (fixture, fixture->archive);
  g_assert_true (sextant_window_export_view (fixture->window, png, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, gtk_widget_get_width (timeline));
  /* as high as its rows, not the empty space under them */
  {
    graphene_rect_t last;
    guint rows = sextant_timeline_rows_get_n_rows (sextant_timeline_get_rows (SEXTANT_TIMELINE (timeline)));

    g_assert_true (sextant_timeline_get_row_area (SEXTANT_TIMELINE (timeline), rows - 1, &last));
    g_assert_cmpint (gdk_texture_get_height (texture), <=, gtk_widget_get_height (timeline));
    g_assert_cmpint (gdk_texture_get_height (texture), >=, (int)(last.origin.y + last.size.height));
    g_assert_cmpint (gdk_texture_get_height (texture), <=, (int)(last.origin.y + last.size.height) + 8);
  }
  g_assert_true (sextant_window_export_view (fixture->window, svg, &error));
  check_svg (svg);
  g_assert_true (sextant_window_export_view (fixture->window, pdf, &error));
  check_pdf (pdf);
  g_assert_false (sextant_window_export_view (fixture->window, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);

  /* the report: no extension, so HTML */
  sextant_window_export_report_async (fixture->window, report, NULL, report_written_cb, &written);
  while (written == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_str_has_suffix (written, "report.html"));
  g_assert_true (g_file_get_contents (written, &html, NULL, NULL));
  g_assert_nonnull (strstr (html, "<html"));
  g_assert_nonnull (strstr (html, sextant_pattern_browser_get_pattern_id (sextant_window_get_pattern_browser (fixture->window), 0)));
}

/* Cancelling an import: nothing is left of it, the trace shown stays ----------------- */

static void
test_cancel_import (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *gen = g_getenv ("SEXTANT_BENCH_GEN");
  g_autofree char *big = g_build_filename (fixture->tmpdir, "big", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  SextantSession *session;
  const char *name;
  int status = -1;

  if (gen == NULL)
    {
      g_test_skip ("SEXTANT_BENCH_GEN is not set");
      return;
    }
  {
    const char *argv[] = { gen, "--ranks", "16", "--events", "3000000", "--seed", "2", "--force", big, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                                 &status, &error));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }

  open_and_wait (fixture, fixture->archive);
  session = sextant_window_get_session (fixture->window);
  sextant_window_open (fixture->window, big);
  g_assert_false (sextant_window_get_ready (fixture->window));
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.cancel", NULL);
  sextant_test_wait_for (fixture->window, "ready", 60);
  g_assert_true (sextant_window_get_session (fixture->window) == session);
  g_assert_null (sextant_window_get_error (fixture->window));
  /* no store, no temporary file beside the archive */
  dir = g_dir_open (fixture->tmpdir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (strstr (name, "big") != NULL && !g_str_equal (name, "big"))
      g_error ("the cancelled import left %s", name);
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static const char *
row_id (GtkTreeListModel *rows,
        guint             position,
        guint            *depth)
{
  g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (rows, position);
  g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

  if (depth != NULL)
    *depth = gtk_tree_list_row_get_depth (row);
  return gtk_string_object_get_string (GTK_STRING_OBJECT (item));
}

static guint
row_of (GtkTreeListModel *rows,
        const char       *id)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
    if (g_str_equal (row_id (rows, i, NULL), id))
      return i;

  return GTK_INVALID_LIST_POSITION;
}

/* The pattern list is the metric tree (sstmacro-otf2_test_traces: its Late
 * Senders include wrong-order ones): Time first, the groups and patterns
 * with instances below it, Late Sender, Wrong order under Late Sender,
 * Diagnostics apart; a collapsed branch opens again when one of its
 * patterns is chosen; a group's row shows what it holds, no instances. */
static void
test_pattern_tree (Fixture       *fixture,
                   gconstpointer  data)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (fixture->window);
  GtkTreeListModel *rows;
  GtkSingleSelection *selection;
  g_autoptr(GtkTreeListRow) sender = NULL;
  guint n_rows;
  guint at;
  guint depth;
  guint child_depth;
  int wrong_order = -1;

  open_and_wait (fixture, fixture->archive);
  sextant_test_wait_for (browser, "ready", 60);
  rows = sextant_pattern_browser_get_rows (browser);
  g_assert_nonnull (rows);
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (rows));
  g_assert_cmpuint (n_rows, >, sextant_pattern_browser_get_n_patterns (browser));
  g_assert_cmpstr (row_id (rows, 0, &depth), ==, "time");
  g_assert_cmpuint (depth, ==, 0);
  g_assert_cmpuint (row_of (rows, "mpi"), !=, GTK_INVALID_LIST_POSITION);
  g_assert_cmpuint (row_of (rows, "diagnostics"), !=, GTK_INVALID_LIST_POSITION);
  /* every pattern with instances has its row */
  for (guint i = 0; i < sextant_pattern_browser_get_n_patterns (browser); i++)
    {
      g_assert_cmpuint (row_of (rows, sextant_pattern_browser_get_pattern_id (browser, i)), !=,
                        GTK_INVALID_LIST_POSITION);
      if (g_str_equal (sextant_pattern_browser_get_pattern_id (browser, i), "late_sender_wrong_order"))
        wrong_order = (int)i;
    }
  g_assert_cmpint (wrong_order, >=, 0);

  /* Late Sender > Late Sender, Wrong Order */
  at = row_of (rows, "late_sender");
  g_assert_cmpuint (at, !=, GTK_INVALID_LIST_POSITION);
  row_id (rows, at, &depth);
  g_assert_cmpstr (row_id (rows, at + 1, &child_depth), ==, "late_sender_wrong_order");
  g_assert_cmpuint (child_depth, ==, depth + 1);
  g_assert_cmpuint (row_of (rows, "mpi_point2point"), <, at);

  /* collapsed, then chosen: opened again */
  sender = gtk_tree_list_model_get_row (rows, at);
  gtk_tree_list_row_set_expanded (sender, FALSE);
  g_assert_cmpuint (row_of (rows, "late_sender_wrong_order"), ==, GTK_INVALID_LIST_POSITION);
  sextant_pattern_browser_select (browser, (guint)wrong_order);
  sextant_test_wait_for (browser, "ready", 60);
  g_assert_true (gtk_tree_list_row_get_expanded (sender));
  g_assert_cmpstr (sextant_pattern_browser_get_chosen (browser), ==, "late_sender_wrong_order");
  g_assert_cmpuint (g_list_model_get_n_items (sextant_pattern_browser_get_instances (browser)), >, 0);

  /* a group's row: what it holds, no instances */
  selection = GTK_SINGLE_SELECTION (gtk_list_view_get_model (GTK_LIST_VIEW (find_descendant (GTK_WIDGET (browser),
                                                                                             GTK_TYPE_LIST_VIEW))));
  gtk_single_selection_set_selected (selection, row_of (rows, "mpi_collective"));
  sextant_test_wait_for (browser, "ready", 60);
  g_assert_null (sextant_pattern_browser_get_chosen (browser));
  g_assert_cmpuint (g_list_model_get_n_items (sextant_pattern_browser_get_instances (browser)), ==, 0);
  g_assert_cmpstr (sextant_pattern_browser_get_details (browser), ==,
                   sextant_pattern_group_lookup ("mpi_collective")->description);
}


int
main (int    argc,
      char **argv)
{
  g_autofree char *data_home = g_dir_make_tmp ("sextant-test-data-XXXXXX", NULL);
  struct { const char *path; void (*test) (Fixture *, gconstpointer); } tests[] = {
    { "/window/patterns", test_patterns },
    { "/window/instances/sort", test_sort },
    { "/window/instances/columns", test_columns },
    { "/window/keys", test_keys },
    { "/window/pages", test_pages },
    { "/window/error-keeps-trace", test_error_keeps_trace },
    { "/window/start-and-recent", test_start_and_recent },
    { "/window/drop", test_drop },
    { "/window/partial-analysis", test_partial_analysis },
    { "/window/preferences", test_preferences },
    { "/window/exports", test_exports },
    { "/window/cancel-import", test_cancel_import },
  };
  int status;

  /* the recent traces and the preferences of this run only */
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: run under xvfb-run\n");
      return 1;
    }
  adw_init ();

  g_test_add_func ("/window/timeline-mark", test_mark);
  for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
    g_test_add (tests[i].path, Fixture, NULL, fixture_set_up, tests[i].test, fixture_tear_down);
  g_test_add ("/window/pattern-tree", Fixture, "sstmacro-otf2_test_traces", fixture_set_up, test_pattern_tree,
              fixture_tear_down);

  status = g_test_run ();
  sextant_test_remove_tree (data_home);

  return status;
}
