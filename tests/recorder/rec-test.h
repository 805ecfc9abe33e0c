/*
 * rec-test.h - helpers shared by the recorder's test programs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The programs are ordinary MPI programs; check-recording.py records them
 * and checks the archive. A program checks its own MPI results too: a
 * failed check prints one line and aborts the job, so a broken program
 * never passes as a "recorded" one.
 *
 * Lines marked with a comment CALLSITE:<function> are the call sites the
 * checker expects in the trace for <function> (an MPI function, or a
 * function of the program for calling contexts). Keep each marked call on
 * one line.
 */
#ifndef REC_TEST_H
#define REC_TEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int rec_rank = -1;

#define REC_FAIL(...)                                                        \
  do {                                                                       \
    fprintf (stderr, "FAIL [rank %d] %s:%d: ", rec_rank, __FILE__, __LINE__); \
    fprintf (stderr, __VA_ARGS__);                                           \
    fputc ('\n', stderr);                                                    \
    fflush (stderr);                                                         \
    MPI_Abort (MPI_COMM_WORLD, 1);                                           \
    exit (1);                                                                \
  } while (0)

#define REC_CHECK(cond, ...)                                                 \
  do {                                                                       \
    if (!(cond))                                                             \
      REC_FAIL (__VA_ARGS__);                                                \
  } while (0)

#define REC_MPI(call)                                                        \
  do {                                                                       \
    int rec_rc_ = (call);                                                    \
    if (rec_rc_ != MPI_SUCCESS)                                              \
      REC_FAIL ("%s returned %d", #call, rec_rc_);                           \
  } while (0)

static inline void
rec_sleep_ms (int ms)
{
  struct timespec ts = { ms / 1000, (long) (ms % 1000) * 1000000L };

  while (nanosleep (&ts, &ts) != 0)
    ;
}

static inline int
rec_init (int    *argc,
          char ***argv,
          int     min_size)
{
  int size;

  MPI_Init (argc, argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rec_rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  REC_CHECK (size >= min_size, "needs at least %d ranks, has %d", min_size, size);
  return size;
}

#endif /* REC_TEST_H */
