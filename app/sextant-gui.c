/*
 * sextant-gui.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include <gtk/gtk.h>

#include "sextant-gui.h"
#include "sextant-window.h"

typedef struct
{
  char          *path;
  char          *screenshot;
  int            width;
  int            height;
  int            status;
  SextantWindow *window;
  GdkPaintable  *paintable;
  guint          frames_waited;
  double         from;        /* --view, seconds */
  double         to;
  char          *source_root;
  gboolean       show_worst;
} Gui;

/* The window as it was last drawn (its paintable follows what it draws),
 * rendered by its own renderer; %NULL while it has not drawn yet. */
static GdkTexture *
render_window (Gui *gui)
{
  GtkWidget *widget = GTK_WIDGET (gui->window);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (gui->paintable, GDK_SNAPSHOT (snapshot), width, height);
  if ((node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot))) == NULL)
    return NULL;

  return gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* At the frames after the timeline has its data: the 15th (or the first
 * after it that the window has drawn) goes to the PNG. */
static gboolean
shoot_cb (GtkWidget     *widget,
          GdkFrameClock *clock,
          gpointer       user_data)
{
  Gui *gui = user_data;
  g_autoptr(GdkTexture) texture = NULL;

  /* a few frames for what settles after the data came (the source view
   * scrolls to its line once the text is laid out) */
  if (++gui->frames_waited < 15)
    return G_SOURCE_CONTINUE;
  if ((texture = render_window (gui)) == NULL && gui->frames_waited < 100)
    return G_SOURCE_CONTINUE;

  if (texture == NULL)
    {
      fprintf (stderr, "sextant: the window drew nothing\n");
      gui->status = 1;
    }
  else if (!gdk_texture_save_to_png (texture, gui->screenshot))
    {
      fprintf (stderr, "sextant: %s: cannot write the PNG\n", gui->screenshot);
      gui->status = 1;
    }
  gtk_window_destroy (GTK_WINDOW (widget));

  return G_SOURCE_REMOVE;
}

static void
window_error_cb (SextantWindow *window,
                 GParamSpec    *pspec,
                 Gui           *gui)
{
  if (sextant_window_get_error (window) == NULL)
    return;

  fprintf (stderr, "sextant: %s\n", sextant_window_get_error (window));
  gui->status = 1;
  g_signal_handlers_disconnect_by_data (window, gui);
  g_signal_handlers_disconnect_by_data (sextant_window_get_timeline (window), gui);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The screenshot is taken when the patterns are listed and the timeline
 * shows its data; with --show-worst, after the worst instance was chosen
 * and the timeline went there. */
static void
ready_changed_cb (GObject    *object,
                  GParamSpec *pspec,
                  Gui        *gui)
{
  SextantTimeline *timeline = sextant_window_get_timeline (gui->window);
  SextantPatternBrowser *browser = sextant_window_get_pattern_browser (gui->window);

  if (!sextant_timeline_get_ready (timeline) || !sextant_pattern_browser_get_ready (browser))
    return;
  if (gui->show_worst && g_list_model_get_n_items (sextant_pattern_browser_get_instances (browser)) > 0)
    {
      gui->show_worst = FALSE;
      sextant_pattern_browser_activate (browser, 0);
      /* the timeline moves, and is ready again once it has read there */
      if (!sextant_timeline_get_ready (timeline))
        return;
    }

  g_signal_handlers_disconnect_by_data (timeline, gui);
  g_signal_handlers_disconnect_by_data (browser, gui);
  gui->paintable = gtk_widget_paintable_new (GTK_WIDGET (gui->window));
  gtk_widget_add_tick_callback (GTK_WIDGET (gui->window), shoot_cb, gui, NULL);
}

static void
activate_cb (GtkApplication *app,
             Gui            *gui)
{
  gui->window = sextant_window_new (app);
  if (gui->screenshot != NULL)
    {
      SextantTimeline *timeline = sextant_window_get_timeline (gui->window);

      gtk_window_set_default_size (GTK_WINDOW (gui->window), gui->width, gui->height);
      g_signal_connect (timeline, "notify::ready", G_CALLBACK (ready_changed_cb), gui);
      g_signal_connect (sextant_window_get_pattern_browser (gui->window), "notify::ready",
                        G_CALLBACK (ready_changed_cb), gui);
      g_signal_connect (gui->window, "notify::error", G_CALLBACK (window_error_cb), gui);
    }
  if (gui->to > gui->from)
    sextant_timeline_set_view_seconds (sextant_window_get_timeline (gui->window), gui->from, gui->to);
  if (gui->source_root != NULL)
    sextant_window_set_source_root (gui->window, gui->source_root);
  if (gui->path != NULL)
    sextant_window_open (gui->window, gui->path);
  gtk_window_present (GTK_WINDOW (gui->window));
}

int
sextant_gui_run (int    argc,
                 char **argv)
{
  Gui gui = { NULL, NULL, 1200, 640, 0, NULL, NULL, 0, 0, 0, NULL, FALSE };
  char *size = NULL;
  char *view = NULL;
  GOptionEntry entries[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &gui.screenshot,
      "Write the window to a PNG once the timeline is drawn, then quit", "PNG" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "The window's size for --screenshot (1200x640)", "WxH" },
    { "view", 0, 0, G_OPTION_ARG_STRING, &view, "Show this time range, seconds since the run's start", "FROM:TO" },
    { "source-root", 0, 0, G_OPTION_ARG_FILENAME, &gui.source_root,
      "Look for source files that are not where the trace says in DIR", "DIR" },
    { "show-worst", 0, 0, G_OPTION_ARG_NONE, &gui.show_worst,
      "Choose the worst pattern instance (for --screenshot)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[ARCHIVE|DB] - open the application window");
  g_autoptr(GtkApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  char *args[] = { argv[0], NULL };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "sextant open: %s\n", error->message);
      return 2;
    }
  if (argc > 2 || (size != NULL && sscanf (size, "%dx%d", &gui.width, &gui.height) != 2) ||
      gui.width < 100 || gui.height < 100 || (gui.screenshot != NULL && argc != 2) ||
      (view != NULL && (sscanf (view, "%lf:%lf", &gui.from, &gui.to) != 2 || !(gui.to > gui.from))))
    {
      fprintf (stderr, "sextant open: expected [--view FROM:TO] [--source-root DIR] "
               "[--screenshot PNG [--size WxH] [--show-worst]] [ARCHIVE|DB]\n");
      return 2;
    }
  gui.path = argc == 2 ? argv[1] : NULL;

  if (!gtk_init_check ())
    {
      fprintf (stderr, "sextant open: cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?)\n");
      return 1;
    }

  app = gtk_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), &gui);
  if (g_application_run (G_APPLICATION (app), 1, args) != 0 && gui.status == 0)
    gui.status = 1;

  g_free (size);
  g_free (view);
  g_free (gui.screenshot);
  g_free (gui.source_root);
  g_clear_object (&gui.paintable);

  return gui.status;
}
