/*
 * sextant-store-union.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A parallel import's manifest read as one trace (docs/parallel.md). On a
 * manifest's connection the tables that hold events (visit, message,
 * collective, the level of detail, the locations' counts, ...) are
 * shadowed by temporary virtual tables of the module sextant_shards, which
 * read the rows from the shards: one connection per shard, opened at its
 * first read, a read with an equality on the location going to the one
 * shard that holds it. A message is read from the shard of its sender (of
 * its receiver when the sender is unknown), a collective instance and its
 * members from the shard of its member of the lowest location, so that
 * each is read once. Message ids are those of the shard that holds them
 * with its rank in the high bits (sextant_shard_id()), as are call path
 * ids; collective ids are canonical (the single store's). An instance of
 * the last analysis looked up by its id is read from the shard that holds
 * it (sextant-store-instance-routes.h). Every SQL query of
 * the store reads them as it reads a single store's tables; writes go to
 * the manifest's own tables.
 */
#pragma once

#include <sqlite3.h>

#include "sextant-manifest-lock.h"
#include "sextant-store-shards.h"

G_BEGIN_DECLS

typedef struct _SextantShardUnion SextantShardUnion;

/* Shadows the event tables on @db, the connection of the manifest
 * @manifest whose shards are @paths (absolute, by rank). NULL with @error
 * set when the manifest's shard tables cannot be read. */
SextantShardUnion *sextant_shard_union_new   (SextantStore  *manifest,
                                              sqlite3       *db,
                                              GPtrArray     *paths,
                                              GError       **error);
void               sextant_shard_union_free  (SextantShardUnion *self);
/* Keeps @lock (the manifest's reader lock, sextant-manifest-lock.h;
 * owned) until @self is freed, or until another (NULL: none) replaces it */
void               sextant_shard_union_keep_lock (SextantShardUnion   *self,
                                                  SextantManifestLock *lock);
/* Shards opened so far (a query with an equality on a location opens only
 * the one that holds it). */
guint              sextant_shard_union_get_n_open (SextantShardUnion *self);
guint              sextant_shard_union_get_n_shards (SextantShardUnion *self);
/* The rank of the shard that holds @loc, G_MAXUINT for none. */
guint              sextant_shard_union_get_location_shard (SextantShardUnion *self,
                                                           gint64             loc);

/* Shard @rank's store, opened if it is not yet (cancelled with the
 * manifest); NULL with @error set when it cannot be. */
SextantStore      *sextant_shard_union_get_shard (SextantShardUnion  *self,
                                                  guint               rank,
                                                  GError            **error);
/* @sql for shard @rank of @self (NULL: a single store), its own rows
 * filled in: "@own(EXPR)" becomes "(EXPR) IN (its locations)", and
 * "@rows(TABLE)" the condition of TABLE's rows that are the shard's own
 * (those a scan of the manifest reads from it); both "1" on a single
 * store; "@shard_id(EXPR)", EXPR (an id that each shard numbers on its
 * own, a message's) as the manifest reads it (sextant_shard_id()). EXPR
 * may hold parentheses; TABLE is a table of events. */
char              *sextant_shard_union_own_sql (SextantShardUnion  *self,
                                                guint               rank,
                                                const char         *sql);

G_END_DECLS
