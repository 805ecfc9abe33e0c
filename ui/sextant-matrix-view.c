/*
 * sextant-matrix-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The matrix is read on a worker thread (sextant_comm_matrix_build_full:
 * one pass over the messages of the range, and/or one grouped scan of the
 * one-sided operations, as "transfers" says; a trace's first matrix, when
 * it has no messages, is of its one-sided operations if it has any, and
 * "transfers" follows); the last asked for is shown, the
 * others are cancelled and dropped. Following the visible range, a view
 * change starts a timer and the matrix is built once the view has stayed
 * put for DEBOUNCE_MS; an unmapped view (another page of the window)
 * builds nothing until it is shown. The cells are one picture of the
 * plot's size, made on the main thread when the matrix, the metric or the
 * size changes (sextant-matrix-view-draw.c). Hovering a cell names its
 * block in a tooltip; clicking it shows its transfers in the timeline.
 */
#include "config.h"

#include <string.h>

#include "sextant-instance.h"
#include "sextant-matrix-view-private.h"

#define DEBOUNCE_MS  250

G_DEFINE_FINAL_TYPE (SextantMatrixView, sextant_matrix_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_MATRIX,
  PROP_READY,
  PROP_ERROR,
  PROP_METRIC,
  PROP_TRANSFERS,
  PROP_VISIBLE_RANGE,
  PROP_SUMMARY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void rebuild (SextantMatrixView *self);

/* Building ---------------------------------------------------------------------- */

typedef struct
{
  SextantSession *session;
  gint64          begin;
  gint64          end;
  guint           serial;
  SextantMatrixTransfers transfers;
  gboolean        pick_transfers;
} Request;

static void
request_free (Request *request)
{
  g_clear_object (&request->session);
  g_free (request);
}

static void
build_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Request *request = task_data;
  g_autoptr(SextantStore) store = NULL;
  SextantCommMatrix *matrix;
  GError *error = NULL;

  if (!(store = sextant_session_open_store (request->session, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  sextant_store_set_cancellable (store, cancellable);
  if (!(matrix = sextant_comm_matrix_build_full (store, request->begin, request->end, request->transfers, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  /* no messages: the one-sided operations, if there are any */
  if (request->pick_transfers && request->transfers == SEXTANT_MATRIX_TRANSFERS_MESSAGES &&
      sextant_comm_matrix_get_size (matrix) == 0)
    {
      SextantCommMatrix *one_sided = sextant_comm_matrix_build_full (store, request->begin, request->end,
                                                                     SEXTANT_MATRIX_TRANSFERS_ONE_SIDED, &error);

      if (one_sided == NULL)
        {
          sextant_comm_matrix_unref (matrix);
          g_task_return_error (task, error);
          return;
        }
      if (sextant_comm_matrix_get_size (one_sided) > 0)
        {
          sextant_comm_matrix_unref (matrix);
          matrix = one_sided;
        }
      else
        sextant_comm_matrix_unref (one_sided);
    }
  sextant_store_set_cancellable (store, NULL);

  g_task_return_pointer (task, matrix, (GDestroyNotify)sextant_comm_matrix_unref);
}

static void
set_ready (SextantMatrixView *self,
           gboolean           ready)
{
  if (self->ready == ready)
    return;

  self->ready = ready;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

static void
set_error (SextantMatrixView *self,
           const char        *error)
{
  if (g_strcmp0 (error, self->error) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/* what a count of the matrix counts */
static const char *
transfer_noun (SextantCommMatrix *matrix,
               double             count)
{
  switch (sextant_comm_matrix_get_transfers (matrix))
    {
    case SEXTANT_MATRIX_TRANSFERS_ONE_SIDED:
      return count == 1 ? "one-sided operation" : "one-sided operations";
    case SEXTANT_MATRIX_TRANSFERS_ALL:
      return count == 1 ? "message or operation" : "messages and operations";
    case SEXTANT_MATRIX_TRANSFERS_MESSAGES:
    case SEXTANT_N_MATRIX_TRANSFERS:
    default:
      return count == 1 ? "message" : "messages";
    }
}

/* "336 messages, 1.2 MiB, 3.05 ms in receives (whole run)" */
static void
update_summary (SextantMatrixView *self)
{
  g_autofree char *summary = NULL;

  if (self->matrix != NULL)
    {
      g_autofree char *bytes = NULL;
      g_autofree char *time = NULL;
      double count = sextant_comm_matrix_get_total (self->matrix, SEXTANT_MATRIX_COUNT);

      bytes = _sextant_matrix_view_format_value (SEXTANT_MATRIX_BYTES,
                                                 sextant_comm_matrix_get_total (self->matrix, SEXTANT_MATRIX_BYTES));
      time = _sextant_matrix_view_format_value (SEXTANT_MATRIX_TIME,
                                                sextant_comm_matrix_get_total (self->matrix, SEXTANT_MATRIX_TIME));

      if (sextant_comm_matrix_get_transfers (self->matrix) == SEXTANT_MATRIX_TRANSFERS_ONE_SIDED)
        summary = g_strdup_printf ("%.0f one-sided %s, %s (%s)", count, count == 1 ? "operation" : "operations",
                                   bytes, self->visible_range ? "visible range" : "whole run");
      else
        summary = g_strdup_printf ("%.0f %s, %s, %s in receives (%s)", count,
                                   transfer_noun (self->matrix, count), bytes, time,
                                   self->visible_range ? "visible range" : "whole run");
    }
  if (g_strcmp0 (summary, self->summary) == 0)
    return;
  g_free (self->summary);
  self->summary = g_steal_pointer (&summary);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUMMARY]);
}

static void
show_matrix (SextantMatrixView *self,
             SextantCommMatrix *matrix)
{
  if (matrix != NULL)
    sextant_comm_matrix_ref (matrix);
  g_clear_pointer (&self->matrix, sextant_comm_matrix_unref);
  self->matrix = matrix;
  _sextant_matrix_view_clear_cells (self);
  g_clear_pointer (&self->labels, g_strfreev);
  g_clear_pointer (&self->shared, g_free);
  if (matrix != NULL)
    _sextant_matrix_view_make_labels (self);
  self->hover_row = self->hover_col = -1;
  update_summary (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATRIX]);
}

static void
built_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SextantMatrixView) self = user_data;
  Request *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(SextantCommMatrix) matrix = NULL;
  g_autoptr(GError) error = NULL;

  matrix = g_task_propagate_pointer (G_TASK (result), &error);
  if (request->serial != self->serial)
    return;

  self->building = FALSE;
  if (matrix == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (matrix == NULL)
    {
      g_autofree char *message = g_strdup_printf ("The matrix cannot be built: %s", error->message);

      show_matrix (self, NULL);
      set_error (self, message);
    }
  else
    {
      self->pick_transfers = FALSE;
      if (sextant_comm_matrix_get_transfers (matrix) != self->transfers)
        {
          self->transfers = sextant_comm_matrix_get_transfers (matrix);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSFERS]);
        }
      show_matrix (self, matrix);
    }
  set_ready (self, TRUE);
}

/* Builds the matrix of the whole run or of the session's view, now if
 * the view is shown, else once it is */
static void
rebuild (SextantMatrixView *self)
{
  g_autoptr(GTask) task = NULL;
  Request *request;

  g_clear_handle_id (&self->debounce, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->serial++;
  self->building = FALSE;
  set_error (self, NULL);
  if (self->session == NULL)
    {
      self->stale = FALSE;
      show_matrix (self, NULL);
      set_ready (self, TRUE);
      return;
    }
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      set_ready (self, FALSE);
      return;
    }

  self->stale = FALSE;
  request = g_new0 (Request, 1);
  request->session = g_object_ref (self->session);
  request->serial = self->serial;
  request->begin = self->visible_range ? sextant_session_get_view_begin (self->session) : SEXTANT_NULL;
  request->end = self->visible_range ? sextant_session_get_view_end (self->session) : SEXTANT_NULL;
  request->transfers = self->transfers;
  request->pick_transfers = self->pick_transfers;
  self->building = TRUE;
  self->cancellable = g_cancellable_new ();
  set_ready (self, FALSE);
  task = g_task_new (NULL, self->cancellable, built_cb, g_object_ref (self));
  g_task_set_source_tag (task, rebuild);
  g_task_set_task_data (task, request, (GDestroyNotify)request_free);
  g_task_run_in_thread (task, build_worker);
}

static gboolean
debounced_cb (gpointer user_data)
{
  SextantMatrixView *self = user_data;

  self->debounce = 0;
  rebuild (self);

  return G_SOURCE_REMOVE;
}

/* The view moved: following it, the matrix is built once it stays put */
static void
session_view_cb (SextantMatrixView *self)
{
  if (!self->visible_range)
    return;

  g_clear_handle_id (&self->debounce, g_source_remove);
  set_ready (self, FALSE);
  self->debounce = g_timeout_add (DEBOUNCE_MS, debounced_cb, self);
}

static void
sextant_matrix_view_map (GtkWidget *widget)
{
  SextantMatrixView *self = SEXTANT_MATRIX_VIEW (widget);

  GTK_WIDGET_CLASS (sextant_matrix_view_parent_class)->map (widget);
  if (self->stale)
    rebuild (self);
}

/* Hover and clicks ------------------------------------------------------------------ */

static char *
cell_details (SextantMatrixView *self,
              guint              row,
              guint              col)
{
  guint n = sextant_comm_matrix_get_size (self->matrix);
  GString *text = g_string_new (NULL);
  guint s_last = MIN ((row + 1) * self->block, n) - 1;
  guint r_last = MIN ((col + 1) * self->block, n) - 1;
  g_autofree char *from = g_markup_escape_text (sextant_comm_matrix_get_label (self->matrix, row * self->block), -1);
  g_autofree char *to = g_markup_escape_text (sextant_comm_matrix_get_label (self->matrix, col * self->block), -1);

  if (self->block == 1)
    g_string_append_printf (text, "<b>%s → %s</b>", from, to);
  else
    {
      g_autofree char *from_last = g_markup_escape_text (sextant_comm_matrix_get_label (self->matrix, s_last), -1);
      g_autofree char *to_last = g_markup_escape_text (sextant_comm_matrix_get_label (self->matrix, r_last), -1);

      g_string_append_printf (text, "<b>%s … %s → %s … %s</b>\na block of %u × %u locations", from, from_last, to,
                              to_last, s_last - row * self->block + 1, r_last - col * self->block + 1);
    }
  {
    double count = _sextant_matrix_view_block_value (self, SEXTANT_MATRIX_COUNT, row, col);
    double byte_count = _sextant_matrix_view_block_value (self, SEXTANT_MATRIX_BYTES, row, col);
    g_autofree char *bytes = _sextant_matrix_view_format_value (SEXTANT_MATRIX_BYTES, byte_count);
    g_autofree char *time = _sextant_matrix_view_format_value (SEXTANT_MATRIX_TIME,
                                                               _sextant_matrix_view_block_value (self, SEXTANT_MATRIX_TIME,
                                                                                                 row, col));

    if (count <= 0 && byte_count <= 0)
      g_string_append_printf (text, "\nno %s", transfer_noun (self->matrix, 0));
    else if (sextant_comm_matrix_get_transfers (self->matrix) == SEXTANT_MATRIX_TRANSFERS_ONE_SIDED)
      g_string_append_printf (text, "\n%.0f %s, %s\nClick to see them in the timeline", count,
                              transfer_noun (self->matrix, count), bytes);
    else
      g_string_append_printf (text, "\n%.0f %s, %s\n%s in the receives\nClick to see them in the timeline", count,
                              transfer_noun (self->matrix, count), bytes, time);
  }

  return g_string_free (text, FALSE);
}

static gboolean
sextant_matrix_view_query_tooltip (GtkWidget  *widget,
                                   int         x,
                                   int         y,
                                   gboolean    keyboard,
                                   GtkTooltip *tooltip)
{
  SextantMatrixView *self = SEXTANT_MATRIX_VIEW (widget);
  g_autofree char *markup = NULL;
  guint row, col;

  if (!_sextant_matrix_view_cell_at (self, x, y, &row, &col))
    return FALSE;
  markup = cell_details (self, row, col);
  gtk_tooltip_set_markup (tooltip, markup);

  return TRUE;
}

static void
set_hover (SextantMatrixView *self,
           int                row,
           int                col)
{
  if (row == self->hover_row && col == self->hover_col)
    return;

  self->hover_row = row;
  self->hover_col = col;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SextantMatrixView        *self)
{
  guint row, col;

  if (_sextant_matrix_view_cell_at (self, x, y, &row, &col))
    set_hover (self, (int)row, (int)col);
  else
    set_hover (self, -1, -1);
}

static void
leave_cb (GtkEventControllerMotion *controller,
          SextantMatrixView        *self)
{
  set_hover (self, -1, -1);
}

/**
 * sextant_matrix_view_activate_cell:
 * @sender: a drawn row (a matrix index when sextant_matrix_view_get_block()
 *   is 1)
 * @receiver: a drawn column
 *
 * What a click on the cell does: the session's view becomes the span of
 * the cell's messages (a twentieth more either side) and its pair filter
 * the cell's locations. A cell without messages does nothing.
 */
void
sextant_matrix_view_activate_cell (SextantMatrixView *self,
                                   guint              sender,
                                   guint              receiver)
{
  guint n;
  gint64 begin = G_MAXINT64, end = G_MININT64, pad;
  SextantPairFilter filter;

  g_return_if_fail (SEXTANT_IS_MATRIX_VIEW (self));

  if (self->matrix == NULL || self->session == NULL || self->block == 0 || sender >= self->rows ||
      receiver >= self->rows)
    return;
  n = sextant_comm_matrix_get_size (self->matrix);
  for (guint s = sender * self->block; s < MIN ((sender + 1) * self->block, n); s++)
    for (guint r = receiver * self->block; r < MIN ((receiver + 1) * self->block, n); r++)
      {
        gint64 b, e;

        if (sextant_comm_matrix_get_pair_span (self->matrix, s, r, &b, &e))
          {
            begin = MIN (begin, b);
            end = MAX (end, e);
          }
      }
  if (begin > end)
    return;

  filter.sender_first = sextant_comm_matrix_get_loc (self->matrix, sender * self->block);
  filter.sender_last = sextant_comm_matrix_get_loc (self->matrix, MIN ((sender + 1) * self->block, n) - 1);
  filter.receiver_first = sextant_comm_matrix_get_loc (self->matrix, receiver * self->block);
  filter.receiver_last = sextant_comm_matrix_get_loc (self->matrix, MIN ((receiver + 1) * self->block, n) - 1);
  pad = MAX ((end - begin) / 20, 1);
  sextant_session_set_pair_filter (self->session, &filter);
  sextant_session_zoom_to_range (self->session, begin - pad, end + 1 + pad);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
released_cb (GtkGestureClick   *gesture,
             int                n_press,
             double             x,
             double             y,
             SextantMatrixView *self)
{
  guint row, col;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (_sextant_matrix_view_cell_at (self, x, y, &row, &col))
    sextant_matrix_view_activate_cell (self, row, col);
}

/* Public ------------------------------------------------------------------------- */

/**
 * sextant_matrix_view_set_session:
 * @session: (nullable): a loaded session
 *
 * Shows @session's matrix, and follows its view when "visible-range" is set.
 */
void
sextant_matrix_view_set_session (SextantMatrixView *self,
                                 SextantSession    *session)
{
  g_return_if_fail (SEXTANT_IS_MATRIX_VIEW (self));
  g_return_if_fail (session == NULL || (SEXTANT_IS_SESSION (session) && sextant_session_get_loaded (session)));

  if (!g_set_object (&self->session, session))
    return;

  g_signal_group_set_target (self->session_signals, session);
  self->pick_transfers = TRUE;
  show_matrix (self, NULL);
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* Returns: (transfer none) (nullable) */
SextantSession *
sextant_matrix_view_get_session (SextantMatrixView *self)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), NULL);

  return self->session;
}

/* Returns: (transfer none) (nullable): the matrix drawn */
SextantCommMatrix *
sextant_matrix_view_get_matrix (SextantMatrixView *self)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), NULL);

  return self->matrix;
}

/* TRUE when the matrix drawn is the one of the range asked for (or its error) */
gboolean
sextant_matrix_view_get_ready (SextantMatrixView *self)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), FALSE);

  return self->ready;
}

/* Returns: (nullable): why the matrix was not built */
const char *
sextant_matrix_view_get_error (SextantMatrixView *self)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), NULL);

  return self->error;
}

SextantMatrixMetric
sextant_matrix_view_get_metric (SextantMatrixView *self)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), SEXTANT_MATRIX_BYTES);

  return self->metric;
}

void
sextant_matrix_view_set_metric (SextantMatrixView   *self,
                                SextantMatrixMetric  metric)
{
  g_return_if_fail (SEXTANT_IS_MATRIX_VIEW (self));
  g_return_if_fail (metric < SEXTANT_N_MATRIX_METRICS);

  if (self->metric == metric)
    return;

  self->metric = metric;
  _sextant_matrix_view_clear_cells (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_METRIC]);
}

SextantMatrixTransfers
sextant_matrix_view_get_transfers (SextantMatrixView *self)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), SEXTANT_MATRIX_TRANSFERS_MESSAGES);

  return self->transfers;
}

/* What the matrix counts: messages, one-sided operations or both; built again */
void
sextant_matrix_view_set_transfers (SextantMatrixView      *self,
                                   SextantMatrixTransfers  transfers)
{
  g_return_if_fail (SEXTANT_IS_MATRIX_VIEW (self));
  g_return_if_fail (transfers < SEXTANT_N_MATRIX_TRANSFERS);

  /* chosen: no longer picked for the session */
  self->pick_transfers = FALSE;
  if (self->transfers == transfers)
    return;

  self->transfers = transfers;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSFERS]);
}

gboolean
sextant_matrix_view_get_visible_range (SextantMatrixView *self)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), FALSE);

  return self->visible_range;
}

/* TRUE: the matrix of the session's view, built again as it moves; FALSE: the whole run */
void
sextant_matrix_view_set_visible_range (SextantMatrixView *self,
                                       gboolean           visible_range)
{
  g_return_if_fail (SEXTANT_IS_MATRIX_VIEW (self));

  if (self->visible_range == !!visible_range)
    return;

  self->visible_range = !!visible_range;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_RANGE]);
}

/* Matrix rows (and columns) summed into each drawn one: 1 unless the
 * matrix has more locations than the plot has pixels */
guint
sextant_matrix_view_get_block (SextantMatrixView *self)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), 1);

  _sextant_matrix_view_layout_cells (self);

  return MAX (self->block, 1);
}

/**
 * sextant_matrix_view_get_cell_area:
 * @sender: a drawn row
 * @receiver: a drawn column
 * @area: (out): where the cell is drawn (its gap, if any, included)
 *
 * Returns: %FALSE when there is no such cell drawn
 */
gboolean
sextant_matrix_view_get_cell_area (SextantMatrixView *self,
                                   guint              sender,
                                   guint              receiver,
                                   graphene_rect_t   *area)
{
  g_return_val_if_fail (SEXTANT_IS_MATRIX_VIEW (self), FALSE);

  _sextant_matrix_view_layout_cells (self);
  if (self->cells == NULL || sender >= self->rows || receiver >= self->rows)
    return FALSE;
  graphene_rect_init (area, self->left + receiver * self->cell, self->top + sender * self->cell, self->cell,
                      self->cell);

  return TRUE;
}

/* GObject ------------------------------------------------------------------------- */

static void
sextant_matrix_view_size_allocate (GtkWidget *widget,
                                   int        width,
                                   int        height,
                                   int        baseline)
{
  SextantMatrixView *self = SEXTANT_MATRIX_VIEW (widget);

  if (self->width != width || self->height != height)
    _sextant_matrix_view_clear_cells (self);
}

static void
sextant_matrix_view_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 320 : 160;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 700 : 420;
}

static void
session_filter_cb (SextantMatrixView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
sextant_matrix_view_dispose (GObject *object)
{
  SextantMatrixView *self = SEXTANT_MATRIX_VIEW (object);

  g_clear_handle_id (&self->debounce, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->session_signals != NULL)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sextant_matrix_view_parent_class)->dispose (object);
}

static void
sextant_matrix_view_finalize (GObject *object)
{
  SextantMatrixView *self = SEXTANT_MATRIX_VIEW (object);

  _sextant_matrix_view_clear_cells (self);
  g_clear_pointer (&self->matrix, sextant_comm_matrix_unref);
  g_strfreev (self->labels);
  g_free (self->shared);
  g_free (self->error);
  g_free (self->summary);

  G_OBJECT_CLASS (sextant_matrix_view_parent_class)->finalize (object);
}

static void
sextant_matrix_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SextantMatrixView *self = SEXTANT_MATRIX_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_MATRIX:
      g_value_set_boxed (value, self->matrix);
      break;
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    case PROP_METRIC:
      g_value_set_uint (value, self->metric);
      break;
    case PROP_TRANSFERS:
      g_value_set_uint (value, self->transfers);
      break;
    case PROP_VISIBLE_RANGE:
      g_value_set_boolean (value, self->visible_range);
      break;
    case PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_matrix_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SextantMatrixView *self = SEXTANT_MATRIX_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      sextant_matrix_view_set_session (self, g_value_get_object (value));
      break;
    case PROP_METRIC:
      sextant_matrix_view_set_metric (self, g_value_get_uint (value));
      break;
    case PROP_TRANSFERS:
      sextant_matrix_view_set_transfers (self, g_value_get_uint (value));
      break;
    case PROP_VISIBLE_RANGE:
      sextant_matrix_view_set_visible_range (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sextant_matrix_view_class_init (SextantMatrixViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sextant_matrix_view_dispose;
  object_class->finalize = sextant_matrix_view_finalize;
  object_class->get_property = sextant_matrix_view_get_property;
  object_class->set_property = sextant_matrix_view_set_property;

  widget_class->snapshot = _sextant_matrix_view_snapshot;
  widget_class->measure = sextant_matrix_view_measure;
  widget_class->size_allocate = sextant_matrix_view_size_allocate;
  widget_class->map = sextant_matrix_view_map;
  widget_class->query_tooltip = sextant_matrix_view_query_tooltip;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, SEXTANT_TYPE_SESSION, rw);
  properties[PROP_MATRIX] = g_param_spec_boxed ("matrix", NULL, NULL, SEXTANT_TYPE_COMM_MATRIX, ro);
  properties[PROP_READY] = g_param_spec_boolean ("ready", NULL, NULL, FALSE, ro);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, ro);
  /* a SextantMatrixMetric: what the colours are of */
  properties[PROP_METRIC] = g_param_spec_uint ("metric", NULL, NULL, 0, SEXTANT_N_MATRIX_METRICS - 1,
                                               SEXTANT_MATRIX_BYTES, rw);
  /* a SextantMatrixTransfers: what is counted (a session's first matrix
   * takes the one-sided operations when there are no messages) */
  properties[PROP_TRANSFERS] = g_param_spec_uint ("transfers", NULL, NULL, 0, SEXTANT_N_MATRIX_TRANSFERS - 1,
                                                  SEXTANT_MATRIX_TRANSFERS_MESSAGES, rw);
  /* the session's view instead of the whole run */
  properties[PROP_VISIBLE_RANGE] = g_param_spec_boolean ("visible-range", NULL, NULL, FALSE, rw);
  /* a line for the pane's header: the locations, the totals, the range */
  properties[PROP_SUMMARY] = g_param_spec_string ("summary", NULL, NULL, NULL, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "commmatrix");
}

static void
sextant_matrix_view_init (SextantMatrixView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->hover_row = self->hover_col = -1;
  self->ready = TRUE;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  self->session_signals = g_signal_group_new (SEXTANT_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::view-begin", G_CALLBACK (session_view_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::view-end", G_CALLBACK (session_view_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::pair-filter", G_CALLBACK (session_filter_cb), self);

  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
sextant_matrix_view_new (void)
{
  return g_object_new (SEXTANT_TYPE_MATRIX_VIEW, NULL);
}
