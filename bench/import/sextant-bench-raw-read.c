/* sextant-bench-raw-read.c - the physical limit of reading an OTF2 archive
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   sextant-bench-raw-read [--global] ANCHOR
 *
 * Reads ANCHOR the way an importer must (global definitions, every location's
 * local definitions, then every event) with libotf2, but does nothing with
 * what it reads: an empty callback is registered for every event record kind
 * of OTF2 3.0.2, so libotf2 decodes and dispatches each record and the
 * callback returns at once.  That is the floor under `sextant import`.
 *
 * By default each location is read on its own with an OTF2_EvtReader
 * (OTF2_Reader_ReadAllLocalEvents, no merging); --global reads all locations
 * through one OTF2_GlobalEvtReader, which merges them in timestamp order, as
 * an importer that matches messages in time order would.
 *
 * Prints "events N", "seconds S" (from opening the anchor to closing the
 * reader) and "events_per_second R", one per line, for bench/import/run.sh.
 */

#include "config.h"

#include <stdlib.h>

#include <glib.h>
#include <otf2/otf2.h>

#define EXIT_USAGE 2

#define BENCH_ERROR (bench_error_quark ())
GQuark bench_error_quark (void);
G_DEFINE_QUARK (sextant-bench-raw-read-error-quark, bench_error)

/* Every event record kind of OTF2 3.0.2 with its fields (the parameters after
 * location, time, [position,] user data and attribute list).  X0 kinds have
 * no fields. */
#define BENCH_EVENT_KINDS(X, X0) \
  X0 (Unknown) \
  X (BufferFlush, OTF2_TimeStamp stop_time) \
  X (MeasurementOnOff, OTF2_MeasurementMode mode) \
  X (Enter, OTF2_RegionRef region) \
  X (Leave, OTF2_RegionRef region) \
  X (MpiSend, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length) \
  X (MpiIsend, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request) \
  X (MpiIsendComplete, uint64_t request) \
  X (MpiIrecvRequest, uint64_t request) \
  X (MpiRecv, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length) \
  X (MpiIrecv, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request) \
  X (MpiRequestTest, uint64_t request) \
  X (MpiRequestCancelled, uint64_t request) \
  X0 (MpiCollectiveBegin) \
  X (MpiCollectiveEnd, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t received) \
  X (OmpFork, uint32_t n_threads) \
  X0 (OmpJoin) \
  X (OmpAcquireLock, uint32_t lock, uint32_t order) \
  X (OmpReleaseLock, uint32_t lock, uint32_t order) \
  X (OmpTaskCreate, uint64_t task) \
  X (OmpTaskSwitch, uint64_t task) \
  X (OmpTaskComplete, uint64_t task) \
  X (Metric, OTF2_MetricRef metric, uint8_t n_metrics, const OTF2_Type *types, const OTF2_MetricValue *values) \
  X (ParameterString, OTF2_ParameterRef parameter, OTF2_StringRef string) \
  X (ParameterInt, OTF2_ParameterRef parameter, int64_t value) \
  X (ParameterUnsignedInt, OTF2_ParameterRef parameter, uint64_t value) \
  X (RmaWinCreate, OTF2_RmaWinRef win) \
  X (RmaWinDestroy, OTF2_RmaWinRef win) \
  X0 (RmaCollectiveBegin) \
  X (RmaCollectiveEnd, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, uint32_t root, \
     uint64_t sent, uint64_t received) \
  X (RmaGroupSync, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, OTF2_GroupRef group) \
  X (RmaRequestLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock, OTF2_LockType type) \
  X (RmaAcquireLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock, OTF2_LockType type) \
  X (RmaTryLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock, OTF2_LockType type) \
  X (RmaReleaseLock, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock) \
  X (RmaSync, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type) \
  X (RmaWaitChange, OTF2_RmaWinRef win) \
  X (RmaPut, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matching) \
  X (RmaGet, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matching) \
  X (RmaAtomic, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type, uint64_t sent, uint64_t received, \
     uint64_t matching) \
  X (RmaOpCompleteBlocking, OTF2_RmaWinRef win, uint64_t matching) \
  X (RmaOpCompleteNonBlocking, OTF2_RmaWinRef win, uint64_t matching) \
  X (RmaOpTest, OTF2_RmaWinRef win, uint64_t matching) \
  X (RmaOpCompleteRemote, OTF2_RmaWinRef win, uint64_t matching) \
  X (ThreadFork, OTF2_Paradigm model, uint32_t n_threads) \
  X (ThreadJoin, OTF2_Paradigm model) \
  X (ThreadTeamBegin, OTF2_CommRef team) \
  X (ThreadTeamEnd, OTF2_CommRef team) \
  X (ThreadAcquireLock, OTF2_Paradigm model, uint32_t lock, uint32_t order) \
  X (ThreadReleaseLock, OTF2_Paradigm model, uint32_t lock, uint32_t order) \
  X (ThreadTaskCreate, OTF2_CommRef team, uint32_t creator, uint32_t generation) \
  X (ThreadTaskSwitch, OTF2_CommRef team, uint32_t creator, uint32_t generation) \
  X (ThreadTaskComplete, OTF2_CommRef team, uint32_t creator, uint32_t generation) \
  X (ThreadCreate, OTF2_CommRef contingent, uint64_t sequence) \
  X (ThreadBegin, OTF2_CommRef contingent, uint64_t sequence) \
  X (ThreadWait, OTF2_CommRef contingent, uint64_t sequence) \
  X (ThreadEnd, OTF2_CommRef contingent, uint64_t sequence) \
  X (CallingContextEnter, OTF2_CallingContextRef context, uint32_t unwind) \
  X (CallingContextLeave, OTF2_CallingContextRef context) \
  X (CallingContextSample, OTF2_CallingContextRef context, uint32_t unwind, OTF2_InterruptGeneratorRef generator) \
  X (IoCreateHandle, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode, OTF2_IoCreationFlag creation, \
     OTF2_IoStatusFlag status) \
  X (IoDestroyHandle, OTF2_IoHandleRef handle) \
  X (IoDuplicateHandle, OTF2_IoHandleRef old_handle, OTF2_IoHandleRef new_handle, OTF2_IoStatusFlag status) \
  X (IoSeek, OTF2_IoHandleRef handle, int64_t request, OTF2_IoSeekOption whence, uint64_t result) \
  X (IoChangeStatusFlags, OTF2_IoHandleRef handle, OTF2_IoStatusFlag status) \
  X (IoDeleteFile, OTF2_IoParadigmRef paradigm, OTF2_IoFileRef file) \
  X (IoOperationBegin, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags, \
     uint64_t bytes, uint64_t matching) \
  X (IoOperationTest, OTF2_IoHandleRef handle, uint64_t matching) \
  X (IoOperationIssued, OTF2_IoHandleRef handle, uint64_t matching) \
  X (IoOperationComplete, OTF2_IoHandleRef handle, uint64_t bytes, uint64_t matching) \
  X (IoOperationCancelled, OTF2_IoHandleRef handle, uint64_t matching) \
  X (IoAcquireLock, OTF2_IoHandleRef handle, OTF2_LockType type) \
  X (IoReleaseLock, OTF2_IoHandleRef handle, OTF2_LockType type) \
  X (IoTryLock, OTF2_IoHandleRef handle, OTF2_LockType type) \
  X (ProgramBegin, OTF2_StringRef name, uint32_t n_args, const OTF2_StringRef *args) \
  X (ProgramEnd, int64_t status) \
  X (NonBlockingCollectiveRequest, uint64_t request) \
  X (NonBlockingCollectiveComplete, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent, \
     uint64_t received, uint64_t request) \
  X (CommCreate, OTF2_CommRef comm) \
  X (CommDestroy, OTF2_CommRef comm)

/* Empty callbacks for OTF2_EvtReader (local_*) and OTF2_GlobalEvtReader (global_*). */
#define LOCAL_CALLBACK(Kind, ...) \
  static OTF2_CallbackCode \
  local_##Kind (OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *user_data, \
                OTF2_AttributeList *attributes, __VA_ARGS__) \
  { return OTF2_CALLBACK_SUCCESS; }
#define LOCAL_CALLBACK0(Kind) \
  static OTF2_CallbackCode \
  local_##Kind (OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *user_data, \
                OTF2_AttributeList *attributes) \
  { return OTF2_CALLBACK_SUCCESS; }
#define GLOBAL_CALLBACK(Kind, ...) \
  static OTF2_CallbackCode \
  global_##Kind (OTF2_LocationRef location, OTF2_TimeStamp time, void *user_data, \
                 OTF2_AttributeList *attributes, __VA_ARGS__) \
  { return OTF2_CALLBACK_SUCCESS; }
#define GLOBAL_CALLBACK0(Kind) \
  static OTF2_CallbackCode \
  global_##Kind (OTF2_LocationRef location, OTF2_TimeStamp time, void *user_data, \
                 OTF2_AttributeList *attributes) \
  { return OTF2_CALLBACK_SUCCESS; }

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
BENCH_EVENT_KINDS (LOCAL_CALLBACK, LOCAL_CALLBACK0)
BENCH_EVENT_KINDS (GLOBAL_CALLBACK, GLOBAL_CALLBACK0)
G_GNUC_END_IGNORE_DEPRECATIONS

typedef struct
{
  OTF2_Reader *reader;
  GArray      *locations;   /* OTF2_LocationRef */
  GError      *error;       /* first failure */
} RawRead;

static gboolean
raw_check (RawRead        *raw,
           OTF2_ErrorCode  status,
           const char     *what)
{
  if (status == OTF2_SUCCESS)
    return TRUE;

  if (raw->error == NULL)
    raw->error = g_error_new (BENCH_ERROR, 0, "%s: %s (%s)", what, OTF2_Error_GetName (status),
                              OTF2_Error_GetDescription (status));
  return FALSE;
}

static OTF2_EvtReaderCallbacks *
local_callbacks_new (RawRead *raw)
{
  OTF2_EvtReaderCallbacks *callbacks = OTF2_EvtReaderCallbacks_New ();

#define SET_LOCAL(Kind, ...) \
  raw_check (raw, OTF2_EvtReaderCallbacks_Set##Kind##Callback (callbacks, local_##Kind), "Set" #Kind "Callback");
#define SET_LOCAL0(Kind) SET_LOCAL (Kind)
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  BENCH_EVENT_KINDS (SET_LOCAL, SET_LOCAL0)
  G_GNUC_END_IGNORE_DEPRECATIONS
#undef SET_LOCAL
#undef SET_LOCAL0

  return callbacks;
}

static OTF2_GlobalEvtReaderCallbacks *
global_callbacks_new (RawRead *raw)
{
  OTF2_GlobalEvtReaderCallbacks *callbacks = OTF2_GlobalEvtReaderCallbacks_New ();

#define SET_GLOBAL(Kind, ...) \
  raw_check (raw, OTF2_GlobalEvtReaderCallbacks_Set##Kind##Callback (callbacks, global_##Kind), \
             "Set" #Kind "Callback");
#define SET_GLOBAL0(Kind) SET_GLOBAL (Kind)
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  BENCH_EVENT_KINDS (SET_GLOBAL, SET_GLOBAL0)
  G_GNUC_END_IGNORE_DEPRECATIONS
#undef SET_GLOBAL
#undef SET_GLOBAL0

  return callbacks;
}

static OTF2_CallbackCode
raw_on_location (void                 *user_data,
                 OTF2_LocationRef      self,
                 OTF2_StringRef        name,
                 OTF2_LocationType     type,
                 uint64_t              n_events,
                 OTF2_LocationGroupRef group)
{
  RawRead *raw = user_data;

  g_array_append_val (raw->locations, self);
  return OTF2_CALLBACK_SUCCESS;
}

/* Global definitions (only the locations are kept), then every location's
 * local definitions, which hold the mapping tables and clock offsets that
 * libotf2 applies to the events. */
static void
raw_read_definitions (RawRead *raw)
{
  OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader (raw->reader);
  OTF2_GlobalDefReaderCallbacks *callbacks = OTF2_GlobalDefReaderCallbacks_New ();
  uint64_t n_defs = 0;

  if (defs == NULL)
    {
      raw_check (raw, OTF2_ERROR_INVALID_ARGUMENT, "OTF2_Reader_GetGlobalDefReader");
      OTF2_GlobalDefReaderCallbacks_Delete (callbacks);
      return;
    }

  raw_check (raw, OTF2_GlobalDefReaderCallbacks_SetLocationCallback (callbacks, raw_on_location),
             "SetLocationCallback");
  raw_check (raw, OTF2_Reader_RegisterGlobalDefCallbacks (raw->reader, defs, callbacks, raw),
             "RegisterGlobalDefCallbacks");
  raw_check (raw, OTF2_Reader_ReadAllGlobalDefinitions (raw->reader, defs, &n_defs), "ReadAllGlobalDefinitions");
  OTF2_GlobalDefReaderCallbacks_Delete (callbacks);
  raw_check (raw, OTF2_Reader_CloseGlobalDefReader (raw->reader, defs), "CloseGlobalDefReader");

  for (guint i = 0; i < raw->locations->len; i++)
    raw_check (raw, OTF2_Reader_SelectLocation (raw->reader, g_array_index (raw->locations, OTF2_LocationRef, i)),
               "SelectLocation");

  raw_check (raw, OTF2_Reader_OpenDefFiles (raw->reader), "OpenDefFiles");
  for (guint i = 0; i < raw->locations->len; i++)
    {
      OTF2_DefReader *local = OTF2_Reader_GetDefReader (raw->reader,
                                                        g_array_index (raw->locations, OTF2_LocationRef, i));
      uint64_t n_local = 0;

      if (local == NULL)
        continue;   /* a location without a local definition file */
      raw_check (raw, OTF2_Reader_ReadAllLocalDefinitions (raw->reader, local, &n_local),
                 "ReadAllLocalDefinitions");
      raw_check (raw, OTF2_Reader_CloseDefReader (raw->reader, local), "CloseDefReader");
    }
  raw_check (raw, OTF2_Reader_CloseDefFiles (raw->reader), "CloseDefFiles");
}

static guint64
raw_read_events (RawRead  *raw,
                 gboolean  global)
{
  g_autofree OTF2_EvtReader **readers = g_new0 (OTF2_EvtReader *, raw->locations->len);
  guint64 total = 0;

  raw_check (raw, OTF2_Reader_OpenEvtFiles (raw->reader), "OpenEvtFiles");
  for (guint i = 0; i < raw->locations->len; i++)
    {
      readers[i] = OTF2_Reader_GetEvtReader (raw->reader, g_array_index (raw->locations, OTF2_LocationRef, i));
      if (readers[i] == NULL)
        raw_check (raw, OTF2_ERROR_INVALID_ARGUMENT, "OTF2_Reader_GetEvtReader");
    }

  if (raw->error != NULL)
    return 0;

  if (global)
    {
      OTF2_GlobalEvtReader *merged = OTF2_Reader_GetGlobalEvtReader (raw->reader);
      OTF2_GlobalEvtReaderCallbacks *callbacks = global_callbacks_new (raw);
      uint64_t n = 0;

      raw_check (raw, OTF2_Reader_RegisterGlobalEvtCallbacks (raw->reader, merged, callbacks, NULL),
                 "RegisterGlobalEvtCallbacks");
      raw_check (raw, OTF2_Reader_ReadAllGlobalEvents (raw->reader, merged, &n), "ReadAllGlobalEvents");
      total = n;
      OTF2_GlobalEvtReaderCallbacks_Delete (callbacks);
      raw_check (raw, OTF2_Reader_CloseGlobalEvtReader (raw->reader, merged), "CloseGlobalEvtReader");
    }
  else
    {
      OTF2_EvtReaderCallbacks *callbacks = local_callbacks_new (raw);

      for (guint i = 0; i < raw->locations->len; i++)
        {
          uint64_t n = 0;

          raw_check (raw, OTF2_Reader_RegisterEvtCallbacks (raw->reader, readers[i], callbacks, NULL),
                     "RegisterEvtCallbacks");
          raw_check (raw, OTF2_Reader_ReadAllLocalEvents (raw->reader, readers[i], &n), "ReadAllLocalEvents");
          total += n;
          raw_check (raw, OTF2_Reader_CloseEvtReader (raw->reader, readers[i]), "CloseEvtReader");
        }
      OTF2_EvtReaderCallbacks_Delete (callbacks);
    }

  raw_check (raw, OTF2_Reader_CloseEvtFiles (raw->reader), "CloseEvtFiles");
  return total;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  gboolean global = FALSE;
  const GOptionEntry entries[] = {
    { "global", 'g', 0, G_OPTION_ARG_NONE, &global,
      "Merge all locations in time order with one OTF2_GlobalEvtReader", NULL },
    { NULL }
  };
  RawRead raw = { 0 };
  guint64 n_events;
  gint64 start;
  double seconds;

  context = g_option_context_new ("ANCHOR");
  g_option_context_set_summary (context,
                                "Read every event of an OTF2 archive with empty callbacks and report the rate.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("sextant-bench-raw-read: %s (try --help)\n", error->message);
      return EXIT_USAGE;
    }
  if (argc != 2)
    {
      g_printerr ("sextant-bench-raw-read: expected one ANCHOR file, e.g. DIR/traces.otf2 (try --help)\n");
      return EXIT_USAGE;
    }
  if (!g_file_test (argv[1], G_FILE_TEST_IS_REGULAR))
    {
      g_printerr ("sextant-bench-raw-read: %s: no such anchor file\n", argv[1]);
      return EXIT_FAILURE;
    }

  start = g_get_monotonic_time ();
  raw.locations = g_array_new (FALSE, FALSE, sizeof (OTF2_LocationRef));
  raw.reader = OTF2_Reader_Open (argv[1]);
  if (raw.reader == NULL)
    {
      g_printerr ("sextant-bench-raw-read: %s: OTF2_Reader_Open failed\n", argv[1]);
      return EXIT_FAILURE;
    }

  raw_check (&raw, OTF2_Reader_SetSerialCollectiveCallbacks (raw.reader), "SetSerialCollectiveCallbacks");
  raw_read_definitions (&raw);
  n_events = raw.error == NULL ? raw_read_events (&raw, global) : 0;
  raw_check (&raw, OTF2_Reader_Close (raw.reader), "OTF2_Reader_Close");
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  g_array_unref (raw.locations);

  if (raw.error != NULL)
    {
      g_printerr ("sextant-bench-raw-read: %s: %s\n", argv[1], raw.error->message);
      g_error_free (raw.error);
      return EXIT_FAILURE;
    }

  g_print ("events %" G_GUINT64_FORMAT "\n", n_events);
  g_print ("seconds %.3f\n", seconds);
  g_print ("events_per_second %.0f\n", n_events / MAX (seconds, 1e-9));

  return EXIT_SUCCESS;
}
