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
 * Repairs, each logged: a timestamp smaller than its predecessor is raised to
 * it, one outside the clock's range set to it; a LEAVE that does not match the innermost ENTER closes the visits above
 * the matching one (or is dropped when nothing matches); visits still open at
 * the end are closed at the location's last timestamp.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "sextant-chunk-writer.h"
#include "sextant-import-private.h"
#include "sextant-lod.h"
#include "sextant-request-map.h"

#define READ_BATCH 4096    /* events per OTF2 read call */

typedef struct
{
  gint64  id;
  guint32 region;
  gint64  enter;
  gint64  context;
  gint64  scl;
  gint64  path;        /* call_path.id */
  SextantCategory category;
  gint64  child_time;  /* inclusive time of the visits inside, so far */
} Frame;

/* A row of call_path_profile, indexed by call path id */
typedef struct
{
  gint64 visits;
  gint64 inclusive;
  gint64 exclusive;
  gint64 last_visit;
} Profile;

/* (parent path, region, source code location) -> path and the region's
 * category: most enters repeat a recent one, so a direct-mapped cache saves
 * the shared tables. */
typedef struct
{
  SextantPathKey key;
  gint64  path;
  SextantCategory category;
} PathCacheEntry;

#define PATH_CACHE_SIZE 1024

/* (parent path, calling context, region) -> the path of a visit with a
 * calling context: a program makes its calls from a few places, many times */
typedef struct
{
  gint64  parent;
  guint32 context;
  guint32 region;
  gint64  path;
  SextantCategory category;
} ContextCacheEntry;

#define CONTEXT_CACHE_SIZE 256
G_STATIC_ASSERT (CONTEXT_CACHE_SIZE == 1 << 8);   /* the index is the top 8 bits of a hash */

/* Frames of a calling context beyond this are a cycle in the definitions */
#define MAX_CONTEXT_FRAMES 4096

enum { ROW_RMA_OP, ROW_RMA_SYNC, ROW_LOCK, ROW_THREAD_EVENT, N_ROW_TABLES };

typedef struct
{
  SextantPathKey key;  /* key.parent: a call path id, or a provisional one */
} NewPath;


#define IS_PROVISIONAL(path) ((path) <= -2)

/* The count of a channel of point-to-point messages, or of collectives
 * (peer = owner), in an open-addressing table: a look-up per message half,
 * with the key compared inline and no allocation per channel. */
typedef struct
{
  gint64  comm;
  gint64  peer;
  guint32 tag;
  guint32 used;
  gint64  count;
} SeqSlot;

typedef struct
{
  SeqSlot *slots;
  guint    size;       /* a power of two */
  guint    n;
} SeqTable;

typedef struct
{
  gint64  comm;
  gint64  peer;
  guint32 tag;
  gint64  seq;
  gint64  bytes;
  gint64  time;
  gint64  visit;
  gint64  request;
} PendingSend;

typedef struct
{
  gint64  time;
  gint64  visit;
  guint32 region;      /* of the visit, G_MAXUINT32 outside any */
  gint64  request;     /* its key in a table of open requests */
} PendingPoint;

typedef struct
{
  gint64  win;
  gint64  target;
  const char *kind;
  const char *atomic_type;
  gint64  bytes;
  gint64  bytes_received;
  gint64  matching_id;
  gint64  time;
  gint64  visit;
} PendingRma;

typedef struct
{
  const char *family;
  gint64  win;
  gint64  target;
  gint64  lock_id;
  const char *lock_type;
  gint64  request_time;
  gint64  acquire_time;
  gint64  acquire_visit;
} PendingLock;

typedef struct
{
  gboolean  seen;
  char     *name;
  char     *arguments;
  gint64    begin;
  gint64    end;
  gint64    exit_status;
} ProgramInfo;

typedef struct _SextantLocationDecoder
{
  SextantImport *import;
  guint32        loc;
  guint64        otf2_id;
  char          *evt_path;               /* for messages */
  guint64        max_events;             /* what the event file can hold: its size */
  OTF2_EvtReader *reader;
  OTF2_EvtReaderCallbacks *callbacks;
  SextantChunkWriter *visits;            /* ids from loc << 32, in enter order */
  PathCacheEntry path_cache[PATH_CACHE_SIZE];
  ContextCacheEntry context_cache[CONTEXT_CACHE_SIZE];
  GArray        *context_frames;         /* SextantContextDef, scratch of context_path() */
  gint64         row_ids[N_ROW_TABLES];

  /* Deferred to _sextant_location_decoder_settle(), so that what the
   * locations share gets ids in location order whatever thread reads them:
   * call paths first seen here (provisional ids -2, -3, ...; the visits that
   * use them are held in their writer) and message and collective halves */
  GHashTable    *new_path_ids;           /* SextantPathKey -> -1 - provisional id */
  GArray        *new_paths;              /* NewPath, by -2 - provisional id */
  GArray        *new_profile;            /* Profile, by -2 - provisional id */
  GArray        *halves;                 /* SextantDeferredHalf */
  GArray        *coll_halves;            /* SextantCollectiveHalf */
  guint64        events_unsettled;
  GArray        *profile;                /* Profile by call path id */
  gboolean       done;

  guint64        counts[SEXTANT_N_EVENT_KINDS];
  guint64        n_events;
  gint64         first_time;
  gint64         last_time;              /* after repair: never decreases */
  gint64         time_limit;             /* the clock's trace length, or G_MAXINT64 */
  gint64         first_visit;
  gint64         last_visit;

  Frame         *stack;                  /* the open visits, innermost last */
  guint          depth;
  guint          stack_size;
  SextantLodBuilder *lod;                /* the pyramid, when built while decoding */
  gint64         lod_cursor;             /* since when the innermost visit runs */
  SeqTable       send_seq;
  SeqTable       recv_seq;
  SeqTable       coll_seq;
  OTF2_CommRef   comm_ref;               /* the communicator of the last message */
  const SextantCommDef *comm_def;
  SextantRequestMap *isends;             /* request -> PendingSend */
  SextantRequestMap *irecvs;             /* request -> PendingPoint */
  SextantRequestMap *nb_colls;           /* request -> PendingPoint */
  GQueue         coll_begins;            /* PendingPoint*, oldest first */
  GQueue         rma_coll_begins;        /* PendingPoint* */
  GHashTable    *rma_pending;            /* (win, matching id) -> GQueue of PendingRma* */
  GHashTable    *locks;                  /* lock key string -> PendingLock* */
  ProgramInfo    program;
} Decoder;

#define VISIT_ID_SHIFT 32

/* Rows of the tables with an id column get ids (loc << 32) + n, so that
 * their ids do not depend on the order in which decoding threads write. */
static inline gint64
next_row_id (Decoder *self,
             guint    table)
{
  return ((gint64)self->loc << 32) + self->row_ids[table]++;
}

static inline guint
seq_hash (gint64  comm,
          gint64  peer,
          guint32 tag)
{
  guint64 h = (guint64)comm * 0x9E3779B97F4A7C15ULL ^ (guint64)peer * 0xC2B2AE3D27D4EB4FULL ^ tag;

  return (guint)(h ^ (h >> 29));
}

static void
seq_table_grow (SeqTable *table)
{
  SeqSlot *old = table->slots;
  guint old_size = table->size;

  table->size = MAX (16, 2 * old_size);
  table->slots = g_new0 (SeqSlot, table->size);
  for (guint i = 0; i < old_size; i++)
    {
      guint j;

      if (!old[i].used)
        continue;
      for (j = seq_hash (old[i].comm, old[i].peer, old[i].tag) & (table->size - 1);
           table->slots[j].used;
           j = (j + 1) & (table->size - 1))
        ;
      table->slots[j] = old[i];
    }
  g_free (old);
}

/* The number of the next message (or collective) of a channel. */
static gint64
next_seq (SeqTable *table,
          gint64    comm,
          gint64    peer,
          guint32   tag)
{
  guint mask;
  guint i;

  if (2 * (table->n + 1) > table->size)
    seq_table_grow (table);
  mask = table->size - 1;

  for (i = seq_hash (comm, peer, tag) & mask; table->slots[i].used; i = (i + 1) & mask)
    {
      SeqSlot *slot = &table->slots[i];

      if (slot->comm == comm && slot->peer == peer && slot->tag == tag)
        return slot->count++;
    }

  table->slots[i] = (SeqSlot) { comm, peer, tag, TRUE, 1 };
  table->n++;

  return 0;
}

/* g_array_append_val() copies with a call to memcpy of a run-time size; a
 * grown array and an inlined copy of a fixed one is measurably cheaper on
 * the per-event path */
#define push_copy(array, value, size) \
  G_STMT_START { \
    GArray *a_ = (array); \
    g_array_set_size (a_, a_->len + 1); \
    memcpy (a_->data + (gsize)(a_->len - 1) * (size), (value), (size)); \
  } G_STMT_END

static inline gint64
top_visit (Decoder *self)
{
  return self->depth > 0 ? self->stack[self->depth - 1].id : SEXTANT_NULL;
}

static inline guint32
top_region (Decoder *self)
{
  return self->depth > 0 ? self->stack[self->depth - 1].region : G_MAXUINT32;
}

static const SextantRegionDef *
region_def (Decoder *self,
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
static gint64
on_record (Decoder          *self,
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

/* Runs @call, which sets store_error when it fails, and fails the import
 * with that error. The call is made before the error is read. */
#define STORE(self, call) \
  G_STMT_START { \
    GError *store_error = NULL; \
    if (!(call)) \
      return _sextant_import_fail ((self)->import, store_error); \
  } G_STMT_END

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

  def = region_def (self, key->region);
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
  a = region_def (self, frame);
  b = region_def (self, region);

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

#define DECODER_ARGS \
  OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, \
  void *user_data, OTF2_AttributeList *attributes

#define COUNT_ONLY(Name, KIND, ...) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, ##__VA_ARGS__) \
  { \
    on_record (user_data, SEXTANT_EVENT_##KIND, time); \
    return OTF2_CALLBACK_SUCCESS; \
  }

static OTF2_CallbackCode
on_unknown (DECODER_ARGS)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_UNKNOWN, time);

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
  gint64 t = on_record (self, SEXTANT_EVENT_ENTER, time);
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
  gint64 t = on_record (self, SEXTANT_EVENT_LEAVE, time);

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
  gint64 t = on_record (self, SEXTANT_EVENT_CALLING_CONTEXT_ENTER, time);

  STORE (self, push_frame (self, context_region (self, context), t, context, SEXTANT_NULL, &store_error));

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_calling_context_leave (DECODER_ARGS,
                          OTF2_CallingContextRef context)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_CALLING_CONTEXT_LEAVE, time);

  return leave_region (self, context_region (self, context), t);
}

static OTF2_CallbackCode
on_calling_context_sample (DECODER_ARGS,
                           OTF2_CallingContextRef     context,
                           uint32_t                   unwind_distance,
                           OTF2_InterruptGeneratorRef generator)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_CALLING_CONTEXT_SAMPLE, time);

  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_SAMPLE, &store_error,
                                  "iiii", (gint64)self->loc, t, (gint64)context,
                                  (gint64)unwind_distance));
  return OTF2_CALLBACK_SUCCESS;
}

/* _sextant_import_comm_rank_loc() with the last communicator's definition
 * kept: the messages of a location mostly use one. */
static gint32
comm_rank_loc (Decoder      *self,
               OTF2_CommRef  comm,
               guint32       rank,
               gboolean     *is_self)
{
  if (comm != self->comm_ref || comm == OTF2_UNDEFINED_COMM)
    {
      self->comm_ref = comm;
      self->comm_def = _sextant_import_get_comm (self->import, comm);
    }

  return _sextant_comm_def_rank_loc (self->comm_def, rank, is_self);
}

/* The receiving or sending peer as a location index, or -(rank + 1) when the
 * communicator does not tell (such halves cannot match and stay unmatched). */
static gint64
resolve_peer (Decoder      *self,
              OTF2_CommRef  comm,
              guint32       rank)
{
  gboolean is_self = FALSE;
  gint32 loc = comm_rank_loc (self, comm, rank, &is_self);

  if (is_self)
    return self->loc;

  if (loc < 0)
    _sextant_import_log (self->import, "unresolved_peer", self->loc, self->last_time,
                         "a message's peer (rank %u of communicator %s) is not a known location; "
                         "such messages stay unmatched", rank,
                         comm == OTF2_UNDEFINED_COMM ? "UNDEFINED" : "without members");

  return loc >= 0 ? loc : -(gint64)rank - 1;
}

static gint64
comm_value (OTF2_CommRef comm)
{
  return comm == OTF2_UNDEFINED_COMM ? SEXTANT_NULL : (gint64)comm;
}

static gboolean
write_send (Decoder            *self,
            const PendingSend  *send,
            gint64              mode,
            gint64              complete_time,
            gint64              complete_visit,
            GError            **error)
{
  SextantHalf half = {
    .comm = send->comm, .src = self->loc, .dst = send->peer, .seq = send->seq, .tag = send->tag,
    .loc = self->loc, .bytes = send->bytes, .mode = mode, .time = send->time, .visit = send->visit,
    .request = send->request, .time2 = complete_time, .visit2 = complete_visit,
  };

  SextantDeferredHalf deferred = { FALSE, half };

  push_copy (self->halves, &deferred, sizeof deferred);
  return TRUE;
}

/* A send at @t, numbered on its channel. */
static PendingSend
new_send (Decoder      *self,
          gint64        t,
          guint32       receiver,
          OTF2_CommRef  comm,
          guint32       tag,
          guint64       length,
          gint64        request)
{
  PendingSend send = { .comm = comm_value (comm), .peer = resolve_peer (self, comm, receiver), .tag = tag };

  send.seq = next_seq (&self->send_seq, send.comm, send.peer, tag);
  send.bytes = (gint64)length;
  send.time = t;
  send.visit = top_visit (self);
  send.request = request;

  return send;
}

static OTF2_CallbackCode
on_mpi_send (DECODER_ARGS,
             uint32_t     receiver,
             OTF2_CommRef comm,
             uint32_t     tag,
             uint64_t     length)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_SEND, time);
  PendingSend send = new_send (self, t, receiver, comm, tag, length, SEXTANT_NULL);

  STORE (self, write_send (self, &send, SEXTANT_MODE_BLOCKING, SEXTANT_NULL, SEXTANT_NULL, &store_error));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_isend (DECODER_ARGS,
              uint32_t     receiver,
              OTF2_CommRef comm,
              uint32_t     tag,
              uint64_t     length,
              uint64_t     request)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_ISEND, time);
  PendingSend send = new_send (self, t, receiver, comm, tag, length, (gint64)request);
  PendingSend *old;

  /* A request id still open is a lost completion: keep the older send. */
  if ((old = sextant_request_map_lookup (self->isends, request)) != NULL)
    {
      _sextant_import_log (self->import, "request_reused", self->loc, t,
                           "MPI_ISEND reuses an open request id; the earlier send is kept without completion");
      STORE (self, write_send (self, old, SEXTANT_MODE_NONBLOCKING, SEXTANT_NULL, SEXTANT_NULL, &store_error));
    }
  *(PendingSend *)sextant_request_map_insert (self->isends, request) = send;

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_isend_complete (DECODER_ARGS,
                       uint64_t request)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_ISEND_COMPLETE, time);
  PendingSend send;

  if (!sextant_request_map_remove (self->isends, request, &send))
    {
      _sextant_import_log (self->import, "unknown_request", self->loc, t,
                           "MPI_ISEND_COMPLETE for a request without MPI_ISEND; ignored");
      return OTF2_CALLBACK_SUCCESS;
    }

  STORE (self, write_send (self, &send, SEXTANT_MODE_NONBLOCKING, t, top_visit (self), &store_error));

  return OTF2_CALLBACK_SUCCESS;
}

/* Where the location is at @t: its innermost visit. */
static inline PendingPoint
point_here (Decoder *self,
            gint64   t)
{
  return (PendingPoint) { .time = t, .visit = top_visit (self), .region = top_region (self), .request = SEXTANT_NULL };
}

static PendingPoint *
new_point (Decoder *self,
           gint64   t)
{
  PendingPoint *point = g_new (PendingPoint, 1);

  *point = point_here (self, t);

  return point;
}

static OTF2_CallbackCode
on_mpi_irecv_request (DECODER_ARGS,
                      uint64_t request)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_IRECV_REQUEST, time);
  PendingPoint *post = sextant_request_map_insert (self->irecvs, request);

  *post = point_here (self, t);
  post->request = (gint64)request;

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
receive (Decoder            *self,
         gint64              t,
         guint32             sender,
         OTF2_CommRef        comm,
         guint32             tag,
         guint64             length,
         gint64              mode,
         gint64              request,
         const PendingPoint *post)
{
  gint64 comm_v = comm_value (comm);
  gint64 peer = resolve_peer (self, comm, sender);
  SextantHalf half = {
    .comm = comm_v, .src = peer, .dst = self->loc, .tag = tag,
    .seq = next_seq (&self->recv_seq, comm_v, peer, tag),
    .loc = self->loc, .bytes = (gint64)length, .mode = mode, .time = t, .visit = top_visit (self),
    .request = request,
    .time2 = post != NULL ? post->time : SEXTANT_NULL,
    .visit2 = post != NULL ? post->visit : SEXTANT_NULL,
  };

  SextantDeferredHalf deferred = { TRUE, half };

  push_copy (self->halves, &deferred, sizeof deferred);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_recv (DECODER_ARGS,
             uint32_t     sender,
             OTF2_CommRef comm,
             uint32_t     tag,
             uint64_t     length)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_RECV, time);

  return receive (self, t, sender, comm, tag, length, SEXTANT_MODE_BLOCKING, SEXTANT_NULL, NULL);
}

static OTF2_CallbackCode
on_mpi_irecv (DECODER_ARGS,
              uint32_t     sender,
              OTF2_CommRef comm,
              uint32_t     tag,
              uint64_t     length,
              uint64_t     request)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_IRECV, time);
  PendingPoint post;
  gboolean posted = sextant_request_map_remove (self->irecvs, request, &post);

  return receive (self, t, sender, comm, tag, length, SEXTANT_MODE_NONBLOCKING, (gint64)request,
                  posted ? &post : NULL);
}

static OTF2_CallbackCode
on_mpi_request_cancelled (DECODER_ARGS,
                          uint64_t request)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_REQUEST_CANCELLED, time);

  /* A cancelled send or receive never happened: it must not stay unmatched. */
  if (!sextant_request_map_remove (self->isends, request, NULL) &&
      !sextant_request_map_remove (self->irecvs, request, NULL))
    _sextant_import_log (self->import, "unknown_request", self->loc, t,
                         "MPI_REQUEST_CANCELLED for a request that is not open; ignored");

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_collective_begin (DECODER_ARGS)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_COLLECTIVE_BEGIN, time);

  g_queue_push_tail (&self->coll_begins, new_point (self, t));

  return OTF2_CALLBACK_SUCCESS;
}

static gboolean
region_has (Decoder  *self,
            guint32   region,
            gboolean  nonblocking_call)
{
  const SextantRegionDef *def = region_def (self, region);

  if (def == NULL)
    return FALSE;

  return nonblocking_call ? def->nonblocking_call : def->completion_call;
}

static OTF2_CallbackCode
write_collective (Decoder           *self,
                  OTF2_CollectiveOp  op,
                  OTF2_CommRef       comm,
                  guint32            root,
                  guint64            sent,
                  guint64            received,
                  gint64             begin,
                  gint64             begin_visit,
                  gboolean           nonblocking,
                  gint64             end)
{
  gboolean is_self = FALSE;
  gint64 owner;
  gint64 root_v;
  gint64 comm_v = comm_value (comm);

  comm_rank_loc (self, comm, 0, &is_self);
  owner = is_self ? (gint64)self->loc : -1;
  root_v = (root == OTF2_UNDEFINED_UINT32 ||
            root == OTF2_COLLECTIVE_ROOT_SELF ||
            root == OTF2_COLLECTIVE_ROOT_THIS_GROUP) ? SEXTANT_NULL : (gint64)root;

  {
    SextantCollectiveHalf half = {
      .comm = comm_v, .owner = owner, .seq = next_seq (&self->coll_seq, comm_v, owner, 0),
      .loc = self->loc, .kind = sextant_otf2_collective_op_name (op), .root = root_v,
      .nonblocking = nonblocking, .begin = begin, .end = end, .visit = begin_visit,
      .end_visit = top_visit (self), .sent = (gint64)sent, .received = (gint64)received,
    };

    push_copy (self->coll_halves, &half, sizeof half);
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_mpi_collective_end (DECODER_ARGS,
                       OTF2_CollectiveOp collective_op,
                       OTF2_CommRef      comm,
                       uint32_t          root,
                       uint64_t          sent,
                       uint64_t          received)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_MPI_COLLECTIVE_END, time);
  g_autofree PendingPoint *begin = g_queue_pop_head (&self->coll_begins);
  gboolean nonblocking;

  if (begin == NULL)
    {
      _sextant_import_log (self->import, "collective_end_without_begin", self->loc, t,
                           "MPI_COLLECTIVE_END without MPI_COLLECTIVE_BEGIN; begins at its end");
      begin = new_point (self, t);
    }

  /* Score-P records a non-blocking collective as BEGIN in the MPI_I* call
   * and END in the MPI_Wait/Test call that completes it. */
  nonblocking = region_has (self, begin->region, TRUE) || region_has (self, top_region (self), FALSE);

  return write_collective (self, collective_op, comm, root, sent, received,
                           begin->time, begin->visit, nonblocking, t);
}

static OTF2_CallbackCode
on_nb_collective_request (DECODER_ARGS,
                          uint64_t request)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_NON_BLOCKING_COLLECTIVE_REQUEST, time);

  PendingPoint *point = sextant_request_map_insert (self->nb_colls, request);

  *point = point_here (self, t);
  point->request = (gint64)request;

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_nb_collective_complete (DECODER_ARGS,
                           OTF2_CollectiveOp collective_op,
                           OTF2_CommRef      comm,
                           uint32_t          root,
                           uint64_t          sent,
                           uint64_t          received,
                           uint64_t          request)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_NON_BLOCKING_COLLECTIVE_COMPLETE, time);
  PendingPoint begin_point;
  PendingPoint *begin = sextant_request_map_remove (self->nb_colls, request, &begin_point) ? &begin_point : NULL;
  OTF2_CallbackCode code;

  if (begin == NULL)
    _sextant_import_log (self->import, "unknown_request", self->loc, t,
                         "NON_BLOCKING_COLLECTIVE_COMPLETE without its request; begins at its end");

  code = write_collective (self, collective_op, comm, root, sent, received,
                           begin != NULL ? begin->time : t,
                           begin != NULL ? begin->visit : top_visit (self), TRUE, t);

  return code;
}

/* One-sided communication ----------------------------------------------- */

static gboolean
write_rma (Decoder           *self,
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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_PUT, time);

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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_GET, time);

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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_ATOMIC, time);

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
  gint64 t = on_record (self, kind, time);
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
  STORE (self, write_rma (self, op, t, how, top_visit (self), &store_error));

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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_WIN_CREATE, time);

  return write_sync (self, t, "RMA_WIN_CREATE", win, SEXTANT_NULL, SEXTANT_NULL, NULL, SEXTANT_NULL);
}

static OTF2_CallbackCode
on_rma_win_destroy (DECODER_ARGS,
                    OTF2_RmaWinRef win)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_WIN_DESTROY, time);

  return write_sync (self, t, "RMA_WIN_DESTROY", win, SEXTANT_NULL, SEXTANT_NULL, NULL, SEXTANT_NULL);
}

static OTF2_CallbackCode
on_rma_collective_begin (DECODER_ARGS)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_COLLECTIVE_BEGIN, time);

  g_queue_push_tail (&self->rma_coll_begins, new_point (self, t));

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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_COLLECTIVE_END, time);
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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_GROUP_SYNC, time);

  return write_sync (self, t, "RMA_GROUP_SYNC", win, group, level, NULL, SEXTANT_NULL);
}

static OTF2_CallbackCode
on_rma_sync (DECODER_ARGS,
             OTF2_RmaWinRef   win,
             uint32_t         remote,
             OTF2_RmaSyncType type)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_SYNC, time);

  return write_sync (self, t, "RMA_SYNC", win, remote, SEXTANT_NULL,
                     sextant_otf2_rma_sync_type_name (type), SEXTANT_NULL);
}

static OTF2_CallbackCode
on_rma_wait_change (DECODER_ARGS,
                    OTF2_RmaWinRef win)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_WAIT_CHANGE, time);

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

static gboolean
write_lock (Decoder            *self,
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

  STORE (self, write_lock (self, lock, t, FALSE, &store_error));
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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_REQUEST_LOCK, time);
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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_ACQUIRE_LOCK, time);

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
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_TRY_LOCK, time);
  PendingLock failed = { "RMA", win, lock_target (remote), (gint64)lock_id, sextant_otf2_lock_type_name (type),
                         t, SEXTANT_NULL, top_visit (self) };   /* the attempt's time as request_time */

  /* OTF2: RMA_TRY_LOCK marks an unsuccessful attempt. */
  STORE (self, write_lock (self, &failed, SEXTANT_NULL, TRUE, &store_error));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_rma_release_lock (DECODER_ARGS,
                     OTF2_RmaWinRef win,
                     uint32_t       remote,
                     uint64_t       lock_id)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_RMA_RELEASE_LOCK, time);

  return release_lock (self, t, "RMA", win, lock_target (remote), (gint64)lock_id);
}

static OTF2_CallbackCode
on_thread_acquire_lock (DECODER_ARGS,
                        OTF2_Paradigm model,
                        uint32_t      lock_id,
                        uint32_t      order)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_THREAD_ACQUIRE_LOCK, time);

  return acquire_lock (self, t, "THREAD", SEXTANT_NULL, SEXTANT_NULL, lock_id, NULL);
}

static OTF2_CallbackCode
on_thread_release_lock (DECODER_ARGS,
                        OTF2_Paradigm model,
                        uint32_t      lock_id,
                        uint32_t      order)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_THREAD_RELEASE_LOCK, time);

  return release_lock (self, t, "THREAD", SEXTANT_NULL, SEXTANT_NULL, lock_id);
}

static OTF2_CallbackCode
on_omp_acquire_lock (DECODER_ARGS,
                     uint32_t lock_id,
                     uint32_t order)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_OMP_ACQUIRE_LOCK, time);

  return acquire_lock (self, t, "OMP", SEXTANT_NULL, SEXTANT_NULL, lock_id, NULL);
}

static OTF2_CallbackCode
on_omp_release_lock (DECODER_ARGS,
                     uint32_t lock_id,
                     uint32_t order)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_OMP_RELEASE_LOCK, time);

  return release_lock (self, t, "OMP", SEXTANT_NULL, SEXTANT_NULL, lock_id);
}

static OTF2_CallbackCode
on_io_acquire_lock (DECODER_ARGS,
                    OTF2_IoHandleRef handle,
                    OTF2_LockType    type)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_IO_ACQUIRE_LOCK, time);

  return acquire_lock (self, t, "IO", SEXTANT_NULL, SEXTANT_NULL, handle, sextant_otf2_lock_type_name (type));
}

static OTF2_CallbackCode
on_io_release_lock (DECODER_ARGS,
                    OTF2_IoHandleRef handle,
                    OTF2_LockType    type)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_IO_RELEASE_LOCK, time);

  return release_lock (self, t, "IO", SEXTANT_NULL, SEXTANT_NULL, handle);
}

static OTF2_CallbackCode
on_io_try_lock (DECODER_ARGS,
                OTF2_IoHandleRef handle,
                OTF2_LockType    type)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_IO_TRY_LOCK, time);
  PendingLock failed = { "IO", SEXTANT_NULL, SEXTANT_NULL, handle, sextant_otf2_lock_type_name (type),
                         t, SEXTANT_NULL, top_visit (self) };

  STORE (self, write_lock (self, &failed, SEXTANT_NULL, TRUE, &store_error));
  return OTF2_CALLBACK_SUCCESS;
}

/* Threads ----------------------------------------------------------------- */

static OTF2_CallbackCode
thread_event (Decoder          *self,
              SextantEventKind  kind,
              OTF2_TimeStamp    time,
              const char       *paradigm,
              gint64            team,
              gint64            value)
{
  gint64 t = on_record (self, kind, time);

  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_THREAD_EVENT, &store_error,
                                  "iittnnni", (gint64)self->loc, t, sextant_event_kind_names[kind],
                                  paradigm, team, value, top_visit (self), next_row_id (self, ROW_THREAD_EVENT)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_thread_fork (DECODER_ARGS, OTF2_Paradigm model, uint32_t n)
{
  return thread_event (user_data, SEXTANT_EVENT_THREAD_FORK, time, sextant_otf2_paradigm_name (model),
                       SEXTANT_NULL, n);
}

static OTF2_CallbackCode
on_thread_join (DECODER_ARGS, OTF2_Paradigm model)
{
  return thread_event (user_data, SEXTANT_EVENT_THREAD_JOIN, time, sextant_otf2_paradigm_name (model),
                       SEXTANT_NULL, SEXTANT_NULL);
}

static OTF2_CallbackCode
on_omp_fork (DECODER_ARGS, uint32_t n)
{
  return thread_event (user_data, SEXTANT_EVENT_OMP_FORK, time, "OPENMP", SEXTANT_NULL, n);
}

static OTF2_CallbackCode
on_omp_join (DECODER_ARGS)
{
  return thread_event (user_data, SEXTANT_EVENT_OMP_JOIN, time, "OPENMP", SEXTANT_NULL, SEXTANT_NULL);
}

#define THREAD_TEAM_CB(Name, KIND) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, OTF2_CommRef team) \
  { \
    return thread_event (user_data, SEXTANT_EVENT_##KIND, time, NULL, team, SEXTANT_NULL); \
  }
THREAD_TEAM_CB (thread_team_begin, THREAD_TEAM_BEGIN)
THREAD_TEAM_CB (thread_team_end, THREAD_TEAM_END)

#define THREAD_TASK_CB(Name, KIND) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, OTF2_CommRef team, uint32_t creator, uint32_t generation) \
  { \
    return thread_event (user_data, SEXTANT_EVENT_##KIND, time, NULL, team, \
                         ((gint64)creator << 32) | generation); \
  }
THREAD_TASK_CB (thread_task_create, THREAD_TASK_CREATE)
THREAD_TASK_CB (thread_task_switch, THREAD_TASK_SWITCH)
THREAD_TASK_CB (thread_task_complete, THREAD_TASK_COMPLETE)

#define THREAD_CONTINGENT_CB(Name, KIND) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, OTF2_CommRef contingent, uint64_t sequence) \
  { \
    return thread_event (user_data, SEXTANT_EVENT_##KIND, time, NULL, contingent, (gint64)sequence); \
  }
THREAD_CONTINGENT_CB (thread_create, THREAD_CREATE)
THREAD_CONTINGENT_CB (thread_begin, THREAD_BEGIN)
THREAD_CONTINGENT_CB (thread_wait, THREAD_WAIT)
THREAD_CONTINGENT_CB (thread_end, THREAD_END)

#define OMP_TASK_CB(Name, KIND) \
  static OTF2_CallbackCode \
  on_##Name (DECODER_ARGS, uint64_t task) \
  { \
    return thread_event (user_data, SEXTANT_EVENT_##KIND, time, "OPENMP", SEXTANT_NULL, (gint64)task); \
  }
OMP_TASK_CB (omp_task_create, OMP_TASK_CREATE)
OMP_TASK_CB (omp_task_switch, OMP_TASK_SWITCH)
OMP_TASK_CB (omp_task_complete, OMP_TASK_COMPLETE)

/* Metrics, parameters, program -------------------------------------------- */

static OTF2_CallbackCode
on_metric (DECODER_ARGS,
           OTF2_MetricRef          metric,
           uint8_t                 n,
           const OTF2_Type        *types,
           const OTF2_MetricValue *values)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_METRIC, time);
  GError *error = NULL;

  for (guint i = 0; i < n; i++)
    {
      gboolean ok;

      if (types[i] == OTF2_TYPE_DOUBLE ||
          (types[i] == OTF2_TYPE_UINT64 && values[i].unsigned_int > G_MAXINT64))
        ok = sextant_store_run (self->import->store, SEXTANT_STMT_METRIC_VALUE, &error, "iiiid",
                                (gint64)self->loc, t, (gint64)metric, (gint64)i,
                                types[i] == OTF2_TYPE_DOUBLE ? values[i].floating_point
                                                             : (double)values[i].unsigned_int);
      else
        ok = sextant_store_run (self->import->store, SEXTANT_STMT_METRIC_VALUE, &error, "iiiii",
                                (gint64)self->loc, t, (gint64)metric, (gint64)i, values[i].signed_int);
      if (!ok)
        return _sextant_import_fail (self->import, error);
    }

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_parameter_string (DECODER_ARGS,
                     OTF2_ParameterRef parameter,
                     OTF2_StringRef    string)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_PARAMETER_STRING, time);

  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_PARAMETER_VALUE, &store_error,
                                  "iiitn", (gint64)self->loc, t, (gint64)parameter,
                                  _sextant_import_string (self->import, string), top_visit (self)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_parameter_int (DECODER_ARGS,
                  OTF2_ParameterRef parameter,
                  int64_t           value)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_PARAMETER_INT64, time);

  STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_PARAMETER_VALUE, &store_error,
                                  "iiiin", (gint64)self->loc, t, (gint64)parameter, value,
                                  top_visit (self)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_parameter_uint (DECODER_ARGS,
                   OTF2_ParameterRef parameter,
                   uint64_t          value)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_PARAMETER_UINT64, time);

  if (value > G_MAXINT64)
    STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_PARAMETER_VALUE, &store_error,
                                    "iiidn", (gint64)self->loc, t, (gint64)parameter, (double)value,
                                    top_visit (self)));
  else
    STORE (self, sextant_store_run (self->import->store, SEXTANT_STMT_PARAMETER_VALUE, &store_error,
                                    "iiiin", (gint64)self->loc, t, (gint64)parameter, (gint64)value,
                                    top_visit (self)));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_program_begin (DECODER_ARGS,
                  OTF2_StringRef        name,
                  uint32_t              n_arguments,
                  const OTF2_StringRef *arguments)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_PROGRAM_BEGIN, time);
  g_autoptr(GString) args = g_string_new (NULL);

  for (guint32 i = 0; i < n_arguments; i++)
    {
      const char *arg = _sextant_import_string (self->import, arguments[i]);

      if (i > 0)
        g_string_append_c (args, ' ');
      g_string_append (args, arg != NULL ? arg : "");
    }

  self->program.seen = TRUE;
  g_free (self->program.name);
  self->program.name = g_strdup (_sextant_import_string (self->import, name));
  g_free (self->program.arguments);
  self->program.arguments = g_string_free (g_steal_pointer (&args), FALSE);
  self->program.begin = t;

  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_program_end (DECODER_ARGS,
                int64_t exit_status)
{
  Decoder *self = user_data;
  gint64 t = on_record (self, SEXTANT_EVENT_PROGRAM_END, time);

  self->program.seen = TRUE;
  self->program.end = t;
  self->program.exit_status = exit_status;

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
  SET (MpiSend, on_mpi_send);
  SET (MpiIsend, on_mpi_isend);
  SET (MpiIsendComplete, on_mpi_isend_complete);
  SET (MpiIrecvRequest, on_mpi_irecv_request);
  SET (MpiRecv, on_mpi_recv);
  SET (MpiIrecv, on_mpi_irecv);
  SET (MpiRequestTest, on_mpi_request_test);
  SET (MpiRequestCancelled, on_mpi_request_cancelled);
  SET (MpiCollectiveBegin, on_mpi_collective_begin);
  SET (MpiCollectiveEnd, on_mpi_collective_end);
  SET (OmpFork, on_omp_fork);
  SET (OmpJoin, on_omp_join);
  SET (OmpAcquireLock, on_omp_acquire_lock);
  SET (OmpReleaseLock, on_omp_release_lock);
  SET (OmpTaskCreate, on_omp_task_create);
  SET (OmpTaskSwitch, on_omp_task_switch);
  SET (OmpTaskComplete, on_omp_task_complete);
  SET (Metric, on_metric);
  SET (ParameterString, on_parameter_string);
  SET (ParameterInt, on_parameter_int);
  SET (ParameterUnsignedInt, on_parameter_uint);
  SET (RmaWinCreate, on_rma_win_create);
  SET (RmaWinDestroy, on_rma_win_destroy);
  SET (RmaCollectiveBegin, on_rma_collective_begin);
  SET (RmaCollectiveEnd, on_rma_collective_end);
  SET (RmaGroupSync, on_rma_group_sync);
  SET (RmaRequestLock, on_rma_request_lock);
  SET (RmaAcquireLock, on_rma_acquire_lock);
  SET (RmaTryLock, on_rma_try_lock);
  SET (RmaReleaseLock, on_rma_release_lock);
  SET (RmaSync, on_rma_sync);
  SET (RmaWaitChange, on_rma_wait_change);
  SET (RmaPut, on_rma_put);
  SET (RmaGet, on_rma_get);
  SET (RmaAtomic, on_rma_atomic);
  SET (RmaOpCompleteBlocking, on_rma_op_complete_blocking);
  SET (RmaOpCompleteNonBlocking, on_rma_op_complete_non_blocking);
  SET (RmaOpTest, on_rma_op_test);
  SET (RmaOpCompleteRemote, on_rma_op_complete_remote);
  SET (ThreadFork, on_thread_fork);
  SET (ThreadJoin, on_thread_join);
  SET (ThreadTeamBegin, on_thread_team_begin);
  SET (ThreadTeamEnd, on_thread_team_end);
  SET (ThreadAcquireLock, on_thread_acquire_lock);
  SET (ThreadReleaseLock, on_thread_release_lock);
  SET (ThreadTaskCreate, on_thread_task_create);
  SET (ThreadTaskSwitch, on_thread_task_switch);
  SET (ThreadTaskComplete, on_thread_task_complete);
  SET (ThreadCreate, on_thread_create);
  SET (ThreadBegin, on_thread_begin);
  SET (ThreadWait, on_thread_wait);
  SET (ThreadEnd, on_thread_end);
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
  SET (IoAcquireLock, on_io_acquire_lock);
  SET (IoReleaseLock, on_io_release_lock);
  SET (IoTryLock, on_io_try_lock);
  SET (ProgramBegin, on_program_begin);
  SET (ProgramEnd, on_program_end);
  SET (NonBlockingCollectiveRequest, on_nb_collective_request);
  SET (NonBlockingCollectiveComplete, on_nb_collective_complete);
  SET (CommCreate, on_comm_create);
  SET (CommDestroy, on_comm_destroy);
#undef SET

  return cb;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OTF2_EvtReaderCallbacks, OTF2_EvtReaderCallbacks_Delete)

static void
free_queue (gpointer data)
{
  g_queue_free_full (data, g_free);
}

void
_sextant_location_decoder_free (Decoder *self)
{
  if (self == NULL)
    return;

  if (self->reader != NULL)
    OTF2_Reader_CloseEvtReader (self->import->reader, self->reader);
  g_clear_pointer (&self->callbacks, OTF2_EvtReaderCallbacks_Delete);
  g_clear_pointer (&self->visits, sextant_chunk_writer_free);
  g_clear_pointer (&self->evt_path, g_free);
  g_clear_pointer (&self->stack, g_free);
  g_clear_pointer (&self->profile, g_array_unref);
  g_clear_pointer (&self->new_path_ids, g_hash_table_unref);
  g_clear_pointer (&self->context_frames, g_array_unref);
  g_clear_pointer (&self->new_paths, g_array_unref);
  g_clear_pointer (&self->new_profile, g_array_unref);
  g_clear_pointer (&self->halves, g_array_unref);
  g_clear_pointer (&self->coll_halves, g_array_unref);
  g_free (self->send_seq.slots);
  g_free (self->recv_seq.slots);
  g_free (self->coll_seq.slots);
  g_clear_pointer (&self->isends, sextant_request_map_free);
  g_clear_pointer (&self->irecvs, sextant_request_map_free);
  g_clear_pointer (&self->nb_colls, sextant_request_map_free);
  g_clear_pointer (&self->rma_pending, g_hash_table_unref);
  g_clear_pointer (&self->locks, g_hash_table_unref);
  g_queue_clear_full (&self->coll_begins, g_free);
  g_queue_clear_full (&self->rma_coll_begins, g_free);
  g_clear_pointer (&self->program.name, g_free);
  g_clear_pointer (&self->program.arguments, g_free);
  g_clear_pointer (&self->lod, _sextant_lod_builder_free);
  g_free (self);
}

/* Writes what is still open when the location's records end. */
gboolean
_sextant_location_decoder_finish (Decoder  *self,
                                  GError  **error)
{
  SextantStore *store = self->import->store;
  g_autoptr(GArray) open_sends = NULL;
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

      if (p->visits > 0 &&
          !sextant_store_run (store, SEXTANT_STMT_CALL_PATH_PROFILE, error, "iiiiii", (gint64)self->loc,
                              (gint64)path, p->visits, p->inclusive, p->exclusive, p->last_visit))
        return FALSE;
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

  /* oldest first */
  open_sends = sextant_request_map_steal_values (self->isends);
  for (guint i = 0; i < open_sends->len; i++)
    {
      const PendingSend *send = &g_array_index (open_sends, PendingSend, i);

      _sextant_import_log (self->import, "incomplete_request", self->loc, send->time, "MPI_ISEND never completed");
      if (!write_send (self, send, SEXTANT_MODE_NONBLOCKING, SEXTANT_NULL, SEXTANT_NULL, error))
        return FALSE;
    }

  if (sextant_request_map_size (self->irecvs) > 0)
    _sextant_import_log (self->import, "incomplete_request", self->loc, self->last_time,
                         "%u MPI_IRECV_REQUEST(s) never completed", sextant_request_map_size (self->irecvs));

  g_hash_table_iter_init (&iter, self->rma_pending);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      for (GList *l = ((GQueue *)value)->head; l != NULL; l = l->next)
        if (!write_rma (self, l->data, SEXTANT_NULL, NULL, SEXTANT_NULL, error))
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
      if (!write_lock (self, lock, SEXTANT_NULL, FALSE, error))
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
      if (self->counts[k] == 0)
        continue;
      if (!sextant_store_run (store, SEXTANT_STMT_EVENT_COUNT, error, "iti",
                              (gint64)self->loc, sextant_event_kind_names[k], (gint64)self->counts[k]))
        return FALSE;
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
  const SextantLocationDef *def = &g_array_index (import->locations, SextantLocationDef, loc);
  g_autofree char *evt_name = g_strdup_printf ("%" G_GUINT64_FORMAT ".evt", def->otf2_id);
  Decoder *self = g_new0 (Decoder, 1);

  self->import = import;
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
  self->time_limit = import->have_clock && import->trace_length > 0 && import->trace_length < G_MAXINT64
                     ? (gint64)import->trace_length : G_MAXINT64;
  for (guint i = 0; i < PATH_CACHE_SIZE; i++)
    self->path_cache[i].path = -1;
  for (guint i = 0; i < CONTEXT_CACHE_SIZE; i++)
    self->context_cache[i].path = -1;
  self->context_frames = g_array_new (FALSE, FALSE, sizeof (SextantContextDef));
  self->new_path_ids = g_hash_table_new_full (_sextant_path_key_hash, _sextant_path_key_equal, g_free, NULL);
  self->new_paths = g_array_new (FALSE, FALSE, sizeof (NewPath));
  self->new_profile = g_array_new (FALSE, TRUE, sizeof (Profile));
  self->halves = g_array_new (FALSE, FALSE, sizeof (SextantDeferredHalf));
  self->coll_halves = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));
  self->profile = g_array_new (FALSE, TRUE, sizeof (Profile));
  self->comm_ref = OTF2_UNDEFINED_COMM;
  self->isends = sextant_request_map_new (sizeof (PendingSend));
  self->irecvs = sextant_request_map_new (sizeof (PendingPoint));
  self->nb_colls = sextant_request_map_new (sizeof (PendingPoint));
  self->rma_pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_queue);
  self->locks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_queue_init (&self->coll_begins);
  g_queue_init (&self->rma_coll_begins);
  if (import->lod_streaming)
    self->lod = _sextant_lod_builder_new (import, loc);
  self->visits = sextant_chunk_writer_new_queued (import->chunks, import->blocks, SEXTANT_CHUNK_VISIT,
                                                  SEXTANT_VISIT_N_COLUMNS, (gint64)loc << VISIT_ID_SHIFT,
                                                  import->chunk_rows);

  self->reader = OTF2_Reader_GetEvtReader (import->reader, self->otf2_id);
  if (self->reader == NULL)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "%s: cannot open the events of location %" G_GUINT64_FORMAT,
                   self->evt_path, self->otf2_id);
      _sextant_location_decoder_free (self);
      return NULL;
    }

  self->callbacks = decoder_callbacks_new ();
  OTF2_Reader_RegisterEvtCallbacks (import->reader, self->reader, self->callbacks, self);

  return self;
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
