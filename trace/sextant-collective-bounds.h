/*
 * sextant-collective-bounds.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the collective wait states compare a member of a collective
 * instance with, as a reduction over the instance's members: the view
 * collective_visit (schema-1.sql) joins each member with these, kept in
 * its `collective` row. The merge is associative and commutative, so the
 * matcher folds the members in as they come, in any order, and the shards
 * of a parallel import can combine their parts.
 *
 * All values are ticks or location ids, SEXTANT_NULL when no member gave
 * one (as SQL's min () and max () of no value).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64  begin;          /* earliest MPI_COLLECTIVE_BEGIN of the members */
  gint64  end;            /* latest MPI_COLLECTIVE_END */
  gint64  first_loc;      /* the lowest location of a member */
  gint64  last_enter;     /* of the members with a call: the latest enter */
  gint64  last_loc;       /*   the lowest location that entered then */
  gint64  first_leave;    /*   the earliest leave */
  gint64  enter_min;      /*   the two earliest enters (a multiset: equal on a tie), */
  gint64  enter_min2;     /*   the others' earliest enter is the second for the first */
  gint64  leave_max;      /*   the two latest leaves, likewise */
  gint64  leave_max2;
  gint64  root_enter;     /*   the root's enter (the latest of several) */
  gint64  latest_begin;   /* of the members that send or receive data: the latest begin */
  gint64  earliest_end;   /*   and the earliest end */
} SextantCollectiveBounds;

/* One member, as the bounds take it in */
typedef struct
{
  gint64    loc;
  gint64    enter;        /* its MPI call's enter and leave, SEXTANT_NULL: no call */
  gint64    leave;
  gint64    begin;
  gint64    end;
  gboolean  has_data;     /* sends or receives bytes */
  gboolean  is_root;
} SextantBoundsMember;

/* the identity of the merge: no member */
void    sextant_collective_bounds_init        (SextantCollectiveBounds       *bounds);
void    sextant_collective_bounds_add         (SextantCollectiveBounds       *bounds,
                                               const SextantBoundsMember     *member);
/* @into becomes the bounds of both sets of members */
void    sextant_collective_bounds_merge       (SextantCollectiveBounds       *into,
                                               const SextantCollectiveBounds *from);
/* the root's enter, learnt after the root's member was added */
void    sextant_collective_bounds_add_root    (SextantCollectiveBounds       *bounds,
                                               gint64                         enter);

G_END_DECLS
