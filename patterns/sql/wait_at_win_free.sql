-- id: wait_at_win_free
-- title: Wait at Window Free
-- parent: mpi_mgmt_win
-- description: Time spent freeing a window waiting for the last process to arrive.
-- criterion: the n-th RMA collective of kind DESTROY_HANDLE (MPI_Win_free) of each
--   member of a window is instance n of that window; per member: idle =
--   min(latest enter, own leave) - own enter, on the enclosing MPI call.
--   As Scalasca's mpi_rma_wait_at_free.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, the
--   last to reach the window release. Free windows where all processes are balanced, or keep them for reuse.
-- param: eps = 0 s: waiting at or below this is not an instance
SELECT loc, visit, min (last_enter, leave) - enter AS severity,
       enter AS begin, min (last_enter, leave) AS "end", last_loc AS peer_loc
FROM rma_collective_call
WHERE detail = 'DESTROY_HANDLE' AND members > 1 AND min (last_enter, leave) - enter > :eps
