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
