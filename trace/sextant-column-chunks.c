/*
 * sextant-column-chunks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Column chunks outside the store (see sextant-column-chunks.h). Each chunk
 * is encoded as it is appended (sextant_chunk_encode()): its header stays in
 * memory, its data goes to an unlinked temporary file, as a temporary
 * <name>_chunk table's would, and comes back with pread() when a table
 * reads it (into that table's cache). On the benchmark trace of 10 M events
 * the four point-to-point views and collective_visit take 42 MB: in the
 * heap they would raise an analysis's peak from 283 to 320 MB; in a file
 * they are the kernel's page cache, read by every worker from one copy.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "sextant-column-chunks.h"

struct _SextantColumnChunks
{
  gatomicrefcount  ref_count;
  int              fd;          /* the data, or -1 before the first chunk */
  guint            n_cols;
  GArray          *chunks;      /* SextantColumnChunk, by first_row */
  gint64           n_rows;
  gsize            offset;      /* bytes of data */
};

static void
chunk_clear (gpointer data)
{
  SextantColumnChunk *chunk = data;

  g_free (chunk->header);
}

/**
 * sextant_column_chunks_new:
 * @n_cols: the stored columns of every chunk, 1 to %SEXTANT_CHUNK_MAX_COLS
 *
 * Returns: (transfer full): an empty list
 */
SextantColumnChunks *
sextant_column_chunks_new (guint n_cols)
{
  SextantColumnChunks *self = g_new0 (SextantColumnChunks, 1);

  g_return_val_if_fail (n_cols > 0 && n_cols <= SEXTANT_CHUNK_MAX_COLS, NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->fd = -1;
  self->n_cols = n_cols;
  self->chunks = g_array_new (FALSE, TRUE, sizeof (SextantColumnChunk));
  g_array_set_clear_func (self->chunks, chunk_clear);

  return self;
}

SextantColumnChunks *
sextant_column_chunks_ref (SextantColumnChunks *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

void
sextant_column_chunks_unref (SextantColumnChunks *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;

  if (self->fd >= 0)
    close (self->fd);
  g_array_unref (self->chunks);
  g_free (self);
}

/* An unlinked file in the temporary directory, where SQLite would put a
 * temporary table. */
static gboolean
open_file (SextantColumnChunks  *self,
           GError              **error)
{
  const char *dir = g_get_tmp_dir ();
  g_autofree char *path = NULL;
  int saved;

  self->fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (self->fd >= 0)
    return TRUE;
  /* a file system without O_TMPFILE */
  path = g_build_filename (dir, "sextant-view-XXXXXX", NULL);
  self->fd = g_mkstemp_full (path, O_RDWR | O_CLOEXEC, 0600);
  saved = errno;
  if (self->fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot create a temporary file in %s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  g_unlink (path);

  return TRUE;
}

/* pwrite() (@writing) or pread() all @size bytes at @offset; FALSE with
 * @error set when the file ends or fails first. */
static gboolean
transfer (int       fd,
          gboolean  writing,
          guint8   *bytes,
          gsize     size,
          gsize     offset,
          GError  **error)
{
  gsize done = 0;

  while (done < size)
    {
      gssize n = writing ? pwrite (fd, bytes + done, size - done, offset + done)
                         : pread (fd, bytes + done, size - done, offset + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = n < 0 ? errno : writing ? ENOSPC : EIO;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot %s a temporary file: %s",
                       writing ? "write" : "read", g_strerror (saved));
          return FALSE;
        }
      done += n;
    }

  return TRUE;
}

/**
 * sextant_column_chunks_append:
 * @columns: (array): each column's @n_rows values (%SEXTANT_NULL for NULL)
 * @n_rows: 1 to %SEXTANT_CHUNK_MAX_ROWS
 *
 * Encodes the next @n_rows rows as one chunk.
 *
 * Returns: %FALSE when its data cannot be written (a full disk), with
 *   @error set
 * Threading: not while another thread reads the list.
 */
gboolean
sextant_column_chunks_append (SextantColumnChunks   *self,
                              const gint64 * const  *columns,
                              guint                  n_rows,
                              GError               **error)
{
  SextantColumnChunk chunk = { 0 };
  gsize header_size = sextant_chunk_header_size (self->n_cols);
  g_autoptr(GBytes) data = NULL;
  const guint8 *bytes;
  gsize size;

  g_return_val_if_fail (n_rows > 0 && n_rows <= SEXTANT_CHUNK_MAX_ROWS, FALSE);

  if (self->fd < 0 && !open_file (self, error))
    return FALSE;

  chunk.header = g_malloc (header_size);
  data = sextant_chunk_encode (columns, self->n_cols, n_rows, chunk.header);
  bytes = g_bytes_get_data (data, &size);
  if (!transfer (self->fd, TRUE, (guint8 *)bytes, size, self->offset, error))
    {
      g_free (chunk.header);
      return FALSE;
    }

  chunk.first_row = self->n_rows;
  chunk.n_rows = n_rows;
  chunk.offset = self->offset;
  chunk.size = size;
  g_array_append_val (self->chunks, chunk);
  self->n_rows += n_rows;
  self->offset += size;

  return TRUE;
}

/**
 * sextant_column_chunks_read:
 *
 * Returns: (transfer full): the data of chunk @index, or %NULL with @error
 *   set when it cannot be read
 * Threading: any thread, once the list is complete.
 */
GBytes *
sextant_column_chunks_read (SextantColumnChunks  *self,
                            guint                 index,
                            GError              **error)
{
  const SextantColumnChunk *chunk;
  g_autofree guint8 *bytes = NULL;

  g_return_val_if_fail (index < self->chunks->len, NULL);

  chunk = &g_array_index (self->chunks, SextantColumnChunk, index);
  bytes = g_malloc (MAX (chunk->size, 1));
  if (!transfer (self->fd, FALSE, bytes, chunk->size, chunk->offset, error))
    return NULL;

  return g_bytes_new_take (g_steal_pointer (&bytes), chunk->size);
}

guint
sextant_column_chunks_get_n_cols (SextantColumnChunks *self)
{
  return self->n_cols;
}

guint
sextant_column_chunks_get_len (SextantColumnChunks *self)
{
  return self->chunks->len;
}

/**
 * sextant_column_chunks_get:
 *
 * Returns: (transfer none): chunk @index, in row order
 */
const SextantColumnChunk *
sextant_column_chunks_get (SextantColumnChunks *self,
                           guint                index)
{
  g_return_val_if_fail (index < self->chunks->len, NULL);

  return &g_array_index (self->chunks, SextantColumnChunk, index);
}

gint64
sextant_column_chunks_get_n_rows (SextantColumnChunks *self)
{
  return self->n_rows;
}

/* Bytes of data, in the file. */
gsize
sextant_column_chunks_get_size (SextantColumnChunks *self)
{
  return self->offset;
}
