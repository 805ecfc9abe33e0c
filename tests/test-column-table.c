/*
 * test-column-table.c: the column chunk format and the sextant_columns
 * virtual table, against plain SQLite tables holding the same rows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "sextant-chunk.h"
#include "sextant-column-table.h"

#define NULLV G_MININT64

/* Round trip: every value, NULL and extreme, comes back as it went in. */
static void
test_chunk_round_trip (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  static const guint sizes[] = { 1, 2, 255, 256, 4096, SEXTANT_CHUNK_MAX_ROWS };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint n = sizes[s];
      const guint n_cols = 12;
      gint64 *cols[12];
      guint8 header[12 * 18];
      g_autoptr(GBytes) data = NULL;
      SextantChunk chunk;
      gsize size;
      const guint8 *bytes;

      for (guint c = 0; c < n_cols; c++)
        {
          cols[c] = g_new (gint64, n);
          for (guint r = 0; r < n; r++)
            {
              switch (c)
                {
                case 0: cols[c][r] = 42; break;                                  /* constant: width 0 */
                case 1: cols[c][r] = NULLV; break;                               /* all NULL */
                case 2: cols[c][r] = r % 3 == 0 ? NULLV : 42; break;             /* NULLs and one value */
                case 3: cols[c][r] = g_rand_int_range (rand, -100, 100); break;  /* 1 byte */
                case 4: cols[c][r] = 1000000 + g_rand_int_range (rand, 0, 60000); break;
                case 5: cols[c][r] = (gint64)g_rand_int (rand) << 8; break;      /* 5 bytes */
                case 6: cols[c][r] = r % 2 ? G_MAXINT64 : G_MININT64 + 1; break; /* full range */
                case 7: cols[c][r] = r % 5 == 0 ? NULLV : r % 2 ? G_MAXINT64 : G_MININT64 + 1; break;
                case 8: cols[c][r] = (gint64)r * 1000003; break;                 /* increasing */
                case 9: cols[c][r] = -(gint64)r; break;
                case 10: cols[c][r] = r % 7 == 0 ? NULLV : (gint64)g_rand_int (rand) * 65536; break;
                default: cols[c][r] = r == n - 1 ? NULLV : 0; break;
                }
            }
        }

      data = sextant_chunk_encode ((const gint64 * const *)cols, n_cols, n, header);
      g_assert_true (sextant_chunk_parse_header (&chunk, header, sextant_chunk_header_size (n_cols), n, n_cols));
      bytes = g_bytes_get_data (data, &size);
      g_assert_true (sextant_chunk_attach_data (&chunk, bytes, size));
      g_assert_false (sextant_chunk_attach_data (&chunk, bytes, size + 1));

      g_assert_cmpuint (chunk.cols[0].width, ==, 0);
      g_assert_true (chunk.cols[1].all_null);
      g_assert_cmpuint (chunk.cols[3].width, ==, n > 1 ? 1 : 0);
      g_assert_cmpuint (chunk.cols[6].width, ==, n > 1 ? 8 : 0);

      for (guint c = 0; c < n_cols; c++)
        {
          g_autofree gint64 *range = g_new (gint64, 3 * (gsize)n);
          guint from = n / 3;

          for (guint r = 0; r < n; r++)
            if (sextant_chunk_get (&chunk, c, r) != cols[c][r])
              g_error ("rows %u, column %u, row %u: %" G_GINT64_FORMAT " came back as %" G_GINT64_FORMAT,
                       n, c, r, cols[c][r], sextant_chunk_get (&chunk, c, r));
          /* a run of rows decoded at once, every third slot */
          sextant_chunk_get_range (&chunk, c, from, n - from, range, 3);
          for (guint r = from; r < n; r++)
            if (range[(gsize)(r - from) * 3] != cols[c][r])
              g_error ("rows %u, column %u, row %u decoded in a run: %" G_GINT64_FORMAT " came back as %" G_GINT64_FORMAT,
                       n, c, r, cols[c][r], range[(gsize)(r - from) * 3]);
          g_free (cols[c]);
        }
    }

  /* a header of the wrong size or column count is refused */
  {
    guint8 header[18] = { 9 };
    SextantChunk chunk;

    g_assert_false (sextant_chunk_parse_header (&chunk, header, 18, 1, 2));
    g_assert_false (sextant_chunk_parse_header (&chunk, header, 18, 1, 1));   /* width 9 */
  }
}

static void
exec (sqlite3    *db,
      const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

/* Every row of a query as one string, rows in the query's order. */
static char *
rows_of (sqlite3    *db,
         const char *sql)
{
  g_autoptr(GString) out = g_string_new (NULL);
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      for (int c = 0; c < sqlite3_column_count (stmt); c++)
        {
          const char *text = (const char *)sqlite3_column_text (stmt, c);

          g_string_append_printf (out, "%s%s", c > 0 ? "|" : "", text != NULL ? text : "NULL");
        }
      g_string_append_c (out, '\n');
    }
  if (rc != SQLITE_DONE)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  sqlite3_finalize (stmt);

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The same rows in a column table `t` (chunks of varying size, some rows
 * ids skipped between chunks) and a plain table `ref`; every query must
 * give the same answer on both. */
static void
test_queries_match_a_plain_table (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sextant-column-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.db", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  SextantColumnModule *module;
  sqlite3 *db = NULL;
  sqlite3_stmt *chunk_stmt = NULL;
  sqlite3_stmt *ref_stmt = NULL;
  gint64 row = 1;
  static const char * const queries[] = {
    "SELECT * FROM %s ORDER BY id",
    "SELECT count(*), sum (a), sum (b), count (c) FROM %s",
    "SELECT * FROM %s WHERE id = 4000",
    "SELECT * FROM %s WHERE id = 999999",
    "SELECT id, a FROM %s WHERE id BETWEEN 1500 AND 2600 ORDER BY id",
    "SELECT id FROM %s WHERE id > 9000 AND id <= 9100 ORDER BY id",
    "SELECT id FROM %s WHERE id < 3 OR id >= 12345 ORDER BY id",
    "SELECT id, g FROM %s WHERE g = 3 ORDER BY id",
    "SELECT id FROM %s WHERE g = 3 AND a > 500 ORDER BY id",
    "SELECT id FROM %s WHERE a >= 100 AND a < 120 ORDER BY id",
    "SELECT id FROM %s WHERE b IS NULL ORDER BY id",
    "SELECT id FROM %s WHERE b = NULL",
    "SELECT id FROM %s WHERE b > 10.5 AND b < 20.5 ORDER BY id",
    "SELECT id FROM %s WHERE a = 7.0 ORDER BY id",
    "SELECT id FROM %s WHERE a = 7.5",
    "SELECT id FROM %s WHERE a < 'text' AND id < 50 ORDER BY id",
    "SELECT id FROM %s WHERE id > 9223372036854775807",
    "SELECT id FROM %s WHERE a > -9223372036854775808 AND id < 30 ORDER BY id",
    "SELECT c, count (*) FROM %s GROUP BY c ORDER BY c",
    "SELECT id FROM %s WHERE c = 'NONBLOCKING' AND g = 1 ORDER BY id",
    "SELECT x.id, y.id FROM %s AS x JOIN %s AS y ON y.id = x.a WHERE x.g = 2 ORDER BY x.id",
    "SELECT g, max (id), min (b) FROM %s GROUP BY g ORDER BY g",
    "SELECT id FROM %s WHERE id IN (5, 70, 4096, 4097, 20000) ORDER BY id",
  };

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  module = sextant_column_table_register (db, NULL);
  g_assert_nonnull (module);

  exec (db, "CREATE VIRTUAL TABLE t USING sextant_columns (id ROWID, g, a, b, c TEXT BLOCKING NONBLOCKING);"
            "CREATE TABLE ref (id INTEGER PRIMARY KEY, g, a, b, c TEXT);");
  g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT INTO t_chunk VALUES (?1, ?2, ?3, ?4)", -1, &chunk_stmt, NULL),
                   ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT INTO ref VALUES (?1, ?2, ?3, ?4, ?5)", -1, &ref_stmt, NULL),
                   ==, SQLITE_OK);

  exec (db, "BEGIN");
  for (guint g = 0; g < 6; g++)
    {
      guint n = g == 5 ? 1 : g_rand_int_range (rand, 100, 5000);
      gint64 *cols[4];
      guint8 header[4 * 18];
      g_autoptr(GBytes) data = NULL;

      for (guint c = 0; c < 4; c++)
        cols[c] = g_new (gint64, n);
      for (guint r = 0; r < n; r++)
        {
          cols[0][r] = g;
          cols[1][r] = g_rand_int_range (rand, 0, 1000) + (gint64)g * 300;
          cols[2][r] = g_rand_int_range (rand, 0, 10) == 0 ? NULLV : g_rand_int_range (rand, -40, 40);
          cols[3][r] = g_rand_int_range (rand, 0, 3) == 2 ? NULLV : g_rand_int_range (rand, 0, 2);

          sqlite3_reset (ref_stmt);
          sqlite3_bind_int64 (ref_stmt, 1, row + r);
          for (guint c = 0; c < 3; c++)
            {
              if (cols[c][r] == NULLV)
                sqlite3_bind_null (ref_stmt, 2 + c);
              else
                sqlite3_bind_int64 (ref_stmt, 2 + c, cols[c][r]);
            }
          if (cols[3][r] == NULLV)
            sqlite3_bind_null (ref_stmt, 5);
          else
            sqlite3_bind_text (ref_stmt, 5, cols[3][r] ? "NONBLOCKING" : "BLOCKING", -1, SQLITE_STATIC);
          g_assert_cmpint (sqlite3_step (ref_stmt), ==, SQLITE_DONE);
        }

      data = sextant_chunk_encode ((const gint64 * const *)cols, 4, n, header);
      sqlite3_reset (chunk_stmt);
      sqlite3_bind_int64 (chunk_stmt, 1, row);
      sqlite3_bind_int64 (chunk_stmt, 2, n);
      sqlite3_bind_blob (chunk_stmt, 3, header, sizeof header, SQLITE_STATIC);
      sqlite3_bind_blob (chunk_stmt, 4, g_bytes_get_data (data, NULL), g_bytes_get_size (data), SQLITE_STATIC);
      g_assert_cmpint (sqlite3_step (chunk_stmt), ==, SQLITE_DONE);
      sextant_column_module_changed (module);

      row += n + (g % 2 ? 1000 : 0);   /* gaps between some chunks */
      for (guint c = 0; c < 4; c++)
        g_free (cols[c]);
    }
  exec (db, "COMMIT");
  sqlite3_finalize (chunk_stmt);
  sqlite3_finalize (ref_stmt);

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_auto(GStrv) parts = g_strsplit (queries[i], "%s", -1);
      g_autofree char *on_t = g_strjoinv ("t", parts);
      g_autofree char *on_ref = g_strjoinv ("ref", parts);
      g_autofree char *got = rows_of (db, on_t);
      g_autofree char *want = rows_of (db, on_ref);

      if (g_strcmp0 (got, want) != 0)
        g_error ("%s\ncolumn table:\n%.2000s\nplain table:\n%.2000s", on_t, got, want);
    }

  /* read-only, and a clear error */
  g_assert_cmpint (sqlite3_exec (db, "DELETE FROM t", NULL, NULL, NULL), !=, SQLITE_OK);
  g_assert_nonnull (strstr (sqlite3_errmsg (db), "may not be modified"));

  /* a damaged chunk is reported, not read */
  exec (db, "UPDATE t_chunk SET data = x'00' WHERE first_row = 1");
  sextant_column_module_changed (module);
  g_assert_cmpint (sqlite3_exec (db, "SELECT sum (a) FROM t", NULL, NULL, NULL), !=, SQLITE_OK);
  g_assert_nonnull (strstr (sqlite3_errmsg (db), "damaged"));

  /* bad declarations */
  g_assert_cmpint (sqlite3_exec (db, "CREATE VIRTUAL TABLE u USING sextant_columns (\"no good\")",
                                 NULL, NULL, NULL), !=, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE VIRTUAL TABLE u USING sextant_columns ()", NULL, NULL, NULL),
                   !=, SQLITE_OK);

  sqlite3_close (db);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/column-table/chunk-round-trip", test_chunk_round_trip);
  g_test_add_func ("/column-table/queries-match-a-plain-table", test_queries_match_a_plain_table);

  return g_test_run ();
}
