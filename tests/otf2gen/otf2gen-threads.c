/* otf2gen-threads.c - the threads-recv, threads-colls, threads-wait and threads-nbc
 * scenarios (see otf2gen-threads.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "otf2gen-planted.h"
#include "otf2gen-threads.h"

#define TR_THREAD (PL_THREAD1 | 1)

/* Message n is sent at 100 + 100 n. Receive n is posted at 50 + 100 n: by
 * location 1 (MPI_Irecv; its MPI_Wait completes it at 100 n + 160, after
 * the thread's next receive) for even n, by the thread (MPI_Recv entered at
 * 50 + 100 n, done at 110 + 100 n) for odd n. */
static const PlLocation tr_locations[] = {
  { 0, 0, "MPI Rank 0", "Master thread" },
  { 1, 1, "MPI Rank 1", "Master thread" },
  { TR_THREAD, 1, "MPI Rank 1", "Thread 1" },
};

#define TR_SEND(n) PL_SEND_CALL (0, PL_MPI_SEND, 100 * (n) + 99, 100 * (n) + 100, 100 * (n) + 101, 1, 0, 8)
#define TR_IRECV(n) \
  PL_IRECV_CALL (1, 100 * (n) + 50, 100 * (n) + 50, 100 * (n) + 51, (n) + 1), \
  PL_WAIT_RECV (1, PL_MPI_WAIT, 100 * (n) + 155, 100 * (n) + 160, 100 * (n) + 161, 0, 0, 8, (n) + 1)
#define TR_RECV(n) PL_RECV_CALL (TR_THREAD, 100 * (n) + 50, 100 * (n) + 110, 100 * (n) + 111, 0, 0, 8)

static const PlEvent tr_events[] = {
  PL_CALL (0, PL_MAIN, 0, 1000),
  PL_CALL (1, PL_MAIN, 0, 1000),
  PL_CALL (TR_THREAD, PL_WORKER, 0, 1000),
  TR_SEND (0), TR_SEND (1), TR_SEND (2), TR_SEND (3), TR_SEND (4), TR_SEND (5),
  TR_IRECV (0), TR_RECV (1), TR_IRECV (2), TR_RECV (3), TR_IRECV (4), TR_RECV (5),
};

G_STATIC_ASSERT (THREADS_RECV_MESSAGES == 6);

static const PlCase tr_cases[] = {
  PL_CASE_NO_INSTANCE ("threads-recv", tr_events),
};

/* A scenario of 2 ranks at 1 MHz, every location from 0 to 1000 */
#define TH_SCENARIO(name, summary, locations, cases, dup_comm, nbc_comm) \
  { (name), (summary), 1000000, 2, (locations), G_N_ELEMENTS (locations), (cases), G_N_ELEMENTS (cases), \
    NULL, 0, NULL, G_N_ELEMENTS (locations) * 1000, (dup_comm), (nbc_comm) }

static const PlScenario tr_scenario =
  TH_SCENARIO ("threads-recv", "rank 1's two threads receive rank 0's messages in the order they posted",
               tr_locations, tr_cases, FALSE, FALSE);

/* threads-colls: rank r's threads are locations r and PL_THREAD1 | r; a
 * collective is called at t by rank 0 ([t, t + 10]) and at t + 2 by rank
 * 1 (see otf2gen-threads.h). */
#define TC_T0 (PL_THREAD1 | 0)
#define TC_T1 (PL_THREAD1 | 1)

static const PlLocation tc_locations[] = {
  { 0, 0, "MPI Rank 0", "Master thread" },
  { TC_T0, 0, "MPI Rank 0", "Thread 1" },
  { 1, 1, "MPI Rank 1", "Master thread" },
  { TC_T1, 1, "MPI Rank 1", "Thread 1" },
};

#define TC_CALL(loc, t, region, op, comm, root, sent, received) \
  PL_COLL_CALL (loc, region, t, (t) + 10, OTF2_COLLECTIVE_OP_##op, comm, root, sent, received)
#define TC_BARRIER(loc, t, comm) TC_CALL (loc, t, PL_MPI_BARRIER, BARRIER, comm, PL_NO_ROOT, 0, 0)
#define TC_ALLREDUCE(loc, t, comm) TC_CALL (loc, t, PL_MPI_ALLREDUCE, ALLREDUCE, comm, PL_NO_ROOT, 8, 8)
#define TC_BCAST(loc, t, comm, root, is_root) \
  TC_CALL (loc, t, PL_MPI_BCAST, BCAST, comm, root, (is_root) ? 8 : 0, (is_root) ? 0 : 8)

static const PlEvent tc_events[] = {
  PL_CALL (0, PL_MAIN, 0, 1000),
  PL_CALL (TC_T0, PL_WORKER, 0, 1000),
  PL_CALL (1, PL_MAIN, 0, 1000),
  PL_CALL (TC_T1, PL_WORKER, 0, 1000),
  /* rank 0 */
  TC_BARRIER (0, 10, PL_COMM_WORLD),                    /* W1 */
  TC_ALLREDUCE (0, 30, PL_COMM_DUP),                    /* D1 */
  TC_ALLREDUCE (TC_T0, 50, PL_COMM_WORLD),              /* W2 */
  TC_BCAST (TC_T0, 70, PL_COMM_DUP, 0, TRUE),           /* D2 */
  TC_BCAST (0, 100, PL_COMM_WORLD, 1, FALSE),           /* W3 */
  TC_BARRIER (TC_T0, 120, PL_COMM_WORLD),               /* W4 */
  TC_BARRIER (0, 150, PL_COMM_DUP),                     /* D3 */
  /* rank 1 */
  TC_BARRIER (1, 12, PL_COMM_WORLD),                    /* W1 */
  TC_ALLREDUCE (TC_T1, 32, PL_COMM_DUP),                /* D1 */
  TC_ALLREDUCE (1, 52, PL_COMM_WORLD),                  /* W2 */
  TC_BCAST (1, 72, PL_COMM_DUP, 0, FALSE),              /* D2 */
  TC_BCAST (TC_T1, 102, PL_COMM_WORLD, 1, TRUE),        /* W3 */
  TC_BARRIER (1, 122, PL_COMM_WORLD),                   /* W4 */
  TC_BARRIER (TC_T1, 152, PL_COMM_DUP),                 /* D3 */
};

G_STATIC_ASSERT (THREADS_COLLS_INSTANCES == 7);

static const PlCase tc_cases[] = {
  PL_CASE_NO_INSTANCE ("threads-colls", tc_events),
};

static const PlScenario tc_scenario =
  TH_SCENARIO ("threads-colls", "two threads per rank call collectives on two communicators, interleaved",
               tc_locations, tc_cases, TRUE, FALSE);

/* threads-wait: each rank's thread starts the requests, its main thread
 * completes them in an MPI_Waitall (see otf2gen-threads.h). Rank r's
 * threads are locations r and PL_THREAD1 | r; request ids 1-3 on both
 * ranks, and 1 again once completed. */
#define TW_T0 (PL_THREAD1 | 0)
#define TW_T1 (PL_THREAD1 | 1)

static const PlLocation tw_locations[] = {
  { 0, 0, "MPI Rank 0", "Master thread" },
  { TW_T0, 0, "MPI Rank 0", "Thread 1" },
  { 1, 1, "MPI Rank 1", "Master thread" },
  { TW_T1, 1, "MPI Rank 1", "Thread 1" },
};

#define TW_ISEND(t, req) PL_ISEND_CALL (TW_T0, PL_MPI_ISEND, (t) - 1, t, (t) + 1, 1, 0, 8, req)
#define TW_IRECV(t, req) PL_IRECV_CALL (TW_T1, (t) - 1, t, (t) + 1, req)
#define TW_SEND_DONE(t, req) PL_EV (0, t, PL_EV_MPI_ISEND_COMPLETE, 0, 0, 0, 0, 0, req)
#define TW_RECV_DONE(t, req) PL_IRECV_RECORD (1, t, 0, 0, 8, req)

static const PlEvent tw_events[] = {
  PL_CALL (TW_T0, PL_WORKER, 0, 1000),
  PL_CALL (TW_T1, PL_WORKER, 0, 1000),
  PL_ENTER (0, 0, PL_MAIN),
  PL_ENTER (1, 0, PL_MAIN),
  /* messages 0-2: sent at 10, 20, 30, posted at 20, 30, 40 */
  TW_ISEND (10, 1), TW_ISEND (20, 2), TW_ISEND (30, 3),
  TW_IRECV (20, 1), TW_IRECV (30, 2), TW_IRECV (40, 3),
  PL_ENTER (0, 100, PL_MPI_WAITALL),
  TW_SEND_DONE (101, 1), TW_SEND_DONE (102, 2), TW_SEND_DONE (103, 3),
  PL_LEAVE (0, 110, PL_MPI_WAITALL),
  PL_ENTER (1, 200, PL_MPI_WAITALL),
  TW_RECV_DONE (201, 1), TW_RECV_DONE (202, 2), TW_RECV_DONE (203, 3),
  PL_LEAVE (1, 210, PL_MPI_WAITALL),
  /* message 3: request 1 again */
  TW_ISEND (300, 1), TW_IRECV (310, 1),
  PL_ENTER (0, 400, PL_MPI_WAITALL), TW_SEND_DONE (401, 1), PL_LEAVE (0, 410, PL_MPI_WAITALL),
  PL_ENTER (1, 500, PL_MPI_WAITALL), TW_RECV_DONE (501, 1), PL_LEAVE (1, 510, PL_MPI_WAITALL),
  PL_LEAVE (0, 1000, PL_MAIN),
  PL_LEAVE (1, 1000, PL_MAIN),
};

G_STATIC_ASSERT (THREADS_WAIT_MESSAGES == 4);

static const PlCase tw_cases[] = {
  PL_CASE_NO_INSTANCE ("threads-wait", tw_events),
};

static const PlScenario tw_scenario =
  TH_SCENARIO ("threads-wait", "one thread per rank starts requests, the other completes them",
               tw_locations, tw_cases, FALSE, FALSE);

/* threads-nbc: rank 0's thread and rank 1's main thread start the
 * requests, the other thread of each rank completes or cancels them (see
 * otf2gen-threads.h). The locations are threads-wait's: rank r's threads
 * are r and PL_THREAD1 | r. */
#define TN_T0 TW_T0
#define TN_T1 TW_T1

#define TN_IBARRIER(loc, t) PL_NBC_POST_ON (loc, PL_MPI_IBARRIER, t, (t) + 1, PL_COMM_WORLD, 1)
#define TN_IALLREDUCE(loc, t) PL_NBC_POST_ON (loc, PL_MPI_IALLREDUCE, t, (t) + 1, PL_COMM_WORLD, 2)
#define TN_BARRIER_DONE(loc, t) \
  PL_EV (loc, t, PL_EV_NON_BLOCKING_COLLECTIVE_COMPLETE, PL_COMM_WORLD, PL_NO_ROOT, OTF2_COLLECTIVE_OP_BARRIER, 0, 0, 1)
#define TN_ALLREDUCE_DONE(loc, t) \
  PL_EV (loc, t, PL_EV_NON_BLOCKING_COLLECTIVE_COMPLETE, PL_COMM_WORLD, PL_NO_ROOT, OTF2_COLLECTIVE_OP_ALLREDUCE, \
         8, 8, 2)
#define TN_CANCEL(loc, t) \
  PL_ENTER (loc, (t) - 1, PL_MPI_WAIT), PL_EV (loc, t, PL_EV_MPI_REQUEST_CANCELLED, 0, 0, 0, 0, 0, 3), \
  PL_LEAVE (loc, (t) + 1, PL_MPI_WAIT)

static const PlEvent tn_events[] = {
  PL_CALL (TN_T0, PL_WORKER, 0, 1000),
  PL_CALL (TN_T1, PL_WORKER, 0, 1000),
  PL_ENTER (0, 0, PL_MAIN),
  PL_ENTER (1, 0, PL_MAIN),
  /* rank 0: its thread starts, its main thread completes */
  TN_IBARRIER (TN_T0, 10), TN_IALLREDUCE (TN_T0, 20),
  PL_IRECV_CALL (TN_T0, 29, 30, 31, 3),
  PL_ENTER (0, 100, PL_MPI_WAITALL),
  TN_ALLREDUCE_DONE (0, 101), TN_BARRIER_DONE (0, 102),
  PL_LEAVE (0, 110, PL_MPI_WAITALL),
  TN_CANCEL (0, 151),
  /* rank 1: its main thread starts, its thread completes */
  TN_IBARRIER (1, 12), TN_IALLREDUCE (1, 22),
  PL_ISEND_CALL (1, PL_MPI_ISEND, 31, 32, 33, 0, 0, 8, 3),
  PL_ENTER (TN_T1, 200, PL_MPI_WAITALL),
  TN_BARRIER_DONE (TN_T1, 201), TN_ALLREDUCE_DONE (TN_T1, 202),
  PL_LEAVE (TN_T1, 210, PL_MPI_WAITALL),
  TN_CANCEL (TN_T1, 251),
  PL_LEAVE (0, 1000, PL_MAIN),
  PL_LEAVE (1, 1000, PL_MAIN),
};

static const PlCase tn_cases[] = {
  PL_CASE_NO_INSTANCE ("threads-nbc", tn_events),
};

static const PlScenario tn_scenario =
  TH_SCENARIO ("threads-nbc", "one thread per rank starts non-blocking collectives, the other completes them",
               tw_locations, tn_cases, FALSE, TRUE);

static const PlScenario *
threads_scenario (const char *name)
{
  if (g_str_equal (name, tr_scenario.name))
    return &tr_scenario;
  if (g_str_equal (name, tc_scenario.name))
    return &tc_scenario;
  if (g_str_equal (name, tw_scenario.name))
    return &tw_scenario;
  if (g_str_equal (name, tn_scenario.name))
    return &tn_scenario;
  return NULL;
}

gboolean
sextant_otf2gen_threads_known (const char *name)
{
  return threads_scenario (name) != NULL;
}

/**
 * sextant_otf2gen_threads:
 * @name: "threads-recv", "threads-colls", "threads-wait" or "threads-nbc"
 *
 * Writes the scenario to @outdir/traces.otf2.
 *
 * Returns: %FALSE with @error set when writing fails
 */
gboolean
sextant_otf2gen_threads (const char  *name,
                         const char  *outdir,
                         gboolean     force,
                         GError     **error)
{
  g_return_val_if_fail (sextant_otf2gen_threads_known (name), FALSE);

  return sextant_otf2gen_planted (threads_scenario (name), outdir, force, error);
}
