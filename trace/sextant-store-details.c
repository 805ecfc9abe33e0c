/*
 * sextant-store-details.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The details of one item of the timeline (sextant-store-details.h). Every
 * statement here reads one row by a key: a primary key (region, comm,
 * collective, rma_op, rma_window, source_code_location, calling_context,
 * call_path), a row id of a column table (visit, message: one chunk), the
 * collective of collective_member (written as the members arrive: the zone
 * maps pick the few chunks that hold them), or the first visit of a location entered after a time
 * (visit ids follow enter order within a location, so the scan stops at
 * the first row it finds). The innermost visit open at a time is the last
 * one entered at or before it, or the nearest of its ancestors still open
 * then: at most its depth more lookups by id.
 *
 * Workload: one read per click in the timeline, ten to twenty statements,
 * well under a millisecond each on the 10 M-event store (docs/ui.md).
 */
#include "config.h"

#include "sextant-store-details.h"
#include "sextant-store-locks.h"
#include "sextant-store-private.h"

#define MAX_COLUMNS 16

/* the location's visits: ids first_visit..last_visit, in enter order */
#define SQL_VISIT_RANGE \
  "SELECT first_visit, last_visit FROM location WHERE id = ?1 AND first_visit IS NOT NULL"
#define SQL_VISIT \
  "SELECT id, loc, region, enter, leave, depth, parent, context, scl, path FROM visit WHERE id = ?1"
#define SQL_REGION \
  "SELECT coalesce (name, '?'), category FROM region WHERE id = ?1"
#define SQL_LABEL \
  "SELECT label FROM location_label WHERE loc = ?1"
#define SQL_MESSAGE \
  "SELECT comm, tag, coalesce (bytes, recv_bytes), send_loc, recv_loc, send_time, send_visit, " \
  "       recv_time, recv_visit FROM message WHERE id = ?1"
#define SQL_COMM \
  "SELECT name FROM comm WHERE id = ?1"
#define SQL_COLLECTIVE \
  "SELECT comm, kind, root, root_loc, members, expected, begin, \"end\" FROM collective WHERE id = ?1"
#define SQL_COLLECTIVE_BYTES \
  "SELECT sum (bytes_sent), sum (bytes_received) FROM collective_member WHERE collective = ?1"
#define SQL_COLLECTIVE_MEMBER \
  "SELECT visit FROM collective_member WHERE collective = ?1 AND loc = ?2 LIMIT 1"
#define SQL_RMA \
  "SELECT loc, win, kind, atomic_type, target, target_loc, bytes, bytes_received, issue_time, visit, " \
  "       complete_time, complete_kind FROM rma_op WHERE id = ?1"
#define SQL_WINDOW \
  "SELECT name, comm FROM rma_window WHERE id = ?1"

/* One row: each column as an integer (SEXTANT_NULL for NULL) and as text
 * (NULL for NULL) */
typedef struct
{
  guint     n;               /* the columns to take */
  gboolean  found;
  gint64    v[MAX_COLUMNS];
  char     *t[MAX_COLUMNS];
} Row;

static void
row_clear (Row *row)
{
  for (guint i = 0; i < MAX_COLUMNS; i++)
    g_clear_pointer (&row->t[i], g_free);
  row->found = FALSE;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Row, row_clear)

static gboolean
take_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  Row *out = user_data;

  if (out->found)
    return TRUE;                /* the first row only (statements of one row) */
  out->found = TRUE;
  for (guint i = 0; i < out->n; i++)
    {
      out->v[i] = sextant_row_get_int_or_null (row, i);
      out->t[i] = sextant_row_is_null (row, i) ? NULL : sextant_row_dup_text (row, i);
    }

  return TRUE;
}

/* Reads the first row of @sql, its first @n columns, into @row (found
 * FALSE when it has none) */
static gboolean
fetch (SextantStore  *store,
       Row           *row,
       guint          n,
       const char    *sql,
       GError       **error,
       const char    *types,
       gint64         a,
       gint64         b)
{
  row_clear (row);
  row->n = n;
  if (g_str_equal (types, "i"))
    return sextant_store_foreach_sql (store, sql, take_row, row, error, "i", a);
  return sextant_store_foreach_sql (store, sql, take_row, row, error, "ii", a, b);
}

/* the same for a statement of the store's table, one parameter */
static gboolean
fetch_stmt (SextantStore      *store,
            Row               *row,
            guint              n,
            SextantStoreStmt   stmt,
            gint64             a,
            GError           **error)
{
  row_clear (row);
  row->n = n;
  return sextant_store_foreach (store, stmt, take_row, row, error, "i", a);
}

static gboolean
fetch_label (SextantStore  *store,
             gint64         loc,
             char         **label,
             GError       **error)
{
  g_auto(Row) row = { 0 };

  if (loc == SEXTANT_NULL)
    return TRUE;
  if (!fetch (store, &row, 1, SQL_LABEL, error, "i", loc, 0))
    return FALSE;
  *label = row.found ? g_steal_pointer (&row.t[0]) : g_strdup ("?");

  return TRUE;
}

static gboolean
fetch_comm (SextantStore  *store,
            gint64         comm,
            char         **name,
            GError       **error)
{
  g_auto(Row) row = { 0 };

  if (comm == SEXTANT_NULL)
    return TRUE;
  if (!fetch (store, &row, 1, SQL_COMM, error, "i", comm, 0))
    return FALSE;
  if (row.found)
    *name = g_steal_pointer (&row.t[0]);

  return TRUE;
}

/* The call site of a call: its source code location, else its calling
 * context's (as the analysis finds it, less the function's definition) */
static gboolean
fetch_site (SextantStore  *store,
            gint64         scl,
            gint64         context,
            char         **file,
            gint64        *line,
            GError       **error)
{
  g_auto(Row) row = { 0 };

  if (scl != SEXTANT_NULL && !fetch_stmt (store, &row, 2, SEXTANT_QUERY_SOURCE_CODE_LOCATION, scl, error))
    return FALSE;
  if ((!row.found || row.t[0] == NULL) && context != SEXTANT_NULL &&
      !fetch_stmt (store, &row, 2, SEXTANT_QUERY_CONTEXT_SOURCE, context, error))
    return FALSE;
  if (row.found && row.t[0] != NULL)
    {
      *file = g_steal_pointer (&row.t[0]);
      *line = MAX (row.v[1], 0);
    }

  return TRUE;
}

enum { V_ID, V_LOC, V_REGION, V_ENTER, V_LEAVE, V_DEPTH, V_PARENT, V_CONTEXT, V_SCL, V_PATH };

/* The call site of the visit @id (SEXTANT_NULL: none) */
static gboolean
fetch_visit_site (SextantStore  *store,
                  gint64         id,
                  char         **file,
                  gint64        *line,
                  GError       **error)
{
  g_auto(Row) row = { 0 };

  if (id == SEXTANT_NULL)
    return TRUE;
  if (!fetch (store, &row, 10, SQL_VISIT, error, "i", id, 0))
    return FALSE;

  return !row.found || fetch_site (store, row.v[V_SCL], row.v[V_CONTEXT], file, line, error);
}

static gboolean
fetch_region (SextantStore  *store,
              gint64         region,
              char         **name,
              char         **category,
              GError       **error)
{
  g_auto(Row) row = { 0 };

  if (!fetch (store, &row, 2, SQL_REGION, error, "i", region, 0))
    return FALSE;
  *name = row.found ? g_steal_pointer (&row.t[0]) : g_strdup ("?");
  if (category != NULL && row.found)
    *category = g_steal_pointer (&row.t[1]);

  return TRUE;
}

static SextantItemDetails *
details_new (SextantDetailsKind kind)
{
  SextantItemDetails *details = g_new0 (SextantItemDetails, 1);

  details->kind = kind;
  details->id = details->loc = details->peer_loc = SEXTANT_NULL;
  details->begin = details->end = SEXTANT_NULL;
  details->bytes = details->bytes_received = details->tag = SEXTANT_NULL;
  details->comm = details->root = details->window = SEXTANT_NULL;
  details->parent = SEXTANT_NULL;
  details->lock_asked = details->lock_acquired = SEXTANT_NULL;
  details->hold_begin = details->hold_end = SEXTANT_NULL;

  return details;
}

/* The lock the visit @details waited for, if it did: the holder it got
 * the lock from last (its acquisitions in its own interval, by the index
 * lock_acquire) */
static gboolean
read_lock_wait (SextantStore        *store,
                SextantItemDetails  *details,
                GError             **error)
{
  g_autoptr(GArray) waits = g_array_new (FALSE, FALSE, sizeof (SextantLockWait));
  const SextantLockWait *last;

  if (details->begin == SEXTANT_NULL || details->end == SEXTANT_NULL || details->end == G_MAXINT64)
    return TRUE;
  if (!sextant_store_read_lock_waits (store, details->begin, details->end + 1, 0, details->loc, details->id, 1, 0, waits,
                                      error))
    return FALSE;
  if (waits->len == 0)
    return TRUE;
  last = &g_array_index (waits, SextantLockWait, waits->len - 1);
  details->peer_loc = last->holder_loc;
  details->lock_asked = last->asked;
  details->lock_acquired = last->acquired;
  details->hold_begin = last->hold_begin;
  details->hold_end = last->hold_end;

  return fetch_label (store, details->peer_loc, &details->peer_label, error);
}

/* The innermost visit of @loc open at @time: NULL details when none was */
static gboolean
read_visit (SextantStore        *store,
            gint64               loc,
            gint64               time,
            SextantItemDetails **out,
            GError             **error)
{
  g_autoptr(SextantItemDetails) details = NULL;
  g_auto(Row) range = { 0 };
  g_auto(Row) next = { 0 };
  g_auto(Row) visit = { 0 };
  g_auto(Row) parent = { 0 };
  gint64 id;

  if (!fetch (store, &range, 2, SQL_VISIT_RANGE, error, "i", loc, 0))
    return FALSE;
  if (!range.found || time == G_MAXINT64)
    return TRUE;
  /* the last visit entered at or before @time: the one before the first entered after it */
  next.n = 1;
  if (!sextant_store_foreach (store, SEXTANT_QUERY_FIRST_VISIT_FROM, take_row, &next, error, "iiii",
                              loc, time + 1, range.v[0], range.v[1]))
    return FALSE;
  for (id = next.found ? next.v[0] - 1 : range.v[1]; id >= range.v[0] && id != SEXTANT_NULL; id = visit.v[V_PARENT])
    {
      if (!fetch (store, &visit, 10, SQL_VISIT, error, "i", id, 0))
        return FALSE;
      if (!visit.found)
        return TRUE;
      if (visit.v[V_ENTER] <= time && visit.v[V_LEAVE] > time)
        break;
    }
  if (id < range.v[0] || id == SEXTANT_NULL)
    return TRUE;

  details = details_new (SEXTANT_DETAILS_VISIT);
  details->id = id;
  details->loc = loc;
  details->begin = visit.v[V_ENTER];
  details->end = visit.v[V_LEAVE];
  details->depth = MAX (visit.v[V_DEPTH], 0);
  details->parent = visit.v[V_PARENT];
  if (!fetch_label (store, loc, &details->loc_label, error) ||
      !fetch_region (store, visit.v[V_REGION], &details->name, &details->category, error) ||
      !fetch_site (store, visit.v[V_SCL], visit.v[V_CONTEXT], &details->file, &details->line, error))
    return FALSE;
  if (visit.v[V_PATH] != SEXTANT_NULL)
    {
      g_auto(Row) path = { 0 };

      if (!fetch_stmt (store, &path, 1, SEXTANT_QUERY_CALL_PATH_NAME, visit.v[V_PATH], error))
        return FALSE;
      details->call_path = g_steal_pointer (&path.t[0]);
    }
  if (details->parent != SEXTANT_NULL)
    {
      if (!fetch (store, &parent, 10, SQL_VISIT, error, "i", details->parent, 0))
        return FALSE;
      if (parent.found && !fetch_region (store, parent.v[V_REGION], &details->parent_name, NULL, error))
        return FALSE;
    }

  if (!read_lock_wait (store, details, error))
    return FALSE;

  *out = g_steal_pointer (&details);
  return TRUE;
}

enum { M_COMM, M_TAG, M_BYTES, M_SEND_LOC, M_RECV_LOC, M_SEND_TIME, M_SEND_VISIT, M_RECV_TIME, M_RECV_VISIT };

static gboolean
read_message (SextantStore        *store,
              gint64               id,
              SextantItemDetails **out,
              GError             **error)
{
  g_autoptr(SextantItemDetails) details = NULL;
  g_auto(Row) row = { 0 };

  if (!fetch (store, &row, 9, SQL_MESSAGE, error, "i", id, 0))
    return FALSE;
  if (!row.found)
    return TRUE;

  details = details_new (SEXTANT_DETAILS_MESSAGE);
  details->id = id;
  details->name = g_strdup ("Message");
  details->comm = row.v[M_COMM];
  details->tag = row.v[M_TAG];
  details->bytes = row.v[M_BYTES];
  details->loc = row.v[M_SEND_LOC];
  details->peer_loc = row.v[M_RECV_LOC];
  details->begin = row.v[M_SEND_TIME];
  details->end = row.v[M_RECV_TIME];
  if (!fetch_label (store, details->loc, &details->loc_label, error) ||
      !fetch_label (store, details->peer_loc, &details->peer_label, error) ||
      !fetch_comm (store, details->comm, &details->comm_name, error) ||
      !fetch_visit_site (store, row.v[M_SEND_VISIT], &details->file, &details->line, error) ||
      !fetch_visit_site (store, row.v[M_RECV_VISIT], &details->peer_file, &details->peer_line, error))
    return FALSE;

  *out = g_steal_pointer (&details);
  return TRUE;
}

enum { C_COMM, C_KIND, C_ROOT, C_ROOT_LOC, C_MEMBERS, C_EXPECTED, C_BEGIN, C_END };

static gboolean
read_collective (SextantStore        *store,
                 gint64               id,
                 gint64               loc,
                 SextantItemDetails **out,
                 GError             **error)
{
  g_autoptr(SextantItemDetails) details = NULL;
  g_auto(Row) row = { 0 };
  g_auto(Row) bytes = { 0 };
  g_auto(Row) member = { 0 };

  if (!fetch (store, &row, 8, SQL_COLLECTIVE, error, "i", id, 0))
    return FALSE;
  if (!row.found)
    return TRUE;

  details = details_new (SEXTANT_DETAILS_COLLECTIVE);
  details->id = id;
  details->comm = row.v[C_COMM];
  details->name = g_steal_pointer (&row.t[C_KIND]);
  details->root = row.v[C_ROOT];
  details->peer_loc = row.v[C_ROOT_LOC];
  details->members = MAX (row.v[C_MEMBERS], 0);
  details->expected = MAX (row.v[C_EXPECTED], 0);
  details->begin = row.v[C_BEGIN];
  details->end = row.v[C_END];
  if (!fetch (store, &bytes, 2, SQL_COLLECTIVE_BYTES, error, "i", id, 0))
    return FALSE;
  details->bytes = bytes.v[0];
  details->bytes_received = bytes.v[1];
  if (loc != SEXTANT_NULL)
    {
      if (!fetch (store, &member, 1, SQL_COLLECTIVE_MEMBER, error, "ii", id, loc))
        return FALSE;
      if (member.found)
        {
          details->loc = loc;
          if (!fetch_visit_site (store, member.v[0], &details->file, &details->line, error))
            return FALSE;
        }
    }
  if (!fetch_label (store, details->loc, &details->loc_label, error) ||
      !fetch_label (store, details->peer_loc, &details->peer_label, error) ||
      !fetch_comm (store, details->comm, &details->comm_name, error))
    return FALSE;

  *out = g_steal_pointer (&details);
  return TRUE;
}

enum { R_LOC, R_WIN, R_KIND, R_ATOMIC, R_TARGET, R_TARGET_LOC, R_BYTES, R_BYTES_RECEIVED, R_ISSUE, R_VISIT,
       R_COMPLETE, R_COMPLETE_KIND };

static gboolean
read_rma (SextantStore        *store,
          gint64               id,
          SextantItemDetails **out,
          GError             **error)
{
  g_autoptr(SextantItemDetails) details = NULL;
  g_auto(Row) row = { 0 };
  g_auto(Row) window = { 0 };

  if (!fetch (store, &row, 12, SQL_RMA, error, "i", id, 0))
    return FALSE;
  if (!row.found)
    return TRUE;

  details = details_new (SEXTANT_DETAILS_RMA);
  details->id = id;
  details->loc = row.v[R_LOC];
  details->window = row.v[R_WIN];
  details->name = row.t[R_ATOMIC] != NULL ? g_strdup_printf ("%s (%s)", row.t[R_KIND], row.t[R_ATOMIC])
                                          : g_strdup (row.t[R_KIND]);
  details->root = row.v[R_TARGET];
  details->peer_loc = row.v[R_TARGET_LOC];
  details->bytes = row.v[R_BYTES];
  details->bytes_received = row.v[R_BYTES_RECEIVED];
  details->begin = row.v[R_ISSUE];
  details->end = row.v[R_COMPLETE];
  details->complete_kind = g_steal_pointer (&row.t[R_COMPLETE_KIND]);
  if (details->window != SEXTANT_NULL)
    {
      if (!fetch (store, &window, 2, SQL_WINDOW, error, "i", details->window, 0))
        return FALSE;
      if (window.found)
        {
          details->window_name = g_steal_pointer (&window.t[0]);
          details->comm = window.v[1];
        }
    }
  if (!fetch_label (store, details->loc, &details->loc_label, error) ||
      !fetch_label (store, details->peer_loc, &details->peer_label, error) ||
      !fetch_comm (store, details->comm, &details->comm_name, error) ||
      !fetch_visit_site (store, row.v[R_VISIT], &details->file, &details->line, error))
    return FALSE;

  *out = g_steal_pointer (&details);
  return TRUE;
}

/**
 * sextant_store_read_item_details:
 * @kind: what the item is
 * @loc: visit: its location; collective: the member clicked
 *   (%SEXTANT_NULL: none); else ignored
 * @time: visit: the time clicked (ticks); else ignored
 * @id: message.id, collective.id, rma_op.id; ignored for a visit
 * @out: (out) (transfer full) (nullable): the details; %NULL when there is
 *   no such item (for a visit: nothing ran on @loc at @time)
 *
 * Reads what the details pane shows of one item of the timeline.
 *
 * Threading: the store's owning thread; its cancellable stops it.
 *
 * Returns: %TRUE on success (@out may be %NULL), else %FALSE with @error
 *   set (%G_IO_ERROR_CANCELLED or a %SEXTANT_TRACE_ERROR)
 */
gboolean
sextant_store_read_item_details (SextantStore        *store,
                                 SextantDetailsKind   kind,
                                 gint64               loc,
                                 gint64               time,
                                 gint64               id,
                                 SextantItemDetails **out,
                                 GError             **error)
{
  g_return_val_if_fail (SEXTANT_IS_STORE (store), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  *out = NULL;
  switch (kind)
    {
    case SEXTANT_DETAILS_VISIT:
      return read_visit (store, loc, time, out, error);
    case SEXTANT_DETAILS_MESSAGE:
      return read_message (store, id, out, error);
    case SEXTANT_DETAILS_COLLECTIVE:
      return read_collective (store, id, loc, out, error);
    case SEXTANT_DETAILS_RMA:
      return read_rma (store, id, out, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

/**
 * sextant_item_details_free:
 * @details: (nullable): from sextant_store_read_item_details()
 */
void
sextant_item_details_free (SextantItemDetails *details)
{
  if (details == NULL)
    return;

  g_free (details->loc_label);
  g_free (details->peer_label);
  g_free (details->name);
  g_free (details->category);
  g_free (details->comm_name);
  g_free (details->window_name);
  g_free (details->complete_kind);
  g_free (details->file);
  g_free (details->peer_file);
  g_free (details->call_path);
  g_free (details->parent_name);
  g_free (details);
}
