-- id: unbalanced_communication
-- title: Unbalanced Communication
-- parent: hot_spots
-- description: The same communication call takes very different times on
--   different locations: the cause is load imbalance around it.
-- criterion: per call path of an MPI call executed by several locations: for
--   the location with the most time in it, severity = its time - the average
--   time over the locations, if that is more than imbalance times the average
--   (a statistic of many calls: charged to none; the last one shows where).
-- comment: {location} spends {seconds} more than the average in {callpath} at
--   {site}. Balance the work before this call.
-- param: imbalance = 0.5: relative excess over the average that is reported
-- param: eps = 0 s: excess at or below this is not an instance
WITH per_loc AS (
  SELECT f.path AS path, f.loc AS loc, f.inclusive AS t, f.last_visit AS visit
  FROM call_path_profile AS f
  JOIN call_path AS p ON p.id = f.path
  JOIN region AS r ON r.id = p.region
  WHERE r.paradigm = 'MPI'
),
per_path AS (SELECT path, avg (t) AS mean, count (*) AS n FROM per_loc GROUP BY path)
SELECT l.loc, l.visit AS example_visit, max (l.t) - p.mean AS severity
FROM per_loc AS l JOIN per_path AS p USING (path)
WHERE p.n > 1
GROUP BY l.path
HAVING max (l.t) - p.mean > :imbalance * p.mean AND max (l.t) - p.mean > :eps
