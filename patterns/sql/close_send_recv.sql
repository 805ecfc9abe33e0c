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
-- close_send_recv_pair (docs/schema.md, computed in C) holds the blocking
-- sends to another location whose next call on their level (the first
-- later visit of the location no deeper than the send) entered after the
-- send left and received blocking from the same peer; gap = enter(next call)
-- - leave(send).
SELECT loc, visit, severity, begin, "end", peer_loc, message
FROM close_send_recv_pair
WHERE gap < :distance AND severity > :eps
