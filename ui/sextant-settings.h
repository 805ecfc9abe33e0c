/*
 * sextant-settings.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The application's preferences: GSettings of the schema org.sextant.Sextant
 * (resources/org.sextant.Sextant.gschema.xml), installed with the program or,
 * when it runs from its build tree, compiled there.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GSettings *sextant_settings_get_default        (void);
char     **sextant_settings_dup_parameters     (GSettings *settings);

G_END_DECLS
