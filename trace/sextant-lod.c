/*
 * sextant-lod.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds the per-location level-of-detail pyramid (table `lod`).
 *
 * The time span of the trace is cut into 2^B base buckets of
 * meta.lod_base_ticks each (level 0); a bucket of level k covers 2^k base
 * buckets, so level B is one bucket for the whole run. For each bucket the
 * pyramid keeps the exclusive time of each category (MPI, RMA, user, ...),
 * the time covered by any visit, and the region with the most exclusive time.
 * A view that shows N pixels picks the level whose buckets are about one
 * pixel wide and reads at most N rows per location, at any zoom.
 *
 * Workload: when the clock properties give the run's length, the location
 * decoders feed each location's exclusive intervals (the time its innermost
 * open visit runs) to a builder while they read the events; otherwise one
 * sequential pass over each location's stored visits in enter order does it
 * afterwards. Level 0 is accumulated from the intervals, every higher level
 * from the buckets below it as they close. Memory is one open bucket per
 * level.
 */
#include "config.h"

#include "sextant-chunk-writer.h"
#include "sextant-lod.h"

/* row ids of lod: (loc << 32) | (level << 26) | n, so that every chunk holds
 * one level of one location in bucket order */
#define LOD_LOC_SHIFT   32
#define LOD_LEVEL_SHIFT 26

/* Every level of every location buffers its own chunk, and a view reads a
 * few hundred buckets at a time: small chunks keep both cheap. */
#define LOD_CHUNK_ROWS  512

/* Exclusive time per region inside one bucket: a small open-addressing
 * table (a bucket sees a handful of regions), cleared slot by slot. A
 * slot's key and time share a cache line. */
typedef struct
{
  guint32  key;            /* region + 1, 0 for an empty slot */
  gint64   ticks;
} RegionSum;

typedef struct
{
  guint      cap;          /* power of two */
  guint      n;
  RegionSum *slots;
  guint     *used;         /* the occupied slots, in insertion order */
} RegionSums;

typedef struct
{
  gboolean    open;
  gint64      index;
  gint64      busy;
  gint64      t[SEXTANT_N_CATEGORIES];
  RegionSums  regions;
} Bucket;

typedef struct
{
  guint32 region;
  gint64  leave;
} Open;

struct _SextantLodBuilder
{
  SextantImport *import;
  guint32        loc;
  gint64         origin;     /* ticks of the start of bucket 0 */
  gint64         base;       /* ticks per base bucket */
  guint          n_levels;
  Bucket        *levels;
  SextantChunkWriter **rows; /* per level */
  GArray        *stack;      /* Open (the post-pass only) */
  gint64         cursor;
  gint64         open_begin; /* the time the open base bucket covers, when it */
  gint64         open_end;   /* is open (the intervals mostly fall inside) */
};

typedef SextantLodBuilder LodBuilder;

static void
sums_init (RegionSums *sums,
           guint       cap)
{
  sums->cap = cap;
  sums->n = 0;
  sums->slots = g_new0 (RegionSum, cap);
  sums->used = g_new (guint, cap);
}

static void
sums_clear (RegionSums *sums)
{
  g_free (sums->slots);
  g_free (sums->used);
}

static void
sums_reset (RegionSums *sums)
{
  for (guint i = 0; i < sums->n; i++)
    sums->slots[sums->used[i]].key = 0;
  sums->n = 0;
}

static void sums_insert (RegionSums *sums, guint32 region, gint64 ticks);

static void
sums_grow (RegionSums *sums)
{
  RegionSums bigger;

  sums_init (&bigger, sums->cap * 2);
  for (guint i = 0; i < sums->n; i++)
    sums_insert (&bigger, sums->slots[sums->used[i]].key - 1, sums->slots[sums->used[i]].ticks);
  sums_clear (sums);
  *sums = bigger;
}

/* Adds a region not in the table. */
static void
sums_insert (RegionSums *sums,
             guint32     region,
             gint64      ticks)
{
  guint slot;

  if (2 * (sums->n + 1) > sums->cap)
    sums_grow (sums);

  for (slot = (region * 2654435761u) & (sums->cap - 1); sums->slots[slot].key != 0; slot = (slot + 1) & (sums->cap - 1))
    ;
  sums->slots[slot].key = region + 1;
  sums->slots[slot].ticks = ticks;
  sums->used[sums->n++] = slot;
}

/* The look-up inline (an add per interval and per region of a closing
 * bucket), the insertion not. */
static inline void
sums_add (RegionSums *sums,
          guint32     region,
          gint64      ticks)
{
  guint mask = sums->cap - 1;

  for (guint slot = (region * 2654435761u) & mask; sums->slots[slot].key != 0; slot = (slot + 1) & mask)
    if (sums->slots[slot].key == region + 1)
      {
        sums->slots[slot].ticks += ticks;
        return;
      }

  sums_insert (sums, region, ticks);
}

static void
bucket_open (Bucket *bucket,
             gint64  index)
{
  bucket->open = TRUE;
  bucket->index = index;
  bucket->busy = 0;
  memset (bucket->t, 0, sizeof bucket->t);
  sums_reset (&bucket->regions);
}

static gboolean flush_level (LodBuilder *self, guint level, GError **error);

/* Makes @index the open bucket of @level, closing the one before. */
static gboolean
ensure_bucket (LodBuilder  *self,
               guint        level,
               gint64       index,
               GError     **error)
{
  Bucket *bucket = &self->levels[level];

  if (bucket->open && bucket->index == index)
    return TRUE;
  if (bucket->open && !flush_level (self, level, error))
    return FALSE;
  bucket_open (bucket, index);

  return TRUE;
}

static gboolean
flush_level (LodBuilder  *self,
             guint        level,
             GError     **error)
{
  Bucket *bucket = &self->levels[level];
  const RegionSums *sums = &bucket->regions;
  guint32 dominant = 0;
  gint64 best = -1;

  g_assert (bucket->open);
  bucket->open = FALSE;

  if (bucket->busy == 0)
    return TRUE;

  for (guint i = 0; i < sums->n; i++)
    {
      guint slot = sums->used[i];
      guint32 region = sums->slots[slot].key - 1;
      gint64 ticks = sums->slots[slot].ticks;

      /* ties go to the smaller region id, so the result does not depend on
       * the order the regions came in */
      if (ticks > best || (ticks == best && region < dominant))
        {
          best = ticks;
          dominant = region;
        }
    }

  {
    gint64 row[SEXTANT_LOD_N_COLUMNS] = {
      [SEXTANT_LOD_LOC] = self->loc,
      [SEXTANT_LOD_LEVEL] = level,
      [SEXTANT_LOD_BUCKET] = bucket->index,
      [SEXTANT_LOD_REGION] = dominant,
      [SEXTANT_LOD_BUSY] = bucket->busy,
    };

    for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
      row[SEXTANT_LOD_T_FIRST + c] = bucket->t[c];
    if (sextant_chunk_writer_append (self->rows[level], row, error) < 0)
      return FALSE;
  }

  if (level + 1 < self->n_levels)
    {
      Bucket *parent = &self->levels[level + 1];

      if (!ensure_bucket (self, level + 1, bucket->index >> 1, error))
        return FALSE;

      parent->busy += bucket->busy;
      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        parent->t[c] += bucket->t[c];
      for (guint i = 0; i < sums->n; i++)
        sums_add (&parent->regions, sums->slots[sums->used[i]].key - 1, sums->slots[sums->used[i]].ticks);
    }

  return TRUE;
}

/* Adds the exclusive interval [t0, t1) of @region to the base level. */
static gboolean
add_interval (LodBuilder       *self,
              gint64            t0,
              gint64            t1,
              guint32           region,
              SextantCategory   category,
              GError          **error)
{
  if (t1 <= t0)
    return TRUE;

  if (self->levels[0].open && t0 >= self->open_begin && t1 <= self->open_end)
    {
      Bucket *bucket = &self->levels[0];

      bucket->busy += t1 - t0;
      bucket->t[category] += t1 - t0;
      sums_add (&bucket->regions, region, t1 - t0);
      return TRUE;
    }

  for (gint64 index = (t0 - self->origin) / self->base; ; index++)
    {
      gint64 bucket_end = self->origin + (index + 1) * self->base;
      gint64 piece = MIN (t1, bucket_end) - t0;
      Bucket *bucket = &self->levels[0];

      if (!ensure_bucket (self, 0, index, error))
        return FALSE;
      self->open_begin = self->origin + index * self->base;
      self->open_end = bucket_end;

      bucket->busy += piece;
      bucket->t[category] += piece;
      sums_add (&bucket->regions, region, piece);

      t0 += piece;
      if (t0 >= t1)
        return TRUE;
    }
}

static SextantCategory
category_of (LodBuilder *self,
             guint32     region)
{
  const SextantRegionDef *def = g_hash_table_lookup (self->import->regions, GUINT_TO_POINTER (region));

  return def != NULL ? def->category : SEXTANT_CATEGORY_OTHER;
}

static gboolean
pop_until (LodBuilder  *self,
           gint64       t,
           GError     **error)
{
  while (self->stack->len > 0)
    {
      Open *top = &g_array_index (self->stack, Open, self->stack->len - 1);

      if (top->leave > t)
        break;
      if (!add_interval (self, self->cursor, top->leave, top->region, category_of (self, top->region), error))
        return FALSE;
      self->cursor = MAX (self->cursor, top->leave);
      g_array_set_size (self->stack, self->stack->len - 1);
    }

  return TRUE;
}

static gboolean
visit_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  LodBuilder *self = user_data;
  Open visit = { (guint32)sextant_row_get_int (row, 0), sextant_row_get_int (row, 2) };
  gint64 enter = sextant_row_get_int (row, 1);

  if (!pop_until (self, enter, error))
    return FALSE;

  if (self->stack->len > 0 &&
      !add_interval (self, self->cursor, enter,
                     g_array_index (self->stack, Open, self->stack->len - 1).region,
                     category_of (self, g_array_index (self->stack, Open, self->stack->len - 1).region), error))
    return FALSE;

  g_array_append_val (self->stack, visit);
  self->cursor = enter;

  return TRUE;
}

/**
 * _sextant_lod_builder_new:
 *
 * A pyramid builder for location @loc with the geometry of the import.
 * Feed it the exclusive intervals of the location in time order.
 */
SextantLodBuilder *
_sextant_lod_builder_new (SextantImport *import,
                          guint32        loc)
{
  LodBuilder *self = g_new0 (LodBuilder, 1);

  self->import = import;
  self->loc = loc;
  self->origin = import->lod_origin;
  self->base = import->lod_base_ticks;
  self->n_levels = import->lod_levels;
  self->levels = g_new0 (Bucket, self->n_levels);
  self->rows = g_new0 (SextantChunkWriter *, self->n_levels);
  for (guint level = 0; level < self->n_levels; level++)
    {
      sums_init (&self->levels[level].regions, 16);
      self->rows[level] = sextant_chunk_writer_new_queued (import->chunks, SEXTANT_CHUNK_LOD, SEXTANT_LOD_N_COLUMNS,
                                                    ((gint64)loc << LOD_LOC_SHIFT) |
                                                    ((gint64)level << LOD_LEVEL_SHIFT),
                                                    LOD_CHUNK_ROWS);
    }
  self->stack = g_array_new (FALSE, FALSE, sizeof (Open));
  self->cursor = G_MININT64;

  return self;
}

void
_sextant_lod_builder_free (SextantLodBuilder *self)
{
  for (guint level = 0; level < self->n_levels; level++)
    {
      sums_clear (&self->levels[level].regions);
      sextant_chunk_writer_free (self->rows[level]);
    }
  g_free (self->levels);
  g_free (self->rows);
  g_array_unref (self->stack);
  g_free (self);
}

/* The exclusive interval [t0, t1) of @region. */
gboolean
_sextant_lod_builder_add (SextantLodBuilder  *self,
                          gint64              t0,
                          gint64              t1,
                          guint32             region,
                          SextantCategory     category,
                          GError            **error)
{
  return add_interval (self, t0, t1, region, category, error);
}

/* Writes the buckets still open. */
gboolean
_sextant_lod_builder_finish (SextantLodBuilder  *self,
                             GError            **error)
{
  for (guint level = 0; level < self->n_levels; level++)
    if (self->levels[level].open && !flush_level (self, level, error))
      return FALSE;

  for (guint level = 0; level < self->n_levels; level++)
    if (!sextant_chunk_writer_flush (self->rows[level], error))
      return FALSE;

  return TRUE;
}

static guint
lod_bits (gint64 max_events)
{
  guint bits = SEXTANT_LOD_MIN_BITS;

  while (bits < SEXTANT_LOD_MAX_BITS && (max_events >> bits) > 32)
    bits++;

  return bits;
}

/**
 * _sextant_lod_plan:
 *
 * Decides the pyramid's geometry before the events are read, when the
 * archive's clock properties give the length of the run: then the decoders
 * build it as they go (import->lod_streaming). Otherwise _sextant_lod_build()
 * builds it afterwards from the stored visits.
 */
void
_sextant_lod_plan (SextantImport *import)
{
  gint64 max_events = 0;
  guint bits;

  for (guint i = 0; i < import->locations->len; i++)
    max_events = MAX (max_events, (gint64)g_array_index (import->locations, SextantLocationDef, i).n_events);
  bits = lod_bits (max_events);

  import->lod_streaming = import->have_clock && import->trace_length > 0 && import->trace_length < G_MAXINT64 / 2;
  if (!import->lod_streaming)
    return;

  import->lod_origin = 0;
  import->lod_base_ticks = MAX (1, ((gint64)import->trace_length + ((gint64)1 << bits)) >> bits);
  import->lod_levels = bits + 1;
}

static gboolean
build_location (LodBuilder  *self,
                gint64       first_visit,
                gint64       last_visit,
                GError     **error)
{
  if (!sextant_store_foreach (self->import->store, SEXTANT_QUERY_LOCATION_VISITS, visit_row, self,
                              error, "ii", first_visit, last_visit) ||
      !pop_until (self, G_MAXINT64, error))
    return FALSE;

  return _sextant_lod_builder_finish (self, error);
}

typedef struct
{
  gboolean have;
  gint64   t_min;
  gint64   t_max;
  gint64   max_events;
} Span;

static gboolean
span_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  Span *span = user_data;

  span->have = !sextant_row_is_null (row, 0);
  span->t_min = sextant_row_get_int (row, 0);
  span->t_max = sextant_row_get_int (row, 1);
  span->max_events = sextant_row_get_int (row, 2);

  return TRUE;
}

static gboolean
location_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  SextantImport *import = user_data;
  g_autoptr(SextantLodBuilder) builder = _sextant_lod_builder_new (import, (guint32)sextant_row_get_int (row, 0));

  return build_location (builder, sextant_row_get_int (row, 1), sextant_row_get_int (row, 2), error) &&
         sextant_chunk_queue_write (import->chunks, error);
}

/**
 * _sextant_lod_build:
 *
 * Completes the pyramid after the events were decoded: builds it from the
 * stored visits unless the decoders built it already, and records its
 * geometry and the run's time span in meta (lod_origin, lod_base_ticks,
 * lod_levels, time_begin, time_end).
 */
gboolean
_sextant_lod_build (SextantImport  *import,
                    GError        **error)
{
  Span span = { FALSE };

  if (!sextant_store_foreach (import->store, SEXTANT_QUERY_TIME_SPAN, span_row, &span, error, ""))
    return FALSE;

  if (!import->lod_streaming)
    {
      guint bits = lod_bits (span.max_events);

      import->lod_origin = span.have ? span.t_min : 0;
      import->lod_base_ticks = span.have ? MAX (1, (span.t_max - span.t_min + ((gint64)1 << bits)) >> bits) : 1;
      import->lod_levels = bits + 1;

      if (!sextant_store_foreach (import->store, SEXTANT_QUERY_LOCATION_VISIT_RANGES, location_row, import,
                                  error, ""))
        return FALSE;
    }

  return sextant_store_run (import->store, SEXTANT_STMT_META, error, "ti", "time_begin",
                            span.have ? span.t_min : 0) &&
         sextant_store_run (import->store, SEXTANT_STMT_META, error, "ti", "time_end",
                            span.have ? span.t_max : 0) &&
         sextant_store_run (import->store, SEXTANT_STMT_META, error, "ti", "lod_origin", import->lod_origin) &&
         sextant_store_run (import->store, SEXTANT_STMT_META, error, "ti", "lod_base_ticks",
                            import->lod_base_ticks) &&
         sextant_store_run (import->store, SEXTANT_STMT_META, error, "ti", "lod_levels",
                            (gint64)import->lod_levels);
}
