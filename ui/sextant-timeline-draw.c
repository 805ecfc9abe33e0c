/*
 * sextant-timeline-draw.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline draws of a frame, bottom to top:
 * - the rows in view: a stack of the time shares per pixel column (by
 *   category, or the dominant region's colour), counter plots for metric
 *   rows, or in the whole-machine mode one picture of every location
 *   (a pixel row per band of locations). This is a render node
 *   cached by frame, view and geometry (sysprof-flame-graph.c's way): a
 *   mark, a toggle or a tooltip does not sum the rows again;
 * - the layers (sextant-timeline-layers.h): lost time, messages,
 *   collectives, one-sided operations;
 * - the chosen instance's outline, the selection, the range being chosen;
 * - the label column (expanders, names) and the ruler, fixed above the
 *   rows (the marks and the labels: sextant-timeline-marks.c).
 * The rows and the layers are pixels made once per frame of data and
 * view (sextant_pixels_node_new()), one picture (the layers painted over
 * the rows or the whole machine) but at a scale other than 1;
 * every other frame copies it. A new view's picture: 3-6 ms on the two
 * threads that paint its rows, 1-3 ms for its layers (docs/benchmarks.md).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-ruler.h"
#include "sextant-snapshot-util.h"
#include "sextant-timeline-private.h"

/* Bottom to top in a row: computation first, waiting and communication on
 * top, where the eye looks for them. */
static const guint stack_order[SEXTANT_N_CATEGORIES] = {
  SEXTANT_CATEGORY_USER, SEXTANT_CATEGORY_OMP, SEXTANT_CATEGORY_ACCEL, SEXTANT_CATEGORY_IO,
  SEXTANT_CATEGORY_THREAD, SEXTANT_CATEGORY_OTHER, SEXTANT_CATEGORY_RMA, SEXTANT_CATEGORY_MPI,
};

/* Rows ------------------------------------------------------------------------- */

/* The buckets of @locs summed per pixel column and category into
 * @columns (of double), the categories with time in a column into
 * @present (bit 1 << category); returns the number of locations found in
 * the frame */
static guint
sum_columns (SextantTimeline *self,
             GArray          *columns,
             GArray          *locs,
             int              plot,
             double         **out,
             gint64         **regions,
             guint           *present)
{
  double px_per_tick = plot / (double)(self->t1 - self->t0);
  double *time;
  guint found = 0;
  guint categories_in = 0;

  g_array_set_size (columns, 0);
  /* the categories' sums, then per column the time of its dominant region so far */
  g_array_set_size (columns, (guint)plot * (SEXTANT_N_CATEGORIES + 1) + (guint)plot);
  time = (double *)(void *)columns->data;
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
          double x0 = (b->begin - self->t0) * px_per_tick;
          double x1 = (b->end - self->t0) * px_per_tick;
          double per_px = x1 > x0 ? 1 / (x1 - x0) : 0;
          guint categories = sextant_lod_bucket_categories (b);

          /* a bucket's time spread over the columns it covers, in proportion */
          for (int x = MAX ((int)floor (x0), 0); x < MIN ((int)ceil (x1), plot); x++)
            {
              double share = (MIN (x1, x + 1.0) - MAX (x0, (double)x)) * per_px;
              double *column = time + (gsize)x * (SEXTANT_N_CATEGORIES + 1);

              categories_in |= share > 0 ? categories : 0;
              for (guint set = categories; set != 0; set &= set - 1)
                {
                  guint c = (guint)g_bit_nth_lsf (set, -1);

                  column[c] += share * b->time[c];
                }
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
  *present = categories_in;

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

/* Lines @y0 to @y1 (widget coordinates, exclusive), clipped, all of them
 * @pixel: a row's background */
static void
canvas_fill (SextantLayerCanvas *canvas,
             int                 y0,
             int                 y1,
             guint32             pixel)
{
  y0 = MAX (y0 - canvas->top, 0);
  y1 = MIN (y1 - canvas->top, canvas->height);
  for (gsize i = (gsize)y0 * canvas->width; i < (gsize)MAX (y1, y0) * canvas->width; i++)
    canvas->pixels[i] = pixel;
}

/* Column @out of a row (@stride pixels a line) from @from to @to pixels
 * above its bottom, which is line @bottom, @pixel; lines [@lo, @hi) only
 * (the canvas's) */
static inline void
fill_column (guint32 *out,
             gsize    stride,
             int      bottom,
             int      lo,
             int      hi,
             int      from,
             int      to,
             guint32  pixel)
{
  int first = MAX (bottom - to, lo), last = MIN (bottom - from, hi);

  for (int line = first; line < last; line++)
    out[(gsize)line * stride] = pixel;
}

/* One row: each column a stack, a category's height its share of the
 * column's time over the row's threads (a column half idle is half
 * empty); by region, one bar of the busy share in the colour of the
 * region that took most of it. Pixels written straight into the rows'
 * image: a few ms for a screen of rows, where a colour node per run of
 * columns cost Cairo tens of ms to render each frame. The stacks'
 * heights first, then column by column a run of lines per category (a
 * pixel compared with every top of its column cost twice as much: 1.2
 * million pixels for a screen of rows). @columns is scratch. FALSE when
 * the row has nothing in the frame (nothing written). */
static gboolean
paint_row (SextantTimeline    *self,
           SextantLayerCanvas *canvas,
           guint32             background,
           GArray             *columns,
           GArray             *locs,
           guint               n_threads,
           int                 y,
           int                 h)
{
  int plot = canvas->width;
  gboolean by_region = self->color_mode == SEXTANT_TIMELINE_COLOR_BY_REGION;
  double to_px;   /* a column's ticks summed over the threads -> pixels of height */
  guint32 colors[SEXTANT_N_CATEGORIES];
  guint order[SEXTANT_N_CATEGORIES], n = 0;    /* the stack's categories the row has, bottom up */
  gint64 last_region = SEXTANT_NULL;
  guint32 region_pixel = 0;
  gint64 *regions;
  double *time;
  int *tops;            /* per column, each of its n stacked categories' top, pixels from the row's bottom */
  guint32 *pixels;      /* by region: per column, its bar's colour */
  gsize scratch;
  guint present;

  /* the share of the row's threads' time (a process's Broadcaster
   * sessions ran one after the other: one thread) */
  if (sum_columns (self, columns, locs, plot, &time, &regions, &present) == 0 || n_threads == 0)
    return FALSE;
  to_px = h / ((double)(self->t1 - self->t0) / plot * n_threads);

  /* the categories of the row's stacks, bottom up */
  for (guint k = 0; k < SEXTANT_N_CATEGORIES; k++)
    if (present & 1u << stack_order[k])
      {
        colors[n] = sextant_timeline_premultiplied (sextant_timeline_category_color (stack_order[k]));
        order[n++] = stack_order[k];
      }
  if (by_region)
    n = 1;
  if (n == 0)
    {
      canvas_fill (canvas, y, y + h, background);
      return TRUE;
    }

  /* the scratch after the sums: the tops, the bars' colours */
  scratch = columns->len;
  g_array_set_size (columns, columns->len + ((gsize)plot * n * sizeof (int) + (gsize)plot * sizeof (guint32)) /
                                               sizeof (double) + 2);
  time = (double *)(void *)columns->data;
  regions = (gint64 *)(void *)(time + (gsize)plot * (SEXTANT_N_CATEGORIES + 1));
  tops = (int *)(void *)((double *)(void *)columns->data + scratch);
  pixels = (guint32 *)(tops + (gsize)plot * n);

  for (int x = 0; x < plot; x++)
    {
      const double *column = time + (gsize)x * (SEXTANT_N_CATEGORIES + 1);
      int *top = tops + (gsize)x * n;
      double sum = 0;

      if (by_region)
        {
          for (guint k = 0; k < SEXTANT_N_CATEGORIES; k++)
            sum += column[k];
          top[0] = (int)(MIN (sum * to_px, h) + 0.5);
          if (top[0] > 0 && (regions[x] != last_region || region_pixel == 0))
            {
              GdkRGBA color;

              region_color (self, regions[x], column, &color);
              region_pixel = sextant_timeline_premultiplied (&color);
              last_region = regions[x];
            }
          pixels[x] = region_pixel;
          continue;
        }
      /* heights in whole pixels, rounded on the running sum so that they
       * add up to the rounded total */
      for (guint k = 0; k < n; k++)
        {
          sum += column[order[k]];
          top[k] = (int)(MIN (sum * to_px, h) + 0.5);
        }
    }

  /* column by column, clipped to the canvas: a pixel d lines above the
   * row's bottom (1 to h) is the first category whose top reaches it,
   * the background above the last */
  {
    int bottom = y + h - canvas->top;
    int lo = MAX (y - canvas->top, 0), hi = MIN (bottom, canvas->height);
    gsize stride = (gsize)canvas->width;

    for (int x = 0; x < plot && lo < hi; x++)
      {
        guint32 *out = canvas->pixels + x;
        const int *top = tops + (gsize)x * n;
        int from = 0;

        if (by_region)
          {
            fill_column (out, stride, bottom, lo, hi, 0, top[0], pixels[x]);
            fill_column (out, stride, bottom, lo, hi, MAX (top[0], 0), h, background);
            continue;
          }
        for (guint k = 0; k < n; k++)
          {
            int to = MAX (top[k], from);

            fill_column (out, stride, bottom, lo, hi, from, to, colors[k]);
            from = to;
          }
        fill_column (out, stride, bottom, lo, hi, from, h, background);
      }
  }

  return TRUE;
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

/* The whole machine's colours: per category its colour packed in three
 * 21-bit fields, so that one product per category weighs all three
 * channels of a cell (at most 8 x 255 x 255 each); per sum of a cell's
 * shares its alpha (a cell busy a tenth of its time still shows) and the
 * factor (in 1/65536) from a channel's weighted sum to its premultiplied
 * value, sum x alpha / (busy x 255). In integers: a million cells and
 * more a frame. */
typedef struct
{
  guint64 rgb[SEXTANT_N_CATEGORIES];
  guint   alpha[SEXTANT_N_CATEGORIES * 255 + 1];
  guint64 factor[SEXTANT_N_CATEGORIES * 255 + 1];
} MachineColors;

static const MachineColors *
machine_colors (void)
{
  static MachineColors colors;
  static gsize done;

  if (g_once_init_enter (&done))
    {
      for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
        {
          const GdkRGBA *color = sextant_timeline_category_color (c);

          colors.rgb[c] = (guint64)lround (color->red * 255) << 42 | (guint64)lround (color->green * 255) << 21 |
                          (guint64)lround (color->blue * 255);
        }
      for (guint busy = 1; busy < G_N_ELEMENTS (colors.alpha); busy++)
        {
          colors.alpha[busy] = MIN (255, 40 + busy * 215 / 255);
          colors.factor[busy] = ((guint64)colors.alpha[busy] * 65536 + busy * 255 / 2) / (busy * 255);
        }
      g_once_init_leave (&done, 1);
    }

  return &colors;
}

/* Band @b of the frame's machine picture as pixels (its cells' mean
 * colours, premultiplied), @frame->width of them into @line; the
 * categories the frame has only (@present, @n_present of them: two or
 * three of the eight in a trace) */
static void
machine_band (const Frame *frame,
              gint64       b,
              const guint *present,
              guint        n_present,
              guint32     *line)
{
  const MachineColors *colors = machine_colors ();
  const SextantMachineCell *cells = frame->cells + (gsize)b * frame->width;
  guint64 last = G_MAXUINT64;   /* the cell before, as one word: a band's cells come in runs of one value */
  guint32 last_pixel = 0;

  G_STATIC_ASSERT (sizeof (SextantMachineCell) == sizeof (guint64));
  for (int x = 0; x < frame->width; x++)
    {
      const guint8 *share = cells[x].share;
      guint64 sum = 0, factor, word;
      guint busy = 0;

      memcpy (&word, share, sizeof word);
      if (word == last)
        {
          line[x] = last_pixel;
          continue;
        }
      last = word;
      for (guint k = 0; k < n_present; k++)
        {
          busy += share[present[k]];
          sum += share[present[k]] * colors->rgb[present[k]];
        }
      if (busy == 0)
        {
          line[x] = last_pixel = 0;
          continue;
        }
      factor = colors->factor[busy];
      line[x] = last_pixel =
        (guint32)colors->alpha[busy] << 24 | (guint32)MIN (((sum >> 42) * factor + 32768) >> 16, 255) << 16 |
        (guint32)MIN (((sum >> 21 & 0x1fffff) * factor + 32768) >> 16, 255) << 8 |
        (guint32)MIN (((sum & 0x1fffff) * factor + 32768) >> 16, 255);
    }
}


/* The rows' pixels: what a new frame or view paints of the rows, apart
 * from the counters (GTK objects) */
typedef struct
{
  SextantTimeline   *self;
  SextantLayerCanvas canvas;    /* the plot below the ruler */
  guint              first;     /* the rows in view */
  guint              last;
  double             top;       /* row 0's top (scrolled) */
  guint32            stripe;    /* a row's background */
  int                next;      /* the next row to paint, from first (the machine: run of lines); atomic */
  gboolean           machine;   /* the whole machine's picture, not rows */
} RowsPaint;

/* The whole machine's picture into @paint's canvas (below a gap of
 * ROW_GAP lines), MACHINE_LINES lines at a time until none is left: a
 * band per pixel row or a few, each cell the mean of its categories'
 * colours weighted by their shares, as opaque as the cell was busy;
 * stretched to the plot by hand (the nearest cell: scaled by Cairo the
 * picture cost 70 ms a new frame). Any thread, as rows_paint(). */
#define MACHINE_LINES 16

static void
machine_paint (RowsPaint *paint)
{
  const Frame *frame = paint->self->frame;
  SextantLayerCanvas *canvas = &paint->canvas;
  int h = canvas->height - ROW_GAP;
  g_autofree guint32 *band = g_new (guint32, MAX (frame->width, 1));
  gint64 band_made = -1;
  guint present[SEXTANT_N_CATEGORIES], n_present = 0;
  int chunk;

  /* the categories of the frame's cells (sum_legend()) */
  for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
    if (frame->categories & 1u << c)
      present[n_present++] = c;

  while ((chunk = g_atomic_int_add (&paint->next, 1)) < (canvas->height + MACHINE_LINES - 1) / MACHINE_LINES)
    for (int line = chunk * MACHINE_LINES; line < MIN ((chunk + 1) * MACHINE_LINES, canvas->height); line++)
      {
        guint32 *out = canvas->pixels + (gsize)line * canvas->width;
        gint64 b = (gint64)(line - ROW_GAP) * frame->n_bands / MAX (h, 1);

        if (line < ROW_GAP)
          {
            memset (out, 0, (gsize)canvas->width * 4);
            continue;
          }
        if (b != band_made)
          machine_band (frame, b, present, n_present, band);
        band_made = b;
        if (canvas->width == frame->width)
          memcpy (out, band, (gsize)canvas->width * 4);
        else
          for (int x = 0; x < canvas->width; x++)
            out[x] = band[(gint64)x * frame->width / canvas->width];
      }
}

/* Row @i's top line (widget coordinates) */
static int
row_line (RowsPaint *paint,
          guint      i)
{
  return (int)lround (paint->top + i * (paint->self->row_height + ROW_GAP));
}

/* Stripes and stacks into @paint's canvas, row after row until none is
 * left: each row's lines and the gap above it, so that every line of the
 * canvas is written once. Reads the timeline's frame, view and rows,
 * which the main thread leaves alone meanwhile: on the thread
 * _sextant_timeline_snapshot() starts, and on the main thread once it has
 * drawn the layers (the rows share themselves out between the two). */
static gpointer
rows_paint (gpointer data)
{
  RowsPaint *paint = data;
  SextantTimeline *self = paint->self;
  g_autoptr(GArray) columns = NULL;
  int h = (int)self->row_height;
  guint i;

  if (paint->machine)
    {
      machine_paint (paint);
      return NULL;
    }
  columns = g_array_new (FALSE, TRUE, sizeof (double));
  while ((i = paint->first + (guint)g_atomic_int_add (&paint->next, 1)) < paint->last)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);
      int y = row_line (paint, i);

      canvas_fill (&paint->canvas, i == paint->first ? paint->canvas.top : row_line (paint, i - 1) + h, y, 0);
      if (self->frame == NULL || self->frame->machine || row->kind == SEXTANT_TIMELINE_ROW_COUNTER ||
          !paint_row (self, &paint->canvas, paint->stripe, columns, row->locs, row->n_threads, y, h))
        canvas_fill (&paint->canvas, y, y + h, paint->stripe);
    }

  return NULL;
}

/* Starts the rows' (or the whole machine's) pixels of the view: FALSE
 * when there are none to paint (no room; the whole machine not read yet) */
static gboolean
rows_paint_init (SextantTimeline *self,
                 RowsPaint       *paint,
                 const GdkRGBA   *fg,
                 int              width,
                 int              height)
{
  GdkRGBA stripe = *fg;

  /* the whole machine: when its frame is read */
  if (height <= RULER_HEIGHT || (self->machine && (self->frame == NULL || !self->frame->machine ||
                                                   self->frame->cells == NULL || self->frame->width <= 0)))
    return FALSE;
  stripe.alpha = 0.05f;
  paint->self = self;
  paint->machine = self->machine;
  paint->canvas.x = self->label_width;
  paint->canvas.width = width - self->label_width;
  paint->canvas.top = RULER_HEIGHT;
  paint->canvas.height = height - RULER_HEIGHT;
  /* rows_paint() writes every pixel down to the last row's; the lines
   * below it here */
  paint->canvas.pixels = sextant_pixels_new_dirty (paint->canvas.width, paint->canvas.height);
  paint->stripe = sextant_timeline_premultiplied (&stripe);
  _sextant_timeline_visible_rows (self, &paint->first, &paint->last);
  paint->top = _sextant_timeline_row_top (self, 0);
  paint->next = 0;
  if (paint->machine)
    return TRUE;
  canvas_fill (&paint->canvas,
               paint->last > paint->first ? row_line (paint, paint->last - 1) + (int)self->row_height
                                          : paint->canvas.top,
               paint->canvas.top + paint->canvas.height, 0);

  return TRUE;
}

/* The rows' node: the pixels of @paint (NULL: none: rows or the whole
 * machine's picture), the counters */
static GskRenderNode *
rows_node (SextantTimeline *self,
           RowsPaint       *paint,
           PangoLayout     *layout,
           int              width,
           int              height)
{
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  SextantTimelineGeometry geometry;
  g_autoptr(GskRenderNode) node = NULL;

  if (paint == NULL)
    return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));

  node = sextant_pixels_node_new (paint->canvas.pixels, paint->canvas.width, paint->canvas.height,
                                  &GRAPHENE_RECT_INIT (paint->canvas.x, paint->canvas.top, paint->canvas.width,
                                                       paint->canvas.height));
  gtk_snapshot_append_node (snapshot, node);
  /* the counters' plots over their rows */
  _sextant_timeline_geometry (self, &geometry);
  for (guint i = paint->first; i < paint->last && !paint->machine && self->frame != NULL && !self->frame->machine;
       i++)
    {
      const SextantTimelineRow *row = sextant_timeline_rows_get_row (self->rows, i);

      if (row->kind == SEXTANT_TIMELINE_ROW_COUNTER)
        snapshot_counter (self, snapshot, layout, row, (float)_sextant_timeline_row_top (self, i), &geometry);
    }

  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

/* How far a picture made for one view may be scaled to show another:
 * further, it is a smear, and Cairo replays the picture's recording
 * through an image of the scaled size (out of memory at 1000 times) */
#define MAX_PICTURE_SCALE 8.0

/* Keys @a and @b (@size bytes, beginning with a RowsKey; zeroed padding)
 * differ at most in their view's times, which are within
 * MAX_PICTURE_SCALE of each other's span */
static gboolean
same_but_view (gconstpointer a,
               gconstpointer b,
               gsize         size)
{
  const RowsKey *ka = a, *kb = b;
  gsize after = G_STRUCT_OFFSET (RowsKey, t1) + sizeof (gint64);
  double ratio = (double)(ka->t1 - ka->t0) / (double)MAX (kb->t1 - kb->t0, 1);

  return memcmp (a, b, G_STRUCT_OFFSET (RowsKey, t0)) == 0 &&
         memcmp ((const char *)a + after, (const char *)b + after, size - after) == 0 &&
         ratio <= MAX_PICTURE_SCALE && ratio >= 1 / MAX_PICTURE_SCALE;
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
 * messages: fewer, and they order the run) over @canvas, the plot below
 * the ruler at the widget's @scale. At a scale of 1, what is painted by
 * hand (the lost time, the message lines and their band, bundles without
 * heads, the collectives) goes straight into the canvas and the rest
 * (heads, one-sided operations) is drawn over it with Cairo: a Cairo node
 * costs a picture of the whole plot when drawn. */
static void
layers_paint (SextantTimeline               *self,
              const SextantTimelineGeometry *geometry,
              SextantLayerCanvas            *canvas,
              int                            scale)
{
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  const Frame *frame = self->frame;
  SextantLayerCanvas *by_hand = scale == 1 ? canvas : NULL;
  gboolean lost = self->show_lost && frame->lost != NULL && frame->lost->len > 0;

  if (lost && by_hand != NULL)
    sextant_timeline_layer_lost_paint (by_hand, geometry, frame->lost, self->patterns);
  else if (lost)
    sextant_timeline_layer_lost (snapshot, geometry, frame->lost, self->patterns);
  /* the whole machine: lines where few, no density band (a pixel row is
   * many locations: their bands would be noise) */
  if (self->show_messages && (frame->messages != NULL || (frame->density != NULL && !self->machine)))
    sextant_timeline_layer_messages (snapshot, by_hand, geometry, frame->messages,
                                     self->machine ? NULL : frame->density, frame->filter != NULL);
  if (self->show_messages && frame->members != NULL && frame->members->len > 0)
    sextant_timeline_layer_collectives (snapshot, by_hand, geometry, frame->members);
  if (self->show_messages && (frame->rma != NULL || frame->syncs != NULL))
    sextant_timeline_layer_rma (snapshot, geometry, frame->rma, frame->syncs);
  if (self->show_messages && frame->locks != NULL && frame->locks->len > 0)
    sextant_timeline_layer_locks (snapshot, geometry, frame->locks);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  sextant_pixels_draw (canvas->pixels, node,
                       &GRAPHENE_RECT_INIT (canvas->x, canvas->top, canvas->width / scale, canvas->height / scale),
                       scale);
}

/* The layers as a picture of their own (at a scale other than 1: the
 * rows' picture is at a scale of 1) */
static GskRenderNode *
layers_node (SextantTimeline               *self,
             const SextantTimelineGeometry *geometry,
             int                            plot,
             int                            height,
             int                            scale)
{
  SextantLayerCanvas canvas = { NULL, self->label_width, RULER_HEIGHT, plot * scale, (height - RULER_HEIGHT) * scale };

  if (self->frame == NULL || height <= RULER_HEIGHT)
    return NULL;
  canvas.pixels = sextant_pixels_new (canvas.width, canvas.height);
  layers_paint (self, geometry, &canvas, scale);

  return sextant_pixels_node_new (canvas.pixels, canvas.width, canvas.height,
                                  &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, plot, height - RULER_HEIGHT));
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
  gboolean pending, reuse_rows, new_rows, reuse_layers, new_layers, merged;
  RowsKey key;
  LayersKey layers;
  RowsPaint paint;
  gboolean painting;
  GThread *thread = NULL;
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
  /* at a scale of 1 the layers are painted into the rows' picture: one
   * picture for GTK to draw (each costs it a copy of the plot and a
   * composite, 1-3 ms) */
  merged = key.merged = gtk_widget_get_scale_factor (widget) == 1;
  /* while the frame of a new view is read, the pictures of the last one
   * are drawn where their times fall (scaled and moved), not made again:
   * zooming and panning cost a copy per frame */
  pending = self->frame != NULL && (self->frame->t0 != self->t0 || self->frame->t1 != self->t1);

  /* the layers over the rows, drawn once per frame and view into
   * pixels (a mark, the selection, a range being dragged or a tooltip
   * then draws them again at the cost of a copy) */
  memset (&layers, 0, sizeof layers);
  layers.rows = key;
  layers.show_messages = self->show_messages;
  layers.show_lost = self->show_lost;
  layers.patterns = self->patterns;
  layers.scale = gtk_widget_get_scale_factor (widget);
  if (merged)
    {
      /* one picture, made again when the layers change (their key holds
       * the rows') */
      reuse_rows = pending && self->rows_node != NULL && same_but_view (&layers, &self->layers_key, sizeof layers);
      new_rows = !reuse_rows && (self->rows_node == NULL || memcmp (&layers, &self->layers_key, sizeof layers) != 0);
      reuse_layers = new_layers = FALSE;
      if (new_rows)
        {
          g_clear_pointer (&self->layers_node, gsk_render_node_unref);
          self->layers_key = layers;
        }
    }
  else
    {
      reuse_rows = pending && self->rows_node != NULL && same_but_view (&key, &self->rows_key, sizeof key);
      new_rows = !reuse_rows && (self->rows_node == NULL || memcmp (&key, &self->rows_key, sizeof key) != 0);
      reuse_layers = pending && self->layers_node != NULL &&
                     same_but_view (&layers, &self->layers_key, sizeof layers);
      new_layers = !reuse_layers &&
                   (self->layers_node == NULL || memcmp (&layers, &self->layers_key, sizeof layers) != 0);
    }

  /* a new frame or view: the rows' pixels painted on a second thread
   * and this one (2-6 ms for a screen of rows on one), while this one
   * draws the layers when they are a picture of their own */
  painting = new_rows && rows_paint_init (self, &paint, &fg, width, height);
  if (painting && (new_layers || merged))
    thread = g_thread_new ("sextant-timeline-rows", rows_paint, &paint);
  else if (painting)
    rows_paint (&paint);
  if (new_layers)
    {
      g_clear_pointer (&self->layers_node, gsk_render_node_unref);
      self->layers_node = layers_node (self, &geometry, plot, height, layers.scale);
      self->layers_key = layers;
    }
  /* the rows the other thread has not started yet */
  if (thread != NULL)
    {
      rows_paint (&paint);
      g_thread_join (thread);
    }
  if (painting && merged && self->frame != NULL)
    layers_paint (self, &geometry, &paint.canvas, 1);
  if (new_rows)
    {
      g_clear_pointer (&self->rows_node, gsk_render_node_unref);
      self->rows_node = rows_node (self, painting ? &paint : NULL, layout, width, height);
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

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, plot,
                                                         height - RULER_HEIGHT));
  gtk_snapshot_save (snapshot);
  if (reuse_layers)
    transform_view (self, snapshot, plot, self->layers_key.rows.t0, self->layers_key.rows.t1);
  if (self->layers_node != NULL)
    gtk_snapshot_append_node (snapshot, self->layers_node);
  gtk_snapshot_restore (snapshot);
  if (self->mark_loc != SEXTANT_NULL)
    {
      /* a lock wait's peer: the lock's holder, outlined over its hold */
      const SextantLockWait *wait = sextant_timeline_find_lock_wait (self->frame != NULL ? self->frame->locks : NULL,
                                                                     self->mark_loc, self->mark_t1, self->mark_peer);

      if (wait != NULL)
        _sextant_timeline_snapshot_mark (self, snapshot, &geometry, wait->holder_loc, wait->hold_begin, wait->hold_end, 0.75f);
      else
        _sextant_timeline_snapshot_mark (self, snapshot, &geometry, self->mark_peer, self->mark_t0, self->mark_t1, 0.35f);
      _sextant_timeline_snapshot_mark (self, snapshot, &geometry, self->mark_loc, self->mark_t0, self->mark_t1, 0.75f);
    }
  if (self->selection_loc != SEXTANT_NULL)
    _sextant_timeline_snapshot_selection (self, snapshot, &geometry);
  gtk_snapshot_pop (snapshot);

  /* the labels, cached: a new view is mostly the same rows */
  {
    LabelsKey labels_key;

    memset (&labels_key, 0, sizeof labels_key);
    labels_key.scroll = key.scroll;
    labels_key.row_height = self->row_height;
    labels_key.rows_serial = self->rows_serial;
    labels_key.machine = self->machine;
    labels_key.height = height;
    labels_key.label_width = self->label_width;
    labels_key.fg = fg;
    labels_key.font_serial = pango_context_get_serial (gtk_widget_get_pango_context (widget));
    if (self->labels_node == NULL || memcmp (&labels_key, &self->labels_key, sizeof labels_key) != 0)
      {
        g_autoptr(GtkSnapshot) labels = gtk_snapshot_new ();

        _sextant_timeline_snapshot_labels (self, labels, layout, &fg, height);
        g_clear_pointer (&self->labels_node, gsk_render_node_unref);
        self->labels_node = gtk_snapshot_free_to_node (g_steal_pointer (&labels));
        self->labels_key = labels_key;
      }
    if (self->labels_node != NULL)
      gtk_snapshot_append_node (snapshot, self->labels_node);
  }
  gtk_snapshot_pop (snapshot);

  /* the ruler's edge */
  bg = fg;
  bg.alpha = 0.25f;
  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT - 1, width, 1));
  if (self->selecting)
    _sextant_timeline_snapshot_range (self, snapshot, height);
  if (self->filter != NULL)
    _sextant_timeline_snapshot_filter_badge (self, snapshot, layout, width);
  if (sextant_timeline_rows_get_n_rows (self->rows) == 0)
    {
      const char *filter = sextant_timeline_rows_get_filter (self->rows);
      g_autofree char *text = filter != NULL && filter[0] != '\0'
                              ? g_strdup_printf ("No row's label contains \u201c%s\u201d (Escape in the filter shows "
                                                 "every row again)", filter)
                              : g_strdup ("Every row is hidden (the bar's \u201crows hidden\u201d button shows "
                                          "them again)");

      bg = fg;
      bg.alpha = 0.6f;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, RULER_HEIGHT));
      sextant_snapshot_message (widget, snapshot, text, 12, &bg);
      gtk_snapshot_restore (snapshot);
    }
}
