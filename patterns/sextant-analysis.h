/*
 * sextant-analysis.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantAnalysis runs a set of patterns over a trace store and writes their
 * instances into it (tables `pattern` and `pattern_instance`), each with the
 * call path and the source file and line of the call that lost the time and
 * a comment that explains it, and records its scope (the patterns selected,
 * the parameter overrides) in the store's meta, in the same transaction:
 * sextant_store_get_analysis_scope() reads it back. Parameters default to
 * the values in the pattern files and can be overridden per run.
 *
 * Threading: configure an analysis (set_param, select, set_progress_func)
 * before running it, from one thread. While it runs, synchronously or
 * through sextant_analysis_run_async(), the store it was made with belongs
 * to the thread that runs it: nobody else uses that store object until the
 * run returns (other connections to the same file may read meanwhile; they
 * see the previous analysis until this one commits). One run at a time per
 * analysis.
 */
#pragma once

#include "sextant-import-share.h"
#include "sextant-pattern-set.h"
#include "sextant-store.h"

G_BEGIN_DECLS

/**
 * SextantAnalysisProgress:
 * @fraction: patterns written / patterns the run has, in (0, 1]; 1 when
 *   the last is written (the run then commits and returns)
 * @pattern_id: the pattern whose instances were just written
 * @user_data: the data given to sextant_analysis_set_progress_func()
 *
 * Called once per pattern after its instances are written, from the thread
 * that runs the analysis (a worker thread for sextant_analysis_run_async():
 * marshal to the main context before touching widgets). The fractions only
 * grow.
 */
typedef void (*SextantAnalysisProgress) (double      fraction,
                                         const char *pattern_id,
                                         gpointer    user_data);

#define SEXTANT_TYPE_ANALYSIS (sextant_analysis_get_type ())
G_DECLARE_FINAL_TYPE (SextantAnalysis, sextant_analysis, SEXTANT, ANALYSIS, GObject)

SextantAnalysis *sextant_analysis_new               (SextantStore             *store,
                                                     SextantPatternSet        *patterns);
gboolean         sextant_analysis_set_param         (SextantAnalysis          *self,
                                                     const char               *assignment,
                                                     GError                  **error);
gboolean         sextant_analysis_select            (SextantAnalysis          *self,
                                                     const char               *pattern_id,
                                                     GError                  **error);
void             sextant_analysis_set_progress_func (SextantAnalysis          *self,
                                                     SextantAnalysisProgress   func,
                                                     gpointer                  user_data,
                                                     GDestroyNotify            destroy);
gboolean         sextant_analysis_is_current        (SextantAnalysis          *self);
void             sextant_analysis_set_shard         (SextantAnalysis          *self,
                                                     guint                     rank,
                                                     guint                     n_ranks,
                                                     GArray                   *locations,
                                                     SextantShareExchange      exchange,
                                                     gpointer                  user_data);
void             sextant_analysis_abandon_shard     (guint                     rank,
                                                     guint                     n_ranks,
                                                     SextantShareExchange      exchange,
                                                     gpointer                  user_data);
gboolean         sextant_analysis_run               (SextantAnalysis          *self,
                                                     GCancellable             *cancellable,
                                                     GError                  **error);
void             sextant_analysis_run_async         (SextantAnalysis          *self,
                                                     GCancellable             *cancellable,
                                                     GAsyncReadyCallback       callback,
                                                     gpointer                  user_data);
gboolean         sextant_analysis_run_finish        (SextantAnalysis          *self,
                                                     GAsyncResult             *result,
                                                     GError                  **error);

G_END_DECLS
