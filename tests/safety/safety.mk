# Nothing rasd does as root can be turned against the machine (issue 31): the
# path rule of lib/safe_path.c for triggers, the metrics textfile and the
# export cursor, rasd's record of what it refused, a trigger's way out of the
# sandbox, and their tests.
rasd_librasd_a_SOURCES += rasd/refusals.c rasd/refusals.h
EXTRA_DIST += tests/safety/safety.mk

# The rule itself (as root: it gives files to another user).
check_PROGRAMS += tests/safety/test-safe-path
TESTS += tests/safety/test-safe-path
tests_safety_test_safe_path_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_safety_test_safe_path_LDADD = $(TEST_LIBS)

# The attacks, made by nobody (root; tracefs but for export and the relay).
SAFETY_SH_TESTS = tests/safety/test-triggers-safe.sh
SAFETY_SH_TESTS += tests/safety/test-metrics-safe.sh
SAFETY_SH_TESTS += tests/safety/test-export-safe.sh
SAFETY_SH_TESTS += tests/safety/test-record-paths.sh
TESTS += $(SAFETY_SH_TESTS)
EXTRA_DIST += $(SAFETY_SH_TESTS)
