-- id: large_messages
-- title: Large Messages
-- parent: hot_spots
-- description: Sends whose messages are much larger than the trace's typical
--   message: candidates for splitting, overlapping or compressing.
-- criterion: per send call whose message has more than factor times the
--   average message size of the trace (and at least min_bytes): severity =
--   the time in the send call (the completing wait for non-blocking sends).
-- comment: {location} sent a large message at {site}; the send took {seconds}.
--   Overlap it with computation (MPI_Isend early, wait late) or split it.
-- param: factor = 10: how many times the average size makes a message large
-- param: min_bytes = 65536 bytes: smaller messages are never large
WITH avg_size AS (SELECT avg (bytes) AS a FROM message WHERE bytes IS NOT NULL AND send_loc IS NOT NULL)
SELECT m.send_loc AS loc, v.id AS visit, v.leave - v.enter AS severity, v.enter AS begin, v.leave AS "end",
       m.recv_loc AS peer_loc, m.id AS message
FROM message AS m, avg_size
JOIN visit AS v ON v.id = coalesce (m.send_complete_visit, m.send_visit)
WHERE m.bytes > :factor * avg_size.a AND m.bytes >= :min_bytes
