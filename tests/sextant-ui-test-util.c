/*
 * sextant-ui-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

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
