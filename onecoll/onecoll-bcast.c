/*
 * onecoll-bcast.c - the linear and binomial RMA broadcasts, their relay by
 * the Broadcaster, and completion (flush/test).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A broadcast of count bytes on window w (slot s) from root r, binomial:
 *
 *   root, onecoll_bcast():   settle the previous broadcast on w here;
 *                            wait until released[s] at the previous root
 *                            counts all p ranks (nobody still reads w);
 *                            copy the data into its own window;
 *                            PutLoop: for each child c, PutRequest(c).
 *   PutRequest(c):           MPI_Put data into c's window, MPI_Put the
 *                            descriptor into c's descr[s], flush both, then
 *                            MPI_Accumulate(REPLACE) a fresh token into
 *                            c's req[s] and flush: the flag cannot become
 *                            visible before the data and the descriptor.
 *   Broadcaster of c:        sees req[s] change, reads descr[s], PutLoop to
 *                            its own children, then arrived[s] += 1 on
 *                            itself and done[s] += 1 on the root.
 *   root, flush/test:        done[s] at the root reaches (p - 1) times the
 *                            number of broadcasts on w rooted here.
 *   other rank, flush/test:  its arrived[s] reaches the number of
 *                            broadcasts on w it did not root; then the
 *                            data is copied to the caller's buffer (if
 *                            any) and the broadcast released.
 *
 * Linear: the root puts the data to every rank, flushes the data window,
 * adds 1 to every rank's arrived[s], flushes, and adds p - 1 to its own
 * done[s]; it is complete when onecoll_bcast() returns. (The paper's version
 * ends the epoch with MPI_Win_unlock_all; our epochs stay open for the
 * window's lifetime, so MPI_Win_flush_all does the same completion, and the
 * arrival counters let the other ranks know without a barrier.)
 *
 * Counters are cumulative and never reset while the window lives. Every
 * rank knows, from the calling convention, how many broadcasts on w each
 * rank has rooted (w->rooted[]), hence the target value of any counter,
 * and no reset can race an increment from a slow relay.
 *
 * Binomial tree: with relative rank v = (rank - root + p) mod p, the
 * children of v are v + 2^k for every 2^k < lowbit(v) (all 2^k < p for the
 * root), as long as v + 2^k < p. The child v + 2^k roots a subtree of up to
 * 2^k ranks and depth k. Smallest-subtree-first serves k = 0, 1, ... (the
 * paper's loop); largest-subtree-first serves them in reverse, so the child
 * with the longest remaining path starts first, which shortens the critical
 * path (MPICH's order).
 */
#include "onecoll-private.h"

#include <string.h>

/* A request token: the sender's rank in the top bits, a per-sender counter in
 * the low 40. Tokens never repeat (2^40 requests per rank), so a receiver
 * recognises a new request by inequality and nobody clears the flag. */
static int64_t
next_token (onecoll__runtime *rt)
{
  uint64_t n = atomic_fetch_add (&rt->tokens, 1) + 1;

  return (int64_t) (((uint64_t) rt->rank + 1) << 40 | (n & (((uint64_t) 1 << 40) - 1)));
}

/* Puts bytes [0, count) of this rank's window into @target's window. */
static int
put_data (onecoll__win *w,
          int           target,
          int64_t       count)
{
  for (int64_t off = 0; off < count; off += ONECOLL__PUT_CHUNK)
    {
      int64_t n = count - off < ONECOLL__PUT_CHUNK ? count - off : ONECOLL__PUT_CHUNK;
      int rc = onecoll__mpi (MPI_Put (w->base + off, (int) n, MPI_BYTE, target, (MPI_Aint) off,
                                      (int) n, MPI_BYTE, w->mpi_win));

      if (rc != ONECOLL_OK)
        return rc;
    }
  return ONECOLL_OK;
}

/* PutRequest: data, descriptor, flush, flag, flush. */
static int
put_request (onecoll__runtime *rt,
             onecoll__win     *w,
             int               target,
             int               root,
             int64_t           count,
             int               order,
             uint64_t          seq)
{
  onecoll__descr descr;
  int64_t token;
  int rc;

  ONECOLL__ENTER (ONECOLL_REGION_PUT_REQUEST, w->id, seq, root, target, count,
                  ONECOLL_ALGO_BINOMIAL, order);

  memset (&descr, 0, sizeof descr);
  descr.count = count;
  descr.seq = seq;
  descr.wid = w->id;
  descr.root = root;
  descr.origin = rt->rank;
  descr.order = order;

  rc = put_data (w, target, count);
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Put (&descr, (int) sizeof descr, MPI_BYTE, target,
                                onecoll__aux_descr (rt, w->slot), (int) sizeof descr, MPI_BYTE,
                                rt->aux));
  /* MPI does not order a Put before a later Accumulate: complete both first. */
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush (target, w->mpi_win));
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush (target, rt->aux));
  if (rc == ONECOLL_OK)
    {
      token = next_token (rt);
      rc = onecoll__mpi (MPI_Accumulate (&token, 1, MPI_INT64_T, target,
                                         onecoll__aux_req (rt, w->slot), 1, MPI_INT64_T,
                                         MPI_REPLACE, rt->aux));
    }
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush (target, rt->aux));

  ONECOLL__LEAVE (ONECOLL_REGION_PUT_REQUEST);
  return rc;
}

/* PutLoop: requests to this rank's children in the tree rooted at @root. */
static int
put_loop (onecoll__runtime *rt,
          onecoll__win     *w,
          int               root,
          int64_t           count,
          int               order,
          uint64_t          seq)
{
  int p = rt->nprocs;
  int vrank = (rt->rank - root + p) % p;
  int rc = ONECOLL_OK;

  ONECOLL__ENTER (ONECOLL_REGION_PUT_LOOP, w->id, seq, root, -1, count,
                  ONECOLL_ALGO_BINOMIAL, order);

  if (order == ONECOLL_ORDER_SMALLEST_FIRST)
    {
      for (int mask = 1; mask < p && rc == ONECOLL_OK; mask <<= 1)
        {
          if (vrank & mask)
            break;
          if (vrank + mask < p)
            rc = put_request (rt, w, (vrank + mask + root) % p, root, count, order, seq);
        }
    }
  else
    {
      /* Masks below the lowest set bit of vrank; for the root, below the
       * smallest power of two >= p. */
      int limit = vrank & -vrank;

      if (vrank == 0)
        for (limit = 1; limit < p; limit <<= 1)
          ;
      for (int mask = limit >> 1; mask > 0 && rc == ONECOLL_OK; mask >>= 1)
        if (vrank + mask < p)
          rc = put_request (rt, w, (vrank + mask + root) % p, root, count, order, seq);
    }

  ONECOLL__LEAVE (ONECOLL_REGION_PUT_LOOP);
  return rc;
}

/* The linear broadcast from this rank; complete on return. */
static int
bcast_linear (onecoll__runtime *rt,
              onecoll__win     *w,
              int64_t           count,
              uint64_t          seq)
{
  int p = rt->nprocs;
  int64_t one = 1;
  int rc = ONECOLL_OK;

  if (p == 1)
    return ONECOLL_OK;

  ONECOLL__ENTER (ONECOLL_REGION_PUT_LOOP, w->id, seq, rt->rank, -1, count,
                  ONECOLL_ALGO_LINEAR, -1);
  for (int i = 1; i < p && rc == ONECOLL_OK; i++)
    {
      int target = (rt->rank + i) % p;

      ONECOLL__ENTER (ONECOLL_REGION_PUT_REQUEST, w->id, seq, rt->rank, target, count,
                      ONECOLL_ALGO_LINEAR, -1);
      rc = put_data (w, target, count);
      ONECOLL__LEAVE (ONECOLL_REGION_PUT_REQUEST);
    }
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush_all (w->mpi_win));
  for (int i = 1; i < p && rc == ONECOLL_OK; i++)
    rc = onecoll__mpi (MPI_Accumulate (&one, 1, MPI_INT64_T, (rt->rank + i) % p,
                                       onecoll__aux_arrived (rt, w->slot), 1, MPI_INT64_T,
                                       MPI_SUM, rt->aux));
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush_all (rt->aux));
  ONECOLL__LEAVE (ONECOLL_REGION_PUT_LOOP);

  if (rc == ONECOLL_OK)
    rc = onecoll__add_counter (rt, rt->rank, onecoll__aux_done (rt, w->slot), p - 1);
  return rc;
}

int
onecoll__relay (onecoll__runtime *rt,
                int               slot)
{
  onecoll__win *w;
  onecoll__descr d;
  int rc;

  pthread_mutex_lock (&rt->lock);
  w = rt->wins[slot];
  if (w != NULL && !w->dying)
    w->refs++;
  else
    w = NULL;
  pthread_mutex_unlock (&rt->lock);
  /* A request for a window that is not registered here means that the
   * calling convention was broken (a window freed during a broadcast). */
  if (w == NULL)
    return ONECOLL_ERR_UNKNOWN_WINDOW;

  /* The parent completed the descriptor before setting the flag; make its
   * bytes visible to our loads. */
  rc = onecoll__mpi (MPI_Win_sync (rt->aux));
  memcpy (&d, rt->aux_base + onecoll__aux_descr (rt, slot), sizeof d);
  if (rc == ONECOLL_OK
      && (d.wid != w->id || d.count < 0 || d.count > w->size || d.root < 0
          || d.root >= rt->nprocs || d.root == rt->rank))
    rc = ONECOLL_ERR_UNKNOWN_WINDOW;

  if (rc == ONECOLL_OK)
    {
      ONECOLL__ENTER (ONECOLL_REGION_BROADCASTER_RELAY, w->id, d.seq, d.root, d.origin,
                      d.count, ONECOLL_ALGO_BINOMIAL, d.order);
      /* Our window memory is the source of the relay. */
      rc = onecoll__mpi (MPI_Win_sync (w->mpi_win));
      if (rc == ONECOLL_OK)
        rc = put_loop (rt, w, d.root, d.count, d.order, d.seq);
      /* Arrival only after our subtree is served: a rank that sees its
       * broadcast complete may write its window again. */
      if (rc == ONECOLL_OK)
        rc = onecoll__add_counter (rt, rt->rank, onecoll__aux_arrived (rt, slot), 1);
      if (rc == ONECOLL_OK)
        rc = onecoll__add_counter (rt, d.root, onecoll__aux_done (rt, slot), 1);
      ONECOLL__LEAVE (ONECOLL_REGION_BROADCASTER_RELAY);
    }

  pthread_mutex_lock (&rt->lock);
  w->refs--;
  pthread_cond_broadcast (&rt->cond);
  pthread_mutex_unlock (&rt->lock);
  return rc;
}

/* ---- completion ---- */

/* The counter that tells this rank that its pending broadcast is complete. */
static MPI_Aint
completion_counter (onecoll__runtime   *rt,
                    const onecoll__win *w)
{
  return w->pending_root ? onecoll__aux_done (rt, w->slot) : onecoll__aux_arrived (rt, w->slot);
}

/* Tells the latest broadcast's root that this rank no longer reads it. */
static int
release (onecoll__runtime *rt,
         onecoll__win     *w)
{
  int rc = onecoll__add_counter (rt, w->last_root, onecoll__aux_released (rt, w->slot), 1);

  if (rc == ONECOLL_OK)
    w->unreleased = 0;
  return rc;
}

/* Called once the completion counter reached its target. */
static int
finish (onecoll__runtime *rt,
        onecoll__win     *w)
{
  int rc = ONECOLL_OK;

  w->pending = 0;
  if (w->pending_root)
    return ONECOLL_OK;
  /* The data was put by other ranks: make it visible to our loads. */
  rc = onecoll__mpi (MPI_Win_sync (w->mpi_win));
  if (rc == ONECOLL_OK && w->recv_buf != NULL)
    {
      memmove (w->recv_buf, w->base, (size_t) w->recv_count);
      w->recv_buf = NULL;
      /* The caller has its own copy: the window is free for the next one. */
      rc = release (rt, w);
    }
  return rc;
}

/* Waits for the pending broadcast on @w, if any, and finishes it. */
static int
flush_pending (onecoll__runtime *rt,
               onecoll__win     *w)
{
  int rc;

  if (!w->pending)
    return ONECOLL_OK;
  rc = onecoll__wait_counter (rt, rt->rank, completion_counter (rt, w), w->pending_target);
  if (rc == ONECOLL_OK)
    rc = finish (rt, w);
  return rc;
}

int
onecoll__win_settle (onecoll__runtime *rt,
                     onecoll__win     *w)
{
  int rc = ONECOLL_OK;

  if (w->pending)
    {
      ONECOLL__ENTER (ONECOLL_REGION_FLUSH, w->id, w->seq, w->last_root, -1, -1, -1, -1);
      rc = flush_pending (rt, w);
      ONECOLL__LEAVE (ONECOLL_REGION_FLUSH);
    }
  if (rc == ONECOLL_OK && w->unreleased)
    rc = release (rt, w);
  return rc;
}

/* ---- public entry points ---- */

int
onecoll_bcast (onecoll_win               win,
               void                     *buf,
               int64_t                   count,
               int                       root,
               const onecoll_bcast_opts *opts)
{
  onecoll__runtime *rt = onecoll__rt;
  onecoll__win *w;
  onecoll_algo algo;
  onecoll_order order;
  uint64_t seq;
  int p;
  int rc;

  if (rt == NULL)
    return ONECOLL_ERR_NOT_INIT;
  w = onecoll__win_lookup (rt, win);
  if (w == NULL)
    return ONECOLL_ERR_UNKNOWN_WINDOW;
  p = rt->nprocs;
  if (root < 0 || root >= p || count < 0 || count > w->size || (buf == NULL && count > 0)
      || (opts != NULL && !onecoll__opts_valid (opts)))
    return ONECOLL_ERR_ARG;
  rc = atomic_load (&rt->bcaster_rc);
  if (rc != ONECOLL_OK)
    return rc;

  /* Call, then window, then runtime (which has no DEFAULT left). */
  algo = opts != NULL && opts->algo != ONECOLL_ALGO_DEFAULT ? opts->algo : w->opts.algo;
  if (algo == ONECOLL_ALGO_DEFAULT)
    algo = rt->cfg.bcast.algo;
  order = opts != NULL && opts->order != ONECOLL_ORDER_DEFAULT ? opts->order : w->opts.order;
  if (order == ONECOLL_ORDER_DEFAULT)
    order = rt->cfg.bcast.order;
  seq = w->seq + 1;

  ONECOLL__ENTER (ONECOLL_REGION_BCAST, w->id, seq, root, -1, count, algo, order);

  rc = onecoll__win_settle (rt, w);
  if (rc != ONECOLL_OK)
    goto out;

  if (rt->rank == root)
    {
      /* Spec step 1: the previous broadcast on w must be over everywhere,
       * and nobody may still be reading it. */
      if (w->last_root >= 0)
        {
          ONECOLL__ENTER (ONECOLL_REGION_WAIT_RELEASE, w->id, seq, root, w->last_root, count,
                          algo, order);
          rc = onecoll__wait_counter (rt, w->last_root, onecoll__aux_released (rt, w->slot),
                                      (int64_t) p * w->rooted[w->last_root]);
          ONECOLL__LEAVE (ONECOLL_REGION_WAIT_RELEASE);
          if (rc != ONECOLL_OK)
            goto out;
        }
      w->seq = seq;
      w->rooted[root]++;
      w->last_root = root;
      w->unreleased = 1;
      if (count > 0 && buf != w->base)
        memmove (w->base, buf, (size_t) count);

      if (algo == ONECOLL_ALGO_LINEAR)
        rc = bcast_linear (rt, w, count, seq);
      else
        {
          rc = put_loop (rt, w, root, count, order, seq);
          w->pending = p > 1;
          w->pending_root = 1;
          w->pending_target = (int64_t) (p - 1) * w->rooted[root];
        }
      /* The relays read their own windows, so once the root's puts are
       * complete its window is only needed if it is the caller's buffer. */
      if (rc == ONECOLL_OK && buf != w->base)
        rc = release (rt, w);
    }
  else
    {
      w->seq = seq;
      w->rooted[root]++;
      w->last_root = root;
      w->unreleased = 1;
      w->arrivals++;
      w->pending = 1;
      w->pending_root = 0;
      w->pending_target = w->arrivals;
      w->recv_buf = count > 0 && buf != w->base ? buf : NULL;
      w->recv_count = count;
    }

out:
  ONECOLL__LEAVE (ONECOLL_REGION_BCAST);
  return rc;
}

int
onecoll_bcast_flush (onecoll_win win)
{
  onecoll__runtime *rt = onecoll__rt;
  onecoll__win *w;
  int rc;

  if (rt == NULL)
    return ONECOLL_ERR_NOT_INIT;
  w = onecoll__win_lookup (rt, win);
  if (w == NULL)
    return ONECOLL_ERR_UNKNOWN_WINDOW;
  ONECOLL__ENTER (ONECOLL_REGION_FLUSH, w->id, w->seq, w->last_root, -1, -1, -1, -1);
  rc = flush_pending (rt, w);
  ONECOLL__LEAVE (ONECOLL_REGION_FLUSH);
  return rc;
}

int
onecoll_bcast_test (onecoll_win win,
                    int        *done)
{
  onecoll__runtime *rt = onecoll__rt;
  onecoll__win *w;
  int64_t value = 0;
  int rc = ONECOLL_OK;

  if (rt == NULL)
    return ONECOLL_ERR_NOT_INIT;
  w = onecoll__win_lookup (rt, win);
  if (w == NULL)
    return ONECOLL_ERR_UNKNOWN_WINDOW;
  if (done == NULL)
    return ONECOLL_ERR_ARG;

  ONECOLL__ENTER (ONECOLL_REGION_TEST, w->id, w->seq, w->last_root, -1, -1, -1, -1);
  *done = !w->pending;
  if (w->pending)
    {
      rc = onecoll__read_counter (rt, rt->rank, completion_counter (rt, w), &value);
      if (rc == ONECOLL_OK && value >= w->pending_target)
        {
          rc = finish (rt, w);
          *done = rc == ONECOLL_OK;
        }
      else if (rc == ONECOLL_OK)
        rc = atomic_load (&rt->bcaster_rc);
    }
  ONECOLL__LEAVE (ONECOLL_REGION_TEST);
  return rc;
}
