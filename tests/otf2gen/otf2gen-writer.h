/* otf2gen-writer.h - boilerplate shared by the sextant-otf2gen scenarios
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SextantGen wraps one OTF2 archive being written serially by one process:
 * it opens the archive (refusing to overwrite an existing one unless asked),
 * installs the flush and serial-collective callbacks, hands out one event
 * writer per location, interns strings into global String definitions, and
 * turns the first failing OTF2 call into a GError.  Scenarios only describe
 * their definitions and events.
 *
 * Order of use (OTF2 wants events before local definitions before global
 * definitions when writing serially):
 *
 *   gen = sextant_gen_new (outdir, "traces", force, &error);
 *   r0 = sextant_gen_add_location (gen, 0);
 *   SEXTANT_GEN_EVENT (gen, r0, ts, Enter, region);          // any number
 *   sextant_gen_begin_definitions (gen);                     // closes event files
 *   SEXTANT_GEN_DEF (gen, Region, id, sextant_gen_string (gen, "main"), ...);
 *   ok = sextant_gen_finish (gen, &error);                   // OTF2_Archive_Close
 *   sextant_gen_free (gen);
 *
 * Events are checked to be in time order per location.  libotf2 3.0.2 refuses
 * to write a timestamp smaller than the location's previous one, so a scenario
 * that needs time to go backwards asks sextant_gen_backwards_ts() for the
 * timestamp to write: it returns a placeholder (previous + 1) and
 * sextant_gen_finish() overwrites the placeholder with the real value in the
 * closed event file.  Every call after the first failure is still made (OTF2
 * copes), but only the first failure is reported.
 */

#pragma once

#include <glib.h>
#include <otf2/otf2.h>

G_BEGIN_DECLS

#define SEXTANT_GEN_ERROR (sextant_gen_error_quark ())
GQuark sextant_gen_error_quark (void);

typedef enum
{
  SEXTANT_GEN_ERROR_EXISTS,   /* the archive is already there and --force was not given */
  SEXTANT_GEN_ERROR_IO,       /* creating or cleaning the output directory failed */
  SEXTANT_GEN_ERROR_OTF2,     /* libotf2 returned an error */
  SEXTANT_GEN_ERROR_ORDER,    /* an event went back in time on its location */
  SEXTANT_GEN_ERROR_COUNT,    /* a scenario's self-check of its record counts failed */
} SextantGenError;

typedef struct
{
  OTF2_LocationRef  id;
  OTF2_EvtWriter   *writer;     /* NULL once sextant_gen_begin_definitions() ran */
  OTF2_TimeStamp    last_ts;
  guint64           n_events;   /* records written through SEXTANT_GEN_EVENT */
} SextantGenLocation;

typedef struct
{
  OTF2_LocationRef location;
  OTF2_TimeStamp   placeholder;   /* written by libotf2 */
  OTF2_TimeStamp   ts;            /* what the event file ends up with */
} SextantGenTsPatch;

typedef struct
{
  char                 *anchor_path;   /* OUTDIR/NAME.otf2 */
  OTF2_Archive         *archive;
  GPtrArray            *locations;     /* SextantGenLocation, owned */
  GHashTable           *strings;       /* string -> GUINT_TO_POINTER (ref + 1) */
  OTF2_GlobalDefWriter *defs;          /* valid after sextant_gen_begin_definitions() */
  GError               *error;         /* first failure */
  char                 *outdir;
  char                 *archive_name;
  GArray               *ts_patches;    /* SextantGenTsPatch, applied after closing */
} SextantGen;

SextantGen         *sextant_gen_new                (const char          *outdir,
                                                    const char          *archive_name,
                                                    gboolean             force,
                                                    GError             **error);
void                sextant_gen_free               (SextantGen          *gen);
SextantGenLocation *sextant_gen_add_location       (SextantGen          *gen,
                                                    OTF2_LocationRef     id);
OTF2_TimeStamp      sextant_gen_backwards_ts       (SextantGen          *gen,
                                                    SextantGenLocation  *loc,
                                                    OTF2_TimeStamp       ts);
gboolean            sextant_gen_check              (SextantGen          *gen,
                                                    OTF2_ErrorCode       status,
                                                    const char          *what);
void                sextant_gen_fail               (SextantGen          *gen,
                                                    SextantGenError      code,
                                                    const char          *format,
                                                    ...) G_GNUC_PRINTF (3, 4);
void                sextant_gen_event_done         (SextantGen          *gen,
                                                    SextantGenLocation  *loc,
                                                    OTF2_TimeStamp       ts,
                                                    OTF2_ErrorCode       status,
                                                    const char          *kind);
void                sextant_gen_begin_definitions  (SextantGen          *gen);
OTF2_StringRef      sextant_gen_string             (SextantGen          *gen,
                                                    const char          *str);
OTF2_StringRef      sextant_gen_string_or_undef    (SextantGen          *gen,
                                                    const char          *str);
void                sextant_gen_write_clock        (SextantGen          *gen,
                                                    guint64              resolution,
                                                    guint64              global_offset,
                                                    guint64              trace_length,
                                                    guint64              realtime_ns);
gboolean            sextant_gen_finish             (SextantGen          *gen,
                                                    GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SextantGen, sextant_gen_free)

/* Write one event record of kind Kind (the suffix of OTF2_EvtWriter_Kind) on
 * @loc at @ts; the remaining arguments are the record's fields. */
#define SEXTANT_GEN_EVENT(gen, loc, ts, Kind, ...) \
  sextant_gen_event_done ((gen), (loc), (ts), \
                          OTF2_EvtWriter_##Kind ((loc)->writer, NULL, (ts), ##__VA_ARGS__), \
                          #Kind)

/* Write one global definition (the suffix of OTF2_GlobalDefWriter_WriteKind). */
#define SEXTANT_GEN_DEF(gen, Kind, ...) \
  sextant_gen_check ((gen), OTF2_GlobalDefWriter_Write##Kind ((gen)->defs, __VA_ARGS__), \
                     "global definition " #Kind)

G_END_DECLS
