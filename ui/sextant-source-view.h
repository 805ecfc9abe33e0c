/*
 * sextant-source-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The source line a pattern instance points at, in a GtkSourceView: the
 * file read only, with syntax highlighting and line numbers, the line
 * marked in the gutter and centred, under a caption (the file and line,
 * and what the instance says). A trace made on another machine names
 * files that are not here: the view then looks under the source folders
 * (the Preferences', `sextant open --source-root DIR`) for the longest
 * trailing part of the recorded path, and says where it looked when it
 * finds nothing.
 *
 * Workload: one show() per pattern instance the user chooses (a few a
 * minute, sometimes a burst while they go down the list with the keys);
 * files of a few hundred to some hundred thousand lines. Finding and
 * reading the file run in a thread; a show() cancels the one before.
 */
#pragma once

#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

#define SEXTANT_TYPE_SOURCE_VIEW (sextant_source_view_get_type ())
G_DECLARE_FINAL_TYPE (SextantSourceView, sextant_source_view, SEXTANT, SOURCE_VIEW, GtkWidget)

GtkWidget           *sextant_source_view_new              (void);
void                 sextant_source_view_set_source_roots (SextantSourceView  *self,
                                                           const char * const *dirs);
const char * const  *sextant_source_view_get_source_roots (SextantSourceView  *self);
void                 sextant_source_view_set_source_root  (SextantSourceView  *self,
                                                           const char         *dir);
void                 sextant_source_view_set_dark         (SextantSourceView  *self,
                                                           gboolean            dark);
gboolean             sextant_source_view_get_dark         (SextantSourceView  *self);
void                 sextant_source_view_show             (SextantSourceView  *self,
                                                           const char         *file,
                                                           gint64              line,
                                                           const char         *caption);
gboolean             sextant_source_view_get_loaded       (SextantSourceView  *self);
const char          *sextant_source_view_get_path         (SextantSourceView  *self);
gint64               sextant_source_view_get_line         (SextantSourceView  *self);
const char          *sextant_source_view_get_title        (SextantSourceView  *self);
GtkSourceView       *sextant_source_view_get_source_view  (SextantSourceView  *self);

G_END_DECLS
