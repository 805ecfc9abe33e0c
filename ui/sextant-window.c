/*
 * sextant-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-importer.h"
#include "sextant-pattern-browser.h"
#include "sextant-source-view.h"
#include "sextant-store.h"
#include "sextant-window.h"

struct _SextantWindow
{
  GtkApplicationWindow  parent_instance;

  GtkWidget            *title;
  GtkWidget            *timeline;
  GtkWidget            *browser;
  GtkWidget            *source;
  GtkWidget            *import_bar;      /* shown while an archive is imported */
  GtkWidget            *progress;
  GtkWidget            *message;         /* what went wrong */
  GCancellable         *import_cancellable;
  GtkFileChooserNative *chooser;
  guint                 progress_source;
  double                fraction;        /* written by the import thread (under `lock`) */
  GMutex                lock;
  char                 *error;           /* what the message says */
};

G_DEFINE_FINAL_TYPE (SextantWindow, sextant_window, GTK_TYPE_APPLICATION_WINDOW)

enum
{
  PROP_0,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
show_message (SextantWindow *self,
              const char    *text)
{
  if (g_strcmp0 (text, self->error) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (text);
  gtk_label_set_text (GTK_LABEL (self->message), text != NULL ? text : "");
  gtk_widget_set_visible (self->message, text != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

const char *
sextant_window_get_error (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->error;
}

static void
timeline_error_cb (SextantWindow *self)
{
  g_autofree char *error = NULL;

  g_object_get (self->timeline, "error", &error, NULL);
  show_message (self, error);
}

/* Import --------------------------------------------------------------------- */

/* Called on the import thread: the bar is updated by a timeout on the main
 * thread, never from here. */
static void
import_progress (double   fraction,
                 double   events_per_second,
                 gpointer user_data)
{
  SextantWindow *self = user_data;

  g_mutex_lock (&self->lock);
  self->fraction = fraction;
  g_mutex_unlock (&self->lock);
}

static gboolean
update_progress (gpointer user_data)
{
  SextantWindow *self = user_data;
  double fraction;

  g_mutex_lock (&self->lock);
  fraction = self->fraction;
  g_mutex_unlock (&self->lock);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress), CLAMP (fraction, 0.0, 1.0));

  return G_SOURCE_CONTINUE;
}

static void
import_done (SextantWindow *self)
{
  gtk_widget_set_visible (self->import_bar, FALSE);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->import_cancellable);
}

static void
set_store (SextantWindow *self,
           const char    *db_path)
{
  sextant_timeline_set_store (SEXTANT_TIMELINE (self->timeline), db_path);
  sextant_pattern_browser_set_store (SEXTANT_PATTERN_BROWSER (self->browser), db_path);
  sextant_source_view_show (SEXTANT_SOURCE_VIEW (self->source), NULL, 0,
                            db_path != NULL ? "Choose a pattern instance to see its source line." : NULL);
}

static void
imported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SextantWindow) self = user_data;
  SextantImporter *importer = SEXTANT_IMPORTER (object);
  g_autoptr(GError) error = NULL;

  if (!sextant_importer_run_finish (importer, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, error->message);
      import_done (self);
      return;
    }

  import_done (self);
  set_store (self, sextant_importer_get_db_path (importer));
}

void
sextant_window_open (SextantWindow *self,
                     const char    *path)
{
  g_autofree char *name = NULL;

  g_return_if_fail (SEXTANT_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  g_cancellable_cancel (self->import_cancellable);
  import_done (self);
  show_message (self, NULL);
  name = g_path_get_basename (path);
  if (g_str_equal (name, "traces.otf2"))
    {
      g_autofree char *dir = g_path_get_dirname (path);

      g_free (name);
      name = g_path_get_basename (dir);
    }
  gtk_label_set_text (GTK_LABEL (self->title), name);
  gtk_window_set_title (GTK_WINDOW (self), name);

  if (sextant_path_is_store (path))
    {
      set_store (self, path);
      return;
    }

  /* an archive: import it, or reuse its store if that is up to date */
  {
    g_autoptr(SextantImporter) importer = sextant_importer_new (path, NULL);

    set_store (self, NULL);
    self->fraction = 0;
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress), 0);
    gtk_widget_set_visible (self->import_bar, TRUE);
    self->progress_source = g_timeout_add (100, update_progress, self);
    self->import_cancellable = g_cancellable_new ();
    sextant_importer_set_progress_func (importer, import_progress, self, NULL);
    sextant_importer_run_async (importer, self->import_cancellable, imported_cb, g_object_ref (self));
  }
}

void
sextant_window_set_source_root (SextantWindow *self,
                                const char    *dir)
{
  g_return_if_fail (SEXTANT_IS_WINDOW (self));

  sextant_source_view_set_source_root (SEXTANT_SOURCE_VIEW (self->source), dir);
}

SextantPatternBrowser *
sextant_window_get_pattern_browser (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return SEXTANT_PATTERN_BROWSER (self->browser);
}

SextantSourceView *
sextant_window_get_source_view (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return SEXTANT_SOURCE_VIEW (self->source);
}

/* A pattern instance chosen: where it lost its time, and its source line */
static void
instance_activated_cb (SextantPatternBrowser     *browser,
                       const SextantInstanceInfo *info,
                       SextantWindow             *self)
{
  SextantTimeline *timeline = SEXTANT_TIMELINE (self->timeline);
  g_autofree char *caption = NULL;

  if (info->begin != SEXTANT_NULL && info->end != SEXTANT_NULL)
    {
      sextant_timeline_set_mark (timeline, info->loc, info->peer_loc, info->begin, info->end);
      sextant_timeline_show_range (timeline, info->begin, info->end);
    }
  caption = g_strdup_printf ("%s%s%s", info->location != NULL ? info->location : "",
                             info->comment != NULL ? ": " : "", info->comment != NULL ? info->comment : "");
  sextant_source_view_show (SEXTANT_SOURCE_VIEW (self->source), info->file, info->line, caption);
}

SextantTimeline *
sextant_window_get_timeline (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return SEXTANT_TIMELINE (self->timeline);
}

/* Actions -------------------------------------------------------------------- */

static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     SextantWindow   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        sextant_window_open (self, path);
    }
  g_clear_object (&self->chooser);
}

static void
open_action (GtkWidget  *widget,
             const char *action,
             GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);
  g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new ("Open a Trace", GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                               "_Open", "_Cancel");
  gtk_file_filter_set_name (traces, "OTF2 archives and trace stores");
  gtk_file_filter_add_pattern (traces, "*.otf2");
  gtk_file_filter_add_pattern (traces, "*.sextant.db");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), traces);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
cancel_import_action (GtkWidget  *widget,
                      const char *action,
                      GVariant   *parameter)
{
  g_cancellable_cancel (SEXTANT_WINDOW (widget)->import_cancellable);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action,
             GVariant   *parameter)
{
  SextantWindow *self = SEXTANT_WINDOW (widget);

  /* the header bar's buttons reach the timeline's action of that name */
  gtk_widget_activate_action (self->timeline, action, NULL);
}

/* GObject -------------------------------------------------------------------- */

static gboolean
sextant_window_close_request (GtkWindow *window)
{
  SextantWindow *self = SEXTANT_WINDOW (window);

  /* the import holds a reference on the window until it ends */
  g_cancellable_cancel (self->import_cancellable);

  return GTK_WINDOW_CLASS (sextant_window_parent_class)->close_request (window);
}

static void
sextant_window_dispose (GObject *object)
{
  SextantWindow *self = SEXTANT_WINDOW (object);

  g_cancellable_cancel (self->import_cancellable);
  import_done (self);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  G_OBJECT_CLASS (sextant_window_parent_class)->dispose (object);
}

static void
sextant_window_finalize (GObject *object)
{
  SextantWindow *self = SEXTANT_WINDOW (object);

  g_mutex_clear (&self->lock);
  g_free (self->error);

  G_OBJECT_CLASS (sextant_window_parent_class)->finalize (object);
}

static void
sextant_window_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_ERROR:
      g_value_set_string (value, SEXTANT_WINDOW (object)->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_window_class_init (SextantWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = sextant_window_dispose;
  object_class->finalize = sextant_window_finalize;
  object_class->get_property = sextant_window_get_property;
  window_class->close_request = sextant_window_close_request;

  /* the message the window shows: a failed import, an unreadable store */
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-import", NULL, cancel_import_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
}

static GtkWidget *
icon_button (const char *icon,
             const char *action,
             const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);

  return button;
}

static void
sextant_window_init (SextantWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *open = gtk_button_new_with_mnemonic ("_Open");
  GtkWidget *zoom = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *across = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *down = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *cancel = gtk_button_new_with_label ("Cancel");
  GtkWidget *messages = gtk_toggle_button_new_with_mnemonic ("_Messages");
  GtkWidget *lost = gtk_toggle_button_new_with_mnemonic ("_Lost time");

  g_mutex_init (&self->lock);
  gtk_window_set_default_size (GTK_WINDOW (self), 1200, 640);
  gtk_window_set_title (GTK_WINDOW (self), "Sextant");

  self->title = gtk_label_new ("Sextant");
  gtk_widget_add_css_class (self->title, "title");
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), self->title);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "win.open");
  gtk_widget_set_tooltip_text (open, "Open an OTF2 archive or a trace store (Ctrl+O)");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), open);
  gtk_widget_add_css_class (zoom, "linked");
  gtk_box_append (GTK_BOX (zoom), icon_button ("zoom-out-symbolic", "timeline.zoom-out", "Zoom out (-)"));
  gtk_box_append (GTK_BOX (zoom), icon_button ("zoom-fit-best-symbolic", "timeline.zoom-fit", "The whole run (0)"));
  gtk_box_append (GTK_BOX (zoom), icon_button ("zoom-in-symbolic", "timeline.zoom-in", "Zoom in (+)"));
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), zoom);
  gtk_widget_set_tooltip_text (messages, "Lines from each send to its receive, where few enough are in view (M)");
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), messages);
  gtk_widget_set_tooltip_text (lost, "Shade the time the patterns' instances lost (W)");
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), lost);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  self->import_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_margin_start (self->import_bar, 12);
  gtk_widget_set_margin_end (self->import_bar, 12);
  gtk_widget_set_margin_top (self->import_bar, 8);
  gtk_widget_set_margin_bottom (self->import_bar, 8);
  gtk_box_append (GTK_BOX (self->import_bar), gtk_label_new ("Importing"));
  self->progress = gtk_progress_bar_new ();
  gtk_widget_set_hexpand (self->progress, TRUE);
  gtk_widget_set_valign (self->progress, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->import_bar), self->progress);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "win.cancel-import");
  gtk_box_append (GTK_BOX (self->import_bar), cancel);
  gtk_widget_set_visible (self->import_bar, FALSE);
  gtk_box_append (GTK_BOX (box), self->import_bar);

  self->message = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->message), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->message), 0);
  gtk_widget_add_css_class (self->message, "error");
  gtk_widget_set_margin_start (self->message, 12);
  gtk_widget_set_margin_top (self->message, 8);
  gtk_widget_set_margin_bottom (self->message, 8);
  gtk_widget_set_visible (self->message, FALSE);
  gtk_box_append (GTK_BOX (box), self->message);

  self->timeline = sextant_timeline_new ();
  /* the toggles follow the timeline's keys (M, W) too */
  g_object_bind_property (self->timeline, "show-messages", messages, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->timeline, "show-lost", lost, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->timeline, "notify::error", G_CALLBACK (timeline_error_cb), self);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->timeline);
  gtk_widget_set_vexpand (scrolled, TRUE);

  /* patterns on the left; the timeline over the source line on the right */
  self->browser = sextant_pattern_browser_new ();
  g_signal_connect (self->browser, "instance-activated", G_CALLBACK (instance_activated_cb), self);
  /* the instances' lost time is new on the timeline */
  g_signal_connect_swapped (self->browser, "analysed", G_CALLBACK (sextant_timeline_refresh), self->timeline);
  self->source = sextant_source_view_new ();
  gtk_paned_set_start_child (GTK_PANED (down), scrolled);
  gtk_paned_set_end_child (GTK_PANED (down), self->source);
  gtk_paned_set_resize_end_child (GTK_PANED (down), FALSE);
  gtk_widget_set_size_request (self->source, -1, 140);
  gtk_paned_set_start_child (GTK_PANED (across), self->browser);
  gtk_paned_set_end_child (GTK_PANED (across), down);
  gtk_paned_set_resize_start_child (GTK_PANED (across), FALSE);
  gtk_widget_set_size_request (self->browser, 380, -1);
  gtk_widget_set_vexpand (across, TRUE);
  gtk_box_append (GTK_BOX (box), across);

  gtk_window_set_child (GTK_WINDOW (self), box);
}

SextantWindow *
sextant_window_new (GtkApplication *application)
{
  return g_object_new (SEXTANT_TYPE_WINDOW, "application", application, NULL);
}
