/*
 * sextant-cli-replay.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `sextant sim replay STORE --dims 4x4x2 [--map linear|spread]
 * [--trace DIR] [--json] [model parameters]`: replays a recorded MPI run on a modelled torus
 * (sim/sextant-torus-replay.c, docs/sim.md): reads the store's ranks (its
 * locations with MPI calls), their MPI calls, the matched messages and the
 * collectives through the store's readers, and prints the recorded run's
 * time, the predicted run with the collectives on the hardware trees and
 * as point-to-point trees, and their ratio; --trace writes the predicted
 * run (hardware trees) as an OTF2 archive.
 *
 * Exit status: 0, 1 when the store cannot be read or the run cannot be
 * replayed or traced, 2 for a usage error (dimensions, more ranks than
 * nodes, parameters out of range).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sextant-cli.h"
#include "sextant-cli-private.h"
#include "sextant-otf2-names.h"
#include "sextant-report.h"
#include "sextant-torus-replay.h"
#include "sextant-torus-replay-trace.h"

#define NO_RANK G_MAXUINT

/* The collectives the trees do, by the store's kind */
static const struct
{
  const char     *kind;
  SextantTorusOp  op;
  guint64         bytes;    /* 0: the members' */
} tree_collectives[] = {
  { "BCAST", SEXTANT_TORUS_OP_BCAST, 0 },
  { "REDUCE", SEXTANT_TORUS_OP_REDUCE, 0 },
  { "ALLREDUCE", SEXTANT_TORUS_OP_ALLREDUCE, 0 },
  { "ALLGATHER", SEXTANT_TORUS_OP_ALLGATHER, 0 },
  { "BARRIER", SEXTANT_TORUS_OP_ALLREDUCE, SEXTANT_TORUS_FLIT_BYTES },   /* one flit all-reduced */
};

typedef struct
{
  SextantTorusReplayInput input;
  GStringChunk           *strings;
  GArray                 *rank_of;     /* per location id: its rank or NO_RANK */
  GArray                 *loc_of;      /* per rank: its location id */
  SextantTimeSpan         span;
} Loaded;

static void
loaded_clear (Loaded *l)
{
  g_clear_pointer (&l->input.calls, g_array_unref);
  g_clear_pointer (&l->input.messages, g_array_unref);
  g_clear_pointer (&l->input.collectives, g_array_unref);
  g_clear_pointer (&l->input.members, g_array_unref);
  g_clear_pointer (&l->strings, g_string_chunk_free);
  g_clear_pointer (&l->rank_of, g_array_unref);
  g_clear_pointer (&l->loc_of, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Loaded, loaded_clear)

/* ticks since the run's begin, in ps */
static gint64
to_ps (const Loaded *l,
       gint64        ticks)
{
  gint64 t = ticks - l->span.begin;

  if (G_USEC_PER_SEC * G_GINT64_CONSTANT (1000000) % l->span.resolution == 0)
    return t * (G_USEC_PER_SEC * G_GINT64_CONSTANT (1000000) / l->span.resolution);

  return (gint64)((double)t * 1e12 / (double)l->span.resolution + 0.5);
}

static guint
rank_of (const Loaded *l,
         gint64        loc)
{
  return loc >= 0 && (guint64)loc < l->rank_of->len ? g_array_index (l->rank_of, guint, loc) : NO_RANK;
}

/* The MPI calls (outermost on each location) and the ranks: the locations
 * that made any */
static gboolean
load_calls (SextantStore  *store,
            Loaded        *l,
            GError       **error)
{
  g_autoptr(GPtrArray) locations = NULL;
  g_autoptr(GPtrArray) presence = NULL;
  g_autoptr(GArray) regions = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GHashTable) names = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) visits = NULL;
  gint64 last_loc = -1, last_leave = G_MININT64;

  if (!(locations = sextant_store_list_locations (store, error)) ||
      !(presence = sextant_store_list_region_presence (store, error)))
    return FALSE;
  for (guint i = 0; i < presence->len; i++)
    {
      SextantRegionPresence *p = g_ptr_array_index (presence, i);

      if (g_strcmp0 (p->paradigm, "MPI") != 0 || g_hash_table_contains (names, &p->region))
        continue;
      g_hash_table_insert (names, &p->region, g_string_chunk_insert_const (l->strings, p->name));
      g_array_append_val (regions, p->region);
    }
  if (!(visits = sextant_store_list_region_visits (store, (const gint64 *)(gpointer)regions->data, regions->len,
                                                   error)))
    return FALSE;

  g_array_set_size (l->rank_of, locations->len);
  for (guint i = 0; i < locations->len; i++)
    g_array_index (l->rank_of, guint, i) = NO_RANK;
  for (guint i = 0; i < visits->len; i++)
    {
      const SextantVisitSpan *v = &g_array_index (visits, SextantVisitSpan, i);
      SextantReplayCall call;

      if (v->loc < 0 || (guint64)v->loc >= locations->len)
        continue;
      if (v->loc == last_loc && v->enter < last_leave)
        continue;                       /* inside the call before it */
      if (g_array_index (l->rank_of, guint, v->loc) == NO_RANK)
        {
          g_array_index (l->rank_of, guint, v->loc) = l->loc_of->len;
          g_array_append_val (l->loc_of, v->loc);
        }
      call = (SextantReplayCall) { rank_of (l, v->loc), g_hash_table_lookup (names, &v->region),
                                   to_ps (l, v->enter), to_ps (l, v->leave) };
      g_array_append_val (l->input.calls, call);
      last_loc = v->loc;
      last_leave = v->leave;
    }
  l->input.n_ranks = l->loc_of->len;

  return TRUE;
}

static gboolean
add_message (const SextantMessageInfo *info,
             gpointer                  user_data)
{
  Loaded *l = user_data;
  SextantReplayMessage msg = { rank_of (l, info->send_loc), rank_of (l, info->recv_loc), (guint64)MAX (info->bytes, 0),
                               to_ps (l, info->send_time), to_ps (l, info->recv_time) };

  if (msg.from != NO_RANK && msg.to != NO_RANK && msg.from != msg.to)
    g_array_append_val (l->input.messages, msg);

  return TRUE;
}

/* The OTF2 collective op the store's kind names (for the replay's trace) */
static guint
otf2_op_of (const char *kind)
{
  for (guint op = 0; op < 64; op++)
    if (g_strcmp0 (sextant_otf2_collective_op_name ((OTF2_CollectiveOp)op), kind) == 0)
      return op;

  return OTF2_COLLECTIVE_OP_BARRIER;
}

static gboolean
load_collectives (SextantStore  *store,
                  Loaded        *l,
                  GError       **error)
{
  g_autoptr(GPtrArray) infos = sextant_store_list_collective_infos (store, error);

  if (infos == NULL)
    return FALSE;
  for (guint i = 0; i < infos->len; i++)
    {
      const SextantCollectiveInfo *info = g_ptr_array_index (infos, i);
      g_autoptr(GArray) members = sextant_store_list_collective_members (store, info->id, error);
      SextantReplayCollective c = { .comm = info->comm, .first_member = l->input.members->len };
      gint64 last_begin = G_MININT64, last_end = G_MININT64;
      guint64 sent = 0, received = 0;
      guint j;

      if (members == NULL)
        return FALSE;
      for (j = 0; j < G_N_ELEMENTS (tree_collectives) && !g_str_equal (info->kind, tree_collectives[j].kind); j++)
        ;
      c.modelled = j < G_N_ELEMENTS (tree_collectives);
      c.otf2_op = otf2_op_of (info->kind);
      c.op = c.modelled ? tree_collectives[j].op : SEXTANT_TORUS_OP_BCAST;
      for (guint m = 0; m < members->len; m++)
        {
          const SextantCollectiveMember *member = &g_array_index (members, SextantCollectiveMember, m);
          SextantReplayMember rm = { rank_of (l, member->loc), to_ps (l, member->begin) };

          if (rm.rank == NO_RANK)
            continue;
          g_array_append_val (l->input.members, rm);
          c.n_members++;
          last_begin = MAX (last_begin, member->begin);
          last_end = MAX (last_end, member->end);
          sent = MAX (sent, (guint64)MAX (member->bytes_sent, 0));
          received = MAX (received, (guint64)MAX (member->bytes_received, 0));
        }
      if (c.n_members < 2)
        {
          g_array_set_size (l->input.members, c.first_member);
          continue;
        }
      c.root = rank_of (l, info->root_loc);
      if (c.root == NO_RANK)
        c.root = g_array_index (l->input.members, SextantReplayMember, c.first_member).rank;
      /* a broadcast's message is what each member receives; a reduce's or
       * an all-gather's piece what each sends */
      c.bytes = c.modelled && tree_collectives[j].bytes != 0 ? tree_collectives[j].bytes
                : c.op == SEXTANT_TORUS_OP_BCAST ? received : sent;
      c.recorded = to_ps (l, last_end) - to_ps (l, last_begin);
      g_array_append_val (l->input.collectives, c);
    }

  return TRUE;
}

static gboolean
load (SextantStore  *store,
      Loaded        *l,
      GError       **error)
{
  *l = (Loaded) {
    .input.calls = g_array_new (FALSE, FALSE, sizeof (SextantReplayCall)),
    .input.messages = g_array_new (FALSE, FALSE, sizeof (SextantReplayMessage)),
    .input.collectives = g_array_new (FALSE, FALSE, sizeof (SextantReplayCollective)),
    .input.members = g_array_new (FALSE, FALSE, sizeof (SextantReplayMember)),
    .strings = g_string_chunk_new (1024),
    .rank_of = g_array_new (FALSE, FALSE, sizeof (guint)),
    .loc_of = g_array_new (FALSE, FALSE, sizeof (gint64)),
  };

  if (!sextant_store_get_time_span (store, &l->span, error) || !load_calls (store, l, error) ||
      !sextant_store_foreach_message (store, SEXTANT_NULL, SEXTANT_NULL, FALSE, add_message, l, error) ||
      !load_collectives (store, l, error))
    return FALSE;
  l->input.end = to_ps (l, l->span.end);
  if (l->input.n_ranks == 0)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_REPLAY, "the trace has no MPI calls to replay");
      return FALSE;
    }

  return TRUE;
}

static void
print_result (SextantTorusReplay *replay,
              SextantTorus       *torus,
              const Loaded       *l,
              const char         *store_path,
              const char         *map,
              const char         *trace,
              gboolean            as_json)
{
  g_autofree char *dims = sextant_torus_to_string (torus);
  double recorded = sextant_torus_replay_get_recorded_ps (replay) / 1e6;
  double hw = sextant_torus_replay_get_ps (replay, SEXTANT_REPLAY_HARDWARE) / 1e6;
  double p2p = sextant_torus_replay_get_ps (replay, SEXTANT_REPLAY_POINT_TO_POINT) / 1e6;
  double hw_coll = sextant_torus_replay_get_collective_ps (replay, SEXTANT_REPLAY_HARDWARE) / 1e6;
  double p2p_coll = sextant_torus_replay_get_collective_ps (replay, SEXTANT_REPLAY_POINT_TO_POINT) / 1e6;
  guint n_coll = l->input.collectives->len;
  guint modelled = sextant_torus_replay_get_n_modelled (replay);

  if (as_json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;
      const struct { const char *name; double value; } numbers[] = {
        { "recorded_us", recorded }, { "hardware_us", hw }, { "point_to_point_us", p2p },
        { "hardware_collectives_us", hw_coll }, { "point_to_point_collectives_us", p2p_coll },
        { "ratio", sextant_torus_replay_get_ratio (replay) },
      };
      const struct { const char *name; gint64 value; } counts[] = {
        { "nodes", sextant_torus_get_n_nodes (torus) }, { "ranks", l->input.n_ranks },
        { "calls", l->input.calls->len }, { "messages", l->input.messages->len },
        { "collectives", n_coll }, { "modelled_collectives", modelled },
      };

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "store");
      json_builder_add_string_value (b, store_path);
      json_builder_set_member_name (b, "dims");
      json_builder_add_string_value (b, dims);
      json_builder_set_member_name (b, "map");
      json_builder_add_string_value (b, map);
      for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
        {
          json_builder_set_member_name (b, counts[i].name);
          json_builder_add_int_value (b, counts[i].value);
        }
      for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
        {
          json_builder_set_member_name (b, numbers[i].name);
          json_builder_add_double_value (b, numbers[i].value);
        }
      if (trace != NULL)
        {
          json_builder_set_member_name (b, "trace");
          json_builder_add_string_value (b, trace);
        }
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      text = sextant_report_json_to_data (root);
      g_print ("%s\n", text);
      return;
    }

  g_print ("Replay of %s on torus %s (%u nodes): %u ranks, map %s\n", store_path, dims,
           sextant_torus_get_n_nodes (torus), l->input.n_ranks, map);
  g_print ("Recorded:  %u MPI calls, %u messages, %u collectives (%u on the trees, the others at their "
           "recorded time)\n\n", l->input.calls->len, l->input.messages->len, n_coll, modelled);
  g_print ("  recorded run                %12.3f us\n", recorded);
  g_print ("  hardware trees              %12.3f us   (collectives %.3f us)\n", hw, hw_coll);
  g_print ("  point-to-point trees        %12.3f us   (collectives %.3f us)\n", p2p, p2p_coll);
  g_print ("  ratio                       %12.2f x\n", sextant_torus_replay_get_ratio (replay));
  if (trace != NULL)
    g_print ("\nTrace:     %s/traces.otf2 (the run with hardware trees)\n", trace);
}

int
_sextant_cli_sim_replay (int    argc,
                         char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("STORE - replay a recorded run on a modelled torus");
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantTorus) torus = NULL;
  g_autoptr(SextantStore) store = NULL;
  g_autoptr(SextantTorusReplay) replay = NULL;
  g_auto(Loaded) loaded = { 0 };
  g_autofree char *db_path = NULL;
  g_autofree char *dims = NULL;
  g_autofree char *map_name = NULL;
  g_autofree char *trace = NULL;
  SextantReplayMap map = SEXTANT_REPLAY_MAP_LINEAR;
  SextantCliTorusParams model;
  SextantTorusParams params;
  const char *bad;
  gboolean as_json = FALSE;
  int status = 0;
  GOptionEntry entries[] = {
    { "dims", 'd', 0, G_OPTION_ARG_STRING, &dims, "The torus: 2 to 4 sizes, X first (4x4x2)", "DIMS" },
    { "map", 'm', 0, G_OPTION_ARG_STRING, &map_name,
      "Ranks to nodes: linear (rank i on node i, default) or spread (evenly over the node ids)", "MAP" },
    { "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace, "Write the predicted run as DIR/traces.otf2", "DIR" },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &as_json, "Print JSON", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  _sextant_cli_add_torus_params (context, &model);
  g_option_context_set_summary (context,
    "Replays a recorded MPI run on a modelled torus (docs/sim.md): a rank per\n"
    "node, the computation between MPI calls as recorded, the messages routed\n"
    "over the torus's links, the collectives through the hardware trees and\n"
    "as point-to-point trees. Prints the predicted times and their ratio.\n"
    "Defaults: the paper's Angara 2013 router, as sim torus.");
  if (!_sextant_cli_parse (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    return _sextant_cli_usage_error (context, "sim replay needs one STORE");
  if (dims == NULL)
    return _sextant_cli_usage_error (context, "sim replay needs --dims, e.g. --dims 4x4x2");
  if (map_name != NULL && !sextant_replay_map_from_string (map_name, &map))
    return _sextant_cli_usage_error (context, "--map must be linear or spread");
  if (!_sextant_cli_get_torus_params (&model, &params, &bad))
    return _sextant_cli_usage_error (context, bad);
  if (!(torus = sextant_torus_new_from_string (dims, &error)))
    return _sextant_cli_usage_error (context, error->message);

  if (!(store = _sextant_cli_open_or_import (argv[1], &db_path, &error)) || !load (store, &loaded, &error))
    return _sextant_cli_runtime_error (error);
  if (!(replay = sextant_torus_replay_run (torus, &params, &loaded.input, map, &error)))
    return g_error_matches (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_SIZE) ||
           g_error_matches (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_PARAMS)
           ? _sextant_cli_usage_error (context, error->message) : _sextant_cli_runtime_error (error);
  if (trace != NULL && !sextant_torus_replay_trace_write (replay, SEXTANT_REPLAY_HARDWARE, trace, &error))
    return _sextant_cli_runtime_error (error);

  print_result (replay, torus, &loaded, argv[1], map_name != NULL ? map_name : "linear", trace, as_json);

  return EXIT_SUCCESS;
}
