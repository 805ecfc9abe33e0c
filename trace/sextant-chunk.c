/*
 * sextant-chunk.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The column chunk format (see sextant-chunk.h and docs/schema.md):
 *
 *   header: per column  u8 width, u8 flags (1 = has NULL, 2 = all NULL),
 *                       i64 min, i64 max              (18 bytes, little endian)
 *   data:   per column  n_rows values of `width` bytes, little endian,
 *                       value - min (+ 1 when the column has NULLs, 0 = NULL)
 */
#include "config.h"

#include <string.h>

#include "sextant-chunk.h"

#define COLUMN_HEADER_SIZE 18

gsize
sextant_chunk_header_size (guint n_cols)
{
  return (gsize)n_cols * COLUMN_HEADER_SIZE;
}

static void
put_le64 (guint8  *p,
          guint64  v)
{
  for (guint i = 0; i < 8; i++)
    p[i] = (guint8)(v >> (8 * i));
}

static guint64
get_le64 (const guint8 *p)
{
  guint64 v = 0;

  for (guint i = 0; i < 8; i++)
    v |= (guint64)p[i] << (8 * i);

  return v;
}

static guint
width_of (guint64 max_stored)
{
  guint w = 0;

  while (max_stored != 0)
    {
      w++;
      max_stored >>= 8;
    }

  return w;
}

GBytes *
sextant_chunk_encode (const gint64 * const *columns,
                      guint                 n_cols,
                      guint                 n_rows,
                      guint8               *header)
{
  return sextant_chunk_encode_strided (columns, 1, NULL, n_cols, n_rows, header);
}

/* The smallest and largest value of @v that are not NULL (G_MININT64), and
 * the number of NULLs. Four interleaved accumulators: the compares of one
 * do not wait for those of the one before (the scan was a chain of
 * dependent cmovs, 30 % of the encoding). NULL never wins the minimum and
 * only wins the maximum if every row is NULL. */
static void
column_range (const gint64 *v,
              gsize         stride,
              guint         n_rows,
              gint64       *lo_out,
              gint64       *hi_out,
              guint        *n_null_out)
{
  gint64 lo[4] = { G_MAXINT64, G_MAXINT64, G_MAXINT64, G_MAXINT64 };
  gint64 hi[4] = { G_MININT64, G_MININT64, G_MININT64, G_MININT64 };
  guint n_null[4] = { 0, 0, 0, 0 };
  guint r = 0;

#define RANGE_STEP(k, x) \
  G_STMT_START { \
    gint64 x_ = (x); \
    gint64 y_ = x_ == G_MININT64 ? G_MAXINT64 : x_; \
    n_null[k] += x_ == G_MININT64; \
    lo[k] = y_ < lo[k] ? y_ : lo[k]; \
    hi[k] = x_ > hi[k] ? x_ : hi[k]; \
  } G_STMT_END

  for (; r + 4 <= n_rows; r += 4, v += 4 * stride)
    {
      RANGE_STEP (0, v[0]);
      RANGE_STEP (1, v[stride]);
      RANGE_STEP (2, v[2 * stride]);
      RANGE_STEP (3, v[3 * stride]);
    }
  for (; r < n_rows; r++, v += stride)
    RANGE_STEP (0, v[0]);
#undef RANGE_STEP

  *lo_out = MIN (MIN (lo[0], lo[1]), MIN (lo[2], lo[3]));
  *hi_out = MAX (MAX (hi[0], hi[1]), MAX (hi[2], hi[3]));
  *n_null_out = n_null[0] + n_null[1] + n_null[2] + n_null[3];
}

GBytes *
sextant_chunk_encode_strided (const gint64 * const *columns,
                              gsize                 stride,
                              const gint64         *constants,
                              guint                 n_cols,
                              guint                 n_rows,
                              guint8               *header)
{
  SextantChunkColumn cols[SEXTANT_CHUNK_MAX_COLS];
  gsize size = 0;
  guint8 *data;
  guint8 *p;

  g_return_val_if_fail (n_cols <= SEXTANT_CHUNK_MAX_COLS, NULL);
  g_return_val_if_fail (n_rows <= SEXTANT_CHUNK_MAX_ROWS, NULL);

  for (guint c = 0; c < n_cols; c++)
    {
      SextantChunkColumn *col = &cols[c];
      const gint64 *v = columns[c];
      gboolean any = FALSE;
      guint64 max_stored;

      memset (col, 0, sizeof *col);
      {
        gint64 lo = G_MAXINT64;
        gint64 hi = G_MININT64;
        guint n_null = 0;

        if (v == NULL && n_rows > 0)
          {
            /* the same value in every row: what the scan would find */
            gint64 x = constants[c];

            n_null = x == G_MININT64 ? n_rows : 0;
            lo = x == G_MININT64 ? G_MAXINT64 : x;
            hi = x;
          }
        else if (v != NULL)
          column_range (v, stride, n_rows, &lo, &hi, &n_null);
        any = n_null < n_rows;
        col->has_null = n_null > 0;
        col->min = lo;
        col->max = hi;
      }

      if (!any)
        {
          col->all_null = n_rows > 0;
          col->has_null = FALSE;
          col->width = 0;
          continue;
        }

      /* min > G_MININT64, so max - min + 1 cannot wrap */
      max_stored = (guint64)col->max - (guint64)col->min + (col->has_null ? 1 : 0);
      col->width = width_of (max_stored);
      size += (gsize)col->width * n_rows;
    }

  /* 8 bytes to spare: a value of an odd width is stored as 8 bytes, of
   * which the next value overwrites what is not its own */
  data = g_malloc (size + 8);
  p = data;
  for (guint c = 0; c < n_cols; c++)
    {
      const SextantChunkColumn *col = &cols[c];
      const gint64 *v = columns[c];
      guint8 *h = header + (gsize)c * COLUMN_HEADER_SIZE;

      h[0] = col->width;
      h[1] = (col->has_null ? 1 : 0) | (col->all_null ? 2 : 0);
      put_le64 (h + 2, (guint64)col->min);
      put_le64 (h + 10, (guint64)col->max);

      if (col->width == 0)
        continue;

      /* one 8-byte store per value, of which the next value overwrites
       * what is not this one's (any width, no branch on it) */
      {
        guint64 base = (guint64)col->min - (col->has_null ? 1 : 0);
        const gint64 *x = v;

        for (guint r = 0; r < n_rows; r++, x += stride)
          {
            guint64 s = *x == G_MININT64 ? 0 : (guint64)*x - base;

            if (G_BYTE_ORDER == G_LITTLE_ENDIAN)
              memcpy (p, &s, 8);
            else
              for (guint i = 0; i < col->width; i++)
                p[i] = (guint8)(s >> (8 * i));
            p += col->width;
          }
      }
    }

  return g_bytes_new_take (data, size);
}

gboolean
sextant_chunk_parse_header (SextantChunk *chunk,
                            const guint8 *header,
                            gsize         header_size,
                            guint         n_rows,
                            guint         n_cols)
{
  if (n_cols > SEXTANT_CHUNK_MAX_COLS || n_rows > SEXTANT_CHUNK_MAX_ROWS ||
      header_size != sextant_chunk_header_size (n_cols))
    return FALSE;

  chunk->n_rows = n_rows;
  chunk->n_cols = n_cols;
  for (guint c = 0; c < n_cols; c++)
    {
      const guint8 *h = header + (gsize)c * COLUMN_HEADER_SIZE;
      SextantChunkColumn *col = &chunk->cols[c];

      col->width = h[0];
      col->has_null = (h[1] & 1) != 0;
      col->all_null = (h[1] & 2) != 0;
      col->min = (gint64)get_le64 (h + 2);
      col->max = (gint64)get_le64 (h + 10);
      if (col->width > 8 || (col->all_null && col->width != 0))
        return FALSE;
      chunk->data[c] = NULL;
    }

  return TRUE;
}

gsize
sextant_chunk_data_size (const SextantChunk *chunk)
{
  gsize size = 0;

  for (guint c = 0; c < chunk->n_cols; c++)
    size += (gsize)chunk->cols[c].width * chunk->n_rows;

  return size;
}

gboolean
sextant_chunk_attach_data (SextantChunk *chunk,
                           const guint8 *data,
                           gsize         size)
{
  /* the data of a chunk whose columns are all of width 0 (or of no rows)
   * is SQLite's empty blob, NULL, and NULL + 0 is undefined: the readers
   * add a row's offset (0) to a column's data */
  static const guint8 empty[1];
  const guint8 *p = data != NULL ? data : empty;

  if (size != sextant_chunk_data_size (chunk))
    return FALSE;

  for (guint c = 0; c < chunk->n_cols; c++)
    {
      chunk->data[c] = p;
      p += (gsize)chunk->cols[c].width * chunk->n_rows;
    }

  return TRUE;
}

void
sextant_chunk_get_range (const SextantChunk *chunk,
                         guint               col,
                         guint               row,
                         guint               n,
                         gint64             *out,
                         gsize               stride)
{
  const SextantChunkColumn *c = &chunk->cols[col];
  const guint8 *p;
  guint64 base = (guint64)c->min;

  g_return_if_fail (col < chunk->n_cols && row + (guint64)n <= chunk->n_rows);

  if (c->all_null || c->has_null)
    {
      for (guint i = 0; i < n; i++)
        out[i * stride] = sextant_chunk_get (chunk, col, row + i);
      return;
    }
  p = chunk->data[col] + (gsize)row * c->width;
  /* little-endian values of a fixed width: a loop per width */
  switch (c->width)
    {
    case 0:
      for (guint i = 0; i < n; i++)
        out[i * stride] = (gint64)base;
      break;
    case 1:
      for (guint i = 0; i < n; i++)
        out[i * stride] = (gint64)(base + p[i]);
      break;
    case 2:
      for (guint i = 0; i < n; i++, p += 2)
        out[i * stride] = (gint64)(base + ((guint64)p[0] | (guint64)p[1] << 8));
      break;
    default:
      for (guint i = 0; i < n; i++, p += c->width)
        {
          guint64 s = 0;

          for (guint k = 0; k < c->width; k++)
            s |= (guint64)p[k] << (8 * k);
          out[i * stride] = (gint64)(base + s);
        }
      break;
    }
}
