-- id: early_scan
-- title: Early Scan
-- parent: mpi_collective
-- description: In a prefix reduction (MPI_Scan, MPI_Exscan) rank n needs the
--   data of ranks 0..n-1 and waited for the last of them to arrive.
-- criterion: per member: idle = min(latest enter of the members of lower
--   rank, own leave) - own enter. As Scalasca's mpi_earlyscan.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, a
--   lower rank that arrived late.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH calls AS (
  SELECT cm.collective AS collective, cm.loc AS loc, k.rank AS rank,
         v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN comm_member AS k ON k.comm = c.comm AND k.loc = cm.loc
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.kind IN ('SCAN', 'EXSCAN') AND c.nonblocking = 0 AND c.members > 1
),
waits AS (
  SELECT collective, loc, rank, visit, enter, leave,
         max (enter) OVER (PARTITION BY collective ORDER BY rank
                           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS last_enter
  FROM calls
),
latest AS (
  -- who arrived last among the lower ranks
  SELECT w.*, (SELECT c.loc FROM calls AS c WHERE c.collective = w.collective AND c.enter = w.last_enter
               AND c.rank < w.rank ORDER BY c.rank LIMIT 1) AS last_loc
  FROM waits AS w WHERE w.last_enter IS NOT NULL AND min (w.last_enter, w.leave) - w.enter > :eps
)
SELECT loc, visit, min (last_enter, leave) - enter AS severity, enter AS begin,
       min (last_enter, leave) AS "end", last_loc AS peer_loc, collective
FROM latest
