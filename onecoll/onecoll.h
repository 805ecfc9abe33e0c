/*
 * onecoll.h - one-sided (MPI RMA) collectives: the public interface.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This header is the contract. A function, type or constant that is not here
 * is not part of onecoll's API (onecoll-trace.h is the one exception: the
 * instrumentation interface for tracers).
 *
 * What onecoll does
 * -----------------
 * MPI-3 RMA has no collectives. onecoll adds a broadcast built from
 * MPI_Put, MPI_Accumulate and MPI_Win_flush (A. A. Paznikov, "Binomial tree
 * broadcast in remote memory access model", 2024): the root puts the data
 * into the windows of its children in a binomial tree; on every process a
 * helper thread, the Broadcaster, notices the request and relays the data to
 * its own children while the process's main thread keeps computing. The
 * linear algorithm (the root puts to every process itself) is the baseline.
 *
 * The objects
 * -----------
 *  - The runtime: onecoll_init() starts it on a communicator and starts the
 *    Broadcaster thread on every rank; onecoll_finalize() stops both. There
 *    is one runtime per process at a time.
 *  - Windows (onecoll_win): broadcast buffers of the same size on every rank,
 *    made by onecoll_win_create() (collective) and identified by an id that
 *    is the same on every rank and never reused. Data is broadcast into
 *    bytes [0, count) of every rank's window.
 *  - Broadcasts: onecoll_bcast() starts one; onecoll_bcast_flush() waits for
 *    it and onecoll_bcast_test() polls it. At most one broadcast per window
 *    is pending on a rank; broadcasts on different windows may be in flight
 *    at the same time.
 *
 * Calling convention for broadcasts (read this)
 * ---------------------------------------------
 * onecoll_bcast() is called by every rank of the runtime's communicator, for
 * every broadcast, with the same window, root and count, and every rank
 * issues the broadcasts of all windows in the same order - the rule MPI has
 * for MPI_Ibcast. Only the root communicates inside onecoll_bcast(); on the
 * other ranks the call does no communication and returns at once, and the
 * data is relayed by the Broadcaster threads whether or not the main threads
 * are inside onecoll. Completion:
 *  - at the root, onecoll_bcast_flush()/onecoll_bcast_test() report that
 *    every rank has the data in its window (the paper's done counter);
 *  - on another rank, they report that the data has arrived in this rank's
 *    window (and was copied to the caller's buffer, see onecoll_bcast()).
 *
 * Who owns the window memory: between the completion of a broadcast on a
 * rank and that rank's next onecoll_bcast() (or onecoll_win_free()) on the
 * same window, the window's bytes on that rank are stable: no later
 * broadcast starts writing into any window before every rank has released
 * the previous one. A rank releases a broadcast when it next calls
 * onecoll_bcast() on the window, or at once on completion when it gave a
 * buffer of its own (not the window) to onecoll_bcast(). Writing into a
 * window while a broadcast on it is pending is an error that onecoll does
 * not detect.
 *
 * Threads and errors
 * ------------------
 * The runtime needs MPI_THREAD_MULTIPLE (the Broadcaster makes MPI calls
 * concurrently with the application). onecoll functions may be called from
 * any application thread, but calls on one window must not run concurrently,
 * and onecoll_init(), onecoll_finalize(), onecoll_win_create() and
 * onecoll_win_free() must not run concurrently with any other onecoll call
 * in the process.
 *
 * Every function returns ONECOLL_OK (0) or a negative onecoll_status; none
 * prints, exits or aborts. MPI errors inside onecoll are returned (the
 * runtime's communicator and windows use MPI_ERRORS_RETURN) as
 * ONECOLL_ERR_MPI; onecoll_last_mpi_error() gives the MPI error code. After
 * ONECOLL_ERR_MPI the state of the window or runtime involved is
 * unspecified: free it and finalize. Collective calls that fail with
 * ONECOLL_ERR_ARG, ONECOLL_ERR_LIMIT, ONECOLL_ERR_NOMEM or ONECOLL_ERR_PEER
 * leave nothing behind on any rank.
 */
#ifndef ONECOLL_H
#define ONECOLL_H

#include <mpi.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define ONECOLL_API __attribute__ ((visibility ("default")))
#else
#define ONECOLL_API
#endif

/* Result codes. ONECOLL_OK is 0, errors are negative; the values are stable. */
typedef enum
{
  ONECOLL_OK = 0,                   /* success */
  ONECOLL_ERR_ARG = -1,             /* an argument is invalid (NULL, out of range, mismatched) */
  ONECOLL_ERR_THREAD_LEVEL = -2,    /* MPI does not provide MPI_THREAD_MULTIPLE */
  ONECOLL_ERR_NOT_INIT = -3,        /* the runtime is not initialised */
  ONECOLL_ERR_ALREADY_INIT = -4,    /* onecoll_init() called twice */
  ONECOLL_ERR_UNKNOWN_WINDOW = -5,  /* the window id is not (or no longer) registered */
  ONECOLL_ERR_MPI = -6,             /* an MPI call failed, see onecoll_last_mpi_error() */
  ONECOLL_ERR_NOMEM = -7,           /* out of memory */
  ONECOLL_ERR_THREAD = -8,          /* the Broadcaster thread could not be started */
  ONECOLL_ERR_LIMIT = -9,           /* onecoll_config.max_windows windows already exist */
  ONECOLL_ERR_BUSY = -10,           /* not allowed while the runtime is running */
  ONECOLL_ERR_PEER = -11,           /* another rank failed in a collective call, or disagrees;
                                       rwlock: the other side (writer) died */
  ONECOLL_ERR_NOT_FOUND = -12,      /* rwlock: no such shared-memory segment, or no such key */
  ONECOLL_ERR_VERSION = -13,        /* rwlock: the segment is not an onecoll rwlock of this
                                       version (another layout, another program's segment) */
  ONECOLL_ERR_SYSTEM = -14,         /* rwlock: a system call failed (errno says which) */
  ONECOLL_ERR_CORRUPT = -15,        /* rwlock: a key-value record failed its checksum */
  ONECOLL_ERR_EXISTS = -16,         /* rwlock: the segment exists already */
  ONECOLL_WARN_OWNER_DEAD = 1,      /* rwlock: success, but a client died holding its read
                                       lock; the lock was taken over (a warning, > 0) */
} onecoll_status;

/* A registered window. 0 (ONECOLL_WIN_NULL) is never a valid id. */
typedef uint64_t onecoll_win;
#define ONECOLL_WIN_NULL ((onecoll_win) 0)

/* Broadcast algorithm. DEFAULT means "inherit": call -> window -> runtime. */
typedef enum
{
  ONECOLL_ALGO_DEFAULT = 0,
  ONECOLL_ALGO_LINEAR = 1,          /* the root puts to every rank itself */
  ONECOLL_ALGO_BINOMIAL = 2,        /* binomial tree relayed by the Broadcasters */
} onecoll_algo;

/* Order in which a binomial-tree node serves its children. Both orders build
 * the same tree. DEFAULT means "inherit". */
typedef enum
{
  ONECOLL_ORDER_DEFAULT = 0,
  ONECOLL_ORDER_SMALLEST_FIRST = 1, /* the paper's: masks 1, 2, 4, ... */
  ONECOLL_ORDER_LARGEST_FIRST = 2,  /* MPICH's: largest subtree first, shorter critical path */
} onecoll_order;

/* Per-call or per-window choice of algorithm. Zero-filled means "inherit". */
typedef struct
{
  onecoll_algo algo;                /* LINEAR or BINOMIAL; DEFAULT inherits */
  onecoll_order order;              /* binomial child order; DEFAULT inherits */
} onecoll_bcast_opts;

/* How a thread waits for a remote event (a request flag, a counter). Between
 * two polls that found nothing, the waiter does:
 *   FIXED:    sleep interval_ns (the paper's WaiterTimeout/FlushTimeout, 1 ms);
 *   ADAPTIVE: for the first spin_polls polls a CPU pause only, for the next
 *             yield_polls polls sched_yield(), then sleeps that start at
 *             sleep_min_ns and double after every empty poll up to
 *             sleep_max_ns. If long_wait_div is not 0, a long wait's sleeps
 *             then keep growing, to 1/long_wait_div of the time slept so far
 *             in this wait but at most long_wait_max_ns: a late wake-up
 *             costs at most that share of the wait, and a long wait (a
 *             large broadcast) wakes up far less often, which leaves the
 *             cores to the ranks that copy. Finding work starts over at the
 *             spin phase. */
typedef enum
{
  ONECOLL_POLL_ADAPTIVE = 0,
  ONECOLL_POLL_FIXED = 1,
} onecoll_poll_mode;

typedef struct
{
  onecoll_poll_mode mode;           /* ADAPTIVE or FIXED */
  uint32_t spin_polls;              /* ADAPTIVE: polls separated by a pause only; 0..1e6 */
  uint32_t yield_polls;             /* ADAPTIVE: then polls separated by sched_yield(); 0..1e9 */
  uint32_t sleep_min_ns;            /* ADAPTIVE: first sleep, ns, >= 1 */
  uint32_t sleep_max_ns;            /* ADAPTIVE: sleep cap, ns, >= sleep_min_ns, <= 1e9 */
  uint32_t interval_ns;             /* FIXED: sleep between polls, ns, 1..1e9 */
  uint32_t long_wait_div;           /* ADAPTIVE: 0 (sleeps stop at sleep_max_ns) or 2..1000 */
  uint32_t long_wait_max_ns;        /* ADAPTIVE: cap of the long-wait sleeps, ns,
                                       sleep_max_ns..1e9 */
} onecoll_poll_policy;

/* Who relays a binomial broadcast on a rank whose application thread is
 * waiting in onecoll (flush, test, the root's wait for releases, the
 * completion inside onecoll_bcast() and onecoll_win_free()). */
typedef enum
{
  ONECOLL_RELAY_WAITER = 0,         /* default: the waiting thread also relays every
                                       request that arrives while it waits (progress by
                                       the waiting thread), racing the Broadcaster for
                                       it; whichever runs first relays */
  ONECOLL_RELAY_BROADCASTER = 1,    /* the paper's runtime: only the Broadcaster relays */
} onecoll_relay_mode;

/* Runtime configuration; fill with onecoll_config_init(), then adjust. */
typedef struct
{
  onecoll_poll_policy waiter;       /* the Broadcaster's polling for requests */
  onecoll_poll_policy flush;        /* every wait of an application thread */
  onecoll_bcast_opts bcast;         /* runtime default; DEFAULT fields = built-in */
  int max_windows;                  /* windows registered at once, 1..4096 */
  onecoll_relay_mode relay;         /* WAITER (default) or BROADCASTER */
  uint32_t help_after_ns;           /* WAITER only: the root of a binomial broadcast,
                                       while it waits for completion, relays for a rank
                                       whose request has stayed unclaimed this long
                                       (ns); UINT32_MAX: never */
} onecoll_config;

/* onecoll_strerror:
 * Returns a static, NUL-terminated English description of @err (any int).
 * Unknown codes give "unknown onecoll error". Thread-safe. */
ONECOLL_API const char *onecoll_strerror (int err);

/* onecoll_last_mpi_error:
 * Returns the MPI error code behind the latest ONECOLL_ERR_MPI returned to
 * the calling thread, or MPI_SUCCESS if there was none. Thread-safe (the
 * value is per thread). */
ONECOLL_API int onecoll_last_mpi_error (void);

/* onecoll_poll_policy_init:
 * Fills @policy with the defaults of @mode: FIXED is the paper's 1 ms sleep;
 * ADAPTIVE spins 16 polls, yields 256, then sleeps 1 us doubling to 64 us,
 * and in long waits up to 1/8 of the time slept, at most 1 ms.
 * Thread-safe.
 * Returns ONECOLL_OK, or ONECOLL_ERR_ARG if @policy is NULL or @mode unknown. */
ONECOLL_API int onecoll_poll_policy_init (onecoll_poll_policy *policy,
                                          onecoll_poll_mode    mode);

/* onecoll_config_init:
 * Fills @cfg with the defaults: ADAPTIVE policies for both waits (so an
 * idle Broadcaster sleeps up to 1 ms, and a request that comes while no
 * application thread waits in onecoll may wait that long for it; set
 * waiter.long_wait_div to 0 for at most about 64 us), binomial
 * broadcast with largest-subtree-first order, 64 windows, relays by the
 * waiting thread (ONECOLL_RELAY_WAITER). Thread-safe.
 * Returns ONECOLL_OK, or ONECOLL_ERR_ARG if @cfg is NULL. */
ONECOLL_API int onecoll_config_init (onecoll_config *cfg);

/* onecoll_init:
 * Collective over @comm. Starts the runtime: duplicates @comm (onecoll never
 * communicates on the caller's communicator), allocates the auxiliary
 * window of request flags, descriptors and counters, and starts the
 * Broadcaster thread, which is polling when this returns on any rank.
 * @cfg may be NULL for the defaults; it is copied.
 * Returns:
 *   ONECOLL_OK;
 *   ONECOLL_ERR_ALREADY_INIT   the runtime is running (nothing changes);
 *   ONECOLL_ERR_MPI            MPI is not initialised or already finalised,
 *                              or an MPI call failed;
 *   ONECOLL_ERR_THREAD_LEVEL   MPI_Query_thread() is not MPI_THREAD_MULTIPLE;
 *   ONECOLL_ERR_ARG            @comm is MPI_COMM_NULL or @cfg is invalid;
 *   ONECOLL_ERR_NOMEM, ONECOLL_ERR_THREAD;
 *   ONECOLL_ERR_PEER           another rank failed (this one cleaned up).
 * The first four are decided locally, before any communication; on any
 * error the runtime is not running. */
ONECOLL_API int onecoll_init (MPI_Comm              comm,
                              const onecoll_config *cfg);

/* onecoll_finalize:
 * Collective. Frees every window still registered (as onecoll_win_free()
 * would, in the same order on every rank), stops the Broadcaster and
 * releases the runtime. Call it before MPI_Finalize(). The runtime may be
 * initialised again afterwards; window ids are not reused across runtimes.
 * Returns ONECOLL_OK, ONECOLL_ERR_NOT_INIT, or ONECOLL_ERR_MPI (the runtime
 * is torn down as far as possible and is no longer running). */
ONECOLL_API int onecoll_finalize (void);

/* onecoll_initialized:
 * Returns 1 if the runtime is running, 0 otherwise. */
ONECOLL_API int onecoll_initialized (void);

/* onecoll_win_create:
 * Collective. Allocates a broadcast window of @size bytes on every rank
 * (MPI_Win_allocate of 64 more bytes, the head below the base that carries
 * the binomial broadcast's request descriptors; @size must be the same
 * everywhere) and registers it. The base is on a 64-byte boundary of the
 * allocation.
 * @opts (may be NULL) is the window's default algorithm and order; it is
 * copied. On success *@win is the new id, the same on every rank. The
 * window's bytes are uninitialised.
 * Returns:
 *   ONECOLL_OK;
 *   ONECOLL_ERR_NOT_INIT;
 *   ONECOLL_ERR_ARG     @win is NULL, @size < 0 or above INT64_MAX - 64,
 *                       @opts invalid, or the ranks passed different sizes;
 *   ONECOLL_ERR_LIMIT   max_windows windows exist already;
 *   ONECOLL_ERR_NOMEM, ONECOLL_ERR_MPI;
 *   ONECOLL_ERR_PEER    another rank failed.
 * The argument checks are agreed on by all ranks, so that a bad argument on
 * one rank makes the call fail everywhere instead of hanging. */
ONECOLL_API int onecoll_win_create (int64_t                   size,
                                    const onecoll_bcast_opts *opts,
                                    onecoll_win              *win);

/* onecoll_win_free:
 * Collective. Completes this rank's pending broadcast on @win (as
 * onecoll_bcast_flush() does), waits until every rank has done so, and
 * frees the window. The id is never reused.
 * Returns ONECOLL_OK, ONECOLL_ERR_NOT_INIT, ONECOLL_ERR_UNKNOWN_WINDOW,
 * ONECOLL_ERR_MPI. */
ONECOLL_API int onecoll_win_free (onecoll_win win);

/* onecoll_win_get_base:
 * Stores this rank's window memory in *@base (owned by onecoll, valid until
 * the window is freed; may be NULL for a 0-byte window) and its size in
 * bytes in *@size. Either output may be NULL.
 * Returns ONECOLL_OK, ONECOLL_ERR_NOT_INIT, ONECOLL_ERR_UNKNOWN_WINDOW. */
ONECOLL_API int onecoll_win_get_base (onecoll_win win,
                                      void      **base,
                                      int64_t    *size);

/* onecoll_bcast:
 * Starts broadcasting @count bytes from rank @root into bytes [0, @count)
 * of every rank's window @win. Called on every rank (see "Calling
 * convention" above). @opts (may be NULL) overrides the window's algorithm
 * and order for this call; only the root's choice matters.
 *
 * First completes this rank's previous broadcast on @win (as
 * onecoll_bcast_flush() does) and releases it. Then:
 *  - root: waits until every rank has released the previous broadcast on
 *    @win, copies @buf into its window unless @buf is the window's base,
 *    and starts the broadcast. The linear algorithm completes inside this
 *    call; the binomial one returns once the root's own children have their
 *    requests. @buf may be reused on return unless it is the window.
 *  - other ranks: records the broadcast and returns; @buf receives the data
 *    when onecoll_bcast_test()/onecoll_bcast_flush() report completion, and
 *    must stay valid until then. Pass the window's base to read the window
 *    directly without a copy.
 * @buf may be NULL only if @count is 0.
 * Returns:
 *   ONECOLL_OK;
 *   ONECOLL_ERR_NOT_INIT;
 *   ONECOLL_ERR_UNKNOWN_WINDOW  @win is not registered;
 *   ONECOLL_ERR_ARG             @root outside [0, size of the communicator),
 *                               @count < 0 or larger than the window, @buf
 *                               NULL with @count > 0, or @opts invalid;
 *   ONECOLL_ERR_MPI             (also when the local Broadcaster failed).
 * Arguments are checked before anything happens, so on an argument error
 * nothing is started or recorded. */
ONECOLL_API int onecoll_bcast (onecoll_win               win,
                               void                     *buf,
                               int64_t                   count,
                               int                       root,
                               const onecoll_bcast_opts *opts);

/* onecoll_bcast_flush:
 * Waits until this rank's latest broadcast on @win is complete (see the
 * calling convention: at the root, delivered to every rank; elsewhere,
 * arrived here and copied to the caller's buffer), polling with the
 * configured flush policy. Returns at once if nothing is pending. With
 * ONECOLL_RELAY_WAITER (the default), the waiting thread relays every
 * binomial request that reaches this rank meanwhile, on any window, to this
 * rank's children, instead of leaving it to the Broadcaster.
 * Returns ONECOLL_OK, ONECOLL_ERR_NOT_INIT, ONECOLL_ERR_UNKNOWN_WINDOW,
 * ONECOLL_ERR_MPI. */
ONECOLL_API int onecoll_bcast_flush (onecoll_win win);

/* onecoll_bcast_test:
 * One non-blocking check of the same condition: *@done becomes 1 if the
 * broadcast is complete (or nothing is pending), else 0. Once it has
 * reported 1 it keeps reporting 1 until the next onecoll_bcast() on @win.
 * With ONECOLL_RELAY_WAITER it also relays the requests that have reached
 * this rank (as flush does), so it may take as long as this rank's puts to
 * its children; it never waits for another rank.
 * Returns ONECOLL_OK, ONECOLL_ERR_NOT_INIT, ONECOLL_ERR_ARG (@done NULL),
 * ONECOLL_ERR_UNKNOWN_WINDOW, ONECOLL_ERR_MPI. */
ONECOLL_API int onecoll_bcast_test (onecoll_win win,
                                    int        *done);

/* ------------------------------------------------------------------------
 * Reduce and allreduce over MPI point-to-point (onecoll-reduce.c,
 * onecoll-allreduce.c; the algorithms and their costs: docs/onecoll.md)
 * ------------------------------------------------------------------------
 *
 * Unlike the broadcast these need no runtime (onecoll_init() is not
 * required, any thread level will do) and no window: they are drop-in
 * replacements for MPI_Reduce / MPI_Allreduce on any intra-communicator,
 * with MPI's calling convention and MPI's error codes (MPI_SUCCESS or an
 * MPI error class such as MPI_ERR_COUNT), so that a program can swap them
 * in. They communicate on a private duplicate of the caller's communicator,
 * made by the first call on it (collectively) and cached on it as an
 * attribute until the communicator is freed; calls on one communicator must
 * not run concurrently (MPI's rule for collectives).
 *
 * Supported: MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE and contiguous (or
 * duplicated) derived types of them; MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX;
 * any count >= 0 with count * (elements per item) <= INT_MAX; MPI_IN_PLACE
 * (allreduce: any rank; reduce: the root). Integer sums and products wrap
 * around (two's complement) instead of being undefined.
 * Every rank obtains bit-identical results (allreduce): each element is
 * computed by one rank and copied to the others. */

/* Algorithm of a reduce or allreduce. */
typedef enum
{
  ONECOLL_REDUCE_AUTO = 0,          /* by size and process count, see
                                       onecoll_reduce_select() */
  ONECOLL_REDUCE_BINOMIAL = 1,      /* minimum spanning tree: binomial reduce to the
                                       root (allreduce: then a binomial broadcast) */
  ONECOLL_REDUCE_RHRD = 2,          /* recursive halving + doubling (Rabenseifner);
                                       on a non-power-of-two N' the PRIOR_ART step */
  ONECOLL_REDUCE_PRIOR_ART = 3,     /* MPICH / Rabenseifner non-power-of-two step:
                                       the first 2r ranks exchange halves, the odd
                                       ones forward their half and drop out */
  ONECOLL_REDUCE_S0S1 = 4,          /* the S0/S1 scheme of US 7,953,684 (r even and
                                       r odd): no forwarding, N ranks each reduce a
                                       half vector */
} onecoll_reduce_algo;
#define ONECOLL_REDUCE_N_ALGOS 5

/* How argument errors are detected. */
typedef enum
{
  ONECOLL_CHECK_LOCAL = 0,          /* default: each rank checks its own arguments;
                                       an error that every rank makes (the usual
                                       case: same count, type, op everywhere) returns
                                       on every rank without communication, but an
                                       error on some ranks only leaves the others
                                       waiting, as with MPI */
  ONECOLL_CHECK_AGREE = 1,          /* the ranks first agree (one small
                                       MPI_Allreduce): an error on any rank, or ranks
                                       that disagree on count, type, op or root,
                                       return an error on every rank, never a hang */
} onecoll_check_mode;

/* Per-call options. Zero-filled (or NULL) means AUTO and LOCAL. */
typedef struct
{
  onecoll_reduce_algo algo;
  onecoll_check_mode check;
} onecoll_reduce_opts;

/* onecoll_allreduce:
 * Collective over @comm: @recvbuf on every rank receives the element-wise
 * reduction by @op of the @sendbuf of every rank (@count items of @type).
 * @sendbuf may be MPI_IN_PLACE (the input is then in @recvbuf). @opts may
 * be NULL. Every rank must pass the same count, type, op and algorithm.
 * Returns MPI_SUCCESS or an MPI error class:
 *   MPI_ERR_COMM     @comm is MPI_COMM_NULL or an inter-communicator;
 *   MPI_ERR_COUNT    @count < 0 or too large (see above);
 *   MPI_ERR_TYPE     @type is not supported;
 *   MPI_ERR_OP       @op is not supported;
 *   MPI_ERR_BUFFER   a buffer is NULL with @count > 0, or @sendbuf == @recvbuf;
 *   MPI_ERR_ARG      @opts is invalid; (AGREE: ranks disagree on the arguments)
 *   MPI_ERR_NO_MEM   out of memory;
 *   another class    an MPI call failed.
 * Argument errors return before any communication (LOCAL) or after the
 * agreement only (AGREE), and leave the buffers untouched. Thread-safe for
 * calls on different communicators. */
ONECOLL_API int onecoll_allreduce (const void                *sendbuf,
                                   void                      *recvbuf,
                                   int                        count,
                                   MPI_Datatype               type,
                                   MPI_Op                     op,
                                   MPI_Comm                   comm,
                                   const onecoll_reduce_opts *opts);

/* onecoll_reduce:
 * As onecoll_allreduce(), but only rank @root receives the result in
 * @recvbuf (ignored, and may be NULL, on the other ranks); the root may pass
 * MPI_IN_PLACE as @sendbuf. Also MPI_ERR_ROOT (@root outside the
 * communicator) and MPI_ERR_BUFFER for MPI_IN_PLACE on a rank that is not
 * the root. */
ONECOLL_API int onecoll_reduce (const void                *sendbuf,
                                void                      *recvbuf,
                                int                        count,
                                MPI_Datatype               type,
                                MPI_Op                     op,
                                int                        root,
                                MPI_Comm                   comm,
                                const onecoll_reduce_opts *opts);

/* onecoll_reduce_select:
 * The algorithm ONECOLL_REDUCE_AUTO runs for a reduce (@allreduce 0) or
 * allreduce (1) of @bytes bytes on @nprocs processes: BINOMIAL below
 * 2 KiB (allreduce) or 256 KiB (reduce), else RHRD on a power of two and
 * S0S1 otherwise. Thread-safe, no MPI calls. */
ONECOLL_API onecoll_reduce_algo onecoll_reduce_select (int     allreduce,
                                                       int     nprocs,
                                                       int64_t bytes);

/* onecoll_reduce_cost:
 * The alpha-beta-gamma model of @algo (AUTO: the selected one) for a
 * reduce or allreduce of @bytes bytes on @nprocs processes: seconds, with
 * @alpha seconds per message, @beta seconds per byte sent and @gamma
 * seconds per byte reduced (docs/onecoll.md gives the formulas). Returns
 * a negative value for an unknown algorithm or @nprocs < 1. */
ONECOLL_API double onecoll_reduce_cost (onecoll_reduce_algo algo,
                                        int                 allreduce,
                                        int                 nprocs,
                                        double              bytes,
                                        double              alpha,
                                        double              beta,
                                        double              gamma);

/* onecoll_reduce_algo_name:
 * "auto", "binomial", "rhrd", "prior-art", "s0s1"; NULL if unknown. */
ONECOLL_API const char *onecoll_reduce_algo_name (int algo);

/* ------------------------------------------------------------------------
 * Shared-memory reader-writer locks (onecoll-rwlock*.c; docs/onecoll.md)
 * ------------------------------------------------------------------------
 *
 * A read-mostly lock between processes of one machine, as a PMIx server
 * needs for the key-value database it shares with its local clients
 * (A. V. Efimov, A. Yu. Polyakov et al., "Shared memory access
 * optimization for PMIx standard implementation", 2020): one writer (the
 * server) and up to nclients reader processes (the clients), in one POSIX
 * shared-memory segment (shm_open + mmap) that the server creates. Clients
 * never write the protected data.
 *
 * This part needs neither MPI nor the runtime (onecoll_init()): the parties
 * are processes, not ranks, and the calls make no MPI call.
 *
 * Every reader has a slot (its client index, 0..nclients-1), and every
 * scheme below is, logically, one lock per slot: a reader takes its own
 * slot's lock, the writer takes all of them. The schemes
 * (ONECOLL_RWLOCK_*) differ in how:
 *   PTHREAD        one process-shared pthread_rwlock_t (writer-preferring)
 *   MUTEX_1N       one mutex per client; the writer locks all N
 *   MUTEX_2N       per client a signal mutex and an access mutex (OpenPMIx
 *                  gds/ds21): reader LS, LP, unlock LS; writer all LS then
 *                  all LP
 *   MUTEX_SIGNAL   N(mutex+signal): per client an access mutex and a signal
 *                  word the writer raises first
 *   MCS            N-MCS: per client an MCS queue lock with two records
 *                  (client, server); one atomic per uncontended acquire and
 *                  release
 *   UNLOCKED       no exclusion at all - only for testing that the torn-read
 *                  checks of the key-value store do detect races
 * Mutexes are process-shared and robust: a client that dies holding its
 * lock is detected (EOWNERDEAD, or its pid for the spinning schemes and the
 * rwlock) and the writer takes the lock over with ONECOLL_WARN_OWNER_DEAD
 * instead of hanging; a reader whose writer died gets ONECOLL_ERR_PEER.
 *
 * Handles: one per process and role. The server's (onecoll_rwlock_init())
 * writes; a client's (onecoll_rwlock_attach()) reads as its slot. A handle
 * must not be used by two threads at once. Lock calls return ONECOLL_OK,
 * ONECOLL_WARN_OWNER_DEAD (> 0, the lock is held) or a negative
 * onecoll_status; nothing prints, exits or aborts.
 *
 * The segment also holds a small key-value store (fixed-size records with
 * checksums): the server commits several records under one write lock;
 * a client gets a consistent snapshot of one key under its read lock.
 */

/* A lock handle (opaque). */
typedef struct onecoll_rwlock onecoll_rwlock;

/* The lock schemes. The values are stable. */
typedef enum
{
  ONECOLL_RWLOCK_UNLOCKED = 0,      /* no exclusion: tests of the checks only */
  ONECOLL_RWLOCK_PTHREAD = 1,       /* process-shared pthread_rwlock_t */
  ONECOLL_RWLOCK_MUTEX_1N = 2,      /* 1N-mutex */
  ONECOLL_RWLOCK_MUTEX_2N = 3,      /* 2N-mutex (OpenPMIx gds/ds21) */
  ONECOLL_RWLOCK_MUTEX_SIGNAL = 4,  /* N(mutex+signal) */
  ONECOLL_RWLOCK_MCS = 5,           /* N-MCS */
} onecoll_rwlock_scheme;
#define ONECOLL_RWLOCK_N_SCHEMES 6

#define ONECOLL_RWLOCK_MAX_CLIENTS 4096
#define ONECOLL_RWLOCK_MAX_RECORDS 65536
#define ONECOLL_KV_VALUE_MAX 104    /* bytes of a record's value */

/* What onecoll_rwlock_init() creates. Fill with onecoll_rwlock_config_init(). */
typedef struct
{
  onecoll_rwlock_scheme scheme;
  int nclients;                     /* reader slots, 1..ONECOLL_RWLOCK_MAX_CLIENTS */
  int nrecords;                     /* key-value records, 0..ONECOLL_RWLOCK_MAX_RECORDS */
  int replace;                      /* 1: remove a segment of the same name first
                                       (left by a server that died); 0: fail with
                                       ONECOLL_ERR_EXISTS */
} onecoll_rwlock_config;

/* Counters of a handle (onecoll_rwlock_get_stats()). Times in ns. */
typedef struct
{
  uint64_t rdlocks;                 /* read locks taken through this handle */
  uint64_t wrlocks;                 /* write locks taken through this handle */
  uint64_t wrlock_wait_total;       /* wrlock: sum of the waits, start to all held */
  uint64_t wrlock_wait_max;         /* wrlock: longest wait */
  uint64_t owner_dead;              /* wrlock: dead clients taken over */
} onecoll_rwlock_stats;

/* One record of a commit. */
typedef struct
{
  uint32_t key;                     /* != 0 */
  uint32_t len;                     /* 0..ONECOLL_KV_VALUE_MAX */
  const void *value;                /* len bytes (may be NULL if len is 0) */
} onecoll_kv_item;

/* onecoll_rwlock_config_init:
 * Fills @cfg with @scheme, @nclients clients, 64 records, replace 0.
 * Returns ONECOLL_OK or ONECOLL_ERR_ARG (@cfg NULL). Thread-safe. */
ONECOLL_API int onecoll_rwlock_config_init (onecoll_rwlock_config *cfg,
                                            onecoll_rwlock_scheme  scheme,
                                            int                    nclients);

/* onecoll_rwlock_init:
 * The server: creates the segment @name (a POSIX shm name, "/name", at
 * most 200 bytes), lays the scheme's locks and the empty store out in it
 * and returns the writer's handle in *@lock. The segment is mode 0600 and
 * stays until the server's onecoll_rwlock_destroy().
 * Returns:
 *   ONECOLL_OK;
 *   ONECOLL_ERR_ARG     @name, @cfg or @lock NULL, @name not "/..." or too
 *                       long, an unknown scheme, nclients outside
 *                       1..ONECOLL_RWLOCK_MAX_CLIENTS (N = 0 is refused),
 *                       nrecords outside 0..ONECOLL_RWLOCK_MAX_RECORDS;
 *   ONECOLL_ERR_EXISTS  the segment exists and @cfg->replace is 0;
 *   ONECOLL_ERR_SYSTEM  shm_open, ftruncate, mmap or a pthread init failed
 *                       (errno is kept); ONECOLL_ERR_NOMEM.
 * Nothing is left behind on error. */
ONECOLL_API int onecoll_rwlock_init (const char                  *name,
                                     const onecoll_rwlock_config *cfg,
                                     onecoll_rwlock             **lock);

/* onecoll_rwlock_attach:
 * A client: maps the segment @name that a server created and claims reader
 * slot @client (0..nclients-1), or the first free one if @client is -1.
 * The slot is free again after onecoll_rwlock_destroy() on the handle, or
 * when the writer found its process dead.
 * Returns:
 *   ONECOLL_OK;
 *   ONECOLL_ERR_ARG        @name or @lock NULL, @client < -1 or >= nclients;
 *   ONECOLL_ERR_NOT_FOUND  there is no segment @name;
 *   ONECOLL_ERR_VERSION    @name is not an onecoll rwlock segment of this
 *                          version (or its server has not finished init);
 *   ONECOLL_ERR_BUSY       the slot (every slot, for -1) belongs to a live
 *                          process;
 *   ONECOLL_ERR_SYSTEM, ONECOLL_ERR_NOMEM. */
ONECOLL_API int onecoll_rwlock_attach (const char      *name,
                                       int              client,
                                       onecoll_rwlock **lock);

/* onecoll_rwlock_destroy:
 * Server: unmaps and removes the segment (clients that have it mapped keep
 * their mapping until they destroy their handles). Client: frees its slot
 * and unmaps. Must not be called while the handle holds a lock. NULL is
 * accepted. Returns ONECOLL_OK, or ONECOLL_ERR_SYSTEM if shm_unlink failed
 * (the handle is freed anyway). */
ONECOLL_API int onecoll_rwlock_destroy (onecoll_rwlock *lock);

/* onecoll_rwlock_rdlock:
 * A client takes the read lock of its slot. Waits while the writer holds
 * or (every scheme but PTHREAD and MUTEX_1N, which are FIFO or writer-
 * preferring themselves) wants the lock.
 * Returns ONECOLL_OK; ONECOLL_ERR_ARG (NULL, or a server's handle);
 * ONECOLL_ERR_BUSY (this handle holds the lock already); ONECOLL_ERR_PEER
 * (the writer died; the lock is not held); ONECOLL_ERR_SYSTEM. */
ONECOLL_API int onecoll_rwlock_rdlock (onecoll_rwlock *lock);

/* onecoll_rwlock_rdunlock:
 * Releases the read lock. Returns ONECOLL_OK or ONECOLL_ERR_ARG (not held). */
ONECOLL_API int onecoll_rwlock_rdunlock (onecoll_rwlock *lock);

/* onecoll_rwlock_wrlock:
 * The server takes the write lock: every client's lock. Never waits
 * forever for a dead client: it detects it, takes its lock over and frees
 * its slot.
 * Returns ONECOLL_OK; ONECOLL_WARN_OWNER_DEAD (held; one or more clients
 * were found dead, see onecoll_rwlock_get_stats()); ONECOLL_ERR_ARG (NULL,
 * a client's handle); ONECOLL_ERR_BUSY (held already); ONECOLL_ERR_SYSTEM
 * (nothing is held). */
ONECOLL_API int onecoll_rwlock_wrlock (onecoll_rwlock *lock);

/* onecoll_rwlock_wrunlock:
 * Releases the write lock. Returns ONECOLL_OK or ONECOLL_ERR_ARG (not held). */
ONECOLL_API int onecoll_rwlock_wrunlock (onecoll_rwlock *lock);

/* onecoll_rwlock_get_stats:
 * Copies the handle's counters to *@stats. Returns ONECOLL_OK or
 * ONECOLL_ERR_ARG. */
ONECOLL_API int onecoll_rwlock_get_stats (const onecoll_rwlock *lock,
                                          onecoll_rwlock_stats *stats);

/* onecoll_rwlock_info:
 * The segment's scheme, client count and this handle's slot (-1 for the
 * server); any output may be NULL. Returns ONECOLL_OK or ONECOLL_ERR_ARG. */
ONECOLL_API int onecoll_rwlock_info (const onecoll_rwlock  *lock,
                                     onecoll_rwlock_scheme *scheme,
                                     int                   *nclients,
                                     int                   *client);

/* onecoll_rwlock_scheme_name:
 * "unlocked", "pthread-rwlock", "1n-mutex", "2n-mutex", "n-mutex-signal",
 * "n-mcs"; NULL if unknown. onecoll_rwlock_scheme_from_name() is the
 * inverse (-1 if unknown). */
ONECOLL_API const char *onecoll_rwlock_scheme_name (int scheme);
ONECOLL_API int onecoll_rwlock_scheme_from_name (const char *name);

/* onecoll_rwlock_kv_commit:
 * The server writes @n records (keys distinct, != 0) under one write lock:
 * a reader sees all of them or none. Each record takes the new commit
 * number as its version. A new key takes a free record.
 * Returns what onecoll_rwlock_wrlock() returned (ONECOLL_OK or
 * ONECOLL_WARN_OWNER_DEAD) after writing, or ONECOLL_ERR_ARG (bad item,
 * client's handle), ONECOLL_ERR_LIMIT (no free record; nothing written),
 * a wrlock error. */
ONECOLL_API int onecoll_rwlock_kv_commit (onecoll_rwlock        *lock,
                                          const onecoll_kv_item *items,
                                          int                    n);

/* onecoll_rwlock_kv_get:
 * A client copies the value of @key into @value (up to @cap bytes) under its
 * read lock and checks the record's checksum. *@len gets the value's length
 * and *@version the commit that wrote it (either may be NULL).
 * Returns ONECOLL_OK; ONECOLL_ERR_NOT_FOUND (no such key);
 * ONECOLL_ERR_CORRUPT (checksum mismatch: a torn record); ONECOLL_ERR_LIMIT
 * (@cap too small; *@len is set); an rdlock error; ONECOLL_ERR_ARG. */
ONECOLL_API int onecoll_rwlock_kv_get (onecoll_rwlock *lock,
                                       uint32_t        key,
                                       void           *value,
                                       uint32_t        cap,
                                       uint32_t       *len,
                                       uint64_t       *version);

#ifdef __cplusplus
}
#endif

#endif /* ONECOLL_H */
