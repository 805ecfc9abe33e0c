/*
 * sextant-bench-sim-simgrid.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-bench-sim-simgrid DIMS [SIMGRID_OPTIONS...]
 *
 * The point-to-point broadcast over the dimension-ordered tree of sim/, run
 * in SimGrid 3.32 instead (docs/sim.md, "SimGrid"): a TORUS cluster of the
 * same dimensions (links of 80 + 2 ns, 16 bytes per 2 ns), one actor per
 * node that receives the 256-byte message from its parent, waits the
 * ejection latency, then per child (deepest subtree first) waits the
 * injection occupancy and sends, the injection latency slept first. It
 * prints SimGrid's simulated completion time and the model's, and the
 * CPU time of each, for the comparison in docs/sim.md.
 *
 * Workload: SimGrid's engine, one actor (a context with its own stack) per
 * node; the platform is an XML file written to a temporary directory.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>

#include "sextant-torus-sim.h"

#define MESSAGE_BYTES 256

static SextantTorusTree *tree;
static SextantTorus *torus;
static SextantTorusParams params;
static double finished;

static sg_mailbox_t
mailbox_of (guint node)
{
  char name[32];

  g_snprintf (name, sizeof name, "mb-%u", node);
  return sg_mailbox_by_name (name);
}

static void
node_main (int    argc,
           char **argv)
{
  guint node = (guint)atoi (argv[1]);
  guint8 dirs[SEXTANT_TORUS_MAX_DIRS];
  guint n_children = sextant_torus_tree_get_children (tree, node, dirs);
  double flits = MESSAGE_BYTES / 16 * (1e-6 / params.router_clock_mhz);

  if (node != sextant_torus_tree_get_root (tree))
    {
      sg_mailbox_get (mailbox_of (node));
      sg_actor_sleep_for (params.eject_latency_ns * 1e-9);
      if (g_getenv ("SEXTANT_SIMGRID_DEBUG"))
        fprintf (stderr, "node %u at %.1f ns\n", node, simgrid_get_clock () * 1e9);
      if (simgrid_get_clock () > finished)
        finished = simgrid_get_clock ();
    }
  /* the first packet reaches the router after the injection latency; the
   * next child's message after this one's flits */
  if (n_children > 0)
    sg_actor_sleep_for (params.inject_latency_ns * 1e-9);
  for (guint c = 0; c < n_children; c++)
    {
      guint child = sextant_torus_get_neighbor (torus, node, dirs[c]);

      sg_comm_detach (sg_mailbox_put_init (mailbox_of (child), &finished, MESSAGE_BYTES), NULL);
      sg_actor_sleep_for (flits);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *platform = NULL;
  g_autofree char *xml = NULL;
  g_autofree char *topo = NULL;
  g_autoptr(SextantTorusSim) sim = NULL;
  SextantTorusJob job;
  clock_t t0;
  double model_cpu, simgrid_cpu;
  guint n;

  if (argc < 2)
    {
      fprintf (stderr, "usage: sextant-bench-sim-simgrid DIMS [SIMGRID_OPTIONS...]\n");
      return 2;
    }
  if (!(torus = sextant_torus_new_from_string (argv[1], &error)))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  n = sextant_torus_get_n_nodes (torus);
  sextant_torus_params_init (&params);

  /* the model */
  sextant_torus_job_init (&job);
  sim = sextant_torus_sim_run (torus, &params, &job, &error);
  g_assert_no_error (error);
  model_cpu = sextant_torus_sim_get_cpu_seconds (sim);

  /* SimGrid: X fastest in SimGrid's torus ranks as in sim/ */
  t0 = clock ();
  tree = sextant_torus_tree_new_dimension_order (torus, 0, &error);
  g_assert_no_error (error);
  topo = g_strdup (argv[1]);
  g_strdelimit (topo, "x", ',');
  dir = g_dir_make_tmp ("sextant-simgrid-XXXXXX", &error);
  g_assert_no_error (error);
  platform = g_build_filename (dir, "torus.xml", NULL);
  xml = g_strdup_printf ("<?xml version='1.0'?>\n"
                         "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                         "<platform version=\"4.1\">\n"
                         "  <cluster id=\"torus\" prefix=\"node-\" suffix=\"\" radical=\"0-%u\" speed=\"1Gf\"\n"
                         "           bw=\"%gBps\" lat=\"%gns\" topology=\"TORUS\" topo_parameters=\"%s\"/>\n"
                         "</platform>\n",
                         n - 1, 16 * params.router_clock_mhz * 1e6,
                         params.link_latency_ns + params.router_cycles * 1e3 / params.router_clock_mhz, topo);
  g_file_set_contents (platform, xml, -1, &error);
  g_assert_no_error (error);

  simgrid_init (&argc, argv);
  simgrid_load_platform (platform);
  for (guint v = 0; v < n; v++)
    {
      char host_name[32], arg[16];
      char *args[] = { (char *)"node", arg, NULL };

      g_snprintf (host_name, sizeof host_name, "node-%u", v);
      g_snprintf (arg, sizeof arg, "%u", v);
      sg_actor_create ("node", sg_host_by_name (host_name), node_main, 2, args);
    }
  simgrid_run ();
  simgrid_cpu = (double)(clock () - t0) / CLOCKS_PER_SEC;

  printf ("{ \"dims\": \"%s\", \"nodes\": %u, \"model_p2p_ns\": %.3f, \"simgrid_p2p_ns\": %.3f, "
          "\"model_cpu_s\": %.4f, \"simgrid_cpu_s\": %.4f }\n",
          argv[1], n, sextant_torus_sim_get_p2p_ps (sim) / 1e3, finished * 1e9, model_cpu, simgrid_cpu);

  g_remove (platform);
  g_rmdir (dir);
  sextant_torus_tree_free (tree);
  sextant_torus_unref (torus);

  return 0;
}
