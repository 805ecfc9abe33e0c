/*
 * sextant-store-shards.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The manifest of a parallel import (parallel/, docs/parallel.md): a store
 * of the same schema that holds the archive's definitions and no events,
 * and names the shards (stores of the same schema, each the events of its
 * locations) in its tables shard and shard_location. A manifest whose
 * shard is missing, or changed since the import (size or modification
 * time), is refused naming the shard.
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

typedef struct
{
  char    *name;        /* file name */
  GArray  *locations;   /* guint32 location ids, ascending */
} SextantShardInfo;

/* Makes @manifest (a store of the definitions only) the manifest of
 * @shards (SextantShardInfo*, by rank), which lie under @dir now and will
 * under @prefix relative to the manifest's directory. */
gboolean sextant_store_add_shards   (SextantStore  *manifest,
                                     const char    *dir,
                                     const char    *prefix,
                                     GPtrArray     *shards,
                                     GError       **error);
/* TRUE for a store that is no manifest, and for a manifest whose shards are
 * all there as the import left them. */
gboolean sextant_store_check_shards (SextantStore  *self,
                                     GError       **error);
/* The shards' paths, in rank order, as the manifest names them (absolute). */
GPtrArray *sextant_store_list_shards (SextantStore *self,
                                      GError      **error);

G_END_DECLS
