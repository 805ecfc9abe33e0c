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
ranked AS (
  SELECT c.*,
         min (enter) OVER w AS min1,
         nth_value (enter, 2) OVER (PARTITION BY collective ORDER BY enter
                                    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS min2,
         max (leave) OVER w AS max1,
         nth_value (leave, 2) OVER (PARTITION BY collective ORDER BY leave DESC
                                    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS max2,
         row_number () OVER (PARTITION BY collective ORDER BY enter, loc) AS first_in,
         row_number () OVER (PARTITION BY collective ORDER BY leave DESC, loc) AS last_out
  FROM calls AS c WINDOW w AS (PARTITION BY collective)
),
alone AS (
  -- the others' earliest enter is the second earliest for the first in, the
  -- earliest for everybody else (likewise for the latest leave)
  SELECT loc, visit, collective, enter, leave,
         max (0, CASE WHEN first_in = 1 THEN min2 ELSE min1 END - enter)
         + max (0, leave - CASE WHEN last_out = 1 THEN max2 ELSE max1 END) AS severity
  FROM ranked
)
SELECT loc, visit, severity, enter AS begin, leave AS "end", collective
FROM alone WHERE severity > :eps
