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
SELECT loc, visit, max (idle) AS severity, enter AS begin, enter + idle AS "end", peer_loc, message
FROM receive_wait
WHERE idle > 0 AND (later_send IS NULL OR later_send >= send_time)
GROUP BY visit
HAVING severity > :eps
