/*
 * sextant-settings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sextant-settings.h"

/**
 * sextant_settings_get_default:
 *
 * The preferences, made on first use (main thread). The schema is looked
 * up where GLib looks (the installed one, or GSETTINGS_SCHEMA_DIR), then
 * in the build tree's resources/ folder, so that the program runs
 * uninstalled.
 *
 * Returns: (transfer none): the settings of org.sextant.Sextant
 */
GSettings *
sextant_settings_get_default (void)
{
  static GSettings *settings;

  if (settings == NULL)
    {
      GSettingsSchemaSource *installed = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchema) schema = NULL;

      if (installed != NULL)
        schema = g_settings_schema_source_lookup (installed, APP_ID, TRUE);
      if (schema == NULL)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GSettingsSchemaSource) built =
            g_settings_schema_source_new_from_directory (SEXTANT_BUILD_SCHEMA_DIR, installed, FALSE, &error);

          if (built == NULL || (schema = g_settings_schema_source_lookup (built, APP_ID, FALSE)) == NULL)
            g_error ("The settings schema %s is neither installed nor in %s: run `meson install` or the build "
                     "tree's program (%s)", APP_ID, SEXTANT_BUILD_SCHEMA_DIR,
                     error != NULL ? error->message : "not compiled there");
        }
      settings = g_settings_new_full (schema, NULL, NULL);
    }

  return settings;
}

/**
 * sextant_settings_dup_parameters:
 *
 * Returns: (transfer full): the pattern parameters the user set
 * (`pattern-parameters`), as `sextant analyze --param` takes them:
 * "name=value" or "pattern.name=value", the former first (applied in
 * this order, a pattern's own value wins)
 */
char **
sextant_settings_dup_parameters (GSettings *settings)
{
  g_autoptr(GVariant) overrides = g_settings_get_value (settings, "pattern-parameters");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GVariantIter iter;
  const char *name;
  double value;

  /* the names for every pattern first: a pattern's own value wins */
  for (guint pass = 0; pass < 2; pass++)
    {
      g_variant_iter_init (&iter, overrides);
      while (g_variant_iter_next (&iter, "{&sd}", &name, &value))
        {
          char text[G_ASCII_DTOSTR_BUF_SIZE];
          g_autofree char *assignment = NULL;

          if ((strchr (name, '.') != NULL) != (pass == 1))
            continue;
          /* 15 digits: what the user typed, without the binary noise of µs -> s */
          assignment = g_strdup_printf ("%s=%s", name, g_ascii_formatd (text, sizeof text, "%.15g", value));
          g_strv_builder_add (builder, assignment);
        }
    }

  return g_strv_builder_end (builder);
}
