/*
 * sextant-test-manifest.h: a parallel import's manifest made without MPI.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Imports @archive on @n threads (SextantShareHub playing the MPI ranks)
 * into MANIFEST.shards/rank-NNNNN.sextant and writes the manifest @manifest
 * as sextant-mpi import writes it. */
void sextant_test_import_manifest (const char *archive,
                                   const char *manifest,
                                   guint       n);

G_END_DECLS
