/*
 * test-window-choice.c: the window's panes agree on the chosen instance.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb, in the real window: an instance of pattern A chosen, then
 * pattern B: no pane keeps A's instance (the session's is none, the
 * details say "Choose an instance", the Tree page is empty, the Source
 * page has no line, the timeline's pixels are those of no instance
 * chosen) and the timeline keeps its view. The same pattern chosen again,
 * and an analysis run again, keep the instance in every pane, its row
 * selected again. The arrows in the pattern list, through the groups'
 * rows, drop it too. An instance chosen elsewhere (a click on lost time)
 * chooses its pattern in the list, its row scrolled into view; an
 * analysis that no longer finds its pattern drops it. On casita-4_mpi_ls_barr's store, and
 * on a manifest of three shards (otf2gen's every-kind archive).
 */
#include "config.h"

#include <string.h>

#include "sextant-store-shards.h"
#include "sextant-test-manifest.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-window.h"

#define CHOOSE "Choose an instance to see what happened, where and why."

static SextantWindow *
new_window (void)
{
  SextantWindow *window = sextant_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 720);
  gtk_window_present (GTK_WINDOW (window));
  sextant_test_focus_window (GTK_WINDOW (window));

  return window;
}

static void
open_and_wait (SextantWindow *window,
               const char    *path)
{
  sextant_window_open (window, path);
  sextant_test_wait_for (window, "ready", 300);
  g_assert_null (sextant_window_get_error (window));
  g_assert_true (sextant_session_get_analysis_scope (sextant_window_get_session (window))->analysed);
}

/* A new window on a copy of the external trace @name (the import writes
 * beside it) in a folder of its own, @tmpdir; shown and analysed */
static SextantWindow *
open_copy (const char  *name,
           char       **tmpdir)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *source = g_build_filename (root, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *archive = NULL;
  SextantWindow *window;

  *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  archive = g_build_filename (*tmpdir, name, NULL);
  sextant_test_copy_tree (source, archive);
  window = new_window ();
  open_and_wait (window, archive);

  return window;
}

/* The instance table's selected row, or GTK_INVALID_LIST_POSITION */
static guint
selected_row (SextantPatternBrowser *browser)
{
  GtkSelectionModel *model = gtk_column_view_get_model (sextant_pattern_browser_get_instance_view (browser));
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (model);

  return gtk_bitset_is_empty (selected) ? GTK_INVALID_LIST_POSITION : gtk_bitset_get_minimum (selected);
}

/* The timeline as drawn now: its mark and lines, without the lost time's
 * shading (which shows every pattern's); taken again while the window
 * still settles (the pages under it take their height as they fill) */
static guint8 *
render_timeline (SextantWindow *window,
                 int           *width,
                 int           *height)
{
  SextantTimeline *timeline = sextant_window_get_timeline (window);
  guint8 *pixels = NULL;

  for (guint attempt = 0; attempt < 20; attempt++)
    {
      g_autofree guint8 *again = NULL;
      int w, h;

      sextant_test_wait_for (timeline, "ready", 60);
      g_free (pixels);
      pixels = sextant_test_render (GTK_WIDGET (timeline), width, height);
      sextant_test_run_frames (GTK_WIDGET (window), 2);
      sextant_test_wait_for (timeline, "ready", 60);
      again = sextant_test_render (GTK_WIDGET (timeline), &w, &h);
      if (w == *width && h == *height && memcmp (pixels, again, (gsize)w * h * 4) == 0)
        return pixels;
    }
  g_error ("the timeline's pixels do not settle");
}

/* Every pane shows @instance (its row selected, when @row is valid) */
static void
assert_shown (SextantWindow   *window,
              SextantInstance *instance,
              guint            row)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (window);
  SextantTreeView *tree_view = sextant_window_get_tree_view (window);
  const SextantPatternInstance *record = sextant_instance_get_record (instance);
  SextantInstance *chosen = sextant_session_get_instance (sextant_window_get_session (window));

  g_assert_nonnull (chosen);
  g_assert_cmpint (sextant_instance_get_record (chosen)->id, ==, record->id);
  g_assert_cmpstr (sextant_pattern_browser_get_chosen (browser), ==, record->pattern);
  g_assert_cmpuint (selected_row (browser), ==, row);
  g_assert_nonnull (strstr (sextant_pattern_browser_get_details (browser), record->comment));
  /* its tree, or why it has none */
  g_assert_true (sextant_tree_view_get_tree (tree_view) != NULL || sextant_tree_view_get_notice (tree_view) != NULL);
}

/* No pane shows an instance */
static void
assert_none (SextantWindow *window)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (window);
  SextantTreeView *tree_view = sextant_window_get_tree_view (window);

  g_assert_null (sextant_session_get_instance (sextant_window_get_session (window)));
  g_assert_cmpuint (selected_row (browser), ==, GTK_INVALID_LIST_POSITION);
  if (sextant_pattern_browser_get_chosen (browser) != NULL)
    g_assert_cmpstr (sextant_pattern_browser_get_details (browser), ==, CHOOSE);
  g_assert_null (sextant_tree_view_get_tree (tree_view));
  g_assert_null (sextant_tree_view_get_notice (tree_view));
  g_assert_cmpint (sextant_source_view_get_line (sextant_window_get_source_view (window)), <=, 0);
}

/* The first GtkListView under @widget, or NULL */
static GtkWidget *
find_list_view (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_list_view (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The pattern list's selected row is in its view */
static void
assert_pattern_row_in_view (SextantPatternBrowser *browser)
{
  GtkWidget *list = find_list_view (GTK_WIDGET (browser));
  graphene_rect_t bounds;
  guint selected = 0;

  g_assert_nonnull (list);
  sextant_test_run_frames (list, 3);
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      if (!(gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED) || !gtk_widget_get_mapped (row))
        continue;
      g_assert_true (gtk_widget_compute_bounds (row, list, &bounds));
      g_test_message ("the pattern's row: y %.0f..%.0f of %d", bounds.origin.y, bounds.origin.y + bounds.size.height,
                      gtk_widget_get_height (list));
      g_assert_cmpfloat (bounds.origin.y, >=, 0);
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (list));
      selected++;
    }
  g_assert_cmpuint (selected, ==, 1);
}

/* The worst instance of the @index-th pattern chosen as a click on its
 * lost time does: its pattern is chosen in the list, in view, and its row
 * selected in the table */
static void
choose_elsewhere (SextantWindow *window,
                  guint          index)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (window);
  SextantSession *session = sextant_window_get_session (window);
  const char *pattern = sextant_pattern_browser_get_pattern_id (browser, index);
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = sextant_session_open_store (session, &error);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(SextantInstance) instance = NULL;
  guint row = GTK_INVALID_LIST_POSITION;

  g_assert_no_error (error);
  records = sextant_store_list_pattern_instances (store, pattern, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (records->len, ==, 1);
  g_ptr_array_set_free_func (records, NULL);
  instance = sextant_instance_new (g_ptr_array_index (records, 0), sextant_session_get_resolution (session));
  sextant_session_choose_instance (session, instance);
  g_assert_cmpstr (sextant_pattern_browser_get_chosen (browser), ==, pattern);
  sextant_test_wait_for (window, "ready", 120);
  for (guint i = 0; i < g_list_model_get_n_items (sextant_pattern_browser_get_instances (browser)); i++)
    if (sextant_instance_get_record (sextant_test_instance_at (browser, i))->id ==
        sextant_instance_get_record (instance)->id)
      row = i;
  g_assert_cmpuint (row, !=, GTK_INVALID_LIST_POSITION);
  assert_shown (window, instance, row);
  assert_pattern_row_in_view (browser);
}

/* Pattern A's worst instance chosen, then pattern B: every pane drops it,
 * the timeline keeps its view and draws as with no instance. Then A
 * again, and one of its instances: chosen again, the same pattern
 * chosen again keeps it, and so does an analysis run again */
static void
check_choices (SextantWindow *window)
{
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (window);
  SextantTimeline *timeline = sextant_window_get_timeline (window);
  SextantSession *session = sextant_window_get_session (window);
  SextantInstance *a;
  g_autofree guint8 *marked = NULL;
  g_autofree guint8 *other = NULL;
  g_autofree guint8 *none = NULL;
  g_autofree char *first = NULL;
  g_autofree char *tree_title = NULL;
  gint64 begin, end;
  int width, height, w, h, marked_width, marked_height;
  guint row, ia, ib;

  g_assert_cmpuint (sextant_pattern_browser_get_n_patterns (browser), >, 1);
  g_object_set (timeline, "show-lost", FALSE, NULL);
  sextant_window_show_page (window, "tree");

  /* A: the first pattern whose worst instance has a time (the timeline
   * marks it; a diagnostic's may have none); B another */
  for (ia = 0; ia < sextant_pattern_browser_get_n_patterns (browser); ia++)
    {
      sextant_pattern_browser_select (browser, ia);
      sextant_test_wait_for (window, "ready", 120);
      if (sextant_instance_get_record (sextant_test_instance_at (browser, 0))->begin != SEXTANT_NULL)
        break;
    }
  g_assert_cmpuint (ia, <, sextant_pattern_browser_get_n_patterns (browser));
  ib = ia == 0 ? 1 : 0;
  first = g_strdup (sextant_pattern_browser_get_chosen (browser));
  a = sextant_test_instance_at (browser, 0);
  sextant_pattern_browser_activate (browser, 0);
  sextant_test_wait_for (window, "ready", 120);
  assert_shown (window, a, 0);
  begin = sextant_session_get_view_begin (session);
  end = sextant_session_get_view_end (session);
  marked = render_timeline (window, &marked_width, &marked_height);

  /* B */
  sextant_pattern_browser_select (browser, ib);
  g_assert_null (sextant_session_get_instance (session));
  sextant_test_wait_for (window, "ready", 120);
  g_assert_cmpstr (sextant_pattern_browser_get_chosen (browser), ==,
                   sextant_pattern_browser_get_pattern_id (browser, ib));
  g_assert_cmpstr (sextant_pattern_browser_get_chosen (browser), !=, first);
  assert_none (window);
  g_assert_cmpint (sextant_session_get_view_begin (session), ==, begin);
  g_assert_cmpint (sextant_session_get_view_end (session), ==, end);
  other = render_timeline (window, &width, &height);
  /* the mark went: the pixels are those of no instance chosen */
  sextant_session_set_instance (session, NULL);
  none = render_timeline (window, &w, &h);
  g_assert_cmpmem (other, (gsize)width * height * 4, none, (gsize)w * h * 4);
  /* (and differ from A's, whose mark was in view) */
  g_assert_cmpint (marked_width, ==, width);
  g_assert_true (memcmp (marked, other, (gsize)width * 4 * MIN (marked_height, height)) != 0);

  /* A again, and its second instance (by the table's order) chosen */
  sextant_pattern_browser_select (browser, ia);
  sextant_test_wait_for (window, "ready", 120);
  row = g_list_model_get_n_items (sextant_pattern_browser_get_instances (browser)) > 1 ? 1 : 0;
  a = sextant_test_instance_at (browser, row);
  sextant_pattern_browser_activate (browser, row);
  sextant_test_wait_for (window, "ready", 120);
  assert_shown (window, a, row);
  begin = sextant_session_get_view_begin (session);
  end = sextant_session_get_view_end (session);
  g_clear_pointer (&marked, g_free);
  marked = render_timeline (window, &marked_width, &marked_height);
  tree_title = g_strdup (sextant_tree_view_get_title (sextant_window_get_tree_view (window)));

  /* the same pattern again: the list refills, the instance stays */
  sextant_pattern_browser_select (browser, ia);
  sextant_test_wait_for (window, "ready", 120);
  g_assert_true (sextant_session_get_instance (session) == a);
  assert_shown (window, a, row);
  g_assert_cmpstr (sextant_tree_view_get_title (sextant_window_get_tree_view (window)), ==, tree_title);

  /* the analysis run again (F5): the list refills with new objects; the
   * same instance stays chosen in every pane, where it was */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.analyse", NULL);
  g_assert_true (sextant_session_get_analysing (session));
  sextant_test_wait_for (window, "ready", 300);
  g_assert_null (sextant_window_get_error (window));
  assert_shown (window, a, row);
  g_assert_cmpstr (sextant_tree_view_get_title (sextant_window_get_tree_view (window)), ==, tree_title);
  g_assert_cmpint (sextant_session_get_view_begin (session), ==, begin);
  g_assert_cmpint (sextant_session_get_view_end (session), ==, end);
  g_clear_pointer (&other, g_free);
  other = render_timeline (window, &w, &h);
  g_assert_cmpmem (marked, (gsize)marked_width * marked_height * 4, other, (gsize)w * h * 4);

  /* an instance of B chosen elsewhere (as a click on its lost time
   * does): B is chosen in the list, its row selected; then one of the
   * last pattern listed, whose row is scrolled into view */
  choose_elsewhere (window, ib);
  choose_elsewhere (window, sextant_pattern_browser_get_n_patterns (browser) - 1);
}

static void
test_store (void)
{
  g_autofree char *tmpdir = NULL;
  SextantWindow *window = open_copy ("casita-4_mpi_ls_barr", &tmpdir);

  check_choices (window);
  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

static void
test_manifest (void)
{
  g_autofree char *tmpdir = NULL;
  g_autofree char *manifest = sextant_test_every_kind_manifest (&tmpdir, 3);
  SextantWindow *window;

  window = new_window ();
  open_and_wait (window, manifest);
  g_assert_cmpuint (sextant_session_get_n_shards (sextant_window_get_session (window)), ==, 3);
  check_choices (window);
  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

/* The key goes to the X server, which sends it to the focused window */
static void
press (SextantWindow *window,
       const char    *key)
{
  sextant_test_xdotool ("key", "--clearmodifiers", key, NULL);
  sextant_test_run_frames (GTK_WIDGET (window), 3);
}

/* The arrows in the pattern list: each row the user leaves A's for (a
 * pattern's or a group's) drops A's instance from every pane; whatever
 * the row, the instance chosen is none or of the pattern chosen */
static void
test_keys (void)
{
  g_autofree char *tmpdir = NULL;
  g_autofree char *first = NULL;
  SextantWindow *window;
  SextantPatternBrowser *browser;
  SextantSession *session;
  guint groups = 0, others = 0;

  if (g_find_program_in_path ("xdotool") == NULL)
    {
      g_test_skip ("no xdotool");
      return;
    }
  window = open_copy ("casita-4_mpi_ls_barr", &tmpdir);
  browser = sextant_window_get_pattern_browser (window);
  session = sextant_window_get_session (window);
  sextant_window_show_page (window, "tree");
  first = g_strdup (sextant_pattern_browser_get_chosen (browser));
  sextant_pattern_browser_activate (browser, 0);
  sextant_test_wait_for (window, "ready", 120);
  assert_shown (window, sextant_test_instance_at (browser, 0), 0);

  /* up to the top (Time, a group), then down past every row */
  sextant_test_focus_window (GTK_WINDOW (window));
  gtk_widget_grab_focus (GTK_WIDGET (browser));
  sextant_test_run_frames (GTK_WIDGET (window), 2);
  for (guint i = 0; i < 30; i++)
    {
      SextantInstance *chosen;
      const char *pattern;

      press (window, i < 10 ? "Up" : "Down");
      sextant_test_wait_for (window, "ready", 120);
      chosen = sextant_session_get_instance (session);
      pattern = sextant_pattern_browser_get_chosen (browser);
      if (chosen != NULL)
        {
          g_assert_cmpstr (sextant_instance_get_record (chosen)->pattern, ==, pattern);
          g_assert_cmpstr (pattern, ==, first);
          continue;
        }
      assert_none (window);
      groups += pattern == NULL;
      others += pattern != NULL && g_strcmp0 (pattern, first) != 0;
    }
  g_test_message ("%u steps on a group's row, %u on another pattern's", groups, others);
  g_assert_cmpuint (groups, >, 0);
  g_assert_cmpuint (others, >, 0);
  g_assert_null (sextant_session_get_instance (session));

  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

/* An analysis run again that no longer finds the chosen instance's
 * pattern (a partial one, of Wait at Barrier alone): the instance goes
 * from every pane; the list has the patterns found, one chosen */
static void
test_pattern_gone (void)
{
  g_autofree char *tmpdir = NULL;
  SextantWindow *window = open_copy ("casita-4_mpi_ls_barr", &tmpdir);
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (window);
  SextantSession *session = sextant_window_get_session (window);
  const char *only[] = { "wait_at_barrier", NULL };

  sextant_window_show_page (window, "tree");
  g_assert_cmpstr (sextant_pattern_browser_get_chosen (browser), ==, "late_sender");
  sextant_pattern_browser_activate (browser, 0);
  sextant_test_wait_for (window, "ready", 120);
  assert_shown (window, sextant_test_instance_at (browser, 0), 0);

  sextant_test_analyse (session, only);
  sextant_test_wait_for (window, "ready", 120);
  g_assert_null (sextant_window_get_error (window));
  g_assert_cmpuint (sextant_pattern_browser_get_n_patterns (browser), ==, 1);
  g_assert_cmpstr (sextant_pattern_browser_get_chosen (browser), ==, "wait_at_barrier");
  assert_none (window);

  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

/* A trace whose worst pattern is a diagnostic, far down the list: its
 * row, chosen first, is scrolled into view */
static void
test_start (void)
{
  g_autofree char *tmpdir = NULL;
  SextantWindow *window = open_copy ("casita-2_jacobi_blame_cpu_015", &tmpdir);
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (window);

  g_test_message ("chosen first: %s", sextant_pattern_browser_get_chosen (browser));
  assert_pattern_row_in_view (browser);
  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window-choice/start", test_start);
  g_test_add_func ("/window-choice/store", test_store);
  g_test_add_func ("/window-choice/pattern-gone", test_pattern_gone);
  g_test_add_func ("/window-choice/keys", test_keys);
  g_test_add_func ("/window-choice/manifest", test_manifest);

  return g_test_run ();
}
