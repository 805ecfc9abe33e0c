-- id: wait_at_barrier
-- title: Wait at Barrier
-- parent: mpi_sync_collective
-- description: Time spent in MPI_Barrier waiting for the last process to
--   arrive: load imbalance before the barrier.
-- criterion: per member of a blocking barrier: idle = min(latest enter of all
--   members, own leave) - own enter. As Scalasca's mpi_barrier_wait.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, the
--   last to arrive. Balance the work before the barrier, or drop the barrier
--   if nothing depends on it.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH calls AS (
  SELECT cm.collective AS collective, cm.loc AS loc, v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.kind = 'BARRIER' AND c.nonblocking = 0 AND c.members > 1
),
last AS (
  SELECT DISTINCT collective,
         max (enter) OVER w AS last_enter,
         first_value (loc) OVER (w ORDER BY enter DESC, loc ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_loc
  FROM calls WINDOW w AS (PARTITION BY collective)
)
SELECT c.loc, c.visit, min (l.last_enter, c.leave) - c.enter AS severity,
       c.enter AS begin, min (l.last_enter, c.leave) AS "end", l.last_loc AS peer_loc, c.collective
FROM calls AS c JOIN last AS l USING (collective)
WHERE min (l.last_enter, c.leave) - c.enter > :eps
