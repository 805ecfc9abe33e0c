/*
 * sextant-store-views-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared views of an analysis, computed in C
 * (sextant-store-views-collective.c, -p2p.c), and what they need of the
 * store's connection. sextant-store-views.c lists them in shared_views[];
 * sextant_store_materialize_views() calls them.
 */
#pragma once

#include <sqlite3.h>

#include "sextant-chunk.h"
#include "sextant-column-table.h"
#include "sextant-store-private.h"

G_BEGIN_DECLS

/* In sextant-store.c: the connection of @self, its column tables and the
 * state of its shared views. */
sqlite3             *_sextant_store_get_db          (SextantStore  *self);
SextantColumnModule *_sextant_store_get_columns     (SextantStore  *self);
GHashTable          *_sextant_store_get_materialized (SextantStore *self);   /* names of the views copied */
SextantSharedViews  *_sextant_store_get_shared_views (SextantStore *self);
gboolean             _sextant_store_exec_sql        (SextantStore  *self,
                                                     const char    *sql,
                                                     GError       **error);
void                 _sextant_store_set_error_from_db (SextantStore *self,
                                                     int            rc,
                                                     const char    *what,
                                                     GError       **error);

/* In sextant-store-views.c: a SextantRowFunc that takes the first row's
 * first column into the gint64 at @user_data and stops */
gboolean             _sextant_store_take_int        (const SextantRow  *row,
                                                     gpointer           user_data,
                                                     GError           **error);

/* In sextant-store-views.c: a row (first_row, n, header, data) of a chunk
 * table of @n_cols columns into @chunk, its data SQLite's (valid during
 * the row) or, without @with_data, not read (attach it later with
 * _sextant_store_attach_chunk_data()) */
gboolean             _sextant_store_parse_chunk_row (const SextantRow  *row,
                                                     guint              n_cols,
                                                     gboolean           with_data,
                                                     SextantChunk      *chunk,
                                                     GError           **error);
gboolean             _sextant_store_attach_chunk_data (const SextantRow  *row,
                                                       SextantChunk      *chunk,
                                                       GError           **error);

/* In sextant-store-views.c: temp.@name as a column table reading @chunks ... */
gboolean             _sextant_store_attach_temp_columns (SextantStore         *self,
                                                       const char           *name,
                                                       const char           *columns,
                                                       SextantColumnChunks  *chunks,
                                                       GError              **error);

/* ... or all at once: @func fills the rows [@first, @first + @n) into
 * @columns[c][0 .. @n) of each chunk. */
typedef void (*SextantTempColumnsFunc) (gsize          first,
                                        guint          n,
                                        gint64 * const *columns,
                                        gpointer       user_data);

gboolean             sextant_store_write_temp_columns (SextantStore           *self,
                                                     const char             *name,
                                                     const char             *columns,
                                                     guint                   n_cols,
                                                     gsize                   n_rows,
                                                     SextantTempColumnsFunc  func,
                                                     gpointer                user_data,
                                                     GError                **error);

/* Fills temp.collective_visit (schema-1.sql) on @self's connection. */
gboolean             _sextant_store_fill_collective_visit (SextantStore  *self,
                                                         GError       **error);

/* Fills temp.master_workers (schema-1.sql) on @self's connection, with a
 * shard's halo of message pairs (sextant-store-views-master.c). */
gboolean             _sextant_store_fill_master_workers (SextantStore  *self,
                                                       GError       **error);

G_END_DECLS
