/*
 * sextant-column-chunks.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A column table's chunks kept outside the store instead of in a
 * <name>_chunk table: the copy of a shared view that one analysis worker
 * computes and every worker's connection reads
 * (sextant_column_module_set_memory_table()). The headers are in memory,
 * the data in an unlinked temporary file. Appended to by one thread, then
 * only read - by any number of threads, each holding a reference.
 */
#pragma once

#include <glib.h>

#include "sextant-chunk.h"

G_BEGIN_DECLS

typedef struct _SextantColumnChunks SextantColumnChunks;

typedef struct
{
  gint64   first_row;
  guint    n_rows;
  guint8  *header;        /* sextant_chunk_header_size (n_cols) bytes */
  gsize    offset;        /* of its data in the file */
  gsize    size;
} SextantColumnChunk;

SextantColumnChunks      *sextant_column_chunks_new    (guint                     n_cols);
SextantColumnChunks      *sextant_column_chunks_ref    (SextantColumnChunks      *self);
void                      sextant_column_chunks_unref  (SextantColumnChunks      *self);

gboolean                  sextant_column_chunks_append (SextantColumnChunks      *self,
                                                        const gint64 * const     *columns,
                                                        guint                     n_rows,
                                                        GError                  **error);
GBytes                   *sextant_column_chunks_read   (SextantColumnChunks      *self,
                                                        guint                     index,
                                                        GError                  **error);

guint                     sextant_column_chunks_get_n_cols (SextantColumnChunks *self);
guint                     sextant_column_chunks_get_len    (SextantColumnChunks *self);
const SextantColumnChunk *sextant_column_chunks_get        (SextantColumnChunks *self,
                                                            guint                index);
gint64                    sextant_column_chunks_get_n_rows (SextantColumnChunks *self);
gsize                     sextant_column_chunks_get_size   (SextantColumnChunks *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantColumnChunks, sextant_column_chunks_unref)

G_END_DECLS
