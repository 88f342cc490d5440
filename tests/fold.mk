# Storm folding's batch entries, written from their list, against an unfolded
# database (tests/test-fold-slots.c).
check_PROGRAMS += tests/test-fold-slots
TESTS += tests/test-fold-slots
tests_test_fold_slots_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_slots_LDADD = $(TEST_LIBS)
