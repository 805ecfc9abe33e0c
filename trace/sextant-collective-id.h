/*
 * sextant-collective-id.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The MPI collective instances' ids as users read and type them. A
 * collective's id (collective.id, docs/schema.md) is built from its key:
 * (comm + 1) << 32 | n for the n-th instance on communicator comm, 1 << 62
 * | loc << 32 | n for location loc's n-th on a self communicator. As
 * numbers they say nothing (4294967297 is the first collective on
 * communicator 0), so `info --collectives`, `tree` and the window show them
 * as "mpi:COMM:N" and "self:LOC:N"; ids of no such form (an instance made
 * again for a number already written, in a damaged trace) stay numbers.
 * Both forms are accepted wherever an id is read.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char     *sextant_collective_id_to_string   (gint64       id);
gboolean  sextant_collective_id_from_string (const char  *text,
                                             gint64      *id);
gboolean  sextant_collective_id_instance    (gint64       id,
                                             gint64      *n);
gboolean  sextant_collective_id_parse_pair  (const char  *text,
                                             const char  *prefix,
                                             guint64      max_a,
                                             guint64      min_b,
                                             guint64      max_b,
                                             gint64      *a,
                                             gint64      *b);

G_END_DECLS
