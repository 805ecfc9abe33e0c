-- id: frequent_communication
-- title: Frequent Communication
-- parent: hot_spots
-- description: The call sites that issue the most communication calls: where
--   aggregating messages or collectives pays most.
-- criterion: per location and call site (call path of the MPI call) with at
--   least min_calls point-to-point or collective calls: severity = the time in
--   those calls.
-- comment: {location} made many communication calls at {site} ({callpath}),
--   {seconds} in all. Aggregate small messages, or communicate less often.
-- param: min_calls = 1000: call sites with fewer calls are not instances
WITH calls AS (
  SELECT v.loc, v.id, v.parent, v.region, v.leave - v.enter AS t, coalesce (v.scl, -v.region) AS site
  FROM visit AS v JOIN region AS r ON r.id = v.region
  WHERE r.paradigm = 'MPI' AND r.role IN ('POINT2POINT', 'COLLECTIVE', 'BARRIER', 'COLL_ONE2ALL',
                                          'COLL_ALL2ONE', 'COLL_ALL2ALL', 'COLL_OTHER')
)
SELECT loc, max (id) AS visit, sum (t) AS severity
FROM calls
GROUP BY loc, site, (SELECT region FROM visit WHERE id = calls.parent)
HAVING count (*) >= :min_calls
