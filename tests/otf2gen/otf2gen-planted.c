/* otf2gen-planted.c - writes the planted-* traces of otf2gen-planted.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A planted trace is a list of cases, each with its events on several
 * locations.  For every location the events of all cases are merged by
 * timestamp (ties keep the order of the cases and of the events within a
 * case), checked to nest (every LEAVE closes the innermost open ENTER of the
 * same region, nothing stays open) and written; then the definitions every
 * planted trace shares.  The total time the header promises is checked
 * against the merged events before anything is written.
 *
 * Workload: a few hundred records per trace, sorted once; nothing is kept
 * after the archive is closed.
 */

#include "config.h"

#include "otf2gen-planted.h"
#include "otf2gen-writer.h"

/* Record kinds as otf2-print (and the store's event_count) names them. */
static const char * const pl_kind_names[PL_N_EVENT_KINDS] = {
  [PL_EV_ENTER] = "ENTER",
  [PL_EV_LEAVE] = "LEAVE",
  [PL_EV_PROGRAM_BEGIN] = "PROGRAM_BEGIN",
  [PL_EV_PROGRAM_END] = "PROGRAM_END",
  [PL_EV_MPI_SEND] = "MPI_SEND",
  [PL_EV_MPI_ISEND] = "MPI_ISEND",
  [PL_EV_MPI_ISEND_COMPLETE] = "MPI_ISEND_COMPLETE",
  [PL_EV_MPI_IRECV_REQUEST] = "MPI_IRECV_REQUEST",
  [PL_EV_MPI_RECV] = "MPI_RECV",
  [PL_EV_MPI_IRECV] = "MPI_IRECV",
  [PL_EV_MPI_COLLECTIVE_BEGIN] = "MPI_COLLECTIVE_BEGIN",
  [PL_EV_MPI_COLLECTIVE_END] = "MPI_COLLECTIVE_END",
  [PL_EV_NON_BLOCKING_COLLECTIVE_REQUEST] = "NON_BLOCKING_COLLECTIVE_REQUEST",
  [PL_EV_NON_BLOCKING_COLLECTIVE_COMPLETE] = "NON_BLOCKING_COLLECTIVE_COMPLETE",
  [PL_EV_RMA_WIN_CREATE] = "RMA_WIN_CREATE",
  [PL_EV_RMA_WIN_DESTROY] = "RMA_WIN_DESTROY",
  [PL_EV_RMA_COLLECTIVE_BEGIN] = "RMA_COLLECTIVE_BEGIN",
  [PL_EV_RMA_COLLECTIVE_END] = "RMA_COLLECTIVE_END",
  [PL_EV_RMA_REQUEST_LOCK] = "RMA_REQUEST_LOCK",
  [PL_EV_RMA_ACQUIRE_LOCK] = "RMA_ACQUIRE_LOCK",
  [PL_EV_RMA_RELEASE_LOCK] = "RMA_RELEASE_LOCK",
  [PL_EV_THREAD_ACQUIRE_LOCK] = "THREAD_ACQUIRE_LOCK",
  [PL_EV_THREAD_RELEASE_LOCK] = "THREAD_RELEASE_LOCK",
  [PL_EV_OMP_ACQUIRE_LOCK] = "OMP_ACQUIRE_LOCK",
  [PL_EV_OMP_RELEASE_LOCK] = "OMP_RELEASE_LOCK",
  [PL_EV_MPI_REQUEST_CANCELLED] = "MPI_REQUEST_CANCELLED",
};

#define PL_PROGRAM_NAME "planted"

const PlScenario *
sextant_otf2gen_planted_lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (pl_scenarios); i++)
    if (g_str_equal (pl_scenarios[i].name, name))
      return &pl_scenarios[i];

  return NULL;
}

/* Merging ---------------------------------------------------------------- */

typedef struct
{
  const PlEvent *event;
  guint          order;   /* position in the concatenation of the cases */
} PlRef;

static int
pl_ref_compare (gconstpointer a,
                gconstpointer b)
{
  const PlRef *ra = a;
  const PlRef *rb = b;

  if (ra->event->ts != rb->event->ts)
    return ra->event->ts < rb->event->ts ? -1 : 1;

  return (ra->order > rb->order) - (ra->order < rb->order);
}

/* The events of location @loc in the order they are written. */
static GArray *
pl_location_events (const PlScenario *scenario,
                    uint64_t          loc)
{
  GArray *refs = g_array_new (FALSE, FALSE, sizeof (PlRef));
  guint order = 0;

  for (guint c = 0; c < scenario->n_cases; c++)
    {
      const PlCase *pc = &scenario->cases[c];

      for (guint e = 0; e < pc->n_events; e++, order++)
        {
          PlRef ref = { &pc->events[e], order };

          if (pc->events[e].loc == loc)
            g_array_append_val (refs, ref);
        }
    }
  g_array_sort (refs, pl_ref_compare);

  return refs;
}

/* Checks that every location has events and every event a location, that
 * ENTER and LEAVE nest on every location, and that the total time is the
 * promised one. */
static gboolean
pl_check (const PlScenario  *scenario,
          GError           **error)
{
  uint64_t total = 0;

  if (scenario->locations == pl_ranks && scenario->n_locations > G_N_ELEMENTS (pl_ranks))
    {
      g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_COUNT,
                   "%s: %u ranks, pl_ranks[] has %u", scenario->name, scenario->n_locations,
                   (guint) G_N_ELEMENTS (pl_ranks));
      return FALSE;
    }

  for (guint c = 0; c < scenario->n_cases; c++)
    for (guint e = 0; e < scenario->cases[c].n_events; e++)
      {
        const PlEvent *ev = &scenario->cases[c].events[e];
        gboolean known = FALSE;

        for (guint l = 0; l < scenario->n_locations; l++)
          known = known || scenario->locations[l].id == ev->loc;
        if (!known)
          {
            g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_COUNT,
                         "%s, case \"%s\": event on unknown location %" G_GUINT64_FORMAT,
                         scenario->name, scenario->cases[c].name, (guint64) ev->loc);
            return FALSE;
          }
      }

  for (guint l = 0; l < scenario->n_locations; l++)
    {
      g_autoptr(GArray) refs = pl_location_events (scenario, scenario->locations[l].id);
      g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (uint32_t));

      if (refs->len == 0)
        {
          g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_COUNT, "%s: location %" G_GUINT64_FORMAT
                       " has no events", scenario->name, (guint64) scenario->locations[l].id);
          return FALSE;
        }

      for (guint i = 0; i < refs->len; i++)
        {
          const PlEvent *ev = g_array_index (refs, PlRef, i).event;

          if (ev->kind == PL_EV_ENTER)
            g_array_append_val (stack, ev->ref);
          else if (ev->kind == PL_EV_LEAVE)
            {
              if (stack->len == 0 || g_array_index (stack, uint32_t, stack->len - 1) != ev->ref)
                {
                  g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_ORDER,
                               "%s: location %" G_GUINT64_FORMAT ": LEAVE %s at %" G_GUINT64_FORMAT
                               " does not close the innermost open region",
                               scenario->name, (guint64) ev->loc, pl_regions[ev->ref].name, (guint64) ev->ts);
                  return FALSE;
                }
              g_array_set_size (stack, stack->len - 1);
            }
        }

      if (stack->len != 0)
        {
          g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_ORDER,
                       "%s: location %" G_GUINT64_FORMAT ": %s is never left",
                       scenario->name, (guint64) scenario->locations[l].id,
                       pl_regions[g_array_index (stack, uint32_t, stack->len - 1)].name);
          return FALSE;
        }

      total += g_array_index (refs, PlRef, refs->len - 1).event->ts - g_array_index (refs, PlRef, 0).event->ts;
    }

  if (total != scenario->total_ticks)
    {
      g_set_error (error, SEXTANT_GEN_ERROR, SEXTANT_GEN_ERROR_COUNT,
                   "%s: the events span %" G_GUINT64_FORMAT " ticks over all locations, the header says %"
                   G_GUINT64_FORMAT, scenario->name, (guint64) total, (guint64) scenario->total_ticks);
      return FALSE;
    }

  return TRUE;
}

/* Writing ---------------------------------------------------------------- */

/* The list of one attribute of a reference @type whose value is @field - 1,
 * or NULL when @field is 0 (no attribute) */
static OTF2_AttributeList *
pl_attributes (SextantGen        *gen,
               uint32_t           field,
               OTF2_AttributeRef  attribute,
               OTF2_Type          type)
{
  OTF2_AttributeList *attributes;
  OTF2_AttributeValue value = { .uint32 = field - 1 };

  if (field == 0)
    return NULL;
  attributes = OTF2_AttributeList_New ();
  sextant_gen_check (gen, OTF2_AttributeList_AddAttribute (attributes, attribute, type, value),
                     "OTF2_AttributeList_AddAttribute");
  return attributes;
}

/* An ENTER, with the call site in the SOURCE_CODE_LOCATION attribute
 * (arg), or a NON_BLOCKING_COLLECTIVE_REQUEST, with its communicator in
 * PL_ATTR_NBC_COMM (ref) */
static void
pl_write_with_attribute (SextantGen         *gen,
                         SextantGenLocation *loc,
                         const PlEvent      *ev)
{
  gboolean enter = ev->kind == PL_EV_ENTER;
  OTF2_AttributeList *attributes = enter ? pl_attributes (gen, ev->arg, PL_ATTR_SCL, OTF2_TYPE_SOURCE_CODE_LOCATION)
                                         : pl_attributes (gen, ev->ref, PL_ATTR_NBC_COMM, OTF2_TYPE_COMM);

  sextant_gen_event_done (gen, loc, ev->ts,
                          enter ? OTF2_EvtWriter_Enter (loc->writer, attributes, ev->ts, ev->ref)
                                : OTF2_EvtWriter_NonBlockingCollectiveRequest (loc->writer, attributes, ev->ts,
                                                                               ev->request),
                          enter ? "Enter" : "NonBlockingCollectiveRequest");
  if (attributes != NULL)
    OTF2_AttributeList_Delete (attributes);
}

static void
pl_write_event (SextantGen         *gen,
                SextantGenLocation *loc,
                const PlEvent      *ev)
{
  OTF2_StringRef args[1];

  switch (ev->kind)
    {
    case PL_EV_ENTER:
      pl_write_with_attribute (gen, loc, ev);
      break;
    case PL_EV_LEAVE:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, Leave, ev->ref);
      break;
    case PL_EV_PROGRAM_BEGIN:
      args[0] = sextant_gen_string (gen, "./" PL_PROGRAM_NAME);
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, ProgramBegin, sextant_gen_string (gen, PL_PROGRAM_NAME),
                         G_N_ELEMENTS (args), args);
      break;
    case PL_EV_PROGRAM_END:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, ProgramEnd, 0);
      break;
    case PL_EV_MPI_SEND:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiSend, ev->ref, PL_COMM_WORLD, ev->arg, ev->bytes);
      break;
    case PL_EV_MPI_ISEND:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiIsend, ev->ref, PL_COMM_WORLD, ev->arg, ev->bytes, ev->request);
      break;
    case PL_EV_MPI_ISEND_COMPLETE:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiIsendComplete, ev->request);
      break;
    case PL_EV_MPI_IRECV_REQUEST:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiIrecvRequest, ev->request);
      break;
    case PL_EV_MPI_RECV:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiRecv, ev->ref, PL_COMM_WORLD, ev->arg, ev->bytes);
      break;
    case PL_EV_MPI_IRECV:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiIrecv, ev->ref, PL_COMM_WORLD, ev->arg, ev->bytes, ev->request);
      break;
    case PL_EV_MPI_COLLECTIVE_BEGIN:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiCollectiveBegin);
      break;
    case PL_EV_MPI_COLLECTIVE_END:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiCollectiveEnd, ev->op, ev->ref, ev->arg, ev->bytes, ev->bytes_in);
      break;
    case PL_EV_NON_BLOCKING_COLLECTIVE_REQUEST:
      pl_write_with_attribute (gen, loc, ev);
      break;
    case PL_EV_MPI_REQUEST_CANCELLED:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, MpiRequestCancelled, ev->request);
      break;
    case PL_EV_NON_BLOCKING_COLLECTIVE_COMPLETE:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, NonBlockingCollectiveComplete, ev->op, ev->ref, ev->arg,
                         ev->bytes, ev->bytes_in, ev->request);
      break;
    case PL_EV_RMA_WIN_CREATE:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, RmaWinCreate, ev->ref);
      break;
    case PL_EV_RMA_WIN_DESTROY:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, RmaWinDestroy, ev->ref);
      break;
    case PL_EV_RMA_COLLECTIVE_BEGIN:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, RmaCollectiveBegin);
      break;
    case PL_EV_RMA_COLLECTIVE_END:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, RmaCollectiveEnd, ev->op, ev->arg, ev->ref, PL_NO_ROOT, 0, 0);
      break;
    case PL_EV_RMA_REQUEST_LOCK:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, RmaRequestLock, ev->ref, ev->arg, ev->request, ev->op);
      break;
    case PL_EV_RMA_ACQUIRE_LOCK:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, RmaAcquireLock, ev->ref, ev->arg, ev->request, ev->op);
      break;
    case PL_EV_RMA_RELEASE_LOCK:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, RmaReleaseLock, ev->ref, ev->arg, ev->request);
      break;
    case PL_EV_THREAD_ACQUIRE_LOCK:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, ThreadAcquireLock, OTF2_PARADIGM_PTHREAD, ev->ref, ev->arg);
      break;
    case PL_EV_THREAD_RELEASE_LOCK:
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, ThreadReleaseLock, OTF2_PARADIGM_PTHREAD, ev->ref, ev->arg);
      break;
    case PL_EV_OMP_ACQUIRE_LOCK:
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, OmpAcquireLock, ev->ref, ev->arg);
      G_GNUC_END_IGNORE_DEPRECATIONS
      break;
    case PL_EV_OMP_RELEASE_LOCK:
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      SEXTANT_GEN_EVENT (gen, loc, ev->ts, OmpReleaseLock, ev->ref, ev->arg);
      G_GNUC_END_IGNORE_DEPRECATIONS
      break;
    case PL_N_EVENT_KINDS:
    default:
      g_assert_not_reached ();
    }
}

static void
pl_write_definitions (SextantGen          *gen,
                      const PlScenario    *scenario,
                      SextantGenLocation **locs,
                      uint64_t             last_ts)
{
  g_autofree uint64_t *locations = g_new0 (uint64_t, scenario->n_ranks);
  g_autofree uint64_t *ranks = g_new0 (uint64_t, scenario->n_ranks);
  const uint64_t last_rank[] = { scenario->n_ranks - 1 };
  OTF2_StringRef empty = sextant_gen_string (gen, "");
  int64_t written_group = -1;

  sextant_gen_write_clock (gen, scenario->resolution, 0, last_ts, OTF2_UNDEFINED_TIMESTAMP);
  SEXTANT_GEN_DEF (gen, Paradigm, OTF2_PARADIGM_MPI, sextant_gen_string (gen, "MPI"), OTF2_PARADIGM_CLASS_PROCESS);
  SEXTANT_GEN_DEF (gen, Paradigm, OTF2_PARADIGM_OPENMP, sextant_gen_string (gen, "OpenMP"),
                   OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
  SEXTANT_GEN_DEF (gen, Paradigm, OTF2_PARADIGM_PTHREAD, sextant_gen_string (gen, "POSIX threads"),
                   OTF2_PARADIGM_CLASS_THREAD_CREATE_WAIT);
  SEXTANT_GEN_DEF (gen, Attribute, PL_ATTR_SCL, sextant_gen_string (gen, "source code location"),
                   sextant_gen_string (gen, "call site of the MPI call"), OTF2_TYPE_SOURCE_CODE_LOCATION);
  if (scenario->nbc_comm)
    SEXTANT_GEN_DEF (gen, Attribute, PL_ATTR_NBC_COMM, sextant_gen_string (gen, "communicator"),
                     sextant_gen_string (gen, "communicator of the non-blocking collective"), OTF2_TYPE_COMM);

  SEXTANT_GEN_DEF (gen, SystemTreeNode, 0, sextant_gen_string (gen, "localhost"),
                   sextant_gen_string (gen, "node"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);

  /* Locations of one group are listed together. */
  for (guint i = 0; i < scenario->n_locations; i++)
    {
      const PlLocation *l = &scenario->locations[i];

      if ((int64_t) l->group == written_group)
        continue;
      SEXTANT_GEN_DEF (gen, LocationGroup, l->group, sextant_gen_string (gen, l->group_name),
                       OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
      written_group = l->group;
    }
  for (guint i = 0; i < scenario->n_locations; i++)
    {
      const PlLocation *l = &scenario->locations[i];

      SEXTANT_GEN_DEF (gen, Location, l->id, sextant_gen_string (gen, l->name), OTF2_LOCATION_TYPE_CPU_THREAD,
                       locs[i]->n_events, l->group);
    }

  for (guint i = 0; i < PL_N_REGIONS; i++)
    {
      const PlRegion *r = &pl_regions[i];
      OTF2_StringRef name = sextant_gen_string (gen, r->name);

      g_assert (r->id == i);
      SEXTANT_GEN_DEF (gen, Region, r->id, name, name, empty, r->role, r->paradigm, OTF2_REGION_FLAG_NONE,
                       sextant_gen_string_or_undef (gen, r->file), r->begin_line, r->end_line);
    }
  SEXTANT_GEN_DEF (gen, SourceCodeLocation, PL_SCL_HALO, sextant_gen_string (gen, PL_SCL_FILE), PL_SCL_LINE);

  for (guint r = 0; r < scenario->n_ranks; r++)
    {
      locations[r] = r;   /* MPI rank r is location r */
      ranks[r] = r;
    }
  SEXTANT_GEN_DEF (gen, Group, PL_GROUP_LOCATIONS, sextant_gen_string (gen, "MPI locations"),
                   OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                   scenario->n_ranks, locations);
  SEXTANT_GEN_DEF (gen, Group, PL_GROUP_WORLD, sextant_gen_string (gen, "world ranks"),
                   OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, scenario->n_ranks, ranks);
  SEXTANT_GEN_DEF (gen, Group, PL_GROUP_SELF, sextant_gen_string (gen, "self"),
                   OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, NULL);
  SEXTANT_GEN_DEF (gen, Group, PL_GROUP_LAST, sextant_gen_string (gen, "last rank"),
                   OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                   G_N_ELEMENTS (last_rank), last_rank);

  SEXTANT_GEN_DEF (gen, Comm, PL_COMM_WORLD, sextant_gen_string (gen, "MPI_COMM_WORLD"), PL_GROUP_WORLD,
                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  SEXTANT_GEN_DEF (gen, Comm, PL_COMM_SELF, sextant_gen_string (gen, "MPI_COMM_SELF"), PL_GROUP_SELF,
                   OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  SEXTANT_GEN_DEF (gen, Comm, PL_COMM_LAST, sextant_gen_string (gen, "MPI_COMM_WORLD.last"), PL_GROUP_LAST,
                   PL_COMM_WORLD, OTF2_COMM_FLAG_NONE);
  if (scenario->dup_comm)
    SEXTANT_GEN_DEF (gen, Comm, PL_COMM_DUP, sextant_gen_string (gen, "MPI_Comm_dup(MPI_COMM_WORLD)"),
                     PL_GROUP_WORLD, PL_COMM_WORLD, OTF2_COMM_FLAG_NONE);
  SEXTANT_GEN_DEF (gen, RmaWin, PL_WIN, sextant_gen_string (gen, "win"), PL_COMM_WORLD,
                   OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
}

gboolean
sextant_otf2gen_planted (const PlScenario  *scenario,
                         const char        *outdir,
                         gboolean           force,
                         GError           **error)
{
  g_autoptr(SextantGen) gen = NULL;
  g_autofree SextantGenLocation **locs = NULL;
  uint64_t last_ts = 0;

  g_return_val_if_fail (scenario != NULL, FALSE);

  if (!pl_check (scenario, error))
    return FALSE;

  if (!(gen = sextant_gen_new (outdir, "traces", force, error)))
    return FALSE;

  locs = g_new0 (SextantGenLocation *, scenario->n_locations);
  for (guint l = 0; l < scenario->n_locations; l++)
    {
      g_autoptr(GArray) refs = pl_location_events (scenario, scenario->locations[l].id);

      locs[l] = sextant_gen_add_location (gen, scenario->locations[l].id);
      for (guint i = 0; i < refs->len; i++)
        {
          const PlEvent *ev = g_array_index (refs, PlRef, i).event;

          pl_write_event (gen, locs[l], ev);
          last_ts = MAX (last_ts, ev->ts);
        }
    }

  sextant_gen_begin_definitions (gen);
  pl_write_definitions (gen, scenario, locs, last_ts);

  return sextant_gen_finish (gen, error);
}

/* Expectations ----------------------------------------------------------- */

/* Record counts per location and kind, [location index][kind]. */
static guint *
pl_count_kinds (const PlScenario *scenario)
{
  guint *counts = g_new0 (guint, scenario->n_locations * PL_N_EVENT_KINDS);

  for (guint c = 0; c < scenario->n_cases; c++)
    for (guint e = 0; e < scenario->cases[c].n_events; e++)
      {
        const PlEvent *ev = &scenario->cases[c].events[e];

        for (guint l = 0; l < scenario->n_locations; l++)
          if (scenario->locations[l].id == ev->loc)
            counts[l * PL_N_EVENT_KINDS + ev->kind]++;
      }

  return counts;
}

void
sextant_otf2gen_planted_expect_counts (const PlScenario *scenario,
                                       FILE             *out)
{
  g_autofree guint *counts = pl_count_kinds (scenario);

  for (guint k = 0; k < PL_N_EVENT_KINDS; k++)
    for (guint l = 0; l < scenario->n_locations; l++)
      if (counts[l * PL_N_EVENT_KINDS + k] != 0)
        fprintf (out, "%" G_GUINT64_FORMAT " %s %u\n", (guint64) scenario->locations[l].id,
                 pl_kind_names[k], counts[l * PL_N_EVENT_KINDS + k]);
}

static void
json_string (GString    *s,
             const char *str)
{
  if (str == NULL)
    {
      g_string_append (s, "null");
      return;
    }

  g_string_append_c (s, '"');
  for (const char *p = str; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (s, "\\%c", *p);
      else if ((guchar) *p < 0x20)
        g_string_append_printf (s, "\\u%04x", (guint) (guchar) *p);
      else
        g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

static void
json_instance (GString          *s,
               const PlScenario *scenario,
               const PlCase     *pc,
               const PlInstance *in)
{
  g_string_append (s, "{\"case\": ");
  json_string (s, pc->name);
  g_string_append (s, ", \"pattern\": ");
  json_string (s, in->pattern);
  g_string_append_printf (s, ", \"loc\": %" G_GUINT64_FORMAT ", \"severity\": %" G_GINT64_FORMAT,
                          (guint64) in->loc, (gint64) in->severity);
  if (in->peer == PL_ANY_PEER)
    g_string_append (s, ", \"peer\": \"any\"");
  else if (in->peer == PL_NO_PEER)
    g_string_append (s, ", \"peer\": null");
  else
    g_string_append_printf (s, ", \"peer\": %" G_GINT64_FORMAT, (gint64) in->peer);
  g_string_append (s, ", \"callpath\": ");
  json_string (s, in->callpath);
  g_string_append (s, ", \"file\": ");
  json_string (s, in->file);
  if (in->file != NULL)
    g_string_append_printf (s, ", \"line\": %" G_GINT64_FORMAT, (gint64) in->line);
  else
    g_string_append (s, ", \"line\": null");
  g_string_append (s, ", \"comment\": ");
  json_string (s, in->comment);
  g_string_append (s, ", \"runs\": [");
  for (guint r = 0, n = 0; r < scenario->n_runs; r++)
    if (in->runs == 0 || (in->runs & PL_IN_RUN (r)) != 0)
      {
        g_string_append (s, n++ > 0 ? ", " : "");
        json_string (s, scenario->runs[r].name);
      }
  g_string_append (s, "]}");
}

static void
json_scenario (GString          *s,
               const PlScenario *scenario)
{
  g_autofree guint *counts = pl_count_kinds (scenario);
  guint n;

  g_string_append (s, "{\"name\": ");
  json_string (s, scenario->name);
  g_string_append (s, ", \"summary\": ");
  json_string (s, scenario->summary);
  g_string_append_printf (s, ", \"resolution\": %" G_GUINT64_FORMAT ", \"total_ticks\": %" G_GUINT64_FORMAT,
                          (guint64) scenario->resolution, (guint64) scenario->total_ticks);

  g_string_append (s, ",\n   \"locations\": [");
  for (guint l = 0; l < scenario->n_locations; l++)
    g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, l > 0 ? ", " : "", (guint64) scenario->locations[l].id);
  g_string_append (s, "],\n   \"unchecked\": [");
  for (guint i = 0; scenario->unchecked[i] != NULL; i++)
    {
      g_string_append (s, i > 0 ? ", " : "");
      json_string (s, scenario->unchecked[i]);
    }

  g_string_append (s, "],\n   \"runs\": [");
  for (guint r = 0; r < scenario->n_runs; r++)
    {
      g_string_append (s, r > 0 ? ", " : "");
      g_string_append (s, "{\"name\": ");
      json_string (s, scenario->runs[r].name);
      g_string_append (s, ", \"params\": [");
      for (guint p = 0; p < G_N_ELEMENTS (scenario->runs[r].params) && scenario->runs[r].params[p] != NULL; p++)
        {
          g_string_append (s, p > 0 ? ", " : "");
          json_string (s, scenario->runs[r].params[p]);
        }
      g_string_append (s, "]}");
    }

  g_string_append (s, "],\n   \"event_counts\": {");
  for (guint l = 0; l < scenario->n_locations; l++)
    {
      g_string_append_printf (s, "%s\"%" G_GUINT64_FORMAT "\": {", l > 0 ? ", " : "",
                              (guint64) scenario->locations[l].id);
      n = 0;
      for (guint k = 0; k < PL_N_EVENT_KINDS; k++)
        if (counts[l * PL_N_EVENT_KINDS + k] != 0)
          g_string_append_printf (s, "%s\"%s\": %u", n++ > 0 ? ", " : "", pl_kind_names[k],
                                  counts[l * PL_N_EVENT_KINDS + k]);
      g_string_append (s, "}");
    }

  g_string_append (s, "},\n   \"instances\": [");
  n = 0;
  for (guint c = 0; c < scenario->n_cases; c++)
    for (guint i = 0; i < scenario->cases[c].n_expect; i++)
      {
        g_string_append (s, n++ > 0 ? ",\n     " : "\n     ");
        json_instance (s, scenario, &scenario->cases[c], &scenario->cases[c].expect[i]);
      }
  g_string_append (s, "]}");
}

void
sextant_otf2gen_planted_expect_patterns (FILE *out)
{
  g_autoptr(GString) s = g_string_new ("{\"scenarios\": [\n  ");

  for (guint i = 0; i < G_N_ELEMENTS (pl_scenarios); i++)
    {
      g_string_append (s, i > 0 ? ",\n  " : "");
      json_scenario (s, &pl_scenarios[i]);
    }
  g_string_append (s, "\n]}\n");
  fputs (s->str, out);
}
