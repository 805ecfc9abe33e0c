/*
 * sextant-sqlite-extension.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A loadable SQLite extension with the "sextant_columns" module and the
 * views' functions, so that any SQLite program can read a trace store:
 *
 *   sqlite3 trace.sextant.db -cmd '.load /usr/lib/x86_64-linux-gnu/sextant/sextant-sqlite'
 */
#include "config.h"

#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "sextant-column-table.h"
#include "sextant-sql-functions.h"

int sqlite3_sextantsqlite_init (sqlite3                     *db,
                                char                       **error_message,
                                const sqlite3_api_routines  *api);

int
sqlite3_sextantsqlite_init (sqlite3                     *db,
                            char                       **error_message,
                            const sqlite3_api_routines  *api)
{
  g_autofree char *message = NULL;

  SQLITE_EXTENSION_INIT2 (api);

  if (sextant_column_table_register (db, &message) == NULL ||
      !sextant_sql_functions_register (db, &message))
    {
      if (error_message != NULL)
        *error_message = sqlite3_mprintf ("sextant-sqlite: %s", message != NULL ? message : "failed");
      return SQLITE_ERROR;
    }

  return SQLITE_OK;
}
