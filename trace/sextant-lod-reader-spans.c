/*
 * sextant-lod-reader-spans.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader's index of time intervals (the lost time of the pattern
 * instances, the collectives; sextant-lod-reader-rma.c builds them): which
 * intervals overlap a view, and how many, without reading them all.
 * Intervals vary in length (a late sender a few ticks, a wait at
 * finalize most of the run), so one array sorted by begin does not bound
 * a search: the intervals are kept by duration class (durations in
 * [2^(k-1), 2^k) for class k), each class sorted by begin. An interval
 * of a class that overlaps [t0, t1) begins in [t0 - its longest, t1):
 * two binary searches per class find those, and only the ones that begin
 * in the class's width before t0 - its shortest need their end looked
 * at. Workload: built once per reader (a radix sort of 24 bytes an
 * interval: 3 passes for a range of 2^33 ticks, and one by class),
 * then a count costs about 3 binary searches per class (at most 66
 * classes) plus the intervals that begin about their own length before
 * t0; a walk costs that plus the intervals found.
 */
#include "config.h"

#include <string.h>

#include "sextant-lod-reader-private.h"

/* 0: no duration, k in 1..64: [2^(k-1), 2^k) ticks, N_CLASSES - 1: an end
 * before its begin */
#define N_CLASSES 66
#define BACKWARDS (N_CLASSES - 1)

typedef struct
{
  guint    first;      /* its spans in SpanIndex.spans */
  guint    n;
  guint64  shortest;   /* ticks (durations of a class other than BACKWARDS) */
  guint64  longest;
} SpanClass;

struct _SpanIndex
{
  GArray    *spans;    /* of Span, by class, each class by begin */
  SpanClass  classes[N_CLASSES];
};

static guint
span_class (const Span *span)
{
  if (span->end < span->begin)
    return BACKWARDS;

  return g_bit_storage ((guint64)span->end - (guint64)span->begin) - ((guint64)span->end == (guint64)span->begin);
}

/* Spans sorted by a radix of DIGIT_BITS bits at a time */
#define DIGIT_BITS 11
#define N_DIGITS   (1u << DIGIT_BITS)

/* Sorts the @n spans of @from by begin, stably (equal begins in the order
 * they came), with @to as much room again: a pass per digit of the
 * begins' range; returns the one of them that holds the result */
static Span *
sort_by_begin (Span  *from,
               Span  *to,
               guint  n)
{
  g_autofree guint *starts = g_new (guint, N_DIGITS);
  gint64 lowest = G_MAXINT64;
  gint64 highest = G_MININT64;

  for (guint i = 0; i < n; i++)
    {
      lowest = MIN (lowest, from[i].begin);
      highest = MAX (highest, from[i].begin);
    }
  for (guint shift = 0; n > 1 && shift < 64 && ((guint64)highest - (guint64)lowest) >> shift != 0;
       shift += DIGIT_BITS)
    {
      Span *swap;
      guint sum = 0;

      memset (starts, 0, N_DIGITS * sizeof (guint));
      for (guint i = 0; i < n; i++)
        starts[((guint64)from[i].begin - (guint64)lowest) >> shift & (N_DIGITS - 1)]++;
      for (guint d = 0; d < N_DIGITS; d++)
        {
          guint count = starts[d];

          starts[d] = sum;
          sum += count;
        }
      for (guint i = 0; i < n; i++)
        to[starts[((guint64)from[i].begin - (guint64)lowest) >> shift & (N_DIGITS - 1)]++] = from[i];
      swap = from;
      from = to;
      to = swap;
    }

  return from;
}

SpanIndex *
_sextant_lod_span_index_new (GArray *spans)
{
  SpanIndex *index = g_new0 (SpanIndex, 1);
  g_autoptr(GArray) other = NULL;
  guint next[N_CLASSES];
  guint first = 0;
  Span *sorted;
  Span *to;

  g_return_val_if_fail (g_array_get_element_size (spans) == sizeof (Span), NULL);

  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);
      SpanClass *c = &index->classes[span_class (span)];
      guint64 ticks = (guint64)span->end - (guint64)span->begin;

      c->shortest = c->n == 0 ? ticks : MIN (c->shortest, ticks);
      c->longest = c->n == 0 ? ticks : MAX (c->longest, ticks);
      c->n++;
    }
  for (guint k = 0; k < N_CLASSES; k++)
    {
      index->classes[k].first = next[k] = first;
      first += index->classes[k].n;
    }

  /* by begin, then (stably) by class: each class by begin */
  other = g_array_sized_new (FALSE, FALSE, sizeof (Span), spans->len);
  g_array_set_size (other, spans->len);
  sorted = sort_by_begin ((Span *)spans->data, (Span *)other->data, spans->len);
  to = sorted == (Span *)spans->data ? (Span *)other->data : (Span *)spans->data;
  for (guint i = 0; i < spans->len; i++)
    to[next[span_class (&sorted[i])]++] = sorted[i];
  index->spans = to == (Span *)spans->data ? g_steal_pointer (&spans) : g_steal_pointer (&other);
  g_clear_pointer (&spans, g_array_unref);

  return index;
}

void
_sextant_lod_span_index_free (SpanIndex *index)
{
  g_array_unref (index->spans);
  g_free (index);
}

gsize
_sextant_lod_span_index_bytes (const SpanIndex *index)
{
  return index->spans->len * sizeof (Span) + sizeof *index;
}

/* The first span of @c that begins at or after @t (@after: after @t) */
static guint
find_begin (const SpanIndex *index,
            const SpanClass *c,
            gint64           t,
            gboolean         after)
{
  const Span *spans = &g_array_index (index->spans, Span, c->first);
  guint lo = 0;
  guint hi = c->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (spans[mid].begin < t || (after && spans[mid].begin == t))
        lo = mid + 1;
      else
        hi = mid;
    }

  return c->first + lo;
}

/* @t - @ticks, or G_MININT64 below it */
static gint64
ticks_before (gint64  t,
              guint64 ticks)
{
  return (guint64)t - (guint64)G_MININT64 < ticks ? G_MININT64 : (gint64)((guint64)t - ticks);
}

/* The spans of @c that can overlap [@t0, @t1): [*@lo, *@hi), of which
 * those from *@sure on do */
static void
class_range (const SpanIndex *index,
             const SpanClass *c,
             gint64           t0,
             gint64           t1,
             guint           *lo,
             guint           *sure,
             guint           *hi)
{
  *hi = find_begin (index, c, t1, FALSE);
  if (c == &index->classes[BACKWARDS])
    {
      /* end < begin: one that ends after t0 begins after it, and ends
       * anywhere before its begin */
      *lo = find_begin (index, c, t0, TRUE);
      *sure = *hi;
    }
  else
    {
      /* begin + shortest > t0 ensures end > t0 */
      *lo = find_begin (index, c, ticks_before (t0, c->longest), FALSE);
      *sure = MAX (find_begin (index, c, ticks_before (t0, c->shortest), TRUE), *lo);
    }
  *sure = MIN (*sure, *hi);
  *lo = MIN (*lo, *hi);
}

guint64
_sextant_lod_span_index_count (const SpanIndex *index,
                               gint64           t0,
                               gint64           t1)
{
  guint64 n = 0;

  if (t1 <= t0)
    return 0;
  for (guint k = 0; k < N_CLASSES; k++)
    {
      const SpanClass *c = &index->classes[k];
      guint lo, sure, hi;

      if (c->n == 0)
        continue;
      class_range (index, c, t0, t1, &lo, &sure, &hi);
      n += hi - sure;
      for (guint i = lo; i < sure; i++)
        n += g_array_index (index->spans, Span, i).end > t0;
    }

  return n;
}

gboolean
_sextant_lod_span_index_foreach (const SpanIndex *index,
                                 gint64           t0,
                                 gint64           t1,
                                 SpanFunc         func,
                                 gpointer         user_data)
{
  if (t1 <= t0)
    return TRUE;
  for (guint k = 0; k < N_CLASSES; k++)
    {
      const SpanClass *c = &index->classes[k];
      guint lo, sure, hi;

      if (c->n == 0)
        continue;
      class_range (index, c, t0, t1, &lo, &sure, &hi);
      for (guint i = lo; i < hi; i++)
        {
          const Span *span = &g_array_index (index->spans, Span, i);

          if ((i >= sure || span->end > t0) && !func (span, user_data))
            return FALSE;
        }
    }

  return TRUE;
}
