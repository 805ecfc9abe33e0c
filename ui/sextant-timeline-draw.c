/*
 * sextant-timeline-draw.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline draws of a frame, bottom to top:
 * - the rows in view: a stack of the time shares per pixel column (by
 *   category, or the dominant region's colour), counter plots for metric
 *   rows, or in the whole-machine mode one picture of every location
 *   (a texture, a pixel row per band of locations). This is a render node
 *   cached by frame, view and geometry (sysprof-flame-graph.c's way): a
 *   mark, a toggle or a tooltip does not sum the rows again;
 * - the layers (sextant-timeline-layers.h): lost time, messages,
 *   collectives, one-sided operations;
 * - the chosen instance's outline, the selection, the range being chosen;
 * - the label column (expanders, names) and the ruler, fixed above the
 *   rows.
 * Rectangles are colour nodes, one per run of equal columns; Cairo draws
 * only the lines.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-ruler.h"
#include "sextant-timeline-private.h"

/* Bottom to top in a row: computation first, waiting and communication on
 * top, where the eye looks for them. */
static const guint stack_order[SEXTANT_N_CATEGORIES] = {
  SEXTANT_CATEGORY_USER, SEXTANT_CATEGORY_OMP, SEXTANT_CATEGORY_ACCEL, SEXTANT_CATEGORY_IO,
  SEXTANT_CATEGORY_THREAD, SEXTANT_CATEGORY_OTHER, SEXTANT_CATEGORY_RMA, SEXTANT_CATEGORY_MPI,
};

/* The selection's and the pair filter's colour */
static const GdkRGBA selection_color = { 0.11f, 0.44f, 0.85f, 1 };

/* Rows ------------------------------------------------------------------------- */

/* The buckets of @locs summed per pixel column and category into
 * self->columns; returns the number of locations found in the frame */
static guint
sum_columns (SextantTimeline *self,
             GArray          *locs,
             int              plot,
             double         **out,
             gint64         **regions)
{
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  double *time;
  guint found = 0;

  g_array_set_size (self->columns, 0);
  /* the categories' sums, then per column the time of its dominant region so far */
  g_array_set_size (self->columns, (guint)plot * (SEXTANT_N_CATEGORIES + 1) + (guint)plot);
  time = (double *)(void *)self->columns->data;
  *regions = (gint64 *)(void *)(time + (gsize)plot * (SEXTANT_N_CATEGORIES + 1));
  for (int x = 0; x < plot; x++)
    (*regions)[x] = SEXTANT_NULL;

  for (guint l = 0; l < locs->len; l++)
    {
      FrameLoc *fl = g_hash_table_lookup (self->frame->locs, &g_array_index (locs, gint64, l));

      if (fl == NULL)
        continue;
      found++;
      for (guint i = 0; i < fl->buckets->len; i++)
        {
          const SextantLodBucket *b = &g_array_index (fl->buckets, SextantLodBucket, i);
          double x0 = (b->begin - self->t0) / ticks_per_px;
          double x1 = (b->end - self->t0) / ticks_per_px;

          /* a bucket's time spread over the columns it covers, in proportion */
          for (int x = MAX ((int)floor (x0), 0); x < MIN ((int)ceil (x1), plot); x++)
            {
              double share = (MIN (x1, x + 1.0) - MAX (x0, (double)x)) / (x1 - x0);
              double *column = time + (gsize)x * (SEXTANT_N_CATEGORIES + 1);

              for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
                column[c] += share * b->time[c];
              /* the region of the bucket that gave the column most */
              if (share * b->busy > column[SEXTANT_N_CATEGORIES])
                {
                  column[SEXTANT_N_CATEGORIES] = share * b->busy;
                  (*regions)[x] = b->region;
                }
            }
        }
    }
  *out = time;

  return found;
}

/* The colour of the dominant region of a column, by region mode */
static void
region_color (SextantTimeline *self,
              gint64           region,
              const double    *column,
              GdkRGBA         *color)
{
  const char *name = region != SEXTANT_NULL ? g_hash_table_lookup (self->regions, &region) : NULL;
  guint category = SEXTANT_CATEGORY_OTHER;
  double most = 0;

  for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
    if (column[c] > most)
      {
        most = column[c];
        category = c;
      }
  sextant_timeline_region_color (name != NULL ? name : "?", category, color);
}

/* The rows' pixels: a premultiplied ARGB32 image (GDK_MEMORY_DEFAULT) of
 * the plot below the ruler */
typedef struct
{
  guint32 *pixels;
  int      width;
  int      height;
  int      top;      /* the widget's y of its first line */
} Canvas;

/* Column @x from line @y0 to @y1 (widget coordinates, exclusive), clipped */
static inline void
canvas_column (Canvas  *canvas,
               int      x,
               int      y0,
               int      y1,
               guint32  pixel)
{
  y0 = MAX (y0 - canvas->top, 0);
  y1 = MIN (y1 - canvas->top, canvas->height);
  for (int y = y0; y < y1; y++)
    canvas->pixels[(gsize)y * canvas->width + x] = pixel;
}

/* Lines @y0 to @y1 (widget coordinates, exclusive), clipped, all of them
 * @pixel: a row's background */
static void
canvas_fill (Canvas  *canvas,
             int      y0,
             int      y1,
             guint32  pixel)
{
  y0 = MAX (y0 - canvas->top, 0);
  y1 = MIN (y1 - canvas->top, canvas->height);
  for (gsize i = (gsize)y0 * canvas->width; i < (gsize)MAX (y1, y0) * canvas->width; i++)
    canvas->pixels[i] = pixel;
}

/* One row: each column a stack, a category's height its share of the
 * column's time over the row's threads (a column half idle is half
 * empty); by region, one bar of the busy share in the colour of the
 * region that took most of it. Pixels written straight into the rows'
 * image: a few ms for a screen of rows, where a colour node per run of
 * columns cost Cairo tens of ms to render each frame. */
static void
paint_row (SextantTimeline *self,
           Canvas          *canvas,
           GArray          *locs,
           guint            n_threads,
           int              y,
           int              h)
{
  int plot = canvas->width;
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  gboolean by_region = self->color_mode == SEXTANT_TIMELINE_COLOR_BY_REGION;
  guint32 colors[SEXTANT_N_CATEGORIES];
  gint64 last_region = SEXTANT_NULL;
  guint32 region_pixel = 0;
  gint64 *regions;
  double *time;

  /* the share of the row's threads' time (a process's Broadcaster
   * sessions ran one after the other: one thread) */
  if (sum_columns (self, locs, plot, &time, &regions) == 0 || n_threads == 0)
    return;
  for (guint k = 0; k < SEXTANT_N_CATEGORIES; k++)
    colors[k] = sextant_timeline_premultiplied (sextant_timeline_category_color (stack_order[k]));

  for (int x = 0; x < plot; x++)
    {
      const double *column = time + (gsize)x * (SEXTANT_N_CATEGORIES + 1);
      double sum = 0;
      int below = 0;

      if (by_region)
        {
          for (guint k = 0; k < SEXTANT_N_CATEGORIES; k++)
            sum += column[k] / n_threads;
          below = (int)lround (MIN (sum / ticks_per_px, 1.0) * h);
          if (below == 0)
            continue;
          if (regions[x] != last_region || region_pixel == 0)
            {
              GdkRGBA color;

              region_color (self, regions[x], column, &color);
              region_pixel = sextant_timeline_premultiplied (&color);
              last_region = regions[x];
            }
          canvas_column (canvas, x, y + h - below, y + h, region_pixel);
          continue;
        }
      /* heights in whole pixels, rounded on the running sum so that they
       * add up to the rounded total */
      for (guint k = 0; k < SEXTANT_N_CATEGORIES; k++)
        {
          int top;

          sum += column[stack_order[k]] / n_threads;
          top = (int)lround (MIN (sum / ticks_per_px, 1.0) * h);
          if (top > below)
            canvas_column (canvas, x, y + h - top, y + h - below, colors[k]);
          below = top;
        }
    }
}

/* A counter row's plot */
static void
snapshot_counter (SextantTimeline          *self,
                  GtkSnapshot              *snapshot,
                  PangoLayout              *layout,
                  const SextantTimelineRow *row,
                  float                     y,
                  const SextantTimelineGeometry *geometry)
{
  gint64 loc = g_array_index (row->locs, gint64, 0);

  for (guint i = 0; self->frame->counters != NULL && i < self->frame->counters->len; i++)
    {
      FrameCounter *fc = g_ptr_array_index (self->frame->counters, i);

      if (fc->loc == loc && fc->metric == row->metric)
        {
          sextant_timeline_layer_counter (snapshot, geometry, layout, y, (float)self->row_height, fc->points,
                                          row->unit);
          return;
        }
    }
}

/* The whole-machine picture: a texture of a pixel row per band, each
 * cell the mean of its categories' colours weighted by their shares, as
 * opaque as the cell was busy */
static void
snapshot_machine (SextantTimeline *self,
                  GtkSnapshot     *snapshot,
                  int              plot,
                  int              height)
{
  const Frame *frame = self->frame;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  gsize stride = (gsize)frame->width * 4;
  guint8 *rgba;

  if (frame->cells == NULL || frame->n_bands == 0 || frame->width <= 0)
    return;
  rgba = g_malloc0 (stride * frame->n_bands);
  for (guint b = 0; b < frame->n_bands; b++)
    for (int x = 0; x < frame->width; x++)
      {
        const SextantMachineCell *cell = &frame->cells[(gsize)b * frame->width + x];
        double r = 0, g = 0, bl = 0;
        guint busy = 0;
        guint8 *p = rgba + b * stride + (gsize)x * 4;

        for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
          {
            const GdkRGBA *color = sextant_timeline_category_color (c);

            busy += cell->share[c];
            r += cell->share[c] * color->red;
            g += cell->share[c] * color->green;
            bl += cell->share[c] * color->blue;
          }
        if (busy == 0)
          continue;
        p[0] = (guint8)lround (255 * r / busy);
        p[1] = (guint8)lround (255 * g / busy);
        p[2] = (guint8)lround (255 * bl / busy);
        /* a cell busy a tenth of its time still shows */
        p[3] = (guint8)MIN (255, 40 + busy * 215 / 255);
      }
  bytes = g_bytes_new_take (rgba, stride * frame->n_bands);
  texture = gdk_memory_texture_new (frame->width, (int)frame->n_bands, GDK_MEMORY_R8G8B8A8, bytes, stride);
  gtk_snapshot_append_texture (snapshot, texture,
                               &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT + ROW_GAP, plot,
                                                    height - RULER_HEIGHT - ROW_GAP));
}

/* The rows' node: stripes, stacks, counters; or the machine picture */
static GskRenderNode *
rows_node (SextantTimeline *self,
           PangoLayout     *layout,
           const GdkRGBA   *fg,
           int              width,
           int              height)
{
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  int plot = width - self->label_width;
  SextantTimelineGeometry geometry;
  GdkRGBA stripe = *fg;
  Canvas canvas;
  guint32 stripe_pixel;
  guint first, last;

  stripe.alpha = 0.05f;
  _sextant_timeline_geometry (self, &geometry);
  if (self->machine)
    {
      if (self->frame != NULL && self->frame->machine)
        snapshot_machine (self, snapshot, plot, height);
      return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
    }

  canvas.width = plot;
  canvas.top = RULER_HEIGHT;
  canvas.height = MAX (height - RULER_HEIGHT, 0);
  if (canvas.height == 0)
    return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  canvas.pixels = g_new0 (guint32, (gsize)canvas.width * canvas.height);
  stripe_pixel = sextant_timeline_premultiplied (&stripe);
  _sextant_timeline_visible_rows (self, &first, &last);
  for (guint i = first; i < last; i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);
      int y = (int)lround (_sextant_timeline_row_top (self, i));

      canvas_fill (&canvas, y, y + (int)self->row_height, stripe_pixel);
      if (self->frame != NULL && !self->frame->machine && row->kind != SEXTANT_TIMELINE_ROW_COUNTER)
        paint_row (self, &canvas, row->locs, row->n_threads, y, (int)self->row_height);
    }
  {
    g_autoptr(GBytes) bytes = g_bytes_new_take (canvas.pixels, (gsize)canvas.width * canvas.height * 4);
    g_autoptr(GdkTexture) texture = gdk_memory_texture_new (canvas.width, canvas.height, GDK_MEMORY_DEFAULT, bytes,
                                                            (gsize)canvas.width * 4);

    gtk_snapshot_append_texture (snapshot, texture,
                                 &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, canvas.width, canvas.height));
  }
  /* the counters' plots over their rows */
  for (guint i = first; i < last && self->frame != NULL && !self->frame->machine; i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);

      if (row->kind == SEXTANT_TIMELINE_ROW_COUNTER)
        snapshot_counter (self, snapshot, layout, row, (float)_sextant_timeline_row_top (self, i), &geometry);
    }

  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

/* Labels ----------------------------------------------------------------------- */

/* A triangle pointing right (collapsed) or down (expanded) */
static void
append_expander (GtkSnapshot   *snapshot,
                 float          x,
                 float          y,
                 gboolean       expanded,
                 const GdkRGBA *fg)
{
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x - 1, y - 6, 10, 12));

  gdk_cairo_set_source_rgba (cr, fg);
  if (expanded)
    {
      cairo_move_to (cr, x, y - 2);
      cairo_line_to (cr, x + 8, y - 2);
      cairo_line_to (cr, x + 4, y + 3);
    }
  else
    {
      cairo_move_to (cr, x + 2, y - 4);
      cairo_line_to (cr, x + 7, y);
      cairo_line_to (cr, x + 2, y + 4);
    }
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_destroy (cr);
}

static void
snapshot_labels (SextantTimeline *self,
                 GtkSnapshot     *snapshot,
                 PangoLayout     *layout,
                 const GdkRGBA   *fg,
                 int              height)
{
  guint first, last;
  int text_height;

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_text (layout, "X", -1);
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  if (self->machine)
    {
      /* a label every 40 pixels or so: the location at that height */
      GArray *all = sextant_timeline_rows_get_all_locations (self->rows);
      double area = height - RULER_HEIGHT - ROW_GAP;
      guint step = (guint)MAX (ceil (all->len * 40.0 / MAX (area, 1)), 1);

      pango_layout_set_width (layout, (self->label_width - 12) * PANGO_SCALE);
      for (guint i = 0; i < all->len; i += step)
        {
          gint64 loc = g_array_index (all, gint64, i);
          int row = sextant_timeline_rows_row_of_loc (self->rows, loc);
          const SextantTimelineRow *r = row >= 0 ? sextant_timeline_rows_get_row (self->rows, (guint)row) : NULL;
          float y = (float)(RULER_HEIGHT + ROW_GAP + i * area / all->len);

          if (r == NULL)
            continue;
          /* the row's own name ("MPI Rank 112"), under a tick at its band */
          pango_layout_set_text (layout, r->label, -1);
          gtk_snapshot_append_color (snapshot, fg, &GRAPHENE_RECT_INIT (self->label_width - 5, y, 4, 1));
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (LABEL_PAD, y));
          gtk_snapshot_append_layout (snapshot, layout, fg);
          gtk_snapshot_restore (snapshot);
        }
      return;
    }

  _sextant_timeline_visible_rows (self, &first, &last);
  for (guint i = first; i < last; i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);
      float y = (float)_sextant_timeline_row_top (self, i);
      float x = LABEL_PAD + row->depth * INDENT;

      if (row->expandable)
        append_expander (snapshot, x, y + (float)self->row_height / 2, row->expanded, fg);
      x += INDENT;
      pango_layout_set_width (layout, (int)MAX (self->label_width - x - 6, 10) * PANGO_SCALE);
      pango_layout_set_text (layout, row->label, -1);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y + ((float)self->row_height - text_height) / 2));
      gtk_snapshot_append_layout (snapshot, layout, fg);
      gtk_snapshot_restore (snapshot);
    }
}

/* Marks ------------------------------------------------------------------------ */

static const GdkRGBA mark_halo = { 1.0, 0.85, 0.0, 1 };

/* An outline around @loc's row from mark_t0 to mark_t1 (at least 3 pixels
 * wide, so that a short instance shows): a dark frame with a yellow halo
 * outside it, so that it stands out on any colour; what is drawn inside
 * stays as it is */
static void
snapshot_mark (SextantTimeline               *self,
               GtkSnapshot                   *snapshot,
               const SextantTimelineGeometry *geometry,
               gint64                         loc,
               float                          alpha)
{
  GdkRGBA halo = mark_halo;
  GdkRGBA border = { 0, 0, 0, alpha };
  GskRoundedRect frame;
  float x0, x1, y, h;

  if (loc == SEXTANT_NULL || !geometry->row_of (geometry->row_data, loc, &y, &h))
    return;

  x0 = (float)CLAMP (sextant_timeline_geometry_x (geometry, self->mark_t0), self->label_width - 2,
                     geometry->plot_x + geometry->plot_width + 2);
  x1 = (float)CLAMP (sextant_timeline_geometry_x (geometry, self->mark_t1), self->label_width - 2,
                     geometry->plot_x + geometry->plot_width + 2);
  if (x1 - x0 < 3)
    {
      x0 = (x0 + x1) / 2 - 1.5f;
      x1 = x0 + 3;
    }
  h = MAX (h, 3);
  halo.alpha = alpha;
  gsk_rounded_rect_init_from_rect (&frame, &GRAPHENE_RECT_INIT (x0 - 3, y - 3, x1 - x0 + 6, h + 6), 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { halo, halo, halo, halo });
  gsk_rounded_rect_init_from_rect (&frame, &GRAPHENE_RECT_INIT (x0 - 1, y - 1, x1 - x0 + 2, h + 2), 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { border, border, border, border });
}

/* The session's selection: its row tinted, a line at its time with a
 * triangle above it */
static void
snapshot_selection (SextantTimeline               *self,
                    GtkSnapshot                   *snapshot,
                    const SextantTimelineGeometry *geometry)
{
  GdkRGBA tint = selection_color;
  float y, h, x;
  cairo_t *cr;

  if (!geometry->row_of (geometry->row_data, self->selection_loc, &y, &h))
    return;
  tint.alpha = 0.18f;
  gtk_snapshot_append_color (snapshot, &tint, &GRAPHENE_RECT_INIT (geometry->plot_x, y, geometry->plot_width, h));
  if (self->selection_time < self->t0 || self->selection_time >= self->t1)
    return;
  x = (float)sextant_timeline_geometry_x (geometry, self->selection_time);
  gtk_snapshot_append_color (snapshot, &selection_color, &GRAPHENE_RECT_INIT (x - 1, y - 3, 2, h + 6));
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x - 6, y - 10, 12, 8));
  gdk_cairo_set_source_rgba (cr, &selection_color);
  cairo_move_to (cr, x - 5, y - 9);
  cairo_line_to (cr, x + 5, y - 9);
  cairo_line_to (cr, x, y - 3);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_destroy (cr);
}

/* While a range is being chosen: it tinted, the rest as it is */
static void
snapshot_range (SextantTimeline *self,
                GtkSnapshot     *snapshot,
                int              height)
{
  float x0 = (float)MIN (self->range_x0, self->range_x1);
  float x1 = (float)MAX (self->range_x0, self->range_x1);
  GdkRGBA tint = selection_color;

  x0 = MAX (x0, self->label_width);
  tint.alpha = 0.2f;
  gtk_snapshot_append_color (snapshot, &tint, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, height));
  gtk_snapshot_append_color (snapshot, &selection_color, &GRAPHENE_RECT_INIT (x0, 0, 1, height));
  gtk_snapshot_append_color (snapshot, &selection_color, &GRAPHENE_RECT_INIT (x1 - 1, 0, 1, height));
}

/* While the pair filter is set: a badge at the ruler's right end says
 * whose messages are drawn */
static void
snapshot_filter_badge (SextantTimeline *self,
                       GtkSnapshot     *snapshot,
                       PangoLayout     *layout,
                       int              width)
{
  g_autofree char *pair = sextant_session_dup_pair_filter_text (self->session);
  g_autofree char *text = g_strdup_printf ("Only %s (Escape: all)", pair != NULL ? pair : "a pair");
  int w, h;

  pango_layout_set_width (layout, -1);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_append_color (snapshot, &selection_color,
                             &GRAPHENE_RECT_INIT (width - w - 12, 1, w + 10, RULER_HEIGHT - 3));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (width - w - 7, (RULER_HEIGHT - 2 - h) / 2.0f));
  gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 1, 1, 1, 1 });
  gtk_snapshot_restore (snapshot);
}

/* Keys @a and @b (@size bytes, beginning with a RowsKey; zeroed padding)
 * differ at most in their view's times */
static gboolean
same_but_view (gconstpointer a,
               gconstpointer b,
               gsize         size)
{
  gsize after = G_STRUCT_OFFSET (RowsKey, t1) + sizeof (gint64);

  return memcmp (a, b, G_STRUCT_OFFSET (RowsKey, t0)) == 0 &&
         memcmp ((const char *)a + after, (const char *)b + after, size - after) == 0;
}

/* Maps a picture made for the view [@t0, @t1) onto the current view */
static void
transform_view (SextantTimeline *self,
                GtkSnapshot     *snapshot,
                int              plot,
                gint64           t0,
                gint64           t1)
{
  double span = (double)(self->t1 - self->t0);

  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)(self->label_width + (t0 - self->t0) / span * plot), 0));
  gtk_snapshot_scale (snapshot, (float)((t1 - t0) / span), 1);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)-self->label_width, 0));
}

/* The layers (lost time, then the lines; the collectives over the
 * messages: fewer, and they order the run) rendered into a texture of the
 * plot below the ruler, at the widget's scale; NULL when there is nothing
 * to draw or no renderer yet */
static GdkTexture *
layers_texture (SextantTimeline               *self,
                const SextantTimelineGeometry *geometry,
                int                            plot,
                int                            height,
                int                            scale)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  const Frame *frame = self->frame;
  graphene_rect_t area = GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, plot, height - RULER_HEIGHT);

  if (frame == NULL || renderer == NULL || area.size.height <= 0)
    return NULL;
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_scale (snapshot, scale, scale);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-area.origin.x, -area.origin.y));
  if (self->show_lost && frame->lost != NULL && frame->lost->len > 0)
    sextant_timeline_layer_lost (snapshot, geometry, frame->lost, self->patterns);
  /* the whole machine: lines where few, no density band (a pixel row is
   * many locations: their bands would be noise) */
  if (self->show_messages && (frame->messages != NULL || (frame->density != NULL && !self->machine)))
    sextant_timeline_layer_messages (snapshot, geometry, frame->messages, self->machine ? NULL : frame->density,
                                     frame->filter != NULL);
  if (self->show_messages && frame->members != NULL && frame->members->len > 0)
    sextant_timeline_layer_collectives (snapshot, geometry, frame->members);
  if (self->show_messages && (frame->rma != NULL || frame->syncs != NULL))
    sextant_timeline_layer_rma (snapshot, geometry, frame->rma, frame->syncs);
  if ((node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot))) == NULL)
    return NULL;

  return gsk_renderer_render_texture (renderer, node,
                                      &GRAPHENE_RECT_INIT (0, 0, area.size.width * scale, area.size.height * scale));
}

/* The frame's buckets lie in its own view; drawn in the current one they
 * keep their times, so a frame read before a zoom is still in place. */
void
_sextant_timeline_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  SextantTimeline *self = SEXTANT_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int plot = width - self->label_width;
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  SextantTimelineGeometry geometry;
  gboolean pending, reuse_rows;
  RowsKey key;
  GdkRGBA fg;
  GdkRGBA bg;

  /* an error is the window's to show */
  if (self->error != NULL || self->rows == NULL || plot <= 0 || self->t1 <= self->t0)
    return;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  _sextant_timeline_geometry (self, &geometry);

  /* the rows, cached (the key compared whole: its padding zeroed too) */
  memset (&key, 0, sizeof key);
  key.frame = self->frame;
  key.t0 = self->t0;
  key.t1 = self->t1;
  key.width = width;
  key.height = height;
  key.scroll = self->machine || self->vadjustment == NULL ? 0 : gtk_adjustment_get_value (self->vadjustment);
  key.row_height = self->row_height;
  key.rows_serial = self->rows_serial;
  key.machine = self->machine;
  key.color_mode = self->color_mode;
  /* while the frame of a new view is read, the pictures of the last one
   * are drawn where their times fall (scaled and moved), not made again:
   * zooming and panning cost a copy per frame */
  pending = self->frame != NULL && (self->frame->t0 != self->t0 || self->frame->t1 != self->t1);
  reuse_rows = pending && self->rows_node != NULL && same_but_view (&key, &self->rows_key, sizeof key);
  if (!reuse_rows && (self->rows_node == NULL || memcmp (&key, &self->rows_key, sizeof key) != 0))
    {
      g_clear_pointer (&self->rows_node, gsk_render_node_unref);
      self->rows_node = rows_node (self, layout, &fg, width, height);
      self->rows_key = key;
    }

  /* the ruler, fixed above the rows (they scroll under it), its grid
   * lines under them */
  sextant_ruler_snapshot (snapshot, layout, &fg, self->label_width, plot, RULER_HEIGHT, height - RULER_HEIGHT,
                          (self->t0 - self->t_begin) / (double)self->resolution,
                          (self->t1 - self->t_begin) / (double)self->resolution);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT, width, height - RULER_HEIGHT));
  if (self->rows_node != NULL && reuse_rows)
    {
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, plot,
                                                             height - RULER_HEIGHT));
      gtk_snapshot_save (snapshot);
      transform_view (self, snapshot, plot, self->rows_key.t0, self->rows_key.t1);
      gtk_snapshot_append_node (snapshot, self->rows_node);
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
  else if (self->rows_node != NULL)
    gtk_snapshot_append_node (snapshot, self->rows_node);

  /* the layers over the rows, rendered once per frame and view into a
   * texture (a mark, the selection, a range being dragged or a tooltip
   * then draws them again at the cost of a copy) */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, plot,
                                                         height - RULER_HEIGHT));
  {
    LayersKey layers;
    gboolean reuse_layers;

    memset (&layers, 0, sizeof layers);
    layers.rows = key;
    layers.show_messages = self->show_messages;
    layers.show_lost = self->show_lost;
    layers.patterns = self->patterns;
    layers.scale = gtk_widget_get_scale_factor (widget);
    reuse_layers = pending && self->layers_texture != NULL && same_but_view (&layers, &self->layers_key, sizeof layers);
    if (!reuse_layers && (self->layers_texture == NULL || memcmp (&layers, &self->layers_key, sizeof layers) != 0))
      {
        g_clear_object (&self->layers_texture);
        self->layers_texture = layers_texture (self, &geometry, plot, height, layers.scale);
        self->layers_key = layers;
      }
    gtk_snapshot_save (snapshot);
    if (reuse_layers)
      transform_view (self, snapshot, plot, self->layers_key.rows.t0, self->layers_key.rows.t1);
    if (self->layers_texture != NULL)
      gtk_snapshot_append_texture (snapshot, self->layers_texture,
                                   &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, plot, height - RULER_HEIGHT));
    gtk_snapshot_restore (snapshot);
  }
  if (self->mark_loc != SEXTANT_NULL)
    {
      snapshot_mark (self, snapshot, &geometry, self->mark_peer, 0.35f);
      snapshot_mark (self, snapshot, &geometry, self->mark_loc, 0.75f);
    }
  if (self->selection_loc != SEXTANT_NULL)
    snapshot_selection (self, snapshot, &geometry);
  gtk_snapshot_pop (snapshot);

  snapshot_labels (self, snapshot, layout, &fg, height);
  gtk_snapshot_pop (snapshot);

  /* the ruler's edge */
  bg = fg;
  bg.alpha = 0.25f;
  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT - 1, width, 1));
  if (self->selecting)
    snapshot_range (self, snapshot, height);
  if (self->filter != NULL)
    snapshot_filter_badge (self, snapshot, layout, width);
}
