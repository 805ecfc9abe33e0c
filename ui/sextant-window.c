/*
 * sextant-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window holds the session it shows and, while a trace is being
 * opened, the session being loaded; the views hold the shown session and
 * observe it. The window itself only reacts to what concerns it: the
 * chosen instance (bring it into view, show its source line), the chosen
 * collective (show the Tree page), the pair filter (its bar), the clicked
 * item (the details pane at the right of the timeline), the zoom history
 * (the Back and Forward buttons), the progress of an import or an
 * analysis, and errors.
 */
#include "config.h"

#include "sextant-resources.h"
#include "sextant-settings.h"
#include "sextant-window-private.h"

G_DEFINE_FINAL_TYPE (SextantWindow, sextant_window, ADW_TYPE_APPLICATION_WINDOW)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_READY,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The recent traces kept for Sextant in GtkRecentManager */
#define RECENT_APP  "sextant"
#define MAX_RECENT  10

/* Errors and toasts ----------------------------------------------------------- */

/* Shows @message (NULL: hides the bar) above the views; what is shown stays */
void
_sextant_window_show_error (SextantWindow *self,
                            const char    *message)
{
  if (g_strcmp0 (message, self->error) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (message);
  if (message != NULL)
    gtk_label_set_text (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

void
_sextant_window_toast (SextantWindow *self,
                       const char    *text)
{
  adw_toast_overlay_add_toast (self->toasts, adw_toast_new (text));
}

/* Returns: (nullable): what the error bar says */
const char *
sextant_window_get_error (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->error;
}

/* Readiness and progress ------------------------------------------------------- */

static void
update_ready (SextantWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (self->views);
  gboolean ready = self->session != NULL && self->loading == NULL &&
                   !sextant_session_get_analysing (self->session) &&
                   sextant_timeline_get_ready (self->timeline) &&
                   sextant_pattern_browser_get_ready (self->browser) &&
                   sextant_source_view_get_loaded (self->source_view) && !self->choose_worst &&
                   sextant_details_pane_get_ready (self->details_pane) &&
                   self->pending_collective == NULL && self->pending_instance == SEXTANT_NULL &&
                   (g_strcmp0 (page, "tree") != 0 || sextant_tree_view_get_ready (self->tree_view)) &&
                   (g_strcmp0 (page, "matrix") != 0 || sextant_matrix_view_get_ready (self->matrix_view));

  if (ready == self->ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

/**
 * sextant_window_get_ready:
 *
 * Returns: %TRUE when the window shows a trace, nothing is being opened
 * or analysed, and every view shown has drawn what it has to show (the
 * "ready" property: screenshots and tests wait for it)
 */
gboolean
sextant_window_get_ready (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), FALSE);

  return self->ready;
}

static void apply_pending (SextantWindow *self);

/* The bar under the header: the import of the trace being opened, or the
 * analysis of the one shown */
static void
update_progress (SextantWindow *self)
{
  g_autofree char *text = NULL;
  double fraction = 0;

  if (self->loading != NULL)
    {
      text = g_strdup_printf (sextant_session_get_importing (self->loading) ? "Importing %s…" : "Opening %s…",
                              sextant_session_get_title (self->loading));
      fraction = sextant_session_get_progress (self->loading);
    }
  else if (self->session != NULL && sextant_session_get_analysing (self->session))
    {
      text = g_strdup_printf ("Finding patterns in %s…", sextant_session_get_title (self->session));
      fraction = sextant_session_get_analysis_progress (self->session);
    }

  if (text != NULL)
    {
      gtk_label_set_text (self->progress_label, text);
      gtk_progress_bar_set_fraction (self->progress_bar, fraction);
    }
  gtk_revealer_set_reveal_child (self->progress_revealer, text != NULL);
  _sextant_window_actions_update (self);
  apply_pending (self);
  update_ready (self);
}

/* Another program analysed the trace shown: the views show its results */
static void
analysed_elsewhere_cb (SextantWindow *self)
{
  g_autofree char *text = g_strdup_printf ("%s was analysed again by another program: its patterns are shown",
                                           sextant_session_get_title (self->session));

  _sextant_window_toast (self, text);
}

/* Recent traces ----------------------------------------------------------------- */

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GtkRecentInfo *x = *(GtkRecentInfo **)a;
  GtkRecentInfo *y = *(GtkRecentInfo **)b;
  GDateTime *tx = gtk_recent_info_get_modified (x);
  GDateTime *ty = gtk_recent_info_get_modified (y);

  return -g_date_time_compare (tx, ty);
}

/* Returns: (transfer full) (element-type GtkRecentInfo): Sextant's recent
 * traces that still exist, newest first, at most MAX_RECENT */
static GPtrArray *
list_recent (void)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  GPtrArray *recent = g_ptr_array_new_with_free_func ((GDestroyNotify)gtk_recent_info_unref);

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (gtk_recent_info_has_application (info, RECENT_APP) && gtk_recent_info_is_local (info) &&
          gtk_recent_info_exists (info))
        g_ptr_array_add (recent, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify)gtk_recent_info_unref);
  g_ptr_array_sort (recent, compare_recent);
  if (recent->len > MAX_RECENT)
    g_ptr_array_set_size (recent, MAX_RECENT);

  return recent;
}

static void
recent_row_activated_cb (GtkListBox    *list,
                         GtkListBoxRow *row,
                         SextantWindow *self)
{
  const char *path = g_object_get_data (G_OBJECT (row), "path");

  if (path != NULL)
    sextant_window_open (self, path);
}

/* The start page's list and the menu's Open Recent */
static void
rebuild_recent (SextantWindow *self)
{
  g_autoptr(GPtrArray) recent = list_recent ();
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);
  g_menu_remove_all (self->recent_menu);

  for (guint i = 0; i < recent->len; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (recent, i);
      g_autofree char *path = g_filename_from_uri (gtk_recent_info_get_uri (info), NULL, NULL);
      g_autofree char *dir = NULL;
      g_autofree char *label = NULL;
      const char *name = gtk_recent_info_get_display_name (info);
      gboolean twice = FALSE;
      GtkWidget *row;
      g_autoptr(GMenuItem) item = NULL;

      if (path == NULL)
        continue;
      dir = g_path_get_dirname (path);
      for (guint j = 0; j < recent->len; j++)
        twice |= j != i && g_strcmp0 (name, gtk_recent_info_get_display_name (g_ptr_array_index (recent, j))) == 0;
      label = twice ? g_strdup_printf ("%s (%s)", name, dir) : g_strdup (name);

      row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), path);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      g_object_set_data_full (G_OBJECT (row), "path", g_strdup (path), g_free);
      gtk_list_box_append (self->recent_list, row);

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (path));
      g_menu_append_item (self->recent_menu, item);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->recent_group), recent->len > 0);
  if (recent->len == 0)
    {
      /* an item without an action: shown, not sensitive */
      g_autoptr(GMenuItem) none = g_menu_item_new ("No Recent Traces", NULL);

      g_menu_append_item (self->recent_menu, none);
    }
}

static void
add_recent (SextantSession *session)
{
  const char *path = sextant_session_get_path (session);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = { 0 };

  data.display_name = (char *)sextant_session_get_title (session);
  data.description = (char *)"A trace opened in Sextant";
  data.mime_type = (char *)(g_str_equal (path, sextant_session_get_db_path (session)) ? "application/x-sextant-store"
                                                                                       : "application/x-otf2-trace");
  data.app_name = (char *)RECENT_APP;
  data.app_exec = (char *)"sextant %f";
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

/* The session shown ------------------------------------------------------------- */

static void
update_source_roots (SextantWindow *self)
{
  g_auto(GStrv) preferred = g_settings_get_strv (self->settings, "source-roots");
  g_autoptr(GStrvBuilder) roots = g_strv_builder_new ();
  g_auto(GStrv) all = NULL;

  if (self->extra_roots != NULL)
    g_strv_builder_addv (roots, (const char **)self->extra_roots);
  g_strv_builder_addv (roots, (const char **)preferred);
  all = g_strv_builder_end (roots);
  sextant_source_view_set_source_roots (self->source_view, (const char * const *)all);
}

/* A pattern instance was chosen: its time in view, its source line shown */
static void
instance_changed_cb (SextantWindow *self)
{
  SextantInstance *instance = self->session != NULL ? sextant_session_get_instance (self->session) : NULL;
  const SextantPatternInstance *record;
  g_autofree char *caption = NULL;

  if (instance == NULL)
    {
      sextant_source_view_show (self->source_view, NULL, 0,
                                self->session != NULL ? "Choose a pattern instance to see its source line." : NULL);
      return;
    }

  record = sextant_instance_get_record (instance);
  if (record->begin != SEXTANT_NULL && record->end != SEXTANT_NULL)
    sextant_session_show_range (self->session, record->begin, record->end);
  caption = g_strdup_printf ("%s %s", record->call != NULL ? record->call : "The call",
                             record->site_kind == SEXTANT_SITE_FUNCTION
                             ? "is in the function that begins here (the trace has no call sites)"
                             : "that lost the time");
  sextant_source_view_show (self->source_view, record->file, record->line, caption);
}

/* A trace shown: the timeline's pane as high as its rows, at least a
 * third of the height; the page under it keeps BOTTOM_MIN pixels, or three
 * fifths of the height when it is the Tree or the Matrix (--page,
 * --collective).
 * The pane's height is known once it is allocated ("max-position"); the
 * divider is the user's after that. */
#define BOTTOM_MIN 260

static void
fit_panes (SextantWindow *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->down));
  gboolean source = g_strcmp0 (gtk_stack_get_visible_child_name (self->views), "source") == 0;
  int natural = 0;

  if (!self->fit_panes || height <= 0)
    return;
  self->fit_panes = FALSE;
  gtk_widget_measure (GTK_WIDGET (self->timeline), GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  gtk_paned_set_position (self->down,
                          MAX (MIN (natural + 40, source ? height - BOTTOM_MIN : height * 2 / 5), height / 3));
}

/* An item clicked in the timeline: the details pane shows it */
static void
item_changed_cb (SextantWindow *self)
{
  gboolean shown = self->session != NULL && sextant_session_get_item (self->session) != NULL;
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));

  /* the focus leaves the pane before it hides */
  if (!shown && focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->details_pane)))
    gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
  gtk_revealer_set_reveal_child (self->details_revealer, shown);
  _sextant_window_actions_update (self);
}

/**
 * sextant_window_show_source:
 * @file: the file as the trace names it
 * @line: its line (0: none)
 * @caption: (nullable): what the caption says of it
 *
 * Shows @file at @line in the Source page (the details pane's "Show
 * Source"), until an instance is chosen.
 */
void
sextant_window_show_source (SextantWindow *self,
                            const char    *file,
                            gint64         line,
                            const char    *caption)
{
  g_return_if_fail (SEXTANT_IS_WINDOW (self));
  g_return_if_fail (file != NULL);

  sextant_window_show_page (self, "source");
  sextant_source_view_show (self->source_view, file, line, caption);
}

/* A collective chosen (a click in the timeline): its tree */
static void
collective_changed_cb (SextantWindow *self)
{
  if (self->session != NULL && sextant_session_get_collective (self->session) != NULL)
    gtk_stack_set_visible_child_name (self->views, "tree");
}

/* The matrix's pair filter: a bar says whose messages the timeline draws */
static void
pair_filter_cb (SextantWindow *self)
{
  const SextantPairFilter *filter = self->session != NULL ? sextant_session_get_pair_filter (self->session) : NULL;

  if (filter != NULL)
    {
      g_autofree char *pair = sextant_session_dup_pair_filter_text (self->session);
      g_autofree char *text = g_strdup_printf ("The timeline draws only the messages %s", pair);

      gtk_label_set_text (self->filter_label, text);
    }
  gtk_revealer_set_reveal_child (self->filter_revealer, filter != NULL);
  _sextant_window_actions_update (self);
}

static void
set_session (SextantWindow  *self,
             SextantSession *session)
{
  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  gtk_widget_set_visible (self->zoom_box, session != NULL);
  gtk_widget_set_visible (self->messages_button, session != NULL);
  gtk_widget_set_visible (self->lost_button, session != NULL);
  sextant_timeline_set_session (self->timeline, session);
  _sextant_window_timeline_update (self);
  sextant_pattern_browser_set_session (self->browser, session);
  sextant_tree_view_set_session (self->tree_view, session);
  sextant_matrix_view_set_session (self->matrix_view, session);
  sextant_details_pane_set_session (self->details_pane, session);
  if (session != NULL)
    {
      adw_window_title_set_title (self->window_title, sextant_session_get_title (session));
      adw_window_title_set_subtitle (self->window_title, sextant_session_get_path (session));
      gtk_window_set_title (GTK_WINDOW (self), sextant_session_get_title (session));
      gtk_stack_set_visible_child_name (self->stack, "trace");
      gtk_widget_grab_focus (GTK_WIDGET (self->browser));
    }
  else
    {
      adw_window_title_set_title (self->window_title, "Sextant");
      adw_window_title_set_subtitle (self->window_title, NULL);
      gtk_window_set_title (GTK_WINDOW (self), "Sextant");
      gtk_stack_set_visible_child_name (self->stack, "start");
    }
  instance_changed_cb (self);
  pair_filter_cb (self);
  item_changed_cb (self);
  self->fit_panes = session != NULL;
  fit_panes (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
  update_progress (self);
}

/* Returns: (transfer none) (nullable): the session shown */
SextantSession *
sextant_window_get_session (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->session;
}

/* TRUE when the window shows the start page and opens nothing */
gboolean
sextant_window_is_empty (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), FALSE);

  return self->session == NULL && self->loading == NULL;
}

static void
analysed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SextantWindow) self = user_data;
  SextantSession *session = SEXTANT_SESSION (object);
  g_autoptr(GError) error = NULL;

  if (!sextant_session_analyse_finish (session, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf ("The analysis of %s failed: %s",
                                                      sextant_session_get_title (session), error->message);

          _sextant_window_show_error (self, message);
        }
      else if (session == self->session)
        _sextant_window_toast (self, "Analysis cancelled: the previous results stay");
    }
  if (session == self->session)
    g_clear_object (&self->analysis_cancellable);
  update_progress (self);
}

/* Analyses the session shown anew: every pattern, the preferences' parameters (a parallel
 * import's manifest: its shards, a thread each, as `sextant analyze MANIFEST`) */
void
_sextant_window_analyse (SextantWindow *self)
{
  g_auto(GStrv) parameters = NULL;

  if (self->session == NULL || sextant_session_get_analysing (self->session))
    return;

  parameters = sextant_settings_dup_parameters (self->settings);
  g_clear_object (&self->analysis_cancellable);
  self->analysis_cancellable = g_cancellable_new ();
  sextant_session_analyse_async (self->session, NULL, (const char * const *)parameters, self->analysis_cancellable,
                                 analysed_cb, g_object_ref (self));
  update_progress (self);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SextantWindow) self = user_data;
  g_autoptr(SextantSession) session = g_object_ref (SEXTANT_SESSION (object));
  g_autoptr(GError) error = NULL;

  if (session != self->loading)
    return;                     /* another open replaced it */

  g_signal_group_set_target (self->loading_signals, NULL);
  g_clear_object (&self->loading);
  g_clear_object (&self->load_cancellable);
  if (!sextant_session_load_finish (session, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf ("Cannot open %s: %s", sextant_session_get_title (session),
                                                      error->message);

          _sextant_window_show_error (self, message);
        }
      update_progress (self);
      return;
    }

  add_recent (session);
  if (self->initial_to > self->initial_from)
    sextant_session_set_view_seconds (session, self->initial_from, self->initial_to);
  self->initial_from = self->initial_to = 0;
  set_session (self, session);
  /* (a parallel import's manifest too: its shards, as `sextant analyze` does) */
  if (!sextant_session_get_analysis_scope (session)->analysed)
    _sextant_window_analyse (self);
}

/**
 * sextant_window_open:
 * @path: an OTF2 archive (its anchor file or directory) or a trace store
 *
 * Opens @path in this window, importing it first if it is an archive. An
 * open or an analysis still running is cancelled; the trace shown stays
 * until the new one is ready, and stays if it fails.
 */
void
sextant_window_open (SextantWindow *self,
                     const char    *path)
{
  g_return_if_fail (SEXTANT_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  g_cancellable_cancel (self->analysis_cancellable);
  _sextant_window_show_error (self, NULL);

  g_clear_object (&self->loading);
  self->loading = sextant_session_new (path);
  self->load_cancellable = g_cancellable_new ();
  g_signal_group_set_target (self->loading_signals, self->loading);
  sextant_session_load_async (self->loading, self->load_cancellable, loaded_cb, g_object_ref (self));
  update_progress (self);
}

void
sextant_window_add_source_root (SextantWindow *self,
                                const char    *dir)
{
  g_autoptr(GStrvBuilder) roots = g_strv_builder_new ();

  g_return_if_fail (SEXTANT_IS_WINDOW (self));
  g_return_if_fail (dir != NULL);

  if (self->extra_roots != NULL)
    g_strv_builder_addv (roots, (const char **)self->extra_roots);
  g_strv_builder_add (roots, dir);
  g_strfreev (self->extra_roots);
  self->extra_roots = g_strv_builder_end (roots);
  update_source_roots (self);
}

/* The time range, in seconds since the run's start, the next trace opens at */
void
sextant_window_set_initial_view (SextantWindow *self,
                                 double         from,
                                 double         to)
{
  g_return_if_fail (SEXTANT_IS_WINDOW (self));
  g_return_if_fail (to > from);

  self->initial_from = from;
  self->initial_to = to;
}

static void
choose_worst (SextantWindow *self)
{
  if (!self->choose_worst || self->session == NULL || sextant_session_get_analysing (self->session) ||
      !sextant_pattern_browser_get_ready (self->browser))
    return;

  self->choose_worst = FALSE;
  if (g_list_model_get_n_items (sextant_pattern_browser_get_instances (self->browser)) > 0)
    sextant_pattern_browser_activate (self->browser, 0);
  update_ready (self);
}

/* Once the next trace's patterns are listed, its worst instance is chosen */
void
sextant_window_choose_worst_when_listed (SextantWindow *self)
{
  g_return_if_fail (SEXTANT_IS_WINDOW (self));

  self->choose_worst = TRUE;
  choose_worst (self);
}

/* --instance: the instance of that id, found in the store ------------------- */

static void
instance_found_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SextantWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantInstance) instance = sextant_session_find_instance_finish (SEXTANT_SESSION (object), result,
                                                                              &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->finding_instance = FALSE;
  self->pending_instance = SEXTANT_NULL;
  if (instance == NULL)
    _sextant_window_show_error (self, error->message);
  else if (self->session == SEXTANT_SESSION (object))
    sextant_session_choose_instance (self->session, instance);
  update_ready (self);
}

/* What the command line asked to choose, once the trace is shown (and
 * analysed, for an instance) */
static void
apply_pending (SextantWindow *self)
{
  if (self->session == NULL || self->loading != NULL)
    return;

  if (self->pending_collective != NULL)
    {
      g_autofree char *id = g_steal_pointer (&self->pending_collective);

      sextant_session_choose_collective (self->session, id);
    }
  if (self->pending_instance != SEXTANT_NULL && !self->finding_instance &&
      !sextant_session_get_analysing (self->session) && sextant_session_get_analysis_scope (self->session)->analysed)
    {
      g_clear_object (&self->instance_cancellable);
      self->instance_cancellable = g_cancellable_new ();
      self->finding_instance = TRUE;
      sextant_session_find_instance_async (self->session, self->pending_instance, self->instance_cancellable,
                                           instance_found_cb, g_object_ref (self));
    }
}

/**
 * sextant_window_choose_collective_when_shown:
 * @id: a collective id (sextant-comm-tree.h)
 *
 * Once the next trace is shown, chooses that collective: the Tree page
 * shows its tree (or why it has none).
 */
void
sextant_window_choose_collective_when_shown (SextantWindow *self,
                                             const char    *id)
{
  g_return_if_fail (SEXTANT_IS_WINDOW (self));
  g_return_if_fail (id != NULL);

  g_free (self->pending_collective);
  self->pending_collective = g_strdup (id);
  apply_pending (self);
  update_ready (self);
}

/**
 * sextant_window_choose_instance_when_analysed:
 * @id: a pattern instance id (pattern_instance.id, as `sextant analyze
 *   --json` gives them)
 *
 * Once the next trace is shown and analysed, chooses that instance, as a
 * click in the instance table does; an id the analysis does not have is
 * said in the error bar.
 */
void
sextant_window_choose_instance_when_analysed (SextantWindow *self,
                                              gint64         id)
{
  g_return_if_fail (SEXTANT_IS_WINDOW (self));

  self->pending_instance = id;
  apply_pending (self);
  update_ready (self);
}

/* The pages under the timeline ---------------------------------------------------- */

/**
 * sextant_window_show_page:
 * @page: "source", "tree" or "matrix"
 */
void
sextant_window_show_page (SextantWindow *self,
                          const char    *page)
{
  g_return_if_fail (SEXTANT_IS_WINDOW (self));
  g_return_if_fail (page != NULL);

  if (gtk_stack_get_child_by_name (self->views, page) != NULL)
    gtk_stack_set_visible_child_name (self->views, page);
}

/* Returns: the page shown under the timeline: "source", "tree" or "matrix" */
const char *
sextant_window_get_page (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return gtk_stack_get_visible_child_name (self->views);
}

/* The widget of the page shown that takes the focus */
GtkWidget *
_sextant_window_page_widget (SextantWindow *self)
{
  const char *page = gtk_stack_get_visible_child_name (self->views);

  if (g_strcmp0 (page, "tree") == 0)
    return GTK_WIDGET (self->tree_view);
  if (g_strcmp0 (page, "matrix") == 0)
    return GTK_WIDGET (self->matrix_view);
  return GTK_WIDGET (self->source_view);
}

static void
views_page_cb (SextantWindow *self)
{
  update_ready (self);
}

SextantTreeView *
sextant_window_get_tree_view (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->tree_view;
}

SextantMatrixView *
sextant_window_get_matrix_view (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->matrix_view;
}

SextantTimeline *
sextant_window_get_timeline (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->timeline;
}

SextantPatternBrowser *
sextant_window_get_pattern_browser (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->browser;
}

SextantDetailsPane *
sextant_window_get_details_pane (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->details_pane;
}

SextantSourceView *
sextant_window_get_source_view (SextantWindow *self)
{
  g_return_val_if_fail (SEXTANT_IS_WINDOW (self), NULL);

  return self->source_view;
}

/* GObject ------------------------------------------------------------------------ */

/* The timeline could not read the store (a file gone, or damaged) */
static void
timeline_error_cb (SextantWindow *self)
{
  g_autofree char *error = NULL;
  g_autofree char *message = NULL;

  g_object_get (self->timeline, "error", &error, NULL);
  if (error == NULL)
    return;
  message = g_strdup_printf ("The timeline cannot be read: %s", error);
  _sextant_window_show_error (self, message);
}

static void
browser_ready_cb (SextantWindow *self)
{
  choose_worst (self);
  update_ready (self);
}

static gboolean
sextant_window_close_request (GtkWindow *window)
{
  SextantWindow *self = SEXTANT_WINDOW (window);
  int width, height;

  /* what runs holds a reference on the window until it ends */
  g_cancellable_cancel (self->load_cancellable);
  g_cancellable_cancel (self->analysis_cancellable);
  g_cancellable_cancel (self->instance_cancellable);

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }

  return GTK_WINDOW_CLASS (sextant_window_parent_class)->close_request (window);
}

static void
sextant_window_dispose (GObject *object)
{
  SextantWindow *self = SEXTANT_WINDOW (object);

  g_cancellable_cancel (self->load_cancellable);
  g_cancellable_cancel (self->analysis_cancellable);
  g_cancellable_cancel (self->instance_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->analysis_cancellable);
  g_clear_object (&self->instance_cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  if (self->loading_signals != NULL)
    g_signal_group_set_target (self->loading_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->loading_signals);
  g_clear_object (&self->loading);
  g_clear_object (&self->session);

  gtk_widget_dispose_template (GTK_WIDGET (self), SEXTANT_TYPE_WINDOW);

  G_OBJECT_CLASS (sextant_window_parent_class)->dispose (object);
}

static void
sextant_window_finalize (GObject *object)
{
  SextantWindow *self = SEXTANT_WINDOW (object);

  g_clear_object (&self->settings);
  g_strfreev (self->extra_roots);
  g_free (self->error);
  g_free (self->pending_collective);

  G_OBJECT_CLASS (sextant_window_parent_class)->finalize (object);
}

static void
sextant_window_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  SextantWindow *self = SEXTANT_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
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

  /* the trace shown */
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SEXTANT_TYPE_SESSION,
                                                  G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* what the error bar says: a failed import or analysis, an unreadable store */
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SEXTANT_TYPE_PATTERN_BROWSER);
  g_type_ensure (SEXTANT_TYPE_TIMELINE);
  g_type_ensure (SEXTANT_TYPE_SOURCE_VIEW);
  g_type_ensure (SEXTANT_TYPE_TREE_VIEW);
  g_type_ensure (SEXTANT_TYPE_MATRIX_VIEW);
  g_type_ensure (SEXTANT_TYPE_DETAILS_PANE);
  /* links the bundle (its constructor registers it) */
  (void)sextant_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/sextant/Sextant/ui/sextant-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, messages_button);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, lost_button);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, progress_label);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, recent_group);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, browser);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, down);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, details_revealer);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, details_pane);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, filter_revealer);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, filter_label);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, views);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, source_view);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, tree_view);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, tree_title);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, tree_model_button);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, tree_torus_button);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, matrix_view);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, matrix_summary);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, matrix_metric);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, matrix_transfers);
  gtk_widget_class_bind_template_child (widget_class, SextantWindow, matrix_range_button);
  gtk_widget_class_bind_template_callback (widget_class, recent_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, views_page_cb);

  _sextant_window_class_actions_init (widget_class);
  _sextant_window_timeline_class_init (widget_class);
}

static void
sextant_window_init (SextantWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->pending_instance = SEXTANT_NULL;

  self->settings = g_object_ref (sextant_settings_get_default ());
  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* the session shown: its chosen instance, its analysis */
  self->session_signals = g_signal_group_new (SEXTANT_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::instance", G_CALLBACK (instance_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::collective", G_CALLBACK (collective_changed_cb),
                                  self);
  g_signal_group_connect_swapped (self->session_signals, "notify::pair-filter", G_CALLBACK (pair_filter_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::item", G_CALLBACK (item_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::can-go-back",
                                  G_CALLBACK (_sextant_window_actions_update), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::can-go-forward",
                                  G_CALLBACK (_sextant_window_actions_update), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::analysing", G_CALLBACK (update_progress), self);
  g_signal_group_connect_swapped (self->session_signals, "analysed-elsewhere", G_CALLBACK (analysed_elsewhere_cb),
                                  self);
  g_signal_group_connect_swapped (self->session_signals, "notify::analysis-progress",
                                  G_CALLBACK (update_progress), self);
  /* the one being opened: its import */
  self->loading_signals = g_signal_group_new (SEXTANT_TYPE_SESSION);
  g_signal_group_connect_swapped (self->loading_signals, "notify::importing", G_CALLBACK (update_progress), self);
  g_signal_group_connect_swapped (self->loading_signals, "notify::progress", G_CALLBACK (update_progress), self);

  g_signal_connect_object (self->timeline, "notify::ready", G_CALLBACK (update_ready), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "notify::error", G_CALLBACK (timeline_error_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->browser, "notify::ready", G_CALLBACK (browser_ready_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->source_view, "notify::loaded", G_CALLBACK (update_ready), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->down, "notify::max-position", G_CALLBACK (fit_panes), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tree_view, "notify::ready", G_CALLBACK (update_ready), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->details_pane, "notify::ready", G_CALLBACK (update_ready), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->matrix_view, "notify::ready", G_CALLBACK (update_ready), self, G_CONNECT_SWAPPED);

  /* the pages' headers */
  g_object_bind_property (self->tree_view, "title", self->tree_title, "label", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->tree_view, "title", self->tree_title, "tooltip-text", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->tree_view, "model-layout", self->tree_model_button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self->tree_view, "has-model", self->tree_model_button, "visible", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->tree_view, "torus-layout", self->tree_torus_button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self->tree_view, "has-torus", self->tree_torus_button, "visible", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->matrix_view, "summary", self->matrix_summary, "label", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->matrix_view, "metric", self->matrix_metric, "selected",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self->matrix_view, "transfers", self->matrix_transfers, "selected",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self->matrix_view, "visible-range", self->matrix_range_button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_signal_connect_object (self->settings, "changed::source-roots", G_CALLBACK (update_source_roots), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed", G_CALLBACK (rebuild_recent), self,
                           G_CONNECT_SWAPPED);

  /* the source follows the application's light or dark style */
  g_object_bind_property (adw_style_manager_get_default (), "dark", self->source_view, "dark",
                          G_BINDING_SYNC_CREATE);

  _sextant_window_actions_init (self);
  _sextant_window_timeline_init (self);
  _sextant_window_dnd_init (self);
  update_source_roots (self);
  rebuild_recent (self);
  gtk_widget_set_visible (self->zoom_box, FALSE);
  gtk_widget_set_visible (self->messages_button, FALSE);
  gtk_widget_set_visible (self->lost_button, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "start");
}

SextantWindow *
sextant_window_new (GtkApplication *application)
{
  return g_object_new (SEXTANT_TYPE_WINDOW, "application", application, NULL);
}
