-- id: late_broadcast
-- title: Late Broadcast
-- parent: mpi_collective
-- description: In a one-to-all collective (MPI_Bcast, MPI_Scatter,
--   MPI_Scatterv, and onecoll's RMA broadcast) the root arrived after the
--   others, who waited for it.
-- criterion: per non-root member: idle = min(root's enter, own leave) - own
--   enter, on the MPI call; as Scalasca's mpi_latebroadcast. For a onecoll
--   broadcast the non-root's wait is its onecoll_flush of that broadcast
--   (window, sequence number) and the root's arrival its onecoll_bcast.
-- comment: {location} waited {seconds} in {call} at {site} for the root {peer}
--   to arrive. Reduce the root's work before the broadcast, or overlap it with
--   MPI_Ibcast.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH calls AS (
  SELECT cm.collective AS collective, cm.loc AS loc, c.root_loc AS root_loc,
         v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.kind IN ('BCAST', 'SCATTER', 'SCATTERV') AND c.nonblocking = 0 AND c.members > 1
)
SELECT c.loc, c.visit, min (r.enter, c.leave) - c.enter AS severity,
       c.enter AS begin, min (r.enter, c.leave) AS "end", r.loc AS peer_loc, c.collective
FROM calls AS c JOIN calls AS r ON r.collective = c.collective AND r.loc = c.root_loc
WHERE c.loc != c.root_loc AND min (r.enter, c.leave) - c.enter > :eps
UNION ALL
SELECT f.loc, f.visit, min (b.enter, f.leave) - f.enter AS severity, f.enter AS begin,
       min (b.enter, f.leave) AS "end", b.loc AS peer_loc, NULL AS collective
FROM onecoll_region AS f
JOIN location_rank AS fr ON fr.loc = f.loc
JOIN onecoll_region AS b ON b.region = 'onecoll_bcast' AND b.win = f.win AND b.seq = f.seq
JOIN location_rank AS br ON br.loc = b.loc AND br.rank = b.root
WHERE f.region = 'onecoll_flush' AND fr.rank != b.root AND min (b.enter, f.leave) - f.enter > :eps
