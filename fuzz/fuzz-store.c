/*
 * fuzz-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer target: a damaged trace store. The input patches a seed store
 * (one imported and analysed from a seed archive by
 * sextant-fuzz-run.py); the result is read as a window reads it when it
 * opens the store and draws its views, then by one of the commands
 * `sextant info`, `analyze`, `report`, `matrix` and `tree`, in this
 * process.
 *
 * The input:
 *   byte 0    the seed store (modulo their number)
 *   byte 1    bits 0-5: the command (see run_command ()); bit 6: the rest
 *             edits rows instead of bytes; bit 7: truncate the store at the
 *             first patch's offset
 *   then      patches: [u32 offset, little-endian, modulo the store's size]
 *             [u8 length][length bytes], as many as there are
 *   or (bit 6) row edits: [u8 table][u16 row][u8 column][u8 length]
 *             [length bytes], each setting one value of one row of one
 *             table (modulo their numbers; the column tables' chunks
 *             included): length 0 NULL, 1-8 an integer (little-endian,
 *             sign-extended), more: a blob value's bytes overwritten from
 *             the offset in the first two (or the bytes as a blob)
 * so that the fuzzer's inputs stay small while the stores are a few hundred
 * KB, and a patch lands anywhere: SQLite's pages, the column chunks, the
 * pyramid, the meta table; a row edit gives a well-formed database whose
 * values are wrong (ids that point nowhere, counts, times, chunk headers).
 * The edits are SQL of this test harness only: the product's SQL stays in
 * trace/ and patterns/.
 *
 * Workload: a store of 100-600 KB written to /dev/shm and read, per input;
 * an analysis or a report is most of the time (tens to hundreds of ms
 * under ASan).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
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
    g_error ("%s: no seed stores (run fuzz/sextant-fuzz-run.py --corpus-only, or set SEXTANT_FUZZ_SEEDS)", dir_path);
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

/* The integer @sql selects, its parameter bound to @number; -1 when none */
static sqlite3_int64
scalar (sqlite3       *db,
        const char    *sql,
        sqlite3_int64  number)
{
  sqlite3_stmt *stmt = NULL;
  sqlite3_int64 value = -1;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK)
    {
      if (sqlite3_bind_parameter_count (stmt) > 0)
        sqlite3_bind_int64 (stmt, 1, number);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        value = sqlite3_column_int64 (stmt, 0);
    }
  sqlite3_finalize (stmt);
  return value;
}

/* One row edit (see the input's format above) */
static void
edit_row (sqlite3      *db,
          const char   *table,
          guint         row,
          guint         column,
          const guint8 *value,
          gsize         length)
{
  g_autofree char *count_sql = g_strdup_printf ("SELECT count(*) FROM \"%s\"", table);
  g_autofree char *columns_sql = g_strdup_printf ("SELECT count(*) FROM pragma_table_info ('%s')", table);
  g_autofree char *rowid_sql = g_strdup_printf ("SELECT rowid FROM \"%s\" ORDER BY rowid LIMIT 1 OFFSET ?", table);
  g_autofree char *name_sql = NULL;
  g_autofree char *get_sql = NULL;
  g_autofree char *set_sql = NULL;
  sqlite3_stmt *stmt = NULL;
  sqlite3_int64 rows = scalar (db, count_sql, 0);
  sqlite3_int64 columns = scalar (db, columns_sql, 0);
  sqlite3_int64 rowid;
  char *name = NULL;

  if (rows <= 0 || columns <= 0 || (rowid = scalar (db, rowid_sql, row % rows)) < 0)
    return;
  if (sqlite3_prepare_v2 (db, "SELECT name FROM pragma_table_info (?) LIMIT 1 OFFSET ?", -1, &stmt, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, column % columns);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    name = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  if (name == NULL)
    return;
  get_sql = g_strdup_printf ("SELECT \"%s\" FROM \"%s\" WHERE rowid = ?", name, table);
  set_sql = g_strdup_printf ("UPDATE \"%s\" SET \"%s\" = ? WHERE rowid = ?", table, name);
  g_free (name);

  if (sqlite3_prepare_v2 (db, set_sql, -1, &stmt, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_int64 (stmt, 2, rowid);
  if (length == 0)
    sqlite3_bind_null (stmt, 1);
  else if (length <= 8)
    {
      guint64 v = 0;

      for (gsize i = 0; i < length; i++)
        v |= (guint64)value[i] << (8 * i);
      if (length < 8 && (value[length - 1] & 0x80))
        v |= ~(guint64)0 << (8 * length);
      sqlite3_bind_int64 (stmt, 1, (sqlite3_int64)v);
    }
  else
    {
      /* the blob as it is, these bytes written over it from the offset */
      sqlite3_stmt *get = NULL;
      g_autoptr(GByteArray) blob = g_byte_array_new ();
      gsize offset = (gsize)value[0] | (gsize)value[1] << 8;

      if (sqlite3_prepare_v2 (db, get_sql, -1, &get, NULL) == SQLITE_OK)
        {
          sqlite3_bind_int64 (get, 1, rowid);
          if (sqlite3_step (get) == SQLITE_ROW && sqlite3_column_type (get, 0) == SQLITE_BLOB)
            g_byte_array_append (blob, sqlite3_column_blob (get, 0), (guint)sqlite3_column_bytes (get, 0));
        }
      sqlite3_finalize (get);
      value += 2;
      length -= 2;
      offset = blob->len > 0 ? offset % blob->len : 0;
      if (offset + length > blob->len)
        g_byte_array_set_size (blob, (guint)(offset + length));
      memcpy (blob->data + offset, value, length);
      sqlite3_bind_blob (stmt, 1, blob->data, (int)blob->len, SQLITE_TRANSIENT);
    }
  sqlite3_step (stmt);
  sqlite3_finalize (stmt);
}

/* The row edits of an input (bit 6 of its command) */
static void
edit_rows (const char   *path,
           const guint8 *data,
           gsize         size)
{
  g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gsize at = 0;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
    goto out;
  /* the tables of rows (a column table's rows are in its _chunk table) */
  if (sqlite3_prepare_v2 (db,
                          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' "
                          "AND sql NOT LIKE 'CREATE VIRTUAL%' AND sql NOT LIKE '%WITHOUT ROWID%' ORDER BY name",
                          -1, &stmt, NULL) != SQLITE_OK)
    goto out;
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_ptr_array_add (tables, g_strdup ((const char *)sqlite3_column_text (stmt, 0)));
  sqlite3_finalize (stmt);
  if (tables->len == 0)
    goto out;

  sqlite3_exec (db, "BEGIN", NULL, NULL, NULL);
  while (at + 5 <= size)
    {
      const char *table = g_ptr_array_index (tables, data[at] % tables->len);
      guint row = (guint)data[at + 1] | (guint)data[at + 2] << 8;
      guint column = data[at + 3];
      gsize length = data[at + 4];

      at += 5;
      length = MIN (length, size - at);
      edit_row (db, table, row, column, data + at, length);
      at += length;
    }
  sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
out:
  sqlite3_close (db);
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

  /* (a store truncated to nothing takes no patches) */
  while (!(command & 0x40) && at + 5 <= size && store_size > 0)
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
  if (command & 0x40)
    edit_rows (db, data + 2, size - 2);
  sextant_fuzz_read_as_window (db);
  run_command (command & 0x3f, db);
  sextant_fuzz_remove_store (db);

  return 0;
}
