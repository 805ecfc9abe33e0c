/*
 * sextant-mpi-import.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant-mpi import ARCHIVE -o MANIFEST`: the ranks of an MPI job import
 * one archive together (docs/parallel.md). Each rank writes the shard of
 * its share of the locations; rank 0 writes the manifest. The shards go to
 * the directory MANIFEST.shards beside the manifest. Until every rank has
 * succeeded everything is written to a temporary directory beside the
 * manifest, which a failure removes: a failed import leaves no manifest and
 * no shard, and an older import at the same name untouched.
 */
#pragma once

#include "sextant-shard-exchange.h"

G_BEGIN_DECLS

/* Called by every rank of @exchange (made on @comm); returns the same on
 * every rank. The error at rank 0 names every rank that failed and why. */
gboolean sextant_mpi_import (SextantShardExchange  *exchange,
                             MPI_Comm               comm,
                             const char            *archive,
                             const char            *manifest,
                             GError               **error);

G_END_DECLS
