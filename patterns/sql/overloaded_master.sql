-- id: overloaded_master
-- title: Overloaded Master
-- parent: master_worker
-- description: Workers wait for work from a master that cannot keep up.
-- criterion: Late Sender time (see late_sender) of workers whose message
--   comes from a master: a location with at least min_workers workers, peers
--   that exchange messages with it and with nobody else.
-- comment: the worker {location} waited {seconds} in {call} at {site} for work
--   from the master {peer}. Hand out work in bigger pieces, prefetch the next
--   piece, or distribute the master's role.
-- param: min_workers = 3: fewer workers (peers that talk only to it) do not make a master
-- param: eps = 0 s: waiting at or below this is not an instance
WITH masters AS (SELECT loc FROM master_workers WHERE workers >= :min_workers)
SELECT w.loc, w.visit, max (w.idle) AS severity, w.enter AS begin, w.enter + w.idle AS "end",
       w.peer_loc, w.message
FROM receive_wait AS w
JOIN masters AS ma ON ma.loc = w.peer_loc
GROUP BY w.visit
HAVING severity > :eps
