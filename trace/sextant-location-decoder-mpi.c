/*
 * sextant-location-decoder-mpi.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A location's point-to-point messages and collectives (see
 * sextant-location-decoder-private.h): message halves numbered per channel
 * (communicator, sender, receiver, tag) and collective halves per
 * communicator, for the matcher; the requests of non-blocking calls kept
 * until they complete.
 */
#include "config.h"

#include "sextant-location-decoder-private.h"
#include "sextant-request-pairing.h"

static inline guint
seq_hash (gint64  comm,
          gint64  peer,
          guint32 tag)
{
  guint64 h = (guint64)comm * 0x9E3779B97F4A7C15ULL ^ (guint64)peer * 0xC2B2AE3D27D4EB4FULL ^ tag;

  return (guint)(h ^ (h >> 29));
}

static void
seq_table_grow (SeqTable *table)
{
  SeqSlot *old = table->slots;
  guint old_size = table->size;

  table->size = MAX (16, 2 * old_size);
  table->slots = g_new0 (SeqSlot, table->size);
  for (guint i = 0; i < old_size; i++)
    {
      guint j;

      if (!old[i].used)
        continue;
      for (j = seq_hash (old[i].comm, old[i].peer, old[i].tag) & (table->size - 1);
           table->slots[j].used;
           j = (j + 1) & (table->size - 1))
        ;
      table->slots[j] = old[i];
    }
  g_free (old);
}

/* The number of the next message (or collective) of a channel. */
static gint64
next_seq (SeqTable *table,
          gint64    comm,
          gint64    peer,
          guint32   tag)
{
  guint mask;
  guint i;

  if (2 * (table->n + 1) > table->size)
    seq_table_grow (table);
  mask = table->size - 1;

  for (i = seq_hash (comm, peer, tag) & mask; table->slots[i].used; i = (i + 1) & mask)
    {
      SeqSlot *slot = &table->slots[i];

      if (slot->comm == comm && slot->peer == peer && slot->tag == tag)
        return slot->count++;
    }

  table->slots[i] = (SeqSlot) { comm, peer, tag, TRUE, 1 };
  table->n++;

  return 0;
}

/* _sextant_import_comm_rank_loc() with the last communicator's definition
 * kept: the messages of a location mostly use one. */
static gint32
comm_rank_loc (Decoder      *self,
               OTF2_CommRef  comm,
               guint32       rank,
               gboolean     *is_self)
{
  if (comm != self->comm_ref || comm == OTF2_UNDEFINED_COMM)
    {
      self->comm_ref = comm;
      self->comm_def = _sextant_import_get_comm (self->import, comm);
    }

  return _sextant_comm_def_rank_loc (self->comm_def, rank, is_self);
}

/* The receiving or sending peer as a location index, or -(rank + 1) when the
 * communicator does not tell (such halves cannot match and stay unmatched). */
static gint64
resolve_peer (Decoder      *self,
              OTF2_CommRef  comm,
              guint32       rank)
{
  gboolean is_self = FALSE;
  gint32 loc = comm_rank_loc (self, comm, rank, &is_self);

  if (is_self)
    return self->loc;

  if (loc < 0)
    _sextant_import_log (self->import, "unresolved_peer", self->loc, self->last_time,
                         "a message's peer (rank %u of communicator %s) is not a known location; "
                         "such messages stay unmatched", rank,
                         comm == OTF2_UNDEFINED_COMM ? "UNDEFINED" : "without members");

  return loc >= 0 ? loc : -(gint64)rank - 1;
}

static gint64
comm_value (OTF2_CommRef comm)
{
  return comm == OTF2_UNDEFINED_COMM ? SEXTANT_NULL : (gint64)comm;
}

static inline SextantHalf
send_half (Decoder            *self,
           const PendingSend  *send,
           gint64              mode,
           gint64              complete_time,
           gint64              complete_visit)
{
  return (SextantHalf) {
    .comm = send->comm, .src = self->loc, .dst = send->peer, .seq = send->seq, .tag = send->tag,
    .loc = self->loc, .bytes = send->bytes, .mode = mode, .time = send->time, .visit = send->visit,
    .request = send->request, .time2 = complete_time, .visit2 = complete_visit, .post = send->time,
  };
}

/* Keeps one end of a request of a threaded process, for the pairing at the
 * end of the import (sextant-request-pairing.h); the item is valid until
 * the next one is held */
static SextantRequestItem *
hold_request (Decoder            *self,
              SextantRequestEnd   end,
              gint64              request,
              gint64              time,
              gint64              visit,
              const SextantHalf  *half)
{
  SextantRequestItem item = { .end = end, .loc = self->loc, .request = request, .time = time, .visit = visit };

  if (half != NULL)
    item.half = *half;
  if (self->held_requests == NULL)
    self->held_requests = g_array_new (FALSE, FALSE, sizeof (SextantRequestItem));
  g_array_append_val (self->held_requests, item);
  return &g_array_index (self->held_requests, SextantRequestItem, self->held_requests->len - 1);
}

gboolean
_sextant_decoder_write_send (Decoder            *self,
                             const PendingSend  *send,
                             gint64              mode,
                             gint64              complete_time,
                             gint64              complete_visit,
                             GError            **error)
{
  SextantDeferredHalf deferred = { FALSE, send_half (self, send, mode, complete_time, complete_visit) };

  push_copy (self->halves, &deferred, sizeof deferred);
  return TRUE;
}

/* A send at @t, numbered on its channel. */
static PendingSend
new_send (Decoder      *self,
          gint64        t,
          guint32       receiver,
          OTF2_CommRef  comm,
          guint32       tag,
          guint64       length,
          gint64        request)
{
  PendingSend send = { .comm = comm_value (comm), .peer = resolve_peer (self, comm, receiver), .tag = tag };

  send.seq = next_seq (&self->send_seq, send.comm, send.peer, tag);
  send.bytes = (gint64)length;
  send.time = t;
  send.visit = top_visit (self);
  send.request = request;

  return send;
}

static OTF2_CallbackCode
on_mpi_send (DECODER_ARGS,
             uint32_t     receiver,
             OTF2_CommRef comm,
             uint32_t     tag,
             uint64_t     length)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_SEND, time);
  PendingSend send = new_send (self, t, receiver, comm, tag, length, SEXTANT_NULL);

  STORE (self, _sextant_decoder_write_send (self, &send, SEXTANT_MODE_BLOCKING, SEXTANT_NULL, SEXTANT_NULL, &store_error));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_isend (DECODER_ARGS,
              uint32_t     receiver,
              OTF2_CommRef comm,
              uint32_t     tag,
              uint64_t     length,
              uint64_t     request)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_ISEND, time);
  PendingSend send = new_send (self, t, receiver, comm, tag, length, (gint64)request);
  PendingSend *old;

  /* A request id still open is a lost completion: keep the older send. On
   * a process with other locations, one of them may have completed it. */
  if ((old = sextant_request_map_lookup (self->isends, request)) != NULL && self->shared_process)
    {
      SextantHalf half = send_half (self, old, SEXTANT_MODE_NONBLOCKING, SEXTANT_NULL, SEXTANT_NULL);

      hold_request (self, SEXTANT_REQUEST_ISEND, old->request, old->time, old->visit, &half);
    }
  else if (old != NULL)
    {
      _sextant_import_log (self->import, "request_reused", self->loc, t,
                           "MPI_ISEND reuses an open request id; the earlier send is kept without completion");
      STORE (self, _sextant_decoder_write_send (self, old, SEXTANT_MODE_NONBLOCKING, SEXTANT_NULL, SEXTANT_NULL, &store_error));
    }
  *(PendingSend *)sextant_request_map_insert (self->isends, request) = send;

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_isend_complete (DECODER_ARGS,
                       uint64_t request)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_ISEND_COMPLETE, time);
  PendingSend send;

  if (!sextant_request_map_remove (self->isends, request, &send))
    {
      /* another thread of the process may have started it */
      if (self->shared_process)
        {
          hold_request (self, SEXTANT_REQUEST_ISEND_COMPLETE, (gint64)request, t, top_visit (self), NULL);
          return OTF2_CALLBACK_SUCCESS;
        }
      _sextant_import_log (self->import, "unknown_request", self->loc, t,
                           "MPI_ISEND_COMPLETE for a request without MPI_ISEND; ignored");
      return OTF2_CALLBACK_SUCCESS;
    }

  STORE (self, _sextant_decoder_write_send (self, &send, SEXTANT_MODE_NONBLOCKING, t, top_visit (self), &store_error));

  return OTF2_CALLBACK_SUCCESS;
}

/* Where the location is at @t: its innermost visit. */
static inline PendingPoint
point_here (Decoder *self,
            gint64   t)
{
  return (PendingPoint) { .time = t, .visit = top_visit (self), .region = top_region (self), .request = SEXTANT_NULL,
                          .coll_seq = -1 };
}

PendingPoint *
_sextant_decoder_new_point (Decoder *self,
                            gint64   t)
{
  PendingPoint *point = g_new (PendingPoint, 1);

  *point = point_here (self, t);

  return point;
}

static OTF2_CallbackCode
on_mpi_irecv_request (DECODER_ARGS,
                      uint64_t request)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_IRECV_REQUEST, time);
  PendingPoint *post;

  /* an earlier post of the id another location of the process completed */
  if (self->shared_process && (post = sextant_request_map_lookup (self->irecvs, request)) != NULL)
    hold_request (self, SEXTANT_REQUEST_IRECV_REQUEST, post->request, post->time, post->visit, NULL);
  post = sextant_request_map_insert (self->irecvs, request);
  *post = point_here (self, t);
  post->request = (gint64)request;

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
receive (Decoder            *self,
         gint64              t,
         guint32             sender,
         OTF2_CommRef        comm,
         guint32             tag,
         guint64             length,
         gint64              mode,
         gint64              request,
         const PendingPoint *post)
{
  gint64 comm_v = comm_value (comm);
  gint64 peer = resolve_peer (self, comm, sender);
  SextantHalf half = {
    .comm = comm_v, .src = peer, .dst = self->loc, .tag = tag,
    .seq = next_seq (&self->recv_seq, comm_v, peer, tag),
    .loc = self->loc, .bytes = (gint64)length, .mode = mode, .time = t, .visit = top_visit (self),
    .request = request,
    .time2 = post != NULL ? post->time : SEXTANT_NULL,
    .visit2 = post != NULL ? post->visit : SEXTANT_NULL,
    /* MPI matches receives in the order they were posted */
    .post = post != NULL ? post->time : self->depth > 0 ? self->stack[self->depth - 1].enter : t,
  };

  SextantDeferredHalf deferred = { TRUE, half };

  /* posted by another thread of the process, maybe: its post is paired at the end */
  if (G_UNLIKELY (post == NULL && request != SEXTANT_NULL && self->shared_process))
    {
      hold_request (self, SEXTANT_REQUEST_IRECV, request, t, half.visit, &half);
      return OTF2_CALLBACK_SUCCESS;
    }
  push_copy (self->halves, &deferred, sizeof deferred);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_recv (DECODER_ARGS,
             uint32_t     sender,
             OTF2_CommRef comm,
             uint32_t     tag,
             uint64_t     length)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_RECV, time);

  return receive (self, t, sender, comm, tag, length, SEXTANT_MODE_BLOCKING, SEXTANT_NULL, NULL);
}

static OTF2_CallbackCode
on_mpi_irecv (DECODER_ARGS,
              uint32_t     sender,
              OTF2_CommRef comm,
              uint32_t     tag,
              uint64_t     length,
              uint64_t     request)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_IRECV, time);
  PendingPoint post;
  gboolean posted = sextant_request_map_remove (self->irecvs, request, &post);

  return receive (self, t, sender, comm, tag, length, SEXTANT_MODE_NONBLOCKING, (gint64)request,
                  posted ? &post : NULL);
}

static OTF2_CallbackCode
on_mpi_request_cancelled (DECODER_ARGS,
                          uint64_t request)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_REQUEST_CANCELLED, time);

  /* A cancelled send or receive never happened: it must not stay unmatched.
   * On a process with other locations, one of them may have started it. */
  if (sextant_request_map_remove (self->isends, request, NULL) ||
      sextant_request_map_remove (self->irecvs, request, NULL))
    return OTF2_CALLBACK_SUCCESS;
  if (self->shared_process)
    hold_request (self, SEXTANT_REQUEST_CANCELLED, (gint64)request, t, top_visit (self), NULL);
  else
    _sextant_import_log (self->import, "unknown_request", self->loc, t,
                         "MPI_REQUEST_CANCELLED for a request that is not open; ignored");

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_collective_begin (DECODER_ARGS)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_COLLECTIVE_BEGIN, time);

  g_queue_push_tail (&self->coll_begins, _sextant_decoder_new_point (self, t));

  return OTF2_CALLBACK_SUCCESS;
}

static gboolean
region_has (Decoder  *self,
            guint32   region,
            gboolean  nonblocking_call)
{
  const SextantRegionDef *def = _sextant_decoder_region_def (self, region);

  if (def == NULL)
    return FALSE;

  return nonblocking_call ? def->nonblocking_call : def->completion_call;
}

/* Who numbers the collectives of @comm: this location alone for
 * MPI_COMM_SELF-like communicators, else all their members (-1). */
static gint64
collective_owner (Decoder      *self,
                  OTF2_CommRef  comm)
{
  gboolean is_self = FALSE;

  comm_rank_loc (self, comm, 0, &is_self);
  return is_self ? (gint64)self->loc : -1;
}

#define NUMBER_NOW      (-1)  /* collective_half()'s seq: the next number of its communicator here */
#define NUMBER_BY_START (-2)  /* none (-1): the pairing gives it its start's */

/* A collective half, numbered @seq on its communicator if that is not
 * negative (a non-blocking one numbered at its start), else now
 * (NUMBER_NOW) or by the pairing of a threaded process's requests
 * (NUMBER_BY_START): MPI orders a communicator's collectives by the order
 * they start, and a blocking one starts and ends with nothing else started
 * in between. The number is this location's: the matcher numbers a
 * process's collectives again where several of its threads call them on
 * one communicator. */

static SextantCollectiveHalf
collective_half (Decoder           *self,
                 OTF2_CollectiveOp  op,
                 OTF2_CommRef       comm,
                 guint32            root,
                 guint64            sent,
                 guint64            received,
                 gint64             begin,
                 gint64             begin_visit,
                 gboolean           nonblocking,
                 gint64             end,
                 gint64             seq)
{
  gint64 owner;
  gint64 root_v;
  gint64 comm_v = comm_value (comm);

  owner = collective_owner (self, comm);
  root_v = (root == OTF2_UNDEFINED_UINT32 ||
            root == OTF2_COLLECTIVE_ROOT_SELF ||
            root == OTF2_COLLECTIVE_ROOT_THIS_GROUP) ? SEXTANT_NULL : (gint64)root;

  return (SextantCollectiveHalf) {
    .comm = comm_v, .owner = owner,
    .seq = seq >= 0 ? seq : seq == NUMBER_BY_START ? -1 : next_seq (&self->coll_seq, comm_v, owner, 0),
    .loc = self->loc, .kind = sextant_otf2_collective_op_name (op), .root = root_v,
    .nonblocking = nonblocking, .begin = begin, .end = end, .visit = begin_visit,
    .end_visit = top_visit (self), .sent = (gint64)sent, .received = (gint64)received,
    .enter = SEXTANT_NULL, .leave = SEXTANT_NULL,
  };
}

/* A member whose call is still open waits for the call's leave
 * (_sextant_decoder_collectives_left()), which the collective bounds
 * compare; the others (a non-blocking collective's start was left) go to
 * the matcher without their call's times. */
static OTF2_CallbackCode
write_collective (Decoder                     *self,
                  const SextantCollectiveHalf *half)
{
  for (guint i = self->depth; half->visit != SEXTANT_NULL && i > 0; i--)
    if (self->stack[i - 1].id == half->visit)
      {
        SextantCollectiveHalf waiting = *half;

        waiting.enter = self->stack[i - 1].enter;
        push_copy (self->coll_waiting, &waiting, sizeof waiting);
        return OTF2_CALLBACK_SUCCESS;
      }
  push_copy (self->coll_halves, half, sizeof *half);
  return OTF2_CALLBACK_SUCCESS;
}

/* The visit @visit left at @t: the members waiting for it go to the
 * matcher. They wait in the order of their calls' nesting, the innermost
 * last. */
void
_sextant_decoder_collectives_left (Decoder *self,
                                   gint64   visit,
                                   gint64   t)
{
  guint first = self->coll_waiting->len;

  while (first > 0 && g_array_index (self->coll_waiting, SextantCollectiveHalf, first - 1).visit == visit)
    first--;
  for (guint i = first; i < self->coll_waiting->len; i++)
    {
      SextantCollectiveHalf *half = &g_array_index (self->coll_waiting, SextantCollectiveHalf, i);

      half->leave = t;
      push_copy (self->coll_halves, half, sizeof *half);
    }
  g_array_set_size (self->coll_waiting, first);
}

static OTF2_CallbackCode
on_mpi_collective_end (DECODER_ARGS,
                       OTF2_CollectiveOp collective_op,
                       OTF2_CommRef      comm,
                       uint32_t          root,
                       uint64_t          sent,
                       uint64_t          received)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_MPI_COLLECTIVE_END, time);
  g_autofree PendingPoint *begin = g_queue_pop_head (&self->coll_begins);
  gboolean nonblocking;

  if (begin == NULL)
    {
      _sextant_import_log (self->import, "collective_end_without_begin", self->loc, t,
                           "MPI_COLLECTIVE_END without MPI_COLLECTIVE_BEGIN; begins at its end");
      begin = _sextant_decoder_new_point (self, t);
    }

  /* Score-P records a non-blocking collective as BEGIN in the MPI_I* call
   * and END in the MPI_Wait/Test call that completes it. */
  nonblocking = region_has (self, begin->region, TRUE) || region_has (self, top_region (self), FALSE);

  {
    SextantCollectiveHalf half = collective_half (self, collective_op, comm, root, sent, received, begin->time,
                                                  begin->visit, nonblocking, t, NUMBER_NOW);

    return write_collective (self, &half);
  }
}

/* Hands over the start of a non-blocking collective that another location
 * of the process completes (sextant-request-pairing.h) */
static void
hold_nb_collective (Decoder            *self,
                    const PendingPoint *start)
{
  SextantRequestItem *item = hold_request (self, SEXTANT_REQUEST_NBC_REQUEST, start->request, start->time,
                                           start->visit, NULL);

  item->coll.comm = start->coll_seq >= 0 ? start->coll_comm : SEXTANT_NULL;
  item->coll.seq = start->coll_seq;
}

static OTF2_CallbackCode
on_nb_collective_request (DECODER_ARGS,
                          uint64_t request)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_NON_BLOCKING_COLLECTIVE_REQUEST, time);

  PendingPoint *point;
  guint32 n = attributes != NULL ? OTF2_AttributeList_GetNumberOfElements (attributes) : 0;

  /* an earlier start of the id another location of the process completed */
  if (self->shared_process && (point = sextant_request_map_lookup (self->nb_colls, request)) != NULL)
    hold_nb_collective (self, point);
  point = sextant_request_map_insert (self->nb_colls, request);
  *point = point_here (self, t);
  point->request = (gint64)request;
  /* Sextant's recorder names the communicator in an attribute: the
   * collective is numbered now, in the order it started, as MPI matches
   * them (else at its completion) */
  for (guint32 i = 0; i < n; i++)
    {
      OTF2_AttributeRef attribute;
      OTF2_Type type;
      OTF2_AttributeValue value;

      if (OTF2_AttributeList_GetAttributeByIndex (attributes, i, &attribute, &type, &value) == OTF2_SUCCESS &&
          type == OTF2_TYPE_COMM)
        {
          gint64 comm_v = comm_value (value.commRef);

          point->coll_comm = comm_v;
          point->coll_seq = next_seq (&self->coll_seq, comm_v, collective_owner (self, value.commRef), 0);
          break;
        }
    }

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_nb_collective_complete (DECODER_ARGS,
                           OTF2_CollectiveOp collective_op,
                           OTF2_CommRef      comm,
                           uint32_t          root,
                           uint64_t          sent,
                           uint64_t          received,
                           uint64_t          request)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_NON_BLOCKING_COLLECTIVE_COMPLETE, time);
  PendingPoint begin_point;
  PendingPoint *begin = sextant_request_map_remove (self->nb_colls, request, &begin_point) ? &begin_point : NULL;
  SextantCollectiveHalf half;

  /* another thread of the process may have started it: the pairing gives
   * it its start and, where the start numbered it, that number */
  if (begin == NULL && self->shared_process)
    {
      SextantRequestItem *item = hold_request (self, SEXTANT_REQUEST_NBC_COMPLETE, (gint64)request, t,
                                               top_visit (self), NULL);

      /* numbered at its start where the trace names the communicator
       * there (-1 until the pairing), else here, at its completion */
      item->coll = collective_half (self, collective_op, comm, root, sent, received, t, top_visit (self), TRUE, t,
                                    self->import->nbc_comm_attribute ? NUMBER_BY_START : NUMBER_NOW);
      return OTF2_CALLBACK_SUCCESS;
    }
  if (begin == NULL)
    _sextant_import_log (self->import, "unknown_request", self->loc, t,
                         "NON_BLOCKING_COLLECTIVE_COMPLETE without its request; begins at its end");

  half = collective_half (self, collective_op, comm, root, sent, received, begin != NULL ? begin->time : t,
                          begin != NULL ? begin->visit : top_visit (self), TRUE, t,
                          begin != NULL && begin->coll_comm == comm_value (comm) ? begin->coll_seq : NUMBER_NOW);
  return write_collective (self, &half);
}

/* The requests still open at the location's end: never completed, or on a
 * process with other locations, handed over with the completions of
 * requests the location did not start, for the pairing per process. */
gboolean
_sextant_decoder_finish_requests (Decoder  *self,
                                  GError  **error)
{
  g_autoptr(GArray) open_sends = sextant_request_map_steal_values (self->isends);   /* oldest first */

  if (self->shared_process)
    {
      g_autoptr(GArray) open_posts = sextant_request_map_steal_values (self->irecvs);
      g_autoptr(GArray) open_colls = sextant_request_map_steal_values (self->nb_colls);

      for (guint i = 0; i < open_sends->len; i++)
        {
          const PendingSend *send = &g_array_index (open_sends, PendingSend, i);
          SextantHalf half = send_half (self, send, SEXTANT_MODE_NONBLOCKING, SEXTANT_NULL, SEXTANT_NULL);

          hold_request (self, SEXTANT_REQUEST_ISEND, send->request, send->time, send->visit, &half);
        }
      for (guint i = 0; i < open_posts->len; i++)
        {
          const PendingPoint *post = &g_array_index (open_posts, PendingPoint, i);

          hold_request (self, SEXTANT_REQUEST_IRECV_REQUEST, post->request, post->time, post->visit, NULL);
        }
      for (guint i = 0; i < open_colls->len; i++)
        hold_nb_collective (self, &g_array_index (open_colls, PendingPoint, i));
      sextant_request_pairing_add (_sextant_matcher_get_requests (self->import->matcher), self->held_requests);
      if (self->held_requests != NULL)
        g_array_set_size (self->held_requests, 0);
      return TRUE;
    }

  for (guint i = 0; i < open_sends->len; i++)
    {
      const PendingSend *send = &g_array_index (open_sends, PendingSend, i);

      _sextant_import_log (self->import, "incomplete_request", self->loc, send->time, "MPI_ISEND never completed");
      if (!_sextant_decoder_write_send (self, send, SEXTANT_MODE_NONBLOCKING, SEXTANT_NULL, SEXTANT_NULL, error))
        return FALSE;
    }
  if (sextant_request_map_size (self->irecvs) > 0)
    _sextant_import_log (self->import, "incomplete_request", self->loc, self->last_time,
                         "%u MPI_IRECV_REQUEST(s) never completed", sextant_request_map_size (self->irecvs));

  return TRUE;
}

void
_sextant_location_decoder_set_mpi_callbacks (OTF2_EvtReaderCallbacks *cb)
{
#define SET(Name, fn) OTF2_EvtReaderCallbacks_Set##Name##Callback (cb, fn)
  SET (MpiSend, on_mpi_send);
  SET (MpiIsend, on_mpi_isend);
  SET (MpiIsendComplete, on_mpi_isend_complete);
  SET (MpiIrecvRequest, on_mpi_irecv_request);
  SET (MpiRecv, on_mpi_recv);
  SET (MpiIrecv, on_mpi_irecv);
  SET (MpiRequestCancelled, on_mpi_request_cancelled);
  SET (MpiCollectiveBegin, on_mpi_collective_begin);
  SET (MpiCollectiveEnd, on_mpi_collective_end);
  SET (NonBlockingCollectiveRequest, on_nb_collective_request);
  SET (NonBlockingCollectiveComplete, on_nb_collective_complete);
#undef SET
}
