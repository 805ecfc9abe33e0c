/*
 * test-lod-reader-indexes.c: the timeline's reads of lost time,
 * collectives and one-sided operations against SQL.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lod reader answers these from indexes it builds at the first read
 * (sextant-lod-reader-lost.c, -collectives.c), or at once when the store
 * has no one-sided communication (sextant-lod-reader-rma.c). On third-party
 * archives imported and analysed for the test (casita-2_jacobi_blame_cpu_015:
 * 16 ranks with threads, instances from a few ticks to most of the run,
 * some without an interval, a thousand collectives, one-sided operations;
 * casita-4_mpi_ls_barr: a handful of very long instances, one collective,
 * no one-sided operation), for many windows (random, narrow to wider than
 * the run, at the edges of the run and of instances and collectives,
 * empty, reversed), each read gives what SQL over the tables gives, and
 * too_many exactly when that is more than the cap (then nothing). And the
 * index of intervals itself (sextant-lod-reader-spans.c) on intervals no
 * trace has: empty, ending before they begin, 2^62 ticks long, at the ends
 * of the 64-bit range, against a count of them all.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-lod-reader-private.h"
#include "sextant-test-util.h"

typedef struct
{
  char         *tmpdir;
  SextantStore *store;
  gint64        t_begin;
  gint64        t_end;     /* past the last tick */
} Fixture;

/* the patterns analysed: long and short intervals, collectives, some
 * without an interval (unbalanced_communication); the whole catalogue
 * takes seconds on casita-2 */
static const char * const patterns[] = {
  "late_sender", "wait_at_barrier", "wait_inside_collective", "wait_at_nxn", "unbalanced_communication",
  "wait_at_finalize",
};

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autofree char *archive = NULL;
  g_autofree char *db = NULL;
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");

  g_assert_nonnull (root);
  archive = g_build_filename (root, data, "traces.otf2", NULL);
  fixture->store = sextant_test_import (archive, &fixture->tmpdir);
  db = g_strdup (sextant_store_get_path (fixture->store));
  g_clear_object (&fixture->store);

  g_ptr_array_add (args, "analyze");
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      g_ptr_array_add (args, "--pattern");
      g_ptr_array_add (args, (char *)patterns[i]);
    }
  g_ptr_array_add (args, db);
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (sextant_test_run_sextant ((const char * const *)args->pdata, NULL), ==, 0);

  fixture->store = sextant_store_open (db, &error);
  g_assert_no_error (error);
  fixture->t_begin = sextant_test_meta_int (fixture->store, "time_begin");
  fixture->t_end = sextant_test_meta_int (fixture->store, "time_end") + 1;
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->store);
  sextant_test_remove_tree (fixture->tmpdir);
  g_free (fixture->tmpdir);
}

/* Windows ------------------------------------------------------------------------------ */

typedef struct
{
  gint64 t0;
  gint64 t1;
} Window;

static void
add_window (GArray *windows,
            gint64  t0,
            gint64  t1)
{
  Window w = { t0, t1 };

  g_array_append_val (windows, w);
}

static gboolean
add_edges (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  GArray *windows = user_data;
  gint64 begin = sextant_row_get_int (row, 0);
  gint64 end = sextant_row_get_int (row, 1);

  /* each side of both ends, a tick wide; and the interval itself */
  add_window (windows, begin - 1, begin);
  add_window (windows, begin, begin + 1);
  add_window (windows, end - 1, end);
  add_window (windows, end, end + 1);
  add_window (windows, begin, end);

  return TRUE;
}

/* The windows read: the run, wider, its edges, empty and reversed ones,
 * @n_random random ones from a tick wide to twice the run anywhere
 * about it, and the edges of the intervals @edges_sql gives (begin,
 * end) */
static GArray *
make_windows (Fixture    *fixture,
              guint       n_random,
              const char *edges_sql)
{
  g_autoptr(GError) error = NULL;
  GArray *windows = g_array_new (FALSE, FALSE, sizeof (Window));
  gint64 b = fixture->t_begin;
  gint64 e = fixture->t_end;
  gint64 span = e - b;

  add_window (windows, b, e);
  add_window (windows, b - span, e + span);
  add_window (windows, G_MININT64 + 1, G_MAXINT64);
  add_window (windows, b - 10, b);
  add_window (windows, b - 10, b + 1);
  add_window (windows, e - 1, e + 10);
  add_window (windows, e, e + 10);
  add_window (windows, b + span / 2, b + span / 2);
  add_window (windows, b + span / 2 + 5, b + span / 2);
  add_window (windows, e, b);
  for (guint i = 0; i < n_random; i++)
    {
      /* widths spread evenly on a log scale */
      double width = pow (2.0, g_test_rand_double_range (0.0, log2 ((double)span * 2)));
      gint64 w = MAX ((gint64)width, 1);
      gint64 t0 = b - w + (gint64)(g_test_rand_double () * (double)(span + w));

      add_window (windows, t0, t0 + w);
    }
  g_assert_true (sextant_store_foreach_sql (fixture->store, edges_sql, add_edges, windows, &error, ""));
  g_assert_no_error (error);

  return windows;
}

/* Reads ---------------------------------------------------------------------------------- */

typedef gboolean (*ReadFunc) (SextantLodReader  *self,
                              gint64             t0,
                              gint64             t1,
                              guint              max,
                              GArray            *out,
                              gboolean          *too_many,
                              GError           **error);

/* @read of [@t0, @t1) at @max (elements of @size) into an array that
 * holds an element already: when SQL has @n > @max, it appends nothing
 * and sets too_many (NULL); else it returns the @n it appended, and the
 * first element is as it was */
static GArray *
read_capped (SextantLodReader *reader,
             ReadFunc          read,
             guint             size,
             guint             n,
             gint64            t0,
             gint64            t1,
             guint             max)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) got = g_array_new (FALSE, FALSE, size);
  g_autofree guint8 *first = g_malloc (size);
  gboolean too_many = !(n > max);

  memset (first, 0x5a, size);
  g_array_append_vals (got, first, 1);
  g_assert_true (read (reader, t0, t1, max, got, &too_many, &error));
  g_assert_no_error (error);
  g_assert_true (memcmp (got->data, first, size) == 0);
  if (too_many != (n > max) || (too_many ? 1 : n + 1) != got->len)
    g_test_message ("window [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), cap %u: %u in SQL, %u read%s", t0, t1, max,
                    n, got->len - 1, too_many ? ", too many" : "");
  g_assert_true (too_many == (n > max));
  if (too_many)
    {
      g_assert_cmpuint (got->len, ==, 1);
      return NULL;
    }
  g_array_remove_index (got, 0);
  g_assert_cmpuint (got->len, ==, n);

  return g_steal_pointer (&got);
}

/* @sql's rows for [?1, ?2) (@func appends each to an array of @size),
 * none when t1 <= t0 (an empty or reversed window has nothing) */
static GArray *
rows_by_sql (SextantStore   *store,
             const char     *sql,
             SextantRowFunc  func,
             guint           size,
             gint64          t0,
             gint64          t1)
{
  g_autoptr(GError) error = NULL;
  GArray *rows = g_array_new (FALSE, FALSE, size);

  if (t1 > t0)
    g_assert_true (sextant_store_foreach_sql (store, sql, func, rows, &error, "ii", t0, t1));
  g_assert_no_error (error);

  return rows;
}

typedef GArray *(*BySqlFunc) (SextantStore *store,
                              gint64        t0,
                              gint64        t1);
typedef void    (*CheckFunc) (SextantLodReader *reader,
                              SextantStore     *store,
                              gint64            t0,
                              gint64            t1,
                              guint             max);

/* @check for each of @windows without a cap, at what @by_sql finds there
 * and one under it, and at a small cap; returns how many windows had
 * something */
static guint
check_windows (SextantLodReader *reader,
               SextantStore     *store,
               const GArray     *windows,
               BySqlFunc         by_sql,
               CheckFunc         check)
{
  guint nonempty = 0;

  for (guint i = 0; i < windows->len; i++)
    {
      const Window *w = &g_array_index (windows, Window, i);
      g_autoptr(GArray) want = by_sql (store, w->t0, w->t1);

      check (reader, store, w->t0, w->t1, G_MAXUINT);
      if (want->len > 0)
        {
          check (reader, store, w->t0, w->t1, want->len);
          check (reader, store, w->t0, w->t1, want->len - 1);
          nonempty++;
        }
      check (reader, store, w->t0, w->t1, g_test_rand_int_range (0, 64));
    }

  return nonempty;
}

/* The index of intervals ------------------------------------------------------------ */

/* @t + @d, saturated to the range of times */
static gint64
time_plus (gint64 t,
           gint64 d)
{
  if (d > 0 && t > G_MAXINT64 - d)
    return G_MAXINT64;
  if (d < 0 && t < G_MININT64 + 1 - d)
    return G_MININT64 + 1;

  return t + d;
}

/* A random time: about @around, or anywhere, or at the ends of the range */
static gint64
random_time (gint64 around)
{
  switch (g_test_rand_int_range (0, 6))
    {
    case 0:
      return G_MININT64 + 1 + g_test_rand_int_range (0, 3);
    case 1:
      return G_MAXINT64 - g_test_rand_int_range (0, 3);
    case 2:
      return (gint64)(((guint64)g_test_rand_int () << 32) ^ (guint64)g_test_rand_int ());
    default:
      /* saturated: @around may be at an end of the range */
      return time_plus (around, g_test_rand_int_range (-1000, 1000));
    }
}

static gboolean
collect_span (const Span *span,
              gpointer    user_data)
{
  g_array_append_val ((GArray *)user_data, span->item);

  return TRUE;
}

static gboolean
stop_after_one (const Span *span,
                gpointer    user_data)
{
  (*(guint *)user_data)++;

  return FALSE;
}

/* Intervals of any length, empty ones, ones that end before they begin,
 * at the ends of the 64-bit range: an index finds, and counts, exactly
 * those with begin < t1 and end > t0, whatever the window */
static void
test_spans (void)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr(GArray) copy = NULL;
  SpanIndex *index;

  for (guint i = 0; i < 3000; i++)
    {
      Span span = { random_time (0), 0, i };
      gint64 length;

      switch (g_test_rand_int_range (0, 5))
        {
        case 0:
          span.end = span.begin;
          break;
        case 1:
          span.end = random_time (span.begin);
          break;
        default:
          length = (gint64)1 << g_test_rand_int_range (0, 62);
          length = g_test_rand_int_range (1, 1 << 20) % length + 1;
          span.end = span.begin > G_MAXINT64 - length ? G_MAXINT64 : span.begin + length;
          break;
        }
      g_array_append_val (spans, span);
    }
  copy = g_array_copy (spans);
  index = _sextant_lod_span_index_new (g_steal_pointer (&copy));
  for (guint w = 0; w < 3000; w++)
    {
      g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (guint));
      const Span *pick = &g_array_index (spans, Span, g_test_rand_int_range (0, spans->len));
      gint64 t0 = w % 3 == 0 ? time_plus (pick->end, g_test_rand_int_range (-1, 2)) : random_time (0);
      gint64 t1 = w % 3 == 1 ? time_plus (pick->begin, g_test_rand_int_range (-1, 2)) : random_time (t0);
      guint64 want = 0;
      guint calls = 0;

      for (guint i = 0; i < spans->len; i++)
        {
          const Span *span = &g_array_index (spans, Span, i);

          want += t0 < t1 && span->begin < t1 && span->end > t0;
        }
      g_assert_cmpuint (_sextant_lod_span_index_count (index, t0, t1), ==, want);
      g_assert_true (_sextant_lod_span_index_foreach (index, t0, t1, collect_span, found));
      g_assert_cmpuint (found->len, ==, want);
      /* each once, each one of them */
      g_array_sort (found, _sextant_lod_compare_places);
      for (guint i = 0; i < found->len; i++)
        {
          const Span *span = &g_array_index (spans, Span, g_array_index (found, guint, i));

          g_assert_true (i == 0 || g_array_index (found, guint, i) > g_array_index (found, guint, i - 1));
          g_assert_true (span->begin < t1 && span->end > t0);
        }
      /* a walk stopped stops */
      g_assert_true (_sextant_lod_span_index_foreach (index, t0, t1, stop_after_one, &calls) == (want == 0));
      g_assert_cmpuint (calls, ==, MIN (want, 1));
    }
  _sextant_lod_span_index_free (index);
}

/* Lost time ---------------------------------------------------------------------------- */

static gboolean
lost_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  SextantViewLost l = { 0 };

  l.loc = sextant_row_get_int (row, 0);
  l.begin = sextant_row_get_int (row, 1);
  l.end = sextant_row_get_int (row, 2);
  l.severity = sextant_row_get_int (row, 3);
  l.instance = sextant_row_get_int (row, 4);
  l.pattern = (guint)(l.instance >> 32);
  g_array_append_val ((GArray *)user_data, l);

  return TRUE;
}

static int
compare_lost (gconstpointer a,
              gconstpointer b)
{
  const SextantViewLost *x = a;
  const SextantViewLost *y = b;

  return (x->instance > y->instance) - (x->instance < y->instance);
}

/* What SQL says [@t0, @t1) has: the instances with a location whose
 * interval overlaps it, by id */
static GArray *
lost_by_sql (SextantStore *store,
             gint64        t0,
             gint64        t1)
{
  return rows_by_sql (store,
                      "SELECT loc, begin, \"end\", severity, id FROM pattern_instance_data "
                      "WHERE begin < ?2 AND \"end\" > ?1 AND loc IS NOT NULL ORDER BY id",
                      lost_row, sizeof (SextantViewLost), t0, t1);
}

/* read_lost() of [@t0, @t1) at @max gives what SQL gives, or nothing
 * and too_many when that is more than @max */
static void
check_lost (SextantLodReader *reader,
            SextantStore     *store,
            gint64            t0,
            gint64            t1,
            guint             max)
{
  g_autoptr(GArray) want = lost_by_sql (store, t0, t1);
  g_autoptr(GArray) got = read_capped (reader, sextant_lod_reader_read_lost, sizeof (SextantViewLost), want->len, t0,
                                       t1, max);

  if (got == NULL)
    return;
  g_array_sort (got, compare_lost);
  for (guint i = 0; i < want->len; i++)
    {
      const SextantViewLost *w = &g_array_index (want, SextantViewLost, i);
      const SextantViewLost *g = &g_array_index (got, SextantViewLost, i);

      g_assert_cmpint (g->instance, ==, w->instance);
      g_assert_cmpint (g->loc, ==, w->loc);
      g_assert_cmpint (g->begin, ==, w->begin);
      g_assert_cmpint (g->end, ==, w->end);
      g_assert_cmpint (g->severity, ==, w->severity);
      g_assert_cmpuint (g->pattern, ==, w->pattern);
    }
}

static void
test_lost (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) windows = make_windows (fixture, 400,
                                            "SELECT begin, \"end\" FROM pattern_instance_data "
                                            "WHERE begin IS NOT NULL AND \"end\" IS NOT NULL ORDER BY id LIMIT 60");
  gint64 instances = sextant_test_query_int (fixture->store, "SELECT count (*) FROM pattern_instance_data WHERE loc IS NOT NULL");
  g_assert_no_error (error);
  g_assert_cmpint (instances, >, 0);
  g_assert_cmpuint (check_windows (reader, fixture->store, windows, lost_by_sql, check_lost), >, windows->len / 4);

  /* a tick in the middle of the longest instance, far from both its
   * ends: it is there (one that begins there could be any way behind) */
  {
    gint64 longest = sextant_test_query_int (fixture->store,
                                "SELECT id FROM pattern_instance_data WHERE loc IS NOT NULL "
                                "ORDER BY \"end\" - begin DESC LIMIT 1");
    g_autofree char *sql = g_strdup_printf ("SELECT (begin + \"end\") / 2 FROM pattern_instance_data "
                                            "WHERE id = %" G_GINT64_FORMAT, longest);
    gint64 middle = sextant_test_query_int (fixture->store, sql);
    g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (SextantViewLost));
    gboolean too_many = TRUE;
    gboolean found = FALSE;

    /* casita-2's is longer than most by far */
    if (g_str_equal (data, "casita-2_jacobi_blame_cpu_015"))
      g_assert_cmpint (sextant_test_query_int (fixture->store, "SELECT max (\"end\" - begin) > 1000 * avg (\"end\" - begin) "
                                                  "FROM pattern_instance_data"), ==, 1);
    g_assert_true (sextant_lod_reader_read_lost (reader, middle, middle + 1, 1000, got, &too_many, &error));
    g_assert_no_error (error);
    g_assert_false (too_many);
    for (guint i = 0; i < got->len; i++)
      found |= g_array_index (got, SextantViewLost, i).instance == longest;
    g_assert_true (found);
    check_lost (reader, fixture->store, middle, middle + 1, G_MAXUINT);
  }

  /* instances without an interval (casita-2's unbalanced_communication)
   * are in no window */
  if (g_str_equal (data, "casita-2_jacobi_blame_cpu_015"))
    g_assert_cmpint (sextant_test_query_int (fixture->store, "SELECT count (*) FROM pattern_instance_data WHERE begin IS NULL"), >,
                     0);
}

/* Collectives -------------------------------------------------------------------------- */

static gboolean
member_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  SextantViewMember m;

  m.collective = sextant_row_get_int (row, 0);
  m.loc = sextant_row_get_int (row, 1);
  m.begin = sextant_row_get_int (row, 2);
  m.end = sextant_row_get_int (row, 3);
  g_array_append_val ((GArray *)user_data, m);

  return TRUE;
}

static int
compare_members (gconstpointer a,
                 gconstpointer b)
{
  const SextantViewMember *x = a;
  const SextantViewMember *y = b;

  if (x->collective != y->collective)
    return x->collective < y->collective ? -1 : 1;
  if (x->loc != y->loc)
    return x->loc < y->loc ? -1 : 1;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;

  return (x->end > y->end) - (x->end < y->end);
}

/* What SQL says [@t0, @t1) has: the members of the collectives of more
 * than one member under way in it, sorted */
static GArray *
members_by_sql (SextantStore *store,
                gint64        t0,
                gint64        t1)
{
  GArray *members = rows_by_sql (store,
                                 "SELECT m.collective, m.loc, m.begin, m.\"end\" "
                                 "FROM collective AS c JOIN collective_member AS m ON m.collective = c.id "
                                 "WHERE c.begin < ?2 AND c.\"end\" >= ?1 AND c.members > 1",
                                 member_row, sizeof (SextantViewMember), t0, t1);

  g_array_sort (members, compare_members);

  return members;
}

/* read_collectives() of [@t0, @t1) at @max gives what SQL gives,
 * grouped by collective in collective order, or nothing and too_many */
static void
check_collectives (SextantLodReader *reader,
                   SextantStore     *store,
                   gint64            t0,
                   gint64            t1,
                   guint             max)
{
  g_autoptr(GArray) want = members_by_sql (store, t0, t1);
  g_autoptr(GArray) got = read_capped (reader, sextant_lod_reader_read_collectives, sizeof (SextantViewMember),
                                       want->len, t0, t1, max);

  if (got == NULL)
    return;
  for (guint i = 1; i < got->len; i++)
    g_assert_cmpint (g_array_index (got, SextantViewMember, i).collective, >=,
                     g_array_index (got, SextantViewMember, i - 1).collective);
  g_array_sort (got, compare_members);
  for (guint i = 0; i < want->len; i++)
    g_assert_cmpint (compare_members (&g_array_index (got, SextantViewMember, i),
                                      &g_array_index (want, SextantViewMember, i)), ==, 0);
}

static void
test_collectives (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) windows = make_windows (fixture, 300,
                                            "SELECT begin, \"end\" FROM collective WHERE members > 1 "
                                            "ORDER BY \"end\" - begin DESC LIMIT 40");

  g_assert_no_error (error);
  g_assert_cmpint (sextant_test_query_int (fixture->store, "SELECT count (*) FROM collective WHERE members > 1"), >, 0);
  g_assert_cmpuint (check_windows (reader, fixture->store, windows, members_by_sql, check_collectives), >,
                    windows->len / 4);
}

/* One-sided operations ------------------------------------------------------------------- */

static gboolean
append_int (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  gint64 value = sextant_row_get_int (row, 0);

  g_array_append_val ((GArray *)user_data, value);

  return TRUE;
}

/* read_rma() of [@t0, @t1) at @max gives SQL's operations in flight in
 * it (issued before t1, completed at or after t0 or never), in issue
 * order, or nothing and too_many when there are more than @max */
static void
check_rma (SextantLodReader *reader,
           SextantStore     *store,
           gint64            t0,
           gint64            t1,
           guint             max)
{
  g_autoptr(GArray) want = rows_by_sql (store,
                                        "SELECT id FROM rma_op WHERE issue_time < ?2 "
                                        "AND (complete_time >= ?1 OR complete_time IS NULL) ORDER BY issue_time, id",
                                        append_int, sizeof (gint64), t0, t1);
  g_autoptr(GArray) got = NULL;

  if (!(got = read_capped (reader, sextant_lod_reader_read_rma, sizeof (SextantViewRma), want->len, t0, t1, max)))
    return;
  for (guint i = 0; i < want->len; i++)
    g_assert_cmpint (g_array_index (got, SextantViewRma, i).id, ==, g_array_index (want, gint64, i));
}

static gboolean
sync_equal (const SextantViewSync *a,
            const SextantViewSync *b)
{
  return a->loc == b->loc && a->begin == b->begin && a->end == b->end && a->win == b->win &&
         a->target_loc == b->target_loc && a->kind == b->kind;
}

/* read_rma_sync() of [@t0, @t1): a part of @whole (the run's), in time
 * order; at @max, the same or nothing and too_many when there are more;
 * returns how many there are */
static guint
check_syncs (SextantLodReader *reader,
             const GArray     *whole,
             gint64            t0,
             gint64            t1,
             guint             max)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SextantViewSync));
  g_autoptr(GArray) got = NULL;
  gboolean too_many = TRUE;

  g_assert_true (sextant_lod_reader_read_rma_sync (reader, t0, t1, G_MAXUINT, all, &too_many, &error));
  g_assert_no_error (error);
  g_assert_false (too_many);
  for (guint i = 0; i < all->len; i++)
    {
      const SextantViewSync *sync = &g_array_index (all, SextantViewSync, i);
      gboolean found = FALSE;

      if (i > 0)
        g_assert_cmpint (sync->begin, >=, g_array_index (all, SextantViewSync, i - 1).begin);
      for (guint k = 0; k < whole->len && !found; k++)
        found = sync_equal (sync, &g_array_index (whole, SextantViewSync, k));
      g_assert_true (found);
    }
  got = read_capped (reader, sextant_lod_reader_read_rma_sync, sizeof (SextantViewSync), all->len, t0, t1, max);
  for (guint i = 0; got != NULL && i < got->len; i++)
    g_assert_true (sync_equal (&g_array_index (got, SextantViewSync, i), &g_array_index (all, SextantViewSync, i)));

  return all->len;
}

static void
test_rma (Fixture       *fixture,
          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantLodReader) reader = sextant_lod_reader_new (fixture->store, &error);
  g_autoptr(GArray) windows = make_windows (fixture, 200,
                                            "SELECT issue_time, coalesce (complete_time, issue_time) FROM rma_op "
                                            "ORDER BY coalesce (complete_time, issue_time) - issue_time DESC LIMIT 20");
  g_autoptr(GArray) whole = g_array_new (FALSE, FALSE, sizeof (SextantViewSync));
  gint64 ops = sextant_test_query_int (fixture->store, "SELECT count (*) FROM rma_op");
  gint64 records = sextant_test_query_int (fixture->store, "SELECT (SELECT count (*) FROM rma_sync) "
                                              "+ (SELECT count (*) FROM lock WHERE family = 'RMA')");
  gboolean too_many = TRUE;
  guint synced = 0;

  g_assert_no_error (error);
  g_assert_true (sextant_lod_reader_read_rma_sync (reader, G_MININT64 + 1, G_MAXINT64, G_MAXUINT, whole, &too_many,
                                                   &error));
  g_assert_no_error (error);
  g_assert_false (too_many);
  /* a store with no one-sided communication has no synchronisation */
  if (ops == 0 && records == 0)
    g_assert_cmpuint (whole->len, ==, 0);
  for (guint i = 0; i < windows->len; i++)
    {
      const Window *w = &g_array_index (windows, Window, i);

      check_rma (reader, fixture->store, w->t0, w->t1, G_MAXUINT);
      check_rma (reader, fixture->store, w->t0, w->t1, g_test_rand_int_range (0, 64));
      if (i % 4 == 0)
        synced += check_syncs (reader, whole, w->t0, w->t1, g_test_rand_int_range (0, 8)) > 0;
    }
  g_assert_true (whole->len == 0 || synced > 0);
  /* casita-2 has operations (and synchronisation), casita-4 none */
  g_assert_true ((ops > 0) == g_str_equal (data, "casita-2_jacobi_blame_cpu_015"));
}

int
main (int    argc,
      char **argv)
{
  static const char * const archives[] = { "casita-2_jacobi_blame_cpu_015", "casita-4_mpi_ls_barr" };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lod-reader-indexes/spans", test_spans);
  for (guint i = 0; i < G_N_ELEMENTS (archives); i++)
    {
      g_autofree char *lost = g_strdup_printf ("/lod-reader-indexes/lost/%s", archives[i]);
      g_autofree char *collectives = g_strdup_printf ("/lod-reader-indexes/collectives/%s", archives[i]);
      g_autofree char *rma = g_strdup_printf ("/lod-reader-indexes/rma/%s", archives[i]);

      g_test_add (lost, Fixture, archives[i], fixture_set_up, test_lost, fixture_tear_down);
      g_test_add (collectives, Fixture, archives[i], fixture_set_up, test_collectives, fixture_tear_down);
      g_test_add (rma, Fixture, archives[i], fixture_set_up, test_rma, fixture_tear_down);
    }

  return g_test_run ();
}
