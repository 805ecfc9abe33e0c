/*
 * sextant-store-locks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lock waits with their holders (sextant-store-locks.h). The holder is
 * found per wait by a correlated subquery over the conflicting releases
 * after the wait began; releases are recorded before the lock is given
 * up and acquisitions after it is taken (onecoll's hooks, the recorder's
 * and OTF2's RMA and thread lock records alike), so a conflicting hold
 * ends before the waiter's acquisition on one clock. Clocks of processes
 * differ by their synchronisation's error: a release up to the wait's own
 * length after the acquisition is still taken, which bounds the index
 * range each wait reads.
 */
#include "config.h"

#include "sextant-store-locks.h"
#include "sextant-store-private.h"

/* ?1 t0, ?2 t1, ?3 span, ?4 loc or NULL, ?5 visit or NULL, ?6 limit
 * (-1: none), ?7 the shortest wait. Conflicting: the same lock (an RMA window lock: the same
 * window and target; a thread lock: the same id) of the same family, of
 * another location, acquired before (acquire time, then id, as
 * lock_contention orders them); a shared RMA request waits for exclusive
 * holds only. Of those, the one released last, the earliest acquisition
 * on a tie. */
static const char lock_waits_sql[] =
  "WITH w AS ("
  "  SELECT l.id, l.loc, l.family, l.win, l.target, l.lock_id, l.lock_type, l.acquire_time, l.acquire_visit, "
  "         coalesce (l.request_time, v.enter, l.acquire_time) AS asked "
  "  FROM lock AS l LEFT JOIN visit AS v ON v.id = l.acquire_visit "
  "  WHERE l.acquire_time >= ?1 AND l.acquire_time < ?2 + ?3 "
  "    AND (?4 IS NULL OR l.loc = ?4) AND (?5 IS NULL OR l.acquire_visit = ?5)) "
  "SELECT w.id, w.loc, w.asked, w.acquire_time, w.acquire_visit, h.id, h.loc, h.acquire_time, h.release_time "
  "FROM w JOIN lock AS h ON h.id = ("
  "  SELECT c.id FROM lock AS c "
  "  WHERE c.release_time > w.asked AND c.release_time <= 2 * w.acquire_time - w.asked "
  "    AND (c.acquire_time < w.acquire_time OR (c.acquire_time = w.acquire_time AND c.id < w.id)) "
  "    AND c.loc <> w.loc AND c.family = w.family "
  "    AND CASE WHEN w.family = 'RMA' THEN c.win IS w.win AND c.target IS w.target "
  "             ELSE c.lock_id IS w.lock_id END "
  "    AND NOT (w.family = 'RMA' AND w.lock_type IS 'SHARED' AND c.lock_type IS 'SHARED') "
  "  ORDER BY c.release_time DESC, c.acquire_time, c.id LIMIT 1) "
  "WHERE w.asked < ?2 AND w.acquire_time > w.asked AND w.acquire_time - w.asked >= ?7 "
  "ORDER BY w.acquire_time, w.id LIMIT ?6";

static const char lock_span_sql[] =
  "SELECT coalesce (max (l.acquire_time - coalesce (l.request_time, v.enter, l.acquire_time)), 0), "
  "       count (l.acquire_time) > 0 "
  "FROM lock AS l LEFT JOIN visit AS v ON v.id = l.acquire_visit";

static gboolean
wait_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  SextantLockWait wait;

  wait.lock = sextant_row_get_int (row, 0);
  wait.loc = sextant_row_get_int (row, 1);
  wait.asked = sextant_row_get_int (row, 2);
  wait.acquired = sextant_row_get_int (row, 3);
  wait.visit = sextant_row_get_int_or_null (row, 4);
  wait.holder = sextant_row_get_int (row, 5);
  wait.holder_loc = sextant_row_get_int (row, 6);
  wait.hold_begin = sextant_row_get_int (row, 7);
  wait.hold_end = sextant_row_get_int (row, 8);
  g_array_append_val ((GArray *)user_data, wait);

  return TRUE;
}

gboolean
sextant_store_read_lock_waits (SextantStore  *store,
                               gint64         t0,
                               gint64         t1,
                               gint64         span,
                               gint64         loc,
                               gint64         visit,
                               gint64         min_wait,
                               guint          max,
                               GArray        *waits,
                               GError       **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (store), FALSE);
  g_return_val_if_fail (waits != NULL && g_array_get_element_size (waits) == sizeof (SextantLockWait), FALSE);
  g_return_val_if_fail (span >= 0, FALSE);

  if (t1 <= t0)
    return TRUE;
  return sextant_store_foreach_sql (store, lock_waits_sql, wait_row, waits, error, "iiinnii", t0,
                                    MIN (t1, G_MAXINT64 - span), span, loc, visit,
                                    max > 0 ? (gint64)max : (gint64)-1, MAX (min_wait, 1));
}

static gboolean
span_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  gint64 *out = user_data;

  out[0] = MAX (sextant_row_get_int (row, 0), 0);
  out[1] = sextant_row_get_int (row, 1);

  return TRUE;
}

gboolean
sextant_store_read_lock_span (SextantStore  *store,
                              gint64        *span,
                              gboolean      *has_locks,
                              GError       **error)
{
  gint64 out[2] = { 0, 0 };

  g_return_val_if_fail (SEXTANT_IS_STORE (store), FALSE);
  g_return_val_if_fail (span != NULL && has_locks != NULL, FALSE);

  if (!sextant_store_foreach_sql (store, lock_span_sql, span_row, out, error, ""))
    return FALSE;
  *span = out[0];
  *has_locks = out[1] != 0;

  return TRUE;
}
