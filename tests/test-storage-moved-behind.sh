#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/test-storage-moved.sh again with rasd's records on its writer thread and small
# batches committed behind (tests/live-lib.sh behind_conf): the same faults,
# met on that thread, lose and duplicate nothing either.
RAS_TEST_WRITE_BEHIND=1 exec "${top_srcdir:-.}/tests/test-storage-moved.sh"
