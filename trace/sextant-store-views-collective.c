/*
 * sextant-store-views-collective.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared view collective_visit (schema-1.sql) computed in C: every
 * member of a blocking collective with its MPI call (and the call's region,
 * call path, call site and calling context, which the rules return so that
 * the engine need not look the call up again) and the bounds of its
 * collective that the collective wait states compare it with (the latest
 * enter and who entered then, the earliest leave, the others' earliest
 * enter and latest leave, the root's enter, the latest begin and earliest
 * end of the members with data). SQLite computes them with nine windows
 * over every member; here they are one pass over the members, one
 * collective at a time, written as a temporary column table that shadows
 * the view for the rest of the connection's analysis.
 *
 * Workload: the 10 M-event store of the import benchmark has 312,960
 * collective members in 4,890 collectives of 64; one pass reads them with
 * their visits (as collective_member is stored: grouped by collective) and
 * writes 77 chunks. The rules that read the copy (wait_at_nxn,
 * nxn_completion, wait_inside_collective, wait_at_barrier,
 * barrier_completion, late_broadcast, early_reduce) are then scans.
 * tests/test-store-views.c checks the copy against the view.
 */
#include "config.h"

#include <string.h>

#include "sextant-store-views-private.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* The members with their calls, as the view's first step reads them: in
 * the order of collective_member, which is grouped by collective (the
 * importer writes an instance's members together; the ids, from the
 * instances' keys, do not grow with the rows). The second form sorts them
 * when a store's are not grouped. */
#define COLLECTIVE_VISIT_ROWS \
  "SELECT cm.collective, c.kind, c.root_loc, cm.loc, v.id, v.enter, v.leave, v.region, v.path, v.scl, " \
  "       v.context, cm.begin, cm.\"end\", " \
  "       cm.bytes_sent > 0, cm.bytes_received > 0 " \
  "FROM collective_member AS cm " \
  "JOIN collective AS c ON c.id = cm.collective " \
  "LEFT JOIN visit AS v ON v.id = cm.visit " \
  "WHERE c.nonblocking = 0 AND c.members > 1"

static const char collective_visit_rows[] = COLLECTIVE_VISIT_ROWS;
static const char collective_visit_rows_sorted[] = COLLECTIVE_VISIT_ROWS " ORDER BY cm.collective";

/* The kinds the table's TEXT column can hold: those of the store. */
static const char collective_visit_kinds[] =
  "SELECT DISTINCT kind FROM collective WHERE nonblocking = 0 AND members > 1 ORDER BY kind";

/* The columns of the view, in its order; the first CV_N_READ are read. */
enum
{
  CV_COLLECTIVE, CV_KIND, CV_ROOT_LOC, CV_LOC, CV_VISIT, CV_ENTER, CV_LEAVE, CV_REGION, CV_PATH, CV_SCL,
  CV_CONTEXT, CV_BEGIN, CV_END, CV_SENDS, CV_RECEIVES,
  CV_N_READ,
  CV_LAST_ENTER = CV_N_READ, CV_LAST_LOC, CV_FIRST_LEAVE, CV_OTHERS_ENTER, CV_OTHERS_LEAVE,
  CV_ROOT_ENTER, CV_LATEST_BEGIN, CV_EARLIEST_END,
  CV_N
};

#define COLLECTIVE_VISIT_DECL \
  "collective, kind TEXT %s, root_loc, loc, visit, enter, leave, region, path, scl, context, begin, " \
  "\"end\", sends, receives, " \
  "last_enter, last_loc, first_leave, others_enter, others_leave, root_enter, latest_begin, earliest_end"

#define CHUNK_ROWS 4096

typedef struct
{
  gint64 v[CV_N];     /* SEXTANT_NULL for NULL */
} Member;

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

static inline gboolean
is_null (gint64 v)
{
  return v == SEXTANT_NULL;
}

/* SQL's max () and min () of the non-NULL values */
static inline gint64
max_of (gint64 acc,
        gint64 v)
{
  return is_null (acc) || (!is_null (v) && v > acc) ? v : acc;
}

static inline gint64
min_of (gint64 acc,
        gint64 v)
{
  return is_null (acc) || (!is_null (v) && v < acc) ? v : acc;
}

/* The two smallest (@lowest) or largest of the non-NULL values seen, as a
 * multiset: with a tie both are the same. */
typedef struct
{
  gint64 first;
  gint64 second;
} Extremes;

static inline void
extremes_add (Extremes *e,
              gint64    v,
              gboolean  lowest)
{
  if (is_null (v))
    return;
  if (is_null (e->first) || (lowest ? v < e->first : v > e->first))
    {
      e->second = e->first;
      e->first = v;
    }
  else if (is_null (e->second) || (lowest ? v < e->second : v > e->second))
    e->second = v;
}

/* The extreme of the values of the others: a member holding the extreme
 * sees the second (the same on a tie), everyone else the extreme. */
static inline gint64
extremes_others (const Extremes *e,
                 gint64          own)
{
  return !is_null (own) && own == e->first ? e->second : e->first;
}

/* Computes the bounds of one collective's members (the group) and appends
 * them to the copy. */
static gboolean
finish_collective (Output  *out,
                   GArray  *group,
                   GError **error)
{
  Extremes enters = { SEXTANT_NULL, SEXTANT_NULL };
  Extremes leaves = { SEXTANT_NULL, SEXTANT_NULL };
  gint64 last_enter = SEXTANT_NULL, last_loc = SEXTANT_NULL, first_leave = SEXTANT_NULL;
  gint64 root_enter = SEXTANT_NULL, latest_begin = SEXTANT_NULL, earliest_end = SEXTANT_NULL;

  for (guint i = 0; i < group->len; i++)
    {
      const Member *m = &g_array_index (group, Member, i);

      extremes_add (&enters, m->v[CV_ENTER], TRUE);
      extremes_add (&leaves, m->v[CV_LEAVE], FALSE);
      if (!is_null (m->v[CV_ENTER]) &&
          (is_null (last_enter) || m->v[CV_ENTER] > last_enter ||
           (m->v[CV_ENTER] == last_enter && m->v[CV_LOC] < last_loc)))
        {
          last_enter = m->v[CV_ENTER];
          last_loc = m->v[CV_LOC];
        }
      first_leave = min_of (first_leave, m->v[CV_LEAVE]);
      if (!is_null (m->v[CV_ROOT_LOC]) && m->v[CV_LOC] == m->v[CV_ROOT_LOC])
        root_enter = max_of (root_enter, m->v[CV_ENTER]);
      if (m->v[CV_SENDS] == 1 || m->v[CV_RECEIVES] == 1)
        {
          latest_begin = max_of (latest_begin, m->v[CV_BEGIN]);
          earliest_end = min_of (earliest_end, m->v[CV_END]);
        }
    }

  for (guint i = 0; i < group->len; i++)
    {
      Member *m = &g_array_index (group, Member, i);

      m->v[CV_LAST_ENTER] = last_enter;
      m->v[CV_LAST_LOC] = last_loc;
      m->v[CV_FIRST_LEAVE] = first_leave;
      m->v[CV_OTHERS_ENTER] = extremes_others (&enters, m->v[CV_ENTER]);
      m->v[CV_OTHERS_LEAVE] = extremes_others (&leaves, m->v[CV_LEAVE]);
      m->v[CV_ROOT_ENTER] = root_enter;
      m->v[CV_LATEST_BEGIN] = latest_begin;
      m->v[CV_EARLIEST_END] = earliest_end;

      for (guint c = 0; c < CV_N; c++)
        out->values[c * CHUNK_ROWS + out->n] = m->v[c];
      if (++out->n == CHUNK_ROWS && !output_flush (out, error))
        return FALSE;
    }
  g_array_set_size (group, 0);

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

/* Whether @ids (sorted here) has an id twice */
static gboolean
has_repeats (GArray *ids)
{
  g_array_sort (ids, _sextant_compare_int64);
  for (guint i = 1; i < ids->len; i++)
    if (g_array_index (ids, gint64, i) == g_array_index (ids, gint64, i - 1))
      return TRUE;

  return FALSE;
}

/* One pass over the members, in @sql's order: FALSE with *@unsorted set
 * when a collective comes back after another (what was written is then
 * to be dropped). */
static gboolean
copy_members (Output      *out,
              GPtrArray   *kinds,
              const char  *sql,
              gboolean    *unsorted,
              GError     **error)
{
  sqlite3 *db = _sextant_store_get_db (out->store);
  g_autoptr(sqlite3_stmt) read = NULL;
  g_autoptr(GArray) group = g_array_new (FALSE, FALSE, sizeof (Member));
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (gint64));   /* each group's collective */
  gint64 collective = SEXTANT_NULL;
  gint64 kind = SEXTANT_NULL;
  int rc;

  *unsorted = FALSE;
  if ((rc = sqlite3_prepare_v2 (db, sql, -1, &read, NULL)) != SQLITE_OK)
    {
      _sextant_store_set_error_from_db (out->store, rc, "reading collective_visit", error);
      return FALSE;
    }
  while ((rc = sqlite3_step (read)) == SQLITE_ROW)
    {
      Member m;

      for (int c = 0; c < CV_N_READ; c++)
        m.v[c] = c == CV_KIND || sqlite3_column_type (read, c) == SQLITE_NULL ? SEXTANT_NULL
                                                                              : sqlite3_column_int64 (read, c);
      if (m.v[CV_COLLECTIVE] != collective || group->len == 0)
        {
          if (group->len > 0 && !finish_collective (out, group, error))
            return FALSE;
          collective = m.v[CV_COLLECTIVE];
          g_array_append_val (seen, collective);
          kind = kind_index (kinds, (const char *)sqlite3_column_text (read, CV_KIND));
        }
      m.v[CV_KIND] = kind;
      g_array_append_val (group, m);
    }
  if (rc != SQLITE_DONE)
    {
      _sextant_store_set_error_from_db (out->store, rc, "reading collective_visit", error);
      return FALSE;
    }

  if (has_repeats (seen))
    {
      *unsorted = TRUE;
      return FALSE;
    }

  return (group->len == 0 || finish_collective (out, group, error)) && output_flush (out, error);
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
  gboolean unsorted = FALSE;

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
  if (!copy_members (&out, kinds, collective_visit_rows, &unsorted, error))
    {
      if (!unsorted)
        return FALSE;
      /* a store whose members are not sorted: SQLite sorts them */
      g_clear_pointer (&chunks, sextant_column_chunks_unref);
      out.chunks = chunks = sextant_column_chunks_new (CV_N);
      out.n = 0;
      if (!copy_members (&out, kinds, collective_visit_rows_sorted, &unsorted, error))
        return FALSE;
    }

  return _sextant_store_attach_temp_columns (self, "collective_visit", decl, chunks, error);
}
