/*
 * main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant COMMAND ...`: dispatches to the subcommands of sextant-cli.c;
 * `sextant [FILE...]` (and `sextant open [FILE...]`, as it was first
 * called) starts the application window (sextant-application.c).
 */
#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sextant-cli.h"
#ifdef SEXTANT_HAVE_GUI
#include "sextant-application.h"
#endif

typedef struct
{
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "import", sextant_cli_import, "Import an OTF2 archive into a trace store" },
  { "info",    sextant_cli_info,    "Summarise a trace store or archive (--json)" },
  { "analyze", sextant_cli_analyze, "Find inefficiency patterns, linked to source lines (--json)" },
  { "report",  sextant_cli_report,  "Write a report: -f html|md|csv|json -o OUT" },
  { "tree",    sextant_cli_tree,    "The tree of a collective: --collective ID [--json]" },
  { "matrix",  sextant_cli_matrix,  "The communication matrix: --metric bytes|count|time [--json|--csv]" },
  { "sim",     sextant_cli_sim,     "Model hardware collective trees: sim torus --dims 16x16x32 --op bcast; sim replay STORE --dims 4x4x2" },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream,
           "Usage: sextant COMMAND [OPTION...] ARGS\n"
#ifdef SEXTANT_HAVE_GUI
           "       sextant [OPTION...] [ARCHIVE|DB...]   (the application window)\n"
#endif
           "\nSextant %s - find where an MPI program lost its time.\n\nCommands:\n",
           PACKAGE_VERSION);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf (stream, "\nRun 'sextant COMMAND --help' for the options of a command");
#ifdef SEXTANT_HAVE_GUI
  fprintf (stream, ", 'sextant --help-window' for the window's");
#endif
  fprintf (stream, ".\n");
}

/* `sextant import` runs itself again with glibc's malloc told to ask for
 * transparent huge pages (the tunable glibc.malloc.hugetlb=1, which glibc
 * reads only when a process starts). The import's memory is touched once,
 * page by page: libotf2's two 1 MiB chunks per location, the column
 * chunks, the matcher's rings. On the development VM a page fault costs
 * several microseconds, and with huge pages the import of the 64-rank
 * collective-heavy benchmark trace took 25 % less CPU time (46,000 -> 15,000
 * page faults; docs/benchmarks.md, "Import speed"). Not when the tunable is
 * set already (then this is the run again, or the user chose), when
 * SEXTANT_NO_HUGE_PAGES is set, or when the exec fails. */
static void
import_with_huge_pages (char **argv)
{
  const char *tunables = g_getenv ("GLIBC_TUNABLES");
  g_autofree char *with = NULL;

  if (g_getenv ("SEXTANT_NO_HUGE_PAGES") != NULL ||
      (tunables != NULL && strstr (tunables, "glibc.malloc.hugetlb") != NULL))
    return;

  with = tunables != NULL && tunables[0] != '\0' ? g_strconcat (tunables, ":glibc.malloc.hugetlb=1", NULL)
                                                  : g_strdup ("glibc.malloc.hugetlb=1");
  if (!g_setenv ("GLIBC_TUNABLES", with, TRUE))
    return;
  execv ("/proc/self/exe", argv);
  /* still here: carry on without */
  if (tunables != NULL)
    g_setenv ("GLIBC_TUNABLES", tunables, TRUE);
  else
    g_unsetenv ("GLIBC_TUNABLES");
}

int
main (int    argc,
      char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "import"))
    import_with_huge_pages (argv);

  setlocale (LC_ALL, "");
  g_set_prgname ("sextant");
  /* a file size limit (ulimit -f) makes writes fail with EFBIG, which the
   * store reports, instead of killing the process mid-import */
  signal (SIGXFSZ, SIG_IGN);

  if (argc >= 2 && (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help")))
    {
      print_usage (stdout);
      return 0;
    }

  if (argc >= 2 && g_str_equal (argv[1], "--version"))
    {
      printf ("sextant %s\n", PACKAGE_VERSION);
      return 0;
    }

  for (guint i = 0; argc >= 2 && i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      return commands[i].run (argc - 1, argv + 1);

#ifdef SEXTANT_HAVE_GUI
  /* `sextant open ARGS` is `sextant ARGS`; --help-window is the window's --help */
  if (argc >= 2 && g_str_equal (argv[1], "open"))
    {
      argv[1] = argv[0];
      argc--;
      argv++;
    }
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--help-window"))
      argv[i] = (char *)"--help";
  /* a mistyped command, not a trace */
  if (argc >= 2 && argv[1][0] != '-' && strpbrk (argv[1], "/.") == NULL &&
      !g_file_test (argv[1], G_FILE_TEST_EXISTS))
    {
      fprintf (stderr, "sextant: unknown command '%s' (nor is it a file to open)\n\n", argv[1]);
      print_usage (stderr);
      return 2;
    }
  return sextant_application_main (argc, argv);
#else
  if (argc < 2)
    {
      print_usage (stderr);
      return 2;
    }
  fprintf (stderr, "sextant: unknown command '%s' (this build has no window)\n\n", argv[1]);
  print_usage (stderr);
  return 2;
#endif
}
