#!/bin/sh
# SPDX-License-Identifier: MIT
# A rasd that a test or a benchmark starts runs on this machine's own tracefs,
# beside the machine's own rasd, if it has one. It must leave that rasd's state
# alone: the pstore records (crash_harvest = no), and the boot and previous-boot
# instances the kernel command line made (boot_instance = and
# persistent_instance = empty; their defaults are rasd_boot and rasd_persist,
# which a test's rasd would harvest, and the previous boot's it would empty).
# Checked on the sources: every rasd.conf a test or benchmark writes (a line
# "instance = ") says all three, and never names rasd_boot or rasd_persist. A
# test about those keys names its own.
src=${top_srcdir:-.}
n=0 failed=0
for f in "$src"/tests/*.sh "$src"/tests/*.c "$src"/tests/*/*.sh "$src"/tests/*/*.c \
	"$src"/bench/*.c "$src"/bench/*.sh; do
	[ -f "$f" ] || continue
	grep -qE "(^|\\\\n|')instance = " "$f" || continue
	n=$((n + 1))
	miss=""
	for k in 'crash_harvest = no' 'boot_instance =' 'persistent_instance ='; do
		grep -qF "$k" "$f" || miss="$miss${miss:+, }'$k'"
	done
	# a name of its own, or none: never the machine's (the defaults)
	grep -qE '(boot|persistent)_instance = ?rasd_(boot|persist)([^_[:alnum:]]|$)' "$f" &&
		miss="$miss${miss:+, }an instance of its own (it names rasd_boot or rasd_persist)"
	if [ -z "$miss" ]; then
		echo "ok $n - ${f#"$src"/} leaves the machine's pstore and boot instances alone"
	else
		echo "not ok $n - ${f#"$src"/} writes a rasd.conf without $miss"
		failed=$((failed + 1))
	fi
done
[ "$n" -gt 0 ] || { echo "not ok 1 - no rasd.conf found under $src/tests"; n=1 failed=1; }
echo "1..$n"
[ "$failed" = 0 ]
