#!/bin/bash
# SPDX-License-Identifier: MIT
# The journal catalog (contrib/ras-fdr.catalog) has exactly one entry per
# MESSAGE_ID in the event table, each with a subject and an explanation, and
# journalctl itself parses it (a catalog database built in a scratch root).
set -u
top_srcdir=${top_srcdir:-.}
CAT=$top_srcdir/contrib/ras-fdr.catalog
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }

ids=$(grep -o '"[0-9a-f]\{32\}"' "$top_srcdir/lib/event_table.c" | tr -d '"' | sort)
# rasd's own: a part's new verdict (rasd/health.h)
verdict_ids=$(grep -o 'MESSAGE_ID "[0-9a-f]\{32\}"' "$top_srcdir/rasd/health.h" | grep -o '[0-9a-f]\{32\}')
ok $([ "$(wc -l <<<"$verdict_ids")" = 3 ] && echo 0 || echo 1) "a MESSAGE_ID per verdict"
ids=$(printf '%s\n%s\n' "$ids" "$verdict_ids" | sort)
entries=$(sed -n 's/^-- \([0-9a-f]\{32\}\)$/\1/p' "$CAT" | sort)
ok $([ "$(wc -l <<<"$ids")" -ge 17 ] && echo 0 || echo 1) "the event table has $(wc -l <<<"$ids") MESSAGE_IDs"
ok $([ "$ids" = "$entries" ] && echo 0 || echo 1) "one catalog entry per MESSAGE_ID, none else"
ok $([ -z "$(uniq -d <<<"$entries")" ] && echo 0 || echo 1) "no MESSAGE_ID twice in the catalog"

# every entry: Subject, Defined-By, a blank line, then at least two paragraphs
# (what happened, what to do)
bad=$(awk '
	/^-- [0-9a-f]+$/ { if (id != "") check(); id = $2; subj = 0; def = 0; paras = 0; inpara = 0; hdr = 1; next }
	id == "" { next }
	hdr && /^Subject: ./ { subj = 1; next }
	hdr && /^Defined-By: ras-fdr$/ { def = 1; next }
	hdr && /^$/ { hdr = 0; next }
	hdr { next }
	/^$/ { inpara = 0; next }
	!inpara { paras++; inpara = 1 }
	function check() { if (!subj || !def || paras < 2) print id }
	END { if (id != "") check() }' "$CAT")
ok $([ -z "$bad" ] && echo 0 || echo 1) "every entry has Subject, Defined-By and two paragraphs${bad:+ (not: $bad)}"

if command -v journalctl >/dev/null 2>&1; then
	root=$(mktemp -d)
	trap 'rm -rf "$root"' EXIT
	mkdir -p "$root/usr/lib/systemd/catalog"
	cp "$CAT" "$root/usr/lib/systemd/catalog/"
	journalctl --root="$root" --update-catalog >/dev/null 2>&1
	listed=$(journalctl --root="$root" --list-catalog 2>/dev/null | awk '{ print $1 }' | sort)
	ok $([ "$listed" = "$ids" ] && echo 0 || echo 1) "journalctl --update-catalog reads every entry"
	journalctl --root="$root" --dump-catalog 92567467f2704b979ef87cefdf3072a0 2>/dev/null |
		grep -q '^Subject: Memory controller error'
	ok $? "journalctl --dump-catalog shows the mc_event entry"
else
	echo "ok $((n+1)) # SKIP journalctl not installed"; n=$((n+1))
fi
echo "1..$n"
[ "$failed" = 0 ]
