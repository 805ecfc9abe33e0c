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

#include <math.h>

#include "sextant-lod-reader.h"
#include "sextant-test-util.h"

typedef struct
{
  char         *tmpdir;
  SextantStore *store;
} Fixture;

/* Runs @argv (a generator writing an archive into its last argument) */
static void
run_generator (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* @data: an archive of the external traces; "gen" for a simulated run of
 * the import benchmark's generator (16 ranks, 400 000 events); "every-kind"
 * for sextant-otf2gen's trace of every record kind (one-sided operations,
 * window locks and synchronisation among them) */
static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *gendir = NULL;
  g_autofree char *archive = NULL;

  if (g_str_equal (data, "gen") || g_str_has_prefix (data, "every-kind") || g_str_has_prefix (data, "planted-"))
    {
      g_autofree char *out = NULL;

      gendir = g_dir_make_tmp ("sextant-test-gen-XXXXXX", &error);
      g_assert_no_error (error);
      out = g_build_filename (gendir, "archive", NULL);
      if (g_str_equal (data, "gen"))
        {
          const char *argv[] = { g_getenv ("SEXTANT_BENCH_GEN"), "--ranks", "16", "--events", "400000", out, NULL };

          run_generator (argv);
        }
      else
        {
          const char *argv[] = { g_getenv ("SEXTANT_OTF2GEN"), data, out, NULL };

          run_generator (argv);
        }
      archive = g_build_filename (out, "traces.otf2", NULL);
    }
  else
    {
      const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");

      g_assert_nonnull (root);
      archive = g_build_filename (root, data, NULL);
    }
  fixture->store = sextant_test_import (archive, &fixture->tmpdir);
  if (gendir != NULL)
    sextant_test_remove_tree (gendir);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->store);
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
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
                                          parameters, NULL, FALSE, sextant_test_take_int, &ticks, &error));
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
  g_assert_cmpint (n, ==, sextant_test_meta_int (fixture->store, "lod_levels"));
  g_assert_cmpint (sextant_lod_reader_get_origin (reader), ==, sextant_test_meta_int (fixture->store, "lod_origin"));
  for (guint k = 0; k < n; k++)
    {
      gint64 ticks = sextant_lod_reader_get_bucket_ticks (reader, k);

      g_assert_cmpint (ticks, ==, sextant_test_meta_int (fixture->store, "lod_base_ticks") << k);
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
  gint64 t_begin = sextant_test_meta_int (fixture->store, "time_begin");
  gint64 t_end = sextant_test_meta_int (fixture->store, "time_end") + 1;
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

/* The reads from chunks (cached in the reader) against SQLite's rows --------------- */

static int
compare_message_ids (gconstpointer a,
                     gconstpointer b)
{
  const SextantViewMessage *x = a;
  const SextantViewMessage *y = b;

  return (x->id > y->id) - (x->id < y->id);
}

/* The direct reads give exactly the rows of the virtual tables: the
 * pyramid's buckets at every level over the whole run and over random
 * ranges (read twice: from SQLite, then from the reader's cache), the
 * pieces of the visits past the pyramid, and the messages in flight; also
 * with caches so small that chunks are dropped and read again. */
static void
test_direct (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) locations = sextant_test_locations (fixture->store, TRUE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (13);
  gint64 t_begin = sextant_test_meta_int (fixture->store, "time_begin");
  gint64 t_end = sextant_test_meta_int (fixture->store, "time_end") + 1;
  guint n_levels;
  guint64 buckets_compared = 0;
  guint64 messages_compared = 0;

  g_assert_no_error (error);
  /* "small": caches of 64 KiB, so that what was read is dropped and read
   * again all the time */
  if (g_str_has_suffix (g_test_get_path (), "/small"))
    sextant_lod_reader_set_cache_bound (reader, 64 * 1024);
  n_levels = sextant_lod_reader_get_n_levels (reader);
  for (guint trial = 0; trial < 24; trial++)
    {
      /* the whole run, then random ranges, some of them narrow */
      gint64 t0 = trial == 0 ? t_begin : t_begin + (gint64)(g_rand_double (rand) * (double)(t_end - t_begin));
      gint64 t1 = trial == 0 ? t_end
                             : t0 + 1 + (gint64)(g_rand_double (rand) * (double)(t_end - t0) / (trial % 3 == 0 ? 1000 : 1));

      for (guint l = 0; l < locations->len; l++)
        {
          gint64 loc = g_array_index (locations, gint64, l);

          for (guint level = trial % 2; level < n_levels; level += 2)
            for (guint pass = 0; pass < 2; pass++)
              {
                g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
                g_autoptr(GArray) direct = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));

                g_assert_true (sextant_lod_reader_read_rows (reader, loc, level, t0, t1, rows, &error));
                g_assert_no_error (error);
                g_assert_true (sextant_lod_reader_read (reader, loc, level, t0, t1, direct, &error));
                g_assert_no_error (error);
                g_assert_cmpuint (direct->len, ==, rows->len);
                g_assert_cmpmem (direct->data, direct->len * sizeof (SextantLodBucket), rows->data,
                                 rows->len * sizeof (SextantLodBucket));
                buckets_compared += rows->len;
              }
          if (trial % 3 == 0)
            {
              g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
              g_autoptr(GArray) direct = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));

              g_assert_true (sextant_lod_reader_read_visits_rows (reader, loc, t0, t1, rows, &error));
              g_assert_no_error (error);
              g_assert_true (sextant_lod_reader_read_visits (reader, loc, t0, t1, direct, &error));
              g_assert_no_error (error);
              g_assert_cmpmem (direct->data, direct->len * sizeof (SextantLodBucket), rows->data,
                               rows->len * sizeof (SextantLodBucket));
            }
        }

      {
        g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
        g_autoptr(GArray) direct = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
        gboolean too_many_rows = FALSE;
        gboolean too_many = FALSE;

        g_assert_true (sextant_lod_reader_read_messages_rows (reader, t0, t1, G_MAXINT32, rows, &too_many_rows,
                                                              &error));
        g_assert_no_error (error);
        g_assert_true (sextant_lod_reader_read_messages (reader, NULL, 0, t0, t1, G_MAXINT32, direct, &too_many,
                                                         &error));
        g_assert_no_error (error);
        g_assert_false (too_many || too_many_rows);
        /* the same, in the table's order (by id) */
        g_array_sort (direct, compare_message_ids);
        g_assert_cmpuint (direct->len, ==, rows->len);
        g_assert_cmpmem (direct->data, direct->len * sizeof (SextantViewMessage), rows->data,
                         rows->len * sizeof (SextantViewMessage));
        for (guint i = 0; i < direct->len; i++)
          {
            const SextantViewMessage *m = &g_array_index (direct, SextantViewMessage, i);

            g_assert_cmpint (m->send_time, <, t1);
            g_assert_cmpint (m->recv_time, >=, t0);
            g_assert_cmpint (m->id, >, 0);
          }
        messages_compared += direct->len;

        /* of some locations (every other one met): the messages with an end there */
        {
          g_autoptr(GArray) of = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
          g_autoptr(GArray) locs = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_autoptr(GHashTable) set = g_hash_table_new (g_int64_hash, g_int64_equal);
          guint want = 0;

          for (guint i = 0; i < direct->len; i += 2)
            g_array_append_val (locs, g_array_index (direct, SextantViewMessage, i).send_loc);
          for (guint i = 0; i < locs->len; i++)
            g_hash_table_add (set, &g_array_index (locs, gint64, i));
          for (guint i = 0; i < direct->len; i++)
            want += g_hash_table_contains (set, &g_array_index (direct, SextantViewMessage, i).send_loc) ||
                    g_hash_table_contains (set, &g_array_index (direct, SextantViewMessage, i).recv_loc);
          g_assert_true (sextant_lod_reader_read_messages (reader, (const gint64 *)(void *)locs->data, locs->len,
                                                              t0, t1, G_MAXINT32, of, &too_many, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (of->len, ==, want);
          for (guint i = 0; i < of->len; i++)
            g_assert_true (g_hash_table_contains (set, &g_array_index (of, SextantViewMessage, i).send_loc) ||
                           g_hash_table_contains (set, &g_array_index (of, SextantViewMessage, i).recv_loc));
        }

        /* over the cap: none, and too_many */
        if (direct->len > 1)
          {
            g_array_set_size (direct, 0);
            g_assert_true (sextant_lod_reader_read_messages (reader, NULL, 0, t0, t1, rows->len - 1, direct, &too_many,
                                                             &error));
            g_assert_true (too_many);
            g_assert_cmpuint (direct->len, ==, 0);
          }
      }
    }
  g_test_message ("%s: %" G_GUINT64_FORMAT " buckets, %" G_GUINT64_FORMAT " messages compared, %.1f MB cached",
                  (const char *)data, buckets_compared, messages_compared,
                  sextant_lod_reader_get_cache_bytes (reader) / 1e6);
  g_assert_cmpuint (buckets_compared, >, 0);
}

/* The integer @sql gives, its parameters @types ("ii" or "iii") of @a,
 * @b, @c */
static gint64
query_ints (SextantStore *store,
            const char   *sql,
            const char   *types,
            gint64        a,
            gint64        b,
            gint64        c)
{
  g_autoptr(GError) error = NULL;
  gint64 value = -1;

  g_assert_true (sextant_store_foreach_sql (store, sql, sextant_test_take_int, &value, &error, types, a, b, c));
  g_assert_no_error (error);

  return value;
}

static gint64
query_int (SextantStore *store,
           const char   *sql,
           gint64        a,
           gint64        b)
{
  return query_ints (store, sql, "ii", a, b, 0);
}

/* The message density of a view counts every message in flight in it
 * once (as SQL counts them), whatever the slots, also when they had to
 * be coarsened to fit */
static void
test_density (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  gint64 t_begin = sextant_test_meta_int (fixture->store, "time_begin");
  gint64 t_end = sextant_test_meta_int (fixture->store, "time_end") + 1;
  gint64 pairs = query_int (fixture->store,
                            "SELECT count (*) FROM (SELECT DISTINCT send_loc, recv_loc FROM message "
                            "WHERE send_loc IS NOT NULL AND recv_loc IS NOT NULL AND ?1 = ?2)", 0, 0);

  g_assert_no_error (error);
  for (guint trial = 0; trial < 12; trial++)
    {
      gint64 t0 = trial == 0 ? t_begin : t_begin + (gint64)(g_rand_double (rand) * (double)(t_end - t_begin));
      gint64 t1 = trial == 0 ? t_end : t0 + 1 + (gint64)(g_rand_double (rand) * (double)(t_end - t0));
      gint64 want = query_int (fixture->store,
                               "SELECT count (*) FROM message WHERE send_time < ?2 AND recv_time >= ?1 "
                               "AND send_loc IS NOT NULL AND recv_loc IS NOT NULL", t0, t1);
      static const guint maxes[] = { 1000000, 2000, 64 };

      for (guint m = 0; m < G_N_ELEMENTS (maxes); m++)
        {
          g_autoptr(GArray) density = g_array_new (FALSE, FALSE, sizeof (SextantViewMessageDensity));
          /* pixels' slots, or a quarter of the view (many messages a slot) */
          gint64 slot_ticks = MAX ((t1 - t0) / (trial % 3 == 0 ? 4 : 1920), 1);
          gint64 count = 0;

          g_assert_true (sextant_lod_reader_read_message_density (reader, NULL, 0, t0, t1, slot_ticks, maxes[m],
                                                                  density, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (density->len, <=, maxes[m]);
          for (guint i = 0; i < density->len; i++)
            {
              const SextantViewMessageDensity *d = &g_array_index (density, SextantViewMessageDensity, i);

              g_assert_cmpint (d->count, >, 0);
              g_assert_cmpint (d->slot_ticks, >=, slot_ticks);
              g_assert_cmpint (d->slot_ticks % slot_ticks, ==, 0);
              g_assert_cmpint (d->begin, <, t1);
              g_assert_cmpint (d->end, >=, t0);
              g_assert_cmpint (d->begin, <, MAX (d->slot, t0) + d->slot_ticks);
              g_assert_true (d->begin >= d->slot || d->slot == t0);
              count += d->count;
            }
          /* all of them, unless there are more pairs than entries */
          if (pairs <= (gint64)maxes[m])
            g_assert_cmpint (count, ==, want);
          else
            g_assert_cmpint (count, <=, want);

          /* uncapped, each entry is its pair's messages in its slot, as
           * counted here from the messages one by one (the reader takes
           * the messages of a slot at once where a pair's are received
           * in the order sent) */
          if (m == 0)
            {
              g_autoptr(GArray) messages = g_array_new (FALSE, FALSE, sizeof (SextantViewMessage));
              g_autoptr(GHashTable) entries = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                                     (GDestroyNotify)g_bytes_unref, g_free);
              gboolean too_many = FALSE;

              g_assert_true (sextant_lod_reader_read_messages (reader, NULL, 0, t0, t1, G_MAXINT32, messages,
                                                               &too_many, &error));
              g_assert_no_error (error);
              for (guint i = 0; i < messages->len; i++)
                {
                  const SextantViewMessage *msg = &g_array_index (messages, SextantViewMessage, i);
                  gint64 key[3] = { msg->send_loc, msg->recv_loc, (MAX (msg->send_time, t0) - t0) / slot_ticks };
                  g_autoptr(GBytes) bytes = g_bytes_new (key, sizeof key);
                  gint64 *e = g_hash_table_lookup (entries, bytes);

                  if (e == NULL)
                    {
                      e = g_new0 (gint64, 4);
                      e[1] = G_MAXINT64;
                      e[2] = G_MININT64;
                      g_hash_table_insert (entries, g_bytes_ref (bytes), e);
                    }
                  e[0]++;
                  e[1] = MIN (e[1], msg->send_time);
                  e[2] = MAX (e[2], msg->recv_time);
                  e[3] += msg->bytes == SEXTANT_NULL ? 0 : msg->bytes;
                }
              g_assert_cmpuint (density->len, ==, g_hash_table_size (entries));
              for (guint i = 0; i < density->len; i++)
                {
                  const SextantViewMessageDensity *d = &g_array_index (density, SextantViewMessageDensity, i);
                  gint64 key[3] = { d->send_loc, d->recv_loc, (d->slot - t0) / slot_ticks };
                  g_autoptr(GBytes) bytes = g_bytes_new (key, sizeof key);
                  const gint64 *e = g_hash_table_lookup (entries, bytes);

                  g_assert_cmpint (d->slot_ticks, ==, slot_ticks);
                  g_assert_nonnull (e);
                  g_assert_cmpint (d->count, ==, e[0]);
                  g_assert_cmpint (d->begin, ==, e[1]);
                  g_assert_cmpint (d->end, ==, e[2]);
                  g_assert_cmpint (d->bytes, ==, e[3]);
                }
            }

          /* of 4096 locations by id from one met: the messages with an
           * end among them, as SQL counts them */
          if (m == 0 && density->len > 0)
            {
              g_autoptr(GArray) of = g_array_new (FALSE, FALSE, sizeof (SextantViewMessageDensity));
              g_autoptr(GArray) locs = g_array_new (FALSE, FALSE, sizeof (gint64));
              gint64 from = g_array_index (density, SextantViewMessageDensity, density->len / 2).send_loc;
              gint64 want_of = query_ints (fixture->store,
                                            "SELECT count (*) FROM message WHERE send_time < ?2 AND recv_time >= ?1 "
                                            "AND send_loc IS NOT NULL AND recv_loc IS NOT NULL "
                                            "AND (send_loc BETWEEN ?3 AND ?3 + 4095 "
                                            "     OR recv_loc BETWEEN ?3 AND ?3 + 4095)",
                                            "iii", t0, t1, from);
              gint64 count_of = 0;

              for (gint64 loc = from; loc < from + 4096; loc++)
                g_array_append_val (locs, loc);
              g_assert_true (sextant_lod_reader_read_message_density (reader, (const gint64 *)(void *)locs->data,
                                                                         locs->len, t0, t1, slot_ticks, maxes[m],
                                                                         of, &error));
              g_assert_no_error (error);
              for (guint i = 0; i < of->len; i++)
                {
                  const SextantViewMessageDensity *d = &g_array_index (of, SextantViewMessageDensity, i);

                  g_assert_true ((d->send_loc >= from && d->send_loc < from + 4096) ||
                                 (d->recv_loc >= from && d->recv_loc < from + 4096));
                  count_of += d->count;
                }
              g_assert_cmpint (count_of, >, 0);
              g_assert_cmpint (count_of, ==, want_of);
            }
        }
    }
}

/* One-sided operations and window synchronisation against the tables:
 * every operation in flight in a view, in issue order; the
 * synchronisation calls, each kind as many as the calls of that kind */
static void
test_rma (Fixture       *fixture,
          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  gint64 t_begin = sextant_test_meta_int (fixture->store, "time_begin");
  gint64 t_end = sextant_test_meta_int (fixture->store, "time_end") + 1;
  gint64 n_ops = query_int (fixture->store, "SELECT count (*) FROM rma_op WHERE ?1 = ?2", 0, 0);
  guint n_kind[SEXTANT_VIEW_SYNC_OTHER + 1] = { 0 };

  g_assert_no_error (error);
  g_assert_cmpint (n_ops, >, 0);
  for (gint64 t0 = t_begin; t0 < t_end; t0 += MAX ((t_end - t_begin) / 7, 1))
    for (guint whole = 0; whole < 2; whole++)
      {
        g_autoptr(GArray) ops = g_array_new (FALSE, FALSE, sizeof (SextantViewRma));
        gint64 a = whole ? t_begin : t0;
        gint64 b = whole ? t_end : t0 + MAX ((t_end - t_begin) / 5, 1);
        gboolean too_many = TRUE;
        gint64 want = query_int (fixture->store,
                                 "SELECT count (*) FROM rma_op WHERE issue_time < ?2 "
                                 "AND (complete_time >= ?1 OR complete_time IS NULL)", a, b);

        g_assert_true (sextant_lod_reader_read_rma (reader, a, b, 1000, ops, &too_many, &error));
        g_assert_no_error (error);
        g_assert_false (too_many);
        g_assert_cmpint (ops->len, ==, want);
        for (guint i = 0; i < ops->len; i++)
          {
            const SextantViewRma *op = &g_array_index (ops, SextantViewRma, i);
            g_autofree char *sql = g_strdup_printf ("SELECT count (*) FROM rma_op WHERE id = ?1 AND loc = ?2 AND "
                                                    "issue_time = %" G_GINT64_FORMAT " AND kind = '%s'",
                                                    op->issue_time,
                                                    op->kind == SEXTANT_VIEW_RMA_PUT ? "PUT"
                                                    : op->kind == SEXTANT_VIEW_RMA_GET ? "GET" : "ATOMIC");

            g_assert_cmpint (query_int (fixture->store, sql, op->id, op->origin_loc), ==, 1);
            g_assert_cmpint (op->issue_time, <, b);
            g_assert_true (op->complete_time == SEXTANT_NULL || op->complete_time >= a);
            if (i > 0)
              g_assert_cmpint (op->issue_time, >=, g_array_index (ops, SextantViewRma, i - 1).issue_time);
          }
        if (whole)
          g_assert_cmpint (ops->len, ==, n_ops);
        /* over the cap: none */
        if (ops->len > 1)
          {
            g_array_set_size (ops, 0);
            g_assert_true (sextant_lod_reader_read_rma (reader, a, b, want - 1, ops, &too_many, &error));
            g_assert_true (too_many);
            g_assert_cmpuint (ops->len, ==, 0);
          }
      }

  {
    g_autoptr(GArray) syncs = g_array_new (FALSE, FALSE, sizeof (SextantViewSync));
    gboolean too_many = TRUE;

    g_assert_true (sextant_lod_reader_read_rma_sync (reader, t_begin, t_end, 1000, syncs, &too_many, &error));
    g_assert_no_error (error);
    g_assert_false (too_many);
    for (guint i = 0; i < syncs->len; i++)
      {
        const SextantViewSync *sync = &g_array_index (syncs, SextantViewSync, i);

        g_test_message ("sync loc %" G_GINT64_FORMAT " [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] win %"
                        G_GINT64_FORMAT " target %" G_GINT64_FORMAT " kind %d", sync->loc, sync->begin, sync->end,
                        sync->win, sync->target_loc, sync->kind);
        g_assert_cmpint (sync->begin, <=, sync->end);
        if (i > 0)
          g_assert_cmpint (sync->begin, >=, g_array_index (syncs, SextantViewSync, i - 1).begin);
        n_kind[sync->kind]++;
      }
    /* each MPI_Win_fence is a fence; locks: every window lock acquired
     * and released (its own record) and each MPI_Win_start and complete;
     * an exposure epoch's post and wait; the flushes and syncs */
    g_assert_cmpuint (n_kind[SEXTANT_VIEW_SYNC_FENCE], ==,
                      query_int (fixture->store, "SELECT count (*) FROM visit JOIN region AS r ON r.id = region "
                                                 "WHERE r.name = 'MPI_Win_fence' AND ?1 = ?2", 0, 0));
    g_assert_cmpuint (n_kind[SEXTANT_VIEW_SYNC_LOCK], ==,
                      query_int (fixture->store,
                                 "SELECT (SELECT count (*) FROM lock WHERE family = 'RMA' AND acquire_time IS NOT NULL) "
                                 "     + (SELECT count (*) FROM visit JOIN region AS r ON r.id = region "
                                 "        WHERE r.name = 'MPI_Win_start') WHERE ?1 = ?2", 0, 0));
    g_assert_cmpuint (n_kind[SEXTANT_VIEW_SYNC_UNLOCK], ==,
                      query_int (fixture->store,
                                 "SELECT (SELECT count (*) FROM lock WHERE family = 'RMA' AND release_time IS NOT NULL) "
                                 "     + (SELECT count (*) FROM visit JOIN region AS r ON r.id = region "
                                 "        WHERE r.name = 'MPI_Win_complete') WHERE ?1 = ?2", 0, 0));
    g_assert_cmpuint (n_kind[SEXTANT_VIEW_SYNC_EXPOSE], ==,
                      query_int (fixture->store, "SELECT count (*) FROM visit JOIN region AS r ON r.id = region "
                                                 "WHERE r.name IN ('MPI_Win_post', 'MPI_Win_wait') AND ?1 = ?2", 0, 0));
    g_assert_cmpuint (n_kind[SEXTANT_VIEW_SYNC_FLUSH], ==,
                      query_int (fixture->store, "SELECT count (*) FROM visit JOIN region AS r ON r.id = region "
                                                 "WHERE (r.name LIKE 'MPI_Win_flush%' OR r.name = 'MPI_Win_sync') "
                                                 "AND ?1 = ?2", 0, 0));
  }
}

/* The whole-machine picture: each cell is the mean over its band's
 * locations of the share of the cell's time each spent in a category,
 * as read() gives it at the picture's level (computed here column by
 * column) */
static void
test_machine (Fixture       *fixture,
              gconstpointer  data)
{
  static const guint band_counts[] = { 1, 5, 16 };
  const guint width = 301;
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) locations = sextant_test_locations (fixture->store, FALSE);
  gint64 t_begin = sextant_test_meta_int (fixture->store, "time_begin");
  gint64 t_end = sextant_test_meta_int (fixture->store, "time_end") + 1;
  guint64 nonzero = 0;

  g_assert_no_error (error);
  for (guint v = 0; v < 3; v++)
    for (guint nb = 0; nb < G_N_ELEMENTS (band_counts); nb++)
      {
        guint n_bands = band_counts[nb];
        gint64 t0 = v == 0 ? t_begin : t_begin + (t_end - t_begin) * v / 7;
        gint64 t1 = v == 0 ? t_end : t0 + (t_end - t_begin) / (v * 9);
        g_autofree SextantMachineCell *cells = g_new (SextantMachineCell, n_bands * width);
        guint level = sextant_lod_reader_pick_machine_level (reader, locations->len, t0, t1, width);
        double column = (double)(t1 - t0) / width;

        g_autofree SextantMachineCell *halves = g_new (SextantMachineCell, n_bands * width);
        g_autoptr(SextantLodReader) second = sextant_lod_reader_new (fixture->store, &error);
        guint categories = 0, seen = 0;

        g_assert_true (sextant_lod_reader_read_machine (reader, (const gint64 *)locations->data, locations->len,
                                                        n_bands, 0, n_bands, t0, t1, width, cells, &categories, &error));
        g_assert_no_error (error);
        /* the bands in two halves, by two readers (the timeline's two
         * threads): the same picture */
        memset (halves, 0xff, sizeof (SextantMachineCell) * n_bands * width);
        g_assert_true (sextant_lod_reader_read_machine (reader, (const gint64 *)locations->data, locations->len,
                                                        n_bands, 0, n_bands / 2, t0, t1, width, halves, NULL, &error));
        g_assert_true (sextant_lod_reader_read_machine (second, (const gint64 *)locations->data, locations->len,
                                                        n_bands, n_bands / 2, n_bands, t0, t1, width, halves, NULL, &error));
        g_assert_no_error (error);
        g_assert_cmpmem (halves, sizeof (SextantMachineCell) * n_bands * width, cells,
                         sizeof (SextantMachineCell) * n_bands * width);
        for (guint b = 0; b < n_bands; b++)
          {
            guint lo = b * locations->len / n_bands;
            guint hi = (b + 1) * locations->len / n_bands;
            g_autofree double *share = g_new0 (double, width * SEXTANT_N_CATEGORIES);

            for (guint i = lo; i < hi; i++)
              {
                g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));

                g_assert_true (sextant_lod_reader_read (reader, g_array_index (locations, gint64, i), level, t0, t1,
                                                        buckets, &error));
                g_assert_no_error (error);
                for (guint x = 0; x < width; x++)
                  {
                    double c0 = t0 + x * column;
                    double c1 = c0 + column;

                    for (guint k = 0; k < buckets->len; k++)
                      {
                        const SextantLodBucket *bk = &g_array_index (buckets, SextantLodBucket, k);
                        double overlap = MIN (c1, (double)MIN (bk->end, t1)) - MAX (c0, (double)MAX (bk->begin, t0));

                        if (overlap > 0)
                          for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                            share[x * SEXTANT_N_CATEGORIES + c] +=
                              bk->time[c] * overlap / (double)(bk->end - bk->begin) / column / (hi - lo);
                      }
                  }
              }
            for (guint x = 0; x < width; x++)
              for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                {
                  double want = CLAMP (share[x * SEXTANT_N_CATEGORIES + c] * 255.0, 0.0, 255.0);
                  guint8 got = cells[b * width + x].share[c];

                  if (hi == lo)
                    want = 0;
                  g_assert_cmpfloat (fabs (got - want), <=, 1.0);
                  nonzero += got > 0;
                  seen |= (guint)(got > 0) << c;
                }
          }
        /* the categories it says the picture has: those of its cells */
        g_assert_cmpuint (categories, ==, seen);
      }
  g_assert_cmpuint (nonzero, >, 0);
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

  {
    static const char * const direct[] = { "casita-2_jacobi_blame_cpu_015", "casita-1_scorep-ompt-host-nested", "gen" };

    for (guint i = 0; i < G_N_ELEMENTS (direct); i++)
      {
        g_autofree char *path = g_strdup_printf ("/lod-reader/direct/%s", direct[i]);
        g_autofree char *density = g_strdup_printf ("/lod-reader/density/%s", direct[i]);
        g_autofree char *machine = g_strdup_printf ("/lod-reader/machine/%s", direct[i]);

        g_test_add (path, Fixture, direct[i], fixture_set_up, test_direct, fixture_tear_down);
        g_test_add (density, Fixture, direct[i], fixture_set_up, test_density, fixture_tear_down);
        g_test_add (machine, Fixture, direct[i], fixture_set_up, test_machine, fixture_tear_down);
      }
    g_test_add ("/lod-reader/direct/casita-2_jacobi_blame_cpu_015/small", Fixture, "casita-2_jacobi_blame_cpu_015",
                fixture_set_up, test_direct, fixture_tear_down);
    g_test_add ("/lod-reader/rma/every-kind", Fixture, "every-kind", fixture_set_up, test_rma, fixture_tear_down);
    /* messages of a pair received in another order than sent: the
     * density's walk one by one */
    g_test_add ("/lod-reader/density/planted-wrong-order", Fixture, "planted-wrong-order", fixture_set_up,
                test_density, fixture_tear_down);
  }

  return g_test_run ();
}
