/*
 * main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant COMMAND ...`: dispatches to the subcommands of sextant-cli.c.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>

#include "sextant-cli.h"
#ifdef SEXTANT_HAVE_GUI
#include "sextant-gui.h"
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
#ifdef SEXTANT_HAVE_GUI
  { "open",    sextant_gui_run,     "Open the application window on an archive or a store" },
#endif
};

static void
print_usage (FILE *stream)
{
  fprintf (stream,
           "Usage: sextant COMMAND [OPTION...] ARGS\n\n"
           "Sextant %s - find where an MPI program lost its time.\n\nCommands:\n",
           PACKAGE_VERSION);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf (stream, "\nRun 'sextant COMMAND --help' for the options of a command.\n");
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_set_prgname ("sextant");

  if (argc < 2)
    {
      print_usage (stderr);
      return 2;
    }

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      print_usage (stdout);
      return 0;
    }

  if (g_str_equal (argv[1], "--version"))
    {
      printf ("sextant %s\n", PACKAGE_VERSION);
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      return commands[i].run (argc - 1, argv + 1);

  fprintf (stderr, "sextant: unknown command '%s'\n\n", argv[1]);
  print_usage (stderr);
  return 2;
}
