/*
 * sextant-details-pane.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A header (the title, a close button) over a scrolled column: a status
 * line ("Reading…", "Nothing ran here", an error), a GtkGrid of key and
 * value labels rebuilt for each item, and the "Show Source" button. The
 * session's "item" starts a GTask: the worker opens its own connection
 * (sextant_session_open_store()), reads the details with
 * sextant_store_read_item_details() and returns them; the main thread
 * fills the grid. A new item cancels the read under way (its connection's
 * statements stop) and a result whose item is not the session's any more
 * is dropped: the newest item wins.
 *
 * Connections: a worker takes one from the pane's pool (a GAsyncQueue,
 * shared with the workers under way) or opens one when the pool is empty
 * (another read still holds it), and gives it back. A kept connection has
 * the column tables' chunk directories and recent chunks already: a click
 * on the 10 M-event store reads in 0.4 ms (median) on a kept connection,
 * 16 ms on a new one (docs/ui.md).
 */
#include "config.h"

#include "sextant-collective-id.h"
#include "sextant-details-pane.h"
#include "sextant-instance.h"
#include "sextant-store-details.h"

struct _SextantDetailsPane
{
  GtkWidget       parent_instance;

  /* Children (the widget tree owns them) */
  GtkWidget      *box;
  GtkWidget      *title;
  GtkWidget      *status;
  GtkWidget      *grid;
  GtkWidget      *source_button;

  /* Owned */
  SextantSession *session;
  GAsyncQueue    *pool;           /* SextantStore: connections to its store */
  gulong          item_handler;
  GCancellable   *cancellable;    /* the read under way; NULL: none */
  char           *title_text;
  GString        *text;           /* what the pane shows, as text */
  int             rows;           /* in the grid */
  gboolean        ready;
};

G_DEFINE_FINAL_TYPE (SextantDetailsPane, sextant_details_pane, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_READY,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Reading ------------------------------------------------------------------------ */

/* What the worker returns when nothing is there (no visit at that time) */
static const char NOTHING[] = "nothing";

/* the connections the pool keeps */
#define POOL_SIZE 2

typedef struct
{
  SextantSession     *session;
  GAsyncQueue        *pool;
  SextantItem         item;
} Request;

static void
request_free (Request *request)
{
  g_clear_object (&request->session);
  g_clear_pointer (&request->pool, g_async_queue_unref);
  g_free (request);
}

static SextantDetailsKind
details_kind (SextantItemKind kind)
{
  switch (kind)
    {
    case SEXTANT_ITEM_MESSAGE:
      return SEXTANT_DETAILS_MESSAGE;
    case SEXTANT_ITEM_COLLECTIVE:
      return SEXTANT_DETAILS_COLLECTIVE;
    case SEXTANT_ITEM_RMA:
      return SEXTANT_DETAILS_RMA;
    case SEXTANT_ITEM_VISIT:
    default:
      return SEXTANT_DETAILS_VISIT;
    }
}

/* On the worker: a connection of its own, a few key lookups */
static void
read_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Request *request = task_data;
  g_autoptr(SextantStore) store = g_async_queue_try_pop (request->pool);
  SextantItemDetails *details = NULL;
  GError *error = NULL;
  gboolean ok;

  if (store == NULL && !(store = sextant_session_open_store (request->session, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  sextant_store_set_cancellable (store, cancellable);
  ok = sextant_store_read_item_details (store, details_kind (request->item.kind), request->item.loc,
                                        request->item.time, request->item.id, &details, &error);
  sextant_store_set_cancellable (store, NULL);
  if (g_async_queue_length (request->pool) < POOL_SIZE)
    g_async_queue_push (request->pool, g_steal_pointer (&store));
  if (!ok)
    {
      g_task_return_error (task, error);
      return;
    }
  if (details != NULL)
    g_task_return_pointer (task, details, (GDestroyNotify)sextant_item_details_free);
  else
    g_task_return_pointer (task, (gpointer)NOTHING, NULL);
}

/* Showing ------------------------------------------------------------------------ */

static void
set_ready (SextantDetailsPane *self,
           gboolean            ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

static void
set_title (SextantDetailsPane *self,
           const char         *title)
{
  if (g_strcmp0 (title, self->title_text) == 0)
    return;

  g_free (self->title_text);
  self->title_text = g_strdup (title);
  gtk_label_set_text (GTK_LABEL (self->title), title != NULL ? title : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
set_status (SextantDetailsPane *self,
            const char         *status)
{
  gtk_label_set_text (GTK_LABEL (self->status), status != NULL ? status : "");
  gtk_widget_set_visible (self->status, status != NULL);
}

static void
clear_rows (SextantDetailsPane *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->grid)) != NULL)
    gtk_grid_remove (GTK_GRID (self->grid), child);
  self->rows = 0;
  g_string_truncate (self->text, 0);
  gtk_widget_set_visible (self->source_button, FALSE);
}

/* One line of the grid: @key, and @value (nothing when NULL) */
static void
add_row (SextantDetailsPane *self,
         const char         *key,
         const char         *value)
{
  GtkWidget *k;
  GtkWidget *v;

  if (value == NULL)
    return;

  k = gtk_label_new (key);
  gtk_label_set_xalign (GTK_LABEL (k), 1);
  gtk_label_set_yalign (GTK_LABEL (k), 0);
  gtk_widget_add_css_class (k, "dim-label");
  v = gtk_label_new (value);
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_wrap (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (v), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_widget_set_hexpand (v, TRUE);
  gtk_grid_attach (GTK_GRID (self->grid), k, 0, self->rows, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), v, 1, self->rows, 1, 1);
  self->rows++;
  g_string_append_printf (self->text, "%s: %s\n", key, value);
}

static void
add_row_take (SextantDetailsPane *self,
              const char         *key,
              char               *value)
{
  add_row (self, key, value);
  g_free (value);
}

/* A definition's name, "(unnamed)" when the trace gave it an empty one
 * (NULL, none: no row) */
static const char *
or_unnamed (const char *name)
{
  return name != NULL && *name == '\0' ? "(unnamed)" : name;
}

/* A time since the run's start */
static char *
format_time (SextantDetailsPane *self,
             gint64              ticks)
{
  if (ticks == SEXTANT_NULL)
    return g_strdup ("not recorded");

  return g_strdup_printf ("%.6f s", (double)(ticks - sextant_session_get_time_begin (self->session)) /
                                    (double)sextant_session_get_resolution (self->session));
}

static char *
format_span (SextantDetailsPane *self,
             gint64              begin,
             gint64              end)
{
  if (begin == SEXTANT_NULL || end == SEXTANT_NULL)
    return NULL;

  return sextant_format_duration (end - begin, sextant_session_get_resolution (self->session));
}

static char *
format_bytes (gint64 bytes)
{
  g_autofree char *size = NULL;

  if (bytes == SEXTANT_NULL)
    return NULL;
  if (bytes < 1024)
    return g_strdup_printf ("%" G_GINT64_FORMAT " bytes", bytes);
  size = g_format_size_full ((guint64)bytes, G_FORMAT_SIZE_IEC_UNITS);

  return g_strdup_printf ("%s (%" G_GINT64_FORMAT " bytes)", size, bytes);
}

static char *
format_int (gint64 value)
{
  return value != SEXTANT_NULL ? g_strdup_printf ("%" G_GINT64_FORMAT, value) : NULL;
}

static char *
format_site (const char *file,
             gint64      line)
{
  if (file == NULL)
    return g_strdup ("not recorded");

  return line > 0 ? g_strdup_printf ("%s:%" G_GINT64_FORMAT, file, line) : g_strdup (file);
}

/* "win.show-source" with (file, line, caption) */
static void
set_source (SextantDetailsPane *self,
            const char         *file,
            gint64              line)
{
  if (file == NULL)
    return;

  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->source_button),
                                          g_variant_new ("(sxs)", file, line,
                                                         self->title_text != NULL ? self->title_text : ""));
  /* the name once there is a target: the action takes one */
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->source_button), "win.show-source");
  gtk_widget_set_visible (self->source_button, TRUE);
}

static void
show_visit (SextantDetailsPane       *self,
            const SextantItemDetails *d)
{
  g_autofree char *title = g_strdup_printf ("%s on %s", d->name, d->loc_label);

  set_title (self, title);
  add_row (self, "Location", d->loc_label);
  add_row (self, "Region", d->name);
  add_row (self, "Category", d->category);
  add_row_take (self, "Enter", format_time (self, d->begin));
  add_row_take (self, "Leave", format_time (self, d->end));
  add_row_take (self, "Duration", format_span (self, d->begin, d->end));
  add_row_take (self, "Call site", format_site (d->file, d->line));
  add_row (self, "Call path", d->call_path);
  add_row (self, "Called from", d->parent != SEXTANT_NULL ? d->parent_name : "(top level)");
  /* a call that waited for a lock: for whom, and that one's hold */
  if (d->peer_label != NULL && d->lock_asked != SEXTANT_NULL)
    {
      g_autofree char *from = format_time (self, d->hold_begin);
      g_autofree char *to = format_time (self, d->hold_end);
      g_autofree char *hold = format_span (self, d->hold_begin, d->hold_end);

      add_row_take (self, "Lock wait", format_span (self, d->lock_asked, d->lock_acquired));
      add_row (self, "Lock holder", d->peer_label);
      add_row_take (self, "Held", g_strdup_printf ("%s, %s to %s", hold, from, to));
    }
  set_source (self, d->file, d->line);
}

static void
show_message (SextantDetailsPane       *self,
              const SextantItemDetails *d)
{
  g_autofree char *title = g_strdup_printf ("Message from %s to %s", d->loc_label != NULL ? d->loc_label : "?",
                                            d->peer_label != NULL ? d->peer_label : "?");

  set_title (self, title);
  add_row (self, "Sender", d->loc_label != NULL ? d->loc_label : "not recorded");
  add_row (self, "Receiver", d->peer_label != NULL ? d->peer_label : "not recorded");
  add_row_take (self, "Sent", format_time (self, d->begin));
  add_row_take (self, "Received", format_time (self, d->end));
  add_row_take (self, "Transfer", format_span (self, d->begin, d->end));
  add_row_take (self, "Size", format_bytes (d->bytes));
  add_row_take (self, "Tag", format_int (d->tag));
  add_row (self, "Communicator", or_unnamed (d->comm_name));
  add_row_take (self, "Send call site", format_site (d->file, d->line));
  add_row_take (self, "Receive call site", format_site (d->peer_file, d->peer_line));
  if (d->file != NULL)
    set_source (self, d->file, d->line);
  else
    set_source (self, d->peer_file, d->peer_line);
}

static void
show_collective (SextantDetailsPane       *self,
                 const SextantItemDetails *d)
{
  g_autofree char *title = g_strdup_printf ("%s on %s", d->name, d->comm_name != NULL ? d->comm_name : "a communicator");

  set_title (self, title);
  add_row (self, "Operation", d->name);
  add_row (self, "Communicator", or_unnamed (d->comm_name));
  /* the id `sextant tree --collective` takes */
  add_row_take (self, "Collective", sextant_collective_id_to_string (d->id));
  if (d->root != SEXTANT_NULL)
    add_row_take (self, "Root", g_strdup_printf ("%s (rank %" G_GINT64_FORMAT ")",
                                                 d->peer_label != NULL ? d->peer_label : "?", d->root));
  add_row_take (self, "Members", g_strdup_printf ("%" G_GINT64_FORMAT " of %" G_GINT64_FORMAT, d->members,
                                                  d->expected));
  add_row_take (self, "First begin", format_time (self, d->begin));
  add_row_take (self, "Last end", format_time (self, d->end));
  add_row_take (self, "Duration", format_span (self, d->begin, d->end));
  add_row_take (self, "Bytes sent", format_bytes (d->bytes));
  add_row_take (self, "Bytes received", format_bytes (d->bytes_received));
  if (d->loc != SEXTANT_NULL)
    {
      add_row (self, "Member", d->loc_label);
      add_row_take (self, "Call site", format_site (d->file, d->line));
      set_source (self, d->file, d->line);
    }
}

static void
show_rma (SextantDetailsPane       *self,
          const SextantItemDetails *d)
{
  g_autofree char *title = g_strdup_printf ("%s from %s to %s", d->name, d->loc_label != NULL ? d->loc_label : "?",
                                            d->peer_label != NULL ? d->peer_label : "?");

  set_title (self, title);
  add_row (self, "Operation", d->name);
  add_row (self, "Origin", d->loc_label);
  if (d->root != SEXTANT_NULL || d->peer_label != NULL)
    add_row_take (self, "Target", d->root != SEXTANT_NULL
                                  ? g_strdup_printf ("%s (rank %" G_GINT64_FORMAT ")",
                                                     d->peer_label != NULL ? d->peer_label : "?", d->root)
                                  : g_strdup (d->peer_label));
  add_row (self, "Window", d->window_name != NULL ? or_unnamed (d->window_name) : (d->window != SEXTANT_NULL ? "(unnamed)" : NULL));
  add_row (self, "Communicator", or_unnamed (d->comm_name));
  add_row_take (self, "Bytes sent", format_bytes (d->bytes));
  add_row_take (self, "Bytes received", format_bytes (d->bytes_received));
  add_row_take (self, "Issued", format_time (self, d->begin));
  add_row_take (self, "Completed", d->complete_kind != NULL && d->end != SEXTANT_NULL
                                   ? g_strdup_printf ("%.6f s (%s)",
                                                      (double)(d->end - sextant_session_get_time_begin (self->session)) /
                                                      (double)sextant_session_get_resolution (self->session),
                                                      d->complete_kind)
                                   : format_time (self, d->end));
  add_row_take (self, "Duration", format_span (self, d->begin, d->end));
  add_row_take (self, "Call site", format_site (d->file, d->line));
  set_source (self, d->file, d->line);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SextantDetailsPane) self = user_data;
  GTask *task = G_TASK (result);
  Request *request = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gpointer details = g_task_propagate_pointer (task, &error);
  const SextantItem *item = self->session != NULL ? sextant_session_get_item (self->session) : NULL;

  /* an older read, or a session gone: the newest item wins */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || request->session != self->session ||
      !sextant_item_equal (item, &request->item))
    {
      if (details != NULL && details != (gpointer)NOTHING)
        sextant_item_details_free (details);
      return;
    }

  g_clear_object (&self->cancellable);
  clear_rows (self);
  if (details == NULL)
    {
      set_title (self, "Details");
      set_status (self, error->message);
    }
  else if (details == (gpointer)NOTHING)
    {
      set_title (self, request->item.kind == SEXTANT_ITEM_VISIT ? "Nothing ran here" : "Not found");
      set_status (self, request->item.kind == SEXTANT_ITEM_VISIT
                        ? "Nothing ran on this location at that time."
                        : "The trace has no such item.");
      g_string_append_printf (self->text, "%s\n", self->title_text);
    }
  else
    {
      const SextantItemDetails *d = details;

      set_status (self, NULL);
      switch (d->kind)
        {
        case SEXTANT_DETAILS_VISIT:
          show_visit (self, d);
          break;
        case SEXTANT_DETAILS_MESSAGE:
          show_message (self, d);
          break;
        case SEXTANT_DETAILS_COLLECTIVE:
          show_collective (self, d);
          break;
        case SEXTANT_DETAILS_RMA:
        default:
          show_rma (self, d);
          break;
        }
      g_string_prepend_c (self->text, '\n');
      g_string_prepend (self->text, self->title_text);
      sextant_item_details_free (details);
    }
  set_ready (self, TRUE);
}

/* The session's item changed: read its details */
static void
item_changed_cb (SextantDetailsPane *self)
{
  const SextantItem *item = self->session != NULL ? sextant_session_get_item (self->session) : NULL;
  g_autoptr(GTask) task = NULL;
  Request *request;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (item == NULL || !sextant_session_get_loaded (self->session))
    {
      clear_rows (self);
      set_title (self, NULL);
      set_status (self, NULL);
      set_ready (self, TRUE);
      return;
    }

  set_ready (self, FALSE);
  set_status (self, "Reading…");
  request = g_new0 (Request, 1);
  request->session = g_object_ref (self->session);
  request->pool = g_async_queue_ref (self->pool);
  request->item = *item;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, read_cb, g_object_ref (self));
  g_task_set_source_tag (task, item_changed_cb);
  g_task_set_task_data (task, request, (GDestroyNotify)request_free);
  g_task_run_in_thread (task, read_worker);
}

/* API ---------------------------------------------------------------------------- */

GtkWidget *
sextant_details_pane_new (void)
{
  return g_object_new (SEXTANT_TYPE_DETAILS_PANE, NULL);
}

/**
 * sextant_details_pane_set_session:
 * @session: (nullable): the session whose "item" the pane shows
 */
void
sextant_details_pane_set_session (SextantDetailsPane *self,
                                  SextantSession     *session)
{
  g_return_if_fail (SEXTANT_IS_DETAILS_PANE (self));
  g_return_if_fail (session == NULL || SEXTANT_IS_SESSION (session));

  if (self->session == session)
    return;

  g_clear_signal_handler (&self->item_handler, self->session);
  g_set_object (&self->session, session);
  /* the connections were to the store of the session before */
  g_clear_pointer (&self->pool, g_async_queue_unref);
  self->pool = g_async_queue_new_full (g_object_unref);
  if (session != NULL)
    self->item_handler = g_signal_connect_object (session, "notify::item", G_CALLBACK (item_changed_cb), self,
                                                  G_CONNECT_SWAPPED);
  item_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* Returns: (transfer none) (nullable) */
SextantSession *
sextant_details_pane_get_session (SextantDetailsPane *self)
{
  g_return_val_if_fail (SEXTANT_IS_DETAILS_PANE (self), NULL);

  return self->session;
}

/* Returns: %TRUE when the pane shows the session's item (or there is none) */
gboolean
sextant_details_pane_get_ready (SextantDetailsPane *self)
{
  g_return_val_if_fail (SEXTANT_IS_DETAILS_PANE (self), FALSE);

  return self->ready;
}

/* Returns: (nullable): the title shown ("MPI_Recv on MPI Rank 3") */
const char *
sextant_details_pane_get_title (SextantDetailsPane *self)
{
  g_return_val_if_fail (SEXTANT_IS_DETAILS_PANE (self), NULL);

  return self->title_text;
}

/**
 * sextant_details_pane_dup_text:
 *
 * Returns: (transfer full): what the pane shows, as text: the title, then
 * a "key: value" line per row
 */
char *
sextant_details_pane_dup_text (SextantDetailsPane *self)
{
  g_return_val_if_fail (SEXTANT_IS_DETAILS_PANE (self), NULL);

  return g_strdup (self->text->str);
}

/* GObject ------------------------------------------------------------------------ */

static void
close_clicked_cb (SextantDetailsPane *self)
{
  if (self->session != NULL)
    sextant_session_set_item (self->session, NULL);
}

static void
sextant_details_pane_dispose (GObject *object)
{
  SextantDetailsPane *self = SEXTANT_DETAILS_PANE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_signal_handler (&self->item_handler, self->session);
  g_clear_object (&self->session);
  g_clear_pointer (&self->pool, g_async_queue_unref);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (sextant_details_pane_parent_class)->dispose (object);
}

static void
sextant_details_pane_finalize (GObject *object)
{
  SextantDetailsPane *self = SEXTANT_DETAILS_PANE (object);

  g_free (self->title_text);
  g_string_free (self->text, TRUE);

  G_OBJECT_CLASS (sextant_details_pane_parent_class)->finalize (object);
}

static void
sextant_details_pane_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  SextantDetailsPane *self = SEXTANT_DETAILS_PANE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title_text);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_details_pane_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  SextantDetailsPane *self = SEXTANT_DETAILS_PANE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sextant_details_pane_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_details_pane_class_init (SextantDetailsPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sextant_details_pane_dispose;
  object_class->finalize = sextant_details_pane_finalize;
  object_class->get_property = sextant_details_pane_get_property;
  object_class->set_property = sextant_details_pane_set_property;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SEXTANT_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                  G_PARAM_STATIC_STRINGS);
  /* the session's item is shown (or there is none) */
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, TRUE,
                                                 G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "details-pane");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sextant_details_pane_init (SextantDetailsPane *self)
{
  GtkWidget *header;
  GtkWidget *close;
  GtkWidget *column;
  GtkWidget *scrolled;

  self->text = g_string_new (NULL);
  self->ready = TRUE;
  self->pool = g_async_queue_new_full (g_object_unref);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_margin_top (header, 6);
  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_wrap (GTK_LABEL (self->title), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->title), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (self->title), TRUE);
  gtk_widget_set_hexpand (self->title, TRUE);
  gtk_widget_add_css_class (self->title, "heading");
  gtk_box_append (GTK_BOX (header), self->title);
  close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_set_valign (close, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (close, "Close the details (Escape)");
  gtk_accessible_update_property (GTK_ACCESSIBLE (close), GTK_ACCESSIBLE_PROPERTY_LABEL, "Close the details", -1);
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_add_css_class (close, "circular");
  g_signal_connect_object (close, "clicked", G_CALLBACK (close_clicked_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (header), close);
  gtk_box_append (GTK_BOX (self->box), header);

  column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (column, 12);
  gtk_widget_set_margin_end (column, 12);
  gtk_widget_set_margin_bottom (column, 12);
  self->status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_widget_set_visible (self->status, FALSE);
  gtk_box_append (GTK_BOX (column), self->status);
  self->grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 4);
  gtk_box_append (GTK_BOX (column), self->grid);
  self->source_button = gtk_button_new_with_mnemonic ("Show _Source");
  gtk_widget_set_halign (self->source_button, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (self->source_button, "Show the call site in the Source page");
  gtk_widget_set_visible (self->source_button, FALSE);
  gtk_box_append (GTK_BOX (column), self->source_button);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), column);
  gtk_box_append (GTK_BOX (self->box), scrolled);
}
