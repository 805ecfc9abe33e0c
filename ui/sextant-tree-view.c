/*
 * sextant-tree-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tree view follows its session's chosen collective and chosen
 * instance: each change asks for a tree, built on a worker thread with a
 * connection of its own (the builders of sextant-graph.h read a few
 * thousand rows at most: one per member, or a link of a chain); the last
 * asked for is shown, earlier ones are cancelled and dropped. An analysis
 * (a new generation) builds the tree again: delay chains come from its
 * instances. The layout is made again when the width, the tree or the
 * expanded boxes change; a click on a node selects its location at its
 * arrival in the session, a click on a collapsed box shows its nodes.
 * When the trace places the nodes of a collective's tree on a torus
 * (sextant_store_read_torus_coords()), the worker also reads the places
 * and the run's messages per pair, and the tree is laid out there
 * (sextant-tree-view-torus.c) unless "torus-layout" is turned off.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sextant-graph.h"
#include "sextant-tree-view-private.h"

G_DEFINE_FINAL_TYPE (SextantTreeView, sextant_tree_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_TREE,
  PROP_READY,
  PROP_ERROR,
  PROP_TITLE,
  PROP_MODEL_LAYOUT,
  PROP_HAS_MODEL,
  PROP_TORUS_LAYOUT,
  PROP_HAS_TORUS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Building --------------------------------------------------------------------- */

typedef struct
{
  SextantSession    *session;
  char              *collective;   /* build this collective's tree, or */
  gint64             instance;     /* this instance's chain (pattern_instance.id) */
  char              *pattern;      /* its pattern's id and location, for the notice */
  char              *location;
  gint64             loc;          /* the instance's location and begin: its collective */
  gint64             begin;
  gboolean           has_peer;
  SextantTreeLayout  layout;
  guint              serial;
  char              *title;        /* the instance's pattern's title, read by the worker */
} Request;

static void
request_free (Request *request)
{
  g_clear_object (&request->session);
  g_free (request->collective);
  g_free (request->title);
  g_free (request->pattern);
  g_free (request->location);
  g_free (request);
}

/* What the worker hands back: the tree, and where its nodes sit */
typedef struct
{
  SextantCommTree *tree;
  TorusPlaces      places;
  GHashTable      *titles;      /* a delay chain's pattern ids -> their titles */
} Built;

static void
built_free (Built *built)
{
  g_clear_pointer (&built->tree, sextant_comm_tree_unref);
  _sextant_tree_view_places_clear (&built->places);
  g_clear_pointer (&built->titles, g_hash_table_unref);
  g_free (built);
}

/* On the worker: the collective's tree, or the instance's chain; an
 * instance without one (no peer to follow) shows the collective it is in */
static void
build_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Request *request = task_data;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *collective = g_strdup (request->collective);
  SextantCommTree *tree = NULL;

  if (!(store = sextant_session_open_store (request->session, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  sextant_store_set_cancellable (store, cancellable);
  if (collective == NULL)
    {
      request->title = sextant_store_dup_pattern_title (store, request->pattern, NULL);
      if (request->has_peer)
        tree = sextant_graph_build_delay_chain (store, request->instance, SEXTANT_DELAY_CHAIN_MAX_DEPTH, &error);
      if (tree == NULL && (error == NULL || g_error_matches (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA)))
        {
          g_autoptr(GError) local = NULL;

          if (request->begin != SEXTANT_NULL)
            collective = sextant_graph_collective_at (store, request->loc, request->begin, &local);
          if (local != NULL)
            {
              g_task_return_error (task, g_steal_pointer (&local));
              return;
            }
          if (collective == NULL && error == NULL)
            g_set_error_literal (&error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA,
                                 "This instance waited for no one and in no collective: it has no tree");
        }
    }
  if (tree == NULL && collective != NULL)
    {
      g_clear_error (&error);
      tree = sextant_graph_build_collective (store, collective, request->layout, &error);
    }
  sextant_store_set_cancellable (store, NULL);
  if (tree == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  {
    Built *built = g_new0 (Built, 1);

    built->tree = tree;
    _sextant_tree_view_read_places (store, tree, &built->places);
    /* a delay chain's links say which pattern each wait was: by title */
    if (sextant_comm_tree_get_kind (tree) == SEXTANT_TREE_DELAY_CHAIN)
      {
        built->titles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
        for (guint e = 0; e < sextant_comm_tree_get_n_edges (tree); e++)
          {
            const char *by = sextant_comm_tree_get_edge (tree, e)->by;
            char *title;

            if (by != NULL && !g_hash_table_contains (built->titles, by) &&
                (title = sextant_store_dup_pattern_title (store, by, NULL)) != NULL)
              g_hash_table_insert (built->titles, g_strdup (by), title);
          }
      }
    g_task_return_pointer (task, built, (GDestroyNotify)built_free);
  }
}

static void
set_ready (SextantTreeView *self,
           gboolean         ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

static void
set_error (SextantTreeView *self,
           const char      *error)
{
  if (g_strcmp0 (error, self->error) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/* The chosen instance has no tree: it is no wait for another location
 * and lies in no collective (the builders' NO_DATA) */
static void
set_notice (SextantTreeView *self,
            Request         *request)
{
  g_free (self->notice);
  if (request != NULL)
    self->notice = g_strdup_printf ("No tree for this %s on %s: it is no wait for another location and lies in "
                                    "no collective. The tree shows a collective's members, or who delayed a Late "
                                    "Sender, a Late Receiver, a wait in a collective or at a lock.",
                                    request->title != NULL ? request->title : request->pattern, request->location);
  else
    self->notice = NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The heading: the builder's title of the tree (what it is of, its shape) */
static void
update_title (SextantTreeView *self)
{
  g_autofree char *title = NULL;

  if (self->tree != NULL)
    {
      const char *name = sextant_comm_tree_get_title (self->tree);
      guint n = sextant_comm_tree_get_n_nodes (self->tree);

      if (name != NULL)
        title = g_strdup (name);
      else if (sextant_comm_tree_get_kind (self->tree) == SEXTANT_TREE_DELAY_CHAIN)
        title = g_strdup_printf ("A chain of waits over %u locations", n);
      else
        title = g_strdup_printf ("The collective %s, %u members", sextant_comm_tree_get_id (self->tree), n);
    }
  else if (self->subject != NULL)
    {
      title = g_strdup (self->subject);
      title[0] = g_ascii_toupper (title[0]);
    }
  if (title != NULL && self->places.error != NULL)
    {
      char *with = g_strdup_printf ("%s (its torus coordinates are not used: %s)", title, self->places.error);

      g_free (title);
      title = with;
    }

  if (g_strcmp0 (title, self->title) == 0)
    return;
  g_free (self->title);
  self->title = g_steal_pointer (&title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/* The places of @built (NULL: none) become the view's */
static void
adopt_places (SextantTreeView *self,
              Built           *built)
{
  gboolean had = self->places.pairs != NULL;

  _sextant_tree_view_places_clear (&self->places);
  if (built != NULL)
    {
      self->places = built->places;
      memset (&built->places, 0, sizeof built->places);
    }
  if (had != (self->places.pairs != NULL))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_TORUS]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_MODEL]);
    }
}

static void
show_tree (SextantTreeView *self,
           SextantCommTree *tree)
{
  gboolean had_model = self->tree != NULL && sextant_comm_tree_get_has_model_layout (self->tree);

  if (tree != NULL)
    sextant_comm_tree_ref (tree);
  g_clear_pointer (&self->tree, sextant_comm_tree_unref);
  self->tree = tree;
  g_hash_table_remove_all (self->expanded);
  self->hover = -1;
  _sextant_tree_view_invalidate (self);
  update_title (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  if (had_model != (tree != NULL && sextant_comm_tree_get_has_model_layout (tree)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_MODEL]);
}

static void
built_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SextantTreeView) self = user_data;
  Request *request = g_task_get_task_data (G_TASK (result));
  Built *built;
  g_autoptr(GError) error = NULL;

  built = g_task_propagate_pointer (G_TASK (result), &error);
  if (request->serial != self->serial)
    {
      g_clear_pointer (&built, built_free);
      return;                   /* asked for again meanwhile */
    }

  self->building = FALSE;
  if (built == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (request->title != NULL)
    {
      g_free (self->subject);
      self->subject = g_strdup_printf ("the %s on %s", request->title, request->location);
    }
  adopt_places (self, built);
  g_clear_pointer (&self->titles, g_hash_table_unref);
  if (built != NULL)
    self->titles = g_steal_pointer (&built->titles);
  if (built == NULL && request->collective == NULL
      && g_error_matches (error, SEXTANT_GRAPH_ERROR, SEXTANT_GRAPH_ERROR_NO_DATA))
    {
      /* no failure: nothing to draw for this kind of instance */
      show_tree (self, NULL);
      set_notice (self, request);
    }
  else if (built == NULL)
    {
      g_autofree char *message = g_strdup_printf ("No tree for %s: %s", self->subject, error->message);

      show_tree (self, NULL);
      set_error (self, message);
    }
  else
    show_tree (self, built->tree);
  g_clear_pointer (&built, built_free);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  set_ready (self, TRUE);
}

/* Asks for the tree of what the session has chosen: its collective, else
 * its instance; nothing: the empty state */
static void
rebuild (SextantTreeView *self)
{
  const char *collective = self->session != NULL ? sextant_session_get_collective (self->session) : NULL;
  SextantInstance *instance = self->session != NULL ? sextant_session_get_instance (self->session) : NULL;
  const SextantPatternInstance *record = instance != NULL ? sextant_instance_get_record (instance) : NULL;
  g_autoptr(GTask) task = NULL;
  Request *request;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->serial++;
  set_error (self, NULL);
  set_notice (self, NULL);
  g_clear_pointer (&self->subject, g_free);
  if (collective == NULL && record == NULL)
    {
      self->building = FALSE;
      adopt_places (self, NULL);
      show_tree (self, NULL);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      set_ready (self, TRUE);
      return;
    }

  request = g_new0 (Request, 1);
  request->session = g_object_ref (self->session);
  request->serial = self->serial;
  request->layout = self->model_layout ? SEXTANT_TREE_LAYOUT_BINOMIAL : SEXTANT_TREE_LAYOUT_RECORDED;
  if (collective != NULL)
    {
      request->collective = g_strdup (collective);
      self->subject = g_strdup_printf ("the collective %s", collective);
    }
  else
    {
      request->instance = record->id;
      request->loc = record->loc;
      request->begin = record->begin;
      request->has_peer = record->peer_loc != SEXTANT_NULL;
      request->pattern = g_strdup (record->pattern);
      request->location = g_strdup (record->location);
      self->subject = g_strdup_printf ("the %s on %s", record->pattern, record->location);
    }

  self->building = TRUE;
  self->cancellable = g_cancellable_new ();
  set_ready (self, FALSE);
  update_title (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  task = g_task_new (NULL, self->cancellable, built_cb, g_object_ref (self));
  g_task_set_source_tag (task, rebuild);
  g_task_set_task_data (task, request, (GDestroyNotify)request_free);
  g_task_run_in_thread (task, build_worker);
}

/* The layout ------------------------------------------------------------------- */

/* The layout and its drawing are made again at the next frame */
void
_sextant_tree_view_invalidate (SextantTreeView *self)
{
  g_clear_pointer (&self->layout, _sextant_tree_layout_free);
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static Layout *
layout_for_width (SextantTreeView *self,
                  int              width)
{
  g_autoptr(PangoLayout) text = NULL;

  if (self->tree == NULL)
    return NULL;
  if (self->layout != NULL && self->layout->width == width)
    return self->layout;

  g_clear_pointer (&self->layout, _sextant_tree_layout_free);
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  text = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  if (self->torus_layout && self->places.pairs != NULL)
    self->layout = _sextant_tree_layout_new_torus (self->tree, &self->places.torus, self->places.pairs, width, text);
  if (self->layout == NULL)
    self->layout = _sextant_tree_layout_new (self->tree, self->expanded, self->model_layout, width, text);

  return self->layout;
}

static void
sextant_tree_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  SextantTreeView *self = SEXTANT_TREE_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 320;
      *natural = 900;
    }
  else
    {
      int width = for_size > 0 ? for_size : MAX (gtk_widget_get_width (widget), 900);
      Layout *layout = layout_for_width (self, width);

      *minimum = *natural = layout != NULL ? layout->height : 120;
    }
}

static GtkSizeRequestMode
sextant_tree_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
sextant_tree_view_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  layout_for_width (SEXTANT_TREE_VIEW (widget), width);
}

static void
sextant_tree_view_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  SextantTreeView *self = SEXTANT_TREE_VIEW (widget);

  GTK_WIDGET_CLASS (sextant_tree_view_parent_class)->css_changed (widget, change);
  /* the colours (the light or dark style, the window's focus): drawn again */
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  gtk_widget_queue_draw (widget);
}

/* Hover and clicks ------------------------------------------------------------- */

static void
append_time (GString         *text,
             const char      *what,
             SextantCommTree *tree,
             gint64           t)
{
  if (t != SEXTANT_NULL)
    g_string_append_printf (text, "\n%s %.6f s", what, sextant_comm_tree_seconds (tree, t));
}

/* A node: where, when, how late, how its data came; for a delay chain,
 * what it was doing */
static char *
node_details (SextantTreeView *self,
              const Item      *item)
{
  SextantCommTree *tree = self->tree;
  gint64 res = sextant_comm_tree_get_resolution (tree);
  GString *text = g_string_new (NULL);
  const SextantTreeNode *node;
  int e;

  if (item->kind == ITEM_AGGREGATE)
    {
      g_autofree char *from = NULL;

      g_string_append_printf (text, "<b>%u more %s</b>", item->members, item->members == 1 ? "rank" : "ranks");
      if (item->node >= 0)
        {
          g_autofree char *parent = g_markup_escape_text (sextant_comm_tree_get_node (tree, (guint)item->node)->name, -1);

          g_string_append_printf (text, " under %s", parent);
        }
      append_time (text, "first arrival", tree, item->t);
      append_time (text, "last arrival", tree, item->t_end);
      g_string_append_printf (text, "\nClick to show %s", item->members > EXPAND_STEP ? "the next ones" : "them");
      return g_string_free (text, FALSE);
    }

  node = sextant_comm_tree_get_node (tree, (guint)item->node);
  {
    g_autofree char *name = g_markup_escape_text (node->name != NULL ? node->name : "?", -1);
    g_autofree char *late = sextant_format_duration (node->lateness, res);

    g_string_append_printf (text, "<b>%s</b>%s", name, item->node == sextant_comm_tree_get_root (tree) ? " (root)" : "");
    if (self->places.pairs != NULL)
      {
        g_autofree char *at = sextant_torus_coords_format (&self->places.torus, node->loc);

        if (at != NULL)
          g_string_append_printf (text, "\nat %s on the torus", at);
      }
    append_time (text, "arrival", tree, node->arrival);
    append_time (text, "finish", tree, node->finish);
    g_string_append_printf (text, "\nlateness %s", late);
    if (item->critical)
      g_string_append (text, " · on the critical path");
  }
  e = self->layout->edge_in[item->node];
  if (e >= 0)
    {
      const SextantTreeEdge *edge = sextant_comm_tree_get_edge (tree, (guint)e);
      g_autofree char *took = sextant_format_duration (edge->end - edge->begin, res);
      g_autofree char *from = g_markup_escape_text (sextant_comm_tree_get_node (tree, (guint)edge->from)->name, -1);

      g_string_append_printf (text, "\nfrom %s in %s", from, took);
      if (edge->bytes != SEXTANT_NULL && edge->bytes >= 0)
        {
          g_autofree char *bytes = g_format_size_full ((guint64)edge->bytes, G_FORMAT_SIZE_IEC_UNITS);

          g_string_append_printf (text, ", %s", bytes);
        }
      if (edge->by != NULL)
        {
          g_autofree char *by = g_markup_escape_text (edge->by, -1);

          g_string_append_printf (text, " (%s%s)", edge->model ? "assumed: " : "by ", by);
        }
    }
  if (node->cause != SEXTANT_CAUSE_NONE)
    {
      static const char * const causes[] = {
        [SEXTANT_CAUSE_WAITING] = "waiting: its delay came from further up the chain",
        [SEXTANT_CAUSE_ROOT] = "the root cause: not waiting, it was late by itself",
        [SEXTANT_CAUSE_TRUNCATED] = "the chain stops here (its depth bound, or a cycle)",
      };

      g_string_append_printf (text, "\n%s", causes[node->cause]);
      if (node->pattern != NULL)
        g_string_append_printf (text, "\npattern %s", node->pattern);
      if (node->region_name != NULL)
        {
          g_autofree char *region = g_markup_escape_text (node->region_name, -1);

          g_string_append_printf (text, "\nin <tt>%s</tt>", region);
        }
      if (node->file != NULL)
        {
          g_autofree char *file = g_markup_escape_text (node->file, -1);

          g_string_append_printf (text, " at %s:%" G_GINT64_FORMAT, file, node->line);
        }
      if (node->begin != SEXTANT_NULL && node->end != SEXTANT_NULL)
        {
          g_autofree char *lasted = sextant_format_duration (node->end - node->begin, res);

          g_string_append_printf (text, "\nfor %s from %.6f s", lasted, sextant_comm_tree_seconds (tree, node->begin));
        }
    }
  g_string_append (text, "\nClick to select it in the timeline");

  return g_string_free (text, FALSE);
}

static gboolean
sextant_tree_view_query_tooltip (GtkWidget  *widget,
                                 int         x,
                                 int         y,
                                 gboolean    keyboard,
                                 GtkTooltip *tooltip)
{
  SextantTreeView *self = SEXTANT_TREE_VIEW (widget);
  g_autofree char *markup = NULL;
  int hit;

  if (self->layout == NULL || (hit = _sextant_tree_layout_hit (self->layout, x, y)) < 0)
    return FALSE;

  markup = node_details (self, &g_array_index (self->layout->items, Item, hit));
  gtk_tooltip_set_markup (tooltip, markup);

  return TRUE;
}

static void
set_hover (SextantTreeView *self,
           int              hover)
{
  if (hover == self->hover)
    return;

  self->hover = hover;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), hover >= 0 ? "pointer" : NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SextantTreeView          *self)
{
  set_hover (self, self->layout != NULL ? _sextant_tree_layout_hit (self->layout, x, y) : -1);
}

static void
leave_cb (GtkEventControllerMotion *controller,
          SextantTreeView          *self)
{
  set_hover (self, -1);
}

/* A node: its location at its arrival, selected in the session; a
 * collapsed box: EXPAND_STEP more of its nodes shown */
static void
activate_item (SextantTreeView *self,
               int              hit)
{
  const Item *item = &g_array_index (self->layout->items, Item, hit);

  if (item->kind == ITEM_AGGREGATE)
    {
      gpointer key = GINT_TO_POINTER (item->node + 2);

      g_hash_table_insert (self->expanded, key,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (self->expanded, key)) + EXPAND_STEP));
      self->hover = -1;
      _sextant_tree_view_invalidate (self);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      return;
    }
  if (self->session != NULL)
    {
      const SextantTreeNode *node = sextant_comm_tree_get_node (self->tree, (guint)item->node);

      sextant_session_select (self->session, node->loc, node->arrival);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
released_cb (GtkGestureClick *gesture,
             int              n_press,
             double           x,
             double           y,
             SextantTreeView *self)
{
  int hit;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->layout != NULL && (hit = _sextant_tree_layout_hit (self->layout, x, y)) >= 0)
    activate_item (self, hit);
}

/* The session ------------------------------------------------------------------ */

/**
 * sextant_tree_view_set_session:
 * @session: (nullable): a loaded session
 *
 * Shows the tree of @session's chosen collective or instance, and follows
 * its choices.
 */
void
sextant_tree_view_set_session (SextantTreeView *self,
                               SextantSession  *session)
{
  g_return_if_fail (SEXTANT_IS_TREE_VIEW (self));
  g_return_if_fail (session == NULL || (SEXTANT_IS_SESSION (session) && sextant_session_get_loaded (session)));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* Returns: (transfer none) (nullable) */
SextantSession *
sextant_tree_view_get_session (SextantTreeView *self)
{
  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), NULL);

  return self->session;
}

/**
 * sextant_tree_view_set_tree:
 * @tree: (nullable): a tree built elsewhere
 *
 * Shows @tree until the session chooses something else. Clicks on its
 * nodes select in the session, if there is one.
 */
void
sextant_tree_view_set_tree (SextantTreeView *self,
                            SextantCommTree *tree)
{
  g_return_if_fail (SEXTANT_IS_TREE_VIEW (self));

  g_cancellable_cancel (self->cancellable);
  self->serial++;
  self->building = FALSE;
  set_error (self, NULL);
  adopt_places (self, NULL);
  show_tree (self, tree);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  set_ready (self, TRUE);
}

/* Returns: (transfer none) (nullable): the tree shown */
SextantCommTree *
sextant_tree_view_get_tree (SextantTreeView *self)
{
  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), NULL);

  return self->tree;
}

/* TRUE when what is drawn is the tree of the session's choice (or its
 * error, or the empty state): tests and screenshots wait for it */
gboolean
sextant_tree_view_get_ready (SextantTreeView *self)
{
  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), FALSE);

  return self->ready;
}

/* Returns: (nullable): why the tree of the session's choice was not built */
const char *
sextant_tree_view_get_error (SextantTreeView *self)
{
  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), NULL);

  return self->error;
}

/* Returns: (nullable): why the chosen instance has no tree, when that is
 * no failure (it is no wait for another location, in no collective) */
const char *
sextant_tree_view_get_notice (SextantTreeView *self)
{
  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), NULL);

  return self->notice;
}

/* Returns: (nullable): a heading for the tree shown */
const char *
sextant_tree_view_get_title (SextantTreeView *self)
{
  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), NULL);

  return self->title;
}

static Layout *
current_layout (SextantTreeView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  return width > 0 ? layout_for_width (self, width) : NULL;
}

/**
 * sextant_tree_view_get_node_area:
 * @node: a node of the tree shown
 * @area: (out): its box, in the widget's coordinates
 *
 * Returns: %TRUE when @node is drawn as a box of its own (not collapsed)
 */
gboolean
sextant_tree_view_get_node_area (SextantTreeView *self,
                                 guint            node,
                                 graphene_rect_t *area)
{
  Layout *layout;
  const Item *item;

  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), FALSE);

  if ((layout = current_layout (self)) == NULL || node >= layout->n_nodes || layout->item_of[node] < 0)
    return FALSE;
  item = &g_array_index (layout->items, Item, layout->item_of[node]);
  if (item->kind != ITEM_NODE)
    return FALSE;
  *area = item->box;

  return TRUE;
}

/* The collapsed boxes drawn */
guint
sextant_tree_view_get_n_aggregates (SextantTreeView *self)
{
  Layout *layout;
  guint n = 0;

  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), 0);

  if ((layout = current_layout (self)) == NULL)
    return 0;
  for (guint k = 0; k < layout->items->len; k++)
    n += g_array_index (layout->items, Item, k).kind == ITEM_AGGREGATE;

  return n;
}

/**
 * sextant_tree_view_get_aggregate_area:
 * @aggregate: 0 .. sextant_tree_view_get_n_aggregates() - 1
 * @members: (out) (optional): the nodes it stands for
 * @area: (out): its box
 */
gboolean
sextant_tree_view_get_aggregate_area (SextantTreeView *self,
                                      guint            aggregate,
                                      guint           *members,
                                      graphene_rect_t *area)
{
  Layout *layout;

  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), FALSE);

  if ((layout = current_layout (self)) == NULL)
    return FALSE;
  for (guint k = 0; k < layout->items->len; k++)
    {
      const Item *item = &g_array_index (layout->items, Item, k);

      if (item->kind != ITEM_AGGREGATE || aggregate-- > 0)
        continue;
      if (members != NULL)
        *members = item->members;
      *area = item->box;
      return TRUE;
    }

  return FALSE;
}

/* GObject ---------------------------------------------------------------------- */

static void
session_selection_cb (SextantTreeView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sextant_tree_view_dup_edge_label:
 * @e: an edge of the tree shown
 *
 * Returns: (transfer full) (nullable): the text the view labels edge @e
 *   with where it has room ("Late Sender · 12.3 ms" on a delay chain's
 *   link), %NULL with no tree or no such edge
 */
char *
sextant_tree_view_dup_edge_label (SextantTreeView *self,
                                  guint            e)
{
  g_return_val_if_fail (SEXTANT_IS_TREE_VIEW (self), NULL);

  if (self->tree == NULL || e >= sextant_comm_tree_get_n_edges (self->tree))
    return NULL;

  return _sextant_tree_view_edge_text (self, e);
}

static void
sextant_tree_view_dispose (GObject *object)
{
  SextantTreeView *self = SEXTANT_TREE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sextant_tree_view_parent_class)->dispose (object);
}

static void
sextant_tree_view_finalize (GObject *object)
{
  SextantTreeView *self = SEXTANT_TREE_VIEW (object);

  g_clear_pointer (&self->tree, sextant_comm_tree_unref);
  _sextant_tree_view_places_clear (&self->places);
  g_clear_pointer (&self->titles, g_hash_table_unref);
  g_clear_pointer (&self->layout, _sextant_tree_layout_free);
  g_clear_pointer (&self->rendered, gsk_render_node_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_free (self->error);
  g_free (self->notice);
  g_free (self->title);
  g_free (self->subject);

  G_OBJECT_CLASS (sextant_tree_view_parent_class)->finalize (object);
}

static void
sextant_tree_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SextantTreeView *self = SEXTANT_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_TREE:
      g_value_set_boxed (value, self->tree);
      break;
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_MODEL_LAYOUT:
      g_value_set_boolean (value, self->model_layout);
      break;
    case PROP_HAS_MODEL:
      g_value_set_boolean (value, self->tree != NULL && sextant_comm_tree_get_has_model_layout (self->tree) &&
                                  !(self->torus_layout && self->places.pairs != NULL));
      break;
    case PROP_TORUS_LAYOUT:
      g_value_set_boolean (value, self->torus_layout);
      break;
    case PROP_HAS_TORUS:
      g_value_set_boolean (value, self->places.pairs != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_tree_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  SextantTreeView *self = SEXTANT_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sextant_tree_view_set_session (self, g_value_get_object (value));
      break;
    case PROP_MODEL_LAYOUT:
      if (self->model_layout != g_value_get_boolean (value))
        {
          self->model_layout = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
          /* the builder adds the model's edges */
          if (self->tree != NULL && sextant_comm_tree_get_kind (self->tree) == SEXTANT_TREE_MPI_COLLECTIVE)
            rebuild (self);
        }
      break;
    case PROP_TORUS_LAYOUT:
      if (self->torus_layout != g_value_get_boolean (value))
        {
          self->torus_layout = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
          g_object_notify_by_pspec (object, properties[PROP_HAS_MODEL]);
          self->hover = -1;
          _sextant_tree_view_invalidate (self);
          gtk_widget_queue_resize (GTK_WIDGET (self));
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_tree_view_class_init (SextantTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sextant_tree_view_dispose;
  object_class->finalize = sextant_tree_view_finalize;
  object_class->get_property = sextant_tree_view_get_property;
  object_class->set_property = sextant_tree_view_set_property;

  widget_class->snapshot = _sextant_tree_view_snapshot;
  widget_class->measure = sextant_tree_view_measure;
  widget_class->get_request_mode = sextant_tree_view_get_request_mode;
  widget_class->size_allocate = sextant_tree_view_size_allocate;
  widget_class->css_changed = sextant_tree_view_css_changed;
  widget_class->query_tooltip = sextant_tree_view_query_tooltip;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SEXTANT_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TREE] = g_param_spec_boxed ("tree", NULL, NULL, SEXTANT_TYPE_COMM_TREE, ro);
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE, ro);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, ro);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  /* MPI collectives: laid out on Open MPI's binomial tree (BCAST, REDUCE) */
  properties[PROP_MODEL_LAYOUT] = g_param_spec_boolean ("model-layout", NULL, NULL, FALSE,
                                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                        G_PARAM_STATIC_STRINGS);
  /* the tree shown is an MPI BCAST's or REDUCE's, not on the torus: "model-layout" applies */
  properties[PROP_HAS_MODEL] = g_param_spec_boolean ("has-model", NULL, NULL, FALSE, ro);
  /* a collective's tree on the torus coordinates of its nodes, when the
   * trace has them (the default) */
  properties[PROP_TORUS_LAYOUT] = g_param_spec_boolean ("torus-layout", NULL, NULL, TRUE,
                                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                        G_PARAM_STATIC_STRINGS);
  /* the tree shown has nodes the trace places on a torus: "torus-layout" applies */
  properties[PROP_HAS_TORUS] = g_param_spec_boolean ("has-torus", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "commtree");
}

static void
sextant_tree_view_init (SextantTreeView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->hover = -1;
  self->ready = TRUE;
  self->torus_layout = TRUE;
  self->expanded = g_hash_table_new (NULL, NULL);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  self->session_signals = g_signal_group_new (SEXTANT_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::collective", G_CALLBACK (rebuild), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::instance", G_CALLBACK (rebuild), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::generation", G_CALLBACK (rebuild), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-loc", G_CALLBACK (session_selection_cb),
                                  self);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
sextant_tree_view_new (void)
{
  return g_object_new (SEXTANT_TYPE_TREE_VIEW, NULL);
}
