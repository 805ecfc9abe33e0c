/*
 * sextant-store-views-p2p-early-wait.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * temp.early_wait_op: per MPI_Wait* call, the operations it completes
 * (a non-blocking receive's or send's) that can be early_wait's instance.
 */
#include "config.h"

#include "sextant-store-views-p2p-private.h"

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
void
_sextant_p2p_scan_early_wait_receives (P2pScan       *scan,
                                       const Message *m,
                                       const Visit   *recv,
                                       const Visit   *send,
                                       const Visit   *post)
{
  if (early_wait_receives (scan->data, m, recv, send, post))
    bit_set (scan->received_in, recv->position);
}

void
_sextant_p2p_scan_early_wait (P2pScan       *scan,
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
 * the first MPI_Issend, each with earlier_bytes
 * (_sextant_p2p_keep_first_qualifying()). In wait order. */
gboolean
_sextant_p2p_finish_early_wait_op (SextantStore  *self,
                                   GArray        *ops,
                                   GError       **error)
{
  guint kept;

  {
    g_autofree guint32 *order = g_new (guint32, MAX (ops->len, 1));

    _sextant_p2p_order_rows_by_call ((const gint64 *)ops->data, EW_N, ops->len, EW_POSITION,
                                     compare_operations, order);
    kept = _sextant_p2p_keep_first_qualifying ((gint64 *)ops->data, EW_N, order, ops->len, EW_WAIT,
                                               EW_BYTES, EW_SYNC, EW_EARLIER_BYTES);

    return _sextant_p2p_write_rows (self, "early_wait_op", EARLY_WAIT_OP_COLUMNS, ops, sizeof (EarlyWaitOp),
                                    order, kept, EW_N_WRITTEN, error);
  }
}
