/*
 * sextant-lod-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's reads. The pyramid's buckets and the messages are read
 * from their column chunks directly (docs/schema.md, "Column tables"),
 * not row by row through the sextant_columns virtual table (about 0.5 us a
 * row): a (location, level) of `lod` is one or a few chunks, fetched with
 * one statement (or one for a batch of locations) and kept in the reader,
 * and so are the message chunks a view needs. Both caches are bounded
 * (CACHE_BYTES each, least recently used out first); a widget that keeps
 * its reader across frames reads a chunk from SQLite once. A view W pixels
 * wide then costs the decoding of its at most 2 W + 2 buckets per location
 * and nothing per frame beyond. Everything else (collectives, lost time,
 * one-sided operations and their synchronisation) is SQL bounded by an
 * index on time (trace/schema-1-index.sql).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-chunk.h"
#include "sextant-lod-reader.h"
#include "sextant-store-private.h"

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
  gsize         level_bytes;
  guint64       clock;

  /* the message and visit chunks: their headers (all, read at the first
   * read) and the data of those read lately */
  ChunkTable    messages;
  GHashTable   *visits;     /* location -> its ChunkTable of visits */
  gsize         visit_bytes;

  gsize         cache_bytes; /* the bound of each cache, CACHE_BYTES */
  gint64        rma_span;   /* the longest one-sided operation, -1: not read yet */
  MessageIndex *message_index;  /* at the first read_message_density() */
};

/* The messages by pair of locations, each pair's in send order: built
 * once per reader from every message chunk (about 24 bytes a message), so
 * that a view's density is a walk over the messages in it, pair by pair,
 * each pair's slots in order, without hashing */
typedef struct
{
  gint64  send_loc;
  gint64  recv_loc;
  guint   first;       /* its messages in MessageIndex.times */
  guint   n;
  gint64  longest;     /* ticks from its send to its receive, at most */
} MessagePair;

typedef struct
{
  gint64  send_time;
  gint64  recv_time;
  gint64  bytes;
  gint64  id;
} MessageTimes;

struct _MessageIndex
{
  GArray  *pairs;      /* of MessagePair */
  GArray  *times;      /* of MessageTimes, by pair, each in send order */
};

static void
message_index_free (MessageIndex *index)
{
  g_array_unref (index->pairs);
  g_array_unref (index->times);
  g_free (index);
}

/* The chunks of one level of one location, in bucket order */
typedef struct
{
  GArray  *chunks;   /* of Chunk */
  gsize    bytes;
  guint64  used;
} Level;

typedef struct
{
  gint64 first;
  gint64 last;
} VisitRange;

typedef struct
{
  gint64 id;
  gint64 enter;
  gint64 leave;
  gint64 region;
  gint64 parent;
} Visit;

/* meta.@key as an integer; FALSE if it is missing or not one */
static gboolean
meta_int (SextantStore *store,
          const char   *key,
          gint64       *value)
{
  g_autofree char *text = sextant_store_get_meta (store, key);
  char *end = NULL;

  if (text == NULL)
    return FALSE;
  *value = g_ascii_strtoll (text, &end, 10);

  return end != text && *end == '\0';
}

static void
chunk_table_clear (ChunkTable *table)
{
  if (table->dir == NULL)
    return;
  for (guint i = 0; i < table->dir->len; i++)
    g_clear_pointer (&g_array_index (table->dir, Chunk, i).blob, g_bytes_unref);
  g_clear_pointer (&table->dir, g_array_unref);
  table->bytes = 0;
}

static void
visit_table_free (gpointer data)
{
  chunk_table_clear (data);
  g_free (data);
}

static void
level_free (gpointer data)
{
  Level *level = data;

  for (guint i = 0; i < level->chunks->len; i++)
    g_bytes_unref (g_array_index (level->chunks, Chunk, i).blob);
  g_array_unref (level->chunks);
  g_free (level);
}

SextantLodReader *
sextant_lod_reader_new (SextantStore  *store,
                        GError       **error)
{
  g_autoptr(SextantLodReader) self = g_new0 (SextantLodReader, 1);
  gint64 levels = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  self->store = g_object_ref (store);
  self->levels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, level_free);
  self->rma_span = -1;
  self->cache_bytes = CACHE_BYTES;
  self->messages.name = "message";
  self->messages.n_cols = SEXTANT_MESSAGE_N_COLUMNS;
  self->messages.lo = G_MININT64;
  self->messages.hi = G_MAXINT64;
  self->visits = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, visit_table_free);
  if (!meta_int (store, "lod_origin", &self->origin) || !meta_int (store, "lod_base_ticks", &self->base) ||
      !meta_int (store, "lod_levels", &levels) || self->base < 1 || levels < 1 || levels > 62)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA,
                   "%s: no level-of-detail pyramid (meta.lod_origin, lod_base_ticks, lod_levels)",
                   sextant_store_get_path (store));
      return NULL;
    }
  /* a bucket of the top level must not overflow */
  self->n_levels = (guint)levels;
  while (self->n_levels > 1 && self->base > G_MAXINT64 >> (self->n_levels - 1))
    self->n_levels--;

  return g_steal_pointer (&self);
}

void
sextant_lod_reader_free (SextantLodReader *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->store);
  g_clear_pointer (&self->categories, g_hash_table_unref);
  g_clear_pointer (&self->ranges, g_hash_table_unref);
  g_clear_pointer (&self->levels, g_hash_table_unref);
  chunk_table_clear (&self->messages);
  g_clear_pointer (&self->visits, g_hash_table_unref);
  g_clear_pointer (&self->message_index, message_index_free);
  g_free (self);
}

guint
sextant_lod_reader_get_n_levels (SextantLodReader *self)
{
  return self->n_levels;
}

gint64
sextant_lod_reader_get_origin (SextantLodReader *self)
{
  return self->origin;
}

gint64
sextant_lod_reader_get_bucket_ticks (SextantLodReader *self,
                                     guint             level)
{
  g_return_val_if_fail (level < self->n_levels, 0);

  return self->base << level;
}

guint
sextant_lod_reader_pick_level (SextantLodReader *self,
                               double            ticks_per_pixel)
{
  guint level = 0;

  while (level + 1 < self->n_levels && (double)(self->base << (level + 1)) <= ticks_per_pixel)
    level++;

  return level;
}

typedef struct
{
  GArray *buckets;
  gint64  origin;
  gint64  ticks;
} ReadData;

static gboolean
bucket_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  ReadData *data = user_data;
  SextantLodBucket bucket;

  bucket.bucket = sextant_row_get_int (row, 0);
  bucket.begin = data->origin + bucket.bucket * data->ticks;
  bucket.end = bucket.begin + data->ticks;
  bucket.region = sextant_row_is_null (row, 1) ? SEXTANT_NULL : sextant_row_get_int (row, 1);
  bucket.busy = sextant_row_get_int (row, 2);
  for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
    bucket.time[c] = sextant_row_get_int (row, 3 + (int)c);
  g_array_append_val (data->buckets, bucket);

  return TRUE;
}

gboolean
sextant_lod_reader_read_rows (SextantLodReader  *self,
                         gint64             loc,
                         guint              level,
                         gint64             t0,
                         gint64             t1,
                         GArray            *buckets,
                         GError           **error)
{
  ReadData data = { buckets, self->origin, 0 };
  gint64 first;
  gint64 last;

  g_return_val_if_fail (buckets != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (buckets) == sizeof (SextantLodBucket), FALSE);

  if (level >= self->n_levels)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_ARGUMENT,
                   "level %u of a pyramid of %u levels", level, self->n_levels);
      return FALSE;
    }
  if (t1 <= t0)
    return TRUE;

  if (t1 <= self->origin)
    return TRUE;

  /* the buckets holding t0 (or the origin) and t1 - 1 */
  data.ticks = self->base << level;
  first = (MAX (t0, self->origin) - self->origin) / data.ticks;
  last = (t1 - 1 - self->origin) / data.ticks;

  /* room for every bucket of the range at once: the array is not grown
   * (and copied) row by row */
  {
    guint len = buckets->len;

    g_array_set_size (buckets, len + (guint)MIN (last - first + 1, 1 << 20));
    g_array_set_size (buckets, len);
  }

  return sextant_store_foreach (self->store, SEXTANT_QUERY_LOD_BUCKETS, bucket_row, &data, error,
                                "iiii", loc, (gint64)level, first, last);
}

/* The pyramid's chunks ----------------------------------------------------------- */

/* a lod chunk's first row: (loc << 32) | (level << 26) | n */
#define LOD_ROW(loc, level) (((loc) << 32) | ((gint64)(level) << 26))
#define LEVEL_KEY(loc, level) (((loc) << 6) | (gint64)(level))

/* every level of every location asked for, in one statement: a JSON array
 * of locations, each one's rows of level ?2 (one or a few chunks) */
static const char lod_chunks_sql[] =
  "SELECT c.first_row, c.n, c.header, c.data FROM json_each (?1) AS j "
  "JOIN lod_chunk AS c ON c.first_row BETWEEN (j.value << 32) | (?2 << 26) "
  "                                       AND (j.value << 32) | (?2 << 26) | 67108863 "
  "ORDER BY c.first_row";

/* Parses a chunk row (first_row, n, header[, data]) into @chunk, with its
 * data copied when the row has it */
static gboolean
parse_chunk (const SextantRow  *row,
             guint              n_cols,
             gboolean           with_data,
             Chunk             *chunk,
             GError           **error)
{
  gsize header_size = 0;
  const guint8 *header = sextant_row_get_blob (row, 2, &header_size);
  gint64 n = sextant_row_get_int (row, 1);

  memset (chunk, 0, sizeof *chunk);
  chunk->first_row = sextant_row_get_int (row, 0);
  if (n < 0 || n > SEXTANT_CHUNK_MAX_ROWS ||
      !sextant_chunk_parse_header (&chunk->chunk, header, header_size, (guint)n, n_cols))
    goto damaged;
  if (with_data)
    {
      gsize size = 0;
      const void *data = sextant_row_get_blob (row, 3, &size);

      chunk->blob = g_bytes_new (data, size);
      if (!sextant_chunk_attach_data (&chunk->chunk, g_bytes_get_data (chunk->blob, NULL), size))
        {
          g_clear_pointer (&chunk->blob, g_bytes_unref);
          goto damaged;
        }
    }

  return TRUE;

damaged:
  g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA, "chunk at row %" G_GINT64_FORMAT " is damaged",
               chunk->first_row);
  return FALSE;
}

typedef struct
{
  SextantLodReader *self;
  guint             level;
} LoadData;

static gboolean
lod_chunk_row (const SextantRow  *row,
               gpointer           user_data,
               GError           **error)
{
  LoadData *data = user_data;
  Chunk chunk;
  gint64 key;
  Level *level;

  if (!parse_chunk (row, SEXTANT_LOD_N_COLUMNS, TRUE, &chunk, error))
    return FALSE;
  key = LEVEL_KEY (chunk.first_row >> 32, data->level);
  level = g_hash_table_lookup (data->self->levels, &key);
  g_assert (level != NULL);
  g_array_append_val (level->chunks, chunk);
  level->bytes += g_bytes_get_size (chunk.blob) + sizeof chunk;
  data->self->level_bytes += g_bytes_get_size (chunk.blob) + sizeof chunk;

  return TRUE;
}

/* Drops the levels used longest ago, but none used at the current clock,
 * until the cache is within its bound */
static void
evict_levels (SextantLodReader *self)
{
  while (self->level_bytes > self->cache_bytes)
    {
      GHashTableIter iter;
      gpointer key, value;
      gpointer oldest = NULL;
      guint64 used = self->clock;

      g_hash_table_iter_init (&iter, self->levels);
      while (g_hash_table_iter_next (&iter, &key, &value))
        if (((Level *)value)->used < used)
          {
            used = ((Level *)value)->used;
            oldest = key;
          }
      if (oldest == NULL)
        return;
      self->level_bytes -= ((Level *)g_hash_table_lookup (self->levels, oldest))->bytes;
      g_hash_table_remove (self->levels, oldest);
    }
}

/* Makes sure the @level of each of @locs is in the cache, reading those
 * that are not with one statement, and marks them used */
static gboolean
load_levels (SextantLodReader  *self,
             const gint64      *locs,
             guint              n_locs,
             guint              level,
             GError           **error)
{
  g_autoptr(GString) missing = g_string_new ("[");
  LoadData data = { self, level };
  guint n_missing = 0;

  self->clock++;
  for (guint i = 0; i < n_locs; i++)
    {
      gint64 key = LEVEL_KEY (locs[i], level);
      Level *entry = g_hash_table_lookup (self->levels, &key);

      if (entry == NULL)
        {
          entry = g_new0 (Level, 1);
          entry->chunks = g_array_new (FALSE, FALSE, sizeof (Chunk));
          g_hash_table_insert (self->levels, g_memdup2 (&key, sizeof key), entry);
          g_string_append_printf (missing, "%s%" G_GINT64_FORMAT, n_missing++ > 0 ? "," : "", locs[i]);
        }
      entry->used = self->clock;
    }
  g_string_append_c (missing, ']');
  if (n_missing > 0 &&
      !sextant_store_foreach_sql (self->store, lod_chunks_sql, lod_chunk_row, &data, error, "ti", missing->str,
                                  (gint64)level))
    {
      /* nothing half read stays */
      for (guint i = 0; i < n_locs; i++)
        {
          gint64 key = LEVEL_KEY (locs[i], level);
          Level *entry = g_hash_table_lookup (self->levels, &key);

          if (entry != NULL && entry->used == self->clock)
            {
              self->level_bytes -= entry->bytes;
              g_hash_table_remove (self->levels, &key);
            }
        }
      return FALSE;
    }
  evict_levels (self);

  return TRUE;
}

/* The first row of @chunk whose bucket is at least @bucket */
static guint
lower_bound (const SextantChunk *chunk,
             guint               col,
             gint64              value)
{
  guint lo = 0;
  guint hi = chunk->n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (sextant_chunk_get (chunk, col, mid) < value)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Appends the buckets [@first, @last] of a cached level */
static void
append_buckets (SextantLodReader *self,
                const Level      *entry,
                guint             level,
                gint64            first,
                gint64            last,
                GArray           *buckets)
{
  gint64 ticks = self->base << level;

  for (guint i = 0; i < entry->chunks->len; i++)
    {
      const SextantChunk *chunk = &g_array_index (entry->chunks, Chunk, i).chunk;
      guint r;

      if (chunk->n_rows == 0 || chunk->cols[SEXTANT_LOD_BUCKET].max < first)
        continue;
      if (chunk->cols[SEXTANT_LOD_BUCKET].min > last)
        break;
      for (r = lower_bound (chunk, SEXTANT_LOD_BUCKET, first); r < chunk->n_rows; r++)
        {
          SextantLodBucket *bucket;
          gint64 b = sextant_chunk_get (chunk, SEXTANT_LOD_BUCKET, r);

          if (b > last)
            break;
          g_array_set_size (buckets, buckets->len + 1);
          bucket = &g_array_index (buckets, SextantLodBucket, buckets->len - 1);
          bucket->bucket = b;
          bucket->begin = self->origin + b * ticks;
          bucket->end = bucket->begin + ticks;
          bucket->region = sextant_chunk_get (chunk, SEXTANT_LOD_REGION, r);
          bucket->busy = sextant_chunk_get (chunk, SEXTANT_LOD_BUSY, r);
          for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
            bucket->time[c] = sextant_chunk_get (chunk, SEXTANT_LOD_T_FIRST + c, r);
        }
    }
}

/* The bucket range of [@t0, @t1) at @level; FALSE when it is empty */
static gboolean
bucket_range (SextantLodReader *self,
              guint             level,
              gint64            t0,
              gint64            t1,
              gint64           *first,
              gint64           *last)
{
  gint64 ticks = self->base << level;

  if (t1 <= t0 || t1 <= self->origin)
    return FALSE;
  *first = (MAX (t0, self->origin) - self->origin) / ticks;
  *last = (t1 - 1 - self->origin) / ticks;

  return TRUE;
}

gboolean
sextant_lod_reader_read (SextantLodReader  *self,
                         gint64             loc,
                         guint              level,
                         gint64             t0,
                         gint64             t1,
                         GArray            *buckets,
                         GError           **error)
{
  gint64 key = LEVEL_KEY (loc, level);
  gint64 first, last;
  Level *entry;

  g_return_val_if_fail (buckets != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (buckets) == sizeof (SextantLodBucket), FALSE);

  if (level >= self->n_levels)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_ARGUMENT,
                   "level %u of a pyramid of %u levels", level, self->n_levels);
      return FALSE;
    }
  if (!bucket_range (self, level, t0, t1, &first, &last))
    return TRUE;
  if (!load_levels (self, &loc, 1, level, error))
    return FALSE;
  entry = g_hash_table_lookup (self->levels, &key);
  append_buckets (self, entry, level, first, last, buckets);

  return TRUE;
}

gboolean
sextant_lod_reader_prefetch (SextantLodReader  *self,
                             const gint64      *locs,
                             guint              n_locs,
                             guint              level,
                             GError           **error)
{
  if (level >= self->n_levels)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_ARGUMENT,
                   "level %u of a pyramid of %u levels", level, self->n_levels);
      return FALSE;
    }

  return load_levels (self, locs, n_locs, level, error);
}

void
sextant_lod_reader_set_cache_bound (SextantLodReader *self,
                                    gsize             bytes)
{
  self->cache_bytes = bytes;
}

gsize
sextant_lod_reader_get_cache_bytes (SextantLodReader *self)
{
  gsize index = self->message_index == NULL ? 0
                : self->message_index->times->len * sizeof (MessageTimes) +
                  self->message_index->pairs->len * sizeof (MessagePair);

  return self->level_bytes + self->messages.bytes + self->visit_bytes + index;
}

/* Column tables read by chunk ---------------------------------------------------- */

typedef struct
{
  ChunkTable *table;
  Chunk      *chunk;
} ChunkRowData;

static gboolean
chunk_dir_row (const SextantRow  *row,
               gpointer           user_data,
               GError           **error)
{
  ChunkTable *table = user_data;
  Chunk chunk;

  if (!parse_chunk (row, table->n_cols, FALSE, &chunk, error))
    return FALSE;
  g_array_append_val (table->dir, chunk);

  return TRUE;
}

static gboolean
chunk_data_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  ChunkRowData *data = user_data;

  return parse_chunk (row, data->table->n_cols, TRUE, data->chunk, error);
}

/* The chunk directory of @table, read at the first call */
static gboolean
chunk_table_load (SextantLodReader  *self,
                  ChunkTable        *table,
                  GError           **error)
{
  g_autofree char *sql = NULL;

  if (table->dir != NULL)
    return TRUE;
  sql = g_strdup_printf ("SELECT first_row, n, header FROM %s_chunk WHERE first_row BETWEEN ?1 AND ?2 "
                         "ORDER BY first_row", table->name);
  table->dir = g_array_new (FALSE, FALSE, sizeof (Chunk));
  if (!sextant_store_foreach_sql (self->store, sql, chunk_dir_row, table, error, "ii", table->lo, table->hi))
    {
      g_clear_pointer (&table->dir, g_array_unref);
      return FALSE;
    }

  return TRUE;
}

/* Chunk @i of @table with its data (read now if it is not cached, the
 * chunks used longest ago dropped to make room); NULL on error */
static const SextantChunk *
chunk_table_get (SextantLodReader  *self,
                 ChunkTable        *table,
                 guint              i,
                 GError           **error)
{
  Chunk *chunk = &g_array_index (table->dir, Chunk, i);

  if (chunk->blob == NULL)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT first_row, n, header, data FROM %s_chunk WHERE first_row = ?1",
                                              table->name);
      Chunk read = { 0 };
      ChunkRowData data = { table, &read };

      if (!sextant_store_foreach_sql (self->store, sql, chunk_data_row, &data, error, "i", chunk->first_row))
        return NULL;
      if (read.blob == NULL)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA, "%s_chunk: chunk %" G_GINT64_FORMAT
                       " is gone", table->name, chunk->first_row);
          return NULL;
        }
      while (table->bytes + g_bytes_get_size (read.blob) > self->cache_bytes)
        {
          Chunk *oldest = NULL;

          for (guint k = 0; k < table->dir->len; k++)
            {
              Chunk *other = &g_array_index (table->dir, Chunk, k);

              if (other->blob != NULL && other->used < self->clock && (oldest == NULL || other->used < oldest->used))
                oldest = other;
            }
          if (oldest == NULL)
            break;
          table->bytes -= g_bytes_get_size (oldest->blob);
          g_clear_pointer (&oldest->blob, g_bytes_unref);
          oldest->chunk.data[0] = NULL;
        }
      *chunk = read;
      table->bytes += g_bytes_get_size (chunk->blob);
    }
  chunk->used = self->clock;

  return &chunk->chunk;
}

/* The first chunk of @table whose rows end after @row */
static guint
chunk_table_find (const ChunkTable *table,
                  gint64            row)
{
  guint lo = 0;
  guint hi = table->dir->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Chunk *c = &g_array_index (table->dir, Chunk, mid);

      if (c->first_row + c->chunk.n_rows <= row)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Visits ------------------------------------------------------------------------ */

static gboolean
category_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  const char *name = sextant_row_is_null (row, 2) ? "" : sextant_row_get_text (row, 2);
  guint category = SEXTANT_CATEGORY_OTHER;
  gint64 *id = g_new (gint64, 1);

  for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
    if (g_str_equal (name, sextant_category_names[c]))
      category = c;
  *id = sextant_row_get_int (row, 0);
  g_hash_table_insert (user_data, id, GUINT_TO_POINTER (category + 1));

  return TRUE;
}

static gboolean
range_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  gint64 *loc = g_new (gint64, 1);
  VisitRange *range = g_new (VisitRange, 1);

  *loc = sextant_row_get_int (row, 0);
  range->first = sextant_row_get_int (row, 1);
  range->last = sextant_row_get_int (row, 2);
  g_hash_table_insert (user_data, loc, range);

  return TRUE;
}

static gboolean
take_id (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  *(gint64 *)user_data = sextant_row_get_int (row, 0);

  return TRUE;
}

static gboolean
visit_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Visit v;

  v.id = sextant_row_get_int (row, 0);
  v.enter = sextant_row_get_int (row, 1);
  v.leave = sextant_row_get_int (row, 2);
  v.region = sextant_row_get_int (row, 3);
  v.parent = sextant_row_is_null (row, 4) ? SEXTANT_NULL : sextant_row_get_int (row, 4);
  g_array_append_val ((GArray *)user_data, v);

  return TRUE;
}

/* [a, b) of [t0, t1) as the innermost time of @v */
static void
emit (SextantLodReader *self,
      GArray           *buckets,
      const Visit      *v,
      gint64            a,
      gint64            t1,
      gint64            b)
{
  SextantLodBucket piece = { 0 };
  guint category = GPOINTER_TO_UINT (g_hash_table_lookup (self->categories, &v->region));

  b = MIN (b, t1);
  if (b <= a)
    return;

  piece.bucket = -1;
  piece.begin = a;
  piece.end = b;
  piece.region = v->region;
  piece.busy = b - a;
  piece.time[category > 0 ? category - 1 : SEXTANT_CATEGORY_OTHER] = b - a;
  g_array_append_val (buckets, piece);
}

/* The visit chunks of @loc (their directory read at its first read,
 * their data as needed), marked used */
static ChunkTable *
visit_table (SextantLodReader *self,
             gint64            loc)
{
  ChunkTable *table = g_hash_table_lookup (self->visits, &loc);

  if (table == NULL)
    {
      table = g_new0 (ChunkTable, 1);
      table->name = "visit";
      table->n_cols = SEXTANT_VISIT_N_COLUMNS;
      table->lo = loc << 32;
      table->hi = table->lo | G_GINT64_CONSTANT (0xffffffff);
      g_hash_table_insert (self->visits, g_memdup2 (&loc, sizeof loc), table);
    }
  table->used = ++self->clock;

  return table;
}

/* Counts what reading @table added (it had @before bytes), and drops the
 * chunk data of the locations read longest ago while the visits' cache is
 * over its bound */
static void
visit_table_account (SextantLodReader *self,
                     ChunkTable       *table,
                     gsize             before)
{
  self->visit_bytes += table->bytes - before;
  while (self->visit_bytes > self->cache_bytes)
    {
      GHashTableIter iter;
      gpointer value;
      ChunkTable *oldest = NULL;

      g_hash_table_iter_init (&iter, self->visits);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        if (value != table && ((ChunkTable *)value)->bytes > 0 &&
            (oldest == NULL || ((ChunkTable *)value)->used < oldest->used))
          oldest = value;
      if (oldest == NULL)
        return;
      self->visit_bytes -= oldest->bytes;
      for (guint i = 0; i < oldest->dir->len; i++)
        g_clear_pointer (&g_array_index (oldest->dir, Chunk, i).blob, g_bytes_unref);
      oldest->bytes = 0;
    }
}

/* Direct reads of the visit chunks: the visit @id (FALSE with no error
 * when there is none) */
static gboolean
visit_by_id (SextantLodReader  *self,
             ChunkTable        *visits,
             gint64             id,
             Visit             *v,
             gboolean          *found,
             GError           **error)
{
  guint i = chunk_table_find (visits, id);
  const Chunk *entry;
  const SextantChunk *c;
  guint r;

  *found = FALSE;
  if (i >= visits->dir->len || (entry = &g_array_index (visits->dir, Chunk, i))->first_row > id)
    return TRUE;
  if (!(c = chunk_table_get (self, visits, i, error)))
    return FALSE;
  r = (guint)(id - entry->first_row);
  v->id = id;
  v->enter = sextant_chunk_get (c, SEXTANT_VISIT_ENTER, r);
  v->leave = sextant_chunk_get (c, SEXTANT_VISIT_LEAVE, r);
  v->region = sextant_chunk_get (c, SEXTANT_VISIT_REGION, r);
  v->parent = sextant_chunk_get (c, SEXTANT_VISIT_PARENT, r);
  *found = TRUE;

  return TRUE;
}

/* The visits of ids [@first, @last] entered in [@t0, @t1), appended to
 * @visits, and in @first_in the first id entered at or after @t0
 * (G_MININT64: none); ids are in enter order within a location */
static gboolean
visits_entered (SextantLodReader  *self,
                ChunkTable        *table,
                gint64             first,
                gint64             last,
                gint64             t0,
                gint64             t1,
                GArray            *visits,
                gint64            *first_in,
                GError           **error)
{
  *first_in = G_MININT64;
  for (guint i = chunk_table_find (table, first); i < table->dir->len; i++)
    {
      const Chunk *entry = &g_array_index (table->dir, Chunk, i);
      const SextantChunk *c = &entry->chunk;
      guint r, end;

      if (entry->first_row > last)
        break;
      if (c->n_rows == 0 || c->cols[SEXTANT_VISIT_ENTER].max < t0)
        continue;
      if (!(c = chunk_table_get (self, table, i, error)))
        return FALSE;
      r = (guint)CLAMP (first - entry->first_row, 0, (gint64)c->n_rows);
      end = (guint)CLAMP (last - entry->first_row + 1, 0, (gint64)c->n_rows);
      {
        /* the first row entered at or after t0 */
        guint hi = end;

        while (r < hi)
          {
            guint mid = r + (hi - r) / 2;

            if (sextant_chunk_get (c, SEXTANT_VISIT_ENTER, mid) < t0)
              r = mid + 1;
            else
              hi = mid;
          }
      }
      for (; r < end; r++)
        {
          Visit v;

          v.enter = sextant_chunk_get (c, SEXTANT_VISIT_ENTER, r);
          v.id = entry->first_row + r;
          if (*first_in == G_MININT64)
            *first_in = v.id;
          if (v.enter >= t1)
            return TRUE;
          v.leave = sextant_chunk_get (c, SEXTANT_VISIT_LEAVE, r);
          v.region = sextant_chunk_get (c, SEXTANT_VISIT_REGION, r);
          v.parent = sextant_chunk_get (c, SEXTANT_VISIT_PARENT, r);
          g_array_append_val (visits, v);
        }
    }

  return TRUE;
}

static gboolean read_visits (SextantLodReader *self, gint64 loc, gint64 t0, gint64 t1, GArray *buckets,
                             gboolean direct, GError **error);

gboolean
sextant_lod_reader_read_visits (SextantLodReader  *self,
                                gint64             loc,
                                gint64             t0,
                                gint64             t1,
                                GArray            *buckets,
                                GError           **error)
{
  return read_visits (self, loc, t0, t1, buckets, TRUE, error);
}

gboolean
sextant_lod_reader_read_visits_rows (SextantLodReader  *self,
                                     gint64             loc,
                                     gint64             t0,
                                     gint64             t1,
                                     GArray            *buckets,
                                     GError           **error)
{
  return read_visits (self, loc, t0, t1, buckets, FALSE, error);
}

/* read_visits(), from the chunks (@direct) or through SQLite's rows */
static gboolean
read_visits (SextantLodReader  *self,
             gint64             loc,
             gint64             t0,
             gint64             t1,
             GArray            *buckets,
             gboolean           direct,
             GError           **error)
{
  g_autoptr(GArray) entered = g_array_new (FALSE, FALSE, sizeof (Visit));
  ChunkTable *table = NULL;
  gsize before = 0;
  g_autoptr(GArray) visits = g_array_new (FALSE, FALSE, sizeof (Visit));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Visit));
  const VisitRange *range;
  gint64 first_in = G_MININT64;
  gint64 cursor = t0;
  guint n_open;

  g_return_val_if_fail (buckets != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (buckets) == sizeof (SextantLodBucket), FALSE);

  if (self->categories == NULL)
    {
      g_autoptr(GHashTable) categories = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      g_autoptr(GHashTable) ranges = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

      if (!sextant_store_foreach (self->store, SEXTANT_QUERY_REGION_NAMES, category_row, categories, error, "") ||
          !sextant_store_foreach (self->store, SEXTANT_QUERY_LOCATION_VISIT_RANGES, range_row, ranges, error, ""))
        return FALSE;
      self->categories = g_steal_pointer (&categories);
      self->ranges = g_steal_pointer (&ranges);
    }
  if (t1 <= t0 || (range = g_hash_table_lookup (self->ranges, &loc)) == NULL)
    return TRUE;

  /* the visits open at t0: the one entered last before it, and its
   * ancestors (nesting: whatever else was open is one of them) */
  if (direct)
    {
      table = visit_table (self, loc);
      before = table->bytes;
      if (!chunk_table_load (self, table, error) ||
          !visits_entered (self, table, range->first, range->last, t0, t1, entered, &first_in, error))
        return FALSE;
    }
  else if (!sextant_store_foreach (self->store, SEXTANT_QUERY_FIRST_VISIT_FROM, take_id, &first_in, error, "iiii",
                                   loc, t0, range->first, range->last))
    return FALSE;
  for (gint64 id = first_in != G_MININT64 ? first_in - 1 : range->last;
       id >= range->first && id != SEXTANT_NULL; )
    {
      guint n = visits->len;

      if (direct)
        {
          Visit v;
          gboolean found;

          if (!visit_by_id (self, table, id, &v, &found, error))
            return FALSE;
          if (found)
            g_array_append_val (visits, v);
        }
      else if (!sextant_store_foreach (self->store, SEXTANT_QUERY_VISIT_BY_ID, visit_row, visits, error, "i", id))
        return FALSE;
      if (visits->len == n)
        break;
      id = g_array_index (visits, Visit, n).parent;
      if (g_array_index (visits, Visit, n).leave <= t0)
        g_array_remove_index (visits, n);
    }
  if (direct)
    visit_table_account (self, table, before);
  /* outermost first */
  n_open = visits->len;
  for (guint i = 0; i < n_open / 2; i++)
    {
      Visit tmp = g_array_index (visits, Visit, i);

      g_array_index (visits, Visit, i) = g_array_index (visits, Visit, n_open - 1 - i);
      g_array_index (visits, Visit, n_open - 1 - i) = tmp;
    }
  if (direct)
    g_array_append_vals (visits, entered->data, entered->len);
  else if (!sextant_store_foreach (self->store, SEXTANT_QUERY_VISITS_ENTERED, visit_row, visits, error, "iiiii",
                                   loc, t0, t1, range->first, range->last))
    return FALSE;

  /* in enter order, a stack of the open visits: the top one is innermost */
  for (guint i = 0; i < visits->len; i++)
    {
      const Visit *v = &g_array_index (visits, Visit, i);
      gint64 at = MAX (v->enter, t0);

      while (stack->len > 0 && g_array_index (stack, Visit, stack->len - 1).leave <= at)
        {
          const Visit *top = &g_array_index (stack, Visit, stack->len - 1);

          emit (self, buckets, top, cursor, t1, top->leave);
          cursor = MAX (cursor, top->leave);
          g_array_set_size (stack, stack->len - 1);
        }
      if (stack->len > 0)
        emit (self, buckets, &g_array_index (stack, Visit, stack->len - 1), cursor, t1, at);
      cursor = at;
      g_array_append_val (stack, *v);
    }
  while (stack->len > 0)
    {
      const Visit *top = &g_array_index (stack, Visit, stack->len - 1);

      emit (self, buckets, top, cursor, t1, top->leave);
      cursor = MAX (cursor, MIN (top->leave, t1));
      g_array_set_size (stack, stack->len - 1);
    }

  return TRUE;
}

/* Messages ---------------------------------------------------------------------- */

/* A message in flight in a view, as the chunk holds it */
typedef struct
{
  gint64 id;
  gint64 send_loc;
  gint64 recv_loc;
  gint64 send_time;
  gint64 recv_time;
  gint64 bytes;
} InFlight;

/* FALSE stops the walk */
typedef gboolean (*InFlightFunc) (const InFlight *m,
                                  gpointer        user_data);

/* Calls @func for every matched message in flight during [@t0, @t1) (sent
 * before @t1, received at or after @t0), chunk by chunk; reads only the
 * chunks whose zone maps say they can hold one (messages are stored in
 * the order they were matched, which follows time closely) */
static gboolean
foreach_in_flight (SextantLodReader  *self,
                   gint64             t0,
                   gint64             t1,
                   InFlightFunc       func,
                   gpointer           user_data,
                   GError           **error)
{
  if (!chunk_table_load (self, &self->messages, error))
    return FALSE;

  self->clock++;
  for (guint i = 0; i < self->messages.dir->len; i++)
    {
      Chunk *chunk = &g_array_index (self->messages.dir, Chunk, i);
      const SextantChunk *c = &chunk->chunk;

      if (c->n_rows == 0 || c->cols[SEXTANT_MESSAGE_SEND_TIME].all_null ||
          c->cols[SEXTANT_MESSAGE_RECV_TIME].all_null || c->cols[SEXTANT_MESSAGE_SEND_TIME].min >= t1 ||
          c->cols[SEXTANT_MESSAGE_RECV_TIME].max < t0)
        continue;
      if (!(c = chunk_table_get (self, &self->messages, i, error)))
        return FALSE;

      for (guint r = 0; r < c->n_rows; r++)
        {
          InFlight m;

          m.send_time = sextant_chunk_get (c, SEXTANT_MESSAGE_SEND_TIME, r);
          m.recv_time = sextant_chunk_get (c, SEXTANT_MESSAGE_RECV_TIME, r);
          if (m.send_time == SEXTANT_NULL || m.recv_time == SEXTANT_NULL || m.send_time >= t1 || m.recv_time < t0)
            continue;
          m.send_loc = sextant_chunk_get (c, SEXTANT_MESSAGE_SEND_LOC, r);
          m.recv_loc = sextant_chunk_get (c, SEXTANT_MESSAGE_RECV_LOC, r);
          if (m.send_loc == SEXTANT_NULL || m.recv_loc == SEXTANT_NULL)
            continue;
          m.id = chunk->first_row + r;
          m.bytes = sextant_chunk_get (c, SEXTANT_MESSAGE_BYTES, r);
          if (!func (&m, user_data))
            return TRUE;
        }
    }

  return TRUE;
}

/* Message density ------------------------------------------------------------------ */

typedef struct
{
  GHashTable *pairs;   /* (send_loc, recv_loc) packed -> pair + 1 */
  GArray     *list;    /* of MessagePair */
  GArray     *all;     /* of MessageTimes + pair, as read */
  GArray     *which;   /* of guint: each message's pair */
} IndexBuild;

static gboolean
index_message (const InFlight *m,
               gpointer        user_data)
{
  IndexBuild *build = user_data;
  gint64 key[2] = { m->send_loc, m->recv_loc };
  gpointer found = g_hash_table_lookup (build->pairs, key);
  MessageTimes times = { m->send_time, m->recv_time, m->bytes, m->id };
  guint pair;

  if (found == NULL)
    {
      MessagePair p = { m->send_loc, m->recv_loc, 0, 0, 0 };

      g_array_append_val (build->list, p);
      g_hash_table_insert (build->pairs, g_memdup2 (key, sizeof key), GUINT_TO_POINTER (build->list->len));
      pair = build->list->len - 1;
    }
  else
    pair = GPOINTER_TO_UINT (found) - 1;
  {
    MessagePair *p = &g_array_index (build->list, MessagePair, pair);

    p->n++;
    p->longest = MAX (p->longest, m->recv_time - m->send_time);
  }
  g_array_append_val (build->all, times);
  g_array_append_val (build->which, pair);

  return TRUE;
}

static guint
pair_key_hash (gconstpointer key)
{
  const gint64 *k = key;

  return g_int64_hash (&k[0]) * 31 + g_int64_hash (&k[1]);
}

static gboolean
pair_key_equal (gconstpointer a,
                gconstpointer b)
{
  return memcmp (a, b, 2 * sizeof (gint64)) == 0;
}

static int
compare_send_times (gconstpointer a,
                    gconstpointer b)
{
  const MessageTimes *x = a;
  const MessageTimes *y = b;

  return (x->send_time > y->send_time) - (x->send_time < y->send_time);
}

static gboolean
message_index_build (SextantLodReader  *self,
                     GError           **error)
{
  g_autoptr(GHashTable) pairs = g_hash_table_new_full (pair_key_hash, pair_key_equal, g_free, NULL);
  g_autoptr(GArray) list = g_array_new (FALSE, FALSE, sizeof (MessagePair));
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (MessageTimes));
  g_autoptr(GArray) which = g_array_new (FALSE, FALSE, sizeof (guint));
  IndexBuild build = { pairs, list, all, which };
  MessageIndex *index;
  g_autofree guint *next = NULL;

  if (self->message_index != NULL)
    return TRUE;
  if (!foreach_in_flight (self, G_MININT64 + 1, G_MAXINT64, index_message, &build, error))
    return FALSE;
  /* the index holds all of it: the chunks are not read again */
  chunk_table_clear (&self->messages);

  /* by pair (a counting sort), then each pair's by send time */
  index = g_new0 (MessageIndex, 1);
  index->pairs = g_steal_pointer (&list);
  index->times = g_array_sized_new (FALSE, FALSE, sizeof (MessageTimes), all->len);
  g_array_set_size (index->times, all->len);
  next = g_new (guint, index->pairs->len + 1);
  for (guint p = 0, at = 0; p < index->pairs->len; p++)
    {
      MessagePair *pair = &g_array_index (index->pairs, MessagePair, p);

      pair->first = at;
      next[p] = at;
      at += pair->n;
    }
  for (guint i = 0; i < all->len; i++)
    g_array_index (index->times, MessageTimes, next[g_array_index (which, guint, i)]++) =
      g_array_index (all, MessageTimes, i);
  for (guint p = 0; p < index->pairs->len; p++)
    {
      MessagePair *pair = &g_array_index (index->pairs, MessagePair, p);
      MessageTimes *times = &g_array_index (index->times, MessageTimes, pair->first);
      gboolean sorted = TRUE;

      for (guint i = 1; i < pair->n && sorted; i++)
        sorted = times[i - 1].send_time <= times[i].send_time;
      if (!sorted)
        qsort (times, pair->n, sizeof (MessageTimes), compare_send_times);
    }
  self->message_index = index;

  return TRUE;
}

/* The first message of @pair that can be in flight at @t0: sent at or
 * after t0 - its longest (one sent before was received before t0) */
static guint
message_pair_first (const MessagePair  *pair,
                    const MessageTimes *times,
                    gint64              t0)
{
  gint64 from = t0 - pair->longest;
  guint lo = 0;
  guint hi = pair->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (times[mid].send_time < from)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Slots twice as wide, in place: slot n of width 2 s holds slots 2n and
 * 2n + 1 of width s; @out is by pair, each pair's slots in order, so the
 * ones that merge are neighbours. @slots holds each entry's slot index. */
static void
density_coarsen (GArray *out,
                 GArray *slots,
                 guint   from)
{
  guint n = from;

  for (guint i = from; i < out->len; i++)
    {
      SextantViewMessageDensity *d = &g_array_index (out, SextantViewMessageDensity, i);
      gint64 slot = g_array_index (slots, gint64, i) / 2;

      if (n > from)
        {
          SextantViewMessageDensity *last = &g_array_index (out, SextantViewMessageDensity, n - 1);

          if (last->send_loc == d->send_loc && last->recv_loc == d->recv_loc && g_array_index (slots, gint64, n - 1) == slot)
            {
              last->begin = MIN (last->begin, d->begin);
              last->end = MAX (last->end, d->end);
              last->count += d->count;
              last->bytes += d->bytes;
              continue;
            }
        }
      g_array_index (out, SextantViewMessageDensity, n) = *d;
      g_array_index (slots, gint64, n) = slot;
      n++;
    }
  g_array_set_size (out, n);
  g_array_set_size (slots, n);
}

static int
compare_density (gconstpointer a,
                 gconstpointer b)
{
  const SextantViewMessageDensity *x = a;
  const SextantViewMessageDensity *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  if (x->send_loc != y->send_loc)
    return x->send_loc < y->send_loc ? -1 : 1;
  if (x->recv_loc != y->recv_loc)
    return x->recv_loc < y->recv_loc ? -1 : 1;

  return (x->slot > y->slot) - (x->slot < y->slot);
}

gboolean
sextant_lod_reader_read_message_density (SextantLodReader  *self,
                                         gint64             t0,
                                         gint64             t1,
                                         gint64             slot_ticks,
                                         guint              max,
                                         GArray            *density,
                                         GError           **error)
{
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (SextantViewMessageDensity));
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (gint64));
  const MessageIndex *index;
  guint limit = MAX (4 * max, 4096);

  g_return_val_if_fail (density != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (density) == sizeof (SextantViewMessageDensity), FALSE);

  if (t1 <= t0 || max == 0)
    return TRUE;
  if (!message_index_build (self, error))
    return FALSE;
  index = self->message_index;
  slot_ticks = MAX (slot_ticks, 1);

  for (guint p = 0; p < index->pairs->len; p++)
    {
      const MessagePair *pair = &g_array_index (index->pairs, MessagePair, p);
      const MessageTimes *times = &g_array_index (index->times, MessageTimes, pair->first);
      for (guint i = message_pair_first (pair, times, t0); i < pair->n && times[i].send_time < t1; i++)
        {
          const MessageTimes *m = &times[i];
          gint64 slot;
          SextantViewMessageDensity *last;

          if (m->recv_time < t0)
            continue;
          slot = (MAX (m->send_time, t0) - t0) / slot_ticks;
          last = out->len > 0 ? &g_array_index (out, SextantViewMessageDensity, out->len - 1) : NULL;
          if (last != NULL && last->send_loc == pair->send_loc && last->recv_loc == pair->recv_loc &&
              g_array_index (slots, gint64, out->len - 1) == slot)
            {
              last->begin = MIN (last->begin, m->send_time);
              last->end = MAX (last->end, m->recv_time);
              last->count++;
              last->bytes += m->bytes == SEXTANT_NULL ? 0 : m->bytes;
              continue;
            }
          {
            SextantViewMessageDensity d = { pair->send_loc, pair->recv_loc, m->send_time, m->recv_time, 1,
                                            m->bytes == SEXTANT_NULL ? 0 : m->bytes, 0, 0 };

            g_array_append_val (out, d);
            g_array_append_val (slots, slot);
          }
          /* far too many already: coarser slots now (the same result as
           * at the end), the table stays small */
          if (out->len > limit && slot_ticks < t1 - t0)
            {
              density_coarsen (out, slots, 0);
              slot_ticks *= 2;
            }
        }
    }
  /* too many: slots twice as wide, until they fit or one slot holds the view */
  while (out->len > max && slot_ticks < t1 - t0)
    {
      density_coarsen (out, slots, 0);
      slot_ticks *= 2;
    }
  for (guint i = 0; i < out->len; i++)
    {
      SextantViewMessageDensity *d = &g_array_index (out, SextantViewMessageDensity, i);

      d->slot_ticks = slot_ticks;
      d->slot = t0 + g_array_index (slots, gint64, i) * slot_ticks;
    }
  /* still too many (more pairs than @max): the busiest pairs */
  if (out->len > max)
    {
      g_array_sort (out, compare_density);
      g_array_set_size (out, max);
    }
  g_array_append_vals (density, out->data, out->len);

  return TRUE;
}

/* Collectives, lost time ------------------------------------------------------------- */

static gboolean
message_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  SextantViewMessage m;

  m.send_loc = sextant_row_get_int (row, 0);
  m.recv_loc = sextant_row_get_int (row, 1);
  m.send_time = sextant_row_get_int (row, 2);
  m.recv_time = sextant_row_get_int (row, 3);
  m.id = sextant_row_get_int (row, 4);
  m.bytes = sextant_row_get_int_or_null (row, 5);
  g_array_append_val ((GArray *)user_data, m);

  return TRUE;
}

static gboolean
member_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  SextantViewMember m;

  m.collective = sextant_row_get_int (row, 0);
  m.loc = sextant_row_get_int (row, 1);
  m.begin = sextant_row_get_int (row, 2);
  m.end = sextant_row_get_int (row, 3);
  g_array_append_val ((GArray *)user_data, m);

  return TRUE;
}

static gboolean
lost_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  SextantViewLost l = { 0 };

  l.loc = sextant_row_get_int (row, 0);
  l.begin = sextant_row_get_int (row, 1);
  l.end = sextant_row_get_int (row, 2);
  l.severity = sextant_row_get_int (row, 3);
  l.instance = sextant_row_get_int (row, 4);
  l.pattern = (guint)(l.instance >> 32);
  g_array_append_val ((GArray *)user_data, l);

  return TRUE;
}

/* Appends @query's rows for [@t0, @t1) to @out, or none with @too_many set
 * when there are more than @max */
static gboolean
read_bounded (SextantLodReader  *self,
              SextantStoreStmt   query,
              SextantRowFunc     func,
              gint64             t0,
              gint64             t1,
              guint              max,
              GArray            *out,
              gboolean          *too_many,
              GError           **error)
{
  guint len = out->len;

  if (!sextant_store_foreach (self->store, query, func, out, error, "iii", t0, t1, (gint64)max + 1))
    return FALSE;
  if (out->len - len > max)
    {
      g_array_set_size (out, len);
      *too_many = TRUE;
    }

  return TRUE;
}

gboolean
sextant_lod_reader_read_messages (SextantLodReader  *self,
                                  gint64             t0,
                                  gint64             t1,
                                  guint              max,
                                  GArray            *messages,
                                  gboolean          *too_many,
                                  GError           **error)
{
  g_return_val_if_fail (messages != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (messages) == sizeof (SextantViewMessage), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;

  if (!message_index_build (self, error))
    return FALSE;

  /* pair by pair, the messages sent in [t0 - the pair's longest, t1) */
  {
    const MessageIndex *index = self->message_index;
    guint len = messages->len;
    guint n = 0;

    for (guint p = 0; p < index->pairs->len; p++)
      {
        const MessagePair *pair = &g_array_index (index->pairs, MessagePair, p);
        const MessageTimes *times = &g_array_index (index->times, MessageTimes, pair->first);

        for (guint i = message_pair_first (pair, times, t0); i < pair->n && times[i].send_time < t1; i++)
          {
            SextantViewMessage m;

            if (times[i].recv_time < t0)
              continue;
            if (++n > max)
              {
                g_array_set_size (messages, len);
                *too_many = TRUE;
                return TRUE;
              }
            m.send_loc = pair->send_loc;
            m.recv_loc = pair->recv_loc;
            m.send_time = times[i].send_time;
            m.recv_time = times[i].recv_time;
            m.id = times[i].id;
            m.bytes = times[i].bytes;
            g_array_append_val (messages, m);
          }
      }
  }

  return TRUE;
}

gboolean
sextant_lod_reader_read_messages_rows (SextantLodReader  *self,
                                       gint64             t0,
                                       gint64             t1,
                                       guint              max,
                                       GArray            *messages,
                                       gboolean          *too_many,
                                       GError           **error)
{
  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;

  return read_bounded (self, SEXTANT_QUERY_MESSAGES_IN_VIEW, message_row, t0, t1, max, messages, too_many, error);
}

gboolean
sextant_lod_reader_read_collectives (SextantLodReader  *self,
                                     gint64             t0,
                                     gint64             t1,
                                     guint              max,
                                     GArray            *members,
                                     gboolean          *too_many,
                                     GError           **error)
{
  gint64 n = 0;

  g_return_val_if_fail (members != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (members) == sizeof (SextantViewMember), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;
  /* counted first in the small collective table: a view of the whole run
   * does not read 16000 members to learn that it has too many */
  if (!sextant_store_foreach (self->store, SEXTANT_QUERY_COLLECTIVE_MEMBERS_IN_VIEW, take_id, &n, error, "ii", t0,
                              t1))
    return FALSE;
  if (n > (gint64)max)
    {
      *too_many = TRUE;
      return TRUE;
    }

  return read_bounded (self, SEXTANT_QUERY_COLLECTIVES_IN_VIEW, member_row, t0, t1, max, members, too_many, error);
}

gboolean
sextant_lod_reader_read_lost (SextantLodReader  *self,
                              gint64             t0,
                              gint64             t1,
                              guint              max,
                              GArray            *lost,
                              gboolean          *too_many,
                              GError           **error)
{
  g_return_val_if_fail (lost != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (lost) == sizeof (SextantViewLost), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;

  return read_bounded (self, SEXTANT_QUERY_LOST_IN_VIEW, lost_row, t0, t1, max, lost, too_many, error);
}

/* One-sided operations --------------------------------------------------------------- */

static gboolean
take_int_or_zero (const SextantRow  *row,
                  gpointer           user_data,
                  GError           **error)
{
  *(gint64 *)user_data = sextant_row_is_null (row, 0) ? 0 : sextant_row_get_int (row, 0);

  return TRUE;
}

/* the operations issued in [?1 - ?3, ?2) (?3 the longest operation: one in
 * flight at ?1 was issued then) and still under way at ?1, and those never
 * completed that were issued before; at most ?4 (index rma_op_issue,
 * rma_op_complete) */
static const char rma_ops_sql[] =
  "SELECT id, loc, target_loc, issue_time, complete_time, max (bytes, bytes_received), win, kind FROM ("
  "  SELECT * FROM rma_op WHERE issue_time >= ?1 - ?3 AND issue_time < ?2 "
  "     AND (complete_time >= ?1 OR complete_time IS NULL) "
  "  UNION ALL "
  "  SELECT * FROM rma_op WHERE complete_time IS NULL AND issue_time < ?1 - ?3) "
  "ORDER BY issue_time, id LIMIT ?4";

static gboolean
rma_row (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  SextantViewRma op;
  const char *kind = sextant_row_get_text (row, 7);

  op.id = sextant_row_get_int (row, 0);
  op.origin_loc = sextant_row_get_int (row, 1);
  op.target_loc = sextant_row_get_int_or_null (row, 2);
  op.issue_time = sextant_row_get_int (row, 3);
  op.complete_time = sextant_row_get_int_or_null (row, 4);
  op.bytes = sextant_row_get_int_or_null (row, 5);
  op.win = sextant_row_get_int_or_null (row, 6);
  op.kind = g_strcmp0 (kind, "PUT") == 0 ? SEXTANT_VIEW_RMA_PUT
          : g_strcmp0 (kind, "GET") == 0 ? SEXTANT_VIEW_RMA_GET : SEXTANT_VIEW_RMA_ATOMIC;
  g_array_append_val ((GArray *)user_data, op);

  return TRUE;
}

gboolean
sextant_lod_reader_read_rma (SextantLodReader  *self,
                             gint64             t0,
                             gint64             t1,
                             guint              max,
                             GArray            *ops,
                             gboolean          *too_many,
                             GError           **error)
{
  guint len;

  g_return_val_if_fail (ops != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (ops) == sizeof (SextantViewRma), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;
  /* the longest operation, from the index on it (rma_op_span) */
  if (self->rma_span < 0 &&
      !sextant_store_foreach_sql (self->store, "SELECT max (complete_time - issue_time) FROM rma_op",
                                  take_int_or_zero, &self->rma_span, error, ""))
    return FALSE;
  len = ops->len;
  if (!sextant_store_foreach_sql (self->store, rma_ops_sql, rma_row, ops, error, "iiii", t0, t1,
                                  MAX (self->rma_span, 0), (gint64)max + 1))
    return FALSE;
  if (ops->len - len > max)
    {
      g_array_set_size (ops, len);
      *too_many = TRUE;
    }

  return TRUE;
}

/* Window synchronisation ---------------------------------------------------------------- */

/* What an MPI_Win_* call is, by its name */
static SextantViewSyncKind
sync_kind_of_call (const char *name,
                   SextantViewSyncKind other)
{
  static const struct
  {
    const char          *name;
    SextantViewSyncKind  kind;
  } calls[] = {
    { "fence", SEXTANT_VIEW_SYNC_FENCE },
    { "lock", SEXTANT_VIEW_SYNC_LOCK }, { "lock_all", SEXTANT_VIEW_SYNC_LOCK },
    { "start", SEXTANT_VIEW_SYNC_LOCK },
    { "unlock", SEXTANT_VIEW_SYNC_UNLOCK }, { "unlock_all", SEXTANT_VIEW_SYNC_UNLOCK },
    { "complete", SEXTANT_VIEW_SYNC_UNLOCK },
    { "flush", SEXTANT_VIEW_SYNC_FLUSH }, { "flush_all", SEXTANT_VIEW_SYNC_FLUSH },
    { "flush_local", SEXTANT_VIEW_SYNC_FLUSH }, { "flush_local_all", SEXTANT_VIEW_SYNC_FLUSH },
    { "sync", SEXTANT_VIEW_SYNC_FLUSH },
    { "post", SEXTANT_VIEW_SYNC_EXPOSE }, { "wait", SEXTANT_VIEW_SYNC_EXPOSE },
    { "test", SEXTANT_VIEW_SYNC_EXPOSE },
  };

  if (name == NULL || g_ascii_strncasecmp (name, "MPI_Win_", 8) != 0)
    return other;
  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    if (g_ascii_strcasecmp (name + 8, calls[i].name) == 0)
      return calls[i].kind;

  return other;
}

/* the synchronisation records in [?1, ?2) with the call around them and,
 * for a memory sync of one target, its location (index rma_sync_time) */
static const char sync_records_sql[] =
  "SELECT s.loc, coalesce (v.enter, s.time), coalesce (v.leave, s.end_time, s.time), s.win, "
  "       CASE WHEN s.kind = 'RMA_SYNC' THEN cm.loc END, r.name, s.kind, s.detail "
  "FROM rma_sync AS s "
  "LEFT JOIN visit AS v ON v.id = s.visit LEFT JOIN region AS r ON r.id = v.region "
  "LEFT JOIN rma_window AS w ON w.id = s.win "
  "LEFT JOIN comm_member AS cm ON cm.comm = w.comm AND cm.rank = s.remote "
  "WHERE s.time >= ?1 AND s.time < ?2 ORDER BY s.time LIMIT ?3";

/* window locks acquired (?4 = 0) or released (?4 = 1) in [?1, ?2), the
 * call that acquired them, and the target's location (indexes
 * lock_acquire, lock_release) */
static const char sync_locks_sql[] =
  "SELECT l.loc, coalesce (v.enter, l.acquire_time), coalesce (v.leave, l.acquire_time), l.win, cm.loc, r.name "
  "FROM lock AS l "
  "LEFT JOIN visit AS v ON v.id = l.acquire_visit LEFT JOIN region AS r ON r.id = v.region "
  "LEFT JOIN rma_window AS w ON w.id = l.win "
  "LEFT JOIN comm_member AS cm ON cm.comm = w.comm AND cm.rank = l.target "
  "WHERE l.family = 'RMA' AND l.acquire_time >= ?1 AND l.acquire_time < ?2 AND ?4 = 0 "
  "UNION ALL "
  "SELECT l.loc, l.release_time, l.release_time, l.win, cm.loc, NULL "
  "FROM lock AS l "
  "LEFT JOIN rma_window AS w ON w.id = l.win "
  "LEFT JOIN comm_member AS cm ON cm.comm = w.comm AND cm.rank = l.target "
  "WHERE l.family = 'RMA' AND l.release_time >= ?1 AND l.release_time < ?2 AND ?4 = 1 "
  "LIMIT ?3";

/* the calls that completed one-sided operations in [?1, ?2) (a flush has
 * no record of its own in every trace: onecoll's have none), with their
 * target when they completed operations to one (index rma_op_complete) */
static const char sync_flushes_sql[] =
  "SELECT v.loc, v.enter, v.leave, o.win, o.target_loc, r.name FROM ("
  "  SELECT complete_visit AS visit, min (win) AS win, "
  "         CASE WHEN min (target_loc) = max (target_loc) THEN min (target_loc) END AS target_loc "
  "  FROM rma_op WHERE complete_time >= ?1 AND complete_time < ?2 AND complete_visit IS NOT NULL "
  "  GROUP BY complete_visit) AS o "
  "JOIN visit AS v ON v.id = o.visit JOIN region AS r ON r.id = v.region "
  "LIMIT ?3";

typedef struct
{
  GArray *syncs;
  int     source;   /* 0 records, 1 lock acquired, 2 lock released, 3 flushes */
} SyncData;

static gboolean
sync_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  SyncData *data = user_data;
  SextantViewSync s;
  const char *call = sextant_row_is_null (row, 5) ? NULL : sextant_row_get_text (row, 5);

  s.loc = sextant_row_get_int (row, 0);
  s.begin = sextant_row_get_int (row, 1);
  s.end = sextant_row_get_int (row, 2);
  s.win = sextant_row_get_int_or_null (row, 3);
  s.target_loc = sextant_row_get_int_or_null (row, 4);
  switch (data->source)
    {
    case 0:
      {
        const char *kind = sextant_row_get_text (row, 6);
        const char *detail = sextant_row_is_null (row, 7) ? "" : sextant_row_get_text (row, 7);
        SextantViewSyncKind by_record = SEXTANT_VIEW_SYNC_OTHER;

        if (g_strcmp0 (kind, "RMA_SYNC") == 0)
          by_record = SEXTANT_VIEW_SYNC_FLUSH;
        else if (g_strcmp0 (kind, "RMA_COLLECTIVE") == 0 && g_str_equal (detail, "BARRIER"))
          by_record = SEXTANT_VIEW_SYNC_FENCE;
        s.kind = sync_kind_of_call (call, by_record);
      }
      break;
    case 1:
      s.kind = SEXTANT_VIEW_SYNC_LOCK;
      break;
    case 2:
      s.kind = SEXTANT_VIEW_SYNC_UNLOCK;
      break;
    default:
      /* the unlocks, completes and fences that completed operations are
       * read from their own records */
      if (sync_kind_of_call (call, SEXTANT_VIEW_SYNC_OTHER) != SEXTANT_VIEW_SYNC_FLUSH)
        return TRUE;
      s.kind = SEXTANT_VIEW_SYNC_FLUSH;
      break;
    }
  g_array_append_val (data->syncs, s);

  return TRUE;
}

static int
compare_syncs (gconstpointer a,
               gconstpointer b)
{
  const SextantViewSync *x = a;
  const SextantViewSync *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->loc != y->loc)
    return x->loc < y->loc ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;

  return (x->end > y->end) - (x->end < y->end);
}

gboolean
sextant_lod_reader_read_rma_sync (SextantLodReader  *self,
                                  gint64             t0,
                                  gint64             t1,
                                  guint              max,
                                  GArray            *syncs,
                                  gboolean          *too_many,
                                  GError           **error)
{
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (SextantViewSync));
  SyncData data = { found, 0 };
  guint n = 0;

  g_return_val_if_fail (syncs != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (syncs) == sizeof (SextantViewSync), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;
  if (!sextant_store_foreach_sql (self->store, sync_records_sql, sync_row, &data, error, "iii", t0, t1,
                                  (gint64)max + 1))
    return FALSE;
  for (data.source = 1; data.source <= 2 && found->len <= max; data.source++)
    if (!sextant_store_foreach_sql (self->store, sync_locks_sql, sync_row, &data, error, "iiii", t0, t1,
                                    (gint64)max + 1, (gint64)data.source - 1))
      return FALSE;
  data.source = 3;
  if (found->len <= max &&
      !sextant_store_foreach_sql (self->store, sync_flushes_sql, sync_row, &data, error, "iii", t0, t1,
                                  (gint64)max + 1))
    return FALSE;

  /* in time order, a call seen twice (a flush with a record of its own
   * that also completed operations) once */
  g_array_sort (found, compare_syncs);
  for (guint i = 0; i < found->len; i++)
    {
      const SextantViewSync *s = &g_array_index (found, SextantViewSync, i);

      if (n > 0 && compare_syncs (s, &g_array_index (found, SextantViewSync, n - 1)) == 0)
        continue;
      g_array_index (found, SextantViewSync, n++) = *s;
    }
  g_array_set_size (found, n);
  if (found->len > max)
    {
      *too_many = TRUE;
      return TRUE;
    }
  g_array_append_vals (syncs, found->data, found->len);

  return TRUE;
}

/* Whole-machine mode --------------------------------------------------------------------- */

/* Adds the categories' times of @buckets to the @width columns of
 * [@t0, @t1) that they overlap, a bucket's time spread evenly over its
 * length: the partly covered columns at its ends get their share in
 * @sums, the columns it covers whole its rate in @rates (a difference
 * array: +rate at the first such column, -rate past the last), which
 * sextant_lod_machine_fill_band() sums up; both width * N_CATEGORIES,
 * column by column, and @rates one column more. A bucket costs the same
 * however many columns it spans. */
void
sextant_lod_machine_add_buckets (const GArray *buckets,
                                 gint64        t0,
                                 gint64        t1,
                                 guint         width,
                                 double        column,
                                 double       *sums,
                                 double       *rates)
{
  for (guint k = 0; k < buckets->len; k++)
    {
      const SextantLodBucket *bucket = &g_array_index (buckets, SextantLodBucket, k);
      double length = (double)(bucket->end - bucket->begin);
      double a = (double)(MAX (bucket->begin, t0) - t0);
      double e = (double)(MIN (bucket->end, t1) - t0);
      guint x0, x1;

      if (e <= a)
        continue;
      x0 = MIN ((guint)(a / column), width - 1);
      x1 = MIN ((guint)(e / column), width - 1);
      if (x1 <= x0 + 1)
        {
          /* one or two columns */
          for (guint x = x0; x <= x1; x++)
            {
              double overlap = MIN (e, (x + 1) * column) - MAX (a, x * column);

              if (overlap > 0)
                for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                  sums[(gsize)x * SEXTANT_N_CATEGORIES + c] += bucket->time[c] * overlap / length;
            }
          continue;
        }
      {
        double head = (x0 + 1) * column - a;
        double tail = e - x1 * column;

        for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
          {
            double rate = bucket->time[c] / length;

            sums[(gsize)x0 * SEXTANT_N_CATEGORIES + c] += rate * head;
            if (tail > 0)
              sums[(gsize)x1 * SEXTANT_N_CATEGORIES + c] += rate * tail;
            rates[(gsize)(x0 + 1) * SEXTANT_N_CATEGORIES + c] += rate * column;
            rates[(gsize)x1 * SEXTANT_N_CATEGORIES + c] -= rate * column;
          }
      }
    }
}

/* Turns @sums and @rates (as sextant_lod_machine_add_buckets() left
 * them: ticks per column and category, over the band's locations) into
 * shares of @ticks (a column's ticks times the locations), and zeroes
 * them for the next band */
void
sextant_lod_machine_fill_band (double             *sums,
                               double             *rates,
                               guint               width,
                               double              ticks,
                               SextantMachineCell *cells)
{
  double run[SEXTANT_N_CATEGORIES] = { 0 };
  double scale = 255.0 / ticks;

  for (guint x = 0; x < width; x++)
    {
      double *sum = sums + (gsize)x * SEXTANT_N_CATEGORIES;
      double *rate = rates + (gsize)x * SEXTANT_N_CATEGORIES;

      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        {
          double v;

          run[c] += rate[c];
          v = (sum[c] + run[c]) * scale + 0.5;
          cells[x].share[c] = v <= 0.0 ? 0 : v >= 255.0 ? 255 : (guint8)v;
          sum[c] = 0.0;
          rate[c] = 0.0;
        }
    }
  memset (rates + (gsize)width * SEXTANT_N_CATEGORIES, 0, sizeof (double) * SEXTANT_N_CATEGORIES);
}

guint
sextant_lod_reader_pick_machine_level (SextantLodReader *self,
                                       guint             n_locs,
                                       gint64            t0,
                                       gint64            t1,
                                       guint             width)
{
  double per_loc = 128.0 * MAX (width, 1) / MAX (n_locs, 1);   /* buckets a location may read */
  gint64 span = MAX (t1 - t0, 1);
  guint level = sextant_lod_reader_pick_level (self, (double)span / MAX (width, 1));

  while (level + 1 < self->n_levels && (double)span / (double)(self->base << level) + 1 > per_loc)
    level++;

  return level;
}

gboolean
sextant_lod_reader_read_machine (SextantLodReader   *self,
                                 const gint64       *locs,
                                 guint               n_locs,
                                 guint               n_bands,
                                 gint64              t0,
                                 gint64              t1,
                                 guint               width,
                                 SextantMachineCell *cells,
                                 GError            **error)
{
  g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  g_autofree double *sums = NULL;
  g_autofree double *rates = NULL;
  double column;
  guint level;

  g_return_val_if_fail (locs != NULL || n_locs == 0, FALSE);
  g_return_val_if_fail (cells != NULL, FALSE);

  if (n_bands == 0 || width == 0)
    return TRUE;
  memset (cells, 0, sizeof (SextantMachineCell) * n_bands * width);
  if (t1 <= t0 || n_locs == 0)
    return TRUE;

  level = sextant_lod_reader_pick_machine_level (self, n_locs, t0, t1, width);
  if (!sextant_lod_reader_prefetch (self, locs, n_locs, level, error))
    return FALSE;

  column = (double)(t1 - t0) / width;
  sums = g_new0 (double, (gsize)width * SEXTANT_N_CATEGORIES);
  rates = g_new0 (double, (gsize)(width + 1) * SEXTANT_N_CATEGORIES);
  for (guint b = 0; b < n_bands; b++)
    {
      guint lo = (guint)((guint64)b * n_locs / n_bands);
      guint hi = (guint)((guint64)(b + 1) * n_locs / n_bands);

      if (hi == lo)
        continue;
      for (guint i = lo; i < hi; i++)
        {
          g_array_set_size (buckets, 0);
          if (!sextant_lod_reader_read (self, locs[i], level, t0, t1, buckets, error))
            return FALSE;
          sextant_lod_machine_add_buckets (buckets, t0, t1, width, column, sums, rates);
        }
      sextant_lod_machine_fill_band (sums, rates, width, column * (hi - lo), cells + (gsize)b * width);
    }

  return TRUE;
}
