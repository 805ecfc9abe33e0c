/*
 * sextant-recorder-private.h - the recorder's internal data structures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One recorder per process (sextant__rec). It owns:
 *  - the OTF2 archive, opened collectively at MPI_Init over
 *    MPI_COMM_WORLD (a duplicate when started later) and closed
 *    collectively at MPI_Finalize;
 *  - one thread record (sextant__thread) per thread that made a recorded
 *    call: its OTF2 location and event writer, and its caches, reachable
 *    without locks through a thread-local pointer;
 *  - the local definitions (strings, regions, source code locations,
 *    calling contexts, communicators, groups, windows) with dense local ids
 *    0..n-1. Events use these ids; at finalize rank 0 unifies all ranks'
 *    definitions and every location gets OTF2 mapping tables (local -> global);
 *  - the handle tables that map MPI_Comm / MPI_Win / MPI_Request values to
 *    what the recorder knows about them.
 *
 * Locking: sextant__rec.lock guards the definitions, the thread list, the
 * writers of the handle tables and everything libdw does. The hot path - an
 * MPI call from a loop that ran before - takes no lock: the thread record,
 * its call-site caches and the comm/window tables are read without one.
 * Requests use a striped lock (sextant-recorder-handles.c).
 *
 * Location ids are (thread index << 32) | world rank, so every rank's main
 * thread (index 0, the thread that called MPI_Init) has location id = rank
 * and locations need no unification. Location group ids are ranks.
 */
#ifndef SEXTANT_RECORDER_PRIVATE_H
#define SEXTANT_RECORDER_PRIVATE_H

#include "sextant-recorder.h"

#include <mpi.h>
#include <otf2/otf2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define SEXTANT__EXPORT __attribute__ ((visibility ("default")))
#define SEXTANT__LIKELY(x) __builtin_expect (!!(x), 1)
#define SEXTANT__UNLIKELY(x) __builtin_expect (!!(x), 0)
#define SEXTANT__PRINTF(f, a) __attribute__ ((format (printf, f, a)))

#define SEXTANT__UNDEF UINT32_MAX        /* "no definition", = OTF2's UNDEFINED */
#define SEXTANT__ATTR_CALLSITE 0         /* global attribute ids, the same on every rank */
#define SEXTANT__ATTR_CONTEXT 1
/* onecoll's broadcast, on the ENTER of its regions (onecoll_trace_info) */
#define SEXTANT__ATTR_ONECOLL_WIN 2
#define SEXTANT__ATTR_ONECOLL_SEQ 3
#define SEXTANT__ATTR_ONECOLL_ROOT 4
#define SEXTANT__ATTR_ONECOLL_PEER 5
/* on NON_BLOCKING_COLLECTIVE_REQUEST: its communicator, so that an importer
 * numbers the collectives of a communicator in the order they started */
#define SEXTANT__ATTR_NBC_COMM 6
#define SEXTANT__MAX_CALLPATH 32         /* upper bound of SEXTANT_RECORD_CALLPATH */
/* OTF2 event chunk, bytes: libotf2 hands a write of 4 MiB or more straight
 * to write(2) and keeps smaller ones in a buffer of its own, so a flushed
 * chunk is in the file (the page cache) when the crash journal recycles it */
#define SEXTANT__EVENT_CHUNK (4 * 1024 * 1024)
#define SEXTANT__DEF_CHUNK (4 * 1024 * 1024)      /* OTF2 definition chunk, bytes */

/* ---- the MPI functions the recorder wraps ---- */

/* SEXTANT__MPI_FUNCTIONS (X): X (enum suffix, name, OTF2 region role) for
 * every wrapped function, made from sextant-recorder-mpi.def by
 * gen-mpi-wrappers.py */
#include "sextant-recorder-mpi-functions.h"

typedef enum
{
#define SEXTANT__MPI_ENUM(id, name, role) SEXTANT__MPI_##id,
  SEXTANT__MPI_FUNCTIONS (SEXTANT__MPI_ENUM)
#undef SEXTANT__MPI_ENUM
  SEXTANT__N_MPI
} sextant__mpi_function;

/* ---- small containers (sextant-recorder-defs.c) ---- */

/* Grows *@array (of @elem-byte elements, capacity *@cap) to hold @need.
 * Returns 0, or -1 when out of memory (the array is unchanged). */
int sextant__grow (void   **array,
                   size_t  *cap,
                   size_t   need,
                   size_t   elem);

/* A set of byte strings, each with a uint32 value. Open addressing. */
typedef struct
{
  uint64_t hash;
  unsigned char *key;               /* malloc'd copy; NULL = empty slot */
  uint32_t len;
  uint32_t value;
} sextant__blobslot;

typedef struct
{
  sextant__blobslot *slots;
  size_t cap;                       /* power of two, or 0 */
  size_t n;
} sextant__blobmap;

int  sextant__blobmap_get  (const sextant__blobmap *map,
                            const void             *key,
                            size_t                  len,
                            uint32_t               *value);
int  sextant__blobmap_put  (sextant__blobmap *map,
                            const void       *key,
                            size_t            len,
                            uint32_t          value);
void sextant__blobmap_free (sextant__blobmap *map);

/* Serialisation buffer. A failed append sets @failed and drops the data. */
typedef struct
{
  unsigned char *data;
  size_t len;
  size_t cap;
  int failed;
} sextant__buf;

void sextant__buf_bytes (sextant__buf *buf,
                         const void   *data,
                         size_t        len);
void sextant__buf_u32   (sextant__buf *buf,
                         uint32_t      value);
void sextant__buf_u64   (sextant__buf *buf,
                         uint64_t      value);
void sextant__buf_str   (sextant__buf *buf,
                         const char   *s);

typedef struct
{
  const unsigned char *pos;
  const unsigned char *end;
  int failed;                       /* read past the end */
} sextant__reader;

uint32_t    sextant__read_u32 (sextant__reader *rd);
uint64_t    sextant__read_u64 (sextant__reader *rd);
const char *sextant__read_str (sextant__reader *rd);  /* points into the buffer */

/* ---- definitions (sextant-recorder-defs.c) ---- */

typedef enum
{
  SEXTANT__COMM_WORLD = 0,          /* MPI_COMM_WORLD */
  SEXTANT__COMM_SELF = 1,           /* MPI_COMM_SELF: one instance per process */
  SEXTANT__COMM_CHILD = 2,          /* made by a collective call on a known parent */
  /* 3 was a kind of this rank's own inter-communicators; they are now MEMBERS */
  SEXTANT__COMM_MEMBERS = 4,        /* by its members: made by MPI_Comm_create_group or seen
                                       without its creation (an inter-communicator's are both
                                       groups'); seq = how many with these members this rank
                                       defined before */
} sextant__comm_kind;

typedef struct
{
  uint32_t name, role, paradigm, file, begin, end;   /* strings are string ids */
} sextant__region_def;

typedef struct
{
  uint32_t file, line;
} sextant__scl_def;

typedef struct
{
  uint32_t region, scl, parent;
} sextant__context_def;

/* A communicator is the same on all its ranks when its kind, parent, seq
 * and min_rank are: seq counts the communicator-making calls on the parent
 * (the same on every rank, since they are collective over the parent), and
 * min_rank - the lowest world rank in it - tells apart the communicators
 * that one MPI_Comm_split makes. A MEMBERS communicator is the same on all
 * its ranks when its members (in order) and seq are. */
typedef struct
{
  uint32_t kind;                    /* sextant__comm_kind */
  uint32_t name;                    /* string id */
  uint32_t parent;                  /* comm id, or SEXTANT__UNDEF */
  uint32_t seq;                     /* CHILD: nth comm made from the parent; LOCAL: unique number */
  uint32_t min_rank;                /* lowest member (world rank) */
  uint32_t n_members;
  uint32_t *members;                /* world ranks in comm rank order; NULL for SELF */
} sextant__comm_def;

typedef struct
{
  uint32_t n_members;
  uint32_t *members;                /* world ranks */
} sextant__group_def;

/* A window is the same on all its ranks when its comm and seq are. */
typedef struct
{
  uint32_t name, comm, seq;
} sextant__win_def;

typedef struct
{
  char **strings;             size_t n_strings, cap_strings;
  sextant__region_def *regions;   size_t n_regions, cap_regions;
  sextant__scl_def *scls;         size_t n_scls, cap_scls;
  sextant__context_def *contexts; size_t n_contexts, cap_contexts;
  sextant__comm_def *comms;       size_t n_comms, cap_comms;
  sextant__group_def *groups;     size_t n_groups, cap_groups;
  sextant__win_def *wins;         size_t n_wins, cap_wins;
  /* de-duplication: key bytes -> id */
  sextant__blobmap string_map, region_map, scl_map, context_map, comm_map, group_map, win_map;
} sextant__defs;

/* All return the id, or SEXTANT__UNDEF when out of memory. The same content
 * gives the same id (LOCAL communicators are never merged). */
uint32_t sextant__def_string  (sextant__defs *defs,
                               const char    *s);
uint32_t sextant__def_region  (sextant__defs             *defs,
                               const sextant__region_def *def);
uint32_t sextant__def_scl     (sextant__defs *defs,
                               uint32_t       file,
                               uint32_t       line);
uint32_t sextant__def_context (sextant__defs *defs,
                               uint32_t       region,
                               uint32_t       scl,
                               uint32_t       parent);
uint32_t sextant__def_comm    (sextant__defs           *defs,
                               const sextant__comm_def *def);   /* members are copied */
uint32_t sextant__def_group   (sextant__defs  *defs,
                               const uint32_t *members,
                               uint32_t        n_members);
uint32_t sextant__def_win     (sextant__defs *defs,
                               uint32_t       name,
                               uint32_t       comm,
                               uint32_t       seq);
void     sextant__defs_clear  (sextant__defs *defs);

void sextant__defs_serialize   (const sextant__defs *defs,
                                sextant__buf        *buf);
/* Reads what sextant__defs_serialize wrote into an empty @defs.
 * Returns 0, or -1 for malformed input or out of memory. */
int  sextant__defs_deserialize (sextant__reader *rd,
                                sextant__defs   *defs);

/* ---- handles (sextant-recorder-handles.c) ---- */

/* What the recorder knows about a communicator. Its handle leaves the
 * table at MPI_Comm_free; the record is freed when the recorder finishes
 * (MPI may hand the same handle out again, for a new record). */
typedef struct
{
  uint32_t def;                     /* local COMM definition */
  uint32_t remote_base;             /* added to a peer's rank to make its index in the members */
  uint32_t local_base;              /* added to this process's rank likewise (MPI_ROOT) */
  _Atomic uint32_t children;        /* communicator-making calls on it so far */
  _Atomic uint32_t windows;         /* windows made on it so far */
} sextant__comm;

typedef struct
{
  uint32_t def;                     /* local RMA_WIN definition */
  int rank;                         /* this process's rank in the window */
  int allocated;                    /* made by MPI_Win_allocate(_shared): MPI owns the memory */
  _Atomic uint32_t post_group;      /* GROUP of the latest MPI_Win_post, or UNDEF */
  _Atomic uint32_t start_group;     /* GROUP of the latest MPI_Win_start, or UNDEF */
} sextant__win;

/* Handle value -> record. Lock-free lookups; inserts under sextant__rec.lock.
 * Capacity is fixed; a full table makes new handles unknown (reported). */
typedef struct
{
  _Atomic uintptr_t *keys;
  void *_Atomic *values;
  size_t mask;
} sextant__handles;

int   sextant__handles_init (sextant__handles *table,
                             size_t            cap);
void  sextant__handles_free (sextant__handles *table);
void *sextant__handles_get  (const sextant__handles *table,
                             uintptr_t               key);
int   sextant__handles_put  (sextant__handles *table,
                             uintptr_t         key,
                             void             *value);
/* The object of @key was freed: lookups miss until a new one takes the
 * handle (its record stays with the recorder, for the events written). */
void  sextant__handles_forget (sextant__handles *table,
                               uintptr_t         key);

/* An open non-blocking operation: one entry per starting call, found by
 * its MPI_Request value (several may share one, see
 * sextant-recorder-handles.c). Peek and take give the oldest entry the
 * calling thread started, else the oldest. */
typedef enum
{
  SEXTANT__REQ_ISEND = 1,
  SEXTANT__REQ_IRECV = 2,
  SEXTANT__REQ_COLL = 3,
  SEXTANT__REQ_PSEND = 4,           /* a persistent send (MPI_*send_init): what MPI_Start starts */
  SEXTANT__REQ_PRECV = 5,           /* a persistent receive (MPI_Recv_init); dest/source in source */
  SEXTANT__REQ_MESSAGE = 6,         /* a message matched by MPI_(I)mprobe: its communicator */
} sextant__req_kind;

typedef struct
{
  uint64_t id;                      /* OTF2 request id on the issuing location */
  uint64_t sent;                    /* COLL: bytes sent */
  uint64_t received;                /* COLL: bytes received */
  uint64_t bytes;                   /* IRECV: posted capacity, bytes */
  uint32_t comm;                    /* local COMM definition */
  uint32_t base;                    /* its remote_base: added to a peer's rank */
  uint32_t root;                    /* COLL: root rank or OTF2_UNDEFINED_UINT32 */
  uint32_t thread;                  /* index of the thread that started it */
  int32_t source;                   /* IRECV: posted source (may be MPI_ANY_SOURCE) */
  int32_t tag;                      /* IRECV: posted tag (may be MPI_ANY_TAG) */
  uint8_t kind;                     /* sextant__req_kind; 0 = none */
  uint8_t op;                       /* COLL: OTF2_CollectiveOp */
  uint32_t seq;                     /* COLL of MPI_Comm_idup: its number among @comm's children */
  MPI_Comm *newcomm;                /* COLL of MPI_Comm_idup: where MPI puts the new handle at completion */
} sextant__request;

int  sextant__requests_init (void);
void sextant__requests_free (void);
void sextant__request_put   (MPI_Request              req,
                             const sextant__request  *info);
int  sextant__request_peek  (MPI_Request       req,
                             sextant__request *out);     /* 1 if found */
int  sextant__request_take  (MPI_Request       req,
                             sextant__request *out);     /* 1 if found and removed */
/* The template of persistent request @req (SEXTANT__REQ_PSEND/PRECV, put
 * by the *_init wrappers), and its removal at MPI_Request_free. */
int  sextant__persistent_get    (MPI_Request       req,
                                 sextant__request *out);  /* 1 if found */
void sextant__persistent_forget (MPI_Request req);
/* The communicator of a message MPI_(I)mprobe matched, until MPI_(I)mrecv
 * takes it (SEXTANT__UNDEF if unknown). */
/* A message matched by MPI_(I)mprobe on the communicator @comm (local
 * definition) whose peers' ranks add @base (sextant__comm.remote_base). */
void     sextant__message_put  (MPI_Message message,
                                uint32_t    comm,
                                uint32_t    base);
/* Its communicator (SEXTANT__UNDEF if unknown) and *base. */
uint32_t sextant__message_take (MPI_Message message,
                                uint32_t   *base);
/* Puts back what sextant__request_take took, before the handle's other
 * entries (restore several in the reverse order of taking). */
void sextant__request_restore (MPI_Request             req,
                               const sextant__request *info);
void sextant__request_drop  (MPI_Request req,
                             uint64_t    id);            /* remove if it is still @id */

/* ---- threads ---- */

typedef struct sextant__unwind_rule sextant__unwind_rule;
typedef struct sextant__chain_slot sextant__chain_slot;
typedef struct sextant__scl_slot sextant__scl_slot;
typedef struct sextant__walk_slot sextant__walk_slot;

/* An RMA operation issued by this thread and not yet completed. */
typedef struct
{
  uint32_t win;                     /* local RMA_WIN definition */
  uint32_t target;                  /* rank in the window */
  uint64_t matching;                /* matching id of its record */
} sextant__rma_op;

/* A thread's clock (sextant-recorder-clock.c): CLOCK_MONOTONIC in ns, read
 * as the time stamp counter and a linear map re-anchored on the real clock
 * every few milliseconds. 0 in span: no counter, clock_gettime. */
typedef struct
{
  uint64_t tsc;                     /* counter at the anchor */
  uint64_t ns;                      /* this clock at the anchor */
  uint64_t mult;                    /* ns per tick << 32 */
  uint64_t span;                    /* ticks after the anchor the map is used for */
  uint64_t last;                    /* the latest reading: none later is smaller */
  uint64_t anchors;                 /* re-anchorings so far */
  uint64_t worst;                   /* largest |this clock - CLOCK_MONOTONIC| at one, ns */
} sextant__tsc_clock;

typedef struct sextant__thread sextant__thread;
struct sextant__thread
{
  sextant__tsc_clock clock;         /* first: the hot path reads it with the other fields */
  sextant__thread *next;            /* sextant__rec.threads, newest first */
  uint64_t location;                /* OTF2 location id */
  uint32_t index;                   /* 0: the thread that called MPI_Init */
  char name[64];
  OTF2_EvtWriter *evt;              /* the location's event writer, closed at the end */
  OTF2_EvtWriter *writer;           /* = evt while recording, NULL once writing failed */
  OTF2_AttributeList *attrs;
  int busy;                         /* inside a recorded MPI call: nested calls are not recorded */
  int mute;                         /* > 0: inside onecoll polling, MPI calls are not recorded */
  int relay_mute;                   /* mute of the onecoll wait around a relay that this
                                       thread does inside it (recorded), restored after */
  uint64_t next_request;            /* OTF2 request ids, from 1 */
  uint64_t next_matching;           /* RMA matching ids, from 1 */
  uintptr_t stack_lo, stack_hi;     /* this thread's stack, for the unwinder's reads */
  sextant__unwind_rule *rules;      /* call-site caches (sextant-recorder-callsite.c) */
  sextant__chain_slot *chains;
  sextant__walk_slot *walks;
  sextant__scl_slot *scls;
  sextant__rma_op *rma;             /* pending RMA operations, oldest first */
  size_t n_rma, cap_rma;
  MPI_Status *statuses;             /* scratch for MPI_STATUSES_IGNORE */
  size_t cap_statuses;
  sextant__request *reqs;           /* scratch for the Wait/Test families */
  size_t cap_reqs;
};

/* ---- the recorder ---- */

typedef enum
{
  SEXTANT__STATE_OFF = 0,           /* not started (or disabled) */
  SEXTANT__STATE_ACTIVE = 1,        /* recording */
  SEXTANT__STATE_STOPPED = 2,       /* finalize or an emergency write is running or done */
} sextant__state;

typedef enum
{
  SEXTANT__CLOCK_AUTO = 0,          /* ping-pong for ranks on other hosts than rank 0 */
  SEXTANT__CLOCK_PINGPONG = 1,      /* ping-pong for every rank */
  SEXTANT__CLOCK_NONE = 2,          /* no ClockOffset records */
} sextant__clock_mode;

typedef struct
{
  uint64_t time;                    /* local clock, ns */
  int64_t offset;                   /* rank 0's clock minus ours, ns */
  double deviation;                 /* half the round trip of the best sample, ns */
} sextant__clock_point;

typedef struct
{
  _Atomic int state;                /* sextant__state */
  int started;                      /* init was attempted in this process */
  pid_t pid;                        /* of the process that started it */
  int rank;                         /* in MPI_COMM_WORLD */
  int size;
  MPI_Comm comm;                    /* MPI_COMM_WORLD, or a duplicate if started after MPI_Init */
  OTF2_Archive *archive;
  char *dir;                        /* absolute archive directory */
  char *anchor;                     /* dir/traces.otf2 */
  char hostname[256];

  /* options (rank 0's environment, broadcast) */
  int callpath;                     /* frames per calling context, 0..SEXTANT__MAX_CALLPATH */
  uint64_t buffer_bytes;            /* event memory per location */
  int clock_mode;                   /* sextant__clock_mode */
  int record_polls;
  int verbose;

  pthread_mutex_t lock;             /* see the file comment */
  sextant__thread *threads;
  uint32_t n_threads;
  sextant__defs defs;

  sextant__comm *world;
  sextant__comm *self;
  MPI_Group world_group;            /* for translating ranks to world ranks */
  void **records;                   /* every sextant__comm / sextant__win, freed at the end */
  size_t n_records, cap_records;
  sextant__handles comms;
  sextant__handles wins;
  _Atomic uint32_t mpi_regions[SEXTANT__N_MPI];   /* local REGION id + 1, 0 = not defined yet */
  _Atomic int warned_unknown_comm;
  _Atomic int warned_unknown_win;
  _Atomic int warned_table_full;

  sextant__clock_point clock_init;
  sextant__clock_point clock_final;
  int have_final_clock;
  uint64_t t_first;                 /* local clock of the first and last event of this process */
  uint64_t t_last;
  uint64_t realtime_at_init;        /* CLOCK_REALTIME and ... */
  uint64_t monotonic_at_init;       /* ... CLOCK_MONOTONIC read together at init, ns */

  /* the crash journal (sextant-recorder-journal.c) */
  int journal_fd;                   /* dir/journal/rank-R.defs, -1 = none */
  _Atomic int stops;                /* STOP records written so far */
} sextant__recorder;

extern sextant__recorder sextant__rec;

/* ---- time ---- */

/* CLOCK_MONOTONIC in ns, from the kernel. */
static inline uint64_t
sextant__clock_gettime (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * UINT64_C (1000000000) + (uint64_t) ts.tv_nsec;
}

/* initial-exec: a plain %fs-relative load (the library is preloaded or
 * linked, so its TLS is static), not a __tls_get_addr call per MPI call */
extern __thread sextant__thread *sextant__tls __attribute__ ((tls_model ("initial-exec")));

/* sextant-recorder-clock.c: a thread clock's first reading, or one past the
 * end of its map (re-anchors it), or one on a counter that went back. */
uint64_t sextant__tsc_slow (sextant__tsc_clock *clock,
                            uint64_t            tsc);

/* @t's clock, ns: monotonic on the thread, and within a few ns of
 * CLOCK_MONOTONIC (sextant-recorder-clock.c). Every timestamp of a
 * location comes from its thread's clock. */
static inline uint64_t
sextant__thread_now (sextant__thread *t)
{
#if defined(__x86_64__)
  uint64_t tsc = __builtin_ia32_rdtsc ();
  uint64_t ticks = tsc - t->clock.tsc;
  uint64_t ns;

  if (SEXTANT__LIKELY (ticks < t->clock.span))
    ns = t->clock.ns + ((ticks * t->clock.mult) >> 32);
  else
    ns = sextant__tsc_slow (&t->clock, tsc);
  /* a counter a little behind on another core must not go back */
  if (SEXTANT__UNLIKELY (ns < t->clock.last))
    ns = t->clock.last;
  t->clock.last = ns;
  return ns;
#else
  return sextant__tsc_slow (&t->clock, 0);
#endif
}

/* The local clock, ns: the calling thread's clock once it is registered,
 * else CLOCK_MONOTONIC. */
static inline uint64_t
sextant__now (void)
{
  sextant__thread *t = sextant__tls;

  return t != NULL ? sextant__thread_now (t) : sextant__clock_gettime ();
}

/* sextant-recorder-clock.c. Collective over sextant__rec.comm: measures
 * this rank's offset to rank 0 (per sextant__rec.clock_mode). */
int     sextant__clock_measure (sextant__clock_point *point);
/* The global time of local time @t, as libotf2's reader will compute it
 * from the ClockOffset records @a and (if non-NULL) @b. */
uint64_t sextant__clock_correct (const sextant__clock_point *a,
                                 const sextant__clock_point *b,
                                 uint64_t                    t);

/* ---- errors and libotf2 callbacks (sextant-recorder-core.c) ---- */

extern const OTF2_FlushCallbacks sextant__flush_callbacks;

void sextant__warn (const char *format,
                    ...) SEXTANT__PRINTF (1, 2);
void sextant__warn_otf2 (OTF2_ErrorCode  status,
                         const char     *what);
/* Every rank's verdict on @status (collective over sextant__rec.comm):
 * the worst status of any rank. */
int  sextant__agree (int status);

/* ---- threads and events (sextant-recorder-core.c) ---- */

sextant__thread *sextant__thread_register (void);

/* The calling thread's record while recording, else NULL. */
static inline sextant__thread *
sextant__self (void)
{
  sextant__thread *t = sextant__tls;

  if (SEXTANT__UNLIKELY (atomic_load_explicit (&sextant__rec.state, memory_order_relaxed)
                         != SEXTANT__STATE_ACTIVE))
    return NULL;
  if (SEXTANT__UNLIKELY (t == NULL))
    t = sextant__thread_register ();
  return t != NULL && t->writer != NULL ? t : NULL;
}

/* Stops recording on @t after a libotf2 error (reported once). */
void sextant__thread_fail (sextant__thread *t,
                           OTF2_ErrorCode   status,
                           const char      *what);

/* Writes one record with @t's writer, if it still has one. */
#define SEXTANT__WRITE(t, call, what)                                        \
  do {                                                                       \
    if (SEXTANT__LIKELY ((t)->writer != NULL))                               \
      {                                                                      \
        OTF2_ErrorCode sextant_status_ = (call);                             \
        if (SEXTANT__UNLIKELY (sextant_status_ != OTF2_SUCCESS))             \
          sextant__thread_fail ((t), sextant_status_, (what));               \
      }                                                                      \
  } while (0)

/* A recorded MPI call in progress. */
typedef struct
{
  sextant__thread *t;
  uint32_t region;
  uint64_t enter;                   /* time of the ENTER record */
} sextant__call;

/* Begins recording an MPI call: resolves its call site from @frame and
 * @ra (the wrapper's __builtin_frame_address (0) and
 * __builtin_return_address (0)) and writes ENTER. Returns 0 when the call is
 * not to be recorded (recorder off, nested call, muted thread): the wrapper
 * then only calls PMPI. */
int  sextant__begin (sextant__call         *call,
                     sextant__mpi_function  function,
                     void                  *frame,
                     void                  *ra);
/* Writes LEAVE and ends the call; returns the time of the LEAVE. */
uint64_t sextant__end (sextant__call *call);

#define SEXTANT__BEGIN(call, function)                                     \
  sextant__begin ((call), SEXTANT__MPI_##function, __builtin_frame_address (0), \
                  __builtin_return_address (0))

uint32_t sextant__mpi_region (sextant__mpi_function function);

/* A new request entry of @kind on @comm, started by @t: the next request id
 * of @t's location. */
static inline void
sextant__request_init (sextant__request *r,
                       sextant__thread  *t,
                       int               kind,
                       uint32_t          comm)
{
  *r = (sextant__request) { 0 };
  r->kind = (uint8_t) kind;
  r->id = t->next_request++;
  r->comm = comm;
  r->thread = t->index;
}

/* Defines the communicator of a completed MPI_Comm_idup request @r
 * (sextant-recorder-mpi-coll.c); nothing for other requests. */
void sextant__request_comm_made (const sextant__request *r);

/* Writes what stands for the completion of @r, freed while active by
 * MPI_Request_free (sextant-recorder-mpi-p2p.c). */
void sextant__request_freed (sextant__thread        *t,
                             uint64_t                time,
                             const sextant__request *r);

/* Defines a region under the lock (for onecoll's regions). */
uint32_t sextant__define_region (const char     *name,
                                 OTF2_RegionRole role,
                                 OTF2_Paradigm   paradigm,
                                 const char     *file,
                                 uint32_t        line);
/* The source code location @file:@line, cached per thread by the address
 * of @file (a string literal) and @line. @ra, if not NULL, is a return
 * address on that line: its debug information gives the absolute file
 * name, which __FILE__ may not be. */
uint32_t sextant__scl_cached (sextant__thread *t,
                              const char      *file,
                              int              line,
                              void            *ra);


/* Names the calling thread's location (before its first event). */
void sextant__thread_name (const char *name);

/* ---- communicators and windows (sextant-recorder-mpi-coll.c, -rma.c) ---- */

sextant__comm *sextant__comm_lookup_slow (MPI_Comm comm);
/* Forgets the communicators known by their members (lock held, at the end). */
void sextant__comms_clear (void);

static inline sextant__comm *
sextant__comm_get (MPI_Comm comm)
{
  sextant__comm *c;

  if (comm == MPI_COMM_WORLD)
    return sextant__rec.world;
  if (comm == MPI_COMM_SELF)
    return sextant__rec.self;
  c = sextant__handles_get (&sextant__rec.comms, (uintptr_t) comm);
  return c != NULL ? c : sextant__comm_lookup_slow (comm);
}

/* Defines MPI_COMM_WORLD and MPI_COMM_SELF (at init, lock held). */
int sextant__comms_init (void);
/* The world ranks of @group's members, in group order; NULL if out of memory. */
uint32_t *sextant__group_world_ranks (MPI_Group  group,
                                      int       *n);

/* ---- call sites (sextant-recorder-callsite.c) ---- */

int  sextant__callsite_init (void);
void sextant__callsite_fini (void);
void sextant__callsite (sextant__thread *t,
                        void            *frame,
                        void            *ra,
                        uint32_t        *scl,
                        uint32_t        *context);
void sextant__callsite_thread_free (sextant__thread *t);
/* The source code location of return address @ra (lock not held). */
uint32_t sextant__callsite_scl (sextant__thread *t,
                                void            *ra);
/* The file and first line of the function containing return address @ra
 * (lock not held). Returns 0, or -1 if unknown. */
int sextant__callsite_function (sextant__thread *t,
                                void            *ra,
                                char            *file,
                                size_t           size,
                                uint32_t        *line);

/* ---- RMA bookkeeping (sextant-recorder-mpi-rma.c) ---- */

void sextant__rma_complete (sextant__thread *t,
                            uint64_t         time,
                            uint32_t         win,
                            uint32_t         target,       /* UNDEF = all targets */
                            int              local_only);

/* ---- writing the archive (sextant-recorder-unify.c) ---- */

/* Collective: unifies the definitions and writes everything but the
 * events. Returns a sextant_recorder_status. */
int  sextant__write_definitions (void);

/* One rank of a run read back from its crash journal. */
typedef struct
{
  uint64_t id;
  char *name;
  uint64_t n_events;
} sextant__salvage_location;

typedef struct
{
  uint32_t rank;
  char *host;
  int clock_mode;
  sextant__defs defs;               /* its local definitions, ids as recorded */
  sextant__clock_point clock;       /* the offset measured at MPI_Init */
  uint64_t t_first, t_last;         /* local clock */
  uint64_t monotonic_at_init, realtime_at_init;
  sextant__salvage_location *locs;
  size_t n_locs;
} sextant__salvage_rank;

/* Not collective: unifies @ranks' definitions and writes the anchor, the
 * global and the local definitions of an archive in @dir (the event files
 * are the caller's). Returns a sextant_recorder_status. */
int  sextant__write_salvaged (const char            *dir,
                              sextant__salvage_rank *ranks,
                              size_t                 n_ranks,
                              int                    world_size);

/* ---- a location's event chunks, walked (sextant-recorder-chunk-walk.c) ---- */

typedef struct
{
  uint64_t time;                    /* of the last whole event */
  uint64_t n_events;
  uint32_t *stack;                  /* the regions open */
  size_t depth, cap;
  size_t end;                       /* where the last walked chunk's events end */
  int region0_is_init;              /* local region 0 is MPI_Init(_thread) */
  int failed;                       /* out of memory */
} sextant__chunk_walk;

/* Walks chunk @c of @size bytes, the next of the location, up to its first
 * record that is not whole, rewrites its header's event numbers and zeroes
 * what follows its last whole event. Returns the number of its events;
 * *@cut is set when it was cut before its written end. */
uint64_t sextant__chunk_walk_next (unsigned char       *c,
                                   size_t               size,
                                   sextant__chunk_walk *w,
                                   int                 *cut);
/* Appends to @c (walked last) a visit of @region from the last event to
 * @stop and the LEAVEs of the regions still open. Returns 0, or -1 if they
 * do not fit (then start a new chunk). */
int      sextant__chunk_walk_append_stop (unsigned char       *c,
                                          size_t               size,
                                          sextant__chunk_walk *w,
                                          uint32_t             region,
                                          uint64_t             stop);
/* Makes @c an empty chunk that follows the events walked. */
void     sextant__chunk_walk_new_chunk (unsigned char       *c,
                                        size_t               size,
                                        sextant__chunk_walk *w);
/* Ends @c (the location's last chunk) as libotf2 ends a closed writer's. */
void     sextant__chunk_walk_close (unsigned char       *c,
                                    sextant__chunk_walk *w);

/* ---- the crash journal (sextant-recorder-journal.c) ---- */

/* Record kinds of a rank's definition journal, dir/journal/rank-R.defs:
 * each record is u32 kind, u32 payload bytes, payload (native byte order),
 * appended with one write() each. */
typedef enum
{
  SEXTANT__J_HEADER = 1,            /* u32 version, rank, size, pid, clock_mode;
                                       u64 chunk size, buffer bytes; str host */
  SEXTANT__J_CLOCK = 2,             /* u64 time, i64 offset, f64 deviation,
                                       u64 t_first, monotonic_at_init, realtime_at_init */
  SEXTANT__J_LOCATION = 3,          /* u64 location, str name */
  SEXTANT__J_MODULE = 4,            /* u64 load address, str path */
  SEXTANT__J_STRING = 10,           /* u32 id, then the definition's fields */
  SEXTANT__J_REGION = 11,
  SEXTANT__J_SCL = 12,
  SEXTANT__J_CONTEXT = 13,
  SEXTANT__J_COMM = 14,
  SEXTANT__J_GROUP = 15,
  SEXTANT__J_WIN = 16,
  SEXTANT__J_STOP = 20,             /* sextant__stop_record */
} sextant__journal_kind;

#define SEXTANT__JOURNAL_VERSION 1
#define SEXTANT__JOURNAL_MAX_RECORD (64u << 20)  /* a longer record is damage */

/* Why a rank stopped: a signal number (> 0) or one of these. */
#define SEXTANT__STOP_EXIT (-1)              /* exit() or return from main without MPI_Finalize */
#define SEXTANT__STOP_ABORT (-2)             /* MPI_Abort */

typedef struct
{
  int32_t cause;                    /* signal number, or SEXTANT__STOP_* */
  int32_t code;                     /* si_code */
  uint64_t address;                 /* si_addr (the faulting address) */
  uint64_t pc;                      /* instruction pointer at the signal, 0 = unknown */
  uint64_t time;                    /* local clock, ns */
  uint64_t location;                /* the thread that got it, or UINT64_MAX */
} sextant__stop_record;

/* Header of a location's event journal, dir/journal/LOCATION.evtj: the
 * location's libotf2 event chunks live in slots after this page, in a
 * MAP_SHARED mapping of the file. */
#define SEXTANT__EVTJ_MAGIC "SXTEVTJ1"
#define SEXTANT__EVTJ_HEADER 4096
typedef struct
{
  char magic[8];
  uint32_t version;
  uint32_t n_slots;
  uint64_t chunk_size;
  uint64_t location;
  /* (chunks already written to the .evt file << 16) | slots in use; one
   * aligned store changes both, so a kill sees either state */
  _Atomic uint64_t state;
} sextant__evtj_header;

/* A location's event journal in memory (sextant-recorder-journal.c):
 * SEXTANT__EVTJ_SHM_DIR/sextant-PID-NANOSECONDS-LOCATION.evtj, with
 * dir/journal/LOCATION.evtj a symbolic link to it until the rank finalizes
 * (both removed) or sextant-record-salvage moves it into dir/journal after
 * the process PID is gone. */
#define SEXTANT__EVTJ_SHM_DIR "/dev/shm"
#define SEXTANT__EVTJ_SHM_PREFIX "sextant-"

typedef struct sextant__evt_journal sextant__evt_journal;

/* Opens the journal: dir/journal/rank-R.defs with its header. Returns 0 or
 * -1 (reported; recording goes on without crash safety). */
int  sextant__journal_open (void);
/* Appends definition @id of @kind, if @defs is this process's table. */
void sextant__journal_def (const sextant__defs   *defs,
                           sextant__journal_kind  kind,
                           uint32_t               id);
void sextant__journal_clock (void);
void sextant__journal_location (const sextant__thread *t);
/* Async-signal-safe: appends a STOP record. */
void sextant__journal_stop (int32_t   cause,
                            int32_t   code,
                            uintptr_t address,
                            uintptr_t pc);
/* Catches the fatal signals and SIGTERM/SIGINT (a STOP record, then the
 * previous action). */
void sextant__journal_catch_signals (void);
void sextant__journal_release_signals (void);
/* After a complete archive: removes the journal files. */
void sextant__journal_remove (void);

/* A location's event chunks in its journal file; NULL if it cannot be made
 * (the caller falls back to malloc). */
sextant__evt_journal *sextant__evt_journal_new   (uint64_t location,
                                                  uint64_t chunk_size,
                                                  uint64_t budget);
/* The next free slot (zeroed), or NULL when all are in use (libotf2 flushes). */
void                 *sextant__evt_journal_chunk (sextant__evt_journal *j);
/* libotf2 wrote the chunks in use to the .evt file (not @final) or closes
 * the buffer (@final: unmaps and frees @j). */
void                  sextant__evt_journal_release (sextant__evt_journal *j,
                                                    int                   final);

/* Test hooks: SEXTANT_RECORD_TEST_KILL=POINT[:RANK] (read once, when the
 * journal is opened) makes the process kill itself with SIGKILL at POINT,
 * on rank RANK or on every rank, so that a test can stop a run exactly in
 * a window of the crash journal's protocol. The points are at chunk
 * boundaries and in MPI_Finalize: never on the path of an event. */
typedef enum
{
  SEXTANT__KILL_NONE,
  SEXTANT__KILL_INIT,               /* MPI_Init: the journal is open, no location started */
  SEXTANT__KILL_ZEROING,            /* half-way through zeroing the first recycled slot */
  SEXTANT__KILL_FLUSHED,            /* libotf2 wrote the slots to the .evt file, not yet recycled */
  SEXTANT__KILL_EVENTS_CLOSED,      /* MPI_Finalize: the event writers are closed (last flush) */
  SEXTANT__KILL_LOCAL_DEFS,         /* MPI_Finalize: the maps arrived, the local definitions not written */
  SEXTANT__KILL_ANCHOR,             /* MPI_Finalize: every file closed, the anchor not written */
} sextant__kill_point;

/* Kills the process if the hook is set at @point (after a second in
 * MPI_Finalize, so that the other ranks run ahead as far as they can). */
void sextant__test_kill (sextant__kill_point point);

/* ---- onecoll (sextant-recorder-onecoll.c) ---- */

/* Installs onecoll's trace hooks if onecoll is in the process. Returns 1 if
 * installed, 0 if onecoll is not there, -1 if onecoll refused. */
int sextant__onecoll_install (void);
/* Removes them again (at finalize). */
void sextant__onecoll_uninstall (void);

#endif /* SEXTANT_RECORDER_PRIVATE_H */
