/*
 * sextant-tree-view-torus.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tree view on the torus coordinates a trace gives its locations
 * (sextant_store_read_torus_coords()): X and Y are the plane of a panel,
 * a panel per Z side by side and a row of them per W (small multiples;
 * past the width, a Z's panels wrap onto more rows). Every placed location
 * has its cell: the tree's nodes are its boxes (filled by lateness, as in
 * the other layouts), the other placed locations (a torus's transit
 * routers) hollow grey boxes. The edges are the run's point-to-point
 * messages, one arrow per sender and receiver: straight along X or Y
 * inside a panel (a link through the torus's wrap-around leaves the panel
 * at one side and comes back in at the other, dashed), arched between the
 * panels for a hop in Z (blue) or W (orange), each direction set off a
 * little to its right so that the way up and the way down both show. The
 * root is framed. No time axis: the tooltips give the times.
 *
 * Workload: linear in the placed locations and the message pairs.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-snapshot-util.h"
#include "sextant-tree-view-private.h"

#define PANEL_GAP    30      /* between two panels */
#define PANEL_TITLE  20      /* a panel's title, above its cells */
#define MIN_CELL     18
#define MAX_CELL     96
#define SIDE_SHIFT   2.5     /* a message's arrow, to the right of its way */
#define MAX_CELLS    65536   /* the largest torus drawn (the model's 32x32x32 is half of it) */

typedef struct
{
  gint64          loc;
  guint           coords[SEXTANT_TORUS_COORDS_MAX_DIMS];
  int             item;      /* the tree's node there (its item), -1: not in the tree */
  graphene_rect_t box;
} Site;

typedef struct
{
  guint  from;               /* sites */
  guint  to;
  gint64 messages;
} Link;

struct _TorusPlan
{
  guint   n_dims;
  guint   sizes[SEXTANT_TORUS_COORDS_MAX_DIMS];
  double  cell;
  GArray *panels;            /* graphene_rect_t: the cells of Z = z, W = w at z + sizes[2] * w */
  GArray *sites;             /* Site, by location */
  GArray *links;             /* Link */
  int     root_site;         /* -1 when the root has no place */
  gboolean outsiders;        /* placed locations outside the tree */
};

/**
 * _sextant_tree_view_read_places:
 * @places: (out caller-allocates): clear it with _sextant_tree_view_places_clear()
 *
 * On the worker: for a collective's tree (not an exchange, not a delay
 * chain) whose nodes the trace places on a torus, the places and the
 * run's messages per pair, its edges there; else nothing, or why not
 */
void
_sextant_tree_view_read_places (SextantStore    *store,
                                SextantCommTree *tree,
                                TorusPlaces     *places)
{
  g_autoptr(GError) error = NULL;
  gboolean placed = FALSE;

  memset (places, 0, sizeof *places);
  if (sextant_comm_tree_is_exchange (tree) || sextant_comm_tree_get_kind (tree) == SEXTANT_TREE_DELAY_CHAIN)
    return;
  if (sextant_store_read_torus_coords (store, &places->torus, &error))
    for (guint i = 0; i < sextant_comm_tree_get_n_nodes (tree) && !placed; i++)
      placed = sextant_torus_coords_find (&places->torus, sextant_comm_tree_get_node (tree, i)->loc) != NULL;
  if (placed)
    {
      guint64 cells = 1;

      for (guint d = 0; d < places->torus.n_dims; d++)
        cells *= places->torus.sizes[d];
      if (cells > MAX_CELLS)
        {
          places->error = g_strdup_printf ("a torus of %" G_GUINT64_FORMAT " nodes, more than the %u drawn",
                                           cells, MAX_CELLS);
          placed = FALSE;
        }
    }
  if (placed)
    places->pairs = sextant_store_read_message_pairs (store, SEXTANT_NULL, SEXTANT_NULL, &error);
  if (error != NULL)
    places->error = g_strdup (error->message);
  if (places->pairs == NULL)
    sextant_torus_coords_clear (&places->torus);
}

void
_sextant_tree_view_places_clear (TorusPlaces *places)
{
  sextant_torus_coords_clear (&places->torus);
  g_clear_pointer (&places->pairs, g_array_unref);
  g_clear_pointer (&places->error, g_free);
}

void
_sextant_tree_torus_plan_free (TorusPlan *plan)
{
  g_clear_pointer (&plan->panels, g_array_unref);
  g_clear_pointer (&plan->sites, g_array_unref);
  g_clear_pointer (&plan->links, g_array_unref);
  g_free (plan);
}

static guint
plan_size (const TorusPlan *plan,
           guint            dim)
{
  return dim < plan->n_dims ? plan->sizes[dim] : 1;
}

/* "node 5" of "node 5 (1,1,0)", "Rank 3" of "MPI Rank 3" (the place says
 * the coordinates); with @last_word, "5" */
static char *
site_text (const SextantTreeNode *node,
           gboolean               last_word)
{
  const char *name = node->name != NULL ? node->name : "?";
  const char *paren, *last;
  g_autofree char *label = NULL;

  if (g_str_has_prefix (name, "MPI "))
    name += strlen ("MPI ");
  paren = strstr (name, " (");
  label = paren != NULL && paren > name ? g_strndup (name, paren - name) : g_strdup (name);
  if (last_word && (last = strrchr (label, ' ')) != NULL && last[1] != '\0')
    return g_strdup (last + 1);

  return g_steal_pointer (&label);
}

/* Whether a label does not fit a box @width wide: then all say their
 * last word, alike */
static gboolean
labels_too_wide (SextantCommTree *tree,
                 double           width,
                 PangoLayout     *text)
{
  for (guint i = 0; i < sextant_comm_tree_get_n_nodes (tree); i++)
    {
      g_autofree char *label = site_text (sextant_comm_tree_get_node (tree, i), FALSE);
      int w;

      pango_layout_set_text (text, label, -1);
      pango_layout_get_pixel_size (text, &w, NULL);
      if (w > width - 2 * BOX_PAD)
        return TRUE;
    }

  return FALSE;
}

/* The panels' places: as many side by side as fit at MIN_CELL, all of a
 * W's Zs in one row when they fit; the cell as large as the width allows */
static double
place_panels (TorusPlan *plan,
              int        width)
{
  guint nx = plan_size (plan, 0), ny = plan_size (plan, 1);
  guint nz = plan_size (plan, 2), nw = plan_size (plan, 3);
  double avail = MAX (width - 2 * MARGIN, 60);
  double cell = floor ((avail - (nz - 1) * PANEL_GAP) / nz / nx);
  guint cols = nz, rows_per_w;
  double top = LEGEND_HEIGHT + 12, y = top;

  if (cell < MIN_CELL)
    {
      cell = MIN_CELL;
      cols = (guint)CLAMP ((avail + PANEL_GAP) / (nx * cell + PANEL_GAP), 1, nz);
    }
  cell = MIN (cell, MAX_CELL);
  plan->cell = cell;
  rows_per_w = (nz + cols - 1) / cols;
  plan->panels = g_array_sized_new (FALSE, FALSE, sizeof (graphene_rect_t), nz * nw);
  for (guint w = 0; w < nw; w++)
    for (guint z = 0; z < nz; z++)
      {
        guint row = w * rows_per_w + z / cols, col = z % cols;
        graphene_rect_t panel;

        graphene_rect_init (&panel, (float)(MARGIN + col * (nx * cell + PANEL_GAP)),
                            (float)(top + row * (ny * cell + PANEL_TITLE + PANEL_GAP) + PANEL_TITLE),
                            (float)(nx * cell), (float)(ny * cell));
        g_array_append_val (plan->panels, panel);
        y = MAX (y, panel.origin.y + panel.size.height);
      }

  return y + MARGIN;
}

/* A location's box: centred in its cell of its panel */
static void
site_box (const TorusPlan *plan,
          const guint     *coords,
          graphene_rect_t *box)
{
  const graphene_rect_t *panel = &g_array_index (plan->panels, graphene_rect_t,
                                                 coords[2] + plan_size (plan, 2) * coords[3]);
  /* even: the centre, and a message's line SIDE_SHIFT off it, on whole pixels */
  double w = 2 * floor (CLAMP (0.66 * plan->cell, 6, BOX_MAX_WIDTH) / 2);
  double h = 2 * floor (CLAMP (plan->cell - 14, 6, BOX_HEIGHT) / 2);

  graphene_rect_init (box, (float)floor (panel->origin.x + (coords[0] + 0.5) * plan->cell - w / 2),
                      (float)floor (panel->origin.y + (coords[1] + 0.5) * plan->cell - h / 2), (float)w, (float)h);
}

/**
 * _sextant_tree_layout_new_torus:
 * @torus: the trace's coordinates (n_dims > 0)
 * @pairs: (element-type SextantMessagePair): the run's messages per pair
 * @width: the widget's width
 * @text: a layout of the widget's, to measure the boxes' text
 *
 * Returns: (transfer full) (nullable): the layout, %NULL when no node of
 *   @tree has a place
 */
Layout *
_sextant_tree_layout_new_torus (SextantCommTree          *tree,
                                const SextantTorusCoords *torus,
                                const GArray             *pairs,
                                int                       width,
                                PangoLayout              *text)
{
  g_autoptr(Layout) layout = NULL;
  TorusPlan *plan;
  guint n = sextant_comm_tree_get_n_nodes (tree);
  const SextantLocationCoords *first = torus->locations->len > 0
                                       ? &g_array_index (torus->locations, SextantLocationCoords, 0) : NULL;
  int root = sextant_comm_tree_get_root (tree);
  guint placed = 0;
  gboolean no_text, last_word;

  for (guint i = 0; i < n; i++)
    placed += sextant_torus_coords_find (torus, sextant_comm_tree_get_node (tree, i)->loc) != NULL;
  if (torus->n_dims == 0 || placed == 0)
    return NULL;

  layout = _sextant_tree_layout_alloc (n, width);
  layout->torus = plan = g_new0 (TorusPlan, 1);
  plan->n_dims = torus->n_dims;
  memcpy (plan->sizes, torus->sizes, sizeof plan->sizes);
  plan->root_site = -1;
  layout->height = (int)ceil (place_panels (plan, width));
  layout->n_depths = 1;

  /* every placed location's box (the coordinates are by location) */
  plan->sites = g_array_sized_new (FALSE, FALSE, sizeof (Site), torus->locations->len);
  for (guint k = 0; k < torus->locations->len; k++)
    {
      const SextantLocationCoords *at = &g_array_index (torus->locations, SextantLocationCoords, k);
      Site site = { at->loc, { 0 }, -1, GRAPHENE_RECT_INIT (0, 0, 0, 0) };

      memcpy (site.coords, at->coords, sizeof site.coords);
      site_box (plan, site.coords, &site.box);
      g_array_append_val (plan->sites, site);
    }

  /* the tree's nodes: its boxes at their places */
  no_text = plan->sites->len == 0 || g_array_index (plan->sites, Site, 0).box.size.width < 2 * BOX_PAD + 12;
  last_word = !no_text && labels_too_wide (tree, g_array_index (plan->sites, Site, 0).box.size.width, text);
  for (guint i = 0; i < n; i++)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (tree, i);
      const SextantLocationCoords *at = sextant_torus_coords_find (torus, node->loc);
      Site *site;
      Item item = { 0 };

      layout->max_lateness = MAX (layout->max_lateness, node->lateness);
      if (at == NULL)
        continue;
      site = &g_array_index (plan->sites, Site, at - first);
      item.kind = ITEM_NODE;
      item.node = (int)i;
      item.t = node->arrival;
      item.t_end = MAX (node->finish, node->arrival);
      item.box = site->box;
      item.bar_end = item.box.origin.x;
      item.text = no_text ? g_strdup ("") : site_text (node, last_word);
      g_array_append_val (layout->items, item);
      layout->item_of[i] = (int)layout->items->len - 1;
      site->item = layout->item_of[i];
      if ((int)i == root)
        plan->root_site = (int)(at - first);
    }
  for (guint k = 0; k < plan->sites->len; k++)
    plan->outsiders |= g_array_index (plan->sites, Site, k).item < 0;

  /* the messages between placed locations */
  plan->links = g_array_new (FALSE, FALSE, sizeof (Link));
  for (guint k = 0; pairs != NULL && k < pairs->len; k++)
    {
      const SextantMessagePair *pair = &g_array_index (pairs, SextantMessagePair, k);
      const SextantLocationCoords *from = sextant_torus_coords_find (torus, pair->sender);
      const SextantLocationCoords *to = sextant_torus_coords_find (torus, pair->receiver);
      Link link;

      if (from == NULL || to == NULL || from == to)
        continue;
      link = (Link) { (guint)(from - first), (guint)(to - first), pair->messages };
      g_array_append_val (plan->links, link);
    }

  /* no time axis: the span only for the lateness scale's sake */
  layout->t0 = 0;
  layout->t1 = 1;
  layout->x0 = MARGIN;
  layout->plot = MAX (width - 2 * MARGIN, 60);

  return g_steal_pointer (&layout);
}

/* The dimensions two places differ in; *@dim the first, *@step its +1 or
 * -1 link when the places are neighbours along it (0 when not),
 * *@wraps when that link goes round the torus's edge */
static guint
differ (const TorusPlan *plan,
        const Site      *a,
        const Site      *b,
        guint           *dim,
        int             *step,
        gboolean        *wraps)
{
  guint n = 0;

  *step = 0;
  *wraps = FALSE;
  for (guint d = plan->n_dims; d-- > 0;)
    if (a->coords[d] != b->coords[d])
      {
        guint size = plan->sizes[d];
        guint forward = (b->coords[d] + size - a->coords[d]) % size;

        n++;
        *dim = d;
        *step = forward == 1 ? 1 : forward == size - 1 ? -1 : 0;
        *wraps = *step != 0 && (int)b->coords[d] - (int)a->coords[d] != *step;
      }

  return n;
}

/* Where the line from the centre of @box towards (@dx, @dy) leaves it */
static void
box_exit (const graphene_rect_t *box,
          double                 dx,
          double                 dy,
          double                *x,
          double                *y)
{
  double cx = box->origin.x + box->size.width / 2.0, cy = box->origin.y + box->size.height / 2.0;
  double tx = fabs (dx) > 1e-9 ? box->size.width / 2.0 / fabs (dx) : G_MAXDOUBLE;
  double ty = fabs (dy) > 1e-9 ? box->size.height / 2.0 / fabs (dy) : G_MAXDOUBLE;
  double t = MIN (tx, ty);

  *x = cx + t * dx;
  *y = cy + t * dy;
}

/* An arrow's head at (@x, @y), pointing along @angle */
typedef struct
{
  double x;
  double y;
  double angle;
} Head;

static void
add_head (GArray *heads,
          double  x,
          double  y,
          double  angle)
{
  Head head = { x, y, angle };

  g_array_append_val (heads, head);
}

/* A straight message from box @a to box @b, set off to its right: its
 * line added to @cr's path, its head to @heads */
static void
straight_link (cairo_t               *cr,
               const graphene_rect_t *a,
               const graphene_rect_t *b,
               GArray                *heads)
{
  double ax = a->origin.x + a->size.width / 2.0, ay = a->origin.y + a->size.height / 2.0;
  double bx = b->origin.x + b->size.width / 2.0, by = b->origin.y + b->size.height / 2.0;
  double len = MAX (hypot (bx - ax, by - ay), 1e-9);
  double dx = (bx - ax) / len, dy = (by - ay) / len;
  double x0, y0, x1, y1;

  box_exit (a, dx, dy, &x0, &y0);
  box_exit (b, -dx, -dy, &x1, &y1);
  x0 -= dy * SIDE_SHIFT, y0 += dx * SIDE_SHIFT;
  x1 -= dy * SIDE_SHIFT, y1 += dx * SIDE_SHIFT;
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1, y1);
  add_head (heads, x1, y1, atan2 (dy, dx));
}

/* A link round the torus's edge along X or Y: out of @a's panel on the
 * side it travels to, back in on the other side into @b, dashed */
static void
wrap_link (cairo_t               *cr,
           const graphene_rect_t *panel,
           const graphene_rect_t *a,
           const graphene_rect_t *b,
           guint                  dim,
           int                    step,
           GArray                *heads)
{
  double dx = dim == 0 ? step : 0, dy = dim == 1 ? step : 0;
  double out = 10;
  double x0, y0, x1, y1, ex, ey, sx, sy;

  box_exit (a, dx, dy, &x0, &y0);
  box_exit (b, -dx, -dy, &x1, &y1);
  x0 -= dy * SIDE_SHIFT, y0 += dx * SIDE_SHIFT;
  x1 -= dy * SIDE_SHIFT, y1 += dx * SIDE_SHIFT;
  /* the panel's side it leaves by, the one it comes in by */
  ex = dim == 0 ? (step > 0 ? panel->origin.x + panel->size.width + out : panel->origin.x - out) : x0;
  ey = dim == 1 ? (step > 0 ? panel->origin.y + panel->size.height + out : panel->origin.y - out) : y0;
  sx = dim == 0 ? (step > 0 ? panel->origin.x - out : panel->origin.x + panel->size.width + out) : x1;
  sy = dim == 1 ? (step > 0 ? panel->origin.y - out : panel->origin.y + panel->size.height + out) : y1;
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, ex, ey);
  cairo_move_to (cr, sx, sy);
  cairo_line_to (cr, x1, y1);
  add_head (heads, x1, y1, atan2 (dy, dx));
}

/* A hop between panels: a curve from @a's box to @b's, bowed to the left
 * of its way (a hop to a panel on the right arches up, the way back
 * down; to a panel below, to the right), more the further it goes */
static void
arched_link (cairo_t               *cr,
             const graphene_rect_t *a,
             const graphene_rect_t *b,
             double                 cell,
             GArray                *heads)
{
  double ax = a->origin.x + a->size.width / 2.0, ay = a->origin.y + a->size.height / 2.0;
  double bx = b->origin.x + b->size.width / 2.0, by = b->origin.y + b->size.height / 2.0;
  double len = MAX (hypot (bx - ax, by - ay), 1e-9);
  double nx = (by - ay) / len, ny = -(bx - ax) / len;     /* the left of the way, on the screen */
  double bow = MIN (0.3 * cell + 0.1 * len, 1.6 * cell);
  double c0x = ax + (bx - ax) * 0.25 + nx * bow, c0y = ay + (by - ay) * 0.25 + ny * bow;
  double c1x = ax + (bx - ax) * 0.75 + nx * bow, c1y = ay + (by - ay) * 0.75 + ny * bow;
  double x0, y0, x1, y1;

  box_exit (a, c0x - ax, c0y - ay, &x0, &y0);
  box_exit (b, c1x - bx, c1y - by, &x1, &y1);
  cairo_move_to (cr, x0, y0);
  cairo_curve_to (cr, c0x, c0y, c1x, c1y, x1, y1);
  add_head (heads, x1, y1, atan2 (y1 - c1y, x1 - c1x));
}

/* How a message is drawn: a kind after the other, each link stroked on
 * its own (one stroke of all a kind's curves was no faster: 1800 arches
 * 0.66 against 0.62 s at a load of 31, medians of 6), the heads of a kind
 * in one fill */
typedef enum
{
  STYLE_PLANE,     /* along X or Y, or across a panel */
  STYLE_WRAP,      /* along X or Y round the torus: dashed */
  STYLE_HOP_Z,     /* to another panel along Z */
  STYLE_HOP_W,     /* along W */
  STYLE_ACROSS,    /* to another panel, along more than one dimension */
  N_STYLES
} LinkStyle;

static LinkStyle
link_style (const TorusPlan *plan,
            const Site      *a,
            const Site      *b,
            guint           *dim,
            int             *step)
{
  gboolean wraps;
  guint n = differ (plan, a, b, dim, step, &wraps);

  if (a->coords[2] == b->coords[2] && a->coords[3] == b->coords[3])
    return n == 1 && wraps && plan->sizes[*dim] > 2 ? STYLE_WRAP : STYLE_PLANE;
  if (n > 1)
    return STYLE_ACROSS;

  return *dim == 2 ? STYLE_HOP_Z : STYLE_HOP_W;
}

/* The messages: X and Y in the foreground's colour, the hops between
 * panels in the colours of Z and W (lighter in small cells, so that the
 * boxes and the plane's lines show through) */
static void
draw_links (cairo_t         *cr,
            const TorusPlan *plan,
            const GdkRGBA   *fg)
{
  g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (Head));
  double size = CLAMP (plan->cell / 8, 5, 8);
  guint nz = plan_size (plan, 2);

  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  for (LinkStyle style = 0; style < N_STYLES; style++)
    {
      GdkRGBA color = style == STYLE_HOP_Z || style == STYLE_HOP_W
                      ? *sextant_tree_view_phase_color (style - STYLE_HOP_Z) : *fg;

      color.alpha = style == STYLE_HOP_Z || style == STYLE_HOP_W ? (plan->cell >= 60 ? 1 : 0.45f) : 0.7f;
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_set_line_width (cr, style == STYLE_HOP_Z || style == STYLE_HOP_W ? 1.75 : 1.5);
      cairo_set_dash (cr, (double[]) { 4, 3 }, style == STYLE_WRAP ? 2 : 0, 0);
      g_array_set_size (heads, 0);
      for (guint k = 0; k < plan->links->len; k++)
        {
          const Link *link = &g_array_index (plan->links, Link, k);
          const Site *a = &g_array_index (plan->sites, Site, link->from);
          const Site *b = &g_array_index (plan->sites, Site, link->to);
          guint dim = 0;
          int step;

          if (link_style (plan, a, b, &dim, &step) != style)
            continue;
          if (style == STYLE_PLANE)
            straight_link (cr, &a->box, &b->box, heads);
          else if (style == STYLE_WRAP)
            wrap_link (cr, &g_array_index (plan->panels, graphene_rect_t, a->coords[2] + nz * a->coords[3]),
                       &a->box, &b->box, dim, step, heads);
          else
            arched_link (cr, &a->box, &b->box, plan->cell, heads);
          cairo_stroke (cr);
        }
      cairo_set_dash (cr, NULL, 0, 0);
      for (guint k = 0; k < heads->len; k++)
        {
          const Head *h = &g_array_index (heads, Head, k);

          cairo_move_to (cr, h->x, h->y);
          cairo_line_to (cr, h->x - size * cos (h->angle - 0.4), h->y - size * sin (h->angle - 0.4));
          cairo_line_to (cr, h->x - size * cos (h->angle + 0.4), h->y - size * sin (h->angle + 0.4));
          cairo_close_path (cr);
        }
      cairo_fill (cr);
    }
}

/* A panel's title: "Z = 1", "Z = 1 · W = 0"; the first says the axes */
static char *
panel_title (const TorusPlan *plan,
             guint            z,
             guint            w)
{
  GString *title = g_string_new (NULL);

  if (plan->n_dims > 2)
    g_string_append_printf (title, "Z = %u", z);
  if (plan->n_dims > 3)
    g_string_append_printf (title, " · W = %u", w);
  if (z == 0 && w == 0)
    g_string_append_printf (title, "%sX →, Y ↓", title->len > 0 ? "   " : "");

  return g_string_free (title, FALSE);
}

void
_sextant_tree_view_snapshot_torus (SextantTreeView *self,
                                   GtkSnapshot     *snapshot,
                                   PangoLayout     *small,
                                   const GdkRGBA   *fg)
{
  Layout *l = self->layout;
  TorusPlan *plan = l->torus;
  guint nz = plan_size (plan, 2);
  GdkRGBA band = *fg, mesh = *fg, hollow = { 0.97f, 0.97f, 0.97f, 1 }, back;
  cairo_t *cr;

  /* the panels, the torus's links as a faint mesh */
  _sextant_tree_view_label_background (fg, &back);
  band.alpha = 0.04f;
  mesh.alpha = 0.12f;
  for (guint p = 0; p < plan->panels->len; p++)
    {
      const graphene_rect_t *panel = &g_array_index (plan->panels, graphene_rect_t, p);
      gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (panel->origin.x - 4, panel->origin.y - 4,
                                                                      panel->size.width + 8, panel->size.height + 8));
    }
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, l->width, l->height));
  gdk_cairo_set_source_rgba (cr, &mesh);
  cairo_set_line_width (cr, 1);
  for (guint p = 0; p < plan->panels->len; p++)
    {
      const graphene_rect_t *panel = &g_array_index (plan->panels, graphene_rect_t, p);
      double half = plan->cell / 2;

      for (guint x = 0; x < plan_size (plan, 0); x++)
        {
          cairo_move_to (cr, panel->origin.x + (x + 0.5) * plan->cell, panel->origin.y + half);
          cairo_line_to (cr, panel->origin.x + (x + 0.5) * plan->cell, panel->origin.y + panel->size.height - half);
        }
      for (guint y = 0; y < plan_size (plan, 1); y++)
        {
          cairo_move_to (cr, panel->origin.x + half, panel->origin.y + (y + 0.5) * plan->cell);
          cairo_line_to (cr, panel->origin.x + panel->size.width - half, panel->origin.y + (y + 0.5) * plan->cell);
        }
    }
  cairo_stroke (cr);

  draw_links (cr, plan, fg);
  cairo_destroy (cr);

  /* the panels' titles, over the hops */
  for (guint p = 0; p < plan->panels->len; p++)
    {
      const graphene_rect_t *panel = &g_array_index (plan->panels, graphene_rect_t, p);
      g_autofree char *title = panel_title (plan, p % nz, p / nz);
      int w, h;

      pango_layout_set_text (small, title, -1);
      pango_layout_get_pixel_size (small, &w, &h);
      gtk_snapshot_append_color (snapshot, &back, &GRAPHENE_RECT_INIT (panel->origin.x - 4,
                                                                      panel->origin.y - PANEL_TITLE, w + 8, h));
      sextant_snapshot_text (snapshot, small, title, panel->origin.x, panel->origin.y - PANEL_TITLE, fg);
    }

  /* the placed locations outside the tree: hollow and grey */
  for (guint k = 0; k < plan->sites->len; k++)
    {
      const Site *site = &g_array_index (plan->sites, Site, k);

      if (site->item >= 0)
        continue;
      gtk_snapshot_append_color (snapshot, &hollow, &site->box);
      sextant_snapshot_frame (snapshot, &site->box, 1, _sextant_tree_view_aggregate_border ());
    }

  /* the root: framed, "root" above when there is room */
  if (plan->root_site >= 0)
    {
      const Site *root = &g_array_index (plan->sites, Site, plan->root_site);
      graphene_rect_t around;
      int w, h;

      graphene_rect_inset_r (&root->box, -4, -4, &around);
      sextant_snapshot_frame (snapshot, &around, 2, fg);
      pango_layout_set_text (small, "root", -1);
      pango_layout_get_pixel_size (small, &w, &h);
      if (plan->cell >= 40)
        sextant_snapshot_text (snapshot, small, "root", around.origin.x, around.origin.y - h, fg);
    }
}

void
_sextant_tree_view_torus_legend (SextantTreeView *self,
                                 GtkSnapshot     *snapshot,
                                 PangoLayout     *layout,
                                 const GdkRGBA   *fg,
                                 double          *x)
{
  TorusPlan *plan = self->layout->torus;
  static const GdkRGBA hollow = { 0.97f, 0.97f, 0.97f, 1 };
  static const char * const hops[] = { "hop in Z", "hop in W" };

  _sextant_tree_view_legend_entry (self, snapshot, layout, fg, fg, 1.5, FALSE, NULL, "message (arrow: to the receiver)",
                                   x);
  for (guint d = 2; d < plan->n_dims; d++)
    _sextant_tree_view_legend_entry (self, snapshot, layout, fg, sextant_tree_view_phase_color (d - 2), 1.75, FALSE,
                                     NULL, hops[d - 2], x);
  _sextant_tree_view_legend_entry (self, snapshot, layout, fg, fg, 1.5, TRUE, NULL, "round the torus", x);
  if (plan->outsiders)
    _sextant_tree_view_legend_entry (self, snapshot, layout, fg, _sextant_tree_view_aggregate_border (), 0, FALSE,
                                     &hollow, "not in the collective", x);
}
