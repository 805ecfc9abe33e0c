/*
 * sextant-small-chunks.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A private view of an OTF2 archive whose anchor declares chunks no larger
 * than the archive's files, so that libotf2 clears smaller reader buffers.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SextantSmallChunks SextantSmallChunks;

SextantSmallChunks *sextant_small_chunks_new             (const char               *anchor,
                                                          GError                  **error);
const char         *sextant_small_chunks_get_anchor      (const SextantSmallChunks *self);
guint64             sextant_small_chunks_get_event_chunk (const SextantSmallChunks *self);
guint64             sextant_small_chunks_get_def_chunk   (const SextantSmallChunks *self);
void                sextant_small_chunks_free            (SextantSmallChunks       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantSmallChunks, sextant_small_chunks_free)

G_END_DECLS
