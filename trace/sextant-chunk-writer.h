/*
 * sextant-chunk-writer.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Buffers the rows of one stream of a column table (the visits of one
 * location, all messages, one level of one location's pyramid, ...) and
 * writes them as chunks. Rows get consecutive ids from the writer's first
 * row on. A row can be reserved first and filled later (a visit gets its id
 * at the enter and its end at the leave): a chunk is written once it is full
 * and all its rows are closed, so memory holds the current chunk plus the
 * few that still hold an open row. The importer's writers queue their
 * chunks (sextant-chunk-queue.h), which one thread then puts into the store.
 */
#pragma once

#include "sextant-block-pool.h"
#include "sextant-chunk-queue.h"

G_BEGIN_DECLS

typedef struct _SextantChunkWriter SextantChunkWriter;

SextantChunkWriter *sextant_chunk_writer_new       (SextantStore        *store,
                                                    SextantChunkTable    table,
                                                    guint                n_cols,
                                                    gint64               first_row,
                                                    guint                chunk_rows);
SextantChunkWriter *sextant_chunk_writer_new_queued (SextantChunkQueue   *queue,
                                                    SextantBlockPool    *pool,
                                                    SextantChunkTable    table,
                                                    guint                n_cols,
                                                    gint64               first_row,
                                                    guint                chunk_rows);
void                sextant_chunk_writer_free      (SextantChunkWriter  *self);
/* Makes a writer with nothing buffered (flushed) start again at row
 * @first_row, keeping its memory: a stream of the next location. */
void                sextant_chunk_writer_restart   (SextantChunkWriter  *self,
                                                    gint64               first_row);

/* A new open row with @values (all NULL if %NULL); returns its id. */
gint64              sextant_chunk_writer_reserve   (SextantChunkWriter  *self,
                                                    const gint64        *values);
/* Sets @col of @row to @value and marks the row complete; writes its chunk
 * when that was the last open row of a full chunk. */
gboolean            sextant_chunk_writer_close_row_with (SextantChunkWriter *self,
                                                         gint64              row,
                                                         guint               col,
                                                         gint64              value,
                                                         GError            **error);
/* Reserves, fills and closes a row; returns its id, or -1 with @error set. */
gint64              sextant_chunk_writer_append    (SextantChunkWriter  *self,
                                                    const gint64        *values,
                                                    GError             **error);
/* Writes every buffered row, open or not. */
gboolean            sextant_chunk_writer_flush     (SextantChunkWriter  *self,
                                                    GError             **error);
void                sextant_chunk_writer_hold      (SextantChunkWriter  *self);
gboolean            sextant_chunk_writer_release   (SextantChunkWriter  *self,
                                                    GError             **error);
void                sextant_chunk_writer_map       (SextantChunkWriter  *self,
                                                    guint                col,
                                                    gboolean           (*map) (gint64  *value,
                                                                               gpointer data),
                                                    gpointer             data);

G_END_DECLS
