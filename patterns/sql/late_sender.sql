-- id: late_sender
-- title: Late Sender
-- parent: mpi_point2point
-- description: A receive was posted before the matching send started, so the
--   receiver sat idle in the receive call until the sender caught up. Every
--   send mode (Send, Bsend, Ssend, Rsend, and their non-blocking forms) counts.
-- criterion: per receive call (MPI_Recv, or the MPI_Wait* completing an
--   MPI_Irecv; MPI_Test* are not waiting): idle = min(enter(send call),
--   leave(receive call)) - enter(receive call); a call completing several
--   messages counts the largest; instances re-classified as Wrong Order
--   (late_sender_wrong_order) are left out. As Scalasca's mpi_latesender.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, whose
--   send started {seconds} late. Move work from before the send on {peer} to
--   after it, or post the receive later / overlap it with computation.
-- param: eps = 0 s: waiting at or below this is not an instance
WITH ls AS (
  SELECT rv.loc AS loc, rv.id AS visit, rv.enter AS enter, m.id AS message, m.send_loc AS peer_loc,
         m.send_time AS send_time,
         min (sv.enter, rv.leave) - rv.enter AS idle,
         -- the earliest send among the messages this location receives later
         -- (strictly: completions with the same timestamp are one Waitall)
         -- (a running minimum from the last receive backwards: cheaper than a
         -- frame that shrinks from the front)
         min (m.send_time) OVER (PARTITION BY m.recv_loc ORDER BY m.recv_time DESC
                                 RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS later_send
  FROM message AS m
  JOIN visit AS rv ON rv.id = m.recv_visit
  JOIN visit AS sv ON sv.id = m.send_visit
  JOIN region AS r ON r.id = rv.region
  WHERE r.name NOT LIKE 'MPI_Test%'
)
SELECT loc, visit, max (idle) AS severity, enter AS begin, enter + idle AS "end", peer_loc, message
FROM ls
WHERE idle > 0 AND (later_send IS NULL OR later_send >= send_time)
GROUP BY visit
HAVING severity > :eps
