/*
 * sextant-pattern-browser.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two reads leave the main thread, each on a connection of its own from
 * the session: the patterns' totals (a few dozen rows, read when the
 * session or its generation changes) and the chosen pattern's worst
 * instances (MAX_INSTANCES rows, read when a pattern is chosen). A newer
 * read cancels the one before. The instances become SextantInstance
 * objects, few enough for a GListStore; the table sorts them with the
 * sorters its template declares per column.
 */
#include "config.h"

#include "sextant-resources.h"
#include "sextant-pattern-browser.h"

#define MAX_INSTANCES 1000

struct _SextantPatternBrowser
{
  GtkWidget           parent_instance;

  /* Template widgets */
  GtkWidget          *box;
  GtkLabel           *status;
  GtkWidget          *scope_box;
  GtkLabel           *scope_label;
  GtkListBox         *patterns;
  GtkColumnView      *instances_view;
  GtkColumnViewColumn *lost_column;
  GtkSingleSelection *selection;
  GtkSortListModel   *sorted;
  GListStore         *instances;
  GtkLabel           *details;

  /* Owned references */
  SextantSession     *session;
  GSignalGroup       *session_signals;
  GPtrArray          *totals;                 /* SextantPatternTotal with instances, worst first */
  GCancellable       *cancellable;            /* of the totals, and of the instances through the next */
  GCancellable       *instances_cancellable;  /* of the chosen pattern's instances */
  char               *chosen;                 /* the chosen pattern's id */

  gboolean            ready;
  gboolean            filling;                /* the instances are being replaced: no choice made */
};

G_DEFINE_FINAL_TYPE (SextantPatternBrowser, sextant_pattern_browser, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_READY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void load_totals  (SextantPatternBrowser *self);
static void show_details (SextantPatternBrowser *self,
                          SextantInstance       *instance);

static void
set_ready (SextantPatternBrowser *self,
           gboolean               ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

static void
show_error (SextantPatternBrowser *self,
            const GError          *error)
{
  g_autofree char *text = g_strdup_printf ("The patterns cannot be read: %s", error->message);

  gtk_label_set_text (self->status, text);
}

static void
clear_instances (SextantPatternBrowser *self)
{
  self->filling = TRUE;
  g_list_store_remove_all (self->instances);
  self->filling = FALSE;
}

/* The chosen pattern's instances ------------------------------------------------ */

typedef struct
{
  SextantSession *session;
  char           *pattern;
} InstancesRequest;

static void
instances_request_free (InstancesRequest *request)
{
  g_clear_object (&request->session);
  g_free (request->pattern);
  g_free (request);
}

static void
load_instances_worker (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  InstancesRequest *request = task_data;
  g_autoptr(SextantStore) store = NULL;
  GPtrArray *records;
  GError *error = NULL;

  if (!(store = sextant_session_open_store (request->session, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  sextant_store_set_cancellable (store, cancellable);
  if (!(records = sextant_store_list_pattern_instances (store, request->pattern, MAX_INSTANCES, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, records, (GDestroyNotify)g_ptr_array_unref);
}

static void
instances_loaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(SextantPatternBrowser) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = g_task_propagate_pointer (G_TASK (result), &error);
  g_autoptr(GPtrArray) items = NULL;
  gint64 resolution;

  if (records == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error);
      return;
    }

  resolution = sextant_session_get_resolution (self->session);
  items = g_ptr_array_new_full (records->len, g_object_unref);
  /* the items own the records */
  g_ptr_array_set_free_func (records, NULL);
  for (guint i = 0; i < records->len; i++)
    g_ptr_array_add (items, sextant_instance_new (g_ptr_array_index (records, i), resolution));

  self->filling = TRUE;
  g_list_store_splice (self->instances, 0, g_list_model_get_n_items (G_LIST_MODEL (self->instances)),
                       items->pdata, items->len);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->filling = FALSE;
  show_details (self, NULL);
  set_ready (self, TRUE);
}

static void
cancel_too (GCancellable *cancellable,
            GCancellable *other)
{
  g_cancellable_cancel (other);
}

static void
pattern_selected_cb (GtkListBox            *list,
                     GtkListBoxRow         *row,
                     SextantPatternBrowser *self)
{
  g_autoptr(GTask) task = NULL;
  InstancesRequest *request;
  const SextantPatternTotal *total;
  int index;

  if (row == NULL || self->totals == NULL || (index = gtk_list_box_row_get_index (row)) < 0 ||
      (guint)index >= self->totals->len)
    return;

  total = g_ptr_array_index (self->totals, index);
  g_free (self->chosen);
  self->chosen = g_strdup (total->id);
  set_ready (self, FALSE);
  g_cancellable_cancel (self->instances_cancellable);
  g_clear_object (&self->instances_cancellable);
  self->instances_cancellable = g_cancellable_new ();
  /* a new session or generation cancels these too */
  g_cancellable_connect (self->cancellable, G_CALLBACK (cancel_too), g_object_ref (self->instances_cancellable),
                         g_object_unref);

  request = g_new0 (InstancesRequest, 1);
  request->session = g_object_ref (self->session);
  request->pattern = g_strdup (total->id);
  task = g_task_new (NULL, self->instances_cancellable, instances_loaded_cb, g_object_ref (self));
  g_task_set_source_tag (task, pattern_selected_cb);
  g_task_set_task_data (task, request, (GDestroyNotify)instances_request_free);
  g_task_run_in_thread (task, load_instances_worker);
}

/* The patterns ------------------------------------------------------------------ */

static void
load_totals_worker (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  g_autoptr(SextantStore) store = NULL;
  GPtrArray *totals;
  GError *error = NULL;

  if (!(store = sextant_session_open_store (task_data, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  sextant_store_set_cancellable (store, cancellable);
  if (!(totals = sextant_store_list_pattern_totals (store, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, totals, (GDestroyNotify)g_ptr_array_unref);
}

static GtkWidget *
pattern_row_widget (const SextantPatternTotal *total,
                    gint64                     resolution)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *title = gtk_label_new (total->title);
  g_autofree char *lost = sextant_format_duration (total->severity, resolution);
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, total->instances);
  g_autofree char *tooltip = NULL;
  GtkWidget *time = gtk_label_new (lost);
  GtkWidget *n = gtk_label_new (count);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (title, TRUE);
  tooltip = g_strdup_printf ("%s (%s): %s instances lost %s in all%s%s", total->title, total->id, count, lost,
                             total->description != NULL ? ".\n" : "",
                             total->description != NULL ? total->description : "");
  gtk_widget_set_tooltip_text (box, tooltip);
  gtk_widget_add_css_class (n, "dim-label");
  gtk_widget_add_css_class (n, "numeric");
  gtk_widget_add_css_class (time, "numeric");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), n);
  gtk_box_append (GTK_BOX (box), time);

  return box;
}

/* What the scope of the analysis leaves out, if anything */
static void
update_scope (SextantPatternBrowser *self)
{
  const SextantAnalysisScope *scope = self->session != NULL ? sextant_session_get_analysis_scope (self->session) : NULL;
  g_autofree char *list = NULL;
  g_autofree char *text = NULL;

  if (scope == NULL || !scope->analysed || scope->selected == NULL)
    {
      gtk_widget_set_visible (self->scope_box, FALSE);
      gtk_label_set_text (self->scope_label, "");
      return;
    }

  list = g_strjoinv (", ", scope->selected);
  text = g_strdup_printf ("Partial analysis: only %s %s run. Other wait states may be there.", list,
                          g_strv_length (scope->selected) == 1 ? "was" : "were");
  gtk_label_set_text (self->scope_label, text);
  gtk_widget_set_visible (self->scope_box, TRUE);
}

static void
totals_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(SextantPatternBrowser) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all = g_task_propagate_pointer (G_TASK (result), &error);
  gint64 resolution;
  gint64 worst = 0;
  guint select = 0;
  g_autofree char *status = NULL;
  GtkWidget *child;

  if (all == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error);
      return;
    }

  g_clear_pointer (&self->totals, g_ptr_array_unref);
  self->totals = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_pattern_total_free);
  /* the patterns without instances are not listed (the catalogue has 28) */
  for (guint i = 0; i < all->len; i++)
    {
      SextantPatternTotal *total = g_ptr_array_index (all, i);

      if (total->instances > 0)
        g_ptr_array_add (self->totals, g_steal_pointer (&g_ptr_array_index (all, i)));
    }

  resolution = sextant_session_get_resolution (self->session);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->patterns))) != NULL)
    gtk_list_box_remove (self->patterns, child);
  for (guint i = 0; i < self->totals->len; i++)
    {
      const SextantPatternTotal *total = g_ptr_array_index (self->totals, i);

      gtk_list_box_append (self->patterns, pattern_row_widget (total, resolution));
      worst = MAX (worst, total->severity);
      if (g_strcmp0 (total->id, self->chosen) == 0)
        select = i;
    }

  if (!sextant_session_get_analysis_scope (self->session)->analysed)
    status = g_strdup ("Not analysed yet.");
  else if (self->totals->len == 0)
    status = g_strdup ("No pattern found: no wait state of the catalogue in this trace.");
  else
    {
      g_autofree char *lost = sextant_format_duration (worst, resolution);

      status = g_strdup_printf ("%u pattern%s found; the worst lost %s.", self->totals->len,
                                self->totals->len == 1 ? "" : "s", lost);
    }
  gtk_label_set_text (self->status, status);
  update_scope (self);

  if (self->totals->len > 0)
    sextant_pattern_browser_select (self, select);
  else
    {
      clear_instances (self);
      set_ready (self, TRUE);
    }
}

/* Reads the session's patterns again, unless an analysis is writing them */
static void
load_totals (SextantPatternBrowser *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_ready (self, FALSE);
  if (self->session == NULL)
    return;

  if (sextant_session_get_analysing (self->session))
    {
      gtk_label_set_text (self->status, "Finding patterns…");
      return;
    }

  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, totals_loaded_cb, g_object_ref (self));
  g_task_set_source_tag (task, load_totals);
  g_task_set_task_data (task, g_object_ref (self->session), g_object_unref);
  g_task_run_in_thread (task, load_totals_worker);
}

/* The chosen instance --------------------------------------------------------- */

static void
show_details (SextantPatternBrowser *self,
              SextantInstance       *instance)
{
  g_autofree char *markup = NULL;

  if (instance == NULL)
    {
      gtk_label_set_text (self->details, g_list_model_get_n_items (G_LIST_MODEL (self->instances)) > 0
                                         ? "Choose an instance to see what happened, where and why." : "");
      return;
    }

  markup = sextant_instance_dup_details (instance, sextant_session_get_time_begin (self->session));
  gtk_label_set_markup (self->details, markup);
}

static void
selection_changed_cb (GtkSingleSelection    *selection,
                      guint                  position,
                      guint                  n_items,
                      SextantPatternBrowser *self)
{
  SextantInstance *instance = gtk_single_selection_get_selected_item (selection);

  show_details (self, instance);
  if (!self->filling && self->session != NULL)
    sextant_session_set_instance (self->session, instance);
}

/* Enter or a double click on a row: chosen again, shown again */
static void
instance_activated_cb (GtkColumnView         *view,
                       guint                  position,
                       SextantPatternBrowser *self)
{
  sextant_pattern_browser_activate (self, position);
}

/**
 * sextant_pattern_browser_activate:
 * @index: a row of the instance table, as sorted now
 *
 * Chooses that instance: it becomes the session's, and is shown again if
 * it already was.
 */
void
sextant_pattern_browser_activate (SextantPatternBrowser *self,
                                  guint                  index)
{
  g_autoptr(SextantInstance) instance = NULL;

  g_return_if_fail (SEXTANT_IS_PATTERN_BROWSER (self));

  if ((instance = g_list_model_get_item (G_LIST_MODEL (self->sorted), index)) == NULL || self->session == NULL)
    return;

  if (sextant_session_get_instance (self->session) == instance)
    sextant_session_set_instance (self->session, NULL);
  gtk_single_selection_set_selected (self->selection, index);
  sextant_session_set_instance (self->session, instance);
}

/* The session ------------------------------------------------------------------- */

void
sextant_pattern_browser_set_session (SextantPatternBrowser *self,
                                     SextantSession        *session)
{
  GtkWidget *child;

  g_return_if_fail (SEXTANT_IS_PATTERN_BROWSER (self));
  g_return_if_fail (session == NULL || SEXTANT_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  g_clear_pointer (&self->totals, g_ptr_array_unref);
  g_clear_pointer (&self->chosen, g_free);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->patterns))) != NULL)
    gtk_list_box_remove (self->patterns, child);
  clear_instances (self);
  gtk_label_set_text (self->status, "");
  update_scope (self);
  show_details (self, NULL);
  load_totals (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

static void
session_analysing_cb (SextantPatternBrowser *self)
{
  /* done: the store has the new patterns (or, failed, the old ones) */
  load_totals (self);
}

gboolean
sextant_pattern_browser_get_ready (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), FALSE);

  return self->ready;
}

guint
sextant_pattern_browser_get_n_patterns (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), 0);

  return self->totals != NULL ? self->totals->len : 0;
}

const char *
sextant_pattern_browser_get_pattern_id (SextantPatternBrowser *self,
                                        guint                  index)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  if (self->totals == NULL || index >= self->totals->len)
    return NULL;

  return ((SextantPatternTotal *)g_ptr_array_index (self->totals, index))->id;
}

/* Chooses the @index-th pattern; its instances load on a worker thread */
void
sextant_pattern_browser_select (SextantPatternBrowser *self,
                                guint                  index)
{
  GtkListBoxRow *row;

  g_return_if_fail (SEXTANT_IS_PATTERN_BROWSER (self));

  if ((row = gtk_list_box_get_row_at_index (self->patterns, (int)index)) == NULL)
    return;

  if (gtk_list_box_get_selected_row (self->patterns) == row)
    pattern_selected_cb (self->patterns, row, self);
  else
    gtk_list_box_select_row (self->patterns, row);
}

/* Returns: (transfer none): the instances as the table shows them (sorted) */
GListModel *
sextant_pattern_browser_get_instances (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

GtkColumnView *
sextant_pattern_browser_get_instance_view (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return self->instances_view;
}

/* What the browser says of the analysis ("13 patterns found; …") */
const char *
sextant_pattern_browser_get_status (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return gtk_label_get_text (self->status);
}

/* Returns: (nullable): what it says of a partial analysis, NULL if it was whole */
const char *
sextant_pattern_browser_get_scope_text (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return gtk_widget_get_visible (self->scope_box) ? gtk_label_get_text (self->scope_label) : NULL;
}

/* The details pane's text */
const char *
sextant_pattern_browser_get_details (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return gtk_label_get_text (self->details);
}

/* GObject -------------------------------------------------------------------- */

static gboolean
sextant_pattern_browser_grab_focus (GtkWidget *widget)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (widget);

  return gtk_widget_grab_focus (GTK_WIDGET (self->patterns));
}

static void
sextant_pattern_browser_dispose (GObject *object)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->instances_cancellable);
  g_clear_object (&self->instances_cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEXTANT_TYPE_PATTERN_BROWSER);

  G_OBJECT_CLASS (sextant_pattern_browser_parent_class)->dispose (object);
}

static void
sextant_pattern_browser_finalize (GObject *object)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (object);

  g_clear_pointer (&self->totals, g_ptr_array_unref);
  g_free (self->chosen);

  G_OBJECT_CLASS (sextant_pattern_browser_parent_class)->finalize (object);
}

static void
sextant_pattern_browser_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_pattern_browser_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      sextant_pattern_browser_set_session (SEXTANT_PATTERN_BROWSER (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_pattern_browser_class_init (SextantPatternBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sextant_pattern_browser_dispose;
  object_class->finalize = sextant_pattern_browser_finalize;
  object_class->get_property = sextant_pattern_browser_get_property;
  object_class->set_property = sextant_pattern_browser_set_property;
  widget_class->grab_focus = sextant_pattern_browser_grab_focus;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SEXTANT_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the patterns are listed, and the chosen one's instances */
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SEXTANT_TYPE_INSTANCE);
  /* links the bundle (its constructor registers it) */
  (void)sextant_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/sextant/Sextant/ui/sextant-pattern-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, box);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, status);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, scope_box);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, scope_label);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, patterns);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, instances_view);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, lost_column);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, selection);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, sorted);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, instances);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, details);
  gtk_widget_class_set_css_name (widget_class, "patternbrowser");
}

static void
sextant_pattern_browser_init (SextantPatternBrowser *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect (self->patterns, "row-selected", G_CALLBACK (pattern_selected_cb), self);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect (self->instances_view, "activate", G_CALLBACK (instance_activated_cb), self);
  /* worst first, until the user sorts otherwise */
  gtk_column_view_sort_by_column (self->instances_view, self->lost_column, GTK_SORT_DESCENDING);

  self->session_signals = g_signal_group_new (SEXTANT_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::generation", G_CALLBACK (load_totals), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::analysing", G_CALLBACK (session_analysing_cb),
                                  self);
}

GtkWidget *
sextant_pattern_browser_new (void)
{
  return g_object_new (SEXTANT_TYPE_PATTERN_BROWSER, NULL);
}
