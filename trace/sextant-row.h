/*
 * sextant-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A row of a query's result, as the store's readers hand it to their
 * SextantRowFunc (sextant-store-private.h): its columns by index, valid
 * only inside that call. For trace/, patterns/, the command line, the tests
 * and the benchmarks; no SQLite header needed.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SextantRow SextantRow;

typedef gboolean (*SextantRowFunc) (const SextantRow *row,
                                    gpointer          user_data,
                                    GError          **error);

gboolean      sextant_row_is_null           (const SextantRow  *row,
                                             int                column);
gint64        sextant_row_get_int           (const SextantRow  *row,
                                             int                column);
double        sextant_row_get_double        (const SextantRow  *row,
                                             int                column);
const char   *sextant_row_get_text          (const SextantRow  *row,
                                             int                column);
char         *sextant_row_dup_text          (const SextantRow  *row,
                                             int                column);
const void   *sextant_row_get_blob          (const SextantRow  *row,
                                             int                column,
                                             gsize             *size);
gint64        sextant_row_get_int_or_null   (const SextantRow  *row,
                                             int                column);
int           sextant_row_get_n_columns     (const SextantRow  *row);
int           sextant_row_find_column       (const SextantRow  *row,
                                             const char        *name);

G_END_DECLS
