# t1042-rewrites — in-place rewrite counters are exact where they can be
# and never more than the truth: the program (tests/workloads/file-life.c)
# keeps a byte map of each file and prints the true writes, rewrites,
# rewritten bytes and first rewritten offset.
#   - an HDF5-shaped file: 3,000 scattered metadata blocks among raw-data
#     chunks (about 3,750 written ranges), then rewrites of some: exact;
#   - 9,000 disjoint 1-byte writes, past the 8,192 ranges a file keeps
#     (RT_EXTENTS_MAX), then rewrites of the first 5 and the last 5: the
#     first 5 are counted, the last 5 cannot be, and the log says so
#     (POSIX_OVERWRITE_UNTRACKED_BYTES: the 808 bytes past the cap and
#     the 5 written there again);
#   - truncation (ftruncate, truncate), O_TRUNC, fopen "w", unlink and
#     remove then made again, rename over, renameat2's exchange: what the name held before
#     is no longer "written", so nothing is counted twice;
#   - files folded past the memory budget share a record: no rewrites
#     between them (posix-ops many: 300 files written once).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

prog="$IOA_BUILD_DIR/tests/workloads/file-life"
work="$TEST_TMP/work"
mkdir -p "$work"
plan 14

# run MODE ARGS...: the program under the runtime; its output in $TEST_TMP/MODE.out, its log in $log.
run() {
	local mode=$1 logs
	shift
	logs=$(ioa_logdir)
	ioa_preload "$logs" "$prog" "$mode" "$work" "$@" >"$TEST_TMP/$mode.out"
	is "$?" 0 "file-life $mode runs under the runtime"
	log=$(ioa_only_log "$logs")
}
# counted NAME: "WRITES OVERWRITES BYTES FIRST_OFFSET" of $work/NAME in $log.
counted() {
	local c
	for c in POSIX_WRITES POSIX_OVERWRITES POSIX_OVERWRITE_BYTES POSIX_OVERWRITE_FIRST_OFFSET; do
		ioa_counter "$log" POSIX 0 "$work/$1" "$c"
	done | paste -sd ' '
}
truth() { sed -n "s/^expect $1 //p" "$TEST_TMP/$2.out"; }

run rewrites 3000
is "$(counted meta)" "$(truth meta rewrites)" \
	"HDF5-shaped metadata rewrites among thousands of ranges: writes, rewrites, bytes, first offset exact"
is "$(ioa_counter "$log" POSIX 0 "$work/meta" POSIX_OVERWRITE_UNTRACKED_BYTES)" 0 \
	"and every range was kept"

run cap 9000 5
read -r writes all all_bytes first <<<"$(truth cap cap)"
read -r kept kept_bytes <<<"$(sed -n 's/^kept //p' "$TEST_TMP/cap.out")"
is "$(counted cap)" "$writes $kept $kept_bytes $first" \
	"past the cap: the rewrites of kept ranges are counted exactly ($kept of $all)"
is "$(ioa_counter "$log" POSIX 0 "$work/cap" POSIX_OVERWRITE_UNTRACKED_BYTES)" \
	"$((9000 - 8192 + 5))" "and the log says how many written bytes were not kept: a lower bound"

run reset
for name in trunc otrunc again over xa; do
	is "$(counted "$name")" "$(truth "$name" reset)" \
		"$name: what the name held before a truncation, O_TRUNC, fopen w, unlink, remove or rename is not rewritten"
done

# Files past the memory budget share one overflow record: their writes
# (300 files, each written once at offset 0: no rewrite) are not compared.
logs=$(ioa_logdir)
IOATLAS_MEMORY=256KiB ioa_preload "$logs" "$IOA_BUILD_DIR/tests/workloads/posix-ops" many "$work" 300
log=$(ioa_only_log "$logs")
totals=$("$IOA_CMD" parse --total "$log")
like "$totals" '^total_POSIX_OVERWRITES: 0$' "300 files written once, some folded: no rewrite"
untracked=$("$IOA_CMD" parse "$log" |
	awk -F '\t' '$4 == "POSIX_OVERWRITE_UNTRACKED_BYTES" && $6 ~ /^<folded/ { print $5 }')
ok "the folded files' bytes are untracked ($untracked)" test "${untracked:-0}" -gt 0

done_testing
