/*
 * sextant-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window shows one trace (a SextantSession): the patterns found
 * in it (left), its timeline over three pages (right): the source line of
 * the pattern instance chosen, the tree of the collective or instance
 * chosen (a click on a collective in the timeline shows it), and the
 * communication matrix (a click on a cell narrows the timeline to the
 * pair's messages). Opening a trace imports it first when it is an archive,
 * with a progress bar and Cancel; the trace shown stays until the new one
 * is ready, and stays when the new one fails (the error bar says why). A
 * store that was never analysed is analysed, with the preferences'
 * pattern parameters. Without a trace, the window is the start page: the
 * recent traces and a drop target.
 */
#pragma once

#include <adwaita.h>

#include "sextant-details-pane.h"
#include "sextant-pattern-browser.h"
#include "sextant-session.h"
#include "sextant-source-view.h"
#include "sextant-matrix-view.h"
#include "sextant-timeline.h"
#include "sextant-tree-view.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_WINDOW (sextant_window_get_type ())
G_DECLARE_FINAL_TYPE (SextantWindow, sextant_window, SEXTANT, WINDOW, AdwApplicationWindow)

SextantWindow         *sextant_window_new                 (GtkApplication *application);
void                   sextant_window_open                (SextantWindow  *self,
                                                           const char     *path);
gboolean               sextant_window_is_empty            (SextantWindow  *self);
SextantSession        *sextant_window_get_session         (SextantWindow  *self);
gboolean               sextant_window_get_ready           (SextantWindow  *self);
const char            *sextant_window_get_error           (SextantWindow  *self);
void                   sextant_window_add_source_root     (SextantWindow  *self,
                                                           const char     *dir);
void                   sextant_window_set_initial_view    (SextantWindow  *self,
                                                           double          from,
                                                           double          to);
void                   sextant_window_choose_worst_when_listed (SextantWindow *self);
gboolean               sextant_window_export_view         (SextantWindow  *self,
                                                           const char     *path,
                                                           GError        **error);
void                   sextant_window_export_report_async (SextantWindow  *self,
                                                           const char     *path,
                                                           GCancellable   *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer        user_data);
const char            *sextant_window_export_report_finish (SextantWindow *self,
                                                           GAsyncResult   *result,
                                                           GError        **error);
SextantTimeline       *sextant_window_get_timeline        (SextantWindow  *self);
SextantPatternBrowser *sextant_window_get_pattern_browser (SextantWindow  *self);
SextantSourceView     *sextant_window_get_source_view     (SextantWindow  *self);
SextantDetailsPane    *sextant_window_get_details_pane    (SextantWindow  *self);
GtkWidget             *sextant_window_get_legend          (SextantWindow  *self);
void                   sextant_window_show_source         (SextantWindow  *self,
                                                           const char     *file,
                                                           gint64          line,
                                                           const char     *caption);
SextantTreeView       *sextant_window_get_tree_view       (SextantWindow  *self);
SextantMatrixView     *sextant_window_get_matrix_view     (SextantWindow  *self);
void                   sextant_window_show_page           (SextantWindow  *self,
                                                           const char     *page);
const char            *sextant_window_get_page            (SextantWindow  *self);
void                   sextant_window_choose_collective_when_shown (SextantWindow *self,
                                                           const char     *id);
void                   sextant_window_choose_instance_when_analysed (SextantWindow *self,
                                                           gint64          id);

G_END_DECLS
