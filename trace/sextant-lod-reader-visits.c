/*
 * sextant-lod-reader-visits.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's visits (sextant-lod-reader.h): zoomed in past the
 * pyramid, a location's time as the pieces of its visits in a view, the
 * innermost visit's region and category for each. Read from the visit
 * chunks directly (the reader's chunk cache, sextant-lod-reader.c): a
 * location's chunk directory at its first read, its chunks as a view
 * needs them, then the visits open at the view's start (the last one
 * entered before it and its ancestors) and those entered in it, by binary
 * search in the chunks. read_visits_rows() is the same read through SQL
 * (tests and the benchmark). Workload: the visits in view, plus a few
 * chunk reads for a location new to the reader.
 */
#include "config.h"

#include "sextant-lod-reader-private.h"

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
      table->lo = (gint64)((guint64)loc << 32);   /* unsigned: a damaged store's id may be negative */
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
  if (!(c = _sextant_lod_chunk_table_get (self, visits, i, error)))
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
      if (!(c = _sextant_lod_chunk_table_get (self, table, i, error)))
        return FALSE;
      end = (guint)CLAMP (last - entry->first_row + 1, 0, (gint64)c->n_rows);
      /* the first row entered at or after t0 */
      r = (guint)CLAMP (first - entry->first_row, 0, (gint64)c->n_rows);
      r = _sextant_lod_lower_bound (c, SEXTANT_VISIT_ENTER, r, end, t0);
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
      if (!_sextant_lod_chunk_table_load (self, table, error) ||
          !visits_entered (self, table, range->first, range->last, t0, t1, entered, &first_in, error))
        return FALSE;
    }
  else if (!sextant_store_foreach (self->store, SEXTANT_QUERY_FIRST_VISIT_FROM, _sextant_lod_take_id, &first_in, error,
                                   "iiii", loc, t0, range->first, range->last))
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
