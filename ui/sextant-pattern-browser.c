/*
 * sextant-pattern-browser.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The patterns' totals and their metric tree (a few dozen rows) are read
 * on a connection of their own from the session, off the main thread,
 * when the session or its generation changes (a newer read cancels the
 * one before); the list is a GtkTreeListModel over the tree's nodes that
 * have instances below them, one GtkStringObject per node, its id. The
 * chosen pattern's instances are -instances.c's.
 *
 * The panes agree on the chosen instance, the session's: choosing another
 * pattern (or a group) takes it from the session, so the timeline's mark,
 * the Tree page, the source and the details all drop it together (the
 * timeline keeps its view, so walking the list with the arrows neither
 * zooms nor builds a tree at each row); the same pattern chosen again
 * keeps it. An instance chosen elsewhere (a click on lost time, --instance)
 * chooses its pattern here too.
 */
#include "config.h"

#include "sextant-report.h"
#include "sextant-resources.h"
#include "sextant-pattern-browser-private.h"

G_DEFINE_FINAL_TYPE (SextantPatternBrowser, sextant_pattern_browser, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_READY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void load_totals         (SextantPatternBrowser *self);
static void pattern_selected_cb (GtkSingleSelection    *selection,
                                 GParamSpec            *pspec,
                                 SextantPatternBrowser *self);

void
_sextant_pattern_browser_set_ready (SextantPatternBrowser *self,
                                    gboolean               ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

void
_sextant_pattern_browser_show_error (SextantPatternBrowser *self,
                                     const GError          *error)
{
  g_autofree char *text = g_strdup_printf ("The patterns cannot be read: %s", error->message);

  gtk_label_set_text (self->status, text);
}

/* The patterns ------------------------------------------------------------------ */

/* What the totals' worker reads */
typedef struct
{
  GPtrArray          *totals;
  SextantPatternTree *tree;
} Totals;

static void
totals_free (Totals *totals)
{
  g_clear_pointer (&totals->totals, g_ptr_array_unref);
  g_clear_pointer (&totals->tree, sextant_pattern_tree_free);
  g_free (totals);
}

static void
load_totals_worker (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  g_autoptr(SextantStore) store = NULL;
  Totals *totals = g_new0 (Totals, 1);
  GError *error = NULL;

  if ((store = sextant_session_open_store (task_data, &error)) != NULL)
    sextant_store_set_cancellable (store, cancellable);
  if (store == NULL ||
      !(totals->totals = sextant_store_list_pattern_totals (store, &error)) ||
      !(totals->tree = sextant_report_read_pattern_tree (store, &error)))
    {
      totals_free (totals);
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, totals, (GDestroyNotify)totals_free);
}

/* The tree's rows ------------------------------------------------------------- */

/* Whether the node is listed: the root Time, and every node with instances
 * at or below it */
static gboolean
node_shown (const SextantPatternTreeNode *node)
{
  return node->instances_below > 0 || (node->depth == 0 && g_str_equal (node->id, "time"));
}

/* The ids of the listed children of the node @index (all roots for -1),
 * or NULL if it has none */
static GListModel *
shown_children (SextantPatternTree *tree,
                int                 index)
{
  g_autoptr(GtkStringList) ids = gtk_string_list_new (NULL);
  guint first = index < 0 ? 0 : (guint)index + 1;
  guint last = index < 0 ? sextant_pattern_tree_get_n_nodes (tree)
                         : first + sextant_pattern_tree_get_node (tree, (guint)index)->n_below;

  for (guint c = first; c < last; c += 1 + sextant_pattern_tree_get_node (tree, c)->n_below)
    if (node_shown (sextant_pattern_tree_get_node (tree, c)))
      gtk_string_list_append (ids, sextant_pattern_tree_get_node (tree, c)->id);

  return g_list_model_get_n_items (G_LIST_MODEL (ids)) > 0 ? G_LIST_MODEL (g_steal_pointer (&ids)) : NULL;
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  SextantPatternTree *tree = user_data;
  int index = sextant_pattern_tree_lookup (tree, gtk_string_object_get_string (item));

  return index >= 0 ? shown_children (tree, index) : NULL;
}

/* The node a row shows, or NULL */
static const SextantPatternTreeNode *
node_of_row (SextantPatternBrowser *self,
             GtkTreeListRow        *row)
{
  g_autoptr(GObject) item = NULL;
  int index;

  if (row == NULL || self->tree == NULL || !(item = gtk_tree_list_row_get_item (row)))
    return NULL;
  index = sextant_pattern_tree_lookup (self->tree, gtk_string_object_get_string (GTK_STRING_OBJECT (item)));

  return index >= 0 ? sextant_pattern_tree_get_node (self->tree, (guint)index) : NULL;
}

/* The node of the @position-th row, or NULL */
static const SextantPatternTreeNode *
row_node (SextantPatternBrowser *self,
          guint                  position)
{
  g_autoptr(GtkTreeListRow) row = NULL;

  if (self->rows == NULL || !(row = gtk_tree_list_model_get_row (self->rows, position)))
    return NULL;

  return node_of_row (self, row);
}

/* No rows: before the tree they show goes */
static void
clear_rows (SextantPatternBrowser *self)
{
  g_signal_handlers_block_by_func (self->pattern_selection, pattern_selected_cb, self);
  gtk_single_selection_set_model (self->pattern_selection, NULL);
  g_clear_object (&self->rows);
  g_signal_handlers_unblock_by_func (self->pattern_selection, pattern_selected_cb, self);
}

static guint
find_row_once (SextantPatternBrowser *self,
               const char            *id)
{
  guint n = self->rows != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->rows)) : 0;

  for (guint i = 0; i < n; i++)
    {
      const SextantPatternTreeNode *node = row_node (self, i);

      if (node != NULL && g_strcmp0 (node->id, id) == 0)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

/* The row of the node @id, its ancestors expanded if the user had
 * collapsed them */
static guint
find_row (SextantPatternBrowser *self,
          const char            *id)
{
  guint position = find_row_once (self, id);
  g_autoptr(GPtrArray) ancestors = g_ptr_array_new ();
  int index;

  if (position != GTK_INVALID_LIST_POSITION || self->tree == NULL ||
      (index = sextant_pattern_tree_lookup (self->tree, id)) < 0)
    return position;

  for (int up = sextant_pattern_tree_get_node (self->tree, (guint)index)->parent; up >= 0;
       up = sextant_pattern_tree_get_node (self->tree, (guint)up)->parent)
    g_ptr_array_insert (ancestors, 0, (gpointer)sextant_pattern_tree_get_node (self->tree, (guint)up)->id);
  for (guint i = 0; i < ancestors->len; i++)
    {
      guint at = find_row_once (self, g_ptr_array_index (ancestors, i));
      g_autoptr(GtkTreeListRow) row = at != GTK_INVALID_LIST_POSITION ? gtk_tree_list_model_get_row (self->rows, at)
                                                                      : NULL;

      if (row != NULL)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }

  return find_row_once (self, id);
}

/* The index in `totals` of the pattern @id, or -1 */
static int
total_index (SextantPatternBrowser *self,
             const char            *id)
{
  for (guint i = 0; self->totals != NULL && i < self->totals->len; i++)
    if (g_strcmp0 (((SextantPatternTotal *)g_ptr_array_index (self->totals, i))->id, id) == 0)
      return (int)i;

  return -1;
}

/* The list scrolled to show the row at @position (a pattern of the
 * Diagnostics is far down) */
static void
scroll_to_row (SextantPatternBrowser *self,
               guint                  position)
{
  if (position != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (GTK_WIDGET (self->patterns), "list.scroll-to-item", "u", position);
}

/* The selected row scrolled into view once the list has laid out its
 * new rows: at the second frame (the first lays them out) */
static gboolean
scroll_when_laid_out (GtkWidget     *list,
                      GdkFrameClock *clock,
                      gpointer       data)
{
  SextantPatternBrowser *self = data;

  if (++self->scroll_frames < 2)
    return G_SOURCE_CONTINUE;
  self->scroll_tick = 0;
  scroll_to_row (self, gtk_single_selection_get_selected (self->pattern_selection));

  return G_SOURCE_REMOVE;
}

/* The row of the @index-th pattern selected (and in view), as the
 * session's instance chose it: no choice of the user's (its instances are
 * read by the caller) */
static void
select_pattern_row (SextantPatternBrowser *self,
                    guint                  index)
{
  guint position;

  g_signal_handlers_block_by_func (self->pattern_selection, pattern_selected_cb, self);
  position = find_row (self, ((SextantPatternTotal *)g_ptr_array_index (self->totals, index))->id);
  gtk_single_selection_set_selected (self->pattern_selection, position);
  g_signal_handlers_unblock_by_func (self->pattern_selection, pattern_selected_cb, self);
  scroll_to_row (self, position);
}

/* The user chose a row. A pattern's: its instances; a group's: its
 * description. Either takes the chosen instance from the session, unless
 * it is of that pattern (the same row again, or a row that moved) */
static void
pattern_selected_cb (GtkSingleSelection    *selection,
                     GParamSpec            *pspec,
                     SextantPatternBrowser *self)
{
  const SextantPatternTreeNode *node = row_node (self, gtk_single_selection_get_selected (selection));
  int index;

  if (node == NULL)
    return;
  if (self->session != NULL && g_strcmp0 (_sextant_pattern_browser_instance_pattern (self), node->id) != 0)
    sextant_session_set_instance (self->session, NULL);
  if ((index = total_index (self, node->id)) >= 0)
    {
      _sextant_pattern_browser_load_instances (self, (guint)index);
      return;
    }

  g_cancellable_cancel (self->instances_cancellable);
  g_clear_pointer (&self->chosen, g_free);
  _sextant_pattern_browser_clear_instances (self);
  gtk_label_set_text (self->details, node->description != NULL ? node->description : "");
  _sextant_pattern_browser_set_ready (self, TRUE);
}

/* A node's row, behind the expander of its level: its title, the number
 * of instances (a group's: below it), the time lost (inclusive: a pattern's
 * own and its children's; "-" for the groups of diagnostics, which are not
 * added up) */
static void
setup_pattern_row (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   SextantPatternBrowser    *self)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *count = gtk_label_new (NULL);
  GtkWidget *lost = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_widget_add_css_class (count, "dim-label");
  gtk_widget_add_css_class (count, "numeric");
  gtk_widget_add_css_class (lost, "numeric");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), count);
  gtk_box_append (GTK_BOX (box), lost);
  gtk_widget_set_hexpand (box, TRUE);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (item, expander);
}

static void
bind_pattern_row (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  SextantPatternBrowser    *self)
{
  GtkWidget *expander = gtk_list_item_get_child (item);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GtkWidget *title = gtk_widget_get_first_child (box);
  GtkWidget *count = gtk_widget_get_next_sibling (title);
  GtkWidget *lost = gtk_widget_get_next_sibling (count);
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  const SextantPatternTreeNode *node = node_of_row (self, row);
  gint64 resolution;
  gint64 total;
  g_autofree char *seconds = NULL;
  g_autofree char *own = NULL;
  g_autofree char *n = NULL;
  g_autofree char *share = NULL;
  g_autofree char *tooltip = NULL;

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  if (node == NULL)
    return;

  resolution = sextant_session_get_resolution (self->session);
  total = sextant_pattern_tree_get_node (self->tree, 0)->inclusive;
  seconds = node->additive ? sextant_format_duration (node->inclusive, resolution) : g_strdup ("–");
  own = sextant_format_duration (node->exclusive, resolution);
  share = node->additive && total > 0 ? g_strdup_printf ("%.2f %%", 100.0 * node->inclusive / total)
                                      : g_strdup ("not added up: diagnostics overlap");
  n = g_strdup_printf ("%" G_GINT64_FORMAT, node->is_group ? node->instances_below : node->instances);
  if (node->is_group)
    tooltip = g_strdup_printf ("%s (%s): %s of the total time (%s)%s%s", node->title, node->id, seconds, share,
                               node->description != NULL ? ".\n" : "", node->description != NULL ? node->description : "");
  else
    tooltip = g_strdup_printf ("%s (%s): %s instances lost %s in all%s%s (%s of the total time)%s%s", node->title,
                               node->id, n, own, node->n_children > 0 ? ", with the patterns below it " : "",
                               node->n_children > 0 ? seconds : "", share,
                               node->description != NULL ? ".\n" : "", node->description != NULL ? node->description : "");
  gtk_label_set_text (GTK_LABEL (title), node->title);
  if (node->is_group)
    gtk_widget_add_css_class (title, "heading");
  else
    gtk_widget_remove_css_class (title, "heading");
  gtk_label_set_text (GTK_LABEL (count), n);
  gtk_label_set_text (GTK_LABEL (lost), seconds);
  gtk_widget_set_tooltip_text (box, tooltip);
}

/* The list's rows: the tree's nodes with instances, all expanded; the
 * pattern @select of `totals` chosen */
static void
set_pattern_rows (SextantPatternBrowser *self,
                  guint                  select)
{
  g_autoptr(GtkTreeListModel) rows = NULL;
  guint position = GTK_INVALID_LIST_POSITION;

  g_signal_handlers_block_by_func (self->pattern_selection, pattern_selected_cb, self);
  if (self->tree != NULL)
    rows = gtk_tree_list_model_new (shown_children (self->tree, -1), FALSE, TRUE, create_children, self->tree,
                                    NULL);
  g_set_object (&self->rows, rows);
  gtk_single_selection_set_model (self->pattern_selection, G_LIST_MODEL (self->rows));
  if (self->totals != NULL && select < self->totals->len)
    position = find_row (self, ((SextantPatternTotal *)g_ptr_array_index (self->totals, select))->id);
  gtk_single_selection_set_selected (self->pattern_selection, position);
  g_signal_handlers_unblock_by_func (self->pattern_selection, pattern_selected_cb, self);
  /* the new rows have no place in the list until it lays them out */
  self->scroll_frames = 0;
  if (position != GTK_INVALID_LIST_POSITION && self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->patterns), scroll_when_laid_out, self, NULL);
}

/* What the scope of the analysis leaves out, if anything */
static void
update_scope (SextantPatternBrowser *self)
{
  const SextantAnalysisScope *scope = self->session != NULL ? sextant_session_get_analysis_scope (self->session) : NULL;
  g_autofree char *list = NULL;
  g_autofree char *text = NULL;

  if (scope == NULL || !scope->analysed || scope->selected == NULL)
    {
      gtk_widget_set_visible (self->scope_box, FALSE);
      gtk_label_set_text (self->scope_label, "");
      return;
    }

  list = g_strjoinv (", ", scope->selected);
  text = g_strdup_printf ("Partial analysis: only %s %s run. Other wait states may be there.", list,
                          g_strv_length (scope->selected) == 1 ? "was" : "were");
  gtk_label_set_text (self->scope_label, text);
  gtk_widget_set_visible (self->scope_box, TRUE);
}

static void
totals_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(SextantPatternBrowser) self = user_data;
  g_autoptr(GError) error = NULL;
  Totals *read = g_task_propagate_pointer (G_TASK (result), &error);
  GPtrArray *all = read != NULL ? read->totals : NULL;
  gint64 resolution;
  gint64 worst = 0;
  guint select = 0;
  const char *wanted;
  g_autofree char *status = NULL;

  if (read == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _sextant_pattern_browser_show_error (self, error);
      return;
    }

  g_clear_pointer (&self->totals, g_ptr_array_unref);
  clear_rows (self);
  g_clear_pointer (&self->tree, sextant_pattern_tree_free);
  self->tree = g_steal_pointer (&read->tree);
  self->totals = g_ptr_array_new_with_free_func ((GDestroyNotify)sextant_pattern_total_free);
  /* the patterns without instances are not listed (the catalogue has 28) */
  for (guint i = 0; i < all->len; i++)
    {
      SextantPatternTotal *total = g_ptr_array_index (all, i);

      if (total->instances > 0)
        g_ptr_array_add (self->totals, g_steal_pointer (&g_ptr_array_index (all, i)));
    }

  /* the pattern of the session's instance (kept through an analysis run
   * again), else the one chosen, else the worst */
  wanted = _sextant_pattern_browser_instance_pattern (self);
  if (wanted != NULL && total_index (self, wanted) < 0)
    {
      /* the analysis no longer finds its pattern: the instance is gone */
      sextant_session_set_instance (self->session, NULL);
      wanted = NULL;
    }
  if (wanted == NULL)
    wanted = self->chosen;
  resolution = sextant_session_get_resolution (self->session);
  for (guint i = 0; i < self->totals->len; i++)
    {
      const SextantPatternTotal *total = g_ptr_array_index (self->totals, i);

      worst = MAX (worst, total->severity);
      if (g_strcmp0 (total->id, wanted) == 0)
        select = i;
    }
  totals_free (read);
  set_pattern_rows (self, select);

  if (!sextant_session_get_analysis_scope (self->session)->analysed)
    status = g_strdup ("Not analysed yet.");
  else if (self->totals->len == 0)
    status = g_strdup ("No pattern found: no wait state of the catalogue in this trace.");
  else
    {
      g_autofree char *lost = sextant_format_duration (worst, resolution);

      status = g_strdup_printf ("%u pattern%s found; the worst lost %s.", self->totals->len,
                                self->totals->len == 1 ? "" : "s", lost);
    }
  gtk_label_set_text (self->status, status);
  update_scope (self);

  if (self->totals->len > 0)
    _sextant_pattern_browser_load_instances (self, select);
  else
    {
      _sextant_pattern_browser_clear_instances (self);
      _sextant_pattern_browser_set_ready (self, TRUE);
    }
}

/* Reads the session's patterns again, unless an analysis is writing them */
static void
load_totals (SextantPatternBrowser *self)
{
  g_autoptr(GTask) task = NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  _sextant_pattern_browser_set_ready (self, FALSE);
  if (self->session == NULL)
    return;

  if (sextant_session_get_analysing (self->session))
    {
      gtk_label_set_text (self->status, "Finding patterns…");
      return;
    }

  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, totals_loaded_cb, g_object_ref (self));
  g_task_set_source_tag (task, load_totals);
  g_task_set_task_data (task, g_object_ref (self->session), g_object_unref);
  g_task_run_in_thread (task, load_totals_worker);
}

/* The session's instance, chosen here or elsewhere (a click on lost time
 * in the timeline, --instance), or none: its pattern chosen, its row
 * selected where the list has it, its details shown whether or not */
static void
session_instance_cb (SextantPatternBrowser *self)
{
  SextantInstance *instance = sextant_session_get_instance (self->session);
  const char *pattern = _sextant_pattern_browser_instance_pattern (self);
  int index;

  /* of another pattern: that one is chosen, its instances listed (their
   * refill selects the instance's row) */
  if (pattern != NULL && g_strcmp0 (pattern, self->chosen) != 0 && (index = total_index (self, pattern)) >= 0)
    {
      select_pattern_row (self, (guint)index);
      _sextant_pattern_browser_load_instances (self, (guint)index);
    }
  _sextant_pattern_browser_show_instance (self, instance);
}

/* The session ------------------------------------------------------------------- */

void
sextant_pattern_browser_set_session (SextantPatternBrowser *self,
                                     SextantSession        *session)
{
  g_return_if_fail (SEXTANT_IS_PATTERN_BROWSER (self));
  g_return_if_fail (session == NULL || SEXTANT_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  g_clear_pointer (&self->totals, g_ptr_array_unref);
  g_clear_pointer (&self->chosen, g_free);
  clear_rows (self);
  g_clear_pointer (&self->tree, sextant_pattern_tree_free);
  set_pattern_rows (self, 0);
  _sextant_pattern_browser_clear_instances (self);
  gtk_label_set_text (self->status, "");
  update_scope (self);
  _sextant_pattern_browser_show_details (self, NULL);
  load_totals (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

static void
session_analysing_cb (SextantPatternBrowser *self)
{
  /* begun: "Finding patterns…"; done: the store has the new patterns (the
   * generation counted up before, while this still waited) or, failed,
   * the old ones */
  load_totals (self);
}

gboolean
sextant_pattern_browser_get_ready (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), FALSE);

  return self->ready;
}

guint
sextant_pattern_browser_get_n_patterns (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), 0);

  return self->totals != NULL ? self->totals->len : 0;
}

const char *
sextant_pattern_browser_get_pattern_id (SextantPatternBrowser *self,
                                        guint                  index)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  if (self->totals == NULL || index >= self->totals->len)
    return NULL;

  return ((SextantPatternTotal *)g_ptr_array_index (self->totals, index))->id;
}

/* Chooses the @index-th pattern (of those with instances, worst first: see
 * sextant_pattern_browser_get_pattern_id()) and selects its row in the
 * tree; its instances load on a worker thread */
void
sextant_pattern_browser_select (SextantPatternBrowser *self,
                                guint                  index)
{
  guint position;

  g_return_if_fail (SEXTANT_IS_PATTERN_BROWSER (self));

  if (self->totals == NULL || index >= self->totals->len)
    return;

  position = find_row (self, ((SextantPatternTotal *)g_ptr_array_index (self->totals, index))->id);
  if (gtk_single_selection_get_selected (self->pattern_selection) == position)
    _sextant_pattern_browser_load_instances (self, index);
  else
    gtk_single_selection_set_selected (self->pattern_selection, position);
}

/**
 * sextant_pattern_browser_get_rows:
 *
 * Returns: (transfer none) (nullable): the pattern list's rows: a
 *   GtkTreeListModel of GtkTreeListRow, whose items are GtkStringObject
 *   holding the node's id (a pattern or a group of the metric tree)
 */
GtkTreeListModel *
sextant_pattern_browser_get_rows (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return self->rows;
}

/* Returns: (nullable): the id of the pattern whose instances are listed;
 * NULL while a group's row is selected */
const char *
sextant_pattern_browser_get_chosen (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return self->chosen;
}

/* Returns: (transfer none): the instances as the table shows them (sorted) */
GListModel *
sextant_pattern_browser_get_instances (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

GtkColumnView *
sextant_pattern_browser_get_instance_view (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return self->instances_view;
}

/* What the browser says of the analysis ("13 patterns found; …") */
const char *
sextant_pattern_browser_get_status (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return gtk_label_get_text (self->status);
}

/* Returns: (nullable): what it says of a partial analysis, NULL if it was whole */
const char *
sextant_pattern_browser_get_scope_text (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return gtk_widget_get_visible (self->scope_box) ? gtk_label_get_text (self->scope_label) : NULL;
}

/* The details pane's text */
const char *
sextant_pattern_browser_get_details (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return gtk_label_get_text (self->details);
}

/* Tab in the pattern list goes to the instances (GTK 4.8's lists move from
 * item to item with it), Shift+Tab in the instances back to the patterns;
 * + and - are the window's zoom there too */
static gboolean
list_key_cb (GtkEventControllerKey *controller,
             guint                  keyval,
             guint                  keycode,
             GdkModifierType        state,
             SextantPatternBrowser *self)
{
  GtkWidget *list = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  /* the tree's expanders bind + and -: in the window they zoom, wherever
   * the focus is (the expanders keep their clicks) */
  if (list == GTK_WIDGET (self->patterns))
    switch (keyval)
      {
      case GDK_KEY_plus:
      case GDK_KEY_equal:
      case GDK_KEY_KP_Add:
        return gtk_widget_activate_action (list, "win.zoom-in", NULL);
      case GDK_KEY_minus:
      case GDK_KEY_KP_Subtract:
        return gtk_widget_activate_action (list, "win.zoom-out", NULL);
      default:
        break;
      }
  if (list == GTK_WIDGET (self->patterns) && keyval == GDK_KEY_Tab && (state & GDK_SHIFT_MASK) == 0)
    return gtk_widget_grab_focus (GTK_WIDGET (self->instances_view));
  if (list == GTK_WIDGET (self->instances_view) && keyval == GDK_KEY_ISO_Left_Tab)
    return gtk_widget_grab_focus (GTK_WIDGET (self->patterns));

  return FALSE;
}

static void
add_list_keys (SextantPatternBrowser *self,
               GtkWidget             *list)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (list_key_cb), self);
  gtk_widget_add_controller (list, keys);
}

/* GObject -------------------------------------------------------------------- */

static gboolean
sextant_pattern_browser_grab_focus (GtkWidget *widget)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (widget);

  return gtk_widget_grab_focus (GTK_WIDGET (self->patterns));
}

static void
sextant_pattern_browser_dispose (GObject *object)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (object);

  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->patterns), self->scroll_tick);
  self->scroll_tick = 0;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->instances_cancellable);
  g_clear_object (&self->instances_cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  if (self->pattern_selection != NULL)
    clear_rows (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SEXTANT_TYPE_PATTERN_BROWSER);

  G_OBJECT_CLASS (sextant_pattern_browser_parent_class)->dispose (object);
}

static void
sextant_pattern_browser_finalize (GObject *object)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (object);

  g_clear_pointer (&self->totals, g_ptr_array_unref);
  g_clear_pointer (&self->tree, sextant_pattern_tree_free);
  g_free (self->chosen);

  G_OBJECT_CLASS (sextant_pattern_browser_parent_class)->finalize (object);
}

static void
sextant_pattern_browser_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_pattern_browser_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      sextant_pattern_browser_set_session (SEXTANT_PATTERN_BROWSER (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_pattern_browser_class_init (SextantPatternBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sextant_pattern_browser_dispose;
  object_class->finalize = sextant_pattern_browser_finalize;
  object_class->get_property = sextant_pattern_browser_get_property;
  object_class->set_property = sextant_pattern_browser_set_property;
  widget_class->grab_focus = sextant_pattern_browser_grab_focus;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SEXTANT_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the patterns are listed, and the chosen one's instances */
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SEXTANT_TYPE_INSTANCE);
  /* links the bundle (its constructor registers it) */
  (void)sextant_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/org/sextant/Sextant/ui/sextant-pattern-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, box);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, status);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, scope_box);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, scope_label);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, patterns);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, pattern_selection);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, pattern_factory);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, instances_view);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, lost_column);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, selection);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, sorted);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, instances);
  gtk_widget_class_bind_template_child (widget_class, SextantPatternBrowser, details);
  gtk_widget_class_set_css_name (widget_class, "patternbrowser");
}

static void
sextant_pattern_browser_init (SextantPatternBrowser *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect (self->pattern_factory, "setup", G_CALLBACK (setup_pattern_row), self);
  g_signal_connect (self->pattern_factory, "bind", G_CALLBACK (bind_pattern_row), self);
  g_signal_connect (self->pattern_selection, "notify::selected", G_CALLBACK (pattern_selected_cb), self);
  _sextant_pattern_browser_connect_instances (self);
  add_list_keys (self, GTK_WIDGET (self->patterns));
  add_list_keys (self, GTK_WIDGET (self->instances_view));
  /* worst first, until the user sorts otherwise */
  gtk_column_view_sort_by_column (self->instances_view, self->lost_column, GTK_SORT_DESCENDING);

  self->session_signals = g_signal_group_new (SEXTANT_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::generation", G_CALLBACK (load_totals), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::analysing", G_CALLBACK (session_analysing_cb),
                                  self);
  g_signal_group_connect_swapped (self->session_signals, "notify::instance", G_CALLBACK (session_instance_cb), self);
}

GtkWidget *
sextant_pattern_browser_new (void)
{
  return g_object_new (SEXTANT_TYPE_PATTERN_BROWSER, NULL);
}
