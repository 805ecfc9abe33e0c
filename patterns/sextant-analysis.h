/*
 * sextant-analysis.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantAnalysis runs a set of patterns over a trace store and writes their
 * instances into it (tables `pattern` and `pattern_instance`), each with the
 * call path and the source file and line of the call that lost the time and
 * a comment that explains it. Parameters default to the values in the
 * pattern files and can be overridden per run.
 */
#pragma once

#include "sextant-pattern-set.h"
#include "sextant-store.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_ANALYSIS (sextant_analysis_get_type ())
G_DECLARE_FINAL_TYPE (SextantAnalysis, sextant_analysis, SEXTANT, ANALYSIS, GObject)

SextantAnalysis *sextant_analysis_new        (SextantStore       *store,
                                              SextantPatternSet  *patterns);
gboolean         sextant_analysis_set_param  (SextantAnalysis    *self,
                                              const char         *assignment,
                                              GError            **error);
gboolean         sextant_analysis_select     (SextantAnalysis    *self,
                                              const char         *pattern_id,
                                              GError            **error);
gboolean         sextant_analysis_run        (SextantAnalysis    *self,
                                              GCancellable       *cancellable,
                                              GError            **error);

G_END_DECLS
