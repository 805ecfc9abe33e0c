/*
 * sextant-cli-sim.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant sim torus --dims 16x16x32 --op bcast|reduce|allreduce|allgather
 * [--bytes 256] [--root N] [--trees K] [--transit LIST] [--trace DIR]
 * [--model packet|flow] [--json] [model parameters]`: runs the model of Angara's hardware
 * collective trees (sim/, docs/sim.md) and prints the hardware and the
 * point-to-point completion times and their ratio; --trace writes the run
 * as an OTF2 archive for `sextant import` and the window.
 *
 * Exit status: 0, 1 when the model or the trace fails, 2 for a usage error
 * (which includes dimensions, sizes, roots and parameters out of range).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sextant-cli.h"
#include "sextant-cli-private.h"
#include "sextant-report.h"
#include "sextant-torus-sim.h"
#include "sextant-torus-trace.h"

static gboolean
parse_nodes (const char  *text,
             GArray      *nodes)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 value;
      guint node;

      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 0, G_MAXUINT32, &value, NULL))
        return FALSE;
      node = (guint)value;
      g_array_append_val (nodes, node);
    }

  return nodes->len > 0;
}

/**
 * _sextant_cli_add_torus_params:
 * @model: (out caller-allocates): where the options go; the defaults
 *
 * Adds the model's parameter options (--link-latency ... --store-and-forward)
 * to @context's main group (sim torus, sim replay).
 */
void
_sextant_cli_add_torus_params (GOptionContext        *context,
                               SextantCliTorusParams *model)
{
  SextantTorusParams *params = &model->params;
  const GOptionEntry entries[] = {
    { "link-latency", 0, 0, G_OPTION_ARG_DOUBLE, &params->link_latency_ns, "Link latency, ns (80)", "NS" },
    { "router-clock", 0, 0, G_OPTION_ARG_DOUBLE, &params->router_clock_mhz, "Router clock, MHz (500)", "MHZ" },
    { "inject-latency", 0, 0, G_OPTION_ARG_DOUBLE, &params->inject_latency_ns, "Injection latency, ns (300)",
      "NS" },
    { "eject-latency", 0, 0, G_OPTION_ARG_DOUBLE, &params->eject_latency_ns, "Ejection latency, ns (300)", "NS" },
    { "router-cycles", 0, 0, G_OPTION_ARG_INT, &model->router_cycles, "Cycles to route a packet's head (1)", "N" },
    { "combine-cycles", 0, 0, G_OPTION_ARG_INT, &model->combine_cycles, "Cycles the Reducer adds (1)", "N" },
    { "host-overhead", 0, 0, G_OPTION_ARG_DOUBLE, &params->host_overhead_ns,
      "Host time between receiving and forwarding a point-to-point message, ns (0)", "NS" },
    { "store-and-forward", 0, 0, G_OPTION_ARG_NONE, &params->store_and_forward,
      "Routers forward a collective packet once they hold all of it", NULL },
    { NULL }
  };

  sextant_torus_params_init (params);
  model->router_cycles = (gint)params->router_cycles;
  model->combine_cycles = (gint)params->combine_cycles;
  g_option_context_add_main_entries (context, entries, NULL);
}

/* Returns: FALSE with the usage error in @bad, else the parameters in @params */
gboolean
_sextant_cli_get_torus_params (const SextantCliTorusParams  *model,
                               SextantTorusParams           *params,
                               const char                  **bad)
{
  if (model->router_cycles < 0 || model->combine_cycles < 0)
    {
      *bad = "--router-cycles and --combine-cycles must be 0 or more";
      return FALSE;
    }
  *params = model->params;
  params->router_cycles = (guint)model->router_cycles;
  params->combine_cycles = (guint)model->combine_cycles;

  return TRUE;
}

static gboolean
is_usage (const GError *error)
{
  return error->domain == SEXTANT_SIM_ERROR &&
         (error->code == SEXTANT_SIM_ERROR_DIMS || error->code == SEXTANT_SIM_ERROR_NODE ||
          error->code == SEXTANT_SIM_ERROR_SIZE || error->code == SEXTANT_SIM_ERROR_PARAMS ||
          error->code == SEXTANT_SIM_ERROR_TOO_BIG);
}

static void
print_json (SextantTorusSim               *sim,
            const SextantTorusParams      *params,
            const SextantTorusTraceCounts *counts,
            const char                    *trace,
            double                         seconds)
{
  SextantTorus *torus = sextant_torus_sim_get_torus (sim);
  const SextantTorusJob *job = sextant_torus_sim_get_job (sim);
  const SextantTorusTree *tree = sextant_torus_sim_get_tree (sim, 0);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *dims = sextant_torus_to_string (torus);
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "dims");
  json_builder_add_string_value (b, dims);
  json_builder_set_member_name (b, "nodes");
  json_builder_add_int_value (b, sextant_torus_get_n_nodes (torus));
  json_builder_set_member_name (b, "op");
  json_builder_add_string_value (b, sextant_torus_op_to_string (job->op));
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, (gint64)job->bytes);
  json_builder_set_member_name (b, "packets");
  json_builder_add_int_value (b, sextant_torus_sim_get_n_packets (sim));
  json_builder_set_member_name (b, "root");
  json_builder_add_int_value (b, job->root);
  json_builder_set_member_name (b, "trees");
  json_builder_add_int_value (b, sextant_torus_sim_get_n_trees (sim));
  json_builder_set_member_name (b, "transit");
  json_builder_add_int_value (b, job->n_transit);
  json_builder_set_member_name (b, "tree_depth");
  json_builder_add_int_value (b, sextant_torus_tree_get_depth (tree));
  json_builder_set_member_name (b, "hw_ns");
  json_builder_add_double_value (b, sextant_torus_sim_get_hw_ps (sim) / 1000.0);
  json_builder_set_member_name (b, "p2p_ns");
  json_builder_add_double_value (b, sextant_torus_sim_get_p2p_ps (sim) / 1000.0);
  json_builder_set_member_name (b, "ratio");
  json_builder_add_double_value (b, sextant_torus_sim_get_ratio (sim));
  json_builder_set_member_name (b, "p2p_algorithm");
  json_builder_add_string_value (b, sextant_torus_sim_get_p2p_algorithm (sim));
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, sextant_torus_model_to_string (job->model));
  json_builder_set_member_name (b, "events");
  json_builder_add_int_value (b, (gint64)sextant_torus_sim_get_n_events (sim));
  json_builder_set_member_name (b, "flow_iterations");
  json_builder_add_int_value (b, (gint64)sextant_torus_sim_get_flow_iterations (sim));
  json_builder_set_member_name (b, "flow_entries");
  json_builder_add_int_value (b, (gint64)sextant_torus_sim_get_flow_entries (sim));
  json_builder_set_member_name (b, "peak_pending_events");
  json_builder_add_int_value (b, (gint64)sextant_torus_sim_get_peak_queue (sim));
  json_builder_set_member_name (b, "model_cpu_seconds");
  json_builder_add_double_value (b, seconds);
  json_builder_set_member_name (b, "params");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "link_latency_ns");
  json_builder_add_double_value (b, params->link_latency_ns);
  json_builder_set_member_name (b, "router_clock_mhz");
  json_builder_add_double_value (b, params->router_clock_mhz);
  json_builder_set_member_name (b, "inject_latency_ns");
  json_builder_add_double_value (b, params->inject_latency_ns);
  json_builder_set_member_name (b, "eject_latency_ns");
  json_builder_add_double_value (b, params->eject_latency_ns);
  json_builder_set_member_name (b, "router_cycles");
  json_builder_add_int_value (b, params->router_cycles);
  json_builder_set_member_name (b, "combine_cycles");
  json_builder_add_int_value (b, params->combine_cycles);
  json_builder_set_member_name (b, "host_overhead_ns");
  json_builder_add_double_value (b, params->host_overhead_ns);
  json_builder_set_member_name (b, "store_and_forward");
  json_builder_add_boolean_value (b, params->store_and_forward);
  json_builder_end_object (b);
  if (trace != NULL)
    {
      json_builder_set_member_name (b, "trace");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "dir");
      json_builder_add_string_value (b, trace);
      json_builder_set_member_name (b, "locations");
      json_builder_add_int_value (b, (gint64)counts->n_locations);
      json_builder_set_member_name (b, "events");
      json_builder_add_int_value (b, (gint64)counts->n_events);
      json_builder_set_member_name (b, "messages");
      json_builder_add_int_value (b, (gint64)counts->n_messages);
      json_builder_set_member_name (b, "collective_calls");
      json_builder_add_int_value (b, (gint64)counts->n_collectives);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  text = sextant_report_json_to_data (root);
  g_print ("%s\n", text);
}

static void
print_text (SextantTorusSim               *sim,
            const SextantTorusParams      *params,
            const SextantTorusTraceCounts *counts,
            const char                    *trace,
            double                         seconds)
{
  static const char * const what[] = { "broadcast", "reduce", "all-reduce", "all-gather" };
  SextantTorus *torus = sextant_torus_sim_get_torus (sim);
  const SextantTorusJob *job = sextant_torus_sim_get_job (sim);
  const SextantTorusTree *tree = sextant_torus_sim_get_tree (sim, 0);
  guint n = sextant_torus_get_n_nodes (torus);
  g_autofree char *dims = sextant_torus_to_string (torus);
  g_autofree char *at = sextant_torus_format_node (torus, job->root);
  guint n_packets = sextant_torus_sim_get_n_packets (sim);

  g_print ("Torus %s: %u nodes, %uD\n", dims, n, sextant_torus_get_n_dims (torus));
  g_print ("%c%s of %" G_GUINT64_FORMAT " bytes%s (%u packet%s of up to 16 flits), ",
           g_ascii_toupper (what[job->op][0]), what[job->op] + 1, job->bytes,
           job->op == SEXTANT_TORUS_OP_ALLGATHER ? " per node" : "", n_packets, n_packets == 1 ? "" : "s");
  if (job->op == SEXTANT_TORUS_OP_ALLGATHER || job->n_trees > 1)
    g_print ("%u trees, roots spread from node %u %s\n", job->n_trees, job->root, at);
  else
    g_print ("root node %u %s\n", job->root, at);
  g_print ("Tree:      dimension order X, Y, Z, W; depth %u links; %u nodes take part, %u transit\n",
           sextant_torus_tree_get_depth (tree), sextant_torus_tree_get_n_members (tree), job->n_transit);
  g_print ("Model:     link %g ns, router %g MHz, injection %g ns, ejection %g ns, routing %u cycle%s, "
           "combine %u cycle%s, host %g ns, %s\n\n",
           params->link_latency_ns, params->router_clock_mhz, params->inject_latency_ns, params->eject_latency_ns,
           params->router_cycles, params->router_cycles == 1 ? "" : "s", params->combine_cycles,
           params->combine_cycles == 1 ? "" : "s", params->host_overhead_ns,
           params->store_and_forward ? "store-and-forward" : "cut-through");
  g_print ("  hardware tree         %12.3f us\n", sextant_torus_sim_get_hw_ps (sim) / 1e6);
  g_print ("  point-to-point        %12.3f us   (%s)\n", sextant_torus_sim_get_p2p_ps (sim) / 1e6,
           sextant_torus_sim_get_p2p_algorithm (sim));
  g_print ("  ratio                 %12.2f x\n\n", sextant_torus_sim_get_ratio (sim));
  if (job->model == SEXTANT_TORUS_MODEL_FLOW)
    g_print ("Model run: flow model, %" G_GUINT64_FORMAT " progressive-filling rounds, %.3f s CPU\n",
             sextant_torus_sim_get_flow_iterations (sim), seconds);
  else
    g_print ("Model run: packet model, %" G_GUINT64_FORMAT " events, %.3f s CPU\n",
             sextant_torus_sim_get_n_events (sim), seconds);
  if (trace != NULL)
    g_print ("Trace:     %s/traces.otf2: %" G_GUINT64_FORMAT " locations, %" G_GUINT64_FORMAT " events, %"
             G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT " collective calls\n",
             trace, counts->n_locations, counts->n_events, counts->n_messages, counts->n_collectives);
}

int
sextant_cli_sim (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("torus - model hardware collectives on a torus");
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantTorus) torus = NULL;
  g_autoptr(SextantTorusSim) sim = NULL;
  g_autoptr(GArray) transit = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *dims = NULL;
  g_autofree char *op_name = NULL;
  g_autofree char *transit_list = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *model_name = NULL;
  SextantTorusTraceCounts counts = { 0 };
  SextantCliTorusParams model;
  SextantTorusParams params;
  SextantTorusJob job;
  gint64 bytes = SEXTANT_TORUS_PACKET_BYTES;
  gint root = 0, trees = 0;
  const char *bad;
  gboolean as_json = FALSE;
  double seconds;
  int status = 0;

  if (argc >= 2 && g_str_equal (argv[1], "replay"))
    return _sextant_cli_sim_replay (argc - 1, argv + 1);

  sextant_torus_job_init (&job);
  {
    GOptionEntry entries[] = {
      { "dims", 'd', 0, G_OPTION_ARG_STRING, &dims, "The torus: 2 to 4 sizes, X first (16x16x32, 8x8x8x16)", "DIMS" },
      { "op", 'o', 0, G_OPTION_ARG_STRING, &op_name, "bcast (default), reduce, allreduce or allgather", "OP" },
      { "bytes", 'b', 0, G_OPTION_ARG_INT64, &bytes, "Bytes per node (default 256: one packet of 16 flits)", "N" },
      { "root", 'r', 0, G_OPTION_ARG_INT, &root, "The root node id (x + X * (y + Y * z)...; default 0)", "N" },
      { "trees", 'k', 0, G_OPTION_ARG_INT, &trees,
        "Trees, 1 to 16, roots spread evenly (default: 16 for allgather, else 1)", "K" },
      { "transit", 0, 0, G_OPTION_ARG_STRING, &transit_list, "Transit nodes (routers only): ids, comma-separated",
        "LIST" },
      { "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace, "Write the run as an OTF2 archive in DIR/traces.otf2",
        "DIR" },
      { "model", 'm', 0, G_OPTION_ARG_STRING, &model_name,
        "packet (default: every packet and hop) or flow (the all-gather as flows sharing the links)", "MODEL" },
      { "json", 'j', 0, G_OPTION_ARG_NONE, &as_json, "Print JSON", NULL },
      { NULL }
    };

    g_option_context_add_main_entries (context, entries, NULL);
  }
  _sextant_cli_add_torus_params (context, &model);
  g_option_context_set_summary (context,
    "Models Angara's hardware broadcast and reduce trees on a 2-4 dimensional\n"
    "torus (docs/sim.md): the tree built from the root in dimension order\n"
    "X, Y, Z, W, packets of 128-bit flits, and the same collective done with\n"
    "point-to-point messages over the same tree (injection and ejection at\n"
    "every hop; all-gather: recursive doubling). Prints both times and the\n"
    "ratio. Defaults: the paper's Angara 2013 router. The packet model runs\n"
    "every packet and hop; --model flow runs the all-gather as flows sharing\n"
    "the links (within a few per cent, and to 65536 nodes in seconds).");
  if (!_sextant_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2 || !g_str_equal (argv[1], "torus"))
    return _sextant_cli_usage_error (context, "sim needs the model: sextant sim torus --dims ..., or sextant sim replay STORE --dims ...");
  if (dims == NULL)
    return _sextant_cli_usage_error (context, "sim torus needs --dims, e.g. --dims 16x16x32");
  if (op_name != NULL && !sextant_torus_op_from_string (op_name, &job.op))
    return _sextant_cli_usage_error (context, "--op must be bcast, reduce, allreduce or allgather");
  if (model_name != NULL && !sextant_torus_model_from_string (model_name, &job.model))
    return _sextant_cli_usage_error (context, "--model must be packet or flow");
  if (bytes < 1)
    return _sextant_cli_usage_error (context, "--bytes must be 1 or more");
  if (root < 0)
    return _sextant_cli_usage_error (context, "--root must be a node id, 0 or more");
  if (trees < 0)
    return _sextant_cli_usage_error (context, "--trees must be 1 to 16");
  if (!_sextant_cli_get_torus_params (&model, &params, &bad))
    return _sextant_cli_usage_error (context, bad);
  if (transit_list != NULL && !parse_nodes (transit_list, transit))
    return _sextant_cli_usage_error (context, "--transit must be node ids separated by commas");
  job.bytes = (guint64)bytes;
  job.root = (guint)root;
  job.n_trees = (guint)trees;
  job.transit = (const guint *)(gpointer)transit->data;
  job.n_transit = transit->len;
  job.record = trace != NULL;

  if (!(torus = sextant_torus_new_from_string (dims, &error)))
    return _sextant_cli_usage_error (context, error->message);

  if (!(sim = sextant_torus_sim_run (torus, &params, &job, &error)))
    return is_usage (error) ? _sextant_cli_usage_error (context, error->message) : _sextant_cli_runtime_error (error);
  seconds = sextant_torus_sim_get_cpu_seconds (sim);
  if (trace != NULL && !sextant_torus_trace_write (sim, trace, &counts, &error))
    return _sextant_cli_runtime_error (error);

  if (as_json)
    print_json (sim, &params, &counts, trace, seconds);
  else
    print_text (sim, &params, &counts, trace, seconds);

  return EXIT_SUCCESS;
}
