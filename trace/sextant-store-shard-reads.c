/*
 * sextant-store-shard-reads.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Queries run on each shard of a manifest rather than through its
 * sextant_shards tables (sextant-store-union.c), for reads that would
 * otherwise pass every row of a table through the virtual table: a count
 * of rows, or a join whose both sides are in one shard (a message and its
 * receive visit, read from the shard of its receiver). The SQL names which
 * of a shard's rows are its own with "@own(EXPR)" or "@rows(TABLE)"
 * (sextant_shard_union_own_sql()); on a single store it runs once, both
 * read as "1", so store and manifest share the SQL and the code.
 */
#include "config.h"

#include "sextant-store-private.h"
#include "sextant-store-union.h"

static gboolean
foreach_shards_valist (SextantStore    *self,
                       const char      *sql,
                       SextantRowFunc   func,
                       gpointer         user_data,
                       GError         **error,
                       const char      *types,
                       va_list          args)
{
  SextantShardUnion *shards = _sextant_store_get_shard_union (self);
  guint n = shards != NULL ? sextant_shard_union_get_n_shards (shards) : 1;

  for (guint rank = 0; rank < n; rank++)
    {
      SextantStore *store = shards != NULL ? sextant_shard_union_get_shard (shards, rank, error) : self;
      g_autofree char *own_sql = sextant_shard_union_own_sql (shards, rank, sql);
      va_list copy;
      gboolean ok;

      if (store == NULL)
        return FALSE;
      va_copy (copy, args);
      ok = _sextant_store_foreach_sql_valist (store, own_sql, func, user_data, error, types, copy);
      va_end (copy);
      if (!ok)
        return FALSE;
    }

  return TRUE;
}

/*
 * _sextant_store_foreach_shards:
 * @sql: one statement, its own rows named by @own() or @rows()
 * @func: called for each row of each shard in turn, as for
 *   sextant_store_foreach_sql() (%FALSE without an error ends the
 *   shard's rows)
 *
 * Runs @sql on each shard of a manifest (once on a single store). The ids
 * the rows hold are the shard's: those that each shard numbers on its own
 * (messages, call paths) are not the manifest's.
 *
 * Threading: the store's owning thread; cancelled as sextant_store_foreach().
 */
gboolean
_sextant_store_foreach_shards (SextantStore      *self,
                               const char        *sql,
                               SextantRowFunc     func,
                               gpointer           user_data,
                               GError           **error,
                               const char        *types,
                               ...)
{
  va_list args;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (sql != NULL && func != NULL, FALSE);

  va_start (args, types);
  ok = foreach_shards_valist (self, sql, func, user_data, error, types, args);
  va_end (args);

  return ok;
}

static gboolean
sum_row (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  GArray *sums = user_data;
  int n = _sextant_row_get_n_columns (row);

  if (sums->len < (guint)n)
    g_array_set_size (sums, n);
  for (int c = 0; c < n; c++)
    g_array_index (sums, gint64, c) += sextant_row_get_int (row, c);

  return TRUE;
}

/*
 * _sextant_store_foreach_summed_valist:
 * @sql: a query of one row of counts (or sums of integers) over the
 *   shards' own rows (@rows(), @own())
 *
 * Runs @sql on each shard (once on a single store) and hands @func one row:
 * each column summed over the shards.
 */
gboolean
_sextant_store_foreach_summed_valist (SextantStore    *self,
                                      const char      *sql,
                                      SextantRowFunc   func,
                                      gpointer         user_data,
                                      GError         **error,
                                      const char      *types,
                                      va_list          args)
{
  g_autoptr(GArray) sums = g_array_new (FALSE, TRUE, sizeof (gint64));
  g_autoptr(GString) select = g_string_new ("SELECT ");

  if (_sextant_store_get_shard_union (self) == NULL)
    return foreach_shards_valist (self, sql, func, user_data, error, types, args);
  if (!foreach_shards_valist (self, sql, sum_row, sums, error, types, args))
    return FALSE;
  /* the sums as one row of the manifest's */
  for (guint c = 0; c < sums->len; c++)
    g_string_append_printf (select, "%s%" G_GINT64_FORMAT, c > 0 ? ", " : "", g_array_index (sums, gint64, c));

  return sextant_store_foreach_sql (self, select->str, func, user_data, error, "");
}
