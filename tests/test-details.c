/*
 * test-details.c: the zoom history, the clicked item and the details pane.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session's zoom history on a real store (pipit-ping-pong-otf2): a
 * jump is a step, a gesture's changes (under a second apart, on a clock
 * the test moves) one step, Back and Forward, a new step dropping the
 * steps ahead, the hundred-step limit, the properties' notifications; the
 * clicked item (copied, notified on change only). Under Xvfb, the real
 * window on the archive tests/otf2gen writes with every record kind (it
 * records call sites): an item set in the session shows the pane with the
 * region, the call site and the call path; "Show Source" shows that line
 * in the Source page; a time where nothing ran says so; a newer item wins;
 * the close button and Escape hide it; Alt+Left and Alt+Right as real X
 * key events (xdotool) with the focus in the timeline go back and forward
 * and do not pan.
 */
#include "config.h"

#include <string.h>

#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-window.h"

/* The history's clock, moved by the tests */
static gint64 now;

static gint64
test_clock (void)
{
  return now;
}

typedef struct
{
  char           *tmpdir;
  SextantSession *session;
  guint           back_notified;
  guint           forward_notified;
} Fixture;

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 Fixture    *fixture)
{
  if (g_str_equal (pspec->name, "can-go-back"))
    fixture->back_notified++;
  else
    fixture->forward_notified++;
}

static void
session_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = g_build_filename (root, "pipit-ping-pong-otf2", "traces.otf2", NULL);
  g_autoptr(SextantStore) store = sextant_test_import (archive, &fixture->tmpdir);
  g_autofree char *db = g_build_filename (fixture->tmpdir, "t.db", NULL);

  g_clear_object (&store);
  fixture->session = sextant_test_load_session (db);
  _sextant_session_set_clock (fixture->session, test_clock);
  now = 1000 * G_USEC_PER_SEC;
  g_signal_connect (fixture->session, "notify::can-go-back", G_CALLBACK (count_notify_cb), fixture);
  g_signal_connect (fixture->session, "notify::can-go-forward", G_CALLBACK (count_notify_cb), fixture);
}

static void
session_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->session);
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

typedef struct
{
  gint64 begin;
  gint64 end;
} View;

static View
view_of (SextantSession *session)
{
  return (View) { sextant_session_get_view_begin (session), sextant_session_get_view_end (session) };
}

static void
assert_view (SextantSession *session,
             View            view)
{
  g_assert_cmpint (sextant_session_get_view_begin (session), ==, view.begin);
  g_assert_cmpint (sextant_session_get_view_end (session), ==, view.end);
}

static void
test_history (Fixture       *fixture,
              gconstpointer  data)
{
  SextantSession *session = fixture->session;
  gint64 t0 = sextant_session_get_time_begin (session);
  gint64 span = sextant_session_get_time_end (session) - t0;
  View whole = view_of (session);
  View jumped, zoomed, panned;

  g_assert_false (sextant_session_get_can_go_back (session));
  g_assert_false (sextant_session_get_can_go_forward (session));
  g_assert_false (sextant_session_go_back (session));
  /* the whole run already: no step */
  sextant_session_zoom_fit (session);
  g_assert_false (sextant_session_get_can_go_back (session));

  /* a jump: one step */
  sextant_session_show_range (session, t0 + span / 2, t0 + span / 2 + span / 50);
  jumped = view_of (session);
  g_assert_cmpint (jumped.end - jumped.begin, <, whole.end - whole.begin);
  g_assert_true (sextant_session_get_can_go_back (session));
  g_assert_cmpuint (fixture->back_notified, ==, 1);

  /* a wheel gesture: ten changes 50 ms apart, one step */
  for (int i = 0; i < 10; i++)
    {
      now += 50 * 1000;
      sextant_session_zoom (session, 1.25, 0.5);
    }
  zoomed = view_of (session);
  /* a pause of a second, then a drag: another step */
  now += G_USEC_PER_SEC;
  for (int i = 0; i < 5; i++)
    {
      now += 20 * 1000;
      sextant_session_set_view (session, zoomed.begin + (i + 1) * 1000, zoomed.end + (i + 1) * 1000);
    }
  panned = view_of (session);
  g_assert_cmpint (panned.begin, ==, zoomed.begin + 5000);

  /* back: the view before each step */
  g_assert_true (sextant_session_go_back (session));
  assert_view (session, zoomed);
  g_assert_true (sextant_session_get_can_go_forward (session));
  g_assert_cmpuint (fixture->forward_notified, ==, 1);
  g_assert_true (sextant_session_go_back (session));
  assert_view (session, jumped);
  g_assert_true (sextant_session_go_back (session));
  assert_view (session, whole);
  g_assert_false (sextant_session_get_can_go_back (session));
  g_assert_false (sextant_session_go_back (session));
  g_assert_cmpuint (fixture->back_notified, ==, 2);

  /* forward again, to the end */
  g_assert_true (sextant_session_go_forward (session));
  assert_view (session, jumped);
  g_assert_true (sextant_session_go_forward (session));
  assert_view (session, zoomed);
  g_assert_true (sextant_session_go_forward (session));
  assert_view (session, panned);
  g_assert_false (sextant_session_get_can_go_forward (session));
  g_assert_false (sextant_session_go_forward (session));

  /* back, then a gesture right away (less than a second after): a new
   * step all the same, which drops the steps ahead */
  g_assert_true (sextant_session_go_back (session));
  g_assert_true (sextant_session_go_back (session));
  assert_view (session, jumped);
  now += 10 * 1000;
  sextant_session_pan (session, 0.1);
  g_assert_false (sextant_session_get_can_go_forward (session));
  g_assert_true (sextant_session_go_back (session));
  assert_view (session, jumped);
  g_assert_true (sextant_session_go_back (session));
  assert_view (session, whole);

  /* a range zoom is a jump, even a gesture's moment later */
  sextant_session_set_view (session, t0 + span / 4, t0 + span / 2);
  now += 1000;
  sextant_session_zoom_to_range (session, t0 + span / 3, t0 + span / 3 + span / 10);
  g_assert_true (sextant_session_go_back (session));
  assert_view (session, ((View) { t0 + span / 4, t0 + span / 2 }));
}

static void
test_history_limit (Fixture       *fixture,
                    gconstpointer  data)
{
  SextantSession *session = fixture->session;
  gint64 t0 = sextant_session_get_time_begin (session);
  gint64 span = sextant_session_get_time_end (session) - t0;
  View views[151];
  guint steps = 0;

  /* 150 jumps: the first 50 steps are dropped */
  views[0] = view_of (session);
  for (int i = 1; i <= 150; i++)
    {
      sextant_session_show_range (session, t0 + span / 200 * i, t0 + span / 200 * i + span / 1000);
      views[i] = view_of (session);
    }
  while (sextant_session_go_back (session))
    {
      steps++;
      assert_view (session, views[150 - steps]);
    }
  g_assert_cmpuint (steps, ==, 100);
  assert_view (session, views[50]);
  while (sextant_session_go_forward (session))
    steps--;
  g_assert_cmpuint (steps, ==, 0);
  assert_view (session, views[150]);

  /* on the real clock: changes made at once are one gesture */
  _sextant_session_set_clock (session, NULL);
  sextant_session_zoom_fit (session);
  sextant_session_zoom (session, 2, 0.5);
  sextant_session_zoom (session, 2, 0.5);
  sextant_session_zoom (session, 2, 0.5);
  g_assert_true (sextant_session_go_back (session));
  g_assert_cmpint (sextant_session_get_view_end (session) - sextant_session_get_view_begin (session), ==,
                   sextant_session_get_time_end (session) - sextant_session_get_time_begin (session));
}

static guint item_notified;

static void
item_notify_cb (void)
{
  item_notified++;
}

static void
test_item (Fixture       *fixture,
           gconstpointer  data)
{
  SextantSession *session = fixture->session;
  SextantItem item = { SEXTANT_ITEM_MESSAGE, 0, 1234, 1 };
  const SextantItem *got;

  item_notified = 0;
  g_signal_connect (session, "notify::item", G_CALLBACK (item_notify_cb), NULL);
  g_assert_null (sextant_session_get_item (session));
  sextant_session_set_item (session, NULL);
  g_assert_cmpuint (item_notified, ==, 0);

  sextant_session_set_item (session, &item);
  g_assert_cmpuint (item_notified, ==, 1);
  got = sextant_session_get_item (session);
  g_assert_true (got != &item);
  g_assert_true (sextant_item_equal (got, &item));
  /* the same again: no notification */
  sextant_session_set_item (session, &item);
  g_assert_cmpuint (item_notified, ==, 1);
  item.time++;
  sextant_session_set_item (session, &item);
  g_assert_cmpuint (item_notified, ==, 2);
  g_assert_cmpint (sextant_session_get_item (session)->time, ==, 1235);
  sextant_session_set_item (session, NULL);
  g_assert_cmpuint (item_notified, ==, 3);
  g_assert_null (sextant_session_get_item (session));
}

/* The window ---------------------------------------------------------------------- */

typedef struct
{
  char          *tmpdir;
  SextantWindow *window;
} WindowFixture;

static void
window_set_up (WindowFixture *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *anchor = NULL;

  fixture->tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  out = g_build_filename (fixture->tmpdir, "every-kind", NULL);
  anchor = sextant_test_otf2gen ("every-kind", out);

  fixture->window = sextant_window_new (NULL);
  /* narrow: the pane must take its width from the pattern browser */
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1100, 720);
  gtk_window_present (GTK_WINDOW (fixture->window));
  sextant_test_focus_window (GTK_WINDOW (fixture->window));
  sextant_window_open (fixture->window, anchor);
  sextant_test_wait_for (fixture->window, "ready", 120);
  g_assert_null (sextant_window_get_error (fixture->window));
}

static void
window_tear_down (WindowFixture *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

/* The details pane's revealer */
static GtkRevealer *
pane_revealer (WindowFixture *fixture)
{
  GtkWidget *widget = GTK_WIDGET (sextant_window_get_details_pane (fixture->window));

  while (widget != NULL && !GTK_IS_REVEALER (widget))
    widget = gtk_widget_get_parent (widget);
  g_assert_nonnull (widget);

  return GTK_REVEALER (widget);
}

static gboolean
pane_shown (gpointer data)
{
  WindowFixture *fixture = data;
  SextantDetailsPane *pane = sextant_window_get_details_pane (fixture->window);

  return gtk_revealer_get_child_revealed (pane_revealer (fixture)) && sextant_details_pane_get_ready (pane) &&
         gtk_widget_get_mapped (GTK_WIDGET (pane));
}

static gboolean
pane_hidden (gpointer data)
{
  return !gtk_revealer_get_child_revealed (pane_revealer (data));
}

/* A widget under @root that is a button of @action */
static GtkWidget *
find_button (GtkWidget  *root,
             const char *action)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, action);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_close_button (GtkWidget *root)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (root)), "window-close-symbolic") == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_close_button (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
source_shown (gpointer data)
{
  SextantSourceView *view = data;

  return sextant_source_view_get_loaded (view) && sextant_source_view_get_line (view) == 66 &&
         g_str_has_suffix (sextant_source_view_get_path (view) != NULL ? sextant_source_view_get_path (view) : "",
                           "/src/solver.c");
}

static void
test_pane (WindowFixture *fixture,
           gconstpointer  data)
{
  SextantSession *session = sextant_window_get_session (fixture->window);
  SextantDetailsPane *pane = sextant_window_get_details_pane (fixture->window);
  SextantSourceView *source = sextant_window_get_source_view (fixture->window);
  SextantItem visit = { SEXTANT_ITEM_VISIT, 2, 350, SEXTANT_NULL };
  SextantItem empty = { SEXTANT_ITEM_VISIT, 2, -1000000, SEXTANT_NULL };
  SextantItem message = { SEXTANT_ITEM_MESSAGE, 0, 0, 1 };
  g_autofree char *text = NULL;
  GtkWidget *show_source;
  GtkWidget *close;

  g_assert_false (gtk_revealer_get_reveal_child (pane_revealer (fixture)));

  /* a visit with a call site: the region, its call site and call path */
  sextant_session_set_item (session, &visit);
  sextant_test_wait_until (pane_shown, fixture, 30);
  g_assert_cmpstr (sextant_details_pane_get_title (pane), ==, "compute_kernel on MPI Rank 2");
  text = sextant_details_pane_dup_text (pane);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Region: compute_kernel\n"));
  g_assert_nonnull (strstr (text, "Call site: /opt/every-kind/src/solver.c:66\n"));
  g_assert_nonnull (strstr (text, "Call path: main/solver@solver.c:44/compute_kernel@solver.c:66\n"));
  g_assert_nonnull (strstr (text, "Called from: main\n"));
  /* SEXTANT_TEST_SHOT=file.png: the window as drawn, to look at */
  if (g_getenv ("SEXTANT_TEST_SHOT") != NULL)
    {
      int width, height;
      g_autofree guint8 *pixels = sextant_test_render (GTK_WIDGET (fixture->window), &width, &height);
      cairo_surface_t *surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, height,
                                                                      width * 4);

      cairo_surface_write_to_png (surface, g_getenv ("SEXTANT_TEST_SHOT"));
      cairo_surface_destroy (surface);
    }
  /* the pane is wide enough to be read, at the right of the timeline,
   * whole inside the window */
  {
    graphene_rect_t bounds;

    g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (pane)), >=, 260);
    g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (pane), GTK_WIDGET (fixture->window), &bounds));
    g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (fixture->window)));
    /* and the timeline's bar above it is not cut off either */
    g_assert_true (gtk_widget_compute_bounds (find_button (GTK_WIDGET (fixture->window), "win.whole-machine"),
                                              GTK_WIDGET (fixture->window), &bounds));
    g_test_message ("the whole-machine button's right edge: %g of %d", bounds.origin.x + bounds.size.width,
                    gtk_widget_get_width (GTK_WIDGET (fixture->window)));
    g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (fixture->window)));
  }

  /* Show Source: the Source page at that line, of the file found under
   * a source folder */
  {
    g_autofree char *root = g_build_filename (fixture->tmpdir, "sources", NULL);
    g_autofree char *dir = g_build_filename (root, "src", NULL);
    g_autofree char *file = g_build_filename (dir, "solver.c", NULL);
    g_autoptr(GString) code = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    for (int i = 1; i <= 100; i++)
      g_string_append_printf (code, "int line_%d;\n", i);
    g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
    g_file_set_contents (file, code->str, -1, &error);
    g_assert_no_error (error);
    sextant_window_add_source_root (fixture->window, root);
  }
  sextant_window_show_page (fixture->window, "tree");
  show_source = find_button (GTK_WIDGET (pane), "win.show-source");
  g_assert_nonnull (show_source);
  g_assert_true (gtk_widget_get_visible (show_source));
  g_signal_emit_by_name (show_source, "clicked");
  g_assert_cmpstr (sextant_window_get_page (fixture->window), ==, "source");
  sextant_test_wait_until (source_shown, source, 30);

  /* nothing ran there */
  sextant_session_set_item (session, &empty);
  sextant_test_wait_for (pane, "ready", 30);
  g_assert_cmpstr (sextant_details_pane_get_title (pane), ==, "Nothing ran here");
  g_assert_false (gtk_widget_get_visible (show_source));

  /* the newer item wins */
  sextant_session_set_item (session, &visit);
  sextant_session_set_item (session, &message);
  sextant_test_wait_for (pane, "ready", 30);
  g_clear_pointer (&text, g_free);
  text = sextant_details_pane_dup_text (pane);
  g_test_message ("%s", text);
  g_assert_cmpstr (sextant_details_pane_get_title (pane), ==, "Message from MPI Rank 0 to MPI Rank 1 / Master thread");
  g_assert_nonnull (strstr (text, "KiB (1024 bytes)\n"));
  g_assert_nonnull (strstr (text, "Tag: 10\n"));

  /* the close button clears the item and hides the pane */
  close = find_close_button (GTK_WIDGET (pane));
  g_assert_nonnull (close);
  g_signal_emit_by_name (close, "clicked");
  g_assert_null (sextant_session_get_item (session));
  sextant_test_wait_until (pane_hidden, fixture, 30);

  /* Escape too */
  sextant_session_set_item (session, &visit);
  sextant_test_wait_until (pane_shown, fixture, 30);
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.cancel", NULL);
  g_assert_null (sextant_session_get_item (session));
  sextant_test_wait_until (pane_hidden, fixture, 30);
}

typedef struct
{
  SextantSession *session;
  gint64          begin;
  gint64          end;
} WaitView;

static gboolean
view_is (gpointer data)
{
  WaitView *wait = data;

  return sextant_session_get_view_begin (wait->session) == wait->begin &&
         sextant_session_get_view_end (wait->session) == wait->end;
}

static void
test_history_keys (WindowFixture *fixture,
                   gconstpointer  data)
{
  SextantSession *session = sextant_window_get_session (fixture->window);
  GtkWidget *timeline = GTK_WIDGET (sextant_window_get_timeline (fixture->window));
  GtkWidget *back = find_button (GTK_WIDGET (fixture->window), "win.go-back");
  GtkWidget *forward = find_button (GTK_WIDGET (fixture->window), "win.go-forward");
  gint64 t0 = sextant_session_get_time_begin (session);
  gint64 span = sextant_session_get_time_end (session) - t0;
  WaitView whole = { session, sextant_session_get_view_begin (session), sextant_session_get_view_end (session) };
  WaitView jumped = { session, 0, 0 };

  g_assert_nonnull (back);
  g_assert_nonnull (forward);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (back), ==, "Back (Alt+Left)");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (forward), ==, "Forward (Alt+Right)");
  sextant_session_zoom_fit (session);
  g_assert_false (gtk_widget_get_sensitive (back));
  g_assert_false (gtk_widget_get_sensitive (forward));

  sextant_session_show_range (session, t0 + span / 3, t0 + span / 3 + span / 20);
  jumped.begin = sextant_session_get_view_begin (session);
  jumped.end = sextant_session_get_view_end (session);
  g_assert_true (gtk_widget_get_sensitive (back));

  /* the window's actions */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.go-back", NULL);
  g_assert_true (view_is (&whole));
  g_assert_true (gtk_widget_get_sensitive (forward));
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.go-forward", NULL);
  g_assert_true (view_is (&jumped));

  /* real keys, the focus in the timeline (whose plain Left pans) */
  if (g_find_program_in_path ("xdotool") == NULL)
    {
      g_test_message ("no xdotool: the keys are not tried");
      return;
    }
  sextant_test_focus_window (GTK_WINDOW (fixture->window));
  g_assert_true (gtk_widget_grab_focus (timeline));
  sextant_test_run_frames (GTK_WIDGET (fixture->window), 2);
  sextant_test_xdotool ("key", "--clearmodifiers", "alt+Left", NULL);
  sextant_test_wait_until (view_is, &whole, 30);
  g_assert_false (gtk_widget_get_sensitive (back));
  sextant_test_xdotool ("key", "--clearmodifiers", "alt+Right", NULL);
  sextant_test_wait_until (view_is, &jumped, 30);
  g_assert_false (gtk_widget_get_sensitive (forward));
  /* plain Left still pans there */
  sextant_test_xdotool ("key", "--clearmodifiers", "Left", NULL);
  sextant_test_run_frames (GTK_WIDGET (fixture->window), 3);
  g_assert_cmpint (sextant_session_get_view_begin (session), <, jumped.begin);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add ("/session/history", Fixture, NULL, session_set_up, test_history, session_tear_down);
  g_test_add ("/session/history-limit", Fixture, NULL, session_set_up, test_history_limit, session_tear_down);
  g_test_add ("/session/item", Fixture, NULL, session_set_up, test_item, session_tear_down);
  g_test_add ("/details-pane/window", WindowFixture, NULL, window_set_up, test_pane, window_tear_down);
  g_test_add ("/window/history-keys", WindowFixture, NULL, window_set_up, test_history_keys, window_tear_down);

  return g_test_run ();
}
