/*
 * sextant-lod-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-lod-reader.h"

struct _SextantLodReader
{
  SextantStore *store;
  gint64        origin;
  gint64        base;       /* ticks of a bucket of level 0 */
  guint         n_levels;
};

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

SextantLodReader *
sextant_lod_reader_new (SextantStore  *store,
                        GError       **error)
{
  g_autoptr(SextantLodReader) self = g_new0 (SextantLodReader, 1);
  gint64 levels = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  self->store = g_object_ref (store);
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
sextant_lod_reader_read (SextantLodReader  *self,
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

  return sextant_store_foreach (self->store, SEXTANT_QUERY_LOD_BUCKETS, bucket_row, &data, error,
                                "iiii", loc, (gint64)level, first, last);
}
