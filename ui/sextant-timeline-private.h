/*
 * sextant-timeline-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of SextantTimeline: sextant-timeline.c (the session,
 * the frames read for each view, input) and sextant-timeline-draw.c (what a
 * frame looks like).
 */
#pragma once

#include "sextant-lod-reader.h"
#include "sextant-timeline.h"

G_BEGIN_DECLS

#define LABEL_MIN     100    /* the label column: its widest label, within these */
#define LABEL_MAX     320
#define RULER_HEIGHT   26
#define ROW_HEIGHT     18
#define ROW_GAP         2
#define MIN_PLOT_WIDTH 200

typedef struct
{
  gint64  loc;
  char   *group;        /* the process */
  char   *name;         /* the thread */
  char   *label;        /* the process, and the thread if it has several */
} Row;

/* The worker's connection and reader, kept from frame to frame (a new
 * connection reads the column tables' directories again): used by one
 * frame at a time, on whatever thread runs it, and opened by the first.
 * A connection keeps what it read of those directories, so when the
 * session's generation changes (an analysis wrote to the store) the
 * timeline takes a new Source. */
typedef struct
{
  SextantSession   *session;
  SextantStore     *store;
  SextantLodReader *reader;
} Source;

/* The rows of the session's trace */
typedef struct
{
  Source     *source;        /* g_atomic_rc_box */
  GArray     *rows;          /* Row, in location order */
  GHashTable *regions;       /* region id (gint64*) -> name, the session's */
  GHashTable *row_of;        /* location id (gint64*) -> row + 1 */
  gint64      t_begin;
  gint64      t_end;         /* exclusive */
  gint64      resolution;    /* ticks per second */
} Outline;

/* The buckets of every row for one view, read on a worker thread */
typedef struct
{
  gint64     t0;
  gint64     t1;
  int        width;
  guint      level;
  gint64     bucket_ticks;
  gboolean   exact;          /* the visits themselves, past the pyramid */
  guint      generation;     /* of the store's content it was read from */
  GPtrArray *buckets;        /* GArray of SextantLodBucket per row */
  SextantPairFilter *filter; /* the messages kept, NULL: all */
  GArray    *messages;       /* SextantViewMessage, NULL when too many to draw */
  GArray    *members;        /* SextantViewMember, by collective; NULL when too many */
  GArray    *lost;           /* SextantViewLost, NULL when too many */
} Frame;

/* Pattern instances whose lost time is shaded, at most */
#define MAX_LOST 20000

/* Likewise for the members of collectives (64 ranks: 250 collectives) */
#define MAX_MEMBERS 16000

/* A view with more messages in flight than this draws none: the lines
 * would be a grey wash (about 4 per pixel column of a 1920-pixel view) */
#define MAX_MESSAGES 8000

/* With a pair filter, the messages in flight read to find the pair's (the
 * view is then the pair's span, where others may be many more) */
#define MAX_FILTERED_READ (64 * MAX_MESSAGES)

/* Past the pyramid: the visits are read when a base bucket is this many
 * pixels wide (it holds about 32 events of the busiest location, so a
 * row has at most about 4 events a pixel) */
#define EXACT_FROM_PIXELS 8

struct _SextantTimeline
{
  GtkWidget     parent_instance;

  SextantSession *session;
  GSignalGroup *session_signals;
  Outline      *outline;
  Frame        *frame;
  char         *error;
  gint64        t0;            /* the view: the session's, as last drawn */
  gint64        t1;
  GCancellable *cancellable;   /* of the frame being read */
  gboolean      reading;
  gboolean      ready;

  double        drag_t0;       /* the view when a drag began */
  double        drag_t1;
  double        pointer_x;     /* where Ctrl + wheel zooms around */
  guint         generation;    /* of the store's content, the session's */
  GArray       *columns;       /* double: snapshot_row()'s sums per pixel column and category */
  gboolean      show_messages;
  gboolean      show_lost;
  int           label_width;   /* the column of the rows' names */
  gint64        mark_loc;      /* SEXTANT_NULL: no mark */
  gint64        mark_peer;
  gint64        mark_t0;
  gint64        mark_t1;
  gint64        selection_loc; /* the session's selection: SEXTANT_NULL, none */
  gint64        selection_time;
  SextantPairFilter *filter;   /* the session's pair filter, NULL: none */
  GCancellable *click_cancellable; /* the collective under a click, being found */
};

int   _sextant_timeline_plot_width (SextantTimeline *self);
guint _sextant_timeline_collective (SextantTimeline *self,
                                    guint            first,
                                    gint64          *last,
                                    guint           *top,
                                    guint           *bottom);
void _sextant_timeline_click_init (SextantTimeline *self);
void _sextant_timeline_snapshot   (GtkWidget       *widget,
                                   GtkSnapshot     *snapshot);

G_END_DECLS
