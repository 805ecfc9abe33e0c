/*
 * sextant-lod-reader-sparse.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's levels that a location does not store. The importer
 * starts the pyramid of a location with few events at a coarser level
 * (sextant-lod.c, _sextant_lod_first_level()); its first stored level is
 * that of its first `lod` chunk (row ids (loc << 32) | (level << 26) | n).
 * A finer level is computed here from the location's visits by the
 * builder's rules: the exclusive time of the innermost visit
 * (sextant_lod_reader_read_visits()) summed per bucket, per category and
 * per region, the dominant region the one with the most time (ties: the
 * smaller id), a bucket only where something ran, time outside the
 * pyramid's span left out. The buckets are those a dense pyramid holds.
 * Workload: the visits of the range; below its first level a location's
 * buckets hold fewer than SEXTANT_LOD_MIN_EVENTS events on average.
 */
#include "config.h"

#include "sextant-lod-reader-private.h"

/* every location asked for: the first lod row of each (NULL: none) */
static const char first_rows_sql[] =
  "SELECT j.value, (SELECT c.first_row FROM lod_chunk AS c "
  "                 WHERE c.first_row BETWEEN (j.value << 32) AND (j.value << 32) | 4294967295 "
  "                 ORDER BY c.first_row LIMIT 1) "
  "FROM json_each (?1) AS j";

static gboolean
first_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  SextantLodReader *self = user_data;
  gint64 loc = sextant_row_get_int (row, 0);
  guint first = LOD_FIRST_NONE;

  if (!sextant_row_is_null (row, 1))
    first = (guint)(((guint64)sextant_row_get_int (row, 1) >> 26) & 63);
  g_hash_table_insert (self->firsts, g_memdup2 (&loc, sizeof loc), GUINT_TO_POINTER (first + 1));

  return TRUE;
}

/* Reads the first stored level of those of @locs the reader does not
 * know yet, with one statement */
gboolean
_sextant_lod_load_firsts (SextantLodReader  *self,
                          const gint64      *locs,
                          guint              n_locs,
                          GError           **error)
{
  g_autoptr(GString) missing = g_string_new ("[");
  guint n_missing = 0;

  for (guint i = 0; i < n_locs; i++)
    if (!g_hash_table_contains (self->firsts, &locs[i]))
      g_string_append_printf (missing, "%s%" G_GINT64_FORMAT, n_missing++ > 0 ? "," : "", locs[i]);
  g_string_append_c (missing, ']');

  return n_missing == 0 ||
         sextant_store_foreach_sql (self->store, first_rows_sql, first_row, self, error, "t", missing->str);
}

/* The first level @loc stores (LOD_FIRST_NONE: it has no rows), known by
 * _sextant_lod_load_firsts() */
guint
_sextant_lod_first (SextantLodReader *self,
                    gint64            loc)
{
  guint first = GPOINTER_TO_UINT (g_hash_table_lookup (self->firsts, &loc));

  g_assert (first > 0);

  return first - 1;
}

/* The start of bucket @index of buckets of @ticks (saturated: a damaged
 * store's origin may be near the end of the clock) */
static gint64
bucket_time (SextantLodReader *self,
             gint64            ticks,
             gint64            index)
{
  gint64 offset = index * ticks;   /* within the top bucket: no overflow */

  return self->origin > G_MAXINT64 - offset ? G_MAXINT64 : self->origin + offset;
}

typedef struct
{
  gint64 region;
  gint64 ticks;
} RegionTime;

/* Appends @open to @out if anything ran in it, with its dominant region
 * among @regions, and empties both */
static void
close_bucket (SextantLodBucket *open,
              GArray           *regions,
              GArray           *out)
{
  gint64 best = -1;
  gint64 dominant = 0;

  if (open->busy > 0)
    {
      for (guint i = 0; i < regions->len; i++)
        {
          const RegionTime *r = &g_array_index (regions, RegionTime, i);

          /* as the builder: ties go to the smaller region id */
          if (r->ticks > best || (r->ticks == best && r->region < dominant))
            {
              best = r->ticks;
              dominant = r->region;
            }
        }
      open->region = dominant;
      g_array_append_val (out, *open);
    }
  memset (open, 0, sizeof *open);
  g_array_set_size (regions, 0);
}

static void
add_region (GArray *regions,
            gint64  region,
            gint64  ticks)
{
  RegionTime entry = { region, ticks };

  for (guint i = 0; i < regions->len; i++)
    if (g_array_index (regions, RegionTime, i).region == region)
      {
        g_array_index (regions, RegionTime, i).ticks += ticks;
        return;
      }
  g_array_append_val (regions, entry);
}

/**
 * _sextant_lod_compute_level:
 *
 * Appends to @out the buckets [@first, @last] of @level of location @loc
 * in which it ran, computed from its visits (read from their chunks when
 * @direct, else through SQLite's rows): what a pyramid that stores the
 * level holds.
 */
gboolean
_sextant_lod_compute_level (SextantLodReader  *self,
                            gint64             loc,
                            guint              level,
                            gint64             first,
                            gint64             last,
                            gboolean           direct,
                            GArray            *out,
                            GError           **error)
{
  g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (RegionTime));
  gint64 ticks = self->base << level;
  gint64 t0, t1;
  SextantLodBucket open = { 0 };

  /* the buckets of the pyramid's span: the builder leaves out the time
   * outside it */
  last = MIN (last, ((gint64)1 << (self->n_levels - 1 - level)) - 1);
  if (first > last)
    return TRUE;
  t0 = bucket_time (self, ticks, first);
  t1 = bucket_time (self, ticks, last + 1);
  if (!(direct ? sextant_lod_reader_read_visits (self, loc, t0, t1, pieces, error)
               : sextant_lod_reader_read_visits_rows (self, loc, t0, t1, pieces, error)))
    return FALSE;

  open.bucket = -1;
  for (guint i = 0; i < pieces->len; i++)
    {
      const SextantLodBucket *piece = &g_array_index (pieces, SextantLodBucket, i);
      guint category = SEXTANT_CATEGORY_OTHER;

      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        if (piece->time[c] != 0)
          category = c;
      for (gint64 a = piece->begin; a < piece->end; )
        {
          gint64 bucket = (a - self->origin) / ticks;
          gint64 bucket_end = bucket_time (self, ticks, bucket + 1);
          gint64 b = MIN (piece->end, bucket_end);

          if (bucket != open.bucket)
            {
              close_bucket (&open, regions, out);
              open.bucket = bucket;
              open.begin = bucket_time (self, ticks, bucket);
              open.end = bucket_end;
            }
          open.busy += b - a;
          open.time[category] += b - a;
          add_region (regions, piece->region, b - a);
          a = b;
        }
    }
  close_bucket (&open, regions, out);

  return TRUE;
}
