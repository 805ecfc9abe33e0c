/*
 * test-lock-waits.c: the lock waits and their holders (trace/'s
 * sextant-store-locks.c), on a real archive with known waits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/otf2gen's lock-storm-small (4 ranks, 2,000 acquisitions of RMA
 * window locks and pthread mutexes, shared and exclusive) is written with
 * libotf2 and imported. Its generator prints, by brute force from the
 * documented criterion, every lock_contention instance the trace must give
 * (location, ticks waited, holder); the store's lock waits must be exactly
 * those. A view's waits (the lod reader) are the waits overlapping it; the
 * details of a call that waited name the holder and its hold; the hold
 * contains the wait's end.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-lod-reader.h"
#include "sextant-store-details.h"
#include "sextant-test-util.h"

typedef struct
{
  char         *tmpdir;
  SextantStore *store;
  GHashTable   *otf2_of;    /* loc -> otf2 id */
  GArray       *waits;      /* the whole run's */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) locations = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sextant-locks-XXXXXX", &error);
  g_autofree char *anchor = NULL;
  SextantTimeSpan span;
  gint64 longest;
  gboolean has_locks;

  g_assert_no_error (error);
  anchor = sextant_test_otf2gen ("lock-storm-small", dir);
  fixture->store = sextant_test_import (anchor, &fixture->tmpdir);
  sextant_test_remove_tree (dir);
  locations = sextant_store_list_locations (fixture->store, &error);
  g_assert_no_error (error);
  fixture->otf2_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  for (guint i = 0; i < locations->len; i++)
    {
      const SextantLocationInfo *info = g_ptr_array_index (locations, i);

      g_hash_table_insert (fixture->otf2_of, g_memdup2 (&info->id, sizeof (gint64)),
                           g_memdup2 (&info->otf2_id, sizeof (gint64)));
    }
  g_assert_true (sextant_store_get_time_span (fixture->store, &span, &error));
  g_assert_no_error (error);
  g_assert_true (sextant_store_read_lock_span (fixture->store, &longest, &has_locks, &error));
  g_assert_no_error (error);
  g_assert_true (has_locks);
  g_assert_cmpint (longest, >, 0);
  fixture->waits = g_array_new (FALSE, FALSE, sizeof (SextantLockWait));
  g_assert_true (sextant_store_read_lock_waits (fixture->store, span.begin, span.end + 1, longest, SEXTANT_NULL,
                                                SEXTANT_NULL, 1, 0, fixture->waits, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_array_unref (fixture->waits);
  g_hash_table_unref (fixture->otf2_of);
  g_clear_object (&fixture->store);
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

static gint64
otf2_of (Fixture *fixture,
         gint64   loc)
{
  gint64 *id = g_hash_table_lookup (fixture->otf2_of, &loc);

  g_assert_nonnull (id);
  return *id;
}

/* "LOCATION SEVERITY PEER" in OTF2 ids and ticks, sorted */
static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

/* Every wait of the run is one the generator planted: the same waiting
 * location, ticks and holder, none more, none less */
static void
test_waits_as_planted (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *argv[] = { g_getenv ("SEXTANT_OTF2GEN"), "--expect-instances", "lock-storm-small", NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) lines = NULL;
  int status = 0;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "lock_contention "))
      g_ptr_array_add (expected, g_strdup (lines[i] + strlen ("lock_contention ")));
  for (guint i = 0; i < fixture->waits->len; i++)
    {
      const SextantLockWait *w = &g_array_index (fixture->waits, SextantLockWait, i);

      g_assert_cmpint (w->acquired, >, w->asked);
      /* the holder got the lock before the waiter and let it go after the
       * waiter asked */
      g_assert_cmpint (w->hold_begin, <=, w->acquired);
      g_assert_cmpint (w->hold_end, >, w->asked);
      g_assert_cmpint (w->holder_loc, !=, w->loc);
      g_ptr_array_add (found, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                                               otf2_of (fixture, w->loc), w->acquired - w->asked,
                                               otf2_of (fixture, w->holder_loc)));
    }
  g_test_message ("%u waits planted, %u found", expected->len, found->len);
  g_assert_cmpuint (expected->len, >, 100);
  g_ptr_array_sort (expected, compare_strings);
  g_ptr_array_sort (found, compare_strings);
  g_assert_cmpuint (found->len, ==, expected->len);
  for (guint i = 0; i < found->len; i++)
    g_assert_cmpstr (g_ptr_array_index (found, i), ==, g_ptr_array_index (expected, i));
}

/* A view's waits: those that overlap it, as the whole run's list has them */
static void
test_view (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) view = g_array_new (FALSE, FALSE, sizeof (SextantLockWait));
  SextantLodReader *reader = sextant_lod_reader_new (fixture->store, &error);
  const SextantLockWait *first, *last;
  gint64 t0, t1;
  guint n = 0;
  gboolean too_many = TRUE;

  g_assert_no_error (error);
  first = &g_array_index (fixture->waits, SextantLockWait, 0);
  last = &g_array_index (fixture->waits, SextantLockWait, fixture->waits->len - 1);
  /* the middle third of the waits' span */
  t0 = first->asked + (last->acquired - first->asked) / 3;
  t1 = first->asked + 2 * (last->acquired - first->asked) / 3;
  g_assert_true (sextant_lod_reader_read_lock_waits (reader, t0, t1, 1, 100000, view, &too_many, &error));
  g_assert_no_error (error);
  g_assert_false (too_many);
  for (guint i = 0; i < fixture->waits->len; i++)
    {
      const SextantLockWait *w = &g_array_index (fixture->waits, SextantLockWait, i);

      if (w->asked >= t1 || w->acquired < t0)
        continue;
      g_assert_cmpuint (n, <, view->len);
      g_assert_cmpmem (w, sizeof *w, &g_array_index (view, SextantLockWait, n), sizeof *w);
      n++;
    }
  g_test_message ("%u of %u waits in the view", n, fixture->waits->len);
  g_assert_cmpuint (n, ==, view->len);
  g_assert_cmpuint (n, >, 10);
  /* too many: none */
  g_array_set_size (view, 0);
  g_assert_true (sextant_lod_reader_read_lock_waits (reader, t0, t1, 1, n - 1, view, &too_many, &error));
  g_assert_true (too_many);
  g_assert_cmpuint (view->len, ==, 0);
  sextant_lod_reader_free (reader);
}

/* The call that waited, clicked in its wait: its details name the holder
 * and its hold */
static void
test_details (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GPtrArray) locations = NULL;
  g_autoptr(GError) error = NULL;
  guint checked = 0;

  locations = sextant_store_list_locations (fixture->store, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < fixture->waits->len; i += 7)
    {
      const SextantLockWait *w = &g_array_index (fixture->waits, SextantLockWait, i);
      g_autoptr(SextantItemDetails) details = NULL;
      const SextantLocationInfo *holder = NULL;

      if (w->visit == SEXTANT_NULL)
        continue;
      g_assert_true (sextant_store_read_item_details (fixture->store, SEXTANT_DETAILS_VISIT, w->loc,
                                                      w->asked + (w->acquired - w->asked) / 2, SEXTANT_NULL,
                                                      &details, &error));
      g_assert_no_error (error);
      g_assert_nonnull (details);
      if (details->id != w->visit)
        continue;     /* a call nested in the acquiring one */
      for (guint k = 0; k < locations->len; k++)
        if (((const SextantLocationInfo *)g_ptr_array_index (locations, k))->id == w->holder_loc)
          holder = g_ptr_array_index (locations, k);
      g_assert_nonnull (holder);
      /* of several holds the call waited for, the one it got last */
      g_assert_cmpint (details->lock_acquired, >=, w->acquired);
      if (details->lock_acquired == w->acquired)
        {
          g_assert_cmpint (details->peer_loc, ==, w->holder_loc);
          g_assert_cmpstr (details->peer_label, ==, holder->label);
          g_assert_cmpint (details->lock_asked, ==, w->asked);
          g_assert_cmpint (details->hold_begin, ==, w->hold_begin);
          g_assert_cmpint (details->hold_end, ==, w->hold_end);
          checked++;
        }
    }
  g_test_message ("%u calls' details name their lock's holder", checked);
  g_assert_cmpuint (checked, >, 20);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/lock-waits/as-planted", Fixture, NULL, fixture_set_up, test_waits_as_planted, fixture_tear_down);
  g_test_add ("/lock-waits/view", Fixture, NULL, fixture_set_up, test_view, fixture_tear_down);
  g_test_add ("/lock-waits/details", Fixture, NULL, fixture_set_up, test_details, fixture_tear_down);

  return g_test_run ();
}
