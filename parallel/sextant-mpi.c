/*
 * sextant-mpi.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sextant-mpi: Sextant's engine for traces larger than one workstation,
 * run under mpirun (docs/parallel.md).
 *
 *   mpirun -np N sextant-mpi import ARCHIVE -o MANIFEST [--stats]
 *   mpirun -np N sextant-mpi analyze MANIFEST [-p ID]... [--param K=V]...
 *
 * Exit status 0 on success, 1 when the import or analysis failed (rank 0
 * prints every failed rank and why), 2 for a wrong command line.
 */
#include "config.h"

#include <locale.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "sextant-mpi-analyze.h"
#include "sextant-mpi-import.h"

/* The cores this process may run on (its affinity mask), or the node's */
static int
cores_allowed (long online)
{
  cpu_set_t set;

  CPU_ZERO (&set);
  if (sched_getaffinity (0, sizeof set, &set) == 0 && CPU_COUNT (&set) > 0)
    return CPU_COUNT (&set);

  return (int)MAX (online, 1);
}

/* The importer's threads per rank: the node's cores shared among its ranks,
 * at most the cores the rank may run on (SEXTANT_IMPORT_THREADS, when set,
 * decides). Where mpirun bound the ranks (Open MPI binds a job of one or
 * two ranks to a core each), a rank's threads share its cores, and rank 0
 * says so when its node's ranks leave cores idle. */
static void
share_cores (const char *command)
{
  MPI_Comm node;
  int on_node = 1;
  int world_rank = 0;
  long online = MAX (sysconf (_SC_NPROCESSORS_ONLN), 1);
  int bound = cores_allowed (online);
  int node_bound = bound;

  MPI_Comm_rank (MPI_COMM_WORLD, &world_rank);
  MPI_Comm_split_type (MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size (node, &on_node);
  MPI_Allreduce (&bound, &node_bound, 1, MPI_INT, MPI_SUM, node);
  MPI_Comm_free (&node);
  if (g_getenv ("SEXTANT_IMPORT_THREADS") == NULL)
    {
      g_autofree char *threads = g_strdup_printf ("%d", (int)MAX (1, MIN (bound, online / MAX (on_node, 1))));

      g_setenv ("SEXTANT_IMPORT_THREADS", threads, TRUE);
      if (world_rank == 0 && node_bound < online)
        fprintf (stderr, "sextant-mpi %s: the %d rank(s) on this node may run on %d of its %ld cores (mpirun "
                 "binds them); `mpirun --bind-to none` lets their threads use the others\n",
                 command, on_node, node_bound, online);
    }
}

/* Rank 0: the bytes the ranks exchanged, and with @stats each rank's
 * bytes and the CPU its exchange took */
static void
print_volume (const char *manifest,
              const char *archive,
              GArray     *volume,
              gboolean    stats)
{
  guint n = volume->len / 3;
  guint64 total = 0;
  guint64 most_out = 0;
  guint64 most_in = 0;

  for (guint r = 0; r < n; r++)
    {
      guint64 out = g_array_index (volume, guint64, 3 * r);
      guint64 in = g_array_index (volume, guint64, 3 * r + 1);
      guint64 cpu_usec = g_array_index (volume, guint64, 3 * r + 2);

      total += out;
      most_out = MAX (most_out, out);
      most_in = MAX (most_in, in);
      if (stats)
        printf ("rank %u: sent %" G_GUINT64_FORMAT " bytes, received %" G_GUINT64_FORMAT " bytes; the exchange took "
                "%.3f s of CPU\n", r, out, in, cpu_usec / 1e6);
    }
  printf ("%s: %u shard(s) of %s; the ranks exchanged %" G_GUINT64_FORMAT " bytes (the most from one rank: %"
          G_GUINT64_FORMAT ", to one rank: %" G_GUINT64_FORMAT ")\n", manifest, n, archive, total, most_out, most_in);
}

static int
run_import (int    argc,
            char **argv,
            int    rank)
{
  g_autofree char *manifest = NULL;
  gboolean stats = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &manifest, "The manifest to write (required)", "MANIFEST" },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats, "Print the bytes each rank sent and received in the exchange, and its CPU", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("ARCHIVE - import an OTF2 archive on all ranks");
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantShardExchange) exchange = NULL;
  g_autoptr(GArray) volume = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || manifest == NULL)
    {
      if (rank == 0)
        fprintf (stderr, "sextant-mpi import: %s\nUsage: sextant-mpi import ARCHIVE -o MANIFEST [--stats]\n",
                 error != NULL ? error->message : argc != 2 ? "name one archive" : "the manifest (-o) is required");
      return 2;
    }

  share_cores ("import");
  exchange = sextant_shard_exchange_new (MPI_COMM_WORLD);
  if (!sextant_mpi_import (exchange, MPI_COMM_WORLD, argv[1], manifest, &error))
    {
      if (rank == 0)
        fprintf (stderr, "sextant-mpi import: %s\n", error->message);
      return 1;
    }
  if ((volume = sextant_shard_exchange_gather_volume (exchange)) != NULL)
    print_volume (manifest, argv[1], volume, stats);

  return 0;
}

static int
run_analyze (int    argc,
             char **argv,
             int    rank)
{
  g_auto(GStrv) patterns = NULL;
  g_auto(GStrv) params = NULL;
  GOptionEntry entries[] = {
    { "pattern", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &patterns, "Run only this pattern and those below it (repeatable)",
      "ID" },
    { "param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &params, "Set a parameter: name=value or pattern.name=value (repeatable)",
      "K=V" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("MANIFEST - analyse a parallel import's shards, one a rank");
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantShardExchange) exchange = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      if (rank == 0)
        fprintf (stderr, "sextant-mpi analyze: %s\nUsage: sextant-mpi analyze MANIFEST [-p ID]... [--param K=V]...\n",
                 error != NULL ? error->message : "name one manifest");
      return 2;
    }

  share_cores ("analyze");
  exchange = sextant_shard_exchange_new (MPI_COMM_WORLD);
  if (!sextant_mpi_analyze (exchange, argv[1], patterns, params, &error))
    {
      if (rank == 0)
        fprintf (stderr, "sextant-mpi analyze: %s\n", error->message);
      return 1;
    }
  if (rank == 0)
    printf ("%s: %d shard(s) analysed\n", argv[1], (int)sextant_shard_exchange_get_size (exchange));

  return 0;
}

int
main (int    argc,
      char **argv)
{
  int provided = 0;
  int rank = 0;
  int status;

  setlocale (LC_ALL, "");
  MPI_Init_thread (&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);

  if (argc >= 2 && g_strcmp0 (argv[1], "import") == 0)
    status = run_import (argc - 1, argv + 1, rank);
  else if (argc >= 2 && g_strcmp0 (argv[1], "analyze") == 0)
    status = run_analyze (argc - 1, argv + 1, rank);
  else
    {
      if (rank == 0)
        fprintf (stderr, "Usage: sextant-mpi import ARCHIVE -o MANIFEST [--stats]\n"
                         "       sextant-mpi analyze MANIFEST [-p ID]... [--param K=V]...\n");
      status = 2;
    }

  MPI_Finalize ();

  return status;
}
