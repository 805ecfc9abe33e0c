-- id: early_wait
-- title: Early Wait
-- parent: diagnostics_point2point
-- description: The MPI_Wait* of a non-blocking send or receive was called
--   before the operation could complete: the time in the wait is lost, and
--   the gap between the non-blocking call and its wait was too short to hide
--   the transfer. Non-blocking sends count only above eager_limit (below it
--   they complete locally) and never for MPI_Ibsend.
-- criterion: per wait call (MPI_Wait*, not MPI_Test*) completing a non-blocking operation: idle =
--   leave(wait) - enter(wait) > eps; the optimal distance between the
--   non-blocking call and its wait is O_D = dT + T_send if the partner's call
--   started first, else (enter(partner call) - enter(own call)) + dT + T_send,
--   with dT the duration of the non-blocking call and T_send = latency +
--   bytes / bandwidth (../shared/spec/patterns.md 4.3).
-- param: eps = 0 s: waits at or below this are not instances
-- param: eager_limit = 65536 bytes: non-blocking standard sends below this size complete locally
-- param: latency = 0.000002 s: network latency used for T_send
-- param: bandwidth = 5000000000 bytes: bytes per second used for T_send
WITH ops AS (
  -- receiver side: MPI_Irecv ... MPI_Wait
  SELECT m.id AS message, m.recv_loc AS loc, w.id AS wait, w.enter AS wenter, w.leave AS wleave,
         p.enter AS own_enter, p.leave - p.enter AS dt, s.enter AS peer_enter, m.send_loc AS peer,
         m.bytes AS bytes, 'receive' AS side
  FROM message AS m
  JOIN visit AS w ON w.id = m.recv_visit
  JOIN visit AS p ON p.id = m.recv_post_visit
  JOIN visit AS s ON s.id = m.send_visit
  JOIN region AS wr ON wr.id = w.region
  WHERE m.recv_mode = 'NONBLOCKING' AND wr.name NOT LIKE 'MPI_Test%'
  UNION ALL
  -- sender side: MPI_Isend/Issend/Irsend ... MPI_Wait
  SELECT m.id, m.send_loc, w.id, w.enter, w.leave, p.enter, p.leave - p.enter,
         coalesce (r.enter, 0), m.recv_loc, m.bytes, 'send'
  FROM message AS m
  JOIN visit AS w ON w.id = m.send_complete_visit
  JOIN visit AS p ON p.id = m.send_visit
  JOIN region AS c ON c.id = p.region
  JOIN region AS wr ON wr.id = w.region
  LEFT JOIN visit AS r ON r.id = coalesce (m.recv_post_visit, m.recv_visit)
  WHERE m.send_mode = 'NONBLOCKING' AND c.name != 'MPI_Ibsend' AND wr.name NOT LIKE 'MPI_Test%'
    AND (c.name = 'MPI_Issend' OR m.bytes >= :eager_limit)
),
best AS (
  SELECT loc, wait, wenter, wleave, max (wleave - wenter) AS severity, message, peer, side,
         dt + :latency + bytes * 1.0 * :resolution / :bandwidth
            + CASE WHEN peer_enter > own_enter THEN peer_enter - own_enter ELSE 0 END AS o_d,
         wenter - own_enter AS distance
  FROM ops GROUP BY wait
)
SELECT loc, wait AS visit, severity, wenter AS begin, wleave AS "end", peer AS peer_loc, message,
       printf ('%s waited %s in its wait for a %s posted %.1f µs before; the optimal distance between '
               || 'the two calls is %.1f µs: move the wait later, with independent work in between.',
               (SELECT label FROM location_label WHERE loc = best.loc),
               printf ('%.1f µs', severity * 1e6 / :resolution), side,
               distance * 1e6 / :resolution, o_d * 1e6 / :resolution) AS comment
FROM best
WHERE severity > :eps
