/*
 * sextant-analysis-async.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An analysis's progress function and its run in a worker thread (GTask),
 * as the window runs it.
 */
#include "config.h"

#include "sextant-analysis-private.h"

/**
 * sextant_analysis_set_progress_func:
 * @func: (nullable): called after each pattern is written, in the thread
 *   that runs the analysis (see #SextantAnalysisProgress)
 * @destroy: (nullable): frees @user_data when the function is replaced or
 *   the analysis finalized
 *
 * Threading: before a run, not during one.
 */
void
sextant_analysis_set_progress_func (SextantAnalysis          *self,
                                    SextantAnalysisProgress   func,
                                    gpointer                  user_data,
                                    GDestroyNotify            destroy)
{
  g_return_if_fail (SEXTANT_IS_ANALYSIS (self));

  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  self->progress = func;
  self->progress_data = user_data;
  self->progress_destroy = destroy;
}

static void
run_worker (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;

  if (!sextant_analysis_run (source_object, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * sextant_analysis_run_async:
 * @cancellable: (nullable): stops the run, as for sextant_analysis_run()
 * @callback: called in the thread-default main context of the caller when
 *   the run is over
 *
 * Runs sextant_analysis_run() in a worker thread (GTask). The store belongs
 * to that thread until @callback is called; the progress function is called
 * in it too. Get the result with sextant_analysis_run_finish().
 */
void
sextant_analysis_run_async (SextantAnalysis     *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SEXTANT_IS_ANALYSIS (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_analysis_run_async);
  /* the run answers a cancellation itself: a run that committed before
   * the cancellation reports success, as the store holds its results */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, run_worker);
}

/**
 * sextant_analysis_run_finish:
 *
 * Returns: %TRUE if the run committed; %FALSE with @error set as for
 *   sextant_analysis_run() (the store then keeps the previous analysis)
 */
gboolean
sextant_analysis_run_finish (SextantAnalysis  *self,
                             GAsyncResult     *result,
                             GError          **error)
{
  g_return_val_if_fail (SEXTANT_IS_ANALYSIS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_async_result_is_tagged (result, sextant_analysis_run_async), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
