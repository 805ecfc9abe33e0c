/* otf2gen-writer.c - archive boilerplate for sextant-otf2gen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Workload: the test archives are tiny (hundreds of records), so everything
 * stays in OTF2's default in-memory chunks until OTF2_Archive_Close; no
 * memory callbacks, no BufferFlush records of OTF2's own (the post-flush
 * callback is NULL), one process writing serially.
 */

#include "config.h"

#include "otf2gen-writer.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

/* Chunk sizes handed to OTF2_Archive_Open: OTF2's usual values. */
#define SEXTANT_GEN_EVENT_CHUNK_SIZE (1024 * 1024)
#define SEXTANT_GEN_DEF_CHUNK_SIZE   (4 * 1024 * 1024)

/* In OTF2 3.0's event files a record's time is a one-byte timestamp token
 * followed by the 8-byte timestamp in the writer's byte order, written only
 * when the time changes (OTF2_BUFFER_TIMESTAMP, private to libotf2; checked
 * against this version's output by the every-kind and disorder tests). */
#define SEXTANT_GEN_OTF2_TIMESTAMP_TOKEN 0x05

G_DEFINE_QUARK (sextant-otf2gen-error-quark, sextant_gen_error)

static OTF2_FlushType
sextant_gen_pre_flush (void             *user_data,
                       OTF2_FileType     file_type,
                       OTF2_LocationRef  location,
                       void             *caller_data,
                       bool              final)
{
  return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks sextant_gen_flush_callbacks = {
  .otf2_pre_flush = sextant_gen_pre_flush,
  .otf2_post_flush = NULL,   /* no automatic BUFFER_FLUSH records */
};

void
sextant_gen_fail (SextantGen      *gen,
                  SextantGenError  code,
                  const char      *format,
                  ...)
{
  va_list args;

  if (gen->error != NULL)
    return;

  va_start (args, format);
  gen->error = g_error_new_valist (SEXTANT_GEN_ERROR, code, format, args);
  va_end (args);
}

gboolean
sextant_gen_check (SextantGen     *gen,
                   OTF2_ErrorCode  status,
                   const char     *what)
{
  if (status == OTF2_SUCCESS)
    return TRUE;

  sextant_gen_fail (gen, SEXTANT_GEN_ERROR_OTF2, "%s: %s (%s)",
                    what, OTF2_Error_GetName (status), OTF2_Error_GetDescription (status));
  return FALSE;
}

/* Removes OUTDIR/NAME.otf2, OUTDIR/NAME.def and the flat directory OUTDIR/NAME. */
static gboolean
sextant_gen_remove_archive (const char  *outdir,
                            const char  *archive_name,
                            GError     **error)
{
  g_autofree char *anchor_name = g_strconcat (archive_name, ".otf2", NULL);
  g_autofree char *defs_name = g_strconcat (archive_name, ".def", NULL);
  g_autofree char *anchor = g_build_filename (outdir, anchor_name, NULL);
  g_autofree char *defs = g_build_filename (outdir, defs_name, NULL);
  g_autofree char *dir = g_build_filename (outdir, archive_name, NULL);
  const char *files[] = { anchor, defs };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      if (g_remove (files[i]) != 0 && errno != ENOENT)
        {
          int errsv = errno;
          g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_IO,
                       "cannot remove %s: %s", files[i], g_strerror (errsv));
          return FALSE;
        }
    }

  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) d = g_dir_open (dir, 0, error);
      const char *name;

      if (d == NULL)
        return FALSE;

      while ((name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);

          if (g_remove (path) != 0)
            {
              int errsv = errno;
              g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_IO,
                           "cannot remove %s: %s", path, g_strerror (errsv));
              return FALSE;
            }
        }

      if (g_rmdir (dir) != 0)
        {
          int errsv = errno;
          g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_IO,
                       "cannot remove %s: %s", dir, g_strerror (errsv));
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
sextant_gen_archive_exists (const char *outdir,
                            const char *archive_name)
{
  g_autofree char *anchor_name = g_strconcat (archive_name, ".otf2", NULL);
  g_autofree char *anchor = g_build_filename (outdir, anchor_name, NULL);
  g_autofree char *dir = g_build_filename (outdir, archive_name, NULL);

  return g_file_test (anchor, G_FILE_TEST_EXISTS) || g_file_test (dir, G_FILE_TEST_EXISTS);
}

SextantGen *
sextant_gen_new (const char  *outdir,
                 const char  *archive_name,
                 gboolean     force,
                 GError     **error)
{
  g_autoptr(SextantGen) gen = NULL;
  g_autofree char *anchor_name = NULL;

  g_return_val_if_fail (outdir != NULL, NULL);
  g_return_val_if_fail (archive_name != NULL, NULL);

  if (sextant_gen_archive_exists (outdir, archive_name))
    {
      if (!force)
        {
          g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_EXISTS,
                       "archive \"%s\" already exists in %s (use --force to replace it)",
                       archive_name, outdir);
          return NULL;
        }

      if (!sextant_gen_remove_archive (outdir, archive_name, error))
        return NULL;
    }

  if (g_mkdir_with_parents (outdir, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_IO,
                   "cannot create %s: %s", outdir, g_strerror (errsv));
      return NULL;
    }

  gen = g_new0 (SextantGen, 1);
  gen->outdir = g_strdup (outdir);
  gen->archive_name = g_strdup (archive_name);
  gen->ts_patches = g_array_new (FALSE, FALSE, sizeof (SextantGenTsPatch));
  gen->locations = g_ptr_array_new_with_free_func (g_free);
  gen->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  anchor_name = g_strconcat (archive_name, ".otf2", NULL);
  gen->anchor_path = g_build_filename (outdir, anchor_name, NULL);

  gen->archive = OTF2_Archive_Open (outdir, archive_name, OTF2_FILEMODE_WRITE,
                                    SEXTANT_GEN_EVENT_CHUNK_SIZE, SEXTANT_GEN_DEF_CHUNK_SIZE,
                                    OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (gen->archive == NULL)
    {
      g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_OTF2,
                   "OTF2_Archive_Open (%s, %s) failed", outdir, archive_name);
      return NULL;
    }

  sextant_gen_check (gen, OTF2_Archive_SetFlushCallbacks (gen->archive, &sextant_gen_flush_callbacks, NULL),
                     "OTF2_Archive_SetFlushCallbacks");
  sextant_gen_check (gen, OTF2_Archive_SetSerialCollectiveCallbacks (gen->archive),
                     "OTF2_Archive_SetSerialCollectiveCallbacks");
  sextant_gen_check (gen, OTF2_Archive_SetCreator (gen->archive, "sextant-otf2gen " PACKAGE_VERSION),
                     "OTF2_Archive_SetCreator");
  sextant_gen_check (gen, OTF2_Archive_OpenEvtFiles (gen->archive), "OTF2_Archive_OpenEvtFiles");

  if (gen->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&gen->error));
      return NULL;
    }

  return g_steal_pointer (&gen);
}

void
sextant_gen_free (SextantGen *gen)
{
  if (gen == NULL)
    return;

  /* An archive left open by a failed scenario is still closed, so that OTF2
   * releases its buffers; what it leaves on disk is incomplete anyway. */
  if (gen->archive != NULL)
    OTF2_Archive_Close (gen->archive);

  g_clear_pointer (&gen->locations, g_ptr_array_unref);
  g_clear_pointer (&gen->strings, g_hash_table_unref);
  g_clear_pointer (&gen->ts_patches, g_array_unref);
  g_clear_error (&gen->error);
  g_free (gen->outdir);
  g_free (gen->archive_name);
  g_free (gen->anchor_path);
  g_free (gen);
}

SextantGenLocation *
sextant_gen_add_location (SextantGen       *gen,
                          OTF2_LocationRef  id)
{
  SextantGenLocation *loc;

  g_return_val_if_fail (gen != NULL, NULL);
  g_return_val_if_fail (gen->defs == NULL, NULL);

  loc = g_new0 (SextantGenLocation, 1);
  loc->id = id;
  loc->writer = OTF2_Archive_GetEvtWriter (gen->archive, id);
  if (loc->writer == NULL)
    sextant_gen_fail (gen, SEXTANT_GEN_ERROR_OTF2,
                      "OTF2_Archive_GetEvtWriter (%" G_GUINT64_FORMAT ") failed", (guint64) id);
  g_ptr_array_add (gen->locations, loc);

  return loc;
}

OTF2_TimeStamp
sextant_gen_backwards_ts (SextantGen         *gen,
                          SextantGenLocation *loc,
                          OTF2_TimeStamp      ts)
{
  SextantGenTsPatch patch;

  if (loc->n_events == 0 || ts >= loc->last_ts)
    return ts;

  patch.location = loc->id;
  patch.placeholder = loc->last_ts + 1;
  patch.ts = ts;
  g_array_append_val (gen->ts_patches, patch);

  return patch.placeholder;
}

void
sextant_gen_event_done (SextantGen         *gen,
                        SextantGenLocation *loc,
                        OTF2_TimeStamp      ts,
                        OTF2_ErrorCode      status,
                        const char         *kind)
{
  if (!sextant_gen_check (gen, status, kind))
    return;

  if (loc->n_events > 0 && ts < loc->last_ts)
    sextant_gen_fail (gen, SEXTANT_GEN_ERROR_ORDER,
                      "location %" G_GUINT64_FORMAT ": %s at %" G_GUINT64_FORMAT
                      " is before the previous record at %" G_GUINT64_FORMAT,
                      (guint64) loc->id, kind, (guint64) ts, (guint64) loc->last_ts);

  loc->last_ts = ts;
  loc->n_events++;
}

static void
sextant_gen_write_string_def (SextantGen     *gen,
                              OTF2_StringRef  ref,
                              const char     *str)
{
  SEXTANT_GEN_DEF (gen, String, ref, str);
}

OTF2_StringRef
sextant_gen_string (SextantGen *gen,
                    const char *str)
{
  gpointer value;
  OTF2_StringRef ref;

  g_return_val_if_fail (str != NULL, OTF2_UNDEFINED_STRING);

  if (g_hash_table_lookup_extended (gen->strings, str, NULL, &value))
    return GPOINTER_TO_UINT (value) - 1;

  /* Strings used by events (program name, string parameters) get their id
   * now and their definition when the global definitions are opened. */
  ref = g_hash_table_size (gen->strings);
  g_hash_table_insert (gen->strings, g_strdup (str), GUINT_TO_POINTER (ref + 1));
  if (gen->defs != NULL)
    sextant_gen_write_string_def (gen, ref, str);

  return ref;
}

OTF2_StringRef
sextant_gen_string_or_undef (SextantGen *gen,
                             const char *str)
{
  return str != NULL ? sextant_gen_string (gen, str) : OTF2_UNDEFINED_STRING;
}

void
sextant_gen_begin_definitions (SextantGen *gen)
{
  g_autofree const char **pending = NULL;
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  guint n_pending;

  g_return_if_fail (gen->defs == NULL);

  for (guint i = 0; i < gen->locations->len; i++)
    {
      SextantGenLocation *loc = g_ptr_array_index (gen->locations, i);
      uint64_t n_otf2 = 0;

      if (loc->writer == NULL)
        continue;

      sextant_gen_check (gen, OTF2_EvtWriter_GetNumberOfEvents (loc->writer, &n_otf2),
                         "OTF2_EvtWriter_GetNumberOfEvents");
      if (n_otf2 != loc->n_events)
        sextant_gen_fail (gen, SEXTANT_GEN_ERROR_COUNT,
                          "location %" G_GUINT64_FORMAT ": OTF2 counted %" G_GUINT64_FORMAT
                          " events, we wrote %" G_GUINT64_FORMAT,
                          (guint64) loc->id, (guint64) n_otf2, loc->n_events);
      sextant_gen_check (gen, OTF2_Archive_CloseEvtWriter (gen->archive, loc->writer),
                         "OTF2_Archive_CloseEvtWriter");
      loc->writer = NULL;
    }
  sextant_gen_check (gen, OTF2_Archive_CloseEvtFiles (gen->archive), "OTF2_Archive_CloseEvtFiles");

  /* One (empty) local definition file per location: no mapping tables, no
   * clock offsets, so the reader sees the written timestamps unchanged. */
  sextant_gen_check (gen, OTF2_Archive_OpenDefFiles (gen->archive), "OTF2_Archive_OpenDefFiles");
  for (guint i = 0; i < gen->locations->len; i++)
    {
      SextantGenLocation *loc = g_ptr_array_index (gen->locations, i);
      OTF2_DefWriter *local = OTF2_Archive_GetDefWriter (gen->archive, loc->id);

      if (local == NULL)
        {
          sextant_gen_fail (gen, SEXTANT_GEN_ERROR_OTF2,
                            "OTF2_Archive_GetDefWriter (%" G_GUINT64_FORMAT ") failed", (guint64) loc->id);
          continue;
        }
      sextant_gen_check (gen, OTF2_Archive_CloseDefWriter (gen->archive, local),
                         "OTF2_Archive_CloseDefWriter");
    }
  sextant_gen_check (gen, OTF2_Archive_CloseDefFiles (gen->archive), "OTF2_Archive_CloseDefFiles");

  gen->defs = OTF2_Archive_GetGlobalDefWriter (gen->archive);
  if (gen->defs == NULL)
    {
      sextant_gen_fail (gen, SEXTANT_GEN_ERROR_OTF2, "OTF2_Archive_GetGlobalDefWriter failed");
      return;
    }

  /* Strings interned while writing events, in id order. */
  n_pending = g_hash_table_size (gen->strings);
  pending = g_new0 (const char *, n_pending);
  g_hash_table_iter_init (&iter, gen->strings);
  while (g_hash_table_iter_next (&iter, &key, &value))
    pending[GPOINTER_TO_UINT (value) - 1] = key;
  for (guint i = 0; i < n_pending; i++)
    sextant_gen_write_string_def (gen, i, pending[i]);
}

void
sextant_gen_write_clock (SextantGen *gen,
                         guint64     resolution,
                         guint64     global_offset,
                         guint64     trace_length,
                         guint64     realtime_ns)
{
  SEXTANT_GEN_DEF (gen, ClockProperties, resolution, global_offset, trace_length, realtime_ns);
}

/* Replaces the one timestamp record holding @patch->placeholder in the
 * location's event file by @patch->ts. */
static void
sextant_gen_apply_ts_patch (SextantGen              *gen,
                            const SextantGenTsPatch *patch)
{
  g_autofree char *file_name = g_strdup_printf ("%" G_GUINT64_FORMAT ".evt", (guint64) patch->location);
  g_autofree char *path = g_build_filename (gen->outdir, gen->archive_name, file_name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  guint8 needle[1 + sizeof (guint64)];
  guint64 value = patch->placeholder;
  gsize length = 0;
  gsize found = 0;
  guint n_found = 0;

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    {
      sextant_gen_fail (gen, SEXTANT_GEN_ERROR_IO, "%s", local_error->message);
      return;
    }

  needle[0] = SEXTANT_GEN_OTF2_TIMESTAMP_TOKEN;
  memcpy (needle + 1, &value, sizeof value);
  for (gsize i = 0; i + sizeof needle <= length; i++)
    {
      if (memcmp (contents + i, needle, sizeof needle) == 0)
        {
          found = i;
          n_found++;
        }
    }

  if (n_found != 1)
    {
      sextant_gen_fail (gen, SEXTANT_GEN_ERROR_IO,
                        "%s: found the placeholder timestamp %" G_GUINT64_FORMAT " %u times, expected once",
                        path, value, n_found);
      return;
    }

  value = patch->ts;
  memcpy (contents + found + 1, &value, sizeof value);
  if (!g_file_set_contents (path, contents, length, &local_error))
    sextant_gen_fail (gen, SEXTANT_GEN_ERROR_IO, "%s", local_error->message);
}

gboolean
sextant_gen_finish (SextantGen  *gen,
                    GError     **error)
{
  OTF2_Archive *archive = g_steal_pointer (&gen->archive);

  g_return_val_if_fail (gen->defs != NULL || gen->error != NULL, FALSE);

  sextant_gen_check (gen, OTF2_Archive_Close (archive), "OTF2_Archive_Close");
  gen->defs = NULL;

  for (guint i = 0; gen->error == NULL && i < gen->ts_patches->len; i++)
    sextant_gen_apply_ts_patch (gen, &g_array_index (gen->ts_patches, SextantGenTsPatch, i));

  if (gen->error != NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&gen->error), "%s: ", gen->anchor_path);
      return FALSE;
    }

  return TRUE;
}
