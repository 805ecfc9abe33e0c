/*
 * onecoll-reduce-kernels.c - the local reductions of onecoll's reduce and
 * allreduce (inout[i] = inout[i] op in[i]) and the decoding of datatypes
 * into element kinds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Workload: every byte a reduce moves is reduced once on arrival, so these
 * loops run over up to the whole vector per step (gamma in the cost model).
 * They are plain loops over restrict pointers that the compiler vectorises.
 * Integer sums and products are computed in the unsigned type of the same
 * width, so overflow wraps instead of being undefined behaviour.
 */
#include "onecoll-reduce-private.h"

#include <limits.h>

#define ONECOLL__KERNELS(name, T, U)                                          \
  static void                                                                 \
  sum_##name (const void *in, void *inout, int64_t n)                         \
  {                                                                           \
    const T *restrict a = in;                                                 \
    T *restrict b = inout;                                                    \
    for (int64_t i = 0; i < n; i++)                                           \
      b[i] = (T) ((U) b[i] + (U) a[i]);                                       \
  }                                                                           \
  static void                                                                 \
  prod_##name (const void *in, void *inout, int64_t n)                        \
  {                                                                           \
    const T *restrict a = in;                                                 \
    T *restrict b = inout;                                                    \
    for (int64_t i = 0; i < n; i++)                                           \
      b[i] = (T) ((U) b[i] * (U) a[i]);                                       \
  }                                                                           \
  static void                                                                 \
  min_##name (const void *in, void *inout, int64_t n)                         \
  {                                                                           \
    const T *restrict a = in;                                                 \
    T *restrict b = inout;                                                    \
    for (int64_t i = 0; i < n; i++)                                           \
      b[i] = a[i] < b[i] ? a[i] : b[i];                                       \
  }                                                                           \
  static void                                                                 \
  max_##name (const void *in, void *inout, int64_t n)                         \
  {                                                                           \
    const T *restrict a = in;                                                 \
    T *restrict b = inout;                                                    \
    for (int64_t i = 0; i < n; i++)                                           \
      b[i] = a[i] > b[i] ? a[i] : b[i];                                       \
  }

ONECOLL__KERNELS (int, int, unsigned int)
ONECOLL__KERNELS (long, long, unsigned long)
ONECOLL__KERNELS (float, float, float)
ONECOLL__KERNELS (double, double, double)

/* [kind][op]: op order SUM, PROD, MIN, MAX */
static const onecoll__kernel kernels[ONECOLL__N_KINDS][4] = {
  [ONECOLL__KIND_INT] = { sum_int, prod_int, min_int, max_int },
  [ONECOLL__KIND_LONG] = { sum_long, prod_long, min_long, max_long },
  [ONECOLL__KIND_FLOAT] = { sum_float, prod_float, min_float, max_float },
  [ONECOLL__KIND_DOUBLE] = { sum_double, prod_double, min_double, max_double },
};

onecoll__kernel
onecoll__kernel_for (onecoll__kind kind,
                     MPI_Op        op)
{
  int i;

  if (kind < 0 || kind >= ONECOLL__N_KINDS)
    return NULL;
  if (op == MPI_SUM)
    i = 0;
  else if (op == MPI_PROD)
    i = 1;
  else if (op == MPI_MIN)
    i = 2;
  else if (op == MPI_MAX)
    i = 3;
  else
    return NULL;
  return kernels[kind][i];
}

/* Derived types nest; deeper than this is refused rather than recursed. */
#define MAX_TYPE_DEPTH 16

static int
decode (MPI_Datatype   type,
        int            depth,
        onecoll__kind *kind,
        MPI_Datatype  *base,
        int64_t       *per_item)
{
  int nints, naddrs, ntypes, combiner;
  int ints[1];
  MPI_Aint addrs[1];
  MPI_Datatype inner;
  int named, rc;

  if (type == MPI_DATATYPE_NULL || depth > MAX_TYPE_DEPTH)
    return MPI_ERR_TYPE;
  if (type == MPI_INT || type == MPI_LONG || type == MPI_FLOAT || type == MPI_DOUBLE)
    {
      *kind = type == MPI_INT ? ONECOLL__KIND_INT
              : type == MPI_LONG ? ONECOLL__KIND_LONG
              : type == MPI_FLOAT ? ONECOLL__KIND_FLOAT
                                  : ONECOLL__KIND_DOUBLE;
      *base = type;
      *per_item = 1;
      return MPI_SUCCESS;
    }
  if (MPI_Type_get_envelope (type, &nints, &naddrs, &ntypes, &combiner) != MPI_SUCCESS)
    return MPI_ERR_TYPE;
  if (combiner == MPI_COMBINER_NAMED || ntypes != 1 || naddrs != 0
      || !((combiner == MPI_COMBINER_CONTIGUOUS && nints == 1)
           || (combiner == MPI_COMBINER_DUP && nints == 0)))
    return MPI_ERR_TYPE;
  if (MPI_Type_get_contents (type, nints, naddrs, ntypes, ints, addrs, &inner) != MPI_SUCCESS)
    return MPI_ERR_TYPE;
  rc = decode (inner, depth + 1, kind, base, per_item);
  if (rc == MPI_SUCCESS && combiner == MPI_COMBINER_CONTIGUOUS)
    {
      if (ints[0] < 0 || *per_item > INT_MAX / (ints[0] > 0 ? ints[0] : 1))
        rc = MPI_ERR_TYPE;
      else
        *per_item *= ints[0];
    }
  /* get_contents hands out new handles for derived inner types */
  named = 0;
  if (MPI_Type_get_envelope (inner, &nints, &naddrs, &ntypes, &combiner) == MPI_SUCCESS)
    named = combiner == MPI_COMBINER_NAMED;
  if (!named)
    MPI_Type_free (&inner);
  return rc;
}

int
onecoll__type_decode (MPI_Datatype   type,
                      onecoll__kind *kind,
                      MPI_Datatype  *base,
                      int64_t       *per_item)
{
  return decode (type, 0, kind, base, per_item);
}
