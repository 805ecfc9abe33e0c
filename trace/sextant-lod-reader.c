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
 *
 * This file is the reader itself, the pyramid (read, prefetch, levels,
 * caches) and the column tables read by chunk; the visits past the
 * pyramid, the messages, the SQL-bounded reads (collectives, lost time,
 * one-sided operations, window synchronisation) and the whole-machine
 * picture are in sextant-lod-reader-visits.c, -messages.c, -rma.c and
 * -machine.c, what they share in sextant-lod-reader-private.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-chunk-row.h"
#include "sextant-lod-reader-private.h"

/* The chunks of one level of one location, in bucket order, or its
 * buckets computed from its visits when it does not store the level */
typedef struct
{
  GArray  *chunks;   /* of Chunk */
  GArray  *computed; /* of SextantLodBucket, or NULL */
  gint64   lo, hi;   /* the buckets computed: [lo, hi] (none: hi < lo) */
  gsize    bytes;
  guint64  used;
} Level;

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

void
_sextant_lod_chunk_table_clear (ChunkTable *table)
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
  _sextant_lod_chunk_table_clear (data);
  g_free (data);
}

static void
level_free (gpointer data)
{
  Level *level = data;

  for (guint i = 0; i < level->chunks->len; i++)
    g_bytes_unref (g_array_index (level->chunks, Chunk, i).blob);
  g_array_unref (level->chunks);
  g_clear_pointer (&level->computed, g_array_unref);
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
  self->firsts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->rma_span = -1;
  self->lock_span = -1;
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
  g_clear_pointer (&self->firsts, g_hash_table_unref);
  _sextant_lod_chunk_table_clear (&self->messages);
  g_clear_pointer (&self->visits, g_hash_table_unref);
  g_clear_pointer (&self->message_index, _sextant_lod_message_index_free);
  g_clear_pointer (&self->lost_index, _sextant_lod_lost_index_free);
  g_clear_pointer (&self->collective_index, _sextant_lod_collective_index_free);
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
  /* the level has no bucket past the pyramid's span */
  last = MIN ((t1 - 1 - self->origin) / data.ticks, ((gint64)1 << (self->n_levels - 1 - level)) - 1);
  if (first > last)
    return TRUE;

  /* room for every bucket of the range at once: the array is not grown
   * (and copied) row by row */
  {
    guint len = buckets->len;

    g_array_set_size (buckets, len + (guint)MIN (last - first + 1, 1 << 20));
    g_array_set_size (buckets, len);
  }

  /* a level the location does not store: from its visits' rows */
  if (!_sextant_lod_load_firsts (self, &loc, 1, error))
    return FALSE;
  if (level < _sextant_lod_first (self, loc))
    return _sextant_lod_first (self, loc) == LOD_FIRST_NONE ||
           _sextant_lod_compute_level (self, loc, level, first, last, FALSE, buckets, error);

  return sextant_store_foreach (self->store, SEXTANT_QUERY_LOD_BUCKETS, bucket_row, &data, error,
                                "iiii", loc, (gint64)level, first, last);
}

/* The pyramid's chunks ----------------------------------------------------------- */

/* a lod chunk's first row: (loc << 32) | (level << 26) | n; shifted
 * unsigned: a damaged store's location id may be negative */
#define LOD_ROW(loc, level) ((gint64)(((guint64)(loc) << 32) | ((guint64)(level) << 26)))
#define LEVEL_KEY(loc, level) ((gint64)(((guint64)(loc) << 6) | (guint64)(level)))

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
  memset (chunk, 0, sizeof *chunk);
  chunk->first_row = sextant_row_get_int (row, SEXTANT_CHUNK_ROW_FIRST_ROW);

  return sextant_chunk_row_parse_header (row, n_cols, &chunk->chunk, error) &&
         (!with_data || sextant_chunk_row_attach_data (row, &chunk->chunk, &chunk->blob, error));
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
  g_autoptr(GArray) sparse = g_array_new (FALSE, FALSE, sizeof (gint64));
  LoadData data = { self, level };
  guint n_missing = 0;
  guint64 now;
  gboolean ok;

  if (!_sextant_lod_load_firsts (self, locs, n_locs, error))
    return FALSE;
  now = ++self->clock;
  for (guint i = 0; i < n_locs; i++)
    {
      gint64 key = LEVEL_KEY (locs[i], level);
      Level *entry = g_hash_table_lookup (self->levels, &key);

      if (entry == NULL)
        {
          guint first = _sextant_lod_first (self, locs[i]);

          entry = g_new0 (Level, 1);
          entry->chunks = g_array_new (FALSE, FALSE, sizeof (Chunk));
          g_hash_table_insert (self->levels, g_memdup2 (&key, sizeof key), entry);
          /* a level the location stores; none at all: nothing ran there */
          if (level >= first && first != LOD_FIRST_NONE)
            g_string_append_printf (missing, "%s%" G_GINT64_FORMAT, n_missing++ > 0 ? "," : "", locs[i]);
          else if (first != LOD_FIRST_NONE)
            g_array_append_val (sparse, locs[i]);
        }
      entry->used = now;
    }
  g_string_append_c (missing, ']');
  ok = n_missing == 0 ||
       sextant_store_foreach_sql (self->store, lod_chunks_sql, lod_chunk_row, &data, error, "ti", missing->str,
                                  (gint64)level);
  /* the levels below a location's first: computed from its visits as
   * reads ask for their buckets (cover()) */
  for (guint i = 0; ok && i < sparse->len; i++)
    {
      gint64 key = LEVEL_KEY (g_array_index (sparse, gint64, i), level);
      Level *entry = g_hash_table_lookup (self->levels, &key);

      entry->computed = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
      entry->lo = 0;
      entry->hi = -1;
    }
  if (!ok)
    {
      /* nothing half read stays */
      for (guint i = 0; i < n_locs; i++)
        {
          gint64 key = LEVEL_KEY (locs[i], level);
          Level *entry = g_hash_table_lookup (self->levels, &key);

          if (entry != NULL && entry->used == now)
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

/* The first row of [@lo, @hi) of @chunk whose column @col is at least
 * @value (@hi: none), the column sorted there */
guint
_sextant_lod_lower_bound (const SextantChunk *chunk,
                          guint               col,
                          guint               lo,
                          guint               hi,
                          gint64              value)
{
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

/* A bucket in gint64 fields, for sextant_chunk_get_range() */
#define STRIDE (sizeof (SextantLodBucket) / sizeof (gint64))
G_STATIC_ASSERT (sizeof (SextantLodBucket) % sizeof (gint64) == 0);

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

  if (entry->computed != NULL)
    {
      const SextantLodBucket *all = (const SextantLodBucket *)(void *)entry->computed->data;
      guint lo = 0, hi = entry->computed->len, end;

      /* the first bucket at or after @first, then those up to @last */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (all[mid].bucket < first)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (end = lo; end < entry->computed->len && all[end].bucket <= last; end++)
        ;
      /* none computed: no data pointer to offset */
      if (end > lo)
        g_array_append_vals (buckets, all + lo, end - lo);
      return;
    }

  for (guint i = 0; i < entry->chunks->len; i++)
    {
      const SextantChunk *chunk = &g_array_index (entry->chunks, Chunk, i).chunk;
      guint r, end;

      if (chunk->n_rows == 0 || chunk->cols[SEXTANT_LOD_BUCKET].max < first)
        continue;
      if (chunk->cols[SEXTANT_LOD_BUCKET].min > last)
        break;
      r = _sextant_lod_lower_bound (chunk, SEXTANT_LOD_BUCKET, 0, chunk->n_rows, first);
      /* rows [r, end): each column decoded in one pass into the buckets */
      end = _sextant_lod_lower_bound (chunk, SEXTANT_LOD_BUCKET, r, chunk->n_rows, last + 1);
      if (end > r)
        {
          guint n = end - r, at = buckets->len;
          SextantLodBucket *out;

          g_array_set_size (buckets, at + n);
          out = &g_array_index (buckets, SextantLodBucket, at);
          sextant_chunk_get_range (chunk, SEXTANT_LOD_BUCKET, r, n, &out->bucket, STRIDE);
          sextant_chunk_get_range (chunk, SEXTANT_LOD_REGION, r, n, &out->region, STRIDE);
          sextant_chunk_get_range (chunk, SEXTANT_LOD_BUSY, r, n, &out->busy, STRIDE);
          for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
            sextant_chunk_get_range (chunk, SEXTANT_LOD_T_FIRST + c, r, n, &out->time[c], STRIDE);
          for (guint k = 0; k < n; k++)
            {
              out[k].begin = self->origin + out[k].bucket * ticks;
              out[k].end = out[k].begin + ticks;
            }
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

/* Computes the buckets [@first, @last] of a level @entry of @loc that the
 * location does not store, where they are not computed yet: the range
 * computed grows by what a read adds to it on either side */
static gboolean
cover (SextantLodReader  *self,
       Level             *entry,
       gint64             loc,
       guint              level,
       gint64             first,
       gint64             last,
       GError           **error)
{
  g_autoptr(GArray) before = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  guint len = entry->computed->len;

  last = MIN (last, ((gint64)1 << (self->n_levels - 1 - level)) - 1);
  if (first > last)
    return TRUE;
  if (entry->hi < entry->lo)
    {
      if (!_sextant_lod_compute_level (self, loc, level, first, last, TRUE, entry->computed, error))
        {
          g_array_set_size (entry->computed, 0);
          return FALSE;
        }
      entry->lo = first;
      entry->hi = last;
    }
  else
    {
      if (first < entry->lo &&
          !_sextant_lod_compute_level (self, loc, level, first, entry->lo - 1, TRUE, before, error))
        return FALSE;
      if (last > entry->hi &&
          !_sextant_lod_compute_level (self, loc, level, entry->hi + 1, last, TRUE, entry->computed, error))
        {
          g_array_set_size (entry->computed, len);
          return FALSE;
        }
      g_array_prepend_vals (entry->computed, before->data, before->len);
      entry->lo = MIN (entry->lo, first);
      entry->hi = MAX (entry->hi, last);
    }
  entry->bytes += (entry->computed->len - len) * sizeof (SextantLodBucket);
  self->level_bytes += (entry->computed->len - len) * sizeof (SextantLodBucket);

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
  if (entry->computed != NULL && !cover (self, entry, loc, level, first, last, error))
    return FALSE;
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
  gsize index = self->message_index == NULL ? 0 : _sextant_lod_message_index_bytes (self->message_index);

  if (self->lost_index != NULL)
    index += _sextant_lod_lost_index_bytes (self->lost_index);
  if (self->collective_index != NULL)
    index += _sextant_lod_collective_index_bytes (self->collective_index);

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
gboolean
_sextant_lod_chunk_table_load (SextantLodReader  *self,
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
const SextantChunk *
_sextant_lod_chunk_table_get (SextantLodReader  *self,
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

typedef struct
{
  guint      n_cols;
  ChunkFunc  func;
  gpointer   user_data;
} ChunkForeachData;

static gboolean
chunk_foreach_row (const SextantRow  *row,
                   gpointer           user_data,
                   GError           **error)
{
  ChunkForeachData *data = user_data;
  Chunk chunk;
  gsize size = 0;
  const void *bytes;

  if (!parse_chunk (row, data->n_cols, FALSE, &chunk, error))
    return FALSE;
  /* the row's data as SQLite holds it, for this call */
  bytes = sextant_row_get_blob (row, 3, &size);
  if (!sextant_chunk_attach_data (&chunk.chunk, bytes, size))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA, "chunk at row %" G_GINT64_FORMAT
                   " is damaged", chunk.first_row);
      return FALSE;
    }

  return data->func (&chunk.chunk, chunk.first_row, data->user_data, error);
}

gboolean
_sextant_lod_chunk_table_foreach (SextantLodReader  *self,
                                  const char        *name,
                                  guint              n_cols,
                                  ChunkFunc          func,
                                  gpointer           user_data,
                                  GError           **error)
{
  g_autofree char *sql = g_strdup_printf ("SELECT first_row, n, header, data FROM %s_chunk ORDER BY first_row", name);
  ChunkForeachData data = { n_cols, func, user_data };

  return sextant_store_foreach_sql (self->store, sql, chunk_foreach_row, &data, error, "");
}

gboolean
_sextant_lod_take_id (const SextantRow  *row,
                      gpointer           user_data,
                      GError           **error)
{
  *(gint64 *)user_data = sextant_row_get_int (row, 0);

  return TRUE;
}
