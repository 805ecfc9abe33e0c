-- id: late_request
-- title: Late Request
-- parent: onecoll
-- description: A relay picked up its broadcast request only some time after
--   the parent had set the request flag: the polling delay Or of the RMA
--   broadcast, added once per tree level.
-- criterion: per relay of a onecoll broadcast (window, sequence number): idle
--   = enter of the relay - leave of the parent's onecoll_put_request to the
--   rank relayed for (the flag is visible by then). The relay is
--   onecoll_broadcaster_relay on the rank's Broadcaster or on its thread
--   waiting in onecoll, or onecoll_help_relay on the root, which relays for a
--   rank that has not picked its request up. The delay comes before the
--   relay's call: charged to no call, the relay is its example_visit.
-- comment: {location} started relaying {seconds} after {peer} had posted the
--   request. Poll faster (adaptive polling), keep a thread of each rank in
--   onecoll_bcast_flush/test, or use fewer tree levels (linear for small p).
-- param: eps = 0 s: delays at or below this are not instances
SELECT c.loc, c.visit AS example_visit, c.enter - p.leave AS severity, p.leave AS begin, c.enter AS "end",
       -- the peer: the parent that posted the request, or the rank the root
       -- relayed for (the one that was late)
       CASE WHEN c.region = 'onecoll_help_relay'
            THEN (SELECT min (x.loc) FROM location_rank AS x WHERE x.rank = c.peer)
            ELSE p.loc END AS peer_loc,
       CASE WHEN c.region = 'onecoll_help_relay'
            THEN printf ('The root relayed a broadcast request for rank %d %.1f µs after it was posted: '
                         || 'no thread of that rank was polling. Keep a thread of each rank in '
                         || 'onecoll_bcast_flush/test, or poll faster.',
                         c.peer, (c.enter - p.leave) * 1e6 / :resolution) END AS comment
FROM onecoll_region AS c
JOIN location_rank AS cr ON cr.loc = c.loc
JOIN onecoll_region AS p ON p.region = 'onecoll_put_request' AND p.win = c.win AND p.seq = c.seq
  -- a rank's own relay names its parent as peer; the root's help names the
  -- rank it relays for
  AND p.peer = CASE WHEN c.region = 'onecoll_help_relay' THEN c.peer ELSE cr.rank END
JOIN location_rank AS pr ON pr.loc = p.loc AND (c.region = 'onecoll_help_relay' OR pr.rank = c.peer)
WHERE c.region IN ('onecoll_broadcaster_relay', 'onecoll_help_relay') AND c.enter - p.leave > :eps
