/*
 * onecoll-rwlock-schemes.c - the five reader-writer lock schemes (and the
 * UNLOCKED control) over one shared-memory segment.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every scheme is one lock per client slot x (onecoll-rwlock-private.h has
 * the layout): reader x takes lock x, the writer takes all N. Mutual
 * exclusion between reader x and the writer is what protects the data;
 * readers never exclude each other. The memory-ordering argument of each
 * scheme is written beside its code.
 *
 * Workload: rdlock/rdunlock run millions of times per second per client
 * and must touch only the client's own slot (no line shared with another
 * client); wrlock/wrunlock are rare and touch every slot.
 *
 * Dead parties. Mutexes are robust and process-shared: a lock whose owner
 * died returns EOWNERDEAD to the next locker, which makes it consistent and
 * owns it. The spinning schemes (MUTEX_SIGNAL's signal word, MCS) and the
 * pthread rwlock (which has no robust variant) ask every millisecond of a
 * wait whether the process they wait for lives (onecoll__rw_wait_step).
 * The writer takes a dead client's lock over and frees its slot; a reader
 * whose writer died gives up with ONECOLL_ERR_PEER.
 */
#include "onecoll-rwlock-private.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Locks robust mutex @m. Returns 0; 1 if its owner had died (the mutex is
 * made consistent and held); -1 on another error (errno set). */
static int
robust_lock (pthread_mutex_t *m)
{
  int e = pthread_mutex_lock (m);

  if (e == 0)
    return 0;
  if (e == EOWNERDEAD)
    {
      pthread_mutex_consistent (m);
      return 1;
    }
  errno = e;
  return -1;
}

static onecoll__rw_slot *
my_slot (onecoll_rwlock *lock)
{
  return &lock->slots[lock->client];
}

/* The writer found client slot @s's process dead: the slot is free again
 * (a new client may attach; its first rdlock waits for our release). */
static void
client_dead (onecoll__rw_slot *s,
             uint64_t         *dead)
{
  atomic_store_explicit (&s->reading, 0, memory_order_relaxed);
  atomic_store_explicit (&s->pid, 0, memory_order_release);
  (*dead)++;
}

/* ---- set-up ------------------------------------------------------------ */

int
onecoll__rw_init_scheme (onecoll_rwlock *lock)
{
  pthread_mutexattr_t ma;
  int e = 0;

  if (lock->scheme == ONECOLL_RWLOCK_PTHREAD)
    {
      pthread_rwlockattr_t ra;

      if ((e = pthread_rwlockattr_init (&ra)) != 0)
        goto fail;
      pthread_rwlockattr_setpshared (&ra, PTHREAD_PROCESS_SHARED);
      /* as OpenPMIx gds/ds12: a waiting writer stops new readers */
      pthread_rwlockattr_setkind_np (&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
      e = pthread_rwlock_init (&lock->hdr->rwlock, &ra);
      pthread_rwlockattr_destroy (&ra);
      if (e != 0)
        goto fail;
      return ONECOLL_OK;
    }
  if (lock->scheme != ONECOLL_RWLOCK_MUTEX_1N && lock->scheme != ONECOLL_RWLOCK_MUTEX_2N
      && lock->scheme != ONECOLL_RWLOCK_MUTEX_SIGNAL)
    return ONECOLL_OK;              /* MCS and UNLOCKED: zero bytes are the free state */
  if ((e = pthread_mutexattr_init (&ma)) != 0)
    goto fail;
  pthread_mutexattr_setpshared (&ma, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust (&ma, PTHREAD_MUTEX_ROBUST);
  for (int i = 0; i < lock->nclients && e == 0; i++)
    {
      e = pthread_mutex_init (&lock->slots[i].lp, &ma);
      if (e == 0 && lock->scheme == ONECOLL_RWLOCK_MUTEX_2N)
        e = pthread_mutex_init (&lock->slots[i].ls, &ma);
    }
  pthread_mutexattr_destroy (&ma);
  if (e == 0)
    return ONECOLL_OK;
fail:
  errno = e;
  return ONECOLL_ERR_SYSTEM;
}

/* ---- PTHREAD: one process-shared rwlock ----------------------------------
 * The rwlock orders the data itself (POSIX memory synchronisation). The
 * reading word is only for finding a dead reader: 1 while asking, 2 while
 * holding (stored after the rdlock returned, relaxed: the writer uses it
 * only together with the pid's death, after which the word no longer
 * changes). A reader that dies between its rdlock and the store of 2 is
 * not found (a window of a few instructions): the writer then waits for
 * it, but still in 5 ms timed steps. */

#define RW_STEP_NS 5000000          /* timed-lock step of the PTHREAD scheme */

static void
deadline (struct timespec *ts,
          uint64_t         ns)
{
  uint64_t t = onecoll__rw_now () + ns;

  ts->tv_sec = (time_t) (t / 1000000000u);
  ts->tv_nsec = (long) (t % 1000000000u);
}

static int
pthread_rdlock (onecoll_rwlock *lock)
{
  onecoll__rw_slot *s = my_slot (lock);
  int e;

  atomic_store_explicit (&s->reading, 1, memory_order_relaxed);
  for (;;)
    {
      struct timespec ts;

      deadline (&ts, RW_STEP_NS);
      e = pthread_rwlock_clockrdlock (&lock->hdr->rwlock, CLOCK_MONOTONIC, &ts);
      if (e == 0)
        break;
      if (e != ETIMEDOUT)
        {
          atomic_store_explicit (&s->reading, 0, memory_order_relaxed);
          errno = e;
          return ONECOLL_ERR_SYSTEM;
        }
      if (!onecoll__rw_pid_alive (lock->hdr->server_pid))
        {
          atomic_store_explicit (&s->reading, 0, memory_order_relaxed);
          return ONECOLL_ERR_PEER;
        }
    }
  atomic_store_explicit (&s->reading, 2, memory_order_relaxed);
  return ONECOLL_OK;
}

static int
pthread_wrlock (onecoll_rwlock *lock,
                uint64_t       *dead)
{
  for (;;)
    {
      struct timespec ts;
      int e;

      deadline (&ts, RW_STEP_NS);
      e = pthread_rwlock_clockwrlock (&lock->hdr->rwlock, CLOCK_MONOTONIC, &ts);
      if (e == 0)
        return ONECOLL_OK;
      if (e != ETIMEDOUT)
        {
          errno = e;
          return ONECOLL_ERR_SYSTEM;
        }
      /* a reader that died holding: release its read hold for it. POSIX
       * leaves unlocking another thread's read lock undefined; glibc's
       * rwlock keeps a count of readers, and an unlock by a thread that
       * does not hold the write lock is a reader's unlock, which is what
       * the dead reader can no longer do (tested by test-onecoll-rwlock). */
      for (int i = 0; i < lock->nclients; i++)
        {
          onecoll__rw_slot *s = &lock->slots[i];
          pid_t pid = atomic_load_explicit (&s->pid, memory_order_acquire);

          if (pid > 0 && atomic_load_explicit (&s->reading, memory_order_relaxed) == 2
              && !onecoll__rw_pid_alive (pid))
            {
              pthread_rwlock_unlock (&lock->hdr->rwlock);
              client_dead (s, dead);
            }
        }
    }
}

/* ---- MUTEX_1N: one mutex per client --------------------------------------
 * The mutex (acquire on lock, release on unlock) orders the data. */

static int
mutex_rdlock (pthread_mutex_t *m)
{
  int r = robust_lock (m);

  if (r == 1)
    {
      /* the writer died holding it: the data may be half written */
      pthread_mutex_unlock (m);
      return ONECOLL_ERR_PEER;
    }
  return r == 0 ? ONECOLL_OK : ONECOLL_ERR_SYSTEM;
}

/* Locks the mutex at byte offset @off of every slot, in slot order.
 * Returns ONECOLL_OK, ONECOLL_WARN_OWNER_DEAD, or ONECOLL_ERR_SYSTEM with
 * nothing held. */
static int
lock_all (onecoll_rwlock *lock,
          size_t          off,
          uint64_t       *dead)
{
  int status = ONECOLL_OK;

  for (int i = 0; i < lock->nclients; i++)
    {
      onecoll__rw_slot *s = &lock->slots[i];
      int r = robust_lock ((pthread_mutex_t *) ((unsigned char *) s + off));

      if (r < 0)
        {
          int e = errno;

          while (i-- > 0)
            pthread_mutex_unlock ((pthread_mutex_t *) ((unsigned char *) &lock->slots[i] + off));
          errno = e;
          return ONECOLL_ERR_SYSTEM;
        }
      if (r == 1)
        {
          client_dead (s, dead);
          status = ONECOLL_WARN_OWNER_DEAD;
        }
    }
  return status;
}

static void
unlock_all (onecoll_rwlock *lock,
            size_t          off)
{
  for (int i = 0; i < lock->nclients; i++)
    pthread_mutex_unlock ((pthread_mutex_t *) ((unsigned char *) &lock->slots[i] + off));
}

/* ---- MUTEX_2N: OpenPMIx gds/ds21 ------------------------------------------
 * Reader x: lock LS_x, lock LP_x, unlock LS_x; read; unlock LP_x.
 * Writer: lock every LS_i (no new reader gets past its LS), then every
 * LP_i (waits for the readers inside); write; unlock every LP_i and LS_i.
 * LP alone gives mutual exclusion and the ordering of the data; LS gives
 * the writer priority. Reader: 3 mutex operations per lock, 1 per unlock. */

static int
mutex2n_rdlock (onecoll_rwlock *lock)
{
  onecoll__rw_slot *s = my_slot (lock);
  int rc = mutex_rdlock (&s->ls);

  if (rc != ONECOLL_OK)
    return rc;
  rc = mutex_rdlock (&s->lp);
  pthread_mutex_unlock (&s->ls);
  return rc;
}

static int
mutex2n_wrlock (onecoll_rwlock *lock,
                uint64_t       *dead)
{
  int a = lock_all (lock, offsetof (onecoll__rw_slot, ls), dead);
  int b;

  if (a < 0)
    return a;
  b = lock_all (lock, offsetof (onecoll__rw_slot, lp), dead);
  if (b < 0)
    {
      unlock_all (lock, offsetof (onecoll__rw_slot, ls));
      return b;
    }
  return a != ONECOLL_OK ? a : b;
}

/* ---- MUTEX_SIGNAL: N(mutex+signal) ----------------------------------------
 * The signal mutex LS_x of 2N-mutex becomes a word VS_x in the client's
 * own line. Exact protocol:
 *   reader x:  loop { wait while VS_x; lock LP_x; if !VS_x: break;
 *                     unlock LP_x }   read   unlock LP_x
 *   writer:    VS_i = 1 for all i; lock LP_i for all i; write;
 *              unlock LP_i for all i; VS_i = 0 for all i
 * Mutual exclusion and the data's ordering come from LP alone (the mutex's
 * acquire/release), whatever the reader saw in VS; so VS is accessed with
 * relaxed atomics: it only decides who goes first. The re-check after
 * taking LP_x closes the race the spec points out (a reader that passed its
 * check just before the writer raised VS_x): it steps back instead of
 * making the writer wait for a whole read, so the writer waits at most for
 * the reads already inside. A reader sees VS_x = 1 at the latest once the
 * writer's lock of LP_x has returned (that lock synchronises with the
 * reader's unlock, which follows its re-check), so no reader enters after
 * the writer has started, and readers wait (spin, then yield) only while a
 * writer is active. Reader: 1 load + 2 mutex operations + 1 load per lock. */

static int
signal_rdlock (onecoll_rwlock *lock)
{
  onecoll__rw_slot *s = my_slot (lock);

  for (;;)
    {
      onecoll__rw_wait w = { 0, 0 };
      int rc;

      while (atomic_load_explicit (&s->vs, memory_order_relaxed) != 0)
        if (onecoll__rw_wait_step (&w, lock->hdr->server_pid))
          return ONECOLL_ERR_PEER;
      if ((rc = mutex_rdlock (&s->lp)) != ONECOLL_OK)
        return rc;
      if (atomic_load_explicit (&s->vs, memory_order_relaxed) == 0)
        return ONECOLL_OK;
      pthread_mutex_unlock (&s->lp);
    }
}

static int
signal_wrlock (onecoll_rwlock *lock,
               uint64_t       *dead)
{
  int rc;

  for (int i = 0; i < lock->nclients; i++)
    atomic_store_explicit (&lock->slots[i].vs, 1, memory_order_relaxed);
  rc = lock_all (lock, offsetof (onecoll__rw_slot, lp), dead);
  if (rc < 0)
    for (int i = 0; i < lock->nclients; i++)
      atomic_store_explicit (&lock->slots[i].vs, 0, memory_order_relaxed);
  return rc;
}

/* ---- MCS: N-MCS --------------------------------------------------------
 * Per slot an MCS queue lock with exactly two records, 1 = the client's and
 * 2 = the server's, and a head word holding 0 (free) or the record of the
 * last party in the queue.
 *
 *   acquire(me):  rec[me].next = 0; rec[me].blocked = 1;      (relaxed)
 *                 prev = exchange (head, me);                  (acq_rel)
 *                 if prev == 0: done
 *                 rec[prev].next = me;                         (release)
 *                 wait while rec[me].blocked;                  (acquire)
 *   release(me):  if CAS (head, me -> 0): done                 (release)
 *                 wait until (n = rec[me].next) != 0;          (acquire)
 *                 rec[n].blocked = 0;                          (release)
 *
 * Why these orders:
 *  - blocked = 1 is stored before the exchange, not after it, and the
 *    store of next that tells the predecessor about us is a release: the
 *    predecessor reads next with acquire before it stores blocked = 0, so
 *    our 1 happens-before its 0 and can never overwrite it (the lost
 *    wake-up the spec warns of).
 *  - The exchange is acq_rel: acquire, because when it finds the lock free
 *    (prev == 0) it must see the data the previous owner wrote - that
 *    owner's CAS to 0 is a release and our exchange reads its value;
 *    release, because our next = 0 must come before the successor's
 *    next = it (the successor's exchange reads ours and acquires).
 *  - The hand-off: the owner's blocked = 0 (release) is read by the
 *    waiter's acquire load, so the waiter sees the owner's critical section.
 *  - The release CAS needs no acquire on failure: the acquire load of next
 *    that follows orders what it needs.
 * One atomic read-modify-write per uncontended acquire and per release.
 *
 * Waiting for the hand-off (mcs_wait): the paper spins. On a machine with
 * more processes than cores a spinning waiter only gets its fair share of
 * a core, and the holder it waits for may be preempted, so the waiter
 * spins MCS_SPIN polls and then parks in a futex on its blocked word
 * (shared futex: the word is in the shared segment): it first turns 1 into
 * 2 (CAS), and the releaser's hand-off is an exchange that wakes the
 * waiter if it found 2. The CAS and the exchange decide the race: either
 * the exchange comes first (the CAS fails, the waiter sees 0) or the
 * releaser sees 2 and wakes; FUTEX_WAIT returns at once if the word is no
 * longer 2. So no wake-up is lost, and the uncontended path keeps its one
 * atomic. The park is 1 ms at a time, between checks that the other
 * process lives.
 *
 * The writer joins all N queues first and waits afterwards, so that its
 * waits for the N readers overlap instead of adding up; it holds some locks
 * while it waits for others, which cannot deadlock: a reader never holds
 * one lock while waiting for another.
 *
 * Dead client: the writer waits on its own record's blocked word; if the
 * client died holding the lock (or on its way out), nobody will clear it,
 * and the writer clears it itself - it is the next owner anyway. In
 * release, a client that died between its exchange and its store of next
 * leaves head = 1 and next = 0: the writer frees the lock (head = 0). */

#define MCS_SPIN 2048                /* polls before a waiter parks */

static void
futex_wait (_Atomic uint32_t *word,
            uint32_t          value,
            long              ns)
{
  struct timespec ts = { 0, ns };

  syscall (SYS_futex, (uint32_t *) word, FUTEX_WAIT, value, &ts, NULL, 0);
}

static void
futex_wake (_Atomic uint32_t *word)
{
  syscall (SYS_futex, (uint32_t *) word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Waits until the blocked word @blocked is 0 (acquire). Returns 0, or -1
 * if @pid died meanwhile (the word is then still not 0). */
static int
mcs_wait (_Atomic uint32_t *blocked,
          pid_t             pid)
{
  uint64_t next_check = 0;

  for (int i = 0; i < MCS_SPIN; i++)
    {
      if (atomic_load_explicit (blocked, memory_order_acquire) == 0)
        return 0;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause ();
#endif
    }
  for (;;)
    {
      uint32_t v = 1;

      if (atomic_compare_exchange_strong_explicit (blocked, &v, 2, memory_order_acquire,
                                                   memory_order_acquire) || v == 2)
        futex_wait (blocked, 2, 1000000);
      if (atomic_load_explicit (blocked, memory_order_acquire) == 0)
        return 0;
      if (pid > 0)
        {
          uint64_t now = onecoll__rw_now ();

          if (next_check == 0)
            next_check = now + 1000000;
          else if (now >= next_check)
            {
              next_check = now + 1000000;
              if (!onecoll__rw_pid_alive (pid))
                return -1;
            }
        }
    }
}

/* The hand-off: unblocks the waiter of @blocked (release), waking it if
 * it has parked. */
static void
mcs_unblock (_Atomic uint32_t *blocked)
{
  if (atomic_exchange_explicit (blocked, 0, memory_order_release) == 2)
    futex_wake (blocked);
}

static int
mcs_acquire (onecoll__rw_slot *s,
             uint32_t          me,
             pid_t             other_pid,
             int               wait)
{
  onecoll__mcs_rec *mine = me == 1 ? &s->client_rec : &s->server_rec;
  uint32_t prev;

  atomic_store_explicit (&mine->next, 0, memory_order_relaxed);
  atomic_store_explicit (&mine->blocked, 1, memory_order_relaxed);
  prev = atomic_exchange_explicit (&s->head, me, memory_order_acq_rel);
  if (prev == 0)
    return 0;
  atomic_store_explicit (prev == 1 ? &s->client_rec.next : &s->server_rec.next, me,
                         memory_order_release);
  if (!wait)
    return 1;
  return mcs_wait (&mine->blocked, other_pid);
}

/* Returns 0, or -1 if @other_pid died before it linked itself. */
static int
mcs_release (onecoll__rw_slot *s,
             uint32_t          me,
             pid_t             other_pid)
{
  onecoll__mcs_rec *mine = me == 1 ? &s->client_rec : &s->server_rec;
  uint32_t expected = me;
  uint32_t next;
  onecoll__rw_wait w = { 0, 0 };

  if (atomic_compare_exchange_strong_explicit (&s->head, &expected, 0,
                                               memory_order_release, memory_order_relaxed))
    return 0;
  while ((next = atomic_load_explicit (&mine->next, memory_order_acquire)) == 0)
    if (onecoll__rw_wait_step (&w, other_pid))
      {
        /* it swapped itself in and died before linking: nobody waits */
        atomic_store_explicit (&s->head, 0, memory_order_release);
        return -1;
      }
  mcs_unblock (next == 1 ? &s->client_rec.blocked : &s->server_rec.blocked);
  return 0;
}

static int
mcs_wrlock (onecoll_rwlock *lock,
            uint64_t       *dead)
{
  unsigned char *queued = (unsigned char *) lock->scratch;
  int status = ONECOLL_OK;

  /* join every queue ... */
  for (int i = 0; i < lock->nclients; i++)
    queued[i] = (unsigned char) mcs_acquire (&lock->slots[i], 2, 0, 0);
  /* ... then wait for each hand-off */
  for (int i = 0; i < lock->nclients; i++)
    {
      onecoll__rw_slot *s = &lock->slots[i];

      if (!queued[i])
        continue;
      if (mcs_wait (&s->server_rec.blocked, atomic_load_explicit (&s->pid, memory_order_relaxed)) < 0)
        {
          /* the client died holding or handing over: we own the lock */
          atomic_store_explicit (&s->server_rec.blocked, 0, memory_order_relaxed);
          client_dead (s, dead);
          status = ONECOLL_WARN_OWNER_DEAD;
        }
    }
  return status;
}

/* ---- dispatch ------------------------------------------------------------ */

int
onecoll__rw_rdlock (onecoll_rwlock *lock)
{
  onecoll__rw_slot *s = my_slot (lock);

  switch (lock->scheme)
    {
    case ONECOLL_RWLOCK_PTHREAD:
      return pthread_rdlock (lock);
    case ONECOLL_RWLOCK_MUTEX_1N:
      return mutex_rdlock (&s->lp);
    case ONECOLL_RWLOCK_MUTEX_2N:
      return mutex2n_rdlock (lock);
    case ONECOLL_RWLOCK_MUTEX_SIGNAL:
      return signal_rdlock (lock);
    case ONECOLL_RWLOCK_MCS:
      return mcs_acquire (s, 1, lock->hdr->server_pid, 1) == 0 ? ONECOLL_OK : ONECOLL_ERR_PEER;
    case ONECOLL_RWLOCK_UNLOCKED:
    default:
      return ONECOLL_OK;
    }
}

void
onecoll__rw_rdunlock (onecoll_rwlock *lock)
{
  onecoll__rw_slot *s = my_slot (lock);

  switch (lock->scheme)
    {
    case ONECOLL_RWLOCK_PTHREAD:
      atomic_store_explicit (&s->reading, 0, memory_order_relaxed);
      pthread_rwlock_unlock (&lock->hdr->rwlock);
      break;
    case ONECOLL_RWLOCK_MUTEX_1N:
    case ONECOLL_RWLOCK_MUTEX_2N:
    case ONECOLL_RWLOCK_MUTEX_SIGNAL:
      pthread_mutex_unlock (&s->lp);
      break;
    case ONECOLL_RWLOCK_MCS:
      mcs_release (s, 1, lock->hdr->server_pid);
      break;
    default:
      break;
    }
}

int
onecoll__rw_wrlock (onecoll_rwlock *lock,
                    uint64_t       *dead)
{
  switch (lock->scheme)
    {
    case ONECOLL_RWLOCK_PTHREAD:
      {
        uint64_t before = *dead;
        int rc = pthread_wrlock (lock, dead);

        return rc == ONECOLL_OK && *dead > before ? ONECOLL_WARN_OWNER_DEAD : rc;
      }
    case ONECOLL_RWLOCK_MUTEX_1N:
      return lock_all (lock, offsetof (onecoll__rw_slot, lp), dead);
    case ONECOLL_RWLOCK_MUTEX_2N:
      return mutex2n_wrlock (lock, dead);
    case ONECOLL_RWLOCK_MUTEX_SIGNAL:
      return signal_wrlock (lock, dead);
    case ONECOLL_RWLOCK_MCS:
      return mcs_wrlock (lock, dead);
    case ONECOLL_RWLOCK_UNLOCKED:
    default:
      return ONECOLL_OK;
    }
}

void
onecoll__rw_wrunlock (onecoll_rwlock *lock)
{
  switch (lock->scheme)
    {
    case ONECOLL_RWLOCK_PTHREAD:
      pthread_rwlock_unlock (&lock->hdr->rwlock);
      break;
    case ONECOLL_RWLOCK_MUTEX_1N:
      unlock_all (lock, offsetof (onecoll__rw_slot, lp));
      break;
    case ONECOLL_RWLOCK_MUTEX_2N:
      unlock_all (lock, offsetof (onecoll__rw_slot, lp));
      unlock_all (lock, offsetof (onecoll__rw_slot, ls));
      break;
    case ONECOLL_RWLOCK_MUTEX_SIGNAL:
      unlock_all (lock, offsetof (onecoll__rw_slot, lp));
      for (int i = 0; i < lock->nclients; i++)
        atomic_store_explicit (&lock->slots[i].vs, 0, memory_order_relaxed);
      break;
    case ONECOLL_RWLOCK_MCS:
      for (int i = 0; i < lock->nclients; i++)
        {
          onecoll__rw_slot *s = &lock->slots[i];

          if (mcs_release (s, 2, atomic_load_explicit (&s->pid, memory_order_relaxed)) < 0)
            client_dead (s, &lock->stats.owner_dead);
        }
      break;
    default:
      break;
    }
}
