# SPDX-License-Identifier: MIT
# Issue 39's event loop per record: memory given back after a real idle,
# never between a storm's groups (rasd/give_back.c), the loop's timeout
# (rasd/loop_wait.c: what waits for a quiet loop never makes it spin), the
# kernel's drop counters of a quiet CPU checked without the database, and
# their tests; a due group reading on while the commit behind is made.
# Included by the top Makefile.am; only appends.

rasd_librasd_a_SOURCES += rasd/give_back.c rasd/give_back.h \
	rasd/loop_wait.c rasd/loop_wait.h \
	rasd/stats_due.c rasd/stats_due.h \
	rasd/stats_stored.c rasd/stats_stored.h
EXTRA_DIST += rasd/event_loop.mk

check_PROGRAMS += tests/test-give-back
TESTS += tests/test-give-back
tests_test_give_back_CFLAGS = $(RAS_CFLAGS)
tests_test_give_back_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test-loop-wait
TESTS += tests/test-loop-wait
tests_test_loop_wait_CFLAGS = $(RAS_CFLAGS)
tests_test_loop_wait_LDADD = $(TEST_LIBS)

# A directory with a database and an instance whose drop counters a test sets: the three below share it.
STATS_FIXTURE = tests/stats_fixture.c tests/stats_fixture.h
check_PROGRAMS += tests/test-stats-quiet
TESTS += tests/test-stats-quiet
tests_test_stats_quiet_SOURCES = tests/test-stats-quiet.c $(STATS_FIXTURE)
tests_test_stats_quiet_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_stats_quiet_LDADD = $(TEST_LIBS)

# An instance made again (or cleared) within one boot: its drop counters are new.
check_PROGRAMS += tests/test-stats-recreated
TESTS += tests/test-stats-recreated
tests_test_stats_recreated_SOURCES = tests/test-stats-recreated.c $(STATS_FIXTURE)
tests_test_stats_recreated_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_stats_recreated_LDADD = $(TEST_LIBS)

# The stored drop counters kept in memory: a check reads no database (rasd/stats_stored.c).
check_PROGRAMS += tests/test-stats-stored
TESTS += tests/test-stats-stored
tests_test_stats_stored_SOURCES = tests/test-stats-stored.c $(STATS_FIXTURE)
tests_test_stats_stored_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_stats_stored_LDADD = $(TEST_LIBS)

# When the drop counters are read: before every commit, not at every wake (rasd/stats_due.c).
check_PROGRAMS += tests/test-stats-due
TESTS += tests/test-stats-due
tests_test_stats_due_CFLAGS = $(RAS_CFLAGS)
tests_test_stats_due_LDADD = $(TEST_LIBS)

# And in the pipeline: a loss left to the commit is in that commit.
check_PROGRAMS += tests/test-stats-commit
TESTS += tests/test-stats-commit
tests_test_stats_commit_SOURCES = tests/test-stats-commit.c $(STATS_FIXTURE)
tests_test_stats_commit_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_stats_commit_LDADD = $(TEST_LIBS)

# The records read but not committed: a commit behind's sealed and dropped whole (rasd/pending.c).
check_PROGRAMS += tests/test-pending
TESTS += tests/test-pending
tests_test_pending_CFLAGS = $(RAS_CFLAGS)
tests_test_pending_LDADD = $(TEST_LIBS)

# A group due while the commit behind is being made: the event loop reads on (rasd/pipeline_commit.c).
check_PROGRAMS += tests/test-behind-reads-on
TESTS += tests/test-behind-reads-on
tests_test_behind_reads_on_SOURCES = tests/test-behind-reads-on.c $(WRITER_FIXTURE)
tests_test_behind_reads_on_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_behind_reads_on_LDADD = $(TEST_LIBS)

# The event loop woken by the writer thread's eventfd when a commit behind is made (db/db_writer.c).
check_PROGRAMS += tests/test-commit-fd
TESTS += tests/test-commit-fd
tests_test_commit_fd_SOURCES = tests/test-commit-fd.c $(WRITER_FIXTURE)
tests_test_commit_fd_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_commit_fd_LDADD = $(TEST_LIBS)
