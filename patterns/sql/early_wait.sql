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
-- early_wait_op (docs/schema.md, computed in C) holds, per wait call, the
-- operations the former GROUP BY over every completed operation could take:
-- the one that qualifies under the eager limit and has no qualifying one
-- before it in the call's order (receives, the first posted (then the
-- lowest sender) only; then sends, by message id).
-- The locations' labels are read once, not once per instance.
WITH labels AS MATERIALIZED (SELECT loc, label FROM location_label),
best AS (
  SELECT loc, wait, wenter, wleave, wleave - wenter AS severity, message, peer, side,
         dt + :latency + bytes * 1.0 * :resolution / :bandwidth
            + CASE WHEN peer_enter > own_enter THEN peer_enter - own_enter ELSE 0 END AS o_d,
         wenter - own_enter AS distance
  FROM early_wait_op
  WHERE (sync OR bytes >= :eager_limit) AND (earlier_bytes IS NULL OR earlier_bytes < :eager_limit)
)
SELECT best.loc AS loc, wait AS visit, severity, wenter AS begin, wleave AS "end", peer AS peer_loc, message,
       printf ('%s waited %s in its wait for a %s posted %.1f µs before; the optimal distance between '
               || 'the two calls is %.1f µs: move the wait later, with independent work in between.',
               l.label,
               printf ('%.1f µs', severity * 1e6 / :resolution), side,
               distance * 1e6 / :resolution, o_d * 1e6 / :resolution) AS comment
FROM best LEFT JOIN labels AS l ON l.loc = best.loc
WHERE severity > :eps
