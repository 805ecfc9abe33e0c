/*
 * sextant-fuzz-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the libFuzzer targets of fuzz/ share: a temporary directory of
 * their own, the seed archives and stores (built into the build tree by
 * fuzz/sextant-fuzz-run.py), an import into a temporary store, and the
 * reads a window makes of a store when it opens it and draws its views.
 *
 * Workload: one call per fuzz input; everything runs on the fuzzing thread
 * (the importer starts threads of its own and joins them).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One seed archive, copied into the process's temporary directory: its
 * files (relative paths, sorted: traces.def, traces.otf2, traces/N.def,
 * traces/N.evt) and their original contents, to put back after an input
 * replaced one. */
typedef struct
{
  char       *dir;       /* the copy */
  char       *anchor;    /* dir/traces.otf2 (or whatever .otf2 it has) */
  GPtrArray  *files;     /* of char *, relative to dir */
  GPtrArray  *contents;  /* of GBytes, the seed's bytes of each file */
} SextantFuzzArchive;

/* Once, from LLVMFuzzerInitialize(): the temporary directory (in /dev/shm
 * when there is one), a fatal g_critical(), standard output and
 * g_printerr() silenced, XDG_DATA_HOME in the temporary directory (no user
 * patterns). */
void                 sextant_fuzz_init            (void);
/* The process's temporary directory (removed at exit) */
const char          *sextant_fuzz_tmpdir          (void);
/* The directory of seeds: $SEXTANT_FUZZ_SEEDS, or the build tree's
 * fuzz/seeds (sextant-fuzz-run.py writes it). */
const char          *sextant_fuzz_seed_dir        (void);
/* The seed archives (seeds/archives/NAME, sorted by name), copied into the
 * temporary directory at the first call. Aborts when there are none. */
GPtrArray           *sextant_fuzz_archives        (void);
typedef enum
{
  SEXTANT_FUZZ_FILE_ANY,
  SEXTANT_FUZZ_FILE_ANCHOR,       /* traces.otf2 */
  SEXTANT_FUZZ_FILE_GLOBAL_DEFS,  /* traces.def */
  SEXTANT_FUZZ_FILE_LOCAL_DEFS,   /* traces/N.def */
  SEXTANT_FUZZ_FILE_EVENTS,       /* traces/N.evt */
} SextantFuzzFile;

/* The index in @archive's files of the (@wanted modulo their number)-th
 * file of kind @kind, or -1 when it has none */
int                  sextant_fuzz_archive_pick    (SextantFuzzArchive *archive,
                                                   SextantFuzzFile     kind,
                                                   guint               wanted);
/* Replaces file @index of @archive by @data */
void                 sextant_fuzz_archive_replace (SextantFuzzArchive *archive,
                                                   guint               index,
                                                   const guint8       *data,
                                                   gsize               size);
/* Puts back every file of @archive as the seed had it */
void                 sextant_fuzz_archive_restore (SextantFuzzArchive *archive);

/* Imports @anchor into a temporary store in the process's directory (the
 * importer in this process, as the worker process runs it); when it
 * succeeds and @read is TRUE, reads the store as a window would. Removes
 * the store. */
void                 sextant_fuzz_import          (const char         *anchor,
                                                   gboolean            read);

/* What a window reads of the store at @path: the session's load (the
 * locations, regions, time span, last analysis), the pattern browser's
 * lists, the timeline's rows and frames (the level-of-detail reader at
 * three zooms and the whole-machine picture, messages, collectives,
 * one-sided operations, lost time, counters), the details pane for the
 * items drawn, the trees of collectives and delay chains, the matrix. */
void                 sextant_fuzz_read_as_window  (const char         *path);

/* Removes @path and its SQLite companions (-wal, -shm, -journal) */
void                 sextant_fuzz_remove_store    (const char         *path);

G_END_DECLS
