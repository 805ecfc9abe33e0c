/*
 * sextant-store-connection-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The trace store's insides, shared by the files of the store object: the
 * SextantStore struct (the SQLite connection and what belongs to it) and
 * the few helpers they all call. The store is split by what it does:
 * sextant-store.c (the object, its errors, cancelling, transactions,
 * closing), sextant-store-open.c (creating and opening a file, the checks
 * of its schema, the end of a bulk load), sextant-store-statements.c (the
 * store's own statements, kept prepared: runs, rows, chunk writes) and
 * sextant-store-queries.c (reading rows: queries of trace/, the patterns'
 * own, meta). _sextant_store_exec_sql() and
 * _sextant_store_set_error_from_db() are in sextant-store-views-private.h.
 * For those files only.
 */
#pragma once

#include <sqlite3.h>
#include <stdarg.h>

#include "sextant-store-union.h"
#include "sextant-store-views-private.h"

G_BEGIN_DECLS

struct _SextantStore
{
  GObject       parent_instance;

  char         *path;
  sqlite3      *db;
  sqlite3_stmt *stmts[SEXTANT_N_STMTS];  /* prepared on first use */
  SextantColumnModule *columns;          /* belongs to db */
  GMutex        lock;                    /* serializes run, exec, write_chunk and
                                          * write_encoded_chunk (the importer's decoding
                                          * threads call them at once); nothing else */
  GHashTable   *materialized;            /* views copied into temporary tables */
  SextantSharedViews *shared_views;      /* the analysis's, or NULL */
  GCancellable *cancellable;             /* interrupts db when cancelled, or NULL */
  gulong        cancelled_id;            /* its handler, which calls sqlite3_interrupt() */
  SextantShardUnion *shards;              /* a manifest's shards, read as one trace; or NULL */
  guint         in_transaction : 1;
};

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* In sextant-store.c: G_IO_ERROR_CANCELLED in @error; whether a statement
 * may start (the store open, its cancellable not cancelled) */
void     _sextant_store_set_cancelled (GError       **error);
gboolean _sextant_store_check_usable  (SextantStore  *self,
                                       GError       **error);

/* In sextant-store-statements.c: binds @args, typed by @types as for
 * sextant_store_run(), to @stmt's parameters */
void     _sextant_store_bind_valist   (sqlite3_stmt  *stmt,
                                       const char    *types,
                                       va_list        args);

G_END_DECLS
