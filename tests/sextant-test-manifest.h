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

/* A new folder (*@tmpdir, the caller removes it) with otf2gen's every-kind
 * archive imported on @n threads into its manifest, run.sextant, whose
 * path this returns */
char *sextant_test_every_kind_manifest (char  **tmpdir,
                                        guint   n);

G_END_DECLS
