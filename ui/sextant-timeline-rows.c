/*
 * sextant-timeline-rows.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's row model (sextant-timeline-rows.h). The store's
 * locations are read once (sextant-store-rows.h) into a tree kept as an
 * array in pre-order - node, its processes, each process's threads and
 * counters - where each entry knows where its subtree ends; a row's key is
 * its entry's index + 1. Expanding, collapsing, hiding or filtering walks
 * that array once to make the list of rows shown, and with it the two
 * tables that answer in O(1): location -> shown row (row_of_loc, called
 * per drawn item) and key -> shown row.
 *
 * Workload: building costs two reads of the store and a sort of the
 * processes and of each one's threads; a change of the list costs
 * O(entries + locations). For 4096 locations (4096 ranks of the import
 * benchmark's generator) building takes about 10 ms, docs/ui.md "Rows".
 */
#include "config.h"

#include <string.h>

#include "sextant-store-rows.h"
#include "sextant-timeline-rows.h"

/* The name onecoll gives its Broadcaster thread, one location per session */
#define BROADCASTER_NAME "onecoll-broadcaster"

#define NO_PARENT G_MAXUINT

typedef struct
{
  SextantTimelineRowKind kind;
  guint     depth;
  guint     parent;          /* entry index, NO_PARENT at the top */
  guint     end;             /* one past the last entry of its subtree */
  char     *label;           /* expanded, or the only label */
  char     *collapsed_label; /* groups: "MPI Rank 3 (4 threads)" */
  char     *tooltip;
  char     *folded;          /* the tooltip case-folded, for the filter */
  GArray   *locs;            /* the row's own locations (gint64) */
  GArray   *all_locs;        /* groups: every location under it not hidden */
  guint     n_threads;       /* what @locs stand for (a Broadcaster's sessions: 1) */
  guint     all_threads;     /* what @all_locs stand for */
  int       rank;
  gint64    metric;
  char     *unit;
  gboolean  maps_locs;       /* row_of_loc answers with this row for its locs */
  gboolean  expandable;
  gboolean  expanded;
  gboolean  hidden;
} Entry;

struct _SextantTimelineRows
{
  GObject  parent_instance;

  GArray  *entries;          /* Entry, pre-order */
  GArray  *rows;             /* SextantTimelineRow shown */
  int     *row_of_key;       /* entries->len + 1 */
  int     *row_of_loc;       /* n_locs */
  gint64   n_locs;
  GArray  *all_locations;    /* gint64: drawable locations in row order */
  char    *filter;           /* as given, NULL for none */
  char    *folded_filter;
  guint    n_hidden;
};

G_DEFINE_FINAL_TYPE (SextantTimelineRows, sextant_timeline_rows, G_TYPE_OBJECT)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
entry_clear (gpointer data)
{
  Entry *entry = data;

  g_free (entry->label);
  g_free (entry->collapsed_label);
  g_free (entry->tooltip);
  g_free (entry->folded);
  g_free (entry->unit);
  g_clear_pointer (&entry->locs, g_array_unref);
  g_clear_pointer (&entry->all_locs, g_array_unref);
}

static void
sextant_timeline_rows_finalize (GObject *object)
{
  SextantTimelineRows *self = SEXTANT_TIMELINE_ROWS (object);

  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->row_of_key, g_free);
  g_clear_pointer (&self->row_of_loc, g_free);
  g_clear_pointer (&self->all_locations, g_array_unref);
  g_clear_pointer (&self->filter, g_free);
  g_clear_pointer (&self->folded_filter, g_free);

  G_OBJECT_CLASS (sextant_timeline_rows_parent_class)->finalize (object);
}

static void
sextant_timeline_rows_class_init (SextantTimelineRowsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sextant_timeline_rows_finalize;

  /**
   * SextantTimelineRows::changed:
   *
   * The list of rows shown changed (expand, collapse, hide, filter): the
   * rows got before are no longer valid.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sextant_timeline_rows_init (SextantTimelineRows *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (self->entries, entry_clear);
  self->rows = g_array_new (FALSE, TRUE, sizeof (SextantTimelineRow));
  self->all_locations = g_array_new (FALSE, FALSE, sizeof (gint64));
}

/* Building ------------------------------------------------------------------ */

/* One thread row of a process: a location, or a Broadcaster's sessions */
typedef struct
{
  char    *name;
  GArray  *locs;
  guint    order;             /* 0 threads, 1 the Broadcaster, 2 accelerator streams, 3 others */
  gint64   first_loc;
} Thread;

typedef struct
{
  const SextantLocationPlace  *place;
  const SextantLocationMetric *metric;
} Counter;

typedef struct
{
  gint64      id;             /* location_group.id; -1 - loc for a location without one */
  const char *name;           /* (nullable) */
  gint64      rank;
  gboolean    created;        /* an accelerator context of another process */
  gint64      node;
  const char *node_name;
  gint64      first_loc;
  GPtrArray  *threads;        /* Thread */
  GArray     *counters;       /* Counter */
  Thread     *broadcaster;
  guint       node_index;
} Process;

static void
thread_free (Thread *thread)
{
  g_free (thread->name);
  g_array_unref (thread->locs);
  g_free (thread);
}

static void
process_free (Process *process)
{
  g_ptr_array_unref (process->threads);
  g_array_unref (process->counters);
  g_free (process);
}

static gboolean
has_digit (const char *s)
{
  for (; *s != '\0'; s++)
    if (g_ascii_isdigit (*s))
      return TRUE;
  return FALSE;
}

/* Natural order: runs of digits compare as numbers ("thread 2" before
 * "thread 10") */
static int
natural_compare (const char *a,
                 const char *b)
{
  while (*a != '\0' && *b != '\0')
    {
      if (g_ascii_isdigit (*a) && g_ascii_isdigit (*b))
        {
          const char *ea, *eb;
          gsize la, lb;
          int c;

          while (*a == '0' && g_ascii_isdigit (a[1]))
            a++;
          while (*b == '0' && g_ascii_isdigit (b[1]))
            b++;
          for (ea = a; g_ascii_isdigit (*ea); ea++)
            ;
          for (eb = b; g_ascii_isdigit (*eb); eb++)
            ;
          la = ea - a;
          lb = eb - b;
          if (la != lb)
            return la < lb ? -1 : 1;
          c = strncmp (a, b, la);
          if (c != 0)
            return c;
          a = ea;
          b = eb;
        }
      else
        {
          if (*a != *b)
            return (guchar)*a < (guchar)*b ? -1 : 1;
          a++;
          b++;
        }
    }

  return *a == *b ? 0 : *a == '\0' ? -1 : 1;
}

/* A process's threads: its threads before its Broadcaster before its
 * accelerator streams; among threads, unnumbered names ("Master thread")
 * first, then by number ("OMP thread 2" before "OMP thread 10") */
static int
thread_compare (gconstpointer pa,
                gconstpointer pb)
{
  const Thread *a = *(const Thread * const *)pa;
  const Thread *b = *(const Thread * const *)pb;
  gboolean da, db;
  int c;

  if (a->order != b->order)
    return a->order < b->order ? -1 : 1;
  da = has_digit (a->name);
  db = has_digit (b->name);
  if (da != db)
    return da ? 1 : -1;
  c = natural_compare (a->name, b->name);
  if (c != 0)
    return c;
  return a->first_loc < b->first_loc ? -1 : a->first_loc > b->first_loc;
}

/* Processes by rank (those without one after), an accelerator context
 * after its host, then in the order of their first location */
static int
process_compare (gconstpointer pa,
                 gconstpointer pb)
{
  const Process *a = *(const Process * const *)pa;
  const Process *b = *(const Process * const *)pb;
  gboolean na = a->rank == SEXTANT_NULL, nb = b->rank == SEXTANT_NULL;

  if (na != nb)
    return na ? 1 : -1;
  if (a->rank != b->rank)
    return a->rank < b->rank ? -1 : 1;
  if (a->created != b->created)
    return a->created ? 1 : -1;
  return a->first_loc < b->first_loc ? -1 : a->first_loc > b->first_loc;
}

static char *
join_label (const char *first,
            ...) G_GNUC_NULL_TERMINATED;

/* The non-empty parts joined by " / " */
static char *
join_label (const char *first,
            ...)
{
  GString *label = g_string_new (NULL);
  va_list args;

  va_start (args, first);
  for (const char *part = first; part != NULL; part = va_arg (args, const char *))
    {
      if (*part == '\0')
        continue;
      if (label->len > 0)
        g_string_append (label, " / ");
      g_string_append (label, part);
    }
  va_end (args);

  return g_string_free (label, FALSE);
}

static guint
add_entry (SextantTimelineRows    *self,
           SextantTimelineRowKind  kind,
           guint                   depth,
           guint                   parent,
           char                   *label,
           char                   *tooltip,
           GArray                 *locs,
           guint                   n_threads,
           int                     rank)
{
  Entry entry = { 0 };

  entry.kind = kind;
  entry.depth = depth;
  entry.parent = parent;
  entry.end = self->entries->len + 1;
  entry.label = label;
  entry.tooltip = tooltip;
  entry.folded = g_utf8_casefold (tooltip, -1);
  entry.locs = locs != NULL ? g_array_ref (locs) : g_array_new (FALSE, FALSE, sizeof (gint64));
  entry.n_threads = n_threads;
  entry.rank = rank;
  entry.metric = -1;
  entry.maps_locs = kind != SEXTANT_TIMELINE_ROW_COUNTER;
  entry.expanded = TRUE;
  g_array_append_val (self->entries, entry);

  return self->entries->len - 1;
}

/* Makes @index a group: its subtree ends here, its collapsed label says
 * what is under it */
static void
close_group (SextantTimelineRows *self,
             guint                index,
             const char          *what)
{
  Entry *entry = &g_array_index (self->entries, Entry, index);

  entry->end = self->entries->len;
  entry->expandable = entry->end > index + 1;
  if (entry->expandable)
    {
      entry->all_locs = g_array_new (FALSE, FALSE, sizeof (gint64));
      entry->collapsed_label = g_strdup_printf ("%s (%s)", entry->label, what);
    }
}

static void
add_counter (SextantTimelineRows *self,
             const Process       *process,
             const Counter       *counter,
             guint                depth,
             guint                parent,
             gboolean             full_label)
{
  const SextantLocationMetric *metric = counter->metric;
  const char *process_name = process->name != NULL ? process->name : "";
  g_autoptr(GArray) locs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *name = *metric->unit != '\0' ? g_strdup_printf ("%s [%s]", metric->name, metric->unit)
                                                : g_strdup (metric->name);
  guint index;
  Entry *entry;

  g_array_append_val (locs, counter->place->loc);
  index = add_entry (self, SEXTANT_TIMELINE_ROW_COUNTER, depth, parent,
                     full_label ? join_label (process_name, metric->name, NULL) : g_strdup (metric->name),
                     join_label (process->node_name != NULL ? process->node_name : "", process_name,
                                 counter->place->name, name, NULL),
                     locs, 1, process->rank != SEXTANT_NULL ? (int)process->rank : -1);
  entry = &g_array_index (self->entries, Entry, index);
  entry->metric = metric->metric;
  entry->unit = g_strdup (metric->unit);
  /* a location that only recorded metrics has no row of its own: its
   * first counter stands for it (row_of_loc keeps the first row it meets) */
  entry->maps_locs = counter->place->type == SEXTANT_LOCATION_METRIC || !counter->place->has_visits;
}

static void
add_process (SextantTimelineRows *self,
             Process             *process,
             guint                depth,
             guint                parent)
{
  const char *node_name = process->node_name != NULL ? process->node_name : "";
  int rank = process->rank != SEXTANT_NULL ? (int)process->rank : -1;
  guint n_threads = process->threads->len;
  guint n_counters = process->counters->len;
  g_autofree char *name = NULL;
  guint index;

  if (n_threads == 0)
    {
      /* counters alone: no row to group them under */
      for (guint i = 0; i < n_counters; i++)
        add_counter (self, process, &g_array_index (process->counters, Counter, i), depth, parent, TRUE);
      return;
    }

  g_ptr_array_sort (process->threads, thread_compare);
  {
    const Thread *master = g_ptr_array_index (process->threads, 0);

    name = g_strdup (process->name != NULL && *process->name != '\0' ? process->name : master->name);
    index = add_entry (self, n_threads + n_counters > 1 ? SEXTANT_TIMELINE_ROW_PROCESS : SEXTANT_TIMELINE_ROW_LOCATION,
                       depth, parent, g_strdup (name), join_label (node_name, name, master->name, NULL),
                       master->locs, 1, rank);
  }

  for (guint i = 1; i < n_threads; i++)
    {
      const Thread *thread = g_ptr_array_index (process->threads, i);

      add_entry (self, SEXTANT_TIMELINE_ROW_LOCATION, depth + 1, index, g_strdup (thread->name),
                 join_label (node_name, name, thread->name, NULL), thread->locs, 1, rank);
    }
  for (guint i = 0; i < n_counters; i++)
    add_counter (self, process, &g_array_index (process->counters, Counter, i), depth + 1, index, FALSE);

  {
    g_autoptr(GString) what = g_string_new (NULL);

    if (n_threads > 1)
      g_string_append_printf (what, "%u threads", n_threads);
    if (n_counters > 0)
      g_string_append_printf (what, "%s%u counter%s", what->len > 0 ? ", " : "", n_counters,
                              n_counters > 1 ? "s" : "");
    close_group (self, index, what->str);
  }
}

/* Reads the store into processes (the key: location_group.id) */
static GPtrArray *
read_processes (SextantStore  *store,
                GPtrArray    **places_out,
                GPtrArray    **metrics_out,
                gint64        *n_locs,
                GError       **error)
{
  g_autoptr(GPtrArray) places = NULL;
  g_autoptr(GPtrArray) metrics = NULL;
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GPtrArray) processes = g_ptr_array_new_with_free_func ((GDestroyNotify)process_free);
  guint next_metric = 0;

  places = sextant_store_list_location_places (store, error);
  if (places == NULL)
    return NULL;
  metrics = sextant_store_list_location_metrics (store, error);
  if (metrics == NULL)
    return NULL;

  *n_locs = 0;
  for (guint i = 0; i < places->len; i++)
    {
      const SextantLocationPlace *place = g_ptr_array_index (places, i);
      gboolean metric_only = place->type == SEXTANT_LOCATION_METRIC || (!place->has_visits && place->has_metrics);
      gint64 id = place->process != SEXTANT_NULL ? place->process : -1 - place->loc;
      Process *process;

      *n_locs = MAX (*n_locs, place->loc + 1);
      process = g_hash_table_lookup (by_id, &id);
      if (process == NULL)
        {
          process = g_new0 (Process, 1);
          process->id = id;
          process->name = place->process != SEXTANT_NULL ? place->process_name : place->name;
          process->rank = place->rank;
          process->created = place->creator != SEXTANT_NULL;
          process->node = place->node;
          process->node_name = place->node_name;
          process->first_loc = place->loc;
          process->threads = g_ptr_array_new_with_free_func ((GDestroyNotify)thread_free);
          process->counters = g_array_new (FALSE, FALSE, sizeof (Counter));
          g_ptr_array_add (processes, process);
          g_hash_table_insert (by_id, &process->id, process);
        }

      /* the metrics are sorted by location, as the places */
      while (next_metric < metrics->len &&
             ((const SextantLocationMetric *)g_ptr_array_index (metrics, next_metric))->loc < place->loc)
        next_metric++;
      for (; next_metric < metrics->len; next_metric++)
        {
          Counter counter = { place, g_ptr_array_index (metrics, next_metric) };

          if (counter.metric->loc != place->loc)
            break;
          g_array_append_val (process->counters, counter);
        }

      if (metric_only || place->events == 0)
        continue;

      if (g_str_equal (place->name, BROADCASTER_NAME) && place->type == SEXTANT_LOCATION_CPU_THREAD)
        {
          if (process->broadcaster == NULL)
            {
              process->broadcaster = g_new0 (Thread, 1);
              process->broadcaster->name = g_strdup ("Broadcaster");
              process->broadcaster->locs = g_array_new (FALSE, FALSE, sizeof (gint64));
              process->broadcaster->order = 1;
              process->broadcaster->first_loc = place->loc;
              g_ptr_array_add (process->threads, process->broadcaster);
            }
          g_array_append_val (process->broadcaster->locs, place->loc);
        }
      else
        {
          Thread *thread = g_new0 (Thread, 1);

          thread->name = *place->name != '\0' ? g_strdup (place->name)
                                              : g_strdup_printf ("Location %" G_GINT64_FORMAT, place->loc);
          thread->locs = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_array_append_val (thread->locs, place->loc);
          thread->order = place->type == SEXTANT_LOCATION_CPU_THREAD ? 0
                          : place->type == SEXTANT_LOCATION_ACCELERATOR_STREAM ? 2 : 3;
          thread->first_loc = place->loc;
          g_ptr_array_add (process->threads, thread);
        }
    }

  *places_out = g_steal_pointer (&places);
  *metrics_out = g_steal_pointer (&metrics);
  return g_steal_pointer (&processes);
}

static void update (SextantTimelineRows *self);

/**
 * sextant_timeline_rows_new:
 * @store: the session's store
 *
 * Reads @store's locations, nodes, processes and metrics into the rows of
 * a timeline, every group expanded, nothing hidden.
 *
 * Threading: the thread that owns @store; the model is then used on the
 * main thread only (it may be built on a worker and handed over).
 *
 * Returns: (transfer full): the model, or %NULL with @error set when the
 *   store could not be read
 */
SextantTimelineRows *
sextant_timeline_rows_new (SextantStore  *store,
                           GError       **error)
{
  g_autoptr(SextantTimelineRows) self = NULL;
  g_autoptr(GPtrArray) places = NULL;
  g_autoptr(GPtrArray) metrics = NULL;
  g_autoptr(GPtrArray) processes = NULL;
  g_autoptr(GPtrArray) nodes = NULL;      /* Process *: the first of each node */
  g_autoptr(GHashTable) node_index = NULL; /* node id -> index in nodes */
  gboolean with_nodes;
  gint64 n_locs = 0;

  g_return_val_if_fail (SEXTANT_IS_STORE (store), NULL);

  processes = read_processes (store, &places, &metrics, &n_locs, error);
  if (processes == NULL)
    return NULL;

  self = g_object_new (SEXTANT_TYPE_TIMELINE_ROWS, NULL);
  self->n_locs = n_locs;

  /* processes with nothing to show go; the others in rank order, and the
   * nodes in the order of their first process */
  for (guint i = processes->len; i-- > 0;)
    {
      Process *process = g_ptr_array_index (processes, i);

      if (process->threads->len == 0 && process->counters->len == 0)
        g_ptr_array_remove_index (processes, i);
    }
  g_ptr_array_sort (processes, process_compare);
  nodes = g_ptr_array_new ();
  node_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < processes->len; i++)
    {
      Process *process = g_ptr_array_index (processes, i);
      gpointer n;

      if (!g_hash_table_lookup_extended (node_index, &process->node, NULL, &n))
        {
          n = GUINT_TO_POINTER (nodes->len);
          g_ptr_array_add (nodes, process);
          g_hash_table_insert (node_index, &process->node, n);
        }
      process->node_index = GPOINTER_TO_UINT (n);
    }
  with_nodes = nodes->len > 1;

  for (guint n = 0; n < nodes->len; n++)
    {
      const Process *first = g_ptr_array_index (nodes, n);
      guint node_entry = NO_PARENT;
      guint n_processes = 0;

      if (with_nodes)
        {
          const char *name = first->node_name != NULL ? first->node_name : "Unknown node";

          node_entry = add_entry (self, SEXTANT_TIMELINE_ROW_NODE, 0, NO_PARENT, g_strdup (name),
                                  g_strdup (name), NULL, 0, -1);
        }
      for (guint i = 0; i < processes->len; i++)
        {
          Process *process = g_ptr_array_index (processes, i);

          if (process->node_index != n)
            continue;
          add_process (self, process, with_nodes ? 1 : 0, node_entry);
          n_processes++;
        }
      if (with_nodes)
        {
          g_autofree char *what = g_strdup_printf ("%u process%s", n_processes, n_processes > 1 ? "es" : "");

          close_group (self, node_entry, what);
        }
    }

  /* the whole-machine mode's locations: every thread row's, in order */
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *entry = &g_array_index (self->entries, Entry, i);

      if (entry->kind == SEXTANT_TIMELINE_ROW_LOCATION || entry->kind == SEXTANT_TIMELINE_ROW_PROCESS)
        g_array_append_vals (self->all_locations, entry->locs->data, entry->locs->len);
    }

  self->row_of_key = g_new (int, self->entries->len + 1);
  self->row_of_loc = g_new (int, MAX (n_locs, 1));
  update (self);

  return g_steal_pointer (&self);
}

/* The list of rows ---------------------------------------------------------- */

/* What each collapsed group draws: the thread rows under it not hidden */
static void
update_aggregates (SextantTimelineRows *self)
{
  for (guint g = 0; g < self->entries->len; g++)
    {
      Entry *group = &g_array_index (self->entries, Entry, g);

      if (!group->expandable)
        continue;
      g_array_set_size (group->all_locs, 0);
      group->all_threads = 0;
      for (guint i = g; i < group->end;)
        {
          const Entry *entry = &g_array_index (self->entries, Entry, i);

          if (entry->hidden && i != g)
            {
              i = entry->end;
              continue;
            }
          if (entry->kind == SEXTANT_TIMELINE_ROW_LOCATION || entry->kind == SEXTANT_TIMELINE_ROW_PROCESS)
            {
              g_array_append_vals (group->all_locs, entry->locs->data, entry->locs->len);
              group->all_threads += entry->n_threads;
            }
          i++;
        }
    }
}

/* Which entries the filter keeps: those whose full label holds it, and
 * the groups above them (@keep: one per entry) */
static void
match_filter (SextantTimelineRows *self,
              gboolean            *keep)
{
  for (guint i = self->entries->len; i-- > 0;)
    {
      const Entry *entry = &g_array_index (self->entries, Entry, i);

      if (self->folded_filter == NULL || strstr (entry->folded, self->folded_filter) != NULL)
        keep[i] = TRUE;
      if (keep[i] && entry->parent != NO_PARENT)
        keep[entry->parent] = TRUE;
    }
}

static void
update (SextantTimelineRows *self)
{
  g_autofree gboolean *keep = g_new0 (gboolean, MAX (self->entries->len, 1));

  update_aggregates (self);
  match_filter (self, keep);
  g_array_set_size (self->rows, 0);
  for (guint k = 0; k <= self->entries->len; k++)
    self->row_of_key[k] = -1;
  for (gint64 l = 0; l < self->n_locs; l++)
    self->row_of_loc[l] = -1;

  for (guint i = 0; i < self->entries->len;)
    {
      const Entry *entry = &g_array_index (self->entries, Entry, i);
      gboolean collapsed = entry->expandable && !entry->expanded;
      SextantTimelineRow row = { 0 };
      int position = self->rows->len;

      if (entry->hidden || !keep[i])
        {
          i = entry->end;
          continue;
        }

      row.kind = entry->kind;
      row.key = i + 1;
      row.depth = entry->depth;
      row.label = collapsed ? entry->collapsed_label : entry->label;
      row.tooltip = entry->tooltip;
      row.locs = collapsed ? entry->all_locs : entry->locs;
      row.expandable = entry->expandable;
      row.expanded = entry->expandable && entry->expanded;
      row.rank = entry->rank;
      row.metric = entry->metric;
      row.unit = entry->unit != NULL ? entry->unit : "";
      row.n_threads = collapsed ? entry->all_threads : entry->n_threads;
      g_array_append_val (self->rows, row);
      self->row_of_key[i + 1] = position;

      if (collapsed || entry->maps_locs)
        for (guint l = 0; l < row.locs->len; l++)
          {
            gint64 loc = g_array_index (row.locs, gint64, l);

            if (loc >= 0 && loc < self->n_locs && self->row_of_loc[loc] < 0)
              self->row_of_loc[loc] = position;
          }

      i = collapsed ? entry->end : i + 1;
    }
}

static Entry *
lookup (SextantTimelineRows *self,
        guint                key)
{
  if (key == 0 || key > self->entries->len)
    return NULL;
  return &g_array_index (self->entries, Entry, key - 1);
}

static void
changed (SextantTimelineRows *self)
{
  update (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* Accessors ----------------------------------------------------------------- */

/**
 * sextant_timeline_rows_get_n_rows:
 *
 * Returns: how many rows are shown
 */
guint
sextant_timeline_rows_get_n_rows (SextantTimelineRows *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_ROWS (self), 0);

  return self->rows->len;
}

/**
 * sextant_timeline_rows_get_row:
 * @position: a shown row, < sextant_timeline_rows_get_n_rows()
 *
 * Returns: (transfer none): the row, valid until the next "changed"
 */
const SextantTimelineRow *
sextant_timeline_rows_get_row (SextantTimelineRows *self,
                               guint                position)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_ROWS (self), NULL);
  g_return_val_if_fail (position < self->rows->len, NULL);

  return &g_array_index (self->rows, SextantTimelineRow, position);
}

/**
 * sextant_timeline_rows_row_of_loc:
 * @loc: a location.id
 *
 * The shown row that draws @loc: its own, its Broadcaster's, or its
 * collapsed group's; a location recorded only metrics maps to its first
 * counter row. O(1): a table, remade when the list changes.
 *
 * Returns: the row's position, or -1 when @loc has no row shown (hidden,
 *   filtered out, dropped, unknown)
 */
int
sextant_timeline_rows_row_of_loc (SextantTimelineRows *self,
                                  gint64               loc)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_ROWS (self), -1);

  if (loc < 0 || loc >= self->n_locs)
    return -1;
  return self->row_of_loc[loc];
}

/**
 * sextant_timeline_rows_find:
 * @key: a row's key
 *
 * Returns: the position of the shown row with @key, or -1
 */
int
sextant_timeline_rows_find (SextantTimelineRows *self,
                            guint                key)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_ROWS (self), -1);

  if (key == 0 || key > self->entries->len)
    return -1;
  return self->row_of_key[key];
}

/**
 * sextant_timeline_rows_set_expanded:
 * @key: a group's key (nothing for another row's)
 *
 * Shows or leaves out the rows under the group; emits "changed" when that
 * changes anything.
 */
void
sextant_timeline_rows_set_expanded (SextantTimelineRows *self,
                                    guint                key,
                                    gboolean             expanded)
{
  Entry *entry;

  g_return_if_fail (SEXTANT_IS_TIMELINE_ROWS (self));

  entry = lookup (self, key);
  if (entry == NULL || !entry->expandable || entry->expanded == !!expanded)
    return;
  entry->expanded = !!expanded;
  changed (self);
}

/**
 * sextant_timeline_rows_expand_all:
 *
 * Expands or collapses every group (node and process) at once.
 */
void
sextant_timeline_rows_expand_all (SextantTimelineRows *self,
                                  gboolean             expanded)
{
  gboolean any = FALSE;

  g_return_if_fail (SEXTANT_IS_TIMELINE_ROWS (self));

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = &g_array_index (self->entries, Entry, i);

      if (entry->expandable && entry->expanded != !!expanded)
        {
          entry->expanded = !!expanded;
          any = TRUE;
        }
    }
  if (any)
    changed (self);
}

/**
 * sextant_timeline_rows_set_hidden:
 * @key: a row's key
 *
 * Hides the row (and the rows under it), or shows it again. A hidden
 * thread leaves its collapsed group's aggregate too.
 */
void
sextant_timeline_rows_set_hidden (SextantTimelineRows *self,
                                  guint                key,
                                  gboolean             hidden)
{
  Entry *entry;

  g_return_if_fail (SEXTANT_IS_TIMELINE_ROWS (self));

  entry = lookup (self, key);
  if (entry == NULL || entry->hidden == !!hidden)
    return;
  entry->hidden = !!hidden;
  if (hidden)
    self->n_hidden++;
  else
    self->n_hidden--;
  changed (self);
}

/**
 * sextant_timeline_rows_get_n_hidden:
 *
 * Returns: how many rows the user hid (those under a hidden group not
 *   counted)
 */
guint
sextant_timeline_rows_get_n_hidden (SextantTimelineRows *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_ROWS (self), 0);

  return self->n_hidden;
}

/**
 * sextant_timeline_rows_show_all:
 *
 * Shows every hidden row again.
 */
void
sextant_timeline_rows_show_all (SextantTimelineRows *self)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE_ROWS (self));

  if (self->n_hidden == 0)
    return;
  for (guint i = 0; i < self->entries->len; i++)
    g_array_index (self->entries, Entry, i).hidden = FALSE;
  self->n_hidden = 0;
  changed (self);
}

/**
 * sextant_timeline_rows_set_filter:
 * @filter: (nullable): text the rows' full labels (tooltips: node,
 *   process, thread, metric) must contain, case-insensitive; %NULL or "":
 *   every row
 *
 * Leaves out the rows that do not match, except the groups above a row
 * that does.
 */
void
sextant_timeline_rows_set_filter (SextantTimelineRows *self,
                                  const char          *filter)
{
  g_return_if_fail (SEXTANT_IS_TIMELINE_ROWS (self));

  if (filter != NULL && *filter == '\0')
    filter = NULL;
  if (g_strcmp0 (filter, self->filter) == 0)
    return;
  g_free (self->filter);
  g_free (self->folded_filter);
  self->filter = g_strdup (filter);
  self->folded_filter = filter != NULL ? g_utf8_casefold (filter, -1) : NULL;
  changed (self);
}

/**
 * sextant_timeline_rows_get_filter:
 *
 * Returns: (nullable): the filter, %NULL when there is none
 */
const char *
sextant_timeline_rows_get_filter (SextantTimelineRows *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_ROWS (self), NULL);

  return self->filter;
}

/**
 * sextant_timeline_rows_get_all_locations:
 *
 * Returns: (transfer none) (element-type gint64): every location that has
 *   a row when nothing is hidden, collapsed or filtered, in row order (a
 *   Broadcaster's sessions one after the other); not the locations that
 *   only recorded metrics
 */
GArray *
sextant_timeline_rows_get_all_locations (SextantTimelineRows *self)
{
  g_return_val_if_fail (SEXTANT_IS_TIMELINE_ROWS (self), NULL);

  return self->all_locations;
}
