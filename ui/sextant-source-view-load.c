/*
 * sextant-source-view-load.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a SextantSourceView's GTask thread does for a show(): finds the
 * file the trace names under the source folders, reads it unless it is
 * the one shown and unchanged (same etag), makes it UTF-8 and guesses its
 * content type.
 */
#include "config.h"

#include <string.h>

#include "sextant-source-view-private.h"

/* bigger files are not shown: no hand-written source is that big, and
 * the buffer would take a second of the main thread (in pieces) and ten
 * times its size in memory */
#define MAX_SIZE (16 * 1024 * 1024)
/* bytes the content type is guessed from */
#define SNIFF_SIZE 4096

void
_sextant_source_view_request_free (Request *request)
{
  g_free (request->file);
  g_strfreev (request->roots);
  g_free (request->shown_path);
  g_free (request->shown_etag);
  g_free (request);
}

void
_sextant_source_view_loaded_free (Loaded *loaded)
{
  g_free (loaded->path);
  g_free (loaded->etag);
  g_free (loaded->text);
  g_free (loaded->content_type);
  g_free (loaded);
}

/* Where @file is here: as recorded, else under one of @roots the longest
 * trailing part of it that exists there (/home/u/proj/src/a.c under R:
 * R/home/u/proj/src/a.c, R/u/proj/src/a.c, ..., R/a.c). A longer part
 * under any root beats a shorter one, as it says more about the file;
 * among equally long ones the first root wins. Blocking: a few stat()s
 * per component and root. */
static char *
find_source (const char         *file,
             const char * const *roots,
             GCancellable       *cancellable)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  if (g_file_test (file, G_FILE_TEST_IS_REGULAR))
    return g_strdup (file);
  if (roots == NULL)
    return NULL;

  /* the path's names, whichever system wrote it */
  parts = g_strsplit_set (file, "/\\", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (*parts[i] != '\0' && strcmp (parts[i], ".") != 0 && strcmp (parts[i], "..") != 0)
      g_ptr_array_add (names, parts[i]);

  for (guint first = 0; first < names->len; first++)
    for (guint r = 0; roots[r] != NULL; r++)
      {
        g_autoptr(GPtrArray) elements = g_ptr_array_new ();
        g_autofree char *candidate = NULL;

        if (g_cancellable_is_cancelled (cancellable))
          return NULL;
        if (*roots[r] == '\0')
          continue;
        g_ptr_array_add (elements, (gpointer)roots[r]);
        for (guint i = first; i < names->len; i++)
          g_ptr_array_add (elements, names->pdata[i]);
        g_ptr_array_add (elements, NULL);
        candidate = g_build_filenamev ((char **)elements->pdata);
        if (g_file_test (candidate, G_FILE_TEST_IS_REGULAR))
          return g_steal_pointer (&candidate);
      }

  return NULL;
}

/* In a GTask thread: finds and reads the file */
void
_sextant_source_view_load_thread (GTask        *task,
                                  gpointer      source_object,
                                  gpointer      task_data,
                                  GCancellable *cancellable)
{
  Request *request = task_data;
  g_autoptr(Loaded) loaded = g_new0 (Loaded, 1);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  loaded->path = find_source (request->file, (const char * const *)request->roots, cancellable);
  if (g_task_return_error_if_cancelled (task))
    return;
  if (loaded->path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "not found");
      return;
    }

  file = g_file_new_for_path (loaded->path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_ETAG_VALUE "," G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, cancellable, &error);
  if (info == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_file_info_get_size (info) > MAX_SIZE)
    {
      g_autofree char *size = g_format_size (g_file_info_get_size (info));

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s, too big to show", loaded->path, size);
      return;
    }
  if (g_strcmp0 (loaded->path, request->shown_path) == 0 && request->shown_etag != NULL &&
      g_strcmp0 (g_file_info_get_etag (info), request->shown_etag) == 0)
    {
      loaded->etag = g_strdup (request->shown_etag);
      g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify)_sextant_source_view_loaded_free);
      return;
    }

  if (!g_file_load_contents (file, cancellable, &contents, &length, &loaded->etag, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (memchr (contents, '\0', length) != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a text file", loaded->path);
      return;
    }
  loaded->content_type = g_content_type_guess (loaded->path, (const guchar *)contents, MIN (length, SNIFF_SIZE),
                                               NULL);
  /* sources that are not UTF-8 are mostly Latin-1 (old Fortran, comments
   * in European languages), and every byte is a Latin-1 character */
  loaded->length = length;
  if (g_utf8_validate_len (contents, length, NULL))
    loaded->text = g_steal_pointer (&contents);
  else if ((loaded->text = g_convert (contents, length, "UTF-8", "ISO-8859-1", NULL, &loaded->length, &error)) ==
           NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify)_sextant_source_view_loaded_free);
}
