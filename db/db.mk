# db/'s own fragment: the files added as its write path took one shape
# (issue 39), and the check that keeps db/'s calls one way.
db_libdb_a_SOURCES += db/db_txn.c db/db_txn.h db/db_base.c db/db_moved.c db/db_sql.c db/db_rows.c db/db_writer_rows.c db/db_writer_internal.h
TESTS += tests/test-db-calls.sh
EXTRA_DIST += tests/test-db-calls.sh
