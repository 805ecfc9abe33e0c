/*
 * test-store-views.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared views that an analysis copies into temporary tables
 * (sextant_store_materialize_views) are computed in C, not by SQLite: the
 * copy of receive_wait must hold exactly the rows of the view in
 * schema-1.sql, and the patterns that read early_wait_op,
 * late_receiver_send and close_send_recv_pair must find, row for row and in
 * the same order, what their former SQL (joins and a GROUP BY over message
 * and visit) found, for every value of their parameters that changes which
 * rows count (eager limits below, between and above the message sizes).
 * Checked on every third-party archive with messages and on the synthetic
 * traces whose receives complete together (Waitall: peers in the window's
 * order), from the wrong source, or never, and whose sends wait for late
 * receivers (MPI_Ssend, MPI_Issend, the eager limit); collective_visit on
 * every third-party archive with blocking collectives and on the synthetic
 * traces of every collective wait state (ties of the first and last to
 * arrive among them). Connections that share their views
 * (SextantSharedViews, as an analysis's workers do) compute each once and
 * all read the same rows, also when they ask for them at the same moment.
 */
#include "config.h"

#include <stdarg.h>

#include "sextant-lod-reader.h"
#include "sextant-store-private.h"
#include "sextant-test-util.h"

typedef struct
{
  gint64 rows;
  gint64 value;
} Count;

static gboolean
count_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Count *count = user_data;

  count->rows = sextant_row_get_int (row, 0);
  count->value = sextant_row_is_null (row, 1) ? 0 : sextant_row_get_int (row, 1);

  return TRUE;
}

static Count
query_count (SextantStore *store,
             const char   *sql)
{
  g_autoptr(GError) error = NULL;
  Count count = { -1, 0 };

  g_assert_true (sextant_store_run_query (store, sql, NULL, NULL, FALSE, count_row, &count, &error));
  g_assert_no_error (error);

  return count;
}

/* patterns/sql/early_wait.sql as it was before its view (commit 2bc4fc5): joins
 * and a GROUP BY over message and visit; a wait's first receive is the first
 * posted (then the lowest sender), its first send the lowest message id */
static const char former_early_wait[] =
  "WITH ops AS (\n"
  "  -- receiver side: MPI_Irecv ... MPI_Wait\n"
  "  SELECT m.id AS message, m.recv_loc AS loc, w.id AS wait, w.enter AS wenter, w.leave AS wleave,\n"
  "         p.enter AS own_enter, p.leave - p.enter AS dt, s.enter AS peer_enter, m.send_loc AS peer,\n"
  "         m.bytes AS bytes, 'receive' AS side\n"
  "  FROM message AS m\n"
  "  JOIN visit AS w ON w.id = m.recv_visit\n"
  "  JOIN visit AS p ON p.id = m.recv_post_visit\n"
  "  JOIN visit AS s ON s.id = m.send_visit\n"
  "  JOIN region AS wr ON wr.id = w.region\n"
  "  WHERE m.recv_mode = 'NONBLOCKING' AND wr.name NOT LIKE 'MPI_Test%'\n"
  "  UNION ALL\n"
  "  -- sender side: MPI_Isend/Issend/Irsend ... MPI_Wait\n"
  "  SELECT m.id, m.send_loc, w.id, w.enter, w.leave, p.enter, p.leave - p.enter,\n"
  "         coalesce (r.enter, 0), m.recv_loc, m.bytes, 'send'\n"
  "  FROM message AS m\n"
  "  JOIN visit AS w ON w.id = m.send_complete_visit\n"
  "  JOIN visit AS p ON p.id = m.send_visit\n"
  "  JOIN region AS c ON c.id = p.region\n"
  "  JOIN region AS wr ON wr.id = w.region\n"
  "  LEFT JOIN visit AS r ON r.id = coalesce (m.recv_post_visit, m.recv_visit)\n"
  "  WHERE m.send_mode = 'NONBLOCKING' AND c.name != 'MPI_Ibsend' AND wr.name NOT LIKE 'MPI_Test%'\n"
  "    AND (c.name = 'MPI_Issend' OR m.bytes >= :eager_limit)\n"
  "),\n"
  "best AS (\n"
  "  SELECT loc, wait, wenter, wleave, wleave - wenter AS severity, message, peer, side,\n"
  "         dt + :latency + bytes * 1.0 * :resolution / :bandwidth\n"
  "            + CASE WHEN peer_enter > own_enter THEN peer_enter - own_enter ELSE 0 END AS o_d,\n"
  "         wenter - own_enter AS distance\n"
  "  FROM (SELECT *, row_number () OVER (PARTITION BY wait ORDER BY side = 'send',\n"
  "                                       CASE side WHEN 'receive' THEN own_enter END,\n"
  "                                       CASE side WHEN 'receive' THEN peer END, message) AS k\n"
  "        FROM ops)\n"
  "  WHERE k = 1\n"
  ")\n"
  "SELECT loc, wait AS visit, severity, wenter AS begin, wleave AS \"end\", peer AS peer_loc, message,\n"
  "       printf ('%s waited %s in its wait for a %s posted %.1f µs before; the optimal distance between '\n"
  "               || 'the two calls is %.1f µs: move the wait later, with independent work in between.',\n"
  "               (SELECT label FROM location_label WHERE loc = best.loc),\n"
  "               printf ('%.1f µs', severity * 1e6 / :resolution), side,\n"
  "               distance * 1e6 / :resolution, o_d * 1e6 / :resolution) AS comment\n"
  "FROM best\n"
  "WHERE severity > :eps\n";

/* patterns/sql/late_receiver.sql as it was before its view (commit 2bc4fc5): joins
 * and a GROUP BY over message and visit */
static const char former_late_receiver[] =
  "WITH late_senders AS MATERIALIZED (\n"
  "  -- the MPI_Waitall / MPI_Waitsome calls charged with Late Sender time: a\n"
  "  -- receive they complete waited (see late_sender)\n"
  "  SELECT DISTINCT w.id AS visit\n"
  "  FROM message AS m\n"
  "  JOIN visit AS w ON w.id = m.recv_visit\n"
  "  JOIN region AS wr ON wr.id = w.region\n"
  "  JOIN visit AS s ON s.id = m.send_visit\n"
  "  WHERE wr.name IN ('MPI_Waitall', 'MPI_Waitsome') AND min (s.enter, w.leave) > w.enter\n"
  ")\n"
  "SELECT sv.loc AS loc, sv.id AS visit, max (rv.enter - sv.enter) AS severity,\n"
  "       sv.enter AS begin, rv.enter AS \"end\", m.recv_loc AS peer_loc, m.id AS message\n"
  "FROM message AS m\n"
  "JOIN visit AS sv ON sv.id = coalesce (m.send_complete_visit, m.send_visit)\n"
  "JOIN visit AS rv ON rv.id = coalesce (m.recv_post_visit, m.recv_visit)\n"
  "JOIN visit AS call ON call.id = m.send_visit\n"
  "JOIN region AS r ON r.id = sv.region\n"
  "JOIN region AS c ON c.id = call.region\n"
  "WHERE sv.leave > rv.enter\n"
  "  AND rv.enter > sv.enter\n"
  "  AND (r.name IN ('MPI_Send', 'MPI_Ssend', 'MPI_Wait', 'MPI_Waitany')\n"
  "       OR (r.name IN ('MPI_Waitall', 'MPI_Waitsome') AND sv.id NOT IN late_senders))\n"
  "  AND (c.name IN ('MPI_Ssend', 'MPI_Issend') OR m.bytes >= :eager_limit)\n"
  "GROUP BY sv.id\n"
  "HAVING severity > :eps\n";

/* patterns/sql/close_send_recv.sql as it was before its view (commit 2bc4fc5): joins
 * and a GROUP BY over message and visit */
static const char former_close_send_recv[] =
  "WITH sends AS (\n"
  "  -- blocking sends to another location whose message was received\n"
  "  SELECT m.id AS message, m.send_loc AS loc, m.recv_loc AS peer, v.id AS visit, v.enter, v.leave, v.depth\n"
  "  FROM message AS m JOIN visit AS v ON v.id = m.send_visit\n"
  "  WHERE m.send_mode = 'BLOCKING' AND m.recv_loc IS NOT NULL AND m.recv_time IS NOT NULL\n"
  "    AND m.recv_loc != m.send_loc\n"
  "),\n"
  "recvs AS MATERIALIZED (\n"
  "  -- the calls that received a message blocking, and from whom\n"
  "  SELECT m.recv_visit AS visit, m.send_loc AS peer FROM message AS m\n"
  "  WHERE m.recv_mode = 'BLOCKING' AND m.send_loc IS NOT NULL AND m.send_time IS NOT NULL\n"
  "),\n"
  "pairs AS (\n"
  "  -- the next call on the send's level: the first later visit of the location\n"
  "  -- no deeper than the send (visit ids are in enter order per location)\n"
  "  SELECT s.*, (SELECT o.id FROM visit AS o\n"
  "               WHERE o.loc = s.loc AND o.id > s.visit AND o.depth <= s.depth\n"
  "               ORDER BY o.id LIMIT 1) AS next_visit\n"
  "  FROM sends AS s\n"
  ")\n"
  "SELECT p.loc, p.visit, min (p.leave - p.enter, n.leave - n.enter) AS severity,\n"
  "       p.enter AS begin, p.leave AS \"end\", p.peer AS peer_loc, p.message\n"
  "FROM pairs AS p JOIN visit AS n ON n.id = p.next_visit\n"
  "WHERE n.enter >= p.leave AND n.enter - p.leave < :distance\n"
  "  AND min (p.leave - p.enter, n.leave - n.enter) > :eps\n"
  "  AND EXISTS (SELECT 1 FROM recvs AS r WHERE r.visit = n.id AND r.peer = p.peer)\n";

static gboolean
text_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  g_ptr_array_add (user_data, sextant_row_dup_text (row, 0));

  return TRUE;
}

/* The rows of a pattern query, each as one text, in the order it returns
 * them */
static GPtrArray *
query_rows (SextantStore *store,
            const char   *query,
            GHashTable   *parameters,
            gboolean      with_comment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *sql = g_strdup_printf ("SELECT quote (loc) || ' ' || quote (visit) || ' ' || quote (severity) "
                                          "|| ' ' || quote (begin) || ' ' || quote (\"end\") || ' ' "
                                          "|| quote (peer_loc) || ' ' || quote (message) %s FROM (%s\n)",
                                          with_comment ? "|| ' ' || quote (comment)" : "", query);

  g_assert_true (sextant_store_materialize_views (store, sql, &error));
  g_assert_no_error (error);
  g_assert_true (sextant_store_run_query (store, sql, parameters, NULL, FALSE, text_row, rows, &error));
  g_assert_no_error (error);

  return g_steal_pointer (&rows);
}

static char *
read_pattern (const char *id)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strconcat (id, ".sql", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "patterns", "sql", name, NULL);
  char *sql = NULL;

  g_assert_true (g_file_get_contents (path, &sql, NULL, &error));
  g_assert_no_error (error);

  return sql;
}

/* Compares the pattern @id with its former SQL under @parameters
 * (name, value, ..., NULL; values in ticks or bytes) */
static guint
check_pattern (SextantStore *store,
               const char   *id,
               const char   *former,
               gboolean      with_comment,
               ...)
{
  g_autoptr(GHashTable) parameters = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                            (GDestroyNotify)g_variant_unref);
  g_autofree char *sql = read_pattern (id);
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) found = NULL;
  const char *name;
  va_list args;

  va_start (args, with_comment);
  while ((name = va_arg (args, const char *)) != NULL)
    g_hash_table_insert (parameters, (gpointer)name, g_variant_ref_sink (g_variant_new_int64 (va_arg (args, gint64))));
  va_end (args);

  expected = query_rows (store, former, parameters, with_comment);
  found = query_rows (store, sql, parameters, with_comment);
  g_assert_cmpuint (found->len, ==, expected->len);
  for (guint i = 0; i < found->len; i++)
    g_assert_cmpstr (g_ptr_array_index (found, i), ==, g_ptr_array_index (expected, i));

  return found->len;
}

/* early_wait, late_receiver and close_send_recv over their views against
 * their former SQL: eager limits that take no send, some and all of them;
 * a few waits left out by eps; a distance that keeps few pairs */
static void
check_point_to_point (SextantStore *store,
                      const char   *archive)
{
  static const gint64 eager[] = { 0, 1, 4096, 16384, 65536, G_GINT64_CONSTANT (1) << 40 };
  guint early = 0, late = 0, close = 0;

  for (guint i = 0; i < G_N_ELEMENTS (eager); i++)
    {
      early += check_pattern (store, "early_wait", former_early_wait, TRUE, "eps", (gint64)0,
                              "eager_limit", eager[i], "latency", (gint64)2000, "bandwidth", (gint64)5000000000,
                              "resolution", (gint64)1000000000, NULL);
      late += check_pattern (store, "late_receiver", former_late_receiver, FALSE, "eps", (gint64)0,
                             "eager_limit", eager[i], NULL);
    }
  early += check_pattern (store, "early_wait", former_early_wait, TRUE, "eps", (gint64)10000, "eager_limit",
                          (gint64)0, "latency", (gint64)0, "bandwidth", (gint64)1000, "resolution", (gint64)1000, NULL);
  late += check_pattern (store, "late_receiver", former_late_receiver, FALSE, "eps", (gint64)10000,
                         "eager_limit", (gint64)0, NULL);
  close += check_pattern (store, "close_send_recv", former_close_send_recv, FALSE, "distance", (gint64)10000,
                          "eps", (gint64)0, NULL);
  close += check_pattern (store, "close_send_recv", former_close_send_recv, FALSE, "distance",
                          G_GINT64_CONSTANT (1) << 50, "eps", (gint64)0, NULL);
  close += check_pattern (store, "close_send_recv", former_close_send_recv, FALSE, "distance", (gint64)1000,
                          "eps", (gint64)100, NULL);
  g_test_message ("%s: %u early_wait, %u late_receiver, %u close_send_recv rows", archive, early, late, close);
}

#define RECEIVE_WAIT_COLUMNS \
  "loc, visit, enter, message, peer_loc, send_time, idle, later_send, later_send_same, charged"

/* Compares the copy of receive_wait with the view. */
static void
check_receive_wait (SextantStore *store,
                    const char   *archive)
{
  g_autoptr(GError) error = NULL;
  Count view, copy, missing, extra, ties;

  view = query_count (store, "SELECT count (*), sum (later_send IS NULL) FROM main.receive_wait");
  /* the same rows, whatever SQLite's windows would compute: every column of
   * the view (the copy adds wo_buffered, which only C computes) */
  g_assert_true (sextant_store_materialize_views (store, "SELECT * FROM receive_wait", &error));
  g_assert_no_error (error);
  copy = query_count (store, "SELECT count (*), sum (later_send IS NULL) FROM temp.receive_wait");
  missing = query_count (store, "SELECT count (*), 0 FROM (SELECT * FROM main.receive_wait "
                                "EXCEPT SELECT " RECEIVE_WAIT_COLUMNS " FROM temp.receive_wait)");
  extra = query_count (store, "SELECT count (*), 0 FROM (SELECT " RECEIVE_WAIT_COLUMNS " FROM temp.receive_wait "
                              "EXCEPT SELECT * FROM main.receive_wait)");
  /* messages received at the same time by one location */
  ties = query_count (store, "SELECT count (*), 0 FROM (SELECT 1 FROM message WHERE recv_visit IS NOT NULL "
                             "GROUP BY recv_loc, recv_time HAVING count (*) > 1)");

  g_test_message ("%s: %" G_GINT64_FORMAT " receives (%" G_GINT64_FORMAT " without a later send), "
                  "%" G_GINT64_FORMAT " times with several", archive, view.rows, view.value, ties.rows);
  g_assert_cmpint (copy.rows, ==, view.rows);
  g_assert_cmpint (copy.value, ==, view.value);
  g_assert_cmpint (missing.rows, ==, 0);
  g_assert_cmpint (extra.rows, ==, 0);

  /* a query of the same connection now reads the copy */
  g_assert_cmpint (query_count (store, "SELECT count (*), sum (later_send IS NULL) FROM receive_wait").rows,
                   ==, view.rows);
}

/* Compares the copy of master_workers with the view: the same locations
 * with the same number of workers. */
static void
check_master_workers (SextantStore *store,
                      const char   *archive)
{
  g_autoptr(GError) error = NULL;
  Count view, copy, missing, extra;

  view = query_count (store, "SELECT count (*), coalesce (max (workers), 0) FROM main.master_workers");
  g_assert_true (sextant_store_materialize_views (store, "SELECT * FROM master_workers", &error));
  g_assert_no_error (error);
  copy = query_count (store, "SELECT count (*), coalesce (max (workers), 0) FROM temp.master_workers");
  missing = query_count (store, "SELECT count (*), 0 FROM (SELECT loc, workers FROM main.master_workers "
                                "EXCEPT SELECT loc, workers FROM temp.master_workers)");
  extra = query_count (store, "SELECT count (*), 0 FROM (SELECT loc, workers FROM temp.master_workers "
                              "EXCEPT SELECT loc, workers FROM main.master_workers)");

  g_test_message ("%s: %" G_GINT64_FORMAT " locations with workers, at most %" G_GINT64_FORMAT, archive,
                  view.rows, view.value);
  g_assert_cmpint (copy.rows, ==, view.rows);
  g_assert_cmpint (copy.value, ==, view.value);
  g_assert_cmpint (missing.rows, ==, 0);
  g_assert_cmpint (extra.rows, ==, 0);
}

/* Imports @archive and checks the point-to-point views on it. */
static void
check_archive (const char *archive)
{
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (archive, &tmpdir);

  check_receive_wait (store, archive);
  check_point_to_point (store, archive);
  check_master_workers (store, archive);

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

#define COLLECTIVE_VISIT_COLUMNS \
  "collective, kind, root_loc, loc, visit, enter, leave, region, path, scl, context, begin, \"end\", " \
  "sends, receives, last_enter, " \
  "last_loc, first_leave, others_enter, others_leave, root_enter, latest_begin, earliest_end"

/* collective_visit as windows over every member's call: what the view
 * computed before the collective's row held its bounds, here to check those */
#define WINDOWED_COLLECTIVE_VISIT \
  "WITH calls AS (" \
  "  SELECT cm.collective AS collective, c.kind AS kind, c.root_loc AS root_loc, cm.loc AS loc," \
  "         v.id AS visit, v.enter AS enter, v.leave AS leave, v.region AS region, v.path AS path," \
  "         v.scl AS scl, v.context AS context, cm.begin AS begin, cm.\"end\" AS \"end\"," \
  "         cm.bytes_sent > 0 AS sends, cm.bytes_received > 0 AS receives" \
  "  FROM collective AS c JOIN collective_member AS cm ON cm.collective = c.id" \
  "  LEFT JOIN visit AS v ON v.id = cm.visit WHERE c.nonblocking = 0 AND c.members > 1) " \
  "SELECT collective, kind, root_loc, loc, visit, enter, leave, region, path, scl, context, begin, \"end\"," \
  "       sends, receives, max (enter) OVER w," \
  "       first_value (CASE WHEN enter IS NOT NULL THEN loc END)" \
  "         OVER (w ORDER BY enter DESC, loc ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)," \
  "       min (leave) OVER w, min (enter) OVER others, max (leave) OVER others," \
  "       max (CASE WHEN loc = root_loc THEN enter END) OVER w," \
  "       max (CASE WHEN sends OR receives THEN begin END) OVER w," \
  "       min (CASE WHEN sends OR receives THEN \"end\" END) OVER w " \
  "FROM calls WINDOW w AS (PARTITION BY collective)," \
  "  others AS (PARTITION BY collective ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING" \
  "             EXCLUDE CURRENT ROW)"

/* Imports @archive and compares the view collective_visit with the same
 * computed by windows over the members (the bounds in the collective rows
 * are right), and the copy with the view: the same rows, every column
 * (NULLs compare equal in EXCEPT). */
static void
check_collective_visit (const char *archive)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (archive, &tmpdir);
  Count view, copy, missing, extra, members, ties;

  view = query_count (store, "SELECT count (*), sum (others_enter = enter) FROM main.collective_visit");
  ties = query_count (store, "SELECT count (*), 0 FROM main.collective_visit "
                             "WHERE enter = last_enter AND loc != last_loc");
  members = query_count (store, "SELECT count (*), 0 FROM collective_member AS cm "
                                "JOIN collective AS c ON c.id = cm.collective "
                                "WHERE c.nonblocking = 0 AND c.members > 1");
  g_assert_cmpint (query_count (store, "SELECT count (*), 0 FROM (SELECT * FROM main.collective_visit "
                                      "EXCEPT SELECT * FROM (" WINDOWED_COLLECTIVE_VISIT "))").rows, ==, 0);
  g_assert_cmpint (query_count (store, "SELECT count (*), 0 FROM (" WINDOWED_COLLECTIVE_VISIT
                                      " EXCEPT SELECT * FROM main.collective_visit)").rows, ==, 0);
  g_assert_true (sextant_store_materialize_views (store, "SELECT * FROM collective_visit", &error));
  g_assert_no_error (error);
  copy = query_count (store, "SELECT count (*), sum (others_enter = enter) FROM temp.collective_visit");
  missing = query_count (store, "SELECT count (*), 0 FROM (SELECT * FROM main.collective_visit "
                                "EXCEPT SELECT " COLLECTIVE_VISIT_COLUMNS " FROM temp.collective_visit)");
  extra = query_count (store, "SELECT count (*), 0 FROM (SELECT " COLLECTIVE_VISIT_COLUMNS
                              " FROM temp.collective_visit EXCEPT SELECT * FROM main.collective_visit)");

  g_test_message ("%s: %" G_GINT64_FORMAT " members of blocking collectives, %" G_GINT64_FORMAT
                  " entered with the first of the others, %" G_GINT64_FORMAT " with the last",
                  archive, view.rows, view.value, ties.rows);
  g_assert_cmpint (view.rows, ==, members.rows);
  g_assert_cmpint (copy.rows, ==, view.rows);
  g_assert_cmpint (copy.value, ==, view.value);
  g_assert_cmpint (missing.rows, ==, 0);
  g_assert_cmpint (extra.rows, ==, 0);

  /* a query of the same connection now reads the copy */
  g_assert_cmpint (query_count (store, "SELECT count (*), 0 FROM collective_visit").rows, ==, view.rows);

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

/* Runs @check on the third-party archive @name. */
static void
check_external (const char  *name,
                void       (*check) (const char *archive))
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = NULL;

  g_assert_nonnull (root);
  archive = g_build_filename (root, name, NULL);
  check (archive);
}

static void
test_external (gconstpointer data)
{
  check_external (data, check_archive);
}

static void
test_external_collectives (gconstpointer data)
{
  check_external (data, check_collective_visit);
}

/* Writes the synthetic trace @scenario and runs @check on it. */
static void
check_planted (const char  *scenario,
               void       (*check) (const char *archive))
{
  const char *otf2gen = g_getenv ("SEXTANT_OTF2GEN");
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *out = g_build_filename (tmpdir, "archive", NULL);
  g_autofree char *anchor = NULL;
  /* the import benchmark's trace: its collectives have ties of the first
   * and the last to arrive */
  const char *bench[] = { g_getenv ("SEXTANT_BENCH_GEN"), "--ranks", "16", "--events", "200000", out, NULL };
  const char *argv[] = { otf2gen, scenario, out, NULL };
  const char * const *run = g_str_equal (scenario, "bench") ? bench : argv;
  int status = -1;

  g_assert_no_error (error);
  g_assert_nonnull (run[0]);
  g_assert_true (g_spawn_sync (NULL, (char **)run, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  anchor = g_build_filename (out, "traces.otf2", NULL);
  check (g_file_test (anchor, G_FILE_TEST_EXISTS) ? anchor : out);
  sextant_test_remove_tree (tmpdir);
}

static void
test_planted (gconstpointer data)
{
  check_planted (data, check_archive);
}

static void
test_planted_collectives (gconstpointer data)
{
  check_planted (data, check_collective_visit);
}

/* The views and rows of /store-views/shared: what each connection read. */
#define SHARED_VIEWS_SQL \
  "SELECT * FROM receive_wait, early_wait_op, late_receiver_send, close_send_recv_pair, collective_visit"

static const char * const shared_counts[] = {
  "SELECT count (*), sum (idle) FROM receive_wait",
  "SELECT count (*), sum (message) FROM early_wait_op",
  "SELECT count (*), sum (message) FROM late_receiver_send",
  "SELECT count (*), sum (message) FROM close_send_recv_pair",
  "SELECT count (*), sum (leave - enter) FROM collective_visit",
};

typedef struct
{
  const char         *path;
  SextantSharedViews *views;
  Count               counts[G_N_ELEMENTS (shared_counts)];
} SharedRun;

/* A connection of its own on @data's store: materializes every shared
 * view, counts their rows. */
static gpointer
shared_run (gpointer data)
{
  SharedRun *run = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = sextant_store_open (run->path, &error);

  g_assert_no_error (error);
  sextant_store_set_shared_views (store, run->views);
  g_assert_true (sextant_store_materialize_views (store, SHARED_VIEWS_SQL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (shared_counts); i++)
    run->counts[i] = query_count (store, shared_counts[i]);

  return NULL;
}

/* Each connection given the same shared views reads the rows that a
 * connection alone computes: one after the other (the second reads the
 * first's copy) and four at once (one computes, three wait). */
static void
test_shared (void)
{
  const char *root = g_getenv ("SEXTANT_EXTERNAL_TRACES");
  g_autofree char *archive = g_build_filename (root, "casita-2_jacobi_blame_cpu_015", NULL);
  g_autofree char *tmpdir = NULL;
  g_autoptr(SextantStore) store = sextant_test_import (archive, &tmpdir);
  g_autoptr(SextantSharedViews) views = sextant_shared_views_new ();
  g_autoptr(GError) error = NULL;
  SharedRun alone = { sextant_store_get_path (store), NULL, { { 0 } } };
  SharedRun runs[6];
  GThread *threads[4];

  shared_run (&alone);
  g_assert_cmpint (alone.counts[0].rows, >, 0);
  g_assert_cmpint (alone.counts[4].rows, >, 0);

  /* one after the other: both fills are done after the first */
  for (guint r = 0; r < 2; r++)
    {
      runs[r] = (SharedRun) { sextant_store_get_path (store), views, { { 0 } } };
      shared_run (&runs[r]);
      g_assert_cmpuint (sextant_shared_views_get_ready (views), ==,
                        sextant_store_reads_shared_views (SHARED_VIEWS_SQL));
    }

  /* at once */
  g_clear_pointer (&views, sextant_shared_views_unref);
  views = sextant_shared_views_new ();
  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    {
      runs[2 + t] = (SharedRun) { sextant_store_get_path (store), views, { { 0 } } };
      threads[t] = g_thread_new ("shared-views", shared_run, &runs[2 + t]);
    }
  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    g_thread_join (threads[t]);

  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    for (guint i = 0; i < G_N_ELEMENTS (shared_counts); i++)
      {
        g_assert_cmpint (runs[r].counts[i].rows, ==, alone.counts[i].rows);
        g_assert_cmpint (runs[r].counts[i].value, ==, alone.counts[i].value);
      }

  g_clear_object (&store);
  sextant_test_remove_tree (tmpdir);
}

/* A damaged chunk of the visits is refused alike by the shared views (which
 * read its data in place) and by the timeline's lod reader (which copies
 * it): the same error, naming the chunk, whether its data or its header is
 * cut short (trace/sextant-chunk-row.c parses the rows of both). */
static void
test_damaged_chunk (void)
{
  static const char * const damages[] = {
    "UPDATE visit_chunk SET data = substr (data, 2) WHERE first_row = ?",
    "UPDATE visit_chunk SET header = substr (header, 2) WHERE first_row = ?",
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_autofree char *archive = sextant_test_otf2gen ("planted-late-sender", tmpdir);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (damages); i++)
    {
      g_autofree char *store_dir = NULL;
      g_autoptr(SextantStore) store = sextant_test_import (archive, &store_dir);
      g_autoptr(GArray) buckets = g_array_new (FALSE, FALSE, sizeof (SextantLodBucket));
      g_autoptr(GError) views_error = NULL;
      g_autoptr(GError) reader_error = NULL;
      g_autofree char *message = NULL;
      SextantLodReader *reader;
      gint64 none = -1;
      /* the chunk that holds the first visit of location 0 */
      gint64 first_row = sextant_test_query_int (store, "SELECT max (first_row) FROM visit_chunk "
                                                        "WHERE first_row <= (SELECT first_visit FROM location "
                                                        "                    WHERE id = 0)");
      gint64 t1 = sextant_test_query_int (store, "SELECT time_end + 1 FROM location WHERE id = 0");

      g_assert_true (sextant_store_foreach_sql (store, damages[i], sextant_test_take_int, &none, &error, "i",
                                                first_row));
      g_assert_no_error (error);
      message = g_strdup_printf ("chunk at row %" G_GINT64_FORMAT " is damaged", first_row);

      g_assert_false (sextant_store_materialize_views (store, "SELECT * FROM receive_wait", &views_error));
      g_assert_error (views_error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA);
      g_assert_cmpstr (views_error->message, ==, message);

      reader = sextant_lod_reader_new (store, &error);
      g_assert_no_error (error);
      g_assert_false (sextant_lod_reader_read_visits (reader, 0, 0, t1, buckets, &reader_error));
      g_assert_error (reader_error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA);
      g_assert_cmpstr (reader_error->message, ==, message);
      g_assert_cmpuint (buckets->len, ==, 0);
      sextant_lod_reader_free (reader);

      g_clear_object (&store);
      sextant_test_remove_tree (store_dir);
    }
  sextant_test_remove_tree (tmpdir);
}

/* A test /store-views/@view/NAME for each of @names. */
static void
add_tests (const char         *view,
           const char * const *names,
           guint               n,
           GTestDataFunc       func)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("/store-views/%s/%s", view, names[i]);

      g_test_add_data_func (path, names[i], func);
    }
}

int
main (int    argc,
      char **argv)
{
  static const char * const external[] = {
    "casita-4_mpi_ls_barr", "casita-10_scorep_mpi_tags", "casita-2_jacobi_blame_cpu_015", "pipit-ping-pong-otf2",
    "sstmacro-otf2_test_traces",
  };
  static const char * const planted[] = {
    "planted-late-sender", "planted-wrong-order", "planted-early-wait", "planted-close", "planted-eps",
    "planted-hotspots", "planted-late-receiver", "planted-nonblocking", "planted-master-worker",
    "planted-wrong-order-buffer",
  };
  static const char * const external_collectives[] = {
    "casita-4_mpi_ls_barr", "casita-2_jacobi_blame_cpu_015", "sstmacro-otf2_test_traces",
    "sst-elements-ember-bcast",
  };
  static const char * const planted_collectives[] = {
    "planted-collectives", "planted-nonblocking", "every-kind", "bench",
  };

  g_test_init (&argc, &argv, NULL);

  add_tests ("point-to-point", external, G_N_ELEMENTS (external), test_external);
  add_tests ("point-to-point", planted, G_N_ELEMENTS (planted), test_planted);
  add_tests ("collective-visit", external_collectives, G_N_ELEMENTS (external_collectives),
             test_external_collectives);
  add_tests ("collective-visit", planted_collectives, G_N_ELEMENTS (planted_collectives),
             test_planted_collectives);
  g_test_add_func ("/store-views/shared", test_shared);
  g_test_add_func ("/store-views/damaged-chunk", test_damaged_chunk);

  return g_test_run ();
}
