/*
 * sextant-window-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the window's menu, buttons and keys do. The time range in view,
 * the chosen instance and the pair filter live in the session, so
 * zooming, panning and clearing the filter are the session's: the keys work wherever the focus is in the window (they are
 * the window's bindings, reached by every key its focused widget does not
 * use itself), and the Ctrl shortcuts are the application's accelerators
 * (sextant-application.c).
 */
#include "config.h"

#include "sextant-export.h"
#include "sextant-report.h"
#include "sextant-window-private.h"

/* Opening ------------------------------------------------------------------------ */

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  SextantWindow   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GFile) folder = file != NULL ? g_file_get_parent (file) : NULL;
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autofree char *dir = folder != NULL ? g_file_get_uri (folder) : NULL;

      if (dir != NULL)
        g_settings_set_string (self->settings, "last-folder", dir);
      if (path != NULL)
        sextant_window_open (self, path);
    }
  g_clear_object (&self->chooser);
}

static GtkFileChooserNative *
new_chooser (SextantWindow        *self,
             const char           *title,
             GtkFileChooserAction  action,
             const char           *accept)
{
  g_autofree char *last = g_settings_get_string (self->settings, "last-folder");

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (last[0] != '\0')
    {
      /* a URI: any file name */
      g_autoptr(GFile) folder = g_file_new_for_uri (last);

      if (g_file_query_file_type (folder, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }

  return self->chooser;
}

static void
add_filter (GtkFileChooserNative *chooser,
            const char           *name,
            const char * const   *patterns)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);
  GtkFileChooserNative *chooser = new_chooser (self, "Open a Trace", GTK_FILE_CHOOSER_ACTION_OPEN, "_Open");

  add_filter (chooser, "OTF2 archives and trace stores", (const char *[]) { "*.otf2", "*.sextant.db", NULL });
  add_filter (chooser, "All files", (const char *[]) { "*", NULL });
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  sextant_window_open (SEXTANT_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

/* Escape: the import or the analysis under way; else the pair filter */
static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);

  if (self->loading != NULL)
    g_cancellable_cancel (self->load_cancellable);
  else if (self->session != NULL && sextant_session_get_analysing (self->session))
    g_cancellable_cancel (self->analysis_cancellable);
  else if (self->session != NULL && sextant_session_get_pair_filter (self->session) != NULL)
    sextant_session_set_pair_filter (self->session, NULL);
  else if (self->session != NULL)
    sextant_session_set_item (self->session, NULL);
}

static void
clear_pair_filter_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);

  if (self->session != NULL)
    sextant_session_set_pair_filter (self->session, NULL);
}

/* Alt+1, 2, 3: the Source, Tree and Matrix pages, with the focus in them */
static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);

  if (self->session == NULL)
    return;
  sextant_window_show_page (self, g_variant_get_string (parameter, NULL));
  gtk_widget_grab_focus (_sextant_window_page_widget (self));
}

static void
dismiss_error_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  _sextant_window_show_error (SEXTANT_WINDOW (widget), NULL);
}

static void
analyse_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  _sextant_window_analyse (SEXTANT_WINDOW (widget));
}

/* The view ----------------------------------------------------------------------- */

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);

  if (self->session == NULL)
    return;
  if (g_str_equal (action_name, "win.zoom-in"))
    sextant_session_zoom (self->session, 2.0, 0.5);
  else if (g_str_equal (action_name, "win.zoom-out"))
    sextant_session_zoom (self->session, 0.5, 0.5);
  else
    sextant_session_zoom_fit (self->session);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);

  if (self->session != NULL)
    sextant_session_pan (self->session, g_variant_get_double (parameter));
}

/* Alt+Left, Alt+Right, the mouse's back and forward buttons: the zoom history */
static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);

  if (self->session == NULL)
    return;
  if (g_str_equal (action_name, "win.go-back"))
    sextant_session_go_back (self->session);
  else
    sextant_session_go_forward (self->session);
}

/* The details pane's "Show Source": (file, line, caption) */
static void
show_source_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  const char *file;
  const char *caption;
  gint64 line;

  g_variant_get (parameter, "(&sx&s)", &file, &line, &caption);
  sextant_window_show_source (SEXTANT_WINDOW (widget), file, line, caption[0] != '\0' ? caption : NULL);
}

/* Buttons 8 and 9 of a mouse: back and forward */
static void
history_button_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   SextantWindow   *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (button != 8 && button != 9)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_widget_activate_action (GTK_WIDGET (self), button == 8 ? "win.go-back" : "win.go-forward", NULL);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* The parts of the window, in the order F6 goes through them */
static void
next_part_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);
  GtkWidget *parts[] = { GTK_WIDGET (self->browser), GTK_WIDGET (self->timeline), GTK_WIDGET (self->details_pane),
                         _sextant_window_page_widget (self) };
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));
  int step = g_variant_get_int32 (parameter);
  int n = G_N_ELEMENTS (parts);
  int at = -1;

  if (self->session == NULL)
    return;
  for (int i = 0; i < n && at < 0; i++)
    if (focus != NULL && (focus == parts[i] || gtk_widget_is_ancestor (focus, parts[i])))
      at = i;
  for (int k = 1; k <= n; k++)
    {
      GtkWidget *next = parts[((at < 0 ? (step > 0 ? -1 : 0) : at) + step * k + 2 * n) % n];

      /* the details pane while it shows */
      if (next == GTK_WIDGET (self->details_pane) && !gtk_revealer_get_reveal_child (self->details_revealer))
        continue;
      if (gtk_widget_grab_focus (next) || gtk_widget_child_focus (next, GTK_DIR_TAB_FORWARD))
        return;
    }
}

/* Exports ------------------------------------------------------------------------ */

/**
 * sextant_window_export_view:
 * @path: .png, .svg or .pdf
 *
 * Writes the timeline as it is drawn now to @path.
 */
gboolean
sextant_window_export_view (SextantWindow  *self,
                            const char     *path,
                            GError        **error)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), FALSE);

  return sextant_export_widget (GTK_WIDGET (self->timeline), path, error);
}

static char *
suggested_name (SextantWindow *self,
                const char    *what)
{
  return g_strdup_printf ("%s-%s", self->session != NULL ? sextant_session_get_title (self->session) : "sextant", what);
}

static void
export_view_response_cb (GtkNativeDialog *dialog,
                         int              response,
                         SextantWindow   *self)
{
  g_autoptr(GFile) file = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)) : NULL;
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
  g_autoptr(GError) error = NULL;

  g_clear_object (&self->chooser);
  if (path == NULL)
    return;

  if (!sextant_export_format_from_path (path, NULL))
    {
      g_autofree char *png = g_strconcat (path, ".png", NULL);

      g_free (path);
      path = g_steal_pointer (&png);
    }
  if (!sextant_window_export_view (self, path, &error))
    _sextant_window_show_error (self, error->message);
  else
    {
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *text = g_strdup_printf ("The timeline is in %s", base);

      _sextant_window_toast (self, text);
    }
}

static void
export_view_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);
  GtkFileChooserNative *chooser = new_chooser (self, "Export the View", GTK_FILE_CHOOSER_ACTION_SAVE, "_Export");
  g_autofree char *name = suggested_name (self, "timeline.svg");

  add_filter (chooser, "SVG image (vector)", (const char *[]) { "*.svg", NULL });
  add_filter (chooser, "PDF document (vector)", (const char *[]) { "*.pdf", NULL });
  add_filter (chooser, "PNG image", (const char *[]) { "*.png", NULL });
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (export_view_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

typedef struct
{
  SextantStore        *store;
  char                *path;
  char                *source_root;
  SextantReportFormat  format;
} ReportJob;

static void
report_job_free (ReportJob *job)
{
  g_clear_object (&job->store);
  g_free (job->path);
  g_free (job->source_root);
  g_free (job);
}

/* The report of the analysis the store has (as `sextant report` writes it) */
static void
report_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ReportJob *job = task_data;
  g_autoptr(JsonNode) model = NULL;
  g_autofree char *text = NULL;
  GError *error = NULL;

  sextant_store_set_cancellable (job->store, cancellable);
  if (!(model = sextant_report_gather (job->store, job->source_root, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  text = sextant_report_render (model, job->format);
  if (!g_file_set_contents (job->path, text, -1, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * sextant_window_export_report_async:
 * @path: where to write; .html, .md, .csv or .json says the format
 *   (another name gets .html added)
 *
 * Writes the report of the analysis the session shown has, as `sextant
 * report` does, on a worker thread.
 */
void
sextant_window_export_report_async (SextantWindow       *self,
                                    const char          *path,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) roots = NULL;
  ReportJob *job;
  const char *dot;

  g_return_if_fail (SEXTANT_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  job = g_new0 (ReportJob, 1);
  job->path = g_strdup (path);
  dot = strrchr (job->path, '.');
  if (dot == NULL || !sextant_report_format_from_string (dot + 1, &job->format))
    {
      char *html = g_strconcat (job->path, ".html", NULL);

      g_free (job->path);
      job->path = html;
      job->format = SEXTANT_REPORT_HTML;
    }
  roots = g_settings_get_strv (self->settings, "source-roots");
  job->source_root = g_strdup (self->extra_roots != NULL ? self->extra_roots[0] : roots[0]);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_window_export_report_async);
  g_task_set_task_data (task, job, (GDestroyNotify)report_job_free);
  if (self->session == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No trace is open");
      return;
    }
  if (!(job->store = sextant_session_open_store (self->session, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_run_in_thread (task, report_worker);
}

/* Returns: (transfer none): the file written, or %NULL with @error set */
const char *
sextant_window_export_report_finish (SextantWindow  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;

  return ((ReportJob *)g_task_get_task_data (G_TASK (result)))->path;
}

static void
report_written_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SextantWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  const char *path;

  if (!(path = sextant_window_export_report_finish (self, result, &error)))
    {
      g_autofree char *message = g_strdup_printf ("The report was not written: %s", error->message);

      _sextant_window_show_error (self, message);
    }
  else
    {
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *text = g_strdup_printf ("The report is in %s", base);

      _sextant_window_toast (self, text);
    }
}

static void
export_report_response_cb (GtkNativeDialog *dialog,
                           int              response,
                           SextantWindow   *self)
{
  g_autoptr(GFile) file = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)) : NULL;
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

  g_clear_object (&self->chooser);
  if (path != NULL)
    sextant_window_export_report_async (self, path, NULL, report_written_cb, g_object_ref (self));
}

static void
export_report_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);
  GtkFileChooserNative *chooser = new_chooser (self, "Export the Report", GTK_FILE_CHOOSER_ACTION_SAVE, "_Export");
  g_autofree char *name = suggested_name (self, "report.html");

  add_filter (chooser, "HTML (one self-contained file)", (const char *[]) { "*.html", NULL });
  add_filter (chooser, "Markdown", (const char *[]) { "*.md", NULL });
  add_filter (chooser, "CSV", (const char *[]) { "*.csv", NULL });
  add_filter (chooser, "JSON", (const char *[]) { "*.json", NULL });
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (export_report_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Enabled states ----------------------------------------------------------------- */

/* What needs a trace shown, or something running, is enabled only then */
void
_sextant_window_actions_update (SextantWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean shown = self->session != NULL;
  gboolean analysing = shown && sextant_session_get_analysing (self->session);
  gboolean filtered = shown && sextant_session_get_pair_filter (self->session) != NULL;
  gboolean item = shown && sextant_session_get_item (self->session) != NULL;
  static const char * const need_trace[] = {
    "win.zoom-in", "win.zoom-out", "win.zoom-fit", "win.pan", "win.export-view", "win.export-report",
    "win.show-page",
  };

  for (guint i = 0; i < G_N_ELEMENTS (need_trace); i++)
    gtk_widget_action_set_enabled (widget, need_trace[i], shown);
  gtk_widget_action_set_enabled (widget, "win.analyse", shown && !analysing);
  gtk_widget_action_set_enabled (widget, "win.cancel", self->loading != NULL || analysing || filtered || item);
  gtk_widget_action_set_enabled (widget, "win.go-back", shown && sextant_session_get_can_go_back (self->session));
  gtk_widget_action_set_enabled (widget, "win.go-forward",
                                 shown && sextant_session_get_can_go_forward (self->session));
  gtk_widget_action_set_enabled (widget, "win.clear-pair-filter", filtered);
}

void
_sextant_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-error", NULL, dismiss_error_action);
  gtk_widget_class_install_action (widget_class, "win.analyse", NULL, analyse_action);
  gtk_widget_class_install_action (widget_class, "win.export-view", NULL, export_view_action);
  gtk_widget_class_install_action (widget_class, "win.export-report", NULL, export_report_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.pan", "d", pan_action);
  gtk_widget_class_install_action (widget_class, "win.go-back", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "win.go-forward", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "win.show-source", "(sxs)", show_source_action);
  gtk_widget_class_install_action (widget_class, "win.next-part", "i", next_part_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.clear-pair-filter", NULL, clear_pair_filter_action);

  /* Plain keys: the window's, so that a widget that types or moves with
   * them keeps them while it has the focus. The arrows are not among them:
   * they move the focus between the window's parts (GtkWindow's own
   * bindings come first); they pan when the timeline has the focus (its
   * bindings) */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "win.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "win.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "win.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "win.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "win.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "win.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "win.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, 0, "win.show-messages", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "win.show-lost-time", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.show-page", "s", "source");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.show-page", "s", "tree");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.show-page", "s", "matrix");
}

/* Alt+Left and Alt+Right hold wherever the focus is (the timeline's plain
 * Left and Right pan; with Alt they are these): the window's shortcuts in
 * the capture phase, before any widget's own bindings */
static void
add_history_shortcuts (SextantWindow *self)
{
  GtkEventController *history = gtk_shortcut_controller_new ();
  GtkGesture *buttons = gtk_gesture_click_new ();
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_Left, "win.go-back" }, { GDK_KEY_KP_Left, "win.go-back" },
    { GDK_KEY_Right, "win.go-forward" }, { GDK_KEY_KP_Right, "win.go-forward" },
    { GDK_KEY_Back, "win.go-back" }, { GDK_KEY_Forward, "win.go-forward" },
  };

  gtk_event_controller_set_propagation_phase (history, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (history),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key,
                                                                                    keys[i].key == GDK_KEY_Back ||
                                                                                    keys[i].key == GDK_KEY_Forward
                                                                                    ? 0 : GDK_ALT_MASK),
                                                            gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (GTK_WIDGET (self), history);

  /* every button, to see 8 and 9 */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (buttons), 0);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (buttons), GTK_PHASE_CAPTURE);
  g_signal_connect (buttons, "pressed", G_CALLBACK (history_button_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (buttons));
}

void
_sextant_window_actions_init (SextantWindow *self)
{
  GtkEventController *parts = gtk_shortcut_controller_new ();
  g_autoptr(GAction) messages = g_settings_create_action (self->settings, "show-messages");
  g_autoptr(GAction) lost = g_settings_create_action (self->settings, "show-lost-time");

  /* the header bar's toggles and the keys M and W; the timeline follows
   * the same keys of the preferences */
  g_action_map_add_action (G_ACTION_MAP (self), messages);
  g_action_map_add_action (G_ACTION_MAP (self), lost);
  g_settings_bind (self->settings, "show-messages", self->timeline, "show-messages", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "show-lost-time", self->timeline, "show-lost", G_SETTINGS_BIND_GET);

  /* F6 before the panes' own F6, which cycles inside the innermost pane */
  gtk_event_controller_set_propagation_phase (parts, GTK_PHASE_CAPTURE);
  for (int step = -1; step <= 1; step += 2)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F6, step < 0 ? GDK_SHIFT_MASK : 0),
                                                gtk_named_action_new ("win.next-part"));

      gtk_shortcut_set_arguments (shortcut, g_variant_new_int32 (step));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (parts), shortcut);
    }
  gtk_widget_add_controller (GTK_WIDGET (self), parts);
  add_history_shortcuts (self);
  _sextant_window_actions_update (self);
}
