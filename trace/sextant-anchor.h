/*
 * sextant-anchor.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An OTF2 archive's anchor file, read and checked by Sextant before libotf2
 * sees it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The largest anchor file accepted: libotf2 reads it into one buffer of
 * OTF2_CHUNK_SIZE_MIN bytes, and real ones hold a few hundred. */
#define SEXTANT_ANCHOR_MAX_BYTES (256 * 1024)

typedef struct
{
  guint8   anchor_format;
  guint8   trace_format;
  guint8   version[3];           /* of the OTF2 library that wrote it */
  gboolean big_endian;
  guint64  event_chunk_size;
  guint64  def_chunk_size;
  guint8   substrate;            /* OTF2_FileSubstrate */
  guint8   compression;          /* OTF2_Compression */
  guint64  n_locations;
  guint64  n_global_defs;
  guint32  n_properties;
} SextantAnchor;

gboolean sextant_anchor_read (const char     *path,
                              SextantAnchor  *anchor,
                              GError        **error);

gboolean sextant_anchor_parse (const guint8   *data,
                               gsize           size,
                               SextantAnchor  *anchor,
                               GError        **error);

G_END_DECLS
