/*
 * sextant-session-instance.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A pattern instance of the session's last analysis found by its id, for
 * the views that know an id but not the instance: `--instance ID` and a
 * click on lost time in the timeline. One indexed read
 * (sextant_store_get_pattern_instance) on a connection of the worker's
 * own.
 */
#include "config.h"

#include "sextant-instance.h"
#include "sextant-session.h"

typedef struct
{
  SextantStore *store;
  gint64        id;
  gint64        resolution;
} Find;

static void
find_free (Find *find)
{
  g_clear_object (&find->store);
  g_free (find);
}

static void
find_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Find *find = task_data;
  SextantPatternInstance *record = NULL;
  GError *error = NULL;

  sextant_store_set_cancellable (find->store, cancellable);
  if (!sextant_store_get_pattern_instance (find->store, find->id, &record, &error))
    g_task_return_error (task, error);
  else if (record == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                             "The analysis has no pattern instance %" G_GINT64_FORMAT, find->id);
  else
    g_task_return_pointer (task, sextant_instance_new (record, find->resolution), g_object_unref);
  sextant_store_set_cancellable (find->store, NULL);
}

/**
 * sextant_session_find_instance_async:
 * @id: a pattern instance's id (pattern_instance.id)
 *
 * Reads that instance of the last analysis on a worker thread; see
 * sextant_session_find_instance_finish().
 */
void
sextant_session_find_instance_async (SextantSession      *self,
                                     gint64               id,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  Find *find;

  g_return_if_fail (SEXTANT_IS_SESSION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_session_find_instance_async);
  find = g_new0 (Find, 1);
  find->id = id;
  find->resolution = sextant_session_get_resolution (self);
  g_task_set_task_data (task, find, (GDestroyNotify)find_free);
  if (!(find->store = sextant_session_open_store (self, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_run_in_thread (task, find_worker);
}

/**
 * sextant_session_find_instance_finish:
 *
 * Returns: (transfer full): the instance, or %NULL with @error set (the
 *   store could not be read, or G_IO_ERROR_NOT_FOUND: the last analysis
 *   has no instance of that id)
 */
SextantInstance *
sextant_session_find_instance_finish (SextantSession  *self,
                                      GAsyncResult    *result,
                                      GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
