/*
 * sextant-chunk-queue.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The chunks of an import on their way into the store: the threads that
 * fill the column tables encode their chunks themselves, in parallel, and
 * push them here; one thread at a time writes what is queued. So SQLite is
 * never waited for on the decoding path, and its work is done in one place.
 */
#pragma once

#include "sextant-store-private.h"

G_BEGIN_DECLS

typedef struct _SextantChunkQueue SextantChunkQueue;

SextantChunkQueue *sextant_chunk_queue_new   (SextantStore        *store);
void               sextant_chunk_queue_free  (SextantChunkQueue   *self);

/* Encodes @n_rows rows of @n_cols columns (@columns[c][r * @stride], or
 * @constants[c] in every row where @columns[c] is %NULL; see
 * sextant_chunk_encode_strided()) as one chunk of @table from row id
 * @first_row on, and queues it. Any thread. */
void               sextant_chunk_queue_push  (SextantChunkQueue   *self,
                                              SextantChunkTable    table,
                                              gint64               first_row,
                                              const gint64 * const *columns,
                                              gsize                stride,
                                              const gint64        *constants,
                                              guint                n_cols,
                                              guint                n_rows);
/* Writes every chunk queued so far to the store, in the order pushed. */
gboolean           sextant_chunk_queue_write (SextantChunkQueue   *self,
                                              GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantChunkQueue, sextant_chunk_queue_free)

G_END_DECLS
