/*
 * sextant-store-views-p2p.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The shared views of the point-to-point patterns, computed in C from the
 * column chunks of message and visit and copied into temporary column
 * tables (sextant_store_write_temp_columns()), which the pattern queries
 * read instead of joining every message to its calls through the virtual
 * table (about 0.5 us a lookup) and grouping them in SQLite's sorter:
 *
 *   receive_wait          the view of schema-1.sql (late_sender, its
 *                         wrong-order child, wrong_order, the master-worker
 *                         patterns), with wo_buffered
 *   early_wait_op         per MPI_Wait* call, the operations it completes
 *                         that can be early_wait's instance
 *   late_receiver_send    per send-completing call, the messages that can
 *                         be late_receiver's instance
 *   close_send_recv_pair  the blocking sends followed by a blocking receive
 *                         from the same peer (close_send_recv)
 *
 * The last three hold exactly the rows that the patterns' former SQL (joins
 * and a GROUP BY over message and visit) chose from, whatever their
 * parameters: a group's row that SQLite's bare columns took (the first with
 * the largest value, in the order SQLite read them) is found here, and what
 * depends on a parameter (the eager limit) is a column the query compares
 * with it. docs/schema.md ("Analysis views") defines them;
 * tests/test-store-views.c checks the patterns' queries over them against
 * the former SQL on real traces, and receive_wait against its view.
 *
 * Workload: all four at once, when the first of them is named on a
 * connection (the analysis runs the patterns that read them on one
 * connection). The visit chunks are read into memory (44 MB for the 3.4 M
 * visits of the 10 M-event store), the message chunks streamed twice
 * (842,688 messages; receive_wait's rows, 96 bytes each, are written and
 * freed before the others' are gathered), each message's calls looked up by
 * id (a binary search over the chunks, then O(1)). Rows are ordered by call
 * with a radix sort on the call's position among the visits, and written as
 * chunks through that order, not moved. On that store: 1.3-1.5 s of CPU for
 * the four (at load 6 on the 2-vCPU VM), where the patterns' joins took
 * 5.7 s; most of it is first touches of fresh memory.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sextant-chunk-row.h"
#include "sextant-store-views-p2p-private.h"

/* SQLite's `name LIKE 'MPI_Test%'`: ASCII letters in any case, `_` any
 * one character */
static gboolean
like_mpi_test (const char *name)
{
  if (g_ascii_strncasecmp (name, "MPI", 3) != 0 || name[3] == '\0')
    return FALSE;
  name = g_utf8_next_char (name + 3);

  return g_ascii_strncasecmp (name, "Test", 4) == 0;
}

/* The chunks ------------------------------------------------------------------- */

/* Parses a row (first_row, n, header, data) of a chunk table; the data
 * stays SQLite's (valid during the row) unless @copy */
static gboolean
parse_chunk (const SextantRow  *row,
             guint              n_cols,
             gboolean           copy,
             TableChunk        *out,
             GError           **error)
{
  memset (out, 0, sizeof *out);
  out->first_row = sextant_row_get_int (row, SEXTANT_CHUNK_ROW_FIRST_ROW);

  return _sextant_store_parse_chunk_row (row, n_cols, FALSE, &out->chunk, error) &&
         sextant_chunk_row_attach_data (row, &out->chunk, copy ? &out->data : NULL, error);
}

static void
table_chunk_clear (gpointer data)
{
  g_clear_pointer (&((TableChunk *)data)->data, g_bytes_unref);
}

static gboolean
visit_chunk_row (const SextantRow  *row,
                 gpointer           user_data,
                 GError           **error)
{
  P2pData *data = user_data;
  TableChunk chunk;

  if (!parse_chunk (row, SEXTANT_VISIT_N_COLUMNS, TRUE, &chunk, error))
    return FALSE;
  g_array_append_val (data->visits, chunk);
  g_array_append_val (data->first_rows, chunk.first_row);
  g_array_append_val (data->offsets, data->n_visits);
  data->n_visits += chunk.chunk.n_rows;

  return TRUE;
}

static gboolean
region_row (const SextantRow  *row,
            gpointer           user_data,
            GError           **error)
{
  static const struct
  {
    const char  *name;
    RegionFlags  flags;
  } names[] = {
    { "MPI_Waitall", R_MULTI }, { "MPI_Waitsome", R_MULTI }, { "MPI_Ibsend", R_IBSEND },
    { "MPI_Issend", R_ISSEND }, { "MPI_Ssend", R_SSEND | R_SINGLE }, { "MPI_Send", R_SINGLE },
    { "MPI_Wait", R_SINGLE }, { "MPI_Waitany", R_SINGLE },
  };
  const char *name = sextant_row_get_text (row, 1);
  guint flags = R_EXISTS;

  if (name == NULL)
    flags |= R_NULL;
  else
    {
      if (like_mpi_test (name))
        flags |= R_TEST;
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (strcmp (name, names[i].name) == 0)
          flags |= names[i].flags;
    }
  g_hash_table_insert (user_data, GSIZE_TO_POINTER ((gsize)sextant_row_get_int (row, 0)), GUINT_TO_POINTER (flags));

  return TRUE;
}

static void
p2p_data_clear (P2pData *data)
{
  g_clear_pointer (&data->visits, g_array_unref);
  g_clear_pointer (&data->first_rows, g_array_unref);
  g_clear_pointer (&data->offsets, g_array_unref);
  g_clear_pointer (&data->regions, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (P2pData, p2p_data_clear)

static gboolean
p2p_data_load (SextantStore  *self,
               P2pData       *data,
               GError       **error)
{
  data->visits = g_array_new (FALSE, FALSE, sizeof (TableChunk));
  g_array_set_clear_func (data->visits, table_chunk_clear);
  data->first_rows = g_array_new (FALSE, FALSE, sizeof (gint64));
  data->offsets = g_array_new (FALSE, FALSE, sizeof (guint));
  data->n_visits = 0;
  data->regions = g_hash_table_new (g_direct_hash, g_direct_equal);

  return sextant_store_foreach_sql (self, "SELECT id, name FROM region", region_row, data->regions, error, "") &&
         sextant_store_foreach_sql (self, "SELECT first_row, n, header, data FROM visit_chunk ORDER BY first_row",
                                    visit_chunk_row, data, error, "");
}

/* The chunk and row of visit @id: FALSE when there is none */
static gboolean
visit_locate (const P2pData *data,
              gint64         id,
              guint         *chunk_index,
              guint         *row)
{
  const gint64 *first_rows = (const gint64 *)data->first_rows->data;
  guint lo = 0, hi = data->first_rows->len;
  const TableChunk *c;

  if (id == SEXTANT_NULL)
    return FALSE;
  /* the last chunk that starts at or before @id */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (first_rows[mid] <= id)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return FALSE;
  c = &g_array_index (data->visits, TableChunk, lo - 1);
  if (id - c->first_row >= c->chunk.n_rows)
    return FALSE;
  *chunk_index = lo - 1;
  *row = (guint)(id - c->first_row);

  return TRUE;
}

static inline void
visit_read (const P2pData *data,
            guint          chunk,
            guint          row,
            Visit         *out)
{
  const TableChunk *c = &g_array_index (data->visits, TableChunk, chunk);

  out->id = c->first_row + row;
  out->loc = sextant_chunk_get (&c->chunk, SEXTANT_VISIT_LOC, row);
  out->region = sextant_chunk_get (&c->chunk, SEXTANT_VISIT_REGION, row);
  out->enter = sextant_chunk_get (&c->chunk, SEXTANT_VISIT_ENTER, row);
  out->leave = sextant_chunk_get (&c->chunk, SEXTANT_VISIT_LEAVE, row);
  out->depth = sextant_chunk_get (&c->chunk, SEXTANT_VISIT_DEPTH, row);
  out->position = g_array_index (data->offsets, guint, chunk) + row;
}

/* `JOIN visit ON visit.id = @id`: FALSE when it drops the row */
static gboolean
visit_get (const P2pData *data,
           gint64         id,
           Visit         *out)
{
  guint chunk, row;

  if (!visit_locate (data, id, &chunk, &row))
    return FALSE;
  visit_read (data, chunk, row, out);

  return TRUE;
}

/* The first visit after @v of location @loc no deeper than @v (visit ids
 * are in enter order per location, and the locations' ranges of ids in
 * location order): FALSE when there is none */
gboolean
_sextant_p2p_next_visit (const P2pData *data,
                         const Visit   *v,
                         gint64         loc,
                         Visit         *out)
{
  guint chunk, row;

  if (v->depth == SEXTANT_NULL || !visit_locate (data, v->id, &chunk, &row))
    return FALSE;
  for (row++; chunk < data->visits->len; chunk++, row = 0)
    {
      const TableChunk *c = &g_array_index (data->visits, TableChunk, chunk);

      for (; row < c->chunk.n_rows; row++)
        {
          gint64 o_loc = sextant_chunk_get (&c->chunk, SEXTANT_VISIT_LOC, row);
          gint64 depth;

          if (o_loc > loc)
            return FALSE;
          depth = sextant_chunk_get (&c->chunk, SEXTANT_VISIT_DEPTH, row);
          if (o_loc == loc && depth != SEXTANT_NULL && depth <= v->depth)
            {
              visit_read (data, chunk, row, out);
              return TRUE;
            }
        }
    }

  return FALSE;
}

/* Sorting rows by call ------------------------------------------------------------ */

/* Sorts @items by key, stably: three passes of 11 bits */
static void
radix_sort (RadixItem *items,
            guint      n)
{
  g_autofree RadixItem *other = NULL;
  RadixItem *from = items, *to;

  if (n == 0)
    return;
  to = other = g_new (RadixItem, n);
  for (guint shift = 0; shift < 33; shift += 11)
    {
      guint count[2048] = { 0 };
      guint sum = 0;

      for (guint i = 0; i < n; i++)
        count[(from[i].key >> shift) & 2047]++;
      for (guint b = 0; b < 2048; b++)
        {
          guint c = count[b];

          count[b] = sum;
          sum += c;
        }
      for (guint i = 0; i < n; i++)
        to[count[(from[i].key >> shift) & 2047]++] = from[i];
      {
        RadixItem *t = from;

        from = to;
        to = t;
      }
    }
  if (from != items)
    memcpy (items, from, n * sizeof (RadixItem));
}

/* The order of @n rows by the call they belong to (@items: the position of
 * the call among the visits and the row's index, changed), then by
 * @compare within a call: row indexes into @order. The rows stay where they
 * are (a sort that moves rows spends its time copying them). */
void
_sextant_p2p_order_by_call (RadixItem      *items,
                            guint           n,
                            RowCompare      compare,
                            gconstpointer   rows,
                            guint32        *order)
{
  radix_sort (items, n);

  /* a call's few rows: insertion sort, stable */
  for (guint first = 0, end; first < n; first = end)
    {
      for (end = first + 1; end < n && items[end].key == items[first].key; end++)
        ;
      for (guint i = first + 1; i < end; i++)
        {
          RadixItem item = items[i];
          guint j = i;

          for (; j > first && compare (rows, items[j - 1].index, item.index) > 0; j--)
            items[j] = items[j - 1];
          items[j] = item;
        }
    }
  for (guint i = 0; i < n; i++)
    order[i] = items[i].index;
}

/* _sextant_p2p_order_by_call() of @n rows of gint64 values, @stride a
 * row, whose call's position is in column @position_col */
void
_sextant_p2p_order_rows_by_call (const gint64  *base,
                                 gsize          stride,
                                 guint          n,
                                 guint          position_col,
                                 RowCompare     compare,
                                 guint32       *order)
{
  g_autofree RadixItem *items = g_new (RadixItem, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      items[i].key = (guint32)base[i * stride + position_col];
      items[i].index = i;
    }
  _sextant_p2p_order_by_call (items, n, compare, base, order);
}

/* Keeps, of the rows @order[0 .. @n) of each group (equal @group_col, in
 * the order in which the former query's GROUP BY took the first of the
 * largest), those that are the group's first qualifying one for some eager
 * limit E - a row qualifies when its sync column is 1 or its bytes >= E -
 * and sets their @earlier_col: the largest bytes of the group's earlier rows
 * that are not sync (NULL for none). A row is the group's choice for E if it
 * qualifies and its @earlier_col < E (or NULL). Returns how many rows are
 * kept, at the start of @order. */
guint
_sextant_p2p_keep_first_qualifying (gint64   *base,
                                    gsize     stride,
                                    guint32  *order,
                                    guint     n,
                                    guint     group_col,
                                    guint     bytes_col,
                                    guint     sync_col,
                                    guint     earlier_col)
{
  guint kept = 0;

  for (guint i = 0; i < n;)
    {
      gint64 group = base[order[i] * stride + group_col];
      gint64 earlier = SEXTANT_NULL;
      gboolean synced = FALSE;

      for (; i < n && base[order[i] * stride + group_col] == group; i++)
        {
          gint64 *row = base + order[i] * stride;

          if (synced)
            continue;
          row[earlier_col] = earlier;
          if (row[sync_col] != 0 && row[sync_col] != SEXTANT_NULL)
            synced = TRUE;
          else
            earlier = sql_max_ignoring_null (earlier, row[bytes_col]);
          order[kept++] = order[i];
        }
    }

  return kept;
}

typedef struct
{
  const gint64    *base;
  gsize            stride;
  const guint32   *order;
  guint            n_cols;
} Gather;

static void
gather_rows (gsize           first,
             guint           n,
             gint64 * const *columns,
             gpointer        user_data)
{
  const Gather *g = user_data;

  for (guint r = 0; r < n; r++)
    {
      const gint64 *row = g->base + g->order[first + r] * g->stride;

      for (guint c = 0; c < g->n_cols; c++)
        columns[c][r] = row[c];
    }
}

/* Writes the first @n_cols columns of the rows @order[0 .. @n) of @rows
 * (gint64 values, @row_size bytes each) into temp.@name. */
gboolean
_sextant_p2p_write_rows (SextantStore    *self,
                         const char      *name,
                         const char      *columns,
                         GArray          *rows,
                         gsize            row_size,
                         const guint32   *order,
                         guint            n,
                         guint            n_cols,
                         GError         **error)
{
  Gather g = { (const gint64 *)rows->data, row_size / sizeof (gint64), order, n_cols };

  return sextant_store_write_temp_columns (self, name, columns, n_cols, n, gather_rows, &g, error);
}

typedef struct
{
  P2pScan   *scan;
  gint64    *columns;     /* a chunk's message columns, column by column */
  gboolean   receives;    /* the pass for receive_wait, else the others' */
} MessageScan;

static gboolean
message_chunk_row (const SextantRow  *row,
                   gpointer           user_data,
                   GError           **error)
{
  MessageScan *ms = user_data;
  const P2pData *data = ms->scan->data;
  TableChunk chunk;
  guint n;

  if (!parse_chunk (row, SEXTANT_MESSAGE_N_COLUMNS, FALSE, &chunk, error))
    return FALSE;
  n = chunk.chunk.n_rows;
  for (guint c = 0; c < SEXTANT_MESSAGE_N_COLUMNS; c++)
    sextant_chunk_get_range (&chunk.chunk, c, 0, n, ms->columns + (gsize)c * SEXTANT_CHUNK_MAX_ROWS, 1);
  for (guint r = 0; r < n; r++)
    {
      Message m;
      Visit recv, send, post, complete;
      gboolean has_recv, has_send, has_post, has_complete;
      guint flags;

      m.id = chunk.first_row + r;
      for (guint c = 0; c < SEXTANT_MESSAGE_N_COLUMNS; c++)
        m.v[c] = ms->columns[(gsize)c * SEXTANT_CHUNK_MAX_ROWS + r];
      has_recv = visit_get (data, m.v[SEXTANT_MESSAGE_RECV_VISIT], &recv);
      has_send = visit_get (data, m.v[SEXTANT_MESSAGE_SEND_VISIT], &send);
      if (ms->receives)
        {
          if (has_recv && has_send && ((flags = region_flags (data, recv.region)) & R_EXISTS))
            _sextant_p2p_scan_receive_wait (ms->scan, &m, &recv, &send, flags);
          has_post = visit_get (data, m.v[SEXTANT_MESSAGE_RECV_POST_VISIT], &post);
          _sextant_p2p_scan_early_wait_receives (ms->scan, &m, has_recv ? &recv : NULL,
                                                 has_send ? &send : NULL, has_post ? &post : NULL);
          _sextant_p2p_scan_blocking_receive (ms->scan, &m, has_recv ? &recv : NULL);
          continue;
        }
      has_post = visit_get (data, m.v[SEXTANT_MESSAGE_RECV_POST_VISIT], &post);
      has_complete = visit_get (data, m.v[SEXTANT_MESSAGE_SEND_COMPLETE_VISIT], &complete);
      _sextant_p2p_scan_early_wait (ms->scan, &m, has_recv ? &recv : NULL, has_send ? &send : NULL,
                                    has_post ? &post : NULL, has_complete ? &complete : NULL);
      _sextant_p2p_scan_late_receiver (ms->scan, &m, has_recv ? &recv : NULL, has_send ? &send : NULL,
                                       has_post ? &post : NULL, has_complete ? &complete : NULL);
      _sextant_p2p_scan_close_send_recv (ms->scan, &m, has_send ? &send : NULL);
    }

  return TRUE;
}

static gboolean
count_row (const SextantRow  *row,
           gpointer           user_data,
           GError           **error)
{
  *(gint64 *)user_data = sextant_row_get_int (row, 0);

  return TRUE;
}

static const char message_chunks_sql[] = "SELECT first_row, n, header, data FROM message_chunk ORDER BY first_row";

static const char * const p2p_views[] = {
  "receive_wait", "early_wait_op", "late_receiver_send", "close_send_recv_pair",
};

/* Fills all four views, once per connection: the first of them that a
 * query names fills the others too. */
static gboolean
fill_p2p_views (SextantStore  *self,
                GError       **error)
{
  g_auto(P2pData) data = { NULL, NULL, NULL, 0, NULL };
  g_autofree guint8 *received_in = NULL;
  g_autofree guint32 *taken = NULL;
  g_autofree guint8 *late_senders = NULL;
  g_autofree gint64 *columns = NULL;
  g_autoptr(GArray) receives = NULL;
  g_autoptr(GArray) ops = g_array_new (FALSE, FALSE, sizeof (EarlyWaitOp));
  g_autoptr(GArray) sends = g_array_new (FALSE, FALSE, sizeof (LateReceiverSend));
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (CloseSendRecvPair));
  g_autoptr(GArray) blocking = g_array_new (FALSE, FALSE, sizeof (RadixItem));
  g_autoptr(GArray) blocking_peers = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *filled_sql = NULL;
  gint64 n_messages = 0, n_filled = 0;
  P2pScan scan;
  MessageScan ms;

  filled_sql = g_strdup_printf ("SELECT count (*) FROM temp.sqlite_master WHERE type = 'table' "
                                "AND name IN ('%s', '%s', '%s', '%s')",
                                p2p_views[0], p2p_views[1], p2p_views[2], p2p_views[3]);
  if (!sextant_store_foreach_sql (self, filled_sql, count_row, &n_filled, error, "") ||
      /* a damaged chunk's n (a reservation, not a count the scan trusts)
       * within what a chunk can hold */
      !sextant_store_foreach_sql (self, "SELECT coalesce (sum (max (0, min (n, " G_STRINGIFY (SEXTANT_CHUNK_MAX_ROWS)
                                  "))), 0) FROM message_chunk", count_row, &n_messages, error, ""))
    return FALSE;
  if (n_filled == G_N_ELEMENTS (p2p_views))
    return TRUE;

  /* two passes over the messages, so that receive_wait's rows (the most)
   * are written and gone before the others' are gathered */
  if (!p2p_data_load (self, &data, error))
    return FALSE;
  receives = g_array_sized_new (FALSE, FALSE, sizeof (ReceiveWaitRow), (guint)MIN (n_messages, G_MAXUINT));
  received_in = g_malloc0 (data.n_visits / 8 + 1);
  taken = g_new0 (guint32, data.n_visits + 1);
  late_senders = g_malloc0 (data.n_visits / 8 + 1);
  columns = g_new (gint64, (gsize)SEXTANT_MESSAGE_N_COLUMNS * SEXTANT_CHUNK_MAX_ROWS);
  scan = (P2pScan) { &data, receives, ops, received_in, taken, sends, late_senders, pairs, blocking, blocking_peers };
  ms = (MessageScan) { &scan, columns, TRUE };
  if (!sextant_store_foreach_sql (self, message_chunks_sql, message_chunk_row, &ms, error, "") ||
      sextant_store_set_error_if_cancelled (self, error) ||
      !_sextant_p2p_finish_receive_wait (self, receives, error))
    return FALSE;
  g_clear_pointer (&receives, g_array_unref);
  radix_sort ((RadixItem *)blocking->data, blocking->len);

  ms.receives = FALSE;
  if (!sextant_store_foreach_sql (self, message_chunks_sql, message_chunk_row, &ms, error, ""))
    return FALSE;
  p2p_data_clear (&data);
  g_clear_pointer (&columns, g_free);

  /* the sorts and the passes below are C: they check the cancellable
   * themselves */
  if (sextant_store_set_error_if_cancelled (self, error) ||
      !_sextant_p2p_finish_early_wait_op (self, ops, error) ||
      sextant_store_set_error_if_cancelled (self, error) ||
      !_sextant_p2p_finish_late_receiver_send (self, sends, late_senders, error) ||
      sextant_store_set_error_if_cancelled (self, error) ||
      !_sextant_p2p_finish_close_send_recv_pair (self, pairs, error))
    return FALSE;

  g_debug ("point-to-point views: %" G_GINT64_FORMAT " messages", n_messages);

  return TRUE;
}

/**
 * _sextant_store_fill_p2p_views:
 *
 * Fills, in one pass over the messages and visits, temp.receive_wait with
 * exactly the rows of the view of schema-1.sql and wo_buffered
 * (sextant-store-views-p2p-receive-wait.c), temp.early_wait_op (-early-wait.c),
 * temp.late_receiver_send (-late-receiver.c) and temp.close_send_recv_pair
 * (-close-send-recv.c). Does nothing when they are there already.
 */
gboolean
_sextant_store_fill_p2p_views (SextantStore  *self,
                               GError       **error)
{
  return fill_p2p_views (self, error);
}
