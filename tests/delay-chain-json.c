/*
 * delay-chain-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   delay-chain-json DB INSTANCE [MAX_DEPTH]
 *
 * Prints the delay chain behind a pattern instance as `sextant tree
 * --instance ID --json` prints it (sextant_comm_tree_to_json()), or the
 * error and exit status 1: tests/test-delay-chain.py reads chains through
 * it until `sextant tree` has --instance.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sextant-graph.h"
#include "sextant-report.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantCommTree) chain = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autofree char *text = NULL;

  if (argc < 3 || argc > 4)
    {
      fprintf (stderr, "usage: delay-chain-json DB INSTANCE [MAX_DEPTH]\n");
      return 2;
    }

  if (!(store = sextant_store_open (argv[1], &error)) ||
      !(chain = sextant_graph_build_delay_chain (store, g_ascii_strtoll (argv[2], NULL, 10),
                                                 argc > 3 ? (guint)atoi (argv[3]) : 0, &error)))
    {
      fprintf (stderr, "delay-chain-json: %s\n", error->message);
      return 1;
    }

  json = sextant_comm_tree_to_json (chain);
  text = sextant_report_json_to_data (json);
  printf ("%s\n", text);

  return 0;
}
