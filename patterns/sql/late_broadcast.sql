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
-- from collective_visit (trace/schema-1.sql), every member of a blocking
-- collective with its call and the root's enter
SELECT loc, visit, min (root_enter, leave) - enter AS severity,
       enter AS begin, min (root_enter, leave) AS "end", root_loc AS peer_loc, collective
FROM collective_visit
WHERE kind IN ('BCAST', 'SCATTER', 'SCATTERV') AND visit IS NOT NULL AND loc != root_loc
  AND min (root_enter, leave) - enter > :eps
UNION ALL
SELECT f.loc, f.visit, min (b.enter, f.leave) - f.enter AS severity, f.enter AS begin,
       min (b.enter, f.leave) AS "end", b.loc AS peer_loc, NULL AS collective
FROM onecoll_region AS f
JOIN location_rank AS fr ON fr.loc = f.loc
JOIN onecoll_region AS b ON b.region = 'onecoll_bcast' AND b.win = f.win AND b.seq = f.seq
JOIN location_rank AS br ON br.loc = b.loc AND br.rank = b.root
WHERE f.region = 'onecoll_flush' AND fr.rank != b.root AND min (b.enter, f.leave) - f.enter > :eps
