/*
 * sextant-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SextantStore is the trace store: one SQLite file per OTF2 archive
 * (docs/schema.md). This header is its contract with the views: it opens a
 * finished store and reads it through typed readers, so that nothing above
 * trace/ and patterns/ sees SQL, SQLite or positional columns. The bulk
 * load, the statements and the column layout of the engine are in
 * sextant-store-private.h, for trace/, patterns/, the command line, the
 * tests and the benchmarks; ui/ never includes it. All SQL of the store is
 * in its statements (sextant-store-sql.c), the sextant-store-*.c files of
 * trace/ (readers for one purpose: sextant-store-trees.c, -causes.c,
 * -matrix.c), the views' functions
 * (sextant-sql-functions.c) and the schema resources.
 *
 * Threading. A store is one SQLite connection opened without SQLite's own
 * locking (SQLITE_OPEN_NOMUTEX). It belongs to one thread at a time: any
 * thread may use it, but never two at once, and a store handed to another
 * thread (a GTask's worker) is not touched by the thread that handed it
 * over until it comes back. Code that reads from several threads at once
 * opens the file once per thread: the finished store is in WAL mode, so
 * readers on their own connections run beside a writer and see the last
 * committed state. Two things may come from another thread:
 *
 *  - cancelling the GCancellable given to sextant_store_set_cancellable(),
 *    from any thread, interrupts what the store's connection runs;
 *  - the bulk-load writers of sextant-store-private.h (sextant_store_run(),
 *    _run_rows(), _exec(), _write_chunk(), _write_encoded_chunk()) serialize on a lock of
 *    the store and may be called by several threads at once, while the
 *    owning thread calls nothing else (the importer's decoding threads).
 *    That lock is all the store's mutex protects.
 *
 * Reference counting (g_object_ref/unref) is thread-safe as for any GObject;
 * the last unref closes the connection, so it must not race with a use.
 */
#pragma once

#include <gio/gio.h>

#include "sextant-trace-error.h"

G_BEGIN_DECLS

/* An absent integer value: SQL NULL. */
#define SEXTANT_NULL G_MININT64

#define SEXTANT_SCHEMA_VERSION_CURRENT 1

/* What the timeline colours a region by (region.category); the level of
 * detail keeps one time per category, in this order (lod.t_mpi ...). */
typedef enum
{
  SEXTANT_CATEGORY_MPI,
  SEXTANT_CATEGORY_RMA,
  SEXTANT_CATEGORY_USER,
  SEXTANT_CATEGORY_OMP,
  SEXTANT_CATEGORY_THREAD,
  SEXTANT_CATEGORY_IO,
  SEXTANT_CATEGORY_ACCEL,
  SEXTANT_CATEGORY_OTHER,
  SEXTANT_N_CATEGORIES
} SextantCategory;

/* "MPI", "RMA", ...: the names region.category holds */
extern const char * const sextant_category_names[SEXTANT_N_CATEGORIES];

#define SEXTANT_TYPE_STORE (sextant_store_get_type ())
G_DECLARE_FINAL_TYPE (SextantStore, sextant_store, SEXTANT, STORE, GObject)

SextantStore *sextant_store_open             (const char     *path,
                                              GError        **error);
SextantStore *sextant_store_open_unchecked   (const char     *path,
                                              GError        **error);
const char   *sextant_store_get_path         (SextantStore   *self);
gboolean      sextant_store_close            (SextantStore   *self,
                                              GError        **error);
char         *sextant_store_get_meta         (SextantStore   *self,
                                              const char     *key);
void          sextant_store_set_cancellable  (SextantStore   *self,
                                              GCancellable   *cancellable);

/* Locations ---------------------------------------------------------------- */

/**
 * SextantLocationInfo:
 * @id: location.id, the dense index (0..n-1 in OTF2 location id order)
 * @otf2_id: the archive's location id
 * @name: the location's name ("Master thread"); "?" when it has none, never %NULL
 * @group: its process's (location group's) name ("MPI Rank 3"), or %NULL
 * @label: how comments name it (the location_label view): the process, and
 *   the thread too when the process has several ("MPI Rank 3 / thread 2")
 * @events: event records read on it; 0: it has no row in a timeline
 *
 * One location of the trace. sextant_location_info_free() frees it.
 */
typedef struct
{
  gint64  id;
  gint64  otf2_id;
  char   *name;
  char   *group;
  char   *label;
  gint64  events;
} SextantLocationInfo;

void          sextant_location_info_free         (SextantLocationInfo *info);
GPtrArray    *sextant_store_list_locations       (SextantStore        *self,
                                                  GError             **error);

/* Time --------------------------------------------------------------------- */

/**
 * SextantTimeSpan:
 * @begin: ticks, meta time_begin: the first event over all locations
 * @end: ticks, meta time_end: the last event over all locations. Inclusive
 *   as stored: the last event happens at @end, so the run lasts
 *   @end - @begin ticks and a range that shows it all is [@begin, @end]
 * @resolution: ticks per second (meta resolution), at least 1
 *
 * The run's time span, in the store's ticks (relative to the archive's
 * global offset).
 */
typedef struct
{
  gint64 begin;
  gint64 end;
  gint64 resolution;
} SextantTimeSpan;

gboolean      sextant_store_get_time_span        (SextantStore        *self,
                                                  SextantTimeSpan     *span,
                                                  GError             **error);

/* Regions ------------------------------------------------------------------ */

GHashTable   *sextant_store_read_region_names    (SextantStore        *self,
                                                  GError             **error);

/* The last analysis -------------------------------------------------------- */

/**
 * SextantPatternTotal:
 * @id: the pattern's stable id ("late_sender")
 * @title: its title; the id when it has none, never %NULL
 * @parent: (nullable): the pattern or group above it in the pattern tree
 * @description: (nullable): what it means
 * @instances: how many instances the last analysis found
 * @severity: the ticks they lost, summed
 *
 * A pattern of the last analysis and what it found.
 */
typedef struct
{
  char   *id;
  char   *title;
  char   *parent;
  char   *description;
  gint64  instances;
  gint64  severity;
} SextantPatternTotal;

void          sextant_pattern_total_free         (SextantPatternTotal *total);
GHashTable   *sextant_store_list_pattern_numbers (SextantStore        *self,
                                                  GError             **error);
GPtrArray    *sextant_store_list_pattern_totals  (SextantStore        *self,
                                                  GError             **error);
char         *sextant_store_dup_pattern_title    (SextantStore        *self,
                                                  const char          *id,
                                                  GError             **error);

/**
 * SextantSiteKind:
 * @SEXTANT_SITE_NONE: the trace says nothing about where the call is
 * @SEXTANT_SITE_CALL: file and line of the call itself (its call-site
 *   attribute or its calling context)
 * @SEXTANT_SITE_FUNCTION: the trace has no call site for the call: file
 *   and line where the enclosing function begins (its region definition)
 *
 * Which source line an instance's file and line are.
 */
typedef enum
{
  SEXTANT_SITE_NONE,
  SEXTANT_SITE_CALL,
  SEXTANT_SITE_FUNCTION,
} SextantSiteKind;

/**
 * SextantWaitCause:
 * @SEXTANT_WAIT_CAUSE_NONE: not a wait state (or one without a peer or an
 *   interval)
 * @SEXTANT_WAIT_CAUSE_DIRECT: the location it waited for was doing
 *   something else than waiting for most of the wait (computing): the
 *   delay is that location's own
 * @SEXTANT_WAIT_CAUSE_PROPAGATED: the location it waited for was itself
 *   in wait states for at least half of the wait: the delay came from
 *   further back (docs/patterns.md, "Direct and propagated wait states")
 *
 * Why a wait state waited.
 */
typedef enum
{
  SEXTANT_WAIT_CAUSE_NONE,
  SEXTANT_WAIT_CAUSE_DIRECT,
  SEXTANT_WAIT_CAUSE_PROPAGATED,
} SextantWaitCause;

/* "direct", "propagated"; NULL for SEXTANT_WAIT_CAUSE_NONE */
const char   *sextant_wait_cause_to_string       (SextantWaitCause     cause);

/**
 * SextantPatternInstance:
 * @id: the instance's id (pattern_instance.id)
 * @pattern: the pattern's id
 * @severity: ticks lost
 * @loc: location.id of the location that lost them
 * @peer_loc: location.id of the location that caused it, %SEXTANT_NULL for none
 * @begin: ticks, the start of the time lost; %SEXTANT_NULL: unknown
 * @end: ticks, its end; %SEXTANT_NULL: unknown
 * @location: @loc's label (location_label)
 * @peer: (nullable): @peer_loc's label
 * @call: (nullable): the region of the visit that lost the time ("MPI_Recv")
 * @callpath: (nullable): region names from the top-level visit down to the
 *   call, '/'-separated
 * @file: (nullable): the source file, as the trace names it
 * @line: the line in @file; 0: none
 * @site_kind: what @file and @line are
 * @function: (nullable): for %SEXTANT_SITE_FUNCTION the function that
 *   begins at @line; otherwise %NULL
 * @comment: the diagnosis and recommendation, never %NULL; for a
 *   propagated wait state it names the root cause
 * @cause: whether a wait state was direct or propagated;
 *   %SEXTANT_WAIT_CAUSE_NONE for the instances of other patterns
 * @cause_instance: propagated: the wait state of @peer_loc it came from
 *   (an instance id); else %SEXTANT_NULL
 * @root_loc: wait states: location.id of the root cause (@peer_loc when
 *   direct); %SEXTANT_NULL otherwise, or when the chain of waits loops
 * @root_label: (nullable): @root_loc's label
 *
 * One instance of a pattern, as the pattern browser shows it.
 */
typedef struct
{
  gint64           id;
  char            *pattern;
  gint64           severity;
  gint64           loc;
  gint64           peer_loc;
  gint64           begin;
  gint64           end;
  char            *location;
  char            *peer;
  char            *call;
  char            *callpath;
  char            *file;
  gint64           line;
  SextantSiteKind  site_kind;
  char            *function;
  char            *comment;
  SextantWaitCause cause;
  gint64           cause_instance;
  gint64           root_loc;
  char            *root_label;
} SextantPatternInstance;

void          sextant_pattern_instance_free        (SextantPatternInstance *instance);
GPtrArray    *sextant_store_list_pattern_instances (SextantStore           *self,
                                                    const char             *pattern,
                                                    guint                   limit,
                                                    GError                **error);
gboolean      sextant_store_get_pattern_instance   (SextantStore           *self,
                                                    gint64                  id,
                                                    SextantPatternInstance **instance,
                                                    GError                **error);

/**
 * SextantWaitState:
 * @instance: the wait state's instance id
 * @cause: direct or propagated (%SEXTANT_WAIT_CAUSE_NONE: no peer or no
 *   interval to judge)
 * @cause_instance: propagated: the wait state of the peer that overlapped
 *   the wait most; else %SEXTANT_NULL
 * @root_instance: the direct wait state at the end of the chain of
 *   @cause_instance links (@instance itself when direct); %SEXTANT_NULL
 *   when the chain loops
 * @root_loc: the peer of @root_instance: the root cause's location
 *
 * What the last analysis found behind one wait state (the wait_state
 * table, docs/schema.md).
 */
typedef struct
{
  gint64           instance;
  SextantWaitCause cause;
  gint64           cause_instance;
  gint64           root_instance;
  gint64           root_loc;
} SextantWaitState;

gboolean      sextant_store_get_wait_state         (SextantStore           *self,
                                                    gint64                  instance,
                                                    SextantWaitState       *state,
                                                    gboolean               *found,
                                                    GError                **error);

/**
 * SextantDelayActivity:
 * @visit: the visit that names it; %SEXTANT_NULL when the location has
 *   no visit in the interval (then the other fields are empty)
 * @region: region.id of @function when it is a visit's region; else
 *   %SEXTANT_NULL
 * @function: (nullable): where the time went: the region of the program
 *   that had the most exclusive time, or, in a trace of MPI calls only, the
 *   function the late call was made in
 * @call: (nullable): in a trace of MPI calls only: the late call
 *   ("MPI_Send"); %NULL when @function is a recorded region
 * @file: (nullable): the source file of @site_kind's line
 * @line: the line; 0 for none
 * @site_kind: %SEXTANT_SITE_CALL: the line of the call (of @function's
 *   visit, or of @call); %SEXTANT_SITE_FUNCTION: where @function begins
 *
 * Where a location spent an interval in which it made another wait: the
 * root cause of a chain of wait states (sextant_store_find_delay_activity()).
 * Clear it with sextant_delay_activity_clear().
 */
typedef struct
{
  gint64           visit;
  gint64           region;
  char            *function;
  char            *call;
  char            *file;
  gint64           line;
  SextantSiteKind  site_kind;
} SextantDelayActivity;

void          sextant_delay_activity_clear         (SextantDelayActivity   *activity);
gboolean      sextant_store_find_delay_activity    (SextantStore           *self,
                                                    gint64                  loc,
                                                    gint64                  begin,
                                                    gint64                  end,
                                                    SextantDelayActivity   *activity,
                                                    GError                **error);

/* Point-to-point traffic (sextant-store-matrix.c) ---------------------------- */

/**
 * SextantMessagePair:
 * @sender: location.id of the sending side
 * @receiver: location.id of the receiving side
 * @messages: matched messages (both sides recorded)
 * @bytes: their bytes (message.bytes, as sent)
 * @receive_ticks: time in the receive calls that completed them: each call
 *   counted once, shared evenly among the messages of the range it completed
 * @first_send: ticks: the earliest send
 * @last_receive: ticks: the latest receive
 *
 * The messages from one location to another, summed.
 */
typedef struct
{
  gint64 sender;
  gint64 receiver;
  gint64 messages;
  gint64 bytes;
  double receive_ticks;
  gint64 first_send;
  gint64 last_receive;
} SextantMessagePair;

GArray       *sextant_store_read_message_pairs     (SextantStore           *self,
                                                    gint64                  begin,
                                                    gint64                  end,
                                                    GError                **error);
GArray       *sextant_store_read_rma_pairs         (SextantStore           *self,
                                                    gint64                  begin,
                                                    gint64                  end,
                                                    gint64                 *skipped,
                                                    GError                **error);

/* Torus coordinates (sextant-store-torus.c) ------------------------------------
 *
 * A trace places its locations on a 2- to 4-dimensional torus with two
 * definitions the importer keeps: a location property "torus_coords" =
 * "3,1,0" (X first) per location, and optionally a system tree node
 * property "torus_dims" = "4x4x2" (else the sizes are one more than the
 * largest coordinates). `sextant sim torus --trace` writes both. */

#define SEXTANT_LOCATION_COORDS_PROPERTY "torus_coords"
#define SEXTANT_TORUS_DIMS_PROPERTY      "torus_dims"
#define SEXTANT_TORUS_COORDS_MAX_DIMS    4

/**
 * SextantLocationCoords:
 * @loc: location.id
 * @coords: its place, X first; 0 past the torus's dimensions
 */
typedef struct
{
  gint64 loc;
  guint  coords[SEXTANT_TORUS_COORDS_MAX_DIMS];
} SextantLocationCoords;

/**
 * SextantTorusCoords:
 * @n_dims: 2 to 4; 0 when the trace places no location
 * @sizes: the torus's size in each dimension
 * @locations: (element-type SextantLocationCoords): the placed locations,
 *   by location.id
 */
typedef struct
{
  guint   n_dims;
  guint   sizes[SEXTANT_TORUS_COORDS_MAX_DIMS];
  GArray *locations;
} SextantTorusCoords;

void          sextant_torus_coords_clear           (SextantTorusCoords       *coords);
const SextantLocationCoords *
              sextant_torus_coords_find            (const SextantTorusCoords *coords,
                                                    gint64                    loc);
char         *sextant_torus_coords_format          (const SextantTorusCoords *coords,
                                                    gint64                    loc);
gboolean      sextant_store_read_torus_coords      (SextantStore             *self,
                                                    SextantTorusCoords       *coords,
                                                    GError                  **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SextantTorusCoords, sextant_torus_coords_clear)

/**
 * SextantAnalysisScope:
 * @analysed: an analysis has written its results into the store
 * @selected: (array zero-terminated=1) (nullable): %NULL when every pattern
 *   of the set ran; else the ids the analysis was restricted to
 *   (sextant_analysis_select(): patterns or groups of the tree, each with
 *   the patterns below it), in the order given
 * @parameters: (nullable): the parameter overrides of that run as
 *   "name=value ..." text (sorted by name; "pattern.name=value" for one
 *   pattern), %NULL when it ran with the defaults
 *
 * What the last analysis ran. Clear it with sextant_analysis_scope_clear().
 */
typedef struct
{
  gboolean   analysed;
  char     **selected;
  char      *parameters;
} SextantAnalysisScope;

void          sextant_analysis_scope_clear       (SextantAnalysisScope *scope);
gboolean      sextant_store_get_data_version     (SextantStore         *self,
                                                  gint64               *version,
                                                  GError              **error);
gboolean      sextant_store_get_analysis_scope   (SextantStore         *self,
                                                  SextantAnalysisScope *scope,
                                                  GError              **error);

/* Collective trees (graph/) ------------------------------------------------
 *
 * What graph/ reads to build the trees of collective operations
 * (graph/sextant-graph.h): the regions onecoll records for a broadcast and
 * the RMA operations inside them, the members of MPI collectives, the
 * visits of phase regions and the messages inside them. Implemented in
 * sextant-store-trees.c. Each reader reads only what one tree needs (an
 * index or the column tables' zone maps), except the listings, which read
 * every collective, broadcast or message once. */

/**
 * SextantLocationProcess:
 * @loc: location.id
 * @process: its process (location_group.id), %SEXTANT_NULL when it has none
 * @process_name: the process's name ("MPI Rank 3"), or the location's label
 *   when it has no process; never %NULL
 * @label: how comments name the location (location_label)
 * @world_rank: the process's rank in MPI_COMM_WORLD, %SEXTANT_NULL if unknown
 *
 * A location with its process.
 */
typedef struct
{
  gint64  loc;
  gint64  process;
  char   *process_name;
  char   *label;
  gint64  world_rank;
} SextantLocationProcess;

void          sextant_location_process_free      (SextantLocationProcess *location);
GPtrArray    *sextant_store_list_location_processes (SextantStore      *self,
                                                  GError             **error);
GArray       *sextant_store_read_comm_ranks      (SextantStore        *self,
                                                  gint64               comm,
                                                  GError             **error);

/**
 * SextantOnecollVisit:
 * @visit: visit.id
 * @loc: where it ran
 * @region: its region's name ("onecoll_put_request", "onecoll_bcast", ...)
 * @enter: ticks
 * @leave: ticks
 * @parent: the enclosing visit, %SEXTANT_NULL at the top
 * @parent_region: (nullable): the enclosing visit's region name
 * @root: the 'onecoll root' attribute (a rank of onecoll's communicator),
 *   %SEXTANT_NULL when the visit has none
 * @peer: the 'onecoll peer' attribute: the target of a put request, the
 *   parent of a relay, the rank a help relay was for; %SEXTANT_NULL if none
 *
 * One region of a onecoll broadcast, as onecoll's trace hooks recorded it
 * (onecoll/onecoll-trace.h).
 */
typedef struct
{
  gint64  visit;
  gint64  loc;
  char   *region;
  gint64  enter;
  gint64  leave;
  gint64  parent;
  char   *parent_region;
  gint64  root;
  gint64  peer;
} SextantOnecollVisit;

/* onecoll's reduce and allreduce regions and their phases (onecoll_reduce,
 * onecoll_allreduce, onecoll_red_*): point-to-point communication, no
 * broadcast's, though they carry onecoll's window and sequence attributes */
gboolean      sextant_region_is_onecoll_reduce   (const char          *name);
void          sextant_onecoll_visit_free         (SextantOnecollVisit *visit);
GPtrArray    *sextant_store_list_onecoll_visits  (SextantStore        *self,
                                                  gint64               win,
                                                  gint64               seq,
                                                  GError             **error);
gboolean      sextant_store_get_onecoll_ids      (SextantStore        *self,
                                                  gint64               visit,
                                                  gint64              *win,
                                                  gint64              *seq,
                                                  GError             **error);

/**
 * SextantOnecollBcast:
 * @win: the 'onecoll window' attribute of its regions
 * @seq: the 'onecoll sequence' attribute
 * @root: the root rank ('onecoll root'), %SEXTANT_NULL if not recorded
 * @root_loc: the location of the root's own put loop (its application
 *   thread), %SEXTANT_NULL when none was recorded
 * @members: processes with an onecoll_bcast visit of the broadcast
 * @begin: ticks: the first enter of any of its regions
 * @end: ticks: the last leave of any of its regions
 * @bytes: bytes of the MPI_Put operations inside its put loops (data and
 *   descriptors), 0 when none were recorded
 *
 * One onecoll broadcast, as `sextant info --collectives` lists it.
 */
typedef struct
{
  gint64  win;
  gint64  seq;
  gint64  root;
  gint64  root_loc;
  gint64  members;
  gint64  begin;
  gint64  end;
  gint64  bytes;
} SextantOnecollBcast;

GArray       *sextant_store_list_onecoll_bcasts  (SextantStore        *self,
                                                  GError             **error);

typedef enum
{
  SEXTANT_RMA_PUT,
  SEXTANT_RMA_GET,
  SEXTANT_RMA_ATOMIC,
} SextantRmaKind;

/**
 * SextantRmaOp:
 * @id: rma_op.id
 * @kind: put, get or atomic (accumulates, compare-and-swap, ...)
 * @win: the MPI window (rma_window.id), %SEXTANT_NULL if unknown
 * @comm: the window's communicator, %SEXTANT_NULL if unknown
 * @target: the target rank in @comm
 * @target_loc: the target's location, %SEXTANT_NULL if not resolved
 * @bytes: bytes sent
 * @issue_time: ticks
 * @complete_time: ticks, %SEXTANT_NULL when its completion was not recorded
 *
 * One one-sided operation issued by a location.
 */
typedef struct
{
  gint64          id;
  SextantRmaKind  kind;
  gint64          win;
  gint64          comm;
  gint64          target;
  gint64          target_loc;
  gint64          bytes;
  gint64          issue_time;
  gint64          complete_time;
} SextantRmaOp;

GArray       *sextant_store_list_rma_ops         (SextantStore        *self,
                                                  gint64               loc,
                                                  gint64               begin,
                                                  gint64               end,
                                                  GError             **error);

/**
 * SextantCollectiveInfo:
 * @id: collective.id
 * @comm: its communicator, %SEXTANT_NULL if unknown
 * @comm_name: (nullable): the communicator's name
 * @comm_size: the communicator's size (collective.expected)
 * @kind: "BARRIER", "BCAST", "ALLREDUCE", ...
 * @root: the root rank, %SEXTANT_NULL when it has none
 * @root_loc: the root's location, %SEXTANT_NULL when it has none
 * @nonblocking: an MPI_I* collective
 * @members: locations that took part
 * @begin: ticks: the earliest member begin record
 * @end: ticks: the latest member end record
 * @bytes: bytes the members sent, summed; %SEXTANT_NULL when not read
 *
 * One MPI collective operation matched across its communicator.
 */
typedef struct
{
  gint64    id;
  gint64    comm;
  char     *comm_name;
  gint64    comm_size;
  char     *kind;
  gint64    root;
  gint64    root_loc;
  gboolean  nonblocking;
  gint64    members;
  gint64    begin;
  gint64    end;
  gint64    bytes;
} SextantCollectiveInfo;

void          sextant_collective_info_free       (SextantCollectiveInfo *info);
GPtrArray    *sextant_store_list_collective_infos (SextantStore       *self,
                                                  GError             **error);
SextantCollectiveInfo *sextant_store_get_collective (SextantStore     *self,
                                                  gint64               id,
                                                  GError             **error);

/**
 * SextantCollectiveMember:
 * @loc: the member's location
 * @visit: the MPI call around its begin record
 * @end_visit: the call around its end record (the Wait of a non-blocking one)
 * @enter: ticks: @visit's enter
 * @leave: ticks: @end_visit's leave (@visit's without one)
 * @begin: ticks: its MPI_COLLECTIVE_BEGIN record
 * @end: ticks: its MPI_COLLECTIVE_END record
 * @bytes_sent: as recorded
 * @bytes_received: as recorded
 *
 * One member of an MPI collective.
 */
typedef struct
{
  gint64  loc;
  gint64  visit;
  gint64  end_visit;
  gint64  enter;
  gint64  leave;
  gint64  begin;
  gint64  end;
  gint64  bytes_sent;
  gint64  bytes_received;
} SextantCollectiveMember;

GArray       *sextant_store_list_collective_members (SextantStore     *self,
                                                  gint64               collective,
                                                  GError             **error);
gint64        sextant_store_find_collective_call (SextantStore        *self,
                                                  gint64               loc,
                                                  gint64               visit,
                                                  gint64               enter,
                                                  gint64               leave,
                                                  GError             **error);

/**
 * SextantVisitSpan:
 * @id: visit.id
 * @loc: its location
 * @region: region.id
 * @depth: 0 for a top-level visit
 * @enter: ticks
 * @leave: ticks
 *
 * Where and when one visit ran.
 */
typedef struct
{
  gint64  id;
  gint64  loc;
  gint64  region;
  gint64  depth;
  gint64  enter;
  gint64  leave;
} SextantVisitSpan;

GArray       *sextant_store_list_visits_at       (SextantStore        *self,
                                                  gint64               loc,
                                                  gint64               time,
                                                  GError             **error);

/**
 * SextantRegionPresence:
 * @region: region.id
 * @name: the region's name, "?" when it has none
 * @paradigm: "MPI", "USER", ...
 * @loc: a location that ran it
 * @visits: how many times @loc entered it
 * @min_depth: the smallest depth of those visits
 *
 * How often a location entered a region (from the call-path profile).
 */
typedef struct
{
  gint64  region;
  char   *name;
  char   *paradigm;
  gint64  loc;
  gint64  visits;
  gint64  min_depth;
} SextantRegionPresence;

void          sextant_region_presence_free       (SextantRegionPresence *presence);
GPtrArray    *sextant_store_list_region_presence (SextantStore        *self,
                                                  GError             **error);
GArray       *sextant_store_list_region_visits   (SextantStore        *self,
                                                  const gint64        *regions,
                                                  guint                n_regions,
                                                  GError             **error);
GArray       *sextant_store_list_nth_visits      (SextantStore        *self,
                                                  gint64               region,
                                                  gint64               n,
                                                  GError             **error);
gint64        sextant_store_count_visits_before  (SextantStore        *self,
                                                  gint64               loc,
                                                  gint64               region,
                                                  gint64               visit,
                                                  GError             **error);

/**
 * SextantMessageInfo:
 * @id: message.id
 * @send_loc: the sender
 * @recv_loc: the receiver
 * @bytes: bytes sent (received, without a send record)
 * @send_time: ticks: the send record
 * @send_enter: ticks: the enter of the send call, %SEXTANT_NULL when not read
 * @recv_time: ticks: the receive's completion record
 *
 * A matched point-to-point message.
 */
typedef struct
{
  gint64  id;
  gint64  send_loc;
  gint64  recv_loc;
  gint64  bytes;
  gint64  send_time;
  gint64  send_enter;
  gint64  recv_time;
} SextantMessageInfo;

typedef gboolean (*SextantMessageFunc) (const SextantMessageInfo *message,
                                        gpointer                  user_data);

gboolean      sextant_store_foreach_message      (SextantStore        *self,
                                                  gint64               begin,
                                                  gint64               end,
                                                  gboolean             with_send_enter,
                                                  SextantMessageFunc   func,
                                                  gpointer             user_data,
                                                  GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantLocationInfo, sextant_location_info_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantPatternTotal, sextant_pattern_total_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantPatternInstance, sextant_pattern_instance_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SextantAnalysisScope, sextant_analysis_scope_clear)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SextantDelayActivity, sextant_delay_activity_clear)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantLocationProcess, sextant_location_process_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantOnecollVisit, sextant_onecoll_visit_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantCollectiveInfo, sextant_collective_info_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantRegionPresence, sextant_region_presence_free)

G_END_DECLS
