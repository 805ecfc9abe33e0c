/*
 * sextant-session-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of SextantSession: sextant-session.c (the object,
 * its properties, the progress fractions), -load.c (loading and what every
 * view needs of the store), -analysis.c, -view.c (the view shown and its
 * zoom history), -selection.c (the chosen instance, collective, selection,
 * item and pair filter).
 */
#pragma once

#include "sextant-analysis.h"
#include "sextant-session.h"

G_BEGIN_DECLS

/* A view kept in the zoom history */
typedef struct
{
  gint64 begin;
  gint64 end;
} View;

/* How a change of the view counts in the history */
typedef enum
{
  CHANGE_GESTURE,   /* continuous: one step per gesture */
  CHANGE_JUMP,      /* one step */
  CHANGE_HISTORY,   /* going back or forward: no step */
} ChangeKind;

/* How far an import or an analysis is: set on its thread, read and
 * notified on the main thread */
typedef struct
{
  double  value;     /* 0..1 */
  guint   idle;      /* the idle that notifies it, 0: none pending */
  guint   prop_id;
} Fraction;

struct _SextantSession
{
  GObject               parent_instance;

  char                 *path;           /* what the user opened */
  char                 *title;
  char                 *db_path;        /* NULL until loaded */

  /* Loaded once (main thread, read-only after) */
  gboolean              loaded;
  GPtrArray            *locations;      /* SextantLocationInfo, by location.id */
  GHashTable           *regions;        /* region.id (gint64 *) -> name */
  SextantTimeSpan       span;           /* end exclusive here */
  SextantAnalysisScope  scope;
  guint                 n_shards;       /* a parallel import's manifest: its shards; else 0 */

  /* Loading and analysing */
  gboolean              importing;
  gboolean              analysing;
  GMutex                lock;           /* guards the two Fractions */
  Fraction              progress;       /* of the import */
  Fraction              analysis_progress;
  guint                 generation;
  SextantStore         *watch;          /* asked for analyses made elsewhere; NULL before the load */
  gint64                data_version;   /* of the store's file when its results were read */
  guint                 watch_id;

  /* The view and the choice */
  gint64                view_begin;
  gint64                view_end;
  double                wanted_from;    /* seconds: a view asked for before the load */
  double                wanted_to;
  SextantInstance      *instance;
  char                 *collective;     /* a collective id (sextant-comm-tree.h), or NULL */
  gint64                selection_loc;  /* SEXTANT_NULL: nothing selected */
  gint64                selection_time;
  SextantPairFilter    *pair_filter;    /* NULL: every message */
  SextantItem          *item;           /* the clicked item; NULL: none */

  /* The zoom history: the views before (oldest first) and after (the
   * next one last) the one shown */
  GArray               *back;           /* View */
  GArray               *forward;        /* View */
  gboolean              in_gesture;     /* the last change was continuous */
  gint64                last_change;    /* g_get_monotonic_time() of it */
  gint64              (*clock) (void);  /* g_get_monotonic_time, or a test's */
};

enum
{
  PROP_0,
  PROP_PATH,
  PROP_TITLE,
  PROP_LOADED,
  PROP_IMPORTING,
  PROP_PROGRESS,
  PROP_ANALYSING,
  PROP_ANALYSIS_PROGRESS,
  PROP_GENERATION,
  PROP_VIEW_BEGIN,
  PROP_VIEW_END,
  PROP_INSTANCE,
  PROP_COLLECTIVE,
  PROP_SELECTION_LOC,
  PROP_SELECTION_TIME,
  PROP_PAIR_FILTER,
  PROP_ITEM,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  N_PROPS
};

enum
{
  SIGNAL_ANALYSED_ELSEWHERE,
  N_SIGNALS
};

extern guint _sextant_session_signals[N_SIGNALS];

/* In sextant-session-analysis.c: the watch for analyses made by another
 * program, from the load to dispose */
void    _sextant_session_watch_start   (SextantSession *self);
void    _sextant_session_watch_stop    (SextantSession *self);

/* In sextant-session.c */
void    _sextant_session_notify        (SextantSession *self,
                                        guint           prop_id);
void    _sextant_session_fraction_set  (SextantSession *self,
                                        Fraction       *fraction,
                                        double          value);
double  _sextant_session_fraction_get  (SextantSession *self,
                                        Fraction       *fraction);

/* In sextant-session-view.c */
void    _sextant_session_clear_history (SextantSession *self);
void    _sextant_session_change_view   (SextantSession *self,
                                        gint64          begin,
                                        gint64          end,
                                        ChangeKind      kind);

G_END_DECLS
