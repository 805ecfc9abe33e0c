/*
 * sextant-torus-sim.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model of Angara's collective subnetwork (docs/sim.md): one run of a
 * broadcast, reduce, all-reduce or all-gather on a torus, through the
 * hardware trees and through point-to-point messages over the same trees,
 * as a discrete-event simulation. The result: both completion times, their
 * ratio and, when asked, every node's times and every point-to-point
 * message for the OTF2 trace (sextant-torus-trace.h).
 */
#pragma once

#include "sextant-torus.h"
#include "sextant-torus-net.h"
#include "sextant-torus-tree.h"

G_BEGIN_DECLS

/* the largest message: 4096 packets (the packet index is 16 bits) */
#define SEXTANT_TORUS_MAX_BYTES     (G_GUINT64_CONSTANT (1) << 20)

typedef enum
{
  SEXTANT_TORUS_OP_BCAST,
  SEXTANT_TORUS_OP_REDUCE,
  SEXTANT_TORUS_OP_ALLREDUCE,
  SEXTANT_TORUS_OP_ALLGATHER,
} SextantTorusOp;

/**
 * SextantTorusModel:
 * @SEXTANT_TORUS_MODEL_PACKET: the discrete-event model, one event per
 *   packet and hop (the reference)
 * @SEXTANT_TORUS_MODEL_FLOW: the flow-level model of the all-gather: every
 *   tree's pieces as one flow sharing the resources by max-min fairness
 *   (sextant-torus-flow.c)
 */
typedef enum
{
  SEXTANT_TORUS_MODEL_PACKET,
  SEXTANT_TORUS_MODEL_FLOW,
} SextantTorusModel;

const char *sextant_torus_model_to_string   (SextantTorusModel  model);
gboolean    sextant_torus_model_from_string (const char        *text,
                                             SextantTorusModel *model);

const char *sextant_torus_op_to_string   (SextantTorusOp  op);
gboolean    sextant_torus_op_from_string (const char     *text,
                                          SextantTorusOp *op);

/**
 * SextantTorusParams:
 * @link_latency_ns: a link's latency (80 ns, the paper's table)
 * @router_clock_mhz: the router clock (500 MHz); a link and the injection
 *   and ejection channels carry one flit per cycle
 * @inject_latency_ns: injection of a packet through PCIe (300 ns)
 * @eject_latency_ns: ejection of a packet through PCIe (300 ns)
 * @router_cycles: cycles a router takes to route a packet's head flit
 *   (routing table read, copy list; 1, not in the paper)
 * @combine_cycles: cycles the Reducer adds after a packet's last flit (1)
 * @host_overhead_ns: what a host adds between receiving a point-to-point
 *   message and sending it on (0, not in the paper)
 * @store_and_forward: a router forwards a collective packet only once it
 *   holds all of it (FALSE: the head goes on after @router_cycles)
 * @credits: reduce packets a child may send its parent before a credit
 *   (16: ReduceId 0..15)
 * @credit_batch: results a parent forwards per credit packet, and packets
 *   a credit grants (8)
 */
typedef struct
{
  double   link_latency_ns;
  double   router_clock_mhz;
  double   inject_latency_ns;
  double   eject_latency_ns;
  guint    router_cycles;
  guint    combine_cycles;
  double   host_overhead_ns;
  gboolean store_and_forward;
  guint    credits;
  guint    credit_batch;
} SextantTorusParams;

void     sextant_torus_params_init  (SextantTorusParams        *params);
gboolean sextant_torus_params_check (const SextantTorusParams  *params,
                                     GError                   **error);
void     sextant_torus_net_init_params (SextantTorusNet        *net,
                                     SextantTorus              *torus,
                                     const SextantTorusParams  *params);

/**
 * SextantTorusJob:
 * @op: the collective
 * @bytes: bytes per node (the message of a broadcast or reduce, each node's
 *   piece of an all-gather), 1 to SEXTANT_TORUS_MAX_BYTES
 * @root: the root of tree 0: the broadcast's source, the reduce's target
 * @n_trees: trees, 1 to 16, roots spread evenly over the node ids from
 *   @root; an all-gather sends node i's piece on tree i mod @n_trees, the
 *   other operations run once per tree at the same time; 0: 16 (at most
 *   the nodes) for an all-gather, else 1
 * @transit: (array length=n_transit) (nullable): transit nodes
 * @record: keep what sextant_torus_trace_write () needs (packet model)
 * @model: the packet model (default) or the flow model (all-gather only)
 */
typedef struct
{
  SextantTorusOp op;
  guint64        bytes;
  guint          root;
  guint          n_trees;
  const guint   *transit;
  guint          n_transit;
  gboolean       record;
  SextantTorusModel model;
} SextantTorusJob;

void sextant_torus_job_init (SextantTorusJob *job);

/**
 * SextantTorusMessage:
 * @from: sending node
 * @to: receiving node
 * @tree: the tree it belongs to
 * @bytes: size
 * @send_begin: the sender's host starts injecting
 * @send_end: the sender's host has injected it all
 * @recv_end: the receiver's host has it all
 *
 * A point-to-point message of the point-to-point run (times in ps).
 */
typedef struct
{
  guint   from;
  guint   to;
  guint   tree;
  guint64 bytes;
  gint64  send_begin;
  gint64  send_end;
  gint64  recv_end;
} SextantTorusMessage;

typedef struct _SextantTorusSim SextantTorusSim;

SextantTorusSim *sextant_torus_sim_run             (SextantTorus             *torus,
                                                    const SextantTorusParams *params,
                                                    const SextantTorusJob    *job,
                                                    GError                  **error);
void             sextant_torus_sim_free            (SextantTorusSim          *self);

SextantTorus     *sextant_torus_sim_get_torus      (const SextantTorusSim *self);
const SextantTorusJob *sextant_torus_sim_get_job   (const SextantTorusSim *self);
const SextantTorusTree *sextant_torus_sim_get_tree (const SextantTorusSim *self,
                                                    guint                  tree);
guint            sextant_torus_sim_get_n_trees     (const SextantTorusSim *self);
gint64           sextant_torus_sim_get_hw_ps       (const SextantTorusSim *self);
gint64           sextant_torus_sim_get_p2p_ps      (const SextantTorusSim *self);
double           sextant_torus_sim_get_ratio       (const SextantTorusSim *self);
guint            sextant_torus_sim_get_n_packets   (const SextantTorusSim *self);
guint64          sextant_torus_sim_get_n_events    (const SextantTorusSim *self);
double           sextant_torus_sim_get_cpu_seconds (const SextantTorusSim *self);
gsize            sextant_torus_sim_get_peak_queue  (const SextantTorusSim *self);
guint64          sextant_torus_sim_get_flow_iterations (const SextantTorusSim *self);
guint64          sextant_torus_sim_get_flow_entries (const SextantTorusSim *self);
const char      *sextant_torus_sim_get_p2p_algorithm (const SextantTorusSim *self);
const gint64    *sextant_torus_sim_get_hw_end      (const SextantTorusSim *self);
const gint64    *sextant_torus_sim_get_p2p_end     (const SextantTorusSim *self);
const GArray    *sextant_torus_sim_get_messages    (const SextantTorusSim *self);
gboolean         sextant_torus_sim_is_member       (const SextantTorusSim *self,
                                                    guint                  node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantTorusSim, sextant_torus_sim_free)

G_END_DECLS
