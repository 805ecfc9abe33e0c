/*
 * test-request-map.c: the map of open requests against a GHashTable doing
 * the same operations.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-request-map.h"

typedef struct
{
  gint64  time;
  guint32 tag;
} Value;

/* Random inserts, replacements and removals of keys that collide a lot
 * (few distinct ones, sequential ones, and ones that differ only in their
 * high bits), checked after every step: the probe runs and the backward
 * shift of removals must keep every key findable. */
static void
test_request_map_model (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autoptr(SextantRequestMap) map = sextant_request_map_new (sizeof (Value));
  g_autoptr(GHashTable) model = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  for (guint step = 0; step < 200000; step++)
    {
      guint64 key;
      guint kind = g_rand_int_range (rand, 0, 3);

      if (kind == 0)
        key = (guint64)g_rand_int_range (rand, 0, 64);
      else if (kind == 1)
        key = 0x7f0000000000ULL + 8 * (guint64)g_rand_int_range (rand, 0, 512);
      else
        key = (guint64)g_rand_int_range (rand, 0, 32) << 40;

      if (g_rand_boolean (rand))
        {
          Value *v = sextant_request_map_insert (map, key);
          Value *m = g_new (Value, 1);
          guint64 *k = g_new (guint64, 1);

          v->time = m->time = step;
          v->tag = m->tag = (guint32)key;
          *k = key;
          g_hash_table_replace (model, k, m);
        }
      else
        {
          Value got;
          gboolean removed = sextant_request_map_remove (map, key, &got);
          Value *want = g_hash_table_lookup (model, &key);

          g_assert_cmpint (removed, ==, want != NULL);
          if (want != NULL)
            {
              g_assert_cmpint (got.time, ==, want->time);
              g_assert_cmpuint (got.tag, ==, want->tag);
              g_hash_table_remove (model, &key);
            }
        }

      g_assert_cmpuint (sextant_request_map_size (map), ==, g_hash_table_size (model));
      if (step % 97 == 0)
        {
          GHashTableIter iter;
          gpointer k;
          gpointer m;

          g_hash_table_iter_init (&iter, model);
          while (g_hash_table_iter_next (&iter, &k, &m))
            {
              Value *v = sextant_request_map_lookup (map, *(guint64 *)k);

              g_assert_nonnull (v);
              g_assert_cmpint (v->time, ==, ((Value *)m)->time);
            }
        }
    }
}

/* What is left comes out oldest insertion first (a replaced request
 * counts from its replacement), and the map is empty after. */
static void
test_request_map_steal_values (void)
{
  g_autoptr(SextantRequestMap) map = sextant_request_map_new (sizeof (Value));
  g_autoptr(GArray) values = NULL;
  static const guint64 keys[] = { 5, 1ULL << 40, 3, 77, 1ULL << 41, 9 };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    ((Value *)sextant_request_map_insert (map, keys[i]))->time = i;
  g_assert_true (sextant_request_map_remove (map, 77, NULL));
  g_assert_false (sextant_request_map_remove (map, 77, NULL));
  ((Value *)sextant_request_map_insert (map, 3))->time = 100;

  values = sextant_request_map_steal_values (map);
  g_assert_cmpuint (values->len, ==, 5);
  g_assert_cmpint (g_array_index (values, Value, 0).time, ==, 0);
  g_assert_cmpint (g_array_index (values, Value, 1).time, ==, 1);
  g_assert_cmpint (g_array_index (values, Value, 2).time, ==, 4);
  g_assert_cmpint (g_array_index (values, Value, 3).time, ==, 5);
  g_assert_cmpint (g_array_index (values, Value, 4).time, ==, 100);
  g_assert_cmpuint (sextant_request_map_size (map), ==, 0);
  g_assert_null (sextant_request_map_lookup (map, 5));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/request-map/model", test_request_map_model);
  g_test_add_func ("/trace/request-map/steal-values", test_request_map_steal_values);

  return g_test_run ();
}
