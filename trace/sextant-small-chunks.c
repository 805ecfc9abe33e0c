/*
 * sextant-small-chunks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A private view of an OTF2 archive for libotf2 to read: a temporary
 * directory with a copy of the anchor file that declares smaller chunks and
 * symbolic links to the archive's other files. The archive itself is never
 * written.
 *
 * Why: libotf2 3.0 gives every reader it opens a buffer of one chunk, the
 * size the anchor declares (1 MiB of events in Score-P's archives and our
 * generator's, 4 MiB of definitions in some of Score-P's), and clears it
 * whole when it opens the reader. A location of 25 KiB of events costs 1 MiB
 * of cleared memory: at 4096 locations a quarter of the import's CPU time.
 *
 * When it is safe: a writer of OTF2 (OTF2_Buffer_FlushBuffer) writes every
 * chunk of a file whole, chunk-size bytes, except the file's last one, which
 * it cuts where its records end (after the end-of-file mark of the event and
 * definition writers). So a file shorter than the chunk size holds exactly
 * one chunk, and a reader whose buffer is larger than the file reads the
 * whole chunk with one fread() (a short read is no error), finds the chunk
 * header at the start and the end-of-file mark at the end, exactly as with
 * the declared size. The declared size is used only to size that buffer and
 * to find chunk boundaries in files of several chunks, which there are
 * none of. The view is made only when every file read with the event chunk
 * size (the locations' events and snapshots) is shorter than the new size,
 * the files are plain POSIX files (no SION container) and uncompressed;
 * otherwise libotf2 reads the archive itself. The new size is the largest
 * such file plus one, rounded up to 4 KiB and never below
 * OTF2_CHUNK_SIZE_MIN (256 KiB), the smallest libotf2 accepts. The
 * definition chunk stays what the anchor declares (see
 * sextant_small_chunks_new()).
 *
 * A view lives in the temporary directory while its import runs; the views
 * of processes that were killed are removed by the next import.
 *
 * Workload: one stat() per file of the archive and a handful of symbolic
 * links, once per import.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <otf2/otf2.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sextant-anchor.h"
#include "sextant-small-chunks.h"

/* where the anchor file keeps the event chunk size (see sextant-anchor.c) */
#define EVENT_CHUNK_OFFSET 12
#define ROUND              4096
/* the views' directories: PREFIX PID "-" XXXXXX in the temporary directory */
#define PREFIX             "sextant-otf2-"

struct _SextantSmallChunks
{
  char      *dir;       /* the temporary directory */
  char      *anchor;    /* the copy of the anchor file in it */
  GPtrArray *entries;   /* what was made in it, to remove */
  guint64    event_chunk;
  guint64    def_chunk;
};

typedef struct
{
  guint64  max_events;  /* the largest file read with the event chunk size */
  gboolean unsure;      /* something that is not a plain file */
} Sizes;

static void
note_file (Sizes      *sizes,
           int         dir_fd,
           const char *name,
           guint64    *max)
{
  struct stat st;

  if (fstatat (dir_fd, name, &st, 0) != 0)
    {
      /* a missing file is libotf2's error to report, with the sizes it reads */
      if (errno != ENOENT)
        sizes->unsure = TRUE;
      return;
    }
  if (!S_ISREG (st.st_mode))
    {
      sizes->unsure = TRUE;
      return;
    }
  *max = MAX (*max, (guint64)st.st_size);
}

/* The sizes of the files of archive @name in @dir that libotf2 reads in
 * chunks of the event chunk size. Each file's stat() is relative to the
 * directory (every rank of a parallel import measures all the archive's
 * files: at 4096 locations, a whole path each took 15 ms a rank). */
static void
measure (const char *dir,
         const char *name,
         Sizes      *sizes)
{
  g_autofree char *locations = g_build_filename (dir, name, NULL);
  DIR *d;
  struct dirent *entry;

  memset (sizes, 0, sizeof *sizes);

  if (!(d = opendir (locations)))
    {
      sizes->unsure = g_file_test (locations, G_FILE_TEST_EXISTS);
      return;
    }
  while ((entry = readdir (d)) != NULL && !sizes->unsure)
    if (g_str_has_suffix (entry->d_name, ".evt") || g_str_has_suffix (entry->d_name, ".snap"))
      note_file (sizes, dirfd (d), entry->d_name, &sizes->max_events);
  closedir (d);
}

/* The chunk size for files of at most @largest bytes: @declared when no
 * smaller one is safe. */
static guint64
smaller_chunk (guint64 declared,
               guint64 largest)
{
  guint64 size = (largest + 1 + ROUND - 1) / ROUND * ROUND;

  size = MAX (size, OTF2_CHUNK_SIZE_MIN);

  return MIN (size, declared);
}

static void
put_uint64 (guint8   *at,
            guint64   value,
            gboolean  big_endian)
{
  for (guint i = 0; i < 8; i++)
    at[big_endian ? 7 - i : i] = (guint8)(value >> (8 * i));
}

/* Links every file of the archive but its anchor (NAME, NAME.*) from @self's
 * directory. */
static gboolean
link_archive (SextantSmallChunks  *self,
              const char          *dir,
              const char          *name,
              GError             **error)
{
  g_autofree char *prefix = g_strconcat (name, ".", NULL);
  g_autofree char *anchor = g_strconcat (name, ".otf2", NULL);
  g_autoptr(GDir) d = NULL;
  const char *entry;

  if (!(d = g_dir_open (dir, 0, error)))
    return FALSE;
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *target = NULL;
      g_autofree char *link = NULL;

      if ((!g_str_equal (entry, name) && !g_str_has_prefix (entry, prefix)) ||
          g_str_equal (entry, anchor))
        continue;

      target = g_build_filename (dir, entry, NULL);
      link = g_build_filename (self->dir, entry, NULL);
      if (symlink (target, link) != 0)
        {
          int saved = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       "%s: %s", link, g_strerror (saved));
          return FALSE;
        }
      g_ptr_array_add (self->entries, g_steal_pointer (&link));
    }

  return TRUE;
}

/* Removes the views of processes that ended without removing them (an
 * import worker is killed when its import is cancelled or stalls): their
 * files are the anchor's copy and links, never followed. */
static void
remove_stale_views (void)
{
  g_autoptr(GDir) tmp = g_dir_open (g_get_tmp_dir (), 0, NULL);
  const char *name;

  while (tmp != NULL && (name = g_dir_read_name (tmp)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr(GDir) view = NULL;
      const char *entry;
      char *end = NULL;
      guint64 pid;

      if (!g_str_has_prefix (name, PREFIX))
        continue;
      pid = g_ascii_strtoull (name + strlen (PREFIX), &end, 10);
      if (end == name + strlen (PREFIX) || *end != '-' || pid == 0 || pid > G_MAXINT ||
          kill ((pid_t)pid, 0) == 0 || errno != ESRCH)
        continue;

      path = g_build_filename (g_get_tmp_dir (), name, NULL);
      if (!(view = g_dir_open (path, 0, NULL)))
        continue;
      while ((entry = g_dir_read_name (view)) != NULL)
        {
          g_autofree char *file = g_build_filename (path, entry, NULL);

          g_unlink (file);
        }
      g_rmdir (path);
    }
}

/**
 * sextant_small_chunks_new:
 * @anchor: an archive's anchor file, checked by sextant_anchor_read()
 *
 * Makes a view of the archive of @anchor for libotf2 whose event chunks are
 * no larger than its event files (see the top of this file), when that is
 * safe and smaller than what the anchor declares.
 *
 * Returns: (transfer full) (nullable): the view, or %NULL when the archive
 *   is to be read as it is: with @error set when the view could not be
 *   made, without when it would not be safe or not smaller
 */
SextantSmallChunks *
sextant_small_chunks_new (const char  *anchor,
                          GError     **error)
{
  g_autoptr(SextantSmallChunks) self = NULL;
  g_autofree char *data = NULL;
  g_autofree char *base = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  SextantAnchor fields;
  SextantAnchor check;
  Sizes sizes;
  gsize size = 0;

  g_return_val_if_fail (anchor != NULL, NULL);

  base = g_path_get_basename (anchor);
  if (!g_str_has_suffix (base, ".otf2") ||
      !g_file_get_contents (anchor, &data, &size, NULL) ||
      size > SEXTANT_ANCHOR_MAX_BYTES ||
      !sextant_anchor_parse ((const guint8 *)data, size, &fields, NULL) ||
      fields.substrate != OTF2_SUBSTRATE_POSIX ||
      fields.compression != OTF2_COMPRESSION_NONE)
    return NULL;

  dir = g_path_get_dirname (anchor);
  if (!g_path_is_absolute (dir))
    {
      g_autofree char *relative = g_steal_pointer (&dir);

      dir = g_canonicalize_filename (relative, NULL);
    }
  name = g_strndup (base, strlen (base) - strlen (".otf2"));
  measure (dir, name, &sizes);
  if (sizes.unsure)
    return NULL;

  self = g_new0 (SextantSmallChunks, 1);
  self->entries = g_ptr_array_new_with_free_func (g_free);
  self->event_chunk = smaller_chunk (fields.event_chunk_size, sizes.max_events);
  /* The definition chunk stays: a smaller one saves little (one global
   * reader, and local ones only where a location has definitions) and
   * costs more: glibc raises its mmap threshold to the largest block freed,
   * and the 4 MiB definition buffer of some archives freed early kept the
   * import's larger arrays in the heap (the 64-rank benchmark archive took
   * 2.7 times the page faults and 25 % more CPU time with 256 KiB). */
  self->def_chunk = fields.def_chunk_size;
  if (self->event_chunk == fields.event_chunk_size)
    return NULL;

  put_uint64 ((guint8 *)data + EVENT_CHUNK_OFFSET, self->event_chunk, fields.big_endian);
  /* what libotf2 will read back */
  if (!sextant_anchor_parse ((const guint8 *)data, size, &check, NULL) ||
      check.event_chunk_size != self->event_chunk || check.def_chunk_size != self->def_chunk)
    return NULL;

  remove_stale_views ();
  {
    g_autofree char *template = g_strdup_printf (PREFIX "%d-XXXXXX", (int)getpid ());

    if (!(self->dir = g_dir_make_tmp (template, error)))
      return NULL;
  }
  self->anchor = g_build_filename (self->dir, base, NULL);
  if (!g_file_set_contents (self->anchor, data, (gssize)size, error))
    return NULL;
  g_ptr_array_add (self->entries, g_strdup (self->anchor));
  if (!link_archive (self, dir, name, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * sextant_small_chunks_get_anchor:
 *
 * Returns: (transfer none): the anchor file for libotf2 to open; the
 *   archive's own file names follow from the original's
 */
const char *
sextant_small_chunks_get_anchor (const SextantSmallChunks *self)
{
  return self->anchor;
}

/**
 * sextant_small_chunks_get_event_chunk:
 *
 * Returns: the event chunk size the view declares
 */
guint64
sextant_small_chunks_get_event_chunk (const SextantSmallChunks *self)
{
  return self->event_chunk;
}

/**
 * sextant_small_chunks_get_def_chunk:
 *
 * Returns: the definition chunk size the view declares
 */
guint64
sextant_small_chunks_get_def_chunk (const SextantSmallChunks *self)
{
  return self->def_chunk;
}

/**
 * sextant_small_chunks_free:
 *
 * Removes the view (the links and the anchor's copy, never what they point
 * to) and frees it. libotf2 must have closed the files it opened through
 * it.
 */
void
sextant_small_chunks_free (SextantSmallChunks *self)
{
  if (self == NULL)
    return;

  if (self->entries != NULL)
    for (guint i = 0; i < self->entries->len; i++)
      g_unlink (g_ptr_array_index (self->entries, i));
  if (self->dir != NULL)
    g_rmdir (self->dir);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_free (self->anchor);
  g_free (self->dir);
  g_free (self);
}
