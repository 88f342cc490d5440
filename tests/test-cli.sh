#!/bin/bash
# SPDX-License-Identifier: MIT
# The command lines: rasd --check-config on good and bad files, usage errors,
# and that every rasd option and ctl command is in --help and the man pages.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
RASD=$top_builddir/rasd/rasd
CTL=$top_builddir/ctl/ras-fdr-ctl
D=$top_srcdir/tests/data/config
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }

out=$("$RASD" --config "$D/good.conf" --check-config 2>&1); rc=$?
ok $([ $rc = 0 ] && [ "$out" = "configuration OK (read $D/good.conf)" ] && echo 0 || echo 1) "good file: configuration OK, names the file, exit 0"
out=$("$RASD" --config /nonexistent/rasd.conf --check-config 2>&1); rc=$?
ok $([ $rc != 0 ] && echo 0 || echo 1) "check-config of a named missing file fails"
out=$("$RASD" -c "$D/bad.conf" -n 2>&1); rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "bad file: exit 1"
for line in 2 3 4 5 6 7 8 9; do
	grep -q "bad.conf:$line: " <<<"$out"; ok $? "bad file: error reported as file:$line: reason"
done
grep -q "unknown key 'bogus_key'" <<<"$out"; ok $? "an unknown key is named"
out=$("$RASD" --config /nonexistent/rasd.conf -n 2>&1); rc=$?
ok $([ $rc != 0 ] && grep -q "No such file" <<<"$out" && echo 0 || echo 1) "a named missing file is an error"
"$RASD" --no-such-option >/dev/null 2>&1; ok $([ $? = 2 ] && echo 0 || echo 1) "unknown option: exit 2"
out=$("$RASD" --config /dev/null --buffer-size-kb 3 -n 2>&1)
grep -q "command line: buffer_size_kb" <<<"$out"; ok $? "a bad command-line value is reported"

help=$("$RASD" --help)
for o in $(sed -n 's/^\t{ "\([a-z-]*\)", .*_argument.*/\1/p' "$top_srcdir/rasd/rasd.c"); do
	grep -q -- "--$o" <<<"$help"; ok $? "rasd --help lists --$o"
	grep -q -- "\\\\-\\\\-${o//-/\\\\-}" "$top_srcdir/man/rasd.8"; ok $? "rasd(8) documents --$o"
done
for k in $(sed -n 's/^\t\(STR\|UINT\|BOOL\)("\([a-z_]*\)".*/\2/p' "$top_srcdir/lib/config.c") \
	 $(grep -o 'RULE("[a-z_]*"' "$top_srcdir/lib/config.c" | sed 's/RULE("\(.*\)"/health_rule_\1/'); do
	grep -q "^\.BR $k\b\|^\.BR \"$k\"\|^\.B $k\b\|^\.BR $k \"" "$top_srcdir/man/rasd.conf.5"; ok $? "rasd.conf(5) documents $k"
done
# every variable the programs read is in a man page's ENVIRONMENT section
envs=$(awk '/^\.SH /{on = $2 == "ENVIRONMENT"} on' "$top_srcdir/man/rasd.8" "$top_srcdir/man/ras-fdr-ctl.8")
vars=$(cd "$top_srcdir" && grep -rhoE 'getenv\("[A-Z_]+"\)' rasd ctl lib db report diag decoders | sed 's/getenv("\(.*\)")/\1/' | sort -u)
ok $([ "$(wc -l <<<"$vars")" -ge 4 ] && echo 0 || echo 1) "the programs' getenv calls are found"
for v in $vars; do
	grep -q "^\.BR\? \(.* \)\?$v\b" <<<"$envs"; ok $? "an ENVIRONMENT section documents $v"
done
# rasd(8)'s reading under a storm gives the figures rasd/reader_burst.h uses
burst() { sed -n "s/^#define RASD_BURST_$1 \([^/]*\).*/\1/p" "$top_srcdir/rasd/reader_burst.h" | sed 's/LL//g' | tr -d ' \t'; }
man8=$(tr '\n' ' ' < "$top_srcdir/man/rasd.8")
tick_ms=$(($(burst TICK_NS) / 1000000))
for f in "($(burst START) records or more within $tick_ms ms" "fewer than $(burst STOP) records puts" \
	 "to $(burst PERCENT) and reads its buffers every $tick_ms ms"; do
	grep -qF -- "$f" <<<"$man8"; ok $? "rasd(8) on reading under a storm says: $f"
done
chelp=$("$CTL" help)
for c in summary errors status inject decode edac layout labels reset snapshot boot-cmdline; do
	grep -q "^  $c" <<<"$chelp"; ok $? "ras-fdr-ctl help lists $c"
	grep -q "^\.SS.*$c\|^\.SS \"$c" "$top_srcdir/man/ras-fdr-ctl.8"; ok $? "ras-fdr-ctl(8) has a section for $c"
done
"$CTL" --config /dev/null nonsense >/dev/null 2>&1; ok $([ $? = 2 ] && echo 0 || echo 1) "unknown command: exit 2"

# ---- every command's table: --help, help CMD, the man page's synopsis ----
man_synopsis() {  # the .nf block after ".SS NAME", fonts and \- removed
	awk -v name="$1" '$0 == ".SS " name { s = 1; next }
		s == 1 && /^\.nf/ { s = 2; next } s == 2 && /^\.fi/ { exit } s == 2 { print } s == 1 && /^\./ { exit }' \
		"$top_srcdir/man/ras-fdr-ctl.8" | sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g'
}
cmds=$("$CTL" __synopsis | cut -d' ' -f1)
ok $([ "$(wc -l <<<"$cmds")" -ge 11 ] && echo 0 || echo 1) "__synopsis lists the commands"
while read -r syn; do
	c=${syn%% *}
	if [ "$syn" = "$c (no table)" ]; then
		grep -q "^\.SS.*$c" "$top_srcdir/man/ras-fdr-ctl.8"; ok $? "ras-fdr-ctl(8) has a section for $c (a plain entry, no table yet)"
		continue
	fi
	h=$("$CTL" --config /nonexistent $c --help); rc=$?
	ok $([ $rc = 0 ] && [ "$(head -1 <<<"$h")" = "Usage: ras-fdr-ctl [GLOBAL OPTIONS] $syn" ] && echo 0 || echo 1) "$c --help: exit 0, the synopsis"
	ok $([ "$("$CTL" help $c)" = "$h" ] && echo 0 || echo 1) "help $c prints the same as $c --help"
	m=$(man_synopsis "$c")
	ok $([ "$m" = "$syn" ] && echo 0 || echo 1) "ras-fdr-ctl(8) synopsis of $c matches its table${m:+ ($m)}"
	for o in $(grep -o -- '--[a-z-]*' <<<"$syn" | sort -u); do
		grep -q -- "^  \(-[a-z], \)\?$o" <<<"$h"; ok $? "$c --help explains $o"
	done
	"$CTL" --config /dev/null $c --no-such-option >/dev/null 2>&1
	ok $([ $? = 2 ] && echo 0 || echo 1) "$c --no-such-option: exit 2"
done < <("$CTL" __synopsis)
"$CTL" help nonsense >/dev/null 2>&1; ok $([ $? = 2 ] && echo 0 || echo 1) "help of an unknown command: exit 2"
grep -q '^\.SH EXIT STATUS' "$top_srcdir/man/ras-fdr-ctl.8" && grep -q '^attention needed' "$top_srcdir/man/ras-fdr-ctl.8"
ok $? "ras-fdr-ctl(8) documents the exit statuses, 3 included"

# ---- strict numbers and times: exit 2 and a message naming the value ----
NODB=(--config /dev/null --db /nonexistent/ras.db)
for args in "errors --limit 1e3" "errors --limit 5abc" "errors --limit -1" "errors --limit 99999999999" \
	    "errors --limit ''" "errors --until @0" "errors --until 1970-01-01" "errors --since 2026-02-31" \
	    "errors --since 2026-11-22T25:00" "errors --since @1e9" "errors --since -5x" "errors --since ' 5'" \
	    "errors --since @99999999999" "summary --since -99999999w" "summary --boot abc" "summary --boot 1" \
	    "edac --until 0" "layout --boot 5abc" "snapshot show 0" "snapshot show 1x" \
	    "boot-cmdline --size 5abc" "boot-cmdline --size 7" "summary --by rank" \
	    "metrics --top -1" "metrics --top 5abc" "export --cursor-file /nonexistent/c --batch 1e3" \
	    "export --cursor-file /nonexistent/c --batch -1" "export --cursor-file /nonexistent/c --batch 0"; do
	err=$(eval "\"\$CTL\" \"\${NODB[@]}\" $args" 2>&1 >/dev/null); rc=$?
	ok $([ $rc = 2 ] && [ -n "$err" ] && echo 0 || echo 1) "'$args': exit 2 with a message (rc $rc: ${err:0:80})"
done
# boot_instance or persistent_instance empty in rasd.conf: no name to print, --instance names one.
EB=$(mktemp)
printf 'boot_instance =\npersistent_instance =\n' > "$EB"
for p in "" --persistent; do
	err=$("$CTL" --config "$EB" boot-cmdline $p 2>&1 >/dev/null); rc=$?
	ok $([ $rc = 2 ] && grep -q "_instance is empty in the configuration.*--instance" <<<"$err" && echo 0 || echo 1) \
		"boot-cmdline${p:+ $p} with its instance empty in rasd.conf: exit 2, says to name one (rc $rc: ${err:0:90})"
done
out=$("$CTL" --config "$EB" boot-cmdline --instance rasdt_named); rc=$?
rm -f "$EB"
ok $([ $rc = 0 ] && grep -q "trace_instance=rasdt_named," <<<"$out" && echo 0 || echo 1) \
	"boot-cmdline --instance names it when rasd.conf's is empty (rc $rc)"
# Good values get past parsing to the missing database (exit 1, not 2).
for args in "errors --limit 0" "errors --since 2026-11-22" "errors --since 2026-11-22T10:00:00Z" \
	    "errors --until @1700000000" "errors --since -2h" "errors --since now" "summary --since 2024-02-29"; do
	eval "\"\$CTL\" \"\${NODB[@]}\" $args" >/dev/null 2>&1; rc=$?
	ok $([ $rc = 1 ] && echo 0 || echo 1) "'$args' is accepted (rc $rc)"
done

# ---- options after positional arguments ----
"$CTL" "${NODB[@]}" reset mc0/dimm3 --yes >/dev/null 2>&1; rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "reset mc0/dimm3 --yes: parsed (rc $rc)"
"$CTL" "${NODB[@]}" edac mc0/dimm3/dimm_ce_count --include-synthetic >/dev/null 2>&1; rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "edac PATH --include-synthetic: parsed (rc $rc)"
"$CTL" "${NODB[@]}" snapshot list --json >/dev/null 2>&1; rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "snapshot list --json: parsed (rc $rc)"
"$CTL" --config /dev/null decode "$top_srcdir/tests/data/decode/mixed.txt" --json | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]'
ok $? "decode FILE --json: JSON after the file name"

# ---- completion, from the same tables ----
comp() { "$CTL" --config /dev/null __complete "$@"; }
comp 1 ras-fdr-ctl "" | grep -qx errors; ok $? "completion: commands"
comp 2 ras-fdr-ctl errors --l | grep -qx -- --limit; ok $? "completion: errors options"
comp 3 ras-fdr-ctl errors --type "" | grep -qx mc_event; ok $? "completion: event types after --type"
comp 3 ras-fdr-ctl errors --type "" | grep -qx ras:aer_event; ok $? "completion: system:event names"
comp 2 ras-fdr-ctl labels "" | grep -qx guess; ok $? "completion: labels actions"
comp 2 ras-fdr-ctl decode "" | grep -qx @files; ok $? "completion: decode takes files"
comp 4 ras-fdr-ctl -d /nonexistent edac "" | grep -q .; ok $([ $? = 1 ] && echo 0 || echo 1) "completion: no paths without a database"
# the fleet commands are on the tables too: completion, required options, no plain entries
comp 3 ras-fdr-ctl metrics --format "" | sort | tr '\n' ' ' | grep -qx 'json openmetrics prometheus '
ok $? "completion: metrics --format offers its three values"
comp 2 ras-fdr-ctl export --c | grep -qx -- --cursor-file; ok $? "completion: export options"
comp 2 ras-fdr-ctl import "" | grep -qx rasdaemon; ok $? "completion: import rasdaemon"
comp 2 ras-fdr-ctl actions --b | grep -qx -- --buckets; ok $? "completion: actions options"
"$CTL" --config /dev/null export --json >/dev/null 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "export without its required --cursor-file: exit 2"
"$CTL" --config /dev/null --db /nonexistent/ras.db import rasdaemon /nonexistent.db --no-such-option >/dev/null 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "import: an option after the positionals is parsed (unknown: exit 2)"
"$CTL" --config /dev/null import-config /dev/null extra >/dev/null 2>&1
ok $([ $? = 2 ] && echo 0 || echo 1) "import-config with two files: exit 2"
"$CTL" __synopsis | grep -q '(no table)'
ok $([ $? = 1 ] && echo 0 || echo 1) "every command is driven by its table (__synopsis has no plain entry)"
out=$(PATH="$top_builddir/ctl:$PATH" bash -c '. "$1"/contrib/ras-fdr-ctl.bash-completion
	COMP_WORDS=(ras-fdr-ctl sum); COMP_CWORD=1; _ras_fdr_ctl; echo "${COMPREPLY[*]}"
	COMP_WORDS=(ras-fdr-ctl errors --ty); COMP_CWORD=2; _ras_fdr_ctl; echo "${COMPREPLY[*]}"' _ "$top_srcdir")
ok $([ "$out" = $'summary\n--type' ] && echo 0 || echo 1) "the bash completion script completes (${out//$'\n'/ | })"

# The zsh completion: the same tables, with what each candidate is. zsh's completion
# builtins are stubbed to print what they would offer.
zsh_offers() { # WORD..., the cursor on the last
	PATH="$top_builddir/ctl:$PATH" zsh -f -c '
		fpath=("$1"/contrib $fpath); autoload -Uz _ras-fdr-ctl
		_describe() { local a=${@[-1]}; print -rl -- "${(@P)a}"; }
		_files() { print @files; }
		shift; words=("$@"); CURRENT=$#; _ras-fdr-ctl' _ "$top_srcdir" "$@"
}
if command -v zsh >/dev/null; then
	zsh_offers ras-fdr-ctl sum | grep -qx "summary:counts per type, severity and location, and the records the kernel dropped"
	ok $? "zsh completion: commands with their summary"
	zsh_offers ras-fdr-ctl errors --ty | grep -qx -- "--type:one event type (mc_event, aer_event, mce\\:mce_record ...)"
	ok $? "zsh completion: options with their help, colons escaped"
	zsh_offers ras-fdr-ctl errors --type "" | grep -qx 'ras\\:aer_event:PCIe AER error'
	ok $? "zsh completion: system:event names escaped"
	zsh_offers ras-fdr-ctl decode "" | grep -qx @files
	ok $? "zsh completion: decode takes files"
	# Every option of every command's table is offered.
	missing=""
	while read -r c rest; do
		offered=$(zsh_offers ras-fdr-ctl "$c" --)
		for o in $(grep -o -- '--[a-z-]*' <<<"$rest"); do
			grep -q -- "^$o:" <<<"$offered" || missing="$missing $c$o"
		done
	done < <("$CTL" __synopsis)
	ok $([ -z "$missing" ] && echo 0 || echo 1) "zsh completion: every option of every table${missing:+ (missing:$missing)}"
else
	echo "# zsh not installed: its completion not checked"
fi

# ---- issue 32's small points: the same help everywhere, the options kept ----
e1=$("$CTL" "${NODB[@]}" errors --since yesterday 2>&1 >/dev/null)
e2=$("$CTL" "${NODB[@]}" actions --since yesterday 2>&1 >/dev/null); rc=$?
ok $([ $rc = 2 ] && [ -n "$e1" ] && [ "$e1" = "$e2" ] && echo 0 || echo 1) \
	"actions --since gives the same help as errors --since (rc $rc: $e2)"
e2=$("$CTL" "${NODB[@]}" actions --since @99999999999 2>&1 >/dev/null)
grep -q "out of range" <<<"$e2"; ok $? "actions --since says when a time is out of range ($e2)"
T=$(mktemp -d)
mkdir -p "$T/tracing/events" "$T/tracing/instances/rasd" && : >"$T/tracing/instances/rasd/trace_marker_raw"
printf 'formats_dir = %s/formats\n' "$top_srcdir" >"$T/my rasd.conf"
out=$("$CTL" -c "$T/my rasd.conf" -d "$T/r.db" -t "$T/tracing" inject --synthetic ras:mc_event msg=hint 2>&1)
grep -qF "find it with: ras-fdr-ctl -c '$T/my rasd.conf' -d $T/r.db -t $T/tracing errors --type mc_event --since @" <<<"$out"
ok $? "inject's hint keeps the global options given, quoted for the shell ($out)"
printf 'dryrun = yes\npage_ce_treshold = 3/1h\nPAGE_CE_ACTION = soft\nnot_a_key_at_all = 1\n' >"$T/typo.conf"
out=$("$RASD" --config "$T/typo.conf" --check-config 2>&1); rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "a mistyped key fails --check-config"
grep -q "typo.conf:1: unknown key 'dryrun' (did you mean 'dry_run'?)" <<<"$out"; ok $? "--check-config: did you mean dry_run"
grep -q "typo.conf:2: unknown key 'page_ce_treshold' (did you mean 'page_ce_threshold'?)" <<<"$out"
ok $? "--check-config: did you mean page_ce_threshold"
grep -q "typo.conf:3: unknown key 'PAGE_CE_ACTION' (did you mean 'page_ce_action'?)" <<<"$out"
ok $? "--check-config: did you mean page_ce_action (rasdaemon's spelling)"
grep -q "typo.conf:4: unknown key 'not_a_key_at_all'$" <<<"$out"; ok $? "no guess for a key nothing is near"
out=$("$RASD" --config "$T/typo.conf" --db "$T/r.db" --lock-dir "$T" --tracing-dir "$T/tracing" --once 2>&1); rc=$?
ok $([ $rc != 0 ] && grep -q "did you mean 'dry_run'" <<<"$out" && echo 0 || echo 1) \
	"rasd at start: the same did-you-mean, and it does not start (rc $rc)"
rm -rf "$T"

echo "1..$n"
[ $failed = 0 ]
