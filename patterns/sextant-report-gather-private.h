/*
 * sextant-report-gather-private.h: what the files that gather the report
 * model share (sextant-report.c, sextant-report-instances.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "sextant-pattern-tree.h"
#include "sextant-report.h"
#include "sextant-store-private.h"

G_BEGIN_DECLS

/* The report model being gathered, and what its queries need */
typedef struct
{
  SextantStore *store;
  const char   *source_root;
  gint64        resolution;
  gint64        total_ticks;
  gint64        time_begin;   /* the run's first and last event, ticks */
  gint64        time_end;
  GHashTable   *labels;       /* location id -> its label (location_label) */
  GHashTable   *otf2_labels;  /* OTF2 location id -> its label */
  SextantPatternTree *tree;   /* the patterns as pattern_row() reads them */
  JsonObject   *root;
} Gather;

static inline double
seconds (Gather *g,
         gint64  ticks)
{
  return (double)ticks / g->resolution;
}

/* @name: the text of @row's @column, or null */
static inline void
set_text_or_null (JsonObject       *object,
                  const char       *name,
                  const SextantRow *row,
                  int               column)
{
  if (sextant_row_is_null (row, column))
    json_object_set_null_member (object, name);
  else
    json_object_set_string_member (object, name, sextant_row_get_text (row, column));
}

/* @name: the integer of @row's @column, or null */
static inline void
set_int_or_null (JsonObject       *object,
                 const char       *name,
                 const SextantRow *row,
                 int               column)
{
  if (sextant_row_is_null (row, column))
    json_object_set_null_member (object, name);
  else
    json_object_set_int_member (object, name, sextant_row_get_int (row, column));
}

/* The total time (and the resolution): on a manifest, the sum of its
 * shards' (each that of its own locations) */
gboolean _sextant_report_read_total   (Gather            *g,
                                       GError           **error);
/* Sets @name to the label of @id in @labels, "location ID" if it has none. */
void     _sextant_report_set_label    (JsonObject        *object,
                                       const char        *name,
                                       GHashTable        *labels,
                                       gint64             id);
/* In sextant-report-instances.c: a row of SEXTANT_QUERY_TOP_INSTANCES
 * added to the model's "instances", with its timeline and source lines */
gboolean _sextant_report_instance_row (const SextantRow  *row,
                                       gpointer           user_data,
                                       GError           **error);

G_END_DECLS
