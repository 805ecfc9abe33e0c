-- id: barrier_completion
-- title: Barrier Completion
-- parent: mpi_sync_collective
-- description: Time spent in MPI_Barrier after the first process has left it:
--   the cost of the barrier's own completion (noise, or a slow implementation).
-- criterion: per member of a blocking barrier: idle = own leave -
--   max(earliest leave of all members, min(latest enter, own leave)).
--   As Scalasca's mpi_barrier_completion.
-- comment: {location} spent {seconds} in {call} at {site} after the barrier
--   had completed elsewhere.
-- param: eps = 0 s: times at or below this are not instances
WITH calls AS (
  SELECT cm.collective AS collective, cm.loc AS loc, v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.kind = 'BARRIER' AND c.nonblocking = 0 AND c.members > 1
),
bounds AS (
  SELECT collective, max (enter) AS last_enter, min (leave) AS first_leave FROM calls GROUP BY collective
)
SELECT c.loc, c.visit, c.leave - max (b.first_leave, min (b.last_enter, c.leave)) AS severity,
       max (b.first_leave, min (b.last_enter, c.leave)) AS begin, c.leave AS "end", c.collective
FROM calls AS c JOIN bounds AS b USING (collective)
WHERE c.leave - max (b.first_leave, min (b.last_enter, c.leave)) > :eps
