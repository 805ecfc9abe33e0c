/*
 * sextant-store-shard-analysis.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQL of a parallel analysis on a manifest
 * (sextant-store-shard-analysis.h). The shards are opened one at a time,
 * not attached (SQLite attaches at most 10 databases in Debian's build):
 * the summary rows are few, a pattern's rows per location and call path.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "sextant-chunk-writer.h"
#include "sextant-store-instance-routes.h"
#include "sextant-store-private.h"
#include "sextant-store-shard-analysis.h"
#include "sextant-store-shards.h"
#include "sextant-store-views-private.h"

static gboolean
add_location (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  GPtrArray *shards = user_data;
  gint64 shard = sextant_row_get_int (row, 1);
  gint64 loc = sextant_row_get_int (row, 0);

  if (shard < 0 || shard >= (gint64)shards->len)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "location %" G_GINT64_FORMAT " is on shard %" G_GINT64_FORMAT ", which the manifest does not name",
                   loc, shard);
      return FALSE;
    }
  g_array_append_val (g_ptr_array_index (shards, shard), loc);

  return TRUE;
}

static gboolean
count_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  *(gint64 *)user_data = sextant_row_get_int (row, 0);

  return FALSE;
}

GPtrArray *
sextant_store_list_shard_locations (SextantStore  *manifest,
                                    GError       **error)
{
  g_autoptr(GPtrArray) shards = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  gint64 n = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (manifest), NULL);

  if (!sextant_store_foreach_sql (manifest, "SELECT count(*) FROM shard", count_row, &n, error, ""))
    return NULL;
  for (gint64 r = 0; r < n; r++)
    g_ptr_array_add (shards, g_array_new (FALSE, FALSE, sizeof (gint64)));
  if (!sextant_store_foreach_sql (manifest, "SELECT loc, shard FROM shard_location ORDER BY loc", add_location,
                                  shards, error, ""))
    return NULL;

  return g_steal_pointer (&shards);
}

static const char *
opt_text (const SextantRow *row,
          int               col)
{
  return sextant_row_is_null (row, col) ? NULL : sextant_row_get_text (row, col);
}

static gboolean
copy_pattern (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  return sextant_store_run (user_data, SEXTANT_STMT_PATTERN, error, "tittttttt", opt_text (row, 0),
                            sextant_row_get_int (row, 1), opt_text (row, 2), opt_text (row, 3), opt_text (row, 4),
                            opt_text (row, 5), opt_text (row, 6), opt_text (row, 7), opt_text (row, 8));
}

static gboolean
copy_aggregate (const SextantRow  *row,
                gpointer           user_data,
                GError           **error)
{
  return sextant_store_run (user_data, SEXTANT_STMT_PATTERN_AGGREGATE, error, "tittnttii", opt_text (row, 0),
                            sextant_row_get_int (row, 1), opt_text (row, 2), opt_text (row, 3),
                            sextant_row_is_null (row, 4) ? SEXTANT_NULL : sextant_row_get_int (row, 4),
                            opt_text (row, 5), opt_text (row, 6), sextant_row_get_int (row, 7),
                            sextant_row_get_int (row, 8));
}

static gboolean
copy_meta (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  return sextant_store_run (user_data, SEXTANT_STMT_META, error, "tt", opt_text (row, 0), opt_text (row, 1));
}

/* Shard @rank's summary into @manifest (the patterns and the scope from
 * the first shard: every shard ran the same), which instance ids it holds
 * (sextant-store-instance-routes.h), and its size and time */
static gboolean
merge_shard (SextantStore  *manifest,
             gint64         rank,
             const char    *path,
             gboolean       all_ok,
             GError       **error)
{
  g_autoptr(SextantStore) shard = NULL;
  gint64 busy = 0;
  GStatBuf st;

  /* the shard's write-ahead log into the file first: the size and time
   * recorded are then the file's for good, not until the last connection
   * to it (a window's reader) closes and checkpoints (best effort when the
   * analysis failed) */
  if (!all_ok && (shard = sextant_store_open (path, NULL)) != NULL)
    {
      sextant_store_foreach_sql (shard, "PRAGMA wal_checkpoint (TRUNCATE)", count_row, &busy, NULL, "");
      sextant_store_close (shard, NULL);
    }
  if (all_ok)
    {
      if (!(shard = sextant_store_open (path, error)))
        return FALSE;
      if ((rank == 0 &&
           (!sextant_store_foreach_sql (shard, "SELECT id, number, title, parent, description, criterion, comment, "
                                               "origin, parameters FROM pattern", copy_pattern, manifest, error, "") ||
            !sextant_store_foreach_sql (shard, "SELECT key, value FROM meta WHERE key IN ('analysis_selected', "
                                               "'analysis_parameters', 'analysis_catalogue')", copy_meta, manifest,
                                        error, ""))) ||
          !sextant_store_foreach_sql (shard, "SELECT pattern, loc, callpath, file, line, site_kind, function, "
                                             "severity, instances FROM pattern_aggregate", copy_aggregate, manifest,
                                      error, "") ||
          !sextant_store_write_instance_routes (manifest, shard, rank, error) ||
          !sextant_store_foreach_sql (shard, "PRAGMA wal_checkpoint (TRUNCATE)", count_row, &busy, error, "") ||
          !sextant_store_close (shard, error))
        return FALSE;
    }

  if (g_stat (path, &st) != 0)
    {
      int errsv = errno;

      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_NOT_FOUND, "%s: shard %" G_GINT64_FORMAT
                   " of the parallel import: %s", path, rank, g_strerror (errsv));
      return FALSE;
    }

  return sextant_store_foreach_sql (manifest, "UPDATE shard SET size = ?, mtime_ns = ? WHERE id = ?", count_row,
                                    NULL, error, "iii", (gint64)st.st_size,
                                    (gint64)st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec,
                                    rank);
}

typedef struct
{
  GArray    *ranks;
  GPtrArray *paths;
} Shards;

static gboolean
add_shard (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  Shards *shards = user_data;
  gint64 rank = sextant_row_get_int (row, 0);

  g_array_append_val (shards->ranks, rank);
  g_ptr_array_add (shards->paths, g_strdup (sextant_row_get_text (row, 1)));

  return TRUE;
}

gboolean
sextant_store_merge_shard_analyses (SextantStore  *manifest,
                                    gboolean       all_ok,
                                    GError       **error)
{
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_path_get_dirname (sextant_store_get_path (manifest));
  Shards shards = { ranks, paths };
  gboolean ok;

  g_return_val_if_fail (SEXTANT_IS_STORE (manifest), FALSE);

  if (!sextant_store_foreach_sql (manifest, "SELECT id, path FROM shard ORDER BY id", add_shard, &shards, error, "") ||
      !sextant_store_begin (manifest, error))
    return FALSE;
  ok = sextant_store_exec (manifest, SEXTANT_STMT_CLEAR_PATTERNS, error) &&
       sextant_store_write_instance_routes (manifest, NULL, -1, error) &&
       sextant_store_foreach_sql (manifest, "DELETE FROM meta WHERE key IN ('analysis_selected', "
                                            "'analysis_parameters', 'analysis_catalogue', "
                                            "'" SEXTANT_SHARD_ANALYSIS_UNFINISHED "')", count_row, NULL, error,
                                  "");
  for (guint i = 0; ok && i < paths->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (paths, i), NULL);

      ok = merge_shard (manifest, g_array_index (ranks, gint64, i), path, all_ok, error);
    }
  if (!ok)
    {
      sextant_store_rollback (manifest);
      return FALSE;
    }

  return sextant_store_commit (manifest, error);
}

char *
sextant_store_find_manifest_of (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *manifest = NULL;

  if (!g_str_has_suffix (dir, ".shards") || !g_str_has_prefix (base, "rank-") || !g_str_has_suffix (base, ".sextant"))
    return NULL;
  manifest = g_strndup (dir, strlen (dir) - strlen (".shards"));

  return g_file_test (manifest, G_FILE_TEST_IS_REGULAR) ? g_steal_pointer (&manifest) : NULL;
}

/* The halo ---------------------------------------------------------------- */

static int
compare_pairs (const void *a,
               const void *b)
{
  const gint64 *x = a, *y = b;

  if (x[0] != y[0])
    return x[0] < y[0] ? -1 : 1;

  return x[1] < y[1] ? -1 : x[1] > y[1];
}

typedef struct
{
  GHashTable  *own;        /* the shard's locations */
  gint64       last_loc;   /* the last location looked up in it, and whether it is the shard's */
  gboolean     last_own;
  GArray      *ids;        /* the visits named, of other locations */
  GArray      *pairs;      /* (send_loc, recv_loc) of the messages, or NULL */
  guint        n_cols;     /* of the table read */
  const guint *cols;       /* its columns that hold visit ids, ended by G_MAXUINT */
} Wanted;

/* A chunk of messages or collective members: the visits of other
 * locations that its rows name, and the messages' pairs */
static gboolean
add_wanted (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  Wanted *wanted = user_data;
  SextantChunk chunk;

  if (!_sextant_store_parse_chunk_row (row, wanted->n_cols, TRUE, &chunk, error))
    return FALSE;
  for (guint r = 0; r < chunk.n_rows; r++)
    {
      for (const guint *col = wanted->cols; *col != G_MAXUINT; col++)
        {
          gint64 visit = sextant_chunk_get (&chunk, *col, r);
          gint64 loc = visit >> 32;

          if (visit == SEXTANT_NULL)
            continue;
          if (loc != wanted->last_loc)
            {
              wanted->last_loc = loc;
              wanted->last_own = g_hash_table_contains (wanted->own, &loc);
            }
          if (!wanted->last_own)
            g_array_append_val (wanted->ids, visit);
        }
      if (wanted->pairs != NULL)
        {
          gint64 pair[2] = { sextant_chunk_get (&chunk, SEXTANT_MESSAGE_SEND_LOC, r),
                             sextant_chunk_get (&chunk, SEXTANT_MESSAGE_RECV_LOC, r) };

          if (pair[0] != SEXTANT_NULL && pair[1] != SEXTANT_NULL && pair[0] != pair[1])
            g_array_append_vals (wanted->pairs, pair, 2);
        }
    }
  return TRUE;
}

/* Sorts @values, records of @width integers, and drops repeated ones */
static void
sort_unique (GArray *values,
             guint   width)
{
  guint n = values->len / width;
  guint kept = 0;
  gint64 *v = (gint64 *)(void *)values->data;

  if (n == 0)
    return;
  qsort (v, n, width * sizeof (gint64), width == 1 ? _sextant_compare_int64 : compare_pairs);
  for (guint i = 0; i < n; i++)
    if (kept == 0 || memcmp (v + (gsize)(kept - 1) * width, v + (gsize)i * width, width * sizeof (gint64)) != 0)
      memmove (v + (gsize)kept++ * width, v + (gsize)i * width, width * sizeof (gint64));
  g_array_set_size (values, kept * width);
}

/**
 * sextant_store_list_halo_visits:
 * @own: the shard's locations (gint64* location.id, a set)
 * @pairs: (out) (element-type gint64): the distinct (send_loc, recv_loc)
 *   of @shard's messages between two locations, two integers each, sorted
 *
 * The visits of other locations that @shard's messages and collective
 * members name (a visit's id is its location's id << 32 + n): the calls at
 * the other ends, which the pattern rules read. One pass over the chunks
 * of messages and of members, decoded here.
 *
 * Returns: (transfer full) (element-type gint64): sorted visit ids
 */
GArray *
sextant_store_list_halo_visits (SextantStore  *shard,
                                GHashTable    *own,
                                GArray       **pairs,
                                GError       **error)
{
  static const guint message_cols[] = { SEXTANT_MESSAGE_SEND_VISIT, SEXTANT_MESSAGE_SEND_COMPLETE_VISIT,
                                        SEXTANT_MESSAGE_RECV_POST_VISIT, SEXTANT_MESSAGE_RECV_VISIT, G_MAXUINT };
  static const guint member_cols[] = { SEXTANT_MEMBER_VISIT, SEXTANT_MEMBER_END_VISIT, G_MAXUINT };
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) message_pairs = g_array_new (FALSE, FALSE, sizeof (gint64));
  Wanted wanted = { own, SEXTANT_NULL, FALSE, ids, message_pairs, SEXTANT_MESSAGE_N_COLUMNS, message_cols };

  if (!sextant_store_foreach_sql (shard, "SELECT first_row, n, header, data FROM message_chunk", add_wanted,
                                  &wanted, error, ""))
    return NULL;
  wanted.pairs = NULL;
  wanted.n_cols = SEXTANT_MEMBER_N_COLUMNS;
  wanted.cols = member_cols;
  if (!sextant_store_foreach_sql (shard, "SELECT first_row, n, header, data FROM collective_member_chunk",
                                  add_wanted, &wanted, error, ""))
    return NULL;
  sort_unique (ids, 1);
  sort_unique (message_pairs, 2);
  *pairs = g_steal_pointer (&message_pairs);

  return g_steal_pointer (&ids);
}

/* A pass over the visit chunks that answers the other shards */
typedef struct
{
  GPtrArray  *wanted;      /* GArray of gint64 by shard: the visits it asked for, sorted */
  guint      *next;        /* by shard: its first wanted visit not passed yet */
  GPtrArray  *answers;     /* GArray of gint64 rows, by shard */
  GHashTable *regions;     /* the regions of MPI_Init, MPI_Init_thread and MPI_Finalize */
  gint64      region_min;  /* their range */
  gint64      region_max;
  GArray     *bound_ids;   /* gint64, sorted: the visits of the RMA collectives and lock acquisitions */
  guint       next_bound;
  GArray     *bounds;      /* gint64 rows: what every other shard gets */
} Answering;

static gboolean
add_region (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  Answering *answering = user_data;
  gint64 region = sextant_row_get_int (row, 0);

  if (g_hash_table_size (answering->regions) == 0 || region < answering->region_min)
    answering->region_min = region;
  if (g_hash_table_size (answering->regions) == 0 || region > answering->region_max)
    answering->region_max = region;
  g_hash_table_add (answering->regions, GSIZE_TO_POINTER ((gsize)region));

  return TRUE;
}

static gboolean
add_id (const SextantRow  *row,
        gpointer           user_data,
        GError           **error)
{
  gint64 id = sextant_row_get_int (row, 0);

  g_array_append_val (user_data, id);

  return TRUE;
}

/* Row @r of @chunk, whose first row is visit @first, as
 * SEXTANT_HALO_COLUMNS integers at the end of @rows */
static void
append_visit (GArray             *rows,
              const SextantChunk *chunk,
              gint64              first,
              guint               r)
{
  gint64 row[SEXTANT_HALO_COLUMNS];

  row[0] = first + r;
  for (guint c = 0; c < SEXTANT_VISIT_N_COLUMNS; c++)
    row[c + 1] = sextant_chunk_get (chunk, c, r);
  g_array_append_vals (rows, row, SEXTANT_HALO_COLUMNS);
}

/* A chunk of visits (first_row, n, header, data): its rows that a shard
 * asked for into that shard's answer, and its calls that every shard gets
 * into the bounds. The data is read only when a row is wanted. */
static gboolean
answer_chunk (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  Answering *answering = user_data;
  gint64 first = sextant_row_get_int (row, 0);
  gint64 end = first + sextant_row_get_int (row, 1);
  const SextantChunkColumn *regions;
  gboolean attached = FALSE;
  gboolean scan_regions;
  SextantChunk chunk;

  if (!_sextant_store_parse_chunk_row (row, SEXTANT_VISIT_N_COLUMNS, FALSE, &chunk, error))
    return FALSE;
  regions = &chunk.cols[SEXTANT_VISIT_REGION];
  scan_regions = g_hash_table_size (answering->regions) > 0 && !regions->all_null &&
                 regions->min <= answering->region_max && regions->max >= answering->region_min;

#define ATTACH() \
  if (!attached && !(attached = _sextant_store_attach_chunk_data (row, &chunk, error))) \
    return FALSE

  for (guint r = 0; r < answering->wanted->len; r++)
    {
      GArray *ids = g_ptr_array_index (answering->wanted, r);
      guint *next = &answering->next[r];

      for (; *next < ids->len && g_array_index (ids, gint64, *next) < end; (*next)++)
        {
          gint64 id = g_array_index (ids, gint64, *next);

          if (id < first)
            continue;
          ATTACH ();
          append_visit (g_ptr_array_index (answering->answers, r), &chunk, first, (guint)(id - first));
        }
    }
  for (; answering->next_bound < answering->bound_ids->len &&
         g_array_index (answering->bound_ids, gint64, answering->next_bound) < end; answering->next_bound++)
    {
      gint64 id = g_array_index (answering->bound_ids, gint64, answering->next_bound);

      if (id < first)
        continue;
      ATTACH ();
      if (!scan_regions ||
          !g_hash_table_contains (answering->regions,
                                  GSIZE_TO_POINTER ((gsize)sextant_chunk_get (&chunk, SEXTANT_VISIT_REGION,
                                                                              (guint)(id - first)))))
        append_visit (answering->bounds, &chunk, first, (guint)(id - first));
    }
  if (scan_regions)
    {
      ATTACH ();
      for (guint r = 0; r < chunk.n_rows; r++)
        if (g_hash_table_contains (answering->regions,
                                   GSIZE_TO_POINTER ((gsize)sextant_chunk_get (&chunk, SEXTANT_VISIT_REGION, r))))
          append_visit (answering->bounds, &chunk, first, r);
    }
#undef ATTACH

  return TRUE;
}

/**
 * sextant_store_read_halo_visits:
 * @wanted: (element-type GArray<gint64>): by shard, the visits of @shard's
 *   locations it asked for (%NULL or empty: none), sorted here
 * @answers: (element-type GArray<gint64>): by shard, gets
 *   SEXTANT_HALO_COLUMNS integers per visit: its id and its columns as the
 *   visit table orders them
 *
 * The rows each shard asked for, and for every shard but @self those of
 * @shard's calls of MPI_Init, MPI_Init_thread and MPI_Finalize, of its RMA
 * collectives and of its lock acquisitions: the rules compare them across
 * all locations. One pass over the visits' chunks, decoded here (through
 * the visit table, a row cost 20 times more), reading the data of those
 * that hold a row to send.
 */
gboolean
sextant_store_read_halo_visits (SextantStore  *shard,
                                guint          self,
                                GPtrArray     *wanted,
                                GPtrArray     *answers,
                                GError       **error)
{
  g_autoptr(GHashTable) regions = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GArray) bound_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) bounds = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) asked = g_ptr_array_new ();
  g_autofree guint *next = g_new0 (guint, MAX (wanted->len, 1));
  Answering answering = { asked, next, answers, regions, 0, 0, bound_ids, 0, bounds };

  for (guint r = 0; r < wanted->len; r++)
    {
      GArray *ids = g_ptr_array_index (wanted, r);

      if (ids == NULL)
        ids = g_array_new (FALSE, FALSE, sizeof (gint64));
      else
        {
          g_array_ref (ids);
          g_array_sort (ids, _sextant_compare_int64);
        }
      g_ptr_array_add (asked, ids);
    }
  g_ptr_array_set_free_func (asked, (GDestroyNotify)g_array_unref);

  if (!sextant_store_foreach_sql (shard, "SELECT id FROM region WHERE name IN ('MPI_Init', 'MPI_Init_thread', "
                                         "'MPI_Finalize') AND paradigm = 'MPI'", add_region, &answering, error, "") ||
      !sextant_store_foreach_sql (shard, "SELECT visit FROM rma_sync WHERE kind = 'RMA_COLLECTIVE' AND visit IS NOT "
                                         "NULL UNION SELECT acquire_visit FROM lock WHERE acquire_visit IS NOT NULL "
                                         "ORDER BY 1", add_id, bound_ids, error, "") ||
      !sextant_store_foreach_sql (shard, "SELECT first_row, n, header, data FROM visit_chunk ORDER BY first_row",
                                  answer_chunk, &answering, error, ""))
    return FALSE;
  for (guint r = 0; r < answers->len; r++)
    if (r != self)
      g_array_append_vals (g_ptr_array_index (answers, r), bounds->data, bounds->len);

  return TRUE;
}

/* The rows of other shards that whole-trace rules read: the RMA
 * collectives' records (rma_sync), the call-path profile of MPI calls
 * (by path name: a shard numbers its call paths itself), the locks and
 * the distinct (sender, receiver) pairs of the messages (master_workers) */
#define EXTRAS_TYPE "(a(xxxsxxxmsx)a(sxxxxxxx)a(xsxxxmsxxxxx)a(xx))"

static gboolean
add_rma_row (const SextantRow  *row,
             gpointer           user_data,
             GError           **error)
{
  g_variant_builder_add (user_data, "(xxxsxxxmsx)", sextant_row_get_int (row, 0), sextant_row_get_int (row, 1),
                         sextant_row_get_int_or_null (row, 2), sextant_row_get_text (row, 3),
                         sextant_row_get_int_or_null (row, 4), sextant_row_get_int_or_null (row, 5),
                         sextant_row_get_int_or_null (row, 6), opt_text (row, 7),
                         sextant_row_get_int_or_null (row, 8));

  return TRUE;
}

static gboolean
add_profile_row (const SextantRow  *row,
                 gpointer           user_data,
                 GError           **error)
{
  g_variant_builder_add (user_data, "(sxxxxxxx)", sextant_row_get_text (row, 0), sextant_row_get_int (row, 1),
                         sextant_row_get_int (row, 2), sextant_row_get_int (row, 3), sextant_row_get_int (row, 4),
                         sextant_row_get_int (row, 5), sextant_row_get_int (row, 6), sextant_row_get_int (row, 7));

  return TRUE;
}

static gboolean
add_lock_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  g_variant_builder_add (user_data, "(xsxxxmsxxxxx)", sextant_row_get_int (row, 0), sextant_row_get_text (row, 1),
                         sextant_row_get_int_or_null (row, 2), sextant_row_get_int_or_null (row, 3),
                         sextant_row_get_int_or_null (row, 4), opt_text (row, 5),
                         sextant_row_get_int_or_null (row, 6), sextant_row_get_int_or_null (row, 7),
                         sextant_row_get_int_or_null (row, 8), sextant_row_get_int_or_null (row, 9),
                         sextant_row_get_int (row, 10));

  return TRUE;
}

/**
 * sextant_store_read_halo_extras:
 *
 * What every other shard takes in of @shard (its locations' rows): the
 * RMA collectives' records, the call-path profile of its MPI calls, the
 * locks (a lock's holders can be on other shards) and who sends messages
 * to whom (a master's workers talk to it only, which no shard sees alone:
 * @pairs, from sextant_store_list_halo_visits()).
 *
 * Returns: (transfer full): serialized, for sextant_store_add_halo()
 */
GBytes *
sextant_store_read_halo_extras (SextantStore  *shard,
                                GArray        *pairs,
                                GError       **error)
{
  g_auto(GVariantBuilder) rma = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(xxxsxxxmsx)"));
  g_auto(GVariantBuilder) profile = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(sxxxxxxx)"));
  g_auto(GVariantBuilder) locks = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(xsxxxmsxxxxx)"));
  g_autoptr(GVariant) extras = NULL;

  if (!sextant_store_foreach_sql (shard, "SELECT loc, time, visit, kind, win, remote, level, detail, end_time "
                                         "FROM rma_sync WHERE kind = 'RMA_COLLECTIVE'", add_rma_row, &rma, error,
                                  "") ||
      !sextant_store_foreach_sql (shard, "SELECT p.name, p.region, p.depth, f.loc, f.visits, f.inclusive, "
                                         "f.exclusive, f.last_visit FROM call_path_profile AS f "
                                         "JOIN call_path AS p ON p.id = f.path JOIN region AS r ON r.id = p.region "
                                         "WHERE r.paradigm = 'MPI'", add_profile_row, &profile, error, "") ||
      !sextant_store_foreach_sql (shard, "SELECT loc, family, win, target, lock_id, lock_type, request_time, "
                                         "acquire_time, release_time, acquire_visit, try_failed FROM lock",
                                  add_lock_row, &locks, error, ""))
    return NULL;
  extras = g_variant_ref_sink (g_variant_new ("(@a(xxxsxxxmsx)@a(sxxxxxxx)@a(xsxxxmsxxxxx)@a(xx))",
                                              g_variant_builder_end (&rma), g_variant_builder_end (&profile),
                                              g_variant_builder_end (&locks),
                                              g_variant_new_fixed_array (G_VARIANT_TYPE ("(xx)"), pairs->data,
                                                                         pairs->len / 2, 2 * sizeof (gint64))));

  return g_variant_get_data_as_bytes (extras);
}

static gboolean
add_max (const SextantRow  *row,
         gpointer           user_data,
         GError           **error)
{
  *(gint64 *)user_data = sextant_row_get_int_or_null (row, 0) == SEXTANT_NULL ? -1 : sextant_row_get_int (row, 0);

  return FALSE;
}

static gboolean
add_path_name (const SextantRow  *row,
               gpointer           user_data,
               GError           **error)
{
  g_hash_table_insert (user_data, g_strdup (sextant_row_get_text (row, 1)),
                       g_memdup2 (&(gint64) { sextant_row_get_int (row, 0) }, sizeof (gint64)));

  return TRUE;
}

/* Another shard's extras into @shard: its rows with ids after @halo's marks */
static gboolean
add_extras (SextantStore  *shard,
            GBytes        *bytes,
            GHashTable    *paths,
            SextantHalo   *halo,
            GError       **error)
{
  g_autoptr(GVariant) extras = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (EXTRAS_TYPE), bytes,
                                                                             FALSE));
  g_autoptr(GVariant) rma = g_variant_get_child_value (extras, 0);
  g_autoptr(GVariant) profile = g_variant_get_child_value (extras, 1);
  g_autoptr(GVariant) locks = g_variant_get_child_value (extras, 2);
  g_autoptr(GVariant) pairs = g_variant_get_child_value (extras, 3);
  GVariantIter iter;
  gint64 loc, time, visit, win, remote, level, end_time, region, depth, visits, inclusive, exclusive, last;
  gint64 target, lock_id, request, acquire, release, failed, send_loc, recv_loc;
  const char *kind, *detail, *name, *family, *type;

  g_variant_iter_init (&iter, rma);
  while (g_variant_iter_next (&iter, "(xxx&sxxxm&sx)", &loc, &time, &visit, &kind, &win, &remote, &level,
                              &detail, &end_time))
    if (!sextant_store_run (shard, SEXTANT_STMT_RMA_SYNC, error, "iintnnntnn", loc, time, visit, kind, win, remote,
                            level, detail, end_time, SEXTANT_NULL))
      return FALSE;

  g_variant_iter_init (&iter, profile);
  while (g_variant_iter_next (&iter, "(&sxxxxxxx)", &name, &region, &depth, &loc, &visits, &inclusive, &exclusive,
                              &last))
    {
      gint64 *path = g_hash_table_lookup (paths, name);

      if (path == NULL)
        {
          gint64 id = ++halo->last_call_path;

          if (!sextant_store_run (shard, SEXTANT_STMT_HALO_CALL_PATH, error, "iiit", id, region, depth, name))
            return FALSE;
          path = g_memdup2 (&id, sizeof id);
          g_hash_table_insert (paths, g_strdup (name), path);
        }
      if (!sextant_store_run (shard, SEXTANT_STMT_HALO_PROFILE, error, "iiiiii", loc, *path, visits, inclusive,
                              exclusive, last))
        return FALSE;
      g_array_append_val (halo->locations, loc);
    }

  g_variant_iter_init (&iter, locks);
  while (g_variant_iter_next (&iter, "(x&sxxxm&sxxxxx)", &loc, &family, &win, &target, &lock_id, &type, &request,
                              &acquire, &release, &visit, &failed))
    if (!sextant_store_run (shard, SEXTANT_STMT_LOCK, error, "itnnntnnnnin", loc, family, win, target, lock_id, type,
                            request, acquire, release, visit, failed, SEXTANT_NULL))
      return FALSE;

  g_variant_iter_init (&iter, pairs);
  while (g_variant_iter_next (&iter, "(xx)", &send_loc, &recv_loc))
    if (!sextant_store_run (shard, SEXTANT_STMT_HALO_MESSAGE_PAIR, error, "ii", send_loc, recv_loc))
      return FALSE;

  return TRUE;
}

/* The halo a shard holds, in its meta (HALO_META) from the transaction
 * that wrote it to the one that takes it out: an analysis killed in between
 * leaves it, and the next one takes it out before it writes its own.
 * "RMA_SYNC LOCK FIRST_PATH LAST_PATH;LOC,...;LOC,...": the own rows' last
 * ids, the locations of the halo's visit chunks and of its profile rows. */
#define HALO_META "halo"

static void
append_ids (GString      *text,
            const GArray *ids,
            gint          shift)
{
  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i) >> shift;

      if (shift == 0 || i == 0 || g_array_index (ids, gint64, i - 1) >> shift != id)
        g_string_append_printf (text, "%" G_GINT64_FORMAT ",", id);
    }
}

static char *
halo_record (const SextantHalo *halo)
{
  GString *text = g_string_new (NULL);

  g_string_printf (text, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT ";",
                   halo->last_rma_sync, halo->last_lock, halo->first_call_path, halo->last_call_path);
  append_ids (text, halo->first_rows, 32);
  g_string_append_c (text, ';');
  append_ids (text, halo->locations, 0);

  return g_string_free (text, FALSE);
}

/* The halo of halo_record()'s @text, its chunks a first row per location */
static SextantHalo *
halo_parse (const char  *text,
            GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ";", 3);
  SextantHalo *halo;

  if (g_strv_length (parts) != 3)
    goto damaged;
  halo = sextant_halo_new ();
  if (sscanf (parts[0], "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
              &halo->last_rma_sync, &halo->last_lock, &halo->first_call_path, &halo->last_call_path) != 4)
    {
      sextant_halo_free (halo);
      goto damaged;
    }
  for (guint k = 1; k <= 2; k++)
    {
      g_auto(GStrv) ids = g_strsplit (parts[k], ",", -1);

      for (guint i = 0; ids[i] != NULL; i++)
        if (*ids[i] != '\0')
          {
            gint64 id = g_ascii_strtoll (ids[i], NULL, 10);

            if (k == 1)
              id <<= 32;
            g_array_append_val (k == 1 ? halo->first_rows : halo->locations, id);
          }
    }

  return halo;

damaged:
  g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
               "the record of the halo an analysis left is damaged (\"%s\"): import the archive again", text);
  return NULL;
}

/* Takes out the halo a killed analysis left in @shard, if any */
static gboolean
remove_left_halo (SextantStore  *shard,
                  GError       **error)
{
  g_autofree char *left = sextant_store_get_meta (shard, HALO_META);
  SextantHalo *halo;
  gboolean ok;

  if (left == NULL)
    return TRUE;
  if ((halo = halo_parse (left, error)) == NULL)
    return FALSE;
  g_debug ("%s: taking out the halo an analysis that did not finish left", sextant_store_get_path (shard));
  ok = sextant_store_remove_halo (shard, halo, FALSE, error);
  sextant_halo_free (halo);

  return ok;
}

/**
 * sextant_store_add_halo:
 * @rows: (array length=n_rows): SEXTANT_HALO_COLUMNS integers per visit,
 *   of other shards' locations (sorted here; a visit twice is written once)
 * @extras: (element-type GBytes): the other shards'
 *   sextant_store_read_halo_extras()
 * @halo: gets what sextant_store_remove_halo() takes out again
 *
 * Writes other shards' visits and extras into @shard, committed, so that
 * an analysis's connections read them as their own.
 */
gboolean
sextant_store_add_halo (SextantStore  *shard,
                        gint64        *rows,
                        guint          n_rows,
                        GPtrArray     *extras,
                        SextantHalo   *halo,
                        GError       **error)
{
  g_autoptr(GHashTable) paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  SextantChunkWriter *writer;
  gint64 last = 0;
  gboolean ok;

  if (n_rows > 0)
    qsort (rows, n_rows, SEXTANT_HALO_COLUMNS * sizeof (gint64), _sextant_compare_int64);
  if (!remove_left_halo (shard, error) ||
      !sextant_store_foreach_sql (shard, "SELECT max (id) FROM rma_sync", add_max, &halo->last_rma_sync, error, "") ||
      !sextant_store_foreach_sql (shard, "SELECT max (id) FROM lock", add_max, &halo->last_lock, error, "") ||
      !sextant_store_foreach_sql (shard, "SELECT max (id) FROM call_path", add_max, &halo->last_call_path, error,
                                  "") ||
      !sextant_store_foreach_sql (shard, "SELECT id, name FROM call_path", add_path_name, paths, error, "") ||
      !sextant_store_begin (shard, error))
    return FALSE;
  /* (a run killed before it took its halo out left this table) */
  ok = sextant_store_foreach_sql (shard, "DROP TABLE IF EXISTS " SEXTANT_HALO_MESSAGE_PAIRS, count_row, NULL, error,
                                  "") &&
       sextant_store_foreach_sql (shard, "CREATE TABLE " SEXTANT_HALO_MESSAGE_PAIRS " (send_loc INTEGER NOT NULL, "
                                         "recv_loc INTEGER NOT NULL)", count_row, NULL, error, "");
  if (!ok)
    {
      sextant_store_rollback (shard);
      return FALSE;
    }
  halo->first_call_path = halo->last_call_path;
  writer = sextant_chunk_writer_new (shard, SEXTANT_CHUNK_VISIT, SEXTANT_VISIT_N_COLUMNS, 0, 4096);
  for (guint i = 0; ok && i < n_rows; i++)
    {
      const gint64 *row = rows + (gsize)i * SEXTANT_HALO_COLUMNS;

      if (i > 0 && row[0] == last)
        continue;     /* the same visit again */
      if (i == 0 || row[0] != last + 1)
        {
          ok = sextant_chunk_writer_flush (writer, error);
          sextant_chunk_writer_restart (writer, row[0]);
          g_array_append_val (halo->first_rows, row[0]);
        }
      ok = ok && sextant_chunk_writer_append (writer, row + 1, error) >= 0;
      last = row[0];
    }
  ok = ok && sextant_chunk_writer_flush (writer, error);
  sextant_chunk_writer_free (writer);
  for (guint r = 0; ok && r < extras->len; r++)
    ok = add_extras (shard, g_ptr_array_index (extras, r), paths, halo, error);
  if (ok)
    {
      g_autofree char *record = halo_record (halo);

      ok = sextant_store_foreach_sql (shard, "INSERT OR REPLACE INTO meta (key, value) VALUES ('" HALO_META "', ?)",
                                      count_row, NULL, error, "t", record);
    }
  if (!ok)
    {
      sextant_store_rollback (shard);
      return FALSE;
    }

  return sextant_store_commit (shard, error);
}

/**
 * sextant_store_remove_halo:
 * @halo: from sextant_store_add_halo()
 *
 * Takes out what sextant_store_add_halo() wrote, in the transaction under
 * way (the analysis's) or, with none, in one of its own.
 */
gboolean
sextant_store_remove_halo (SextantStore  *shard,
                           SextantHalo   *halo,
                           gboolean       in_transaction,
                           GError       **error)
{
  gboolean ok;

  if (!in_transaction && !sextant_store_begin (shard, error))
    return FALSE;
  ok = sextant_store_foreach_sql (shard, "DELETE FROM rma_sync WHERE id > ?", count_row, NULL, error, "i",
                                  halo->last_rma_sync) &&
       sextant_store_foreach_sql (shard, "DROP TABLE IF EXISTS " SEXTANT_HALO_MESSAGE_PAIRS, count_row, NULL, error,
                                  "") &&
       sextant_store_foreach_sql (shard, "DELETE FROM lock WHERE id > ?", count_row, NULL, error, "i",
                                  halo->last_lock) &&
       sextant_store_foreach_sql (shard, "DELETE FROM call_path WHERE id > ?", count_row, NULL, error, "i",
                                  halo->first_call_path) &&
       sextant_store_foreach_sql (shard, "DELETE FROM meta WHERE key = '" HALO_META "'", count_row, NULL, error, "");
  /* the halo's chunks, a statement per location they hold (few): the
   * chunks of a location are a range of first rows */
  for (guint i = 0; ok && i < halo->first_rows->len; i++)
    {
      gint64 loc = g_array_index (halo->first_rows, gint64, i) >> 32;

      if (i > 0 && g_array_index (halo->first_rows, gint64, i - 1) >> 32 == loc)
        continue;
      ok = sextant_store_foreach_sql (shard, "DELETE FROM visit_chunk WHERE first_row BETWEEN ? AND ?", count_row,
                                      NULL, error, "ii", loc << 32, (loc << 32) + G_GINT64_CONSTANT (0xffffffff));
    }
  for (guint i = 0; ok && i < halo->locations->len; i++)
    ok = sextant_store_foreach_sql (shard, "DELETE FROM call_path_profile WHERE loc = ?", count_row, NULL, error,
                                    "i", g_array_index (halo->locations, gint64, i));
  if (!ok && !in_transaction)
    sextant_store_rollback (shard);

  return ok && (in_transaction || sextant_store_commit (shard, error));
}

SextantHalo *
sextant_halo_new (void)
{
  SextantHalo *halo = g_new0 (SextantHalo, 1);

  halo->first_rows = g_array_new (FALSE, FALSE, sizeof (gint64));
  halo->locations = g_array_new (FALSE, FALSE, sizeof (gint64));

  return halo;
}

void
sextant_halo_free (SextantHalo *halo)
{
  g_array_unref (halo->first_rows);
  g_array_unref (halo->locations);
  g_free (halo);
}
