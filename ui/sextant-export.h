/*
 * sextant-export.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view as a file: what a widget draws (the timeline, the tree, the
 * matrix, or the whole window) as PNG, SVG or PDF. The widget's render
 * nodes are drawn with Cairo on an image, SVG or PDF surface, so the SVG
 * and the PDF keep lines and text as vectors.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_EXPORT_PNG,
  SEXTANT_EXPORT_SVG,
  SEXTANT_EXPORT_PDF,
} SextantExportFormat;

gboolean sextant_export_format_from_path (const char           *path,
                                          SextantExportFormat  *format);
gboolean sextant_export_widget           (GtkWidget            *widget,
                                          const char           *path,
                                          GError              **error);

G_END_DECLS
