-- id: wait_in_flush
-- title: Wait in Flush
-- parent: onecoll
-- description: The root of a onecoll broadcast stays in onecoll_flush after
--   every other rank already had the data: the time it takes the root to
--   learn of the completion (done counters and its polling).
-- criterion: per onecoll broadcast (window, sequence number): idle = leave of
--   the root's onecoll_flush - the latest leave of the other ranks'
--   onecoll_flush of that broadcast (../shared/spec/patterns.md, patterns of
--   the bundled RMA broadcast).
-- comment: the root {location} stayed {seconds} in {call} at {site} after all
--   ranks had the data. Poll for completion less often, or flush later.
-- param: eps = 0 s: times at or below this are not instances
WITH onecoll AS (
  -- onecoll's regions with the broadcast they belong to (recorder attributes)
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
  GROUP BY v.id
),
rank_of AS (
  -- the rank of every location's process (onecoll runs on a copy of MPI_COMM_WORLD)
  SELECT l.id AS loc, cm.rank AS rank
  FROM location AS l
  JOIN location AS m ON m.location_group = l.location_group
  JOIN comm_member AS cm ON cm.loc = m.id
  JOIN comm AS c ON c.id = cm.comm AND c.name = 'MPI_COMM_WORLD'
),
flushes AS (
  SELECT f.*, fr.rank AS rank,
         (SELECT b.root FROM onecoll AS b WHERE b.region = 'onecoll_bcast' AND b.win = f.win AND b.seq = f.seq
          AND b.root IS NOT NULL LIMIT 1) AS bcast_root
  FROM onecoll AS f JOIN rank_of AS fr ON fr.loc = f.loc
  WHERE f.region = 'onecoll_flush'
),
others AS (
  SELECT win, seq, max (leave) AS last_leave FROM flushes WHERE rank != bcast_root GROUP BY win, seq
)
SELECT f.loc, f.visit, f.leave - o.last_leave AS severity, o.last_leave AS begin, f.leave AS "end"
FROM flushes AS f JOIN others AS o ON o.win = f.win AND o.seq = f.seq
WHERE f.rank = f.bcast_root AND f.leave - o.last_leave > :eps
