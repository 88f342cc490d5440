# SPDX-License-Identifier: MIT
# Diagnosis (issue 34): which part is failing and what to replace. diag/ is
# pure (parts, DRAM coordinates, fault modes, verdict rules); its SQL is
# db/db_parts.c, the daemon's glue rasd/health*.c, the command ctl/health.c.
# Included by the top Makefile.am; only appends to its variables.

noinst_LIBRARIES += diag/libdiag.a
diag_libdiag_a_SOURCES = diag/dram.c diag/dram.h diag/part.c diag/part.h \
	diag/cells.c diag/cells.h diag/cells_internal.h diag/classify.c diag/rules.c diag/rules.h diag/state.c diag/state.h
lib_libras_a_SOURCES += lib/health_config.c lib/dimm_locator.c lib/dimm_locator.h
db_libdb_a_SOURCES += db/db_parts.c db/db_parts.h
# lib/ reads DRAM coordinates with diag/ (lib/subject.c): diag/ comes after it.
CTL_LIBS += diag/libdiag.a

check_PROGRAMS += tests/diag/test-dram tests/diag/test-cells
TESTS += tests/diag/test-dram tests/diag/test-cells
tests_diag_test_dram_SOURCES = tests/diag/test-dram.c tests/tap.h
tests_diag_test_dram_LDADD = diag/libdiag.a
tests_diag_test_cells_SOURCES = tests/diag/test-cells.c tests/tap.h tests/rng.h
tests_diag_test_cells_LDADD = diag/libdiag.a
# The EDAC text reader on odd text, against what its first version returned.
check_PROGRAMS += tests/diag/test-dram-golden
TESTS += tests/diag/test-dram-golden
tests_diag_test_dram_golden_SOURCES = tests/diag/test-dram-golden.c tests/tap.h
tests_diag_test_dram_golden_LDADD = diag/libdiag.a
# The EDAC text reader against the one before issue 39 (tests/diag/dram_ref.h), on random text.
check_PROGRAMS += tests/diag/test-dram-ref
TESTS += tests/diag/test-dram-ref
tests_diag_test_dram_ref_SOURCES = tests/diag/test-dram-ref.c tests/diag/dram_ref.h tests/tap.h tests/rng.h
tests_diag_test_dram_ref_LDADD = diag/libdiag.a
# The verdict rules' buckets against their 128-bit-only arithmetic before issue 39, on random input.
check_PROGRAMS += tests/diag/test-rate-ref
TESTS += tests/diag/test-rate-ref
tests_diag_test_rate_ref_SOURCES = tests/diag/test-rate-ref.c tests/tap.h tests/rng.h
tests_diag_test_rate_ref_LDADD = diag/libdiag.a
EXTRA_DIST += diag/diag.mk
ctl_ras_fdr_ctl_SOURCES += ctl/health.c
rasd_librasd_a_SOURCES += rasd/health.c rasd/health.h rasd/health_internal.h rasd/health_attr.c \
	rasd/health_store.c

# Streams with a known truth through rasd --once, in every coordinate spelling.
check_PROGRAMS += tests/diag/test-health-replay
TESTS += tests/diag/test-health-replay
tests_diag_test_health_replay_SOURCES = tests/diag/test-health-replay.c bench/fault_stream.c \
	bench/fault_stream.h $(ACTIONS_FIXTURE)
tests_diag_test_health_replay_CFLAGS = $(RAS_CFLAGS)
tests_diag_test_health_replay_LDADD = $(TEST_LIBS)

# The diagnosis's work at a commit is what the commit changed (issue 39): counted, never timed.
check_PROGRAMS += tests/diag/test-health-work
TESTS += tests/diag/test-health-work
tests_diag_test_health_work_SOURCES = tests/diag/test-health-work.c tests/tap.h
tests_diag_test_health_work_CFLAGS = $(RAS_CFLAGS)
tests_diag_test_health_work_LDADD = $(TEST_LIBS)

# The alerting rules (contrib/prometheus) against promtool, over a real metrics run.
check_PROGRAMS += tests/diag/fault-tree
tests_diag_fault_tree_SOURCES = tests/diag/fault-tree.c bench/fault_stream.c bench/fault_stream.h
tests_diag_fault_tree_CFLAGS = $(RAS_CFLAGS)
tests_diag_fault_tree_LDADD = $(TEST_LIBS)
TESTS += tests/diag/test-prometheus-rules.sh
EXTRA_DIST += tests/diag/test-prometheus-rules.sh
# Installed beside the README, for a fleet's Prometheus (rule_files:).
dist_doc_DATA += contrib/prometheus/ras-fdr.rules.yml

# diag/'s text reader and classifier under libFuzzer (fuzz/run.sh builds it with diag/*.c).
FUZZ_TARGETS += fuzz/fuzz-dram.c
EXTRA_DIST += fuzz/fuzz-dram.c

# The SMBIOS type 17 device beside a DIMM (lib/dimm_locator.c), from a fake sysfs's DMI entries.
TESTS += tests/diag/test-health-locator.sh
EXTRA_DIST += tests/diag/test-health-locator.sh
