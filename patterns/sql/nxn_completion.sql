-- id: nxn_completion
-- title: N x N Completion
-- parent: mpi_collective
-- description: Time spent in an N x N collective after the first process
--   has left it: the collective's own completion cost.
-- criterion: per member of a blocking N x N collective: idle = own leave -
--   max(earliest leave of all members, min(latest enter, own leave)).
--   As Scalasca's mpi_nxn_completion.
-- comment: {location} spent {seconds} in {call} at {site} after the collective
--   had completed elsewhere.
-- param: eps = 0 s: times at or below this are not instances
WITH calls AS (
  SELECT cm.collective AS collective, cm.loc AS loc, v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.kind IN ('ALLGATHER', 'ALLGATHERV', 'ALLREDUCE', 'ALLTOALL', 'ALLTOALLV', 'ALLTOALLW', 'REDUCE_SCATTER', 'REDUCE_SCATTER_BLOCK') AND c.nonblocking = 0 AND c.members > 1
),
bounds AS (
  SELECT collective, max (enter) AS last_enter, min (leave) AS first_leave FROM calls GROUP BY collective
)
SELECT c.loc, c.visit, c.leave - max (b.first_leave, min (b.last_enter, c.leave)) AS severity,
       max (b.first_leave, min (b.last_enter, c.leave)) AS begin, c.leave AS "end", c.collective
FROM calls AS c JOIN bounds AS b USING (collective)
WHERE c.leave - max (b.first_leave, min (b.last_enter, c.leave)) > :eps
