-- id: frequent_communication
-- title: Frequent Communication
-- parent: hot_spots
-- description: The call sites that issue the most communication calls: where
--   aggregating messages or collectives pays most.
-- criterion: per location and call path of the MPI call with at
--   least min_calls point-to-point or collective calls: severity = the time in
--   those calls (a statistic of many calls: charged to none; the last one
--   shows where).
-- comment: {location} made many communication calls in {callpath} at {site},
--   {seconds} in all. Aggregate small messages, or communicate less often.
-- param: min_calls = 1000: call sites with fewer calls are not instances
SELECT f.loc AS loc, f.last_visit AS example_visit, f.inclusive AS severity
FROM call_path_profile AS f
JOIN call_path AS p ON p.id = f.path
JOIN region AS r ON r.id = p.region
WHERE r.paradigm = 'MPI' AND r.role IN ('POINT2POINT', 'COLLECTIVE', 'BARRIER', 'COLL_ONE2ALL',
                                        'COLL_ALL2ONE', 'COLL_ALL2ALL', 'COLL_OTHER')
  AND f.visits >= :min_calls
