# SPDX-License-Identifier: MIT
# Issue 36's policies: CPU isolation from ARM processor errors (the MPIDR
# map in lib/cpu_map.c), their sources and tests. Included by the top
# Makefile.am; only appends.

lib_libras_a_SOURCES += lib/cpu_map.c lib/cpu_map.h
EXTRA_DIST += rasd/policies.mk
FUZZ_TARGETS += fuzz/fuzz-cpu-map.c
EXTRA_DIST += fuzz/fuzz-cpu-map.c

# ARM CPU isolation: the MPIDR map, the decoder's counts, the subject, rasd --once offlining.
check_PROGRAMS += tests/test-arm-cpu
TESTS += tests/test-arm-cpu
tests_test_arm_cpu_SOURCES = tests/test-arm-cpu.c $(ACTIONS_FIXTURE)
tests_test_arm_cpu_CFLAGS = $(RAS_CFLAGS)
tests_test_arm_cpu_LDADD = $(TEST_LIBS)

# The machine-wide warnings: rasdaemon's MC_CE_STAT_THRESHOLD and POISON_STAT_THRESHOLD
# as ce_rate_threshold and poison_threshold_kb (HardwareCorrupted of proc_root/meminfo).
lib_libras_a_SOURCES += lib/meminfo.c lib/meminfo.h
rasd_librasd_a_SOURCES += rasd/actions_stats.c
check_PROGRAMS += tests/test-stat-thresholds
TESTS += tests/test-stat-thresholds
tests_test_stat_thresholds_SOURCES = tests/test-stat-thresholds.c $(ACTIONS_FIXTURE)
tests_test_stat_thresholds_CFLAGS = $(RAS_CFLAGS)
tests_test_stat_thresholds_LDADD = $(TEST_LIBS)

# register_labels: the DIMM labels known written into EDAC sysfs at start and SIGHUP.
rasd_librasd_a_SOURCES += rasd/register_labels.c rasd/register_labels.h

# A crossed row acts on every page recorded in it: the pages of each row (schema step 21).
db_libdb_a_SOURCES += db/db_row_pages.c db/db_row_pages.h
rasd_librasd_a_SOURCES += rasd/actions_rows.c
check_PROGRAMS += tests/test-row-pages
TESTS += tests/test-row-pages
tests_test_row_pages_SOURCES = tests/test-row-pages.c $(ACTIONS_FIXTURE)
tests_test_row_pages_CFLAGS = $(RAS_CFLAGS)
tests_test_row_pages_LDADD = $(TEST_LIBS)
