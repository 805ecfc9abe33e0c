/*
 * sextant-store-details.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the details pane shows of one item of the timeline (a visit, a
 * message, a collective, a one-sided operation), read from the store by
 * its ids: a few lookups by primary key or row id, the visit at a time by
 * the location's visit ids (enter order), never a scan of an event table.
 *
 * Workload: one read per click, on a view's worker thread (its own
 * connection): about ten single-row statements.
 */
#pragma once

#include "sextant-store.h"

G_BEGIN_DECLS

/* What the item is (ui/'s SextantItemKind maps onto it) */
typedef enum
{
  SEXTANT_DETAILS_VISIT,
  SEXTANT_DETAILS_MESSAGE,
  SEXTANT_DETAILS_COLLECTIVE,
  SEXTANT_DETAILS_RMA,
} SextantDetailsKind;

/**
 * SextantItemDetails:
 * @kind: what the item is
 * @id: visit.id, message.id, collective.id or rma_op.id
 * @loc: visit: its location; message: the sender; collective: the member
 *   clicked (%SEXTANT_NULL: none); one-sided operation: the origin
 * @loc_label: @loc as comments name it ("MPI Rank 3"); %NULL when @loc is
 *   %SEXTANT_NULL
 * @peer_loc: message: the receiver; one-sided operation: the target's
 *   location; collective: the root's; visit: the location that held the
 *   lock the call waited for (sextant-store-locks.h; of several, the one
 *   it got last); else %SEXTANT_NULL
 * @peer_label: @peer_loc's label, or %NULL
 * @name: visit: the region's name; message: "Message"; collective: the
 *   operation (BCAST, BARRIER, …); one-sided operation: PUT, GET or
 *   ATOMIC (with the atomic type: "ATOMIC (ACCUMULATE)")
 * @category: visit: the region's category (MPI, USER, …); else %NULL
 * @begin: visit: enter; message: the send; collective: the first member's
 *   begin; one-sided: the issue; ticks, %SEXTANT_NULL when not recorded
 * @end: visit: leave; message: the receive; collective: the last member's
 *   end; one-sided: the completion; %SEXTANT_NULL when not recorded
 * @bytes: message: the bytes sent (received when the send is missing);
 *   collective: the bytes its members sent; one-sided: sent; else
 *   %SEXTANT_NULL
 * @bytes_received: collective, one-sided: received; else %SEXTANT_NULL
 * @tag: message: its tag; else %SEXTANT_NULL
 * @comm: message, collective, one-sided (the window's): the communicator,
 *   %SEXTANT_NULL if unknown
 * @comm_name: its name, or %NULL
 * @root: collective: the root rank, %SEXTANT_NULL without one; one-sided:
 *   the target rank in the window's communicator
 * @members: collective: the locations that took part; else 0
 * @expected: collective: the communicator's size; else 0
 * @window: one-sided: the window (rma_window.id), %SEXTANT_NULL if unknown
 * @window_name: its name, or %NULL
 * @complete_kind: one-sided: how its completion was recorded (BLOCKING,
 *   NON_BLOCKING, REMOTE), or %NULL
 * @file: the call site, %NULL when the trace records none: visit: its own;
 *   message: the send's; collective: the clicked member's call;
 *   one-sided: the call that issued it
 * @line: its line (0: unknown)
 * @peer_file: message: the receive's call site, or %NULL
 * @peer_line: its line
 * @call_path: visit: the regions from the top-level visit down to it,
 *   joined by '/' (main/solver/MPI_Recv); else %NULL
 * @depth: visit: 0 for a top-level visit
 * @parent: visit: the enclosing visit, %SEXTANT_NULL at the top
 * @parent_name: the enclosing visit's region, or %NULL
 * @lock_asked: visit that waited for a lock: when it asked for it; else
 *   %SEXTANT_NULL
 * @lock_acquired: when it got it
 * @hold_begin: when @peer_loc acquired the lock it waited for
 * @hold_end: when @peer_loc released it
 *
 * One item of the timeline as the details pane shows it.
 */
typedef struct
{
  SextantDetailsKind kind;
  gint64             id;
  gint64             loc;
  char              *loc_label;
  gint64             peer_loc;
  char              *peer_label;
  char              *name;
  char              *category;
  gint64             begin;
  gint64             end;
  gint64             bytes;
  gint64             bytes_received;
  gint64             tag;
  gint64             comm;
  char              *comm_name;
  gint64             root;
  gint64             members;
  gint64             expected;
  gint64             window;
  char              *window_name;
  char              *complete_kind;
  char              *file;
  gint64             line;
  char              *peer_file;
  gint64             peer_line;
  char              *call_path;
  gint64             depth;
  gint64             parent;
  char              *parent_name;
  gint64             lock_asked;
  gint64             lock_acquired;
  gint64             hold_begin;
  gint64             hold_end;
} SextantItemDetails;

void     sextant_item_details_free      (SextantItemDetails  *details);

gboolean sextant_store_read_item_details (SextantStore        *store,
                                          SextantDetailsKind   kind,
                                          gint64               loc,
                                          gint64               time,
                                          gint64               id,
                                          SextantItemDetails **out,
                                          GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantItemDetails, sextant_item_details_free)

G_END_DECLS
