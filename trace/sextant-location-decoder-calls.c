/*
 * sextant-location-decoder-calls.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A location's calls: ENTER/LEAVE and CALLING_CONTEXT_ENTER/LEAVE/SAMPLE,
 * the stack of open visits, their call paths (looked up in the decoder's
 * caches, else the shared table, else given a provisional id until
 * _sextant_location_decoder_settle()), the call site and attributes of an
 * ENTER and the level-of-detail pyramid's exclusive times; see
 * sextant-location-decoder.c and sextant-location-decoder-private.h.
 *
 * ENTER and LEAVE are most of a trace's records, and this is their whole
 * path: _sextant_decoder_record(), which every callback calls first, is
 * here too, so that the compiler inlines it, and the frames' code, into
 * them (the other files' callbacks call it).
 */
#include "config.h"

#include "sextant-location-decoder-private.h"

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

/* Closes the visits still open when the location's records end, at its
 * last event (logged). */
gboolean
_sextant_decoder_close_visits (Decoder  *self,
                               GError  **error)
{
  if (self->depth > 0)
    _sextant_import_log (self->import, "unclosed_visit", self->loc, self->last_time,
                         "%u visit(s) still open at the end of the location; closed at its last event",
                         self->depth);
  while (self->depth > 0)
    if (!pop_frame (self, self->last_time, error))
      return FALSE;

  return TRUE;
}

void
_sextant_location_decoder_set_call_callbacks (OTF2_EvtReaderCallbacks *cb)
{
#define SET(Name, fn) OTF2_EvtReaderCallbacks_Set##Name##Callback (cb, fn)
  SET (Enter, on_enter);
  SET (Leave, on_leave);
  SET (CallingContextEnter, on_calling_context_enter);
  SET (CallingContextLeave, on_calling_context_leave);
  SET (CallingContextSample, on_calling_context_sample);
#undef SET
}
