/*
 * sextant-bench-bcast-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of sextant-bench-bcast: sextant-bench-bcast.c (the
 * benchmark: its sessions, their results and main), -options.c (the
 * command line) and -params.c (the model parameters). Plain C11 + MPI.
 */
#pragma once

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "onecoll.h"

#define EXIT_USAGE      2
#define KIB             ((int64_t) 1024)
#define MIB             (KIB * KIB)
#define MAX_SIZES       64
#define ROOT            0
#define STAMP_BYTES     8

/* Size classes for the iteration counts: small < MEDIUM_FROM <= medium <
 * LARGE_FROM <= large. */
#define MEDIUM_FROM     (64 * KIB)
#define LARGE_FROM      (4 * MIB)

typedef enum
{
  SESSION_MPI = 0,                  /* no onecoll runtime */
  SESSION_ADAPTIVE = 1,             /* onecoll's defaults: adaptive polling, waiters relay */
  SESSION_ADAPTIVE_BC = 2,          /* adaptive polling, only the Broadcasters relay */
  SESSION_FIXED = 3,                /* the paper's runtime: 1 ms polling, Broadcasters relay */
  N_SESSIONS
} session_kind;

typedef struct
{
  const char *name;                 /* as in --algos and the CSV */
  const char *algo;                 /* CSV column "algo" */
  const char *policy;               /* CSV column "policy" */
  int is_mpi;                       /* MPI_Bcast instead of onecoll */
  onecoll_algo oc_algo;
  onecoll_order oc_order;
  session_kind session;
  int by_default;                   /* in the default set */
} variant;

#define N_VARIANTS 11

/* In sextant-bench-bcast.c: every variant, and this process's rank and the world's size */
extern const variant variants[N_VARIANTS];
extern int world_rank;
extern int world_size;

typedef struct
{
  int64_t sizes[MAX_SIZES];         /* bytes, ascending as given */
  int n_sizes;
  int iters[3];                     /* timed iterations: small, medium, large */
  int warmup[3];                    /* warm-up iterations: small, medium, large */
  int rounds;                       /* interleaving rounds per session */
  int selected[N_VARIANTS];         /* 1 = measure this variant */
  int in_window;                    /* --buffer window */
  int params;                       /* measure the model parameters */
  int params_only;
  const char *csv_path;             /* NULL: no CSV */
  const char *json_path;            /* NULL: no JSON */
  onecoll_poll_policy adaptive;     /* the "adaptive" policy (onecoll's defaults) */
  onecoll_poll_policy fixed;        /* the "fixed" policy (the paper's 1 ms) */
  uint32_t help_after_ns;           /* the "adaptive" runtime's help_after_ns */
} options;

/* The model parameters, all times in microseconds. */
typedef struct
{
  double o_us;                      /* MPI_Put(8 B) + flush */
  double o_acc_us;                  /* MPI_Accumulate(8 B, REPLACE) + flush */
  double g_us;                      /* gap between back-to-back puts */
  double rtt_us;                    /* flag ping-pong round trip */
  double L_us;                      /* rtt/2 - o_acc */
  double G_us_per_byte;             /* slope of put time over size */
  double G_icpt_us;                 /* intercept of that fit */
  double Gnode_us_per_byte;         /* both ranks putting at once: time / bytes moved */
  double gfit_bytes[8];             /* put sizes measured (fit: >= G_FIT_FROM) */
  double gfit_us[8];
  int n_gfit;
  double Gbusy_us_per_byte[2];      /* one put while the others wait in onecoll:
                                       adaptive, fixed policy */
  double Gquiet_us_per_byte;        /* the same put while the others sleep */
  int n_share;                      /* Gshare: copy counts measured */
  int share_n[8];                   /* n concurrent copies */
  double share_us_per_byte[8];      /* time / bytes moved with n copies at once */
  double bin2_us[3];                /* 1-byte binomial p=2 bcast: adaptive and fixed polling
                                       with Broadcaster relays, adaptive with WAITER relays */
  double Or_us[2];                  /* derived pickup overhead: adaptive, fixed */
} params;

/* In sextant-bench-bcast.c */
void     bench_die            (const char *fmt,
                               ...) __attribute__ ((format (printf, 1, 2), noreturn));
void     bench_check_oc       (int         rc,
                               const char *what);
double   bench_median         (double     *v,
                               int         n);
double   bench_minimum        (const double *v,
                               int           n);
void    *bench_xmalloc        (size_t      n);

/* In sextant-bench-bcast-options.c */
void     bench_parse_options  (options    *opt,
                               int         argc,
                               char      **argv);
int      bench_size_class     (int64_t     m);

/* In sextant-bench-bcast-params.c */
void     bench_measure_params (const options *opt,
                               params        *out);
void     bench_print_params   (const params  *pr);
