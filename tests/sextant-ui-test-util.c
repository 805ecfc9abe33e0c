/*
 * sextant-ui-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gdk/x11/gdkx.h>
#include <math.h>

#include "sextant-pattern-browser.h"
#include "sextant-timeline.h"
#include "sextant-ui-test-util.h"

static gboolean
timed_out (gpointer data)
{
  *(gboolean *)data = TRUE;

  return G_SOURCE_REMOVE;
}

void
sextant_test_wait_for (gpointer    object,
                       const char *property,
                       guint       seconds)
{
  gboolean late = FALSE;
  guint timeout = g_timeout_add_seconds (seconds, timed_out, &late);
  gboolean value = FALSE;

  for (;;)
    {
      g_object_get (object, property, &value, NULL);
      if (value || late)
        break;
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_false (late);
  g_source_remove (timeout);
}

static gboolean
count_frame (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       data)
{
  (*(guint *)data)++;

  return G_SOURCE_CONTINUE;
}

void
sextant_test_collect_labels (GtkWidget *widget,
                             GPtrArray *labels)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (labels, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    sextant_test_collect_labels (child, labels);
}

void
sextant_test_run_frames (GtkWidget *widget,
                         guint      n)
{
  guint frames = 0;
  guint tick = gtk_widget_add_tick_callback (widget, count_frame, &frames, NULL);

  gtk_widget_queue_draw (widget);
  while (frames < n)
    g_main_context_iteration (NULL, TRUE);
  gtk_widget_remove_tick_callback (widget, tick);
}

guint8 *
sextant_test_render (GtkWidget *widget,
                     int       *width,
                     int       *height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  guint8 *pixels;

  sextant_test_run_frames (widget, 5);
  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), *width, *height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  pixels = g_malloc ((gsize)*width * 4 * *height);
  gdk_texture_download (texture, pixels, (gsize)*width * 4);

  return pixels;
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GError **error = user_data;

  if (!sextant_session_load_finish (SEXTANT_SESSION (object), result, error))
    g_assert_nonnull (*error);
}

SextantSession *
sextant_test_load_session (const char *path)
{
  g_autoptr(SextantSession) session = sextant_session_new (path);
  g_autoptr(GError) error = NULL;

  sextant_session_load_async (session, NULL, loaded_cb, &error);
  while (!sextant_session_get_loaded (session) && error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (error);

  return g_steal_pointer (&session);
}

void
sextant_test_wait_until (gboolean (*done) (gpointer data),
                         gpointer   data,
                         guint      seconds)
{
  gboolean late = FALSE;
  guint timeout = g_timeout_add_seconds (seconds, timed_out, &late);

  while (!done (data) && !late)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (late);
  g_source_remove (timeout);
}

static void
analysed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (sextant_session_analyse_finish (SEXTANT_SESSION (object), result, &error));
  g_assert_no_error (error);
  *(gboolean *)user_data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *)data;
}

void
sextant_test_analyse (SextantSession     *session,
                      const char * const *patterns)
{
  gboolean done = FALSE;

  sextant_session_analyse_async (session, patterns, NULL, NULL, analysed_cb, &done);
  sextant_test_wait_until (is_true, &done, 300);
}

void
sextant_test_xdotool (const char *first,
                      ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;
  va_list args;

  g_ptr_array_add (argv, (char *)"xdotool");
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *)a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static char *
window_xid (GtkNative *native)
{
  return g_strdup_printf ("%lu", (gulong)gdk_x11_surface_get_xid (gtk_native_get_surface (native)));
}

void
sextant_test_focus_window (GtkWindow *window)
{
  g_autofree char *xid = NULL;

  if (g_find_program_in_path ("xdotool") == NULL)
    return;

  sextant_test_run_frames (GTK_WIDGET (window), 1);
  xid = window_xid (GTK_NATIVE (window));
  sextant_test_xdotool ("windowfocus", "--sync", xid, NULL);
  sextant_test_wait_for (window, "is-active", 10);
}

/* @widget's point (@x, @y) on its surface, as xdotool wants it */
static void
surface_point (GtkWidget *widget,
               double     x,
               double     y,
               char     **sx,
               char     **sy)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t at;
  double dx, dy;

  /* the widget's point in the surface's coordinates (past its shadow) */
  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &at));
  gtk_native_get_surface_transform (native, &dx, &dy);
  /* a point on the window's right or bottom edge (a time at the end of
   * the run): its last pixel, not the one past it */
  at.x = CLAMP (at.x, 0, gtk_widget_get_width (GTK_WIDGET (native)) - 1);
  at.y = CLAMP (at.y, 0, gtk_widget_get_height (GTK_WIDGET (native)) - 1);
  *sx = g_strdup_printf ("%d", (int)lround (at.x + dx));
  *sy = g_strdup_printf ("%d", (int)lround (at.y + dy));
}

void
sextant_test_click (GtkWidget *widget,
                    double     x,
                    double     y)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  g_autofree char *xid = window_xid (gtk_widget_get_native (widget));
  g_autofree char *sx = NULL;
  g_autofree char *sy = NULL;

  /* in view first, when the widget scrolls */
  if (scrolled != NULL)
    {
      GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
      graphene_point_t inside;
      double content;

      /* the point in the scrolled content: in its viewport, plus the scroll */
      g_assert_true (gtk_widget_compute_point (widget, scrolled, &GRAPHENE_POINT_INIT (x, y), &inside));
      content = inside.y + gtk_adjustment_get_value (adjustment);
      gtk_adjustment_clamp_page (adjustment, content - 40, content + 40);
      sextant_test_run_frames (widget, 3);
    }
  surface_point (widget, x, y, &sx, &sy);
  /* one connection: the move, then the click (--sync would wait for a
   * motion that never comes when the pointer is there already) */
  sextant_test_xdotool ("mousemove", "--window", xid, sx, sy, "click", "1", NULL);
  /* a round trip: the events came */
  sextant_test_run_frames (widget, 3);
}


void
sextant_test_drag (GtkWidget  *widget,
                   double      x0,
                   double      y0,
                   double      x1,
                   double      y1,
                   const char *key)
{
  g_autofree char *xid = window_xid (gtk_widget_get_native (widget));
  g_autofree char *sx0 = NULL, *sy0 = NULL, *sx1 = NULL, *sy1 = NULL, *mx = NULL, *my = NULL;

  surface_point (widget, x0, y0, &sx0, &sy0);
  surface_point (widget, (x0 + x1) / 2, (y0 + y1) / 2, &mx, &my);
  surface_point (widget, x1, y1, &sx1, &sy1);
  sextant_test_xdotool ("mousemove", "--window", xid, sx0, sy0, NULL);
  sextant_test_run_frames (widget, 2);
  if (key != NULL)
    sextant_test_xdotool ("keydown", key, NULL);
  sextant_test_xdotool ("mousedown", "1", "mousemove", "--window", xid, mx, my, NULL);
  sextant_test_run_frames (widget, 2);
  sextant_test_xdotool ("mousemove", "--window", xid, sx1, sy1, NULL);
  sextant_test_run_frames (widget, 2);
  sextant_test_xdotool ("mouseup", "1", NULL);
  if (key != NULL)
    sextant_test_xdotool ("keyup", key, NULL);
  sextant_test_run_frames (widget, 3);
}

gboolean
sextant_test_pixel_near (const guint8  *pixels,
                         int            width,
                         int            x,
                         int            y,
                         const GdkRGBA *color,
                         int            tolerance)
{
  const guint8 *p = pixels + ((gsize)y * width + x) * 4;
  guint32 argb = *(const guint32 *)p;
  int r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;

  return abs (r - (int)lround (color->red * 255)) <= tolerance &&
         abs (g - (int)lround (color->green * 255)) <= tolerance &&
         abs (b - (int)lround (color->blue * 255)) <= tolerance;
}

gboolean
sextant_test_pixel_is (const guint8  *pixels,
                       int            width,
                       int            x,
                       int            y,
                       const GdkRGBA *color)
{
  return sextant_test_pixel_near (pixels, width, x, y, color, 2);
}

guint
sextant_test_count_regions (const guint8  *pixels,
                            int            width,
                            int            height,
                            const GdkRGBA *color)
{
  g_autofree guint8 *seen = g_new0 (guint8, (gsize)width * height);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (int));
  guint regions = 0;

  for (int start = 0; start < width * height; start++)
    {
      if (seen[start] || !sextant_test_pixel_is (pixels, width, start % width, start / width, color))
        continue;
      regions++;
      seen[start] = 1;
      g_array_append_val (stack, start);
      while (stack->len > 0)
        {
          int at = g_array_index (stack, int, stack->len - 1);
          int x = at % width, y = at / width;
          int next[4] = { x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, y > 0 ? at - width : -1,
                          y < height - 1 ? at + width : -1 };

          g_array_set_size (stack, stack->len - 1);
          for (int k = 0; k < 4; k++)
            if (next[k] >= 0 && !seen[next[k]] &&
                sextant_test_pixel_is (pixels, width, next[k] % width, next[k] / width, color))
              {
                seen[next[k]] = 1;
                g_array_append_val (stack, next[k]);
              }
        }
    }

  return regions;
}

char *
sextant_test_record_program (const char        *dir,
                             const char        *program,
                             int                np,
                             const char *const *args)
{
  const char *mpirun = g_getenv ("SEXTANT_TEST_MPIRUN");
  g_autofree char *trace = g_build_filename (dir, "trace", NULL);
  g_autofree char *ranks = g_strdup_printf ("%d", np);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *const head[] = { "timeout", "--kill-after=10", "180", mpirun, "--oversubscribe", "--allow-run-as-root",
                               "--bind-to", "none", "--mca", "osc", "sm", "--mca", "btl", "self,vader",
                               "-x", "SEXTANT_RECORD_DIR", "-np", ranks, program };
  g_auto(GStrv) env = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_assert_nonnull (program);
  g_assert_nonnull (mpirun);
  for (guint i = 0; i < G_N_ELEMENTS (head); i++)
    g_ptr_array_add (argv, (gpointer)head[i]);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);
  env = g_environ_setenv (env, "SEXTANT_RECORD_DIR", trace, TRUE);
  env = g_environ_setenv (env, "OMPI_ALLOW_RUN_AS_ROOT", "1", TRUE);
  env = g_environ_setenv (env, "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **)argv->pdata, env, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s on %d ranks failed: %s", program, np, err);

  return g_build_filename (trace, "traces.otf2", NULL);
}

char *
sextant_test_record_onecoll (const char *dir)
{
  return sextant_test_record_program (dir, g_getenv ("SEXTANT_TEST_ONECOLL"), 4, NULL);
}

GArray *
sextant_test_timeline_rows (gpointer timeline)
{
  SextantTimelineRows *rows = sextant_timeline_get_rows (timeline);
  GArray *locs = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_assert_nonnull (rows);
  for (guint i = 0; i < sextant_timeline_rows_get_n_rows (rows); i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (rows, i);
      gint64 loc = row->kind == SEXTANT_TIMELINE_ROW_COUNTER || row->locs->len != 1
                   ? SEXTANT_NULL : g_array_index (row->locs, gint64, 0);

      g_array_append_val (locs, loc);
    }

  return locs;
}

SextantInstance *
sextant_test_instance_at (gpointer browser,
                          guint    i)
{
  SextantInstance *instance = g_list_model_get_item (sextant_pattern_browser_get_instances (browser), i);

  g_assert_nonnull (instance);
  g_object_unref (instance);   /* the list keeps it */

  return instance;
}
