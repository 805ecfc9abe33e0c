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
 * reports their median (med_us, robust against the odd descheduled
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
 * Plain C11 + MPI (house style for MPI programs: no GLib). Errors go to
 * stderr and end the job with a non-zero status; a usage error exits 2.
 */
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

static const variant variants[] = {
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
#define N_VARIANTS ((int) (sizeof variants / sizeof variants[0]))

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

static int world_rank = -1;
static int world_size = 0;

/* ---- errors ---- */

static void die (const char *fmt, ...) __attribute__ ((format (printf, 1, 2), noreturn));

static void
die (const char *fmt,
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

static void
check_oc (int         rc,
          const char *what)
{
  if (rc == ONECOLL_OK)
    return;
  if (rc == ONECOLL_ERR_MPI)
    {
      char msg[MPI_MAX_ERROR_STRING];
      int len = 0;

      MPI_Error_string (onecoll_last_mpi_error (), msg, &len);
      die ("%s: %s (%s)", what, onecoll_strerror (rc), msg);
    }
  die ("%s: %s", what, onecoll_strerror (rc));
}

/* ---- option parsing (every rank parses the same argv) ---- */

static void
usage (FILE *out)
{
  fprintf (out,
    "usage: mpirun -np P sextant-bench-bcast [options]\n"
    "  -s, --sizes LIST     comma-separated sizes in bytes, K/M/G suffixes (binary),\n"
    "                       or pow2 / pow4: 1 B .. 32 MiB / 16 MiB, plus 40 MiB\n"
    "                       (default pow4)\n"
    "  -m, --max-size SIZE  drop the sizes above SIZE\n"
    "  -i, --iters S:M:L    timed iterations for sizes < 64 KiB, < 4 MiB and\n"
    "                       larger (default 100:30:10; one number = all three)\n"
    "  -w, --warmup S:M:L   warm-up iterations (default 10:5:3)\n"
    "  -r, --rounds N       interleave the variants of a session in N rounds\n"
    "                       (default 5, at most the iteration count)\n"
    "  -a, --algos LIST     variants: linear, binomial-sf, binomial-lf, each\n"
    "                       optionally /adaptive or /fixed; mpi-bcast;\n"
    "                       mpi-bcast/rt; all (default: all but mpi-bcast/rt)\n"
    "  -b, --buffer MODE    user (default): non-roots receive into their own\n"
    "                       buffer; window: they read the window in place\n"
    "      --adaptive S:Y:MIN:MAX[:DIV:LONG]  the adaptive policy: S spins, Y yields,\n"
    "                       then sleeps from MIN to MAX ns, in long waits up to 1/DIV\n"
    "                       of the time slept, at most LONG ns (default: onecoll's,\n"
    "                       16:256:1000:64000:8:1000000)\n"
    "      --fixed NS       the fixed policy's sleep (default 1000000, the paper's)\n"
    "  -o, --csv PATH       write one CSV row per (size, variant)\n"
    "  -j, --json PATH      write the run's parameters and model inputs\n"
    "      --params         measure L, o, g, G, Or (default unless --quick)\n"
    "      --no-params      do not\n"
    "      --params-only    measure only the parameters\n"
    "  -q, --quick          1 B, 1 KiB, 64 KiB, 1 MiB; iterations 10:10:5,\n"
    "                       warm-up 2:2:1, 1 round, no parameters (demo and\n"
    "                       recording; seconds at P = 8); later options win\n"
    "  -h, --help\n");
}

static void usage_error (const char *fmt, ...) __attribute__ ((format (printf, 1, 2), noreturn));

static void
usage_error (const char *fmt,
             ...)
{
  if (world_rank == 0)
    {
      va_list ap;

      fprintf (stderr, "sextant-bench-bcast: ");
      va_start (ap, fmt);
      vfprintf (stderr, fmt, ap);
      va_end (ap);
      fputc ('\n', stderr);
      usage (stderr);
    }
  MPI_Finalize ();
  exit (EXIT_USAGE);
}

/* Parses "123", "4K", "40M", "1G" into bytes; -1 if malformed. */
static int64_t
parse_size (const char *s)
{
  char *end = NULL;
  long long v;
  int64_t mult = 1;

  errno = 0;
  v = strtoll (s, &end, 10);
  if (errno != 0 || end == s || v < 0)
    return -1;
  switch (*end)
    {
    case '\0':
      break;
    case 'k': case 'K': mult = KIB; end++; break;
    case 'm': case 'M': mult = MIB; end++; break;
    case 'g': case 'G': mult = KIB * MIB; end++; break;
    default:
      return -1;
    }
  if (*end == 'i' && end[1] == 'B')
    end += 2;
  else if (*end == 'B')
    end++;
  if (*end != '\0' || v > INT_MAX / mult)
    return -1;
  return (int64_t) v * mult;
}

static void
set_size_preset (options *opt,
                 int      factor)
{
  opt->n_sizes = 0;
  for (int64_t s = 1; s <= 32 * MIB && s < 40 * MIB; s *= factor)
    opt->sizes[opt->n_sizes++] = s;
  opt->sizes[opt->n_sizes++] = 40 * MIB;
}

static void
parse_sizes (options    *opt,
             const char *arg)
{
  char buf[1024];
  char *save = NULL;

  if (strcmp (arg, "pow2") == 0)
    {
      set_size_preset (opt, 2);
      return;
    }
  if (strcmp (arg, "pow4") == 0)
    {
      set_size_preset (opt, 4);
      return;
    }
  if (strlen (arg) >= sizeof buf)
    usage_error ("--sizes: list too long");
  strcpy (buf, arg);
  opt->n_sizes = 0;
  for (char *tok = strtok_r (buf, ",", &save); tok != NULL; tok = strtok_r (NULL, ",", &save))
    {
      int64_t s = parse_size (tok);

      if (s < 0)
        usage_error ("--sizes: bad size '%s'", tok);
      if (opt->n_sizes == MAX_SIZES)
        usage_error ("--sizes: more than %d sizes", MAX_SIZES);
      opt->sizes[opt->n_sizes++] = s;
    }
  if (opt->n_sizes == 0)
    usage_error ("--sizes: empty list");
}

/* "N" or "S:M:L", each >= @min. */
static void
parse_triple (int         out[3],
              const char *arg,
              const char *what,
              int         min)
{
  long v[3];
  char *end = NULL;
  const char *p = arg;
  int n = 0;

  while (n < 3)
    {
      errno = 0;
      v[n] = strtol (p, &end, 10);
      if (errno != 0 || end == p || v[n] < min || v[n] > 1000000)
        usage_error ("%s: bad value '%s'", what, arg);
      n++;
      if (*end == '\0')
        break;
      if (*end != ':')
        usage_error ("%s: bad value '%s'", what, arg);
      p = end + 1;
    }
  if (*end != '\0' || n == 2)
    usage_error ("%s: give N or S:M:L, not '%s'", what, arg);
  for (int i = 0; i < 3; i++)
    out[i] = (int) v[n == 1 ? 0 : i];
}

static void
parse_algos (options    *opt,
             const char *arg)
{
  char buf[1024];
  char *save = NULL;

  if (strlen (arg) >= sizeof buf)
    usage_error ("--algos: list too long");
  strcpy (buf, arg);
  memset (opt->selected, 0, sizeof opt->selected);
  for (char *tok = strtok_r (buf, ",", &save); tok != NULL; tok = strtok_r (NULL, ",", &save))
    {
      int found = 0;

      for (int v = 0; v < N_VARIANTS; v++)
        {
          size_t n = strlen (tok);
          int match = strcmp (tok, "all") == 0
                      || strcmp (tok, variants[v].name) == 0
                      /* "linear" selects linear/adaptive and linear/fixed */
                      || (!variants[v].is_mpi && strncmp (tok, variants[v].name, n) == 0
                          && variants[v].name[n] == '/');

          if (match)
            {
              opt->selected[v] = 1;
              found = 1;
            }
        }
      if (!found)
        usage_error ("--algos: unknown variant '%s'", tok);
    }
}

static int
parse_int (const char *arg,
           const char *what,
           int         min,
           int         max)
{
  char *end = NULL;
  long v;

  errno = 0;
  v = strtol (arg, &end, 10);
  if (errno != 0 || end == arg || *end != '\0' || v < min || v > max)
    usage_error ("%s: expected an integer in %d..%d, not '%s'", what, min, max, arg);
  return (int) v;
}

static void
parse_adaptive (onecoll_poll_policy *pol,
                const char          *arg)
{
  unsigned long v[6];
  const char *p = arg;
  char *end = NULL;
  int n = 0;

  while (n < 6)
    {
      errno = 0;
      v[n] = strtoul (p, &end, 10);
      if (errno != 0 || end == p || v[n] > 1000000000ul || (*end != ':' && *end != '\0'))
        usage_error ("--adaptive: expected SPIN:YIELD:MIN_NS:MAX_NS[:DIV:LONG_NS], not '%s'", arg);
      n++;
      if (*end == '\0')
        break;
      p = end + 1;
    }
  if ((n != 4 && n != 6) || *end != '\0')
    usage_error ("--adaptive: expected SPIN:YIELD:MIN_NS:MAX_NS[:DIV:LONG_NS], not '%s'", arg);
  pol->spin_polls = (uint32_t) v[0];
  pol->yield_polls = (uint32_t) v[1];
  pol->sleep_min_ns = (uint32_t) v[2];
  pol->sleep_max_ns = (uint32_t) v[3];
  if (n == 6)
    {
      pol->long_wait_div = (uint32_t) v[4];
      pol->long_wait_max_ns = (uint32_t) v[5];
    }
  if (v[0] > 1000000ul || v[2] < 1 || v[2] > v[3]
      || (pol->long_wait_div != 0
          && (pol->long_wait_div < 2 || pol->long_wait_div > 1000
              || pol->long_wait_max_ns < pol->sleep_max_ns)))
    usage_error ("--adaptive: SPIN <= 1000000, 1 <= MIN_NS <= MAX_NS, DIV 0 or 2..1000, "
                 "LONG_NS >= MAX_NS; not '%s'", arg);
}

static void
parse_options (options *opt,
               int      argc,
               char   **argv)
{
  enum { OPT_PARAMS = 256, OPT_NO_PARAMS, OPT_PARAMS_ONLY, OPT_ADAPTIVE, OPT_FIXED,
         OPT_HELP_AFTER };
  static const struct option longopts[] = {
    { "sizes",       required_argument, NULL, 's' },
    { "max-size",    required_argument, NULL, 'm' },
    { "iters",       required_argument, NULL, 'i' },
    { "warmup",      required_argument, NULL, 'w' },
    { "rounds",      required_argument, NULL, 'r' },
    { "algos",       required_argument, NULL, 'a' },
    { "buffer",      required_argument, NULL, 'b' },
    { "csv",         required_argument, NULL, 'o' },
    { "json",        required_argument, NULL, 'j' },
    { "params",      no_argument,       NULL, OPT_PARAMS },
    { "no-params",   no_argument,       NULL, OPT_NO_PARAMS },
    { "params-only", no_argument,       NULL, OPT_PARAMS_ONLY },
    { "quick",       no_argument,       NULL, 'q' },
    { "adaptive",    required_argument, NULL, OPT_ADAPTIVE },
    { "fixed",       required_argument, NULL, OPT_FIXED },
    { "help-after",  required_argument, NULL, OPT_HELP_AFTER },
    { "help",        no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  int64_t max_size = -1;
  int c;

  memset (opt, 0, sizeof *opt);
  set_size_preset (opt, 4);
  parse_triple (opt->iters, "100:30:10", "--iters", 1);
  parse_triple (opt->warmup, "10:5:3", "--warmup", 0);
  opt->rounds = 5;
  for (int v = 0; v < N_VARIANTS; v++)
    opt->selected[v] = variants[v].by_default;
  opt->params = 1;
  onecoll_poll_policy_init (&opt->adaptive, ONECOLL_POLL_ADAPTIVE);
  onecoll_poll_policy_init (&opt->fixed, ONECOLL_POLL_FIXED);
  {
    onecoll_config defaults;

    onecoll_config_init (&defaults);
    opt->help_after_ns = defaults.help_after_ns;
  }

  /* --quick sets defaults that the other options may override, wherever it
   * stands on the command line. */
  for (int k = 1; k < argc; k++)
    if (strcmp (argv[k], "--quick") == 0 || strcmp (argv[k], "-q") == 0)
      {
        parse_sizes (opt, "1,1K,64K,1M");
        parse_triple (opt->iters, "10:10:5", "--iters", 1);
        parse_triple (opt->warmup, "2:2:1", "--warmup", 0);
        opt->rounds = 1;
        opt->params = 0;
      }

  opterr = 0;
  while ((c = getopt_long (argc, argv, ":s:m:i:w:r:a:b:o:j:qh", longopts, NULL)) != -1)
    {
      switch (c)
        {
        case 's': parse_sizes (opt, optarg); break;
        case 'm':
          max_size = parse_size (optarg);
          if (max_size < 0)
            usage_error ("--max-size: bad size '%s'", optarg);
          break;
        case 'i': parse_triple (opt->iters, optarg, "--iters", 1); break;
        case 'w': parse_triple (opt->warmup, optarg, "--warmup", 0); break;
        case 'r': opt->rounds = parse_int (optarg, "--rounds", 1, 1000); break;
        case 'a': parse_algos (opt, optarg); break;
        case 'b':
          if (strcmp (optarg, "user") == 0)
            opt->in_window = 0;
          else if (strcmp (optarg, "window") == 0)
            opt->in_window = 1;
          else
            usage_error ("--buffer: 'user' or 'window', not '%s'", optarg);
          break;
        case 'o': opt->csv_path = optarg; break;
        case 'j': opt->json_path = optarg; break;
        case OPT_PARAMS: opt->params = 1; break;
        case OPT_NO_PARAMS: opt->params = 0; break;
        case OPT_PARAMS_ONLY: opt->params = 1; opt->params_only = 1; break;
        case OPT_ADAPTIVE: parse_adaptive (&opt->adaptive, optarg); break;
        case OPT_FIXED:
          opt->fixed.interval_ns = (uint32_t) parse_int (optarg, "--fixed", 1, 1000000000);
          break;
        case OPT_HELP_AFTER:
          if (strcmp (optarg, "never") == 0)
            opt->help_after_ns = UINT32_MAX;
          else
            opt->help_after_ns = (uint32_t) parse_int (optarg, "--help-after", 0, 1000000000);
          break;
        case 'q': break;            /* handled above */
        case 'h':
          if (world_rank == 0)
            usage (stdout);
          MPI_Finalize ();
          exit (0);
        case ':':
          usage_error ("option '%s' needs an argument", argv[optind - 1]);
        default:
          usage_error ("unknown option '%s'", argv[optind - 1]);
        }
    }
  if (optind < argc)
    usage_error ("unexpected argument '%s'", argv[optind]);
  if (max_size >= 0)
    {
      int n = 0;

      for (int k = 0; k < opt->n_sizes; k++)
        if (opt->sizes[k] <= max_size)
          opt->sizes[n++] = opt->sizes[k];
      opt->n_sizes = n;
    }
  if (opt->n_sizes == 0 && !opt->params_only)
    usage_error ("no sizes left to measure");
}

static int
size_class (int64_t m)
{
  return m < MEDIUM_FROM ? 0 : m < LARGE_FROM ? 1 : 2;
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
static double
median (double *v,
        int     n)
{
  if (n <= 0)
    return NAN;
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Smallest of @n values: the estimate of a deterministic cost under
 * additive noise (other processes on a shared machine only ever add). */
static double
minimum (const double *v,
         int           n)
{
  double lo = INFINITY;

  for (int k = 0; k < n; k++)
    if (v[k] < lo)
      lo = v[k];
  return lo;
}

static void *
xmalloc (size_t n)
{
  void *p = malloc (n > 0 ? n : 1);

  if (p == NULL)
    die ("out of memory (%zu bytes)", n);
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
        die ("%s, %lld bytes, broadcast %llu: wrong byte at offset %lld", variant_name,
             (long long) m, (unsigned long long) id, (long long) i);
    }
}

/* ---- model parameters ---- */

#define PARAM_BATCHES   21          /* deterministic costs: minimum over this many batches */
/* G is fitted on puts of at least this size: source plus destination exceed
 * the 32 MiB L3 of the machine this was written on, as they do for the large
 * broadcasts the model is meant for (smaller puts are measured and written
 * to the JSON, but they run from the cache). */
#define G_FIT_FROM      (16 * MIB)
#define PARAM_WIN       (40 * MIB)  /* the largest put, and the window size */

/* Time per operation (minimum over batches) of @ops x (MPI_Put(8 B) or Accumulate + flush). */
static double
time_small_op (MPI_Win win,
               int     target,
               int     use_acc,
               int     ops)
{
  double batch[PARAM_BATCHES];
  int64_t value = 42;

  for (int b = 0; b < PARAM_BATCHES; b++)
    {
      double t0 = MPI_Wtime ();

      for (int k = 0; k < ops; k++)
        {
          if (use_acc)
            MPI_Accumulate (&value, 1, MPI_INT64_T, target, 0, 1, MPI_INT64_T, MPI_REPLACE, win);
          else
            MPI_Put (&value, 1, MPI_INT64_T, target, 0, 1, MPI_INT64_T, win);
          MPI_Win_flush (target, win);
        }
      batch[b] = (MPI_Wtime () - t0) / ops;
    }
  return minimum (batch, PARAM_BATCHES);
}

/* Time (minimum over batches) of @n back-to-back 8-byte puts and one flush. */
static double
time_put_train (MPI_Win win,
                int     target,
                int     n,
                int     reps)
{
  double batch[PARAM_BATCHES];
  int64_t value = 7;

  for (int b = 0; b < PARAM_BATCHES; b++)
    {
      double t0 = MPI_Wtime ();

      for (int r = 0; r < reps; r++)
        {
          for (int k = 0; k < n; k++)
            MPI_Put (&value, 1, MPI_INT64_T, target, (MPI_Aint) (8 * k), 1, MPI_INT64_T, win);
          MPI_Win_flush (target, win);
        }
      batch[b] = (MPI_Wtime () - t0) / reps;
    }
  return minimum (batch, PARAM_BATCHES);
}

/* Polls this rank's own flag (as onecoll's waiters do) until it equals @want. */
static void
wait_flag (MPI_Win win,
           int     me,
           int64_t want)
{
  int64_t got = 0;
  int64_t dummy = 0;

  for (;;)
    {
      MPI_Fetch_and_op (&dummy, &got, MPI_INT64_T, me, 0, MPI_NO_OP, win);
      MPI_Win_flush (me, win);
      if (got == want)
        return;
    }
}

/* Ranks 0 and 1 of @pair (a 2-rank communicator): the plain-RMA parameters.
 * Only rank 0's @out is meaningful. */
static void
measure_rma_params (MPI_Comm  pair,
                    params   *out)
{
  static const int64_t gsizes[] = { 1 * MIB, 4 * MIB, 8 * MIB, 16 * MIB, 24 * MIB, 32 * MIB,
                                    PARAM_WIN };
  const int n_gsizes = (int) (sizeof gsizes / sizeof gsizes[0]);
  int n_fit = 0;
  MPI_Win dwin, fwin;
  unsigned char *dbase = NULL;
  int64_t *fbase = NULL;
  int me, peer;
  double rtt[PARAM_BATCHES];
  const int pingpongs = 1000;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;

  MPI_Comm_rank (pair, &me);
  peer = 1 - me;
  MPI_Win_allocate ((MPI_Aint) gsizes[n_gsizes - 1], 1, MPI_INFO_NULL, pair, &dbase, &dwin);
  MPI_Win_allocate ((MPI_Aint) sizeof (int64_t), sizeof (int64_t), MPI_INFO_NULL, pair, &fbase,
                    &fwin);
  memset (dbase, 0x5a, (size_t) gsizes[n_gsizes - 1]);
  *fbase = 0;
  MPI_Win_lock_all (MPI_MODE_NOCHECK, dwin);
  MPI_Win_lock_all (MPI_MODE_NOCHECK, fwin);
  MPI_Win_sync (fwin);
  MPI_Barrier (pair);

  if (me == 0)
    {
      double t1, tn;

      time_small_op (dwin, peer, 0, 200);            /* warm-up */
      out->o_us = 1e6 * time_small_op (dwin, peer, 0, 2000);
      out->o_acc_us = 1e6 * time_small_op (dwin, peer, 1, 2000);
      t1 = time_put_train (dwin, peer, 1, 200);
      tn = time_put_train (dwin, peer, 64, 20);
      out->g_us = 1e6 * (tn - t1) / 63;
      if (out->g_us < 0)
        out->g_us = 0;
    }
  MPI_Barrier (pair);

  /* Flag ping-pong, the peer answering every value it sees. */
  for (int b = 0; b < PARAM_BATCHES + 1; b++)
    {
      double t0;

      MPI_Barrier (pair);
      t0 = MPI_Wtime ();
      for (int k = 1; k <= pingpongs; k++)
        {
          int64_t token = (int64_t) b * pingpongs + k;

          if (me == 0)
            {
              MPI_Accumulate (&token, 1, MPI_INT64_T, peer, 0, 1, MPI_INT64_T, MPI_REPLACE, fwin);
              MPI_Win_flush (peer, fwin);
              wait_flag (fwin, me, token);
            }
          else
            {
              wait_flag (fwin, me, token);
              MPI_Accumulate (&token, 1, MPI_INT64_T, peer, 0, 1, MPI_INT64_T, MPI_REPLACE, fwin);
              MPI_Win_flush (peer, fwin);
            }
        }
      if (b > 0)                                     /* batch 0 is the warm-up */
        rtt[b - 1] = (MPI_Wtime () - t0) / pingpongs;
    }

  if (me == 0)
    {
      out->rtt_us = 1e6 * minimum (rtt, PARAM_BATCHES);
      out->L_us = out->rtt_us / 2 - out->o_acc_us;
      if (out->L_us < 0)
        out->L_us = 0;

      /* G: MPI_Put(s) + flush from our window into the peer's, as a relay does. */
      out->n_gfit = n_gsizes;
      for (int k = 0; k < n_gsizes; k++)
        {
          double t[PARAM_BATCHES];

          for (int b = -1; b < PARAM_BATCHES; b++)
            {
              double t0 = MPI_Wtime ();

              MPI_Put (dbase, (int) gsizes[k], MPI_BYTE, peer, 0, (int) gsizes[k], MPI_BYTE, dwin);
              MPI_Win_flush (peer, dwin);
              if (b >= 0)
                t[b] = MPI_Wtime () - t0;
            }
          out->gfit_bytes[k] = (double) gsizes[k];
          out->gfit_us[k] = 1e6 * minimum (t, PARAM_BATCHES);
          if (gsizes[k] < G_FIT_FROM)
            continue;
          n_fit++;
          sx += out->gfit_bytes[k];
          sy += out->gfit_us[k];
          sxx += out->gfit_bytes[k] * out->gfit_bytes[k];
          sxy += out->gfit_bytes[k] * out->gfit_us[k];
        }
      out->G_us_per_byte = (n_fit * sxy - sx * sy) / (n_fit * sxx - sx * sx);
      out->G_icpt_us = (sy - out->G_us_per_byte * sx) / n_fit;
    }

  /* Gnode: both ranks put half a window into the other half of the peer's
   * window at the same time (on this machine: both cores copying, sharing
   * the memory system). Bytes moved / time, from barrier to barrier. */
  {
    int64_t half = PARAM_WIN / 2;
    double t[PARAM_BATCHES];

    for (int b = -1; b < PARAM_BATCHES; b++)
      {
        double t0;

        MPI_Barrier (pair);
        t0 = MPI_Wtime ();
        MPI_Put (dbase, (int) half, MPI_BYTE, peer, (MPI_Aint) half, (int) half, MPI_BYTE, dwin);
        MPI_Win_flush (peer, dwin);
        MPI_Barrier (pair);
        if (b >= 0)
          t[b] = MPI_Wtime () - t0;
      }
    out->Gnode_us_per_byte = 1e6 * minimum (t, PARAM_BATCHES) / (2.0 * (double) half);
  }

  MPI_Barrier (pair);
  MPI_Win_unlock_all (fwin);
  MPI_Win_unlock_all (dwin);
  MPI_Win_free (&fwin);
  MPI_Win_free (&dwin);
}

/* Starts an onecoll runtime on @comm with @policy for both of its waits and
 * @relay, and creates one window of @size bytes (*@win, its memory *@base);
 * dies on any error. */
static void
start_runtime (MPI_Comm                   comm,
               const onecoll_poll_policy *policy,
               onecoll_relay_mode         relay,
               int64_t                    size,
               onecoll_win               *win,
               void                     **base)
{
  onecoll_config cfg;

  check_oc (onecoll_config_init (&cfg), "onecoll_config_init");
  cfg.waiter = *policy;
  cfg.flush = *policy;
  cfg.relay = relay;
  check_oc (onecoll_init (comm, &cfg), "onecoll_init (parameters)");
  check_oc (onecoll_win_create (size, NULL, win), "onecoll_win_create (parameters)");
  check_oc (onecoll_win_get_base (*win, base, NULL), "onecoll_win_get_base");
}

/* On @pair (world ranks 0 and 1): median time of a 1-byte binomial
 * broadcast from 0 to 1 with @mode polling, in us, timed at the root as the
 * benchmark times it (bcast + flush). */
static double
measure_bin2 (MPI_Comm                   pair,
              const onecoll_poll_policy *policy,
              onecoll_relay_mode         relay,
              int                        iters)
{
  onecoll_bcast_opts bin = { ONECOLL_ALGO_BINOMIAL, ONECOLL_ORDER_LARGEST_FIRST };
  onecoll_win win = ONECOLL_WIN_NULL;
  void *base = NULL;
  double *t = xmalloc (sizeof (double) * (size_t) iters);
  double result;
  unsigned char one = 1;
  int me;

  MPI_Comm_rank (pair, &me);
  start_runtime (pair, policy, relay, 64, &win, &base);
  for (int k = -iters / 10 - 1; k < iters; k++)
    {
      double t0;

      MPI_Barrier (pair);
      t0 = MPI_Wtime ();
      check_oc (onecoll_bcast (win, me == 0 ? base : &one, 1, 0, &bin),
                "onecoll_bcast (parameters)");
      check_oc (onecoll_bcast_flush (win), "onecoll_bcast_flush (parameters)");
      if (k >= 0)
        t[k] = MPI_Wtime () - t0;
    }
  result = 1e6 * median (t, iters);
  free (t);
  check_oc (onecoll_win_free (win), "onecoll_win_free (parameters)");
  check_oc (onecoll_finalize (), "onecoll_finalize (parameters)");
  return result;
}

/* A barrier for ranks that have nothing to do: they sleep between tests
 * instead of spinning in MPI_Barrier, so that the ranks measuring get the
 * cores to themselves. */
static void
quiet_barrier (MPI_Comm comm)
{
  MPI_Request req;
  int done = 0;

  MPI_Ibarrier (comm, &req);
  for (;;)
    {
      struct timespec ts = { 0, 200000 };

      MPI_Test (&req, &done, MPI_STATUS_IGNORE);
      if (done)
        return;
      nanosleep (&ts, NULL);
    }
}

#define SHARE_BYTES     (16 * MIB)  /* each copy of the Gshare measurement */

/* Seconds on CLOCK_MONOTONIC: one clock for all processes of the node
 * (Open MPI's MPI_Wtime need not be; MPI_WTIME_IS_GLOBAL is false). */
static double
node_clock (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Gshare(n), not in the spec: ranks 0..n-1 of MPI_COMM_WORLD each put
 * SHARE_BYTES from their window into the next one's (r + 1 mod n) at the
 * same time, from barrier to barrier; time / bytes moved. The copy
 * bandwidth of the node as n copies share its cores and memory: what the
 * copies of one stage of the binomial tree (and the receivers' copy-outs)
 * get. The median over batches, as the broadcast latencies it serves to
 * predict are medians: with more copies than cores the time is set by how
 * the scheduler shares the cores, which has a real spread. The other
 * ranks wait in quiet_barrier(). */
static void
measure_share (params *out)
{
  static const int counts[] = { 2, 3, 4, 6, 8, 12, 16 };
  const int n_counts = (int) (sizeof counts / sizeof counts[0]);
  unsigned char *base = NULL;
  MPI_Win win;

  out->n_share = 0;
  MPI_Win_allocate ((MPI_Aint) (2 * SHARE_BYTES), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  memset (base, 0x3c, (size_t) (2 * SHARE_BYTES));
  MPI_Win_lock_all (MPI_MODE_NOCHECK, win);
  for (int k = 0; k < n_counts && counts[k] <= world_size; k++)
    {
      int n = counts[k];
      int in = world_rank < n;
      MPI_Comm group;
      double t[PARAM_BATCHES];

      MPI_Comm_split (MPI_COMM_WORLD, in ? 0 : 1, world_rank, &group);
      if (in)
        {
          for (int b = -1; b < PARAM_BATCHES; b++)
            {
              double t0, t1, first, last;

              MPI_Barrier (group);
              t0 = node_clock ();
              MPI_Put (base, (int) SHARE_BYTES, MPI_BYTE, (world_rank + 1) % n,
                       (MPI_Aint) SHARE_BYTES, (int) SHARE_BYTES, MPI_BYTE, win);
              MPI_Win_flush ((world_rank + 1) % n, win);
              t1 = node_clock ();
              /* From the first start to the last end: with more ranks than
               * cores the ranks leave the barrier at different times, so no
               * single rank's clock spans all copies. */
              MPI_Allreduce (&t0, &first, 1, MPI_DOUBLE, MPI_MIN, group);
              MPI_Allreduce (&t1, &last, 1, MPI_DOUBLE, MPI_MAX, group);
              if (b >= 0)
                t[b] = last - first;
            }
          if (world_rank == 0)
            {
              out->share_n[out->n_share] = n;
              out->share_us_per_byte[out->n_share] =
                1e6 * median (t, PARAM_BATCHES) / ((double) n * (double) SHARE_BYTES);
              out->n_share++;
            }
        }
      quiet_barrier (MPI_COMM_WORLD);
      MPI_Comm_free (&group);
    }
  MPI_Win_unlock_all (win);
  MPI_Win_free (&win);
}

/* Gbusy, not in the spec: the time per byte of one put of SHARE_BYTES by
 * rank 0 (into rank 1) while every other rank waits in onecoll_bcast_flush()
 * (with the runtime's @policy and @relay mode) for a broadcast that rank 0
 * starts only after the put. That is what a rank that copies gets from the
 * cores while the ranks that wait for it poll - the situation of every
 * large broadcast here. With @policy NULL (Gquiet) the other ranks sleep in
 * quiet_barrier() instead; Gbusy / Gquiet is the processor-sharing slowdown
 * that the PS model applies to the copies. The median over PARAM_BATCHES
 * batches, like Gshare. Every rank calls this; rank 0's result is
 * returned. */
static double
measure_busy (const onecoll_poll_policy *policy,
              onecoll_relay_mode         relay)
{
  onecoll_win win = ONECOLL_WIN_NULL;
  unsigned char *base = NULL;
  unsigned char *data = NULL;
  unsigned char one = 0;
  MPI_Win dwin;
  double t[PARAM_BATCHES];
  double result = 0;

  if (world_size < 2)
    return 0;
  MPI_Win_allocate ((MPI_Aint) (world_rank <= 1 ? SHARE_BYTES : 1), 1, MPI_INFO_NULL,
                    MPI_COMM_WORLD, &data, &dwin);
  memset (data, 0x6b, world_rank <= 1 ? (size_t) SHARE_BYTES : 1);
  MPI_Win_lock_all (MPI_MODE_NOCHECK, dwin);
  if (policy == NULL)
    {
      for (int b = -1; b < PARAM_BATCHES; b++)
        {
          MPI_Barrier (MPI_COMM_WORLD);
          if (world_rank == 0)
            {
              double t0 = MPI_Wtime ();

              MPI_Put (data, (int) SHARE_BYTES, MPI_BYTE, 1, 0, (int) SHARE_BYTES, MPI_BYTE,
                       dwin);
              MPI_Win_flush (1, dwin);
              if (b >= 0)
                t[b] = MPI_Wtime () - t0;
            }
          quiet_barrier (MPI_COMM_WORLD);
        }
      if (world_rank == 0)
        result = 1e6 * median (t, PARAM_BATCHES) / (double) SHARE_BYTES;
      MPI_Win_unlock_all (dwin);
      MPI_Win_free (&dwin);
      return result;
    }
  start_runtime (MPI_COMM_WORLD, policy, relay, 1, &win, (void **) &base);
  for (int b = -1; b < PARAM_BATCHES; b++)
    {
      MPI_Barrier (MPI_COMM_WORLD);
      if (world_rank == 0)
        {
          double t0 = MPI_Wtime ();

          MPI_Put (data, (int) SHARE_BYTES, MPI_BYTE, 1, 0, (int) SHARE_BYTES, MPI_BYTE, dwin);
          MPI_Win_flush (1, dwin);
          if (b >= 0)
            t[b] = MPI_Wtime () - t0;
          check_oc (onecoll_bcast (win, base, 1, 0, NULL), "onecoll_bcast (Gbusy)");
        }
      else
        check_oc (onecoll_bcast (win, &one, 1, 0, NULL), "onecoll_bcast (Gbusy)");
      check_oc (onecoll_bcast_flush (win), "onecoll_bcast_flush (Gbusy)");
    }
  if (world_rank == 0)
    result = 1e6 * median (t, PARAM_BATCHES) / (double) SHARE_BYTES;
  check_oc (onecoll_win_free (win), "onecoll_win_free (Gbusy)");
  check_oc (onecoll_finalize (), "onecoll_finalize (Gbusy)");
  MPI_Win_unlock_all (dwin);
  MPI_Win_free (&dwin);
  return result;
}

static void
measure_params (const options *opt,
                params        *out)
{
  MPI_Comm group;
  int in_pair = world_rank < 2;
  double q;

  memset (out, 0, sizeof *out);
  if (world_size < 2)
    {
      if (world_rank == 0)
        fprintf (stderr, "sextant-bench-bcast: the parameters need at least 2 ranks; skipped\n");
      return;
    }
  MPI_Comm_split (MPI_COMM_WORLD, in_pair ? 0 : 1, world_rank, &group);
  if (in_pair)
    {
      measure_rma_params (group, out);
      /* Or needs a rank that picks a request up: only the paper's runtime
       * has one at p = 2 (with ONECOLL_RELAY_WAITER the root completes a
       * leaf itself); the third number is that direct delivery, for
       * information. */
      out->bin2_us[0] = measure_bin2 (group, &opt->adaptive, ONECOLL_RELAY_BROADCASTER, 300);
      out->bin2_us[1] = measure_bin2 (group, &opt->fixed, ONECOLL_RELAY_BROADCASTER, 100);
      out->bin2_us[2] = measure_bin2 (group, &opt->adaptive, ONECOLL_RELAY_WAITER, 300);
    }
  quiet_barrier (MPI_COMM_WORLD);
  MPI_Comm_free (&group);
  measure_share (out);
  out->Gquiet_us_per_byte = measure_busy (NULL, ONECOLL_RELAY_WAITER);
  out->Gbusy_us_per_byte[0] = measure_busy (&opt->adaptive, ONECOLL_RELAY_WAITER);
  out->Gbusy_us_per_byte[1] = measure_busy (&opt->fixed, ONECOLL_RELAY_BROADCASTER);

  q = out->o_us > out->g_us ? out->o_us : out->g_us;
  for (int k = 0; k < 2; k++)
    out->Or_us[k] = out->bin2_us[k] - 2 * out->o_us - 2 * q - 2 * out->L_us;
}

static void
print_params (const params *pr)
{
  printf ("# LogP/LogGP parameters (ranks 0 and 1 of %d, MPI RMA; minimum over %d batches,\n"
          "# Or from the median over broadcasts)\n", world_size, PARAM_BATCHES);
  printf ("#   o     = %9.3f us   MPI_Put(8 B) + MPI_Win_flush\n", pr->o_us);
  printf ("#   o_acc = %9.3f us   MPI_Accumulate(8 B, REPLACE) + flush\n", pr->o_acc_us);
  printf ("#   g     = %9.3f us   gap between back-to-back puts\n", pr->g_us);
  printf ("#   RTT   = %9.3f us   flag ping-pong\n", pr->rtt_us);
  printf ("#   L     = %9.3f us   RTT/2 - o_acc\n", pr->L_us);
  printf ("#   G     = %9.6f ns/B (%.2f GB/s; fit on puts >= %d MiB, intercept %.1f us)\n",
          1e3 * pr->G_us_per_byte, pr->G_us_per_byte > 0 ? 1e-3 / pr->G_us_per_byte : 0.0,
          (int) (G_FIT_FROM / MIB), pr->G_icpt_us);
  printf ("#   Gnode = %9.6f ns/B (%.2f GB/s; 2 ranks putting %d MiB each at once)\n",
          1e3 * pr->Gnode_us_per_byte,
          pr->Gnode_us_per_byte > 0 ? 1e-3 / pr->Gnode_us_per_byte : 0.0,
          (int) (PARAM_WIN / 2 / MIB));
  printf ("#   Gshare(n) = time / bytes moved, n ranks putting %d MiB each at once (median):",
          (int) (SHARE_BYTES / MIB));
  for (int k = 0; k < pr->n_share; k++)
    printf (" n=%d %.4f ns/B", pr->share_n[k], 1e3 * pr->share_us_per_byte[k]);
  printf ("\n");
  printf ("#   Gbusy = %9.6f ns/B adaptive, %9.6f ns/B fixed (one %d MiB put while the\n"
          "#           other ranks wait in onecoll_bcast_flush; median); Gquiet = %9.6f ns/B\n"
          "#           (the same put while they sleep)\n",
          1e3 * pr->Gbusy_us_per_byte[0], 1e3 * pr->Gbusy_us_per_byte[1],
          (int) (SHARE_BYTES / MIB), 1e3 * pr->Gquiet_us_per_byte);
  printf ("#   puts  =");
  for (int k = 0; k < pr->n_gfit; k++)
    printf (" %.0f MiB %.0f us%s", pr->gfit_bytes[k] / MIB, pr->gfit_us[k],
            k + 1 < pr->n_gfit ? "," : "\n");
  printf ("#   Or    = %9.3f us adaptive, %9.3f us fixed (from 1-byte binomial p=2 with\n"
          "#           Broadcaster relays: %.3f / %.3f us; adaptive with the root completing\n"
          "#           the leaf itself: %.3f us)\n",
          pr->Or_us[0], pr->Or_us[1], pr->bin2_us[0], pr->bin2_us[1], pr->bin2_us[2]);
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
      check_oc (onecoll_bcast (ctx->win, dst, m, ROOT, &opts), "onecoll_bcast");
      check_oc (onecoll_bcast_flush (ctx->win), "onecoll_bcast_flush");
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
  double *tmax = world_rank == 0 ? xmalloc (sizeof *tmax * (size_t) n) : NULL;

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
      res->med_us = 1e6 * median (tmax, n);
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
  int cls = size_class (m);
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

      check_oc (onecoll_config_init (&cfg), "onecoll_config_init");
      cfg.waiter = session == SESSION_FIXED ? opt->fixed : opt->adaptive;
      cfg.flush = cfg.waiter;
      cfg.relay = session == SESSION_ADAPTIVE ? ONECOLL_RELAY_WAITER : ONECOLL_RELAY_BROADCASTER;
      cfg.help_after_ns = opt->help_after_ns;
      check_oc (onecoll_init (MPI_COMM_WORLD, &cfg), "onecoll_init");
      check_oc (onecoll_win_create (m > 0 ? m : 1, NULL, &ctx.win), "onecoll_win_create");
      check_oc (onecoll_win_get_base (ctx.win, &base, NULL), "onecoll_win_get_base");
      ctx.wbase = base;
      /* Touch the window so that no page fault lands in a timed region. */
      memset (ctx.wbase, world_rank & 0xff, (size_t) (m > 0 ? m : 1));
    }

  for (int k = 0; k < n_members; k++)
    times[k] = xmalloc (sizeof (double) * (size_t) iters);

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
      check_oc (onecoll_win_free (ctx.win), "onecoll_win_free");
      check_oc (onecoll_finalize (), "onecoll_finalize");
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
    die ("cannot write %s: %s", opt->json_path, strerror (errno));
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
    die ("cannot write %s: %s", opt->json_path, strerror (errno));
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
    die ("MPI provides thread level %d, onecoll needs MPI_THREAD_MULTIPLE", provided);
  parse_options (&opt, argc, argv);

  if (world_rank == 0 && opt.csv_path != NULL)
    {
      csv = fopen (opt.csv_path, "w");
      if (csv == NULL)
        die ("cannot write %s: %s", opt.csv_path, strerror (errno));
      fprintf (csv, "p,bytes,variant,algo,policy,buffer,iters,warmup,"
                    "avg_us,min_us,max_us,root_us,med_us,itmax_us\n");
    }

  memset (&pr, 0, sizeof pr);
  if (opt.params)
    {
      measure_params (&opt, &pr);
      have_params = world_size >= 2;
      if (world_rank == 0 && have_params)
        print_params (&pr);
    }

  if (!opt.params_only)
    {
      for (int k = 0; k < opt.n_sizes; k++)
        if (opt.sizes[k] > max_m)
          max_m = opt.sizes[k];
      ubuf = xmalloc ((size_t) max_m);
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
        die ("cannot write %s: %s", opt.csv_path, strerror (errno));
      if (opt.json_path != NULL)
        write_json (&opt, &pr, have_params);
    }
  MPI_Finalize ();
  return 0;
}
