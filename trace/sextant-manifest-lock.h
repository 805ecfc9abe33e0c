/*
 * sextant-manifest-lock.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lock an analysis of a manifest holds while it writes into the
 * manifest's shards: two analyses of one manifest at once would write the
 * same chunks of the same shard (its halo) and damage it. Taking it
 * checks the shards (sextant_store_list_shards_to_analyse()). A single
 * store needs none (SQLite's own locks serialize two analyses of it).
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

typedef struct _SextantManifestLock SextantManifestLock;

SextantManifestLock *sextant_manifest_lock_take    (SextantStore         *manifest,
                                                    GError              **error);
void                 sextant_manifest_lock_release (SextantManifestLock  *self);
GPtrArray           *sextant_manifest_lock_get_shards (SextantManifestLock *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantManifestLock, sextant_manifest_lock_release)

G_END_DECLS
