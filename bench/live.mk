# make bench-live: rasd on the live ring buffer (root, tracefs): the highest
# record rate it sustains with the default buffer and no kernel drop, per
# configuration (HACKING.md). Measured figures, never a timed test. Built by
# make check for tests/test-bench-live.sh, which runs it with --smoke (a few
# hundred records, no timing; skipped without root).
check_PROGRAMS += bench/bench-live
bench_bench_live_SOURCES = bench/bench-live.c bench/stream.c bench/stream.h
bench_bench_live_CFLAGS = $(RAS_CFLAGS)
bench_bench_live_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/test-bench-live.sh
TESTS += tests/test-bench-live.sh
BENCH_LIVE_SECONDS = 5
bench-live: bench/bench-live rasd/rasd
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		bench/bench-live $(BENCH_LIVE_SECONDS)
.PHONY: bench-live
