/*
 * sextant-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/wait.h>

#include "sextant-importer.h"
#include "sextant-test-util.h"

SextantStore *
sextant_test_import (const char  *archive,
                     char       **tmpdir)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *db = NULL;
  g_autoptr(SextantImporter) importer = NULL;
  SextantStore *store;

  *tmpdir = g_dir_make_tmp ("sextant-test-XXXXXX", &error);
  g_assert_no_error (error);
  db = g_build_filename (*tmpdir, "t.db", NULL);
  importer = sextant_importer_new (archive, db);
  g_assert_true (sextant_importer_run (importer, NULL, &error));
  g_assert_no_error (error);
  store = sextant_store_open (db, &error);
  g_assert_no_error (error);

  return store;
}

typedef struct
{
  GArray   *ids;
  gboolean  all;
} Locations;

static gboolean
add_location (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  Locations *locations = user_data;
  gint64 id = sextant_row_get_int (row, 0);

  if (locations->all || sextant_row_get_int (row, 6) > 0)
    g_array_append_val (locations->ids, id);

  return TRUE;
}

GArray *
sextant_test_locations (SextantStore *store,
                        gboolean      all)
{
  Locations locations = { g_array_new (FALSE, FALSE, sizeof (gint64)), all };
  g_autoptr(GError) error = NULL;

  g_assert_true (sextant_store_foreach (store, SEXTANT_QUERY_LOCATIONS, add_location, &locations, &error, ""));
  g_assert_no_error (error);

  return locations.ids;
}

void
sextant_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        sextant_test_remove_tree (child);
      }
  g_remove (path);
}

void
sextant_test_copy_tree (const char *from,
                        const char *to)
{
  const char *cp[] = { "cp", "-r", from, to, NULL };
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **)cp, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

int
sextant_test_run_sextant (const char * const *args,
                          char              **err)
{
  const char *sextant = g_getenv ("SEXTANT");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_nonnull (sextant);
  g_ptr_array_add (argv, (char *)sextant);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *)args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **)argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, err,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));

  return WEXITSTATUS (status);
}

void
sextant_test_spawn (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

char *
sextant_test_otf2gen (const char *scenario,
                      const char *dir)
{
  const char *argv[] = { g_getenv ("SEXTANT_OTF2GEN"), scenario, dir, NULL };

  sextant_test_spawn (argv);

  return g_build_filename (dir, "traces.otf2", NULL);
}

gint64
sextant_test_meta_int (SextantStore *store,
                       const char   *key)
{
  g_autofree char *text = sextant_store_get_meta (store, key);

  g_assert_nonnull (text);

  return g_ascii_strtoll (text, NULL, 10);
}

gboolean
sextant_test_take_int (const SextantRow  *row,
                       gpointer           user_data,
                       GError           **error)
{
  *(gint64 *)user_data = sextant_row_is_null (row, 0) ? 0 : sextant_row_get_int (row, 0);

  return TRUE;
}

gint64
sextant_test_query_int (SextantStore *store,
                        const char   *sql)
{
  g_autoptr(GError) error = NULL;
  gint64 value = -1;

  g_assert_true (sextant_store_foreach_sql (store, sql, sextant_test_take_int, &value, &error, ""));
  g_assert_no_error (error);

  return value;
}
