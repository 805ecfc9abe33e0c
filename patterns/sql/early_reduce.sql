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
-- (the call's context, the sextant_ columns, comes with each row: the engine
-- need not look the call up)
-- from collective_visit (trace/schema-1.sql), every member of a blocking
-- collective with its call and the collective's latest enter
SELECT loc, visit, min (last_enter, leave) - enter AS severity,
       enter AS begin, min (last_enter, leave) AS "end", last_loc AS peer_loc, collective,
       region AS sextant_region, path AS sextant_path, scl AS sextant_scl, context AS sextant_context,
       enter AS sextant_enter, leave AS sextant_leave
FROM collective_visit
WHERE kind IN ('REDUCE', 'GATHER', 'GATHERV') AND loc = root_loc AND visit IS NOT NULL
  AND min (last_enter, leave) - enter > :eps
