/* otf2gen-locks.h - lock-storm: many contended lock acquisitions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant-otf2gen lock-storm OUTDIR` writes 4 MPI ranks (the planted
 * traces' definitions, 1 MHz clock) that take 50,000 locks between them;
 * lock-storm-small takes 2,000. The acquisitions come in rounds 200 ticks
 * apart: each round, the 4 ranks in a pseudo-random order (and every fifth
 * round the first of them once more) lock one lock - alternately window
 * PL_WIN's target 0 and 1 (a quarter of the requests shared, consecutive
 * shared holds overlapping), every sixth round a pthread mutex instead -
 * and are granted it one after the other, each waiting from its request
 * (MPI_Win_lock's enter, for a mutex the call's enter) for the previous
 * holds. No two holds of a round end at the same tick (the holder released
 * last is never a tie). The output is deterministic.
 *
 * `sextant-otf2gen --expect-instances SCENARIO` prints the lock_contention
 * instances the trace must give, one per line: "lock_contention LOCATION
 * SEVERITY PEER" (OTF2 location ids, ticks), computed round by round by
 * brute force from the documented criterion (patterns/sql/lock_contention.sql):
 * the holder is, among the other locations' acquisitions of the same lock
 * acquired before, the one released last, if after the request (a shared
 * request waits only for exclusive holds; on a tie, the earliest
 * acquisition). Holds of earlier rounds end before a round's requests.
 */

#pragma once

#include <stdio.h>

#include <glib.h>

G_BEGIN_DECLS

gboolean sextant_otf2gen_locks_known            (const char  *name);
gboolean sextant_otf2gen_locks                  (const char  *name,
                                                 const char  *outdir,
                                                 gboolean     force,
                                                 GError     **error);
void     sextant_otf2gen_locks_expect_counts    (const char  *name,
                                                 FILE        *out);
void     sextant_otf2gen_locks_expect_instances (const char  *name,
                                                 FILE        *out);

G_END_DECLS
