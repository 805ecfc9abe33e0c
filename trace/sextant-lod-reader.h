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
 */
#pragma once

#include "sextant-store.h"

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
 * location @loc ran and that overlap [@t0, @t1), in time order. */
gboolean          sextant_lod_reader_read             (SextantLodReader  *self,
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

typedef struct
{
  gint64  send_loc;
  gint64  recv_loc;
  gint64  send_time;   /* the MPI_SEND/ISEND record */
  gint64  recv_time;   /* the MPI_RECV/IRECV record */
} SextantViewMessage;

/* Appends to @messages (of SextantViewMessage) the matched messages in
 * flight during [@t0, @t1) (sent before @t1, received at or after @t0), in
 * no particular order; when there are more than @max, none, and
 * @too_many is set (a view that dense draws no lines). */
gboolean          sextant_lod_reader_read_messages    (SextantLodReader  *self,
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantLodReader, sextant_lod_reader_free)

G_END_DECLS
