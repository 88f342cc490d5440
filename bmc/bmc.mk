# SPDX-License-Identifier: MIT
# The BMC's System Event Log (issue 36): bmc/ is pure (a SEL entry's 16
# bytes from an event), rasd/bmc_ipmi.c the transport (/dev/ipmi0, Add SEL
# Entry), rasd/bmc_sel.c the policy (which, how many, what became of each).
# Included by the top Makefile.am; only appends.

noinst_LIBRARIES += bmc/libbmc.a
bmc_libbmc_a_SOURCES = bmc/sel_entry.c bmc/sel_entry.h
EXTRA_DIST += bmc/bmc.mk
rasd_librasd_a_SOURCES += rasd/bmc_sel.c rasd/bmc_sel.h rasd/bmc_ipmi.c rasd/bmc_ipmi.h \
	rasd/bmc_transport.h
# After rasd/librasd.a, which uses it: static libraries link in order.
RAS_LIBS += bmc/libbmc.a

# Golden vectors of the entry (pure: bmc/ only).
check_PROGRAMS += tests/bmc/test-sel-entry
TESTS += tests/bmc/test-sel-entry
tests_bmc_test_sel_entry_SOURCES = tests/bmc/test-sel-entry.c tests/tap.h
tests_bmc_test_sel_entry_LDADD = bmc/libbmc.a
# The policy through a test transport: what is sent, the limit, the rows of actions.
check_PROGRAMS += tests/bmc/test-bmc-sel
TESTS += tests/bmc/test-bmc-sel
tests_bmc_test_bmc_sel_SOURCES = tests/bmc/test-bmc-sel.c
tests_bmc_test_bmc_sel_CFLAGS = $(RAS_CFLAGS)
tests_bmc_test_bmc_sel_LDADD = $(TEST_LIBS)
# The BMC answering late: a fake IPMI device on a socketpair behind bmc_transport.h.
check_PROGRAMS += tests/bmc/test-bmc-async
TESTS += tests/bmc/test-bmc-async
tests_bmc_test_bmc_async_SOURCES = tests/bmc/test-bmc-async.c
tests_bmc_test_bmc_async_CFLAGS = $(RAS_CFLAGS)
tests_bmc_test_bmc_async_LDADD = $(TEST_LIBS)
# The rasd.service drop-in that shows rasd /dev/ipmi0 (rasd(8)): an example in
# the documentation, in both packages (%{_docdir}/ras-fdr/ takes it in the RPM).
bmcselexampledir = $(docdir)/examples/rasd.service.d
dist_bmcselexample_DATA = contrib/rasd.service.d/bmc-sel.conf
