/*
 * sextant-session.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantSession is one open trace: its store, what the store holds that
 * every view needs (the locations, the regions' names, the run's time
 * span, the last analysis's scope), the content generation (it counts up
 * when an analysis writes new instances), the time range in view and the
 * pattern instance chosen. The window holds one session; the views
 * (timeline, pattern browser, source view, and the coming tree and matrix)
 * observe its properties and change it through its API, never each other.
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

SextantInstance *sextant_session_get_instance      (SextantSession       *self);
void            sextant_session_set_instance       (SextantSession       *self,
                                                    SextantInstance      *instance);
void            sextant_session_choose_instance    (SextantSession       *self,
                                                    SextantInstance      *instance);

G_END_DECLS
