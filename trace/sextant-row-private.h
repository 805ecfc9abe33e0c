/*
 * sextant-row-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the store's readers (sextant-store-queries.c,
 * sextant-store-statements.c, sextant-store-shard-reads.c): a row is the
 * statement it was stepped on, kept on the reader's stack.
 */
#pragma once

#include <sqlite3.h>

#include "sextant-row.h"

G_BEGIN_DECLS

struct _SextantRow
{
  sqlite3_stmt *stmt;
};

sqlite3_value *_sextant_row_get_value       (const SextantRow  *row,
                                             int                column);

G_END_DECLS
