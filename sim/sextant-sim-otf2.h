/* sextant-sim-otf2.h - what the model's two OTF2 writers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sextant-torus-trace.c (a model run) and sextant-torus-replay-trace.c (a
 * replayed run) write their archives the same way: every buffer flushed
 * when full, the first libotf2 failure kept as the run's error, strings
 * defined once each in the global definitions.
 */

#pragma once

#include <glib.h>
#include <otf2/otf2.h>

G_BEGIN_DECLS

/* flush every buffer when it fills (the archives are written in one go) */
extern const OTF2_FlushCallbacks _sextant_sim_otf2_flush_callbacks;

gboolean       _sextant_sim_otf2_check  (GError               **first_error,
                                         OTF2_ErrorCode         status,
                                         const char            *what);
OTF2_StringRef _sextant_sim_otf2_string (GHashTable            *strings,
                                         OTF2_GlobalDefWriter  *defs,
                                         GError               **first_error,
                                         const char            *str);

G_END_DECLS
