/*
 * sextant-timeline-click.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A click on the timeline chooses what is under it as the session's item
 * (the details pane shows it): a message line or a one-sided operation's
 * arrow within CLICK_SLOP pixels (the frame's, found at once), a
 * collective's line, else the visit of the row's location at that time.
 * It also chooses the collective under it (the window then shows its
 * tree): on a collective's line, that collective; elsewhere on a row, the
 * collective the row's location was in at that time, within CLICK_SLOP
 * pixels either side: an MPI collective call or a onecoll broadcast's
 * region (sextant_graph_collective_at, an indexed lookup on a connection
 * of its own, on a worker thread). On lost time drawn, it chooses that
 * pattern instance instead of the collective. A drag pans:
 * GtkGestureClick gives way to it once the pointer moves.
 */
#include "config.h"

#include <math.h>

#include "sextant-collective-id.h"
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

/*
 * collective_rows:
 * @first: the frame's first member of a collective
 * @last: (out): when the last of its members arrived
 * @top: (out): the top of its members' rows (G_MAXDOUBLE: none has a row)
 * @bottom: (out): the bottom of their rows
 *
 * Returns: the index of the next collective's first member
 */
static guint
collective_rows (SextantTimeline *self,
                 guint            first,
                 gint64          *last,
                 double          *top,
                 double          *bottom)
{
  GArray *members = self->frame->members;
  gint64 id = g_array_index (members, SextantViewMember, first).collective;
  SextantTimelineGeometry geometry;
  guint j;

  _sextant_timeline_geometry (self, &geometry);
  *last = G_MININT64;
  *top = G_MAXDOUBLE;
  *bottom = -G_MAXDOUBLE;
  for (j = first; j < members->len && g_array_index (members, SextantViewMember, j).collective == id; j++)
    {
      const SextantViewMember *m = &g_array_index (members, SextantViewMember, j);
      float y, h;

      *last = MAX (*last, m->begin);
      if (!geometry.row_of (geometry.row_data, m->loc, &y, &h))
        continue;
      *top = MIN (*top, y);
      *bottom = MAX (*bottom, y + h);
    }

  return j;
}

/* The collective whose line (drawn across its members' rows where the
 * last of them arrived) passes within CLICK_SLOP pixels of (@x, @y) */
static gint64
collective_on_line (SextantTimeline *self,
                    double           x,
                    double           y)
{
  GArray *members = self->frame != NULL ? self->frame->members : NULL;

  for (guint i = 0; members != NULL && i < members->len;)
    {
      gint64 last;
      double top, bottom;
      guint j = collective_rows (self, i, &last, &top, &bottom);

      if (top <= y && y <= bottom && fabs (sextant_timeline_x_for_time (self, last) - x) <= CLICK_SLOP)
        return g_array_index (members, SextantViewMember, i).collective;
      i = j;
    }

  return SEXTANT_NULL;
}

/* The distance from (@px, @py) to the segment (@ax, @ay) - (@bx, @by) */
static double
segment_distance (double px,
                  double py,
                  double ax,
                  double ay,
                  double bx,
                  double by)
{
  double dx = bx - ax, dy = by - ay;
  double len = dx * dx + dy * dy;
  double t = len > 0 ? CLAMP (((px - ax) * dx + (py - ay) * dy) / len, 0, 1) : 0;

  return hypot (px - (ax + t * dx), py - (ay + t * dy));
}

/* A line from @from at @t0 to @to at @t1, as the layers draw it (row
 * middles); FALSE when an end has no row */
static gboolean
line_ends (const SextantTimelineGeometry *geometry,
           gint64                         from,
           gint64                         t0,
           gint64                         to,
           gint64                         t1,
           double                        *ends)
{
  float y, h;

  if (!geometry->row_of (geometry->row_data, from, &y, &h))
    return FALSE;
  ends[0] = sextant_timeline_geometry_x (geometry, t0);
  ends[1] = y + h / 2.0;
  if (!geometry->row_of (geometry->row_data, to, &y, &h))
    return FALSE;
  ends[2] = sextant_timeline_geometry_x (geometry, t1);
  ends[3] = y + h / 2.0;

  return TRUE;
}

/* The message or one-sided operation whose line passes nearest (@x, @y),
 * within CLICK_SLOP pixels */
static gboolean
line_at (SextantTimeline *self,
         double           x,
         double           y,
         SextantItem     *item)
{
  SextantTimelineGeometry geometry;
  double best = CLICK_SLOP;
  gboolean found = FALSE;
  double e[4];

  _sextant_timeline_geometry (self, &geometry);
  for (guint i = 0; self->frame->messages != NULL && i < self->frame->messages->len; i++)
    {
      const SextantViewMessage *m = &g_array_index (self->frame->messages, SextantViewMessage, i);
      double d;

      if (m->id == SEXTANT_NULL || !line_ends (&geometry, m->send_loc, m->send_time, m->recv_loc, m->recv_time, e))
        continue;
      if ((d = segment_distance (x, y, e[0], e[1], e[2], e[3])) <= best)
        {
          best = d;
          found = TRUE;
          *item = (SextantItem) { SEXTANT_ITEM_MESSAGE, m->send_loc, m->send_time, m->id };
        }
    }
  for (guint i = 0; self->frame->rma != NULL && i < self->frame->rma->len; i++)
    {
      const SextantViewRma *op = &g_array_index (self->frame->rma, SextantViewRma, i);
      gint64 end = op->complete_time != SEXTANT_NULL ? op->complete_time : op->issue_time;
      double d;

      if (op->target_loc == SEXTANT_NULL ||
          !line_ends (&geometry, op->origin_loc, op->issue_time, op->target_loc, end, e))
        continue;
      if ((d = segment_distance (x, y, e[0], e[1], e[2], e[3])) <= best)
        {
          best = d;
          found = TRUE;
          *item = (SextantItem) { SEXTANT_ITEM_RMA, op->origin_loc, op->issue_time, op->id };
        }
    }

  return found;
}

/* The instance whose lost time the frame draws on @loc at @time, within
 * @slop ticks; the shortest where several overlap */
static gint64
lost_at (SextantTimeline *self,
         gint64           loc,
         gint64           time,
         gint64           slop)
{
  GArray *lost = self->frame != NULL && self->show_lost ? self->frame->lost : NULL;
  gint64 best = SEXTANT_NULL, shortest = G_MAXINT64;

  for (guint i = 0; lost != NULL && i < lost->len; i++)
    {
      const SextantViewLost *l = &g_array_index (lost, SextantViewLost, i);

      if (l->loc == loc && l->begin - slop <= time && time <= l->end + slop && l->end - l->begin < shortest)
        {
          best = l->instance;
          shortest = l->end - l->begin;
        }
    }

  return best;
}

static void
instance_found_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SextantTimeline) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantInstance) instance = sextant_session_find_instance_finish (SEXTANT_SESSION (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || SEXTANT_SESSION (object) != self->session)
    return;
  if (instance == NULL)
    g_warning ("The lost time under the click: %s", error->message);
  else
    sextant_session_choose_instance (self->session, instance);
}

static void
released_cb (GtkGestureClick *gesture,
             int              n_press,
             double           x,
             double           y,
             SextantTimeline *self)
{
  const SextantTimelineRow *row = NULL;
  double ticks_per_px;
  g_autoptr(GTask) task = NULL;
  ClickRequest *request;
  SextantItem item;
  gint64 line, lost;
  int position;

  if (self->session == NULL || self->rows == NULL || self->t1 <= self->t0 || x < self->label_width ||
      y < RULER_HEIGHT || self->selecting || self->panned)
    return;

  if (self->show_messages && self->frame != NULL && line_at (self, x, y, &item))
    {
      sextant_session_set_item (self->session, &item);
      return;
    }
  if (self->show_messages && self->frame != NULL && (line = collective_on_line (self, x, y)) != SEXTANT_NULL)
    {
      g_autofree char *id = sextant_collective_id_to_string (line);

      item = (SextantItem) { SEXTANT_ITEM_COLLECTIVE, SEXTANT_NULL, _sextant_timeline_time_at (self, x), line };
      sextant_session_set_item (self->session, &item);
      sextant_session_choose_collective (self->session, id);
      return;
    }

  if ((position = _sextant_timeline_row_at (self, y)) < 0 ||
      (row = sextant_timeline_rows_get_row (self->rows, (guint)position))->kind == SEXTANT_TIMELINE_ROW_COUNTER ||
      row->locs->len == 0)
    return;

  ticks_per_px = (double)(self->t1 - self->t0) / _sextant_timeline_plot_width (self);
  item = (SextantItem) { SEXTANT_ITEM_VISIT, g_array_index (row->locs, gint64, 0), _sextant_timeline_time_at (self, x),
                         SEXTANT_NULL };
  sextant_session_set_item (self->session, &item);

  g_cancellable_cancel (self->click_cancellable);
  g_clear_object (&self->click_cancellable);
  self->click_cancellable = g_cancellable_new ();

  /* on lost time: its instance is chosen (the pattern browser, the source
   * and the tree show it), not the collective around it */
  if ((lost = lost_at (self, item.loc, item.time, (gint64)llround (CLICK_SLOP * ticks_per_px))) != SEXTANT_NULL)
    {
      sextant_session_find_instance_async (self->session, lost, self->click_cancellable, instance_found_cb,
                                           g_object_ref (self));
      return;
    }

  request = g_new0 (ClickRequest, 1);
  request->session = g_object_ref (self->session);
  request->loc = item.loc;
  request->times[0] = item.time;
  request->times[1] = request->times[0] - (gint64)llround (CLICK_SLOP * ticks_per_px);
  request->times[2] = request->times[0] + (gint64)llround (CLICK_SLOP * ticks_per_px);
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
