/*
 * sextant-snapshot-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the views that draw their own content (the tree view, the matrix
 * view) draw alike: a line of text at a place, a frame around a rectangle,
 * a message in the middle of an empty view, a colour on a scale of a few
 * stops; pixels a view made itself as a node, and a node as pixels.
 * Main thread, inside a widget's snapshot.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void sextant_snapshot_text     (GtkSnapshot           *snapshot,
                                PangoLayout           *layout,
                                const char            *text,
                                double                 x,
                                double                 y,
                                const GdkRGBA         *color);
void sextant_snapshot_frame    (GtkSnapshot           *snapshot,
                                const graphene_rect_t *rect,
                                float                  width,
                                const GdkRGBA         *color);
void sextant_snapshot_message  (GtkWidget             *widget,
                                GtkSnapshot           *snapshot,
                                const char            *text,
                                float                  margin,
                                const GdkRGBA         *color);
void sextant_scale_color       (const float          (*stops)[3],
                                guint                  n_stops,
                                double                 fraction,
                                GdkRGBA               *color);

guint32       *sextant_pixels_new       (int                    width,
                                         int                    height);
guint32       *sextant_pixels_new_dirty (int                    width,
                                         int                    height);
void           sextant_pixels_free      (guint32               *pixels);
GskRenderNode *sextant_pixels_node_new  (guint32               *pixels,
                                         int                    width,
                                         int                    height,
                                         const graphene_rect_t *bounds);
void           sextant_pixels_draw      (guint32               *pixels,
                                         GskRenderNode         *node,
                                         const graphene_rect_t *area,
                                         int                    scale);

G_END_DECLS
