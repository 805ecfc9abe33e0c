/*
 * sextant-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

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
