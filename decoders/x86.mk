# SPDX-License-Identifier: MIT
# x86 machine-check decoders (Intel, AMD, Hygon, Zhaoxin) and their tests.
# Included by the top Makefile.am; only appends to its variables.

decoders_libdecoders_a_SOURCES += \
	decoders/mce.c decoders/mce.h decoders/mce_internal.h \
	decoders/mce_intel.c decoders/mce_intel_models.c decoders/mce_intel_models.h \
	decoders/mce_intel_mscod.c decoders/mce_intel_legacy.c \
	decoders/mce_amd.c decoders/mce_amd.h decoders/mce_amd_smca.c decoders/mce_amd_mem.c \
	decoders/mce_text.c decoders/mce_text.h \
	decoders/mce_text_amd.c decoders/mce_text_amd.h

check_PROGRAMS += \
	tests/decoders/test-mce-arch \
	tests/decoders/test-mce-intel \
	tests/decoders/test-mce-amd \
	tests/decoders/test-mce-amd-mem \
	tests/decoders/test-mce-text \
	tests/decoders/test-mce-amd-text

TESTS += \
	tests/test-ctl-decode-intel.sh \
	tests/decoders/test-mce-arch \
	tests/decoders/test-mce-intel \
	tests/decoders/test-mce-amd \
	tests/decoders/test-mce-amd-mem \
	tests/decoders/test-mce-text \
	tests/decoders/test-mce-amd-text

tests_decoders_test_mce_arch_SOURCES = tests/decoders/test-mce-arch.c tests/tap.h
tests_decoders_test_mce_arch_LDADD = decoders/libdecoders.a
tests_decoders_test_mce_intel_SOURCES = tests/decoders/test-mce-intel.c tests/tap.h
tests_decoders_test_mce_intel_LDADD = decoders/libdecoders.a
tests_decoders_test_mce_amd_SOURCES = tests/decoders/test-mce-amd.c tests/tap.h
tests_decoders_test_mce_amd_LDADD = decoders/libdecoders.a
tests_decoders_test_mce_amd_mem_SOURCES = tests/decoders/test-mce-amd-mem.c tests/tap.h
tests_decoders_test_mce_amd_mem_LDADD = decoders/libdecoders.a
tests_decoders_test_mce_text_SOURCES = tests/decoders/test-mce-text.c tests/tap.h
tests_decoders_test_mce_text_LDADD = decoders/libdecoders.a
tests_decoders_test_mce_amd_text_SOURCES = tests/decoders/test-mce-amd-text.c tests/tap.h
tests_decoders_test_mce_amd_text_LDADD = decoders/libdecoders.a

# ras-fdr-ctl decode on AMD text and registers (needs ctl/ras-fdr-ctl).
EXTRA_DIST += tests/test-ctl-decode-amd.sh
TESTS += tests/test-ctl-decode-amd.sh

EXTRA_DIST += \
	tests/test-ctl-decode-intel.sh \
	tests/data/mcelog/README.md \
	tests/data/mcelog/bdw_mirror1 tests/data/mcelog/bdw_mirror2 \
	tests/data/mcelog/dimm0 tests/data/mcelog/dmr_dcu_srar \
	tests/data/mcelog/full1 tests/data/mcelog/iomca \
	tests/data/mcelog/simple1 tests/data/mcelog/skx_mirror1 \
	tests/data/mcelog/skx_mirror2 tests/data/mcelog/spr_uc_patscrub \
	tests/data/mcelog/unknown tests/data/mcelog/xen \
	tests/data/mcelog/memdb-and-socket.inject.txt \
	tests/data/mcelog/cache-and-server.inject.txt \
	fuzz/standalone.c fuzz/run.sh fuzz/fuzz-mce.c fuzz/fuzz-mce-text.c fuzz/fuzz-mce-amd-text.c

FUZZ_TARGETS += fuzz/fuzz-mce.c fuzz/fuzz-mce-text.c fuzz/fuzz-mce-amd-text.c
