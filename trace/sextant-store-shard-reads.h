/*
 * sextant-store-shard-reads.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For trace/: queries run on each shard of a manifest and combined, rather
 * than row by row through the manifest's sextant_shards tables; on a single
 * store the same SQL runs once (sextant-store-shard-reads.c). The SQL
 * names a shard's own rows with "@own(EXPR)" or "@rows(TABLE)"
 * (sextant_shard_union_own_sql()); "@each(SELECT ...)" is a subquery run on
 * each shard, whose rows the rest of the query reads together.
 */
#pragma once

#include <sqlite3.h>

#include "sextant-row-private.h"
#include "sextant-store-private.h"
#include "sextant-store-union.h"

G_BEGIN_DECLS

SextantShardUnion *_sextant_store_get_shard_union (SextantStore *self);
gboolean      _sextant_store_foreach_sql_valist (SextantStore    *self,
                                                 const char      *sql,
                                                 SextantRowFunc   func,
                                                 gpointer         user_data,
                                                 GError         **error,
                                                 const char      *types,
                                                 va_list          args);
gboolean      _sextant_store_foreach_shards (SextantStore      *self,
                                             const char        *sql,
                                             SextantRowFunc     func,
                                             gpointer           user_data,
                                             GError           **error,
                                             const char        *types,
                                             ...);
gboolean      _sextant_store_foreach_each_valist (SextantStore    *self,
                                                  const char      *sql,
                                                  SextantRowFunc   func,
                                                  gpointer         user_data,
                                                  GError         **error,
                                                  const char      *types,
                                                  va_list          args);
gboolean      _sextant_store_foreach_summed_valist (SextantStore    *self,
                                                    const char      *sql,
                                                    SextantRowFunc   func,
                                                    gpointer         user_data,
                                                    GError         **error,
                                                    const char      *types,
                                                    va_list          args);

G_END_DECLS
