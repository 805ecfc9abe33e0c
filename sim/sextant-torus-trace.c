/*
 * sextant-torus-trace.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The OTF2 archive of a model run (DIR/traces.otf2), in picoseconds:
 *  - one process (location group, "MPI rank" = node id) and location per
 *    torus node, named by its coordinates;
 *  - from 0: every taking-part node in region "hardware tree" > MPI_Bcast
 *    (MPI_Reduce, MPI_Allreduce, MPI_Allgather) with the collective's
 *    begin and end records, ending when the model has its node done
 *    (its host has the data, or for a reduce member, its packet left);
 *    transit nodes only in region "transit router";
 *  - SEXTANT_TORUS_TRACE_GAP_PS after the hardware run ended: every node in
 *    "point-to-point tree" > the MPI_Send and MPI_Recv calls of the
 *    point-to-point run's messages along the tree edges (the tag is the
 *    tree), in each node's order of time; a receive starts when the
 *    node's previous call ended.
 * The communicator MPI_COMM_WORLD is the taking-part nodes.
 *
 * Where each node sits is in the definitions, in a form any writer can
 * give its locations (sextant-store.h, "Torus coordinates"): a location
 * property "torus_coords" = "3,1,0" per location (X first) and a system
 * tree node property "torus_dims" = "4x4x2" on the machine. Not OTF2's
 * CartTopology: its coordinates are ranks of a communicator, and transit
 * nodes take part in no communicator (MPI_COMM_WORLD is the members).
 *
 * Workload: linear in the nodes and messages; each location's events are
 * written and its writer closed before the next (libotf2 holds one chunk),
 * the messages are indexed per node once (CSR).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>
#include <otf2/otf2.h>

#include "sextant-sim-otf2.h"

#include "sextant-torus-trace.h"

#define EVENT_CHUNK_SIZE (256 * 1024)
#define DEF_CHUNK_SIZE   (1024 * 1024)

enum
{
  REGION_HW,
  REGION_P2P,
  REGION_TRANSIT,
  REGION_COLL,
  REGION_SEND,
  REGION_RECV,
  N_REGIONS,
};

enum
{
  GROUP_LOCATIONS,
  GROUP_WORLD,
};

typedef struct
{
  OTF2_Archive         *archive;
  OTF2_GlobalDefWriter *defs;
  GHashTable           *strings;
  GError               *error;
} Writer;

static gboolean
check (Writer         *w,
       OTF2_ErrorCode  status,
       const char     *what)
{
  return _sextant_sim_otf2_check (&w->error, status, what);
}

static OTF2_StringRef
def_string (Writer     *w,
            const char *str)
{
  return _sextant_sim_otf2_string (w->strings, w->defs, &w->error, str);
}

typedef struct
{
  gint64 key;
  guint  message;
  guint  is_send;
} Call;

static int
compare_calls (gconstpointer a,
               gconstpointer b)
{
  const Call *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  if (x->is_send != y->is_send)   /* a receive completing at a send's start goes first */
    return x->is_send ? 1 : -1;
  return x->message < y->message ? -1 : x->message > y->message;
}

static const char *
coll_region (SextantTorusOp op)
{
  static const char * const names[] = { "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Allgather" };

  return names[op];
}

static OTF2_RegionRole
coll_role (SextantTorusOp op)
{
  switch (op)
    {
    case SEXTANT_TORUS_OP_BCAST:
      return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case SEXTANT_TORUS_OP_REDUCE:
      return OTF2_REGION_ROLE_COLL_ALL2ONE;
    default:
      return OTF2_REGION_ROLE_COLL_ALL2ALL;
    }
}

static OTF2_CollectiveOp
coll_op (SextantTorusOp op)
{
  switch (op)
    {
    case SEXTANT_TORUS_OP_BCAST:
      return OTF2_COLLECTIVE_OP_BCAST;
    case SEXTANT_TORUS_OP_REDUCE:
      return OTF2_COLLECTIVE_OP_REDUCE;
    case SEXTANT_TORUS_OP_ALLREDUCE:
      return OTF2_COLLECTIVE_OP_ALLREDUCE;
    default:
      return OTF2_COLLECTIVE_OP_ALLGATHER;
    }
}

/* Removes the archive in @dir; FALSE if there is one and not @force */
static gboolean
prepare_dir (const char  *dir,
             GError     **error)
{
  g_autofree char *anchor = g_build_filename (dir, "traces.otf2", NULL);
  g_autofree char *sub = g_build_filename (dir, "traces", NULL);

  if (g_file_test (anchor, G_FILE_TEST_EXISTS) || g_file_test (sub, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TRACE,
                   "%s already holds an archive (traces.otf2 or traces/): choose an empty directory", dir);
      return FALSE;
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int errsv = errno;

      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TRACE, "cannot create %s: %s", dir,
                   g_strerror (errsv));
      return FALSE;
    }

  return TRUE;
}

/* Node @v's location property: its coordinates, "3,1,0" */
static void
write_coords (Writer       *w,
              SextantTorus *torus,
              guint         v)
{
  g_autofree char *at = sextant_torus_format_node (torus, v);
  OTF2_AttributeValue value;

  /* "(3,1,0)" without the parentheses */
  at[strlen (at) - 1] = '\0';
  value.stringRef = def_string (w, at + 1);
  check (w, OTF2_GlobalDefWriter_WriteLocationProperty (w->defs, v, def_string (w, SEXTANT_TORUS_COORDS_PROPERTY),
                                                          OTF2_TYPE_STRING, value),
         "WriteLocationProperty");
}

#define EMIT(Kind, ts, ...) \
  G_STMT_START { \
    check (&w, OTF2_EvtWriter_##Kind (writer, NULL, (OTF2_TimeStamp)(ts), ##__VA_ARGS__), #Kind); \
    n_events[v]++; \
  } G_STMT_END

/**
 * sextant_torus_trace_write:
 * @sim: a run made with job->record
 * @dir: the directory to write traces.otf2, traces.def and traces/ in;
 *   created if needed, it must not hold an archive
 * @counts: (out caller-allocates) (optional): what was written
 * @error: SEXTANT_SIM_ERROR_TRACE
 *
 * Writes the run as an OTF2 archive (see the file's comment). Blocking I/O
 * in the calling thread.
 *
 * Returns: whether the archive was written
 */
gboolean
sextant_torus_trace_write (const SextantTorusSim    *sim,
                           const char               *dir,
                           SextantTorusTraceCounts  *counts,
                           GError                  **error)
{
  SextantTorus *torus = sextant_torus_sim_get_torus (sim);
  const SextantTorusJob *job = sextant_torus_sim_get_job (sim);
  const GArray *messages = sextant_torus_sim_get_messages (sim);
  const gint64 *hw_end = sextant_torus_sim_get_hw_end (sim);
  const gint64 *p2p_end = sextant_torus_sim_get_p2p_end (sim);
  guint n = sextant_torus_get_n_nodes (torus);
  guint root = sextant_torus_tree_get_root (sextant_torus_sim_get_tree (sim, 0));
  gint64 p2p_start = sextant_torus_sim_get_hw_ps (sim) + SEXTANT_TORUS_TRACE_GAP_PS;
  gint64 last_ts = 0;
  Writer w = { NULL, NULL, NULL, NULL };
  g_autofree guint *start = NULL;
  g_autofree Call *calls = NULL;
  g_autofree guint64 *n_events = NULL;
  g_autofree uint64_t *members = NULL;
  g_autofree uint64_t *locations = NULL;
  g_autofree guint32 *rank = NULL;
  g_autofree char *torus_name = NULL;
  g_autofree char *system_name = NULL;
  guint n_members = 0;
  guint64 total_events = 0;
  OTF2_StringRef region_names[N_REGIONS];

  g_return_val_if_fail (messages != NULL, FALSE);

  if (!prepare_dir (dir, error))
    return FALSE;

  /* a node's rank in MPI_COMM_WORLD, the taking-part nodes */
  rank = g_new (guint32, n);
  for (guint v = 0, r = 0; v < n; v++)
    rank[v] = sextant_torus_sim_is_member (sim, v) ? r++ : OTF2_UNDEFINED_UINT32;

  /* every node's calls, in time order (CSR over the messages) */
  start = g_new0 (guint, n + 1);
  for (guint i = 0; i < messages->len; i++)
    {
      const SextantTorusMessage *m = &g_array_index (messages, SextantTorusMessage, i);

      start[m->from + 1]++;
      start[m->to + 1]++;
    }
  for (guint v = 0; v < n; v++)
    start[v + 1] += start[v];
  calls = g_new (Call, (gsize)messages->len * 2 + 1);
  {
    g_autofree guint *fill = g_memdup2 (start, sizeof (guint) * n);

    for (guint i = 0; i < messages->len; i++)
      {
        const SextantTorusMessage *m = &g_array_index (messages, SextantTorusMessage, i);

        calls[fill[m->from]++] = (Call) { m->send_begin, i, TRUE };
        calls[fill[m->to]++] = (Call) { m->recv_end, i, FALSE };
      }
  }
  for (guint v = 0; v < n; v++)
    qsort (calls + start[v], start[v + 1] - start[v], sizeof (Call), compare_calls);

  w.archive = OTF2_Archive_Open (dir, "traces", OTF2_FILEMODE_WRITE, EVENT_CHUNK_SIZE, DEF_CHUNK_SIZE,
                                 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (w.archive == NULL)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TRACE, "OTF2_Archive_Open (%s) failed", dir);
      return FALSE;
    }
  check (&w, OTF2_Archive_SetFlushCallbacks (w.archive, &_sextant_sim_otf2_flush_callbacks, NULL), "SetFlushCallbacks");
  check (&w, OTF2_Archive_SetSerialCollectiveCallbacks (w.archive), "SetSerialCollectiveCallbacks");
  check (&w, OTF2_Archive_SetCreator (w.archive, "sextant sim torus " PACKAGE_VERSION), "SetCreator");
  check (&w, OTF2_Archive_OpenEvtFiles (w.archive), "OpenEvtFiles");

  n_events = g_new0 (guint64, n);
  for (guint v = 0; v < n && w.error == NULL; v++)
    {
      OTF2_EvtWriter *writer = OTF2_Archive_GetEvtWriter (w.archive, v);
      gboolean member = sextant_torus_sim_is_member (sim, v);
      gint64 busy = p2p_start;
      gint64 end;

      if (writer == NULL)
        {
          check (&w, OTF2_ERROR_INVALID_ARGUMENT, "OTF2_Archive_GetEvtWriter");
          break;
        }

      if (member)
        {
          guint64 bytes = job->op == SEXTANT_TORUS_OP_ALLGATHER ? job->bytes * n : job->bytes;
          guint32 root_rank = job->op == SEXTANT_TORUS_OP_BCAST || job->op == SEXTANT_TORUS_OP_REDUCE
                              ? rank[root] : OTF2_UNDEFINED_UINT32;
          guint64 sent = job->op == SEXTANT_TORUS_OP_BCAST ? (v == root ? job->bytes : 0) : job->bytes;
          guint64 received = job->op == SEXTANT_TORUS_OP_BCAST ? (v == root ? 0 : job->bytes)
                             : job->op == SEXTANT_TORUS_OP_REDUCE ? (v == root ? job->bytes : 0)
                                                                  : bytes;

          EMIT (Enter, 0, REGION_HW);
          EMIT (Enter, 0, REGION_COLL);
          EMIT (MpiCollectiveBegin, 0);
          EMIT (MpiCollectiveEnd, hw_end[v], coll_op (job->op), 0, root_rank, sent, received);
          EMIT (Leave, hw_end[v], REGION_COLL);
          EMIT (Leave, hw_end[v], REGION_HW);
        }
      else
        {
          EMIT (Enter, 0, REGION_TRANSIT);
          EMIT (Leave, sextant_torus_sim_get_hw_ps (sim), REGION_TRANSIT);
        }

      EMIT (Enter, p2p_start, member ? REGION_P2P : REGION_TRANSIT);
      for (guint c = start[v]; c < start[v + 1]; c++)
        {
          const SextantTorusMessage *m = &g_array_index (messages, SextantTorusMessage, calls[c].message);

          if (calls[c].is_send)
            {
              gint64 begin = MAX (busy, p2p_start + m->send_begin);

              EMIT (Enter, begin, REGION_SEND);
              EMIT (MpiSend, begin, rank[m->to], 0, m->tree, m->bytes);
              busy = MAX (begin, p2p_start + m->send_end);
              EMIT (Leave, busy, REGION_SEND);
            }
          else
            {
              EMIT (Enter, busy, REGION_RECV);
              busy = MAX (busy, p2p_start + m->recv_end);
              EMIT (MpiRecv, busy, rank[m->from], 0, m->tree, m->bytes);
              EMIT (Leave, busy, REGION_RECV);
            }
        }
      end = MAX (busy, p2p_start + p2p_end[v]);
      EMIT (Leave, end, member ? REGION_P2P : REGION_TRANSIT);
      last_ts = MAX (last_ts, end);
      total_events += n_events[v];
      check (&w, OTF2_Archive_CloseEvtWriter (w.archive, writer), "CloseEvtWriter");
    }
  check (&w, OTF2_Archive_CloseEvtFiles (w.archive), "CloseEvtFiles");

  /* no local definition files: no mappings, no clock offsets (libotf2
   * gives each local writer a definition chunk of its own, zeroed: a
   * minute of memset for a few thousand locations) */
  w.defs = OTF2_Archive_GetGlobalDefWriter (w.archive);
  if (w.defs == NULL)
    check (&w, OTF2_ERROR_INVALID_ARGUMENT, "GetGlobalDefWriter");
  w.strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  torus_name = sextant_torus_to_string (torus);
  system_name = g_strdup_printf ("torus %s (model)", torus_name);
  members = g_new (uint64_t, n);
  locations = g_new (uint64_t, n);
  if (w.error == NULL)
    {
      const char *names[N_REGIONS] = {
        [REGION_HW] = "hardware tree", [REGION_P2P] = "point-to-point tree",
        [REGION_TRANSIT] = "transit router", [REGION_COLL] = coll_region (job->op),
        [REGION_SEND] = "MPI_Send", [REGION_RECV] = "MPI_Recv",
      };

      check (&w, OTF2_GlobalDefWriter_WriteClockProperties (w.defs, G_GUINT64_CONSTANT (1000000000000), 0,
                                                             (guint64)last_ts + 1, OTF2_UNDEFINED_TIMESTAMP),
             "WriteClockProperties");
      check (&w, OTF2_GlobalDefWriter_WriteParadigm (w.defs, OTF2_PARADIGM_MPI, def_string (&w, "MPI"),
                                                      OTF2_PARADIGM_CLASS_PROCESS), "WriteParadigm");
      check (&w, OTF2_GlobalDefWriter_WriteSystemTreeNode (w.defs, 0, def_string (&w, system_name),
                                                            def_string (&w, "machine"),
                                                            OTF2_UNDEFINED_SYSTEM_TREE_NODE), "WriteSystemTreeNode");
      check (&w, OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty (w.defs, 0,
                                                                    def_string (&w, SEXTANT_TORUS_DIMS_PROPERTY),
                                                                    OTF2_TYPE_STRING,
                                                                    (OTF2_AttributeValue) {
                                                                      .stringRef = def_string (&w, torus_name) }),
             "WriteSystemTreeNodeProperty");
      for (guint v = 0; v < n; v++)
        {
          g_autofree char *at = sextant_torus_format_node (torus, v);
          g_autofree char *name = g_strdup_printf ("node %u %s%s", v, at,
                                                   sextant_torus_sim_is_member (sim, v) ? "" : " transit");

          check (&w, OTF2_GlobalDefWriter_WriteLocationGroup (w.defs, v, def_string (&w, name),
                                                               OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                               OTF2_UNDEFINED_LOCATION_GROUP),
                 "WriteLocationGroup");
        }
      for (guint v = 0; v < n; v++)
        {
          g_autofree char *at = sextant_torus_format_node (torus, v);
          g_autofree char *name = g_strdup_printf ("host %u %s", v, at);

          check (&w, OTF2_GlobalDefWriter_WriteLocation (w.defs, v, def_string (&w, name),
                                                          OTF2_LOCATION_TYPE_CPU_THREAD, n_events[v], v),
                 "WriteLocation");
          write_coords (&w, torus, v);
          locations[v] = v;
          if (sextant_torus_sim_is_member (sim, v))
            members[n_members++] = v;
        }
      for (guint r = 0; r < N_REGIONS; r++)
        region_names[r] = def_string (&w, names[r]);
      for (guint r = 0; r < N_REGIONS; r++)
        {
          gboolean mpi = r == REGION_COLL || r == REGION_SEND || r == REGION_RECV;

          check (&w, OTF2_GlobalDefWriter_WriteRegion (w.defs, r, region_names[r], region_names[r],
                                                        def_string (&w, ""),
                                                        r == REGION_COLL ? coll_role (job->op)
                                                        : mpi ? OTF2_REGION_ROLE_POINT2POINT
                                                              : OTF2_REGION_ROLE_FUNCTION,
                                                        mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                                        OTF2_REGION_FLAG_NONE, def_string (&w, "sextant-torus-sim.c"),
                                                        0, 0),
                 "WriteRegion");
        }
      check (&w, OTF2_GlobalDefWriter_WriteGroup (w.defs, GROUP_LOCATIONS, def_string (&w, "MPI locations"),
                                                   OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                                   OTF2_GROUP_FLAG_NONE, n, locations), "WriteGroup");
      check (&w, OTF2_GlobalDefWriter_WriteGroup (w.defs, GROUP_WORLD, def_string (&w, "taking-part nodes"),
                                                   OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                                   OTF2_GROUP_FLAG_NONE, n_members, members), "WriteGroup");
      check (&w, OTF2_GlobalDefWriter_WriteComm (w.defs, 0, def_string (&w, "MPI_COMM_WORLD"), GROUP_WORLD,
                                                  OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "WriteComm");
    }
  check (&w, OTF2_Archive_Close (w.archive), "OTF2_Archive_Close");
  if (w.strings != NULL)
    g_hash_table_unref (w.strings);

  if (w.error != NULL)
    {
      g_propagate_prefixed_error (error, w.error, "%s: ", dir);
      return FALSE;
    }
  if (counts != NULL)
    *counts = (SextantTorusTraceCounts) { n, total_events, messages->len, n_members };

  return TRUE;
}
