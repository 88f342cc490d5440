#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Parses metrics text with the reference parser of Debian's python3-prometheus-client
# and prints one normalized line per sample: name|k=v,k=v (sorted)|value.
# Usage: parse-metrics.py openmetrics|prometheus < text. Exit 1 when the text does not parse.
import sys

fmt = sys.argv[1]
text = sys.stdin.read()
try:
    if fmt == "openmetrics":
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
    else:
        from prometheus_client.parser import text_string_to_metric_families
    out = []
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = ",".join("%s=%s" % (k, v) for k, v in sorted(s.labels.items()))
            value = s.value
            out.append("%s|%s|%s|%s" % (s.name, labels,
                                        int(value) if float(value).is_integer() else repr(value), family.type))
except Exception as e:  # any parse error fails the test
    print("parse error: %s" % e, file=sys.stderr)
    sys.exit(1)
print("\n".join(sorted(out)))
