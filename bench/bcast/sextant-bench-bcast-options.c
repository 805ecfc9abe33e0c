/*
 * sextant-bench-bcast-options.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sextant-bench-bcast's command line: every rank parses the same argv
 * into the options; a usage error exits 2 (on rank 0 with a message).
 */
#include "sextant-bench-bcast-private.h"

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

void
bench_parse_options (options *opt,
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

int
bench_size_class (int64_t m)
{
  return m < MEDIUM_FROM ? 0 : m < LARGE_FROM ? 1 : 2;
}
