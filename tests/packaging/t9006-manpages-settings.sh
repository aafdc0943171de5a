# t9006-manpages-settings — the manual pages and the example site file say
# what the programs do: the pages format without a warning; ioatlas(1) has a
# section for each verb `ioatlas --help` lists, naming exactly the long
# options of that verb's --help, and one for ioatlas-config; ioatlasd(8)
# names those of ioatlasd; the
# example site file (conf/ioatlas.conf) and ioatlas.conf(5) made from it
# describe every setting of the runtime and of every program, and no other;
# uncommented, the example is accepted by the runtime and by every program,
# while a bad line in it is refused naming the file and line.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_cmd man

man1="$IOA_SOURCE_DIR/docs/man/ioatlas.1"
man8="$IOA_SOURCE_DIR/docs/man/ioatlasd.8"
man5="$IOA_BUILD_DIR/share/man/man5/ioatlas.conf.5"
example="$IOA_SOURCE_DIR/conf/ioatlas.conf"
bin="$IOA_BUILD_DIR/bin/ioatlas"

plan 13

warnings=$(for page in "$man1" "$man8" "$man5"; do
	MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null
done)
is "${warnings:-none}" "none" "the three pages format without a warning"

# long_options: the sorted long options in the text on stdin, roff's \- undone.
long_options() { sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z-]*[a-z]' | grep -vx -- '--help' | sort -u | tr '\n' ' '; }
# man_section VERB: the lines of ioatlas(1)'s section of VERB.
man_section() {
	sed 's/\\-/-/g' "$man1" | awk -v verb="$1" '
		/^\.S[SH]/ { on = ($1 == ".SS" && $2 == "ioatlas" && $3 == verb) }
		on'
}

verbs=$("$bin" --help | sed -n 's/^   \([a-z-]*\)$/\1/p' | tr '\n' ' ')
man_verbs=$(sed -n 's/\\-/-/g; s/^\.SS ioatlas \([a-z-]*\).*/\1/p' "$man1" | sort | tr '\n' ' ')
is "$man_verbs" "$verbs" "ioatlas(1) has a section for each verb, no more"

differ=""
for verb in $verbs; do
	help=$("$bin" "$verb" --help 2>&1 | long_options)
	page=$(man_section "$verb" | long_options)
	[ "$help" = "$page" ] || differ="$differ [$verb: --help '$help', page '$page']"
done
is "${differ:-none}" "none" "each verb's section names exactly the options of its --help"
config_section=$(sed -n '/^\.SS ioatlas\\-config/,/^\.S[SH]/p' "$man1")
is "$(echo "$config_section" | long_options)" "$("$IOA_BUILD_DIR/bin/ioatlas-config" --help 2>&1 | long_options)" \
	"ioatlas(1) names exactly the options of ioatlas-config"
is "$(sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$man8" | long_options)" \
	"$("$IOA_BUILD_DIR/sbin/ioatlasd" --help | long_options)" "ioatlasd(8) names exactly its options"

# Every key: the runtime's table and each program's.
keys=$({
	sed -n 's/^[[:space:]]*X(\([a-z_]*\), [A-Z0-9]*,.*/\1/p' "$IOA_SOURCE_DIR/runtime/rt_config.h"
	cat "$IOA_SOURCE_DIR"/collector/*.[ch] "$IOA_SOURCE_DIR"/jobs/*.c "$IOA_SOURCE_DIR"/jobs/*/*.c "$IOA_SOURCE_DIR"/reports/*.c \
		"$IOA_SOURCE_DIR"/history/*.c "$IOA_SOURCE_DIR"/cli/*.c |
		grep -oE '\{"[a-z_]+(\.[a-z_]+)?", *IOA_SET_' | sed 's/{"\([^"]*\)".*/\1/'
} | sort -u)
example_keys=$(sed -n 's/^#\([a-z_.]*\) =.*/\1/p' "$example" | sort)
ok "the settings are found in the sources ($(echo "$keys" | wc -l))" test "$(echo "$keys" | wc -l)" -ge 40
is "$(echo "$example_keys" | tr '\n' ' ')" "$(echo "$keys" | tr '\n' ' ')" \
	"the example site file lists each setting once, and no other"
man_keys=$(awk '/^\.TP/ { getline; if ($1 == ".B") print $2 }' "$man5" | sort | tr '\n' ' ')
is "$man_keys" "$(echo "$keys" | tr '\n' ' ')" "ioatlas.conf(5) describes each setting"
like "$(MANWIDTH=200 man -l "$man5" 2>/dev/null | grep -A1 '^ *collector.rescan$')" "scanned again" \
	"with the example's words"

# The example with every line uncommented: the defaults it shows are valid.
conf="$TEST_TMP/ioatlas.conf"
sed 's/^#\([a-z_.]* =\)/\1/' "$example" >"$conf"
export IOATLAS_CONF="$conf" IOATLAS_LOGDIR="$TEST_TMP/logs" IOATLAS_COLLECTOR_RETRY_MAX=0 \
	PGHOST="$TEST_TMP/no-server" PGCONNECT_TIMEOUT=2
mkdir -p "$TEST_TMP/logs"
# settings_errors: what each program says of the site file when run.
settings_errors() {
	local libexec="$IOA_BUILD_DIR/libexec/ioatlas"
	{
		IOATLAS_DEBUG=1 LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" IOATLAS_NONMPI=1 /bin/true
		run_timeout 60 "$IOA_BUILD_DIR/sbin/ioatlasd" --once
		run_timeout 60 "$libexec/ioatlas-ingest" --status
		run_timeout 60 "$libexec/ioatlas-warehouse" status
		run_timeout 60 "$libexec/ioatlas-analyze"
		run_timeout 60 "$libexec/ioatlas-dashboard" --out "$TEST_TMP/web"
		run_timeout 60 "$libexec/ioatlas-kernel" nightly
		run_timeout 60 "$libexec/ioatlas-nightly" --steps analyze
		run_timeout 60 "$libexec/ioatlas-setup-logdir" --days 1
	} 2>&1 | grep -E "ioatlas\.conf:[0-9]+|bad setting" | sed 's/^/  /'
}
is "$(settings_errors)" "" "uncommented, the example is accepted by the runtime and every program"

printf 'collector.rescan = soon\nanalyze.phase_gap_ratio = many\nmemory = lots\n' >>"$conf"
errors=$(settings_errors)
is "$(echo "$errors" | grep -c "ioatlas.conf:$(($(wc -l <"$conf") - 2))")" 2 \
	"a bad collector line is refused by ioatlasd and ioatlas ingest"
like "$(echo "$errors" | tr '\n' ' ')" "ioatlas.conf:$(($(wc -l <"$conf") - 1)).*ioatlas.conf:$(($(wc -l <"$conf") - 1))" \
	"a bad analyses line by ioatlas analyze and dashboard"
like "$errors" "ignoring bad setting memory 'lots'" "and the runtime, asked by IOATLAS_DEBUG=1 though the file says debug = 0, says it ignores a bad value"

done_testing
