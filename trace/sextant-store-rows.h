/*
 * sextant-store-rows.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the timeline's rows are made of (ui/sextant-timeline-rows.c): every
 * location with its process, node and MPI rank, the metrics each location
 * recorded, and a metric's values reduced to the pixel columns of a view
 * (the counter rows' plots). Implemented in sextant-store-rows.c.
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_LOCATION_CPU_THREAD,
  SEXTANT_LOCATION_ACCELERATOR_STREAM,
  SEXTANT_LOCATION_METRIC,
  SEXTANT_LOCATION_OTHER,
} SextantLocationType;

/**
 * SextantLocationPlace:
 * @loc: location.id
 * @name: the location's name ("Master thread", "OMP thread 2"), "" when it
 *   has none, never %NULL
 * @type: what it is (location.type)
 * @events: event records read on it
 * @has_visits: it has region visits (something a timeline row draws)
 * @has_metrics: it recorded metric values
 * @process: its process (location_group.id), %SEXTANT_NULL when it has none
 * @process_name: (nullable): the process's name ("MPI Rank 3")
 * @creator: the process that created @process (an accelerator context's
 *   host process), %SEXTANT_NULL when none
 * @node: the machine node it ran on: the nearest system tree node of class
 *   "node" above its process, else its process's own system tree node;
 *   %SEXTANT_NULL when unknown
 * @node_name: (nullable): that node's name
 * @rank: its process's rank in MPI_COMM_WORLD (an accelerator context's:
 *   that of its creator), %SEXTANT_NULL when it has none
 *
 * Where one location sits in the machine and the run.
 */
typedef struct
{
  gint64               loc;
  char                *name;
  SextantLocationType  type;
  gint64               events;
  gboolean             has_visits;
  gboolean             has_metrics;
  gint64               process;
  char                *process_name;
  gint64               creator;
  gint64               node;
  char                *node_name;
  gint64               rank;
} SextantLocationPlace;

void          sextant_location_place_free        (SextantLocationPlace *place);
GPtrArray    *sextant_store_list_location_places (SextantStore         *self,
                                                  GError              **error);

/**
 * SextantLocationMetric:
 * @loc: location.id of the location that recorded it
 * @metric: the metric (metric_member.id)
 * @name: its name ("PAPI_TOT_CYC", "HIP Memory"), "?" when it has none
 * @unit: its unit ("bytes", "#"), "" when it has none; never %NULL
 *
 * A metric a location recorded values of.
 */
typedef struct
{
  gint64  loc;
  gint64  metric;
  char   *name;
  char   *unit;
} SextantLocationMetric;

void          sextant_location_metric_free        (SextantLocationMetric *metric);
GPtrArray    *sextant_store_list_location_metrics (SextantStore          *self,
                                                   GError               **error);

/**
 * SextantCounterPoint:
 * @time: ticks: the time of the last value in the pixel column
 * @min: the smallest value in the column
 * @max: the largest
 * @last: the value at @time
 *
 * A metric's values in one pixel column of a view.
 */
typedef struct
{
  gint64 time;
  double min;
  double max;
  double last;
} SextantCounterPoint;

gboolean      sextant_store_read_counter         (SextantStore         *store,
                                                  gint64                loc,
                                                  gint64                metric,
                                                  gint64                t0,
                                                  gint64                t1,
                                                  guint                 width,
                                                  GArray               *points,
                                                  GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantLocationPlace, sextant_location_place_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantLocationMetric, sextant_location_metric_free)

G_END_DECLS
