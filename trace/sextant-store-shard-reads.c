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

#include <string.h>

#include "sextant-store-shard-reads.h"
#include "sextant-store-views-private.h"

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
  int n = sextant_row_get_n_columns (row);

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

/* The rows of the shards' subquery, put in the manifest's temporary table */
static gboolean
insert_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  sqlite3_stmt *insert = user_data;
  int rc;

  for (int c = 0; c < sextant_row_get_n_columns (row); c++)
    sqlite3_bind_value (insert, c + 1, _sextant_row_get_value (row, c));
  rc = sqlite3_step (insert);
  sqlite3_reset (insert);
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, "reading the shards: %s",
                   sqlite3_errmsg (sqlite3_db_handle (insert)));
      return FALSE;
    }

  return TRUE;
}

static gboolean
no_rows (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  return TRUE;
}

/*
 * _sextant_store_foreach_each_valist:
 * @sql: a query with one "@each(SELECT ...)" subquery, which reads the
 *   shards' own rows (@rows(), @own()) and gives rows the rest of the
 *   query combines (sums of counts, say: the shards' groups may overlap)
 *
 * On a manifest, runs the subquery on each shard, keeps its rows in a
 * temporary table of the manifest's connection, and runs the rest of the
 * query on it; on a single store the subquery is a plain one. @types and
 * the arguments are bound to the subquery and the query both.
 */
gboolean
_sextant_store_foreach_each_valist (SextantStore    *self,
                                    const char      *sql,
                                    SextantRowFunc   func,
                                    gpointer         user_data,
                                    GError         **error,
                                    const char      *types,
                                    va_list          args)
{
  static const char each_table[] = "temp.sextant_each";
  SextantShardUnion *shards = _sextant_store_get_shard_union (self);
  const char *start = strstr (sql, "@each(");
  const char *end;
  int depth = 1;
  g_autofree char *inner = NULL;
  g_autofree char *outer = NULL;
  g_autofree char *create = NULL;
  g_autofree char *drop = g_strdup_printf ("DROP TABLE IF EXISTS %s", each_table);
  g_autoptr(GString) insert_sql = g_string_new (NULL);
  sqlite3 *db = _sextant_store_get_db (self);
  sqlite3_stmt *insert = NULL;
  va_list copy;
  gboolean ok;
  int n_columns;

  g_return_val_if_fail (start != NULL, FALSE);
  for (end = start + strlen ("@each("); *end != '\0' && (depth > 1 || *end != ')'); end++)
    depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
  inner = g_strndup (start + strlen ("@each("), end - start - strlen ("@each("));
  if (shards == NULL)
    {
      outer = g_strdup_printf ("%.*s(%s)%s", (int)(start - sql), sql, inner, *end != '\0' ? end + 1 : end);
      return foreach_shards_valist (self, outer, func, user_data, error, types, args);
    }

  /* the table, of the subquery's columns (the manifest's tables have the
   * shards' columns), and the rows of each shard in it */
  {
    g_autofree char *shape = sextant_shard_union_own_sql (NULL, 0, inner);

    create = g_strdup_printf ("CREATE TEMP TABLE sextant_each AS SELECT * FROM (%s) WHERE 0", shape);
  }
  if (!sextant_store_foreach_sql (self, drop, no_rows, NULL, error, "") ||
      !sextant_store_foreach_sql (self, create, no_rows, NULL, error, ""))
    return FALSE;
  n_columns = 0;
  {
    sqlite3_stmt *count = NULL;

    if (sqlite3_prepare_v2 (db, "SELECT count (*) FROM pragma_table_info ('sextant_each', 'temp')", -1, &count,
                            NULL) == SQLITE_OK && sqlite3_step (count) == SQLITE_ROW)
      n_columns = sqlite3_column_int (count, 0);
    sqlite3_finalize (count);
  }
  g_string_append_printf (insert_sql, "INSERT INTO %s VALUES (", each_table);
  for (int c = 0; c < n_columns; c++)
    g_string_append_printf (insert_sql, "%s?%d", c > 0 ? ", " : "", c + 1);
  g_string_append_c (insert_sql, ')');
  if (n_columns == 0 || sqlite3_prepare_v2 (db, insert_sql->str, -1, &insert, NULL) != SQLITE_OK)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, "reading the shards: %s",
                   sqlite3_errmsg (db));
      sextant_store_foreach_sql (self, drop, no_rows, NULL, NULL, "");
      return FALSE;
    }
  va_copy (copy, args);
  ok = foreach_shards_valist (self, inner, insert_row, insert, error, types, copy);
  va_end (copy);
  sqlite3_finalize (insert);

  /* the rest of the query on them */
  outer = g_strdup_printf ("%.*s%s%s", (int)(start - sql), sql, each_table, *end != '\0' ? end + 1 : end);
  ok = ok && _sextant_store_foreach_sql_valist (self, outer, func, user_data, error, types, args);
  if (!sextant_store_foreach_sql (self, drop, no_rows, NULL, ok ? error : NULL, ""))
    ok = FALSE;

  return ok;
}
