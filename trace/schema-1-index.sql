-- schema-1-index.sql: indexes of schema version 1, created after the bulk load
-- (building them once over sorted data is several times faster than keeping
-- them up to date row by row).
--
-- SPDX-License-Identifier: GPL-3.0-or-later

CREATE INDEX rma_op_loc             ON rma_op (loc, issue_time);
CREATE INDEX lock_loc               ON lock (loc, acquire_time);
CREATE INDEX metric_value_loc       ON metric_value (loc, time);
CREATE INDEX thread_event_loc       ON thread_event (loc, time);

-- The timeline's reads of one-sided communication (trace/sextant-lod-reader.c):
-- the operations issued in a view, the longest one (how far before a view
-- one can have been issued: an index on the expression answers max () at
-- once), the operations completed in a view (the flushes that completed
-- them) or never completed, and the synchronisation records and window
-- locks by time. Without them each view scanned the whole table.
CREATE INDEX rma_op_issue           ON rma_op (issue_time);
CREATE INDEX rma_op_span            ON rma_op ((complete_time - issue_time));
CREATE INDEX rma_op_complete        ON rma_op (complete_time);
CREATE INDEX rma_sync_time          ON rma_sync (time);
CREATE INDEX lock_acquire           ON lock (acquire_time);
CREATE INDEX lock_release           ON lock (release_time);

-- The summaries of an analysis (analyze, report): each pattern's sums by
-- location, by call path and by call site read that pattern's rows of
-- pattern_aggregate, which the analysis writes after the load (the index
-- grows with them). Without it each of the three queries scanned every
-- pattern's rows, once for every pattern.
CREATE INDEX pattern_aggregate_pattern ON pattern_aggregate (pattern);
