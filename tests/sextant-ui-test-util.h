/*
 * sextant-ui-test-util.h: what the tests of ui/ share (under Xvfb).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sextant-session.h"

G_BEGIN_DECLS

/* Runs the main loop until the boolean property @property of @object holds;
 * fails the test after @seconds. */
void    sextant_test_wait_for   (gpointer    object,
                                 const char *property,
                                 guint       seconds);
/* Runs the main loop until @widget's window has drawn @n more frames (a
 * change made before is on screen then, however busy the machine) */
void    sextant_test_run_frames (GtkWidget  *widget,
                                 guint       n);
/* @widget as drawn, on white (widgets draw no background of their own), by
 * its window's renderer: rows of @width pixels, 4 bytes each (B, G, R, A in
 * memory on little-endian machines, CAIRO_FORMAT_ARGB32) */
guint8 *sextant_test_render     (GtkWidget  *widget,
                                 int        *width,
                                 int        *height);

/* A session on @path (an archive or a store), loaded: runs the main loop
 * until it is; fails the test if it cannot be */
SextantSession *sextant_test_load_session (const char *path);

G_END_DECLS
