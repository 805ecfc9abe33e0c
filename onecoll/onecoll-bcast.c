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
 *   PutRequest(c):           MPI_Put the descriptor and the data into
 *                            c's window (the descriptor sits in the
 *                            window's head, in front of the data: one
 *                            put), flush, then MPI_Accumulate(REPLACE) a
 *                            fresh token into c's req[s] and flush: the
 *                            flag cannot become visible before the data
 *                            and the descriptor. (Small data: the puts of
 *                            all children first, one flush, the flags.)
 *   on c:                    the first of c's threads to see req[s] grow
 *                            and win the claim (MPI_Compare_and_swap on
 *                            c's claim[s]) relays: reads the descriptor
 *                            in its window's head, PutLoop
 *                            to c's own children, then arrived[s] += 1 on
 *                            c and done[s] += 1 on the root. The
 *                            Broadcaster always polls; an application
 *                            thread waiting in onecoll (flush, test, the
 *                            release wait) polls too with
 *                            ONECOLL_RELAY_WAITER, the default - progress
 *                            by the waiting thread, so that a relay does
 *                            not wait until the Broadcaster is scheduled.
 *   root, waiting:           (ONECOLL_RELAY_WAITER) for every rank whose
 *                            flag has been set for help_after_ns and whose
 *                            claim is still below the token, claims it
 *                            remotely and relays for it: that rank's
 *                            PutLoop from the root's own window (the same
 *                            bytes), its arrived[s], the root's done[s].
 *                            When the ranks are not scheduled (more
 *                            threads than cores) the tree degrades
 *                            towards the linear broadcast, instead of
 *                            waiting for log2 p wake-ups in a row.
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
#include <time.h>

#define TOKEN_SEQ_BITS 39
/* claim[slot] = token | TOKEN_HELPED: the broadcast's root took the
 * request on, which also counts as the rank's arrival (root_help). */
#define TOKEN_HELPED 1

/* The request token of broadcast @seq on @w: the window's serial above the
 * sequence number, above a zero bit (TOKEN_HELPED). A rank gets at most
 * one request per broadcast, windows in a slot get growing serials, and
 * the broadcasts of a window never overlap, so the tokens that reach a
 * slot of a rank only grow (for 2^39 broadcasts per window and 2^23
 * windows per process): a request is new when its token is above the
 * slot's claimed one, and a stale read of the flag can never look new. */
static uint64_t
request_token (const onecoll__win *w,
               uint64_t            seq)
{
  /* the low TOKEN_SEQ_BITS of seq, one up: shifts rather than a 64-bit
   * mask, which the compiler would load first thing in a caller, where a
   * tool that reads the debug information at the function's first
   * instruction then finds only this inlined function (the recorder's
   * call-site regions did) */
  return (w->id >> ONECOLL__SLOT_BITS) << (TOKEN_SEQ_BITS + 1)
         | seq << (64 - TOKEN_SEQ_BITS) >> (63 - TOKEN_SEQ_BITS);
}

/* Puts bytes [from, count) of this rank's window into @target's window:
 * from 0 the data, from ONECOLL__DESCR_OFF the descriptor in front of it. */
static int
put_data (onecoll__win *w,
          int           target,
          int64_t       from,
          int64_t       count)
{
  for (int64_t off = from; off < count; off += ONECOLL__PUT_CHUNK)
    {
      int64_t n = count - off < ONECOLL__PUT_CHUNK ? count - off : ONECOLL__PUT_CHUNK;
      int rc = onecoll__mpi (MPI_Put (w->base + off, (int) n, MPI_BYTE, target,
                                      (MPI_Aint) (ONECOLL__HEAD + off), (int) n, MPI_BYTE,
                                      w->mpi_win));

      if (rc != ONECOLL_OK)
        return rc;
    }
  return ONECOLL_OK;
}

/* Flags and counters of deliveries up to this many bytes are completed
 * together, by one flush at the end of a PutLoop; larger ones at once. On
 * osc/sm an MPI_Accumulate acts at once anyway, but a transport that
 * queues it until the flush would otherwise start a child only after its
 * parent's later copies. */
#define BATCH_MAX_BYTES ((int64_t) 64 * 1024)

/* A PutLoop of up to this many bytes puts the data (and descriptors) of
 * all children first and completes them with one MPI_Win_flush_all, then
 * sets the flags: the copies overlap, and each child waits for its
 * siblings' copies, which at this size take less than a microsecond here.
 * Larger ones go child by child, so that the first subtree starts after
 * one copy. */
#define DATA_BATCH_MAX_BYTES ((int64_t) 4 * 1024)

/* Completes the flag or counter just sent to @target when the delivery
 * was large (BATCH_MAX_BYTES). */
static int
complete_large (onecoll__runtime *rt,
                int               target,
                int64_t           count)
{
  if (count <= BATCH_MAX_BYTES)
    return ONECOLL_OK;
  return onecoll__mpi (MPI_Win_flush (target, rt->aux));
}

/* PutRequest: descriptor and data, flush, flag. The descriptor is this
 * rank's own (the head of its window, in front of the data: one put, one
 * flush). With @sent, put_loop has put and completed the descriptor and
 * data already (DATA_BATCH_MAX_BYTES), and only the flag is left. The
 * flag's flush is the caller's (put_loop's callers flush once for all its
 * children), unless the data is large. */
static int
put_request (onecoll__runtime *rt,
             onecoll__win     *w,
             int               target,
             int               root,
             int64_t           count,
             int               order,
             uint64_t          seq,
             int               sent)
{
  int64_t token;
  int rc = ONECOLL_OK;

  ONECOLL__ENTER (ONECOLL_REGION_PUT_REQUEST, w->id, seq, root, target, count,
                  ONECOLL_ALGO_BINOMIAL, order);

  if (!sent)
    {
      rc = put_data (w, target, ONECOLL__DESCR_OFF, count);
      /* MPI does not order a Put before a later Accumulate: complete it first. */
      if (rc == ONECOLL_OK)
        rc = onecoll__mpi (MPI_Win_flush (target, w->mpi_win));
    }
  if (rc == ONECOLL_OK)
    {
      token = (int64_t) request_token (w, seq);
      rc = onecoll__mpi (MPI_Accumulate (&token, 1, MPI_INT64_T, target,
                                         onecoll__aux (rt, w->slot, ONECOLL__REQ), 1, MPI_INT64_T,
                                         MPI_REPLACE, rt->aux));
    }
  if (rc == ONECOLL_OK)
    rc = complete_large (rt, target, count);

  ONECOLL__LEAVE (ONECOLL_REGION_PUT_REQUEST);
  return rc;
}

/* Writes the descriptor of this rank's requests into the head of its
 * window (this rank is the root of the broadcast, or relays it). */
static void
set_descr (onecoll__win         *w,
           const onecoll__descr *d)
{
  memcpy (w->base + ONECOLL__DESCR_OFF, d, sizeof *d);
}

/* (@a + @b) mod @p for @a, @b >= 0 and @a + @b < 2 @p: a rank from a
 * relative rank and the root (or back), without the division that %
 * costs on every delivery. */
static int
rank_add (int a,
          int b,
          int p)
{
  return a + b >= p ? a + b - p : a + b;
}

/* 1 if relative rank @v (not the root) has no children in a p-rank binomial
 * tree (either order builds the same tree): v is odd, or v + 1 is beyond
 * the last rank. */
static int
is_leaf (int v,
         int p)
{
  return (v & 1) || v + 1 >= p;
}

/* Adds 1 to the int64 at @disp in @target's aux memory, not yet flushed. */
static int
increment (onecoll__runtime *rt,
           int               target,
           MPI_Aint          disp)
{
  int64_t one = 1;

  return onecoll__mpi (MPI_Accumulate (&one, 1, MPI_INT64_T, target, disp, 1, MPI_INT64_T,
                                       MPI_SUM, rt->aux));
}

/* One more rank has finished the broadcast rooted at @root (done[slot] at
 * the root; not yet flushed). At the root itself - a leaf it delivers, a
 * rank it relays for - the count stays in @w (done_self, and the pending
 * broadcast's target drops by one): only this thread reads its
 * done[slot], so an MPI_Accumulate on it would only cost time. */
static int
count_done (onecoll__runtime *rt,
            onecoll__win     *w,
            int               root)
{
  if (root != rt->rank)
    return increment (rt, root, onecoll__aux (rt, w->slot, ONECOLL__DONE));
  w->done_self++;
  w->pending_target--;
  return ONECOLL_OK;
}

/* Delivery to a leaf (ONECOLL_RELAY_WAITER): a leaf has nothing to relay,
 * so the parent completes it - data, then the leaf's arrival, then the
 * root's done counter, the order a relay of the leaf's own would have
 * used - instead of setting a flag and waiting until the leaf is scheduled
 * to pick it up. The counters' flush is the caller's, as in put_request;
 * @sent as there. */
static int
put_leaf (onecoll__runtime *rt,
          onecoll__win     *w,
          int               target,
          int               root,
          int64_t           count,
          int               order,
          uint64_t          seq,
          int               sent)
{
  int rc = ONECOLL_OK;

  ONECOLL__ENTER (ONECOLL_REGION_PUT_REQUEST, w->id, seq, root, target, count,
                  ONECOLL_ALGO_BINOMIAL, order);
  if (!sent)
    {
      rc = put_data (w, target, 0, count);
      if (rc == ONECOLL_OK)
        rc = onecoll__mpi (MPI_Win_flush (target, w->mpi_win));
    }
  if (rc == ONECOLL_OK)
    rc = increment (rt, target, onecoll__aux (rt, w->slot, ONECOLL__ARRIVED));
  if (rc == ONECOLL_OK)
    rc = complete_large (rt, target, count);
  if (rc == ONECOLL_OK)
    rc = count_done (rt, w, root);
  ONECOLL__LEAVE (ONECOLL_REGION_PUT_REQUEST);
  return rc;
}

/* The delivery to the child with relative rank @v: PutRequest, or the
 * direct completion of a leaf in the WAITER runtime (@sent: its data is
 * complete already). */
static int
deliver (onecoll__runtime *rt,
         onecoll__win     *w,
         int               v,
         int               root,
         int64_t           count,
         int               order,
         uint64_t          seq,
         int               sent)
{
  int p = rt->nprocs;
  int target = rank_add (v, root, p);
  int rc;

  if (rt->cfg.relay == ONECOLL_RELAY_WAITER && is_leaf (v, p))
    return put_leaf (rt, w, target, root, count, order, seq, sent);
  rc = put_request (rt, w, target, root, count, order, seq, sent);
  /* The root (for itself, or relaying for a rank) knows this flag is set. */
  if (rc == ONECOLL_OK && root == rt->rank)
    w->help_done[v] = ONECOLL__HELP_PUBLISHED;
  return rc;
}

/* PutLoop: requests to the children of rank @node in the tree rooted at
 * @root - this rank's own, or, when the root relays for a slow rank, that
 * rank's (the data is the same in every window). The data and the
 * descriptors are complete on return, the flags and counters of small
 * deliveries (BATCH_MAX_BYTES) not: the caller flushes the aux window once
 * (MPI_Win_flush_all), with whatever else it adds. Up to
 * DATA_BATCH_MAX_BYTES, the data of all children goes first, with one
 * flush, outside their put_request regions. */
static int
put_loop (onecoll__runtime *rt,
          onecoll__win     *w,
          int               node,
          int               root,
          int64_t           count,
          int               order,
          uint64_t          seq)
{
  int p = rt->nprocs;
  int vrank = rank_add (node, p - root, p);
  int kids[32];                     /* relative ranks of the children, in order */
  int n = 0;
  int sent = 0;
  int rc = ONECOLL_OK;

  ONECOLL__ENTER (ONECOLL_REGION_PUT_LOOP, w->id, seq, root, -1, count,
                  ONECOLL_ALGO_BINOMIAL, order);

  if (order == ONECOLL_ORDER_SMALLEST_FIRST)
    {
      for (int mask = 1; mask < p; mask <<= 1)
        {
          if (vrank & mask)
            break;
          if (vrank + mask < p)
            kids[n++] = vrank + mask;
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
      for (int mask = limit >> 1; mask > 0; mask >>= 1)
        if (vrank + mask < p)
          kids[n++] = vrank + mask;
    }
  if (n > 1 && count <= DATA_BATCH_MAX_BYTES)
    {
      /* a leaf of the WAITER runtime gets no request: no descriptor */
      for (int i = 0; i < n && rc == ONECOLL_OK; i++)
        rc = put_data (w, rank_add (kids[i], root, p),
                       rt->cfg.relay == ONECOLL_RELAY_WAITER && is_leaf (kids[i], p)
                       ? 0 : ONECOLL__DESCR_OFF, count);
      if (rc == ONECOLL_OK)
        rc = onecoll__mpi (MPI_Win_flush_all (w->mpi_win));
      sent = 1;
    }
  for (int i = 0; i < n && rc == ONECOLL_OK; i++)
    rc = deliver (rt, w, kids[i], root, count, order, seq, sent);

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
      int target = rank_add (rt->rank, i, p);

      ONECOLL__ENTER (ONECOLL_REGION_PUT_REQUEST, w->id, seq, rt->rank, target, count,
                      ONECOLL_ALGO_LINEAR, -1);
      rc = put_data (w, target, 0, count);
      ONECOLL__LEAVE (ONECOLL_REGION_PUT_REQUEST);
    }
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush_all (w->mpi_win));
  for (int i = 1; i < p && rc == ONECOLL_OK; i++)
    rc = onecoll__mpi (MPI_Accumulate (&one, 1, MPI_INT64_T, rank_add (rt->rank, i, p),
                                       onecoll__aux (rt, w->slot, ONECOLL__ARRIVED), 1, MPI_INT64_T,
                                       MPI_SUM, rt->aux));
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush_all (rt->aux));
  ONECOLL__LEAVE (ONECOLL_REGION_PUT_LOOP);

  /* Complete: p - 1 ranks done, counted here (count_done). */
  if (rc == ONECOLL_OK)
    w->done_self += p - 1;
  return rc;
}

/* Relays the request with @token on @slot, which this thread has claimed:
 * PutLoop to this rank's children, then arrived[] here and done[] at the
 * root. Runs on the Broadcaster or on a waiting application thread. */
static int
relay (onecoll__runtime *rt,
       int               slot,
       uint64_t          token)
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

  /* The parent completed the descriptor and the data (the head and the
   * bytes of our window) before setting the flag; make them visible to
   * our loads, the descriptor here and the data as the source of our
   * puts. Nobody rewrites them before this relay has counted itself done:
   * the next broadcast on the window waits for this rank's release, which
   * follows its arrival. */
  rc = onecoll__mpi (MPI_Win_sync (w->mpi_win));
  memcpy (&d, w->base + ONECOLL__DESCR_OFF, sizeof d);
  if (rc == ONECOLL_OK
      && (d.wid != w->id || request_token (w, d.seq) != token || d.count < 0
          || d.count > w->size || d.root < 0 || d.root >= rt->nprocs || d.root == rt->rank))
    rc = ONECOLL_ERR_UNKNOWN_WINDOW;

  if (rc == ONECOLL_OK)
    {
      ONECOLL__ENTER (ONECOLL_REGION_BROADCASTER_RELAY, w->id, d.seq, d.root, d.origin,
                      d.count, ONECOLL_ALGO_BINOMIAL, d.order);
      /* Our head, as our children's descriptor, names us as their parent. */
      d.origin = rt->rank;
      set_descr (w, &d);
      rc = put_loop (rt, w, rt->rank, d.root, d.count, d.order, d.seq);
      /* Arrival only after our subtree's data is complete: a rank that
       * sees its broadcast complete may write its window again. One flush
       * completes the counters and our children's flags. */
      if (rc == ONECOLL_OK)
        rc = increment (rt, rt->rank, onecoll__aux (rt, slot, ONECOLL__ARRIVED));
      if (rc == ONECOLL_OK)
        rc = increment (rt, d.root, onecoll__aux (rt, slot, ONECOLL__DONE));
      if (rc == ONECOLL_OK)
        rc = onecoll__mpi (MPI_Win_flush_all (rt->aux));
      ONECOLL__LEAVE (ONECOLL_REGION_BROADCASTER_RELAY);
    }

  pthread_mutex_lock (&rt->lock);
  w->refs--;
  pthread_cond_broadcast (&rt->cond);
  pthread_mutex_unlock (&rt->lock);
  return rc;
}

void
onecoll__relay_failed (onecoll__runtime *rt,
                       int               rc)
{
  int expected = ONECOLL_OK;

  atomic_compare_exchange_strong (&rt->bcaster_rc, &expected, rc);
}

/* Takes on the relay of the request with @token on @slot of rank @target:
 * raises its claim[slot] to @want (@token, or with TOKEN_HELPED) unless it
 * is at @token or above already. @seen is
 * the claim word as last read (an atomic read, or any lower value: the
 * word only grows, and a wrong guess costs one more compare-and-swap).
 * *@won = 1 if this call did, 0 if somebody else has (or had) it. *@last
 * (may be NULL) receives the word's value as this call left it. */
static int
claim (onecoll__runtime *rt,
       int               target,
       int               slot,
       uint64_t          token,
       uint64_t          want,
       int64_t           seen,
       int              *won,
       int64_t          *last)
{
  int64_t cur = seen;
  int rc = ONECOLL_OK;

  *won = 0;
  while ((uint64_t) cur < token)
    {
      int64_t old = 0;

      rc = onecoll__mpi (MPI_Compare_and_swap (&want, &cur, &old, MPI_INT64_T, target,
                                               onecoll__aux (rt, slot, ONECOLL__CLAIM), rt->aux));
      if (rc == ONECOLL_OK)
        rc = onecoll__mpi (MPI_Win_flush (target, rt->aux));
      if (rc != ONECOLL_OK)
        break;
      if (old == cur)
        {
          *won = 1;
          cur = (int64_t) want;
          break;
        }
      cur = old;
    }
  if (last != NULL)
    *last = cur;
  return rc;
}

int
onecoll__progress (onecoll__runtime *rt,
                   int               n,
                   int               bcaster,
                   int              *relayed)
{
  int found = 0;
  int rc;

  if (relayed != NULL)
    *relayed = 0;
  if (n <= 0)
    return ONECOLL_OK;
  /* Plain loads find the flags that changed (the caller has called
   * MPI_Win_sync); only those are read with an atomic (which takes this
   * rank's accumulate lock in osc/sm, the lock the parents need to set the
   * flags). */
  rc = ONECOLL_OK;
  for (int slot = 0; rc == ONECOLL_OK && slot < n; slot++)
    {
      uint64_t known = atomic_load (&rt->claimed[slot]);
      uint64_t seen = (uint64_t) onecoll__peek (rt, onecoll__aux (rt, slot, ONECOLL__REQ));
      int64_t value = 0;
      uint64_t token;
      int won = 0;

      /* A token at or below a claimed one is an old request (tokens only
       * grow); only a new one is worth the atomic read and claim. */
      if (seen <= known)
        continue;
      /* Taken on already (by the root, usually): the claim word only
       * grows, so a load that finds it at the token is not a guess, and
       * this thread does not take the lock the root needs. */
      if ((uint64_t) onecoll__peek (rt, onecoll__aux (rt, slot, ONECOLL__CLAIM)) >= seen)
        {
          while (known < seen && !atomic_compare_exchange_weak (&rt->claimed[slot], &known, seen))
            ;
          continue;
        }
      rc = onecoll__read_counter (rt, rt->rank, onecoll__aux (rt, slot, ONECOLL__REQ), &value);
      token = (uint64_t) value;
      if (rc != ONECOLL_OK || token <= known)
        continue;
      /* known is a claim the word has held, so at most its value */
      rc = claim (rt, rt->rank, slot, token, token, (int64_t) known, &won, NULL);
      while (rc == ONECOLL_OK && known < token
             && !atomic_compare_exchange_weak (&rt->claimed[slot], &known, token))
        ;
      if (rc != ONECOLL_OK || !won)
        continue;
      if (bcaster && !found)
        ONECOLL__LEAVE (ONECOLL_REGION_BROADCASTER_POLL);
      found = 1;
      rc = relay (rt, slot, token);
    }
  if (rc != ONECOLL_OK)
    onecoll__relay_failed (rt, rc);
  if (relayed != NULL)
    *relayed = found;
  return rc;
}

static uint64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* The root relays for rank @node, whose relay it has claimed: @node's
 * PutLoop from the root's own window (the same bytes; the caller flushes
 * the flags and counters), then the root's done counter. @node's arrival was the claim itself (TOKEN_HELPED): its
 * data was complete before its flag, and this relay does not read its
 * window, so it may use the data at once. */
static int
help_relay (onecoll__runtime *rt,
            onecoll__win     *w,
            int               node)
{
  int rc;

  ONECOLL__ENTER (ONECOLL_REGION_HELP_RELAY, w->id, w->seq, rt->rank, node, w->pending_count,
                  ONECOLL_ALGO_BINOMIAL, w->pending_order);
  rc = put_loop (rt, w, node, rt->rank, w->pending_count, w->pending_order, w->seq);
  if (rc == ONECOLL_OK)
    rc = count_done (rt, w, rt->rank);
  ONECOLL__LEAVE (ONECOLL_REGION_HELP_RELAY);
  return rc;
}

/* Reads req and claim of the rank with relative rank @v (one atomic read)
 * for the root's help: *@ready = 1 if its flag holds @token, nobody has
 * claimed it, and it has been set for the grace time. */
static int
help_check (onecoll__runtime *rt,
            onecoll__win     *w,
            int               v,
            uint64_t          token,
            uint64_t          grace,
            int              *ready)
{
  int node = rank_add (v, rt->rank, rt->nprocs);
  int64_t words[2];
  uint64_t t;
  int rc;

  *ready = 0;
  rc = onecoll__mpi (MPI_Get_accumulate (NULL, 0, MPI_INT64_T, words, 2, MPI_INT64_T, node,
                                         onecoll__aux (rt, w->slot, ONECOLL__REQ), 2, MPI_INT64_T,
                                         MPI_NO_OP, rt->aux));
  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Win_flush (node, rt->aux));
  if (rc != ONECOLL_OK)
    return rc;
  w->claim_seen[node] = words[1];
  if ((uint64_t) words[1] >= token)
    {
      w->help_done[v] = ONECOLL__HELP_SETTLED;    /* the rank took it on itself */
      return ONECOLL_OK;
    }
  /* Only a request whose flag is set: then the data and the descriptor
   * are complete in that rank's windows. */
  if ((uint64_t) words[0] != token)
    return ONECOLL_OK;
  t = now_ns ();
  if (w->help_seen_ns[v] == 0)
    w->help_seen_ns[v] = t;
  *ready = t - w->help_seen_ns[v] >= grace;
  return ONECOLL_OK;
}

int
onecoll__root_help (onecoll__runtime *rt,
                    onecoll__win     *w,
                    int              *helped)
{
  int p = rt->nprocs;
  uint64_t token = request_token (w, w->seq);
  int64_t helped_token = (int64_t) (token | TOKEN_HELPED);
  uint64_t grace = rt->cfg.help_after_ns;
  int n_helped = 0;
  int unflushed = 0;
  int rc = ONECOLL_OK;

  *helped = 0;
  if (rt->cfg.relay != ONECOLL_RELAY_WAITER || grace == UINT32_MAX)
    return ONECOLL_OK;
  /* Ranks whose flags we set ourselves have their data and descriptors
   * complete, and a compare-and-swap both checks that a rank has not taken
   * its request on and takes it: in waves, the claims of all of them with
   * one flush, then the relays for those we won, which set the flags of
   * the next wave (parents before children, so one call relays down a
   * whole chain of ranks that are not running). */
  while (rc == ONECOLL_OK && grace == 0)
    {
      int n_claims = 0;

      for (int v = 1; v < p && rc == ONECOLL_OK; v++)
        if (w->help_done[v] == ONECOLL__HELP_PUBLISHED)
          {
            int node = rank_add (v, rt->rank, p);

            rc = onecoll__mpi (MPI_Compare_and_swap (&helped_token, &w->claim_seen[node],
                                                     &w->help_old[v], MPI_INT64_T, node,
                                                     onecoll__aux (rt, w->slot, ONECOLL__CLAIM),
                                                     rt->aux));
            w->help_done[v] = ONECOLL__HELP_CLAIMING;
            n_claims++;
          }
      if (n_claims == 0)
        break;
      /* also completes the previous wave's flags and counters */
      if (rc == ONECOLL_OK)
        rc = onecoll__mpi (MPI_Win_flush_all (rt->aux));
      unflushed = 0;
      for (int v = 1; v < p && rc == ONECOLL_OK; v++)
        if (w->help_done[v] == ONECOLL__HELP_CLAIMING)
          {
            int node = rank_add (v, rt->rank, p);
            int won = w->help_old[v] == w->claim_seen[node];

            w->help_done[v] = ONECOLL__HELP_SETTLED;
            if (won)
              w->claim_seen[node] = helped_token;
            else   /* claimed by the rank, or the guess was wrong: retry */
              rc = claim (rt, node, w->slot, token, helped_token, w->help_old[v], &won,
                          &w->claim_seen[node]);
            if (rc == ONECOLL_OK && won)
              {
                rc = help_relay (rt, w, node);
                n_helped++;
                unflushed = 1;
              }
          }
    }
  /* The others (their parents relayed themselves, or a grace time): read
   * first, then claim one by one. */
  for (int v = 1; v < p && rc == ONECOLL_OK; v++)
    {
      int node = rank_add (v, rt->rank, p);
      int ready = 0;
      int won = 0;

      /* a leaf is completed by its parent; it has no request to take on */
      if (w->help_done[v] == ONECOLL__HELP_SETTLED || is_leaf (v, p))
        continue;
      rc = help_check (rt, w, v, token, grace, &ready);
      if (rc != ONECOLL_OK || !ready)
        continue;
      rc = claim (rt, node, w->slot, token, helped_token, w->claim_seen[node], &won,
                  &w->claim_seen[node]);
      if (rc != ONECOLL_OK)
        break;
      w->help_done[v] = ONECOLL__HELP_SETTLED;
      if (won)
        {
          rc = help_relay (rt, w, node);
          n_helped++;
          unflushed = 1;
        }
    }
  if (rc == ONECOLL_OK && unflushed)
    rc = onecoll__mpi (MPI_Win_flush_all (rt->aux));
  if (rc != ONECOLL_OK)
    onecoll__relay_failed (rt, rc);
  *helped = n_helped > 0;
  return rc;
}

/* ---- completion ---- */

/* The counter that tells this rank that its pending broadcast is complete. */
static MPI_Aint
completion_counter (onecoll__runtime   *rt,
                    const onecoll__win *w)
{
  return onecoll__aux (rt, w->slot, w->pending_root ? ONECOLL__DONE : ONECOLL__ARRIVED);
}

/* Tells the latest broadcast's root that this rank no longer reads it. */
static int
release (onecoll__runtime *rt,
         onecoll__win     *w)
{
  int rc = onecoll__add_counter (rt, w->last_root, onecoll__aux (rt, w->slot, ONECOLL__RELEASED), 1);

  if (rc == ONECOLL_OK)
    w->unreleased = 0;
  return rc;
}

/* One check of this rank's completion counter for @w's pending broadcast:
 * *@reached = 1 if it is at its target (the root knows that without a
 * read once its own relays have lowered the target to a value seen
 * before). Leaves the aux window synced for a poll of req[]; an
 * onecoll__check. */
static int
poll_completion (onecoll__runtime *rt,
                 void             *arg,
                 int              *reached)
{
  onecoll__win *w = arg;
  MPI_Aint disp = completion_counter (rt, w);
  MPI_Aint claim_disp = onecoll__aux (rt, w->slot, ONECOLL__CLAIM);
  uint64_t helped = request_token (w, w->seq) | TOKEN_HELPED;
  int64_t value = 0;
  int rc;

  *reached = w->pending_root && w->pending_target <= w->done_seen;
  if (*reached)
    return ONECOLL_OK;
  /* Our own words: plain loads first, the atomic read (which takes the
   * lock the writers need) only when one looks reached. */
  rc = onecoll__mpi (MPI_Win_sync (rt->aux));
  /* Another rank: the root took our request on, and that is our arrival;
   * it is not counted in arrived[slot], so later targets are one lower.
   * (Exactly one of the two happens for a request: our relay, which
   * counts arrived[slot] when it is done, or the root's claim.) */
  if (rc == ONECOLL_OK && !w->pending_root
      && (uint64_t) onecoll__peek (rt, claim_disp) == helped)
    {
      rc = onecoll__read_counter (rt, rt->rank, claim_disp, &value);
      if (rc == ONECOLL_OK && (uint64_t) value == helped)
        {
          w->arrived_self++;
          w->pending_target--;
          *reached = 1;
          return ONECOLL_OK;
        }
    }
  if (rc == ONECOLL_OK && onecoll__peek (rt, disp) >= w->pending_target)
    {
      rc = onecoll__read_counter (rt, rt->rank, disp, &value);
      if (rc == ONECOLL_OK && w->pending_root)
        w->done_seen = value;
      *reached = rc == ONECOLL_OK && value >= w->pending_target;
    }
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
  rc = onecoll__wait (rt, poll_completion, w, w->pending_root ? w : NULL);
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
  onecoll__descr descr;
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
          rc = onecoll__wait_counter (rt, w->last_root, onecoll__aux (rt, w->slot, ONECOLL__RELEASED),
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

      w->pending_count = count;
      w->pending_order = order;
      if (algo == ONECOLL_ALGO_LINEAR)
        rc = bcast_linear (rt, w, count, seq);
      else
        {
          memset (w->help_done, 0, (size_t) p * sizeof *w->help_done);
          memset (w->help_seen_ns, 0, (size_t) p * sizeof *w->help_seen_ns);
          /* done[slot] here counts what the others complete; count_done()
           * lowers the target by what this thread completes itself. */
          w->pending = p > 1;
          w->pending_root = 1;
          w->pending_target = (int64_t) (p - 1) * w->rooted[root] - w->done_self;
          memset (&descr, 0, sizeof descr);
          descr.count = count;
          descr.seq = seq;
          descr.wid = w->id;
          descr.root = root;
          descr.origin = root;
          descr.order = order;
          set_descr (w, &descr);
          rc = put_loop (rt, w, rt->rank, root, count, order, seq);
          if (rc == ONECOLL_OK && p > 1)
            rc = onecoll__mpi (MPI_Win_flush_all (rt->aux));
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
      w->pending_target = w->arrivals - w->arrived_self;
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
      int reached = 0;

      rc = poll_completion (rt, w, &reached);
      if (rc == ONECOLL_OK && !reached && rt->cfg.relay == ONECOLL_RELAY_WAITER)
        {
          int relayed = 0;
          int helped = 0;

          /* Progress by the caller: relay what has reached this rank, which
           * may be this very broadcast, and at the root what the others are
           * slow to relay. */
          rc = onecoll__progress (rt, atomic_load (&rt->used_slots), 0, &relayed);
          if (rc == ONECOLL_OK && w->pending_root)
            rc = onecoll__root_help (rt, w, &helped);
          if (rc == ONECOLL_OK && (relayed || helped))
            rc = poll_completion (rt, w, &reached);
        }
      if (rc == ONECOLL_OK && reached)
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
