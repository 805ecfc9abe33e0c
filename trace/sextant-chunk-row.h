/*
 * sextant-chunk-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row of a chunk table (visit_chunk, message_chunk, lod_chunk, ...) as a
 * query reads it: first_row, n, header and, when the query asks for it,
 * data (docs/schema.md, "Column tables"). The one parse of such a row that
 * the store's readers (sextant-store-views.c: they read SQLite's data in
 * place, during the row) and the lod reader (sextant-lod-reader.c: it
 * copies the data to keep it) share, so that both refuse a damaged chunk
 * alike. The column table itself (sextant-column-table.c) reads its rows
 * through SQLite's C interface, not as a SextantRow.
 */
#pragma once

#include "sextant-chunk.h"
#include "sextant-row.h"

G_BEGIN_DECLS

/* The columns of a chunk row, in this order in every query that reads one */
typedef enum
{
  SEXTANT_CHUNK_ROW_FIRST_ROW,
  SEXTANT_CHUNK_ROW_N,
  SEXTANT_CHUNK_ROW_HEADER,
  SEXTANT_CHUNK_ROW_DATA,
} SextantChunkRowColumn;

/* Parses the row's n and header into @chunk, a chunk of @n_cols columns,
 * its data not attached; FALSE with SEXTANT_TRACE_ERROR_SCHEMA ("chunk at
 * row FIRST_ROW is damaged") when they are not one. */
gboolean sextant_chunk_row_parse_header (const SextantRow  *row,
                                         guint              n_cols,
                                         SextantChunk      *chunk,
                                         GError           **error);

/* Points @chunk, parsed from the row's header, into the row's data: into
 * SQLite's (valid during the row only) when @copy is %NULL, else into a
 * copy of it, which *@copy takes. FALSE with the error above (and no
 * copy) when its size does not match the header. */
gboolean sextant_chunk_row_attach_data  (const SextantRow  *row,
                                         SextantChunk      *chunk,
                                         GBytes           **copy,
                                         GError           **error);

G_END_DECLS
