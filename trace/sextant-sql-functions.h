/*
 * sextant-sql-functions.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQL functions the trace store's views use (sextant_comment).
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

gboolean sextant_sql_functions_register (sqlite3  *db,
                                         char    **message);

G_END_DECLS
