/*
 * sextant-source-view-centre.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Centring the marked line of a SextantSourceView. GtkTextView lays a new
 * text out on idle, a screenful at a time from the top: a line not laid
 * out yet has no height, and its y is
 * the height of the lines above it that are, so it means nothing until
 * then. gtk_text_view_scroll_to_mark() lays out the lines around the mark
 * at the next allocation (once the view is on screen with a height) and
 * scrolls there, animated over 200 ms. The view then tries to keep its
 * first visible line in place while the lines above are laid out, but
 * GTK 4.8 does not always manage (line 123457 of 200000 went off screen
 * as the lines above it were laid out). So a tick callback puts the
 * line's middle at the middle of the visible area before each frame is
 * drawn, with the adjustment's value (which also ends the animation: GTK
 * 4.8 emits a critical when a view is unmapped during one, see unmap). It
 * stops when the line is laid out and has needed no move while the
 * adjustment's upper stayed the same for CENTRE_STABLE_FRAMES frames in a
 * row (frames, not time: a loaded machine draws fewer of them and it
 * converges all the same), when the user scrolls, clicks or types in the
 * view, or after CENTRE_MAX_FRAMES. Tick callbacks run only while the
 * view is mapped: a line shown in a hidden view is centred when it shows.
 */
#include "config.h"

#include <math.h>

#include "sextant-source-view-private.h"

/* frames in a row the line must stay centred, the layout unchanged, for
 * the centring to stop; and the most frames it runs */
#define CENTRE_STABLE_FRAMES 30
#define CENTRE_MAX_FRAMES 1800

/* GTK 4.8 emits a critical when a scrolled window is unmapped while its
 * adjustment animates a scroll (gtk_adjustment_enable_animation
 * disconnects its tick twice), as it does for 200 ms after
 * gtk_text_view_scroll_to_mark(): setting the value ends the animation.
 * Before the view is unmapped or hidden. */
void
_sextant_source_view_end_scroll_animation (SextantSourceView *self)
{
  GtkAdjustment *adjustments[] = {
    gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->view)),
    gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->view)),
  };

  for (guint i = 0; i < G_N_ELEMENTS (adjustments); i++)
    if (adjustments[i] != NULL)
      gtk_adjustment_set_value (adjustments[i], gtk_adjustment_get_value (adjustments[i]));
}

void
_sextant_source_view_stop_centring (SextantSourceView *self)
{
  if (self->centre_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->centre_tick);
  self->centre_tick = 0;
}

/* Each frame, before the layout: the marked line's middle to the middle
 * of the visible area (see the top of the file) */
static gboolean
centre_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       data)
{
  SextantSourceView *self = data;
  GtkTextView *text = GTK_TEXT_VIEW (self->view);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (text));
  GdkRectangle visible;
  GtkTextIter iter;
  int y, height;
  double upper, value, target;

  if (self->line <= 0 || vadjustment == NULL || ++self->centre_frames > CENTRE_MAX_FRAMES)
    {
      self->centre_tick = 0;
      return G_SOURCE_REMOVE;
    }
  gtk_text_view_get_visible_rect (text, &visible);
  if (visible.height <= 0)
    return G_SOURCE_CONTINUE;

  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (self->buffer), &iter, (int)self->line - 1);
  gtk_text_view_get_line_yrange (text, &iter, &y, &height);
  if (height <= 0)
    {
      /* not laid out yet */
      self->centre_stable = 0;
      return G_SOURCE_CONTINUE;
    }
  upper = gtk_adjustment_get_upper (vadjustment);
  value = gtk_adjustment_get_value (vadjustment);
  target = value + (y + height / 2.0) - (visible.y + visible.height / 2.0);
  target = CLAMP (target, gtk_adjustment_get_lower (vadjustment),
                  MAX (upper - gtk_adjustment_get_page_size (vadjustment), gtk_adjustment_get_lower (vadjustment)));
  if (fabs (target - value) >= 1)
    {
      gtk_adjustment_set_value (vadjustment, target);
      self->centre_stable = 0;
    }
  else if (upper != self->centre_upper)
    self->centre_stable = 0;
  else if (++self->centre_stable >= CENTRE_STABLE_FRAMES)
    {
      self->centre_tick = 0;
      return G_SOURCE_REMOVE;
    }
  self->centre_upper = upper;

  return G_SOURCE_CONTINUE;
}

void
_sextant_source_view_start_centring (SextantSourceView *self)
{
  self->centre_frames = 0;
  self->centre_stable = 0;
  self->centre_upper = -1;
  if (self->centre_tick == 0)
    self->centre_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), centre_tick_cb, self, NULL);
}

/* The user moves the view: it is theirs */
gboolean
_sextant_source_view_user_event_cb (GtkEventControllerLegacy *controller,
                                    GdkEvent                 *event,
                                    SextantSourceView        *self)
{
  switch (gdk_event_get_event_type (event))
    {
    case GDK_SCROLL:
    case GDK_BUTTON_PRESS:
    case GDK_KEY_PRESS:
    case GDK_TOUCH_BEGIN:
    case GDK_TOUCHPAD_SWIPE:
    case GDK_TOUCHPAD_PINCH:
      _sextant_source_view_stop_centring (self);
      break;
    default:
      break;
    }

  return GDK_EVENT_PROPAGATE;
}
