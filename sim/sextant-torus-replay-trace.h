/*
 * sextant-torus-replay-trace.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The OTF2 archive of a replay's predicted run (sextant-torus-replay.h).
 */
#pragma once

#include "sextant-torus-replay.h"

G_BEGIN_DECLS

gboolean sextant_torus_replay_trace_write (const SextantTorusReplay  *replay,
                                           SextantReplayKind          kind,
                                           const char                *dir,
                                           GError                   **error);

G_END_DECLS
