/*
 * sextant-report.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Summary reports of an analysed trace store: the same data - run summary,
 * profile by region, pattern table, the top instances with their timelines
 * and source lines, communication matrix, message-size histogram - gathered
 * once into a JSON model and written as self-contained HTML (inline CSS and
 * SVG, no external resources), Markdown, CSV (long format) or JSON.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "sextant-pattern-tree.h"
#include "sextant-store.h"

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_REPORT_HTML,
  SEXTANT_REPORT_MARKDOWN,
  SEXTANT_REPORT_CSV,
  SEXTANT_REPORT_JSON,
} SextantReportFormat;

gboolean  sextant_report_format_from_string (const char           *name,
                                             SextantReportFormat  *format);
JsonArray *sextant_report_gather_patterns   (SextantStore         *store,
                                             double               *total_time_seconds,
                                             JsonArray           **tree,
                                             GError              **error);
SextantPatternTree *sextant_report_read_pattern_tree (SextantStore  *store,
                                                     GError       **error);
JsonArray *sextant_report_gather_instances  (SextantStore         *store,
                                             guint                 per_pattern,
                                             GError              **error);
JsonNode *sextant_report_gather             (SextantStore         *store,
                                             const char           *source_root,
                                             GError              **error);
char     *sextant_report_render             (JsonNode             *model,
                                             SextantReportFormat   format);
char     *sextant_report_json_to_data       (JsonNode             *node);

G_END_DECLS
