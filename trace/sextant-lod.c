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
 * afterwards. The location's first level is accumulated from the
 * intervals, every higher level from the buckets below it as they close.
 * Memory is one open bucket per level.
 *
 * A location with few events starts coarser (_sextant_lod_first_level()):
 * its first level is the finest whose buckets hold at least
 * SEXTANT_LOD_MIN_EVENTS of its events on average, the levels below it are
 * not stored, and the lod reader computes them from its visits when a view
 * asks for them (sextant-lod-reader-sparse.c). Its rows per event are then
 * those of the busiest location, whatever the number of locations: at
 * 4096 ranks of 2,466 events each, 255 rows a location instead of 511.
 * SEXTANT_LOD_DENSE=1 in the environment stores every level (the tests
 * compare the two).
 */
#include "config.h"

#include "sextant-chunk-queue.h"
#include "sextant-lod.h"

/* row ids of lod: (loc << 32) | (level << 26) | n, so that every chunk holds
 * one level of one location in bucket order */
#define LOD_LOC_SHIFT   32
#define LOD_LEVEL_SHIFT 26

/* Every level of every location buffers its own chunk, and a view reads a
 * few hundred buckets at a time: small chunks keep both cheap. */
#define LOD_CHUNK_ROWS  512

/* Region ids below this get their slot from an array, the others from a
 * hash table (OTF2 numbers regions densely from 0, so that is rare). */
#define LOD_DENSE_REGIONS 65536

/* A level's open bucket. The exclusive time per region is kept by the
 * location's slot of the region (the builder numbers the regions it meets
 * 0, 1, ...): ticks[slot], and the slots with time in `used`. Adding is one
 * index, closing a bucket a pass over `used`. */
typedef struct
{
  gboolean open;
  gint64   index;
  gint64   busy;
  gint64   t[SEXTANT_N_CATEGORIES];
  guint    n_used;
  guint32 *used;
  gint64  *ticks;
} Bucket;

typedef struct
{
  guint32 region;
  gint64  leave;
} Open;

typedef struct _LodRows LodRows;

struct _SextantLodBuilder
{
  SextantImport *import;
  guint32        loc;
  gint64         origin;     /* ticks of the start of bucket 0 */
  gint64         base;       /* ticks per base bucket */
  gboolean       all_levels; /* every level from 0 (SEXTANT_LOD_DENSE) */
  guint          first;      /* the location's first level */
  gint64         width;      /* ticks per bucket of the first level */
  gint64         end;        /* ticks of the end of the top bucket */
  guint          n_levels;
  Bucket        *levels;
  LodRows       *rows;       /* per level */
  guint          n_slots;
  guint          slot_cap;   /* of every level's `used` and `ticks` */
  guint32       *regions;    /* slot -> region */
  guint32       *dense;      /* region -> slot + 1 (0: none yet), for small ids */
  guint          n_dense;
  GHashTable    *sparse;     /* region -> slot + 1, for the others */
  GArray        *stack;      /* Open (the post-pass only) */
  gint64         cursor;
  gint64         open_begin; /* the time the first level's open bucket covers, when it */
  gint64         open_end;   /* is open (the intervals mostly fall inside) */
};

typedef SextantLodBuilder LodBuilder;

/* The rows of a level not written yet, one after the other: a pyramid row
 * is final when it is made, so it needs none of a chunk writer's
 * bookkeeping. A level's rows are ids first_row on, in bucket order. */
struct _LodRows
{
  gint64   first_row;
  guint    n;
  guint    capacity;     /* grows to LOD_CHUNK_ROWS: most levels hold few */
  gint64  *values;       /* n rows of SEXTANT_LOD_N_COLUMNS */
};

/* Queues the rows of @rows as one chunk. */
static void
rows_write (LodBuilder *self,
            LodRows    *rows)
{
  const gint64 *cols[SEXTANT_LOD_N_COLUMNS];

  if (rows->n == 0)
    return;
  for (guint c = 0; c < SEXTANT_LOD_N_COLUMNS; c++)
    cols[c] = rows->values + c;
  sextant_chunk_queue_push (self->import->chunks, SEXTANT_CHUNK_LOD, rows->first_row, cols, SEXTANT_LOD_N_COLUMNS,
                            NULL, SEXTANT_LOD_N_COLUMNS, rows->n);
  rows->first_row += rows->n;
  rows->n = 0;
}

static gint64 *
rows_add (LodBuilder *self,
          LodRows    *rows)
{
  if (rows->n == LOD_CHUNK_ROWS)
    rows_write (self, rows);
  if (rows->n == rows->capacity)
    {
      rows->capacity = MIN (MAX (64, rows->capacity * 2), LOD_CHUNK_ROWS);
      rows->values = g_renew (gint64, rows->values, (gsize)rows->capacity * SEXTANT_LOD_N_COLUMNS);
    }

  return rows->values + (gsize)rows->n++ * SEXTANT_LOD_N_COLUMNS;
}

/* A new slot for @region, in every level. */
static guint
new_slot (LodBuilder *self,
          guint32     region)
{
  if (self->n_slots == self->slot_cap)
    {
      guint cap = MAX (16, self->slot_cap * 2);

      for (guint level = 0; level < self->n_levels; level++)
        {
          Bucket *bucket = &self->levels[level];

          bucket->used = g_renew (guint32, bucket->used, cap);
          bucket->ticks = g_renew (gint64, bucket->ticks, cap);
          memset (bucket->ticks + self->slot_cap, 0, (cap - self->slot_cap) * sizeof (gint64));
        }
      self->regions = g_renew (guint32, self->regions, cap);
      self->slot_cap = cap;
    }
  self->regions[self->n_slots] = region;

  return self->n_slots++;
}

static guint
slot_of (LodBuilder *self,
         guint32     region)
{
  guint slot;

  if (G_LIKELY (region < self->n_dense && self->dense[region] != 0))
    return self->dense[region] - 1;

  if (region < LOD_DENSE_REGIONS)
    {
      if (region >= self->n_dense)
        {
          guint n = MAX (region + 1, MIN (MAX (64, self->n_dense * 2), LOD_DENSE_REGIONS));

          self->dense = g_renew (guint32, self->dense, n);
          memset (self->dense + self->n_dense, 0, (n - self->n_dense) * sizeof (guint32));
          self->n_dense = n;
        }
      slot = new_slot (self, region);
      self->dense[region] = slot + 1;
      return slot;
    }

  if (self->sparse == NULL)
    self->sparse = g_hash_table_new (NULL, NULL);
  slot = GPOINTER_TO_UINT (g_hash_table_lookup (self->sparse, GUINT_TO_POINTER (region)));
  if (slot != 0)
    return slot - 1;
  slot = new_slot (self, region);
  g_hash_table_insert (self->sparse, GUINT_TO_POINTER (region), GUINT_TO_POINTER (slot + 1));

  return slot;
}

/* Adds @ticks > 0 to @slot of @bucket. */
static inline void
bucket_add (Bucket *bucket,
            guint   slot,
            gint64  ticks)
{
  if (bucket->ticks[slot] == 0)
    bucket->used[bucket->n_used++] = slot;
  bucket->ticks[slot] += ticks;
}

static void
bucket_open (Bucket *bucket,
             gint64  index)
{
  bucket->open = TRUE;
  bucket->index = index;
  bucket->busy = 0;
  memset (bucket->t, 0, sizeof bucket->t);
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

/* Writes the open bucket of @level, adds it to the bucket above and empties
 * it. */
static gboolean
flush_level (LodBuilder  *self,
             guint        level,
             GError     **error)
{
  Bucket *bucket = &self->levels[level];
  Bucket *parent = level + 1 < self->n_levels ? &self->levels[level + 1] : NULL;
  guint32 dominant = 0;
  gint64 best = -1;

  g_assert (bucket->open);
  bucket->open = FALSE;

  if (bucket->busy == 0)
    {
      g_assert (bucket->n_used == 0);
      return TRUE;
    }

  for (guint i = 0; i < bucket->n_used; i++)
    {
      guint slot = bucket->used[i];
      guint32 region = self->regions[slot];
      gint64 ticks = bucket->ticks[slot];

      /* ties go to the smaller region id, so the result does not depend on
       * the order the regions came in */
      if (ticks > best || (ticks == best && region < dominant))
        {
          best = ticks;
          dominant = region;
        }
    }

  {
    gint64 *row = rows_add (self, &self->rows[level]);

    row[SEXTANT_LOD_LOC] = self->loc;
    row[SEXTANT_LOD_LEVEL] = level;
    row[SEXTANT_LOD_BUCKET] = bucket->index;
    row[SEXTANT_LOD_REGION] = dominant;
    row[SEXTANT_LOD_BUSY] = bucket->busy;
    for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
      row[SEXTANT_LOD_T_FIRST + c] = bucket->t[c];
  }

  if (parent != NULL)
    {
      if (!ensure_bucket (self, level + 1, bucket->index >> 1, error))
        return FALSE;

      parent->busy += bucket->busy;
      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        parent->t[c] += bucket->t[c];
    }
  for (guint i = 0; i < bucket->n_used; i++)
    {
      guint slot = bucket->used[i];

      if (parent != NULL)
        bucket_add (parent, slot, bucket->ticks[slot]);
      bucket->ticks[slot] = 0;
    }
  bucket->n_used = 0;

  return TRUE;
}

/* Adds the exclusive interval [t0, t1) of @region to the first level. */
static gboolean
add_interval (LodBuilder       *self,
              gint64            t0,
              gint64            t1,
              guint32           region,
              SextantCategory   category,
              GError          **error)
{
  Bucket *bucket = &self->levels[self->first];
  guint slot;

  /* the pyramid covers [origin, end): time outside it has no bucket, and
   * walking toward it would cost a bucket per base period, bounded by the
   * timestamps instead of the events */
  t0 = MAX (t0, self->origin);
  t1 = MIN (t1, self->end);
  if (t1 <= t0)
    return TRUE;

  slot = slot_of (self, region);
  if (bucket->open && t0 >= self->open_begin && t1 <= self->open_end)
    {
      bucket->busy += t1 - t0;
      bucket->t[category] += t1 - t0;
      bucket_add (bucket, slot, t1 - t0);
      return TRUE;
    }

  for (gint64 index = (t0 - self->origin) / self->width; ; index++)
    {
      gint64 bucket_end = self->origin + (index + 1) * self->width;
      gint64 piece = MIN (t1, bucket_end) - t0;

      if (!ensure_bucket (self, self->first, index, error))
        return FALSE;
      self->open_begin = self->origin + index * self->width;
      self->open_end = bucket_end;

      bucket->busy += piece;
      bucket->t[category] += piece;
      bucket_add (bucket, slot, piece);

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
  self->end = self->base <= (G_MAXINT64 - MAX (self->origin, 0)) >> (self->n_levels - 1)
              ? self->origin + (self->base << (self->n_levels - 1)) : G_MAXINT64;
  self->all_levels = g_getenv ("SEXTANT_LOD_DENSE") != NULL;
  self->levels = g_new0 (Bucket, self->n_levels);
  self->rows = g_new0 (LodRows, self->n_levels);
  self->stack = g_array_new (FALSE, FALSE, sizeof (Open));
  _sextant_lod_builder_restart (self, loc);

  return self;
}

void
_sextant_lod_builder_restart (SextantLodBuilder *self,
                              guint32            loc)
{
  self->loc = loc;
  /* a pyramid whose top bucket would overflow is stored whole */
  self->first = self->all_levels || self->end == G_MAXINT64 || loc >= self->import->locations->len
                ? 0
                : _sextant_lod_first_level (g_array_index (self->import->locations, SextantLocationDef, loc).n_events,
                                            self->n_levels);
  self->width = self->base << self->first;
  for (guint level = 0; level < self->n_levels; level++)
    {
      Bucket *bucket = &self->levels[level];

      bucket->open = FALSE;
      bucket->n_used = 0;
      if (bucket->ticks != NULL)
        memset (bucket->ticks, 0, self->slot_cap * sizeof (gint64));
      self->rows[level].first_row = ((gint64)loc << LOD_LOC_SHIFT) | ((gint64)level << LOD_LEVEL_SHIFT);
      self->rows[level].n = 0;
    }
  /* the regions get their slots in the order the location meets them */
  for (guint slot = 0; slot < self->n_slots; slot++)
    if (self->regions[slot] < self->n_dense)
      self->dense[self->regions[slot]] = 0;
  if (self->sparse != NULL)
    g_hash_table_remove_all (self->sparse);
  self->n_slots = 0;
  g_array_set_size (self->stack, 0);
  self->cursor = G_MININT64;
  self->open_begin = 0;
  self->open_end = 0;
}

void
_sextant_lod_builder_free (SextantLodBuilder *self)
{
  for (guint level = 0; level < self->n_levels; level++)
    {
      g_free (self->levels[level].used);
      g_free (self->levels[level].ticks);
      g_free (self->rows[level].values);
    }
  g_free (self->levels);
  g_free (self->rows);
  g_free (self->regions);
  g_free (self->dense);
  g_clear_pointer (&self->sparse, g_hash_table_unref);
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
  for (guint level = self->first; level < self->n_levels; level++)
    if (self->levels[level].open && !flush_level (self, level, error))
      return FALSE;

  for (guint level = self->first; level < self->n_levels; level++)
    rows_write (self, &self->rows[level]);

  return TRUE;
}

/**
 * _sextant_lod_first_level:
 *
 * The first level stored of a location of @n_events events (0: not known)
 * in a pyramid of @n_levels levels: the finest whose buckets hold at least
 * SEXTANT_LOD_MIN_EVENTS of them on average (the top level when none
 * does). The busiest location's is 0 when it has at least 16 << 8 events:
 * _sextant_lod_plan() gives it more than 16 events a base bucket then.
 */
guint
_sextant_lod_first_level (guint64 n_events,
                          guint   n_levels)
{
  guint first = 0;

  while (n_events > 0 && first + 1 < n_levels && (n_events >> (n_levels - 1 - first)) < SEXTANT_LOD_MIN_EVENTS)
    first++;

  return first;
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
