/*
 * test-matrix-view.c: the communication matrix on real stores, drawn and
 * clicked, in the application's window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb (meson runs it through xvfb-run, with the Cairo renderer):
 *   - the window opens a copy of a third-party Score-P trace
 *     (casita-4_mpi_ls_barr); Alt+3 (a real X key event) shows the Matrix
 *     page; the cells coloured are exactly the pairs of the messages the
 *     store's reader finds (sextant_lod_reader_read_messages, not the
 *     matrix's builder), for each metric; a real click on a cell sets the
 *     session's view to the span of the pair's messages and its pair
 *     filter: the bar above the timeline says so, the timeline draws that
 *     pair's lines (in the selection's blue) and no other; Escape clears
 *     the filter; the visible range builds the matrix of the view;
 *   - onecoll's broadcast recorded on 4 ranks (one-sided puts and atomics,
 *     no point-to-point message): the Matrix page starts on the one-sided
 *     transfers, its dropdown says so, and its totals are rma_op's (summed
 *     in SQL apart); the dropdown set to Messages empties it, to both
 *     gives the one-sided figures again (skipped without MPI);
 *   - a store of 1024 ranks (the import benchmark's generator): the matrix
 *     of 1024 x 1024 is drawn in blocks, each coloured exactly when a
 *     message of its pairs exists; the time to draw it is reported.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-lod-reader.h"
#include "sextant-store-private.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-window.h"

static const GdkRGBA filter_blue = { 0.11f, 0.44f, 0.85f, 1 };

/* The store's messages, read without the matrix: sender, receiver, first
 * send and last receive of each pair that exchanged any */
typedef struct
{
  gint64 sender;
  gint64 receiver;
  guint  count;
  gint64 first;
  gint64 last;
} Pair;

static GArray *
read_pairs (SextantStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (store, &error);
  g_autoptr(GArray) messages = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  SextantTimeSpan span;
  gboolean too_many = FALSE;

  g_assert_no_error (error);
  g_assert_true (sextant_store_get_time_span (store, &span, &error));
  g_assert_true (sextant_lod_reader_read_messages (reader, NULL, 0, span.begin, span.end + 1, G_MAXUINT, messages,
                                                   &too_many, &error));
  g_assert_no_error (error);
  g_assert_false (too_many);
  for (guint i = 0; i < messages->len; i++)
    {
      const SextantViewMessage *m = &g_array_index (messages, SextantViewMessage, i);
      guint k;

      for (k = 0; k < pairs->len; k++)
        if (g_array_index (pairs, Pair, k).sender == m->send_loc && g_array_index (pairs, Pair, k).receiver == m->recv_loc)
          break;
      if (k == pairs->len)
        {
          Pair p = { m->send_loc, m->recv_loc, 0, G_MAXINT64, G_MININT64 };

          g_array_append_val (pairs, p);
        }
      g_array_index (pairs, Pair, k).count++;
      g_array_index (pairs, Pair, k).first = MIN (g_array_index (pairs, Pair, k).first, m->send_time);
      g_array_index (pairs, Pair, k).last = MAX (g_array_index (pairs, Pair, k).last, m->recv_time);
    }

  return pairs;
}

/* A cell's middle is coloured: far from grey (the empty cells' faint
 * background, the window's) */
static gboolean
coloured (const guint8 *pixels,
          int           width,
          int           x,
          int           y)
{
  guint32 argb = *(const guint32 *)(pixels + ((gsize)y * width + x) * 4);
  int r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;

  return MAX (r, MAX (g, b)) - MIN (r, MIN (g, b)) > 40;
}

/* Every drawn cell (block) is coloured exactly when one of its pairs
 * exchanged a message (for the bytes and the time, a message of some
 * bytes or some time: when the matrix has more than 0 there); returns the
 * cells coloured */
static guint
check_cells (SextantMatrixView *view,
             GArray            *pairs)
{
  SextantMatrixMetric metric = sextant_matrix_view_get_metric (view);
  SextantCommMatrix *matrix = sextant_matrix_view_get_matrix (view);
  guint n = sextant_comm_matrix_get_size (matrix);
  guint block = sextant_matrix_view_get_block (view);
  guint rows = (n + block - 1) / block;
  g_autofree gboolean *expected = g_new0 (gboolean, (gsize)rows * rows);
  g_autofree guint8 *pixels = NULL;
  guint cells = 0;
  int width, height;

  for (guint k = 0; k < pairs->len; k++)
    {
      const Pair *p = &g_array_index (pairs, Pair, k);
      int s = sextant_comm_matrix_find_loc (matrix, p->sender);
      int r = sextant_comm_matrix_find_loc (matrix, p->receiver);

      g_assert_cmpint (s, >=, 0);
      g_assert_cmpint (r, >=, 0);
      if (metric == SEXTANT_MATRIX_COUNT || sextant_comm_matrix_get_value (matrix, metric, s, r) > 0)
        expected[(gsize)(s / block) * rows + r / block] = TRUE;
    }
  pixels = sextant_test_render (GTK_WIDGET (view), &width, &height);
  for (guint row = 0; row < rows; row++)
    for (guint col = 0; col < rows; col++)
      {
        graphene_rect_t area;
        int x, y;

        g_assert_true (sextant_matrix_view_get_cell_area (view, row, col, &area));
        x = (int)area.origin.x + (int)(area.size.width - 1) / 2;
        y = (int)area.origin.y + (int)(area.size.height - 1) / 2;
        if (coloured (pixels, width, x, y) != expected[(gsize)row * rows + col])
          g_error ("cell %u, %u (at %d, %d): %s expected", row, col, x, y,
                   expected[(gsize)row * rows + col] ? "messages" : "none");
        cells += expected[(gsize)row * rows + col];
      }

  return cells;
}

static gboolean
matrix_page_ready (gpointer data)
{
  SextantWindow *window = data;

  return g_strcmp0 (sextant_window_get_page (window), "matrix") == 0 &&
         sextant_matrix_view_get_ready (sextant_window_get_matrix_view (window)) &&
         sextant_matrix_view_get_matrix (sextant_window_get_matrix_view (window)) != NULL;
}

static gboolean
filtered (gpointer data)
{
  return sextant_session_get_pair_filter (data) != NULL;
}

static gboolean
not_filtered (gpointer data)
{
  return sextant_session_get_pair_filter (data) == NULL;
}

/* The pixels of the filtered lines' blue in the timeline's plot */
static guint
blue_pixels (SextantTimeline *timeline)
{
  g_autofree guint8 *pixels = NULL;
  graphene_rect_t row;
  int width, height;
  guint blue = 0;

  sextant_test_wait_for (timeline, "ready", 60);
  g_assert_true (sextant_timeline_get_row_area (timeline, 0, &row));
  pixels = sextant_test_render (GTK_WIDGET (timeline), &width, &height);
  /* under the ruler (the filter's badge is there), over the plot */
  for (int y = (int)row.origin.y; y < height; y++)
    for (int x = (int)row.origin.x; x < width; x++)
      blue += sextant_test_pixel_is (pixels, width, x, y, &filter_blue);

  return blue;
}

static void
test_casita (void)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *source = g_build_filename (root, "casita-4_mpi_ls_barr", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *archive = g_build_filename (tmpdir, "casita", NULL);
  SextantWindow *window;
  SextantMatrixView *view;
  SextantSession *session;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GArray) pairs = NULL;
  SextantCommMatrix *matrix;
  const SextantPairFilter *filter;
  graphene_rect_t area;
  const Pair *pair;
  int s, r;

  g_assert_no_error (error);
  sextant_test_copy_tree (source, archive);
  window = sextant_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1300, 900);
  gtk_window_present (GTK_WINDOW (window));
  sextant_test_focus_window (GTK_WINDOW (window));
  sextant_window_open (window, archive);
  sextant_test_wait_for (window, "ready", 120);
  session = sextant_window_get_session (window);
  view = sextant_window_get_matrix_view (window);
  store = sextant_session_open_store (session, &error);
  g_assert_no_error (error);
  pairs = read_pairs (store);
  g_assert_cmpuint (pairs->len, >, 0);

  /* Alt+3: the Matrix page, built once shown */
  g_assert_cmpstr (sextant_window_get_page (window), ==, "source");
  sextant_test_xdotool ("key", "--clearmodifiers", "alt+3", NULL);
  sextant_test_wait_until (matrix_page_ready, window, 60);
  g_assert_null (sextant_matrix_view_get_error (view));
  matrix = sextant_matrix_view_get_matrix (view);
  g_assert_cmpuint (sextant_matrix_view_get_block (view), ==, 1);

  /* its numbers are the messages', and its coloured cells their pairs, in
   * each metric */
  {
    double total = 0;

    for (guint k = 0; k < pairs->len; k++)
      {
        pair = &g_array_index (pairs, Pair, k);
        s = sextant_comm_matrix_find_loc (matrix, pair->sender);
        r = sextant_comm_matrix_find_loc (matrix, pair->receiver);
        g_assert_cmpfloat (sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_COUNT, s, r), ==, pair->count);
        total += pair->count;
      }
    g_assert_cmpfloat (sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_COUNT), ==, total);
  }
  for (guint metric = 0; metric < SEXTANT_N_MATRIX_METRICS; metric++)
    {
      g_object_set (view, "metric", metric, NULL);
      g_test_message ("%s: %u cells coloured", sextant_matrix_metric_to_string (metric), check_cells (view, pairs));
    }
  g_object_set (view, "metric", SEXTANT_MATRIX_BYTES, NULL);

  /* a click on the first pair's cell: the view is its messages' span, the
   * timeline draws them alone, in blue, and the bar says whose they are */
  g_assert_cmpuint (blue_pixels (sextant_window_get_timeline (window)), ==, 0);
  pair = &g_array_index (pairs, Pair, 0);
  s = sextant_comm_matrix_find_loc (matrix, pair->sender);
  r = sextant_comm_matrix_find_loc (matrix, pair->receiver);
  g_assert_true (sextant_matrix_view_get_cell_area (view, (guint)s, (guint)r, &area));
  sextant_test_click (GTK_WIDGET (view), area.origin.x + area.size.width / 2, area.origin.y + area.size.height / 2);
  sextant_test_wait_until (filtered, session, 10);
  filter = sextant_session_get_pair_filter (session);
  g_assert_cmpint (filter->sender_first, ==, pair->sender);
  g_assert_cmpint (filter->sender_last, ==, pair->sender);
  g_assert_cmpint (filter->receiver_first, ==, pair->receiver);
  g_assert_cmpint (filter->receiver_last, ==, pair->receiver);
  g_assert_cmpint (sextant_session_get_view_begin (session), <=, pair->first);
  g_assert_cmpint (sextant_session_get_view_end (session), >, pair->last);
  /* the span and a twentieth either side (or the narrowest view) */
  g_assert_cmpint (sextant_session_get_view_end (session) - sextant_session_get_view_begin (session), <=,
                   MAX ((pair->last - pair->first) * 12 / 10 + 4, 400));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (sextant_window_get_timeline (window))));
  g_test_message ("%u pixels of the pair's lines", blue_pixels (sextant_window_get_timeline (window)));
  g_assert_cmpuint (blue_pixels (sextant_window_get_timeline (window)), >, 20);

  /* the visible range: the matrix of the pair's span has that pair */
  g_object_set (view, "visible-range", TRUE, NULL);
  sextant_test_wait_for (view, "ready", 60);
  matrix = sextant_matrix_view_get_matrix (view);
  g_assert_nonnull (matrix);
  s = sextant_comm_matrix_find_loc (matrix, pair->sender);
  r = sextant_comm_matrix_find_loc (matrix, pair->receiver);
  g_assert_cmpint (s, >=, 0);
  g_assert_cmpint (r, >=, 0);
  g_assert_cmpfloat (sextant_comm_matrix_get_value (matrix, SEXTANT_MATRIX_COUNT, s, r), >, 0);
  g_object_set (view, "visible-range", FALSE, NULL);

  /* Escape: every message again */
  sextant_test_xdotool ("key", "--clearmodifiers", "Escape", NULL);
  sextant_test_wait_until (not_filtered, session, 10);
  g_assert_cmpuint (blue_pixels (sextant_window_get_timeline (window)), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

/* The window's dropdown whose tooltip begins with @tooltip */
static GtkDropDown *
find_drop_down (GtkWidget  *widget,
                const char *tooltip)
{
  const char *text = gtk_widget_get_tooltip_text (widget);

  if (GTK_IS_DROP_DOWN (widget) && text != NULL && g_str_has_prefix (text, tooltip))
    return GTK_DROP_DOWN (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkDropDown *found = find_drop_down (child, tooltip);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
count_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  gint64 *values = user_data;

  values[0] = sextant_row_get_int (row, 0);
  values[1] = sextant_row_get_int (row, 1);
  return TRUE;
}

/* Waits for the matrix of @transfers, built */
static void
wait_for_transfers (SextantMatrixView      *view,
                    SextantMatrixTransfers  transfers)
{
  sextant_test_wait_for (view, "ready", 60);
  g_assert_null (sextant_matrix_view_get_error (view));
  g_assert_nonnull (sextant_matrix_view_get_matrix (view));
  g_assert_cmpint (sextant_comm_matrix_get_transfers (sextant_matrix_view_get_matrix (view)), ==, transfers);
}

static void
test_one_sided (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *anchor = NULL;
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = NULL;
  SextantWindow *window;
  SextantMatrixView *view;
  SextantCommMatrix *matrix;
  GtkDropDown *transfers;
  gint64 rma[2] = { 0, 0 }, messages[2] = { 0, 0 };

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
  /* the figures, summed in SQL apart from the matrix */
  g_assert_true (sextant_store_foreach_sql (store, "SELECT count (*), coalesce (sum (CASE kind WHEN 'PUT' THEN bytes "
                                                   "WHEN 'GET' THEN bytes_received ELSE bytes + bytes_received END), 0) "
                                                   "FROM rma_op WHERE target_loc IS NOT NULL",
                                            count_row, rma, &error, ""));
  g_assert_no_error (error);
  g_assert_true (sextant_store_foreach_sql (store, "SELECT count (*), 0 FROM message", count_row, messages, &error,
                                            ""));
  g_assert_no_error (error);
  g_assert_cmpint (messages[0], ==, 0);
  g_assert_cmpint (rma[0], >, 0);

  window = sextant_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 800);
  gtk_window_present (GTK_WINDOW (window));
  sextant_test_focus_window (GTK_WINDOW (window));
  sextant_window_open (window, sextant_store_get_path (store));
  sextant_test_wait_for (window, "ready", 120);
  view = sextant_window_get_matrix_view (window);
  transfers = find_drop_down (GTK_WIDGET (window), "What is counted");
  g_assert_nonnull (transfers);

  /* no messages: the page starts on the one-sided operations */
  sextant_test_xdotool ("key", "--clearmodifiers", "alt+3", NULL);
  sextant_test_wait_until (matrix_page_ready, window, 60);
  wait_for_transfers (view, SEXTANT_MATRIX_TRANSFERS_ONE_SIDED);
  matrix = sextant_matrix_view_get_matrix (view);
  g_assert_cmpuint (gtk_drop_down_get_selected (transfers), ==, SEXTANT_MATRIX_TRANSFERS_ONE_SIDED);
  g_assert_cmpuint (sextant_comm_matrix_get_size (matrix), >=, 4);   /* the ranks and their relay threads */
  g_assert_cmpfloat (sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_COUNT), ==, rma[0]);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (matrix, SEXTANT_MATRIX_BYTES), ==, rma[1]);
  {
    g_autofree char *summary = NULL;
    g_autofree char *expected = g_strdup_printf ("%" G_GINT64_FORMAT " one-sided operations", rma[0]);

    g_object_get (view, "summary", &summary, NULL);
    g_assert_nonnull (strstr (summary, expected));
  }

  /* the dropdown: messages (none), then both */
  gtk_drop_down_set_selected (transfers, SEXTANT_MATRIX_TRANSFERS_MESSAGES);
  g_assert_cmpint (sextant_matrix_view_get_transfers (view), ==, SEXTANT_MATRIX_TRANSFERS_MESSAGES);
  wait_for_transfers (view, SEXTANT_MATRIX_TRANSFERS_MESSAGES);
  g_assert_cmpuint (sextant_comm_matrix_get_size (sextant_matrix_view_get_matrix (view)), ==, 0);
  gtk_drop_down_set_selected (transfers, SEXTANT_MATRIX_TRANSFERS_ALL);
  wait_for_transfers (view, SEXTANT_MATRIX_TRANSFERS_ALL);
  g_assert_cmpfloat (sextant_comm_matrix_get_total (sextant_matrix_view_get_matrix (view), SEXTANT_MATRIX_BYTES), ==,
                     rma[1]);

  gtk_window_destroy (GTK_WINDOW (window));
  sextant_test_remove_tree (tmpdir);
}

static void
test_1024 (void)
{
  const char *db = g_getenv ("SEXTANT_TEST_1024_STORE");
  g_autoptr(SextantSession) session = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GArray) pairs = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *window = gtk_window_new ();
  SextantMatrixView *view = SEXTANT_MATRIX_VIEW (sextant_matrix_view_new ());
  guint cells;
  gint64 start;
  double draw = G_MAXDOUBLE;

  g_assert_nonnull (db);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 700);
  gtk_window_present (GTK_WINDOW (window));
  session = sextant_test_load_session (db);
  sextant_matrix_view_set_session (view, session);
  sextant_test_wait_for (view, "ready", 120);
  g_assert_null (sextant_matrix_view_get_error (view));
  g_assert_cmpuint (sextant_comm_matrix_get_size (sextant_matrix_view_get_matrix (view)), ==, 1024);
  g_assert_cmpuint (sextant_matrix_view_get_block (view), >, 1);
  store = sextant_session_open_store (session, &error);
  g_assert_no_error (error);
  pairs = read_pairs (store);
  cells = check_cells (view, pairs);

  /* the cells drawn anew (a metric's colours), then the frame */
  for (int round = 0; round < 3; round++)
    {
      g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) node = NULL;

      g_object_set (view, "metric", round % 2 == 0 ? SEXTANT_MATRIX_COUNT : SEXTANT_MATRIX_TIME, NULL);
      start = g_get_monotonic_time ();
      GTK_WIDGET_GET_CLASS (view)->snapshot (GTK_WIDGET (view), snapshot);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
      draw = MIN (draw, (g_get_monotonic_time () - start) / 1000.0);
    }
  g_test_message ("1024 x 1024 locations in blocks of %u: %u blocks coloured for %u pairs; a frame with new "
                  "colours %.2f ms", sextant_matrix_view_get_block (view), cells, pairs->len, draw);
  g_assert_cmpfloat (draw, <, 500);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = g_dir_make_tmp ("sextant-test-data-XXXXXX", NULL);
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
  if (g_find_program_in_path ("xdotool") == NULL)
    {
      g_printerr ("xdotool is needed: the clicks and keys are real X events\n");
      return 77;
    }

  g_test_add_func ("/matrix-view/casita", test_casita);
  g_test_add_func ("/matrix-view/one-sided", test_one_sided);
  g_test_add_func ("/matrix-view/1024-ranks", test_1024);

  status = g_test_run ();
  sextant_test_remove_tree (data_home);

  return status;
}
