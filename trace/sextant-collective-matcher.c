/*
 * sextant-collective-matcher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Matches the members of collective operations into instances, in memory,
 * while the events are read (the matcher's collective part: sextant-matcher.c
 * hands it the members, in the order the locations are read).
 *
 * The n-th collective of each member on a communicator belongs to instance
 * n (self communicators: one instance per location and call). Its id comes
 * from its key, not from when it was matched, so that a parallel import's
 * shards and the single-process store give it the same one (instance_id()).
 * A member's row is written when it arrives; the instance keeps only how
 * many came and the bounds the collective wait states compare its members
 * with (sextant-collective-bounds.h), and its `collective` row is written
 * when all members of the communicator have arrived, or at the end (logged
 * as incomplete). So an open instance costs a hundred bytes however many
 * members it has: the importer reads the locations in batches, and an
 * instance over all locations of a 4096-rank trace is open until the last
 * batch has read it. Like the messages' channels, each (communicator,
 * owner) keeps a ring of its instances from the oldest open one on: one
 * lookup per member, no hash table.
 *
 * A parallel import (sextant-import-share.c, sextant-summary-combine.c)
 * combines the summaries of the instances of communicators between ranks.
 * Such an instance leaves memory as soon as it has all of this rank's
 * members: their summary goes to a spill of a stream per communicator
 * (sextant-share-spill.h, bounded memory), in the order of its numbers,
 * and the combine reads it back in that order and writes the row with the
 * combined summary. So a rank's memory does not grow with the number of
 * instances. Those the combine could not find by their key (an id from the
 * counter), that wait for a root from another rank, or that came out of
 * order stay open and are given the combined summary before the end
 * writes them.
 */
#include "config.h"

#include <string.h>

#include "sextant-chunk-writer.h"
#include "sextant-collective-bounds.h"
#include "sextant-import-private.h"

typedef struct
{
  gint64  comm;
  gint64  owner;
  gint64  seq;
} InstanceKey;

typedef struct
{
  InstanceKey  key;
  guint        late;            /* 0, or n for the n-th instance made again for its key */
  gint64       id;              /* from instance_id() at its first member */
  const char  *kind;
  gint64       root;
  gint64       root_loc;        /* from root, once a member gave it */
  gboolean     nonblocking;
  gint64       expected;
  guint        n_members;       /* arrived (a location twice counts twice) */
  SextantCollectiveBounds bounds;
  GArray      *rootless;        /* (nullable) SextantBoundsMember: of a rooted operation, the
                                 * members that came before one named the root */
} PendingInstance;

/* The instances of one (communicator, owner), by number from its oldest
 * open one */
typedef struct
{
  gint64            comm;
  gint64            owner;
  gint64            base;       /* the number of ring slot 0 */
  guint             head;
  guint             len;
  guint             cap;        /* a power of two */
  PendingInstance **ring;       /* NULL: written, or not begun; DROPPED: spilled with this rank's members */
  gint64            expected;
  gint64            local;      /* of a communicator between ranks, this rank's members, else 0 */
  gint              stream;     /* in the spill, -1: none yet */
  gint64            last_spilled; /* the number of its last instance spilled */
  guint64           n_read;     /* of its stream, by the combine */
} CollChannel;

/* The memory of the spill of the instances that left (the rest goes to its
 * file); less if the halves' blocks are smaller (SEXTANT_SHARE_BLOCK_BYTES:
 * the tests spill them both) */
#define SPILL_BYTES (MIN ((gsize)4 << 20, _sextant_import_share_block_bytes ()))
/* spilled instances read back at a time */
#define PEEK 256

/* The ring slot of an instance that left memory with this rank's members,
 * whose row the combine writes (a parallel import) */
static PendingInstance dropped_instance;
#define DROPPED (&dropped_instance)


struct _SextantCollectiveMatcher
{
  SextantImport       *import;
  CollChannel        **colls;         /* open addressing by (comm, owner), NULL: empty */
  guint                colls_size;     /* a power of two */
  guint                n_colls;
  CollChannel         *last_coll;
  GPtrArray           *spare_instances; /* written, for reuse */
  GHashTable          *late;          /* InstanceKey* -> PendingInstance*: a number met again after
                                       * its instance was written (more members than the group has) */
  GHashTable          *late_counts;   /* (nullable) InstanceKey* -> the late instances made for it */
  SextantChunkWriter  *member_rows;
  gint64               next_collective; /* of the ids that no key gives (instance_id()) */
  SextantShareSpill   *spilled;       /* (nullable) SextantSpilledInstance by channel->stream */
  guint                n_streams;
  gint                 peek_stream;   /* the combine's stream, -1: none */
  SextantSpilledInstance *peek;       /* (nullable) its next records, read PEEK at a time: */
  guint                peek_at;       /*   the next one */
  guint                peek_n;
  guint32             *self_written;  /* (nullable) by location: its self-communicator instances written */
};

static void
instance_free (gpointer data)
{
  PendingInstance *instance = data;

  g_clear_pointer (&instance->rootless, g_array_unref);
  g_free (instance);
}

static guint
instance_hash (gconstpointer key)
{
  const InstanceKey *k = key;

  return (guint)((guint64)k->comm * 1000003u ^ (guint64)k->owner * 7919u ^ (guint64)k->seq * 2654435761u);
}

static gboolean
instance_equal (gconstpointer a,
                gconstpointer b)
{
  const InstanceKey *x = a;
  const InstanceKey *y = b;

  return x->comm == y->comm && x->owner == y->owner && x->seq == y->seq;
}

static void
coll_channel_free (CollChannel *channel)
{
  for (guint i = 0; i < channel->len; i++)
    {
      PendingInstance **slot = &channel->ring[(channel->head + i) & (channel->cap - 1)];

      if (*slot != DROPPED)
        g_clear_pointer (slot, instance_free);
    }
  g_free (channel->ring);
  g_free (channel);
}

static inline guint
coll_hash (gint64 comm,
           gint64 owner)
{
  guint64 h = (guint64)comm * 0x9E3779B97F4A7C15ULL ^ (guint64)owner * 0xC2B2AE3D27D4EB4FULL;

  return (guint)(h ^ (h >> 32));
}

static void
colls_grow (SextantCollectiveMatcher *self)
{
  CollChannel **old = self->colls;
  guint old_size = self->colls_size;

  self->colls_size = MAX (16, 2 * old_size);
  self->colls = g_new0 (CollChannel *, self->colls_size);
  for (guint i = 0; i < old_size; i++)
    {
      guint j;

      if (old[i] == NULL)
        continue;
      for (j = coll_hash (old[i]->comm, old[i]->owner) & (self->colls_size - 1);
           self->colls[j] != NULL;
           j = (j + 1) & (self->colls_size - 1))
        ;
      self->colls[j] = old[i];
    }
  g_free (old);
}

/* Of a parallel import, the members of @def that this rank holds if others
 * hold some too, else 0 */
static gint64
local_members (SextantImport        *import,
               const SextantCommDef *def)
{
  gint64 mine = 0;
  gboolean others = FALSE;

  if (import->share == NULL || import->share_owner == NULL || def->is_self || def->rank_loc == NULL)
    return 0;
  for (guint r = 0; r < def->rank_loc->len; r++)
    {
      gint32 loc = g_array_index (def->rank_loc, gint32, r);

      if (loc < 0 || (guint)loc >= import->locations->len)
        continue;
      if ((guint)import->share_owner[loc] == import->share->rank)
        mine++;
      else
        others = TRUE;
    }

  return others ? mine : 0;
}

/* The instances of (@comm, @owner), made if new: how many members they
 * expect. */
static CollChannel *
coll_channel_get (SextantCollectiveMatcher *self,
                  gint64                    comm,
                  gint64                    owner)
{
  SextantImport *import = self->import;
  const SextantCommDef *def;
  CollChannel *channel;
  guint mask;
  guint i;

  if (self->last_coll != NULL && self->last_coll->comm == comm && self->last_coll->owner == owner)
    return self->last_coll;

  if (2 * (self->n_colls + 1) > self->colls_size)
    colls_grow (self);
  mask = self->colls_size - 1;
  for (i = coll_hash (comm, owner) & mask; self->colls[i] != NULL; i = (i + 1) & mask)
    if (self->colls[i]->comm == comm && self->colls[i]->owner == owner)
      return self->last_coll = self->colls[i];

  channel = self->colls[i] = g_new0 (CollChannel, 1);
  self->n_colls++;
  channel->comm = comm;
  channel->owner = owner;
  def = comm != SEXTANT_NULL ? g_hash_table_lookup (import->comms, GINT_TO_POINTER ((gint)comm)) : NULL;
  channel->expected = owner < 0 && def != NULL && def->rank_loc != NULL ? def->rank_loc->len : 1;
  if (owner < 0 && def != NULL)
    channel->local = local_members (import, def);
  channel->stream = -1;

  return self->last_coll = channel;
}

/* The slot of instance @seq of @channel, made exist (empty) by growing the
 * ring; %NULL for an instance already written. */
static PendingInstance **
coll_channel_slot (CollChannel *channel,
                   gint64       seq)
{
  gint64 index = seq - channel->base;

  if (index < 0 || index > G_MAXINT32)
    return NULL;
  if ((guint)index >= channel->cap)
    {
      guint cap = MAX (channel->cap, 8);
      PendingInstance **ring;

      while (cap <= (guint)index)
        cap *= 2;
      ring = g_new0 (PendingInstance *, cap);
      for (guint k = 0; k < channel->len; k++)
        ring[k] = channel->ring[(channel->head + k) & (channel->cap - 1)];
      g_free (channel->ring);
      channel->ring = ring;
      channel->cap = cap;
      channel->head = 0;
    }
  for (; channel->len <= (guint)index; channel->len++)
    channel->ring[(channel->head + channel->len) & (channel->cap - 1)] = NULL;

  return &channel->ring[(channel->head + (guint)index) & (channel->cap - 1)];
}
SextantCollectiveMatcher *
_sextant_collective_matcher_new (SextantImport *import,
                                 guint          chunk_rows)
{
  SextantCollectiveMatcher *self = g_new0 (SextantCollectiveMatcher, 1);

  self->import = import;
  self->peek_stream = -1;
  self->spare_instances = g_ptr_array_new_with_free_func (instance_free);
  self->late = g_hash_table_new_full (instance_hash, instance_equal, NULL, instance_free);
  self->member_rows = sextant_chunk_writer_new_queued (import->chunks, import->blocks,
                                                       SEXTANT_CHUNK_COLLECTIVE_MEMBER,
                                                       SEXTANT_MEMBER_N_COLUMNS, 1, chunk_rows);

  return self;
}

void
_sextant_collective_matcher_free (SextantCollectiveMatcher *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->colls_size; i++)
    g_clear_pointer (&self->colls[i], coll_channel_free);
  g_free (self->colls);
  g_ptr_array_unref (self->spare_instances);
  g_hash_table_unref (self->late);
  g_clear_pointer (&self->late_counts, g_hash_table_unref);
  g_clear_pointer (&self->spilled, sextant_share_spill_free);
  g_free (self->peek);
  g_free (self->self_written);
  sextant_chunk_writer_free (self->member_rows);
  g_free (self);
}

/* Instances ------------------------------------------------------------- */

/* An instance's id, from what every import of the trace knows of it alike,
 * whichever rank imports it and whenever it is matched (docs/schema.md,
 * "collective"): on a communicator of several members, (comm + 1) << 32 |
 * (seq + 1), and n << 52 more for the n-th instance made again for a number
 * already written (a member too many: a damaged trace; n by the order they
 * were met); on a self communicator, 1 << 62 | owner << 32 | n + 1 for the
 * owner's n-th instance on any self communicator (they are written as the
 * owner's records have them: each has one member). Where these do not fit
 * (comm >= 2^20 - 1, seq or n >= 2^32 - 2, owner >= 2^29, k >= 512) the id
 * is 1 << 61 | a counter of the import, in the order the instances are
 * written. */
static gint64
instance_id (SextantCollectiveMatcher *self,
             const PendingInstance    *instance)
{
  const InstanceKey *key = &instance->key;
  gint64 comm = key->comm == SEXTANT_NULL ? 0 : key->comm + 1;
  guint n_locs = self->import->locations->len;

  if (key->owner >= 0 && (guint64)key->owner < n_locs && key->owner < (1 << 29) && instance->late == 0)
    {
      if (self->self_written == NULL)
        self->self_written = g_new0 (guint32, n_locs);
      if (self->self_written[key->owner] < G_MAXUINT32 - 1)
        return G_GINT64_CONSTANT (1) << 62 | key->owner << 32 | ++self->self_written[key->owner];
    }
  if (key->owner < 0 && comm >= 0 && comm < (1 << 20) - 1 && key->seq >= 0 && key->seq < G_MAXUINT32 - 1 &&
      instance->late < 512)
    return (gint64)instance->late << 52 | comm << 32 | (key->seq + 1);

  return (G_GINT64_CONSTANT (1) << 61) + self->next_collective++;
}

gint64
_sextant_collective_matcher_instance_id (gint64 comm,
                                         gint64 seq)
{
  gint64 c = comm == SEXTANT_NULL ? 0 : comm + 1;

  if (c < 0 || c >= (1 << 20) - 1 || seq < 0 || seq >= G_MAXUINT32 - 1)
    return SEXTANT_NULL;

  return c << 32 | (seq + 1);
}

/* The location of @instance's root, from its root's rank */
static gint64
root_location (SextantCollectiveMatcher *self,
               const PendingInstance    *instance)
{
  gint32 loc;

  if (instance->root == SEXTANT_NULL)
    return SEXTANT_NULL;
  loc = _sextant_import_comm_rank_loc (self->import, (OTF2_CommRef)instance->key.comm, (guint32)instance->root,
                                       NULL);

  return loc >= 0 ? loc : instance->key.owner >= 0 ? instance->key.owner : SEXTANT_NULL;
}

/* Whether the members of @kind name a root: a member that does not (on
 * an inter-communicator, the root itself and the others of its group)
 * waits until one does, to know whether it is the root. */
static gboolean
kind_has_root (const char *kind)
{
  static const char * const rooted[] = { "BCAST", "GATHER", "GATHERV", "SCATTER", "SCATTERV", "REDUCE" };

  for (guint i = 0; kind != NULL && i < G_N_ELEMENTS (rooted); i++)
    if (strcmp (kind, rooted[i]) == 0)
      return TRUE;

  return FALSE;
}

/* The instance's `collective` row, with its bounds */
static gboolean
write_instance (SextantCollectiveMatcher  *self,
                PendingInstance           *instance,
                GError                   **error)
{
  SextantImport *import = self->import;
  const SextantCollectiveBounds *b = &instance->bounds;

  if ((gint64)instance->n_members != instance->expected)
    _sextant_import_log (import, "incomplete_collective", SEXTANT_NULL, b->begin,
                         "a %s on communicator %" G_GINT64_FORMAT " has %u of %" G_GINT64_FORMAT " members",
                         instance->kind, instance->key.comm, instance->n_members, instance->expected);

  return sextant_store_run (import->store, SEXTANT_STMT_COLLECTIVE, error, "intnniiiiiinnnnnnnnnn",
                            instance->id, instance->key.comm, instance->kind, instance->root, instance->root_loc,
                            (gint64)instance->nonblocking, (gint64)instance->n_members,
                            instance->expected, b->begin, b->end, b->first_loc, b->last_enter, b->last_loc,
                            b->first_leave, b->enter_min, b->enter_min2, b->leave_max, b->leave_max2, b->root_enter,
                            b->latest_begin, b->earliest_end);
}

/* Whether @instance, of a communicator between ranks, leaves memory once
 * it has this rank's members: its id is the one its key gives (the combine
 * writes its row with it), it comes after the last one its channel spilled
 * (the combine reads a stream in the order of the numbers), and it waits
 * for no root from another rank (of an inter-communicator's rooted
 * operation, this rank's members may be its root) */
static gboolean
droppable (SextantCollectiveMatcher *self,
           const CollChannel        *channel,
           const PendingInstance    *instance)
{
  return channel->local > 0 && !self->import->share_exchanged &&
         (channel->stream < 0 || instance->key.seq > channel->last_spilled) &&
         instance->id == _sextant_collective_matcher_instance_id (instance->key.comm, instance->key.seq) &&
         (instance->root != SEXTANT_NULL || instance->rootless == NULL || instance->rootless->len == 0);
}

/* @instance's summary to its channel's stream in the spill */
static gboolean
spill_instance (SextantCollectiveMatcher  *self,
                CollChannel               *channel,
                const PendingInstance     *instance,
                GError                   **error)
{
  SextantImport *import = self->import;
  SextantSpilledInstance spilled = {
    instance->key.seq, instance->n_members, instance->root, instance->root_loc,
    instance->nonblocking, instance->expected, instance->kind, instance->bounds,
  };

  if (self->spilled == NULL)
    {
      g_autofree char *path = import->share->spill_path != NULL
                              ? g_strconcat (import->share->spill_path, ".collectives", NULL) : NULL;

      self->spilled = sextant_share_spill_new (g_hash_table_size (import->comms), sizeof (SextantSpilledInstance),
                                               SPILL_BYTES, path);
    }
  if (channel->stream < 0)
    channel->stream = (gint)self->n_streams++;
  channel->last_spilled = instance->key.seq;

  return sextant_share_spill_add (self->spilled, (guint)channel->stream, &spilled, error);
}

/* An instance for the slot of @key, from the spares if there are. */
static PendingInstance *
instance_new (SextantCollectiveMatcher    *self,
              CollChannel                 *channel,
              const SextantCollectiveHalf *half)
{
  PendingInstance *instance;

  if (self->spare_instances->len > 0)
    instance = g_ptr_array_steal_index_fast (self->spare_instances, self->spare_instances->len - 1);
  else
    instance = g_new0 (PendingInstance, 1);
  instance->key = (InstanceKey) { half->comm, half->owner, half->seq };
  instance->late = 0;
  instance->id = SEXTANT_NULL;
  instance->kind = half->kind;
  instance->root = SEXTANT_NULL;
  instance->root_loc = SEXTANT_NULL;
  instance->nonblocking = half->nonblocking;
  instance->expected = channel->expected;
  instance->n_members = 0;
  sextant_collective_bounds_init (&instance->bounds);
  if (instance->rootless != NULL)
    g_array_set_size (instance->rootless, 0);

  return instance;
}

/* @instance's root is @root: the members that came before it was named
 * learn whether they were it */
static void
name_root (SextantCollectiveMatcher *self,
           PendingInstance          *instance,
           gint64                    root)
{
  instance->root = root;
  instance->root_loc = root_location (self, instance);
  for (guint i = 0; instance->rootless != NULL && i < instance->rootless->len; i++)
    {
      const SextantBoundsMember *m = &g_array_index (instance->rootless, SextantBoundsMember, i);

      if (m->loc == instance->root_loc)
        sextant_collective_bounds_add_root (&instance->bounds, m->enter);
    }
  if (instance->rootless != NULL)
    g_array_set_size (instance->rootless, 0);
}

/* Folds @half into @instance's bounds and writes its row */
static gboolean
add_member (SextantCollectiveMatcher     *self,
            PendingInstance              *instance,
            const SextantCollectiveHalf  *half,
            GError                      **error)
{
  SextantBoundsMember member = {
    half->loc, half->enter, half->leave, half->begin, half->end, half->sent > 0 || half->received > 0, FALSE,
  };
  gint64 row[SEXTANT_MEMBER_N_COLUMNS] = {
    [SEXTANT_MEMBER_COLLECTIVE] = instance->id,
    [SEXTANT_MEMBER_LOC] = half->loc,
    [SEXTANT_MEMBER_VISIT] = half->visit,
    [SEXTANT_MEMBER_END_VISIT] = half->end_visit,
    [SEXTANT_MEMBER_BEGIN] = half->begin,
    [SEXTANT_MEMBER_END] = half->end,
    [SEXTANT_MEMBER_BYTES_SENT] = half->sent,
    [SEXTANT_MEMBER_BYTES_RECEIVED] = half->received,
  };

  /* a member without a root (on an inter-communicator, the root's group
   * but the root: MPI_PROC_NULL) agrees with the others'; those that came
   * before the root was named learn now whether they were it */
  if (instance->root == SEXTANT_NULL && half->root != SEXTANT_NULL)
    name_root (self, instance, half->root);
  member.is_root = instance->root_loc != SEXTANT_NULL && half->loc == instance->root_loc;
  if (instance->root == SEXTANT_NULL && half->enter != SEXTANT_NULL && kind_has_root (instance->kind))
    {
      if (instance->rootless == NULL)
        instance->rootless = g_array_new (FALSE, FALSE, sizeof (SextantBoundsMember));
      g_array_append_val (instance->rootless, member);
    }
  sextant_collective_bounds_add (&instance->bounds, &member);
  instance->n_members++;

  return sextant_chunk_writer_append (self->member_rows, row, error) >= 0;
}

gboolean
_sextant_collective_matcher_add (SextantCollectiveMatcher     *self,
                                 const SextantCollectiveHalf  *half,
                                 GError                      **error)
{
  CollChannel *channel = coll_channel_get (self, half->comm, half->owner);
  PendingInstance **slot = coll_channel_slot (channel, half->seq);
  InstanceKey key = { half->comm, half->owner, half->seq };
  PendingInstance *instance;
  gboolean partial;
  gboolean ok;

  if (slot != NULL && *slot == DROPPED)
    slot = NULL;   /* spilled: a member too many */

  /* the instance of this number was written: this member makes a new one,
   * as many as the group has more members than it says */
  if (slot == NULL && (instance = g_hash_table_lookup (self->late, &key)) == NULL)
    {
      gpointer n;

      instance = instance_new (self, channel, half);
      g_hash_table_insert (self->late, &instance->key, instance);
      if (self->late_counts == NULL)
        self->late_counts = g_hash_table_new_full (instance_hash, instance_equal, g_free, NULL);
      n = g_hash_table_lookup (self->late_counts, &key);
      instance->late = GPOINTER_TO_UINT (n) + 1;
      g_hash_table_insert (self->late_counts, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (instance->late));
    }
  else if (slot != NULL && (instance = *slot) == NULL)
    instance = *slot = instance_new (self, channel, half);
  else if (g_strcmp0 (half->kind, instance->kind) != 0 ||
           (half->root != instance->root && half->root != SEXTANT_NULL && instance->root != SEXTANT_NULL))
    _sextant_import_log (self->import, "collective_mismatch", half->loc, half->begin,
                         "members of one collective instance disagree on its operation or root "
                         "(%s vs %s)", half->kind, instance->kind);
  if (instance->id == SEXTANT_NULL)
    instance->id = instance_id (self, instance);

  if (!add_member (self, instance, half, error))
    return FALSE;
  partial = slot != NULL && droppable (self, channel, instance);
  if ((gint64)instance->n_members < (partial ? channel->local : instance->expected))
    return TRUE;

  ok = partial ? spill_instance (self, channel, instance, error) : write_instance (self, instance, error);
  if (slot == NULL)
    {
      g_hash_table_steal (self->late, &key);
      g_ptr_array_add (self->spare_instances, instance);
      return ok;
    }
  *slot = partial ? DROPPED : NULL;
  g_ptr_array_add (self->spare_instances, instance);

  /* the front moves past the written instances; between ranks, only past
   * those written here with this rank's members (an empty slot there is
   * an instance whose members all come in the exchange: SCAN, EXSCAN) */
  while (channel->len > 0 &&
         channel->ring[channel->head] == (channel->local > 0 && !self->import->share_exchanged ? DROPPED : NULL))
    {
      channel->head = (channel->head + 1) & (channel->cap - 1);
      channel->len--;
      channel->base++;
    }

  return ok;
}


static int
compare_instances (gconstpointer a,
                   gconstpointer b)
{
  const PendingInstance *x = *(PendingInstance * const *)a;
  const PendingInstance *y = *(PendingInstance * const *)b;

  if (x->key.comm != y->key.comm)
    return x->key.comm < y->key.comm ? -1 : 1;
  if (x->key.owner != y->key.owner)
    return x->key.owner < y->key.owner ? -1 : 1;
  return x->key.seq < y->key.seq ? -1 : x->key.seq > y->key.seq;
}

/* The channel of (@comm, no owner), or NULL */
static CollChannel *
open_channel (SextantCollectiveMatcher *self,
              gint64                    comm)
{
  guint i;

  if (self->colls_size == 0)
    return NULL;
  for (i = coll_hash (comm, -1) & (self->colls_size - 1); self->colls[i] != NULL;
       i = (i + 1) & (self->colls_size - 1))
    if (self->colls[i]->comm == comm && self->colls[i]->owner == -1)
      return self->colls[i];

  return NULL;
}

/* The open instance @seq of (@comm, no owner), or NULL */
static PendingInstance *
open_instance (SextantCollectiveMatcher *self,
               gint64                    comm,
               gint64                    seq)
{
  CollChannel *channel = open_channel (self, comm);
  PendingInstance *instance;
  gint64 index;

  if (channel == NULL)
    return NULL;
  index = seq - channel->base;
  if (index < 0 || index >= channel->len)
    return NULL;
  instance = channel->ring[(channel->head + (guint)index) & (channel->cap - 1)];

  return instance != DROPPED ? instance : NULL;
}

void
_sextant_collective_matcher_root_candidates (SextantCollectiveMatcher  *self,
                                             gboolean                (*spans) (SextantImport *import,
                                                                               gint64         comm),
                                             GArray                    *candidates)
{
  for (guint c = 0; c < self->colls_size; c++)
    {
      CollChannel *channel = self->colls[c];

      if (channel == NULL || channel->owner >= 0 || !spans (self->import, channel->comm))
        continue;
      for (guint i = 0; i < channel->len; i++)
        {
          const PendingInstance *instance = channel->ring[(channel->head + i) & (channel->cap - 1)];

          for (guint k = 0; instance != NULL && instance != DROPPED && instance->root == SEXTANT_NULL && instance->rootless != NULL &&
                            k < instance->rootless->len; k++)
            {
              const SextantBoundsMember *m = &g_array_index (instance->rootless, SextantBoundsMember, k);
              SextantRootCandidate candidate = { instance->key.comm, instance->key.seq, m->loc, m->enter };

              g_array_append_val (candidates, candidate);
            }
        }
    }
}

gint64
_sextant_collective_matcher_open_end (SextantCollectiveMatcher *self,
                                      gint64                    comm)
{
  CollChannel *channel = open_channel (self, comm);

  return channel != NULL ? channel->base + channel->len : 0;
}

gboolean
_sextant_collective_matcher_open_summary (SextantCollectiveMatcher *self,
                                          gint64                    comm,
                                          gint64                    seq,
                                          SextantCollectiveSummary *summary)
{
  const PendingInstance *instance = open_instance (self, comm, seq);

  if (instance == NULL)
    return FALSE;
  *summary = (SextantCollectiveSummary) {
    comm, seq, instance->n_members, instance->root, instance->kind, instance->nonblocking, instance->bounds,
  };

  return TRUE;
}

gboolean
_sextant_collective_matcher_spilled (SextantCollectiveMatcher  *self,
                                     gint64                    comm,
                                     gint64                    seq,
                                     SextantSpilledInstance   *spilled,
                                     GError                  **error)
{
  CollChannel *channel = open_channel (self, comm);

  if (channel == NULL || channel->stream < 0)
    return FALSE;
  if (self->peek_stream != channel->stream)
    {
      self->peek_stream = channel->stream;
      self->peek_at = self->peek_n = 0;
    }
  /* the stream's next records, a read of the file for PEEK of them */
  if (self->peek_at == self->peek_n)
    {
      guint64 left = sextant_share_spill_count (self->spilled, (guint)channel->stream) - channel->n_read;

      if (left == 0)
        return FALSE;
      if (self->peek == NULL)
        self->peek = g_new (SextantSpilledInstance, PEEK);
      self->peek_at = 0;
      self->peek_n = (guint)MIN (left, PEEK);
      if (!sextant_share_spill_read (self->spilled, (guint)channel->stream, self->peek_n, self->peek, error))
        {
          self->peek_n = 0;
          return FALSE;
        }
      channel->n_read += self->peek_n;
    }
  if (self->peek[self->peek_at].seq != seq)
    return FALSE;
  *spilled = self->peek[self->peek_at++];

  return TRUE;
}

/* @instance takes the summary of all ranks' members (its own included);
 * @kinds_differ: some ranks' members named another operation */
static void
take_combined (SextantCollectiveMatcher       *self,
               PendingInstance                *instance,
               const SextantCollectiveSummary *combined,
               gboolean                        kinds_differ)
{
  if (kinds_differ || g_strcmp0 (combined->kind, instance->kind) != 0)
    _sextant_import_log (self->import, "collective_mismatch", SEXTANT_NULL, combined->bounds.begin,
                         "members of one collective instance disagree on its operation or root "
                         "(%s vs %s)", combined->kind, instance->kind);
  instance->n_members = (guint)combined->n_members;
  instance->bounds = combined->bounds;
  if (instance->root == SEXTANT_NULL && combined->root != SEXTANT_NULL)
    name_root (self, instance, combined->root);
}

/* Another rank's member @candidate that may be @instance's root */
static void
take_root_candidate (PendingInstance            *instance,
                     const SextantRootCandidate *candidate)
{
  if (instance->root_loc != SEXTANT_NULL && candidate->loc == instance->root_loc)
    sextant_collective_bounds_add_root (&instance->bounds, candidate->enter);
}

gboolean
_sextant_collective_matcher_write_spilled (SextantCollectiveMatcher       *self,
                                           gint64                          comm,
                                           const SextantSpilledInstance   *spilled,
                                           const SextantCollectiveSummary *combined,
                                           gboolean                        kinds_differ,
                                           const SextantRootCandidate     *candidates,
                                           guint                           n_candidates,
                                           GError                        **error)
{
  PendingInstance instance = {
    .key = { comm, -1, spilled->seq },
    .id = _sextant_collective_matcher_instance_id (comm, spilled->seq),
    .kind = spilled->kind,
    .root = spilled->root,
    .root_loc = spilled->root_loc,
    .nonblocking = (gboolean)spilled->nonblocking,
    .expected = spilled->expected,
    .n_members = (guint)spilled->n_members,
    .bounds = spilled->bounds,
  };

  take_combined (self, &instance, combined, kinds_differ);
  for (guint k = 0; k < n_candidates; k++)
    take_root_candidate (&instance, &candidates[k]);

  return write_instance (self, &instance, error);
}

void
_sextant_collective_matcher_set_combined (SextantCollectiveMatcher       *self,
                                          const SextantCollectiveSummary *combined,
                                          gboolean                        kinds_differ)
{
  PendingInstance *instance = open_instance (self, combined->comm, combined->seq);

  if (instance != NULL)
    take_combined (self, instance, combined, kinds_differ);
}

void
_sextant_collective_matcher_add_root_candidate (SextantCollectiveMatcher   *self,
                                                const SextantRootCandidate *candidate)
{
  PendingInstance *instance = open_instance (self, candidate->comm, candidate->seq);

  if (instance != NULL)
    take_root_candidate (instance, candidate);
}

/* The instances still open, in no order */
static GPtrArray *
open_instances (SextantCollectiveMatcher *self)
{
  GPtrArray *open = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->late);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (open, value);

  for (guint c = 0; c < self->colls_size; c++)
    {
      CollChannel *channel = self->colls[c];

      for (guint i = 0; channel != NULL && i < channel->len; i++)
        {
          PendingInstance *instance = channel->ring[(channel->head + i) & (channel->cap - 1)];

          if (instance != NULL && instance != DROPPED)
            g_ptr_array_add (open, instance);
        }
    }

  return open;
}

/* Writes the instances still open, in a stable order (logged as
 * incomplete); their members' last rows wait for
 * _sextant_collective_matcher_flush(). */
gboolean
_sextant_collective_matcher_finish (SextantCollectiveMatcher  *self,
                                    GError                   **error)
{
  g_autoptr(GPtrArray) open = open_instances (self);

  g_ptr_array_sort (open, compare_instances);
  for (guint i = 0; i < open->len; i++)
    if (!write_instance (self, g_ptr_array_index (open, i), error))
      return FALSE;
  for (guint i = 0; i < self->colls_size; i++)
    g_clear_pointer (&self->colls[i], coll_channel_free);
  self->n_colls = 0;
  self->last_coll = NULL;
  g_hash_table_remove_all (self->late);

  return TRUE;
}

gboolean
_sextant_collective_matcher_flush (SextantCollectiveMatcher  *self,
                                   GError                   **error)
{
  return sextant_chunk_writer_flush (self->member_rows, error);
}
