/*
 * sextant-column-table.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQLite virtual table module "sextant_columns": a read-only SQL table
 * whose rows are stored as column chunks (sextant-chunk.h) in a plain table
 * beside it, so that the importer writes one row per thousands of events
 * and queries still see one row per event.
 *
 *   CREATE VIRTUAL TABLE visit USING sextant_columns (id ROWID, loc, region, ...);
 *   CREATE VIRTUAL TABLE message USING sextant_columns (..., send_mode TEXT BLOCKING NONBLOCKING, ...);
 *
 * Each argument declares a column: a name alone is an INTEGER column; `ROWID`
 * makes the column the row id (not stored); `TEXT A B ...` is a column of a
 * few fixed strings, stored as their index. Creating the table creates
 * `<name>_chunk (first_row INTEGER PRIMARY KEY, n, header, data)` for the
 * chunks, which only the importer writes (sextant_store_write_chunk()).
 *
 * Queries use the chunk headers as zone maps: constraints on the row id and
 * on any integer column skip the chunks that cannot match, and lookups by
 * row id cost one binary search. Decoded chunks are cached per connection.
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "sextant-column-chunks.h"

G_BEGIN_DECLS

typedef struct _SextantColumnModule SextantColumnModule;

/* Registers the module on @db; the returned handle belongs to @db (freed
 * when it closes). */
SextantColumnModule *sextant_column_table_register (sqlite3             *db,
                                                    char               **error_message);

/* Tells the tables of @module's connection that chunks were written. */
void                 sextant_column_module_changed (SextantColumnModule *module);

/* Makes the scans of @module's tables stop with SQLITE_INTERRUPT before the
 * next chunk they read once @func (@data) returns TRUE (the store's
 * cancellable; sqlite3_is_interrupted() is SQLite 3.41). Called on the
 * connection's thread. */
void                 sextant_column_module_set_interrupt_func (SextantColumnModule  *module,
                                                               gboolean            (*func) (gpointer data),
                                                               gpointer              data);

/* Makes `CREATE VIRTUAL TABLE temp.@name USING sextant_columns (...)` on
 * @module's connection read @chunks (their stored columns must be those it
 * declares) instead of a temp.@name_chunk table, which it then neither
 * creates nor drops: a copy of a view that several connections read. */
void                 sextant_column_module_set_memory_table (SextantColumnModule *module,
                                                             const char          *name,
                                                             SextantColumnChunks *chunks);

G_END_DECLS
