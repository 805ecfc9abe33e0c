/* otf2gen-threads.c - the threads-recv and threads-colls scenarios (see
 * otf2gen-threads.h)
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
#define TH_SCENARIO(name, summary, locations, cases, dup_comm) \
  { (name), (summary), 1000000, 2, (locations), G_N_ELEMENTS (locations), (cases), G_N_ELEMENTS (cases), \
    NULL, 0, NULL, G_N_ELEMENTS (locations) * 1000, (dup_comm) }

static const PlScenario tr_scenario =
  TH_SCENARIO ("threads-recv", "rank 1's two threads receive rank 0's messages in the order they posted",
               tr_locations, tr_cases, FALSE);

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
               tc_locations, tc_cases, TRUE);

static const PlScenario *
threads_scenario (const char *name)
{
  if (g_str_equal (name, tr_scenario.name))
    return &tr_scenario;
  if (g_str_equal (name, tc_scenario.name))
    return &tc_scenario;
  return NULL;
}

gboolean
sextant_otf2gen_threads_known (const char *name)
{
  return threads_scenario (name) != NULL;
}

/**
 * sextant_otf2gen_threads:
 * @name: "threads-recv" or "threads-colls"
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
