-- id: wrong_order
-- title: Messages in Wrong Order
-- parent: diagnostics_point2point
-- description: A process receives messages from one sender in another order
--   than they were sent, and waits for a later message while an earlier one
--   is already there. The earlier messages have to be buffered meanwhile.
--   The spec's pattern (../shared/spec/patterns.md 4.2). The same waiting
--   time is also late_sender_wrong_order (same source), Scalasca's view of
--   it, so the two overlap.
-- criterion: per receive call (MPI_Recv, or the MPI_Wait* completing an
--   MPI_Irecv; not MPI_Test*) of a message m from sender j that waited
--   (Late Sender idle = min(enter(send call), leave(receive call)) -
--   enter(receive call) > eps), such that the location receives, in a later
--   call (MPI_Test* included), a message from j whose send is earlier than
--   m's; severity = that idle; a call completing several messages counts the
--   largest.
-- comment: {location} waited {seconds} in {call} at {site} for a message from
--   {peer} while an earlier message from {peer} had already arrived, which it
--   receives later. Receive the messages in the order they are sent (reorder
--   the receives or the sends): that also needs less buffer memory.
-- param: eps = 0 s: waiting at or below this is not an instance
SELECT loc, visit, max (idle) AS severity, enter AS begin, enter + idle AS "end", peer_loc, message
FROM receive_wait
WHERE idle > 0 AND later_send_same < send_time
GROUP BY visit
HAVING severity > :eps
