/*
 * sextant-preferences-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The preferences (GSettings org.sextant.Sextant): the light or dark
 * style, the folders where source files named by a trace made elsewhere
 * are looked for, and the pattern parameters the next analysis uses.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SEXTANT_TYPE_PREFERENCES_WINDOW (sextant_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (SextantPreferencesWindow, sextant_preferences_window, SEXTANT, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

SextantPreferencesWindow *sextant_preferences_window_new             (GtkWindow                *parent);
void                      sextant_preferences_window_add_source_root (SextantPreferencesWindow *self,
                                                                      const char               *dir);

G_END_DECLS
