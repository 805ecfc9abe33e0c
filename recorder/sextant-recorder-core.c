/*
 * sextant-recorder-core.c - the recorder's life: start, threads, events, end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Start (MPI_Init/MPI_Init_thread wrapper -> recorder_start): rank 0 reads
 * the environment and prepares the archive directory, everyone learns its
 * decision; the OTF2 archive is opened collectively with libotf2's MPI
 * collective callbacks over a private duplicate of MPI_COMM_WORLD (calling
 * PMPI, so nothing the recorder does is recorded); the clocks are measured;
 * the calling thread becomes location (0 << 32) | rank and gets the
 * MPI_Init visit.
 *
 * Events: the wrappers call sextant__begin()/sextant__end() around the
 * PMPI call and write their MPI records in between with the thread's own
 * OTF2 event writer. Nothing is shared between threads on this path but
 * reads of sextant__rec and its handle tables (and the striped request
 * table for non-blocking calls); a thread's first event registers it (under
 * the lock). Event memory per location is bounded by SEXTANT_RECORD_BUFFER:
 * our memory callbacks refuse a chunk beyond it, which makes libotf2 flush
 * the location's chunks to its .evt file (a BUFFER_FLUSH record marks the
 * time spent) and start over. The chunks live in the location's crash
 * journal (sextant-recorder-journal.c), a shared file mapping, so what was
 * recorded survives a kill of the process.
 *
 * End: the MPI_Finalize wrapper -> recorder_finish: clocks again, then
 * sextant__write_definitions() (sextant-recorder-unify.c) writes the rest
 * and closes the archive, all before PMPI_Finalize, and removes the crash
 * journal. A process that leaves without MPI_Finalize (exit(), return from
 * main, MPI_Abort) or is killed leaves the journal, with a STOP record
 * saying why (from an atexit handler, the MPI_Abort wrapper or a signal
 * handler); sextant-record-salvage rebuilds an archive from it.
 *
 * Errors never reach the host program: they are reported once on stderr
 * ("sextant-record: ...") and recording stops, on one thread (its writer
 * failed) or everywhere (the start failed on some rank).
 */
#include "config.h"

#include "sextant-recorder-private.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <otf2/OTF2_Pthread_Locks.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define OTF2_MPI_USE_PMPI
#define OTF2_MPI_UINT64_T MPI_UINT64_T
#define OTF2_MPI_INT64_T MPI_INT64_T
#include <otf2/OTF2_MPI_Collectives.h>

sextant__recorder sextant__rec = {
  .lock = PTHREAD_MUTEX_INITIALIZER,
  .comm = MPI_COMM_NULL,
  .world_group = MPI_GROUP_NULL,
  .journal_fd = -1,
};

__thread sextant__thread *sextant__tls;

static const char *const region_names[SEXTANT__N_MPI] = {
#define SEXTANT__MPI_NAME(id, name, role) [SEXTANT__MPI_##id] = name,
  SEXTANT__MPI_FUNCTIONS (SEXTANT__MPI_NAME)
#undef SEXTANT__MPI_NAME
};

static const OTF2_RegionRole region_roles[SEXTANT__N_MPI] = {
#define SEXTANT__MPI_ROLE(id, name, role) [SEXTANT__MPI_##id] = OTF2_REGION_ROLE_##role,
  SEXTANT__MPI_FUNCTIONS (SEXTANT__MPI_ROLE)
#undef SEXTANT__MPI_ROLE
};

/* ---- reporting ---- */

void
sextant__warn (const char *format,
               ...)
{
  char line[1024];
  va_list args;
  int n;

  n = snprintf (line, sizeof line, "sextant-record: rank %d: ", sextant__rec.rank);
  va_start (args, format);
  vsnprintf (line + n, sizeof line - (size_t) n, format, args);
  va_end (args);
  /* one write, so that lines of different ranks do not interleave */
  fprintf (stderr, "%s\n", line);
  fflush (stderr);
}

void
sextant__warn_otf2 (OTF2_ErrorCode  status,
                    const char     *what)
{
  sextant__warn ("libotf2: %s: %s (%s)", what, OTF2_Error_GetName (status),
                 OTF2_Error_GetDescription (status));
}

/* libotf2's own error messages, which it would print with its own prefix */
static OTF2_ErrorCode
otf2_error_callback (void           *user_data,
                     const char     *file,
                     uint64_t        line,
                     const char     *function,
                     OTF2_ErrorCode  code,
                     const char     *format,
                     va_list         args)
{
  char message[512] = "";

  if (format != NULL)
    vsnprintf (message, sizeof message, format, args);
  if (getenv ("SEXTANT_RECORD_VERBOSE") != NULL)
    sextant__warn ("libotf2: %s: %s", OTF2_Error_GetName (code), message);
  return code;
}

const char *
sextant_recorder_strerror (int err)
{
  switch (err)
    {
    case SEXTANT_RECORDER_OK: return "success";
    case SEXTANT_RECORDER_ERR_DISABLED: return "recording is disabled (SEXTANT_RECORD=0)";
    case SEXTANT_RECORDER_ERR_STATE: return "MPI is not initialised, or the recorder was started before";
    case SEXTANT_RECORDER_ERR_IO: return "the archive directory cannot be used";
    case SEXTANT_RECORDER_ERR_OTF2: return "libotf2 failed";
    case SEXTANT_RECORDER_ERR_NOMEM: return "out of memory";
    case SEXTANT_RECORDER_ERR_MPI: return "an MPI call of the recorder failed";
    case SEXTANT_RECORDER_ERR_ARG: return "invalid SEXTANT_RECORD_* setting";
    default: return "unknown sextant-record error";
    }
}

/* ---- libotf2 callbacks ---- */

static OTF2_FlushType
pre_flush (void             *user_data,
           OTF2_FileType     file_type,
           OTF2_LocationRef  location,
           void             *caller_data,
           bool              final)
{
  return OTF2_FLUSH;                /* always write: dropping events would lose messages' halves */
}

static OTF2_TimeStamp
post_flush (void             *user_data,
            OTF2_FileType     file_type,
            OTF2_LocationRef  location)
{
  return sextant__now ();           /* libotf2 writes a BUFFER_FLUSH record ending now */
}

const OTF2_FlushCallbacks sextant__flush_callbacks = {
  .otf2_pre_flush = pre_flush,
  .otf2_post_flush = post_flush,
};

/* The chunks of one libotf2 buffer. Event buffers get at most
 * sextant__rec.buffer_bytes, in the location's crash journal (a file
 * mapping, sextant-recorder-journal.c) or, if that cannot be made, in
 * anonymous memory; a refused chunk makes libotf2 flush. Called by the
 * buffer's own thread (or at close), never concurrently for one buffer, so
 * no lock.
 *
 * Either way a chunk's pages are made present ahead (MAP_POPULATE) and the
 * chunk is kept after a flush for the next fill: a page touched for the
 * first time costs a page fault, 15 us on this project's VM - 150 ns per
 * recorded call at 100 calls per 4 KiB page, more than everything else the
 * recorder does - and populating it ahead costs 1-1.5 us. */
typedef struct
{
  void **chunks;
  size_t n;                         /* mapped */
  size_t used;                      /* handed to libotf2 since the last flush */
  size_t cap;
  size_t size;                      /* bytes per chunk */
  sextant__evt_journal *journal;
  int journal_tried;
} chunk_pool;

static void *
memory_allocate (void             *user_data,
                 OTF2_FileType     file_type,
                 OTF2_LocationRef  location,
                 void            **per_buffer,
                 uint64_t          chunk_size)
{
  chunk_pool *pool = *per_buffer;
  void *chunk;

  if (pool == NULL)
    {
      pool = calloc (1, sizeof *pool);
      if (pool == NULL)
        return NULL;
      pool->size = chunk_size;
      *per_buffer = pool;
    }
  if (file_type == OTF2_FILETYPE_EVENTS && !pool->journal_tried)
    {
      pool->journal_tried = 1;
      pool->journal = sextant__evt_journal_new (location, chunk_size, sextant__rec.buffer_bytes);
    }
  if (pool->journal != NULL)
    return sextant__evt_journal_chunk (pool->journal);
  if (file_type == OTF2_FILETYPE_EVENTS && pool->used > 0 &&
      (pool->used + 1) * chunk_size > sextant__rec.buffer_bytes)
    return NULL;
  /* libotf2 asks one buffer for chunks of one size */
  if (chunk_size != pool->size)
    return NULL;
  if (pool->used < pool->n)
    return pool->chunks[pool->used++];
  if (sextant__grow ((void **) &pool->chunks, &pool->cap, pool->n + 1, sizeof *pool->chunks) != 0)
    return NULL;
  chunk = mmap (NULL, chunk_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (chunk == MAP_FAILED)
    return NULL;
  pool->chunks[pool->n++] = chunk;
  pool->used = pool->n;
  return chunk;
}

static void
memory_free_all (void             *user_data,
                 OTF2_FileType     file_type,
                 OTF2_LocationRef  location,
                 void            **per_buffer,
                 bool              final)
{
  chunk_pool *pool = *per_buffer;

  if (pool == NULL)
    return;
  if (pool->journal != NULL)
    {
      sextant__evt_journal_release (pool->journal, final);
      if (final)
        pool->journal = NULL;
    }
  pool->used = 0;
  if (final)
    {
      for (size_t i = 0; i < pool->n; i++)
        munmap (pool->chunks[i], pool->size);
      free (pool->chunks);
      free (pool);
      *per_buffer = NULL;
    }
}

static const OTF2_MemoryCallbacks memory_callbacks = {
  .otf2_allocate = memory_allocate,
  .otf2_free_all = memory_free_all,
};

/* ---- threads ---- */

static void
thread_stack_bounds (sextant__thread *t)
{
  pthread_attr_t attr;
  void *addr = NULL;
  size_t size = 0;

  if (pthread_getattr_np (pthread_self (), &attr) != 0)
    return;
  if (pthread_attr_getstack (&attr, &addr, &size) == 0)
    {
      t->stack_lo = (uintptr_t) addr;
      t->stack_hi = (uintptr_t) addr + size;
    }
  pthread_attr_destroy (&attr);
}

/* A location per live thread: when a thread that registered ends, its
 * location (event writer, caches, clock) is parked here, and the next new
 * thread takes it instead of a location of its own. A program that starts
 * 10,000 short-lived threads records as many locations as it had threads
 * alive at once. Only plain threads ("Thread k") are parked: a thread that
 * named itself (onecoll's Broadcaster) keeps its location. Under
 * sextant__rec.lock. */
static sextant__thread **parked;
static size_t n_parked, cap_parked;
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;

static void
thread_exit (void *data)
{
  sextant__thread *t = data;

  pthread_mutex_lock (&sextant__rec.lock);
  /* after the end the threads are freed: leave them alone */
  if (atomic_load (&sextant__rec.state) == SEXTANT__STATE_ACTIVE && t == sextant__tls && t->index != 0 &&
      strncmp (t->name, "Thread ", 7) == 0)
    {
      if (n_parked == cap_parked)
        {
          size_t cap = cap_parked ? 2 * cap_parked : 16;
          sextant__thread **grown = realloc (parked, cap * sizeof *grown);

          if (grown != NULL)
            {
              parked = grown;
              cap_parked = cap;
            }
        }
      if (n_parked < cap_parked)
        parked[n_parked++] = t;
    }
  sextant__tls = NULL;              /* an MPI call from a later destructor registers again */
  pthread_mutex_unlock (&sextant__rec.lock);
}

static void
thread_key_create (void)
{
  if (pthread_key_create (&thread_key, thread_exit) != 0)
    sextant__warn ("cannot watch threads end; every thread gets a location of its own");
}

sextant__thread *
sextant__thread_register (void)
{
  sextant__thread *t;

  pthread_once (&thread_key_once, thread_key_create);
  pthread_mutex_lock (&sextant__rec.lock);
  if (atomic_load (&sextant__rec.state) != SEXTANT__STATE_ACTIVE || sextant__tls != NULL)
    {
      pthread_mutex_unlock (&sextant__rec.lock);
      return sextant__tls;
    }
  if (n_parked > 0)
    {
      /* the location of a thread that ended: its records follow that
       * thread's, on the same clock */
      t = parked[--n_parked];
      thread_stack_bounds (t);
      sextant__tls = t;
      pthread_setspecific (thread_key, t);
      pthread_mutex_unlock (&sextant__rec.lock);
      return t;
    }
  t = calloc (1, sizeof *t);
  if (t == NULL)
    {
      pthread_mutex_unlock (&sextant__rec.lock);
      return NULL;
    }
  t->index = sextant__rec.n_threads++;
  t->location = ((uint64_t) t->index << 32) | (uint32_t) sextant__rec.rank;
  if (t->index == 0)
    snprintf (t->name, sizeof t->name, "Master thread");
  else
    snprintf (t->name, sizeof t->name, "Thread %u", t->index);
  /* request ids are unique per process, so that a completion on another
   * thread never removes someone else's request */
  t->next_request = ((uint64_t) t->index << 40) + 1;
  t->next_matching = 1;
  thread_stack_bounds (t);
  t->attrs = OTF2_AttributeList_New ();
  t->evt = OTF2_Archive_GetEvtWriter (sextant__rec.archive, t->location);
  t->writer = t->evt;
  if (t->evt == NULL || t->attrs == NULL)
    {
      sextant__warn ("cannot record thread %u: libotf2 gave no event writer", t->index);
      t->writer = NULL;
    }
  t->next = sextant__rec.threads;
  sextant__rec.threads = t;
  sextant__tls = t;
  if (t->index != 0)
    pthread_setspecific (thread_key, t);
  sextant__journal_location (t);
  pthread_mutex_unlock (&sextant__rec.lock);
  return t;
}

void
sextant__thread_fail (sextant__thread *t,
                      OTF2_ErrorCode   status,
                      const char      *what)
{
  sextant__warn ("writing the events of thread %u failed (%s: %s); this thread is no longer recorded",
                 t->index, what, OTF2_Error_GetDescription (status));
  /* the writer stays in the archive; sextant__write_definitions closes it */
  t->writer = NULL;
}

void
sextant__thread_name (const char *name)
{
  sextant__thread *t = sextant__self ();

  if (t != NULL && name != NULL)
    {
      pthread_mutex_lock (&sextant__rec.lock);
      snprintf (t->name, sizeof t->name, "%s", name);
      sextant__journal_location (t);
      pthread_mutex_unlock (&sextant__rec.lock);
    }
}

/* ---- regions and events ---- */

uint32_t
sextant__define_region (const char     *name,
                        OTF2_RegionRole role,
                        OTF2_Paradigm   paradigm,
                        const char     *file,
                        uint32_t        line)
{
  sextant__region_def def = { 0 };
  uint32_t id;

  pthread_mutex_lock (&sextant__rec.lock);
  def.name = sextant__def_string (&sextant__rec.defs, name);
  def.role = role;
  def.paradigm = paradigm;
  def.file = file != NULL ? sextant__def_string (&sextant__rec.defs, file) : SEXTANT__UNDEF;
  def.begin = line;
  id = def.name != SEXTANT__UNDEF ? sextant__def_region (&sextant__rec.defs, &def) : SEXTANT__UNDEF;
  pthread_mutex_unlock (&sextant__rec.lock);
  return id;
}

uint32_t
sextant__mpi_region (sextant__mpi_function function)
{
  uint32_t id = atomic_load_explicit (&sextant__rec.mpi_regions[function], memory_order_acquire);

  if (SEXTANT__LIKELY (id != 0))
    return id - 1;
  /* first use in this process: define it (a race defines it twice, which
   * gives the same id) */
  id = sextant__define_region (region_names[function], region_roles[function], OTF2_PARADIGM_MPI,
                               NULL, 0);
  if (id != SEXTANT__UNDEF)
    atomic_store_explicit (&sextant__rec.mpi_regions[function], id + 1, memory_order_release);
  return id;
}

struct sextant__scl_slot
{
  const char *file;
  int line;
  uint32_t scl;
};

#define SCL_SLOTS 64

uint32_t
sextant__scl_cached (sextant__thread *t,
                     const char      *file,
                     int              line,
                     void            *ra)
{
  size_t i = (((uintptr_t) file >> 3) ^ (size_t) line * 31u) & (SCL_SLOTS - 1);
  uint32_t scl = SEXTANT__UNDEF;

  if (t->scls == NULL && (t->scls = calloc (SCL_SLOTS, sizeof *t->scls)) == NULL)
    return SEXTANT__UNDEF;
  if (SEXTANT__LIKELY (t->scls[i].file == file && t->scls[i].line == line))
    return t->scls[i].scl;
  if (file == NULL || line <= 0)
    return SEXTANT__UNDEF;
  if (ra != NULL)
    {
      uint32_t found = sextant__callsite_scl (t, ra);

      pthread_mutex_lock (&sextant__rec.lock);
      if (found < sextant__rec.defs.n_scls && sextant__rec.defs.scls[found].line == (uint32_t) line)
        scl = found;
      pthread_mutex_unlock (&sextant__rec.lock);
    }
  if (scl == SEXTANT__UNDEF)
    {
      pthread_mutex_lock (&sextant__rec.lock);
      {
        uint32_t file_id = sextant__def_string (&sextant__rec.defs, file);

        if (file_id != SEXTANT__UNDEF)
          scl = sextant__def_scl (&sextant__rec.defs, file_id, (uint32_t) line);
      }
      pthread_mutex_unlock (&sextant__rec.lock);
    }
  t->scls[i].file = file;
  t->scls[i].line = line;
  t->scls[i].scl = scl;
  return scl;
}

static void
add_callsite (sextant__thread *t,
              void            *frame,
              void            *ra)
{
  uint32_t scl, context;
  OTF2_AttributeValue value;

  sextant__callsite (t, frame, ra, &scl, &context);
  /* OTF2_AttributeList_Add<Type>Ref would only call this one */
  if (scl != SEXTANT__UNDEF)
    {
      value.sourceCodeLocationRef = scl;
      OTF2_AttributeList_AddAttribute (t->attrs, SEXTANT__ATTR_CALLSITE,
                                       OTF2_TYPE_SOURCE_CODE_LOCATION, value);
    }
  if (context != SEXTANT__UNDEF)
    {
      value.callingContextRef = context;
      OTF2_AttributeList_AddAttribute (t->attrs, SEXTANT__ATTR_CONTEXT, OTF2_TYPE_CALLING_CONTEXT, value);
    }
}

int
sextant__begin (sextant__call         *call,
                sextant__mpi_function  function,
                void                  *frame,
                void                  *ra)
{
  sextant__thread *t = sextant__self ();

  if (t == NULL || t->busy || t->mute)
    return 0;
  t->busy = 1;
  call->t = t;
  call->region = sextant__mpi_region (function);
  add_callsite (t, frame, ra);
  call->enter = sextant__thread_now (t);
  SEXTANT__WRITE (t, OTF2_EvtWriter_Enter (t->writer, t->attrs, call->enter, call->region), "ENTER");
  return 1;
}

uint64_t
sextant__end (sextant__call *call)
{
  uint64_t now = sextant__thread_now (call->t);

  SEXTANT__WRITE (call->t, OTF2_EvtWriter_Leave (call->t->writer, NULL, now, call->region), "LEAVE");
  call->t->busy = 0;
  return now;
}

/* ---- options ---- */

static int
parse_int (const char *name,
           long        min,
           long        max,
           long        fallback,
           long       *out)
{
  const char *value = getenv (name);
  char *end;
  long v;

  *out = fallback;
  if (value == NULL || value[0] == '\0')
    return 0;
  errno = 0;
  v = strtol (value, &end, 10);
  if (errno != 0 || *end != '\0' || v < min || v > max)
    {
      sextant__warn ("%s=%s is not a number in [%ld, %ld]", name, value, min, max);
      return -1;
    }
  *out = v;
  return 0;
}

static int
env_disabled (void)
{
  const char *value = getenv ("SEXTANT_RECORD");

  return value != NULL && (strcmp (value, "0") == 0 || strcasecmp (value, "off") == 0 ||
                           strcasecmp (value, "no") == 0 || strcasecmp (value, "false") == 0);
}

/* mkdir -p */
static int
make_dirs (const char *path)
{
  char buf[PATH_MAX];
  size_t len = strlen (path);

  if (len == 0 || len >= sizeof buf)
    return -1;
  memcpy (buf, path, len + 1);
  for (char *p = buf + 1; ; p++)
    if (*p == '/' || *p == '\0')
      {
        char c = *p;

        *p = '\0';
        if (mkdir (buf, 0777) != 0 && errno != EEXIST)
          return -1;
        *p = c;
        if (c == '\0')
          break;
      }
  return 0;
}

/* What rank 0 decides and broadcasts. */
typedef struct
{
  int status;
  int callpath;
  int buffer_mib;
  int clock_mode;
  int record_polls;
  int verbose;
  char dir[PATH_MAX];
} setup_message;

/* Whether @dir/journal holds files (a rank that finalizes removes its
 * own, and the last one the directory). */
static int
holds_journal (const char *dir)
{
  char path[PATH_MAX];
  struct dirent *entry;
  DIR *d;
  int found = 0;

  if (snprintf (path, sizeof path, "%s/journal", dir) >= (int) sizeof path || (d = opendir (path)) == NULL)
    return 0;
  while (!found && (entry = readdir (d)) != NULL)
    found = strcmp (entry->d_name, ".") != 0 && strcmp (entry->d_name, "..") != 0;
  closedir (d);
  return found;
}

static void
rank0_setup (setup_message *msg)
{
  const char *dir = getenv ("SEXTANT_RECORD_DIR");
  const char *clock = getenv ("SEXTANT_RECORD_CLOCK");
  char path[PATH_MAX];
  char cwd[PATH_MAX];
  long callpath, buffer, polls, verbose;
  struct stat st;
  int n;

  msg->status = SEXTANT_RECORDER_OK;
  if (env_disabled ())
    {
      msg->status = SEXTANT_RECORDER_ERR_DISABLED;
      return;
    }
  if (parse_int ("SEXTANT_RECORD_CALLPATH", 0, SEXTANT__MAX_CALLPATH, 8, &callpath) != 0 ||
      parse_int ("SEXTANT_RECORD_BUFFER", 1, 4096, 16, &buffer) != 0 ||
      parse_int ("SEXTANT_RECORD_ONECOLL_POLLS", 0, 1, 0, &polls) != 0 ||
      parse_int ("SEXTANT_RECORD_VERBOSE", 0, 1, 0, &verbose) != 0)
    {
      msg->status = SEXTANT_RECORDER_ERR_ARG;
      return;
    }
  msg->callpath = (int) callpath;
  msg->buffer_mib = (int) buffer;
  msg->record_polls = (int) polls;
  msg->verbose = (int) verbose;
  if (clock == NULL || clock[0] == '\0' || strcmp (clock, "auto") == 0)
    msg->clock_mode = SEXTANT__CLOCK_AUTO;
  else if (strcmp (clock, "pingpong") == 0)
    msg->clock_mode = SEXTANT__CLOCK_PINGPONG;
  else if (strcmp (clock, "none") == 0)
    msg->clock_mode = SEXTANT__CLOCK_NONE;
  else
    {
      sextant__warn ("SEXTANT_RECORD_CLOCK=%s: use auto, pingpong or none", clock);
      msg->status = SEXTANT_RECORDER_ERR_ARG;
      return;
    }

  if (getcwd (cwd, sizeof cwd) == NULL)
    snprintf (cwd, sizeof cwd, ".");
  if (dir == NULL || dir[0] == '\0')
    {
      time_t now = time (NULL);
      struct tm tm;
      char stamp[32];

      localtime_r (&now, &tm);
      strftime (stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
      n = snprintf (path, sizeof path, "%s/sextant-trace-%s-%ld", cwd, stamp, (long) getpid ());
    }
  else if (dir[0] != '/')
    n = snprintf (path, sizeof path, "%s/%s", cwd, dir);
  else
    n = snprintf (path, sizeof path, "%s", dir);
  if (n < 0 || n >= (int) sizeof path - (int) sizeof "/traces.otf2")
    {
      sextant__warn ("the archive directory name is too long");
      msg->status = SEXTANT_RECORDER_ERR_IO;
      return;
    }

  if (make_dirs (path) != 0 || access (path, W_OK) != 0)
    {
      sextant__warn ("cannot create or write the archive directory %s (%s); not recording",
                     path, strerror (errno));
      msg->status = SEXTANT_RECORDER_ERR_IO;
      return;
    }
  if (snprintf (msg->dir, sizeof msg->dir, "%s/traces.otf2", path) >= (int) sizeof msg->dir)
    {
      msg->status = SEXTANT_RECORDER_ERR_IO;
      return;
    }
  if (stat (msg->dir, &st) == 0)
    {
      sextant__warn ("%s already holds a trace; it is not overwritten (not recording)", path);
      msg->status = SEXTANT_RECORDER_ERR_IO;
      return;
    }
  /* the crash journal of a run that did not finish: all there is of it
   * until it is salvaged (each rank's journal would start anew) */
  if (holds_journal (path))
    {
      sextant__warn ("%s holds the crash journal of a run that did not finish; it is not overwritten "
                     "(not recording: sextant import %s salvages it, or remove %s/journal)", path, path, path);
      msg->status = SEXTANT_RECORDER_ERR_IO;
      return;
    }
  snprintf (msg->dir, sizeof msg->dir, "%s", path);
}

/* ---- start ---- */

static void at_exit (void);

/* A process forked after MPI_Init is not this rank: it records nothing
 * (its event buffers are this rank's crash journal, shared with it). */
static void
forked_child (void)
{
  atomic_store (&sextant__rec.state, SEXTANT__STATE_STOPPED);
}

int
sextant__agree (int status)
{
  int worst = status;

  /* statuses are <= 0: the minimum is the first error in enum order */
  if (PMPI_Allreduce (&status, &worst, 1, MPI_INT, MPI_MIN, sextant__rec.comm) != MPI_SUCCESS)
    return SEXTANT_RECORDER_ERR_MPI;
  return worst;
}

static int
open_archive (void)
{
  int rc = SEXTANT_RECORDER_OK;
  OTF2_ErrorCode status;

  OTF2_Error_RegisterCallback (otf2_error_callback, NULL);
  sextant__rec.archive = OTF2_Archive_Open (sextant__rec.dir, "traces", OTF2_FILEMODE_WRITE,
                                            SEXTANT__EVENT_CHUNK, SEXTANT__DEF_CHUNK,
                                            OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (sextant__rec.archive == NULL)
    {
      sextant__warn ("libotf2 cannot create an archive in %s", sextant__rec.dir);
      rc = SEXTANT_RECORDER_ERR_OTF2;
    }
  else if ((status = OTF2_Archive_SetFlushCallbacks (sextant__rec.archive, &sextant__flush_callbacks, NULL))
           != OTF2_SUCCESS ||
           (status = OTF2_Archive_SetMemoryCallbacks (sextant__rec.archive, &memory_callbacks, NULL))
           != OTF2_SUCCESS ||
           (status = OTF2_Pthread_Archive_SetLockingCallbacks (sextant__rec.archive, NULL))
           != OTF2_SUCCESS ||
           (status = OTF2_Archive_SetCreator (sextant__rec.archive, "Sextant recorder " PACKAGE_VERSION))
           != OTF2_SUCCESS ||
           (status = OTF2_Archive_SetMachineName (sextant__rec.archive, sextant__rec.hostname))
           != OTF2_SUCCESS)
    {
      sextant__warn_otf2 (status, "setting up the archive");
      rc = SEXTANT_RECORDER_ERR_OTF2;
    }
  if ((rc = sextant__agree (rc)) != SEXTANT_RECORDER_OK)
    return rc;   /* the archive object is left behind: closing it would be collective */

  /* collective from here on: every rank makes each call */
  status = OTF2_MPI_Archive_SetCollectiveCallbacks (sextant__rec.archive, sextant__rec.comm,
                                                    MPI_COMM_NULL);
  if (status != OTF2_SUCCESS)
    sextant__warn_otf2 (status, "setting the MPI collective callbacks");
  if ((rc = sextant__agree (status == OTF2_SUCCESS ? SEXTANT_RECORDER_OK : SEXTANT_RECORDER_ERR_OTF2))
      != SEXTANT_RECORDER_OK)
    return rc;
  status = OTF2_Archive_OpenEvtFiles (sextant__rec.archive);
  if (status != OTF2_SUCCESS)
    sextant__warn_otf2 (status, "opening the event files");
  return sextant__agree (status == OTF2_SUCCESS ? SEXTANT_RECORDER_OK : SEXTANT_RECORDER_ERR_OTF2);
}

static int
recorder_start (sextant__mpi_function  function,
                uint64_t               t_before,
                void                  *frame,
                void                  *ra)
{
  setup_message msg;
  int initialized = 0, finalized = 0;
  int rc;

  if (sextant__rec.started)
    return SEXTANT_RECORDER_ERR_STATE;
  if (PMPI_Initialized (&initialized) != MPI_SUCCESS || !initialized ||
      PMPI_Finalized (&finalized) != MPI_SUCCESS || finalized)
    return SEXTANT_RECORDER_ERR_STATE;
  sextant__rec.started = 1;
  sextant__rec.pid = getpid ();

  /* Started by the MPI_Init wrapper, nothing of the program's is in flight
   * on MPI_COMM_WORLD at init nor (MPI requires it) at finalize, the only
   * times the recorder communicates: it uses MPI_COMM_WORLD and makes no
   * communicator of its own (an extra one shifts Open MPI's communicator
   * ids; docs/recorder.md, treematch). Started later by the program, it
   * works on a duplicate. */
  if (function == SEXTANT__MPI_INIT || function == SEXTANT__MPI_INIT_THREAD)
    sextant__rec.comm = MPI_COMM_WORLD;
  else if (PMPI_Comm_dup (MPI_COMM_WORLD, &sextant__rec.comm) != MPI_SUCCESS)
    {
      sextant__warn ("MPI_Comm_dup failed; not recording");
      sextant__rec.comm = MPI_COMM_NULL;
      return SEXTANT_RECORDER_ERR_MPI;
    }
  else
    PMPI_Comm_set_errhandler (sextant__rec.comm, MPI_ERRORS_RETURN);
  PMPI_Comm_rank (MPI_COMM_WORLD, &sextant__rec.rank);
  PMPI_Comm_size (MPI_COMM_WORLD, &sextant__rec.size);

  memset (&msg, 0, sizeof msg);
  if (sextant__rec.rank == 0)
    rank0_setup (&msg);
  if (PMPI_Bcast (&msg, (int) sizeof msg, MPI_BYTE, 0, sextant__rec.comm) != MPI_SUCCESS)
    msg.status = SEXTANT_RECORDER_ERR_MPI;
  if (msg.status != SEXTANT_RECORDER_OK)
    goto fail;

  sextant__rec.callpath = msg.callpath;
  sextant__rec.buffer_bytes = (uint64_t) msg.buffer_mib << 20;
  sextant__rec.clock_mode = msg.clock_mode;
  sextant__rec.record_polls = msg.record_polls;
  sextant__rec.verbose = msg.verbose;
  sextant__rec.dir = strdup (msg.dir);
  sextant__rec.anchor = malloc (strlen (msg.dir) + sizeof "/traces.otf2");
  if (gethostname (sextant__rec.hostname, sizeof sextant__rec.hostname - 1) != 0)
    snprintf (sextant__rec.hostname, sizeof sextant__rec.hostname, "localhost");
  if (sextant__rec.dir != NULL)
    sextant__journal_open ();       /* before the first definition */
  sextant__test_kill (SEXTANT__KILL_INIT);

  rc = SEXTANT_RECORDER_OK;
  if (sextant__rec.dir == NULL || sextant__rec.anchor == NULL ||
      sextant__handles_init (&sextant__rec.comms, 1 << 14) != 0 ||
      sextant__handles_init (&sextant__rec.wins, 1 << 12) != 0 ||
      sextant__requests_init () != 0)
    rc = SEXTANT_RECORDER_ERR_NOMEM;
  else
    {
      sprintf (sextant__rec.anchor, "%s/traces.otf2", sextant__rec.dir);
      pthread_mutex_lock (&sextant__rec.lock);
      if (sextant__comms_init () != 0)
        rc = SEXTANT_RECORDER_ERR_NOMEM;
      pthread_mutex_unlock (&sextant__rec.lock);
    }
  if ((msg.status = sextant__agree (rc)) != SEXTANT_RECORDER_OK ||
      (msg.status = open_archive ()) != SEXTANT_RECORDER_OK)
    goto fail;
  if ((msg.status = sextant__agree (sextant__clock_measure (&sextant__rec.clock_init))) != SEXTANT_RECORDER_OK)
    goto fail;

  sextant__callsite_init ();
  sextant__rec.t_first = t_before;
  {
    struct timespec real;

    clock_gettime (CLOCK_REALTIME, &real);
    sextant__rec.monotonic_at_init = sextant__now ();
    sextant__rec.realtime_at_init = (uint64_t) real.tv_sec * UINT64_C (1000000000) + (uint64_t) real.tv_nsec;
  }
  sextant__journal_clock ();
  atomic_store (&sextant__rec.state, SEXTANT__STATE_ACTIVE);
  if (sextant__onecoll_install () < 0)
    sextant__warn ("onecoll is running already; its regions are not recorded");
  atexit (at_exit);
  pthread_atfork (NULL, NULL, forked_child);
  sextant__journal_catch_signals ();
  sextant__self ();                 /* the calling thread is index 0 */

  /* the MPI_Init visit, from before PMPI_Init to now */
  {
    sextant__thread *t = sextant__self ();

    if (t != NULL && function != SEXTANT__N_MPI)
      {
        uint32_t region = sextant__mpi_region (function);

        add_callsite (t, frame, ra);
        SEXTANT__WRITE (t, OTF2_EvtWriter_Enter (t->writer, t->attrs, t_before, region), "ENTER");
        SEXTANT__WRITE (t, OTF2_EvtWriter_Leave (t->writer, NULL, sextant__now (), region), "LEAVE");
      }
  }
  if (sextant__rec.verbose && sextant__rec.rank == 0)
    fprintf (stderr, "sextant-record: recording %d ranks into %s\n", sextant__rec.size,
             sextant__rec.anchor);
  return SEXTANT_RECORDER_OK;

fail:
  if (msg.status != SEXTANT_RECORDER_ERR_DISABLED && sextant__rec.rank == 0)
    sextant__warn ("not recording: %s", sextant_recorder_strerror (msg.status));
  /* keep the tables of a failed start: an MPI_Finalize must not touch them */
  sextant__journal_remove ();       /* nothing will be recorded */
  return msg.status;
}

int
sextant_recorder_init_from_env (void)
{
  return recorder_start (SEXTANT__N_MPI, sextant__now (), NULL, NULL);
}

/* ---- end ---- */

static void
free_threads (void)
{
  sextant__thread *t = sextant__rec.threads;

  while (t != NULL)
    {
      sextant__thread *next = t->next;

      if (t->attrs != NULL)
        OTF2_AttributeList_Delete (t->attrs);
      sextant__callsite_thread_free (t);
      free (t->scls);
      free (t->rma);
      free (t->statuses);
      free (t->reqs);
      free (t);
      t = next;
    }
  sextant__rec.threads = NULL;
  sextant__tls = NULL;              /* sextant__now () reads it; other threads no longer record */
  pthread_mutex_lock (&sextant__rec.lock);   /* a thread ending now parks under it */
  free (parked);
  parked = NULL;
  n_parked = cap_parked = 0;
  pthread_mutex_unlock (&sextant__rec.lock);
}

static int
recorder_finish (sextant__call *call)
{
  int expected = SEXTANT__STATE_ACTIVE;
  int rc;

  if (!atomic_compare_exchange_strong (&sextant__rec.state, &expected, SEXTANT__STATE_STOPPED))
    return SEXTANT_RECORDER_ERR_STATE;
  sextant__onecoll_uninstall ();

  rc = sextant__clock_measure (&sextant__rec.clock_final);
  sextant__rec.have_final_clock = rc == SEXTANT_RECORDER_OK;
  if (rc != SEXTANT_RECORDER_OK)
    sextant__warn ("measuring the clocks at MPI_Finalize failed: %s", sextant_recorder_strerror (rc));
  sextant__rec.t_last = sextant__now ();
  if (call != NULL)
    {
      SEXTANT__WRITE (call->t, OTF2_EvtWriter_Leave (call->t->writer, NULL, sextant__rec.t_last,
                                                      call->region), "LEAVE");
      call->t->busy = 0;
    }

  /* every rank's verdict: the journals go only with a complete archive
   * (a signal until then is a STOP record, as during the run) */
  rc = sextant__write_definitions ();
  sextant__journal_release_signals ();
  if (rc != SEXTANT_RECORDER_OK)
    {
      if (sextant__rec.rank == 0)
        sextant__warn ("the archive %s is incomplete (%s) and was not written; the crash journal in "
                       "%s/journal is kept (sextant import %s salvages it)", sextant__rec.anchor,
                       sextant_recorder_strerror (rc), sextant__rec.dir, sextant__rec.dir);
    }
  else
    {
      sextant__journal_remove ();
      if (sextant__rec.verbose && sextant__rec.rank == 0)
        fprintf (stderr, "sextant-record: wrote %s\n", sextant__rec.anchor);
    }

  free_threads ();
  sextant__callsite_fini ();
  sextant__requests_free ();
  pthread_mutex_lock (&sextant__rec.lock);
  for (size_t i = 0; i < sextant__rec.n_records; i++)
    free (sextant__rec.records[i]);
  free (sextant__rec.records);
  sextant__rec.records = NULL;
  sextant__rec.n_records = sextant__rec.cap_records = 0;
  sextant__handles_free (&sextant__rec.comms);
  sextant__handles_free (&sextant__rec.wins);
  sextant__comms_clear ();
  sextant__defs_clear (&sextant__rec.defs);
  pthread_mutex_unlock (&sextant__rec.lock);
  if (sextant__rec.world_group != MPI_GROUP_NULL)
    PMPI_Group_free (&sextant__rec.world_group);
  if (sextant__rec.comm != MPI_COMM_WORLD)
    PMPI_Comm_free (&sextant__rec.comm);
  sextant__rec.comm = MPI_COMM_NULL;
  return rc;
}

int
sextant_recorder_finalize (void)
{
  return recorder_finish (NULL);
}

int
sextant_recorder_is_recording (void)
{
  return atomic_load (&sextant__rec.state) == SEXTANT__STATE_ACTIVE;
}

const char *
sextant_recorder_archive (void)
{
  return atomic_load (&sextant__rec.state) == SEXTANT__STATE_ACTIVE ? sextant__rec.anchor : NULL;
}

/* This rank leaves without MPI_Finalize: its events are in the crash
 * journal already; say why it stopped. */
static void
emergency (int32_t     cause,
           const char *why)
{
  int expected = SEXTANT__STATE_ACTIVE;

  /* a child forked after MPI_Init that calls exit() is not this rank */
  if (getpid () != sextant__rec.pid)
    return;
  if (!atomic_compare_exchange_strong (&sextant__rec.state, &expected, SEXTANT__STATE_STOPPED))
    return;
  sextant__journal_stop (cause, 0, 0, 0);
  if (sextant__rec.journal_fd >= 0)
    sextant__warn ("%s; this rank's events are in the crash journal %s/journal "
                   "(sextant import %s salvages it)", why, sextant__rec.dir, sextant__rec.dir);
  else
    sextant__warn ("%s; this rank's events are lost (no crash journal)", why);
}

static void
at_exit (void)
{
  emergency (SEXTANT__STOP_EXIT, "the process exits without MPI_Finalize");
}

/* ---- the MPI functions that start and end it ---- */

SEXTANT__EXPORT int
MPI_Init (int    *argc,
          char ***argv)
{
  uint64_t t_before = sextant__now ();
  int rc = PMPI_Init (argc, argv);

  if (rc == MPI_SUCCESS)
    recorder_start (SEXTANT__MPI_INIT, t_before, __builtin_frame_address (0),
                    __builtin_return_address (0));
  return rc;
}

SEXTANT__EXPORT int
MPI_Init_thread (int    *argc,
                 char ***argv,
                 int     required,
                 int    *provided)
{
  uint64_t t_before = sextant__now ();
  int rc = PMPI_Init_thread (argc, argv, required, provided);

  if (rc == MPI_SUCCESS)
    recorder_start (SEXTANT__MPI_INIT_THREAD, t_before, __builtin_frame_address (0),
                    __builtin_return_address (0));
  return rc;
}

SEXTANT__EXPORT int
MPI_Finalize (void)
{
  sextant__call call;

  if (sextant__rec.started && sextant__tls != NULL && sextant__tls->busy)
    sextant__tls->busy = 0;   /* a call left open by a longjmp or a C++ exception */
  if (SEXTANT__BEGIN (&call, FINALIZE))
    recorder_finish (&call);
  else
    recorder_finish (NULL);
  return PMPI_Finalize ();
}

SEXTANT__EXPORT int
MPI_Abort (MPI_Comm comm,
           int      errorcode)
{
  sextant__call call;

  if (SEXTANT__BEGIN (&call, ABORT))
    sextant__end (&call);
  emergency (SEXTANT__STOP_ABORT, "MPI_Abort was called");
  return PMPI_Abort (comm, errorcode);
}
