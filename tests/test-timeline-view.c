/*
 * test-timeline-view.c: the timeline in the application window, driven as
 * a person drives it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Under Xvfb with real X events (xdotool): a process's threads collapse
 * into one row at a click on its expander and come back; a row hidden
 * from the label column's menu is counted in the bar and shown again; the
 * rows' filter keeps the matching rows; Shift + drag zooms to the range,
 * Alt+Left and Alt+Right go back and forward; a click on a row shows what
 * ran there in the details pane; the legend names the categories drawn and
 * its colour mode recolours the rows; at whole-run zoom of a dense
 * iterative code the lines leave most of the rows' pixels as they are;
 * lost time is drawn in a style of two colours, none of them MPI red; a
 * onecoll recording draws its one-sided operations as arrows; a lock
 * wait draws the holder's hold on the holder's row, and a click in the
 * wait names the holder in the details pane; 1024 ranks
 * open in the whole-machine mode, every pixel row of the pane drawn, and
 * the key H gives the rows back.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-lod-reader.h"
#include "sextant-timeline-layers-private.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-window.h"

typedef struct
{
  char          *tmpdir;
  char          *archive;
  SextantWindow *window;
  SextantTimeline *timeline;
} Fixture;

static void
set_up_sized (Fixture       *fixture,
              gconstpointer  data,
              int            height)
{
  g_autoptr(GError) error = NULL;

  fixture->tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  if (data != NULL)
    {
      const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
      g_autofree char *source = g_build_filename (root, data, NULL);

      fixture->archive = g_build_filename (fixture->tmpdir, "trace", NULL);
      sextant_test_copy_tree (source, fixture->archive);
    }
  fixture->window = sextant_window_new (NULL);
  fixture->timeline = sextant_window_get_timeline (fixture->window);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1400, height);
  gtk_window_present (GTK_WINDOW (fixture->window));
  sextant_test_focus_window (GTK_WINDOW (fixture->window));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  set_up_sized (fixture, data, 900);
}

/* A window too short for a trace's rows: they scroll */
static void
fixture_set_up_short (Fixture       *fixture,
                      gconstpointer  data)
{
  set_up_sized (fixture, data, 560);
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

static void
open_and_wait (Fixture    *fixture,
               const char *path)
{
  sextant_window_open (fixture->window, path);
  sextant_test_wait_for (fixture->window, "ready", 180);
  g_assert_null (sextant_window_get_error (fixture->window));
  sextant_test_wait_for (fixture->timeline, "ready", 60);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 2);
}

static SextantSession *
session_of (Fixture *fixture)
{
  return sextant_timeline_get_session (fixture->timeline);
}

static SextantStore *
open_store (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  SextantStore *store = sextant_session_open_store (session_of (fixture), &error);

  g_assert_no_error (error);

  return store;
}

/* The first shown row with @kind that can expand, or -1 */
static int
find_expandable (SextantTimelineRows   *rows,
                 SextantTimelineRowKind kind)
{
  for (guint i = 0; i < sextant_timeline_rows_get_n_rows (rows); i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (rows, i);

      if (row->kind == kind && row->expandable)
        return (int)i;
    }

  return -1;
}

static gboolean
timeline_ready (gpointer data)
{
  return sextant_timeline_get_ready (data);
}

/* How many pixels of @a and @b (both @width x @height) differ in the
 * rectangle @area */
static guint
count_changed (const guint8          *a,
               const guint8          *b,
               int                    width,
               const graphene_rect_t *area)
{
  guint changed = 0;

  for (int y = (int)area->origin.y; y < (int)(area->origin.y + area->size.height); y++)
    for (int x = (int)area->origin.x; x < (int)(area->origin.x + area->size.width); x++)
      if (memcmp (a + ((gsize)y * width + x) * 4, b + ((gsize)y * width + x) * 4, 3) != 0)
        changed++;

  return changed;
}

/* Grouping, collapse, hide, filter -------------------------------------------------- */

static void
test_rows (Fixture       *fixture,
           gconstpointer  data)
{
  SextantTimelineRows *rows;
  const SextantTimelineRow *row;
  graphene_rect_t area;
  guint n, key;
  int position;
  GtkWidget *bar_filter;

  open_and_wait (fixture, fixture->archive);
  rows = sextant_timeline_get_rows (fixture->timeline);
  n = sextant_timeline_rows_get_n_rows (rows);

  /* a process with threads: a click on its expander collapses it */
  position = find_expandable (rows, SEXTANT_TIMELINE_ROW_PROCESS);
  g_assert_cmpint (position, >=, 0);
  row = sextant_timeline_rows_get_row (rows, (guint)position);
  g_assert_true (row->expanded);
  key = row->key;
  sextant_timeline_scroll_to_location (fixture->timeline, g_array_index (row->locs, gint64, 0));
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 2);
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, (guint)position, &area));
  g_test_message ("%u rows; row %d (%s) at y %.0f, height %.0f", n, position, row->label, area.origin.y,
                  area.size.height);
  sextant_test_click (GTK_WIDGET (fixture->timeline), 12 + row->depth * 12 + 5, area.origin.y + area.size.height / 2);
  position = sextant_timeline_rows_find (rows, key);
  row = sextant_timeline_rows_get_row (rows, (guint)position);
  g_assert_false (row->expanded);
  g_assert_cmpuint (row->locs->len, >, 1);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), <, n);
  g_test_message ("collapsed: %u rows of %u, the process's row draws %u locations",
                  sextant_timeline_rows_get_n_rows (rows), n, row->locs->len);
  /* its aggregate is drawn */
  sextant_test_wait_until (timeline_ready, fixture->timeline, 60);
  {
    g_autofree guint8 *pixels = NULL;
    int width, height;
    guint drawn = 0;

    g_object_set (fixture->timeline, "show-messages", FALSE, "show-lost", FALSE, NULL);
    pixels = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
    g_assert_true (sextant_timeline_get_row_area (fixture->timeline, (guint)position, &area));
    for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
      for (int y = (int)area.origin.y; y < (int)(area.origin.y + area.size.height); y++)
        for (int x = (int)area.origin.x; x < (int)(area.origin.x + area.size.width); x++)
          drawn += sextant_test_pixel_is (pixels, width, x, y, sextant_timeline_category_color (c));
    g_assert_cmpuint (drawn, >, 0);
  }
  /* and expands again */
  sextant_test_click (GTK_WIDGET (fixture->timeline), 12 + row->depth * 12 + 5, area.origin.y + area.size.height / 2);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, n);

  /* hidden from the label column's menu: the bar counts it */
  row = sextant_timeline_rows_get_row (rows, 1);
  key = row->key;
  gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.hide-row", "u", key);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, n - 1);
  g_assert_cmpint (sextant_timeline_rows_find (rows, key), ==, -1);
  g_assert_cmpuint (sextant_timeline_rows_get_n_hidden (rows), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-all-rows", NULL));
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, n);

  /* the filter: typed into the bar's entry (Ctrl+F) */
  sextant_test_xdotool ("key", "ctrl+f", NULL);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 3);
  bar_filter = gtk_window_get_focus (GTK_WINDOW (fixture->window));
  g_assert_true (bar_filter != NULL && gtk_widget_get_ancestor (bar_filter, GTK_TYPE_SEARCH_ENTRY) != NULL);
  sextant_test_xdotool ("type", "--delay", "20", (const char *)"thread 2", NULL);
  for (guint tries = 0; g_strcmp0 (sextant_timeline_rows_get_filter (rows), "thread 2") != 0 && tries < 500; tries++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (sextant_timeline_rows_get_filter (rows), ==, "thread 2");
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), <, n);
  for (guint i = 0; i < sextant_timeline_rows_get_n_rows (rows); i++)
    {
      const SextantTimelineRow *shown = sextant_timeline_rows_get_row (rows, i);
      g_autofree char *label = g_utf8_strdown (shown->tooltip != NULL ? shown->tooltip : shown->label, -1);

      /* the match, or a group above one */
      g_assert_true (strstr (label, "thread 2") != NULL || shown->expandable);
    }

  /* a filter no label matches: the plot says so, not blank; Escape in
   * the filter shows every row again */
  sextant_test_xdotool ("type", "--delay", "20", (const char *)"zq", NULL);
  for (guint tries = 0; g_strcmp0 (sextant_timeline_rows_get_filter (rows), "thread 2zq") != 0 && tries < 500; tries++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, 0);
  {
    int width, height;
    g_autofree guint8 *pixels = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
    guint dark = 0;

    for (int y = 30; y < height; y++)   /* below the ruler */
      for (int x = 0; x < width; x++)
        dark += pixels[((gsize)y * width + x) * 4 + 1] < 128;
    g_test_message ("no row matches: %u dark pixels of text", dark);
    g_assert_cmpuint (dark, >, 100);
  }
  sextant_test_xdotool ("key", "Escape", NULL);
  for (guint tries = 0; sextant_timeline_rows_get_n_rows (rows) != n && tries < 500; tries++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (sextant_timeline_rows_get_filter (rows));
  g_assert_cmpuint (sextant_timeline_rows_get_n_rows (rows), ==, n);
}

/* Range zoom and history ------------------------------------------------------------ */

static void
test_range_and_history (Fixture       *fixture,
                        gconstpointer  data)
{
  SextantSession *session;
  graphene_rect_t area;
  gint64 w0, w1, want0, want1, r0, r1;
  double x0, x1;

  open_and_wait (fixture, fixture->archive);
  session = session_of (fixture);
  w0 = sextant_session_get_view_begin (session);
  w1 = sextant_session_get_view_end (session);
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, 0, &area));
  x0 = area.origin.x + area.size.width * 0.25;
  x1 = area.origin.x + area.size.width * 0.5;
  want0 = w0 + (gint64)((x0 - area.origin.x) / area.size.width * (w1 - w0));
  want1 = w0 + (gint64)((x1 - area.origin.x) / area.size.width * (w1 - w0));

  /* Shift + drag over a quarter of the plot */
  sextant_test_drag (GTK_WIDGET (fixture->timeline), x0, area.origin.y + 4, x1, area.origin.y + 4, "shift");
  r0 = sextant_session_get_view_begin (session);
  r1 = sextant_session_get_view_end (session);
  g_test_message ("range: want [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), got [%" G_GINT64_FORMAT ", %"
                  G_GINT64_FORMAT ")", want0, want1, r0, r1);
  /* within two pixels' time of the drag's ends */
  g_assert_cmpint (llabs (r0 - want0), <=, 2 * (w1 - w0) / (gint64)area.size.width);
  g_assert_cmpint (llabs (r1 - want1), <=, 2 * (w1 - w0) / (gint64)area.size.width);
  g_assert_true (sextant_session_get_can_go_back (session));

  /* a drag on the ruler zooms too */
  sextant_test_drag (GTK_WIDGET (fixture->timeline), x0, 8, x1, 8, NULL);
  g_assert_cmpint (sextant_session_get_view_end (session) - sextant_session_get_view_begin (session), <,
                   (r1 - r0) / 2);

  /* Alt+Left twice: the first range, the whole run; Alt+Right: the range */
  gtk_widget_grab_focus (GTK_WIDGET (fixture->timeline));
  sextant_test_xdotool ("key", "alt+Left", NULL);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 3);
  g_assert_cmpint (sextant_session_get_view_begin (session), ==, r0);
  g_assert_cmpint (sextant_session_get_view_end (session), ==, r1);
  sextant_test_xdotool ("key", "alt+Left", NULL);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 3);
  g_assert_cmpint (sextant_session_get_view_begin (session), ==, w0);
  g_assert_cmpint (sextant_session_get_view_end (session), ==, w1);
  sextant_test_xdotool ("key", "alt+Right", NULL);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 3);
  g_assert_cmpint (sextant_session_get_view_begin (session), ==, r0);
  g_assert_cmpint (sextant_session_get_view_end (session), ==, r1);

  /* a plain drag on a row pans by the pixels dragged, and chooses nothing
   * where it is let go (GtkGestureClick emits "released" after a drag) */
  g_assert_null (sextant_session_get_item (session));
  sextant_test_drag (GTK_WIDGET (fixture->timeline), x1, area.origin.y + 4, x0, area.origin.y + 4, NULL);
  want0 = r0 + (gint64)((x1 - x0) / area.size.width * (r1 - r0));
  g_test_message ("pan: want %" G_GINT64_FORMAT ", got %" G_GINT64_FORMAT, want0,
                  sextant_session_get_view_begin (session));
  g_assert_cmpint (llabs (sextant_session_get_view_begin (session) - want0), <=, 2 * (r1 - r0) / (gint64)area.size.width);
  g_assert_cmpint (sextant_session_get_view_end (session) - sextant_session_get_view_begin (session), ==, r1 - r0);
  g_assert_null (sextant_session_get_item (session));
}

/* A click shows its visit in the details pane --------------------------------------- */

static void
test_click_details (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GArray) locs = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantLodReader) reader = NULL;
  g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  g_autoptr(GError) error = NULL;
  SextantDetailsPane *pane = sextant_window_get_details_pane (fixture->window);
  SextantSession *session;
  const SextantItem *item;
  graphene_rect_t area;
  gint64 t = SEXTANT_NULL;
  guint row = 0;

  open_and_wait (fixture, fixture->archive);
  session = session_of (fixture);
  /* turn the lines off: the click is on the row, not on a line */
  g_object_set (fixture->timeline, "show-messages", FALSE, NULL);
  locs = sextant_test_timeline_rows (fixture->timeline);
  store = open_store (fixture);
  reader = sextant_lod_reader_new (store, &error);
  g_assert_no_error (error);
  /* a base bucket wholly MPI on the first row that has one, in the middle of a column */
  for (row = 0; row < locs->len && t == SEXTANT_NULL; row++)
    {
      gint64 loc = g_array_index (locs, gint64, row);

      if (loc == SEXTANT_NULL)
        continue;
      g_array_set_size (buckets, 0);
      g_assert_true (sextant_lod_reader_read (reader, loc, 0, sextant_session_get_view_begin (session),
                                              sextant_session_get_view_end (session), buckets, &error));
      for (guint i = 0; i + 2 < buckets->len && t == SEXTANT_NULL; i++)
        {
          const SextantLodBucket *b = &g_array_index (buckets, SextantLodBucket, i);

          /* three full MPI buckets in a row: a click lands in them */
          if (b->time[SEXTANT_CATEGORY_MPI] == b->end - b->begin &&
              g_array_index (buckets, SextantLodBucket, i + 1).time[SEXTANT_CATEGORY_MPI] == b->end - b->begin &&
              g_array_index (buckets, SextantLodBucket, i + 2).time[SEXTANT_CATEGORY_MPI] == b->end - b->begin &&
              g_array_index (buckets, SextantLodBucket, i + 2).begin == b->begin + 2 * (b->end - b->begin))
            t = b->begin + 3 * (b->end - b->begin) / 2;
        }
    }
  g_assert_cmpint (t, !=, SEXTANT_NULL);
  row--;
  /* zoomed so that those buckets are 60 pixels wide */
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, row, &area));
  sextant_session_set_view (session, t - (t - sextant_session_get_view_begin (session)) / 1000, t + 1);
  {
    gint64 base = sextant_lod_reader_get_bucket_ticks (reader, 0);
    gint64 span = (gint64)(base * area.size.width / 20);

    sextant_session_set_view (session, t - span / 2, t + span / 2);
  }
  sextant_test_wait_until (timeline_ready, fixture->timeline, 60);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 2);
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, row, &area));
  sextant_test_click (GTK_WIDGET (fixture->timeline), sextant_timeline_x_for_time (fixture->timeline, t),
                      area.origin.y + area.size.height / 2);
  item = sextant_session_get_item (session);
  g_assert_nonnull (item);
  g_assert_cmpint (item->kind, ==, SEXTANT_ITEM_VISIT);
  g_assert_cmpint (item->loc, ==, g_array_index (locs, gint64, row));
  sextant_test_wait_for (pane, "ready", 30);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (pane)) && gtk_widget_get_mapped (GTK_WIDGET (pane)));
  g_test_message ("details: %s", sextant_details_pane_get_title (pane));
  g_assert_nonnull (strstr (sextant_details_pane_get_title (pane), "MPI_"));
}

/* The legend and the colour mode ---------------------------------------------------- */

static void
test_legend (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree guint8 *by_category = NULL;
  g_autofree guint8 *by_region = NULL;
  GtkWidget *legend;
  graphene_rect_t area;
  int width, height;

  open_and_wait (fixture, fixture->archive);
  legend = sextant_window_get_legend (fixture->window);
  g_assert_nonnull (legend);
  g_assert_true (gtk_widget_get_mapped (legend));
  {
    g_autofree guint8 *pixels = NULL;
    int lw, lh;

    pixels = sextant_test_render (legend, &lw, &lh);
    /* the swatches of MPI and user code */
    g_assert_cmpuint (sextant_test_count_regions (pixels, lw, lh,
                                                  sextant_timeline_category_color (SEXTANT_CATEGORY_MPI)), >=, 1);
    g_assert_cmpuint (sextant_test_count_regions (pixels, lw, lh,
                                                  sextant_timeline_category_color (SEXTANT_CATEGORY_USER)), >=, 1);
  }
  g_object_set (fixture->timeline, "show-messages", FALSE, "show-lost", FALSE, NULL);
  by_category = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_object_set (legend, "color-mode", SEXTANT_TIMELINE_COLOR_BY_REGION, NULL);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 2);
  {
    SextantTimelineColorMode mode;

    g_object_get (fixture->timeline, "color-mode", &mode, NULL);
    g_assert_cmpint (mode, ==, SEXTANT_TIMELINE_COLOR_BY_REGION);
  }
  by_region = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, 0, &area));
  area.size.height = height - area.origin.y;
  g_assert_cmpuint (count_changed (by_category, by_region, width, &area), >, 100);
}

/* Dense lines leave the rows readable ------------------------------------------------ */

static void
test_dense_lines (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree guint8 *without = NULL;
  g_autofree guint8 *with = NULL;
  graphene_rect_t first, area;
  int width, height;
  guint rows = 0, changed = 0, total = 0;
  SextantTimelineRows *model;

  open_and_wait (fixture, fixture->archive);
  model = sextant_timeline_get_rows (fixture->timeline);
  g_object_set (fixture->timeline, "show-messages", FALSE, "show-lost", FALSE, NULL);
  without = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_object_set (fixture->timeline, "show-messages", TRUE, NULL);
  with = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, 0, &first));
  for (guint r = 0; r < sextant_timeline_rows_get_n_rows (model); r++)
    {
      guint c;

      if (!sextant_timeline_get_row_area (fixture->timeline, r, &area) || area.origin.y + area.size.height > height)
        break;
      c = count_changed (without, with, width, &area);
      changed += c;
      total += (guint)(area.size.width * area.size.height);
      rows++;
      /* no row is covered */
      g_assert_cmpfloat ((double)c / (area.size.width * area.size.height), <, 0.6);
    }
  g_test_message ("%s, whole run: the lines changed %.1f %% of %u rows' pixels", (const char *)data,
                  100.0 * changed / MAX (total, 1), rows);
  g_assert_cmpuint (rows, >, 0);
  /* but they are drawn */
  g_assert_cmpuint (changed, >, 0);
  g_assert_cmpfloat ((double)changed / total, <, 0.35);
}

/* Lost time's style ----------------------------------------------------------------- */

static gboolean
instance_chosen (gpointer data)
{
  return sextant_session_get_instance (data) != NULL;
}

/* Whether one of @labels (GtkLabels) reads @text */
static gboolean
find_label (GPtrArray  *labels,
            const char *text)
{
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)), text) == 0)
      return TRUE;

  return FALSE;
}

static void
test_lost_style (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantLodReader) reader = NULL;
  g_autoptr(GArray) lost = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
  g_autoptr(GArray) locs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *without = NULL;
  g_autofree guint8 *with = NULL;
  g_autoptr(GHashTable) colors = g_hash_table_new (NULL, NULL);
  SextantSession *session;
  const SextantViewLost *widest = NULL;
  gboolean too_many = FALSE;
  graphene_rect_t area;
  int width, height;
  guint row = G_MAXUINT, red = 0;
  double x0, x1;

  open_and_wait (fixture, fixture->archive);
  session = session_of (fixture);
  locs = sextant_test_timeline_rows (fixture->timeline);
  store = open_store (fixture);
  reader = sextant_lod_reader_new (store, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_lod_reader_read_lost (reader, sextant_session_get_view_begin (session),
                                               sextant_session_get_view_end (session), 1000000, lost, &too_many,
                                               &error));
  g_assert_no_error (error);
  /* the longest instance on a row of one location */
  for (guint i = 0; i < lost->len; i++)
    {
      const SextantViewLost *l = &g_array_index (lost, SextantViewLost, i);

      for (guint r = 0; r < locs->len; r++)
        if (g_array_index (locs, gint64, r) == l->loc && (widest == NULL || l->end - l->begin > widest->end - widest->begin))
          {
            widest = l;
            row = r;
          }
    }
  g_assert_nonnull (widest);
  sextant_session_set_view (session, widest->begin - (widest->end - widest->begin) / 2,
                            widest->end + (widest->end - widest->begin) / 2);
  sextant_test_wait_until (timeline_ready, fixture->timeline, 60);
  g_object_set (fixture->timeline, "show-messages", FALSE, "show-lost", FALSE, NULL);
  without = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_object_set (fixture->timeline, "show-lost", TRUE, NULL);
  with = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, row, &area));
  x0 = sextant_timeline_x_for_time (fixture->timeline, widest->begin) + 2;
  x1 = sextant_timeline_x_for_time (fixture->timeline, widest->end) - 2;
  for (int y = (int)area.origin.y + 1; y < (int)(area.origin.y + area.size.height) - 1; y++)
    for (int x = (int)x0; x < (int)x1; x++)
      {
        const guint8 *p = with + ((gsize)y * width + x) * 4;

        g_hash_table_add (colors, GUINT_TO_POINTER (*(const guint32 *)p & 0xffffff));
        red += sextant_test_pixel_is (with, width, x, y, sextant_timeline_category_color (SEXTANT_CATEGORY_MPI));
      }
  g_test_message ("lost time of instance %" G_GINT64_FORMAT ": %u colours, %u pixels MPI red", widest->instance,
                  g_hash_table_size (colors), red);
  /* drawn, in a style of at least two colours (stripes), with MPI red no longer showing as such */
  area.origin.x = (float)x0;
  area.size.width = (float)(x1 - x0);
  g_assert_cmpuint (count_changed (without, with, width, &area), >, area.size.width * area.size.height / 4);
  g_assert_cmpuint (g_hash_table_size (colors), >=, 2);
  g_assert_cmpuint (red, <, area.size.width * area.size.height / 2);

  /* the legend names the patterns drawn by their titles, as the pattern
   * browser does, and forgets them when the lost time is hidden */
  {
    g_autoptr(GHashTable) numbers = sextant_store_list_pattern_numbers (store, &error);
    g_autoptr(GPtrArray) totals = sextant_store_list_pattern_totals (store, &error);
    g_autoptr(GPtrArray) labels = g_ptr_array_new ();
    const char *id, *title = NULL;

    g_assert_no_error (error);
    id = g_hash_table_lookup (numbers, GUINT_TO_POINTER (widest->pattern));
    g_assert_nonnull (id);
    for (guint i = 0; i < totals->len; i++)
      if (g_strcmp0 (((SextantPatternTotal *)g_ptr_array_index (totals, i))->id, id) == 0)
        title = ((SextantPatternTotal *)g_ptr_array_index (totals, i))->title;
    g_test_message ("lost time of %s, titled %s", id, title);
    g_assert_nonnull (title);
    sextant_test_collect_labels (sextant_window_get_legend (fixture->window), labels);
    g_assert_true (find_label (labels, title));
    g_assert_false (find_label (labels, id));
    g_object_set (fixture->timeline, "show-lost", FALSE, NULL);
    g_ptr_array_set_size (labels, 0);
    sextant_test_collect_labels (sextant_window_get_legend (fixture->window), labels);
    g_assert_false (find_label (labels, title));
  }

  /* a click on the lost time chooses an instance drawn there (the
   * shortest under the pointer): the pattern browser tells its story */
  {
    gint64 t = (widest->begin + widest->end) / 2;
    const SextantPatternInstance *chosen;

    g_object_set (fixture->timeline, "show-lost", TRUE, NULL);
    sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 2);
    g_assert_null (sextant_session_get_instance (session));
    sextant_test_click (GTK_WIDGET (fixture->timeline), sextant_timeline_x_for_time (fixture->timeline, t),
                        area.origin.y + area.size.height / 2);
    sextant_test_wait_until (instance_chosen, session, 30);
    chosen = sextant_instance_get_record (sextant_session_get_instance (session));
    g_test_message ("clicked at %" G_GINT64_FORMAT ": instance %" G_GINT64_FORMAT " (%s)", t, chosen->id,
                    chosen->pattern);
    g_assert_cmpint (chosen->loc, ==, widest->loc);
    g_assert_cmpint (chosen->begin, <=, t);
    g_assert_cmpint (chosen->end, >=, t);
    g_assert_cmpstr (sextant_pattern_browser_get_details (sextant_window_get_pattern_browser (fixture->window)), !=,
                     "Choose an instance to see what happened, where and why.");
    g_assert_nonnull (strstr (sextant_pattern_browser_get_details (sextant_window_get_pattern_browser (fixture->window)),
                              chosen->location));
  }
}

/* An instance and its peer in view -------------------------------------------------- */

/* Whether @loc's row lies wholly inside the plot's height */
static gboolean
row_in_view (Fixture *fixture,
             gint64   loc)
{
  SextantTimelineRows *rows = sextant_timeline_get_rows (fixture->timeline);
  int row = sextant_timeline_rows_row_of_loc (rows, loc);
  graphene_rect_t area;

  return row >= 0 && sextant_timeline_get_row_area (fixture->timeline, (guint)row, &area) && area.origin.y >= 26
         && area.origin.y + area.size.height <= gtk_widget_get_height (GTK_WIDGET (fixture->timeline));
}

/* Choosing a Late Sender scrolls its row into view, and the sender's with
 * it where the view holds both: 10 ranks under their nodes (20 rows) in a
 * window too short for all */
static void
test_instance_peer (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GError) error = NULL;
  SextantTimelineRows *rows;
  SextantSession *session;
  guint both = 0, checked = 0;

  open_and_wait (fixture, fixture->archive);
  session = session_of (fixture);
  rows = sextant_timeline_get_rows (fixture->timeline);
  store = open_store (fixture);
  list = sextant_store_list_pattern_instances (store, "late_sender", 1000, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < list->len; i++)
    {
      SextantPatternInstance *record = g_ptr_array_index (list, i);
      g_autoptr(SextantInstance) instance = NULL;
      graphene_rect_t first;
      double pitch, span;
      int a, b;

      if (record->peer_loc == SEXTANT_NULL)
        continue;
      /* from the top: a later choice must scroll back up */
      gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fixture->timeline)),
                                i % 2 == 0 ? 0 : 1e6);
      instance = sextant_instance_new (g_steal_pointer (&g_ptr_array_index (list, i)),
                                       sextant_session_get_resolution (session));
      record = (SextantPatternInstance *)sextant_instance_get_record (instance);
      sextant_session_choose_instance (session, instance);
      sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 2);
      a = sextant_timeline_rows_row_of_loc (rows, record->loc);
      b = sextant_timeline_rows_row_of_loc (rows, record->peer_loc);
      g_assert_true (sextant_timeline_get_row_area (fixture->timeline, 0, &first));
      pitch = first.size.height + 1;
      span = (ABS (a - b) + 3) * pitch;
      g_assert_true (row_in_view (fixture, record->loc));
      if (span <= gtk_widget_get_height (GTK_WIDGET (fixture->timeline)) - 26 - pitch)
        {
          g_assert_true (row_in_view (fixture, record->peer_loc));
          both++;
        }
      checked++;
    }
  g_test_message ("%u late senders chosen, %u with both rows fitting the view (%d px high)", checked, both,
                  gtk_widget_get_height (GTK_WIDGET (fixture->timeline)));
  g_assert_cmpuint (both, >, 0);
  g_assert_cmpuint (both, <, checked);   /* some pairs do not fit: the rows scroll */
}

/* One-sided operations as arrows ------------------------------------------------------ */

static void
test_rma_arrows (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *archive = sextant_test_record_onecoll (fixture->tmpdir);
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantLodReader) reader = NULL;
  g_autoptr(GArray) ops = g_array_new (FALSE, FALSE, sizeof (SextantViewRma));
  g_autoptr(GArray) locs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *without = NULL;
  g_autofree guint8 *with = NULL;
  SextantSession *session;
  const SextantViewRma *op = NULL;
  gboolean too_many = FALSE;
  int width, height;
  guint from = G_MAXUINT, to = G_MAXUINT, checked = 0;

  open_and_wait (fixture, archive);
  session = session_of (fixture);
  locs = sextant_test_timeline_rows (fixture->timeline);
  store = open_store (fixture);
  reader = sextant_lod_reader_new (store, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_lod_reader_read_rma (reader, sextant_session_get_view_begin (session),
                                              sextant_session_get_view_end (session), 1000000, ops, &too_many,
                                              &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ops->len, >, 0);
  /* a completed put between two rows of one location each */
  for (guint i = 0; i < ops->len && op == NULL; i++)
    {
      const SextantViewRma *o = &g_array_index (ops, SextantViewRma, i);

      from = to = G_MAXUINT;
      for (guint r = 0; r < locs->len; r++)
        {
          if (g_array_index (locs, gint64, r) == o->origin_loc)
            from = r;
          if (g_array_index (locs, gint64, r) == o->target_loc)
            to = r;
        }
      if (o->kind == SEXTANT_VIEW_RMA_PUT && o->complete_time != SEXTANT_NULL && from != G_MAXUINT &&
          to != G_MAXUINT && from != to && o->complete_time > o->issue_time)
        op = o;
    }
  g_assert_nonnull (op);
  /* the put in view, as wide as a fifth of the plot */
  {
    gint64 span = (op->complete_time - op->issue_time) * 5;

    sextant_session_set_view (session, op->issue_time - span * 2 / 5, op->issue_time + span * 3 / 5);
  }
  sextant_test_wait_until (timeline_ready, fixture->timeline, 60);
  g_object_set (fixture->timeline, "show-messages", FALSE, NULL);
  without = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_object_set (fixture->timeline, "show-messages", TRUE, NULL);
  with = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  {
    graphene_rect_t a, b;
    double x0 = sextant_timeline_x_for_time (fixture->timeline, op->issue_time);
    double x1 = sextant_timeline_x_for_time (fixture->timeline, op->complete_time);

    g_assert_true (sextant_timeline_get_row_area (fixture->timeline, from, &a));
    g_assert_true (sextant_timeline_get_row_area (fixture->timeline, to, &b));
    /* along the arrow, from a quarter to three quarters: drawn */
    for (guint q = 1; q <= 3; q++)
      {
        double x = x0 + (x1 - x0) * q / 4;
        double y = a.origin.y + a.size.height / 2 + (b.origin.y - a.origin.y) * q / 4;
        graphene_rect_t near = GRAPHENE_RECT_INIT ((float)x - 2, (float)y - 2, 5, 5);

        if (y < 0 || y >= height)
          continue;
        g_assert_cmpuint (count_changed (without, with, width, &near), >, 0);
        checked++;
      }
  }
  g_assert_cmpuint (checked, >, 0);
}

/* Lock waits: the holder's hold ------------------------------------------------------- */

/* tests/otf2gen's lock-storm-small (4 ranks taking locks in turn): the
 * longest wait in view, zoomed so that its holder's hold and the wait fill
 * most of the plot; the hold is drawn in the lock colour along the top of
 * the holder's row (not without the lines), the wait changes the bottom
 * of the waiter's; a click in the wait names the holder in the details */
static void
test_lock_holder (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *anchor = sextant_test_otf2gen ("lock-storm-small", fixture->tmpdir);
  SextantDetailsPane *pane = sextant_window_get_details_pane (fixture->window);
  g_autoptr(GArray) locs = NULL;
  g_autoptr(GArray) waits = g_array_new (FALSE, FALSE, sizeof (SextantLockWait));
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) locations = NULL;
  g_autofree guint8 *without = NULL;
  g_autofree guint8 *with = NULL;
  g_autofree char *text = NULL;
  SextantLodReader *reader;
  SextantSession *session;
  SextantLockWait wait = { 0 };
  guint holder_row = G_MAXUINT, waiter_row = G_MAXUINT;
  graphene_rect_t hold_area, wait_area;
  gboolean too_many = FALSE;
  const char *holder_label = NULL;
  int width, height;
  double x;

  open_and_wait (fixture, anchor);
  session = session_of (fixture);
  locs = sextant_test_timeline_rows (fixture->timeline);
  store = open_store (fixture);
  reader = sextant_lod_reader_new (store, &error);
  g_assert_no_error (error);
  g_assert_true (sextant_lod_reader_read_lock_waits (reader, sextant_session_get_view_begin (session),
                                                     sextant_session_get_view_end (session), 1, 1000000, waits,
                                                     &too_many, &error));
  g_assert_no_error (error);
  sextant_lod_reader_free (reader);
  g_assert_cmpuint (waits->len, >, 0);
  /* the longest wait */
  for (guint i = 0; i < waits->len; i++)
    {
      const SextantLockWait *w = &g_array_index (waits, SextantLockWait, i);

      if (w->acquired - w->asked > wait.acquired - wait.asked)
        wait = *w;
    }
  for (guint r = 0; r < locs->len; r++)
    {
      if (g_array_index (locs, gint64, r) == wait.holder_loc)
        holder_row = r;
      if (g_array_index (locs, gint64, r) == wait.loc)
        waiter_row = r;
    }
  g_assert_cmpuint (holder_row, !=, G_MAXUINT);
  g_assert_cmpuint (waiter_row, !=, G_MAXUINT);
  {
    gint64 t0 = MIN (wait.hold_begin, wait.asked), t1 = MAX (wait.acquired, wait.hold_end);

    sextant_session_set_view (session, t0 - (t1 - t0) / 4, t1 + (t1 - t0) / 4);
  }
  sextant_test_wait_until (timeline_ready, fixture->timeline, 60);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 2);
  g_object_set (fixture->timeline, "show-messages", FALSE, NULL);
  without = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_object_set (fixture->timeline, "show-messages", TRUE, NULL);
  with = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, holder_row, &hold_area));
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, waiter_row, &wait_area));
  g_assert_cmpfloat (hold_area.origin.y, >=, 0);
  g_assert_cmpfloat (wait_area.origin.y + wait_area.size.height, <, height);
  /* the hold: the lock colour along the top of the holder's row, from a
   * quarter to three quarters of it */
  for (guint q = 1; q <= 3; q++)
    {
      int y = (int)hold_area.origin.y + 1;

      x = sextant_timeline_x_for_time (fixture->timeline, wait.hold_begin + (wait.hold_end - wait.hold_begin) * q / 4);
      g_assert_true (sextant_test_pixel_near (with, width, (int)x, y, _sextant_timeline_lock_color (), 40));
      g_assert_false (sextant_test_pixel_near (without, width, (int)x, y, _sextant_timeline_lock_color (), 40));
    }
  /* the wait: the bottom of the waiter's row changed in its middle */
  x = sextant_timeline_x_for_time (fixture->timeline, wait.asked + (wait.acquired - wait.asked) / 2);
  g_assert_cmpuint (count_changed (without, with, width,
                                   &GRAPHENE_RECT_INIT ((float)x - 3, wait_area.origin.y + wait_area.size.height - 3,
                                                        7, 3)), >, 0);

  /* a click in the wait: the details name the holder */
  sextant_test_click (GTK_WIDGET (fixture->timeline), x, wait_area.origin.y + wait_area.size.height / 2);
  sextant_test_wait_for (pane, "ready", 30);
  text = sextant_details_pane_dup_text (pane);
  g_test_message ("details: %s", text);
  locations = sextant_store_list_locations (store, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < locations->len; i++)
    if (((const SextantLocationInfo *)g_ptr_array_index (locations, i))->id == wait.holder_loc)
      holder_label = ((const SextantLocationInfo *)g_ptr_array_index (locations, i))->label;
  g_assert_nonnull (holder_label);
  g_assert_nonnull (strstr (text, "Lock holder"));
  g_assert_nonnull (strstr (text, holder_label));
}

/* Thousands of ranks: the whole-machine mode -------------------------------------------- */

static void
test_whole_machine (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *source = g_getenv ("SEXTANT_TEST_1024_STORE");
  g_autofree char *copy = g_build_filename (fixture->tmpdir, "ranks.sextant.db", NULL);
  g_autofree guint8 *pixels = NULL;
  int width, height, drawn = 0;
  graphene_rect_t area = { { 0 } };

  /* a copy: the window analyses what it opens */
  g_assert_nonnull (source);
  sextant_test_copy_tree (source, copy);
  open_and_wait (fixture, copy);
  g_assert_true (sextant_timeline_get_whole_machine (fixture->timeline));
  g_object_set (fixture->timeline, "show-messages", FALSE, "show-lost", FALSE, NULL);
  pixels = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  /* every pixel row of the plot below the ruler has something drawn */
  for (int y = 30; y < height - 2; y++)
    {
      gboolean any = FALSE;

      for (int x = width / 2; x < width - 4 && !any; x++)
        {
          const guint8 *p = pixels + ((gsize)y * width + x) * 4;

          for (guint c = 0; c < SEXTANT_N_CATEGORIES && !any; c++)
            {
              const GdkRGBA *color = sextant_timeline_category_color (c);

              any = abs (p[2] - (int)lround (color->red * 255)) < 60 && abs (p[1] - (int)lround (color->green * 255)) < 60 &&
                    abs (p[0] - (int)lround (color->blue * 255)) < 60 && (p[0] != p[1] || p[1] != p[2]);
            }
        }
      drawn += any;
    }
  g_test_message ("whole machine: %d of %d pixel rows drawn", drawn, height - 32);
  g_assert_cmpint (drawn, >, (height - 32) * 9 / 10);
  /* H turns it off: rows again, scrolled */
  gtk_widget_grab_focus (GTK_WIDGET (fixture->timeline));
  sextant_test_xdotool ("key", "h", NULL);
  sextant_test_run_frames (GTK_WIDGET (fixture->timeline), 3);
  g_assert_false (sextant_timeline_get_whole_machine (fixture->timeline));
  g_assert_true (sextant_timeline_get_row_area (fixture->timeline, 0, &area));
  g_assert_cmpfloat (area.size.height, >=, 18);
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
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  g_test_add ("/timeline-view/rows", Fixture, "casita-1_scorep-ompt-host-nested", fixture_set_up, test_rows,
              fixture_tear_down);
  g_test_add ("/timeline-view/range-and-history", Fixture, "casita-4_mpi_ls_barr", fixture_set_up,
              test_range_and_history, fixture_tear_down);
  g_test_add ("/timeline-view/click-details", Fixture, "casita-4_mpi_ls_barr", fixture_set_up, test_click_details,
              fixture_tear_down);
  g_test_add ("/timeline-view/legend", Fixture, "casita-4_mpi_ls_barr", fixture_set_up, test_legend,
              fixture_tear_down);
  g_test_add ("/timeline-view/dense-lines", Fixture, "casita-2_jacobi_blame_cpu_015", fixture_set_up,
              test_dense_lines, fixture_tear_down);
  g_test_add ("/timeline-view/lost-style", Fixture, "casita-4_mpi_ls_barr", fixture_set_up, test_lost_style,
              fixture_tear_down);
  g_test_add ("/timeline-view/instance-peer", Fixture, "sstmacro-otf2_test_traces", fixture_set_up_short, test_instance_peer,
              fixture_tear_down);
  g_test_add ("/timeline-view/rma-arrows", Fixture, NULL, fixture_set_up, test_rma_arrows, fixture_tear_down);
  g_test_add ("/timeline-view/lock-holder", Fixture, NULL, fixture_set_up, test_lock_holder, fixture_tear_down);
  g_test_add ("/timeline-view/whole-machine", Fixture, NULL, fixture_set_up, test_whole_machine, fixture_tear_down);

  return g_test_run ();
}
