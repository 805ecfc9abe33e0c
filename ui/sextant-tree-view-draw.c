/*
 * sextant-tree-view-draw.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the tree view draws: the legend, the ruler, the edges (Cairo: the
 * only lines), the bars and boxes of the nodes (colour and border nodes),
 * the labels that fit. The layout's drawing is kept as one render node and
 * replayed each frame until the layout, the tree or the style changes; the
 * selection and the box under the pointer are drawn over it.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-instance.h"
#include "sextant-ruler.h"
#include "sextant-snapshot-util.h"
#include "sextant-tree-view-private.h"

static const GdkRGBA node_border = { 0.16f, 0.20f, 0.31f, 1 };
static const GdkRGBA aggregate_border = { 0.47f, 0.47f, 0.49f, 1 };
static const GdkRGBA aggregate_fill = { 0.93f, 0.93f, 0.93f, 1 };
static const GdkRGBA waiting_band = { 0.86f, 0.20f, 0.22f, 0.40f };
static const GdkRGBA cause_band = { 0.96f, 0.55f, 0.10f, 0.60f };
static const GdkRGBA selection_color = { 1.0f, 0.80f, 0.0f, 1 };
static const GdkRGBA root_help = { 0.56f, 0.33f, 0.78f, 1 };

/* An exchange's phases, in the order of their first message; the rest
 * share the last colour */
static const GdkRGBA phase_colors[] = {
  { 0.12f, 0.47f, 0.71f, 1 },
  { 1.00f, 0.50f, 0.05f, 1 },
  { 0.17f, 0.63f, 0.17f, 1 },
  { 0.58f, 0.40f, 0.74f, 1 },
  { 0.55f, 0.34f, 0.29f, 1 },
  { 0.89f, 0.47f, 0.76f, 1 },
  { 0.09f, 0.75f, 0.81f, 1 },
  { 0.74f, 0.74f, 0.13f, 1 },
};

/* The phases of an exchange's edges (edge->by, "sender" when the send sat
 * directly in the phase region: no phase), in the order of the edges */
static GPtrArray *
exchange_phases (SextantTreeView *self)
{
  GPtrArray *phases = g_ptr_array_new ();

  for (guint e = 0; e < sextant_comm_tree_get_n_edges (self->tree); e++)
    {
      const char *by = sextant_comm_tree_get_edge (self->tree, e)->by;

      if (by != NULL && !g_str_equal (by, "sender") &&
          !g_ptr_array_find_with_equal_func (phases, by, g_str_equal, NULL))
        g_ptr_array_add (phases, (gpointer)by);
    }

  return phases;
}

/**
 * sextant_tree_view_phase_color:
 * @phase: an exchange's phase, 0 for the first (in the order of the edges)
 *
 * Returns: (transfer none): the colour of that phase's messages
 */
const GdkRGBA *
sextant_tree_view_phase_color (guint phase)
{
  return &phase_colors[MIN (phase, G_N_ELEMENTS (phase_colors) - 1)];
}

static const GdkRGBA *
phase_color (GPtrArray     *phases,
             const char    *by,
             const GdkRGBA *fg)
{
  guint index;

  if (by == NULL || !g_ptr_array_find_with_equal_func (phases, by, g_str_equal, &index))
    return fg;

  return sextant_tree_view_phase_color (index);
}

/* A onecoll put the root made for a rank whose parent had not relayed */
static gboolean
by_root_help (SextantTreeView *self,
              int              e)
{
  const SextantTreeEdge *edge = e >= 0 ? sextant_comm_tree_get_edge (self->tree, (guint)e) : NULL;

  return edge != NULL && edge->by != NULL && g_str_equal (edge->by, "root help");
}

const GdkRGBA *
sextant_tree_view_node_border_color (void)
{
  return &node_border;
}

/* Lateness from none to the tree's most: a light slate, amber, red */
void
_sextant_tree_view_lateness_color (double   fraction,
                                   GdkRGBA *color)
{
  static const float stops[3][3] = {
    { 0.85f, 0.89f, 0.94f },
    { 0.99f, 0.76f, 0.42f },
    { 0.83f, 0.17f, 0.14f },
  };

  sextant_scale_color (stops, G_N_ELEMENTS (stops), fraction, color);
}

static gboolean
is_dark (const GdkRGBA *color)
{
  return 0.299 * color->red + 0.587 * color->green + 0.114 * color->blue < 0.5;
}

void
_sextant_tree_view_label_background (const GdkRGBA *fg,
                                     GdkRGBA       *back)
{
  *back = is_dark (fg) ? (GdkRGBA) { 1, 1, 1, 0.85f } : (GdkRGBA) { 0, 0, 0, 0.6f };
}

const GdkRGBA *
_sextant_tree_view_aggregate_border (void)
{
  return &aggregate_border;
}

void
_sextant_tree_view_legend_entry (SextantTreeView *self,
                                 GtkSnapshot     *snapshot,
                                 PangoLayout     *layout,
                                 const GdkRGBA   *fg,
                                 const GdkRGBA   *color,
                                 double           line,
                                 gboolean         dashed,
                                 const GdkRGBA   *fill,
                                 const char      *text,
                                 double          *x)
{
  int w;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  if (*x + 34 + w > self->layout->width - MARGIN)
    return;
  if (fill != NULL)
    {
      gtk_snapshot_append_color (snapshot, fill, &GRAPHENE_RECT_INIT ((float)*x + 3, 6, 22, 14));
      if (color != NULL)
        sextant_snapshot_frame (snapshot, &GRAPHENE_RECT_INIT ((float)*x + 3, 6, 22, 14), 1, color);
    }
  else
    {
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT ((float)*x, 0, 30, LEGEND_HEIGHT));

      gdk_cairo_set_source_rgba (cr, color);
      cairo_set_line_width (cr, line);
      cairo_set_dash (cr, (double[]) { 4, 3 }, dashed ? 2 : 0, 0);
      cairo_move_to (cr, *x, 13);
      cairo_line_to (cr, *x + 28, 13);
      cairo_stroke (cr);
      cairo_destroy (cr);
    }
  sextant_snapshot_text (snapshot, layout, text, *x + 34, 4, fg);
  *x += 34 + w + 20;
}

/* The legend: the lateness scale, the critical path, and what else the
 * tree draws (assumed edges, the root's help, waits, a root cause's
 * delay, collapsed boxes) */
static void
snapshot_legend (SextantTreeView *self,
                 GtkSnapshot     *snapshot,
                 PangoLayout     *layout,
                 const GdkRGBA   *fg)
{
  Layout *l = self->layout;
  gint64 resolution = sextant_comm_tree_get_resolution (self->tree);
  g_autofree char *most = sextant_format_duration (l->max_lateness, resolution);
  g_autofree char *scale = g_strdup_printf ("0 … %s", most);
  gboolean help = FALSE, waits = FALSE, cause = FALSE, collapsed = FALSE;
  double x = MARGIN;
  int w;

  for (guint k = 0; k < l->items->len; k++)
    {
      const Item *item = &g_array_index (l->items, Item, k);
      const SextantTreeNode *node;
      int e;

      collapsed |= item->kind == ITEM_AGGREGATE;
      if (item->kind != ITEM_NODE)
        continue;
      node = sextant_comm_tree_get_node (self->tree, (guint)item->node);
      e = l->edge_in[item->node];
      help |= by_root_help (self, e);
      waits |= node->cause == SEXTANT_CAUSE_WAITING ||
               (e >= 0 && sextant_comm_tree_get_edge (self->tree, (guint)e)->end > node->arrival);
      cause |= node->cause == SEXTANT_CAUSE_ROOT;
    }

  sextant_snapshot_text (snapshot, layout, "Lateness", x, 4, fg);
  pango_layout_get_pixel_size (layout, &w, NULL);
  x += w + 8;
  for (int i = 0; i < 60; i++)
    {
      GdkRGBA c;

      _sextant_tree_view_lateness_color (l->max_lateness > 0 ? i / 59.0 : 0, &c);
      gtk_snapshot_append_color (snapshot, &c, &GRAPHENE_RECT_INIT ((float)x + i, 7, 1, 12));
    }
  x += 66;
  sextant_snapshot_text (snapshot, layout, scale, x, 4, fg);
  pango_layout_get_pixel_size (layout, &w, NULL);
  x += w + 24;

  if (l->torus != NULL)
    {
      _sextant_tree_view_torus_legend (self, snapshot, layout, fg, &x);
      return;
    }
  _sextant_tree_view_legend_entry (self, snapshot, layout, fg, fg, 3, FALSE, NULL, "critical path", &x);
  if (sextant_comm_tree_is_exchange (self->tree))
    {
      g_autoptr(GPtrArray) phases = exchange_phases (self);

      gsize common = phases->len > 1 ? strlen (phases->pdata[0]) : 0;

      /* "prepare", "halving", ... for onecoll_red_prepare, onecoll_red_halving */
      for (guint k = 1; k < phases->len; k++)
        {
          const char *a = phases->pdata[0], *b = phases->pdata[k];
          gsize i = 0;

          while (i < common && a[i] == b[i])
            i++;
          common = i;
        }
      while (common > 0 && ((const char *)phases->pdata[0])[common - 1] != '_')
        common--;
      /* the phases as words in their colours: narrower than samples */
      for (guint k = 0; k < phases->len; k++)
        {
          const char *text = (const char *)phases->pdata[k] + common;

          pango_layout_set_text (layout, text, -1);
          pango_layout_get_pixel_size (layout, &w, NULL);
          if (x + w > self->layout->width - MARGIN)
            break;
          sextant_snapshot_text (snapshot, layout, text, x, 4, phase_color (phases, phases->pdata[k], fg));
          x += w + 14;
        }
    }
  if (l->model)
    _sextant_tree_view_legend_entry (self, snapshot, layout, fg, fg, 1.5, TRUE, NULL,
                                     "Open MPI's binomial tree (assumed)", &x);
  if (help)
    _sextant_tree_view_legend_entry (self, snapshot, layout, fg, &root_help, 1.75, FALSE, NULL, "the root's help", &x);
  if (waits)
    _sextant_tree_view_legend_entry (self, snapshot, layout, fg, NULL, 0, FALSE, &waiting_band, "waiting", &x);
  if (cause)
    _sextant_tree_view_legend_entry (self, snapshot, layout, fg, NULL, 0, FALSE, &cause_band,
                                     "the root cause's delay", &x);
  if (collapsed)
    _sextant_tree_view_legend_entry (self, snapshot, layout, fg, &aggregate_border, 0, FALSE, &aggregate_fill,
                                     "collapsed: click for more", &x);
}

/* Every other depth on a faint band, so that its lanes read as one row */
static void
snapshot_depths (SextantTreeView *self,
                 GtkSnapshot     *snapshot,
                 const GdkRGBA   *fg)
{
  Layout *l = self->layout;
  GdkRGBA band = *fg;

  band.alpha = 0.04f;
  for (guint d = 1; d < l->n_depths; d += 2)
    gtk_snapshot_append_color (snapshot, &band,
                               &GRAPHENE_RECT_INIT (0, (float)l->depth_y[d] - DEPTH_GAP / 4.0f, l->width,
                                                    l->depth_lanes[d] * (BOX_HEIGHT + LANE_GAP) - LANE_GAP +
                                                    DEPTH_GAP / 2.0f));
}

/* Where an edge starts (on its parent's box) and ends (on its child's) */
static void
edge_points (SextantTreeView *self,
             int              child,
             double          *x0,
             double          *y0,
             double          *x1,
             double          *y1)
{
  Layout *l = self->layout;
  int parent = l->parent[child];
  const Item *from = &g_array_index (l->items, Item, l->item_of[parent]);
  const Item *to = &g_array_index (l->items, Item, l->item_of[child]);
  int e = l->edge_in[child];
  const SextantTreeEdge *edge = e >= 0 ? sextant_comm_tree_get_edge (self->tree, (guint)e) : NULL;
  double right = from->box.origin.x + from->box.size.width;

  /* a transfer leaves when it began (not left of its sender's box) and
   * reaches its receiver when it ended: where the data arrived, or where
   * a wait was released (after the box: the wait is a band before it) */
  *x0 = CLAMP (edge != NULL ? _sextant_tree_layout_x (l, edge->begin) : from->box.origin.x, from->box.origin.x,
               MAX (right, from->bar_end));
  *y0 = from->box.origin.y + BOX_HEIGHT;
  *x1 = to->box.origin.x;
  if (to->kind == ITEM_NODE && edge != NULL && edge->end > to->t)
    *x1 = MAX (*x1, floor (_sextant_tree_layout_x (l, edge->end)));
  *y1 = to->box.origin.y;
  if (to->depth < from->depth)
    {
      *y0 = from->box.origin.y;
      *y1 = to->box.origin.y + BOX_HEIGHT;
    }
}

/* The middle of a node's row, or of the box that holds it; FALSE when it
 * is not drawn */
static gboolean
row_mid (Layout *l,
         int     node,
         double *y)
{
  if (node < 0 || l->item_of[node] < 0)
    return FALSE;
  *y = g_array_index (l->items, Item, l->item_of[node]).box.origin.y + BOX_HEIGHT / 2.0;
  return TRUE;
}

/* Where an exchange's message starts (its sender's row when the send
 * began) and ends (its receiver's row at the completion) */
static gboolean
message_points (SextantTreeView       *self,
                const SextantTreeEdge *edge,
                double                *x0,
                double                *y0,
                double                *x1,
                double                *y1)
{
  Layout *l = self->layout;

  if (!row_mid (l, edge->from, y0) || !row_mid (l, edge->to, y1) || *y0 == *y1)
    return FALSE;
  *x0 = _sextant_tree_layout_x (l, edge->begin);
  *x1 = _sextant_tree_layout_x (l, edge->end);

  return TRUE;
}

/* An exchange: every message as an arrow between the rows, coloured by
 * its phase, the critical path's bold on top */
static void
snapshot_messages (SextantTreeView *self,
                   GtkSnapshot     *snapshot,
                   const GdkRGBA   *fg)
{
  Layout *l = self->layout;
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, l->width, l->height));
  g_autoptr(GPtrArray) phases = exchange_phases (self);

  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  for (int pass = 0; pass < 2; pass++)
    for (guint e = 0; e < sextant_comm_tree_get_n_edges (self->tree); e++)
      {
        const SextantTreeEdge *edge = sextant_comm_tree_get_edge (self->tree, e);
        gboolean bold = sextant_comm_tree_edge_is_critical (self->tree, e);
        GdkRGBA c = *phase_color (phases, edge->by, fg);
        double x0, y0, x1, y1, angle;

        if (bold != (pass == 1) || !message_points (self, edge, &x0, &y0, &x1, &y1))
          continue;
        if (bold)
          c = *fg;
        gdk_cairo_set_source_rgba (cr, &c);
        cairo_set_line_width (cr, bold ? 3 : 2);
        cairo_move_to (cr, x0, y0);
        cairo_line_to (cr, x1, y1);
        cairo_stroke (cr);
        /* the head, at the receiver */
        angle = atan2 (y1 - y0, x1 - x0);
        cairo_move_to (cr, x1, y1);
        cairo_line_to (cr, x1 - 8 * cos (angle - 0.4), y1 - 8 * sin (angle - 0.4));
        cairo_line_to (cr, x1 - 8 * cos (angle + 0.4), y1 - 8 * sin (angle + 0.4));
        cairo_close_path (cr);
        cairo_fill (cr);
      }
  cairo_destroy (cr);
}

/* Parent to child: recorded transfers solid, assumed ones dashed, the
 * critical path bold, the puts of a onecoll root's help purple; from a
 * parent to its collapsed children's box faint and dashed */
static void
snapshot_edges (SextantTreeView *self,
                GtkSnapshot     *snapshot,
                const GdkRGBA   *fg)
{
  Layout *l = self->layout;
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, l->width, l->height));
  GdkRGBA c = *fg;

  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  c.alpha = 0.35;
  gdk_cairo_set_source_rgba (cr, &c);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
  for (guint k = 0; k < l->items->len; k++)
    {
      const Item *item = &g_array_index (l->items, Item, k);
      const Item *parent;

      if (item->kind != ITEM_AGGREGATE || item->node < 0 || l->item_of[item->node] < 0)
        continue;
      parent = &g_array_index (l->items, Item, l->item_of[item->node]);
      cairo_move_to (cr, parent->box.origin.x + parent->box.size.width / 2, parent->box.origin.y + BOX_HEIGHT);
      cairo_line_to (cr, item->box.origin.x + 4, item->box.origin.y);
    }
  cairo_stroke (cr);

  /* thin, then bold (the critical path); each in the foreground's colour,
   * then in the root's help's */
  for (int pass = 0; pass < 4; pass++)
    {
      gboolean bold = pass >= 2;
      gboolean help = pass % 2 == 1;

      c = help ? root_help : *fg;
      c.alpha = bold ? 1 : help ? 0.8 : 0.55;
      gdk_cairo_set_source_rgba (cr, &c);
      cairo_set_line_width (cr, bold ? 3 : help ? 1.75 : 1.25);
      cairo_set_dash (cr, (double[]) { 4, 3 }, l->model ? 2 : 0, 0);
      for (guint i = 0; i < l->n_nodes; i++)
        {
          int e = l->edge_in[i];
          int p = l->parent[i];
          double x0, y0, x1, y1;

          if (p < 0 || l->item_of[i] < 0 || l->item_of[p] < 0 ||
              g_array_index (l->items, Item, l->item_of[i]).kind != ITEM_NODE ||
              g_array_index (l->items, Item, l->item_of[p]).kind != ITEM_NODE)
            continue;
          if (bold != (e >= 0 && sextant_comm_tree_edge_is_critical (self->tree, (guint)e)) ||
              help != by_root_help (self, e))
            continue;
          edge_points (self, (int)i, &x0, &y0, &x1, &y1);
          cairo_move_to (cr, x0, y0);
          cairo_line_to (cr, x1, y1);
        }
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

static gboolean
overlaps_any (GArray                *taken,
              const graphene_rect_t *rect)
{
  for (guint k = 0; k < taken->len; k++)
    if (graphene_rect_intersection (&g_array_index (taken, graphene_rect_t, k), rect, NULL))
      return TRUE;

  return FALSE;
}

/* "1.0 KiB · 12.3 µs", or the duration alone when the bytes are unknown */
static char *
transfer_text (const SextantTreeEdge *edge,
               gint64                 resolution)
{
  g_autofree char *latency = sextant_format_duration (edge->end - edge->begin, resolution);
  g_autofree char *bytes = NULL;

  if (edge->bytes == SEXTANT_NULL || edge->bytes < 0)
    return g_steal_pointer (&latency);
  bytes = g_format_size_full ((guint64)edge->bytes, G_FORMAT_SIZE_IEC_UNITS);

  return g_strdup_printf ("%s · %s", bytes, latency);
}

/* @text on a light (dark) background at the middle of the line from
 * (@x0, @y0) to (@x1, @y1), else a little before or after it, where it
 * overlaps nothing in @taken; left out when no place is free */
static void
place_label (SextantTreeView *self,
             GtkSnapshot     *snapshot,
             PangoLayout     *layout,
             const GdkRGBA   *fg,
             GArray          *taken,
             const char      *text,
             double           x0,
             double           y0,
             double           x1,
             double           y1)
{
  static const double along[] = { 0.5, 0.35, 0.65, 0.2, 0.8 };
  GdkRGBA back;
  graphene_rect_t rect;
  guint a;
  int w, h;

  _sextant_tree_view_label_background (fg, &back);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  for (a = 0; a < G_N_ELEMENTS (along); a++)
    {
      graphene_rect_init (&rect, (float)floor (x0 + along[a] * (x1 - x0) - w / 2.0),
                          (float)floor (y0 + along[a] * (y1 - y0) - h / 2.0), w, h);
      rect.origin.x = CLAMP (rect.origin.x, 2, self->layout->width - w - 2);
      if (!overlaps_any (taken, &GRAPHENE_RECT_INIT (rect.origin.x - 2, rect.origin.y, rect.size.width + 4,
                                                     rect.size.height)))
        break;
    }
  if (a == G_N_ELEMENTS (along))
    return;
  g_array_append_val (taken, rect);
  gtk_snapshot_append_color (snapshot, &back, &GRAPHENE_RECT_INIT (rect.origin.x - 2, rect.origin.y,
                                                                  rect.size.width + 4, rect.size.height));
  sextant_snapshot_text (snapshot, layout, text, rect.origin.x, rect.origin.y, fg);
}

/* "1.0 KiB · 12.3 µs" at the middle of a transfer, where it overlaps no
 * box and no other label (past MAX_LABELLED boxes, the critical path's
 * only); a delay chain's link says its pattern */
/* What an edge's label says: a delay chain's link, the pattern (by
 * title) and how long it waited, "Late Sender · 12.3 ms"; a transfer its
 * bytes and time, and, in a onecoll broadcast, who relayed when not the
 * sender's own thread (onecoll's Broadcaster, a waiting thread, the root's
 * help) */
char *
_sextant_tree_view_edge_text (SextantTreeView *self,
                              guint            e)
{
  const SextantTreeEdge *edge = sextant_comm_tree_get_edge (self->tree, e);
  gint64 resolution = sextant_comm_tree_get_resolution (self->tree);
  char *text;

  if (sextant_comm_tree_get_kind (self->tree) == SEXTANT_TREE_DELAY_CHAIN && edge->by != NULL)
    {
      g_autofree char *latency = sextant_format_duration (edge->end - edge->begin, resolution);
      const char *title = self->titles != NULL ? g_hash_table_lookup (self->titles, edge->by) : NULL;

      return g_strdup_printf ("%s · %s", title != NULL ? title : edge->by, latency);
    }
  text = transfer_text (edge, resolution);
  if (sextant_comm_tree_get_kind (self->tree) == SEXTANT_TREE_ONECOLL_BCAST && edge->by != NULL &&
      !g_str_equal (edge->by, "root"))
    {
      char *by = g_strdup_printf ("%s · %s", text, edge->by);

      g_free (text);
      text = by;
    }

  return text;
}

static void
snapshot_edge_labels (SextantTreeView *self,
                      GtkSnapshot     *snapshot,
                      PangoLayout     *layout,
                      const GdkRGBA   *fg,
                      GArray          *taken)
{
  Layout *l = self->layout;
  gboolean crowded = l->items->len > MAX_LABELLED;

  for (guint i = 0; i < l->n_nodes; i++)
    {
      int e = l->edge_in[i];
      const SextantTreeEdge *edge;
      g_autofree char *text = NULL;
      double x0, y0, x1, y1;

      if (e < 0 || l->item_of[i] < 0 || l->item_of[l->parent[i]] < 0 ||
          g_array_index (l->items, Item, l->item_of[i]).kind != ITEM_NODE)
        continue;
      if (crowded && !sextant_comm_tree_edge_is_critical (self->tree, (guint)e))
        continue;
      edge = sextant_comm_tree_get_edge (self->tree, (guint)e);
      /* a wait says how long by its band (the tooltip has the numbers) */
      if (edge->end > sextant_comm_tree_get_node (self->tree, i)->arrival &&
          sextant_comm_tree_get_kind (self->tree) != SEXTANT_TREE_DELAY_CHAIN)
        continue;
      text = _sextant_tree_view_edge_text (self, (guint)e);
      edge_points (self, (int)i, &x0, &y0, &x1, &y1);
      place_label (self, snapshot, layout, fg, taken, text, x0, y0, x1, y1);
    }
}

/* An exchange: the critical path's messages, "390.6 KiB · 12.3 ms" */
static void
snapshot_message_labels (SextantTreeView *self,
                         GtkSnapshot     *snapshot,
                         PangoLayout     *layout,
                         const GdkRGBA   *fg,
                         GArray          *taken)
{
  gint64 resolution = sextant_comm_tree_get_resolution (self->tree);

  for (guint e = 0; e < sextant_comm_tree_get_n_edges (self->tree); e++)
    {
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (self->tree, e);
      g_autofree char *text = NULL;
      double x0, y0, x1, y1;

      if (!sextant_comm_tree_edge_is_critical (self->tree, e) || !message_points (self, edge, &x0, &y0, &x1, &y1))
        continue;
      text = transfer_text (edge, resolution);
      place_label (self, snapshot, layout, fg, taken, text, x0, y0, x1, y1);
    }
}

/* A delay chain's node: what it was doing there, after its bar */
static void
snapshot_captions (SextantTreeView *self,
                   GtkSnapshot     *snapshot,
                   PangoLayout     *layout,
                   const GdkRGBA   *fg,
                   GArray          *taken)
{
  Layout *l = self->layout;

  for (guint k = 0; k < l->items->len; k++)
    {
      const Item *item = &g_array_index (l->items, Item, k);
      const SextantTreeNode *node;
      g_autofree char *text = NULL;
      graphene_rect_t rect;
      double x;
      int w, h;

      if (item->kind != ITEM_NODE)
        continue;
      node = sextant_comm_tree_get_node (self->tree, (guint)item->node);
      if (node->cause == SEXTANT_CAUSE_NONE)
        continue;
      if (node->cause == SEXTANT_CAUSE_ROOT && node->file != NULL && node->line > 0)
        {
          /* the file's name: its path is in the tooltip */
          g_autofree char *file = g_path_get_basename (node->file);

          text = g_strdup_printf ("root cause: %s (%s:%" G_GINT64_FORMAT ")",
                                  node->region_name != NULL ? node->region_name : "?", file, node->line);
        }
      else if (node->cause == SEXTANT_CAUSE_ROOT)
        text = g_strdup_printf ("root cause: %s", node->region_name != NULL ? node->region_name : "?");
      else if (node->cause == SEXTANT_CAUSE_TRUNCATED)
        text = g_strdup ("the chain stops here (depth or a cycle)");
      else
        text = g_strdup_printf ("waits in %s", node->region_name != NULL ? node->region_name : "?");
      x = MAX (item->box.origin.x + item->box.size.width, item->bar_end) + 6;
      if (node->end != SEXTANT_NULL)
        x = MAX (x, _sextant_tree_layout_x (l, node->end) + 6);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      /* past the right edge: before the box, else over the bar after it */
      if (x + w > l->width - 2)
        x = item->box.origin.x - w - 6;
      if (x < 2)
        x = item->box.origin.x + item->box.size.width + 6;
      graphene_rect_init (&rect, (float)x, (float)(item->box.origin.y + (BOX_HEIGHT - h) / 2.0), w, h);
      if (x + w > l->width - 2 || overlaps_any (taken, &rect))
        continue;
      g_array_append_val (taken, rect);
      sextant_snapshot_text (snapshot, layout, text, rect.origin.x, rect.origin.y, fg);
    }
}

/* Bars (arrival to finish), a chain's wait and delay, then the boxes */
static void
snapshot_items (SextantTreeView *self,
                GtkSnapshot     *snapshot,
                PangoLayout     *layout,
                const GdkRGBA   *fg,
                GArray          *taken)
{
  Layout *l = self->layout;
  GdkRGBA bar = *fg;
  int text_height;

  bar.alpha = 0.4f;
  for (guint k = 0; k < l->items->len; k++)
    {
      const Item *item = &g_array_index (l->items, Item, k);
      double mid = item->box.origin.y + BOX_HEIGHT / 2.0;

      if (item->bar_end > item->box.origin.x + 1)
        gtk_snapshot_append_color (snapshot, &bar, &GRAPHENE_RECT_INIT (item->box.origin.x, (float)mid - 1.5f,
                                                                       (float)(item->bar_end - item->box.origin.x), 3));
      if (item->kind == ITEM_NODE)
        {
          const SextantTreeNode *node = sextant_comm_tree_get_node (self->tree, (guint)item->node);
          int e = l->edge_in[item->node];

          /* released after it arrived: it waited until then */
          if (e >= 0 && sextant_comm_tree_get_edge (self->tree, (guint)e)->end > node->arrival)
            {
              double x1 = _sextant_tree_layout_x (l, sextant_comm_tree_get_edge (self->tree, (guint)e)->end);

              gtk_snapshot_append_color (snapshot, &waiting_band,
                                         &GRAPHENE_RECT_INIT (item->box.origin.x, (float)mid - 5,
                                                              (float)(x1 - item->box.origin.x), 10));
            }
          if (node->cause != SEXTANT_CAUSE_NONE && node->begin != SEXTANT_NULL && node->end != SEXTANT_NULL)
            {
              double x0 = _sextant_tree_layout_x (l, node->begin);
              double x1 = MAX (_sextant_tree_layout_x (l, node->end), x0 + 2);

              gtk_snapshot_append_color (snapshot, node->cause == SEXTANT_CAUSE_ROOT ? &cause_band : &waiting_band,
                                         &GRAPHENE_RECT_INIT ((float)x0, (float)mid - 5, (float)(x1 - x0), 10));
            }
        }
    }

  pango_layout_set_text (layout, "Rank", -1);
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  for (guint k = 0; k < l->items->len; k++)
    {
      const Item *item = &g_array_index (l->items, Item, k);
      GdkRGBA fill;
      const GdkRGBA *text_color;
      int w;

      if (item->kind == ITEM_NODE)
        {
          const SextantTreeNode *node = sextant_comm_tree_get_node (self->tree, (guint)item->node);

          _sextant_tree_view_lateness_color (l->max_lateness > 0 ? (double)node->lateness / l->max_lateness : 0,
                                             &fill);
        }
      else
        fill = aggregate_fill;
      text_color = is_dark (&fill) ? &(GdkRGBA) { 1, 1, 1, 1 } : &(GdkRGBA) { 0, 0, 0, 0.87f };
      gtk_snapshot_append_color (snapshot, &fill, &item->box);
      sextant_snapshot_frame (snapshot, &item->box, item->critical ? 2 : 1,
                    item->kind == ITEM_NODE ? &node_border : &aggregate_border);
      pango_layout_set_width (layout, (int)(item->box.size.width - 2 * BOX_PAD + 2) * PANGO_SCALE);
      pango_layout_set_text (layout, item->text, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      sextant_snapshot_text (snapshot, layout, item->text, item->box.origin.x + (item->box.size.width - w) / 2.0,
                 item->box.origin.y + floor ((BOX_HEIGHT - text_height) / 2.0), text_color);
      g_array_append_val (taken, item->box);
    }
  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
}

/* The layout's drawing, cached */
static GskRenderNode *
render (SextantTreeView *self,
        const GdkRGBA   *fg)
{
  GtkWidget *widget = GTK_WIDGET (self);
  Layout *l = self->layout;
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  g_autoptr(PangoLayout) small = gtk_widget_create_pango_layout (widget, NULL);
  g_autoptr(PangoAttrList) attrs = pango_attr_list_new ();
  g_autoptr(GArray) taken = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));
  gint64 origin = sextant_comm_tree_get_origin (self->tree);
  double res = (double)sextant_comm_tree_get_resolution (self->tree);

  pango_attr_list_insert (attrs, pango_attr_scale_new (0.85));
  pango_layout_set_attributes (small, attrs);

  snapshot_legend (self, snapshot, layout, fg);
  if (l->torus != NULL)
    {
      _sextant_tree_view_snapshot_torus (self, snapshot, small, fg);
      snapshot_items (self, snapshot, layout, fg, taken);
      return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
    }
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, LEGEND_HEIGHT));
  sextant_ruler_snapshot (snapshot, layout, fg, (float)l->x0, (float)l->plot, RULER_HEIGHT,
                          (float)(l->height - LEGEND_HEIGHT - RULER_HEIGHT), (l->t0 - origin) / res,
                          (l->t1 - origin) / res);
  gtk_snapshot_restore (snapshot);
  snapshot_depths (self, snapshot, fg);
  if (sextant_comm_tree_is_exchange (self->tree))
    snapshot_messages (self, snapshot, fg);
  else
    snapshot_edges (self, snapshot, fg);
  snapshot_items (self, snapshot, layout, fg, taken);
  snapshot_captions (self, snapshot, small, fg, taken);
  if (sextant_comm_tree_is_exchange (self->tree))
    snapshot_message_labels (self, snapshot, small, fg, taken);
  else
    snapshot_edge_labels (self, snapshot, small, fg, taken);

  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

void
_sextant_tree_view_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  SextantTreeView *self = SEXTANT_TREE_VIEW (widget);
  GdkRGBA fg;
  gint64 loc, time;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  if (self->error != NULL)
    {
      GdkRGBA error = { 0.75f, 0.11f, 0.16f, 1 };

      sextant_snapshot_message (widget, snapshot, self->error, MARGIN,
                                is_dark (&fg) ? &error : &(GdkRGBA) { 1, 0.48f, 0.39f, 1 });
      return;
    }
  if (self->tree == NULL || self->layout == NULL)
    {
      GdkRGBA dim = fg;
      const char *text = self->building
                         ? "Building the tree…"
                         : self->notice != NULL
                         ? self->notice
                         : "Choose a collective in the timeline (a click on its line or its region) or a pattern "
                           "instance: its tree, or the chain of waits behind it, shows here.";

      dim.alpha = 0.6f;
      sextant_snapshot_message (widget, snapshot, text, MARGIN, &dim);
      return;
    }

  if (self->rendered == NULL)
    self->rendered = render (self, &fg);
  gtk_snapshot_append_node (snapshot, self->rendered);

  /* the session's selection and the box under the pointer, over it */
  if (self->session != NULL && sextant_session_get_selection (self->session, &loc, &time))
    for (guint k = 0; k < self->layout->items->len; k++)
      {
        const Item *item = &g_array_index (self->layout->items, Item, k);
        graphene_rect_t around;

        if (item->kind != ITEM_NODE || sextant_comm_tree_get_node (self->tree, (guint)item->node)->loc != loc)
          continue;
        graphene_rect_inset_r (&item->box, -3, -3, &around);
        sextant_snapshot_frame (snapshot, &around, 2, &selection_color);
      }
  if (self->hover >= 0 && (guint)self->hover < self->layout->items->len)
    {
      const Item *item = &g_array_index (self->layout->items, Item, self->hover);
      GdkRGBA ring = fg;
      graphene_rect_t around;

      ring.alpha = 0.5f;
      graphene_rect_inset_r (&item->box, -2, -2, &around);
      sextant_snapshot_frame (snapshot, &around, 1, &ring);
    }
}
