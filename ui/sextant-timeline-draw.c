/*
 * sextant-timeline-draw.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline draws of a frame: the ruler, a stack of the time
 * shares per pixel column and row, the lost time, the message and
 * collective lines, the chosen instance's mark. Rectangles are colour
 * nodes, one per run of equal columns; Cairo draws only the lines.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-ruler.h"
#include "sextant-timeline-private.h"

/* Vampir's colours, as tools of the field use them: MPI red, user green. */
static const GdkRGBA category_colors[SEXTANT_N_CATEGORIES] = {
  [SEXTANT_CATEGORY_MPI]    = { 0.86, 0.20, 0.22, 1 },
  [SEXTANT_CATEGORY_RMA]    = { 0.96, 0.49, 0.13, 1 },
  [SEXTANT_CATEGORY_USER]   = { 0.22, 0.64, 0.35, 1 },
  [SEXTANT_CATEGORY_OMP]    = { 0.15, 0.45, 0.85, 1 },
  [SEXTANT_CATEGORY_THREAD] = { 0.56, 0.33, 0.78, 1 },
  [SEXTANT_CATEGORY_IO]     = { 0.93, 0.74, 0.17, 1 },
  [SEXTANT_CATEGORY_ACCEL]  = { 0.07, 0.62, 0.58, 1 },
  [SEXTANT_CATEGORY_OTHER]  = { 0.55, 0.55, 0.60, 1 },
};

/* Drawing -------------------------------------------------------------------- */

static void
snapshot_ruler (SextantTimeline *self,
                GtkSnapshot     *snapshot,
                PangoLayout     *layout,
                const GdkRGBA   *fg,
                int              width,
                int              height)
{
  double res = (double)self->outline->resolution;

  sextant_ruler_snapshot (snapshot, layout, fg, self->label_width, width - self->label_width, RULER_HEIGHT,
                          height - RULER_HEIGHT, (self->t0 - self->outline->t_begin) / res,
                          (self->t1 - self->outline->t_begin) / res);
}

/* Bottom to top in a row: computation first, waiting and communication on
 * top, where the eye looks for them. */
static const guint stack_order[SEXTANT_N_CATEGORIES] = {
  SEXTANT_CATEGORY_USER, SEXTANT_CATEGORY_OMP, SEXTANT_CATEGORY_ACCEL, SEXTANT_CATEGORY_IO,
  SEXTANT_CATEGORY_THREAD, SEXTANT_CATEGORY_OTHER, SEXTANT_CATEGORY_RMA, SEXTANT_CATEGORY_MPI,
};

/* One row: the frame's buckets summed per pixel column of the current
 * view; each column is a stack, a category's height its share of the
 * column's time (a column half idle is half empty). Columns with the same
 * stack make one rectangle per category. */
static void
snapshot_row (SextantTimeline *self,
              GtkSnapshot     *snapshot,
              GArray          *buckets,
              float            y,
              int              plot)
{
  double *time;
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  guint8 run[SEXTANT_N_CATEGORIES] = { 0 };
  int start = 0;

  /* the columns' sums, in a buffer the rows and the frames share */
  g_array_set_size (self->columns, 0);
  g_array_set_size (self->columns, (guint)plot * SEXTANT_N_CATEGORIES);
  time = (double *)(void *)self->columns->data;

  for (guint i = 0; i < buckets->len; i++)
    {
      const SextantLodBucket *b = &g_array_index (buckets, SextantLodBucket, i);
      double x0 = (b->begin - self->t0) / ticks_per_px;
      double x1 = (b->end - self->t0) / ticks_per_px;

      /* a bucket's time spread over the columns it covers, in proportion */
      for (int x = MAX ((int)floor (x0), 0); x < MIN ((int)ceil (x1), plot); x++)
        {
          double share = (MIN (x1, x + 1.0) - MAX (x0, (double)x)) / (x1 - x0);

          for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
            time[(gsize)x * SEXTANT_N_CATEGORIES + c] += share * b->time[c];
        }
    }

  for (int x = 0; x <= plot; x++)
    {
      guint8 stack[SEXTANT_N_CATEGORIES] = { 0 };

      if (x < plot)
        {
          /* heights in whole pixels, rounded on the running sum so that
           * they add up to the rounded total */
          double sum = 0;
          int below = 0;

          for (guint k = 0; k < SEXTANT_N_CATEGORIES; k++)
            {
              int top;

              sum += time[(gsize)x * SEXTANT_N_CATEGORIES + stack_order[k]];
              top = (int)lround (MIN (sum / ticks_per_px, 1.0) * ROW_HEIGHT);
              stack[k] = (guint8)(top - below);
              below = top;
            }
        }
      if (x == plot || memcmp (stack, run, sizeof stack) != 0)
        {
          float bottom = y + ROW_HEIGHT;

          for (guint k = 0; k < SEXTANT_N_CATEGORIES && x > start; k++)
            if (run[k] > 0)
              {
                bottom -= run[k];
                gtk_snapshot_append_color (snapshot, &category_colors[stack_order[k]],
                                           &GRAPHENE_RECT_INIT (self->label_width + start, bottom, x - start, run[k]));
              }
          memcpy (run, stack, sizeof run);
          start = x;
        }
    }
}

/* The middle of row @row (0-based) */
static inline double
row_middle (guint row)
{
  return RULER_HEIGHT + ROW_GAP + row * (ROW_HEIGHT + ROW_GAP) + ROW_HEIGHT / 2.0;
}

/* The time lost by pattern instances, dark over the rows: per row the
 * union of the instances' intervals, so that overlapping patterns (a late
 * sender inside a wait at N x N) do not darken each other. */
static void
snapshot_lost (SextantTimeline *self,
               GtkSnapshot     *snapshot,
               int              plot)
{
  static const GdkRGBA shade = { 0, 0, 0, 0.35f };
  GArray *lost = self->frame->lost;   /* sorted by the worker */
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;

  for (guint i = 0; i < lost->len; )
    {
      gint64 loc = g_array_index (lost, SextantViewLost, i).loc;
      guint row = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &loc));
      guint j = i;

      while (j < lost->len && g_array_index (lost, SextantViewLost, j).loc == loc)
        {
          gint64 begin = g_array_index (lost, SextantViewLost, j).begin;
          gint64 end = g_array_index (lost, SextantViewLost, j).end;
          double x0, x1;

          for (j++; j < lost->len && g_array_index (lost, SextantViewLost, j).loc == loc &&
                    g_array_index (lost, SextantViewLost, j).begin <= end; j++)
            end = MAX (end, g_array_index (lost, SextantViewLost, j).end);
          if (row == 0)
            continue;
          x0 = CLAMP ((begin - self->t0) / ticks_per_px, 0, plot);
          x1 = CLAMP ((end - self->t0) / ticks_per_px, 0, plot);
          if (x1 - x0 < 1)
            x1 = MIN (x0 + 1, plot);
          gtk_snapshot_append_color (snapshot, &shade,
                                     &GRAPHENE_RECT_INIT (self->label_width + (float)x0, row_middle (row - 1) - ROW_HEIGHT / 2.0f,
                                                          (float)(x1 - x0), ROW_HEIGHT));
        }
      i = j;
    }
}

/* A Cairo context for the plot, clipped to it, for the lines */
static cairo_t *
plot_cairo (SextantTimeline *self,
            GtkSnapshot     *snapshot,
            int              plot,
            int              height)
{
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (self->label_width, RULER_HEIGHT, plot,
                                                                          height - RULER_HEIGHT));

  cairo_rectangle (cr, self->label_width, RULER_HEIGHT, plot, height - RULER_HEIGHT);
  cairo_clip (cr);

  return cr;
}

/* The selection's and the pair filter's colour */
static const GdkRGBA selection_color = { 0.11f, 0.44f, 0.85f, 1 };

/* A line from the send on the sender's row to the receive on the
 * receiver's, over the rows, as tools of the field draw messages. */
static void
snapshot_messages (SextantTimeline *self,
                   GtkSnapshot     *snapshot,
                   int              plot,
                   int              height)
{
  cairo_t *cr = plot_cairo (self, snapshot, plot, height);
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  GArray *messages = self->frame->messages;

  /* a pair's messages alone: bolder, in the selection's blue */
  if (self->frame->filter != NULL)
    {
      cairo_set_line_width (cr, 2.5);
      gdk_cairo_set_source_rgba (cr, &selection_color);
    }
  else
    {
      cairo_set_line_width (cr, 1.5);
      cairo_set_source_rgba (cr, 0, 0, 0, 0.85);
    }
  for (guint i = 0; i < messages->len; i++)
    {
      const SextantViewMessage *m = &g_array_index (messages, SextantViewMessage, i);
      guint from = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &m->send_loc));
      guint to = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &m->recv_loc));

      if (from == 0 || to == 0)
        continue;
      cairo_move_to (cr, self->label_width + (m->send_time - self->t0) / ticks_per_px, row_middle (from - 1));
      cairo_line_to (cr, self->label_width + (m->recv_time - self->t0) / ticks_per_px, row_middle (to - 1));
    }
  cairo_stroke (cr);
  cairo_destroy (cr);
}

/**
 * _sextant_timeline_collective:
 * @first: the frame's first member of a collective
 * @last: (out): when the last of its members arrived
 * @top: (out): the first row of its members (G_MAXUINT: none has a row)
 * @bottom: (out): their last row
 *
 * Returns: the index of the next collective's first member
 */
guint
_sextant_timeline_collective (SextantTimeline *self,
                              guint            first,
                              gint64          *last,
                              guint           *top,
                              guint           *bottom)
{
  GArray *members = self->frame->members;
  gint64 id = g_array_index (members, SextantViewMember, first).collective;
  guint j;

  *last = G_MININT64;
  *top = G_MAXUINT;
  *bottom = 0;
  for (j = first; j < members->len && g_array_index (members, SextantViewMember, j).collective == id; j++)
    {
      const SextantViewMember *m = &g_array_index (members, SextantViewMember, j);
      guint row = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &m->loc));

      *last = MAX (*last, m->begin);
      if (row == 0)
        continue;
      *top = MIN (*top, row - 1);
      *bottom = MAX (*bottom, row - 1);
    }

  return j;
}

/* A collective: a navy line across its members' rows at the moment the
 * last of them arrived (nobody leaves a synchronising collective before),
 * and a short tick on each member's row where it arrived. */
static void
snapshot_collectives (SextantTimeline *self,
                      GtkSnapshot     *snapshot,
                      int              plot,
                      int              height)
{
  cairo_t *cr = plot_cairo (self, snapshot, plot, height);
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  GArray *members = self->frame->members;

  gdk_cairo_set_source_rgba (cr, sextant_timeline_collective_color ());
  cairo_set_line_width (cr, 2);
  for (guint i = 0; i < members->len; )
    {
      gint64 last;
      guint top, bottom;
      guint j = _sextant_timeline_collective (self, i, &last, &top, &bottom);

      for (guint k = i; k < j; k++)
        {
          const SextantViewMember *m = &g_array_index (members, SextantViewMember, k);
          guint row = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &m->loc));

          /* where it arrived */
          if (row == 0)
            continue;
          cairo_move_to (cr, self->label_width + (m->begin - self->t0) / ticks_per_px, row_middle (row - 1) - 3);
          cairo_rel_line_to (cr, 0, 6);
        }
      if (top < bottom)
        {
          double x = self->label_width + (last - self->t0) / ticks_per_px;

          cairo_move_to (cr, x, row_middle (top));
          cairo_line_to (cr, x, row_middle (bottom));
        }
      i = j;
    }
  cairo_stroke (cr);
  cairo_destroy (cr);
}

static const GdkRGBA mark_halo = { 1.0, 0.85, 0.0, 1 };

/* An outline around @loc's row from mark_t0 to mark_t1 (at least 3 pixels
 * wide, so that a short instance shows): a dark frame with a yellow halo
 * outside it, so that it stands out on any colour; what is drawn inside
 * stays as it is */
static void
snapshot_mark (SextantTimeline *self,
               GtkSnapshot     *snapshot,
               gint64           loc,
               int              plot,
               float            alpha)
{
  guint row = self->outline != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &loc)) : 0;
  double ticks_per_px = (double)(self->t1 - self->t0) / plot;
  float x0, x1, y;
  GdkRGBA halo = mark_halo;
  GdkRGBA border = { 0, 0, 0, alpha };
  GskRoundedRect frame;

  if (loc == SEXTANT_NULL || row == 0)
    return;

  x0 = (float)CLAMP (self->label_width + (self->mark_t0 - self->t0) / ticks_per_px, self->label_width - 2, self->label_width + plot + 2);
  x1 = (float)CLAMP (self->label_width + (self->mark_t1 - self->t0) / ticks_per_px, self->label_width - 2, self->label_width + plot + 2);
  if (x1 - x0 < 3)
    {
      x0 = (x0 + x1) / 2 - 1.5f;
      x1 = x0 + 3;
    }
  y = RULER_HEIGHT + ROW_GAP + (row - 1) * (ROW_HEIGHT + ROW_GAP);
  halo.alpha = alpha;
  gsk_rounded_rect_init_from_rect (&frame, &GRAPHENE_RECT_INIT (x0 - 3, y - 3, x1 - x0 + 6, ROW_HEIGHT + 6), 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { halo, halo, halo, halo });
  gsk_rounded_rect_init_from_rect (&frame, &GRAPHENE_RECT_INIT (x0 - 1, y - 1, x1 - x0 + 2, ROW_HEIGHT + 2), 0);
  gtk_snapshot_append_border (snapshot, &frame, (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { border, border, border, border });
}

/* The session's selection: its row tinted, a line at its time with a
 * triangle above it */
static void
snapshot_selection (SextantTimeline *self,
                    GtkSnapshot     *snapshot,
                    int              plot,
                    int              height)
{
  guint row = GPOINTER_TO_UINT (g_hash_table_lookup (self->outline->row_of, &self->selection_loc));
  float y, x;
  GdkRGBA tint = selection_color;
  cairo_t *cr;

  if (row == 0)
    return;
  y = RULER_HEIGHT + ROW_GAP + (row - 1) * (ROW_HEIGHT + ROW_GAP);
  tint.alpha = 0.18f;
  gtk_snapshot_append_color (snapshot, &tint, &GRAPHENE_RECT_INIT (self->label_width, y, plot, ROW_HEIGHT));
  if (self->selection_time < self->t0 || self->selection_time >= self->t1)
    return;
  x = (float)sextant_timeline_x_for_time (self, self->selection_time);
  gtk_snapshot_append_color (snapshot, &selection_color, &GRAPHENE_RECT_INIT (x - 1, y - 3, 2, ROW_HEIGHT + 6));
  cr = plot_cairo (self, snapshot, plot, height);
  gdk_cairo_set_source_rgba (cr, &selection_color);
  cairo_move_to (cr, x - 5, y - 9);
  cairo_line_to (cr, x + 5, y - 9);
  cairo_line_to (cr, x, y - 3);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_destroy (cr);
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
  GdkRGBA fg;
  GdkRGBA stripe;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  stripe = fg;
  stripe.alpha = 0.05;

  /* an error is the window's to show */
  if (self->error != NULL || self->outline == NULL || plot <= 0 || self->t1 <= self->t0)
    return;

  snapshot_ruler (self, snapshot, layout, &fg, width, height);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_set_width (layout, (self->label_width - 12) * PANGO_SCALE);
  for (guint i = 0; i < self->outline->rows->len; i++)
    {
      const Row *row = &g_array_index (self->outline->rows, Row, i);
      float y = RULER_HEIGHT + ROW_GAP + i * (ROW_HEIGHT + ROW_GAP);

      gtk_snapshot_append_color (snapshot, &stripe, &GRAPHENE_RECT_INIT (self->label_width, y, plot, ROW_HEIGHT));
      pango_layout_set_text (layout, row->label, -1);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (6, y + 1));
      gtk_snapshot_append_layout (snapshot, layout, &fg);
      gtk_snapshot_restore (snapshot);
      if (self->frame != NULL && i < self->frame->buckets->len)
        snapshot_row (self, snapshot, g_ptr_array_index (self->frame->buckets, i), y, plot);
    }
  if (self->show_lost && self->frame != NULL && self->frame->lost != NULL && self->frame->lost->len > 0)
    snapshot_lost (self, snapshot, plot);
  /* the collectives over the messages: fewer, and they order the run */
  if (self->show_messages && self->frame != NULL && self->frame->messages != NULL && self->frame->messages->len > 0)
    snapshot_messages (self, snapshot, plot, height);
  if (self->show_messages && self->frame != NULL && self->frame->members != NULL && self->frame->members->len > 0)
    snapshot_collectives (self, snapshot, plot, height);
  if (self->mark_loc != SEXTANT_NULL)
    {
      snapshot_mark (self, snapshot, self->mark_peer, plot, 0.35);
      snapshot_mark (self, snapshot, self->mark_loc, plot, 0.75);
    }
  if (self->selection_loc != SEXTANT_NULL)
    snapshot_selection (self, snapshot, plot, height);
  if (self->filter != NULL)
    snapshot_filter_badge (self, snapshot, layout, width);
}

