-- id: wait_inside_collective
-- title: Wait inside a Collective
-- parent: diagnostics_collective
-- description: Time a process spends alone inside a collective operation:
--   before any other member has arrived, or after all others have left.
-- criterion: per member of a blocking collective with several members:
--   idle = max(0, min(own leave, earliest enter of the others) - own enter)
--   + max(0, own leave - max(own enter, latest leave of the others))
--   (../shared/spec/patterns.md 5.1.8), within the call: a member that left
--   before any other arrived was alone for its whole call, no longer.
-- comment: {location} was alone in {call} at {site} for {seconds}.
-- param: eps = 0 s: times at or below this are not instances
WITH calls AS MATERIALIZED (
  SELECT cm.collective AS collective, cm.loc AS loc, v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.nonblocking = 0 AND c.members > 1
),
-- Only the first member in and the last one out can be alone: the others'
-- earliest enter is the second earliest for the first in and the earliest
-- for everybody else (likewise for the latest leave). Grouping finds them
-- (SQLite takes a bare column from the row of the only min () or max ());
-- with a tie the second equals the first and nobody was alone.
firsts AS MATERIALIZED (
  SELECT collective, min (enter) AS min1, loc AS first_loc FROM calls GROUP BY collective
),
lasts AS MATERIALIZED (
  SELECT collective, max (leave) AS max1, loc AS last_loc FROM calls GROUP BY collective
),
bounds AS MATERIALIZED (
  SELECT f.collective AS collective, f.min1 AS min1, f.first_loc AS first_loc, l.max1 AS max1,
         l.last_loc AS last_loc,
         min (CASE WHEN c.loc != f.first_loc THEN c.enter END) AS min2,
         max (CASE WHEN c.loc != l.last_loc THEN c.leave END) AS max2
  FROM firsts AS f
  JOIN lasts AS l ON l.collective = f.collective
  JOIN calls AS c ON c.collective = f.collective
  GROUP BY f.collective
),
alone AS (
  SELECT c.loc AS loc, c.visit AS visit, c.collective AS collective, c.enter AS enter, c.leave AS leave,
         max (0, min (c.leave, CASE WHEN c.loc = b.first_loc THEN b.min2 ELSE b.min1 END) - c.enter)
         + max (0, c.leave - max (c.enter, CASE WHEN c.loc = b.last_loc THEN b.max2 ELSE b.max1 END))
           AS severity
  FROM calls AS c JOIN bounds AS b ON b.collective = c.collective
)
SELECT loc, visit, severity, enter AS begin, leave AS "end", collective
FROM alone WHERE severity > :eps
