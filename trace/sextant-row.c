/*
 * sextant-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row of a query's result (sextant-row.h): the columns of the statement
 * it was stepped on.
 */
#include "config.h"

#include "sextant-row-private.h"
#include "sextant-store.h"   /* SEXTANT_NULL */

gboolean
sextant_row_is_null (const SextantRow *row,
                     int               column)
{
  return sqlite3_column_type (row->stmt, column) == SQLITE_NULL;
}

gint64
sextant_row_get_int (const SextantRow *row,
                     int               column)
{
  return sqlite3_column_int64 (row->stmt, column);
}

/* The column's value as a double (an integer converted) */
double
sextant_row_get_double (const SextantRow *row,
                        int               column)
{
  return sqlite3_column_double (row->stmt, column);
}

const char *
sextant_row_get_text (const SextantRow *row,
                      int               column)
{
  return (const char *)sqlite3_column_text (row->stmt, column);
}

/* The column's bytes (valid until the next row), @size set; %NULL with
 * @size 0 for an empty blob or SQL NULL. */
const void *
sextant_row_get_blob (const SextantRow *row,
                      int               column,
                      gsize            *size)
{
  const void *data = sqlite3_column_blob (row->stmt, column);

  *size = (gsize)sqlite3_column_bytes (row->stmt, column);

  return data;
}

/* The column's text, copied; %NULL for SQL NULL. */
char *
sextant_row_dup_text (const SextantRow *row,
                      int               column)
{
  return sextant_row_is_null (row, column) ? NULL : g_strdup (sextant_row_get_text (row, column));
}

/* The column's integer, %SEXTANT_NULL for SQL NULL. */
gint64
sextant_row_get_int_or_null (const SextantRow *row,
                             int               column)
{
  return sextant_row_is_null (row, column) ? SEXTANT_NULL : sextant_row_get_int (row, column);
}

int
sextant_row_get_n_columns (const SextantRow *row)
{
  return sqlite3_column_count (row->stmt);
}

/* The index of the result column called @name, or -1. */
int
sextant_row_find_column (const SextantRow *row,
                         const char       *name)
{
  for (int i = 0; i < sqlite3_column_count (row->stmt); i++)
    if (g_strcmp0 (sqlite3_column_name (row->stmt, i), name) == 0)
      return i;

  return -1;
}

/* The column's value, for a reader that copies it as it is */
sqlite3_value *
_sextant_row_get_value (const SextantRow *row,
                        int               column)
{
  return sqlite3_column_value (row->stmt, column);
}
