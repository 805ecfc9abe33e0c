/*
 * sextant-import-files.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The files around an import: the archive's anchor and its identity, the
 * meta that records them in the store and the check of a store against
 * them (a current store is reused), the default store path, and what a
 * killed import leaves beside the store.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sextant-anchor.h"
#include "sextant-import-private.h"
#include "sextant-importer.h"

/* The archive ------------------------------------------------------------ */

/**
 * sextant_archive_find_anchor:
 * @path: an anchor file (`*.otf2`) or the directory that holds one
 *
 * Returns: (transfer full): the anchor file, or %NULL with @error set
 */
char *
sextant_archive_find_anchor (const char  *path,
                             GError     **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autofree char *found = NULL;
  const char *name;
  guint n_found = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND,
                   "%s: no such file or directory", path);
      return NULL;
    }

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return sextant_anchor_read (path, NULL, error) ? g_strdup (path) : NULL;

  if (!(dir = g_dir_open (path, 0, error)))
    return NULL;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *full = g_build_filename (path, name, NULL);

      if (!g_str_has_suffix (name, ".otf2") || !g_file_test (full, G_FILE_TEST_IS_REGULAR))
        continue;
      n_found++;
      /* traces.otf2 wins if a directory holds several anchors */
      if (found == NULL || g_strcmp0 (name, "traces.otf2") == 0)
        {
          g_free (found);
          found = g_steal_pointer (&full);
        }
    }

  if (found == NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_ARCHIVE,
                   "%s: not an OTF2 archive (no anchor file *.otf2 in it)", path);
      return NULL;
    }
  if (n_found > 1 && !g_str_has_suffix (found, G_DIR_SEPARATOR_S "traces.otf2"))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_ARGUMENT,
                   "%s: holds %u anchor files; name the one to import", path, n_found);
      return NULL;
    }
  if (!sextant_anchor_read (found, NULL, error))
    return NULL;

  return g_steal_pointer (&found);
}

char *
_sextant_import_anchor_base_name (const char *anchor)
{
  g_autofree char *base = g_path_get_basename (anchor);

  if (g_str_has_suffix (base, ".otf2"))
    base[strlen (base) - strlen (".otf2")] = '\0';

  return g_steal_pointer (&base);
}

gboolean
sextant_path_is_store (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);

  return g_file_test (path, G_FILE_TEST_IS_REGULAR) && !g_str_has_suffix (path, ".otf2");
}

/**
 * sextant_archive_default_db_path:
 *
 * Returns: (transfer full): `<anchor name>.sextant.db` beside the anchor
 */
char *
sextant_archive_default_db_path (const char *anchor)
{
  g_autofree char *dir = g_path_get_dirname (anchor);
  g_autofree char *base = _sextant_import_anchor_base_name (anchor);
  g_autofree char *file = g_strconcat (base, ".sextant.db", NULL);

  return g_build_filename (dir, file, NULL);
}

void
_sextant_archive_identity_clear (SextantArchiveIdentity *id)
{
  g_clear_pointer (&id->anchor_abs, g_free);
  g_clear_pointer (&id->definitions_sha256, g_free);
}

gboolean
_sextant_import_read_identity (const char              *anchor,
                               const char              *defs,
                               SextantArchiveIdentity  *id,
                               GError                 **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GError) local_error = NULL;
  GStatBuf st;

  if (g_stat (anchor, &st) != 0)
    {
      int errsv = errno;

      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND,
                   "%s: %s", anchor, g_strerror (errsv));
      return FALSE;
    }

  if (!(mapped = g_mapped_file_new (defs, FALSE, &local_error)))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR,
                   g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT)
                     ? SEXTANT_TRACE_ERROR_NOT_FOUND : SEXTANT_TRACE_ERROR_CORRUPT,
                   "%s: the archive's global definitions cannot be read: %s",
                   defs, local_error->message);
      return FALSE;
    }

  id->anchor_abs = g_canonicalize_filename (anchor, NULL);
  id->anchor_size = st.st_size;
  id->anchor_mtime = st.st_mtime;
  id->definitions_sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                        (const guchar *)g_mapped_file_get_contents (mapped),
                                                        g_mapped_file_get_length (mapped));
  return TRUE;
}

/* Whether @db_path is a complete store of this archive in its current state. */
gboolean
_sextant_import_store_is_current (const char                   *db_path,
                                  const SextantArchiveIdentity *id)
{
  g_autoptr(SextantStore) store = NULL;
  g_autofree char *size = NULL;
  g_autofree char *mtime = NULL;
  g_autofree char *sha = NULL;
  g_autofree char *complete = NULL;

  if (!g_file_test (db_path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  if (!(store = sextant_store_open (db_path, NULL)))
    return FALSE;

  size = sextant_store_get_meta (store, "anchor_size");
  mtime = sextant_store_get_meta (store, "anchor_mtime");
  sha = sextant_store_get_meta (store, "definitions_sha256");
  complete = sextant_store_get_meta (store, "import_complete");

  /* (sextant_store_open() refused a store of another schema) */
  return complete != NULL && size != NULL && mtime != NULL && sha != NULL &&
         g_ascii_strtoll (size, NULL, 10) == id->anchor_size &&
         g_ascii_strtoll (mtime, NULL, 10) == id->anchor_mtime &&
         g_str_equal (sha, id->definitions_sha256);
}

gboolean
_sextant_import_write_meta (SextantImport                 *import,
                            const SextantArchiveIdentity  *id,
                            GError                       **error)
{
  g_autofree char *creator = NULL;   /* malloc()ed by libotf2 */
  g_autofree char *valid_creator = NULL;
  uint8_t major = 0, minor = 0, bugfix = 0;
  g_autofree char *otf2_version = NULL;
  g_autofree char *now = NULL;
  g_autoptr(GDateTime) dt = g_date_time_new_now_utc ();
  g_autofree char *schema = sextant_store_schema_checksum ();
  SextantStore *store = import->store;

  OTF2_Reader_GetVersion (import->reader, &major, &minor, &bugfix);
  otf2_version = g_strdup_printf ("%u.%u.%u", major, minor, bugfix);
  OTF2_Reader_GetCreator (import->reader, &creator);
  valid_creator = _sextant_import_valid_utf8 (import, creator, "creator in the anchor file");
  now = g_date_time_format_iso8601 (dt);

  return sextant_store_run (store, SEXTANT_STMT_META, error, "ti", "schema_version",
                            (gint64)SEXTANT_SCHEMA_VERSION_CURRENT) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "tt", "tool_version", PACKAGE_VERSION) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "tt", "schema_checksum", schema) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "tt", "archive_path", id->anchor_abs) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "tt", "archive_name", import->archive_name) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "ti", "anchor_size", id->anchor_size) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "ti", "anchor_mtime", id->anchor_mtime) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "tt", "definitions_sha256",
                            id->definitions_sha256) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "tt", "otf2_version", otf2_version) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "tt", "creator", valid_creator) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "ti", "resolution", (gint64)import->resolution) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "ti", "global_offset",
                            (gint64)import->global_offset) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "ti", "trace_length",
                            (gint64)import->trace_length) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "ti", "clock_properties",
                            (gint64)import->have_clock) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "ti", "events", (gint64)import->events_read) &&
         sextant_store_run (store, SEXTANT_STMT_META, error, "tt", "imported_at", now);
}

/**
 * sextant_store_remove_files:
 *
 * Removes the store file @path and SQLite's files beside it.
 */
void
sextant_store_remove_files (const char *path)
{
  static const char * const suffixes[] = { "", "-journal", "-wal", "-shm" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *file = g_strconcat (path, suffixes[i], NULL);

      g_unlink (file);
    }
}

/* The files an import leaves when it is killed (SIGKILL, a power cut): its
 * temporary store `DB.XXXXXX` (with SQLite's -journal, -wal, -shm), and,
 * if it died between the two renames that put the new store in place, the
 * old store moved aside as `DB.XXXXXX-old`. A live import holds an flock()
 * on its temporary store, so one that can be locked is a dead import's:
 * its files are removed, and an old store moved aside goes back into place
 * if no store took it. Run before every import into @db_path. */
void
_sextant_import_remove_stale_temporaries (const char *db_path)
{
  g_autofree char *dir_path = g_path_get_dirname (db_path);
  g_autofree char *base = g_path_get_basename (db_path);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gsize base_len = strlen (base);
  GHashTableIter iter;
  gpointer key;
  const char *name;

  if (dir == NULL)
    return;

  /* `base.` + the 6 characters of mkstemp(), then one of the suffixes */
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      const char *rest = name + base_len + 1;

      if (strncmp (name, base, base_len) != 0 || name[base_len] != '.' || strlen (rest) < 6)
        continue;
      if (rest[6] == '\0' || strcmp (rest + 6, "-journal") == 0 || strcmp (rest + 6, "-wal") == 0 ||
          strcmp (rest + 6, "-shm") == 0 || strcmp (rest + 6, "-old") == 0)
        g_hash_table_add (keys, g_strndup (name, base_len + 1 + 6));
    }

  g_hash_table_iter_init (&iter, keys);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *tmp = g_build_filename (dir_path, key, NULL);
      g_autofree char *old = g_strconcat (tmp, "-old", NULL);
      int fd = g_open (tmp, O_RDONLY | O_CLOEXEC, 0);

      if (fd >= 0 && flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          close (fd);     /* a live import's */
          continue;
        }
      if (fd >= 0)
        close (fd);
      if (g_file_test (old, G_FILE_TEST_EXISTS) && !g_file_test (db_path, G_FILE_TEST_EXISTS))
        g_rename (old, db_path);
      else
        g_unlink (old);
      sextant_store_remove_files (tmp);
      g_debug ("removed what a killed import left: %s", tmp);
    }
}
