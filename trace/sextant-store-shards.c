/*
 * sextant-store-shards.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQL of a parallel import's manifest (sextant-store-shards.h): its
 * shard tables, written once the shards are complete, and the check that
 * every shard is still the one the import wrote.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <string.h>

#include "sextant-store-private.h"
#include "sextant-store-shards.h"

static const char shard_tables[] =
  "CREATE TABLE shard ("
  "  id        INTEGER PRIMARY KEY,"   /* the rank that wrote it */
  "  path      TEXT NOT NULL,"         /* relative to the manifest's directory */
  "  locations INTEGER NOT NULL,"
  "  events    INTEGER NOT NULL,"      /* event records its locations hold */
  "  size      INTEGER NOT NULL,"      /* bytes, as the import left it */
  "  mtime_ns  INTEGER NOT NULL)";
static const char shard_location_table[] =
  "CREATE TABLE shard_location ("
  "  loc   INTEGER PRIMARY KEY,"       /* location.id */
  "  shard INTEGER NOT NULL)";

static gboolean
no_rows (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  return TRUE;
}

static gboolean
stat_shard (const char  *path,
            gint64      *size,
            gint64      *mtime_ns)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return FALSE;
  *size = st.st_size;
  *mtime_ns = (gint64)st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;

  return TRUE;
}

/* A shard's span (SextantShardSpan) as it is read: its locations' array
 * grows row by row */
typedef struct
{
  SextantShardSpan *span;
  GString          *locations;
} SpanRead;

static gboolean
span_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  SpanRead *read = user_data;

  read->span->events = sextant_row_get_int (row, 0);
  read->span->begin = sextant_row_get_int (row, 1);
  read->span->end = sextant_row_get_int (row, 2);

  return FALSE;
}

static gboolean
location_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  SpanRead *read = user_data;

  if (read->locations->len > 1)
    g_string_append_c (read->locations, ',');
  for (guint c = 0; c < 6; c++)
    {
      g_string_append_c (read->locations, c == 0 ? '[' : ',');
      if (sextant_row_is_null (row, c))
        g_string_append (read->locations, "null");
      else
        g_string_append_printf (read->locations, "%" G_GINT64_FORMAT, sextant_row_get_int (row, c));
    }
  g_string_append_c (read->locations, ']');

  return TRUE;
}

void
sextant_shard_span_clear (SextantShardSpan *span)
{
  g_clear_pointer (&span->locations, g_free);
}

gboolean
sextant_store_read_shard_span (const char        *path,
                               SextantShardSpan  *span,
                               GError           **error)
{
  g_autoptr(SextantStore) shard = sextant_store_open (path, error);
  g_autoptr(GString) locations = g_string_new ("[");
  SpanRead read = { span, locations };

  memset (span, 0, sizeof *span);
  if (shard == NULL ||
      !sextant_store_foreach_sql (shard,
                                  "SELECT (SELECT total (events) FROM location), "
                                  "  (SELECT CAST (value AS INTEGER) FROM meta WHERE key = 'time_begin'), "
                                  "  (SELECT CAST (value AS INTEGER) FROM meta WHERE key = 'time_end')",
                                  span_row, &read, error, "") ||
      !sextant_store_foreach_sql (shard,
                                  "SELECT id, events, first_visit, last_visit, time_begin, time_end FROM location "
                                  "WHERE events > 0 OR first_visit IS NOT NULL",
                                  location_row, &read, error, "") ||
      !sextant_store_close (shard, error))
    return FALSE;
  g_string_append_c (locations, ']');
  span->locations = g_string_free (g_steal_pointer (&locations), FALSE);

  return TRUE;
}

/* The shard's locations' counts into the manifest (the definitions and
 * these counts are what the manifest holds of the trace:
 * sextant-store-union.c reads the rest from the shards): one statement for
 * all, not one a location (a statement costs 30-40 us to prepare, 0.15 s
 * at 4096 locations) */
static gboolean
write_span (SextantStore            *manifest,
            const SextantShardSpan  *span,
            GError                 **error)
{
  return sextant_store_foreach_sql (manifest,
                                    "UPDATE location SET events = json_extract (l.value, '$[1]'), "
                                    "  first_visit = json_extract (l.value, '$[2]'), "
                                    "  last_visit = json_extract (l.value, '$[3]'), "
                                    "  time_begin = json_extract (l.value, '$[4]'), "
                                    "  time_end = json_extract (l.value, '$[5]') "
                                    "FROM json_each (?1) AS l WHERE location.id = json_extract (l.value, '$[0]')",
                                    no_rows, NULL, error, "t", span->locations);
}

/* The tables of the archive's global definitions (schema-1.sql,
 * "Definitions"), which every shard holds whole, as a manifest does, and
 * meta; the import's log of the whole archive (loc NULL) goes with them */
static const char *const definition_tables[] = {
  "meta", "definition_count", "string", "system_tree_node", "system_tree_node_property",
  "system_tree_node_domain", "location_group", "location", "location_property", "paradigm",
  "region", "group", "group_member", "comm", "comm_member", "rma_window", "source_code_location",
  "calling_context", "callpath", "callsite", "metric_member", "metric", "metric_class_member",
  "attribute", "parameter",
};

gboolean
sextant_store_copy_definitions (SextantStore  *manifest,
                                const char    *shard,
                                GError       **error)
{
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (manifest), FALSE);
  g_return_val_if_fail (shard != NULL, FALSE);

  if (!sextant_store_foreach_sql (manifest, "ATTACH ?1 AS shard", no_rows, NULL, error, "t", shard))
    return FALSE;
  ok = sextant_store_foreach_sql (manifest, "BEGIN", no_rows, NULL, error, "");
  for (guint i = 0; ok && i < G_N_ELEMENTS (definition_tables); i++)
    {
      g_autofree char *sql = g_strdup_printf ("INSERT OR REPLACE INTO main.\"%s\" SELECT * FROM shard.\"%s\"",
                                              definition_tables[i], definition_tables[i]);

      ok = sextant_store_foreach_sql (manifest, sql, no_rows, NULL, error, "");
    }
  ok = ok &&
       sextant_store_foreach_sql (manifest, "INSERT INTO main.import_log SELECT * FROM shard.import_log "
                                  "WHERE loc IS NULL", no_rows, NULL, error, "") &&
       sextant_store_foreach_sql (manifest, "COMMIT", no_rows, NULL, error, "");
  if (!ok)
    sextant_store_foreach_sql (manifest, "ROLLBACK", no_rows, NULL, NULL, "");

  return sextant_store_foreach_sql (manifest, "DETACH shard", no_rows, NULL, ok ? error : NULL, "") && ok;
}

/* The shard's locations as a JSON array of their ids */
static char *
location_ids (GArray *locations)
{
  GString *ids = g_string_new ("[");

  for (guint i = 0; i < locations->len; i++)
    g_string_append_printf (ids, "%s%u", i > 0 ? "," : "", g_array_index (locations, guint32, i));
  g_string_append_c (ids, ']');

  return g_string_free (ids, FALSE);
}

gboolean
sextant_store_add_shards (SextantStore  *manifest,
                          const char    *dir,
                          const char    *prefix,
                          GPtrArray     *shards,
                          GError       **error)
{
  gint64 events = 0;
  gint64 begin = 0;
  gint64 end = 0;
  guint n_busy = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (manifest), FALSE);
  g_return_val_if_fail (dir != NULL && prefix != NULL && shards != NULL, FALSE);

  if (!sextant_store_foreach_sql (manifest, "BEGIN", no_rows, NULL, error, "") ||
      !sextant_store_foreach_sql (manifest, shard_tables, no_rows, NULL, error, "") ||
      !sextant_store_foreach_sql (manifest, shard_location_table, no_rows, NULL, error, ""))
    return FALSE;

  for (guint rank = 0; rank < shards->len; rank++)
    {
      const SextantShardInfo *info = g_ptr_array_index (shards, rank);
      g_autofree char *path = g_build_filename (dir, info->name, NULL);
      g_autofree char *recorded = g_build_filename (prefix, info->name, NULL);
      gint64 size = 0;
      gint64 mtime_ns = 0;
      g_autofree char *ids = location_ids (info->locations);
      g_auto(SextantShardSpan) read = { 0, 0, 0, NULL };
      const SextantShardSpan *span = info->span != NULL ? info->span : &read;

      /* the span its rank read, or read here */
      if ((info->span == NULL && !sextant_store_read_shard_span (path, &read, error)) ||
          !write_span (manifest, span, error))
        return FALSE;
      if (span->events > 0)
        {
          begin = n_busy == 0 ? span->begin : MIN (begin, span->begin);
          end = n_busy == 0 ? span->end : MAX (end, span->end);
          events += span->events;
          n_busy++;
        }
      if (!stat_shard (path, &size, &mtime_ns))
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND,
                       "%s: the shard of rank %u is missing", path, rank);
          return FALSE;
        }
      if (!sextant_store_foreach_sql (manifest,
                                      "INSERT INTO shard (id, path, locations, events, size, mtime_ns) "
                                      "VALUES (?, ?, ?, ?, ?, ?)", no_rows, NULL, error, "itiiii",
                                      (gint64)rank, recorded, (gint64)info->locations->len, span->events, size,
                                      mtime_ns))
        return FALSE;
      if (!sextant_store_foreach_sql (manifest,
                                      "INSERT INTO shard_location (loc, shard) SELECT value, ?2 FROM json_each (?1)",
                                      no_rows, NULL, error, "ti", ids, (gint64)rank))
        return FALSE;
    }

  /* the whole trace's event records and span, as a single store's meta has
   * them, and which ids the shards share */
  return sextant_store_foreach_sql (manifest, "INSERT OR REPLACE INTO meta (key, value) VALUES ('shards', ?), "
                                    "('events', ?), ('time_begin', ?), ('time_end', ?), ('canonical_ids', ?)",
                                    no_rows, NULL, error, "iiiit", (gint64)shards->len, events, begin, end,
                                    SEXTANT_SHARD_CANONICAL_IDS) &&
         sextant_store_foreach_sql (manifest, "COMMIT", no_rows, NULL, error, "");
}

/* Bytes in @path's write-ahead log: none when every write is in the file,
 * as the import and the analysis (which checkpoints each shard before it
 * records it) leave a shard */
static gint64
wal_bytes (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  GStatBuf st;

  return g_stat (wal, &st) == 0 && S_ISREG (st.st_mode) ? st.st_size : 0;
}

/* An analysis of the manifest holds the lock on its shards' directory
 * @dir (sextant-manifest-lock.c) while it writes into the shards. The
 * probe holds a shared lock for an instant; an analysis that starts then
 * is refused as if another ran, but the probe is only made for a manifest
 * whose mark (SEXTANT_SHARD_ANALYSIS_UNFINISHED) is set. */
static gboolean
analysis_running (const char *dir)
{
  int fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  gboolean held;

  if (fd < 0)
    return FALSE;
  held = flock (fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close (fd);   /* drops the probe's lock */

  return held;
}

/* Which shards list_shards() accepts */
typedef enum
{
  SHARDS_UNCHECKED,
  SHARDS_READER,      /* as the manifest recorded them, and no analysis under way */
  SHARDS_ANALYSIS,    /* as the reader, or as an analysis that did not finish left them
                       * (the caller holds the lock and analyses them anew) */
} ShardsCheck;

typedef struct
{
  const char *manifest;
  char       *dir;
  GPtrArray  *paths;
  gboolean    compare;     /* with what the manifest recorded */
  GError     *stale;       /* the first shard that is not as the import left it */
} Check;

static gboolean
check_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Check *check = user_data;
  char *path = g_build_filename (check->dir, sextant_row_get_text (row, 1), NULL);
  gint64 size = 0;
  gint64 mtime_ns = 0;

  g_ptr_array_add (check->paths, path);
  if (check->stale != NULL)
    return TRUE;
  /* a missing shard is named whatever the mark says */
  if (!stat_shard (path, &size, &mtime_ns))
    g_set_error (&check->stale, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND,
                 "%s: shard %" G_GINT64_FORMAT " of the parallel import is missing: import the archive again",
                 path, sextant_row_get_int (row, 0));
  else if (!check->compare)
    return TRUE;
  else if (size != sextant_row_get_int (row, 2) || mtime_ns != sextant_row_get_int (row, 3))
    g_set_error (&check->stale, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                 "%s: shard %" G_GINT64_FORMAT " of the parallel import changed since the import "
                 "(%" G_GINT64_FORMAT " bytes, was %" G_GINT64_FORMAT "): import the archive again",
                 path, sextant_row_get_int (row, 0), size, sextant_row_get_int (row, 2));
  else if (wal_bytes (path) > 0)
    /* the file is as recorded, but what SQLite reads of it is not: the
     * first reader would take the log's writes into the file */
    g_set_error (&check->stale, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                 "%s: shard %" G_GINT64_FORMAT " of the parallel import changed since the import (its "
                 "write-ahead log holds %" G_GINT64_FORMAT " bytes): import the archive again",
                 path, sextant_row_get_int (row, 0), wal_bytes (path));

  return TRUE;
}

static gboolean
read_shards (SextantStore  *self,
             ShardsCheck    mode,
             Check         *check,
             GError       **error)
{
  g_autofree char *shards = sextant_store_get_meta (self, "shards");
  g_autofree char *canonical = NULL;
  g_autofree char *unfinished = NULL;
  g_autofree char *first = NULL;

  check->manifest = sextant_store_get_path (self);
  check->dir = g_path_get_dirname (check->manifest);
  check->paths = g_ptr_array_new_with_free_func (g_free);
  if (shards == NULL)
    return TRUE;
  /* the union reads the canonical ids as they are: a manifest whose shards
   * numbered them apart would mix up the shards' rows */
  canonical = sextant_store_get_meta (self, "canonical_ids");
  if (g_strcmp0 (canonical, SEXTANT_SHARD_CANONICAL_IDS) != 0)
    g_set_error (&check->stale, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                 "%s: the manifest's shards number their collectives apart (an older Sextant's "
                 "parallel import): import the archive again", sextant_store_get_path (self));
  /* an analysis marks the manifest before it writes into a shard, and
   * removes the mark when it records the shards anew: with the mark set,
   * the shards hold an analysis' writes, its own as it runs, or those of
   * one that was killed, which the next analysis redoes */
  unfinished = sextant_store_get_meta (self, SEXTANT_SHARD_ANALYSIS_UNFINISHED);
  check->compare = mode != SHARDS_UNCHECKED && unfinished == NULL;
  if (!sextant_store_foreach_sql (self, "SELECT id, path, size, mtime_ns FROM shard ORDER BY id",
                                  check_row, check, error, ""))
    return FALSE;
  if (mode != SHARDS_READER || unfinished == NULL || check->stale != NULL || check->paths->len == 0)
    return TRUE;
  first = g_path_get_dirname (g_ptr_array_index (check->paths, 0));
  if (analysis_running (first))
    g_set_error (&check->stale, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_BUSY,
                 "%s: an analysis of this manifest is running (it writes into its shards): wait until it ends",
                 check->manifest);
  else
    g_set_error (&check->stale, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                 "%s: its last analysis did not finish (killed?): run `sextant analyze %s` again",
                 check->manifest, check->manifest);

  return TRUE;
}

static void
check_clear (Check *check)
{
  g_clear_pointer (&check->dir, g_free);
  g_clear_pointer (&check->paths, g_ptr_array_unref);
  g_clear_error (&check->stale);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Check, check_clear)

static GPtrArray *
list_shards (SextantStore  *self,
             ShardsCheck    mode,
             GError       **error)
{
  g_auto(Check) check = { NULL };

  g_return_val_if_fail (SEXTANT_IS_STORE (self), NULL);

  if (!read_shards (self, mode, &check, error))
    return NULL;
  if (mode != SHARDS_UNCHECKED && check.stale != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&check.stale));
      return NULL;
    }

  return g_steal_pointer (&check.paths);
}

GPtrArray *
sextant_store_list_shards (SextantStore  *self,
                           GError       **error)
{
  return list_shards (self, SHARDS_READER, error);
}

GPtrArray *
sextant_store_list_shards_unchecked (SextantStore  *self,
                                     GError       **error)
{
  return list_shards (self, SHARDS_UNCHECKED, error);
}

GPtrArray *
sextant_store_list_shards_to_analyse (SextantStore  *self,
                                      GError       **error)
{
  return list_shards (self, SHARDS_ANALYSIS, error);
}

gboolean
sextant_store_check_shards (SextantStore  *self,
                            GError       **error)
{
  g_autoptr(GPtrArray) paths = sextant_store_list_shards (self, error);

  return paths != NULL;
}

gboolean
sextant_store_mark_analysis (SextantStore  *manifest,
                             GError       **error)
{
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (manifest), FALSE);

  /* synced: a crash after the first write into a shard must find it */
  if (!sextant_store_foreach_sql (manifest, "PRAGMA synchronous = FULL", no_rows, NULL, error, ""))
    return FALSE;
  ok = sextant_store_foreach_sql (manifest, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", no_rows,
                                  NULL, error, "t", SEXTANT_SHARD_ANALYSIS_UNFINISHED);

  return sextant_store_foreach_sql (manifest, "PRAGMA synchronous = NORMAL", no_rows, NULL, ok ? error : NULL, "") &&
         ok;
}
