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

/* A location's first level stored is the finest whose buckets hold this
 * many of its events on average (docs/schema.md, "Level of detail") */
#define SEXTANT_LOD_MIN_EVENTS 16

typedef struct _SextantLodBuilder SextantLodBuilder;

void               _sextant_lod_plan            (SextantImport      *import);
guint              _sextant_lod_first_level     (guint64             n_events,
                                                 guint               n_levels);
gboolean           _sextant_lod_build           (SextantImport      *import,
                                                 GError            **error);
SextantLodBuilder *_sextant_lod_builder_new     (SextantImport      *import,
                                                 guint32             loc);
gboolean           _sextant_lod_builder_add     (SextantLodBuilder  *self,
                                                 gint64              t0,
                                                 gint64              t1,
                                                 guint32             region,
                                                 SextantCategory     category,
                                                 GError            **error);
gboolean           _sextant_lod_builder_finish  (SextantLodBuilder  *self,
                                                 GError            **error);
void               _sextant_lod_builder_free    (SextantLodBuilder  *self);
/* Makes @self a new builder for location @loc (what _sextant_lod_builder_new()
 * gives), keeping its memory; what was not finished is dropped. */
void               _sextant_lod_builder_restart (SextantLodBuilder  *self,
                                                 guint32             loc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantLodBuilder, _sextant_lod_builder_free)

G_END_DECLS
