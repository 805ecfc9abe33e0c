-- id: late_receiver
-- title: Late Receiver
-- parent: mpi_point2point
-- description: A send could not complete until the receiver posted the
--   matching receive (synchronous or rendezvous protocol): the sender waited.
-- criterion: per send-completing call: the blocking MPI_Send or MPI_Ssend,
--   or the MPI_Wait / MPI_Waitany / MPI_Waitall / MPI_Waitsome completing a
--   non-blocking send (MPI_Bsend, MPI_Rsend, MPI_Sendrecv and MPI_Test* never
--   wait for the receiver): if leave(send call) > enter(receive-posting call)
--   (MPI_Recv or MPI_Irecv), idle = enter(receive-posting call) - enter(send
--   call); a call completing several sends counts the largest, once. An
--   MPI_Waitall / MPI_Waitsome that also completes a receive with Late Sender
--   time (see late_sender) is charged to that instead, not here. Sends
--   smaller than eager_limit (other than MPI_Ssend/MPI_Issend) complete
--   locally and are never instances; with eager_limit = 0 only the timing
--   decides, as in Scalasca's mpi_latereceiver.
-- comment: {location} waited {seconds} in {call} at {site} until {peer} posted
--   its receive. Post the receive earlier (MPI_Irecv before the work), or
--   send with MPI_Isend and wait later.
-- param: eps = 0 s: waiting at or below this is not an instance
-- param: eager_limit = 0 bytes: standard sends below this size are buffered by
--   the MPI library (0 = judge by timing only)
WITH late_senders AS MATERIALIZED (
  -- the MPI_Waitall / MPI_Waitsome calls charged with Late Sender time: a
  -- receive they complete waited (see late_sender)
  SELECT DISTINCT w.id AS visit
  FROM message AS m
  JOIN visit AS w ON w.id = m.recv_visit
  JOIN region AS wr ON wr.id = w.region
  JOIN visit AS s ON s.id = m.send_visit
  WHERE wr.name IN ('MPI_Waitall', 'MPI_Waitsome') AND min (s.enter, w.leave) > w.enter
)
SELECT sv.loc AS loc, sv.id AS visit, max (rv.enter - sv.enter) AS severity,
       sv.enter AS begin, rv.enter AS "end", m.recv_loc AS peer_loc, m.id AS message
FROM message AS m
JOIN visit AS sv ON sv.id = coalesce (m.send_complete_visit, m.send_visit)
JOIN visit AS rv ON rv.id = coalesce (m.recv_post_visit, m.recv_visit)
JOIN visit AS call ON call.id = m.send_visit
JOIN region AS r ON r.id = sv.region
JOIN region AS c ON c.id = call.region
WHERE sv.leave > rv.enter
  AND rv.enter > sv.enter
  AND (r.name IN ('MPI_Send', 'MPI_Ssend', 'MPI_Wait', 'MPI_Waitany')
       OR (r.name IN ('MPI_Waitall', 'MPI_Waitsome') AND sv.id NOT IN late_senders))
  AND (c.name IN ('MPI_Ssend', 'MPI_Issend') OR m.bytes >= :eager_limit)
GROUP BY sv.id
HAVING severity > :eps
