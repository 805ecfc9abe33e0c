/*
 * test-timeline.c: the pixels the timeline draws, against the trace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A real window under Xvfb (meson runs this through xvfb-run, with the
 * Cairo renderer) shows a third-party archive imported for the test. The
 * finest level of the pyramid says, for each pixel column of each row,
 * whether one category filled the column's whole time (then the whole
 * column of the row must be that category's colour) or nothing ran (then
 * none of it may be a category's colour). Checked for the whole run and
 * after zooming in and panning, where the widget reads other levels.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "sextant-lod-reader.h"
#include "sextant-test-util.h"
#include "sextant-ui-test-util.h"
#include "sextant-timeline.h"

typedef struct
{
  char            *tmpdir;
  SextantStore    *store;
  SextantSession  *session;
  GArray          *locs;        /* the rows' locations */
  GtkWidget       *window;
  SextantTimeline *timeline;
} Fixture;

typedef struct
{
  guint full;      /* columns that one category filled, checked */
  guint idle;      /* columns where nothing ran, checked */
} Checked;

/* Every row's pixel columns against the finest level of the pyramid */
static void
check_view (Fixture *fixture,
            Checked *checked)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autofree guint8 *pixels = NULL;
  int width, height;
  gint64 t0, t1;

  g_assert_no_error (error);
  /* the rows alone: message lines cross them */
  g_object_set (fixture->timeline, "show-messages", FALSE, NULL);
  pixels = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  g_object_set (fixture->timeline, "show-messages", TRUE, NULL);
  t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);

  for (guint row = 0; row < fixture->locs->len; row++)
    {
      g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
      graphene_rect_t area;
      double ticks_per_px;
      guint first = 0;

      if (g_array_index (fixture->locs, gint64, row) == SEXTANT_NULL)
        continue;
      g_assert_true (sextant_timeline_get_row_area (fixture->timeline, row, &area));
      /* the rows in view */
      if (area.origin.y + area.size.height > height)
        break;
      ticks_per_px = (double)(t1 - t0) / area.size.width;
      g_assert_true (sextant_lod_reader_read (reader, g_array_index (fixture->locs, gint64, row), 0,
                                              t0 - (gint64)ceil (ticks_per_px), t1 + (gint64)ceil (ticks_per_px),
                                              buckets, &error));
      g_assert_no_error (error);

      for (int col = 0; col < (int)area.size.width; col++)
        {
          /* the column and a column's width either side: whatever level
           * the widget read, a bucket that puts time into the column lies
           * in there (its buckets are at most a column wide, or they are
           * those of level 0) */
          double a = t0 + (col - 1) * ticks_per_px;
          double b = t0 + (col + 2) * ticks_per_px;
          int x = (int)area.origin.x + col;
          double reached = a;
          int category = -1;
          gboolean full = TRUE;
          gboolean any = FALSE;

          while (first < buckets->len && g_array_index (buckets, SextantLodBucket, first).end <= a)
            first++;
          for (guint i = first; i < buckets->len; i++)
            {
              const SextantLodBucket *k = &g_array_index (buckets, SextantLodBucket, i);

              if (k->begin >= b)
                break;
              any = TRUE;
              /* contiguous, busy all the time, and all of one category */
              full = full && k->begin <= reached && k->busy == k->end - k->begin;
              for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                if (k->time[c] > 0)
                  {
                    full = full && (category < 0 || category == (int)c) && k->time[c] == k->busy;
                    category = (int)c;
                  }
              reached = k->end;
            }
          full = full && any && reached >= b && category >= 0;

          if (!any)
            {
              for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                for (int y = (int)area.origin.y; y < (int)(area.origin.y + area.size.height); y++)
                  if (sextant_test_pixel_is (pixels, width, x, y, sextant_timeline_category_color (c)))
                    g_error ("row %u, column %d (x %d, y %d): nothing ran, but %s is drawn", row, col, x, y,
                             sextant_category_names[c]);
              checked->idle++;
            }
          else if (full)
            {
              const GdkRGBA *color = sextant_timeline_category_color ((guint)category);

              for (int y = (int)area.origin.y; y < (int)(area.origin.y + area.size.height); y++)
                if (!sextant_test_pixel_is (pixels, width, x, y, color))
                  g_error ("row %u, column %d (x %d, y %d): expected all %s", row, col, x, y,
                           sextant_category_names[category]);
              checked->full++;
            }
        }
    }
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (root);
  archive = g_build_filename (root, data, NULL);
  fixture->store = sextant_test_import (archive, &fixture->tmpdir);

  fixture->window = gtk_window_new ();
  fixture->timeline = SEXTANT_TIMELINE (sextant_timeline_new ());
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->timeline));
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 960, 400);
  gtk_window_present (GTK_WINDOW (fixture->window));
  fixture->session = sextant_test_load_session (sextant_store_get_path (fixture->store));
  sextant_timeline_set_session (fixture->timeline, fixture->session);
  sextant_test_wait_for (fixture->timeline, "ready", 30);
  fixture->locs = sextant_test_timeline_rows (fixture->timeline);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_clear_pointer (&fixture->locs, g_array_unref);
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->store);
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

static void
test_whole_run (Fixture       *fixture,
                gconstpointer  data)
{
  Checked checked = { 0 };
  gint64 t0, t1;
  g_autofree char *begin = sextant_store_get_meta (fixture->store, "time_begin");
  g_autofree char *end = sextant_store_get_meta (fixture->store, "time_end");

  /* the whole run, its last tick included */
  t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);
  g_assert_cmpint (t0, ==, g_ascii_strtoll (begin, NULL, 10));
  g_assert_cmpint (t1, ==, g_ascii_strtoll (end, NULL, 10) + 1);
  check_view (fixture, &checked);
  g_test_message ("%s, the whole run: %u columns of one category, %u idle", (const char *)data, checked.full,
                  checked.idle);
  g_assert_cmpuint (checked.full + checked.idle, >, 0);
}

static void
test_zoomed (Fixture       *fixture,
             gconstpointer  data)
{
  Checked checked = { 0 };
  gint64 t0, t1, z0, z1;

  /* 64 times closer, around a third of the run, then half a view on */
  t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);
  sextant_session_zoom (fixture->session, 64, 1.0 / 3);
  sextant_test_wait_for (fixture->timeline, "ready", 30);
  z0 = sextant_session_get_view_begin (fixture->session);
  z1 = sextant_session_get_view_end (fixture->session);
  g_assert_cmpint (z1 - z0, <, (t1 - t0) / 32);
  check_view (fixture, &checked);
  sextant_session_pan (fixture->session, 0.5);
  sextant_test_wait_for (fixture->timeline, "ready", 30);
  t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);
  g_assert_cmpint (t0, >, z0);
  check_view (fixture, &checked);
  g_test_message ("%s, zoomed in: %u columns of one category, %u idle", (const char *)data, checked.full,
                  checked.idle);
  g_assert_cmpuint (checked.full, >, 0);

  /* past the pyramid, where the widget draws the visits themselves: a
   * view a hundred times narrower than the base buckets' pixel width */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
    gint64 base = sextant_lod_reader_get_bucket_ticks (reader, 0);
    graphene_rect_t area;
    Checked exact = { 0 };

    g_assert_no_error (error);
    g_assert_true (sextant_timeline_get_row_area (fixture->timeline, 0, &area));
    t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);
    sextant_session_set_view (fixture->session, t0, t0 + MAX ((gint64)(base * area.size.width / 100), 1000));
    sextant_test_wait_for (fixture->timeline, "ready", 30);
    check_view (fixture, &exact);
    g_test_message ("%s, past the pyramid: %u columns of one category, %u idle", (const char *)data, exact.full,
                    exact.idle);
    g_assert_cmpuint (exact.full + exact.idle, >, 0);
  }
}

/* Message lines: at the middle of each line between two rows, where that
 * lies inside a row, a pixel of the line is dark (every channel below 110:
 * the line is 85 % black and 1.5 pixels wide, so even a pixel it covers by
 * three quarters over MPI red is; no category colour and no background
 * is) */
/* The message in the middle of @messages listed pair by pair, the pairs in
 * the order of their first message (by id), each pair's by send time: the
 * order in which the store holds them (the reader lists its pairs by
 * sender and receiver) */
static gint64
pair_first (GHashTable               *first_of_pair,
            const SextantViewMessage *m)
{
  gint64 key[2] = { m->send_loc, m->recv_loc };
  g_autoptr(GBytes) bytes = g_bytes_new (key, sizeof key);
  gpointer found = g_hash_table_lookup (first_of_pair, bytes);

  return found != NULL ? *(gint64 *)found : G_MAXINT64;
}

static int
compare_held (gconstpointer a,
              gconstpointer b,
              gpointer      first_of_pair)
{
  const SextantViewMessage *x = a;
  const SextantViewMessage *y = b;
  gint64 fx = pair_first (first_of_pair, x);
  gint64 fy = pair_first (first_of_pair, y);

  if (fx != fy)
    return fx < fy ? -1 : 1;

  return (x->send_time > y->send_time) - (x->send_time < y->send_time);
}

static SextantViewMessage
middle_message (GArray *messages)
{
  g_autoptr(GArray) held = g_array_copy (messages);
  g_autoptr(GHashTable) first_of_pair = NULL;

  first_of_pair = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref, g_free);
  for (guint i = 0; i < held->len; i++)
    {
      const SextantViewMessage *m = &g_array_index (held, SextantViewMessage, i);
      gint64 key[2] = { m->send_loc, m->recv_loc };
      g_autoptr(GBytes) bytes = g_bytes_new (key, sizeof key);
      gint64 *first = g_hash_table_lookup (first_of_pair, bytes);

      if (first == NULL)
        g_hash_table_insert (first_of_pair, g_bytes_ref (bytes), g_memdup2 (&m->id, sizeof m->id));
      else if (m->id < *first)
        *first = m->id;
    }
  g_array_sort_with_data (held, compare_held, first_of_pair);

  return g_array_index (held, SextantViewMessage, held->len / 2);
}

static void
test_messages (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) messages = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
  g_autofree guint8 *pixels = NULL;
  gboolean too_many = TRUE;
  int width, height;
  gsize stride;
  gint64 t0, t1;
  guint checked = 0, missed = 0;

  g_assert_no_error (error);
  /* around a message from the middle of the run, narrower and narrower
   * until the view has at most a few hundred in flight */
  t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);
  g_assert_true (sextant_lod_reader_read_messages (reader, NULL, 0, t0, t1, 10000000, messages, &too_many, &error));
  g_assert_no_error (error);
  g_assert_false (too_many);
  g_assert_cmpuint (messages->len, >, 0);
  {
    SextantViewMessage middle = middle_message (messages);
    gint64 margin = (t1 - t0) / 4;

    do
      {
        t0 = middle.send_time - margin;
        t1 = middle.recv_time + margin + 1;
        g_array_set_size (messages, 0);
        g_assert_true (sextant_lod_reader_read_messages (reader, NULL, 0, t0, t1, 40, messages, &too_many, &error));
        g_assert_no_error (error);
        margin /= 2;
      }
    while (too_many && margin > 0);
  }
  g_assert_false (too_many);
  sextant_session_set_view (fixture->session, t0, t1);
  sextant_test_wait_for (fixture->timeline, "ready", 30);
  t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);
  g_array_set_size (messages, 0);
  g_assert_true (sextant_lod_reader_read_messages (reader, NULL, 0, t0, t1, 40, messages, &too_many, &error));
  g_assert_no_error (error);
  pixels = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  stride = (gsize)width * 4;

  for (guint i = 0; i < messages->len; i++)
    {
      const SextantViewMessage *m = &g_array_index (messages, SextantViewMessage, i);
      graphene_rect_t from, to;
      double x0, x1, y0, y1;
      guint row_from = G_MAXUINT, row_to = G_MAXUINT;

      for (guint r = 0; r < fixture->locs->len; r++)
        {
          if (g_array_index (fixture->locs, gint64, r) == m->send_loc)
            row_from = r;
          if (g_array_index (fixture->locs, gint64, r) == m->recv_loc)
            row_to = r;
        }
      if (row_from == G_MAXUINT || row_to == G_MAXUINT || row_from == row_to)
        continue;
      g_assert_true (sextant_timeline_get_row_area (fixture->timeline, row_from, &from));
      g_assert_true (sextant_timeline_get_row_area (fixture->timeline, row_to, &to));
      x0 = sextant_timeline_x_for_time (fixture->timeline, m->send_time);
      x1 = sextant_timeline_x_for_time (fixture->timeline, m->recv_time);
      y0 = from.origin.y + from.size.height / 2;
      y1 = to.origin.y + to.size.height / 2;
      /* points a quarter, a half and three quarters along the line */
      for (guint q = 1; q <= 3; q++)
        {
          int xm = (int)lround (x0 + (x1 - x0) * q / 4);
          int ym = (int)lround (y0 + (y1 - y0) * q / 4);
          graphene_rect_t under;
          gboolean dark = FALSE;
          guint r = 0;

          /* inside the plot and inside a row, not in a gap between rows */
          if (xm < from.origin.x + 2 || xm > from.origin.x + from.size.width - 3)
            continue;
          while (sextant_timeline_get_row_area (fixture->timeline, r, &under) &&
                 !(ym >= under.origin.y + 1 && ym < under.origin.y + under.size.height - 1))
            r++;
          if (r >= fixture->locs->len)
            continue;
          /* a line, or the bundle of its pair's messages of the same
           * 16-pixel stretch (drawn from their mean times) */
          for (int dx = -8; dx <= 8; dx++)
            for (int dy = -1; dy <= 1; dy++)
              {
                const guint8 *p = pixels + (gsize)(ym + dy) * stride + (gsize)(xm + dx) * 4;

                if (xm + dx >= 0 && xm + dx < width)
                  dark = dark || (p[0] < 110 && p[1] < 110 && p[2] < 110);
              }
          if (!dark)
            {
              g_test_message ("the message from row %u at %.1f to row %u at %.1f has no line at (%d, %d)", row_from,
                              x0, row_to, x1, xm, ym);
              missed++;
            }
          checked++;
        }
    }
  g_test_message ("%s: %u messages in view, %u points of their lines checked, %u without a line", (const char *)data,
                  messages->len, checked, missed);
  g_assert_cmpuint (checked, >, 0);
  /* a few may be in a density band where the view is crowded */
  g_assert_cmpuint (missed * 10, <=, checked);
}

/* Collectives: a navy line across the members' rows where the last one
 * arrived; checked where it crosses a row between the first and the last
 * member's (the messages are drawn too: they are black, not navy) */
static void
test_collectives (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (SextantViewMember));
  g_autofree guint8 *pixels = NULL;
  gboolean too_many = TRUE;
  int width, height;
  gsize stride;
  gint64 t0, t1;
  guint checked = 0;
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));

  g_assert_no_error (error);
  /* around a collective from the middle of the run, narrower and narrower
   * until few are in view */
  t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);
  g_assert_true (sextant_lod_reader_read_collectives (reader, t0, t1, 10000000, members, &too_many, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (members->len, >, 0);
  {
    /* the collective whose last member arrived farthest from the run's
     * ends (a line at the edge of the view is not there to check) */
    gint64 sync = G_MININT64;
    gint64 margin = (t1 - t0) / 4;
    gint64 best = -1;

    for (guint i = 0; i < members->len; )
      {
        gint64 id = g_array_index (members, SextantViewMember, i).collective;
        gint64 last = G_MININT64;
        guint j;

        for (j = i; j < members->len && g_array_index (members, SextantViewMember, j).collective == id; j++)
          last = MAX (last, g_array_index (members, SextantViewMember, j).begin);
        if (MIN (last - t0, t1 - last) > best)
          {
            best = MIN (last - t0, t1 - last);
            sync = last;
          }
        i = j;
      }
    if (best < (t1 - t0) / 100)
      {
        g_test_skip ("every collective ends at an end of the run");
        return;
      }
    do
      {
        t0 = sync - margin;
        t1 = sync + margin + 1;
        g_array_set_size (members, 0);
        g_assert_true (sextant_lod_reader_read_collectives (reader, t0, t1, 64, members, &too_many, &error));
        g_assert_no_error (error);
        margin /= 2;
      }
    while (too_many && margin > 0);
  }
  sextant_session_set_view (fixture->session, t0, t1);
  sextant_test_wait_for (fixture->timeline, "ready", 30);
  t0 = sextant_session_get_view_begin (fixture->session);
  t1 = sextant_session_get_view_end (fixture->session);
  g_array_set_size (members, 0);
  g_assert_true (sextant_lod_reader_read_collectives (reader, t0, t1, 2000, members, &too_many, &error));
  g_assert_no_error (error);
  g_assert_false (too_many);
  pixels = sextant_test_render (GTK_WIDGET (fixture->timeline), &width, &height);
  stride = (gsize)width * 4;
  /* where each collective's line is: those closer than 7 pixels to
   * another are drawn as a band (the collectives' layer), not checked */
  for (guint i = 0; i < members->len; )
    {
      gint64 id = g_array_index (members, SextantViewMember, i).collective;
      gint64 last = G_MININT64;
      double x;

      for (; i < members->len && g_array_index (members, SextantViewMember, i).collective == id; i++)
        last = MAX (last, g_array_index (members, SextantViewMember, i).begin);
      x = sextant_timeline_x_for_time (fixture->timeline, last);
      g_array_append_val (xs, x);
    }

  for (guint i = 0, n = 0; i < members->len; n++)
    {
      gint64 id = g_array_index (members, SextantViewMember, i).collective;
      gint64 last = G_MININT64;
      guint top = G_MAXUINT, bottom = 0;
      gboolean apart = TRUE;
      guint j;
      int x;

      for (guint k = 0; k < xs->len; k++)
        apart = apart && (k == n || fabs (g_array_index (xs, double, k) - g_array_index (xs, double, n)) >= 7);

      for (j = i; j < members->len && g_array_index (members, SextantViewMember, j).collective == id; j++)
        {
          const SextantViewMember *m = &g_array_index (members, SextantViewMember, j);

          last = MAX (last, m->begin);
          for (guint r = 0; r < fixture->locs->len; r++)
            if (g_array_index (fixture->locs, gint64, r) == m->loc)
              {
                top = MIN (top, r);
                bottom = MAX (bottom, r);
              }
        }
      i = j;
      x = (int)lround (sextant_timeline_x_for_time (fixture->timeline, last));
      for (guint r = top + 1; apart && top != G_MAXUINT && r < bottom; r++)
        {
          graphene_rect_t area;
          gboolean navy = FALSE;
          int y;

          g_assert_true (sextant_timeline_get_row_area (fixture->timeline, r, &area));
          /* the rows in view */
          if (area.origin.y + area.size.height > height)
            break;
          if (x < area.origin.x + 2 || x > area.origin.x + area.size.width - 3)
            continue;
          y = (int)(area.origin.y + area.size.height / 2);
          for (int dx = -1; dx <= 1; dx++)
            {
              const guint8 *p = pixels + (gsize)y * stride + (gsize)(x + dx) * 4;
              int b = p[0], g = p[1], red = p[2];   /* B, G, R in memory */

              navy = navy || (red < 80 && g < 80 && b >= 70 && b - red >= 40);
            }
          if (!navy)
            g_error ("collective %" G_GINT64_FORMAT ": no line across row %u at x %d", id, r, x);
          checked++;
        }
    }
  g_test_message ("%s: %u members in view, %u crossings checked", (const char *)data, members->len, checked);
  g_assert_cmpuint (checked, >, 0);
}

/* `sextant open --screenshot`: an archive is imported and the window's
 * PNG has the size asked for; a missing archive and a file that is not a
 * store each end with the problem on stderr and exit status 1. */
static void
run_open (const char  *path,
          const char  *png,
          int         *status,
          char       **err)
{
  const char *sextant = g_getenv ("SEXTANT");
  const char *argv[] = { sextant, "--size", "900x320", "--screenshot", png, path, NULL };
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  g_assert_nonnull (sextant);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, err,
                               &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  *status = WEXITSTATUS (wait_status);
}

static void
test_app_screenshot (void)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *archive = g_build_filename (tmpdir, "casita", NULL);
  g_autofree char *source = g_build_filename (root, "casita-4_mpi_ls_barr", NULL);
  g_autofree char *png = g_build_filename (tmpdir, "window.png", NULL);
  g_autofree char *garbage = g_build_filename (tmpdir, "garbage.db", NULL);
  g_autofree char *missing = g_build_filename (tmpdir, "missing", NULL);
  g_autofree char *err = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  const char *cp[] = { "cp", "-r", source, archive, NULL };
  int status = -1;

  g_assert_no_error (error);
  g_assert_true (g_spawn_sync (NULL, (char **)cp, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);

  /* an archive: imported, then drawn */
  run_open (archive, png, &status, &err);
  g_assert_cmpint (status, ==, 0);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (ABS (gdk_texture_get_width (texture) - 900), <=, 30);
  g_assert_cmpint (ABS (gdk_texture_get_height (texture) - 320), <=, 30);

  g_clear_pointer (&err, g_free);
  run_open (missing, png, &status, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "missing: no such file or directory"));

  g_assert_true (g_file_set_contents (garbage, "not a database", -1, NULL));
  g_clear_pointer (&err, g_free);
  run_open (garbage, png, &status, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "garbage.db: not a Sextant trace store"));

  sextant_test_remove_tree (tmpdir);
}

int
main (int    argc,
      char **argv)
{
  static const char * const archives[] = { "casita-4_mpi_ls_barr", "sstmacro-otf2_test_traces" };

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("no display: run under xvfb-run\n");
      return 1;
    }

  g_test_add_func ("/timeline/app/screenshot-and-errors", test_app_screenshot);
  for (guint i = 0; i < G_N_ELEMENTS (archives); i++)
    {
      g_autofree char *whole = g_strdup_printf ("/timeline/whole-run/%s", archives[i]);
      g_autofree char *zoomed = g_strdup_printf ("/timeline/zoomed/%s", archives[i]);
      g_autofree char *lines = g_strdup_printf ("/timeline/messages/%s", archives[i]);
      g_autofree char *collectives = g_strdup_printf ("/timeline/collectives/%s", archives[i]);

      g_test_add (whole, Fixture, archives[i], fixture_set_up, test_whole_run, fixture_tear_down);
      g_test_add (zoomed, Fixture, archives[i], fixture_set_up, test_zoomed, fixture_tear_down);
      g_test_add (lines, Fixture, archives[i], fixture_set_up, test_messages, fixture_tear_down);
      g_test_add (collectives, Fixture, archives[i], fixture_set_up, test_collectives, fixture_tear_down);
    }

  return g_test_run ();
}
