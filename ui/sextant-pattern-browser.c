/*
 * sextant-pattern-browser.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The instances shown are GObjects (SextantInstanceItem, private here):
 * at most MAX_INSTANCES of one pattern exist at a time, few enough for a
 * GListStore.
 */
#include "config.h"

#include "sextant-analysis.h"
#include "sextant-pattern-browser.h"
#include "sextant-pattern-set.h"
#include "sextant-store.h"
#include "sextant-store-private.h"

#define MAX_INSTANCES 1000

/* An instance in the list ---------------------------------------------------- */

#define SEXTANT_TYPE_INSTANCE_ITEM (sextant_instance_item_get_type ())
G_DECLARE_FINAL_TYPE (SextantInstanceItem, sextant_instance_item, SEXTANT, INSTANCE_ITEM, GObject)

struct _SextantInstanceItem
{
  GObject             parent_instance;
  SextantInstanceInfo info;
};

G_DEFINE_FINAL_TYPE (SextantInstanceItem, sextant_instance_item, G_TYPE_OBJECT)

static void
instance_info_clear (SextantInstanceInfo *info)
{
  g_clear_pointer (&info->file, g_free);
  g_clear_pointer (&info->comment, g_free);
  g_clear_pointer (&info->callpath, g_free);
  g_clear_pointer (&info->location, g_free);
}

static void
sextant_instance_item_finalize (GObject *object)
{
  instance_info_clear (&SEXTANT_INSTANCE_ITEM (object)->info);

  G_OBJECT_CLASS (sextant_instance_item_parent_class)->finalize (object);
}

static void
sextant_instance_item_class_init (SextantInstanceItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sextant_instance_item_finalize;
}

static void
sextant_instance_item_init (SextantInstanceItem *self)
{
}

const SextantInstanceInfo *
sextant_instance_item_get_info (GObject *item)
{
  g_return_val_if_fail (SEXTANT_IS_INSTANCE_ITEM (item), NULL);

  return &SEXTANT_INSTANCE_ITEM (item)->info;
}

/* The browser --------------------------------------------------------------- */

typedef struct
{
  char   *id;
  char   *title;
  gint64  instances;
  gint64  severity;
} PatternRow;

/* What the patterns' worker reads */
typedef struct
{
  GArray     *patterns;      /* PatternRow, worst first */
  GHashTable *labels;        /* location id -> label */
  gint64      resolution;
  gboolean    analysed;      /* the worker ran the analysis */
} Patterns;

struct _SextantPatternBrowser
{
  GtkWidget     parent_instance;

  GtkWidget    *box;
  GtkWidget    *status;
  GtkWidget    *list;          /* GtkListBox of patterns */
  GtkWidget    *view;          /* GtkColumnView of instances */
  GListStore   *instances;
  GtkSingleSelection *selection;
  char         *db_path;
  Patterns     *patterns;
  GCancellable *cancellable;
  GCancellable *instances_cancellable;  /* of the chosen pattern's instances: a newer choice cancels them */
  gboolean      ready;
  gboolean      filling;       /* the instances are being replaced: no activation */
};

G_DEFINE_FINAL_TYPE (SextantPatternBrowser, sextant_pattern_browser, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_READY,
  N_PROPS
};

enum
{
  INSTANCE_ACTIVATED,
  ANALYSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
pattern_row_clear (gpointer data)
{
  PatternRow *row = data;

  g_free (row->id);
  g_free (row->title);
}

static void
patterns_free (Patterns *patterns)
{
  g_clear_pointer (&patterns->patterns, g_array_unref);
  g_clear_pointer (&patterns->labels, g_hash_table_unref);
  g_free (patterns);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Patterns, patterns_free)

static void
set_ready (SextantPatternBrowser *self,
           gboolean               ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

/* patterns without instances are not listed (the catalogue has 28) */
static gboolean
pattern_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  PatternRow p;

  if (sextant_row_get_int (row, 3) == 0)
    return TRUE;

  p.id = g_strdup (sextant_row_get_text (row, 0));
  p.title = g_strdup (sextant_row_is_null (row, 1) ? p.id : sextant_row_get_text (row, 1));
  p.instances = sextant_row_get_int (row, 3);
  p.severity = sextant_row_get_int (row, 4);
  g_array_append_val ((GArray *)user_data, p);

  return TRUE;
}

/* Analyses the store as `sextant analyze` does */
static gboolean
analyse (SextantStore  *store,
         GCancellable  *cancellable,
         GError       **error)
{
  g_autoptr(SextantPatternSet) set = sextant_pattern_set_new ();
  g_autofree char *user_dir = sextant_pattern_set_user_directory ();
  g_autoptr(SextantAnalysis) analysis = NULL;

  if (!sextant_pattern_set_add_builtin (set, error) || !sextant_pattern_set_add_directory (set, user_dir, error))
    return FALSE;
  analysis = sextant_analysis_new (store, set);

  return sextant_analysis_run (analysis, cancellable, error);
}

static void
load_patterns_worker (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  g_autoptr(Patterns) patterns = g_new0 (Patterns, 1);
  g_autoptr(SextantStore) store = NULL;
  g_autofree char *resolution = NULL;
  GError *error = NULL;

  patterns->patterns = g_array_new (FALSE, FALSE, sizeof (PatternRow));
  g_array_set_clear_func (patterns->patterns, pattern_row_clear);

  if (!(store = sextant_store_open (task_data, &error)) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_PATTERN_TOTALS, pattern_row, patterns->patterns, &error, ""))
    {
      g_task_return_error (task, error);
      return;
    }
  if (patterns->patterns->len == 0)
    {
      patterns->analysed = TRUE;
      if (!analyse (store, cancellable, &error) ||
          !sextant_store_foreach (store, SEXTANT_QUERY_PATTERN_TOTALS, pattern_row, patterns->patterns, &error, ""))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  if (!(patterns->labels = sextant_store_read_names (store, SEXTANT_QUERY_LOCATION_LABELS, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  resolution = sextant_store_get_meta (store, "resolution");
  patterns->resolution = MAX (resolution != NULL ? g_ascii_strtoll (resolution, NULL, 10) : 1, 1);

  g_task_return_pointer (task, g_steal_pointer (&patterns), (GDestroyNotify)patterns_free);
}

typedef struct
{
  char *db_path;
  char *pattern;
} InstancesRequest;

static void
instances_request_free (InstancesRequest *request)
{
  g_free (request->db_path);
  g_free (request->pattern);
  g_free (request);
}

static gboolean
instance_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  SextantInstanceItem *item = g_object_new (SEXTANT_TYPE_INSTANCE_ITEM, NULL);
  SextantInstanceInfo *info = &item->info;

  info->id = sextant_row_get_int (row, 0);
  info->severity = sextant_row_get_int (row, 1);
  info->loc = sextant_row_get_int (row, 2);
  info->peer_loc = sextant_row_is_null (row, 3) ? SEXTANT_NULL : sextant_row_get_int (row, 3);
  info->begin = sextant_row_is_null (row, 4) ? SEXTANT_NULL : sextant_row_get_int (row, 4);
  info->end = sextant_row_is_null (row, 5) ? SEXTANT_NULL : sextant_row_get_int (row, 5);
  info->file = sextant_row_is_null (row, 6) ? NULL : g_strdup (sextant_row_get_text (row, 6));
  info->line = sextant_row_is_null (row, 7) ? 0 : sextant_row_get_int (row, 7);
  info->comment = sextant_row_is_null (row, 8) ? NULL : g_strdup (sextant_row_get_text (row, 8));
  info->callpath = sextant_row_is_null (row, 9) ? NULL : g_strdup (sextant_row_get_text (row, 9));
  g_ptr_array_add (user_data, item);

  return TRUE;
}

static void
load_instances_worker (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  InstancesRequest *request = task_data;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GError *error = NULL;

  if (!(store = sextant_store_open (request->db_path, &error)) ||
      !sextant_store_foreach (store, SEXTANT_QUERY_PATTERN_INSTANCES, instance_row, items, &error, "ti",
                              request->pattern, (gint64)MAX_INSTANCES))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&items), (GDestroyNotify)g_ptr_array_unref);
}

static void
show_error (SextantPatternBrowser *self,
            const GError          *error)
{
  g_autofree char *text = g_strdup_printf ("Patterns: %s", error->message);

  gtk_label_set_text (GTK_LABEL (self->status), text);
}

static void
instances_loaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(SextantPatternBrowser) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = g_task_propagate_pointer (G_TASK (result), &error);

  if (items == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error);
      return;
    }

  for (guint i = 0; i < items->len; i++)
    {
      SextantInstanceInfo *info = &SEXTANT_INSTANCE_ITEM (g_ptr_array_index (items, i))->info;
      const char *label = g_hash_table_lookup (self->patterns->labels, &info->loc);

      info->location = g_strdup (label != NULL ? label : "?");
    }
  self->filling = TRUE;
  g_list_store_splice (self->instances, 0, g_list_model_get_n_items (G_LIST_MODEL (self->instances)),
                       items->pdata, items->len);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->filling = FALSE;
  set_ready (self, TRUE);
}

void
sextant_pattern_browser_select (SextantPatternBrowser *self,
                                guint                  index)
{
  GtkListBoxRow *row;

  g_return_if_fail (SEXTANT_IS_PATTERN_BROWSER (self));

  if ((row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), (int)index)) != NULL)
    gtk_list_box_select_row (GTK_LIST_BOX (self->list), row);
}

static void
cancel_too (GCancellable *cancellable,
            GCancellable *other)
{
  g_cancellable_cancel (other);
}

static void
pattern_selected_cb (GtkListBox            *list,
                     GtkListBoxRow         *row,
                     SextantPatternBrowser *self)
{
  g_autoptr(GTask) task = NULL;
  InstancesRequest *request;
  int index;

  if (row == NULL || self->patterns == NULL || (index = gtk_list_box_row_get_index (row)) < 0 ||
      (guint)index >= self->patterns->patterns->len)
    return;

  set_ready (self, FALSE);
  g_cancellable_cancel (self->instances_cancellable);
  g_clear_object (&self->instances_cancellable);
  self->instances_cancellable = g_cancellable_new ();
  /* a new store cancels these too */
  g_cancellable_connect (self->cancellable, G_CALLBACK (cancel_too), g_object_ref (self->instances_cancellable),
                         g_object_unref);
  request = g_new0 (InstancesRequest, 1);
  request->db_path = g_strdup (self->db_path);
  request->pattern = g_strdup (g_array_index (self->patterns->patterns, PatternRow, index).id);
  task = g_task_new (NULL, self->instances_cancellable, instances_loaded_cb, g_object_ref (self));
  g_task_set_source_tag (task, pattern_selected_cb);
  g_task_set_task_data (task, request, (GDestroyNotify)instances_request_free);
  g_task_run_in_thread (task, load_instances_worker);
}

static char *
format_seconds (gint64 ticks,
                gint64 resolution)
{
  double s = (double)ticks / resolution;

  if (s >= 1)
    return g_strdup_printf ("%.2f s", s);
  if (s >= 1e-3)
    return g_strdup_printf ("%.2f ms", s * 1e3);
  return g_strdup_printf ("%.1f µs", s * 1e6);
}

static GtkWidget *
pattern_row_widget (const PatternRow *p,
                    gint64            resolution)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *title = gtk_label_new (p->title);
  g_autofree char *seconds = format_seconds (p->severity, resolution);
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, p->instances);
  GtkWidget *time = gtk_label_new (seconds);
  GtkWidget *n = gtk_label_new (count);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_widget_set_tooltip_text (box, p->id);
  gtk_widget_add_css_class (n, "dim-label");
  gtk_widget_add_css_class (time, "numeric");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), n);
  gtk_box_append (GTK_BOX (box), time);

  return box;
}

static void
patterns_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(SextantPatternBrowser) self = user_data;
  g_autoptr(GError) error = NULL;
  Patterns *patterns = g_task_propagate_pointer (G_TASK (result), &error);
  gint64 lost = 0;
  g_autofree char *total = NULL;
  g_autofree char *status = NULL;

  if (patterns == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error);
      return;
    }

  g_clear_pointer (&self->patterns, patterns_free);
  self->patterns = patterns;
  for (guint i = 0; i < patterns->patterns->len; i++)
    {
      const PatternRow *p = &g_array_index (patterns->patterns, PatternRow, i);

      gtk_list_box_append (GTK_LIST_BOX (self->list), pattern_row_widget (p, patterns->resolution));
      lost = MAX (lost, p->severity);
    }
  total = format_seconds (lost, patterns->resolution);
  status = patterns->patterns->len == 0
           ? g_strdup_printf ("No pattern found%s", patterns->analysed ? " (analysed now)" : "")
           : g_strdup_printf ("%u patterns found%s; the worst lost %s", patterns->patterns->len,
                              patterns->analysed ? " (analysed now)" : "", total);
  gtk_label_set_text (GTK_LABEL (self->status), status);

  if (patterns->analysed)
    g_signal_emit (self, signals[ANALYSED], 0);
  if (patterns->patterns->len > 0)
    sextant_pattern_browser_select (self, 0);
  else
    set_ready (self, TRUE);
}

void
sextant_pattern_browser_set_store (SextantPatternBrowser *self,
                                   const char            *db_path)
{
  g_autoptr(GTask) task = NULL;
  GtkWidget *child;

  g_return_if_fail (SEXTANT_IS_PATTERN_BROWSER (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->patterns, patterns_free);
  g_free (self->db_path);
  self->db_path = g_strdup (db_path);
  while ((child = gtk_widget_get_first_child (self->list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);
  self->filling = TRUE;
  g_list_store_remove_all (self->instances);
  self->filling = FALSE;
  set_ready (self, FALSE);
  if (db_path == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->status), "");
      return;
    }

  gtk_label_set_text (GTK_LABEL (self->status), "Finding patterns…");
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, patterns_loaded_cb, g_object_ref (self));
  g_task_set_source_tag (task, sextant_pattern_browser_set_store);
  g_task_set_task_data (task, g_strdup (db_path), g_free);
  g_task_run_in_thread (task, load_patterns_worker);
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

  return self->patterns != NULL ? self->patterns->patterns->len : 0;
}

const char *
sextant_pattern_browser_get_pattern_id (SextantPatternBrowser *self,
                                        guint                  index)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  if (self->patterns == NULL || index >= self->patterns->patterns->len)
    return NULL;

  return g_array_index (self->patterns->patterns, PatternRow, index).id;
}

GListModel *
sextant_pattern_browser_get_instances (SextantPatternBrowser *self)
{
  g_return_val_if_fail (SEXTANT_IS_PATTERN_BROWSER (self), NULL);

  return G_LIST_MODEL (self->instances);
}

void
sextant_pattern_browser_activate (SextantPatternBrowser *self,
                                  guint                  index)
{
  g_autoptr(GObject) item = NULL;

  g_return_if_fail (SEXTANT_IS_PATTERN_BROWSER (self));

  if ((item = g_list_model_get_item (G_LIST_MODEL (self->instances), index)) != NULL)
    {
      gtk_single_selection_set_selected (self->selection, index);
      /* selecting emits it, unless the row was selected already */
      g_signal_emit (self, signals[INSTANCE_ACTIVATED], 0, &SEXTANT_INSTANCE_ITEM (item)->info);
    }
}

static void
selection_changed_cb (GtkSingleSelection    *selection,
                      guint                  position,
                      guint                  n_items,
                      SextantPatternBrowser *self)
{
  SextantInstanceItem *item = gtk_single_selection_get_selected_item (selection);

  if (item != NULL && !self->filling)
    g_signal_emit (self, signals[INSTANCE_ACTIVATED], 0, &item->info);
}

/* The columns ---------------------------------------------------------------- */

typedef enum
{
  COLUMN_LOST,
  COLUMN_LOCATION,
  COLUMN_SOURCE,
  COLUMN_COMMENT,
} Column;

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (data) == COLUMN_LOST ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  data)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);
  SextantInstanceItem *item = gtk_list_item_get_item (list_item);
  SextantPatternBrowser *self = g_object_get_data (G_OBJECT (factory), "browser");
  const SextantInstanceInfo *info = &item->info;
  g_autofree char *text = NULL;

  switch ((Column)GPOINTER_TO_INT (data))
    {
    case COLUMN_LOST:
      text = format_seconds (info->severity, self->patterns != NULL ? self->patterns->resolution : 1);
      break;
    case COLUMN_LOCATION:
      text = g_strdup (info->location);
      break;
    case COLUMN_SOURCE:
      if (info->file != NULL)
        {
          g_autofree char *base = g_path_get_basename (info->file);

          text = g_strdup_printf ("%s:%" G_GINT64_FORMAT, base, info->line);
        }
      break;
    case COLUMN_COMMENT:
      text = g_strdup (info->comment);
      break;
    }
  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  gtk_widget_set_tooltip_text (label, info->comment);
}

static void
add_column (SextantPatternBrowser *self,
            const char            *title,
            Column                 column,
            int                    width)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *c;

  g_object_set_data (G_OBJECT (factory), "browser", self);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  c = gtk_column_view_column_new (title, factory);
  /* the last column takes the rest */
  if (width > 0)
    gtk_column_view_column_set_fixed_width (c, width);
  else
    gtk_column_view_column_set_expand (c, TRUE);
  gtk_column_view_column_set_resizable (c, TRUE);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->view), c);
  g_object_unref (c);
}

/* GObject -------------------------------------------------------------------- */

static void
sextant_pattern_browser_dispose (GObject *object)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->instances_cancellable);
  g_clear_object (&self->instances_cancellable);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (sextant_pattern_browser_parent_class)->dispose (object);
}

static void
sextant_pattern_browser_finalize (GObject *object)
{
  SextantPatternBrowser *self = SEXTANT_PATTERN_BROWSER (object);

  g_clear_pointer (&self->patterns, patterns_free);
  g_clear_object (&self->instances);
  g_free (self->db_path);

  G_OBJECT_CLASS (sextant_pattern_browser_parent_class)->finalize (object);
}

static void
sextant_pattern_browser_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_READY:
      g_value_set_boolean (value, SEXTANT_PATTERN_BROWSER (object)->ready);
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

  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* (const SextantInstanceInfo *info): valid during the emission */
  signals[INSTANCE_ACTIVATED] = g_signal_new ("instance-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                              0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* the browser analysed the store: it holds new instances */
  signals[ANALYSED] = g_signal_new ("analysed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                    G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sextant_pattern_browser_init (SextantPatternBrowser *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *patterns = gtk_scrolled_window_new ();
  GtkWidget *instances = gtk_scrolled_window_new ();

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_widget_set_margin_start (self->status, 6);
  gtk_widget_set_margin_top (self->status, 4);
  gtk_box_append (GTK_BOX (self->box), self->status);

  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_BROWSE);
  g_signal_connect (self->list, "row-selected", G_CALLBACK (pattern_selected_cb), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (patterns), self->list);
  gtk_widget_set_size_request (patterns, -1, 160);
  gtk_paned_set_start_child (GTK_PANED (paned), patterns);

  self->instances = g_list_store_new (SEXTANT_TYPE_INSTANCE_ITEM);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->instances)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  self->view = gtk_column_view_new (GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->view, "activate", G_CALLBACK (sextant_pattern_browser_activate), self);
  add_column (self, "Lost", COLUMN_LOST, 76);
  add_column (self, "Location", COLUMN_LOCATION, 110);
  add_column (self, "Source", COLUMN_SOURCE, 110);
  add_column (self, "What happened", COLUMN_COMMENT, 0);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (instances), self->view);
  gtk_paned_set_end_child (GTK_PANED (paned), instances);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_box_append (GTK_BOX (self->box), paned);
}

GtkWidget *
sextant_pattern_browser_new (void)
{
  return g_object_new (SEXTANT_TYPE_PATTERN_BROWSER, NULL);
}
