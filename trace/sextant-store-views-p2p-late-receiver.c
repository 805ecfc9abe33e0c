/*
 * sextant-store-views-p2p-late-receiver.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * temp.late_receiver_send: per send-completing call, the messages that
 * can be late_receiver's instance.
 */
#include "config.h"

#include "sextant-store-views-p2p-private.h"

/* late_receiver_send's message @m, as late_receiver's former query joined
 * it: the call that completes its send sv = coalesce (send_complete_visit,
 * send_visit) (MPI_Send, MPI_Ssend, MPI_Wait, MPI_Waitany; or MPI_Waitall,
 * MPI_Waitsome unless it has Late Sender time) left after the receive's
 * post (or receive) call rv = coalesce (recv_post_visit, recv_visit)
 * entered, which entered after sv: severity = rv.enter - sv.enter; sync =
 * the send call is MPI_Ssend or MPI_Issend. And the calls with Late Sender
 * time: an MPI_Waitall / MPI_Waitsome w that completes a receive with
 * min (enter(send call), w.leave) > w.enter. */
void
_sextant_p2p_scan_late_receiver (P2pScan       *scan,
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
 * (_sextant_p2p_keep_first_qualifying()). An MPI_Waitall / MPI_Waitsome
 * with Late Sender time is charged to that instead. In call order. */
gboolean
_sextant_p2p_finish_late_receiver_send (SextantStore  *self,
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

    _sextant_p2p_order_rows_by_call ((const gint64 *)sends->data, LR_N, sends->len, LR_POSITION,
                                     compare_late_receives, order);
    kept = _sextant_p2p_keep_first_qualifying ((gint64 *)sends->data, LR_N, order, sends->len, LR_VISIT,
                                               LR_BYTES, LR_SYNC, LR_BEATEN_BYTES);

    return _sextant_p2p_write_rows (self, "late_receiver_send", LATE_RECEIVER_SEND_COLUMNS, sends,
                                    sizeof (LateReceiverSend), order, kept, LR_N_WRITTEN, error);
  }
}
