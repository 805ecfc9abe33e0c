/*
 * sextant-store-views-p2p-receive-wait.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * temp.receive_wait, the view of schema-1.sql (late_sender, its
 * wrong-order child, wrong_order, the master-worker patterns): its row of
 * each received message, then per location in receive order the later
 * sends, the time charged and wo_buffered (Scalasca's wrong-order buffer).
 */
#include "config.h"

#include "sextant-store-views-p2p-private.h"

/* receive_wait's row of message @m: a row of
 *   SELECT rv.loc, rv.id, rv.enter, m.id, m.send_loc, m.send_time,
 *          min (sv.enter, rv.leave) - rv.enter, m.recv_loc, m.recv_time,
 *          r.name LIKE 'MPI_Test%', r.name IN ('MPI_Waitall', 'MPI_Waitsome')
 *   FROM message AS m JOIN visit AS rv ON rv.id = m.recv_visit
 *   JOIN visit AS sv ON sv.id = m.send_visit JOIN region AS r ON r.id = rv.region
 * (the view without its windows) */
void
_sextant_p2p_scan_receive_wait (P2pScan       *scan,
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

/* The Late Sender instances Scalasca's mpi_latesender_wo keeps to compare
 * with later receives: the most recent ones, the oldest dropped first. */
#define SCALASCA_WRONG_ORDER_BUFFER 100

/* later_send and later_send_same of the rows [first, end) of one location,
 * in receive order (_sextant_p2p_finish_receive_wait()): the groups of one
 * call from the latest backwards, each gets the earliest send of the groups
 * after it, from anyone and from its own sender. */
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

/* receive_wait from the rows of _sextant_p2p_scan_receive_wait(), with
 *   later_send = min (send_time) OVER (PARTITION BY recv_loc ORDER BY
 *                recv_visit DESC GROUPS BETWEEN UNBOUNDED PRECEDING AND 1
 *                PRECEDING)
 *   later_send_same = the same, PARTITION BY recv_loc, send_loc
 *   charged = the largest idle of an MPI_Waitall / MPI_Waitsome, else 1
 *   wo_buffered = Scalasca's buffered wrong order (receive_wait_charge())
 * as a sort and two passes per location. */
gboolean
_sextant_p2p_finish_receive_wait (SextantStore  *self,
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
    _sextant_p2p_order_by_call (items, rows->len, compare_receives, base, order);
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
