#!/bin/sh
# SPDX-License-Identifier: MIT
# Every ras-fdr-ctl command on a hostile database: JSON valid against
# doc/schema/, no control character in any output (test_json.py says more).
top_srcdir=${top_srcdir:-.}
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }
python3 -c 'import jsonschema' 2>/dev/null || { echo "1..0 # SKIP no python3-jsonschema"; exit 77; }
exec python3 "$top_srcdir/tests/json/test_json.py"
