/*
 * sextant-shared-views.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared views of an analysis (see sextant-shared-views.h): a state per
 * fill (none, being computed, done) under one lock, and the chunks of each
 * view computed. An analysis has two or three workers and five views, so a
 * mutex and a condition are all it takes.
 */
#include "config.h"

#include "sextant-shared-views.h"

enum { FILL_NONE, FILL_RUNNING, FILL_DONE };

#define N_FILLS 32

typedef struct
{
  char                *columns;
  SextantColumnChunks *chunks;
} View;

struct _SextantSharedViews
{
  gatomicrefcount  ref_count;
  GMutex           lock;
  GCond            changed;
  guint8           state[N_FILLS];
  GHashTable      *views;          /* name -> View */
};

static void
view_free (gpointer data)
{
  View *view = data;

  g_free (view->columns);
  sextant_column_chunks_unref (view->chunks);
  g_free (view);
}

SextantSharedViews *
sextant_shared_views_new (void)
{
  SextantSharedViews *self = g_new0 (SextantSharedViews, 1);

  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_init (&self->lock);
  g_cond_init (&self->changed);
  self->views = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, view_free);

  return self;
}

SextantSharedViews *
sextant_shared_views_ref (SextantSharedViews *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

void
sextant_shared_views_unref (SextantSharedViews *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_hash_table_unref (self->views);
  g_cond_clear (&self->changed);
  g_mutex_clear (&self->lock);
  g_free (self);
}

guint
sextant_shared_views_get_ready (SextantSharedViews *self)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  guint ready = 0;

  for (guint bit = 0; bit < N_FILLS; bit++)
    if (self->state[bit] == FILL_DONE)
      ready |= 1u << bit;

  return ready;
}

/**
 * sextant_shared_views_claim:
 * @bit: the fill, 0 to 31
 *
 * Blocks while another thread computes fill @bit. A fill that failed (it
 * was cancelled, or its reads failed) goes back to nobody's: the next
 * claim computes it again.
 *
 * Returns: %TRUE if the caller must compute it now
 */
gboolean
sextant_shared_views_claim (SextantSharedViews *self,
                            guint               bit)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  g_return_val_if_fail (bit < N_FILLS, FALSE);

  while (self->state[bit] == FILL_RUNNING)
    g_cond_wait (&self->changed, &self->lock);
  if (self->state[bit] == FILL_DONE)
    return FALSE;
  self->state[bit] = FILL_RUNNING;

  return TRUE;
}

/* Ends the caller's fill @bit: done when @filled, else nobody's again. */
void
sextant_shared_views_done (SextantSharedViews *self,
                           guint               bit,
                           gboolean            filled)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  g_return_if_fail (bit < N_FILLS && self->state[bit] == FILL_RUNNING);

  self->state[bit] = filled ? FILL_DONE : FILL_NONE;
  g_cond_broadcast (&self->changed);
}

/* Keeps @chunks (a reference) as view @name with the column declaration
 * @columns, for sextant_shared_views_lookup(). */
void
sextant_shared_views_publish (SextantSharedViews  *self,
                              const char          *name,
                              const char          *columns,
                              SextantColumnChunks *chunks)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  View *view = g_new (View, 1);

  view->columns = g_strdup (columns);
  view->chunks = sextant_column_chunks_ref (chunks);
  g_hash_table_replace (self->views, g_strdup (name), view);
}

/**
 * sextant_shared_views_lookup:
 * @columns: (out) (transfer full): its column declaration
 * @chunks: (out) (transfer full): its rows
 *
 * Returns: %FALSE when no view @name was published
 */
gboolean
sextant_shared_views_lookup (SextantSharedViews   *self,
                             const char           *name,
                             char                **columns,
                             SextantColumnChunks **chunks)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  View *view = g_hash_table_lookup (self->views, name);

  if (view == NULL)
    return FALSE;
  *columns = g_strdup (view->columns);
  *chunks = sextant_column_chunks_ref (view->chunks);

  return TRUE;
}
