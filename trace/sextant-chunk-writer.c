/*
 * sextant-chunk-writer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sextant-block-pool.h"
#include "sextant-chunk.h"
#include "sextant-chunk-writer.h"

/* The rows of a chunk being filled, one after the other (n_cols values
 * each): adding a row writes one or two cache lines, where a column per
 * array wrote one in every column; the encoder reads them with a stride.
 * A column that had one value in every row so far (the location of a
 * visit, a call site where the trace has none, the level of a pyramid row)
 * has its bit in `constant` and the value in `value`: the encoder takes it
 * as a constant. */
typedef struct
{
  gint64   first_row;
  guint    n;
  guint    capacity;
  guint    n_open;
  guint32  constant;
  gint64   value[SEXTANT_CHUNK_MAX_COLS];
  gint64  *rows;
} Block;

G_STATIC_ASSERT (SEXTANT_CHUNK_MAX_COLS <= 32);

struct _SextantChunkWriter
{
  SextantStore      *store;       /* chunks written here at once, */
  SextantChunkQueue *queue;       /* or queued here */
  SextantBlockPool  *pool;        /* the rows of big writers' blocks, or NULL: malloc */
  SextantChunkTable  table;
  guint              n_cols;
  guint              chunk_rows;
  gint64             next_row;
  GPtrArray         *blocks;      /* Block*, by first_row */
  Block             *spare;       /* a written block, kept for the next one */
  gboolean           big;         /* allocate whole chunks at once (else grow) */
  gboolean           held;        /* complete chunks wait for sextant_chunk_writer_release() */
};

static inline gsize
block_bytes (SextantChunkWriter *self,
             guint               capacity)
{
  return (gsize)capacity * self->n_cols * sizeof (gint64);
}

static void
block_free (SextantChunkWriter *self,
            Block              *block)
{
  if (block == NULL)
    return;

  if (self->pool != NULL && self->big)
    sextant_block_pool_give (self->pool, block->rows, block_bytes (self, block->capacity));
  else
    g_free (block->rows);
  g_free (block);
}

SextantChunkWriter *
sextant_chunk_writer_new (SextantStore      *store,
                          SextantChunkTable  table,
                          guint              n_cols,
                          gint64             first_row,
                          guint              chunk_rows)
{
  SextantChunkWriter *self = g_new0 (SextantChunkWriter, 1);

  g_return_val_if_fail (n_cols <= SEXTANT_CHUNK_MAX_COLS, NULL);

  self->store = store;
  self->table = table;
  self->n_cols = n_cols;
  self->chunk_rows = CLAMP (chunk_rows, 1, SEXTANT_CHUNK_MAX_ROWS);
  self->next_row = first_row;
  self->blocks = g_ptr_array_new ();
  self->big = self->chunk_rows >= 1024;

  return self;
}

/* A writer whose chunks go to @queue instead of straight into the store;
 * a big one (chunk_rows >= 1024) takes its blocks from @pool (nullable). */
SextantChunkWriter *
sextant_chunk_writer_new_queued (SextantChunkQueue *queue,
                                 SextantBlockPool  *pool,
                                 SextantChunkTable  table,
                                 guint              n_cols,
                                 gint64             first_row,
                                 guint              chunk_rows)
{
  SextantChunkWriter *self = sextant_chunk_writer_new (NULL, table, n_cols, first_row, chunk_rows);

  self->queue = queue;
  self->pool = pool;

  return self;
}

void
sextant_chunk_writer_free (SextantChunkWriter *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->blocks->len; i++)
    block_free (self, g_ptr_array_index (self->blocks, i));
  g_ptr_array_unref (self->blocks);
  block_free (self, self->spare);
  g_free (self);
}

void
sextant_chunk_writer_restart (SextantChunkWriter *self,
                              gint64              first_row)
{
  g_return_if_fail (self->blocks->len == 0);

  self->next_row = first_row;
  self->held = FALSE;
}

static Block *
find_block (SextantChunkWriter *self,
            gint64              row,
            guint              *index)
{
  for (guint i = self->blocks->len; i > 0; i--)
    {
      Block *block = g_ptr_array_index (self->blocks, i - 1);

      if (row >= block->first_row && row < block->first_row + block->n)
        {
          if (index != NULL)
            *index = i - 1;
          return block;
        }
    }

  g_error ("chunk writer: row %" G_GINT64_FORMAT " is not buffered", row);
}

/* the row of a reserve() without values */
static const gint64 nulls[SEXTANT_CHUNK_MAX_COLS] = { [0 ... SEXTANT_CHUNK_MAX_COLS - 1] = SEXTANT_NULL };

gint64
sextant_chunk_writer_reserve (SextantChunkWriter *self,
                              const gint64       *values)
{
  Block *block = self->blocks->len > 0 ? g_ptr_array_index (self->blocks, self->blocks->len - 1) : NULL;

  if (block == NULL || block->n == self->chunk_rows || block->first_row + block->n != self->next_row)
    {
      if (self->spare != NULL)
        block = g_steal_pointer (&self->spare);
      else
        block = g_new0 (Block, 1);
      block->first_row = self->next_row;
      block->n = 0;
      block->n_open = 0;
      g_ptr_array_add (self->blocks, block);
    }

  if (block->n == block->capacity)
    {
      /* a writer of big chunks fills many: the whole chunk at once, no
       * copies; small ones (a level of a pyramid) grow */
      if (self->big && self->pool != NULL)
        {
          g_assert (block->rows == NULL);
          block->capacity = self->chunk_rows;
          block->rows = sextant_block_pool_take (self->pool, block_bytes (self, block->capacity));
        }
      else
        {
          block->capacity = self->big ? self->chunk_rows : MIN (MAX (64, block->capacity * 2), self->chunk_rows);
          block->rows = g_realloc (block->rows, block_bytes (self, block->capacity));
        }
    }

  if (values == NULL)
    values = nulls;
  if (block->n == 0)
    {
      block->constant = self->n_cols == 32 ? G_MAXUINT32 : (1u << self->n_cols) - 1;
      memcpy (block->value, values, self->n_cols * sizeof (gint64));
    }
  {
    gint64 *row = block->rows + (gsize)block->n * self->n_cols;

    for (guint c = 0; c < self->n_cols; c++)
      row[c] = values[c];
    /* only the columns still constant are compared: after the first rows of
     * a chunk, a few */
    for (guint32 m = block->constant; m != 0; m &= m - 1)
      {
        guint c = (guint)__builtin_ctz (m);

        if (values[c] != block->value[c])
          block->constant &= ~(1u << c);
      }
  }
  block->n++;
  block->n_open++;

  return self->next_row++;
}

static gboolean
write_block (SextantChunkWriter  *self,
             guint                index,
             GError             **error)
{
  Block *block = g_ptr_array_index (self->blocks, index);
  const gint64 *cols[SEXTANT_CHUNK_MAX_COLS];
  gboolean ok = TRUE;

  for (guint c = 0; c < self->n_cols; c++)
    cols[c] = (block->constant & (1u << c)) != 0 ? NULL : block->rows + c;
  if (block->n > 0 && self->queue != NULL)
    sextant_chunk_queue_push (self->queue, self->table, block->first_row, cols, self->n_cols, block->value,
                              self->n_cols, block->n);
  else if (block->n > 0)
    ok = sextant_store_write_chunk (self->store, self->table, block->first_row, cols, self->n_cols, block->value,
                                    self->n_cols, block->n, error);
  g_ptr_array_steal_index (self->blocks, index);
  /* a small writer keeps the block it grew for its next chunk; a big one
   * gives it back (the pool or malloc has it again for the next, and the
   * memory of the import is not one spare chunk per location higher) */
  if (self->spare == NULL && !self->big)
    self->spare = block;
  else
    block_free (self, block);

  return ok;
}

static gboolean
close_in_block (SextantChunkWriter  *self,
                Block               *block,
                guint                index,
                GError             **error)
{
  g_assert (block->n_open > 0);
  block->n_open--;
  if (block->n_open == 0 && block->n == self->chunk_rows && !self->held)
    return write_block (self, index, error);

  return TRUE;
}

gboolean
sextant_chunk_writer_close_row_with (SextantChunkWriter  *self,
                                     gint64               row,
                                     guint                col,
                                     gint64               value,
                                     GError             **error)
{
  guint index;
  Block *block = find_block (self, row, &index);

  if (value != block->value[col])
    block->constant &= ~(1u << col);
  block->rows[(gsize)(row - block->first_row) * self->n_cols + col] = value;

  return close_in_block (self, block, index, error);
}

gint64
sextant_chunk_writer_append (SextantChunkWriter  *self,
                             const gint64        *values,
                             GError             **error)
{
  gint64 row = sextant_chunk_writer_reserve (self, values);
  guint index = self->blocks->len - 1;

  return close_in_block (self, g_ptr_array_index (self->blocks, index), index, error) ? row : -1;
}

gboolean
sextant_chunk_writer_flush (SextantChunkWriter  *self,
                            GError             **error)
{
  while (self->blocks->len > 0)
    if (!write_block (self, 0, error))
      return FALSE;

  return TRUE;
}

/* While held, complete chunks stay buffered (their rows may still change:
 * see sextant_chunk_writer_map). */
void
sextant_chunk_writer_hold (SextantChunkWriter *self)
{
  self->held = TRUE;
}

/* Ends a hold and writes the chunks that completed meanwhile. */
gboolean
sextant_chunk_writer_release (SextantChunkWriter  *self,
                              GError             **error)
{
  self->held = FALSE;

  for (guint i = 0; i < self->blocks->len; )
    {
      Block *block = g_ptr_array_index (self->blocks, i);

      if (block->n_open == 0 && block->n == self->chunk_rows)
        {
          if (!write_block (self, i, error))
            return FALSE;
        }
      else
        i++;
    }

  return TRUE;
}

/* Replaces every buffered value v of @col for which @map returns TRUE. */
void
sextant_chunk_writer_map (SextantChunkWriter  *self,
                          guint                col,
                          gboolean           (*map) (gint64 *value, gpointer data),
                          gpointer             data)
{
  for (guint i = 0; i < self->blocks->len; i++)
    {
      Block *block = g_ptr_array_index (self->blocks, i);

      gint64 *v = block->rows + col;

      if ((block->constant & (1u << col)) != 0)
        {
          map (&block->value[col], data);
          for (guint r = 0; r < block->n; r++)
            v[(gsize)r * self->n_cols] = block->value[col];
        }
      else
        for (guint r = 0; r < block->n; r++)
          map (&v[(gsize)r * self->n_cols], data);
    }
}
