/*
 * sextant-collective-order.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The order of a threaded process's collectives, for the matcher. MPI
 * matches the collectives of a communicator per process, in the order the
 * process starts them, whichever of its threads calls them (the program
 * must not let two threads call collectives on one communicator at once).
 * The location decoders number a communicator's collectives per location
 * (thread); while only one location of a process calls collectives on a
 * communicator, its numbers are the process's. Once a second one does, the
 * process's members on that communicator are held to the end, then
 * numbered by the time they started, across its threads, after the
 * numbers the communicator already used on that process.
 *
 * The members come in the rounds of the import (time windows), a
 * location's members at their end record: what the first location added
 * before a round in which a second one has members keeps its number. A
 * blocking collective of the second one ended before the first one's later
 * ones started (MPI lets one thread at a time call collectives on a
 * communicator), so it is in an earlier or the same round; a non-blocking
 * one the second thread started earlier and completed in a later round
 * than the first thread's later ones would be numbered after them.
 */
#pragma once

#include "sextant-import-private.h"

G_BEGIN_DECLS

typedef struct _SextantCollectiveOrder SextantCollectiveOrder;

/* @process: by location index, the location that stands for its process
 * (kept, not copied: it must outlive the order) */
SextantCollectiveOrder *sextant_collective_order_new        (const gint32                 *process,
                                                             guint                         n_locs);
void                    sextant_collective_order_free       (SextantCollectiveOrder       *self);
/* Notes which locations call collectives on which communicators: call it
 * for every location of a batch before adding the batch's members. */
void                    sextant_collective_order_note       (SextantCollectiveOrder       *self,
                                                             const GArray                 *coll_halves);
/* %TRUE: @half is held (its process calls collectives on its communicator
 * from several threads); %FALSE: it keeps its number, and the number
 * counts as used. */
gboolean                sextant_collective_order_hold       (SextantCollectiveOrder       *self,
                                                             const SextantCollectiveHalf  *half);
/* The held members, numbered per process and communicator in the order
 * they started; nothing is held any more. */
GArray                 *sextant_collective_order_steal_held (SextantCollectiveOrder       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantCollectiveOrder, sextant_collective_order_free)

G_END_DECLS
