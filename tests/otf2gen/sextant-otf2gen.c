/* sextant-otf2gen.c - writes the OTF2 archives the importer tests read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-otf2gen [--force] SCENARIO OUTDIR   write OUTDIR/traces.otf2 (+ defs, events;
 *                                               unknown-anchor: OUTDIR/weird.otf2)
 *   sextant-otf2gen --expect SCENARIO           print the expected per-location
 *                                               record counts (LOCATION KIND COUNT)
 *   sextant-otf2gen --expect-patterns           print the pattern instances planted
 *                                               in the planted-* scenarios (JSON)
 *   sextant-otf2gen --expect-instances SCENARIO print the lock_contention instances
 *                                               of a lock-storm scenario
 *   sextant-otf2gen --list                      list the scenarios
 *
 * The scenarios are described in otf2gen-every-kind.h (every-kind),
 * otf2gen-scenarios.h (the small ones), otf2gen-planted.h (planted-*: wait
 * states of known size for the pattern tests) and otf2gen-locks.h
 * (lock-storm*: many contended locks) and otf2gen-threads.h (threads-recv:
 * messages to a rank with two receiving threads; threads-colls: collectives
 * of two threads per rank; threads-wait: requests one thread starts and
 * another completes; threads-nbc: non-blocking collectives and cancelled
 * requests likewise).  Output is deterministic: the
 * same scenario always gives the same records.
 *
 * Exit status: 0 on success, 1 when writing fails, 2 for bad arguments.
 */

#include "config.h"

#include <stdlib.h>

#include "otf2gen-locks.h"
#include "otf2gen-planted.h"
#include "otf2gen-scenarios.h"
#include "otf2gen-threads.h"
#include "otf2gen-writer.h"

#define EXIT_USAGE 2

/* What a small trace is made of; the tables live in otf2gen-scenarios.h. */
typedef struct
{
  OTF2_LocationRef  id;
  const SmallEvent *events;
  guint             n_events;
} SmallLocation;

typedef struct
{
  const char          *archive_name;
  gboolean             with_clock;
  gboolean             duplicate_group;
  const SmallLocation *locations;
  guint                n_locations;
} SmallTrace;

static void
small_write_events (SextantGen          *gen,
                    SextantGenLocation  *loc,
                    const SmallLocation *desc)
{
  for (guint i = 0; i < desc->n_events; i++)
    {
      const SmallEvent *e = &desc->events[i];
      OTF2_TimeStamp ts = sextant_gen_backwards_ts (gen, loc, e->ts);

      if (e->enter)
        SEXTANT_GEN_EVENT (gen, loc, ts, Enter, e->region);
      else
        SEXTANT_GEN_EVENT (gen, loc, ts, Leave, e->region);
    }
}

static void
small_write_definitions (SextantGen          *gen,
                         const SmallTrace    *trace,
                         SextantGenLocation **locs)
{
  OTF2_StringRef file = sextant_gen_string (gen, SMALL_FILE);
  OTF2_StringRef main_name = sextant_gen_string (gen, "main");
  OTF2_StringRef work_name = sextant_gen_string (gen, "work");
  OTF2_StringRef empty = sextant_gen_string (gen, "");
  g_autofree uint64_t *members = g_new0 (uint64_t, trace->n_locations);

  if (trace->with_clock)
    sextant_gen_write_clock (gen, SMALL_TIMER_RESOLUTION, 0, SMALL_TRACE_LENGTH, OTF2_UNDEFINED_TIMESTAMP);

  SEXTANT_GEN_DEF (gen, SystemTreeNode, 0, sextant_gen_string (gen, "localhost"),
                   sextant_gen_string (gen, "node"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);

  for (guint i = 0; i < trace->n_locations; i++)
    {
      g_autofree char *group_name = g_strdup_printf ("MPI Rank %u", i);

      SEXTANT_GEN_DEF (gen, LocationGroup, i, sextant_gen_string (gen, group_name),
                       OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
      /* between the first location groups, as a row an importer may
       * write with those of the others */
      if (trace->duplicate_group && i == 0)
        SEXTANT_GEN_DEF (gen, LocationGroup, 0, sextant_gen_string (gen, SMALL_DUP_LOCATION_GROUP_NAME),
                         OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    }

  for (guint i = 0; i < trace->n_locations; i++)
    {
      SEXTANT_GEN_DEF (gen, Location, trace->locations[i].id, sextant_gen_string (gen, "Master thread"),
                       OTF2_LOCATION_TYPE_CPU_THREAD, locs[i]->n_events, i);
      members[i] = trace->locations[i].id;
    }

  SEXTANT_GEN_DEF (gen, Region, SMALL_REGION_MAIN, main_name, main_name, empty, OTF2_REGION_ROLE_FUNCTION,
                   OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, file, SMALL_MAIN_LINES);
  SEXTANT_GEN_DEF (gen, Region, SMALL_REGION_WORK, work_name, work_name, empty, OTF2_REGION_ROLE_LOOP,
                   OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, file, SMALL_WORK_LINES);

  if (trace->duplicate_group)
    {
      const uint64_t second_members[] = { trace->locations[trace->n_locations - 1].id };

      SEXTANT_GEN_DEF (gen, Group, SMALL_DUP_GROUP, sextant_gen_string (gen, SMALL_DUP_GROUP_FIRST_NAME),
                       OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                       trace->n_locations, members);
      SEXTANT_GEN_DEF (gen, Group, SMALL_DUP_GROUP, sextant_gen_string (gen, SMALL_DUP_GROUP_SECOND_NAME),
                       OTF2_GROUP_TYPE_LOCATIONS, OTF2_PARADIGM_UNKNOWN, OTF2_GROUP_FLAG_NONE,
                       G_N_ELEMENTS (second_members), second_members);
    }
}

static gboolean
small_write (const SmallTrace  *trace,
             const char        *outdir,
             gboolean           force,
             GError           **error)
{
  g_autoptr(SextantGen) gen = NULL;
  g_autofree SextantGenLocation **locs = NULL;

  if (!(gen = sextant_gen_new (outdir, trace->archive_name, force, error)))
    return FALSE;

  locs = g_new0 (SextantGenLocation *, trace->n_locations);
  for (guint i = 0; i < trace->n_locations; i++)
    {
      locs[i] = sextant_gen_add_location (gen, trace->locations[i].id);
      small_write_events (gen, locs[i], &trace->locations[i]);
    }

  sextant_gen_begin_definitions (gen);
  small_write_definitions (gen, trace, locs);

  return sextant_gen_finish (gen, error);
}

static const SmallLocation small_tiny_locations[] = {
  { 0, small_tiny_loc0, G_N_ELEMENTS (small_tiny_loc0) },
  { 1, small_tiny_loc1, G_N_ELEMENTS (small_tiny_loc1) },
};

static const SmallLocation small_clock_less_locations[] = {
  { SMALL_CL_LOC_A, small_cl_loc_a, G_N_ELEMENTS (small_cl_loc_a) },
  { SMALL_CL_LOC_B, small_cl_loc_b, G_N_ELEMENTS (small_cl_loc_b) },
};

static const SmallLocation small_disorder_locations[] = {
  { 0, small_disorder_loc0, G_N_ELEMENTS (small_disorder_loc0) },
  { 1, small_tiny_loc1, G_N_ELEMENTS (small_tiny_loc1) },
};

static const SmallTrace small_clock_less = {
  "traces", FALSE, FALSE, small_clock_less_locations, G_N_ELEMENTS (small_clock_less_locations)
};

static const SmallTrace small_disorder = {
  "traces", TRUE, TRUE, small_disorder_locations, G_N_ELEMENTS (small_disorder_locations)
};

static const SmallTrace small_unknown_anchor = {
  SMALL_WEIRD_ARCHIVE_NAME, TRUE, FALSE, small_tiny_locations, G_N_ELEMENTS (small_tiny_locations)
};

/* The --expect output of a small trace: its ENTER and LEAVE counts per location. */
static void
small_expect (const SmallTrace *trace,
              FILE             *out)
{
  for (guint i = 0; i < trace->n_locations; i++)
    {
      const SmallLocation *loc = &trace->locations[i];
      guint n_enter = 0;

      for (guint e = 0; e < loc->n_events; e++)
        n_enter += loc->events[e].enter ? 1 : 0;
      fprintf (out, "%" G_GUINT64_FORMAT " ENTER %u\n", (guint64) loc->id, n_enter);
      fprintf (out, "%" G_GUINT64_FORMAT " LEAVE %u\n", (guint64) loc->id, loc->n_events - n_enter);
    }
}

static const struct
{
  const char       *name;
  const SmallTrace *small;     /* NULL: every-kind */
  const char       *summary;
} scenarios[] = {
  { "every-kind",     NULL,                  "4 ranks + 1 thread, every MPI/thread/RMA record kind" },
  { "clock-less",     &small_clock_less,     "no CLOCK_PROPERTIES, sparse 64-bit location ids" },
  { "disorder",       &small_disorder,       "time goes backwards once, duplicate GROUP id" },
  { "unknown-anchor", &small_unknown_anchor, "tiny trace whose anchor is weird.otf2" },
};

static char *
scenario_list (void)
{
  GString *s = g_string_new ("Scenarios:\n");

  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    g_string_append_printf (s, "  %-16s %s\n", scenarios[i].name, scenarios[i].summary);
  for (guint i = 0; i < G_N_ELEMENTS (pl_scenarios); i++)
    g_string_append_printf (s, "  %-16s %s\n", pl_scenarios[i].name, pl_scenarios[i].summary);
  g_string_append_printf (s, "  %-16s %s\n", "lock-storm", "4 ranks, 50,000 contended lock acquisitions");
  g_string_append_printf (s, "  %-16s %s\n", "lock-storm-small", "the same, 2,000 acquisitions");
  g_string_append_printf (s, "  %-16s %s\n", "threads-recv", "two threads of rank 1 receive from rank 0");
  g_string_append_printf (s, "  %-16s %s\n", "threads-colls", "two threads per rank call collectives on two communicators");
  g_string_append_printf (s, "  %-16s %s\n", "threads-wait", "one thread per rank starts requests, the other completes them");
  g_string_append_printf (s, "  %-16s %s\n", "threads-nbc",
                          "one thread per rank starts non-blocking collectives, the other completes them");

  return g_string_free (s, FALSE);
}

static int
scenario_lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    if (g_str_equal (scenarios[i].name, name))
      return i;

  return -1;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *list = scenario_list ();
  gboolean force = FALSE;
  gboolean expect = FALSE;
  gboolean show_list = FALSE;
  gboolean expect_patterns = FALSE;
  gboolean expect_instances = FALSE;
  const GOptionEntry entries[] = {
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, "Replace an existing archive of the same name", NULL },
    { "expect", 0, 0, G_OPTION_ARG_NONE, &expect,
      "Print SCENARIO's expected record counts (LOCATION KIND COUNT) instead of writing it", NULL },
    { "expect-patterns", 0, 0, G_OPTION_ARG_NONE, &expect_patterns,
      "Print the pattern instances planted in the planted-* scenarios (JSON)", NULL },
    { "expect-instances", 0, 0, G_OPTION_ARG_NONE, &expect_instances,
      "Print the lock_contention instances of a lock-storm SCENARIO", NULL },
    { "list", 0, 0, G_OPTION_ARG_NONE, &show_list, "List the scenarios", NULL },
    { NULL }
  };
  const SmallTrace *small;
  const PlScenario *planted;
  gboolean ok;
  int scenario = -1;

  context = g_option_context_new ("SCENARIO OUTDIR");
  g_option_context_set_summary (context, "Write a synthetic OTF2 archive for Sextant's importer tests.");
  g_option_context_set_description (context, list);
  g_option_context_add_main_entries (context, entries, NULL);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("sextant-otf2gen: %s (try --help)\n", error->message);
      return EXIT_USAGE;
    }

  if (show_list)
    {
      g_print ("%s", list);
      return EXIT_SUCCESS;
    }

  if (expect_patterns)
    {
      if (argc != 1)
        {
          g_printerr ("sextant-otf2gen: --expect-patterns takes no arguments (try --help)\n");
          return EXIT_USAGE;
        }
      sextant_otf2gen_planted_expect_patterns (stdout);
      return EXIT_SUCCESS;
    }

  if (argc != (expect || expect_instances ? 2 : 3))
    {
      g_printerr ("sextant-otf2gen: expected %s (try --help)\n",
                  expect || expect_instances ? "--expect SCENARIO" : "SCENARIO OUTDIR");
      return EXIT_USAGE;
    }

  if (sextant_otf2gen_locks_known (argv[1]))
    {
      if (expect_instances)
        sextant_otf2gen_locks_expect_instances (argv[1], stdout);
      else if (expect)
        sextant_otf2gen_locks_expect_counts (argv[1], stdout);
      else if (!sextant_otf2gen_locks (argv[1], argv[2], force, &error))
        {
          g_printerr ("sextant-otf2gen: %s: %s\n", argv[1], error->message);
          return EXIT_FAILURE;
        }
      return EXIT_SUCCESS;
    }
  if (sextant_otf2gen_threads_known (argv[1]) && !expect && !expect_instances)
    {
      if (!sextant_otf2gen_threads (argv[1], argv[2], force, &error))
        {
          g_printerr ("sextant-otf2gen: %s: %s\n", argv[1], error->message);
          return EXIT_FAILURE;
        }
      return EXIT_SUCCESS;
    }
  if (expect_instances)
    {
      g_printerr ("sextant-otf2gen: --expect-instances takes a lock-storm scenario (try --help)\n");
      return EXIT_USAGE;
    }

  planted = sextant_otf2gen_planted_lookup (argv[1]);
  if (planted == NULL && (scenario = scenario_lookup (argv[1])) < 0)
    {
      g_printerr ("sextant-otf2gen: unknown scenario \"%s\"\n%s", argv[1], list);
      return EXIT_USAGE;
    }
  small = planted == NULL ? scenarios[scenario].small : NULL;

  if (expect)
    {
      if (planted != NULL)
        sextant_otf2gen_planted_expect_counts (planted, stdout);
      else if (small != NULL)
        small_expect (small, stdout);
      else
        sextant_otf2gen_every_kind_expect (stdout);
      return EXIT_SUCCESS;
    }

  if (planted != NULL)
    ok = sextant_otf2gen_planted (planted, argv[2], force, &error);
  else if (small != NULL)
    ok = small_write (small, argv[2], force, &error);
  else
    ok = sextant_otf2gen_every_kind (argv[2], force, &error);

  if (!ok)
    {
      g_printerr ("sextant-otf2gen: %s: %s\n", argv[1], error->message);
      return EXIT_FAILURE;
    }

  return EXIT_SUCCESS;
}
