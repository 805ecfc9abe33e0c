/*
 * onecoll-runtime.c - start and stop of the runtime, the Broadcaster thread,
 * error codes and the remote-counter primitives.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lifetime: onecoll_init() builds a onecoll__runtime on every rank of the
 * communicator, opens nothing on the user's communicator except its
 * duplicate, and returns only when the Broadcaster thread of this rank holds
 * its passive epoch on the aux window and every rank got that far. From then
 * on the Broadcaster loops: read req[] of all used slots, relay each slot
 * whose token grew and whose claim it wins (an application thread waiting
 * in onecoll may win it instead, onecoll__wait), back off when
 * nothing changed. onecoll_finalize()
 * frees the windows, waits for every rank (so that no request can still be
 * on its way), then stops and joins the thread.
 *
 * The aux window's passive epoch (MPI_Win_lock_all with MPI_MODE_NOCHECK:
 * onecoll never takes exclusive locks) is opened and closed by the
 * Broadcaster as the paper has it; an epoch belongs to the process, so the
 * application threads use it too for their puts, flags and counters.
 */
#include "onecoll-private.h"

#include <stdlib.h>
#include <string.h>

onecoll__runtime *onecoll__rt;

/* MPI error code behind the latest ONECOLL_ERR_MPI of this thread. */
static _Thread_local int last_mpi_error = MPI_SUCCESS;

int
onecoll__mpi (int mpi_rc)
{
  if (mpi_rc == MPI_SUCCESS)
    return ONECOLL_OK;
  last_mpi_error = mpi_rc;
  return ONECOLL_ERR_MPI;
}

int
onecoll_last_mpi_error (void)
{
  return last_mpi_error;
}

const char *
onecoll_strerror (int err)
{
  switch (err)
    {
    case ONECOLL_OK:
      return "success";
    case ONECOLL_ERR_ARG:
      return "invalid argument";
    case ONECOLL_ERR_THREAD_LEVEL:
      return "MPI does not provide MPI_THREAD_MULTIPLE";
    case ONECOLL_ERR_NOT_INIT:
      return "onecoll runtime is not initialised";
    case ONECOLL_ERR_ALREADY_INIT:
      return "onecoll runtime is already initialised";
    case ONECOLL_ERR_UNKNOWN_WINDOW:
      return "unknown onecoll window";
    case ONECOLL_ERR_MPI:
      return "MPI call failed";
    case ONECOLL_ERR_NOMEM:
      return "out of memory";
    case ONECOLL_ERR_THREAD:
      return "cannot start the Broadcaster thread";
    case ONECOLL_ERR_LIMIT:
      return "too many onecoll windows";
    case ONECOLL_ERR_BUSY:
      return "not allowed while the onecoll runtime is running";
    case ONECOLL_ERR_PEER:
      return "another rank failed or disagrees (rwlock: the writer died)";
    case ONECOLL_ERR_NOT_FOUND:
      return "no such shared-memory segment or key";
    case ONECOLL_ERR_VERSION:
      return "not an onecoll rwlock segment of this version";
    case ONECOLL_ERR_SYSTEM:
      return "a system call failed (see errno)";
    case ONECOLL_ERR_CORRUPT:
      return "a key-value record failed its checksum (torn record)";
    case ONECOLL_ERR_EXISTS:
      return "the shared-memory segment exists already";
    case ONECOLL_WARN_OWNER_DEAD:
      return "warning: a client died holding its lock; the lock was taken over";
    default:
      return "unknown onecoll error";
    }
}

int
onecoll__opts_valid (const onecoll_bcast_opts *opts)
{
  return opts->algo >= ONECOLL_ALGO_DEFAULT && opts->algo <= ONECOLL_ALGO_BINOMIAL
         && opts->order >= ONECOLL_ORDER_DEFAULT && opts->order <= ONECOLL_ORDER_LARGEST_FIRST;
}

int
onecoll_config_init (onecoll_config *cfg)
{
  if (cfg == NULL)
    return ONECOLL_ERR_ARG;
  memset (cfg, 0, sizeof *cfg);
  onecoll_poll_policy_init (&cfg->waiter, ONECOLL_POLL_ADAPTIVE);
  onecoll_poll_policy_init (&cfg->flush, ONECOLL_POLL_ADAPTIVE);
  cfg->bcast.algo = ONECOLL_ALGO_BINOMIAL;
  cfg->bcast.order = ONECOLL_ORDER_LARGEST_FIRST;
  cfg->max_windows = 64;
  cfg->relay = ONECOLL_RELAY_WAITER;
  cfg->help_after_ns = 0;
  return ONECOLL_OK;
}

int
onecoll_initialized (void)
{
  return onecoll__rt != NULL;
}

/* Every rank learns whether every rank succeeded. Returns @rc if it is an
 * error, ONECOLL_ERR_PEER if only another rank failed. */
int
onecoll__agree (MPI_Comm comm,
                int      rc)
{
  int worst = rc;

  if (MPI_Allreduce (&rc, &worst, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
    return rc != ONECOLL_OK ? rc : ONECOLL_ERR_MPI;
  if (rc != ONECOLL_OK)
    return rc;
  return worst == ONECOLL_OK ? ONECOLL_OK : ONECOLL_ERR_PEER;
}

/* ---- remote counters in the aux window ---- */

int
onecoll__read_counter (onecoll__runtime *rt,
                       int               target,
                       MPI_Aint          disp,
                       int64_t          *value)
{
  int64_t unused = 0;
  int rc;

  rc = onecoll__mpi (MPI_Fetch_and_op (&unused, value, MPI_INT64_T, target, disp,
                                       MPI_NO_OP, rt->aux));
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush (target, rt->aux));
  return rc;
}

int
onecoll__wait (onecoll__runtime *rt,
               onecoll__check    check,
               void             *arg,
               onecoll__win     *help)
{
  /* used_slots only changes in win_create/win_free, which never run while
   * another onecoll call is in progress: fixed for this wait. */
  int n = atomic_load (&rt->used_slots);
  int relaying = rt->cfg.relay == ONECOLL_RELAY_WAITER && n > 0;
  onecoll__poller poller;
  int rc = ONECOLL_OK;

  onecoll__poller_init (&poller, &rt->cfg.flush);
  for (;;)
    {
      int reached = 0;
      int relayed = 0;

      rc = check (rt, arg, &reached);
      if (rc != ONECOLL_OK || reached)
        break;
      /* A relay error (ours or the Broadcaster's) means our part of the
       * tree will never be relayed; report it instead of waiting forever. */
      rc = atomic_load (&rt->bcaster_rc);
      if (rc != ONECOLL_OK)
        break;
      if (relaying)
        {
          int helped = 0;

          rc = onecoll__progress (rt, n, 0, &relayed);
          if (rc == ONECOLL_OK && help != NULL)
            rc = onecoll__root_help (rt, help, &helped);
          if (rc != ONECOLL_OK)
            break;
          relayed |= helped;
        }
      if (relayed)
        onecoll__poller_init (&poller, &rt->cfg.flush);
      else
        onecoll__poller_wait (&poller);
    }
  return rc;
}

typedef struct
{
  int target;                       /* rank whose aux memory holds the counter */
  MPI_Aint disp;                    /* its displacement */
  int64_t value;                    /* the value waited for */
} counter_wait;

static int
counter_reached (onecoll__runtime *rt,
                 void             *arg,
                 int              *reached)
{
  const counter_wait *cw = arg;
  int64_t value = 0;
  int rc;

  *reached = 0;
  /* Our own counter: a plain load until it looks reached (no lock), then
   * the atomic read that decides. Another rank's: atomics. The sync is
   * also the one a poll of req[] needs. */
  rc = onecoll__mpi (MPI_Win_sync (rt->aux));
  if (rc == ONECOLL_OK && (cw->target != rt->rank || onecoll__peek (rt, cw->disp) >= cw->value))
    {
      rc = onecoll__read_counter (rt, cw->target, cw->disp, &value);
      *reached = rc == ONECOLL_OK && value >= cw->value;
    }
  return rc;
}

int
onecoll__wait_counter (onecoll__runtime *rt,
                       int               target,
                       MPI_Aint          disp,
                       int64_t           target_value)
{
  counter_wait cw = { target, disp, target_value };

  return onecoll__wait (rt, counter_reached, &cw, NULL);
}

int
onecoll__add_counter (onecoll__runtime *rt,
                      int               target,
                      MPI_Aint          disp,
                      int64_t           delta)
{
  int rc;

  rc = onecoll__mpi (MPI_Accumulate (&delta, 1, MPI_INT64_T, target, disp, 1, MPI_INT64_T,
                                     MPI_SUM, rt->aux));
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush (target, rt->aux));
  return rc;
}

/* ---- the Broadcaster ---- */

static void
broadcaster_ready (onecoll__runtime *rt,
                   int               rc)
{
  pthread_mutex_lock (&rt->lock);
  rt->ready = 1;
  rt->ready_rc = rc;
  pthread_cond_broadcast (&rt->cond);
  pthread_mutex_unlock (&rt->lock);
}

void *
onecoll__broadcaster_main (void *data)
{
  onecoll__runtime *rt = data;
  onecoll__poller poller;
  int rc;

  if (onecoll__hooks.thread_begin != NULL)
    onecoll__hooks.thread_begin (onecoll__hooks.user_data, "onecoll-broadcaster");
#ifdef __GLIBC__
  pthread_setname_np (pthread_self (), "onecoll-bcaster");
#endif

  rc = onecoll__mpi (MPI_Win_lock_all (MPI_MODE_NOCHECK, rt->aux));
  broadcaster_ready (rt, rc);
  if (rc != ONECOLL_OK)
    goto out;

  onecoll__poller_init (&poller, &rt->cfg.waiter);
  ONECOLL__ENTER_PLAIN (ONECOLL_REGION_BROADCASTER_POLL);
  while (!atomic_load (&rt->stop))
    {
      int n = atomic_load (&rt->used_slots);
      int found = 0;

      if (n > 0 && atomic_load (&rt->bcaster_rc) == ONECOLL_OK)
        {
          rc = onecoll__mpi (MPI_Win_sync (rt->aux));
          if (rc == ONECOLL_OK)
            rc = onecoll__progress (rt, n, 1, &found);
        }

      if (found)
        {
          ONECOLL__ENTER_PLAIN (ONECOLL_REGION_BROADCASTER_POLL);
          onecoll__poller_init (&poller, &rt->cfg.waiter);
        }
      else
        onecoll__poller_wait (&poller);
    }
  ONECOLL__LEAVE (ONECOLL_REGION_BROADCASTER_POLL);

  rc = onecoll__mpi (MPI_Win_unlock_all (rt->aux));
  if (rc != ONECOLL_OK)
    onecoll__relay_failed (rt, rc);

out:
  if (onecoll__hooks.thread_end != NULL)
    onecoll__hooks.thread_end (onecoll__hooks.user_data);
  return NULL;
}

/* Starts the Broadcaster and waits until it holds its epoch. */
static int
broadcaster_start (onecoll__runtime *rt)
{
  int rc;

  if (pthread_create (&rt->thread, NULL, onecoll__broadcaster_main, rt) != 0)
    return ONECOLL_ERR_THREAD;
  pthread_mutex_lock (&rt->lock);
  while (!rt->ready)
    pthread_cond_wait (&rt->cond, &rt->lock);
  rc = rt->ready_rc;
  pthread_mutex_unlock (&rt->lock);
  if (rc != ONECOLL_OK)
    pthread_join (rt->thread, NULL);
  return rc;
}

static int
broadcaster_stop (onecoll__runtime *rt)
{
  atomic_store (&rt->stop, 1);
  pthread_join (rt->thread, NULL);
  return atomic_load (&rt->bcaster_rc);
}

/* ---- init / finalize ---- */

static void
runtime_free (onecoll__runtime *rt)
{
  if (rt == NULL)
    return;
  if (rt->aux != MPI_WIN_NULL)
    MPI_Win_free (&rt->aux);
  if (rt->comm != MPI_COMM_NULL)
    MPI_Comm_free (&rt->comm);
  pthread_cond_destroy (&rt->cond);
  pthread_mutex_destroy (&rt->lock);
  free (rt->wins);
  free ((void *) rt->claimed);
  free (rt);
}

/* Collective: the offset that puts the aux slot blocks on cache-line
 * boundaries on every rank, or 0 if the ranks' memory is aligned
 * differently (or @base is NULL somewhere: the allocation failed). Only a
 * matter of speed: every rank uses the same displacements either way. */
static MPI_Aint
aux_align (onecoll__runtime *rt,
           unsigned char    *base)
{
  int64_t mine[2] = { -1, -1 };
  int64_t least[2];

  if (base != NULL)
    {
      mine[0] = (ONECOLL__LINE - (int64_t) ((uintptr_t) base % ONECOLL__LINE)) % ONECOLL__LINE;
      mine[1] = -mine[0];
    }
  if (MPI_Allreduce (mine, least, 2, MPI_INT64_T, MPI_MIN, rt->comm) != MPI_SUCCESS
      || least[0] < 0 || least[0] != -least[1])
    return 0;
  return (MPI_Aint) least[0];
}

int
onecoll_init (MPI_Comm              comm,
              const onecoll_config *cfg)
{
  onecoll__runtime *rt;
  onecoll_config config;
  int flag = 0;
  int level = MPI_THREAD_SINGLE;
  int rc;

  if (onecoll__rt != NULL)
    return ONECOLL_ERR_ALREADY_INIT;
  if (MPI_Initialized (&flag) != MPI_SUCCESS || !flag)
    return ONECOLL_ERR_MPI;
  if (MPI_Finalized (&flag) != MPI_SUCCESS || flag)
    return ONECOLL_ERR_MPI;
  rc = onecoll__mpi (MPI_Query_thread (&level));
  if (rc != ONECOLL_OK)
    return rc;
  if (level != MPI_THREAD_MULTIPLE)
    return ONECOLL_ERR_THREAD_LEVEL;
  if (comm == MPI_COMM_NULL)
    return ONECOLL_ERR_ARG;
  if (cfg != NULL)
    {
      config = *cfg;
      if (!onecoll__poll_policy_valid (&config.waiter)
          || !onecoll__poll_policy_valid (&config.flush)
          || !onecoll__opts_valid (&config.bcast)
          || config.max_windows < 1 || config.max_windows > ONECOLL__MAX_WINDOWS
          || (config.relay != ONECOLL_RELAY_WAITER && config.relay != ONECOLL_RELAY_BROADCASTER))
        return ONECOLL_ERR_ARG;
    }
  else
    onecoll_config_init (&config);
  if (config.bcast.algo == ONECOLL_ALGO_DEFAULT)
    config.bcast.algo = ONECOLL_ALGO_BINOMIAL;
  if (config.bcast.order == ONECOLL_ORDER_DEFAULT)
    config.bcast.order = ONECOLL_ORDER_LARGEST_FIRST;

  ONECOLL__ENTER_PLAIN (ONECOLL_REGION_INIT);

  rt = calloc (1, sizeof *rt);
  if (rt == NULL)
    {
      rc = ONECOLL_ERR_NOMEM;
      goto out;
    }
  rt->comm = MPI_COMM_NULL;
  rt->aux = MPI_WIN_NULL;
  rt->cfg = config;
  rt->max_windows = config.max_windows;
  pthread_mutex_init (&rt->lock, NULL);
  pthread_cond_init (&rt->cond, NULL);
  atomic_init (&rt->used_slots, 0);
  atomic_init (&rt->stop, 0);
  atomic_init (&rt->bcaster_rc, ONECOLL_OK);

  /* Collective on the caller's communicator: the only call that is. */
  rc = onecoll__mpi (MPI_Comm_dup (comm, &rt->comm));
  if (rc != ONECOLL_OK)
    goto out;
  MPI_Comm_set_errhandler (rt->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank (rt->comm, &rt->rank);
  MPI_Comm_size (rt->comm, &rt->nprocs);

  rt->wins = calloc ((size_t) rt->max_windows, sizeof *rt->wins);
  rt->claimed = malloc ((size_t) rt->max_windows * sizeof *rt->claimed);
  if (rt->claimed != NULL)
    for (int slot = 0; slot < rt->max_windows; slot++)
      atomic_init (&rt->claimed[slot], 0);
  rc = onecoll__agree (rt->comm, rt->wins != NULL && rt->claimed != NULL ? ONECOLL_OK
                                                                          : ONECOLL_ERR_NOMEM);
  if (rc != ONECOLL_OK)
    goto out;

  rc = onecoll__mpi (MPI_Win_allocate (onecoll__aux_size (rt->max_windows), 1, MPI_INFO_NULL,
                                       rt->comm, &rt->aux_base, &rt->aux));
  rt->aux_off = aux_align (rt, rc == ONECOLL_OK ? rt->aux_base : NULL);
  if (rc == ONECOLL_OK)
    {
      MPI_Win_set_errhandler (rt->aux, MPI_ERRORS_RETURN);
      /* No remote access can happen before the agreement below. */
      memset (rt->aux_base, 0, (size_t) onecoll__aux_size (rt->max_windows));
      rc = broadcaster_start (rt);
    }
  rc = onecoll__agree (rt->comm, rc);
  if (rc != ONECOLL_OK)
    {
      if (rt->ready && rt->ready_rc == ONECOLL_OK)
        broadcaster_stop (rt);
      goto out;
    }

  onecoll__rt = rt;
  rt = NULL;

out:
  runtime_free (rt);
  ONECOLL__LEAVE (ONECOLL_REGION_INIT);
  return rc;
}

int
onecoll_finalize (void)
{
  onecoll__runtime *rt = onecoll__rt;
  int rc = ONECOLL_OK;
  int r;

  if (rt == NULL)
    return ONECOLL_ERR_NOT_INIT;

  ONECOLL__ENTER_PLAIN (ONECOLL_REGION_FINALIZE);

  /* Slot order is the same on every rank, so the collective frees match. */
  for (int slot = 0; slot < rt->max_windows; slot++)
    {
      if (rt->wins[slot] == NULL)
        continue;
      r = onecoll_win_free (rt->wins[slot]->id);
      if (r != ONECOLL_OK && rc == ONECOLL_OK)
        rc = r;
    }

  /* After this barrier no rank sends a request or touches a counter. */
  r = onecoll__mpi (MPI_Barrier (rt->comm));
  if (r != ONECOLL_OK && rc == ONECOLL_OK)
    rc = r;

  r = broadcaster_stop (rt);
  if (r != ONECOLL_OK && rc == ONECOLL_OK)
    rc = r;

  onecoll__rt = NULL;
  runtime_free (rt);

  ONECOLL__LEAVE (ONECOLL_REGION_FINALIZE);
  return rc;
}
