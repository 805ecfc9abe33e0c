/*
 * sextant-session-analysis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A session's analysis: SextantAnalysis's async pair on a connection
 * opened for it; when it has written its instances, the generation counts
 * up and the views read again. The same happens when another program
 * (`sextant analyze`, another window) analyses the store while the
 * session shows it: a watch asks SQLite every WATCH_SECONDS whether
 * another connection committed to the store's file (its data version).
 */
#include "config.h"

#include "sextant-store-shards.h"
#include "sextant-session-private.h"

/* Analysis ------------------------------------------------------------------- */

typedef struct
{
  SextantStore    *store;
  SextantAnalysis *analysis;
} Analysing;

static void
analysing_free (Analysing *analysing)
{
  g_clear_object (&analysing->analysis);
  g_clear_object (&analysing->store);
  g_free (analysing);
}

/* On the analysis's thread */
static void
analysis_progress (double      fraction,
                   const char *pattern_id,
                   gpointer    user_data)
{
  SextantSession *self = user_data;

  _sextant_session_fraction_set (self, &self->analysis_progress, fraction);
}

static void
set_analysing (SextantSession *self,
               gboolean        analysing)
{
  if (self->analysing == analysing)
    return;

  self->analysing = analysing;
  _sextant_session_notify (self, PROP_ANALYSIS_PROGRESS);
  _sextant_session_notify (self, PROP_ANALYSING);
}

static void
analysed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SextantSession *self = g_task_get_source_object (task);
  Analysing *analysing = g_task_get_task_data (task);
  SextantAnalysisScope scope = { 0 };
  GError *error = NULL;

  sextant_store_set_cancellable (analysing->store, NULL);
  /* what the watch compares with from now on: this analysis wrote on a
   * connection of its own (all, or - failed or cancelled - a manifest's
   * shards in part), which is not another program's */
  if (self->watch != NULL && !sextant_store_get_data_version (self->watch, &self->data_version, &error))
    {
      g_debug ("%s: %s", self->db_path, error->message);
      g_clear_error (&error);
    }
  if (!sextant_analysis_run_finish (analysing->analysis, result, &error) ||
      !sextant_store_get_analysis_scope (analysing->store, &scope, &error))
    {
      set_analysing (self, FALSE);
      g_task_return_error (task, error);
      return;
    }

  /* the new content first, then the end of the analysis: a view that
   * waits for the end reads the store once, with the new instances */
  sextant_analysis_scope_clear (&self->scope);
  self->scope = scope;
  self->generation++;
  _sextant_session_notify (self, PROP_GENERATION);
  set_analysing (self, FALSE);
  g_task_return_boolean (task, TRUE);
}

/**
 * sextant_session_analyse_async:
 * @patterns: (nullable): the ids of the patterns to run; %NULL: all, the
 *   built-in catalogue and the user's
 * @parameters: (nullable): overrides, "name=value" or "pattern.name=value"
 *
 * Replaces the store's analysis with a new one. While it runs,
 * "analysing" is %TRUE and "analysis-progress" follows it; when its
 * instances are written, "generation" counts up. A failed or cancelled
 * analysis leaves the previous one in place.
 */
void
sextant_session_analyse_async (SextantSession      *self,
                               const char * const  *patterns,
                               const char * const  *parameters,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(SextantPatternSet) set = NULL;
  Analysing *analysing;
  GError *error = NULL;

  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (self->loaded);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_session_analyse_async);
  if (self->analysing)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING, "An analysis of this trace is running");
      return;
    }

  analysing = g_new0 (Analysing, 1);
  g_task_set_task_data (task, analysing, (GDestroyNotify)analysing_free);
  if (!(set = sextant_pattern_set_new_default (&error)) ||
      !(analysing->store = sextant_store_open (self->db_path, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  analysing->analysis = sextant_analysis_new (analysing->store, set);
  for (guint i = 0; patterns != NULL && patterns[i] != NULL; i++)
    if (!sextant_analysis_select (analysing->analysis, patterns[i], &error))
      {
        g_task_return_error (task, error);
        return;
      }
  for (guint i = 0; parameters != NULL && parameters[i] != NULL; i++)
    if (!sextant_analysis_set_param (analysing->analysis, parameters[i], &error))
      {
        g_task_return_error (task, error);
        return;
      }

  _sextant_session_fraction_set (self, &self->analysis_progress, 0);
  set_analysing (self, TRUE);
  sextant_store_set_cancellable (analysing->store, cancellable);
  sextant_analysis_set_progress_func (analysing->analysis, analysis_progress, g_object_ref (self), g_object_unref);
  sextant_analysis_run_async (analysing->analysis, cancellable, analysed_cb, g_steal_pointer (&task));
}

gboolean
sextant_session_analyse_finish (SextantSession  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
sextant_session_get_analysing (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->analysing;
}

double
sextant_session_get_analysis_progress (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return _sextant_session_fraction_get (self, &self->analysis_progress);
}

/* Returns: (transfer none): what the store's analysis ran ("analysed" FALSE: none yet) */
const SextantAnalysisScope *
sextant_session_get_analysis_scope (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), NULL);

  return &self->scope;
}

/* The shards of a parallel import's manifest (read as one trace); 0 for a store */
guint
sextant_session_get_n_shards (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->n_shards;
}

/* Analyses made elsewhere ---------------------------------------------------- */

#define WATCH_SECONDS 2

static gboolean
watch_cb (gpointer user_data)
{
  SextantSession *self = user_data;
  SextantAnalysisScope scope = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *unfinished = NULL;
  gint64 version;

  /* the session's own: analysed_cb reads the version when it ends */
  if (self->analysing)
    return G_SOURCE_CONTINUE;
  if (!sextant_store_get_data_version (self->watch, &version, &error))
    {
      g_debug ("%s: %s", self->db_path, error->message);
      return G_SOURCE_CONTINUE;
    }
  if (version == self->data_version)
    return G_SOURCE_CONTINUE;
  /* a manifest whose analysis has begun writing into its shards: its
   * results come when the analysis records them (another commit) */
  if (self->n_shards > 0 &&
      (unfinished = sextant_store_get_meta (self->watch, SEXTANT_SHARD_ANALYSIS_UNFINISHED)) != NULL)
    return G_SOURCE_CONTINUE;
  if (!sextant_store_get_analysis_scope (self->watch, &scope, &error))
    {
      g_debug ("%s: changed by another program, not readable yet: %s", self->db_path, error->message);
      return G_SOURCE_CONTINUE;
    }

  self->data_version = version;
  sextant_analysis_scope_clear (&self->scope);
  self->scope = scope;
  self->generation++;
  _sextant_session_notify (self, PROP_GENERATION);
  g_signal_emit (self, _sextant_session_signals[SIGNAL_ANALYSED_ELSEWHERE], 0);

  return G_SOURCE_CONTINUE;
}

/* Once loaded: a connection of its own to the store, on the main thread,
 * that only reads its data version and, when it changed, the scope */
void
_sextant_session_watch_start (SextantSession *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (self->loaded && self->watch == NULL);

  if (!(self->watch = sextant_session_open_store (self, &error)) ||
      !sextant_store_get_data_version (self->watch, &self->data_version, &error))
    {
      /* the views say what is wrong with the store */
      g_debug ("%s: no watch for analyses made elsewhere: %s", self->db_path, error->message);
      g_clear_object (&self->watch);
      return;
    }
  self->watch_id = g_timeout_add_seconds (WATCH_SECONDS, watch_cb, self);
}

void
_sextant_session_watch_stop (SextantSession *self)
{
  g_clear_handle_id (&self->watch_id, g_source_remove);
  g_clear_object (&self->watch);
}
