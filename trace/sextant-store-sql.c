/*
 * sextant-store-sql.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store's statements: every INSERT the importer runs and every query a
 * typed reader runs by number (SextantStoreStmt), each prepared once per
 * connection on first use (sextant-store-statements.c) and kept. The other SQL of the
 * store is in the schema resources (schema-1*.sql), the readers of the
 * other sextant-store-*.c files and the pattern catalogue.
 */
#include "config.h"

#include "sextant-store-private.h"
#include "sextant-store-shard-analysis.h"

const char * const _sextant_store_stmt_sql[SEXTANT_N_STMTS] = {
  [SEXTANT_STMT_META] =
    "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
  [SEXTANT_STMT_LOG] =
    "INSERT INTO import_log (severity, kind, loc, first_time, count, message) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [SEXTANT_STMT_DEFINITION_COUNT] =
    "INSERT INTO definition_count (kind, count) VALUES (?1, ?2)",
  [SEXTANT_STMT_STRING] =
    "INSERT INTO string (id, value) VALUES (?1, ?2)",
  [SEXTANT_STMT_SYSTEM_TREE_NODE] =
    "INSERT INTO system_tree_node (id, name, class_name, parent) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_SYSTEM_TREE_NODE_PROPERTY] =
    "INSERT INTO system_tree_node_property (node, name, value) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_SYSTEM_TREE_NODE_DOMAIN] =
    "INSERT INTO system_tree_node_domain (node, domain) VALUES (?1, ?2)",
  [SEXTANT_STMT_LOCATION_GROUP] =
    "INSERT INTO location_group (id, name, type, system_tree_node, creating_group) "
    "VALUES (?1, ?2, ?3, ?4, ?5)",
  [SEXTANT_STMT_LOCATION] =
    "INSERT INTO location (id, otf2_id, name, type, location_group, defined_events) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [SEXTANT_STMT_LOCATION_PROPERTY] =
    "INSERT INTO location_property (loc, name, value) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_LOCATION_UPDATE] =
    "UPDATE location SET events = ?2, first_visit = ?3, last_visit = ?4, "
    "time_begin = ?5, time_end = ?6 WHERE id = ?1",
  [SEXTANT_STMT_PARADIGM] =
    "INSERT OR REPLACE INTO paradigm (id, name, class) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_REGION] =
    "INSERT INTO region (id, name, canonical_name, description, role, paradigm, "
    "category, flags, file, begin_line, end_line) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
  [SEXTANT_STMT_GROUP] =
    "INSERT INTO \"group\" (id, name, type, paradigm, flags, size) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [SEXTANT_STMT_GROUP_MEMBER] =
    "INSERT INTO group_member (\"group\", rank, member) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_COMM] =
    "INSERT INTO comm (id, name, \"group\", parent, is_self, size, flags) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  [SEXTANT_STMT_COMM_MEMBER] =
    "INSERT OR REPLACE INTO comm_member (comm, rank, loc) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_RMA_WINDOW] =
    "INSERT INTO rma_window (id, name, comm, flags) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_SOURCE_CODE_LOCATION] =
    "INSERT INTO source_code_location (id, file, line) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_CALLING_CONTEXT] =
    "INSERT INTO calling_context (id, region, source_code_location, parent) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_CALLPATH] =
    "INSERT INTO callpath (id, region, parent) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_CALLSITE] =
    "INSERT INTO callsite (id, file, line, entered_region, left_region) VALUES (?1, ?2, ?3, ?4, ?5)",
  [SEXTANT_STMT_METRIC_MEMBER] =
    "INSERT INTO metric_member (id, name, description, type, mode, value_type, unit, base, exponent) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
  [SEXTANT_STMT_METRIC] =
    "INSERT INTO metric (id, kind, class, recorder, n_members, occurrence, recorder_kind) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
  [SEXTANT_STMT_METRIC_CLASS_MEMBER] =
    "INSERT INTO metric_class_member (metric, position, member) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_ATTRIBUTE] =
    "INSERT INTO attribute (id, name, description, type) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_PARAMETER] =
    "INSERT INTO parameter (id, name, type) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_EVENT_COUNT] =
    "INSERT INTO event_count (loc, kind, count) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_VISIT_ATTRIBUTE] =
    "INSERT OR REPLACE INTO visit_attribute (visit, attribute, value) VALUES (?1, ?2, ?3)",
  [SEXTANT_STMT_VISIT_CHUNK] =
    "INSERT INTO visit_chunk (first_row, n, header, data) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_MESSAGE_CHUNK] =
    "INSERT INTO message_chunk (first_row, n, header, data) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_COLLECTIVE_MEMBER_CHUNK] =
    "INSERT INTO collective_member_chunk (first_row, n, header, data) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_LOD_CHUNK] =
    "INSERT INTO lod_chunk (first_row, n, header, data) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_PATTERN_INSTANCE_CHUNK] =
    "INSERT INTO pattern_instance_data_chunk (first_row, n, header, data) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_WAIT_STATE_CHUNK] =
    "INSERT INTO wait_state_chunk (first_row, n, header, data) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_CALL_PATH_PROFILE] =
    "INSERT INTO call_path_profile (loc, path, visits, inclusive, exclusive, last_visit) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [SEXTANT_STMT_CALL_PATH] =
    "INSERT INTO call_path (id, parent, region, depth, name, scl) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [SEXTANT_STMT_COLLECTIVE] =
    "INSERT INTO collective (id, comm, kind, root, root_loc, nonblocking, members, expected, "
    "begin, \"end\", first_loc, last_enter, last_loc, first_leave, enter_min, enter_min2, leave_max, "
    "leave_max2, root_enter, latest_begin, earliest_end) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)",
  [SEXTANT_STMT_RMA_OP] =
    "INSERT INTO rma_op (loc, win, kind, atomic_type, target, bytes, bytes_received, "
    "matching_id, issue_time, visit, complete_time, complete_kind, complete_visit, id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
  [SEXTANT_STMT_RMA_SYNC] =
    "INSERT INTO rma_sync (loc, time, visit, kind, win, remote, level, detail, end_time, id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
  [SEXTANT_STMT_LOCK] =
    "INSERT INTO lock (loc, family, win, target, lock_id, lock_type, request_time, "
    "acquire_time, release_time, acquire_visit, try_failed, id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
  [SEXTANT_STMT_METRIC_VALUE] =
    "INSERT INTO metric_value (loc, time, metric, position, value) VALUES (?1, ?2, ?3, ?4, ?5)",
  [SEXTANT_STMT_THREAD_EVENT] =
    "INSERT INTO thread_event (loc, time, kind, paradigm, team, value, visit, id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
  [SEXTANT_STMT_PROGRAM] =
    "INSERT OR REPLACE INTO program (loc, name, arguments, begin, \"end\", exit_status) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [SEXTANT_STMT_PARAMETER_VALUE] =
    "INSERT INTO parameter_value (loc, time, parameter, value, visit) VALUES (?1, ?2, ?3, ?4, ?5)",
  [SEXTANT_STMT_SAMPLE] =
    "INSERT INTO sample (loc, time, calling_context, unwind_distance) VALUES (?1, ?2, ?3, ?4)",
  [SEXTANT_STMT_RESOLVE_RMA_TARGETS] =
    "UPDATE rma_op SET target_loc = (SELECT cm.loc FROM rma_window AS w "
    "  JOIN comm_member AS cm ON cm.comm = w.comm AND cm.rank = rma_op.target "
    "  WHERE w.id = rma_op.win)",
  [SEXTANT_QUERY_META] =
    "SELECT key, value FROM meta ORDER BY key",
  [SEXTANT_QUERY_DEFINITION_COUNTS] =
    "SELECT kind, count FROM definition_count WHERE count > 0 ORDER BY kind",
  [SEXTANT_QUERY_EVENT_COUNTS] =
    "SELECT e.loc, e.kind, e.count FROM event_count AS e WHERE e.count > 0 ORDER BY e.loc, e.kind",
  [SEXTANT_QUERY_LOCATIONS] =
    "SELECT l.id, l.otf2_id, l.name, l.type, g.name, l.defined_events, l.events "
    "FROM location AS l LEFT JOIN location_group AS g ON g.id = l.location_group ORDER BY l.id",
  /* counted on each shard of a manifest, its own rows (@rows), and summed
   * (sextant-store-shard-reads.c): not row by row through the manifest */
  [SEXTANT_QUERY_SUMMARY_COUNTS] =
    "SELECT (SELECT count(*) FROM visit WHERE @rows(visit)), "
    "       (SELECT count(*) FROM message WHERE @rows(message) AND send_time IS NOT NULL AND recv_time IS NOT NULL), "
    "       (SELECT count(*) FROM message WHERE @rows(message) AND (send_time IS NULL OR recv_time IS NULL)), "
    "       (SELECT count(*) FROM collective WHERE @rows(collective)), "
    "       (SELECT count(*) FROM rma_op WHERE @rows(rma_op)), "
    "       (SELECT count(*) FROM lock WHERE @rows(lock)), "
    "       (SELECT count(*) FROM metric_value WHERE @rows(metric_value))",
  [SEXTANT_QUERY_IMPORT_LOG] =
    "SELECT severity, kind, loc, first_time, count, message FROM import_log ORDER BY id",
  [SEXTANT_QUERY_LOCATION_VISITS] =
    "SELECT region, enter, leave, depth FROM visit WHERE id BETWEEN ?1 AND ?2 ORDER BY id",
  [SEXTANT_QUERY_TIME_SPAN] =
    "SELECT min (time_begin), max (time_end), max (events) FROM location WHERE events > 0",
  [SEXTANT_QUERY_LOCATION_VISIT_RANGES] =
    "SELECT id, first_visit, last_visit FROM location WHERE first_visit IS NOT NULL ORDER BY id",
  /* a chunk of lod holds one level of one location in bucket order: the
   * equalities and the range pick one or two chunks */
  [SEXTANT_QUERY_LOD_BUCKETS] =
    "SELECT bucket, region, busy, t_mpi, t_rma, t_user, t_omp, t_thread, t_io, t_accel, t_other FROM lod "
    "WHERE loc = ?1 AND level = ?2 AND bucket BETWEEN ?3 AND ?4 ORDER BY bucket",
  [SEXTANT_QUERY_REGION_NAMES] =
    "SELECT id, name, category FROM region ORDER BY id",
  /* a timeline zoomed in past the pyramid: the visits open at the view's
   * start (the one entered last before it and its ancestors, from the
   * first visit entered in it) and those entered in it; ids are in enter
   * order within a location, so these stop early and read few chunks */
  [SEXTANT_QUERY_FIRST_VISIT_FROM] =
    "SELECT id FROM visit WHERE loc = ?1 AND enter >= ?2 AND id BETWEEN ?3 AND ?4 ORDER BY id LIMIT 1",
  [SEXTANT_QUERY_VISIT_BY_ID] =
    "SELECT id, enter, leave, region, parent FROM visit WHERE id = ?1",
  /* messages in flight during [?1, ?2), at most ?3: both bounds prune
   * chunks (messages are stored in the order they were matched, which
   * follows time closely) */
  [SEXTANT_QUERY_MESSAGES_IN_VIEW] =
    "SELECT send_loc, recv_loc, send_time, recv_time, id, bytes FROM message "
    "WHERE send_time < ?2 AND recv_time >= ?1 AND send_loc IS NOT NULL AND recv_loc IS NOT NULL LIMIT ?3",
  /* the timeline's one-sided communication (sextant-lod-reader-rma.c, run
   * with sextant_store_foreach_prepared()): */
  /* the operations issued in [?1 - ?3, ?2) (?3 the longest operation: one in
   * flight at ?1 was issued then) and still under way at ?1, and those never
   * completed that were issued before; at most ?4 (index rma_op_issue,
   * rma_op_complete) */
  [SEXTANT_QUERY_RMA_OPS_IN_VIEW] =
    "SELECT id, loc, target_loc, issue_time, complete_time, max (bytes, bytes_received), win, kind FROM ("
    "  SELECT * FROM rma_op WHERE issue_time >= ?1 - ?3 AND issue_time < ?2 "
    "     AND (complete_time >= ?1 OR complete_time IS NULL) "
    "  UNION ALL "
    "  SELECT * FROM rma_op WHERE complete_time IS NULL AND issue_time < ?1 - ?3) "
    "ORDER BY issue_time, id LIMIT ?4",
  /* the synchronisation records in [?1, ?2) with the call around them and,
   * for a memory sync of one target, its location (index rma_sync_time) */
  [SEXTANT_QUERY_RMA_SYNCS_IN_VIEW] =
    "SELECT s.loc, coalesce (v.enter, s.time), coalesce (v.leave, s.end_time, s.time), s.win, "
    "       CASE WHEN s.kind = 'RMA_SYNC' THEN cm.loc END, r.name, s.kind, s.detail "
    "FROM rma_sync AS s "
    "LEFT JOIN visit AS v ON v.id = s.visit LEFT JOIN region AS r ON r.id = v.region "
    "LEFT JOIN rma_window AS w ON w.id = s.win "
    "LEFT JOIN comm_member AS cm ON cm.comm = w.comm AND cm.rank = s.remote "
    "WHERE s.time >= ?1 AND s.time < ?2 ORDER BY s.time LIMIT ?3",
  /* window locks acquired (?4 = 0) or released (?4 = 1) in [?1, ?2), the
   * call that acquired them, and the target's location (indexes
   * lock_acquire, lock_release) */
  [SEXTANT_QUERY_RMA_LOCKS_IN_VIEW] =
    "SELECT l.loc, coalesce (v.enter, l.acquire_time), coalesce (v.leave, l.acquire_time), l.win, cm.loc, r.name "
    "FROM lock AS l "
    "LEFT JOIN visit AS v ON v.id = l.acquire_visit LEFT JOIN region AS r ON r.id = v.region "
    "LEFT JOIN rma_window AS w ON w.id = l.win "
    "LEFT JOIN comm_member AS cm ON cm.comm = w.comm AND cm.rank = l.target "
    "WHERE l.family = 'RMA' AND l.acquire_time >= ?1 AND l.acquire_time < ?2 AND ?4 = 0 "
    "UNION ALL "
    "SELECT l.loc, l.release_time, l.release_time, l.win, cm.loc, NULL "
    "FROM lock AS l "
    "LEFT JOIN rma_window AS w ON w.id = l.win "
    "LEFT JOIN comm_member AS cm ON cm.comm = w.comm AND cm.rank = l.target "
    "WHERE l.family = 'RMA' AND l.release_time >= ?1 AND l.release_time < ?2 AND ?4 = 1 "
    "LIMIT ?3",
  /* the calls that completed one-sided operations in [?1, ?2) (a flush has
   * no record of its own in every trace: onecoll's have none), with their
   * target when they completed operations to one (index rma_op_complete) */
  [SEXTANT_QUERY_RMA_FLUSHES_IN_VIEW] =
    "SELECT v.loc, v.enter, v.leave, o.win, o.target_loc, r.name FROM ("
    "  SELECT complete_visit AS visit, min (win) AS win, "
    "         CASE WHEN min (target_loc) = max (target_loc) THEN min (target_loc) END AS target_loc "
    "  FROM rma_op WHERE complete_time >= ?1 AND complete_time < ?2 AND complete_visit IS NOT NULL "
    "  GROUP BY complete_visit) AS o "
    "JOIN visit AS v ON v.id = o.visit JOIN region AS r ON r.id = v.region "
    "LIMIT ?3",
  [SEXTANT_QUERY_VISITS_ENTERED] =
    "SELECT id, enter, leave, region, parent FROM visit "
    "WHERE loc = ?1 AND enter >= ?2 AND enter < ?3 AND id BETWEEN ?4 AND ?5 ORDER BY id",
  /* instances are column chunks (written by the million, read by
   * summaries through pattern_aggregate, and a few at a time) */
  /* wait_state as in schema-1.sql: a store written before it had none */
  [SEXTANT_STMT_CLEAR_PATTERNS] =
    "CREATE VIRTUAL TABLE IF NOT EXISTS main.wait_state USING sextant_columns ("
    "  instance ROWID, cause TEXT direct propagated, cause_instance, root_instance, root_loc); "
    "DELETE FROM main.pattern_instance_data_chunk; DELETE FROM main.pattern_site; DELETE FROM main.pattern_note; "
    "DELETE FROM main.pattern; DELETE FROM main.pattern_aggregate; DELETE FROM main.wait_state_chunk;",
  [SEXTANT_STMT_PATTERN] =
    "INSERT OR REPLACE INTO pattern (id, number, title, parent, description, criterion, comment, origin, "
    "parameters) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
  [SEXTANT_STMT_PATTERN_SITE] =
    "INSERT INTO pattern_site (id, file, line, kind, function) VALUES (?1, ?2, ?3, ?4, ?5)",
  /* a shard's halo (sextant-store-shard-analysis.c) */
  [SEXTANT_STMT_HALO_CALL_PATH] =
    "INSERT INTO call_path (id, parent, region, depth, name, scl) VALUES (?1, NULL, ?2, ?3, ?4, NULL)",
  [SEXTANT_STMT_HALO_PROFILE] =
    "INSERT OR REPLACE INTO call_path_profile (loc, path, visits, inclusive, exclusive, last_visit) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [SEXTANT_STMT_HALO_MESSAGE_PAIR] =
    "INSERT INTO " SEXTANT_HALO_MESSAGE_PAIRS " (send_loc, recv_loc) VALUES (?1, ?2)",
  [SEXTANT_STMT_PATTERN_NOTE] =
    "INSERT INTO pattern_note (instance, comment) VALUES (?1, ?2)",
  [SEXTANT_STMT_PATTERN_AGGREGATE] =
    "INSERT INTO pattern_aggregate (pattern, loc, callpath, file, line, site_kind, function, severity, instances) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
  [SEXTANT_QUERY_SOURCE_CODE_LOCATION] =
    "SELECT file, line, NULL FROM source_code_location WHERE id = ?1",
  [SEXTANT_QUERY_CONTEXT_SOURCE] =
    "SELECT s.file, s.line, NULL FROM calling_context AS c "
    "JOIN source_code_location AS s ON s.id = c.source_code_location WHERE c.id = ?1",
  [SEXTANT_QUERY_CALL_PATH] =
    "SELECT parent, region FROM call_path WHERE id = ?1",
  [SEXTANT_QUERY_REGION_SOURCE] =
    "SELECT file, begin_line, coalesce (name, '?') FROM region WHERE id = ?1 AND file IS NOT NULL",
  [SEXTANT_QUERY_CALL_PATH_NAME] =
    "SELECT name FROM call_path WHERE id = ?1",
  [SEXTANT_QUERY_TOTAL_TIME] =
    "SELECT coalesce (sum (time_end - time_begin), 0), (SELECT value FROM meta WHERE key = 'resolution') "
    "FROM location WHERE events > 0",
  /* the summaries of one pattern (?1) read its rows of pattern_aggregate
   * (index pattern_aggregate_pattern) */
  [SEXTANT_QUERY_PATTERN_TOTALS] =
    "SELECT p.id, p.title, p.parent, coalesce (sum (a.instances), 0), coalesce (sum (a.severity), 0), "
    "       p.description, p.origin "
    "FROM pattern AS p LEFT JOIN pattern_aggregate AS a ON a.pattern = p.id "
    "GROUP BY p.id ORDER BY 5 DESC, p.id",
  [SEXTANT_QUERY_PATTERN_BY_LOCATION] =
    "SELECT l.otf2_id, sum (a.severity), sum (a.instances) FROM pattern_aggregate AS a "
    "JOIN location AS l ON l.id = a.loc WHERE a.pattern = ?1 GROUP BY a.loc ORDER BY l.otf2_id",
  [SEXTANT_QUERY_PATTERN_BY_CALLPATH] =
    "SELECT coalesce (a.callpath, ''), l.otf2_id, sum (a.severity) FROM pattern_aggregate AS a "
    "JOIN location AS l ON l.id = a.loc WHERE a.pattern = ?1 GROUP BY a.callpath, a.loc "
    "ORDER BY 1, 2",
  [SEXTANT_QUERY_PATTERN_TOP_SITES] =
    "SELECT file, line, sum (severity), sum (instances), min (callpath), site_kind, function "
    "FROM pattern_aggregate WHERE pattern = ?1 GROUP BY file, line, site_kind, function "
    "ORDER BY 3 DESC, 1, 2, 6, 7 LIMIT 10",
  [SEXTANT_QUERY_REGION_PROFILE] =
    "SELECT r.name, r.category, sum (f.visits), sum (f.inclusive), sum (f.exclusive), r.file, r.begin_line "
    "FROM call_path_profile AS f JOIN call_path AS p ON p.id = f.path JOIN region AS r ON r.id = p.region "
    "GROUP BY p.region ORDER BY 5 DESC, 1 LIMIT ?1",
  /* these two count on each shard of a manifest and sum the shards' counts
   * (@each, @rows: sextant-store-shard-reads.h) */
  [SEXTANT_QUERY_COMM_MATRIX] =
    "SELECT s.otf2_id, r.otf2_id, sum (m.n), sum (m.bytes) FROM @each("
    "  SELECT send_loc, recv_loc, count (*) AS n, coalesce (sum (bytes), 0) AS bytes FROM message "
    "  WHERE @rows(message) AND send_time IS NOT NULL AND recv_time IS NOT NULL GROUP BY send_loc, recv_loc) AS m "
    "JOIN location AS s ON s.id = m.send_loc JOIN location AS r ON r.id = m.recv_loc "
    "GROUP BY m.send_loc, m.recv_loc ORDER BY 1, 2",
  [SEXTANT_QUERY_MESSAGE_SIZES] =
    "SELECT size, sum (n) FROM @each("
    "  SELECT coalesce (bytes, recv_bytes) AS size, count (*) AS n FROM message WHERE @rows(message) GROUP BY 1) "
    "GROUP BY 1 ORDER BY 1",
  /* the worst of each shard's worst (@each) */
  [SEXTANT_QUERY_TOP_INSTANCES] =
    "SELECT i.pattern, p.title, i.severity, l.otf2_id, i.visit, i.callpath, i.file, i.line, "
    "       i.begin, i.\"end\", pl.otf2_id, i.comment, i.loc, i.peer_loc, i.site_kind, i.function, "
    "       i.id, i.cause, rl.otf2_id, i.root_loc, i.cause_instance "
    "FROM (SELECT id FROM @each(SELECT id, severity FROM pattern_instance_data WHERE @rows(pattern_instance_data) "
    "      ORDER BY severity DESC, id LIMIT ?1) ORDER BY severity DESC, id LIMIT ?1) AS top "
    "JOIN pattern_instance AS i ON i.id = top.id JOIN pattern AS p ON p.id = i.pattern "
    "JOIN location AS l ON l.id = i.loc LEFT JOIN location AS pl ON pl.id = i.peer_loc "
    "LEFT JOIN location AS rl ON rl.id = i.root_loc "
    "ORDER BY i.severity DESC, i.id",
  /* the worst instances of one pattern (?1) for the pattern browser: its
   * instance ids are (number << 32) + n, a range of the column table */
  [SEXTANT_QUERY_PATTERN_INSTANCES] =
    "SELECT i.id, i.severity, i.loc, i.peer_loc, i.begin, i.\"end\", i.file, i.line, i.comment, i.callpath "
    "FROM (SELECT d.id FROM pattern_instance_data AS d "
    "      WHERE d.id BETWEEN (SELECT number FROM pattern WHERE id = ?1) << 32 "
    "                     AND ((SELECT number FROM pattern WHERE id = ?1) << 32) + 4294967295 "
    "      ORDER BY d.severity DESC, d.id LIMIT ?2) AS top "
    "JOIN pattern_instance AS i ON i.id = top.id ORDER BY i.severity DESC, i.id",
  [SEXTANT_QUERY_LOCATION_LABELS] =
    "SELECT loc, label FROM location_label",
  [SEXTANT_QUERY_VISITS_IN_WINDOW] =
    "SELECT v.enter, v.leave, v.depth, r.name, r.category FROM visit AS v "
    "JOIN region AS r ON r.id = v.region "
    "WHERE v.loc = ?1 AND v.enter <= ?3 AND v.leave >= ?2 AND v.id BETWEEN "
    "  (SELECT first_visit FROM location WHERE id = ?1) AND (SELECT last_visit FROM location WHERE id = ?1) "
    "ORDER BY v.depth, v.enter LIMIT 400",
  [SEXTANT_QUERY_LOCATION_INFOS] =
    "SELECT l.id, l.otf2_id, coalesce (l.name, '?'), g.name, coalesce (ll.label, '?'), coalesce (l.events, 0) "
    "FROM location AS l LEFT JOIN location_group AS g ON g.id = l.location_group "
    "LEFT JOIN location_label AS ll ON ll.loc = l.id ORDER BY l.id",
  [SEXTANT_QUERY_RUN_SPAN] =
    "SELECT (SELECT CAST (value AS INTEGER) FROM meta WHERE key = 'time_begin'), "
    "       (SELECT CAST (value AS INTEGER) FROM meta WHERE key = 'time_end'), "
    "       (SELECT CAST (value AS INTEGER) FROM meta WHERE key = 'resolution')",
  /* worst first, the patterns without instances last */
  [SEXTANT_QUERY_PATTERN_TOTAL_LIST] =
    "SELECT p.id, coalesce (nullif (p.title, ''), p.id), p.parent, p.description, "
    "       coalesce (sum (a.instances), 0) AS n, coalesce (sum (a.severity), 0) AS lost "
    "FROM pattern AS p LEFT JOIN pattern_aggregate AS a ON a.pattern = p.id "
    "GROUP BY p.id ORDER BY n = 0, lost DESC, p.id",
  /* as SEXTANT_QUERY_PATTERN_INSTANCES, with the locations' labels */
  [SEXTANT_QUERY_PATTERN_INSTANCE_LIST] =
    "SELECT i.id, i.pattern, i.severity, i.loc, i.peer_loc, i.begin, i.\"end\", coalesce (ll.label, '?'), "
    "       pl.label, i.call, i.callpath, i.file, i.line, i.site_kind, i.function, coalesce (i.comment, ''), "
    "       i.cause, i.cause_instance, i.root_loc, i.root_label "
    "FROM (SELECT d.id FROM pattern_instance_data AS d "
    "      WHERE d.id BETWEEN (SELECT number FROM pattern WHERE id = ?1) << 32 "
    "                     AND ((SELECT number FROM pattern WHERE id = ?1) << 32) + 4294967295 "
    "      ORDER BY d.severity DESC, d.id LIMIT ?2) AS top "
    "JOIN pattern_instance AS i ON i.id = top.id "
    "LEFT JOIN location_label AS ll ON ll.loc = i.loc LEFT JOIN location_label AS pl ON pl.loc = i.peer_loc "
    "ORDER BY i.severity DESC, i.id",
  /* the same columns for one instance */
  [SEXTANT_QUERY_PATTERN_INSTANCE_BY_ID] =
    "SELECT i.id, i.pattern, i.severity, i.loc, i.peer_loc, i.begin, i.\"end\", coalesce (ll.label, '?'), "
    "       pl.label, i.call, i.callpath, i.file, i.line, i.site_kind, i.function, coalesce (i.comment, ''), "
    "       i.cause, i.cause_instance, i.root_loc, i.root_label "
    "FROM pattern_instance AS i "
    "LEFT JOIN location_label AS ll ON ll.loc = i.loc LEFT JOIN location_label AS pl ON pl.loc = i.peer_loc "
    "WHERE i.id = ?1",
};
