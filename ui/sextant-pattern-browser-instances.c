/*
 * sextant-pattern-browser-instances.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chosen pattern's worst instances (MAX_INSTANCES rows), read on a
 * connection of their own from the session when a pattern is chosen; a
 * newer read cancels the one before. They become SextantInstance objects,
 * few enough for a GListStore; the table sorts them with the sorters its
 * template declares per column.
 *
 * The chosen instance is the session's: a row selected (a click, the
 * arrows) or activated (Enter) makes it so, and the table and the details
 * under it follow the session's (chosen here or elsewhere). A refill of
 * the list (the same pattern chosen again, an analysis run again) keeps
 * it: its row is selected again where the new list has it, so the views
 * that draw it (the timeline, the Tree page) keep it too.
 */
#include "config.h"

#include "sextant-pattern-browser-private.h"

#define MAX_INSTANCES 1000

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

/* Returns: (nullable): the pattern of the session's chosen instance */
const char *
_sextant_pattern_browser_instance_pattern (SextantPatternBrowser *self)
{
  SextantInstance *instance = self->session != NULL ? sextant_session_get_instance (self->session) : NULL;

  return instance != NULL ? sextant_instance_get_record (instance)->pattern : NULL;
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
  gboolean kept;

  if (records == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _sextant_pattern_browser_show_error (self, error);
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
  /* the session's instance, if it is of this pattern (chosen before the
   * refill, or elsewhere meanwhile), keeps its row; choosing another
   * pattern took it from the session before this read began */
  kept = g_strcmp0 (_sextant_pattern_browser_instance_pattern (self), self->chosen) == 0;
  _sextant_pattern_browser_show_instance (self, kept ? sextant_session_get_instance (self->session) : NULL);
  _sextant_pattern_browser_set_ready (self, TRUE);
}

static void
cancel_too (GCancellable *cancellable,
            GCancellable *other)
{
  g_cancellable_cancel (other);
}

/* Reads the instances of the @index-th pattern; it is the chosen one */
void
_sextant_pattern_browser_load_instances (SextantPatternBrowser *self,
                                         guint                  index)
{
  g_autoptr(GTask) task = NULL;
  InstancesRequest *request;
  const SextantPatternTotal *total;

  if (self->totals == NULL || index >= self->totals->len)
    return;

  total = g_ptr_array_index (self->totals, index);
  g_free (self->chosen);
  self->chosen = g_strdup (total->id);
  _sextant_pattern_browser_set_ready (self, FALSE);
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
  g_task_set_source_tag (task, _sextant_pattern_browser_load_instances);
  g_task_set_task_data (task, request, (GDestroyNotify)instances_request_free);
  g_task_run_in_thread (task, load_instances_worker);
}

void
_sextant_pattern_browser_clear_instances (SextantPatternBrowser *self)
{
  self->filling = TRUE;
  g_list_store_remove_all (self->instances);
  self->filling = FALSE;
}

/* The chosen instance ------------------------------------------------------------ */

void
_sextant_pattern_browser_show_details (SextantPatternBrowser *self,
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

/* The row of @instance (the same id) in the table as sorted, or
 * GTK_INVALID_LIST_POSITION */
static guint
instance_row (SextantPatternBrowser *self,
              SextantInstance       *instance)
{
  GListModel *rows = G_LIST_MODEL (self->sorted);
  guint selected = gtk_single_selection_get_selected (self->selection);

  if (instance == NULL)
    return GTK_INVALID_LIST_POSITION;
  if (instance == gtk_single_selection_get_selected_item (self->selection))
    return selected;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(SextantInstance) row = g_list_model_get_item (rows, i);

      if (sextant_instance_get_record (row)->id == sextant_instance_get_record (instance)->id)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

/* @instance (nullable) as the table and the details show it: its row
 * selected where the list has it (the session not told: it has it), its
 * details shown whether or not */
void
_sextant_pattern_browser_show_instance (SextantPatternBrowser *self,
                                        SextantInstance       *instance)
{
  guint position = instance_row (self, instance);

  if (position != gtk_single_selection_get_selected (self->selection))
    {
      self->filling = TRUE;
      gtk_single_selection_set_selected (self->selection, position);
      self->filling = FALSE;
    }
  _sextant_pattern_browser_show_details (self, instance);
}

static void
selection_changed_cb (GtkSingleSelection    *selection,
                      guint                  position,
                      guint                  n_items,
                      SextantPatternBrowser *self)
{
  SextantInstance *instance = gtk_single_selection_get_selected_item (selection);

  _sextant_pattern_browser_show_details (self, instance);
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

  /* the row's selection shows its details; the choice is made once, here */
  self->filling = TRUE;
  gtk_single_selection_set_selected (self->selection, index);
  self->filling = FALSE;
  sextant_session_choose_instance (self->session, instance);
}

/* The table's signals, from the browser's init */
void
_sextant_pattern_browser_connect_instances (SextantPatternBrowser *self)
{
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect (self->instances_view, "activate", G_CALLBACK (instance_activated_cb), self);
}
