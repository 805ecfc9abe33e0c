-- id: init_completion
-- title: MPI Initialization Completion
-- parent: mpi_init_exit
-- description: Time spent in MPI_Init (or MPI_Init_thread) after the first
--   process had left it.
-- criterion: MPI_Init is collective over all MPI processes: per process,
--   idle = own leave - max(earliest leave, min(latest enter, own leave)).
--   As Scalasca's mpi_init_completion.
-- comment: {location} spent {seconds} in {call} at {site} after
--   initialisation had completed elsewhere.
-- param: eps = 0 s: times at or below this are not instances
WITH calls AS (
  SELECT v.loc AS loc, v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM visit AS v JOIN region AS r ON r.id = v.region
  WHERE r.name IN ('MPI_Init', 'MPI_Init_thread') AND r.paradigm = 'MPI'
),
bounds AS (
  SELECT max (enter) AS last_enter, min (leave) AS first_leave, count (*) AS n FROM calls
)
SELECT c.loc, c.visit, c.leave - max (b.first_leave, min (b.last_enter, c.leave)) AS severity,
       max (b.first_leave, min (b.last_enter, c.leave)) AS begin, c.leave AS "end"
FROM calls AS c, bounds AS b
WHERE b.n > 1 AND c.leave - max (b.first_leave, min (b.last_enter, c.leave)) > :eps
