/*
 * sextant-timeline.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run as a timeline: a row per location, each pixel column coloured by
 * the region category that took most of its time (MPI red, user code
 * green, ...) and faded where the location was idle, under a ruler in
 * seconds since the run's start. It draws from the level-of-detail pyramid
 * (sextant-lod-reader.h), read on a worker thread for the time range in
 * view, so any zoom of any trace costs the same: at most two buckets per
 * pixel and location. Where a view has few enough messages in flight, a
 * line goes from each send to its receive, and a collective is a line
 * across its members' rows where the last of them arrived (the
 * "show-messages" property). The time the pattern instances lost is
 * shaded darker ("show-lost"), and the session's chosen instance is
 * marked on its row and its peer's.
 *
 * It shows its session's view: Ctrl + wheel zooms the session's view
 * around the pointer, a drag or Shift + wheel pans it (the window's keys
 * and buttons change it too).
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-session.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_TIMELINE (sextant_timeline_get_type ())
G_DECLARE_FINAL_TYPE (SextantTimeline, sextant_timeline, SEXTANT, TIMELINE, GtkWidget)

GtkWidget      *sextant_timeline_new          (void);
void            sextant_timeline_set_session  (SextantTimeline *self,
                                               SextantSession  *session);
SextantSession *sextant_timeline_get_session  (SextantTimeline *self);
/* TRUE when what is drawn is the data of the current view and width (the
 * "ready" property; screenshots and tests wait for it). */
gboolean    sextant_timeline_get_ready    (SextantTimeline *self);
/* Where row @row (the n-th location with events) draws its data, in the
 * widget's coordinates; FALSE if there is no such row. */
gboolean    sextant_timeline_get_row_area (SextantTimeline *self,
                                           guint            row,
                                           graphene_rect_t *area);
/* The x coordinate of time @t in the current view. */
double      sextant_timeline_x_for_time   (SextantTimeline *self,
                                           gint64           t);
/* The colour of the collectives' lines */
const GdkRGBA *sextant_timeline_collective_color (void);
/* The colour of a region category (SextantCategory) in the timeline. */
const GdkRGBA *sextant_timeline_category_color (guint category);

G_END_DECLS
