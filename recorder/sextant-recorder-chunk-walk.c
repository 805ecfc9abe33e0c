/*
 * sextant-recorder-chunk-walk.c - libotf2's event chunks, record by record.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * sextant-record-salvage (sextant-recorder-salvage.c) rebuilds a
 * location's events from the chunks a killed process left: the chunks it
 * flushed to its .evt file and those still in its crash journal. Each is
 * walked in order, record by record (timestamps, attribute lists, the
 * singleton records of OTF2 1.1 such as ENTER and LEAVE, and records with a
 * length byte), keeping the stack of open regions, up to the first record
 * that is not whole; the chunk is cut after its last whole event and its
 * header's event numbers are rewritten. The walk then appends the stop
 * region's visit and the LEAVEs of the regions still open, and ends the
 * location's last chunk as libotf2 ends a closed writer's.
 *
 * Workload: one pass over each chunk, in place; the stack of open regions.
 */
#include "config.h"

#include "sextant-recorder-private.h"

#include <string.h>

/* libotf2's chunk format (OTF2_Buffer.c) */
#define CHUNK_END 0
#define BUFFER_END 1
#define FILE_END 2
#define CHUNK_HEADER 3
#define CHUNK_HEADER_SIZE 18
#define RECORD_TIMESTAMP 5
#define RECORD_ATTRIBUTES 6
#define EVENT_ENTER 12
#define EVENT_LEAVE 13
#define LITTLE_ENDIAN_MARK 0x42


static uint64_t
get_u64 (const unsigned char *p)
{
  uint64_t v;

  memcpy (&v, p, 8);
  return v;
}

static int
all_zero (const unsigned char *p,
          size_t               len)
{
  for (size_t i = 0; i < len; i++)
    if (p[i] != 0)
      return 0;
  return 1;
}

/* Whether the data at @pos is the end that libotf2 writes when it closes
 * a writer: END_OF_FILE (libotf2 3), END_OF_BUFFER, then nothing. */
static int
closed_end (const unsigned char *c,
            size_t               pos,
            size_t               size)
{
  if (c[pos] == FILE_END)
    pos++;
  return pos < size && c[pos] == BUFFER_END && all_zero (c + pos + 1, size - pos - 1);
}

uint64_t
sextant__chunk_walk_next (unsigned char       *c,
                          size_t               size,
                          sextant__chunk_walk *w,
                          int                 *cut)
{
  size_t pos = CHUNK_HEADER_SIZE, commit = CHUNK_HEADER_SIZE;
  uint64_t pending = w->time, events = 0, first = w->n_events + 1, last;

  *cut = 0;
  if (size < CHUNK_HEADER_SIZE || c[0] != CHUNK_HEADER || c[1] != LITTLE_ENDIAN_MARK)
    return 0;
  while (pos < size)
    {
      unsigned char type = c[pos];

      /* the end of the written data; (END_OF_FILE,) END_OF_BUFFER end the
       * last chunk of a writer that libotf2 closed (a kill in MPI_Finalize) */
      if (type == CHUNK_END || closed_end (c, pos, size))
        break;
      if (type == RECORD_TIMESTAMP)
        {
          uint64_t t;

          if (size - pos <= 9 || (t = get_u64 (c + pos + 1)) < pending)
            {
              *cut = 1;
              break;
            }
          pending = t;
          pos += 9;
          continue;
        }
      if (type == EVENT_ENTER || type == EVENT_LEAVE || type == 16 || type == 17 || type == 20 ||
          type == 21 || type == 24 || (type >= 28 && type <= 30))
        {
          /* singleton: one compressed value, no length byte */
          unsigned n = size - pos > 1 ? c[pos + 1] : 0xfe;
          uint32_t value = 0;

          if (n == 0xff)
            {
              n = 0;
              value = UINT32_MAX;
            }
          if (n > 8 || size - pos <= 2 + n)
            {
              *cut = 1;
              break;
            }
          memcpy (&value, c + pos + 2, n > 4 ? 4 : n);
          /* a singleton cut after its type byte reads as region 0: an ENTER
           * of MPI_Init after the first event, or a LEAVE that does not
           * match - taken as cut only if nothing was written after it */
          if (((type == EVENT_ENTER && value == 0 && w->region0_is_init && w->n_events + events > 0) ||
               (type == EVENT_LEAVE && (w->depth == 0 || w->stack[w->depth - 1] != value))) &&
              all_zero (c + pos + 2 + n, size - pos - 2 - n))
            {
              *cut = 1;
              break;
            }
          if (type == EVENT_ENTER)
            {
              if (sextant__grow ((void **) &w->stack, &w->cap, w->depth + 1, sizeof *w->stack) != 0)
                {
                  w->failed = 1;
                  *cut = 1;
                  break;
                }
              w->stack[w->depth++] = value;
            }
          else if (type == EVENT_LEAVE && w->depth > 0 && w->stack[w->depth - 1] == value)
            w->depth--;               /* else the importer reports the mismatch */
          pos += 2 + n;
        }
      else if (type <= CHUNK_HEADER || type == 4)
        {
          *cut = 1;
          break;
        }
      else
        {
          /* a length byte, 0 until libotf2 finalises the record; 0xff: 8 more */
          uint64_t len = size - pos > 1 ? c[pos + 1] : 0;
          size_t head = 2;

          if (len == 0xff)
            {
              if (size - pos <= 10)
                {
                  *cut = 1;
                  break;
                }
              len = get_u64 (c + pos + 2);
              head = 10;
            }
          /* records without fields: MPI_COLLECTIVE_BEGIN, OMP_JOIN, RMA_COLLECTIVE_BEGIN */
          if ((len == 0 && type != 22 && type != 25 && type != 37) || len >= size - pos - head)
            {
              *cut = 1;
              break;
            }
          pos += head + (size_t) len;
          if (type == RECORD_ATTRIBUTES)
            continue;                 /* belongs to the event after it */
        }
      events++;
      commit = pos;
      w->time = pending;
    }
  memset (c + commit, 0, size - commit);
  w->end = commit;
  last = first + events - 1;
  memcpy (c + 2, &first, 8);
  memcpy (c + 10, &last, 8);
  w->n_events += events;
  return events;
}

static void
put_u32c (unsigned char **p,
          uint32_t        v)
{
  unsigned n = 0;

  if (v == 0 || v == UINT32_MAX)
    {
      *(*p)++ = v == 0 ? 0 : 0xff;
      return;
    }
  for (uint32_t x = v; x != 0; x >>= 8)
    n++;
  *(*p)++ = (unsigned char) n;
  memcpy (*p, &v, n);
  *p += n;
}

int
sextant__chunk_walk_append_stop (unsigned char       *c,
                                 size_t               size,
                                 sextant__chunk_walk *w,
                                 uint32_t             region,
                                 uint64_t             stop)
{
  size_t end = w->end;
  unsigned char *p;
  uint64_t last;

  if (size - end < 2 * 9 + 2 * 6 + w->depth * 6 + 2)
    return -1;
  p = c + end;
  *p++ = RECORD_TIMESTAMP;
  memcpy (p, &w->time, 8);
  p += 8;
  *p++ = EVENT_ENTER;
  put_u32c (&p, region);
  *p++ = RECORD_TIMESTAMP;
  memcpy (p, &stop, 8);
  p += 8;
  *p++ = EVENT_LEAVE;
  put_u32c (&p, region);
  for (size_t i = w->depth; i > 0; i--)
    {
      *p++ = EVENT_LEAVE;
      put_u32c (&p, w->stack[i - 1]);
    }
  w->n_events += 2 + w->depth;
  last = w->n_events;
  memcpy (c + 10, &last, 8);
  w->depth = 0;
  w->time = stop;
  w->end = (size_t) (p - c);
  return 0;
}

void
sextant__chunk_walk_new_chunk (unsigned char       *c,
                               size_t               size,
                               sextant__chunk_walk *w)
{
  uint64_t first = w->n_events + 1, last = w->n_events;

  memset (c, 0, size);
  c[0] = CHUNK_HEADER;
  c[1] = LITTLE_ENDIAN_MARK;
  memcpy (c + 2, &first, 8);
  memcpy (c + 10, &last, 8);
  w->end = CHUNK_HEADER_SIZE;
}

void
sextant__chunk_walk_close (unsigned char       *c,
                           sextant__chunk_walk *w)
{
  c[w->end] = FILE_END;
  c[w->end + 1] = BUFFER_END;
}
