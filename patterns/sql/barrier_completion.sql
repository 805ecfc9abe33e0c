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
-- (the call's context, the sextant_ columns, comes with each row: the engine
-- need not look the call up)
-- from collective_visit (trace/schema-1.sql), every member of a blocking
-- collective with its call and the collective's latest enter and earliest leave
SELECT loc, visit, leave - max (first_leave, min (last_enter, leave)) AS severity,
       max (first_leave, min (last_enter, leave)) AS begin, leave AS "end", collective,
       region AS sextant_region, path AS sextant_path, scl AS sextant_scl, context AS sextant_context,
       enter AS sextant_enter, leave AS sextant_leave
FROM collective_visit
WHERE kind = 'BARRIER' AND visit IS NOT NULL AND leave - max (first_leave, min (last_enter, leave)) > :eps
