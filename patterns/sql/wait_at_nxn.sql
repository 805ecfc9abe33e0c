-- id: wait_at_nxn
-- title: Wait at N x N
-- parent: mpi_collective
-- description: Time spent in an all-to-all collective (MPI_Allreduce,
--   MPI_Allgather(v), MPI_Alltoall(v/w), MPI_Reduce_scatter(_block)) waiting
--   for the last process to arrive: nobody can finish before everybody started.
-- criterion: per member of a blocking N x N collective: idle = min(latest enter of all
--   members, own leave) - own enter. As Scalasca's mpi_wait_nxn.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, the
--   last to arrive. Balance the work before the collective.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH calls AS MATERIALIZED (
  SELECT cm.collective AS collective, cm.loc AS loc, v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.kind IN ('ALLGATHER', 'ALLGATHERV', 'ALLREDUCE', 'ALLTOALL', 'ALLTOALLV', 'ALLTOALLW', 'REDUCE_SCATTER', 'REDUCE_SCATTER_BLOCK') AND c.nonblocking = 0 AND c.members > 1
),
latest AS MATERIALIZED (
  SELECT collective, max (enter) AS last_enter FROM calls GROUP BY collective
),
last AS MATERIALIZED (
  -- the last to arrive; of several at once, the lowest location
  SELECT l.collective AS collective, l.last_enter AS last_enter, min (c.loc) AS last_loc
  FROM latest AS l JOIN calls AS c ON c.collective = l.collective AND c.enter = l.last_enter
  GROUP BY l.collective
)
SELECT c.loc, c.visit, min (l.last_enter, c.leave) - c.enter AS severity,
       c.enter AS begin, min (l.last_enter, c.leave) AS "end", l.last_loc AS peer_loc, c.collective
FROM calls AS c JOIN last AS l ON l.collective = c.collective
WHERE min (l.last_enter, c.leave) - c.enter > :eps
