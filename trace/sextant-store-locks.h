/*
 * sextant-store-locks.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lock waits and who made them: each acquisition of a lock (the lock
 * table: MPI window locks, thread and OpenMP locks, onecoll's
 * shared-memory locks recorded as thread locks) that waited, with the
 * hold of the location it waited for. The holder is the one
 * lock_contention names (patterns/sql/lock_contention.sql,
 * sextant_lock_holder): among the other locations' conflicting
 * acquisitions of the same lock made before this one, the one released
 * last, when that release is after the request. The timeline marks the
 * holder's hold, the details pane names the holder, the delay chain steps
 * to it.
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

/**
 * SextantLockWait:
 * @lock: lock.id of the acquisition that waited
 * @loc: the location that waited
 * @asked: when it asked for the lock: the lock request, else the enter of
 *   the call that acquired it
 * @acquired: when it got it (> @asked)
 * @visit: the call that acquired it (lock.acquire_visit), %SEXTANT_NULL
 *   when not recorded
 * @holder: lock.id of the hold it waited for
 * @holder_loc: the location that held the lock
 * @hold_begin: when the holder acquired it
 * @hold_end: when the holder released it (> @asked)
 */
typedef struct
{
  gint64 lock;
  gint64 loc;
  gint64 asked;
  gint64 acquired;
  gint64 visit;
  gint64 holder;
  gint64 holder_loc;
  gint64 hold_begin;
  gint64 hold_end;
} SextantLockWait;

/* Appends to @waits (of SextantLockWait) the lock waits of acquisitions
 * made in [@t0, @t1 + @span) that asked before @t1 (@span: the longest
 * wait, so that every wait overlapping [@t0, @t1) is found), of location
 * @loc and acquiring call @visit when they are not %SEXTANT_NULL, that
 * waited @min_wait ticks or more, in acquire order, at most @max of them
 * (0: no bound). A hold never released
 * in the trace is no holder here (lock_contention counts it). Reads by the
 * indexes lock_acquire and lock_release: a wait costs the releases in
 * about twice its own length. */
gboolean sextant_store_read_lock_waits (SextantStore  *store,
                                        gint64         t0,
                                        gint64         t1,
                                        gint64         span,
                                        gint64         loc,
                                        gint64         visit,
                                        gint64         min_wait,
                                        guint          max,
                                        GArray        *waits,
                                        GError       **error);

/* The longest wait of any acquisition (from its request, else its call's
 * enter; 0 when none waited) into @span, and whether the store has any
 * acquired lock into @has_locks: one pass over the lock table. */
gboolean sextant_store_read_lock_span  (SextantStore  *store,
                                        gint64        *span,
                                        gboolean      *has_locks,
                                        GError       **error);

G_END_DECLS
