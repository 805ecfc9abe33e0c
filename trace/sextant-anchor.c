/*
 * sextant-anchor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads an OTF2 anchor file completely, checking every field against what
 * the file can hold, before the importer hands the archive to libotf2.
 *
 * libotf2 3.0's OTF2_AnchorFile_Load trusts the counts it reads: a flipped
 * bit in the number of properties has it allocate and read billions of
 * strings past the end of a 283-byte file, which looks like a hang (and
 * `otf2-print` hangs the same way); a bogus chunk size makes every event
 * reader allocate that much. Here a field that cannot be right ends the
 * import with "the archive's anchor file is damaged" and what is wrong.
 *
 * The layout (OTF2 3.0, anchor formats 1 to 3), in the writer's byte order:
 *   u8 OTF2_BUFFER_CHUNK_HEADER (3), u8 byte order (0x42 little, 0x23 big),
 *   "OTF2\0", u8 anchor format, u8 trace format, u8 x 3 OTF2 version,
 *   u64 event chunk size, u64 definition chunk size, u8 file substrate,
 *   u8 compression, u64 locations, u64 global definitions,
 *   string machine, string creator, string description,
 *   format >= 2: u32 n properties, n x (string name, string value), u64 id,
 *   format >= 3: u32 snapshots, u32 thumbnails, u8 end of file (2).
 * Strings end with a NUL; integers are stored whole ("Full").
 *
 * Workload: one file of a few hundred bytes per import.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <otf2/otf2.h>
#include <string.h>

#include "sextant-anchor.h"
#include "sextant-trace-error.h"

#define CHUNK_HEADER   3
#define LITTLE_ENDIAN_ 0x42
#define BIG_ENDIAN_    0x23
#define END_OF_FILE    2

/* Plenty for a cluster, and what keeps libotf2's per-location tables sane. */
#define MAX_LOCATIONS  ((guint64)1 << 32)

typedef struct
{
  const guint8 *data;
  gsize         size;
  gsize         at;
  gboolean      big_endian;
  GError      **error;
} Cursor;

G_GNUC_PRINTF (2, 3)
static gboolean
damaged (Cursor     *c,
         const char *format,
         ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (c->error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
               "the archive's anchor file is damaged: %s (at byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT ")",
               what, c->at, c->size);
  return FALSE;
}

static gboolean
need (Cursor     *c,
      gsize       n,
      const char *what)
{
  if (c->size - c->at >= n)
    return TRUE;

  return damaged (c, "it ends before its %s", what);
}

static gboolean
read_u8 (Cursor     *c,
         guint8     *value,
         const char *what)
{
  if (!need (c, 1, what))
    return FALSE;
  *value = c->data[c->at++];

  return TRUE;
}

static gboolean
read_uint (Cursor     *c,
           guint       bytes,
           guint64    *value,
           const char *what)
{
  guint64 v = 0;

  if (!need (c, bytes, what))
    return FALSE;
  for (guint i = 0; i < bytes; i++)
    {
      guint k = c->big_endian ? i : bytes - 1 - i;

      v = (v << 8) | c->data[c->at + k];
    }
  c->at += bytes;
  *value = v;

  return TRUE;
}

static gboolean
skip_string (Cursor     *c,
             const char *what)
{
  const guint8 *end;

  if (!need (c, 1, what))
    return FALSE;
  end = memchr (c->data + c->at, '\0', c->size - c->at);
  if (end == NULL)
    return damaged (c, "its %s has no end", what);
  c->at = (gsize)(end - c->data) + 1;

  return TRUE;
}

static gboolean
check_chunk_size (Cursor     *c,
                  guint64     size,
                  const char *what)
{
  if (size >= OTF2_CHUNK_SIZE_MIN && size <= OTF2_CHUNK_SIZE_MAX)
    return TRUE;

  return damaged (c, "%s chunk size %" G_GUINT64_FORMAT " is outside OTF2's %" G_GUINT64_FORMAT
                  " to %" G_GUINT64_FORMAT " bytes", what, size, OTF2_CHUNK_SIZE_MIN, OTF2_CHUNK_SIZE_MAX);
}

/**
 * sextant_anchor_parse:
 * @data: (array length=size): the anchor file's bytes
 * @anchor: (out caller-allocates): what it says
 *
 * Checks every field of an anchor file against what the file can hold.
 *
 * Returns: %FALSE with @error set (%SEXTANT_TRACE_ERROR_NOT_ARCHIVE without
 *   OTF2's magic, else %SEXTANT_TRACE_ERROR_CORRUPT naming the field)
 */
gboolean
sextant_anchor_parse (const guint8   *data,
                      gsize           size,
                      SextantAnchor  *anchor,
                      GError        **error)
{
  static const char magic[] = "OTF2";
  Cursor c = { data, size, 0, FALSE, error };
  guint64 v;

  memset (anchor, 0, sizeof *anchor);

  if (size < 2 + sizeof magic || data[0] != CHUNK_HEADER ||
      (data[1] != LITTLE_ENDIAN_ && data[1] != BIG_ENDIAN_) ||
      memcmp (data + 2, magic, sizeof magic) != 0)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_ARCHIVE,
                   "not an OTF2 archive (this anchor file does not begin with OTF2's magic)");
      return FALSE;
    }
  c.big_endian = data[1] == BIG_ENDIAN_;
  anchor->big_endian = c.big_endian;
  c.at = 2 + sizeof magic;

  if (!read_u8 (&c, &anchor->anchor_format, "anchor format"))
    return FALSE;
  if (anchor->anchor_format == 0)
    return damaged (&c, "anchor format 0");
  if (!read_u8 (&c, &anchor->trace_format, "trace format") ||
      !read_u8 (&c, &anchor->version[0], "OTF2 version") ||
      !read_u8 (&c, &anchor->version[1], "OTF2 version") ||
      !read_u8 (&c, &anchor->version[2], "OTF2 version") ||
      !read_uint (&c, 8, &anchor->event_chunk_size, "event chunk size") ||
      !check_chunk_size (&c, anchor->event_chunk_size, "event") ||
      !read_uint (&c, 8, &anchor->def_chunk_size, "definition chunk size") ||
      !check_chunk_size (&c, anchor->def_chunk_size, "definition") ||
      !read_u8 (&c, &anchor->substrate, "file substrate"))
    return FALSE;
  if (anchor->substrate != OTF2_SUBSTRATE_POSIX && anchor->substrate != OTF2_SUBSTRATE_SION &&
      anchor->substrate != OTF2_SUBSTRATE_NONE)
    return damaged (&c, "unknown file substrate %u", anchor->substrate);
  if (!read_u8 (&c, &anchor->compression, "compression"))
    return FALSE;
  if (anchor->compression != OTF2_COMPRESSION_NONE && anchor->compression != 2 /* zlib */)
    return damaged (&c, "unknown compression %u", anchor->compression);
  if (!read_uint (&c, 8, &anchor->n_locations, "number of locations"))
    return FALSE;
  if (anchor->n_locations > MAX_LOCATIONS)
    return damaged (&c, "%" G_GUINT64_FORMAT " locations", anchor->n_locations);
  if (!read_uint (&c, 8, &anchor->n_global_defs, "number of global definitions") ||
      !skip_string (&c, "machine name") ||
      !skip_string (&c, "creator") ||
      !skip_string (&c, "description"))
    return FALSE;

  if (anchor->anchor_format >= 2)
    {
      if (!read_uint (&c, 4, &v, "number of properties"))
        return FALSE;
      /* a property is two strings of one byte at least */
      if (v > (c.size - c.at) / 2)
        return damaged (&c, "%" G_GUINT64_FORMAT " properties in %" G_GSIZE_FORMAT " bytes",
                        v, c.size - c.at);
      anchor->n_properties = (guint32)v;
      for (guint32 i = 0; i < anchor->n_properties; i++)
        if (!skip_string (&c, "property name") || !skip_string (&c, "property value"))
          return FALSE;
      if (!read_uint (&c, 8, &v, "trace id"))
        return FALSE;
    }
  if (anchor->anchor_format >= 3)
    {
      guint8 end;

      if (!read_uint (&c, 4, &v, "number of snapshots") ||
          !read_uint (&c, 4, &v, "number of thumbnails"))
        return FALSE;
      /* libotf2 checks the end only for the format it writes */
      if (anchor->anchor_format == 3)
        {
          if (!read_u8 (&c, &end, "end-of-file mark"))
            return FALSE;
          if (end != END_OF_FILE)
            return damaged (&c, "no end-of-file mark after its fields");
        }
    }

  return TRUE;
}

/**
 * sextant_anchor_read:
 * @path: an anchor file
 * @anchor: (out caller-allocates) (optional): what it says
 *
 * Reads @path (at most %SEXTANT_ANCHOR_MAX_BYTES) and checks it with
 * sextant_anchor_parse(): anything without OTF2's magic is not an archive,
 * whatever its name says, and a damaged anchor would send libotf2 looping.
 *
 * Returns: %FALSE with @error set, its message starting with @path
 */
gboolean
sextant_anchor_read (const char     *path,
                     SextantAnchor  *anchor,
                     GError        **error)
{
  g_autofree char *data = NULL;
  SextantAnchor ignored;
  GStatBuf st;
  gsize size = 0;

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND,
                   "%s: %s", path, g_strerror (saved));
      return FALSE;
    }
  if (st.st_size > SEXTANT_ANCHOR_MAX_BYTES)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_ARCHIVE,
                   "%s: not an OTF2 archive (%" G_GINT64_FORMAT " bytes is too large for an anchor file)",
                   path, (gint64)st.st_size);
      return FALSE;
    }
  if (!g_file_get_contents (path, &data, &size, error))
    return FALSE;
  if (!sextant_anchor_parse ((const guint8 *)data, size, anchor != NULL ? anchor : &ignored, error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }

  return TRUE;
}
