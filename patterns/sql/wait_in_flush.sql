-- id: wait_in_flush
-- title: Wait in Flush
-- parent: onecoll
-- description: The root of a onecoll broadcast stays in onecoll_flush after
--   every other rank already had the data: the time it takes the root to
--   learn of the completion (done counters and its polling).
-- criterion: per onecoll broadcast (window, sequence number): idle = leave of
--   the root's onecoll_flush - the latest leave of the other ranks'
--   onecoll_flush of that broadcast, or its own enter if that is later (the
--   time in the call only) (../shared/spec/patterns.md, patterns of the
--   bundled RMA broadcast).
-- comment: the root {location} stayed {seconds} in {call} at {site} after all
--   ranks had the data. Poll for completion less often, or flush later.
-- param: eps = 0 s: times at or below this are not instances
WITH regions AS MATERIALIZED (
  SELECT * FROM onecoll_region WHERE region IN ('onecoll_flush', 'onecoll_bcast')
),
-- the root of each broadcast, once (a join, not a subquery per flush)
roots AS (
  SELECT win, seq, min (root) AS root FROM regions
  WHERE region = 'onecoll_bcast' AND root IS NOT NULL GROUP BY win, seq
),
flushes AS (
  SELECT f.*, fr.rank AS rank, b.root AS bcast_root
  FROM regions AS f JOIN location_rank AS fr ON fr.loc = f.loc
  LEFT JOIN roots AS b ON b.win = f.win AND b.seq = f.seq
  WHERE f.region = 'onecoll_flush'
),
others AS (
  SELECT win, seq, max (leave) AS last_leave FROM flushes WHERE rank != bcast_root GROUP BY win, seq
)
SELECT f.loc, f.visit, f.leave - max (o.last_leave, f.enter) AS severity, max (o.last_leave, f.enter) AS begin,
       f.leave AS "end"
FROM flushes AS f JOIN others AS o ON o.win = f.win AND o.seq = f.seq
WHERE f.rank = f.bcast_root AND f.leave - max (o.last_leave, f.enter) > :eps
