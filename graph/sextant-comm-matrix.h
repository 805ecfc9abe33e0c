/*
 * sextant-comm-matrix.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SextantCommMatrix is the point-to-point traffic of a run (or of a time
 * range) as sender x receiver: bytes, message count and the time spent in
 * the receives, for every pair of locations that exchanged messages. The
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
SextantCommMatrix *sextant_comm_matrix_ref           (SextantCommMatrix  *self);
void               sextant_comm_matrix_unref         (SextantCommMatrix  *self);

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
/* The first send and last receive of the pair's messages (ticks), FALSE
 * when the pair exchanged none. */
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
