/*
 * sextant-session-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The view a session shows (begin and end, in ticks) and its zoom
 * history: back and forward steps, a continuous change (wheel, drag, pan)
 * one step per gesture.
 */
#include "config.h"

#include <math.h>

#include "sextant-session-private.h"

/* The narrowest view, in ticks: about a tick a pixel on a small window */
#define MIN_VIEW_TICKS 200
/* Zoom history: the most steps kept back, and the pause (µs, monotonic)
 * after which a continuous change (wheel, drag, pan) starts a new step */
#define MAX_HISTORY 100
#define GESTURE_GAP_US G_USEC_PER_SEC

/* The view ------------------------------------------------------------------- */

gint64
sextant_session_get_view_begin (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->view_begin;
}

/* Exclusive */
gint64
sextant_session_get_view_end (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), 0);

  return self->view_end;
}

/* The zoom history ------------------------------------------------------------ */

static void
update_can_go (SextantSession *self,
               gboolean        could_go_back,
               gboolean        could_go_forward)
{
  if (could_go_back != (self->back->len > 0))
    _sextant_session_notify (self, PROP_CAN_GO_BACK);
  if (could_go_forward != (self->forward->len > 0))
    _sextant_session_notify (self, PROP_CAN_GO_FORWARD);
}

void
_sextant_session_clear_history (SextantSession *self)
{
  gboolean back = self->back->len > 0;
  gboolean forward = self->forward->len > 0;

  g_array_set_size (self->back, 0);
  g_array_set_size (self->forward, 0);
  self->in_gesture = FALSE;
  update_can_go (self, back, forward);
}

/* The view shown becomes a step back; the steps ahead are dropped */
static void
record_step (SextantSession *self)
{
  View shown = { self->view_begin, self->view_end };
  gboolean back = self->back->len > 0;
  gboolean forward = self->forward->len > 0;

  if (self->back->len >= MAX_HISTORY)
    g_array_remove_range (self->back, 0, self->back->len - MAX_HISTORY + 1);
  g_array_append_val (self->back, shown);
  g_array_set_size (self->forward, 0);
  update_can_go (self, back, forward);
}

/* [@begin, @end) moved and widened as needed to lie in the run and be at
 * least MIN_VIEW_TICKS wide */
static void
clamp_view (SextantSession *self,
            gint64         *begin,
            gint64         *end)
{
  gint64 span = self->span.end - self->span.begin;
  gint64 width = MIN (MAX (*end - *begin, MIN (span, MIN_VIEW_TICKS)), span);

  *begin = CLAMP (*begin, self->span.begin, self->span.end - width);
  *end = *begin + width;
}

/* Shows [@begin, @end) (clamped), recording the view shown before as
 * @kind says: a jump is a step; a gesture is one when it starts, that is
 * when the change before it was not a gesture or came GESTURE_GAP_US ago
 * or more */
void
_sextant_session_change_view (SextantSession *self,
                              gint64          begin,
                              gint64          end,
                              ChangeKind      kind)
{
  gint64 now;

  if (!self->loaded)
    return;

  clamp_view (self, &begin, &end);
  if (begin == self->view_begin && end == self->view_end)
    return;

  now = self->clock ();
  g_object_freeze_notify (G_OBJECT (self));
  if (kind == CHANGE_JUMP ||
      (kind == CHANGE_GESTURE && (!self->in_gesture || now - self->last_change >= GESTURE_GAP_US)))
    record_step (self);
  self->in_gesture = kind == CHANGE_GESTURE;
  self->last_change = now;
  if (begin != self->view_begin)
    {
      self->view_begin = begin;
      _sextant_session_notify (self, PROP_VIEW_BEGIN);
    }
  if (end != self->view_end)
    {
      self->view_end = end;
      _sextant_session_notify (self, PROP_VIEW_END);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* From @from (back or forward) to the view it keeps last, the view shown
 * going onto @to */
static gboolean
go (SextantSession *self,
    GArray         *from,
    GArray         *to)
{
  View shown = { self->view_begin, self->view_end };
  gboolean back = self->back->len > 0;
  gboolean forward = self->forward->len > 0;
  View step;

  if (from->len == 0)
    return FALSE;

  step = g_array_index (from, View, from->len - 1);
  g_object_freeze_notify (G_OBJECT (self));
  g_array_set_size (from, from->len - 1);
  g_array_append_val (to, shown);
  update_can_go (self, back, forward);
  _sextant_session_change_view (self, step.begin, step.end, CHANGE_HISTORY);
  g_object_thaw_notify (G_OBJECT (self));

  return TRUE;
}

/**
 * sextant_session_go_back:
 *
 * Shows the view before the last step of the zoom history (Alt+Left), as
 * a browser's Back: the view shown becomes the first step forward.
 *
 * Returns: %TRUE when there was a step back
 */
gboolean
sextant_session_go_back (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return go (self, self->back, self->forward);
}

/**
 * sextant_session_go_forward:
 *
 * Shows the view the last sextant_session_go_back() left (Alt+Right).
 *
 * Returns: %TRUE when there was a step forward
 */
gboolean
sextant_session_go_forward (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return go (self, self->forward, self->back);
}

gboolean
sextant_session_get_can_go_back (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->back->len > 0;
}

gboolean
sextant_session_get_can_go_forward (SextantSession *self)
{
  g_return_val_if_fail (SEXTANT_IS_SESSION (self), FALSE);

  return self->forward->len > 0;
}

/* For the tests: the clock the history measures gestures' pauses with
 * (g_get_monotonic_time() when @clock is NULL) */
void
_sextant_session_set_clock (SextantSession  *self,
                                             gint64         (*clock) (void))
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  self->clock = clock != NULL ? clock : g_get_monotonic_time;
}

/* The view ------------------------------------------------------------------- */

/**
 * sextant_session_set_view:
 *
 * Shows [@begin, @end) in ticks, moved and widened as needed to lie in the
 * run and be at least MIN_VIEW_TICKS wide. Before the session is loaded,
 * nothing happens. A continuous change (a drag): calls a second or less
 * apart make one step of the zoom history.
 */
void
sextant_session_set_view (SextantSession *self,
                          gint64          begin,
                          gint64          end)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  _sextant_session_change_view (self, begin, end, CHANGE_GESTURE);
}

/**
 * sextant_session_zoom_to_range:
 *
 * Shows [@begin, @end) as sextant_session_set_view() does, as one step of
 * the zoom history (a range chosen on the timeline, a cell of the matrix).
 */
void
sextant_session_zoom_to_range (SextantSession *self,
                               gint64          begin,
                               gint64          end)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  _sextant_session_change_view (self, begin, end, CHANGE_JUMP);
}

/* The view in seconds since the run's start (one step of the history);
 * asked for before the load, it is shown once the session is loaded
 * (instead of the whole run, with no step back). */
void
sextant_session_set_view_seconds (SextantSession *self,
                                  double          from,
                                  double          to)
{
  double res;

  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (to > from);

  if (!self->loaded)
    {
      self->wanted_from = from;
      self->wanted_to = to;
      return;
    }

  self->wanted_from = self->wanted_to = 0;
  res = (double)sextant_session_get_resolution (self);
  _sextant_session_change_view (self, self->span.begin + (gint64)llround (from * res),
                                self->span.begin + (gint64)llround (to * res), CHANGE_JUMP);
}

/* Zooms by @factor (> 1: in) keeping the time at @at_fraction of the view
 * where it is; continuous (the wheel, the keys) */
void
sextant_session_zoom (SextantSession *self,
                      double          factor,
                      double          at_fraction)
{
  double width;
  double at;
  double new_width;

  g_return_if_fail (SEXTANT_IS_SESSION (self));
  g_return_if_fail (factor > 0);

  width = (double)(self->view_end - self->view_begin);
  at = self->view_begin + at_fraction * width;
  new_width = width / factor;
  _sextant_session_change_view (self, (gint64)llround (at - at_fraction * new_width),
                                (gint64)llround (at - at_fraction * new_width + new_width),
                                CHANGE_GESTURE);
}

/* The whole run: one step of the history */
void
sextant_session_zoom_fit (SextantSession *self)
{
  g_return_if_fail (SEXTANT_IS_SESSION (self));

  _sextant_session_change_view (self, self->span.begin, self->span.end, CHANGE_JUMP);
}

/* Moves the view by @fraction of its width (negative: to the left);
 * continuous */
void
sextant_session_pan (SextantSession *self,
                     double          fraction)
{
  gint64 shift;

  g_return_if_fail (SEXTANT_IS_SESSION (self));

  shift = (gint64)llround (fraction * (double)(self->view_end - self->view_begin));
  _sextant_session_change_view (self, self->view_begin + shift, self->view_end + shift,
                                CHANGE_GESTURE);
}

/* Shows [@begin, @end) in the middle fifth of the view, with what came
 * before and after: one step of the history */
void
sextant_session_show_range (SextantSession *self,
                            gint64          begin,
                            gint64          end)
{
  gint64 width;

  g_return_if_fail (SEXTANT_IS_SESSION (self));

  end = MAX (end, begin);
  width = MAX ((end - begin) * 5, MIN_VIEW_TICKS);
  _sextant_session_change_view (self, begin - (width - (end - begin)) / 2,
                                begin - (width - (end - begin)) / 2 + width, CHANGE_JUMP);
}
