/*
 * sextant-torus-replay-trace.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writes a replay's predicted run as DIR/traces.otf2, in picoseconds: a
 * process and a location per rank, named by the rank and its torus node
 * ("rank 3 on node 3 (1,1,0)"); each rank's MPI calls as regions of their
 * recorded names, entered and left when the replay has them; in them the
 * MpiSend and MpiRecv records of the messages (communicator
 * MPI_COMM_WORLD, tag 0) and the collective begin and end records, on
 * MPI_COMM_WORLD or, for a collective of fewer ranks, a communicator of its
 * members. `sextant import` reads it like any recorded trace.
 *
 * Workload: linear in the records; each rank's events are written and its
 * writer closed before the next.
 */
#include "config.h"

#include <errno.h>

#include <glib/gstdio.h>
#include <otf2/otf2.h>

#include "sextant-sim-otf2.h"

#include "sextant-torus-replay-trace.h"

#define EVENT_CHUNK_SIZE (256 * 1024)
#define DEF_CHUNK_SIZE   (1024 * 1024)
#define GROUP_LOCATIONS  0
#define GROUP_WORLD      1
#define COMM_WORLD       0

typedef struct
{
  guint32 id;
  guint8  collective;
  guint8  message;
} Region;

typedef struct
{
  const SextantTorusReplay *replay;
  OTF2_Archive             *archive;
  OTF2_EvtWriter           *evt;
  OTF2_GlobalDefWriter     *defs;
  GHashTable               *strings;   /* string -> ref + 1 */
  GHashTable               *regions;   /* call name -> Region */
  GPtrArray                *region_names;
  GHashTable               *comms;     /* comm id -> its OTF2 comm + 1 */
  GArray                   *comm_ids;  /* by OTF2 comm - 1: a collective of it */
  guint                     rank;
  guint64                   n_events;
  gint64                    last_ts;
  GError                   *error;
} Writer;

static gboolean
check (Writer         *w,
       OTF2_ErrorCode  status,
       const char     *what)
{
  return _sextant_sim_otf2_check (&w->error, status, what);
}

static OTF2_StringRef
string_ref (Writer     *w,
            const char *str)
{
  return _sextant_sim_otf2_string (w->strings, w->defs, &w->error, str);
}

static Region *
region_of (Writer     *w,
           const char *name)
{
  Region *region = g_hash_table_lookup (w->regions, name);

  if (region == NULL)
    {
      region = g_new0 (Region, 1);
      region->id = w->region_names->len;
      g_ptr_array_add (w->region_names, (gpointer)name);
      g_hash_table_insert (w->regions, (gpointer)name, region);
    }

  return region;
}

/* The communicator of collective @k: MPI_COMM_WORLD when all ranks take
 * part, else one per recorded communicator */
static guint32
comm_of (Writer *w,
         guint   k)
{
  const SextantReplayCollective *c = &g_array_index (sextant_torus_replay_get_collectives (w->replay),
                                                     SextantReplayCollective, k);
  gpointer value;

  if (c->n_members == sextant_torus_replay_get_n_ranks (w->replay))
    return COMM_WORLD;
  if ((value = g_hash_table_lookup (w->comms, &c->comm)) != NULL)
    return GPOINTER_TO_UINT (value);
  g_array_append_val (w->comm_ids, k);
  g_hash_table_insert (w->comms, (gpointer)&c->comm, GUINT_TO_POINTER (w->comm_ids->len));

  return w->comm_ids->len;
}

/* @rank's place in collective @k's communicator (members by rank) */
static guint32
rank_in (Writer *w,
         guint   k,
         guint   rank)
{
  const SextantReplayCollective *c = &g_array_index (sextant_torus_replay_get_collectives (w->replay),
                                                     SextantReplayCollective, k);
  const GArray *members = sextant_torus_replay_get_members (w->replay);
  guint32 below = 0;

  if (c->n_members == sextant_torus_replay_get_n_ranks (w->replay))
    return rank;
  for (guint j = 0; j < c->n_members; j++)
    below += g_array_index (members, SextantReplayMember, c->first_member + j).rank < rank ? 1 : 0;

  return below;
}

static void
write_record (const SextantReplayRecord *rec,
              gpointer                   user_data)
{
  Writer *w = user_data;
  OTF2_TimeStamp ts = (OTF2_TimeStamp)rec->time;
  Region *region = region_of (w, rec->call->name);
  OTF2_ErrorCode status = OTF2_SUCCESS;

  switch (rec->kind)
    {
    case SEXTANT_REPLAY_RECORD_ENTER:
      status = OTF2_EvtWriter_Enter (w->evt, NULL, ts, region->id);
      break;
    case SEXTANT_REPLAY_RECORD_LEAVE:
      status = OTF2_EvtWriter_Leave (w->evt, NULL, ts, region->id);
      break;
    case SEXTANT_REPLAY_RECORD_SEND:
      region->message = TRUE;
      status = OTF2_EvtWriter_MpiSend (w->evt, NULL, ts, rec->peer, COMM_WORLD, 0, rec->bytes);
      break;
    case SEXTANT_REPLAY_RECORD_RECV:
      region->message = TRUE;
      status = OTF2_EvtWriter_MpiRecv (w->evt, NULL, ts, rec->peer, COMM_WORLD, 0, rec->bytes);
      break;
    case SEXTANT_REPLAY_RECORD_COLLECTIVE_BEGIN:
      region->collective = TRUE;
      status = OTF2_EvtWriter_MpiCollectiveBegin (w->evt, NULL, ts);
      break;
    case SEXTANT_REPLAY_RECORD_COLLECTIVE_END:
      {
        const SextantReplayCollective *c = &g_array_index (sextant_torus_replay_get_collectives (w->replay),
                                                           SextantReplayCollective, rec->index);
        gboolean rooted = c->op == SEXTANT_TORUS_OP_BCAST || c->op == SEXTANT_TORUS_OP_REDUCE;
        guint64 bytes = c->bytes;

        status = OTF2_EvtWriter_MpiCollectiveEnd (w->evt, NULL, ts, (OTF2_CollectiveOp)c->otf2_op,
                                                  comm_of (w, rec->index),
                                                  rooted ? rank_in (w, rec->index, c->root) : OTF2_UNDEFINED_UINT32,
                                                  bytes, bytes);
      }
      break;
    }
  check (w, status, "writing an event");
  w->n_events++;
  w->last_ts = MAX (w->last_ts, rec->time);
}

static void
write_defs (Writer *w,
            const guint64 *n_events)
{
  SextantTorus *torus = sextant_torus_replay_get_torus (w->replay);
  guint n = sextant_torus_replay_get_n_ranks (w->replay);
  const GArray *members = sextant_torus_replay_get_members (w->replay);
  g_autofree uint64_t *ranks = g_new (uint64_t, n);
  g_autofree char *dims = sextant_torus_to_string (torus);
  g_autofree char *system = g_strdup_printf ("torus %s (replay)", dims);

  check (w, OTF2_GlobalDefWriter_WriteClockProperties (w->defs, G_GUINT64_CONSTANT (1000000000000), 0,
                                                        (guint64)w->last_ts + 1, OTF2_UNDEFINED_TIMESTAMP),
         "WriteClockProperties");
  check (w, OTF2_GlobalDefWriter_WriteParadigm (w->defs, OTF2_PARADIGM_MPI, string_ref (w, "MPI"),
                                                 OTF2_PARADIGM_CLASS_PROCESS), "WriteParadigm");
  check (w, OTF2_GlobalDefWriter_WriteSystemTreeNode (w->defs, 0, string_ref (w, system), string_ref (w, "machine"),
                                                       OTF2_UNDEFINED_SYSTEM_TREE_NODE), "WriteSystemTreeNode");
  for (guint r = 0; r < n; r++)
    {
      guint node = sextant_torus_replay_get_node (w->replay, r);
      g_autofree char *at = sextant_torus_format_node (torus, node);
      g_autofree char *name = g_strdup_printf ("rank %u on node %u %s", r, node, at);

      check (w, OTF2_GlobalDefWriter_WriteLocationGroup (w->defs, r, string_ref (w, name),
                                                          OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                          OTF2_UNDEFINED_LOCATION_GROUP), "WriteLocationGroup");
    }
  for (guint r = 0; r < n; r++)
    {
      check (w, OTF2_GlobalDefWriter_WriteLocation (w->defs, r, string_ref (w, "Master thread"),
                                                     OTF2_LOCATION_TYPE_CPU_THREAD, n_events[r], r), "WriteLocation");
      ranks[r] = r;
    }
  for (guint i = 0; i < w->region_names->len; i++)
    {
      const char *name = g_ptr_array_index (w->region_names, i);
      const Region *region = g_hash_table_lookup (w->regions, name);
      OTF2_StringRef ref = string_ref (w, name);

      check (w, OTF2_GlobalDefWriter_WriteRegion (w->defs, region->id, ref, ref, string_ref (w, ""),
                                                   region->collective ? OTF2_REGION_ROLE_COLL_ALL2ALL
                                                   : region->message ? OTF2_REGION_ROLE_POINT2POINT
                                                                     : OTF2_REGION_ROLE_FUNCTION,
                                                   OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE,
                                                   string_ref (w, "sextant-torus-replay.c"), 0, 0), "WriteRegion");
    }
  check (w, OTF2_GlobalDefWriter_WriteGroup (w->defs, GROUP_LOCATIONS, string_ref (w, "MPI locations"),
                                              OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                              n, ranks), "WriteGroup");
  check (w, OTF2_GlobalDefWriter_WriteGroup (w->defs, GROUP_WORLD, string_ref (w, "all ranks"),
                                              OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                              n, ranks), "WriteGroup");
  check (w, OTF2_GlobalDefWriter_WriteComm (w->defs, COMM_WORLD, string_ref (w, "MPI_COMM_WORLD"), GROUP_WORLD,
                                             OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "WriteComm");
  for (guint i = 0; i < w->comm_ids->len; i++)
    {
      guint k = g_array_index (w->comm_ids, guint, i);
      const SextantReplayCollective *c = &g_array_index (sextant_torus_replay_get_collectives (w->replay),
                                                         SextantReplayCollective, k);
      g_autofree uint64_t *group = g_new (uint64_t, c->n_members);
      g_autofree char *name = g_strdup_printf ("communicator %" G_GINT64_FORMAT, c->comm);
      guint n_group = 0;

      /* its members by rank (their places in it) */
      for (guint r = 0; r < n; r++)
        for (guint j = 0; j < c->n_members; j++)
          if (g_array_index (members, SextantReplayMember, c->first_member + j).rank == r)
            {
              group[n_group++] = r;
              break;
            }
      check (w, OTF2_GlobalDefWriter_WriteGroup (w->defs, GROUP_WORLD + 1 + i, string_ref (w, name),
                                                  OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                  n_group, group), "WriteGroup");
      check (w, OTF2_GlobalDefWriter_WriteComm (w->defs, 1 + i, string_ref (w, name), GROUP_WORLD + 1 + i,
                                                 COMM_WORLD, OTF2_COMM_FLAG_NONE), "WriteComm");
    }
}

/**
 * sextant_torus_replay_trace_write:
 * @kind: which of the two predicted runs
 * @dir: the directory to write traces.otf2, traces.def and traces/ in;
 *   created if needed, it must not hold an archive
 * @error: SEXTANT_SIM_ERROR_TRACE
 *
 * Blocking I/O in the calling thread.
 *
 * Returns: whether the archive was written
 */
gboolean
sextant_torus_replay_trace_write (const SextantTorusReplay  *replay,
                                  SextantReplayKind          kind,
                                  const char                *dir,
                                  GError                   **error)
{
  g_autofree char *anchor = g_build_filename (dir, "traces.otf2", NULL);
  g_autofree char *sub = g_build_filename (dir, "traces", NULL);
  guint n = sextant_torus_replay_get_n_ranks (replay);
  g_autofree guint64 *n_events = g_new0 (guint64, n);
  Writer w = { .replay = replay };

  if (g_file_test (anchor, G_FILE_TEST_EXISTS) || g_file_test (sub, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TRACE,
                   "%s already holds an archive (traces.otf2 or traces/): choose an empty directory", dir);
      return FALSE;
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int errsv = errno;

      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TRACE, "cannot create %s: %s", dir, g_strerror (errsv));
      return FALSE;
    }
  w.archive = OTF2_Archive_Open (dir, "traces", OTF2_FILEMODE_WRITE, EVENT_CHUNK_SIZE, DEF_CHUNK_SIZE,
                                 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (w.archive == NULL)
    {
      g_set_error (error, SEXTANT_SIM_ERROR, SEXTANT_SIM_ERROR_TRACE, "OTF2_Archive_Open (%s) failed", dir);
      return FALSE;
    }
  w.strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w.regions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  w.region_names = g_ptr_array_new ();
  w.comms = g_hash_table_new (g_int64_hash, g_int64_equal);
  w.comm_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  check (&w, OTF2_Archive_SetFlushCallbacks (w.archive, &_sextant_sim_otf2_flush_callbacks, NULL), "SetFlushCallbacks");
  check (&w, OTF2_Archive_SetSerialCollectiveCallbacks (w.archive), "SetSerialCollectiveCallbacks");
  check (&w, OTF2_Archive_SetCreator (w.archive, "sextant sim replay " PACKAGE_VERSION), "SetCreator");
  check (&w, OTF2_Archive_OpenEvtFiles (w.archive), "OpenEvtFiles");

  for (w.rank = 0; w.rank < n && w.error == NULL; w.rank++)
    {
      guint64 before = w.n_events;

      if ((w.evt = OTF2_Archive_GetEvtWriter (w.archive, w.rank)) == NULL)
        {
          check (&w, OTF2_ERROR_INVALID_ARGUMENT, "OTF2_Archive_GetEvtWriter");
          break;
        }
      sextant_torus_replay_foreach_record (replay, kind, w.rank, write_record, &w);
      n_events[w.rank] = w.n_events - before;
      check (&w, OTF2_Archive_CloseEvtWriter (w.archive, w.evt), "CloseEvtWriter");
    }
  check (&w, OTF2_Archive_CloseEvtFiles (w.archive), "CloseEvtFiles");

  if ((w.defs = OTF2_Archive_GetGlobalDefWriter (w.archive)) == NULL)
    check (&w, OTF2_ERROR_INVALID_ARGUMENT, "GetGlobalDefWriter");
  if (w.error == NULL)
    write_defs (&w, n_events);
  check (&w, OTF2_Archive_Close (w.archive), "OTF2_Archive_Close");

  g_hash_table_unref (w.strings);
  g_hash_table_unref (w.regions);
  g_ptr_array_unref (w.region_names);
  g_hash_table_unref (w.comms);
  g_array_unref (w.comm_ids);
  if (w.error != NULL)
    {
      g_propagate_prefixed_error (error, w.error, "%s: ", dir);
      return FALSE;
    }

  return TRUE;
}
