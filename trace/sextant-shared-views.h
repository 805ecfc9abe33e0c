/*
 * sextant-shared-views.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The copies of the shared views (receive_wait, collective_visit, ...) of
 * one analysis, shared by the connections of its workers: the first worker
 * that needs a view computes it; the others wait for it, then read the same
 * chunks in memory (sextant_store_set_shared_views()). Views are counted in
 * fills: the bits of sextant_store_reads_shared_views().
 *
 * Threading: every function may be called from any thread.
 */
#pragma once

#include <glib.h>

#include "sextant-column-chunks.h"

G_BEGIN_DECLS

typedef struct _SextantSharedViews SextantSharedViews;

SextantSharedViews *sextant_shared_views_new     (void);
SextantSharedViews *sextant_shared_views_ref     (SextantSharedViews   *self);
void                sextant_shared_views_unref   (SextantSharedViews   *self);

/* The fills that are done: a bit per fill. */
guint               sextant_shared_views_get_ready (SextantSharedViews *self);

/* TRUE: fill @bit is the caller's to compute, then to end with
 * sextant_shared_views_done(); FALSE: it is done (after waiting for
 * another thread that was computing it), read it with _lookup(). */
gboolean            sextant_shared_views_claim   (SextantSharedViews   *self,
                                                  guint                 bit);
void                sextant_shared_views_done    (SextantSharedViews   *self,
                                                  guint                 bit,
                                                  gboolean              filled);

void                sextant_shared_views_publish (SextantSharedViews   *self,
                                                  const char           *name,
                                                  const char           *columns,
                                                  SextantColumnChunks  *chunks);
gboolean            sextant_shared_views_lookup  (SextantSharedViews   *self,
                                                  const char           *name,
                                                  char                **columns,
                                                  SextantColumnChunks **chunks);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantSharedViews, sextant_shared_views_unref)

G_END_DECLS
