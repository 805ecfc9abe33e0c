/*
 * sextant-source-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The source line a pattern instance points at: the file, read only, with
 * that line highlighted and scrolled into view, under a caption (the file
 * and line, and what the instance says). A trace made on another machine
 * names files that are not here: the view then looks for the file's name
 * in the source root (`sextant open --source-root DIR`), and says so when
 * it finds neither.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SEXTANT_TYPE_SOURCE_VIEW (sextant_source_view_get_type ())
G_DECLARE_FINAL_TYPE (SextantSourceView, sextant_source_view, SEXTANT, SOURCE_VIEW, GtkWidget)

GtkWidget  *sextant_source_view_new             (void);
void        sextant_source_view_set_source_root (SextantSourceView *self,
                                                 const char        *dir);
/* Shows @line (1-based) of @file (NULL: none) under @caption (nullable). */
void        sextant_source_view_show            (SextantSourceView *self,
                                                 const char        *file,
                                                 gint64             line,
                                                 const char        *caption);
/* The file shown (where it was found), or NULL. */
const char *sextant_source_view_get_path        (SextantSourceView *self);
/* The highlighted line, 0 if none. */
gint64      sextant_source_view_get_line        (SextantSourceView *self);
GtkTextView *sextant_source_view_get_text_view  (SextantSourceView *self);

G_END_DECLS
