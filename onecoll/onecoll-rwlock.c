/*
 * onecoll-rwlock.c - the rwlock's handles: the segment (create, attach,
 * remove), the public lock calls with their statistics and trace hooks,
 * and the waiting loop the spinning schemes share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The server creates the segment with O_EXCL, lays everything out and
 * stores the magic number last (release); a client maps it, reads the
 * magic (acquire) and the version before it looks at anything else, so it
 * never sees a half-initialised segment. Slots are claimed by a CAS of the
 * owner pid (0 -> the client's pid), as OpenPMIx claims its lock slots.
 *
 * Workload: init/attach/destroy once per process; the lock calls millions
 * of times per second (a branch for the hooks, a counter, the scheme).
 */
#include "onecoll-rwlock-private.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

onecoll_lock_hooks onecoll__lock_hooks;

int
onecoll_set_lock_hooks (const onecoll_lock_hooks *hooks)
{
  static const onecoll_lock_hooks none;

  onecoll__lock_hooks = hooks != NULL ? *hooks : none;
  return ONECOLL_OK;
}

/* ---- processes, time, waiting --------------------------------------------- */

uint64_t
onecoll__rw_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * UINT64_C (1000000000) + (uint64_t) ts.tv_nsec;
}

int
onecoll__rw_pid_alive (pid_t pid)
{
  char path[64];
  char buf[256];
  char *paren;
  ssize_t n;
  int fd;

  if (pid <= 0)
    return 1;
  if (kill (pid, 0) < 0 && errno == ESRCH)
    return 0;
  /* kill() succeeds on a zombie (dead, not yet reaped): look at its state */
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
    return errno == ENOENT ? 0 : 1;
  n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 1;
  buf[n] = '\0';
  /* "pid (comm) S ...": the state follows the last ')' */
  if ((paren = strrchr (buf, ')')) == NULL || paren[1] == '\0')
    return 1;
  return !(paren[2] == 'Z' || paren[2] == 'X');
}

#define SPIN_POLLS 256               /* then sched_yield() */
#define CHECK_EVERY_NS 1000000      /* liveness check interval */

int
onecoll__rw_wait_step (onecoll__rw_wait *w,
                       pid_t             pid)
{
  if (w->polls < SPIN_POLLS)
    {
      w->polls++;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause ();
#endif
      return 0;
    }
  sched_yield ();
  if ((++w->polls & 15) == 0 && pid > 0)
    {
      uint64_t now = onecoll__rw_now ();

      if (w->next_check == 0)
        w->next_check = now + CHECK_EVERY_NS;
      else if (now >= w->next_check)
        {
          w->next_check = now + CHECK_EVERY_NS;
          if (!onecoll__rw_pid_alive (pid))
            return 1;
        }
    }
  return 0;
}

/* ---- names -------------------------------------------------------------- */

static const char *const scheme_names[ONECOLL_RWLOCK_N_SCHEMES] = {
  [ONECOLL_RWLOCK_UNLOCKED] = "unlocked",
  [ONECOLL_RWLOCK_PTHREAD] = "pthread-rwlock",
  [ONECOLL_RWLOCK_MUTEX_1N] = "1n-mutex",
  [ONECOLL_RWLOCK_MUTEX_2N] = "2n-mutex",
  [ONECOLL_RWLOCK_MUTEX_SIGNAL] = "n-mutex-signal",
  [ONECOLL_RWLOCK_MCS] = "n-mcs",
};

const char *
onecoll_rwlock_scheme_name (int scheme)
{
  if (scheme < 0 || scheme >= ONECOLL_RWLOCK_N_SCHEMES)
    return NULL;
  return scheme_names[scheme];
}

int
onecoll_rwlock_scheme_from_name (const char *name)
{
  for (int i = 0; name != NULL && i < ONECOLL_RWLOCK_N_SCHEMES; i++)
    if (strcmp (name, scheme_names[i]) == 0)
      return i;
  return -1;
}

/* ---- segments ------------------------------------------------------------ */

static size_t
segment_size (int nclients,
              int nrecords)
{
  return ONECOLL__RW_HEADER + (size_t) nclients * ONECOLL__RW_SLOT
         + (size_t) nrecords * ONECOLL__RW_RECORD;
}

static int
valid_name (const char *name)
{
  return name != NULL && name[0] == '/' && name[1] != '\0' && strlen (name) <= 200
         && strchr (name + 1, '/') == NULL;
}

static void
handle_layout (onecoll_rwlock *lock)
{
  lock->hdr = (onecoll__rw_header *) lock->base;
  lock->slots = (onecoll__rw_slot *) (lock->base + ONECOLL__RW_HEADER);
  lock->records = (onecoll__rw_record *) (lock->base + ONECOLL__RW_HEADER
                                          + (size_t) lock->nclients * ONECOLL__RW_SLOT);
}

int
onecoll_rwlock_config_init (onecoll_rwlock_config *cfg,
                            onecoll_rwlock_scheme  scheme,
                            int                    nclients)
{
  if (cfg == NULL)
    return ONECOLL_ERR_ARG;
  memset (cfg, 0, sizeof *cfg);
  cfg->scheme = scheme;
  cfg->nclients = nclients;
  cfg->nrecords = 64;
  return ONECOLL_OK;
}

int
onecoll_rwlock_init (const char                  *name,
                     const onecoll_rwlock_config *cfg,
                     onecoll_rwlock             **lock)
{
  onecoll_rwlock *self;
  size_t size;
  int fd, rc;

  if (lock != NULL)
    *lock = NULL;
  if (!valid_name (name) || cfg == NULL || lock == NULL
      || onecoll_rwlock_scheme_name (cfg->scheme) == NULL
      || cfg->nclients < 1 || cfg->nclients > ONECOLL_RWLOCK_MAX_CLIENTS
      || cfg->nrecords < 0 || cfg->nrecords > ONECOLL_RWLOCK_MAX_RECORDS)
    return ONECOLL_ERR_ARG;
  if ((self = calloc (1, sizeof *self)) == NULL)
    return ONECOLL_ERR_NOMEM;
  if ((self->scratch = calloc ((size_t) cfg->nclients, 1)) == NULL)
    {
      free (self);
      return ONECOLL_ERR_NOMEM;
    }
  if (cfg->replace)
    shm_unlink (name);
  if ((fd = shm_open (name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
    {
      int e = errno;

      free (self->scratch);
      free (self);
      errno = e;
      return e == EEXIST ? ONECOLL_ERR_EXISTS : ONECOLL_ERR_SYSTEM;
    }
  size = segment_size (cfg->nclients, cfg->nrecords);
  if (ftruncate (fd, (off_t) size) < 0
      || (self->base = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED)
    {
      int e = errno;

      close (fd);
      shm_unlink (name);
      free (self->scratch);
      free (self);
      errno = e;
      return ONECOLL_ERR_SYSTEM;
    }
  close (fd);
  self->size = size;
  self->scheme = cfg->scheme;
  self->nclients = cfg->nclients;
  self->client = -1;
  self->pid = getpid ();
  snprintf (self->name, sizeof self->name, "%s", name);
  handle_layout (self);
  /* the new pages are zero: free slots, free MCS locks, empty records */
  self->hdr->version = ONECOLL__RW_VERSION;
  self->hdr->scheme = (uint32_t) cfg->scheme;
  self->hdr->nclients = cfg->nclients;
  self->hdr->nrecords = cfg->nrecords;
  self->hdr->size = size;
  self->hdr->server_pid = (int32_t) self->pid;
  /* lock ids: bit 31, 15 bits of tag, 16 bits of slot (up to 4096) */
  self->hdr->lock_tag = UINT32_C (0x80000000)
                        | ((((uint32_t) self->pid * 2654435761u) ^ (uint32_t) onecoll__rw_now ()) & 0x7fff0000u);
  if ((rc = onecoll__rw_init_scheme (self)) != ONECOLL_OK)
    {
      int e = errno;

      munmap (self->base, size);
      shm_unlink (name);
      free (self->scratch);
      free (self);
      errno = e;
      return rc;
    }
  /* last: clients that see the magic (acquire) see everything above */
  atomic_store_explicit (&self->hdr->magic, ONECOLL__RW_MAGIC, memory_order_release);
  *lock = self;
  return ONECOLL_OK;
}

/* Claims slot @s for @pid if it is free (a dead client's slot is freed by
 * the writer once it has taken its lock over). Returns 1 if claimed. */
static int
claim_slot (onecoll__rw_slot *s,
            pid_t             pid)
{
  int32_t owner = 0;

  return atomic_compare_exchange_strong_explicit (&s->pid, &owner, (int32_t) pid,
                                                  memory_order_acq_rel, memory_order_relaxed);
}

int
onecoll_rwlock_attach (const char      *name,
                       int              client,
                       onecoll_rwlock **lock)
{
  onecoll_rwlock *self;
  onecoll__rw_header probe;
  struct stat st;
  int fd;

  if (lock != NULL)
    *lock = NULL;
  if (!valid_name (name) || lock == NULL || client < -1 || client >= ONECOLL_RWLOCK_MAX_CLIENTS)
    return ONECOLL_ERR_ARG;
  if ((fd = shm_open (name, O_RDWR | O_CLOEXEC, 0)) < 0)
    return errno == ENOENT ? ONECOLL_ERR_NOT_FOUND : ONECOLL_ERR_SYSTEM;
  if (fstat (fd, &st) < 0)
    {
      close (fd);
      return ONECOLL_ERR_SYSTEM;
    }
  if ((size_t) st.st_size < sizeof probe)
    {
      close (fd);
      return ONECOLL_ERR_VERSION;
    }
  if ((self = calloc (1, sizeof *self)) == NULL)
    {
      close (fd);
      return ONECOLL_ERR_NOMEM;
    }
  self->size = (size_t) st.st_size;
  self->base = mmap (NULL, self->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close (fd);
  if (self->base == MAP_FAILED)
    {
      free (self);
      return ONECOLL_ERR_SYSTEM;
    }
  self->hdr = (onecoll__rw_header *) self->base;
  /* the magic first (acquire: pairs with the server's release), then the
   * fields it publishes */
  if (atomic_load_explicit (&self->hdr->magic, memory_order_acquire) != ONECOLL__RW_MAGIC
      || self->hdr->version != ONECOLL__RW_VERSION
      || onecoll_rwlock_scheme_name ((int) self->hdr->scheme) == NULL
      || self->hdr->nclients < 1 || self->hdr->nclients > ONECOLL_RWLOCK_MAX_CLIENTS
      || self->hdr->nrecords < 0 || self->hdr->nrecords > ONECOLL_RWLOCK_MAX_RECORDS
      || self->hdr->size != self->size
      || segment_size (self->hdr->nclients, self->hdr->nrecords) != self->size)
    {
      munmap (self->base, self->size);
      free (self);
      return ONECOLL_ERR_VERSION;
    }
  self->scheme = (onecoll_rwlock_scheme) self->hdr->scheme;
  self->nclients = self->hdr->nclients;
  self->pid = getpid ();
  handle_layout (self);
  if (client >= self->nclients)
    {
      munmap (self->base, self->size);
      free (self);
      return ONECOLL_ERR_ARG;
    }
  self->client = -1;
  for (int i = client < 0 ? 0 : client; i < (client < 0 ? self->nclients : client + 1); i++)
    if (claim_slot (&self->slots[i], self->pid))
      {
        self->client = i;
        break;
      }
  if (self->client < 0)
    {
      munmap (self->base, self->size);
      free (self);
      return ONECOLL_ERR_BUSY;
    }
  *lock = self;
  return ONECOLL_OK;
}

int
onecoll_rwlock_destroy (onecoll_rwlock *lock)
{
  int rc = ONECOLL_OK;

  if (lock == NULL)
    return ONECOLL_OK;
  if (lock->client >= 0)
    {
      int32_t mine = (int32_t) lock->pid;

      /* only if the writer has not given the slot away meanwhile */
      atomic_compare_exchange_strong_explicit (&lock->slots[lock->client].pid, &mine, 0,
                                               memory_order_release, memory_order_relaxed);
    }
  else
    {
      /* a late client must not take the segment for a live one */
      atomic_store_explicit (&lock->hdr->magic, 0, memory_order_relaxed);
      if (shm_unlink (lock->name) < 0)
        rc = ONECOLL_ERR_SYSTEM;
    }
  munmap (lock->base, lock->size);
  free (lock->scratch);
  free (lock);
  return rc;
}

/* ---- the lock calls ------------------------------------------------------ */

#define TRACING() (onecoll__lock_hooks.acquired != NULL || onecoll__lock_hooks.wait_begin != NULL)

static uint32_t
lock_id (const onecoll_rwlock *lock,
         int                   slot)
{
  return lock->hdr->lock_tag | (uint32_t) slot;
}

/* Reports the acquisition of slot @i's lock (the caller holds it). */
static void
trace_acquired (onecoll_rwlock *lock,
                int             i)
{
  uint32_t order = ++lock->slots[i].order;

  if (onecoll__lock_hooks.acquired != NULL)
    onecoll__lock_hooks.acquired (onecoll__lock_hooks.user_data, lock_id (lock, i), order);
}

static void
trace_released (onecoll_rwlock *lock,
                int             i)
{
  if (onecoll__lock_hooks.released != NULL)
    onecoll__lock_hooks.released (onecoll__lock_hooks.user_data, lock_id (lock, i),
                                  lock->slots[i].order);
}

static void
trace_begin (onecoll_lock_mode mode,
             void             *caller,
             const char       *file,
             int               line)
{
  if (onecoll__lock_hooks.wait_begin != NULL)
    onecoll__lock_hooks.wait_begin (onecoll__lock_hooks.user_data, mode, caller, file, line);
}

static void
trace_end (onecoll_lock_mode mode,
           int               status)
{
  if (onecoll__lock_hooks.wait_end != NULL)
    onecoll__lock_hooks.wait_end (onecoll__lock_hooks.user_data, mode, status);
}

int
onecoll_rwlock_rdlock (onecoll_rwlock *lock)
{
  int rc;

  if (lock == NULL || lock->client < 0)
    return ONECOLL_ERR_ARG;
  if (lock->held)
    return ONECOLL_ERR_BUSY;
  if (__builtin_expect (TRACING (), 0))
    {
      trace_begin (ONECOLL_LOCK_READ, __builtin_return_address (0), __FILE__, __LINE__);
      rc = onecoll__rw_rdlock (lock);
      if (rc == ONECOLL_OK)
        trace_acquired (lock, lock->client);
      trace_end (ONECOLL_LOCK_READ, rc);
    }
  else
    rc = onecoll__rw_rdlock (lock);
  if (rc == ONECOLL_OK)
    {
      lock->held = 1;
      lock->stats.rdlocks++;
    }
  return rc;
}

int
onecoll_rwlock_rdunlock (onecoll_rwlock *lock)
{
  if (lock == NULL || lock->client < 0 || !lock->held)
    return ONECOLL_ERR_ARG;
  if (__builtin_expect (TRACING (), 0))
    trace_released (lock, lock->client);
  onecoll__rw_rdunlock (lock);
  lock->held = 0;
  return ONECOLL_OK;
}

int
onecoll_rwlock_wrlock (onecoll_rwlock *lock)
{
  uint64_t t0, wait;
  int tracing, rc;

  if (lock == NULL || lock->client >= 0)
    return ONECOLL_ERR_ARG;
  if (lock->held)
    return ONECOLL_ERR_BUSY;
  tracing = TRACING ();
  if (tracing)
    trace_begin (ONECOLL_LOCK_WRITE, __builtin_return_address (0), __FILE__, __LINE__);
  t0 = onecoll__rw_now ();
  rc = onecoll__rw_wrlock (lock, &lock->stats.owner_dead);
  wait = onecoll__rw_now () - t0;
  if (rc >= 0)
    {
      lock->held = 1;
      lock->stats.wrlocks++;
      lock->stats.wrlock_wait_total += wait;
      if (wait > lock->stats.wrlock_wait_max)
        lock->stats.wrlock_wait_max = wait;
      if (tracing)
        for (int i = 0; i < lock->nclients; i++)
          trace_acquired (lock, i);
    }
  if (tracing)
    trace_end (ONECOLL_LOCK_WRITE, rc);
  return rc;
}

int
onecoll_rwlock_wrunlock (onecoll_rwlock *lock)
{
  if (lock == NULL || lock->client >= 0 || !lock->held)
    return ONECOLL_ERR_ARG;
  if (__builtin_expect (TRACING (), 0))
    for (int i = 0; i < lock->nclients; i++)
      trace_released (lock, i);
  onecoll__rw_wrunlock (lock);
  lock->held = 0;
  return ONECOLL_OK;
}

int
onecoll_rwlock_get_stats (const onecoll_rwlock *lock,
                          onecoll_rwlock_stats *stats)
{
  if (lock == NULL || stats == NULL)
    return ONECOLL_ERR_ARG;
  *stats = lock->stats;
  return ONECOLL_OK;
}

int
onecoll_rwlock_info (const onecoll_rwlock  *lock,
                     onecoll_rwlock_scheme *scheme,
                     int                   *nclients,
                     int                   *client)
{
  if (lock == NULL)
    return ONECOLL_ERR_ARG;
  if (scheme != NULL)
    *scheme = lock->scheme;
  if (nclients != NULL)
    *nclients = lock->nclients;
  if (client != NULL)
    *client = lock->client;
  return ONECOLL_OK;
}
