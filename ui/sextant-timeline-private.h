/*
 * sextant-timeline-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of SextantTimeline:
 * - sextant-timeline.c: the widget, its session, the frames it asks for
 *   as the view and the rows change;
 * - sextant-timeline-layout.c: the rows' geometry and scrolling
 *   (GtkScrollable: only the rows in view are read and drawn), the size;
 * - sextant-timeline-frame.c: the model, a frame (what a view shows) read
 *   on a worker thread for the rows in view;
 * - sextant-timeline-draw.c: the ruler, the labels, the rows (a render
 *   node cached by frame, view and geometry), the whole-machine picture,
 *   and the layers (sextant-timeline-layers.h) over them;
 * - sextant-timeline-input.c: wheel, drags, range zoom, the label
 *   column's expanders and menu, tooltips;
 * - sextant-timeline-click.c: what a click chooses.
 */
#pragma once

#include "sextant-lod-reader.h"
#include "sextant-timeline-layers.h"
#include "sextant-timeline-rows.h"
#include "sextant-timeline.h"

G_BEGIN_DECLS

#define LABEL_MIN      100    /* the label column: its widest label, within these */
#define LABEL_MAX      320
#define RULER_HEIGHT    26
#define ROW_MIN         18    /* a row's height: the pane's share, within these */
#define ROW_MAX         48
#define ROW_GAP          2
#define INDENT          12    /* a level deeper in the label column */
#define LABEL_PAD       12    /* before the expanders: clear of a GtkPaned's handle at the left edge */
#define MIN_PLOT_WIDTH 200

/* The worker's connections and readers, kept from frame to frame (a new
 * connection reads the column tables' directories again): used by one
 * frame at a time, on whatever threads run it, and opened by the first.
 * A frame reads its rows and its lines (messages, collectives, one-sided
 * operations, lost time) on two threads at once, each with its own
 * connection and reader. When the session's generation changes (an
 * analysis wrote to the store) the timeline takes a new Source. */
typedef struct
{
  SextantSession   *session;
  SextantStore     *store;
  SextantLodReader *reader;
  SextantStore     *lines_store;
  SextantLodReader *lines_reader;
} Source;

Source  *_sextant_timeline_source_new     (SextantSession *session);
void     _sextant_timeline_source_release (Source         *source);

/* The buckets of one location in a frame */
typedef struct
{
  gint64  loc;
  GArray *buckets;            /* SextantLodBucket */
} FrameLoc;

/* A counter row's points in a frame */
typedef struct
{
  gint64  loc;
  gint64  metric;
  GArray *points;             /* SextantCounterPoint */
} FrameCounter;

/* A region's time in a frame (the legend's "By region") */
typedef struct
{
  gint64  region;
  gint64  time;
  guint   category;
} FrameRegion;

/* What one view shows, read on a worker thread: the buckets of the rows
 * in view (and a page either side), the lines and marks of the whole
 * view */
typedef struct
{
  gint64     t0;
  gint64     t1;
  int        width;
  guint      level;
  gint64     bucket_ticks;
  gboolean   exact;           /* the visits themselves, past the pyramid */
  guint      generation;      /* of the store's content it was read from */
  GHashTable *locs;           /* location (gint64*) -> FrameLoc */
  GPtrArray *counters;        /* FrameCounter */
  guint      categories;      /* drawn: bit 1 << category */
  GArray    *regions;         /* FrameRegion, the most time first, at most 12 */
  SextantPairFilter *filter;  /* the messages kept, NULL: all */
  GArray    *messages;        /* SextantViewMessage, NULL when too many to draw */
  GArray    *density;         /* SextantViewMessageDensity, when messages is NULL */
  GArray    *members;         /* SextantViewMember, by collective; NULL when too many */
  GArray    *lost;            /* SextantViewLost, by loc then begin; NULL when too many */
  GArray    *rma;             /* SextantViewRma, NULL when too many */
  GArray    *syncs;           /* SextantViewSync, NULL when too many */
  GArray    *locks;           /* SextantLockWait, NULL when too many */
  guint      rows_serial;     /* of the rows it was read for */
  guint      first_row;       /* they: [first_row, last_row) */
  guint      last_row;
  gboolean   machine;         /* the whole-machine mode's */
  gboolean   rows_only;       /* the first of a store: no lines nor lost time yet */
  /* the whole-machine mode's picture */
  guint      n_bands;
  SextantMachineCell *cells;  /* n_bands * width */
  guint      machine_locs;    /* locations in it */
} Frame;

void      _sextant_timeline_frame_free (Frame *frame);

/* What a frame is read for */
typedef struct
{
  Source   *source;
  GArray   *locs;             /* gint64: the buckets' locations */
  GArray   *counters;         /* gint64 pairs: loc, metric */
  guint     rows_serial;
  guint     first_row;
  guint     last_row;
  gboolean  machine;
  gboolean  rows_only;        /* the first frame of a store: the rows at once, the rest next */
  GArray   *machine_locs;     /* gint64: the whole-machine mode's locations, or NULL */
  guint     n_bands;
  gint64    t0;
  gint64    t1;
  int       width;
  guint     generation;
  SextantPairFilter *filter;
} FrameRequest;

void      _sextant_timeline_frame_request_free (FrameRequest *request);
void      _sextant_timeline_read_frame_worker  (GTask        *task,
                                                gpointer      source_object,
                                                gpointer      task_data,
                                                GCancellable *cancellable);

/* Pattern instances whose lost time is shaded, at most */
#define MAX_LOST 20000

/* Likewise for the members of collectives (64 ranks: 250 collectives) */
#define MAX_MEMBERS 16000

/* Messages read one by one for lines (about 4 per pixel column of a
 * 1920-pixel view); a view with more reads their density instead */
#define MAX_MESSAGES 8000

/* The density's entries, at most */
#define MAX_DENSITY 40000

/* One-sided operations and synchronisations drawn, at most */
#define MAX_RMA 8000

/* Lock waits drawn with their holds, at most */
#define MAX_LOCK_WAITS 8000

/* With a pair filter, the messages in flight read to find the pair's (the
 * view is then the pair's span, where others may be many more) */
#define MAX_FILTERED_READ (64 * MAX_MESSAGES)

/* Past the pyramid: the visits are read when a base bucket is this many
 * pixels wide (it holds about 32 events of the busiest location, so a
 * row has at most about 4 events a pixel) */
/* A view's frame is drawn when it has been read; the last one is drawn
 * where its times fall meanwhile only if the read takes longer than this
 * (ms): drawn at once, that picture took the CPU of the threads reading
 * the new one (2 cores), and the new one came a few ms later. */
#define STALE_AFTER_MS 8

#define EXACT_FROM_PIXELS 8

/* The key of the cached render node of the rows: what they depend on */
typedef struct
{
  const Frame *frame;
  gint64       t0;
  gint64       t1;
  int          width;
  int          height;
  double       scroll;
  double       row_height;
  guint        rows_serial;
  gboolean     machine;
  int          color_mode;
  gboolean     merged;      /* the layers are painted into the rows' picture */
} RowsKey;

/* The key of the cached picture of the layers */
typedef struct
{
  RowsKey       rows;
  gboolean      show_messages;
  gboolean      show_lost;
  gconstpointer patterns;
  int           scale;
} LayersKey;

/* The key of the cached node of the labels: what they depend on */
typedef struct
{
  double       scroll;
  double       row_height;
  guint        rows_serial;
  gboolean     machine;
  int          height;
  int          label_width;
  GdkRGBA      fg;
  guint        font_serial;   /* the widget's Pango context's */
} LabelsKey;

struct _SextantTimeline
{
  GtkWidget     parent_instance;

  SextantSession *session;
  GSignalGroup *session_signals;
  SextantTimelineRows *rows;   /* the model's rows */
  guint         rows_serial;   /* bumped at each "changed" */
  Source       *source;        /* g_atomic_rc_box */
  GHashTable   *regions;       /* region id (gint64*) -> name, the session's */
  gint64        t_begin;
  gint64        t_end;         /* exclusive */
  gint64        resolution;    /* ticks per second */
  Frame        *frame;
  char         *error;
  gint64        t0;            /* the view: the session's, as last drawn */
  gint64        t1;
  GCancellable *cancellable;   /* of the frame being read */
  gboolean      reading;
  guint         stale_draw;    /* a timeout: the last frame drawn where it falls, while the view's is read */
  gboolean      ready;
  guint         generation;    /* of the store's content, the session's */

  /* GtkScrollable: the rows scroll under the fixed ruler */
  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  guint         hscroll_policy : 1;
  guint         vscroll_policy : 1;
  double        row_height;    /* ROW_MIN .. ROW_MAX: the pane's share */
  gboolean      machine;       /* the whole-machine mode */
  gboolean      machine_set;   /* by the user (else chosen by the row count) */
  GHashTable   *machine_index; /* location (gint64*) -> its index among every row's */

  /* drawing */
  GskRenderNode *rows_node;    /* the rows, cached */
  RowsKey       rows_key;
  GskRenderNode *layers_node;  /* the layers drawn once per frame and view, cached */
  LayersKey     layers_key;
  GskRenderNode *labels_node;  /* the rows' names, cached (Pango lays them out: 0.5-1 ms) */
  LabelsKey     labels_key;
  gboolean      show_messages;
  gboolean      show_lost;
  SextantTimelineColorMode color_mode;
  int           label_width;   /* the column of the rows' names */
  gint64        mark_loc;      /* SEXTANT_NULL: no mark */
  gint64        mark_peer;
  gint64        mark_t0;
  gint64        mark_t1;
  gint64        selection_loc; /* the session's selection: SEXTANT_NULL, none */
  gint64        selection_time;
  SextantPairFilter *filter;   /* the session's pair filter, NULL: none */
  GHashTable   *patterns;      /* pattern number -> name, of the last analysis */
  GHashTable   *pattern_titles; /* name -> title ("Late Sender"), for the legend */

  /* input */
  double        drag_t0;       /* the view when a drag began */
  double        drag_t1;
  double        pointer_x;     /* where Ctrl + wheel zooms around */
  gboolean      selecting;     /* a range being chosen (Shift + drag, or on the ruler) */
  gboolean      panned;        /* the last press moved past the drag threshold: no click */
  double        range_x0;
  double        range_x1;
  GCancellable *click_cancellable; /* the collective under a click, being found */
};

/* The rows of the row model (none before a session) */
static inline guint
_sextant_timeline_n_rows (SextantTimeline *self)
{
  return self->rows != NULL ? sextant_timeline_rows_get_n_rows (self->rows) : 0;
}

/* Frames (sextant-timeline.c): read the view's, unless it is read or
 * being read */
void     _sextant_timeline_read_frame  (SextantTimeline *self);

/* Layout (sextant-timeline-layout.c) */
void     _sextant_timeline_update_layout (SextantTimeline *self);
void     _sextant_timeline_measure     (GtkWidget       *widget,
                                        GtkOrientation   orientation,
                                        int              for_size,
                                        int             *minimum,
                                        int             *natural,
                                        int             *minimum_baseline,
                                        int             *natural_baseline);
void     _sextant_timeline_size_allocate (GtkWidget     *widget,
                                          int            width,
                                          int            height,
                                          int            baseline);
void     _sextant_timeline_set_vadjustment (SextantTimeline *self,
                                            GtkAdjustment   *adjustment);
void     _sextant_timeline_scrollable_init (GtkScrollableInterface *iface);
int      _sextant_timeline_plot_width  (SextantTimeline *self);
double   _sextant_timeline_row_top     (SextantTimeline *self,
                                        guint            row);
int      _sextant_timeline_row_at      (SextantTimeline *self,
                                        double           y);
void     _sextant_timeline_visible_rows (SextantTimeline *self,
                                         guint           *first,
                                         guint           *last);
void     _sextant_timeline_geometry    (SextantTimeline *self,
                                        SextantTimelineGeometry *geometry);
gint64   _sextant_timeline_time_at     (SextantTimeline *self,
                                        double           x);
void     _sextant_timeline_queue_frame (SextantTimeline *self);

/* Drawing (sextant-timeline-draw.c) */
void     _sextant_timeline_snapshot    (GtkWidget       *widget,
                                        GtkSnapshot     *snapshot);

/* The labels and the marks over the rows (sextant-timeline-marks.c) */
void     _sextant_timeline_snapshot_labels (SextantTimeline *self,
                                            GtkSnapshot     *snapshot,
                                            PangoLayout     *layout,
                                            const GdkRGBA   *fg,
                                            int              height);
void     _sextant_timeline_snapshot_mark   (SextantTimeline               *self,
                                            GtkSnapshot                   *snapshot,
                                            const SextantTimelineGeometry *geometry,
                                            gint64                         loc,
                                            gint64                         t0,
                                            gint64                         t1,
                                            float                          alpha);
void     _sextant_timeline_snapshot_selection (SextantTimeline               *self,
                                               GtkSnapshot                   *snapshot,
                                               const SextantTimelineGeometry *geometry);
void     _sextant_timeline_snapshot_range  (SextantTimeline *self,
                                            GtkSnapshot     *snapshot,
                                            int              height);
void     _sextant_timeline_snapshot_filter_badge (SextantTimeline *self,
                                                  GtkSnapshot     *snapshot,
                                                  PangoLayout     *layout,
                                                  int              width);

/* Input (sextant-timeline-input.c, sextant-timeline-click.c) */
void     _sextant_timeline_input_init  (SextantTimeline *self);
void     _sextant_timeline_input_class_init (GtkWidgetClass *widget_class);
void     _sextant_timeline_click_init  (SextantTimeline *self);

G_END_DECLS
