# SPDX-License-Identifier: MIT
# arm64: the reader with the 64 KiB sub-buffers of arm64 kernels, and the
# cross-build and user-mode QEMU run of the whole suite (tests/arm64/run.sh,
# called by contrib/bootstrap.sh --test).
# Included by the top Makefile.am; only appends.

check_PROGRAMS += tests/arm64/test-reader-64k
TESTS += tests/arm64/test-reader-64k
tests_arm64_test_reader_64k_CFLAGS = $(RAS_CFLAGS)
tests_arm64_test_reader_64k_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/arm64/run.sh

# The cross-build and its tests under user-mode QEMU, in ARM64_BUILDDIR (the build-arm64/
# beside the sources that contrib/bootstrap.sh --test uses). check-arm64 is CI's subset;
# check-arm64-full is the whole make check, outside CI: more than an hour on two shared
# cores (HACKING.md, "Tests").
ARM64_BUILDDIR = $(abs_top_srcdir)/build-arm64
check-arm64:
	$(SHELL) $(srcdir)/tests/arm64/run.sh '$(ARM64_BUILDDIR)'
check-arm64-full:
	$(SHELL) $(srcdir)/tests/arm64/run.sh '$(ARM64_BUILDDIR)' all
# The tests' names, for run.sh's order of the whole run.
arm64-list-tests:
	@echo $(TESTS)
.PHONY: check-arm64 check-arm64-full arm64-list-tests
