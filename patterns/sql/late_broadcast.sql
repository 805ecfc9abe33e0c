-- id: late_broadcast
-- title: Late Broadcast
-- parent: mpi_collective
-- description: In a one-to-all collective (MPI_Bcast, MPI_Scatter,
--   MPI_Scatterv) the root arrived after the others, who waited for it.
-- criterion: per non-root member: idle = min(root's enter, own leave) - own
--   enter. As Scalasca's mpi_latebroadcast.
-- comment: {location} waited {seconds} in {call} at {site} for the root {peer}
--   to arrive. Reduce the root's work before the broadcast, or overlap it with
--   MPI_Ibcast.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH calls AS (
  SELECT cm.collective AS collective, cm.loc AS loc, c.root_loc AS root_loc,
         v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.kind IN ('BCAST', 'SCATTER', 'SCATTERV') AND c.nonblocking = 0 AND c.members > 1
)
SELECT c.loc, c.visit, min (r.enter, c.leave) - c.enter AS severity,
       c.enter AS begin, min (r.enter, c.leave) AS "end", r.loc AS peer_loc, c.collective
FROM calls AS c JOIN calls AS r ON r.collective = c.collective AND r.loc = c.root_loc
WHERE c.loc != c.root_loc AND min (r.enter, c.leave) - c.enter > :eps
