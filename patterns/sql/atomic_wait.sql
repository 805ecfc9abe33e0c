-- id: atomic_wait
-- title: Wait in Atomic Operations
-- parent: mpi_rma_communication
-- description: Time an origin waits for one-sided atomic operations
--   (MPI_Fetch_and_op, MPI_Compare_and_swap, MPI_Get_accumulate,
--   MPI_Accumulate) to complete: each is a round trip to the target, so
--   fine-grained atomics serialise on the network.
-- criterion: per atomic operation with a completion record: idle =
--   completion - issue (../shared/spec/patterns.md 5.2.7) inside the call
--   that completes it, charged to that call: completion - max(issue, its
--   enter) (an operation completed by a later flush was waited for in the
--   flush, not between the calls).
-- comment: {location} waited {seconds} for an atomic operation on {peer}
--   completed in {call} at {site}. Batch the updates, or use larger, fewer
--   operations.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH ops AS (
  SELECT o.loc AS loc, v.id AS visit, max (o.issue_time, v.enter) AS begin, o.complete_time AS "end",
         o.target_loc AS peer_loc
  FROM rma_op AS o
  JOIN visit AS v ON v.id = coalesce (o.complete_visit, o.visit)
  WHERE o.kind = 'ATOMIC' AND o.complete_time IS NOT NULL
)
SELECT loc, visit, "end" - begin AS severity, begin, "end", peer_loc
FROM ops
WHERE "end" - begin > :eps
