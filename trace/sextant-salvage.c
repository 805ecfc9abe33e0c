/*
 * sextant-salvage.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Importing a recording whose run never reached MPI_Finalize: the recorder
 * left no anchor file but its crash journal, DIR/journal/ (docs/recorder.md,
 * "What survives a crash"). The importer hands such a directory to
 * `sextant-record-salvage DIR TMP`, which rebuilds a complete OTF2 archive
 * in a new temporary directory TMP (the recording is only read) and lists
 * per location what it salvaged and what was lost in TMP/salvage.txt; the
 * importer imports TMP/traces.otf2 like any archive, turns salvage.txt into
 * `salvaged` and `lost` rows of import_log, and removes TMP at the end.
 *
 * The salvage program is found as $SEXTANT_RECORD_SALVAGE, beside the
 * running executable, in the build tree, in the install prefix, or on PATH.
 *
 * Workload: one child process per import of a crashed recording, linear in
 * its event data; salvage.txt holds a few lines per location.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "sextant-salvage.h"
#include "sextant-trace-error.h"

#define SALVAGE_PROGRAM "sextant-record-salvage"

/**
 * _sextant_salvage_needed:
 * @path: what the user asked to import
 *
 * Returns: whether @path is a directory without an anchor file but with a
 *   crash journal
 */
gboolean
_sextant_salvage_needed (const char *path)
{
  g_autofree char *journal = g_build_filename (path, "journal", NULL);
  g_autofree char *anchor = g_build_filename (path, "traces.otf2", NULL);

  return g_file_test (path, G_FILE_TEST_IS_DIR) && g_file_test (journal, G_FILE_TEST_IS_DIR) &&
         !g_file_test (anchor, G_FILE_TEST_EXISTS);
}

static char *
find_program (void)
{
  const char *env = g_getenv ("SEXTANT_RECORD_SALVAGE");
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  char *candidate;

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);
  if (exe != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (exe);

      candidate = g_build_filename (dir, SALVAGE_PROGRAM, NULL);
      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE))
        return candidate;
      g_free (candidate);
    }
#ifdef SEXTANT_SALVAGE_BUILD_PATH
  if (g_file_test (SEXTANT_SALVAGE_BUILD_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (SEXTANT_SALVAGE_BUILD_PATH);
#endif
#ifdef SEXTANT_SALVAGE_INSTALL_PATH
  if (g_file_test (SEXTANT_SALVAGE_INSTALL_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (SEXTANT_SALVAGE_INSTALL_PATH);
#endif
  return g_find_program_in_path (SALVAGE_PROGRAM);
}

/**
 * _sextant_salvage_archive:
 * @path: a recording directory for which _sextant_salvage_needed() holds
 * @tmp_dir: (out) (transfer full): the temporary directory made, to be
 *   removed with _sextant_salvage_remove() (also set on failure)
 *
 * Runs the salvage into a new temporary directory.
 *
 * Returns: (transfer full): the salvaged archive's anchor, or %NULL with
 *   @error set
 */
char *
_sextant_salvage_archive (const char  *path,
                          char       **tmp_dir,
                          GError     **error)
{
  g_autofree char *program = find_program ();
  g_autofree char *err_text = NULL;
  g_autoptr(GError) local_error = NULL;
  char *anchor;
  int status = 0;

  *tmp_dir = NULL;
  if (program == NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_ARCHIVE,
                   "%s: a recording that did not finish (it holds a crash journal); salvaging it needs "
                   SALVAGE_PROGRAM ", which was not found (set SEXTANT_RECORD_SALVAGE)", path);
      return NULL;
    }
  if ((*tmp_dir = g_dir_make_tmp ("sextant-salvage-XXXXXX", error)) == NULL)
    return NULL;
  {
    const char *argv[] = { program, path, *tmp_dir, NULL };

    if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                       &err_text, &status, &local_error) ||
        !g_spawn_check_wait_status (status, &local_error))
      {
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                     "%s: the crash journal cannot be salvaged: %s%s%s", path, local_error->message,
                     err_text != NULL && err_text[0] != '\0' ? ": " : "",
                     err_text != NULL ? g_strstrip (err_text) : "");
        return NULL;
      }
  }
  anchor = g_build_filename (*tmp_dir, "traces.otf2", NULL);
  g_debug ("salvaged %s into %s", path, anchor);
  return anchor;
}

/**
 * _sextant_salvage_log:
 * @import: an import whose archive may be a salvaged one
 *
 * Turns the salvage's report beside the anchor (if any) into import_log
 * entries `salvaged` and `lost`, with the location and time each names.
 */
void
_sextant_salvage_log (SextantImport *import)
{
  g_autofree char *path = g_build_filename (import->archive_dir, "salvage.txt", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  /* one line per kind and location (the salvage joins several messages) */
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], "\t", 4);
      gint64 loc = SEXTANT_NULL, time = SEXTANT_NULL;
      guint64 value;

      if (g_strv_length (f) != 4 || (strcmp (f[0], "salvaged") != 0 && strcmp (f[0], "lost") != 0))
        continue;
      if (g_ascii_string_to_unsigned (f[1], 10, 0, G_MAXUINT64, &value, NULL))
        {
          gint32 index = _sextant_import_loc_index (import, value);

          if (index >= 0)
            loc = index;
        }
      if (g_ascii_string_to_unsigned (f[2], 10, 0, G_MAXUINT64, &value, NULL) && value > 0)
        time = value >= import->global_offset ? (gint64) (value - import->global_offset) : 0;
      _sextant_import_log (import, f[0], loc, time, "%s", f[3]);
    }
}

/**
 * _sextant_salvage_remove:
 * @tmp_dir: (inout) (nullable): a directory of _sextant_salvage_archive()
 *
 * Removes the salvaged archive and the directory, and clears *@tmp_dir.
 */
void
_sextant_salvage_remove (char **tmp_dir)
{
  g_autoptr(GDir) dir = NULL;
  g_autofree char *traces = NULL;
  const char *name;

  if (*tmp_dir == NULL)
    return;
  traces = g_build_filename (*tmp_dir, "traces", NULL);
  for (int pass = 0; pass < 2; pass++)
    {
      const char *where = pass == 0 ? traces : *tmp_dir;

      if ((dir = g_dir_open (where, 0, NULL)) != NULL)
        {
          while ((name = g_dir_read_name (dir)) != NULL)
            {
              g_autofree char *full = g_build_filename (where, name, NULL);

              g_remove (full);
            }
          g_clear_pointer (&dir, g_dir_close);
        }
    }
  g_rmdir (*tmp_dir);
  g_clear_pointer (tmp_dir, g_free);
}
