/*
 * sextant-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantApplication is the desktop application: `sextant FILE...` and
 * `sextant` alone. One instance runs per desktop session (a second
 * `sextant FILE` opens the file in a window of the first and returns), it
 * opens a window per trace, keeps the preferences (GSettings
 * org.sextant.Sextant), the application-wide actions (quit, about,
 * preferences, help, new window) and their accelerators.
 *
 * `--screenshot PNG` and `--export FILE` make a one-shot instance of its
 * own that renders the window (or the timeline) once the trace is drawn
 * and quits: scripts and the screenshots/ build target use them.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SEXTANT_TYPE_APPLICATION (sextant_application_get_type ())
G_DECLARE_FINAL_TYPE (SextantApplication, sextant_application, SEXTANT, APPLICATION, AdwApplication)

/* The GUI's entry point: argv as main() has it, without a leading "open".
 * Returns the process's exit status (2: a usage error). */
int                 sextant_application_main      (int                  argc,
                                                   char               **argv);
SextantApplication *sextant_application_new       (gboolean             one_shot);
void                sextant_application_set_exit_status (SextantApplication *self,
                                                   int                  status);

G_END_DECLS
