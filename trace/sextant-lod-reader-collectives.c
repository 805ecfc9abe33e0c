/*
 * sextant-lod-reader-collectives.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's collectives (sextant-lod-reader.h): the members of the
 * collectives with more than one member under way in a view. The first
 * read_collectives() of a reader reads the collective table (those with
 * more than one member) and every member of those from
 * collective_member's chunks into memory: an index of the collectives'
 * intervals by duration class (sextant-lod-reader-spans.c) and the
 * members by collective. Workload: 40 bytes a collective and 24 a member
 * kept (the 10 M-event store's 4 890 and 312 960: 8 MB); then a read
 * walks the collectives in the view, counting their members, stops past
 * @max (too many), else copies their members in collective order.
 */
#include "config.h"

#include <stdlib.h>

#include "sextant-lod-reader-private.h"
#include "sextant-store-shards.h"

/* Collectives ---------------------------------------------------------------------- */

typedef struct
{
  gint64  id;
  guint   first;       /* its members in CollectiveIndex.members */
  guint   n;
} IndexedCollective;

typedef struct
{
  gint64  loc;
  gint64  begin;
  gint64  end;
} IndexedMember;

/* The collectives with more than one member and their members, read at
 * the first read_collectives(): 16 + 24 bytes a collective (its Span)
 * and 24 a member */
struct _CollectiveIndex
{
  GArray    *collectives;  /* of IndexedCollective, by id */
  GArray    *members;      /* of IndexedMember, by collective, each's in row order */
  SpanIndex *spans;        /* item: in collectives; end: the collective's + 1 */
};

void
_sextant_lod_collective_index_free (CollectiveIndex *index)
{
  g_array_unref (index->collectives);
  g_array_unref (index->members);
  _sextant_lod_span_index_free (index->spans);
  g_free (index);
}

gsize
_sextant_lod_collective_index_bytes (const CollectiveIndex *index)
{
  return index->collectives->len * sizeof (IndexedCollective) + index->members->len * sizeof (IndexedMember) +
         _sextant_lod_span_index_bytes (index->spans);
}

/* the collectives drawn (more than one member) */
static const char collectives_sql[] =
  "SELECT id, begin, \"end\" FROM collective WHERE members > 1 ORDER BY id";

typedef struct
{
  GArray *collectives; /* of IndexedCollective */
  GArray *spans;       /* of Span */
  GArray *read;        /* of MemberRead */
  guint   last;        /* the collective of the last member read */
  SextantStore *manifest; /* (nullable) the store, when it is a manifest */
} CollectiveBuild;

typedef struct
{
  IndexedMember  m;
  guint          collective;  /* in CollectiveBuild.collectives */
} MemberRead;

static gboolean
collective_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  CollectiveBuild *build = user_data;
  IndexedCollective c = { sextant_row_get_int (row, 0), 0, 0 };
  Span span;

  /* under way during [t0, t1): begin < t1 and end >= t0, end + 1 > t0 */
  span.begin = sextant_row_get_int (row, 1);
  span.end = sextant_row_get_int (row, 2);
  span.end += span.end < G_MAXINT64;
  span.item = build->collectives->len;
  g_array_append_val (build->collectives, c);
  g_array_append_val (build->spans, span);

  return TRUE;
}

/* @id's place in @build's collectives, or G_MAXUINT */
static guint
find_collective (CollectiveBuild *build,
                 gint64           id)
{
  const IndexedCollective *all = (const IndexedCollective *)build->collectives->data;
  guint lo = 0;
  guint hi = build->collectives->len;

  /* a collective's members are mostly stored together */
  if (build->last < build->collectives->len && all[build->last].id == id)
    return build->last;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (all[mid].id < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == build->collectives->len || all[lo].id != id)
    return G_MAXUINT;

  return build->last = lo;
}

static gboolean
index_members (const SextantChunk  *c,
               gint64               first_row,
               gpointer             user_data,
               GError             **error)
{
  CollectiveBuild *build = user_data;

  if (c->cols[SEXTANT_MEMBER_COLLECTIVE].all_null)
    return TRUE;
  for (guint r = 0; r < c->n_rows; r++)
    {
      gint64 id = sextant_chunk_get (c, SEXTANT_MEMBER_COLLECTIVE, r);
      gint64 loc = sextant_chunk_get (c, SEXTANT_MEMBER_LOC, r);
      guint shard;
      MemberRead read;
      IndexedCollective *found;

      if (id == SEXTANT_NULL || (read.collective = find_collective (build, id)) == G_MAXUINT)
        continue;
      /* a manifest's shard holds its own locations' members, and a SCAN or
       * EXSCAN between shards whole: a member is read from the shard of
       * its location (a chunk's rows have the shard's rank in the high
       * bits) */
      if (build->manifest != NULL && (shard = sextant_store_get_location_shard (build->manifest, loc)) != G_MAXUINT &&
          shard != sextant_shard_of_id (first_row))
        continue;
      found = &g_array_index (build->collectives, IndexedCollective, read.collective);
      read.m.loc = _sextant_lod_or_zero (loc);
      read.m.begin = _sextant_lod_or_zero (sextant_chunk_get (c, SEXTANT_MEMBER_BEGIN, r));
      read.m.end = _sextant_lod_or_zero (sextant_chunk_get (c, SEXTANT_MEMBER_END, r));
      found->n++;
      g_array_append_val (build->read, read);
    }

  return TRUE;
}

static int
compare_members (gconstpointer a,
                 gconstpointer b)
{
  const IndexedMember *x = a;
  const IndexedMember *y = b;

  if (x->loc != y->loc)
    return x->loc < y->loc ? -1 : 1;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return (x->end > y->end) - (x->end < y->end);
}

static gboolean
collective_index_load (SextantLodReader  *self,
                       GError           **error)
{
  g_autoptr(GArray) collectives = g_array_new (FALSE, FALSE, sizeof (IndexedCollective));
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr(GArray) read = g_array_new (FALSE, FALSE, sizeof (MemberRead));
  g_autoptr(GArray) next = NULL;
  CollectiveBuild build = { collectives, spans, read, 0,
                            sextant_store_get_n_shards (self->store) > 0 ? self->store : NULL };
  CollectiveIndex *index;
  guint first = 0;

  if (self->collective_index != NULL)
    return TRUE;
  if (!sextant_store_foreach_sql (self->store, collectives_sql, collective_row, &build, error, "") ||
      !_sextant_lod_chunk_table_foreach (self, "collective_member", SEXTANT_MEMBER_N_COLUMNS, index_members, &build,
                                         error))
    return FALSE;

  /* the members by collective, each collective's by location (the
   * importer writes them as they come) */
  next = g_array_sized_new (FALSE, FALSE, sizeof (guint), collectives->len);
  for (guint i = 0; i < collectives->len; i++)
    {
      IndexedCollective *c = &g_array_index (collectives, IndexedCollective, i);

      c->first = first;
      g_array_append_val (next, first);
      first += c->n;
    }
  index = g_new0 (CollectiveIndex, 1);
  index->members = g_array_sized_new (FALSE, FALSE, sizeof (IndexedMember), read->len);
  g_array_set_size (index->members, read->len);
  for (guint i = 0; i < read->len; i++)
    {
      const MemberRead *m = &g_array_index (read, MemberRead, i);

      g_array_index (index->members, IndexedMember, g_array_index (next, guint, m->collective)++) = m->m;
    }
  for (guint i = 0; i < collectives->len; i++)
    {
      const IndexedCollective *c = &g_array_index (collectives, IndexedCollective, i);

      if (c->n > 1)
        qsort (&g_array_index (index->members, IndexedMember, c->first), c->n, sizeof (IndexedMember),
               compare_members);
    }
  index->spans = _sextant_lod_span_index_new (g_steal_pointer (&spans));
  index->collectives = g_steal_pointer (&collectives);
  self->collective_index = index;

  return TRUE;
}

typedef struct
{
  const CollectiveIndex *index;
  GArray                *found;  /* of guint: the collectives' places */
  guint64                n;      /* their members */
  guint                  max;
} CollectiveRead;

static gboolean
add_collective (const Span *span,
                gpointer    user_data)
{
  CollectiveRead *read = user_data;

  read->n += g_array_index (read->index->collectives, IndexedCollective, span->item).n;
  g_array_append_val (read->found, span->item);

  /* past @max: stop, too many */
  return read->n <= read->max;
}

int
_sextant_lod_compare_places (gconstpointer a,
                             gconstpointer b)
{
  guint x = *(const guint *)a;
  guint y = *(const guint *)b;

  return (x > y) - (x < y);
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
  g_autoptr(GArray) found = NULL;
  CollectiveRead read;

  g_return_val_if_fail (members != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (members) == sizeof (SextantViewMember), FALSE);
  g_return_val_if_fail (too_many != NULL, FALSE);

  *too_many = FALSE;
  if (t1 <= t0)
    return TRUE;
  if (!collective_index_load (self, error))
    return FALSE;
  /* the collectives in the view, their members counted as they are
   * found: a view with too many stops at @max */
  found = g_array_new (FALSE, FALSE, sizeof (guint));
  read = (CollectiveRead) { self->collective_index, found, 0, max };
  if (!_sextant_lod_span_index_foreach (read.index->spans, t0, t1, add_collective, &read))
    {
      *too_many = TRUE;
      return TRUE;
    }

  /* by collective id */
  g_array_sort (found, _sextant_lod_compare_places);
  for (guint i = 0; i < found->len; i++)
    {
      const IndexedCollective *c = &g_array_index (read.index->collectives, IndexedCollective,
                                                   g_array_index (found, guint, i));

      for (guint k = c->first; k < c->first + c->n; k++)
        {
          const IndexedMember *m = &g_array_index (read.index->members, IndexedMember, k);
          SextantViewMember v = { c->id, m->loc, m->begin, m->end };

          g_array_append_val (members, v);
        }
    }

  return TRUE;
}
