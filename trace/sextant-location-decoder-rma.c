/*
 * sextant-location-decoder-rma.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A location's one-sided operations, their synchronization and every kind
 * of lock (RMA, thread, OpenMP, I/O), see sextant-location-decoder-private.h:
 * an operation is kept from its issue to its completion, a lock from its
 * request to its release.
 */
#include "config.h"

#include "sextant-location-decoder-private.h"

/* One-sided communication ----------------------------------------------- */

gboolean
_sextant_decoder_write_rma (Decoder           *self,
                            const PendingRma  *op,
                            gint64             complete_time,
                            const char        *complete_kind,
                            gint64             complete_visit,
                            GError           **error)
{
  return sextant_store_run (self->import->store, SEXTANT_STMT_RMA_OP, error,
                            "inttniiiinntni",
                            (gint64)self->loc, op->win, op->kind, op->atomic_type,
                            op->target, op->bytes, op->bytes_received, op->matching_id, op->time,
                            op->visit, complete_time, complete_kind, complete_visit,
                            next_row_id (self, ROW_RMA_OP));
}

static char *
rma_key (OTF2_RmaWinRef win,
         guint64        matching_id)
{
  return g_strdup_printf ("%u:%" G_GUINT64_FORMAT, win, matching_id);
}

static OTF2_CallbackCode
issue_rma (Decoder        *self,
           gint64          t,
           OTF2_RmaWinRef  win,
           guint32         remote,
           const char     *kind,
           const char     *atomic_type,
           guint64         bytes,
           guint64         received,
           guint64         matching_id)
{
  PendingRma *op = g_new0 (PendingRma, 1);
  GQueue *queue;
  char *key;

  op->win = win;
  op->target = remote == OTF2_UNDEFINED_UINT32 ? SEXTANT_NULL : (gint64)remote;
  op->kind = kind;
  op->atomic_type = atomic_type;
  op->bytes = (gint64)bytes;
  op->bytes_received = (gint64)received;
  op->matching_id = (gint64)matching_id;
  op->time = t;
  op->visit = top_visit (self);

  key = rma_key (win, matching_id);
  if (!(queue = g_hash_table_lookup (self->rma_pending, key)))
    {
      queue = g_queue_new ();
      g_hash_table_insert (self->rma_pending, key, queue);
    }
  else
    g_free (key);
  g_queue_push_tail (queue, op);

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_rma_put (DECODER_ARGS,
            OTF2_RmaWinRef win,
            uint32_t       remote,
            uint64_t       bytes,
            uint64_t       matching_id)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_PUT, time);

  return issue_rma (self, t, win, remote, "PUT", NULL, bytes, 0, matching_id);
}

static OTF2_CallbackCode
on_rma_get (DECODER_ARGS,
            OTF2_RmaWinRef win,
            uint32_t       remote,
            uint64_t       bytes,
            uint64_t       matching_id)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_GET, time);

  return issue_rma (self, t, win, remote, "GET", NULL, 0, bytes, matching_id);
}

static OTF2_CallbackCode
on_rma_atomic (DECODER_ARGS,
               OTF2_RmaWinRef     win,
               uint32_t           remote,
               OTF2_RmaAtomicType type,
               uint64_t           sent,
               uint64_t           received,
               uint64_t           matching_id)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_ATOMIC, time);

  return issue_rma (self, t, win, remote, "ATOMIC", sextant_otf2_atomic_type_name (type),
                    sent, received, matching_id);
}

static OTF2_CallbackCode
complete_rma (Decoder          *self,
              SextantEventKind  kind,
              OTF2_TimeStamp    time,
              OTF2_RmaWinRef    win,
              guint64           matching_id,
              const char       *how)
{
  gint64 t = _sextant_decoder_record (self, kind, time);
  g_autofree char *key = rma_key (win, matching_id);
  GQueue *queue = g_hash_table_lookup (self->rma_pending, key);
  g_autofree PendingRma *op = NULL;

  if (queue == NULL || g_queue_is_empty (queue))
    {
      _sextant_import_log (self->import, "rma_completion_without_op", self->loc, t,
                           "%s for no open one-sided operation; ignored", sextant_event_kind_names[kind]);
      return OTF2_CALLBACK_SUCCESS;
    }

  op = g_queue_pop_head (queue);
  STORE (self, _sextant_decoder_write_rma (self, op, t, how, top_visit (self), &store_error));

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_rma_op_complete_blocking (DECODER_ARGS,
                             OTF2_RmaWinRef win,
                             uint64_t       matching_id)
{
  return complete_rma (user_data, SEXTANT_EVENT_RMA_OP_COMPLETE_BLOCKING, time, win, matching_id, "BLOCKING");
}

static OTF2_CallbackCode
on_rma_op_complete_non_blocking (DECODER_ARGS,
                                 OTF2_RmaWinRef win,
                                 uint64_t       matching_id)
{
  return complete_rma (user_data, SEXTANT_EVENT_RMA_OP_COMPLETE_NON_BLOCKING, time, win, matching_id,
                       "NON_BLOCKING");
}

static OTF2_CallbackCode
on_rma_op_complete_remote (DECODER_ARGS,
                           OTF2_RmaWinRef win,
                           uint64_t       matching_id)
{
  return complete_rma (user_data, SEXTANT_EVENT_RMA_OP_COMPLETE_REMOTE, time, win, matching_id, "REMOTE");
}

static OTF2_CallbackCode
write_sync (Decoder    *self,
            gint64      t,
            const char *kind,
            gint64      win,
            gint64      remote,
            gint64      level,
            const char *detail,
            gint64      end_time)
{
  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_RMA_SYNC, &store_error,
                                  "iintnnntni", (gint64)self->loc, t, top_visit (self), kind, win,
                                  remote, level, detail, end_time, next_row_id (self, ROW_RMA_SYNC)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_rma_win_create (DECODER_ARGS,
                   OTF2_RmaWinRef win)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_WIN_CREATE, time);

  return write_sync (self, t, "RMA_WIN_CREATE", win, SEXTANT_NULL, SEXTANT_NULL, NULL, SEXTANT_NULL);
}

static OTF2_CallbackCode
on_rma_win_destroy (DECODER_ARGS,
                    OTF2_RmaWinRef win)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_WIN_DESTROY, time);

  return write_sync (self, t, "RMA_WIN_DESTROY", win, SEXTANT_NULL, SEXTANT_NULL, NULL, SEXTANT_NULL);
}

static OTF2_CallbackCode
on_rma_collective_begin (DECODER_ARGS)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_COLLECTIVE_BEGIN, time);

  g_queue_push_tail (&self->rma_coll_begins, _sextant_decoder_new_point (self, t));

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_rma_collective_end (DECODER_ARGS,
                       OTF2_CollectiveOp collective_op,
                       OTF2_RmaSyncLevel level,
                       OTF2_RmaWinRef    win,
                       uint32_t          root,
                       uint64_t          sent,
                       uint64_t          received)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_COLLECTIVE_END, time);
  g_autofree PendingPoint *begin = g_queue_pop_head (&self->rma_coll_begins);

  if (begin == NULL)
    _sextant_import_log (self->import, "collective_end_without_begin", self->loc, t,
                         "RMA_COLLECTIVE_END without RMA_COLLECTIVE_BEGIN; begins at its end");

  return write_sync (self, begin != NULL ? begin->time : t, "RMA_COLLECTIVE", win,
                     root == OTF2_UNDEFINED_UINT32 ? SEXTANT_NULL : (gint64)root, level,
                     sextant_otf2_collective_op_name (collective_op), t);
}

static OTF2_CallbackCode
on_rma_group_sync (DECODER_ARGS,
                   OTF2_RmaSyncLevel level,
                   OTF2_RmaWinRef    win,
                   OTF2_GroupRef     group)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_GROUP_SYNC, time);

  return write_sync (self, t, "RMA_GROUP_SYNC", win, group, level, NULL, SEXTANT_NULL);
}

static OTF2_CallbackCode
on_rma_sync (DECODER_ARGS,
             OTF2_RmaWinRef   win,
             uint32_t         remote,
             OTF2_RmaSyncType type)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_SYNC, time);

  return write_sync (self, t, "RMA_SYNC", win, remote, SEXTANT_NULL,
                     sextant_otf2_rma_sync_type_name (type), SEXTANT_NULL);
}

static OTF2_CallbackCode
on_rma_wait_change (DECODER_ARGS,
                    OTF2_RmaWinRef win)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_WAIT_CHANGE, time);

  return write_sync (self, t, "RMA_WAIT_CHANGE", win, SEXTANT_NULL, SEXTANT_NULL, NULL, SEXTANT_NULL);
}

/* Locks ------------------------------------------------------------------- */

static char *
lock_key (const char *family,
          gint64      win,
          gint64      target,
          gint64      lock_id)
{
  return g_strdup_printf ("%s:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                          family, win, target, lock_id);
}

gboolean
_sextant_decoder_write_lock (Decoder            *self,
                             const PendingLock  *lock,
                             gint64              release_time,
                             gboolean            try_failed,
                             GError            **error)
{
  return sextant_store_run (self->import->store, SEXTANT_STMT_LOCK, error, "itnnntnnnnii",
                            (gint64)self->loc, lock->family, lock->win, lock->target, lock->lock_id,
                            lock->lock_type, lock->request_time, lock->acquire_time, release_time,
                            lock->acquire_visit, (gint64)try_failed, next_row_id (self, ROW_LOCK));
}

static PendingLock *
open_lock (Decoder    *self,
           const char *family,
           gint64      win,
           gint64      target,
           gint64      lock_id,
           const char *lock_type)
{
  g_autofree char *key = lock_key (family, win, target, lock_id);
  PendingLock *lock = g_hash_table_lookup (self->locks, key);

  if (lock == NULL)
    {
      lock = g_new0 (PendingLock, 1);
      lock->family = family;
      lock->win = win;
      lock->target = target;
      lock->lock_id = lock_id;
      lock->request_time = SEXTANT_NULL;
      lock->acquire_time = SEXTANT_NULL;
      lock->acquire_visit = SEXTANT_NULL;
      g_hash_table_insert (self->locks, g_steal_pointer (&key), lock);
    }
  if (lock_type != NULL)
    lock->lock_type = lock_type;

  return lock;
}

static OTF2_CallbackCode
acquire_lock (Decoder    *self,
              gint64      t,
              const char *family,
              gint64      win,
              gint64      target,
              gint64      lock_id,
              const char *lock_type)
{
  PendingLock *lock = open_lock (self, family, win, target, lock_id, lock_type);

  if (lock->acquire_time != SEXTANT_NULL)
    _sextant_import_log (self->import, "lock_reacquired", self->loc, t,
                         "lock acquired again before its release; the later acquisition is kept");
  lock->acquire_time = t;
  lock->acquire_visit = top_visit (self);

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
release_lock (Decoder    *self,
              gint64      t,
              const char *family,
              gint64      win,
              gint64      target,
              gint64      lock_id)
{
  g_autofree char *key = lock_key (family, win, target, lock_id);
  PendingLock *lock = g_hash_table_lookup (self->locks, key);

  if (lock == NULL || lock->acquire_time == SEXTANT_NULL)
    {
      _sextant_import_log (self->import, "release_without_acquire", self->loc, t,
                           "lock released that was not acquired; ignored");
      return OTF2_CALLBACK_SUCCESS;
    }

  STORE (self, _sextant_decoder_write_lock (self, lock, t, FALSE, &store_error));
  g_hash_table_remove (self->locks, key);

  return OTF2_CALLBACK_SUCCESS;
}

/* The target rank of an RMA lock; NULL for MPI_Win_lock_all (OTF2 writes
 * the undefined rank for "all"). */
static gint64
lock_target (guint32 remote)
{
  return remote == OTF2_UNDEFINED_UINT32 ? SEXTANT_NULL : (gint64)remote;
}

static OTF2_CallbackCode
on_rma_request_lock (DECODER_ARGS,
                     OTF2_RmaWinRef win,
                     uint32_t       remote,
                     uint64_t       lock_id,
                     OTF2_LockType  type)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_REQUEST_LOCK, time);
  PendingLock *lock = open_lock (self, "RMA", win, lock_target (remote), (gint64)lock_id,
                                 sextant_otf2_lock_type_name (type));

  lock->request_time = t;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_rma_acquire_lock (DECODER_ARGS,
                     OTF2_RmaWinRef win,
                     uint32_t       remote,
                     uint64_t       lock_id,
                     OTF2_LockType  type)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_ACQUIRE_LOCK, time);

  return acquire_lock (self, t, "RMA", win, lock_target (remote), (gint64)lock_id,
                       sextant_otf2_lock_type_name (type));
}

static OTF2_CallbackCode
on_rma_try_lock (DECODER_ARGS,
                 OTF2_RmaWinRef win,
                 uint32_t       remote,
                 uint64_t       lock_id,
                 OTF2_LockType  type)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_TRY_LOCK, time);
  PendingLock failed = { "RMA", win, lock_target (remote), (gint64)lock_id, sextant_otf2_lock_type_name (type),
                         t, SEXTANT_NULL, top_visit (self) };   /* the attempt's time as request_time */

  /* OTF2: RMA_TRY_LOCK marks an unsuccessful attempt. */
  STORE (self, _sextant_decoder_write_lock (self, &failed, SEXTANT_NULL, TRUE, &store_error));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_rma_release_lock (DECODER_ARGS,
                     OTF2_RmaWinRef win,
                     uint32_t       remote,
                     uint64_t       lock_id)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_RMA_RELEASE_LOCK, time);

  return release_lock (self, t, "RMA", win, lock_target (remote), (gint64)lock_id);
}

static OTF2_CallbackCode
on_thread_acquire_lock (DECODER_ARGS,
                        OTF2_Paradigm model,
                        uint32_t      lock_id,
                        uint32_t      order)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_THREAD_ACQUIRE_LOCK, time);

  return acquire_lock (self, t, "THREAD", SEXTANT_NULL, SEXTANT_NULL, lock_id, NULL);
}

static OTF2_CallbackCode
on_thread_release_lock (DECODER_ARGS,
                        OTF2_Paradigm model,
                        uint32_t      lock_id,
                        uint32_t      order)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_THREAD_RELEASE_LOCK, time);

  return release_lock (self, t, "THREAD", SEXTANT_NULL, SEXTANT_NULL, lock_id);
}

static OTF2_CallbackCode
on_omp_acquire_lock (DECODER_ARGS,
                     uint32_t lock_id,
                     uint32_t order)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_OMP_ACQUIRE_LOCK, time);

  return acquire_lock (self, t, "OMP", SEXTANT_NULL, SEXTANT_NULL, lock_id, NULL);
}

static OTF2_CallbackCode
on_omp_release_lock (DECODER_ARGS,
                     uint32_t lock_id,
                     uint32_t order)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_OMP_RELEASE_LOCK, time);

  return release_lock (self, t, "OMP", SEXTANT_NULL, SEXTANT_NULL, lock_id);
}

static OTF2_CallbackCode
on_io_acquire_lock (DECODER_ARGS,
                    OTF2_IoHandleRef handle,
                    OTF2_LockType    type)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_IO_ACQUIRE_LOCK, time);

  return acquire_lock (self, t, "IO", SEXTANT_NULL, SEXTANT_NULL, handle, sextant_otf2_lock_type_name (type));
}

static OTF2_CallbackCode
on_io_release_lock (DECODER_ARGS,
                    OTF2_IoHandleRef handle,
                    OTF2_LockType    type)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_IO_RELEASE_LOCK, time);

  return release_lock (self, t, "IO", SEXTANT_NULL, SEXTANT_NULL, handle);
}

static OTF2_CallbackCode
on_io_try_lock (DECODER_ARGS,
                OTF2_IoHandleRef handle,
                OTF2_LockType    type)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_IO_TRY_LOCK, time);
  PendingLock failed = { "IO", SEXTANT_NULL, SEXTANT_NULL, handle, sextant_otf2_lock_type_name (type),
                         t, SEXTANT_NULL, top_visit (self) };

  STORE (self, _sextant_decoder_write_lock (self, &failed, SEXTANT_NULL, TRUE, &store_error));
  return OTF2_CALLBACK_SUCCESS;
}

void
_sextant_location_decoder_set_rma_callbacks (OTF2_EvtReaderCallbacks *cb)
{
#define SET(Name, fn) OTF2_EvtReaderCallbacks_Set##Name##Callback (cb, fn)
  SET (RmaPut, on_rma_put);
  SET (RmaGet, on_rma_get);
  SET (RmaAtomic, on_rma_atomic);
  SET (RmaOpCompleteBlocking, on_rma_op_complete_blocking);
  SET (RmaOpCompleteNonBlocking, on_rma_op_complete_non_blocking);
  SET (RmaOpCompleteRemote, on_rma_op_complete_remote);
  SET (RmaWinCreate, on_rma_win_create);
  SET (RmaWinDestroy, on_rma_win_destroy);
  SET (RmaCollectiveBegin, on_rma_collective_begin);
  SET (RmaCollectiveEnd, on_rma_collective_end);
  SET (RmaGroupSync, on_rma_group_sync);
  SET (RmaSync, on_rma_sync);
  SET (RmaWaitChange, on_rma_wait_change);
  SET (RmaRequestLock, on_rma_request_lock);
  SET (RmaAcquireLock, on_rma_acquire_lock);
  SET (RmaTryLock, on_rma_try_lock);
  SET (RmaReleaseLock, on_rma_release_lock);
  SET (ThreadAcquireLock, on_thread_acquire_lock);
  SET (ThreadReleaseLock, on_thread_release_lock);
  SET (OmpAcquireLock, on_omp_acquire_lock);
  SET (OmpReleaseLock, on_omp_release_lock);
  SET (IoAcquireLock, on_io_acquire_lock);
  SET (IoReleaseLock, on_io_release_lock);
  SET (IoTryLock, on_io_try_lock);
#undef SET
}
