/*
 * sextant-snapshot-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-snapshot-util.h"

/* @text with its top left corner at (@x, @y), in @layout's font */
void
sextant_snapshot_text (GtkSnapshot   *snapshot,
                       PangoLayout   *layout,
                       const char    *text,
                       double         x,
                       double         y,
                       const GdkRGBA *color)
{
  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)x, (float)y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/* A border of @width pixels inside @rect */
void
sextant_snapshot_frame (GtkSnapshot           *snapshot,
                        const graphene_rect_t *rect,
                        float                  width,
                        const GdkRGBA         *color)
{
  GskRoundedRect frame;

  gsk_rounded_rect_init_from_rect (&frame, rect, 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { width, width, width, width },
                              (GdkRGBA[4]) { *color, *color, *color, *color });
}

/* @text centred in @widget, wrapped @margin pixels from its sides: what an
 * empty view says (nothing chosen, being read, an error) */
void
sextant_snapshot_message (GtkWidget     *widget,
                          GtkSnapshot   *snapshot,
                          const char    *text,
                          float          margin,
                          const GdkRGBA *color)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int h;

  pango_layout_set_width (layout, MAX (gtk_widget_get_width (widget) - 2 * (int)margin, 50) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_get_pixel_size (layout, NULL, &h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (margin, MAX ((gtk_widget_get_height (widget) - h) / 2.0f, margin)));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/**
 * sextant_scale_color:
 * @stops: the scale's colours (red, green, blue), evenly spaced from 0 to 1
 * @n_stops: at least 2
 * @fraction: where on the scale, clamped to 0..1
 * @color: (out): the colour there, between its two stops, opaque
 */
void
sextant_scale_color (const float (*stops)[3],
                     guint         n_stops,
                     double        fraction,
                     GdkRGBA      *color)
{
  double f = CLAMP (fraction, 0, 1) * (n_stops - 1);
  guint s = MIN ((guint)f, n_stops - 2);
  float u = (float)(f - s);

  color->red = stops[s][0] + u * (stops[s + 1][0] - stops[s][0]);
  color->green = stops[s][1] + u * (stops[s + 1][1] - stops[s][1]);
  color->blue = stops[s][2] + u * (stops[s + 1][2] - stops[s][2]);
  color->alpha = 1;
}

/* Pictures' memory ----------------------------------------------------------- */

/* Pictures freed, kept for the next ones: a view makes the same few
 * pictures (rows, layers, lines) at every new frame, and a page the
 * process has not touched costs a fault: 5-10 us each in this virtual
 * machine, so 7-15 ms for a 1600 x 900 picture (1400 pages), where
 * clearing a kept one costs 0.5 ms. At most POOL_SIZE pictures are kept
 * (about 35 MB at 1600 x 900). Any thread.
 *
 * The pixels are those of Cairo image surfaces that own them, kept with
 * them. A node paints its picture's image (sextant_pixels_node_new()),
 * and Cairo records that as a copy-on-write snapshot of the image, kept
 * on the image until the image is written through Cairo or goes: then it
 * copies the pixels (5 MB and a page fault per 4 kB at 1600 x 900, at
 * every new frame). Kept here, the image neither goes nor is written
 * through Cairo (its pixels are written by hand, or through another
 * surface over them); when it does go, an image that owns its pixels
 * hands them to the snapshot instead of copying them. */
#define POOL_SIZE 6

static GMutex           pool_lock;
static cairo_surface_t *pool[POOL_SIZE];
static guint            pool_len;
static GHashTable      *lent;   /* pixels -> their image, for the pictures in use */

static guint32 *
pixels_new (int      width,
            int      height,
            gboolean clear)
{
  cairo_surface_t *image = NULL;
  guint32 *pixels;

  width = MAX (width, 1);
  height = MAX (height, 1);
  g_mutex_lock (&pool_lock);
  for (guint i = 0; i < pool_len; i++)
    if (cairo_image_surface_get_width (pool[i]) == width && cairo_image_surface_get_height (pool[i]) == height)
      {
        image = pool[i];
        pool[i] = pool[--pool_len];
        break;
      }
  g_mutex_unlock (&pool_lock);

  if (image == NULL)
    {
      /* cleared (fresh pages); marked written now, while it has no
       * snapshot: Cairo takes an image it made and nobody drew on as
       * clear, and draws nothing for it */
      image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      cairo_surface_mark_dirty (image);
    }
  else if (clear)
    memset (cairo_image_surface_get_data (image), 0, (gsize)width * height * 4);
  /* a line of ARGB32 is 4 bytes a pixel, as Cairo aligns it */
  g_assert (cairo_image_surface_get_stride (image) == width * 4);
  pixels = (guint32 *)(void *)cairo_image_surface_get_data (image);

  g_mutex_lock (&pool_lock);
  if (lent == NULL)
    lent = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (lent, pixels, image);
  g_mutex_unlock (&pool_lock);

  return pixels;
}

/* The image of @pixels, lent out */
static cairo_surface_t *
pixels_image (guint32 *pixels)
{
  cairo_surface_t *image;

  g_mutex_lock (&pool_lock);
  image = lent != NULL ? g_hash_table_lookup (lent, pixels) : NULL;
  g_mutex_unlock (&pool_lock);
  g_assert (image != NULL);

  return image;
}

/**
 * sextant_pixels_new:
 *
 * Returns: (transfer full): @width x @height transparent pixels (at
 *   least 1 x 1), premultiplied ARGB32 in native byte order (Cairo's
 *   CAIRO_FORMAT_ARGB32, GDK_MEMORY_DEFAULT), a line @width x 4 bytes,
 *   for sextant_pixels_node_new() or sextant_pixels_free()
 */
guint32 *
sextant_pixels_new (int width,
                    int height)
{
  return pixels_new (width, height, TRUE);
}

/**
 * sextant_pixels_new_dirty:
 *
 * Returns: (transfer full): sextant_pixels_new() without the clearing,
 *   for a caller that writes every pixel
 */
guint32 *
sextant_pixels_new_dirty (int width,
                          int height)
{
  return pixels_new (width, height, FALSE);
}

/**
 * sextant_pixels_free:
 * @pixels: (transfer full): from sextant_pixels_new(); their memory goes
 *   back to the pool
 */
void
sextant_pixels_free (guint32 *pixels)
{
  cairo_surface_t *image, *evicted = NULL;

  g_mutex_lock (&pool_lock);
  image = g_hash_table_lookup (lent, pixels);
  g_hash_table_remove (lent, pixels);
  /* the oldest one goes */
  if (pool_len == POOL_SIZE)
    {
      evicted = pool[0];
      memmove (pool, pool + 1, (POOL_SIZE - 1) * sizeof pool[0]);
      pool_len--;
    }
  pool[pool_len++] = image;
  g_mutex_unlock (&pool_lock);
  if (evicted != NULL)
    cairo_surface_destroy (evicted);
}

/* Pictures as nodes ----------------------------------------------------------- */

static const cairo_user_data_key_t pixels_key;

/**
 * sextant_pixels_node_new:
 * @pixels: (transfer full): @width x @height from sextant_pixels_new()
 * @bounds: where the picture goes (scaled to it)
 *
 * A node that draws @pixels: a Cairo node painting their image, not a
 * texture node. GTK 4.8's Cairo renderer converts a texture node's pixels
 * through floats on every frame it draws (7 ms for 1600 x 900 pixels
 * here, even when the formats are the same), where a Cairo node is one
 * pixman composite; the GL renderer keeps the picture of a Cairo node it
 * has drawn, by node, as it keeps a texture's. A view that caches the
 * node therefore pays the picture once.
 *
 * Returns: (transfer full): the node; @pixels go back to the pool with it
 */
GskRenderNode *
sextant_pixels_node_new (guint32               *pixels,
                         int                    width,
                         int                    height,
                         const graphene_rect_t *bounds)
{
  GskRenderNode *node = gsk_cairo_node_new (bounds);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    {
      sextant_pixels_free (pixels);
      return node;
    }
  cr = gsk_cairo_node_get_draw_context (node);
  cairo_translate (cr, bounds->origin.x, bounds->origin.y);
  cairo_scale (cr, bounds->size.width / width, bounds->size.height / height);
  cairo_set_source_surface (cr, pixels_image (pixels), 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  /* the pixels back to the pool when the recording goes */
  cairo_surface_set_user_data (gsk_cairo_node_get_surface (node), &pixels_key, pixels,
                               (cairo_destroy_func_t)sextant_pixels_free);

  return node;
}

/**
 * sextant_pixels_draw:
 * @pixels: pixels of @area at @scale (ceil (width x @scale) by ceil
 *   (height x @scale)), premultiplied ARGB32 in native byte order
 * @node: (nullable): what to draw
 * @area: the part of @node's coordinates @pixels hold
 * @scale: pixels per unit (the widget's scale factor)
 *
 * Draws @area of @node with Cairo over @pixels: what GTK's Cairo
 * renderer does, once, without its copy into a texture.
 */
void
sextant_pixels_draw (guint32               *pixels,
                     GskRenderNode         *node,
                     const graphene_rect_t *area,
                     int                    scale)
{
  int width = MAX ((int)ceilf (area->size.width * scale), 1);
  int height = MAX ((int)ceilf (area->size.height * scale), 1);
  cairo_surface_t *surface;
  cairo_t *cr;

  if (node == NULL)
    return;
  surface = cairo_image_surface_create_for_data ((unsigned char *)pixels, CAIRO_FORMAT_ARGB32, width, height,
                                                 width * 4);
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  cairo_translate (cr, -area->origin.x, -area->origin.y);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  cairo_surface_destroy (surface);
}
