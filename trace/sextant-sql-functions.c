/*
 * sextant-sql-functions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQL functions of the trace store's views, registered on every connection
 * that reads a store (the store's own, and the loadable extension's):
 *
 *   sextant_comment (template, location, peer, severity, resolution, call,
 *                    file, line, callpath, site_kind, function)
 *     A pattern instance's comment: the pattern's template with {location},
 *     {peer}, {seconds} (severity ticks at resolution ticks per second:
 *     "2.01 s", "1.50 ms", "0.2 µs", rounded half up from the exact ticks),
 *     {call}, {site} and {callpath} filled in, in one pass: a value that
 *     contains a key is not filled again. Other braces stay as they are.
 *     {site} is "file:line" with the file's base name for a call site;
 *     for site_kind 'function', the line where the enclosing function
 *     begins, it says so: "gen_mpi.c:52 (where late_sender begins; the
 *     trace gives no call site)"; without a file, "an unknown source line".
 *     NULL when the template is NULL. A 12th argument fills {root} (a
 *     propagated wait state's root cause, see the pattern_instance view).
 *
 *   sextant_delay_activity (loc, begin, end)
 *     Where location loc spent the ticks [begin, end] when it made another
 *     location wait (sextant_delay_activity_find() below), as comments say
 *     it: "in foo at gen_mpi.c:32 (where foo begins; the trace gives no
 *     call site)", "in compute_late, before MPI_Send at chain.c:30"; NULL
 *     when the location has no visit there. It reads the visits, so it is
 *     called once per row that needs it (a propagated instance's comment).
 *
 *   sextant_lock_holder (loc, acquire, release, asked, shared)
 *     A window function for lock_contention: over the acquisitions of one
 *     lock (PARTITION BY the lock ORDER BY acquire, frame ROWS BETWEEN
 *     UNBOUNDED PRECEDING AND CURRENT ROW), the location that held the lock
 *     while the current row waited for it: among the acquisitions by other
 *     locations acquired strictly before the current one (only the
 *     non-shared ones when the current one is shared), the one released
 *     last, when that release is after asked; else one never released, when
 *     the current row waited (acquire > asked); else NULL. Ties keep the
 *     earliest acquisition. It keeps the two latest releases by distinct
 *     locations (and two never-released locations), so a lock's n
 *     acquisitions cost O(n) after the window's sort, where the correlated
 *     subquery it replaces cost O(n^2).
 */
#include "config.h"

#include <string.h>

#ifdef SEXTANT_SQLITE_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#endif

#include "sextant-sql-functions.h"
#include "sextant-store.h"

/* Appends @ticks at @resolution ticks per second the way comments say it. */
static void
append_seconds (GString *out,
                gint64   ticks,
                gint64   resolution)
{
  guint64 t = ticks < 0 ? -(guint64)ticks : (guint64)ticks;
  guint64 r = (guint64)MAX (resolution, 1);
  guint64 q;

  if (ticks < 0)
    g_string_append_c (out, '-');
  /* the products stay below 2^64 for resolutions up to 10^14 ticks per
   * second and severities up to 10^17 ticks */
  if (t >= r)
    {
      q = (t * 100 + r / 2) / r;
      g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%02" G_GUINT64_FORMAT " s", q / 100, q % 100);
    }
  else if (t * 1000 >= r)
    {
      q = (t * 100000 + r / 2) / r;
      g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%02" G_GUINT64_FORMAT " ms", q / 100, q % 100);
    }
  else
    {
      q = (t * 10000000 + r / 2) / r;
      g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT " µs", q / 10, q % 10);
    }
}

static const char *
text_or (sqlite3_value *value,
         const char    *otherwise)
{
  const unsigned char *text = sqlite3_value_type (value) == SQLITE_NULL ? NULL : sqlite3_value_text (value);

  return text != NULL ? (const char *)text : otherwise;
}

/* {site}: "file:line" with the file's base name; for a function's own
 * line, that it is where the function begins. */
static void
append_site (GString    *out,
             const char *file,
             gint64      line,
             gboolean    function_line,
             const char *function)
{
  const char *slash;

  if (file == NULL)
    {
      g_string_append (out, "an unknown source line");
      return;
    }
  slash = strrchr (file, '/');
  g_string_append_printf (out, "%s:%" G_GINT64_FORMAT, slash != NULL ? slash + 1 : file, line);
  if (function_line)
    g_string_append_printf (out, " (where %s begins; the trace gives no call site)",
                            function != NULL ? function : "the enclosing function");
}

static void
comment_func (sqlite3_context  *context,
              int               argc,
              sqlite3_value   **argv)
{
  static const char * const keys[] = { "location", "peer", "seconds", "call", "site", "callpath", "root" };
  enum { LOCATION, PEER, SECONDS, CALL, SITE, CALLPATH, ROOT };
  const char *template = text_or (argv[0], NULL);
  const char *file = text_or (argv[6], NULL);
  GString *out;
  gsize size;

  if (template == NULL)
    {
      sqlite3_result_null (context);
      return;
    }

  out = g_string_sized_new (strlen (template) + 64);
  for (const char *p = template; *p != '\0'; p++)
    {
      gint key = -1;

      if (*p == '{')
        for (guint k = 0; k < G_N_ELEMENTS (keys) && key < 0; k++)
          {
            gsize len = strlen (keys[k]);

            if (strncmp (p + 1, keys[k], len) == 0 && p[1 + len] == '}')
              {
                key = k;
                p += len + 1;
              }
          }

      switch (key)
        {
        case LOCATION:
          g_string_append (out, text_or (argv[1], "an unknown location"));
          break;
        case PEER:
          g_string_append (out, text_or (argv[2], "another process"));
          break;
        case SECONDS:
          append_seconds (out, sqlite3_value_int64 (argv[3]), sqlite3_value_int64 (argv[4]));
          break;
        case CALL:
          g_string_append (out, text_or (argv[5], "the call"));
          break;
        case SITE:
          append_site (out, file, sqlite3_value_int64 (argv[7]), g_strcmp0 (text_or (argv[9], NULL), "function") == 0,
                       text_or (argv[10], NULL));
          break;
        case CALLPATH:
          g_string_append (out, text_or (argv[8], ""));
          break;
        case ROOT:
          g_string_append (out, argc > 11 ? text_or (argv[11], "unknown") : "unknown");
          break;
        default:
          g_string_append_c (out, *p);
          break;
        }
    }

  size = out->len;
  sqlite3_result_text64 (context, g_string_free (out, FALSE), size, g_free, SQLITE_UTF8);
}

/* Where a delaying location spent its time ------------------------------------ */

/* The visits of ?1 that overlap [?2, ?3] (rule 1, and the late call of
 * rule 2 when one contains ?3), with what names them: the region, its call
 * site, its calling context (the call site and the function the call is
 * made in) and the region's own definition. A location's visits are a range
 * of ids in enter order: the zone maps of id, enter and leave pick the
 * chunks around the interval. */
#define ACTIVITY_COLUMNS \
  "SELECT v.id, v.parent, v.enter, v.leave, v.depth, v.region, r.name, " \
  "       r.paradigm = 'MPI' OR r.role = 'ARTIFICIAL', s.file, s.line, cs.file, cs.line, cr.name, " \
  "       r.file, r.begin_line, cr.file, cr.begin_line " \
  "FROM visit AS v JOIN region AS r ON r.id = v.region " \
  "LEFT JOIN source_code_location AS s ON s.id = v.scl " \
  "LEFT JOIN calling_context AS c ON c.id = v.context " \
  "LEFT JOIN source_code_location AS cs ON cs.id = c.source_code_location " \
  "LEFT JOIN region AS cr ON cr.id = c.region " \
  "WHERE v.loc = ?1 AND v.id BETWEEN (SELECT first_visit FROM location WHERE id = ?1) " \
  "                              AND (SELECT last_visit FROM location WHERE id = ?1) "

static const char activity_sql[] = ACTIVITY_COLUMNS "AND v.enter <= ?3 AND v.leave > ?2";
/* rule 2 when no visit contains ?3: the first call entered at or after it */
static const char first_after_sql[] = ACTIVITY_COLUMNS "AND v.enter >= ?3 ORDER BY v.id LIMIT 1";

typedef struct
{
  gint64    id;
  gint64    parent;
  gint64    enter;
  gint64    leave;
  gint64    depth;
  gint64    region;
  char     *name;
  gboolean  mpi;           /* an MPI call (or a measurement artefact): not the program's own work */
  char     *scl_file;      /* the call site */
  gint64    scl_line;
  char     *ctx_file;      /* the calling context's call site */
  gint64    ctx_line;
  char     *ctx_function;  /* the function the call is made in */
  char     *file;          /* the region's definition */
  gint64    line;
  char     *ctx_function_file;
  gint64    ctx_function_line;
  gint64    exclusive;     /* ticks of [begin, end] in it and in none of its children */
} Visit;

static void
visit_clear (gpointer data)
{
  Visit *v = data;

  g_free (v->name);
  g_free (v->scl_file);
  g_free (v->ctx_file);
  g_free (v->ctx_function);
  g_free (v->file);
  g_free (v->ctx_function_file);
}

static char *
column_text (sqlite3_stmt *stmt,
             int           col)
{
  const unsigned char *text = sqlite3_column_type (stmt, col) == SQLITE_NULL ? NULL : sqlite3_column_text (stmt, col);

  return g_strdup ((const char *)text);
}

static gint64
column_int (sqlite3_stmt *stmt,
            int           col)
{
  return sqlite3_column_type (stmt, col) == SQLITE_NULL ? SEXTANT_NULL : sqlite3_column_int64 (stmt, col);
}

/* Appends the rows of @sql for (@loc, @begin, @end) to @visits. */
static int
read_visits (sqlite3    *db,
             const char *sql,
             gint64      loc,
             gint64      begin,
             gint64      end,
             GArray     *visits)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  if (rc != SQLITE_OK)
    return rc;
  sqlite3_bind_int64 (stmt, 1, loc);
  sqlite3_bind_int64 (stmt, 2, begin);
  sqlite3_bind_int64 (stmt, 3, end);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      Visit v = {
        .id = sqlite3_column_int64 (stmt, 0),
        .parent = column_int (stmt, 1),
        .enter = sqlite3_column_int64 (stmt, 2),
        .leave = sqlite3_column_int64 (stmt, 3),
        .depth = sqlite3_column_int64 (stmt, 4),
        .region = sqlite3_column_int64 (stmt, 5),
        .name = column_text (stmt, 6),
        .mpi = sqlite3_column_int (stmt, 7) != 0,
        .scl_file = column_text (stmt, 8),
        .scl_line = column_int (stmt, 9),
        .ctx_file = column_text (stmt, 10),
        .ctx_line = column_int (stmt, 11),
        .ctx_function = column_text (stmt, 12),
        .file = column_text (stmt, 13),
        .line = column_int (stmt, 14),
        .ctx_function_file = column_text (stmt, 15),
        .ctx_function_line = column_int (stmt, 16),
      };

      g_array_append_val (visits, v);
    }
  sqlite3_finalize (stmt);

  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A visit's line: its call site, else its calling context's, else the
 * line where @file begins (the region's, or the calling function's). */
static void
set_site (SextantDelayActivity *activity,
          const Visit          *v,
          const char           *file,
          gint64                line)
{
  if (v->scl_file != NULL || v->ctx_file != NULL || file != NULL)
    {
      gboolean call = v->scl_file != NULL || v->ctx_file != NULL;

      line = v->scl_file != NULL ? v->scl_line : v->ctx_file != NULL ? v->ctx_line : line;
      activity->file = g_strdup (v->scl_file != NULL ? v->scl_file : v->ctx_file != NULL ? v->ctx_file : file);
      activity->line = line == SEXTANT_NULL ? 0 : line;
      activity->site_kind = call ? SEXTANT_SITE_CALL : SEXTANT_SITE_FUNCTION;
    }
}

/**
 * sextant_delay_activity_find:
 * @db: a connection to a trace store (with the column tables registered)
 * @loc: the delaying location (location.id)
 * @begin: (in): ticks: the interval another location waited for @loc
 * @activity: (out caller-allocates): cleared first; filled in when
 *   @loc has a visit there
 *
 * Where @loc spent [@begin, @end] - the root cause of a chain of wait
 * states:
 *
 *  1. the visit of a region of the program (not an MPI call, nor a
 *     measurement artefact) with the most exclusive time in the interval
 *     (its time there less its children's; ties: the deeper, then the
 *     later), named by its region, at its call site (call-site attribute,
 *     else calling context), else where its region begins;
 *  2. when the trace has no such visit there (the recorder and other PMPI
 *     tools record the MPI calls only): the late call itself - the
 *     innermost visit that contains @end, else the first entered after it
 *     (the send that came late, the late arrival at the collective) -
 *     named by the function it is made in (its calling context, else the
 *     enclosing visit's region) and the call, at the call's site.
 *
 * Returns: an SQLite result code: SQLITE_OK also when nothing was found
 *   (@activity->visit is then %SEXTANT_NULL)
 */
int
sextant_delay_activity_find (sqlite3              *db,
                             gint64                loc,
                             gint64                begin,
                             gint64                end,
                             SextantDelayActivity *activity)
{
  g_autoptr(GArray) visits = g_array_new (FALSE, TRUE, sizeof (Visit));
  g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);
  Visit *best = NULL;
  Visit *late = NULL;
  int rc;

  memset (activity, 0, sizeof *activity);
  activity->visit = SEXTANT_NULL;
  activity->region = SEXTANT_NULL;
  g_array_set_clear_func (visits, visit_clear);

  if (end < begin)
    return SQLITE_OK;
  if ((rc = read_visits (db, activity_sql, loc, begin, end, visits)) != SQLITE_OK)
    return rc;

  /* exclusive time: each visit's overlap less its children's */
  for (guint i = 0; i < visits->len; i++)
    {
      Visit *v = &g_array_index (visits, Visit, i);

      v->exclusive = MAX (0, MIN (end, v->leave) - MAX (begin, v->enter));
      g_hash_table_insert (index, &v->id, v);
    }
  for (guint i = 0; i < visits->len; i++)
    {
      Visit *v = &g_array_index (visits, Visit, i);
      Visit *parent = v->parent != SEXTANT_NULL ? g_hash_table_lookup (index, &v->parent) : NULL;

      if (parent != NULL)
        parent->exclusive -= MAX (0, MIN (end, v->leave) - MAX (begin, v->enter));
    }

  for (guint i = 0; i < visits->len; i++)
    {
      Visit *v = &g_array_index (visits, Visit, i);

      if (!v->mpi && v->exclusive > 0 &&
          (best == NULL || v->exclusive > best->exclusive ||
           (v->exclusive == best->exclusive && v->depth >= best->depth)))
        best = v;
      if (v->enter <= end && end < v->leave && (late == NULL || v->depth > late->depth))
        late = v;
    }

  if (best != NULL)
    {
      activity->visit = best->id;
      activity->region = best->region;
      activity->function = g_strdup (best->name);
      set_site (activity, best, best->file, best->line);
      return SQLITE_OK;
    }

  if (late == NULL)
    {
      g_array_set_size (visits, 0);
      g_hash_table_remove_all (index);
      if ((rc = read_visits (db, first_after_sql, loc, begin, end, visits)) != SQLITE_OK)
        return rc;
      if (visits->len == 0)
        return SQLITE_OK;
      late = &g_array_index (visits, Visit, 0);
    }

  activity->visit = late->id;
  activity->call = g_strdup (late->name);
  if (late->ctx_function != NULL)
    activity->function = g_strdup (late->ctx_function);
  else
    {
      Visit *parent = late->parent != SEXTANT_NULL ? g_hash_table_lookup (index, &late->parent) : NULL;

      if (parent != NULL)
        {
          activity->function = g_strdup (parent->name);
          activity->region = parent->region;
        }
    }
  set_site (activity, late, late->ctx_function_file, late->ctx_function_line);

  return SQLITE_OK;
}

/**
 * sextant_delay_activity_clear:
 *
 * Frees what sextant_delay_activity_find() put into @activity.
 */
void
sextant_delay_activity_clear (SextantDelayActivity *activity)
{
  g_clear_pointer (&activity->function, g_free);
  g_clear_pointer (&activity->call, g_free);
  g_clear_pointer (&activity->file, g_free);
}

/* The activity as comments say it: "in foo at gen_mpi.c:32 (...)", "in
 * compute_late, before MPI_Send at chain.c:30"; NULL for none. */
char *
sextant_delay_activity_describe (const SextantDelayActivity *activity)
{
  GString *out;

  if (activity->visit == SEXTANT_NULL)
    return NULL;

  out = g_string_new (NULL);
  if (activity->function != NULL)
    g_string_append_printf (out, "in %s", activity->function);
  if (activity->call != NULL)
    g_string_append_printf (out, "%sbefore %s", out->len > 0 ? ", " : "", activity->call);
  if (activity->file != NULL)
    {
      g_string_append (out, " at ");
      append_site (out, activity->file, activity->line, activity->site_kind == SEXTANT_SITE_FUNCTION,
                   activity->function);
    }

  return g_string_free (out, FALSE);
}

static void
delay_activity_func (sqlite3_context  *context,
                     int               argc,
                     sqlite3_value   **argv)
{
  g_auto(SextantDelayActivity) activity = { 0 };
  char *text;
  int rc;

  for (int i = 0; i < 3; i++)
    if (sqlite3_value_type (argv[i]) == SQLITE_NULL)
      {
        sqlite3_result_null (context);
        return;
      }

  rc = sextant_delay_activity_find (sqlite3_context_db_handle (context), sqlite3_value_int64 (argv[0]),
                                    sqlite3_value_int64 (argv[1]), sqlite3_value_int64 (argv[2]), &activity);
  if (rc != SQLITE_OK)
    {
      sqlite3_result_error_code (context, rc);
      return;
    }
  if ((text = sextant_delay_activity_describe (&activity)) == NULL)
    sqlite3_result_null (context);
  else
    sqlite3_result_text64 (context, text, strlen (text), g_free, SQLITE_UTF8);
}

/* sextant_lock_holder ---------------------------------------------------- */

/* The two latest releases by distinct locations, and two locations that
 * never released, among a set of acquisitions of one lock. */
typedef struct
{
  gint64 loc[2];
  gint64 release[2];
  guint  n;
  gint64 open_loc[2];
  guint  n_open;
} LockTop;

static void
lock_top_add (LockTop  *top,
              gint64    loc,
              gboolean  released,
              gint64    release)
{
  guint i;

  if (!released)
    {
      for (i = 0; i < top->n_open; i++)
        if (top->open_loc[i] == loc)
          return;
      if (top->n_open < 2)
        top->open_loc[top->n_open++] = loc;
      return;
    }

  for (i = 0; i < top->n && top->loc[i] != loc; i++)
    ;
  if (i < top->n)
    top->release[i] = MAX (top->release[i], release);
  else if (top->n < 2)
    {
      top->loc[top->n] = loc;
      top->release[top->n++] = release;
    }
  else if (release > top->release[1])
    {
      top->loc[1] = loc;
      top->release[1] = release;
    }
  /* only a strictly later release moves up: a tie keeps the earlier
   * acquisition */
  if (top->n == 2 && top->release[1] > top->release[0])
    {
      gint64 l = top->loc[0], r = top->release[0];

      top->loc[0] = top->loc[1];
      top->release[0] = top->release[1];
      top->loc[1] = l;
      top->release[1] = r;
    }
}

static void
lock_top_merge (LockTop       *into,
                const LockTop *from)
{
  for (guint i = 0; i < from->n; i++)
    lock_top_add (into, from->loc[i], TRUE, from->release[i]);
  for (guint i = 0; i < from->n_open; i++)
    lock_top_add (into, from->open_loc[i], FALSE, 0);
}

/* The window's state: the acquisitions before the current acquire time
 * (every one, and the non-shared ones), those at the current acquire time,
 * and the current row. */
typedef struct
{
  gboolean started;
  gint64   pending_acquire;
  LockTop  before[2];      /* [0] every acquisition, [1] the non-shared ones */
  LockTop  pending[2];
  gint64   loc;
  gint64   acquire;
  gint64   asked;
  gboolean shared;
} LockHolder;

static void
lock_holder_step (sqlite3_context  *context,
                  int               argc,
                  sqlite3_value   **argv)
{
  LockHolder *h = sqlite3_aggregate_context (context, sizeof (LockHolder));
  gboolean released;
  gint64 release;

  if (h == NULL)
    {
      sqlite3_result_error_nomem (context);
      return;
    }

  h->loc = sqlite3_value_int64 (argv[0]);
  h->acquire = sqlite3_value_int64 (argv[1]);
  released = sqlite3_value_type (argv[2]) != SQLITE_NULL;
  release = sqlite3_value_int64 (argv[2]);
  h->asked = sqlite3_value_int64 (argv[3]);
  h->shared = sqlite3_value_int (argv[4]) != 0;

  if (!h->started || h->acquire != h->pending_acquire)
    {
      lock_top_merge (&h->before[0], &h->pending[0]);
      lock_top_merge (&h->before[1], &h->pending[1]);
      memset (h->pending, 0, sizeof h->pending);
      h->pending_acquire = h->acquire;
      h->started = TRUE;
    }
  lock_top_add (&h->pending[0], h->loc, released, release);
  if (!h->shared)
    lock_top_add (&h->pending[1], h->loc, released, release);
}

static void
lock_holder_value (sqlite3_context *context)
{
  LockHolder *h = sqlite3_aggregate_context (context, 0);
  const LockTop *top;

  if (h == NULL || !h->started)
    {
      sqlite3_result_null (context);
      return;
    }

  /* a shared acquisition waits only for exclusive holds */
  top = &h->before[h->shared ? 1 : 0];
  for (guint i = 0; i < top->n; i++)
    if (top->loc[i] != h->loc)
      {
        if (top->release[i] > h->asked)
          {
            sqlite3_result_int64 (context, top->loc[i]);
            return;
          }
        break;
      }
  if (h->acquire > h->asked)
    for (guint i = 0; i < top->n_open; i++)
      if (top->open_loc[i] != h->loc)
        {
          sqlite3_result_int64 (context, top->open_loc[i]);
          return;
        }
  sqlite3_result_null (context);
}

static void
lock_holder_inverse (sqlite3_context  *context,
                     int               argc,
                     sqlite3_value   **argv)
{
  sqlite3_result_error (context, "sextant_lock_holder: the frame must start at UNBOUNDED PRECEDING", -1);
}

/**
 * sextant_sql_functions_register:
 * @message: (out) (optional): why it failed
 *
 * Registers the functions above on @db (sextant_lock_holder as a window
 * function).
 *
 * Returns: %FALSE on failure
 */
gboolean
sextant_sql_functions_register (sqlite3  *db,
                                char    **message)
{
  static const struct
  {
    const char *name;
    int         n_args;
    int         flags;
    void      (*func) (sqlite3_context *, int, sqlite3_value **);
  } functions[] = {
    { "sextant_comment", 11, SQLITE_DETERMINISTIC, comment_func },
    { "sextant_comment", 12, SQLITE_DETERMINISTIC, comment_func },
    /* reads the store: the same within a statement, not across writes */
    { "sextant_delay_activity", 3, 0, delay_activity_func },
  };

  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      int rc = sqlite3_create_function_v2 (db, functions[i].name, functions[i].n_args,
                                           SQLITE_UTF8 | SQLITE_INNOCUOUS | functions[i].flags,
                                           NULL, functions[i].func, NULL, NULL, NULL);

      if (rc != SQLITE_OK)
        {
          if (message != NULL)
            *message = g_strdup_printf ("%s: %s", functions[i].name, sqlite3_errmsg (db));
          return FALSE;
        }
    }

  if (sqlite3_create_window_function (db, "sextant_lock_holder", 5,
                                      SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC, NULL,
                                      lock_holder_step, lock_holder_value, lock_holder_value,
                                      lock_holder_inverse, NULL) != SQLITE_OK)
    {
      if (message != NULL)
        *message = g_strdup_printf ("sextant_lock_holder: %s", sqlite3_errmsg (db));
      return FALSE;
    }

  return TRUE;
}
