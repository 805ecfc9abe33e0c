/*
 * sextant-store-tree-phases.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The typed readers behind graph/'s trees of phases (sextant-store.h,
 * "Collective trees"): the visits open at a time, where a region runs and
 * its n-th visit on each location, and the messages sent in a span of
 * time, which a phase tree draws between the visits of its region.
 *
 * Workload: a tree reads a few hundred rows at most, through the column
 * tables' zone maps (visit by id and location, message by send time) and
 * the call-path profile; only the n-th visit of a region scans the visits
 * of a location up to the one wanted. All SQL here is SELECT over
 * schema-1.sql. The readers of onecoll broadcasts and MPI collectives are
 * in sextant-store-trees.c.
 */
#include "config.h"

#include "sextant-store-private.h"
#include "sextant-store-shard-reads.h"

/* The visits of location ?1 open at time ?2, outermost first: chunks of
 * that location whose enters and leaves can bracket ?2. */
static const char visits_at_sql[] =
  "SELECT v.id, v.loc, v.region, v.depth, v.enter, v.leave FROM visit AS v "
  "WHERE v.loc = ?1 AND v.enter <= ?2 AND v.leave >= ?2 "
  "  AND v.id BETWEEN (SELECT first_visit FROM location WHERE id = ?1) "
  "              AND (SELECT last_visit FROM location WHERE id = ?1) "
  "ORDER BY v.depth, v.id";

static const char region_presence_sql[] =
  "SELECT p.region, coalesce (r.name, '?'), coalesce (r.paradigm, '?'), f.loc, sum (f.visits), min (p.depth) "
  "FROM call_path_profile AS f JOIN call_path AS p ON p.id = f.path "
  "LEFT JOIN region AS r ON r.id = p.region "
  "GROUP BY p.region, f.loc ORDER BY p.region, f.loc";

/* Where region ?1 runs: per location, how often, its last visit and the
 * location's first visit id */
static const char region_locations_sql[] =
  "SELECT f.loc, sum (f.visits), max (f.last_visit), l.first_visit "
  "FROM call_path_profile AS f JOIN call_path AS p ON p.id = f.path "
  "JOIN location AS l ON l.id = f.loc "
  "WHERE p.region = ?1 GROUP BY f.loc ORDER BY f.loc";

/* The visits of region ?2 on location ?3, in enter order, ids ?3 to ?4 */
static const char region_visits_on_sql[] =
  "SELECT id, loc, region, depth, enter, leave FROM visit "
  "WHERE loc = ?1 AND region = ?2 AND id BETWEEN ?3 AND ?4";

static const char visit_span_sql[] =
  "SELECT id, loc, region, depth, enter, leave FROM visit WHERE id = ?1";

static const char count_visits_before_sql[] =
  "SELECT count (*) FROM visit "
  "WHERE loc = ?1 AND region = ?2 "
  "  AND id BETWEEN (SELECT first_visit FROM location WHERE id = ?1) AND ?3";

/* Matched messages sent in [?1, ?2] (send_time prunes the chunks: messages
 * are stored in the order they were matched, which follows time); on a
 * manifest read on each shard, those of its senders (with their send
 * visits), their ids as the manifest numbers them
 * (sextant-store-shard-reads.h) */
#define MESSAGE_WHERE \
  "WHERE @own(m.send_loc) AND m.send_time BETWEEN ?1 AND ?2 AND m.recv_time IS NOT NULL " \
  "  AND m.send_loc IS NOT NULL AND m.recv_loc IS NOT NULL"

static const char messages_sql[] =
  "SELECT @shard_id(m.id), m.send_loc, m.recv_loc, coalesce (m.bytes, m.recv_bytes, 0), m.send_time, NULL, "
  "       m.recv_time "
  "FROM message AS m " MESSAGE_WHERE;

static const char messages_enter_sql[] =
  "SELECT @shard_id(m.id), m.send_loc, m.recv_loc, coalesce (m.bytes, m.recv_bytes, 0), m.send_time, sv.enter, "
  "       m.recv_time "
  "FROM message AS m LEFT JOIN visit AS sv ON sv.id = m.send_visit " MESSAGE_WHERE;

/* Visits --------------------------------------------------------------------- */

static gboolean
visit_span_row (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  SextantVisitSpan span;

  span.id = sextant_row_get_int (row, 0);
  span.loc = sextant_row_get_int (row, 1);
  span.region = sextant_row_get_int (row, 2);
  span.depth = sextant_row_get_int (row, 3);
  span.enter = sextant_row_get_int (row, 4);
  span.leave = sextant_row_get_int (row, 5);
  g_array_append_val (user_data, span);

  return TRUE;
}

/**
 * sextant_store_list_visits_at:
 * @loc: a location
 * @time: ticks
 *
 * The visits of @loc open at @time (enter <= @time <= leave): its call
 * stack then.
 *
 * Threading: the store's owning thread. Reads the chunks of @loc whose
 * visits can span @time.
 *
 * Returns: (transfer full) (element-type SextantVisitSpan): outermost
 *   first, or %NULL with @error set
 */
GArray *
sextant_store_list_visits_at (SextantStore  *self,
                              gint64         loc,
                              gint64         time,
                              GError       **error)
{
  g_autoptr(GArray) visits = g_array_new (FALSE, FALSE, sizeof (SextantVisitSpan));

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (!sextant_store_foreach_sql (self, visits_at_sql, visit_span_row, visits, error, "ii", loc, time))
    return NULL;

  return g_steal_pointer (&visits);
}

/**
 * sextant_region_presence_free:
 * @presence: (nullable): from sextant_store_list_region_presence()
 */
void
sextant_region_presence_free (SextantRegionPresence *presence)
{
  if (presence == NULL)
    return;

  g_free (presence->name);
  g_free (presence->paradigm);
  g_free (presence);
}

static gboolean
region_presence_row (const SextantRow  *row,
                     gpointer           user_data,
                     GError           **error)
{
  SextantRegionPresence *presence = g_new0 (SextantRegionPresence, 1);

  presence->region = sextant_row_get_int (row, 0);
  presence->name = g_strdup (sextant_row_get_text (row, 1));
  presence->paradigm = g_strdup (sextant_row_get_text (row, 2));
  presence->loc = sextant_row_get_int (row, 3);
  presence->visits = sextant_row_get_int (row, 4);
  presence->min_depth = sextant_row_get_int (row, 5);
  g_ptr_array_add (user_data, presence);

  return TRUE;
}

/**
 * sextant_store_list_region_presence:
 *
 * For every region and location that ran it, how often and how deep (from
 * the call-path profile, a few rows per call path and location).
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type SextantRegionPresence): by region,
 *   then location; or %NULL with @error set
 */
GPtrArray *
sextant_store_list_region_presence (SextantStore  *self,
                                    GError       **error)
{
  g_autoptr(GPtrArray) rows = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  rows = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_region_presence_free);
  if (!sextant_store_foreach_sql (self, region_presence_sql, region_presence_row, rows, error, ""))
    return NULL;

  return g_steal_pointer (&rows);
}

/**
 * sextant_store_list_region_visits:
 * @regions: (array length=n_regions): region ids
 * @n_regions: how many
 *
 * Every visit of the given regions, on every location.
 *
 * Threading: the store's owning thread. Scans the visits once (about
 * 0.2 s for ten million): for regions found to be worth it.
 *
 * Returns: (transfer full) (element-type SextantVisitSpan): by visit id
 *   (location, then enter order), or %NULL with @error set
 */
GArray *
sextant_store_list_region_visits (SextantStore   *self,
                                  const gint64   *regions,
                                  guint           n_regions,
                                  GError        **error)
{
  g_autoptr(GArray) visits = g_array_new (FALSE, FALSE, sizeof (SextantVisitSpan));
  g_autoptr(GString) sql = g_string_new ("SELECT id, loc, region, depth, enter, leave FROM visit WHERE region IN (");

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (n_regions == 0)
    return g_steal_pointer (&visits);

  /* integers only: no quoting to get wrong */
  for (guint i = 0; i < n_regions; i++)
    g_string_append_printf (sql, "%s%" G_GINT64_FORMAT, i > 0 ? ", " : "", regions[i]);
  g_string_append (sql, ") ORDER BY id");

  if (!sextant_store_foreach_sql (self, sql->str, visit_span_row, visits, error, ""))
    return NULL;

  return g_steal_pointer (&visits);
}

typedef struct
{
  gint64 loc;
  gint64 visits;
  gint64 last_visit;
  gint64 first_visit;
} RegionLocation;

static gboolean
region_location_row (const SextantRow  *row,
                     gpointer           user_data,
                     GError           **error)
{
  RegionLocation where;

  where.loc = sextant_row_get_int (row, 0);
  where.visits = sextant_row_get_int (row, 1);
  where.last_visit = sextant_row_get_int (row, 2);
  where.first_visit = sextant_row_get_int_or_null (row, 3);
  g_array_append_val (user_data, where);

  return TRUE;
}

typedef struct
{
  GArray *visits;
  gint64  wanted;
  gint64  seen;
} NthSearch;

static gboolean
nth_visit_row (const SextantRow  *row,
               gpointer           user_data,
               GError           **error)
{
  NthSearch *search = user_data;

  if (++search->seen < search->wanted)
    return TRUE;
  visit_span_row (row, search->visits, error);

  return FALSE;                           /* found: stop */
}

/**
 * sextant_store_list_nth_visits:
 * @region: region.id
 * @n: which visit, from 1
 *
 * The @n-th visit (in enter order) of @region on every location that
 * entered it at least @n times.
 *
 * Threading: the store's owning thread. The call-path profile says which
 * locations ran @region and how often; on each, the last visit is read
 * directly, another one by scanning the location's visits up to it.
 *
 * Returns: (transfer full) (element-type SextantVisitSpan): by location,
 *   or %NULL with @error set
 */
GArray *
sextant_store_list_nth_visits (SextantStore  *self,
                               gint64         region,
                               gint64         n,
                               GError       **error)
{
  g_autoptr(GArray) where = g_array_new (FALSE, FALSE, sizeof (RegionLocation));
  g_autoptr(GArray) visits = g_array_new (FALSE, FALSE, sizeof (SextantVisitSpan));

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (n < 1)
    return g_steal_pointer (&visits);
  if (!sextant_store_foreach_sql (self, region_locations_sql, region_location_row, where, error, "i", region))
    return NULL;

  for (guint i = 0; i < where->len; i++)
    {
      RegionLocation *at = &g_array_index (where, RegionLocation, i);
      NthSearch search = { visits, n, 0 };
      gboolean ok;

      if (at->visits < n || at->first_visit == SEXTANT_NULL)
        continue;
      if (at->visits == n)
        ok = sextant_store_foreach_sql (self, visit_span_sql, visit_span_row, visits, error, "i",
                                        at->last_visit);
      else
        ok = sextant_store_foreach_sql (self, region_visits_on_sql, nth_visit_row, &search, error, "iiii",
                                        at->loc, region, at->first_visit, at->last_visit);
      if (!ok)
        return NULL;
    }

  return g_steal_pointer (&visits);
}

static gboolean
count_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  *(gint64 *)user_data = sextant_row_get_int (row, 0);

  return TRUE;
}

/**
 * sextant_store_count_visits_before:
 * @loc: a location
 * @region: region.id
 * @visit: a visit of @region on @loc
 *
 * Which visit of @region on @loc @visit is: the count of its visits up to
 * and including @visit.
 *
 * Threading: the store's owning thread. Scans the location's visits up to
 * @visit.
 *
 * Returns: n >= 1, or -1 with @error set
 */
gint64
sextant_store_count_visits_before (SextantStore  *self,
                                   gint64         loc,
                                   gint64         region,
                                   gint64         visit,
                                   GError       **error)
{
  gint64 n = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), -1);

  if (!sextant_store_foreach_sql (self, count_visits_before_sql, count_row, &n, error, "iii", loc, region, visit))
    return -1;

  return n;
}

/* Messages ------------------------------------------------------------------- */

typedef struct
{
  SextantMessageFunc func;
  gpointer           user_data;
  gboolean           stopped;   /* by @func: the next shards' rows are not read */
} MessageScan;

static gboolean
message_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  MessageScan *scan = user_data;
  SextantMessageInfo message;

  if (scan->stopped)
    return FALSE;
  message.id = sextant_row_get_int (row, 0);
  message.send_loc = sextant_row_get_int (row, 1);
  message.recv_loc = sextant_row_get_int (row, 2);
  message.bytes = sextant_row_get_int (row, 3);
  message.send_time = sextant_row_get_int (row, 4);
  message.send_enter = sextant_row_get_int_or_null (row, 5);
  message.recv_time = sextant_row_get_int (row, 6);

  scan->stopped = !scan->func (&message, scan->user_data);

  return !scan->stopped;
}

/**
 * sextant_store_foreach_message:
 * @begin: ticks, or %SEXTANT_NULL for the start of the run
 * @end: ticks (inclusive), or %SEXTANT_NULL for its end
 * @with_send_enter: also read the enter of each send call (a visit lookup
 *   per message: for a few messages)
 * @func: called for each matched message sent in [@begin, @end]; returning
 *   %FALSE stops the scan
 *
 * Threading: the store's owning thread. Reads the message chunks of the
 * time range (all of them for the whole run: 0.2 s for 850 000 messages).
 *
 * Returns: %TRUE, or %FALSE with @error set
 */
gboolean
sextant_store_foreach_message (SextantStore        *self,
                               gint64               begin,
                               gint64               end,
                               gboolean             with_send_enter,
                               SextantMessageFunc   func,
                               gpointer             user_data,
                               GError             **error)
{
  MessageScan scan = { func, user_data, FALSE };

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  return _sextant_store_foreach_shards (self, with_send_enter ? messages_enter_sql : messages_sql,
                                        message_row, &scan, error, "ii",
                                    begin == SEXTANT_NULL ? G_MININT64 + 1 : begin,
                                    end == SEXTANT_NULL ? G_MAXINT64 : end);
}
