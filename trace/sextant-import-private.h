/*
 * sextant-import-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * State shared by the files of one import: the definitions that decoding
 * events needs (read once from the global definitions, immutable while the
 * locations are decoded, so location decoders could run in parallel), the
 * store being written, and the first error.
 */
#pragma once

#include <otf2/otf2.h>

#include "sextant-block-pool.h"
#include "sextant-chunk-queue.h"
#include "sextant-collective-bounds.h"
#include "sextant-otf2-names.h"
#include "sextant-small-chunks.h"
#include "sextant-import-share.h"
#include "sextant-share-spill.h"
#include "sextant-store-private.h"

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OTF2_GlobalDefReaderCallbacks, OTF2_GlobalDefReaderCallbacks_Delete)

/* An OTF2 reference as a store id: SEXTANT_NULL for @undefined */
static inline gint64
_sextant_ref_or_null (guint64 ref,
                      guint64 undefined)
{
  return ref == undefined ? SEXTANT_NULL : (gint64)ref;
}


typedef struct
{
  guint64     otf2_id;
  char       *name;
  OTF2_LocationType type;
  guint32     group;           /* location group id, G_MAXUINT32 if none */
  guint64     n_events;        /* from the definition */
} SextantLocationDef;

typedef struct
{
  char       *name;
  OTF2_RegionRole role;
  OTF2_Paradigm paradigm;
  SextantCategory category;
  guint       nonblocking_call : 1;   /* MPI_I*: a collective begun here is non-blocking */
  guint       completion_call : 1;    /* MPI_Wait*, MPI_Test* */
} SextantRegionDef;

typedef struct
{
  OTF2_GroupType type;
  OTF2_Paradigm paradigm;
  GArray     *members;         /* guint64 */
} SextantGroupDef;

/* A CallingContext definition: the function, the source code location in it
 * (of the call to the next frame) and the caller's context; the
 * OTF2_UNDEFINED_* value of each when missing. */
typedef struct
{
  guint32     region;
  guint32     scl;
  guint32     parent;
} SextantContextDef;

/* A node of the call-path tree: the path @parent (-1 at the top; a location
 * decoder's provisional ids are <= -2) followed by @region, at source code
 * location @scl when the node is a frame of a calling context
 * (OTF2_UNDEFINED_SOURCE_CODE_LOCATION when it comes from visit nesting). */
typedef struct
{
  gint64      parent;
  guint32     region;
  guint32     scl;
} SextantPathKey;

static inline guint
_sextant_path_key_hash (gconstpointer key)
{
  const SextantPathKey *k = key;
  guint64 h = ((guint64)k->parent * 0x9E3779B97F4A7C15ULL) ^ ((guint64)k->region << 32 | k->scl);

  h *= 0xC2B2AE3D27D4EB4FULL;
  return (guint)(h ^ (h >> 32));
}

static inline gboolean
_sextant_path_key_equal (gconstpointer a,
                         gconstpointer b)
{
  const SextantPathKey *x = a;
  const SextantPathKey *y = b;

  return x->parent == y->parent && x->region == y->region && x->scl == y->scl;
}

typedef struct
{
  guint32     group;
  gboolean    is_self;
  GArray     *rank_loc;        /* gint32 dense location index per rank, -1 unknown */
} SextantCommDef;

/* One side of a point-to-point message, as a location decoder saw it. The
 * channel is (comm, src, dst, tag) with src/dst location indexes, or
 * -(rank + 1) for a peer no location stands for; seq numbers the side's
 * messages on the channel, on the recording location (the matcher numbers
 * the halves of a process with several threads again, per process). */
typedef struct
{
  gint64   comm;
  gint64   src;
  gint64   dst;
  gint64   seq;
  guint32  tag;
  gint64   loc;          /* the location that recorded it */
  gint64   bytes;
  gint64   mode;         /* SEXTANT_MODE_* */
  gint64   time;         /* MPI_SEND/ISEND or MPI_RECV/IRECV */
  gint64   visit;
  gint64   request;
  gint64   time2;        /* send: MPI_ISEND_COMPLETE; receive: MPI_IRECV_REQUEST */
  gint64   visit2;
  gint64   post;         /* what orders the half among its process's threads (MPI's order): a
                          * send's time, a receive's post (MPI_IRECV_REQUEST, or the enter
                          * of the blocking call) */
} SextantHalf;

/* One member's part in a collective: instance seq of (comm, owner), owner
 * being the location for self communicators and -1 otherwise. */
typedef struct
{
  gint64       comm;
  gint64       owner;
  gint64       seq;
  gint64       loc;
  const char  *kind;     /* static */
  gint64       root;
  gboolean     nonblocking;
  gint64       begin;
  gint64       end;
  gint64       visit;
  gint64       end_visit;
  gint64       sent;
  gint64       received;
  gint64       enter;    /* the enter and leave of `visit` (the collective bounds compare */
  gint64       leave;    /* them), SEXTANT_NULL when its call is unknown */
} SextantCollectiveHalf;

/* A message half as a decoder hands it to the matcher */
typedef struct
{
  gboolean     is_recv;
  SextantHalf  half;
} SextantDeferredHalf;

typedef struct _SextantMatcher SextantMatcher;
typedef struct _SextantCollectiveMatcher SextantCollectiveMatcher;
typedef struct _SextantLocationDecoder SextantLocationDecoder;

typedef void (*SextantImportProgressFunc) (double   fraction,
                                           double   events_per_second,
                                           gpointer user_data);

typedef struct
{
  SextantStore      *store;
  SextantChunkQueue *chunks;           /* the column tables' chunks, on their way to the store */
  SextantBlockPool  *blocks;           /* the rows of the chunks being filled */
  OTF2_Reader       *reader;
  SextantSmallChunks *small_chunks;    /* the view of the archive libotf2 reads, or NULL: the archive */
  char              *archive_dir;      /* directory of the anchor file */
  char              *archive_name;     /* anchor file name without .otf2 */
  GCancellable      *cancellable;
  GError            *error;            /* first failure inside a callback */
  gint               failed;           /* atomic: error is set */
  GMutex             lock;             /* error and logged, written by decoding threads */

  /* Definitions */
  GHashTable        *strings;          /* OTF2_StringRef -> char* */
  GArray            *locations;        /* SextantLocationDef, sorted by otf2_id */
  GHashTable        *location_index;   /* guint64* otf2 id -> dense index */
  GHashTable        *regions;          /* id -> SextantRegionDef* */
  GHashTable        *groups;           /* id -> SextantGroupDef* */
  GHashTable        *comms;            /* id -> SextantCommDef* */
  GHashTable        *contexts;         /* calling context id -> SextantContextDef* */
  GHashTable        *scl_names;        /* source code location id -> "file.c:12" (base name) */
  GHashTable        *logged;           /* "kind:loc" -> log entry, folded */
  GHashTable        *call_paths;       /* SextantPathKey* -> path id + 1; shared by the locations */
  GPtrArray         *call_path_names;  /* path id -> "main/solver/MPI_Recv" */
  GArray            *call_path_depths; /* path id -> guint, 0 at the top */
  guint64            def_counts[SEXTANT_N_DEF_KINDS];
  struct _SextantDefRows *def_rows;    /* definition rows waiting for their INSERT (sextant-import-defs.c) */
  guint64            resolution;       /* ticks per second */
  guint64            global_offset;    /* ticks */
  guint64            trace_length;     /* ticks */
  gboolean           have_clock;
  gboolean           nbc_comm_attribute; /* an attribute of type COMM is defined: non-blocking
                                          * collectives are numbered at their start */

  /* Progress */
  guint64            events_expected;  /* sum of the location definitions */
  guint64            events_read;
  gint64             start_usec;
  gint64             last_report_usec;
  SextantImportProgressFunc progress;
  gpointer           progress_data;

  /* Matching across locations, and the rows per chunk of the column tables
   * (fewer when there are many locations, to bound the buffers) */
  SextantMatcher    *matcher;
  guint              chunk_rows;

  /* Level of detail: origin, base bucket width and number of levels
   * (0..lod_levels-1); built by the decoders when lod_streaming */
  gint64             lod_origin;
  gint64             lod_base_ticks;
  guint              lod_levels;
  gboolean           lod_streaming;

  /* A parallel import's share (sextant-import-share.c), NULL for all: the
   * rank of each location (by index), the locations decoded here
   * (guint32, ascending), and the halves whose other end another rank
   * decodes, set aside by the matcher until the exchange: a stream per
   * rank of their other ends, in bounded memory (sextant-share-spill.h) */
  const SextantImportShare *share;
  gint32            *share_owner;
  GArray            *share_locations;
  SextantShareSpill *share_halves;      /* records of sextant-half-wire.h by the rank of the other end */
  guint64            share_n_halves;    /* the halves in them */
  GHashTable        *share_half_locs;   /* loc * n_ranks + rank + 1: a location with halves to a rank */
  gint64            *share_last_loc;    /* by rank: the location of the last half to it */
  GArray            *share_coll_halves; /* SextantCollectiveHalf */
  GHashTable        *share_comm_ranks;  /* comm id -> GArray of guint32 ranks (empty: only here) */
  gboolean           share_exchanged;
} SextantImport;

/* Records a problem that the import repairs or skips. Occurrences with the
 * same @kind and @loc are folded into one import_log row with a count. */
/* The global definition reader's callbacks (sextant-import-defs.c): their
 * user data is the SextantImport */
OTF2_GlobalDefReaderCallbacks *_sextant_import_global_def_callbacks_new (void);
void _sextant_import_flush_def_rows (SextantImport *import);
void _sextant_import_free_def_rows  (SextantImport *import);
/* A copy of @string, its invalid UTF-8 bytes made U+FFFD (logged, naming
 * @what): the store holds UTF-8 only */
char *_sextant_import_valid_utf8 (SextantImport *import,
                                  const char    *string,
                                  const char    *what);
void     _sextant_import_log        (SextantImport  *import,
                                     const char     *kind,
                                     gint64          loc,
                                     gint64          time,
                                     const char     *format,
                                     ...) G_GNUC_PRINTF (5, 6);

void     _sextant_import_log_n      (SextantImport  *import,
                                     const char     *kind,
                                     gint64          loc,
                                     gint64          time,
                                     gint64          count,
                                     const char     *format,
                                     ...) G_GNUC_PRINTF (6, 7);

/* Stores the first error of a callback; returns OTF2_CALLBACK_INTERRUPT. */
OTF2_CallbackCode _sextant_import_fail (SextantImport *import,
                                        GError        *error);

gint32   _sextant_import_loc_index  (SextantImport  *import,
                                     guint64         otf2_id);
const char *_sextant_import_string  (SextantImport  *import,
                                     OTF2_StringRef  ref);
gint32   _sextant_import_comm_rank_loc (SextantImport *import,
                                        OTF2_CommRef   comm,
                                        guint32        rank,
                                        gboolean      *is_self);
const SextantCommDef *_sextant_import_get_comm (SextantImport *import,
                                                OTF2_CommRef   comm);

/* The location of @rank in communicator @def (may be %NULL), -1 if unknown;
 * sets @is_self (may be %NULL) when @def is a self communicator. */
static inline gint32
_sextant_comm_def_rank_loc (const SextantCommDef *def,
                            guint32               rank,
                            gboolean             *is_self)
{
  if (is_self != NULL)
    *is_self = def != NULL && def->is_self;

  if (def == NULL || def->rank_loc == NULL || rank >= def->rank_loc->len)
    return -1;

  return g_array_index (def->rank_loc, gint32, rank);
}
gboolean _sextant_import_report_progress (SextantImport *import);

gint64   _sextant_import_find_call_path (SextantImport        *import,
                                         const SextantPathKey *key);
gint64   _sextant_import_call_path  (SextantImport         *import,
                                     const SextantPathKey  *key,
                                     GError               **error);
const SextantContextDef *_sextant_import_get_context (SextantImport          *import,
                                                      OTF2_CallingContextRef  context);

/* sextant-import-worker.c */
gboolean _sextant_import_in_worker (const char                 *program,
                                    const char                 *anchor,
                                    const char                 *tmp_path,
                                    SextantImportProgressFunc   progress,
                                    gpointer                    progress_data,
                                    GCancellable               *cancellable,
                                    GError                    **error);

/* sextant-import-rounds.c */
/* How many locations are open at once (libotf2 buffers a chunk for each). */
guint    _sextant_import_plan_batch      (SextantImport  *import);
guint    _sextant_import_plan_chunk_rows (guint           n_locations);
/* Reads every event of the archive into the store, matches the messages and
 * collectives, and writes what is left unmatched. */
gboolean _sextant_import_decode_events   (SextantImport  *import,
                                          GError        **error);

/* sextant-location-decoder.c: one per location, those of a batch open at
 * once, read in turns so that they advance through time together. */
SextantLocationDecoder *_sextant_location_decoder_new (SextantImport          *import,
                                                       guint32                 loc,
                                                       GError                **error);
/* Reads events until the location's time passes @until (or it ends).
 * Decoders of different locations may read in parallel: what they share is
 * locked (the store, the import log) or deferred to
 * _sextant_location_decoder_settle(), which the importer calls for every
 * location in order between rounds. */
gboolean _sextant_location_decoder_read   (SextantLocationDecoder  *self,
                                           gint64                   until,
                                           guint64                  max_events,
                                           gboolean                *done,
                                           GError                 **error);
/* Gives the call paths first seen since the last call their ids; returns
 * the events read since and the message halves (SextantDeferredHalf) and
 * collective halves (SextantCollectiveHalf) read since, for the matcher,
 * or %NULL for none (the location keeps its empty array). An array handed
 * out is replaced by one popped from @spare_halves or @spare_coll_halves
 * (nullable stacks of empty arrays) or a new one: a location has halves in
 * a few rounds of many, and arrays only for those go round, not an array
 * per location and round grown to the largest count it ever held. */
gboolean _sextant_location_decoder_settle (SextantLocationDecoder  *self,
                                           guint64                 *events,
                                           GPtrArray               *spare_halves,
                                           GPtrArray               *spare_coll_halves,
                                           GArray                 **halves,
                                           GArray                 **coll_halves,
                                           GError                 **error);
gint64   _sextant_location_decoder_get_time (SextantLocationDecoder *self);
/* Writes what is still open; call once after the last read. */
gboolean _sextant_location_decoder_finish (SextantLocationDecoder  *self,
                                           GError                 **error);
/* Moves the location's call_path_profile and event_count rows, which its
 * finish made, to the ends of @profiles and @counts (SextantStoreValue,
 * "iiiiii" and "iti" a row) */
void     _sextant_location_decoder_take_rows (SextantLocationDecoder *self,
                                              GArray                 *profiles,
                                              GArray                 *counts);
void     _sextant_location_decoder_free   (SextantLocationDecoder  *self);
/* Closes the location's events and empties what it left, keeping the
 * memory; _sextant_location_decoder_reopen() then opens another location
 * in it (the importer keeps the closed decoders of a batch for the next). */
void     _sextant_location_decoder_close  (SextantLocationDecoder  *self);
gboolean _sextant_location_decoder_reopen (SextantLocationDecoder  *self,
                                           guint32                  loc,
                                           GError                 **error);

/* sextant-collective-matcher.c: the matcher's collective part */
SextantCollectiveMatcher *_sextant_collective_matcher_new (SextantImport *import,
                                                           guint          chunk_rows);
void     _sextant_collective_matcher_free (SextantCollectiveMatcher     *self);
/* Adds a member: writes its row, and its instance's once all have come */
gboolean _sextant_collective_matcher_add  (SextantCollectiveMatcher     *self,
                                           const SextantCollectiveHalf  *half,
                                           GError                      **error);
/* Writes the instances still open (incomplete), at the end */
gboolean _sextant_collective_matcher_finish (SextantCollectiveMatcher   *self,
                                             GError                    **error);
/* Writes the members' last rows */
gboolean _sextant_collective_matcher_flush (SextantCollectiveMatcher    *self,
                                            GError                     **error);
/* A parallel import's part of a collective instance whose members are on
 * several ranks: what this rank's members give, combined across ranks
 * (sextant-import-share.c) before the instance's row is written. */
typedef struct
{
  gint64                   comm;
  gint64                   seq;
  gint64                   n_members;
  gint64                   root;         /* SEXTANT_NULL: none of them named it */
  const char              *kind;         /* static */
  gint64                   nonblocking;
  SextantCollectiveBounds  bounds;
} SextantCollectiveSummary;
/* A member of an instance of a rooted operation whose root none of this
 * rank's members named: another rank's may, and tell whether it was it */
typedef struct
{
  gint64  comm;
  gint64  seq;
  gint64  loc;
  gint64  enter;
} SextantRootCandidate;
/* Into @candidates (SextantRootCandidate) the members that may be the root
 * of the open instances on the communicators for which @spans says TRUE */
void     _sextant_collective_matcher_root_candidates (SextantCollectiveMatcher  *self,
                                                      gboolean                (*spans) (SextantImport *import,
                                                                                        gint64         comm),
                                                      GArray                    *candidates);
/* After the combined summaries: another rank's member that may be the root
 * of its open instance here */
void     _sextant_collective_matcher_add_root_candidate (SextantCollectiveMatcher   *self,
                                                         const SextantRootCandidate *candidate);
/* An instance of a communicator between ranks as it left memory, with
 * this rank's members (the combine writes its row) */
typedef struct
{
  gint64                   seq;
  gint64                   n_members;
  gint64                   root;
  gint64                   root_loc;
  gint64                   nonblocking;
  gint64                   expected;
  const char              *kind;         /* static */
  SextantCollectiveBounds  bounds;
} SextantSpilledInstance;
/* The summary of instance @seq of @comm that left memory, from the spill:
 * FALSE if it is not there (and @error if the spill could not be read).
 * The combine asks in the order of the communicators, then the numbers. */
gboolean _sextant_collective_matcher_spilled (SextantCollectiveMatcher  *self,
                                              gint64                    comm,
                                              gint64                    seq,
                                              SextantSpilledInstance   *spilled,
                                              GError                  **error);
/* Writes the row of an instance that left memory: @spilled with the
 * combined summary of all ranks' members (as _sextant_collective_matcher_set_combined()
 * gives an open one) and the @n_candidates other ranks' members that may
 * be its root */
gboolean _sextant_collective_matcher_write_spilled (SextantCollectiveMatcher       *self,
                                                    gint64                          comm,
                                                    const SextantSpilledInstance   *spilled,
                                                    const SextantCollectiveSummary *combined,
                                                    gboolean                        kinds_differ,
                                                    const SextantRootCandidate     *candidates,
                                                    guint                           n_candidates,
                                                    GError                        **error);
/* The id of instance @seq of @comm (no owner, not made again), SEXTANT_NULL
 * where the key gives none (such an instance stays in memory: its row
 * takes the id the import's counter gives at its first member) */
gint64   _sextant_collective_matcher_instance_id (gint64 comm,
                                                  gint64 seq);
/* One past the last instance begun here on @comm (no owner), 0: none */
gint64   _sextant_collective_matcher_open_end (SextantCollectiveMatcher *self,
                                               gint64                    comm);
/* The summary of this rank's members of open instance @seq of @comm, FALSE
 * if there is none */
gboolean _sextant_collective_matcher_open_summary (SextantCollectiveMatcher *self,
                                                   gint64                    comm,
                                                   gint64                    seq,
                                                   SextantCollectiveSummary *summary);
/* The open instance of @combined's key, if this rank has one, takes the
 * summary of all ranks' members (its own included); @kinds_differ: some
 * ranks' members named another operation */
void     _sextant_collective_matcher_set_combined (SextantCollectiveMatcher       *self,
                                                   const SextantCollectiveSummary *combined,
                                                   gboolean                        kinds_differ);

/* sextant-matcher.c */
SextantMatcher *_sextant_matcher_new      (SextantImport                *import,
                                           guint                         chunk_rows);
void     _sextant_matcher_free            (SextantMatcher               *self);
/* Adds the halves of one location (in the order read); either may be %NULL. */
gboolean _sextant_matcher_add_deferred    (SextantMatcher               *self,
                                           const GArray                 *halves,
                                           const GArray                 *coll_halves,
                                           GError                      **error);
/* A parallel import's exchange: notes a location whose halves will come
 * (all of them first, as _sextant_matcher_note_halves() does), then adds
 * @n halves as they came, as _sextant_matcher_add_deferred() would. */
void     _sextant_matcher_note_location   (SextantMatcher               *self,
                                           gint64                        loc);
gboolean _sextant_matcher_add_halves      (SextantMatcher               *self,
                                           const SextantDeferredHalf    *halves,
                                           gsize                         n,
                                           GError                      **error);
/* Notes which locations have message halves (threads of one process are
 * matched per process); call it for every location of a batch first. */
void     _sextant_matcher_note_halves     (SextantMatcher               *self,
                                           const GArray                 *halves);
/* Notes which locations have collective members on which communicators
 * (a process's threads are numbered per process); call it for every
 * location of a batch first. */
void     _sextant_matcher_note_collectives (SextantMatcher              *self,
                                            const GArray                *coll_halves);
/* Adds the requests threads started and others completed, paired per
 * process; before a parallel import's exchange, else at the finish. */
gboolean _sextant_matcher_add_paired_requests (SextantMatcher           *self,
                                               GError                  **error);
gboolean _sextant_matcher_finish          (SextantMatcher               *self,
                                           GError                      **error);
/* Numbers the members held for threaded processes (at the finish
 * otherwise), so that every member of this rank is in an instance. */
gboolean _sextant_matcher_number_held_collectives (SextantMatcher       *self,
                                                   GError              **error);
/* Its collective part (the parallel import reads and combines the open
 * instances through it) */
SextantCollectiveMatcher *_sextant_matcher_get_collectives (SextantMatcher *self);
typedef struct _SextantRequestPairing SextantRequestPairing;
/* Where the decoders hand over the requests one thread started and another
 * may have completed (sextant-request-pairing.h) */
SextantRequestPairing *_sextant_matcher_get_requests (SextantMatcher *self);

/* sextant-import-share.c */
/* Plans the share of the import's SextantImportShare: every rank computes
 * the same plan from the definitions. */
void     _sextant_import_plan_share      (SextantImport                *import);
void     _sextant_import_share_clear     (SextantImport                *import);
/* TRUE if this import decodes location @loc: always without a share */
static inline gboolean
_sextant_import_decodes (SextantImport *import,
                         guint          loc)
{
  return import->share == NULL ||
         (!import->share->definitions_only && (guint)import->share_owner[loc] == import->share->rank);
}
/* TRUE if the half was set aside for the exchange (its other end is
 * decoded by another rank); the matcher then leaves it. Sets @ok FALSE
 * (and @error) when it could not be written down (its spill file). */
gboolean _sextant_import_share_takes_half       (SextantImport               *import,
                                                 const SextantDeferredHalf   *half,
                                                 gboolean                    *ok,
                                                 GError                     **error);
gboolean _sextant_import_share_takes_collective (SextantImport               *import,
                                                 const SextantCollectiveHalf *half);
/* The collective operations by the address of their names (the kinds of
 * the members), and one's number (255: a name of none) */
GHashTable *_sextant_import_collective_ops (void);
gint64   _sextant_import_collective_op    (GHashTable                   *ops,
                                           const char                   *kind);
/* The most bytes of message halves a rank sends or receives in one block
 * of the exchange, and the most it holds in memory while it sets them
 * aside (SEXTANT_SHARE_BLOCK_BYTES in the environment overrides it) */
#define SEXTANT_SHARE_BLOCK_BYTES (16 * 1024 * 1024)
gsize    _sextant_import_share_block_bytes (void);
/* Sends the halves set aside to the ranks of their other ends, and hands
 * the matcher those of this rank's messages and collectives from all ranks. */
gboolean _sextant_import_share_exchange  (SextantImport                *import,
                                          GError                      **error);

/* sextant-summary-combine.c */
/* After the exchange, on every rank that took part: the summaries of the
 * collective instances on communicators that span ranks combined across
 * ranks (SextantImportShare's allreduce) into their rows and the matcher's
 * open instances; @candidates (SextantRootCandidate, by communicator and
 * number): the other ranks' members that may be an instance's root */
gboolean _sextant_import_share_combine    (SextantImport                *import,
                                           const GArray                 *candidates,
                                           GError                      **error);
/* A SextantShareCombine of gint64: the greatest */
void     _sextant_import_share_combine_max (gpointer                    inout,
                                            gconstpointer               in,
                                            gsize                       count);

/* sextant-import-state.c: an import's state made (for the archive whose
 * anchor is @anchor) and freed, and its log written into the store at the
 * end (by kind, then location) */
void     _sextant_import_init            (SextantImport                *import,
                                          const char                   *anchor);
void     _sextant_import_clear           (SextantImport                *import);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SextantImport, _sextant_import_clear)
gboolean _sextant_import_write_log       (SextantImport                *import,
                                          GError                      **error);

/* sextant-import-def-files.c: the global definitions read into the store
 * (then the locations and communicators resolved), and the local
 * definition files, which must be read before any event */
gboolean _sextant_import_read_definitions       (SextantImport  *import,
                                                 const char     *anchor,
                                                 const char     *defs_path,
                                                 GError        **error);
gboolean _sextant_import_read_local_definitions (SextantImport  *import,
                                                 GError        **error);

/* sextant-import-files.c */
/* What identifies an archive in its current state (a store of it records
 * it in meta) */
typedef struct
{
  char   *anchor_abs;
  gint64  anchor_size;
  gint64  anchor_mtime;
  char   *definitions_sha256;
} SextantArchiveIdentity;
void     _sextant_archive_identity_clear (SextantArchiveIdentity       *id);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SextantArchiveIdentity, _sextant_archive_identity_clear)
/* The anchor's file name without ".otf2" */
char    *_sextant_import_anchor_base_name (const char                  *anchor);
gboolean _sextant_import_read_identity   (const char                   *anchor,
                                          const char                   *defs,
                                          SextantArchiveIdentity       *id,
                                          GError                      **error);
/* Whether @db_path is a complete store of this archive in its current state. */
gboolean _sextant_import_store_is_current (const char                  *db_path,
                                           const SextantArchiveIdentity *id);
gboolean _sextant_import_write_meta      (SextantImport                *import,
                                          const SextantArchiveIdentity *id,
                                          GError                      **error);
/* Removes what killed imports into @db_path left (before every import) */
void     _sextant_import_remove_stale_temporaries (const char          *db_path);

/* sextant-importer.c: @status as a GError naming @file and @what, FALSE,
 * unless it is OTF2_SUCCESS */
gboolean _sextant_import_otf2_check      (OTF2_ErrorCode                status,
                                          const char                   *file,
                                          const char                   *what,
                                          GError                      **error);

G_END_DECLS
