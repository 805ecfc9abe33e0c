/*
 * sextant-lod.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The level-of-detail pyramid of the timeline, built by the importer after
 * the visits are stored. See sextant-lod.c and docs/schema.md.
 */
#pragma once

#include "sextant-import-private.h"

G_BEGIN_DECLS

/* Base buckets per location are 2^k with k in this range, chosen from the
 * largest number of events on one location (about 32 events per bucket). */
#define SEXTANT_LOD_MIN_BITS 8
#define SEXTANT_LOD_MAX_BITS 14

gboolean _sextant_lod_build (SextantImport  *import,
                             GError        **error);

G_END_DECLS
