/*
 * sextant-import-worker.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs an import in a worker process and watches it: the guard around
 * libotf2 for the window.
 *
 * libotf2 reads what a damaged file says without doubting it, and where it
 * loops or crashes it takes the process that called it along. In the
 * window that process is the user's session. So the window's importer
 * starts `PROGRAM import --worker-into TMP ARCHIVE` (the same executable),
 * which fills the temporary store TMP that this process created and prints
 * one line per event on its standard output:
 *
 *   progress FRACTION EVENTS_PER_SECOND
 *   error DOMAIN CODE MESSAGE
 *   done
 *
 * and this side forwards the progress, turns a crash (a signal) or silence
 * for longer than the stall limit into a clear error, and kills the worker
 * at once when the import is cancelled. The caller owns TMP: it moves it
 * into place after a success and removes it after anything else, so no
 * outcome leaves a half store behind.
 *
 * Workload: one child process per import; the parent wakes once a second
 * and for each line (at most ten a second).
 */
#include "config.h"

#include <errno.h>
#include <glib-unix.h>
#include <string.h>
#include <unistd.h>

#include "sextant-import-private.h"

/* Silence for this long means the worker hangs (the rounds report every
 * 100 ms; the definitions of the largest archives read in seconds). */
#define DEFAULT_STALL_SECONDS 120

typedef struct
{
  const char            *anchor;
  SextantImportProgressFunc progress;
  gpointer               progress_data;
  GString               *pending;        /* a line not yet complete */
  gboolean               done;
  GError                *error;          /* from an "error" line */
} Watch;

static guint
stall_seconds (void)
{
  const char *value = g_getenv ("SEXTANT_IMPORT_STALL_SECONDS");
  guint64 seconds;

  if (value != NULL && g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT, &seconds, NULL))
    return (guint)seconds;

  return DEFAULT_STALL_SECONDS;
}

static void
handle_line (Watch      *watch,
             const char *line)
{
  if (g_str_has_prefix (line, "progress "))
    {
      g_auto(GStrv) fields = g_strsplit (line, " ", 3);

      if (watch->progress != NULL && g_strv_length (fields) == 3)
        watch->progress (g_ascii_strtod (fields[1], NULL), g_ascii_strtod (fields[2], NULL),
                         watch->progress_data);
    }
  else if (g_str_has_prefix (line, "error ") && watch->error == NULL)
    {
      g_auto(GStrv) fields = g_strsplit (line, " ", 4);

      if (g_strv_length (fields) == 4)
        watch->error = g_error_new_literal (g_quark_from_string (fields[1]),
                                            (int)g_ascii_strtoll (fields[2], NULL, 10), fields[3]);
    }
  else if (strcmp (line, "done") == 0)
    watch->done = TRUE;
}

static void
handle_output (Watch      *watch,
               const char *data,
               gsize       n)
{
  char *newline;

  g_string_append_len (watch->pending, data, n);
  while ((newline = memchr (watch->pending->str, '\n', watch->pending->len)) != NULL)
    {
      *newline = '\0';
      handle_line (watch, watch->pending->str);
      g_string_erase (watch->pending, 0, newline - watch->pending->str + 1);
    }
}

/* Reads the worker's lines until it closes its output, is cancelled or
 * stays silent too long. */
static gboolean
watch_worker (Watch         *watch,
              GSubprocess   *worker,
              int            fd,
              GCancellable  *cancellable,
              GError       **error)
{
  guint stall = stall_seconds ();
  gint64 last = g_get_monotonic_time ();
  GPollFD fds[2] = { { fd, G_IO_IN | G_IO_HUP | G_IO_ERR, 0 } };
  guint n_fds = g_cancellable_make_pollfd (cancellable, &fds[1]) ? 2 : 1;
  gboolean ok = TRUE;

  for (;;)
    {
      char buffer[4096];
      gssize n;

      fds[0].revents = 0;
      if (g_poll (fds, n_fds, 1000) < 0 && errno != EINTR)
        {
          int errsv = errno;

          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                       "%s: cannot watch the import's worker: %s", watch->anchor, g_strerror (errsv));
          ok = FALSE;
          break;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      if (fds[0].revents != 0)
        {
          n = read (fd, buffer, sizeof buffer);
          if (n == 0)
            break;
          if (n > 0)
            {
              handle_output (watch, buffer, (gsize)n);
              last = g_get_monotonic_time ();
              continue;
            }
          if (errno != EINTR && errno != EAGAIN)
            break;
        }
      if (g_get_monotonic_time () - last > (gint64)stall * G_USEC_PER_SEC)
        {
          g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                       "%s: the import made no progress for %u s and was stopped (libotf2 loops on a "
                       "damaged file?); nothing was written", watch->anchor, stall);
          ok = FALSE;
          break;
        }
    }

  if (n_fds == 2)
    g_cancellable_release_fd (cancellable);
  if (!ok)
    g_subprocess_force_exit (worker);

  return ok;
}

/**
 * _sextant_import_in_worker:
 * @program: the sextant executable
 * @anchor: the archive's anchor file
 * @tmp_path: the temporary store to fill (created, empty)
 *
 * Imports @anchor into @tmp_path in a worker process (see the top of this
 * file). Blocks until the worker is done, failed, crashed, went silent or
 * @cancellable is cancelled; in all but the first case the worker is gone
 * and @error says why.
 */
gboolean
_sextant_import_in_worker (const char             *program,
                           const char             *anchor,
                           const char             *tmp_path,
                           SextantImportProgressFunc progress,
                           gpointer                progress_data,
                           GCancellable           *cancellable,
                           GError                **error)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  g_autoptr(GSubprocess) worker = NULL;
  g_autoptr(GString) pending = g_string_new (NULL);
  Watch watch = { anchor, progress, progress_data, pending, FALSE, NULL };
  int fds[2];
  gboolean watched;

  if (!g_unix_open_pipe (fds, FD_CLOEXEC, error))
    return FALSE;
  g_subprocess_launcher_take_stdout_fd (launcher, fds[1]);
  worker = g_subprocess_launcher_spawn (launcher, error, program, "import", "--quiet",
                                        "--worker-into", tmp_path, anchor, NULL);
  if (worker == NULL)
    {
      close (fds[0]);
      g_prefix_error (error, "%s: cannot start the import's worker: ", anchor);
      return FALSE;
    }
  /* the launcher holds the pipe's other end until it goes */
  g_clear_object (&launcher);

  watched = watch_worker (&watch, worker, fds[0], cancellable, error);
  close (fds[0]);
  g_subprocess_wait (worker, NULL, NULL);
  if (!watched)
    {
      g_clear_error (&watch.error);
      return FALSE;
    }

  if (g_subprocess_get_if_signaled (worker))
    {
      int sig = g_subprocess_get_term_sig (worker);

      g_clear_error (&watch.error);
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_CORRUPT,
                   "%s: the import crashed reading this archive (%s in libotf2 or Sextant); the archive "
                   "is probably damaged; nothing was written", anchor, g_strsignal (sig));
      return FALSE;
    }
  if (watch.error != NULL)
    {
      g_propagate_error (error, watch.error);
      return FALSE;
    }
  if (!watch.done || g_subprocess_get_exit_status (worker) != 0)
    {
      g_set_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_STORE,
                   "%s: the import's worker (%s) stopped with status %d without saying why; nothing "
                   "was written", anchor, program, g_subprocess_get_exit_status (worker));
      return FALSE;
    }

  return TRUE;
}
