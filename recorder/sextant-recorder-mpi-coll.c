/*
 * sextant-recorder-mpi-coll.c - collective operations and communicators.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A blocking collective is ENTER, MPI_COLLECTIVE_BEGIN, the call,
 * MPI_COLLECTIVE_END (operation, communicator, root, bytes), LEAVE. A
 * non-blocking one writes NON_BLOCKING_COLLECTIVE_REQUEST in its MPI_I*
 * call and NON_BLOCKING_COLLECTIVE_COMPLETE in the Wait/Test that
 * completes it (sextant-recorder-mpi-p2p.c); the request carries its
 * communicator as an attribute (SEXTANT__ATTR_NBC_COMM), so that the
 * importer numbers a communicator's collectives in the order they
 * started, as MPI matches them. The root is a rank of the
 * communicator, OTF2_UNDEFINED_UINT32 for operations without one.
 *
 * Bytes are those of this rank's buffers: "sent" is what the operation
 * reads from the send buffer, "received" what it writes into the receive
 * buffer (for MPI_IN_PLACE, the part of the receive buffer that plays the
 * send buffer). So MPI_Bcast of n bytes: root sent n, others received n;
 * MPI_Gather: each sent n, the root received p * n; MPI_Alltoall: each
 * sent and received p * n. docs/recorder.md has the table.
 *
 * Communicators: MPI_Comm_dup, _dup_with_info, _split, _split_type,
 * _create, MPI_Cart_create and MPI_Cart_sub are collective over their
 * parent, so every rank of the parent counts them in the same order; the
 * new communicator is identified across ranks by (parent, that count,
 * lowest world rank of its members) - see sextant__comm_def - and needs no
 * communication of its own. They are recorded as collectives on the parent
 * (OTF2_COLLECTIVE_OP_CREATE_HANDLE; MPI_Comm_free: DESTROY_HANDLE). The
 * bookkeeping happens whenever the recorder runs, also for calls that are
 * not recorded (muted or nested), so the counts stay in step. MPI_Graph_create
 * and MPI_Dist_graph_create(_adjacent) are the same. MPI_Comm_create_group
 * (collective over its group only) and communicators made by calls not
 * wrapped (MPI_Intercomm_create, MPI_Intercomm_merge, ...) are known by
 * their members (SEXTANT__COMM_MEMBERS). An inter-communicator is recorded
 * as the communicator of both its groups (comm_shape_of): peers' ranks,
 * which MPI gives in the remote group, become indices in those members.
 * MPI_Comm_free takes the handle out of the table: a later communicator
 * with the same handle value is a new one. MPI_Comm_idup is counted among
 * its parent's children when it starts and defined when its request
 * completes (MPI gives the new handle only then).
 */
#include "sextant-recorder-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
tracking (void)
{
  return atomic_load_explicit (&sextant__rec.state, memory_order_relaxed) == SEXTANT__STATE_ACTIVE;
}

static uint64_t
bytes_of (int          count,
          MPI_Datatype type)
{
  int size = 0;

  if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size (type, &size) != MPI_SUCCESS ||
      size <= 0)
    return 0;
  return (uint64_t) count * (uint64_t) size;
}

static uint64_t
sum_bytes (const int   *counts,
           int          n,
           MPI_Datatype type)
{
  uint64_t total = 0;
  int size = 0;

  if (counts == NULL || type == MPI_DATATYPE_NULL || PMPI_Type_size (type, &size) != MPI_SUCCESS ||
      size <= 0)
    return 0;
  for (int i = 0; i < n; i++)
    if (counts[i] > 0)
      total += (uint64_t) counts[i] * (uint64_t) size;
  return total;
}

/* This process's rank, and how many peers a collective's per-peer arrays
 * hold: the communicator's size, an inter-communicator's remote group's.
 * Returns whether @comm is an inter-communicator. */
static int
shape (MPI_Comm  comm,
       int      *rank,
       int      *size)
{
  int inter = 0;

  *rank = 0;
  *size = 1;
  PMPI_Comm_rank (comm, rank);
  if (PMPI_Comm_test_inter (comm, &inter) == MPI_SUCCESS && inter)
    PMPI_Comm_remote_size (comm, size);
  else
    PMPI_Comm_size (comm, size);
  return inter;
}

/* Whether this process is a rooted collective's root: on an
 * inter-communicator the root passes MPI_ROOT, its partners MPI_PROC_NULL
 * (they take no part), the other group the root's rank. */
static int
at_root (int inter,
         int rank,
         int root)
{
  return inter ? root == MPI_ROOT : rank == root;
}

/* Whether this process is one of the others: it sends to (gather, reduce)
 * or receives from (bcast, scatter) the root */
static int
at_leaf (int inter,
         int rank,
         int root)
{
  return inter ? root >= 0 : rank != root;
}

/* The in- and out-neighbours of a process topology (0 without one). */
static void
neighbor_counts (MPI_Comm  comm,
                 int      *in,
                 int      *out)
{
  int topo = MPI_UNDEFINED, rank = 0, n = 0, weighted = 0;

  *in = *out = 0;
  if (PMPI_Topo_test (comm, &topo) != MPI_SUCCESS)
    return;
  if (topo == MPI_CART && PMPI_Cartdim_get (comm, &n) == MPI_SUCCESS)
    *in = *out = 2 * n;
  else if (topo == MPI_GRAPH && PMPI_Comm_rank (comm, &rank) == MPI_SUCCESS &&
           PMPI_Graph_neighbors_count (comm, rank, &n) == MPI_SUCCESS)
    *in = *out = n;
  else if (topo == MPI_DIST_GRAPH)
    PMPI_Dist_graph_neighbors_count (comm, in, out, &weighted);
}

/* The root's index in @comm's recorded members: on an inter-communicator
 * the root's side passes MPI_ROOT (the root itself) or MPI_PROC_NULL (its
 * other members, who do not know it: undefined), the other side the root's
 * rank in the remote group. */
static uint32_t
root_of (MPI_Comm comm,
         int      root)
{
  sextant__comm *c = sextant__comm_get (comm);
  int rank = 0;

  if (root >= 0)
    return (uint32_t) root + c->remote_base;
  if (root == MPI_ROOT && PMPI_Comm_rank (comm, &rank) == MPI_SUCCESS)
    return (uint32_t) rank + c->local_base;
  return OTF2_UNDEFINED_UINT32;
}

/* ---- communicator records ---- */

static sextant__comm unknown_comm = { .def = SEXTANT__UNDEF };

static int
remember (void *record)
{
  return sextant__grow ((void **) &sextant__rec.records, &sextant__rec.cap_records,
                        sextant__rec.n_records + 1, sizeof *sextant__rec.records) == 0
         ? (sextant__rec.records[sextant__rec.n_records++] = record, 0) : -1;
}

uint32_t *
sextant__group_world_ranks (MPI_Group  group,
                            int       *n)
{
  uint32_t *members;
  int *ranks, *world;
  int size = 0;

  *n = 0;
  if (group == MPI_GROUP_NULL || PMPI_Group_size (group, &size) != MPI_SUCCESS || size < 0)
    return NULL;
  members = malloc ((size_t) (size > 0 ? size : 1) * sizeof *members);
  ranks = malloc ((size_t) (size > 0 ? size : 1) * sizeof *ranks);
  world = malloc ((size_t) (size > 0 ? size : 1) * sizeof *world);
  if (members == NULL || ranks == NULL || world == NULL)
    {
      free (members);
      members = NULL;
      goto out;
    }
  for (int i = 0; i < size; i++)
    ranks[i] = i;
  if (size > 0 &&
      PMPI_Group_translate_ranks (group, size, ranks, sextant__rec.world_group, world) != MPI_SUCCESS)
    {
      free (members);
      members = NULL;
      goto out;
    }
  for (int i = 0; i < size; i++)
    members[i] = world[i] >= 0 ? (uint32_t) world[i] : UINT32_MAX;
  *n = size;
out:
  free (ranks);
  free (world);
  return members;
}

static uint32_t *
comm_world_ranks (MPI_Comm  comm,
                  int      *n)
{
  MPI_Group group = MPI_GROUP_NULL;
  uint32_t *members;

  *n = 0;
  if (PMPI_Comm_group (comm, &group) != MPI_SUCCESS)
    return NULL;
  members = sextant__group_world_ranks (group, n);
  PMPI_Group_free (&group);
  return members;
}

static uint32_t
min_of (const uint32_t *members,
        int             n)
{
  uint32_t m = UINT32_MAX;

  for (int i = 0; i < n; i++)
    if (members[i] < m)
      m = members[i];
  return m;
}

/* How a communicator is recorded: its members in world ranks, and what a
 * rank of it adds to be an index in them (OTF2 3.0's MPI records and
 * sextant's importer know intra-communicators only). */
typedef struct
{
  uint32_t *members;
  int n;
  int inter;
  uint32_t remote_base;             /* sextant__comm.remote_base */
  uint32_t local_base;              /* sextant__comm.local_base */
} comm_shape;

/* An intra-communicator is its group. An inter-communicator is both
 * groups, the one with the lowest world rank first, so that both sides
 * list the same members in the same order: a message to rank r of the
 * remote group goes to member r + remote_base, and a collective is over
 * all of them, as MPI has it. members is NULL when MPI could not tell. */
static comm_shape
comm_shape_of (MPI_Comm comm)
{
  comm_shape shape = { 0 };
  MPI_Group group = MPI_GROUP_NULL;
  uint32_t *remote = NULL, *both = NULL;
  int n_remote = 0;

  if (PMPI_Comm_test_inter (comm, &shape.inter) != MPI_SUCCESS)
    return shape;
  shape.members = comm_world_ranks (comm, &shape.n);
  if (!shape.inter || shape.members == NULL)
    return shape;
  if (PMPI_Comm_remote_group (comm, &group) == MPI_SUCCESS)
    {
      remote = sextant__group_world_ranks (group, &n_remote);
      PMPI_Group_free (&group);
    }
  if (remote != NULL)
    both = malloc ((size_t) (shape.n + n_remote) * sizeof *both);
  if (both != NULL)
    {
      int local_first = min_of (shape.members, shape.n) < min_of (remote, n_remote);

      memcpy (both + (local_first ? 0 : n_remote), shape.members, (size_t) shape.n * sizeof *both);
      memcpy (both + (local_first ? shape.n : 0), remote, (size_t) n_remote * sizeof *both);
      shape.remote_base = local_first ? (uint32_t) shape.n : 0;
      shape.local_base = local_first ? 0 : (uint32_t) n_remote;
      shape.n += n_remote;
    }
  free (shape.members);
  free (remote);
  shape.members = both;
  return shape;
}

/* Defines a communicator and enters its handle; @shape's bases, if given.
 * Lock held. */
static sextant__comm *
comm_define (MPI_Comm                 handle,
             const sextant__comm_def *def,
             const comm_shape        *shape)
{
  sextant__comm *c = calloc (1, sizeof *c);

  if (c == NULL || remember (c) != 0)
    {
      free (c);
      return NULL;
    }
  c->def = sextant__def_comm (&sextant__rec.defs, def);
  if (shape != NULL)
    {
      c->remote_base = shape->remote_base;
      c->local_base = shape->local_base;
    }
  if (handle != MPI_COMM_NULL && handle != MPI_COMM_WORLD && handle != MPI_COMM_SELF &&
      sextant__handles_put (&sextant__rec.comms, (uintptr_t) handle, c) != 0 &&
      !atomic_exchange (&sextant__rec.warned_table_full, 1))
    sextant__warn ("too many communicators and windows to track; later ones are recorded as unknown");
  return c;
}

int
sextant__comms_init (void)
{
  sextant__comm_def def = { 0 };
  uint32_t *members;
  int ok;

  if (PMPI_Comm_group (MPI_COMM_WORLD, &sextant__rec.world_group) != MPI_SUCCESS)
    return -1;
  members = malloc ((size_t) sextant__rec.size * sizeof *members);
  if (members == NULL)
    return -1;
  for (int i = 0; i < sextant__rec.size; i++)
    members[i] = (uint32_t) i;
  def.kind = SEXTANT__COMM_WORLD;
  def.name = sextant__def_string (&sextant__rec.defs, "MPI_COMM_WORLD");
  def.parent = SEXTANT__UNDEF;
  def.n_members = (uint32_t) sextant__rec.size;
  def.members = members;
  sextant__rec.world = comm_define (MPI_COMM_WORLD, &def, NULL);
  free (members);

  def.kind = SEXTANT__COMM_SELF;
  def.name = sextant__def_string (&sextant__rec.defs, "MPI_COMM_SELF");
  def.min_rank = (uint32_t) sextant__rec.rank;
  def.n_members = 0;
  def.members = NULL;
  sextant__rec.self = comm_define (MPI_COMM_SELF, &def, NULL);
  ok = sextant__rec.world != NULL && sextant__rec.self != NULL &&
       sextant__rec.world->def != SEXTANT__UNDEF && sextant__rec.self->def != SEXTANT__UNDEF;
  return ok ? 0 : -1;
}

/* How many MEMBERS communicators with each member list this rank defined
 * (under sextant__rec.lock): the next one's seq. */
static sextant__blobmap members_seen;

void
sextant__comms_clear (void)
{
  sextant__blobmap_free (&members_seen);
}

/* Defines @comm by its members (see sextant__comm_def). Lock held. */
static sextant__comm *
comm_define_members (MPI_Comm          comm,
                     const char       *name,
                     const comm_shape *shape)
{
  sextant__comm_def def = { 0 };
  size_t len = (size_t) shape->n * sizeof *shape->members;
  uint32_t seq = 0;

  if (sextant__blobmap_get (&members_seen, shape->members, len, &seq))
    seq++;
  if (sextant__blobmap_put (&members_seen, shape->members, len, seq) != 0)
    return NULL;
  def.kind = SEXTANT__COMM_MEMBERS;
  def.name = sextant__def_string (&sextant__rec.defs, name);
  def.parent = SEXTANT__UNDEF;
  def.seq = seq;
  def.min_rank = min_of (shape->members, shape->n);
  def.n_members = (uint32_t) shape->n;
  def.members = shape->members;
  return def.name != SEXTANT__UNDEF ? comm_define (comm, &def, shape) : NULL;
}

sextant__comm *
sextant__comm_lookup_slow (MPI_Comm comm)
{
  sextant__comm *c;
  comm_shape shape;
  int same = MPI_UNEQUAL;

  if (comm == MPI_COMM_NULL || !tracking ())
    return &unknown_comm;
  /* the same communicator as a known one under another handle value */
  if (PMPI_Comm_compare (comm, MPI_COMM_WORLD, &same) == MPI_SUCCESS && same == MPI_IDENT)
    return sextant__rec.world;
  if (PMPI_Comm_compare (comm, MPI_COMM_SELF, &same) == MPI_SUCCESS && same == MPI_IDENT)
    return sextant__rec.self;
  shape = comm_shape_of (comm);
  pthread_mutex_lock (&sextant__rec.lock);
  c = sextant__handles_get (&sextant__rec.comms, (uintptr_t) comm);
  if (c == NULL && shape.members != NULL)
    {
      /* made by a call we do not wrap (MPI_Intercomm_create,
       * MPI_Intercomm_merge, ...): a communicator is what its members
       * are; communicators with the same members are told apart by the
       * order this rank first sees them in */
      char name[64];

      if (shape.inter)
        snprintf (name, sizeof name, "inter-communicator of %u and %d ranks",
                  shape.remote_base + shape.local_base, shape.n - (int) (shape.remote_base + shape.local_base));
      else
        snprintf (name, sizeof name, "communicator of %d ranks", shape.n);
      c = comm_define_members (comm, name, &shape);
    }
  else if (c == NULL && !atomic_exchange (&sextant__rec.warned_unknown_comm, 1))
    sextant__warn ("a communicator whose members MPI could not tell is recorded as unknown: "
                   "its messages and collectives are left out");
  pthread_mutex_unlock (&sextant__rec.lock);
  free (shape.members);
  return c != NULL ? c : &unknown_comm;
}

/* Defines @newcomm, the @seq-th communicator made on the parent whose
 * definition is @parent. */
static void
comm_define_child (uint32_t    parent,
                   uint32_t    seq,
                   MPI_Comm    newcomm,
                   const char *how)
{
  sextant__comm_def def = { 0 };
  comm_shape shape;

  if (newcomm == MPI_COMM_NULL)
    return;
  shape = comm_shape_of (newcomm);
  if (shape.members == NULL)
    return;
  pthread_mutex_lock (&sextant__rec.lock);
  {
    const sextant__comm_def *p = parent < sextant__rec.defs.n_comms
                                 ? &sextant__rec.defs.comms[parent] : NULL;
    char name[256];

    snprintf (name, sizeof name, "%s(%s)", how,
              p != NULL && p->name < sextant__rec.defs.n_strings
              ? sextant__rec.defs.strings[p->name] : "?");
    def.kind = SEXTANT__COMM_CHILD;
    def.name = sextant__def_string (&sextant__rec.defs, name);
    def.parent = parent;
    def.seq = seq;
    def.min_rank = min_of (shape.members, shape.n);
    def.n_members = (uint32_t) shape.n;
    def.members = shape.members;
    if (def.name != SEXTANT__UNDEF)
      comm_define (newcomm, &def, &shape);
  }
  pthread_mutex_unlock (&sextant__rec.lock);
  free (shape.members);
}

/* Bookkeeping after a communicator-making call on @parent. */
static void
comm_made (sextant__comm *parent,
           MPI_Comm       newcomm,
           const char    *how)
{
  uint32_t seq;

  if (parent == NULL || parent == &unknown_comm)
    return;
  seq = atomic_fetch_add (&parent->children, 1);
  comm_define_child (parent->def, seq, newcomm, how);
}

void
sextant__request_comm_made (const sextant__request *r)
{
  if (r->kind == SEXTANT__REQ_COLL && r->newcomm != NULL && tracking ())
    comm_define_child (r->comm, r->seq, *r->newcomm, "MPI_Comm_idup");
}

/* ---- records ---- */

static void
coll_begin (sextant__call *call)
{
  SEXTANT__WRITE (call->t, OTF2_EvtWriter_MpiCollectiveBegin (call->t->writer, NULL, call->enter),
                  "MPI_COLLECTIVE_BEGIN");
}

static void
coll_end_def (sextant__call     *call,
              OTF2_CollectiveOp  op,
              uint32_t           comm,
              uint32_t           root,
              uint64_t           sent,
              uint64_t           received)
{
  uint64_t now = sextant__now ();
  sextant__thread *t = call->t;

  SEXTANT__WRITE (t, OTF2_EvtWriter_MpiCollectiveEnd (t->writer, NULL, now, op, comm, root, sent, received),
                  "MPI_COLLECTIVE_END");
  SEXTANT__WRITE (t, OTF2_EvtWriter_Leave (t->writer, NULL, now, call->region), "LEAVE");
  t->busy = 0;
}

static void
coll_end (sextant__call     *call,
          OTF2_CollectiveOp  op,
          MPI_Comm           comm,
          int                root,
          uint64_t           sent,
          uint64_t           received)
{
  coll_end_def (call, op, sextant__comm_get (comm)->def, root_of (comm, root), sent, received);
}

/* A non-blocking collective started: its request @info (made by
 * sextant__request_init on the calling thread) written and kept */
static void
nb_request_put (sextant__call          *call,
                MPI_Request             request,
                const sextant__request *info)
{
  sextant__thread *t = call->t;

  /* its communicator, for numbering by start (OTF2 3.0's record has none) */
  if (info->comm != SEXTANT__UNDEF)
    OTF2_AttributeList_AddCommRef (t->attrs, SEXTANT__ATTR_NBC_COMM, info->comm);
  SEXTANT__WRITE (t, OTF2_EvtWriter_NonBlockingCollectiveRequest (t->writer, t->attrs, call->enter, info->id),
                  "NON_BLOCKING_COLLECTIVE_REQUEST");
  sextant__request_put (request, info);
}

static void
nb_request (sextant__call     *call,
            MPI_Request        request,
            OTF2_CollectiveOp  op,
            MPI_Comm           comm,
            int                root,
            uint64_t           sent,
            uint64_t           received)
{
  sextant__request info = { 0 };

  sextant__request_init (&info, call->t, SEXTANT__REQ_COLL, sextant__comm_get (comm)->def);
  info.op = (uint8_t) op;
  info.root = root_of (comm, root);
  info.sent = sent;
  info.received = received;
  nb_request_put (call, request, &info);
}

/* The bytes of each operation, computed once for both forms. */

static void
bytes_bcast (int count, MPI_Datatype type, int root, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size, inter = shape (comm, &rank, &size);

  *s = at_root (inter, rank, root) ? bytes_of (count, type) : 0;
  *r = at_leaf (inter, rank, root) ? bytes_of (count, type) : 0;
}

static void
bytes_reduce (int count, MPI_Datatype type, int root, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size, inter = shape (comm, &rank, &size);

  *s = !inter || root >= 0 ? bytes_of (count, type) : 0;
  *r = at_root (inter, rank, root) ? bytes_of (count, type) : 0;
}

static void
bytes_gather (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
              MPI_Datatype recvtype, int root, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size, inter = shape (comm, &rank, &size);

  *s = inter && root < 0 ? 0
       : sendbuf == MPI_IN_PLACE ? bytes_of (recvcount, recvtype) : bytes_of (sendcount, sendtype);
  *r = at_root (inter, rank, root) ? (uint64_t) size * bytes_of (recvcount, recvtype) : 0;
}

static void
bytes_gatherv (const void *sendbuf, int sendcount, MPI_Datatype sendtype, const int *recvcounts,
               MPI_Datatype recvtype, int root, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size, inter = shape (comm, &rank, &size);

  *r = at_root (inter, rank, root) ? sum_bytes (recvcounts, size, recvtype) : 0;
  *s = inter && root < 0 ? 0
       : sendbuf != MPI_IN_PLACE ? bytes_of (sendcount, sendtype)
       : recvcounts != NULL ? bytes_of (recvcounts[rank], recvtype) : 0;
}

static void
bytes_scatter (int sendcount, MPI_Datatype sendtype, const void *recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size, inter = shape (comm, &rank, &size);

  *s = at_root (inter, rank, root) ? (uint64_t) size * bytes_of (sendcount, sendtype) : 0;
  *r = inter && root < 0 ? 0
       : recvbuf == MPI_IN_PLACE ? bytes_of (sendcount, sendtype) : bytes_of (recvcount, recvtype);
}

static void
bytes_scatterv (const int *sendcounts, MPI_Datatype sendtype, const void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size, inter = shape (comm, &rank, &size);

  *s = at_root (inter, rank, root) ? sum_bytes (sendcounts, size, sendtype) : 0;
  *r = inter && root < 0 ? 0
       : recvbuf != MPI_IN_PLACE ? bytes_of (recvcount, recvtype)
       : sendcounts != NULL ? bytes_of (sendcounts[rank], sendtype) : 0;
}

static void
bytes_allgather (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size;

  shape (comm, &rank, &size);
  *s = sendbuf == MPI_IN_PLACE ? bytes_of (recvcount, recvtype) : bytes_of (sendcount, sendtype);
  *r = (uint64_t) size * bytes_of (recvcount, recvtype);
}

static void
bytes_allgatherv (const void *sendbuf, int sendcount, MPI_Datatype sendtype, const int *recvcounts,
                  MPI_Datatype recvtype, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size;

  shape (comm, &rank, &size);
  *r = sum_bytes (recvcounts, size, recvtype);
  *s = sendbuf != MPI_IN_PLACE ? bytes_of (sendcount, sendtype)
       : recvcounts != NULL ? bytes_of (recvcounts[rank], recvtype) : 0;
}

static void
bytes_alltoall (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size;

  shape (comm, &rank, &size);
  *r = (uint64_t) size * bytes_of (recvcount, recvtype);
  *s = sendbuf == MPI_IN_PLACE ? *r : (uint64_t) size * bytes_of (sendcount, sendtype);
}

static void
bytes_alltoallv (const void *sendbuf, const int *sendcounts, MPI_Datatype sendtype,
                 const int *recvcounts, MPI_Datatype recvtype, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size;

  shape (comm, &rank, &size);
  *r = sum_bytes (recvcounts, size, recvtype);
  *s = sendbuf == MPI_IN_PLACE ? *r : sum_bytes (sendcounts, size, sendtype);
}

static void
bytes_reduce_scatter (const int *recvcounts, MPI_Datatype type, MPI_Comm comm, uint64_t *s,
                      uint64_t *r)
{
  int rank = 0, size = 1;

  /* recvcounts has an entry per member of this process's group */
  PMPI_Comm_rank (comm, &rank);
  PMPI_Comm_size (comm, &size);
  *s = sum_bytes (recvcounts, size, type);
  *r = recvcounts != NULL ? bytes_of (recvcounts[rank], type) : 0;
}

static void
bytes_reduce_scatter_block (int recvcount, MPI_Datatype type, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int rank, size;

  shape (comm, &rank, &size);
  *s = (uint64_t) size * bytes_of (recvcount, type);
  *r = bytes_of (recvcount, type);
}

/* MPI_Alltoallw (or, @neighbors, MPI_Neighbor_alltoallw): per-peer counts
 * and types, over the communicator or over the neighbours */
static void
bytes_alltoallw (const void *sendbuf, const int *sendcounts, const MPI_Datatype *sendtypes,
                 const int *recvcounts, const MPI_Datatype *recvtypes, MPI_Comm comm, int neighbors,
                 uint64_t *s, uint64_t *r)
{
  int rank, size, in, out;

  shape (comm, &rank, &size);
  in = out = size;
  if (neighbors)
    neighbor_counts (comm, &in, &out);
  *s = *r = 0;
  for (int i = 0; recvcounts != NULL && recvtypes != NULL && i < in; i++)
    *r += bytes_of (recvcounts[i], recvtypes[i]);
  for (int i = 0; sendbuf != MPI_IN_PLACE && sendcounts != NULL && sendtypes != NULL && i < out; i++)
    *s += bytes_of (sendcounts[i], sendtypes[i]);
  if (sendbuf == MPI_IN_PLACE)
    *s = *r;
}

/* MPI_Neighbor_allgather (the same block to every out-neighbour) and
 * MPI_Neighbor_alltoall (a block per out-neighbour): both send out x the
 * block and receive in x the block */
static void
bytes_neighbor (int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                uint64_t *s, uint64_t *r)
{
  int in = 0, out = 0;

  neighbor_counts (comm, &in, &out);
  *s = (uint64_t) out * bytes_of (sendcount, sendtype);
  *r = (uint64_t) in * bytes_of (recvcount, recvtype);
}

/* MPI_Neighbor_allgatherv (@sendcounts: one count sent to all) and
 * MPI_Neighbor_alltoallv (@per_peer: a count per out-neighbour) */
static void
bytes_neighbor_v (const int *sendcounts, int per_peer, MPI_Datatype sendtype, const int *recvcounts,
                  MPI_Datatype recvtype, MPI_Comm comm, uint64_t *s, uint64_t *r)
{
  int in = 0, out = 0;

  neighbor_counts (comm, &in, &out);
  *r = sum_bytes (recvcounts, in, recvtype);
  *s = per_peer ? sum_bytes (sendcounts, out, sendtype)
       : sendcounts != NULL ? (uint64_t) out * bytes_of (sendcounts[0], sendtype) : 0;
}

/* ---- blocking collectives ---- */

/* BLOCKING (ID, op, root, bytes computation, the PMPI call) */
#define BLOCKING(ID, OP, ROOT, BYTES, CALL)                                   \
  sextant__call call;                                                         \
  uint64_t sent = 0, received = 0;                                            \
  int rc;                                                                     \
                                                                              \
  if (!SEXTANT__BEGIN (&call, ID))                                            \
    return CALL;                                                              \
  coll_begin (&call);                                                         \
  rc = CALL;                                                                  \
  BYTES;                                                                      \
  coll_end (&call, OTF2_COLLECTIVE_OP_##OP, comm, (ROOT), sent, received);    \
  return rc

/* ---- non-blocking collectives ---- */

#define NONBLOCKING(ID, OP, ROOT, BYTES, CALL)                                \
  sextant__call call;                                                         \
  uint64_t sent = 0, received = 0;                                            \
  int rc;                                                                     \
                                                                              \
  if (!SEXTANT__BEGIN (&call, ID))                                            \
    return CALL;                                                              \
  rc = CALL;                                                                  \
  if (rc == MPI_SUCCESS)                                                      \
    {                                                                         \
      BYTES;                                                                  \
      nb_request (&call, *request, OTF2_COLLECTIVE_OP_##OP, comm, (ROOT), sent, received); \
    }                                                                         \
  sextant__end (&call);                                                       \
  return rc

/* ---- communicators ---- */

/* MAKE (ID, name, parent handle, pointer to the new handle, the PMPI call) */
#define MAKE(ID, NAME, PARENT, NEWCOMM, CALL)                                 \
  sextant__call call;                                                         \
  sextant__comm *parent_ = NULL;                                              \
  int recorded = SEXTANT__BEGIN (&call, ID);                                  \
  int rc;                                                                     \
                                                                              \
  if (tracking ())                                                            \
    parent_ = sextant__comm_get (PARENT);                                     \
  if (recorded)                                                               \
    coll_begin (&call);                                                       \
  rc = CALL;                                                                  \
  if (parent_ != NULL)                                                        \
    comm_made (parent_, rc == MPI_SUCCESS ? *(NEWCOMM) : MPI_COMM_NULL, NAME); \
  if (recorded)                                                               \
    coll_end_def (&call, OTF2_COLLECTIVE_OP_CREATE_HANDLE,                    \
                  parent_ != NULL ? parent_->def : SEXTANT__UNDEF,            \
                  OTF2_UNDEFINED_UINT32, 0, 0);                               \
  return rc

/* the wrappers of the `coll`, `icoll` and `comm` lines of
 * sextant-recorder-mpi.def */
#include "sextant-recorder-mpi-coll.inc"

SEXTANT__EXPORT int
MPI_Comm_free (MPI_Comm *comm)
{
  sextant__call call;
  MPI_Comm handle = *comm;
  int recorded = SEXTANT__BEGIN (&call, COMM_FREE);
  uint32_t def = SEXTANT__UNDEF;
  int rc;

  if (tracking ())
    def = sextant__comm_get (handle)->def;
  if (recorded)
    coll_begin (&call);
  rc = PMPI_Comm_free (comm);
  /* the record dies with the communicator: MPI may give its handle to
   * the next one, which the recorder must see as new */
  if (rc == MPI_SUCCESS && tracking () && handle != MPI_COMM_WORLD && handle != MPI_COMM_SELF)
    {
      pthread_mutex_lock (&sextant__rec.lock);
      sextant__handles_forget (&sextant__rec.comms, (uintptr_t) handle);
      pthread_mutex_unlock (&sextant__rec.lock);
    }
  if (recorded)
    coll_end_def (&call, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, def, OTF2_UNDEFINED_UINT32, 0, 0);
  return rc;
}

/* A non-blocking MPI_Comm_dup: numbered among its parent's children when
 * it starts (MPI orders it with the parent's other collectives, so every
 * rank counts alike), recorded as a non-blocking collective CREATE_HANDLE
 * on the parent, and defined as MPI_Comm_dup's would be when its request
 * completes (sextant__request_comm_made), since only then does MPI give
 * the new handle. */
SEXTANT__EXPORT int
MPI_Comm_idup (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
  sextant__call call;
  sextant__comm *parent = NULL;
  sextant__request info = { 0 };
  int recorded = SEXTANT__BEGIN (&call, COMM_IDUP);
  uint32_t seq = 0;
  int rc;

  if (tracking ())
    parent = sextant__comm_get (comm);
  if (parent != NULL && parent != &unknown_comm)
    seq = atomic_fetch_add (&parent->children, 1);
  rc = PMPI_Comm_idup (comm, newcomm, request);
  if (recorded && rc == MPI_SUCCESS && parent != NULL && parent != &unknown_comm)
    {
      sextant__request_init (&info, call.t, SEXTANT__REQ_COLL, parent->def);
      info.op = OTF2_COLLECTIVE_OP_CREATE_HANDLE;
      info.root = OTF2_UNDEFINED_UINT32;
      info.seq = seq;
      info.newcomm = newcomm;
      nb_request_put (&call, *request, &info);
    }
  if (recorded)
    sextant__end (&call);
  return rc;
}

/* Collective over @group only, not over the parent: the new communicator
 * is known by its members (the nth with them on this rank), and the call
 * is recorded as a plain region, not a collective on the parent. */
SEXTANT__EXPORT int
MPI_Comm_create_group (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
  sextant__call call;
  int recorded = SEXTANT__BEGIN (&call, COMM_CREATE_GROUP);
  int rc = PMPI_Comm_create_group (comm, group, tag, newcomm);

  if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL && tracking ())
    {
      comm_shape shape = comm_shape_of (*newcomm);

      if (shape.members != NULL)
        {
          pthread_mutex_lock (&sextant__rec.lock);
          comm_define_members (*newcomm, "MPI_Comm_create_group", &shape);
          pthread_mutex_unlock (&sextant__rec.lock);
        }
      free (shape.members);
    }
  if (recorded)
    sextant__end (&call);
  return rc;
}
