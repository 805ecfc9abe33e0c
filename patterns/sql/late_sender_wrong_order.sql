-- id: late_sender_wrong_order
-- title: Late Sender, Wrong Order
-- parent: late_sender
-- description: A Late Sender whose receiver waited for one message while a
--   message it receives later had already been sent: receiving in another
--   order than the peers send makes the wait. Same source: the later message
--   comes from the same sender; different source: from another one.
-- criterion: a Late Sender instance (see late_sender) on a receive of
--   message m, such that a later receive on the same location matches a
--   message whose send record is earlier than m's. As Scalasca's
--   mpi_latesender_wo (without its limit of 100 buffered instances).
-- comment: {location} waited {seconds} in {call} at {site} for {peer} although
--   a message it receives later had already been sent. Receive the messages
--   in the order they are sent (MPI_ANY_SOURCE, or reorder the receives).
-- param: eps = 0 s: waiting at or below this is not an instance
SELECT loc, visit, max (idle) AS severity, enter AS begin, enter + idle AS "end", peer_loc, message
FROM receive_wait
WHERE idle > 0 AND later_send < send_time
GROUP BY visit
HAVING severity > :eps
