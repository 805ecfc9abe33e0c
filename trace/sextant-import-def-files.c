/*
 * sextant-import-def-files.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading an archive's definitions (step 2 of sextant-importer.c): the
 * global definitions, through the callbacks of sextant-import-defs.c; then
 * the locations and the communicators' ranks resolved and stored; then the
 * local definition files, which carry what the event readers apply.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "sextant-import-private.h"

/* After the definitions ----------------------------------------------------- */

static int
compare_locations (gconstpointer a,
                   gconstpointer b)
{
  const SextantLocationDef *x = a;
  const SextantLocationDef *y = b;

  return x->otf2_id < y->otf2_id ? -1 : x->otf2_id > y->otf2_id;
}

/* The locations' rows, many to an INSERT (4096 rows at 4096 locations, in
 * every shard of a parallel import) */
static gboolean
store_locations (SextantImport  *import,
                 GError        **error)
{
  guint n = import->locations->len;
  g_autofree SextantStoreValue *values = g_new (SextantStoreValue, 6 * (gsize)MAX (n, 1));

  g_array_sort (import->locations, compare_locations);

  for (guint i = 0; i < n; i++)
    {
      SextantLocationDef *def = &g_array_index (import->locations, SextantLocationDef, i);
      SextantStoreValue *row = values + 6 * (gsize)i;

      g_hash_table_insert (import->location_index, g_memdup2 (&def->otf2_id, sizeof def->otf2_id),
                           GINT_TO_POINTER (i));
      row[0].i = i;
      row[1].i = (gint64)def->otf2_id;
      row[2].t = def->name;
      row[3].t = sextant_otf2_location_type_name (def->type);
      row[4].i = _sextant_ref_or_null (def->group, OTF2_UNDEFINED_LOCATION_GROUP);
      row[5].i = (gint64)def->n_events;
    }

  return sextant_store_run_rows (import->store, SEXTANT_STMT_LOCATION, "iittni", values, n, error);
}

/* The group listing a paradigm's locations in rank order. */
static SextantGroupDef *
find_comm_locations (SextantImport *import,
                     OTF2_Paradigm  paradigm)
{
  GHashTableIter iter;
  gpointer value;
  SextantGroupDef *found = NULL;
  guint found_id = G_MAXUINT;
  gpointer key;

  g_hash_table_iter_init (&iter, import->groups);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      SextantGroupDef *def = value;

      if (def->type == OTF2_GROUP_TYPE_COMM_LOCATIONS && def->paradigm == paradigm &&
          GPOINTER_TO_UINT (key) < found_id)
        {
          found = def;
          found_id = GPOINTER_TO_UINT (key);
        }
    }

  return found;
}

/* Resolves every communicator's ranks to locations and stores them. */
static gboolean
resolve_comms (SextantImport  *import,
               GError        **error)
{
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (SextantStoreValue));

  g_hash_table_iter_init (&iter, import->comms);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      SextantCommDef *comm = value;
      SextantGroupDef *group = g_hash_table_lookup (import->groups, GUINT_TO_POINTER (comm->group));
      SextantGroupDef *world = NULL;

      if (group == NULL || comm->is_self)
        continue;

      if (group->type == OTF2_GROUP_TYPE_COMM_GROUP)
        {
          world = find_comm_locations (import, group->paradigm);
          if (world == NULL)
            {
              _sextant_import_log (import, "unresolved_communicator", SEXTANT_NULL, SEXTANT_NULL,
                                   "communicator %u: no COMM_LOCATIONS group of its paradigm; its "
                                   "messages cannot be matched", GPOINTER_TO_UINT (key));
              continue;
            }
        }
      else if (group->type != OTF2_GROUP_TYPE_COMM_LOCATIONS && group->type != OTF2_GROUP_TYPE_LOCATIONS)
        continue;

      comm->rank_loc = g_array_sized_new (FALSE, FALSE, sizeof (gint32), group->members->len);
      g_array_set_size (rows, 0);
      for (guint r = 0; r < group->members->len; r++)
        {
          guint64 member = g_array_index (group->members, guint64, r);
          gint32 loc = -1;

          if (world == NULL)
            loc = _sextant_import_loc_index (import, member);
          else if (member < world->members->len)
            loc = _sextant_import_loc_index (import, g_array_index (world->members, guint64, member));

          g_array_append_val (comm->rank_loc, loc);
          if (loc >= 0)
            {
              SextantStoreValue row[3] = { { .i = GPOINTER_TO_UINT (key) }, { .i = r }, { .i = loc } };

              g_array_append_vals (rows, row, 3);
            }
        }
      /* many to an INSERT: a communicator of 4096 locations is 4096 rows */
      if (rows->len > 0 &&
          !sextant_store_run_rows (import->store, SEXTANT_STMT_COMM_MEMBER, "iii",
                                   &g_array_index (rows, SextantStoreValue, 0), rows->len / 3, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
_sextant_import_read_definitions (SextantImport  *import,
                                  const char     *anchor,
                                  const char     *defs_path,
                                  GError        **error)
{
  g_autoptr(OTF2_GlobalDefReaderCallbacks) callbacks = _sextant_import_global_def_callbacks_new ();
  OTF2_GlobalDefReader *reader;
  uint64_t n_read = 0;
  uint64_t n_locations = 0;
  OTF2_ErrorCode status;

  if (!_sextant_import_otf2_check (OTF2_Reader_SetSerialCollectiveCallbacks (import->reader), anchor,
                                   "not a readable OTF2 archive", error) ||
      !_sextant_import_otf2_check (OTF2_Reader_GetNumberOfLocations (import->reader, &n_locations), anchor,
                                   "not a readable OTF2 archive", error))
    return FALSE;

  reader = OTF2_Reader_GetGlobalDefReader (import->reader);
  if (reader == NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "%s: cannot open the global definitions", defs_path);
      return FALSE;
    }

  OTF2_Reader_RegisterGlobalDefCallbacks (import->reader, reader, callbacks, import);
  status = OTF2_Reader_ReadAllGlobalDefinitions (import->reader, reader, &n_read);
  OTF2_Reader_CloseGlobalDefReader (import->reader, reader);
  if (import->error == NULL)
    _sextant_import_flush_def_rows (import);

  if (import->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&import->error));
      return FALSE;
    }
  if (!_sextant_import_otf2_check (status, defs_path, "cannot read the global definitions", error))
    return FALSE;

  if (!import->have_clock)
    _sextant_import_log (import, "no_clock_properties", SEXTANT_NULL, SEXTANT_NULL,
                         "no CLOCK_PROPERTIES definition: timestamps taken as 1 tick/s, offset 0");
  if (import->resolution == 0)
    {
      _sextant_import_log (import, "zero_clock_resolution", SEXTANT_NULL, SEXTANT_NULL,
                           "CLOCK_PROPERTIES gives 0 ticks/s; taken as 1 tick/s");
      import->resolution = 1;
    }

  if (!store_locations (import, error) || !resolve_comms (import, error))
    return FALSE;

  for (guint k = 0; k < SEXTANT_N_DEF_KINDS; k++)
    if (import->def_counts[k] > 0 &&
        !sextant_store_run (import->store, SEXTANT_STMT_DEFINITION_COUNT, error, "ti",
                            sextant_def_kind_names[k], (gint64)import->def_counts[k]))
      return FALSE;

  return TRUE;
}

static char *
local_file (SextantImport *import,
            guint64        otf2_id,
            const char    *suffix)
{
  g_autofree char *name = g_strdup_printf ("%" G_GUINT64_FORMAT "%s", otf2_id, suffix);

  return g_build_filename (import->archive_dir, import->archive_name, name, NULL);
}

/* What a location's local definition file holds. */
typedef enum
{
  LOCAL_DEFS_MISSING,
  LOCAL_DEFS_EMPTY,     /* a chunk header and end marks: no record */
  LOCAL_DEFS_SOME,      /* records, or anything else: libotf2 reads it */
} LocalDefs;

/* libotf2's internal framing (OTF2_Buffer.h, not installed): a chunk starts
 * with a header of 18 bytes (OTF2_BUFFER_CHUNK_HEADER = 3, the endianness,
 * the numbers of its first and last event); the bytes 0, 1 and 2 mark the
 * end of a chunk, of the buffer and of the file; records follow the header
 * with their type, 5 and up. */
#define CHUNK_HEADER_TYPE 3
#define CHUNK_HEADER_BYTES 18
#define LAST_END_MARK 2

/* Whether the local definition file @path holds any record. libotf2 3.0.2
 * gives every definition reader it opens a buffer of one definition chunk
 * (4 MiB in our generator's archives) and clears it, whatever the file
 * holds: at 4096 locations whose files hold nothing (a writer that defines
 * everything globally, like our generator), opening them cleared 16 GiB
 * and was a tenth of the import's CPU time, on one thread before the
 * events. A file that is a chunk header and end marks, and nothing else,
 * has no record: reading it changes nothing in the reader. Anything else
 * (longer, another header, a record, unreadable) is read by libotf2, which
 * reports what is wrong with it. */
static LocalDefs
local_defs_state (const char *path)
{
  guint8 bytes[64];
  ssize_t n;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    return errno == ENOENT ? LOCAL_DEFS_MISSING : LOCAL_DEFS_SOME;
  n = read (fd, bytes, sizeof bytes);
  close (fd);

  if (n <= CHUNK_HEADER_BYTES || n == (ssize_t)sizeof bytes || bytes[0] != CHUNK_HEADER_TYPE)
    return LOCAL_DEFS_SOME;
  for (ssize_t i = CHUNK_HEADER_BYTES; i < n; i++)
    if (bytes[i] > LAST_END_MARK)
      return LOCAL_DEFS_SOME;

  return LOCAL_DEFS_EMPTY;
}

/* Local definitions carry the mapping tables and clock offsets that the
 * event readers apply: they must be read before any event. A writer may
 * write no local definitions at all, but if some locations have a file and
 * another has none, that file is missing. Files with no record are not
 * opened (local_defs_state()). */
gboolean
_sextant_import_read_local_definitions (SextantImport  *import,
                                        GError        **error)
{
  OTF2_ErrorCode status;
  guint n_files = 0;
  guint n_records = 0;
  g_autofree LocalDefs *state = g_new (LocalDefs, MAX (import->locations->len, 1));

  for (guint i = 0; i < import->locations->len; i++)
    {
      guint64 id = g_array_index (import->locations, SextantLocationDef, i).otf2_id;
      g_autofree char *path = NULL;

      /* a parallel import's rank opens only the locations it decodes */
      state[i] = LOCAL_DEFS_MISSING;
      if (!_sextant_import_decodes (import, i))
        continue;
      path = local_file (import, id, ".def");
      OTF2_Reader_SelectLocation (import->reader, id);
      state[i] = local_defs_state (path);
      n_files += state[i] != LOCAL_DEFS_MISSING;
      n_records += state[i] == LOCAL_DEFS_SOME;
    }

  if (n_files == 0)
    return TRUE;
  for (guint i = 0; i < import->locations->len; i++)
    if (state[i] == LOCAL_DEFS_MISSING && _sextant_import_decodes (import, i))
      {
        guint64 id = g_array_index (import->locations, SextantLocationDef, i).otf2_id;
        g_autofree char *path = local_file (import, id, ".def");

        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND,
                     "%s: the local definitions of location %" G_GUINT64_FORMAT " are missing or unreadable",
                     path, id);
        return FALSE;
      }
  if (n_records == 0)
    return TRUE;

  status = OTF2_Reader_OpenDefFiles (import->reader);
  if (status != OTF2_SUCCESS)
    {
      g_autofree char *dir = g_build_filename (import->archive_dir, import->archive_name, NULL);

      return _sextant_import_otf2_check (status, dir, "cannot open the local definition files", error);
    }

  for (guint i = 0; i < import->locations->len; i++)
    {
      guint64 id = g_array_index (import->locations, SextantLocationDef, i).otf2_id;
      g_autofree char *path = NULL;
      OTF2_DefReader *reader;
      uint64_t n_read = 0;

      if (state[i] != LOCAL_DEFS_SOME)
        continue;

      path = local_file (import, id, ".def");
      reader = OTF2_Reader_GetDefReader (import->reader, id);
      if (reader == NULL)
        {
          OTF2_Reader_CloseDefFiles (import->reader);
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND,
                       "%s: the local definitions of location %" G_GUINT64_FORMAT " are missing or unreadable",
                       path, id);
          return FALSE;
        }

      status = OTF2_Reader_ReadAllLocalDefinitions (import->reader, reader, &n_read);
      OTF2_Reader_CloseDefReader (import->reader, reader);
      if (status != OTF2_SUCCESS)
        {
          OTF2_Reader_CloseDefFiles (import->reader);
          return _sextant_import_otf2_check (status, path, "cannot read the local definitions", error);
        }
    }

  OTF2_Reader_CloseDefFiles (import->reader);

  return TRUE;
}
