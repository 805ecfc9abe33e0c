-- id: wait_at_nxn
-- title: Wait at N x N
-- parent: mpi_collective
-- description: Time spent in an all-to-all collective (MPI_Allreduce,
--   MPI_Allgather(v), MPI_Alltoall(v/w), MPI_Reduce_scatter(_block)) waiting
--   for the last process to arrive: nobody can finish before everybody started.
-- criterion: per member of a blocking N x N collective: idle = min(latest enter of all
--   members, own leave) - own enter. As Scalasca's mpi_wait_nxn.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, the
--   last to arrive. Balance the work before the collective.
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
WHERE kind IN ('ALLGATHER', 'ALLGATHERV', 'ALLREDUCE', 'ALLTOALL', 'ALLTOALLV', 'ALLTOALLW', 'REDUCE_SCATTER', 'REDUCE_SCATTER_BLOCK')
  AND visit IS NOT NULL AND min (last_enter, leave) - enter > :eps
