/*
 * sextant-recorder-defs.c - definition tables, and the containers under them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A sextant__defs holds one process's local definitions (ids 0..n-1 per
 * kind, in order of definition) or, on rank 0 at finalize, the unified
 * global ones. Defining the same content twice gives the same id, through a
 * byte-string map per kind whose key is the definition's fields (which
 * refer to other definitions by id, so equal keys mean equal definitions
 * within one table).
 *
 * Workload: definitions are made on the first use of each MPI function,
 * call site, calling context, communicator and window - a few hundred to a
 * few thousand per process - always under sextant__rec.lock; the hot path
 * never gets here. Each new definition of the process's own table is also
 * appended to the crash journal (sextant-recorder-journal.c). Serialisation
 * runs once, at finalize.
 */
#include "sextant-recorder-private.h"

#include <stdlib.h>
#include <string.h>

int
sextant__grow (void   **array,
               size_t  *cap,
               size_t   need,
               size_t   elem)
{
  size_t new_cap;
  void *grown;

  if (need <= *cap)
    return 0;
  new_cap = *cap > 0 ? *cap : 16;
  while (new_cap < need)
    {
      if (new_cap > SIZE_MAX / 2 / elem)
        return -1;
      new_cap *= 2;
    }
  grown = realloc (*array, new_cap * elem);
  if (grown == NULL)
    return -1;
  *array = grown;
  *cap = new_cap;
  return 0;
}

/* ---- byte-string map ---- */

static uint64_t
hash_bytes (const void *data,
            size_t      len)
{
  const unsigned char *p = data;
  uint64_t h = UINT64_C (0xcbf29ce484222325);   /* FNV-1a, then a final mix */

  for (size_t i = 0; i < len; i++)
    {
      h ^= p[i];
      h *= UINT64_C (0x100000001b3);
    }
  h ^= h >> 33;
  h *= UINT64_C (0xff51afd7ed558ccd);
  h ^= h >> 33;
  return h;
}

static sextant__blobslot *
blobmap_find (const sextant__blobmap *map,
              uint64_t                hash,
              const void             *key,
              size_t                  len)
{
  size_t i = (size_t) hash & (map->cap - 1);

  for (;;)
    {
      sextant__blobslot *slot = &map->slots[i];

      if (slot->key == NULL)
        return slot;
      if (slot->hash == hash && slot->len == len && memcmp (slot->key, key, len) == 0)
        return slot;
      i = (i + 1) & (map->cap - 1);
    }
}

int
sextant__blobmap_get (const sextant__blobmap *map,
                      const void             *key,
                      size_t                  len,
                      uint32_t               *value)
{
  const sextant__blobslot *slot;

  if (map->cap == 0)
    return 0;
  slot = blobmap_find (map, hash_bytes (key, len), key, len);
  if (slot->key == NULL)
    return 0;
  *value = slot->value;
  return 1;
}

static int
blobmap_rehash (sextant__blobmap *map)
{
  size_t new_cap = map->cap > 0 ? map->cap * 2 : 64;
  sextant__blobmap bigger = { calloc (new_cap, sizeof (sextant__blobslot)), new_cap, map->n };

  if (bigger.slots == NULL)
    return -1;
  for (size_t i = 0; i < map->cap; i++)
    if (map->slots[i].key != NULL)
      *blobmap_find (&bigger, map->slots[i].hash, map->slots[i].key, map->slots[i].len) = map->slots[i];
  free (map->slots);
  *map = bigger;
  return 0;
}

int
sextant__blobmap_put (sextant__blobmap *map,
                      const void       *key,
                      size_t            len,
                      uint32_t          value)
{
  uint64_t hash = hash_bytes (key, len);
  sextant__blobslot *slot;
  unsigned char *copy;

  /* keep the load factor under 1/2 so that probe chains stay short */
  if ((map->n + 1) * 2 > map->cap && blobmap_rehash (map) != 0)
    return -1;
  slot = blobmap_find (map, hash, key, len);
  if (slot->key != NULL)
    {
      slot->value = value;
      return 0;
    }
  copy = malloc (len > 0 ? len : 1);
  if (copy == NULL)
    return -1;
  memcpy (copy, key, len);
  slot->hash = hash;
  slot->key = copy;
  slot->len = (uint32_t) len;
  slot->value = value;
  map->n++;
  return 0;
}

void
sextant__blobmap_free (sextant__blobmap *map)
{
  for (size_t i = 0; i < map->cap; i++)
    free (map->slots[i].key);
  free (map->slots);
  map->slots = NULL;
  map->cap = 0;
  map->n = 0;
}

/* ---- serialisation ---- */

void
sextant__buf_bytes (sextant__buf *buf,
                    const void   *data,
                    size_t        len)
{
  if (buf->failed)
    return;
  if (sextant__grow ((void **) &buf->data, &buf->cap, buf->len + len, 1) != 0)
    {
      buf->failed = 1;
      return;
    }
  if (len > 0)
    memcpy (buf->data + buf->len, data, len);
  buf->len += len;
}

void
sextant__buf_u32 (sextant__buf *buf,
                  uint32_t      value)
{
  sextant__buf_bytes (buf, &value, sizeof value);
}

void
sextant__buf_u64 (sextant__buf *buf,
                  uint64_t      value)
{
  sextant__buf_bytes (buf, &value, sizeof value);
}

void
sextant__buf_str (sextant__buf *buf,
                  const char   *s)
{
  size_t len = s != NULL ? strlen (s) : 0;

  sextant__buf_u32 (buf, (uint32_t) len);
  sextant__buf_bytes (buf, s, len);
  sextant__buf_bytes (buf, "", 1);
}

uint32_t
sextant__read_u32 (sextant__reader *rd)
{
  uint32_t value = 0;

  if (rd->failed || (size_t) (rd->end - rd->pos) < sizeof value)
    {
      rd->failed = 1;
      return 0;
    }
  memcpy (&value, rd->pos, sizeof value);
  rd->pos += sizeof value;
  return value;
}

uint64_t
sextant__read_u64 (sextant__reader *rd)
{
  uint64_t value = 0;

  if (rd->failed || (size_t) (rd->end - rd->pos) < sizeof value)
    {
      rd->failed = 1;
      return 0;
    }
  memcpy (&value, rd->pos, sizeof value);
  rd->pos += sizeof value;
  return value;
}

const char *
sextant__read_str (sextant__reader *rd)
{
  uint32_t len = sextant__read_u32 (rd);
  const char *s;

  if (rd->failed || (size_t) (rd->end - rd->pos) < (size_t) len + 1 || rd->pos[len] != '\0')
    {
      rd->failed = 1;
      return "";
    }
  s = (const char *) rd->pos;
  rd->pos += (size_t) len + 1;
  return s;
}

/* ---- definitions ---- */

uint32_t
sextant__def_string (sextant__defs *defs,
                     const char    *s)
{
  size_t len = strlen (s);
  uint32_t id;
  char *copy;

  if (sextant__blobmap_get (&defs->string_map, s, len, &id))
    return id;
  if (sextant__grow ((void **) &defs->strings, &defs->cap_strings, defs->n_strings + 1,
                     sizeof *defs->strings) != 0 ||
      (copy = strdup (s)) == NULL)
    return SEXTANT__UNDEF;
  id = (uint32_t) defs->n_strings;
  if (sextant__blobmap_put (&defs->string_map, s, len, id) != 0)
    {
      free (copy);
      return SEXTANT__UNDEF;
    }
  defs->strings[defs->n_strings++] = copy;
  sextant__journal_def (defs, SEXTANT__J_STRING, id);
  return id;
}

/* Looks @key up in @map; if absent, reserves slot n of the array (growing
 * it) and records the key. Returns the id, with *@added telling whether the
 * caller must fill element n. */
static uint32_t
def_common (sextant__blobmap *map,
            const void       *key,
            size_t            len,
            void            **array,
            size_t           *n,
            size_t           *cap,
            size_t            elem,
            int              *added)
{
  uint32_t id;

  *added = 0;
  if (sextant__blobmap_get (map, key, len, &id))
    return id;
  if (*n >= SEXTANT__UNDEF - 1 || sextant__grow (array, cap, *n + 1, elem) != 0)
    return SEXTANT__UNDEF;
  id = (uint32_t) *n;
  if (sextant__blobmap_put (map, key, len, id) != 0)
    return SEXTANT__UNDEF;
  (*n)++;
  *added = 1;
  return id;
}

uint32_t
sextant__def_region (sextant__defs             *defs,
                     const sextant__region_def *def)
{
  int added;
  uint32_t id = def_common (&defs->region_map, def, sizeof *def, (void **) &defs->regions,
                            &defs->n_regions, &defs->cap_regions, sizeof *defs->regions, &added);

  if (added)
    {
      defs->regions[id] = *def;
      sextant__journal_def (defs, SEXTANT__J_REGION, id);
    }
  return id;
}

uint32_t
sextant__def_scl (sextant__defs *defs,
                  uint32_t       file,
                  uint32_t       line)
{
  sextant__scl_def def = { file, line };
  int added;
  uint32_t id = def_common (&defs->scl_map, &def, sizeof def, (void **) &defs->scls,
                            &defs->n_scls, &defs->cap_scls, sizeof *defs->scls, &added);

  if (added)
    {
      defs->scls[id] = def;
      sextant__journal_def (defs, SEXTANT__J_SCL, id);
    }
  return id;
}

uint32_t
sextant__def_context (sextant__defs *defs,
                      uint32_t       region,
                      uint32_t       scl,
                      uint32_t       parent)
{
  sextant__context_def def = { region, scl, parent };
  int added;
  uint32_t id = def_common (&defs->context_map, &def, sizeof def, (void **) &defs->contexts,
                            &defs->n_contexts, &defs->cap_contexts, sizeof *defs->contexts, &added);

  if (added)
    {
      defs->contexts[id] = def;
      sextant__journal_def (defs, SEXTANT__J_CONTEXT, id);
    }
  return id;
}

uint32_t
sextant__def_comm (sextant__defs           *defs,
                   const sextant__comm_def *def)
{
  uint32_t head[4] = { def->kind, def->parent, def->seq, def->min_rank };
  uint32_t *key = head;
  size_t key_len = sizeof head;
  uint32_t *members = NULL;
  int added;
  uint32_t id;

  if (def->kind == SEXTANT__COMM_WORLD || def->kind == SEXTANT__COMM_SELF)
    head[1] = head[2] = head[3] = 0;
  if (def->n_members > 0)
    {
      members = malloc (def->n_members * sizeof *members);
      if (members == NULL)
        return SEXTANT__UNDEF;
      memcpy (members, def->members, def->n_members * sizeof *members);
    }
  /* a communicator known by its members: they are part of the key */
  if (def->kind == SEXTANT__COMM_MEMBERS && def->n_members > 0)
    {
      key_len = sizeof head + def->n_members * sizeof *members;
      key = malloc (key_len);
      if (key == NULL)
        {
          free (members);
          return SEXTANT__UNDEF;
        }
      memcpy (key, head, sizeof head);
      memcpy (key + 4, members, def->n_members * sizeof *members);
    }
  id = def_common (&defs->comm_map, key, key_len, (void **) &defs->comms,
                   &defs->n_comms, &defs->cap_comms, sizeof *defs->comms, &added);
  if (key != head)
    free (key);
  if (!added)
    {
      free (members);
      return id;
    }
  defs->comms[id] = *def;
  defs->comms[id].members = members;
  sextant__journal_def (defs, SEXTANT__J_COMM, id);
  return id;
}

uint32_t
sextant__def_group (sextant__defs  *defs,
                    const uint32_t *members,
                    uint32_t        n_members)
{
  uint32_t *copy = NULL;
  int added;
  uint32_t id;

  if (n_members > 0)
    {
      copy = malloc (n_members * sizeof *copy);
      if (copy == NULL)
        return SEXTANT__UNDEF;
      memcpy (copy, members, n_members * sizeof *copy);
    }
  id = def_common (&defs->group_map, members, n_members * sizeof *members, (void **) &defs->groups,
                   &defs->n_groups, &defs->cap_groups, sizeof *defs->groups, &added);
  if (!added)
    {
      free (copy);
      return id;
    }
  defs->groups[id].n_members = n_members;
  defs->groups[id].members = copy;
  sextant__journal_def (defs, SEXTANT__J_GROUP, id);
  return id;
}

uint32_t
sextant__def_win (sextant__defs *defs,
                  uint32_t       name,
                  uint32_t       comm,
                  uint32_t       seq)
{
  sextant__win_def def = { name, comm, seq };
  uint32_t key[2] = { comm, seq };
  int added;
  uint32_t id = def_common (&defs->win_map, key, sizeof key, (void **) &defs->wins,
                            &defs->n_wins, &defs->cap_wins, sizeof *defs->wins, &added);

  if (added)
    {
      defs->wins[id] = def;
      sextant__journal_def (defs, SEXTANT__J_WIN, id);
    }
  return id;
}

void
sextant__defs_clear (sextant__defs *defs)
{
  for (size_t i = 0; i < defs->n_strings; i++)
    free (defs->strings[i]);
  for (size_t i = 0; i < defs->n_comms; i++)
    free (defs->comms[i].members);
  for (size_t i = 0; i < defs->n_groups; i++)
    free (defs->groups[i].members);
  free (defs->strings);
  free (defs->regions);
  free (defs->scls);
  free (defs->contexts);
  free (defs->comms);
  free (defs->groups);
  free (defs->wins);
  sextant__blobmap_free (&defs->string_map);
  sextant__blobmap_free (&defs->region_map);
  sextant__blobmap_free (&defs->scl_map);
  sextant__blobmap_free (&defs->context_map);
  sextant__blobmap_free (&defs->comm_map);
  sextant__blobmap_free (&defs->group_map);
  sextant__blobmap_free (&defs->win_map);
  memset (defs, 0, sizeof *defs);
}

/* Format (native byte order; every rank runs the same binary on the same
 * kind of machine): for each kind in the order strings, regions, source
 * code locations, calling contexts, communicators, groups, windows: u32
 * count, then the records' fields as u32 (strings as u32 length + bytes +
 * NUL). */
void
sextant__defs_serialize (const sextant__defs *defs,
                         sextant__buf        *buf)
{
  sextant__buf_u32 (buf, (uint32_t) defs->n_strings);
  for (size_t i = 0; i < defs->n_strings; i++)
    sextant__buf_str (buf, defs->strings[i]);

  sextant__buf_u32 (buf, (uint32_t) defs->n_regions);
  sextant__buf_bytes (buf, defs->regions, defs->n_regions * sizeof *defs->regions);
  sextant__buf_u32 (buf, (uint32_t) defs->n_scls);
  sextant__buf_bytes (buf, defs->scls, defs->n_scls * sizeof *defs->scls);
  sextant__buf_u32 (buf, (uint32_t) defs->n_contexts);
  sextant__buf_bytes (buf, defs->contexts, defs->n_contexts * sizeof *defs->contexts);

  sextant__buf_u32 (buf, (uint32_t) defs->n_comms);
  for (size_t i = 0; i < defs->n_comms; i++)
    {
      const sextant__comm_def *c = &defs->comms[i];

      sextant__buf_u32 (buf, c->kind);
      sextant__buf_u32 (buf, c->name);
      sextant__buf_u32 (buf, c->parent);
      sextant__buf_u32 (buf, c->seq);
      sextant__buf_u32 (buf, c->min_rank);
      sextant__buf_u32 (buf, c->n_members);
      sextant__buf_bytes (buf, c->members, c->n_members * sizeof *c->members);
    }

  sextant__buf_u32 (buf, (uint32_t) defs->n_groups);
  for (size_t i = 0; i < defs->n_groups; i++)
    {
      sextant__buf_u32 (buf, defs->groups[i].n_members);
      sextant__buf_bytes (buf, defs->groups[i].members,
                          defs->groups[i].n_members * sizeof *defs->groups[i].members);
    }

  sextant__buf_u32 (buf, (uint32_t) defs->n_wins);
  sextant__buf_bytes (buf, defs->wins, defs->n_wins * sizeof *defs->wins);
}

/* Reads @n u32 arrays of @width fields into a fresh array. */
static int
read_records (sextant__reader *rd,
              void           **array,
              size_t          *n,
              size_t          *cap,
              size_t           width)
{
  uint32_t count = sextant__read_u32 (rd);
  size_t bytes;

  if (rd->failed || (size_t) (rd->end - rd->pos) / (width * sizeof (uint32_t)) < count)
    return -1;
  bytes = (size_t) count * width * sizeof (uint32_t);
  if (count > 0 && sextant__grow (array, cap, count, width * sizeof (uint32_t)) != 0)
    return -1;
  if (count > 0)
    memcpy (*array, rd->pos, bytes);
  rd->pos += bytes;
  *n = count;
  return 0;
}

static uint32_t *
read_members (sextant__reader *rd,
              uint32_t        *n)
{
  uint32_t *members;

  *n = sextant__read_u32 (rd);
  if (rd->failed || (size_t) (rd->end - rd->pos) / sizeof (uint32_t) < *n)
    {
      rd->failed = 1;
      return NULL;
    }
  if (*n == 0)
    return NULL;
  members = malloc (*n * sizeof *members);
  if (members == NULL)
    {
      rd->failed = 1;
      return NULL;
    }
  memcpy (members, rd->pos, *n * sizeof *members);
  rd->pos += *n * sizeof *members;
  return members;
}

int
sextant__defs_deserialize (sextant__reader *rd,
                           sextant__defs   *defs)
{
  uint32_t count = sextant__read_u32 (rd);

  if (rd->failed || sextant__grow ((void **) &defs->strings, &defs->cap_strings, count + 1,
                                   sizeof *defs->strings) != 0)
    return -1;
  for (uint32_t i = 0; i < count; i++)
    {
      const char *s = sextant__read_str (rd);

      if (rd->failed || (defs->strings[defs->n_strings] = strdup (s)) == NULL)
        return -1;
      defs->n_strings++;
    }

  if (read_records (rd, (void **) &defs->regions, &defs->n_regions, &defs->cap_regions,
                    sizeof *defs->regions / sizeof (uint32_t)) != 0 ||
      read_records (rd, (void **) &defs->scls, &defs->n_scls, &defs->cap_scls,
                    sizeof *defs->scls / sizeof (uint32_t)) != 0 ||
      read_records (rd, (void **) &defs->contexts, &defs->n_contexts, &defs->cap_contexts,
                    sizeof *defs->contexts / sizeof (uint32_t)) != 0)
    return -1;

  count = sextant__read_u32 (rd);
  if (rd->failed || sextant__grow ((void **) &defs->comms, &defs->cap_comms, count + 1,
                                   sizeof *defs->comms) != 0)
    return -1;
  for (uint32_t i = 0; i < count; i++)
    {
      sextant__comm_def *c = &defs->comms[defs->n_comms];

      c->kind = sextant__read_u32 (rd);
      c->name = sextant__read_u32 (rd);
      c->parent = sextant__read_u32 (rd);
      c->seq = sextant__read_u32 (rd);
      c->min_rank = sextant__read_u32 (rd);
      c->members = read_members (rd, &c->n_members);
      if (rd->failed)
        return -1;
      defs->n_comms++;
    }

  count = sextant__read_u32 (rd);
  if (rd->failed || sextant__grow ((void **) &defs->groups, &defs->cap_groups, count + 1,
                                   sizeof *defs->groups) != 0)
    return -1;
  for (uint32_t i = 0; i < count; i++)
    {
      sextant__group_def *g = &defs->groups[defs->n_groups];

      g->members = read_members (rd, &g->n_members);
      if (rd->failed)
        return -1;
      defs->n_groups++;
    }

  if (read_records (rd, (void **) &defs->wins, &defs->n_wins, &defs->cap_wins,
                    sizeof *defs->wins / sizeof (uint32_t)) != 0)
    return -1;
  return rd->failed ? -1 : 0;
}
