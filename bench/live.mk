# make bench-live: rasd on the live ring buffer (root, tracefs): the highest
# record rate it sustains with the default buffer and no kernel drop over a
# whole long step, per configuration (HACKING.md). Measured figures, never a
# timed test. Built by make check for tests/test-bench-live.sh, which runs it
# with --smoke (a few hundred records, no timing; skipped without root).
BENCH_LIVE_SRC = bench/live_pool.c bench/live_pool.h bench/live_search.c bench/live_search.h \
	bench/live_cpu.c bench/live_cpu.h \
	bench/stream.c bench/stream.h
check_PROGRAMS += bench/bench-live
bench_bench_live_SOURCES = bench/bench-live.c $(BENCH_LIVE_SRC)
bench_bench_live_CFLAGS = $(RAS_CFLAGS)
bench_bench_live_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/test-bench-live.sh
TESTS += tests/test-bench-live.sh
# Its parts without a clock: the records' variety past the pool, the search's steps.
check_PROGRAMS += tests/test-live-bench
TESTS += tests/test-live-bench
tests_test_live_bench_SOURCES = tests/test-live-bench.c $(BENCH_LIVE_SRC)
tests_test_live_bench_CFLAGS = $(RAS_CFLAGS)
tests_test_live_bench_LDADD = $(TEST_LIBS)
# bench/live-tree N [FIRST]: the live stream's records as a replayed tree, for
# callgrind on rasd --once (HACKING.md, "Profiling the storm path").
EXTRA_PROGRAMS += bench/live-tree
CLEANFILES += bench/live-tree
bench_live_tree_SOURCES = bench/live-tree.c $(BENCH_LIVE_SRC)
bench_live_tree_CFLAGS = $(RAS_CFLAGS)
bench_live_tree_LDADD = $(TEST_LIBS)
BENCH_LIVE_SECONDS = 15
bench-live: bench/bench-live rasd/rasd
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		bench/bench-live $(BENCH_LIVE_SECONDS)
.PHONY: bench-live
