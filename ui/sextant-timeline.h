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
 * "show-messages" property, key M). Ctrl + wheel zooms around the pointer, a drag or Shift + wheel
 * pans, the keys +, - and 0 zoom in, out and to the whole run.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SEXTANT_TYPE_TIMELINE (sextant_timeline_get_type ())
G_DECLARE_FINAL_TYPE (SextantTimeline, sextant_timeline, SEXTANT, TIMELINE, GtkWidget)

GtkWidget  *sextant_timeline_new          (void);
/* Shows the trace store at @db_path (NULL: nothing), the whole run. */
void        sextant_timeline_set_store    (SextantTimeline *self,
                                           const char      *db_path);
const char *sextant_timeline_get_store    (SextantTimeline *self);
/* The time range in view, in ticks of the trace's clock. */
void        sextant_timeline_set_view     (SextantTimeline *self,
                                           gint64           t0,
                                           gint64           t1);
void        sextant_timeline_get_view     (SextantTimeline *self,
                                           gint64          *t0,
                                           gint64          *t1);
/* The view in seconds since the run's start; before the store's outline
 * has loaded, it is shown once it has (instead of the whole run). */
void        sextant_timeline_set_view_seconds (SextantTimeline *self,
                                               double           from,
                                               double           to);
void        sextant_timeline_zoom         (SextantTimeline *self,
                                           double           factor,
                                           double           at_fraction);
void        sextant_timeline_zoom_fit     (SextantTimeline *self);
/* Reads the view again: the store changed (an analysis wrote its
 * instances, whose lost time the timeline shades) */
void        sextant_timeline_refresh      (SextantTimeline *self);
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
/* Marks [@t0, @t1) on the row of location @loc (and, fainter, of
 * @peer_loc, SEXTANT_NULL for none): where a pattern instance lost its
 * time. @loc SEXTANT_NULL removes the mark. */
void        sextant_timeline_set_mark     (SextantTimeline *self,
                                           gint64           loc,
                                           gint64           peer_loc,
                                           gint64           t0,
                                           gint64           t1);
/* Shows [@t0, @t1) with room either side, as a marked instance is shown */
void        sextant_timeline_show_range   (SextantTimeline *self,
                                           gint64           t0,
                                           gint64           t1);
/* The colour of the collectives' lines */
const GdkRGBA *sextant_timeline_collective_color (void);
/* The colour of a region category (SextantCategory) in the timeline. */
const GdkRGBA *sextant_timeline_category_color (guint category);

G_END_DECLS
