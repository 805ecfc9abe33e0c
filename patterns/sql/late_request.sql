-- id: late_request
-- title: Late Request
-- parent: onecoll
-- description: A relay's Broadcaster picked up its broadcast request only
--   some time after the parent had set the request flag: the polling delay
--   Or of the RMA broadcast, added once per tree level.
-- criterion: per relay of a onecoll broadcast (window, sequence number): idle
--   = enter of the child's onecoll_broadcaster_relay - leave of the parent's
--   onecoll_put_request to that child (the flag is visible by then).
-- comment: the Broadcaster of {location} started relaying {seconds} after
--   {peer} had posted the request. Poll faster (adaptive polling), or use
--   fewer tree levels (linear for small p).
-- param: eps = 0 s: delays at or below this are not instances
SELECT c.loc, c.visit, c.enter - p.leave AS severity, p.leave AS begin, c.enter AS "end", p.loc AS peer_loc
FROM onecoll_region AS c
JOIN location_rank AS cr ON cr.loc = c.loc
JOIN onecoll_region AS p ON p.region = 'onecoll_put_request' AND p.win = c.win AND p.seq = c.seq AND p.peer = cr.rank
JOIN location_rank AS pr ON pr.loc = p.loc AND pr.rank = c.peer
WHERE c.region = 'onecoll_broadcaster_relay' AND c.enter - p.leave > :eps
