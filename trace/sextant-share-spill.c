/*
 * sextant-share-spill.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Bounded streams of records, spilled to a file (sextant-share-spill.h).
 * A stream's records in memory fill pages of a fixed size, taken from a
 * free list (at most memory_bytes of pages are ever allocated); when none
 * is left, every stream's pages are written one after another to the end
 * of the file, each stream's as one segment, and go back to the free list.
 * A stream is read back from its segments in the file in order, then from
 * its pages in memory (the newest records).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "sextant-share-spill.h"

#define PAGE_BYTES 32768

typedef struct
{
  guint64  offset;   /* in the file */
  guint64  count;    /* records */
} Segment;

typedef struct
{
  GArray    *segments;   /* Segment, in the file, oldest first */
  GPtrArray *pages;      /* the records in memory, after those in the file */
  guint64    in_memory;  /* records in the pages */
  guint64    count;      /* all records added */
  guint      segment;    /* the read's place: a segment of the file, */
  guint64    at;         /* ... the record in it (or in memory, past the segments) */
} Stream;

struct _SextantShareSpill
{
  guint      n_streams;
  gsize      record_size;
  guint      page_records;
  guint      max_pages;
  guint      n_pages;      /* allocated */
  GPtrArray *free_pages;
  Stream    *streams;
  char      *path;
  int        fd;           /* -1 until the first spill */
  guint64    end;          /* of the file */
};

SextantShareSpill *
sextant_share_spill_new (guint       n_streams,
                         gsize       record_size,
                         gsize       memory_bytes,
                         const char *path)
{
  SextantShareSpill *self = g_new0 (SextantShareSpill, 1);

  g_return_val_if_fail (record_size > 0 && record_size <= PAGE_BYTES, NULL);

  self->n_streams = n_streams;
  self->record_size = record_size;
  /* pages smaller than the memory (a small bound, as the tests set) */
  self->page_records = (guint)MAX (MIN (PAGE_BYTES, memory_bytes) / record_size, 1);
  self->max_pages = (guint)MAX (memory_bytes / (self->page_records * record_size), 1);
  self->free_pages = g_ptr_array_new_with_free_func (g_free);
  self->streams = g_new0 (Stream, MAX (n_streams, 1));
  for (guint s = 0; s < n_streams; s++)
    {
      self->streams[s].segments = g_array_new (FALSE, FALSE, sizeof (Segment));
      self->streams[s].pages = g_ptr_array_new_with_free_func (g_free);
    }
  self->path = g_strdup (path);
  self->fd = -1;

  return self;
}

void
sextant_share_spill_free (SextantShareSpill *self)
{
  if (self == NULL)
    return;
  for (guint s = 0; s < self->n_streams; s++)
    {
      g_array_unref (self->streams[s].segments);
      g_ptr_array_unref (self->streams[s].pages);
    }
  g_free (self->streams);
  g_ptr_array_unref (self->free_pages);
  if (self->fd >= 0)
    close (self->fd);
  g_free (self->path);
  g_free (self);
}

/* The spill file, unlinked: in the directory of @path where it can be
 * (O_TMPFILE), else made at @path and unlinked at once */
static gboolean
open_file (SextantShareSpill  *self,
           GError            **error)
{
  g_autofree char *dir = self->path != NULL ? g_path_get_dirname (self->path) : g_strdup (g_get_tmp_dir ());
  g_autofree char *path = NULL;
  int saved;

  self->fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (self->fd >= 0)
    return TRUE;
  path = self->path != NULL ? g_strdup (self->path) : g_build_filename (dir, "sextant-halves-XXXXXX", NULL);
  self->fd = self->path != NULL ? open (path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600)
                                : g_mkstemp_full (path, O_RDWR | O_CLOEXEC, 0600);
  saved = errno;
  if (self->fd < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: cannot create the file of the message halves set aside: %s", path, g_strerror (saved));
      return FALSE;
    }
  g_unlink (path);

  return TRUE;
}

/* All @size bytes of @bytes to (@writing) or from the file at @offset */
static gboolean
spill_io (SextantShareSpill  *self,
          gboolean            writing,
          guint8             *bytes,
          gsize               size,
          guint64             offset,
          GError            **error)
{
  while (size > 0)
    {
      gssize n = writing ? pwrite (self->fd, bytes, size, (off_t)offset) : pread (self->fd, bytes, size, (off_t)offset);
      int saved = n < 0 ? errno : writing ? ENOSPC : EIO;

      if (n < 0 && saved == EINTR)
        continue;
      if (n <= 0)
        {
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       "cannot %s the file of the message halves set aside: %s", writing ? "write" : "read",
                       g_strerror (saved));
          return FALSE;
        }
      bytes += n;
      size -= (gsize)n;
      offset += (guint64)n;
    }

  return TRUE;
}

/* Every stream's pages to the end of the file, then to the free list */
static gboolean
spill (SextantShareSpill  *self,
       GError            **error)
{
  gsize page_bytes = self->page_records * self->record_size;

  if (self->fd < 0 && !open_file (self, error))
    return FALSE;
  for (guint s = 0; s < self->n_streams; s++)
    {
      Stream *stream = &self->streams[s];
      Segment segment = { self->end, stream->in_memory };

      if (stream->in_memory == 0)
        continue;
      for (guint p = 0; p < stream->pages->len; p++)
        {
          gsize bytes = MIN (page_bytes, (stream->in_memory - (guint64)p * self->page_records) * self->record_size);

          if (!spill_io (self, TRUE, g_ptr_array_index (stream->pages, p), bytes, self->end, error))
            return FALSE;
          self->end += bytes;
        }
      g_array_append_val (stream->segments, segment);
      while (stream->pages->len > 0)
        g_ptr_array_add (self->free_pages, g_ptr_array_steal_index (stream->pages, stream->pages->len - 1));
      stream->in_memory = 0;
    }

  return TRUE;
}

gboolean
sextant_share_spill_add (SextantShareSpill  *self,
                         guint               stream_index,
                         gconstpointer       record,
                         GError            **error)
{
  Stream *stream = &self->streams[stream_index];
  guint in_page = (guint)(stream->in_memory % self->page_records);
  guint8 *page;

  if (in_page == 0)
    {
      if (self->free_pages->len == 0 && self->n_pages < self->max_pages)
        {
          g_ptr_array_add (self->free_pages, g_malloc (self->page_records * self->record_size));
          self->n_pages++;
        }
      if (self->free_pages->len == 0 && !spill (self, error))
        return FALSE;
      g_ptr_array_add (stream->pages, g_ptr_array_steal_index (self->free_pages, self->free_pages->len - 1));
    }
  page = g_ptr_array_index (stream->pages, stream->pages->len - 1);
  memcpy (page + in_page * self->record_size, record, self->record_size);
  stream->in_memory++;
  stream->count++;

  return TRUE;
}

guint64
sextant_share_spill_count (SextantShareSpill *self,
                           guint              stream)
{
  return self->streams[stream].count;
}

gboolean
sextant_share_spill_spilled (SextantShareSpill *self)
{
  return self->fd >= 0;
}

gboolean
sextant_share_spill_read (SextantShareSpill  *self,
                          guint               stream_index,
                          guint64             n,
                          gpointer            into,
                          GError            **error)
{
  Stream *stream = &self->streams[stream_index];
  guint8 *to = into;

  while (n > 0 && stream->segment < stream->segments->len)
    {
      const Segment *segment = &g_array_index (stream->segments, Segment, stream->segment);
      guint64 take = MIN (n, segment->count - stream->at);

      if (!spill_io (self, FALSE, to, take * self->record_size, segment->offset + stream->at * self->record_size,
                     error))
        return FALSE;
      to += take * self->record_size;
      n -= take;
      stream->at += take;
      if (stream->at == segment->count)
        {
          stream->segment++;
          stream->at = 0;
        }
    }
  while (n > 0)
    {
      guint page = (guint)(stream->at / self->page_records);
      guint first = (guint)(stream->at % self->page_records);
      guint64 take = MIN (n, (guint64)(self->page_records - first));

      g_return_val_if_fail (stream->at + take <= stream->in_memory, FALSE);
      memcpy (to, (guint8 *)g_ptr_array_index (stream->pages, page) + first * self->record_size,
              take * self->record_size);
      to += take * self->record_size;
      n -= take;
      stream->at += take;
    }

  return TRUE;
}
