/*
 * onecoll-rwlock-kv.c - the small key-value store in an rwlock's segment,
 * standing in for the PMIx server's database (KVDb).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fixed-size records (onecoll__rw_record) in an open-addressing table
 * (linear probing from the key's hash; keys are never removed, so a probe
 * stops at the first free record). The server writes a commit - several
 * records, each with the commit's number as its version and a checksum -
 * under one write lock; a client copies one record under its read lock and
 * checks the checksum after it has released the lock, so a torn record (a
 * lock that does not exclude) is reported, not returned.
 *
 * Workload: gets are the hot path (a probe of one or two records and a
 * copy of at most ONECOLL_KV_VALUE_MAX bytes); commits are rare.
 */
#include "onecoll-rwlock-private.h"

#include <string.h>

uint64_t
onecoll__rw_checksum (const onecoll__rw_record *rec)
{
  const unsigned char *p = (const unsigned char *) rec;
  uint64_t h = UINT64_C (14695981039346656037);
  uint32_t len = rec->len <= ONECOLL_KV_VALUE_MAX ? rec->len : ONECOLL_KV_VALUE_MAX;

  /* key, len, version: the bytes before the checksum */
  for (size_t i = 0; i < offsetof (onecoll__rw_record, checksum); i++)
    h = (h ^ p[i]) * UINT64_C (1099511628211);
  for (uint32_t i = 0; i < len; i++)
    h = (h ^ rec->value[i]) * UINT64_C (1099511628211);
  return h;
}

static uint32_t
key_hash (uint32_t key)
{
  return key * 2654435761u;
}

/* The record of @key, or with @insert the free record where it goes; NULL
 * if absent (or the table is full). */
static onecoll__rw_record *
find (onecoll_rwlock *lock,
      uint32_t        key,
      int             insert)
{
  int n = lock->hdr->nrecords;

  for (int probe = 0; probe < n; probe++)
    {
      onecoll__rw_record *rec = &lock->records[(key_hash (key) + (uint32_t) probe) % (uint32_t) n];

      if (rec->key == key)
        return rec;
      if (rec->key == 0)
        return insert ? rec : NULL;
    }
  return NULL;
}

int
onecoll_rwlock_kv_commit (onecoll_rwlock        *lock,
                          const onecoll_kv_item *items,
                          int                    n)
{
  int rc;
  uint64_t version;

  if (lock == NULL || lock->client >= 0 || n < 0 || (n > 0 && items == NULL))
    return ONECOLL_ERR_ARG;
  for (int i = 0; i < n; i++)
    if (items[i].key == 0 || items[i].len > ONECOLL_KV_VALUE_MAX
        || (items[i].len > 0 && items[i].value == NULL))
      return ONECOLL_ERR_ARG;
  if ((rc = onecoll_rwlock_wrlock (lock)) < 0)
    return rc;
  /* room for every new key first, so that a full table writes nothing */
  {
    int missing = 0, free_records = 0;

    for (int i = 0; i < n; i++)
      if (find (lock, items[i].key, 0) == NULL)
        missing++;
    for (int r = 0; r < lock->hdr->nrecords && free_records < missing; r++)
      free_records += lock->records[r].key == 0;
    if (free_records < missing)
      {
        onecoll_rwlock_wrunlock (lock);
        return ONECOLL_ERR_LIMIT;
      }
  }
  version = ++lock->hdr->commits;
  for (int i = 0; i < n; i++)
    {
      onecoll__rw_record *rec = find (lock, items[i].key, 1);

      rec->key = items[i].key;
      rec->len = items[i].len;
      rec->version = version;
      if (items[i].len > 0)
        memcpy (rec->value, items[i].value, items[i].len);
      rec->checksum = onecoll__rw_checksum (rec);
    }
  onecoll_rwlock_wrunlock (lock);
  return rc;
}

int
onecoll_rwlock_kv_get (onecoll_rwlock *lock,
                       uint32_t        key,
                       void           *value,
                       uint32_t        cap,
                       uint32_t       *len,
                       uint64_t       *version)
{
  onecoll__rw_record copy;
  onecoll__rw_record *rec;
  int rc;

  if (lock == NULL || lock->client < 0 || key == 0 || (cap > 0 && value == NULL))
    return ONECOLL_ERR_ARG;
  if ((rc = onecoll_rwlock_rdlock (lock)) != ONECOLL_OK)
    return rc;
  rec = find (lock, key, 0);
  if (rec != NULL)
    memcpy (&copy, rec, sizeof copy);
  onecoll_rwlock_rdunlock (lock);
  if (rec == NULL)
    return ONECOLL_ERR_NOT_FOUND;
  if (copy.key != key || copy.len > ONECOLL_KV_VALUE_MAX || onecoll__rw_checksum (&copy) != copy.checksum)
    return ONECOLL_ERR_CORRUPT;
  if (len != NULL)
    *len = copy.len;
  if (version != NULL)
    *version = copy.version;
  if (copy.len > cap)
    return ONECOLL_ERR_LIMIT;
  if (copy.len > 0)
    memcpy (value, copy.value, copy.len);
  return ONECOLL_OK;
}
