/*
 * sextant-json.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Members of the JSON that Sextant prints (trees, matrices, collective
 * listings, analyses) whose value may be absent: SEXTANT_NULL or a NULL
 * string becomes JSON null, a time in ticks becomes seconds since an origin.
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void sextant_json_set_int_or_null     (JsonObject *object,
                                       const char *name,
                                       gint64      value);
void sextant_json_set_string_or_null  (JsonObject *object,
                                       const char *name,
                                       const char *value);
void sextant_json_set_seconds_or_null (JsonObject *object,
                                       const char *name,
                                       gint64      ticks,
                                       gint64      origin,
                                       gint64      resolution);

G_END_DECLS
