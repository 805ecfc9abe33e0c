/*
 * sextant-store-statements.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store's own statements (sextant-store-sql.c), prepared on first use
 * and kept: run with bound values, many rows to an INSERT, the chunk
 * writes of the column tables, and the queries run for every frame
 * (sextant-store.c has the object).
 *
 * Workload: a bulk load is a few thousand chunk INSERTs and single-row
 * INSERTs for the definitions and the rarer events, from persistent prepared
 * statements inside one transaction; after that the file is read by views
 * and analyses.
 */
#include "config.h"

#include <string.h>

#include "sextant-chunk.h"
#include "sextant-row-private.h"
#include "sextant-store-connection-private.h"

static sqlite3_stmt *
get_stmt (SextantStore      *self,
          SextantStoreStmt   which,
          GError           **error)
{
  sqlite3_stmt *stmt = self->stmts[which];
  int rc;

  g_assert (which < SEXTANT_N_STMTS);
  g_assert (_sextant_store_stmt_sql[which] != NULL);

  if (stmt != NULL)
    {
      sqlite3_reset (stmt);
      sqlite3_clear_bindings (stmt);
      return stmt;
    }

  rc = sqlite3_prepare_v3 (self->db, _sextant_store_stmt_sql[which], -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      _sextant_store_set_error_from_db (self, rc, "preparing a statement", error);
      return NULL;
    }

  self->stmts[which] = stmt;

  return stmt;
}

/**
 * sextant_store_exec:
 * @stmt: a statement without parameters (possibly several, separated by ';')
 *
 * Threading: serialized on the store's lock: may be called by several
 * threads at once while the owning thread calls nothing else.
 */
gboolean
sextant_store_exec (SextantStore      *self,
                    SextantStoreStmt   stmt,
                    GError           **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (stmt < SEXTANT_N_STMTS, FALSE);

  {
    gboolean ok;

    g_mutex_lock (&self->lock);
    ok = _sextant_store_exec_sql (self, _sextant_store_stmt_sql[stmt], error);
    /* it may have deleted chunks (the instances of an earlier analysis) */
    sextant_column_module_changed (self->columns);
    g_mutex_unlock (&self->lock);

    return ok;
  }
}

static gboolean
step_done (SextantStore  *self,
           sqlite3_stmt  *stmt,
           GError       **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      sqlite3_reset (stmt);
      _sextant_store_set_error_from_db (self, rc, "writing a row", error);
      return FALSE;
    }

  return TRUE;
}

/* Binds @values (typed by @types, see sextant_store_run()) to @stmt's
 * parameters from number @first on */
static void
bind_values (sqlite3_stmt             *stmt,
             int                       first,
             const char               *types,
             const SextantStoreValue  *values)
{
  for (int i = 0; types[i] != '\0'; i++)
    switch (types[i])
      {
      case 'i':
        sqlite3_bind_int64 (stmt, first + i, values[i].i);
        break;

      case 'n':
        if (values[i].i == SEXTANT_NULL)
          sqlite3_bind_null (stmt, first + i);
        else
          sqlite3_bind_int64 (stmt, first + i, values[i].i);
        break;

      case 't':
        sqlite3_bind_text (stmt, first + i, values[i].t, -1, SQLITE_TRANSIENT);
        break;

      case 'd':
        sqlite3_bind_double (stmt, first + i, values[i].d);
        break;

      default:
        g_assert_not_reached ();
      }
}

/* the parameters of a statement of sextant_store_run() or a query */
#define MAX_PARAMS 64

void
_sextant_store_bind_valist (sqlite3_stmt *stmt,
                            const char   *types,
                            va_list       args)
{
  SextantStoreValue values[MAX_PARAMS];

  g_assert (strlen (types) <= MAX_PARAMS);
  for (guint i = 0; types[i] != '\0'; i++)
    if (types[i] == 't')
      values[i].t = va_arg (args, const char *);
    else if (types[i] == 'd')
      values[i].d = va_arg (args, double);
    else
      values[i].i = va_arg (args, gint64);
  bind_values (stmt, 1, types, values);
}

/* Statement @which (kept prepared) with @args bound, the store's lock
 * taken (release it when done); NULL, the lock released, when it cannot
 * be prepared */
static sqlite3_stmt *
lock_bound_stmt (SextantStore      *self,
                 SextantStoreStmt   which,
                 GError           **error,
                 const char        *types,
                 va_list            args)
{
  sqlite3_stmt *stmt;

  g_mutex_lock (&self->lock);
  if (!(stmt = get_stmt (self, which, error)))
    {
      g_mutex_unlock (&self->lock);
      return NULL;
    }
  g_assert ((int)strlen (types) == sqlite3_bind_parameter_count (stmt));
  _sextant_store_bind_valist (stmt, types, args);

  return stmt;
}

/**
 * sextant_store_run:
 * @types: one character per parameter: 'i' a gint64, 'n' a gint64 that is
 *   bound as NULL when it equals %SEXTANT_NULL, 't' a string (NULL allowed),
 *   'd' a double
 * @...: the values
 *
 * Binds the values to statement @stmt and runs it to completion.
 * Constraint violations fail with %SEXTANT_TRACE_ERROR_DUPLICATE, a full disk
 * with %SEXTANT_TRACE_ERROR_NO_SPACE, an interrupted statement with
 * %G_IO_ERROR_CANCELLED.
 *
 * Threading: serialized on the store's lock, as sextant_store_exec().
 */
gboolean
sextant_store_run (SextantStore      *self,
                   SextantStoreStmt   which,
                   GError           **error,
                   const char        *types,
                   ...)
{
  sqlite3_stmt *stmt;
  va_list args;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (types != NULL, FALSE);

  va_start (args, types);
  stmt = lock_bound_stmt (self, which, error, types, args);
  va_end (args);
  if (stmt == NULL)
    return FALSE;
  ok = step_done (self, stmt, error);
  g_mutex_unlock (&self->lock);

  return ok;
}

#define ROWS_PER_INSERT SEXTANT_STORE_ROWS_PER_INSERT

/* @which's INSERT with ROWS_PER_INSERT rows of @n_cols parameters after
 * its VALUES */
static sqlite3_stmt *
prepare_many (SextantStore      *self,
              SextantStoreStmt   which,
              guint              n_cols,
              gboolean           or_ignore,
              GError           **error)
{
  const char *sql = _sextant_store_stmt_sql[which];
  const char *values = strstr (sql, " VALUES ");
  g_autoptr(GString) many = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_assert (values != NULL);
  g_assert (!or_ignore || g_str_has_prefix (sql, "INSERT INTO "));
  many = or_ignore ? g_string_new ("INSERT OR IGNORE INTO ") : g_string_new (NULL);
  g_string_append_len (many, sql + (or_ignore ? strlen ("INSERT INTO ") : 0),
                       values - sql - (or_ignore ? (gssize)strlen ("INSERT INTO ") : 0));
  g_string_append (many, " VALUES ");
  for (guint r = 0; r < ROWS_PER_INSERT; r++)
    {
      g_string_append (many, r > 0 ? ", (?" : "(?");
      for (guint c = 1; c < n_cols; c++)
        g_string_append (many, ", ?");
      g_string_append_c (many, ')');
    }
  rc = sqlite3_prepare_v2 (self->db, many->str, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      _sextant_store_set_error_from_db (self, rc, "preparing a statement", error);
      return NULL;
    }

  return stmt;
}

/**
 * sextant_store_run_rows:
 * @which: an INSERT ... VALUES (...) statement
 * @types: its parameters, as for sextant_store_run() ('d' too)
 * @values: @n_rows rows of strlen (@types) values
 *
 * Runs @which for each row of @values, as sextant_store_run() would one
 * by one, but ROWS_PER_INSERT rows a statement: a statement of one small
 * row costs SQLite 3 to 4 times what the row itself does (its step, the
 * end of the statement and a seek from the B-tree's root for each row).
 *
 * Threading: serialized on the store's lock, as sextant_store_run().
 */
gboolean
sextant_store_run_rows (SextantStore             *self,
                        SextantStoreStmt          which,
                        const char               *types,
                        const SextantStoreValue  *values,
                        guint                     n_rows,
                        GError                  **error)
{
  guint n_cols = (guint)strlen (types);
  sqlite3_stmt *stmt;
  gboolean ok = TRUE;
  guint row = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (n_cols > 0 && n_cols * ROWS_PER_INSERT <= 32766, FALSE);

  g_mutex_lock (&self->lock);
  if (n_rows >= ROWS_PER_INSERT)
    {
      ok = (stmt = prepare_many (self, which, n_cols, FALSE, error)) != NULL;
      for (; ok && row + ROWS_PER_INSERT <= n_rows; row += ROWS_PER_INSERT)
        {
          for (guint r = 0; r < ROWS_PER_INSERT; r++)
            bind_values (stmt, (int)(r * n_cols) + 1, types, values + (gsize)(row + r) * n_cols);
          ok = step_done (self, stmt, error);
          sqlite3_reset (stmt);
        }
      sqlite3_finalize (stmt);
    }
  /* the rest one by one */
  for (; ok && row < n_rows; row++)
    {
      ok = (stmt = get_stmt (self, which, error)) != NULL;
      if (ok)
        {
          g_assert (sqlite3_bind_parameter_count (stmt) == (int)n_cols);
          bind_values (stmt, 1, types, values + (gsize)row * n_cols);
          ok = step_done (self, stmt, error);
        }
    }
  g_mutex_unlock (&self->lock);

  return ok;
}

/**
 * sextant_store_run_rows_keep_first:
 * @n_rows: a multiple of %SEXTANT_STORE_ROWS_PER_INSERT
 * @n_skipped: (out): the rows skipped
 *
 * Runs @which for the rows of @values as sextant_store_run_rows() does,
 * but a row that breaks a constraint (an id given before: the first row
 * is kept) is skipped rather than failing the statement, whose other rows
 * SQLite would otherwise leave half written (a store being loaded has no
 * journal to undo a statement with).
 *
 * Threading: serialized on the store's lock, as sextant_store_run().
 */
gboolean
sextant_store_run_rows_keep_first (SextantStore             *self,
                                   SextantStoreStmt          which,
                                   const char               *types,
                                   const SextantStoreValue  *values,
                                   guint                     n_rows,
                                   guint                    *n_skipped,
                                   GError                  **error)
{
  guint n_cols = (guint)strlen (types);
  sqlite3_stmt *stmt;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (n_rows % ROWS_PER_INSERT == 0, FALSE);
  g_return_val_if_fail (n_cols > 0 && n_cols * ROWS_PER_INSERT <= 32766, FALSE);

  *n_skipped = 0;
  if (n_rows == 0)
    return TRUE;
  g_mutex_lock (&self->lock);
  ok = (stmt = prepare_many (self, which, n_cols, TRUE, error)) != NULL;
  for (guint row = 0; ok && row < n_rows; row += ROWS_PER_INSERT)
    {
      for (guint r = 0; r < ROWS_PER_INSERT; r++)
        bind_values (stmt, (int)(r * n_cols) + 1, types, values + (gsize)(row + r) * n_cols);
      ok = step_done (self, stmt, error);
      *n_skipped += ROWS_PER_INSERT - (guint)sqlite3_changes (self->db);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
  g_mutex_unlock (&self->lock);

  return ok;
}

/* Binds and runs an INSERT of one chunk row (first_row, n, header, data). */
static int
step_chunk_row (sqlite3_stmt  *stmt,
                gint64         first_row,
                guint          n_rows,
                const guint8  *header,
                guint          n_cols,
                gconstpointer  data,
                gsize          size)
{
  int rc;

  sqlite3_bind_int64 (stmt, 1, first_row);
  sqlite3_bind_int64 (stmt, 2, n_rows);
  sqlite3_bind_blob (stmt, 3, header, sextant_chunk_header_size (n_cols), SQLITE_STATIC);
  sqlite3_bind_blob (stmt, 4, size > 0 ? data : "", size, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  sqlite3_reset (stmt);

  return rc;
}

/* The column tables: their chunk INSERT and number of stored columns. */
static const SextantStoreStmt chunk_stmts[SEXTANT_N_CHUNK_TABLES] = {
  [SEXTANT_CHUNK_VISIT] = SEXTANT_STMT_VISIT_CHUNK,
  [SEXTANT_CHUNK_MESSAGE] = SEXTANT_STMT_MESSAGE_CHUNK,
  [SEXTANT_CHUNK_COLLECTIVE_MEMBER] = SEXTANT_STMT_COLLECTIVE_MEMBER_CHUNK,
  [SEXTANT_CHUNK_LOD] = SEXTANT_STMT_LOD_CHUNK,
  [SEXTANT_CHUNK_PATTERN_INSTANCE] = SEXTANT_STMT_PATTERN_INSTANCE_CHUNK,
  [SEXTANT_CHUNK_WAIT_STATE] = SEXTANT_STMT_WAIT_STATE_CHUNK,
};
static const guint chunk_columns[SEXTANT_N_CHUNK_TABLES] = {
  [SEXTANT_CHUNK_VISIT] = SEXTANT_VISIT_N_COLUMNS,
  [SEXTANT_CHUNK_MESSAGE] = SEXTANT_MESSAGE_N_COLUMNS,
  [SEXTANT_CHUNK_COLLECTIVE_MEMBER] = SEXTANT_MEMBER_N_COLUMNS,
  [SEXTANT_CHUNK_LOD] = SEXTANT_LOD_N_COLUMNS,
  [SEXTANT_CHUNK_PATTERN_INSTANCE] = SEXTANT_INSTANCE_N_COLUMNS,
  [SEXTANT_CHUNK_WAIT_STATE] = SEXTANT_WAIT_STATE_N_COLUMNS,
};

/**
 * sextant_store_write_encoded_chunk:
 * @table: which column table
 * @header: (array): the chunk's header, sextant_chunk_header_size (@n_cols)
 *   bytes, and @data, @size: its data, as sextant_chunk_encode() made them
 *
 * Writes a chunk like sextant_store_write_chunk() does, of rows encoded
 * beforehand: the importer's threads encode in parallel and write from one
 * (sextant-chunk-queue.c).
 *
 * Threading: serialized on the store's lock, as sextant_store_exec().
 */
gboolean
sextant_store_write_encoded_chunk (SextantStore      *self,
                                   SextantChunkTable  table,
                                   gint64             first_row,
                                   const guint8      *header,
                                   guint              n_cols,
                                   guint              n_rows,
                                   gconstpointer      data,
                                   gsize              size,
                                   GError           **error)
{
  sqlite3_stmt *stmt;
  int rc;

  g_return_val_if_fail (table < SEXTANT_N_CHUNK_TABLES, FALSE);
  g_return_val_if_fail (n_cols == chunk_columns[table], FALSE);
  g_return_val_if_fail (n_rows > 0 && n_rows <= SEXTANT_CHUNK_MAX_ROWS, FALSE);

  g_mutex_lock (&self->lock);
  if (!(stmt = get_stmt (self, chunk_stmts[table], error)))
    {
      g_mutex_unlock (&self->lock);
      return FALSE;
    }
  rc = step_chunk_row (stmt, first_row, n_rows, header, n_cols, data, size);
  if (rc != SQLITE_DONE)
    _sextant_store_set_error_from_db (self, rc, "writing a chunk", error);
  else
    sextant_column_module_changed (self->columns);
  g_mutex_unlock (&self->lock);

  return rc == SQLITE_DONE;
}

/**
 * sextant_store_write_chunk:
 * @table: which column table
 * @first_row: the row id of the chunk's first row
 * @columns: (array length=n_cols): the values, @columns[c][r * @stride] for
 *   row r of stored column c, SEXTANT_NULL for NULL; %NULL for a column
 *   that holds @constants[c] in every row
 *
 * Writes @n_rows rows of a column table (visit, message, collective_member,
 * lod, pattern_instance_data) as one chunk (see
 * sextant_chunk_encode_strided()). The rows of a table are ids @first_row
 * onwards; chunks must not overlap.
 *
 * Threading: serialized on the store's lock, as sextant_store_exec().
 */
gboolean
sextant_store_write_chunk (SextantStore         *self,
                           SextantChunkTable     table,
                           gint64                first_row,
                           const gint64 * const *columns,
                           gsize                 stride,
                           const gint64         *constants,
                           guint                 n_cols,
                           guint                 n_rows,
                           GError              **error)
{
  guint8 header[SEXTANT_CHUNK_MAX_COLS * 18];
  g_autoptr(GBytes) data = NULL;
  gsize size;
  const void *bytes;

  g_return_val_if_fail (table < SEXTANT_N_CHUNK_TABLES && n_cols == chunk_columns[table], FALSE);
  g_assert (sextant_chunk_header_size (n_cols) <= sizeof header);

  data = sextant_chunk_encode_strided (columns, stride, constants, n_cols, n_rows, header);
  bytes = g_bytes_get_data (data, &size);

  return sextant_store_write_encoded_chunk (self, table, first_row, header, n_cols, n_rows, bytes, size, error);
}

/**
 * sextant_store_foreach_prepared:
 * @query: a query of the store's table, kept prepared
 * @func: called for each row, as for sextant_store_foreach_sql() (%FALSE
 *   without an error ends the scan, and the call succeeds); it must not
 *   use the store: the statement and the store's lock are held meanwhile
 * @types: parameter types as for sextant_store_run(), "" for none
 *
 * sextant_store_foreach() without preparing @query again: for a query
 * run for every frame, whose preparation would cost more than its rows
 * (a view of one-sided operations: 30-40 us a statement).
 *
 * Threading: serialized on the store's lock, as sextant_store_run();
 * cancelled as sextant_store_foreach().
 */
gboolean
sextant_store_foreach_prepared (SextantStore      *self,
                                SextantStoreStmt   query,
                                SextantRowFunc     func,
                                gpointer           user_data,
                                GError           **error,
                                const char        *types,
                                ...)
{
  sqlite3_stmt *stmt;
  SextantRow row;
  va_list args;
  gboolean ok = TRUE;
  int rc;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (func != NULL && types != NULL, FALSE);

  if (!_sextant_store_check_usable (self, error))
    return FALSE;
  va_start (args, types);
  stmt = lock_bound_stmt (self, query, error, types, args);
  va_end (args);
  if (stmt == NULL)
    return FALSE;

  row.stmt = stmt;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      GError *local = NULL;

      if (!func (&row, user_data, &local))
        {
          ok = local == NULL;
          if (local != NULL)
            g_propagate_error (error, local);
          break;
        }
    }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _sextant_store_set_error_from_db (self, rc, "reading rows", error);
      ok = FALSE;
    }
  /* done with: no read transaction left open */
  sqlite3_reset (stmt);
  g_mutex_unlock (&self->lock);

  return ok;
}
