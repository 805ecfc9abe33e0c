/* otf2gen-threads.h - threads-recv: two threads of one rank receive
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant-otf2gen threads-recv OUTDIR` writes rank 0 (one location) and
 * rank 1 with two threads (locations 1 and PL_THREAD1 | 1, both of process
 * 1; the communicator's rank 1 is location 1). Rank 0 sends
 * THREADS_RECV_MESSAGES messages with tag 0 on MPI_COMM_WORLD to rank 1;
 * rank 1's threads post the receives in turn (the main thread an
 * MPI_Irecv + MPI_Wait, the other thread a blocking MPI_Recv, then again),
 * so MPI gives the n-th message to the n-th receive posted: messages
 * 0, 2, 4, ... to location 1 and 1, 3, 5, ... to the thread, whatever order
 * the receives complete in (the thread's complete before the main
 * thread's earlier-posted ones).
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define THREADS_RECV_MESSAGES 6

gboolean sextant_otf2gen_threads_known (const char  *name);
gboolean sextant_otf2gen_threads       (const char  *name,
                                        const char  *outdir,
                                        gboolean     force,
                                        GError     **error);

G_END_DECLS
