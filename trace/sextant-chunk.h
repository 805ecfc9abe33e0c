/*
 * sextant-chunk.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Column chunks: the packed storage behind the store's big event tables
 * (visit, message, collective_member, lod). A chunk holds up to
 * SEXTANT_CHUNK_MAX_ROWS consecutive rows of one table, column by column,
 * each column frame-of-reference coded with a fixed byte width chosen per
 * chunk, so any row's value is read in O(1) without decoding its neighbours.
 * The chunk header doubles as a zone map: the minimum and maximum of every
 * column let a reader skip chunks that cannot hold a wanted value.
 *
 * Values are 64-bit integers; SEXTANT_NULL (G_MININT64) is SQL NULL and is
 * never a stored value.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SEXTANT_CHUNK_MAX_ROWS  65535
#define SEXTANT_CHUNK_MAX_COLS  32

typedef struct
{
  guint8  width;       /* bytes per value, 0..8 */
  guint8  has_null;    /* a stored 0 means NULL; values are stored + 1 */
  guint8  all_null;
  gint64  min;         /* of the non-NULL values */
  gint64  max;
} SextantChunkColumn;

/* A decoded chunk header; @data points into the blob it was parsed from. */
typedef struct
{
  guint               n_rows;
  guint               n_cols;
  SextantChunkColumn  cols[SEXTANT_CHUNK_MAX_COLS];
  const guint8       *data[SEXTANT_CHUNK_MAX_COLS];
} SextantChunk;

/* Size of the header blob of a chunk with @n_cols columns. */
gsize    sextant_chunk_header_size (guint              n_cols);

/* Encodes @n_rows rows of @n_cols columns, @columns[c][r] being the value of
 * row r in column c. Writes the header (sextant_chunk_header_size() bytes)
 * to @header and returns the column data. */
GBytes  *sextant_chunk_encode      (const gint64 * const *columns,
                                    guint              n_cols,
                                    guint              n_rows,
                                    guint8            *header);
/* The same, where the value of row r in column c is @columns[c][r * @stride]
 * (1 for columns, the number of columns for rows stored one after the
 * other), and a column c with @columns[c] == %NULL has the value
 * @constants[c] in every row (the result is the same as for an array that
 * holds it @n_rows times). */
GBytes  *sextant_chunk_encode_strided (const gint64 * const *columns,
                                       gsize              stride,
                                       const gint64      *constants,
                                       guint              n_cols,
                                       guint              n_rows,
                                       guint8            *header);

/* Parses a header; FALSE if it is not one of @n_cols columns. */
gboolean sextant_chunk_parse_header (SextantChunk      *chunk,
                                     const guint8      *header,
                                     gsize              header_size,
                                     guint              n_rows,
                                     guint              n_cols);

/* Points the chunk's columns into @data, the blob sextant_chunk_encode()
 * returned; FALSE if its size does not match the header. */
gboolean sextant_chunk_attach_data  (SextantChunk      *chunk,
                                     const guint8      *data,
                                     gsize              size);

gsize    sextant_chunk_data_size    (const SextantChunk *chunk);
/* Column @col of rows [@row, @row + @n) into @out[0], @out[@stride],
 * ...: sextant_chunk_get() of each, decoded in one pass (a reader that
 * wants every column of a run of rows) */
void     sextant_chunk_get_range    (const SextantChunk *chunk,
                                     guint               col,
                                     guint               row,
                                     guint               n,
                                     gint64             *out,
                                     gsize               stride);

/* The value of @row in @col, SEXTANT_NULL for NULL. */
static inline gint64
sextant_chunk_get (const SextantChunk *chunk,
                   guint               col,
                   guint               row)
{
  const SextantChunkColumn *c = &chunk->cols[col];
  const guint8 *p;
  guint64 s = 0;

  if (c->all_null)
    return G_MININT64;

  p = chunk->data[col] + (gsize)row * c->width;
  switch (c->width)
    {
    case 0: break;
    case 1: s = p[0]; break;
    case 2: s = (guint64)p[0] | (guint64)p[1] << 8; break;
    default:
      for (guint i = 0; i < c->width; i++)
        s |= (guint64)p[i] << (8 * i);
      break;
    }

  if (c->has_null)
    {
      if (s == 0)
        return G_MININT64;
      s--;
    }

  return (gint64)((guint64)c->min + s);
}

G_END_DECLS
