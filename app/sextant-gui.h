/*
 * sextant-gui.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant open [PATH]`: the application window (GTK 4), on an archive or
 * a trace store. With --screenshot it writes the window, once the timeline
 * has drawn its data, to a PNG and quits (screenshots/, the tests).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int sextant_gui_run (int    argc,
                     char **argv);

G_END_DECLS
