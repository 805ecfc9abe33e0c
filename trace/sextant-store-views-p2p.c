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

#include "sextant-chunk.h"
#include "sextant-store-views-p2p.h"

/* A chunk of an event table, its data copied out of SQLite. */
typedef struct
{
  gint64        first_row;
  SextantChunk  chunk;
  GBytes       *data;
} TableChunk;

/* What the point-to-point views read besides the messages: every visit,
 * and what the region names say (the queries test the names). */
typedef struct
{
  GArray      *visits;       /* TableChunk by first_row */
  GArray      *first_rows;   /* gint64: the chunks' first rows, to search */
  GArray      *offsets;      /* guint: the position of each chunk's first row among all visits */
  guint        n_visits;
  GHashTable  *regions;      /* region.id -> RegionFlags */
} P2pData;

typedef enum
{
  R_EXISTS = 1 << 0,
  R_NULL = 1 << 1,          /* the name is NULL: every test on it is NULL */
  R_TEST = 1 << 2,          /* name LIKE 'MPI_Test%' */
  R_MULTI = 1 << 3,         /* MPI_Waitall, MPI_Waitsome */
  R_IBSEND = 1 << 4,
  R_ISSEND = 1 << 5,
  R_SSEND = 1 << 6,
  R_SINGLE = 1 << 7,        /* MPI_Send, MPI_Ssend, MPI_Wait, MPI_Waitany */
} RegionFlags;

/* A visit, and its position among all visits (in id order) */
typedef struct
{
  gint64 id, loc, region, enter, leave, depth;
  gint64 position;
} Visit;

typedef struct
{
  gint64 id;
  gint64 v[SEXTANT_MESSAGE_N_COLUMNS];
} Message;

/* SQL arithmetic: NULL if any operand is */
static inline gint64
sql_sub (gint64 a,
         gint64 b)
{
  return a == SEXTANT_NULL || b == SEXTANT_NULL ? SEXTANT_NULL : a - b;
}

static inline gint64
sql_min (gint64 a,
         gint64 b)
{
  return a == SEXTANT_NULL || b == SEXTANT_NULL ? SEXTANT_NULL : MIN (a, b);
}

static inline gint64
sql_max_ignoring_null (gint64 a,
                       gint64 b)
{
  return a == SEXTANT_NULL ? b : b == SEXTANT_NULL ? a : MAX (a, b);
}

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

/* Bits over the visits' positions */
static inline void
bit_set (guint8 *bits,
         gint64  position)
{
  bits[position >> 3] |= (guint8)(1u << (position & 7));
}

static inline gboolean
bit_get (const guint8 *bits,
         gint64        position)
{
  return (bits[position >> 3] >> (position & 7)) & 1;
}

/* The chunks ------------------------------------------------------------------- */

static gboolean
damaged (gint64   first_row,
         GError **error)
{
  g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_SCHEMA,
               "chunk at row %" G_GINT64_FORMAT " is damaged", first_row);
  return FALSE;
}

/* Parses a row (first_row, n, header, data) of a chunk table; the data
 * stays SQLite's (valid during the row) unless @copy */
static gboolean
parse_chunk (const SextantRow  *row,
             guint              n_cols,
             gboolean           copy,
             TableChunk        *out,
             GError           **error)
{
  gsize header_size = 0, size = 0;
  const guint8 *header = sextant_row_get_blob (row, 2, &header_size);
  const guint8 *data = sextant_row_get_blob (row, 3, &size);
  gint64 n = sextant_row_get_int (row, 1);

  memset (out, 0, sizeof *out);
  out->first_row = sextant_row_get_int (row, 0);
  if (n < 0 || n > SEXTANT_CHUNK_MAX_ROWS ||
      !sextant_chunk_parse_header (&out->chunk, header, header_size, (guint)n, n_cols))
    return damaged (out->first_row, error);
  if (copy)
    {
      out->data = g_bytes_new (data, size);
      data = g_bytes_get_data (out->data, NULL);
    }
  if (!sextant_chunk_attach_data (&out->chunk, data, size))
    {
      g_clear_pointer (&out->data, g_bytes_unref);
      return damaged (out->first_row, error);
    }

  return TRUE;
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

/* The flags of a region; 0 when there is no such region (a JOIN drops the row) */
static inline guint
region_flags (const P2pData *data,
              gint64         region)
{
  if (region == SEXTANT_NULL)
    return 0;

  return GPOINTER_TO_UINT (g_hash_table_lookup (data->regions, GSIZE_TO_POINTER ((gsize)region)));
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
static gboolean
next_visit (const P2pData *data,
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

typedef struct
{
  guint32 key;
  guint32 index;
} RadixItem;

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

/* Compares the values @a and @b of two rows by the columns @keys[0 .. @n)
 * in turn, -1 - c for column c descending */
static int
compare_columns (const gint64 *a,
                 const gint64 *b,
                 const int    *keys,
                 guint         n)
{
  for (guint k = 0; k < n; k++)
    {
      guint c = keys[k] >= 0 ? (guint)keys[k] : (guint)(-1 - keys[k]);

      if (a[c] != b[c])
        return (a[c] < b[c]) == (keys[k] >= 0) ? -1 : 1;
    }

  return 0;
}

/* Compares the rows @a and @b (indexes into @rows) of the same call */
typedef int (*RowCompare) (gconstpointer  rows,
                           guint          a,
                           guint          b);

/* The order of @n rows by the call they belong to (@items: the position of
 * the call among the visits and the row's index, changed), then by
 * @compare within a call: row indexes into @order. The rows stay where they
 * are (a sort that moves rows spends its time copying them). */
static void
order_by_call (RadixItem      *items,
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

/* order_by_call() of @n rows of gint64 values, @stride a row, whose call's
 * position is in column @position_col */
static void
order_rows_by_call (const gint64  *base,
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
  order_by_call (items, n, compare, base, order);
}

/* Keeps, of the rows @order[0 .. @n) of each group (equal @group_col, in
 * the order in which the former query's GROUP BY took the first of the
 * largest), those that are the group's first qualifying one for some eager
 * limit E - a row qualifies when its sync column is 1 or its bytes >= E -
 * and sets their @earlier_col: the largest bytes of the group's earlier rows
 * that are not sync (NULL for none). A row is the group's choice for E if it
 * qualifies and its @earlier_col < E (or NULL). Returns how many rows are
 * kept, at the start of @order. */
static guint
keep_first_qualifying (gint64   *base,
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
static gboolean
write_rows (SextantStore    *self,
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

/* The rows of the views ----------------------------------------------------------- */

/* receive_wait: its values, its flags and the position of its call among
 * the visits, which orders the rows */
enum { RW_LOC, RW_VISIT, RW_ENTER, RW_MESSAGE, RW_PEER, RW_SEND_TIME, RW_IDLE, RW_LATER_SEND,
       RW_LATER_SEND_SAME, RW_RECV_LOC, RW_RECV_TIME, RW_N };

#define RECEIVE_WAIT_COLUMNS "loc, visit, enter, message, peer_loc, send_time, idle, later_send, " \
                             "later_send_same, charged, wo_buffered"
#define RECEIVE_WAIT_N_COLUMNS 11

typedef struct
{
  gint64   v[RW_N];      /* SEXTANT_NULL for NULL */
  guint32  position;
  guint8   test;         /* the call is MPI_Test* (or has no name) */
  guint8   multi;        /* MPI_Waitall, MPI_Waitsome (or no name) */
  guint8   charged;
  guint8   wo_buffered;
} ReceiveWaitRow;

/* early_wait_op */
enum { EW_WAIT, EW_LOC, EW_MESSAGE, EW_WENTER, EW_WLEAVE, EW_OWN_ENTER, EW_DT, EW_PEER_ENTER, EW_PEER,
       EW_BYTES, EW_SIDE, EW_SYNC, EW_EARLIER_BYTES, EW_N_WRITTEN, EW_POSITION = EW_N_WRITTEN, EW_N };

#define EARLY_WAIT_OP_COLUMNS "wait, loc, message, wenter, wleave, own_enter, dt, peer_enter, peer, bytes, " \
                              "side TEXT receive send, sync, earlier_bytes"

typedef struct
{
  gint64 v[EW_N];
} EarlyWaitOp;

/* late_receiver_send */
enum { LR_LOC, LR_VISIT, LR_SEVERITY, LR_BEGIN, LR_END, LR_PEER_LOC, LR_MESSAGE, LR_BYTES, LR_SYNC,
       LR_BEATEN_BYTES, LR_N_WRITTEN, LR_MULTI = LR_N_WRITTEN, LR_POSITION, LR_N };

#define LATE_RECEIVER_SEND_COLUMNS "loc, visit, severity, begin, \"end\", peer_loc, message, bytes, sync, " \
                                   "beaten_bytes"

typedef struct
{
  gint64 v[LR_N];
} LateReceiverSend;

/* close_send_recv_pair */
enum { CS_LOC, CS_VISIT, CS_SEVERITY, CS_BEGIN, CS_END, CS_PEER_LOC, CS_MESSAGE, CS_GAP, CS_N_WRITTEN,
       CS_NEXT_POSITION = CS_N_WRITTEN, CS_N };

#define CLOSE_SEND_RECV_PAIR_COLUMNS "loc, visit, severity, begin, \"end\", peer_loc, message, gap"

typedef struct
{
  gint64 v[CS_N];
} CloseSendRecvPair;

/* The pass over the messages */
typedef struct
{
  const P2pData  *data;
  GArray         *receives;          /* ReceiveWaitRow */
  GArray         *ops;               /* EarlyWaitOp */
  guint8         *received_in;       /* the waits that complete a receive early_wait can take */
  guint32        *taken;             /* by wait: 1 + the index in ops of its first such receive, 0: none */
  GArray         *sends;             /* LateReceiverSend */
  guint8         *late_senders;      /* the MPI_Waitall / MPI_Waitsome calls with Late Sender time */
  GArray         *pairs;             /* CloseSendRecvPair */
  GArray         *blocking;          /* RadixItem: (position of a blocking receive's call, message index) */
  GArray         *blocking_peers;    /* gint64: the sender of each, by message index */
} P2pScan;

/* receive_wait's row of message @m: a row of
 *   SELECT rv.loc, rv.id, rv.enter, m.id, m.send_loc, m.send_time,
 *          min (sv.enter, rv.leave) - rv.enter, m.recv_loc, m.recv_time,
 *          r.name LIKE 'MPI_Test%', r.name IN ('MPI_Waitall', 'MPI_Waitsome')
 *   FROM message AS m JOIN visit AS rv ON rv.id = m.recv_visit
 *   JOIN visit AS sv ON sv.id = m.send_visit JOIN region AS r ON r.id = rv.region
 * (the view without its windows) */
static void
scan_receive_wait (P2pScan       *scan,
                   const Message *m,
                   const Visit   *rv,
                   const Visit   *sv,
                   guint          flags)
{
  ReceiveWaitRow row;

  row.v[RW_LOC] = rv->loc;
  row.v[RW_VISIT] = rv->id;
  row.v[RW_ENTER] = rv->enter;
  row.v[RW_MESSAGE] = m->id;
  row.v[RW_PEER] = m->v[SEXTANT_MESSAGE_SEND_LOC];
  row.v[RW_SEND_TIME] = m->v[SEXTANT_MESSAGE_SEND_TIME];
  row.v[RW_IDLE] = sql_sub (sql_min (sv->enter, rv->leave), rv->enter);
  row.v[RW_RECV_LOC] = m->v[SEXTANT_MESSAGE_RECV_LOC];
  row.v[RW_RECV_TIME] = m->v[SEXTANT_MESSAGE_RECV_TIME];
  row.v[RW_LATER_SEND] = SEXTANT_NULL;
  row.v[RW_LATER_SEND_SAME] = SEXTANT_NULL;
  /* SQL's NULL for a call without a name: true for C, as the tests below
   * read them */
  row.test = (flags & (R_NULL | R_TEST)) != 0;
  row.multi = (flags & (R_NULL | R_MULTI)) != 0;
  row.charged = 0;
  row.wo_buffered = 0;
  row.position = (guint32)rv->position;
  g_array_append_val (scan->receives, row);
}

/* early_wait_op's operations of message @m, as early_wait's former query
 * joined them (without its eager limit):
 *   receive side: m (recv_mode NONBLOCKING) completed in the call w =
 *     recv_visit (not MPI_Test*), posted in p = recv_post_visit, sent in
 *     s = send_visit (all three must exist); peer_enter = s.enter; only the
 *     first receive of a call (by message id) can be its instance
 *   send side: m (send_mode NONBLOCKING) sent in p = send_visit (not
 *     MPI_Ibsend) and completed in w = send_complete_visit (not MPI_Test*);
 *     peer_enter = the enter of the receive's post (or receive) call, 0
 *     without one; sync = p is MPI_Issend
 * dt = p.leave - p.enter. */
static inline gboolean
early_wait_receives (const P2pData *data,
                     const Message *m,
                     const Visit   *recv,
                     const Visit   *send,
                     const Visit   *post)
{
  guint wf;

  return m->v[SEXTANT_MESSAGE_RECV_MODE] == SEXTANT_MODE_NONBLOCKING && recv != NULL && post != NULL &&
         send != NULL && ((wf = region_flags (data, recv->region)) & R_EXISTS) && !(wf & (R_NULL | R_TEST));
}

/* The waits whose receives early_wait can take (the first pass: a wait's
 * sends count only when it completes no such receive) */
static void
scan_early_wait_receives (P2pScan       *scan,
                          const Message *m,
                          const Visit   *recv,
                          const Visit   *send,
                          const Visit   *post)
{
  if (early_wait_receives (scan->data, m, recv, send, post))
    bit_set (scan->received_in, recv->position);
}

static void
scan_early_wait (P2pScan       *scan,
                 const Message *m,
                 const Visit   *recv,
                 const Visit   *send,
                 const Visit   *post,
                 const Visit   *complete)
{
  const P2pData *data = scan->data;
  guint wf, cf;

  if (early_wait_receives (data, m, recv, send, post))
    {
      EarlyWaitOp op = { { recv->id, m->v[SEXTANT_MESSAGE_RECV_LOC], m->id, recv->enter, recv->leave,
                           post->enter, sql_sub (post->leave, post->enter), send->enter,
                           m->v[SEXTANT_MESSAGE_SEND_LOC], m->v[SEXTANT_MESSAGE_BYTES], 0, 1, SEXTANT_NULL,
                           recv->position } };
      guint32 *taken = &scan->taken[recv->position];
      EarlyWaitOp *kept;

      /* a wait's first receive in the order they were posted (then by
       * sender): not by message id, which is the order of matching, and
       * another on each shard of a parallel import */
      if (*taken == 0)
        {
          g_array_append_val (scan->ops, op);
          *taken = scan->ops->len;
        }
      else if (kept = &g_array_index (scan->ops, EarlyWaitOp, *taken - 1),
               op.v[EW_OWN_ENTER] < kept->v[EW_OWN_ENTER] ||
               (op.v[EW_OWN_ENTER] == kept->v[EW_OWN_ENTER] && op.v[EW_PEER] < kept->v[EW_PEER]))
        *kept = op;
    }
  if (m->v[SEXTANT_MESSAGE_SEND_MODE] == SEXTANT_MODE_NONBLOCKING && complete != NULL && send != NULL &&
      !bit_get (scan->received_in, complete->position) &&
      ((cf = region_flags (data, send->region)) & R_EXISTS) && !(cf & (R_NULL | R_IBSEND)) &&
      ((wf = region_flags (data, complete->region)) & R_EXISTS) && !(wf & (R_NULL | R_TEST)))
    {
      const Visit *r = m->v[SEXTANT_MESSAGE_RECV_POST_VISIT] != SEXTANT_NULL ? post : recv;
      EarlyWaitOp op = { { complete->id, m->v[SEXTANT_MESSAGE_SEND_LOC], m->id, complete->enter, complete->leave,
                           send->enter, sql_sub (send->leave, send->enter),
                           r != NULL && r->enter != SEXTANT_NULL ? r->enter : 0,
                           m->v[SEXTANT_MESSAGE_RECV_LOC], m->v[SEXTANT_MESSAGE_BYTES], 1, (cf & R_ISSEND) != 0,
                           SEXTANT_NULL, complete->position } };

      g_array_append_val (scan->ops, op);
    }
}

/* late_receiver_send's message @m, as late_receiver's former query joined
 * it: the call that completes its send sv = coalesce (send_complete_visit,
 * send_visit) (MPI_Send, MPI_Ssend, MPI_Wait, MPI_Waitany; or MPI_Waitall,
 * MPI_Waitsome unless it has Late Sender time) left after the receive's
 * post (or receive) call rv = coalesce (recv_post_visit, recv_visit)
 * entered, which entered after sv: severity = rv.enter - sv.enter; sync =
 * the send call is MPI_Ssend or MPI_Issend. And the calls with Late Sender
 * time: an MPI_Waitall / MPI_Waitsome w that completes a receive with
 * min (enter(send call), w.leave) > w.enter. */
static void
scan_late_receiver (P2pScan       *scan,
                    const Message *m,
                    const Visit   *recv,
                    const Visit   *send,
                    const Visit   *post,
                    const Visit   *complete)
{
  const P2pData *data = scan->data;
  const Visit *sv = m->v[SEXTANT_MESSAGE_SEND_COMPLETE_VISIT] != SEXTANT_NULL ? complete : send;
  const Visit *rv = m->v[SEXTANT_MESSAGE_RECV_POST_VISIT] != SEXTANT_NULL ? post : recv;
  guint rf, cf;

  if (recv != NULL && send != NULL && (region_flags (data, recv->region) & R_MULTI))
    {
      gint64 until = sql_min (send->enter, recv->leave);

      if (until != SEXTANT_NULL && recv->enter != SEXTANT_NULL && until > recv->enter)
        bit_set (scan->late_senders, recv->position);
    }

  if (sv != NULL && rv != NULL && send != NULL &&
      ((rf = region_flags (data, sv->region)) & (R_SINGLE | R_MULTI)) &&
      ((cf = region_flags (data, send->region)) & R_EXISTS) &&
      sv->leave != SEXTANT_NULL && rv->enter != SEXTANT_NULL && sv->enter != SEXTANT_NULL &&
      sv->leave > rv->enter && rv->enter > sv->enter)
    {
      LateReceiverSend row = { { sv->loc, sv->id, rv->enter - sv->enter, sv->enter, rv->enter,
                                 m->v[SEXTANT_MESSAGE_RECV_LOC], m->id, m->v[SEXTANT_MESSAGE_BYTES],
                                 (cf & (R_SSEND | R_ISSEND)) != 0, SEXTANT_NULL, (rf & R_MULTI) != 0,
                                 sv->position } };

      g_array_append_val (scan->sends, row);
    }
}

/* close_send_recv_pair's message @m: a blocking send to another location
 * that was received, in v = send_visit, whose next call on its level n
 * (next_visit()) entered after it left: severity = min (v's duration, n's
 * duration), gap = n.enter - v.leave; or a blocking receive, with its
 * sender (the former query's recvs) */
static void
scan_blocking_receive (P2pScan       *scan,
                       const Message *m,
                       const Visit   *recv)
{
  gint64 send_loc = m->v[SEXTANT_MESSAGE_SEND_LOC];

  if (m->v[SEXTANT_MESSAGE_RECV_MODE] == SEXTANT_MODE_BLOCKING && send_loc != SEXTANT_NULL &&
      m->v[SEXTANT_MESSAGE_SEND_TIME] != SEXTANT_NULL && recv != NULL)
    {
      RadixItem item = { (guint32)recv->position, scan->blocking_peers->len };

      g_array_append_val (scan->blocking, item);
      g_array_append_val (scan->blocking_peers, send_loc);
    }
}

/* Whether the call at @position received blocking from @peer: a search of
 * the blocking receives, sorted by call */
static gboolean
received_blocking (const P2pScan *scan,
                   guint32        position,
                   gint64         peer)
{
  const RadixItem *items = (const RadixItem *)scan->blocking->data;
  guint lo = 0, hi = scan->blocking->len;

  /* the first receive in the call */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (items[mid].key < position)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < scan->blocking->len && items[lo].key == position; lo++)
    if (g_array_index (scan->blocking_peers, gint64, items[lo].index) == peer)
      return TRUE;

  return FALSE;
}

static void
scan_close_send_recv (P2pScan       *scan,
                      const Message *m,
                      const Visit   *send)
{
  gint64 send_loc = m->v[SEXTANT_MESSAGE_SEND_LOC];
  gint64 recv_loc = m->v[SEXTANT_MESSAGE_RECV_LOC];
  Visit n;

  if (m->v[SEXTANT_MESSAGE_SEND_MODE] == SEXTANT_MODE_BLOCKING && recv_loc != SEXTANT_NULL &&
      m->v[SEXTANT_MESSAGE_RECV_TIME] != SEXTANT_NULL && send_loc != SEXTANT_NULL && recv_loc != send_loc &&
      send != NULL && next_visit (scan->data, send, send_loc, &n) &&
      n.enter != SEXTANT_NULL && send->leave != SEXTANT_NULL && n.enter >= send->leave)
    {
      gint64 severity = sql_min (sql_sub (send->leave, send->enter), sql_sub (n.leave, n.enter));
      CloseSendRecvPair pair = { { send_loc, send->id, severity, send->enter, send->leave, recv_loc, m->id,
                                   n.enter - send->leave, n.position } };

      if (severity != SEXTANT_NULL && received_blocking (scan, (guint32)n.position, recv_loc))
        g_array_append_val (scan->pairs, pair);
    }
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
            scan_receive_wait (ms->scan, &m, &recv, &send, flags);
          has_post = visit_get (data, m.v[SEXTANT_MESSAGE_RECV_POST_VISIT], &post);
          scan_early_wait_receives (ms->scan, &m, has_recv ? &recv : NULL, has_send ? &send : NULL,
                                    has_post ? &post : NULL);
          scan_blocking_receive (ms->scan, &m, has_recv ? &recv : NULL);
          continue;
        }
      has_post = visit_get (data, m.v[SEXTANT_MESSAGE_RECV_POST_VISIT], &post);
      has_complete = visit_get (data, m.v[SEXTANT_MESSAGE_SEND_COMPLETE_VISIT], &complete);
      scan_early_wait (ms->scan, &m, has_recv ? &recv : NULL, has_send ? &send : NULL, has_post ? &post : NULL,
                       has_complete ? &complete : NULL);
      scan_late_receiver (ms->scan, &m, has_recv ? &recv : NULL, has_send ? &send : NULL,
                          has_post ? &post : NULL, has_complete ? &complete : NULL);
      scan_close_send_recv (ms->scan, &m, has_send ? &send : NULL);
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

/* The Late Sender instances Scalasca's mpi_latesender_wo keeps to compare
 * with later receives: the most recent ones, the oldest dropped first. */
#define SCALASCA_WRONG_ORDER_BUFFER 100

/* later_send and later_send_same of the rows [first, end) of one location,
 * in receive order (finish_receive_wait()): the groups of one call from the latest
 * backwards, each gets the earliest send of the groups after it, from anyone
 * and from its own sender. */
static void
receive_wait_later_sends (ReceiveWaitRow *rows,
                          const guint32  *order,
                          guint           first,
                          guint           end)
{
  gint64 earliest = SEXTANT_NULL;     /* of the later groups */
  g_autoptr(GHashTable) earliest_from = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  for (guint group_end = end; group_end > first;)
    {
      gint64 visit = rows[order[group_end - 1]].v[RW_VISIT];
      gint64 group_earliest = SEXTANT_NULL;
      guint group = group_end;

      for (; group > first && rows[order[group - 1]].v[RW_VISIT] == visit; group--)
        {
          ReceiveWaitRow *row = &rows[order[group - 1]];
          gint64 send = row->v[RW_SEND_TIME];
          gint64 *from = g_hash_table_lookup (earliest_from, &row->v[RW_PEER]);

          row->v[RW_LATER_SEND] = earliest;
          row->v[RW_LATER_SEND_SAME] = from != NULL ? *from : SEXTANT_NULL;
          if (send != SEXTANT_NULL && (group_earliest == SEXTANT_NULL || send < group_earliest))
            group_earliest = send;
        }
      if (group_earliest != SEXTANT_NULL && (earliest == SEXTANT_NULL || group_earliest < earliest))
        earliest = group_earliest;
      /* the group's sends count for the groups before it only */
      for (guint k = group; k < group_end; k++)
        {
          const ReceiveWaitRow *row = &rows[order[k]];
          gint64 *from = g_hash_table_lookup (earliest_from, &row->v[RW_PEER]);

          if (row->v[RW_SEND_TIME] == SEXTANT_NULL)
            continue;
          if (from == NULL)
            g_hash_table_insert (earliest_from, g_memdup2 (&row->v[RW_PEER], sizeof (gint64)),
                                 g_memdup2 (&row->v[RW_SEND_TIME], sizeof (gint64)));
          else if (row->v[RW_SEND_TIME] < *from)
            *from = row->v[RW_SEND_TIME];
        }
      group_end = group;
    }
}

/* Scalasca's buffer of Late Sender instances: adds the row at @index (in
 * receive order), whose send is @send_time, dropping the oldest when it is
 * full; @bound stays at least the latest send among them. */
static void
wrong_order_buffer_push (GQueue *buffer,
                         gint64 *bound,
                         guint   index,
                         gint64  send_time)
{
  if (buffer->length == SCALASCA_WRONG_ORDER_BUFFER)
    g_queue_pop_head (buffer);
  g_queue_push_tail (buffer, GUINT_TO_POINTER (index));
  *bound = MAX (*bound, send_time);
}

/* charged and wo_buffered of the rows [first, end) of one location, in
 * receive order: the receive a call's Late Sender
 * time is charged to, and Scalasca's mpi_latesender_wo replayed - a Late
 * Sender instance enters the buffer at its receive (at the leave of an
 * MPI_Waitall / MPI_Waitsome, with its largest wait), and every receive
 * after it (MPI_Test* included) takes out of the buffer, as wrong order,
 * the instances whose send is recorded later than its own. */
static void
receive_wait_charge (ReceiveWaitRow *rows,
                     const guint32  *order,
                     guint           first,
                     guint           end)
{
  g_autoptr(GQueue) buffer = g_queue_new ();     /* row indexes, oldest first */
  gint64 bound = G_MININT64;                      /* no send in the buffer is later */

  for (guint i = first; i < end;)
    {
      gint64 visit = rows[order[i]].v[RW_VISIT];
      gboolean multi = rows[order[i]].multi != 0;
      gint64 max_idle = 0;
      guint charged = G_MAXUINT;

      for (; i < end && rows[order[i]].v[RW_VISIT] == visit; i++)
        {
          ReceiveWaitRow *row = &rows[order[i]];
          gboolean waits = !row->test && row->v[RW_IDLE] > 0;

          row->wo_buffered = 0;
          row->charged = !multi;
          if (multi && (charged == G_MAXUINT || row->v[RW_IDLE] > max_idle))
            {
              charged = i;
              max_idle = row->v[RW_IDLE];
            }
          if (waits && !multi)
            wrong_order_buffer_push (buffer, &bound, i, row->v[RW_SEND_TIME]);
          /* most receives find no later send in the buffer */
          if (bound <= row->v[RW_SEND_TIME])
            continue;
          bound = G_MININT64;
          for (GList *l = buffer->head; l != NULL;)
            {
              GList *next = l->next;
              ReceiveWaitRow *earlier = &rows[order[GPOINTER_TO_UINT (l->data)]];

              if (earlier->v[RW_SEND_TIME] > row->v[RW_SEND_TIME])
                {
                  earlier->wo_buffered = 1;
                  g_queue_delete_link (buffer, l);
                }
              else
                bound = MAX (bound, earlier->v[RW_SEND_TIME]);
              l = next;
            }
        }
      if (charged != G_MAXUINT)
        {
          ReceiveWaitRow *row = &rows[order[charged]];

          row->charged = 1;
          if (!row->test && row->v[RW_IDLE] > 0)
            wrong_order_buffer_push (buffer, &bound, charged, row->v[RW_SEND_TIME]);
        }
    }
}

/* a call's receives by record time, then message id */
static int
compare_receives (gconstpointer rows,
                  guint         i,
                  guint         j)
{
  static const int keys[] = { RW_RECV_TIME, RW_MESSAGE };
  const gint64 *a = ((const ReceiveWaitRow *)rows)[i].v, *b = ((const ReceiveWaitRow *)rows)[j].v;

  return compare_columns (a, b, keys, G_N_ELEMENTS (keys));
}

/* the receive order with the receiving location first, for messages whose
 * recv_loc is not the location of the call */
static int
compare_receives_by_location (const void *x,
                              const void *y)
{
  static const int keys[] = { RW_RECV_LOC, RW_VISIT, RW_RECV_TIME, RW_MESSAGE };
  const gint64 *a = (*(ReceiveWaitRow * const *)x)->v, *b = (*(ReceiveWaitRow * const *)y)->v;

  return compare_columns (a, b, keys, G_N_ELEMENTS (keys));
}

typedef struct
{
  const ReceiveWaitRow  *rows;
  const guint32         *order;
} ReceiveWaitGather;

/* The rows of receive_wait, in the order of its columns */
static void
receive_wait_gather (gsize           first,
                     guint           n,
                     gint64 * const *columns,
                     gpointer        user_data)
{
  const ReceiveWaitGather *g = user_data;

  for (guint r = 0; r < n; r++)
    {
      const ReceiveWaitRow *row = &g->rows[g->order[first + r]];

      for (guint c = RW_LOC; c <= RW_LATER_SEND_SAME; c++)
        columns[c][r] = row->v[c];
      columns[RW_LATER_SEND_SAME + 1][r] = row->charged;
      columns[RW_LATER_SEND_SAME + 2][r] = row->wo_buffered;
    }
}

/* receive_wait from the rows of scan_receive_wait(), with
 *   later_send = min (send_time) OVER (PARTITION BY recv_loc ORDER BY
 *                recv_visit DESC GROUPS BETWEEN UNBOUNDED PRECEDING AND 1
 *                PRECEDING)
 *   later_send_same = the same, PARTITION BY recv_loc, send_loc
 *   charged = the largest idle of an MPI_Waitall / MPI_Waitsome, else 1
 *   wo_buffered = Scalasca's buffered wrong order (receive_wait_charge())
 * as a sort and two passes per location. */
static gboolean
finish_receive_wait (SextantStore  *self,
                     GArray        *rows,
                     GError       **error)
{
  ReceiveWaitRow *base = (ReceiveWaitRow *)rows->data;
  g_autofree guint32 *order = g_new (guint32, MAX (rows->len, 1));
  guint written = 0;

  /* the receive order of a location: calls in enter order, the receives of
   * a call by record time, then message id */
  {
    g_autofree RadixItem *items = g_new (RadixItem, MAX (rows->len, 1));

    for (guint i = 0; i < rows->len; i++)
      items[i] = (RadixItem) { base[i].position, i };
    order_by_call (items, rows->len, compare_receives, base, order);
  }
  for (guint i = 1; i < rows->len; i++)
    if (base[order[i - 1]].v[RW_RECV_LOC] > base[order[i]].v[RW_RECV_LOC])
      {
        g_autofree ReceiveWaitRow **sorted = g_new (ReceiveWaitRow *, rows->len);

        for (guint k = 0; k < rows->len; k++)
          sorted[k] = &base[k];
        qsort (sorted, rows->len, sizeof (ReceiveWaitRow *), compare_receives_by_location);
        for (guint k = 0; k < rows->len; k++)
          order[k] = (guint32)(sorted[k] - base);
        break;
      }

  for (guint first = 0, end; first < rows->len; first = end)
    {
      gint64 loc = base[order[first]].v[RW_RECV_LOC];

      if (sextant_store_set_error_if_cancelled (self, error))
        return FALSE;
      for (end = first; end < rows->len && base[order[end]].v[RW_RECV_LOC] == loc; end++)
        ;
      receive_wait_later_sends (base, order, first, end);
      receive_wait_charge (base, order, first, end);
    }

  /* the receives completed in MPI_Test* go: they were only later receives */
  for (guint i = 0; i < rows->len; i++)
    if (!base[order[i]].test)
      order[written++] = order[i];

  {
    ReceiveWaitGather g = { base, order };

    return sextant_store_write_temp_columns (self, "receive_wait", RECEIVE_WAIT_COLUMNS, RECEIVE_WAIT_N_COLUMNS,
                                             written, receive_wait_gather, &g, error);
  }
}

/* a wait's operations as the former query read them: its receives, then
 * its sends, by message id */
static int
compare_operations (gconstpointer rows,
                    guint         i,
                    guint         j)
{
  static const int keys[] = { EW_SIDE, EW_MESSAGE };
  const gint64 *a = ((const EarlyWaitOp *)rows)[i].v, *b = ((const EarlyWaitOp *)rows)[j].v;

  return compare_columns (a, b, keys, G_N_ELEMENTS (keys));
}

/* early_wait_op: per wait call, the operations early_wait can report - of a
 * call that completes a receive, its first receive (it comes first, and
 * every operation of a call has the call's severity); else its sends up to
 * the first MPI_Issend, each with earlier_bytes (keep_first_qualifying()).
 * In wait order. */
static gboolean
finish_early_wait_op (SextantStore  *self,
                      GArray        *ops,
                      GError       **error)
{
  guint kept;

  {
    g_autofree guint32 *order = g_new (guint32, MAX (ops->len, 1));

    order_rows_by_call ((const gint64 *)ops->data, EW_N, ops->len, EW_POSITION, compare_operations, order);
    kept = keep_first_qualifying ((gint64 *)ops->data, EW_N, order, ops->len, EW_WAIT, EW_BYTES, EW_SYNC,
                                  EW_EARLIER_BYTES);

    return write_rows (self, "early_wait_op", EARLY_WAIT_OP_COLUMNS, ops, sizeof (EarlyWaitOp), order, kept,
                       EW_N_WRITTEN, error);
  }
}

/* a call's messages from the largest severity down, then by message id:
 * the first of them that qualifies is the one the former query's max ()
 * took */
static int
compare_late_receives (gconstpointer rows,
                       guint         i,
                       guint         j)
{
  static const int keys[] = { -1 - LR_SEVERITY, LR_MESSAGE };
  const gint64 *a = ((const LateReceiverSend *)rows)[i].v, *b = ((const LateReceiverSend *)rows)[j].v;

  return compare_columns (a, b, keys, G_N_ELEMENTS (keys));
}

/* late_receiver_send: per call that completes sends and waited for a
 * receiver, the messages late_receiver can report - from the largest
 * severity down, those up to the first sync one, each with beaten_bytes,
 * the largest bytes of the call's messages before it that are not sync
 * (keep_first_qualifying()). An MPI_Waitall / MPI_Waitsome with Late Sender
 * time is charged to that instead. In call order. */
static gboolean
finish_late_receiver_send (SextantStore  *self,
                           GArray        *sends,
                           const guint8  *late_senders,
                           GError       **error)
{
  guint kept = 0;

  for (guint i = 0; i < sends->len; i++)
    {
      const LateReceiverSend *send = &g_array_index (sends, LateReceiverSend, i);

      if (!send->v[LR_MULTI] || !bit_get (late_senders, send->v[LR_POSITION]))
        {
          if (kept != i)
            g_array_index (sends, LateReceiverSend, kept) = *send;
          kept++;
        }
    }
  g_array_set_size (sends, kept);
  {
    g_autofree guint32 *order = g_new (guint32, MAX (sends->len, 1));

    order_rows_by_call ((const gint64 *)sends->data, LR_N, sends->len, LR_POSITION, compare_late_receives, order);
    kept = keep_first_qualifying ((gint64 *)sends->data, LR_N, order, sends->len, LR_VISIT, LR_BYTES, LR_SYNC,
                                  LR_BEATEN_BYTES);

    return write_rows (self, "late_receiver_send", LATE_RECEIVER_SEND_COLUMNS, sends, sizeof (LateReceiverSend),
                       order, kept, LR_N_WRITTEN, error);
  }
}

/* close_send_recv_pair: the pairs of scan_close_send_recv(), in message
 * order */
static gboolean
finish_close_send_recv_pair (SextantStore  *self,
                             GArray        *pairs,
                             GError       **error)
{
  g_autofree guint32 *order = g_new (guint32, MAX (pairs->len, 1));

  for (guint i = 0; i < pairs->len; i++)
    order[i] = i;

  return write_rows (self, "close_send_recv_pair", CLOSE_SEND_RECV_PAIR_COLUMNS, pairs,
                     sizeof (CloseSendRecvPair), order, pairs->len, CS_N_WRITTEN, error);
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
      !finish_receive_wait (self, receives, error))
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
      !finish_early_wait_op (self, ops, error) ||
      sextant_store_set_error_if_cancelled (self, error) ||
      !finish_late_receiver_send (self, sends, late_senders, error) ||
      sextant_store_set_error_if_cancelled (self, error) ||
      !finish_close_send_recv_pair (self, pairs, error))
    return FALSE;

  g_debug ("point-to-point views: %" G_GINT64_FORMAT " messages", n_messages);

  return TRUE;
}

/**
 * _sextant_store_fill_p2p_views:
 *
 * Fills, in one pass over the messages and visits, temp.receive_wait with
 * exactly the rows of the view of schema-1.sql and wo_buffered
 * (finish_receive_wait()), temp.early_wait_op (finish_early_wait_op()),
 * temp.late_receiver_send (finish_late_receiver_send()) and
 * temp.close_send_recv_pair (finish_close_send_recv_pair()). Does nothing
 * when they are there already.
 */
gboolean
_sextant_store_fill_p2p_views (SextantStore  *self,
                               GError       **error)
{
  return fill_p2p_views (self, error);
}
