/*
 * sextant-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "sextant-export.h"
#include "sextant-timeline.h"

/**
 * sextant_export_format_from_path:
 * @format: (out) (optional): the format @path's name asks for
 *
 * Returns: %TRUE when @path ends in .png, .svg or .pdf (any case)
 */
gboolean
sextant_export_format_from_path (const char          *path,
                                 SextantExportFormat *format)
{
  static const struct { const char *suffix; SextantExportFormat format; } formats[] = {
    { ".png", SEXTANT_EXPORT_PNG }, { ".svg", SEXTANT_EXPORT_SVG }, { ".pdf", SEXTANT_EXPORT_PDF },
  };
  g_autofree char *lower = g_ascii_strdown (path, -1);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_str_has_suffix (lower, formats[i].suffix))
      {
        if (format != NULL)
          *format = formats[i].format;
        return TRUE;
      }

  return FALSE;
}

static gboolean
check_cairo (cairo_status_t   status,
             const char      *path,
             GError         **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;

  g_set_error (error, G_IO_ERROR, status == CAIRO_STATUS_WRITE_ERROR ? G_IO_ERROR_FAILED : G_IO_ERROR_INVALID_DATA,
               "%s: %s", path, cairo_status_to_string (status));
  return FALSE;
}

/**
 * sextant_export_widget:
 * @widget: a realized widget, drawn at its current size
 * @path: the file to write; its name says the format
 *
 * Writes what @widget draws now to @path, as high as it draws (the
 * timeline, not the empty space under it). A widget that draws no
 * background of its own gets the view background of its theme.
 *
 * Returns: %TRUE, or %FALSE with @error set (G_IO_ERROR_INVALID_ARGUMENT
 * for a name that is not .png/.svg/.pdf or a widget that has no size yet)
 */
gboolean
sextant_export_widget (GtkWidget   *widget,
                       const char  *path,
                       GError     **error)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  SextantExportFormat format;
  cairo_surface_t *surface;
  cairo_t *cr;
  gboolean ok;
  GdkRGBA background = { 1, 1, 1, 1 };

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!sextant_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: the name must end in .png, .svg or .pdf", path);
      return FALSE;
    }
  if (width <= 0 || height <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: the view has not been drawn yet", path);
      return FALSE;
    }

  /* a view taller than what it draws (the timeline in its scrolled
   * window): what it draws */
  if (SEXTANT_IS_TIMELINE (widget))
    height = MAX (MIN (height, sextant_timeline_get_content_height (SEXTANT_TIMELINE (widget))), 1);
  else if (!GTK_IS_WINDOW (widget))
    {
      int natural = 0;

      gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, width, NULL, &natural, NULL, NULL);
      if (natural > 0)
        height = MIN (height, natural);
    }

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  if (SEXTANT_IS_TIMELINE (widget))
    height = MAX (MIN (height, sextant_timeline_get_content_height (SEXTANT_TIMELINE (widget))), 1);
  else if (!GTK_IS_WINDOW (widget))
    {
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "view_bg_color", &background);
      G_GNUC_END_IGNORE_DEPRECATIONS
      gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
    }
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);

  switch (format)
    {
    case SEXTANT_EXPORT_SVG:
      surface = cairo_svg_surface_create (path, width, height);
      break;
    case SEXTANT_EXPORT_PDF:
      surface = cairo_pdf_surface_create (path, width, height);
      break;
    case SEXTANT_EXPORT_PNG:
    default:
      {
        int scale = gtk_widget_get_scale_factor (widget);

        surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
        cairo_surface_set_device_scale (surface, scale, scale);
      }
      break;
    }
  if (!check_cairo (cairo_surface_status (surface), path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }

  cr = cairo_create (surface);
  if (node != NULL)
    gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  if (format == SEXTANT_EXPORT_PNG)
    ok = check_cairo (cairo_surface_write_to_png (surface, path), path, error);
  else
    {
      cairo_surface_finish (surface);
      ok = check_cairo (cairo_surface_status (surface), path, error);
    }
  cairo_surface_destroy (surface);

  return ok;
}
