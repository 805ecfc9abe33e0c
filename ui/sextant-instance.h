/*
 * sextant-instance.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantInstance is one pattern instance as the views show it: an item of
 * the pattern browser's instance list (at most a thousand exist at a time)
 * and the session's chosen instance. It owns the store's record
 * (SextantPatternInstance) and exposes what the instance table sorts and
 * shows as properties, so the table's sorters and cells are expressions
 * in its template.
 */
#pragma once

#include <glib-object.h>

#include "sextant-store.h"

G_BEGIN_DECLS

#define SEXTANT_TYPE_INSTANCE (sextant_instance_get_type ())
G_DECLARE_FINAL_TYPE (SextantInstance, sextant_instance, SEXTANT, INSTANCE, GObject)

SextantInstance *sextant_instance_new             (SextantPatternInstance *record,
                                                   gint64                  resolution);
const SextantPatternInstance *
                 sextant_instance_get_record      (SextantInstance        *self);
gint64           sextant_instance_get_severity    (SextantInstance        *self);
double           sextant_instance_get_seconds     (SextantInstance        *self);
const char      *sextant_instance_get_lost        (SextantInstance        *self);
const char      *sextant_instance_get_diagnosis   (SextantInstance        *self);
char            *sextant_instance_dup_details     (SextantInstance        *self,
                                                   gint64                  time_begin);

char            *sextant_format_duration          (gint64                  ticks,
                                                   gint64                  resolution);

G_END_DECLS
