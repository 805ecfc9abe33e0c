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

/* @text (NULL: "") escaped for HTML */
static inline void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text != NULL ? text : "", -1);

  g_string_append (out, escaped);
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

/* Text sizes in the figures, CSS px; nothing is smaller than FONT_SMALL. */
#define FONT_LABEL 12.0   /* row, rank and axis labels */
#define FONT_SMALL 11.0   /* ticks, labels in bars, legends */

typedef struct
{
  double      unit;
  const char *name;
} TimeUnit;

/* In sextant-report-svg.c: the figures' text and axes */
double      _sextant_report_text_width       (const char         *text,
                                              double              size);
char       *_sextant_report_ellipsize        (const char         *text,
                                              double              width,
                                              double              size,
                                              gboolean            middle);
void        _sextant_report_shared_affixes   (const char * const *labels,
                                              guint               n,
                                              gsize              *prefix,
                                              gsize              *suffix);
GPtrArray  *_sextant_report_wrap_label       (const char         *text,
                                              gsize               prefix,
                                              double              width,
                                              double              size,
                                              guint               max_lines);
void        _sextant_report_svg_text         (GString            *out,
                                              const char         *klass,
                                              double              x,
                                              double              y,
                                              double              size,
                                              const char         *attrs,
                                              const char         *shown,
                                              const char         *whole);
double      _sextant_report_nice_step        (double              minimum);
char       *_sextant_report_format_tick      (double              value,
                                              const TimeUnit     *unit,
                                              int                 decimals);
gboolean    _sextant_report_dark_colour      (const char         *colour);

/* The model as one self-contained HTML file */
char       *_sextant_report_render_html      (JsonObject *root);

G_END_DECLS
