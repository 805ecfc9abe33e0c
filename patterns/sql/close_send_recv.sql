-- id: close_send_recv
-- title: Close Send and Receive
-- parent: mpi_point2point
-- description: A process sends to a peer and right after receives from the
--   same peer: MPI_Sendrecv would run both directions at once over
--   full-duplex links.
-- criterion: on one location, a blocking MPI_Send to j (j another location)
--   whose next point-to-point call is a blocking MPI_Recv from j, with no other
--   call between them and enter(Recv) - leave(Send) < distance; severity = the
--   shorter of the two calls, the most a combined MPI_Sendrecv can save.
-- comment: {location} sends to and then receives from {peer} at {site}
--   ({seconds} could overlap). Use MPI_Sendrecv, if the receive buffer does
--   not depend on the sent data.
-- param: distance = 0.00001 s: the largest gap between the two calls
-- param: eps = 0 s: savings at or below this are not instances
WITH calls AS (
  -- blocking sends and receives of each location, in call order
  SELECT m.send_loc AS loc, m.recv_loc AS peer, v.id AS visit, v.enter, v.leave, v.depth,
         m.id AS message, 'send' AS kind
  FROM message AS m JOIN visit AS v ON v.id = m.send_visit
  WHERE m.send_mode = 'BLOCKING' AND m.recv_loc IS NOT NULL AND m.recv_time IS NOT NULL
  UNION ALL
  SELECT m.recv_loc, m.send_loc, v.id, v.enter, v.leave, v.depth, m.id, 'recv'
  FROM message AS m JOIN visit AS v ON v.id = m.recv_visit
  WHERE m.recv_mode = 'BLOCKING' AND m.send_loc IS NOT NULL AND m.send_time IS NOT NULL
),
pairs AS (
  SELECT c.*,
         lead (kind) OVER w AS next_kind, lead (peer) OVER w AS next_peer, lead (visit) OVER w AS next_visit,
         lead (enter) OVER w AS next_enter, lead (leave) OVER w AS next_leave
  FROM calls AS c WINDOW w AS (PARTITION BY loc ORDER BY visit)
)
SELECT loc, visit, min (leave - enter, next_leave - next_enter) AS severity,
       enter AS begin, next_leave AS "end", peer AS peer_loc, message
FROM pairs AS s
WHERE kind = 'send' AND next_kind = 'recv' AND next_peer = peer AND loc != peer
  AND next_enter >= leave AND next_enter - leave < :distance
  AND min (leave - enter, next_leave - next_enter) > :eps
  AND NOT EXISTS (SELECT 1 FROM visit AS o WHERE o.loc = s.loc AND o.id > s.visit AND o.id < s.next_visit
                  AND o.depth <= s.depth)
