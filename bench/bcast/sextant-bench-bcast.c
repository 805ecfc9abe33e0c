/*
 * sextant-bench-bcast.c - broadcast latency of onecoll's RMA broadcasts
 * (linear, binomial in both child orders, both polling policies) against
 * MPI_Bcast, and the LogP/LogGP parameters of shared/spec/rma-bcast.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   mpirun -np P sextant-bench-bcast [--sizes LIST] [--max-size SIZE]
 *        [--iters S:M:L] [--warmup S:M:L] [--rounds N] [--algos LIST]
 *        [--buffer user|window] [--adaptive S:Y:MIN:MAX] [--fixed NS]
 *        [--csv PATH] [--json PATH] [--params|--no-params|--params-only]
 *        [--quick]
 *
 * (--help lists the defaults.) bench/bcast/run.sh runs it for several p and
 * bench/bcast/plot.py makes the tables, the model and the plots.
 *
 * What is measured
 * ----------------
 * The latency of one broadcast of m bytes from rank 0, by the method of the
 * OSU Micro-Benchmarks for collectives (shared research/collectives.md, 3):
 * for every (size, variant) some warm-up broadcasts, then timed ones; before
 * every broadcast an MPI_Barrier (not timed); every rank times its own part
 * with MPI_Wtime:
 *
 *   MPI_Bcast:  the call;
 *   onecoll:    onecoll_bcast() + onecoll_bcast_flush(): at the root that
 *               lasts until every rank has the data (the done counter),
 *               elsewhere until the data is in this rank's buffer.
 *
 * Each rank averages its times over the iterations; rank 0 reports min, avg
 * and max of these averages over the ranks (OSU's "-f" columns: avg_us,
 * min_us, max_us) and the root's average (root_us). The latency of one
 * broadcast - from the start until the last rank has the data - is the
 * slowest rank's time in that iteration (for onecoll the root's flush
 * already waits for everybody; for MPI_Bcast, whose root may return before
 * the data arrived anywhere, it is the slowest receiver). A maximum of
 * averages understates it when a different rank is the slowest each time,
 * so rank 0 also collects every iteration's maximum over the ranks and
 * reports their bench_median (med_us, robust against the odd descheduled
       * iteration on a shared machine; plot.py uses it) and their mean
 * (itmax_us).
 *
 * Variants (--algos, comma-separated; a name without "/policy" means both):
 *   linear/adaptive  linear/fixed          the root puts to every rank
 *   binomial-sf/...                         binomial, smallest subtree first
 *                                           (the paper's order)
 *   binomial-lf/...                         binomial, largest subtree first
 *   mpi-bcast                               MPI_Bcast, onecoll not running
 *   mpi-bcast/rt                            MPI_Bcast while an (idle)
 *                                           adaptive onecoll runtime runs
 *                                           (not in the default set)
 * "adaptive" and "fixed" are onecoll's polling policies for both the
 * Broadcaster and the application's waits: onecoll's defaults (adaptive:
 * 16 spins, 256 sched_yield()s, then sleeps from 1 to 64 us; fixed: the
 * paper's 1 ms), adjustable with --adaptive and --fixed.
 *
 * Side by side: one program run measures every size and variant. For every
 * size it runs up to three sessions close together in time: MPI_Bcast
 * alone, then an onecoll runtime with adaptive polling, then one with fixed
 * polling (the policy is a property of the runtime, so each needs its own
 * onecoll_init). Within a session the timed iterations of the variants are
 * interleaved in --rounds rounds, so a burst of background load hits all of
 * them alike.
 *
 * Buffers. The root's data lives in its onecoll window (prepared before the
 * barrier, outside the timed region), as in the paper; the other ranks
 * receive into a buffer of their own (--buffer user, the default), as
 * MPI_Bcast's receivers do, which lets them release the window at once.
 * --buffer window makes them read the window in place (no copy, but the
 * root's next broadcast then waits until every rank has called again). The
 * root stamps the first and last 8 bytes of every broadcast with the
 * iteration number and every other rank checks them after the timed region.
 *
 * Model parameters (--params, default on unless --quick; --params-only
 * measures nothing else). Ranks 0 and 1 measure with MPI RMA (MPI_Win_
 * allocate'd windows, one MPI_Win_lock_all epoch) while the other ranks
 * wait in a sleeping barrier (MPI_Ibarrier + MPI_Test + nanosleep), so that
 * the parameters describe the machine rather than the oversubscription:
 *   o    time of MPI_Put(8 B) + MPI_Win_flush (OSU put latency); also o_acc
 *        for MPI_Accumulate(REPLACE) + flush, the request flag;
 *   g    gap between back-to-back puts: (T(n puts + flush) - T(1 put +
 *        flush)) / (n - 1), Netgauge's PRTT idea applied to puts;
 *   L    one-way latency: a flag ping-pong (Accumulate + flush, the
 *        receiver polls its own flag with Fetch_and_op(NO_OP) + flush as
 *        onecoll does), L = RTT/2 - o_acc;
 *   G    time per byte: least-squares slope of T(MPI_Put(s) + flush) over
 *        s = 16, 24, 32, 40 MiB, where source and destination no longer fit
 *        the 32 MiB L3 of the machine (the large-m regime of the model;
 *        1, 4 and 8 MiB are measured too and written to the JSON);
 *   Gnode  not in the spec: both ranks put 20 MiB to each other at once;
 *        time / bytes moved. On a shared-memory node every byte of every
 *        tree edge goes through the same memory system, so (P-1) m Gnode
 *        bounds any broadcast from below (plot.py shows it next to the
 *        spec's model);
 *   Or   the request-pickup overhead: onecoll is started on ranks {0, 1}
 *        alone and rank 0 times 1-byte binomial broadcasts to rank 1
 *        (bcast + flush, as below) with ONECOLL_RELAY_BROADCASTER, the
 *        paper's runtime, where rank 1 must pick its request up (onecoll's
 *        default runtime completes a leaf from its parent, so at p = 2 it
 *        has no pickup to measure; its time is written as
 *        bin2_adaptive_waiter_us). By the spec's model that broadcast
 *        costs o + 2q + L + Or (one stage) + o + L (the done counter), so
 *        Or = T - 2o - 2q - 2L, with q = max(o, g): the Broadcaster's
 *        pickup plus the root's detection of the done counter, both with
 *        the policy under test (the spec's formula has no separate term
 *        for the latter). Measured for both polling policies. (Spinning on
 *        onecoll_bcast_test() at the root instead isolates the pickup on
 *        an idle machine, but on a loaded one the spinning root takes the
 *        core the Broadcaster needs and the result becomes bimodal.)
 * The deterministic costs (o, o_acc, g, RTT, the put times behind G and
 * Gnode) are the minimum over PARAM_BATCHES batches: on a shared machine,
 * other processes only ever add time. Or is a waiting time with a real
 * spread (where the Broadcaster is in its backoff when the request lands),
 * so it comes from the median over broadcasts. All are printed and written
 * to the --json file; bench/bcast/plot.py turns them into the spec's
 * predictions.
 *
 * The command line is parsed in sextant-bench-bcast-options.c, the model
 * parameters measured in -params.c; they share
 * sextant-bench-bcast-private.h.
 *
 * Plain C11 + MPI (house style for MPI programs: no GLib). Errors go to
 * stderr and end the job with a non-zero status; a usage error exits 2.
 */
#include "sextant-bench-bcast-private.h"

const variant variants[N_VARIANTS] = {
  { "mpi-bcast",            "mpi-bcast",   "none",     1, ONECOLL_ALGO_DEFAULT,  ONECOLL_ORDER_DEFAULT,        SESSION_MPI,      1 },
  { "linear/adaptive",      "linear",      "adaptive", 0, ONECOLL_ALGO_LINEAR,   ONECOLL_ORDER_DEFAULT,        SESSION_ADAPTIVE, 1 },
  { "binomial-sf/adaptive", "binomial-sf", "adaptive", 0, ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_SMALLEST_FIRST, SESSION_ADAPTIVE, 1 },
  { "binomial-lf/adaptive", "binomial-lf", "adaptive", 0, ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_LARGEST_FIRST,  SESSION_ADAPTIVE, 1 },
  { "mpi-bcast/rt",         "mpi-bcast",   "rt-idle",  1, ONECOLL_ALGO_DEFAULT,  ONECOLL_ORDER_DEFAULT,        SESSION_ADAPTIVE, 0 },
  { "linear/adaptive-bc",   "linear",      "adaptive-bc", 0, ONECOLL_ALGO_LINEAR, ONECOLL_ORDER_DEFAULT,       SESSION_ADAPTIVE_BC, 1 },
  { "binomial-sf/adaptive-bc", "binomial-sf", "adaptive-bc", 0, ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_SMALLEST_FIRST, SESSION_ADAPTIVE_BC, 0 },
  { "binomial-lf/adaptive-bc", "binomial-lf", "adaptive-bc", 0, ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_LARGEST_FIRST, SESSION_ADAPTIVE_BC, 1 },
  { "linear/fixed",         "linear",      "fixed",    0, ONECOLL_ALGO_LINEAR,   ONECOLL_ORDER_DEFAULT,        SESSION_FIXED,    1 },
  { "binomial-sf/fixed",    "binomial-sf", "fixed",    0, ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_SMALLEST_FIRST, SESSION_FIXED,    1 },
  { "binomial-lf/fixed",    "binomial-lf", "fixed",    0, ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_LARGEST_FIRST,  SESSION_FIXED,    1 },
};
_Static_assert (sizeof variants / sizeof variants[0] == N_VARIANTS, "N_VARIANTS counts variants[]");

int world_rank = -1;
int world_size = 0;

/* ---- errors ---- */

void
bench_die (const char *fmt,
           ...)
{
  va_list ap;

  fprintf (stderr, "sextant-bench-bcast [rank %d]: ", world_rank);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  fflush (stderr);
  MPI_Abort (MPI_COMM_WORLD, 1);
  exit (1);
}

void
bench_check_oc (int         rc,
                const char *what)
{
  if (rc == ONECOLL_OK)
    return;
  if (rc == ONECOLL_ERR_MPI)
    {
      char msg[MPI_MAX_ERROR_STRING];
      int len = 0;

      MPI_Error_string (onecoll_last_mpi_error (), msg, &len);
      bench_die ("%s: %s (%s)", what, onecoll_strerror (rc), msg);
    }
  bench_die ("%s: %s", what, onecoll_strerror (rc));
}

/* ---- small helpers ---- */

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Median of @n values; sorts @v in place. */
double
bench_median (double *v,
              int     n)
{
  if (n <= 0)
    return NAN;
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Smallest of @n values: the estimate of a deterministic cost under
 * additive noise (other processes on a shared machine only ever add). */
double
bench_minimum (const double *v,
               int           n)
{
  double lo = INFINITY;

  for (int k = 0; k < n; k++)
    if (v[k] < lo)
      lo = v[k];
  return lo;
}

void *
bench_xmalloc (size_t n)
{
  void *p = malloc (n > 0 ? n : 1);

  if (p == NULL)
    bench_die ("out of memory (%zu bytes)", n);
  return p;
}

/* Byte @i of the stamp of broadcast number @id. */
static unsigned char
stamp_byte (uint64_t id,
            int64_t  i)
{
  uint64_t x = id * 0x9e3779b97f4a7c15ull + (uint64_t) i * 0xbf58476d1ce4e5b9ull;

  x ^= x >> 29;
  return (unsigned char) (x ^ (x >> 17));
}

/* Writes the stamp of @id into the first and last STAMP_BYTES of buf[0, m). */
static void
stamp (unsigned char *buf,
       int64_t        m,
       uint64_t       id)
{
  for (int64_t i = 0; i < m && i < STAMP_BYTES; i++)
    buf[i] = stamp_byte (id, i);
  for (int64_t i = m > STAMP_BYTES ? m - STAMP_BYTES : 0; i < m; i++)
    buf[i] = stamp_byte (id, i);
}

static void
check_stamp (const unsigned char *buf,
             int64_t              m,
             uint64_t             id,
             const char          *variant_name)
{
  int64_t tail = m > STAMP_BYTES ? m - STAMP_BYTES : 0;

  for (int64_t i = 0; i < m; i++)
    {
      if (i == STAMP_BYTES && i < tail)
        i = tail;                   /* only the head and the tail are stamped */
      if (buf[i] != stamp_byte (id, i))
        bench_die ("%s, %lld bytes, broadcast %llu: wrong byte at offset %lld", variant_name,
                   (long long) m, (unsigned long long) id, (long long) i);
    }
}

/* ---- the benchmark ---- */

typedef struct
{
  const options *opt;
  int64_t m;                        /* bytes of this size */
  onecoll_win win;                  /* this session's window (onecoll sessions) */
  unsigned char *wbase;             /* its memory on this rank */
  unsigned char *ubuf;              /* the user buffer (MPI_Bcast; onecoll non-roots) */
  uint64_t next_id;                 /* broadcast number, the same on every rank */
} bench_ctx;

/* One broadcast of @v; returns this rank's time in seconds. */
static double
one_bcast (bench_ctx     *ctx,
           const variant *v)
{
  uint64_t id = ++ctx->next_id;
  int64_t m = ctx->m;
  double t0, t1;

  if (v->is_mpi)
    {
      if (world_rank == ROOT)
        stamp (ctx->ubuf, m, id);
      MPI_Barrier (MPI_COMM_WORLD);
      t0 = MPI_Wtime ();
      MPI_Bcast (ctx->ubuf, (int) m, MPI_BYTE, ROOT, MPI_COMM_WORLD);
      t1 = MPI_Wtime ();
      if (world_rank != ROOT)
        check_stamp (ctx->ubuf, m, id, v->name);
    }
  else
    {
      onecoll_bcast_opts opts = { v->oc_algo, v->oc_order };
      unsigned char *dst;

      /* The root's window is stable between the completion of its previous
       * broadcast and this call; stamp it before the barrier. */
      if (world_rank == ROOT)
        {
          stamp (ctx->wbase, m, id);
          dst = ctx->wbase;
        }
      else
        dst = ctx->opt->in_window ? ctx->wbase : ctx->ubuf;
      MPI_Barrier (MPI_COMM_WORLD);
      t0 = MPI_Wtime ();
      bench_check_oc (onecoll_bcast (ctx->win, dst, m, ROOT, &opts), "onecoll_bcast");
      bench_check_oc (onecoll_bcast_flush (ctx->win), "onecoll_bcast_flush");
      t1 = MPI_Wtime ();
      if (world_rank != ROOT)
        check_stamp (dst, m, id, v->name);
    }
  return t1 - t0;
}

typedef struct
{
  double avg_us, min_us, max_us;    /* over ranks of the per-rank averages */
  double root_us;                   /* the root's average */
  double med_us;                    /* median over iterations of the max over ranks */
  double itmax_us;                  /* mean over iterations of the max over ranks */
} result;

/* Reduces this rank's @n times (seconds) to @res on rank 0. */
static void
reduce_times (const double *t,
              int           n,
              result       *res)
{
  double local = 0, sum = 0, lo = 0, hi = 0;
  double *tmax = world_rank == 0 ? bench_xmalloc (sizeof *tmax * (size_t) n) : NULL;

  for (int k = 0; k < n; k++)
    local += t[k];
  local /= n;
  MPI_Reduce (&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce (&local, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce (&local, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce (t, tmax, n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (world_rank == 0)
    {
      res->avg_us = 1e6 * sum / world_size;
      res->min_us = 1e6 * lo;
      res->max_us = 1e6 * hi;
      res->root_us = 1e6 * local;  /* rank 0 is the root */
      res->itmax_us = 0;
      for (int k = 0; k < n; k++)
        res->itmax_us += 1e6 * tmax[k] / n;
      res->med_us = 1e6 * bench_median (tmax, n);
      free (tmax);
    }
}

static void
emit_result (FILE          *csv,
             const options *opt,
             int64_t        m,
             const variant *v,
             int            iters,
             int            warmup,
             const result  *res)
{
  printf ("%10lld  %-22s %6d %12.2f %12.2f %12.2f %12.2f\n", (long long) m, v->name, iters,
          res->min_us, res->avg_us, res->max_us, res->med_us);
  fflush (stdout);
  if (csv != NULL)
    {
      fprintf (csv, "%d,%lld,%s,%s,%s,%s,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", world_size,
               (long long) m, v->name, v->algo, v->policy, opt->in_window ? "window" : "user",
               iters, warmup, res->avg_us, res->min_us, res->max_us, res->root_us, res->med_us,
               res->itmax_us);
      fflush (csv);
    }
}

/* Runs every selected variant of @session at size @m. */
static void
run_session (const options *opt,
             session_kind   session,
             int64_t        m,
             unsigned char *ubuf,
             uint64_t      *next_id,
             FILE          *csv)
{
  int members[N_VARIANTS];
  int n_members = 0;
  int cls = bench_size_class (m);
  int iters = opt->iters[cls];
  int warmup = opt->warmup[cls];
  int rounds = opt->rounds < iters ? opt->rounds : iters;
  double *times[N_VARIANTS];
  bench_ctx ctx;

  for (int v = 0; v < N_VARIANTS; v++)
    if (opt->selected[v] && variants[v].session == session)
      members[n_members++] = v;
  if (n_members == 0)
    return;

  memset (&ctx, 0, sizeof ctx);
  ctx.opt = opt;
  ctx.m = m;
  ctx.ubuf = ubuf;
  ctx.next_id = *next_id;
  if (session != SESSION_MPI)
    {
      onecoll_config cfg;
      void *base = NULL;

      bench_check_oc (onecoll_config_init (&cfg), "onecoll_config_init");
      cfg.waiter = session == SESSION_FIXED ? opt->fixed : opt->adaptive;
      cfg.flush = cfg.waiter;
      cfg.relay = session == SESSION_ADAPTIVE ? ONECOLL_RELAY_WAITER : ONECOLL_RELAY_BROADCASTER;
      cfg.help_after_ns = opt->help_after_ns;
      bench_check_oc (onecoll_init (MPI_COMM_WORLD, &cfg), "onecoll_init");
      bench_check_oc (onecoll_win_create (m > 0 ? m : 1, NULL, &ctx.win), "onecoll_win_create");
      bench_check_oc (onecoll_win_get_base (ctx.win, &base, NULL), "onecoll_win_get_base");
      ctx.wbase = base;
      /* Touch the window so that no page fault lands in a timed region. */
      memset (ctx.wbase, world_rank & 0xff, (size_t) (m > 0 ? m : 1));
    }

  for (int k = 0; k < n_members; k++)
    times[k] = bench_xmalloc (sizeof (double) * (size_t) iters);

  /* Round r runs iterations [r * iters / rounds, (r + 1) * iters / rounds)
   * of every member in turn; the warm-up goes before a member's first. */
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < n_members; k++)
      {
        const variant *v = &variants[members[k]];
        int from = (int) ((int64_t) r * iters / rounds);
        int to = (int) ((int64_t) (r + 1) * iters / rounds);

        if (r == 0)
          for (int w = 0; w < warmup; w++)
            one_bcast (&ctx, v);
        for (int it = from; it < to; it++)
          times[k][it] = one_bcast (&ctx, v);
      }

  for (int k = 0; k < n_members; k++)
    {
      result res;

      memset (&res, 0, sizeof res);
      reduce_times (times[k], iters, &res);
      if (world_rank == 0)
        emit_result (csv, opt, m, &variants[members[k]], iters, warmup, &res);
      free (times[k]);
    }

  if (session != SESSION_MPI)
    {
      bench_check_oc (onecoll_win_free (ctx.win), "onecoll_win_free");
      bench_check_oc (onecoll_finalize (), "onecoll_finalize");
    }
  *next_id = ctx.next_id;
}

static void
write_json (const options *opt,
            const params  *pr,
            int            have_params)
{
  FILE *f = fopen (opt->json_path, "w");
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  char host[256];
  int len = 0;

  if (f == NULL)
    bench_die ("cannot write %s: %s", opt->json_path, strerror (errno));
  MPI_Get_library_version (lib, &len);
  for (int k = 0; k < len; k++)
    if (lib[k] == '"' || lib[k] == '\\' || (unsigned char) lib[k] < 0x20)
      lib[k] = ' ';
  if (gethostname (host, sizeof host) != 0)
    strcpy (host, "unknown");
  host[sizeof host - 1] = '\0';
  for (char *c = host; *c != '\0'; c++)
    if (*c == '"' || *c == '\\')
      *c = '_';

  fprintf (f, "{\n  \"p\": %d,\n  \"host\": \"%s\",\n  \"online_cpus\": %ld,\n", world_size, host,
           sysconf (_SC_NPROCESSORS_ONLN));
  fprintf (f, "  \"mpi_library\": \"%.*s\",\n", len > 200 ? 200 : len, lib);
  fprintf (f, "  \"buffer\": \"%s\",\n", opt->in_window ? "window" : "user");
  fprintf (f, "  \"iters\": [%d, %d, %d],\n  \"warmup\": [%d, %d, %d],\n  \"rounds\": %d",
           opt->iters[0], opt->iters[1], opt->iters[2], opt->warmup[0], opt->warmup[1],
           opt->warmup[2], opt->rounds);
  fprintf (f, ",\n  \"adaptive\": {\"spin_polls\": %u, \"yield_polls\": %u, \"sleep_min_ns\": %u, "
              "\"sleep_max_ns\": %u},\n  \"fixed_ns\": %u",
           opt->adaptive.spin_polls, opt->adaptive.yield_polls, opt->adaptive.sleep_min_ns,
           opt->adaptive.sleep_max_ns, opt->fixed.interval_ns);
  if (have_params)
    {
      fprintf (f, ",\n  \"params\": {\n");
      fprintf (f, "    \"o_us\": %.4f,\n    \"o_acc_us\": %.4f,\n    \"g_us\": %.4f,\n",
               pr->o_us, pr->o_acc_us, pr->g_us);
      fprintf (f, "    \"rtt_us\": %.4f,\n    \"L_us\": %.4f,\n", pr->rtt_us, pr->L_us);
      fprintf (f, "    \"G_ns_per_byte\": %.6f,\n    \"G_intercept_us\": %.3f,\n",
               1e3 * pr->G_us_per_byte, pr->G_icpt_us);
      fprintf (f, "    \"Gnode_ns_per_byte\": %.6f,\n", 1e3 * pr->Gnode_us_per_byte);
      fprintf (f, "    \"bin2_adaptive_us\": %.3f,\n    \"bin2_fixed_us\": %.3f,\n",
               pr->bin2_us[0], pr->bin2_us[1]);
      fprintf (f, "    \"Or_adaptive_us\": %.3f,\n    \"Or_fixed_us\": %.3f,\n",
               pr->Or_us[0], pr->Or_us[1]);
      fprintf (f, "    \"bin2_adaptive_waiter_us\": %.3f,\n", pr->bin2_us[2]);
      fprintf (f, "    \"Gbusy_adaptive_ns_per_byte\": %.6f,\n"
                  "    \"Gbusy_fixed_ns_per_byte\": %.6f,\n"
                  "    \"Gquiet_ns_per_byte\": %.6f,\n",
               1e3 * pr->Gbusy_us_per_byte[0], 1e3 * pr->Gbusy_us_per_byte[1],
               1e3 * pr->Gquiet_us_per_byte);
      fprintf (f, "    \"Gshare\": [");
      for (int k = 0; k < pr->n_share; k++)
        fprintf (f, "%s{\"n\": %d, \"ns_per_byte\": %.6f}", k ? ", " : "", pr->share_n[k],
                 1e3 * pr->share_us_per_byte[k]);
      fprintf (f, "],\n");
      fprintf (f, "    \"G_fit\": [");
      for (int k = 0; k < pr->n_gfit; k++)
        fprintf (f, "%s{\"bytes\": %.0f, \"us\": %.3f}", k ? ", " : "", pr->gfit_bytes[k],
                 pr->gfit_us[k]);
      fprintf (f, "]\n  }");
    }
  fprintf (f, "\n}\n");
  if (fclose (f) != 0)
    bench_die ("cannot write %s: %s", opt->json_path, strerror (errno));
}

int
main (int    argc,
      char **argv)
{
  options opt;
  params pr;
  int provided = MPI_THREAD_SINGLE;
  int have_params = 0;
  int64_t max_m = 1;
  unsigned char *ubuf;
  uint64_t next_id = 0;
  FILE *csv = NULL;

  if (MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
    {
      fprintf (stderr, "sextant-bench-bcast: MPI_Init_thread failed\n");
      return 1;
    }
  MPI_Comm_rank (MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size (MPI_COMM_WORLD, &world_size);
  if (provided < MPI_THREAD_MULTIPLE)
    bench_die ("MPI provides thread level %d, onecoll needs MPI_THREAD_MULTIPLE", provided);
  bench_parse_options (&opt, argc, argv);

  if (world_rank == 0 && opt.csv_path != NULL)
    {
      csv = fopen (opt.csv_path, "w");
      if (csv == NULL)
        bench_die ("cannot write %s: %s", opt.csv_path, strerror (errno));
      fprintf (csv, "p,bytes,variant,algo,policy,buffer,iters,warmup,"
                    "avg_us,min_us,max_us,root_us,med_us,itmax_us\n");
    }

  memset (&pr, 0, sizeof pr);
  if (opt.params)
    {
      bench_measure_params (&opt, &pr);
      have_params = world_size >= 2;
      if (world_rank == 0 && have_params)
        bench_print_params (&pr);
    }

  if (!opt.params_only)
    {
      for (int k = 0; k < opt.n_sizes; k++)
        if (opt.sizes[k] > max_m)
          max_m = opt.sizes[k];
      ubuf = bench_xmalloc ((size_t) max_m);
      memset (ubuf, 0, (size_t) max_m);
      if (world_rank == 0)
        printf ("# p = %d, root %d, buffer %s; times in us (OSU method: per-rank average;\n"
                "# min/avg/max over ranks; med = median over iterations of the max over ranks)\n"
                "%10s  %-22s %6s %12s %12s %12s %12s\n",
                world_size, ROOT, opt.in_window ? "window" : "user", "bytes", "variant",
                "iters", "min", "avg", "max", "med");
      for (int k = 0; k < opt.n_sizes; k++)
        for (int s = 0; s < N_SESSIONS; s++)
          run_session (&opt, (session_kind) s, opt.sizes[k], ubuf, &next_id, csv);
      free (ubuf);
    }

  if (world_rank == 0)
    {
      if (csv != NULL && fclose (csv) != 0)
        bench_die ("cannot write %s: %s", opt.csv_path, strerror (errno));
      if (opt.json_path != NULL)
        write_json (&opt, &pr, have_params);
    }
  MPI_Finalize ();
  return 0;
}
