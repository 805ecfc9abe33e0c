-- id: atomic_wait
-- title: Wait in Atomic Operations
-- parent: mpi_rma_communication
-- description: Time an origin waits for one-sided atomic operations
--   (MPI_Fetch_and_op, MPI_Compare_and_swap, MPI_Get_accumulate,
--   MPI_Accumulate) to complete: each is a round trip to the target, so
--   fine-grained atomics serialise on the network.
-- criterion: per atomic operation with a completion record: idle =
--   completion - issue (../shared/spec/patterns.md 5.2.7).
-- comment: {location} waited {seconds} for an atomic operation on {peer}
--   issued in {call} at {site}. Batch the updates, or use larger, fewer
--   operations.
-- param: eps = 0 s: waiting at or below this is not an instance
SELECT o.loc AS loc, o.visit AS visit, o.complete_time - o.issue_time AS severity,
       o.issue_time AS begin, o.complete_time AS "end", o.target_loc AS peer_loc
FROM rma_op AS o
WHERE o.kind = 'ATOMIC' AND o.complete_time IS NOT NULL AND o.complete_time - o.issue_time > :eps
