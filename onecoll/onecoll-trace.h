/*
 * onecoll-trace.h - instrumentation hooks for tracers (the Sextant recorder).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * onecoll reports the regions of its own code - the broadcast, the put loop,
 * each request, the Broadcaster's waiting and relaying - through a small
 * table of function pointers, so that a recorder can write them as OTF2
 * region enter/leave events with their source location. This is not part of
 * the application API (onecoll.h); it is the contract between onecoll and
 * the tools that trace it.
 *
 * Regions (id, name, thread, what it covers):
 *
 *   INIT               main         onecoll_init()
 *   FINALIZE           main         onecoll_finalize()
 *   WIN_CREATE         main         onecoll_win_create()
 *   WIN_FREE           main         onecoll_win_free()
 *   BCAST              main         onecoll_bcast() (argument errors return
 *                                   before it is entered)
 *   WAIT_RELEASE       main         inside BCAST at the root: waiting until
 *                                   every rank released the previous
 *                                   broadcast on the window (spec step 1)
 *   PUT_LOOP           main, bcaster  the loop over a node's children
 *                                   (binomial) or over all ranks (linear)
 *   PUT_REQUEST        main, bcaster  delivery to one target: binomial =
 *                                   descriptor and data (one put), flush,
 *                                   flag (up to 4 KiB with siblings, the
 *                                   data of all of them comes first in
 *                                   PUT_LOOP and this is the flag only);
 *                                   linear = the data put only
 *                                   (info.peer = target)
 *   BROADCASTER_POLL   bcaster      one stretch of waiting for requests: from
 *                                   the end of the previous relay (or thread
 *                                   start) until a request is seen (or stop)
 *   BROADCASTER_RELAY  bcaster, main  handling of one request that reached
 *                                   this rank: PUT_LOOP to the children, then
 *                                   the arrival and done counters
 *                                   (info.peer = the parent). On the
 *                                   Broadcaster, or (ONECOLL_RELAY_WAITER)
 *                                   on an application thread that waits in
 *                                   onecoll, nested in its FLUSH, TEST or
 *                                   WAIT_RELEASE - whichever claimed it
 *   FLUSH              main         onecoll_bcast_flush(), and the completion
 *                                   of the previous broadcast inside
 *                                   onecoll_bcast() and onecoll_win_free()
 *   TEST               main         onecoll_bcast_test()
 *   HELP_RELAY         main         at the root of a binomial broadcast,
 *                                   inside its FLUSH or TEST: the relay of
 *                                   a rank that had not picked up its
 *                                   request (ONECOLL_RELAY_WAITER,
 *                                   help_after_ns), done for it: PUT_LOOP to
 *                                   that rank's children, its arrival, the
 *                                   done counter (info.peer = that rank)
 *
 * Reduce and allreduce (onecoll_reduce(), onecoll_allreduce(); main thread
 * only; info.win = ONECOLL_WIN_NULL, info.seq = the call's number on its
 * communicator from 1 (reduce and allreduce counted together), info.root =
 * the root (-1 for allreduce), info.bytes = the vector's bytes, info.algo =
 * the onecoll_reduce_algo that runs (never AUTO), info.order = the
 * onecoll_reduce_branch of the process count, info.peer = -1):
 *
 *   REDUCE             main         onecoll_reduce()
 *   ALLREDUCE          main         onecoll_allreduce()
 *   RED_PREPARE        main         the non-power-of-two step: the first 2r
 *                                   ranks exchange halves, then the prior
 *                                   art's forwarding or S0/S1's merge
 *   RED_HALVING        main         reduce-scatter by recursive halving
 *   RED_DOUBLING       main         allgather by recursive doubling
 *   RED_GATHER         main         reduce: the gather to the root (recursive
 *                                   doubling in reverse, S0S1: and the other
 *                                   half's hand-over to the root)
 *   RED_DISTRIBUTE     main         allreduce, non-power-of-two: the result to
 *                                   the ranks that left before the halving
 *                                   (prior art), or S0/S1's two exchanges
 *   RED_TREE           main         BINOMIAL: the binomial reduce
 *   RED_TREE_BCAST     main         BINOMIAL allreduce: the binomial broadcast
 *
 * Nesting: every enter is matched by a leave of the same region on the same
 * thread, in LIFO order, also on error paths. "main" means whichever
 * application thread called onecoll; "bcaster" is the Broadcaster thread,
 * announced by thread_begin before its first event and thread_end after its
 * last one.
 *
 * Cost: with no hooks installed each site is one load and one branch; the
 * info structure is only built when a hook is called.
 */
#ifndef ONECOLL_TRACE_H
#define ONECOLL_TRACE_H

#include "onecoll.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  ONECOLL_REGION_INIT = 1,
  ONECOLL_REGION_FINALIZE,
  ONECOLL_REGION_WIN_CREATE,
  ONECOLL_REGION_WIN_FREE,
  ONECOLL_REGION_BCAST,
  ONECOLL_REGION_WAIT_RELEASE,
  ONECOLL_REGION_PUT_LOOP,
  ONECOLL_REGION_PUT_REQUEST,
  ONECOLL_REGION_BROADCASTER_POLL,
  ONECOLL_REGION_BROADCASTER_RELAY,
  ONECOLL_REGION_FLUSH,
  ONECOLL_REGION_TEST,
  ONECOLL_REGION_HELP_RELAY,
  ONECOLL_REGION_REDUCE,
  ONECOLL_REGION_ALLREDUCE,
  ONECOLL_REGION_RED_PREPARE,
  ONECOLL_REGION_RED_HALVING,
  ONECOLL_REGION_RED_DOUBLING,
  ONECOLL_REGION_RED_GATHER,
  ONECOLL_REGION_RED_DISTRIBUTE,
  ONECOLL_REGION_RED_TREE,
  ONECOLL_REGION_RED_TREE_BCAST,
  ONECOLL_REGION_LAST = ONECOLL_REGION_RED_TREE_BCAST  /* highest id; ids are 1..LAST */
} onecoll_region;

/* The non-power-of-two case of a reduce region (info.order): N' = N + r
 * with N the largest power of two <= N'. */
typedef enum
{
  ONECOLL_BRANCH_POF2 = 0,          /* r = 0 (or the algorithm has no such step) */
  ONECOLL_BRANCH_R_EVEN = 1,        /* r even (S0/S1: claim 3) */
  ONECOLL_BRANCH_R_ODD = 2,         /* r odd (S0/S1: claim 6) */
} onecoll_reduce_branch;

/* What a region is about. Fields that do not apply are -1 (0 for win and seq). */
typedef struct
{
  onecoll_win win;                  /* window, or ONECOLL_WIN_NULL */
  uint64_t seq;                     /* broadcast number on win, from 1; 0 if none */
  int root;                         /* root rank of the broadcast */
  int peer;                         /* PUT_REQUEST: target rank; BROADCASTER_RELAY:
                                       parent rank; HELP_RELAY: the rank relayed for */
  int64_t bytes;                    /* bytes broadcast (window size for WIN_CREATE) */
  int algo;                         /* onecoll_algo actually used */
  int order;                        /* onecoll_order actually used */
} onecoll_trace_info;

/* The hook table. Any member may be NULL. Hooks run on the thread that
 * executes the region (the application's or the Broadcaster), possibly
 * concurrently, so they must be thread-safe; they must not call onecoll.
 * @file and @line are the region's source location inside onecoll; @info and
 * the strings are valid during the call only. */
typedef struct
{
  void (*enter) (void                     *user_data,
                 onecoll_region            region,
                 const onecoll_trace_info *info,
                 const char               *file,
                 int                       line);
  void (*leave) (void          *user_data,
                 onecoll_region region);
  void (*thread_begin) (void       *user_data,
                        const char *thread_name);
  void (*thread_end) (void *user_data);
  void *user_data;                  /* passed to every hook */
} onecoll_trace_hooks;

/* onecoll_set_trace_hooks:
 * Installs a copy of @hooks (NULL removes them). Only while the runtime is
 * not running, so that no thread is inside a hook.
 * Returns ONECOLL_OK or ONECOLL_ERR_BUSY (the runtime is running). */
ONECOLL_API int onecoll_set_trace_hooks (const onecoll_trace_hooks *hooks);

/* onecoll_region_name:
 * Returns the static lower-case name of @region ("bcast", "put_request",
 * "broadcaster_poll", ...), or NULL for an unknown id. */
ONECOLL_API const char *onecoll_region_name (int region);

/* ------------------------------------------------------------------------
 * Shared-memory reader-writer locks (onecoll_rwlock_*)
 * ------------------------------------------------------------------------
 *
 * Lock waits and holds are reported to a second table, so that a tracer
 * can write them as OTF2 lock events (the Sextant recorder writes
 * ThreadAcquireLock/ThreadReleaseLock, paradigm PTHREAD, inside a region
 * onecoll_rwlock_rdlock / onecoll_rwlock_wrlock that spans the wait).
 *
 * Every scheme is reported as what it is logically: one lock per client
 * slot, lock id = the segment's tag | slot (onecoll_lock_id: unique per
 * segment, bit 31 set, the same in every process). A reader acquires and
 * releases its slot's lock; the writer acquires and releases all N, so a
 * reader's wait conflicts with the writer only, never with other readers.
 * @order is the acquisition's number on that lock (1, 2, ...; counted in
 * the segment by the holder, so the same sequence in every process).
 *
 * Per call: wait_begin, then acquired once per lock taken (after the wait
 * for that lock ended), then wait_end (also when the call fails: then
 * without acquisitions, or with acquisitions released again first).
 * released comes once per lock on unlock. @caller is the return address
 * into the code that called onecoll (the call site); @file and @line are
 * onecoll's own source location of the call.
 *
 * Cost: with no hooks one load and one branch per call.
 */
typedef enum
{
  ONECOLL_LOCK_READ = 1,
  ONECOLL_LOCK_WRITE = 2,
} onecoll_lock_mode;

typedef struct
{
  void (*wait_begin) (void              *user_data,
                      onecoll_lock_mode  mode,
                      void              *caller,
                      const char        *file,
                      int                line);
  void (*acquired) (void     *user_data,
                    uint32_t  lock_id,
                    uint32_t  order);
  void (*wait_end) (void              *user_data,
                    onecoll_lock_mode  mode,
                    int                status);
  void (*released) (void     *user_data,
                    uint32_t  lock_id,
                    uint32_t  order);
  void *user_data;
} onecoll_lock_hooks;

/* onecoll_set_lock_hooks:
 * Installs a copy of @hooks (NULL removes them) for every rwlock of the
 * process. Call it before any lock is used (the table is read without
 * synchronisation). Returns ONECOLL_OK. */
ONECOLL_API int onecoll_set_lock_hooks (const onecoll_lock_hooks *hooks);

#ifdef __cplusplus
}
#endif

#endif /* ONECOLL_TRACE_H */
