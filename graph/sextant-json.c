/*
 * sextant-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Nullable members of Sextant's JSON output (see sextant-json.h).
 */
#include "config.h"

#include "sextant-json.h"
#include "sextant-store.h"

/* @value, or null for SEXTANT_NULL */
void
sextant_json_set_int_or_null (JsonObject *object,
                              const char *name,
                              gint64      value)
{
  if (value == SEXTANT_NULL)
    json_object_set_null_member (object, name);
  else
    json_object_set_int_member (object, name, value);
}

/* @value, or null for NULL */
void
sextant_json_set_string_or_null (JsonObject *object,
                                 const char *name,
                                 const char *value)
{
  if (value == NULL)
    json_object_set_null_member (object, name);
  else
    json_object_set_string_member (object, name, value);
}

/* (@ticks - @origin) / @resolution seconds, or null for SEXTANT_NULL */
void
sextant_json_set_seconds_or_null (JsonObject *object,
                                  const char *name,
                                  gint64      ticks,
                                  gint64      origin,
                                  gint64      resolution)
{
  if (ticks == SEXTANT_NULL)
    json_object_set_null_member (object, name);
  else
    json_object_set_double_member (object, name, (double)(ticks - origin) / (double)resolution);
}
