/*
 * sextant-store-instance-routes.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which shard of a manifest holds which instance ids of its last analysis
 * (docs/parallel.md, "Reading a manifest as one trace"): `sextant
 * analyze MANIFEST` records, in the manifest's table
 * SEXTANT_INSTANCE_ROUTES_TABLE, the runs of consecutive instance ids each
 * shard holds (a pattern's ids follow its instances' locations, so a shard
 * holds a few runs per pattern), and the manifest's reader
 * (sextant-store-union.c) reads an instance, its wait state and its note
 * from that shard alone.
 */
#pragma once

#include <sqlite3.h>

#include "sextant-store.h"

G_BEGIN_DECLS

#define SEXTANT_INSTANCE_ROUTES_TABLE "shard_instance_run"

typedef struct _SextantInstanceRoutes SextantInstanceRoutes;

typedef enum
{
  SEXTANT_INSTANCE_ROUTE_ANY,    /* nothing recorded (not analysed, or by an older sextant): every shard */
  SEXTANT_INSTANCE_ROUTE_NONE,   /* no shard holds it */
  SEXTANT_INSTANCE_ROUTE_SHARD,  /* the shard that holds it */
} SextantInstanceRoute;

/* The runs of the manifest on @db (its connection, which the routes read
 * again whenever the manifest changed: a new analysis). */
SextantInstanceRoutes *sextant_instance_routes_new    (sqlite3               *db);
void                   sextant_instance_routes_free   (SextantInstanceRoutes *self);
/* Where instance @id is; @rank gets the shard for SEXTANT_INSTANCE_ROUTE_SHARD. */
SextantInstanceRoute   sextant_instance_routes_lookup (SextantInstanceRoutes *self,
                                                       gint64                 id,
                                                       guint                 *rank);

/* In the analysis's transaction of @manifest: the runs of instance ids of
 * shard @rank, read from @shard (analysed); with @shard NULL, forgets
 * them all (a failed analysis). */
gboolean               sextant_store_write_instance_routes (SextantStore  *manifest,
                                                            SextantStore  *shard,
                                                            gint64         rank,
                                                            GError       **error);

G_END_DECLS
