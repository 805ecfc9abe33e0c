/*
 * sextant-lod-reader-locks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's lock waits (sextant-lod-reader.h): the waits for a
 * lock that overlap a view, each with the hold it waited for
 * (sextant-store-locks.c). The first read of a reader learns whether the
 * store has locks and the longest wait (one pass over the lock table);
 * then a view reads the acquisitions in it and the longest wait after it,
 * by the index on acquire time, and per wait the releases around it. Not
 * cached: a view costs what is in it, or max + 1 rows when it has too
 * many. The timeline asks only for the waits it can draw (a few pixels
 * wide); a view in which no wait of the trace would be that wide reads
 * nothing (50,000 acquisitions of lock-storm, the whole run: 117 ms of
 * scanning for no wait, at a load of 30).
 */
#include "config.h"

#include "sextant-lod-reader-private.h"

gboolean
sextant_lod_reader_read_lock_waits (SextantLodReader  *self,
                                    gint64             t0,
                                    gint64             t1,
                                    gint64             min_wait,
                                    guint              max,
                                    GArray            *waits,
                                    gboolean          *too_many,
                                    GError           **error)
{
  guint len;

  g_return_val_if_fail (waits != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (waits) == sizeof (SextantLockWait), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;
  if (self->lock_span < 0 && !sextant_store_read_lock_span (self->store, &self->lock_span, &self->has_locks, error))
    return FALSE;
  /* none waited that long (a view of a whole run, where every wait is
   * narrower than a pixel): no scan */
  if (!self->has_locks || min_wait > self->lock_span)
    return TRUE;
  len = waits->len;
  if (!sextant_store_read_lock_waits (self->store, t0, t1, self->lock_span, SEXTANT_NULL, SEXTANT_NULL, min_wait,
                                      max + 1, waits, error))
    return FALSE;
  if (waits->len - len > max)
    {
      g_array_set_size (waits, len);
      *too_many = TRUE;
    }

  return TRUE;
}
