/*
 * sextant-store-queries.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading rows from the store (sextant-store.c has the object): the store's
 * queries and those of the typed readers, prepared for each call and
 * summed over the shards of a manifest where they say so; queries that are
 * not Sextant's own (the pattern files), validated before they run; meta,
 * names by id, the activity behind a delay, the scope of the last
 * analysis and the file's data version.
 */
#include "config.h"

#include <string.h>

#include "sextant-row-private.h"
#include "sextant-sql-functions.h"
#include "sextant-store-connection-private.h"
#include "sextant-store-shard-reads.h"
#include "sextant-store-views-private.h"

/* Prepares @sql (not cached: a callback may run another query of the same
 * kind), binds the parameters and hands each row to @func. A callback that
 * returns %FALSE with its error set fails the call; with @stop_ok, one that
 * returns %FALSE without an error ends the scan, and the call succeeds. */
static gboolean
foreach_valist (SextantStore    *self,
                const char      *sql,
                gboolean         stop_ok,
                SextantRowFunc   func,
                gpointer         user_data,
                GError         **error,
                const char      *types,
                va_list          args)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  SextantRow row;
  int rc;

  if (!_sextant_store_check_usable (self, error))
    return FALSE;

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      _sextant_store_set_error_from_db (self, rc, "preparing a query", error);
      return FALSE;
    }

  _sextant_store_bind_valist (stmt, types, args);

  row.stmt = stmt;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      GError *local = NULL;

      if (!func (&row, user_data, &local))
        {
          if (local == NULL && stop_ok)
            return TRUE;
          if (local != NULL)
            g_propagate_error (error, local);
          return FALSE;
        }
    }

  if (rc != SQLITE_DONE)
    {
      _sextant_store_set_error_from_db (self, rc, "reading rows", error);
      return FALSE;
    }

  return TRUE;
}

/**
 * sextant_store_foreach:
 * @func: called for each row; returning %FALSE (with its error set) stops
 * @types: parameter types as for sextant_store_run(), "" for none
 *
 * Runs a query and hands each row to @func.
 *
 * Threading: the store's owning thread. Fails with %G_IO_ERROR_CANCELLED
 * when the store's cancellable is cancelled, before or while it runs.
 */
gboolean
sextant_store_foreach (SextantStore      *self,
                       SextantStoreStmt   query,
                       SextantRowFunc     func,
                       gpointer           user_data,
                       GError           **error,
                       const char        *types,
                       ...)
{
  va_list args;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  va_start (args, types);
  /* a count over the shards' own rows: summed over the shards */
  if (strstr (_sextant_store_stmt_sql[query], "@each(") != NULL)
    ok = _sextant_store_foreach_each_valist (self, _sextant_store_stmt_sql[query], func, user_data, error, types,
                                             args);
  else if (strstr (_sextant_store_stmt_sql[query], "@rows(") != NULL)
    ok = _sextant_store_foreach_summed_valist (self, _sextant_store_stmt_sql[query], func, user_data, error, types,
                                               args);
  else
    ok = foreach_valist (self, _sextant_store_stmt_sql[query], FALSE, func, user_data, error, types, args);
  va_end (args);

  return ok;
}

/* foreach_valist() (stopped early without an error: a success) for
 * sextant-store-shard-reads.c */
gboolean
_sextant_store_foreach_sql_valist (SextantStore    *self,
                                   const char      *sql,
                                   SextantRowFunc   func,
                                   gpointer         user_data,
                                   GError         **error,
                                   const char      *types,
                                   va_list          args)
{
  return foreach_valist (self, sql, TRUE, func, user_data, error, types, args);
}

/**
 * sextant_store_foreach_sql:
 * @sql: one statement of trace/ (the typed readers of the
 *   sextant-store-*.c files keep their SQL beside them)
 * @func: called for each row; returning %FALSE with its error set fails the
 *   call, returning %FALSE without an error ends the scan early (the call
 *   then succeeds)
 * @types: parameter types as for sextant_store_run(), "" for none
 *
 * sextant_store_foreach() for a statement that is not in the store's
 * table, prepared for this call.
 *
 * Threading: the store's owning thread; cancelled as sextant_store_foreach().
 */
gboolean
sextant_store_foreach_sql (SextantStore    *self,
                           const char      *sql,
                           SextantRowFunc   func,
                           gpointer         user_data,
                           GError         **error,
                           const char      *types,
                           ...)
{
  va_list args;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (sql != NULL && func != NULL, FALSE);

  va_start (args, types);
  ok = foreach_valist (self, sql, TRUE, func, user_data, error, types, args);
  va_end (args);

  return ok;
}

/* Whether the query returns its visits' context itself (a view that read
 * the visits already, such as collective_visit): then it is not joined on. */
static gboolean
has_visit_context (const SextantRow *row)
{
  static const char * const context[] = {
    "sextant_scl", "sextant_context", "sextant_path", "sextant_region", "sextant_enter", "sextant_leave",
  };

  for (guint i = 0; i < G_N_ELEMENTS (context); i++)
    if (sextant_row_find_column (row, context[i]) < 0)
      return FALSE;

  return TRUE;
}

/**
 * sextant_store_run_query:
 * @sql: one SELECT statement, e.g. a pattern query from a file
 * @parameters: (nullable): name (without ':') -> GVariant of type int64 or
 *   double, bound to the statement's named parameters
 * @required_columns: (nullable): NULL-terminated names the result must have
 * @with_visit_context: if the query has a column `visit` (or
 *   `example_visit`), add the columns sextant_scl, sextant_context,
 *   sextant_path, sextant_region, sextant_enter and sextant_leave of that
 *   visit, unless the query returns all six itself
 *
 * Runs a query that is not Sextant's own. It is validated first: it must
 * compile, be a single statement, not write to the store, name only known
 * parameters and return the required columns; otherwise it fails with
 * %SEXTANT_TRACE_ERROR_QUERY and a message that says which rule it broke.
 */
gboolean
sextant_store_run_query (SextantStore        *self,
                         const char          *sql,
                         GHashTable          *parameters,
                         const char * const  *required_columns,
                         gboolean             with_visit_context,
                         SextantRowFunc       func,
                         gpointer             user_data,
                         GError             **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  const char *tail = NULL;
  SextantRow row;
  int rc;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (sql != NULL, FALSE);

  if (!_sextant_store_check_usable (self, error))
    return FALSE;

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, &tail);
  if (rc != SQLITE_OK || stmt == NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "invalid SQL: %s", stmt == NULL && rc == SQLITE_OK ? "no statement" : sqlite3_errmsg (self->db));
      return FALSE;
    }

  /* A query that names the visit of each row (or, not charged to it, an
   * example_visit that shows where) gets that visit's call path, region,
   * call-site ids, enter and leave joined on, in the same pass. */
  row.stmt = stmt;
  if (with_visit_context && tail != NULL &&
      (sextant_row_find_column (&row, "visit") >= 0 || sextant_row_find_column (&row, "example_visit") >= 0) &&
      !has_visit_context (&row))
    {
      gboolean charged = sextant_row_find_column (&row, "visit") >= 0;
      gboolean example = sextant_row_find_column (&row, "example_visit") >= 0;
      g_autofree char *body = g_strndup (sql, tail - sql);
      g_autofree char *wrapped = NULL;
      g_autoptr(sqlite3_stmt) outer = NULL;

      g_strchomp (body);
      if (g_str_has_suffix (body, ";"))
        body[strlen (body) - 1] = '\0';
      wrapped = g_strconcat ("SELECT q.*, v.scl AS sextant_scl, v.context AS sextant_context, "
                             "v.path AS sextant_path, v.region AS sextant_region, "
                             "v.enter AS sextant_enter, v.leave AS sextant_leave "
                             "FROM (\n", body, "\n) AS q LEFT JOIN visit AS v ON v.id = ",
                             charged && example ? "coalesce (q.visit, q.example_visit)"
                             : charged          ? "q.visit"
                                                : "q.example_visit",
                             NULL);
      if (sqlite3_prepare_v2 (self->db, wrapped, -1, &outer, NULL) != SQLITE_OK)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                       "invalid SQL: %s", sqlite3_errmsg (self->db));
          return FALSE;
        }
      if (sqlite3_stmt_readonly (stmt) && sqlite3_column_count (stmt) > 0)
        {
          g_clear_pointer (&stmt, sqlite3_finalize);
          stmt = g_steal_pointer (&outer);
        }
    }
  while (tail != NULL && g_ascii_isspace (*tail))
    tail++;
  if (tail != NULL && *tail != '\0' && *tail != ';')
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "only one SQL statement is allowed (more follows: \"%.30s\")", tail);
      return FALSE;
    }
  if (!sqlite3_stmt_readonly (stmt) || sqlite3_column_count (stmt) == 0)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "the query must be a SELECT that does not change the store");
      return FALSE;
    }

  row.stmt = stmt;
  for (guint i = 0; required_columns != NULL && required_columns[i] != NULL; i++)
    if (sextant_row_find_column (&row, required_columns[i]) < 0)
      {
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                     "the query has no column named \"%s\"", required_columns[i]);
        return FALSE;
      }

  for (int i = 1; i <= sqlite3_bind_parameter_count (stmt); i++)
    {
      const char *name = sqlite3_bind_parameter_name (stmt, i);
      GVariant *value = NULL;

      if (name == NULL || (name[0] != ':' && name[0] != '$' && name[0] != '@'))
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                       "parameters must be named (:name), found \"%s\"", name != NULL ? name : "?");
          return FALSE;
        }
      if (parameters != NULL)
        value = g_hash_table_lookup (parameters, name + 1);
      if (value == NULL)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                       "unknown parameter %s", name);
          return FALSE;
        }
      if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
        sqlite3_bind_int64 (stmt, i, g_variant_get_int64 (value));
      else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
        sqlite3_bind_double (stmt, i, g_variant_get_double (value));
      else
        sqlite3_bind_text (stmt, i, g_variant_get_string (value, NULL), -1, SQLITE_TRANSIENT);
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (!func (&row, user_data, error))
        return FALSE;
    }

  if ((rc & 0xff) == SQLITE_INTERRUPT)
    {
      _sextant_store_set_cancelled (error);
      return FALSE;
    }
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                   "the query failed: %s", sqlite3_errmsg (self->db));
      return FALSE;
    }

  return TRUE;
}

/* The value of @key in meta, or NULL when it has none: FALSE only when the
 * read fails. */
static gboolean
get_meta (SextantStore  *self,
          const char    *key,
          char         **value,
          GError       **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  *value = NULL;
  if (!_sextant_store_check_usable (self, error))
    return FALSE;
  rc = sqlite3_prepare_v2 (self->db, "SELECT value FROM meta WHERE key = ?1", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      _sextant_store_set_error_from_db (self, rc, "reading meta", error);
      return FALSE;
    }

  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *value = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
  else if (rc != SQLITE_DONE)
    {
      _sextant_store_set_error_from_db (self, rc, "reading meta", error);
      return FALSE;
    }

  return TRUE;
}

/**
 * sextant_store_get_meta:
 * @key: a key of the meta table (docs/schema.md): "resolution", "time_begin", ...
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (nullable): the value of @key in the meta table
 *   as text; %NULL when the store has no such key, and when the read fails
 *   (a cancelled store, a damaged file)
 */
char *
sextant_store_get_meta (SextantStore *self,
                        const char   *key)
{
  char *value = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  get_meta (self, key, &value, NULL);

  return value;
}

static gboolean
name_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  gint64 *id = g_new (gint64, 1);

  *id = sextant_row_get_int (row, 0);
  g_hash_table_insert (user_data, id, g_strdup (sextant_row_is_null (row, 1) ? "?" : sextant_row_get_text (row, 1)));

  return TRUE;
}

GHashTable *
sextant_store_read_names (SextantStore      *self,
                          SextantStoreStmt   query,
                          GError           **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  if (!sextant_store_foreach (self, query, name_row, names, error, ""))
    return NULL;

  return g_steal_pointer (&names);
}

/**
 * sextant_store_find_delay_activity:
 * @loc: the location that made another wait (location.id)
 * @begin: ticks: the interval of the wait
 * @activity: (out caller-allocates): what @loc did then; its @visit is
 *   %SEXTANT_NULL when @loc has no visit there. Clear it with
 *   sextant_delay_activity_clear().
 *
 * Where @loc spent [@begin, @end]: the region of the program with the most
 * exclusive time there, or, in a trace of MPI calls only, the late call
 * and the function it is made in (sextant_delay_activity_find(),
 * sextant-sql-functions.c, has the rule). Reads the visits of @loc around
 * the interval: a few chunks.
 *
 * Threading: the store's owning thread.
 */
gboolean
sextant_store_find_delay_activity (SextantStore          *self,
                                   gint64                 loc,
                                   gint64                 begin,
                                   gint64                 end,
                                   SextantDelayActivity  *activity,
                                   GError               **error)
{
  int rc;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (activity != NULL, FALSE);

  memset (activity, 0, sizeof *activity);
  activity->visit = SEXTANT_NULL;
  activity->region = SEXTANT_NULL;
  if (!_sextant_store_check_usable (self, error))
    return FALSE;
  rc = sextant_delay_activity_find (self->db, loc, begin, end, activity);
  if (rc != SQLITE_OK)
    {
      sextant_delay_activity_clear (activity);
      _sextant_store_set_error_from_db (self, rc, "reading the visits of a delay", error);
      return FALSE;
    }

  return TRUE;
}

/**
 * sextant_analysis_scope_clear:
 * @scope: a scope sextant_store_get_analysis_scope() filled in
 *
 * Frees what @scope holds and zeroes it; clearing it twice is harmless.
 */
void
sextant_analysis_scope_clear (SextantAnalysisScope *scope)
{
  g_return_if_fail (scope != NULL);

  g_clear_pointer (&scope->selected, g_strfreev);
  g_clear_pointer (&scope->parameters, g_free);
  scope->analysed = FALSE;
}

/**
 * sextant_store_get_data_version:
 * @version: (out): SQLite's data version of the store's file
 *
 * A number that changes when another connection - another program, or
 * another thread's store - has committed to the store's file since the
 * last call (PRAGMA data_version; this connection's own commits do not
 * change it): how a window sees an analysis made elsewhere.
 *
 * Threading: the store's owning thread.
 *
 * Returns: %TRUE, or %FALSE with @error set
 */
gboolean
sextant_store_get_data_version (SextantStore  *self,
                                gint64        *version,
                                GError       **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (version != NULL, FALSE);

  *version = 0;
  return sextant_store_foreach_sql (self, "PRAGMA data_version", _sextant_store_take_int, version, error, "");
}

/**
 * sextant_store_get_analysis_scope:
 * @scope: (out caller-allocates): what the last analysis ran; clear it with
 *   sextant_analysis_scope_clear()
 *
 * Reads what the last analysis recorded with its results (meta
 * analysis_selected and analysis_parameters, written in the same
 * transaction): whether there was one, which patterns it was restricted to
 * and its parameter overrides. A store never analysed gives
 * @scope->analysed %FALSE.
 *
 * Threading: the store's owning thread.
 *
 * Returns: %TRUE, or %FALSE with @error set (%G_IO_ERROR_CANCELLED or a
 *   %SEXTANT_TRACE_ERROR) and @scope zeroed
 */
gboolean
sextant_store_get_analysis_scope (SextantStore          *self,
                                  SextantAnalysisScope  *scope,
                                  GError               **error)
{
  g_autofree char *selected = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (scope != NULL, FALSE);

  memset (scope, 0, sizeof *scope);
  if (!get_meta (self, "analysis_selected", &selected, error) ||
      !get_meta (self, "analysis_parameters", &scope->parameters, error))
    {
      sextant_analysis_scope_clear (scope);
      return FALSE;
    }

  scope->analysed = selected != NULL;
  if (selected != NULL && !g_str_equal (selected, SEXTANT_ANALYSIS_ALL_PATTERNS))
    scope->selected = g_strsplit (selected, " ", -1);
  if (scope->parameters != NULL && *scope->parameters == '\0')
    g_clear_pointer (&scope->parameters, g_free);

  return TRUE;
}
