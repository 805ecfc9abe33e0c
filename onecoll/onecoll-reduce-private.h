/*
 * onecoll-reduce-private.h - what the reduce/allreduce files share: the
 * element kinds and local reduction kernels (onecoll-reduce-kernels.c) and
 * the algorithms' entry points (onecoll-allreduce.c), called by the public
 * functions of onecoll-reduce.c after the argument checks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef ONECOLL_REDUCE_PRIVATE_H
#define ONECOLL_REDUCE_PRIVATE_H

#include "onecoll.h"
#include "onecoll-trace.h"

#include <stddef.h>
#include <stdint.h>

/* The element kinds the kernels know. */
typedef enum
{
  ONECOLL__KIND_INT = 0,
  ONECOLL__KIND_LONG,
  ONECOLL__KIND_FLOAT,
  ONECOLL__KIND_DOUBLE,
  ONECOLL__N_KINDS
} onecoll__kind;

/* inout[i] = inout[i] op in[i] for i < n (the ops are commutative). */
typedef void (*onecoll__kernel) (const void *in,
                                 void       *inout,
                                 int64_t     n);

/* Decodes @type: a supported predefined type, or a contiguous/dup derived
 * type of one. On success *@kind, *@base (the predefined type) and *@per_item
 * (elements per item) are set. Returns MPI_SUCCESS or MPI_ERR_TYPE. */
int onecoll__type_decode (MPI_Datatype   type,
                          onecoll__kind *kind,
                          MPI_Datatype  *base,
                          int64_t       *per_item);

/* The kernel of (@kind, @op), or NULL if @op is not supported. */
onecoll__kernel onecoll__kernel_for (onecoll__kind kind,
                                     MPI_Op        op);

/* One reduce or allreduce, arguments checked. */
typedef struct
{
  MPI_Comm comm;                    /* the private duplicate */
  int rank;
  int nprocs;
  int root;                         /* reduce: the root; allreduce: 0 */
  int allreduce;                    /* 1 for allreduce */
  onecoll_reduce_algo algo;         /* resolved, never AUTO */
  MPI_Datatype base;                /* predefined element type */
  size_t esz;                       /* its size in bytes */
  onecoll__kernel kernel;
  int64_t n;                        /* elements */
  unsigned char *buf;               /* the working vector, n elements: the
                                       result on return (where there is one) */
  uint64_t seq;                     /* call number on the communicator */
} onecoll__red;

/* Runs @r->algo on @r->buf. Returns MPI_SUCCESS or an MPI error class. */
int onecoll__red_run (onecoll__red *r);

/* The branch (onecoll_reduce_branch) of @nprocs processes. */
int onecoll__red_branch (int nprocs);

#endif /* ONECOLL_REDUCE_PRIVATE_H */
