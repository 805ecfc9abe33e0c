/*
 * sextant-tree-view-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of SextantTreeView: sextant-tree-view.c (the session,
 * the trees built for it, input), sextant-tree-view-layout.c (where each
 * node goes: depths, lanes, collapsed siblings), sextant-tree-view-torus.c
 * (where each node goes on the torus coordinates, and what is drawn there
 * but the boxes) and sextant-tree-view-draw.c (what a frame looks like).
 */
#pragma once

#include "sextant-tree-view.h"

G_BEGIN_DECLS

#define LEGEND_HEIGHT   26     /* the legend, above the ruler */
#define RULER_HEIGHT    26
#define MARGIN          14
#define BOX_HEIGHT      20
#define BOX_PAD          6     /* text to the box's sides */
#define BOX_MIN_WIDTH   28
#define BOX_MAX_WIDTH  120
#define LANE_GAP         5     /* between the lanes of a depth */
#define DEPTH_GAP       34     /* between depths: the edges and their labels */
#define ITEM_GAP         6     /* between two items in a lane */

/* Nodes shown at one depth before the least late siblings are collapsed */
#define MAX_PER_DEPTH   24

/* More of a parent's collapsed children shown by a click on their box */
#define EXPAND_STEP     (4 * MAX_PER_DEPTH)

/* An exchange's rows (a node each) before the others go into one box */
#define MAX_EXCHANGE_ROWS 128

/* Past this many boxes, only the critical path's edges are labelled */
#define MAX_LABELLED    40

typedef enum
{
  ITEM_NODE,
  ITEM_AGGREGATE,
} ItemKind;

/* Something drawn as a box: a node, or siblings collapsed with their
 * subtrees ("+ 37 ranks") */
typedef struct
{
  ItemKind         kind;
  int              node;       /* the node; an aggregate: the parent of the siblings it holds */
  guint            members;    /* an aggregate: the nodes it stands for */
  guint            depth;
  guint            lane;
  gint64           t;          /* arrival (an aggregate: the earliest of its siblings') */
  gint64           t_end;      /* finish (an aggregate: the last arrival of its nodes) */
  gboolean         critical;
  char            *text;
  graphene_rect_t  box;
  double           bar_end;    /* x of t_end */
} Item;

/* The layout on the torus coordinates (sextant-tree-view-torus.c) */
typedef struct _TorusPlan TorusPlan;

/* Where a collective's nodes sit on a torus, and the run's messages, read
 * on the worker with the tree */
typedef struct
{
  SextantTorusCoords  torus;   /* n_dims 0: none */
  GArray             *pairs;   /* SextantMessagePair; set when a node of the tree has a place */
  char               *error;   /* why the trace's coordinates are not used */
} TorusPlaces;

void    _sextant_tree_view_read_places  (SextantStore    *store,
                                         SextantCommTree *tree,
                                         TorusPlaces     *places);
void    _sextant_tree_view_places_clear (TorusPlaces     *places);

typedef struct
{
  guint    n_nodes;
  int     *parent;       /* the parent the layout uses, -1 for a root */
  int     *edge_in;      /* the edge from it, -1 when none */
  int     *item_of;      /* the item that draws the node, or the aggregate that holds it */
  GArray  *items;        /* Item: nodes first by depth, then the aggregates */
  guint    n_depths;
  double  *depth_y;      /* the top of each depth's first lane */
  guint   *depth_lanes;
  int      width;
  int      height;
  gint64   t0;           /* the time axis: t0 at x0, t1 at x0 + plot */
  gint64   t1;
  double   x0;
  double   plot;
  gint64   max_lateness;
  gboolean model;        /* laid out on the model edges (an assumed algorithm) */
  TorusPlan *torus;      /* laid out on the torus coordinates: no time axis, no depths */
} Layout;

Layout *_sextant_tree_layout_new  (SextantCommTree *tree,
                                   GHashTable      *expanded,
                                   gboolean         model,
                                   int              width,
                                   PangoLayout     *text);
Layout *_sextant_tree_layout_alloc (guint          n_nodes,
                                   int            width);
void    _sextant_tree_layout_free (Layout          *layout);
double  _sextant_tree_layout_x    (Layout          *layout,
                                   gint64           t);
/* The item under (@x, @y), or -1 */
int     _sextant_tree_layout_hit  (Layout          *layout,
                                   double           x,
                                   double           y);

/* The tree's nodes at their places on the torus, the other placed
 * locations (transit nodes) and the messages between them; NULL when no
 * node of the tree has a place */
Layout *_sextant_tree_layout_new_torus  (SextantCommTree          *tree,
                                         const SextantTorusCoords *torus,
                                         const GArray             *pairs,
                                         int                       width,
                                         PangoLayout              *text);
void    _sextant_tree_torus_plan_free   (TorusPlan                *plan);
/* The panels, the links, the transit nodes, the root's mark: what the
 * torus layout draws under the nodes' boxes */
void    _sextant_tree_view_snapshot_torus (SextantTreeView        *self,
                                           GtkSnapshot            *snapshot,
                                           PangoLayout            *small,
                                           const GdkRGBA          *fg);
/* The legend's entries of the torus layout, from *@x on */
void    _sextant_tree_view_torus_legend   (SextantTreeView        *self,
                                           GtkSnapshot            *snapshot,
                                           PangoLayout            *layout,
                                           const GdkRGBA          *fg,
                                           double                 *x);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Layout, _sextant_tree_layout_free)

struct _SextantTreeView
{
  GtkWidget        parent_instance;

  SextantSession  *session;
  GSignalGroup    *session_signals;
  SextantCommTree *tree;
  char            *error;
  char            *notice;         /* why the chosen instance has no tree, when that is no failure */
  char            *title;
  char            *subject;        /* what the tree shown is of, as the title says it */
  GCancellable    *cancellable;    /* of the tree being built */
  guint            serial;         /* of the last build asked for */
  gboolean         building;
  gboolean         ready;
  gboolean         model_layout;   /* MPI collectives: on Open MPI's binomial tree */
  gboolean         torus_layout;   /* on the torus coordinates, when the trace has them */
  TorusPlaces      places;         /* of the tree shown */
  GHashTable      *titles;         /* (nullable) its patterns' titles by id (delay chains) */

  GHashTable      *expanded;       /* node index + 2 -> more of its collapsed children shown (see the layout) */
  Layout          *layout;         /* for the current width, NULL until needed */
  GskRenderNode   *rendered;       /* the layout drawn, replayed each frame */
  int              hover;          /* item under the pointer, -1 */
};

void _sextant_tree_view_snapshot     (GtkWidget       *widget,
                                      GtkSnapshot     *snapshot);
void _sextant_tree_view_invalidate   (SextantTreeView *self);
char *_sextant_tree_view_edge_text   (SextantTreeView *self,
                                      guint            e);
void _sextant_tree_view_lateness_color (double         fraction,
                                        GdkRGBA       *color);
/* A legend's entry: a line sample (or a box when @fill is given) and its
 * text at *@x, which moves past it; left out when it does not fit */
void _sextant_tree_view_legend_entry (SextantTreeView *self,
                                      GtkSnapshot     *snapshot,
                                      PangoLayout     *layout,
                                      const GdkRGBA   *fg,
                                      const GdkRGBA   *color,
                                      double           line,
                                      gboolean         dashed,
                                      const GdkRGBA   *fill,
                                      const char      *text,
                                      double          *x);
/* Under a label over the lines: light under dark text, dark under light */
void _sextant_tree_view_label_background (const GdkRGBA *fg,
                                          GdkRGBA       *back);
/* The borders of collapsed boxes (and transit nodes): never a node's */
const GdkRGBA *_sextant_tree_view_aggregate_border (void);

G_END_DECLS
