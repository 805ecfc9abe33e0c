/*
 * test-collective-bounds.c: the bounds of a collective instance folded
 * member by member equal the merge of the bounds of any split of its
 * members, in any order (what the shards of a parallel import combine),
 * and equal the SQL aggregates that collective_visit once computed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sextant-collective-bounds.h"
#include "sextant-store.h"

/* A value from a few, so that ties are common; sometimes NULL */
static gint64
small_value (GRand *rand,
             gboolean nullable)
{
  if (nullable && g_rand_int_range (rand, 0, 5) == 0)
    return SEXTANT_NULL;
  return g_rand_int_range (rand, 0, 6);
}

static void
assert_bounds_equal (const SextantCollectiveBounds *x,
                     const SextantCollectiveBounds *y)
{
  g_assert_cmpint (x->begin, ==, y->begin);
  g_assert_cmpint (x->end, ==, y->end);
  g_assert_cmpint (x->first_loc, ==, y->first_loc);
  g_assert_cmpint (x->last_enter, ==, y->last_enter);
  g_assert_cmpint (x->last_loc, ==, y->last_loc);
  g_assert_cmpint (x->first_leave, ==, y->first_leave);
  g_assert_cmpint (x->enter_min, ==, y->enter_min);
  g_assert_cmpint (x->enter_min2, ==, y->enter_min2);
  g_assert_cmpint (x->leave_max, ==, y->leave_max);
  g_assert_cmpint (x->leave_max2, ==, y->leave_max2);
  g_assert_cmpint (x->root_enter, ==, y->root_enter);
  g_assert_cmpint (x->latest_begin, ==, y->latest_begin);
  g_assert_cmpint (x->earliest_end, ==, y->earliest_end);
}

/* The bounds by their definition, from all members at once */
static void
bounds_by_definition (const SextantBoundsMember    *m,
                      guint                         n,
                      SextantCollectiveBounds      *b)
{
  g_autofree gint64 *enters = g_new (gint64, n);
  g_autofree gint64 *leaves = g_new (gint64, n);
  guint n_enters = 0, n_leaves = 0;

  sextant_collective_bounds_init (b);
  for (guint i = 0; i < n; i++)
    {
      b->begin = b->begin == SEXTANT_NULL ? m[i].begin : MIN (b->begin, m[i].begin);
      b->end = b->end == SEXTANT_NULL ? m[i].end : MAX (b->end, m[i].end);
      b->first_loc = b->first_loc == SEXTANT_NULL ? m[i].loc : MIN (b->first_loc, m[i].loc);
      if (m[i].enter != SEXTANT_NULL)
        {
          enters[n_enters++] = m[i].enter;
          if (b->last_enter == SEXTANT_NULL || m[i].enter > b->last_enter)
            b->last_enter = m[i].enter;
          if (m[i].is_root)
            b->root_enter = b->root_enter == SEXTANT_NULL ? m[i].enter : MAX (b->root_enter, m[i].enter);
        }
      if (m[i].leave != SEXTANT_NULL)
        {
          leaves[n_leaves++] = m[i].leave;
          b->first_leave = b->first_leave == SEXTANT_NULL ? m[i].leave : MIN (b->first_leave, m[i].leave);
        }
      if (m[i].has_data)
        {
          b->latest_begin = b->latest_begin == SEXTANT_NULL ? m[i].begin : MAX (b->latest_begin, m[i].begin);
          b->earliest_end = b->earliest_end == SEXTANT_NULL ? m[i].end : MIN (b->earliest_end, m[i].end);
        }
    }
  for (guint i = 0; i < n; i++)
    if (m[i].enter != SEXTANT_NULL && m[i].enter == b->last_enter &&
        (b->last_loc == SEXTANT_NULL || m[i].loc < b->last_loc))
      b->last_loc = m[i].loc;
  /* the two extremes of a multiset: sorted, the first two */
  for (guint i = 0; i < n_enters; i++)
    for (guint j = i + 1; j < n_enters; j++)
      if (enters[j] < enters[i])
        {
          gint64 t = enters[i];

          enters[i] = enters[j];
          enters[j] = t;
        }
  for (guint i = 0; i < n_leaves; i++)
    for (guint j = i + 1; j < n_leaves; j++)
      if (leaves[j] > leaves[i])
        {
          gint64 t = leaves[i];

          leaves[i] = leaves[j];
          leaves[j] = t;
        }
  b->enter_min = n_enters > 0 ? enters[0] : SEXTANT_NULL;
  b->enter_min2 = n_enters > 1 ? enters[1] : SEXTANT_NULL;
  b->leave_max = n_leaves > 0 ? leaves[0] : SEXTANT_NULL;
  b->leave_max2 = n_leaves > 1 ? leaves[1] : SEXTANT_NULL;
}

static void
test_collective_bounds_merge (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (21);

  for (guint round = 0; round < 20000; round++)
    {
      guint n = (guint)g_rand_int_range (rand, 1, 12);
      guint n_parts = (guint)g_rand_int_range (rand, 1, 5);
      g_autofree SextantBoundsMember *members = g_new (SextantBoundsMember, n);
      g_autofree SextantCollectiveBounds *parts = g_new (SextantCollectiveBounds, n_parts);
      g_autofree guint *order = g_new (guint, n_parts);
      SextantCollectiveBounds folded, merged, defined;

      for (guint i = 0; i < n; i++)
        {
          gint64 enter = small_value (rand, TRUE);

          members[i] = (SextantBoundsMember) {
            .loc = g_rand_int_range (rand, 0, 8), .enter = enter,
            .leave = enter == SEXTANT_NULL ? SEXTANT_NULL : enter + small_value (rand, FALSE),
            .begin = small_value (rand, FALSE), .end = 6 + small_value (rand, FALSE),
            .has_data = g_rand_boolean (rand), .is_root = g_rand_int_range (rand, 0, 4) == 0,
          };
        }

      sextant_collective_bounds_init (&folded);
      for (guint i = 0; i < n; i++)
        sextant_collective_bounds_add (&folded, &members[i]);
      bounds_by_definition (members, n, &defined);
      assert_bounds_equal (&folded, &defined);

      /* each member to a random part, the parts merged in a random order */
      for (guint p = 0; p < n_parts; p++)
        {
          sextant_collective_bounds_init (&parts[p]);
          order[p] = p;
        }
      for (guint i = 0; i < n; i++)
        sextant_collective_bounds_add (&parts[g_rand_int_range (rand, 0, (gint32)n_parts)], &members[i]);
      for (guint p = n_parts; p > 1; p--)
        {
          guint k = (guint)g_rand_int_range (rand, 0, (gint32)p);
          guint t = order[p - 1];

          order[p - 1] = order[k];
          order[k] = t;
        }
      sextant_collective_bounds_init (&merged);
      for (guint p = 0; p < n_parts; p++)
        sextant_collective_bounds_merge (&merged, &parts[order[p]]);
      assert_bounds_equal (&merged, &folded);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/collective-bounds/merge", test_collective_bounds_merge);

  return g_test_run ();
}
