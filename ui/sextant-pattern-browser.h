/*
 * sextant-pattern-browser.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the session's analysis found: the patterns with instances in the
 * metric tree (groups and patterns with expanders, each node's inclusive
 * time; see docs/patterns.md), and the worst instances of the one chosen (up to 1000) in a
 * table sortable by each column: the time lost, the location, the source
 * line and the diagnosis, whose whole text, with who waited for whom,
 * when and on which call path, is in the details under the table.
 * Choosing an instance (selecting its row, or Enter on it) makes it the
 * session's chosen instance; choosing another pattern, or a group, makes
 * none chosen, and an instance chosen elsewhere chooses its pattern. When the analysis ran only some patterns
 * (`sextant analyze --pattern`), the browser says so and offers to
 * analyse all. It reads again when the session's generation changes.
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-session.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_PATTERN_BROWSER (sextant_pattern_browser_get_type ())
G_DECLARE_FINAL_TYPE (SextantPatternBrowser, sextant_pattern_browser, SEXTANT, PATTERN_BROWSER, GtkWidget)

GtkWidget     *sextant_pattern_browser_new             (void);
void           sextant_pattern_browser_set_session     (SextantPatternBrowser *self,
                                                        SextantSession        *session);
gboolean       sextant_pattern_browser_get_ready       (SextantPatternBrowser *self);
guint          sextant_pattern_browser_get_n_patterns  (SextantPatternBrowser *self);
const char    *sextant_pattern_browser_get_pattern_id  (SextantPatternBrowser *self,
                                                        guint                  index);
void           sextant_pattern_browser_select          (SextantPatternBrowser *self,
                                                        guint                  index);
GtkTreeListModel *sextant_pattern_browser_get_rows      (SextantPatternBrowser *self);
const char    *sextant_pattern_browser_get_chosen      (SextantPatternBrowser *self);
GListModel    *sextant_pattern_browser_get_instances   (SextantPatternBrowser *self);
void           sextant_pattern_browser_activate        (SextantPatternBrowser *self,
                                                        guint                  index);
GtkColumnView *sextant_pattern_browser_get_instance_view (SextantPatternBrowser *self);
const char    *sextant_pattern_browser_get_status      (SextantPatternBrowser *self);
const char    *sextant_pattern_browser_get_scope_text  (SextantPatternBrowser *self);
const char    *sextant_pattern_browser_get_details     (SextantPatternBrowser *self);

G_END_DECLS
