/*
 * sextant-importer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The OTF2 -> SQLite import, in five steps:
 *
 *  1. resolve the archive (a directory or its anchor file) and its identity
 *     (anchor size and mtime, SHA-256 of the global definitions); a store
 *     whose identity matches is reused unless forced;
 *  2. read the global definitions into the store (sextant-import-defs.c),
 *     keeping in memory only what decoding events needs (regions,
 *     communicators -> locations);
 *  3. decode every location independently (sextant-location-decoder.c);
 *  4. match what spans locations: messages (send and receive halves joined
 *     on communicator, sender, receiver, tag and sequence number) and
 *     collective instances (the n-th operation of each member of a
 *     communicator); build the level-of-detail pyramid (sextant-lod.c);
 *  5. write meta and the import log, build indexes, rename the temporary
 *     file into place.
 *
 * Only this file and the decoder talk to libotf2; every OTF2_ErrorCode is
 * turned into a GError that names the file and the problem.
 */
#include "config.h"

#include <otf2/OTF2_Pthread_Locks.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sextant-anchor.h"
#include "sextant-salvage.h"
#include "sextant-import-private.h"
#include "sextant-importer.h"
#include "sextant-lod.h"

struct _SextantImporter
{
  GObject                parent_instance;

  char                  *archive;        /* as given */
  char                  *anchor;         /* resolved anchor file */
  char                  *db_path;        /* resolved target */
  char                  *worker;         /* the program that imports, or NULL: in this process */
  SextantImportProgress  progress;
  gpointer               progress_data;
  GDestroyNotify         progress_destroy;
  GThread               *closer;         /* closes the archive beside the end of a run */
  char                  *salvage_dir;    /* a crashed recording salvaged into this, or NULL */
  SextantImportShare     share;          /* a parallel import's share, if has_share */
  GArray                *share_locations; /* guint32: the locations the last run decoded */
  guint                  has_share : 1;
  guint                  force : 1;
  guint                  reused : 1;
};

G_DEFINE_FINAL_TYPE (SextantImporter, sextant_importer, G_TYPE_OBJECT)

typedef struct
{
  char   *kind;
  gint64  loc;
  gint64  first_time;
  gint64  count;
  char   *message;
} LogEntry;

static void
log_entry_free (gpointer data)
{
  LogEntry *entry = data;

  g_free (entry->kind);
  g_free (entry->message);
  g_free (entry);
}

static void
region_def_free (gpointer data)
{
  SextantRegionDef *def = data;

  g_free (def->name);
  g_free (def);
}

static void
group_def_free (gpointer data)
{
  SextantGroupDef *def = data;

  g_array_unref (def->members);
  g_free (def);
}

static void
comm_def_free (gpointer data)
{
  SextantCommDef *def = data;

  g_clear_pointer (&def->rank_loc, g_array_unref);
  g_free (def);
}

static void
location_def_clear (gpointer data)
{
  SextantLocationDef *def = data;

  g_free (def->name);
}

/* Shared helpers (sextant-import-private.h) ----------------------------- */

static void
import_log_valist (SextantImport *import,
                   const char    *kind,
                   gint64         loc,
                   gint64         time,
                   gint64         count,
                   const char    *format,
                   va_list        args)
{
  g_autofree char *key = g_strdup_printf ("%s:%" G_GINT64_FORMAT, kind, loc);
  LogEntry *entry;

  /* decoding threads log; an entry per (kind, location) is only ever
   * started by the thread of that location, so its first time and message
   * do not depend on timing */
  g_mutex_lock (&import->lock);
  entry = g_hash_table_lookup (import->logged, key);
  if (entry != NULL)
    {
      entry->count += count;
      g_mutex_unlock (&import->lock);
      return;
    }

  entry = g_new0 (LogEntry, 1);
  entry->kind = g_strdup (kind);
  entry->loc = loc;
  entry->first_time = time;
  entry->count = count;
  entry->message = g_strdup_vprintf (format, args);

  g_hash_table_insert (import->logged, g_steal_pointer (&key), entry);
  g_mutex_unlock (&import->lock);
}

void
_sextant_import_log (SextantImport *import,
                     const char    *kind,
                     gint64         loc,
                     gint64         time,
                     const char    *format,
                     ...)
{
  va_list args;

  va_start (args, format);
  import_log_valist (import, kind, loc, time, 1, format, args);
  va_end (args);
}

void
_sextant_import_log_n (SextantImport *import,
              const char    *kind,
              gint64         loc,
              gint64         time,
              gint64         count,
              const char    *format,
              ...)
{
  va_list args;

  va_start (args, format);
  import_log_valist (import, kind, loc, time, count, format, args);
  va_end (args);
}

OTF2_CallbackCode
_sextant_import_fail (SextantImport *import,
                      GError        *error)
{
  if (error == NULL)
    error = g_error_new_literal (SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                                 "the import failed without saying why");

  g_mutex_lock (&import->lock);
  if (import->error == NULL)
    import->error = error;
  else
    g_clear_error (&error);
  g_atomic_int_set (&import->failed, TRUE);
  g_mutex_unlock (&import->lock);

  return OTF2_CALLBACK_INTERRUPT;
}

gint32
_sextant_import_loc_index (SextantImport *import,
                           guint64        otf2_id)
{
  gpointer value;

  if (!g_hash_table_lookup_extended (import->location_index, &otf2_id, NULL, &value))
    return -1;

  return GPOINTER_TO_INT (value);
}

const char *
_sextant_import_string (SextantImport  *import,
                        OTF2_StringRef  ref)
{
  if (ref == OTF2_UNDEFINED_STRING)
    return NULL;

  return g_hash_table_lookup (import->strings, GUINT_TO_POINTER (ref));
}

/**
 * _sextant_import_comm_rank_loc:
 * @is_self: (out) (optional): whether @comm is a self communicator
 *
 * Returns: the dense location index of @rank in @comm, or -1
 */
gint32
_sextant_import_comm_rank_loc (SextantImport *import,
                               OTF2_CommRef   comm,
                               guint32        rank,
                               gboolean      *is_self)
{
  return _sextant_comm_def_rank_loc (_sextant_import_get_comm (import, comm), rank, is_self);
}

/* The definition of @comm, %NULL if there is none. */
const SextantCommDef *
_sextant_import_get_comm (SextantImport *import,
                          OTF2_CommRef   comm)
{
  return g_hash_table_lookup (import->comms, GUINT_TO_POINTER (comm));
}

/* The name of a call path's last node: the region's name, and for a frame
 * of a calling context "@file.c:line" of its source code location. */
static char *
path_node_name (SextantImport        *import,
                const SextantPathKey *key)
{
  const SextantRegionDef *def = g_hash_table_lookup (import->regions, GUINT_TO_POINTER (key->region));
  const char *name = def != NULL && def->name != NULL ? def->name : "?";
  const char *site = key->scl != OTF2_UNDEFINED_SOURCE_CODE_LOCATION
    ? g_hash_table_lookup (import->scl_names, GUINT_TO_POINTER (key->scl)) : NULL;

  return site != NULL ? g_strconcat (name, "@", site, NULL) : g_strdup (name);
}

/**
 * _sextant_import_call_path:
 * @key: the path's parent (an id of this import, or -1 at the top), region
 *   and source code location
 *
 * Gives the call path @key an id, stored with its name ("main/solver/MPI_Recv",
 * a calling context's frames as "solver@solver.c:52") and depth when it is
 * new. Not thread-safe: called between rounds.
 *
 * Returns: the path's id; -1 with @error set if storing fails
 */
gint64
_sextant_import_call_path (SextantImport         *import,
                           const SextantPathKey  *key,
                           GError               **error)
{
  gpointer value;
  gint64 id;
  guint depth;
  g_autofree char *node = NULL;
  char *name;

  g_return_val_if_fail (key->parent >= -1, -1);

  if (g_hash_table_lookup_extended (import->call_paths, key, NULL, &value))
    return GPOINTER_TO_SIZE (value) - 1;

  id = import->call_path_names->len;
  node = path_node_name (import, key);
  name = key->parent < 0 ? g_steal_pointer (&node)
                         : g_strconcat (g_ptr_array_index (import->call_path_names, key->parent), "/", node, NULL);
  depth = key->parent < 0 ? 0 : g_array_index (import->call_path_depths, guint, key->parent) + 1;
  g_ptr_array_add (import->call_path_names, name);
  g_array_append_val (import->call_path_depths, depth);
  g_hash_table_insert (import->call_paths, g_memdup2 (key, sizeof *key), GSIZE_TO_POINTER (id + 1));

  if (!sextant_store_run (import->store, SEXTANT_STMT_CALL_PATH, error, "iniitn", id,
                          key->parent >= 0 ? key->parent : SEXTANT_NULL, (gint64)key->region, (gint64)depth, name,
                          key->scl != OTF2_UNDEFINED_SOURCE_CODE_LOCATION ? (gint64)key->scl : SEXTANT_NULL))
    return -1;

  return id;
}

/* The id of the call path @key, or -1 if it has none yet. */
gint64
_sextant_import_find_call_path (SextantImport        *import,
                                const SextantPathKey *key)
{
  gpointer value;

  if (g_hash_table_lookup_extended (import->call_paths, key, NULL, &value))
    return GPOINTER_TO_SIZE (value) - 1;

  return -1;
}

/* The definition of calling context @context, %NULL if there is none. */
const SextantContextDef *
_sextant_import_get_context (SextantImport          *import,
                             OTF2_CallingContextRef  context)
{
  return g_hash_table_lookup (import->contexts, GUINT_TO_POINTER (context));
}

gboolean
_sextant_import_report_progress (SextantImport *import)
{
  gint64 now = g_get_monotonic_time ();
  double elapsed;
  double fraction;

  if (import->progress == NULL || now - import->last_report_usec < 100000)
    return TRUE;

  import->last_report_usec = now;
  elapsed = (now - import->start_usec) / (double)G_USEC_PER_SEC;
  fraction = import->events_expected > 0 ? (double)import->events_read / import->events_expected : 0;
  import->progress (MIN (fraction, 1.0), elapsed > 0 ? import->events_read / elapsed : 0,
                    import->progress_data);

  return TRUE;
}

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

static char *
anchor_base_name (const char *anchor)
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
  g_autofree char *base = anchor_base_name (anchor);
  g_autofree char *file = g_strconcat (base, ".sextant.db", NULL);

  return g_build_filename (dir, file, NULL);
}

typedef struct
{
  char   *anchor_abs;
  gint64  anchor_size;
  gint64  anchor_mtime;
  char   *definitions_sha256;
} Identity;

static void
identity_clear (Identity *id)
{
  g_clear_pointer (&id->anchor_abs, g_free);
  g_clear_pointer (&id->definitions_sha256, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Identity, identity_clear)

static gboolean
read_identity (const char  *anchor,
               const char  *defs,
               Identity    *id,
               GError     **error)
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
static gboolean
store_is_current (const char     *db_path,
                  const Identity *id)
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

static gboolean
otf2_check (OTF2_ErrorCode   status,
            const char      *file,
            const char      *what,
            GError         **error)
{
  if (status == OTF2_SUCCESS)
    return TRUE;

  g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
               "%s: %s: %s (%s)", file, what, OTF2_Error_GetName (status),
               OTF2_Error_GetDescription (status));
  return FALSE;
}

static gpointer
close_archive (gpointer reader)
{
  OTF2_Reader_CloseEvtFiles (reader);
  OTF2_Reader_Close (reader);

  return NULL;
}

/* Waits for the thread that closes the archive, if one does. */
static void
join_closer (SextantImporter *self)
{
  if (self->closer != NULL)
    g_thread_join (g_steal_pointer (&self->closer));
}

static void
import_clear (SextantImport *import)
{
  if (import->reader != NULL)
    OTF2_Reader_Close (import->reader);
  g_clear_pointer (&import->small_chunks, sextant_small_chunks_free);
  g_clear_pointer (&import->matcher, _sextant_matcher_free);
  g_clear_pointer (&import->chunks, sextant_chunk_queue_free);
  g_clear_pointer (&import->blocks, sextant_block_pool_free);
  g_clear_object (&import->store);
  g_clear_error (&import->error);
  g_clear_pointer (&import->archive_dir, g_free);
  g_clear_pointer (&import->archive_name, g_free);
  g_clear_pointer (&import->strings, g_hash_table_unref);
  g_clear_pointer (&import->locations, g_array_unref);
  g_clear_pointer (&import->location_index, g_hash_table_unref);
  g_clear_pointer (&import->regions, g_hash_table_unref);
  g_clear_pointer (&import->groups, g_hash_table_unref);
  g_clear_pointer (&import->comms, g_hash_table_unref);
  g_clear_pointer (&import->contexts, g_hash_table_unref);
  g_clear_pointer (&import->scl_names, g_hash_table_unref);
  g_clear_pointer (&import->logged, g_hash_table_unref);
  g_clear_pointer (&import->call_paths, g_hash_table_unref);
  g_clear_pointer (&import->call_path_names, g_ptr_array_unref);
  g_clear_pointer (&import->call_path_depths, g_array_unref);
  _sextant_import_share_clear (import);
  _sextant_import_free_def_rows (import);
  g_mutex_clear (&import->lock);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SextantImport, import_clear)

/* libotf2 prints its errors to stderr; Sextant reports them as GErrors that
 * name the file, and passes libotf2's own words to the debug log. */
static OTF2_ErrorCode
otf2_error_to_debug_log (void           *user_data,
                         const char     *file,
                         uint64_t        line,
                         const char     *function,
                         OTF2_ErrorCode  code,
                         const char     *format,
                         va_list         args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  g_debug ("libotf2 %s:%" G_GUINT64_FORMAT ": %s: %s", file, line, OTF2_Error_GetName (code), message);

  return code;
}

static void
import_init (SextantImport *import,
             const char    *anchor)
{
  static gsize otf2_errors_redirected = 0;

  if (g_once_init_enter (&otf2_errors_redirected))
    {
      OTF2_Error_RegisterCallback (otf2_error_to_debug_log, NULL);
      g_once_init_leave (&otf2_errors_redirected, 1);
    }

  memset (import, 0, sizeof *import);
  g_mutex_init (&import->lock);
  import->archive_dir = g_path_get_dirname (anchor);
  import->archive_name = anchor_base_name (anchor);
  import->strings = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  import->locations = g_array_new (FALSE, FALSE, sizeof (SextantLocationDef));
  g_array_set_clear_func (import->locations, location_def_clear);
  import->location_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  import->regions = g_hash_table_new_full (NULL, NULL, NULL, region_def_free);
  import->groups = g_hash_table_new_full (NULL, NULL, NULL, group_def_free);
  import->comms = g_hash_table_new_full (NULL, NULL, NULL, comm_def_free);
  import->contexts = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  import->scl_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  import->logged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, log_entry_free);
  import->call_paths = g_hash_table_new_full (_sextant_path_key_hash, _sextant_path_key_equal, g_free, NULL);
  import->call_path_names = g_ptr_array_new_with_free_func (g_free);
  import->call_path_depths = g_array_new (FALSE, FALSE, sizeof (guint));
  import->resolution = 1;
  import->start_usec = g_get_monotonic_time ();
}

static gboolean
read_definitions (SextantImport  *import,
                  const char     *anchor,
                  const char     *defs_path,
                  GError        **error)
{
  g_autoptr(OTF2_GlobalDefReaderCallbacks) callbacks = _sextant_import_global_def_callbacks_new ();
  OTF2_GlobalDefReader *reader;
  uint64_t n_read = 0;
  uint64_t n_locations = 0;
  OTF2_ErrorCode status;

  if (!otf2_check (OTF2_Reader_SetSerialCollectiveCallbacks (import->reader), anchor,
                   "not a readable OTF2 archive", error) ||
      !otf2_check (OTF2_Reader_GetNumberOfLocations (import->reader, &n_locations), anchor,
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
  if (!otf2_check (status, defs_path, "cannot read the global definitions", error))
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
static gboolean
read_local_definitions (SextantImport  *import,
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

      return otf2_check (status, dir, "cannot open the local definition files", error);
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
          return otf2_check (status, path, "cannot read the local definitions", error);
        }
    }

  OTF2_Reader_CloseDefFiles (import->reader);

  return TRUE;
}

static int
compare_log_entries (gconstpointer a,
                     gconstpointer b)
{
  const LogEntry *x = a;
  const LogEntry *y = b;
  int c = g_strcmp0 (x->kind, y->kind);

  if (c != 0)
    return c;

  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

static gboolean
write_log (SextantImport  *import,
           GError        **error)
{
  g_autoptr(GList) entries = g_hash_table_get_values (import->logged);

  /* Deterministic order: by kind, then location. */
  entries = g_list_sort (entries, compare_log_entries);
  for (GList *l = entries; l != NULL; l = l->next)
    {
      LogEntry *entry = l->data;

      if (!sextant_store_run (import->store, SEXTANT_STMT_LOG, error, "ttnnit",
                              "warning", entry->kind, entry->loc, entry->first_time,
                              entry->count, entry->message))
        return FALSE;
    }

  return TRUE;
}

static gboolean
write_meta (SextantImport   *import,
            const Identity  *id,
            GError         **error)
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

/* A file descriptor closed when it goes out of scope. */
typedef int LockFd;

static void
lock_fd_clear (LockFd *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (LockFd, lock_fd_clear)

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
static void
remove_stale_temporaries (const char *db_path)
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

/* libotf2 clears a buffer of one chunk for every reader it opens: where
 * the archive's files are smaller than its chunks, it reads a view of it
 * that declares smaller ones (sextant-small-chunks.c), unless
 * SEXTANT_IMPORT_FULL_CHUNKS is set (for comparisons). */
static void
open_small_chunks (SextantImport *import,
                   const char    *anchor)
{
  g_autoptr(GError) error = NULL;

  if (g_getenv ("SEXTANT_IMPORT_FULL_CHUNKS") != NULL)
    return;
  import->small_chunks = sextant_small_chunks_new (anchor, &error);
  if (import->small_chunks != NULL)
    g_debug ("libotf2 reads %s: chunks of %" G_GUINT64_FORMAT " bytes of events, %" G_GUINT64_FORMAT " of definitions",
             sextant_small_chunks_get_anchor (import->small_chunks),
             sextant_small_chunks_get_event_chunk (import->small_chunks),
             sextant_small_chunks_get_def_chunk (import->small_chunks));
  else if (error != NULL)
    g_debug ("libotf2 reads the archive's own chunks: %s", error->message);
}

static gboolean
import_archive (SextantImporter  *self,
                const Identity   *id,
                const char       *defs_path,
                const char       *tmp_path,
                GCancellable     *cancellable,
                GError          **error)
{
  g_auto(SextantImport) import;

  import_init (&import, self->anchor);
  import.cancellable = cancellable;
  import.progress = self->progress;
  import.progress_data = self->progress_data;

  if (!(import.store = sextant_store_create (tmp_path, error)))
    return FALSE;
  /* the rounds check the cancellable between tasks; the store's statements
   * (the indexes and ANALYZE at the end take seconds on a large trace) stop
   * when it is cancelled */
  sextant_store_set_cancellable (import.store, cancellable);
  import.chunks = sextant_chunk_queue_new (import.store);
  import.blocks = sextant_block_pool_new ();

  open_small_chunks (&import, self->anchor);
  if (!(import.reader = OTF2_Reader_Open (import.small_chunks != NULL
                                          ? sextant_small_chunks_get_anchor (import.small_chunks)
                                          : self->anchor)))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_ARCHIVE,
                   "%s: not an OTF2 archive (libotf2 cannot open the anchor file)", self->anchor);
      return FALSE;
    }
  /* the locations' events are read by several threads */
  if (OTF2_Pthread_Reader_SetLockingCallbacks (import.reader, NULL) != OTF2_SUCCESS)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "%s: cannot make libotf2's reader thread-safe", self->anchor);
      return FALSE;
    }

  if (!sextant_store_begin (import.store, error) ||
      !read_definitions (&import, self->anchor, defs_path, error))
    return FALSE;
  if (self->has_share)
    {
      import.share = &self->share;
      _sextant_import_plan_share (&import);
      g_clear_pointer (&self->share_locations, g_array_unref);
      self->share_locations = g_array_ref (import.share_locations);
    }
  if (!read_local_definitions (&import, error))
    return FALSE;
  _sextant_salvage_log (&import);

  if (import.locations->len > 0 &&
      !otf2_check (OTF2_Reader_OpenEvtFiles (import.reader), self->anchor,
                   "cannot open the event files", error))
    return FALSE;

  _sextant_lod_plan (&import);
  g_debug ("definitions read: %.3f s", (g_get_monotonic_time () - import.start_usec) / 1e6);

  /* the locations whose rows are buffered at once are those of a batch */
  import.chunk_rows = _sextant_import_plan_chunk_rows (_sextant_import_plan_batch (&import));
  import.matcher = _sextant_matcher_new (&import, import.chunk_rows);
  if (!_sextant_import_decode_events (&import, error))
    return FALSE;

  /* the archive's creator and version go into meta before it closes */
  if (!write_meta (&import, id, error))
    return FALSE;

  /* Closing the archive frees libotf2's chunks, two per location (0.02 s
   * at 64 locations): a thread of its own does it beside the commit and the
   * move, and the run waits for it at its end. */
  if (import.locations->len > 0)
    self->closer = g_thread_new ("sextant-close", close_archive, g_steal_pointer (&import.reader));
  g_debug ("events decoded and matched: %.3f s", (g_get_monotonic_time () - import.start_usec) / 1e6);

  if (!_sextant_lod_build (&import, error))
    return FALSE;
  g_debug ("level of detail built: %.3f s", (g_get_monotonic_time () - import.start_usec) / 1e6);

  if (!write_log (&import, error) ||
      !sextant_store_run (import.store, SEXTANT_STMT_META, error, "ti", "import_complete", (gint64)1) ||
      !sextant_store_commit (import.store, error) ||
      !sextant_store_finish_load (import.store, error) ||
      !sextant_store_close (import.store, error))
    return FALSE;
  g_debug ("indexed and closed: %.3f s", (g_get_monotonic_time () - import.start_usec) / 1e6);

  if (import.progress != NULL)
    {
      double elapsed = (g_get_monotonic_time () - import.start_usec) / (double)G_USEC_PER_SEC;

      import.progress (1.0, elapsed > 0 ? import.events_read / elapsed : 0, import.progress_data);
    }

  return TRUE;
}

/* SextantImporter ----------------------------------------------------------- */

G_LOCK_DEFINE_STATIC (default_worker);
static char *default_worker;

static void
sextant_importer_finalize (GObject *object)
{
  SextantImporter *self = (SextantImporter *)object;

  join_closer (self);
  _sextant_salvage_remove (&self->salvage_dir);
  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  g_clear_pointer (&self->archive, g_free);
  g_clear_pointer (&self->anchor, g_free);
  g_clear_pointer (&self->share_locations, g_array_unref);
  g_clear_pointer (&self->db_path, g_free);
  g_clear_pointer (&self->worker, g_free);

  G_OBJECT_CLASS (sextant_importer_parent_class)->finalize (object);
}

static void
sextant_importer_class_init (SextantImporterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sextant_importer_finalize;
}

static void
sextant_importer_init (SextantImporter *self)
{
}

/**
 * sextant_importer_new:
 * @archive: an OTF2 anchor file or the directory that holds it
 * @db_path: (nullable): the store to write; %NULL for the default beside
 *   the anchor (see sextant_archive_default_db_path())
 */
SextantImporter *
sextant_importer_new (const char *archive,
                      const char *db_path)
{
  SextantImporter *self;

  g_return_val_if_fail (archive != NULL, NULL);

  self = g_object_new (SEXTANT_TYPE_IMPORTER, NULL);
  self->archive = g_strdup (archive);
  self->db_path = g_strdup (db_path);
  G_LOCK (default_worker);
  self->worker = g_strdup (default_worker);
  G_UNLOCK (default_worker);

  return self;
}

/* Re-import even if the store is current. */
void
sextant_importer_set_force (SextantImporter *self,
                            gboolean         force)
{
  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  self->force = !!force;
}

/**
 * sextant_importer_set_default_worker:
 * @program: (nullable): the `sextant` executable, or %NULL
 *
 * The worker (see sextant_importer_set_worker()) of the importers made from
 * now on in this process: the window sets it to its own executable.
 */
void
sextant_importer_set_default_worker (const char *program)
{
  G_LOCK (default_worker);
  g_free (default_worker);
  default_worker = g_strdup (program);
  G_UNLOCK (default_worker);
}

/**
 * sextant_importer_set_worker:
 * @program: (nullable): the `sextant` executable, or %NULL
 *
 * Has sextant_importer_run() import in a worker process, `@program import
 * --worker-into TMP ARCHIVE`, that it watches: a crash or a hang in libotf2
 * on a damaged archive then ends the import with an error instead of the
 * calling process, and cancelling stops it at once (see
 * sextant-import-worker.c). %NULL (the default) imports in this process.
 */
void
sextant_importer_set_worker (SextantImporter *self,
                             const char      *program)
{
  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  g_free (self->worker);
  self->worker = g_strdup (program);
}

void
sextant_importer_set_progress_func (SextantImporter       *self,
                                    SextantImportProgress  func,
                                    gpointer               user_data,
                                    GDestroyNotify         destroy)
{
  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  self->progress = func;
  self->progress_data = user_data;
  self->progress_destroy = destroy;
}

/* Valid after sextant_importer_run() resolved it (even if it failed later). */
const char *
sextant_importer_get_db_path (SextantImporter *self)
{
  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), NULL);

  return self->db_path;
}

/* The anchor file; for a crashed recording that was salvaged, the
 * recording's directory (the salvaged anchor is temporary). */
const char *
sextant_importer_get_anchor_path (SextantImporter *self)
{
  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), NULL);

  return self->salvage_dir != NULL ? self->archive : self->anchor;
}

/* Whether the last run found the store current and did not import. */
gboolean
sextant_importer_get_reused (SextantImporter *self)
{
  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), FALSE);

  return self->reused;
}

/* The anchor, its definitions' path and the archive's identity. */
static gboolean
resolve_archive (SextantImporter  *self,
                 Identity         *id,
                 char            **defs_path,
                 GError          **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;

  g_clear_pointer (&self->anchor, g_free);
  _sextant_salvage_remove (&self->salvage_dir);
  if (_sextant_salvage_needed (self->archive))
    {
      /* a crashed recording: the store goes where its anchor would be */
      if (!(self->anchor = _sextant_salvage_archive (self->archive, &self->salvage_dir, error)))
        return FALSE;
      if (self->db_path == NULL)
        self->db_path = g_build_filename (self->archive, "traces.sextant.db", NULL);
    }
  else if (!(self->anchor = sextant_archive_find_anchor (self->archive, error)))
    return FALSE;

  dir = g_path_get_dirname (self->anchor);
  base = anchor_base_name (self->anchor);
  *defs_path = g_strconcat (dir, G_DIR_SEPARATOR_S, base, ".def", NULL);

  if (!read_identity (self->anchor, *defs_path, id, error))
    return FALSE;
  if (self->salvage_dir != NULL)
    {
      /* the store names the recording, not the temporary copy */
      g_free (id->anchor_abs);
      id->anchor_abs = g_canonicalize_filename (self->archive, NULL);
    }
  return TRUE;
}

/**
 * sextant_importer_set_share:
 * @share: (nullable): the rank's share of a parallel import, %NULL for all
 *
 * Makes the runs import only @share's locations (parallel/): see
 * sextant-import-share.h.
 */
void
sextant_importer_set_share (SextantImporter          *self,
                            const SextantImportShare *share)
{
  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  self->has_share = share != NULL;
  if (share != NULL)
    self->share = *share;
}

/**
 * sextant_importer_get_share_locations:
 *
 * Returns: (transfer none) (nullable): the location ids (guint32, ascending)
 * the last run with a share decoded
 */
GArray *
sextant_importer_get_share_locations (SextantImporter *self)
{
  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), NULL);

  return self->share_locations;
}

/**
 * sextant_importer_run_into:
 * @path: an empty file the caller created
 *
 * The worker's side of sextant_importer_set_worker(): imports the archive
 * into @path and leaves it there, complete or not; the caller removes it
 * after a failure.
 */
gboolean
sextant_importer_run_into (SextantImporter  *self,
                           const char       *path,
                           GCancellable     *cancellable,
                           GError          **error)
{
  g_auto(Identity) id = { NULL };
  g_autofree char *defs_path = NULL;
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!resolve_archive (self, &id, &defs_path, error))
    return FALSE;
  ok = import_archive (self, &id, defs_path, path, cancellable, error);
  join_closer (self);

  return ok;
}

/**
 * sextant_importer_run:
 *
 * Imports the archive, or leaves a current store alone (see
 * sextant_importer_get_reused()). On failure or cancellation no store and
 * no temporary file is left behind and an existing store is untouched.
 */
gboolean
sextant_importer_run (SextantImporter  *self,
                      GCancellable     *cancellable,
                      GError          **error)
{
  g_auto(Identity) id = { NULL };
  g_autofree char *defs_path = NULL;
  g_autofree char *tmp_path = NULL;
  g_autofree char *old_path = NULL;
  g_autoptr(GError) local_error = NULL;
  g_auto(LockFd) fd = -1;
  gboolean moved_aside;
  gint64 rename_start;

  g_return_val_if_fail (SEXTANT_IS_IMPORTER (self), FALSE);

  self->reused = FALSE;
  if (!resolve_archive (self, &id, &defs_path, error))
    return FALSE;
  if (self->db_path == NULL)
    self->db_path = sextant_archive_default_db_path (self->anchor);
  remove_stale_temporaries (self->db_path);

  if (!self->force && store_is_current (self->db_path, &id))
    {
      self->reused = TRUE;
      return TRUE;
    }

  tmp_path = g_strconcat (self->db_path, ".XXXXXX", NULL);
  /* 0666 less the umask, as SQLite creates a database: the store is a file
   * the user shares like the archive (g_mkstemp()'s 0600 is for secrets) */
  if ((fd = g_mkstemp_full (tmp_path, O_RDWR | O_CLOEXEC, 0666)) < 0)
    {
      int errsv = errno;

      g_set_error (error, SEXTANT_TRACE_ERROR,
                   errsv == ENOSPC ? SEXTANT_TRACE_ERROR_NO_SPACE : SEXTANT_TRACE_ERROR_STORE,
                   "%s: cannot create the database: %s", self->db_path, g_strerror (errsv));
      return FALSE;
    }
  /* held until this function returns: marks the temporary files as a live
   * import's (see remove_stale_temporaries()) */
  flock (fd, LOCK_EX);

  if (self->worker != NULL
      ? !_sextant_import_in_worker (self->worker, self->anchor, tmp_path, self->progress, self->progress_data,
                                    cancellable, &local_error)
      : !import_archive (self, &id, defs_path, tmp_path, cancellable, &local_error))
    {
      join_closer (self);
      sextant_store_remove_files (tmp_path);
      /* the store's message names the temporary file */
      if (g_error_matches (local_error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NO_SPACE))
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NO_SPACE,
                     "%s: no space left on device; nothing was written", self->db_path);
      else if (g_error_matches (local_error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_FILE_LIMIT))
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_FILE_LIMIT,
                     "%s: the file size limit was reached (ulimit -f); nothing was written", self->db_path);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* The new store takes the old one's place in one step: the two names are
   * exchanged (renameat2), so at every moment the store's name holds a
   * complete store, and then the old one, now at the temporary name, is
   * removed (a killed import leaves it to remove_stale_temporaries()).
   * Renaming over an existing file would also have ext4 (auto_da_alloc)
   * write the new file's delayed blocks out: 0.07-0.15 s for 100 MB, more
   * than the commit; a store is derived from the archive and not synced.
   * Where the file system cannot exchange, the old store is moved aside
   * first and back if the new one cannot take its place. */
  rename_start = g_get_monotonic_time ();
  if (renameat2 (AT_FDCWD, tmp_path, AT_FDCWD, self->db_path, RENAME_EXCHANGE) == 0)
    sextant_store_remove_files (tmp_path);
  else
    {
      old_path = g_strconcat (tmp_path, "-old", NULL);
      moved_aside = g_rename (self->db_path, old_path) == 0;
      if (g_rename (tmp_path, self->db_path) != 0)
        {
          int errsv = errno;

          if (moved_aside)
            g_rename (old_path, self->db_path);
          join_closer (self);
          sextant_store_remove_files (tmp_path);
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                       "%s: cannot move the finished database into place: %s",
                       self->db_path, g_strerror (errsv));
          return FALSE;
        }
      if (moved_aside)
        g_unlink (old_path);
    }

  /* An older store's WAL must not be replayed into the new file. */
  {
    g_autofree char *wal = g_strconcat (self->db_path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (self->db_path, "-shm", NULL);

    g_unlink (wal);
    g_unlink (shm);
  }
  /* replacing a store frees the old file's blocks and cached pages */
  g_debug ("moved into place: %.3f s", (g_get_monotonic_time () - rename_start) / (double)G_USEC_PER_SEC);
  join_closer (self);

  return TRUE;
}

static void
run_worker (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;

  if (!sextant_importer_run (source_object, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * sextant_importer_run_async:
 *
 * Runs the import in a worker thread. The progress function is called in
 * that thread; marshal to the main context before touching widgets.
 */
void
sextant_importer_run_async (SextantImporter     *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SEXTANT_IS_IMPORTER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sextant_importer_run_async);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, run_worker);
}

gboolean
sextant_importer_run_finish (SextantImporter  *self,
                             GAsyncResult     *result,
                             GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
