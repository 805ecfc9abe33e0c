/* otf2gen-planted.h - synthetic traces with planted wait states of known size
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant-otf2gen planted-NAME OUTDIR` writes one of the small traces below;
 * `sextant-otf2gen --expect-patterns` prints, as JSON, what `sextant analyze`
 * must find in each of them (tests/test-patterns-planted.py compares the two).
 * This header is the single source of truth: every trace is a list of cases,
 * each case holds its events on all locations and, right below them, the
 * pattern instances those timestamps produce, with the arithmetic of each
 * severity spelled out in a comment from the documented criterion
 * (docs/patterns.md and the header of patterns/sql/ID.sql).  The
 * expectations are typed-in numbers, not computed: change a timestamp and the
 * test fails until the expectation next to it is redone by hand.
 *
 * Conventions:
 *
 *  - Timestamps are integer ticks; all traces but planted-collectives use a
 *    1 MHz clock (1 tick = 1 us), planted-collectives 1 GHz (1 tick = 1 ns).
 *    The global offset is 0.  Severities are in ticks, so every expected
 *    value is an exact integer.
 *  - MPI rank r is location r (location group r, "MPI Rank r", "Master
 *    thread"); planted-threads has one process with locations 0 and
 *    PL_THREAD1 = 1 << 32.  Locations are written as their OTF2 ids.
 *  - An MPI call is written as ENTER, its record(s), LEAVE; collective
 *    records sit at the call's enter and leave times.  Point-to-point
 *    messages are on MPI_COMM_WORLD; peers are world ranks.
 *  - A case's events may interleave with other cases' on a location only in
 *    time order: the generator merges all cases per location by timestamp
 *    (ties keep the listed order) and refuses a result whose ENTER/LEAVE do
 *    not nest.
 *  - Every trace is checked for every pattern of the catalogue except those
 *    in the trace's `unchecked` list: a pattern with no expected instance in
 *    a run must report none.  unbalanced_communication compares every MPI
 *    call path across locations, so it is checked only in planted-hotspots,
 *    which is built for it.
 *  - Call paths are region names from the top-level visit; the source line
 *    is the SOURCE_CODE_LOCATION attribute of the call's ENTER if it has one,
 *    else the file and begin line of the innermost enclosing region that has
 *    a file, else none (file and line NULL).
 *
 * The traces (all timestamps below are in ticks):
 *
 *   planted-late-sender      late_sender: blocking, SCL attribute, no source,
 *                            zero bytes, two Irecvs in one MPI_Waitall (also
 *                            completed at the same time); PROGRAM_BEGIN/END
 *                            as first/last records
 *   planted-wrong-order      late_sender_wrong_order, same and different source; wrong_order
 *   planted-late-receiver    late_receiver: Ssend, Send above the eager limit,
 *                            small Send (none with eager_limit = 65), Issend
 *   planted-early-wait       early_wait on both sides with its optimal distance;
 *                            an Isend of exactly eager_limit bytes; no
 *                            instance for small Isend, Ibsend, MPI_Test
 *   planted-close            close_send_recv, its distance boundary, a call in
 *                            between, a message to self
 *   planted-eps              waits of eps - 1, eps and eps + 1
 *   planted-collectives      barrier, allreduce, bcast, reduce, scan; COMM_SELF
 *                            and one-member collectives; non-blocking ones
 *   planted-init-finalize    init_completion, wait_at_finalize
 *   planted-rma              window create, fences, free, exclusive and shared
 *                            RMA locks
 *   planted-threads          pthread and (deprecated OMP_*) OpenMP locks
 *   planted-hotspots         frequent_communication (per call path),
 *                            large_messages, unbalanced_communication
 *   planted-master-worker    slow_workers, overloaded_master (not for a
 *                            receive completed by MPI_Test)
 *   planted-wrong-order-buffer  101 Late Senders before the receive that
 *                            makes them Wrong Order; Scalasca's buffer of 100
 *                            (scalasca_buffer = 1) keeps the first one a
 *                            Late Sender
 *   planted-nonblocking      Scalasca's rules for requests: Isend + Wait /
 *                            Waitany / Waitall late receivers, a Waitall
 *                            completing a late-sent receive, Irecv + Waitall
 *                            late sender, wrong order across a Waitall and
 *                            after MPI_Test, MPI_Sendrecv, N x N completion
 *                            from the collective records, non-blocking
 *                            collectives
 */

#pragma once

#include <stdint.h>
#include <stdio.h>

#include <glib.h>
#include <otf2/otf2.h>

G_BEGIN_DECLS

/* Tables are static in this header; unused ones must not warn. */
#define PL_TABLE static const __attribute__ ((unused))

/* ---------------------------------------------------------------------- */
/* Definitions shared by all planted traces                               */
/* ---------------------------------------------------------------------- */

#define PL_FILE       "/src/planted/planted.c"
#define PL_SCL_FILE   "/src/planted/halo.c"
#define PL_SCL_LINE   57
#define PL_THREAD1    (UINT64_C (1) << 32)   /* second thread of process 0 */

enum
{
  /* user code */
  PL_MAIN,              /* planted.c 10..200 */
  PL_WORK,              /* planted.c 30..35 */
  PL_EXCHANGE,          /* planted.c 40..80 */
  PL_COLLECT,           /* planted.c 90..110 */
  PL_SOLVE,             /* planted.c 120..128 */
  PL_RMA_EPOCH,         /* planted.c 130..145 */
  PL_WORKER,            /* planted.c 150..170 */
  PL_DRIVER,            /* no source file */
  /* MPI, no source file */
  PL_MPI_INIT,
  PL_MPI_INIT_THREAD,
  PL_MPI_FINALIZE,
  PL_MPI_SEND,
  PL_MPI_SSEND,
  PL_MPI_ISEND,
  PL_MPI_ISSEND,
  PL_MPI_IBSEND,
  PL_MPI_RECV,
  PL_MPI_IRECV,
  PL_MPI_WAIT,
  PL_MPI_WAITALL,
  PL_MPI_TEST,
  PL_MPI_BARRIER,
  PL_MPI_BCAST,
  PL_MPI_REDUCE,
  PL_MPI_ALLREDUCE,
  PL_MPI_SCAN,
  PL_MPI_IBARRIER,
  PL_MPI_IALLREDUCE,
  PL_MPI_WIN_CREATE,
  PL_MPI_WIN_FENCE,
  PL_MPI_WIN_FREE,
  PL_MPI_WIN_LOCK,
  PL_MPI_WIN_UNLOCK,
  PL_MPI_SENDRECV,
  PL_MPI_WAITANY,
  /* threads, no source file */
  PL_PTHREAD_MUTEX_LOCK,
  PL_PTHREAD_MUTEX_UNLOCK,
  PL_OMP_SET_LOCK,
  PL_OMP_UNSET_LOCK,
  PL_N_REGIONS
};

typedef struct
{
  uint32_t        id;
  const char     *name;
  OTF2_RegionRole role;
  OTF2_Paradigm   paradigm;
  const char     *file;         /* NULL: OTF2_UNDEFINED_STRING, lines 0 */
  uint32_t        begin_line;
  uint32_t        end_line;
} PlRegion;

PL_TABLE PlRegion pl_regions[PL_N_REGIONS] = {
  { PL_MAIN,            "main",           OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, PL_FILE,  10, 200 },
  { PL_WORK,            "work",           OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, PL_FILE,  30,  35 },
  { PL_EXCHANGE,        "exchange",       OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, PL_FILE,  40,  80 },
  { PL_COLLECT,         "collect",        OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, PL_FILE,  90, 110 },
  { PL_SOLVE,           "solve",          OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, PL_FILE, 120, 128 },
  { PL_RMA_EPOCH,       "rma_epoch",      OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, PL_FILE, 130, 145 },
  { PL_WORKER,          "worker",         OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, PL_FILE, 150, 170 },
  { PL_DRIVER,          "driver",         OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, NULL,      0,   0 },
  { PL_MPI_INIT,        "MPI_Init",       OTF2_REGION_ROLE_COLL_OTHER,   OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_INIT_THREAD, "MPI_Init_thread", OTF2_REGION_ROLE_COLL_OTHER,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_FINALIZE,    "MPI_Finalize",   OTF2_REGION_ROLE_COLL_OTHER,   OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_SEND,        "MPI_Send",       OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_SSEND,       "MPI_Ssend",      OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_ISEND,       "MPI_Isend",      OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_ISSEND,      "MPI_Issend",     OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_IBSEND,      "MPI_Ibsend",     OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_RECV,        "MPI_Recv",       OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_IRECV,       "MPI_Irecv",      OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_WAIT,        "MPI_Wait",       OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_WAITALL,     "MPI_Waitall",    OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_TEST,        "MPI_Test",       OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_BARRIER,     "MPI_Barrier",    OTF2_REGION_ROLE_BARRIER,      OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_BCAST,       "MPI_Bcast",      OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_REDUCE,      "MPI_Reduce",     OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_ALLREDUCE,   "MPI_Allreduce",  OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_SCAN,        "MPI_Scan",       OTF2_REGION_ROLE_COLL_OTHER,   OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_IBARRIER,    "MPI_Ibarrier",   OTF2_REGION_ROLE_BARRIER,      OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_IALLREDUCE,  "MPI_Iallreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_WIN_CREATE,  "MPI_Win_create", OTF2_REGION_ROLE_COLL_OTHER,   OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_WIN_FENCE,   "MPI_Win_fence",  OTF2_REGION_ROLE_BARRIER,      OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_WIN_FREE,    "MPI_Win_free",   OTF2_REGION_ROLE_COLL_OTHER,   OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_WIN_LOCK,    "MPI_Win_lock",   OTF2_REGION_ROLE_RMA,          OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_WIN_UNLOCK,  "MPI_Win_unlock", OTF2_REGION_ROLE_RMA,          OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_SENDRECV,    "MPI_Sendrecv",   OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_MPI_WAITANY,     "MPI_Waitany",    OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  { PL_PTHREAD_MUTEX_LOCK,   "pthread_mutex_lock",   OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_PTHREAD, NULL, 0, 0 },
  { PL_PTHREAD_MUTEX_UNLOCK, "pthread_mutex_unlock", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_PTHREAD, NULL, 0, 0 },
  { PL_OMP_SET_LOCK,    "omp_set_lock",   OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_OPENMP, NULL, 0, 0 },
  { PL_OMP_UNSET_LOCK,  "omp_unset_lock", OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_OPENMP, NULL, 0, 0 },
};

/* Source code locations, referenced by the SOURCE_CODE_LOCATION attribute
 * PL_ATTR_SCL ("source code location") of an ENTER. */
enum { PL_SCL_HALO, PL_N_SCLS };   /* PL_SCL_FILE:PL_SCL_LINE */
#define PL_ATTR_SCL 0
/* The communicator of a non-blocking collective's request, as Sextant's
 * recorder writes it ("communicator", type COMM), in the scenarios that
 * ask for it (`nbc_comm`) */
#define PL_ATTR_NBC_COMM 1

/* Groups and communicators (n = the trace's number of MPI ranks):
 *   PL_GROUP_LOCATIONS  COMM_LOCATIONS/MPI: locations 0..n-1
 *   PL_GROUP_WORLD      COMM_GROUP/MPI: ranks 0..n-1       -> PL_COMM_WORLD
 *                                                             (and PL_COMM_DUP)
 *   PL_GROUP_SELF       COMM_SELF/MPI                      -> PL_COMM_SELF
 *   PL_GROUP_LAST       COMM_GROUP/MPI: rank n-1 only      -> PL_COMM_LAST
 * PL_COMM_LAST is a one-member communicator that is not a COMM_SELF one.
 * PL_COMM_DUP, "MPI_Comm_dup(MPI_COMM_WORLD)", is defined only in the
 * scenarios that ask for it (`dup_comm`).
 * Window PL_WIN lives on PL_COMM_WORLD. */
enum { PL_GROUP_LOCATIONS, PL_GROUP_WORLD, PL_GROUP_SELF, PL_GROUP_LAST, PL_N_GROUPS };
enum { PL_COMM_WORLD, PL_COMM_SELF, PL_COMM_LAST, PL_COMM_DUP, PL_N_COMMS };
#define PL_WIN      0
#define PL_NO_ROOT  OTF2_UNDEFINED_UINT32

/* ---------------------------------------------------------------------- */
/* Events                                                                 */
/* ---------------------------------------------------------------------- */

typedef enum
{
  PL_EV_ENTER,
  PL_EV_LEAVE,
  PL_EV_PROGRAM_BEGIN,
  PL_EV_PROGRAM_END,
  PL_EV_MPI_SEND,
  PL_EV_MPI_ISEND,
  PL_EV_MPI_ISEND_COMPLETE,
  PL_EV_MPI_IRECV_REQUEST,
  PL_EV_MPI_RECV,
  PL_EV_MPI_IRECV,
  PL_EV_MPI_COLLECTIVE_BEGIN,
  PL_EV_MPI_COLLECTIVE_END,
  PL_EV_NON_BLOCKING_COLLECTIVE_REQUEST,
  PL_EV_NON_BLOCKING_COLLECTIVE_COMPLETE,
  PL_EV_RMA_WIN_CREATE,
  PL_EV_RMA_WIN_DESTROY,
  PL_EV_RMA_COLLECTIVE_BEGIN,
  PL_EV_RMA_COLLECTIVE_END,
  PL_EV_RMA_REQUEST_LOCK,
  PL_EV_RMA_ACQUIRE_LOCK,
  PL_EV_RMA_RELEASE_LOCK,
  PL_EV_THREAD_ACQUIRE_LOCK,
  PL_EV_THREAD_RELEASE_LOCK,
  PL_EV_OMP_ACQUIRE_LOCK,
  PL_EV_OMP_RELEASE_LOCK,
  PL_EV_MPI_REQUEST_CANCELLED,
  PL_N_EVENT_KINDS
} PlEventKind;

/* Field use per kind:
 *   ENTER/LEAVE           ref = region; arg = source code location + 1 (ENTER; 0 = no attribute)
 *   MPI_SEND/ISEND        ref = receiver rank, arg = tag, bytes, request (ISEND)
 *   MPI_RECV/IRECV        ref = sender rank, arg = tag, bytes, request (IRECV)
 *   ISEND_COMPLETE, IRECV_REQUEST, REQUEST_CANCELLED: request
 *   NON_BLOCKING_COLLECTIVE_REQUEST: request; ref = communicator + 1 for the
 *                         PL_ATTR_NBC_COMM attribute (0: none)
 *   MPI_COLLECTIVE_END, NON_BLOCKING_COLLECTIVE_COMPLETE:
 *                         ref = communicator, arg = root, op, bytes (sent),
 *                         bytes_in (received), request (NBC)
 *   RMA_WIN_CREATE/DESTROY: ref = window
 *   RMA_COLLECTIVE_END    ref = window, arg = sync level, op
 *   RMA_*_LOCK            ref = window, arg = target rank, op = lock type, request = lock id
 *   THREAD_/OMP_*_LOCK    ref = lock id, arg = acquisition order */
typedef struct
{
  uint64_t    loc;        /* OTF2 location id */
  uint64_t    ts;         /* ticks */
  PlEventKind kind;
  uint32_t    ref;
  uint32_t    arg;
  uint32_t    op;
  uint64_t    bytes;
  uint64_t    bytes_in;
  uint64_t    request;
} PlEvent;

#define PL_EV(loc, ts, kind, ref, arg, op, bytes, bytes_in, request) \
  { (uint64_t) (loc), (uint64_t) (ts), (kind), (ref), (arg), (op), (bytes), (bytes_in), (request) }

#define PL_ENTER(loc, ts, region)        PL_EV (loc, ts, PL_EV_ENTER, region, 0, 0, 0, 0, 0)
#define PL_ENTER_AT(loc, ts, region, scl) PL_EV (loc, ts, PL_EV_ENTER, region, (scl) + 1, 0, 0, 0, 0)
#define PL_LEAVE(loc, ts, region)        PL_EV (loc, ts, PL_EV_LEAVE, region, 0, 0, 0, 0, 0)
#define PL_PROGRAM_BEGIN(loc, ts)        PL_EV (loc, ts, PL_EV_PROGRAM_BEGIN, 0, 0, 0, 0, 0, 0)
#define PL_PROGRAM_END(loc, ts)          PL_EV (loc, ts, PL_EV_PROGRAM_END, 0, 0, 0, 0, 0, 0)

/* A region visit without records inside (user code, MPI_Init, ...). */
#define PL_CALL(loc, region, enter, leave) \
  PL_ENTER (loc, enter, region), PL_LEAVE (loc, leave, region)

/* Blocking sends (MPI_Send, MPI_Ssend) and receives. */
#define PL_SEND_CALL(loc, region, enter, ts, leave, peer, tag, bytes) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, ts, PL_EV_MPI_SEND, peer, tag, 0, bytes, 0, 0), \
  PL_LEAVE (loc, leave, region)
#define PL_RECV_RECORD(loc, ts, peer, tag, bytes) \
  PL_EV (loc, ts, PL_EV_MPI_RECV, peer, tag, 0, bytes, 0, 0)
#define PL_RECV_CALL(loc, enter, ts, leave, peer, tag, bytes) \
  PL_ENTER (loc, enter, PL_MPI_RECV), PL_RECV_RECORD (loc, ts, peer, tag, bytes), \
  PL_LEAVE (loc, leave, PL_MPI_RECV)
/* ... whose ENTER carries the SOURCE_CODE_LOCATION attribute @scl */
#define PL_RECV_CALL_AT(loc, enter, ts, leave, peer, tag, bytes, scl) \
  PL_ENTER_AT (loc, enter, PL_MPI_RECV, scl), PL_RECV_RECORD (loc, ts, peer, tag, bytes), \
  PL_LEAVE (loc, leave, PL_MPI_RECV)

/* Non-blocking sends (MPI_Isend, MPI_Issend, MPI_Ibsend) and receives, and
 * the MPI_Wait* / MPI_Test* that complete them. */
#define PL_ISEND_CALL(loc, region, enter, ts, leave, peer, tag, bytes, req) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, ts, PL_EV_MPI_ISEND, peer, tag, 0, bytes, 0, req), \
  PL_LEAVE (loc, leave, region)
#define PL_IRECV_CALL(loc, enter, ts, leave, req) \
  PL_ENTER (loc, enter, PL_MPI_IRECV), \
  PL_EV (loc, ts, PL_EV_MPI_IRECV_REQUEST, 0, 0, 0, 0, 0, req), \
  PL_LEAVE (loc, leave, PL_MPI_IRECV)
#define PL_WAIT_SEND(loc, region, enter, ts, leave, req) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, ts, PL_EV_MPI_ISEND_COMPLETE, 0, 0, 0, 0, 0, req), \
  PL_LEAVE (loc, leave, region)
#define PL_IRECV_RECORD(loc, ts, peer, tag, bytes, req) \
  PL_EV (loc, ts, PL_EV_MPI_IRECV, peer, tag, 0, bytes, 0, req)
#define PL_WAIT_RECV(loc, region, enter, ts, leave, peer, tag, bytes, req) \
  PL_ENTER (loc, enter, region), PL_IRECV_RECORD (loc, ts, peer, tag, bytes, req), \
  PL_LEAVE (loc, leave, region)

/* A blocking MPI collective: BEGIN at the enter, END at the leave. */
#define PL_COLL_CALL(loc, region, enter, leave, op, comm, root, sent, received) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, enter, PL_EV_MPI_COLLECTIVE_BEGIN, 0, 0, 0, 0, 0, 0), \
  PL_EV (loc, leave, PL_EV_MPI_COLLECTIVE_END, comm, root, op, sent, received, 0), \
  PL_LEAVE (loc, leave, region)

/* ... with the END record at @end, before the call's leave. */
#define PL_COLL_CALL_END(loc, region, enter, end, leave, op, comm, root, sent, received) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, enter, PL_EV_MPI_COLLECTIVE_BEGIN, 0, 0, 0, 0, 0, 0), \
  PL_EV (loc, end, PL_EV_MPI_COLLECTIVE_END, comm, root, op, sent, received, 0), \
  PL_LEAVE (loc, leave, region)

/* A non-blocking collective as OTF2 3 records it: the request in the
 * posting call, the completion in MPI_Wait. */
#define PL_NBC_POST(loc, region, enter, leave, req) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, enter, PL_EV_NON_BLOCKING_COLLECTIVE_REQUEST, 0, 0, 0, 0, 0, req), \
  PL_LEAVE (loc, leave, region)
/* ... whose request names its communicator (PL_ATTR_NBC_COMM) */
#define PL_NBC_POST_ON(loc, region, enter, leave, comm, req) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, enter, PL_EV_NON_BLOCKING_COLLECTIVE_REQUEST, (comm) + 1, 0, 0, 0, 0, req), \
  PL_LEAVE (loc, leave, region)
#define PL_NBC_WAIT(loc, enter, leave, op, comm, root, sent, received, req) \
  PL_ENTER (loc, enter, PL_MPI_WAIT), \
  PL_EV (loc, leave, PL_EV_NON_BLOCKING_COLLECTIVE_COMPLETE, comm, root, op, sent, received, req), \
  PL_LEAVE (loc, leave, PL_MPI_WAIT)

/* A non-blocking collective as Score-P records it: MPI_COLLECTIVE_BEGIN in
 * the MPI_I* call, MPI_COLLECTIVE_END in the MPI_Wait. */
#define PL_SCOREP_NBC_POST(loc, region, enter, leave) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, enter, PL_EV_MPI_COLLECTIVE_BEGIN, 0, 0, 0, 0, 0, 0), \
  PL_LEAVE (loc, leave, region)
#define PL_SCOREP_NBC_WAIT(loc, enter, leave, op, comm, root, sent, received) \
  PL_ENTER (loc, enter, PL_MPI_WAIT), \
  PL_EV (loc, leave, PL_EV_MPI_COLLECTIVE_END, comm, root, op, sent, received, 0), \
  PL_LEAVE (loc, leave, PL_MPI_WAIT)

/* RMA collectives on PL_WIN: RMA_COLLECTIVE_BEGIN at the enter,
 * RMA_WIN_CREATE / RMA_WIN_DESTROY and RMA_COLLECTIVE_END at the leave. */
#define PL_RMA_COLL_END(loc, ts, op, level) \
  PL_EV (loc, ts, PL_EV_RMA_COLLECTIVE_END, PL_WIN, level, op, 0, 0, 0)
#define PL_WIN_CREATE_CALL(loc, enter, leave) \
  PL_ENTER (loc, enter, PL_MPI_WIN_CREATE), \
  PL_EV (loc, enter, PL_EV_RMA_COLLECTIVE_BEGIN, 0, 0, 0, 0, 0, 0), \
  PL_EV (loc, leave, PL_EV_RMA_WIN_CREATE, PL_WIN, 0, 0, 0, 0, 0), \
  PL_RMA_COLL_END (loc, leave, OTF2_COLLECTIVE_OP_CREATE_HANDLE, OTF2_RMA_SYNC_LEVEL_NONE), \
  PL_LEAVE (loc, leave, PL_MPI_WIN_CREATE)
#define PL_WIN_FENCE_CALL(loc, enter, leave) \
  PL_ENTER (loc, enter, PL_MPI_WIN_FENCE), \
  PL_EV (loc, enter, PL_EV_RMA_COLLECTIVE_BEGIN, 0, 0, 0, 0, 0, 0), \
  PL_RMA_COLL_END (loc, leave, OTF2_COLLECTIVE_OP_BARRIER, \
                   OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY), \
  PL_LEAVE (loc, leave, PL_MPI_WIN_FENCE)
#define PL_WIN_FREE_CALL(loc, enter, leave) \
  PL_ENTER (loc, enter, PL_MPI_WIN_FREE), \
  PL_EV (loc, enter, PL_EV_RMA_COLLECTIVE_BEGIN, 0, 0, 0, 0, 0, 0), \
  PL_EV (loc, leave, PL_EV_RMA_WIN_DESTROY, PL_WIN, 0, 0, 0, 0, 0), \
  PL_RMA_COLL_END (loc, leave, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, OTF2_RMA_SYNC_LEVEL_NONE), \
  PL_LEAVE (loc, leave, PL_MPI_WIN_FREE)

/* MPI_Win_lock on PL_WIN: RMA_REQUEST_LOCK at @request, RMA_ACQUIRE_LOCK at
 * @acquire; MPI_Win_unlock holds RMA_RELEASE_LOCK. */
#define PL_WIN_LOCK_CALL(loc, enter, request, acquire, leave, target, lock_id, type) \
  PL_ENTER (loc, enter, PL_MPI_WIN_LOCK), \
  PL_EV (loc, request, PL_EV_RMA_REQUEST_LOCK, PL_WIN, target, type, 0, 0, lock_id), \
  PL_EV (loc, acquire, PL_EV_RMA_ACQUIRE_LOCK, PL_WIN, target, type, 0, 0, lock_id), \
  PL_LEAVE (loc, leave, PL_MPI_WIN_LOCK)
#define PL_WIN_UNLOCK_CALL(loc, enter, ts, leave, target, lock_id) \
  PL_ENTER (loc, enter, PL_MPI_WIN_UNLOCK), \
  PL_EV (loc, ts, PL_EV_RMA_RELEASE_LOCK, PL_WIN, target, 0, 0, 0, lock_id), \
  PL_LEAVE (loc, leave, PL_MPI_WIN_UNLOCK)

/* A thread lock call holding THREAD_* (pthread) or OMP_* (OpenMP, OTF2's
 * deprecated records) lock records. */
#define PL_LOCK_RECORD_CALL(loc, region, enter, ts, leave, kind, lock_id, order) \
  PL_ENTER (loc, enter, region), \
  PL_EV (loc, ts, kind, lock_id, order, 0, 0, 0, 0), \
  PL_LEAVE (loc, leave, region)

/* ---------------------------------------------------------------------- */
/* Expectations                                                           */
/* ---------------------------------------------------------------------- */

#define PL_NO_PEER   INT64_C (-1)   /* peer_loc must be NULL */
#define PL_ANY_PEER  INT64_C (-2)   /* peer_loc is not checked */
#define PL_NO_FILE   NULL           /* file and line must be NULL (give line 0) */

/* One row of pattern_instance.  `runs` is a bit mask of the trace's runs
 * (PL_IN_RUN (i) for runs[i]) the instance appears in; 0 means every run. */
typedef struct
{
  const char *pattern;
  uint64_t    loc;         /* OTF2 location id */
  int64_t     severity;    /* ticks */
  int64_t     peer;        /* OTF2 location id, PL_NO_PEER or PL_ANY_PEER */
  const char *callpath;
  const char *file;        /* PL_NO_FILE: no source information */
  int64_t     line;
  const char *comment;     /* a substring the comment must contain; NULL = not checked */
  uint32_t    runs;
} PlInstance;

#define PL_IN_RUN(i) (1u << (i))

/* One `sextant analyze` of the trace: --param values (NULL-terminated). */
typedef struct
{
  const char *name;
  const char *params[4];
} PlRun;

typedef struct
{
  const char       *name;
  const PlEvent    *events;
  guint             n_events;
  const PlInstance *expect;
  guint             n_expect;
} PlCase;

#define PL_CASE(name, events, expect) \
  { (name), (events), G_N_ELEMENTS (events), (expect), G_N_ELEMENTS (expect) }
#define PL_CASE_NO_INSTANCE(name, events) \
  { (name), (events), G_N_ELEMENTS (events), NULL, 0 }

typedef struct
{
  uint64_t    id;
  uint32_t    group;        /* location group (process) */
  const char *group_name;
  const char *name;
} PlLocation;

typedef struct
{
  const char        *name;          /* sextant-otf2gen SCENARIO */
  const char        *summary;
  uint64_t           resolution;    /* ticks per second */
  guint              n_ranks;       /* MPI ranks = locations 0 .. n_ranks-1 */
  const PlLocation  *locations;
  guint              n_locations;
  const PlCase      *cases;
  guint              n_cases;
  const PlRun       *runs;
  guint              n_runs;
  const char *const *unchecked;     /* patterns not compared, NULL-terminated */
  uint64_t           total_ticks;   /* sum over locations of (last record - first record) */
  gboolean           dup_comm;      /* PL_COMM_DUP is defined */
  gboolean           nbc_comm;      /* PL_ATTR_NBC_COMM is defined */
} PlScenario;

PL_TABLE PlLocation pl_ranks[] = {
  { 0, 0, "MPI Rank 0", "Master thread" },
  { 1, 1, "MPI Rank 1", "Master thread" },
  { 2, 2, "MPI Rank 2", "Master thread" },
  { 3, 3, "MPI Rank 3", "Master thread" },
};

PL_TABLE char *const pl_unchecked_default[] = { "unbalanced_communication", NULL };
PL_TABLE char *const pl_unchecked_none[] = { NULL };

PL_TABLE PlRun pl_runs_default[] = { { "default", { NULL } } };

/* ====================================================================== */
/* planted-late-sender (1 MHz, ranks 0..2)                                */
/* ====================================================================== */

/* Frame.  Rank 0's first and last records are PROGRAM_BEGIN and
 * PROGRAM_END, not region records; rank 2 runs everything inside
 * driver(), which has no source file.
 *   total time = (1990 - 0) + (2000 - 3) + (1995 - 7) = 1990 + 1997 + 1988 = 5975 */
#define PL_LS_TOTAL_TICKS 5975

PL_TABLE PlEvent pl_ls_frame[] = {
  PL_PROGRAM_BEGIN (0, 0),
  PL_ENTER (0, 2, PL_MAIN),
  PL_LEAVE (0, 1985, PL_MAIN),
  PL_PROGRAM_END (0, 1990),
  PL_ENTER (1, 3, PL_MAIN),
  PL_LEAVE (1, 2000, PL_MAIN),
  PL_ENTER (2, 7, PL_DRIVER),
  PL_LEAVE (2, 1995, PL_DRIVER),
};

/* (a) Blocking Send/Recv inside exchange(): rank 1 enters MPI_Recv at 110,
 * rank 0 enters MPI_Send at 160.
 *   late_sender(1) = min(160, leave 170) - 110 = 50, peer 0,
 *   at exchange's begin line planted.c:40. */
PL_TABLE PlEvent pl_ls_a[] = {
  PL_ENTER (0, 100, PL_EXCHANGE),
  PL_SEND_CALL (0, PL_MPI_SEND, 160, 161, 165, 1, 1, 1024),
  PL_LEAVE (0, 180, PL_EXCHANGE),
  PL_ENTER (1, 100, PL_EXCHANGE),
  PL_RECV_CALL (1, 110, 168, 170, 0, 1, 1024),
  PL_LEAVE (1, 180, PL_EXCHANGE),
};
PL_TABLE PlInstance pl_ls_a_expect[] = {
  { "late_sender", 1, 50, 0, "main/exchange/MPI_Recv", PL_FILE, 40 },
};

/* (b) As (a), but the ENTER of MPI_Recv carries a SOURCE_CODE_LOCATION
 * attribute (halo.c:57), which wins over exchange's planted.c:40.
 *   late_sender(1) = min(380, leave 390) - 310 = 70, peer 0. */
PL_TABLE PlEvent pl_ls_b[] = {
  PL_ENTER (0, 300, PL_EXCHANGE),
  PL_SEND_CALL (0, PL_MPI_SEND, 380, 381, 383, 1, 2, 8),
  PL_LEAVE (0, 395, PL_EXCHANGE),
  PL_ENTER (1, 300, PL_EXCHANGE),
  PL_RECV_CALL_AT (1, 310, 385, 390, 0, 2, 8, PL_SCL_HALO),
  PL_LEAVE (1, 395, PL_EXCHANGE),
};
PL_TABLE PlInstance pl_ls_b_expect[] = {
  { "late_sender", 1, 70, 0, "main/exchange/MPI_Recv", PL_SCL_FILE, PL_SCL_LINE },
};

/* (c) No source information at all: rank 2's MPI_Recv is called from
 * driver(), which has no file, and its ENTER has no attribute.
 *   late_sender(2) = min(535, leave 545) - 510 = 25, peer 0, file/line NULL. */
PL_TABLE PlEvent pl_ls_c[] = {
  PL_SEND_CALL (0, PL_MPI_SEND, 535, 536, 538, 2, 3, 16),
  PL_RECV_CALL (2, 510, 540, 545, 0, 3, 16),
};
PL_TABLE PlInstance pl_ls_c_expect[] = {
  { "late_sender", 2, 25, 0, "driver/MPI_Recv", PL_NO_FILE, 0 },
};

/* (d) A zero-byte message: the wait is the same as for any other.
 *   late_sender(1) = min(745, leave 752) - 700 = 45, peer 0, main's planted.c:10. */
PL_TABLE PlEvent pl_ls_d[] = {
  PL_SEND_CALL (0, PL_MPI_SEND, 745, 746, 748, 1, 4, 0),
  PL_RECV_CALL (1, 700, 750, 752, 0, 4, 0),
};
PL_TABLE PlInstance pl_ls_d_expect[] = {
  { "late_sender", 1, 45, 0, "main/MPI_Recv", PL_FILE, 10 },
};

/* (e) Overlapping requests: rank 1 posts MPI_Irecv from 0 (request 1) and
 * from 2 (request 2), then completes both in one MPI_Waitall entered at 910.
 * Rank 0's send starts at 930, rank 2's at 945:
 *   per message min(send enter, leave 955) - 910 = 20 and 35; the call
 *   counts the larger once: late_sender(1) = 35, peer 2.
 *   early_wait(1) = leave - enter of the Waitall = 955 - 910 = 45, once; which
 *   of the two messages it names (peer, optimal distance) is not specified. */
PL_TABLE PlEvent pl_ls_e[] = {
  PL_IRECV_CALL (1, 900, 901, 902, 1),
  PL_IRECV_CALL (1, 903, 904, 905, 2),
  PL_ENTER (1, 910, PL_MPI_WAITALL),
  PL_IRECV_RECORD (1, 940, 0, 5, 64, 1),
  PL_IRECV_RECORD (1, 952, 2, 6, 64, 2),
  PL_LEAVE (1, 955, PL_MPI_WAITALL),
  PL_SEND_CALL (0, PL_MPI_SEND, 930, 931, 935, 1, 5, 64),
  PL_SEND_CALL (2, PL_MPI_SEND, 945, 946, 950, 1, 6, 64),
};
PL_TABLE PlInstance pl_ls_e_expect[] = {
  { "late_sender", 1, 35, 2, "main/MPI_Waitall", PL_FILE, 10 },
  { "early_wait", 1, 45, PL_ANY_PEER, "main/MPI_Waitall", PL_FILE, 10 },
};

/* (f) As (e), but the MPI_Waitall writes both MPI_IRECV records at its leave
 * (1160), as Score-P does: neither receive is later than the other, so
 * neither message can make the other a Wrong Order.  Sends start at 1130
 * (rank 0, recorded 1131) and 1145 (rank 2, recorded 1146):
 *   late_sender(1) = max(1130 - 1110, 1145 - 1110) = 35, peer 2.
 *   early_wait(1) = 1160 - 1110 = 50.
 * (g) The same with the roles of the senders swapped (rank 2 sends first, at
 * 1230, rank 0 at 1245) and rank 2's record written first: again no Wrong
 * Order, whichever message the store numbers first.
 *   late_sender(1) = max(1230 - 1210, 1245 - 1210) = 35, peer 0.
 *   early_wait(1) = 1260 - 1210 = 50. */
PL_TABLE PlEvent pl_ls_f[] = {
  PL_IRECV_CALL (1, 1100, 1101, 1102, 3),
  PL_IRECV_CALL (1, 1103, 1104, 1105, 4),
  PL_ENTER (1, 1110, PL_MPI_WAITALL),
  PL_IRECV_RECORD (1, 1160, 0, 7, 64, 3),
  PL_IRECV_RECORD (1, 1160, 2, 8, 64, 4),
  PL_LEAVE (1, 1160, PL_MPI_WAITALL),
  PL_SEND_CALL (0, PL_MPI_SEND, 1130, 1131, 1135, 1, 7, 64),
  PL_SEND_CALL (2, PL_MPI_SEND, 1145, 1146, 1150, 1, 8, 64),
};
PL_TABLE PlInstance pl_ls_f_expect[] = {
  { "late_sender", 1, 35, 2, "main/MPI_Waitall", PL_FILE, 10 },
  { "early_wait", 1, 50, PL_ANY_PEER, "main/MPI_Waitall", PL_FILE, 10 },
};
PL_TABLE PlEvent pl_ls_g[] = {
  PL_IRECV_CALL (1, 1200, 1201, 1202, 5),
  PL_IRECV_CALL (1, 1203, 1204, 1205, 6),
  PL_ENTER (1, 1210, PL_MPI_WAITALL),
  PL_IRECV_RECORD (1, 1260, 2, 10, 64, 6),
  PL_IRECV_RECORD (1, 1260, 0, 9, 64, 5),
  PL_LEAVE (1, 1260, PL_MPI_WAITALL),
  PL_SEND_CALL (0, PL_MPI_SEND, 1245, 1246, 1250, 1, 9, 64),
  PL_SEND_CALL (2, PL_MPI_SEND, 1230, 1231, 1235, 1, 10, 64),
};
PL_TABLE PlInstance pl_ls_g_expect[] = {
  { "late_sender", 1, 35, 0, "main/MPI_Waitall", PL_FILE, 10 },
  { "early_wait", 1, 50, PL_ANY_PEER, "main/MPI_Waitall", PL_FILE, 10 },
};

/* Nothing else: every send starts after its receive (no late_receiver), no
 * location sends and then receives (no close_send_recv), every location
 * receives in send order (no wrong order), the ranks all talk to each other
 * (no master). */
PL_TABLE PlCase pl_ls_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_ls_frame),
  PL_CASE ("blocking", pl_ls_a, pl_ls_a_expect),
  PL_CASE ("source code location attribute", pl_ls_b, pl_ls_b_expect),
  PL_CASE ("no source information", pl_ls_c, pl_ls_c_expect),
  PL_CASE ("zero bytes", pl_ls_d, pl_ls_d_expect),
  PL_CASE ("two Irecvs, one Waitall", pl_ls_e, pl_ls_e_expect),
  PL_CASE ("one Waitall, simultaneous completions", pl_ls_f, pl_ls_f_expect),
  PL_CASE ("one Waitall, simultaneous completions, other order", pl_ls_g, pl_ls_g_expect),
};

/* ====================================================================== */
/* planted-wrong-order (1 MHz, ranks 0..2)                                */
/* ====================================================================== */

/* total time = 600 + 610 + (600 - 5) = 1805 */
#define PL_WO_TOTAL_TICKS 1805

PL_TABLE PlEvent pl_wo_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 600),
  PL_CALL (1, PL_MAIN, 0, 610),
  PL_CALL (2, PL_MAIN, 5, 600),
};

/* Same source, in exchange(): rank 0 sends tag 1 (record 101) then tag 2
 * (record 121); rank 1 receives tag 2 first, then tag 1.
 *   Receive of tag 2: min(120, leave 126) - 90 = 30, a Late Sender; the later
 *   receive of tag 1 (record 131 > 125) matches a send recorded at 101 < 121,
 *   so it is Wrong Order: late_sender_wrong_order(1) = 30, peer 0; and the
 *   earlier message comes from the same sender: wrong_order(1) = 30, peer 0.
 *   Receive of tag 1: min(100, 132) - 130 < 0, no wait. */
PL_TABLE PlEvent pl_wo_same[] = {
  PL_ENTER (0, 90, PL_EXCHANGE),
  PL_SEND_CALL (0, PL_MPI_SEND, 100, 101, 103, 1, 1, 8),
  PL_SEND_CALL (0, PL_MPI_SEND, 120, 121, 123, 1, 2, 8),
  PL_LEAVE (0, 140, PL_EXCHANGE),
  PL_ENTER (1, 85, PL_EXCHANGE),
  PL_RECV_CALL (1, 90, 125, 126, 0, 2, 8),
  PL_RECV_CALL (1, 130, 131, 132, 0, 1, 8),
  PL_LEAVE (1, 140, PL_EXCHANGE),
};
PL_TABLE PlInstance pl_wo_same_expect[] = {
  { "late_sender_wrong_order", 1, 30, 0, "main/exchange/MPI_Recv", PL_FILE, 40 },
  { "wrong_order", 1, 30, 0, "main/exchange/MPI_Recv", PL_FILE, 40,
    "waited 30.0 µs in MPI_Recv at planted.c:40 (where exchange begins; the trace gives no call site) for a "
    "message from MPI Rank 0 while an earlier message" },
};

/* Different source, in collect(): rank 1 waits for rank 2 (send enter 340,
 * record 341) while rank 0's message (record 301) is already on its way; it
 * receives that one afterwards (record 351 > 345). Another sender: no
 * wrong_order.
 *   late_sender_wrong_order(1) = min(340, leave 346) - 290 = 50, peer 2.
 *   Receive from 0: min(300, 352) - 350 < 0, no wait. */
PL_TABLE PlEvent pl_wo_diff[] = {
  PL_ENTER (0, 280, PL_COLLECT),
  PL_SEND_CALL (0, PL_MPI_SEND, 300, 301, 303, 1, 3, 8),
  PL_LEAVE (0, 310, PL_COLLECT),
  PL_ENTER (2, 280, PL_COLLECT),
  PL_SEND_CALL (2, PL_MPI_SEND, 340, 341, 343, 1, 4, 8),
  PL_LEAVE (2, 350, PL_COLLECT),
  PL_ENTER (1, 280, PL_COLLECT),
  PL_RECV_CALL (1, 290, 345, 346, 2, 4, 8),
  PL_RECV_CALL (1, 350, 351, 352, 0, 3, 8),
  PL_LEAVE (1, 360, PL_COLLECT),
};
PL_TABLE PlInstance pl_wo_diff_expect[] = {
  { "late_sender_wrong_order", 1, 50, 2, "main/collect/MPI_Recv", PL_FILE, 90 },
};

/* Control: rank 1 waits for rank 0 (send record 521), then receives rank 2's
 * message sent later (record 531 > 521): an ordinary Late Sender.
 *   late_sender(1) = min(520, leave 525) - 500 = 20, peer 0.
 *   Receive from 2: min(530, 552) - 550 < 0, no wait. */
PL_TABLE PlEvent pl_wo_control[] = {
  PL_SEND_CALL (0, PL_MPI_SEND, 520, 521, 523, 1, 5, 8),
  PL_SEND_CALL (2, PL_MPI_SEND, 530, 531, 533, 1, 6, 8),
  PL_RECV_CALL (1, 500, 524, 525, 0, 5, 8),
  PL_RECV_CALL (1, 550, 551, 552, 2, 6, 8),
};
PL_TABLE PlInstance pl_wo_control_expect[] = {
  { "late_sender", 1, 20, 0, "main/MPI_Recv", PL_FILE, 10 },
};

/* Nothing else: no send outlasts the start of its receive; rank 1 has only
 * two exclusive partners (a master needs three). */
PL_TABLE PlCase pl_wo_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_wo_frame),
  PL_CASE ("same source", pl_wo_same, pl_wo_same_expect),
  PL_CASE ("different source", pl_wo_diff, pl_wo_diff_expect),
  PL_CASE ("in order", pl_wo_control, pl_wo_control_expect),
};

/* ====================================================================== */
/* planted-late-receiver (1 MHz, ranks 0..3)                              */
/* ====================================================================== */

/* Runs: default (late_receiver.eager_limit = 0: timing only; early_wait's
 * eager_limit = 65536), --param eager_limit=64 and --param eager_limit=65
 * (both patterns).  Standard sends of at least eager_limit bytes count. */
enum { PL_LR_DEFAULT, PL_LR_EAGER_64, PL_LR_EAGER_65 };
PL_TABLE PlRun pl_lr_runs[] = {
  { "default", { NULL } },
  { "eager_limit=64", { "eager_limit=64", NULL } },
  { "eager_limit=65", { "eager_limit=65", NULL } },
};

/* total time = 500 + 500 + 500 + 400 = 1900 */
#define PL_LR_TOTAL_TICKS 1900

PL_TABLE PlEvent pl_lr_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 500),
  PL_CALL (1, PL_MAIN, 0, 500),
  PL_CALL (2, PL_MAIN, 0, 500),
  PL_CALL (3, PL_MAIN, 0, 400),
};

/* (f) MPI_Ssend of 8 bytes, 0 -> 1: synchronous whatever the size.
 *   late_receiver(0) = enter(Recv) - enter(Ssend) = 140 - 100 = 40 (Ssend
 *   leaves at 160 > 140), peer 1, in every run. */
PL_TABLE PlEvent pl_lr_ssend[] = {
  PL_SEND_CALL (0, PL_MPI_SSEND, 100, 101, 160, 1, 1, 8),
  PL_RECV_CALL (1, 140, 155, 158, 0, 1, 8),
};
PL_TABLE PlInstance pl_lr_ssend_expect[] = {
  { "late_receiver", 0, 40, 1, "main/MPI_Ssend", PL_FILE, 10 },
};

/* (g) MPI_Send of 100000 bytes, 2 -> 3: above every eager limit used here.
 *   late_receiver(2) = 250 - 200 = 50, peer 3, in every run. */
PL_TABLE PlEvent pl_lr_big[] = {
  PL_SEND_CALL (2, PL_MPI_SEND, 200, 201, 280, 3, 2, 100000),
  PL_RECV_CALL (3, 250, 275, 278, 2, 2, 100000),
};
PL_TABLE PlInstance pl_lr_big_expect[] = {
  { "late_receiver", 2, 50, 3, "main/MPI_Send", PL_FILE, 10 },
};

/* (h) MPI_Send of 64 bytes, 3 -> 2, with the timing of a late receiver.
 *   late_receiver(3) = 330 - 300 = 30, peer 2, with eager_limit 0 and 64
 *   (64 >= 64); none with eager_limit 65 (the send is buffered). */
PL_TABLE PlEvent pl_lr_small[] = {
  PL_SEND_CALL (3, PL_MPI_SEND, 300, 301, 360, 2, 3, 64),
  PL_RECV_CALL (2, 330, 355, 358, 3, 3, 64),
};
PL_TABLE PlInstance pl_lr_small_expect[] = {
  { "late_receiver", 3, 30, 2, "main/MPI_Send", PL_FILE, 10,
    .runs = PL_IN_RUN (PL_LR_DEFAULT) | PL_IN_RUN (PL_LR_EAGER_64) },
};

/* (i) MPI_Issend of 8 bytes, 1 -> 0, completed by MPI_Wait [410, 450].
 *   late_receiver(1) = enter(Recv) - enter(Wait) = 430 - 410 = 20, peer 0.
 *   early_wait(1) = 450 - 410 = 40 (an Issend counts whatever its size);
 *   optimal distance = dT (402 - 400) + latency 2 + 8 B / 5e9 B/s (0.0016)
 *   + (430 - 400, the receive started later) = 34.0016 us; the wait came
 *   410 - 400 = 10 us after the Issend. */
PL_TABLE PlEvent pl_lr_issend[] = {
  PL_ISEND_CALL (1, PL_MPI_ISSEND, 400, 401, 402, 0, 4, 8, 1),
  PL_WAIT_SEND (1, PL_MPI_WAIT, 410, 445, 450, 1),
  PL_RECV_CALL (0, 430, 440, 442, 1, 4, 8),
};
PL_TABLE PlInstance pl_lr_issend_expect[] = {
  { "late_receiver", 1, 20, 0, "main/MPI_Wait", PL_FILE, 10 },
  { "early_wait", 1, 40, 0, "main/MPI_Wait", PL_FILE, 10,
    "MPI Rank 1 waited 40.0 µs in its wait for a send posted 10.0 µs before; "
    "the optimal distance between the two calls is 34.0 µs" },
};

/* Nothing else: every receive starts after its send (no late_sender); rank 2
 * sends to 3 and receives from 3 50 ticks later (not close); each location
 * receives once; pairs 0-1 and 2-3 (no master); no message is 10 times the
 * average of (8 + 100000 + 64 + 8) / 4 = 25020 bytes. */
PL_TABLE PlCase pl_lr_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_lr_frame),
  PL_CASE ("Ssend", pl_lr_ssend, pl_lr_ssend_expect),
  PL_CASE ("Send above the eager limit", pl_lr_big, pl_lr_big_expect),
  PL_CASE ("Send of 64 bytes", pl_lr_small, pl_lr_small_expect),
  PL_CASE ("Issend", pl_lr_issend, pl_lr_issend_expect),
};

/* ====================================================================== */
/* planted-early-wait (1 MHz, ranks 0 and 1)                              */
/* ====================================================================== */

/* early_wait's parameters keep their defaults: eager_limit 65536 bytes,
 * latency 2 us, bandwidth 5e9 bytes/s, so T_send = 2 + bytes / 5000 us.
 * total time = 700 + 700 = 1400 */
#define PL_EW_TOTAL_TICKS 1400

PL_TABLE PlEvent pl_ew_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 700),
  PL_CALL (1, PL_MAIN, 0, 700),
};

/* (j1) Receiver side, the send starts after the Irecv: rank 0 MPI_Irecv
 * [100, 104], MPI_Wait [110, 150]; rank 1 MPI_Send of 100000 bytes at 130.
 *   early_wait(0) = 150 - 110 = 40, peer 1; optimal distance = dT 4 +
 *   T_send (2 + 20) + (130 - 100) = 56 us; distance 110 - 100 = 10 us.
 *   late_sender(0) on the MPI_Wait = min(130, 150) - 110 = 20, peer 1. */
PL_TABLE PlEvent pl_ew_recv_later[] = {
  PL_IRECV_CALL (0, 100, 102, 104, 1),
  PL_WAIT_RECV (0, PL_MPI_WAIT, 110, 145, 150, 1, 1, 100000, 1),
  PL_SEND_CALL (1, PL_MPI_SEND, 130, 131, 140, 0, 1, 100000),
};
PL_TABLE PlInstance pl_ew_recv_later_expect[] = {
  { "early_wait", 0, 40, 1, "main/MPI_Wait", PL_FILE, 10,
    "MPI Rank 0 waited 40.0 µs in its wait for a receive posted 10.0 µs before; "
    "the optimal distance between the two calls is 56.0 µs" },
  { "late_sender", 0, 20, 1, "main/MPI_Wait", PL_FILE, 10 },
};

/* (j2) Sender side, the receive starts after the Isend: rank 1 MPI_Isend of
 * 102500 bytes [200, 203], MPI_Wait [205, 245]; rank 0 MPI_Recv at 220.
 *   early_wait(1) = 245 - 205 = 40, peer 0; optimal distance = dT 3 +
 *   T_send (2 + 102500 / 5000 = 22.5) + (220 - 200) = 45.5 us; distance 5 us.
 *   late_receiver(1) = 220 - 205 = 15, peer 0. */
PL_TABLE PlEvent pl_ew_send_later[] = {
  PL_ISEND_CALL (1, PL_MPI_ISEND, 200, 201, 203, 0, 2, 102500, 2),
  PL_WAIT_SEND (1, PL_MPI_WAIT, 205, 240, 245, 2),
  PL_RECV_CALL (0, 220, 238, 242, 1, 2, 102500),
};
PL_TABLE PlInstance pl_ew_send_later_expect[] = {
  { "early_wait", 1, 40, 0, "main/MPI_Wait", PL_FILE, 10,
    "MPI Rank 1 waited 40.0 µs in its wait for a send posted 5.0 µs before; "
    "the optimal distance between the two calls is 45.5 µs" },
  { "late_receiver", 1, 15, 0, "main/MPI_Wait", PL_FILE, 10 },
};

/* (j3) Receiver side, the send started first: rank 1 MPI_Send of 100000
 * bytes [300, 340]; rank 0 MPI_Irecv [310, 312], MPI_Wait [315, 338].
 *   early_wait(0) = 338 - 315 = 23, peer 1; optimal distance = dT 2 + T_send
 *   22 = 24 us (no partner delay); distance 315 - 310 = 5 us.
 *   late_receiver(1) = enter(Irecv) - enter(Send) = 310 - 300 = 10, peer 0. */
PL_TABLE PlEvent pl_ew_send_first[] = {
  PL_SEND_CALL (1, PL_MPI_SEND, 300, 301, 340, 0, 3, 100000),
  PL_IRECV_CALL (0, 310, 311, 312, 3),
  PL_WAIT_RECV (0, PL_MPI_WAIT, 315, 335, 338, 1, 3, 100000, 3),
};
PL_TABLE PlInstance pl_ew_send_first_expect[] = {
  { "early_wait", 0, 23, 1, "main/MPI_Wait", PL_FILE, 10,
    "MPI Rank 0 waited 23.0 µs in its wait for a receive posted 5.0 µs before; "
    "the optimal distance between the two calls is 24.0 µs" },
  { "late_receiver", 1, 10, 0, "main/MPI_Send", PL_FILE, 10 },
};

/* (j4) A 1000-byte MPI_Isend (below eager_limit) whose MPI_Wait [405, 420]
 * lasts 15: it completes locally, so no early_wait.  The receive [403, 406]
 * starts before the wait (no late_receiver) and after the Isend (no
 * late_sender). */
PL_TABLE PlEvent pl_ew_small[] = {
  PL_ISEND_CALL (1, PL_MPI_ISEND, 400, 401, 402, 0, 4, 1000, 4),
  PL_WAIT_SEND (1, PL_MPI_WAIT, 405, 406, 420, 4),
  PL_RECV_CALL (0, 403, 404, 406, 1, 4, 1000),
};

/* (j5) MPI_Ibsend of 100000 bytes with a 3-tick MPI_Wait: buffered, never an
 * early_wait.  The wait ends (508) before the receive starts (510). */
PL_TABLE PlEvent pl_ew_ibsend[] = {
  PL_ISEND_CALL (1, PL_MPI_IBSEND, 500, 501, 502, 0, 5, 100000, 5),
  PL_WAIT_SEND (1, PL_MPI_WAIT, 505, 506, 508, 5),
  PL_RECV_CALL (0, 510, 520, 525, 1, 5, 100000),
};

/* (j6) An MPI_Irecv completed by MPI_Test [620, 625]: a test is not a wait,
 * so neither early_wait nor late_sender. */
PL_TABLE PlEvent pl_ew_test[] = {
  PL_IRECV_CALL (0, 600, 601, 602, 6),
  PL_WAIT_RECV (0, PL_MPI_TEST, 620, 621, 625, 1, 6, 8, 6),
  PL_SEND_CALL (1, PL_MPI_SEND, 605, 606, 608, 0, 6, 8),
};

/* (j7) An MPI_Isend of exactly eager_limit = 65536 bytes: not below the
 * limit, so it counts.  MPI_Isend [650, 652], MPI_Wait [655, 690]; the
 * receive starts at 670.
 *   early_wait(1) = 690 - 655 = 35, peer 0 (optimal distance 2 + 2 +
 *   65536 / 5000 + 20 = 37.1072 us, not checked here: (j2) checks the
 *   arithmetic).
 *   late_receiver(1) = 670 - 655 = 15, peer 0. */
PL_TABLE PlEvent pl_ew_at_limit[] = {
  PL_ISEND_CALL (1, PL_MPI_ISEND, 650, 651, 652, 0, 7, 65536, 7),
  PL_WAIT_SEND (1, PL_MPI_WAIT, 655, 680, 690, 7),
  PL_RECV_CALL (0, 670, 678, 685, 1, 7, 65536),
};
PL_TABLE PlInstance pl_ew_at_limit_expect[] = {
  { "early_wait", 1, 35, 0, "main/MPI_Wait", PL_FILE, 10 },
  { "late_receiver", 1, 15, 0, "main/MPI_Wait", PL_FILE, 10 },
};

/* Nothing else: rank 1 never receives (no close_send_recv); rank 0 receives
 * in send order; the average message is 469044 / 7 bytes, so none is large. */
PL_TABLE PlCase pl_ew_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_ew_frame),
  PL_CASE ("receiver side, send later", pl_ew_recv_later, pl_ew_recv_later_expect),
  PL_CASE ("sender side, receive later", pl_ew_send_later, pl_ew_send_later_expect),
  PL_CASE ("receiver side, send first", pl_ew_send_first, pl_ew_send_first_expect),
  PL_CASE_NO_INSTANCE ("Isend below the eager limit", pl_ew_small),
  PL_CASE_NO_INSTANCE ("Ibsend", pl_ew_ibsend),
  PL_CASE_NO_INSTANCE ("Irecv completed by MPI_Test", pl_ew_test),
  PL_CASE ("Isend of exactly eager_limit bytes", pl_ew_at_limit, pl_ew_at_limit_expect),
};

/* ====================================================================== */
/* planted-close (1 MHz, ranks 0 and 1)                                   */
/* ====================================================================== */

/* Runs: default (distance 10 us) and --param distance=0.000011 (11 us). */
enum { PL_CL_DEFAULT, PL_CL_DISTANCE_11 };
PL_TABLE PlRun pl_cl_runs[] = {
  { "default", { NULL } },
  { "distance=11us", { "distance=0.000011", NULL } },
};

/* total time = 500 + 500 = 1000 */
#define PL_CL_TOTAL_TICKS 1000

PL_TABLE PlEvent pl_cl_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 500),
  PL_CALL (1, PL_MAIN, 0, 500),
};

/* (k1) Rank 0: MPI_Send to 1 [100, 110], then MPI_Recv from 1 [112, 120]:
 * 2 ticks apart.  Rank 1 receives then sends (the other order), which the
 * criterion does not count.  Every receive starts with its send: no waits.
 *   close_send_recv(0) = min(110 - 100, 120 - 112) = 8, peer 1, on the send. */
PL_TABLE PlEvent pl_cl_close[] = {
  PL_SEND_CALL (0, PL_MPI_SEND, 100, 101, 110, 1, 1, 8),
  PL_RECV_CALL (0, 112, 118, 120, 1, 2, 8),
  PL_RECV_CALL (1, 100, 108, 110, 0, 1, 8),
  PL_SEND_CALL (1, PL_MPI_SEND, 112, 113, 116, 0, 2, 8),
};
PL_TABLE PlInstance pl_cl_close_expect[] = {
  { "close_send_recv", 0, 8, 1, "main/MPI_Send", PL_FILE, 10 },
};

/* (k2) The same 10 ticks apart (send leaves at 210, receive enters at 220):
 * not closer than the default distance of 10; with distance 11 it is:
 *   close_send_recv(0) = min(210 - 200, 230 - 220) = 10, peer 1. */
PL_TABLE PlEvent pl_cl_boundary[] = {
  PL_SEND_CALL (0, PL_MPI_SEND, 200, 201, 210, 1, 3, 8),
  PL_RECV_CALL (0, 220, 226, 230, 1, 4, 8),
  PL_RECV_CALL (1, 200, 208, 210, 0, 3, 8),
  PL_SEND_CALL (1, PL_MPI_SEND, 220, 221, 224, 0, 4, 8),
};
PL_TABLE PlInstance pl_cl_boundary_expect[] = {
  { "close_send_recv", 0, 10, 1, "main/MPI_Send", PL_FILE, 10, .runs = PL_IN_RUN (PL_CL_DISTANCE_11) },
};

/* (k3) 3 ticks apart, but work() runs in between: not a send followed by a
 * receive. */
PL_TABLE PlEvent pl_cl_between[] = {
  PL_SEND_CALL (0, PL_MPI_SEND, 300, 301, 305, 1, 5, 8),
  PL_CALL (0, PL_WORK, 306, 307),
  PL_RECV_CALL (0, 308, 315, 318, 1, 6, 8),
  PL_RECV_CALL (1, 300, 303, 305, 0, 5, 8),
  PL_SEND_CALL (1, PL_MPI_SEND, 308, 310, 312, 0, 6, 8),
};

/* (k4) A message to self: rank 0 sends to rank 0 [400, 402], works, and
 * receives it [405, 407].  The receive starts after the send: no wait state
 * of any kind, and a self pair makes nobody a worker. */
PL_TABLE PlEvent pl_cl_self[] = {
  PL_SEND_CALL (0, PL_MPI_SEND, 400, 401, 402, 0, 7, 8),
  PL_CALL (0, PL_WORK, 403, 404),
  PL_RECV_CALL (0, 405, 406, 407, 0, 7, 8),
};

PL_TABLE PlCase pl_cl_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_cl_frame),
  PL_CASE ("close", pl_cl_close, pl_cl_close_expect),
  PL_CASE ("gap equal to the distance", pl_cl_boundary, pl_cl_boundary_expect),
  PL_CASE_NO_INSTANCE ("a call in between", pl_cl_between),
  PL_CASE_NO_INSTANCE ("message to self", pl_cl_self),
};

/* ====================================================================== */
/* planted-eps (1 MHz, ranks 0 and 1)                                     */
/* ====================================================================== */

/* Runs: default (eps 0) and --param eps=0.00003 (30 ticks): waiting at or
 * below eps is not an instance. */
enum { PL_EPS_DEFAULT, PL_EPS_30 };
PL_TABLE PlRun pl_eps_runs[] = {
  { "default", { NULL } },
  { "eps=30us", { "eps=0.00003", NULL } },
};

/* total time = 400 + 400 = 800 */
#define PL_EPS_TOTAL_TICKS 800

PL_TABLE PlEvent pl_eps_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 400),
  PL_CALL (1, PL_MAIN, 0, 400),
};

/* Three late senders of eps - 1, eps and eps + 1 ticks:
 *   129 - 100 = 29, 230 - 200 = 30, 331 - 300 = 31. */
PL_TABLE PlEvent pl_eps_waits[] = {
  PL_RECV_CALL (1, 100, 135, 140, 0, 1, 8),
  PL_SEND_CALL (0, PL_MPI_SEND, 129, 130, 132, 1, 1, 8),
  PL_RECV_CALL (1, 200, 235, 240, 0, 2, 8),
  PL_SEND_CALL (0, PL_MPI_SEND, 230, 231, 233, 1, 2, 8),
  PL_RECV_CALL (1, 300, 335, 340, 0, 3, 8),
  PL_SEND_CALL (0, PL_MPI_SEND, 331, 332, 334, 1, 3, 8),
};
PL_TABLE PlInstance pl_eps_waits_expect[] = {
  { "late_sender", 1, 29, 0, "main/MPI_Recv", PL_FILE, 10, .runs = PL_IN_RUN (PL_EPS_DEFAULT) },
  { "late_sender", 1, 30, 0, "main/MPI_Recv", PL_FILE, 10, .runs = PL_IN_RUN (PL_EPS_DEFAULT) },
  { "late_sender", 1, 31, 0, "main/MPI_Recv", PL_FILE, 10 },
};

PL_TABLE PlCase pl_eps_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_eps_frame),
  PL_CASE ("waits around eps", pl_eps_waits, pl_eps_waits_expect),
};

/* ====================================================================== */
/* planted-collectives (1 GHz, ranks 0..3)                                */
/* ====================================================================== */

/* Every collective but C6 is on MPI_COMM_WORLD, in the same order on every
 * rank.  Ticks are nanoseconds.  total time = 4 x 2000 = 8000 */
#define PL_CO_TOTAL_TICKS 8000

PL_TABLE PlEvent pl_co_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 2000),
  PL_CALL (1, PL_MAIN, 0, 2000),
  PL_CALL (2, PL_MAIN, 0, 2000),
  PL_CALL (3, PL_MAIN, 0, 2000),
};

/* C1 MPI_Barrier: enter 100, 130, 160, 190 (rank 3 last); leave 210, 205,
 * 200 (rank 2 first), 220.
 *   wait_at_barrier = min(190, leave) - enter: 90, 60, 30, 0; peer 3.
 *   barrier_completion = leave - max(200, min(190, leave)): 10, 5, 0, 20.
 *   wait_inside_collective = max(0, first enter of the others - enter)
 *   + max(0, leave - last leave of the others): rank 0 (130 - 100) + 0 = 30,
 *   rank 3 0 + (220 - 210) = 10, ranks 1 and 2 0. */
PL_TABLE PlEvent pl_co_barrier[] = {
  PL_COLL_CALL (0, PL_MPI_BARRIER, 100, 210, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0),
  PL_COLL_CALL (1, PL_MPI_BARRIER, 130, 205, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0),
  PL_COLL_CALL (2, PL_MPI_BARRIER, 160, 200, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0),
  PL_COLL_CALL (3, PL_MPI_BARRIER, 190, 220, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0),
};
PL_TABLE PlInstance pl_co_barrier_expect[] = {
  { "wait_at_barrier", 0, 90, 3, "main/MPI_Barrier", PL_FILE, 10 },
  { "wait_at_barrier", 1, 60, 3, "main/MPI_Barrier", PL_FILE, 10 },
  { "wait_at_barrier", 2, 30, 3, "main/MPI_Barrier", PL_FILE, 10 },
  { "barrier_completion", 0, 10, PL_NO_PEER, "main/MPI_Barrier", PL_FILE, 10 },
  { "barrier_completion", 1, 5, PL_NO_PEER, "main/MPI_Barrier", PL_FILE, 10 },
  { "barrier_completion", 3, 20, PL_NO_PEER, "main/MPI_Barrier", PL_FILE, 10 },
  { "wait_inside_collective", 0, 30, PL_NO_PEER, "main/MPI_Barrier", PL_FILE, 10 },
  { "wait_inside_collective", 3, 10, PL_NO_PEER, "main/MPI_Barrier", PL_FILE, 10 },
};

/* C2 MPI_Allreduce inside solve() [380, 560]: enter 400, 420, 480 (rank 2
 * last), 430; leave 520, 510, 530, 505 (rank 3 first).
 *   wait_at_nxn = min(480, leave) - enter: 80, 60, 0, 50; peer 2.
 *   nxn_completion = leave - max(505, min(480, leave)): 15, 5, 25, 0.
 *   wait_inside_collective: rank 0 (420 - 400) = 20, rank 2 (530 - 520) = 10. */
PL_TABLE PlEvent pl_co_allreduce[] = {
  PL_ENTER (0, 380, PL_SOLVE),
  PL_COLL_CALL (0, PL_MPI_ALLREDUCE, 400, 520, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_LEAVE (0, 560, PL_SOLVE),
  PL_ENTER (1, 380, PL_SOLVE),
  PL_COLL_CALL (1, PL_MPI_ALLREDUCE, 420, 510, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_LEAVE (1, 560, PL_SOLVE),
  PL_ENTER (2, 380, PL_SOLVE),
  PL_COLL_CALL (2, PL_MPI_ALLREDUCE, 480, 530, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_LEAVE (2, 560, PL_SOLVE),
  PL_ENTER (3, 380, PL_SOLVE),
  PL_COLL_CALL (3, PL_MPI_ALLREDUCE, 430, 505, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_LEAVE (3, 560, PL_SOLVE),
};
PL_TABLE PlInstance pl_co_allreduce_expect[] = {
  { "wait_at_nxn", 0, 80, 2, "main/solve/MPI_Allreduce", PL_FILE, 120 },
  { "wait_at_nxn", 1, 60, 2, "main/solve/MPI_Allreduce", PL_FILE, 120 },
  { "wait_at_nxn", 3, 50, 2, "main/solve/MPI_Allreduce", PL_FILE, 120 },
  { "nxn_completion", 0, 15, PL_NO_PEER, "main/solve/MPI_Allreduce", PL_FILE, 120 },
  { "nxn_completion", 1, 5, PL_NO_PEER, "main/solve/MPI_Allreduce", PL_FILE, 120 },
  { "nxn_completion", 2, 25, PL_NO_PEER, "main/solve/MPI_Allreduce", PL_FILE, 120 },
  { "wait_inside_collective", 0, 20, PL_NO_PEER, "main/solve/MPI_Allreduce", PL_FILE, 120 },
  { "wait_inside_collective", 2, 10, PL_NO_PEER, "main/solve/MPI_Allreduce", PL_FILE, 120 },
};

/* C3 MPI_Bcast from root 2, which arrives last: enter 700, 710, 760, 720;
 * leave 800, 790, 770, 805.
 *   late_broadcast (non-roots) = min(760, leave) - enter: 60, 50, -, 40; peer 2.
 *   wait_inside_collective: rank 0 (710 - 700) = 10, rank 3 (805 - 800) = 5. */
PL_TABLE PlEvent pl_co_bcast[] = {
  PL_COLL_CALL (0, PL_MPI_BCAST, 700, 800, OTF2_COLLECTIVE_OP_BCAST, PL_COMM_WORLD, 2, 0, 64),
  PL_COLL_CALL (1, PL_MPI_BCAST, 710, 790, OTF2_COLLECTIVE_OP_BCAST, PL_COMM_WORLD, 2, 0, 64),
  PL_COLL_CALL (2, PL_MPI_BCAST, 760, 770, OTF2_COLLECTIVE_OP_BCAST, PL_COMM_WORLD, 2, 192, 0),
  PL_COLL_CALL (3, PL_MPI_BCAST, 720, 805, OTF2_COLLECTIVE_OP_BCAST, PL_COMM_WORLD, 2, 0, 64),
};
PL_TABLE PlInstance pl_co_bcast_expect[] = {
  { "late_broadcast", 0, 60, 2, "main/MPI_Bcast", PL_FILE, 10 },
  { "late_broadcast", 1, 50, 2, "main/MPI_Bcast", PL_FILE, 10 },
  { "late_broadcast", 3, 40, 2, "main/MPI_Bcast", PL_FILE, 10 },
  { "wait_inside_collective", 0, 10, PL_NO_PEER, "main/MPI_Bcast", PL_FILE, 10 },
  { "wait_inside_collective", 3, 5, PL_NO_PEER, "main/MPI_Bcast", PL_FILE, 10 },
};

/* C4 MPI_Reduce to root 0, which arrives first: enter 1000, 1030, 1050
 * (rank 2 last), 1040; leave 1100, 1060, 1070, 1065.
 *   early_reduce (root) = min(1050, 1100) - 1000 = 50, peer 2.
 *   wait_inside_collective: rank 0 (1030 - 1000) + (1100 - 1070) = 60. */
PL_TABLE PlEvent pl_co_reduce[] = {
  PL_COLL_CALL (0, PL_MPI_REDUCE, 1000, 1100, OTF2_COLLECTIVE_OP_REDUCE, PL_COMM_WORLD, 0, 8, 24),
  PL_COLL_CALL (1, PL_MPI_REDUCE, 1030, 1060, OTF2_COLLECTIVE_OP_REDUCE, PL_COMM_WORLD, 0, 8, 0),
  PL_COLL_CALL (2, PL_MPI_REDUCE, 1050, 1070, OTF2_COLLECTIVE_OP_REDUCE, PL_COMM_WORLD, 0, 8, 0),
  PL_COLL_CALL (3, PL_MPI_REDUCE, 1040, 1065, OTF2_COLLECTIVE_OP_REDUCE, PL_COMM_WORLD, 0, 8, 0),
};
PL_TABLE PlInstance pl_co_reduce_expect[] = {
  { "early_reduce", 0, 50, 2, "main/MPI_Reduce", PL_FILE, 10 },
  { "wait_inside_collective", 0, 60, PL_NO_PEER, "main/MPI_Reduce", PL_FILE, 10 },
};

/* C5 MPI_Scan: enter 1300, 1350, 1320, 1310; leave 1400, 1410, 1420, 1430.
 *   early_scan = min(last enter of the lower ranks, leave) - enter:
 *   rank 1 1300 - 1350 < 0; rank 2 1350 - 1320 = 30 and rank 3 1350 - 1310
 *   = 40, both waiting for rank 1.
 *   wait_inside_collective: rank 0 (1310 - 1300) = 10, rank 3 (1430 - 1420) = 10. */
PL_TABLE PlEvent pl_co_scan[] = {
  PL_COLL_CALL (0, PL_MPI_SCAN, 1300, 1400, OTF2_COLLECTIVE_OP_SCAN, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_COLL_CALL (1, PL_MPI_SCAN, 1350, 1410, OTF2_COLLECTIVE_OP_SCAN, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_COLL_CALL (2, PL_MPI_SCAN, 1320, 1420, OTF2_COLLECTIVE_OP_SCAN, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_COLL_CALL (3, PL_MPI_SCAN, 1310, 1430, OTF2_COLLECTIVE_OP_SCAN, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
};
PL_TABLE PlInstance pl_co_scan_expect[] = {
  { "early_scan", 2, 30, 1, "main/MPI_Scan", PL_FILE, 10 },
  { "early_scan", 3, 40, 1, "main/MPI_Scan", PL_FILE, 10 },
  { "wait_inside_collective", 0, 10, PL_NO_PEER, "main/MPI_Scan", PL_FILE, 10 },
  { "wait_inside_collective", 3, 10, PL_NO_PEER, "main/MPI_Scan", PL_FILE, 10 },
};

/* C6 One-member communicators: ranks 0 and 1 each call MPI_Allreduce on
 * MPI_COMM_SELF ([1500, 1550] and [1510, 1600]: two instances, not one);
 * rank 3 calls MPI_Barrier on PL_COMM_LAST, whose only member it is.  Never
 * a wait state. */
PL_TABLE PlEvent pl_co_self[] = {
  PL_COLL_CALL (0, PL_MPI_ALLREDUCE, 1500, 1550, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_SELF, PL_NO_ROOT, 8, 8),
  PL_COLL_CALL (1, PL_MPI_ALLREDUCE, 1510, 1600, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_SELF, PL_NO_ROOT, 8, 8),
  PL_COLL_CALL (3, PL_MPI_BARRIER, 1500, 1580, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_LAST, PL_NO_ROOT, 0, 0),
};

/* C7 Non-blocking collectives, never a wait state although rank 3 posts
 * late: MPI_Ibarrier with OTF2's NON_BLOCKING_COLLECTIVE_* records (request
 * 1), then MPI_Iallreduce recorded Score-P style (MPI_COLLECTIVE_BEGIN in
 * the MPI_Iallreduce, MPI_COLLECTIVE_END in the MPI_Wait). */
PL_TABLE PlEvent pl_co_nonblocking[] = {
  PL_NBC_POST (0, PL_MPI_IBARRIER, 1700, 1702, 1),
  PL_NBC_WAIT (0, 1750, 1790, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0, 1),
  PL_NBC_POST (1, PL_MPI_IBARRIER, 1710, 1712, 1),
  PL_NBC_WAIT (1, 1720, 1785, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0, 1),
  PL_NBC_POST (2, PL_MPI_IBARRIER, 1720, 1722, 1),
  PL_NBC_WAIT (2, 1725, 1775, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0, 1),
  PL_NBC_POST (3, PL_MPI_IBARRIER, 1760, 1762, 1),
  PL_NBC_WAIT (3, 1765, 1768, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0, 1),
  PL_SCOREP_NBC_POST (0, PL_MPI_IALLREDUCE, 1800, 1802),
  PL_SCOREP_NBC_WAIT (0, 1850, 1890, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_SCOREP_NBC_POST (1, PL_MPI_IALLREDUCE, 1810, 1812),
  PL_SCOREP_NBC_WAIT (1, 1820, 1885, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_SCOREP_NBC_POST (2, PL_MPI_IALLREDUCE, 1820, 1822),
  PL_SCOREP_NBC_WAIT (2, 1825, 1875, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_SCOREP_NBC_POST (3, PL_MPI_IALLREDUCE, 1860, 1862),
  PL_SCOREP_NBC_WAIT (3, 1865, 1868, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
};

PL_TABLE PlCase pl_co_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_co_frame),
  PL_CASE ("barrier", pl_co_barrier, pl_co_barrier_expect),
  PL_CASE ("allreduce", pl_co_allreduce, pl_co_allreduce_expect),
  PL_CASE ("bcast", pl_co_bcast, pl_co_bcast_expect),
  PL_CASE ("reduce", pl_co_reduce, pl_co_reduce_expect),
  PL_CASE ("scan", pl_co_scan, pl_co_scan_expect),
  PL_CASE_NO_INSTANCE ("one-member communicators", pl_co_self),
  PL_CASE_NO_INSTANCE ("non-blocking collectives", pl_co_nonblocking),
};

/* ====================================================================== */
/* planted-init-finalize (1 MHz, ranks 0..2)                              */
/* ====================================================================== */

/* total time = 1020 + (1000 - 5) + 1030 = 3045 */
#define PL_IF_TOTAL_TICKS 3045

PL_TABLE PlEvent pl_if_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 1020),
  PL_CALL (1, PL_MAIN, 5, 1000),
  PL_CALL (2, PL_MAIN, 0, 1030),
};

/* MPI_Init [10, 100] and [20, 90], MPI_Init_thread [50, 120] (the latest
 * enter is 50, the earliest leave 90):
 *   init_completion = leave - max(90, min(50, leave)): 10, 0, 30. */
PL_TABLE PlEvent pl_if_init[] = {
  PL_CALL (0, PL_MPI_INIT, 10, 100),
  PL_CALL (1, PL_MPI_INIT, 20, 90),
  PL_CALL (2, PL_MPI_INIT_THREAD, 50, 120),
};
PL_TABLE PlInstance pl_if_init_expect[] = {
  { "init_completion", 0, 10, PL_NO_PEER, "main/MPI_Init", PL_FILE, 10 },
  { "init_completion", 2, 30, PL_NO_PEER, "main/MPI_Init_thread", PL_FILE, 10 },
};

/* MPI_Finalize [900, 1000], [950, 990], [970, 1010] (rank 2 last):
 *   wait_at_finalize = min(970, leave) - enter: 70, 20, 0; peer 2. */
PL_TABLE PlEvent pl_if_finalize[] = {
  PL_CALL (0, PL_MPI_FINALIZE, 900, 1000),
  PL_CALL (1, PL_MPI_FINALIZE, 950, 990),
  PL_CALL (2, PL_MPI_FINALIZE, 970, 1010),
};
PL_TABLE PlInstance pl_if_finalize_expect[] = {
  { "wait_at_finalize", 0, 70, 2, "main/MPI_Finalize", PL_FILE, 10 },
  { "wait_at_finalize", 1, 20, 2, "main/MPI_Finalize", PL_FILE, 10 },
};

PL_TABLE PlCase pl_if_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_if_frame),
  PL_CASE ("MPI_Init", pl_if_init, pl_if_init_expect),
  PL_CASE ("MPI_Finalize", pl_if_finalize, pl_if_finalize_expect),
};

/* ====================================================================== */
/* planted-rma (1 MHz, ranks 0..2)                                        */
/* ====================================================================== */

/* Everything inside rma_epoch() [50, 680], planted.c:130.
 * total time = 3 x 700 = 2100 */
#define PL_RMA_TOTAL_TICKS 2100

PL_TABLE PlEvent pl_rma_frame[] = {
  PL_ENTER (0, 0, PL_MAIN), PL_ENTER (0, 50, PL_RMA_EPOCH),
  PL_LEAVE (0, 680, PL_RMA_EPOCH), PL_LEAVE (0, 700, PL_MAIN),
  PL_ENTER (1, 0, PL_MAIN), PL_ENTER (1, 50, PL_RMA_EPOCH),
  PL_LEAVE (1, 680, PL_RMA_EPOCH), PL_LEAVE (1, 700, PL_MAIN),
  PL_ENTER (2, 0, PL_MAIN), PL_ENTER (2, 50, PL_RMA_EPOCH),
  PL_LEAVE (2, 680, PL_RMA_EPOCH), PL_LEAVE (2, 700, PL_MAIN),
};

/* MPI_Win_create [100, 150], [110, 150], [140, 150] (rank 2 last):
 *   wait_at_win_create = min(140, leave) - enter: 40, 30, 0; peer 2. */
PL_TABLE PlEvent pl_rma_create[] = {
  PL_WIN_CREATE_CALL (0, 100, 150),
  PL_WIN_CREATE_CALL (1, 110, 150),
  PL_WIN_CREATE_CALL (2, 140, 150),
};
PL_TABLE PlInstance pl_rma_create_expect[] = {
  { "wait_at_win_create", 0, 40, 2, "main/rma_epoch/MPI_Win_create", PL_FILE, 130 },
  { "wait_at_win_create", 1, 30, 2, "main/rma_epoch/MPI_Win_create", PL_FILE, 130 },
};

/* Two fences: [200, 260], [230, 260] (rank 1 last), [210, 260]
 *   wait_at_fence = min(230, leave) - enter: 30, 0, 20; peer 1;
 * then [300, 330], [305, 330], [320, 330] (rank 2 last)
 *   wait_at_fence: 20, 15, 0; peer 2. */
PL_TABLE PlEvent pl_rma_fence[] = {
  PL_WIN_FENCE_CALL (0, 200, 260),
  PL_WIN_FENCE_CALL (1, 230, 260),
  PL_WIN_FENCE_CALL (2, 210, 260),
  PL_WIN_FENCE_CALL (0, 300, 330),
  PL_WIN_FENCE_CALL (1, 305, 330),
  PL_WIN_FENCE_CALL (2, 320, 330),
};
PL_TABLE PlInstance pl_rma_fence_expect[] = {
  { "wait_at_fence", 0, 30, 1, "main/rma_epoch/MPI_Win_fence", PL_FILE, 130 },
  { "wait_at_fence", 2, 20, 1, "main/rma_epoch/MPI_Win_fence", PL_FILE, 130 },
  { "wait_at_fence", 0, 20, 2, "main/rma_epoch/MPI_Win_fence", PL_FILE, 130 },
  { "wait_at_fence", 1, 15, 2, "main/rma_epoch/MPI_Win_fence", PL_FILE, 130 },
};

/* Passive target on rank 2's window, lock ids 1..4:
 *   L1 rank 0 EXCLUSIVE: request 401, acquire 402, release 455.
 *   L2 rank 1 SHARED:    request 411, acquire 456, release 471.
 *   L3 rank 2 SHARED:    request 466, acquire 468, release 481.
 *   L4 rank 0 EXCLUSIVE: request 468, acquire 482, release 491.
 * lock_contention = acquire - request while a conflicting hold of another
 * location overlaps [request, acquire]:
 *   L1 nobody held it: none.
 *   L2 waits for L1 (exclusive): 456 - 411 = 45, peer 0.
 *   L3 overlaps only L2, shared and shared do not conflict: none.
 *   L4 (exclusive) overlaps L2 (until 471) and L3 (until 481): 482 - 468 =
 *      14, peer 2 (the holder released last). */
PL_TABLE PlEvent pl_rma_locks[] = {
  PL_WIN_LOCK_CALL (0, 400, 401, 402, 403, 2, 1, OTF2_LOCK_EXCLUSIVE),
  PL_WIN_UNLOCK_CALL (0, 450, 455, 460, 2, 1),
  PL_WIN_LOCK_CALL (0, 467, 468, 482, 483, 2, 4, OTF2_LOCK_EXCLUSIVE),
  PL_WIN_UNLOCK_CALL (0, 490, 491, 492, 2, 4),
  PL_WIN_LOCK_CALL (1, 410, 411, 456, 457, 2, 2, OTF2_LOCK_SHARED),
  PL_WIN_UNLOCK_CALL (1, 470, 471, 472, 2, 2),
  PL_WIN_LOCK_CALL (2, 465, 466, 468, 469, 2, 3, OTF2_LOCK_SHARED),
  PL_WIN_UNLOCK_CALL (2, 480, 481, 482, 2, 3),
};
PL_TABLE PlInstance pl_rma_locks_expect[] = {
  { "lock_contention", 1, 45, 0, "main/rma_epoch/MPI_Win_lock", PL_FILE, 130 },
  { "lock_contention", 0, 14, 2, "main/rma_epoch/MPI_Win_lock", PL_FILE, 130 },
};

/* MPI_Win_free [600, 650], [640, 650] (rank 1 last), [620, 650]:
 *   wait_at_win_free = min(640, leave) - enter: 40, 0, 20; peer 1. */
PL_TABLE PlEvent pl_rma_free[] = {
  PL_WIN_FREE_CALL (0, 600, 650),
  PL_WIN_FREE_CALL (1, 640, 650),
  PL_WIN_FREE_CALL (2, 620, 650),
};
PL_TABLE PlInstance pl_rma_free_expect[] = {
  { "wait_at_win_free", 0, 40, 1, "main/rma_epoch/MPI_Win_free", PL_FILE, 130 },
  { "wait_at_win_free", 2, 20, 1, "main/rma_epoch/MPI_Win_free", PL_FILE, 130 },
};

PL_TABLE PlCase pl_rma_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_rma_frame),
  PL_CASE ("window creation", pl_rma_create, pl_rma_create_expect),
  PL_CASE ("fences", pl_rma_fence, pl_rma_fence_expect),
  PL_CASE ("exclusive and shared locks", pl_rma_locks, pl_rma_locks_expect),
  PL_CASE ("window release", pl_rma_free, pl_rma_free_expect),
};

/* ====================================================================== */
/* planted-threads (1 MHz, process 0 with threads 0 and PL_THREAD1)       */
/* ====================================================================== */

PL_TABLE PlLocation pl_th_locations[] = {
  { 0,          0, "Process 0", "Master thread" },
  { PL_THREAD1, 0, "Process 0", "Pthread 1" },
};

/* Thread 1 runs worker() (planted.c:150).
 * total time = 300 + (280 - 50) = 530 */
#define PL_TH_TOTAL_TICKS 530

PL_TABLE PlEvent pl_th_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 300),
  PL_CALL (PL_THREAD1, PL_WORKER, 50, 280),
};

/* A pthread mutex (THREAD_* records, lock 7): thread 0 holds it [101, 151];
 * thread 1 enters pthread_mutex_lock at 120 and acquires at 152.
 *   lock_contention(thread 1) = 152 - 120 = 32, peer thread 0. */
PL_TABLE PlEvent pl_th_pthread[] = {
  PL_LOCK_RECORD_CALL (0, PL_PTHREAD_MUTEX_LOCK, 100, 101, 102, PL_EV_THREAD_ACQUIRE_LOCK, 7, 1),
  PL_LOCK_RECORD_CALL (0, PL_PTHREAD_MUTEX_UNLOCK, 150, 151, 152, PL_EV_THREAD_RELEASE_LOCK, 7, 1),
  PL_LOCK_RECORD_CALL (PL_THREAD1, PL_PTHREAD_MUTEX_LOCK, 120, 152, 153, PL_EV_THREAD_ACQUIRE_LOCK, 7, 2),
  PL_LOCK_RECORD_CALL (PL_THREAD1, PL_PTHREAD_MUTEX_UNLOCK, 160, 161, 162, PL_EV_THREAD_RELEASE_LOCK, 7, 2),
};
PL_TABLE PlInstance pl_th_pthread_expect[] = {
  { "lock_contention", PL_THREAD1, 32, 0, "worker/pthread_mutex_lock", PL_FILE, 150 },
};

/* An OpenMP lock (deprecated OMP_* records, lock 3): thread 0 holds it
 * [201, 251]; thread 1 enters omp_set_lock at 210 and acquires at 255.
 *   lock_contention(thread 1) = 255 - 210 = 45, peer thread 0. */
PL_TABLE PlEvent pl_th_omp[] = {
  PL_LOCK_RECORD_CALL (0, PL_OMP_SET_LOCK, 200, 201, 202, PL_EV_OMP_ACQUIRE_LOCK, 3, 1),
  PL_LOCK_RECORD_CALL (0, PL_OMP_UNSET_LOCK, 250, 251, 252, PL_EV_OMP_RELEASE_LOCK, 3, 1),
  PL_LOCK_RECORD_CALL (PL_THREAD1, PL_OMP_SET_LOCK, 210, 255, 256, PL_EV_OMP_ACQUIRE_LOCK, 3, 2),
  PL_LOCK_RECORD_CALL (PL_THREAD1, PL_OMP_UNSET_LOCK, 260, 261, 262, PL_EV_OMP_RELEASE_LOCK, 3, 2),
};
PL_TABLE PlInstance pl_th_omp_expect[] = {
  { "lock_contention", PL_THREAD1, 45, 0, "worker/omp_set_lock", PL_FILE, 150 },
};

PL_TABLE PlCase pl_th_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_th_frame),
  PL_CASE ("pthread mutex", pl_th_pthread, pl_th_pthread_expect),
  PL_CASE ("OpenMP lock", pl_th_omp, pl_th_omp_expect),
};

/* ====================================================================== */
/* planted-hotspots (1 MHz, ranks 0..2)                                   */
/* ====================================================================== */

/* Runs: default (frequent_communication.min_calls = 1000) and
 * --param min_calls=3.  All patterns are checked, unbalanced_communication
 * too.  total time = 3 x 1100 = 3300 */
enum { PL_HS_DEFAULT, PL_HS_MIN_CALLS_3 };
PL_TABLE PlRun pl_hs_runs[] = {
  { "default", { NULL } },
  { "min_calls=3", { "min_calls=3", NULL } },
};
#define PL_HS_TOTAL_TICKS 3300

PL_TABLE PlEvent pl_hs_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 1100),
  PL_CALL (1, PL_MAIN, 0, 1100),
  PL_CALL (2, PL_MAIN, 0, 1100),
};

/* Inside exchange() (planted.c:40), rank 0 sends six 100-byte messages to
 * rank 1 at t = 100, 120, ..., 200: MPI_Send [t, t + 3], MPI_Recv [t, t + 4].
 * Each receive starts with its send: no wait.
 *   frequent_communication with min_calls 3: rank 0 6 x 3 = 18 (MPI_Send),
 *   rank 1 6 x 4 = 24 (MPI_Recv); with 1000 none. */
#define PL_HS_MESSAGE(t) \
  PL_SEND_CALL (0, PL_MPI_SEND, t, (t) + 1, (t) + 3, 1, 10, 100), \
  PL_RECV_CALL (1, t, (t) + 2, (t) + 4, 0, 10, 100)
PL_TABLE PlEvent pl_hs_frequent[] = {
  PL_ENTER (0, 90, PL_EXCHANGE),
  PL_ENTER (1, 90, PL_EXCHANGE),
  PL_HS_MESSAGE (100),
  PL_HS_MESSAGE (120),
  PL_HS_MESSAGE (140),
  PL_HS_MESSAGE (160),
  PL_HS_MESSAGE (180),
  PL_HS_MESSAGE (200),
  PL_LEAVE (0, 230, PL_EXCHANGE),
  PL_LEAVE (1, 230, PL_EXCHANGE),
};
PL_TABLE PlInstance pl_hs_frequent_expect[] = {
  { "frequent_communication", 0, 18, PL_NO_PEER, "main/exchange/MPI_Send", PL_FILE, 40,
    .runs = PL_IN_RUN (PL_HS_MIN_CALLS_3) },
  { "frequent_communication", 1, 24, PL_NO_PEER, "main/exchange/MPI_Recv", PL_FILE, 40,
    .runs = PL_IN_RUN (PL_HS_MIN_CALLS_3) },
};

/* Two 100-byte messages 2 -> 1 in collect() and two 1 -> 2 in solve():
 * fewer than 3 calls per site, no waits. */
PL_TABLE PlEvent pl_hs_few[] = {
  PL_ENTER (1, 290, PL_COLLECT),
  PL_RECV_CALL (1, 300, 302, 304, 2, 20, 100),
  PL_RECV_CALL (1, 320, 322, 324, 2, 20, 100),
  PL_LEAVE (1, 340, PL_COLLECT),
  PL_ENTER (2, 290, PL_COLLECT),
  PL_SEND_CALL (2, PL_MPI_SEND, 300, 301, 303, 1, 20, 100),
  PL_SEND_CALL (2, PL_MPI_SEND, 320, 321, 323, 1, 20, 100),
  PL_LEAVE (2, 340, PL_COLLECT),
  PL_ENTER (1, 490, PL_SOLVE),
  PL_SEND_CALL (1, PL_MPI_SEND, 500, 501, 503, 2, 30, 100),
  PL_SEND_CALL (1, PL_MPI_SEND, 520, 521, 523, 2, 30, 100),
  PL_LEAVE (1, 540, PL_SOLVE),
  PL_ENTER (2, 490, PL_SOLVE),
  PL_RECV_CALL (2, 500, 502, 504, 1, 30, 100),
  PL_RECV_CALL (2, 520, 522, 524, 1, 30, 100),
  PL_LEAVE (2, 540, PL_SOLVE),
};

/* Rank 2 sends four 100-byte messages to rank 0 from exchange(), two when
 * exchange() is called from collect() and two when it is called from
 * solve(): two call paths with two calls each, so no frequent communication
 * even with min_calls 3.  Rank 0 receives them in main() at 610, 620, 650,
 * 660 (MPI_Recv [t, t + 4], each with its send: no wait); with the large
 * message below that is 5 calls at main/MPI_Recv:
 *   frequent_communication(0) with min_calls 3 = 4 x 4 + (901 - 800) = 117. */
#define PL_HS_NESTED(t) \
  PL_SEND_CALL (2, PL_MPI_SEND, t, (t) + 1, (t) + 3, 0, 50, 100), \
  PL_RECV_CALL (0, t, (t) + 2, (t) + 4, 2, 50, 100)
PL_TABLE PlEvent pl_hs_paths[] = {
  PL_ENTER (2, 600, PL_COLLECT),
  PL_ENTER (2, 605, PL_EXCHANGE),
  PL_HS_NESTED (610),
  PL_HS_NESTED (620),
  PL_LEAVE (2, 630, PL_EXCHANGE),
  PL_LEAVE (2, 635, PL_COLLECT),
  PL_ENTER (2, 640, PL_SOLVE),
  PL_ENTER (2, 645, PL_EXCHANGE),
  PL_HS_NESTED (650),
  PL_HS_NESTED (660),
  PL_LEAVE (2, 670, PL_EXCHANGE),
  PL_LEAVE (2, 675, PL_SOLVE),
};
PL_TABLE PlInstance pl_hs_paths_expect[] = {
  { "frequent_communication", 0, 117, PL_NO_PEER, "main/MPI_Recv", PL_FILE, 10,
    .runs = PL_IN_RUN (PL_HS_MIN_CALLS_3) },
};

/* One 500000-byte message 2 -> 0, MPI_Send [800, 900]; the receive [800, 901]
 * is posted with the send (no wait).  The average message is (14 x 100 +
 * 500000) / 15 = 33426.67 bytes, 10 times that is 334266.7 < 500000:
 *   large_messages(2) = 900 - 800 = 100, peer 0. */
PL_TABLE PlEvent pl_hs_large[] = {
  PL_SEND_CALL (2, PL_MPI_SEND, 800, 801, 900, 0, 40, 500000),
  PL_RECV_CALL (0, 800, 899, 901, 2, 40, 500000),
};
PL_TABLE PlInstance pl_hs_large_expect[] = {
  { "large_messages", 2, 100, 0, "main/MPI_Send", PL_FILE, 10 },
};

/* MPI_Barrier entered by all at 1000, left at 1010, 1010 and 1040: the only
 * MPI call path run by several locations.
 *   unbalanced_communication: times 10, 10, 40, average 20; rank 2 exceeds it
 *   by 20 > 0.5 x 20: 20.
 *   barrier_completion(2) = 1040 - max(1010, min(1000, 1040)) = 30.
 *   wait_inside_collective(2) = 0 + (1040 - 1010) = 30.
 *   wait_at_barrier: everybody entered at 1000, none. */
PL_TABLE PlEvent pl_hs_barrier[] = {
  PL_COLL_CALL (0, PL_MPI_BARRIER, 1000, 1010, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0),
  PL_COLL_CALL (1, PL_MPI_BARRIER, 1000, 1010, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0),
  PL_COLL_CALL (2, PL_MPI_BARRIER, 1000, 1040, OTF2_COLLECTIVE_OP_BARRIER, PL_COMM_WORLD, PL_NO_ROOT, 0, 0),
};
PL_TABLE PlInstance pl_hs_barrier_expect[] = {
  { "unbalanced_communication", 2, 20, PL_NO_PEER, "main/MPI_Barrier", PL_FILE, 10 },
  { "barrier_completion", 2, 30, PL_NO_PEER, "main/MPI_Barrier", PL_FILE, 10 },
  { "wait_inside_collective", 2, 30, PL_NO_PEER, "main/MPI_Barrier", PL_FILE, 10 },
};

PL_TABLE PlCase pl_hs_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_hs_frame),
  PL_CASE ("frequent", pl_hs_frequent, pl_hs_frequent_expect),
  PL_CASE_NO_INSTANCE ("infrequent", pl_hs_few),
  PL_CASE ("one parent region, two call paths", pl_hs_paths, pl_hs_paths_expect),
  PL_CASE ("large", pl_hs_large, pl_hs_large_expect),
  PL_CASE ("unbalanced", pl_hs_barrier, pl_hs_barrier_expect),
};

/* ====================================================================== */
/* planted-master-worker (1 MHz, master 0, workers 1..3)                  */
/* ====================================================================== */

/* Runs: default (min_workers 3) and --param min_workers=4 (no master).
 * total time = 4 x 400 = 1600 */
enum { PL_MW_DEFAULT, PL_MW_MIN_WORKERS_4 };
PL_TABLE PlRun pl_mw_runs[] = {
  { "default", { NULL } },
  { "min_workers=4", { "min_workers=4", NULL } },
};
#define PL_MW_TOTAL_TICKS 1600

PL_TABLE PlEvent pl_mw_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 400),
  PL_CALL (1, PL_MAIN, 0, 400),
  PL_CALL (2, PL_MAIN, 0, 400),
  PL_CALL (3, PL_MAIN, 0, 400),
};

/* The workers wait from 100 for work the master sends at 120, 140, 160:
 *   late_sender = overloaded_master = 20, 40, 60 on ranks 1, 2, 3, peer 0. */
PL_TABLE PlEvent pl_mw_work[] = {
  PL_SEND_CALL (0, PL_MPI_SEND, 120, 121, 123, 1, 1, 8),
  PL_SEND_CALL (0, PL_MPI_SEND, 140, 141, 143, 2, 1, 8),
  PL_SEND_CALL (0, PL_MPI_SEND, 160, 161, 163, 3, 1, 8),
  PL_RECV_CALL (1, 100, 125, 127, 0, 1, 8),
  PL_RECV_CALL (2, 100, 145, 147, 0, 1, 8),
  PL_RECV_CALL (3, 100, 165, 167, 0, 1, 8),
};
PL_TABLE PlInstance pl_mw_work_expect[] = {
  { "late_sender", 1, 20, 0, "main/MPI_Recv", PL_FILE, 10 },
  { "late_sender", 2, 40, 0, "main/MPI_Recv", PL_FILE, 10 },
  { "late_sender", 3, 60, 0, "main/MPI_Recv", PL_FILE, 10 },
  { "overloaded_master", 1, 20, 0, "main/MPI_Recv", PL_FILE, 10, .runs = PL_IN_RUN (PL_MW_DEFAULT) },
  { "overloaded_master", 2, 40, 0, "main/MPI_Recv", PL_FILE, 10, .runs = PL_IN_RUN (PL_MW_DEFAULT) },
  { "overloaded_master", 3, 60, 0, "main/MPI_Recv", PL_FILE, 10, .runs = PL_IN_RUN (PL_MW_DEFAULT) },
};

/* Rank 3 also gets a second piece of work through MPI_Irecv [200, 202] and
 * MPI_Test [210, 218], which completes it; the master's send starts at 213.
 * A test does not wait: no Late Sender time, hence no overloaded_master, and
 * no early_wait. */
PL_TABLE PlEvent pl_mw_test[] = {
  PL_IRECV_CALL (3, 200, 201, 202, 1),
  PL_WAIT_RECV (3, PL_MPI_TEST, 210, 215, 218, 0, 3, 8, 1),
  PL_SEND_CALL (0, PL_MPI_SEND, 213, 214, 216, 3, 3, 8),
};

/* The master collects the results in send order: receive from 1 entered at
 * 300 (send 320), from 2 at 330 (send 355), from 3 at 365 (send 370):
 *   late_sender = slow_workers on rank 0: 20 (peer 1), 25 (peer 2), 5 (peer 3). */
PL_TABLE PlEvent pl_mw_results[] = {
  PL_RECV_CALL (0, 300, 325, 327, 1, 2, 8),
  PL_RECV_CALL (0, 330, 360, 362, 2, 2, 8),
  PL_RECV_CALL (0, 365, 375, 377, 3, 2, 8),
  PL_SEND_CALL (1, PL_MPI_SEND, 320, 321, 323, 0, 2, 8),
  PL_SEND_CALL (2, PL_MPI_SEND, 355, 356, 358, 0, 2, 8),
  PL_SEND_CALL (3, PL_MPI_SEND, 370, 371, 373, 0, 2, 8),
};
PL_TABLE PlInstance pl_mw_results_expect[] = {
  { "late_sender", 0, 20, 1, "main/MPI_Recv", PL_FILE, 10 },
  { "late_sender", 0, 25, 2, "main/MPI_Recv", PL_FILE, 10 },
  { "late_sender", 0, 5, 3, "main/MPI_Recv", PL_FILE, 10 },
  { "slow_workers", 0, 20, 1, "main/MPI_Recv", PL_FILE, 10, .runs = PL_IN_RUN (PL_MW_DEFAULT) },
  { "slow_workers", 0, 25, 2, "main/MPI_Recv", PL_FILE, 10, .runs = PL_IN_RUN (PL_MW_DEFAULT) },
  { "slow_workers", 0, 5, 3, "main/MPI_Recv", PL_FILE, 10, .runs = PL_IN_RUN (PL_MW_DEFAULT) },
};

PL_TABLE PlCase pl_mw_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_mw_frame),
  PL_CASE ("work out", pl_mw_work, pl_mw_work_expect),
  PL_CASE_NO_INSTANCE ("work tested for", pl_mw_test),
  PL_CASE ("results in", pl_mw_results, pl_mw_results_expect),
};

/* ====================================================================== */
/* planted-wrong-order-buffer (1 MHz, ranks 0..2)                         */
/* ====================================================================== */

/* Rank 1 receives 101 messages from rank 0 in turn, each 5 late: message i
 * (tag 100 + i) is received in MPI_Recv from 100 + 10 i to 109 + 10 i, sent
 * by MPI_Send entered at 105 + 10 i, recorded at 106 + 10 i. Then it
 * receives rank 2's tag 1, sent before all of them (record 51).
 *   late_sender per message: min(105 + 10 i, 109 + 10 i) - (100 + 10 i) = 5.
 *   Every one is Wrong Order (51 < 106 + 10 i): late_sender_wrong_order(1)
 *   = 5, peer 0, 101 times.
 *   With scalasca_buffer = 1 only the last 100 instances are still buffered
 *   when the receive of tag 1 comes (the 101st pushed the first out): 100
 *   late_sender_wrong_order of 5, and the first (i = 0) a late_sender of 5.
 *   Receive of tag 1: min(50, 1202) - 1200 < 0, no wait.
 *   total time = 3 * 1300 = 3900 */
#define PL_WB_TOTAL_TICKS 3900

PL_TABLE PlEvent pl_wb_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 1300),
  PL_CALL (1, PL_MAIN, 0, 1300),
  PL_CALL (2, PL_MAIN, 0, 1300),
};

#define PL_WB_PAIR(i) \
  PL_SEND_CALL (0, PL_MPI_SEND, 105 + 10 * (i), 106 + 10 * (i), 107 + 10 * (i), 1, 100 + (i), 8), \
  PL_RECV_CALL (1, 100 + 10 * (i), 108 + 10 * (i), 109 + 10 * (i), 0, 100 + (i), 8)
#define PL_WB_TEN(i) \
  PL_WB_PAIR (i), PL_WB_PAIR ((i) + 1), PL_WB_PAIR ((i) + 2), PL_WB_PAIR ((i) + 3), PL_WB_PAIR ((i) + 4), \
  PL_WB_PAIR ((i) + 5), PL_WB_PAIR ((i) + 6), PL_WB_PAIR ((i) + 7), PL_WB_PAIR ((i) + 8), PL_WB_PAIR ((i) + 9)

PL_TABLE PlEvent pl_wb_late[] = {
  PL_WB_TEN (0), PL_WB_TEN (10), PL_WB_TEN (20), PL_WB_TEN (30), PL_WB_TEN (40),
  PL_WB_TEN (50), PL_WB_TEN (60), PL_WB_TEN (70), PL_WB_TEN (80), PL_WB_TEN (90),
  PL_WB_PAIR (100),
  PL_SEND_CALL (2, PL_MPI_SEND, 50, 51, 52, 1, 1, 8),
  PL_RECV_CALL (1, 1200, 1201, 1202, 2, 1, 8),
};

/* run 0: default, run 1: scalasca_buffer = 1 */
#define PL_WB_WO(runs) { "late_sender_wrong_order", 1, 5, 0, "main/MPI_Recv", PL_FILE, 10, NULL, (runs) }
#define PL_WB_WO_TEN \
  PL_WB_WO (0), PL_WB_WO (0), PL_WB_WO (0), PL_WB_WO (0), PL_WB_WO (0), \
  PL_WB_WO (0), PL_WB_WO (0), PL_WB_WO (0), PL_WB_WO (0), PL_WB_WO (0)

PL_TABLE PlInstance pl_wb_late_expect[] = {
  PL_WB_WO (PL_IN_RUN (0)),
  { "late_sender", 1, 5, 0, "main/MPI_Recv", PL_FILE, 10, NULL, PL_IN_RUN (1) },
  PL_WB_WO_TEN, PL_WB_WO_TEN, PL_WB_WO_TEN, PL_WB_WO_TEN, PL_WB_WO_TEN,
  PL_WB_WO_TEN, PL_WB_WO_TEN, PL_WB_WO_TEN, PL_WB_WO_TEN, PL_WB_WO_TEN,
};

PL_TABLE PlRun pl_wb_runs[] = {
  { "default", { NULL } },
  { "scalasca_buffer=1", { "scalasca_buffer=1", NULL } },
};

/* Nothing else: rank 0 only sends, every receive is posted before its send
 * starts (no late_receiver), rank 1 has two partners (no master). */
PL_TABLE PlCase pl_wb_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_wb_frame),
  PL_CASE ("101 late senders, then the earliest send", pl_wb_late, pl_wb_late_expect),
};

/* ====================================================================== */
/* planted-nonblocking (1 MHz, ranks 0..2)                                */
/* ====================================================================== */

/* Requests completed in MPI_Wait* as Scalasca 2.6's scout judges them
 * (docs/patterns.md). Messages are 64 bytes (below early_wait's eager
 * limit, so only the receive side of a wait is an early_wait).
 *   total time = 3 * (1500 - 0) = 4500 */
#define PL_NB_TOTAL_TICKS 4500

PL_TABLE PlEvent pl_nb_frame[] = {
  PL_CALL (0, PL_MAIN, 0, 1500),
  PL_CALL (1, PL_MAIN, 0, 1500),
  PL_CALL (2, PL_MAIN, 0, 1500),
};

/* (a) Isend + Wait, late receiver: rank 0 waits for its send from 110 to 190;
 * rank 1 posts the receive (MPI_Irecv) at 150.
 *   late_receiver(0) = enter(Irecv) 150 - enter(Wait) 110 = 40 (leave 190 >
 *   150), peer 1.
 *   Rank 1's Wait: min(Isend enter 100, leave 170) - 160 < 0, no Late Sender;
 *   early_wait(1) = 170 - 160 = 10. */
PL_TABLE PlEvent pl_nb_a[] = {
  PL_ISEND_CALL (0, PL_MPI_ISEND, 100, 101, 105, 1, 1, 64, 1),
  PL_WAIT_SEND (0, PL_MPI_WAIT, 110, 189, 190, 1),
  PL_IRECV_CALL (1, 150, 151, 152, 1),
  PL_WAIT_RECV (1, PL_MPI_WAIT, 160, 165, 170, 0, 1, 64, 1),
};
PL_TABLE PlInstance pl_nb_a_expect[] = {
  { "late_receiver", 0, 40, 1, "main/MPI_Wait", PL_FILE, 10 },
  { "early_wait", 1, 10, PL_ANY_PEER, "main/MPI_Wait", PL_FILE, 10 },
};

/* (b) Irecv + Waitall, late sender with three requests: rank 2 posts
 * receives from 0 (tags 2, 4) and 1 (tag 3), then waits in MPI_Waitall from
 * 300 to 360. Rank 0's sends start at 320 and 330, rank 1's at 340.
 *   idle per message: 320 - 300 = 20, 330 - 300 = 30, 340 - 300 = 40; the
 *   call counts the largest once: late_sender(2) = 40, peer 1.
 *   early_wait(2) = 360 - 300 = 60. */
PL_TABLE PlEvent pl_nb_b[] = {
  PL_IRECV_CALL (2, 280, 281, 282, 2),
  PL_IRECV_CALL (2, 283, 284, 285, 3),
  PL_IRECV_CALL (2, 286, 287, 288, 4),
  PL_ENTER (2, 300, PL_MPI_WAITALL),
  PL_IRECV_RECORD (2, 323, 0, 2, 64, 2),
  PL_IRECV_RECORD (2, 333, 0, 4, 64, 4),
  PL_IRECV_RECORD (2, 343, 1, 3, 64, 3),
  PL_LEAVE (2, 360, PL_MPI_WAITALL),
  PL_SEND_CALL (0, PL_MPI_SEND, 320, 321, 322, 2, 2, 64),
  PL_SEND_CALL (0, PL_MPI_SEND, 330, 331, 332, 2, 4, 64),
  PL_SEND_CALL (1, PL_MPI_SEND, 340, 341, 342, 2, 3, 64),
};
PL_TABLE PlInstance pl_nb_b_expect[] = {
  { "late_sender", 2, 40, 1, "main/MPI_Waitall", PL_FILE, 10 },
  { "early_wait", 2, 60, PL_ANY_PEER, "main/MPI_Waitall", PL_FILE, 10 },
};

/* (c) A Waitall's wait belongs to its largest message, and only that one
 * decides Wrong Order: rank 1 waits from 500 to 560 for rank 0's tag 5
 * (send enter 540, record 541: idle 40) and rank 2's tag 6 (enter 520, but
 * recorded late, at 550: idle 20). Its next call receives rank 0's tag 7,
 * recorded at 545.
 *   tag 5 (charged): no later receive has a send recorded before 541 (545,
 *   and every later message to rank 1 is recorded later still), so
 *   late_sender(1) = 40, peer 0, and no late_sender_wrong_order - although
 *   tag 6's send (550) is later than tag 7's (545).
 *   Receive of tag 7: min(544, 572) - 570 < 0, no wait.
 *   early_wait(1) = 560 - 500 = 60. */
PL_TABLE PlEvent pl_nb_c[] = {
  PL_IRECV_CALL (1, 480, 481, 482, 5),
  PL_IRECV_CALL (1, 483, 484, 485, 6),
  PL_ENTER (1, 500, PL_MPI_WAITALL),
  PL_IRECV_RECORD (1, 543, 0, 5, 64, 5),
  PL_IRECV_RECORD (1, 553, 2, 6, 64, 6),
  PL_LEAVE (1, 560, PL_MPI_WAITALL),
  PL_RECV_CALL (1, 570, 571, 572, 0, 7, 64),
  PL_SEND_CALL (0, PL_MPI_SEND, 540, 541, 542, 1, 5, 64),
  PL_SEND_CALL (0, PL_MPI_SEND, 544, 545, 546, 1, 7, 64),
  PL_SEND_CALL (2, PL_MPI_SEND, 520, 550, 552, 1, 6, 64),
};
PL_TABLE PlInstance pl_nb_c_expect[] = {
  { "late_sender", 1, 40, 0, "main/MPI_Waitall", PL_FILE, 10 },
  { "early_wait", 1, 60, PL_ANY_PEER, "main/MPI_Waitall", PL_FILE, 10 },
};

/* (d) Wrong order across a Waitall: rank 1 waits from 610 to 670 for rank
 * 0's tag 13 (send enter 650, record 651: idle 40) and rank 2's tag 14
 * (enter 630, record 631: idle 20); in its next call it receives rank 2's
 * tag 15, sent before both (record 616).
 *   616 < 651: late_sender_wrong_order(1) = 40, peer 0 (the Waitall's one
 *   instance; no late_sender).
 *   wrong_order (same sender only, any waiting receive): tag 14 from rank 2
 *   (idle 20, record 631) is received before tag 15 from rank 2, recorded at
 *   616: wrong_order(1) = 20, peer 2.
 *   Receive of tag 15: min(615, 682) - 680 < 0, no wait.
 *   early_wait(1) = 670 - 610 = 60. */
PL_TABLE PlEvent pl_nb_d[] = {
  PL_IRECV_CALL (1, 600, 601, 602, 7),
  PL_IRECV_CALL (1, 603, 604, 605, 8),
  PL_ENTER (1, 610, PL_MPI_WAITALL),
  PL_IRECV_RECORD (1, 633, 2, 14, 64, 8),
  PL_IRECV_RECORD (1, 653, 0, 13, 64, 7),
  PL_LEAVE (1, 670, PL_MPI_WAITALL),
  PL_RECV_CALL (1, 680, 681, 682, 2, 15, 64),
  PL_SEND_CALL (0, PL_MPI_SEND, 650, 651, 652, 1, 13, 64),
  PL_SEND_CALL (2, PL_MPI_SEND, 615, 616, 617, 1, 15, 64),
  PL_SEND_CALL (2, PL_MPI_SEND, 630, 631, 632, 1, 14, 64),
};
PL_TABLE PlInstance pl_nb_d_expect[] = {
  { "late_sender_wrong_order", 1, 40, 0, "main/MPI_Waitall", PL_FILE, 10 },
  { "wrong_order", 1, 20, 2, "main/MPI_Waitall", PL_FILE, 10 },
  { "early_wait", 1, 60, PL_ANY_PEER, "main/MPI_Waitall", PL_FILE, 10 },
};

/* (e) Late receivers of a Waitall and a Waitany: rank 0 completes its Isends
 * to 1 and 2 in one MPI_Waitall (700 to 790); rank 1 posts its receive at
 * 730, rank 2 at 750. Then rank 0 completes an Isend to 1 in MPI_Waitany
 * (800 to 840), received from 820.
 *   Waitall: 730 - 700 = 30 and 750 - 700 = 50; the call counts the largest
 *   once: late_receiver(0) = 50, peer 2.
 *   Waitany: late_receiver(0) = 820 - 800 = 20, peer 1.
 *   Receives: min(Isend enter, leave) - enter < 0, no Late Sender;
 *   early_wait(1) = 740 - 735 = 5 and 830 - 825 = 5, early_wait(2) = 760 - 755 = 5. */
PL_TABLE PlEvent pl_nb_e[] = {
  PL_ISEND_CALL (0, PL_MPI_ISEND, 690, 691, 692, 1, 16, 64, 9),
  PL_ISEND_CALL (0, PL_MPI_ISEND, 693, 694, 695, 2, 17, 64, 10),
  PL_ENTER (0, 700, PL_MPI_WAITALL),
  PL_EV (0, 789, PL_EV_MPI_ISEND_COMPLETE, 0, 0, 0, 0, 0, 9),
  PL_EV (0, 789, PL_EV_MPI_ISEND_COMPLETE, 0, 0, 0, 0, 0, 10),
  PL_LEAVE (0, 790, PL_MPI_WAITALL),
  PL_ISEND_CALL (0, PL_MPI_ISEND, 795, 796, 797, 1, 18, 64, 11),
  PL_WAIT_SEND (0, PL_MPI_WAITANY, 800, 839, 840, 11),
  PL_IRECV_CALL (1, 730, 731, 732, 9),
  PL_WAIT_RECV (1, PL_MPI_WAIT, 735, 738, 740, 0, 16, 64, 9),
  PL_IRECV_CALL (1, 820, 821, 822, 10),
  PL_WAIT_RECV (1, PL_MPI_WAIT, 825, 828, 830, 0, 18, 64, 10),
  PL_IRECV_CALL (2, 750, 751, 752, 9),
  PL_WAIT_RECV (2, PL_MPI_WAIT, 755, 758, 760, 0, 17, 64, 9),
};
PL_TABLE PlInstance pl_nb_e_expect[] = {
  { "late_receiver", 0, 50, 2, "main/MPI_Waitall", PL_FILE, 10 },
  { "late_receiver", 0, 20, 1, "main/MPI_Waitany", PL_FILE, 10 },
  { "early_wait", 1, 5, PL_ANY_PEER, "main/MPI_Wait", PL_FILE, 10 },
  { "early_wait", 1, 5, PL_ANY_PEER, "main/MPI_Wait", PL_FILE, 10 },
  { "early_wait", 2, 5, PL_ANY_PEER, "main/MPI_Wait", PL_FILE, 10 },
};

/* (f) A Waitall that completes a send and a late-sent receive is a Late
 * Sender only: rank 0 waits from 900 to 980 for its Isend to 1 (received
 * from 930) and its Irecv from 2 (sent from 950).
 *   late_sender(0) = min(950, 980) - 900 = 50, peer 2; no late_receiver
 *   (it would be 930 - 900 = 30).
 *   early_wait(0) = 980 - 900 = 80 (the receive; the send is below the
 *   eager limit), early_wait(1) = 940 - 935 = 5. */
PL_TABLE PlEvent pl_nb_f[] = {
  PL_ISEND_CALL (0, PL_MPI_ISEND, 890, 891, 892, 1, 19, 64, 12),
  PL_IRECV_CALL (0, 893, 894, 895, 13),
  PL_ENTER (0, 900, PL_MPI_WAITALL),
  PL_EV (0, 979, PL_EV_MPI_ISEND_COMPLETE, 0, 0, 0, 0, 0, 12),
  PL_IRECV_RECORD (0, 979, 2, 20, 64, 13),
  PL_LEAVE (0, 980, PL_MPI_WAITALL),
  PL_IRECV_CALL (1, 930, 931, 932, 11),
  PL_WAIT_RECV (1, PL_MPI_WAIT, 935, 938, 940, 0, 19, 64, 11),
  PL_SEND_CALL (2, PL_MPI_SEND, 950, 951, 952, 0, 20, 64),
};
PL_TABLE PlInstance pl_nb_f_expect[] = {
  { "late_sender", 0, 50, 2, "main/MPI_Waitall", PL_FILE, 10 },
  { "early_wait", 0, 80, PL_ANY_PEER, "main/MPI_Waitall", PL_FILE, 10 },
  { "early_wait", 1, 5, PL_ANY_PEER, "main/MPI_Wait", PL_FILE, 10 },
};

/* (g) A receive completed in MPI_Test is a later receive too: rank 2 waits
 * in MPI_Recv from 1000 for rank 1's tag 21 (send enter 1020, record 1021),
 * then tests for rank 0's tag 22, recorded at 1006.
 *   1006 < 1021: late_sender_wrong_order(2) = min(1020, 1022) - 1000 = 20,
 *   peer 1. The Test never waits; rank 0's Wait ends (1010) before the
 *   receive is posted (1030): no late_receiver. */
PL_TABLE PlEvent pl_nb_g[] = {
  PL_RECV_CALL (2, 1000, 1021, 1022, 1, 21, 64),
  PL_IRECV_CALL (2, 1030, 1031, 1032, 10),
  PL_WAIT_RECV (2, PL_MPI_TEST, 1040, 1041, 1042, 0, 22, 64, 10),
  PL_SEND_CALL (1, PL_MPI_SEND, 1020, 1021, 1022, 2, 21, 64),
  PL_ISEND_CALL (0, PL_MPI_ISEND, 1005, 1006, 1007, 2, 22, 64, 14),
  PL_WAIT_SEND (0, PL_MPI_WAIT, 1008, 1009, 1010, 14),
};
PL_TABLE PlInstance pl_nb_g_expect[] = {
  { "late_sender_wrong_order", 2, 20, 1, "main/MPI_Recv", PL_FILE, 10 },
};

/* (h) MPI_Sendrecv waits as a receive only: rank 0 enters at 1100 and sends
 * to and receives from rank 1, which enters at 1150.
 *   late_sender(0) = min(1150, leave 1162) - 1100 = 50, peer 1. MPI_Sendrecv
 *   is no blocking send for Scalasca: no late_receiver for the same 50.
 *   Rank 1: min(1100, 1160) - 1150 < 0, no wait. */
PL_TABLE PlEvent pl_nb_h[] = {
  PL_ENTER (0, 1100, PL_MPI_SENDRECV),
  PL_EV (0, 1101, PL_EV_MPI_SEND, 1, 23, 0, 64, 0, 0),
  PL_RECV_RECORD (0, 1160, 1, 24, 64),
  PL_LEAVE (0, 1162, PL_MPI_SENDRECV),
  PL_ENTER (1, 1150, PL_MPI_SENDRECV),
  PL_EV (1, 1151, PL_EV_MPI_SEND, 0, 24, 0, 64, 0, 0),
  PL_RECV_RECORD (1, 1155, 0, 23, 64),
  PL_LEAVE (1, 1160, PL_MPI_SENDRECV),
};
PL_TABLE PlInstance pl_nb_h_expect[] = {
  { "late_sender", 0, 50, 1, "main/MPI_Sendrecv", PL_FILE, 10 },
};

/* (i) N x N completion from the collective records: MPI_Allreduce entered
 * (and begun) at 1300, 1310, 1330, its END records at 1340, 1345, 1350, the
 * calls left at 1360, 1346, 1352.
 *   Earliest END 1340 > latest begin 1330: all synchronize.
 *   nxn_completion = own END - max(1340, min(1330, own END)): rank 0 0,
 *   rank 1 = 1345 - 1340 = 5, rank 2 = 1350 - 1340 = 10 (the leaves would
 *   give 1360 - 1346 = 14 on rank 0 instead).
 *   wait_at_nxn = min(1330, own leave) - own enter: rank 0 30, rank 1 20,
 *   peer 2.
 *   wait_inside_collective(0) = (1310 - 1300) + (1360 - 1352) = 18. */
PL_TABLE PlEvent pl_nb_i[] = {
  PL_COLL_CALL_END (0, PL_MPI_ALLREDUCE, 1300, 1340, 1360, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD,
                    PL_NO_ROOT, 8, 8),
  PL_COLL_CALL_END (1, PL_MPI_ALLREDUCE, 1310, 1345, 1346, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD,
                    PL_NO_ROOT, 8, 8),
  PL_COLL_CALL_END (2, PL_MPI_ALLREDUCE, 1330, 1350, 1352, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD,
                    PL_NO_ROOT, 8, 8),
};
PL_TABLE PlInstance pl_nb_i_expect[] = {
  { "nxn_completion", 1, 5, PL_NO_PEER, "main/MPI_Allreduce", PL_FILE, 10 },
  { "nxn_completion", 2, 10, PL_NO_PEER, "main/MPI_Allreduce", PL_FILE, 10 },
  { "wait_at_nxn", 0, 30, 2, "main/MPI_Allreduce", PL_FILE, 10 },
  { "wait_at_nxn", 1, 20, 2, "main/MPI_Allreduce", PL_FILE, 10 },
  { "wait_inside_collective", 0, 18, PL_NO_PEER, "main/MPI_Allreduce", PL_FILE, 10 },
};

/* (j) A non-blocking Iallreduce as Score-P records it (BEGIN in the
 * MPI_Iallreduce, END in the MPI_Wait), rank 2 late by 40: Scalasca does not
 * analyse non-blocking collectives, so no wait state. */
PL_TABLE PlEvent pl_nb_j[] = {
  PL_SCOREP_NBC_POST (0, PL_MPI_IALLREDUCE, 1400, 1402),
  PL_SCOREP_NBC_WAIT (0, 1403, 1450, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_SCOREP_NBC_POST (1, PL_MPI_IALLREDUCE, 1400, 1401),
  PL_SCOREP_NBC_WAIT (1, 1402, 1450, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
  PL_SCOREP_NBC_POST (2, PL_MPI_IALLREDUCE, 1440, 1441),
  PL_SCOREP_NBC_WAIT (2, 1442, 1450, OTF2_COLLECTIVE_OP_ALLREDUCE, PL_COMM_WORLD, PL_NO_ROOT, 8, 8),
};

/* Nothing else: no blocking send is followed by a receive from the same
 * peer, every message is small, no location has three exclusive partners. */
PL_TABLE PlCase pl_nb_cases[] = {
  PL_CASE_NO_INSTANCE ("frame", pl_nb_frame),
  PL_CASE ("Isend + Wait, late receiver", pl_nb_a, pl_nb_a_expect),
  PL_CASE ("Irecv + Waitall, late sender, three requests", pl_nb_b, pl_nb_b_expect),
  PL_CASE ("Waitall charged to its largest wait", pl_nb_c, pl_nb_c_expect),
  PL_CASE ("wrong order across a Waitall", pl_nb_d, pl_nb_d_expect),
  PL_CASE ("Isends + Waitall / Waitany, late receivers", pl_nb_e, pl_nb_e_expect),
  PL_CASE ("Waitall with a send and a late-sent receive", pl_nb_f, pl_nb_f_expect),
  PL_CASE ("wrong order after MPI_Test", pl_nb_g, pl_nb_g_expect),
  PL_CASE ("MPI_Sendrecv", pl_nb_h, pl_nb_h_expect),
  PL_CASE ("N x N completion from the records", pl_nb_i, pl_nb_i_expect),
  PL_CASE_NO_INSTANCE ("non-blocking collective", pl_nb_j),
};

/* ====================================================================== */
/* The list                                                               */
/* ====================================================================== */

/* MPI ranks only: locations 0 .. n_ranks-1 of pl_ranks[]. */
#define PL_RANKS_SCENARIO(name, summary, resolution, n_ranks, cases, runs, unchecked, total) \
  { (name), (summary), UINT64_C (resolution), (n_ranks), pl_ranks, (n_ranks), \
    (cases), G_N_ELEMENTS (cases), (runs), G_N_ELEMENTS (runs), (unchecked), UINT64_C (total), FALSE }
#define PL_SCENARIO(name, summary, resolution, n_ranks, locations, cases, runs, unchecked, total) \
  { (name), (summary), UINT64_C (resolution), (n_ranks), (locations), G_N_ELEMENTS (locations), \
    (cases), G_N_ELEMENTS (cases), (runs), G_N_ELEMENTS (runs), (unchecked), UINT64_C (total), FALSE }

PL_TABLE PlScenario pl_scenarios[] = {
  PL_RANKS_SCENARIO ("planted-late-sender", "late senders: source kinds, zero bytes, Waitall",
                     1000000, 3, pl_ls_cases, pl_runs_default, pl_unchecked_default, PL_LS_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-wrong-order", "late senders in wrong order, same and different source",
                     1000000, 3, pl_wo_cases, pl_runs_default, pl_unchecked_default, PL_WO_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-late-receiver", "late receivers: Ssend, eager limit, Issend",
                     1000000, 4, pl_lr_cases, pl_lr_runs, pl_unchecked_default, PL_LR_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-early-wait", "early waits on both sides, optimal distance",
                     1000000, 2, pl_ew_cases, pl_runs_default, pl_unchecked_default, PL_EW_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-close", "close send/receive, message to self",
                     1000000, 2, pl_cl_cases, pl_cl_runs, pl_unchecked_default, PL_CL_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-eps", "waits just below, at and above eps",
                     1000000, 2, pl_eps_cases, pl_eps_runs, pl_unchecked_default, PL_EPS_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-collectives", "collective wait states at 1 GHz, self and non-blocking",
                     1000000000, 4, pl_co_cases, pl_runs_default, pl_unchecked_default, PL_CO_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-init-finalize", "MPI_Init completion, wait at MPI_Finalize",
                     1000000, 3, pl_if_cases, pl_runs_default, pl_unchecked_default, PL_IF_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-rma", "window create/fence/free waits, RMA lock contention",
                     1000000, 3, pl_rma_cases, pl_runs_default, pl_unchecked_default, PL_RMA_TOTAL_TICKS),
  PL_SCENARIO ("planted-threads", "pthread and OpenMP lock contention",
               1000000, 1, pl_th_locations, pl_th_cases, pl_runs_default, pl_unchecked_default, PL_TH_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-hotspots", "frequent, large and unbalanced communication",
                     1000000, 3, pl_hs_cases, pl_hs_runs, pl_unchecked_none, PL_HS_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-master-worker", "slow workers, overloaded master",
                     1000000, 4, pl_mw_cases, pl_mw_runs, pl_unchecked_default, PL_MW_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-wrong-order-buffer", "101 wrong-order late senders, Scalasca's buffer of 100",
                     1000000, 3, pl_wb_cases, pl_wb_runs, pl_unchecked_default, PL_WB_TOTAL_TICKS),
  PL_RANKS_SCENARIO ("planted-nonblocking", "requests in MPI_Wait*, Sendrecv, N x N records",
                     1000000, 3, pl_nb_cases, pl_runs_default, pl_unchecked_default, PL_NB_TOTAL_TICKS),
};

/* ---------------------------------------------------------------------- */
/* Entry points (otf2gen-planted.c)                                       */
/* ---------------------------------------------------------------------- */

/* The scenario called @name, or NULL. */
const PlScenario *sextant_otf2gen_planted_lookup        (const char        *name);
/* Writes OUTDIR/traces.otf2. */
gboolean          sextant_otf2gen_planted               (const PlScenario  *scenario,
                                                         const char        *outdir,
                                                         gboolean           force,
                                                         GError           **error);
/* "LOCATION KIND COUNT" lines, as for --expect of the other scenarios. */
void              sextant_otf2gen_planted_expect_counts (const PlScenario  *scenario,
                                                         FILE              *out);
/* Every planted scenario and its expected pattern instances, as JSON. */
void              sextant_otf2gen_planted_expect_patterns (FILE            *out);

G_END_DECLS
