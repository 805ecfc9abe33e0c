/*
 * sextant-chunk-queue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-chunk.h"
#include "sextant-chunk-queue.h"

typedef struct
{
  SextantChunkTable  table;
  gint64             first_row;
  guint              n_cols;
  guint              n_rows;
  GBytes            *data;
  guint8             header[];   /* sextant_chunk_header_size (n_cols) bytes */
} QueuedChunk;

struct _SextantChunkQueue
{
  SextantStore *store;
  GMutex        lock;
  GPtrArray    *chunks;          /* QueuedChunk*, oldest first */
};

static void
queued_chunk_free (gpointer data)
{
  QueuedChunk *chunk = data;

  g_bytes_unref (chunk->data);
  g_free (chunk);
}

SextantChunkQueue *
sextant_chunk_queue_new (SextantStore *store)
{
  SextantChunkQueue *self = g_new0 (SextantChunkQueue, 1);

  self->store = g_object_ref (store);
  g_mutex_init (&self->lock);
  self->chunks = g_ptr_array_new_with_free_func (queued_chunk_free);

  return self;
}

void
sextant_chunk_queue_free (SextantChunkQueue *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->chunks);
  g_mutex_clear (&self->lock);
  g_object_unref (self->store);
  g_free (self);
}

void
sextant_chunk_queue_push (SextantChunkQueue    *self,
                          SextantChunkTable     table,
                          gint64                first_row,
                          const gint64 * const *columns,
                          gsize                 stride,
                          const gint64         *constants,
                          guint                 n_cols,
                          guint                 n_rows)
{
  QueuedChunk *chunk = g_malloc (sizeof (QueuedChunk) + sextant_chunk_header_size (n_cols));

  chunk->table = table;
  chunk->first_row = first_row;
  chunk->n_cols = n_cols;
  chunk->n_rows = n_rows;
  chunk->data = sextant_chunk_encode_strided (columns, stride, constants, n_cols, n_rows, chunk->header);

  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->chunks, chunk);
  g_mutex_unlock (&self->lock);
}

gboolean
sextant_chunk_queue_write (SextantChunkQueue  *self,
                           GError            **error)
{
  g_autoptr(GPtrArray) chunks = NULL;

  g_mutex_lock (&self->lock);
  chunks = g_steal_pointer (&self->chunks);
  self->chunks = g_ptr_array_new_full (chunks->len, queued_chunk_free);
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < chunks->len; i++)
    {
      const QueuedChunk *chunk = g_ptr_array_index (chunks, i);
      gsize size;
      gconstpointer data = g_bytes_get_data (chunk->data, &size);

      if (!sextant_store_write_encoded_chunk (self->store, chunk->table, chunk->first_row, chunk->header,
                                              chunk->n_cols, chunk->n_rows, data, size, error))
        return FALSE;
    }

  return TRUE;
}
