/*
 * sextant-lod-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-lod-reader.h"
#include "sextant-store-private.h"

struct _SextantLodReader
{
  SextantStore *store;
  gint64        origin;
  gint64        base;       /* ticks of a bucket of level 0 */
  guint         n_levels;
  GHashTable   *categories; /* region id -> SextantCategory + 1, read at the first read_visits() */
  GHashTable   *ranges;     /* location -> VisitRange, likewise */
};

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
  g_clear_pointer (&self->categories, g_hash_table_unref);
  g_clear_pointer (&self->ranges, g_hash_table_unref);
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

gboolean
sextant_lod_reader_read_visits (SextantLodReader  *self,
                                gint64             loc,
                                gint64             t0,
                                gint64             t1,
                                GArray            *buckets,
                                GError           **error)
{
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
  if (!sextant_store_foreach (self->store, SEXTANT_QUERY_FIRST_VISIT_FROM, take_id, &first_in, error, "iiii",
                              loc, t0, range->first, range->last))
    return FALSE;
  for (gint64 id = first_in != G_MININT64 ? first_in - 1 : range->last;
       id >= range->first && id != SEXTANT_NULL; )
    {
      guint n = visits->len;

      if (!sextant_store_foreach (self->store, SEXTANT_QUERY_VISIT_BY_ID, visit_row, visits, error, "i", id))
        return FALSE;
      if (visits->len == n)
        break;
      id = g_array_index (visits, Visit, n).parent;
      if (g_array_index (visits, Visit, n).leave <= t0)
        g_array_remove_index (visits, n);
    }
  /* outermost first */
  n_open = visits->len;
  for (guint i = 0; i < n_open / 2; i++)
    {
      Visit tmp = g_array_index (visits, Visit, i);

      g_array_index (visits, Visit, i) = g_array_index (visits, Visit, n_open - 1 - i);
      g_array_index (visits, Visit, n_open - 1 - i) = tmp;
    }
  if (!sextant_store_foreach (self->store, SEXTANT_QUERY_VISITS_ENTERED, visit_row, visits, error, "iiiii",
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

/* Messages, collectives, lost time ---------------------------------------------- */

static gboolean
message_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  SextantViewMessage m = { 0 };

  m.send_loc = sextant_row_get_int (row, 0);
  m.recv_loc = sextant_row_get_int (row, 1);
  m.send_time = sextant_row_get_int (row, 2);
  m.recv_time = sextant_row_get_int (row, 3);
  m.id = SEXTANT_NULL;
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
  l.instance = SEXTANT_NULL;
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
