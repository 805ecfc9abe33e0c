/*
 * sextant-store-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The trace store's engine side: the bulk load, the statements by name, the
 * rows of their results and the layout of the column tables. For trace/,
 * patterns/, the command line, the tests and the benchmarks; ui/ reads the
 * store through the typed readers of sextant-store.h only (a test fails
 * when a file under ui/ includes this header, <sqlite3.h> or OTF2's).
 *
 * Threading is that of sextant-store.h: everything here is for the thread
 * that owns the store, except sextant_store_run(), sextant_store_run_rows(),
 * sextant_store_exec(), sextant_store_write_chunk() and
 * sextant_store_write_encoded_chunk(),
 * which serialize on the store's lock and may be called by several threads
 * at once while the owner calls nothing else.
 */
#pragma once

#include <time.h>

#include "sextant-row.h"
#include "sextant-shared-views.h"
#include "sextant-store.h"

G_BEGIN_DECLS

/* A GCompareFunc of gint64 values (ids), ascending */
static inline int
_sextant_compare_int64 (gconstpointer a,
                        gconstpointer b)
{
  gint64 x = *(const gint64 *)a;
  gint64 y = *(const gint64 *)b;

  return x < y ? -1 : x > y;
}

/* CPU time of the calling thread, in microseconds (0 if unknown), for the
 * debug log of the import and the analysis: on a loaded machine the wall
 * time of a phase says little. */
static inline gint64
sextant_thread_cpu_usec (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;

  return (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

typedef enum
{
  /* Definitions and bookkeeping (bulk load) */
  SEXTANT_STMT_META,
  SEXTANT_STMT_LOG,
  SEXTANT_STMT_DEFINITION_COUNT,
  SEXTANT_STMT_STRING,
  SEXTANT_STMT_SYSTEM_TREE_NODE,
  SEXTANT_STMT_SYSTEM_TREE_NODE_PROPERTY,
  SEXTANT_STMT_SYSTEM_TREE_NODE_DOMAIN,
  SEXTANT_STMT_LOCATION_GROUP,
  SEXTANT_STMT_LOCATION,
  SEXTANT_STMT_LOCATION_PROPERTY,
  SEXTANT_STMT_LOCATION_UPDATE,
  SEXTANT_STMT_PARADIGM,
  SEXTANT_STMT_REGION,
  SEXTANT_STMT_GROUP,
  SEXTANT_STMT_GROUP_MEMBER,
  SEXTANT_STMT_COMM,
  SEXTANT_STMT_COMM_MEMBER,
  SEXTANT_STMT_RMA_WINDOW,
  SEXTANT_STMT_SOURCE_CODE_LOCATION,
  SEXTANT_STMT_CALLING_CONTEXT,
  SEXTANT_STMT_CALLPATH,
  SEXTANT_STMT_CALLSITE,
  SEXTANT_STMT_METRIC_MEMBER,
  SEXTANT_STMT_METRIC,
  SEXTANT_STMT_METRIC_CLASS_MEMBER,
  SEXTANT_STMT_ATTRIBUTE,
  SEXTANT_STMT_PARAMETER,

  /* Events (bulk load) */
  SEXTANT_STMT_EVENT_COUNT,
  SEXTANT_STMT_VISIT_CHUNK,
  SEXTANT_STMT_MESSAGE_CHUNK,
  SEXTANT_STMT_COLLECTIVE_MEMBER_CHUNK,
  SEXTANT_STMT_LOD_CHUNK,
  SEXTANT_STMT_CALL_PATH,
  SEXTANT_STMT_CALL_PATH_PROFILE,
  SEXTANT_STMT_VISIT_ATTRIBUTE,
  SEXTANT_STMT_COLLECTIVE,
  SEXTANT_STMT_RMA_OP,
  SEXTANT_STMT_RMA_SYNC,
  SEXTANT_STMT_LOCK,
  SEXTANT_STMT_METRIC_VALUE,
  SEXTANT_STMT_THREAD_EVENT,
  SEXTANT_STMT_PROGRAM,
  SEXTANT_STMT_PARAMETER_VALUE,
  SEXTANT_STMT_SAMPLE,

  /* After the events (no parameters) */
  SEXTANT_STMT_RESOLVE_RMA_TARGETS,

  /* Queries */
  SEXTANT_QUERY_META,
  SEXTANT_QUERY_DEFINITION_COUNTS,
  SEXTANT_QUERY_EVENT_COUNTS,
  SEXTANT_QUERY_LOCATIONS,
  SEXTANT_QUERY_SUMMARY_COUNTS,
  SEXTANT_QUERY_IMPORT_LOG,
  SEXTANT_QUERY_LOCATION_VISITS,
  SEXTANT_QUERY_TIME_SPAN,
  SEXTANT_QUERY_LOCATION_VISIT_RANGES,
  SEXTANT_QUERY_LOD_BUCKETS,
  SEXTANT_QUERY_REGION_NAMES,
  SEXTANT_QUERY_FIRST_VISIT_FROM,
  SEXTANT_QUERY_VISIT_BY_ID,
  SEXTANT_QUERY_VISITS_ENTERED,
  SEXTANT_QUERY_MESSAGES_IN_VIEW,
  SEXTANT_QUERY_RMA_OPS_IN_VIEW,
  SEXTANT_QUERY_RMA_SYNCS_IN_VIEW,
  SEXTANT_QUERY_RMA_LOCKS_IN_VIEW,
  SEXTANT_QUERY_RMA_FLUSHES_IN_VIEW,

  /* Patterns (sextant analyze) */
  SEXTANT_STMT_CLEAR_PATTERNS,
  SEXTANT_STMT_PATTERN,
  SEXTANT_STMT_PATTERN_AGGREGATE,
  SEXTANT_STMT_PATTERN_INSTANCE_CHUNK,
  SEXTANT_STMT_PATTERN_SITE,
  SEXTANT_STMT_PATTERN_NOTE,
  SEXTANT_STMT_WAIT_STATE_CHUNK,
  SEXTANT_STMT_HALO_CALL_PATH,
  SEXTANT_STMT_HALO_PROFILE,
  SEXTANT_STMT_HALO_MESSAGE_PAIR,
  SEXTANT_QUERY_SOURCE_CODE_LOCATION,
  SEXTANT_QUERY_CONTEXT_SOURCE,
  SEXTANT_QUERY_CALL_PATH,
  SEXTANT_QUERY_REGION_SOURCE,
  SEXTANT_QUERY_CALL_PATH_NAME,
  SEXTANT_QUERY_TOTAL_TIME,
  SEXTANT_QUERY_PATTERN_TOTALS,
  SEXTANT_QUERY_PATTERN_BY_LOCATION,
  SEXTANT_QUERY_PATTERN_TOP_SITES,
  SEXTANT_QUERY_PATTERN_BY_CALLPATH,

  /* Reports */
  SEXTANT_QUERY_REGION_PROFILE,
  SEXTANT_QUERY_COMM_MATRIX,
  SEXTANT_QUERY_MESSAGE_SIZES,
  SEXTANT_QUERY_TOP_INSTANCES,
  SEXTANT_QUERY_PATTERN_INSTANCES,
  SEXTANT_QUERY_LOCATION_LABELS,
  SEXTANT_QUERY_VISITS_IN_WINDOW,

  /* The typed readers of sextant-store.h */
  SEXTANT_QUERY_LOCATION_INFOS,
  SEXTANT_QUERY_RUN_SPAN,
  SEXTANT_QUERY_PATTERN_TOTAL_LIST,
  SEXTANT_QUERY_PATTERN_INSTANCE_LIST,
  SEXTANT_QUERY_PATTERN_INSTANCE_BY_ID,

  SEXTANT_N_STMTS
} SextantStoreStmt;

/* The SQL of each statement (sextant-store-sql.c). */
G_GNUC_INTERNAL extern const char * const _sextant_store_stmt_sql[SEXTANT_N_STMTS];

/* The tables stored as column chunks, and their stored columns in the order
 * of schema-1.sql (the row id is not stored). */
typedef enum
{
  SEXTANT_CHUNK_VISIT,
  SEXTANT_CHUNK_MESSAGE,
  SEXTANT_CHUNK_COLLECTIVE_MEMBER,
  SEXTANT_CHUNK_LOD,
  SEXTANT_CHUNK_PATTERN_INSTANCE,
  SEXTANT_CHUNK_WAIT_STATE,
  SEXTANT_N_CHUNK_TABLES
} SextantChunkTable;

enum
{
  SEXTANT_VISIT_LOC, SEXTANT_VISIT_REGION, SEXTANT_VISIT_ENTER, SEXTANT_VISIT_LEAVE,
  SEXTANT_VISIT_DEPTH, SEXTANT_VISIT_PARENT, SEXTANT_VISIT_CONTEXT, SEXTANT_VISIT_SCL,
  SEXTANT_VISIT_PATH,
  SEXTANT_VISIT_N_COLUMNS
};

enum
{
  SEXTANT_MESSAGE_COMM, SEXTANT_MESSAGE_TAG, SEXTANT_MESSAGE_BYTES, SEXTANT_MESSAGE_SEND_LOC,
  SEXTANT_MESSAGE_RECV_LOC, SEXTANT_MESSAGE_SEND_MODE, SEXTANT_MESSAGE_RECV_MODE,
  SEXTANT_MESSAGE_SEND_TIME, SEXTANT_MESSAGE_SEND_VISIT, SEXTANT_MESSAGE_SEND_REQUEST,
  SEXTANT_MESSAGE_SEND_COMPLETE_TIME, SEXTANT_MESSAGE_SEND_COMPLETE_VISIT,
  SEXTANT_MESSAGE_RECV_POST_TIME, SEXTANT_MESSAGE_RECV_POST_VISIT, SEXTANT_MESSAGE_RECV_TIME,
  SEXTANT_MESSAGE_RECV_VISIT, SEXTANT_MESSAGE_RECV_REQUEST, SEXTANT_MESSAGE_RECV_BYTES,
  SEXTANT_MESSAGE_N_COLUMNS
};

/* send_mode, recv_mode */
#define SEXTANT_MODE_BLOCKING    0
#define SEXTANT_MODE_NONBLOCKING 1

enum
{
  SEXTANT_MEMBER_COLLECTIVE, SEXTANT_MEMBER_LOC, SEXTANT_MEMBER_VISIT, SEXTANT_MEMBER_END_VISIT,
  SEXTANT_MEMBER_BEGIN, SEXTANT_MEMBER_END, SEXTANT_MEMBER_BYTES_SENT, SEXTANT_MEMBER_BYTES_RECEIVED,
  SEXTANT_MEMBER_N_COLUMNS
};

enum
{
  SEXTANT_LOD_LOC, SEXTANT_LOD_LEVEL, SEXTANT_LOD_BUCKET, SEXTANT_LOD_REGION, SEXTANT_LOD_BUSY,
  SEXTANT_LOD_T_FIRST,
  SEXTANT_LOD_N_COLUMNS = SEXTANT_LOD_T_FIRST + 8
};

enum
{
  SEXTANT_INSTANCE_SEVERITY, SEXTANT_INSTANCE_LOC, SEXTANT_INSTANCE_VISIT, SEXTANT_INSTANCE_REGION,
  SEXTANT_INSTANCE_PATH, SEXTANT_INSTANCE_SITE, SEXTANT_INSTANCE_BEGIN, SEXTANT_INSTANCE_END,
  SEXTANT_INSTANCE_PEER_LOC, SEXTANT_INSTANCE_MESSAGE, SEXTANT_INSTANCE_COLLECTIVE,
  SEXTANT_INSTANCE_N_COLUMNS
};

/* wait_state (row id: the instance); cause 0 direct, 1 propagated */
enum
{
  SEXTANT_WAIT_STATE_CAUSE, SEXTANT_WAIT_STATE_CAUSE_INSTANCE, SEXTANT_WAIT_STATE_ROOT_INSTANCE,
  SEXTANT_WAIT_STATE_ROOT_LOC,
  SEXTANT_WAIT_STATE_N_COLUMNS
};

/* meta analysis_selected when every pattern of the set ran (else the
 * selected ids, separated by spaces) */
#define SEXTANT_ANALYSIS_ALL_PATTERNS "*"

SextantStore *sextant_store_create          (const char        *path,
                                             GError           **error);
GCancellable *sextant_store_get_cancellable (SextantStore      *self);
gboolean      sextant_store_set_error_if_cancelled (SextantStore *self,
                                             GError           **error);
gboolean      sextant_store_begin           (SextantStore      *self,
                                             GError           **error);
gboolean      sextant_store_commit          (SextantStore      *self,
                                             GError           **error);
void          sextant_store_rollback        (SextantStore      *self);
gboolean      sextant_store_exec            (SextantStore      *self,
                                             SextantStoreStmt   stmt,
                                             GError           **error);
gboolean      sextant_store_run             (SextantStore      *self,
                                             SextantStoreStmt   stmt,
                                             GError           **error,
                                             const char        *types,
                                             ...);
/* Rows per statement of sextant_store_run_rows(): a statement of that many
 * rows is written whole or not at all; fewer rows (the rest) go one a
 * statement */
#define SEXTANT_STORE_ROWS_PER_INSERT 64

/* A value of sextant_store_run_rows(), by its type character */
typedef union
{
  gint64       i;   /* 'i', 'n' */
  const char  *t;   /* 't' */
  double       d;   /* 'd' */
} SextantStoreValue;

gboolean      sextant_store_run_rows        (SextantStore             *self,
                                             SextantStoreStmt          stmt,
                                             const char               *types,
                                             const SextantStoreValue  *values,
                                             guint                     n_rows,
                                             GError                  **error);
gboolean      sextant_store_run_rows_keep_first (SextantStore             *self,
                                                 SextantStoreStmt          stmt,
                                                 const char               *types,
                                                 const SextantStoreValue  *values,
                                                 guint                     n_rows,
                                                 guint                    *n_skipped,
                                                 GError                  **error);
gboolean      sextant_store_write_chunk     (SextantStore      *self,
                                             SextantChunkTable  table,
                                             gint64             first_row,
                                             const gint64 * const *columns,
                                             gsize              stride,
                                             const gint64      *constants,
                                             guint              n_cols,
                                             guint              n_rows,
                                             GError           **error);
gboolean      sextant_store_write_encoded_chunk (SextantStore  *self,
                                             SextantChunkTable  table,
                                             gint64             first_row,
                                             const guint8      *header,
                                             guint              n_cols,
                                             guint              n_rows,
                                             gconstpointer      data,
                                             gsize              size,
                                             GError           **error);
gboolean      sextant_store_foreach         (SextantStore      *self,
                                             SextantStoreStmt   query,
                                             SextantRowFunc     func,
                                             gpointer           user_data,
                                             GError           **error,
                                             const char        *types,
                                             ...);
gboolean      sextant_store_foreach_sql     (SextantStore      *self,
                                             const char        *sql,
                                             SextantRowFunc     func,
                                             gpointer           user_data,
                                             GError           **error,
                                             const char        *types,
                                             ...);
gboolean      sextant_store_foreach_prepared (SextantStore     *self,
                                             SextantStoreStmt   query,
                                             SextantRowFunc     func,
                                             gpointer           user_data,
                                             GError           **error,
                                             const char        *types,
                                             ...);
gboolean      sextant_store_write_wait_states (SextantStore    *self,
                                             const SextantWaitState *states,
                                             guint              n_states,
                                             GError           **error);
gboolean      sextant_store_finish_load     (SextantStore      *self,
                                             GError           **error);
/* The indexes of the tree readers that depend on the trace's own ids
 * (sextant-store-trees.c); part of sextant_store_finish_load(). */
gboolean      sextant_store_index_onecoll   (SextantStore      *self,
                                             GError           **error);
guint         sextant_store_reads_shared_views (const char     *sql);
gboolean      sextant_store_materialize_views (SextantStore    *self,
                                             const char        *sql,
                                             GError           **error);
void          sextant_store_set_shared_views (SextantStore     *self,
                                             SextantSharedViews *views);
char         *sextant_store_schema_checksum (void);
gboolean      sextant_store_run_query       (SextantStore      *self,
                                             const char        *sql,
                                             GHashTable        *parameters,
                                             const char * const *required_columns,
                                             gboolean           with_visit_context,
                                             SextantRowFunc     func,
                                             gpointer           user_data,
                                             GError           **error);

/* Runs @query (no parameters), whose first two columns are an id and a
 * name, into a table id (gint64*) -> name ("?" for NULL). */
GHashTable   *sextant_store_read_names      (SextantStore      *self,
                                             SextantStoreStmt   query,
                                             GError           **error);

G_END_DECLS
