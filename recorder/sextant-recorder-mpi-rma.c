/*
 * sextant-recorder-mpi-rma.c - one-sided communication (MPI RMA).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Records, each inside ENTER/LEAVE of the MPI function's region:
 *   window creation   RMA_COLLECTIVE_BEGIN, RMA_WIN_CREATE, RMA_COLLECTIVE_END
 *                     (CREATE_HANDLE, or CREATE_HANDLE_AND_ALLOCATE for
 *                     MPI_Win_allocate(_shared)); MPI_Win_free the same with
 *                     RMA_WIN_DESTROY and DESTROY_HANDLE(_AND_DEALLOCATE)
 *   MPI_Put / MPI_Get RMA_PUT / RMA_GET with a matching id
 *   MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
 *   MPI_Compare_and_swap   RMA_ATOMIC (ACCUMULATE, FETCH_AND_ACCUMULATE,
 *                     FETCH_AND_ADD for MPI_SUM, SWAP for MPI_REPLACE,
 *                     COMPARE_AND_SWAP) with the bytes sent and received
 *   completion        RMA_OP_COMPLETE_REMOTE (flush, unlock, fence,
 *                     complete, free) or RMA_OP_COMPLETE_NON_BLOCKING
 *                     (flush_local) with the operation's matching id
 *   MPI_Win_lock(_all)   RMA_REQUEST_LOCK before, RMA_ACQUIRE_LOCK after the
 *                     call; MPI_Win_unlock(_all): RMA_RELEASE_LOCK (lock id
 *                     0; remote OTF2_UNDEFINED_UINT32 for the _all forms,
 *                     as OTF2 defines)
 *   MPI_Win_fence     RMA_COLLECTIVE_BEGIN/END (BARRIER)
 *   MPI_Win_post/start/complete/wait/test   RMA_GROUP_SYNC with the group
 *                     (world ranks) of the post or start
 *   MPI_Win_sync      RMA_SYNC (MEMORY) with this process as remote
 * Targets are ranks in the window's communicator.
 *
 * Windows are identified across ranks like communicators: by their
 * communicator and the number of windows made on it before (creation is
 * collective over it).
 *
 * Completion tracking: each thread keeps the operations it issued and not
 * yet completed (sextant__thread.rma), oldest first; a synchronisation call
 * completes the matching ones. An operation issued by one thread and
 * completed by a synchronisation on another gets no completion record.
 */
#include "sextant-recorder-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
tracking (void)
{
  return atomic_load_explicit (&sextant__rec.state, memory_order_relaxed) == SEXTANT__STATE_ACTIVE;
}

static uint64_t
bytes_of (int          count,
          MPI_Datatype type)
{
  int size = 0;

  if (count <= 0 || PMPI_Type_size (type, &size) != MPI_SUCCESS || size <= 0)
    return 0;
  return (uint64_t) count * (uint64_t) size;
}

static sextant__win unknown_win = { .def = SEXTANT__UNDEF };

/* Records window @win, made collectively over @comm. */
static sextant__win *
win_made (MPI_Comm comm,
          MPI_Win  win,
          int      allocated)
{
  sextant__comm *c = sextant__comm_get (comm);
  sextant__win *w;
  uint32_t seq;
  int full = 0;

  if (c == NULL || win == MPI_WIN_NULL)
    return NULL;
  seq = atomic_fetch_add (&c->windows, 1);
  w = calloc (1, sizeof *w);
  if (w == NULL)
    return NULL;
  PMPI_Comm_rank (comm, &w->rank);
  w->allocated = allocated;
  atomic_init (&w->post_group, SEXTANT__UNDEF);
  atomic_init (&w->start_group, SEXTANT__UNDEF);
  pthread_mutex_lock (&sextant__rec.lock);
  {
    char name[64];
    uint32_t name_id;

    snprintf (name, sizeof name, "window %u", (unsigned) seq);
    name_id = sextant__def_string (&sextant__rec.defs, name);
    w->def = name_id != SEXTANT__UNDEF ? sextant__def_win (&sextant__rec.defs, name_id, c->def, seq)
                                       : SEXTANT__UNDEF;
    if (sextant__grow ((void **) &sextant__rec.records, &sextant__rec.cap_records,
                       sextant__rec.n_records + 1, sizeof *sextant__rec.records) != 0)
      {
        pthread_mutex_unlock (&sextant__rec.lock);
        free (w);
        return NULL;
      }
    sextant__rec.records[sextant__rec.n_records++] = w;
    full = sextant__handles_put (&sextant__rec.wins, (uintptr_t) win, w) != 0;
  }
  pthread_mutex_unlock (&sextant__rec.lock);
  if (full && !atomic_exchange (&sextant__rec.warned_table_full, 1))
    sextant__warn ("too many communicators and windows to track; later ones are recorded as unknown");
  return w;
}

/* The record of @win. A window the recorder did not see made (its table
 * was full) is recorded as this rank's own: no communicator, never merged
 * with other ranks' windows. */
static sextant__win *
win_get (MPI_Win win)
{
  sextant__win *w = sextant__handles_get (&sextant__rec.wins, (uintptr_t) win);

  if (w != NULL || win == MPI_WIN_NULL || !tracking ())
    return w != NULL ? w : &unknown_win;
  if (!atomic_exchange (&sextant__rec.warned_unknown_win, 1))
    sextant__warn ("an RMA window the recorder did not see created is recorded for this rank only");
  w = calloc (1, sizeof *w);
  if (w == NULL)
    return &unknown_win;
  PMPI_Comm_rank (MPI_COMM_WORLD, &w->rank);
  atomic_init (&w->post_group, SEXTANT__UNDEF);
  atomic_init (&w->start_group, SEXTANT__UNDEF);
  pthread_mutex_lock (&sextant__rec.lock);
  {
    uint32_t name = sextant__def_string (&sextant__rec.defs, "unknown window");

    w->def = name != SEXTANT__UNDEF
             ? sextant__def_win (&sextant__rec.defs, name, SEXTANT__UNDEF, (uint32_t) sextant__rec.defs.n_wins)
             : SEXTANT__UNDEF;
    if (sextant__grow ((void **) &sextant__rec.records, &sextant__rec.cap_records,
                       sextant__rec.n_records + 1, sizeof *sextant__rec.records) == 0)
      sextant__rec.records[sextant__rec.n_records++] = w;
    else
      {
        free (w);
        w = &unknown_win;
      }
  }
  pthread_mutex_unlock (&sextant__rec.lock);
  return w;
}

/* ---- completion bookkeeping ---- */

static void
pending_add (sextant__thread *t,
             uint32_t         win,
             uint32_t         target,
             uint64_t         matching)
{
  if (sextant__grow ((void **) &t->rma, &t->cap_rma, t->n_rma + 1, sizeof *t->rma) != 0)
    return;                         /* out of memory: this operation gets no completion */
  t->rma[t->n_rma].win = win;
  t->rma[t->n_rma].target = target;
  t->rma[t->n_rma].matching = matching;
  t->n_rma++;
}

void
sextant__rma_complete (sextant__thread *t,
                       uint64_t         time,
                       uint32_t         win,
                       uint32_t         target,
                       int              local_only)
{
  size_t kept = 0;

  for (size_t i = 0; i < t->n_rma; i++)
    {
      sextant__rma_op *op = &t->rma[i];

      if (op->win != win || (target != SEXTANT__UNDEF && op->target != target))
        {
          t->rma[kept++] = *op;
          continue;
        }
      if (local_only)
        SEXTANT__WRITE (t, OTF2_EvtWriter_RmaOpCompleteNonBlocking (t->writer, NULL, time, win,
                                                                     op->matching),
                        "RMA_OP_COMPLETE_NON_BLOCKING");
      else
        SEXTANT__WRITE (t, OTF2_EvtWriter_RmaOpCompleteRemote (t->writer, NULL, time, win, op->matching),
                        "RMA_OP_COMPLETE_REMOTE");
    }
  t->n_rma = kept;
}

/* ---- windows ---- */

static void
win_create_end (sextant__call     *call,
                sextant__win      *w,
                OTF2_CollectiveOp  op)
{
  sextant__thread *t = call->t;
  uint64_t now = sextant__now ();
  uint32_t def = w != NULL ? w->def : SEXTANT__UNDEF;

  if (w != NULL)
    SEXTANT__WRITE (t, OTF2_EvtWriter_RmaWinCreate (t->writer, NULL, now, def), "RMA_WIN_CREATE");
  SEXTANT__WRITE (t, OTF2_EvtWriter_RmaCollectiveEnd (t->writer, NULL, now, op, OTF2_RMA_SYNC_LEVEL_NONE,
                                                       def, OTF2_UNDEFINED_UINT32, 0, 0),
                  "RMA_COLLECTIVE_END");
  SEXTANT__WRITE (t, OTF2_EvtWriter_Leave (t->writer, NULL, now, call->region), "LEAVE");
  t->busy = 0;
}

static void
rma_coll_begin (sextant__call *call)
{
  SEXTANT__WRITE (call->t, OTF2_EvtWriter_RmaCollectiveBegin (call->t->writer, NULL, call->enter),
                  "RMA_COLLECTIVE_BEGIN");
}

/* WIN_MAKE (ID, allocated, OTF2 op, comm, pointer to the new window, PMPI call) */
#define WIN_MAKE(ID, ALLOCATED, OP, COMM, WIN, CALL)                          \
  sextant__call call;                                                         \
  sextant__win *w = NULL;                                                     \
  int recorded = SEXTANT__BEGIN (&call, ID);                                  \
  int rc;                                                                     \
                                                                              \
  if (recorded)                                                               \
    rma_coll_begin (&call);                                                   \
  rc = CALL;                                                                  \
  if (rc == MPI_SUCCESS && tracking ())                                       \
    w = win_made ((COMM), *(WIN), (ALLOCATED));                               \
  if (recorded)                                                               \
    win_create_end (&call, w, OTF2_COLLECTIVE_OP_##OP);                       \
  return rc

SEXTANT__EXPORT int
MPI_Win_create (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
  WIN_MAKE (WIN_CREATE, 0, CREATE_HANDLE, comm, win,
            PMPI_Win_create (base, size, disp_unit, info, comm, win));
}

SEXTANT__EXPORT int
MPI_Win_allocate (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                  MPI_Win *win)
{
  WIN_MAKE (WIN_ALLOCATE, 1, CREATE_HANDLE_AND_ALLOCATE, comm, win,
            PMPI_Win_allocate (size, disp_unit, info, comm, baseptr, win));
}

SEXTANT__EXPORT int
MPI_Win_allocate_shared (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                         MPI_Win *win)
{
  WIN_MAKE (WIN_ALLOCATE_SHARED, 1, CREATE_HANDLE_AND_ALLOCATE, comm, win,
            PMPI_Win_allocate_shared (size, disp_unit, info, comm, baseptr, win));
}

SEXTANT__EXPORT int
MPI_Win_create_dynamic (MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
  WIN_MAKE (WIN_CREATE_DYNAMIC, 0, CREATE_HANDLE, comm, win, PMPI_Win_create_dynamic (info, comm, win));
}

SEXTANT__EXPORT int
MPI_Win_free (MPI_Win *win)
{
  sextant__call call;
  sextant__win *w;
  sextant__thread *t;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_FREE))
    return PMPI_Win_free (win);
  t = call.t;
  w = win_get (*win);
  rma_coll_begin (&call);
  sextant__rma_complete (t, call.enter, w->def, SEXTANT__UNDEF, 0);
  SEXTANT__WRITE (t, OTF2_EvtWriter_RmaWinDestroy (t->writer, NULL, call.enter, w->def), "RMA_WIN_DESTROY");
  rc = PMPI_Win_free (win);
  {
    uint64_t now = sextant__now ();

    SEXTANT__WRITE (t, OTF2_EvtWriter_RmaCollectiveEnd (t->writer, NULL, now,
                                                         w->allocated
                                                         ? OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE
                                                         : OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
                                                         OTF2_RMA_SYNC_LEVEL_NONE, w->def,
                                                         OTF2_UNDEFINED_UINT32, 0, 0),
                    "RMA_COLLECTIVE_END");
    SEXTANT__WRITE (t, OTF2_EvtWriter_Leave (t->writer, NULL, now, call.region), "LEAVE");
    t->busy = 0;
  }
  return rc;
}

/* ---- communication ---- */

/* Writes the record of an issued operation and remembers it. */
#define ISSUE(RECORD, WHAT)                                                   \
  do {                                                                        \
    if (rc == MPI_SUCCESS && target_rank != MPI_PROC_NULL)                    \
      {                                                                       \
        sextant__thread *t = call.t;                                          \
        sextant__win *w = win_get (win);                                      \
        uint64_t matching = t->next_matching++;                               \
                                                                              \
        SEXTANT__WRITE (t, RECORD, WHAT);                                     \
        pending_add (t, w->def, (uint32_t) target_rank, matching);            \
      }                                                                       \
  } while (0)

/* RMA_OP (ID, the PMPI call, the OTF2 record, its name): an operation
 * recorded after a successful call (ISSUE); the shape of the `rma` lines
 * of sextant-recorder-mpi.def. The request-based operations (MPI_Rput,
 * ...) are recorded as their plain forms: the operation completes at the
 * window's next synchronisation (flush, unlock, fence, complete), which is
 * where its completion record goes; the completion of the request itself
 * (an MPI_Wait on it) is local and not written separately. */
#define RMA_OP(ID, CALL, RECORD, WHAT)                                        \
  sextant__call call;                                                         \
  int rc;                                                                     \
                                                                              \
  if (!SEXTANT__BEGIN (&call, ID))                                            \
    return CALL;                                                              \
  rc = CALL;                                                                  \
  ISSUE (RECORD, WHAT);                                                       \
  sextant__end (&call);                                                       \
  return rc

/* MPI_Fetch_and_op's atomic type */
static OTF2_RmaAtomicType
fetch_op_type (MPI_Op op)
{
  return op == MPI_SUM ? OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ADD
         : op == MPI_REPLACE ? OTF2_RMA_ATOMIC_TYPE_SWAP
         : OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE;
}

#include "sextant-recorder-mpi-rma.inc"

SEXTANT__EXPORT int
MPI_Compare_and_swap (const void *origin_addr, const void *compare_addr, void *result_addr,
                      MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
  sextant__call call;
  int rc;

  if (!SEXTANT__BEGIN (&call, COMPARE_AND_SWAP))
    return PMPI_Compare_and_swap (origin_addr, compare_addr, result_addr, datatype, target_rank,
                                  target_disp, win);
  rc = PMPI_Compare_and_swap (origin_addr, compare_addr, result_addr, datatype, target_rank,
                              target_disp, win);
  ISSUE (OTF2_EvtWriter_RmaAtomic (t->writer, NULL, call.enter, w->def, (uint32_t) target_rank,
                                   OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP, bytes_of (2, datatype),
                                   bytes_of (1, datatype), matching),
         "RMA_ATOMIC");
  sextant__end (&call);
  return rc;
}

/* ---- passive target synchronisation ---- */

SEXTANT__EXPORT int
MPI_Win_lock (int lock_type, int rank, int assert, MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  OTF2_LockType type = lock_type == MPI_LOCK_SHARED ? OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_LOCK))
    return PMPI_Win_lock (lock_type, rank, assert, win);
  w = win_get (win);
  SEXTANT__WRITE (call.t, OTF2_EvtWriter_RmaRequestLock (call.t->writer, NULL, call.enter, w->def,
                                                          (uint32_t) rank, 0, type), "RMA_REQUEST_LOCK");
  rc = PMPI_Win_lock (lock_type, rank, assert, win);
  if (rc == MPI_SUCCESS)
    SEXTANT__WRITE (call.t, OTF2_EvtWriter_RmaAcquireLock (call.t->writer, NULL, sextant__now (), w->def,
                                                            (uint32_t) rank, 0, type), "RMA_ACQUIRE_LOCK");
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Win_unlock (int rank, MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_UNLOCK))
    return PMPI_Win_unlock (rank, win);
  w = win_get (win);
  rc = PMPI_Win_unlock (rank, win);
  {
    uint64_t now = sextant__now ();

    sextant__rma_complete (call.t, now, w->def, (uint32_t) rank, 0);
    SEXTANT__WRITE (call.t, OTF2_EvtWriter_RmaReleaseLock (call.t->writer, NULL, now, w->def,
                                                            (uint32_t) rank, 0), "RMA_RELEASE_LOCK");
  }
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Win_lock_all (int assert, MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_LOCK_ALL))
    return PMPI_Win_lock_all (assert, win);
  w = win_get (win);
  SEXTANT__WRITE (call.t, OTF2_EvtWriter_RmaRequestLock (call.t->writer, NULL, call.enter, w->def,
                                                          OTF2_UNDEFINED_UINT32, 0, OTF2_LOCK_SHARED),
                  "RMA_REQUEST_LOCK");
  rc = PMPI_Win_lock_all (assert, win);
  if (rc == MPI_SUCCESS)
    SEXTANT__WRITE (call.t, OTF2_EvtWriter_RmaAcquireLock (call.t->writer, NULL, sextant__now (), w->def,
                                                            OTF2_UNDEFINED_UINT32, 0, OTF2_LOCK_SHARED),
                    "RMA_ACQUIRE_LOCK");
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Win_unlock_all (MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_UNLOCK_ALL))
    return PMPI_Win_unlock_all (win);
  w = win_get (win);
  rc = PMPI_Win_unlock_all (win);
  {
    uint64_t now = sextant__now ();

    sextant__rma_complete (call.t, now, w->def, SEXTANT__UNDEF, 0);
    SEXTANT__WRITE (call.t, OTF2_EvtWriter_RmaReleaseLock (call.t->writer, NULL, now, w->def,
                                                            OTF2_UNDEFINED_UINT32, 0), "RMA_RELEASE_LOCK");
  }
  sextant__end (&call);
  return rc;
}

/* FLUSH (ID, target or SEXTANT__UNDEF, local only?, PMPI call) */
#define FLUSH(ID, TARGET, LOCAL, CALL)                                        \
  sextant__call call;                                                         \
  int rc;                                                                     \
                                                                              \
  if (!SEXTANT__BEGIN (&call, ID))                                            \
    return CALL;                                                              \
  rc = CALL;                                                                  \
  {                                                                           \
    uint64_t now = sextant__now ();                                           \
                                                                              \
    sextant__rma_complete (call.t, now, win_get (win)->def, (TARGET), (LOCAL)); \
    SEXTANT__WRITE (call.t, OTF2_EvtWriter_Leave (call.t->writer, NULL, now, call.region), "LEAVE"); \
    call.t->busy = 0;                                                         \
  }                                                                           \
  return rc

SEXTANT__EXPORT int
MPI_Win_flush (int rank, MPI_Win win)
{
  FLUSH (WIN_FLUSH, (uint32_t) rank, 0, PMPI_Win_flush (rank, win));
}

SEXTANT__EXPORT int
MPI_Win_flush_all (MPI_Win win)
{
  FLUSH (WIN_FLUSH_ALL, SEXTANT__UNDEF, 0, PMPI_Win_flush_all (win));
}

SEXTANT__EXPORT int
MPI_Win_flush_local (int rank, MPI_Win win)
{
  FLUSH (WIN_FLUSH_LOCAL, (uint32_t) rank, 1, PMPI_Win_flush_local (rank, win));
}

SEXTANT__EXPORT int
MPI_Win_flush_local_all (MPI_Win win)
{
  FLUSH (WIN_FLUSH_LOCAL_ALL, SEXTANT__UNDEF, 1, PMPI_Win_flush_local_all (win));
}

SEXTANT__EXPORT int
MPI_Win_sync (MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_SYNC))
    return PMPI_Win_sync (win);
  w = win_get (win);
  rc = PMPI_Win_sync (win);
  SEXTANT__WRITE (call.t, OTF2_EvtWriter_RmaSync (call.t->writer, NULL, sextant__now (), w->def,
                                                   (uint32_t) w->rank, OTF2_RMA_SYNC_TYPE_MEMORY),
                  "RMA_SYNC");
  sextant__end (&call);
  return rc;
}

/* ---- active target synchronisation ---- */

SEXTANT__EXPORT int
MPI_Win_fence (int assert, MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_FENCE))
    return PMPI_Win_fence (assert, win);
  w = win_get (win);
  rma_coll_begin (&call);
  rc = PMPI_Win_fence (assert, win);
  {
    sextant__thread *t = call.t;
    uint64_t now = sextant__now ();

    sextant__rma_complete (t, now, w->def, SEXTANT__UNDEF, 0);
    SEXTANT__WRITE (t, OTF2_EvtWriter_RmaCollectiveEnd (t->writer, NULL, now, OTF2_COLLECTIVE_OP_BARRIER,
                                                         OTF2_RMA_SYNC_LEVEL_PROCESS
                                                         | OTF2_RMA_SYNC_LEVEL_MEMORY,
                                                         w->def, OTF2_UNDEFINED_UINT32, 0, 0),
                    "RMA_COLLECTIVE_END");
    SEXTANT__WRITE (t, OTF2_EvtWriter_Leave (t->writer, NULL, now, call.region), "LEAVE");
    t->busy = 0;
  }
  return rc;
}

/* The GROUP definition of @group's members (world ranks). */
static uint32_t
group_def (MPI_Group group)
{
  uint32_t *members;
  uint32_t id = SEXTANT__UNDEF;
  int n = 0;

  members = sextant__group_world_ranks (group, &n);
  if (members == NULL)
    return SEXTANT__UNDEF;
  pthread_mutex_lock (&sextant__rec.lock);
  id = sextant__def_group (&sextant__rec.defs, members, (uint32_t) n);
  pthread_mutex_unlock (&sextant__rec.lock);
  free (members);
  return id;
}

static void
group_sync (sextant__call     *call,
            sextant__win      *w,
            uint32_t           group,
            OTF2_RmaSyncLevel  level)
{
  SEXTANT__WRITE (call->t, OTF2_EvtWriter_RmaGroupSync (call->t->writer, NULL, sextant__now (), level,
                                                         w->def, group), "RMA_GROUP_SYNC");
}

SEXTANT__EXPORT int
MPI_Win_post (MPI_Group group, int assert, MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  uint32_t g;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_POST))
    return PMPI_Win_post (group, assert, win);
  w = win_get (win);
  g = group_def (group);
  rc = PMPI_Win_post (group, assert, win);
  if (rc == MPI_SUCCESS)
    {
      atomic_store (&w->post_group, g);
      group_sync (&call, w, g, OTF2_RMA_SYNC_LEVEL_PROCESS);
    }
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Win_start (MPI_Group group, int assert, MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  uint32_t g;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_START))
    return PMPI_Win_start (group, assert, win);
  w = win_get (win);
  g = group_def (group);
  rc = PMPI_Win_start (group, assert, win);
  if (rc == MPI_SUCCESS)
    {
      atomic_store (&w->start_group, g);
      group_sync (&call, w, g, OTF2_RMA_SYNC_LEVEL_PROCESS);
    }
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Win_complete (MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_COMPLETE))
    return PMPI_Win_complete (win);
  w = win_get (win);
  rc = PMPI_Win_complete (win);
  sextant__rma_complete (call.t, sextant__now (), w->def, SEXTANT__UNDEF, 0);
  if (rc == MPI_SUCCESS)
    group_sync (&call, w, atomic_load (&w->start_group),
                OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY);
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Win_wait (MPI_Win win)
{
  sextant__call call;
  sextant__win *w;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_WAIT))
    return PMPI_Win_wait (win);
  w = win_get (win);
  rc = PMPI_Win_wait (win);
  if (rc == MPI_SUCCESS)
    group_sync (&call, w, atomic_load (&w->post_group),
                OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY);
  sextant__end (&call);
  return rc;
}

SEXTANT__EXPORT int
MPI_Win_test (MPI_Win win, int *flag)
{
  sextant__call call;
  sextant__win *w;
  int rc;

  if (!SEXTANT__BEGIN (&call, WIN_TEST))
    return PMPI_Win_test (win, flag);
  w = win_get (win);
  rc = PMPI_Win_test (win, flag);
  if (rc == MPI_SUCCESS && *flag)
    group_sync (&call, w, atomic_load (&w->post_group),
                OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY);
  sextant__end (&call);
  return rc;
}
