/*
 * sextant-chunk-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A chunk table's row, read as a SextantRow (see sextant-chunk-row.h).
 */
#include "config.h"

#include "sextant-chunk-row.h"
#include "sextant-trace-error.h"

static gboolean
damaged (const SextantRow  *row,
         GError           **error)
{
  g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA, "chunk at row %" G_GINT64_FORMAT " is damaged",
               sextant_row_get_int (row, SEXTANT_CHUNK_ROW_FIRST_ROW));
  return FALSE;
}

gboolean
sextant_chunk_row_parse_header (const SextantRow  *row,
                                guint              n_cols,
                                SextantChunk      *chunk,
                                GError           **error)
{
  gsize header_size = 0;
  const guint8 *header = sextant_row_get_blob (row, SEXTANT_CHUNK_ROW_HEADER, &header_size);
  gint64 n = sextant_row_get_int (row, SEXTANT_CHUNK_ROW_N);

  if (n < 0 || n > SEXTANT_CHUNK_MAX_ROWS || !sextant_chunk_parse_header (chunk, header, header_size, (guint)n, n_cols))
    return damaged (row, error);

  return TRUE;
}

gboolean
sextant_chunk_row_attach_data (const SextantRow  *row,
                               SextantChunk      *chunk,
                               GBytes           **copy,
                               GError           **error)
{
  gsize size = 0;
  const guint8 *data = sextant_row_get_blob (row, SEXTANT_CHUNK_ROW_DATA, &size);

  if (copy != NULL)
    {
      *copy = g_bytes_new (data, size);
      data = g_bytes_get_data (*copy, NULL);
    }
  if (!sextant_chunk_attach_data (chunk, data, size))
    {
      if (copy != NULL)
        g_clear_pointer (copy, g_bytes_unref);
      return damaged (row, error);
    }

  return TRUE;
}
