/*
 * onecoll-allreduce.c - the reduce and allreduce algorithms over MPI
 * point-to-point: binomial tree, recursive halving/doubling (RHRD), the
 * prior art's non-power-of-two step and the S0/S1 scheme of US 7,953,684.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Workload: vectors up to hundreds of MiB, reduced in place in the caller's
 * buffer (a scratch buffer of half the vector, the whole vector for the
 * binomial tree); one MPI_Sendrecv, MPI_Send or MPI_Recv per step, messages
 * of no elements are never sent (both sides skip them, since both compute
 * the same segment bounds).
 *
 * Ranks are relative to the root: v = (rank - root) mod N' (allreduce:
 * root 0), so that the root of a reduce is always v = 0, a rank that keeps
 * its data to the end. N is the largest power of two <= N', r = N' - N.
 * Splitting a segment [lo, hi) in two halves gives [lo, mid) and [mid, hi)
 * with mid = lo + (hi - lo) / 2; H0 = [0, n/2) and H1 = [n/2, n) are the
 * halves of the whole vector.
 *
 * RHRD on a group of M = 2^L members (index g) and a block [lo, hi):
 *   halving, steps j = 1..L, mask = 2^(j-1): g exchanges with g ^ mask; the
 *     lower index keeps the lower half of its segment and sends the upper
 *     one, the upper index the other way round; each reduces what it
 *     received into the half it kept. Segment j is what g holds after step j.
 *   doubling (allreduce), j = L..1: g sends segment j to g ^ mask and
 *     receives the other half of segment j - 1 from it.
 *   gather (reduce, to index 0), j = L..1: the members g < 2^j with bit
 *     j - 1 set send segment j to g ^ mask and are done, the others below
 *     2^(j-1) receive it.
 *
 * Prior art (v < 2r pair up as (even, odd)):
 *   prepare: the even rank sends H1 to v + 1 and receives H0 from it, the
 *     odd one the other way round, both reduce; then the odd one sends its
 *     reduced H1 to v - 1 (forwarding: the even rank reduces nothing) and
 *     leaves. Survivors: index u <-> v = 2u (u < r), u + r (u >= r).
 *   RHRD over the N survivors on the whole vector.
 *   distribute (allreduce): the even rank sends the whole result to v + 1.
 *
 * S0/S1 (S0 = v < 2r, S1 = the others):
 *   quadruples (v = 4k .. 4k+3, k < r/2 rounded down): step 1, the pairs
 *     (4k, 4k+1) and (4k+2, 4k+3) exchange halves as above, so 4k and 4k+2
 *     hold a partial H0, 4k+1 and 4k+3 a partial H1; step 2, the senders
 *     4k+2 and 4k+3 send it to the receivers 4k and 4k+1, which reduce
 *     (claim 3). r odd (claim 6): the last S0 pair e = 2r-2, o = 2r-1 and
 *     x = 2r (the first of S1) are the trio: step 1, e and o exchange
 *     halves; step 2, o sends its H1 to x and x sends its own H0 to e, x and
 *     e reduce (x receives and sends in the same step, both link
 *     directions). The rest of S1 pairs up from 2r (+1 if r odd) and
 *     exchanges halves in step 1. No byte is forwarded: every message of the
 *     preparation is reduced by its receiver.
 *   Now N ranks hold a half: N/2 of them H0, N/2 H1, each half group
 *   ordered by v (v = 0 is the first of the H0 group). Each group runs RHRD
 *   on its half.
 *   reduce: each group gathers to its first member; the first of the H1
 *     group sends H1 to v = 0.
 *   allreduce, distribute step 1: the receivers send the result half back
 *     to their senders (4k -> 4k+2, 4k+1 -> 4k+3), x sends H1 to o while it
 *     receives H0 from e, and the S1 pairs swap halves; step 2: every S0
 *     pair swaps halves (claims 4 and 7). Each rank sends and receives at
 *     most one half per step, in both directions at once where it can.
 */
#include "onecoll-private.h"
#include "onecoll-reduce-private.h"

#include <stdlib.h>
#include <string.h>

/* Every message on the private duplicate has this tag: the calls on a
 * communicator are ordered and MPI does not reorder messages between two
 * ranks, so nothing needs telling apart. */
#define RED_TAG 0x5244

typedef struct
{
  onecoll__red *r;
  int v;                            /* relative rank */
  int branch;                       /* onecoll_reduce_branch, for the trace */
  unsigned char *tmp;               /* scratch */
  int64_t seg_lo[32];               /* RHRD: segment j of this rank */
  int64_t seg_hi[32];
} ctx;

static int
largest_pof2 (int p)
{
  int n = 1;

  while (n <= p / 2)
    n *= 2;
  return n;
}

int
onecoll__red_branch (int nprocs)
{
  int r = nprocs - largest_pof2 (nprocs);

  return r == 0 ? ONECOLL_BRANCH_POF2 : r % 2 == 0 ? ONECOLL_BRANCH_R_EVEN : ONECOLL_BRANCH_R_ODD;
}

#define RED_ENTER(c, region)                                                        \
  ONECOLL__ENTER ((region), ONECOLL_WIN_NULL, (c)->r->seq,                          \
                  (c)->r->allreduce ? -1 : (c)->r->root, -1,                        \
                  (c)->r->n * (int64_t) (c)->r->esz, (int) (c)->r->algo, (c)->branch)

static int
real_rank (const ctx *c,
           int        v)
{
  return (v + c->r->root) % c->r->nprocs;
}

static unsigned char *
at (const ctx *c,
    int64_t    i)
{
  return c->r->buf + i * (int64_t) c->r->esz;
}

static int
mpi_class (int rc)
{
  int cls = MPI_ERR_OTHER;

  if (rc == MPI_SUCCESS)
    return MPI_SUCCESS;
  MPI_Error_class (rc, &cls);
  return cls == MPI_SUCCESS ? MPI_ERR_OTHER : cls;
}

/* Sends @sn elements at @sbuf to @vdst and receives @rn into @rbuf from
 * @vsrc (relative ranks), at once; either may be empty (and is skipped). */
static int
xfer (const ctx  *c,
      const void *sbuf,
      int64_t     sn,
      int         vdst,
      void       *rbuf,
      int64_t     rn,
      int         vsrc)
{
  const onecoll__red *r = c->r;
  int rc = MPI_SUCCESS;

  if (sn > 0 && rn > 0)
    rc = MPI_Sendrecv (sbuf, (int) sn, r->base, real_rank (c, vdst), RED_TAG,
                       rbuf, (int) rn, r->base, real_rank (c, vsrc), RED_TAG,
                       r->comm, MPI_STATUS_IGNORE);
  else if (sn > 0)
    rc = MPI_Send (sbuf, (int) sn, r->base, real_rank (c, vdst), RED_TAG, r->comm);
  else if (rn > 0)
    rc = MPI_Recv (rbuf, (int) rn, r->base, real_rank (c, vsrc), RED_TAG, r->comm,
                   MPI_STATUS_IGNORE);
  return mpi_class (rc);
}

/* Sends [slo, slo + sn) to @vdst, receives @rn elements from @vsrc and
 * reduces them into [rlo, rlo + rn). */
static int
xfer_reduce (ctx    *c,
             int64_t slo,
             int64_t sn,
             int     vdst,
             int64_t rlo,
             int64_t rn,
             int     vsrc)
{
  int rc = xfer (c, at (c, slo), sn, vdst, c->tmp, rn, vsrc);

  if (rc == MPI_SUCCESS && rn > 0)
    c->r->kernel (c->tmp, at (c, rlo), rn);
  return rc;
}

/* Sends [slo, slo + sn) to @vdst and receives [rlo, rlo + rn) of the
 * vector from @vsrc, in place (the ranges do not overlap). */
static int
xfer_copy (ctx    *c,
           int64_t slo,
           int64_t sn,
           int     vdst,
           int64_t rlo,
           int64_t rn,
           int     vsrc)
{
  return xfer (c, at (c, slo), sn, vdst, at (c, rlo), rn, vsrc);
}

/* ---- RHRD on a group ---- */

typedef struct
{
  const int *members;               /* [M]: relative rank of each index */
  int M;                            /* a power of two */
  int L;                            /* log2 M */
  int g;                            /* this rank's index */
} group;

static void
group_init (group     *gr,
            const int *members,
            int        M,
            int        g)
{
  gr->members = members;
  gr->M = M;
  gr->g = g;
  gr->L = 0;
  while ((1 << gr->L) < M)
    gr->L++;
}

static int
halving (ctx         *c,
         const group *gr,
         int64_t      lo,
         int64_t      hi)
{
  int rc = MPI_SUCCESS;

  RED_ENTER (c, ONECOLL_REGION_RED_HALVING);
  c->seg_lo[0] = lo;
  c->seg_hi[0] = hi;
  for (int j = 1; j <= gr->L && rc == MPI_SUCCESS; j++)
    {
      int mask = 1 << (j - 1);
      int partner = gr->members[gr->g ^ mask];
      int64_t a = c->seg_lo[j - 1], b = c->seg_hi[j - 1], mid = a + (b - a) / 2;

      if (gr->g & mask)
        {
          c->seg_lo[j] = mid;
          c->seg_hi[j] = b;
          rc = xfer_reduce (c, a, mid - a, partner, mid, b - mid, partner);
        }
      else
        {
          c->seg_lo[j] = a;
          c->seg_hi[j] = mid;
          rc = xfer_reduce (c, mid, b - mid, partner, a, mid - a, partner);
        }
    }
  ONECOLL__LEAVE (ONECOLL_REGION_RED_HALVING);
  return rc;
}

/* The part of segment j - 1 that is not segment j. */
static void
other_half (const ctx *c,
            int        j,
            int64_t   *lo,
            int64_t   *hi)
{
  if (c->seg_lo[j] > c->seg_lo[j - 1])
    {
      *lo = c->seg_lo[j - 1];
      *hi = c->seg_lo[j];
    }
  else
    {
      *lo = c->seg_hi[j];
      *hi = c->seg_hi[j - 1];
    }
}

static int
doubling (ctx         *c,
          const group *gr)
{
  int rc = MPI_SUCCESS;

  RED_ENTER (c, ONECOLL_REGION_RED_DOUBLING);
  for (int j = gr->L; j >= 1 && rc == MPI_SUCCESS; j--)
    {
      int partner = gr->members[gr->g ^ (1 << (j - 1))];
      int64_t lo, hi;

      other_half (c, j, &lo, &hi);
      rc = xfer_copy (c, c->seg_lo[j], c->seg_hi[j] - c->seg_lo[j], partner, lo, hi - lo, partner);
    }
  ONECOLL__LEAVE (ONECOLL_REGION_RED_DOUBLING);
  return rc;
}

/* The gather to index 0, inside the caller's RED_GATHER region. */
static int
gather (ctx         *c,
        const group *gr)
{
  int rc = MPI_SUCCESS;

  for (int j = gr->L; j >= 1 && rc == MPI_SUCCESS; j--)
    {
      int mask = 1 << (j - 1);
      int partner = gr->members[gr->g ^ mask];
      int64_t lo, hi;

      if (gr->g >= (1 << j))
        continue;                   /* sent already */
      if (gr->g & mask)
        rc = xfer_copy (c, c->seg_lo[j], c->seg_hi[j] - c->seg_lo[j], partner, 0, 0, partner);
      else
        {
          other_half (c, j, &lo, &hi);
          rc = xfer_copy (c, 0, 0, partner, lo, hi - lo, partner);
        }
    }
  return rc;
}

/* RHRD of the whole group on [lo, hi): halving, then doubling (allreduce)
 * or the gather to index 0 (reduce). */
static int
rhrd (ctx         *c,
      const group *gr,
      int64_t      lo,
      int64_t      hi)
{
  int rc = halving (c, gr, lo, hi);

  if (rc != MPI_SUCCESS)
    return rc;
  if (c->r->allreduce)
    return doubling (c, gr);
  RED_ENTER (c, ONECOLL_REGION_RED_GATHER);
  rc = gather (c, gr);
  ONECOLL__LEAVE (ONECOLL_REGION_RED_GATHER);
  return rc;
}

/* ---- the algorithms ---- */

static int
run_binomial (ctx *c)
{
  const onecoll__red *r = c->r;
  int p = r->nprocs, v = c->v, rc = MPI_SUCCESS;
  int mask;

  RED_ENTER (c, ONECOLL_REGION_RED_TREE);
  for (mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1)
    {
      if (v & mask)
        {
          rc = xfer (c, r->buf, r->n, v - mask, NULL, 0, 0);
          break;
        }
      if (v + mask < p)
        rc = xfer_reduce (c, 0, 0, 0, 0, r->n, v + mask);
    }
  ONECOLL__LEAVE (ONECOLL_REGION_RED_TREE);
  if (rc != MPI_SUCCESS || !r->allreduce)
    return rc;

  /* broadcast from v = 0: receive from v minus its lowest set bit, send to
   * v + m for the smaller powers of two m, largest subtree first */
  RED_ENTER (c, ONECOLL_REGION_RED_TREE_BCAST);
  mask = 1;
  while (mask < p && !(v & mask))
    mask <<= 1;
  if (v != 0)
    rc = xfer (c, NULL, 0, 0, r->buf, r->n, v - mask);
  for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
    if (v + mask < p)
      rc = xfer (c, r->buf, r->n, v + mask, NULL, 0, 0);
  ONECOLL__LEAVE (ONECOLL_REGION_RED_TREE_BCAST);
  return rc;
}

static int
run_prior_art (ctx *c)
{
  const onecoll__red *r = c->r;
  int p = r->nprocs, v = c->v, N = largest_pof2 (p), rem = p - N;
  int64_t n = r->n, mid = n / 2;
  int *members;
  group gr;
  int rc = MPI_SUCCESS;

  members = malloc ((size_t) N * sizeof *members);
  if (members == NULL)
    return MPI_ERR_NO_MEM;
  for (int u = 0; u < N; u++)
    members[u] = u < rem ? 2 * u : u + rem;

  if (rem > 0)
    {
      RED_ENTER (c, ONECOLL_REGION_RED_PREPARE);
      if (v < 2 * rem && v % 2 == 0)
        {
          rc = xfer_reduce (c, mid, n - mid, v + 1, 0, mid, v + 1);
          if (rc == MPI_SUCCESS)    /* the odd rank's reduced H1, as it is */
            rc = xfer_copy (c, 0, 0, v + 1, mid, n - mid, v + 1);
        }
      else if (v < 2 * rem)
        {
          rc = xfer_reduce (c, 0, mid, v - 1, mid, n - mid, v - 1);
          if (rc == MPI_SUCCESS)
            rc = xfer_copy (c, mid, n - mid, v - 1, 0, 0, v - 1);
        }
      ONECOLL__LEAVE (ONECOLL_REGION_RED_PREPARE);
    }

  if (rc == MPI_SUCCESS && !(v < 2 * rem && v % 2 == 1))
    {
      group_init (&gr, members, N, v < 2 * rem ? v / 2 : v - rem);
      rc = rhrd (c, &gr, 0, n);
    }

  if (rc == MPI_SUCCESS && r->allreduce && rem > 0)
    {
      RED_ENTER (c, ONECOLL_REGION_RED_DISTRIBUTE);
      if (v < 2 * rem && v % 2 == 0)
        rc = xfer_copy (c, 0, n, v + 1, 0, 0, v + 1);
      else if (v < 2 * rem)
        rc = xfer_copy (c, 0, 0, v - 1, 0, n, v - 1);
      ONECOLL__LEAVE (ONECOLL_REGION_RED_DISTRIBUTE);
    }
  free (members);
  return rc;
}

/* Roles of S0/S1. */
enum
{
  ROLE_Q0,                          /* quadruple 4k: receiver of H0 */
  ROLE_Q1,                          /* 4k+1: receiver of H1 */
  ROLE_Q2,                          /* 4k+2: sender of H0 */
  ROLE_Q3,                          /* 4k+3: sender of H1 */
  ROLE_E,                           /* r odd, 2r-2: keeps H0 */
  ROLE_O,                           /* r odd, 2r-1: sends H1 to x */
  ROLE_X,                           /* r odd, 2r: keeps H1 */
  ROLE_LOW,                         /* S1 pair, lower: keeps H0 */
  ROLE_HIGH,                        /* S1 pair, upper: keeps H1 */
  ROLE_ALL                          /* r = 0: the whole vector */
};

static int
s0s1_role (int p,
           int v)
{
  int rem = p - largest_pof2 (p), q = rem / 2, odd = rem % 2, s1 = 2 * rem + odd;

  if (rem == 0)
    return ROLE_ALL;
  if (v < 4 * q)
    return ROLE_Q0 + v % 4;
  if (odd && v == 2 * rem - 2)
    return ROLE_E;
  if (odd && v == 2 * rem - 1)
    return ROLE_O;
  if (odd && v == 2 * rem)
    return ROLE_X;
  return (v - s1) % 2 == 0 ? ROLE_LOW : ROLE_HIGH;
}

/* 0: holds H0 for the halving, 1: H1, -1: none. */
static int
role_half (int role)
{
  switch (role)
    {
    case ROLE_Q0:
    case ROLE_E:
    case ROLE_LOW:
      return 0;
    case ROLE_Q1:
    case ROLE_X:
    case ROLE_HIGH:
      return 1;
    default:
      return -1;
    }
}

static int
s0s1_prepare (ctx *c,
              int  role)
{
  const onecoll__red *r = c->r;
  int v = c->v, rem = r->nprocs - largest_pof2 (r->nprocs);
  int64_t n = r->n, mid = n / 2;
  int rc = MPI_SUCCESS;

  /* step 1: S0 pairs and S1 pairs exchange halves */
  switch (role)
    {
    case ROLE_Q0:
    case ROLE_Q2:
    case ROLE_E:
    case ROLE_LOW:
      rc = xfer_reduce (c, mid, n - mid, v + 1, 0, mid, v + 1);
      break;
    case ROLE_Q1:
    case ROLE_Q3:
    case ROLE_O:
    case ROLE_HIGH:
      rc = xfer_reduce (c, 0, mid, v - 1, mid, n - mid, v - 1);
      break;
    default:
      break;
    }
  if (rc != MPI_SUCCESS)
    return rc;

  /* step 2: the merge into N half holders */
  switch (role)
    {
    case ROLE_Q0:
      return xfer_reduce (c, 0, 0, v + 2, 0, mid, v + 2);
    case ROLE_Q1:
      return xfer_reduce (c, 0, 0, v + 2, mid, n - mid, v + 2);
    case ROLE_Q2:
      return xfer_copy (c, 0, mid, v - 2, 0, 0, v - 2);
    case ROLE_Q3:
      return xfer_copy (c, mid, n - mid, v - 2, 0, 0, v - 2);
    case ROLE_E:
      return xfer_reduce (c, 0, 0, 2 * rem, 0, mid, 2 * rem);
    case ROLE_O:
      return xfer_copy (c, mid, n - mid, 2 * rem, 0, 0, 2 * rem);
    case ROLE_X:
      /* sends its own H0 to e while it receives o's H1 */
      return xfer_reduce (c, 0, mid, 2 * rem - 2, mid, n - mid, 2 * rem - 1);
    default:
      return MPI_SUCCESS;
    }
}

static int
s0s1_distribute (ctx *c,
                 int  role)
{
  const onecoll__red *r = c->r;
  int v = c->v, rem = r->nprocs - largest_pof2 (r->nprocs);
  int64_t n = r->n, mid = n / 2;
  int rc = MPI_SUCCESS;

  /* step 1: result halves back to the senders; x <-> trio; S1 pairs swap */
  switch (role)
    {
    case ROLE_Q0:
      rc = xfer_copy (c, 0, mid, v + 2, 0, 0, v + 2);
      break;
    case ROLE_Q1:
      rc = xfer_copy (c, mid, n - mid, v + 2, 0, 0, v + 2);
      break;
    case ROLE_Q2:
      rc = xfer_copy (c, 0, 0, v - 2, 0, mid, v - 2);
      break;
    case ROLE_Q3:
      rc = xfer_copy (c, 0, 0, v - 2, mid, n - mid, v - 2);
      break;
    case ROLE_E:
      rc = xfer_copy (c, 0, mid, 2 * rem, 0, 0, 2 * rem);
      break;
    case ROLE_O:
      rc = xfer_copy (c, 0, 0, 2 * rem, mid, n - mid, 2 * rem);
      break;
    case ROLE_X:
      rc = xfer_copy (c, mid, n - mid, 2 * rem - 1, 0, mid, 2 * rem - 2);
      break;
    case ROLE_LOW:
      rc = xfer_copy (c, 0, mid, v + 1, mid, n - mid, v + 1);
      break;
    case ROLE_HIGH:
      rc = xfer_copy (c, mid, n - mid, v - 1, 0, mid, v - 1);
      break;
    default:
      break;
    }
  if (rc != MPI_SUCCESS)
    return rc;

  /* step 2: every S0 pair swaps halves */
  switch (role)
    {
    case ROLE_Q0:
    case ROLE_Q2:
    case ROLE_E:
      return xfer_copy (c, 0, mid, v + 1, mid, n - mid, v + 1);
    case ROLE_Q1:
    case ROLE_Q3:
    case ROLE_O:
      return xfer_copy (c, mid, n - mid, v - 1, 0, mid, v - 1);
    default:
      return MPI_SUCCESS;
    }
}

static int
run_s0s1 (ctx *c)
{
  const onecoll__red *r = c->r;
  int p = r->nprocs, v = c->v, N = largest_pof2 (p);
  int64_t n = r->n, mid = n / 2;
  int role = s0s1_role (p, v), half = role_half (role);
  int *members, count[2] = { 0, 0 }, me = -1;
  group gr;
  int rc = MPI_SUCCESS;

  if (role == ROLE_ALL)
    {
      int *all = malloc ((size_t) p * sizeof *all);

      if (all == NULL)
        return MPI_ERR_NO_MEM;
      for (int u = 0; u < p; u++)
        all[u] = u;
      group_init (&gr, all, p, v);
      rc = rhrd (c, &gr, 0, n);
      free (all);
      return rc;
    }

  /* the two half groups, each ordered by relative rank */
  members = malloc ((size_t) N * sizeof *members);
  if (members == NULL)
    return MPI_ERR_NO_MEM;
  for (int u = 0; u < p; u++)
    {
      int h = role_half (s0s1_role (p, u));

      if (h < 0)
        continue;
      if (u == v)
        me = count[h];
      members[h * (N / 2) + count[h]++] = u;
    }

  RED_ENTER (c, ONECOLL_REGION_RED_PREPARE);
  rc = s0s1_prepare (c, role);
  ONECOLL__LEAVE (ONECOLL_REGION_RED_PREPARE);

  if (rc == MPI_SUCCESS && half >= 0)
    {
      group_init (&gr, members + half * (N / 2), N / 2, me);
      if (r->allreduce)
        rc = rhrd (c, &gr, half == 0 ? 0 : mid, half == 0 ? mid : n);
      else
        {
          rc = halving (c, &gr, half == 0 ? 0 : mid, half == 0 ? mid : n);
          if (rc == MPI_SUCCESS)
            {
              RED_ENTER (c, ONECOLL_REGION_RED_GATHER);
              rc = gather (c, &gr);
              /* the H1 group's first member hands H1 to the root (v = 0,
               * the first of the H0 group) */
              if (rc == MPI_SUCCESS && half == 1 && me == 0)
                rc = xfer_copy (c, mid, n - mid, 0, 0, 0, 0);
              else if (rc == MPI_SUCCESS && v == 0)
                rc = xfer_copy (c, 0, 0, members[N / 2], mid, n - mid, members[N / 2]);
              ONECOLL__LEAVE (ONECOLL_REGION_RED_GATHER);
            }
        }
    }

  if (rc == MPI_SUCCESS && r->allreduce)
    {
      RED_ENTER (c, ONECOLL_REGION_RED_DISTRIBUTE);
      rc = s0s1_distribute (c, role);
      ONECOLL__LEAVE (ONECOLL_REGION_RED_DISTRIBUTE);
    }
  free (members);
  return rc;
}

int
onecoll__red_run (onecoll__red *r)
{
  ctx c;
  int64_t scratch;
  int rc;

  memset (&c, 0, sizeof c);
  c.r = r;
  c.v = (r->rank - r->root + r->nprocs) % r->nprocs;
  c.branch = r->algo == ONECOLL_REDUCE_BINOMIAL ? ONECOLL_BRANCH_POF2
                                                 : onecoll__red_branch (r->nprocs);
  if (r->nprocs == 1 || r->n == 0)
    return MPI_SUCCESS;

  scratch = r->algo == ONECOLL_REDUCE_BINOMIAL ? r->n : r->n - r->n / 2;
  c.tmp = malloc ((size_t) scratch * r->esz);
  if (c.tmp == NULL)
    return MPI_ERR_NO_MEM;

  switch (r->algo)
    {
    case ONECOLL_REDUCE_BINOMIAL:
      rc = run_binomial (&c);
      break;
    case ONECOLL_REDUCE_S0S1:
      rc = run_s0s1 (&c);
      break;
    default:                        /* RHRD and PRIOR_ART: the same for a power of two */
      rc = run_prior_art (&c);
      break;
    }
  free (c.tmp);
  return rc;
}
