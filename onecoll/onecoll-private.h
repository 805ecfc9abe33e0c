/*
 * onecoll-private.h - onecoll's internal data structures. Never installed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runtime (one per process, onecoll__rt) owns:
 *  - a duplicate of the user's communicator (p ranks);
 *  - the auxiliary window "aux", one MPI window that holds, on every rank and
 *    for each window slot s (0 <= s < max_windows), the paper's request flag
 *    and done counter, plus three words of our own (the paper's request
 *    descriptor is in the data window, see below):
 *
 *      req[s]       int64   token of the latest request sent to this rank for
 *                           slot s (written by the tree parent with
 *                           MPI_Accumulate/REPLACE): the window's serial and
 *                           the broadcast's sequence number, so the tokens
 *                           of a slot only grow; "new request" is "token >
 *                           the slot's claimed token", and nobody has to
 *                           clear the flag
 *      done[s]      int64   cumulative: ranks that finished a broadcast rooted
 *                           here on slot s (the paper's donecntr, never reset
 *                           while the window lives, so nothing races a reset),
 *                           except those the root completed itself, which it
 *                           counts in its window record (done_self)
 *      released[s]  int64   cumulative: ranks (root included) that released a
 *                           broadcast rooted here on slot s
 *      arrived[s]   int64   cumulative: broadcasts on slot s that reached this
 *                           rank and were relayed onward by it (or, for a
 *                           leaf, delivered by its parent); a broadcast whose
 *                           relay the root took on arrives by claim[s]
 *                           instead, and the rank counts it itself
 *                           (arrived_self)
 *      claim[s]     int64   the highest request token whose relay somebody
 *                           has taken on (MPI_Compare_and_swap): this rank's
 *                           Broadcaster or a waiting application thread of
 *                           this rank (the token), or the broadcast's root
 *                           relaying for it (token | 1, which is also the
 *                           rank's arrival: its data was complete before its
 *                           flag)
 *    The request's descriptor (onecoll__descr) is not in aux: it travels
 *    in front of the data, in the ONECOLL__HEAD bytes that every data
 *    window has below its base (see onecoll__descr), so that one MPI_Put
 *    and one flush complete both before the flag.
 *
 *    The paper indexes req[] and descr[] by the requesting rank. We index
 *    them by window slot: a rank has exactly one tree parent per broadcast
 *    and broadcasts on one window never overlap, so a slot can never hold two
 *    pending requests, while a per-sender slot could (the same parent may
 *    relay broadcasts on two windows at once).
 *  - the registry: a table of max_windows window records, indexed by slot;
 *  - the Broadcaster thread.
 *
 * Window ids are (serial << 16) | slot with a serial that grows with every
 * onecoll_win_create() (a collective call whose ranks agree on the serial),
 * which makes ids unique for the life of the process and the lookup O(1).
 *
 * Workload: the Broadcaster, and every application thread that waits in
 * onecoll, polls req[] continuously (up to thousands of times per second),
 * relays are rare in comparison, and windows are created a handful of times
 * per run. So a poll is one MPI_Win_sync and a plain load per used slot
 * (onecoll__peek), with an atomic read and a claim only for a token that
 * grew, and everything else is allowed to take the registry mutex.
 */
#ifndef ONECOLL_PRIVATE_H
#define ONECOLL_PRIVATE_H

#include "onecoll.h"
#include "onecoll-trace.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define ONECOLL__MAX_WINDOWS 4096               /* upper bound of max_windows */
#define ONECOLL__SLOT_BITS 16                   /* low bits of a window id */
#define ONECOLL__PUT_CHUNK ((int64_t) 1 << 30)  /* largest single MPI_Put, bytes */

/* The descriptor of a request, put by the parent before it sets the flag.
 * Fixed-width fields, moved as MPI_BYTE between ranks of one machine type.
 *
 * It sits in the last sizeof (onecoll__descr) bytes of the window's head
 * (ONECOLL__HEAD bytes below the data, which keeps the data on a line
 * boundary), directly in front of the data, so a request's descriptor and
 * data are one MPI_Put and one MPI_Win_flush of the data window. The
 * parent puts its own head and data: the root writes its head when it
 * starts a broadcast, and a relay takes the head its parent put, with
 * origin set to itself (the fields other than origin are the same on every
 * rank of a broadcast). The release rule that protects the data protects
 * the head too: nobody rewrites it before this rank has released the
 * broadcast, which follows its relay. */
typedef struct
{
  int64_t count;                    /* bytes to relay, 0..window size */
  uint64_t seq;                     /* broadcast number on the window, from 1 */
  uint64_t wid;                     /* onecoll_win id of the data window */
  int32_t root;                     /* rank that started the broadcast */
  int32_t origin;                   /* rank that sent the request: the tree parent,
                                       or the root relaying for it */
  int32_t order;                    /* onecoll_order of the whole tree */
  int32_t pad;                      /* zero; keeps the size a multiple of 8 */
} onecoll__descr;

/* Bytes of every data window below its base (the head). */
#define ONECOLL__HEAD ((int64_t) 64)

_Static_assert (sizeof (onecoll__descr) <= ONECOLL__HEAD, "the descriptor fits in the head");

/* Offset of the descriptor from a data window's base (negative). */
#define ONECOLL__DESCR_OFF (-(int64_t) sizeof (onecoll__descr))

/* One registered window. Created and destroyed by the application thread
 * (collective calls); the Broadcaster only reads id/mpi_win/base/size and
 * takes a reference (refs) while it relays, under the registry mutex. */
typedef struct
{
  onecoll_win id;                   /* public id; (serial << 16) | slot */
  int slot;                         /* index in the registry and in aux arrays */
  MPI_Win mpi_win;                  /* data window; lock_all open for its lifetime */
  unsigned char *base;              /* this rank's window memory, size bytes, after
                                       the ONECOLL__HEAD bytes of the head: byte i
                                       is at displacement ONECOLL__HEAD + i */
  int64_t size;                     /* bytes, same on every rank */
  onecoll_bcast_opts opts;          /* the window's defaults (DEFAULT = inherit) */
  int refs;                         /* Broadcaster relays using it, under rt->lock */
  int dying;                        /* set by onecoll_win_free, under rt->lock */

  /* Broadcast bookkeeping of the application thread(s) of this rank. */
  uint64_t seq;                     /* broadcasts started on the window so far */
  int64_t *rooted;                  /* [p]: broadcasts on it rooted at each rank */
  int64_t arrivals;                 /* broadcasts on it where this rank is not root */
  int last_root;                    /* root of the latest broadcast, -1 before any */
  int pending;                      /* 1 while the latest is not complete here */
  int pending_root;                 /* 1 if this rank is the latest broadcast's root */
  int64_t pending_target;           /* counter value meaning "complete": done[] at
                                       the root, arrived[] elsewhere */
  int64_t pending_count;            /* bytes of the latest broadcast */
  int pending_order;                /* its onecoll_order (binomial) */
  /* Root of a pending binomial broadcast: relays it may do for the others. */
  unsigned char *help_done;         /* [p] by relative rank: ONECOLL__HELP_* */
  uint64_t *help_seen_ns;           /* [p]: when its request was first seen set, 0 = not yet */
  int64_t *help_old;                /* [p] by relative rank: result of the root's
                                       compare-and-swap on its claim[slot] */
  int64_t *claim_seen;              /* [p] by rank: the last value of its claim[slot]
                                       seen by this rank as root, a guess for the next
                                       MPI_Compare_and_swap (any value is safe) */
  int64_t done_self;                /* cumulative: this rank's completions of its own
                                       broadcasts on the window, as root, that were
                                       counted here instead of in its done[slot] */
  int64_t done_seen;                /* the highest value of its done[slot] read here */
  int64_t arrived_self;             /* cumulative: broadcasts that arrived here by the
                                       root's claim of our request (TOKEN_HELPED),
                                       not counted in arrived[slot] */
  void *recv_buf;                   /* non-root: copy destination, NULL = none */
  int64_t recv_count;               /* bytes to copy to recv_buf */
  int unreleased;                   /* 1 if this rank owes a release for the latest */
} onecoll__win;

typedef struct
{
  MPI_Comm comm;                    /* duplicate of the user's communicator */
  int rank;                         /* this rank in comm */
  int nprocs;                       /* p, size of comm */
  onecoll_config cfg;               /* resolved copy of the user's config */

  MPI_Win aux;                      /* auxiliary window, layout in the file comment */
  unsigned char *aux_base;          /* this rank's aux memory */
  MPI_Aint aux_off;                 /* where the slot blocks start in it, the same on
                                       every rank (see onecoll__aux) */
  int max_windows;                  /* slots, copy of cfg.max_windows */

  pthread_mutex_t lock;             /* guards wins[], refs, dying, ready fields */
  pthread_cond_t cond;              /* signals ready and refs changes */
  onecoll__win **wins;              /* [max_windows], NULL = free slot */
  atomic_int used_slots;            /* 1 + highest slot in use; what the poll reads */

  pthread_t thread;                 /* the Broadcaster */
  atomic_int stop;                  /* 1 asks the Broadcaster to exit */
  int ready;                        /* Broadcaster has started: 1, under lock */
  int ready_rc;                     /* its start-up result, under lock */
  atomic_int bcaster_rc;            /* first relay error (Broadcaster or waiter), 0 if none */

  /* Relays: whoever raises claim[s] in the aux window to a request's token
   * (MPI_Compare_and_swap) relays it; this rank's Broadcaster, its waiting
   * application threads and the broadcast's root race for it, so every
   * request is relayed exactly once. claimed[s] caches the highest token
   * known to be claimed here, so that a poll only touches claim[s] for a
   * new request. */
  _Atomic uint64_t *claimed;        /* [max_windows]: hint, see above */
} onecoll__runtime;

/* help_done[] states of a rank in the root's pending binomial broadcast. */
enum
{
  ONECOLL__HELP_UNKNOWN = 0,        /* nothing known yet */
  ONECOLL__HELP_SETTLED = 1,        /* somebody relays it (it, or the root) */
  ONECOLL__HELP_PUBLISHED = 2,      /* the root set its flag itself: the data and
                                       descriptor are complete, claim at once */
  ONECOLL__HELP_CLAIMING = 3        /* the root's compare-and-swap is on its way */
};

/* NULL while the runtime is not running. Set and cleared only by
 * onecoll_init()/onecoll_finalize(), which run alone by contract. */
extern onecoll__runtime *onecoll__rt;

/* ---- aux window layout (byte displacements, disp_unit 1) ----
 *
 * Every slot has a block of two cache lines, from rt->aux_off (which puts
 * the blocks on line boundaries where every rank's memory allows it):
 *
 *   line 1:  req, claim, arrived (int64 each): everything a request
 *            touches in aux at its target - the parent's flag, the claim of
 *            whoever relays it, the arrival - moves between the cores as
 *            one line;
 *   line 2:  done, released: the root's counters, which every rank adds to
 *            at the end of a broadcast, away from the words the ranks poll.
 *
 * req and claim are adjacent, so that the root reads both of a rank with
 * one MPI_Get_accumulate. In Open MPI's osc/sm every atomic operation on
 * a rank's aux memory takes that rank's accumulate spinlock, so the waits
 * read their own rank's words with plain loads (onecoll__peek) and use an
 * MPI atomic only to confirm what a load suggests. */

#define ONECOLL__LINE 64

/* The words of a slot. */
enum
{
  ONECOLL__REQ = 0,                 /* line 1 */
  ONECOLL__CLAIM,
  ONECOLL__ARRIVED,
  ONECOLL__DONE,                    /* line 2 */
  ONECOLL__RELEASED
};

_Static_assert (ONECOLL__DONE * 8 <= ONECOLL__LINE, "req, claim and arrived share a cache line");

/* Displacement of @word (ONECOLL__REQ, ...) of @slot. */
static inline MPI_Aint
onecoll__aux (const onecoll__runtime *rt,
              int                     slot,
              int                     word)
{
  MPI_Aint in_block = word < ONECOLL__DONE ? (MPI_Aint) word * 8
                                           : ONECOLL__LINE + (MPI_Aint) (word - ONECOLL__DONE) * 8;

  return rt->aux_off + (MPI_Aint) slot * 2 * ONECOLL__LINE + in_block;
}

/* Bytes of the aux window: the blocks, and one line for the alignment. */
static inline MPI_Aint
onecoll__aux_size (int max_windows)
{
  return ((MPI_Aint) max_windows * 2 + 1) * ONECOLL__LINE;
}

/* A plain load of this rank's aux word at @disp, for polling: a hint, not
 * an atomic read in MPI's sense (the caller has called MPI_Win_sync, and
 * confirms with onecoll__read_counter before acting on the value). An
 * aligned 8-byte load is never torn on the machines onecoll runs on; if it
 * were, the confirmation would catch it. */
static inline int64_t
onecoll__peek (const onecoll__runtime *rt, MPI_Aint disp)
{
  return __atomic_load_n ((const int64_t *) (const void *) (rt->aux_base + disp),
                          __ATOMIC_RELAXED);
}

/* ---- errors ---- */

/* Maps an MPI return code to ONECOLL_OK / ONECOLL_ERR_MPI, remembering the
 * code for onecoll_last_mpi_error(). */
int onecoll__mpi (int mpi_rc);

/* Collective: every rank learns whether every rank got @rc == ONECOLL_OK.
 * Returns @rc if it is an error, ONECOLL_ERR_PEER if only another rank's is. */
int onecoll__agree (MPI_Comm comm,
                    int      rc);

/* ---- polling (onecoll-poll.c) ---- */

typedef struct
{
  const onecoll_poll_policy *policy; /* not owned */
  uint32_t polls;                   /* empty polls since the last reset */
  uint32_t sleep_ns;                /* next sleep of the backoff phase, ns */
  uint64_t slept_ns;                /* sum of the sleeps since the last reset */
} onecoll__poller;

int onecoll__poll_policy_valid (const onecoll_poll_policy *policy);
void onecoll__poller_init (onecoll__poller           *poller,
                           const onecoll_poll_policy *policy);
void onecoll__poller_wait (onecoll__poller *poller);

/* One check of what a wait waits for: *@reached = 1 once it is there.
 * Leaves the aux window synced (MPI_Win_sync) for a poll of req[]. */
typedef int (*onecoll__check) (onecoll__runtime *rt,
                               void             *arg,
                               int              *reached);

/* Calls @check until it reports the event, waiting between checks with the
 * flush policy. With ONECOLL_RELAY_WAITER every round also relays the
 * requests that reached this rank (onecoll__progress), racing the
 * Broadcaster for them; with @help (not NULL: this rank is the root of
 * its pending binomial broadcast) it also relays for the ranks that are
 * slow to (onecoll__root_help). Fails early with a relay error. */
int onecoll__wait (onecoll__runtime *rt,
                   onecoll__check    check,
                   void             *arg,
                   onecoll__win     *help);

/* onecoll__wait() until the int64 at @disp in @target's aux memory is >=
 * @target_value (MPI_Fetch_and_op with MPI_NO_OP, then a flush; for this
 * rank's own memory a plain load first). */
int onecoll__wait_counter (onecoll__runtime *rt,
                           int               target,
                           MPI_Aint          disp,
                           int64_t           target_value);

/* At the root of @w's pending binomial broadcast: relays, for every rank
 * whose request has been set for at least cfg.help_after_ns and is still
 * unclaimed, that rank's part of the tree (onecoll-bcast.c). *@helped is
 * set to 1 if it did any. */
int onecoll__root_help (onecoll__runtime *rt,
                        onecoll__win     *w,
                        int              *helped);

/* One such poll: *value receives the counter. */
int onecoll__read_counter (onecoll__runtime *rt,
                           int               target,
                           MPI_Aint          disp,
                           int64_t          *value);

/* Adds @delta to the int64 at @disp in @target's aux memory and flushes. */
int onecoll__add_counter (onecoll__runtime *rt,
                          int               target,
                          MPI_Aint          disp,
                          int64_t           delta);

/* ---- windows and broadcasts ---- */

/* Looks @win up; NULL if unknown. Application threads only. */
onecoll__win *onecoll__win_lookup (onecoll__runtime *rt,
                                   onecoll_win       win);

/* Completes and releases this rank's pending broadcast on @w (FLUSH region). */
int onecoll__win_settle (onecoll__runtime *rt,
                         onecoll__win     *w);

/* One poll of req[] for the @n used slots and the relay of every request
 * not yet claimed (onecoll-bcast.c); the caller has called MPI_Win_sync on
 * the aux window. Run by
 * the Broadcaster (@bcaster = 1: it leaves its BROADCASTER_POLL region
 * before the first relay) and by application threads waiting in onecoll.
 * *@relayed (may be NULL) is set to 1 if this call relayed anything. A relay
 * error is also recorded in rt->bcaster_rc. */
int onecoll__progress (onecoll__runtime *rt,
                       int               n,
                       int               bcaster,
                       int              *relayed);

/* Records the first relay error, so that every later wait reports it. */
void onecoll__relay_failed (onecoll__runtime *rt,
                            int               rc);

/* The Broadcaster thread body (onecoll-runtime.c). */
void *onecoll__broadcaster_main (void *data);

int onecoll__opts_valid (const onecoll_bcast_opts *opts);

/* ---- tracing (onecoll-trace.c) ---- */

extern onecoll_trace_hooks onecoll__hooks;

/* Region entry. The arguments are the onecoll_trace_info fields in order
 * (win, seq, root, peer, bytes, algo, order) and are only evaluated when a
 * hook is installed. */
#define ONECOLL__ENTER(region, win_, seq_, root_, peer_, bytes_, algo_, order_) \
  do {                                                                       \
    if (onecoll__hooks.enter != NULL)                                        \
      {                                                                      \
        onecoll_trace_info trace_info_ = { (win_), (seq_), (root_), (peer_), \
                                           (bytes_), (algo_), (order_) };    \
        onecoll__hooks.enter (onecoll__hooks.user_data, (region),            \
                              &trace_info_, __FILE__, __LINE__);             \
      }                                                                      \
  } while (0)

/* Entry of a region that is about no window or broadcast. */
#define ONECOLL__ENTER_PLAIN(region) \
  ONECOLL__ENTER ((region), ONECOLL_WIN_NULL, 0, -1, -1, -1, -1, -1)

#define ONECOLL__LEAVE(region)                                               \
  do {                                                                       \
    if (onecoll__hooks.leave != NULL)                                        \
      onecoll__hooks.leave (onecoll__hooks.user_data, (region));             \
  } while (0)

#endif /* ONECOLL_PRIVATE_H */
