/* sextant-bench-gen.c - writes a large, realistic MPI trace for the import benchmark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-bench-gen [--ranks 64] [--events 10000000] [--seed 1]
 *                     [--halo-every 1] [--collectives 1] [--flat] [--force] OUTDIR
 *
 * The workload is a 2-D 5-point stencil solver on a px x py process grid
 * (px * py = ranks, px the largest divisor <= sqrt(ranks), non-periodic: edge
 * ranks have fewer neighbours).  Every rank runs
 *
 *   main > MPI_Init, solver > iteration x N > { compute > stencil_update [> boundary_fix],
 *                                              halo_exchange > MPI point-to-point,
 *                                              global_residual > MPI_Allreduce,
 *                                              [MPI_Barrier every 10th], [MPI_Bcast every 5th] },
 *          MPI_Finalize
 *
 * (user regions nested 3 to 5 deep, each with a source file and lines).  The
 * halo exchange rotates through three modes, one per iteration:
 *   0: MPI_Irecv + MPI_Isend to every neighbour, one MPI_Waitall
 *      (MPI_IRECV_REQUEST, MPI_ISEND, then MPI_ISEND_COMPLETE + MPI_IRECV);
 *   1: blocking MPI_Send / MPI_Recv, one direction at a time (eager sends);
 *   2: MPI_Irecv to every neighbour, MPI_Ssend to every neighbour (returns
 *      once the receive is posted and the data arrived), MPI_Waitall.
 * Each message travels in one of four directions; its tag is
 * HALO_TAG_BASE + 4 * mode + direction and its size depends on the axis, so
 * every send has exactly one receive and messages of one (comm, src, dst, tag)
 * are received in the order they were sent.  Collectives record
 * MPI_COLLECTIVE_BEGIN/END inside their MPI region: Allreduce every iteration,
 * Barrier every BARRIER_EVERY, Bcast every BCAST_EVERY with the root moving
 * round-robin.
 *
 * Time is simulated in nanoseconds per rank: compute takes a base time scaled
 * by a fixed per-rank imbalance (up to +IMBALANCE) and per-iteration noise
 * (+-NOISE); a message arrives LATENCY_NS + bytes / BANDWIDTH after it was
 * sent; a receive, wait or collective ends when its data is there, so slow
 * ranks make the others wait (late senders, waits at collectives).  All ranks
 * advance one iteration at a time; passes within an iteration (post, wait)
 * keep every rank's records in time order.  The run stops at the first
 * iteration boundary at which --events would be reached, so the archive holds
 * --events plus at most one iteration's worth.
 *
 * The mix of point-to-point, collectives and nesting is set by three options
 * (the defaults give the stencil above):
 *   --halo-every N    the halo exchange in every N-th iteration only (its
 *                     modes still rotate, one per exchange);
 *   --collectives N   N MPI_Allreduce per iteration instead of one;
 *   --flat            no user regions inside an iteration (compute,
 *                     stencil_update, boundary_fix, halo_exchange and
 *                     global_residual are not recorded; their time passes).
 * The collective-heavy mix of the benchmark, `--halo-every 11 --flat`, makes
 * every iteration little more than an Allreduce over all ranks: at 10 M
 * events, about 18,800 iterations, 24,000 collectives with 1.5 M members and
 * 400,000 messages.
 *
 * Memory is bounded by the number of ranks, not the number of events: OTF2
 * gets CHUNKS_PER_LOCATION event chunks per location through memory callbacks
 * and flushes to disk whenever they are full (libotf2's POSIX layer adds its
 * own write buffer, about 4 MiB per open event file).
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <otf2/otf2.h>

#define EXIT_USAGE              2

#define DEFAULT_RANKS           64
#define DEFAULT_EVENTS          10000000
#define DEFAULT_SEED            1

/* OTF2 buffers */
#define EVENT_CHUNK_SIZE        (1024 * 1024)
#define DEF_CHUNK_SIZE          (4 * 1024 * 1024)
#define CHUNKS_PER_LOCATION     2

/* Clock: nanoseconds, the run starts at GLOBAL_OFFSET_NS. */
#define TIMER_RESOLUTION        UINT64_C (1000000000)
#define GLOBAL_OFFSET_NS        UINT64_C (1000000000)
#define START_SKEW_NS           2000      /* ranks start within this */
#define RANKS_PER_NODE          16

/* Timing model (ns). */
#define CALL_OVERHEAD_NS        150       /* Enter -> record, record -> Leave of an MPI call */
#define REGION_GAP_NS           60        /* between nested user-region boundaries */
#define INIT_NS                 800000    /* MPI_Init */
#define FINALIZE_NS             300000
#define STENCIL_NS              40000.0   /* stencil_update of a perfectly balanced rank */
#define BOUNDARY_NS             6000.0    /* boundary_fix */
#define BOUNDARY_EVERY          4         /* boundary_fix in every 4th iteration */
#define IMBALANCE               0.25      /* slowest rank computes up to 25 % longer */
#define NOISE                   0.05      /* +-5 % per iteration */
#define LATENCY_NS              1500.0
#define BANDWIDTH_BYTES_PER_NS  5.0       /* 5 GB/s */
#define EAGER_COPY_BYTES_PER_NS 20.0      /* local copy of an eager send */
#define COLL_JITTER_NS          200       /* members leave a collective within this */

/* Workload. */
#define HALO_BYTES_X            8192      /* east/west messages */
#define HALO_BYTES_Y            16384     /* north/south messages */
#define HALO_TAG_BASE           100
#define N_HALO_MODES            3
#define ALLREDUCE_BYTES         8
#define BCAST_BYTES             4096
#define BARRIER_EVERY           10
#define BCAST_EVERY             5

/* Records per rank after the last iteration: Leave solver, Enter/Leave
 * MPI_Finalize, Leave main, ProgramEnd. */
#define EPILOGUE_EVENTS         5

#define PROGRAM_NAME            "stencil"
#define STRING_PROGRAM_NAME     0         /* the first String definition */

enum { DIR_EAST, DIR_WEST, DIR_NORTH, DIR_SOUTH, N_DIRS };
#define OPPOSITE(d) ((d) ^ 1)

enum { COMM_WORLD };
enum { GROUP_LOCATIONS, GROUP_WORLD };

enum
{
  REGION_MAIN,
  REGION_SOLVER,
  REGION_ITERATION,
  REGION_COMPUTE,
  REGION_STENCIL,
  REGION_BOUNDARY,
  REGION_HALO,
  REGION_RESIDUAL,
  REGION_MPI_INIT,
  REGION_MPI_FINALIZE,
  REGION_MPI_SEND,
  REGION_MPI_SSEND,
  REGION_MPI_RECV,
  REGION_MPI_ISEND,
  REGION_MPI_IRECV,
  REGION_MPI_WAITALL,
  REGION_MPI_ALLREDUCE,
  REGION_MPI_BARRIER,
  REGION_MPI_BCAST,
  N_REGIONS
};

static const struct
{
  const char     *name;
  OTF2_RegionRole role;
  OTF2_Paradigm   paradigm;
  const char     *file;      /* NULL: no source */
  uint32_t        begin_line;
  uint32_t        end_line;
} regions[N_REGIONS] = {
  [REGION_MAIN]          = { "main",            OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, "/opt/stencil/src/main.c",    21,  88 },
  [REGION_SOLVER]        = { "solver",          OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, "/opt/stencil/src/solver.c",  30, 140 },
  [REGION_ITERATION]     = { "iteration",       OTF2_REGION_ROLE_LOOP,         OTF2_PARADIGM_USER, "/opt/stencil/src/solver.c",  52, 131 },
  [REGION_COMPUTE]       = { "compute",         OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, "/opt/stencil/src/stencil.c", 12,  64 },
  [REGION_STENCIL]       = { "stencil_update",  OTF2_REGION_ROLE_LOOP,         OTF2_PARADIGM_USER, "/opt/stencil/src/stencil.c", 20,  47 },
  [REGION_BOUNDARY]      = { "boundary_fix",    OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, "/opt/stencil/src/stencil.c", 70,  96 },
  [REGION_HALO]          = { "halo_exchange",   OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, "/opt/stencil/src/halo.c",    15, 120 },
  [REGION_RESIDUAL]      = { "global_residual", OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_USER, "/opt/stencil/src/solver.c", 150, 171 },
  [REGION_MPI_INIT]      = { "MPI_Init",        OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_FINALIZE]  = { "MPI_Finalize",    OTF2_REGION_ROLE_FUNCTION,     OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_SEND]      = { "MPI_Send",        OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_SSEND]     = { "MPI_Ssend",       OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_RECV]      = { "MPI_Recv",        OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_ISEND]     = { "MPI_Isend",       OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_IRECV]     = { "MPI_Irecv",       OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_WAITALL]   = { "MPI_Waitall",     OTF2_REGION_ROLE_POINT2POINT,  OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_ALLREDUCE] = { "MPI_Allreduce",   OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_BARRIER]   = { "MPI_Barrier",     OTF2_REGION_ROLE_BARRIER,      OTF2_PARADIGM_MPI,  NULL, 0, 0 },
  [REGION_MPI_BCAST]     = { "MPI_Bcast",       OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_PARADIGM_MPI,  NULL, 0, 0 },
};

#define BENCH_ERROR (bench_error_quark ())
GQuark bench_error_quark (void);
G_DEFINE_QUARK (sextant-bench-gen-error-quark, bench_error)

typedef struct
{
  OTF2_EvtWriter *writer;
  guint64         t;                      /* this rank's clock, ns */
  guint64         n_events;
  guint64         rng;                    /* splitmix64 state */
  double          slowness;               /* 1 .. 1 + IMBALANCE, fixed */
  int             neighbour[N_DIRS];      /* rank, or -1 at the grid edge */
  guint64         send_ts[N_DIRS];        /* MPI_SEND/ISEND to neighbour[d] this iteration */
  guint64         post_ts[N_DIRS];        /* MPI_IRECV_REQUEST for neighbour[d] */
  guint64         send_request[N_DIRS];
  guint64         recv_request[N_DIRS];
  guint64         next_request;
  guint64         coll_begin;             /* MPI_COLLECTIVE_BEGIN of the current collective */
} BenchRank;

typedef struct
{
  guint       n_used;
  void       *chunks[CHUNKS_PER_LOCATION];
} BenchPool;

typedef struct
{
  OTF2_Archive *archive;
  BenchRank    *ranks;
  guint         n_ranks;
  guint         px;
  guint         py;
  guint         log2_ranks;               /* rounds of a tree collective */
  guint64       n_events;
  guint64       n_messages;
  guint64       n_collectives;
  guint         n_iterations;
  guint         n_exchanges;              /* halo exchanges so far */
  guint         halo_every;               /* --halo-every */
  guint         n_allreduce;              /* --collectives */
  gboolean      flat;                     /* --flat */
  GError       *error;
} BenchGen;

static gboolean
bench_check (BenchGen       *gen,
             OTF2_ErrorCode  status,
             const char     *what)
{
  if (G_LIKELY (status == OTF2_SUCCESS))
    return TRUE;

  if (gen->error == NULL)
    gen->error = g_error_new (BENCH_ERROR, 0, "%s: %s (%s)", what,
                              OTF2_Error_GetName (status), OTF2_Error_GetDescription (status));
  return FALSE;
}

/* One record on rank @r at time @ts. */
#define EMIT(gen, r, ts, Kind, ...) \
  G_STMT_START { \
    bench_check ((gen), OTF2_EvtWriter_##Kind ((r)->writer, NULL, (ts), ##__VA_ARGS__), #Kind); \
    (r)->n_events++; \
  } G_STMT_END

/* ---------------------------------------------------------------------- */
/* OTF2 callbacks                                                          */
/* ---------------------------------------------------------------------- */

static OTF2_FlushType
bench_pre_flush (void             *user_data,
                 OTF2_FileType     file_type,
                 OTF2_LocationRef  location,
                 void             *caller_data,
                 bool              final)
{
  return OTF2_FLUSH;
}

/* Hands out at most CHUNKS_PER_LOCATION chunks per buffer; NULL makes OTF2
 * flush the buffer to disk and call bench_free_all, after which the chunks
 * are reused. */
static void *
bench_allocate (void              *user_data,
                OTF2_FileType      file_type,
                OTF2_LocationRef   location,
                void             **per_buffer_data,
                uint64_t           chunk_size)
{
  BenchPool *pool = *per_buffer_data;

  if (pool == NULL)
    *per_buffer_data = pool = g_new0 (BenchPool, 1);

  if (pool->n_used == CHUNKS_PER_LOCATION)
    return NULL;

  if (pool->chunks[pool->n_used] == NULL)
    pool->chunks[pool->n_used] = g_malloc (chunk_size);

  return pool->chunks[pool->n_used++];
}

static void
bench_free_all (void              *user_data,
                OTF2_FileType      file_type,
                OTF2_LocationRef   location,
                void             **per_buffer_data,
                bool               final)
{
  BenchPool *pool = *per_buffer_data;

  if (pool == NULL)
    return;

  pool->n_used = 0;
  if (!final)
    return;

  for (guint i = 0; i < CHUNKS_PER_LOCATION; i++)
    g_free (pool->chunks[i]);
  g_free (pool);
  *per_buffer_data = NULL;
}

static const OTF2_FlushCallbacks bench_flush_callbacks = {
  .otf2_pre_flush = bench_pre_flush,
  .otf2_post_flush = NULL,   /* no BUFFER_FLUSH records */
};

static const OTF2_MemoryCallbacks bench_memory_callbacks = {
  .otf2_allocate = bench_allocate,
  .otf2_free_all = bench_free_all,
};

/* ---------------------------------------------------------------------- */
/* Simulation helpers                                                      */
/* ---------------------------------------------------------------------- */

static guint64
splitmix64 (guint64 *state)
{
  guint64 z = (*state += UINT64_C (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * UINT64_C (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double
bench_uniform (BenchRank *r)
{
  return (splitmix64 (&r->rng) >> 11) * (1.0 / 9007199254740992.0);
}

static guint64
transfer_ns (guint64 bytes)
{
  return (guint64) (LATENCY_NS + bytes / BANDWIDTH_BYTES_PER_NS);
}

static guint64
halo_bytes (guint dir)
{
  return dir == DIR_EAST || dir == DIR_WEST ? HALO_BYTES_X : HALO_BYTES_Y;
}

static guint32
halo_tag (guint mode,
          guint travel_dir)
{
  return HALO_TAG_BASE + N_DIRS * mode + travel_dir;
}

static void
region_enter (BenchGen  *gen,
              BenchRank *r,
              guint32    region)
{
  r->t += REGION_GAP_NS;
  EMIT (gen, r, r->t, Enter, region);
}

static void
region_leave (BenchGen  *gen,
              BenchRank *r,
              guint32    region)
{
  r->t += REGION_GAP_NS;
  EMIT (gen, r, r->t, Leave, region);
}

/* A user region unless the mix is --flat */
static void
user_enter (BenchGen  *gen,
            BenchRank *r,
            guint32    region)
{
  if (gen->flat)
    r->t += REGION_GAP_NS;
  else
    region_enter (gen, r, region);
}

static void
user_leave (BenchGen  *gen,
            BenchRank *r,
            guint32    region)
{
  if (gen->flat)
    r->t += REGION_GAP_NS;
  else
    region_leave (gen, r, region);
}

/* A compute region lasting @base_ns scaled by the rank's imbalance and noise
 * (its time only, when --flat). */
static void
region_compute (BenchGen  *gen,
                BenchRank *r,
                guint32    region,
                double     base_ns)
{
  double noise = 1.0 + NOISE * (2.0 * bench_uniform (r) - 1.0);

  user_enter (gen, r, region);
  r->t += (guint64) (base_ns * r->slowness * noise);
  user_leave (gen, r, region);
}

/* ---------------------------------------------------------------------- */
/* Halo exchange                                                           */
/* ---------------------------------------------------------------------- */

static void
post_irecvs (BenchGen  *gen,
             BenchRank *r)
{
  for (guint d = 0; d < N_DIRS; d++)
    {
      if (r->neighbour[d] < 0)
        continue;

      EMIT (gen, r, r->t, Enter, REGION_MPI_IRECV);
      r->t += CALL_OVERHEAD_NS;
      r->recv_request[d] = r->next_request++;
      r->post_ts[d] = r->t;
      EMIT (gen, r, r->t, MpiIrecvRequest, r->recv_request[d]);
      r->t += CALL_OVERHEAD_NS;
      EMIT (gen, r, r->t, Leave, REGION_MPI_IRECV);
    }
}

/* MPI_Waitall over this rank's receives (and, for mode 0, its sends): it ends
 * when the last message has arrived; Score-P-style, the completion records
 * are written together at that time. */
static void
waitall (BenchGen  *gen,
         BenchRank *r,
         guint      mode,
         gboolean   with_sends)
{
  guint64 done;

  EMIT (gen, r, r->t, Enter, REGION_MPI_WAITALL);
  done = r->t + CALL_OVERHEAD_NS;
  for (guint d = 0; d < N_DIRS; d++)
    {
      const BenchRank *peer;

      if (r->neighbour[d] < 0)
        continue;

      peer = &gen->ranks[r->neighbour[d]];
      done = MAX (done, peer->send_ts[OPPOSITE (d)] + transfer_ns (halo_bytes (d)));
      if (with_sends)
        done = MAX (done, r->send_ts[d] + transfer_ns (halo_bytes (d)));
    }

  r->t = done;
  for (guint d = 0; d < N_DIRS; d++)
    {
      if (r->neighbour[d] < 0)
        continue;

      if (with_sends)
        EMIT (gen, r, r->t, MpiIsendComplete, r->send_request[d]);
      /* The sender travelled in direction OPPOSITE (d) to reach us. */
      EMIT (gen, r, r->t, MpiIrecv, r->neighbour[d], COMM_WORLD, halo_tag (mode, OPPOSITE (d)),
            halo_bytes (d), r->recv_request[d]);
    }
  r->t += CALL_OVERHEAD_NS;
  EMIT (gen, r, r->t, Leave, REGION_MPI_WAITALL);
}

/* Mode 0: Irecv + Isend to all neighbours, then Waitall. */
static void
halo_nonblocking (BenchGen *gen)
{
  const guint mode = 0;

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];

      post_irecvs (gen, r);
      for (guint d = 0; d < N_DIRS; d++)
        {
          if (r->neighbour[d] < 0)
            continue;

          EMIT (gen, r, r->t, Enter, REGION_MPI_ISEND);
          r->t += CALL_OVERHEAD_NS;
          r->send_request[d] = r->next_request++;
          r->send_ts[d] = r->t;
          EMIT (gen, r, r->t, MpiIsend, r->neighbour[d], COMM_WORLD, halo_tag (mode, d), halo_bytes (d),
                r->send_request[d]);
          r->t += CALL_OVERHEAD_NS;
          EMIT (gen, r, r->t, Leave, REGION_MPI_ISEND);
          gen->n_messages++;
        }
    }

  for (guint i = 0; i < gen->n_ranks; i++)
    waitall (gen, &gen->ranks[i], mode, TRUE);
}

/* Mode 1: for each direction, everybody sends that way (eager, completes
 * locally), then everybody receives from the opposite side. */
static void
halo_blocking (BenchGen *gen)
{
  const guint mode = 1;

  for (guint d = 0; d < N_DIRS; d++)
    {
      for (guint i = 0; i < gen->n_ranks; i++)
        {
          BenchRank *r = &gen->ranks[i];

          if (r->neighbour[d] < 0)
            continue;

          EMIT (gen, r, r->t, Enter, REGION_MPI_SEND);
          r->t += CALL_OVERHEAD_NS;
          r->send_ts[d] = r->t;
          EMIT (gen, r, r->t, MpiSend, r->neighbour[d], COMM_WORLD, halo_tag (mode, d), halo_bytes (d));
          r->t += CALL_OVERHEAD_NS + (guint64) (halo_bytes (d) / EAGER_COPY_BYTES_PER_NS);
          EMIT (gen, r, r->t, Leave, REGION_MPI_SEND);
          gen->n_messages++;
        }

      for (guint i = 0; i < gen->n_ranks; i++)
        {
          BenchRank *r = &gen->ranks[i];
          int src = r->neighbour[OPPOSITE (d)];

          if (src < 0)
            continue;

          EMIT (gen, r, r->t, Enter, REGION_MPI_RECV);
          r->t = MAX (r->t + CALL_OVERHEAD_NS, gen->ranks[src].send_ts[d] + transfer_ns (halo_bytes (d)));
          EMIT (gen, r, r->t, MpiRecv, src, COMM_WORLD, halo_tag (mode, d), halo_bytes (d));
          r->t += CALL_OVERHEAD_NS;
          EMIT (gen, r, r->t, Leave, REGION_MPI_RECV);
        }
    }
}

/* Mode 2: Irecv from all neighbours, Ssend to all (each returns once the
 * matching receive was posted and the data arrived), then Waitall. */
static void
halo_synchronous (BenchGen *gen)
{
  const guint mode = 2;

  for (guint i = 0; i < gen->n_ranks; i++)
    post_irecvs (gen, &gen->ranks[i]);

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];

      for (guint d = 0; d < N_DIRS; d++)
        {
          const BenchRank *dst;

          if (r->neighbour[d] < 0)
            continue;

          dst = &gen->ranks[r->neighbour[d]];
          EMIT (gen, r, r->t, Enter, REGION_MPI_SSEND);
          r->t += CALL_OVERHEAD_NS;
          r->send_ts[d] = r->t;
          EMIT (gen, r, r->t, MpiSend, r->neighbour[d], COMM_WORLD, halo_tag (mode, d), halo_bytes (d));
          r->t = MAX (r->t, dst->post_ts[OPPOSITE (d)]) + transfer_ns (halo_bytes (d)) + (guint64) LATENCY_NS;
          EMIT (gen, r, r->t, Leave, REGION_MPI_SSEND);
          gen->n_messages++;
        }
    }

  for (guint i = 0; i < gen->n_ranks; i++)
    waitall (gen, &gen->ranks[i], mode, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Collectives                                                             */
/* ---------------------------------------------------------------------- */

/* A blocking collective on MPI_COMM_WORLD: everybody enters and begins; a
 * member ends once the data it needs is there (everybody's for Allreduce and
 * Barrier, the root's for Bcast) plus log2(ranks) tree rounds. */
static void
collective (BenchGen          *gen,
            guint32            region,
            OTF2_CollectiveOp  op,
            guint              root,
            guint64            bytes)
{
  guint64 rounds_ns = gen->log2_ranks * transfer_ns (bytes);
  guint64 last_begin = 0;

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];

      EMIT (gen, r, r->t, Enter, region);
      r->t += CALL_OVERHEAD_NS;
      r->coll_begin = r->t;
      EMIT (gen, r, r->t, MpiCollectiveBegin);
      last_begin = MAX (last_begin, r->t);
    }

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];
      guint64 jitter = splitmix64 (&r->rng) % COLL_JITTER_NS;
      guint64 sent = 0;
      guint64 received = 0;
      guint32 recorded_root = OTF2_UNDEFINED_UINT32;
      guint64 ready;

      if (op == OTF2_COLLECTIVE_OP_BCAST)
        {
          ready = gen->ranks[root].coll_begin + rounds_ns;
          recorded_root = root;
          if (i == root)
            sent = bytes * (gen->n_ranks - 1);
          else
            received = bytes;
        }
      else
        {
          ready = last_begin + rounds_ns;
          sent = received = bytes;
        }

      r->t = MAX (r->t + CALL_OVERHEAD_NS, ready + jitter);
      EMIT (gen, r, r->t, MpiCollectiveEnd, op, COMM_WORLD, recorded_root, sent, received);
      r->t += CALL_OVERHEAD_NS;
      EMIT (gen, r, r->t, Leave, region);
    }

  gen->n_collectives++;
}

/* ---------------------------------------------------------------------- */
/* Program structure                                                       */
/* ---------------------------------------------------------------------- */

static void
run_iteration (BenchGen *gen,
               guint     it)
{
  gboolean exchange = gen->halo_every > 0 && it % gen->halo_every == 0;
  guint mode = gen->n_exchanges % N_HALO_MODES;

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];

      region_enter (gen, r, REGION_ITERATION);
      user_enter (gen, r, REGION_COMPUTE);
      user_enter (gen, r, REGION_STENCIL);
      r->t += (guint64) (STENCIL_NS * r->slowness * (1.0 + NOISE * (2.0 * bench_uniform (r) - 1.0)));
      if (it % BOUNDARY_EVERY == 0)
        region_compute (gen, r, REGION_BOUNDARY, BOUNDARY_NS);
      user_leave (gen, r, REGION_STENCIL);
      user_leave (gen, r, REGION_COMPUTE);
      if (exchange)
        user_enter (gen, r, REGION_HALO);
    }

  if (!exchange)
    ;
  else if (mode == 0)
    halo_nonblocking (gen);
  else if (mode == 1)
    halo_blocking (gen);
  else
    halo_synchronous (gen);
  gen->n_exchanges += exchange;

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      if (exchange)
        user_leave (gen, &gen->ranks[i], REGION_HALO);
      user_enter (gen, &gen->ranks[i], REGION_RESIDUAL);
    }
  for (guint k = 0; k < gen->n_allreduce; k++)
    collective (gen, REGION_MPI_ALLREDUCE, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, ALLREDUCE_BYTES);
  for (guint i = 0; i < gen->n_ranks; i++)
    user_leave (gen, &gen->ranks[i], REGION_RESIDUAL);

  if (it % BARRIER_EVERY == BARRIER_EVERY - 1)
    collective (gen, REGION_MPI_BARRIER, OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
  if (it % BCAST_EVERY == BCAST_EVERY - 1)
    collective (gen, REGION_MPI_BCAST, OTF2_COLLECTIVE_OP_BCAST, (it / BCAST_EVERY) % gen->n_ranks, BCAST_BYTES);

  for (guint i = 0; i < gen->n_ranks; i++)
    region_leave (gen, &gen->ranks[i], REGION_ITERATION);
}

static void
run_prologue (BenchGen *gen)
{
  guint64 init_done = 0;

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];

      r->t = GLOBAL_OFFSET_NS + splitmix64 (&r->rng) % START_SKEW_NS;
      EMIT (gen, r, r->t, ProgramBegin, STRING_PROGRAM_NAME, 0, NULL);
      region_enter (gen, r, REGION_MAIN);
      region_enter (gen, r, REGION_MPI_INIT);
      init_done = MAX (init_done, r->t + INIT_NS);
    }

  /* MPI_Init returns everywhere at about the same time. */
  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];

      r->t = init_done + splitmix64 (&r->rng) % COLL_JITTER_NS;
      EMIT (gen, r, r->t, Leave, REGION_MPI_INIT);
      region_enter (gen, r, REGION_SOLVER);
    }
}

static void
run_epilogue (BenchGen *gen)
{
  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];

      region_leave (gen, r, REGION_SOLVER);
      region_enter (gen, r, REGION_MPI_FINALIZE);
      r->t += FINALIZE_NS;
      region_leave (gen, r, REGION_MPI_FINALIZE);
      region_leave (gen, r, REGION_MAIN);
      r->t += REGION_GAP_NS;
      EMIT (gen, r, r->t, ProgramEnd, 0);
    }
}

static guint64
total_events (const BenchGen *gen)
{
  guint64 n = 0;

  for (guint i = 0; i < gen->n_ranks; i++)
    n += gen->ranks[i].n_events;

  return n;
}

/* px * py = n with px the largest divisor of n not above sqrt (n). */
static void
grid_shape (guint  n,
            guint *px,
            guint *py)
{
  guint best = 1;

  for (guint d = 1; d * d <= n; d++)
    if (n % d == 0)
      best = d;

  *px = best;
  *py = n / best;
}

static void
setup_ranks (BenchGen *gen,
             guint64   seed)
{
  grid_shape (gen->n_ranks, &gen->px, &gen->py);
  gen->log2_ranks = MAX (1, (guint) ceil (log2 (gen->n_ranks)));

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      BenchRank *r = &gen->ranks[i];
      guint x = i % gen->px;
      guint y = i / gen->px;

      r->rng = seed * UINT64_C (0x9E3779B97F4A7C15) + i;
      r->slowness = 1.0 + IMBALANCE * bench_uniform (r);
      r->neighbour[DIR_EAST] = x + 1 < gen->px ? (int) i + 1 : -1;
      r->neighbour[DIR_WEST] = x > 0 ? (int) i - 1 : -1;
      r->neighbour[DIR_NORTH] = y + 1 < gen->py ? (int) (i + gen->px) : -1;
      r->neighbour[DIR_SOUTH] = y > 0 ? (int) (i - gen->px) : -1;
      r->next_request = 1;
      r->writer = OTF2_Archive_GetEvtWriter (gen->archive, i);
      if (r->writer == NULL)
        bench_check (gen, OTF2_ERROR_INVALID_ARGUMENT, "OTF2_Archive_GetEvtWriter");
    }
}

/* ---------------------------------------------------------------------- */
/* Definitions                                                             */
/* ---------------------------------------------------------------------- */

typedef struct
{
  BenchGen             *gen;
  OTF2_GlobalDefWriter *defs;
  GHashTable           *strings;   /* string -> id + 1 */
} BenchDefs;

static OTF2_StringRef
def_string (BenchDefs  *d,
            const char *str)
{
  gpointer value;
  OTF2_StringRef ref;

  if (str == NULL)
    return OTF2_UNDEFINED_STRING;
  if ((value = g_hash_table_lookup (d->strings, str)) != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  ref = g_hash_table_size (d->strings);
  g_hash_table_insert (d->strings, g_strdup (str), GUINT_TO_POINTER (ref + 1));
  bench_check (d->gen, OTF2_GlobalDefWriter_WriteString (d->defs, ref, str), "WriteString");

  return ref;
}

static void
write_definitions (BenchGen *gen,
                   guint64   first_ts,
                   guint64   last_ts)
{
  BenchDefs d = { gen, NULL, NULL };
  guint n_nodes = (gen->n_ranks + RANKS_PER_NODE - 1) / RANKS_PER_NODE;
  g_autofree uint64_t *members = g_new (uint64_t, gen->n_ranks);

  d.defs = OTF2_Archive_GetGlobalDefWriter (gen->archive);
  if (d.defs == NULL)
    {
      bench_check (gen, OTF2_ERROR_INVALID_ARGUMENT, "OTF2_Archive_GetGlobalDefWriter");
      return;
    }
  d.strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* The ProgramBegin records, written before any definition, refer to this id. */
  if (def_string (&d, PROGRAM_NAME) != STRING_PROGRAM_NAME)
    g_assert_not_reached ();

  bench_check (gen, OTF2_GlobalDefWriter_WriteClockProperties (d.defs, TIMER_RESOLUTION, first_ts,
                                                               last_ts - first_ts, OTF2_UNDEFINED_TIMESTAMP),
               "WriteClockProperties");
  bench_check (gen, OTF2_GlobalDefWriter_WriteParadigm (d.defs, OTF2_PARADIGM_MPI, def_string (&d, "MPI"),
                                                        OTF2_PARADIGM_CLASS_PROCESS),
               "WriteParadigm");

  bench_check (gen, OTF2_GlobalDefWriter_WriteSystemTreeNode (d.defs, 0, def_string (&d, "bench cluster"),
                                                              def_string (&d, "machine"),
                                                              OTF2_UNDEFINED_SYSTEM_TREE_NODE),
               "WriteSystemTreeNode");
  for (guint n = 0; n < n_nodes; n++)
    {
      g_autofree char *name = g_strdup_printf ("node%03u", n);

      bench_check (gen, OTF2_GlobalDefWriter_WriteSystemTreeNode (d.defs, 1 + n, def_string (&d, name),
                                                                  def_string (&d, "node"), 0),
                   "WriteSystemTreeNode");
    }

  for (guint i = 0; i < gen->n_ranks; i++)
    {
      g_autofree char *name = g_strdup_printf ("MPI Rank %u", i);

      bench_check (gen, OTF2_GlobalDefWriter_WriteLocationGroup (d.defs, i, def_string (&d, name),
                                                                 OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                                 1 + i / RANKS_PER_NODE,
                                                                 OTF2_UNDEFINED_LOCATION_GROUP),
                   "WriteLocationGroup");
    }
  for (guint i = 0; i < gen->n_ranks; i++)
    {
      bench_check (gen, OTF2_GlobalDefWriter_WriteLocation (d.defs, i, def_string (&d, "Master thread"),
                                                            OTF2_LOCATION_TYPE_CPU_THREAD,
                                                            gen->ranks[i].n_events, i),
                   "WriteLocation");
      members[i] = i;
    }

  for (guint i = 0; i < N_REGIONS; i++)
    {
      OTF2_StringRef name = def_string (&d, regions[i].name);

      bench_check (gen, OTF2_GlobalDefWriter_WriteRegion (d.defs, i, name, name, def_string (&d, ""),
                                                          regions[i].role, regions[i].paradigm,
                                                          OTF2_REGION_FLAG_NONE, def_string (&d, regions[i].file),
                                                          regions[i].begin_line, regions[i].end_line),
                   "WriteRegion");
    }

  bench_check (gen, OTF2_GlobalDefWriter_WriteGroup (d.defs, GROUP_LOCATIONS, def_string (&d, "MPI locations"),
                                                     OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                                     OTF2_GROUP_FLAG_NONE, gen->n_ranks, members),
               "WriteGroup");
  bench_check (gen, OTF2_GlobalDefWriter_WriteGroup (d.defs, GROUP_WORLD, def_string (&d, "world ranks"),
                                                     OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                                     OTF2_GROUP_FLAG_NONE, gen->n_ranks, members),
               "WriteGroup");
  bench_check (gen, OTF2_GlobalDefWriter_WriteComm (d.defs, COMM_WORLD, def_string (&d, "MPI_COMM_WORLD"),
                                                    GROUP_WORLD, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
               "WriteComm");

  g_hash_table_unref (d.strings);
}

/* ---------------------------------------------------------------------- */
/* Archive                                                                 */
/* ---------------------------------------------------------------------- */

static gboolean
prepare_outdir (const char  *outdir,
                gboolean     force,
                GError     **error)
{
  g_autofree char *anchor = g_build_filename (outdir, "traces.otf2", NULL);
  g_autofree char *defs = g_build_filename (outdir, "traces.def", NULL);
  g_autofree char *dir = g_build_filename (outdir, "traces", NULL);

  if (g_file_test (anchor, G_FILE_TEST_EXISTS) || g_file_test (dir, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GDir) d = NULL;
      const char *name;

      if (!force)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                       "%s already holds an archive (use --force to replace it)", outdir);
          return FALSE;
        }

      g_remove (anchor);
      g_remove (defs);
      if ((d = g_dir_open (dir, 0, NULL)) != NULL)
        {
          while ((name = g_dir_read_name (d)) != NULL)
            {
              g_autofree char *path = g_build_filename (dir, name, NULL);
              g_remove (path);
            }
        }
      if (g_file_test (dir, G_FILE_TEST_EXISTS) && g_rmdir (dir) != 0)
        {
          int errsv = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                       "cannot remove %s: %s", dir, g_strerror (errsv));
          return FALSE;
        }
    }

  if (g_mkdir_with_parents (outdir, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "cannot create %s: %s", outdir, g_strerror (errsv));
      return FALSE;
    }

  return TRUE;
}

static gboolean
generate (const char  *outdir,
          guint        n_ranks,
          guint64      target_events,
          guint64      seed,
          guint        halo_every,
          guint        n_allreduce,
          gboolean     flat,
          GError     **error)
{
  BenchGen gen = { 0 };
  guint64 first_ts = GLOBAL_OFFSET_NS;   /* every rank starts at or after it */
  guint64 last_ts = 0;

  gen.n_ranks = n_ranks;
  gen.halo_every = halo_every;
  gen.n_allreduce = n_allreduce;
  gen.flat = flat;
  gen.ranks = g_new0 (BenchRank, n_ranks);
  gen.archive = OTF2_Archive_Open (outdir, "traces", OTF2_FILEMODE_WRITE, EVENT_CHUNK_SIZE, DEF_CHUNK_SIZE,
                                   OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (gen.archive == NULL)
    {
      g_set_error (error, BENCH_ERROR, 0, "OTF2_Archive_Open (%s) failed", outdir);
      g_free (gen.ranks);
      return FALSE;
    }

  bench_check (&gen, OTF2_Archive_SetFlushCallbacks (gen.archive, &bench_flush_callbacks, NULL),
               "SetFlushCallbacks");
  bench_check (&gen, OTF2_Archive_SetMemoryCallbacks (gen.archive, &bench_memory_callbacks, NULL),
               "SetMemoryCallbacks");
  bench_check (&gen, OTF2_Archive_SetSerialCollectiveCallbacks (gen.archive), "SetSerialCollectiveCallbacks");
  bench_check (&gen, OTF2_Archive_SetCreator (gen.archive, "sextant-bench-gen " PACKAGE_VERSION), "SetCreator");
  bench_check (&gen, OTF2_Archive_OpenEvtFiles (gen.archive), "OpenEvtFiles");
  setup_ranks (&gen, seed);

  run_prologue (&gen);
  while (gen.error == NULL && total_events (&gen) + (guint64) n_ranks * EPILOGUE_EVENTS < target_events)
    run_iteration (&gen, gen.n_iterations++);
  run_epilogue (&gen);
  gen.n_events = total_events (&gen);

  for (guint i = 0; i < n_ranks; i++)
    {
      last_ts = MAX (last_ts, gen.ranks[i].t);
      bench_check (&gen, OTF2_Archive_CloseEvtWriter (gen.archive, gen.ranks[i].writer), "CloseEvtWriter");
    }
  bench_check (&gen, OTF2_Archive_CloseEvtFiles (gen.archive), "CloseEvtFiles");

  /* Empty local definition files: no mapping tables, no clock offsets. */
  bench_check (&gen, OTF2_Archive_OpenDefFiles (gen.archive), "OpenDefFiles");
  for (guint i = 0; i < n_ranks; i++)
    {
      OTF2_DefWriter *local = OTF2_Archive_GetDefWriter (gen.archive, i);

      if (local != NULL)
        bench_check (&gen, OTF2_Archive_CloseDefWriter (gen.archive, local), "CloseDefWriter");
    }
  bench_check (&gen, OTF2_Archive_CloseDefFiles (gen.archive), "CloseDefFiles");

  write_definitions (&gen, first_ts, last_ts);
  bench_check (&gen, OTF2_Archive_Close (gen.archive), "OTF2_Archive_Close");

  g_print ("ranks %u (grid %u x %u), iterations %u, events %" G_GUINT64_FORMAT
           ", messages %" G_GUINT64_FORMAT ", collectives %" G_GUINT64_FORMAT
           ", simulated run %.3f s\n",
           n_ranks, gen.px, gen.py, gen.n_iterations, gen.n_events, gen.n_messages, gen.n_collectives,
           (last_ts - first_ts) / (double) TIMER_RESOLUTION);
  g_free (gen.ranks);

  if (gen.error != NULL)
    {
      g_propagate_error (error, gen.error);
      return FALSE;
    }

  return TRUE;
}

static gboolean
parse_positive (const char  *what,
                const char  *text,
                guint64      max,
                guint64     *out,
                GError     **error)
{
  guint64 value;

  if (!g_ascii_string_to_unsigned (text, 10, 1, max, &value, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--%s: expected an integer between 1 and %" G_GUINT64_FORMAT ", got \"%s\"", what, max, text);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ranks_text = NULL;
  g_autofree char *events_text = NULL;
  g_autofree char *seed_text = NULL;
  g_autofree char *halo_text = NULL;
  g_autofree char *collectives_text = NULL;
  gboolean force = FALSE;
  gboolean flat = FALSE;
  guint64 halo_every = 1;
  guint64 n_allreduce = 1;
  guint64 n_ranks = DEFAULT_RANKS;
  guint64 n_events = DEFAULT_EVENTS;
  guint64 seed = DEFAULT_SEED;
  const GOptionEntry entries[] = {
    { "ranks", 'r', 0, G_OPTION_ARG_STRING, &ranks_text, "MPI ranks (default 64)", "N" },
    { "events", 'e', 0, G_OPTION_ARG_STRING, &events_text, "Events in total (default 10000000)", "N" },
    { "seed", 's', 0, G_OPTION_ARG_STRING, &seed_text, "Seed of the imbalance and noise (default 1)", "N" },
    { "halo-every", 0, 0, G_OPTION_ARG_STRING, &halo_text,
      "Halo exchange in every N-th iteration only (default 1)", "N" },
    { "collectives", 0, 0, G_OPTION_ARG_STRING, &collectives_text,
      "MPI_Allreduce calls per iteration (default 1)", "N" },
    { "flat", 0, 0, G_OPTION_ARG_NONE, &flat, "No user regions inside an iteration", NULL },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, "Replace an existing archive in OUTDIR", NULL },
    { NULL }
  };
  gint64 start;
  double seconds;

  context = g_option_context_new ("OUTDIR");
  g_option_context_set_summary (context,
                                "Write OUTDIR/traces.otf2: a simulated 2-D stencil MPI run for the import benchmark.");
  g_option_context_add_main_entries (context, entries, NULL);

  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      (ranks_text != NULL && !parse_positive ("ranks", ranks_text, 1u << 20, &n_ranks, &error)) ||
      (events_text != NULL && !parse_positive ("events", events_text, G_MAXUINT64 / 2, &n_events, &error)) ||
      (seed_text != NULL && !parse_positive ("seed", seed_text, G_MAXUINT64, &seed, &error)) ||
      (halo_text != NULL && !parse_positive ("halo-every", halo_text, G_MAXUINT32, &halo_every, &error)) ||
      (collectives_text != NULL && !parse_positive ("collectives", collectives_text, 1000, &n_allreduce, &error)))
    {
      g_printerr ("sextant-bench-gen: %s (try --help)\n", error->message);
      return EXIT_USAGE;
    }

  if (argc != 2)
    {
      g_printerr ("sextant-bench-gen: expected one OUTDIR (try --help)\n");
      return EXIT_USAGE;
    }

  if (!prepare_outdir (argv[1], force, &error))
    {
      g_printerr ("sextant-bench-gen: %s\n", error->message);
      return EXIT_FAILURE;
    }

  start = g_get_monotonic_time ();
  if (!generate (argv[1], n_ranks, n_events, seed, (guint) halo_every, (guint) n_allreduce, flat, &error))
    {
      g_printerr ("sextant-bench-gen: %s\n", error->message);
      return EXIT_FAILURE;
    }
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  g_print ("wrote %s/traces.otf2 in %.2f s\n", argv[1], seconds);

  return EXIT_SUCCESS;
}
