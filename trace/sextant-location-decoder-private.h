/*
 * sextant-location-decoder-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The decoder of one location's events (sextant-location-decoder.c) and
 * what its files share: the Decoder, the record callbacks' arguments, and
 * the functions every callback calls. The callbacks are split by the records
 * they take: calls and calling contexts in -calls.c, point-to-point
 * messages and collectives in -mpi.c, one-sided operations and locks in
 * -rma.c, threads, metrics, parameters and the program in -threads.c, the
 * records only counted in sextant-location-decoder.c; each of the four
 * registers its own (_sextant_location_decoder_set_*_callbacks()).
 */
#pragma once

#include "sextant-chunk-writer.h"
#include "sextant-import-private.h"
#include "sextant-lod.h"
#include "sextant-request-map.h"

G_BEGIN_DECLS

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
  gint64  coll_comm;   /* a non-blocking collective numbered at its start: its comm ... */
  gint64  coll_seq;    /* ... and number there; -1 = numbered at its completion */
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
  GArray        *coll_waiting;           /* SextantCollectiveHalf whose call is open, innermost last */
  guint64        events_unsettled;
  GArray        *profile;                /* Profile by call path id */
  gboolean       done;

  guint64        counts[SEXTANT_N_EVENT_KINDS];
  /* the location's rows of call_path_profile ("iiiiii") and event_count
   * ("iti"), SextantStoreValue, made by its finish for its batch to write
   * (_sextant_location_decoder_take_rows()) */
  GArray        *profile_rows;
  GArray        *count_rows;
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
  gboolean       shared_process;         /* its process has other locations: requests may
                                          * start on one and complete on another */
  GArray        *held_requests;          /* (nullable) SextantRequestItem: see
                                          * _sextant_decoder_finish_requests() */
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

#define DECODER_ARGS \
  OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, \
  void *user_data, OTF2_AttributeList *attributes

/* Runs @call, which sets store_error when it fails, and fails the import
 * with that error. The call is made before the error is read. */
#define STORE(self, call) \
  G_STMT_START { \
    GError *store_error = NULL; \
    if (!(call)) \
      return _sextant_import_fail ((self)->import, store_error); \
  } G_STMT_END

/* In -calls.c: converts a timestamp to store ticks and repairs disorder.
 * Also counts the record; every callback calls it first. */
G_GNUC_INTERNAL
gint64                  _sextant_decoder_record     (Decoder          *self,
                                                     SextantEventKind  kind,
                                                     OTF2_TimeStamp    time);
G_GNUC_INTERNAL
const SextantRegionDef *_sextant_decoder_region_def (Decoder          *self,
                                                     guint32           region);
/* In -calls.c: closes the visits still open at the location's end */
G_GNUC_INTERNAL
gboolean                _sextant_decoder_close_visits (Decoder  *self,
                                                       GError  **error);

/* In -mpi.c: a point of this location's time line (a request's post), and
 * a send half for the matcher */
G_GNUC_INTERNAL
void                    _sextant_decoder_collectives_left (Decoder *self,
                                                           gint64   visit,
                                                           gint64   t);
gboolean                _sextant_decoder_finish_requests (Decoder  *self,
                                                          GError  **error);
PendingPoint           *_sextant_decoder_new_point  (Decoder          *self,
                                                     gint64            t);
G_GNUC_INTERNAL
gboolean                _sextant_decoder_write_send (Decoder            *self,
                                                     const PendingSend  *send,
                                                     gint64              mode,
                                                     gint64              complete_time,
                                                     gint64              complete_visit,
                                                     GError            **error);
/* In -rma.c: an operation's and a lock's row */
G_GNUC_INTERNAL
gboolean                _sextant_decoder_write_rma  (Decoder           *self,
                                                     const PendingRma  *op,
                                                     gint64             complete_time,
                                                     const char        *complete_kind,
                                                     gint64             complete_visit,
                                                     GError           **error);
G_GNUC_INTERNAL
gboolean                _sextant_decoder_write_lock (Decoder            *self,
                                                     const PendingLock  *lock,
                                                     gint64              release_time,
                                                     gboolean            try_failed,
                                                     GError            **error);

/* the functions are hidden, so that a file's own calls can be inlined */
G_GNUC_INTERNAL void _sextant_location_decoder_set_call_callbacks   (OTF2_EvtReaderCallbacks *cb);
G_GNUC_INTERNAL void _sextant_location_decoder_set_mpi_callbacks    (OTF2_EvtReaderCallbacks *cb);
G_GNUC_INTERNAL void _sextant_location_decoder_set_rma_callbacks    (OTF2_EvtReaderCallbacks *cb);
G_GNUC_INTERNAL void _sextant_location_decoder_set_thread_callbacks (OTF2_EvtReaderCallbacks *cb);

G_END_DECLS
