/* otf2gen-threads.h - traces of processes with several threads
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
 *
 * `sextant-otf2gen threads-colls OUTDIR` writes ranks 0 and 1, each with
 * two threads (locations r and PL_THREAD1 | r), calling collectives on
 * MPI_COMM_WORLD and on a duplicate of it (PL_COMM_DUP) in interleaved
 * order, each process in the same order (MPI's: a communicator's
 * collectives match per process in the order the process calls them,
 * whichever thread calls them) but from other threads on the two ranks:
 *
 *   WORLD: W1 BARRIER, W2 ALLREDUCE, W3 BCAST (root 1), W4 BARRIER
 *   DUP:   D1 ALLREDUCE, D2 BCAST (root 0), D3 BARRIER
 *
 *   time     10   30   50   70   100  120  150
 *   call     W1   D1   W2   D2   W3   W4   D3
 *   rank 0   M    M    T    T    M    T    M
 *   rank 1   M    T    M    M    T    M    T
 *
 * (M: the main thread, T: the other; rank 1 calls 2 ticks later.) Each is
 * one instance of the two ranks' calls: THREADS_COLLS_INSTANCES instances
 * of 2 members, none incomplete or mismatched. Numbered per thread, they
 * would not match: rank 0's thread calls W2 as its first collective on
 * WORLD, rank 1's thread W3.
 *
 * `sextant-otf2gen threads-wait OUTDIR` writes ranks 0 and 1, each with two
 * threads (locations r and PL_THREAD1 | r). Rank 0's thread MPI_Isends
 * THREADS_WAIT_MESSAGES messages (tag 0, MPI_COMM_WORLD) to rank 1, whose
 * thread posts MPI_Irecvs; each rank's main thread completes the other
 * thread's requests in an MPI_Waitall. Request ids are 1, 2, 3 on both
 * ranks, then 1 again after its completion:
 *
 *   message  sent  send completed  posted  received
 *   0        10    101             20      201
 *   1        20    102             30      202
 *   2        30    103             40      203
 *   3        300   401             310     501
 *
 * OTF2 lets any location of a process complete a request: every message
 * has its send completion and its receive's post, and no request is
 * incomplete or unknown.
 *
 * `sextant-otf2gen threads-nbc OUTDIR` writes ranks 0 and 1, each with two
 * threads (locations r and PL_THREAD1 | r). Each rank starts an
 * MPI_Ibarrier (request 1) and an MPI_Iallreduce (request 2) on
 * MPI_COMM_WORLD, their requests naming the communicator (the attribute
 * Sextant's recorder writes), and the other thread completes them in an
 * MPI_Waitall - rank 0 in the opposite order. Rank 0's thread also posts an
 * MPI_Irecv (request 3) from rank 1, and rank 1's main thread an MPI_Isend
 * (request 3) to rank 0; the other thread of each rank records the
 * request's MPI_REQUEST_CANCELLED:
 *
 *   request            rank 0: started  completed       rank 1: started  completed
 *   1 Ibarrier         T 10             M 102           M 12             T 201
 *   2 Iallreduce       T 20             M 101           M 22             T 202
 *   3 Irecv / Isend    T 30             M 151 cancelled M 32             T 251 cancelled
 *
 * (M: the main thread, T: the other.) MPI matches the collectives in the
 * order they started: THREADS_NBC_INSTANCES instances of 2 members, each
 * member on the location that started it, from its start to its
 * completion; numbered where they complete, rank 0's would be ALLREDUCE
 * then BARRIER, rank 1's BARRIER then ALLREDUCE. The cancelled send and
 * receive never happened: no message, and no request incomplete or
 * unknown.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define THREADS_RECV_MESSAGES 6
#define THREADS_COLLS_INSTANCES 7
#define THREADS_WAIT_MESSAGES 4
#define THREADS_NBC_INSTANCES 2

gboolean sextant_otf2gen_threads_known (const char  *name);
/* @name: "threads-recv", "threads-colls", "threads-wait" or "threads-nbc" */
gboolean sextant_otf2gen_threads       (const char  *name,
                                        const char  *outdir,
                                        gboolean     force,
                                        GError     **error);

G_END_DECLS
