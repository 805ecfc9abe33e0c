/*
 * test-onecoll-reduce.c - onecoll_allreduce() and onecoll_reduce() against
 * the MPI library's MPI_Allreduce / MPI_Reduce, on real Open MPI ranks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   test-onecoll-reduce match [--big] [--light] SPEC...
 *
 * Each SPEC is a process count N' ("5": MPI_COMM_WORLD is split into
 * communicators of N' ranks, and the rest) or an explicit partition
 * ("6,7": the first 6 ranks, then the next 7; ranks left over sit out).
 * On every communicator of a partition (all at once, so that one mpirun
 * covers several N'):
 *  - allreduce with every algorithm (binomial, rhrd, prior-art, s0s1, auto),
 *    counts 7 and 1000 with every type (MPI_INT, MPI_LONG, MPI_FLOAT,
 *    MPI_DOUBLE) and op (SUM, PROD, MIN, MAX), counts 0 and 1 with every
 *    type (the op rotating), in place every other call; and a contiguous
 *    derived type (3 doubles) with SUM;
 *  - reduce with every algorithm to every root (count 7, the (type, op)
 *    pair rotating with the root so that every pair is used), and counts
 *    0, 1 and 1000 (one pair each) to the first, a middle and the last
 *    rank; MPI's result is computed once per inputs and every algorithm
 *    compared with it (MPI_Allreduce's; MPI_Reduce's for the three roots);
 *  - with --light (the runs of N' 17..33, where every call costs the most
 *    on 2 cores), counts 7 and 1000 also take one op per type, rotating
 *    with the count, so that every (type, op) pair still occurs once per
 *    N', and the reduce of count 7 to every root rotates over those four;
 *  - with --big, count 2^20 + 3 for rhrd, prior-art and s0s1 (the ones that
 *    split the vector): (int, SUM), (long, MIN), (float, PROD),
 *    (double, MAX), (double, SUM), allreduce, and reduce to a root that
 *    moves with the case.
 * Integers, MIN and MAX must equal the MPI library's result exactly. A
 * floating-point SUM (PROD) of N' inputs x_i computed in any order has an
 * error of at most (N' - 1) u sum |x_i| (u sum|x_i| ... for PROD, relative
 * to prod |x_i|), u the unit roundoff (eps / 2); two such results (ours,
 * MPI's) differ by at most 2 (N' - 1) u of it, and the test allows
 * 2 (N' - 1) eps, twice that. Every rank computes every rank's input
 * (they are a function of the rank and the index), so the bound is exact.
 * Every rank of an allreduce must hold bit-identical results.
 *
 * The trace hooks record the non-power-of-two branch (info.order of the
 * prepare region) of each algorithm: the first rank of each communicator
 * prints which branch (pof2, r even, r odd) every algorithm reached, and
 * the test fails if it is not the one N' calls for.
 *
 *   test-onecoll-reduce count SPEC...
 *
 * Counts the messages and bytes each rank sends and receives in each phase
 * (PMPI wrappers of MPI_Send, MPI_Recv and MPI_Sendrecv below, attributed to
 * the phase region the trace hooks report) in an allreduce and a reduce of
 * 12288 doubles (divisible by 2N for every N <= 32, so every split is
 * exact), and checks them against each algorithm's formula (docs/onecoll.md,
 * "Messages and bytes"). It also looks for forwarding: a message sent in
 * the prepare or halving phase whose bytes are a copy of bytes received
 * before in the same phases (data moved on without being reduced). The
 * prior art forwards (its odd ranks hand their half over as it is), the
 * S0/S1 scheme must not.
 *
 *   test-onecoll-reduce errors
 *
 * Bad arguments return MPI error codes: the same error on every rank
 * (ONECOLL_CHECK_LOCAL) returns at once everywhere; with
 * ONECOLL_CHECK_AGREE an error on one rank only, or ranks that disagree on
 * the count, op or root, return an error on every rank, and the next call
 * works.
 */
#include "oc-test.h"
#include "onecoll-trace.h"

#include <float.h>
#include <limits.h>
#include <math.h>

static int world_size;
static int light;                   /* --light: every (type, op) once per N', see below */
static int quiet;                   /* not the first communicator of a split: no report */

/* ---- inputs ---- */

enum { T_INT, T_LONG, T_FLOAT, T_DOUBLE, N_TYPES };
enum { O_SUM, O_PROD, O_MIN, O_MAX, N_OPS };

static const char *const type_names[N_TYPES] = { "int", "long", "float", "double" };
static const char *const op_names[N_OPS] = { "sum", "prod", "min", "max" };

static MPI_Datatype
type_of (int t)
{
  return t == T_INT ? MPI_INT : t == T_LONG ? MPI_LONG : t == T_FLOAT ? MPI_FLOAT : MPI_DOUBLE;
}

static MPI_Op
op_of (int o)
{
  return o == O_SUM ? MPI_SUM : o == O_PROD ? MPI_PROD : o == O_MIN ? MPI_MIN : MPI_MAX;
}

static size_t
size_of (int t)
{
  return t == T_INT ? sizeof (int) : t == T_LONG ? sizeof (long) : t == T_FLOAT ? sizeof (float)
                                                                               : sizeof (double);
}

/* Input element @i of rank @rank for case @salt, as a double (exact in
 * every type: integers are small). PROD inputs are +-1 and, on ranks that
 * are multiples of 8, sometimes 2 (integers: no overflow up to 40 ranks),
 * or in [0.75, 1.33) (floating point). */
static double
input (int      t,
       int      o,
       int      rank,
       int64_t  i,
       uint64_t salt)
{
  uint64_t h = oc_mix (salt ^ oc_mix (((uint64_t) (unsigned) rank << 40) + (uint64_t) i));
  int fp = t == T_FLOAT || t == T_DOUBLE;

  if (o == O_PROD)
    {
      if (fp)
        return 0.75 + (double) (h >> 11) / 9007199254740992.0 * 0.58;
      if (rank % 8 == 0 && (h & 2))
        return 2.0;
      return (h & 1) ? 1.0 : -1.0;
    }
  if (fp)
    return 1.0 + (double) (h >> 11) / 9007199254740992.0;   /* [1, 2) */
  return (double) ((int64_t) (h % 2001) - 1000);
}

static void
fill (void    *buf,
      int      t,
      int      o,
      int      rank,
      int64_t  n,
      uint64_t salt)
{
  for (int64_t i = 0; i < n; i++)
    {
      double x = input (t, o, rank, i, salt);

      switch (t)
        {
        case T_INT: ((int *) buf)[i] = (int) x; break;
        case T_LONG: ((long *) buf)[i] = (long) x; break;
        case T_FLOAT: ((float *) buf)[i] = (float) x; break;
        default: ((double *) buf)[i] = x; break;
        }
    }
}

static double
get (const void *buf,
     int         t,
     int64_t     i)
{
  switch (t)
    {
    case T_INT: return ((const int *) buf)[i];
    case T_LONG: return (double) ((const long *) buf)[i];
    case T_FLOAT: return ((const float *) buf)[i];
    default: return ((const double *) buf)[i];
    }
}

/* Checks @got against MPI's @ref (see the file comment for the bound). */
static void
compare (const void *got,
         const void *ref,
         int         t,
         int         o,
         int64_t     n,
         int         np,
         uint64_t    salt,
         const char *what)
{
  int fp = t == T_FLOAT || t == T_DOUBLE;

  if (!fp || o == O_MIN || o == O_MAX)
    {
      if (n > 0 && memcmp (got, ref, (size_t) n * size_of (t)) != 0)
        for (int64_t i = 0; i < n; i++)
          if (memcmp ((const char *) got + i * size_of (t), (const char *) ref + i * size_of (t),
                      size_of (t)) != 0)
            OC_FAIL ("%s: element %lld is %.17g, MPI says %.17g", what, (long long) i,
                     get (got, t, i), get (ref, t, i));
      return;
    }
  for (int64_t i = 0; i < n; i++)
    {
      double eps = t == T_FLOAT ? FLT_EPSILON : DBL_EPSILON;
      double mag = o == O_SUM ? 0.0 : 1.0;
      double g = get (got, t, i), e = get (ref, t, i);

      for (int k = 0; k < np; k++)
        {
          double x = fabs (input (t, o, k, i, salt));

          mag = o == O_SUM ? mag + x : mag * x;
        }
      if (!(fabs (g - e) <= 2.0 * (np - 1) * eps * mag))
        OC_FAIL ("%s: element %lld is %.17g, MPI says %.17g (bound %.3g)", what,
                 (long long) i, g, e, 2.0 * (np - 1) * eps * mag);
    }
}

/* ---- trace hooks: the branch each algorithm reached ---- */

static int branch_seen[ONECOLL_REDUCE_N_ALGOS][3];   /* prepare regions entered */
static int halving_seen[ONECOLL_REDUCE_N_ALGOS];

/* count mode: the innermost phase region, and per-phase counters */
enum { PH_NONE, PH_PREPARE, PH_HALVING, PH_DOUBLING, PH_GATHER, PH_DISTRIBUTE, PH_TREE,
       PH_TREE_BCAST, N_PHASES };
static const char *const phase_names[N_PHASES] = {
  "none", "prepare", "halving", "doubling", "gather", "distribute", "tree", "tree_bcast"
};
static int phase = PH_NONE;
static int counting;
typedef struct
{
  int64_t sent_msgs, sent_bytes, recv_msgs, recv_bytes;
} traffic;
static traffic per_phase[N_PHASES];

static int
phase_of (onecoll_region region)
{
  switch (region)
    {
    case ONECOLL_REGION_RED_PREPARE: return PH_PREPARE;
    case ONECOLL_REGION_RED_HALVING: return PH_HALVING;
    case ONECOLL_REGION_RED_DOUBLING: return PH_DOUBLING;
    case ONECOLL_REGION_RED_GATHER: return PH_GATHER;
    case ONECOLL_REGION_RED_DISTRIBUTE: return PH_DISTRIBUTE;
    case ONECOLL_REGION_RED_TREE: return PH_TREE;
    case ONECOLL_REGION_RED_TREE_BCAST: return PH_TREE_BCAST;
    default: return -1;
    }
}

static void
hook_enter (void                     *user_data,
            onecoll_region            region,
            const onecoll_trace_info *info,
            const char               *file,
            int                       line)
{
  int ph = phase_of (region);

  (void) user_data;
  (void) file;
  (void) line;
  if (region == ONECOLL_REGION_RED_PREPARE && info->algo > 0 && info->algo < ONECOLL_REDUCE_N_ALGOS
      && info->order >= 0 && info->order < 3)
    branch_seen[info->algo][info->order]++;
  if (region == ONECOLL_REGION_RED_HALVING && info->algo > 0 && info->algo < ONECOLL_REDUCE_N_ALGOS)
    halving_seen[info->algo]++;
  if (ph >= 0)
    {
      if (phase != PH_NONE)
        OC_FAIL ("phase %s entered inside %s", phase_names[ph], phase_names[phase]);
      phase = ph;
    }
}

static void
hook_leave (void          *user_data,
            onecoll_region region)
{
  (void) user_data;
  if (phase_of (region) >= 0)
    phase = PH_NONE;
}

/* ---- forwarding detection (count mode) ---- */

#define MAX_RECVD 64
static double *recvd[MAX_RECVD];    /* payloads received in prepare/halving */
static int64_t recvd_n[MAX_RECVD];
static int n_recvd;
static int64_t forwarded_bytes;

static void
note_received (const void  *buf,
               int          count,
               MPI_Datatype type)
{
  if (!counting || type != MPI_DOUBLE || (phase != PH_PREPARE && phase != PH_HALVING)
      || n_recvd == MAX_RECVD)
    return;
  recvd[n_recvd] = malloc ((size_t) count * sizeof (double));
  if (recvd[n_recvd] == NULL)
    OC_FAIL ("out of memory");
  memcpy (recvd[n_recvd], buf, (size_t) count * sizeof (double));
  recvd_n[n_recvd++] = count;
}

static void
check_forward (const void  *buf,
               int          count,
               MPI_Datatype type)
{
  const double *s = buf;

  if (!counting || type != MPI_DOUBLE || (phase != PH_PREPARE && phase != PH_HALVING) || count < 1)
    return;
  for (int k = 0; k < n_recvd; k++)
    for (int64_t off = 0; off + count <= recvd_n[k]; off++)
      if (recvd[k][off] == s[0]
          && memcmp (recvd[k] + off, s, (size_t) count * sizeof (double)) == 0)
        {
          forwarded_bytes += (int64_t) count * (int64_t) sizeof (double);
          return;
        }
}

static void
forget_received (void)
{
  for (int k = 0; k < n_recvd; k++)
    free (recvd[k]);
  n_recvd = 0;
}

/* ---- PMPI wrappers: every message onecoll sends or receives ---- */

static void
count_msg (int          sent,
           int          count,
           MPI_Datatype type)
{
  int size = 0;

  if (!counting)
    return;
  PMPI_Type_size (type, &size);
  if (sent)
    {
      per_phase[phase].sent_msgs++;
      per_phase[phase].sent_bytes += (int64_t) count * size;
    }
  else
    {
      per_phase[phase].recv_msgs++;
      per_phase[phase].recv_bytes += (int64_t) count * size;
    }
}

int
MPI_Send (const void  *buf,
          int          count,
          MPI_Datatype type,
          int          dest,
          int          tag,
          MPI_Comm     comm)
{
  count_msg (1, count, type);
  check_forward (buf, count, type);
  return PMPI_Send (buf, count, type, dest, tag, comm);
}

int
MPI_Recv (void        *buf,
          int          count,
          MPI_Datatype type,
          int          source,
          int          tag,
          MPI_Comm     comm,
          MPI_Status  *status)
{
  int rc = PMPI_Recv (buf, count, type, source, tag, comm, status);

  count_msg (0, count, type);
  note_received (buf, count, type);
  return rc;
}

int
MPI_Sendrecv (const void  *sendbuf,
              int          sendcount,
              MPI_Datatype sendtype,
              int          dest,
              int          sendtag,
              void        *recvbuf,
              int          recvcount,
              MPI_Datatype recvtype,
              int          source,
              int          recvtag,
              MPI_Comm     comm,
              MPI_Status  *status)
{
  int rc;

  count_msg (1, sendcount, sendtype);
  check_forward (sendbuf, sendcount, sendtype);
  rc = PMPI_Sendrecv (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                      recvtype, source, recvtag, comm, status);
  count_msg (0, recvcount, recvtype);
  note_received (recvbuf, recvcount, recvtype);
  return rc;
}

/* ---- communicators ---- */

/* Splits MPI_COMM_WORLD by @spec (see the file comment); *@comm is
 * MPI_COMM_NULL on ranks that sit out. */
static void
split_world (const char *spec,
             MPI_Comm   *comm)
{
  int color = MPI_UNDEFINED;

  if (strchr (spec, ',') == NULL)
    {
      int np = atoi (spec);

      if (np < 1)
        OC_FAIL ("bad spec %s", spec);
      color = oc_rank / np;
    }
  else
    {
      const char *s = spec;
      int start = 0, part = 0;

      while (*s != '\0')
        {
          int np = (int) strtol (s, (char **) &s, 10);

          if (np < 1)
            OC_FAIL ("bad spec %s", spec);
          if (oc_rank >= start && oc_rank < start + np)
            color = part;
          start += np;
          part++;
          if (*s == ',')
            s++;
        }
      if (start > world_size)
        OC_FAIL ("spec %s needs %d ranks, there are %d", spec, start, world_size);
    }
  if (MPI_Comm_split (MPI_COMM_WORLD, color, oc_rank, comm) != MPI_SUCCESS)
    OC_FAIL ("MPI_Comm_split");
}

static const int algos[] = {
  ONECOLL_REDUCE_BINOMIAL, ONECOLL_REDUCE_RHRD, ONECOLL_REDUCE_PRIOR_ART,
  ONECOLL_REDUCE_S0S1, ONECOLL_REDUCE_AUTO,
};
#define N_ALGOS ((int) (sizeof algos / sizeof algos[0]))

static int
largest_pof2 (int p)
{
  int n = 1;

  while (n <= p / 2)
    n *= 2;
  return n;
}

/* ---- match mode ---- */

typedef struct
{
  MPI_Comm comm;
  int rank, np;
  unsigned char *in, *out, *ref, *keep;
} bufs;

/* An allreduce of the inputs already in b->in, against MPI's result in
 * @ref. */
static void
one_allreduce (bufs       *b,
               int         algo,
               int         t,
               int         o,
               int64_t     n,
               int         in_place,
               uint64_t    salt,
               const void *ref)
{
  onecoll_reduce_opts opts = { algo, ONECOLL_CHECK_LOCAL };
  size_t bytes = (size_t) n * size_of (t);
  char what[160];
  int rc;

  snprintf (what, sizeof what, "allreduce N'=%d %s %s %s count %lld%s", b->np,
            onecoll_reduce_algo_name (algo), type_names[t], op_names[o], (long long) n,
            in_place ? " in place" : "");
  if (in_place)
    {
      memcpy (b->out, b->in, bytes);
      rc = onecoll_allreduce (MPI_IN_PLACE, b->out, (int) n, type_of (t), op_of (o), b->comm, &opts);
    }
  else
    {
      memset (b->out, 0xa5, bytes);
      rc = onecoll_allreduce (b->in, b->out, (int) n, type_of (t), op_of (o), b->comm, &opts);
      if (memcmp (b->in, b->keep, bytes) != 0)
        OC_FAIL ("%s: the send buffer changed", what);
    }
  if (rc != MPI_SUCCESS)
    OC_FAIL ("%s: returned %d", what, rc);
  compare (b->out, ref, t, o, n, b->np, salt, what);
  /* floating sums and products: every rank must hold the same bits
   * (elsewhere the exact comparison implies it) */
  if ((t == T_FLOAT || t == T_DOUBLE) && (o == O_SUM || o == O_PROD) && n > 0)
    {
      uint64_t h = 0, hv[2], mx[2];

      for (size_t i = 0; i < bytes; i++)
        h = oc_mix (h ^ b->out[i]);
      hv[0] = h;
      hv[1] = ~h;                   /* max of ~h = ~(min of h) */
      MPI_Allreduce (hv, mx, 2, MPI_UINT64_T, MPI_MAX, b->comm);
      if (mx[0] != ~mx[1])
        OC_FAIL ("%s: the ranks' results differ", what);
    }
}

/* A reduce of the inputs in b->in to @root, against @ref (significant at
 * the root). */
static void
one_reduce (bufs       *b,
            int         algo,
            int         t,
            int         o,
            int64_t     n,
            int         root,
            int         in_place,
            uint64_t    salt,
            const void *ref)
{
  onecoll_reduce_opts opts = { algo, ONECOLL_CHECK_LOCAL };
  size_t bytes = (size_t) n * size_of (t);
  char what[160];
  int rc, is_root = b->rank == root;

  snprintf (what, sizeof what, "reduce N'=%d root %d %s %s %s count %lld%s", b->np, root,
            onecoll_reduce_algo_name (algo), type_names[t], op_names[o], (long long) n,
            in_place ? " in place" : "");
  if (in_place && is_root)
    {
      memcpy (b->out, b->in, bytes);
      rc = onecoll_reduce (MPI_IN_PLACE, b->out, (int) n, type_of (t), op_of (o), root, b->comm,
                           &opts);
    }
  else
    {
      memset (b->out, 0xa5, bytes);
      /* the receive buffer means nothing on the other ranks: NULL there */
      rc = onecoll_reduce (b->in, is_root ? b->out : NULL, (int) n, type_of (t), op_of (o), root,
                           b->comm, &opts);
      if (memcmp (b->in, b->keep, bytes) != 0)
        OC_FAIL ("%s: the send buffer changed", what);
    }
  if (rc != MPI_SUCCESS)
    OC_FAIL ("%s: returned %d", what, rc);
  if (is_root)
    compare (b->out, ref, t, o, n, b->np, salt, what);
}

/* Fills b->in (and b->keep) with the inputs of (@t, @o, @n, @salt) and
 * MPI's allreduce of them into b->ref. */
static void
prepare_case (bufs    *b,
              int      t,
              int      o,
              int64_t  n,
              uint64_t salt)
{
  fill (b->in, t, o, b->rank, n, salt);
  memcpy (b->keep, b->in, (size_t) n * size_of (t));
  if (MPI_Allreduce (b->in, b->ref, (int) n, type_of (t), op_of (o), b->comm) != MPI_SUCCESS)
    OC_FAIL ("MPI_Allreduce");
}

static void
contiguous_case (bufs *b,
                 int   algo)
{
  MPI_Datatype triple;
  onecoll_reduce_opts opts = { algo, ONECOLL_CHECK_LOCAL };
  int64_t n = 7 * 3;
  char what[96];

  snprintf (what, sizeof what, "allreduce N'=%d %s 7 x contiguous(3 doubles)", b->np,
            onecoll_reduce_algo_name (algo));
  MPI_Type_contiguous (3, MPI_DOUBLE, &triple);
  MPI_Type_commit (&triple);
  fill (b->in, T_DOUBLE, O_SUM, b->rank, n, 77);
  MPI_Allreduce (b->in, b->ref, (int) n, MPI_DOUBLE, MPI_SUM, b->comm);
  if (onecoll_allreduce (b->in, b->out, 7, triple, MPI_SUM, b->comm, &opts) != MPI_SUCCESS)
    OC_FAIL ("%s: failed", what);
  compare (b->out, b->ref, T_DOUBLE, O_SUM, n, b->np, 77, what);
  MPI_Type_free (&triple);
}

static void
match_comm (MPI_Comm comm,
            int      big)
{
  static const int64_t counts[] = { 0, 1, 7, 1000 };
  const int64_t big_n = ((int64_t) 1 << 20) + 3;
  int64_t max_n = big ? big_n : 1000;
  bufs b;
  int calls = 0, expect_branch;
  double t0 = MPI_Wtime ();

  b.comm = comm;
  MPI_Comm_rank (comm, &b.rank);
  MPI_Comm_size (comm, &b.np);
  b.in = malloc ((size_t) max_n * 8 + 64);
  b.out = malloc ((size_t) max_n * 8 + 64);
  b.ref = malloc ((size_t) max_n * 8 + 64);
  b.keep = malloc ((size_t) max_n * 8 + 64);
  if (b.in == NULL || b.out == NULL || b.ref == NULL || b.keep == NULL)
    OC_FAIL ("out of memory");
  memset (branch_seen, 0, sizeof branch_seen);
  memset (halving_seen, 0, sizeof halving_seen);

  /* Per (count, type, op): MPI's allreduce once, then every algorithm.
   * Counts 7 and 1000: every (type, op); 0 and 1: every type, the op
   * rotating. Reduce: count 7 to every root with every algorithm, the
   * (type, op) pair rotating with the root and the algorithm so that
   * every pair is used (against MPI's allreduce); counts 0, 1 and 1000,
   * one pair each, to the first, a middle and the last rank (against
   * MPI_Reduce). */
  for (int c = 0; c < 4; c++)
    for (int t = 0; t < N_TYPES; t++)
      for (int o = 0; o < N_OPS; o++)
        {
          int64_t n = counts[c];
          int pair = t * N_OPS + o;
          uint64_t salt = oc_mix ((uint64_t) b.np << 20 | (uint64_t) (c * 16 + pair));

          if ((n < 7 || light) && o != (t + c) % N_OPS)
            continue;
          prepare_case (&b, t, o, n, salt);
          for (int a = 0; a < N_ALGOS; a++, calls++)
            one_allreduce (&b, algos[a], t, o, n, calls % 2, salt, b.ref);
          if (n == 7)
            {
              for (int a = 0; a < N_ALGOS; a++)
                for (int root = 0; root < b.np; root++)
                  if (light ? (root + a) % N_TYPES == t : (root + a) % (N_TYPES * N_OPS) == pair)
                    {
                      one_reduce (&b, algos[a], t, o, n, root, root % 2, salt, b.ref);
                      calls++;
                    }
            }
          else if (pair == (c * 5) % (N_TYPES * N_OPS))
            {
              int roots[3] = { 0, b.np / 2, b.np - 1 };

              for (int k = 0; k < 3; k++)
                {
                  if ((k > 0 && roots[k] == roots[k - 1]) || (k == 2 && roots[2] == roots[0]))
                    continue;
                  if (MPI_Reduce (b.in, b.out, (int) n, type_of (t), op_of (o), roots[k], b.comm)
                      != MPI_SUCCESS)
                    OC_FAIL ("MPI_Reduce");
                  memcpy (b.ref, b.out, (size_t) n * size_of (t));
                  for (int a = 0; a < N_ALGOS; a++, calls++)
                    one_reduce (&b, algos[a], t, o, n, roots[k], a % 2, salt, b.ref);
                }
            }
        }
  for (int a = 0; a < N_ALGOS; a++)
    contiguous_case (&b, algos[a]);
  if (big)
    for (int k = 0; k < 5; k++)
      {
        /* every type and every op once, and doubles summed */
        static const int big_t[5] = { T_INT, T_LONG, T_FLOAT, T_DOUBLE, T_DOUBLE };
        static const int big_o[5] = { O_SUM, O_MIN, O_PROD, O_MAX, O_SUM };
        int t = big_t[k], o = big_o[k];
        uint64_t salt = oc_mix ((uint64_t) b.np << 20 | (uint64_t) (100 + k));

        prepare_case (&b, t, o, big_n, salt);
        for (int a = 1; a < N_ALGOS - 1; a++, calls += 2)   /* the splitting algorithms */
          {
            one_allreduce (&b, algos[a], t, o, big_n, k % 2, salt, b.ref);
            one_reduce (&b, algos[a], t, o, big_n, (a + k) % b.np, k % 2, salt, b.ref);
          }
      }

  /* the branches reached, as seen on this rank */
  {
    int p = b.np, rem = p - largest_pof2 (p);

    expect_branch = rem == 0 ? ONECOLL_BRANCH_POF2 : rem % 2 == 0 ? ONECOLL_BRANCH_R_EVEN
                                                                   : ONECOLL_BRANCH_R_ODD;
    for (int a = ONECOLL_REDUCE_RHRD; a <= ONECOLL_REDUCE_S0S1; a++)
      {
        for (int k = 0; k < 3; k++)
          if (branch_seen[a][k] > 0 && k != expect_branch)
            OC_FAIL ("N'=%d: %s entered the prepare step of branch %d", p,
                     onecoll_reduce_algo_name (a), k);
        if (p > 1 && rem > 0 && branch_seen[a][expect_branch] == 0)
          OC_FAIL ("N'=%d: %s never entered its prepare step", p, onecoll_reduce_algo_name (a));
      }
    if (b.rank == 0 && !quiet)
      printf ("N'=%2d (N=%d, r=%d): %s; prepare steps entered on rank 0: prior-art %d, "
              "s0s1 %d; %d cases in %.2f s\n",
              p, largest_pof2 (p), rem,
              expect_branch == ONECOLL_BRANCH_POF2 ? "power of two, no prepare step"
              : expect_branch == ONECOLL_BRANCH_R_EVEN ? "branch r even (claim 3)"
                                                       : "branch r odd (claim 6)",
              branch_seen[ONECOLL_REDUCE_PRIOR_ART][expect_branch],
              branch_seen[ONECOLL_REDUCE_S0S1][expect_branch], calls, MPI_Wtime () - t0);
  }
  free (b.in);
  free (b.out);
  free (b.ref);
  free (b.keep);
}

/* ---- count mode ---- */

#define COUNT_N 12288               /* doubles; divisible by 2 * 32 */

typedef struct
{
  int64_t msgs[N_PHASES];
  int64_t bytes[N_PHASES];
} expect;

static int
msb (int g)
{
  int k = 0;

  while ((g >> (k + 1)) != 0)
    k++;
  return k;
}

static int
lg (int M)
{
  int k = 0;

  while ((1 << k) < M)
    k++;
  return k;
}

/* RHRD on a group of M on a block of B bytes, member g: what it sends. */
static void
expect_rhrd (expect *e,
             int     M,
             int     g,
             int64_t B,
             int     allreduce)
{
  e->msgs[PH_HALVING] += lg (M);
  e->bytes[PH_HALVING] += B - B / M;
  if (allreduce)
    {
      e->msgs[PH_DOUBLING] += lg (M);
      e->bytes[PH_DOUBLING] += B - B / M;
    }
  else if (g != 0)
    {
      e->msgs[PH_GATHER] += 1;
      e->bytes[PH_GATHER] += B >> (msb (g) + 1);
    }
}

/* The formulas, per rank (relative rank v; root 0), of docs/onecoll.md. */
static void
expected (int     algo,
          int     p,
          int     v,
          int     allreduce,
          expect *e)
{
  int64_t L = (int64_t) COUNT_N * 8, H = L / 2;
  int N = largest_pof2 (p), rem = p - N;

  memset (e, 0, sizeof *e);
  if (p == 1)
    return;
  if (algo == ONECOLL_REDUCE_BINOMIAL)
    {
      int low = 1;

      while (low < p && !(v & low))
        low <<= 1;
      if (v != 0)
        {
          e->msgs[PH_TREE] = 1;
          e->bytes[PH_TREE] = L;
        }
      if (allreduce)
        for (int m = low >> 1; m > 0; m >>= 1)
          if (v + m < p)
            {
              e->msgs[PH_TREE_BCAST]++;
              e->bytes[PH_TREE_BCAST] += L;
            }
      return;
    }
  if (rem == 0)
    {
      expect_rhrd (e, N, v, L, allreduce);
      return;
    }
  if (algo != ONECOLL_REDUCE_S0S1)
    {
      if (v < 2 * rem && v % 2 == 1)
        {
          e->msgs[PH_PREPARE] = 2;  /* H0 in the exchange, then the reduced H1 */
          e->bytes[PH_PREPARE] = 2 * H;
          return;
        }
      if (v < 2 * rem)
        {
          e->msgs[PH_PREPARE] = 1;
          e->bytes[PH_PREPARE] = H;
          if (allreduce)
            {
              e->msgs[PH_DISTRIBUTE] = 1;
              e->bytes[PH_DISTRIBUTE] = L;
            }
        }
      expect_rhrd (e, N, v < 2 * rem ? v / 2 : v - rem, L, allreduce);
      return;
    }

  /* S0/S1: roles as in the file comment of onecoll-allreduce.c */
  {
    int q = rem / 2, odd = rem % 2, s1 = 2 * rem + odd;
    int h0 = 0, h1 = 0, half = -1, me = -1;
    enum { Q0, Q1, Q2, Q3, E, O, X, LOW, HIGH } role = Q0;

    for (int u = 0; u <= v; u++)
      {
        int ru = u < 4 * q ? Q0 + u % 4 : (odd && u == 2 * rem - 2) ? E
                 : (odd && u == 2 * rem - 1) ? O : (odd && u == 2 * rem) ? X
                 : (u - s1) % 2 == 0 ? LOW : HIGH;
        int hu = (ru == Q0 || ru == E || ru == LOW) ? 0
                 : (ru == Q1 || ru == X || ru == HIGH) ? 1 : -1;

        if (u == v)
          {
            role = ru;
            half = hu;
            me = hu == 0 ? h0 : hu == 1 ? h1 : -1;
          }
        if (hu == 0)
          h0++;
        else if (hu == 1)
          h1++;
      }
    /* prepare: one half in the exchange (x: none), senders one more */
    e->msgs[PH_PREPARE] = (role == Q2 || role == Q3 || role == O) ? 2 : 1;
    e->bytes[PH_PREPARE] = e->msgs[PH_PREPARE] * H;
    if (half >= 0)
      {
        expect_rhrd (e, N / 2, me, H, allreduce);
        if (!allreduce && half == 1 && me == 0)
          {
            e->msgs[PH_GATHER] += 1;
            e->bytes[PH_GATHER] += H;
          }
      }
    if (allreduce)
      {
        /* distribute: receivers and e two halves (back to the sender, the
         * pair swap); the others one */
        e->msgs[PH_DISTRIBUTE] = (role == Q0 || role == Q1 || role == E) ? 2 : 1;
        e->bytes[PH_DISTRIBUTE] = e->msgs[PH_DISTRIBUTE] * H;
      }
  }
}

static void
count_comm (MPI_Comm comm)
{
  int rank, np;
  double *in = malloc (COUNT_N * sizeof (double)), *out = malloc (COUNT_N * sizeof (double));
  int64_t fwd[ONECOLL_REDUCE_N_ALGOS][2];

  if (in == NULL || out == NULL)
    OC_FAIL ("out of memory");
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &np);
  for (int a = ONECOLL_REDUCE_BINOMIAL; a <= ONECOLL_REDUCE_S0S1; a++)
    for (int allreduce = 0; allreduce <= 1; allreduce++)
      {
        onecoll_reduce_opts opts = { a, ONECOLL_CHECK_LOCAL };
        expect e;
        int64_t tot[4] = { 0, 0, 0, 0 }, sum[4];
        int rc;

        fill (in, T_DOUBLE, O_SUM, rank, COUNT_N, (uint64_t) a * 2 + (uint64_t) allreduce);
        memset (per_phase, 0, sizeof per_phase);
        forwarded_bytes = 0;
        counting = 1;
        rc = allreduce ? onecoll_allreduce (in, out, COUNT_N, MPI_DOUBLE, MPI_SUM, comm, &opts)
                       : onecoll_reduce (in, out, COUNT_N, MPI_DOUBLE, MPI_SUM, 0, comm, &opts);
        counting = 0;
        forget_received ();
        if (rc != MPI_SUCCESS)
          OC_FAIL ("count N'=%d %s: returned %d", np, onecoll_reduce_algo_name (a), rc);
        if (per_phase[PH_NONE].sent_msgs != 0 || per_phase[PH_NONE].recv_msgs != 0)
          OC_FAIL ("count N'=%d %s: messages outside every phase", np,
                   onecoll_reduce_algo_name (a));
        expected (a, np, rank, allreduce, &e);
        for (int ph = 1; ph < N_PHASES; ph++)
          {
            if (per_phase[ph].sent_msgs != e.msgs[ph] || per_phase[ph].sent_bytes != e.bytes[ph])
              OC_FAIL ("count N'=%d %s %s rank %d phase %s: sent %lld messages, %lld bytes; "
                       "the formula says %lld, %lld",
                       np, onecoll_reduce_algo_name (a), allreduce ? "allreduce" : "reduce",
                       rank, phase_names[ph], (long long) per_phase[ph].sent_msgs,
                       (long long) per_phase[ph].sent_bytes, (long long) e.msgs[ph],
                       (long long) e.bytes[ph]);
            tot[0] += per_phase[ph].sent_msgs;
            tot[1] += per_phase[ph].sent_bytes;
            tot[2] += per_phase[ph].recv_msgs;
            tot[3] += per_phase[ph].recv_bytes;
          }
        /* what is sent is received */
        MPI_Allreduce (tot, sum, 4, MPI_INT64_T, MPI_SUM, comm);
        if (sum[0] != sum[2] || sum[1] != sum[3])
          OC_FAIL ("count N'=%d %s: %lld messages (%lld bytes) sent, %lld (%lld) received", np,
                   onecoll_reduce_algo_name (a), (long long) sum[0], (long long) sum[1],
                   (long long) sum[2], (long long) sum[3]);
        MPI_Allreduce (&forwarded_bytes, &fwd[a][allreduce], 1, MPI_INT64_T, MPI_SUM, comm);
        {
          int64_t mx[2] = { tot[1], per_phase[PH_PREPARE].sent_bytes }, mxs[2];

          MPI_Allreduce (mx, mxs, 2, MPI_INT64_T, MPI_MAX, comm);
          if (rank == 0 && !quiet)
            printf ("N'=%2d %-9s %-9s: %4lld messages, %9lld bytes in all; max per rank "
                    "%8lld bytes (prepare %7lld); forwarded %lld bytes\n",
                    np, onecoll_reduce_algo_name (a), allreduce ? "allreduce" : "reduce",
                    (long long) sum[0], (long long) sum[1], (long long) mxs[0],
                    (long long) mxs[1], (long long) fwd[a][allreduce]);
        }
      }
  {
    int rem = np - largest_pof2 (np);

    for (int allreduce = 0; allreduce <= 1; allreduce++)
      {
        if (fwd[ONECOLL_REDUCE_S0S1][allreduce] != 0)
          OC_FAIL ("N'=%d: s0s1 forwarded %lld bytes", np,
                   (long long) fwd[ONECOLL_REDUCE_S0S1][allreduce]);
        if (rem > 0 && np > 3 && fwd[ONECOLL_REDUCE_PRIOR_ART][allreduce] == 0)
          OC_FAIL ("N'=%d: the prior art forwarded nothing (the detector is blind)", np);
      }
  }
  free (in);
  free (out);
}

/* ---- errors mode ---- */

static void
expect_err (int         rc,
            int         expected_class,
            const char *what)
{
  int cls = rc;

  if (rc != MPI_SUCCESS)
    MPI_Error_class (rc, &cls);
  if (cls != expected_class)
    OC_FAIL ("%s: returned %d, expected %d", what, rc, expected_class);
}

static void
errors_mode (void)
{
  onecoll_reduce_opts local = { ONECOLL_REDUCE_AUTO, ONECOLL_CHECK_LOCAL };
  onecoll_reduce_opts agree = { ONECOLL_REDUCE_S0S1, ONECOLL_CHECK_AGREE };
  onecoll_reduce_opts bad = { (onecoll_reduce_algo) 99, ONECOLL_CHECK_LOCAL };
  double in[16], out[16];
  int ok_in[4] = { 1, 2, 3, 4 }, ok_out[4];
  MPI_Comm inter = MPI_COMM_NULL, half;
  int me_root = oc_rank == 0;

  for (int i = 0; i < 16; i++)
    in[i] = oc_rank + i;
  /* the same error on every rank, LOCAL: no communication, no hang */
  expect_err (onecoll_allreduce (in, out, -1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &local),
              MPI_ERR_COUNT, "count -1");
  expect_err (onecoll_allreduce (in, out, 4, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD, &local),
              MPI_ERR_TYPE, "MPI_CHAR");
  expect_err (onecoll_allreduce (in, out, 4, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD, &local),
              MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
  expect_err (onecoll_allreduce (in, out, 4, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD, &local),
              MPI_ERR_OP, "MPI_BAND");
  expect_err (onecoll_allreduce (in, out, 4, MPI_DOUBLE, MPI_OP_NULL, MPI_COMM_WORLD, &local),
              MPI_ERR_OP, "MPI_OP_NULL");
  expect_err (onecoll_allreduce (in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_NULL, &local),
              MPI_ERR_COMM, "MPI_COMM_NULL");
  expect_err (onecoll_allreduce (NULL, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &local),
              MPI_ERR_BUFFER, "NULL send buffer");
  expect_err (onecoll_allreduce (in, NULL, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &local),
              MPI_ERR_BUFFER, "NULL receive buffer");
  expect_err (onecoll_allreduce (in, in, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &local),
              MPI_ERR_BUFFER, "send buffer == receive buffer");
  expect_err (onecoll_allreduce (in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &bad),
              MPI_ERR_ARG, "unknown algorithm");
  {
    MPI_Datatype pair;

    MPI_Type_contiguous (2, MPI_DOUBLE, &pair);
    MPI_Type_commit (&pair);
    expect_err (onecoll_allreduce (in, out, INT_MAX / 2 + 1, pair, MPI_SUM, MPI_COMM_WORLD, &local),
                MPI_ERR_COUNT, "more than INT_MAX doubles");
    MPI_Type_free (&pair);
  }
  expect_err (onecoll_reduce (in, out, 4, MPI_DOUBLE, MPI_SUM, world_size, MPI_COMM_WORLD, &local),
              MPI_ERR_ROOT, "root = size");
  expect_err (onecoll_reduce (in, out, 4, MPI_DOUBLE, MPI_SUM, -1, MPI_COMM_WORLD, &local),
              MPI_ERR_ROOT, "root -1");
  if (world_size > 1)
    expect_err (onecoll_reduce (me_root ? in : MPI_IN_PLACE, out, 4, MPI_DOUBLE, MPI_SUM, 0,
                                MPI_COMM_WORLD, &agree),
                MPI_ERR_BUFFER, "MPI_IN_PLACE on a rank that is not the root (AGREE)");

  /* an inter-communicator */
  if (world_size >= 2)
    {
      MPI_Comm_split (MPI_COMM_WORLD, oc_rank % 2, oc_rank, &half);
      MPI_Intercomm_create (half, 0, MPI_COMM_WORLD, oc_rank % 2 == 0 ? 1 : 0, 7, &inter);
      expect_err (onecoll_allreduce (in, out, 4, MPI_DOUBLE, MPI_SUM, inter, &local),
                  MPI_ERR_COMM, "inter-communicator");
      MPI_Comm_free (&inter);
      MPI_Comm_free (&half);
    }

  /* AGREE: one rank's error, or a disagreement, fails everywhere */
  expect_err (onecoll_allreduce (in, oc_rank == world_size - 1 ? NULL : out, 4, MPI_DOUBLE,
                                 MPI_SUM, MPI_COMM_WORLD, &agree),
              MPI_ERR_BUFFER, "one rank's NULL buffer (AGREE)");
  if (world_size > 1)
    {
      expect_err (onecoll_allreduce (in, out, oc_rank == 0 ? 5 : 4, MPI_DOUBLE, MPI_SUM,
                                     MPI_COMM_WORLD, &agree),
                  MPI_ERR_COUNT, "counts that differ (AGREE)");
      expect_err (onecoll_allreduce (in, out, 4, MPI_DOUBLE, oc_rank == 0 ? MPI_MAX : MPI_SUM,
                                     MPI_COMM_WORLD, &agree),
                  MPI_ERR_OP, "ops that differ (AGREE)");
      expect_err (onecoll_reduce (in, out, 4, MPI_DOUBLE, MPI_SUM, oc_rank == 0 ? 1 : 0,
                                  MPI_COMM_WORLD, &agree),
                  MPI_ERR_ROOT, "roots that differ (AGREE)");
    }
  /* and then it still works, on the same communicator */
  expect_err (onecoll_allreduce (ok_in, ok_out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &agree),
              MPI_SUCCESS, "a good call after the errors");
  for (int i = 0; i < 4; i++)
    if (ok_out[i] != ok_in[i] * world_size)
      OC_FAIL ("good call after the errors: element %d is %d", i, ok_out[i]);
  /* the model and the names */
  if (onecoll_reduce_algo_name (ONECOLL_REDUCE_S0S1) == NULL
      || onecoll_reduce_algo_name (ONECOLL_REDUCE_N_ALGOS) != NULL
      || onecoll_reduce_cost ((onecoll_reduce_algo) 42, 1, 4, 1, 1, 1, 1) >= 0
      || onecoll_reduce_cost (ONECOLL_REDUCE_S0S1, 1, 1, 1e6, 1, 1, 1) != 0)
    OC_FAIL ("names or cost model");
  for (int p = 2; p <= 64; p++)
    if (largest_pof2 (p) != p)
      {
        double pa = onecoll_reduce_cost (ONECOLL_REDUCE_PRIOR_ART, 1, p, 1 << 20, 0, 1e-9, 0);
        double s = onecoll_reduce_cost (ONECOLL_REDUCE_S0S1, 1, p, 1 << 20, 0, 1e-9, 0);

        if (!(s < pa))
          OC_FAIL ("model: s0s1 is not cheaper than the prior art in bandwidth at N'=%d", p);
      }
  if (oc_rank == 0)
    printf ("errors: every bad argument returned its MPI error class on %d ranks\n", world_size);
}

int
main (int    argc,
      char **argv)
{
  onecoll_trace_hooks hooks = { 0 };
  int provided, big = 0;
  int first = 2;

  MPI_Init_thread (&argc, &argv, MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank (MPI_COMM_WORLD, &oc_rank);
  MPI_Comm_size (MPI_COMM_WORLD, &world_size);
  if (argc < 2)
    OC_FAIL ("usage: %s match [--big] [--light] SPEC... | count SPEC... | errors", argv[0]);
  hooks.enter = hook_enter;
  hooks.leave = hook_leave;
  if (onecoll_set_trace_hooks (&hooks) != ONECOLL_OK)
    OC_FAIL ("set_trace_hooks");

  if (strcmp (argv[1], "errors") == 0)
    errors_mode ();
  else
    {
      int match = strcmp (argv[1], "match") == 0;

      if (!match && strcmp (argv[1], "count") != 0)
        OC_FAIL ("unknown mode %s", argv[1]);
      for (; match && first < argc && strncmp (argv[first], "--", 2) == 0; first++)
        if (strcmp (argv[first], "--big") == 0)
          big = 1;
        else if (strcmp (argv[first], "--light") == 0)
          light = 1;
        else
          OC_FAIL ("unknown option %s", argv[first]);
      for (int i = first; i < argc; i++)
        {
          MPI_Comm comm;

          split_world (argv[i], &comm);
          if (comm != MPI_COMM_NULL)
            {
              int size;

              MPI_Comm_size (comm, &size);
              /* N' specs: the first communicator reports */
              quiet = strchr (argv[i], ',') == NULL && oc_rank >= size;
              if (match)
                match_comm (comm, big);
              else
                count_comm (comm);
              fflush (stdout);
              MPI_Comm_free (&comm);
            }
          MPI_Barrier (MPI_COMM_WORLD);
        }
    }
  MPI_Finalize ();
  return 0;
}
