/*
 * sextant-timeline-click.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A click on the timeline chooses the collective under it in the session
 * (the window then shows its tree). On a collective's line (drawn from
 * the frame's members), that collective, found at once; elsewhere on a
 * row, the collective the row's location was in at that time, within
 * CLICK_SLOP pixels either side: an MPI collective call or a onecoll
 * broadcast's region (sextant_graph_collective_at, an indexed lookup on a
 * connection of its own, on a worker thread). A click on nothing chooses
 * nothing. A drag pans: GtkGestureClick gives way to it once the pointer
 * moves.
 */
#include "config.h"

#include <math.h>

#include "sextant-graph.h"
#include "sextant-timeline-private.h"

/* How far from a collective's line or region a click still takes it */
#define CLICK_SLOP 3

typedef struct
{
  SextantSession *session;
  gint64          loc;
  gint64          times[3];   /* the click's time, then CLICK_SLOP pixels before and after */
} ClickRequest;

static void
click_request_free (ClickRequest *request)
{
  g_clear_object (&request->session);
  g_free (request);
}

static void
collective_at_worker (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  ClickRequest *request = task_data;
  g_autoptr(SextantStore) store = NULL;
  GError *error = NULL;

  if (!(store = sextant_session_open_store (request->session, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (request->times); i++)
    {
      char *id = sextant_graph_collective_at (store, request->loc, request->times[i], &error);

      if (error != NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      if (id != NULL)
        {
          g_task_return_pointer (task, id, g_free);
          return;
        }
    }

  g_task_return_pointer (task, NULL, NULL);
}

static void
collective_found_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(SextantTimeline) self = user_data;
  ClickRequest *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *id = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || request->session != self->session)
    return;
  if (error != NULL)
    g_warning ("The collective under the click: %s", error->message);
  else if (id != NULL)
    sextant_session_choose_collective (self->session, id);
}

/* The collective whose line (drawn across its members' rows where the
 * last of them arrived) passes within CLICK_SLOP pixels of @x on @row */
static gint64
collective_on_line (SextantTimeline *self,
                    guint            row,
                    double           x)
{
  GArray *members = self->frame != NULL ? self->frame->members : NULL;
  double ticks_per_px = (double)(self->t1 - self->t0) / _sextant_timeline_plot_width (self);

  for (guint i = 0; members != NULL && i < members->len;)
    {
      gint64 last;
      guint top, bottom;
      guint j = _sextant_timeline_collective (self, i, &last, &top, &bottom);

      if (top <= row && row <= bottom &&
          fabs (self->label_width + (last - self->t0) / ticks_per_px - x) <= CLICK_SLOP)
        return g_array_index (members, SextantViewMember, i).collective;
      i = j;
    }

  return SEXTANT_NULL;
}

static void
released_cb (GtkGestureClick *gesture,
             int              n_press,
             double           x,
             double           y,
             SextantTimeline *self)
{
  int row = (int)floor ((y - RULER_HEIGHT - ROW_GAP) / (ROW_HEIGHT + ROW_GAP));
  double ticks_per_px;
  g_autoptr(GTask) task = NULL;
  ClickRequest *request;
  gint64 line;

  if (self->session == NULL || self->outline == NULL || self->t1 <= self->t0 || x < self->label_width || row < 0 ||
      (guint)row >= self->outline->rows->len)
    return;

  if (self->show_messages && (line = collective_on_line (self, (guint)row, x)) != SEXTANT_NULL)
    {
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, line);

      sextant_session_choose_collective (self->session, id);
      return;
    }

  ticks_per_px = (double)(self->t1 - self->t0) / _sextant_timeline_plot_width (self);
  request = g_new0 (ClickRequest, 1);
  request->session = g_object_ref (self->session);
  request->loc = g_array_index (self->outline->rows, Row, row).loc;
  request->times[0] = self->t0 + (gint64)llround ((x - self->label_width) * ticks_per_px);
  request->times[1] = request->times[0] - (gint64)llround (CLICK_SLOP * ticks_per_px);
  request->times[2] = request->times[0] + (gint64)llround (CLICK_SLOP * ticks_per_px);

  g_cancellable_cancel (self->click_cancellable);
  g_clear_object (&self->click_cancellable);
  self->click_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->click_cancellable, collective_found_cb, g_object_ref (self));
  g_task_set_source_tag (task, released_cb);
  g_task_set_task_data (task, request, (GDestroyNotify)click_request_free);
  g_task_run_in_thread (task, collective_at_worker);
}

void
_sextant_timeline_click_init (SextantTimeline *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}
