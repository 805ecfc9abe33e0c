-- id: wait_at_finalize
-- title: Wait at Finalize
-- parent: mpi_init_exit
-- description: Time spent in MPI_Finalize waiting for the last process to
--   get there: imbalance at the end of the run.
-- criterion: MPI_Finalize is collective over all MPI processes: per process,
--   idle = min(latest enter of MPI_Finalize, own leave) - own enter.
--   As Scalasca's mpi_finalize_wait.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, the
--   last to finish.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH calls AS (
  SELECT v.loc AS loc, v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM visit AS v JOIN region AS r ON r.id = v.region
  WHERE r.name = 'MPI_Finalize' AND r.paradigm = 'MPI'
),
last AS (
  SELECT max (enter) AS last_enter, (SELECT loc FROM calls ORDER BY enter DESC LIMIT 1) AS last_loc,
         count (*) AS n
  FROM calls
)
SELECT c.loc, c.visit, min (l.last_enter, c.leave) - c.enter AS severity,
       c.enter AS begin, min (l.last_enter, c.leave) AS "end", l.last_loc AS peer_loc
FROM calls AS c, last AS l
WHERE l.n > 1 AND min (l.last_enter, c.leave) - c.enter > :eps
