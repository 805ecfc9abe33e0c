/*
 * sextant-column-table-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The "sextant_columns" module's insides, shared by its parts: the module,
 * a table and its chunk directory. The module is split by what it does:
 * sextant-column-table.c (the column declarations, creating and dropping a
 * table, the module's registration), sextant-column-table-cache.c (the
 * chunk directory and the cache of chunk data) and
 * sextant-column-table-scan.c (the query plan and the cursors). For those
 * files only.
 */
#pragma once

#include "sextant-chunk.h"
#include "sextant-column-chunks.h"
#include "sextant-column-table.h"

G_BEGIN_DECLS

struct _SextantColumnModule
{
  guint64    generation;
  gboolean (*interrupted) (gpointer data);   /* or NULL */
  gpointer   interrupted_data;
  GHashTable *memory;                        /* temp table name -> SextantColumnChunks */
};

typedef struct
{
  char   *name;
  gint    stored;        /* index among the stored columns, -1 for the row id */
  GStrv   texts;         /* TEXT columns: the strings, by stored value */
} Column;

typedef struct
{
  gint64        first_row;
  SextantChunk  chunk;       /* header only: data is NULL */
  GBytes       *data;        /* cached, or NULL */
  guint         newer;       /* the cached entries, a list from the least */
  guint         older;       /* recently used: indexes, or NO_ENTRY */
} DirEntry;

#define NO_ENTRY G_MAXUINT

typedef struct
{
  sqlite3_vtab          base;
  sqlite3              *db;
  SextantColumnModule  *module;
  char                 *schema;
  char                 *chunk_table;
  SextantColumnChunks  *memory;       /* or NULL: the chunks are in chunk_table */
  guint                 n_cols;
  Column               *cols;
  guint                 n_stored;

  /* directory */
  guint64               generation;
  gboolean              loaded;
  GArray               *dir;          /* DirEntry by first_row */
  gint64                n_rows;
  double                spread[SEXTANT_CHUNK_MAX_COLS];  /* chunk range, mean over the rows / column range */

  /* cache: the entries with data, from the least recently used (a
   * directory of 150,000 chunks, as a shard's visits with the halo's, makes
   * a search for the oldest cost more than reading the chunk) */
  gsize                 cache_bytes;
  guint                 oldest;
  guint                 newest;
} ColumnTable;

/* In sextant-column-table-cache.c: (re)loads the directory of @self when
 * the module reports a write (SQLITE_OK, or an error in self->base.zErrMsg),
 * and the data of chunk @i, cached (NULL with *@rc set when it cannot be
 * read) */
G_GNUC_INTERNAL int      _sextant_column_table_load_directory (ColumnTable *self);
G_GNUC_INTERNAL GBytes  *_sextant_column_table_chunk_data     (ColumnTable *self,
                                                               guint        i,
                                                               int         *rc);

/* In sextant-column-table-scan.c: the module's methods that plan and run
 * the queries */
G_GNUC_INTERNAL int _sextant_column_table_best_index (sqlite3_vtab         *vtab,
                                                      sqlite3_index_info   *info);
G_GNUC_INTERNAL int _sextant_column_cursor_open      (sqlite3_vtab         *vtab,
                                                      sqlite3_vtab_cursor **cursor);
G_GNUC_INTERNAL int _sextant_column_cursor_close     (sqlite3_vtab_cursor  *cursor);
G_GNUC_INTERNAL int _sextant_column_cursor_filter    (sqlite3_vtab_cursor  *cursor,
                                                      int                   idx_num,
                                                      const char           *idx_str,
                                                      int                   argc,
                                                      sqlite3_value       **argv);
G_GNUC_INTERNAL int _sextant_column_cursor_next      (sqlite3_vtab_cursor  *cursor);
G_GNUC_INTERNAL int _sextant_column_cursor_eof       (sqlite3_vtab_cursor  *cursor);
G_GNUC_INTERNAL int _sextant_column_cursor_column    (sqlite3_vtab_cursor  *cursor,
                                                      sqlite3_context      *ctx,
                                                      int                   i);
G_GNUC_INTERNAL int _sextant_column_cursor_rowid     (sqlite3_vtab_cursor  *cursor,
                                                      sqlite3_int64        *rowid);

G_END_DECLS
