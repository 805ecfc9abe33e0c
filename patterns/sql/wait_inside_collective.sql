-- id: wait_inside_collective
-- title: Wait inside a Collective
-- parent: mpi_collective
-- description: Time a process spends alone inside a collective operation:
--   before any other member has arrived, or after all others have left.
-- criterion: per member of a blocking collective with several members:
--   idle = max(0, earliest enter of the others - own enter) + max(0, own
--   leave - latest leave of the others) (../shared/spec/patterns.md 5.1.8).
-- comment: {location} was alone in {call} at {site} for {seconds}.
-- param: eps = 0 s: times at or below this are not instances
WITH calls AS (
  SELECT cm.collective AS collective, cm.loc AS loc, v.id AS visit, v.enter AS enter, v.leave AS leave
  FROM collective AS c
  JOIN collective_member AS cm ON cm.collective = c.id
  JOIN visit AS v ON v.id = cm.visit
  WHERE c.nonblocking = 0 AND c.members > 1
),
alone AS (
  SELECT c.loc, c.visit, c.collective, c.enter, c.leave,
         max (0, (SELECT min (o.enter) FROM calls AS o WHERE o.collective = c.collective AND o.loc != c.loc)
                 - c.enter)
         + max (0, c.leave
                 - (SELECT max (o.leave) FROM calls AS o WHERE o.collective = c.collective AND o.loc != c.loc))
           AS severity
  FROM calls AS c
)
SELECT loc, visit, severity, enter AS begin, leave AS "end", collective
FROM alone WHERE severity > :eps
