/*
 * sextant-lod-reader-lost.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's lost time (sextant-lod-reader.h): the intervals the
 * pattern instances of the last analysis lost that overlap a view. The
 * first read_lost() of a reader reads every instance with a location and
 * an interval from pattern_instance_data's chunks (one statement, no
 * SQLite row per instance) into an index of intervals by duration class
 * (sextant-lod-reader-spans.c); a reader lives until the store changes
 * (the timeline makes new ones after an analysis). Workload: the first
 * read decodes every instance chunk (48 bytes an interval kept; the
 * 992 803 of the 10 M-event store in about 0.2 s); then a read counts the
 * view's intervals with a few binary searches per duration class, and
 * copies them when there are at most @max.
 */
#include "config.h"

#include "sextant-lod-reader-private.h"

/* Lost time ------------------------------------------------------------------------ */

/* An instance that lost time at a location, its interval in its Span */
typedef struct
{
  gint64  loc;
  gint64  severity;
  gint64  id;
} LostItem;

/* The instances with a location and an interval, read from
 * pattern_instance_data's chunks at the first read_lost(): 48 bytes an
 * interval (its Span and its LostItem) */
struct _LostIndex
{
  SpanIndex *spans;    /* item: in items */
  GArray    *items;    /* of LostItem, in row order */
};

void
_sextant_lod_lost_index_free (LostIndex *index)
{
  _sextant_lod_span_index_free (index->spans);
  g_array_unref (index->items);
  g_free (index);
}

gsize
_sextant_lod_lost_index_bytes (const LostIndex *index)
{
  return _sextant_lod_span_index_bytes (index->spans) + index->items->len * sizeof (LostItem);
}

typedef struct
{
  GArray *spans;       /* of Span */
  GArray *items;       /* of LostItem */
} LostBuild;

static gboolean
index_instances (const SextantChunk  *c,
                 gint64               first_row,
                 gpointer             user_data,
                 GError             **error)
{
  LostBuild *build = user_data;

  if (c->cols[SEXTANT_INSTANCE_LOC].all_null || c->cols[SEXTANT_INSTANCE_BEGIN].all_null ||
      c->cols[SEXTANT_INSTANCE_END].all_null)
    return TRUE;
  for (guint r = 0; r < c->n_rows; r++)
    {
      LostItem item;
      Span span;

      item.loc = sextant_chunk_get (c, SEXTANT_INSTANCE_LOC, r);
      span.begin = sextant_chunk_get (c, SEXTANT_INSTANCE_BEGIN, r);
      span.end = sextant_chunk_get (c, SEXTANT_INSTANCE_END, r);
      /* as the SQL read them: no location, or no interval (a comparison
       * with NULL is never true), none */
      if (item.loc == SEXTANT_NULL || span.begin == SEXTANT_NULL || span.end == SEXTANT_NULL)
        continue;
      item.severity = _sextant_lod_or_zero (sextant_chunk_get (c, SEXTANT_INSTANCE_SEVERITY, r));
      item.id = first_row + r;
      span.item = build->items->len;
      g_array_append_val (build->items, item);
      g_array_append_val (build->spans, span);
    }

  return TRUE;
}

/* the rows of pattern_instance_data, at most (a damaged chunk's n within
 * what a chunk can hold) */
static const char instance_rows_sql[] =
  "SELECT coalesce (sum (max (0, min (n, " G_STRINGIFY (SEXTANT_CHUNK_MAX_ROWS) "))), 0) FROM pattern_instance_data_chunk";

static gboolean
lost_index_load (SextantLodReader  *self,
                 GError           **error)
{
  gint64 rows = 0;
  g_autoptr(GArray) spans = NULL;
  LostBuild build;

  if (self->lost_index != NULL)
    return TRUE;
  if (!sextant_store_foreach_sql (self->store, instance_rows_sql, _sextant_lod_take_id, &rows, error, ""))
    return FALSE;
  rows = CLAMP (rows, 0, G_MAXUINT);
  spans = g_array_sized_new (FALSE, FALSE, sizeof (Span), (guint)rows);
  build.spans = spans;
  build.items = g_array_sized_new (FALSE, FALSE, sizeof (LostItem), (guint)rows);
  if (!_sextant_lod_chunk_table_foreach (self, "pattern_instance_data", SEXTANT_INSTANCE_N_COLUMNS, index_instances,
                                         &build, error))
    {
      g_array_unref (build.items);
      return FALSE;
    }
  self->lost_index = g_new0 (LostIndex, 1);
  self->lost_index->items = build.items;
  self->lost_index->spans = _sextant_lod_span_index_new (g_steal_pointer (&spans));

  return TRUE;
}

typedef struct
{
  const LostIndex *index;
  GArray          *out;
} LostRead;

static gboolean
add_lost (const Span *span,
          gpointer    user_data)
{
  LostRead *read = user_data;
  const LostItem *item = &g_array_index (read->index->items, LostItem, span->item);
  SextantViewLost l = { 0 };

  l.loc = item->loc;
  l.begin = span->begin;
  l.end = span->end;
  l.severity = item->severity;
  l.instance = item->id;
  l.pattern = (guint)(l.instance >> 32);
  g_array_append_val (read->out, l);

  return TRUE;
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
  LostRead read = { NULL, lost };

  g_return_val_if_fail (lost != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (lost) == sizeof (SextantViewLost), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;
  if (!lost_index_load (self, error))
    return FALSE;
  read.index = self->lost_index;
  /* counted first: a view with too many copies none */
  if (_sextant_lod_span_index_count (read.index->spans, t0, t1) > max)
    {
      *too_many = TRUE;
      return TRUE;
    }
  _sextant_lod_span_index_foreach (read.index->spans, t0, t1, add_lost, &read);

  return TRUE;
}
