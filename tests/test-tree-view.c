/*
 * test-tree-view.c: the tree view on real recordings, drawn and clicked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb (meson runs it through xvfb-run, with the Cairo renderer), a
 * window holds a timeline over a tree view, both on one session, as the
 * application's window has them. The trees are the builders' (graph/) on
 * real stores:
 *   - onecoll broadcasts recorded on 4 Open MPI ranks in the test (the
 *     recorder's rec-onecoll program; skipped without MPI);
 *   - a onecoll allreduce (S0/S1) recorded on 5 ranks: an exchange, drawn
 *     as a row per rank with the messages in the colours of their phases;
 *   - the barrier and the worst wait state of a third-party Score-P trace
 *     (casita-4_mpi_ls_barr: its delay chain, once analysed);
 *   - an allreduce of 1024 ranks (the import benchmark's generator);
 *   - the torus model's runs (`sextant sim torus --trace`) of a broadcast
 *     on 4x4x2 and an all-reduce on 2x2x2x2: laid out on the coordinates
 *     the trace gives each node (X and Y the plane, a panel per Z side by
 *     side, a row of panels per W), a line in a gap between two
 *     neighbours' boxes exactly where the run sent a message between
 *     them, the Z and W hops in their colours, the root framed.
 * Each tree is drawn with one box per member: the boxes' border has a
 * colour of its own, and its connected regions in the pixels are
 * counted. A click on a node (a real X click, xdotool) selects its
 * location at its arrival in the session, and the timeline marks it
 * there; clicks on a collapsed box show its members. The frame times at
 * 1024 members, collapsed and all shown, are measured and reported.
 * `sextant --screenshot --page tree --collective ID` (and --instance ID)
 * draws the tree, and a collective the trace lacks fails.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "sextant-graph.h"
#include "sextant-test-util.h"
#include "sextant-timeline.h"
#include "sextant-tree-view.h"
#include "sextant-ui-test-util.h"

typedef struct
{
  char            *tmpdir;
  SextantSession  *session;
  GtkWidget       *window;
  SextantTimeline *timeline;
  SextantTreeView *view;
} Fixture;

/* In a scrolled window as the application's window has it: a viewport
 * that does not scroll to the child when it takes the focus */
static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *viewport = gtk_viewport_new (NULL, NULL);
  GtkWidget *window = gtk_scrolled_window_new ();

  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (viewport), FALSE);
  gtk_viewport_set_child (GTK_VIEWPORT (viewport), child);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (window), viewport);

  return window;
}

/* A window as the application's: the timeline over the tree view */
static void
fixture_show (Fixture    *fixture,
              const char *db,
              int         width,
              int         height)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *upper, *lower;

  fixture->window = gtk_window_new ();
  fixture->timeline = SEXTANT_TIMELINE (sextant_timeline_new ());
  fixture->view = SEXTANT_TREE_VIEW (sextant_tree_view_new ());
  upper = scrolled (GTK_WIDGET (fixture->timeline));
  lower = scrolled (GTK_WIDGET (fixture->view));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (upper), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (upper, -1, height / 3);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (lower), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (lower, TRUE);
  gtk_box_append (GTK_BOX (box), upper);
  gtk_box_append (GTK_BOX (box), lower);
  gtk_window_set_child (GTK_WINDOW (fixture->window), box);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), width, height);
  gtk_window_present (GTK_WINDOW (fixture->window));
  sextant_test_focus_window (GTK_WINDOW (fixture->window));

  fixture->session = sextant_test_load_session (db);
  sextant_timeline_set_session (fixture->timeline, fixture->session);
  sextant_tree_view_set_session (fixture->view, fixture->session);
  sextant_test_wait_for (fixture->timeline, "ready", 60);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_object (&fixture->session);
  if (fixture->tmpdir != NULL)
    sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

static SextantStore *
open_store (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  SextantStore *store = sextant_session_open_store (fixture->session, &error);

  g_assert_no_error (error);

  return store;
}

/* The session chooses @id; its tree is built and drawn */
static SextantCommTree *
choose (Fixture    *fixture,
        const char *id)
{
  sextant_session_choose_collective (fixture->session, id);
  g_assert_false (sextant_tree_view_get_ready (fixture->view));
  sextant_test_wait_for (fixture->view, "ready", 60);
  g_assert_cmpstr (sextant_tree_view_get_error (fixture->view), ==, NULL);
  g_assert_nonnull (sextant_tree_view_get_tree (fixture->view));
  g_assert_cmpstr (sextant_comm_tree_get_id (sextant_tree_view_get_tree (fixture->view)), ==, id);

  return sextant_tree_view_get_tree (fixture->view);
}

/* The boxes drawn: regions of the nodes' border colour, and every node
 * drawn on its own has its box's four corners in that colour */
static guint
count_boxes (Fixture *fixture)
{
  SextantCommTree *tree = sextant_tree_view_get_tree (fixture->view);
  g_autofree guint8 *pixels = NULL;
  int width, height;
  guint regions, own = 0;

  pixels = sextant_test_render (GTK_WIDGET (fixture->view), &width, &height);
  regions = sextant_test_count_regions (pixels, width, height, sextant_tree_view_node_border_color ());
  for (guint i = 0; i < sextant_comm_tree_get_n_nodes (tree); i++)
    {
      graphene_rect_t box;
      int x0, y0, x1, y1;

      if (!sextant_tree_view_get_node_area (fixture->view, i, &box))
        continue;
      own++;
      x0 = (int)box.origin.x;
      y0 = (int)box.origin.y;
      x1 = (int)(box.origin.x + box.size.width) - 1;
      y1 = (int)(box.origin.y + box.size.height) - 1;
      g_assert_cmpint (y1, <, height);
      g_assert_true (sextant_test_pixel_is (pixels, width, x0, y0, sextant_tree_view_node_border_color ()));
      g_assert_true (sextant_test_pixel_is (pixels, width, x1, y1, sextant_tree_view_node_border_color ()));
    }
  g_test_message ("%u boxes of nodes drawn, %u regions of their border's colour, %u collapsed boxes", own, regions,
                  sextant_tree_view_get_n_aggregates (fixture->view));
  g_assert_cmpuint (regions, ==, own);

  return own;
}

typedef struct
{
  SextantSession *session;
  gint64          loc;
} Selected;

static gboolean
is_selected (gpointer data)
{
  Selected *want = data;
  gint64 loc;

  return sextant_session_get_selection (want->session, &loc, NULL) && loc == want->loc;
}

/* A real click on node @i: the session selects its location at its
 * arrival, the view shows that time, and the timeline marks it there */
static void
click_node (Fixture *fixture,
            guint    i)
{
  SextantCommTree *tree = sextant_tree_view_get_tree (fixture->view);
  const SextantTreeNode *node = sextant_comm_tree_get_node (tree, i);
  Selected want = { fixture->session, node->loc };
  g_autoptr(SextantStore) store = open_store (fixture);
  g_autoptr(GArray) rows = sextant_test_timeline_rows (fixture->timeline);
  g_autofree guint8 *pixels = NULL;
  const GdkRGBA blue = { 0.11f, 0.44f, 0.85f, 1 };
  graphene_rect_t box, row;
  gint64 loc, time;
  guint r, marked = 0;
  int width, height, x;

  g_assert_true (sextant_tree_view_get_node_area (fixture->view, i, &box));
  sextant_session_select (fixture->session, SEXTANT_NULL, 0);
  sextant_test_click (GTK_WIDGET (fixture->view), box.origin.x + box.size.width / 2,
                      box.origin.y + box.size.height / 2);
  sextant_test_wait_until (is_selected, &want, 10);
  g_assert_true (sextant_session_get_selection (fixture->session, &loc, &time));
  g_assert_cmpint (loc, ==, node->loc);
  g_assert_cmpint (time, ==, node->arrival);
  g_assert_cmpint (sextant_session_get_view_begin (fixture->session), <=, time);
  g_assert_cmpint (sextant_session_get_view_end (fixture->session), >, time);

  /* the timeline's mark: a line of the selection's blue at that time on
   * that location's row */
  sextant_test_wait_for (fixture->timeline, "ready", 60);
  for (r = 0; r < rows->len && g_array_index (rows, gint64, r) != loc; r++)
    ;
  g_assert_cmpuint (r, <, rows->len);
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, r, &row));
  pixels = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  x = (int)floor (sextant_timeline_x_for_time (fixture->timeline, time));
  for (int y = (int)row.origin.y; y < (int)(row.origin.y + row.size.height); y++)
    for (int dx = -1; dx <= 1; dx++)
      marked += sextant_test_pixel_is (pixels, width, x + dx, y, &blue);
  g_test_message ("node %u (location %" G_GINT64_FORMAT "): %u pixels of the mark", i, loc, marked);
  g_assert_cmpuint (marked, >=, (guint)row.size.height);
}

/* Records @program on @np ranks, imports it, shows it in the window;
 * Returns: the trace's collectives, @store the session's store */
static GPtrArray *
show_recorded (Fixture            *fixture,
               const char         *program,
               int                 np,
               const char *const  *args,
               SextantStore      **store)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *archive = NULL;
  g_autoptr(SextantStore) recorded = NULL;
  GPtrArray *collectives;

  g_assert_no_error (error);
  archive = sextant_test_record_program (dir, program, np, args);
  recorded = sextant_test_import (archive, &fixture->tmpdir);
  sextant_test_remove_tree (dir);
  fixture_show (fixture, sextant_store_get_path (recorded), 1100, 800);
  *store = open_store (fixture);
  collectives = sextant_graph_list_collectives (*store, &error);
  g_assert_no_error (error);

  return collectives;
}

/* onecoll broadcasts recorded on 4 ranks -------------------------------------------- */

static void
test_onecoll (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) collectives = NULL;
  guint trees = 0;

  if (g_getenv ("SEXTANT_TEST_ONECOLL") == NULL)
    {
      g_test_skip ("no MPI or no recorder: onecoll's broadcast cannot be recorded");
      return;
    }
  collectives = show_recorded (fixture, g_getenv ("SEXTANT_TEST_ONECOLL"), 4, NULL, &store);

  /* every broadcast's tree: one box per rank */
  for (guint c = 0; c < collectives->len; c++)
    {
      const SextantCollectiveRef *ref = g_ptr_array_index (collectives, c);
      SextantCommTree *tree;

      if (ref->kind != SEXTANT_TREE_ONECOLL_BCAST)
        continue;
      tree = choose (fixture, ref->id);
      g_assert_cmpint (sextant_comm_tree_get_kind (tree), ==, SEXTANT_TREE_ONECOLL_BCAST);
      g_assert_cmpuint (sextant_comm_tree_get_n_nodes (tree), ==, (guint)ref->members);
      g_assert_cmpuint (count_boxes (fixture), ==, (guint)ref->members);
      g_assert_cmpuint (sextant_tree_view_get_n_aggregates (fixture->view), ==, 0);
      /* the last broadcast's leaves are clicked */
      if (++trees == 3)
        for (guint i = 0; i < sextant_comm_tree_get_n_nodes (tree); i++)
          if ((int)i != sextant_comm_tree_get_root (tree))
            click_node (fixture, i);
      if (trees == 3)
        break;
    }
  g_assert_cmpuint (trees, ==, 3);
}

/* A onecoll allreduce recorded on 5 ranks: an exchange ------------------------ */

/* Pixels in @rect (NULL: all) of @color, or with @color NULL darker than
 * 140 in every channel (B, G, R, A): the lines, not the faint mesh */
static guint
count_in (const guint8          *pixels,
          int                    width,
          int                    height,
          const graphene_rect_t *rect,
          const GdkRGBA         *color)
{
  graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, width, height);
  guint n = 0;

  rect = rect != NULL ? rect : &all;
  for (int y = MAX ((int)rect->origin.y, 0); y < MIN ((int)(rect->origin.y + rect->size.height), height); y++)
    for (int x = MAX ((int)rect->origin.x, 0); x < MIN ((int)(rect->origin.x + rect->size.width), width); x++)
      {
        const guint8 *p = pixels + ((gsize)y * width + x) * 4;

        n += color != NULL ? sextant_test_pixel_is (pixels, width, x, y, color)
                           : p[0] < 140 && p[1] < 140 && p[2] < 140;
      }

  return n;
}

static guint
count_color (const guint8  *pixels,
             int            width,
             int            height,
             const GdkRGBA *color)
{
  return count_in (pixels, width, height, NULL, color);
}

/* The S0/S1 allreduce's exchange: a row (a box) per rank, its messages in
 * the colours of their four phases, a click on a rank selects it */
static void
test_exchange (Fixture       *fixture,
               gconstpointer  data)
{
  const char *program = g_getenv ("SEXTANT_TEST_ALLREDUCE");
  const char *const args[] = { "s0s1", "100003", NULL };
  g_autofree guint8 *pixels = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) collectives = NULL;
  g_autoptr(GError) error = NULL;
  const SextantCollectiveRef *exchange = NULL;
  SextantCommTree *tree;
  graphene_rect_t first, second;
  int width, height;

  if (program == NULL)
    {
      g_test_skip ("no MPI or no recorder: onecoll's allreduce cannot be recorded");
      return;
    }
  collectives = show_recorded (fixture, program, 5, args, &store);
  for (guint c = 0; c < collectives->len; c++)
    if (((SextantCollectiveRef *)g_ptr_array_index (collectives, c))->kind == SEXTANT_TREE_P2P_EXCHANGE)
      exchange = g_ptr_array_index (collectives, c);
  g_assert_nonnull (exchange);

  tree = choose (fixture, exchange->id);
  g_assert_true (sextant_comm_tree_is_exchange (tree));
  g_assert_cmpuint (sextant_comm_tree_get_n_nodes (tree), ==, 5);
  g_assert_cmpuint (count_boxes (fixture), ==, 5);
  g_assert_cmpuint (sextant_tree_view_get_n_aggregates (fixture->view), ==, 0);

  /* a row per rank, in the order of the locations */
  for (guint i = 1; i < 5; i++)
    {
      g_assert_true (sextant_tree_view_get_node_area (fixture->view, i - 1, &first));
      g_assert_true (sextant_tree_view_get_node_area (fixture->view, i, &second));
      g_assert_cmpfloat (second.origin.y, >=, first.origin.y + first.size.height);
    }

  /* prepare, halving, doubling, distribute: each phase's messages drawn
   * in its colour */
  pixels = sextant_test_render (GTK_WIDGET (fixture->view), &width, &height);
  for (guint phase = 0; phase < 4; phase++)
    {
      guint n = count_color (pixels, width, height, sextant_tree_view_phase_color (phase));

      g_test_message ("phase %u: %u pixels of its colour", phase, n);
      g_assert_cmpuint (n, >=, 20);
    }
  g_assert_cmpuint (count_color (pixels, width, height, sextant_tree_view_phase_color (4)), ==, 0);

  /* a point anywhere in a rank's allreduce (a phase, a Sendrecv inside
   * it) is that exchange, as a click in the timeline asks */
  for (guint i = 0; i < 5; i++)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (tree, i);

      for (int k = 1; k < 8; k++)
        {
          g_autofree char *at = sextant_graph_collective_at (store, node->loc,
                                                             node->arrival + (node->finish - node->arrival) * k / 8,
                                                             &error);

          g_assert_no_error (error);
          g_assert_cmpstr (at, ==, exchange->id);
        }
    }

  for (guint i = 0; i < 5; i++)
    click_node (fixture, i);
}

/* The barrier and the worst wait state of a Score-P trace --------------------- */

static void
analysed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GError **error = user_data;

  if (!sextant_session_analyse_finish (SEXTANT_SESSION (object), result, error))
    g_assert_nonnull (*error);
}

static gboolean
analysed (gpointer data)
{
  Fixture *fixture = data;

  return sextant_session_get_analysis_scope (fixture->session)->analysed &&
         !sextant_session_get_analysing (fixture->session);
}

static void
test_casita (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *archive = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), "casita-4_mpi_ls_barr", NULL);
  g_autoptr(SextantStore) imported = sextant_test_import (archive, &fixture->tmpdir);
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) collectives = NULL;
  g_autoptr(GPtrArray) worst = NULL;
  g_autoptr(SextantInstance) instance = NULL;
  g_autoptr(GError) error = NULL;
  SextantCommTree *tree;
  const char *barrier = NULL;

  fixture_show (fixture, sextant_store_get_path (imported), 1100, 700);
  store = open_store (fixture);

  /* nothing chosen: the empty state, no tree */
  g_assert_true (sextant_tree_view_get_ready (fixture->view));
  g_assert_null (sextant_tree_view_get_tree (fixture->view));

  collectives = sextant_graph_list_collectives (store, &error);
  g_assert_no_error (error);
  for (guint c = 0; c < collectives->len && barrier == NULL; c++)
    {
      const SextantCollectiveRef *ref = g_ptr_array_index (collectives, c);

      if (ref->kind == SEXTANT_TREE_MPI_COLLECTIVE && g_strcmp0 (ref->operation, "BARRIER") == 0)
        barrier = ref->id;
    }
  g_assert_nonnull (barrier);
  tree = choose (fixture, barrier);
  g_assert_cmpuint (sextant_comm_tree_get_n_nodes (tree), ==, 4);
  g_assert_cmpuint (count_boxes (fixture), ==, 4);
  click_node (fixture, (guint)sextant_comm_tree_get_root (tree));

  /* an unknown collective: its error, drawn, no tree */
  sextant_session_choose_collective (fixture->session, "no-such-collective");
  sextant_test_wait_for (fixture->view, "ready", 60);
  g_assert_nonnull (sextant_tree_view_get_error (fixture->view));
  g_assert_null (sextant_tree_view_get_tree (fixture->view));
  g_test_message ("%s", sextant_tree_view_get_error (fixture->view));

  /* the worst wait state, once analysed: the chain behind it, drawn as
   * many boxes as it has links' locations; choosing it clears the
   * collective */
  sextant_session_analyse_async (fixture->session, NULL, NULL, NULL, analysed_cb, &error);
  sextant_test_wait_until (analysed, fixture, 120);
  g_assert_no_error (error);
  g_object_unref (store);
  store = open_store (fixture);
  worst = sextant_store_list_pattern_instances (store, "late_sender", 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (worst->len, ==, 1);
  instance = sextant_instance_new (g_ptr_array_steal_index (worst, 0), sextant_session_get_resolution (fixture->session));
  sextant_session_choose_instance (fixture->session, instance);
  g_assert_null (sextant_session_get_collective (fixture->session));
  sextant_test_wait_for (fixture->view, "ready", 60);
  g_assert_cmpstr (sextant_tree_view_get_error (fixture->view), ==, NULL);
  tree = sextant_tree_view_get_tree (fixture->view);
  g_assert_nonnull (tree);
  g_assert_cmpint (sextant_comm_tree_get_kind (tree), ==, SEXTANT_TREE_DELAY_CHAIN);
  g_assert_cmpuint (sextant_comm_tree_get_n_nodes (tree), >=, 2);
  g_assert_cmpuint (count_boxes (fixture), ==, sextant_comm_tree_get_n_nodes (tree));
  /* its links are labelled with their patterns' titles, as the browser
   * names them, not their ids */
  for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
    {
      g_autofree char *label = sextant_tree_view_dup_edge_label (fixture->view, e);
      const char *by = sextant_comm_tree_get_edge (tree, e)->by;

      g_test_message ("link %u (%s): %s", e, by, label);
      g_assert_nonnull (label);
      if (g_strcmp0 (by, "late_sender") == 0)
        g_assert_true (g_str_has_prefix (label, "Late Sender · "));
      if (by != NULL)
        g_assert_false (g_str_has_prefix (label, by));
    }

  /* the worst instance of every pattern found: a tree, or a notice that
   * names the pattern by its title and says why there is none - never an
   * error */
  {
    g_autoptr(GPtrArray) totals = sextant_store_list_pattern_totals (store, &error);
    guint trees = 0, notices = 0;

    g_assert_no_error (error);
    for (guint p = 0; p < totals->len; p++)
      {
        const SextantPatternTotal *total = g_ptr_array_index (totals, p);
        g_autoptr(GPtrArray) list = sextant_store_list_pattern_instances (store, total->id, 1, &error);
        g_autoptr(SextantInstance) chosen = NULL;
        const char *notice;

        g_assert_no_error (error);
        if (list->len == 0)
          continue;
        chosen = sextant_instance_new (g_ptr_array_steal_index (list, 0), sextant_session_get_resolution (fixture->session));
        sextant_session_choose_instance (fixture->session, chosen);
        sextant_test_wait_for (fixture->view, "ready", 60);
        notice = sextant_tree_view_get_notice (fixture->view);
        g_test_message ("%s: %s", total->id, notice != NULL ? notice : sextant_tree_view_get_title (fixture->view));
        g_assert_cmpstr (sextant_tree_view_get_error (fixture->view), ==, NULL);
        g_assert_true ((sextant_tree_view_get_tree (fixture->view) != NULL) != (notice != NULL));
        if (notice != NULL)
          {
            g_assert_nonnull (strstr (notice, total->title));
            g_assert_nonnull (strstr (sextant_tree_view_get_title (fixture->view), total->title));
            notices++;
          }
        else
          trees++;
      }
    g_test_message ("%u patterns with a tree, %u with a notice", trees, notices);
    g_assert_cmpuint (trees, >, 0);
  }
}

/* `sextant --screenshot` on a page and a choice ------------------------------ */

/* --page tree --collective ID and --instance ID draw that tree; a
 * collective the trace does not have is exit status 1 and its reason */
static void
test_app (Fixture       *fixture,
          gconstpointer  data)
{
  g_autofree char *archive = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), "casita-4_mpi_ls_barr", NULL);
  g_autoptr(SextantStore) store = sextant_test_import (archive, &fixture->tmpdir);
  g_autofree char *png = g_build_filename (fixture->tmpdir, "tree.png", NULL);
  g_autoptr(SextantSession) session = sextant_test_load_session (sextant_store_get_path (store));
  g_autoptr(GPtrArray) collectives = NULL;
  g_autoptr(GPtrArray) worst = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *instance = NULL;
  const char *db = sextant_store_get_path (store);
  char *err = NULL;

  g_assert_nonnull (g_getenv ("SEXTANT"));
  fixture->session = g_object_ref (session);
  sextant_session_analyse_async (session, NULL, NULL, NULL, analysed_cb, &error);
  sextant_test_wait_until (analysed, fixture, 120);
  g_assert_no_error (error);
  collectives = sextant_graph_list_collectives (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (collectives->len, >, 0);
  worst = sextant_store_list_pattern_instances (store, "late_sender", 1, &error);
  g_assert_no_error (error);
  instance = g_strdup_printf ("%" G_GINT64_FORMAT, ((SextantPatternInstance *)g_ptr_array_index (worst, 0))->id);

  g_assert_cmpint (sextant_test_run_sextant ((const char *[]) { "--size", "900x600", "--screenshot", png, "--page", "tree", "--collective",
                                               ((SextantCollectiveRef *)g_ptr_array_index (collectives, 0))->id, db,
                                               NULL }, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_remove (png), ==, 0);
  g_assert_cmpint (sextant_test_run_sextant ((const char *[]) { "--size", "900x600", "--screenshot", png, "--instance", instance, db,
                                               NULL }, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
  g_assert_cmpint (sextant_test_run_sextant ((const char *[]) { "--size", "900x600", "--screenshot", png, "--collective", "12345678",
                                               db, NULL }, &err), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "12345678"));
  g_free (err);
}

/* Frame times ------------------------------------------------------------------ */

static double
ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

/* The view's frame: its layout, its snapshot (the layout's drawing made
 * anew, then replayed from its cache) and the rasterization by the
 * window's renderer of what a window shows of it (its first 800 pixels);
 * reported, and held to bounds a slow machine meets */
static void
measure_frames (Fixture *fixture,
                guint    boxes)
{
  GtkWidget *widget = GTK_WIDGET (fixture->view);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double fresh = G_MAXDOUBLE, cached = G_MAXDOUBLE, raster = G_MAXDOUBLE, layout = G_MAXDOUBLE;

  for (int round = 0; round < 5; round++)
    {
      g_autoptr(GtkSnapshot) first = gtk_snapshot_new ();
      g_autoptr(GtkSnapshot) again = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) node = NULL;
      g_autoptr(GskRenderNode) replay = NULL;
      g_autoptr(GdkTexture) texture = NULL;
      int natural;
      gint64 start;

      /* another width (GTK's cache of sizes dropped): a new layout; back
       * to the widget's: drawn anew */
      gtk_widget_queue_resize (widget);
      start = g_get_monotonic_time ();
      gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width - 1, NULL, &natural, NULL, NULL);
      layout = MIN (layout, ms_since (start));
      gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width, NULL, &natural, NULL, NULL);
      start = g_get_monotonic_time ();
      GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, first);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&first));
      fresh = MIN (fresh, ms_since (start));
      start = g_get_monotonic_time ();
      GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, again);
      replay = gtk_snapshot_free_to_node (g_steal_pointer (&again));
      cached = MIN (cached, ms_since (start));
      start = g_get_monotonic_time ();
      texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, MIN (height, 800)));
      raster = MIN (raster, ms_since (start));
    }
  g_test_message ("%u members, %u boxes of their own and %u collapsed, %d x %d px: layout %.2f ms, "
                  "snapshot %.2f ms (drawn anew) / %.3f ms (replayed), 800 px of it rasterized by %s in %.2f ms "
                  "(best of 5)",
                  sextant_comm_tree_get_n_nodes (sextant_tree_view_get_tree (fixture->view)), boxes,
                  sextant_tree_view_get_n_aggregates (fixture->view), width, height, layout, fresh, cached,
                  G_OBJECT_TYPE_NAME (renderer), raster);
  g_assert_cmpfloat (layout + fresh, <, 250);
  g_assert_cmpfloat (cached, <, 5);
}

/* The torus model's runs -------------------------------------------------------- */

typedef struct
{
  const char *dims;
  const char *op;
  guint       members;
  gboolean    pixels;    /* cells large enough to look at the lines' pixels */
} TorusCase;

static const TorusCase torus_bcast = { "4x4x2", "bcast", 32, TRUE };
static const TorusCase torus_allreduce = { "2x2x2x2", "allreduce", 16, TRUE };
static const TorusCase torus_2048 = { "16x16x8", "bcast", 2048, FALSE };

static double
centre (const graphene_rect_t *box,
        guint                  axis)
{
  return axis == 0 ? box->origin.x + box->size.width / 2 : box->origin.y + box->size.height / 2;
}

static gboolean
sent_between (const GArray *pairs,
              gint64        a,
              gint64        b)
{
  for (guint k = 0; k < pairs->len; k++)
    {
      const SextantMessagePair *pair = &g_array_index (pairs, SextantMessagePair, k);

      if ((pair->sender == a && pair->receiver == b) || (pair->sender == b && pair->receiver == a))
        return TRUE;
    }

  return FALSE;
}

static void
test_torus (Fixture       *fixture,
            gconstpointer  data)
{
  const TorusCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *trace = g_build_filename (dir, "trace", NULL);
  g_autofree char *anchor = g_build_filename (trace, "traces.otf2", NULL);
  g_autofree char *err = NULL;
  g_autofree guint8 *pixels = NULL;
  g_autoptr(SextantStore) recorded = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GArray) pairs = NULL;
  g_autoptr(GPtrArray) collectives = NULL;
  g_auto(SextantTorusCoords) places = { 0 };
  SextantCommTree *tree;
  guint n, hops[2] = { 0, 0 }, linked = 0, unlinked = 0;
  gboolean has_torus, has_model;
  int width, height;

  g_assert_no_error (error);
  g_assert_cmpint (sextant_test_run_sextant ((const char *[]) { "sim", "torus", "--dims", c->dims, "--op", c->op,
                                                                "--trace", trace, NULL }, &err), ==, 0);
  recorded = sextant_test_import (anchor, &fixture->tmpdir);
  sextant_test_remove_tree (dir);
  fixture_show (fixture, sextant_store_get_path (recorded), 1400, 1100);
  store = open_store (fixture);
  g_assert_true (sextant_store_read_torus_coords (store, &places, &error));
  g_assert_no_error (error);
  pairs = sextant_store_read_message_pairs (store, SEXTANT_NULL, SEXTANT_NULL, &error);
  g_assert_no_error (error);

  /* the model's one collective (its id: docs/schema.md, "collective") */
  collectives = sextant_graph_list_collectives (store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (collectives->len, >=, 1);
  tree = choose (fixture, ((const SextantCollectiveRef *)g_ptr_array_index (collectives, 0))->id);
  n = sextant_comm_tree_get_n_nodes (tree);
  g_assert_cmpuint (n, ==, c->members);
  g_object_get (fixture->view, "has-torus", &has_torus, "has-model", &has_model, NULL);
  g_assert_true (has_torus);
  g_assert_false (has_model);
  g_assert_cmpuint (count_boxes (fixture), ==, c->members);

  /* X across a panel, Y down it; Z the next panel to the right, W the
   * next row of panels */
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      {
        const SextantLocationCoords *a = sextant_torus_coords_find (&places, sextant_comm_tree_get_node (tree, i)->loc);
        const SextantLocationCoords *b = sextant_torus_coords_find (&places, sextant_comm_tree_get_node (tree, j)->loc);
        graphene_rect_t box_a, box_b;
        guint differ = 0, dim = 0;

        g_assert_nonnull (a);
        g_assert_nonnull (b);
        for (guint d = 0; d < places.n_dims; d++)
          if (a->coords[d] != b->coords[d])
            differ++, dim = d;
        if (differ != 1 || a->coords[dim] > b->coords[dim])
          continue;
        g_assert_true (sextant_tree_view_get_node_area (fixture->view, i, &box_a));
        g_assert_true (sextant_tree_view_get_node_area (fixture->view, j, &box_b));
        /* X: to the right on the same line; Y and W: below in the same
         * column; Z: the next panel in reading order (to the right, or
         * on a row below when the panels of a W wrap) */
        if (dim == 2 && centre (&box_a, 1) != centre (&box_b, 1))
          g_assert_cmpfloat (centre (&box_a, 1), <, centre (&box_b, 1));
        else
          {
            g_assert_cmpfloat (centre (&box_a, dim % 2), <, centre (&box_b, dim % 2));
            g_assert_cmpfloat (centre (&box_a, 1 - dim % 2), ==, centre (&box_b, 1 - dim % 2));
          }
      }

  measure_frames (fixture, c->members);

  /* the gap between two neighbours in a panel holds a line exactly when
   * the run sent a message between them */
  pixels = sextant_test_render (GTK_WIDGET (fixture->view), &width, &height);
  for (guint i = 0; i < n && c->pixels; i++)
    for (guint j = 0; j < n; j++)
      {
        const SextantTreeNode *x = sextant_comm_tree_get_node (tree, i), *y = sextant_comm_tree_get_node (tree, j);
        const SextantLocationCoords *a = sextant_torus_coords_find (&places, x->loc);
        const SextantLocationCoords *b = sextant_torus_coords_find (&places, y->loc);
        graphene_rect_t box_a, box_b, gap;
        guint differ = 0, dim = 0, dark, length;

        for (guint d = 0; d < places.n_dims; d++)
          if (a->coords[d] != b->coords[d])
            differ++, dim = d;
        if (differ != 1 || dim > 1 || b->coords[dim] != a->coords[dim] + 1)
          continue;
        sextant_tree_view_get_node_area (fixture->view, i, &box_a);
        sextant_tree_view_get_node_area (fixture->view, j, &box_b);
        /* the band 5 px either side of the line between the boxes' centres */
        if (dim == 0)
          graphene_rect_init (&gap, box_a.origin.x + box_a.size.width + 6, centre (&box_a, 1) - 5,
                              box_b.origin.x - box_a.origin.x - box_a.size.width - 12, 10);
        else
          graphene_rect_init (&gap, centre (&box_a, 0) - 5, box_a.origin.y + box_a.size.height + 6, 10,
                              box_b.origin.y - box_a.origin.y - box_a.size.height - 12);
        dark = count_in (pixels, width, height, &gap, NULL);
        /* a line along the whole gap, but where a hop in Z or W crosses
         * it; else at most the few pixels where two hops cross (their
         * colours mixed) */
        length = (guint)(dim == 0 ? gap.size.width : gap.size.height);
        if (sent_between (pairs, x->loc, y->loc))
          {
            linked++;
            g_assert_cmpuint (dark, >=, length * 3 / 4);
          }
        else
          {
            unlinked++;
            g_assert_cmpuint (dark, <, length / 4);
          }
      }
  g_test_message ("%s: %u neighbours in a panel linked by messages, %u not", c->dims, linked, unlinked);
  if (c->pixels)
    g_assert_cmpuint (linked, >, 0);

  /* the hops between the panels, in the colours of Z and W */
  for (guint k = 0; k < pairs->len; k++)
    {
      const SextantMessagePair *pair = &g_array_index (pairs, SextantMessagePair, k);
      const SextantLocationCoords *a = sextant_torus_coords_find (&places, pair->sender);
      const SextantLocationCoords *b = sextant_torus_coords_find (&places, pair->receiver);

      for (guint d = 2; d < places.n_dims; d++)
        hops[d - 2] += a->coords[d] != b->coords[d];
    }
  for (guint d = 0; d < 2 && c->pixels; d++)
    {
      guint colored = count_color (pixels, width, height, sextant_tree_view_phase_color (d));

      g_test_message ("%u hops in %c, %u pixels of their colour", hops[d], "ZW"[d], colored);
      if (hops[d] == 0)
        g_assert_cmpuint (colored, ==, 0);
      else
        g_assert_cmpuint (colored, >=, 20 * hops[d]);
    }

  /* the root framed: a dark column 3 px left of its box */
  {
    graphene_rect_t box;

    g_assert_true (sextant_tree_view_get_node_area (fixture->view, (guint)sextant_comm_tree_get_root (tree), &box));
    g_assert_cmpuint (count_in (pixels, width, height, &GRAPHENE_RECT_INIT (box.origin.x - 4, box.origin.y, 2,
                                                                           box.size.height), NULL),
                      >=, (guint)box.size.height);
  }

  /* a click on a node selects it as in the other layouts (one of the
   * first: its row is in the timeline's view, when the timeline has a
   * row per node) */
  if (c->pixels)
    click_node (fixture, sextant_comm_tree_get_root (tree) == 1 ? 2 : 1);

  /* off: the layout by depth and time, where the binomial layout applies */
  g_object_set (fixture->view, "torus-layout", FALSE, NULL);
  sextant_test_run_frames (GTK_WIDGET (fixture->view), 2);
  g_object_get (fixture->view, "has-torus", &has_torus, "has-model", &has_model, NULL);
  g_assert_true (has_torus);
  g_assert_cmpint (has_model, ==, g_str_equal (c->op, "bcast"));
  {
    guint own = count_boxes (fixture), in_aggregates = 0, members;
    graphene_rect_t area;

    for (guint a = 0; sextant_tree_view_get_aggregate_area (fixture->view, a, &members, &area); a++)
      in_aggregates += members;
    g_assert_cmpuint (own + in_aggregates, ==, c->members);
  }
}

/* 1024 members ---------------------------------------------------------------- */

static void
test_1024 (Fixture       *fixture,
           gconstpointer  data)
{
  const char *db = g_getenv ("SEXTANT_TEST_1024_STORE");
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) collectives = NULL;
  g_autoptr(GError) error = NULL;
  const SextantCollectiveRef *widest = NULL;
  SextantCommTree *tree;
  graphene_rect_t area;
  guint own, members, in_aggregates = 0;
  gboolean has_torus = TRUE;

  g_assert_nonnull (db);
  fixture_show (fixture, db, 1200, 900);
  store = open_store (fixture);
  collectives = sextant_graph_list_collectives (store, &error);
  g_assert_no_error (error);
  for (guint c = 0; c < collectives->len; c++)
    {
      const SextantCollectiveRef *ref = g_ptr_array_index (collectives, c);

      if (ref->kind == SEXTANT_TREE_MPI_COLLECTIVE && (widest == NULL || ref->members > widest->members))
        widest = ref;
    }
  g_assert_nonnull (widest);
  g_assert_cmpint (widest->members, ==, 1024);
  tree = choose (fixture, widest->id);
  g_assert_cmpuint (sextant_comm_tree_get_n_nodes (tree), ==, 1024);
  g_object_get (fixture->view, "has-torus", &has_torus, NULL);
  g_assert_false (has_torus);

  /* a box per node shown, the others in collapsed boxes: all 1024 */
  own = count_boxes (fixture);
  g_assert_cmpuint (sextant_tree_view_get_n_aggregates (fixture->view), >, 0);
  for (guint a = 0; sextant_tree_view_get_aggregate_area (fixture->view, a, &members, &area); a++)
    in_aggregates += members;
  g_assert_cmpuint (own + in_aggregates, ==, 1024);
  measure_frames (fixture, own);

  /* a click on a collapsed box shows more of its nodes (the latest
   * first), until all 1024 have a box of their own */
  for (guint clicks = 0; sextant_tree_view_get_n_aggregates (fixture->view) > 0; clicks++)
    {
      guint before = own;

      g_assert_cmpuint (clicks, <, 1024 / 24);
      g_assert_true (sextant_tree_view_get_aggregate_area (fixture->view, 0, &members, &area));
      sextant_test_click (GTK_WIDGET (fixture->view), area.origin.x + area.size.width / 2,
                          area.origin.y + area.size.height / 2);
      own = count_boxes (fixture);
      g_test_message ("clicked the collapsed box of %u members at y %.0f", members, area.origin.y);
      g_assert_cmpuint (own, >, before);
    }
  g_assert_cmpuint (own, ==, 1024);
  measure_frames (fixture, own);
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
  if (g_find_program_in_path ("xdotool") == NULL)
    {
      g_printerr ("xdotool is needed: the clicks are real X events\n");
      return 77;
    }

  g_test_add ("/tree-view/onecoll-broadcast", Fixture, NULL, NULL, test_onecoll, fixture_tear_down);
  g_test_add ("/tree-view/allreduce-exchange", Fixture, NULL, NULL, test_exchange, fixture_tear_down);
  g_test_add ("/tree-view/barrier-and-delay-chain", Fixture, NULL, NULL, test_casita, fixture_tear_down);
  g_test_add ("/tree-view/1024-members", Fixture, NULL, NULL, test_1024, fixture_tear_down);
  g_test_add ("/tree-view/torus-4x4x2-bcast", Fixture, &torus_bcast, NULL, test_torus, fixture_tear_down);
  g_test_add ("/tree-view/torus-2x2x2x2-allreduce", Fixture, &torus_allreduce, NULL, test_torus, fixture_tear_down);
  g_test_add ("/tree-view/torus-16x16x8-bcast", Fixture, &torus_2048, NULL, test_torus, fixture_tear_down);
  g_test_add ("/tree-view/app-screenshot", Fixture, NULL, NULL, test_app, fixture_tear_down);

  return g_test_run ();
}
