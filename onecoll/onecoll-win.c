/*
 * onecoll-win.c - broadcast windows: creation, lookup, release.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A window is an MPI_Win_allocate'd buffer of the same size on every rank,
 * behind a head of ONECOLL__HEAD bytes that carries the descriptor of the
 * binomial broadcast's requests, with a passive epoch (MPI_Win_lock_all,
 * MPI_MODE_NOCHECK) that stays open from creation to free and is shared by
 * the application threads and the Broadcaster. Its record sits in
 * rt->wins[slot]; the slot also indexes the window's request flag and
 * counters in the aux window.
 *
 * Creation and free are collective and happen in the same order on every
 * rank, so every rank picks the same (lowest free) slot; the id's serial is
 * agreed on in the same MPI_Allreduce that checks the arguments. Both end or begin with a barrier:
 *  - create ends with one, so no request for the window can reach a rank
 *    before that rank has registered it;
 *  - free starts by settling this rank's broadcast (which, at a root, waits
 *    until all relays are done) and then a barrier, so after it no RMA
 *    operation targets the window; the Broadcaster's reference (refs) covers
 *    the last instructions of a relay that has already counted itself done.
 */
#include "onecoll-private.h"

#include <stdlib.h>
#include <string.h>

/* Serial of the next window id. Process-wide, not per runtime, so that ids
 * stay unique across onecoll_finalize()/onecoll_init() cycles; every
 * creation agrees on the largest value among the ranks, so ranks whose
 * histories differ (runtimes on different communicators) still agree. */
static uint64_t next_serial = 1;

onecoll__win *
onecoll__win_lookup (onecoll__runtime *rt,
                     onecoll_win       win)
{
  uint64_t slot = win & (((uint64_t) 1 << ONECOLL__SLOT_BITS) - 1);
  onecoll__win *w;

  if (win == ONECOLL_WIN_NULL || slot >= (uint64_t) rt->max_windows)
    return NULL;
  /* wins[] only changes in create/free, which never run concurrently with
   * the application's other calls; the Broadcaster does not write it. */
  w = rt->wins[slot];
  return w != NULL && w->id == win ? w : NULL;
}

static void
win_record_free (onecoll__win *w)
{
  if (w == NULL)
    return;
  free (w->rooted);
  free (w->help_done);
  free (w->help_seen_ns);
  free (w->claim_seen);
  free (w->help_old);
  free (w);
}

int
onecoll_win_create (int64_t                   size,
                    const onecoll_bcast_opts *opts,
                    onecoll_win              *win)
{
  onecoll__runtime *rt = onecoll__rt;
  onecoll__win *w = NULL;
  int64_t mine[6];                  /* rc, size, -size, slot, -slot, -next_serial */
  int64_t least[6];                 /* their minima over all ranks */
  int slot = -1;
  int rc = ONECOLL_OK;

  if (rt == NULL)
    return ONECOLL_ERR_NOT_INIT;

  ONECOLL__ENTER (ONECOLL_REGION_WIN_CREATE, ONECOLL_WIN_NULL, 0, -1, -1, size, -1, -1);

  if (win == NULL || size < 0 || size > INT64_MAX - ONECOLL__HEAD
      || (opts != NULL && !onecoll__opts_valid (opts)))
    rc = ONECOLL_ERR_ARG;
  for (int s = 0; rc == ONECOLL_OK && s < rt->max_windows; s++)
    if (rt->wins[s] == NULL)
      {
        slot = s;
        break;
      }
  if (rc == ONECOLL_OK && slot < 0)
    rc = ONECOLL_ERR_LIMIT;
  if (rc == ONECOLL_OK)
    {
      w = calloc (1, sizeof *w);
      if (w != NULL)
        {
          w->rooted = calloc ((size_t) rt->nprocs, sizeof *w->rooted);
          w->help_done = calloc ((size_t) rt->nprocs, sizeof *w->help_done);
          w->help_seen_ns = calloc ((size_t) rt->nprocs, sizeof *w->help_seen_ns);
          w->claim_seen = calloc ((size_t) rt->nprocs, sizeof *w->claim_seen);
          w->help_old = calloc ((size_t) rt->nprocs, sizeof *w->help_old);
        }
      if (w == NULL || w->rooted == NULL || w->help_done == NULL || w->help_seen_ns == NULL
          || w->claim_seen == NULL || w->help_old == NULL)
        rc = ONECOLL_ERR_NOMEM;
    }

  /* Agree on success, on the size and on the slot before the collective
   * allocation, so that one rank's bad argument fails every rank. */
  mine[0] = rc;
  mine[1] = size;
  mine[2] = -size;
  mine[3] = slot;
  mine[4] = -slot;
  mine[5] = -(int64_t) next_serial;
  if (MPI_Allreduce (mine, least, 6, MPI_INT64_T, MPI_MIN, rt->comm) != MPI_SUCCESS)
    {
      if (rc == ONECOLL_OK)
        rc = ONECOLL_ERR_MPI;
      goto out;
    }
  if (rc != ONECOLL_OK)
    goto out;
  if (least[0] != ONECOLL_OK)
    rc = ONECOLL_ERR_PEER;
  else if (least[1] != -least[2])
    rc = ONECOLL_ERR_ARG;
  else if (least[3] != -least[4])
    rc = ONECOLL_ERR_PEER;      /* the registries differ: calls out of order */
  if (rc != ONECOLL_OK)
    goto out;

  next_serial = (uint64_t) -least[5];
  w->id = (next_serial << ONECOLL__SLOT_BITS) | (uint64_t) slot;
  w->slot = slot;
  w->size = size;
  w->last_root = -1;
  if (opts != NULL)
    w->opts = *opts;
  w->mpi_win = MPI_WIN_NULL;
  /* The head (ONECOLL__HEAD bytes, the requests' descriptor) below the data. */
  rc = onecoll__mpi (MPI_Win_allocate ((MPI_Aint) (ONECOLL__HEAD + size), 1, MPI_INFO_NULL, rt->comm,
                                       &w->base, &w->mpi_win));
  if (rc != ONECOLL_OK)
    goto out;
  w->base += ONECOLL__HEAD;
  MPI_Win_set_errhandler (w->mpi_win, MPI_ERRORS_RETURN);
  rc = onecoll__mpi (MPI_Win_lock_all (MPI_MODE_NOCHECK, w->mpi_win));
  if (rc != ONECOLL_OK)
    {
      MPI_Win_free (&w->mpi_win);
      goto out;
    }

  /* The slot's counters still hold the previous window's totals; nobody
   * touches them until the barrier below. */
  memset (rt->aux_base + onecoll__aux (rt, slot, ONECOLL__DONE), 0, 8);
  memset (rt->aux_base + onecoll__aux (rt, slot, ONECOLL__RELEASED), 0, 8);
  memset (rt->aux_base + onecoll__aux (rt, slot, ONECOLL__ARRIVED), 0, 8);
  rc = onecoll__mpi (MPI_Win_sync (rt->aux));

  next_serial++;
  pthread_mutex_lock (&rt->lock);
  rt->wins[slot] = w;
  if (atomic_load (&rt->used_slots) < slot + 1)
    atomic_store (&rt->used_slots, slot + 1);
  pthread_mutex_unlock (&rt->lock);
  *win = w->id;
  w = NULL;

  if (rc == ONECOLL_OK)
    rc = onecoll__mpi (MPI_Barrier (rt->comm));

out:
  win_record_free (w);
  ONECOLL__LEAVE (ONECOLL_REGION_WIN_CREATE);
  return rc;
}

int
onecoll_win_free (onecoll_win win)
{
  onecoll__runtime *rt = onecoll__rt;
  onecoll__win *w;
  int rc;
  int r;

  if (rt == NULL)
    return ONECOLL_ERR_NOT_INIT;
  w = onecoll__win_lookup (rt, win);
  if (w == NULL)
    return ONECOLL_ERR_UNKNOWN_WINDOW;

  ONECOLL__ENTER (ONECOLL_REGION_WIN_FREE, w->id, w->seq, -1, -1, w->size, -1, -1);

  /* Whatever fails, take part in the collective calls below, or the other
   * ranks would hang. */
  rc = onecoll__win_settle (rt, w);
  r = onecoll__mpi (MPI_Barrier (rt->comm));
  if (rc == ONECOLL_OK)
    rc = r;

  pthread_mutex_lock (&rt->lock);
  w->dying = 1;
  while (w->refs > 0)
    pthread_cond_wait (&rt->cond, &rt->lock);
  rt->wins[w->slot] = NULL;
  if (atomic_load (&rt->used_slots) == w->slot + 1)
    {
      int used = w->slot;

      while (used > 0 && rt->wins[used - 1] == NULL)
        used--;
      atomic_store (&rt->used_slots, used);
    }
  pthread_mutex_unlock (&rt->lock);

  r = onecoll__mpi (MPI_Win_unlock_all (w->mpi_win));
  if (rc == ONECOLL_OK)
    rc = r;
  r = onecoll__mpi (MPI_Win_free (&w->mpi_win));
  if (rc == ONECOLL_OK)
    rc = r;
  win_record_free (w);

  ONECOLL__LEAVE (ONECOLL_REGION_WIN_FREE);
  return rc;
}

int
onecoll_win_get_base (onecoll_win win,
                      void      **base,
                      int64_t    *size)
{
  onecoll__win *w;

  if (onecoll__rt == NULL)
    return ONECOLL_ERR_NOT_INIT;
  w = onecoll__win_lookup (onecoll__rt, win);
  if (w == NULL)
    return ONECOLL_ERR_UNKNOWN_WINDOW;
  if (base != NULL)
    *base = w->base;
  if (size != NULL)
    *size = w->size;
  return ONECOLL_OK;
}
