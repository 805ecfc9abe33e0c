/*
 * sextant-lod-reader-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's insides, shared by its parts: the reader struct, the
 * column-table chunk cache (sextant-lod-reader.c) and the few helpers the
 * other parts call. The reader is split by what it reads:
 * sextant-lod-reader.c (the reader, the pyramid, the chunk caches),
 * sextant-lod-reader-visits.c (the visits past the pyramid),
 * sextant-lod-reader-messages.c (messages, their index, density),
 * sextant-lod-reader-lost.c and sextant-lod-reader-collectives.c (lost
 * time and collectives, from indexes built at their first read),
 * sextant-lod-reader-spans.c (the index of intervals they are read by),
 * sextant-lod-reader-sparse.c (the levels a location does not store,
 * from its visits), sextant-lod-reader-rma.c (one-sided operations, window
 * synchronisation: SQL bounded by time) and
 * sextant-lod-reader-machine.c (the whole-machine picture). For those
 * files only; threading is that of sextant-lod-reader.h (one thread at a
 * time per reader).
 */
#pragma once

#include "sextant-chunk.h"
#include "sextant-lod-reader.h"
#include "sextant-store-private.h"

G_BEGIN_DECLS

/* per cache: the pyramid's levels, the message chunks */
#define CACHE_BYTES ((gsize)128 * 1024 * 1024)

/* A chunk of a column table: its header, and its data when it is read
 * (chunk.data points into @blob) */
typedef struct
{
  gint64        first_row;
  SextantChunk  chunk;
  GBytes       *blob;
  guint64       used;
} Chunk;

typedef struct _MessageIndex MessageIndex;
typedef struct _SpanIndex SpanIndex;
typedef struct _LostIndex LostIndex;
typedef struct _CollectiveIndex CollectiveIndex;

/* A column table's chunks, their data read on demand and kept up to
 * CACHE_BYTES */
typedef struct
{
  const char *name;      /* message, visit */
  guint       n_cols;
  gint64      lo, hi;    /* the rows it holds (a location's, for visits) */
  GArray     *dir;       /* of Chunk, by first_row; NULL until read */
  gsize       bytes;
  guint64     used;
} ChunkTable;

struct _SextantLodReader
{
  SextantStore *store;
  gint64        origin;
  gint64        base;       /* ticks of a bucket of level 0 */
  guint         n_levels;
  GHashTable   *categories; /* region id -> SextantCategory + 1, read at the first read_visits() */
  GHashTable   *ranges;     /* location -> VisitRange, likewise */

  /* the pyramid's chunks: level key (loc << 6 | level) -> Level */
  GHashTable   *levels;
  GHashTable   *firsts;     /* location -> its first stored level + 1 (sextant-lod-reader-sparse.c) */
  gsize         level_bytes;
  guint64       clock;

  /* the message and visit chunks: their headers (all, read at the first
   * read) and the data of those read lately */
  ChunkTable    messages;
  GHashTable   *visits;     /* location -> its ChunkTable of visits */
  gsize         visit_bytes;

  gsize         cache_bytes; /* the bound of each cache, CACHE_BYTES */
  gint64        rma_span;   /* the longest one-sided operation, -1: not read yet */
  gboolean      has_rma_ops;    /* rma_op has rows (read with rma_span) */
  gboolean      has_rma_syncs;  /* rma_sync, or lock of family RMA, has rows */
  gint64        lock_span;  /* the longest lock wait, -1: not read yet */
  gboolean      has_locks;      /* lock has acquisitions (read with lock_span) */
  MessageIndex *message_index;  /* at the first read_message_density() */
  LostIndex    *lost_index;     /* at the first read_lost() */
  CollectiveIndex *collective_index;  /* at the first read_collectives() */
};

/* sextant-lod-reader.c: the column tables read by chunk */
void                _sextant_lod_chunk_table_clear (ChunkTable        *table);
gboolean            _sextant_lod_chunk_table_load  (SextantLodReader  *self,
                                                    ChunkTable        *table,
                                                    GError           **error);
const SextantChunk *_sextant_lod_chunk_table_get   (SextantLodReader  *self,
                                                    ChunkTable        *table,
                                                    guint              i,
                                                    GError           **error);
/* Calls @func with every chunk of the column table @name (of @n_cols
 * columns) and its data, in row order, each read once and not kept */
typedef gboolean (*ChunkFunc) (const SextantChunk  *chunk,
                               gint64               first_row,
                               gpointer             user_data,
                               GError             **error);
gboolean            _sextant_lod_chunk_table_foreach (SextantLodReader  *self,
                                                      const char        *name,
                                                      guint              n_cols,
                                                      ChunkFunc          func,
                                                      gpointer           user_data,
                                                      GError           **error);
/* The first row of [@lo, @hi) of @chunk whose column @col is at least
 * @value (@hi: none), the column sorted there */
guint               _sextant_lod_lower_bound       (const SextantChunk *chunk,
                                                    guint               col,
                                                    guint               lo,
                                                    guint               hi,
                                                    gint64              value);
/* a SextantRowFunc: the row's first column into the gint64 at @user_data */
gboolean            _sextant_lod_take_id           (const SextantRow  *row,
                                                    gpointer           user_data,
                                                    GError           **error);

/* sextant-lod-reader-sparse.c: the levels below a location's first
 * stored level, computed from its visits */
#define LOD_FIRST_NONE 64     /* a location without rows */
gboolean            _sextant_lod_load_firsts       (SextantLodReader  *self,
                                                    const gint64      *locs,
                                                    guint              n_locs,
                                                    GError           **error);
guint               _sextant_lod_first             (SextantLodReader  *self,
                                                    gint64             loc);
gboolean            _sextant_lod_compute_level     (SextantLodReader  *self,
                                                    gint64             loc,
                                                    guint              level,
                                                    gint64             first,
                                                    gint64             last,
                                                    gboolean           direct,
                                                    GArray            *out,
                                                    GError           **error);

/* sextant-lod-reader-messages.c: the message index */
void                _sextant_lod_message_index_free  (MessageIndex *index);
gsize               _sextant_lod_message_index_bytes (const MessageIndex *index);

/* sextant-lod-reader-spans.c: intervals by duration class, found by
 * overlap with a view (begin < t1 and end > t0) */
typedef struct
{
  gint64  begin;
  gint64  end;
  guint   item;        /* the caller's: what the interval is */
} Span;

/* FALSE stops the walk */
typedef gboolean (*SpanFunc) (const Span *span,
                              gpointer    user_data);

/* an index of @spans (of Span; transfer full: it sorts them) */
SpanIndex          *_sextant_lod_span_index_new     (GArray           *spans);
void                _sextant_lod_span_index_free    (SpanIndex        *index);
gsize               _sextant_lod_span_index_bytes   (const SpanIndex  *index);
/* how many spans overlap [@t0, @t1) */
guint64             _sextant_lod_span_index_count   (const SpanIndex  *index,
                                                     gint64            t0,
                                                     gint64            t1);
/* @func for each of them (by duration, then begin); FALSE if it stopped */
gboolean            _sextant_lod_span_index_foreach (const SpanIndex  *index,
                                                     gint64            t0,
                                                     gint64            t1,
                                                     SpanFunc          func,
                                                     gpointer          user_data);

/* sextant-lod-reader-lost.c, sextant-lod-reader-collectives.c: their
 * indexes */
void                _sextant_lod_lost_index_free        (LostIndex             *index);
gsize               _sextant_lod_lost_index_bytes       (const LostIndex       *index);
void                _sextant_lod_collective_index_free  (CollectiveIndex       *index);
gsize               _sextant_lod_collective_index_bytes (const CollectiveIndex *index);
/* a GCompareFunc of guints (places in an array) */
int                 _sextant_lod_compare_places         (gconstpointer          a,
                                                         gconstpointer          b);

/* A chunk's value as SQLite reads it (NULL: 0) */
static inline gint64
_sextant_lod_or_zero (gint64 value)
{
  return value == SEXTANT_NULL ? 0 : value;
}

/* sextant-lod-reader-rma.c: @query's rows for [@t0, @t1) appended to @out,
 * or none with @too_many set when there are more than @max */
gboolean            _sextant_lod_read_bounded      (SextantLodReader  *self,
                                                    SextantStoreStmt   query,
                                                    SextantRowFunc     func,
                                                    gint64             t0,
                                                    gint64             t1,
                                                    guint              max,
                                                    GArray            *out,
                                                    gboolean          *too_many,
                                                    GError           **error);

G_END_DECLS
