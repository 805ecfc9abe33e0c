-- id: late_sender_wrong_order
-- title: Late Sender, Wrong Order
-- parent: late_sender
-- description: A Late Sender whose receiver waited for one message while a
--   message it receives later had already been sent: receiving in another
--   order than the peers send makes the wait. Same source: the later message
--   comes from the same sender; different source: from another one.
-- criterion: a Late Sender instance (see late_sender: the receive a call's
--   waiting is charged to) on the receive of message m, such that the
--   location receives, in a later call (MPI_Test* included), a message whose
--   send record is earlier than m's. As Scalasca's mpi_latesender_wo (both
--   of its children, same and different source); without its limit of 100
--   buffered instances unless scalasca_buffer = 1.
-- comment: {location} waited {seconds} in {call} at {site} for {peer} although
--   a message it receives later had already been sent. Receive the messages
--   in the order they are sent (MPI_ANY_SOURCE, or reorder the receives).
-- param: eps = 0 s: waiting at or below this is not an instance
-- param: scalasca_buffer = 0: 1 = a wrong order counts only while the instance
--   is among the last 100 Late Senders of its location, as Scalasca buffers them
SELECT loc, visit, idle AS severity, enter AS begin, enter + idle AS "end", peer_loc, message
FROM receive_wait
WHERE charged AND idle > :eps
  AND CASE WHEN :scalasca_buffer THEN wo_buffered ELSE coalesce (later_send < send_time, 0) END
