-- schema-1.sql: the Sextant trace store, schema version 1.
--
-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- One SQLite file per OTF2 archive. docs/schema.md explains every table and
-- column; keep the two in step. Conventions:
--   * times are INTEGER timer ticks relative to the archive's global offset
--     (seconds = ticks / meta.resolution);
--   * `loc` columns hold the dense location index location.id (0..n-1, in
--     order of OTF2 location id), not the 64-bit OTF2 id, to keep rows small;
--   * other definition ids are the archive's own global definition ids;
--   * enumerations are stored as the upper-case names otf2-print uses.
-- Indexes are created by schema-1-index.sql after the bulk load.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value
) WITHOUT ROWID;

CREATE TABLE import_log (
  id         INTEGER PRIMARY KEY,
  severity   TEXT NOT NULL,     -- 'warning' (repaired or skipped) or 'info'
  kind       TEXT NOT NULL,     -- stable machine-readable reason
  loc        INTEGER,           -- location.id, NULL when global
  first_time INTEGER,           -- first occurrence, ticks
  count      INTEGER NOT NULL,  -- occurrences folded into this row
  message    TEXT NOT NULL
);

-- Definitions ---------------------------------------------------------------

CREATE TABLE definition_count (
  kind  TEXT PRIMARY KEY,       -- as printed by otf2-print -G
  count INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE string (
  id    INTEGER PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE system_tree_node (
  id         INTEGER PRIMARY KEY,
  name       TEXT,
  class_name TEXT,
  parent     INTEGER            -- system_tree_node.id, NULL at the root
);

CREATE TABLE system_tree_node_property (
  node  INTEGER NOT NULL,
  name  TEXT NOT NULL,
  value TEXT
);

CREATE TABLE system_tree_node_domain (
  node   INTEGER NOT NULL,
  domain TEXT NOT NULL
);

CREATE TABLE location_group (
  id               INTEGER PRIMARY KEY,
  name             TEXT,
  type             TEXT NOT NULL,  -- PROCESS, ACCELERATOR, UNKNOWN
  system_tree_node INTEGER,
  creating_group   INTEGER
);

CREATE TABLE location (
  id            INTEGER PRIMARY KEY,  -- dense index
  otf2_id       INTEGER NOT NULL UNIQUE,
  name          TEXT,
  type          TEXT NOT NULL,        -- CPU_THREAD, ACCELERATOR_STREAM, METRIC
  location_group INTEGER,             -- location_group.id, NULL if undefined
  defined_events INTEGER NOT NULL,    -- # events in the LOCATION definition
  events        INTEGER NOT NULL DEFAULT 0,  -- event records actually read
  first_visit   INTEGER,              -- visits of a location are contiguous ids
  last_visit    INTEGER,
  time_begin    INTEGER,              -- first and last event timestamp, ticks
  time_end      INTEGER
);

CREATE TABLE location_property (
  loc   INTEGER NOT NULL,
  name  TEXT NOT NULL,
  value TEXT
);

CREATE TABLE paradigm (
  id    INTEGER PRIMARY KEY,        -- OTF2_Paradigm value
  name  TEXT,
  class TEXT
);

CREATE TABLE region (
  id             INTEGER PRIMARY KEY,
  name           TEXT,
  canonical_name TEXT,
  description    TEXT,
  role           TEXT NOT NULL,     -- FUNCTION, POINT2POINT, COLLECTIVE, BARRIER, ...
  paradigm       TEXT NOT NULL,     -- MPI, USER, COMPILER, OPENMP, ...
  category       TEXT NOT NULL,     -- what the timeline colours by: MPI, RMA, USER, OMP, THREAD, IO, ACCEL, OTHER
  flags          INTEGER NOT NULL,
  file           TEXT,
  begin_line     INTEGER,
  end_line       INTEGER
);

CREATE TABLE "group" (
  id       INTEGER PRIMARY KEY,
  name     TEXT,
  type     TEXT NOT NULL,           -- LOCATIONS, REGIONS, METRIC, COMM_LOCATIONS, COMM_GROUP, COMM_SELF, UNKNOWN
  paradigm TEXT,
  flags    INTEGER NOT NULL,
  size     INTEGER NOT NULL
);

CREATE TABLE group_member (
  "group" INTEGER NOT NULL,
  rank    INTEGER NOT NULL,         -- position in the group
  member  INTEGER NOT NULL,         -- as defined: location id, rank, region id ...
  PRIMARY KEY ("group", rank)
) WITHOUT ROWID;

CREATE TABLE comm (
  id      INTEGER PRIMARY KEY,
  name    TEXT,
  "group" INTEGER,
  parent  INTEGER,                  -- comm.id, NULL for a root communicator
  is_self INTEGER NOT NULL,         -- 1 if its group is of type COMM_SELF
  size    INTEGER NOT NULL,         -- members (1 for self communicators)
  flags   INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE comm_member (
  comm INTEGER NOT NULL,
  rank INTEGER NOT NULL,            -- rank in the communicator
  loc  INTEGER NOT NULL,            -- location.id of that rank's MPI location
  PRIMARY KEY (comm, rank)
) WITHOUT ROWID;

CREATE TABLE rma_window (
  id    INTEGER PRIMARY KEY,
  name  TEXT,
  comm  INTEGER,
  flags INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE source_code_location (
  id   INTEGER PRIMARY KEY,
  file TEXT,
  line INTEGER
);

CREATE TABLE calling_context (
  id                   INTEGER PRIMARY KEY,
  region               INTEGER,
  source_code_location INTEGER,
  parent               INTEGER
);

CREATE TABLE callpath (
  id     INTEGER PRIMARY KEY,
  region INTEGER,
  parent INTEGER
);

CREATE TABLE callsite (
  id            INTEGER PRIMARY KEY,
  file          TEXT,
  line          INTEGER,
  entered_region INTEGER,
  left_region   INTEGER
);

CREATE TABLE metric_member (
  id          INTEGER PRIMARY KEY,
  name        TEXT,
  description TEXT,
  type        TEXT,
  mode        TEXT,
  value_type  TEXT,
  unit        TEXT,
  base        TEXT,
  exponent    INTEGER
);

CREATE TABLE metric (
  id            INTEGER PRIMARY KEY,  -- METRIC_CLASS or METRIC_INSTANCE id
  kind          TEXT NOT NULL,        -- CLASS or INSTANCE
  class         INTEGER,              -- for an instance: its class
  recorder      INTEGER,              -- for an instance: the recording location's OTF2 id
  n_members     INTEGER NOT NULL,
  occurrence    TEXT,
  recorder_kind TEXT
);

CREATE TABLE metric_class_member (
  metric   INTEGER NOT NULL,
  position INTEGER NOT NULL,
  member   INTEGER NOT NULL,
  PRIMARY KEY (metric, position)
) WITHOUT ROWID;

CREATE TABLE attribute (
  id          INTEGER PRIMARY KEY,
  name        TEXT,
  description TEXT,
  type        TEXT
);

CREATE TABLE parameter (
  id   INTEGER PRIMARY KEY,
  name TEXT,
  type TEXT
);

-- Events ----------------------------------------------------------------------

-- How many raw records of each kind each location holds: the proof that an
-- import is complete (compare with otf2-print).
CREATE TABLE event_count (
  loc   INTEGER NOT NULL,
  kind  TEXT NOT NULL,               -- ENTER, LEAVE, MPI_SEND, ... as otf2-print names it
  count INTEGER NOT NULL,
  PRIMARY KEY (loc, kind)
) WITHOUT ROWID;

-- Region visits. Ids are assigned in enter order per location and the visits
-- of one location are contiguous (location.first_visit..last_visit); a
-- location's ids start at its index << 32.
--
-- The big event tables (visit, message, collective_member, lod) are column
-- chunks (docs/schema.md): a read-only virtual table of the module
-- sextant_columns over `<table>_chunk`, one row per up to 4096 events.
--   id      row id
--   loc     location.id
--   region  region.id
--   enter, leave  ticks
--   depth   0 for a top-level visit
--   parent  visit.id of the enclosing visit
--   context calling_context.id of the call site, if recorded
--   scl     source_code_location.id of the call site, if recorded
--   path    call_path.id: the regions from the top-level visit down to this one
CREATE VIRTUAL TABLE visit USING sextant_columns (
  id ROWID, loc, region, enter, leave, depth, parent, context, scl, path);

-- Attributes on a visit's ENTER record other than its call site: e.g. the
-- window, sequence number, root and peer of a onecoll broadcast region.
CREATE TABLE visit_attribute (
  visit     INTEGER NOT NULL,
  attribute INTEGER NOT NULL,        -- attribute.id (its name says what it is)
  value     ANY,                     -- integer, real or text
  PRIMARY KEY (visit, attribute)
) WITHOUT ROWID;

-- Call paths (Scalasca's call tree): one row per distinct sequence of
-- frames from the top down, shared by all locations, so visits of one path
-- group across processes. The frames are the enclosing visits and, for a
-- visit with a calling context, that context's chain of functions, each
-- with the source line of the call it made (merged with the enclosing
-- visits: the frames of the chain below the innermost enclosing visit's
-- region are appended to that visit's path).
CREATE TABLE call_path (
  id     INTEGER PRIMARY KEY,
  parent INTEGER,                    -- call_path.id, NULL at the top
  region INTEGER NOT NULL,
  depth  INTEGER NOT NULL,           -- frames above this one
  name   TEXT NOT NULL,              -- frames joined by '/', a context frame with
                                     -- '@' and its source line: main/solver/MPI_Recv,
                                     -- main@app.c:40/solve@app.c:12/MPI_Recv
  scl    INTEGER                     -- source_code_location.id of a calling context's
                                     -- frame (the call it made), NULL for an enclosing visit
);

-- The call-path profile per location (Scalasca's time metric): for every
-- call path a location ran, how often, the time in it and the time in it
-- less its children. Written by the importer from the visits, so that
-- profiles and hot-spot patterns need not read every visit.
CREATE TABLE call_path_profile (
  loc        INTEGER NOT NULL,
  path       INTEGER NOT NULL,       -- call_path.id
  visits     INTEGER NOT NULL,
  inclusive  INTEGER NOT NULL,       -- ticks: sum of leave - enter
  exclusive  INTEGER NOT NULL,       -- ticks: inclusive less the child visits' inclusive time
  last_visit INTEGER NOT NULL,       -- visit.id of the last visit
  PRIMARY KEY (loc, path)
) WITHOUT ROWID;

-- Point-to-point messages, matched send <-> receive in MPI order (per
-- communicator, sender, receiver and tag, first send to first receive).
-- An unmatched half has NULLs on the other side.
--   comm, tag, bytes (sent, or received if the send side is missing)
--   send_loc, recv_loc        location.id of each side
--   send_mode, recv_mode      BLOCKING or NONBLOCKING
--   send_time, send_visit     the MPI_SEND / MPI_ISEND record and the call around it
--   send_request
--   send_complete_time, send_complete_visit   MPI_ISEND_COMPLETE and the Wait/Test around it
--   recv_post_time, recv_post_visit           MPI_IRECV_REQUEST and the MPI_Irecv call
--   recv_time, recv_visit     MPI_RECV / MPI_IRECV and MPI_Recv or the Wait/Test completing it
--   recv_request, recv_bytes
CREATE VIRTUAL TABLE message USING sextant_columns (
  id ROWID, comm, tag, bytes, send_loc, recv_loc,
  send_mode TEXT BLOCKING NONBLOCKING, recv_mode TEXT BLOCKING NONBLOCKING,
  send_time, send_visit, send_request, send_complete_time, send_complete_visit,
  recv_post_time, recv_post_visit, recv_time, recv_visit, recv_request, recv_bytes);

-- Collective operations matched across the members of a communicator:
-- the n-th collective a location takes part in on a communicator belongs to
-- instance n of that communicator. Self communicators have one instance per
-- location and call.
CREATE TABLE collective (
  id          INTEGER PRIMARY KEY,
  comm        INTEGER,
  kind        TEXT NOT NULL,        -- BARRIER, BCAST, ALLREDUCE, ...
  root        INTEGER,              -- root rank, NULL if none
  root_loc    INTEGER,
  nonblocking INTEGER NOT NULL,     -- 1 for MPI_I* collectives
  members     INTEGER NOT NULL,     -- locations that took part
  expected    INTEGER NOT NULL,     -- communicator size
  begin       INTEGER NOT NULL,     -- earliest member begin
  "end"       INTEGER NOT NULL,     -- latest member end
  first_loc   INTEGER NOT NULL,     -- the lowest location of a member
  -- what the collective wait states compare a member with
  -- (collective_visit; trace/sextant-collective-bounds.h), NULL where no
  -- member gave one: of the members with an MPI call (collective_member.visit)
  last_enter  INTEGER,              -- the latest enter of a call
  last_loc    INTEGER,              -- the lowest location that entered then
  first_leave INTEGER,              -- the earliest leave
  enter_min   INTEGER,              -- the two earliest enters (equal on a tie)
  enter_min2  INTEGER,
  leave_max   INTEGER,              -- the two latest leaves (equal on a tie)
  leave_max2  INTEGER,
  root_enter  INTEGER,              -- the enter of the root_loc's call
  latest_begin INTEGER,             -- of the members that send or receive data:
  earliest_end INTEGER              --   the latest begin and the earliest end
);

--   collective  collective.id; loc  location.id
--   visit       the MPI call around the begin record
--   end_visit   the call around the end record (Wait for non-blocking)
--   begin, end  MPI_COLLECTIVE_BEGIN / END records
--   bytes_sent, bytes_received
-- One row per (collective, loc), in the order the importer matched them:
-- a member is written when it arrives, so the members of a collective over
-- many locations are spread over a few chunks (the zone maps of
-- `collective` still pick those).
CREATE VIRTUAL TABLE collective_member USING sextant_columns (
  collective, loc, visit, end_visit, begin, "end", bytes_sent, bytes_received);

-- One-sided operations.
CREATE TABLE rma_op (
  id            INTEGER PRIMARY KEY,
  loc           INTEGER NOT NULL,   -- origin
  win           INTEGER,
  kind          TEXT NOT NULL,      -- PUT, GET, ATOMIC
  atomic_type   TEXT,
  target        INTEGER,            -- target rank in the window's communicator
  target_loc    INTEGER,
  bytes         INTEGER NOT NULL,   -- sent
  bytes_received INTEGER NOT NULL,
  matching_id   INTEGER,
  issue_time    INTEGER NOT NULL,
  visit         INTEGER,
  complete_time INTEGER,
  complete_kind TEXT,               -- BLOCKING, NON_BLOCKING, REMOTE, or NULL
  complete_visit INTEGER
);

-- Synchronisation records of one-sided communication.
CREATE TABLE rma_sync (
  id     INTEGER PRIMARY KEY,
  loc    INTEGER NOT NULL,
  time   INTEGER NOT NULL,
  visit  INTEGER,
  kind   TEXT NOT NULL,             -- RMA_SYNC, RMA_GROUP_SYNC, RMA_WAIT_CHANGE, RMA_COLLECTIVE, RMA_WIN_CREATE, RMA_WIN_DESTROY
  win    INTEGER,
  remote INTEGER,                   -- target rank or group, where the record has one
  level  INTEGER,                   -- OTF2 sync level bits
  detail TEXT,                      -- collective op / sync type
  end_time INTEGER                  -- RMA_COLLECTIVE_END, for collective records
);

-- Locks: MPI window locks, thread (pthread/OpenMP) locks, I/O locks.
CREATE TABLE lock (
  id           INTEGER PRIMARY KEY,
  loc          INTEGER NOT NULL,
  family       TEXT NOT NULL,       -- RMA, THREAD, OMP, IO
  win          INTEGER,
  target       INTEGER,             -- RMA target rank
  lock_id      INTEGER,
  lock_type    TEXT,                -- EXCLUSIVE, SHARED
  request_time INTEGER,             -- RMA_REQUEST_LOCK, if any
  acquire_time INTEGER,             -- NULL for a failed try
  release_time INTEGER,
  acquire_visit INTEGER,
  try_failed   INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE metric_value (
  loc      INTEGER NOT NULL,
  time     INTEGER NOT NULL,
  metric   INTEGER NOT NULL,
  position INTEGER NOT NULL,        -- member index within the metric
  value    NUMERIC
);

-- Threads: fork/join, teams, create/begin/wait/end, tasks.
CREATE TABLE thread_event (
  id       INTEGER PRIMARY KEY,
  loc      INTEGER NOT NULL,
  time     INTEGER NOT NULL,
  kind     TEXT NOT NULL,           -- THREAD_FORK, THREAD_JOIN, THREAD_TEAM_BEGIN, ...
  paradigm TEXT,
  team     INTEGER,                 -- thread contingent / group id
  value    INTEGER,                 -- requested threads, creating location, task id ...
  visit    INTEGER
);

CREATE TABLE program (
  loc        INTEGER PRIMARY KEY,
  name       TEXT,
  arguments  TEXT,
  begin      INTEGER,
  "end"      INTEGER,
  exit_status INTEGER
);

CREATE TABLE parameter_value (
  loc       INTEGER NOT NULL,
  time      INTEGER NOT NULL,
  parameter INTEGER NOT NULL,
  value     ANY,
  visit     INTEGER
);

CREATE TABLE sample (
  loc             INTEGER NOT NULL,
  time            INTEGER NOT NULL,
  calling_context INTEGER,
  unwind_distance INTEGER
);

-- Level of detail (see docs/schema.md): per location and level k, buckets of
-- 2^k base buckets of meta.lod_base_ticks each. Times are the exclusive time
-- spent in each category inside the bucket; `region` is the region with the
-- most exclusive time there. A location stores the levels from its first
-- on: the finest whose buckets hold at least 16 of its defined events on
-- average; the lod reader computes the finer ones from its visits.
--   loc, level, bucket   one row per non-empty bucket, sorted by (loc, level, bucket)
--   region  the region with the most exclusive time in the bucket
--   busy    ticks covered by any visit
--   t_mpi, t_rma, t_user, t_omp, t_thread, t_io, t_accel, t_other
CREATE VIRTUAL TABLE lod USING sextant_columns (
  loc, level, bucket, region, busy, t_mpi, t_rma, t_user, t_omp, t_thread, t_io, t_accel, t_other);

-- Patterns (written by `sextant analyze`) ------------------------------------

-- The patterns of the last analysis, as run: built-in or from a user file.
CREATE TABLE pattern (
  id          TEXT PRIMARY KEY,     -- stable id, Scalasca's name where one exists
  number      INTEGER NOT NULL UNIQUE, -- n-th pattern of the analysis: its instances' ids >> 32
  title       TEXT NOT NULL,
  parent      TEXT,                 -- the pattern tree
  description TEXT,
  criterion   TEXT,
  comment     TEXT,                 -- the template of its instances' comments
  origin      TEXT NOT NULL,        -- 'builtin' or the file it came from
  parameters  TEXT                  -- the values used, as 'name=value ...'
) WITHOUT ROWID;

-- Every instance of a pattern, as ids: id (pattern.number << 32) + n,
-- the ticks lost, the location that lost them, the call in which they were
-- lost (visit, its region and call path), its call site (pattern_site), the
-- time interval lost, and the location, message or collective that caused
-- it. Column chunks, like the events: the pattern_instance view spells it
-- out.
CREATE VIRTUAL TABLE pattern_instance_data USING sextant_columns (
  id ROWID, severity, loc, visit, region, path, site, begin, "end", peer_loc, message, collective);

-- The source lines the instances point at: a call's call-site attribute,
-- else its calling context (kind 'call'), else the definition of the
-- enclosing region (kind 'function': the line where that function begins).
CREATE TABLE pattern_site (
  id       INTEGER PRIMARY KEY,
  file     TEXT NOT NULL,
  line     INTEGER,
  kind     TEXT NOT NULL,          -- 'call' or 'function'
  function TEXT                    -- kind 'function': the region that begins at line
);

-- The comments a pattern query wrote itself (the others come from the
-- pattern's template).
CREATE TABLE pattern_note (
  instance INTEGER PRIMARY KEY,      -- pattern_instance_data.id
  comment  TEXT NOT NULL
);

-- Direct or propagated, for every instance of a wait-state pattern (one
-- location waited for another: late_sender, late_sender_wrong_order,
-- late_receiver, wait_at_barrier, wait_at_nxn, late_broadcast, early_reduce,
-- early_scan, wait_at_finalize, wait_at_fence, wait_at_win_create,
-- wait_at_win_free, lock_contention), computed by `sextant analyze` once its
-- patterns are written (graph/sextant-wait-causes.c, docs/patterns.md
-- "Direct and propagated wait states"). Column chunks keyed like
-- pattern_instance_data: row id = the instance's id.
--   cause           'direct': the peer was doing something else than waiting
--                   for most of the wait (computing: the delay is its own);
--                   'propagated': the peer was itself in wait states for at
--                   least half of it; NULL: no peer or no interval
--   cause_instance  propagated: the peer's wait state that overlapped most
--   root_instance   the direct wait state at the end of the chain of
--                   cause_instance links (itself when direct); NULL when the
--                   chain loops
--   root_loc        that instance's peer: the root cause's location
CREATE VIRTUAL TABLE wait_state USING sextant_columns (
  instance ROWID, cause TEXT direct propagated, cause_instance, root_instance, root_loc);

-- How comments name a location: its process (location group), and the
-- thread too when the process has several.
CREATE VIEW location_label AS
  WITH threads AS (SELECT location_group, count (*) AS n FROM location GROUP BY location_group)
  SELECT l.id AS loc,
         CASE WHEN t.n > 1 AND g.name IS NOT l.name
              THEN coalesce (g.name, '?') || ' / ' || coalesce (l.name, '?')
              ELSE coalesce (g.name, l.name, '?') END AS label
  FROM location AS l
  LEFT JOIN location_group AS g ON g.id = l.location_group
  LEFT JOIN threads AS t ON t.location_group IS l.location_group;

-- Every instance of a pattern: who lost how much time where, and why.
--   pattern, severity (ticks lost), loc, visit, callpath (region names from
--   the root visit, '/'-separated), file and line of the call, begin and end
--   of the time lost, peer_loc, message, collective, comment: the
--   diagnosis and recommendation, the query's own or the pattern's template
--   (a plain default without one) filled in (sextant_comment,
--   trace/sextant-sql-functions.c), call (the visit's region), site_kind
--   ('call', 'function' or 'none': what file and line are) and function
--   (site_kind 'function': the function that begins at line); for wait
--   states (wait_state) cause ('direct' or 'propagated', else NULL),
--   cause_instance, root_loc and root_label (the root cause's location).
--   A propagated instance's comment names its root cause instead of the
--   pattern's advice about the peer: the root location and where it spent
--   the time (sextant_delay_activity over the root instance's interval).
CREATE VIEW pattern_instance AS
  SELECT i.id AS id, p.id AS pattern, i.severity AS severity, i.loc AS loc, i.visit AS visit,
         cp.name AS callpath, s.file AS file, s.line AS line, i.begin AS begin, i."end" AS "end",
         i.peer_loc AS peer_loc, i.message AS message, i.collective AS collective,
         CASE WHEN w.cause = 'propagated' AND n.comment IS NULL
              THEN sextant_comment ('{location} waited {seconds} in {call} at {site} for {peer}, which was '
                                    || 'itself waiting (propagated); the root cause is {root}.',
                                    coalesce (ll.label, 'an unknown location'),
                                    coalesce (pl.label, 'an unknown location'),
                                    i.severity,
                                    (SELECT CAST (value AS INTEGER) FROM meta WHERE key = 'resolution'),
                                    r.name, s.file, s.line, cp.name, s.kind, s.function,
                                    CASE WHEN w.root_loc IS NULL
                                         THEN 'unknown: the chain of waits behind it loops'
                                         ELSE coalesce (rl.label, 'an unknown location')
                                              || coalesce (' ' || sextant_delay_activity (ri.peer_loc, ri.begin,
                                                                                          ri."end"), '')
                                              || ': balance the work there' END)
              ELSE coalesce (n.comment,
                             sextant_comment (coalesce (p.comment, '{location} lost {seconds} in {call} at {site}.'),
                                              coalesce (ll.label, 'an unknown location'),
                                              CASE WHEN i.peer_loc IS NOT NULL
                                                   THEN coalesce (pl.label, 'an unknown location') END,
                                              i.severity,
                                              (SELECT CAST (value AS INTEGER) FROM meta WHERE key = 'resolution'),
                                              r.name, s.file, s.line, cp.name, s.kind, s.function)) END AS comment,
         r.name AS call, coalesce (s.kind, 'none') AS site_kind, s.function AS function,
         w.cause AS cause, w.cause_instance AS cause_instance, w.root_loc AS root_loc, rl.label AS root_label
  FROM pattern_instance_data AS i
  JOIN pattern AS p ON p.number = i.id >> 32
  LEFT JOIN location_label AS ll ON ll.loc = i.loc
  LEFT JOIN location_label AS pl ON pl.loc = i.peer_loc
  LEFT JOIN call_path AS cp ON cp.id = i.path
  LEFT JOIN region AS r ON r.id = i.region
  LEFT JOIN pattern_site AS s ON s.id = i.site
  LEFT JOIN pattern_note AS n ON n.instance = i.id
  LEFT JOIN wait_state AS w ON w.instance = i.id
  LEFT JOIN location_label AS rl ON rl.loc = w.root_loc
  LEFT JOIN pattern_instance_data AS ri ON ri.id = w.root_instance;

-- The instances summed per pattern, location, call path and call site (the
-- cube of Scalasca's reports), written with them: the summaries of analyze
-- and report read these few rows instead of every instance.
CREATE TABLE pattern_aggregate (
  pattern    TEXT NOT NULL,
  loc        INTEGER NOT NULL,
  callpath   TEXT,
  file       TEXT,
  line       INTEGER,
  site_kind  TEXT NOT NULL,         -- as pattern_instance.site_kind: 'call', 'function' or 'none'
  function   TEXT,                  -- site_kind 'function': the function that begins at line
  severity   INTEGER NOT NULL,      -- ticks, the sum
  instances  INTEGER NOT NULL
);

-- Views for pattern queries ---------------------------------------------------

-- onecoll's regions with the broadcast they belong to (the attributes
-- Sextant's recorder writes on their ENTER records).
CREATE VIEW onecoll_region AS
  SELECT v.id AS visit, v.loc AS loc, v.enter AS enter, v.leave AS leave, r.name AS region,
         max (CASE WHEN a.name = 'onecoll window' THEN va.value END) AS win,
         max (CASE WHEN a.name = 'onecoll sequence' THEN va.value END) AS seq,
         max (CASE WHEN a.name = 'onecoll root' THEN va.value END) AS root,
         max (CASE WHEN a.name = 'onecoll peer' THEN va.value END) AS peer
  FROM visit_attribute AS va
  JOIN attribute AS a ON a.id = va.attribute
  JOIN visit AS v ON v.id = va.visit
  JOIN region AS r ON r.id = v.region
  WHERE a.name LIKE 'onecoll %'
  GROUP BY v.id;

-- The MPI_COMM_WORLD rank of every location's process (threads included).
CREATE VIEW location_rank AS
  SELECT l.id AS loc, cm.rank AS rank
  FROM location AS l
  JOIN location AS m ON m.location_group = l.location_group
  JOIN comm_member AS cm ON cm.loc = m.id
  JOIN comm AS c ON c.id = cm.comm AND c.name = 'MPI_COMM_WORLD';

-- Every receive with its Late Sender idle time (Scalasca's rule):
-- idle = min(enter(send call), leave(receive call)) - enter(receive call)
-- on the call that completed the receive (receives completed in MPI_Test*
-- are no rows: a test never waits); `charged` is 1 on the receive a call's
-- Late Sender time is charged to: in MPI_Waitall / MPI_Waitsome the one with
-- the largest idle (the first in receive order on a tie), in every other call
-- each receive. later_send is the earliest send among the messages the
-- location receives in later calls (MPI_Test* included; the receives of one
-- call are not later than each other), later_send_same the same over the
-- messages from this one's sender only: the wrong-order tests.
-- An analysis copies it once per connection into a temporary column table
-- with the same rows and one more column, computed in C (trace/sextant-store.c,
-- fill_receive_wait; tests/test-store-views.c): wo_buffered, 1 on a charged
-- receive that Scalasca's mpi_latesender_wo finds in wrong order, which
-- compares a Late Sender only while it is among the last 100 it buffers.
CREATE VIEW receive_wait AS
  WITH receives AS (
    SELECT rv.loc AS loc, rv.id AS visit, rv.enter AS enter, m.id AS message, m.send_loc AS peer_loc,
           m.send_time AS send_time,
           min (sv.enter, rv.leave) - rv.enter AS idle,
           r.name LIKE 'MPI_Test%' AS test,
           r.name NOT IN ('MPI_Waitall', 'MPI_Waitsome')
             OR row_number () OVER (PARTITION BY m.recv_visit
                                    ORDER BY min (sv.enter, rv.leave) - rv.enter DESC, m.recv_time, m.id) = 1
             AS charged,
           -- a running minimum from the last call backwards over the groups
           -- of receives completed in one call: cheaper than a frame that
           -- shrinks from the front, or a RANGE frame
           min (m.send_time) OVER (PARTITION BY m.recv_loc ORDER BY m.recv_visit DESC
                                   GROUPS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS later_send,
           -- the same over the messages from this one's sender only
           min (m.send_time) OVER (PARTITION BY m.recv_loc, m.send_loc ORDER BY m.recv_visit DESC
                                   GROUPS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS later_send_same
    FROM message AS m
    JOIN visit AS rv ON rv.id = m.recv_visit
    JOIN visit AS sv ON sv.id = m.send_visit
    JOIN region AS r ON r.id = rv.region
  )
  SELECT loc, visit, enter, message, peer_loc, send_time, idle, later_send, later_send_same, charged
  FROM receives WHERE NOT test;

-- Every member of a blocking collective of several members, with its MPI
-- call (visit, enter, leave, and the call's region, call path, call site and
-- calling context: NULL when the call is unknown), its
-- MPI_COLLECTIVE_BEGIN / END records, whether it sends or receives data, and
-- what the collective wait states compare it with: of the members with a
-- call, the latest enter and who entered then (the lowest location of
-- several), the earliest leave, the earliest enter and the latest leave of
-- the others, the root's enter; of the members that send or receive data,
-- the latest begin and the earliest end record. The collective's row holds
-- these bounds (the others' extreme is the second one for the member that
-- holds the first).
-- An analysis copies it once per connection into a temporary column table
-- with the same rows (trace/sextant-store-views-collective.c;
-- tests/test-store-views.c).
CREATE VIEW collective_visit AS
  SELECT cm.collective AS collective, c.kind AS kind, c.root_loc AS root_loc, cm.loc AS loc,
         v.id AS visit, v.enter AS enter, v.leave AS leave, v.region AS region, v.path AS path, v.scl AS scl,
         v.context AS context, cm.begin AS begin, cm."end" AS "end",
         cm.bytes_sent > 0 AS sends, cm.bytes_received > 0 AS receives,
         c.last_enter AS last_enter, c.last_loc AS last_loc, c.first_leave AS first_leave,
         CASE WHEN v.enter = c.enter_min THEN c.enter_min2 ELSE c.enter_min END AS others_enter,
         CASE WHEN v.leave = c.leave_max THEN c.leave_max2 ELSE c.leave_max END AS others_leave,
         c.root_enter AS root_enter, c.latest_begin AS latest_begin, c.earliest_end AS earliest_end
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  LEFT JOIN visit AS v ON v.id = cm.visit
  WHERE c.nonblocking = 0 AND c.members > 1;

-- Master-worker structure: for every location, how many of its peers
-- exchange messages with it and with nobody else (its workers).
CREATE VIEW master_workers AS
  WITH directed AS MATERIALIZED (
    -- the few distinct (sender, receiver) pairs, read from the messages once
    SELECT DISTINCT send_loc AS a, recv_loc AS b FROM message
    WHERE send_loc IS NOT NULL AND recv_loc IS NOT NULL AND send_loc != recv_loc
  ),
  pairs AS (SELECT a, b FROM directed UNION SELECT b, a FROM directed),
  degree AS (SELECT a, count (*) AS n FROM pairs GROUP BY a)
  SELECT p.a AS loc, count (*) AS workers
  FROM pairs AS p JOIN degree AS d ON d.a = p.b
  WHERE d.n = 1 GROUP BY p.a;

-- The members of one-sided collectives (fence, window creation and release):
-- the n-th RMA collective of a kind of each member of a window is instance n
-- of that window; with the latest arrival and who it was.
CREATE VIEW rma_collective_call AS
  WITH calls AS (
    SELECT s.detail AS detail, s.loc AS loc, s.win AS win, v.id AS visit, v.enter AS enter,
           v.leave AS leave,
           row_number () OVER (PARTITION BY s.loc, s.win, s.detail ORDER BY s.time) AS n
    FROM rma_sync AS s JOIN visit AS v ON v.id = s.visit
    WHERE s.kind = 'RMA_COLLECTIVE'
  )
  SELECT c.*, max (enter) OVER w AS last_enter, count (*) OVER w AS members,
         first_value (loc) OVER (w ORDER BY enter DESC, loc
                                 ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_loc
  FROM calls AS c WINDOW w AS (PARTITION BY detail, win, n);
