/*
 * sextant-timeline-layers.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline draws over its rows, one layer per kind of thing, in
 * the manner of Sysprof's chart layers: the time the pattern instances
 * lost, message lines, collectives, one-sided operations (RMA), a metric's
 * counter plot. Each layer is a function of the data a frame read
 * (sextant-lod-reader.h) and of a SextantTimelineGeometry that says where
 * the view's times and the rows' locations fall on screen, so that it can
 * be drawn (and tested) without the widget. Main thread, inside a
 * snapshot; each costs O(items in the frame + pixels), never O(locations).
 *
 * The colours live here too: the categories' (Vampir's, as tools of the
 * field use them: MPI red, user green), a stable colour per region (the
 * legend's "By region" mode), and a style per pattern kind for lost time.
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-lod-reader.h"

G_BEGIN_DECLS

/**
 * SextantTimelineGeometry:
 * @t0: the view's first tick
 * @t1: its end (exclusive), > @t0
 * @plot_x: where @t0 is drawn
 * @plot_width: pixels from @t0 to @t1
 * @top: the rows' area, below the ruler: its first y
 * @bottom: its last y (exclusive); layers clip to [@top, @bottom)
 * @row_of: where location @loc is drawn: the top and height of its row;
 *   FALSE when it has no row in view (hidden, filtered, scrolled out). In
 *   whole-machine mode a row can be one pixel high, or shared by several
 *   locations
 * @row_data: for @row_of
 *
 * The frame's items are given in the store's ticks and locations; a layer
 * asks @row_of for each end, and draws what has at least one end in view
 * (a line to a row out of view goes off the area's edge).
 */
typedef struct
{
  gint64  t0;
  gint64  t1;
  float   plot_x;
  float   plot_width;
  float   top;
  float   bottom;
  gboolean (*row_of) (gpointer  row_data,
                      gint64    loc,
                      float    *y,
                      float    *height);
  gpointer row_data;
} SextantTimelineGeometry;

static inline double
sextant_timeline_geometry_x (const SextantTimelineGeometry *g,
                             gint64                         t)
{
  return g->plot_x + (double)(t - g->t0) / (double)(g->t1 - g->t0) * g->plot_width;
}

/* Colours ---------------------------------------------------------------- */

typedef enum
{
  SEXTANT_TIMELINE_COLOR_BY_CATEGORY,   /* MPI red, user green, ... */
  SEXTANT_TIMELINE_COLOR_BY_REGION,     /* a stable colour per region (function group) */
} SextantTimelineColorMode;

const GdkRGBA *sextant_timeline_category_color   (guint        category);
/* The colour of region @name in the "By region" mode: the same name gets
 * the same colour in every trace and session (a hash into a palette of
 * distinguishable hues); MPI_* regions keep shades of the MPI red so that
 * communication still reads as such. */
void           sextant_timeline_region_color     (const char  *name,
                                                  guint        category,
                                                  GdkRGBA     *color);
/* The colour of the collectives' lines */
const GdkRGBA *sextant_timeline_collective_color (void);
/* @color as a pixel of the images the timeline paints itself: native
 * ARGB32, premultiplied (GDK_MEMORY_DEFAULT, Cairo's ARGB32) */
guint32        sextant_timeline_premultiplied    (const GdkRGBA *color);

/* Layers ----------------------------------------------------------------- */

/* Pixels a layer paints into by hand (premultiplied ARGB32, @width x
 * @height from the widget's (@x, @top)), under what is drawn after */
typedef struct
{
  guint32 *pixels;
  int      x;
  int      top;
  int      width;
  int      height;
} SextantLayerCanvas;

/* The time lost by pattern instances (@lost: SextantViewLost, sorted by
 * loc then begin), per row the union of the instances' intervals of one
 * pattern kind, in that kind's style: hatched (diagonal stripes, dark on
 * light) over the row for wait states, outlined for others, so that it
 * stays distinct from MPI red underneath it; @patterns gives each
 * pattern number's kind (pattern number -> "late_sender" ...; NULL: one
 * style for all). */
void sextant_timeline_layer_lost        (GtkSnapshot                   *snapshot,
                                         const SextantTimelineGeometry *geometry,
                                         GArray                        *lost,
                                         GHashTable                    *patterns);
/* The same painted into @canvas (the layers' own pixels) */
void sextant_timeline_layer_lost_paint  (SextantLayerCanvas            *canvas,
                                         const SextantTimelineGeometry *geometry,
                                         GArray                        *lost,
                                         GHashTable                    *patterns);
/* The style of a pattern kind, for the legend: its colour, and whether it
 * is hatched */
void sextant_timeline_lost_style        (const char                    *pattern,
                                         GdkRGBA                       *color,
                                         gboolean                      *hatched);

/* Message lines from each send to its receive (@messages:
 * SextantViewMessage). Where they stay apart, one line each; where too
 * many would overlap (more than about one line per 4 pixels of a row's
 * span), those of one pair of rows in one stretch of time become one
 * bundle: a line whose width grows with the log of its count, and where
 * even bundles would cover the rows, a density band (a translucent
 * gradient per row and pixel column, darker where more messages leave)
 * instead of lines, so that the rows under them stay readable; lines
 * toward rows out of view leave the area toward them, or are short stubs
 * in their direction when there are hundreds. @filtered:
 * the messages are a pair's (the pair filter): bolder, in the selection
 * colour. @density (SextantViewMessageDensity, nullable): when the view
 * had too many messages to read one by one, their counts per pair of
 * locations and stretch of time (then @messages is NULL). @canvas
 * (nullable): the single lines are painted into it by hand (Wu's lines,
 * a pixel wide), the rest drawn into @snapshot over it. */
void sextant_timeline_layer_messages    (GtkSnapshot                   *snapshot,
                                         SextantLayerCanvas            *canvas,
                                         const SextantTimelineGeometry *geometry,
                                         GArray                        *messages,
                                         GArray                        *density,
                                         gboolean                       filtered);

/* Collectives (@members: SextantViewMember, grouped by collective): a
 * line across the members' rows where the last of them arrived and a tick
 * where each arrived, while they stay apart; denser, one band per run of
 * collectives closer than a few pixels. @canvas (nullable): painted into
 * it by hand instead. */
void sextant_timeline_layer_collectives (GtkSnapshot                   *snapshot,
                                         SextantLayerCanvas            *canvas,
                                         const SextantTimelineGeometry *geometry,
                                         GArray                        *members);

/* One-sided operations (@ops: SextantViewRma): an arrow from the origin's
 * row at the issue time to the target's row at the completion time (a
 * put or accumulate points at the target, a get back at the origin), in
 * the RMA colour; window synchronisation (@syncs: SextantViewSync: fence,
 * lock/unlock, flush, post/start/complete/wait) as short marks on the
 * row: a bar for a fence, brackets for an access epoch. Bundled like
 * messages when dense. */
void sextant_timeline_layer_rma         (GtkSnapshot                   *snapshot,
                                         const SextantTimelineGeometry *geometry,
                                         GArray                        *ops,
                                         GArray                        *syncs);

/* Lock waits narrower than this many pixels are not drawn */
#define SEXTANT_LOCK_WAIT_MIN_PIXELS 3

/* Lock waits (@waits: SextantLockWait, sextant-store-locks.h): on the
 * holder's row its hold (a bar along the top, a tick at the release), on
 * the waiter's the wait (dashed along the bottom), and a line with a head
 * from the release to the acquisition, in the lock colour (magenta). */
void sextant_timeline_layer_locks       (GtkSnapshot                   *snapshot,
                                         const SextantTimelineGeometry *geometry,
                                         GArray                        *waits);
/* The wait of @loc for @holder_loc (SEXTANT_NULL: any) that ended at
 * @acquired, among @waits (nullable): the hold a lock_contention instance
 * (loc, end, peer) waited for; NULL when none */
const SextantLockWait *sextant_timeline_find_lock_wait (GArray *waits,
                                                         gint64  loc,
                                                         gint64  acquired,
                                                         gint64  holder_loc);

/* A metric's values (@points: SextantCounterPoint, time order) as a plot
 * filling the row from @y to @y + @height: the min-max range of each
 * pixel column shaded, the last value a line; scaled from the plot's
 * minimum to its maximum in view, labelled with the maximum and @unit. */
void sextant_timeline_layer_counter     (GtkSnapshot                   *snapshot,
                                         const SextantTimelineGeometry *geometry,
                                         PangoLayout                   *layout,
                                         float                          y,
                                         float                          height,
                                         GArray                        *points,
                                         const char                    *unit);

G_END_DECLS
