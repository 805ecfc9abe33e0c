/*
 * sextant-lod-reader.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a timeline draws of one location at one zoom: the buckets of the
 * level-of-detail pyramid (docs/schema.md, "Level of detail") that are at
 * most a pixel wide (and more than half a pixel), for the time range in
 * view. A view W pixels wide reads at most 2 W + 2 buckets per location,
 * whatever the zoom and the size of the trace; each bucket gives the time per region category and the
 * dominant region, which is what a pixel column can show.
 *
 * A reader uses its store's connection: one reader per thread, on a store
 * that thread opened (a view reads on a worker thread, GTask).
 *
 * The reader keeps what it decoded: the pyramid's chunks per (location,
 * level), each location's visit chunks, and an index of all messages by
 * pair and send time (built by the first message read). Each cache is
 * bounded (128 MiB; the message index is 32 bytes a message) and none is
 * ever stale: the pyramid, visits and messages do not change after the
 * import. Keep one reader across frames (on the worker thread that owns
 * it, never two threads at once): a redraw or a pan then reads little or
 * nothing from SQLite. The lost time, collectives and one-sided reads are
 * SQL each time (instances change with each analysis).
 */
#pragma once

#include "sextant-store.h"
#include "sextant-store-locks.h"

G_BEGIN_DECLS

typedef struct
{
  gint64  bucket;                        /* its index in its level */
  gint64  begin;                         /* ticks: it covers [begin, end) */
  gint64  end;
  gint64  region;                        /* region.id with the most exclusive time */
  gint64  busy;                          /* ticks covered by any visit */
  gint64  time[SEXTANT_N_CATEGORIES];    /* exclusive ticks per category; they add up to busy */
} SextantLodBucket;

/* The categories @bucket has time in (bit c: category c): one or two of
 * the eight, so that sums over its categories skip the others */
static inline guint
sextant_lod_bucket_categories (const SextantLodBucket *bucket)
{
  guint categories = 0;

  for (guint c = 0; c < SEXTANT_N_CATEGORIES; c++)
    categories |= (guint)(bucket->time[c] != 0) << c;

  return categories;
}

typedef struct _SextantLodReader SextantLodReader;

/* Fails with SEXTANT_TRACE_ERROR_SCHEMA when @store has no pyramid. */
SextantLodReader *sextant_lod_reader_new              (SextantStore      *store,
                                                       GError           **error);
void              sextant_lod_reader_free             (SextantLodReader  *self);
guint             sextant_lod_reader_get_n_levels     (SextantLodReader  *self);
gint64            sextant_lod_reader_get_origin       (SextantLodReader  *self);
/* Ticks a bucket of @level covers. */
gint64            sextant_lod_reader_get_bucket_ticks (SextantLodReader  *self,
                                                       guint              level);
/* The coarsest level whose buckets are at most @ticks_per_pixel wide;
 * level 0 when even its buckets are wider (a view zoomed in that far
 * draws the visits themselves). */
guint             sextant_lod_reader_pick_level       (SextantLodReader  *self,
                                                       double             ticks_per_pixel);
/* Appends to @buckets (of SextantLodBucket) the buckets of @level in which
 * location @loc ran and that overlap [@t0, @t1), in time order. A level
 * below the location's first stored level (a location with few events,
 * docs/schema.md) is computed from its visits, the buckets a read asks for
 * that are not computed yet, and kept in the cache like a stored level. */
gboolean          sextant_lod_reader_read             (SextantLodReader  *self,
                                                       gint64             loc,
                                                       guint              level,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       GArray            *buckets,
                                                       GError           **error);

/* Reads the @level of each of @locs into the reader's cache with one
 * statement (the visible rows of a new view, before their read()s). */
gboolean          sextant_lod_reader_prefetch         (SextantLodReader  *self,
                                                       const gint64      *locs,
                                                       guint              n_locs,
                                                       guint              level,
                                                       GError           **error);
/* The bound of each of the reader's caches (128 MiB; what one read needs
 * is kept, however large): for tests of what is dropped. */
void              sextant_lod_reader_set_cache_bound  (SextantLodReader  *self,
                                                       gsize              bytes);
/* Bytes the reader's caches hold (the pyramid's and the visits' chunks,
 * the indexes of messages, lost time and collectives). */
gsize             sextant_lod_reader_get_cache_bytes  (SextantLodReader  *self);
/* read() through SQLite's rows of the lod virtual table, as it was before
 * the reader decoded chunks itself: for tests and the benchmark. */
gboolean          sextant_lod_reader_read_rows        (SextantLodReader  *self,
                                                       gint64             loc,
                                                       guint              level,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       GArray            *buckets,
                                                       GError           **error);

/* Past the pyramid, when a base bucket is wider than a pixel: appends to
 * @buckets the pieces of [@t0, @t1) in which one visit of @loc was the
 * innermost, in time order, each as a bucket (bucket -1) whose busy time
 * is its whole length, in its region's category. */
gboolean          sextant_lod_reader_read_visits      (SextantLodReader  *self,
                                                       gint64             loc,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       GArray            *buckets,
                                                       GError           **error);

/* read_visits() through SQLite's rows of the visit virtual table (tests
 * and the benchmark). */
gboolean          sextant_lod_reader_read_visits_rows (SextantLodReader  *self,
                                                       gint64             loc,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       GArray            *buckets,
                                                       GError           **error);

typedef struct
{
  gint64  send_loc;
  gint64  recv_loc;
  gint64  send_time;   /* the MPI_SEND/ISEND record */
  gint64  recv_time;   /* the MPI_RECV/IRECV record */
  gint64  id;          /* message.rowid (the details pane reads it) */
  gint64  bytes;
} SextantViewMessage;

/* Appends to @messages (of SextantViewMessage) the matched messages in
 * flight during [@t0, @t1) (sent before @t1, received at or after @t0)
 * with an end among @locs (@n_locs of them; NULL: all, whatever their
 * ends: a view of some rows draws those, whatever the messages between
 * the others), in no particular order; when there are more than @max, none, and
 * @too_many is set (a view that dense draws no lines). The first call (of
 * this or read_message_density()) reads every message into the reader's
 * index of messages by pair and send time (about 32 bytes a message; the
 * 842 688 of the 10 M-event store in 0.3-0.5 s); after it a read costs
 * the messages in the view and a binary search per pair. */
gboolean          sextant_lod_reader_read_messages    (SextantLodReader  *self,
                                                       const gint64      *locs,
                                                       guint              n_locs,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       guint              max,
                                                       GArray            *messages,
                                                       gboolean          *too_many,
                                                       GError           **error);

/* read_messages() through the message virtual table's rows (tests and
 * the benchmark). */
gboolean          sextant_lod_reader_read_messages_rows (SextantLodReader  *self,
                                                         gint64             t0,
                                                         gint64             t1,
                                                         guint              max,
                                                         GArray            *messages,
                                                         gboolean          *too_many,
                                                         GError           **error);

typedef struct
{
  gint64  collective;  /* collective.id */
  gint64  loc;
  gint64  begin;       /* MPI_COLLECTIVE_BEGIN */
  gint64  end;         /* MPI_COLLECTIVE_END */
} SextantViewMember;

/* Appends to @members (of SextantViewMember) the members of the
 * collectives with more than one member under way during [@t0, @t1),
 * grouped by collective; when there are more than @max members, none,
 * and @too_many is set. */
gboolean          sextant_lod_reader_read_collectives (SextantLodReader  *self,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       guint              max,
                                                       GArray            *members,
                                                       gboolean          *too_many,
                                                       GError           **error);

typedef struct
{
  gint64  loc;
  gint64  begin;       /* the time an instance of a pattern lost */
  gint64  end;
  gint64  severity;    /* ticks (for some patterns less than end - begin) */
  gint64  instance;    /* pattern_instance.id */
  guint   pattern;     /* pattern.number (instance >> 32) */
} SextantViewLost;

/* Appends to @lost (of SextantViewLost) the pattern instances of the last
 * analysis whose time overlaps [@t0, @t1), in no particular order; when
 * there are more than @max, none, and @too_many is set. */
gboolean          sextant_lod_reader_read_lost        (SextantLodReader  *self,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       guint              max,
                                                       GArray            *lost,
                                                       gboolean          *too_many,
                                                       GError           **error);

/* Dense views ----------------------------------------------------------- */

typedef struct
{
  gint64  send_loc;
  gint64  recv_loc;
  gint64  begin;       /* the first send of the stretch */
  gint64  end;         /* the last receive */
  gint64  count;       /* messages sent from send_loc to recv_loc in [slot, slot + slot_ticks) */
  gint64  bytes;
  gint64  slot;        /* ticks: t0 + n slot_ticks (a message sent before t0 counts in the first) */
  gint64  slot_ticks;  /* the slots' width as read: the one asked for, or doubled until they fit */
} SextantViewMessageDensity;

/* When read_messages() found too many: the messages in flight during
 * [@t0, @t1) with an end among @locs (NULL: all) counted per pair of
 * locations and slot of @slot_ticks (by send time), at most @max entries
 * (then the coarsest slots that fit: @slot_ticks doubled until they do;
 * still more pairs than @max: the @max busiest), by pair, each pair's
 * slots in time order. Reads the reader's index of messages (see
 * read_messages(): the first call builds it from every message); then the
 * cost is a binary search per pair and per slot (the messages of a slot
 * taken at once where the pair's are received in the order sent, one by
 * one where not): the whole 10 M-event run, 842,688 messages, in about
 * 3 ms. */
gboolean          sextant_lod_reader_read_message_density (SextantLodReader  *self,
                                                           const gint64      *locs,
                                                           guint              n_locs,
                                                           gint64             t0,
                                                           gint64             t1,
                                                           gint64             slot_ticks,
                                                           guint              max,
                                                           GArray            *density,
                                                           GError           **error);

/* One-sided communication ------------------------------------------------ */

typedef enum
{
  SEXTANT_VIEW_RMA_PUT,
  SEXTANT_VIEW_RMA_GET,
  SEXTANT_VIEW_RMA_ATOMIC,      /* accumulate, fetch-and-op, compare-and-swap */
} SextantViewRmaKind;

typedef struct
{
  gint64  id;          /* rma_op.id */
  gint64  origin_loc;
  gint64  target_loc;  /* SEXTANT_NULL: not known (the window's rank has no location) */
  gint64  issue_time;
  gint64  complete_time;  /* SEXTANT_NULL: never completed in the trace */
  gint64  bytes;
  gint64  win;
  SextantViewRmaKind kind;
} SextantViewRma;

/* Appends to @ops (of SextantViewRma) the one-sided operations issued
 * before @t1 and completed at or after @t0 (or never completed), in issue
 * order; when there are more than @max, none and @too_many is set. */
gboolean          sextant_lod_reader_read_rma         (SextantLodReader  *self,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       guint              max,
                                                       GArray            *ops,
                                                       gboolean          *too_many,
                                                       GError           **error);

typedef enum
{
  SEXTANT_VIEW_SYNC_FENCE,      /* MPI_Win_fence: collective epoch boundary */
  SEXTANT_VIEW_SYNC_LOCK,       /* an access epoch opens: lock, lock_all, start */
  SEXTANT_VIEW_SYNC_UNLOCK,     /* it closes: unlock, unlock_all, complete */
  SEXTANT_VIEW_SYNC_FLUSH,      /* flush, flush_all, flush_local, sync */
  SEXTANT_VIEW_SYNC_EXPOSE,     /* an exposure epoch: post .. wait */
  SEXTANT_VIEW_SYNC_OTHER,      /* another RMA synchronisation record */
} SextantViewSyncKind;

typedef struct
{
  gint64  loc;
  gint64  begin;       /* the call's (or record's) time */
  gint64  end;         /* the call's end; begin for a record */
  gint64  win;         /* SEXTANT_NULL: unknown */
  gint64  target_loc;  /* lock/unlock/flush of one target, SEXTANT_NULL: all or none */
  SextantViewSyncKind kind;
} SextantViewSync;

/* Appends to @syncs (of SextantViewSync) the window synchronisations
 * during [@t0, @t1), in time order (by begin); more than @max: none,
 * @too_many. Read from: rma_sync's records by their time (the call around
 * a record, its visit, gives begin, end and, by the MPI_Win_* name, the
 * kind: fence, lock/lock_all/start, unlock/unlock_all/complete,
 * flush*, sync, post/wait/test; without a visit RMA_SYNC is a flush and
 * RMA_COLLECTIVE BARRIER a fence, window creation and release OTHER);
 * window locks (lock, family RMA) as LOCK at their acquire (the acquiring
 * call) and UNLOCK at their release record; and the MPI_Win_flush* calls
 * that completed operations in the view (rma_op.complete_visit: onecoll's
 * flushes have no record of their own; a flush that completed nothing is
 * not seen). A call found twice (a flush with an RMA_SYNC record that also
 * completed operations) is given once. Each part reads by an index on
 * time (trace/schema-1-index.sql). */
gboolean          sextant_lod_reader_read_rma_sync    (SextantLodReader  *self,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       guint              max,
                                                       GArray            *syncs,
                                                       gboolean          *too_many,
                                                       GError           **error);

/* Lock waits -------------------------------------------------------------- */

/* Appends to @waits (of SextantLockWait, sextant-store-locks.h) the waits
 * for a lock that overlap [@t0, @t1) (asked before @t1, acquired at or
 * after @t0) and lasted @min_wait ticks or more, each with the hold it
 * waited for, in acquire order; when there are more than @max, none and
 * @too_many is set. */
gboolean          sextant_lod_reader_read_lock_waits  (SextantLodReader  *self,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       gint64             min_wait,
                                                       guint              max,
                                                       GArray            *waits,
                                                       gboolean          *too_many,
                                                       GError           **error);

/* Whole-machine mode ------------------------------------------------------ */

typedef struct
{
  guint8  share[SEXTANT_N_CATEGORIES];   /* of the cell's time, 0..255 (255: all of it) */
} SextantMachineCell;

/* The level read_machine() reads for @n_locs locations over [@t0, @t1)
 * at @width pixels: the finest whose buckets number at most about
 * 64 * 2 @width over all the locations. */
guint             sextant_lod_reader_pick_machine_level (SextantLodReader *self,
                                                         guint             n_locs,
                                                         gint64            t0,
                                                         gint64            t1,
                                                         guint             width);
/* The whole-machine mode's picture: @n_locs locations (@locs, in row
 * order) squeezed into @n_bands bands (band b holds locations
 * [b * n_locs / n_bands, (b + 1) * n_locs / n_bands)), each band cut into
 * @width pixel columns of [@t0, @t1): @cells (@n_bands * @width, band by
 * band) gets each cell's mean share per category over the band's
 * locations, for the bands [@first_band, @last_band) (the rest of @cells
 * is left as it is: two readers on two threads may fill a half each);
 * @categories (may be NULL) gets the bits of the categories some cell has
 * a share of or-ed in (bit c: category c). Reads at a level coarse enough
 * that the whole picture costs about as much as a view of 64 rows (a cell
 * can then span a few columns), so that 4096 locations draw in bounded
 * time. */
gboolean          sextant_lod_reader_read_machine     (SextantLodReader  *self,
                                                       const gint64      *locs,
                                                       guint              n_locs,
                                                       guint              n_bands,
                                                       guint              first_band,
                                                       guint              last_band,
                                                       gint64             t0,
                                                       gint64             t1,
                                                       guint              width,
                                                       SextantMachineCell *cells,
                                                       guint             *categories,
                                                       GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantLodReader, sextant_lod_reader_free)

G_END_DECLS
