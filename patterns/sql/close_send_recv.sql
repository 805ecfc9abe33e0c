-- id: close_send_recv
-- title: Close Send and Receive
-- parent: diagnostics_point2point
-- description: A process sends to a peer and right after receives from the
--   same peer: MPI_Sendrecv would run both directions at once over
--   full-duplex links.
-- criterion: on one location, a blocking MPI_Send to j (j another location)
--   whose next point-to-point call is a blocking MPI_Recv from j, with no other
--   call between them and enter(Recv) - leave(Send) < distance; severity = the
--   shorter of the two calls, the most a combined MPI_Sendrecv can save,
--   charged to the send (the instance is the send call).
-- comment: {location} sends to and then receives from {peer} at {site};
--   {seconds} could overlap. Use MPI_Sendrecv, if the receive buffer does
--   not depend on the sent data.
-- param: distance = 0.00001 s: the largest gap between the two calls
-- param: eps = 0 s: savings at or below this are not instances
WITH sends AS (
  -- blocking sends to another location whose message was received
  SELECT m.id AS message, m.send_loc AS loc, m.recv_loc AS peer, v.id AS visit, v.enter, v.leave, v.depth
  FROM message AS m JOIN visit AS v ON v.id = m.send_visit
  WHERE m.send_mode = 'BLOCKING' AND m.recv_loc IS NOT NULL AND m.recv_time IS NOT NULL
    AND m.recv_loc != m.send_loc
),
recvs AS MATERIALIZED (
  -- the calls that received a message blocking, and from whom
  SELECT m.recv_visit AS visit, m.send_loc AS peer FROM message AS m
  WHERE m.recv_mode = 'BLOCKING' AND m.send_loc IS NOT NULL AND m.send_time IS NOT NULL
),
pairs AS (
  -- the next call on the send's level: the first later visit of the location
  -- no deeper than the send (visit ids are in enter order per location)
  SELECT s.*, (SELECT o.id FROM visit AS o
               WHERE o.loc = s.loc AND o.id > s.visit AND o.depth <= s.depth
               ORDER BY o.id LIMIT 1) AS next_visit
  FROM sends AS s
)
SELECT p.loc, p.visit, min (p.leave - p.enter, n.leave - n.enter) AS severity,
       p.enter AS begin, p.leave AS "end", p.peer AS peer_loc, p.message
FROM pairs AS p JOIN visit AS n ON n.id = p.next_visit
WHERE n.enter >= p.leave AND n.enter - p.leave < :distance
  AND min (p.leave - p.enter, n.leave - n.enter) > :eps
  AND EXISTS (SELECT 1 FROM recvs AS r WHERE r.visit = n.id AND r.peer = p.peer)
