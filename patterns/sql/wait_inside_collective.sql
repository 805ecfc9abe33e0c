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
  -- two orders per collective: by arrival and by departure. The others'
  -- earliest enter is the second arrival's for the first in, the first
  -- arrival's for everybody else (likewise for the latest leave); lead()
  -- and first_value() over a frame up to the row read one row each.
  SELECT c.*,
         row_number () OVER by_enter AS first_in,
         first_value (enter) OVER by_enter AS min1,
         lead (enter) OVER by_enter AS next_enter,
         row_number () OVER by_leave AS last_out,
         first_value (leave) OVER by_leave AS max1,
         lead (leave) OVER by_leave AS next_leave
  FROM calls AS c
  WINDOW by_enter AS (PARTITION BY collective ORDER BY enter, loc ROWS UNBOUNDED PRECEDING),
         by_leave AS (PARTITION BY collective ORDER BY leave DESC, loc ROWS UNBOUNDED PRECEDING)
),
alone AS (
  SELECT loc, visit, collective, enter, leave,
         max (0, CASE WHEN first_in = 1 THEN next_enter ELSE min1 END - enter)
         + max (0, leave - CASE WHEN last_out = 1 THEN next_leave ELSE max1 END) AS severity
  FROM ranked
)
SELECT loc, visit, severity, enter AS begin, leave AS "end", collective
FROM alone WHERE severity > :eps
