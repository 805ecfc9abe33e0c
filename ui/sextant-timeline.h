/*
 * sextant-timeline.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The run as a timeline: a row per location, grouped node > process >
 * thread (sextant-timeline-rows.h), each pixel column a stack of the time
 * shares of the region categories (MPI red, user code green, ...) or of
 * the regions' own colours ("color-mode"), under a ruler fixed above the
 * scrolled rows. It draws from the level-of-detail pyramid
 * (sextant-lod-reader.h), read on a worker thread for the time range and
 * the rows in view, so any zoom of any trace costs the same. Over the
 * rows, layers (sextant-timeline-layers.h): the time the pattern
 * instances lost ("show-lost"), messages, collectives and one-sided
 * operations ("show-messages": lines where they stay apart, bundles and
 * density bands where they would not), the chosen instance's outline.
 * With more rows than the pane has pixels, the whole-machine mode
 * ("whole-machine") squeezes every location into the pane.
 *
 * It shows its session's view: Ctrl + wheel zooms the session's view
 * around the pointer, a drag or Shift + wheel pans it, Shift + drag (or a
 * drag on the ruler) zooms to a range; a click chooses what is under it
 * (the session's item and collective). Put it in a GtkScrolledWindow.
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-session.h"
#include "sextant-timeline-layers.h"
#include "sextant-timeline-rows.h"

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
SextantTimelineRows *sextant_timeline_get_rows (SextantTimeline *self);
/* Where shown row @row (sextant_timeline_rows_get_row) draws its data, in
 * the widget's coordinates (scrolled: above or below the widget when out
 * of view); FALSE if there is no such row, or in the whole-machine mode. */
gboolean    sextant_timeline_get_row_area (SextantTimeline *self,
                                           guint            row,
                                           graphene_rect_t *area);
/* The x coordinate of time @t in the current view. */
double      sextant_timeline_x_for_time   (SextantTimeline *self,
                                           gint64           t);
void        sextant_timeline_scroll_to_location (SextantTimeline *self,
                                                 gint64           loc);
void        sextant_timeline_scroll_to_locations (SextantTimeline *self,
                                                  gint64           loc,
                                                  gint64           peer);
void        sextant_timeline_zoom_to_range      (SextantTimeline *self,
                                                 gint64           t0,
                                                 gint64           t1);
void        sextant_timeline_popup_row_menu     (SextantTimeline *self,
                                                 guint            row,
                                                 double           x,
                                                 double           y);
guint       sextant_timeline_get_categories     (SextantTimeline *self);
GPtrArray  *sextant_timeline_dup_regions        (SextantTimeline *self,
                                                 guint          **categories);
char      **sextant_timeline_dup_patterns       (SextantTimeline *self,
                                                 char          ***titles);
int         sextant_timeline_get_content_height (SextantTimeline *self);
gboolean    sextant_timeline_get_whole_machine  (SextantTimeline *self);
void        sextant_timeline_set_whole_machine  (SextantTimeline *self,
                                                 gboolean         machine);

G_END_DECLS
