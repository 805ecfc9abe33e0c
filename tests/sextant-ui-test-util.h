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

/* Adds the GtkLabels under @widget (and @widget itself if it is one) to
 * @labels, in the order of the widget tree; no reference taken */
void    sextant_test_collect_labels (GtkWidget *widget,
                                     GPtrArray *labels);

/* A session on @path (an archive or a store), loaded: runs the main loop
 * until it is; fails the test if it cannot be */
SextantSession *sextant_test_load_session (const char *path);

/* Runs the main loop until @done (@data) is TRUE; fails the test after
 * @seconds */
void     sextant_test_wait_until     (gboolean   (*done) (gpointer data),
                                      gpointer    data,
                                      guint       seconds);
/* Runs @session's analysis of @patterns (NULL: all) and the main loop
 * until it has ended; fails the test if it fails */
void     sextant_test_analyse        (SextantSession     *session,
                                      const char * const *patterns);
/* Runs xdotool with these arguments (NULL-terminated); fails the test if
 * it fails. Real X events: the X server sends them to the focused window */
void     sextant_test_xdotool        (const char *first,
                                      ...) G_GNUC_NULL_TERMINATED;
/* Gives @window the X input focus and waits until GTK knows (its style
 * differs when it is not active); nothing without xdotool */
void     sextant_test_focus_window   (GtkWindow  *window);
/* A click of the first button at (@x, @y) of @widget, as a user makes it:
 * scrolled into view if the widget scrolls, the X pointer moves there and
 * clicks (xdotool) */
void     sextant_test_click          (GtkWidget  *widget,
                                      double      x,
                                      double      y);
/* Connected regions (4-neighbours) of the pixels of @color (within 2 of
 * each channel) in an image of sextant_test_render() */
guint    sextant_test_count_regions  (const guint8  *pixels,
                                      int            width,
                                      int            height,
                                      const GdkRGBA *color);
/* Whether the pixel at (@x, @y) is within @tolerance (0..255) of @color
 * in each channel */
gboolean sextant_test_pixel_near     (const guint8  *pixels,
                                      int            width,
                                      int            x,
                                      int            y,
                                      const GdkRGBA *color,
                                      int            tolerance);
/* Whether the pixel at (@x, @y) is @color (within 2 of each channel) */
gboolean sextant_test_pixel_is       (const guint8  *pixels,
                                      int            width,
                                      int            x,
                                      int            y,
                                      const GdkRGBA *color);
/* Records onecoll's broadcast test program (SEXTANT_TEST_ONECOLL) on 4
 * Open MPI ranks (SEXTANT_TEST_MPIRUN, under timeout) into @dir/trace;
 * returns (transfer full) its anchor; fails the test if the run fails */
char    *sextant_test_record_onecoll (const char *dir);
/* Records @program (linked with the recorder) on @np Open MPI ranks with
 * the arguments @args (NULL-terminated, or NULL) into DIR/trace.
 * Returns: (transfer full): the archive's anchor file */
char    *sextant_test_record_program (const char        *dir,
                                      const char        *program,
                                      int                np,
                                      const char *const *args);

/* A drag with the first button from (@x0, @y0) to (@x1, @y1) in
 * @widget's coordinates, real X events (xdotool), holding @key ("shift",
 * NULL: none) */
void     sextant_test_drag           (GtkWidget  *widget,
                                      double      x0,
                                      double      y0,
                                      double      x1,
                                      double      y1,
                                      const char *key);

/* The location each shown row of @timeline draws (SEXTANT_NULL for a row
 * of several locations or a counter), in row order */
GArray  *sextant_test_timeline_rows  (gpointer    timeline);

/* The @i-th row of @browser's instance table as sorted now (a
 * SextantPatternBrowser); the table keeps it */
SextantInstance *sextant_test_instance_at (gpointer browser,
                                           guint    i);

G_END_DECLS
