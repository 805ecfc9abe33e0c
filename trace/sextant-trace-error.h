/*
 * sextant-trace-error.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The error domain of the trace layer (importer and store). OTF2 and SQLite
 * result codes are translated into these exactly once, at their boundary.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_TRACE_ERROR_NOT_FOUND,    /* archive, anchor or a file it needs is missing */
  SEXTANT_TRACE_ERROR_NOT_ARCHIVE,  /* the path is not an OTF2 archive */
  SEXTANT_TRACE_ERROR_CORRUPT,      /* OTF2 rejected a file: truncated, garbage, unreadable */
  SEXTANT_TRACE_ERROR_STORE,        /* the SQLite store failed */
  SEXTANT_TRACE_ERROR_NO_SPACE,     /* the disk filled up while writing the store */
  SEXTANT_TRACE_ERROR_FILE_LIMIT,   /* the store reached the file size limit (ulimit -f) */
  SEXTANT_TRACE_ERROR_SCHEMA,       /* a database of another schema version or not ours */
  SEXTANT_TRACE_ERROR_ARGUMENT,     /* a bad parameter from the user */
  SEXTANT_TRACE_ERROR_DUPLICATE,    /* a row with that key exists already */
  SEXTANT_TRACE_ERROR_QUERY,        /* a user query is invalid, writes, or lacks a column */
  SEXTANT_TRACE_ERROR_BUSY,         /* another process holds what this needs alone (a manifest's analysis) */
} SextantTraceError;

#define SEXTANT_TRACE_ERROR (sextant_trace_error_quark ())
GQuark sextant_trace_error_quark (void);

G_END_DECLS
