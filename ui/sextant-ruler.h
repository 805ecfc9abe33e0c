/*
 * sextant-ruler.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The time ruler the timeline and the tree view draw above their plots:
 * ticks of 1, 2 or 5 times a power of ten seconds, about one label every
 * 100 pixels, in the unit of the largest time shown (s, ms, µs, ns), and
 * faint grid lines down the plot. Main thread, inside a widget's snapshot.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

double sextant_ruler_step     (double         seconds,
                               double         width);
char  *sextant_ruler_format   (double         seconds,
                               double         step,
                               double         magnitude);
void   sextant_ruler_snapshot (GtkSnapshot   *snapshot,
                               PangoLayout   *layout,
                               const GdkRGBA *fg,
                               float          x,
                               float          width,
                               float          ruler_height,
                               float          grid_height,
                               double         s0,
                               double         s1);

G_END_DECLS
