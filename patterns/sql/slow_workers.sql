-- id: slow_workers
-- title: Slow Workers
-- parent: master_worker
-- description: A master (a location that hands out work to many workers) blocks
--   waiting for its workers' results instead of working.
-- criterion: Late Sender time (see late_sender) on a master: a location
--   with at least min_workers workers, peers that exchange messages with it
--   and with nobody else.
-- comment: the master {location} waited {seconds} in {call} at {site} for the
--   result of {peer}. Give the master work of its own, or hand out smaller
--   pieces so that results arrive sooner.
-- param: min_workers = 3: fewer workers (peers that talk only to it) do not make a master
-- param: eps = 0 s: waiting at or below this is not an instance
WITH pairs AS (
  SELECT DISTINCT send_loc AS a, recv_loc AS b FROM message
  WHERE send_loc IS NOT NULL AND recv_loc IS NOT NULL AND send_loc != recv_loc
  UNION
  SELECT DISTINCT recv_loc, send_loc FROM message
  WHERE send_loc IS NOT NULL AND recv_loc IS NOT NULL AND send_loc != recv_loc
),
degree AS (SELECT a, count (*) AS n FROM pairs GROUP BY a),
-- a master: at least min_workers peers that talk to nobody else
masters AS (
  SELECT p.a AS loc FROM pairs AS p JOIN degree AS d ON d.a = p.b
  WHERE d.n = 1 GROUP BY p.a HAVING count (*) >= :min_workers
)
SELECT rv.loc AS loc, rv.id AS visit, max (min (sv.enter, rv.leave) - rv.enter) AS severity,
       rv.enter AS begin, min (sv.enter, rv.leave) AS "end", m.send_loc AS peer_loc, m.id AS message
FROM message AS m
JOIN masters AS ma ON ma.loc = m.recv_loc
JOIN visit AS rv ON rv.id = m.recv_visit
JOIN visit AS sv ON sv.id = m.send_visit
JOIN region AS r ON r.id = rv.region
WHERE r.name NOT LIKE 'MPI_Test%'
GROUP BY rv.id
HAVING severity > :eps
