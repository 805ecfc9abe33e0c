/*
 * fuzz-archive.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer targets that import a seed archive with some of its files
 * replaced by the input, through the real importer into a temporary store.
 * Built once per kind of file (SEXTANT_FUZZ_KIND, fuzz/meson.build):
 *
 *   fuzz-anchor       the anchor file: sextant_anchor_read () checks it, and
 *                     only one it accepts is imported (libotf2 reads the
 *                     anchor after the check), so that an anchor the check
 *                     lets through and libotf2 loops or crashes on is found
 *   fuzz-global-defs  traces.def, the global definitions
 *   fuzz-local-defs   a location's traces/N.def (its mapping tables, clock
 *                     offsets)
 *   fuzz-events       a location's traces/N.evt
 *   fuzz-archive      any files: the input names each one it replaces; a
 *                     store that imports is then read as a window reads it
 *
 * The input:
 *   fuzz-anchor: the anchor file (of the first seed archive);
 *   the others: byte 0 picks the seed archive (modulo their number), then
 *   fuzz-archive: one or more [file index byte][contents], the pieces
 *     separated by SEPARATOR (the index modulo the archive's files);
 *   the others: [file index byte][contents] (the index modulo the files of
 *     the kind; ignored for traces.def).
 * The seed corpus (sextant-fuzz-run.py) holds every file of every seed
 * archive in this form, so that mutations start from real files.
 *
 * Workload: one import of an archive of a few KB per input (tens of
 * milliseconds under ASan); most anchors end in the check (microseconds).
 */
#include "config.h"

#include <string.h>

#include "sextant-anchor.h"
#include "sextant-fuzz-util.h"

#define SEPARATOR     "\n--sextant-fuzz-file--\n"
#define SEPARATOR_LEN (sizeof SEPARATOR - 1)

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  sextant_fuzz_init ();
  sextant_fuzz_archives ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  GPtrArray *archives = sextant_fuzz_archives ();
  SextantFuzzArchive *archive;
  const guint8 *end = data + size;

  if (SEXTANT_FUZZ_KIND == SEXTANT_FUZZ_FILE_ANCHOR)
    {
      g_autoptr(GError) error = NULL;
      SextantAnchor anchor;

      archive = g_ptr_array_index (archives, 0);
      sextant_fuzz_archive_replace (archive, (guint)sextant_fuzz_archive_pick (archive, SEXTANT_FUZZ_KIND, 0),
                                    data, size);
      if (sextant_anchor_read (archive->anchor, &anchor, &error))
        sextant_fuzz_import (archive->anchor, FALSE);
      sextant_fuzz_archive_restore (archive);
      return 0;
    }

  if (size < 2)
    return 0;
  archive = g_ptr_array_index (archives, data[0] % archives->len);
  data++;

  while (data < end)
    {
      const guint8 *next = end;
      int file;

      if (SEXTANT_FUZZ_KIND == SEXTANT_FUZZ_FILE_ANY &&
          (next = memmem (data, (gsize)(end - data), SEPARATOR, SEPARATOR_LEN)) == NULL)
        next = end;
      if (next > data && (file = sextant_fuzz_archive_pick (archive, SEXTANT_FUZZ_KIND, data[0])) >= 0)
        sextant_fuzz_archive_replace (archive, (guint)file, data + 1, (gsize)(next - data - 1));
      data = next < end ? next + SEPARATOR_LEN : end;
    }

  sextant_fuzz_import (archive->anchor, SEXTANT_FUZZ_KIND == SEXTANT_FUZZ_FILE_ANY);
  sextant_fuzz_archive_restore (archive);

  return 0;
}
