/*
 * sextant-session.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantSession is one open trace: its store, what the store holds that
 * every view needs (the locations, the regions' names, the run's time
 * span, the last analysis's scope), the content generation (it counts up
 * when an analysis writes new instances), the time range in view, the
 * pattern instance chosen, the collective chosen, the selection (a
 * location at a time: a node clicked in the tree view) and the pair filter
 * (the messages the timeline draws, chosen in the matrix). The window
 * holds one session; the views (timeline, pattern browser, source view,
 * tree view, matrix view) observe its properties and change it through its
 * API, never each other.
 *
 * A session is made for a path (an OTF2 archive, its anchor file, or a
 * trace store) and loaded once, asynchronously: an archive is imported
 * first (its store beside it is reused when it is up to date), with the
 * "progress" property notified on the main thread. A failed load leaves
 * the session unusable; the window keeps the trace it showed before.
 *
 * Views read the store on worker threads, each on a connection of its own
 * from sextant_session_open_store(), which may be called from any thread.
 * Everything else is main-thread only.
 */
#pragma once

#include <gio/gio.h>

#include "sextant-instance.h"
#include "sextant-store.h"

G_BEGIN_DECLS

/**
 * SextantPairFilter:
 * @sender_first: the first sending location (location.id)
 * @sender_last: the last sending location, inclusive
 * @receiver_first: the first receiving location
 * @receiver_last: the last receiving location, inclusive
 *
 * The messages the timeline draws while a filter is set: those from a
 * location in [@sender_first, @sender_last] to one in [@receiver_first,
 * @receiver_last]. One pair of the matrix: first == last; a block of an
 * aggregated matrix: the locations its rows and columns span.
 */
typedef struct
{
  gint64 sender_first;
  gint64 sender_last;
  gint64 receiver_first;
  gint64 receiver_last;
} SextantPairFilter;

#define SEXTANT_TYPE_PAIR_FILTER (sextant_pair_filter_get_type ())
GType           sextant_pair_filter_get_type       (void) G_GNUC_CONST;
SextantPairFilter *sextant_pair_filter_copy        (const SextantPairFilter *filter);
void            sextant_pair_filter_free           (SextantPairFilter    *filter);
gboolean        sextant_pair_filter_matches        (const SextantPairFilter *filter,
                                                    gint64                sender,
                                                    gint64                receiver);
gboolean        sextant_pair_filter_equal          (const SextantPairFilter *a,
                                                    const SextantPairFilter *b);

#define SEXTANT_TYPE_SESSION (sextant_session_get_type ())
G_DECLARE_FINAL_TYPE (SextantSession, sextant_session, SEXTANT, SESSION, GObject)

SextantSession *sextant_session_new                (const char           *path);
const char     *sextant_session_get_path           (SextantSession       *self);
const char     *sextant_session_get_title          (SextantSession       *self);
char           *sextant_session_dup_title_for_path (const char           *path);

void            sextant_session_load_async         (SextantSession       *self,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean        sextant_session_load_finish        (SextantSession       *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
gboolean        sextant_session_get_loaded         (SextantSession       *self);
gboolean        sextant_session_get_importing      (SextantSession       *self);
double          sextant_session_get_progress       (SextantSession       *self);

const char     *sextant_session_get_db_path        (SextantSession       *self);
SextantStore   *sextant_session_open_store         (SextantSession       *self,
                                                    GError              **error);
guint           sextant_session_get_generation     (SextantSession       *self);

GPtrArray      *sextant_session_get_locations      (SextantSession       *self);
GHashTable     *sextant_session_get_region_names   (SextantSession       *self);
gint64          sextant_session_get_time_begin     (SextantSession       *self);
gint64          sextant_session_get_time_end       (SextantSession       *self);
gint64          sextant_session_get_resolution     (SextantSession       *self);

void            sextant_session_analyse_async      (SextantSession       *self,
                                                    const char * const   *patterns,
                                                    const char * const   *parameters,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean        sextant_session_analyse_finish     (SextantSession       *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
gboolean        sextant_session_get_analysing      (SextantSession       *self);
double          sextant_session_get_analysis_progress (SextantSession    *self);
const SextantAnalysisScope *
                sextant_session_get_analysis_scope (SextantSession       *self);
guint           sextant_session_get_n_shards       (SextantSession       *self);

void            sextant_session_find_instance_async (SextantSession     *self,
                                                    gint64               id,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
SextantInstance *sextant_session_find_instance_finish (SextantSession   *self,
                                                    GAsyncResult        *result,
                                                    GError             **error);

gint64          sextant_session_get_view_begin     (SextantSession       *self);
gint64          sextant_session_get_view_end       (SextantSession       *self);
void            sextant_session_set_view           (SextantSession       *self,
                                                    gint64                begin,
                                                    gint64                end);
void            sextant_session_set_view_seconds   (SextantSession       *self,
                                                    double                from,
                                                    double                to);
void            sextant_session_zoom               (SextantSession       *self,
                                                    double                factor,
                                                    double                at_fraction);
void            sextant_session_zoom_fit           (SextantSession       *self);
void            sextant_session_pan                (SextantSession       *self,
                                                    double                fraction);
void            sextant_session_show_range         (SextantSession       *self,
                                                    gint64                begin,
                                                    gint64                end);
/* Zoom history (the "can-go-back" and "can-go-forward" properties), as a
 * browser's: a jump (show_range, zoom_fit, set_view_seconds, a range
 * zoom, an instance chosen) is one step; a continuous change (wheel, drag,
 * pan keys) is one step per gesture: the view before it is recorded when
 * it follows a second without change. Going back or forward sets the view
 * without recording; a new step after going back drops the steps ahead.
 * At most 100 steps. */
/* [begin, end) exactly, as one step of the history (a range chosen on the
 * timeline, a cell of the matrix) */
void            sextant_session_zoom_to_range      (SextantSession       *self,
                                                    gint64                begin,
                                                    gint64                end);
gboolean        sextant_session_go_back            (SextantSession       *self);
gboolean        sextant_session_go_forward         (SextantSession       *self);
gboolean        sextant_session_get_can_go_back    (SextantSession       *self);
gboolean        sextant_session_get_can_go_forward (SextantSession       *self);

SextantInstance *sextant_session_get_instance      (SextantSession       *self);
void            sextant_session_set_instance       (SextantSession       *self,
                                                    SextantInstance      *instance);
void            sextant_session_choose_instance    (SextantSession       *self,
                                                    SextantInstance      *instance);

const char     *sextant_session_get_collective     (SextantSession       *self);
void            sextant_session_choose_collective  (SextantSession       *self,
                                                    const char           *id);

gboolean        sextant_session_get_selection      (SextantSession       *self,
                                                    gint64               *loc,
                                                    gint64               *time);
void            sextant_session_select             (SextantSession       *self,
                                                    gint64                loc,
                                                    gint64                time);

/**
 * SextantItem:
 * @kind: what was clicked
 * @loc: the row's location (the sender for a message, the origin for a
 *   one-sided operation)
 * @time: where (ticks)
 * @id: message.rowid, collective.id, rma_op.id; SEXTANT_NULL for a visit
 *   (the innermost visit of @loc at @time is meant)
 *
 * What a click on the timeline chose: the details pane shows it.
 */
typedef enum
{
  SEXTANT_ITEM_VISIT,
  SEXTANT_ITEM_MESSAGE,
  SEXTANT_ITEM_COLLECTIVE,
  SEXTANT_ITEM_RMA,
} SextantItemKind;

typedef struct
{
  SextantItemKind kind;
  gint64          loc;
  gint64          time;
  gint64          id;
} SextantItem;

#define SEXTANT_TYPE_ITEM (sextant_item_get_type ())
GType           sextant_item_get_type              (void) G_GNUC_CONST;
SextantItem    *sextant_item_copy                  (const SextantItem    *item);
void            sextant_item_free                  (SextantItem          *item);
gboolean        sextant_item_equal                 (const SextantItem    *a,
                                                    const SextantItem    *b);

/* The "item" property (notify::item); NULL: none */
const SextantItem *
                sextant_session_get_item           (SextantSession       *self);
void            sextant_session_set_item           (SextantSession       *self,
                                                    const SextantItem    *item);

const SextantPairFilter *
                sextant_session_get_pair_filter    (SextantSession       *self);
void            sextant_session_set_pair_filter    (SextantSession       *self,
                                                    const SextantPairFilter *filter);
char           *sextant_session_dup_pair_filter_text (SextantSession     *self);

/* For the tests: the clock of the zoom history (NULL: g_get_monotonic_time) */
void            _sextant_session_set_clock         (SextantSession       *self,
                                                    gint64              (*clock) (void));

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantPairFilter, sextant_pair_filter_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantItem, sextant_item_free)

G_END_DECLS
