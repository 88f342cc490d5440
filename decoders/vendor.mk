# SPDX-License-Identifier: MIT
# Vendor CPER sections (HiSilicon, NVIDIA, Alibaba Yitian, JaguarMicro, Ampere):
# their decoders, golden vectors, fuzz target and replay test.
# Included by the top Makefile.am; only appends.

decoders_libdecoders_a_SOURCES += \
	decoders/cper_vendor.c decoders/cper_vendor.h \
	decoders/cper_hisi.c decoders/cper_nvidia.c decoders/cper_yitian.c \
	decoders/cper_jm.c decoders/cper_ampere.c decoders/cper_rebuild.c

check_PROGRAMS += tests/decoders/test-cper-vendor
TESTS += tests/decoders/test-cper-vendor
tests_decoders_test_cper_vendor_SOURCES = tests/decoders/test-cper-vendor.c \
	tests/decoders/vendor_vectors.h tests/tap.h
tests_decoders_test_cper_vendor_LDADD = decoders/libdecoders.a

FUZZ_TARGETS += fuzz/fuzz-cper-vendor.c
EXTRA_DIST += fuzz/fuzz-cper-vendor.c

# Vendor sections through rasd: non_standard_event and arm_event pages of a 6.18 tree.
check_PROGRAMS += tests/test-replay-vendor
TESTS += tests/test-replay-vendor
tests_test_replay_vendor_SOURCES = tests/test-replay-vendor.c tests/decoders/vendor_vectors.h
tests_test_replay_vendor_CFLAGS = $(RAS_CFLAGS)
tests_test_replay_vendor_LDADD = $(TEST_LIBS)

# ras-fdr-ctl vendors, summary --by vendor and errors --vendor.
ctl_ras_fdr_ctl_SOURCES += ctl/vendor.c

# rasdaemon's vendor tables imported back into sections (db/db_import.c, decoders/cper_rebuild.c).
EXTRA_DIST += tests/fleet/test-import-vendor.sh
TESTS += tests/fleet/test-import-vendor.sh
