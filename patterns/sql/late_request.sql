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
WITH onecoll AS (
  -- onecoll's regions with the broadcast they belong to (recorder attributes)
  SELECT v.id AS visit, v.loc AS loc, v.enter AS enter, v.leave AS leave, r.name AS region,
         max (CASE WHEN a.name = 'onecoll window' THEN va.value END) AS win,
         max (CASE WHEN a.name = 'onecoll sequence' THEN va.value END) AS seq,
         max (CASE WHEN a.name = 'onecoll root' THEN va.value END) AS root,
         max (CASE WHEN a.name = 'onecoll peer' THEN va.value END) AS peer
  FROM visit_attribute AS va
  JOIN attribute AS a ON a.id = va.attribute
  JOIN visit AS v ON v.id = va.visit
  JOIN region AS r ON r.id = v.region
  WHERE a.name LIKE 'onecoll %'
  GROUP BY v.id
),
rank_of AS (
  -- the rank of every location's process (onecoll runs on a copy of MPI_COMM_WORLD)
  SELECT l.id AS loc, cm.rank AS rank
  FROM location AS l
  JOIN location AS m ON m.location_group = l.location_group
  JOIN comm_member AS cm ON cm.loc = m.id
  JOIN comm AS c ON c.id = cm.comm AND c.name = 'MPI_COMM_WORLD'
)
SELECT c.loc, c.visit, c.enter - p.leave AS severity, p.leave AS begin, c.enter AS "end", p.loc AS peer_loc
FROM onecoll AS c
JOIN rank_of AS cr ON cr.loc = c.loc
JOIN onecoll AS p ON p.region = 'onecoll_put_request' AND p.win = c.win AND p.seq = c.seq AND p.peer = cr.rank
JOIN rank_of AS pr ON pr.loc = p.loc AND pr.rank = c.peer
WHERE c.region = 'onecoll_broadcaster_relay' AND c.enter - p.leave > :eps
