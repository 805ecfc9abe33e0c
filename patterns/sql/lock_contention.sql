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
WITH held AS (
  SELECT lk.id, lk.loc, lk.family, lk.win, lk.target, lk.lock_id, lk.lock_type,
         lk.acquire_time, lk.release_time, lk.acquire_visit,
         coalesce (lk.request_time, v.enter, lk.acquire_time) AS asked
  FROM lock AS lk LEFT JOIN visit AS v ON v.id = lk.acquire_visit
  WHERE lk.acquire_time IS NOT NULL
),
waits AS (
  SELECT a.*,
         (SELECT h.loc FROM held AS h
          WHERE h.loc != a.loc AND h.family = a.family
            AND (CASE WHEN a.family = 'RMA' THEN h.win IS a.win AND h.target IS a.target
                      ELSE h.lock_id IS a.lock_id END)
            AND (a.family != 'RMA' OR a.lock_type IS NOT 'SHARED' OR h.lock_type IS NOT 'SHARED')
            AND h.acquire_time < a.acquire_time
            AND coalesce (h.release_time, a.acquire_time) > a.asked
          ORDER BY h.release_time DESC LIMIT 1) AS holder
  FROM held AS a
)
SELECT loc, acquire_visit AS visit, acquire_time - asked AS severity, asked AS begin,
       acquire_time AS "end", holder AS peer_loc
FROM waits
WHERE holder IS NOT NULL AND acquire_time - asked > :eps
