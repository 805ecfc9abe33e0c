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
 * time), is refused naming the shard; one whose last analysis did not
 * finish is refused by readers and analysed again by an analysis.
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

/* What a manifest keeps of a shard (sextant_store_read_shard_span()):
 * its event records, its first and last event, and its locations' counts
 * and spans, a JSON array of [id, events, first_visit, last_visit,
 * time_begin, time_end] */
typedef struct
{
  gint64  events;
  gint64  begin;
  gint64  end;
  char   *locations;
} SextantShardSpan;

void     sextant_shard_span_clear      (SextantShardSpan  *span);
/* Reads the span of the finished shard at @path: its rank does, beside
 * the others, rather than rank 0 opening every shard in turn (a few ms a
 * shard) */
gboolean sextant_store_read_shard_span (const char        *path,
                                        SextantShardSpan  *span,
                                        GError           **error);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SextantShardSpan, sextant_shard_span_clear)

typedef struct
{
  char                    *name;        /* file name */
  GArray                  *locations;   /* guint32 location ids, ascending */
  const SextantShardSpan  *span;        /* as its rank read it, or NULL: read by
                                         * sextant_store_add_shards() */
} SextantShardInfo;

/* Copies the archive's definitions and meta from the finished @shard into
 * @manifest (a store just created, sextant_store_create()): what a
 * definitions-only import of the archive would write, without reading it
 * again. */
gboolean sextant_store_copy_definitions (SextantStore  *manifest,
                                         const char    *shard,
                                         GError       **error);
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
/* The shards' paths, in rank order, as the manifest names them (absolute);
 * NULL with @error set when one is missing or changed. */
GPtrArray *sextant_store_list_shards (SextantStore *self,
                                      GError      **error);
/* The same, changed or not (sextant_store_open_unchecked()). */
GPtrArray *sextant_store_list_shards_unchecked (SextantStore  *self,
                                                GError       **error);
/* The same for an analysis that holds the manifest's lock
 * (sextant-manifest-lock.h): as the import or the last analysis recorded
 * them, or changed by an analysis that did not finish (its mark is set) */
GPtrArray *sextant_store_list_shards_to_analyse (SextantStore  *self,
                                                 GError       **error);

/* The meta key an analysis of a manifest sets before it writes into a
 * shard and removes when it records the shards anew
 * (sextant_store_merge_shard_analyses()): while it is set, readers refuse
 * the manifest (its last analysis did not finish: run it again) */
#define SEXTANT_SHARD_ANALYSIS_UNFINISHED "analysis_unfinished"
/* Sets the mark, synced; the caller holds the manifest's lock */
gboolean sextant_store_mark_analysis (SextantStore  *manifest,
                                      GError       **error);

/* A manifest read as one trace (sextant-store-union.h): the ids that each
 * shard numbers on its own (messages, call paths; the rows of column
 * chunks) are those of the shard that holds them, with its rank in the high
 * bits (in a single store, and in a manifest of one shard, they are the
 * store's own). Collective ids are canonical: the same in every shard as in
 * the single store. */
#define SEXTANT_SHARD_ID_SHIFT 40
/* The tables whose ids a manifest's shards share (meta canonical_ids): a
 * manifest that records others is refused (import it again) */
#define SEXTANT_SHARD_CANONICAL_IDS "collective"

static inline gint64
sextant_shard_id (guint  rank,
                  gint64 local)
{
  return ((gint64)rank << SEXTANT_SHARD_ID_SHIFT) | local;
}

static inline guint
sextant_shard_of_id (gint64 id)
{
  return (guint)(id >> SEXTANT_SHARD_ID_SHIFT);
}

static inline gint64
sextant_shard_local_id (gint64 id)
{
  return id & ((G_GINT64_CONSTANT (1) << SEXTANT_SHARD_ID_SHIFT) - 1);
}

/* The number of shards of a manifest read as one trace; 0 for a store. */
guint    sextant_store_get_n_shards        (SextantStore  *self);
/* The shards opened so far (each at its first read); 0 for a store. */
guint    sextant_store_get_n_open_shards   (SextantStore  *self);
/* The rank of the shard that holds @loc's events: 0 in a store that is no
 * manifest; G_MAXUINT for a location no shard holds. */
guint    sextant_store_get_location_shard  (SextantStore  *self,
                                            gint64         loc);

G_END_DECLS
