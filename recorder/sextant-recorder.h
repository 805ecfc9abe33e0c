/*
 * sextant-recorder.h - the Sextant recorder: OTF2 traces of MPI programs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This header is the contract. What is not declared here is not part of the
 * recorder's API.
 *
 * What the recorder is
 * --------------------
 * A PMPI library: it defines MPI_Send, MPI_Bcast, MPI_Put, ... which write
 * OTF2 records around the real calls (PMPI_Send, ...). It is used in one of
 * two ways:
 *
 *  - linked into a program (the `sextant_recorder_dep` or, for programs that
 *    use onecoll, `sextant_recorder_onecoll_dep` meson dependencies). The
 *    program needs no change: its MPI_Init/MPI_Init_thread call starts the
 *    recorder (sextant_recorder_init_from_env()) and MPI_Finalize writes the
 *    archive (sextant_recorder_finalize());
 *  - preloaded into an unmodified MPI program by the `sextant-record`
 *    launcher (LD_PRELOAD of libsextant-record.so), for example
 *    `sextant-record -o trace mpirun -np 4 ./app`.
 *
 * The environment decides at MPI_Init:
 *   SEXTANT_RECORD=0            do not record (also "off", "no", "false");
 *   SEXTANT_RECORD_DIR=DIR      write the archive DIR/traces.otf2 (DIR is
 *                               created; an existing archive there is never
 *                               overwritten: recording is then disabled);
 *                               default ./sextant-trace-YYYYmmdd-HHMMSS-PID;
 *   SEXTANT_RECORD_CALLPATH=N   frames per calling context, 0..32 (default
 *                               8; 0 = only the call site of each MPI call);
 *   SEXTANT_RECORD_BUFFER=MIB   event memory per thread before it is flushed
 *                               to disk, 1..4096 MiB (default 16);
 *   SEXTANT_RECORD_CLOCK=MODE   auto (default), pingpong or none: see
 *                               docs/recorder.md, "Clocks";
 *   SEXTANT_RECORD_ONECOLL_POLLS=1  also record the MPI calls that onecoll
 *                               makes while it polls (off by default);
 *   SEXTANT_RECORD_VERBOSE=1    report the archive and clock offsets.
 *
 * Threads and errors
 * ------------------
 * Every thread that makes MPI calls gets its own OTF2 location. No function
 * of the recorder aborts, exits or crashes the host program: problems are
 * reported once on stderr with the prefix "sextant-record:" and recording
 * stops (on one thread, or on the whole process), while MPI calls keep
 * working. docs/recorder.md describes what is recorded and what survives a
 * crash.
 */
#ifndef SEXTANT_RECORDER_H
#define SEXTANT_RECORDER_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define SEXTANT_RECORDER_API __attribute__ ((visibility ("default")))
#else
#define SEXTANT_RECORDER_API
#endif

/* Result codes. SEXTANT_RECORDER_OK is 0, errors are negative and stable. */
typedef enum
{
  SEXTANT_RECORDER_OK = 0,
  SEXTANT_RECORDER_ERR_DISABLED = -1,   /* SEXTANT_RECORD=0 asked not to record */
  SEXTANT_RECORDER_ERR_STATE = -2,      /* MPI not initialised, recorder already started or finished */
  SEXTANT_RECORDER_ERR_IO = -3,         /* the archive directory cannot be created or is taken */
  SEXTANT_RECORDER_ERR_OTF2 = -4,       /* libotf2 failed */
  SEXTANT_RECORDER_ERR_NOMEM = -5,      /* out of memory */
  SEXTANT_RECORDER_ERR_MPI = -6,        /* an MPI call of the recorder itself failed */
  SEXTANT_RECORDER_ERR_ARG = -7,        /* an environment variable has an invalid value */
} sextant_recorder_status;

/* sextant_recorder_init_from_env:
 * Collective over MPI_COMM_WORLD; call it right after MPI_Init or
 * MPI_Init_thread (the recorder's MPI_Init wrappers do). Reads the
 * environment variables above, creates the archive and starts recording on
 * the calling thread. Every rank takes the same decision: if any rank fails,
 * no rank records.
 * Returns:
 *   SEXTANT_RECORDER_OK;
 *   SEXTANT_RECORDER_ERR_DISABLED  SEXTANT_RECORD=0 (on rank 0);
 *   SEXTANT_RECORDER_ERR_STATE     MPI is not initialised, or the recorder
 *                                  was started before in this process;
 *   SEXTANT_RECORDER_ERR_ARG       an invalid SEXTANT_RECORD_* value;
 *   SEXTANT_RECORDER_ERR_IO, SEXTANT_RECORDER_ERR_OTF2,
 *   SEXTANT_RECORDER_ERR_NOMEM, SEXTANT_RECORDER_ERR_MPI.
 * Errors other than DISABLED and STATE are also reported on stderr. */
SEXTANT_RECORDER_API int sextant_recorder_init_from_env (void);

/* sextant_recorder_finalize:
 * Collective over MPI_COMM_WORLD, before MPI_Finalize (the recorder's
 * MPI_Finalize wrapper calls it). Stops recording on every thread, measures
 * the clocks once more, unifies the definitions of all ranks and writes the
 * archive. Other threads must not make MPI calls during it.
 * Returns SEXTANT_RECORDER_OK, SEXTANT_RECORDER_ERR_STATE (not recording:
 * nothing is done and nothing is collective), SEXTANT_RECORDER_ERR_OTF2,
 * SEXTANT_RECORDER_ERR_NOMEM or SEXTANT_RECORDER_ERR_MPI (reported on
 * stderr; the archive is then incomplete). */
SEXTANT_RECORDER_API int sextant_recorder_finalize (void);

/* sextant_recorder_is_recording:
 * Returns 1 between a successful sextant_recorder_init_from_env() and
 * sextant_recorder_finalize(), else 0. Thread-safe. */
SEXTANT_RECORDER_API int sextant_recorder_is_recording (void);

/* sextant_recorder_archive:
 * Returns the absolute path of the anchor file being written
 * (".../traces.otf2"), or NULL when not recording. The string is owned by
 * the recorder and valid until MPI_Finalize returns. */
SEXTANT_RECORDER_API const char *sextant_recorder_archive (void);

/* sextant_recorder_strerror:
 * Returns a static English description of @err (any int). Thread-safe. */
SEXTANT_RECORDER_API const char *sextant_recorder_strerror (int err);

#ifdef __cplusplus
}
#endif

#endif /* SEXTANT_RECORDER_H */
