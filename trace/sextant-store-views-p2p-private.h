/*
 * sextant-store-views-p2p-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the files of the point-to-point views: sextant-store-views-p2p.c
 * (the chunks of visit and message read into memory, the pass over the
 * messages, sorting rows by call and writing them out) and one file per
 * view family, each with its part of the pass and how it finishes its
 * rows: -receive-wait.c, -early-wait.c, -late-receiver.c,
 * -close-send-recv.c. For those files only.
 */
#pragma once

#include "sextant-chunk.h"
#include "sextant-store-views-p2p.h"

G_BEGIN_DECLS

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

/* The flags of a region; 0 when there is no such region (a JOIN drops the row) */
static inline guint
region_flags (const P2pData *data,
              gint64         region)
{
  if (region == SEXTANT_NULL)
    return 0;

  return GPOINTER_TO_UINT (g_hash_table_lookup (data->regions, GSIZE_TO_POINTER ((gsize)region)));
}

typedef struct
{
  guint32 key;
  guint32 index;
} RadixItem;

/* Compares the values @a and @b of two rows by the columns @keys[0 .. @n)
 * in turn, -1 - c for column c descending */
static inline int
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

/* In sextant-store-views-p2p.c */
gboolean _sextant_p2p_next_visit                  (const P2pData  *data,
                                                   const Visit    *v,
                                                   gint64          loc,
                                                   Visit          *out);
void     _sextant_p2p_order_by_call               (RadixItem      *items,
                                                   guint           n,
                                                   RowCompare      compare,
                                                   gconstpointer   rows,
                                                   guint32        *order);
void     _sextant_p2p_order_rows_by_call          (const gint64   *base,
                                                   gsize           stride,
                                                   guint           n,
                                                   guint           position_col,
                                                   RowCompare      compare,
                                                   guint32        *order);
guint    _sextant_p2p_keep_first_qualifying       (gint64         *base,
                                                   gsize           stride,
                                                   guint32        *order,
                                                   guint           n,
                                                   guint           group_col,
                                                   guint           bytes_col,
                                                   guint           sync_col,
                                                   guint           earlier_col);
gboolean _sextant_p2p_write_rows                  (SextantStore   *self,
                                                   const char     *name,
                                                   const char     *columns,
                                                   GArray         *rows,
                                                   gsize           row_size,
                                                   const guint32  *order,
                                                   guint           n,
                                                   guint           n_cols,
                                                   GError        **error);

/* Each family: its part of the pass over the messages (a message, and its
 * calls: NULL for one the message has not), then its rows written out */
/* In sextant-store-views-p2p-receive-wait.c */
void     _sextant_p2p_scan_receive_wait           (P2pScan        *scan,
                                                   const Message  *m,
                                                   const Visit    *rv,
                                                   const Visit    *sv,
                                                   guint           flags);
gboolean _sextant_p2p_finish_receive_wait         (SextantStore   *self,
                                                   GArray         *rows,
                                                   GError        **error);

/* In sextant-store-views-p2p-early-wait.c */
void     _sextant_p2p_scan_early_wait_receives    (P2pScan        *scan,
                                                   const Message  *m,
                                                   const Visit    *recv,
                                                   const Visit    *send,
                                                   const Visit    *post);
void     _sextant_p2p_scan_early_wait             (P2pScan        *scan,
                                                   const Message  *m,
                                                   const Visit    *recv,
                                                   const Visit    *send,
                                                   const Visit    *post,
                                                   const Visit    *complete);
gboolean _sextant_p2p_finish_early_wait_op        (SextantStore   *self,
                                                   GArray         *ops,
                                                   GError        **error);

/* In sextant-store-views-p2p-late-receiver.c */
void     _sextant_p2p_scan_late_receiver          (P2pScan        *scan,
                                                   const Message  *m,
                                                   const Visit    *recv,
                                                   const Visit    *send,
                                                   const Visit    *post,
                                                   const Visit    *complete);
gboolean _sextant_p2p_finish_late_receiver_send   (SextantStore   *self,
                                                   GArray         *sends,
                                                   const guint8   *late_senders,
                                                   GError        **error);

/* In sextant-store-views-p2p-close-send-recv.c */
void     _sextant_p2p_scan_blocking_receive       (P2pScan        *scan,
                                                   const Message  *m,
                                                   const Visit    *recv);
void     _sextant_p2p_scan_close_send_recv        (P2pScan        *scan,
                                                   const Message  *m,
                                                   const Visit    *send);
gboolean _sextant_p2p_finish_close_send_recv_pair (SextantStore   *self,
                                                   GArray         *pairs,
                                                   GError        **error);

G_END_DECLS
