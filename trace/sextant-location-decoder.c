/*
 * sextant-location-decoder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decodes the event records of one location into store rows. Everything a
 * decoder keeps is its own (call stack, open requests, per-channel message
 * counters, open locks and RMA operations); it only reads the shared
 * definitions, so the importer reads the locations of an archive in parallel.
 * What the locations share is locked (the store, the import log) or deferred
 * to _sextant_location_decoder_settle(), which runs between rounds.
 *
 * What becomes of the records:
 *   ENTER/LEAVE (and CALLING_CONTEXT_ENTER/LEAVE)  -> one visit per pair: a
 *     row of the location's visit writer reserved at the enter (ids follow
 *     enter order, so a location's visits are contiguous and sorted by enter
 *     time) and closed at the leave; its call path is the enclosing visits'
 *     regions and its own, with the frames of its calling context (if the
 *     ENTER carries one) merged in (context_path());
 *   MPI_SEND/ISEND/RECV/IRECV                       -> message halves with a
 *     sequence number per (communicator, sender, receiver, tag): MPI does not
 *     let messages of one channel overtake each other, so the n-th send
 *     matches the n-th receive (the matcher pairs them);
 *   MPI_COLLECTIVE_BEGIN/END, NON_BLOCKING_COLLECTIVE_* -> collective halves
 *     with a sequence number per communicator;
 *   RMA_PUT/GET/ATOMIC + RMA_OP_COMPLETE_*          -> rma_op rows;
 *   *_LOCK                                           -> lock rows;
 *   the rest                                         -> rows of their own
 *     tables, or only counted (I/O, buffer flushes).
 * Every record is counted by kind.
 *
 * The callbacks of calls and calling contexts, with the call paths and the
 * timestamp repair every record goes through, are in -calls.c, of messages
 * and collectives in -mpi.c, of one-sided operations and locks in -rma.c,
 * of threads, metrics, parameters and the program in -threads.c
 * (sextant-location-decoder-private.h); here the records only counted and
 * the decoder's life: open, read, settle, finish, close.
 *
 * Repairs, each logged: a timestamp smaller than its predecessor is raised to
 * it, one outside the clock's range set to it; a LEAVE that does not match the innermost ENTER closes the visits above
 * the matching one (or is dropped when nothing matches); visits still open at
 * the end are closed at the location's last timestamp.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sextant-location-decoder-private.h"
#include "sextant-request-pairing.h"

#define READ_BATCH 4096    /* events per OTF2 read call */

/* Event callbacks --------------------------------------------------------- */

#define COUNT_ONLY(Name, KIND, ...) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, ##__VA_ARGS__) \
  { \
    _sextant_decoder_record (user_data, SEXTANT_EVENT_##KIND, time); \
    return OTF2_CALLBACK_SUCCESS; \
  }

static OTF2_CallbackCode
on_unknown (DECODER_ARGS)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_UNKNOWN, time);

  _sextant_import_log (self->import, "unknown_record", self->loc, t,
                       "event record of a kind this OTF2 library does not know; counted as UNKNOWN");
  return OTF2_CALLBACK_SUCCESS;
}

COUNT_ONLY (buffer_flush, BUFFER_FLUSH, OTF2_TimeStamp stop)
COUNT_ONLY (measurement_on_off, MEASUREMENT_ON_OFF, OTF2_MeasurementMode mode)
COUNT_ONLY (mpi_request_test, MPI_REQUEST_TEST, uint64_t request)
COUNT_ONLY (rma_op_test, RMA_OP_TEST, OTF2_RmaWinRef win, uint64_t matching)
COUNT_ONLY (comm_create, COMM_CREATE, OTF2_CommRef comm)
COUNT_ONLY (comm_destroy, COMM_DESTROY, OTF2_CommRef comm)
COUNT_ONLY (io_create_handle, IO_CREATE_HANDLE, OTF2_IoHandleRef h, OTF2_IoAccessMode m,
            OTF2_IoCreationFlag c, OTF2_IoStatusFlag s)
COUNT_ONLY (io_destroy_handle, IO_DESTROY_HANDLE, OTF2_IoHandleRef h)
COUNT_ONLY (io_duplicate_handle, IO_DUPLICATE_HANDLE, OTF2_IoHandleRef a, OTF2_IoHandleRef b,
            OTF2_IoStatusFlag s)
COUNT_ONLY (io_seek, IO_SEEK, OTF2_IoHandleRef h, int64_t r, OTF2_IoSeekOption w, uint64_t o)
COUNT_ONLY (io_change_status_flags, IO_CHANGE_STATUS_FLAGS, OTF2_IoHandleRef h, OTF2_IoStatusFlag s)
COUNT_ONLY (io_delete_file, IO_DELETE_FILE, OTF2_IoParadigmRef p, OTF2_IoFileRef f)
COUNT_ONLY (io_operation_begin, IO_OPERATION_BEGIN, OTF2_IoHandleRef h, OTF2_IoOperationMode m,
            OTF2_IoOperationFlag f, uint64_t b, uint64_t id)
COUNT_ONLY (io_operation_test, IO_OPERATION_TEST, OTF2_IoHandleRef h, uint64_t id)
COUNT_ONLY (io_operation_issued, IO_OPERATION_ISSUED, OTF2_IoHandleRef h, uint64_t id)
COUNT_ONLY (io_operation_complete, IO_OPERATION_COMPLETE, OTF2_IoHandleRef h, uint64_t b, uint64_t id)
COUNT_ONLY (io_operation_cancelled, IO_OPERATION_CANCELLED, OTF2_IoHandleRef h, uint64_t id)

static OTF2_EvtReaderCallbacks *
decoder_callbacks_new (void)
{
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New ();

#define SET(Name, fn) OTF2_EvtReaderCallbacks_Set##Name##Callback (cb, fn)
  SET (Unknown, on_unknown);
  SET (BufferFlush, on_buffer_flush);
  SET (MeasurementOnOff, on_measurement_on_off);
  SET (MpiRequestTest, on_mpi_request_test);
  SET (RmaOpTest, on_rma_op_test);
  SET (IoCreateHandle, on_io_create_handle);
  SET (IoDestroyHandle, on_io_destroy_handle);
  SET (IoDuplicateHandle, on_io_duplicate_handle);
  SET (IoSeek, on_io_seek);
  SET (IoChangeStatusFlags, on_io_change_status_flags);
  SET (IoDeleteFile, on_io_delete_file);
  SET (IoOperationBegin, on_io_operation_begin);
  SET (IoOperationTest, on_io_operation_test);
  SET (IoOperationIssued, on_io_operation_issued);
  SET (IoOperationComplete, on_io_operation_complete);
  SET (IoOperationCancelled, on_io_operation_cancelled);
  SET (CommCreate, on_comm_create);
  SET (CommDestroy, on_comm_destroy);
#undef SET
  _sextant_location_decoder_set_call_callbacks (cb);
  _sextant_location_decoder_set_mpi_callbacks (cb);
  _sextant_location_decoder_set_rma_callbacks (cb);
  _sextant_location_decoder_set_thread_callbacks (cb);

  return cb;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OTF2_EvtReaderCallbacks, OTF2_EvtReaderCallbacks_Delete)

static void
free_queue (gpointer data)
{
  g_queue_free_full (data, g_free);
}

/* Empties what a location leaves in @self (the memory stays) and closes its
 * events. */
void
_sextant_location_decoder_close (Decoder *self)
{
  if (self->reader != NULL)
    OTF2_Reader_CloseEvtReader (self->import->reader, self->reader);
  self->reader = NULL;
  g_clear_pointer (&self->evt_path, g_free);
  memset (self->row_ids, 0, sizeof self->row_ids);
  g_array_set_size (self->context_frames, 0);
  g_hash_table_remove_all (self->new_path_ids);
  g_array_set_size (self->new_paths, 0);
  g_array_set_size (self->new_profile, 0);
  g_array_set_size (self->halves, 0);
  g_array_set_size (self->coll_halves, 0);
  g_array_set_size (self->coll_waiting, 0);
  self->events_unsettled = 0;
  g_array_set_size (self->profile, 0);
  g_array_set_size (self->profile_rows, 0);
  g_array_set_size (self->count_rows, 0);
  self->done = FALSE;
  memset (self->counts, 0, sizeof self->counts);
  self->n_events = 0;
  self->first_time = 0;
  self->last_time = 0;
  self->depth = 0;
  self->lod_cursor = 0;
  for (SeqTable *t = &self->send_seq; t <= &self->coll_seq; t++)
    {
      if (t->slots != NULL)
        memset (t->slots, 0, t->size * sizeof (SeqSlot));
      t->n = 0;
    }
  self->comm_ref = OTF2_UNDEFINED_COMM;
  self->comm_def = NULL;
  sextant_request_map_clear (self->isends);
  sextant_request_map_clear (self->irecvs);
  sextant_request_map_clear (self->nb_colls);
  if (self->held_requests != NULL)
    g_array_set_size (self->held_requests, 0);
  g_queue_clear_full (&self->coll_begins, g_free);
  g_queue_clear_full (&self->rma_coll_begins, g_free);
  g_hash_table_remove_all (self->rma_pending);
  g_hash_table_remove_all (self->locks);
  g_clear_pointer (&self->program.name, g_free);
  g_clear_pointer (&self->program.arguments, g_free);
  memset (&self->program, 0, sizeof self->program);
}

void
_sextant_location_decoder_free (Decoder *self)
{
  if (self == NULL)
    return;

  _sextant_location_decoder_close (self);
  g_clear_pointer (&self->callbacks, OTF2_EvtReaderCallbacks_Delete);
  g_clear_pointer (&self->visits, sextant_chunk_writer_free);
  g_clear_pointer (&self->stack, g_free);
  g_clear_pointer (&self->profile, g_array_unref);
  g_clear_pointer (&self->new_path_ids, g_hash_table_unref);
  g_clear_pointer (&self->context_frames, g_array_unref);
  g_clear_pointer (&self->new_paths, g_array_unref);
  g_clear_pointer (&self->new_profile, g_array_unref);
  g_clear_pointer (&self->halves, g_array_unref);
  g_clear_pointer (&self->coll_halves, g_array_unref);
  g_clear_pointer (&self->coll_waiting, g_array_unref);
  g_free (self->send_seq.slots);
  g_free (self->recv_seq.slots);
  g_free (self->coll_seq.slots);
  g_clear_pointer (&self->isends, sextant_request_map_free);
  g_clear_pointer (&self->irecvs, sextant_request_map_free);
  g_clear_pointer (&self->nb_colls, sextant_request_map_free);
  g_clear_pointer (&self->held_requests, g_array_unref);
  g_clear_pointer (&self->rma_pending, g_hash_table_unref);
  g_clear_pointer (&self->locks, g_hash_table_unref);
  g_clear_pointer (&self->lod, _sextant_lod_builder_free);
  g_clear_pointer (&self->profile_rows, g_array_unref);
  g_clear_pointer (&self->count_rows, g_array_unref);
  g_free (self);
}

void
_sextant_location_decoder_take_rows (Decoder *self,
                                     GArray  *profiles,
                                     GArray  *counts)
{
  g_array_append_vals (profiles, self->profile_rows->data, self->profile_rows->len);
  g_array_append_vals (counts, self->count_rows->data, self->count_rows->len);
  g_array_set_size (self->profile_rows, 0);
  g_array_set_size (self->count_rows, 0);
}

/* Writes what is still open when the location's records end. */
gboolean
_sextant_location_decoder_finish (Decoder  *self,
                                  GError  **error)
{
  SextantStore *store = self->import->store;
  GHashTableIter iter;
  gpointer value;

  if (!_sextant_decoder_close_visits (self, error))
    return FALSE;
  for (guint path = 0; path < self->profile->len; path++)
    {
      const Profile *p = &g_array_index (self->profile, Profile, path);
      SextantStoreValue row[] = { { (gint64)self->loc }, { (gint64)path }, { p->visits }, { p->inclusive },
                                  { p->exclusive }, { p->last_visit } };

      if (p->visits > 0)
        g_array_append_vals (self->profile_rows, row, G_N_ELEMENTS (row));
    }

  if (!sextant_chunk_writer_flush (self->visits, error) ||
      (self->lod != NULL && !_sextant_lod_builder_finish (self->lod, error)))
    return FALSE;

  if (self->n_events != g_array_index (self->import->locations, SextantLocationDef, self->loc).n_events)
    _sextant_import_log (self->import, "event_count_mismatch", self->loc, SEXTANT_NULL,
                         "the location definition announces %" G_GUINT64_FORMAT " events, %"
                         G_GUINT64_FORMAT " were read",
                         g_array_index (self->import->locations, SextantLocationDef, self->loc).n_events,
                         self->n_events);

  if (!_sextant_decoder_finish_requests (self, error))
    return FALSE;
  if (sextant_request_map_size (self->nb_colls) > 0)
    _sextant_import_log (self->import, "incomplete_request", self->loc, self->last_time,
                         "%u NON_BLOCKING_COLLECTIVE_REQUEST(s) never completed",
                         sextant_request_map_size (self->nb_colls));

  g_hash_table_iter_init (&iter, self->rma_pending);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      for (GList *l = ((GQueue *)value)->head; l != NULL; l = l->next)
        if (!_sextant_decoder_write_rma (self, l->data, SEXTANT_NULL, NULL, SEXTANT_NULL, error))
          return FALSE;
    }

  g_hash_table_iter_init (&iter, self->locks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      PendingLock *lock = value;

      if (lock->acquire_time == SEXTANT_NULL)
        continue;
      _sextant_import_log (self->import, "lock_not_released", self->loc, lock->acquire_time,
                           "lock never released");
      if (!_sextant_decoder_write_lock (self, lock, SEXTANT_NULL, FALSE, error))
        return FALSE;
    }

  if (self->program.seen &&
      !sextant_store_run (store, SEXTANT_STMT_PROGRAM, error, "ittnnn",
                          (gint64)self->loc, self->program.name, self->program.arguments,
                          self->program.name != NULL ? self->program.begin : SEXTANT_NULL,
                          self->program.end != 0 ? self->program.end : SEXTANT_NULL,
                          self->program.end != 0 ? self->program.exit_status : SEXTANT_NULL))
    return FALSE;

  for (guint k = 0; k < SEXTANT_N_EVENT_KINDS; k++)
    {
      SextantStoreValue row[3] = { { (gint64)self->loc }, { 0 }, { (gint64)self->counts[k] } };

      row[1].t = sextant_event_kind_names[k];
      if (self->counts[k] > 0)
        g_array_append_vals (self->count_rows, row, G_N_ELEMENTS (row));
    }

  return sextant_store_run (store, SEXTANT_STMT_LOCATION_UPDATE, error, "iinnnn",
                            (gint64)self->loc, (gint64)self->n_events,
                            self->first_visit >= 0 ? self->first_visit : SEXTANT_NULL,
                            self->last_visit >= 0 ? self->last_visit : SEXTANT_NULL,
                            self->n_events > 0 ? self->first_time : SEXTANT_NULL,
                            self->n_events > 0 ? self->last_time : SEXTANT_NULL);
}

static gboolean
set_otf2_error (Decoder         *self,
                OTF2_ErrorCode   status,
                GError         **error)
{
  g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
               "%s: cannot read the events of location %" G_GUINT64_FORMAT ": %s (%s)",
               self->evt_path, self->otf2_id, OTF2_Error_GetName (status),
               OTF2_Error_GetDescription (status));
  return FALSE;
}

/* Opens the events of location @loc in @self, a decoder new or closed. */
static gboolean
decoder_open (Decoder  *self,
              guint32   loc,
              GError  **error)
{
  SextantImport *import = self->import;
  const SextantLocationDef *def = &g_array_index (import->locations, SextantLocationDef, loc);
  char evt_name[32];

  g_snprintf (evt_name, sizeof evt_name, "%" G_GUINT64_FORMAT ".evt", def->otf2_id);
  self->loc = loc;
  self->otf2_id = def->otf2_id;
  self->evt_path = g_build_filename (import->archive_dir, import->archive_name, evt_name, NULL);
  /* Every event record takes a byte at least (its type), so a location
   * has no more events than its file has bytes. libotf2 can deliver more:
   * a file truncated while it read it came back again and again, 77
   * million ENTERs from a 5.6 MB file, until memory ran out. No bound where
   * the file is not there by that name (a SION container). */
  {
    GStatBuf st;

    self->max_events = g_stat (self->evt_path, &st) == 0 ? (guint64)st.st_size : G_MAXUINT64;
  }
  self->first_visit = -1;
  self->last_visit = -1;
  /* requests another location of the process may complete are paired per
   * process (a parallel import's shares are whole processes) */
  self->shared_process = sextant_request_pairing_shared (_sextant_matcher_get_requests (import->matcher), loc);
  self->time_limit = import->have_clock && import->trace_length > 0 && import->trace_length < G_MAXINT64
                     ? (gint64)import->trace_length : G_MAXINT64;
  for (guint i = 0; i < PATH_CACHE_SIZE; i++)
    self->path_cache[i].path = -1;
  for (guint i = 0; i < CONTEXT_CACHE_SIZE; i++)
    self->context_cache[i].path = -1;
  if (self->lod != NULL)
    _sextant_lod_builder_restart (self->lod, loc);
  else if (import->lod_streaming)
    self->lod = _sextant_lod_builder_new (import, loc);
  if (self->visits != NULL)
    sextant_chunk_writer_restart (self->visits, (gint64)loc << VISIT_ID_SHIFT);
  else
    self->visits = sextant_chunk_writer_new_queued (import->chunks, import->blocks, SEXTANT_CHUNK_VISIT,
                                                    SEXTANT_VISIT_N_COLUMNS, (gint64)loc << VISIT_ID_SHIFT,
                                                    import->chunk_rows);

  self->reader = OTF2_Reader_GetEvtReader (import->reader, self->otf2_id);
  if (self->reader == NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "%s: cannot open the events of location %" G_GUINT64_FORMAT,
                   self->evt_path, self->otf2_id);
      return FALSE;
    }
  OTF2_Reader_RegisterEvtCallbacks (import->reader, self->reader, self->callbacks, self);

  return TRUE;
}

/**
 * _sextant_location_decoder_new:
 * @loc: dense location index
 *
 * Opens the events of one location (its local definitions must have been
 * read and the event files opened).
 */
Decoder *
_sextant_location_decoder_new (SextantImport  *import,
                               guint32         loc,
                               GError        **error)
{
  Decoder *self = g_new0 (Decoder, 1);

  self->import = import;
  self->context_frames = g_array_new (FALSE, FALSE, sizeof (SextantContextDef));
  self->new_path_ids = g_hash_table_new_full (_sextant_path_key_hash, _sextant_path_key_equal, g_free, NULL);
  self->new_paths = g_array_new (FALSE, FALSE, sizeof (NewPath));
  self->new_profile = g_array_new (FALSE, TRUE, sizeof (Profile));
  self->halves = g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf));
  self->coll_halves = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));
  self->coll_waiting = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));
  self->profile = g_array_new (FALSE, TRUE, sizeof (Profile));
  self->profile_rows = g_array_new (FALSE, FALSE, sizeof (SextantStoreValue));
  self->count_rows = g_array_new (FALSE, FALSE, sizeof (SextantStoreValue));
  self->comm_ref = OTF2_UNDEFINED_COMM;
  self->isends = sextant_request_map_new (sizeof (PendingSend));
  self->irecvs = sextant_request_map_new (sizeof (PendingPoint));
  self->nb_colls = sextant_request_map_new (sizeof (PendingPoint));
  self->rma_pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_queue);
  self->locks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_queue_init (&self->coll_begins);
  g_queue_init (&self->rma_coll_begins);
  self->callbacks = decoder_callbacks_new ();

  if (!decoder_open (self, loc, error))
    {
      _sextant_location_decoder_free (self);
      return NULL;
    }

  return self;
}

/**
 * _sextant_location_decoder_reopen:
 * @self: a decoder closed by _sextant_location_decoder_close()
 * @loc: dense location index
 *
 * Opens the events of location @loc in the memory of a decoder done with
 * another location: what _sextant_location_decoder_new() gives, without
 * its allocations (its caches alone are 40 KiB to clear) and the frees of
 * _sextant_location_decoder_free(), once per location.
 */
gboolean
_sextant_location_decoder_reopen (Decoder  *self,
                                  guint32   loc,
                                  GError  **error)
{
  g_return_val_if_fail (self->reader == NULL, FALSE);

  return decoder_open (self, loc, error);
}

gint64
_sextant_location_decoder_get_time (Decoder *self)
{
  return self->n_events > 0 ? self->last_time : G_MININT64;
}

/**
 * _sextant_location_decoder_read:
 * @until: read until the location's clock passes this time
 * @max_events: and at most about this many events
 * @done: set when the location has no more events
 *
 * Reads a batch of events and writes their rows. Checks for cancellation.
 */
gboolean
_sextant_location_decoder_read (Decoder   *self,
                                gint64     until,
                                guint64    max_events,
                                gboolean  *done,
                                GError   **error)
{
  SextantImport *import = self->import;
  guint64 n = 0;

  while (!self->done && n < max_events && (self->n_events == 0 || self->last_time <= until))
    {
      uint64_t n_read = 0;
      OTF2_ErrorCode status;

      status = OTF2_Reader_ReadLocalEvents (import->reader, self->reader, READ_BATCH, &n_read);
      self->events_unsettled += n_read;
      n += n_read;

      /* a callback failed (here or on another thread): the importer takes
       * the error from the import */
      if (g_atomic_int_get (&import->failed))
        {
          g_set_error_literal (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, "stopped");
          return FALSE;
        }
      if (status != OTF2_SUCCESS)
        return set_otf2_error (self, status, error);
      if (self->n_events > self->max_events)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                       "%s: cannot read the events of location %" G_GUINT64_FORMAT ": libotf2 read %"
                       G_GUINT64_FORMAT " events from %" G_GUINT64_FORMAT " bytes (the file is damaged, or "
                       "changed while it was read)", self->evt_path, self->otf2_id, self->n_events,
                       self->max_events);
          return FALSE;
        }
      if (n_read < READ_BATCH)
        self->done = TRUE;
    }

  *done = self->done;

  return !g_cancellable_set_error_if_cancelled (import->cancellable, error);
}

static gboolean
map_path (gint64   *value,
          gpointer  data)
{
  const gint64 *ids = data;

  if (!IS_PROVISIONAL (*value))
    return FALSE;
  *value = ids[-2 - *value];

  return TRUE;
}

/* The filled array *@array, replaced by a spare; %NULL if it is empty. */
static GArray *
hand_out (GArray    **array,
          GPtrArray  *spares,
          guint       element_size)
{
  GArray *full;

  if ((*array)->len == 0)
    return NULL;

  full = g_steal_pointer (array);
  if (spares != NULL && spares->len > 0)
    *array = g_ptr_array_steal_index_fast (spares, spares->len - 1);
  else
    *array = g_array_new (FALSE, FALSE, element_size);
  g_array_set_size (*array, 0);

  return full;
}

gboolean
_sextant_location_decoder_settle (Decoder    *self,
                                  guint64    *events,
                                  GPtrArray  *spare_halves,
                                  GPtrArray  *spare_coll_halves,
                                  GArray    **halves,
                                  GArray    **coll_halves,
                                  GError    **error)
{
  SextantImport *import = self->import;

  *events = self->events_unsettled;
  self->events_unsettled = 0;

  if (self->new_paths->len > 0)
    {
      g_autofree gint64 *ids = g_new (gint64, self->new_paths->len);

      for (guint i = 0; i < self->new_paths->len; i++)
        {
          SextantPathKey key = g_array_index (self->new_paths, NewPath, i).key;
          const Profile *p = &g_array_index (self->new_profile, Profile, i);
          Profile *to;

          if (IS_PROVISIONAL (key.parent))
            key.parent = ids[-2 - key.parent];
          ids[i] = _sextant_import_call_path (import, &key, error);
          if (ids[i] < 0)
            return FALSE;

          if ((guint64)ids[i] >= self->profile->len)
            g_array_set_size (self->profile, ids[i] + 1);
          to = &g_array_index (self->profile, Profile, ids[i]);
          to->visits += p->visits;
          to->inclusive += p->inclusive;
          to->exclusive += p->exclusive;
          to->last_visit = MAX (to->last_visit, p->last_visit);
        }

      for (guint i = 0; i < self->depth; i++)
        map_path (&self->stack[i].path, ids);
      for (guint i = 0; i < PATH_CACHE_SIZE; i++)
        self->path_cache[i].path = -1;
      for (guint i = 0; i < CONTEXT_CACHE_SIZE; i++)
        self->context_cache[i].path = -1;
      sextant_chunk_writer_map (self->visits, SEXTANT_VISIT_PATH, map_path, ids);

      g_hash_table_remove_all (self->new_path_ids);
      g_array_set_size (self->new_paths, 0);
      g_array_set_size (self->new_profile, 0);
      if (!sextant_chunk_writer_release (self->visits, error))
        return FALSE;
    }

  /* the halves go to the matcher, which may run beside the next round; the
   * arrays it is done with come back */
  *halves = hand_out (&self->halves, spare_halves, sizeof (SextantDeferredHalf));
  *coll_halves = hand_out (&self->coll_halves, spare_coll_halves, sizeof (SextantCollectiveHalf));

  return TRUE;
}
