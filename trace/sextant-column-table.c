/*
 * sextant-column-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The "sextant_columns" virtual table module (see sextant-column-table.h):
 * its column declarations, creating, connecting and dropping a table, and
 * the module's registration on a connection. The chunk directory and the
 * cache of chunk data are in sextant-column-table-cache.c, the query plan
 * and the cursors in sextant-column-table-scan.c
 * (sextant-column-table-private.h).
 */
#include "config.h"

#include <string.h>

#ifdef SEXTANT_SQLITE_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif

#include "sextant-column-table-private.h"

/* Arguments ---------------------------------------------------------------- */

static void
column_clear (Column *col)
{
  g_free (col->name);
  g_strfreev (col->texts);
}

static void
table_free (ColumnTable *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->n_cols; i++)
    column_clear (&self->cols[i]);
  g_free (self->cols);
  g_clear_pointer (&self->memory, sextant_column_chunks_unref);
  if (self->dir != NULL)
    {
      for (guint i = 0; i < self->dir->len; i++)
        g_clear_pointer (&g_array_index (self->dir, DirEntry, i).data, g_bytes_unref);
      g_array_unref (self->dir);
    }
  g_free (self->schema);
  g_free (self->chunk_table);
  g_free (self);
}

static gboolean
is_identifier (const char *s)
{
  if (s == NULL || !(g_ascii_isalpha (*s) || *s == '_'))
    return FALSE;
  for (; *s != '\0'; s++)
    if (!(g_ascii_isalnum (*s) || *s == '_'))
      return FALSE;

  return TRUE;
}

static ColumnTable *
table_new (sqlite3              *db,
           SextantColumnModule  *module,
           int                   argc,
           const char * const   *argv,
           char                **err)
{
  ColumnTable *self = g_new0 (ColumnTable, 1);
  g_autoptr(GString) decl = g_string_new ("CREATE TABLE x (");
  gboolean have_rowid = FALSE;
  int rc;

  self->db = db;
  self->module = module;
  self->schema = g_strdup (argv[1]);
  self->chunk_table = g_strdup_printf ("%s_chunk", argv[2]);
  if (module->memory != NULL && g_str_equal (argv[1], "temp") &&
      (self->memory = g_hash_table_lookup (module->memory, argv[2])) != NULL)
    sextant_column_chunks_ref (self->memory);
  self->n_cols = argc - 3;
  self->cols = g_new0 (Column, MAX (self->n_cols, 1));
  self->dir = g_array_new (FALSE, TRUE, sizeof (DirEntry));
  self->oldest = self->newest = NO_ENTRY;

  if (self->n_cols == 0)
    {
      *err = sqlite3_mprintf ("sextant_columns: %s declares no columns", argv[2]);
      goto fail;
    }

  for (guint i = 0; i < self->n_cols; i++)
    {
      g_autofree char *arg = g_strstrip (g_strdup (argv[3 + i]));
      g_auto(GStrv) words = g_strsplit_set (arg, " \t\n", -1);
      g_autoptr(GPtrArray) parts = g_ptr_array_new ();
      Column *col = &self->cols[i];

      for (guint k = 0; words[k] != NULL; k++)
        if (*words[k] != '\0')
          g_ptr_array_add (parts, words[k]);

      if (parts->len > 0)
        {
          char *name = parts->pdata[0];
          gsize len = strlen (name);

          /* "end": a quoted keyword */
          if (len > 2 && name[0] == '"' && name[len - 1] == '"')
            {
              name[len - 1] = '\0';
              parts->pdata[0] = name + 1;
            }
        }

      if (parts->len == 0 || !is_identifier (parts->pdata[0]))
        {
          *err = sqlite3_mprintf ("sextant_columns: bad column declaration \"%s\"", argv[3 + i]);
          goto fail;
        }
      col->name = g_strdup (parts->pdata[0]);
      col->stored = (gint)self->n_stored;

      if (parts->len == 2 && g_ascii_strcasecmp (parts->pdata[1], "ROWID") == 0 && !have_rowid)
        {
          col->stored = -1;
          have_rowid = TRUE;
        }
      else if (parts->len >= 3 && g_ascii_strcasecmp (parts->pdata[1], "TEXT") == 0)
        {
          col->texts = g_new0 (char *, parts->len - 1);
          for (guint k = 2; k < parts->len; k++)
            col->texts[k - 2] = g_strdup (parts->pdata[k]);
        }
      else if (parts->len != 1)
        {
          *err = sqlite3_mprintf ("sextant_columns: bad column declaration \"%s\"", argv[3 + i]);
          goto fail;
        }

      if (col->stored >= 0)
        self->n_stored++;
      g_string_append_printf (decl, "%s\"%s\" %s", i > 0 ? ", " : "", col->name,
                              col->texts != NULL ? "TEXT" : "INTEGER");
    }
  g_string_append (decl, ")");

  if (self->n_stored > SEXTANT_CHUNK_MAX_COLS)
    {
      *err = sqlite3_mprintf ("sextant_columns: more than %d stored columns", SEXTANT_CHUNK_MAX_COLS);
      goto fail;
    }

  rc = sqlite3_declare_vtab (db, decl->str);
  if (rc != SQLITE_OK)
    {
      *err = sqlite3_mprintf ("sextant_columns: %s", sqlite3_errmsg (db));
      goto fail;
    }
  sqlite3_vtab_config (db, SQLITE_VTAB_INNOCUOUS);

  return self;

fail:
  table_free (self);
  return NULL;
}

static int
table_connect (sqlite3             *db,
               void                *aux,
               int                  argc,
               const char * const  *argv,
               sqlite3_vtab       **vtab,
               char               **err)
{
  ColumnTable *self = table_new (db, aux, argc, argv, err);

  if (self == NULL)
    return SQLITE_ERROR;

  *vtab = &self->base;
  return SQLITE_OK;
}

static int
table_create (sqlite3             *db,
              void                *aux,
              int                  argc,
              const char * const  *argv,
              sqlite3_vtab       **vtab,
              char               **err)
{
  ColumnTable *self = table_new (db, aux, argc, argv, err);
  char *sql;
  int rc;

  if (self == NULL)
    return SQLITE_ERROR;
  if (self->memory != NULL)
    {
      *vtab = &self->base;
      return SQLITE_OK;
    }

  sql = sqlite3_mprintf ("CREATE TABLE \"%w\".\"%w\" (first_row INTEGER PRIMARY KEY, "
                         "n INTEGER NOT NULL, header BLOB NOT NULL, data BLOB NOT NULL)",
                         self->schema, self->chunk_table);
  rc = sqlite3_exec (db, sql, NULL, NULL, err);
  sqlite3_free (sql);
  if (rc != SQLITE_OK)
    {
      table_free (self);
      return rc;
    }

  *vtab = &self->base;
  return SQLITE_OK;
}

static int
table_disconnect (sqlite3_vtab *vtab)
{
  table_free ((ColumnTable *)vtab);
  return SQLITE_OK;
}

static int
table_destroy (sqlite3_vtab *vtab)
{
  ColumnTable *self = (ColumnTable *)vtab;
  char *sql;
  int rc;

  if (self->memory != NULL)
    {
      table_free (self);
      return SQLITE_OK;
    }
  sql = sqlite3_mprintf ("DROP TABLE IF EXISTS \"%w\".\"%w\"", self->schema, self->chunk_table);
  rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);
  sqlite3_free (sql);
  if (rc == SQLITE_OK)
    table_free (self);

  return rc;
}

static const sqlite3_module column_module = {
  .iVersion = 0,
  .xCreate = table_create,
  .xConnect = table_connect,
  .xBestIndex = _sextant_column_table_best_index,
  .xDisconnect = table_disconnect,
  .xDestroy = table_destroy,
  .xOpen = _sextant_column_cursor_open,
  .xClose = _sextant_column_cursor_close,
  .xFilter = _sextant_column_cursor_filter,
  .xNext = _sextant_column_cursor_next,
  .xEof = _sextant_column_cursor_eof,
  .xColumn = _sextant_column_cursor_column,
  .xRowid = _sextant_column_cursor_rowid,
};

static void
module_free (gpointer data)
{
  SextantColumnModule *module = data;

  g_clear_pointer (&module->memory, g_hash_table_unref);
  g_free (module);
}

SextantColumnModule *
sextant_column_table_register (sqlite3  *db,
                               char    **error_message)
{
  SextantColumnModule *module = g_new0 (SextantColumnModule, 1);
  int rc;

  /* sqlite3_create_module_v2 frees the module data even when it fails */
  rc = sqlite3_create_module_v2 (db, "sextant_columns", &column_module, module, module_free);
  if (rc != SQLITE_OK)
    {
      if (error_message != NULL)
        *error_message = g_strdup (sqlite3_errmsg (db));
      return NULL;
    }

  return module;
}

void
sextant_column_module_changed (SextantColumnModule *module)
{
  module->generation++;
}

/* @func (@data) is called before each chunk a scan reads; when it returns
 * TRUE the scan fails with SQLITE_INTERRUPT. */
void
sextant_column_module_set_interrupt_func (SextantColumnModule  *module,
                                          gboolean            (*func) (gpointer data),
                                          gpointer              data)
{
  module->interrupted = func;
  module->interrupted_data = data;
}

/* The table temp.@name of @module's connection created from now on reads
 * @chunks (a reference is taken) instead of temp.@name_chunk. */
void
sextant_column_module_set_memory_table (SextantColumnModule *module,
                                        const char          *name,
                                        SextantColumnChunks *chunks)
{
  if (module->memory == NULL)
    module->memory = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify)sextant_column_chunks_unref);
  g_hash_table_replace (module->memory, g_strdup (name), sextant_column_chunks_ref (chunks));
}
