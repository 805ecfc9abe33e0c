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
 * The callbacks of messages and collectives are in -mpi.c, of one-sided
 * operations and locks in -rma.c, of threads, metrics, parameters and the
 * program in -threads.c (sextant-location-decoder-private.h); here the
 * calls, calling contexts, the records only counted and the decoder's life.
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


const SextantRegionDef *
_sextant_decoder_region_def (Decoder *self,
                             guint32  region)
{
  return g_hash_table_lookup (self->import->regions, GUINT_TO_POINTER (region));
}

/* A timestamp outside the clock's range [global offset, offset + trace
 * length], or before the offset when the archive gives no clock (a flipped
 * bit, a damaged file): logged with the event's index and set to its
 * predecessor (the first event: to the nearer end of the range). Kept, it
 * would stretch the run, and the pyramid with it, to the bogus time. */
static G_GNUC_NO_INLINE gint64
out_of_range (Decoder        *self,
              OTF2_TimeStamp  time,
              gint64          t)
{
  gint64 repaired = self->n_events > 1 ? self->last_time : CLAMP (t, 0, self->time_limit);

  _sextant_import_log (self->import, "timestamp_out_of_range", self->loc, repaired,
                       "location %" G_GUINT64_FORMAT ", event %" G_GUINT64_FORMAT ": timestamp %" G_GUINT64_FORMAT
                       " is outside the clock's range (%" G_GUINT64_FORMAT " + %" G_GINT64_FORMAT " ticks); set to %s",
                       (guint64)self->otf2_id, self->n_events - 1, (guint64)time, self->import->global_offset, self->time_limit,
                       self->n_events > 1 ? "its predecessor's" : "the range's nearer end");
  return repaired;
}

/* Converts a timestamp to store ticks and repairs disorder. Also counts the
 * record; every callback calls it first. */
gint64
_sextant_decoder_record (Decoder          *self,
                         SextantEventKind  kind,
                         OTF2_TimeStamp    time)
{
  gint64 t = (gint64)(time - self->import->global_offset);

  self->counts[kind]++;
  self->n_events++;

  if (G_UNLIKELY (t < 0 || t > self->time_limit))
    t = out_of_range (self, time, t);
  if (self->n_events == 1)
    self->first_time = self->last_time = t;
  else if (t < self->last_time)
    {
      _sextant_import_log (self->import, "timestamp_disorder", self->loc, self->last_time,
                           "timestamp goes back by %" G_GINT64_FORMAT " ticks; raised to its predecessor",
                           self->last_time - t);
      t = self->last_time;
    }
  else
    self->last_time = t;

  return t;
}

static void
read_call_site (OTF2_AttributeList *attributes,
                gint64             *context,
                gint64             *scl)
{
  guint32 n;

  *context = SEXTANT_NULL;
  *scl = SEXTANT_NULL;

  if (attributes == NULL)
    return;

  n = OTF2_AttributeList_GetNumberOfElements (attributes);
  for (guint32 i = 0; i < n; i++)
    {
      OTF2_AttributeRef attribute;
      OTF2_Type type;
      OTF2_AttributeValue value;

      if (OTF2_AttributeList_GetAttributeByIndex (attributes, i, &attribute, &type, &value) != OTF2_SUCCESS)
        continue;

      if (type == OTF2_TYPE_CALLING_CONTEXT)
        *context = value.callingContextRef;
      else if (type == OTF2_TYPE_SOURCE_CODE_LOCATION)
        *scl = value.sourceCodeLocationRef;
    }
}

/* Stores the ENTER's other attributes as rows of visit_attribute. */
static gboolean
store_attributes (Decoder             *self,
                  OTF2_AttributeList  *attributes,
                  gint64               visit,
                  GError             **error)
{
  SextantStore *store = self->import->store;
  guint32 n;

  if (attributes == NULL)
    return TRUE;

  n = OTF2_AttributeList_GetNumberOfElements (attributes);
  for (guint32 i = 0; i < n; i++)
    {
      OTF2_AttributeRef attribute;
      OTF2_Type type;
      OTF2_AttributeValue v;
      gboolean ok = TRUE;

      if (OTF2_AttributeList_GetAttributeByIndex (attributes, i, &attribute, &type, &v) != OTF2_SUCCESS)
        continue;

      switch (type)
        {
        case OTF2_TYPE_CALLING_CONTEXT:
        case OTF2_TYPE_SOURCE_CODE_LOCATION:
          break;   /* the call site: columns of the visit */
        case OTF2_TYPE_UINT8: case OTF2_TYPE_UINT16: case OTF2_TYPE_UINT32:
          ok = sextant_store_run (store, SEXTANT_STMT_VISIT_ATTRIBUTE, error, "iii", visit, (gint64)attribute,
                                  (gint64)(type == OTF2_TYPE_UINT8 ? v.uint8 : type == OTF2_TYPE_UINT16 ? v.uint16 : v.uint32));
          break;
        case OTF2_TYPE_UINT64:
          if (v.uint64 > G_MAXINT64)
            ok = sextant_store_run (store, SEXTANT_STMT_VISIT_ATTRIBUTE, error, "iid", visit,
                                    (gint64)attribute, (double)v.uint64);
          else
            ok = sextant_store_run (store, SEXTANT_STMT_VISIT_ATTRIBUTE, error, "iii", visit,
                                    (gint64)attribute, (gint64)v.uint64);
          break;
        case OTF2_TYPE_INT8: case OTF2_TYPE_INT16: case OTF2_TYPE_INT32: case OTF2_TYPE_INT64:
          ok = sextant_store_run (store, SEXTANT_STMT_VISIT_ATTRIBUTE, error, "iii", visit, (gint64)attribute,
                                  type == OTF2_TYPE_INT8 ? (gint64)v.int8 : type == OTF2_TYPE_INT16 ? (gint64)v.int16 :
                                  type == OTF2_TYPE_INT32 ? (gint64)v.int32 : v.int64);
          break;
        case OTF2_TYPE_FLOAT: case OTF2_TYPE_DOUBLE:
          ok = sextant_store_run (store, SEXTANT_STMT_VISIT_ATTRIBUTE, error, "iid", visit, (gint64)attribute,
                                  type == OTF2_TYPE_FLOAT ? (double)v.float32 : v.float64);
          break;
        case OTF2_TYPE_STRING:
          ok = sextant_store_run (store, SEXTANT_STMT_VISIT_ATTRIBUTE, error, "iit", visit, (gint64)attribute,
                                  _sextant_import_string (self->import, v.stringRef));
          break;
        default:
          /* references to definitions: their id */
          ok = sextant_store_run (store, SEXTANT_STMT_VISIT_ATTRIBUTE, error, "iii", visit, (gint64)attribute,
                                  (gint64)v.uint64);
          break;
        }
      if (!ok)
        return FALSE;
    }

  return TRUE;
}

/* The innermost open visit ran from the cursor until @t: its exclusive time
 * for the level-of-detail pyramid. */
static gboolean
lod_advance (Decoder  *self,
             gint64    t,
             GError  **error)
{
  gboolean ok = TRUE;

  if (self->lod == NULL)
    return TRUE;

  if (self->depth > 0)
    {
      const Frame *top = &self->stack[self->depth - 1];

      ok = _sextant_lod_builder_add (self->lod, self->lod_cursor, t, top->region, top->category, error);
    }
  self->lod_cursor = t;

  return ok;
}

/* The call path @key: its id if the shared table has it, else a provisional
 * id of this decoder (the shared table only grows between rounds, when no
 * decoder reads, so reading it needs no lock). */
static void
lookup_path (Decoder              *self,
             const SextantPathKey *key,
             gint64               *path,
             SextantCategory      *category)
{
  guint64 h = ((guint64)(key->parent + 1) << 32 | key->region) ^ ((guint64)key->scl << 20);
  PathCacheEntry *entry = &self->path_cache[(h * 0x9E3779B97F4A7C15ULL) >> 54];
  const SextantRegionDef *def;
  gpointer value;

  G_STATIC_ASSERT (PATH_CACHE_SIZE == 1 << 10);

  if (entry->path != -1 && _sextant_path_key_equal (&entry->key, key))
    {
      *path = entry->path;
      *category = entry->category;
      return;
    }

  *path = IS_PROVISIONAL (key->parent) ? -1 : _sextant_import_find_call_path (self->import, key);
  if (*path < 0)
    {
      if (g_hash_table_lookup_extended (self->new_path_ids, key, NULL, &value))
        *path = -1 - (gint64)GPOINTER_TO_SIZE (value);   /* value is index + 1 */
      else
        {
          NewPath np = { *key };

          if (self->new_paths->len == 0)
            sextant_chunk_writer_hold (self->visits);
          *path = -2 - (gint64)self->new_paths->len;
          g_array_append_val (self->new_paths, np);
          g_array_set_size (self->new_profile, self->new_paths->len);
          g_hash_table_insert (self->new_path_ids, g_memdup2 (key, sizeof *key),
                               GSIZE_TO_POINTER (self->new_paths->len));
        }
    }

  def = _sextant_decoder_region_def (self, key->region);
  *category = def != NULL ? def->category : SEXTANT_CATEGORY_OTHER;
  entry->key = *key;
  entry->path = *path;
  entry->category = *category;
}

/* Whether frame @frame of a calling context is the function that the
 * enclosing visit of region @region stands for: the same region, or one of
 * the same name (an instrumented region and the function unwound from the
 * stack may be defined apart). */
static gboolean
same_function (Decoder *self,
               guint32  frame,
               guint32  region)
{
  const SextantRegionDef *a;
  const SextantRegionDef *b;

  if (frame == region)
    return TRUE;
  a = _sextant_decoder_region_def (self, frame);
  b = _sextant_decoder_region_def (self, region);

  return a != NULL && b != NULL && a->name != NULL && b->name != NULL && strcmp (a->name, b->name) == 0;
}

/* The call path of a visit of @region with calling context @context inside
 * the open visits (path @parent): the context's frames, outermost first -
 * below the deepest frame that is the function of an enclosing visit (the
 * innermost such visit), or all of them when none is - appended to @parent,
 * and then @region, unless the context's own last frame is @region (a
 * CALLING_CONTEXT_ENTER: the frame is the visit). %FALSE when @context has
 * no definition. */
static gboolean
context_path (Decoder          *self,
              gint64            parent,
              guint32           context,
              guint32           region,
              gint64           *path,
              SextantCategory  *category)
{
  GArray *frames = self->context_frames;
  const SextantContextDef *def;
  SextantPathKey key;
  gboolean leaf_is_visit;
  guint first = 0;
  guint above;
  guint n;

  g_array_set_size (frames, 0);
  for (def = _sextant_import_get_context (self->import, context);
       def != NULL && frames->len < MAX_CONTEXT_FRAMES;
       def = def->parent != OTF2_UNDEFINED_CALLING_CONTEXT
             ? _sextant_import_get_context (self->import, def->parent) : NULL)
    g_array_append_val (frames, *def);      /* innermost first */
  if (frames->len == 0)
    return FALSE;
  if (def != NULL)
    _sextant_import_log (self->import, "calling_context_cycle", self->loc, self->last_time,
                         "a calling context has more than %d frames (a cycle in the definitions?); "
                         "the innermost are used", MAX_CONTEXT_FRAMES);

  /* outermost first; the last frame is the visit itself when it is of
   * @region, and only the frames above it are matched and appended */
  n = frames->len;
#define FRAME(i) (&g_array_index (frames, SextantContextDef, n - 1 - (i)))
  leaf_is_visit = FRAME (n - 1)->region == region;
  above = leaf_is_visit ? n - 1 : n;
  for (guint d = self->depth; d-- > 0 && first == 0;)
    for (guint i = above; i-- > 0;)
      if (same_function (self, FRAME (i)->region, self->stack[d].region))
        {
          first = i + 1;
          break;
        }

  for (guint i = first; i < above; i++)
    {
      key = (SextantPathKey) { parent, FRAME (i)->region, FRAME (i)->scl };
      lookup_path (self, &key, &parent, category);
    }
  key = (SextantPathKey) { parent, region,
                           leaf_is_visit ? FRAME (n - 1)->scl : OTF2_UNDEFINED_SOURCE_CODE_LOCATION };
#undef FRAME
  lookup_path (self, &key, path, category);

  return TRUE;
}

/* The call path of a visit of @region with calling context @context (or
 * SEXTANT_NULL) inside the open visits. */
static void
visit_path (Decoder          *self,
            guint32           region,
            gint64            context,
            gint64           *path,
            SextantCategory  *category)
{
  gint64 parent = self->depth > 0 ? self->stack[self->depth - 1].path : -1;
  SextantPathKey key = { parent, region, OTF2_UNDEFINED_SOURCE_CODE_LOCATION };
  ContextCacheEntry *entry;
  guint64 h;

  if (context == SEXTANT_NULL)
    {
      lookup_path (self, &key, path, category);
      return;
    }

  h = ((guint64)(parent + 1) << 32 | (guint64)context) ^ ((guint64)region << 44);
  entry = &self->context_cache[(h * 0x9E3779B97F4A7C15ULL) >> 56];
  if (entry->path != -1 && entry->parent == parent && entry->context == (guint32)context &&
      entry->region == region)
    {
      *path = entry->path;
      *category = entry->category;
      return;
    }

  if (!context_path (self, parent, (guint32)context, region, path, category))
    lookup_path (self, &key, path, category);
  *entry = (ContextCacheEntry) { parent, (guint32)context, region, *path, *category };
}

static gboolean
push_frame (Decoder  *self,
            guint32   region,
            gint64    t,
            gint64    context,
            gint64    scl,
            GError  **error)
{
  Frame frame = { 0, region, t, context, scl, -1, SEXTANT_CATEGORY_OTHER, 0 };
  gint64 values[SEXTANT_VISIT_N_COLUMNS];

  visit_path (self, region, context, &frame.path, &frame.category);
  if (!lod_advance (self, t, error))
    return FALSE;

  values[SEXTANT_VISIT_LOC] = self->loc;
  values[SEXTANT_VISIT_REGION] = region;
  values[SEXTANT_VISIT_ENTER] = t;
  values[SEXTANT_VISIT_LEAVE] = SEXTANT_NULL;
  values[SEXTANT_VISIT_DEPTH] = self->depth;
  values[SEXTANT_VISIT_PARENT] = top_visit (self);
  values[SEXTANT_VISIT_CONTEXT] = context;
  values[SEXTANT_VISIT_SCL] = scl;
  values[SEXTANT_VISIT_PATH] = frame.path;
  frame.id = sextant_chunk_writer_reserve (self->visits, values);

  if (self->first_visit < 0)
    self->first_visit = frame.id;
  self->last_visit = frame.id;
  if (self->depth == self->stack_size)
    {
      self->stack_size = MAX (16, 2 * self->stack_size);
      self->stack = g_renew (Frame, self->stack, self->stack_size);
    }
  self->stack[self->depth++] = frame;

  return TRUE;
}

static gboolean
pop_frame (Decoder  *self,
           gint64    t,
           GError  **error)
{
  const Frame *frame = &self->stack[self->depth - 1];
  gint64 id = frame->id;
  gint64 inclusive = t - frame->enter;
  Profile *profile;

  if (!lod_advance (self, t, error))
    return FALSE;

  if (IS_PROVISIONAL (frame->path))
    profile = &g_array_index (self->new_profile, Profile, -2 - frame->path);
  else
    {
      if ((guint64)frame->path >= self->profile->len)
        g_array_set_size (self->profile, frame->path + 1);
      profile = &g_array_index (self->profile, Profile, frame->path);
    }
  profile->visits++;
  profile->inclusive += inclusive;
  profile->exclusive += inclusive - frame->child_time;
  profile->last_visit = MAX (profile->last_visit, id);

  self->depth--;
  if (self->depth > 0)
    self->stack[self->depth - 1].child_time += inclusive;
  if (self->coll_waiting->len > 0)
    _sextant_decoder_collectives_left (self, id, t);

  return sextant_chunk_writer_close_row_with (self->visits, id, SEXTANT_VISIT_LEAVE, t, error);
}

static OTF2_CallbackCode
leave_region (Decoder *self,
              guint32  region,
              gint64   t)
{
  GError *error = NULL;
  guint match = self->depth;

  while (match > 0 && self->stack[match - 1].region != region)
    match--;

  if (match == 0)
    {
      _sextant_import_log (self->import, "leave_without_enter", self->loc, t,
                           "LEAVE of a region that is not entered; dropped");
      return OTF2_CALLBACK_SUCCESS;
    }

  if (match != self->depth)
    _sextant_import_log (self->import, "mismatched_leave", self->loc, t,
                         "LEAVE does not match the innermost ENTER; inner visits closed with it");

  while (self->depth >= match)
    {
      if (!pop_frame (self, t, &error))
        return _sextant_import_fail (self->import, error);
    }

  return OTF2_CALLBACK_SUCCESS;
}

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

static OTF2_CallbackCode
on_enter (DECODER_ARGS,
          OTF2_RegionRef region)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_ENTER, time);
  gint64 context = SEXTANT_NULL;
  gint64 scl = SEXTANT_NULL;
  gboolean has_attributes = attributes != NULL && OTF2_AttributeList_GetNumberOfElements (attributes) > 0;

  /* most enters have no attributes */
  if (has_attributes)
    read_call_site (attributes, &context, &scl);
  STORE (self, push_frame (self, region, t, context, scl, &store_error));
  if (has_attributes)
    STORE (self, store_attributes (self, attributes, top_visit (self), &store_error));

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_leave (DECODER_ARGS,
          OTF2_RegionRef region)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_LEAVE, time);

  return leave_region (self, region, t);
}

static guint32
context_region (Decoder                *self,
                OTF2_CallingContextRef  context)
{
  const SextantContextDef *def = _sextant_import_get_context (self->import, context);

  return def != NULL ? def->region : 0;
}

static OTF2_CallbackCode
on_calling_context_enter (DECODER_ARGS,
                          OTF2_CallingContextRef context,
                          uint32_t               unwind_distance)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_CALLING_CONTEXT_ENTER, time);

  STORE (self, push_frame (self, context_region (self, context), t, context, SEXTANT_NULL, &store_error));

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_calling_context_leave (DECODER_ARGS,
                          OTF2_CallingContextRef context)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_CALLING_CONTEXT_LEAVE, time);

  return leave_region (self, context_region (self, context), t);
}

static OTF2_CallbackCode
on_calling_context_sample (DECODER_ARGS,
                           OTF2_CallingContextRef     context,
                           uint32_t                   unwind_distance,
                           OTF2_InterruptGeneratorRef generator)
{
  Decoder *self = user_data;
  gint64 t = _sextant_decoder_record (self, SEXTANT_EVENT_CALLING_CONTEXT_SAMPLE, time);

  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_SAMPLE, &store_error,
                                  "iiii", (gint64)self->loc, t, (gint64)context,
                                  (gint64)unwind_distance));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_EvtReaderCallbacks *
decoder_callbacks_new (void)
{
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New ();

#define SET(Name, fn) OTF2_EvtReaderCallbacks_Set##Name##Callback (cb, fn)
  SET (Unknown, on_unknown);
  SET (BufferFlush, on_buffer_flush);
  SET (MeasurementOnOff, on_measurement_on_off);
  SET (Enter, on_enter);
  SET (Leave, on_leave);
  SET (MpiRequestTest, on_mpi_request_test);
  SET (RmaOpTest, on_rma_op_test);
  SET (CallingContextEnter, on_calling_context_enter);
  SET (CallingContextLeave, on_calling_context_leave);
  SET (CallingContextSample, on_calling_context_sample);
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

  if (self->depth > 0)
    _sextant_import_log (self->import, "unclosed_visit", self->loc, self->last_time,
                         "%u visit(s) still open at the end of the location; closed at its last event",
                         self->depth);
  while (self->depth > 0)
    if (!pop_frame (self, self->last_time, error))
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
