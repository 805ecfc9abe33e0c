/* otf2gen-every-kind.h - what the "every-kind" OTF2 archive contains
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant-otf2gen every-kind OUTDIR` writes a small, hand-designed trace of a
 * 4-rank MPI program (rank 1 also has a second thread) that uses every event
 * record kind of OTF2 3.0.2 an MPI/threads importer handles (all but the I/O
 * records).  This header is the single source of truth for that trace: the
 * generator writes its definitions and events from the constants and tables
 * below, and importer tests assert the imported rows against the same values.
 * Nothing in the trace is random; change a value here and both sides follow.
 *
 * Conventions (these are OTF2's, spelled out because importers get them wrong):
 *
 *  - Timestamps are in ticks of EK_TIMER_RESOLUTION (1 MHz: 1 tick = 1 us, so
 *    an importer storing nanoseconds multiplies by 1000).  Every timestamp is
 *    EK_TS (offset) = EK_GLOBAL_OFFSET + offset; the trace spans
 *    [EK_GLOBAL_OFFSET, EK_GLOBAL_OFFSET + EK_TRACE_LENGTH].
 *  - Peers in MPI_SEND/MPI_RECV/... records, `root` in collective records and
 *    `remote` in RMA records are ranks *in the record's communicator* (for RMA:
 *    the window's communicator), not MPI_COMM_WORLD ranks.  EK_COMM_SPLIT
 *    holds world ranks {1, 3}: its rank 0 is world rank 1 (location EK_LOC_R1).
 *  - EK_COMM_SELF is a COMM_SELF-group communicator: one definition, but every
 *    rank's use of it is a separate one-member communicator.  Ranks 0 and 2
 *    both call MPI_Allreduce on it at nearly the same time; these are two
 *    collective instances, not one.
 *  - Request ids (MPI_ISEND, MPI_IRECV_REQUEST, NON_BLOCKING_COLLECTIVE_*) are
 *    unique per location only: several locations use request id 1.
 *  - The thread location of rank 1 has a Score-P style 64-bit id,
 *    (1 << 32) | 1, and location group 1.
 *  - MPI regions have no source file (OTF2_UNDEFINED_STRING) and lines 0; user
 *    and OpenMP regions have a file and begin/end lines.
 *  - The OMP_* records are OTF2's deprecated OpenMP records (superseded by
 *    THREAD_*).  libotf2 3.0.2 hands them only to the Omp* callbacks; with
 *    only the Thread* callbacks registered they are skipped silently (checked
 *    by reading this archive), so an importer must register both sets.
 *
 * The story (offsets from EK_GLOBAL_OFFSET; depth 0 = main):
 *
 *      0   PROGRAM_BEGIN on the four master threads; ENTER main at 10.
 *    100   rank 0: setup() with the three PARAMETER_* records and a METRIC.
 *    300   rank 2: CALLING_CONTEXT_ENTER / _SAMPLE / _LEAVE.
 *          rank 3: MEASUREMENT_ON_OFF off at 300, on at 400; BUFFER_FLUSH at 500.
 *   1000   MPI_Comm_split on MPI_COMM_WORLD (collective CREATE_HANDLE); ranks
 *          1 and 3 get EK_COMM_SPLIT (COMM_CREATE), ranks 0 and 2 MPI_COMM_NULL.
 *   2000   solver() > halo_exchange() > point-to-point, ek_messages[]:
 *          M0 0->1 Send/Recv, M1 1->2 Isend/Recv (with MPI_Test),
 *          M2 2->3 Send/Irecv (with MPI_Test), M3 3->0 Isend/Irecv 0 bytes,
 *          M4 0->2 Send never received, M5 Recv on 3 from 1 never sent,
 *          M6 3->1 on EK_COMM_SPLIT (comm ranks 1->0).  Rank 2 also posts an
 *          MPI_Irecv that it cancels (MPI_REQUEST_CANCELLED, no message).
 *   3000   collectives, ek_collectives[]: barrier (rank 3 last), bcast root 2
 *          (root late), reduce on EK_COMM_SPLIT root 0 (= world 1) while
 *          ranks 0 and 2 each do an allreduce on EK_COMM_SELF, allreduce
 *          inside global_sum() (depth 3), MPI_Iallreduce + MPI_Wait around
 *          compute_kernel(), MPI_Comm_free of EK_COMM_SPLIT (COMM_DESTROY).
 *   5000   rank 1 + its thread: OpenMP fork/team/locks/tasks with the THREAD_*
 *          records, again with the deprecated OMP_* records at 5200, then a
 *          pthread_create/pthread_join pair (THREAD_CREATE/BEGIN/END/WAIT).
 *   6000   rma_epoch(): MPI_Win_create, fence, MPI_Put (0->1) / MPI_Get
 *          (2<-3), fence completing both; rank 0 locks rank 3 exclusively
 *          (accumulate, Rput + test + wait, flush), rank 1 fails a shared
 *          try-lock on rank 3 and waits for rank 0's unlock; ranks 2/3 do a
 *          post/start/complete/wait epoch; rank 2 waits for a flag
 *          (RMA_WAIT_CHANGE); MPI_Win_free.
 *   8800   rank 0: second METRIC; LEAVE main at 8900; PROGRAM_END at 8950.
 */

#pragma once

#include <stdint.h>

#include <otf2/otf2.h>

/* Tables are static in this header so each test can include it; unused ones
 * must not warn. */
#define EK_TABLE static const __attribute__ ((unused))

/* ---------------------------------------------------------------------- */
/* Clock                                                                  */
/* ---------------------------------------------------------------------- */

#define EK_TIMER_RESOLUTION  UINT64_C (1000000)       /* ticks per second */
#define EK_GLOBAL_OFFSET     UINT64_C (1000000)       /* first possible tick */
#define EK_TRACE_LENGTH      UINT64_C (9000)          /* ticks */
#define EK_REALTIME_NS       UINT64_C (1700000000000000000) /* ns since epoch at EK_GLOBAL_OFFSET */
#define EK_TS(offset)        (EK_GLOBAL_OFFSET + UINT64_C (offset))

/* ---------------------------------------------------------------------- */
/* Processes, threads, system tree                                        */
/* ---------------------------------------------------------------------- */

#define EK_N_RANKS      4
#define EK_N_LOCATIONS  5

#define EK_LOC_R0       UINT64_C (0)                           /* rank 0 master thread */
#define EK_LOC_R1       UINT64_C (1)
#define EK_LOC_R2       UINT64_C (2)
#define EK_LOC_R3       UINT64_C (3)
#define EK_LOC_R1_T1    ((UINT64_C (1) << 32) | UINT64_C (1))  /* rank 1, thread 1 */
#define EK_NO_LOCATION  OTF2_UNDEFINED_LOCATION                /* side never recorded */

/* System tree: one machine with two nodes; ranks 0, 1 on node0, 2, 3 on node1. */
enum
{
  EK_STN_MACHINE,
  EK_STN_NODE0,
  EK_STN_NODE1,
  EK_N_SYSTEM_TREE_NODES
};

typedef struct
{
  uint32_t    id;
  const char *name;
  const char *class_name;
  uint32_t    parent;      /* OTF2_UNDEFINED_SYSTEM_TREE_NODE for the root */
} EkSystemTreeNode;

EK_TABLE EkSystemTreeNode ek_system_tree[EK_N_SYSTEM_TREE_NODES] = {
  { EK_STN_MACHINE, "every-kind cluster", "machine", OTF2_UNDEFINED_SYSTEM_TREE_NODE },
  { EK_STN_NODE0,   "node0",              "node",    EK_STN_MACHINE },
  { EK_STN_NODE1,   "node1",              "node",    EK_STN_MACHINE },
};

/* Location groups: one PROCESS per rank, id == rank, named "MPI Rank <r>". */
EK_TABLE uint32_t ek_rank_node[EK_N_RANKS] = { EK_STN_NODE0, EK_STN_NODE0, EK_STN_NODE1, EK_STN_NODE1 };

typedef struct
{
  uint64_t    id;
  uint32_t    rank;        /* location group */
  uint32_t    thread;      /* 0 = master thread */
  const char *name;
  uint64_t    n_events;    /* raw records; also written into the Location definition */
  uint64_t    n_visits;    /* ENTER/LEAVE pairs */
  uint32_t    max_depth;   /* deepest visit, main = 0 */
} EkLocation;

/* Order: the order in which the definitions are written. */
EK_TABLE EkLocation ek_locations[EK_N_LOCATIONS] = {
  { EK_LOC_R0,    0, 0, "Master thread",   104, 30, 3 },
  { EK_LOC_R1,    1, 0, "Master thread",   109, 29, 3 },
  { EK_LOC_R2,    2, 0, "Master thread",    92, 27, 3 },
  { EK_LOC_R3,    3, 0, "Master thread",    94, 27, 3 },
  { EK_LOC_R1_T1, 1, 1, "OpenMP thread 1",  22,  5, 1 },
};

#define EK_N_EVENTS  421   /* sum of ek_locations[].n_events */
#define EK_N_VISITS  118   /* sum of ek_locations[].n_visits */

/* ---------------------------------------------------------------------- */
/* Regions                                                                */
/* ---------------------------------------------------------------------- */

enum
{
  /* user code (paradigm USER), with source file and lines */
  EK_REGION_MAIN,
  EK_REGION_SETUP,
  EK_REGION_SOLVER,
  EK_REGION_HALO_EXCHANGE,
  EK_REGION_GLOBAL_SUM,
  EK_REGION_COMPUTE_KERNEL,
  EK_REGION_RMA_EPOCH,
  EK_REGION_WAIT_FOR_FLAG,
  EK_REGION_WORKER,
  /* OpenMP constructs, with source file and lines */
  EK_REGION_OMP_PARALLEL,
  EK_REGION_OMP_TASK,
  /* POSIX threads, no source */
  EK_REGION_PTHREAD_CREATE,
  EK_REGION_PTHREAD_JOIN,
  /* MPI, no source */
  EK_REGION_MPI_SEND,
  EK_REGION_MPI_ISEND,
  EK_REGION_MPI_RECV,
  EK_REGION_MPI_IRECV,
  EK_REGION_MPI_WAIT,
  EK_REGION_MPI_TEST,
  EK_REGION_MPI_CANCEL,
  EK_REGION_MPI_BARRIER,
  EK_REGION_MPI_BCAST,
  EK_REGION_MPI_REDUCE,
  EK_REGION_MPI_ALLREDUCE,
  EK_REGION_MPI_IALLREDUCE,
  EK_REGION_MPI_COMM_SPLIT,
  EK_REGION_MPI_COMM_FREE,
  EK_REGION_MPI_WIN_CREATE,
  EK_REGION_MPI_WIN_FREE,
  EK_REGION_MPI_WIN_FENCE,
  EK_REGION_MPI_PUT,
  EK_REGION_MPI_GET,
  EK_REGION_MPI_ACCUMULATE,
  EK_REGION_MPI_RPUT,
  EK_REGION_MPI_WIN_LOCK,
  EK_REGION_MPI_WIN_UNLOCK,
  EK_REGION_MPI_WIN_FLUSH,
  EK_REGION_MPI_WIN_POST,
  EK_REGION_MPI_WIN_WAIT,
  EK_REGION_MPI_WIN_START,
  EK_REGION_MPI_WIN_COMPLETE,
  EK_N_REGIONS
};

#define EK_FILE_MAIN     "/opt/every-kind/src/every_kind.c"
#define EK_FILE_SOLVER   "/opt/every-kind/src/solver.c"
#define EK_FILE_RMA      "/opt/every-kind/src/rma.c"
#define EK_FILE_THREADS  "/opt/every-kind/src/threads.c"

typedef struct
{
  uint32_t        id;
  const char     *name;        /* also the canonical name; description is "" */
  OTF2_RegionRole role;
  OTF2_Paradigm   paradigm;
  const char     *file;        /* NULL: OTF2_UNDEFINED_STRING */
  uint32_t        begin_line;  /* 0 when there is no file */
  uint32_t        end_line;
} EkRegion;

EK_TABLE EkRegion ek_regions[EK_N_REGIONS] = {
  { EK_REGION_MAIN,           "main",           OTF2_REGION_ROLE_FUNCTION,      OTF2_PARADIGM_USER,    EK_FILE_MAIN,     10, 200 },
  { EK_REGION_SETUP,          "setup",          OTF2_REGION_ROLE_FUNCTION,      OTF2_PARADIGM_USER,    EK_FILE_MAIN,     30,  60 },
  { EK_REGION_SOLVER,         "solver",         OTF2_REGION_ROLE_FUNCTION,      OTF2_PARADIGM_USER,    EK_FILE_SOLVER,   40, 120 },
  { EK_REGION_HALO_EXCHANGE,  "halo_exchange",  OTF2_REGION_ROLE_FUNCTION,      OTF2_PARADIGM_USER,    EK_FILE_SOLVER,  130, 190 },
  { EK_REGION_GLOBAL_SUM,     "global_sum",     OTF2_REGION_ROLE_FUNCTION,      OTF2_PARADIGM_USER,    EK_FILE_SOLVER,  200, 230 },
  { EK_REGION_COMPUTE_KERNEL, "compute_kernel", OTF2_REGION_ROLE_LOOP,          OTF2_PARADIGM_USER,    EK_FILE_SOLVER,   60,  80 },
  { EK_REGION_RMA_EPOCH,      "rma_epoch",      OTF2_REGION_ROLE_FUNCTION,      OTF2_PARADIGM_USER,    EK_FILE_RMA,      10,  90 },
  { EK_REGION_WAIT_FOR_FLAG,  "wait_for_flag",  OTF2_REGION_ROLE_FUNCTION,      OTF2_PARADIGM_USER,    EK_FILE_RMA,     100, 115 },
  { EK_REGION_WORKER,         "worker",         OTF2_REGION_ROLE_FUNCTION,      OTF2_PARADIGM_USER,    EK_FILE_THREADS,  20,  45 },
  { EK_REGION_OMP_PARALLEL,   "!$omp parallel @threads.c:60", OTF2_REGION_ROLE_PARALLEL, OTF2_PARADIGM_OPENMP, EK_FILE_THREADS, 60, 75 },
  { EK_REGION_OMP_TASK,       "!$omp task @threads.c:64",     OTF2_REGION_ROLE_TASK,     OTF2_PARADIGM_OPENMP, EK_FILE_THREADS, 64, 68 },
  { EK_REGION_PTHREAD_CREATE, "pthread_create", OTF2_REGION_ROLE_THREAD_CREATE, OTF2_PARADIGM_PTHREAD, NULL, 0, 0 },
  { EK_REGION_PTHREAD_JOIN,   "pthread_join",   OTF2_REGION_ROLE_THREAD_WAIT,   OTF2_PARADIGM_PTHREAD, NULL, 0, 0 },
  { EK_REGION_MPI_SEND,       "MPI_Send",       OTF2_REGION_ROLE_POINT2POINT,   OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_ISEND,      "MPI_Isend",      OTF2_REGION_ROLE_POINT2POINT,   OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_RECV,       "MPI_Recv",       OTF2_REGION_ROLE_POINT2POINT,   OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_IRECV,      "MPI_Irecv",      OTF2_REGION_ROLE_POINT2POINT,   OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WAIT,       "MPI_Wait",       OTF2_REGION_ROLE_POINT2POINT,   OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_TEST,       "MPI_Test",       OTF2_REGION_ROLE_POINT2POINT,   OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_CANCEL,     "MPI_Cancel",     OTF2_REGION_ROLE_POINT2POINT,   OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_BARRIER,    "MPI_Barrier",    OTF2_REGION_ROLE_BARRIER,       OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_BCAST,      "MPI_Bcast",      OTF2_REGION_ROLE_COLL_ONE2ALL,  OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_REDUCE,     "MPI_Reduce",     OTF2_REGION_ROLE_COLL_ALL2ONE,  OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_ALLREDUCE,  "MPI_Allreduce",  OTF2_REGION_ROLE_COLL_ALL2ALL,  OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_IALLREDUCE, "MPI_Iallreduce", OTF2_REGION_ROLE_COLL_ALL2ALL,  OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_COMM_SPLIT, "MPI_Comm_split", OTF2_REGION_ROLE_COLL_OTHER,    OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_COMM_FREE,  "MPI_Comm_free",  OTF2_REGION_ROLE_COLL_OTHER,    OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_CREATE, "MPI_Win_create", OTF2_REGION_ROLE_COLL_OTHER,    OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_FREE,   "MPI_Win_free",   OTF2_REGION_ROLE_COLL_OTHER,    OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_FENCE,  "MPI_Win_fence",  OTF2_REGION_ROLE_BARRIER,       OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_PUT,        "MPI_Put",        OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_GET,        "MPI_Get",        OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_ACCUMULATE, "MPI_Accumulate", OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_RPUT,       "MPI_Rput",       OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_LOCK,   "MPI_Win_lock",   OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_UNLOCK, "MPI_Win_unlock", OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_FLUSH,  "MPI_Win_flush",  OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_POST,   "MPI_Win_post",   OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_WAIT,   "MPI_Win_wait",   OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_START,  "MPI_Win_start",  OTF2_REGION_ROLE_RMA,           OTF2_PARADIGM_MPI, NULL, 0, 0 },
  { EK_REGION_MPI_WIN_COMPLETE, "MPI_Win_complete", OTF2_REGION_ROLE_RMA,       OTF2_PARADIGM_MPI, NULL, 0, 0 },
};

/* Callpaths (definitions only; no event refers to them): main > solver > halo_exchange. */
enum { EK_CALLPATH_MAIN, EK_CALLPATH_SOLVER, EK_CALLPATH_HALO, EK_N_CALLPATHS };

/* ---------------------------------------------------------------------- */
/* Groups and communicators                                               */
/* ---------------------------------------------------------------------- */

enum
{
  EK_GROUP_MPI_LOCATIONS,      /* COMM_LOCATIONS/MPI: location of world rank i at index i */
  EK_GROUP_WORLD,              /* COMM_GROUP/MPI {0, 1, 2, 3} */
  EK_GROUP_SPLIT,              /* COMM_GROUP/MPI {1, 3} */
  EK_GROUP_SELF,               /* COMM_SELF/MPI, no members */
  EK_GROUP_PEER_R2,            /* COMM_GROUP/MPI {2}: remote group of rank 3's post/wait */
  EK_GROUP_PEER_R3,            /* COMM_GROUP/MPI {3}: remote group of rank 2's start/complete */
  EK_GROUP_OMP_LOCATIONS,      /* COMM_LOCATIONS/OPENMP {EK_LOC_R1, EK_LOC_R1_T1} */
  EK_GROUP_OMP_TEAM,           /* COMM_GROUP/OPENMP {0, 1} */
  EK_GROUP_PTHREAD_LOCATIONS,  /* COMM_LOCATIONS/PTHREAD {EK_LOC_R1, EK_LOC_R1_T1} */
  EK_GROUP_PTHREAD_CONTINGENT, /* COMM_GROUP/PTHREAD {0, 1} */
  EK_N_GROUPS
};

#define EK_MAX_GROUP_MEMBERS 4

typedef struct
{
  uint32_t       id;
  const char    *name;
  OTF2_GroupType type;
  OTF2_Paradigm  paradigm;
  uint32_t       n_members;
  uint64_t       members[EK_MAX_GROUP_MEMBERS];  /* locations (COMM_LOCATIONS) or ranks */
} EkGroup;

EK_TABLE EkGroup ek_groups[EK_N_GROUPS] = {
  { EK_GROUP_MPI_LOCATIONS, "MPI locations", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, 4,
    { EK_LOC_R0, EK_LOC_R1, EK_LOC_R2, EK_LOC_R3 } },
  { EK_GROUP_WORLD,   "world ranks", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, 4, { 0, 1, 2, 3 } },
  { EK_GROUP_SPLIT,   "split ranks", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, 2, { 1, 3 } },
  { EK_GROUP_SELF,    "self",        OTF2_GROUP_TYPE_COMM_SELF,  OTF2_PARADIGM_MPI, 0, { 0 } },
  { EK_GROUP_PEER_R2, "peer 2",      OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, 1, { 2 } },
  { EK_GROUP_PEER_R3, "peer 3",      OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, 1, { 3 } },
  { EK_GROUP_OMP_LOCATIONS, "OpenMP locations", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP, 2,
    { EK_LOC_R1, EK_LOC_R1_T1 } },
  { EK_GROUP_OMP_TEAM, "OpenMP team", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP, 2, { 0, 1 } },
  { EK_GROUP_PTHREAD_LOCATIONS, "pthread locations", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_PTHREAD, 2,
    { EK_LOC_R1, EK_LOC_R1_T1 } },
  { EK_GROUP_PTHREAD_CONTINGENT, "pthread contingent", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_PTHREAD, 2,
    { 0, 1 } },
};

enum
{
  EK_COMM_WORLD,      /* "MPI_COMM_WORLD", EK_GROUP_WORLD */
  EK_COMM_SPLIT,      /* "MPI_COMM_WORLD.split", EK_GROUP_SPLIT, parent world, create/destroy events */
  EK_COMM_SELF,       /* "MPI_COMM_SELF", EK_GROUP_SELF */
  EK_COMM_OMP_TEAM,   /* thread team of rank 1's parallel regions */
  EK_COMM_PTHREAD,    /* thread contingent of rank 1's pthread_create */
  EK_N_COMMS
};

typedef struct
{
  uint32_t      id;
  const char   *name;
  uint32_t      group;
  uint32_t      parent;  /* OTF2_UNDEFINED_COMM for none */
  OTF2_CommFlag flags;
} EkComm;

EK_TABLE EkComm ek_comms[EK_N_COMMS] = {
  { EK_COMM_WORLD,    "MPI_COMM_WORLD",       EK_GROUP_WORLD,    OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE },
  { EK_COMM_SPLIT,    "MPI_COMM_WORLD.split", EK_GROUP_SPLIT,    EK_COMM_WORLD,
    OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS },
  { EK_COMM_SELF,     "MPI_COMM_SELF",        EK_GROUP_SELF,     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE },
  { EK_COMM_OMP_TEAM, "OpenMP thread team",   EK_GROUP_OMP_TEAM, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE },
  { EK_COMM_PTHREAD,  "pthread contingent",   EK_GROUP_PTHREAD_CONTINGENT, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE },
};

#define EK_WIN       0                 /* "win0" on EK_COMM_WORLD, create/destroy events */
#define EK_WIN_NAME  "win0"

/* ---------------------------------------------------------------------- */
/* Other definitions                                                      */
/* ---------------------------------------------------------------------- */

/* Source code locations and the calling-context tree main > solver > compute_kernel. */
enum { EK_SCL_MAIN, EK_SCL_SOLVER, EK_SCL_KERNEL, EK_N_SCLS };
EK_TABLE uint32_t ek_scl_lines[EK_N_SCLS] = { 12, 44, 66 };   /* files: main, solver, solver */
enum { EK_CC_MAIN, EK_CC_SOLVER, EK_CC_KERNEL, EK_N_CALLING_CONTEXTS };
#define EK_INTERRUPT_GENERATOR         0          /* "itimer", TIME mode */
#define EK_INTERRUPT_PERIOD_NS         UINT64_C (1000000)

/* Metric class with two members, recorded by EK_LOC_R0. */
enum { EK_METRIC_MEMBER_INSTRUCTIONS, EK_METRIC_MEMBER_TEMPERATURE, EK_N_METRIC_MEMBERS };
#define EK_METRIC_CLASS                0
#define EK_METRIC_INSTRUCTIONS_NAME    "PAPI_TOT_INS"   /* UINT64, accumulated, unit "#" */
#define EK_METRIC_TEMPERATURE_NAME     "temperature"    /* DOUBLE, absolute, unit "degC" */

/* Parameters. */
enum { EK_PARAM_INPUT_FILE, EK_PARAM_LEVEL, EK_PARAM_ITERATIONS, EK_N_PARAMETERS };
#define EK_PARAM_INPUT_FILE_VALUE      "mesh.dat"
#define EK_PARAM_LEVEL_VALUE           INT64_C (-3)
#define EK_PARAM_ITERATIONS_VALUE      UINT64_C (2)

/* Attribute "iteration" (UINT32), attached to rank 0's ENTER of solver. */
#define EK_ATTR_ITERATION              0
#define EK_ATTR_ITERATION_VALUE        1

#define EK_PROGRAM_NAME                "every_kind"
#define EK_PROGRAM_ARG0                "./every_kind"
#define EK_PROGRAM_ARG1                "--steps=2"
#define EK_PROGRAM_EXIT_STATUS         INT64_C (0)

/* ---------------------------------------------------------------------- */
/* Phase A: start-up                                                      */
/* ---------------------------------------------------------------------- */

#define EK_PROGRAM_BEGIN_TS       EK_TS (0)      /* all master threads */
#define EK_MAIN_ENTER_TS          EK_TS (10)     /* all master threads, depth 0 */
#define EK_SETUP_ENTER_TS         EK_TS (100)    /* rank 0, depth 1 */
#define EK_PARAM_STRING_TS        EK_TS (110)    /* rank 0: input_file = "mesh.dat" */
#define EK_PARAM_INT_TS           EK_TS (120)    /* rank 0: level = -3 */
#define EK_PARAM_UINT_TS          EK_TS (130)    /* rank 0: iterations = 2 */
#define EK_METRIC0_TS             EK_TS (140)    /* rank 0 */
#define EK_METRIC0_INSTRUCTIONS   UINT64_C (123456)
#define EK_METRIC0_TEMPERATURE    41.5
#define EK_SETUP_LEAVE_TS         EK_TS (200)
#define EK_CC_ENTER_TS            EK_TS (300)    /* rank 2: EK_CC_KERNEL, unwind distance 3 */
#define EK_CC_ENTER_UNWIND        3
#define EK_CC_SAMPLE_TS           EK_TS (350)    /* rank 2: EK_CC_KERNEL, unwind 1, EK_INTERRUPT_GENERATOR */
#define EK_CC_SAMPLE_UNWIND       1
#define EK_CC_LEAVE_TS            EK_TS (400)    /* rank 2: EK_CC_KERNEL */
#define EK_MEASUREMENT_OFF_TS     EK_TS (300)    /* rank 3 */
#define EK_MEASUREMENT_ON_TS      EK_TS (400)    /* rank 3 */
#define EK_BUFFER_FLUSH_TS        EK_TS (500)    /* rank 3 */
#define EK_BUFFER_FLUSH_STOP_TS   EK_TS (520)

/* ---------------------------------------------------------------------- */
/* Phase C: point-to-point (inside solver > halo_exchange, MPI at depth 3) */
/* ---------------------------------------------------------------------- */

#define EK_SOLVER_ENTER_TS        EK_TS (2000)   /* all ranks, depth 1 */
#define EK_HALO_ENTER_TS          EK_TS (2010)   /* all ranks, depth 2 */
#define EK_HALO_LEAVE_TS          EK_TS (2600)
#define EK_SOLVER_LEAVE_TS        EK_TS (4990)

/* Naming: SEND_TS / RECV_TS are the records carrying the envelope
 * (MPI_SEND or MPI_ISEND; MPI_RECV or MPI_IRECV).  SEND_ENTER/LEAVE and
 * RECV_ENTER/LEAVE bracket the call that starts the operation (MPI_Send,
 * MPI_Isend, MPI_Recv, MPI_Irecv).  Non-blocking sides also have a
 * WAIT_ENTER/WAIT_LEAVE (MPI_Wait) holding MPI_ISEND_COMPLETE (SEND_COMPLETE_TS)
 * or MPI_IRECV (RECV_TS), and possibly a TEST_ENTER/TEST_TS/TEST_LEAVE (MPI_Test
 * with MPI_REQUEST_TEST).  A non-blocking receive's MPI_IRECV_REQUEST is at
 * RECV_REQUEST_TS. */

/* M0: rank 0 MPI_Send -> rank 1 MPI_Recv (receiver waits: late sender). */
#define EK_MSG0_TAG               10
#define EK_MSG0_BYTES             1024
#define EK_MSG0_SEND_ENTER_TS     EK_TS (2100)
#define EK_MSG0_SEND_TS           EK_TS (2105)
#define EK_MSG0_SEND_LEAVE_TS     EK_TS (2150)
#define EK_MSG0_RECV_ENTER_TS     EK_TS (2090)
#define EK_MSG0_RECV_TS           EK_TS (2155)
#define EK_MSG0_RECV_LEAVE_TS     EK_TS (2160)

/* M1: rank 1 MPI_Isend (request 1, tested once) -> rank 2 MPI_Recv. */
#define EK_MSG1_TAG               11
#define EK_MSG1_BYTES             2048
#define EK_MSG1_SEND_REQUEST      1
#define EK_MSG1_SEND_ENTER_TS     EK_TS (2200)
#define EK_MSG1_SEND_TS           EK_TS (2202)
#define EK_MSG1_SEND_LEAVE_TS     EK_TS (2210)
#define EK_MSG1_SEND_TEST_ENTER_TS EK_TS (2250)
#define EK_MSG1_SEND_TEST_TS      EK_TS (2252)
#define EK_MSG1_SEND_TEST_LEAVE_TS EK_TS (2255)
#define EK_MSG1_SEND_WAIT_ENTER_TS EK_TS (2300)
#define EK_MSG1_SEND_COMPLETE_TS  EK_TS (2315)
#define EK_MSG1_SEND_WAIT_LEAVE_TS EK_TS (2320)
#define EK_MSG1_RECV_ENTER_TS     EK_TS (2190)
#define EK_MSG1_RECV_TS           EK_TS (2255)
#define EK_MSG1_RECV_LEAVE_TS     EK_TS (2260)

/* M2: rank 2 MPI_Send -> rank 3 MPI_Irecv (request 1, tested once). */
#define EK_MSG2_TAG               12
#define EK_MSG2_BYTES             4096
#define EK_MSG2_SEND_ENTER_TS     EK_TS (2300)
#define EK_MSG2_SEND_TS           EK_TS (2302)
#define EK_MSG2_SEND_LEAVE_TS     EK_TS (2330)
#define EK_MSG2_RECV_REQUEST      1
#define EK_MSG2_RECV_ENTER_TS     EK_TS (2100)
#define EK_MSG2_RECV_REQUEST_TS   EK_TS (2101)
#define EK_MSG2_RECV_LEAVE_TS     EK_TS (2105)
#define EK_MSG2_RECV_TEST_ENTER_TS EK_TS (2200)
#define EK_MSG2_RECV_TEST_TS      EK_TS (2201)
#define EK_MSG2_RECV_TEST_LEAVE_TS EK_TS (2205)
#define EK_MSG2_RECV_WAIT_ENTER_TS EK_TS (2300)
#define EK_MSG2_RECV_TS           EK_TS (2335)
#define EK_MSG2_RECV_WAIT_LEAVE_TS EK_TS (2340)

/* M3: rank 3 MPI_Isend (request 2) -> rank 0 MPI_Irecv (request 1), zero bytes. */
#define EK_MSG3_TAG               13
#define EK_MSG3_BYTES             0
#define EK_MSG3_SEND_REQUEST      2
#define EK_MSG3_SEND_ENTER_TS     EK_TS (2350)
#define EK_MSG3_SEND_TS           EK_TS (2351)
#define EK_MSG3_SEND_LEAVE_TS     EK_TS (2355)
#define EK_MSG3_SEND_WAIT_ENTER_TS EK_TS (2360)
#define EK_MSG3_SEND_COMPLETE_TS  EK_TS (2362)
#define EK_MSG3_SEND_WAIT_LEAVE_TS EK_TS (2365)
#define EK_MSG3_RECV_REQUEST      1
#define EK_MSG3_RECV_ENTER_TS     EK_TS (2300)
#define EK_MSG3_RECV_REQUEST_TS   EK_TS (2305)
#define EK_MSG3_RECV_LEAVE_TS     EK_TS (2310)
#define EK_MSG3_RECV_WAIT_ENTER_TS EK_TS (2400)
#define EK_MSG3_RECV_TS           EK_TS (2440)
#define EK_MSG3_RECV_WAIT_LEAVE_TS EK_TS (2450)

/* M4: rank 0 MPI_Send -> rank 2; never received (unmatched send). */
#define EK_MSG4_TAG               99
#define EK_MSG4_BYTES             64
#define EK_MSG4_SEND_ENTER_TS     EK_TS (2200)
#define EK_MSG4_SEND_TS           EK_TS (2205)
#define EK_MSG4_SEND_LEAVE_TS     EK_TS (2220)

/* M5: rank 3 MPI_Recv from rank 1; never sent (unmatched receive). */
#define EK_MSG5_TAG               98
#define EK_MSG5_BYTES             128
#define EK_MSG5_RECV_ENTER_TS     EK_TS (2500)
#define EK_MSG5_RECV_TS           EK_TS (2545)
#define EK_MSG5_RECV_LEAVE_TS     EK_TS (2550)

/* M6: on EK_COMM_SPLIT, comm rank 1 (world 3) MPI_Send -> comm rank 0 (world 1) MPI_Recv. */
#define EK_MSG6_TAG               20
#define EK_MSG6_BYTES             512
#define EK_MSG6_SEND_ENTER_TS     EK_TS (2400)
#define EK_MSG6_SEND_TS           EK_TS (2410)
#define EK_MSG6_SEND_LEAVE_TS     EK_TS (2420)
#define EK_MSG6_RECV_ENTER_TS     EK_TS (2400)
#define EK_MSG6_RECV_TS           EK_TS (2470)
#define EK_MSG6_RECV_LEAVE_TS     EK_TS (2480)

/* Rank 2's cancelled receive: MPI_Irecv (MPI_IRECV_REQUEST, request 1),
 * MPI_Cancel, MPI_Wait (MPI_REQUEST_CANCELLED).  Not a message. */
#define EK_CANCEL_REQUEST         1
#define EK_CANCEL_IRECV_ENTER_TS  EK_TS (2400)
#define EK_CANCEL_REQUEST_TS      EK_TS (2402)
#define EK_CANCEL_IRECV_LEAVE_TS  EK_TS (2405)
#define EK_CANCEL_CANCEL_ENTER_TS EK_TS (2410)
#define EK_CANCEL_CANCEL_LEAVE_TS EK_TS (2415)
#define EK_CANCEL_WAIT_ENTER_TS   EK_TS (2420)
#define EK_CANCEL_CANCELLED_TS    EK_TS (2425)
#define EK_CANCEL_WAIT_LEAVE_TS   EK_TS (2430)

typedef enum
{
  EK_MODE_BLOCKING,     /* MPI_Send / MPI_Recv holding the record */
  EK_MODE_NONBLOCKING,  /* MPI_Isend / MPI_Irecv, optional MPI_Test, MPI_Wait */
} EkMode;

typedef struct
{
  uint64_t enter_ts;    /* 0 = this call does not exist */
  uint64_t event_ts;    /* the MPI record inside the call */
  uint64_t leave_ts;
} EkCall;

typedef struct
{
  uint64_t location;    /* EK_NO_LOCATION: this side was never recorded */
  uint32_t peer;        /* partner's rank in the message's communicator, as recorded */
  EkMode   mode;
  uint64_t request;     /* non-blocking only */
  EkCall   post;        /* MPI_Send: MPI_SEND; MPI_Isend: MPI_ISEND; MPI_Recv: MPI_RECV;
                           MPI_Irecv: MPI_IRECV_REQUEST */
  EkCall   test;        /* MPI_Test: MPI_REQUEST_TEST */
  EkCall   wait;        /* MPI_Wait: MPI_ISEND_COMPLETE or MPI_IRECV */
} EkMessageSide;

typedef struct
{
  const char   *name;
  uint32_t      comm;
  uint32_t      tag;
  uint64_t      bytes;
  uint32_t      src_world_rank;  /* both defined even when one side is missing */
  uint32_t      dst_world_rank;
  EkMessageSide send;
  EkMessageSide recv;
} EkMessage;

enum { EK_MSG0, EK_MSG1, EK_MSG2, EK_MSG3, EK_MSG4, EK_MSG5, EK_MSG6, EK_N_MESSAGES };

#define EK_N_MESSAGES_MATCHED        5   /* M0, M1, M2, M3, M6 */
#define EK_N_MESSAGES_UNMATCHED_SEND 1   /* M4 */
#define EK_N_MESSAGES_UNMATCHED_RECV 1   /* M5 */

#define EK_NO_CALL { 0, 0, 0 }
#define EK_NO_SIDE { EK_NO_LOCATION, 0, EK_MODE_BLOCKING, 0, EK_NO_CALL, EK_NO_CALL, EK_NO_CALL }

EK_TABLE EkMessage ek_messages[EK_N_MESSAGES] = {
  { "M0", EK_COMM_WORLD, EK_MSG0_TAG, EK_MSG0_BYTES, 0, 1,
    { EK_LOC_R0, 1, EK_MODE_BLOCKING, 0,
      { EK_MSG0_SEND_ENTER_TS, EK_MSG0_SEND_TS, EK_MSG0_SEND_LEAVE_TS }, EK_NO_CALL, EK_NO_CALL },
    { EK_LOC_R1, 0, EK_MODE_BLOCKING, 0,
      { EK_MSG0_RECV_ENTER_TS, EK_MSG0_RECV_TS, EK_MSG0_RECV_LEAVE_TS }, EK_NO_CALL, EK_NO_CALL } },
  { "M1", EK_COMM_WORLD, EK_MSG1_TAG, EK_MSG1_BYTES, 1, 2,
    { EK_LOC_R1, 2, EK_MODE_NONBLOCKING, EK_MSG1_SEND_REQUEST,
      { EK_MSG1_SEND_ENTER_TS, EK_MSG1_SEND_TS, EK_MSG1_SEND_LEAVE_TS },
      { EK_MSG1_SEND_TEST_ENTER_TS, EK_MSG1_SEND_TEST_TS, EK_MSG1_SEND_TEST_LEAVE_TS },
      { EK_MSG1_SEND_WAIT_ENTER_TS, EK_MSG1_SEND_COMPLETE_TS, EK_MSG1_SEND_WAIT_LEAVE_TS } },
    { EK_LOC_R2, 1, EK_MODE_BLOCKING, 0,
      { EK_MSG1_RECV_ENTER_TS, EK_MSG1_RECV_TS, EK_MSG1_RECV_LEAVE_TS }, EK_NO_CALL, EK_NO_CALL } },
  { "M2", EK_COMM_WORLD, EK_MSG2_TAG, EK_MSG2_BYTES, 2, 3,
    { EK_LOC_R2, 3, EK_MODE_BLOCKING, 0,
      { EK_MSG2_SEND_ENTER_TS, EK_MSG2_SEND_TS, EK_MSG2_SEND_LEAVE_TS }, EK_NO_CALL, EK_NO_CALL },
    { EK_LOC_R3, 2, EK_MODE_NONBLOCKING, EK_MSG2_RECV_REQUEST,
      { EK_MSG2_RECV_ENTER_TS, EK_MSG2_RECV_REQUEST_TS, EK_MSG2_RECV_LEAVE_TS },
      { EK_MSG2_RECV_TEST_ENTER_TS, EK_MSG2_RECV_TEST_TS, EK_MSG2_RECV_TEST_LEAVE_TS },
      { EK_MSG2_RECV_WAIT_ENTER_TS, EK_MSG2_RECV_TS, EK_MSG2_RECV_WAIT_LEAVE_TS } } },
  { "M3", EK_COMM_WORLD, EK_MSG3_TAG, EK_MSG3_BYTES, 3, 0,
    { EK_LOC_R3, 0, EK_MODE_NONBLOCKING, EK_MSG3_SEND_REQUEST,
      { EK_MSG3_SEND_ENTER_TS, EK_MSG3_SEND_TS, EK_MSG3_SEND_LEAVE_TS }, EK_NO_CALL,
      { EK_MSG3_SEND_WAIT_ENTER_TS, EK_MSG3_SEND_COMPLETE_TS, EK_MSG3_SEND_WAIT_LEAVE_TS } },
    { EK_LOC_R0, 3, EK_MODE_NONBLOCKING, EK_MSG3_RECV_REQUEST,
      { EK_MSG3_RECV_ENTER_TS, EK_MSG3_RECV_REQUEST_TS, EK_MSG3_RECV_LEAVE_TS }, EK_NO_CALL,
      { EK_MSG3_RECV_WAIT_ENTER_TS, EK_MSG3_RECV_TS, EK_MSG3_RECV_WAIT_LEAVE_TS } } },
  { "M4", EK_COMM_WORLD, EK_MSG4_TAG, EK_MSG4_BYTES, 0, 2,
    { EK_LOC_R0, 2, EK_MODE_BLOCKING, 0,
      { EK_MSG4_SEND_ENTER_TS, EK_MSG4_SEND_TS, EK_MSG4_SEND_LEAVE_TS }, EK_NO_CALL, EK_NO_CALL },
    EK_NO_SIDE },
  { "M5", EK_COMM_WORLD, EK_MSG5_TAG, EK_MSG5_BYTES, 1, 3,
    EK_NO_SIDE,
    { EK_LOC_R3, 1, EK_MODE_BLOCKING, 0,
      { EK_MSG5_RECV_ENTER_TS, EK_MSG5_RECV_TS, EK_MSG5_RECV_LEAVE_TS }, EK_NO_CALL, EK_NO_CALL } },
  { "M6", EK_COMM_SPLIT, EK_MSG6_TAG, EK_MSG6_BYTES, 3, 1,
    { EK_LOC_R3, 0, EK_MODE_BLOCKING, 0,
      { EK_MSG6_SEND_ENTER_TS, EK_MSG6_SEND_TS, EK_MSG6_SEND_LEAVE_TS }, EK_NO_CALL, EK_NO_CALL },
    { EK_LOC_R1, 1, EK_MODE_BLOCKING, 0,
      { EK_MSG6_RECV_ENTER_TS, EK_MSG6_RECV_TS, EK_MSG6_RECV_LEAVE_TS }, EK_NO_CALL, EK_NO_CALL } },
};

/* ---------------------------------------------------------------------- */
/* Collectives (MPI_COLLECTIVE_*, NON_BLOCKING_COLLECTIVE_*, RMA_COLLECTIVE_*) */
/* ---------------------------------------------------------------------- */

/* A record some members write between the collective's begin and end. */
typedef enum
{
  EK_INNER_NONE,
  EK_INNER_COMM_CREATE,             /* COMM_CREATE (inner_arg = communicator) */
  EK_INNER_COMM_DESTROY,            /* COMM_DESTROY (inner_arg = communicator) */
  EK_INNER_RMA_WIN_CREATE,          /* RMA_WIN_CREATE (inner_arg = window) */
  EK_INNER_RMA_WIN_DESTROY,         /* RMA_WIN_DESTROY (inner_arg = window) */
  EK_INNER_RMA_OP_COMPLETE_BLOCKING /* RMA_OP_COMPLETE_BLOCKING (inner_arg = matching id) */
} EkInner;

typedef struct
{
  uint64_t location;
  uint32_t rank;            /* rank in the collective's communicator */
  uint64_t enter_ts;        /* Enter of the MPI call (MPI_Iallreduce when non-blocking) */
  uint64_t begin_ts;        /* MPI/RMA_COLLECTIVE_BEGIN, or NON_BLOCKING_COLLECTIVE_REQUEST */
  uint64_t inner_ts;        /* the inner record, 0 = none for this member */
  uint64_t inner_arg;
  uint64_t end_ts;          /* MPI/RMA_COLLECTIVE_END, or NON_BLOCKING_COLLECTIVE_COMPLETE */
  uint64_t leave_ts;        /* Leave of the MPI call (of MPI_Wait when non-blocking) */
  uint64_t bytes_sent;
  uint64_t bytes_received;
  uint64_t post_leave_ts;   /* non-blocking: Leave of MPI_Iallreduce */
  uint64_t wait_enter_ts;   /* non-blocking: Enter of MPI_Wait */
  uint64_t request;         /* non-blocking: request id */
} EkCollectiveMember;

typedef struct
{
  const char         *name;
  uint32_t            region;          /* the MPI call */
  OTF2_CollectiveOp   op;
  uint32_t            comm;            /* MPI collectives: communicator; RMA: OTF2_UNDEFINED_COMM */
  uint32_t            win;             /* RMA collectives: window; MPI: OTF2_UNDEFINED_RMA_WIN */
  OTF2_RmaSyncLevel   sync_level;      /* RMA collectives only */
  uint32_t            root;            /* as recorded: comm rank, or OTF2_UNDEFINED_UINT32 */
  uint32_t            root_world_rank; /* OTF2_UNDEFINED_UINT32 when there is no root */
  int                 nonblocking;
  EkInner             inner;
  uint32_t            n_members;
  EkCollectiveMember  members[EK_N_RANKS];
} EkCollective;

enum
{
  EK_COLL_COMM_SPLIT,       /* world, CREATE_HANDLE; ranks 1, 3 COMM_CREATE EK_COMM_SPLIT */
  EK_COLL_BARRIER,          /* world; rank r enters at 3000 + 30 r */
  EK_COLL_BCAST,            /* world, root 2 (enters last) */
  EK_COLL_REDUCE_SPLIT,     /* EK_COMM_SPLIT, root 0 = world rank 1 */
  EK_COLL_ALLREDUCE_SELF_R0,/* EK_COMM_SELF on rank 0 */
  EK_COLL_ALLREDUCE_SELF_R2,/* EK_COMM_SELF on rank 2: a separate instance */
  EK_COLL_ALLREDUCE,        /* world, inside global_sum (MPI at depth 3) */
  EK_COLL_IALLREDUCE,       /* world, non-blocking, request 50 on every rank */
  EK_COLL_COMM_FREE,        /* EK_COMM_SPLIT, DESTROY_HANDLE; COMM_DESTROY on both members */
  EK_N_COLLECTIVES
};

#define EK_UNDEF32 OTF2_UNDEFINED_UINT32
#define EK_NO_WIN  OTF2_UNDEFINED_RMA_WIN
#define EK_NO_COMM OTF2_UNDEFINED_COMM

#define EK_BCAST_BYTES         256   /* root sends 3 x 256, others receive 256 */
#define EK_REDUCE_BYTES        8     /* each member sends 8, the root receives 2 x 8 */
#define EK_ALLREDUCE_BYTES     16
#define EK_SELF_BYTES          8
#define EK_IALLREDUCE_BYTES    8
#define EK_IALLREDUCE_REQUEST  50

/* global_sum() around EK_COLL_ALLREDUCE, compute_kernel() between the
 * MPI_Iallreduce and its MPI_Wait; all ranks, depth 2. */
#define EK_GLOBAL_SUM_ENTER_TS     EK_TS (3400)
#define EK_GLOBAL_SUM_LEAVE_TS     EK_TS (3470)
#define EK_KERNEL_ENTER_TS         EK_TS (3520)
#define EK_KERNEL_LEAVE_TS         EK_TS (3580)

EK_TABLE EkCollective ek_collectives[EK_N_COLLECTIVES] = {
  { "comm_split", EK_REGION_MPI_COMM_SPLIT, OTF2_COLLECTIVE_OP_CREATE_HANDLE, EK_COMM_WORLD, EK_NO_WIN, 0,
    EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_COMM_CREATE, 4, {
      { EK_LOC_R0, 0, EK_TS (1000), EK_TS (1001), 0,            0,             EK_TS (1100), EK_TS (1110), 0, 0, 0, 0, 0 },
      { EK_LOC_R1, 1, EK_TS (1020), EK_TS (1021), EK_TS (1095), EK_COMM_SPLIT, EK_TS (1100), EK_TS (1110), 0, 0, 0, 0, 0 },
      { EK_LOC_R2, 2, EK_TS (1040), EK_TS (1041), 0,            0,             EK_TS (1100), EK_TS (1110), 0, 0, 0, 0, 0 },
      { EK_LOC_R3, 3, EK_TS (1060), EK_TS (1061), EK_TS (1095), EK_COMM_SPLIT, EK_TS (1100), EK_TS (1110), 0, 0, 0, 0, 0 } } },
  { "barrier", EK_REGION_MPI_BARRIER, OTF2_COLLECTIVE_OP_BARRIER, EK_COMM_WORLD, EK_NO_WIN, 0,
    EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_NONE, 4, {
      { EK_LOC_R0, 0, EK_TS (3000), EK_TS (3001), 0, 0, EK_TS (3100), EK_TS (3105), 0, 0, 0, 0, 0 },
      { EK_LOC_R1, 1, EK_TS (3030), EK_TS (3031), 0, 0, EK_TS (3101), EK_TS (3106), 0, 0, 0, 0, 0 },
      { EK_LOC_R2, 2, EK_TS (3060), EK_TS (3061), 0, 0, EK_TS (3102), EK_TS (3107), 0, 0, 0, 0, 0 },
      { EK_LOC_R3, 3, EK_TS (3090), EK_TS (3091), 0, 0, EK_TS (3103), EK_TS (3108), 0, 0, 0, 0, 0 } } },
  { "bcast", EK_REGION_MPI_BCAST, OTF2_COLLECTIVE_OP_BCAST, EK_COMM_WORLD, EK_NO_WIN, 0,
    2, 2, 0, EK_INNER_NONE, 4, {
      { EK_LOC_R0, 0, EK_TS (3200), EK_TS (3201), 0, 0, EK_TS (3280), EK_TS (3285), 0, EK_BCAST_BYTES, 0, 0, 0 },
      { EK_LOC_R1, 1, EK_TS (3210), EK_TS (3211), 0, 0, EK_TS (3281), EK_TS (3286), 0, EK_BCAST_BYTES, 0, 0, 0 },
      { EK_LOC_R2, 2, EK_TS (3260), EK_TS (3261), 0, 0, EK_TS (3270), EK_TS (3275), 3 * EK_BCAST_BYTES, 0, 0, 0, 0 },
      { EK_LOC_R3, 3, EK_TS (3220), EK_TS (3221), 0, 0, EK_TS (3282), EK_TS (3287), 0, EK_BCAST_BYTES, 0, 0, 0 } } },
  { "reduce_split", EK_REGION_MPI_REDUCE, OTF2_COLLECTIVE_OP_REDUCE, EK_COMM_SPLIT, EK_NO_WIN, 0,
    0, 1, 0, EK_INNER_NONE, 2, {
      { EK_LOC_R1, 0, EK_TS (3300), EK_TS (3301), 0, 0, EK_TS (3360), EK_TS (3365),
        EK_REDUCE_BYTES, 2 * EK_REDUCE_BYTES, 0, 0, 0 },
      { EK_LOC_R3, 1, EK_TS (3350), EK_TS (3351), 0, 0, EK_TS (3352), EK_TS (3353), EK_REDUCE_BYTES, 0, 0, 0, 0 } } },
  { "allreduce_self_r0", EK_REGION_MPI_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, EK_COMM_SELF, EK_NO_WIN, 0,
    EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_NONE, 1, {
      { EK_LOC_R0, 0, EK_TS (3300), EK_TS (3301), 0, 0, EK_TS (3305), EK_TS (3306), EK_SELF_BYTES, EK_SELF_BYTES, 0, 0, 0 } } },
  { "allreduce_self_r2", EK_REGION_MPI_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, EK_COMM_SELF, EK_NO_WIN, 0,
    EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_NONE, 1, {
      { EK_LOC_R2, 0, EK_TS (3310), EK_TS (3311), 0, 0, EK_TS (3315), EK_TS (3316), EK_SELF_BYTES, EK_SELF_BYTES, 0, 0, 0 } } },
  { "allreduce", EK_REGION_MPI_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, EK_COMM_WORLD, EK_NO_WIN, 0,
    EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_NONE, 4, {
      { EK_LOC_R0, 0, EK_TS (3410), EK_TS (3411), 0, 0, EK_TS (3460), EK_TS (3462), EK_ALLREDUCE_BYTES, EK_ALLREDUCE_BYTES, 0, 0, 0 },
      { EK_LOC_R1, 1, EK_TS (3420), EK_TS (3421), 0, 0, EK_TS (3461), EK_TS (3463), EK_ALLREDUCE_BYTES, EK_ALLREDUCE_BYTES, 0, 0, 0 },
      { EK_LOC_R2, 2, EK_TS (3430), EK_TS (3431), 0, 0, EK_TS (3462), EK_TS (3464), EK_ALLREDUCE_BYTES, EK_ALLREDUCE_BYTES, 0, 0, 0 },
      { EK_LOC_R3, 3, EK_TS (3440), EK_TS (3441), 0, 0, EK_TS (3463), EK_TS (3465), EK_ALLREDUCE_BYTES, EK_ALLREDUCE_BYTES, 0, 0, 0 } } },
  { "iallreduce", EK_REGION_MPI_IALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, EK_COMM_WORLD, EK_NO_WIN, 0,
    EK_UNDEF32, EK_UNDEF32, 1, EK_INNER_NONE, 4, {
      { EK_LOC_R0, 0, EK_TS (3500), EK_TS (3501), 0, 0, EK_TS (3610), EK_TS (3615), EK_IALLREDUCE_BYTES, EK_IALLREDUCE_BYTES,
        EK_TS (3503), EK_TS (3600), EK_IALLREDUCE_REQUEST },
      { EK_LOC_R1, 1, EK_TS (3505), EK_TS (3506), 0, 0, EK_TS (3611), EK_TS (3616), EK_IALLREDUCE_BYTES, EK_IALLREDUCE_BYTES,
        EK_TS (3508), EK_TS (3600), EK_IALLREDUCE_REQUEST },
      { EK_LOC_R2, 2, EK_TS (3510), EK_TS (3511), 0, 0, EK_TS (3612), EK_TS (3617), EK_IALLREDUCE_BYTES, EK_IALLREDUCE_BYTES,
        EK_TS (3513), EK_TS (3600), EK_IALLREDUCE_REQUEST },
      { EK_LOC_R3, 3, EK_TS (3515), EK_TS (3516), 0, 0, EK_TS (3613), EK_TS (3618), EK_IALLREDUCE_BYTES, EK_IALLREDUCE_BYTES,
        EK_TS (3518), EK_TS (3600), EK_IALLREDUCE_REQUEST } } },
  { "comm_free", EK_REGION_MPI_COMM_FREE, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, EK_COMM_SPLIT, EK_NO_WIN, 0,
    EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_COMM_DESTROY, 2, {
      { EK_LOC_R1, 0, EK_TS (4000), EK_TS (4001), EK_TS (4020), EK_COMM_SPLIT, EK_TS (4040), EK_TS (4045), 0, 0, 0, 0, 0 },
      { EK_LOC_R3, 1, EK_TS (4010), EK_TS (4011), EK_TS (4020), EK_COMM_SPLIT, EK_TS (4040), EK_TS (4045), 0, 0, 0, 0, 0 } } },
};

/* ---------------------------------------------------------------------- */
/* Phase E: threads (rank 1 master EK_LOC_R1 and its thread EK_LOC_R1_T1)  */
/* ---------------------------------------------------------------------- */

#define EK_OMP_THREADS                 2
#define EK_OMP_FORK_TS                 EK_TS (5000)  /* R1: THREAD_FORK (OPENMP, 2) */
#define EK_OMP_TEAM_BEGIN_TS           EK_TS (5010)  /* both: THREAD_TEAM_BEGIN EK_COMM_OMP_TEAM */
#define EK_OMP_PARALLEL_ENTER_TS       EK_TS (5020)  /* both: ENTER parallel (R1 depth 1, T1 depth 0) */
#define EK_OMP_TASK_CREATE_TS          EK_TS (5060)  /* R1: THREAD_TASK_CREATE (team, thread 0, generation 1) */
#define EK_OMP_TASK_CREATOR            0
#define EK_OMP_TASK_GENERATION         1
#define EK_OMP_TASK_SWITCH_TS          EK_TS (5070)  /* T1: THREAD_TASK_SWITCH */
#define EK_OMP_TASK_ENTER_TS           EK_TS (5071)  /* T1: ENTER task, depth 1 */
#define EK_OMP_TASK_LEAVE_TS           EK_TS (5079)
#define EK_OMP_TASK_COMPLETE_TS        EK_TS (5080)  /* T1: THREAD_TASK_COMPLETE */
#define EK_OMP_PARALLEL_LEAVE_TS       EK_TS (5100)  /* both */
#define EK_OMP_TEAM_END_TS             EK_TS (5110)  /* both */
#define EK_OMP_JOIN_TS                 EK_TS (5120)  /* R1: THREAD_JOIN (OPENMP) */

/* The same with OTF2's deprecated OMP_* records (no team begin/end records). */
#define EK_LEGACY_FORK_TS              EK_TS (5200)  /* R1: OMP_FORK (2) */
#define EK_LEGACY_PARALLEL_ENTER_TS    EK_TS (5210)  /* both */
#define EK_LEGACY_TASK_ID              UINT64_C (7)
#define EK_LEGACY_TASK_CREATE_TS       EK_TS (5250)  /* R1: OMP_TASK_CREATE 7 */
#define EK_LEGACY_TASK_SWITCH_TS       EK_TS (5260)  /* T1: OMP_TASK_SWITCH 7 */
#define EK_LEGACY_TASK_ENTER_TS        EK_TS (5261)  /* T1: ENTER task, depth 1 */
#define EK_LEGACY_TASK_LEAVE_TS        EK_TS (5269)
#define EK_LEGACY_TASK_COMPLETE_TS     EK_TS (5270)  /* T1: OMP_TASK_COMPLETE 7 */
#define EK_LEGACY_PARALLEL_LEAVE_TS    EK_TS (5300)  /* both */
#define EK_LEGACY_JOIN_TS              EK_TS (5310)  /* R1: OMP_JOIN */

/* pthread_create on R1 starts worker() on T1; pthread_join waits for it. */
#define EK_THREAD_SEQUENCE             UINT64_C (1)
#define EK_PTHREAD_CREATE_ENTER_TS     EK_TS (5500)  /* R1, depth 1 */
#define EK_THREAD_CREATE_TS            EK_TS (5505)  /* R1: THREAD_CREATE (EK_COMM_PTHREAD, 1) */
#define EK_PTHREAD_CREATE_LEAVE_TS     EK_TS (5510)
#define EK_THREAD_BEGIN_TS             EK_TS (5520)  /* T1: THREAD_BEGIN */
#define EK_WORKER_ENTER_TS             EK_TS (5530)  /* T1: depth 0 */
#define EK_PTHREAD_JOIN_ENTER_TS       EK_TS (5540)  /* R1, depth 1 */
#define EK_WORKER_LEAVE_TS             EK_TS (5580)
#define EK_THREAD_END_TS               EK_TS (5590)  /* T1: THREAD_END */
#define EK_THREAD_WAIT_TS              EK_TS (5595)  /* R1: THREAD_WAIT */
#define EK_PTHREAD_JOIN_LEAVE_TS       EK_TS (5600)

typedef struct
{
  uint64_t location;
  int      legacy;            /* 1: OMP_ACQUIRE/RELEASE_LOCK, 0: THREAD_ACQUIRE/RELEASE_LOCK (OPENMP) */
  uint32_t lock_id;
  uint32_t acquisition_order;
  uint64_t acquire_ts;
  uint64_t release_ts;
} EkThreadLock;

#define EK_N_THREAD_LOCKS 4

/* Listed in the order they are written per location (time order). */
EK_TABLE EkThreadLock ek_thread_locks[EK_N_THREAD_LOCKS] = {
  { EK_LOC_R1,    0, 1, 1, EK_TS (5030), EK_TS (5040) },
  { EK_LOC_R1_T1, 0, 1, 2, EK_TS (5045), EK_TS (5055) },  /* waits for R1's release */
  { EK_LOC_R1,    1, 2, 1, EK_TS (5220), EK_TS (5230) },
  { EK_LOC_R1_T1, 1, 2, 2, EK_TS (5235), EK_TS (5245) },
};

/* ---------------------------------------------------------------------- */
/* Phase F: RMA on EK_WIN (inside rma_epoch at depth 1, MPI at depth 2)    */
/* ---------------------------------------------------------------------- */

#define EK_RMA_EPOCH_ENTER_TS  EK_TS (6000)   /* all ranks */
#define EK_RMA_EPOCH_LEAVE_TS  EK_TS (7990)

enum { EK_RMA_WIN_CREATE, EK_RMA_FENCE1, EK_RMA_FENCE2, EK_RMA_WIN_FREE, EK_N_RMA_COLLECTIVES };

#define EK_FENCE_SYNC (OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY)

EK_TABLE EkCollective ek_rma_collectives[EK_N_RMA_COLLECTIVES] = {
  { "win_create", EK_REGION_MPI_WIN_CREATE, OTF2_COLLECTIVE_OP_CREATE_HANDLE, EK_NO_COMM, EK_WIN,
    OTF2_RMA_SYNC_LEVEL_NONE, EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_RMA_WIN_CREATE, 4, {
      { EK_LOC_R0, 0, EK_TS (6010), EK_TS (6011), EK_TS (6090), EK_WIN, EK_TS (6095), EK_TS (6100), 0, 0, 0, 0, 0 },
      { EK_LOC_R1, 1, EK_TS (6020), EK_TS (6021), EK_TS (6090), EK_WIN, EK_TS (6095), EK_TS (6100), 0, 0, 0, 0, 0 },
      { EK_LOC_R2, 2, EK_TS (6030), EK_TS (6031), EK_TS (6090), EK_WIN, EK_TS (6095), EK_TS (6100), 0, 0, 0, 0, 0 },
      { EK_LOC_R3, 3, EK_TS (6040), EK_TS (6041), EK_TS (6090), EK_WIN, EK_TS (6095), EK_TS (6100), 0, 0, 0, 0, 0 } } },
  { "fence1", EK_REGION_MPI_WIN_FENCE, OTF2_COLLECTIVE_OP_BARRIER, EK_NO_COMM, EK_WIN,
    EK_FENCE_SYNC, EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_NONE, 4, {
      { EK_LOC_R0, 0, EK_TS (6200), EK_TS (6201), 0, 0, EK_TS (6230), EK_TS (6235), 0, 0, 0, 0, 0 },
      { EK_LOC_R1, 1, EK_TS (6205), EK_TS (6206), 0, 0, EK_TS (6230), EK_TS (6235), 0, 0, 0, 0, 0 },
      { EK_LOC_R2, 2, EK_TS (6210), EK_TS (6211), 0, 0, EK_TS (6230), EK_TS (6235), 0, 0, 0, 0, 0 },
      { EK_LOC_R3, 3, EK_TS (6215), EK_TS (6216), 0, 0, EK_TS (6230), EK_TS (6235), 0, 0, 0, 0, 0 } } },
  { "fence2", EK_REGION_MPI_WIN_FENCE, OTF2_COLLECTIVE_OP_BARRIER, EK_NO_COMM, EK_WIN,
    EK_FENCE_SYNC, EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_RMA_OP_COMPLETE_BLOCKING, 4, {
      { EK_LOC_R0, 0, EK_TS (6400), EK_TS (6401), EK_TS (6420), 1, EK_TS (6430), EK_TS (6435), 0, 0, 0, 0, 0 },
      { EK_LOC_R1, 1, EK_TS (6405), EK_TS (6406), 0,            0, EK_TS (6430), EK_TS (6435), 0, 0, 0, 0, 0 },
      { EK_LOC_R2, 2, EK_TS (6410), EK_TS (6411), EK_TS (6420), 2, EK_TS (6430), EK_TS (6435), 0, 0, 0, 0, 0 },
      { EK_LOC_R3, 3, EK_TS (6415), EK_TS (6416), 0,            0, EK_TS (6430), EK_TS (6435), 0, 0, 0, 0, 0 } } },
  { "win_free", EK_REGION_MPI_WIN_FREE, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, EK_NO_COMM, EK_WIN,
    OTF2_RMA_SYNC_LEVEL_NONE, EK_UNDEF32, EK_UNDEF32, 0, EK_INNER_RMA_WIN_DESTROY, 4, {
      { EK_LOC_R0, 0, EK_TS (7000), EK_TS (7001), EK_TS (7050), EK_WIN, EK_TS (7060), EK_TS (7070), 0, 0, 0, 0, 0 },
      { EK_LOC_R1, 1, EK_TS (7010), EK_TS (7011), EK_TS (7050), EK_WIN, EK_TS (7060), EK_TS (7070), 0, 0, 0, 0, 0 },
      { EK_LOC_R2, 2, EK_TS (7020), EK_TS (7021), EK_TS (7050), EK_WIN, EK_TS (7060), EK_TS (7070), 0, 0, 0, 0, 0 },
      { EK_LOC_R3, 3, EK_TS (7030), EK_TS (7031), EK_TS (7050), EK_WIN, EK_TS (7060), EK_TS (7070), 0, 0, 0, 0, 0 } } },
};

typedef enum
{
  EK_RMA_PUT,
  EK_RMA_GET,
  EK_RMA_ATOMIC,
} EkRmaKind;

typedef enum
{
  EK_COMPLETE_BLOCKING,       /* RMA_OP_COMPLETE_BLOCKING */
  EK_COMPLETE_NON_BLOCKING,   /* RMA_OP_COMPLETE_NON_BLOCKING */
  EK_COMPLETE_REMOTE,         /* RMA_OP_COMPLETE_REMOTE */
} EkRmaCompletion;

typedef struct
{
  uint64_t           matching_id;
  uint64_t           origin;           /* location */
  uint32_t           target;           /* rank in the window's communicator */
  EkRmaKind          kind;
  OTF2_RmaAtomicType atomic_type;      /* EK_RMA_ATOMIC only */
  uint32_t           region;
  EkCall             issue;            /* MPI call holding RMA_PUT / RMA_GET / RMA_ATOMIC */
  uint64_t           bytes_sent;       /* RMA_PUT bytes, RMA_ATOMIC bytesSent */
  uint64_t           bytes_received;   /* RMA_GET bytes, RMA_ATOMIC bytesReceived */
  uint64_t           test_ts;          /* RMA_OP_TEST, 0 = none */
  EkRmaCompletion    completion;
  uint64_t           complete_ts;
} EkRmaOp;

enum { EK_RMA_OP1, EK_RMA_OP2, EK_RMA_OP3, EK_RMA_OP4, EK_RMA_OP5, EK_N_RMA_OPS };

EK_TABLE EkRmaOp ek_rma_ops[EK_N_RMA_OPS] = {
  /* rank 0 puts 800 bytes into rank 1; completed by fence2 */
  { 1, EK_LOC_R0, 1, EK_RMA_PUT, 0, EK_REGION_MPI_PUT,
    { EK_TS (6300), EK_TS (6305), EK_TS (6310) }, 800, 0, 0, EK_COMPLETE_BLOCKING, EK_TS (6420) },
  /* rank 2 gets 400 bytes from rank 3; completed by fence2 */
  { 2, EK_LOC_R2, 3, EK_RMA_GET, 0, EK_REGION_MPI_GET,
    { EK_TS (6300), EK_TS (6305), EK_TS (6310) }, 0, 400, 0, EK_COMPLETE_BLOCKING, EK_TS (6420) },
  /* rank 0 accumulates 16 bytes into rank 3 under its exclusive lock; remote completion by flush */
  { 3, EK_LOC_R0, 3, EK_RMA_ATOMIC, OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, EK_REGION_MPI_ACCUMULATE,
    { EK_TS (6520), EK_TS (6525), EK_TS (6530) }, 16, 0, 0, EK_COMPLETE_REMOTE, EK_TS (6595) },
  /* rank 0 Rputs 32 bytes into rank 3, tests it in MPI_Test, completes it in MPI_Wait */
  { 4, EK_LOC_R0, 3, EK_RMA_PUT, 0, EK_REGION_MPI_RPUT,
    { EK_TS (6540), EK_TS (6545), EK_TS (6550) }, 32, 0, EK_TS (6565), EK_COMPLETE_NON_BLOCKING, EK_TS (6580) },
  /* rank 2 puts 200 bytes into rank 3 in a start/complete epoch; completed by MPI_Win_complete */
  { 5, EK_LOC_R2, 3, EK_RMA_PUT, 0, EK_REGION_MPI_PUT,
    { EK_TS (6750), EK_TS (6752), EK_TS (6755) }, 200, 0, 0, EK_COMPLETE_BLOCKING, EK_TS (6765) },
};

/* Rank 0's passive-target calls around EK_RMA_OP3 / EK_RMA_OP4. */
#define EK_RPUT_TEST_ENTER_TS   EK_TS (6560)   /* MPI_Test holding RMA_OP_TEST of op 4 */
#define EK_RPUT_TEST_LEAVE_TS   EK_TS (6570)
#define EK_RPUT_WAIT_ENTER_TS   EK_TS (6575)   /* MPI_Wait holding RMA_OP_COMPLETE_NON_BLOCKING of op 4 */
#define EK_RPUT_WAIT_LEAVE_TS   EK_TS (6585)
#define EK_FLUSH_ENTER_TS       EK_TS (6590)   /* MPI_Win_flush (target 3) */
#define EK_RMA_SYNC_TS          EK_TS (6592)   /* RMA_SYNC (target 3, MEMORY) */
#define EK_FLUSH_LEAVE_TS       EK_TS (6600)   /* RMA_OP_COMPLETE_REMOTE of op 3 lies inside */
#define EK_FLUSH_TARGET         3

typedef struct
{
  uint64_t      location;
  uint32_t      target;        /* rank in the window's communicator */
  uint64_t      lock_id;
  OTF2_LockType type;
  EkCall        lock;          /* MPI_Win_lock; event_ts = RMA_REQUEST_LOCK */
  uint64_t      try_ts;        /* RMA_TRY_LOCK (failed attempt) before the request, 0 = none */
  uint64_t      acquire_ts;    /* RMA_ACQUIRE_LOCK, inside the MPI_Win_lock call */
  EkCall        unlock;        /* MPI_Win_unlock; event_ts = RMA_RELEASE_LOCK */
} EkRmaLock;

#define EK_N_RMA_LOCKS 2

EK_TABLE EkRmaLock ek_rma_locks[EK_N_RMA_LOCKS] = {
  /* rank 0 holds rank 3's lock exclusively from 6508 to 6615 */
  { EK_LOC_R0, 3, 1, OTF2_LOCK_EXCLUSIVE, { EK_TS (6500), EK_TS (6502), EK_TS (6510) }, 0,
    EK_TS (6508), { EK_TS (6610), EK_TS (6615), EK_TS (6620) } },
  /* rank 1's shared try fails at 6506; it requests at 6512 and gets the lock
   * at 6618, after rank 0's release (lock contention 6512..6618) */
  { EK_LOC_R1, 3, 2, OTF2_LOCK_SHARED, { EK_TS (6505), EK_TS (6512), EK_TS (6622) }, EK_TS (6506),
    EK_TS (6618), { EK_TS (6630), EK_TS (6632), EK_TS (6635) } },
};

/* Ranks 2 (origin) and 3 (target): general active target synchronisation. */
#define EK_WIN_POST_ENTER_TS       EK_TS (6700)   /* rank 3 */
#define EK_WIN_POST_SYNC_TS        EK_TS (6705)   /* RMA_GROUP_SYNC (PROCESS, EK_GROUP_PEER_R2) */
#define EK_WIN_POST_LEAVE_TS       EK_TS (6710)
#define EK_WIN_WAIT_ENTER_TS       EK_TS (6720)   /* rank 3 */
#define EK_WIN_WAIT_SYNC_TS        EK_TS (6790)   /* RMA_GROUP_SYNC (PROCESS|MEMORY, EK_GROUP_PEER_R2) */
#define EK_WIN_WAIT_LEAVE_TS       EK_TS (6795)
#define EK_WIN_START_ENTER_TS      EK_TS (6730)   /* rank 2 */
#define EK_WIN_START_SYNC_TS       EK_TS (6735)   /* RMA_GROUP_SYNC (PROCESS, EK_GROUP_PEER_R3) */
#define EK_WIN_START_LEAVE_TS      EK_TS (6740)
#define EK_WIN_COMPLETE_ENTER_TS   EK_TS (6760)   /* rank 2; op 5 completes inside at 6765 */
#define EK_WIN_COMPLETE_SYNC_TS    EK_TS (6768)   /* RMA_GROUP_SYNC (PROCESS|MEMORY, EK_GROUP_PEER_R3) */
#define EK_WIN_COMPLETE_LEAVE_TS   EK_TS (6770)
#define EK_WAIT_FLAG_ENTER_TS      EK_TS (6850)   /* rank 2: wait_for_flag() */
#define EK_WAIT_CHANGE_TS          EK_TS (6880)   /* RMA_WAIT_CHANGE */
#define EK_WAIT_FLAG_LEAVE_TS      EK_TS (6890)

/* ---------------------------------------------------------------------- */
/* Phase G: shutdown                                                      */
/* ---------------------------------------------------------------------- */

#define EK_METRIC1_TS             EK_TS (8800)   /* rank 0 */
#define EK_METRIC1_INSTRUCTIONS   UINT64_C (400000)
#define EK_METRIC1_TEMPERATURE    43.0
#define EK_MAIN_LEAVE_TS          EK_TS (8900)   /* all master threads */
#define EK_PROGRAM_END_TS         EK_TS (8950)   /* all master threads */

/* ---------------------------------------------------------------------- */
/* Raw record counts, exactly as otf2-print names the kinds               */
/* ---------------------------------------------------------------------- */

typedef struct
{
  const char *kind;
  uint32_t    count[EK_N_LOCATIONS];   /* in ek_locations[] order: R0 R1 R2 R3 R1_T1 */
} EkKindCount;

#define EK_N_KINDS 65

EK_TABLE EkKindCount ek_kind_counts[EK_N_KINDS] = {
  /*                                         R0   R1   R2   R3  R1T1 */
  { "BUFFER_FLUSH",                       {   0,   0,   0,   1,   0 } },
  { "MEASUREMENT_ON_OFF",                 {   0,   0,   0,   2,   0 } },
  { "ENTER",                              {  30,  29,  27,  27,   5 } },
  { "LEAVE",                              {  30,  29,  27,  27,   5 } },
  { "MPI_SEND",                           {   2,   0,   1,   1,   0 } },
  { "MPI_ISEND",                          {   0,   1,   0,   1,   0 } },
  { "MPI_ISEND_COMPLETE",                 {   0,   1,   0,   1,   0 } },
  { "MPI_IRECV_REQUEST",                  {   1,   0,   1,   1,   0 } },
  { "MPI_RECV",                           {   0,   2,   1,   1,   0 } },
  { "MPI_IRECV",                          {   1,   0,   0,   1,   0 } },
  { "MPI_REQUEST_TEST",                   {   0,   1,   0,   1,   0 } },
  { "MPI_REQUEST_CANCELLED",              {   0,   0,   1,   0,   0 } },
  { "MPI_COLLECTIVE_BEGIN",               {   5,   6,   5,   6,   0 } },
  { "MPI_COLLECTIVE_END",                 {   5,   6,   5,   6,   0 } },
  { "OMP_FORK",                           {   0,   1,   0,   0,   0 } },
  { "OMP_JOIN",                           {   0,   1,   0,   0,   0 } },
  { "OMP_ACQUIRE_LOCK",                   {   0,   1,   0,   0,   1 } },
  { "OMP_RELEASE_LOCK",                   {   0,   1,   0,   0,   1 } },
  { "OMP_TASK_CREATE",                    {   0,   1,   0,   0,   0 } },
  { "OMP_TASK_SWITCH",                    {   0,   0,   0,   0,   1 } },
  { "OMP_TASK_COMPLETE",                  {   0,   0,   0,   0,   1 } },
  { "METRIC",                             {   2,   0,   0,   0,   0 } },
  { "PARAMETER_STRING",                   {   1,   0,   0,   0,   0 } },
  { "PARAMETER_INT64",                    {   1,   0,   0,   0,   0 } },
  { "PARAMETER_UINT64",                   {   1,   0,   0,   0,   0 } },
  { "RMA_WIN_CREATE",                     {   1,   1,   1,   1,   0 } },
  { "RMA_WIN_DESTROY",                    {   1,   1,   1,   1,   0 } },
  { "RMA_COLLECTIVE_BEGIN",               {   4,   4,   4,   4,   0 } },
  { "RMA_COLLECTIVE_END",                 {   4,   4,   4,   4,   0 } },
  { "RMA_GROUP_SYNC",                     {   0,   0,   2,   2,   0 } },
  { "RMA_REQUEST_LOCK",                   {   1,   1,   0,   0,   0 } },
  { "RMA_ACQUIRE_LOCK",                   {   1,   1,   0,   0,   0 } },
  { "RMA_TRY_LOCK",                       {   0,   1,   0,   0,   0 } },
  { "RMA_RELEASE_LOCK",                   {   1,   1,   0,   0,   0 } },
  { "RMA_SYNC",                           {   1,   0,   0,   0,   0 } },
  { "RMA_WAIT_CHANGE",                    {   0,   0,   1,   0,   0 } },
  { "RMA_PUT",                            {   2,   0,   1,   0,   0 } },
  { "RMA_GET",                            {   0,   0,   1,   0,   0 } },
  { "RMA_ATOMIC",                         {   1,   0,   0,   0,   0 } },
  { "RMA_OP_COMPLETE_BLOCKING",           {   1,   0,   2,   0,   0 } },
  { "RMA_OP_COMPLETE_NON_BLOCKING",       {   1,   0,   0,   0,   0 } },
  { "RMA_OP_TEST",                        {   1,   0,   0,   0,   0 } },
  { "RMA_OP_COMPLETE_REMOTE",             {   1,   0,   0,   0,   0 } },
  { "THREAD_FORK",                        {   0,   1,   0,   0,   0 } },
  { "THREAD_JOIN",                        {   0,   1,   0,   0,   0 } },
  { "THREAD_TEAM_BEGIN",                  {   0,   1,   0,   0,   1 } },
  { "THREAD_TEAM_END",                    {   0,   1,   0,   0,   1 } },
  { "THREAD_ACQUIRE_LOCK",                {   0,   1,   0,   0,   1 } },
  { "THREAD_RELEASE_LOCK",                {   0,   1,   0,   0,   1 } },
  { "THREAD_TASK_CREATE",                 {   0,   1,   0,   0,   0 } },
  { "THREAD_TASK_SWITCH",                 {   0,   0,   0,   0,   1 } },
  { "THREAD_TASK_COMPLETE",               {   0,   0,   0,   0,   1 } },
  { "THREAD_CREATE",                      {   0,   1,   0,   0,   0 } },
  { "THREAD_BEGIN",                       {   0,   0,   0,   0,   1 } },
  { "THREAD_WAIT",                        {   0,   1,   0,   0,   0 } },
  { "THREAD_END",                         {   0,   0,   0,   0,   1 } },
  { "CALLING_CONTEXT_ENTER",              {   0,   0,   1,   0,   0 } },
  { "CALLING_CONTEXT_LEAVE",              {   0,   0,   1,   0,   0 } },
  { "CALLING_CONTEXT_SAMPLE",             {   0,   0,   1,   0,   0 } },
  { "PROGRAM_BEGIN",                      {   1,   1,   1,   1,   0 } },
  { "PROGRAM_END",                        {   1,   1,   1,   1,   0 } },
  { "NON_BLOCKING_COLLECTIVE_REQUEST",    {   1,   1,   1,   1,   0 } },
  { "NON_BLOCKING_COLLECTIVE_COMPLETE",   {   1,   1,   1,   1,   0 } },
  { "COMM_CREATE",                        {   0,   1,   0,   1,   0 } },
  { "COMM_DESTROY",                       {   0,   1,   0,   1,   0 } },
};
