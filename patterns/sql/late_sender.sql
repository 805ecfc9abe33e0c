-- id: late_sender
-- title: Late Sender
-- parent: mpi_point2point
-- description: A receive was posted before the matching send started, so the
--   receiver sat idle in the receive call until the sender caught up. Every
--   send mode (Send, Bsend, Ssend, Rsend, and their non-blocking forms) counts.
-- criterion: per receive call (MPI_Recv, MPI_Sendrecv, or the MPI_Wait*
--   completing an MPI_Irecv; MPI_Test* are not waiting): idle =
--   min(enter(send call), leave(receive call)) - enter(receive call); an
--   MPI_Waitall / MPI_Waitsome completing several messages counts the
--   largest, once. Instances in wrong order (late_sender_wrong_order) are
--   left out. As Scalasca's mpi_latesender.
-- comment: {location} waited {seconds} in {call} at {site} for {peer}, whose
--   send started {seconds} late. Move work from before the send on {peer} to
--   after it, or post the receive later / overlap it with computation.
-- param: eps = 0 s: waiting at or below this is not an instance
-- param: scalasca_buffer = 0: 1 = a wrong order counts only while the instance
--   is among the last 100 Late Senders of its location, as Scalasca buffers them
SELECT loc, visit, idle AS severity, enter AS begin, enter + idle AS "end", peer_loc, message
FROM receive_wait
WHERE charged AND idle > :eps
  AND NOT (CASE WHEN :scalasca_buffer THEN wo_buffered ELSE coalesce (later_send < send_time, 0) END)
