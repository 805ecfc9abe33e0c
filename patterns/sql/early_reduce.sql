-- id: early_reduce
-- title: Early Reduce
-- parent: mpi_collective
-- description: In an all-to-one collective (MPI_Reduce, MPI_Gather,
--   MPI_Gatherv) the root arrived first and waited for the others' data.
-- criterion: for the root: idle = min(latest enter of all members, own
--   leave) - own enter. As Scalasca's mpi_earlyreduce.
-- comment: the root {location} waited {seconds} in {call} at {site} for
--   {peer}, the last to arrive. Give the root other work before the
--   collective, or use the non-blocking form.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH calls AS (
  SELECT cm.collective AS collective, cm.loc AS loc, c.root_loc AS root_loc,
         v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.kind IN ('REDUCE', 'GATHER', 'GATHERV') AND c.nonblocking = 0 AND c.members > 1
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
WHERE c.loc = c.root_loc AND min (l.last_enter, c.leave) - c.enter > :eps
