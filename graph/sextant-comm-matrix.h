/*
 * sextant-comm-matrix.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SextantCommMatrix is the point-to-point traffic of a run (or of a time
 * range) as sender x receiver: bytes, message count and the time spent in
 * the receives, for every pair of locations that exchanged messages; or
 * the one-sided (RMA) operations' data, or both (SextantMatrixTransfers). The
 * matrix view draws it; `sextant matrix` prints it. Immutable once built,
 * reference counted (a GBoxed type): build it on a worker thread.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "sextant-store.h"

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_MATRIX_BYTES,
  SEXTANT_MATRIX_COUNT,
  SEXTANT_MATRIX_TIME,        /* seconds spent in the receive calls */
  SEXTANT_N_MATRIX_METRICS
} SextantMatrixMetric;

/* What the matrix counts. One-sided: an operation is in a range when
 * issued in it; a PUT moves its bytes origin -> target, a GET its fetched
 * bytes target -> origin, an ATOMIC both; count = operations; time = 0
 * (no receive call completes a one-sided transfer). */
typedef enum
{
  SEXTANT_MATRIX_TRANSFERS_MESSAGES,    /* matched point-to-point messages */
  SEXTANT_MATRIX_TRANSFERS_ONE_SIDED,   /* rma_op: puts, gets, atomics */
  SEXTANT_MATRIX_TRANSFERS_ALL,         /* both, summed */
  SEXTANT_N_MATRIX_TRANSFERS
} SextantMatrixTransfers;

/* "messages", "one-sided", "all"; and back (FALSE for an unknown name) */
const char *sextant_matrix_transfers_to_string   (SextantMatrixTransfers  transfers);
gboolean    sextant_matrix_transfers_from_string (const char             *name,
                                                  SextantMatrixTransfers *transfers);

/* "bytes", "count", "time"; and back (FALSE for an unknown name) */
const char *sextant_matrix_metric_to_string   (SextantMatrixMetric  metric);
gboolean    sextant_matrix_metric_from_string (const char          *name,
                                               SextantMatrixMetric *metric);

typedef struct _SextantCommMatrix SextantCommMatrix;

#define SEXTANT_TYPE_COMM_MATRIX (sextant_comm_matrix_get_type ())
GType              sextant_comm_matrix_get_type      (void) G_GNUC_CONST;

/* The matched messages whose send or receive lies in [@begin, @end)
 * (SEXTANT_NULL, SEXTANT_NULL: the whole run). The axes are the locations
 * that sent or received any message there, in location order. */
SextantCommMatrix *sextant_comm_matrix_build         (SextantStore       *store,
                                                      gint64              begin,
                                                      gint64              end,
                                                      GError            **error);
SextantCommMatrix *sextant_comm_matrix_build_full    (SextantStore       *store,
                                                      gint64              begin,
                                                      gint64              end,
                                                      SextantMatrixTransfers transfers,
                                                      GError            **error);
SextantCommMatrix *sextant_comm_matrix_ref           (SextantCommMatrix  *self);
void               sextant_comm_matrix_unref         (SextantCommMatrix  *self);

SextantMatrixTransfers sextant_comm_matrix_get_transfers (SextantCommMatrix *self);
/* One-sided operations of the range left out: no target location known. */
gint64             sextant_comm_matrix_get_n_skipped (SextantCommMatrix  *self);
guint              sextant_comm_matrix_get_size      (SextantCommMatrix  *self);
gint64             sextant_comm_matrix_get_loc       (SextantCommMatrix  *self,
                                                      guint               index);
const char        *sextant_comm_matrix_get_label     (SextantCommMatrix  *self,
                                                      guint               index);
/* The row (sender) and column (receiver) of a location, or -1. */
int                sextant_comm_matrix_find_loc      (SextantCommMatrix  *self,
                                                      gint64              loc);
double             sextant_comm_matrix_get_value     (SextantCommMatrix  *self,
                                                      SextantMatrixMetric metric,
                                                      guint               sender,
                                                      guint               receiver);
double             sextant_comm_matrix_get_max       (SextantCommMatrix  *self,
                                                      SextantMatrixMetric metric);
double             sextant_comm_matrix_get_total     (SextantCommMatrix  *self,
                                                      SextantMatrixMetric metric);
/* The first send and last receive of the pair's messages (ticks; for
 * one-sided operations their first issue and last completion), FALSE when
 * the pair exchanged none. */
gboolean           sextant_comm_matrix_get_pair_span (SextantCommMatrix  *self,
                                                      guint               sender,
                                                      guint               receiver,
                                                      gint64             *begin,
                                                      gint64             *end);

JsonNode          *sextant_comm_matrix_to_json       (SextantCommMatrix  *self,
                                                      SextantMatrixMetric metric);
char              *sextant_comm_matrix_to_csv        (SextantCommMatrix  *self,
                                                      SextantMatrixMetric metric);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantCommMatrix, sextant_comm_matrix_unref)

G_END_DECLS
