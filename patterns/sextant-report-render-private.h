/*
 * sextant-report-render-private.h: what the report's renderers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "sextant-report.h"

G_BEGIN_DECLS

/* @name's string in @object, or @fallback where it is missing or null */
static inline const char *
str_or (JsonObject *object,
        const char *name,
        const char *fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  return node == NULL || JSON_NODE_HOLDS_NULL (node) ? fallback : json_node_get_string (node);
}

/* @name's integer in @object, or @fallback where it is missing or null */
static inline gint64
int_or (JsonObject *object,
        const char *name,
        gint64      fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  return node == NULL || JSON_NODE_HOLDS_NULL (node) ? fallback : json_node_get_int (node);
}

/* A call site as the report says it: "file:line" (the file's base name
 * if @base_name), or what the trace has instead of a call site */
char       *_sextant_report_top_site_text    (JsonObject *site,
                                              gboolean    base_name);
/* The pattern @id of the model's list, or NULL */
JsonObject *_sextant_report_find_pattern     (JsonArray  *patterns,
                                              const char *id);
/* "Direct wait state: the root cause is ..." or "Propagated ...", NULL
 * for an instance that is no wait state */
char       *_sextant_report_cause_text       (JsonObject *inst);

/* The model as one self-contained HTML file */
char       *_sextant_report_render_html      (JsonObject *root);

G_END_DECLS
