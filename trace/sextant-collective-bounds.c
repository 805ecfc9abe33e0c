/*
 * sextant-collective-bounds.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bounds of a collective instance (sextant-collective-bounds.h): a
 * fold of its members, a few comparisons each.
 */
#include "config.h"

#include "sextant-collective-bounds.h"
#include "sextant-store.h"

static inline gboolean
is_null (gint64 v)
{
  return v == SEXTANT_NULL;
}

/* SQL's max () and min () of the non-NULL values */
static inline gint64
max_of (gint64 acc,
        gint64 v)
{
  return is_null (acc) || (!is_null (v) && v > acc) ? v : acc;
}

static inline gint64
min_of (gint64 acc,
        gint64 v)
{
  return is_null (acc) || (!is_null (v) && v < acc) ? v : acc;
}

/* @v into the two smallest (@lowest) or largest values *@first, *@second */
static inline void
extremes_add (gint64   *first,
              gint64   *second,
              gint64    v,
              gboolean  lowest)
{
  if (is_null (v))
    return;
  if (is_null (*first) || (lowest ? v < *first : v > *first))
    {
      *second = *first;
      *first = v;
    }
  else if (is_null (*second) || (lowest ? v < *second : v > *second))
    *second = v;
}

/* the latest enter, the lowest location on a tie */
static inline void
last_add (SextantCollectiveBounds *b,
          gint64                   enter,
          gint64                   loc)
{
  if (!is_null (enter) &&
      (is_null (b->last_enter) || enter > b->last_enter || (enter == b->last_enter && loc < b->last_loc)))
    {
      b->last_enter = enter;
      b->last_loc = loc;
    }
}

void
sextant_collective_bounds_init (SextantCollectiveBounds *bounds)
{
  *bounds = (SextantCollectiveBounds) {
    SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL,
    SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL, SEXTANT_NULL,
  };
}

void
sextant_collective_bounds_add (SextantCollectiveBounds   *b,
                               const SextantBoundsMember *m)
{
  b->begin = min_of (b->begin, m->begin);
  b->end = max_of (b->end, m->end);
  b->first_loc = min_of (b->first_loc, m->loc);
  last_add (b, m->enter, m->loc);
  b->first_leave = min_of (b->first_leave, m->leave);
  extremes_add (&b->enter_min, &b->enter_min2, m->enter, TRUE);
  extremes_add (&b->leave_max, &b->leave_max2, m->leave, FALSE);
  if (m->is_root)
    b->root_enter = max_of (b->root_enter, m->enter);
  if (m->has_data)
    {
      b->latest_begin = max_of (b->latest_begin, m->begin);
      b->earliest_end = min_of (b->earliest_end, m->end);
    }
}

void
sextant_collective_bounds_merge (SextantCollectiveBounds       *into,
                                 const SextantCollectiveBounds *from)
{
  into->begin = min_of (into->begin, from->begin);
  into->end = max_of (into->end, from->end);
  into->first_loc = min_of (into->first_loc, from->first_loc);
  last_add (into, from->last_enter, from->last_loc);
  into->first_leave = min_of (into->first_leave, from->first_leave);
  extremes_add (&into->enter_min, &into->enter_min2, from->enter_min, TRUE);
  extremes_add (&into->enter_min, &into->enter_min2, from->enter_min2, TRUE);
  extremes_add (&into->leave_max, &into->leave_max2, from->leave_max, FALSE);
  extremes_add (&into->leave_max, &into->leave_max2, from->leave_max2, FALSE);
  into->root_enter = max_of (into->root_enter, from->root_enter);
  into->latest_begin = max_of (into->latest_begin, from->latest_begin);
  into->earliest_end = min_of (into->earliest_end, from->earliest_end);
}

void
sextant_collective_bounds_add_root (SextantCollectiveBounds *bounds,
                                    gint64                   enter)
{
  bounds->root_enter = max_of (bounds->root_enter, enter);
}
