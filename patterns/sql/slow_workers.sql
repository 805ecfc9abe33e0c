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
WITH masters AS (SELECT loc FROM master_workers WHERE workers >= :min_workers)
SELECT w.loc, w.visit, max (w.idle) AS severity, w.enter AS begin, w.enter + w.idle AS "end",
       w.peer_loc, w.message
FROM receive_wait AS w
JOIN masters AS ma ON ma.loc = w.loc
GROUP BY w.visit
HAVING severity > :eps
