-- id: lock_contention
-- title: Lock Contention
-- parent: locks
-- description: Time spent acquiring a lock while another location held it:
--   MPI window locks (per window and target; shared locks conflict only with
--   exclusive ones), OpenMP and POSIX thread locks, and the onecoll
--   shared-memory locks recorded as thread locks (per lock id).
-- criterion: per acquisition: idle = acquire - (the lock request, else the
--   enter of the call that acquired), counted when another location's
--   conflicting hold overlaps that interval. As Scalasca's
--   mpi_rma_lock_competition / omp_lock_contention / pthread_lock_contention.
-- comment: {location} waited {seconds} for a lock in {call} at {site} while
--   {peer} held it. Hold locks for shorter stretches, use shared locks for
--   readers, or partition the data among more locks.
-- param: eps = 0 s: waiting at or below this is not an instance
-- The holder is found by the window function sextant_lock_holder over each
-- lock's acquisitions in acquire order (trace/sextant-sql-functions.c):
-- among other locations' acquisitions before this one, the one released
-- last, if after the request. Linear in the lock events after the sort.
WITH held AS (
  SELECT lk.id, lk.loc, lk.family, lk.win, lk.target, lk.lock_id, lk.lock_type,
         lk.acquire_time, lk.release_time, lk.acquire_visit,
         coalesce (lk.request_time, v.enter, lk.acquire_time) AS asked
  FROM lock AS lk LEFT JOIN visit AS v ON v.id = lk.acquire_visit
  WHERE lk.acquire_time IS NOT NULL
),
waits AS (
  SELECT loc, acquire_visit, acquire_time, asked,
         sextant_lock_holder (loc, acquire_time, release_time, asked,
                              family = 'RMA' AND lock_type IS 'SHARED')
           OVER (PARTITION BY family, CASE WHEN family = 'RMA' THEN win END,
                              CASE WHEN family = 'RMA' THEN target ELSE lock_id END
                 ORDER BY acquire_time, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS holder
  FROM held
)
SELECT loc, acquire_visit AS visit, acquire_time - asked AS severity, asked AS begin,
       acquire_time AS "end", holder AS peer_loc
FROM waits
WHERE holder IS NOT NULL AND acquire_time - asked > :eps
