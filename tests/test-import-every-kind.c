/*
 * test-import-every-kind.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Imports the archive that tests/otf2gen writes with every event record kind
 * an MPI/threads importer handles, and checks the rows against the values the
 * generator wrote (tests/otf2gen/otf2gen-every-kind.h): raw record counts per
 * location and kind, visits (depth, parent, source lines), every message with
 * the timestamps of its calls, collective instances with members and roots
 * (self communicators apart, non-blocking marked), RMA operations, locks,
 * threads, metrics, parameters and program records; and the small scenarios
 * that break an importer's assumptions (no clock, disorder, duplicate
 * definitions, another anchor name).
 *
 * The store is read with plain SQL here: what a user querying the file sees.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "otf2gen-every-kind.h"
#include "otf2gen-scenarios.h"
#include "sextant-column-table.h"
#include "sextant-importer.h"
#include "sextant-test-util.h"

typedef struct
{
  char    *dir;
  sqlite3 *db;
} Imported;

static Imported every_kind;

static char *
generate (const char *scenario,
          const char *dir)
{
  const char *gen = g_getenv ("SEXTANT_OTF2GEN");
  g_autoptr(GError) error = NULL;
  g_autofree char *out = g_build_filename (dir, scenario, NULL);
  const char *argv[] = { gen, scenario, out, NULL };
  int status = 0;

  g_assert_nonnull (gen);
  g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  return g_steal_pointer (&out);
}

static sqlite3 *
import (const char *archive,
        const char *db_path)
{
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, db_path);
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_nonnull (sextant_column_table_register (db, NULL));

  return db;
}

/* The single integer a query returns; the SQL is built by the test from
 * constants only. */
static gint64 G_GNUC_PRINTF (2, 3)
q (sqlite3    *db,
   const char *format,
   ...)
{
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value;
  va_list args;

  va_start (args, format);
  sql = g_strdup_vprintf (format, args);
  va_end (args);

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  if (sqlite3_step (stmt) != SQLITE_ROW)
    g_error ("%s: no row", sql);
  value = sqlite3_column_type (stmt, 0) == SQLITE_NULL ? G_MININT64 : sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  return value;
}

#define NONE G_MININT64

static gint64
loc_of (guint64 otf2_id)
{
  return q (every_kind.db, "SELECT id FROM location WHERE otf2_id = %" G_GUINT64_FORMAT, otf2_id);
}

/* ticks relative to the global offset, as the store keeps them */
static gint64
rel (guint64 ts)
{
  return (gint64)(ts - EK_GLOBAL_OFFSET);
}

static void
test_counts (void)
{
  sqlite3 *db = every_kind.db;

  g_assert_cmpint (q (db, "SELECT count(*) FROM location"), ==, EK_N_LOCATIONS);
  g_assert_cmpint (q (db, "SELECT value FROM meta WHERE key = 'events'"), ==, EK_N_EVENTS);
  g_assert_cmpint (q (db, "SELECT value FROM meta WHERE key = 'resolution'"), ==, EK_TIMER_RESOLUTION);
  g_assert_cmpint (q (db, "SELECT value FROM meta WHERE key = 'global_offset'"), ==, EK_GLOBAL_OFFSET);

  for (guint i = 0; i < EK_N_LOCATIONS; i++)
    {
      gint64 loc = loc_of (ek_locations[i].id);

      g_assert_cmpint (q (db, "SELECT events FROM location WHERE id = %" G_GINT64_FORMAT, loc), ==,
                       ek_locations[i].n_events);
      g_assert_cmpint (q (db, "SELECT sum (count) FROM event_count WHERE loc = %" G_GINT64_FORMAT, loc), ==,
                       ek_locations[i].n_events);
    }

  for (guint k = 0; k < EK_N_KINDS; k++)
    for (guint i = 0; i < EK_N_LOCATIONS; i++)
      {
        gint64 got = q (db, "SELECT coalesce (max (count), 0) FROM event_count "
                            "WHERE loc = %" G_GINT64_FORMAT " AND kind = '%s'",
                        loc_of (ek_locations[i].id), ek_kind_counts[k].kind);

        if (got != ek_kind_counts[k].count[i])
          g_error ("%s on location %u: %" G_GINT64_FORMAT " records, want %u",
                   ek_kind_counts[k].kind, i, got, ek_kind_counts[k].count[i]);
      }
}

static void
test_visits (void)
{
  sqlite3 *db = every_kind.db;
  gint64 r2 = loc_of (EK_LOC_R2);

  /* ENTER/LEAVE pairs, plus rank 2's CALLING_CONTEXT_ENTER/LEAVE pair */
  g_assert_cmpint (q (db, "SELECT count(*) FROM visit"), ==, EK_N_VISITS + 1);

  for (guint i = 0; i < EK_N_LOCATIONS; i++)
    {
      gint64 loc = loc_of (ek_locations[i].id);
      guint extra = ek_locations[i].id == EK_LOC_R2 ? 1 : 0;

      g_assert_cmpint (q (db, "SELECT count(*) FROM visit WHERE loc = %" G_GINT64_FORMAT, loc), ==,
                       ek_locations[i].n_visits + extra);
      g_assert_cmpint (q (db, "SELECT max (depth) FROM visit WHERE loc = %" G_GINT64_FORMAT, loc), ==,
                       ek_locations[i].max_depth);
      /* visits of a location are contiguous and in enter order */
      g_assert_cmpint (q (db, "SELECT last_visit - first_visit + 1 FROM location WHERE id = %" G_GINT64_FORMAT,
                          loc), ==, ek_locations[i].n_visits + extra);
      g_assert_cmpint (q (db, "SELECT count(*) FROM visit AS a JOIN visit AS b ON b.id = a.id + 1 "
                              "AND b.loc = a.loc WHERE a.loc = %" G_GINT64_FORMAT " AND b.enter < a.enter",
                          loc), ==, 0);
    }

  /* every parent encloses its child, one level up */
  g_assert_cmpint (q (db, "SELECT count(*) FROM visit AS c JOIN visit AS p ON p.id = c.parent "
                          "WHERE p.loc != c.loc OR p.depth != c.depth - 1 OR p.enter > c.enter "
                          "OR p.leave < c.leave"), ==, 0);
  g_assert_cmpint (q (db, "SELECT count(*) FROM visit WHERE (depth = 0) != (parent IS NULL)"), ==, 0);

  /* main on every master thread, with its source lines */
  g_assert_cmpint (q (db, "SELECT count(*) FROM visit AS v JOIN region AS r ON r.id = v.region "
                          "WHERE r.name = 'main' AND v.depth = 0 AND v.enter = %" G_GINT64_FORMAT,
                      rel (EK_MAIN_ENTER_TS)), ==, EK_N_RANKS);
  g_assert_cmpint (q (db, "SELECT begin_line FROM region WHERE id = %d", EK_REGION_SOLVER), ==,
                   ek_regions[EK_REGION_SOLVER].begin_line);
  g_assert_cmpint (q (db, "SELECT end_line FROM region WHERE id = %d", EK_REGION_SOLVER), ==,
                   ek_regions[EK_REGION_SOLVER].end_line);
  g_assert_cmpint (q (db, "SELECT count(*) FROM region WHERE id = %d AND file = '%s' AND role = 'LOOP' "
                          "AND paradigm = 'USER' AND category = 'USER'",
                      EK_REGION_COMPUTE_KERNEL, EK_FILE_SOLVER), ==, 1);
  g_assert_cmpint (q (db, "SELECT count(*) FROM region WHERE id = %d AND file IS NULL AND begin_line IS NULL "
                          "AND category = 'MPI' AND role = 'POINT2POINT'", EK_REGION_MPI_SEND), ==, 1);
  g_assert_cmpint (q (db, "SELECT count(*) FROM region WHERE id = %d AND category = 'RMA'", EK_REGION_MPI_PUT),
                   ==, 1);

  /* the calling-context visit: its region and context, and the sample */
  g_assert_cmpint (q (db, "SELECT count(*) FROM visit AS v JOIN calling_context AS c ON c.id = v.context "
                          "WHERE v.loc = %" G_GINT64_FORMAT " AND v.context = %d AND v.region = c.region "
                          "AND v.enter = %" G_GINT64_FORMAT " AND v.leave = %" G_GINT64_FORMAT,
                      r2, EK_CC_KERNEL, rel (EK_CC_ENTER_TS), rel (EK_CC_LEAVE_TS)), ==, 1);
  g_assert_cmpint (q (db, "SELECT count(*) FROM sample WHERE loc = %" G_GINT64_FORMAT " AND time = %"
                          G_GINT64_FORMAT " AND calling_context = %d AND unwind_distance = %d",
                      r2, rel (EK_CC_SAMPLE_TS), EK_CC_KERNEL, EK_CC_SAMPLE_UNWIND), ==, 1);
  /* calling contexts: a chain with source code locations */
  g_assert_cmpint (q (db, "SELECT s.line FROM calling_context AS c JOIN source_code_location AS s "
                          "ON s.id = c.source_code_location WHERE c.id = %d", EK_CC_KERNEL), ==,
                   ek_scl_lines[EK_SCL_KERNEL]);
  g_assert_cmpint (q (db, "SELECT parent FROM calling_context WHERE id = %d", EK_CC_KERNEL), ==, EK_CC_SOLVER);
}

/* The enter/leave of the visit @column of message @id refers to. */
static void
assert_call (const char     *what,
             gint64          message,
             const char     *column,
             const EkCall   *call)
{
  sqlite3 *db = every_kind.db;

  if (call->enter_ts == 0)
    return;

  if (q (db, "SELECT v.enter FROM message AS m JOIN visit AS v ON v.id = m.%s WHERE m.id = %" G_GINT64_FORMAT,
         column, message) != rel (call->enter_ts) ||
      q (db, "SELECT v.leave FROM message AS m JOIN visit AS v ON v.id = m.%s WHERE m.id = %" G_GINT64_FORMAT,
         column, message) != rel (call->leave_ts))
    g_error ("%s: %s is not the call [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "]",
             what, column, call->enter_ts, call->leave_ts);
}

static void
test_messages (void)
{
  sqlite3 *db = every_kind.db;

  g_assert_cmpint (q (db, "SELECT count(*) FROM message WHERE send_time IS NOT NULL AND recv_time IS NOT NULL"),
                   ==, EK_N_MESSAGES_MATCHED);
  g_assert_cmpint (q (db, "SELECT count(*) FROM message WHERE recv_time IS NULL"), ==,
                   EK_N_MESSAGES_UNMATCHED_SEND);
  g_assert_cmpint (q (db, "SELECT count(*) FROM message WHERE send_time IS NULL"), ==,
                   EK_N_MESSAGES_UNMATCHED_RECV);

  for (guint i = 0; i < EK_N_MESSAGES; i++)
    {
      const EkMessage *m = &ek_messages[i];
      const EkMessageSide *s = &m->send;
      const EkMessageSide *r = &m->recv;
      gboolean has_send = s->location != EK_NO_LOCATION;
      gboolean has_recv = r->location != EK_NO_LOCATION;
      gint64 id;

      g_autofree char *send_cond = has_send
        ? g_strdup_printf ("send_loc = %" G_GINT64_FORMAT " AND send_time = %" G_GINT64_FORMAT,
                           loc_of (s->location), rel (s->post.event_ts))
        : g_strdup ("send_time IS NULL");
      g_autofree char *recv_cond = has_recv
        ? g_strdup_printf ("recv_loc = %" G_GINT64_FORMAT, loc_of (r->location))
        : g_strdup ("recv_time IS NULL");

      id = q (db, "SELECT id FROM message WHERE tag = %u AND comm = %u AND %s AND %s", m->tag, m->comm,
              send_cond, recv_cond);
      g_assert_cmpint (id, !=, NONE);
      g_assert_cmpint (q (db, "SELECT coalesce (bytes, recv_bytes) FROM message WHERE id = %" G_GINT64_FORMAT, id),
                       ==, m->bytes);

      if (has_send)
        {
          g_assert_cmpint (q (db, "SELECT send_mode = '%s' FROM message WHERE id = %" G_GINT64_FORMAT,
                              s->mode == EK_MODE_BLOCKING ? "BLOCKING" : "NONBLOCKING", id), ==, 1);
          assert_call (m->name, id, "send_visit", &s->post);
          if (s->mode == EK_MODE_NONBLOCKING)
            {
              g_assert_cmpint (q (db, "SELECT send_request FROM message WHERE id = %" G_GINT64_FORMAT, id), ==,
                               s->request);
              g_assert_cmpint (q (db, "SELECT send_complete_time FROM message WHERE id = %" G_GINT64_FORMAT, id),
                               ==, rel (s->wait.event_ts));
              assert_call (m->name, id, "send_complete_visit", &s->wait);
            }
        }

      if (has_recv)
        {
          g_assert_cmpint (q (db, "SELECT recv_mode = '%s' FROM message WHERE id = %" G_GINT64_FORMAT,
                              r->mode == EK_MODE_BLOCKING ? "BLOCKING" : "NONBLOCKING", id), ==, 1);
          g_assert_cmpint (q (db, "SELECT recv_bytes FROM message WHERE id = %" G_GINT64_FORMAT, id), ==, m->bytes);
          if (r->mode == EK_MODE_BLOCKING)
            {
              g_assert_cmpint (q (db, "SELECT recv_time FROM message WHERE id = %" G_GINT64_FORMAT, id), ==,
                               rel (r->post.event_ts));
              assert_call (m->name, id, "recv_visit", &r->post);
            }
          else
            {
              g_assert_cmpint (q (db, "SELECT recv_request FROM message WHERE id = %" G_GINT64_FORMAT, id), ==,
                               r->request);
              g_assert_cmpint (q (db, "SELECT recv_post_time FROM message WHERE id = %" G_GINT64_FORMAT, id), ==,
                               rel (r->post.event_ts));
              assert_call (m->name, id, "recv_post_visit", &r->post);
              g_assert_cmpint (q (db, "SELECT recv_time FROM message WHERE id = %" G_GINT64_FORMAT, id), ==,
                               rel (r->wait.event_ts));
              assert_call (m->name, id, "recv_visit", &r->wait);
            }
        }
    }

  /* the cancelled receive is not a message */
  g_assert_cmpint (q (db, "SELECT count(*) FROM message WHERE recv_loc = %" G_GINT64_FORMAT
                          " AND recv_request = %d AND recv_time IS NULL", loc_of (EK_LOC_R2), EK_CANCEL_REQUEST),
                   ==, 0);
  /* the unmatched ones are in the import log */
  g_assert_cmpint (q (every_kind.db, "SELECT sum (count) FROM import_log WHERE kind = 'unmatched_send'"), ==, 1);
  g_assert_cmpint (q (every_kind.db, "SELECT sum (count) FROM import_log WHERE kind = 'unmatched_receive'"), ==, 1);
}

static void
test_collectives (void)
{
  sqlite3 *db = every_kind.db;

  g_assert_cmpint (q (db, "SELECT count(*) FROM collective"), ==, EK_N_COLLECTIVES);

  for (guint i = 0; i < EK_N_COLLECTIVES; i++)
    {
      const EkCollective *c = &ek_collectives[i];
      const EkCollectiveMember *first = &c->members[0];
      gint64 id;

      /* the instance that holds the first member's begin */
      id = q (db, "SELECT collective FROM collective_member WHERE loc = %" G_GINT64_FORMAT
                  " AND begin = %" G_GINT64_FORMAT, loc_of (first->location), rel (first->begin_ts));
      if (id == NONE)
        g_error ("collective %s not found", c->name);

      g_assert_cmpint (q (db, "SELECT comm FROM collective WHERE id = %" G_GINT64_FORMAT, id), ==, c->comm);
      /* the id is the instance's: its communicator and its number on it,
       * or on a self communicator its location and number there
       * (docs/schema.md, "collective") */
      if (q (db, "SELECT is_self FROM comm WHERE id = %u", c->comm) == 1)
        {
          gint64 n = 0;

          for (guint j = 0; j < i; j++)
            n += ek_collectives[j].comm == c->comm && ek_collectives[j].members[0].location == first->location;
          g_assert_cmpint (id, ==, (G_GINT64_CONSTANT (1) << 62) + (loc_of (first->location) << 32) + n + 1);
        }
      else
        {
          gint64 n = 0;

          for (guint j = 0; j < i; j++)
            n += ek_collectives[j].comm == c->comm;
          g_assert_cmpint (id, ==, ((gint64)(c->comm + 1) << 32) + n + 1);
        }
      g_assert_cmpint (q (db, "SELECT kind = '%s' FROM collective WHERE id = %" G_GINT64_FORMAT,
                          c->op == OTF2_COLLECTIVE_OP_BARRIER ? "BARRIER" :
                          c->op == OTF2_COLLECTIVE_OP_BCAST ? "BCAST" :
                          c->op == OTF2_COLLECTIVE_OP_REDUCE ? "REDUCE" :
                          c->op == OTF2_COLLECTIVE_OP_ALLREDUCE ? "ALLREDUCE" :
                          c->op == OTF2_COLLECTIVE_OP_CREATE_HANDLE ? "CREATE_HANDLE" : "DESTROY_HANDLE",
                          id), ==, 1);
      g_assert_cmpint (q (db, "SELECT members FROM collective WHERE id = %" G_GINT64_FORMAT, id), ==, c->n_members);
      g_assert_cmpint (q (db, "SELECT expected FROM collective WHERE id = %" G_GINT64_FORMAT, id), ==, c->n_members);
      g_assert_cmpint (q (db, "SELECT nonblocking FROM collective WHERE id = %" G_GINT64_FORMAT, id), ==,
                       c->nonblocking);
      if (c->root == EK_UNDEF32)
        g_assert_cmpint (q (db, "SELECT root FROM collective WHERE id = %" G_GINT64_FORMAT, id), ==, NONE);
      else
        {
          g_assert_cmpint (q (db, "SELECT root FROM collective WHERE id = %" G_GINT64_FORMAT, id), ==, c->root);
          g_assert_cmpint (q (db, "SELECT root_loc FROM collective WHERE id = %" G_GINT64_FORMAT, id), ==,
                           loc_of (ek_locations[c->root_world_rank].id));
        }

      for (guint m = 0; m < c->n_members; m++)
        {
          const EkCollectiveMember *mb = &c->members[m];
          gint64 loc = loc_of (mb->location);
          g_autofree char *where = g_strdup_printf ("m.collective = %" G_GINT64_FORMAT " AND m.loc = %"
                                                    G_GINT64_FORMAT, id, loc);

          g_assert_cmpint (q (db, "SELECT begin FROM collective_member AS m WHERE %s", where), ==, rel (mb->begin_ts));
          g_assert_cmpint (q (db, "SELECT \"end\" FROM collective_member AS m WHERE %s", where), ==, rel (mb->end_ts));
          g_assert_cmpint (q (db, "SELECT bytes_sent FROM collective_member AS m WHERE %s", where), ==, mb->bytes_sent);
          g_assert_cmpint (q (db, "SELECT bytes_received FROM collective_member AS m WHERE %s", where), ==,
                           mb->bytes_received);
          /* the MPI call around the begin record (MPI_Iallreduce if non-blocking) */
          g_assert_cmpint (q (db, "SELECT v.enter FROM collective_member AS m JOIN visit AS v ON v.id = m.visit "
                                  "WHERE %s", where), ==, rel (mb->enter_ts));
          g_assert_cmpint (q (db, "SELECT v.leave FROM collective_member AS m JOIN visit AS v ON v.id = m.end_visit "
                                  "WHERE %s", where), ==, rel (mb->leave_ts));
        }
    }

  /* rank 0's and rank 2's MPI_COMM_SELF allreduces are two instances */
  g_assert_cmpint (q (db, "SELECT count(*) FROM collective WHERE comm = %d", EK_COMM_SELF), ==, 2);
}

static void
test_rma (void)
{
  sqlite3 *db = every_kind.db;
  static const char * const kinds[] = { "PUT", "GET", "ATOMIC" };
  static const char * const completions[] = { "BLOCKING", "NON_BLOCKING", "REMOTE" };

  g_assert_cmpint (q (db, "SELECT count(*) FROM rma_op"), ==, EK_N_RMA_OPS);
  for (guint i = 0; i < EK_N_RMA_OPS; i++)
    {
      const EkRmaOp *op = &ek_rma_ops[i];
      g_autofree char *where = g_strdup_printf ("loc = %" G_GINT64_FORMAT " AND matching_id = %" G_GUINT64_FORMAT,
                                                loc_of (op->origin), op->matching_id);

      g_assert_cmpint (q (db, "SELECT count(*) FROM rma_op WHERE %s AND kind = '%s' AND win = %d AND target = %u "
                              "AND target_loc = %" G_GINT64_FORMAT " AND bytes = %" G_GUINT64_FORMAT
                              " AND bytes_received = %" G_GUINT64_FORMAT " AND issue_time = %" G_GINT64_FORMAT
                              " AND complete_kind = '%s' AND complete_time = %" G_GINT64_FORMAT,
                          where, kinds[op->kind], EK_WIN, op->target, loc_of (ek_locations[op->target].id),
                          op->bytes_sent, op->bytes_received, rel (op->issue.event_ts),
                          completions[op->completion], rel (op->complete_ts)), ==, 1);
      g_assert_cmpint (q (db, "SELECT v.enter FROM rma_op AS o JOIN visit AS v ON v.id = o.visit WHERE o.%s", where),
                       ==, rel (op->issue.enter_ts));
    }

  for (guint i = 0; i < EK_N_RMA_LOCKS; i++)
    {
      const EkRmaLock *l = &ek_rma_locks[i];

      g_assert_cmpint (q (db, "SELECT count(*) FROM lock WHERE family = 'RMA' AND loc = %" G_GINT64_FORMAT
                              " AND target = %u AND lock_id = %" G_GUINT64_FORMAT " AND lock_type = '%s'"
                              " AND request_time = %" G_GINT64_FORMAT " AND acquire_time = %" G_GINT64_FORMAT
                              " AND release_time = %" G_GINT64_FORMAT " AND try_failed = 0",
                          loc_of (l->location), l->target, l->lock_id,
                          l->type == OTF2_LOCK_EXCLUSIVE ? "EXCLUSIVE" : "SHARED",
                          rel (l->lock.event_ts), rel (l->acquire_ts), rel (l->unlock.event_ts)), ==, 1);
      if (l->try_ts != 0)
        g_assert_cmpint (q (db, "SELECT count(*) FROM lock WHERE family = 'RMA' AND loc = %" G_GINT64_FORMAT
                                " AND try_failed = 1 AND acquire_time IS NULL AND request_time = %" G_GINT64_FORMAT,
                            loc_of (l->location), rel (l->try_ts)), ==, 1);
    }

  for (guint i = 0; i < EK_N_THREAD_LOCKS; i++)
    {
      const EkThreadLock *l = &ek_thread_locks[i];

      g_assert_cmpint (q (db, "SELECT count(*) FROM lock WHERE family = '%s' AND loc = %" G_GINT64_FORMAT
                              " AND lock_id = %u AND acquire_time = %" G_GINT64_FORMAT
                              " AND release_time = %" G_GINT64_FORMAT,
                          l->legacy ? "OMP" : "THREAD", loc_of (l->location), l->lock_id,
                          rel (l->acquire_ts), rel (l->release_ts)), ==, 1);
    }

  /* win create/destroy, fences and group syncs as synchronisation rows */
  g_assert_cmpint (q (db, "SELECT count(*) FROM rma_sync WHERE kind = 'RMA_COLLECTIVE'"), ==,
                   EK_N_RMA_COLLECTIVES * EK_N_RANKS);
  g_assert_cmpint (q (db, "SELECT count(*) FROM rma_sync WHERE kind = 'RMA_WIN_CREATE' AND win = %d", EK_WIN),
                   ==, EK_N_RANKS);
}

static void
test_other_events (void)
{
  sqlite3 *db = every_kind.db;
  gint64 r0 = loc_of (EK_LOC_R0);
  gint64 r1 = loc_of (EK_LOC_R1);

  g_assert_cmpint (q (db, "SELECT value FROM metric_value WHERE loc = %" G_GINT64_FORMAT " AND time = %"
                          G_GINT64_FORMAT " AND position = 0", r0, rel (EK_METRIC0_TS)), ==, EK_METRIC0_INSTRUCTIONS);
  g_assert_cmpint (q (db, "SELECT value * 10 FROM metric_value WHERE loc = %" G_GINT64_FORMAT " AND time = %"
                          G_GINT64_FORMAT " AND position = 1", r0, rel (EK_METRIC0_TS)),
                   ==, (gint64)(EK_METRIC0_TEMPERATURE * 10));
  g_assert_cmpint (q (db, "SELECT count(*) FROM metric_class_member WHERE metric = %d", EK_METRIC_CLASS), ==,
                   EK_N_METRIC_MEMBERS);

  g_assert_cmpint (q (db, "SELECT value = '%s' FROM parameter_value WHERE parameter = %d", EK_PARAM_INPUT_FILE_VALUE,
                      EK_PARAM_INPUT_FILE), ==, 1);
  g_assert_cmpint (q (db, "SELECT value FROM parameter_value WHERE parameter = %d", EK_PARAM_LEVEL), ==,
                   EK_PARAM_LEVEL_VALUE);
  g_assert_cmpint (q (db, "SELECT value FROM parameter_value WHERE parameter = %d", EK_PARAM_ITERATIONS), ==,
                   EK_PARAM_ITERATIONS_VALUE);

  g_assert_cmpint (q (db, "SELECT count(*) FROM program WHERE name = '%s' AND arguments = '%s %s' "
                          "AND begin = %" G_GINT64_FORMAT " AND exit_status = %" G_GINT64_FORMAT,
                      EK_PROGRAM_NAME, EK_PROGRAM_ARG0, EK_PROGRAM_ARG1, rel (EK_PROGRAM_BEGIN_TS),
                      EK_PROGRAM_EXIT_STATUS), ==, EK_N_RANKS);

  g_assert_cmpint (q (db, "SELECT count(*) FROM thread_event WHERE loc = %" G_GINT64_FORMAT
                          " AND kind = 'THREAD_FORK' AND value = %d", r1, EK_OMP_THREADS), ==, 1);
  g_assert_cmpint (q (db, "SELECT count(*) FROM thread_event WHERE kind = 'THREAD_CREATE' AND value = %"
                          G_GUINT64_FORMAT " AND team = %d", EK_THREAD_SEQUENCE, EK_COMM_PTHREAD), ==, 1);
  g_assert_cmpint (q (db, "SELECT count(*) FROM thread_event WHERE kind = 'OMP_TASK_CREATE' AND value = %"
                          G_GUINT64_FORMAT, EK_LEGACY_TASK_ID), ==, 1);

  /* the definitions a view needs */
  g_assert_cmpint (q (db, "SELECT count(*) FROM comm_member WHERE comm = %d", EK_COMM_WORLD), ==, EK_N_RANKS);
  g_assert_cmpint (q (db, "SELECT loc FROM comm_member WHERE comm = %d AND rank = 0", EK_COMM_SPLIT), ==, r1);
  g_assert_cmpint (q (db, "SELECT is_self FROM comm WHERE id = %d", EK_COMM_SELF), ==, 1);
  g_assert_cmpint (q (db, "SELECT count(*) FROM comm_member WHERE comm = %d", EK_COMM_OMP_TEAM), ==, 2);
  g_assert_cmpint (q (db, "SELECT count(*) FROM location WHERE otf2_id = %" G_GUINT64_FORMAT
                          " AND location_group = 1", EK_LOC_R1_T1), ==, 1);
  g_assert_cmpint (q (db, "SELECT count(*) FROM system_tree_node WHERE parent = %d", EK_STN_MACHINE), ==, 2);
}

/* The level of detail covers exactly the visits' exclusive time. */
static void
test_lod (void)
{
  sqlite3 *db = every_kind.db;

  g_assert_cmpint (q (db, "SELECT count(*) FROM lod WHERE level = (SELECT value - 1 FROM meta "
                          "WHERE key = 'lod_levels')"), ==, EK_N_LOCATIONS);
  /* main's span on rank 0: everything inside it is busy */
  g_assert_cmpint (q (db, "SELECT busy FROM lod WHERE loc = %" G_GINT64_FORMAT " AND level = "
                          "(SELECT value - 1 FROM meta WHERE key = 'lod_levels')", loc_of (EK_LOC_R0)), ==,
                   q (db, "SELECT leave - enter FROM visit WHERE loc = %" G_GINT64_FORMAT " AND depth = 0",
                      loc_of (EK_LOC_R0)));
}

/* Small archives ---------------------------------------------------------- */

static gint64
q_file (const char *db_path,
        const char *sql)
{
  sqlite3 *db = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_nonnull (sextant_column_table_register (db, NULL));
  value = q (db, "%s", sql);
  sqlite3_close (db);

  return value;
}

static void
test_clock_less (gconstpointer data)
{
  const char *dir = data;
  g_autofree char *archive = generate ("clock-less", dir);
  g_autofree char *db_path = g_build_filename (dir, "clock-less.db", NULL);

  sqlite3_close (import (archive, db_path));

  g_assert_cmpint (q_file (db_path, "SELECT value FROM meta WHERE key = 'resolution'"), ==, 1);
  g_assert_cmpint (q_file (db_path, "SELECT value FROM meta WHERE key = 'clock_properties'"), ==, 0);
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM import_log WHERE kind = 'no_clock_properties'"), ==, 1);
  /* sparse 64-bit location ids get dense indexes */
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM location WHERE otf2_id = 1099511627776 AND id = 1"),
                   ==, 1);
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM visit WHERE loc = 1"), >, 0);
}

static void
test_disorder (gconstpointer data)
{
  const char *dir = data;
  g_autofree char *archive = generate ("disorder", dir);
  g_autofree char *db_path = g_build_filename (dir, "disorder.db", NULL);

  sqlite3_close (import (archive, db_path));

  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM import_log WHERE kind = 'timestamp_disorder'"), ==, 1);
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM import_log WHERE kind = 'duplicate_definition'"), ==, 1);
  /* the group and the location group given twice, folded into one entry */
  g_assert_cmpint (q_file (db_path, "SELECT count FROM import_log WHERE kind = 'duplicate_definition'"), ==, 2);
  /* repaired: no visit ends before it begins, nothing overlaps its parent */
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM visit WHERE leave < enter"), ==, 0);
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM visit AS c JOIN visit AS p ON p.id = c.parent "
                                    "WHERE p.enter > c.enter OR p.leave < c.leave"), ==, 0);
  /* the first definition of the duplicated group is kept */
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM \"group\""), ==,
                   q_file (db_path, "SELECT count(DISTINCT id) FROM \"group\""));
  /* and of the location group, whose rows went many to an INSERT */
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM location_group WHERE id = 0 AND name = 'MPI Rank 0'"),
                   ==, 1);
  g_assert_cmpint (q_file (db_path, "SELECT count(*) FROM location_group"), ==,
                   q_file (db_path, "SELECT count(DISTINCT id) FROM location_group"));
}

static void
test_unknown_anchor (gconstpointer data)
{
  const char *dir = data;
  g_autofree char *archive = generate ("unknown-anchor", dir);
  g_autofree char *anchor = sextant_archive_find_anchor (archive, NULL);
  g_autofree char *db_default = sextant_archive_default_db_path (anchor);
  g_autoptr(SextantImporter) importer = sextant_importer_new (archive, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_str_has_suffix (anchor, "/weird.otf2"));
  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sextant_importer_get_db_path (importer), ==, db_default);
  g_assert_true (g_str_has_suffix (db_default, "/weird.sextant.db"));
  g_assert_cmpint (q_file (db_default, "SELECT value FROM meta WHERE key = 'archive_name' AND value = 'weird'")
                   != NONE, ==, TRUE);
  g_assert_cmpint (q_file (db_default, "SELECT count(*) FROM visit"), ==,
                   (SMALL_TINY_N_EVENTS_LOC0 + SMALL_TINY_N_EVENTS_LOC1) / 2);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *archive = NULL;
  g_autofree char *db_path = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  every_kind.dir = g_dir_make_tmp ("sextant-every-kind-XXXXXX", NULL);
  g_assert_nonnull (every_kind.dir);
  archive = generate ("every-kind", every_kind.dir);
  db_path = g_build_filename (every_kind.dir, "every-kind.db", NULL);
  every_kind.db = import (archive, db_path);

  g_test_add_func ("/trace/every-kind/counts", test_counts);
  g_test_add_func ("/trace/every-kind/visits", test_visits);
  g_test_add_func ("/trace/every-kind/messages", test_messages);
  g_test_add_func ("/trace/every-kind/collectives", test_collectives);
  g_test_add_func ("/trace/every-kind/rma", test_rma);
  g_test_add_func ("/trace/every-kind/other-events", test_other_events);
  g_test_add_func ("/trace/every-kind/lod", test_lod);
  g_test_add_data_func ("/trace/small/clock-less", every_kind.dir, test_clock_less);
  g_test_add_data_func ("/trace/small/disorder", every_kind.dir, test_disorder);
  g_test_add_data_func ("/trace/small/unknown-anchor", every_kind.dir, test_unknown_anchor);

  status = g_test_run ();

  sqlite3_close (every_kind.db);
  sextant_test_remove_tree (every_kind.dir);
  g_free (every_kind.dir);

  return status;
}
