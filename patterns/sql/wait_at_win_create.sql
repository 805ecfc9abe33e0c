-- id: wait_at_win_create
-- title: Wait at Window Create
-- parent: mpi_mgmt_win
-- description: Time spent creating a window waiting for the last process to arrive.
-- criterion: the n-th RMA collective of kind CREATE_HANDLE (MPI_Win_create or MPI_Win_allocate) of each
--   member of a window is instance n of that window; per member: idle =
--   min(latest enter, own leave) - own enter, on the enclosing MPI call.
--   As Scalasca's mpi_rma_wait_at_create.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, the
--   last to reach the window creation. Create windows once, before the imbalanced phase.
-- param: eps = 0 s: waiting at or below this is not an instance
SELECT loc, visit, min (last_enter, leave) - enter AS severity,
       enter AS begin, min (last_enter, leave) AS "end", last_loc AS peer_loc
FROM rma_collective_call
WHERE detail = 'CREATE_HANDLE' AND members > 1 AND min (last_enter, leave) - enter > :eps
