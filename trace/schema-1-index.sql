-- schema-1-index.sql: indexes of schema version 1, created after the bulk load
-- (building them once over sorted data is several times faster than keeping
-- them up to date row by row).
--
-- SPDX-License-Identifier: GPL-3.0-or-later

CREATE INDEX rma_op_loc             ON rma_op (loc, issue_time);
CREATE INDEX lock_loc               ON lock (loc, acquire_time);
CREATE INDEX metric_value_loc       ON metric_value (loc, time);
CREATE INDEX thread_event_loc       ON thread_event (loc, time);
