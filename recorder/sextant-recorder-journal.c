/*
 * sextant-recorder-journal.c - what a crashed run leaves behind.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * While recording, every rank keeps in dir/journal/ what a reader needs if
 * the process never reaches MPI_Finalize - killed by a signal (SIGKILL
 * included), MPI_Abort, exit() - so that sextant-record-salvage can rebuild
 * an archive from it (sextant-recorder-salvage.c):
 *
 *  - rank-R.defs: the rank's definitions as they are made (strings,
 *    regions, call sites, calling contexts, communicators, groups,
 *    windows), its locations, the clock offset measured at MPI_Init and the
 *    loaded modules, appended with one write() per record under the
 *    recorder's lock (definitions are rare: the hot path never gets here);
 *    and STOP records: the signal (number, si_code, faulting address,
 *    instruction pointer, time, thread) written by the signal handler with
 *    one async-signal-safe write(), or MPI_Abort / exit without
 *    MPI_Finalize;
 *  - LOCATION.evtj: the location's libotf2 event chunks themselves. The
 *    recorder's memory callbacks hand libotf2 slots of a MAP_SHARED mapping
 *    of this file, so every event is in the page cache the moment libotf2
 *    encodes it, and survives the death of the process at no cost per
 *    event. When the slots (SEXTANT_RECORD_BUFFER) are full libotf2 flushes
 *    them to LOCATION.evt; chunks are 4 MiB, which libotf2 writes with
 *    write(2) directly rather than through a buffer of its own, and the
 *    slots are recycled after the file has grown by what they held
 *    (checked). The header's state word says, in one aligned store, how
 *    many chunks the .evt file holds and how many slots are in use.
 *
 * Where the event journal lives decides what an event costs. A file on a
 * disk's file system is written back by the kernel, which makes its pages
 * clean and write-protected: the next event on such a page takes a page
 * fault (6.5 us for a first touch and 14 us after a write-back on this
 * project's VM, 0.1-0.2 us per recorded call). So when the launcher
 * (sextant-record, which exports SEXTANT_RECORD_HOST) runs on this rank's
 * host, the file is in /dev/shm - memory that is never written back -
 * reserved whole with fallocate (a full tmpfs is seen here, not as a SIGBUS
 * later), mapped with MAP_POPULATE and its pages written once when the
 * location starts (in MPI_Init for the main thread), so events never
 * fault; dir/journal/LOCATION.evtj is then a symbolic link to it.
 * After the run the launcher moves the files of a crashed run into
 * dir/journal (sextant-record-salvage --adopt), and a rank that finalizes
 * removes its own. Ranks on other hosts, runs without the launcher and
 * SEXTANT_RECORD_JOURNAL=dir keep the file in dir/journal.
 *
 * Memory stays SEXTANT_RECORD_BUFFER per location (shared pages instead
 * of anonymous ones); a recycled slot is zeroed before reuse (one memset
 * per 4 MiB of events). A normal MPI_Finalize removes the journal after the
 * archive is complete.
 *
 * The signal handler catches SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
 * SIGTERM, SIGINT and SIGQUIT, writes its STOP record and gives the signal
 * to the previous action (Open MPI's own handler, or the default), so the
 * program's exit status does not change.
 */
#include "config.h"

#include "sextant-recorder-private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <ucontext.h>
#include <unistd.h>

struct sextant__evt_journal
{
  int fd;
  unsigned char *map;
  size_t map_len;
  sextant__evtj_header *header;
  uint64_t location;
  uint64_t chunk_size;
  uint32_t n_slots;
  uint32_t used;                    /* slots handed to libotf2 in this round */
  uint32_t dirty;                   /* slots that held data before (to zero) */
  uint64_t flushed;                 /* chunks in the .evt file */
  int flushing;                     /* libotf2 wrote the slots in use; the next chunk
                                       request recycles them */
};

static char journal_dir[PATH_MAX];
static int warned_flush;

/* ---- test hooks ---- */

/* SEXTANT_RECORD_TEST_KILL=POINT[:RANK]: the names of the points */
static const char *const kill_points[] = {
  [SEXTANT__KILL_INIT] = "init",
  [SEXTANT__KILL_ZEROING] = "zeroing",
  [SEXTANT__KILL_FLUSHED] = "flushed",
  [SEXTANT__KILL_EVENTS_CLOSED] = "events-closed",
  [SEXTANT__KILL_LOCAL_DEFS] = "local-defs",
  [SEXTANT__KILL_ANCHOR] = "anchor",
};
static sextant__kill_point kill_at = SEXTANT__KILL_NONE;

static void
test_hooks_init (void)
{
  const char *env = getenv ("SEXTANT_RECORD_TEST_KILL");

  if (env == NULL)
    return;
  for (size_t i = 1; i < sizeof kill_points / sizeof kill_points[0]; i++)
    {
      size_t n = strlen (kill_points[i]);

      if (strncmp (env, kill_points[i], n) == 0 &&
          (env[n] == '\0' || (env[n] == ':' && atoi (env + n + 1) == sextant__rec.rank)))
        kill_at = (sextant__kill_point) i;
    }
}

void
sextant__test_kill (sextant__kill_point point)
{
  if (kill_at != point)
    return;
  if (point >= SEXTANT__KILL_EVENTS_CLOSED)
    sleep (1);
  raise (SIGKILL);
}

/* ---- the definition journal ---- */

static void
journal_write (const void *data,
               size_t      len)
{
  const unsigned char *p = data;

  while (len > 0)
    {
      ssize_t n = write (sextant__rec.journal_fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return;                     /* disk full: the journal ends here */
      p += n;
      len -= (size_t) n;
    }
}

/* One record: kind, length, payload, with one write(). */
static void
journal_record (sextant__journal_kind  kind,
                const sextant__buf    *payload)
{
  sextant__buf rec = { 0 };

  if (sextant__rec.journal_fd < 0 || payload->failed)
    return;
  sextant__buf_u32 (&rec, kind);
  sextant__buf_u32 (&rec, (uint32_t) payload->len);
  sextant__buf_bytes (&rec, payload->data, payload->len);
  if (!rec.failed)
    journal_write (rec.data, rec.len);
  free (rec.data);
}

static int
add_module (struct dl_phdr_info *info,
            size_t               size,
            void                *data)
{
  sextant__buf *buf = data;
  char exe[PATH_MAX];
  const char *name = info->dlpi_name;

  if (name == NULL || name[0] == '\0')
    {
      /* the executable */
      ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);

      if (n <= 0)
        return 0;
      exe[n] = '\0';
      name = exe;
    }
  if (name[0] != '/')
    return 0;                       /* the vDSO */
  buf->len = 0;
  sextant__buf_u64 (buf, (uint64_t) info->dlpi_addr);
  sextant__buf_str (buf, name);
  journal_record (SEXTANT__J_MODULE, buf);
  return 0;
}

int
sextant__journal_open (void)
{
  char path[PATH_MAX];
  sextant__buf buf = { 0 };

  sextant__rec.journal_fd = -1;
  if (snprintf (journal_dir, sizeof journal_dir, "%s/journal", sextant__rec.dir) >= (int) sizeof journal_dir ||
      snprintf (path, sizeof path, "%s/rank-%d.defs", journal_dir, sextant__rec.rank) >= (int) sizeof path)
    return -1;
  if ((mkdir (journal_dir, 0777) != 0 && errno != EEXIST) ||
      (sextant__rec.journal_fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666)) < 0)
    {
      sextant__warn ("cannot write the crash journal %s (%s); a crash will lose this rank's trace",
                     path, strerror (errno));
      sextant__rec.journal_fd = -1;
      return -1;
    }
  test_hooks_init ();
  sextant__buf_u32 (&buf, SEXTANT__JOURNAL_VERSION);
  sextant__buf_u32 (&buf, (uint32_t) sextant__rec.rank);
  sextant__buf_u32 (&buf, (uint32_t) sextant__rec.size);
  sextant__buf_u32 (&buf, (uint32_t) sextant__rec.pid);
  sextant__buf_u32 (&buf, (uint32_t) sextant__rec.clock_mode);
  sextant__buf_u64 (&buf, SEXTANT__EVENT_CHUNK);
  sextant__buf_u64 (&buf, sextant__rec.buffer_bytes);
  sextant__buf_str (&buf, sextant__rec.hostname);
  journal_record (SEXTANT__J_HEADER, &buf);
  /* where the code is, for the call site of a crash */
  dl_iterate_phdr (add_module, &buf);
  free (buf.data);
  return 0;
}

void
sextant__journal_def (const sextant__defs   *defs,
                      sextant__journal_kind  kind,
                      uint32_t               id)
{
  sextant__buf buf = { 0 };

  if (defs != &sextant__rec.defs || sextant__rec.journal_fd < 0)
    return;
  sextant__buf_u32 (&buf, id);
  switch (kind)
    {
    case SEXTANT__J_STRING:
      sextant__buf_str (&buf, defs->strings[id]);
      break;
    case SEXTANT__J_REGION:
      sextant__buf_bytes (&buf, &defs->regions[id], sizeof defs->regions[id]);
      break;
    case SEXTANT__J_SCL:
      sextant__buf_bytes (&buf, &defs->scls[id], sizeof defs->scls[id]);
      break;
    case SEXTANT__J_CONTEXT:
      sextant__buf_bytes (&buf, &defs->contexts[id], sizeof defs->contexts[id]);
      break;
    case SEXTANT__J_COMM:
      {
        const sextant__comm_def *c = &defs->comms[id];

        sextant__buf_u32 (&buf, c->kind);
        sextant__buf_u32 (&buf, c->name);
        sextant__buf_u32 (&buf, c->parent);
        sextant__buf_u32 (&buf, c->seq);
        sextant__buf_u32 (&buf, c->min_rank);
        sextant__buf_u32 (&buf, c->n_members);
        sextant__buf_bytes (&buf, c->members, c->n_members * sizeof *c->members);
      }
      break;
    case SEXTANT__J_GROUP:
      sextant__buf_u32 (&buf, defs->groups[id].n_members);
      sextant__buf_bytes (&buf, defs->groups[id].members,
                          defs->groups[id].n_members * sizeof *defs->groups[id].members);
      break;
    case SEXTANT__J_WIN:
      sextant__buf_bytes (&buf, &defs->wins[id], sizeof defs->wins[id]);
      break;
    default:
      free (buf.data);
      return;
    }
  journal_record (kind, &buf);
  free (buf.data);
}

void
sextant__journal_clock (void)
{
  sextant__buf buf = { 0 };
  double deviation = sextant__rec.clock_init.deviation;

  sextant__buf_u64 (&buf, sextant__rec.clock_init.time);
  sextant__buf_u64 (&buf, (uint64_t) sextant__rec.clock_init.offset);
  sextant__buf_bytes (&buf, &deviation, sizeof deviation);
  sextant__buf_u64 (&buf, sextant__rec.t_first);
  sextant__buf_u64 (&buf, sextant__rec.monotonic_at_init);
  sextant__buf_u64 (&buf, sextant__rec.realtime_at_init);
  journal_record (SEXTANT__J_CLOCK, &buf);
  free (buf.data);
}

void
sextant__journal_location (const sextant__thread *t)
{
  sextant__buf buf = { 0 };

  sextant__buf_u64 (&buf, t->location);
  sextant__buf_str (&buf, t->name);
  journal_record (SEXTANT__J_LOCATION, &buf);
  free (buf.data);
}

void
sextant__journal_stop (int32_t   cause,
                       int32_t   code,
                       uintptr_t address,
                       uintptr_t pc)
{
  struct
  {
    uint32_t kind;
    uint32_t len;
    sextant__stop_record stop;
  } rec;
  struct timespec ts;
  sextant__thread *t = sextant__tls;
  int saved_errno = errno;

  /* a process forked after MPI_Init is not this rank; a few records at most */
  if (sextant__rec.journal_fd < 0 || getpid () != sextant__rec.pid ||
      atomic_fetch_add (&sextant__rec.stops, 1) >= 8)
    {
      errno = saved_errno;
      return;
    }
  memset (&rec, 0, sizeof rec);
  clock_gettime (CLOCK_MONOTONIC, &ts);
  rec.kind = SEXTANT__J_STOP;
  rec.len = sizeof rec.stop;
  rec.stop.cause = cause;
  rec.stop.code = code;
  rec.stop.address = address;
  rec.stop.pc = pc;
  rec.stop.time = (uint64_t) ts.tv_sec * UINT64_C (1000000000) + (uint64_t) ts.tv_nsec;
  rec.stop.location = t != NULL ? t->location : UINT64_MAX;
  journal_write (&rec, sizeof rec);
  errno = saved_errno;
}

/* ---- signals ---- */

static const int caught_signals[] = {
  SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGQUIT,
};
#define N_CAUGHT (sizeof caught_signals / sizeof caught_signals[0])

static struct sigaction previous[N_CAUGHT];
static int installed[N_CAUGHT];

static void
on_signal (int        sig,
           siginfo_t *info,
           void      *context)
{
  uintptr_t pc = 0;

#if defined(__x86_64__)
  if (context != NULL)
    pc = (uintptr_t) ((ucontext_t *) context)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  if (context != NULL)
    pc = (uintptr_t) ((ucontext_t *) context)->uc_mcontext.pc;
#endif
  sextant__journal_stop (sig, info != NULL ? info->si_code : 0,
                         info != NULL ? (uintptr_t) info->si_addr : 0, pc);
  /* give it to the previous action: while this handler runs the signal is
   * blocked, so the raise is delivered when it returns (a fault that is not
   * raised happens again when the instruction is retried) */
  for (size_t i = 0; i < N_CAUGHT; i++)
    if (caught_signals[i] == sig)
      {
        sigaction (sig, &previous[i], NULL);
        installed[i] = 0;
      }
  if (info == NULL || info->si_code <= 0 || (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE &&
                                             sig != SIGILL))
    raise (sig);
}

void
sextant__journal_catch_signals (void)
{
  struct sigaction action;

  if (sextant__rec.journal_fd < 0)
    return;
  memset (&action, 0, sizeof action);
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset (&action.sa_mask);
  for (size_t i = 0; i < N_CAUGHT; i++)
    {
      struct sigaction old;

      if (sigaction (caught_signals[i], NULL, &old) != 0 || (!(old.sa_flags & SA_SIGINFO) &&
                                                             old.sa_handler == SIG_IGN))
        continue;                   /* an ignored signal stays ignored */
      if (sigaction (caught_signals[i], &action, &previous[i]) == 0)
        installed[i] = 1;
    }
}

void
sextant__journal_release_signals (void)
{
  for (size_t i = 0; i < N_CAUGHT; i++)
    if (installed[i])
      {
        struct sigaction now;

        /* only if it is still ours: the program may have installed its own */
        if (sigaction (caught_signals[i], NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) &&
            now.sa_sigaction == on_signal)
          sigaction (caught_signals[i], &previous[i], NULL);
        installed[i] = 0;
      }
}

void
sextant__journal_remove (void)
{
  char path[PATH_MAX];
  DIR *dir;
  struct dirent *entry;
  char mine[64];

  if (sextant__rec.journal_fd >= 0)
    close (sextant__rec.journal_fd);
  sextant__rec.journal_fd = -1;
  if (journal_dir[0] == '\0' || (dir = opendir (journal_dir)) == NULL)
    return;
  /* this rank's files: rank-R.defs and the locations (thread << 32 | R) */
  snprintf (mine, sizeof mine, "rank-%d.defs", sextant__rec.rank);
  while ((entry = readdir (dir)) != NULL)
    {
      uint64_t location;
      char *end;

      if (strcmp (entry->d_name, mine) != 0)
        {
          location = strtoull (entry->d_name, &end, 10);
          if (end == entry->d_name || strcmp (end, ".evtj") != 0 ||
              (uint32_t) location != (uint32_t) sextant__rec.rank)
            continue;
        }
      if (snprintf (path, sizeof path, "%s/%s", journal_dir, entry->d_name) < (int) sizeof path)
        {
          char target[PATH_MAX];
          ssize_t n = readlink (path, target, sizeof target - 1);

          /* an event journal in memory: the file, then the link */
          if (n > 0)
            {
              target[n] = '\0';
              unlink (target);
            }
          unlink (path);
        }
    }
  closedir (dir);
  rmdir (journal_dir);              /* the last rank to finish removes it */
}

/* ---- event chunks ---- */

/* SEXTANT_RECORD_JOURNAL: "0" none, "dir" the file in dir/journal, else
 * (the default) in memory when the launcher runs on this host. */
static int
journal_mode (void)
{
  const char *env = getenv ("SEXTANT_RECORD_JOURNAL");
  const char *host = getenv ("SEXTANT_RECORD_HOST");

  if (env != NULL && strcmp (env, "0") == 0)
    return 0;
  if ((env != NULL && strcmp (env, "dir") == 0) || host == NULL ||
      strcmp (host, sextant__rec.hostname) != 0)
    return 1;
  return 2;
}

/* The event journal's file in SEXTANT__EVTJ_SHM_DIR, @len bytes reserved,
 * with the path of the link to it in @link; -1 (nothing left behind) if
 * memory or the link cannot be had. */
static int
open_in_memory (uint64_t    location,
                size_t      len,
                const char *link,
                char       *target,
                size_t      target_size)
{
  struct timespec ts;
  int fd, err;

  clock_gettime (CLOCK_REALTIME, &ts);
  if (snprintf (target, target_size, "%s/" SEXTANT__EVTJ_SHM_PREFIX "%ld-%" PRIu64 "-%" PRIu64 ".evtj",
                SEXTANT__EVTJ_SHM_DIR, (long) getpid (),
                (uint64_t) ts.tv_sec * UINT64_C (1000000000) + (uint64_t) ts.tv_nsec, location)
      >= (int) target_size)
    return -1;
  fd = open (target, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return -1;
  /* every page now: a write to a hole of a full tmpfs would be a SIGBUS */
  if ((err = posix_fallocate (fd, 0, (off_t) len)) != 0)
    {
      sextant__warn ("no room for the event journal in %s (%s); it goes to %s, slower",
                     SEXTANT__EVTJ_SHM_DIR, strerror (err), link);
      close (fd);
      unlink (target);
      return -1;
    }
  unlink (link);                    /* a stale one */
  if (symlink (target, link) != 0)
    {
      close (fd);
      unlink (target);
      return -1;
    }
  return fd;
}

/* Writes every page of @len bytes at @p once, ahead of the events: mapped
 * (MAP_POPULATE) is not enough on this project's VM, where the first store
 * to a page costs 25 us even without a page fault. Pages in memory are
 * never written back, so they stay writable for the whole run. All at the
 * location's start, where a stall is harmless (MPI_Init), rather than at a
 * chunk switch, which would show as one long MPI call in the trace. */
static void
write_ahead (unsigned char *p,
             size_t         len)
{
  for (size_t off = 0; off < len; off += 4096)
    ((volatile unsigned char *) p)[off] = 0;
}

sextant__evt_journal *
sextant__evt_journal_new (uint64_t location,
                          uint64_t chunk_size,
                          uint64_t budget)
{
  sextant__evt_journal *j;
  char path[PATH_MAX], target[PATH_MAX];
  uint64_t n_slots = budget / chunk_size;
  int mode;

  if (sextant__rec.journal_fd < 0 || journal_dir[0] == '\0')
    return NULL;
  /* SEXTANT_RECORD_JOURNAL=0: events in anonymous memory, lost when the
   * process dies */
  if ((mode = journal_mode ()) == 0)
    return NULL;
  if (n_slots < 1)
    n_slots = 1;
  if (n_slots > 0xffff ||
      snprintf (path, sizeof path, "%s/%" PRIu64 ".evtj", journal_dir, location) >= (int) sizeof path)
    return NULL;
  j = calloc (1, sizeof *j);
  if (j == NULL)
    return NULL;
  j->location = location;
  j->chunk_size = chunk_size;
  j->n_slots = (uint32_t) n_slots;
  j->map_len = SEXTANT__EVTJ_HEADER + n_slots * chunk_size;
  j->fd = mode == 2 ? open_in_memory (location, j->map_len, path, target, sizeof target) : -1;
  if (j->fd >= 0)
    {
      j->map = mmap (NULL, j->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, j->fd, 0);
      if (j->map == MAP_FAILED)
        {
          close (j->fd);
          unlink (path);
          unlink (target);
          j->fd = -1;
        }
      else
        write_ahead (j->map, j->map_len);
    }
  if (j->fd < 0)
    {
      j->fd = open (path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (j->fd < 0 || ftruncate (j->fd, (off_t) j->map_len) != 0 ||
          (j->map = mmap (NULL, j->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, j->fd, 0)) == MAP_FAILED)
        {
          sextant__warn ("cannot map the event journal %s (%s); a crash will lose this location's last events",
                         path, strerror (errno));
          if (j->fd >= 0)
            {
              close (j->fd);
              unlink (path);
            }
          free (j);
          return NULL;
        }
    }
  j->header = (sextant__evtj_header *) j->map;
  memcpy (j->header->magic, SEXTANT__EVTJ_MAGIC, sizeof j->header->magic);
  j->header->version = SEXTANT__JOURNAL_VERSION;
  j->header->n_slots = j->n_slots;
  j->header->chunk_size = chunk_size;
  j->header->location = location;
  atomic_store (&j->header->state, 0);
  return j;
}

/* libotf2 wrote every slot in use, whole, to the .evt file and now asks
 * for a chunk again: check that the file has them and recycle the slots.
 * (Not earlier: the last flush before close writes its last chunk in part,
 * through libotf2's own file buffer.) */
static void
recycle (sextant__evt_journal *j)
{
  char path[PATH_MAX];
  struct stat st;
  uint64_t expected = (j->flushed + j->used) * j->chunk_size;

  snprintf (path, sizeof path, "%s/traces/%" PRIu64 ".evt", sextant__rec.dir, j->location);
  if ((stat (path, &st) != 0 || (uint64_t) st.st_size < expected) && !warned_flush)
    {
      warned_flush = 1;
      sextant__warn ("%s holds %lld bytes after a flush, expected %" PRIu64
                     "; a crash may lose up to 4 MiB of events before the last flush",
                     path, (long long) st.st_size, expected);
    }
  j->flushed += j->used;
  if (j->used > j->dirty)
    j->dirty = j->used;
  j->used = 0;
  j->flushing = 0;
  /* say so before a slot is zeroed for the next chunk: a kill while it is
   * zeroed must find the chunks in the .evt file, not in the slots */
  atomic_store_explicit (&j->header->state, j->flushed << 16, memory_order_release);
}

void *
sextant__evt_journal_chunk (sextant__evt_journal *j)
{
  unsigned char *slot;

  if (j->flushing)
    recycle (j);
  if (j->used == j->n_slots)
    return NULL;
  slot = j->map + SEXTANT__EVTJ_HEADER + j->used * j->chunk_size;
  /* a slot of an earlier round: zero it, so that its end reads as the end
   * of the chunk (OTF2_BUFFER_END_OF_CHUNK is 0) */
  if (j->used < j->dirty)
    {
      if (SEXTANT__UNLIKELY (kill_at == SEXTANT__KILL_ZEROING))
        {
          memset (slot, 0, j->chunk_size / 2);
          raise (SIGKILL);
        }
      memset (slot, 0, j->chunk_size);
    }
  j->used++;
  atomic_store_explicit (&j->header->state, (j->flushed << 16) | j->used, memory_order_release);
  return slot;
}

void
sextant__evt_journal_release (sextant__evt_journal *j,
                              int                   final)
{
  if (final)
    {
      munmap (j->map, j->map_len);
      close (j->fd);
      free (j);
      return;
    }
  j->flushing = 1;
  sextant__test_kill (SEXTANT__KILL_FLUSHED);
}
