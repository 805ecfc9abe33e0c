/*
 * sextant-test-util.h: what the C tests of trace/ share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sextant-store-private.h"

G_BEGIN_DECLS

/* Imports @archive into a store in a new temporary directory, which it
 * returns in @tmpdir (remove it with sextant_test_remove_tree()), and
 * opens the store; fails the test if any of it fails. */
SextantStore *sextant_test_import      (const char  *archive,
                                        char       **tmpdir);
/* The ids of @store's locations with events, in id order: the rows of the
 * timeline. With @all, every location. */
GArray       *sextant_test_locations   (SextantStore *store,
                                        gboolean      all);
/* Copies @from (a directory: everything in it) to @to (cp -r); fails the
 * test if it cannot. */
void          sextant_test_copy_tree   (const char  *from,
                                        const char  *to);
/* Runs the sextant of the build ($SEXTANT) with @args (NULL-terminated),
 * its stderr in @err; returns its exit status */
int           sextant_test_run_sextant (const char * const *args,
                                        char              **err);
/* Runs @argv (NULL-terminated; argv[0] a path, or NULL: the variable
 * naming it is not set) with its stdout discarded; fails the test if it
 * cannot or it fails */
void          sextant_test_spawn       (const char * const *argv);
/* Writes tests/otf2gen's @scenario (SEXTANT_OTF2GEN) into @dir (made
 * if needed) and returns (transfer full) its anchor file; fails the test
 * if it cannot */
char         *sextant_test_otf2gen     (const char  *scenario,
                                        const char  *dir);
/* Removes @path and, if it is a directory, everything in it. */
void          sextant_test_remove_tree (const char  *path);
/* The integer meta value @key of @store; fails the test without it */
gint64        sextant_test_meta_int    (SextantStore *store,
                                        const char   *key);
/* The first column of the first row of @sql (no parameters) on @store
 * (-1: no row); fails the test if the query fails */
gint64        sextant_test_query_int   (SextantStore *store,
                                        const char   *sql);
/* A SextantRowFunc: the row's first column (NULL: 0) into the gint64 at
 * @user_data */
gboolean      sextant_test_take_int    (const SextantRow  *row,
                                        gpointer           user_data,
                                        GError           **error);

G_END_DECLS
