/* otf2gen-every-kind.c - writes the "every-kind" archive of otf2gen-every-kind.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every value written here comes from otf2gen-every-kind.h; this file only
 * decides which record carries it.  The trace is written phase by phase
 * (start-up, communicator split, point-to-point, collectives, threads, RMA,
 * shutdown); within a phase each location's records are written in time
 * order, which SextantGen verifies.  After the events, the definitions; at the
 * end each location's record count is checked against ek_locations[].
 */

#include "config.h"

#include "otf2gen-every-kind.h"
#include "otf2gen-scenarios.h"
#include "otf2gen-writer.h"

typedef struct
{
  SextantGen         *gen;
  SextantGenLocation *locs[EK_N_LOCATIONS];   /* in ek_locations[] order */
} EkWriter;

#define EV(w, loc, ts, Kind, ...) SEXTANT_GEN_EVENT ((w)->gen, (loc), (ts), Kind, ##__VA_ARGS__)

static SextantGenLocation *
ek_loc (EkWriter *w,
        uint64_t  id)
{
  for (guint i = 0; i < EK_N_LOCATIONS; i++)
    if (ek_locations[i].id == id)
      return w->locs[i];

  g_assert_not_reached ();
  return NULL;
}

/* The master thread of @rank. */
static SextantGenLocation *
ek_rank (EkWriter *w,
         guint     rank)
{
  g_assert (rank < EK_N_RANKS && ek_locations[rank].rank == rank && ek_locations[rank].thread == 0);

  return w->locs[rank];
}

static void
ek_enter (EkWriter           *w,
          SextantGenLocation *loc,
          uint64_t            ts,
          uint32_t            region)
{
  EV (w, loc, ts, Enter, region);
}

static void
ek_leave (EkWriter           *w,
          SextantGenLocation *loc,
          uint64_t            ts,
          uint32_t            region)
{
  EV (w, loc, ts, Leave, region);
}

static void
ek_all_ranks_enter (EkWriter *w,
                    uint64_t  ts,
                    uint32_t  region)
{
  for (guint r = 0; r < EK_N_RANKS; r++)
    ek_enter (w, ek_rank (w, r), ts, region);
}

static void
ek_all_ranks_leave (EkWriter *w,
                    uint64_t  ts,
                    uint32_t  region)
{
  for (guint r = 0; r < EK_N_RANKS; r++)
    ek_leave (w, ek_rank (w, r), ts, region);
}

static void
ek_write_metric (EkWriter *w,
                 uint64_t  ts,
                 uint64_t  instructions,
                 double    temperature)
{
  const OTF2_Type types[EK_N_METRIC_MEMBERS] = { OTF2_TYPE_UINT64, OTF2_TYPE_DOUBLE };
  OTF2_MetricValue values[EK_N_METRIC_MEMBERS];

  values[EK_METRIC_MEMBER_INSTRUCTIONS].unsigned_int = instructions;
  values[EK_METRIC_MEMBER_TEMPERATURE].floating_point = temperature;
  EV (w, ek_loc (w, EK_LOC_R0), ts, Metric, EK_METRIC_CLASS, EK_N_METRIC_MEMBERS, types, values);
}

/* Phase A: program begin, main, parameters, metric, calling contexts, measurement control. */
static void
ek_write_startup (EkWriter *w)
{
  SextantGenLocation *r0 = ek_loc (w, EK_LOC_R0);
  SextantGenLocation *r2 = ek_loc (w, EK_LOC_R2);
  SextantGenLocation *r3 = ek_loc (w, EK_LOC_R3);
  OTF2_StringRef args[2];

  args[0] = sextant_gen_string (w->gen, EK_PROGRAM_ARG0);
  args[1] = sextant_gen_string (w->gen, EK_PROGRAM_ARG1);
  for (guint r = 0; r < EK_N_RANKS; r++)
    EV (w, ek_rank (w, r), EK_PROGRAM_BEGIN_TS, ProgramBegin,
        sextant_gen_string (w->gen, EK_PROGRAM_NAME), G_N_ELEMENTS (args), args);
  ek_all_ranks_enter (w, EK_MAIN_ENTER_TS, EK_REGION_MAIN);

  ek_enter (w, r0, EK_SETUP_ENTER_TS, EK_REGION_SETUP);
  EV (w, r0, EK_PARAM_STRING_TS, ParameterString, EK_PARAM_INPUT_FILE,
      sextant_gen_string (w->gen, EK_PARAM_INPUT_FILE_VALUE));
  EV (w, r0, EK_PARAM_INT_TS, ParameterInt, EK_PARAM_LEVEL, EK_PARAM_LEVEL_VALUE);
  EV (w, r0, EK_PARAM_UINT_TS, ParameterUnsignedInt, EK_PARAM_ITERATIONS, EK_PARAM_ITERATIONS_VALUE);
  ek_write_metric (w, EK_METRIC0_TS, EK_METRIC0_INSTRUCTIONS, EK_METRIC0_TEMPERATURE);
  ek_leave (w, r0, EK_SETUP_LEAVE_TS, EK_REGION_SETUP);

  EV (w, r2, EK_CC_ENTER_TS, CallingContextEnter, EK_CC_KERNEL, EK_CC_ENTER_UNWIND);
  EV (w, r2, EK_CC_SAMPLE_TS, CallingContextSample, EK_CC_KERNEL, EK_CC_SAMPLE_UNWIND, EK_INTERRUPT_GENERATOR);
  EV (w, r2, EK_CC_LEAVE_TS, CallingContextLeave, EK_CC_KERNEL);

  EV (w, r3, EK_MEASUREMENT_OFF_TS, MeasurementOnOff, OTF2_MEASUREMENT_OFF);
  EV (w, r3, EK_MEASUREMENT_ON_TS, MeasurementOnOff, OTF2_MEASUREMENT_ON);
  EV (w, r3, EK_BUFFER_FLUSH_TS, BufferFlush, EK_BUFFER_FLUSH_STOP_TS);
}

/* The record a member writes between a collective's begin and end. */
static void
ek_write_inner (EkWriter           *w,
                SextantGenLocation *loc,
                EkInner             inner,
                uint64_t            ts,
                uint64_t            arg)
{
  switch (inner)
    {
    case EK_INNER_COMM_CREATE:
      EV (w, loc, ts, CommCreate, (OTF2_CommRef) arg);
      break;
    case EK_INNER_COMM_DESTROY:
      EV (w, loc, ts, CommDestroy, (OTF2_CommRef) arg);
      break;
    case EK_INNER_RMA_WIN_CREATE:
      EV (w, loc, ts, RmaWinCreate, (OTF2_RmaWinRef) arg);
      break;
    case EK_INNER_RMA_WIN_DESTROY:
      EV (w, loc, ts, RmaWinDestroy, (OTF2_RmaWinRef) arg);
      break;
    case EK_INNER_RMA_OP_COMPLETE_BLOCKING:
      EV (w, loc, ts, RmaOpCompleteBlocking, EK_WIN, arg);
      break;
    case EK_INNER_NONE:
    default:
      g_assert_not_reached ();
    }
}

/* A blocking MPI collective or an RMA collective: Enter, *_BEGIN, [inner], *_END, Leave. */
static void
ek_write_collective (EkWriter           *w,
                     const EkCollective *coll)
{
  gboolean rma = coll->win != EK_NO_WIN;

  g_assert (!coll->nonblocking);

  for (guint i = 0; i < coll->n_members; i++)
    {
      const EkCollectiveMember *m = &coll->members[i];
      SextantGenLocation *loc = ek_loc (w, m->location);

      ek_enter (w, loc, m->enter_ts, coll->region);
      if (rma)
        EV (w, loc, m->begin_ts, RmaCollectiveBegin);
      else
        EV (w, loc, m->begin_ts, MpiCollectiveBegin);
      if (m->inner_ts != 0)
        ek_write_inner (w, loc, coll->inner, m->inner_ts, m->inner_arg);
      if (rma)
        EV (w, loc, m->end_ts, RmaCollectiveEnd, coll->op, coll->sync_level, coll->win, coll->root,
            m->bytes_sent, m->bytes_received);
      else
        EV (w, loc, m->end_ts, MpiCollectiveEnd, coll->op, coll->comm, coll->root,
            m->bytes_sent, m->bytes_received);
      ek_leave (w, loc, m->leave_ts, coll->region);
    }
}

/* A non-blocking collective: the posting call with its request ... */
static void
ek_write_nbc_post (EkWriter           *w,
                   const EkCollective *coll)
{
  g_assert (coll->nonblocking);

  for (guint i = 0; i < coll->n_members; i++)
    {
      const EkCollectiveMember *m = &coll->members[i];
      SextantGenLocation *loc = ek_loc (w, m->location);

      ek_enter (w, loc, m->enter_ts, coll->region);
      EV (w, loc, m->begin_ts, NonBlockingCollectiveRequest, m->request);
      ek_leave (w, loc, m->post_leave_ts, coll->region);
    }
}

/* ... and the MPI_Wait that completes it. */
static void
ek_write_nbc_complete (EkWriter           *w,
                       const EkCollective *coll)
{
  for (guint i = 0; i < coll->n_members; i++)
    {
      const EkCollectiveMember *m = &coll->members[i];
      SextantGenLocation *loc = ek_loc (w, m->location);

      ek_enter (w, loc, m->wait_enter_ts, EK_REGION_MPI_WAIT);
      EV (w, loc, m->end_ts, NonBlockingCollectiveComplete, coll->op, coll->comm, coll->root,
          m->bytes_sent, m->bytes_received, m->request);
      ek_leave (w, loc, m->leave_ts, EK_REGION_MPI_WAIT);
    }
}

typedef struct
{
  const EkMessage     *msg;
  const EkMessageSide *side;
  gboolean             is_send;
} EkSideRef;

static int
ek_side_ref_compare (gconstpointer a,
                     gconstpointer b)
{
  const EkSideRef *sa = a;
  const EkSideRef *sb = b;

  return (sa->side->post.enter_ts > sb->side->post.enter_ts) -
         (sa->side->post.enter_ts < sb->side->post.enter_ts);
}

/* One side of a message: the posting call, an optional MPI_Test, and for
 * non-blocking sides the MPI_Wait that completes it. */
static void
ek_write_message_side (EkWriter        *w,
                       const EkSideRef *ref)
{
  const EkMessage *msg = ref->msg;
  const EkMessageSide *s = ref->side;
  SextantGenLocation *loc = ek_loc (w, s->location);
  gboolean blocking = s->mode == EK_MODE_BLOCKING;
  uint32_t region;

  if (ref->is_send)
    region = blocking ? EK_REGION_MPI_SEND : EK_REGION_MPI_ISEND;
  else
    region = blocking ? EK_REGION_MPI_RECV : EK_REGION_MPI_IRECV;

  ek_enter (w, loc, s->post.enter_ts, region);
  if (ref->is_send && blocking)
    EV (w, loc, s->post.event_ts, MpiSend, s->peer, msg->comm, msg->tag, msg->bytes);
  else if (ref->is_send)
    EV (w, loc, s->post.event_ts, MpiIsend, s->peer, msg->comm, msg->tag, msg->bytes, s->request);
  else if (blocking)
    EV (w, loc, s->post.event_ts, MpiRecv, s->peer, msg->comm, msg->tag, msg->bytes);
  else
    EV (w, loc, s->post.event_ts, MpiIrecvRequest, s->request);
  ek_leave (w, loc, s->post.leave_ts, region);

  if (s->test.enter_ts != 0)
    {
      ek_enter (w, loc, s->test.enter_ts, EK_REGION_MPI_TEST);
      EV (w, loc, s->test.event_ts, MpiRequestTest, s->request);
      ek_leave (w, loc, s->test.leave_ts, EK_REGION_MPI_TEST);
    }

  if (blocking)
    return;

  ek_enter (w, loc, s->wait.enter_ts, EK_REGION_MPI_WAIT);
  if (ref->is_send)
    EV (w, loc, s->wait.event_ts, MpiIsendComplete, s->request);
  else
    EV (w, loc, s->wait.event_ts, MpiIrecv, s->peer, msg->comm, msg->tag, msg->bytes, s->request);
  ek_leave (w, loc, s->wait.leave_ts, EK_REGION_MPI_WAIT);
}

/* Phase C: solver > halo_exchange > all message sides in time order, then
 * rank 2's cancelled receive. */
static void
ek_write_point_to_point (EkWriter *w)
{
  SextantGenLocation *r0 = ek_loc (w, EK_LOC_R0);
  SextantGenLocation *r2 = ek_loc (w, EK_LOC_R2);
  OTF2_AttributeList *attributes;
  EkSideRef refs[2 * EK_N_MESSAGES];
  guint n_refs = 0;

  /* Rank 0's ENTER solver carries the "iteration" attribute. */
  attributes = OTF2_AttributeList_New ();
  sextant_gen_check (w->gen, OTF2_AttributeList_AddUint32 (attributes, EK_ATTR_ITERATION, EK_ATTR_ITERATION_VALUE),
                     "OTF2_AttributeList_AddUint32");
  sextant_gen_event_done (w->gen, r0, EK_SOLVER_ENTER_TS,
                          OTF2_EvtWriter_Enter (r0->writer, attributes, EK_SOLVER_ENTER_TS, EK_REGION_SOLVER),
                          "Enter");
  OTF2_AttributeList_Delete (attributes);
  for (guint r = 1; r < EK_N_RANKS; r++)
    ek_enter (w, ek_rank (w, r), EK_SOLVER_ENTER_TS, EK_REGION_SOLVER);
  ek_all_ranks_enter (w, EK_HALO_ENTER_TS, EK_REGION_HALO_EXCHANGE);

  for (guint i = 0; i < EK_N_MESSAGES; i++)
    {
      const EkMessage *msg = &ek_messages[i];

      if (msg->send.location != EK_NO_LOCATION)
        refs[n_refs++] = (EkSideRef) { msg, &msg->send, TRUE };
      if (msg->recv.location != EK_NO_LOCATION)
        refs[n_refs++] = (EkSideRef) { msg, &msg->recv, FALSE };
    }
  /* Sides on one location never overlap, so ordering them by their first
   * timestamp orders every location's records. */
  qsort (refs, n_refs, sizeof refs[0], ek_side_ref_compare);
  for (guint i = 0; i < n_refs; i++)
    ek_write_message_side (w, &refs[i]);

  ek_enter (w, r2, EK_CANCEL_IRECV_ENTER_TS, EK_REGION_MPI_IRECV);
  EV (w, r2, EK_CANCEL_REQUEST_TS, MpiIrecvRequest, EK_CANCEL_REQUEST);
  ek_leave (w, r2, EK_CANCEL_IRECV_LEAVE_TS, EK_REGION_MPI_IRECV);
  ek_enter (w, r2, EK_CANCEL_CANCEL_ENTER_TS, EK_REGION_MPI_CANCEL);
  ek_leave (w, r2, EK_CANCEL_CANCEL_LEAVE_TS, EK_REGION_MPI_CANCEL);
  ek_enter (w, r2, EK_CANCEL_WAIT_ENTER_TS, EK_REGION_MPI_WAIT);
  EV (w, r2, EK_CANCEL_CANCELLED_TS, MpiRequestCancelled, EK_CANCEL_REQUEST);
  ek_leave (w, r2, EK_CANCEL_WAIT_LEAVE_TS, EK_REGION_MPI_WAIT);

  ek_all_ranks_leave (w, EK_HALO_LEAVE_TS, EK_REGION_HALO_EXCHANGE);
}

/* Phase D: the MPI collectives, still inside solver. */
static void
ek_write_collectives (EkWriter *w)
{
  ek_write_collective (w, &ek_collectives[EK_COLL_BARRIER]);
  ek_write_collective (w, &ek_collectives[EK_COLL_BCAST]);
  ek_write_collective (w, &ek_collectives[EK_COLL_REDUCE_SPLIT]);
  ek_write_collective (w, &ek_collectives[EK_COLL_ALLREDUCE_SELF_R0]);
  ek_write_collective (w, &ek_collectives[EK_COLL_ALLREDUCE_SELF_R2]);

  ek_all_ranks_enter (w, EK_GLOBAL_SUM_ENTER_TS, EK_REGION_GLOBAL_SUM);
  ek_write_collective (w, &ek_collectives[EK_COLL_ALLREDUCE]);
  ek_all_ranks_leave (w, EK_GLOBAL_SUM_LEAVE_TS, EK_REGION_GLOBAL_SUM);

  ek_write_nbc_post (w, &ek_collectives[EK_COLL_IALLREDUCE]);
  ek_all_ranks_enter (w, EK_KERNEL_ENTER_TS, EK_REGION_COMPUTE_KERNEL);
  ek_all_ranks_leave (w, EK_KERNEL_LEAVE_TS, EK_REGION_COMPUTE_KERNEL);
  ek_write_nbc_complete (w, &ek_collectives[EK_COLL_IALLREDUCE]);

  ek_write_collective (w, &ek_collectives[EK_COLL_COMM_FREE]);
}

static void
ek_write_thread_locks (EkWriter *w,
                       uint64_t  location,
                       gboolean  legacy)
{
  SextantGenLocation *loc = ek_loc (w, location);

  for (guint i = 0; i < EK_N_THREAD_LOCKS; i++)
    {
      const EkThreadLock *l = &ek_thread_locks[i];

      if (l->location != location || l->legacy != legacy)
        continue;

      if (legacy)
        {
          G_GNUC_BEGIN_IGNORE_DEPRECATIONS
          EV (w, loc, l->acquire_ts, OmpAcquireLock, l->lock_id, l->acquisition_order);
          EV (w, loc, l->release_ts, OmpReleaseLock, l->lock_id, l->acquisition_order);
          G_GNUC_END_IGNORE_DEPRECATIONS
        }
      else
        {
          EV (w, loc, l->acquire_ts, ThreadAcquireLock, OTF2_PARADIGM_OPENMP, l->lock_id, l->acquisition_order);
          EV (w, loc, l->release_ts, ThreadReleaseLock, OTF2_PARADIGM_OPENMP, l->lock_id, l->acquisition_order);
        }
    }
}

/* Phase E: rank 1 forks an OpenMP team with its thread location, twice (the
 * second time with OTF2's deprecated OMP_* records), then creates and joins a
 * pthread running worker() on the same thread location. */
static void
ek_write_threads (EkWriter *w)
{
  SextantGenLocation *r1 = ek_loc (w, EK_LOC_R1);
  SextantGenLocation *t1 = ek_loc (w, EK_LOC_R1_T1);

  EV (w, r1, EK_OMP_FORK_TS, ThreadFork, OTF2_PARADIGM_OPENMP, EK_OMP_THREADS);
  EV (w, r1, EK_OMP_TEAM_BEGIN_TS, ThreadTeamBegin, EK_COMM_OMP_TEAM);
  ek_enter (w, r1, EK_OMP_PARALLEL_ENTER_TS, EK_REGION_OMP_PARALLEL);
  ek_write_thread_locks (w, EK_LOC_R1, FALSE);
  EV (w, r1, EK_OMP_TASK_CREATE_TS, ThreadTaskCreate, EK_COMM_OMP_TEAM, EK_OMP_TASK_CREATOR,
      EK_OMP_TASK_GENERATION);
  ek_leave (w, r1, EK_OMP_PARALLEL_LEAVE_TS, EK_REGION_OMP_PARALLEL);
  EV (w, r1, EK_OMP_TEAM_END_TS, ThreadTeamEnd, EK_COMM_OMP_TEAM);
  EV (w, r1, EK_OMP_JOIN_TS, ThreadJoin, OTF2_PARADIGM_OPENMP);

  EV (w, t1, EK_OMP_TEAM_BEGIN_TS, ThreadTeamBegin, EK_COMM_OMP_TEAM);
  ek_enter (w, t1, EK_OMP_PARALLEL_ENTER_TS, EK_REGION_OMP_PARALLEL);
  ek_write_thread_locks (w, EK_LOC_R1_T1, FALSE);
  EV (w, t1, EK_OMP_TASK_SWITCH_TS, ThreadTaskSwitch, EK_COMM_OMP_TEAM, EK_OMP_TASK_CREATOR,
      EK_OMP_TASK_GENERATION);
  ek_enter (w, t1, EK_OMP_TASK_ENTER_TS, EK_REGION_OMP_TASK);
  ek_leave (w, t1, EK_OMP_TASK_LEAVE_TS, EK_REGION_OMP_TASK);
  EV (w, t1, EK_OMP_TASK_COMPLETE_TS, ThreadTaskComplete, EK_COMM_OMP_TEAM, EK_OMP_TASK_CREATOR,
      EK_OMP_TASK_GENERATION);
  ek_leave (w, t1, EK_OMP_PARALLEL_LEAVE_TS, EK_REGION_OMP_PARALLEL);
  EV (w, t1, EK_OMP_TEAM_END_TS, ThreadTeamEnd, EK_COMM_OMP_TEAM);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  EV (w, r1, EK_LEGACY_FORK_TS, OmpFork, EK_OMP_THREADS);
  ek_enter (w, r1, EK_LEGACY_PARALLEL_ENTER_TS, EK_REGION_OMP_PARALLEL);
  ek_write_thread_locks (w, EK_LOC_R1, TRUE);
  EV (w, r1, EK_LEGACY_TASK_CREATE_TS, OmpTaskCreate, EK_LEGACY_TASK_ID);
  ek_leave (w, r1, EK_LEGACY_PARALLEL_LEAVE_TS, EK_REGION_OMP_PARALLEL);
  EV (w, r1, EK_LEGACY_JOIN_TS, OmpJoin);

  ek_enter (w, t1, EK_LEGACY_PARALLEL_ENTER_TS, EK_REGION_OMP_PARALLEL);
  ek_write_thread_locks (w, EK_LOC_R1_T1, TRUE);
  EV (w, t1, EK_LEGACY_TASK_SWITCH_TS, OmpTaskSwitch, EK_LEGACY_TASK_ID);
  ek_enter (w, t1, EK_LEGACY_TASK_ENTER_TS, EK_REGION_OMP_TASK);
  ek_leave (w, t1, EK_LEGACY_TASK_LEAVE_TS, EK_REGION_OMP_TASK);
  EV (w, t1, EK_LEGACY_TASK_COMPLETE_TS, OmpTaskComplete, EK_LEGACY_TASK_ID);
  ek_leave (w, t1, EK_LEGACY_PARALLEL_LEAVE_TS, EK_REGION_OMP_PARALLEL);
  G_GNUC_END_IGNORE_DEPRECATIONS

  ek_enter (w, r1, EK_PTHREAD_CREATE_ENTER_TS, EK_REGION_PTHREAD_CREATE);
  EV (w, r1, EK_THREAD_CREATE_TS, ThreadCreate, EK_COMM_PTHREAD, EK_THREAD_SEQUENCE);
  ek_leave (w, r1, EK_PTHREAD_CREATE_LEAVE_TS, EK_REGION_PTHREAD_CREATE);
  ek_enter (w, r1, EK_PTHREAD_JOIN_ENTER_TS, EK_REGION_PTHREAD_JOIN);
  EV (w, r1, EK_THREAD_WAIT_TS, ThreadWait, EK_COMM_PTHREAD, EK_THREAD_SEQUENCE);
  ek_leave (w, r1, EK_PTHREAD_JOIN_LEAVE_TS, EK_REGION_PTHREAD_JOIN);

  EV (w, t1, EK_THREAD_BEGIN_TS, ThreadBegin, EK_COMM_PTHREAD, EK_THREAD_SEQUENCE);
  ek_enter (w, t1, EK_WORKER_ENTER_TS, EK_REGION_WORKER);
  ek_leave (w, t1, EK_WORKER_LEAVE_TS, EK_REGION_WORKER);
  EV (w, t1, EK_THREAD_END_TS, ThreadEnd, EK_COMM_PTHREAD, EK_THREAD_SEQUENCE);
}

/* The MPI call that issues an RMA operation. */
static void
ek_write_rma_issue (EkWriter      *w,
                    const EkRmaOp *op)
{
  SextantGenLocation *loc = ek_loc (w, op->origin);

  ek_enter (w, loc, op->issue.enter_ts, op->region);
  switch (op->kind)
    {
    case EK_RMA_PUT:
      EV (w, loc, op->issue.event_ts, RmaPut, EK_WIN, op->target, op->bytes_sent, op->matching_id);
      break;
    case EK_RMA_GET:
      EV (w, loc, op->issue.event_ts, RmaGet, EK_WIN, op->target, op->bytes_received, op->matching_id);
      break;
    case EK_RMA_ATOMIC:
      EV (w, loc, op->issue.event_ts, RmaAtomic, EK_WIN, op->target, op->atomic_type,
          op->bytes_sent, op->bytes_received, op->matching_id);
      break;
    default:
      g_assert_not_reached ();
    }
  ek_leave (w, loc, op->issue.leave_ts, op->region);
}

/* The record completing an RMA operation (inside whatever call the caller is in). */
static void
ek_write_rma_completion (EkWriter      *w,
                         const EkRmaOp *op)
{
  SextantGenLocation *loc = ek_loc (w, op->origin);

  switch (op->completion)
    {
    case EK_COMPLETE_BLOCKING:
      EV (w, loc, op->complete_ts, RmaOpCompleteBlocking, EK_WIN, op->matching_id);
      break;
    case EK_COMPLETE_NON_BLOCKING:
      EV (w, loc, op->complete_ts, RmaOpCompleteNonBlocking, EK_WIN, op->matching_id);
      break;
    case EK_COMPLETE_REMOTE:
      EV (w, loc, op->complete_ts, RmaOpCompleteRemote, EK_WIN, op->matching_id);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
ek_write_rma_lock (EkWriter        *w,
                   const EkRmaLock *lock)
{
  SextantGenLocation *loc = ek_loc (w, lock->location);

  ek_enter (w, loc, lock->lock.enter_ts, EK_REGION_MPI_WIN_LOCK);
  if (lock->try_ts != 0)
    EV (w, loc, lock->try_ts, RmaTryLock, EK_WIN, lock->target, lock->lock_id, lock->type);
  EV (w, loc, lock->lock.event_ts, RmaRequestLock, EK_WIN, lock->target, lock->lock_id, lock->type);
  EV (w, loc, lock->acquire_ts, RmaAcquireLock, EK_WIN, lock->target, lock->lock_id, lock->type);
  ek_leave (w, loc, lock->lock.leave_ts, EK_REGION_MPI_WIN_LOCK);
}

static void
ek_write_rma_unlock (EkWriter        *w,
                     const EkRmaLock *lock)
{
  SextantGenLocation *loc = ek_loc (w, lock->location);

  ek_enter (w, loc, lock->unlock.enter_ts, EK_REGION_MPI_WIN_UNLOCK);
  EV (w, loc, lock->unlock.event_ts, RmaReleaseLock, EK_WIN, lock->target, lock->lock_id);
  ek_leave (w, loc, lock->unlock.leave_ts, EK_REGION_MPI_WIN_UNLOCK);
}

/* An MPI call holding one RMA record, e.g. MPI_Win_post with RMA_GROUP_SYNC. */
static void
ek_write_group_sync_call (EkWriter           *w,
                          SextantGenLocation *loc,
                          uint32_t            region,
                          uint64_t            enter_ts,
                          uint64_t            sync_ts,
                          OTF2_RmaSyncLevel   level,
                          uint32_t            group,
                          uint64_t            leave_ts)
{
  ek_enter (w, loc, enter_ts, region);
  EV (w, loc, sync_ts, RmaGroupSync, level, EK_WIN, group);
  ek_leave (w, loc, leave_ts, region);
}

/* Phase F: one window, fence epoch, passive target on rank 3, PSCW 2 -> 3. */
static void
ek_write_rma (EkWriter *w)
{
  SextantGenLocation *r0 = ek_loc (w, EK_LOC_R0);
  SextantGenLocation *r2 = ek_loc (w, EK_LOC_R2);
  SextantGenLocation *r3 = ek_loc (w, EK_LOC_R3);
  const EkRmaOp *rput = &ek_rma_ops[EK_RMA_OP4];

  ek_all_ranks_enter (w, EK_RMA_EPOCH_ENTER_TS, EK_REGION_RMA_EPOCH);
  ek_write_collective (w, &ek_rma_collectives[EK_RMA_WIN_CREATE]);
  ek_write_collective (w, &ek_rma_collectives[EK_RMA_FENCE1]);
  ek_write_rma_issue (w, &ek_rma_ops[EK_RMA_OP1]);
  ek_write_rma_issue (w, &ek_rma_ops[EK_RMA_OP2]);
  ek_write_collective (w, &ek_rma_collectives[EK_RMA_FENCE2]);   /* completes ops 1 and 2 */

  /* Rank 0: exclusive lock on rank 3, accumulate, Rput + test + wait, flush, unlock. */
  ek_write_rma_lock (w, &ek_rma_locks[0]);
  ek_write_rma_issue (w, &ek_rma_ops[EK_RMA_OP3]);
  ek_write_rma_issue (w, rput);
  ek_enter (w, r0, EK_RPUT_TEST_ENTER_TS, EK_REGION_MPI_TEST);
  EV (w, r0, rput->test_ts, RmaOpTest, EK_WIN, rput->matching_id);
  ek_leave (w, r0, EK_RPUT_TEST_LEAVE_TS, EK_REGION_MPI_TEST);
  ek_enter (w, r0, EK_RPUT_WAIT_ENTER_TS, EK_REGION_MPI_WAIT);
  ek_write_rma_completion (w, rput);
  ek_leave (w, r0, EK_RPUT_WAIT_LEAVE_TS, EK_REGION_MPI_WAIT);
  ek_enter (w, r0, EK_FLUSH_ENTER_TS, EK_REGION_MPI_WIN_FLUSH);
  EV (w, r0, EK_RMA_SYNC_TS, RmaSync, EK_WIN, EK_FLUSH_TARGET, OTF2_RMA_SYNC_TYPE_MEMORY);
  ek_write_rma_completion (w, &ek_rma_ops[EK_RMA_OP3]);
  ek_leave (w, r0, EK_FLUSH_LEAVE_TS, EK_REGION_MPI_WIN_FLUSH);
  ek_write_rma_unlock (w, &ek_rma_locks[0]);

  /* Rank 1: failed shared try-lock, then waits for rank 0's unlock. */
  ek_write_rma_lock (w, &ek_rma_locks[1]);
  ek_write_rma_unlock (w, &ek_rma_locks[1]);

  /* Rank 3 exposes its window to rank 2; rank 2 accesses it. */
  ek_write_group_sync_call (w, r3, EK_REGION_MPI_WIN_POST, EK_WIN_POST_ENTER_TS, EK_WIN_POST_SYNC_TS,
                            OTF2_RMA_SYNC_LEVEL_PROCESS, EK_GROUP_PEER_R2, EK_WIN_POST_LEAVE_TS);
  ek_write_group_sync_call (w, r3, EK_REGION_MPI_WIN_WAIT, EK_WIN_WAIT_ENTER_TS, EK_WIN_WAIT_SYNC_TS,
                            EK_FENCE_SYNC, EK_GROUP_PEER_R2, EK_WIN_WAIT_LEAVE_TS);
  ek_write_group_sync_call (w, r2, EK_REGION_MPI_WIN_START, EK_WIN_START_ENTER_TS, EK_WIN_START_SYNC_TS,
                            OTF2_RMA_SYNC_LEVEL_PROCESS, EK_GROUP_PEER_R3, EK_WIN_START_LEAVE_TS);
  ek_write_rma_issue (w, &ek_rma_ops[EK_RMA_OP5]);
  ek_enter (w, r2, EK_WIN_COMPLETE_ENTER_TS, EK_REGION_MPI_WIN_COMPLETE);
  ek_write_rma_completion (w, &ek_rma_ops[EK_RMA_OP5]);
  EV (w, r2, EK_WIN_COMPLETE_SYNC_TS, RmaGroupSync, EK_FENCE_SYNC, EK_WIN, EK_GROUP_PEER_R3);
  ek_leave (w, r2, EK_WIN_COMPLETE_LEAVE_TS, EK_REGION_MPI_WIN_COMPLETE);

  ek_enter (w, r2, EK_WAIT_FLAG_ENTER_TS, EK_REGION_WAIT_FOR_FLAG);
  EV (w, r2, EK_WAIT_CHANGE_TS, RmaWaitChange, EK_WIN);
  ek_leave (w, r2, EK_WAIT_FLAG_LEAVE_TS, EK_REGION_WAIT_FOR_FLAG);

  ek_write_collective (w, &ek_rma_collectives[EK_RMA_WIN_FREE]);
  ek_all_ranks_leave (w, EK_RMA_EPOCH_LEAVE_TS, EK_REGION_RMA_EPOCH);
}

/* Phase G. */
static void
ek_write_shutdown (EkWriter *w)
{
  ek_write_metric (w, EK_METRIC1_TS, EK_METRIC1_INSTRUCTIONS, EK_METRIC1_TEMPERATURE);
  ek_all_ranks_leave (w, EK_MAIN_LEAVE_TS, EK_REGION_MAIN);
  for (guint r = 0; r < EK_N_RANKS; r++)
    EV (w, ek_rank (w, r), EK_PROGRAM_END_TS, ProgramEnd, EK_PROGRAM_EXIT_STATUS);
}

static void
ek_write_system_definitions (EkWriter *w)
{
  SextantGen *gen = w->gen;

  sextant_gen_write_clock (gen, EK_TIMER_RESOLUTION, EK_GLOBAL_OFFSET, EK_TRACE_LENGTH, EK_REALTIME_NS);
  SEXTANT_GEN_DEF (gen, Paradigm, OTF2_PARADIGM_MPI, sextant_gen_string (gen, "MPI"),
                   OTF2_PARADIGM_CLASS_PROCESS);
  SEXTANT_GEN_DEF (gen, Paradigm, OTF2_PARADIGM_OPENMP, sextant_gen_string (gen, "OpenMP"),
                   OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
  SEXTANT_GEN_DEF (gen, Paradigm, OTF2_PARADIGM_PTHREAD, sextant_gen_string (gen, "POSIX threads"),
                   OTF2_PARADIGM_CLASS_THREAD_CREATE_WAIT);
  SEXTANT_GEN_DEF (gen, Attribute, EK_ATTR_ITERATION, sextant_gen_string (gen, "iteration"),
                   sextant_gen_string (gen, "solver iteration of this visit"), OTF2_TYPE_UINT32);

  for (guint i = 0; i < EK_N_SYSTEM_TREE_NODES; i++)
    {
      const EkSystemTreeNode *n = &ek_system_tree[i];

      g_assert (n->id == i);
      SEXTANT_GEN_DEF (gen, SystemTreeNode, n->id, sextant_gen_string (gen, n->name),
                       sextant_gen_string (gen, n->class_name), n->parent);
    }

  for (guint r = 0; r < EK_N_RANKS; r++)
    {
      g_autofree char *name = g_strdup_printf ("MPI Rank %u", r);

      SEXTANT_GEN_DEF (gen, LocationGroup, r, sextant_gen_string (gen, name),
                       OTF2_LOCATION_GROUP_TYPE_PROCESS, ek_rank_node[r], OTF2_UNDEFINED_LOCATION_GROUP);
    }

  for (guint i = 0; i < EK_N_LOCATIONS; i++)
    {
      const EkLocation *l = &ek_locations[i];

      SEXTANT_GEN_DEF (gen, Location, l->id, sextant_gen_string (gen, l->name),
                       OTF2_LOCATION_TYPE_CPU_THREAD, w->locs[i]->n_events, l->rank);
    }
}

static void
ek_write_code_definitions (EkWriter *w)
{
  SextantGen *gen = w->gen;
  const char *scl_files[EK_N_SCLS] = { EK_FILE_MAIN, EK_FILE_SOLVER, EK_FILE_SOLVER };
  const uint32_t cc_regions[EK_N_CALLING_CONTEXTS] = { EK_REGION_MAIN, EK_REGION_SOLVER, EK_REGION_COMPUTE_KERNEL };
  const uint32_t cp_regions[EK_N_CALLPATHS] = { EK_REGION_MAIN, EK_REGION_SOLVER, EK_REGION_HALO_EXCHANGE };

  for (guint i = 0; i < EK_N_REGIONS; i++)
    {
      const EkRegion *r = &ek_regions[i];
      OTF2_StringRef name = sextant_gen_string (gen, r->name);

      g_assert (r->id == i);
      SEXTANT_GEN_DEF (gen, Region, r->id, name, name, sextant_gen_string (gen, ""), r->role, r->paradigm,
                       OTF2_REGION_FLAG_NONE, sextant_gen_string_or_undef (gen, r->file),
                       r->begin_line, r->end_line);
    }

  /* Each callpath, source code location and calling context has the previous one as parent. */
  for (guint i = 0; i < EK_N_CALLPATHS; i++)
    SEXTANT_GEN_DEF (gen, Callpath, i, i == 0 ? OTF2_UNDEFINED_CALLPATH : i - 1, cp_regions[i]);

  for (guint i = 0; i < EK_N_SCLS; i++)
    SEXTANT_GEN_DEF (gen, SourceCodeLocation, i, sextant_gen_string (gen, scl_files[i]), ek_scl_lines[i]);

  for (guint i = 0; i < EK_N_CALLING_CONTEXTS; i++)
    SEXTANT_GEN_DEF (gen, CallingContext, i, cc_regions[i], i,
                     i == 0 ? OTF2_UNDEFINED_CALLING_CONTEXT : i - 1);

  SEXTANT_GEN_DEF (gen, InterruptGenerator, EK_INTERRUPT_GENERATOR, sextant_gen_string (gen, "itimer"),
                   OTF2_INTERRUPT_GENERATOR_MODE_TIME, OTF2_BASE_DECIMAL, -9, EK_INTERRUPT_PERIOD_NS);
}

static void
ek_write_comm_definitions (EkWriter *w)
{
  SextantGen *gen = w->gen;

  for (guint i = 0; i < EK_N_GROUPS; i++)
    {
      const EkGroup *g = &ek_groups[i];

      g_assert (g->id == i);
      SEXTANT_GEN_DEF (gen, Group, g->id, sextant_gen_string (gen, g->name), g->type, g->paradigm,
                       OTF2_GROUP_FLAG_NONE, g->n_members, g->members);
    }

  for (guint i = 0; i < EK_N_COMMS; i++)
    {
      const EkComm *c = &ek_comms[i];

      g_assert (c->id == i);
      SEXTANT_GEN_DEF (gen, Comm, c->id, sextant_gen_string (gen, c->name), c->group, c->parent, c->flags);
    }

  SEXTANT_GEN_DEF (gen, RmaWin, EK_WIN, sextant_gen_string (gen, EK_WIN_NAME), EK_COMM_WORLD,
                   OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
}

static void
ek_write_metric_definitions (EkWriter *w)
{
  SextantGen *gen = w->gen;
  const OTF2_MetricMemberRef members[EK_N_METRIC_MEMBERS] = {
    EK_METRIC_MEMBER_INSTRUCTIONS, EK_METRIC_MEMBER_TEMPERATURE
  };

  SEXTANT_GEN_DEF (gen, MetricMember, EK_METRIC_MEMBER_INSTRUCTIONS,
                   sextant_gen_string (gen, EK_METRIC_INSTRUCTIONS_NAME),
                   sextant_gen_string (gen, "instructions completed"), OTF2_METRIC_TYPE_PAPI,
                   OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0,
                   sextant_gen_string (gen, "#"));
  SEXTANT_GEN_DEF (gen, MetricMember, EK_METRIC_MEMBER_TEMPERATURE,
                   sextant_gen_string (gen, EK_METRIC_TEMPERATURE_NAME),
                   sextant_gen_string (gen, "package temperature"), OTF2_METRIC_TYPE_OTHER,
                   OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0,
                   sextant_gen_string (gen, "degC"));
  SEXTANT_GEN_DEF (gen, MetricClass, EK_METRIC_CLASS, EK_N_METRIC_MEMBERS, members,
                   OTF2_METRIC_SYNCHRONOUS, OTF2_RECORDER_KIND_CPU);
  SEXTANT_GEN_DEF (gen, MetricClassRecorder, EK_METRIC_CLASS, EK_LOC_R0);

  SEXTANT_GEN_DEF (gen, Parameter, EK_PARAM_INPUT_FILE, sextant_gen_string (gen, "input_file"),
                   OTF2_PARAMETER_TYPE_STRING);
  SEXTANT_GEN_DEF (gen, Parameter, EK_PARAM_LEVEL, sextant_gen_string (gen, "level"),
                   OTF2_PARAMETER_TYPE_INT64);
  SEXTANT_GEN_DEF (gen, Parameter, EK_PARAM_ITERATIONS, sextant_gen_string (gen, "iterations"),
                   OTF2_PARAMETER_TYPE_UINT64);
}

static void
ek_check_counts (EkWriter *w)
{
  guint64 total = 0;

  for (guint i = 0; i < EK_N_LOCATIONS; i++)
    {
      if (w->locs[i]->n_events != ek_locations[i].n_events)
        sextant_gen_fail (w->gen, SEXTANT_GEN_ERROR_COUNT,
                          "location %" G_GUINT64_FORMAT ": wrote %" G_GUINT64_FORMAT
                          " records, otf2gen-every-kind.h expects %" G_GUINT64_FORMAT,
                          (guint64) ek_locations[i].id, w->locs[i]->n_events,
                          (guint64) ek_locations[i].n_events);
      total += w->locs[i]->n_events;
    }

  if (total != EK_N_EVENTS)
    sextant_gen_fail (w->gen, SEXTANT_GEN_ERROR_COUNT,
                      "wrote %" G_GUINT64_FORMAT " records, EK_N_EVENTS is %d", total, EK_N_EVENTS);
}

gboolean
sextant_otf2gen_every_kind (const char  *outdir,
                            gboolean     force,
                            GError     **error)
{
  g_autoptr(SextantGen) gen = NULL;
  EkWriter w = { 0 };

  if (!(gen = sextant_gen_new (outdir, "traces", force, error)))
    return FALSE;

  w.gen = gen;
  for (guint i = 0; i < EK_N_LOCATIONS; i++)
    w.locs[i] = sextant_gen_add_location (gen, ek_locations[i].id);

  ek_write_startup (&w);
  ek_write_collective (&w, &ek_collectives[EK_COLL_COMM_SPLIT]);
  ek_write_point_to_point (&w);
  ek_write_collectives (&w);
  ek_all_ranks_leave (&w, EK_SOLVER_LEAVE_TS, EK_REGION_SOLVER);
  ek_write_threads (&w);
  ek_write_rma (&w);
  ek_write_shutdown (&w);
  ek_check_counts (&w);

  sextant_gen_begin_definitions (gen);
  ek_write_system_definitions (&w);
  ek_write_code_definitions (&w);
  ek_write_comm_definitions (&w);
  ek_write_metric_definitions (&w);

  return sextant_gen_finish (gen, error);
}

/* Prints "LOCATION KIND COUNT" for every non-zero entry of ek_kind_counts[],
 * the format tests/otf2gen/check-kind-counts.py compares with otf2-print. */
void
sextant_otf2gen_every_kind_expect (FILE *out)
{
  for (guint k = 0; k < EK_N_KINDS; k++)
    for (guint i = 0; i < EK_N_LOCATIONS; i++)
      if (ek_kind_counts[k].count[i] != 0)
        fprintf (out, "%" G_GUINT64_FORMAT " %s %u\n",
                 (guint64) ek_locations[i].id, ek_kind_counts[k].kind, ek_kind_counts[k].count[i]);
}
