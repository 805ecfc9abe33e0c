/*
 * sextant-column-table-scan.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A column table's queries (sextant-column-table.c has the module): the
 * plan and the cursors.
 *
 * Planning: the row id (and its alias column) supports =, <, <=, >, >=;
 * every integer column supports the same against its chunks' zone maps. The
 * selectivity a constraint is credited with comes from the zone maps
 * themselves: a column whose chunks each cover a narrow part of its range
 * (the location of a visit, the level of a pyramid row) prunes well, one
 * whose every chunk covers everything (the sender of a message) not at all,
 * so the planner does not loop over a table that cannot be searched.
 * Constraints are always rechecked by SQLite (omit = 0): the cursor only
 * filters early.
 */
#include "config.h"

#include <math.h>

#ifdef SEXTANT_SQLITE_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif

#include "sextant-column-table-private.h"

typedef struct
{
  guint   col;             /* stored column */
  gint64  lo;
  gint64  hi;
} Range;

typedef struct
{
  sqlite3_vtab_cursor  base;
  guint                entry;          /* index in the directory */
  guint                row;
  gboolean             eof;
  SextantChunk         chunk;
  GBytes              *data;
  gint64               first_row;
  gint64               lo;             /* row id bounds */
  gint64               hi;
  guint                n_ranges;
  Range                ranges[SEXTANT_CHUNK_MAX_COLS];
} ColumnCursor;
/* Planning ----------------------------------------------------------------- */

static gboolean
usable_op (unsigned char op)
{
  return op == SQLITE_INDEX_CONSTRAINT_EQ || op == SQLITE_INDEX_CONSTRAINT_GT ||
         op == SQLITE_INDEX_CONSTRAINT_GE || op == SQLITE_INDEX_CONSTRAINT_LT ||
         op == SQLITE_INDEX_CONSTRAINT_LE;
}

/* idxStr: one "<stored column or R for the row id><op letter>" per argv value */
int
_sextant_column_table_best_index (sqlite3_vtab       *vtab,
                                  sqlite3_index_info *info)
{
  ColumnTable *self = (ColumnTable *)vtab;
  g_autoptr(GString) plan = g_string_new (NULL);
  double rows;
  double fraction = 1.0;
  gboolean unique = FALSE;
  gboolean row_lo = FALSE, row_hi = FALSE;
  int argv_index = 0;
  int rc;

  if ((rc = _sextant_column_table_load_directory (self)) != SQLITE_OK)
    return rc;
  rows = MAX (self->n_rows, 1);

  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];
      gint stored;
      char op;

      if (!c->usable || !usable_op (c->op))
        continue;
      if (c->iColumn >= 0 && self->cols[c->iColumn].texts != NULL)
        continue;

      stored = c->iColumn < 0 ? -1 : self->cols[c->iColumn].stored;
      op = c->op == SQLITE_INDEX_CONSTRAINT_EQ ? '=' : c->op == SQLITE_INDEX_CONSTRAINT_GT ? '>' :
           c->op == SQLITE_INDEX_CONSTRAINT_GE ? 'g' : c->op == SQLITE_INDEX_CONSTRAINT_LT ? '<' : 'l';

      if (stored < 0)
        {
          if (op == '=')
            unique = TRUE;
          else if (op == '>' || op == 'g')
            row_lo = TRUE;
          else
            row_hi = TRUE;
          g_string_append_printf (plan, "R%c", op);
        }
      else
        {
          double spread = self->spread[stored];

          /* an equality hits the chunks whose range holds the value; a
           * bound about half of the rest */
          fraction *= op == '=' ? MAX (spread, 1.0 / rows) : MIN (1.0, 0.5 + spread);
          g_string_append_printf (plan, "%u%c", (guint)stored, op);
        }
      info->aConstraintUsage[i].argvIndex = ++argv_index;
      info->aConstraintUsage[i].omit = 0;
    }

  if (unique)
    {
      info->estimatedRows = 1;
      info->estimatedCost = 10;
      info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    }
  else
    {
      if (row_lo && row_hi)
        fraction *= 0.1;
      else if (row_lo || row_hi)
        fraction *= 0.5;
      info->estimatedRows = (sqlite3_int64)MAX (1.0, rows * fraction);
      info->estimatedCost = 100 + rows * fraction * 2;
    }

  if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
      (info->aOrderBy[0].iColumn < 0 || self->cols[info->aOrderBy[0].iColumn].stored < 0))
    info->orderByConsumed = 1;

  info->idxStr = sqlite3_mprintf ("%s", plan->str);
  info->needToFreeIdxStr = 1;

  return SQLITE_OK;
}

/* Scanning ------------------------------------------------------------------- */

int
_sextant_column_cursor_open (sqlite3_vtab         *vtab,
                             sqlite3_vtab_cursor **cursor)
{
  ColumnCursor *self = g_new0 (ColumnCursor, 1);

  self->eof = TRUE;
  *cursor = &self->base;
  return SQLITE_OK;
}

int
_sextant_column_cursor_close (sqlite3_vtab_cursor *cursor)
{
  ColumnCursor *self = (ColumnCursor *)cursor;

  g_clear_pointer (&self->data, g_bytes_unref);
  g_free (self);
  return SQLITE_OK;
}

static gboolean
chunk_may_match (const ColumnCursor *self,
                 const DirEntry     *e)
{
  if (e->first_row > self->hi || e->first_row + e->chunk.n_rows - 1 < self->lo || e->chunk.n_rows == 0)
    return FALSE;

  for (guint k = 0; k < self->n_ranges; k++)
    {
      const SextantChunkColumn *col = &e->chunk.cols[self->ranges[k].col];

      if (col->all_null || col->max < self->ranges[k].lo || col->min > self->ranges[k].hi)
        return FALSE;
    }

  return TRUE;
}

static gboolean
row_matches (const ColumnCursor *self)
{
  gint64 rowid = self->first_row + self->row;

  if (rowid < self->lo || rowid > self->hi)
    return FALSE;

  for (guint k = 0; k < self->n_ranges; k++)
    {
      gint64 v = sextant_chunk_get (&self->chunk, self->ranges[k].col, self->row);

      if (v == G_MININT64 || v < self->ranges[k].lo || v > self->ranges[k].hi)
        return FALSE;
    }

  return TRUE;
}

/* Moves to the first matching row at or after (entry, row). */
static int
seek (ColumnCursor *self,
      gboolean      same_chunk)
{
  ColumnTable *table = (ColumnTable *)self->base.pVtab;

  for (;;)
    {
      if (same_chunk)
        {
          for (; self->row < self->chunk.n_rows; self->row++)
            {
              if (self->first_row + self->row > self->hi)
                {
                  self->eof = TRUE;
                  return SQLITE_OK;
                }
              if (row_matches (self))
                return SQLITE_OK;
            }
          self->entry++;
        }

      /* the next chunk that may match */
      for (; self->entry < table->dir->len; self->entry++)
        {
          const DirEntry *e = &g_array_index (table->dir, DirEntry, self->entry);

          if (e->first_row > self->hi)
            break;
          if (chunk_may_match (self, e))
            break;
        }
      if (self->entry >= table->dir->len ||
          g_array_index (table->dir, DirEntry, self->entry).first_row > self->hi)
        {
          self->eof = TRUE;
          return SQLITE_OK;
        }

      /* a scan that skips row after row runs here, not in SQLite's
       * virtual machine, which checks for an interrupt between rows: a
       * cancelled query stops at the next chunk */
      if (table->module->interrupted != NULL && table->module->interrupted (table->module->interrupted_data))
        return SQLITE_INTERRUPT;

      {
        const DirEntry *e = &g_array_index (table->dir, DirEntry, self->entry);
        int rc = SQLITE_OK;

        g_clear_pointer (&self->data, g_bytes_unref);
        self->data = _sextant_column_table_chunk_data (table, self->entry, &rc);
        if (self->data == NULL)
          return rc != SQLITE_OK ? rc : SQLITE_NOMEM;
        self->chunk = e->chunk;
        sextant_chunk_attach_data (&self->chunk, g_bytes_get_data (self->data, NULL),
                                   g_bytes_get_size (self->data));
        self->first_row = e->first_row;
        self->row = self->lo > e->first_row ? (guint)(self->lo - e->first_row) : 0;
        same_chunk = TRUE;
      }
    }
}

/* The integer bound an integer or real constraint value gives, FALSE if the
 * value cannot be compared as a number (then no row matches). */
static gboolean
bound_of (sqlite3_value *value,
          char           op,
          gint64        *lo,
          gint64        *hi)
{
  gint64 v;

  switch (sqlite3_value_numeric_type (value))
    {
    case SQLITE_INTEGER:
      v = sqlite3_value_int64 (value);
      switch (op)
        {
        case '=': *lo = MAX (*lo, v); *hi = MIN (*hi, v); break;
        case '>': if (v == G_MAXINT64) return FALSE; *lo = MAX (*lo, v + 1); break;
        case 'g': *lo = MAX (*lo, v); break;
        case '<': if (v == G_MININT64) return FALSE; *hi = MIN (*hi, v - 1); break;
        case 'l': *hi = MIN (*hi, v); break;
        }
      return TRUE;

    case SQLITE_FLOAT:
      {
        double d = sqlite3_value_double (value);

        if (isnan (d))
          return FALSE;
        if (op == '=' && d != floor (d))
          return FALSE;
        if (op == '>' || op == 'g' || op == '=')
          *lo = MAX (*lo, d > 9.2e18 ? G_MAXINT64 : d < -9.2e18 ? G_MININT64 + 1
                          : (gint64)(op == '>' ? floor (d) + 1 : ceil (d)));
        if (op == '<' || op == 'l' || op == '=')
          *hi = MIN (*hi, d > 9.2e18 ? G_MAXINT64 : d < -9.2e18 ? G_MININT64 + 1
                          : (gint64)(op == '<' ? ceil (d) - 1 : floor (d)));
        return TRUE;
      }

    case SQLITE_NULL:
      return FALSE;

    default:
      /* text and blobs sort after every number: < and <= hold for all */
      return op == '<' || op == 'l';
    }
}

int
_sextant_column_cursor_filter (sqlite3_vtab_cursor  *cursor,
                               int                   idx_num,
                               const char           *idx_str,
                               int                   argc,
                               sqlite3_value       **argv)
{
  ColumnCursor *self = (ColumnCursor *)cursor;
  ColumnTable *table = (ColumnTable *)cursor->pVtab;
  const char *p = idx_str != NULL ? idx_str : "";
  int rc;

  if ((rc = _sextant_column_table_load_directory (table)) != SQLITE_OK)
    return rc;

  self->eof = FALSE;
  self->lo = G_MININT64;
  self->hi = G_MAXINT64;
  self->n_ranges = 0;

  for (int i = 0; i < argc && *p != '\0'; i++)
    {
      gint stored = -1;
      char op;

      if (*p == 'R')
        p++;
      else
        stored = (gint)g_ascii_strtoull (p, (char **)&p, 10);
      op = *p++;

      if (stored < 0)
        {
          if (!bound_of (argv[i], op, &self->lo, &self->hi))
            self->eof = TRUE;
        }
      else
        {
          Range *range = NULL;

          for (guint k = 0; k < self->n_ranges; k++)
            if (self->ranges[k].col == (guint)stored)
              range = &self->ranges[k];
          if (range == NULL)
            {
              range = &self->ranges[self->n_ranges++];
              range->col = stored;
              range->lo = G_MININT64 + 1;
              range->hi = G_MAXINT64;
            }
          if (!bound_of (argv[i], op, &range->lo, &range->hi))
            self->eof = TRUE;
        }
    }

  g_clear_pointer (&self->data, g_bytes_unref);
  if (self->eof || self->lo > self->hi)
    {
      self->eof = TRUE;
      return SQLITE_OK;
    }
  for (guint k = 0; k < self->n_ranges; k++)
    if (self->ranges[k].lo > self->ranges[k].hi)
      {
        self->eof = TRUE;
        return SQLITE_OK;
      }

  /* the first chunk that ends at or after lo */
  {
    guint a = 0, b = table->dir->len;

    while (a < b)
      {
        guint m = a + (b - a) / 2;
        const DirEntry *e = &g_array_index (table->dir, DirEntry, m);

        if (e->first_row + (gint64)e->chunk.n_rows - 1 < self->lo)
          a = m + 1;
        else
          b = m;
      }
    self->entry = a;
    self->row = 0;
  }

  return seek (self, FALSE);
}

int
_sextant_column_cursor_next (sqlite3_vtab_cursor *cursor)
{
  ColumnCursor *self = (ColumnCursor *)cursor;

  self->row++;
  return seek (self, TRUE);
}

int
_sextant_column_cursor_eof (sqlite3_vtab_cursor *cursor)
{
  return ((ColumnCursor *)cursor)->eof;
}

int
_sextant_column_cursor_column (sqlite3_vtab_cursor *cursor,
                               sqlite3_context     *ctx,
                               int                  i)
{
  ColumnCursor *self = (ColumnCursor *)cursor;
  ColumnTable *table = (ColumnTable *)cursor->pVtab;
  const Column *col = &table->cols[i];
  gint64 v;

  if (col->stored < 0)
    {
      sqlite3_result_int64 (ctx, self->first_row + self->row);
      return SQLITE_OK;
    }

  v = sextant_chunk_get (&self->chunk, col->stored, self->row);
  if (v == G_MININT64)
    sqlite3_result_null (ctx);
  else if (col->texts == NULL)
    sqlite3_result_int64 (ctx, v);
  else if (v >= 0 && v < (gint64)g_strv_length (col->texts))
    sqlite3_result_text (ctx, col->texts[v], -1, SQLITE_STATIC);
  else
    sqlite3_result_null (ctx);

  return SQLITE_OK;
}

int
_sextant_column_cursor_rowid (sqlite3_vtab_cursor *cursor,
                              sqlite3_int64       *rowid)
{
  ColumnCursor *self = (ColumnCursor *)cursor;

  *rowid = self->first_row + self->row;
  return SQLITE_OK;
}
