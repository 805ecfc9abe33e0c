/*
 * onecoll-rwlock-private.h - the shared-memory segment of an onecoll rwlock
 * and what the files of the rwlock share. Never installed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Segment layout (all offsets fixed by the header's counts; version
 * ONECOLL__RW_VERSION; every part on its own cache lines so that a reader
 * touches only its own slot's lines and the records it reads):
 *
 *   header     line 0: magic (stored last, release), version, scheme,
 *              counts, server pid, lock tag; line 1: commit counter;
 *              then the pthread_rwlock_t (PTHREAD scheme)
 *   slots[N]   per client, ONECOLL__RW_SLOT bytes:
 *                line 0  owner pid, the reading flag (PTHREAD), the signal
 *                        word VS (MUTEX_SIGNAL), the trace order counter
 *                line 1  LS, the signal mutex (MUTEX_2N)
 *                line 2  LP, the access mutex (MUTEX_1N, _2N, _SIGNAL)
 *                line 3  MCS head and the client's queue record
 *                line 4  MCS: the server's queue record
 *   records[R] the key-value store, ONECOLL__RW_RECORD bytes each
 *
 * Workload: a client reads its slot's lines on every rdlock (no line is
 * shared between clients); the writer touches every slot per wrlock, which
 * is rare. Nothing in the segment is a pointer: the segment is mapped at a
 * different address in every process.
 */
#ifndef ONECOLL_RWLOCK_PRIVATE_H
#define ONECOLL_RWLOCK_PRIVATE_H

#include "onecoll.h"
#include "onecoll-trace.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#define ONECOLL__RW_MAGIC UINT64_C (0x4b434f4c57524f43)   /* "CORWLOCK" */
#define ONECOLL__RW_VERSION 1u
#define ONECOLL__RW_LINE 64
#define ONECOLL__RW_HEADER (4 * ONECOLL__RW_LINE)
#define ONECOLL__RW_SLOT (5 * ONECOLL__RW_LINE)
#define ONECOLL__RW_RECORD 128

typedef struct
{
  _Atomic uint64_t magic;           /* ONECOLL__RW_MAGIC once the server is done */
  uint32_t version;                 /* ONECOLL__RW_VERSION */
  uint32_t scheme;                  /* onecoll_rwlock_scheme */
  int32_t nclients;
  int32_t nrecords;
  uint64_t size;                    /* bytes of the segment */
  int32_t server_pid;
  uint32_t lock_tag;                /* lock ids: tag | slot, see onecoll_lock_hooks */
  _Alignas (ONECOLL__RW_LINE) uint64_t commits;     /* written under the write lock */
  _Alignas (ONECOLL__RW_LINE) pthread_rwlock_t rwlock;
} onecoll__rw_header;

/* An MCS queue record (one per party and lock). */
typedef struct
{
  _Atomic uint32_t next;            /* 0, or the successor's record index (1, 2) */
  _Atomic uint32_t blocked;         /* 1 while the owner of this record waits */
} onecoll__mcs_rec;

typedef struct
{
  _Alignas (ONECOLL__RW_LINE) _Atomic int32_t pid;  /* the client's process, 0 if free */
  _Atomic int32_t reading;          /* PTHREAD: 1 asking, 2 holding the read lock */
  _Atomic uint32_t vs;              /* MUTEX_SIGNAL: 1 while the writer wants the lock */
  uint32_t order;                   /* acquisitions of this slot's lock (traced only) */
  _Alignas (ONECOLL__RW_LINE) pthread_mutex_t ls;
  _Alignas (ONECOLL__RW_LINE) pthread_mutex_t lp;
  _Alignas (ONECOLL__RW_LINE) _Atomic uint32_t head; /* MCS: 0 free, 1 client, 2 server */
  onecoll__mcs_rec client_rec;      /* record 1 */
  _Alignas (ONECOLL__RW_LINE) onecoll__mcs_rec server_rec;  /* record 2 */
} onecoll__rw_slot;

typedef struct
{
  uint32_t key;                     /* 0: free */
  uint32_t len;
  uint64_t version;                 /* the commit that wrote it */
  uint64_t checksum;                /* onecoll__rw_checksum() of the rest */
  unsigned char value[ONECOLL_KV_VALUE_MAX];
} onecoll__rw_record;

_Static_assert (sizeof (onecoll__rw_header) <= ONECOLL__RW_HEADER, "header fits");
_Static_assert (sizeof (onecoll__rw_slot) == ONECOLL__RW_SLOT, "slot is five lines");
_Static_assert (sizeof (onecoll__rw_record) == ONECOLL__RW_RECORD, "record size");

struct onecoll_rwlock
{
  unsigned char *base;              /* the mapping */
  size_t size;
  onecoll__rw_header *hdr;
  onecoll__rw_slot *slots;
  onecoll__rw_record *records;
  onecoll_rwlock_scheme scheme;
  int nclients;
  int client;                       /* slot, or -1 for the server */
  int held;                         /* this handle holds its lock */
  pid_t pid;                        /* this process */
  char name[256];                   /* the server unlinks it */
  void *scratch;                    /* server, MCS: nclients bytes (queued flags) */
  onecoll_rwlock_stats stats;
};

/* The tracer's table (onecoll-rwlock.c). */
extern onecoll_lock_hooks onecoll__lock_hooks;

/* 1 if process @pid exists and is not a zombie. */
int onecoll__rw_pid_alive (pid_t pid);

/* Nanoseconds of CLOCK_MONOTONIC. */
uint64_t onecoll__rw_now (void);

/* A waiting loop's state: spins with a CPU pause, then yields the CPU
 * (16 clients on 2 cores: a spinning waiter must let the holder run), and
 * every millisecond asks whether the party it waits for still lives. */
typedef struct
{
  uint32_t polls;
  uint64_t next_check;              /* onecoll__rw_now () of the next check, 0 before */
} onecoll__rw_wait;

/* One step of a wait for process @pid: returns 0 to go on waiting, 1 if
 * @pid is dead (never for @pid <= 0). */
int onecoll__rw_wait_step (onecoll__rw_wait *w,
                           pid_t             pid);

/* The schemes (onecoll-rwlock-schemes.c): the lock operations without
 * tracing, statistics or argument checks. The rdlock returns ONECOLL_OK or
 * ONECOLL_ERR_PEER/SYSTEM; the wrlock ONECOLL_OK, ONECOLL_WARN_OWNER_DEAD
 * (and adds the dead clients to *@dead) or ONECOLL_ERR_SYSTEM. */
int  onecoll__rw_init_scheme (onecoll_rwlock *lock);
int  onecoll__rw_rdlock (onecoll_rwlock *lock);
void onecoll__rw_rdunlock (onecoll_rwlock *lock);
int  onecoll__rw_wrlock (onecoll_rwlock *lock,
                         uint64_t       *dead);
void onecoll__rw_wrunlock (onecoll_rwlock *lock);

/* FNV-1a over a record's key, length, version and value. */
uint64_t onecoll__rw_checksum (const onecoll__rw_record *rec);

#endif /* ONECOLL_RWLOCK_PRIVATE_H */
