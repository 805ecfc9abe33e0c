/*
 * test-store-details.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sextant_store_read_item_details(), what the details pane shows of a
 * click on the timeline, on real stores: a visit with its call site, call
 * path and parent on the archive tests/otf2gen writes with every record
 * kind (the external archives record no call sites), the innermost visit
 * at every time of a rank of pipit-ping-pong-otf2 against a plain SQL
 * search of the visits, a message there, the barrier of
 * casita-4_mpi_ls_barr and the one-sided operations of the every-kind
 * archive and of casita-2_jacobi_blame_cpu_015.
 */
#include "config.h"

#include "sextant-store-details.h"
#include "sextant-store-private.h"
#include "sextant-test-util.h"

typedef struct
{
  char         *tmpdir;
  SextantStore *store;
} Store;

static void
store_clear (Store *store)
{
  g_clear_object (&store->store);
  if (store->tmpdir != NULL)
    sextant_test_remove_tree (store->tmpdir);
  g_clear_pointer (&store->tmpdir, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Store, store_clear)

static void
open_external (Store      *store,
               const char *name)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *dir = NULL;
  g_autofree char *anchor = NULL;

  g_assert_nonnull (root);
  dir = g_build_filename (root, name, NULL);
  anchor = g_build_filename (dir, "traces.otf2", NULL);
  store->store = sextant_test_import (g_file_test (anchor, G_FILE_TEST_EXISTS) ? anchor : dir, &store->tmpdir);
}

static void
open_every_kind (Store *store)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *out = g_build_filename (tmpdir, "archive", NULL);
  g_autofree char *anchor = NULL;

  g_assert_no_error (error);
  anchor = sextant_test_otf2gen ("every-kind", out);
  store->store = sextant_test_import (anchor, &store->tmpdir);
  sextant_test_remove_tree (tmpdir);
}

static SextantItemDetails *
read_details (SextantStore       *store,
              SextantDetailsKind  kind,
              gint64              loc,
              gint64              time,
              gint64              id)
{
  g_autoptr(GError) error = NULL;
  SextantItemDetails *details = (SextantItemDetails *)0x1;

  g_assert_true (sextant_store_read_item_details (store, kind, loc, time, id, &details, &error));
  g_assert_no_error (error);

  return details;
}

/* The first integer column of the first row of @sql */
static gboolean
take_int (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  *(gint64 *)user_data = sextant_row_get_int_or_null (row, 0);

  return FALSE;
}

static gint64
sql_int (SextantStore *store,
         const char   *sql,
         gint64        a,
         gint64        b)
{
  g_autoptr(GError) error = NULL;
  gint64 value = SEXTANT_NULL;

  g_assert_true (sextant_store_foreach_sql (store, sql, take_int, &value, &error, "ii", a, b));
  g_assert_no_error (error);

  return value;
}

/* every-kind: the call of compute_kernel on rank 2, its call site from its
 * calling context (tests/otf2gen/otf2gen-every-kind.c) */
static void
test_visit_call_site (void)
{
  g_auto(Store) store = { 0 };
  g_autoptr(SextantItemDetails) inner = NULL;
  g_autoptr(SextantItemDetails) at_enter = NULL;
  g_autoptr(SextantItemDetails) at_leave = NULL;
  g_autoptr(SextantItemDetails) before = NULL;

  open_every_kind (&store);

  inner = read_details (store.store, SEXTANT_DETAILS_VISIT, 2, 350, SEXTANT_NULL);
  g_assert_nonnull (inner);
  g_assert_cmpint (inner->kind, ==, SEXTANT_DETAILS_VISIT);
  g_assert_cmpstr (inner->name, ==, "compute_kernel");
  g_assert_cmpstr (inner->loc_label, ==, "MPI Rank 2");
  g_assert_cmpint (inner->begin, ==, 300);
  g_assert_cmpint (inner->end, ==, 400);
  g_assert_cmpint (inner->depth, ==, 1);
  g_assert_cmpstr (inner->file, ==, "/opt/every-kind/src/solver.c");
  g_assert_cmpint (inner->line, ==, 66);
  /* inside the visit of main: its calling context's frames below main, the
   * entered frame with its line (docs/schema.md, call_path) */
  g_assert_cmpstr (inner->call_path, ==, "main/solver@solver.c:44/compute_kernel@solver.c:66");
  g_assert_cmpstr (inner->parent_name, ==, "main");
  g_assert_nonnull (inner->category);
  g_assert_cmpint (inner->parent, !=, SEXTANT_NULL);

  /* enter is in the visit, leave is not: the parent then */
  at_enter = read_details (store.store, SEXTANT_DETAILS_VISIT, 2, 300, SEXTANT_NULL);
  g_assert_cmpint (at_enter->id, ==, inner->id);
  at_leave = read_details (store.store, SEXTANT_DETAILS_VISIT, 2, 400, SEXTANT_NULL);
  g_assert_nonnull (at_leave);
  g_assert_cmpint (at_leave->id, ==, inner->parent);
  g_assert_cmpstr (at_leave->name, ==, "main");
  g_assert_cmpint (at_leave->depth, ==, 0);
  g_assert_cmpint (at_leave->parent, ==, SEXTANT_NULL);

  /* before the first visit: nothing ran */
  before = read_details (store.store, SEXTANT_DETAILS_VISIT, 2, -1000, SEXTANT_NULL);
  g_assert_null (before);
}

/* pipit: the innermost visit at every time where something changes on a
 * rank, and between, as a plain search of the visits finds it */
static void
test_visit_innermost (void)
{
  g_auto(Store) store = { 0 };
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 first = 0, last = 0;
  guint checked = 0;

  open_external (&store, "pipit-ping-pong-otf2");
  first = sql_int (store.store, "SELECT min (enter) FROM visit WHERE loc = ?1 AND ?2 = ?2", 1, 0);
  last = sql_int (store.store, "SELECT max (leave) FROM visit WHERE loc = ?1 AND ?2 = ?2", 1, 0);
  g_assert_cmpint (last, >, first);
  for (int i = -2; i <= 202; i++)
    {
      gint64 t = first + (last - first) / 200 * i;

      g_array_append_val (times, t);
    }
  g_array_append_val (times, last);
  for (guint i = 0; i < times->len; i++)
    {
      gint64 t = g_array_index (times, gint64, i);
      g_autoptr(SextantItemDetails) details = read_details (store.store, SEXTANT_DETAILS_VISIT, 1, t, SEXTANT_NULL);
      gint64 expected = sql_int (store.store,
                                 "SELECT id FROM visit WHERE loc = ?1 AND enter <= ?2 AND leave > ?2 "
                                 "ORDER BY depth DESC LIMIT 1", 1, t);

      if (expected == SEXTANT_NULL)
        g_assert_null (details);
      else
        {
          g_assert_nonnull (details);
          g_assert_cmpint (details->id, ==, expected);
          g_assert_cmpint (details->begin, <=, t);
          g_assert_cmpint (details->end, >, t);
          g_assert_cmpstr (details->loc_label, ==, "MPI Rank 1");
          g_assert_nonnull (details->call_path);
          g_assert_true (g_str_has_suffix (details->call_path, details->name));
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 150);
}

static void
test_message (void)
{
  g_auto(Store) store = { 0 };
  g_autoptr(SextantItemDetails) details = NULL;
  g_autoptr(SextantItemDetails) none = NULL;

  open_external (&store, "pipit-ping-pong-otf2");
  details = read_details (store.store, SEXTANT_DETAILS_MESSAGE, SEXTANT_NULL, 0, 1);
  g_assert_nonnull (details);
  g_assert_cmpint (details->kind, ==, SEXTANT_DETAILS_MESSAGE);
  g_assert_cmpstr (details->loc_label, ==, "MPI Rank 0");
  g_assert_cmpstr (details->peer_label, ==, "MPI Rank 1");
  g_assert_cmpint (details->tag, ==, 10);
  g_assert_cmpint (details->bytes, ==, 16384);
  g_assert_cmpstr (details->comm_name, ==, "MPI_COMM_WORLD");
  g_assert_cmpint (details->begin, ==, sql_int (store.store, "SELECT send_time FROM message WHERE id = ?1 AND ?2 = ?2", 1, 0));
  g_assert_cmpint (details->end, ==, sql_int (store.store, "SELECT recv_time FROM message WHERE id = ?1 AND ?2 = ?2", 1, 0));
  g_assert_cmpint (details->end, >, details->begin);
  /* the trace records no call sites */
  g_assert_null (details->file);
  g_assert_null (details->peer_file);

  none = read_details (store.store, SEXTANT_DETAILS_MESSAGE, SEXTANT_NULL, 0, 1000000);
  g_assert_null (none);
}

static void
test_collective (void)
{
  g_auto(Store) store = { 0 };
  g_autoptr(SextantItemDetails) details = NULL;
  g_autoptr(SextantItemDetails) whole = NULL;
  gint64 first;

  open_external (&store, "casita-4_mpi_ls_barr");
  /* the first barrier on MPI_COMM_WORLD: instance 0 of the communicator,
   * whose id says so (docs/schema.md, "collective") */
  first = sql_int (store.store, "SELECT id FROM collective WHERE ?1 = ?1 AND ?2 = ?2 ORDER BY begin LIMIT 1", 0, 0);
  g_assert_cmpint (first, ==, (sql_int (store.store, "SELECT comm + 1 FROM collective WHERE id = ?1 AND ?2 = ?2",
                                        first, 0) << 32) + 1);
  details = read_details (store.store, SEXTANT_DETAILS_COLLECTIVE, 2, 0, first);
  g_assert_nonnull (details);
  g_assert_cmpstr (details->name, ==, "BARRIER");
  g_assert_cmpint (details->members, ==, 4);
  g_assert_cmpint (details->expected, ==, 4);
  g_assert_cmpstr (details->comm_name, ==, "MPI_COMM_WORLD");
  g_assert_cmpint (details->root, ==, SEXTANT_NULL);
  g_assert_cmpint (details->loc, ==, 2);
  g_assert_cmpstr (details->loc_label, ==, "MPI Rank 2");
  g_assert_cmpint (details->begin, ==, sql_int (store.store, "SELECT min (begin) FROM collective_member WHERE collective = ?1 AND ?2 = ?2", first, 0));
  g_assert_cmpint (details->end, ==, sql_int (store.store, "SELECT max (\"end\") FROM collective_member WHERE collective = ?1 AND ?2 = ?2", first, 0));
  g_assert_cmpint (details->bytes, ==, 0);

  /* not a member's click: no location */
  whole = read_details (store.store, SEXTANT_DETAILS_COLLECTIVE, SEXTANT_NULL, 0, first);
  g_assert_cmpint (whole->loc, ==, SEXTANT_NULL);
  g_assert_null (whole->loc_label);
}

static void
test_rma (void)
{
  g_auto(Store) store = { 0 };
  g_auto(Store) jacobi = { 0 };
  g_autoptr(SextantItemDetails) get = NULL;
  g_autoptr(SextantItemDetails) atomic = NULL;
  g_autoptr(SextantItemDetails) put = NULL;
  gint64 id;

  open_every_kind (&store);
  get = read_details (store.store, SEXTANT_DETAILS_RMA, SEXTANT_NULL, 0, (gint64)2 << 32);
  g_assert_nonnull (get);
  g_assert_cmpstr (get->name, ==, "GET");
  g_assert_cmpstr (get->loc_label, ==, "MPI Rank 2");
  g_assert_cmpint (get->peer_loc, ==, 3);
  g_assert_cmpstr (get->window_name, ==, "win0");
  g_assert_cmpint (get->begin, ==, 6305);
  g_assert_cmpint (get->end, ==, 6420);
  g_assert_nonnull (get->comm_name);
  atomic = read_details (store.store, SEXTANT_DETAILS_RMA, SEXTANT_NULL, 0, 2);
  g_assert_true (g_str_has_prefix (atomic->name, "ATOMIC"));

  /* a real code's puts (casita's Jacobi, MPI one-sided) */
  open_external (&jacobi, "casita-2_jacobi_blame_cpu_015");
  id = sql_int (jacobi.store, "SELECT min (id) FROM rma_op WHERE kind = 'PUT' AND ?1 = ?2", 0, 0);
  g_assert_cmpint (id, !=, SEXTANT_NULL);
  put = read_details (jacobi.store, SEXTANT_DETAILS_RMA, SEXTANT_NULL, 0, id);
  g_assert_nonnull (put);
  g_assert_cmpstr (put->name, ==, "PUT");
  g_assert_cmpint (put->bytes, ==, sql_int (jacobi.store, "SELECT bytes FROM rma_op WHERE id = ?1 AND ?2 = ?2", id, 0));
  g_assert_nonnull (put->loc_label);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

/* The reads of 200 clicks at random places, on a connection kept from
 * one to the next (@kept, as the pane does) or a new one each time;
 * reported: the median, the ninth decile and the worst */
static void
bench_reads (const char *path,
             gboolean    kept)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) probe = sextant_store_open (path, &error);
  g_autoptr(GArray) locations = NULL;
  SextantTimeSpan span;
  guint found = 0;

  g_assert_no_error (error);
  g_assert_true (sextant_store_get_time_span (probe, &span, &error));
  locations = sextant_test_locations (probe, FALSE);
  for (guint i = 0; i < 200; i++)
    {
      gint64 loc = g_array_index (locations, gint64, g_rand_int_range (rand, 0, (gint32)locations->len));
      gint64 t = span.begin + (gint64)(g_rand_double (rand) * (double)(span.end - span.begin));
      gint64 start = g_get_monotonic_time ();
      g_autoptr(SextantStore) store = kept ? g_object_ref (probe) : sextant_store_open (path, &error);
      g_autoptr(SextantItemDetails) details = NULL;
      double ms;

      g_assert_no_error (error);
      g_assert_true (sextant_store_read_item_details (store, SEXTANT_DETAILS_VISIT, loc, t, SEXTANT_NULL, &details,
                                                      &error));
      g_assert_no_error (error);
      ms = (double)(g_get_monotonic_time () - start) / 1000.0;
      g_array_append_val (times, ms);
      found += details != NULL;
    }
  g_array_sort (times, compare_double);
  g_test_message ("%s connection: %u clicks (%u on a visit): median %.2f ms, 90 %% %.2f ms, worst %.2f ms",
                  kept ? "a kept" : "a new", times->len, found, g_array_index (times, double, times->len / 2),
                  g_array_index (times, double, times->len * 9 / 10), g_array_index (times, double, times->len - 1));
}

/* SEXTANT_DETAILS_STORE=a store (the 10 M-event benchmark's): the time a
 * click's read takes */
static void
test_bench (void)
{
  const char *path = g_getenv ("SEXTANT_DETAILS_STORE");

  if (path == NULL)
    {
      g_test_skip ("SEXTANT_DETAILS_STORE is not set");
      return;
    }
  bench_reads (path, TRUE);
  bench_reads (path, FALSE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store-details/visit/call-site", test_visit_call_site);
  g_test_add_func ("/store-details/visit/innermost", test_visit_innermost);
  g_test_add_func ("/store-details/message", test_message);
  g_test_add_func ("/store-details/collective", test_collective);
  g_test_add_func ("/store-details/rma", test_rma);
  g_test_add_func ("/store-details/bench", test_bench);

  return g_test_run ();
}
