/*
 * fuzz-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: a damaged trace store. The input patches a seed store
 * (one imported and analysed from a seed archive by
 * sextant-fuzz-corpus.py); the result is read as a window reads it when it
 * opens the store and draws its views, then by one of the commands
 * `sextant info`, `analyze`, `report`, `matrix` and `tree`, in this
 * process.
 *
 * The input:
 *   byte 0    the seed store (modulo their number)
 *   byte 1    the command (see run_command ()); bit 7: truncate the store
 *             at the first patch's offset
 *   then      patches: [u32 offset, little-endian, modulo the store's size]
 *             [u8 length][length bytes], as many as there are
 * so that the fuzzer's inputs stay small while the stores are a few hundred
 * KB, and a patch lands anywhere: SQLite's pages, the column chunks, the
 * pyramid, the meta table.
 *
 * Workload: a store of 100-600 KB written to /dev/shm and read, per input;
 * an analysis or a report is most of the time (tens to hundreds of ms
 * under ASan).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sextant-cli.h"
#include "sextant-fuzz-util.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* the seed stores' bytes */
static GPtrArray *stores;

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autofree char *dir_path = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  sextant_fuzz_init ();
  dir_path = g_build_filename (sextant_fuzz_seed_dir (), "stores", NULL);
  if (!(dir = g_dir_open (dir_path, 0, NULL)))
    g_error ("%s: no seed stores (run fuzz/sextant-fuzz-corpus.py, or set SEXTANT_FUZZ_SEEDS)", dir_path);
  while ((name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".sextant.db"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);

  stores = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir_path, g_ptr_array_index (names, i), NULL);
      g_autoptr(GError) error = NULL;
      char *data;
      gsize size;

      if (!g_file_get_contents (path, &data, &size, &error))
        g_error ("%s", error->message);
      g_ptr_array_add (stores, g_bytes_new_take (data, size));
    }
  if (stores->len == 0)
    g_error ("%s: no seed stores", dir_path);

  return 0;
}

/* One of the commands that read a store, as `sextant COMMAND ARGS DB` */
static void
run_command (guint       command,
             const char *db)
{
  g_autofree char *out = g_build_filename (sextant_fuzz_tmpdir (), "report.out", NULL);
  static const char * const formats[] = { "html", "md", "csv", "json" };
  const char *argv[8];
  int argc = 0;
  int (*run) (int, char **) = NULL;

  switch (command % 8)
    {
    case 0:  /* the window's reads only */
      return;
    case 1:
      run = sextant_cli_info;
      argv[argc++] = "info";
      break;
    case 2:
      run = sextant_cli_info;
      argv[argc++] = "info";
      argv[argc++] = "--json";
      argv[argc++] = "--collectives";
      break;
    case 3:
      run = sextant_cli_analyze;
      argv[argc++] = "analyze";
      argv[argc++] = "--json";
      break;
    case 4:
    case 5:
      run = sextant_cli_report;
      argv[argc++] = "report";
      argv[argc++] = "-f";
      argv[argc++] = formats[(command / 8) % G_N_ELEMENTS (formats)];
      argv[argc++] = "-o";
      argv[argc++] = out;
      break;
    case 6:
      run = sextant_cli_matrix;
      argv[argc++] = "matrix";
      argv[argc++] = "--json";
      break;
    case 7:
      run = sextant_cli_tree;
      argv[argc++] = "tree";
      argv[argc++] = (command / 8) % 2 ? "--instance=1" : "--collective=0";
      break;
    default:
      g_assert_not_reached ();
    }
  argv[argc++] = db;
  argv[argc] = NULL;
  run (argc, (char **)argv);
  g_unlink (out);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *db = g_build_filename (sextant_fuzz_tmpdir (), "fuzz.sextant.db", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *bytes = NULL;
  GBytes *seed;
  gsize store_size;
  guint command;
  gsize at = 2;
  gboolean first = TRUE;

  if (size < 2)
    return 0;
  seed = g_ptr_array_index (stores, data[0] % stores->len);
  bytes = g_memdup2 (g_bytes_get_data (seed, &store_size), g_bytes_get_size (seed));
  command = data[1];

  while (at + 5 <= size)
    {
      guint32 offset = (guint32)data[at] | (guint32)data[at + 1] << 8 | (guint32)data[at + 2] << 16 |
                       (guint32)data[at + 3] << 24;
      gsize length = data[at + 4];

      offset %= store_size;
      at += 5;
      length = MIN (length, size - at);
      if (first && (command & 0x80))
        store_size = offset;
      first = FALSE;
      length = MIN (length, store_size - MIN (offset, store_size));
      memcpy (bytes + offset, data + at, length);
      at += length;
    }

  sextant_fuzz_remove_store (db);
  if (!g_file_set_contents (db, (const char *)bytes, (gssize)store_size, &error))
    g_error ("%s", error->message);
  sextant_fuzz_read_as_window (db);
  run_command (command & 0x7f, db);
  sextant_fuzz_remove_store (db);

  return 0;
}
