/*
 * sextant-request-pairing.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The requests of a threaded process that start on one location (thread)
 * and complete on another. OTF2 lets any location of a process complete a
 * request (Sextant's recorder makes request ids unique per process), but a
 * location decoder sees one location: it pairs the requests it can and,
 * on a process with several locations (a location group), hands over the
 * others - starts never completed on it, completions and cancellations of
 * requests it did not start - at its end. At the end of the import (before
 * a parallel import's exchange) they are paired per process and request
 * id, in the order of their times (an id may be used again once
 * completed), and become the message halves and collective members the
 * decoder would have written had both been on one location: an MPI_Isend
 * with its completion, an MPI_Irecv with its post, a non-blocking
 * collective with its start and the number its start gave it on its
 * communicator; a cancelled request is dropped with its start. Processes
 * of one location never come here.
 */
#pragma once

#include "sextant-import-private.h"

G_BEGIN_DECLS

typedef enum
{
  SEXTANT_REQUEST_ISEND,          /* half: the send, completion not known */
  SEXTANT_REQUEST_ISEND_COMPLETE, /* time, visit: the completion */
  SEXTANT_REQUEST_IRECV_REQUEST,  /* time, visit: the post */
  SEXTANT_REQUEST_IRECV,          /* half: the receive, post not known */
  SEXTANT_REQUEST_NBC_REQUEST,    /* time, visit, coll.comm, coll.seq: a non-blocking collective's
                                   * start, numbered coll.seq on coll.comm there (-1: at completion) */
  SEXTANT_REQUEST_NBC_COMPLETE,   /* coll: the member, its start not known (seq -1: numbered by its start) */
  SEXTANT_REQUEST_CANCELLED,      /* time: MPI_REQUEST_CANCELLED, its start not known */
} SextantRequestEnd;

typedef struct
{
  SextantRequestEnd  end;
  gint64             loc;
  gint64             request;
  gint64             time;
  gint64             visit;
  union
  {
    SextantHalf            half;  /* SEXTANT_REQUEST_ISEND, _IRECV */
    SextantCollectiveHalf  coll;  /* SEXTANT_REQUEST_NBC_REQUEST, _NBC_COMPLETE */
  };
} SextantRequestItem;

typedef struct _SextantRequestPairing SextantRequestPairing;

SextantRequestPairing *sextant_request_pairing_new    (SextantImport          *import);
void                   sextant_request_pairing_free   (SextantRequestPairing  *self);
/* %TRUE: the process of location @loc has other locations (thread-safe) */
gboolean               sextant_request_pairing_shared (SextantRequestPairing  *self,
                                                       guint32                 loc);
/* Hands over a location's unpaired SextantRequestItems (thread-safe) */
void                   sextant_request_pairing_add    (SextantRequestPairing  *self,
                                                       const GArray           *items);
/* Pairs what was handed over, logs what has no partner and returns the
 * message halves (SextantDeferredHalf) in @halves and the collective
 * members (SextantCollectiveHalf) in @coll_halves, in a stable order;
 * nothing is held any more. */
void                   sextant_request_pairing_steal  (SextantRequestPairing  *self,
                                                       GArray                **halves,
                                                       GArray                **coll_halves);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantRequestPairing, sextant_request_pairing_free)

G_END_DECLS
