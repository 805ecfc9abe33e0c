/*
 * sextant-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window: a header bar (open, messages, zoom) over the patterns
 * found in one trace (left), its timeline and the source line of the
 * pattern instance chosen (right): choosing an instance marks it on the
 * timeline, zooms there and opens its source line. Opening an OTF2 archive imports it first, on a worker thread with
 * a progress bar and a cancel button (a store that is up to date with the
 * archive is reused); a trace store opens at once.
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-pattern-browser.h"
#include "sextant-source-view.h"
#include "sextant-timeline.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_WINDOW (sextant_window_get_type ())
G_DECLARE_FINAL_TYPE (SextantWindow, sextant_window, SEXTANT, WINDOW, GtkApplicationWindow)

SextantWindow   *sextant_window_new          (GtkApplication *application);
/* Opens an archive (anchor file or its directory) or a trace store. */
void             sextant_window_open         (SextantWindow  *self,
                                              const char     *path);
SextantTimeline *sextant_window_get_timeline (SextantWindow  *self);
SextantPatternBrowser *sextant_window_get_pattern_browser (SextantWindow *self);
SextantSourceView *sextant_window_get_source_view (SextantWindow *self);
/* Where source files named by a trace made elsewhere are looked for */
void             sextant_window_set_source_root (SextantWindow *self,
                                                 const char    *dir);
/* What went wrong last (the "error" property), or NULL. */
const char      *sextant_window_get_error    (SextantWindow  *self);

G_END_DECLS
