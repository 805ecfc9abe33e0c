/*
 * sextant-import-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The state of one import (sextant-import-private.h), made and freed, and
 * the helpers the import's files share through it: the import log
 * (gathered from every thread, written into the store at the end), the
 * first error, the definitions looked up by their OTF2 ids, the call
 * paths and the progress reports.
 */
#include "config.h"

#include <string.h>

#include "sextant-import-private.h"

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

void
_sextant_import_clear (SextantImport *import)
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

void
_sextant_import_init (SextantImport *import,
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
  import->archive_name = _sextant_import_anchor_base_name (anchor);
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

gboolean
_sextant_import_write_log (SextantImport  *import,
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
