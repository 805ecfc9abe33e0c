/*
 * sextant-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The command line is parsed twice: once in this process, strictly, so
 * that a bad option or value ends in a clear message and exit status 2
 * before anything starts; and once by GApplication in the instance that
 * handles it (this one, or the one already running on the desktop, which
 * then opens the files relative to this process's directory).
 */
#include "config.h"

#include <stdio.h>

#include "sextant-application.h"
#include "sextant-importer.h"
#include "sextant-export.h"
#include "sextant-preferences-window.h"
#include "sextant-settings.h"
#include "sextant-window.h"

struct _SextantApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  gboolean        one_shot;     /* --screenshot or --export: a window, a file, then quit */
  int             exit_status;  /* of a one-shot run */
};

G_DEFINE_FINAL_TYPE (SextantApplication, sextant_application, ADW_TYPE_APPLICATION)

/* The options of `sextant [FILE...]` (GApplication fills its dictionary) */
static const GOptionEntry gui_entries[] = {
  { "view", 0, 0, G_OPTION_ARG_STRING, NULL,
    "Show this time range, in seconds since the run's start", "FROM:TO" },
  { "source-root", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL,
    "Also look for source files the trace names in DIR (may be repeated)", "DIR" },
  { "show-worst", 0, 0, G_OPTION_ARG_NONE, NULL,
    "Choose the worst instance of the worst pattern once it is listed", NULL },
  { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    "Write the window to a PNG once the trace is drawn (without one: the start page), then quit", "PNG" },
  { "export", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    "Write the timeline as drawn to FILE (.png, .svg or .pdf), then quit", "FILE" },
  { "size", 0, 0, G_OPTION_ARG_STRING, NULL,
    "The window's size for --screenshot and --export (default 1200x720)", "WxH" },
  { "page", 0, 0, G_OPTION_ARG_STRING, NULL,
    "The page under the timeline: source (the default), tree or matrix", "PAGE" },
  { "collective", 0, 0, G_OPTION_ARG_STRING, NULL,
    "Choose this collective (an id of `sextant info --collectives`) and show its tree", "ID" },
  { "instance", 0, 0, G_OPTION_ARG_INT64, NULL,
    "Choose this pattern instance (an id of `sextant analyze --json`) once the trace is analysed", "ID" },
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, "[ARCHIVE|DB...]" },
  { NULL }
};

/* What one command line asks for */
typedef struct
{
  char    *view;
  char   **source_roots;
  gboolean show_worst;
  char    *screenshot;
  char    *export;
  char    *size;
  char    *page;
  char    *collective;
  gint64   instance;   /* 0: none (ids count from 1) */
  char   **files;
  double   from;       /* --view, parsed */
  double   to;
  int      width;      /* --size, parsed */
  int      height;
} Request;

static void
request_clear (Request *request)
{
  g_clear_pointer (&request->view, g_free);
  g_clear_pointer (&request->source_roots, g_strfreev);
  g_clear_pointer (&request->screenshot, g_free);
  g_clear_pointer (&request->export, g_free);
  g_clear_pointer (&request->size, g_free);
  g_clear_pointer (&request->page, g_free);
  g_clear_pointer (&request->collective, g_free);
  g_clear_pointer (&request->files, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Request, request_clear)

/* Checks the values; FALSE with a message that says what is wrong */
static gboolean
request_check (Request  *request,
               char    **message)
{
  guint n_files = request->files != NULL ? g_strv_length (request->files) : 0;

  request->width = 1200;
  request->height = 720;
  if (request->view != NULL)
    {
      char *colon = strchr (request->view, ':');
      char *end = NULL;

      if (colon == NULL)
        {
          *message = g_strdup_printf ("--view %s: expected FROM:TO, in seconds (--view 1.5:2)", request->view);
          return FALSE;
        }
      request->from = g_ascii_strtod (request->view, &end);
      if (end != colon || colon == request->view)
        {
          *message = g_strdup_printf ("--view %s: FROM is not a number of seconds", request->view);
          return FALSE;
        }
      request->to = g_ascii_strtod (colon + 1, &end);
      if (*end != '\0' || end == colon + 1)
        {
          *message = g_strdup_printf ("--view %s: TO is not a number of seconds", request->view);
          return FALSE;
        }
      if (!(request->to > request->from) || request->from < 0)
        {
          *message = g_strdup_printf ("--view %s: FROM must be at least 0 and less than TO", request->view);
          return FALSE;
        }
    }
  if (request->size != NULL)
    {
      char *end = NULL;

      request->width = (int)g_ascii_strtoll (request->size, &end, 10);
      if (*end != 'x' || end == request->size)
        {
          *message = g_strdup_printf ("--size %s: expected WIDTHxHEIGHT in pixels (--size 1400x800)", request->size);
          return FALSE;
        }
      request->height = (int)g_ascii_strtoll (end + 1, &end, 10);
      if (*end != '\0' || request->width < 320 || request->height < 240 || request->width > 16384 ||
          request->height > 16384)
        {
          *message = g_strdup_printf ("--size %s: WIDTH and HEIGHT must be 320x240 to 16384x16384", request->size);
          return FALSE;
        }
    }
  if (request->page != NULL && !g_str_equal (request->page, "source") && !g_str_equal (request->page, "tree") &&
      !g_str_equal (request->page, "matrix"))
    {
      *message = g_strdup_printf ("--page %s: expected source, tree or matrix", request->page);
      return FALSE;
    }
  if (request->instance < 0)
    {
      *message = g_strdup_printf ("--instance %" G_GINT64_FORMAT ": expected an instance id (from 1)",
                                  request->instance);
      return FALSE;
    }
  if ((request->collective != NULL || request->instance > 0) && n_files == 0)
    {
      *message = g_strdup ("--collective and --instance need an ARCHIVE or DB");
      return FALSE;
    }
  if (request->screenshot != NULL && request->export != NULL)
    {
      *message = g_strdup ("--screenshot and --export cannot be used together");
      return FALSE;
    }
  if (request->screenshot != NULL && n_files > 1)
    {
      *message = g_strdup ("--screenshot takes one ARCHIVE or DB (none: the start page)");
      return FALSE;
    }
  if (request->export != NULL && n_files != 1)
    {
      *message = g_strdup ("--export needs exactly one ARCHIVE or DB");
      return FALSE;
    }
  if (request->export != NULL && !sextant_export_format_from_path (request->export, NULL))
    {
      *message = g_strdup_printf ("--export %s: the name must end in .png, .svg or .pdf", request->export);
      return FALSE;
    }

  return TRUE;
}

/* Opening --------------------------------------------------------------------------- */

/* A window that shows nothing yet, to open a trace in; or a new one */
static SextantWindow *
window_for_opening (SextantApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (SEXTANT_IS_WINDOW (l->data) && sextant_window_is_empty (l->data))
      return l->data;

  return sextant_window_new (GTK_APPLICATION (self));
}

/* What the command line asks of the window that opens a trace */
static void
configure_window (SextantWindow *window,
                  const Request *request)
{
  if (request == NULL)
    return;

  for (guint i = 0; request->source_roots != NULL && request->source_roots[i] != NULL; i++)
    sextant_window_add_source_root (window, request->source_roots[i]);
  if (request->view != NULL)
    sextant_window_set_initial_view (window, request->from, request->to);
  if (request->show_worst)
    sextant_window_choose_worst_when_listed (window);
  if (request->page != NULL)
    sextant_window_show_page (window, request->page);
  if (request->collective != NULL)
    sextant_window_choose_collective_when_shown (window, request->collective);
  if (request->instance > 0)
    sextant_window_choose_instance_when_analysed (window, request->instance);
}

static void
open_path (SextantApplication *self,
           const char         *path,
           const Request      *request)
{
  SextantWindow *window = window_for_opening (self);

  configure_window (window, request);
  if (path != NULL)
    sextant_window_open (window, path);
  gtk_window_present (GTK_WINDOW (window));
}

/* One-shot runs: --screenshot and --export --------------------------------------- */

typedef struct
{
  SextantApplication *app;
  SextantWindow      *window;
  char               *screenshot;
  char               *export;
  gboolean            start_page;  /* no trace: the start page is the picture */
  gboolean            needs_tree;  /* --collective or --instance: a tree that cannot be built is a failure */
  guint               frames;
  gulong              ready_id;
  gulong              error_id;
} Capture;

static void
capture_free (Capture *capture)
{
  g_free (capture->screenshot);
  g_free (capture->export);
  g_free (capture);
}

static void
capture_done (Capture *capture,
              int      status)
{
  SextantWindow *window = capture->window;

  g_clear_signal_handler (&capture->ready_id, window);
  g_clear_signal_handler (&capture->error_id, window);
  sextant_application_set_exit_status (capture->app, status);
  capture_free (capture);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A few frames after the window is ready (what settles after the data
 * came: the source view centres its line), the file is written. */
static gboolean
capture_tick_cb (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       user_data)
{
  Capture *capture = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (!capture->start_page && !sextant_window_get_ready (capture->window))
    {
      capture->frames = 0;
      return G_SOURCE_CONTINUE;
    }
  if (++capture->frames < 15)
    return G_SOURCE_CONTINUE;
  if (capture->needs_tree && sextant_tree_view_get_error (sextant_window_get_tree_view (capture->window)) != NULL)
    {
      g_printerr ("sextant: %s\n", sextant_tree_view_get_error (sextant_window_get_tree_view (capture->window)));
      capture_done (capture, 1);
      return G_SOURCE_REMOVE;
    }

  if (capture->screenshot != NULL)
    ok = sextant_export_widget (GTK_WIDGET (capture->window), capture->screenshot, &error);
  else
    ok = sextant_export_widget (GTK_WIDGET (sextant_window_get_timeline (capture->window)), capture->export, &error);
  if (!ok)
    g_printerr ("sextant: %s\n", error->message);
  capture_done (capture, ok ? 0 : 1);

  return G_SOURCE_REMOVE;
}

static void
capture_error_cb (SextantWindow *window,
                  GParamSpec    *pspec,
                  Capture       *capture)
{
  const char *error = sextant_window_get_error (window);

  if (error == NULL)
    return;

  g_printerr ("sextant: %s\n", error);
  capture_done (capture, 1);
}

static void
start_capture (SextantApplication *self,
               const Request      *request)
{
  Capture *capture = g_new0 (Capture, 1);

  capture->app = self;
  capture->window = sextant_window_new (GTK_APPLICATION (self));
  capture->screenshot = g_strdup (request->screenshot);
  capture->export = g_strdup (request->export);
  gtk_window_set_default_size (GTK_WINDOW (capture->window), request->width, request->height);
  capture->error_id = g_signal_connect (capture->window, "notify::error", G_CALLBACK (capture_error_cb), capture);
  gtk_widget_add_tick_callback (GTK_WIDGET (capture->window), capture_tick_cb, capture, NULL);
  configure_window (capture->window, request);
  capture->start_page = request->files == NULL || request->files[0] == NULL;
  capture->needs_tree = request->collective != NULL || request->instance > 0;
  if (!capture->start_page)
    sextant_window_open (capture->window, request->files[0]);
  gtk_window_present (GTK_WINDOW (capture->window));
}

/* GApplication -------------------------------------------------------------------- */

static int
sextant_application_command_line (GApplication            *application,
                                  GApplicationCommandLine *command_line)
{
  SextantApplication *self = SEXTANT_APPLICATION (application);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_auto(Request) request = { 0 };
  g_autofree char *message = NULL;
  g_autofree const char **files = NULL;

  g_variant_dict_lookup (options, "view", "s", &request.view);
  g_variant_dict_lookup (options, "source-root", "^aay", &request.source_roots);
  g_variant_dict_lookup (options, "show-worst", "b", &request.show_worst);
  g_variant_dict_lookup (options, "screenshot", "^ay", &request.screenshot);
  g_variant_dict_lookup (options, "export", "^ay", &request.export);
  g_variant_dict_lookup (options, "size", "s", &request.size);
  g_variant_dict_lookup (options, "page", "s", &request.page);
  g_variant_dict_lookup (options, "collective", "s", &request.collective);
  g_variant_dict_lookup (options, "instance", "x", &request.instance);
  if (g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &files))
    {
      GPtrArray *paths = g_ptr_array_new ();

      /* relative to the directory of the process that was started */
      for (guint i = 0; files[i] != NULL; i++)
        {
          g_autoptr(GFile) file = g_application_command_line_create_file_for_arg (command_line, files[i]);

          g_ptr_array_add (paths, g_file_get_path (file));
        }
      g_ptr_array_add (paths, NULL);
      request.files = (char **)g_ptr_array_free (paths, FALSE);
    }
  if (!request_check (&request, &message))
    {
      g_application_command_line_printerr (command_line, "sextant: %s\n", message);
      return 2;
    }

  if (request.screenshot != NULL || request.export != NULL)
    start_capture (self, &request);
  else if (request.files == NULL || request.files[0] == NULL)
    open_path (self, NULL, &request);
  else
    for (guint i = 0; request.files[i] != NULL; i++)
      open_path (self, request.files[i], &request);

  return 0;
}

static void
sextant_application_activate (GApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window != NULL)
    gtk_window_present (window);
  else
    open_path (SEXTANT_APPLICATION (application), NULL, NULL);
}

static void
sextant_application_open (GApplication  *application,
                          GFile        **files,
                          int            n_files,
                          const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);

      if (path != NULL)
        open_path (SEXTANT_APPLICATION (application), path, NULL);
    }
}

/* Application actions --------------------------------------------------------------- */

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows;

  /* closing each window cancels what it runs (its import, its analysis) */
  while ((windows = gtk_application_get_windows (app)) != NULL)
    gtk_window_destroy (windows->data);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (sextant_window_new (user_data)));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkApplication *app = user_data;
  GtkWindow *parent = gtk_application_get_active_window (app);

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (SEXTANT_IS_PREFERENCES_WINDOW (l->data))
      {
        gtk_window_present (l->data);
        return;
      }

  gtk_window_present (GTK_WINDOW (sextant_preferences_window_new (parent)));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (user_data);
  const char *developers[] = { "The Sextant developers", NULL };

  adw_show_about_window (parent,
                         "application-name", "Sextant",
                         "application-icon", APP_ID,
                         "version", PACKAGE_VERSION,
                         "developer-name", "The Sextant developers",
                         "developers", developers,
                         "comments", "Find where an MPI program lost its time: OTF2 traces, their timeline, "
                                     "the wait states of Scalasca's catalogue and the source lines behind them.",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "copyright", "© 2026 The Sextant developers",
                         NULL);
}

/* F1: the user guide, installed beside the program or in the source tree */
static void
help_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (user_data);
  g_autofree char *installed = g_build_filename (SEXTANT_DOCDIR, "ui.md", NULL);
  g_autofree char *source = g_build_filename (SEXTANT_SOURCE_DIR, "docs", "ui.md", NULL);
  const char *guide = g_file_test (installed, G_FILE_TEST_EXISTS) ? installed : source;
  g_autofree char *uri = g_filename_to_uri (guide, NULL, NULL);

  if (uri != NULL)
    gtk_show_uri (parent, uri, GDK_CURRENT_TIME);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "new-window", new_window_action },
  { "preferences", preferences_action },
  { "about", about_action },
  { "help", help_action },
};

/* Keys that hold wherever the focus is, in every window of the application */
static const struct
{
  const char *action;
  const char *accels[4];
} accels[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.new-window", { "<Control>n", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "app.help", { "F1", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.close", { "<Control>w", NULL } },
  { "win.analyse", { "F5", "<Control>r", NULL } },
  { "win.export-view", { "<Control>e", NULL } },
  { "win.export-report", { "<Control><Shift>e", NULL } },
};

static gboolean
color_scheme_get (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const char *name = g_variant_get_string (variant, NULL);

  if (g_str_equal (name, "light"))
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (g_str_equal (name, "dark"))
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_DARK);
  else
    g_value_set_enum (value, ADW_COLOR_SCHEME_DEFAULT);

  return TRUE;
}

static void
sextant_application_startup (GApplication *application)
{
  SextantApplication *self = SEXTANT_APPLICATION (application);

  G_APPLICATION_CLASS (sextant_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  /* the window's imports run in a worker process of this executable, so
   * that libotf2 crashing or looping on a damaged archive cannot take the
   * window with it, and cancelling stops them at once */
  {
    g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);

    sextant_importer_set_default_worker (self_exe);
  }

  self->settings = g_object_ref (sextant_settings_get_default ());
  g_settings_bind_with_mapping (self->settings, "color-scheme", adw_style_manager_get_default (), "color-scheme",
                                G_SETTINGS_BIND_GET, color_scheme_get, NULL, NULL, NULL);
}

static void
sextant_application_finalize (GObject *object)
{
  SextantApplication *self = SEXTANT_APPLICATION (object);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (sextant_application_parent_class)->finalize (object);
}

static void
sextant_application_class_init (SextantApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = sextant_application_finalize;
  app_class->startup = sextant_application_startup;
  app_class->activate = sextant_application_activate;
  app_class->open = sextant_application_open;
  app_class->command_line = sextant_application_command_line;
}

static void
sextant_application_init (SextantApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), gui_entries);
}

SextantApplication *
sextant_application_new (gboolean one_shot)
{
  GApplicationFlags flags = G_APPLICATION_HANDLES_OPEN | G_APPLICATION_HANDLES_COMMAND_LINE;
  SextantApplication *self;

  /* a one-shot run must not hand its work to a running instance: it
   * renders its own window and says by its exit status how that went */
  if (one_shot)
    flags |= G_APPLICATION_NON_UNIQUE;
  self = g_object_new (SEXTANT_TYPE_APPLICATION, "application-id", APP_ID, "flags", flags, NULL);
  self->one_shot = one_shot;

  return self;
}

void
sextant_application_set_exit_status (SextantApplication *self,
                                     int                 status)
{
  g_return_if_fail (SEXTANT_IS_APPLICATION (self));

  self->exit_status = MAX (self->exit_status, status);
}

/* Parses argv strictly here: a usage error ends the process with 2 before
 * any window or remote call */
static gboolean
check_command_line (int    argc,
                    char **argv,
                    int   *status,
                    gboolean *one_shot)
{
  g_auto(Request) request = { 0 };
  GOptionEntry entries[G_N_ELEMENTS (gui_entries)];
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  g_auto(GStrv) args = g_new0 (char *, argc + 1);

  memcpy (entries, gui_entries, sizeof entries);
  entries[0].arg_data = &request.view;
  entries[1].arg_data = &request.source_roots;
  entries[2].arg_data = &request.show_worst;
  entries[3].arg_data = &request.screenshot;
  entries[4].arg_data = &request.export;
  entries[5].arg_data = &request.size;
  entries[6].arg_data = &request.page;
  entries[7].arg_data = &request.collective;
  entries[8].arg_data = &request.instance;
  entries[9].arg_data = &request.files;
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  g_option_context_set_summary (context, "Opens the application window on OTF2 archives (an anchor file or its "
                                         "directory) or trace stores;\nwithout one, the window offers the recent "
                                         "traces and a drop target.");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_help_enabled (context, TRUE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_printerr ("sextant: %s\n", error->message);
      *status = 2;
      return FALSE;
    }
  if (!request_check (&request, &message))
    {
      g_printerr ("sextant: %s\n", message);
      *status = 2;
      return FALSE;
    }
  *one_shot = request.screenshot != NULL || request.export != NULL;

  return TRUE;
}

int
sextant_application_main (int    argc,
                          char **argv)
{
  g_autoptr(SextantApplication) app = NULL;
  gboolean one_shot = FALSE;
  int status = 0;

  if (!check_command_line (argc, argv, &status, &one_shot))
    return status;
  if (!gtk_init_check ())
    {
      g_printerr ("sextant: cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?); "
                  "the commands import, info, analyze and report work without one\n");
      return 1;
    }

  app = sextant_application_new (one_shot);
  status = g_application_run (G_APPLICATION (app), argc, argv);

  return status != 0 ? status : app->exit_status;
}
