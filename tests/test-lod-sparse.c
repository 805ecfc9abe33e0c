/*
 * test-lod-sparse.c: a location with few events stores its pyramid from a
 * coarser level on, and the timeline reads the same buckets at every zoom.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each archive is imported twice: as the importer stores it (a location
 * whose base buckets would hold fewer than SEXTANT_LOD_MIN_EVENTS of its
 * events on average starts at a coarser level) and with every level stored
 * (SEXTANT_LOD_DENSE=1). The lod reader must read the same buckets from
 * both, for every location and level, over the whole run and over parts
 * of it, bucket by bucket (sextant_lod_reader_read()), through SQLite's rows
 * (read_rows()), for a batch of locations (prefetch()) and as the machine
 * picture sums them; the levels both store are the same rows. More
 * archives are checked with SEXTANT_TEST_LOD_ARCHIVES (anchor files,
 * separated by ':').
 */
#include "config.h"

#include "sextant-lod-reader.h"
#include "sextant-test-util.h"

typedef struct
{
  char         *sparse_dir;
  char         *dense_dir;
  SextantStore *sparse;
  SextantStore *dense;
} Fixture;

/* @data: an archive of the external traces, an anchor file's absolute
 * path, or "gen" for the import benchmark's generator at 256 ranks of
 * about 800 events (every location sparse) */
static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *gendir = NULL;
  g_autofree char *archive = NULL;

  if (g_str_equal (data, "gen"))
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *out = NULL;

      gendir = g_dir_make_tmp ("sextant-test-gen-XXXXXX", &error);
      g_assert_no_error (error);
      out = g_build_filename (gendir, "archive", NULL);
      {
        const char *argv[] = { g_getenv ("SEXTANT_BENCH_GEN"), "--ranks", "256", "--events", "200000", out, NULL };

        sextant_test_spawn (argv);
      }
      archive = g_build_filename (out, "traces.otf2", NULL);
    }
  else if (g_path_is_absolute (data))
    archive = g_strdup (data);
  else
    {
      g_assert_nonnull (g_getenv ("SEXTANT_EXTERNAL_TRACES"));
      archive = g_build_filename (g_getenv ("SEXTANT_EXTERNAL_TRACES"), data, NULL);
    }
  fixture->sparse = sextant_test_import (archive, &fixture->sparse_dir);
  /* read by each pyramid builder as it is made: no other import runs */
  g_setenv ("SEXTANT_LOD_DENSE", "1", TRUE);
  fixture->dense = sextant_test_import (archive, &fixture->dense_dir);
  g_unsetenv ("SEXTANT_LOD_DENSE");
  if (gendir != NULL)
    sextant_test_remove_tree (gendir);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->sparse);
  g_clear_object (&fixture->dense);
  sextant_test_remove_tree (fixture->sparse_dir);
  sextant_test_remove_tree (fixture->dense_dir);
  g_free (fixture->sparse_dir);
  g_free (fixture->dense_dir);
}

static void
assert_same_buckets (GArray     *got,
                     GArray     *want,
                     gint64      loc,
                     guint       level,
                     const char *how)
{
  if (got->len != want->len ||
      (got->len > 0 && memcmp (got->data, want->data, (gsize)got->len * sizeof (SextantLodBucket)) != 0))
    g_error ("location %" G_GINT64_FORMAT ", level %u, %s: %u buckets, a dense pyramid's %u differ", loc, level,
             how, got->len, want->len);
}

/* [@t0, @t1) of @loc at @level: the same from both stores, by each read */
static void
check_range (SextantLodReader *sparse,
             SextantLodReader *dense,
             gint64            loc,
             guint             level,
             gint64            t0,
             gint64            t1)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));

  g_assert_true (sextant_lod_reader_read (sparse, loc, level, t0, t1, got, &error));
  g_assert_true (sextant_lod_reader_read_rows (sparse, loc, level, t0, t1, rows, &error));
  g_assert_true (sextant_lod_reader_read (dense, loc, level, t0, t1, want, &error));
  g_assert_no_error (error);
  assert_same_buckets (got, want, loc, level, "read");
  assert_same_buckets (rows, want, loc, level, "read_rows");
}

static void
test_same (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) sparse = sextant_lod_reader_new (fixture->sparse, &error);
  g_autoptr(SextantLodReader) dense = sextant_lod_reader_new (fixture->dense, &error);
  g_autoptr(GArray) locs = sextant_test_locations (fixture->sparse, TRUE);
  g_autoptr(GRand) rand = g_rand_new_with_seed (15);
  gint64 begin = sextant_test_meta_int (fixture->sparse, "time_begin");
  gint64 end = sextant_test_meta_int (fixture->sparse, "time_end") + 1;
  gint64 n_sparse;
  guint n_levels;

  g_assert_no_error (error);
  n_levels = sextant_lod_reader_get_n_levels (sparse);
  g_assert_cmpuint (n_levels, ==, sextant_lod_reader_get_n_levels (dense));

  /* the dense store has every level of every location that ran; the
   * other starts some coarser, and stores the same rows from there on */
  g_assert_cmpint (sextant_test_query_int (fixture->dense, "SELECT count(*) FROM (SELECT loc FROM lod GROUP BY loc "
                                              "HAVING min (level) > 0)"), ==, 0);
  n_sparse = sextant_test_query_int (fixture->sparse, "SELECT count(*) FROM (SELECT loc FROM lod GROUP BY loc "
                                         "HAVING min (level) > 0)");
  if (g_str_equal (data, "gen"))
    g_assert_cmpint (n_sparse, ==, locs->len);
  g_test_message ("%" G_GINT64_FORMAT " of %u locations start coarser", n_sparse, locs->len);
  g_assert_cmpint (sextant_test_query_int (fixture->sparse, "SELECT count(*) FROM lod"), <=,
                   sextant_test_query_int (fixture->dense, "SELECT count(*) FROM lod"));

  for (guint level = 0; level < n_levels; level++)
    {
      /* the batch read of a view's rows first, then each row */
      g_assert_true (sextant_lod_reader_prefetch (sparse, (const gint64 *)(void *)locs->data, locs->len, level,
                                                  &error));
      g_assert_no_error (error);
      for (guint i = 0; i < locs->len; i++)
        {
          gint64 loc = g_array_index (locs, gint64, i);

          /* parts of the run, from a bucket's middle to another's (the
           * buckets computed grow on either side), then all of it */
          for (guint k = 0; k < 3; k++)
            {
              gint64 a = begin + (gint64)(g_rand_double (rand) * (double)(end - begin));
              gint64 b = a + 1 + (gint64)(g_rand_double (rand) * (double)(end - a));

              check_range (sparse, dense, loc, level, a, b);
            }
          check_range (sparse, dense, loc, level, G_MININT64 / 2, G_MAXINT64 / 2);
        }
    }

  /* the machine picture, which reads the levels of all rows at once */
  {
    const guint width = 97, n_bands = 7;
    g_autofree SextantMachineCell *got = g_new0 (SextantMachineCell, width * n_bands);
    g_autofree SextantMachineCell *want = g_new0 (SextantMachineCell, width * n_bands);

    g_assert_true (sextant_lod_reader_read_machine (sparse, (const gint64 *)(void *)locs->data, locs->len, n_bands,
                                                    0, n_bands, begin, end, width, got, NULL, &error));
    g_assert_true (sextant_lod_reader_read_machine (dense, (const gint64 *)(void *)locs->data, locs->len, n_bands,
                                                    0, n_bands, begin, end, width, want, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (memcmp (got, want, sizeof (SextantMachineCell) * width * n_bands) == 0);
  }
}

/* A small cache: the levels computed from visits are dropped and read
 * again like stored ones */
static void
test_small_cache (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) sparse = sextant_lod_reader_new (fixture->sparse, &error);
  g_autoptr(SextantLodReader) dense = sextant_lod_reader_new (fixture->dense, &error);
  g_autoptr(GArray) locs = sextant_test_locations (fixture->sparse, FALSE);

  g_assert_no_error (error);
  sextant_lod_reader_set_cache_bound (sparse, 4096);
  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < locs->len; i++)
      check_range (sparse, dense, g_array_index (locs, gint64, i), 0, G_MININT64 / 2, G_MAXINT64 / 2);
  g_assert_cmpuint (sextant_lod_reader_get_cache_bytes (sparse), <, 1024 * 1024);
}

int
main (int    argc,
      char **argv)
{
  /* the generator's sparse ranks; external traces with threads and
   * processes of few events beside busy ones */
  static const char * const archives[] = {
    "gen", "casita-1_scorep-ompt-host-nested", "casita-2_cloverleaf_oaccregions_cudafull",
    "casita-2_jacobi_blame_cpu_015", "sstmacro-otf2_test_traces", "casita-1_ocl_deps",
  };
  g_auto(GStrv) more = g_strsplit (g_getenv ("SEXTANT_TEST_LOD_ARCHIVES") ?: "", ":", -1);

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (archives); i++)
    {
      g_autofree char *path = g_strdup_printf ("/lod-sparse/same/%s", archives[i]);

      g_test_add (path, Fixture, archives[i], fixture_set_up, test_same, fixture_tear_down);
    }
  g_test_add ("/lod-sparse/small-cache/gen", Fixture, "gen", fixture_set_up, test_small_cache, fixture_tear_down);
  /* more archives, outside the suite: SEXTANT_TEST_LOD_ARCHIVES=ANCHOR:ANCHOR... */
  for (guint i = 0; more[i] != NULL; i++)
    if (g_path_is_absolute (more[i]))
      {
        g_autofree char *dir = g_path_get_dirname (more[i]);
        g_autofree char *name = g_path_get_basename (dir);
        g_autofree char *path = g_strdup_printf ("/lod-sparse/more/%u-%s", i, name);

        g_test_add (path, Fixture, more[i], fixture_set_up, test_same, fixture_tear_down);
      }

  return g_test_run ();
}
