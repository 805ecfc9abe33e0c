/*
 * sextant-wait-causes.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Direct or propagated: for every wait state of an analysis, whether the
 * location it waited for was itself waiting then, and where the chain of
 * such waits ends (its root cause). The analysis calls
 * sextant_wait_causes_write() once its patterns are written; the delay
 * chains (sextant_graph_build_delay_chain()) and the pattern_instance view
 * read the result (the wait_state table). docs/patterns.md, "Direct and
 * propagated wait states", states the rule.
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

/**
 * SextantWaitInterval:
 * @instance: the instance id
 * @loc: the location that waited (location.id)
 * @peer: the location it waited for; %SEXTANT_NULL when the pattern named none
 * @begin: ticks: the wait; %SEXTANT_NULL when unknown
 * @end: ticks
 *
 * One wait state as the analysis found it.
 */
typedef struct
{
  gint64 instance;
  gint64 loc;
  gint64 peer;
  gint64 begin;
  gint64 end;
} SextantWaitInterval;

gboolean  sextant_wait_causes_is_wait_state (const char                *pattern_id);
GArray   *sextant_wait_causes_classify      (const SextantWaitInterval *waits,
                                             guint                      n_waits);
gboolean  sextant_wait_causes_write         (SextantStore              *store,
                                             GArray                    *waits,
                                             GHashTable                *locations,
                                             GError                   **error);

G_END_DECLS
