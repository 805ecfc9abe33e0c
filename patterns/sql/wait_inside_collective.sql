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
-- (the call's context, the sextant_ columns, comes with each row: the engine
-- need not look the call up)
-- from collective_visit (trace/schema-1.sql), every member of a blocking
-- collective with its call and the others' earliest enter and latest leave; a member
-- alone in its collective has no others: NULL, no instance
WITH alone AS (
  SELECT loc, visit, collective, enter, leave, region, path, scl, context,
         max (0, min (leave, others_enter) - enter) + max (0, leave - max (enter, others_leave)) AS severity
  FROM collective_visit
  WHERE visit IS NOT NULL
)
SELECT loc, visit, severity, enter AS begin, leave AS "end", collective,
       region AS sextant_region, path AS sextant_path, scl AS sextant_scl, context AS sextant_context,
       enter AS sextant_enter, leave AS sextant_leave
FROM alone WHERE severity > :eps
