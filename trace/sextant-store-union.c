/*
 * sextant-store-union.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sextant_shards virtual table module (sextant-store-union.h): a
 * manifest's event tables, and the instances of its last analysis, read
 * from its shards. A table of the module is
 * read-only and passes the comparisons SQLite offers it (=, <, <=, >, >=
 * on any column but a per-shard id, = on that one) to each shard's query;
 * SQLite checks them again (omit = 0), so a constraint not passed on is
 * only slower, never wrong. SQLite's ATTACH is not used: Debian builds it
 * with at most 10 attached databases, and a trace has thousands of shards.
 */
#include "config.h"

#include <string.h>

#include "sextant-store-instance-routes.h"
#include "sextant-store-private.h"
#include "sextant-store-union.h"
#include "sextant-store-views-private.h"

/* How each table of events is split among the shards. */
typedef struct
{
  const char *name;
  const char *route;   /* a column of location ids whose equality picks the shard, or NULL */
  const char *by_id;   /* a column of ids with the location in bits 32 and up (visits, chunks of
                        * visits and of the level of detail), whose equality picks the shard; or NULL */
  const char *own;     /* which of a shard's rows are its own (@own: the list of its locations;
                        * the first shard's also holds -1, for the rows of no location);
                        * NULL: every row (the shard holds nothing else) */
  const char *remap;   /* the columns of ids that are the shard's own, space-separated, or NULL */
  const char *by_instance; /* a column of instance ids whose equality picks the shard that holds the
                            * instance (sextant-store-instance-routes.h), or NULL */
  const char *once;    /* a column whose rows of one value are read from one shard (its @own
                        * rows), so that a read with an equality on it stops at the first
                        * shard that has them; or NULL */
} RoutedTable;

static const RoutedTable routed_tables[] = {
  { "event_count",       "loc", NULL, "loc IN @own", NULL },
  /* a shard's own visits only: while it is analysed it also holds other
   * shards' visits (the halo), which a scan must not read twice, nor
   * remember after the analysis drops them */
  { "visit",             "loc", "id", "loc IN @own", "path" },
  { "visit_chunk",       NULL,  "first_row", "(first_row >> 32) IN @own", NULL },
  { "visit_attribute",   NULL,  "visit", "(visit >> 32) IN @own", NULL },
  /* each shard numbers the call paths of its visits */
  { "call_path",         NULL,  NULL, NULL, "id parent" },
  { "call_path_profile", "loc", NULL, "loc IN @own", "path" },
  { "message",           NULL,  NULL, "coalesce (send_loc, recv_loc) IN @own", "id" },
  /* whole chunks, for the lod reader (which keeps a message of the shard
   * of its sender and a collective's member of the shard of its location) */
  { "message_chunk",     NULL,  NULL, NULL, "first_row" },
  { "collective_member_chunk", NULL, NULL, NULL, "first_row" },
  /* collective ids are canonical (the single store's): not remapped */
  { "collective",        NULL,  NULL, "id IN temp.own_collective", NULL, NULL, "id" },
  /* a shard holds its own locations' members (and the whole of a SCAN or
   * EXSCAN between shards: the others' are read from theirs) */
  { "collective_member", "loc", NULL, "loc IN @own", NULL },
  { "rma_op",            "loc", NULL, "loc IN @own", NULL },
  { "rma_sync",          "loc", NULL, "loc IN @own", NULL },
  { "lock",              "loc", NULL, "loc IN @own", NULL },
  { "metric_value",      "loc", NULL, "loc IN @own", NULL },
  { "thread_event",      "loc", NULL, "loc IN @own", NULL },
  { "program",           "loc", NULL, "loc IN @own", NULL },
  { "parameter_value",   "loc", NULL, "loc IN @own", NULL },
  { "sample",            "loc", NULL, "loc IN @own", NULL },
  { "lod",               "loc", NULL, NULL, NULL },
  { "lod_chunk",         NULL,  "first_row", NULL, NULL },
  { "import_log",        "loc", NULL, "coalesce (loc, -1) IN @own", NULL },
  /* the last analysis's instances (`sextant analyze MANIFEST`): each shard
   * holds those charged to its locations, with the canonical (global) ids;
   * the call paths, call sites and messages they name are the shard's own
   * (collectives: canonical) */
  { "pattern_instance_data", "loc", NULL, NULL, "path site message", "id", NULL },
  /* whole chunks, for the lod reader's lost time (row ids: instance ids) */
  { "pattern_instance_data_chunk", NULL, NULL, NULL, NULL },
  { "pattern_site",      NULL,  NULL, NULL, "id" },
  { "pattern_note",      NULL,  NULL, NULL, NULL, "instance" },
  { "wait_state",        NULL,  NULL, NULL, NULL, "instance" },
};

typedef struct
{
  char         *path;
  char         *own;     /* its locations as an SQL list: (0, 1, 5) */
  SextantStore *store;   /* opened at its first read, or NULL */
} Shard;

struct _SextantShardUnion
{
  SextantStore *manifest;  /* (not owned: it owns this) */
  Shard      *shards;
  guint       n_shards;
  GHashTable *loc_shard;  /* location id -> rank + 1 */
  guint       n_open;
  SextantInstanceRoutes *routes;
  SextantManifestLock *lock;  /* the reader's, or NULL */
};

typedef struct
{
  sqlite3_vtab       base;
  SextantShardUnion *shards;
  const RoutedTable *table;
  GPtrArray         *columns;   /* names */
  int                route;     /* column index, or -1 */
  int                by_id;
  int                by_instance;
  guint64            remap;     /* bit c: column c is a per-shard id */
  int                once;      /* column index, or -1 */
  GHashTable        *plans;     /* idxStr -> Plan */
  int                id;        /* the column "id" (the row id), or -1 */
} UnionTable;

/* One plan of xBestIndex, as xFilter reads it: the constraints passed on,
 * the shards' SQL, and per shard the statement of each kind of read (the
 * shard's own rows, or any row) kept from the last read for the next (a
 * join reads its inner table once per row of the outer one: a filter
 * costs no parsing, no SQL text and no hashing of it). */
typedef struct
{
  int           n;          /* constraints */
  int          *cols;       /* their columns */
  char        **ops;        /* and operators ("=", "<", ...) */
  char         *sql;        /* with @rows and @own, filled in per shard */
  sqlite3_stmt **kept[2];   /* [any_row][rank]: a statement not in use, or NULL */
  guint         n_shards;
} Plan;

typedef struct
{
  sqlite3_vtab_cursor base;
  sqlite3_stmt  *stmt;      /* on the shard being read */
  guint          shard;
  guint          last;      /* the last shard to read */
  Plan          *plan;      /* (not owned: the table's) */
  sqlite3_value **args;     /* copies of xFilter's */
  int            n_args;
  guint64        remap_args; /* bit i: argument i is a per-shard id */
  gboolean       any_row;    /* an equality on a per-shard id: the shard's row, its own or not */
  gboolean       one_row;    /* an equality on the `once` column: the first shard that has the row */
  gint64         row;
  gboolean       eof;
} UnionCursor;

/* A collective instance is read from the shard of its member of the lowest
 * location (its row's first_loc): the ids of those, listed once on the
 * shard's connection. */
static const char own_collectives[] =
  "CREATE TEMP TABLE own_collective (id INTEGER PRIMARY KEY); "
  "INSERT INTO own_collective SELECT id FROM main.collective WHERE first_loc IN @own";

/* Opens shard @rank of @self if it is not yet; NULL with @error set when it fails. */
static sqlite3 *
shard_db (SextantShardUnion  *self,
          guint               rank,
          char              **error)
{
  Shard *shard = &self->shards[rank];

  if (shard->store == NULL)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(GString) own = g_string_new (own_collectives);
      char *message = NULL;

      if (!(shard->store = sextant_store_open (shard->path, &local_error)))
        {
          *error = sqlite3_mprintf ("%s", local_error->message);
          return NULL;
        }
      g_string_replace (own, "@own", shard->own, 0);
      if (sqlite3_exec (_sextant_store_get_db (shard->store), own->str, NULL, NULL, &message) != SQLITE_OK)
        {
          *error = sqlite3_mprintf ("%s: %s", shard->path, message);
          sqlite3_free (message);
          g_clear_object (&shard->store);
          return NULL;
        }
      self->n_open++;
    }

  return _sextant_store_get_db (shard->store);
}

static const RoutedTable *
find_routed (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (routed_tables); i++)
    if (g_str_equal (routed_tables[i].name, name))
      return &routed_tables[i];

  return NULL;
}

static int
column_index (UnionTable *table,
              const char *name)
{
  if (name != NULL)
    for (guint i = 0; i < table->columns->len; i++)
      if (g_str_equal (g_ptr_array_index (table->columns, i), name))
        return (int)i;

  return -1;
}

static inline gboolean
is_remapped (const UnionTable *table,
             int               col)
{
  return col >= 0 && col < 64 && (table->remap & (G_GUINT64_CONSTANT (1) << col)) != 0;
}

static void
plan_free (gpointer data)
{
  Plan *plan = data;

  for (guint k = 0; k < 2; k++)
    {
      for (guint rank = 0; plan->kept[k] != NULL && rank < plan->n_shards; rank++)
        sqlite3_finalize (plan->kept[k][rank]);
      g_free (plan->kept[k]);
    }
  for (int i = 0; i < plan->n; i++)
    g_free (plan->ops[i]);
  g_free (plan->ops);
  g_free (plan->cols);
  g_free (plan->sql);
  g_free (plan);
}

static void
union_table_free (UnionTable *table)
{
  g_clear_pointer (&table->columns, g_ptr_array_unref);
  g_clear_pointer (&table->plans, g_hash_table_unref);
  g_free (table);
}

/* The statement of @plan on shard @rank (@db) for the shard's own rows, or
 * for any row: the one kept from an earlier read if it is there */
static sqlite3_stmt *
take_stmt (UnionTable        *table,
           Plan              *plan,
           gboolean           any_row,
           guint              rank,
           sqlite3           *db,
           int               *rc)
{
  SextantShardUnion *shards = table->shards;
  sqlite3_stmt *stmt = g_steal_pointer (&plan->kept[any_row ? 1 : 0][rank]);
  g_autoptr(GString) sql = NULL;

  *rc = SQLITE_OK;
  if (stmt != NULL)
    return stmt;
  sql = g_string_new (plan->sql);
  g_string_replace (sql, "@rows", table->table->own != NULL && !any_row ? table->table->own : "1", 1);
  g_string_replace (sql, "@own", shards->shards[rank].own, 0);
  *rc = sqlite3_prepare_v2 (db, sql->str, -1, &stmt, NULL);

  return stmt;
}

/* Keeps @stmt (of shard @rank) for the next read, or finalizes it when
 * one is kept already */
static void
give_stmt (Plan         *plan,
           gboolean      any_row,
           guint         rank,
           sqlite3_stmt *stmt)
{
  sqlite3_stmt **slot;

  if (stmt == NULL)
    return;
  slot = &plan->kept[any_row ? 1 : 0][rank];
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  if (*slot != NULL)
    sqlite3_finalize (stmt);
  else
    *slot = stmt;
}

static int
union_connect (sqlite3             *db,
               void                *aux,
               int                  argc,
               const char * const  *argv,
               sqlite3_vtab       **vtab,
               char               **error)
{
  UnionTable *table = NULL;
  const RoutedTable *routed = argc >= 3 ? find_routed (argv[2]) : NULL;
  sqlite3_stmt *stmt = NULL;
  g_autoptr(GString) declare = g_string_new ("CREATE TABLE x(");
  int rc;

  if (routed == NULL)
    {
      *error = sqlite3_mprintf ("sextant_shards: %s is not a table of events", argc >= 3 ? argv[2] : "?");
      return SQLITE_ERROR;
    }
  table = g_new0 (UnionTable, 1);
  table->shards = aux;
  table->table = routed;
  table->columns = g_ptr_array_new_with_free_func (g_free);
  table->plans = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, plan_free);
  /* the columns of the manifest's own (empty) table of that name */
  rc = sqlite3_prepare_v2 (db, "SELECT name FROM pragma_table_info (?1, 'main') ORDER BY cid", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_text (stmt, 1, routed->name, -1, SQLITE_STATIC);
  while (rc == SQLITE_OK && sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *name = (const char *)sqlite3_column_text (stmt, 0);
      char *quoted = sqlite3_mprintf ("%s\"%w\"", table->columns->len > 0 ? ", " : "", name);

      g_ptr_array_add (table->columns, g_strdup (name));
      g_string_append (declare, quoted);
      sqlite3_free (quoted);
    }
  sqlite3_finalize (stmt);
  g_string_append (declare, ")");
  if (rc == SQLITE_OK && table->columns->len == 0)
    rc = SQLITE_ERROR;
  if (rc == SQLITE_OK)
    rc = sqlite3_declare_vtab (db, declare->str);
  if (rc != SQLITE_OK)
    {
      *error = sqlite3_mprintf ("sextant_shards: cannot read the columns of %s", routed->name);
      union_table_free (table);
      return SQLITE_ERROR;
    }
  table->route = column_index (table, routed->route);
  table->by_id = column_index (table, routed->by_id);
  table->by_instance = column_index (table, routed->by_instance);
  if (routed->remap != NULL)
    {
      g_auto(GStrv) names = g_strsplit (routed->remap, " ", -1);

      for (guint i = 0; names[i] != NULL; i++)
        if (column_index (table, names[i]) >= 0 && column_index (table, names[i]) < 64)
          table->remap |= G_GUINT64_CONSTANT (1) << column_index (table, names[i]);
    }
  table->id = column_index (table, "id");
  table->once = column_index (table, routed->once);
  *vtab = &table->base;

  return SQLITE_OK;
}

static int
union_disconnect (sqlite3_vtab *vtab)
{
  union_table_free ((UnionTable *)vtab);

  return SQLITE_OK;
}

static const char *
op_sql (unsigned char op)
{
  switch (op)
    {
    case SQLITE_INDEX_CONSTRAINT_EQ: return "=";
    case SQLITE_INDEX_CONSTRAINT_GT: return ">";
    case SQLITE_INDEX_CONSTRAINT_LE: return "<=";
    case SQLITE_INDEX_CONSTRAINT_LT: return "<";
    case SQLITE_INDEX_CONSTRAINT_GE: return ">=";
    default: return NULL;
    }
}

/* idxStr: the constraints passed on, "column op" each, space-separated,
 * then "|" and the columns used in hexadecimal (e.g. "3= 4>=|1f"); idxNum: bit 0 an equality on the route column, bit 1
 * one on the per-shard id, bit 2 one on the instance id. */
static int
union_best_index (sqlite3_vtab       *vtab,
                  sqlite3_index_info *info)
{
  UnionTable *table = (UnionTable *)vtab;
  g_autoptr(GString) plan = g_string_new (NULL);
  double cost = 1e6;
  int n = 0;

  info->idxNum = 0;
  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];
      const char *op = op_sql (c->op);

      if (!c->usable || c->iColumn < 0 || op == NULL ||
          (is_remapped (table, c->iColumn) && c->op != SQLITE_INDEX_CONSTRAINT_EQ))
        continue;
      /* one equality on the route or the id picks the shard */
      if (c->op == SQLITE_INDEX_CONSTRAINT_EQ && (c->iColumn == table->route || c->iColumn == table->by_id))
        {
          if (info->idxNum & 1)
            continue;
          info->idxNum |= 1;
          cost /= 1000;
          /* a row by its id (a visit's): one row, as SQLite's own tables
           * count it, so that a join looks visits up rather than scan them
           * (a cost of 1000 rows made it scan them) */
          if (c->iColumn == table->by_id && c->iColumn == table->id)
            {
              cost = MIN (cost, 10);
              info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
            }
        }
      /* and one on an instance id, the shard that holds it */
      else if (c->op == SQLITE_INDEX_CONSTRAINT_EQ && c->iColumn == table->by_instance)
        {
          if (info->idxNum & 4)
            continue;
          info->idxNum |= 4;
          cost /= 1000;
          /* an instance by its id: one row (as a visit by its id, above) */
          if (c->iColumn == table->id)
            {
              cost = MIN (cost, 10);
              info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
            }
        }
      else if (is_remapped (table, c->iColumn))
        {
          if (info->idxNum & 2)
            continue;
          info->idxNum |= 2;
          cost /= 100000;
        }
      else
        cost /= c->op == SQLITE_INDEX_CONSTRAINT_EQ ? 10 : 2;
      info->aConstraintUsage[i].argvIndex = ++n;
      info->aConstraintUsage[i].omit = 0;
      g_string_append_printf (plan, "%s%d%s", n > 1 ? " " : "", c->iColumn, op);
    }
  info->estimatedCost = cost;
  info->estimatedRows = (info->idxFlags & SQLITE_INDEX_SCAN_UNIQUE) != 0 ? 1 : (sqlite3_int64)cost;
  /* and the columns the statement reads (the others are not read from the
   * shards: a count reads none) */
  info->idxStr = sqlite3_mprintf ("%s|%llx", plan->str, (unsigned long long)info->colUsed);
  info->needToFreeIdxStr = 1;

  return SQLITE_OK;
}

static int
union_open (sqlite3_vtab         *vtab,
            sqlite3_vtab_cursor **cursor)
{
  UnionCursor *self = g_new0 (UnionCursor, 1);

  self->eof = TRUE;
  *cursor = &self->base;

  return SQLITE_OK;
}

static void
cursor_reset (UnionCursor *self)
{
  if (self->plan != NULL)
    give_stmt (self->plan, self->any_row, self->shard, g_steal_pointer (&self->stmt));
  self->plan = NULL;
  for (int i = 0; i < self->n_args; i++)
    sqlite3_value_free (self->args[i]);
  g_clear_pointer (&self->args, g_free);
  self->n_args = 0;
  self->eof = TRUE;
}

static int
union_close (sqlite3_vtab_cursor *cursor)
{
  cursor_reset ((UnionCursor *)cursor);
  g_free (cursor);

  return SQLITE_OK;
}

static int
set_vtab_error (sqlite3_vtab *vtab,
                char         *message)
{
  sqlite3_free (vtab->zErrMsg);
  vtab->zErrMsg = message;

  return SQLITE_ERROR;
}

/* Prepares the query on shard self->shard and steps to its first row;
 * moves on to the next shard while one has none. */
static int
cursor_step (UnionCursor *self)
{
  UnionTable *table = (UnionTable *)self->base.pVtab;
  SextantShardUnion *shards = table->shards;

  while (TRUE)
    {
      int rc;

      if (self->stmt == NULL)
        {
          char *error = NULL;
          sqlite3 *db;

          if (self->shard > self->last)
            {
              self->eof = TRUE;
              return SQLITE_OK;
            }
          if (!(db = shard_db (shards, self->shard, &error)))
            return set_vtab_error (&table->base, error);
          /* a cancelled read of the manifest stops the shard's too */
          sextant_store_set_cancellable (shards->shards[self->shard].store,
                                         sextant_store_get_cancellable (shards->manifest));
          self->stmt = take_stmt (table, self->plan, self->any_row, self->shard, db, &rc);
          for (int i = 0; rc == SQLITE_OK && i < self->n_args; i++)
            {
              if (self->remap_args & (G_GUINT64_CONSTANT (1) << i))
                rc = sqlite3_bind_int64 (self->stmt, i + 1, sextant_shard_local_id (sqlite3_value_int64 (self->args[i])));
              else
                rc = sqlite3_bind_value (self->stmt, i + 1, self->args[i]);
            }
          if (rc != SQLITE_OK)
            return set_vtab_error (&table->base, sqlite3_mprintf ("%s: %s", shards->shards[self->shard].path,
                                                                   sqlite3_errmsg (db)));
        }
      rc = sqlite3_step (self->stmt);
      if (rc == SQLITE_ROW)
        {
          self->row++;
          return SQLITE_OK;
        }
      if (rc != SQLITE_DONE)
        {
          char *message = sqlite3_mprintf ("%s: %s", shards->shards[self->shard].path,
                                           sqlite3_errmsg (sqlite3_db_handle (self->stmt)));

          g_clear_pointer (&self->stmt, sqlite3_finalize);
          return set_vtab_error (&table->base, message);
        }
      give_stmt (self->plan, self->any_row, self->shard, g_steal_pointer (&self->stmt));
      self->shard++;
      if (self->one_row && self->row > 0)
        self->shard = self->last + 1;
    }
}

/* Narrows @cursor's shards to the one that holds instance @id (all of them
 * when the manifest does not say); FALSE when none holds it. */
static gboolean
route_instance (SextantShardUnion *shards,
                gint64             id,
                UnionCursor       *cursor)
{
  guint rank = 0;

  switch (sextant_instance_routes_lookup (shards->routes, id, &rank))
    {
    case SEXTANT_INSTANCE_ROUTE_ANY:
      return TRUE;
    case SEXTANT_INSTANCE_ROUTE_SHARD:
      if (rank >= shards->n_shards)
        return TRUE;
      cursor->shard = MAX (cursor->shard, rank);
      cursor->last = MIN (cursor->last, rank);
      return TRUE;
    case SEXTANT_INSTANCE_ROUTE_NONE:
    default:
      return FALSE;
    }
}

/* The plan of @idx_str, parsed and its SQL written at its first filter;
 * NULL with the table's error set when it is not one of union_best_index()'s */
static Plan *
find_plan (UnionTable *table,
           const char *idx_str)
{
  Plan *plan = g_hash_table_lookup (table->plans, idx_str);
  g_autoptr(GString) sql = NULL;
  g_auto(GStrv) parts = NULL;
  g_auto(GStrv) constraints = NULL;
  guint64 used;

  if (plan != NULL)
    return plan;
  parts = g_strsplit (idx_str, "|", 2);
  if (g_strv_length (parts) != 2)
    {
      set_vtab_error (&table->base, sqlite3_mprintf ("sextant_shards: bad plan %s", idx_str));
      return NULL;
    }
  used = g_ascii_strtoull (parts[1], NULL, 16);
  constraints = g_strsplit (parts[0], " ", -1);
  plan = g_new0 (Plan, 1);
  plan->n_shards = table->shards->n_shards;
  plan->kept[0] = g_new0 (sqlite3_stmt *, plan->n_shards);
  plan->kept[1] = g_new0 (sqlite3_stmt *, plan->n_shards);
  plan->cols = g_new0 (int, g_strv_length (constraints) + 1);
  plan->ops = g_new0 (char *, g_strv_length (constraints) + 1);
  g_hash_table_insert (table->plans, g_strdup (idx_str), plan);

  /* the columns used (bit 63: that one and those after it), the row id's */
  sql = g_string_new ("SELECT ");
  for (guint i = 0; i < table->columns->len; i++)
    {
      gboolean read = (int)i == table->id || (used & (G_GUINT64_CONSTANT (1) << MIN (i, 63))) != 0;

      g_string_append_printf (sql, "%s%s%s%s", i > 0 ? ", " : "", read ? "\"" : "NULL",
                              read ? (const char *)g_ptr_array_index (table->columns, i) : "", read ? "\"" : "");
    }
  /* the shard's own rows (@rows, filled in per shard), and the constraints */
  g_string_append_printf (sql, " FROM main.\"%s\" WHERE (@rows)", table->table->name);
  for (guint i = 0; constraints[i] != NULL && constraints[i][0] != '\0'; i++)
    {
      char *op = NULL;
      int col = (int)g_ascii_strtoll (constraints[i], &op, 10);
      const char *name = col >= 0 && (guint)col < table->columns->len ? g_ptr_array_index (table->columns, col) : NULL;

      if (name == NULL || !g_strv_contains ((const char * const[]) { "=", ">", "<=", "<", ">=", NULL }, op))
        {
          g_hash_table_remove (table->plans, idx_str);
          set_vtab_error (&table->base, sqlite3_mprintf ("sextant_shards: bad plan %s", idx_str));
          return NULL;
        }
      g_string_append_printf (sql, " AND \"%s\" %s ?%d", name, op, plan->n + 1);
      plan->cols[plan->n] = col;
      plan->ops[plan->n++] = g_strdup (op);
    }
  plan->sql = g_string_free (g_steal_pointer (&sql), FALSE);

  return plan;
}

static int
union_filter (sqlite3_vtab_cursor  *cursor,
              int                   idx_num,
              const char           *idx_str,
              int                   argc,
              sqlite3_value       **argv)
{
  UnionCursor *self = (UnionCursor *)cursor;
  UnionTable *table = (UnionTable *)cursor->pVtab;
  SextantShardUnion *shards = table->shards;
  Plan *plan;

  cursor_reset (self);
  self->row = 0;
  self->remap_args = 0;
  self->any_row = FALSE;
  self->one_row = FALSE;
  self->shard = 0;
  self->last = shards->n_shards - 1;

  if (!(plan = find_plan (table, idx_str != NULL ? idx_str : "")))
    return SQLITE_ERROR;
  if (argc != plan->n)
    return set_vtab_error (cursor->pVtab, sqlite3_mprintf ("sextant_shards: bad plan %s", idx_str));
  self->args = g_new0 (sqlite3_value *, MAX (argc, 1));
  for (int i = 0; i < argc; i++)
    {
      int col = plan->cols[i];
      gboolean equal = plan->ops[i][0] == '=';

      /* a location or an id of another type than an integer matches nothing */
      if (sqlite3_value_type (argv[i]) == SQLITE_NULL)
        return SQLITE_OK;
      if ((col == table->route || col == table->by_id) && equal && (idx_num & 1))
        {
          gint64 loc = sqlite3_value_int64 (argv[i]) >> (col == table->by_id ? 32 : 0);
          gpointer rank = loc >= 0 && loc <= G_MAXINT ? g_hash_table_lookup (shards->loc_shard,
                                                                             GINT_TO_POINTER ((gint)loc)) : NULL;

          if (sqlite3_value_numeric_type (argv[i]) != SQLITE_INTEGER || rank == NULL)
            return SQLITE_OK;
          self->shard = MAX (self->shard, (guint)GPOINTER_TO_UINT (rank) - 1);
          self->last = MIN (self->last, (guint)GPOINTER_TO_UINT (rank) - 1);
          /* the shard of the location holds its rows as its own: no need to
           * ask (a list of its locations costs a lookup table per read) */
          self->any_row = TRUE;
          idx_num &= ~1;
        }
      else if (col == table->by_instance && equal && (idx_num & 4))
        {
          if (sqlite3_value_numeric_type (argv[i]) != SQLITE_INTEGER ||
              !route_instance (shards, sqlite3_value_int64 (argv[i]), self))
            return SQLITE_OK;
          idx_num &= ~4;
        }
      else if (is_remapped (table, col) && i < 64)
        {
          gint64 id = sqlite3_value_int64 (argv[i]);

          if (sqlite3_value_numeric_type (argv[i]) != SQLITE_INTEGER || id < 0 ||
              sextant_shard_of_id (id) >= shards->n_shards)
            return SQLITE_OK;
          self->shard = MAX (self->shard, sextant_shard_of_id (id));
          self->last = MIN (self->last, sextant_shard_of_id (id));
          self->remap_args |= G_GUINT64_CONSTANT (1) << i;
          /* the id picks one shard, whose row it names even when another
           * shard's is the one a scan reads: an instance names the message
           * or collective of its own shard */
          self->any_row |= equal;
        }
      self->one_row |= col == table->once && equal;
      self->args[self->n_args++] = sqlite3_value_dup (argv[i]);
    }
  self->plan = plan;
  self->eof = FALSE;

  return cursor_step (self);
}

static int
union_next (sqlite3_vtab_cursor *cursor)
{
  return cursor_step ((UnionCursor *)cursor);
}

static int
union_eof (sqlite3_vtab_cursor *cursor)
{
  return ((UnionCursor *)cursor)->eof;
}

static int
union_column (sqlite3_vtab_cursor *cursor,
              sqlite3_context     *context,
              int                  col)
{
  UnionCursor *self = (UnionCursor *)cursor;
  UnionTable *table = (UnionTable *)cursor->pVtab;

  if (is_remapped (table, col) && sqlite3_column_type (self->stmt, col) != SQLITE_NULL)
    sqlite3_result_int64 (context, sextant_shard_id (self->shard, sqlite3_column_int64 (self->stmt, col)));
  else
    sqlite3_result_value (context, sqlite3_column_value (self->stmt, col));

  return SQLITE_OK;
}

static int
union_rowid (sqlite3_vtab_cursor *cursor,
             sqlite3_int64       *rowid)
{
  UnionCursor *self = (UnionCursor *)cursor;
  UnionTable *table = (UnionTable *)cursor->pVtab;

  if (table->id < 0)
    *rowid = self->row;
  else if (is_remapped (table, table->id))
    *rowid = sextant_shard_id (self->shard, sqlite3_column_int64 (self->stmt, table->id));
  else
    *rowid = sqlite3_column_int64 (self->stmt, table->id);

  return SQLITE_OK;
}

static const sqlite3_module union_module = {
  .iVersion = 0,
  .xCreate = union_connect,
  .xConnect = union_connect,
  .xBestIndex = union_best_index,
  .xDisconnect = union_disconnect,
  .xDestroy = union_disconnect,
  .xOpen = union_open,
  .xClose = union_close,
  .xFilter = union_filter,
  .xNext = union_next,
  .xEof = union_eof,
  .xColumn = union_column,
  .xRowid = union_rowid,
};

/* The shards' locations, as the manifest's shard_location lists them. */
static gboolean
location_row (const SextantRow  *row,
              gpointer           user_data,
              GError           **error)
{
  SextantShardUnion *self = user_data;
  gint64 loc = sextant_row_get_int (row, 0);
  gint64 rank = sextant_row_get_int (row, 1);

  if (rank < 0 || (guint64)rank >= self->n_shards || loc < 0 || loc > G_MAXINT)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "the manifest gives location %" G_GINT64_FORMAT " to shard %" G_GINT64_FORMAT
                   ", which it does not name", loc, rank);
      return FALSE;
    }
  g_hash_table_insert (self->loc_shard, GINT_TO_POINTER ((gint)loc), GUINT_TO_POINTER ((guint)rank + 1));

  return TRUE;
}

/* The manifest's views as temporary views, so that they read the shadowing
 * tables (a view of the main schema reads the main schema's). */
static gboolean
view_row (const SextantRow  *row,
          gpointer           user_data,
          GError           **error)
{
  GPtrArray *views = user_data;
  const char *sql = sextant_row_get_text (row, 0);

  if (sql != NULL && g_str_has_prefix (sql, "CREATE VIEW "))
    g_ptr_array_add (views, g_strconcat ("CREATE TEMP VIEW ", sql + strlen ("CREATE VIEW "), NULL));

  return TRUE;
}

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      GError     **error)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, "reading the shards: %s (%s)",
                   message != NULL ? message : "?", sql);
      sqlite3_free (message);
      return FALSE;
    }

  return TRUE;
}

SextantShardUnion *
sextant_shard_union_new (SextantStore  *manifest,
                         sqlite3       *db,
                         GPtrArray     *paths,
                         GError       **error)
{
  SextantShardUnion *self = g_new0 (SextantShardUnion, 1);
  g_autoptr(GPtrArray) views = g_ptr_array_new_with_free_func (g_free);

  self->manifest = manifest;
  self->n_shards = paths->len;
  self->shards = g_new0 (Shard, MAX (paths->len, 1));
  self->loc_shard = g_hash_table_new (NULL, NULL);
  self->routes = sextant_instance_routes_new (db);
  for (guint i = 0; i < paths->len; i++)
    self->shards[i].path = g_strdup (g_ptr_array_index (paths, i));

  if (paths->len == 0 ||
      !sextant_store_foreach_sql (manifest, "SELECT loc, shard FROM shard_location ORDER BY loc", location_row,
                                  self, error, ""))
    {
      if (paths->len == 0)
        g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                     "%s: a manifest of no shards", sextant_store_get_path (manifest));
      sextant_shard_union_free (self);
      return NULL;
    }
  {
    GHashTableIter iter;
    gpointer loc, rank;
    GString **own = g_new0 (GString *, self->n_shards);

    for (guint i = 0; i < self->n_shards; i++)
      own[i] = g_string_new (i == 0 ? "(-1" : "(-2");
    g_hash_table_iter_init (&iter, self->loc_shard);
    while (g_hash_table_iter_next (&iter, &loc, &rank))
      g_string_append_printf (own[GPOINTER_TO_UINT (rank) - 1], ", %d", GPOINTER_TO_INT (loc));
    for (guint i = 0; i < self->n_shards; i++)
      self->shards[i].own = g_string_free (g_string_append_c (own[i], ')'), FALSE);
    g_free (own);
  }

  if (sqlite3_create_module_v2 (db, "sextant_shards", &union_module, self, NULL) != SQLITE_OK)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, "reading the shards: %s",
                   sqlite3_errmsg (db));
      sextant_shard_union_free (self);
      return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (routed_tables); i++)
    {
      g_autofree char *sql = g_strdup_printf ("CREATE VIRTUAL TABLE temp.\"%s\" USING sextant_shards",
                                              routed_tables[i].name);

      if (!exec (db, sql, error))
        {
          sextant_shard_union_free (self);
          return NULL;
        }
    }
  if (!sextant_store_foreach_sql (manifest, "SELECT sql FROM main.sqlite_master WHERE type = 'view' ORDER BY rowid",
                                  view_row, views, error, ""))
    {
      sextant_shard_union_free (self);
      return NULL;
    }
  for (guint i = 0; i < views->len; i++)
    if (!exec (db, g_ptr_array_index (views, i), error))
      {
        sextant_shard_union_free (self);
        return NULL;
      }

  return self;
}

void
sextant_shard_union_keep_lock (SextantShardUnion   *self,
                               SextantManifestLock *lock)
{
  g_clear_pointer (&self->lock, sextant_manifest_lock_release);
  self->lock = lock;
}

void
sextant_shard_union_free (SextantShardUnion *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_shards; i++)
    {
      g_free (self->shards[i].path);
      g_free (self->shards[i].own);
      g_clear_object (&self->shards[i].store);
    }
  g_free (self->shards);
  sextant_manifest_lock_release (self->lock);   /* once the shards are closed */
  g_hash_table_unref (self->loc_shard);
  sextant_instance_routes_free (self->routes);
  g_free (self);
}

guint
sextant_shard_union_get_n_open (SextantShardUnion *self)
{
  return self->n_open;
}

guint
sextant_shard_union_get_n_shards (SextantShardUnion *self)
{
  return self->n_shards;
}

guint
sextant_shard_union_get_location_shard (SextantShardUnion *self,
                                        gint64             loc)
{
  gpointer rank = loc >= 0 && loc <= G_MAXINT ? g_hash_table_lookup (self->loc_shard, GINT_TO_POINTER ((gint)loc)) : NULL;

  return rank != NULL ? GPOINTER_TO_UINT (rank) - 1 : G_MAXUINT;
}

SextantStore *
sextant_shard_union_get_shard (SextantShardUnion  *self,
                               guint               rank,
                               GError            **error)
{
  char *message = NULL;

  g_return_val_if_fail (rank < self->n_shards, NULL);

  if (!shard_db (self, rank, &message))
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE, "reading the shards: %s", message);
      sqlite3_free (message);
      return NULL;
    }
  sextant_store_set_cancellable (self->shards[rank].store, sextant_store_get_cancellable (self->manifest));

  return self->shards[rank].store;
}

static const char * const own_placeholders[] = { "@own(", "@rows(", "@shard_id(" };

/* The condition of @placeholder's argument @inner ("@own(" or "@rows("; or
 * for "@shard_id(", the id the manifest reads for the shard's id @inner)
 * for shard @rank of @self (NULL: a single store) */
static char *
own_condition (SextantShardUnion *self,
               guint              rank,
               const char        *placeholder,
               const char        *inner)
{
  const RoutedTable *routed = NULL;
  g_autoptr(GString) condition = NULL;

  if (g_str_equal (placeholder, "@shard_id("))
    return self == NULL ? g_strdup_printf ("(%s)", inner)
                        : g_strdup_printf ("((%s) | %" G_GINT64_FORMAT ")", inner, sextant_shard_id (rank, 0));
  if (self == NULL)
    return g_strdup ("1");
  if (g_str_equal (placeholder, "@own("))
    return g_strdup_printf ("((%s) IN %s)", inner, self->shards[rank].own);
  routed = find_routed (inner);
  g_return_val_if_fail (routed != NULL, g_strdup ("1"));
  if (routed->own == NULL)
    return g_strdup ("1");
  condition = g_string_new (routed->own);
  g_string_replace (condition, "@own", self->shards[rank].own, 0);

  return g_strdup_printf ("(%s)", condition->str);
}

char *
sextant_shard_union_own_sql (SextantShardUnion  *self,
                             guint               rank,
                             const char         *sql)
{
  GString *out = g_string_new (NULL);
  const char *p = sql;

  while (*p != '\0')
    {
      const char *placeholder = NULL;
      const char *end;
      int depth = 1;

      for (guint i = 0; placeholder == NULL && i < G_N_ELEMENTS (own_placeholders); i++)
        if (g_str_has_prefix (p, own_placeholders[i]))
          placeholder = own_placeholders[i];

      if (placeholder == NULL)
        {
          g_string_append_c (out, *p++);
          continue;
        }
      p += strlen (placeholder);
      for (end = p; *end != '\0' && (depth > 1 || *end != ')'); end++)
        depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
      {
        g_autofree char *inner = g_strndup (p, end - p);
        g_autofree char *condition = own_condition (self, rank, placeholder, inner);

        g_string_append (out, condition);
      }
      p = *end == ')' ? end + 1 : end;
    }

  return g_string_free (out, FALSE);
}
