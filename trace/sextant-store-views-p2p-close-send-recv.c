/*
 * sextant-store-views-p2p-close-send-recv.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * temp.close_send_recv_pair: the blocking sends followed by a blocking
 * receive from the same peer (close_send_recv).
 */
#include "config.h"

#include "sextant-store-views-p2p-private.h"

/* close_send_recv_pair's message @m: a blocking send to another location
 * that was received, in v = send_visit, whose next call on its level n
 * (_sextant_p2p_next_visit()) entered after it left: severity = min (v's
 * duration, n's duration), gap = n.enter - v.leave; or a blocking receive,
 * with its sender (the former query's recvs) */
void
_sextant_p2p_scan_blocking_receive (P2pScan       *scan,
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

void
_sextant_p2p_scan_close_send_recv (P2pScan       *scan,
                                   const Message *m,
                                   const Visit   *send)
{
  gint64 send_loc = m->v[SEXTANT_MESSAGE_SEND_LOC];
  gint64 recv_loc = m->v[SEXTANT_MESSAGE_RECV_LOC];
  Visit n;

  if (m->v[SEXTANT_MESSAGE_SEND_MODE] == SEXTANT_MODE_BLOCKING && recv_loc != SEXTANT_NULL &&
      m->v[SEXTANT_MESSAGE_RECV_TIME] != SEXTANT_NULL && send_loc != SEXTANT_NULL && recv_loc != send_loc &&
      send != NULL && _sextant_p2p_next_visit (scan->data, send, send_loc, &n) &&
      n.enter != SEXTANT_NULL && send->leave != SEXTANT_NULL && n.enter >= send->leave)
    {
      gint64 severity = sql_min (sql_sub (send->leave, send->enter), sql_sub (n.leave, n.enter));
      CloseSendRecvPair pair = { { send_loc, send->id, severity, send->enter, send->leave, recv_loc, m->id,
                                   n.enter - send->leave, n.position } };

      if (severity != SEXTANT_NULL && received_blocking (scan, (guint32)n.position, recv_loc))
        g_array_append_val (scan->pairs, pair);
    }
}

/* close_send_recv_pair: the pairs of _sextant_p2p_scan_close_send_recv(),
 * in message order */
gboolean
_sextant_p2p_finish_close_send_recv_pair (SextantStore  *self,
                                          GArray        *pairs,
                                          GError       **error)
{
  g_autofree guint32 *order = g_new (guint32, MAX (pairs->len, 1));

  for (guint i = 0; i < pairs->len; i++)
    order[i] = i;

  return _sextant_p2p_write_rows (self, "close_send_recv_pair", CLOSE_SEND_RECV_PAIR_COLUMNS, pairs,
                                  sizeof (CloseSendRecvPair), order, pairs->len, CS_N_WRITTEN, error);
}
