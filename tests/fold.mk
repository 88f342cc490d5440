# Storm folding's batch entries, written from their list, against an unfolded
# database (tests/test-fold-slots.c).
check_PROGRAMS += tests/test-fold-slots
TESTS += tests/test-fold-slots
tests_test_fold_slots_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_slots_LDADD = $(TEST_LIBS)

# The refused-commit tests' stream, poison trigger and trace (tests/fold_fail_fixture.h).
FOLD_FAIL_FIXTURE = tests/fold_fail_fixture.c tests/fold_fail_fixture.h

# Held records stored at commit, 16 to an INSERT, failing part-way (tests/test-fold-hold-fail.c).
check_PROGRAMS += tests/test-fold-hold-fail
TESTS += tests/test-fold-hold-fail
tests_test_fold_hold_fail_SOURCES = tests/test-fold-hold-fail.c $(WRITER_FIXTURE) $(FOLD_FAIL_FIXTURE)
tests_test_fold_hold_fail_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_hold_fail_LDADD = $(TEST_LIBS)

# New keys' folds rows inserted 16 to an INSERT, failing part-way: the second
# INSERT of a commit refused, inline and on the writer thread (tests/test-fold-news-fail.c).
check_PROGRAMS += tests/test-fold-news-fail
TESTS += tests/test-fold-news-fail
tests_test_fold_news_fail_SOURCES = tests/test-fold-news-fail.c $(WRITER_FIXTURE) $(FOLD_FAIL_FIXTURE)
tests_test_fold_news_fail_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_news_fail_LDADD = $(TEST_LIBS)

# The folds writer's growth INSERTs and known rows' UPDATEs by id (upd_whole,
# upd_known past the kept-times cap) refused part-way through a commit,
# inline and on the writer thread (tests/test-fold-write-fail.c).
check_PROGRAMS += tests/test-fold-write-fail
TESTS += tests/test-fold-write-fail
tests_test_fold_write_fail_SOURCES = tests/test-fold-write-fail.c $(WRITER_FIXTURE) $(FOLD_FAIL_FIXTURE)
tests_test_fold_write_fail_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_write_fail_LDADD = $(TEST_LIBS)

# A folded record's job that does not fit the rest of the writer thread's
# chunk packed again in a fresh one, records of every size, the writer thread
# held while they are packed (tests/test-fold-pack-again.c).
check_PROGRAMS += tests/test-fold-pack-again
TESTS += tests/test-fold-pack-again
tests_test_fold_pack_again_SOURCES = tests/test-fold-pack-again.c $(WRITER_FIXTURE)
tests_test_fold_pack_again_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_pack_again_LDADD = $(TEST_LIBS)

# A folds row this connection wrote is not read back: more keys than the old
# 16,384 places, a rollback, past FOLD_KNOWN_MAX (tests/test-fold-known.c).
check_PROGRAMS += tests/test-fold-known
TESTS += tests/test-fold-known
tests_test_fold_known_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_known_LDADD = $(TEST_LIBS)

# Folds ids never handed out again (schema step 25): migrated with their rows,
# and a known row purged by another connection (tests/test-fold-ids.c).
check_PROGRAMS += tests/test-fold-ids
TESTS += tests/test-fold-ids
tests_test_fold_ids_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_ids_LDADD = $(TEST_LIBS)

# A held record's fold columns read from its copy's values against the general
# way over the event held_event builds, on random copies (tests/test-fold-cols.c).
check_PROGRAMS += tests/test-fold-cols
TESTS += tests/test-fold-cols
tests_test_fold_cols_CFLAGS = $(RAS_CFLAGS)
tests_test_fold_cols_LDADD = $(TEST_LIBS)

# Keys whose hashes collide fold into their own folds rows (the known rows'
# in-memory key compare): the test links its own build of db_fold_entries.c
# whose hash is one value for every key, tests/fold_collide_hash.h taken first
# in db/db_fold_hash.h's place (tests/test-fold-collide.c).
check_PROGRAMS += tests/test-fold-collide
TESTS += tests/test-fold-collide
tests_test_fold_collide_SOURCES = tests/test-fold-collide.c db/db_fold_entries.c tests/fold_collide_hash.h
tests_test_fold_collide_CFLAGS = $(RAS_CFLAGS) -include $(srcdir)/tests/fold_collide_hash.h
tests_test_fold_collide_LDADD = $(TEST_LIBS)

# A decoding's signature (its stored row's key) and the decodings sent lately as db/db_sig.h computes them
# against a frozen copy of its first form, on random plans and every table's
# (tests/test-decoded-sig.c).
check_PROGRAMS += tests/test-decoded-sig
TESTS += tests/test-decoded-sig
tests_test_decoded_sig_CFLAGS = $(RAS_CFLAGS)
tests_test_decoded_sig_LDADD = $(TEST_LIBS)
