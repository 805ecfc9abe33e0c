/*
 * sextant-session-load.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loading a session: on one worker thread the import (when the path is an
 * archive), then the few reads every view needs (a few thousand rows at
 * most: one per location and region), kept on the session read-only; and
 * the getters of what was loaded.
 */
#include "config.h"

#include <math.h>

#include "sextant-importer.h"
#include "sextant-store-shards.h"
#include "sextant-session-private.h"

/* Loading -------------------------------------------------------------------- */

typedef struct
{
  char                 *db_path;
  GPtrArray            *locations;
  GHashTable           *regions;
  SextantTimeSpan       span;
  SextantAnalysisScope  scope;
  guint                 n_shards;
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_free (loaded->db_path);
  g_clear_pointer (&loaded->locations, g_ptr_array_unref);
  g_clear_pointer (&loaded->regions, g_hash_table_unref);
  sextant_analysis_scope_clear (&loaded->scope);
  g_free (loaded);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Loaded, loaded_free)

/* On the import's thread */
static void
import_progress (double   fraction,
                 double   events_per_second,
                 gpointer user_data)
{
  SextantSession *self = user_data;

  _sextant_session_fraction_set (self, &self->progress, fraction);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SextantSession *self = source_object;
  g_autoptr(Loaded) loaded = g_new0 (Loaded, 1);
  g_autoptr(SextantStore) store = NULL;
  GError *error = NULL;

  if (sextant_path_is_store (self->path))
    loaded->db_path = g_strdup (self->path);
  else
    {
      g_autoptr(SextantImporter) importer = sextant_importer_new (self->path, NULL);

      sextant_importer_set_progress_func (importer, import_progress, self, NULL);
      if (!sextant_importer_run (importer, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      loaded->db_path = g_strdup (sextant_importer_get_db_path (importer));
    }

  if (!(store = sextant_store_open (loaded->db_path, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  sextant_store_set_cancellable (store, cancellable);
  if (!(loaded->locations = sextant_store_list_locations (store, &error)) ||
      !(loaded->regions = sextant_store_read_region_names (store, &error)) ||
      !sextant_store_get_time_span (store, &loaded->span, &error) ||
      !sextant_store_get_analysis_scope (store, &loaded->scope, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  sextant_store_set_cancellable (store, NULL);
  loaded->n_shards = sextant_store_get_n_shards (store);

  g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify)loaded_free);
}

static void
set_importing (SextantSession *self,
               gboolean        importing)
{
  if (self->importing == importing)
    return;

  self->importing = importing;
  _sextant_session_notify (self, PROP_IMPORTING);
}

/**
 * sextant_session_load_async:
 *
 * Imports the session's archive (or takes its store), then reads what the
 * views need. The "importing" and "progress" properties follow the
 * import; cancelling @cancellable stops it and leaves no store behind.
 * Call once.
 */
void
sextant_session_load_async (SextantSession      *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (!self->loaded && self->db_path == NULL);

  set_importing (self, !sextant_path_is_store (self->path));
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_session_load_async);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, load_worker);
}

/**
 * sextant_session_load_finish:
 *
 * Returns: %TRUE when the session is loaded; else %FALSE with @error set
 * (G_IO_ERROR_CANCELLED when it was cancelled), and the session is of no
 * further use.
 */
gboolean
sextant_session_load_finish (SextantSession  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_autoptr(Loaded) loaded = NULL;

  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  set_importing (self, FALSE);
  if (!(loaded = g_task_propagate_pointer (G_TASK (result), error)))
    return FALSE;

  self->db_path = g_steal_pointer (&loaded->db_path);
  self->locations = g_steal_pointer (&loaded->locations);
  self->regions = g_steal_pointer (&loaded->regions);
  self->span = loaded->span;
  /* exclusive, and never empty */
  self->span.end = MAX (self->span.end, self->span.begin) + 1;
  self->span.resolution = MAX (self->span.resolution, 1);
  self->scope = loaded->scope;
  memset (&loaded->scope, 0, sizeof loaded->scope);
  self->n_shards = loaded->n_shards;

  self->loaded = TRUE;
  self->view_begin = self->span.begin;
  self->view_end = self->span.end;
  g_object_freeze_notify (G_OBJECT (self));
  sextant_session_set_item (self, NULL);
  _sextant_session_clear_history (self);
  _sextant_session_notify (self, PROP_LOADED);
  g_object_thaw_notify (G_OBJECT (self));
  _sextant_session_watch_start (self);
  if (self->wanted_to > self->wanted_from)
    {
      double res = (double)sextant_session_get_resolution (self);

      _sextant_session_change_view (self, self->span.begin + (gint64)llround (self->wanted_from * res),
                                    self->span.begin + (gint64)llround (self->wanted_to * res),
                                    CHANGE_HISTORY);
      self->wanted_from = self->wanted_to = 0;
    }
  if (self->view_begin == self->span.begin && self->view_end == self->span.end)
    {
      _sextant_session_notify (self, PROP_VIEW_BEGIN);
      _sextant_session_notify (self, PROP_VIEW_END);
    }

  return TRUE;
}

gboolean
sextant_session_get_loaded (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->loaded;
}

gboolean
sextant_session_get_importing (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->importing;
}

/* The import's fraction done, 0..1 */
double
sextant_session_get_progress (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return _sextant_session_fraction_get (self, &self->progress);
}

/* The store, its content and what every view needs ---------------------------- */

/* NULL until loaded */
const char *
sextant_session_get_db_path (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->db_path;
}

/**
 * sextant_session_open_store:
 *
 * A connection of its own to the session's store, for a view's worker.
 * Any thread may call this once the session is loaded; the connection is
 * then used by one thread at a time. A connection keeps what it read of
 * the column tables, so a view takes a new one when the generation
 * changes. A parallel import's manifest, whose shards the load checked,
 * opens without that check: an analysis (the window's or `sextant
 * analyze`) changes its shards before it records them anew, and the
 * views read on meanwhile.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SextantStore *
sextant_session_open_store (SextantSession  *self,
                            GError         **error)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);
  g_return_val_if_fail (self->db_path != NULL, NULL);

  return self->n_shards > 0 ? sextant_store_open_unchecked (self->db_path, error)
                            : sextant_store_open (self->db_path, error);
}

/* Counts up each time an analysis has written new instances */
guint
sextant_session_get_generation (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->generation;
}

/**
 * sextant_session_get_locations:
 *
 * Returns: (transfer none) (element-type SextantLocationInfo): every
 * location, by id; %NULL until loaded
 */
GPtrArray *
sextant_session_get_locations (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->locations;
}

/* Returns: (transfer none): region.id (gint64 *) -> name; NULL until loaded */
GHashTable *
sextant_session_get_region_names (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return self->regions;
}

gint64
sextant_session_get_time_begin (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->span.begin;
}

/* The run's end, exclusive */
gint64
sextant_session_get_time_end (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->span.end;
}

gint64
sextant_session_get_resolution (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 1);

  return MAX (self->span.resolution, 1);
}
