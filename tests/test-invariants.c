/*
 * test-invariants.c: what every analysis checks of every instance
 * (patterns/sextant-invariants.c), on the numbers of the breaches the
 * external traces showed: an instance outside its call, and two wait
 * states of Scalasca's tree charged to one call for the same waiting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sextant-invariants.h"
#include "sextant-store.h"
#include "sextant-trace-error.h"

/* wait_inside_collective on a member that left MPI_Gatherv before the
 * others arrived: alone for the whole call, not until they came */
static void
test_outside (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantInvariants) strict = sextant_invariants_new (TRUE, 1000000000);
  g_autoptr(SextantInvariants) lenient = sextant_invariants_new (FALSE, 1000000000);
  gint64 severity = 319000000, begin = 1000, end = 1000 + 5000;

  /* inside: nothing to say, nothing changed */
  g_assert_true (sextant_invariants_check_instance (strict, "wait_inside_collective", 0, 7, 1000, 6000, &(gint64){ 5000 },
                                                    &(gint64){ 1000 }, &(gint64){ 6000 }, &error));
  g_assert_no_error (error);

  g_assert_false (sextant_invariants_check_instance (strict, "wait_inside_collective", 0, 7, 1000, 6000, &severity,
                                                     &begin, &end, &error));
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY);
  g_assert_nonnull (strstr (error->message, "pattern wait_inside_collective charges visit 7"));
  g_assert_nonnull (strstr (error->message, "more than the call lasted"));
  g_clear_error (&error);

  /* not strict: clipped to the call, counted, warned about once */
  g_test_expect_message ("Sextant-Patterns", G_LOG_LEVEL_MESSAGE, "*wait_inside_collective*clipped to the call*");
  g_assert_true (sextant_invariants_check_instance (lenient, "wait_inside_collective", 0, 7, 1000, 6000, &severity,
                                                    &begin, &end, &error));
  g_test_assert_expected_messages ();
  g_assert_cmpint (severity, ==, 5000);
  begin = 500;
  end = 9000;
  severity = 100;
  g_assert_true (sextant_invariants_check_instance (lenient, "wait_inside_collective", 0, 8, 1000, 6000, &severity,
                                                    &begin, &end, &error));
  g_assert_cmpint (begin, ==, 1000);
  g_assert_cmpint (end, ==, 6000);
  g_assert_cmpint (severity, ==, 100);
  g_assert_cmpuint (sextant_invariants_get_violations (lenient), ==, 2);
  /* no visit: nothing to check */
  severity = G_MAXINT32;
  g_assert_true (sextant_invariants_check_instance (strict, "frequent_communication", 0, SEXTANT_NULL, SEXTANT_NULL,
                                                    SEXTANT_NULL, &severity, &(gint64){ SEXTANT_NULL },
                                                    &(gint64){ SEXTANT_NULL }, &error));
  g_assert_no_error (error);
}

/* An MPI_Sendrecv of 29,892 ticks charged 16,499 as Late Sender and the
 * same 16,499 as Late Receiver (casita-2_jacobi_blame_cpu_015, visit 171):
 * more than it lasted. Wrong Order beside Late Sender on another call is
 * within it; a statistic (not in the tree) is not summed. */
static void
test_sum (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SextantInvariants) strict = sextant_invariants_new (TRUE, 1000000000);

  g_assert_true (sextant_invariants_check_instance (strict, "late_sender", 0, 171, 0, 29892, &(gint64){ 16499 },
                                                    &(gint64){ 0 }, &(gint64){ 16499 }, &error));
  g_assert_true (sextant_invariants_check_instance (strict, "late_sender", 0, 20, 0, 100, &(gint64){ 60 },
                                                    &(gint64){ 0 }, &(gint64){ 60 }, &error));
  g_assert_true (sextant_invariants_check_instance (strict, "late_sender_wrong_order", 0, 20, 0, 100,
                                                    &(gint64){ 40 }, &(gint64){ 60 }, &(gint64){ 100 }, &error));
  g_assert_true (sextant_invariants_check_instance (strict, "wait_inside_collective", 0, 20, 0, 100,
                                                    &(gint64){ 90 }, &(gint64){ 0 }, &(gint64){ 100 }, &error));
  g_assert_no_error (error);
  g_assert_true (sextant_invariants_finish (strict, &error));
  g_assert_no_error (error);

  g_assert_true (sextant_invariants_check_instance (strict, "late_sender", 0, 171, 0, 29892, &(gint64){ 16499 },
                                                    &(gint64){ 0 }, &(gint64){ 16499 }, &error));
  g_assert_true (sextant_invariants_check_instance (strict, "late_receiver", 0, 171, 0, 29892, &(gint64){ 16499 },
                                                    &(gint64){ 0 }, &(gint64){ 16499 }, &error));
  g_assert_false (sextant_invariants_finish (strict, &error));
  g_assert_error (error, SEXTANT_TRACE_ERROR, SEXTANT_TRACE_ERROR_QUERY);
  g_assert_nonnull (strstr (error->message, "visit 171"));
  g_assert_nonnull (strstr (error->message, "late_sender 0.000016499 s + late_receiver 0.000016499 s"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/invariants/outside", test_outside);
  g_test_add_func ("/invariants/sum", test_sum);

  return g_test_run ();
}
