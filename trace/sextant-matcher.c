/*
 * sextant-matcher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Matches the halves of messages and collectives that the location decoders
 * report, in memory, while the events are read.
 *
 * Messages: MPI does not let the messages of one channel (communicator,
 * sender, receiver, tag) overtake each other, so the decoders number the
 * sends and the receives of every channel and the n-th send matches the
 * n-th receive. A half waits in a hash table keyed by (channel, n) until
 * its partner arrives; then the message is written. Because the importer
 * reads all locations in step through time windows, only the messages in
 * flight across a window's edge wait: memory does not grow with the trace.
 * What is left at the end is unmatched: written with the other side NULL and
 * logged per location.
 *
 * Collectives: the n-th collective of each member on a communicator belongs
 * to instance n (self communicators: one instance per location and call).
 * An instance is written when all members of the communicator have arrived,
 * or at the end (logged as incomplete); its id is given when it is written,
 * and its members are written sorted by location.
 */
#include "config.h"

#include <string.h>

#include "sextant-chunk-writer.h"
#include "sextant-import-private.h"

typedef struct
{
  gint64   comm;
  gint64   src;
  gint64   dst;
  gint64   seq;
  guint32  tag;
} MessageKey;

typedef struct
{
  MessageKey  key;              /* first: the hash table's key */
  SextantHalf send;
  SextantHalf recv;
  guint       have_send : 1;
  guint       have_recv : 1;
  gpointer    next_free;
} PendingMessage;

typedef struct
{
  gint64  comm;
  gint64  owner;
  gint64  seq;
} InstanceKey;

typedef struct
{
  InstanceKey  key;             /* first: the hash table's key */
  const char  *kind;
  gint64       root;
  gboolean     nonblocking;
  gint64       expected;
  GArray      *members;         /* SextantCollectiveHalf */
} PendingInstance;

typedef struct
{
  gint64  count;
  gint64  first_time;
} Unmatched;

struct _SextantMatcher
{
  SextantImport       *import;
  GHashTable          *messages;      /* MessageKey* -> PendingMessage* (same pointer) */
  GHashTable          *instances;     /* InstanceKey* -> PendingInstance* */
  SextantChunkWriter  *message_rows;
  SextantChunkWriter  *member_rows;
  PendingMessage      *free_messages;  /* recycled: a message is two lookups and one allocation */
  gint64               next_collective;
  guint64              n_matched;
};

static guint
message_hash (gconstpointer key)
{
  const MessageKey *k = key;
  guint64 h = (guint64)k->comm * 0x9E3779B97F4A7C15ULL;

  h ^= (guint64)k->src * 0xC2B2AE3D27D4EB4FULL + (h << 6) + (h >> 2);
  h ^= (guint64)k->dst * 0x165667B19E3779F9ULL + (h << 6) + (h >> 2);
  h ^= (guint64)k->seq * 0x27D4EB2F165667C5ULL + (h << 6) + (h >> 2);
  h ^= (guint64)k->tag + (h << 6) + (h >> 2);

  return (guint)(h ^ (h >> 32));
}

static gboolean
message_equal (gconstpointer a,
               gconstpointer b)
{
  const MessageKey *x = a;
  const MessageKey *y = b;

  return x->comm == y->comm && x->src == y->src && x->dst == y->dst && x->seq == y->seq &&
         x->tag == y->tag;
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
instance_free (gpointer data)
{
  PendingInstance *instance = data;

  g_array_unref (instance->members);
  g_free (instance);
}

SextantMatcher *
_sextant_matcher_new (SextantImport *import,
                      guint          chunk_rows)
{
  SextantMatcher *self = g_new0 (SextantMatcher, 1);

  self->import = import;
  self->messages = g_hash_table_new_full (message_hash, message_equal, NULL, g_free);
  self->instances = g_hash_table_new_full (instance_hash, instance_equal, NULL, instance_free);
  self->message_rows = sextant_chunk_writer_new (import->store, SEXTANT_CHUNK_MESSAGE,
                                                 SEXTANT_MESSAGE_N_COLUMNS, 1, chunk_rows);
  self->member_rows = sextant_chunk_writer_new (import->store, SEXTANT_CHUNK_COLLECTIVE_MEMBER,
                                                SEXTANT_MEMBER_N_COLUMNS, 1, chunk_rows);
  self->next_collective = 1;

  return self;
}

void
_sextant_matcher_free (SextantMatcher *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->messages);
  g_hash_table_unref (self->instances);
  while (self->free_messages != NULL)
    {
      PendingMessage *next = self->free_messages->next_free;

      g_free (self->free_messages);
      self->free_messages = next;
    }
  sextant_chunk_writer_free (self->message_rows);
  sextant_chunk_writer_free (self->member_rows);
  g_free (self);
}

/* Messages ------------------------------------------------------------------ */

static gboolean
write_message (SextantMatcher      *self,
               const SextantHalf   *send,
               const SextantHalf   *recv,
               GError             **error)
{
  gint64 row[SEXTANT_MESSAGE_N_COLUMNS];
  const SextantHalf *any = send != NULL ? send : recv;

  for (guint c = 0; c < SEXTANT_MESSAGE_N_COLUMNS; c++)
    row[c] = SEXTANT_NULL;

  row[SEXTANT_MESSAGE_COMM] = any->comm;
  row[SEXTANT_MESSAGE_TAG] = any->tag;
  row[SEXTANT_MESSAGE_BYTES] = any->bytes;
  /* a peer that no location stands for is -(rank + 1): NULL here */
  row[SEXTANT_MESSAGE_SEND_LOC] = send != NULL ? send->loc : any->src >= 0 ? any->src : SEXTANT_NULL;
  row[SEXTANT_MESSAGE_RECV_LOC] = recv != NULL ? recv->loc : any->dst >= 0 ? any->dst : SEXTANT_NULL;

  if (send != NULL)
    {
      row[SEXTANT_MESSAGE_SEND_MODE] = send->mode;
      row[SEXTANT_MESSAGE_SEND_TIME] = send->time;
      row[SEXTANT_MESSAGE_SEND_VISIT] = send->visit;
      row[SEXTANT_MESSAGE_SEND_REQUEST] = send->request;
      row[SEXTANT_MESSAGE_SEND_COMPLETE_TIME] = send->time2;
      row[SEXTANT_MESSAGE_SEND_COMPLETE_VISIT] = send->visit2;
    }
  if (recv != NULL)
    {
      row[SEXTANT_MESSAGE_RECV_MODE] = recv->mode;
      row[SEXTANT_MESSAGE_RECV_POST_TIME] = recv->time2;
      row[SEXTANT_MESSAGE_RECV_POST_VISIT] = recv->visit2;
      row[SEXTANT_MESSAGE_RECV_TIME] = recv->time;
      row[SEXTANT_MESSAGE_RECV_VISIT] = recv->visit;
      row[SEXTANT_MESSAGE_RECV_REQUEST] = recv->request;
      row[SEXTANT_MESSAGE_RECV_BYTES] = recv->bytes;
    }

  return sextant_chunk_writer_append (self->message_rows, row, error) >= 0;
}

static gboolean
add_half (SextantMatcher     *self,
          const SextantHalf  *half,
          gboolean            is_recv,
          GError            **error)
{
  MessageKey key = { half->comm, half->src, half->dst, half->seq, half->tag };
  PendingMessage *pending = g_hash_table_lookup (self->messages, &key);
  gboolean ok;

  if (pending == NULL)
    {
      if (self->free_messages != NULL)
        {
          pending = self->free_messages;
          self->free_messages = pending->next_free;
          memset (pending, 0, sizeof *pending);
        }
      else
        pending = g_new0 (PendingMessage, 1);
      pending->key = key;
      g_hash_table_insert (self->messages, &pending->key, pending);
    }

  if (is_recv ? pending->have_recv : pending->have_send)
    {
      /* two halves of one number: a decoder counted wrong; keep the first */
      _sextant_import_log (self->import, "duplicate_message_half", half->loc, half->time,
                           "two %s with the same channel and sequence number; the later is dropped",
                           is_recv ? "receives" : "sends");
      return TRUE;
    }

  if (is_recv)
    {
      pending->recv = *half;
      pending->have_recv = TRUE;
    }
  else
    {
      pending->send = *half;
      pending->have_send = TRUE;
    }

  if (!(pending->have_send && pending->have_recv))
    return TRUE;

  ok = write_message (self, &pending->send, &pending->recv, error);
  self->n_matched++;
  g_hash_table_steal (self->messages, &key);
  pending->next_free = self->free_messages;
  self->free_messages = pending;

  return ok;
}

gboolean
_sextant_matcher_add_send (SextantMatcher     *self,
                           const SextantHalf  *send,
                           GError            **error)
{
  return add_half (self, send, FALSE, error);
}

gboolean
_sextant_matcher_add_recv (SextantMatcher     *self,
                           const SextantHalf  *recv,
                           GError            **error)
{
  return add_half (self, recv, TRUE, error);
}

/* Collectives ------------------------------------------------------------- */

static int
compare_members (gconstpointer a,
                 gconstpointer b)
{
  const SextantCollectiveHalf *x = a;
  const SextantCollectiveHalf *y = b;

  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

static gboolean
write_instance (SextantMatcher   *self,
                PendingInstance  *instance,
                GError          **error)
{
  SextantImport *import = self->import;
  gint64 id = self->next_collective++;
  gint64 root_loc = SEXTANT_NULL;
  gint64 begin = G_MAXINT64;
  gint64 end = G_MININT64;

  g_array_sort (instance->members, compare_members);

  for (guint i = 0; i < instance->members->len; i++)
    {
      const SextantCollectiveHalf *m = &g_array_index (instance->members, SextantCollectiveHalf, i);
      gint64 row[SEXTANT_MEMBER_N_COLUMNS] = {
        [SEXTANT_MEMBER_COLLECTIVE] = id,
        [SEXTANT_MEMBER_LOC] = m->loc,
        [SEXTANT_MEMBER_VISIT] = m->visit,
        [SEXTANT_MEMBER_END_VISIT] = m->end_visit,
        [SEXTANT_MEMBER_BEGIN] = m->begin,
        [SEXTANT_MEMBER_END] = m->end,
        [SEXTANT_MEMBER_BYTES_SENT] = m->sent,
        [SEXTANT_MEMBER_BYTES_RECEIVED] = m->received,
      };

      begin = MIN (begin, m->begin);
      end = MAX (end, m->end);
      if (sextant_chunk_writer_append (self->member_rows, row, error) < 0)
        return FALSE;
    }

  if (instance->root != SEXTANT_NULL)
    {
      gint32 loc = _sextant_import_comm_rank_loc (import, (OTF2_CommRef)instance->key.comm,
                                                  (guint32)instance->root, NULL);

      root_loc = loc >= 0 ? loc : instance->key.owner >= 0 ? instance->key.owner : SEXTANT_NULL;
    }

  if ((gint64)instance->members->len != instance->expected)
    _sextant_import_log (import, "incomplete_collective", SEXTANT_NULL, begin,
                         "a %s on communicator %" G_GINT64_FORMAT " has %u of %" G_GINT64_FORMAT " members",
                         instance->kind, instance->key.comm, instance->members->len, instance->expected);

  return sextant_store_run (import->store, SEXTANT_STMT_COLLECTIVE, error, "intnniiiii",
                            id, instance->key.comm, instance->kind, instance->root, root_loc,
                            (gint64)instance->nonblocking, (gint64)instance->members->len,
                            instance->expected, begin, end);
}

gboolean
_sextant_matcher_add_collective (SextantMatcher               *self,
                                 const SextantCollectiveHalf  *half,
                                 GError                      **error)
{
  InstanceKey key = { half->comm, half->owner, half->seq };
  PendingInstance *instance = g_hash_table_lookup (self->instances, &key);
  gboolean ok;

  if (instance == NULL)
    {
      SextantCommDef *comm = half->comm != SEXTANT_NULL
                             ? g_hash_table_lookup (self->import->comms, GINT_TO_POINTER ((gint)half->comm))
                             : NULL;

      instance = g_new0 (PendingInstance, 1);
      instance->key = key;
      instance->kind = half->kind;
      instance->root = half->root;
      instance->nonblocking = half->nonblocking;
      instance->expected = half->owner < 0 && comm != NULL && comm->rank_loc != NULL ? comm->rank_loc->len : 1;
      instance->members = g_array_new (FALSE, FALSE, sizeof (SextantCollectiveHalf));
      g_hash_table_insert (self->instances, &instance->key, instance);
    }
  else if (g_strcmp0 (half->kind, instance->kind) != 0 || half->root != instance->root)
    _sextant_import_log (self->import, "collective_mismatch", half->loc, half->begin,
                         "members of one collective instance disagree on its operation or root "
                         "(%s vs %s)", half->kind, instance->kind);

  g_array_append_val (instance->members, *half);
  if ((gint64)instance->members->len < instance->expected)
    return TRUE;

  ok = write_instance (self, instance, error);
  g_hash_table_remove (self->instances, &key);

  return ok;
}

gboolean
_sextant_matcher_add_deferred (SextantMatcher  *self,
                               GArray          *halves,
                               GArray          *coll_halves,
                               GError         **error)
{
  gboolean ok = TRUE;

  for (guint i = 0; ok && i < halves->len; i++)
    {
      const SextantDeferredHalf *d = &g_array_index (halves, SextantDeferredHalf, i);

      ok = add_half (self, &d->half, d->is_recv, error);
    }
  for (guint i = 0; ok && i < coll_halves->len; i++)
    ok = _sextant_matcher_add_collective (self, &g_array_index (coll_halves, SextantCollectiveHalf, i), error);

  g_array_unref (halves);
  g_array_unref (coll_halves);

  return ok;
}

/* The end ---------------------------------------------------------------- */

static int
compare_messages (gconstpointer a,
                  gconstpointer b)
{
  const PendingMessage *x = *(PendingMessage * const *)a;
  const PendingMessage *y = *(PendingMessage * const *)b;
  const SextantHalf *hx = x->have_send ? &x->send : &x->recv;
  const SextantHalf *hy = y->have_send ? &y->send : &y->recv;

  if (x->have_send != y->have_send)
    return x->have_send ? -1 : 1;
  if (hx->loc != hy->loc)
    return hx->loc < hy->loc ? -1 : 1;
  if (hx->time != hy->time)
    return hx->time < hy->time ? -1 : 1;
  return x->key.seq < y->key.seq ? -1 : x->key.seq > y->key.seq;
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

static GPtrArray *
values_of (GHashTable *table)
{
  GPtrArray *values = g_ptr_array_sized_new (g_hash_table_size (table));
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (values, value);

  return values;
}

/* Writes the halves without partners and the incomplete collectives, in a
 * stable order, and logs them: per location, sends and receives apart. */
gboolean
_sextant_matcher_finish (SextantMatcher  *self,
                         GError         **error)
{
  g_autoptr(GPtrArray) left = values_of (self->messages);
  g_autoptr(GPtrArray) open = values_of (self->instances);
  gint64 run_loc = SEXTANT_NULL;
  gboolean run_recv = FALSE;
  gint64 run_count = 0;
  gint64 run_time = 0;

  g_ptr_array_sort (left, compare_messages);
  for (guint i = 0; i <= left->len; i++)
    {
      const PendingMessage *m = i < left->len ? g_ptr_array_index (left, i) : NULL;
      const SextantHalf *half = m == NULL ? NULL : m->have_send ? &m->send : &m->recv;

      if (run_count > 0 && (m == NULL || half->loc != run_loc || m->have_recv != run_recv))
        {
          _sextant_import_log_n (self->import, run_recv ? "unmatched_receive" : "unmatched_send",
                                 run_loc, run_time, run_count, "%s without a matching %s; kept unmatched",
                                 run_recv ? "receive" : "send", run_recv ? "send" : "receive");
          run_count = 0;
        }
      if (m == NULL)
        break;

      if (run_count == 0)
        {
          run_loc = half->loc;
          run_recv = m->have_recv;
          run_time = half->time;
        }
      run_count++;
      run_time = MIN (run_time, half->time);

      if (!write_message (self, m->have_send ? &m->send : NULL, m->have_recv ? &m->recv : NULL, error))
        return FALSE;
    }
  g_hash_table_remove_all (self->messages);

  g_ptr_array_sort (open, compare_instances);
  for (guint i = 0; i < open->len; i++)
    if (!write_instance (self, g_ptr_array_index (open, i), error))
      return FALSE;
  g_hash_table_remove_all (self->instances);

  return sextant_chunk_writer_flush (self->message_rows, error) &&
         sextant_chunk_writer_flush (self->member_rows, error);
}

guint
_sextant_matcher_get_n_pending (SextantMatcher *self)
{
  return g_hash_table_size (self->messages) + g_hash_table_size (self->instances);
}
