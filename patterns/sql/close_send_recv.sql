-- id: close_send_recv
-- title: Close Send and Receive
-- parent: mpi_point2point
-- description: A process sends to a peer and right after receives from the
--   same peer (or the other way round): MPI_Sendrecv would run both
--   directions at once over full-duplex links.
-- criterion: on one location, a blocking MPI_Send to j followed by a blocking
--   MPI_Recv from j with enter(Recv) - leave(Send) < distance; severity = the
--   shorter of the two calls, the most a combined MPI_Sendrecv can save.
-- comment: {location} sends to and then receives from {peer} at {site}
--   ({seconds} could overlap). Use MPI_Sendrecv, if the receive buffer does
--   not depend on the sent data.
-- param: distance = 0.00001 s: the largest gap between the two calls
-- param: eps = 0 s: savings at or below this are not instances
WITH sends AS (
  SELECT m.send_loc AS loc, m.recv_loc AS peer, v.id AS visit, v.enter, v.leave, m.id AS message
  FROM message AS m JOIN visit AS v ON v.id = m.send_visit
  WHERE m.send_mode = 'BLOCKING' AND m.recv_loc IS NOT NULL
),
recvs AS (
  SELECT m.recv_loc AS loc, m.send_loc AS peer, v.id AS visit, v.enter, v.leave
  FROM message AS m JOIN visit AS v ON v.id = m.recv_visit
  WHERE m.recv_mode = 'BLOCKING' AND m.send_loc IS NOT NULL
)
SELECT s.loc, s.visit, min (s.leave - s.enter, r.leave - r.enter) AS severity,
       s.enter AS begin, r.leave AS "end", s.peer AS peer_loc, s.message
FROM sends AS s
JOIN recvs AS r ON r.loc = s.loc AND r.peer = s.peer AND r.visit > s.visit
 AND r.enter >= s.leave AND r.enter - s.leave < :distance
WHERE min (s.leave - s.enter, r.leave - r.enter) > :eps
  AND NOT EXISTS (SELECT 1 FROM visit AS o WHERE o.loc = s.loc AND o.id > s.visit AND o.id < r.visit
                  AND o.depth <= (SELECT depth FROM visit WHERE id = s.visit))
