/*
 * sextant-store-views-collective.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared view collective_visit (schema-1.sql) copied once per
 * analysis: every member of a blocking collective with its MPI call (and
 * the call's region, call path, call site and calling context, which the
 * rules return so that the engine need not look the call up again) and
 * the bounds of its collective that the collective wait states compare it
 * with, which the importer keeps in the collective's row (the latest enter
 * and who entered then, the earliest leave, the two earliest enters and
 * latest leaves, from which the others' are taken, the root's enter, the
 * latest begin and earliest end of the members with data). One pass over
 * the members joined with their collective and call, written as a
 * temporary column table that shadows the view for the rest of the
 * connection's analysis, so that the seven rules that read it
 * (wait_at_nxn, nxn_completion, wait_inside_collective, wait_at_barrier,
 * barrier_completion, late_broadcast, early_reduce) scan it rather than
 * join three tables each.
 *
 * Workload: the 10 M-event store of the import benchmark has 312,960
 * collective members in 4,890 collectives of 64: 77 chunks.
 * tests/test-store-views.c checks the copy against the view.
 */
#include "config.h"

#include <string.h>

#include "sextant-store-views-private.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* The members with their calls and their collectives' bounds, as the
 * view has them: the others' extremes are taken in C */
static const char collective_visit_rows[] =
  "SELECT cm.collective, c.kind, c.root_loc, cm.loc, v.id, v.enter, v.leave, v.region, v.path, v.scl, "
  "       v.context, cm.begin, cm.\"end\", cm.bytes_sent > 0, cm.bytes_received > 0, "
  "       c.last_enter, c.last_loc, c.first_leave, c.enter_min, c.enter_min2, c.leave_max, c.leave_max2, "
  "       c.root_enter, c.latest_begin, c.earliest_end "
  "FROM collective_member AS cm "
  "JOIN collective AS c ON c.id = cm.collective "
  "LEFT JOIN visit AS v ON v.id = cm.visit "
  "WHERE c.nonblocking = 0 AND c.members > 1";

/* The kinds the table's TEXT column can hold: those of the store. */
static const char collective_visit_kinds[] =
  "SELECT DISTINCT kind FROM collective WHERE nonblocking = 0 AND members > 1 ORDER BY kind";

/* The columns of the view, in its order */
enum
{
  CV_COLLECTIVE, CV_KIND, CV_ROOT_LOC, CV_LOC, CV_VISIT, CV_ENTER, CV_LEAVE, CV_REGION, CV_PATH, CV_SCL,
  CV_CONTEXT, CV_BEGIN, CV_END, CV_SENDS, CV_RECEIVES,
  CV_LAST_ENTER, CV_LAST_LOC, CV_FIRST_LEAVE, CV_OTHERS_ENTER, CV_OTHERS_LEAVE,
  CV_ROOT_ENTER, CV_LATEST_BEGIN, CV_EARLIEST_END,
  CV_N
};

/* The columns collective_visit_rows reads after CV_RECEIVES */
enum
{
  READ_LAST_ENTER = CV_RECEIVES + 1, READ_LAST_LOC, READ_FIRST_LEAVE, READ_ENTER_MIN, READ_ENTER_MIN2,
  READ_LEAVE_MAX, READ_LEAVE_MAX2, READ_ROOT_ENTER, READ_LATEST_BEGIN, READ_EARLIEST_END,
  READ_N
};

#define COLLECTIVE_VISIT_DECL \
  "collective, kind TEXT %s, root_loc, loc, visit, enter, leave, region, path, scl, context, begin, " \
  "\"end\", sends, receives, " \
  "last_enter, last_loc, first_leave, others_enter, others_leave, root_enter, latest_begin, earliest_end"

#define CHUNK_ROWS 4096

/* The copy being written: one chunk of rows, by column. */
typedef struct
{
  SextantStore         *store;
  SextantColumnChunks  *chunks;     /* the chunks written */
  gint64               *values;     /* CV_N columns of CHUNK_ROWS */
  guint                 n;          /* rows in the chunk */
} Output;

static gboolean
output_flush (Output  *out,
              GError **error)
{
  const gint64 *columns[CV_N];

  if (out->n == 0)
    return TRUE;
  if (sextant_store_set_error_if_cancelled (out->store, error))
    return FALSE;

  for (guint c = 0; c < CV_N; c++)
    columns[c] = out->values + c * CHUNK_ROWS;
  if (!sextant_column_chunks_append (out->chunks, columns, out->n, error))
    return FALSE;
  out->n = 0;

  return TRUE;
}

/* Reads the kinds of the store's blocking collectives into @kinds; FALSE
 * with @error set when one is not a word (the column table's TEXT values
 * are words). */
static gboolean
read_kinds (SextantStore  *self,
            GPtrArray     *kinds,
            GError       **error)
{
  sqlite3 *db = _sextant_store_get_db (self);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if ((rc = sqlite3_prepare_v2 (db, collective_visit_kinds, -1, &stmt, NULL)) != SQLITE_OK)
    {
      _sextant_store_set_error_from_db (self, rc, "reading the collective kinds", error);
      return FALSE;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *kind = (const char *)sqlite3_column_text (stmt, 0);

      if (kind == NULL || *kind == '\0' || strspn (kind, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                          "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen (kind))
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY,
                       "collective_visit: collective kind \"%s\" is not a word", kind != NULL ? kind : "NULL");
          return FALSE;
        }
      g_ptr_array_add (kinds, g_strdup (kind));
    }
  if (rc != SQLITE_DONE)
    {
      _sextant_store_set_error_from_db (self, rc, "reading the collective kinds", error);
      return FALSE;
    }

  return TRUE;
}

static gint64
kind_index (GPtrArray  *kinds,
            const char *kind)
{
  for (guint i = 0; kind != NULL && i < kinds->len; i++)
    if (strcmp (g_ptr_array_index (kinds, i), kind) == 0)
      return i;

  return SEXTANT_NULL;
}

/* The extreme of the others' values, from the two extremes of all: the
 * member that holds the first sees the second (the same on a tie) */
static inline gint64
others_extreme (gint64 own,
                gint64 first,
                gint64 second)
{
  return own != SEXTANT_NULL && own == first ? second : first;
}

/* One pass over the members, appended to @out */
static gboolean
copy_members (Output      *out,
              GPtrArray   *kinds,
              GError     **error)
{
  sqlite3 *db = _sextant_store_get_db (out->store);
  g_autoptr(sqlite3_stmt) read = NULL;
  gint64 collective = SEXTANT_NULL;
  gint64 kind = SEXTANT_NULL;
  int rc;

  if ((rc = sqlite3_prepare_v2 (db, collective_visit_rows, -1, &read, NULL)) != SQLITE_OK)
    {
      _sextant_store_set_error_from_db (out->store, rc, "reading collective_visit", error);
      return FALSE;
    }
  while ((rc = sqlite3_step (read)) == SQLITE_ROW)
    {
      gint64 v[READ_N];
      gint64 *row = out->values + out->n;

      for (int c = 0; c < READ_N; c++)
        v[c] = c == CV_KIND || sqlite3_column_type (read, c) == SQLITE_NULL ? SEXTANT_NULL
                                                                            : sqlite3_column_int64 (read, c);
      if (v[CV_COLLECTIVE] != collective || kind == SEXTANT_NULL)
        {
          collective = v[CV_COLLECTIVE];
          kind = kind_index (kinds, (const char *)sqlite3_column_text (read, CV_KIND));
        }
      v[CV_KIND] = kind;
      for (guint c = 0; c <= CV_RECEIVES; c++)
        row[c * CHUNK_ROWS] = v[c];
      row[CV_LAST_ENTER * CHUNK_ROWS] = v[READ_LAST_ENTER];
      row[CV_LAST_LOC * CHUNK_ROWS] = v[READ_LAST_LOC];
      row[CV_FIRST_LEAVE * CHUNK_ROWS] = v[READ_FIRST_LEAVE];
      row[CV_OTHERS_ENTER * CHUNK_ROWS] = others_extreme (v[CV_ENTER], v[READ_ENTER_MIN], v[READ_ENTER_MIN2]);
      row[CV_OTHERS_LEAVE * CHUNK_ROWS] = others_extreme (v[CV_LEAVE], v[READ_LEAVE_MAX], v[READ_LEAVE_MAX2]);
      row[CV_ROOT_ENTER * CHUNK_ROWS] = v[READ_ROOT_ENTER];
      row[CV_LATEST_BEGIN * CHUNK_ROWS] = v[READ_LATEST_BEGIN];
      row[CV_EARLIEST_END * CHUNK_ROWS] = v[READ_EARLIEST_END];
      if (++out->n == CHUNK_ROWS && !output_flush (out, error))
        return FALSE;
    }
  if (rc != SQLITE_DONE)
    {
      _sextant_store_set_error_from_db (out->store, rc, "reading collective_visit", error);
      return FALSE;
    }

  return output_flush (out, error);
}

/**
 * _sextant_store_fill_collective_visit:
 *
 * Fills the temporary column table collective_visit with exactly the rows
 * of the view (schema-1.sql), in the order of collective_member.
 */
gboolean
_sextant_store_fill_collective_visit (SextantStore  *self,
                                      GError       **error)
{
  g_autoptr(GPtrArray) kinds = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SextantColumnChunks) chunks = sextant_column_chunks_new (CV_N);
  g_autofree gint64 *values = NULL;
  g_autofree char *words = NULL;
  g_autofree char *decl = NULL;
  Output out = { self, chunks, NULL, 0 };

  if (!read_kinds (self, kinds, error))
    return FALSE;
  /* the TEXT column takes one value at least; with no collective none is used */
  if (kinds->len == 0)
    g_ptr_array_add (kinds, g_strdup ("BARRIER"));
  g_ptr_array_add (kinds, NULL);
  words = g_strjoinv (" ", (char **)kinds->pdata);
  g_ptr_array_set_size (kinds, kinds->len - 1);
  decl = g_strdup_printf (COLLECTIVE_VISIT_DECL, words);

  /* a column table like the events, in memory */
  values = g_new (gint64, CV_N * CHUNK_ROWS);
  out.values = values;
  if (!copy_members (&out, kinds, error))
    return FALSE;

  return _sextant_store_attach_temp_columns (self, "collective_visit", decl, chunks, error);
}
