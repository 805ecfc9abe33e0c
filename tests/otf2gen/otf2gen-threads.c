/* otf2gen-threads.c - the threads-recv scenario (see otf2gen-threads.h)
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

static const PlScenario tr_scenario = {
  "threads-recv", "rank 1's two threads receive rank 0's messages in the order they posted",
  1000000, 2, tr_locations, G_N_ELEMENTS (tr_locations), tr_cases, G_N_ELEMENTS (tr_cases),
  NULL, 0, NULL, 3 * 1000,
};

gboolean
sextant_otf2gen_threads_known (const char *name)
{
  return g_str_equal (name, tr_scenario.name);
}

/**
 * sextant_otf2gen_threads:
 * @name: "threads-recv"
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

  return sextant_otf2gen_planted (&tr_scenario, outdir, force, error);
}
