/*
 * onecoll-reduce.c - onecoll_reduce() and onecoll_allreduce(): argument
 * checks (and their agreement), the private duplicate communicator cached
 * on the caller's, the automatic choice of algorithm and the
 * alpha-beta-gamma cost model. The algorithms are in onecoll-allreduce.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Workload: one call per collective of the application; everything here
 * is O(1) besides the copy of the input into the result buffer (and the
 * first call on a communicator, which duplicates it).
 */
#include "onecoll-private.h"
#include "onecoll-reduce-private.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- the private duplicate, cached on the caller's communicator ---- */

typedef struct
{
  MPI_Comm dup;                     /* ERRORS_RETURN */
  uint64_t seq;                     /* calls so far */
} comm_cache;

static pthread_once_t keyval_once = PTHREAD_ONCE_INIT;
static int keyval = MPI_KEYVAL_INVALID;

static int
cache_delete (MPI_Comm comm,
              int      key,
              void    *value,
              void    *extra)
{
  comm_cache *cache = value;

  (void) comm;
  (void) key;
  (void) extra;
  if (cache != NULL)
    {
      MPI_Comm_free (&cache->dup);
      free (cache);
    }
  return MPI_SUCCESS;
}

static void
keyval_create (void)
{
  if (MPI_Comm_create_keyval (MPI_COMM_NULL_COPY_FN, cache_delete, &keyval, NULL) != MPI_SUCCESS)
    keyval = MPI_KEYVAL_INVALID;
}

/* Collective the first time on @comm. */
static int
cache_get (MPI_Comm     comm,
           comm_cache **out)
{
  comm_cache *cache = NULL;
  int found = 0, rc;

  pthread_once (&keyval_once, keyval_create);
  if (keyval == MPI_KEYVAL_INVALID)
    return MPI_ERR_OTHER;
  rc = MPI_Comm_get_attr (comm, keyval, &cache, &found);
  if (rc != MPI_SUCCESS)
    return rc;
  if (found && cache != NULL)
    {
      *out = cache;
      return MPI_SUCCESS;
    }
  cache = calloc (1, sizeof *cache);
  if (cache == NULL)
    return MPI_ERR_NO_MEM;
  rc = MPI_Comm_dup (comm, &cache->dup);
  if (rc == MPI_SUCCESS)
    rc = MPI_Comm_set_errhandler (cache->dup, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS)
    rc = MPI_Comm_set_attr (comm, keyval, cache);
  if (rc != MPI_SUCCESS)
    {
      if (cache->dup != MPI_COMM_NULL)
        MPI_Comm_free (&cache->dup);
      free (cache);
      return rc;
    }
  *out = cache;
  return MPI_SUCCESS;
}

/* ---- algorithm choice and costs ---- */

/* Below these many bytes AUTO runs the binomial tree: see docs/onecoll.md
 * ("Choosing the algorithm") for the measurements behind them. Allreduce:
 * the binomial reduce + broadcast has as many steps as RHRD (2 log N'),
 * so only vectors too small to split gain from it. Reduce: the binomial
 * tree has half the steps (log N' against 2 log N), and on this machine
 * a step costs a scheduling round of the ranks, which outweighs its
 * bandwidth up to about 256 KiB. */
#define BINOMIAL_MAX_BYTES_ALLREDUCE ((int64_t) 2048)
#define BINOMIAL_MAX_BYTES_REDUCE ((int64_t) 256 * 1024)

static int
is_pof2 (int p)
{
  return p > 0 && (p & (p - 1)) == 0;
}

onecoll_reduce_algo
onecoll_reduce_select (int     allreduce,
                       int     nprocs,
                       int64_t bytes)
{
  if (nprocs <= 1
      || bytes < (allreduce ? BINOMIAL_MAX_BYTES_ALLREDUCE : BINOMIAL_MAX_BYTES_REDUCE))
    return ONECOLL_REDUCE_BINOMIAL;
  return is_pof2 (nprocs) ? ONECOLL_REDUCE_RHRD : ONECOLL_REDUCE_S0S1;
}

double
onecoll_reduce_cost (onecoll_reduce_algo algo,
                     int                 allreduce,
                     int                 nprocs,
                     double              bytes,
                     double              alpha,
                     double              beta,
                     double              gamma)
{
  int N = 1, lgN = 0, lgp = 0, rem;
  double L = bytes, f;

  if (nprocs < 1 || algo < 0 || algo >= ONECOLL_REDUCE_N_ALGOS)
    return -1.0;
  if (algo == ONECOLL_REDUCE_AUTO)
    algo = onecoll_reduce_select (allreduce, nprocs, (int64_t) bytes);
  if (nprocs == 1)
    return 0.0;
  while (N <= nprocs / 2)
    {
      N *= 2;
      lgN++;
    }
  while ((1 << lgp) < nprocs)
    lgp++;
  rem = nprocs - N;
  f = (double) (N - 1) / N;

  if (algo == ONECOLL_REDUCE_BINOMIAL)
    return lgp * (alpha + L * beta + L * gamma) + (allreduce ? lgp * (alpha + L * beta) : 0.0);
  if (rem == 0)                     /* RHRD, whatever the non-power-of-two step */
    return 2.0 * lgN * alpha + 2.0 * f * L * beta + f * L * gamma;
  if (algo == ONECOLL_REDUCE_S0S1)
    {
      /* prepare: 2 steps of L/2, both reduced; RHRD of L/2 among N/2;
       * allreduce: 2 distribute steps of L/2; reduce: the gather and the
       * hand-over of H1 to the root */
      if (allreduce)
        return (2.0 * lgN + 2) * alpha + (3.0 - 2.0 / N) * L * beta
               + (1.5 - 1.0 / N) * L * gamma;
      return (2.0 * lgN + 1) * alpha + (2.5 - 2.0 / N) * L * beta + (1.5 - 1.0 / N) * L * gamma;
    }
  /* RHRD and PRIOR_ART: the spec's formulas of the prior art */
  if (allreduce)
    return (3.0 + 2.0 * lgN) * alpha + (2.0 + 2.0 * f) * L * beta + (0.5 + f) * L * gamma;
  return (2.0 + 2.0 * lgN) * alpha + (1.0 + 2.0 * f) * L * beta + (0.5 + f) * L * gamma;
}

const char *
onecoll_reduce_algo_name (int algo)
{
  static const char *const names[ONECOLL_REDUCE_N_ALGOS] = {
    "auto", "binomial", "rhrd", "prior-art", "s0s1",
  };

  if (algo < 0 || algo >= ONECOLL_REDUCE_N_ALGOS)
    return NULL;
  return names[algo];
}

/* ---- the calls ---- */

typedef struct
{
  onecoll__kind kind;
  MPI_Datatype base;
  int64_t per_item;
  onecoll__kernel kernel;
  int op_index;
} args_info;

static int
op_index (MPI_Op op)
{
  return op == MPI_SUM ? 0 : op == MPI_PROD ? 1 : op == MPI_MIN ? 2 : op == MPI_MAX ? 3 : -1;
}

/* The local checks, after the communicator's. */
static int
check_args (const void                *sendbuf,
            const void                *recvbuf,
            int                        count,
            MPI_Datatype               type,
            MPI_Op                     op,
            int                        root,
            int                        nprocs,
            int                        is_root,
            int                        allreduce,
            args_info                 *info)
{
  if (count < 0)
    return MPI_ERR_COUNT;
  if (onecoll__type_decode (type, &info->kind, &info->base, &info->per_item) != MPI_SUCCESS)
    return MPI_ERR_TYPE;
  if ((int64_t) count * info->per_item > INT_MAX)
    return MPI_ERR_COUNT;
  info->op_index = op_index (op);
  info->kernel = onecoll__kernel_for (info->kind, op);
  if (info->kernel == NULL)
    return MPI_ERR_OP;
  if (!allreduce && (root < 0 || root >= nprocs))
    return MPI_ERR_ROOT;
  if (sendbuf == MPI_IN_PLACE && !allreduce && !is_root)
    return MPI_ERR_BUFFER;
  if (count > 0)
    {
      if (sendbuf == NULL || ((allreduce || is_root) && recvbuf == NULL))
        return MPI_ERR_BUFFER;
      if (sendbuf == recvbuf)
        return MPI_ERR_BUFFER;
    }
  return MPI_SUCCESS;
}

/* ONECOLL_CHECK_AGREE: every rank learns the worst local error and whether
 * the ranks agree on the vector, the op, the root and the algorithm. */
static int
agree (MPI_Comm         dup,
       int              local,
       const args_info *info,
       int              count,
       int              root,
       int              algo)
{
  int64_t elems = (int64_t) count * (local == MPI_SUCCESS ? info->per_item : 1);
  int vals[11], maxed[11];

  vals[0] = local;
  vals[1] = (int) (elems > INT_MAX ? INT_MAX : elems);
  vals[2] = -vals[1];
  vals[3] = local == MPI_SUCCESS ? (int) info->kind : -1;
  vals[4] = -vals[3];
  vals[5] = local == MPI_SUCCESS ? info->op_index : -1;
  vals[6] = -vals[5];
  vals[7] = root;
  vals[8] = -root;
  vals[9] = algo;
  vals[10] = -algo;
  if (MPI_Allreduce (vals, maxed, 11, MPI_INT, MPI_MAX, dup) != MPI_SUCCESS)
    return MPI_ERR_OTHER;
  if (local != MPI_SUCCESS)
    return local;
  if (maxed[0] != MPI_SUCCESS)
    return maxed[0];
  if (maxed[1] != -maxed[2])
    return MPI_ERR_COUNT;
  if (maxed[3] != -maxed[4])
    return MPI_ERR_TYPE;
  if (maxed[5] != -maxed[6])
    return MPI_ERR_OP;
  if (maxed[7] != -maxed[8])
    return MPI_ERR_ROOT;
  if (maxed[9] != -maxed[10])
    return MPI_ERR_ARG;
  return MPI_SUCCESS;
}

static int
reduce_common (const void                *sendbuf,
               void                      *recvbuf,
               int                        count,
               MPI_Datatype               type,
               MPI_Op                     op,
               int                        root,
               MPI_Comm                   comm,
               const onecoll_reduce_opts *opts,
               int                        allreduce)
{
  onecoll_reduce_opts o = { ONECOLL_REDUCE_AUTO, ONECOLL_CHECK_LOCAL };
  onecoll_region region = allreduce ? ONECOLL_REGION_ALLREDUCE : ONECOLL_REGION_REDUCE;
  comm_cache *cache = NULL;
  args_info info;
  onecoll__red r;
  int inter = 0, rank = 0, nprocs = 0, rc;
  void *work = NULL;

  if (opts != NULL)
    o = *opts;
  if (o.algo < 0 || o.algo >= ONECOLL_REDUCE_N_ALGOS
      || (o.check != ONECOLL_CHECK_LOCAL && o.check != ONECOLL_CHECK_AGREE))
    return MPI_ERR_ARG;
  if (comm == MPI_COMM_NULL)
    return MPI_ERR_COMM;
  if (MPI_Comm_test_inter (comm, &inter) != MPI_SUCCESS || inter)
    return MPI_ERR_COMM;
  if (MPI_Comm_rank (comm, &rank) != MPI_SUCCESS || MPI_Comm_size (comm, &nprocs) != MPI_SUCCESS)
    return MPI_ERR_COMM;
  if (allreduce)
    root = 0;

  memset (&info, 0, sizeof info);
  rc = check_args (sendbuf, recvbuf, count, type, op, root, nprocs, rank == root, allreduce, &info);
  if (o.check == ONECOLL_CHECK_LOCAL && rc != MPI_SUCCESS)
    return rc;
  {
    int crc = cache_get (comm, &cache);

    if (crc != MPI_SUCCESS)
      return rc != MPI_SUCCESS ? rc : crc;
  }
  if (o.check == ONECOLL_CHECK_AGREE)
    rc = agree (cache->dup, rc, &info, count, root, (int) o.algo);
  if (rc != MPI_SUCCESS)
    return rc;

  memset (&r, 0, sizeof r);
  r.comm = cache->dup;
  r.rank = rank;
  r.nprocs = nprocs;
  r.root = root;
  r.allreduce = allreduce;
  r.base = info.base;
  r.kernel = info.kernel;
  r.n = (int64_t) count * info.per_item;
  r.seq = ++cache->seq;
  {
    int esz = 0;

    MPI_Type_size (info.base, &esz);
    r.esz = (size_t) esz;
  }
  r.algo = o.algo != ONECOLL_REDUCE_AUTO
             ? o.algo
             : onecoll_reduce_select (allreduce, nprocs, r.n * (int64_t) r.esz);

  ONECOLL__ENTER (region, ONECOLL_WIN_NULL, r.seq, allreduce ? -1 : root, -1,
                  r.n * (int64_t) r.esz, (int) r.algo,
                  r.algo == ONECOLL_REDUCE_BINOMIAL ? ONECOLL_BRANCH_POF2
                                                     : onecoll__red_branch (nprocs));
  if (allreduce || rank == root)
    r.buf = recvbuf;
  else if (r.n > 0)
    {
      work = malloc ((size_t) r.n * r.esz);
      if (work == NULL)
        rc = MPI_ERR_NO_MEM;
      r.buf = work;
    }
  if (rc == MPI_SUCCESS && r.n > 0 && sendbuf != MPI_IN_PLACE)
    memcpy (r.buf, sendbuf, (size_t) r.n * r.esz);
  if (rc == MPI_SUCCESS)
    rc = onecoll__red_run (&r);
  free (work);
  ONECOLL__LEAVE (region);
  return rc;
}

int
onecoll_allreduce (const void                *sendbuf,
                   void                      *recvbuf,
                   int                        count,
                   MPI_Datatype               type,
                   MPI_Op                     op,
                   MPI_Comm                   comm,
                   const onecoll_reduce_opts *opts)
{
  return reduce_common (sendbuf, recvbuf, count, type, op, 0, comm, opts, 1);
}

int
onecoll_reduce (const void                *sendbuf,
                void                      *recvbuf,
                int                        count,
                MPI_Datatype               type,
                MPI_Op                     op,
                int                        root,
                MPI_Comm                   comm,
                const onecoll_reduce_opts *opts)
{
  return reduce_common (sendbuf, recvbuf, count, type, op, root, comm, opts, 0);
}
