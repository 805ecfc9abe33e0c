-- id: wait_at_fence
-- title: Wait at Fence
-- parent: mpi_rma_sync_active
-- description: Time spent in MPI_Win_fence waiting for the last process of the window to arrive: imbalance in the access epoch.
-- criterion: the n-th RMA collective of kind BARRIER (MPI_Win_fence) of each
--   member of a window is instance n of that window; per member: idle =
--   min(latest enter, own leave) - own enter, on the enclosing MPI call.
--   As Scalasca's mpi_rma_wait_at_fence.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, the
--   last to reach the fence. Balance the work between fences, or use passive-target synchronisation (locks, flushes) for the exchange.
-- param: eps = 0 s: waiting at or below this is not an instance
SELECT loc, visit, min (last_enter, leave) - enter AS severity,
       enter AS begin, min (last_enter, leave) AS "end", last_loc AS peer_loc
FROM rma_collective_call
WHERE detail = 'BARRIER' AND members > 1 AND min (last_enter, leave) - enter > :eps
