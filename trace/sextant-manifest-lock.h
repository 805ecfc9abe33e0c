/*
 * sextant-manifest-lock.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lock an analysis of a manifest holds while it writes into the
 * manifest's shards: two analyses of one manifest at once would write the
 * same chunks of the same shard (its halo) and damage it. Taking it
 * checks the shards (sextant_store_list_shards_to_analyse()). Readers
 * hold it shared (sextant_store_open() of a manifest takes it), so that
 * they read the shards as one analysis left them, never while another
 * writes them. A single store needs none (SQLite's own locks serialize
 * two analyses of it, and a reader's snapshot is its transaction's).
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

typedef struct _SextantManifestLock SextantManifestLock;

SextantManifestLock *sextant_manifest_lock_take    (SextantStore         *manifest,
                                                    GError              **error);
SextantManifestLock *sextant_manifest_lock_take_read (SextantStore       *manifest,
                                                      GError            **error);
void                 sextant_manifest_lock_release (SextantManifestLock  *self);
GPtrArray           *sextant_manifest_lock_get_shards (SextantManifestLock *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantManifestLock, sextant_manifest_lock_release)

G_END_DECLS
