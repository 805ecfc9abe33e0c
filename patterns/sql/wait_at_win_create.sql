-- id: wait_at_win_create
-- title: Wait at Window Create
-- parent: mpi_rma
-- description: Time spent creating a window waiting for the last process to arrive.
-- criterion: the n-th RMA collective of kind CREATE_HANDLE (MPI_Win_create or MPI_Win_allocate) of each
--   member of a window is instance n of that window; per member: idle =
--   min(latest enter, own leave) - own enter, on the enclosing MPI call.
--   As Scalasca's mpi_rma_wait_at_create.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, the
--   last to reach the window creation. Create windows once, before the imbalanced phase.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH calls AS (
  SELECT s.loc AS loc, s.win AS win, v.id AS visit, v.enter AS enter, v.leave AS leave,
         row_number () OVER (PARTITION BY s.loc, s.win ORDER BY s.time) AS n
  FROM rma_sync AS s JOIN visit AS v ON v.id = s.visit
  WHERE s.kind = 'RMA_COLLECTIVE' AND s.detail = 'CREATE_HANDLE'
),
last AS (
  SELECT DISTINCT win, n,
         max (enter) OVER w AS last_enter, count (*) OVER w AS members,
         first_value (loc) OVER (w ORDER BY enter DESC, loc ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_loc
  FROM calls WINDOW w AS (PARTITION BY win, n)
)
SELECT c.loc, c.visit, min (l.last_enter, c.leave) - c.enter AS severity,
       c.enter AS begin, min (l.last_enter, c.leave) AS "end", l.last_loc AS peer_loc
FROM calls AS c JOIN last AS l USING (win, n)
WHERE l.members > 1 AND min (l.last_enter, c.leave) - c.enter > :eps
