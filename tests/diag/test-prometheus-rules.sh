#!/bin/bash
# SPDX-License-Identifier: MIT
# contrib/prometheus/ras-fdr.rules.yml: promtool checks it, and its alerts fire
# on series a real "ras-fdr-ctl metrics" printed: a fault stream replayed by
# rasd --once in two runs (a metrics snapshot after each, each run with a failed
# disk read, the second with a loss the kernel marked). The snapshots become
# promtool's input series (the first at 0 and 30m, the second from 1h); which
# alerts must fire is read from the snapshots' values, never written out by hand.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
RULES=$top_srcdir/contrib/prometheus/ras-fdr.rules.yml
command -v promtool >/dev/null || { echo "1..0 # SKIP no promtool (Debian's prometheus)"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
WORK=$(mktemp -d /tmp/ras-fdr-rules-XXXXXX)
trees=()
trap 'rm -rf "$WORK" "${trees[@]}"' EXIT

out=$(promtool check rules "$RULES" 2>&1); ok $? "promtool check rules: $(tail -1 <<<"$out" | sed 's/^ *//')"

printf 'sysfs_root = %s\ntrigger_dir = %s\n' "$WORK/sys" "$WORK/triggers" > "$WORK/rasd.conf"
run() { # fault-tree arguments: the tree replayed into the database, then a metrics snapshot
	local tree
	tree=$("$top_builddir/tests/diag/fault-tree" "$@") || return 1
	trees+=("$tree")
	"$top_builddir/rasd/rasd" --config "$WORK/rasd.conf" --tracing-dir "$tree" --db "$WORK/ras.db" \
		--lock-dir "$WORK/lock" --once >> "$WORK/rasd.log" 2>&1
}
snapshot() { "$top_builddir/ctl/ras-fdr-ctl" --config /dev/null --db "$WORK/ras.db" metrics \
	--format prometheus | grep -v '^#' | sort > "$1"; }
run skx 0 60 disk; ok $? "the stream's first 60 errors replayed, and a failed disk read"
snapshot "$WORK/m1"
run skx 60 1000 missed=-1 disk; ok $? "the rest replayed, with a loss the kernel marked (count unknown) and another failed disk read"
snapshot "$WORK/m2"
grep -q '^ras_fdr_part_verdict{' "$WORK/m2"; ok $? "the metrics hold the parts' verdicts"

# A sample line is "NAME{LABELS} VALUE", spaces inside the labels: the key is all but the last field.
KEY='function key() { return substr($0, 1, length($0) - length($NF) - 1) }'
# The series: the lines of both snapshots as promtool input, 30m apart.
series() {
	awk "$KEY"' FNR == NR { a[key()] = $NF; next } { b[key()] = $NF }
	     END { for (k in b) printf "      - series: '\''%s'\''\n        values: '\''%s %s %s %s %s'\''\n", k,
			(k in a) ? a[k] : "_", (k in a) ? a[k] : "_", b[k], b[k], b[k] }' "$WORK/m1" "$WORK/m2"
}
# The alerts a gauge's samples must give: "name{labels}" of those at value want (awk compares).
parts_at() { # file, family, test (awk expression on v)
	awk -v fam="$2{" "$KEY"' index($0, fam) == 1 { v = $NF; if ('"$3"') print key() }' "$1" |
		grep 'synthetic="false"'
}
labels_yaml() { # name{k="v",...} -> exp_labels entries
	sed -e 's/^[a-z_]*{//' -e 's/}$//' <<<"$1" | tr ',' '\n' | sed 's/^\([a-z_]*\)="\(.*\)"$/              \1: '\''\2'\''/'
}
mapfile -t replace < <(parts_at "$WORK/m2" ras_fdr_part_verdict 'v == 2')
mapfile -t watch < <(parts_at "$WORK/m2" ras_fdr_part_verdict 'v == 1')
mapfile -t widened < <(awk "$KEY"' FNR == NR { a[key()] = $NF; next }
	index($0, "ras_fdr_part_fault_mode{") == 1 && (key() in a) && $NF > a[key()] { print key() }' \
	"$WORK/m1" "$WORK/m2" | grep 'synthetic="false"' | sed 's/^ras_fdr_part_fault_mode/x/')
ok $([ ${#replace[@]} -ge 3 ] && echo 0 || echo 1) "${#replace[@]} parts to replace in the second snapshot"
ok $([ ${#widened[@]} -ge 1 ] && echo 0 || echo 1) "${#widened[@]} parts whose fault mode widened between the snapshots"
grep -q 'part="mc1 0:0:-1".* 7$' <<<"$(grep '^ras_fdr_part_fault_mode' "$WORK/m2")" &&
	! grep -q 'part="mc1 0:0:-1".* 7$' <<<"$(grep '^ras_fdr_part_fault_mode' "$WORK/m1")"
ok $? "the multi-rank DIMM's mode is 7 only in the second snapshot"
disk=$(parts_at "$WORK/m2" ras_fdr_part_verdict 'v >= 1' | grep 'kind="disk"')
ok $([ -n "$disk" ] && echo 0 || echo 1) "the failed disk read made a disk part to watch"

{
	echo "rule_files: ['$RULES']"
	echo "evaluation_interval: 1m"
	echo "tests:"
	echo "  - interval: 30m"
	echo "    input_series:"
	series
	echo "    alert_rule_test:"
	echo "      - eval_time: 90m"
	echo "        alertname: RasFdrPartToReplace"
	echo "        exp_alerts:"
	for s in "${replace[@]}"; do
		echo "          - exp_labels:"
		labels_yaml "$s"
		echo "              severity: critical"
		kind=$(sed -n 's/.*kind="\([^"]*\)".*/\1/p' <<<"$s"); part=$(sed -n 's/.*part="\([^"]*\)".*/\1/p' <<<"$s")
		label=$(sed -n 's/.*label="\([^"]*\)".*/\1/p' <<<"$s")
		echo "            exp_annotations:"
		echo "              summary: 'Replace $kind $part $label'"
		echo "              description: 'rasd''s diagnosis says this part is failing. \"ras-fdr-ctl health\" on  gives the rule, the evidence and what to do.'"
	done
	echo "      - eval_time: 90m"
	echo "        alertname: RasFdrFaultModeWidened"
	echo "        exp_alerts:"
	for s in "${widened[@]}"; do
		now=$(awk -v k="ras_fdr_part_fault_mode${s#x}" "$KEY"' key() == k { print $NF }' "$WORK/m2")
		echo "          - exp_labels:"
		labels_yaml "$s"
		echo "              severity: warning"
		kind=$(sed -n 's/.*kind="\([^"]*\)".*/\1/p' <<<"$s"); part=$(sed -n 's/.*part="\([^"]*\)".*/\1/p' <<<"$s")
		echo "            exp_annotations:"
		echo "              summary: 'DRAM fault of $kind $part widened to mode $now'"
		echo "              description: 'Its errors now span more of the memory than an hour ago (modes: 1 single-bit .. 4 single-row, 5 single-bank, 6 multi-bank, 7 multi-rank, 8 single-lane).'"
	done
	echo "      - eval_time: 20m"
	echo "        alertname: RasFdrFaultModeWidened"
	echo "      - eval_time: 90m"
	echo "        alertname: RasFdrKernelDrops"
	echo "        exp_alerts:"
	echo "          - exp_labels: { severity: warning }"
	echo "            exp_annotations:"
	echo "              summary: 'The kernel dropped RAS records on '"
	echo "              description: 'Records were lost before rasd read them: a storm outran the ring buffer. Raise buffer_size_kb (rasd.conf(5)); \"ras-fdr-ctl status\" counts them.'"
	echo "      - eval_time: 20m"
	echo "        alertname: RasFdrKernelDrops"
	echo "    promql_expr_test:"
	echo "      - expr: instance:ras_fdr_parts_to_replace:count"
	echo "        eval_time: 90m"
	echo "        exp_samples:"
	echo "          - labels: 'instance:ras_fdr_parts_to_replace:count'"
	echo "            value: ${#replace[@]}"
	echo "      - expr: instance:ras_fdr_parts_to_watch:count"
	echo "        eval_time: 90m"
	echo "        exp_samples:"
	echo "          - labels: 'instance:ras_fdr_parts_to_watch:count'"
	echo "            value: ${#watch[@]}"
	echo "      - expr: count(ALERTS{alertname=\"RasFdrStorageFailing\",alertstate=\"firing\"})"
	echo "        eval_time: 90m"
	echo "        exp_samples:"
	echo "          - labels: '{}'"
	echo "            value: 2"
} > "$WORK/test.yml"
out=$(promtool test rules "$WORK/test.yml" 2>&1); rc=$?
ok $rc "promtool test rules: parts to replace, a widened fault mode, kernel drops, failing storage"
[ $rc = 0 ] || { sed 's/^/# /' <<<"$out" | head -60; cp "$WORK/test.yml" /tmp/ras-fdr-rules-test.yml; }
echo "1..$n"
[ $failed = 0 ]
