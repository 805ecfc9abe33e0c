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
 * others - starts never completed on it, completions of requests it did
 * not start - at its end. At the end of the import they are paired per
 * process and request id, in the order of their times (an id may be used
 * again once completed), and become the message halves the decoder would
 * have written had both been on one location. Processes of one location
 * never come here.
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
} SextantRequestEnd;

typedef struct
{
  SextantRequestEnd  end;
  gint64             loc;
  gint64             request;
  gint64             time;
  gint64             visit;
  SextantHalf        half;        /* SEXTANT_REQUEST_ISEND, _IRECV */
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
 * message halves (SextantDeferredHalf), in a stable order; nothing is held
 * any more. */
GArray                *sextant_request_pairing_steal_halves (SextantRequestPairing *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantRequestPairing, sextant_request_pairing_free)

G_END_DECLS
