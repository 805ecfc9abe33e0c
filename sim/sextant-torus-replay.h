/*
 * sextant-torus-replay.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Replay of a recorded MPI run on a modelled torus (docs/sim.md, "Replay"):
 * the ranks' MPI calls with the computation between them as recorded, the
 * point-to-point messages routed over the torus's links, the collectives
 * run once through the hardware trees and once as point-to-point trees.
 * The input is plain data (SextantTorusReplayInput) the caller reads from a
 * store; the result is the predicted run of both.
 */
#pragma once

#include "sextant-torus-sim.h"

G_BEGIN_DECLS

/**
 * SextantReplayCall:
 * @rank: the rank that made it
 * @name: the MPI function ("MPI_Send"), owned by the input's strings
 * @enter: recorded enter, ps from the run's begin
 * @leave: recorded leave, ps
 *
 * One MPI call of the recorded run.
 */
typedef struct
{
  guint       rank;
  const char *name;
  gint64      enter;
  gint64      leave;
} SextantReplayCall;

/**
 * SextantReplayMessage:
 * @from: sending rank
 * @to: receiving rank
 * @bytes: its size
 * @send_time: the send record, ps (it belongs to the sender's call around it)
 * @recv_time: the receive's completion record, ps (the receiver's call
 *   around it completes it)
 */
typedef struct
{
  guint   from;
  guint   to;
  guint64 bytes;
  gint64  send_time;
  gint64  recv_time;
} SextantReplayMessage;

/**
 * SextantReplayCollective:
 * @op: the collective on the trees (barrier: an all-reduce of one flit)
 * @modelled: FALSE: a collective the trees do not do (all-to-all, gather,
 *   scatter, ...): it keeps its recorded duration in both replays
 * @root: the root rank (any member when it has none)
 * @bytes: bytes per member (the broadcast's message, each member's
 *   contribution to a reduce, its piece of an all-gather)
 * @comm: the communicator (collectives of one communicator, op, root and
 *   size are modelled once)
 * @first_member: its members are members[first_member ..]
 * @n_members: how many
 * @recorded: ps: its recorded duration, from the last member's begin
 *   record to the last end record
 * @otf2_op: the recorded OTF2_CollectiveOp (for the trace of the replay)
 */
typedef struct
{
  SextantTorusOp op;
  gboolean       modelled;
  guint          otf2_op;
  guint          root;
  guint64        bytes;
  gint64         comm;
  guint          first_member;
  guint          n_members;
  gint64         recorded;
} SextantReplayCollective;

/**
 * SextantReplayMember:
 * @rank: a member rank
 * @time: ps: its begin record (it belongs to the member's call around it)
 */
typedef struct
{
  guint  rank;
  gint64 time;
} SextantReplayMember;

/**
 * SextantTorusReplayInput:
 * @n_ranks: ranks 0 .. n_ranks - 1
 * @end: ps: the recorded run's end (it began at 0)
 * @calls: (element-type SextantReplayCall): every MPI call, any order
 * @messages: (element-type SextantReplayMessage)
 * @collectives: (element-type SextantReplayCollective)
 * @members: (element-type SextantReplayMember)
 */
typedef struct
{
  guint   n_ranks;
  gint64  end;
  GArray *calls;
  GArray *messages;
  GArray *collectives;
  GArray *members;
} SextantTorusReplayInput;

typedef enum
{
  SEXTANT_REPLAY_MAP_LINEAR,
  SEXTANT_REPLAY_MAP_SPREAD,
} SextantReplayMap;

gboolean sextant_replay_map_from_string (const char       *text,
                                         SextantReplayMap *map);

typedef enum
{
  SEXTANT_REPLAY_HARDWARE,
  SEXTANT_REPLAY_POINT_TO_POINT,
  SEXTANT_REPLAY_N_KINDS,
} SextantReplayKind;

/**
 * SextantReplayCallTimes:
 * @begin: predicted enter, ps
 * @end: predicted leave, ps
 */
typedef struct
{
  gint64 begin;
  gint64 end;
} SextantReplayCallTimes;

typedef struct _SextantTorusReplay SextantTorusReplay;

SextantTorusReplay *sextant_torus_replay_run          (SextantTorus                  *torus,
                                                       const SextantTorusParams      *params,
                                                       const SextantTorusReplayInput *input,
                                                       SextantReplayMap               map,
                                                       GError                       **error);
void                sextant_torus_replay_free         (SextantTorusReplay            *self);

guint               sextant_torus_replay_get_node     (const SextantTorusReplay *self,
                                                       guint                     rank);
gint64              sextant_torus_replay_get_recorded_ps (const SextantTorusReplay *self);
gint64              sextant_torus_replay_get_ps       (const SextantTorusReplay *self,
                                                       SextantReplayKind         kind);
gint64              sextant_torus_replay_get_collective_ps (const SextantTorusReplay *self,
                                                       SextantReplayKind         kind);
double              sextant_torus_replay_get_ratio    (const SextantTorusReplay *self);
guint               sextant_torus_replay_get_n_modelled (const SextantTorusReplay *self);
const GArray       *sextant_torus_replay_get_calls    (const SextantTorusReplay *self);
const SextantReplayCallTimes *sextant_torus_replay_get_times (const SextantTorusReplay *self,
                                                       SextantReplayKind         kind);
const gint64       *sextant_torus_replay_get_arrivals (const SextantTorusReplay *self,
                                                       SextantReplayKind         kind);

guint               sextant_torus_replay_get_n_ranks  (const SextantTorusReplay *self);
SextantTorus       *sextant_torus_replay_get_torus    (const SextantTorusReplay *self);
const GArray       *sextant_torus_replay_get_collectives (const SextantTorusReplay *self);
const GArray       *sextant_torus_replay_get_members  (const SextantTorusReplay *self);

typedef enum
{
  SEXTANT_REPLAY_RECORD_ENTER,
  SEXTANT_REPLAY_RECORD_LEAVE,
  SEXTANT_REPLAY_RECORD_SEND,
  SEXTANT_REPLAY_RECORD_RECV,
  SEXTANT_REPLAY_RECORD_COLLECTIVE_BEGIN,
  SEXTANT_REPLAY_RECORD_COLLECTIVE_END,
} SextantReplayRecordKind;

/**
 * SextantReplayRecord:
 * @kind: what happens
 * @time: when, ps, in the predicted run
 * @call: the MPI call it belongs to
 * @index: the message (send, receive) or collective
 * @peer: the other rank of a message
 * @bytes: a message's size
 */
typedef struct
{
  SextantReplayRecordKind  kind;
  gint64                   time;
  const SextantReplayCall *call;
  guint                    index;
  guint                    peer;
  guint64                  bytes;
} SextantReplayRecord;

typedef void (*SextantReplayRecordFunc) (const SextantReplayRecord *record,
                                         gpointer                   user_data);

void                sextant_torus_replay_foreach_record (const SextantTorusReplay *self,
                                                       SextantReplayKind         kind,
                                                       guint                     rank,
                                                       SextantReplayRecordFunc   func,
                                                       gpointer                  user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantTorusReplay, sextant_torus_replay_free)

G_END_DECLS
