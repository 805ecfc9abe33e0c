/*
 * sextant-recorder-unify.c - writing the archive: definitions and the end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * At MPI_Finalize (sextant__write_definitions, collective):
 *  1. every rank closes its event writers (their events use local ids) and
 *     serialises its local definitions, its locations (id, name, number of
 *     events), its host name and the span of its events on rank 0's clock;
 *  2. rank 0 gathers them and unifies: the same string, region, source
 *     code location, calling context or group is one global definition;
 *     communicators and windows are the same when their keys are (see
 *     sextant__comm_def); global ids are dense in order of first appearance
 *     with rank 0 first;
 *  3. rank 0 sends every rank its local -> global maps; each rank writes,
 *     for each of its locations, a local definition file with OTF2 mapping
 *     tables (REGION, COMM, GROUP, RMA_WIN, SOURCE_CODE_LOCATION,
 *     CALLING_CONTEXT; libotf2's reader applies them to events and to
 *     attribute values) and its ClockOffset records;
 *  4. rank 0 writes the global definitions; everyone closes the archive,
 *     rank 0 (which writes the anchor file) only once every rank has
 *     closed its files, and the ranks learn that it did: until then every
 *     rank keeps its crash journal.
 *
 * Global definitions: ClockProperties (ns, global offset = the first event
 * on rank 0's clock), the MPI paradigm, the strings, the two call-site
 * attributes (ids 0 and 1), the system tree (machine > one node per host
 * name), one PROCESS location group "MPI Rank r" per rank (id r; readers
 * want dense ids, so in an archive of one rank alone its group is 0), the
 * locations, the regions, source code locations and calling contexts, the
 * groups (0: COMM_LOCATIONS of the main threads, whose location ids are the
 * ranks; 1: COMM_SELF; then one COMM_GROUP per communicator other than
 * MPI_COMM_SELF, members as world ranks; then the groups of RMA group
 * synchronisations), the communicators and the RMA windows.
 *
 * sextant__write_salvaged writes the same from the definitions that
 * sextant-record-salvage read back from the crash journals of a run that
 * never reached MPI_Finalize (its event files are written by the salvage).
 *
 * Workload: once per run; rank 0 holds one rank's local definitions at a
 * time plus the unified ones and the maps (8 bytes per local definition of
 * every rank).
 */
#include "config.h"

#include "sextant-recorder-private.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOB_MAGIC 0x53585452u      /* "SXTR" */
#define N_MAPS 6

/* The id kinds that events refer to, with their OTF2 mapping types. */
static const OTF2_MappingType map_types[N_MAPS] = {
  OTF2_MAPPING_REGION, OTF2_MAPPING_SOURCE_CODE_LOCATION, OTF2_MAPPING_CALLING_CONTEXT,
  OTF2_MAPPING_COMM, OTF2_MAPPING_GROUP, OTF2_MAPPING_RMA_WIN,
};

typedef struct
{
  uint64_t id;
  char *name;
  uint64_t n_events;
  uint32_t rank;
} loc_info;

typedef struct
{
  uint32_t rank;
  char *host;
} rank_info;

/* Local -> global ids of one rank, per kind of map_types. */
typedef struct
{
  uint64_t *ids[N_MAPS];
  size_t n[N_MAPS];
} id_maps;

static void
id_maps_free (id_maps *maps)
{
  for (int k = 0; k < N_MAPS; k++)
    free (maps->ids[k]);
  memset (maps, 0, sizeof *maps);
}

/* ---- this rank's blob ---- */

/* The span of this rank's events on rank 0's time line, whichever way
 * libotf2 extrapolates the clock offsets. */
static void
global_span (uint64_t *lo,
             uint64_t *hi)
{
  const sextant__clock_point *a = &sextant__rec.clock_init;
  const sextant__clock_point *b = sextant__rec.have_final_clock ? &sextant__rec.clock_final : NULL;
  uint64_t first_a = sextant__clock_correct (a, NULL, sextant__rec.t_first);
  uint64_t first_b = sextant__clock_correct (a, b, sextant__rec.t_first);
  uint64_t last_a = sextant__clock_correct (b != NULL ? b : a, NULL, sextant__rec.t_last);
  uint64_t last_b = sextant__clock_correct (a, b, sextant__rec.t_last);

  if (sextant__rec.clock_mode == SEXTANT__CLOCK_NONE)
    {
      *lo = sextant__rec.t_first;
      *hi = sextant__rec.t_last;
      return;
    }
  *lo = first_a < first_b ? first_a : first_b;
  *hi = last_a > last_b ? last_a : last_b;
}

static void
serialize_rank (sextant__buf *buf)
{
  uint64_t lo, hi;
  uint32_t n_locations = 0;

  global_span (&lo, &hi);
  sextant__buf_u32 (buf, BLOB_MAGIC);
  sextant__buf_u32 (buf, (uint32_t) sextant__rec.rank);
  sextant__buf_u64 (buf, lo);
  sextant__buf_u64 (buf, hi);
  sextant__buf_str (buf, sextant__rec.hostname);
  for (sextant__thread *t = sextant__rec.threads; t != NULL; t = t->next)
    if (t->evt != NULL)
      n_locations++;
  sextant__buf_u32 (buf, n_locations);
  for (sextant__thread *t = sextant__rec.threads; t != NULL; t = t->next)
    {
      uint64_t n_events = 0;

      if (t->evt == NULL)
        continue;
      OTF2_EvtWriter_GetNumberOfEvents (t->evt, &n_events);
      sextant__buf_u64 (buf, t->location);
      sextant__buf_str (buf, t->name);
      sextant__buf_u64 (buf, n_events);
    }
  sextant__defs_serialize (&sextant__rec.defs, buf);
}

static int
close_event_writers (OTF2_Archive *archive)
{
  int rc = SEXTANT_RECORDER_OK;

  for (sextant__thread *t = sextant__rec.threads; t != NULL; t = t->next)
    {
      OTF2_ErrorCode status;

      if (t->evt == NULL)
        continue;
      status = OTF2_Archive_CloseEvtWriter (archive, t->evt);
      if (status != OTF2_SUCCESS)
        {
          sextant__warn_otf2 (status, "closing an event writer");
          rc = SEXTANT_RECORDER_ERR_OTF2;
        }
      t->evt = NULL;
      t->writer = NULL;
    }
  return rc;
}

/* ---- unification (rank 0) ---- */

static uint64_t
mapped (const uint32_t *map,
        size_t          n,
        uint32_t        local)
{
  return local < n ? map[local] : SEXTANT__UNDEF;
}

/* Merges @local (one rank's definitions) into @global and fills @maps. */
static int
unify_rank (sextant__defs       *global,
            const sextant__defs *local,
            id_maps             *maps)
{
  uint32_t *smap = malloc ((local->n_strings + 1) * sizeof *smap);
  uint32_t *rmap = malloc ((local->n_regions + 1) * sizeof *rmap);
  uint32_t *lmap = malloc ((local->n_scls + 1) * sizeof *lmap);
  uint32_t *xmap = malloc ((local->n_contexts + 1) * sizeof *xmap);
  uint32_t *cmap = malloc ((local->n_comms + 1) * sizeof *cmap);
  uint32_t *gmap = malloc ((local->n_groups + 1) * sizeof *gmap);
  uint32_t *wmap = malloc ((local->n_wins + 1) * sizeof *wmap);
  const uint32_t *maps32[N_MAPS] = { rmap, lmap, xmap, cmap, gmap, wmap };
  const size_t counts[N_MAPS] = { local->n_regions, local->n_scls, local->n_contexts,
                                  local->n_comms, local->n_groups, local->n_wins };
  int rc = -1;

  if (!smap || !rmap || !lmap || !xmap || !cmap || !gmap || !wmap)
    goto out;

  for (size_t i = 0; i < local->n_strings; i++)
    smap[i] = sextant__def_string (global, local->strings[i]);

  for (size_t i = 0; i < local->n_regions; i++)
    {
      sextant__region_def def = local->regions[i];

      def.name = (uint32_t) mapped (smap, local->n_strings, def.name);
      def.file = (uint32_t) mapped (smap, local->n_strings, def.file);
      rmap[i] = def.name != SEXTANT__UNDEF ? sextant__def_region (global, &def) : SEXTANT__UNDEF;
    }

  for (size_t i = 0; i < local->n_scls; i++)
    {
      uint32_t file = (uint32_t) mapped (smap, local->n_strings, local->scls[i].file);

      lmap[i] = file != SEXTANT__UNDEF ? sextant__def_scl (global, file, local->scls[i].line)
                                       : SEXTANT__UNDEF;
    }

  for (size_t i = 0; i < local->n_contexts; i++)
    {
      const sextant__context_def *c = &local->contexts[i];
      uint32_t region = (uint32_t) mapped (rmap, local->n_regions, c->region);
      /* parents are defined before their children */
      uint32_t parent = c->parent < i ? xmap[c->parent] : SEXTANT__UNDEF;

      xmap[i] = region != SEXTANT__UNDEF
                ? sextant__def_context (global, region, (uint32_t) mapped (lmap, local->n_scls, c->scl), parent)
                : SEXTANT__UNDEF;
    }

  for (size_t i = 0; i < local->n_comms; i++)
    {
      sextant__comm_def def = local->comms[i];

      def.name = (uint32_t) mapped (smap, local->n_strings, def.name);
      def.parent = def.parent < i ? cmap[def.parent] : SEXTANT__UNDEF;
      if (def.kind > SEXTANT__COMM_MEMBERS || def.name == SEXTANT__UNDEF)
        {
          cmap[i] = SEXTANT__UNDEF;
          continue;
        }
      cmap[i] = sextant__def_comm (global, &def);
    }

  for (size_t i = 0; i < local->n_groups; i++)
    gmap[i] = sextant__def_group (global, local->groups[i].members, local->groups[i].n_members);

  for (size_t i = 0; i < local->n_wins; i++)
    {
      const sextant__win_def *w = &local->wins[i];
      uint32_t comm = (uint32_t) mapped (cmap, local->n_comms, w->comm);
      uint32_t name = (uint32_t) mapped (smap, local->n_strings, w->name);
      /* a window without a communicator is this rank's own */
      uint32_t seq = comm != SEXTANT__UNDEF ? w->seq : (uint32_t) global->n_wins;

      wmap[i] = name != SEXTANT__UNDEF ? sextant__def_win (global, name, comm, seq) : SEXTANT__UNDEF;
    }

  for (int k = 0; k < N_MAPS; k++)
    {
      maps->n[k] = counts[k];
      maps->ids[k] = malloc ((counts[k] + 1) * sizeof *maps->ids[k]);
      if (maps->ids[k] == NULL)
        goto out;
      for (size_t i = 0; i < counts[k]; i++)
        maps->ids[k][i] = maps32[k][i] == SEXTANT__UNDEF ? OTF2_UNDEFINED_UINT32 : maps32[k][i];
    }
  rc = 0;
out:
  free (smap);
  free (rmap);
  free (lmap);
  free (xmap);
  free (cmap);
  free (gmap);
  free (wmap);
  return rc;
}

/* ---- global definitions ---- */

/* Group ids are dense (readers insist): 0 and 1, then one per communicator
 * other than MPI_COMM_SELF, in communicator order, then the sync groups. */
#define GROUP_LOCATIONS 0
#define GROUP_SELF 1
#define GROUP_COMMS 2

static uint32_t
sync_group_base (const sextant__defs *g)
{
  uint32_t id = GROUP_COMMS;

  for (size_t i = 0; i < g->n_comms; i++)
    if (g->comms[i].kind != SEXTANT__COMM_SELF)
      id++;
  return id;
}

#define CHECK(call)                                                           \
  do {                                                                        \
    OTF2_ErrorCode status_ = (call);                                          \
    if (status_ != OTF2_SUCCESS)                                              \
      {                                                                       \
        sextant__warn_otf2 (status_, #call);                                  \
        return SEXTANT_RECORDER_ERR_OTF2;                                     \
      }                                                                       \
  } while (0)

static OTF2_StringRef
str_ref (uint32_t id)
{
  return id == SEXTANT__UNDEF ? OTF2_UNDEFINED_STRING : id;
}

static int
write_global (OTF2_GlobalDefWriter *w,
              sextant__defs        *g,
              const loc_info       *locs,
              size_t                n_locs,
              const rank_info      *ranks,
              size_t                n_ranks,
              uint64_t              offset,
              uint64_t              length,
              uint64_t              realtime)
{
  uint32_t *loc_names = malloc ((n_locs + 1) * sizeof *loc_names);
  uint32_t *group_names = malloc ((n_ranks + 1) * sizeof *group_names);
  uint32_t *node_of_rank = malloc ((n_ranks + 1) * sizeof *node_of_rank);
  uint32_t *node_names = malloc ((n_ranks + 2) * sizeof *node_names);   /* by node id */
  uint64_t *members = malloc (((size_t) sextant__rec.size + 1) * sizeof *members);
  uint32_t *comm_group = malloc ((g->n_comms + 1) * sizeof *comm_group);
  /* location group ids are dense too: position in @ranks (= the rank when
   * every rank is there) */
  uint32_t *group_of_rank = malloc (((size_t) sextant__rec.size + 1) * sizeof *group_of_rank);
  sextant__blobmap hosts = { 0 };
  uint32_t n_nodes = 0;
  uint32_t s_mpi, s_machine, s_node, s_cs, s_cs_desc, s_cc, s_cc_desc, s_locations, s_self;
  uint32_t s_oc[4], s_oc_desc[4];
  uint32_t s_nbc, s_nbc_desc;
  int rc = SEXTANT_RECORDER_ERR_NOMEM;

  if (!loc_names || !group_names || !node_of_rank || !node_names || !members || !comm_group ||
      !group_of_rank)
    goto out;
  for (int r = 0; r < sextant__rec.size; r++)
    group_of_rank[r] = OTF2_UNDEFINED_LOCATION_GROUP;
  for (size_t i = 0; i < n_ranks; i++)
    if (ranks[i].rank < (uint32_t) sextant__rec.size)
      group_of_rank[ranks[i].rank] = (uint32_t) i;
  {
    uint32_t next = GROUP_COMMS;

    for (size_t i = 0; i < g->n_comms; i++)
      comm_group[i] = g->comms[i].kind == SEXTANT__COMM_SELF ? GROUP_SELF : next++;
  }

  /* every string first: names of what only rank 0 defines */
  s_mpi = sextant__def_string (g, "MPI");
  s_machine = sextant__def_string (g, "machine");
  s_node = sextant__def_string (g, "node");
  s_cs = sextant__def_string (g, "call site");
  s_cs_desc = sextant__def_string (g, "source line of the MPI call");
  s_cc = sextant__def_string (g, "calling context");
  s_cc_desc = sextant__def_string (g, "call path of the MPI call, innermost frame first");
  s_oc[0] = sextant__def_string (g, "onecoll window");
  s_oc_desc[0] = sextant__def_string (g, "id of the onecoll window the region works on");
  s_oc[1] = sextant__def_string (g, "onecoll sequence");
  s_oc_desc[1] = sextant__def_string (g, "number of the broadcast on its window, from 1");
  s_oc[2] = sextant__def_string (g, "onecoll root");
  s_oc_desc[2] = sextant__def_string (g, "root rank of the broadcast");
  s_oc[3] = sextant__def_string (g, "onecoll peer");
  s_oc_desc[3] = sextant__def_string (g, "put request: the target rank; relay: the parent rank");
  s_nbc = sextant__def_string (g, "communicator");
  s_nbc_desc = sextant__def_string (g, "communicator of the non-blocking collective this request starts");
  s_locations = sextant__def_string (g, "MPI locations");
  s_self = sextant__def_string (g, "MPI_COMM_SELF group");
  for (size_t i = 0; i < n_locs; i++)
    loc_names[i] = sextant__def_string (g, locs[i].name);
  for (size_t i = 0; i < n_ranks; i++)
    {
      char name[32];

      snprintf (name, sizeof name, "MPI Rank %" PRIu32, ranks[i].rank);
      group_names[i] = sextant__def_string (g, name);
      /* nodes get the ids 1.. in order of first appearance of their host */
      if (!sextant__blobmap_get (&hosts, ranks[i].host, strlen (ranks[i].host), &node_of_rank[i]))
        {
          node_of_rank[i] = ++n_nodes;
          if (sextant__blobmap_put (&hosts, ranks[i].host, strlen (ranks[i].host), node_of_rank[i]) != 0)
            goto out;
          node_names[n_nodes] = sextant__def_string (g, ranks[i].host);
        }
    }
  if (s_self == SEXTANT__UNDEF || g->n_strings > SEXTANT__UNDEF - 1)
    goto out;

  rc = SEXTANT_RECORDER_ERR_OTF2;
#undef CHECK
#define CHECK(call)                                                           \
  do {                                                                        \
    OTF2_ErrorCode status_ = (call);                                          \
    if (status_ != OTF2_SUCCESS)                                              \
      {                                                                       \
        sextant__warn_otf2 (status_, #call);                                  \
        goto out;                                                             \
      }                                                                       \
  } while (0)

  CHECK (OTF2_GlobalDefWriter_WriteClockProperties (w, UINT64_C (1000000000), offset, length, realtime));
  for (size_t i = 0; i < g->n_strings; i++)
    CHECK (OTF2_GlobalDefWriter_WriteString (w, (OTF2_StringRef) i, g->strings[i]));
  CHECK (OTF2_GlobalDefWriter_WriteParadigm (w, OTF2_PARADIGM_MPI, s_mpi, OTF2_PARADIGM_CLASS_PROCESS));
  CHECK (OTF2_GlobalDefWriter_WriteAttribute (w, SEXTANT__ATTR_CALLSITE, s_cs, s_cs_desc,
                                              OTF2_TYPE_SOURCE_CODE_LOCATION));
  CHECK (OTF2_GlobalDefWriter_WriteAttribute (w, SEXTANT__ATTR_CONTEXT, s_cc, s_cc_desc,
                                              OTF2_TYPE_CALLING_CONTEXT));
  CHECK (OTF2_GlobalDefWriter_WriteAttribute (w, SEXTANT__ATTR_ONECOLL_WIN, s_oc[0], s_oc_desc[0],
                                              OTF2_TYPE_UINT64));
  CHECK (OTF2_GlobalDefWriter_WriteAttribute (w, SEXTANT__ATTR_ONECOLL_SEQ, s_oc[1], s_oc_desc[1],
                                              OTF2_TYPE_UINT64));
  CHECK (OTF2_GlobalDefWriter_WriteAttribute (w, SEXTANT__ATTR_ONECOLL_ROOT, s_oc[2], s_oc_desc[2],
                                              OTF2_TYPE_INT32));
  CHECK (OTF2_GlobalDefWriter_WriteAttribute (w, SEXTANT__ATTR_ONECOLL_PEER, s_oc[3], s_oc_desc[3],
                                              OTF2_TYPE_INT32));
  CHECK (OTF2_GlobalDefWriter_WriteAttribute (w, SEXTANT__ATTR_NBC_COMM, s_nbc, s_nbc_desc,
                                              OTF2_TYPE_COMM));

  CHECK (OTF2_GlobalDefWriter_WriteSystemTreeNode (w, 0, s_machine, s_machine,
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  for (uint32_t node = 1; node <= n_nodes; node++)
    CHECK (OTF2_GlobalDefWriter_WriteSystemTreeNode (w, node, str_ref (node_names[node]), s_node, 0));
  for (size_t i = 0; i < n_ranks; i++)
    CHECK (OTF2_GlobalDefWriter_WriteLocationGroup (w, (OTF2_LocationGroupRef) i, group_names[i],
                                                    OTF2_LOCATION_GROUP_TYPE_PROCESS, node_of_rank[i],
                                                    OTF2_UNDEFINED_LOCATION_GROUP));
  for (size_t i = 0; i < n_locs; i++)
    CHECK (OTF2_GlobalDefWriter_WriteLocation (w, locs[i].id, loc_names[i], OTF2_LOCATION_TYPE_CPU_THREAD,
                                               locs[i].n_events,
                                               locs[i].rank < (uint32_t) sextant__rec.size
                                               ? group_of_rank[locs[i].rank] : OTF2_UNDEFINED_LOCATION_GROUP));

  for (size_t i = 0; i < g->n_regions; i++)
    {
      const sextant__region_def *r = &g->regions[i];

      CHECK (OTF2_GlobalDefWriter_WriteRegion (w, (OTF2_RegionRef) i, str_ref (r->name), str_ref (r->name),
                                               OTF2_UNDEFINED_STRING, (OTF2_RegionRole) r->role,
                                               (OTF2_Paradigm) r->paradigm, OTF2_REGION_FLAG_NONE,
                                               str_ref (r->file), r->begin, r->end));
    }
  for (size_t i = 0; i < g->n_scls; i++)
    CHECK (OTF2_GlobalDefWriter_WriteSourceCodeLocation (w, (OTF2_SourceCodeLocationRef) i,
                                                         str_ref (g->scls[i].file), g->scls[i].line));
  for (size_t i = 0; i < g->n_contexts; i++)
    {
      const sextant__context_def *c = &g->contexts[i];

      CHECK (OTF2_GlobalDefWriter_WriteCallingContext (w, (OTF2_CallingContextRef) i, c->region,
                                                       c->scl == SEXTANT__UNDEF
                                                       ? OTF2_UNDEFINED_SOURCE_CODE_LOCATION : c->scl,
                                                       c->parent == SEXTANT__UNDEF
                                                       ? OTF2_UNDEFINED_CALLING_CONTEXT : c->parent));
    }

  /* the main thread of rank r is location r */
  for (int r = 0; r < sextant__rec.size; r++)
    members[r] = (uint64_t) r;
  CHECK (OTF2_GlobalDefWriter_WriteGroup (w, GROUP_LOCATIONS, s_locations, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          (uint32_t) sextant__rec.size, members));
  CHECK (OTF2_GlobalDefWriter_WriteGroup (w, GROUP_SELF, s_self, OTF2_GROUP_TYPE_COMM_SELF,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, NULL));
  for (size_t i = 0; i < g->n_comms; i++)
    {
      const sextant__comm_def *c = &g->comms[i];
      uint64_t *m;

      if (c->kind == SEXTANT__COMM_SELF)
        continue;
      m = malloc ((c->n_members + 1) * sizeof *m);
      if (m == NULL)
        goto out;
      for (uint32_t j = 0; j < c->n_members; j++)
        m[j] = c->members[j];
      {
        OTF2_ErrorCode status = OTF2_GlobalDefWriter_WriteGroup (w, comm_group[i],
                                                                 str_ref (c->name),
                                                                 OTF2_GROUP_TYPE_COMM_GROUP,
                                                                 OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                                 c->n_members, m);

        free (m);
        CHECK (status);
      }
    }
  for (size_t i = 0; i < g->n_groups; i++)
    {
      const sextant__group_def *grp = &g->groups[i];
      uint64_t *m = malloc ((grp->n_members + 1) * sizeof *m);

      if (m == NULL)
        goto out;
      for (uint32_t j = 0; j < grp->n_members; j++)
        m[j] = grp->members[j];
      {
        OTF2_ErrorCode status = OTF2_GlobalDefWriter_WriteGroup (w, sync_group_base (g) + (uint32_t) i,
                                                                 OTF2_UNDEFINED_STRING,
                                                                 OTF2_GROUP_TYPE_COMM_GROUP,
                                                                 OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                                 grp->n_members, m);

        free (m);
        CHECK (status);
      }
    }
  for (size_t i = 0; i < g->n_comms; i++)
    {
      const sextant__comm_def *c = &g->comms[i];

      CHECK (OTF2_GlobalDefWriter_WriteComm (w, (OTF2_CommRef) i, str_ref (c->name),
                                             comm_group[i],
                                             c->parent == SEXTANT__UNDEF ? OTF2_UNDEFINED_COMM : c->parent,
                                             OTF2_COMM_FLAG_NONE));
    }
  for (size_t i = 0; i < g->n_wins; i++)
    CHECK (OTF2_GlobalDefWriter_WriteRmaWin (w, (OTF2_RmaWinRef) i, str_ref (g->wins[i].name),
                                             g->wins[i].comm == SEXTANT__UNDEF ? OTF2_UNDEFINED_COMM
                                             : g->wins[i].comm,
                                             OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS));
  rc = SEXTANT_RECORDER_OK;
out:
  free (loc_names);
  free (group_names);
  free (node_of_rank);
  free (node_names);
  free (members);
  free (comm_group);
  free (group_of_rank);
  sextant__blobmap_free (&hosts);
  return rc;
}
#undef CHECK

/* The local definitions of every location of this rank. */
static int
write_local (OTF2_Archive  *archive,
             const id_maps *maps)
{
  int rc = SEXTANT_RECORDER_OK;

  for (sextant__thread *t = sextant__rec.threads; t != NULL; t = t->next)
    {
      OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter (archive, t->location);
      OTF2_ErrorCode status = OTF2_SUCCESS;

      if (dw == NULL)
        {
          sextant__warn ("libotf2 gave no definition writer for location %" PRIu64, t->location);
          rc = SEXTANT_RECORDER_ERR_OTF2;
          continue;
        }
      for (int k = 0; maps != NULL && k < N_MAPS && status == OTF2_SUCCESS; k++)
        {
          OTF2_IdMap *map;

          size_t i = 0;

          /* an identity needs no table (and libotf2 makes none for it) */
          while (i < maps->n[k] && maps->ids[k][i] == i)
            i++;
          if (i == maps->n[k])
            continue;
          map = OTF2_IdMap_CreateFromUint64Array (maps->n[k], maps->ids[k], true);
          if (map == NULL)
            {
              status = OTF2_ERROR_MEM_FAULT;
              break;
            }
          status = OTF2_DefWriter_WriteMappingTable (dw, map_types[k], map);
          OTF2_IdMap_Free (map);
        }
      if (status == OTF2_SUCCESS && sextant__rec.clock_mode != SEXTANT__CLOCK_NONE)
        {
          status = OTF2_DefWriter_WriteClockOffset (dw, sextant__rec.clock_init.time,
                                                    sextant__rec.clock_init.offset,
                                                    sextant__rec.clock_init.deviation);
          if (status == OTF2_SUCCESS && sextant__rec.have_final_clock &&
              sextant__rec.clock_final.time > sextant__rec.clock_init.time)
            status = OTF2_DefWriter_WriteClockOffset (dw, sextant__rec.clock_final.time,
                                                      sextant__rec.clock_final.offset,
                                                      sextant__rec.clock_final.deviation);
        }
      if (status != OTF2_SUCCESS)
        {
          sextant__warn_otf2 (status, "writing local definitions");
          rc = SEXTANT_RECORDER_ERR_OTF2;
        }
      status = OTF2_Archive_CloseDefWriter (archive, dw);
      if (status != OTF2_SUCCESS && rc == SEXTANT_RECORDER_OK)
        {
          sextant__warn_otf2 (status, "closing local definitions");
          rc = SEXTANT_RECORDER_ERR_OTF2;
        }
    }
  return rc;
}

/* ---- the collective end ---- */

/* Group ids in events are local sync-group ids; globally those groups come
 * after the communicators' groups. */
static void
shift_groups (id_maps  *maps,
              uint32_t  base)
{
  for (int k = 0; k < N_MAPS; k++)
    if (map_types[k] == OTF2_MAPPING_GROUP)
      for (size_t i = 0; i < maps->n[k]; i++)
        if (maps->ids[k][i] != OTF2_UNDEFINED_UINT32)
          maps->ids[k][i] += base;
}

static void
serialize_maps (sextant__buf  *buf,
                const id_maps *maps)
{
  for (int k = 0; k < N_MAPS; k++)
    {
      sextant__buf_u32 (buf, (uint32_t) maps->n[k]);
      sextant__buf_bytes (buf, maps->ids[k], maps->n[k] * sizeof *maps->ids[k]);
    }
}

static int
deserialize_maps (sextant__reader *rd,
                  id_maps         *maps)
{
  for (int k = 0; k < N_MAPS; k++)
    {
      uint32_t n = sextant__read_u32 (rd);

      if (rd->failed || (size_t) (rd->end - rd->pos) / sizeof (uint64_t) < n)
        return -1;
      maps->n[k] = n;
      maps->ids[k] = malloc ((n + 1) * sizeof (uint64_t));
      if (maps->ids[k] == NULL)
        return -1;
      memcpy (maps->ids[k], rd->pos, n * sizeof (uint64_t));
      rd->pos += n * sizeof (uint64_t);
    }
  return 0;
}

/* Rank 0: reads every rank's blob, unifies, writes the global definitions
 * and fills one map buffer per rank. */
static int
root_unify (const unsigned char *all,
            const int           *sizes,
            const int           *displs,
            sextant__buf        *out_maps,
            uint32_t            *group_base)
{
  int size = sextant__rec.size;
  sextant__defs global = { 0 };
  id_maps *maps = calloc ((size_t) size, sizeof *maps);
  loc_info *locs = NULL;
  rank_info *ranks = calloc ((size_t) size, sizeof *ranks);
  size_t n_locs = 0, cap_locs = 0;
  uint64_t lo = UINT64_MAX, hi = 0;
  int rc = SEXTANT_RECORDER_ERR_NOMEM;

  if (maps == NULL || ranks == NULL)
    goto out;
  for (int r = 0; r < size; r++)
    {
      sextant__reader rd = { all + displs[r], all + displs[r] + sizes[r], 0 };
      sextant__defs local = { 0 };
      uint32_t n, rank;
      uint64_t rlo, rhi;

      if (sizes[r] == 0)
        continue;                   /* a rank that had nothing to send */
      if (sextant__read_u32 (&rd) != BLOB_MAGIC)
        {
          sextant__warn ("the definitions of rank %d are unreadable; its events are lost", r);
          continue;
        }
      rank = sextant__read_u32 (&rd);
      rlo = sextant__read_u64 (&rd);
      rhi = sextant__read_u64 (&rd);
      ranks[r].rank = rank;
      ranks[r].host = strdup (sextant__read_str (&rd));
      n = sextant__read_u32 (&rd);
      for (uint32_t i = 0; i < n && !rd.failed; i++)
        {
          if (sextant__grow ((void **) &locs, &cap_locs, n_locs + 1, sizeof *locs) != 0)
            goto out;
          locs[n_locs].id = sextant__read_u64 (&rd);
          locs[n_locs].name = strdup (sextant__read_str (&rd));
          locs[n_locs].n_events = sextant__read_u64 (&rd);
          locs[n_locs].rank = rank;
          n_locs++;
        }
      if (ranks[r].host == NULL || rd.failed || sextant__defs_deserialize (&rd, &local) != 0 ||
          unify_rank (&global, &local, &maps[r]) != 0)
        {
          sextant__defs_clear (&local);
          goto out;
        }
      sextant__defs_clear (&local);
      if (rlo < lo)
        lo = rlo;
      if (rhi > hi)
        hi = rhi;
    }
  if (lo > hi)
    lo = hi = 0;

  {
    OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter (sextant__rec.archive);
    uint64_t realtime = sextant__rec.realtime_at_init + (lo - sextant__rec.monotonic_at_init);
    size_t n_ranks = 0;

    if (w == NULL)
      {
        rc = SEXTANT_RECORDER_ERR_OTF2;
        goto out;
      }
    /* ranks whose blob was unreadable have no location group */
    for (int r = 0; r < size; r++)
      if (ranks[r].host != NULL)
        ranks[n_ranks++] = ranks[r];
    rc = write_global (w, &global, locs, n_locs, ranks, n_ranks, lo, hi - lo, realtime);
    for (size_t r = n_ranks; r < (size_t) size; r++)
      ranks[r].host = NULL;         /* moved */
    OTF2_Archive_CloseGlobalDefWriter (sextant__rec.archive, w);
  }
  *group_base = sync_group_base (&global);
  for (int r = 0; r < size; r++)
    serialize_maps (&out_maps[r], &maps[r]);

out:
  for (int r = 0; maps != NULL && r < size; r++)
    id_maps_free (&maps[r]);
  free (maps);
  for (size_t i = 0; i < n_locs; i++)
    free (locs[i].name);
  free (locs);
  for (int r = 0; ranks != NULL && r < size; r++)
    free (ranks[r].host);
  free (ranks);
  sextant__defs_clear (&global);
  return rc;
}

int
sextant__write_definitions (void)
{
  OTF2_Archive *archive = sextant__rec.archive;
  int size = sextant__rec.size;
  int root = sextant__rec.rank == 0;
  sextant__buf blob = { 0 };
  sextant__buf *rank_maps = NULL;
  unsigned char *all = NULL, *mine = NULL;
  int *sizes = NULL, *displs = NULL;
  int my_size, rc = SEXTANT_RECORDER_OK, rc_root = SEXTANT_RECORDER_OK;
  uint32_t group_base = 0;
  id_maps maps = { 0 };
  OTF2_ErrorCode status;

  pthread_mutex_lock (&sextant__rec.lock);
  serialize_rank (&blob);
  pthread_mutex_unlock (&sextant__rec.lock);
  if (blob.failed || blob.len > INT_MAX)
    {
      sextant__warn ("out of memory while collecting the definitions; this rank's events are lost");
      blob.len = 0;
      rc = SEXTANT_RECORDER_ERR_NOMEM;
    }
  if (close_event_writers (archive) != SEXTANT_RECORDER_OK)
    rc = SEXTANT_RECORDER_ERR_OTF2;
  status = OTF2_Archive_CloseEvtFiles (archive);
  if (status != OTF2_SUCCESS)
    {
      sextant__warn_otf2 (status, "closing the event files");
      rc = SEXTANT_RECORDER_ERR_OTF2;
    }
  sextant__test_kill (SEXTANT__KILL_EVENTS_CLOSED);

  /* gather the blobs on rank 0 */
  my_size = (int) blob.len;
  if (root)
    {
      sizes = calloc ((size_t) size, sizeof *sizes);
      displs = calloc ((size_t) size, sizeof *displs);
      rank_maps = calloc ((size_t) size, sizeof *rank_maps);
    }
  if (PMPI_Gather (&my_size, 1, MPI_INT, sizes, 1, MPI_INT, 0, sextant__rec.comm) != MPI_SUCCESS)
    return SEXTANT_RECORDER_ERR_MPI;
  if (root)
    {
      long long total = 0;

      for (int r = 0; sizes != NULL && displs != NULL && r < size; r++)
        {
          displs[r] = (int) total;
          total += sizes[r];
        }
      if (sizes == NULL || displs == NULL || rank_maps == NULL || total > INT_MAX ||
          (all = malloc ((size_t) total + 1)) == NULL)
        {
          /* receive nothing: every rank still takes part */
          sextant__warn ("out of memory gathering the definitions; the archive is not written");
          rc_root = SEXTANT_RECORDER_ERR_NOMEM;
          if (sizes != NULL && displs != NULL)
            for (int r = 0; r < size; r++)
              sizes[r] = displs[r] = 0;
        }
    }
  if (PMPI_Gatherv (blob.data, my_size, MPI_BYTE, all, sizes, displs, MPI_BYTE, 0, sextant__rec.comm)
      != MPI_SUCCESS)
    return SEXTANT_RECORDER_ERR_MPI;
  free (blob.data);

  if (root && rc_root == SEXTANT_RECORDER_OK)
    rc_root = root_unify (all, sizes, displs, rank_maps, &group_base);
  free (all);

  /* send every rank its maps */
  if (root)
    {
      long long total = 0;

      for (int r = 0; sizes != NULL && r < size; r++)
        {
          sizes[r] = rc_root == SEXTANT_RECORDER_OK && !rank_maps[r].failed ? (int) rank_maps[r].len : 0;
          displs[r] = (int) total;
          total += sizes[r];
        }
      all = total > 0 && total <= INT_MAX ? malloc ((size_t) total) : NULL;
      for (int r = 0; all != NULL && r < size; r++)
        if (sizes[r] > 0)
          memcpy (all + displs[r], rank_maps[r].data, (size_t) sizes[r]);
      if (all == NULL)
        for (int r = 0; sizes != NULL && r < size; r++)
          sizes[r] = displs[r] = 0;
      for (int r = 0; rank_maps != NULL && r < size; r++)
        free (rank_maps[r].data);
      free (rank_maps);
    }
  if (PMPI_Bcast (&group_base, 1, MPI_UINT32_T, 0, sextant__rec.comm) != MPI_SUCCESS ||
      PMPI_Scatter (sizes, 1, MPI_INT, &my_size, 1, MPI_INT, 0, sextant__rec.comm) != MPI_SUCCESS)
    return SEXTANT_RECORDER_ERR_MPI;
  mine = malloc ((size_t) my_size + 1);
  if (PMPI_Scatterv (all, sizes, displs, MPI_BYTE, mine, mine != NULL ? my_size : 0, MPI_BYTE, 0,
                     sextant__rec.comm) != MPI_SUCCESS)
    return SEXTANT_RECORDER_ERR_MPI;
  free (all);
  free (sizes);
  free (displs);
  {
    sextant__reader rd = { mine, mine + (mine != NULL ? my_size : 0), 0 };

    if (mine == NULL || my_size == 0 || deserialize_maps (&rd, &maps) != 0)
      {
        if (rc == SEXTANT_RECORDER_OK)
          rc = SEXTANT_RECORDER_ERR_NOMEM;
        id_maps_free (&maps);
      }
    else
      shift_groups (&maps, group_base);
  }
  free (mine);

  /* local definitions, then close */
  sextant__test_kill (SEXTANT__KILL_LOCAL_DEFS);
  status = OTF2_Archive_OpenDefFiles (archive);
  if (status != OTF2_SUCCESS)
    {
      sextant__warn_otf2 (status, "opening the local definition files");
      rc = SEXTANT_RECORDER_ERR_OTF2;
    }
  else if (write_local (archive, maps.ids[0] != NULL ? &maps : NULL) != SEXTANT_RECORDER_OK)
    rc = SEXTANT_RECORDER_ERR_OTF2;
  status = OTF2_Archive_CloseDefFiles (archive);
  id_maps_free (&maps);
  if (status != OTF2_SUCCESS)
    rc = SEXTANT_RECORDER_ERR_OTF2;
  if (root && rc_root != SEXTANT_RECORDER_OK)
    rc = rc_root;

  /* The anchor file says that the archive is complete: once it exists,
   * `sextant import` reads the archive and no longer the crash journals.
   * So rank 0 writes it (OTF2_Archive_Close) only after every rank has
   * closed its files, and no rank removes its journal (the caller) before
   * it is written: a rank killed on the way leaves no anchor and every
   * rank's journal. An archive that some rank failed to write gets no
   * anchor either. */
  rc = sextant__agree (rc);
  sextant__test_kill (SEXTANT__KILL_ANCHOR);
  status = OTF2_Archive_Close (archive);
  sextant__rec.archive = NULL;
  if (status != OTF2_SUCCESS)
    {
      sextant__warn_otf2 (status, "closing the archive");
      if (rc == SEXTANT_RECORDER_OK)
        rc = SEXTANT_RECORDER_ERR_OTF2;
    }
  if (root && rc != SEXTANT_RECORDER_OK)
    unlink (sextant__rec.anchor);
  return sextant__agree (rc);
}

/* ---- a salvaged run (sextant-recorder-salvage.c) ---- */

int
sextant__write_salvaged (const char            *dir,
                         sextant__salvage_rank *ranks,
                         size_t                 n_ranks,
                         int                    world_size)
{
  sextant__defs global = { 0 };
  id_maps *maps = calloc (n_ranks + 1, sizeof *maps);
  rank_info *infos = calloc (n_ranks + 1, sizeof *infos);
  loc_info *locs = NULL;
  size_t n_locs = 0, cap_locs = 0;
  uint64_t lo = UINT64_MAX, hi = 0, realtime = OTF2_UNDEFINED_TIMESTAMP;
  uint32_t group_base;
  OTF2_Archive *archive = NULL;
  OTF2_GlobalDefWriter *w;
  int rc = SEXTANT_RECORDER_ERR_NOMEM;

  if (maps == NULL || infos == NULL)
    goto out;
  sextant__rec.size = world_size;
  for (size_t r = 0; r < n_ranks; r++)
    {
      sextant__salvage_rank *rank = &ranks[r];
      uint64_t rlo, rhi;

      if (unify_rank (&global, &rank->defs, &maps[r]) != 0)
        goto out;
      infos[r].rank = rank->rank;
      infos[r].host = rank->host;
      for (size_t i = 0; i < rank->n_locs; i++)
        {
          if (sextant__grow ((void **) &locs, &cap_locs, n_locs + 1, sizeof *locs) != 0)
            goto out;
          locs[n_locs].id = rank->locs[i].id;
          locs[n_locs].name = rank->locs[i].name;
          locs[n_locs].n_events = rank->locs[i].n_events;
          locs[n_locs].rank = rank->rank;
          n_locs++;
        }
      sextant__rec.clock_init = rank->clock;
      sextant__rec.have_final_clock = 0;
      sextant__rec.clock_mode = rank->clock_mode;
      sextant__rec.t_first = rank->t_first;
      sextant__rec.t_last = rank->t_last > rank->t_first ? rank->t_last : rank->t_first;
      global_span (&rlo, &rhi);
      if (rlo < lo)
        {
          lo = rlo;
          realtime = rank->realtime_at_init + (rlo - rank->monotonic_at_init);
        }
      if (rhi > hi)
        hi = rhi;
    }
  if (lo > hi)
    lo = hi = 0;
  group_base = sync_group_base (&global);

  rc = SEXTANT_RECORDER_ERR_OTF2;
  archive = OTF2_Archive_Open (dir, "traces", OTF2_FILEMODE_WRITE, SEXTANT__EVENT_CHUNK,
                               SEXTANT__DEF_CHUNK, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == NULL || OTF2_Archive_SetSerialCollectiveCallbacks (archive) != OTF2_SUCCESS ||
      OTF2_Archive_SetFlushCallbacks (archive, &sextant__flush_callbacks, NULL) != OTF2_SUCCESS ||
      OTF2_Archive_SetCreator (archive, "Sextant recorder " PACKAGE_VERSION " (salvaged from a crash journal)")
      != OTF2_SUCCESS ||
      (w = OTF2_Archive_GetGlobalDefWriter (archive)) == NULL)
    goto out;
  rc = write_global (w, &global, locs, n_locs, infos, n_ranks, lo, hi - lo, realtime);
  if (rc != SEXTANT_RECORDER_OK)
    goto out;
  rc = SEXTANT_RECORDER_ERR_OTF2;
  if (OTF2_Archive_OpenDefFiles (archive) != OTF2_SUCCESS)
    goto out;
  rc = SEXTANT_RECORDER_OK;
  for (size_t r = 0; r < n_ranks && rc == SEXTANT_RECORDER_OK; r++)
    {
      sextant__thread *threads = calloc (ranks[r].n_locs + 1, sizeof *threads);

      if (threads == NULL)
        {
          rc = SEXTANT_RECORDER_ERR_NOMEM;
          break;
        }
      /* write_local writes one definition file per thread of the process */
      for (size_t i = 0; i < ranks[r].n_locs; i++)
        {
          threads[i].location = ranks[r].locs[i].id;
          threads[i].next = i + 1 < ranks[r].n_locs ? &threads[i + 1] : NULL;
        }
      sextant__rec.threads = ranks[r].n_locs > 0 ? threads : NULL;
      sextant__rec.clock_init = ranks[r].clock;
      sextant__rec.have_final_clock = 0;
      sextant__rec.clock_mode = ranks[r].clock_mode;
      shift_groups (&maps[r], group_base);
      rc = write_local (archive, &maps[r]);
      sextant__rec.threads = NULL;
      free (threads);
    }
  if (OTF2_Archive_CloseDefFiles (archive) != OTF2_SUCCESS && rc == SEXTANT_RECORDER_OK)
    rc = SEXTANT_RECORDER_ERR_OTF2;

out:
  if (archive != NULL && OTF2_Archive_Close (archive) != OTF2_SUCCESS && rc == SEXTANT_RECORDER_OK)
    rc = SEXTANT_RECORDER_ERR_OTF2;
  for (size_t r = 0; maps != NULL && r < n_ranks; r++)
    id_maps_free (&maps[r]);
  free (maps);
  free (infos);
  free (locs);
  sextant__defs_clear (&global);
  return rc;
}
