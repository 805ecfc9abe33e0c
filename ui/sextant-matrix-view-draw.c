/*
 * sextant-matrix-view-draw.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The matrix view's drawing: the colour scale and the labels, the cells'
 * picture laid out for the matrix, the metric and the size (one pass over
 * the n x n values, summed into blocks when n is larger than the plot's
 * pixels), and a frame: that picture, the axes' labels and the legend.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-matrix-view-private.h"
#include "sextant-snapshot-util.h"

#define MARGIN        12
#define LEGEND_WIDTH 110
#define GAP_FROM       6     /* cells this wide or wider have a pixel of gap */

/* Scale and text ------------------------------------------------------------------ */

/* Light yellow to dark red (ColorBrewer's YlOrRd), by 0..1 */
static void
heat_color (double   fraction,
            GdkRGBA *color)
{
  static const float stops[5][3] = {
    { 1.00f, 1.00f, 0.80f },
    { 1.00f, 0.85f, 0.46f },
    { 0.99f, 0.55f, 0.24f },
    { 0.89f, 0.10f, 0.11f },
    { 0.50f, 0.00f, 0.15f },
  };

  sextant_scale_color (stops, G_N_ELEMENTS (stops), fraction, color);
}

/* Where @value lies on the scale: logarithmic from the smallest value to
 * the largest when they are more than two decades apart; a cell with
 * anything in it is never the lightest */
static double
scale_fraction (SextantMatrixView *self,
                double             value)
{
  if (self->high <= 0 || value <= 0)
    return 0;
  if (self->log_scale)
    return 0.08 + 0.92 * log (value / self->low) / log (self->high / self->low);
  return 0.08 + 0.92 * value / self->high;
}

char *
_sextant_matrix_view_format_value (SextantMatrixMetric metric,
                                   double              value)
{
  switch (metric)
    {
    case SEXTANT_MATRIX_BYTES:
      return g_format_size_full ((guint64)llround (value), G_FORMAT_SIZE_IEC_UNITS);
    case SEXTANT_MATRIX_TIME:
      return sextant_format_duration ((gint64)llround (value * 1e9), 1000000000);
    case SEXTANT_MATRIX_COUNT:
    case SEXTANT_N_MATRIX_METRICS:
    default:
      return g_strdup_printf ("%.0f", value);
    }
}

static const char *
metric_title (SextantMatrixMetric metric)
{
  switch (metric)
    {
    case SEXTANT_MATRIX_BYTES:
      return "Bytes sent";
    case SEXTANT_MATRIX_TIME:
      return "Time in receives";
    case SEXTANT_MATRIX_COUNT:
    case SEXTANT_N_MATRIX_METRICS:
    default:
      return "Messages";
    }
}

/* The labels without the words they all begin with: "MPI Rank 3" -> "3"
 * (the axes say "MPI Rank …"); nothing is cut where a label would be
 * left empty */
void
_sextant_matrix_view_make_labels (SextantMatrixView *self)
{
  guint n = sextant_comm_matrix_get_size (self->matrix);
  gsize prefix = 0;

  g_clear_pointer (&self->labels, g_strfreev);
  g_clear_pointer (&self->shared, g_free);
  if (n > 1)
    {
      const char *first = sextant_comm_matrix_get_label (self->matrix, 0);

      prefix = strlen (first);
      for (guint i = 1; i < n && prefix > 0; i++)
        {
          const char *label = sextant_comm_matrix_get_label (self->matrix, i);
          gsize p = 0;

          while (p < prefix && label[p] == first[p])
            p++;
          prefix = p;
        }
      /* whole words */
      while (prefix > 0 && (g_ascii_isalnum (first[prefix - 1]) || (guchar)first[prefix - 1] >= 128))
        prefix--;
      for (guint i = 0; i < n; i++)
        if (strlen (sextant_comm_matrix_get_label (self->matrix, i)) <= prefix)
          prefix = 0;
      if (prefix > 0)
        self->shared = g_strndup (first, prefix);
    }
  self->labels = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    self->labels[i] = g_strdup (sextant_comm_matrix_get_label (self->matrix, i) + prefix);
}

/* Geometry and cells ------------------------------------------------------------- */

void
_sextant_matrix_view_clear_cells (SextantMatrixView *self)
{
  g_clear_pointer (&self->cells, gsk_render_node_unref);
  g_clear_pointer (&self->values, g_free);
  self->width = self->height = 0;
}

/* The sum of the metric over a block of matrix rows and columns */
double
_sextant_matrix_view_block_value (SextantMatrixView   *self,
                                  SextantMatrixMetric  metric,
                                  guint                row,
                                  guint                col)
{
  guint n = sextant_comm_matrix_get_size (self->matrix);
  double sum = 0;

  for (guint s = row * self->block; s < MIN ((row + 1) * self->block, n); s++)
    for (guint r = col * self->block; r < MIN ((col + 1) * self->block, n); r++)
      sum += sextant_comm_matrix_get_value (self->matrix, metric, s, r);

  return sum;
}

/* The plot's place and its cells' pixels, for the widget's size */
void
_sextant_matrix_view_layout_cells (SextantMatrixView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  guint n;
  int widest = 0, text_height = 0, side, plot;
  guint32 *pixels;

  if (self->matrix == NULL || (n = sextant_comm_matrix_get_size (self->matrix)) == 0 || width <= 0 || height <= 0)
    return;
  if (self->cells != NULL && self->width == width && self->height == height)
    return;

  _sextant_matrix_view_clear_cells (self);
  self->width = width;
  self->height = height;
  for (guint i = 0; i < n; i++)
    {
      int w;

      pango_layout_set_text (layout, self->labels[i], -1);
      pango_layout_get_pixel_size (layout, &w, &text_height);
      widest = MAX (widest, w);
    }
  self->left = MARGIN + widest + 8;
  self->top = MARGIN + text_height + 6 + widest + 8;
  side = MAX (MIN (width - self->left - LEGEND_WIDTH - MARGIN, height - self->top - MARGIN), 40);
  self->block = (n + (guint)side - 1) / (guint)side;
  self->rows = (n + self->block - 1) / self->block;
  self->cell = MAX (side / (int)self->rows, 1);
  plot = self->cell * (int)self->rows;

  /* the values, their range */
  self->values = g_new (double, (gsize)self->rows * self->rows);
  self->low = G_MAXDOUBLE;
  self->high = 0;
  for (guint r = 0; r < self->rows; r++)
    for (guint c = 0; c < self->rows; c++)
      {
        double v = self->block == 1 ? sextant_comm_matrix_get_value (self->matrix, self->metric, r, c)
                                    : _sextant_matrix_view_block_value (self, self->metric, r, c);

        self->values[(gsize)r * self->rows + c] = v;
        if (v > 0)
          {
            self->low = MIN (self->low, v);
            self->high = MAX (self->high, v);
          }
      }
  self->log_scale = self->high > 0 && self->high / self->low > 100;

  /* native ARGB32: opaque cells, a clear gap between cells wide enough
   * to have one */
  pixels = sextant_pixels_new (plot, plot);
  for (guint r = 0; r < self->rows; r++)
    for (guint c = 0; c < self->rows; c++)
      {
        double v = self->values[(gsize)r * self->rows + c];
        int inner = self->cell >= GAP_FROM ? self->cell - 1 : self->cell;
        guint32 pixel;
        GdkRGBA color;

        if (v <= 0)
          continue;
        heat_color (scale_fraction (self, v), &color);
        pixel = 0xff000000u | (guint32)lround (color.red * 255) << 16 | (guint32)lround (color.green * 255) << 8 |
                (guint32)lround (color.blue * 255);
        for (int y = 0; y < inner; y++)
          {
            guint32 *row = pixels + (gsize)(r * self->cell + y) * plot + (gsize)c * self->cell;

            for (int x = 0; x < inner; x++)
              row[x] = pixel;
          }
      }
  self->cells = sextant_pixels_node_new (pixels, plot, plot,
                                         &GRAPHENE_RECT_INIT (self->left, self->top, plot, plot));
}

/* The drawn row and column under (@x, @y), FALSE outside the plot */
gboolean
_sextant_matrix_view_cell_at (SextantMatrixView *self,
                              double             x,
                              double             y,
                              guint             *row,
                              guint             *col)
{
  int plot = self->cell * (int)self->rows;

  if (self->cells == NULL || x < self->left || y < self->top || x >= self->left + plot || y >= self->top + plot)
    return FALSE;
  *col = (guint)((x - self->left) / self->cell);
  *row = (guint)((y - self->top) / self->cell);

  return TRUE;
}

/* Drawing ------------------------------------------------------------------------ */

/* The label of a drawn row or column: its location's, or its block's first */
static const char *
axis_label (SextantMatrixView *self,
            guint              index)
{
  return self->labels[index * self->block];
}

/* Senders down the left, receivers across the top (turned), one label in
 * every few rows when they are denser than the text */
static void
snapshot_axes (SextantMatrixView *self,
               GtkSnapshot       *snapshot,
               PangoLayout       *layout,
               const GdkRGBA     *fg)
{
  int text_height, step;
  g_autofree char *title = NULL;

  pango_layout_set_text (layout, "0", -1);
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  step = MAX (1, (text_height + 2 + self->cell - 1) / self->cell);

  title = g_strdup_printf ("Senders down, receivers across%s%s%s", self->shared != NULL ? " (" : "",
                           self->shared != NULL ? self->shared : "", self->shared != NULL ? "…)" : "");
  sextant_snapshot_text (snapshot, layout, title, MARGIN, MARGIN / 2.0f, fg);

  for (guint r = 0; r < self->rows; r += (guint)step)
    {
      const char *text = axis_label (self, r);
      int w;

      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      sextant_snapshot_text (snapshot, layout, text, (float)(self->left - 6 - w),
                 (float)(self->top + r * self->cell + (self->cell - text_height) / 2.0), fg);
    }
  for (guint c = 0; c < self->rows; c += (guint)step)
    {
      const char *text = axis_label (self, c);

      /* read bottom to top, ending above the column */
      pango_layout_set_text (layout, text, -1);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)(self->left + c * self->cell +
                                                                      (self->cell - text_height) / 2.0),
                                                              (float)(self->top - 6)));
      gtk_snapshot_rotate (snapshot, -90);
      gtk_snapshot_append_layout (snapshot, layout, fg);
      gtk_snapshot_restore (snapshot);
    }
}

/* The scale: dark (the most) at the top, its values at three heights */
static void
snapshot_legend (SextantMatrixView *self,
                 GtkSnapshot       *snapshot,
                 PangoLayout       *layout,
                 const GdkRGBA     *fg)
{
  int plot = self->cell * (int)self->rows;
  float x = (float)(self->left + plot + 18);
  float y, height;
  int text_height;

  sextant_snapshot_text (snapshot, layout, metric_title (self->metric), x, (float)self->top - 2, fg);
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  /* under the title, as high as the plot (at most 240 pixels), and room
   * for half a label under it */
  y = (float)self->top + text_height + 8;
  height = (float)MIN (self->top + plot - y, 240);
  if (height < 30)
    return;
  for (int i = 0; i < (int)height; i++)
    {
      GdkRGBA c;

      heat_color (0.08 + 0.92 * (1 - i / (height - 1)), &c);
      gtk_snapshot_append_color (snapshot, &c, &GRAPHENE_RECT_INIT (x, y + i, 14, 1));
    }
  if (self->high <= 0)
    return;
  for (int k = 0; k < 3; k++)
    {
      /* the most, the middle of the scale, the least (0 when linear) */
      double lows[] = { self->high, self->log_scale ? sqrt (self->low * self->high) : self->high / 2,
                        self->log_scale ? self->low : 0 };
      g_autofree char *text = _sextant_matrix_view_format_value (self->metric, lows[k]);

      sextant_snapshot_text (snapshot, layout, text, x + 20, y + (float)(k / 2.0 * (height - 1)) - text_height / 2.0f, fg);
    }
  if (self->log_scale)
    sextant_snapshot_text (snapshot, layout, "log scale", x, y + height + 6, fg);
}

/* The pair filter's cells, when it is one of this matrix's */
static gboolean
filter_cells (SextantMatrixView *self,
              guint             *row,
              guint             *col)
{
  const SextantPairFilter *filter = self->session != NULL ? sextant_session_get_pair_filter (self->session) : NULL;
  int s, r;

  if (filter == NULL || (s = sextant_comm_matrix_find_loc (self->matrix, filter->sender_first)) < 0 ||
      (r = sextant_comm_matrix_find_loc (self->matrix, filter->receiver_first)) < 0)
    return FALSE;
  *row = (guint)s / self->block;
  *col = (guint)r / self->block;

  return TRUE;
}

void
_sextant_matrix_view_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  SextantMatrixView *self = SEXTANT_MATRIX_VIEW (widget);
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA fg, faint;
  int plot;
  guint row, col;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  faint = fg;
  faint.alpha = 0.06f;
  if (self->error != NULL)
    {
      sextant_snapshot_message (widget, snapshot, self->error, MARGIN, &(GdkRGBA) { 0.75f, 0.11f, 0.16f, 1 });
      return;
    }
  if (self->matrix == NULL || sextant_comm_matrix_get_size (self->matrix) == 0)
    {
      GdkRGBA dim = fg;
      const char *text = self->building || self->stale || self->debounce != 0 ? "Counting the messages…"
                         : self->matrix == NULL ? ""
                         : self->visible_range ? "No messages in the visible range."
                         : "The trace has no messages.";

      dim.alpha = 0.6f;
      sextant_snapshot_message (widget, snapshot, text, MARGIN, &dim);
      return;
    }

  _sextant_matrix_view_layout_cells (self);
  if (self->cells == NULL)
    return;
  plot = self->cell * (int)self->rows;
  layout = gtk_widget_create_pango_layout (widget, NULL);
  gtk_snapshot_append_color (snapshot, &faint, &GRAPHENE_RECT_INIT (self->left, self->top, plot, plot));
  gtk_snapshot_append_node (snapshot, self->cells);
  snapshot_axes (self, snapshot, layout, &fg);
  snapshot_legend (self, snapshot, layout, &fg);

  if (filter_cells (self, &row, &col))
    sextant_snapshot_frame (snapshot, &GRAPHENE_RECT_INIT (self->left + col * self->cell - 2, self->top + row * self->cell - 2,
                                                 self->cell + 4, self->cell + 4),
                  2, &(GdkRGBA) { 0.15f, 0.45f, 0.85f, 1 });
  if (self->hover_row >= 0 && (guint)self->hover_row < self->rows && (guint)self->hover_col < self->rows)
    {
      GdkRGBA ring = fg;

      ring.alpha = 0.7f;
      sextant_snapshot_frame (snapshot, &GRAPHENE_RECT_INIT (self->left + self->hover_col * self->cell - 1,
                                                   self->top + self->hover_row * self->cell - 1, self->cell + 2,
                                                   self->cell + 2),
                    1, &ring);
    }
}
