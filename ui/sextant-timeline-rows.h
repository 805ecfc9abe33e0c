/*
 * sextant-timeline-rows.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows of the timeline, as a person reading a run wants them: grouped
 * node > process > thread, sorted by rank and thread number (natural
 * order: "OpenMP thread 2" before "OpenMP thread 10"), without the
 * locations that have no events, with the onecoll Broadcaster sessions of
 * one process merged into one row ("MPI Rank 3 / Broadcaster"), metric-only
 * locations as counter rows (or left out when they recorded no values),
 * never as empty rows.
 *
 * The model is a tree built once per session (the store's locations, read
 * on the caller's thread: 10-14 ms for 4096 locations), flattened into the
 * list of rows shown:
 *
 * - a node row only where the trace has several nodes: its label is the
 *   node's name; collapsed, it draws the aggregate of all its locations;
 *   expanded, its processes follow it;
 * - a process with one shown location is one row ("MPI Rank 3");
 * - a process with several: its first row is its master thread (the
 *   location with the smallest thread number), carrying the expander;
 *   expanded, its other threads follow it, one level deeper; collapsed,
 *   that row draws the aggregate of all its threads ("MPI Rank 3 (4
 *   threads)"), as Vampir's process rows do;
 * - hidden rows (the user's "Hide") and rows whose full label (@tooltip:
 *   node / process / thread, so that a process's name keeps its threads)
 *   does not contain the filter text (case-insensitive; a group stays when
 *   one of its children matches) are left out of the list.
 *
 * A row draws the sum of its locations' buckets divided by the number of
 * threads they are (@n_threads: the share of the threads' time, so a full
 * row means every thread was busy; a Broadcaster's sessions are one
 * thread). Main thread only. The signal "changed" (no arguments) is
 * emitted when the shown list changes: expand, collapse, hide, filter.
 */
#pragma once

#include <gio/gio.h>

#include "sextant-store.h"

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_TIMELINE_ROW_LOCATION,   /* one location, or several merged (Broadcaster sessions) */
  SEXTANT_TIMELINE_ROW_PROCESS,    /* a process's master thread, with its other threads under it */
  SEXTANT_TIMELINE_ROW_NODE,       /* a node: its processes under it */
  SEXTANT_TIMELINE_ROW_COUNTER,    /* a metric of a location, drawn as a plot of its values */
} SextantTimelineRowKind;

/**
 * SextantTimelineRow:
 * @kind: what the row is
 * @key: stable for the session (survives collapse, hide, filter): use it
 *   to expand, hide or find a row again
 * @depth: 0 for the top level, one more for each level under it
 * @label: what the label column shows (the row's own name when indented:
 *   "OpenMP thread 2"; the full label otherwise)
 * @tooltip: the full label ("vm / MPI Rank 3 / OpenMP thread 2")
 * @locs: (element-type gint64): the locations whose buckets the row draws,
 *   now: one for a location row; the merged sessions; every location under
 *   a collapsed process or node (less the hidden ones); the master thread
 *   alone for an expanded process; none for an expanded node (a heading:
 *   its processes' rows follow it)
 * @expandable: the row has rows under it (node; process with threads)
 * @expanded: they are shown
 * @rank: the MPI rank of its process, -1 when it has none
 * @metric: SEXTANT_TIMELINE_ROW_COUNTER: the metric (metric_member id) it
 *   plots, on @locs' only location; -1 otherwise
 * @unit: COUNTER: the metric's unit ("bytes", "#", ""), never %NULL
 * @n_threads: what the sum of @locs' buckets is divided by: the threads
 *   the row stands for, where the merged sessions of a Broadcaster count
 *   as one thread (they ran one after the other, never at once); 1 for a
 *   location or counter row, 0 for an expanded node (no @locs)
 *
 * Owned by the model; valid until its next "changed".
 */
typedef struct
{
  SextantTimelineRowKind kind;
  guint       key;
  guint       depth;
  const char *label;
  const char *tooltip;
  GArray     *locs;
  gboolean    expandable;
  gboolean    expanded;
  int         rank;
  gint64      metric;
  const char *unit;
  guint       n_threads;
} SextantTimelineRow;

#define SEXTANT_TYPE_TIMELINE_ROWS (sextant_timeline_rows_get_type ())
G_DECLARE_FINAL_TYPE (SextantTimelineRows, sextant_timeline_rows, SEXTANT, TIMELINE_ROWS, GObject)

/* Reads @store's locations, nodes, processes and metrics; every group
 * expanded, nothing hidden. */
SextantTimelineRows      *sextant_timeline_rows_new          (SextantStore        *store,
                                                              GError             **error);
/* The rows shown, in order */
guint                     sextant_timeline_rows_get_n_rows   (SextantTimelineRows *self);
const SextantTimelineRow *sextant_timeline_rows_get_row      (SextantTimelineRows *self,
                                                              guint                position);
/* The shown row that draws @loc (a collapsed group's row, for a location
 * under it; a location that recorded only metrics: its first counter
 * row); -1 when @loc is hidden, filtered out or has no row. O(1) */
int                       sextant_timeline_rows_row_of_loc   (SextantTimelineRows *self,
                                                              gint64               loc);
/* The shown row with @key, or -1 */
int                       sextant_timeline_rows_find         (SextantTimelineRows *self,
                                                              guint                key);
void                      sextant_timeline_rows_set_expanded (SextantTimelineRows *self,
                                                              guint                key,
                                                              gboolean             expanded);
/* Every group at once (the label column's context menu) */
void                      sextant_timeline_rows_expand_all   (SextantTimelineRows *self,
                                                              gboolean             expanded);
void                      sextant_timeline_rows_set_hidden   (SextantTimelineRows *self,
                                                              guint                key,
                                                              gboolean             hidden);
guint                     sextant_timeline_rows_get_n_hidden (SextantTimelineRows *self);
void                      sextant_timeline_rows_show_all     (SextantTimelineRows *self);
/* @filter: (nullable): text the labels must contain; NULL or "": all */
void                      sextant_timeline_rows_set_filter   (SextantTimelineRows *self,
                                                              const char          *filter);
const char               *sextant_timeline_rows_get_filter   (SextantTimelineRows *self);
/* Every location that has a row when nothing is hidden, collapsed or
 * filtered, in row order (the whole-machine mode draws these; counter
 * rows' locations are not in it). (element-type gint64) (transfer none) */
GArray                   *sextant_timeline_rows_get_all_locations (SextantTimelineRows *self);

G_END_DECLS
