/*
 * sextant-sql-functions.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQL functions the trace store's views use (sextant_comment,
 * sextant_delay_activity), and the search behind sextant_delay_activity.
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "sextant-store.h"

G_BEGIN_DECLS

gboolean sextant_sql_functions_register  (sqlite3                    *db,
                                          char                      **message);

int      sextant_delay_activity_find     (sqlite3                    *db,
                                          gint64                      loc,
                                          gint64                      begin,
                                          gint64                      end,
                                          SextantDelayActivity       *activity);
char    *sextant_delay_activity_describe (const SextantDelayActivity *activity);

G_END_DECLS
