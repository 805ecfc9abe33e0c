/*
 * sextant-recorder-mpi-p2p.c - point-to-point MPI calls and their requests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Record layout (as Score-P writes it, and as OTF2 and Sextant's importer
 * read it), each inside ENTER/LEAVE of the MPI function's region:
 *   MPI_Send, Bsend, Ssend, Rsend    MPI_SEND (at the enter time)
 *   MPI_Isend, Ibsend, Issend, Irsend  MPI_ISEND with a request id; the
 *                                    Wait/Test that completes it writes
 *                                    MPI_ISEND_COMPLETE
 *   MPI_Recv                         MPI_RECV (at the leave time)
 *   MPI_Irecv                        MPI_IRECV_REQUEST; the completing
 *                                    Wait/Test writes MPI_IRECV with the
 *                                    source, tag and length of the status
 *   MPI_Sendrecv(_replace)           MPI_SEND, then MPI_RECV
 *   unsuccessful MPI_Test*           MPI_REQUEST_TEST per open request
 *   cancelled requests               MPI_REQUEST_CANCELLED at completion
 * Ranks are ranks in the call's communicator; sends to and receives from
 * MPI_PROC_NULL write no message record. The completion of a non-blocking
 * collective (NON_BLOCKING_COLLECTIVE_COMPLETE) is written here too, since
 * it happens in the same Wait/Test calls.
 *
 * A Wait/Test needs to know what each request was before the call (MPI
 * overwrites completed handles with MPI_REQUEST_NULL), so the handles are
 * looked up first; requests the recorder did not see start (persistent
 * ones, those of other libraries' wrappers) are passed through unrecorded.
 */
#include "sextant-recorder-private.h"

#include <stdlib.h>
#include <string.h>

static uint64_t
bytes_of (int          count,
          MPI_Datatype type)
{
  int size = 0;

  if (count <= 0 || PMPI_Type_size (type, &size) != MPI_SUCCESS || size <= 0)
    return 0;
  return (uint64_t) count * (uint64_t) size;
}

static uint32_t
comm_def (MPI_Comm comm)
{
  sextant__comm *c = sextant__comm_get (comm);

  return c != NULL ? c->def : SEXTANT__UNDEF;
}

/* What a peer's rank on @comm adds to be its index in the recorded members
 * (non-zero for an inter-communicator whose remote group is listed second). */
static uint32_t
comm_base (MPI_Comm comm)
{
  sextant__comm *c = sextant__comm_get (comm);

  return c != NULL ? c->remote_base : 0;
}

static void
record_send (sextant__call *call,
             int            dest,
             MPI_Comm       comm,
             int            tag,
             int            count,
             MPI_Datatype   type)
{
  sextant__thread *t = call->t;

  if (dest == MPI_PROC_NULL)
    return;
  SEXTANT__WRITE (t, OTF2_EvtWriter_MpiSend (t->writer, NULL, call->enter,
                                              (uint32_t) dest + comm_base (comm), comm_def (comm), (uint32_t) tag,
                                              bytes_of (count, type)), "MPI_SEND");
}

static void
record_recv (sextant__call    *call,
             uint64_t          time,
             MPI_Comm          comm,
             const MPI_Status *status)
{
  sextant__thread *t = call->t;
  int bytes = 0;

  if (status->MPI_SOURCE == MPI_PROC_NULL)
    return;
  if (PMPI_Get_count (status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED)
    bytes = 0;
  SEXTANT__WRITE (t, OTF2_EvtWriter_MpiRecv (t->writer, NULL, time,
                                              (uint32_t) status->MPI_SOURCE + comm_base (comm),
                                              comm_def (comm), (uint32_t) status->MPI_TAG,
                                              (uint64_t) bytes), "MPI_RECV");
}

static uint64_t
end_at (sextant__call *call,
        uint64_t       time)
{
  SEXTANT__WRITE (call->t, OTF2_EvtWriter_Leave (call->t->writer, NULL, time, call->region), "LEAVE");
  call->t->busy = 0;
  return time;
}

/* ---- blocking sends ---- */

#define SEND_BODY(ID, CALL)                                                   \
  sextant__call call;                                                         \
  int rc;                                                                     \
                                                                              \
  if (!SEXTANT__BEGIN (&call, ID))                                            \
    return CALL;                                                              \
  record_send (&call, dest, comm, tag, count, datatype);                      \
  rc = CALL;                                                                  \
  sextant__end (&call);                                                       \
  return rc

/* ---- non-blocking sends ---- */

static void
record_isend (sextant__call *call,
              int            dest,
              MPI_Comm       comm,
              int            tag,
              int            count,
              MPI_Datatype   type,
              MPI_Request    request)
{
  sextant__thread *t = call->t;
  sextant__request info = { 0 };

  if (dest == MPI_PROC_NULL)
    return;
  sextant__request_init (&info, t, SEXTANT__REQ_ISEND, comm_def (comm));
  info.base = comm_base (comm);
  SEXTANT__WRITE (t, OTF2_EvtWriter_MpiIsend (t->writer, NULL, call->enter, (uint32_t) dest + info.base, info.comm,
                                               (uint32_t) tag, bytes_of (count, type), info.id),
                  "MPI_ISEND");
  sextant__request_put (request, &info);
}

#define ISEND_BODY(ID, CALL)                                                  \
  sextant__call call;                                                         \
  int rc;                                                                     \
                                                                              \
  if (!SEXTANT__BEGIN (&call, ID))                                            \
    return CALL;                                                              \
  rc = CALL;                                                                  \
  if (rc == MPI_SUCCESS)                                                      \
    record_isend (&call, dest, comm, tag, count, datatype, *request);         \
  sextant__end (&call);                                                       \
  return rc

/* the wrappers of the sends (`p2p` lines of sextant-recorder-mpi.def) are
 * included after SEND_INIT_BODY, below */

/* ---- receives ---- */

/* A receive started (MPI_Irecv, MPI_Imrecv, MPI_Start): MPI_IRECV_REQUEST,
 * and the entry its completion takes, with what was posted. */
static void
record_irecv_request (sextant__call *call,
                      MPI_Request    request,
                      uint32_t       comm,
                      uint32_t       base,
                      int            source,
                      int            tag,
                      uint64_t       bytes)
{
  sextant__thread *t = call->t;
  sextant__request info;

  sextant__request_init (&info, t, SEXTANT__REQ_IRECV, comm);
  info.base = base;
  info.source = source;
  info.tag = tag;
  info.bytes = bytes;
  SEXTANT__WRITE (t, OTF2_EvtWriter_MpiIrecvRequest (t->writer, NULL, call->enter, info.id),
                  "MPI_IRECV_REQUEST");
  sextant__request_put (request, &info);
}

SEXTANT__EXPORT int
MPI_Recv (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
          MPI_Status *status)
{
  sextant__call call;
  MPI_Status local;
  int rc;

  if (!SEXTANT__BEGIN (&call, RECV))
    return PMPI_Recv (buf, count, datatype, source, tag, comm, status);
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  rc = PMPI_Recv (buf, count, datatype, source, tag, comm, status);
  {
    uint64_t now = sextant__now ();

    if (rc == MPI_SUCCESS)
      record_recv (&call, now, comm, status);
    end_at (&call, now);
  }
  return rc;
}

SEXTANT__EXPORT int
MPI_Irecv (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
           MPI_Request *request)
{
  sextant__call call;
  int rc;

  if (!SEXTANT__BEGIN (&call, IRECV))
    return PMPI_Irecv (buf, count, datatype, source, tag, comm, request);
  rc = PMPI_Irecv (buf, count, datatype, source, tag, comm, request);
  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL)
    record_irecv_request (&call, *request, comm_def (comm), comm_base (comm), source, tag,
                          bytes_of (count, datatype));
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Sendrecv (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
              void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
              MPI_Comm comm, MPI_Status *status)
{
  sextant__call call;
  MPI_Status local;
  int rc;

  if (!SEXTANT__BEGIN (&call, SENDRECV))
    return PMPI_Sendrecv (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                          source, recvtag, comm, status);
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  record_send (&call, dest, comm, sendtag, sendcount, sendtype);
  rc = PMPI_Sendrecv (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                      source, recvtag, comm, status);
  {
    uint64_t now = sextant__now ();

    if (rc == MPI_SUCCESS)
      record_recv (&call, now, comm, status);
    end_at (&call, now);
  }
  return rc;
}

SEXTANT__EXPORT int
MPI_Sendrecv_replace (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                      int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  sextant__call call;
  MPI_Status local;
  int rc;

  if (!SEXTANT__BEGIN (&call, SENDRECV_REPLACE))
    return PMPI_Sendrecv_replace (buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  record_send (&call, dest, comm, sendtag, count, datatype);
  rc = PMPI_Sendrecv_replace (buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
  {
    uint64_t now = sextant__now ();

    if (rc == MPI_SUCCESS)
      record_recv (&call, now, comm, status);
    end_at (&call, now);
  }
  return rc;
}

/* ---- matched probes ---- */

/* MPI_Mprobe/Improbe remember the communicator of the message they match;
 * MPI_Mrecv writes MPI_RECV with it, MPI_Imrecv MPI_IRECV_REQUEST (its
 * completion MPI_IRECV, as for MPI_Irecv). */
SEXTANT__EXPORT int
MPI_Mprobe (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
  sextant__call call;
  int rc;

  if (!SEXTANT__BEGIN (&call, MPROBE))
    return PMPI_Mprobe (source, tag, comm, message, status);
  rc = PMPI_Mprobe (source, tag, comm, message, status);
  if (rc == MPI_SUCCESS && *message != MPI_MESSAGE_NULL && *message != MPI_MESSAGE_NO_PROC)
    sextant__message_put (*message, comm_def (comm), comm_base (comm));
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Improbe (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
  sextant__call call;
  int rc;

  if (!SEXTANT__BEGIN (&call, IMPROBE))
    return PMPI_Improbe (source, tag, comm, flag, message, status);
  rc = PMPI_Improbe (source, tag, comm, flag, message, status);
  if (rc == MPI_SUCCESS && *flag && *message != MPI_MESSAGE_NULL && *message != MPI_MESSAGE_NO_PROC)
    sextant__message_put (*message, comm_def (comm), comm_base (comm));
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Mrecv (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
  sextant__call call;
  MPI_Status local;
  MPI_Message handle = *message;
  int rc;

  if (!SEXTANT__BEGIN (&call, MRECV))
    return PMPI_Mrecv (buf, count, datatype, message, status);
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  rc = PMPI_Mrecv (buf, count, datatype, message, status);
  {
    uint64_t now = sextant__now ();
    uint32_t base = 0;
    uint32_t comm = handle != MPI_MESSAGE_NO_PROC ? sextant__message_take (handle, &base) : SEXTANT__UNDEF;
    int bytes = 0;

    if (rc == MPI_SUCCESS && comm != SEXTANT__UNDEF && status->MPI_SOURCE != MPI_PROC_NULL)
      {
        if (PMPI_Get_count (status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED)
          bytes = 0;
        SEXTANT__WRITE (call.t, OTF2_EvtWriter_MpiRecv (call.t->writer, NULL, now,
                                                         (uint32_t) status->MPI_SOURCE + base, comm, (uint32_t) status->MPI_TAG, (uint64_t) bytes),
                        "MPI_RECV");
      }
    end_at (&call, now);
  }
  return rc;
}

SEXTANT__EXPORT int
MPI_Imrecv (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
  sextant__call call;
  MPI_Message handle = *message;
  int rc;

  if (!SEXTANT__BEGIN (&call, IMRECV))
    return PMPI_Imrecv (buf, count, datatype, message, request);
  rc = PMPI_Imrecv (buf, count, datatype, message, request);
  if (handle != MPI_MESSAGE_NO_PROC)
    {
      uint32_t base = 0;
      uint32_t comm = sextant__message_take (handle, &base);

      if (rc == MPI_SUCCESS && comm != SEXTANT__UNDEF)
        record_irecv_request (&call, *request, comm, base, MPI_ANY_SOURCE, MPI_ANY_TAG,
                              bytes_of (count, datatype));
    }
  sextant__end (&call);
  return rc;
}

/* ---- persistent requests ---- */

/* MPI_*send_init and MPI_Recv_init keep what the request will do (a
 * template under its handle); each MPI_Start writes MPI_ISEND or
 * MPI_IRECV_REQUEST as an MPI_Isend/Irecv would, and the Wait/Test that
 * completes it the completion; MPI_Request_free drops the template. */
static void
persistent_init (int           kind,
                 int           peer,
                 int           tag,
                 int           count,
                 MPI_Datatype  type,
                 MPI_Comm      comm,
                 MPI_Request   request)
{
  sextant__request info = { 0 };

  info.kind = (uint8_t) kind;
  info.comm = comm_def (comm);
  info.base = comm_base (comm);
  info.source = peer;
  info.tag = tag;
  info.bytes = bytes_of (count, type);
  sextant__request_restore (request, &info);
}

#define SEND_INIT_BODY(ID, CALL)                                              \
  sextant__call call;                                                         \
  int recorded = SEXTANT__BEGIN (&call, ID);                                  \
  int rc = CALL;                                                              \
                                                                              \
  if (rc == MPI_SUCCESS && atomic_load_explicit (&sextant__rec.state, memory_order_relaxed) \
      == SEXTANT__STATE_ACTIVE)                                               \
    persistent_init (SEXTANT__REQ_PSEND, dest, tag, count, datatype, comm, *request); \
  if (recorded)                                                               \
    sextant__end (&call);                                                     \
  return rc

#include "sextant-recorder-mpi-p2p.inc"

SEXTANT__EXPORT int
MPI_Recv_init (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
  sextant__call call;
  int recorded = SEXTANT__BEGIN (&call, RECV_INIT);
  int rc = PMPI_Recv_init (buf, count, datatype, source, tag, comm, request);

  if (rc == MPI_SUCCESS &&
      atomic_load_explicit (&sextant__rec.state, memory_order_relaxed) == SEXTANT__STATE_ACTIVE)
    persistent_init (SEXTANT__REQ_PRECV, source, tag, count, datatype, comm, *request);
  if (recorded)
    sextant__end (&call);
  return rc;
}

/* After a successful MPI_Start of @request: its MPI_ISEND or
 * MPI_IRECV_REQUEST, and the entry its completion takes. */
static void
record_start (sextant__call *call,
              MPI_Request    request)
{
  sextant__thread *t = call->t;
  sextant__request tmpl, info;

  if (!sextant__persistent_get (request, &tmpl) || tmpl.source == MPI_PROC_NULL)
    return;
  if (tmpl.kind != SEXTANT__REQ_PSEND)
    {
      record_irecv_request (call, request, tmpl.comm, tmpl.base, tmpl.source, tmpl.tag, tmpl.bytes);
      return;
    }
  sextant__request_init (&info, t, SEXTANT__REQ_ISEND, tmpl.comm);
  info.base = tmpl.base;
  SEXTANT__WRITE (t, OTF2_EvtWriter_MpiIsend (t->writer, NULL, call->enter, (uint32_t) tmpl.source + tmpl.base,
                                               tmpl.comm, (uint32_t) tmpl.tag, tmpl.bytes, info.id),
                  "MPI_ISEND");
  sextant__request_put (request, &info);
}

SEXTANT__EXPORT int
MPI_Start (MPI_Request *request)
{
  sextant__call call;
  int rc;

  if (!SEXTANT__BEGIN (&call, START))
    return PMPI_Start (request);
  rc = PMPI_Start (request);
  if (rc == MPI_SUCCESS)
    record_start (&call, *request);
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Startall (int count, MPI_Request array_of_requests[])
{
  sextant__call call;
  int rc;

  if (!SEXTANT__BEGIN (&call, STARTALL))
    return PMPI_Startall (count, array_of_requests);
  rc = PMPI_Startall (count, array_of_requests);
  for (int i = 0; rc == MPI_SUCCESS && i < count; i++)
    record_start (&call, array_of_requests[i]);
  sextant__end (&call);
  return rc;
}

/* ---- completion ---- */

/* The completion record of a send or a non-blocking collective. */
static void
complete_send_or_coll (sextant__thread        *t,
                       uint64_t                time,
                       const sextant__request *r)
{
  if (r->kind == SEXTANT__REQ_ISEND)
    SEXTANT__WRITE (t, OTF2_EvtWriter_MpiIsendComplete (t->writer, NULL, time, r->id),
                    "MPI_ISEND_COMPLETE");
  else if (r->kind == SEXTANT__REQ_COLL)
    SEXTANT__WRITE (t, OTF2_EvtWriter_NonBlockingCollectiveComplete (t->writer, NULL, time, r->op,
                                                                      r->comm, r->root, r->sent,
                                                                      r->received, r->id),
                    "NON_BLOCKING_COLLECTIVE_COMPLETE");
}

/* Writes the completion record of @r, completed with @status (never
 * MPI_STATUS_IGNORE). */
static void
complete (sextant__thread        *t,
          uint64_t                time,
          const sextant__request *r,
          MPI_Status             *status)
{
  int cancelled = 0;
  int bytes = 0;

  if (r->kind != SEXTANT__REQ_COLL && PMPI_Test_cancelled (status, &cancelled) == MPI_SUCCESS &&
      cancelled)
    {
      SEXTANT__WRITE (t, OTF2_EvtWriter_MpiRequestCancelled (t->writer, NULL, time, r->id),
                      "MPI_REQUEST_CANCELLED");
      return;
    }
  switch (r->kind)
    {
    case SEXTANT__REQ_IRECV:
      if (status->MPI_SOURCE == MPI_PROC_NULL)
        break;
      if (PMPI_Get_count (status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED)
        bytes = 0;
      SEXTANT__WRITE (t, OTF2_EvtWriter_MpiIrecv (t->writer, NULL, time, (uint32_t) status->MPI_SOURCE + r->base,
                                                   r->comm, (uint32_t) status->MPI_TAG, (uint64_t) bytes,
                                                   r->id), "MPI_IRECV");
      break;
    default:
      complete_send_or_coll (t, time, r);
      sextant__request_comm_made (r);
      break;
    }
}

static void
test_failed (sextant__thread        *t,
             uint64_t                time,
             const sextant__request *r)
{
  if (r->kind != SEXTANT__REQ_COLL)
    SEXTANT__WRITE (t, OTF2_EvtWriter_MpiRequestTest (t->writer, NULL, time, r->id), "MPI_REQUEST_TEST");
}

/* Scratch arrays for @n requests (and statuses). Returns 0, or -1 if out of
 * memory (the call is then passed through without completion records). */
static int
reserve (sextant__thread *t,
         int              n)
{
  size_t need = n > 0 ? (size_t) n : 1;

  if (sextant__grow ((void **) &t->reqs, &t->cap_reqs, need, sizeof *t->reqs) != 0 ||
      sextant__grow ((void **) &t->statuses, &t->cap_statuses, need, sizeof *t->statuses) != 0)
    return -1;
  return 0;
}

/* Did request i of a multiple completion complete? */
static int
completed (int               rc,
           const MPI_Status *status)
{
  return rc == MPI_SUCCESS || (rc == MPI_ERR_IN_STATUS && status->MPI_ERROR == MPI_SUCCESS);
}

SEXTANT__EXPORT int
MPI_Wait (MPI_Request *request, MPI_Status *status)
{
  sextant__call call;
  sextant__request r;
  MPI_Status local;
  int have, rc;

  if (!SEXTANT__BEGIN (&call, WAIT))
    return PMPI_Wait (request, status);
  /* a Wait completes the request: take it out now, before MPI may hand
   * the handle to a new request on another thread */
  have = sextant__request_take (*request, &r);
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  rc = PMPI_Wait (request, status);
  {
    uint64_t now = sextant__now ();

    if (have && rc == MPI_SUCCESS)
      complete (call.t, now, &r, status);
    end_at (&call, now);
  }
  return rc;
}

SEXTANT__EXPORT int
MPI_Waitall (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
  sextant__call call;
  sextant__thread *t;
  MPI_Status *statuses = array_of_statuses;
  int any = 0;
  int rc;

  if (!SEXTANT__BEGIN (&call, WAITALL))
    return PMPI_Waitall (count, array_of_requests, array_of_statuses);
  t = call.t;
  if (count > 0 && reserve (t, count) == 0)
    {
      for (int i = 0; i < count; i++)
        {
          t->reqs[i].kind = 0;
          any |= sextant__request_take (array_of_requests[i], &t->reqs[i]);
        }
      if (any && statuses == MPI_STATUSES_IGNORE)
        statuses = t->statuses;
    }
  rc = PMPI_Waitall (count, array_of_requests, statuses);
  {
    uint64_t now = sextant__now ();

    for (int i = 0; any && i < count; i++)
      if (t->reqs[i].kind != 0 && completed (rc, &statuses[i]))
        complete (t, now, &t->reqs[i], &statuses[i]);
    end_at (&call, now);
  }
  return rc;
}

/* Takes the entries of all @count requests out of the table (in array
 * order, so a handle value that appears twice gets two entries) and saves
 * their handles in @handles, since MPI sets completed ones to
 * MPI_REQUEST_NULL. restore_rest puts back those not completed. */
static int
take_all (sextant__thread *t,
          int              count,
          MPI_Request      requests[],
          MPI_Request     *handles)
{
  int any = 0;

  for (int i = 0; i < count; i++)
    {
      t->reqs[i].kind = 0;
      handles[i] = requests[i];
      any |= sextant__request_take (requests[i], &t->reqs[i]);
    }
  return any;
}

/* Completes request @i taken by take_all. */
static void
complete_taken (sextant__thread *t,
                uint64_t         time,
                int              i,
                MPI_Status      *status)
{
  if (t->reqs[i].kind == 0)
    return;
  complete (t, time, &t->reqs[i], status);
  t->reqs[i].kind = 0;
}

/* Puts back the entries take_all took that are still open, in reverse so
 * that each handle keeps its order. */
static void
restore_rest (sextant__thread   *t,
              int                count,
              const MPI_Request *handles)
{
  for (int i = count - 1; i >= 0; i--)
    if (t->reqs[i].kind != 0)
      sextant__request_restore (handles[i], &t->reqs[i]);
}

/* Saved handles of the Waitany/Waitsome/Test calls; a small stack array covers
 * the common case. */
#define FEW 16

/* The start of a multiple completion call: the scratch arrays and the
 * taken entries (none if out of memory: the call passes unrecorded). */
static int
begin_multiple (sextant__thread *t,
                int              count,
                MPI_Request      requests[],
                MPI_Request    **handles,
                MPI_Request     *few)
{
  *handles = count > FEW ? malloc ((size_t) count * sizeof **handles) : few;
  if (count <= 0 || *handles == NULL || reserve (t, count) != 0)
    return 0;
  return take_all (t, count, requests, *handles);
}

static void
end_multiple (sextant__thread *t,
              int              count,
              int              any,
              MPI_Request     *handles,
              MPI_Request     *few)
{
  if (any)
    restore_rest (t, count, handles);
  if (handles != few)
    free (handles);
}

SEXTANT__EXPORT int
MPI_Waitany (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
  sextant__call call;
  sextant__thread *t;
  MPI_Request few[FEW];
  MPI_Request *handles;
  MPI_Status local;
  int any;
  int rc;

  if (!SEXTANT__BEGIN (&call, WAITANY))
    return PMPI_Waitany (count, array_of_requests, index, status);
  t = call.t;
  any = begin_multiple (t, count, array_of_requests, &handles, few);
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  rc = PMPI_Waitany (count, array_of_requests, index, status);
  {
    uint64_t now = sextant__now ();

    if (any && rc == MPI_SUCCESS && *index != MPI_UNDEFINED && *index >= 0 && *index < count)
      complete_taken (t, now, *index, status);
    end_at (&call, now);
  }
  end_multiple (t, count, any, handles, few);
  return rc;
}

SEXTANT__EXPORT int
MPI_Waitsome (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
              MPI_Status array_of_statuses[])
{
  sextant__call call;
  sextant__thread *t;
  MPI_Request few[FEW];
  MPI_Request *handles;
  MPI_Status *statuses = array_of_statuses;
  int any;
  int rc;

  if (!SEXTANT__BEGIN (&call, WAITSOME))
    return PMPI_Waitsome (incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  t = call.t;
  any = begin_multiple (t, incount, array_of_requests, &handles, few);
  if (any && statuses == MPI_STATUSES_IGNORE)
    statuses = t->statuses;
  rc = PMPI_Waitsome (incount, array_of_requests, outcount, array_of_indices, statuses);
  {
    uint64_t now = sextant__now ();

    if (any && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED)
      for (int j = 0; j < *outcount; j++)
        {
          int i = array_of_indices[j];

          if (i >= 0 && i < incount && completed (rc, &statuses[j]))
            complete_taken (t, now, i, &statuses[j]);
        }
    end_at (&call, now);
  }
  end_multiple (t, incount, any, handles, few);
  return rc;
}

SEXTANT__EXPORT int
MPI_Test (MPI_Request *request, int *flag, MPI_Status *status)
{
  sextant__call call;
  sextant__request r;
  MPI_Request handle;
  MPI_Status local;
  int have, rc;

  if (!SEXTANT__BEGIN (&call, TEST))
    return PMPI_Test (request, flag, status);
  handle = *request;
  have = sextant__request_peek (handle, &r);
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  rc = PMPI_Test (request, flag, status);
  {
    uint64_t now = sextant__now ();

    if (have && rc == MPI_SUCCESS)
      {
        if (*flag)
          {
            sextant__request_drop (handle, r.id);
            complete (call.t, now, &r, status);
          }
        else
          test_failed (call.t, now, &r);
      }
    end_at (&call, now);
  }
  return rc;
}

SEXTANT__EXPORT int
MPI_Testall (int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
{
  sextant__call call;
  sextant__thread *t;
  MPI_Request few[FEW];
  MPI_Request *handles;
  MPI_Status *statuses = array_of_statuses;
  int any;
  int rc;

  if (!SEXTANT__BEGIN (&call, TESTALL))
    return PMPI_Testall (count, array_of_requests, flag, array_of_statuses);
  t = call.t;
  any = begin_multiple (t, count, array_of_requests, &handles, few);
  if (any && statuses == MPI_STATUSES_IGNORE)
    statuses = t->statuses;
  rc = PMPI_Testall (count, array_of_requests, flag, statuses);
  {
    uint64_t now = sextant__now ();

    for (int i = 0; any && i < count; i++)
      {
        if (rc == MPI_SUCCESS && *flag)
          complete_taken (t, now, i, &statuses[i]);
        else if (rc == MPI_SUCCESS && t->reqs[i].kind != 0)
          test_failed (t, now, &t->reqs[i]);
      }
    end_at (&call, now);
  }
  end_multiple (t, count, any, handles, few);
  return rc;
}

SEXTANT__EXPORT int
MPI_Testany (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status)
{
  sextant__call call;
  sextant__thread *t;
  MPI_Request few[FEW];
  MPI_Request *handles;
  MPI_Status local;
  int any;
  int rc;

  if (!SEXTANT__BEGIN (&call, TESTANY))
    return PMPI_Testany (count, array_of_requests, index, flag, status);
  t = call.t;
  any = begin_multiple (t, count, array_of_requests, &handles, few);
  if (status == MPI_STATUS_IGNORE)
    status = &local;
  rc = PMPI_Testany (count, array_of_requests, index, flag, status);
  {
    uint64_t now = sextant__now ();

    if (any && rc == MPI_SUCCESS)
      {
        if (*flag && *index != MPI_UNDEFINED && *index >= 0 && *index < count)
          complete_taken (t, now, *index, status);
        else if (!*flag)
          for (int i = 0; i < count; i++)
            if (t->reqs[i].kind != 0)
              test_failed (t, now, &t->reqs[i]);
      }
    end_at (&call, now);
  }
  end_multiple (t, count, any, handles, few);
  return rc;
}

SEXTANT__EXPORT int
MPI_Testsome (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
              MPI_Status array_of_statuses[])
{
  sextant__call call;
  sextant__thread *t;
  MPI_Request few[FEW];
  MPI_Request *handles;
  MPI_Status *statuses = array_of_statuses;
  int any;
  int rc;

  if (!SEXTANT__BEGIN (&call, TESTSOME))
    return PMPI_Testsome (incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  t = call.t;
  any = begin_multiple (t, incount, array_of_requests, &handles, few);
  if (any && statuses == MPI_STATUSES_IGNORE)
    statuses = t->statuses;
  rc = PMPI_Testsome (incount, array_of_requests, outcount, array_of_indices, statuses);
  {
    uint64_t now = sextant__now ();

    if (any && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED)
      {
        for (int j = 0; j < *outcount; j++)
          {
            int i = array_of_indices[j];

            if (i >= 0 && i < incount && completed (rc, &statuses[j]))
              complete_taken (t, now, i, &statuses[j]);
          }
        for (int i = 0; i < incount; i++)
          if (t->reqs[i].kind != 0)
            test_failed (t, now, &t->reqs[i]);
      }
    end_at (&call, now);
  }
  end_multiple (t, incount, any, handles, few);
  return rc;
}

/* MPI_Cancel is a region (sextant-recorder-mpi.def): the cancellation
 * shows at the completion (MPI_REQUEST_CANCELLED) */

SEXTANT__EXPORT int
MPI_Request_free (MPI_Request *request)
{
  sextant__call call;
  sextant__request r;
  MPI_Request handle;
  int have, rc;

  if (!SEXTANT__BEGIN (&call, REQUEST_FREE))
    return PMPI_Request_free (request);
  handle = *request;
  have = sextant__request_take (handle, &r);
  rc = PMPI_Request_free (request);
  if (rc == MPI_SUCCESS)
    sextant__persistent_forget (handle);
  if (have && rc == MPI_SUCCESS)
    sextant__request_freed (call.t, sextant__now (), &r);
  sextant__end (&call);
  return rc;
}

/* A request freed while active still completes, unseen: a send is recorded
 * complete at the free, so that its message is matched. A receive from a
 * given source with a given tag is recorded received at the free with
 * what was posted (the bytes are the posted capacity, an upper bound),
 * since the message still arrives; a receive with MPI_ANY_SOURCE or
 * MPI_ANY_TAG is recorded cancelled (OTF2 has no record for "received,
 * sender unknown"; its message then shows unmatched) and warned about
 * once. A non-blocking collective is completed with what it was started
 * with (an MPI_Comm_idup's communicator is not defined: MPI gives its
 * handle at a completion the program no longer waits for). */
void
sextant__request_freed (sextant__thread        *t,
                        uint64_t                time,
                        const sextant__request *r)
{
  static _Atomic int warned;

  switch (r->kind)
    {
    case SEXTANT__REQ_IRECV:
      if (r->source != MPI_ANY_SOURCE && r->tag != MPI_ANY_TAG)
        {
          SEXTANT__WRITE (t, OTF2_EvtWriter_MpiIrecv (t->writer, NULL, time, (uint32_t) r->source + r->base,
                                                       r->comm, (uint32_t) r->tag, r->bytes, r->id),
                          "MPI_IRECV");
          break;
        }
      SEXTANT__WRITE (t, OTF2_EvtWriter_MpiRequestCancelled (t->writer, NULL, time, r->id),
                      "MPI_REQUEST_CANCELLED");
      if (!atomic_exchange (&warned, 1))
        sextant__warn ("MPI_Request_free on an active MPI_Irecv from MPI_ANY_SOURCE or with "
                       "MPI_ANY_TAG: its sender is unknown, it is recorded as cancelled");
      break;
    default:
      complete_send_or_coll (t, time, r);
      break;
    }
}
