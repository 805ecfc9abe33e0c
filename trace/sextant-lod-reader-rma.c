/*
 * sextant-lod-reader-rma.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's SQL-bounded reads (sextant-lod-reader.h): the
 * one-sided operations in a view and the window synchronisation
 * (MPI_Win_* epochs, locks, flushes), and the rows of a query bounded by
 * time (_sextant_lod_read_bounded(): the messages through SQL). These are
 * not cached: they are SQL each time (the store's statements
 * SEXTANT_QUERY_RMA_*_IN_VIEW, kept prepared: preparing them cost more
 * than a narrow view's rows), each bounded by an index on time
 * (trace/schema-1-index.sql) and by the caller's @max, so a view costs
 * what is in it, or max + 1 rows when it has too many. Most MPI
 * traces have no one-sided operation: the first read of a reader learns
 * which of the tables have rows (one statement), and a store without
 * them answers at once.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-lod-reader-private.h"

/* Appends @query's rows for [@t0, @t1) to @out, or none with @too_many set
 * when there are more than @max */
gboolean
_sextant_lod_read_bounded (SextantLodReader  *self,
                           SextantStoreStmt   query,
                           SextantRowFunc     func,
                           gint64             t0,
                           gint64             t1,
                           guint              max,
                           GArray            *out,
                           gboolean          *too_many,
                           GError           **error)
{
  guint len = out->len;

  if (!sextant_store_foreach (self->store, query, func, out, error, "iii", t0, t1, (gint64)max + 1))
    return FALSE;
  if (out->len - len > max)
    {
      g_array_set_size (out, len);
      *too_many = TRUE;
    }

  return TRUE;
}

/* One-sided operations --------------------------------------------------------------- */

/* whether there are operations, synchronisation records or window locks,
 * and the longest operation (index rma_op_span) */
static const char rma_tables_sql[] =
  "SELECT EXISTS (SELECT 1 FROM rma_op), "
  "       EXISTS (SELECT 1 FROM rma_sync) OR EXISTS (SELECT 1 FROM lock WHERE family = 'RMA'), "
  "       (SELECT max (complete_time - issue_time) FROM rma_op)";

static gboolean
rma_tables_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  SextantLodReader *self = user_data;

  self->has_rma_ops = sextant_row_get_int (row, 0) != 0;
  self->has_rma_syncs = sextant_row_get_int (row, 1) != 0;
  self->rma_span = sextant_row_is_null (row, 2) ? 0 : MAX (sextant_row_get_int (row, 2), 0);

  return TRUE;
}

/* What the store has of one-sided communication, read at the first call */
static gboolean
rma_tables_load (SextantLodReader  *self,
                 GError           **error)
{
  return self->rma_span >= 0 ||
         sextant_store_foreach_sql (self->store, rma_tables_sql, rma_tables_row, self, error, "");
}

static gboolean
rma_row (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  SextantViewRma op;
  const char *kind = sextant_row_get_text (row, 7);

  op.id = sextant_row_get_int (row, 0);
  op.origin_loc = sextant_row_get_int (row, 1);
  op.target_loc = sextant_row_get_int_or_null (row, 2);
  op.issue_time = sextant_row_get_int (row, 3);
  op.complete_time = sextant_row_get_int_or_null (row, 4);
  op.bytes = sextant_row_get_int_or_null (row, 5);
  op.win = sextant_row_get_int_or_null (row, 6);
  op.kind = g_strcmp0 (kind, "PUT") == 0 ? SEXTANT_VIEW_RMA_PUT
          : g_strcmp0 (kind, "GET") == 0 ? SEXTANT_VIEW_RMA_GET : SEXTANT_VIEW_RMA_ATOMIC;
  g_array_append_val ((GArray *)user_data, op);

  return TRUE;
}

gboolean
sextant_lod_reader_read_rma (SextantLodReader  *self,
                             gint64             t0,
                             gint64             t1,
                             guint              max,
                             GArray            *ops,
                             gboolean          *too_many,
                             GError           **error)
{
  guint len;

  g_return_val_if_fail (ops != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (ops) == sizeof (SextantViewRma), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;
  if (!rma_tables_load (self, error))
    return FALSE;
  if (!self->has_rma_ops)
    return TRUE;
  len = ops->len;
  if (!sextant_store_foreach_prepared (self->store, SEXTANT_QUERY_RMA_OPS_IN_VIEW, rma_row, ops, error, "iiii", t0, t1,
                                       self->rma_span, (gint64)max + 1))
    return FALSE;
  if (ops->len - len > max)
    {
      g_array_set_size (ops, len);
      *too_many = TRUE;
    }

  return TRUE;
}

/* Window synchronisation ---------------------------------------------------------------- */

/* What an MPI_Win_* call is, by its name */
static SextantViewSyncKind
sync_kind_of_call (const char *name,
                   SextantViewSyncKind other)
{
  static const struct
  {
    const char          *name;
    SextantViewSyncKind  kind;
  } calls[] = {
    { "fence", SEXTANT_VIEW_SYNC_FENCE },
    { "lock", SEXTANT_VIEW_SYNC_LOCK }, { "lock_all", SEXTANT_VIEW_SYNC_LOCK },
    { "start", SEXTANT_VIEW_SYNC_LOCK },
    { "unlock", SEXTANT_VIEW_SYNC_UNLOCK }, { "unlock_all", SEXTANT_VIEW_SYNC_UNLOCK },
    { "complete", SEXTANT_VIEW_SYNC_UNLOCK },
    { "flush", SEXTANT_VIEW_SYNC_FLUSH }, { "flush_all", SEXTANT_VIEW_SYNC_FLUSH },
    { "flush_local", SEXTANT_VIEW_SYNC_FLUSH }, { "flush_local_all", SEXTANT_VIEW_SYNC_FLUSH },
    { "sync", SEXTANT_VIEW_SYNC_FLUSH },
    { "post", SEXTANT_VIEW_SYNC_EXPOSE }, { "wait", SEXTANT_VIEW_SYNC_EXPOSE },
    { "test", SEXTANT_VIEW_SYNC_EXPOSE },
  };

  if (name == NULL || g_ascii_strncasecmp (name, "MPI_Win_", 8) != 0)
    return other;
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    if (g_ascii_strcasecmp (name + 8, calls[i].name) == 0)
      return calls[i].kind;

  return other;
}

typedef struct
{
  GArray *syncs;
  int     source;   /* 0 records, 1 lock acquired, 2 lock released, 3 flushes */
} SyncData;

static gboolean
sync_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  SyncData *data = user_data;
  SextantViewSync s;
  const char *call = sextant_row_is_null (row, 5) ? NULL : sextant_row_get_text (row, 5);

  s.loc = sextant_row_get_int (row, 0);
  s.begin = sextant_row_get_int (row, 1);
  s.end = sextant_row_get_int (row, 2);
  s.win = sextant_row_get_int_or_null (row, 3);
  s.target_loc = sextant_row_get_int_or_null (row, 4);
  switch (data->source)
    {
    case 0:
      {
        const char *kind = sextant_row_get_text (row, 6);
        const char *detail = sextant_row_is_null (row, 7) ? "" : sextant_row_get_text (row, 7);
        SextantViewSyncKind by_record = SEXTANT_VIEW_SYNC_OTHER;

        if (g_strcmp0 (kind, "RMA_SYNC") == 0)
          by_record = SEXTANT_VIEW_SYNC_FLUSH;
        else if (g_strcmp0 (kind, "RMA_COLLECTIVE") == 0 && g_str_equal (detail, "BARRIER"))
          by_record = SEXTANT_VIEW_SYNC_FENCE;
        s.kind = sync_kind_of_call (call, by_record);
      }
      break;
    case 1:
      s.kind = SEXTANT_VIEW_SYNC_LOCK;
      break;
    case 2:
      s.kind = SEXTANT_VIEW_SYNC_UNLOCK;
      break;
    default:
      /* the unlocks, completes and fences that completed operations are
       * read from their own records */
      if (sync_kind_of_call (call, SEXTANT_VIEW_SYNC_OTHER) != SEXTANT_VIEW_SYNC_FLUSH)
        return TRUE;
      s.kind = SEXTANT_VIEW_SYNC_FLUSH;
      break;
    }
  g_array_append_val (data->syncs, s);

  return TRUE;
}

static int
compare_syncs (gconstpointer a,
               gconstpointer b)
{
  const SextantViewSync *x = a;
  const SextantViewSync *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->loc != y->loc)
    return x->loc < y->loc ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;

  return (x->end > y->end) - (x->end < y->end);
}

gboolean
sextant_lod_reader_read_rma_sync (SextantLodReader  *self,
                                  gint64             t0,
                                  gint64             t1,
                                  guint              max,
                                  GArray            *syncs,
                                  gboolean          *too_many,
                                  GError           **error)
{
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (SextantViewSync));
  SyncData data = { found, 0 };
  guint n = 0;

  g_return_val_if_fail (syncs != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (syncs) == sizeof (SextantViewSync), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;
  if (!rma_tables_load (self, error))
    return FALSE;
  /* records and locks; the flushes are read from the operations */
  if (self->has_rma_syncs &&
      !sextant_store_foreach_prepared (self->store, SEXTANT_QUERY_RMA_SYNCS_IN_VIEW, sync_row, &data, error, "iii",
                                       t0, t1, (gint64)max + 1))
    return FALSE;
  for (data.source = 1; self->has_rma_syncs && data.source <= 2 && found->len <= max; data.source++)
    if (!sextant_store_foreach_prepared (self->store, SEXTANT_QUERY_RMA_LOCKS_IN_VIEW, sync_row, &data, error, "iiii",
                                         t0, t1, (gint64)max + 1, (gint64)data.source - 1))
      return FALSE;
  data.source = 3;
  if (self->has_rma_ops && found->len <= max &&
      !sextant_store_foreach_prepared (self->store, SEXTANT_QUERY_RMA_FLUSHES_IN_VIEW, sync_row, &data, error, "iii",
                                       t0, t1, (gint64)max + 1))
    return FALSE;

  /* in time order, a call seen twice (a flush with a record of its own
   * that also completed operations) once */
  g_array_sort (found, compare_syncs);
  for (guint i = 0; i < found->len; i++)
    {
      const SextantViewSync *s = &g_array_index (found, SextantViewSync, i);

      if (n > 0 && compare_syncs (s, &g_array_index (found, SextantViewSync, n - 1)) == 0)
        continue;
      g_array_index (found, SextantViewSync, n++) = *s;
    }
  g_array_set_size (found, n);
  if (found->len > max)
    {
      *too_many = TRUE;
      return TRUE;
    }
  g_array_append_vals (syncs, found->data, found->len);

  return TRUE;
}
