# Nothing rasd does as root can be turned against the machine (issue 31): the
# path rule of lib/safe_path.c for triggers, the metrics textfile and the
# export cursor, rasd's record of what it refused, a trigger's way out of the
# sandbox, and their tests.
rasd_librasd_a_SOURCES += rasd/refusals.c rasd/refusals.h
ctl_ras_fdr_ctl_SOURCES += ctl/trigger_relay.c
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
SAFETY_SH_TESTS += tests/safety/test-trigger-relay.sh
TESTS += $(SAFETY_SH_TESTS)
EXTRA_DIST += $(SAFETY_SH_TESTS)

# A trigger's way out of rasd's sandbox (rasd(8)): a socket, a template, ras-fdr-ctl trigger-relay.
systemdsystemunit_DATA += contrib/rasd-trigger.socket contrib/rasd-trigger@.service
EXTRA_DIST += contrib/rasd-trigger.socket.in contrib/rasd-trigger@.service.in
CLEANFILES += contrib/rasd-trigger.socket contrib/rasd-trigger@.service
contrib/rasd-trigger.socket: $(srcdir)/contrib/rasd-trigger.socket.in Makefile
	$(MKDIR_P) contrib
	cp $(srcdir)/contrib/rasd-trigger.socket.in $@
contrib/rasd-trigger@.service: $(srcdir)/contrib/rasd-trigger@.service.in Makefile
	$(MKDIR_P) contrib
	sed -e 's|@bindir[@]|$(bindir)|g' -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
		'$(srcdir)/contrib/rasd-trigger@.service.in' > '$@'

# ras_triggers_installed's kept answers (issue 39): counted full checks, a change of mode refused.
check_PROGRAMS += tests/safety/test-triggers-cache
TESTS += tests/safety/test-triggers-cache
tests_safety_test_triggers_cache_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_safety_test_triggers_cache_LDADD = $(TEST_LIBS)
