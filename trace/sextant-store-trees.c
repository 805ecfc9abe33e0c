/*
 * sextant-store-trees.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The typed readers behind graph/'s trees of collective operations
 * (sextant-store.h, "Collective trees"): the regions of one onecoll
 * broadcast and the RMA operations inside them, the members of one MPI
 * collective, and the listings of both kinds. The readers of phase trees
 * (visits of a region, the messages between them) are in
 * sextant-store-tree-phases.c.
 *
 * Workload: building one tree reads a few hundred rows at most, through an
 * index (visit_attribute's onecoll sequence numbers, rma_op by location and
 * time) or the column tables' zone maps (visit and collective_member by
 * id, message by send time), so that a tree takes milliseconds on a store
 * of ten million events; only the listings and the n-th visit of a region
 * scan a table (the collective members once, the visits of a location up
 * to the one wanted). All SQL here is SELECT over schema-1.sql, except
 * the partial index sextant_store_index_onecoll() adds after the load.
 */
#include "config.h"

#include <string.h>

#include "sextant-store-private.h"

/* The attribute ids onecoll's recorder writes, by name: a subquery each, so
 * that a trace without them simply matches nothing. */
#define ONECOLL_ATTR(name) "(SELECT id FROM attribute WHERE name = '" name "')"

/* Every onecoll region of broadcast (?1 = window, ?2 = sequence), with its
 * location, times, parent's region and its root and peer attributes. The
 * %s is the list of ids of the 'onecoll sequence' attribute: the partial
 * index visit_attribute_onecoll (sextant_store_index_onecoll()) serves a
 * query whose WHERE holds its own condition, as text. */
static const char onecoll_visits_sql[] =
  "SELECT v.id, v.loc, coalesce (r.name, '?'), v.enter, v.leave, v.parent, pr.name, "
  "       (SELECT a.value FROM visit_attribute AS a "
  "        WHERE a.visit = v.id AND a.attribute IN " ONECOLL_ATTR ("onecoll root") "), "
  "       (SELECT a.value FROM visit_attribute AS a "
  "        WHERE a.visit = v.id AND a.attribute IN " ONECOLL_ATTR ("onecoll peer") ") "
  "FROM visit_attribute AS s "
  "JOIN visit_attribute AS w ON w.visit = s.visit "
  "  AND w.attribute IN " ONECOLL_ATTR ("onecoll window") " AND w.value = ?1 "
  "JOIN visit AS v ON v.id = s.visit "
  "LEFT JOIN region AS r ON r.id = v.region "
  "LEFT JOIN visit AS pv ON pv.id = v.parent "
  "LEFT JOIN region AS pr ON pr.id = pv.region "
  "WHERE s.attribute IN (%s) AND s.value = ?2 "
  "ORDER BY v.enter, v.id";

/* The index of the broadcasts' regions by sequence number: only the rows of
 * that attribute (%s: its ids), a quarter of visit_attribute in a onecoll
 * trace, so that a tree finds its broadcast without a scan. */
static const char onecoll_index_sql[] =
  "CREATE INDEX visit_attribute_onecoll ON visit_attribute (value) WHERE attribute IN (%s)";

static const char onecoll_sequence_ids_sql[] =
  "SELECT id FROM attribute WHERE name = 'onecoll sequence' ORDER BY id";

/* The window and sequence attributes of one visit (?1): primary key lookups. */
static const char onecoll_ids_sql[] =
  "SELECT (SELECT value FROM visit_attribute WHERE visit = ?1 "
  "        AND attribute IN " ONECOLL_ATTR ("onecoll window") "), "
  "       (SELECT value FROM visit_attribute WHERE visit = ?1 "
  "        AND attribute IN " ONECOLL_ATTR ("onecoll sequence") ")";

/* Every broadcast: its regions grouped by window and sequence. The root's
 * location is that of the put loop inside its onecoll_bcast; the bytes are
 * those of the puts inside the put loops (rma_op by location and time). */
static const char onecoll_bcasts_sql[] =
  "WITH tagged AS MATERIALIZED ("
  "  SELECT w.visit AS visit, w.value AS win, s.value AS seq "
  "  FROM visit_attribute AS w "
  "  JOIN visit_attribute AS s ON s.visit = w.visit "
  "    AND s.attribute IN " ONECOLL_ATTR ("onecoll sequence") " "
  "  WHERE w.attribute IN " ONECOLL_ATTR ("onecoll window") " ORDER BY w.visit) "
  "SELECT t.win, t.seq, "
  "       max (CASE WHEN r.name = 'onecoll_bcast' THEN "
  "         (SELECT a.value FROM visit_attribute AS a WHERE a.visit = t.visit "
  "          AND a.attribute IN " ONECOLL_ATTR ("onecoll root") ") END), "
  "       max (CASE WHEN r.name = 'onecoll_put_loop' AND pr.name = 'onecoll_bcast' THEN v.loc END), "
  "       count (DISTINCT CASE WHEN r.name = 'onecoll_bcast' "
  "                            THEN coalesce (l.location_group, -1 - l.id) END), "
  "       min (v.enter), max (v.leave), "
  "       sum (CASE WHEN r.name = 'onecoll_put_loop' THEN "
  "         (SELECT coalesce (sum (o.bytes), 0) FROM rma_op AS o "
  "          WHERE o.loc = v.loc AND o.issue_time BETWEEN v.enter AND v.leave AND o.kind = 'PUT') "
  "         ELSE 0 END) "
  "FROM tagged AS t "
  "JOIN visit AS v ON v.id = t.visit "
  "LEFT JOIN region AS r ON r.id = v.region "
  "LEFT JOIN location AS l ON l.id = v.loc "
  "LEFT JOIN visit AS pv ON pv.id = v.parent "
  "LEFT JOIN region AS pr ON pr.id = pv.region "
  "GROUP BY t.win, t.seq "
  /* onecoll's reduce and allreduce tag their regions too: not broadcasts */
  "HAVING count (CASE WHEN r.name = 'onecoll_bcast' THEN 1 END) > 0 "
  "ORDER BY 6, 1, 2";

static const char location_processes_sql[] =
  "SELECT l.id, l.location_group, coalesce (g.name, ll.label, l.name, '?'), coalesce (ll.label, '?'), "
  "       (SELECT lr.rank FROM location_rank AS lr WHERE lr.loc = l.id) "
  "FROM location AS l LEFT JOIN location_group AS g ON g.id = l.location_group "
  "LEFT JOIN location_label AS ll ON ll.loc = l.id ORDER BY l.id";

static const char comm_ranks_sql[] =
  "SELECT rank, loc FROM comm_member WHERE comm = ?1 ORDER BY rank";

/* The operations a location (?1) issued in [?2, ?3]: index rma_op_loc. */
static const char rma_ops_sql[] =
  "SELECT o.id, o.kind, o.win, w.comm, o.target, o.target_loc, o.bytes, o.issue_time, o.complete_time "
  "FROM rma_op AS o LEFT JOIN rma_window AS w ON w.id = o.win "
  "WHERE o.loc = ?1 AND o.issue_time BETWEEN ?2 AND ?3 ORDER BY o.issue_time, o.id";

#define COLLECTIVE_COLUMNS \
  "SELECT c.id, c.comm, cm.name, c.expected, c.kind, c.root, c.root_loc, c.nonblocking, c.members, " \
  "       c.begin, c.\"end\", "

/* Every collective of more than one member (self communicators have an
 * instance per call), with the bytes its members sent: one pass over the
 * members. */
static const char collective_list_sql[] =
  COLLECTIVE_COLUMNS "b.bytes "
  "FROM collective AS c LEFT JOIN comm AS cm ON cm.id = c.comm "
  "LEFT JOIN (SELECT collective, sum (bytes_sent) AS bytes FROM collective_member GROUP BY collective) AS b "
  "  ON b.collective = c.id "
  "WHERE c.members > 1 ORDER BY c.begin, c.id";

/* One collective (?1); its members are in the few chunks of collective_member the zone maps pick */
static const char collective_get_sql[] =
  COLLECTIVE_COLUMNS "(SELECT sum (bytes_sent) FROM collective_member WHERE collective = ?1) "
  "FROM collective AS c LEFT JOIN comm AS cm ON cm.id = c.comm WHERE c.id = ?1";

static const char collective_members_sql[] =
  "SELECT m.loc, m.visit, m.end_visit, coalesce (v.enter, m.begin), "
  "       coalesce (ev.leave, v.leave, m.\"end\"), m.begin, m.\"end\", m.bytes_sent, m.bytes_received "
  "FROM collective_member AS m LEFT JOIN visit AS v ON v.id = m.visit "
  "LEFT JOIN visit AS ev ON ev.id = m.end_visit "
  "WHERE m.collective = ?1 ORDER BY m.loc";

/* The members on location ?1 whose records overlap [?2, ?3] (the times
 * prune the chunks; the caller picks the one of its call). */
static const char collective_call_sql[] =
  "SELECT collective, visit, end_visit FROM collective_member "
  "WHERE loc = ?1 AND begin <= ?3 AND \"end\" >= ?2";

/* Locations ----------------------------------------------------------------- */

/**
 * sextant_location_process_free:
 * @location: (nullable): from sextant_store_list_location_processes()
 */
void
sextant_location_process_free (SextantLocationProcess *location)
{
  if (location == NULL)
    return;

  g_free (location->process_name);
  g_free (location->label);
  g_free (location);
}

static gboolean
location_process_row (const SextantRow  *row,
                      gpointer           user_data,
                      GError           **error)
{
  SextantLocationProcess *location = g_new0 (SextantLocationProcess, 1);

  location->loc = sextant_row_get_int (row, 0);
  location->process = sextant_row_get_int_or_null (row, 1);
  location->process_name = g_strdup (sextant_row_get_text (row, 2));
  location->label = g_strdup (sextant_row_get_text (row, 3));
  location->world_rank = sextant_row_get_int_or_null (row, 4);
  g_ptr_array_add (user_data, location);

  return TRUE;
}

/**
 * sextant_store_list_location_processes:
 *
 * Every location with its process, label and MPI_COMM_WORLD rank.
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type SextantLocationProcess): the
 *   locations in location.id order (index = location.id), or %NULL with
 *   @error set (%G_IO_ERROR_CANCELLED or a %SEXTANT_TRACE_ERROR)
 */
GPtrArray *
sextant_store_list_location_processes (SextantStore  *self,
                                       GError       **error)
{
  g_autoptr(GPtrArray) locations = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  locations = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_location_process_free);
  if (!sextant_store_foreach_sql (self, location_processes_sql, location_process_row, locations, error, ""))
    return NULL;

  return g_steal_pointer (&locations);
}

static gboolean
comm_rank_row (const SextantRow  *row,
               gpointer           user_data,
               GError           **error)
{
  GArray *ranks = user_data;
  gint64 rank = sextant_row_get_int (row, 0);
  gint64 loc = sextant_row_get_int (row, 1);
  gint64 none = SEXTANT_NULL;

  if (rank < 0 || rank > G_MAXINT32)
    return TRUE;
  while (ranks->len <= (guint)rank)
    g_array_append_val (ranks, none);
  g_array_index (ranks, gint64, rank) = loc;

  return TRUE;
}

/**
 * sextant_store_read_comm_ranks:
 * @comm: a communicator (comm.id)
 *
 * The location of every rank of @comm (comm_member).
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (element-type gint64): the location of rank i at
 *   index i (%SEXTANT_NULL for a rank without one; empty for an unknown
 *   communicator), or %NULL with @error set
 */
GArray *
sextant_store_read_comm_ranks (SextantStore  *self,
                               gint64         comm,
                               GError       **error)
{
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (!sextant_store_foreach_sql (self, comm_ranks_sql, comm_rank_row, ranks, error, "i", comm))
    return NULL;

  return g_steal_pointer (&ranks);
}

/* onecoll ------------------------------------------------------------------ */

/**
 * sextant_onecoll_visit_free:
 * @visit: (nullable): from sextant_store_list_onecoll_visits()
 */
void
sextant_onecoll_visit_free (SextantOnecollVisit *visit)
{
  if (visit == NULL)
    return;

  g_free (visit->region);
  g_free (visit->parent_region);
  g_free (visit);
}

static gboolean
onecoll_visit_row (const SextantRow  *row,
                   gpointer           user_data,
                   GError           **error)
{
  SextantOnecollVisit *visit = g_new0 (SextantOnecollVisit, 1);

  visit->visit = sextant_row_get_int (row, 0);
  visit->loc = sextant_row_get_int (row, 1);
  visit->region = g_strdup (sextant_row_get_text (row, 2));
  visit->enter = sextant_row_get_int (row, 3);
  visit->leave = sextant_row_get_int (row, 4);
  visit->parent = sextant_row_get_int_or_null (row, 5);
  visit->parent_region = sextant_row_dup_text (row, 6);
  visit->root = sextant_row_get_int_or_null (row, 7);
  visit->peer = sextant_row_get_int_or_null (row, 8);
  g_ptr_array_add (user_data, visit);

  return TRUE;
}

static gboolean
id_list_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  GString *list = user_data;

  g_string_append_printf (list, "%s%" G_GINT64_FORMAT, list->len > 0 ? ", " : "", sextant_row_get_int (row, 0));

  return TRUE;
}

/* The ids of the 'onecoll sequence' attribute, as "3" or "3, 7"; empty in a
 * trace without onecoll's regions. */
static char *
onecoll_sequence_ids (SextantStore  *self,
                      GError       **error)
{
  g_autoptr(GString) list = g_string_new (NULL);

  if (!sextant_store_foreach_sql (self, onecoll_sequence_ids_sql, id_list_row, list, error, ""))
    return NULL;

  return g_string_free (g_steal_pointer (&list), FALSE);
}

static gboolean
no_row (const SextantRow  *row,
        gpointer           user_data,
        GError           **error)
{
  return TRUE;
}

/**
 * sextant_store_index_onecoll:
 *
 * Indexes the regions of onecoll's broadcasts by sequence number, for
 * sextant_store_list_onecoll_visits(): a partial index of the rows of the
 * 'onecoll sequence' attribute, whose id the archive chose (so it is made
 * here, after the load, rather than in schema-1-index.sql). Nothing for a
 * trace without onecoll's regions. On the 9000 broadcasts of a recording at
 * p = 8 (870 000 attribute rows) it takes 0.12-0.19 s and 3.8 MB; an index
 * of all of visit_attribute took 0.6 s and 12 MB.
 *
 * Threading: the store's owning thread, during the bulk load.
 *
 * Returns: %TRUE, or %FALSE with @error set
 */
gboolean
sextant_store_index_onecoll (SextantStore  *self,
                             GError       **error)
{
  g_autofree char *ids = NULL;
  g_autofree char *sql = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);

  if (!(ids = onecoll_sequence_ids (self, error)))
    return FALSE;
  if (*ids == '\0')
    return TRUE;
  sql = g_strdup_printf (onecoll_index_sql, ids);

  return sextant_store_foreach_sql (self, sql, no_row, NULL, error, "");
}

/**
 * sextant_store_list_onecoll_visits:
 * @win: the 'onecoll window' attribute of the broadcast's regions
 * @seq: its 'onecoll sequence' attribute
 *
 * Every region onecoll recorded for one broadcast (those that carry its
 * window and sequence number: onecoll_bcast, its wait_release, put loops,
 * put requests, relays, help relays and flushes), on every location, with
 * its parent's region so that the caller can tell who ran a put request.
 *
 * Threading: the store's owning thread. Reads the broadcast's rows only
 * (the index visit_attribute_onecoll).
 *
 * Returns: (transfer full) (element-type SextantOnecollVisit): the visits by
 *   enter time (empty for an unknown broadcast), or %NULL with @error set
 */
GPtrArray *
sextant_store_list_onecoll_visits (SextantStore  *self,
                                   gint64         win,
                                   gint64         seq,
                                   GError       **error)
{
  g_autoptr(GPtrArray) visits = NULL;
  g_autofree char *ids = NULL;
  g_autofree char *sql = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  visits = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_onecoll_visit_free);
  if (!(ids = onecoll_sequence_ids (self, error)))
    return NULL;
  if (*ids == '\0')
    return g_steal_pointer (&visits);
  sql = g_strdup_printf (onecoll_visits_sql, ids);
  if (!sextant_store_foreach_sql (self, sql, onecoll_visit_row, visits, error, "ii", win, seq))
    return NULL;

  return g_steal_pointer (&visits);
}

typedef struct
{
  gint64 win;
  gint64 seq;
} OnecollIds;

static gboolean
onecoll_ids_row (const SextantRow  *row,
                 gpointer           user_data,
                 GError           **error)
{
  OnecollIds *ids = user_data;

  ids->win = sextant_row_get_int_or_null (row, 0);
  ids->seq = sextant_row_get_int_or_null (row, 1);

  return TRUE;
}

/**
 * sextant_store_get_onecoll_ids:
 * @visit: a visit
 * @win: (out): its 'onecoll window' attribute, %SEXTANT_NULL without one
 * @seq: (out): its 'onecoll sequence' attribute, %SEXTANT_NULL without one
 *
 * The broadcast a onecoll region belongs to.
 *
 * Threading: the store's owning thread.
 *
 * Returns: %TRUE (also when the visit has no such attributes), or %FALSE
 *   with @error set
 */
gboolean
sextant_store_get_onecoll_ids (SextantStore  *self,
                               gint64         visit,
                               gint64        *win,
                               gint64        *seq,
                               GError       **error)
{
  OnecollIds ids = { SEXTANT_NULL, SEXTANT_NULL };

  g_return_val_if_fail (SEXTANT_IS_STORE (self), FALSE);

  if (!sextant_store_foreach_sql (self, onecoll_ids_sql, onecoll_ids_row, &ids, error, "i", visit))
    return FALSE;
  *win = ids.win;
  *seq = ids.seq;

  return TRUE;
}

static gboolean
onecoll_bcast_row (const SextantRow  *row,
                   gpointer           user_data,
                   GError           **error)
{
  SextantOnecollBcast bcast;

  bcast.win = sextant_row_get_int (row, 0);
  bcast.seq = sextant_row_get_int (row, 1);
  bcast.root = sextant_row_get_int_or_null (row, 2);
  bcast.root_loc = sextant_row_get_int_or_null (row, 3);
  bcast.members = sextant_row_get_int (row, 4);
  bcast.begin = sextant_row_get_int (row, 5);
  bcast.end = sextant_row_get_int (row, 6);
  bcast.bytes = sextant_row_is_null (row, 7) ? 0 : sextant_row_get_int (row, 7);
  g_array_append_val (user_data, bcast);

  return TRUE;
}

/**
 * sextant_store_list_onecoll_bcasts:
 *
 * Every onecoll broadcast of the trace (each pair of window and sequence
 * attributes), by begin time.
 *
 * Threading: the store's owning thread. Reads every onecoll region once.
 *
 * Returns: (transfer full) (element-type SextantOnecollBcast): the
 *   broadcasts, or %NULL with @error set
 */
GArray *
sextant_store_list_onecoll_bcasts (SextantStore  *self,
                                   GError       **error)
{
  g_autoptr(GArray) bcasts = g_array_new (FALSE, FALSE, sizeof (SextantOnecollBcast));

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (!sextant_store_foreach_sql (self, onecoll_bcasts_sql, onecoll_bcast_row, bcasts, error, ""))
    return NULL;

  return g_steal_pointer (&bcasts);
}

gboolean
sextant_region_is_onecoll_reduce (const char *name)
{
  return name != NULL && (g_str_has_prefix (name, "onecoll_red") || g_str_has_prefix (name, "onecoll_allreduce"));
}

/* RMA ------------------------------------------------------------------------ */

static gboolean
rma_op_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  SextantRmaOp op;
  const char *kind = sextant_row_get_text (row, 1);

  op.id = sextant_row_get_int (row, 0);
  op.kind = g_strcmp0 (kind, "PUT") == 0 ? SEXTANT_RMA_PUT
            : g_strcmp0 (kind, "GET") == 0 ? SEXTANT_RMA_GET : SEXTANT_RMA_ATOMIC;
  op.win = sextant_row_get_int_or_null (row, 2);
  op.comm = sextant_row_get_int_or_null (row, 3);
  op.target = sextant_row_get_int_or_null (row, 4);
  op.target_loc = sextant_row_get_int_or_null (row, 5);
  op.bytes = sextant_row_get_int (row, 6);
  op.issue_time = sextant_row_get_int (row, 7);
  op.complete_time = sextant_row_get_int_or_null (row, 8);
  g_array_append_val (user_data, op);

  return TRUE;
}

/**
 * sextant_store_list_rma_ops:
 * @loc: the origin
 * @begin: ticks
 * @end: ticks, inclusive
 *
 * The one-sided operations @loc issued in [@begin, @end].
 *
 * Threading: the store's owning thread. Reads the rows it returns (index
 * rma_op_loc).
 *
 * Returns: (transfer full) (element-type SextantRmaOp): by issue time, or
 *   %NULL with @error set
 */
GArray *
sextant_store_list_rma_ops (SextantStore  *self,
                            gint64         loc,
                            gint64         begin,
                            gint64         end,
                            GError       **error)
{
  g_autoptr(GArray) ops = g_array_new (FALSE, FALSE, sizeof (SextantRmaOp));

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (!sextant_store_foreach_sql (self, rma_ops_sql, rma_op_row, ops, error, "iii", loc, begin, end))
    return NULL;

  return g_steal_pointer (&ops);
}

/* MPI collectives ------------------------------------------------------------ */

/**
 * sextant_collective_info_free:
 * @info: (nullable): from sextant_store_list_collective_infos() or
 *   sextant_store_get_collective()
 */
void
sextant_collective_info_free (SextantCollectiveInfo *info)
{
  if (info == NULL)
    return;

  g_free (info->comm_name);
  g_free (info->kind);
  g_free (info);
}

static gboolean
collective_info_row (const SextantRow  *row,
                     gpointer           user_data,
                     GError           **error)
{
  SextantCollectiveInfo *info = g_new0 (SextantCollectiveInfo, 1);

  info->id = sextant_row_get_int (row, 0);
  info->comm = sextant_row_get_int_or_null (row, 1);
  info->comm_name = sextant_row_dup_text (row, 2);
  info->comm_size = sextant_row_get_int (row, 3);
  info->kind = g_strdup (sextant_row_is_null (row, 4) ? "?" : sextant_row_get_text (row, 4));
  info->root = sextant_row_get_int_or_null (row, 5);
  info->root_loc = sextant_row_get_int_or_null (row, 6);
  info->nonblocking = sextant_row_get_int (row, 7) != 0;
  info->members = sextant_row_get_int (row, 8);
  info->begin = sextant_row_get_int (row, 9);
  info->end = sextant_row_get_int (row, 10);
  info->bytes = sextant_row_get_int_or_null (row, 11);
  g_ptr_array_add (user_data, info);

  return TRUE;
}

/**
 * sextant_store_list_collective_infos:
 *
 * Every MPI collective with more than one member (a self communicator's
 * calls are instances of one member each, and left out), by begin time.
 *
 * Threading: the store's owning thread. Reads the collective members once
 * (about 90 ms for the 300 000 of the 10 M-event benchmark store).
 *
 * Returns: (transfer full) (element-type SextantCollectiveInfo): the
 *   collectives, or %NULL with @error set
 */
GPtrArray *
sextant_store_list_collective_infos (SextantStore  *self,
                                     GError       **error)
{
  g_autoptr(GPtrArray) infos = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  infos = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_collective_info_free);
  if (!sextant_store_foreach_sql (self, collective_list_sql, collective_info_row, infos, error, ""))
    return NULL;

  return g_steal_pointer (&infos);
}

/**
 * sextant_store_get_collective:
 * @id: collective.id
 *
 * One MPI collective, with the bytes its members sent.
 *
 * Threading: the store's owning thread.
 *
 * Returns: (transfer full) (nullable): the collective; %NULL without an
 *   error when there is none with @id, %NULL with @error set on failure
 */
SextantCollectiveInfo *
sextant_store_get_collective (SextantStore  *self,
                              gint64         id,
                              GError       **error)
{
  g_autoptr(GPtrArray) infos = NULL;

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  infos = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_collective_info_free);
  if (!sextant_store_foreach_sql (self, collective_get_sql, collective_info_row, infos, error, "i", id))
    return NULL;
  if (infos->len == 0)
    return NULL;

  return g_ptr_array_steal_index (infos, 0);
}

static gboolean
collective_member_row (const SextantRow  *row,
                       gpointer           user_data,
                       GError           **error)
{
  SextantCollectiveMember member;

  member.loc = sextant_row_get_int (row, 0);
  member.visit = sextant_row_get_int_or_null (row, 1);
  member.end_visit = sextant_row_get_int_or_null (row, 2);
  member.enter = sextant_row_get_int (row, 3);
  member.leave = sextant_row_get_int (row, 4);
  member.begin = sextant_row_get_int (row, 5);
  member.end = sextant_row_get_int (row, 6);
  member.bytes_sent = sextant_row_get_int_or_null (row, 7);
  member.bytes_received = sextant_row_get_int_or_null (row, 8);
  g_array_append_val (user_data, member);

  return TRUE;
}

/**
 * sextant_store_list_collective_members:
 * @collective: collective.id
 *
 * The members of one MPI collective with the calls they made.
 *
 * Threading: the store's owning thread. Reads one chunk of members and the
 * chunk of each member's call.
 *
 * Returns: (transfer full) (element-type SextantCollectiveMember): by
 *   location (empty for an unknown collective), or %NULL with @error set
 */
GArray *
sextant_store_list_collective_members (SextantStore  *self,
                                       gint64         collective,
                                       GError       **error)
{
  g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveMember));

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (!sextant_store_foreach_sql (self, collective_members_sql, collective_member_row, members, error,
                                  "i", collective))
    return NULL;

  return g_steal_pointer (&members);
}

typedef struct
{
  gint64 visit;
  gint64 found;
} CallSearch;

static gboolean
collective_call_row (const SextantRow  *row,
                     gpointer           user_data,
                     GError           **error)
{
  CallSearch *search = user_data;

  if (sextant_row_get_int_or_null (row, 1) == search->visit || sextant_row_get_int_or_null (row, 2) == search->visit)
    {
      search->found = sextant_row_get_int (row, 0);
      return FALSE;                       /* found: stop */
    }

  return TRUE;
}

/**
 * sextant_store_find_collective_call:
 * @loc: a location
 * @visit: one of its MPI calls
 * @enter: the call's enter
 * @leave: the call's leave
 *
 * The MPI collective whose begin or end record lies in call @visit (the
 * collective call itself, or the Wait that completed a non-blocking one).
 *
 * Threading: the store's owning thread. Reads the members' chunks of the
 * call's time.
 *
 * Returns: the collective's id, %SEXTANT_NULL when the call belongs to
 *   none or on failure (then with @error set)
 */
gint64
sextant_store_find_collective_call (SextantStore  *self,
                                    gint64         loc,
                                    gint64         visit,
                                    gint64         enter,
                                    gint64         leave,
                                    GError       **error)
{
  CallSearch search = { visit, SEXTANT_NULL };

  g_return_val_if_fail (SEXTANT_IS_STORE (self), SEXTANT_NULL);

  if (!sextant_store_foreach_sql (self, collective_call_sql, collective_call_row, &search, error,
                                  "iii", loc, enter, leave))
    return SEXTANT_NULL;

  return search.found;
}
