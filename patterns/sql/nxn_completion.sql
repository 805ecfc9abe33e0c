-- id: nxn_completion
-- title: N x N Completion
-- parent: mpi_collective
-- description: Time spent in an N x N collective after the first process
--   has left it: the collective's own completion cost.
-- criterion: per member of a blocking Allgather(v), Allreduce, Alltoall or
--   Reduce_scatter(_block) that sends or receives data, with begin and end its
--   MPI_COLLECTIVE_BEGIN / END records: if the earliest end is after the
--   latest begin (full overlap), every member synchronizes, latest = the
--   latest begin; otherwise only the members that receive and began before
--   the latest-beginning sender, and that sender (the lowest rank on a tie),
--   latest = its begin. idle = own end - max(earliest end of the
--   synchronizing members, min(latest, own end)). Alltoallv/w are not
--   analysed. As Scalasca's mpi_nxn_completion.
-- comment: {location} spent {seconds} in {call} at {site} after the collective
--   had completed elsewhere.
-- param: eps = 0 s: times at or below this are not instances
-- (the call's context, the sextant_ columns, comes with each row: the engine
-- need not look the call up)
-- from collective_visit (trace/schema-1.sql), every member of a blocking
-- collective with the latest begin and earliest end of those with data
WITH members AS (
  SELECT collective, loc, visit, begin AS b, "end" AS e, sends, receives, latest_begin, earliest_end,
         region, path, scl, context, enter, leave
  FROM collective_visit
  WHERE kind IN ('ALLGATHER', 'ALLGATHERV', 'ALLREDUCE', 'ALLTOALL', 'REDUCE_SCATTER', 'REDUCE_SCATTER_BLOCK')
    AND (sends OR receives)
),
partial AS MATERIALIZED (
  -- the members of the collectives without full overlap (rare)
  SELECT * FROM members WHERE earliest_end <= latest_begin
),
latest_sender AS (
  -- the sender that began last, the lowest rank in the communicator on a tie
  SELECT collective, latest, loc
  FROM (SELECT m.collective AS collective, m.b AS latest, m.loc AS loc,
               row_number () OVER (PARTITION BY m.collective ORDER BY m.b DESC, coalesce (r.rank, m.loc)) AS n
        FROM partial AS m
        JOIN collective AS c ON c.id = m.collective
        LEFT JOIN comm_member AS r ON r.comm = c.comm AND r.loc = m.loc
        WHERE m.sends)
  WHERE n = 1
),
synchronizing AS (
  SELECT m.*, s.latest AS latest FROM partial AS m JOIN latest_sender AS s USING (collective)
  WHERE (m.receives AND m.b < s.latest) OR (m.sends AND m.loc = s.loc)
),
bounds AS (
  SELECT collective, min (e) AS earliest_end FROM synchronizing GROUP BY collective
)
-- full overlap: every member synchronizes, latest = the latest begin
SELECT loc, visit, e - max (earliest_end, min (latest_begin, e)) AS severity,
       max (earliest_end, min (latest_begin, e)) AS begin, e AS "end", collective,
       region AS sextant_region, path AS sextant_path, scl AS sextant_scl, context AS sextant_context,
       enter AS sextant_enter, leave AS sextant_leave
FROM members
WHERE earliest_end > latest_begin AND e - max (earliest_end, min (latest_begin, e)) > :eps
UNION ALL
SELECT s.loc, s.visit, s.e - max (b.earliest_end, min (s.latest, s.e)) AS severity,
       max (b.earliest_end, min (s.latest, s.e)) AS begin, s.e AS "end", s.collective,
       s.region, s.path, s.scl, s.context, s.enter, s.leave
FROM synchronizing AS s JOIN bounds AS b USING (collective)
WHERE s.e - max (b.earliest_end, min (s.latest, s.e)) > :eps
