/*
 * test-lod-reader.c: what a timeline reads of the level-of-detail pyramid.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On third-party archives imported for the test: a view of W pixels gets
 * buckets no wider than a pixel and at most 2 W + 2 of them per location, at
 * any zoom; every level accounts for the same busy time, which is the time
 * the location's outermost visits cover (from the visit table, not the
 * pyramid); a view of part of the run gets exactly the buckets of the whole
 * run that overlap it.
 */
#include "config.h"

#include "sextant-lod-reader.h"
#include "sextant-test-util.h"

typedef struct
{
  char         *tmpdir;
  SextantStore *store;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = NULL;

  g_assert_nonnull (root);
  archive = g_build_filename (root, data, NULL);
  fixture->store = sextant_test_import (archive, &fixture->tmpdir);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->store);
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

static gint64
meta_int (SextantStore *store,
          const char   *key)
{
  g_autofree char *text = sextant_store_get_meta (store, key);

  g_assert_nonnull (text);

  return g_ascii_strtoll (text, NULL, 10);
}

static gboolean
take_int (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  *(gint64 *)user_data = sextant_row_is_null (row, 0) ? 0 : sextant_row_get_int (row, 0);

  return TRUE;
}

/* The ticks the outermost visits of @loc cover: what every level's busy
 * times must add up to. */
static gint64
outer_visit_ticks (SextantStore *store,
                   gint64        loc)
{
  g_autoptr(GHashTable) parameters = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                            (GDestroyNotify)g_variant_unref);
  g_autoptr(GError) error = NULL;
  gint64 ticks = -1;

  g_hash_table_insert (parameters, "loc", g_variant_ref_sink (g_variant_new_int64 (loc)));
  g_assert_true (sextant_store_run_query (store, "SELECT sum (leave - enter) FROM visit WHERE loc = :loc AND depth = 0",
                                          parameters, NULL, FALSE, take_int, &ticks, &error));
  g_assert_no_error (error);

  return ticks;
}

static void
test_geometry (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  guint n;

  g_assert_no_error (error);
  n = sextant_lod_reader_get_n_levels (reader);
  g_assert_cmpint (n, ==, meta_int (fixture->store, "lod_levels"));
  g_assert_cmpint (sextant_lod_reader_get_origin (reader), ==, meta_int (fixture->store, "lod_origin"));
  for (guint k = 0; k < n; k++)
    {
      gint64 ticks = sextant_lod_reader_get_bucket_ticks (reader, k);

      g_assert_cmpint (ticks, ==, meta_int (fixture->store, "lod_base_ticks") << k);
      g_assert_cmpuint (sextant_lod_reader_pick_level (reader, (double)ticks), ==, k);
      g_assert_cmpuint (sextant_lod_reader_pick_level (reader, (double)ticks * 1.5), ==, k);
      if (k > 0)
        g_assert_cmpuint (sextant_lod_reader_pick_level (reader, (double)ticks - 0.5), ==, k - 1);
    }
  g_assert_cmpuint (sextant_lod_reader_pick_level (reader, 0.25), ==, 0);
  g_assert_cmpuint (sextant_lod_reader_pick_level (reader, 1e300), ==, n - 1);

  /* a level the pyramid does not have is the caller's error */
  {
    g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));

    g_assert_false (sextant_lod_reader_read (reader, 0, n, 0, G_MAXINT64, buckets, &error));
    g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_ARGUMENT);
    g_assert_cmpuint (buckets->len, ==, 0);
  }
}

static void
test_views (Fixture       *fixture,
            gconstpointer  data)
{
  static const int widths[] = { 1, 37, 400, 1920, 100000 };
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) locations = sextant_test_locations (fixture->store, TRUE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  gint64 t_begin = meta_int (fixture->store, "time_begin");
  gint64 t_end = meta_int (fixture->store, "time_end") + 1;
  guint checked = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (locations->len, >, 0);

  for (guint l = 0; l < locations->len; l++)
    {
      gint64 loc = g_array_index (locations, gint64, l);
      gint64 busy_total = outer_visit_ticks (fixture->store, loc);

      for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
        {
          g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
          double ticks_per_pixel = (double)(t_end - t_begin) / widths[w];
          guint level = sextant_lod_reader_pick_level (reader, ticks_per_pixel);
          gint64 ticks = sextant_lod_reader_get_bucket_ticks (reader, level);
          gint64 busy = 0;

          g_assert_true (sextant_lod_reader_read (reader, loc, level, t_begin, t_end, all, &error));
          g_assert_no_error (error);

          /* bounded by the width, whatever the zoom: a bucket is more
           * than half a pixel wide unless the whole run is one bucket */
          g_assert_cmpuint (all->len, <=, 2 * (guint)widths[w] + 2);
          if (level > 0)
            g_assert_cmpfloat ((double)ticks, <=, ticks_per_pixel);
          for (guint i = 0; i < all->len; i++)
            {
              const SextantLodBucket *b = &g_array_index (all, SextantLodBucket, i);
              gint64 sum = 0;

              g_assert_cmpint (b->end - b->begin, ==, ticks);
              g_assert_cmpint (b->begin, ==, sextant_lod_reader_get_origin (reader) + b->bucket * ticks);
              g_assert_cmpint (b->end, >, t_begin);
              g_assert_cmpint (b->begin, <, t_end);
              if (i > 0)
                g_assert_cmpint (b->bucket, >, g_array_index (all, SextantLodBucket, i - 1).bucket);
              for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                sum += b->time[c];
              g_assert_cmpint (sum, ==, b->busy);
              g_assert_cmpint (b->busy, <=, ticks);
              g_assert_cmpint (b->busy, >, 0);
              g_assert_cmpint (b->region, !=, SEXTANT_NULL);
              busy += b->busy;
            }
          /* every level accounts for the time the visits cover */
          g_assert_cmpint (busy, ==, busy_total);

          /* part of the run: the buckets of the whole that overlap it */
          for (guint trial = 0; trial < 4; trial++)
            {
              g_autoptr(GArray) part = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
              gint64 a = t_begin + (gint64)(g_rand_double (rand) * (double)(t_end - t_begin));
              gint64 b = a + (gint64)(g_rand_double (rand) * (double)(t_end - a)) + 1;
              guint j = 0;

              g_assert_true (sextant_lod_reader_read (reader, loc, level, a, b, part, &error));
              g_assert_no_error (error);
              for (guint i = 0; i < all->len; i++)
                {
                  const SextantLodBucket *want = &g_array_index (all, SextantLodBucket, i);

                  if (want->end <= a || want->begin >= b)
                    continue;
                  g_assert_cmpuint (j, <, part->len);
                  g_assert_cmpmem (want, sizeof *want, &g_array_index (part, SextantLodBucket, j), sizeof *want);
                  j++;
                }
              g_assert_cmpuint (j, ==, part->len);
              checked++;
            }

          /* an empty range reads nothing */
          g_array_set_size (all, 0);
          g_assert_true (sextant_lod_reader_read (reader, loc, level, t_end, t_begin, all, &error));
          g_assert_cmpuint (all->len, ==, 0);
        }
    }
  g_test_message ("%s: %u locations, %u partial views", (const char *)data, locations->len, checked);
}

/* The exact pieces past the pyramid add up, per category, to what the
 * pyramid's base buckets hold: over the whole run and over random ranges
 * of base buckets, whose starts cut through visits long open. */
static void
test_visits (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) locations = sextant_test_locations (fixture->store, TRUE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  gint64 origin = sextant_lod_reader_get_origin (reader);
  gint64 base = sextant_lod_reader_get_bucket_ticks (reader, 0);
  gint64 n_base = (gint64)1 << (sextant_lod_reader_get_n_levels (reader) - 1);
  guint pieces = 0;

  g_assert_no_error (error);

  for (guint l = 0; l < locations->len; l++)
    {
      gint64 loc = g_array_index (locations, gint64, l);

      for (guint trial = 0; trial < 12; trial++)
        {
          g_autoptr(GArray) exact = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
          g_autoptr(GArray) lod = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
          gint64 want[SEXTANT_N_CATEGORIES] = { 0 };
          gint64 got[SEXTANT_N_CATEGORIES] = { 0 };
          /* the whole run first, then ranges of base buckets */
          gint64 i = trial == 0 ? 0 : g_rand_int_range (rand, 0, (gint32)n_base);
          gint64 j = trial == 0 ? n_base : i + 1 + g_rand_int_range (rand, 0, (gint32)MIN (n_base - i, 64));
          gint64 t0 = origin + i * base;
          gint64 t1 = origin + j * base;

          g_assert_true (sextant_lod_reader_read_visits (reader, loc, t0, t1, exact, &error));
          g_assert_no_error (error);
          g_assert_true (sextant_lod_reader_read (reader, loc, 0, t0, t1, lod, &error));
          g_assert_no_error (error);
          for (guint k = 0; k < lod->len; k++)
            for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
              want[c] += g_array_index (lod, SextantLodBucket, k).time[c];
          for (guint k = 0; k < exact->len; k++)
            {
              const SextantLodBucket *p = &g_array_index (exact, SextantLodBucket, k);
              guint n_categories = 0;

              g_assert_cmpint (p->bucket, ==, -1);
              g_assert_cmpint (p->begin, >=, t0);
              g_assert_cmpint (p->end, <=, t1);
              g_assert_cmpint (p->begin, <, p->end);
              g_assert_cmpint (p->busy, ==, p->end - p->begin);
              if (k > 0)
                g_assert_cmpint (p->begin, >=, g_array_index (exact, SextantLodBucket, k - 1).end);
              for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                {
                  got[c] += p->time[c];
                  n_categories += p->time[c] > 0;
                }
              g_assert_cmpuint (n_categories, ==, 1);
            }
          for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
            g_assert_cmpint (got[c], ==, want[c]);
          if (trial == 0)
            {
              gint64 busy = 0;

              for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                busy += got[c];
              g_assert_cmpint (busy, ==, outer_visit_ticks (fixture->store, loc));
            }
          pieces += exact->len;
        }
    }
  g_test_message ("%s: %u pieces", (const char *)data, pieces);
  g_assert_cmpuint (pieces, >, 0);
}

int
main (int    argc,
      char **argv)
{
  static const char * const archives[] = {
    "casita-4_mpi_ls_barr", "sstmacro-otf2_test_traces", "casita-1_scorep-ompt-host-nested",
  };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (archives); i++)
    {
      g_autofree char *geometry = g_strdup_printf ("/lod-reader/geometry/%s", archives[i]);
      g_autofree char *views = g_strdup_printf ("/lod-reader/views/%s", archives[i]);
      g_autofree char *visits = g_strdup_printf ("/lod-reader/visits/%s", archives[i]);

      g_test_add (geometry, Fixture, archives[i], fixture_set_up, test_geometry, fixture_tear_down);
      g_test_add (views, Fixture, archives[i], fixture_set_up, test_views, fixture_tear_down);
      g_test_add (visits, Fixture, archives[i], fixture_set_up, test_visits, fixture_tear_down);
    }

  return g_test_run ();
}
