# The support-case report (issue 38): report/ renders a model to HTML or JSON
# (pure: a model in, text out), db/db_report.c holds its own reads, and
# ctl/report.c fills the model and runs ras-fdr-ctl report. Its strings follow
# lib/text.h's rule: JSON through lib/json.c, HTML through report/html_text.c.
# --part's rows are read by db/db_errors.c (ras_db_errors, split from
# db/db_query.c with db/db_row_read.c and db/db_filter.c).
db_libdb_a_SOURCES += db/db_report.c db/db_report.h db/db_locations.c db/db_locations.h \
	db/db_errors.c db/db_row_read.c db/db_filter.c db/db_filter.h
noinst_LIBRARIES += report/libreport.a
report_libreport_a_SOURCES = report/report.h report/model.c report/redact.c report/json.c \
	report/html.c report/html_text.c report/timeline.c report/dimm_map.c
ctl_ras_fdr_ctl_SOURCES += ctl/report.c ctl/report_machine.c ctl/report_model.c ctl/report_lists.c ctl/report_verdicts.c ctl/report_join.c ctl/report_map.c ctl/report.h
ctl_ras_fdr_ctl_LDADD += report/libreport.a lib/libras.a -lm
# -o's file written aside in its directory and renamed over FILE once whole
# (ctl/out_file.h): a failed run leaves no half report and keeps the old one.
ctl_ras_fdr_ctl_SOURCES += ctl/out_file.c ctl/out_file.h
# errors --json's record lines, built in memory: errors --json, export and
# --part's attachment share it (ctl/json_line.h).
ctl_ras_fdr_ctl_SOURCES += ctl/json_line.c ctl/json_line.h
EXTRA_DIST += report/report.mk

# Its tests: the counts against summary and crashes, the schema, --redact; the
# real browser (network cut); a full disk (/dev/full). They build their database
# with tests/report/report-db.sh.
REPORT_TESTS = tests/report/test-report.sh tests/report/test-report-browser.sh \
	tests/report/test-report-verdicts.sh tests/report/test-report-scenarios.sh \
	tests/report/test-report-part.sh tests/report/test-report-full.sh
TESTS += $(REPORT_TESTS)
EXTRA_DIST += $(REPORT_TESTS) tests/report/report-db.sh tests/report/browse.sh tests/report/check-report.py \
	tests/report/check-png.py doc/schema/report.schema.json tests/report/check-scenario.py \
	tests/report/check-html-json.py \
	tests/report/scenarios/row-dimm.records tests/report/scenarios/multi-rank.records \
	tests/report/scenarios/pcie-storm.records tests/report/scenarios/fatal-mce.records \
	tests/report/scenarios/fatal-mce.sql tests/report/scenarios/rasdaemon.sql \
	tests/report/scenarios/row-dimm.expect tests/report/scenarios/multi-rank.expect \
	tests/report/scenarios/pcie-storm.expect tests/report/scenarios/fatal-mce.expect \
	tests/report/scenarios/rasdaemon.expect
# -o's file whole or not at all (ctl/out_file.h): a write cut by ulimit -f, a
# previous file kept, a symbolic link refused, /proc hidden (the named temporary).
REPORT_TESTS += tests/report/test-report-atomic.sh
# --redact by a user who is not root: the serial files it could not read, said (setpriv to nobody).
REPORT_TESTS += tests/report/test-report-unread.sh

# The HTML writer's vectors (report/html_text.c on lib/text.h's rule).
check_PROGRAMS += tests/report/test-html-text
TESTS += tests/report/test-html-text
tests_report_test_html_text_SOURCES = tests/report/test-html-text.c tests/tap.h
tests_report_test_html_text_LDADD = report/libreport.a lib/libras.a

# ctl/json_line.c against the fprintf writer it replaced (kept in the test) on edge values,
# and its HTML mode against rpt_html_text of the JSON line.
check_PROGRAMS += tests/report/test-json-line
TESTS += tests/report/test-json-line
tests_report_test_json_line_SOURCES = tests/report/test-json-line.c ctl/json_line.c tests/tap.h
tests_report_test_json_line_CFLAGS = $(RAS_CFLAGS)
tests_report_test_json_line_LDADD = report/libreport.a $(TEST_LIBS)

# ctl/report_join.c against the part x verdict join it replaced (kept in the test).
check_PROGRAMS += tests/report/test-report-join
TESTS += tests/report/test-report-join
tests_report_test_report_join_SOURCES = tests/report/test-report-join.c ctl/report_join.c tests/tap.h
tests_report_test_report_join_CFLAGS = $(RAS_CFLAGS)
tests_report_test_report_join_LDADD = $(TEST_LIBS)

# Realistic reports kept as test data (tests/report/scenarios/): record text
# replayed by rasd --once through scenario-tree, or SQL, each with its facts.
check_PROGRAMS += tests/report/scenario-tree
tests_report_scenario_tree_SOURCES = tests/report/scenario-tree.c
tests_report_scenario_tree_CFLAGS = $(RAS_CFLAGS)
tests_report_scenario_tree_LDADD = $(TEST_LIBS)

# make bench-report: report's wall and CPU time on the bench's 10-million-record
# database (bench/bench-report.c says how it is built, and why that is faithful).
EXTRA_PROGRAMS += bench/bench-report
CLEANFILES += bench/bench-report
bench_bench_report_SOURCES = bench/bench-report.c bench/stream.c bench/stream.h
bench_bench_report_CFLAGS = $(RAS_CFLAGS)
bench_bench_report_LDADD = $(TEST_LIBS)
bench-report: bench/bench-report rasd/rasd ctl/ras-fdr-ctl tests/libtestutil.a
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' bench/bench-report
.PHONY: bench-report
