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
-- late_receiver_send (docs/schema.md, computed in C) holds, per call that
-- completes sends and waited for a receiver (an MPI_Waitall / MPI_Waitsome
-- with Late Sender time left out), its messages from the largest severity
-- down that can be the call's largest under the eager limit: the one that
-- qualifies and has no qualifying one before it.
SELECT loc, visit, severity, begin, "end", peer_loc, message
FROM late_receiver_send
WHERE (sync OR bytes >= :eager_limit) AND (beaten_bytes IS NULL OR beaten_bytes < :eager_limit)
  AND severity > :eps
