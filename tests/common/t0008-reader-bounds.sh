# t0008-reader-bounds — logs crafted to exhaust the readers (tests/common/
# craft-log.c, through the real writer) get a prompt refusal or a bounded
# answer from every tool that reads them: a trace loop of 2^62 iterations
# (around nothing, or around a write with 2^62 calls claimed) and a trace
# group claiming 2^24 ranks in `ioatlas trace`, `report`, `analyze` and
# `dashboard`, and in the kernel generator; a job claiming 2^31 - 1
# ranks (the report stays small); counters whose sums overflow, negative
# counts and times that are not numbers (`parse --json` refuses them, and
# its JSON is strict); counts of 2^63 - 1 (sums saturate, never wrap);
# the same counters in the column encoding of log format 1.1.
# Every command runs under a timeout: a hang fails.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd python3

craft="$IOA_BUILD_DIR/tests/common/craft-log"
tools="$IOA_BUILD_DIR/libexec/ioatlas"
# The tools stop expanding a trace at analyze.max_events: a cap lower than
# the default (4 million) takes them down the same ways in less time, which
# the sanitizer build's run needs.  What the default costs is measured, not
# tested (docs/performance.md, "Write phases found once per job").
export IOATLAS_CONF="$TEST_TMP/ioatlas.conf"
echo "analyze.max_events = 250000" >"$IOATLAS_CONF"

# bounded SECONDS DESCRIPTION COMMAND...: the command ends, successfully, within SECONDS.
bounded() {
	local seconds=$1 description=$2
	shift 2
	ok "$description" run_timeout "$seconds" "$@"
}

# refuses SECONDS DESCRIPTION COMMAND...: the command ends within SECONDS
# with a clean non-zero status (not a timeout, not a signal).
refuses() {
	local seconds=$1 description=$2 status
	shift 2
	run_timeout "$seconds" "$@" >"$TEST_TMP/last.out" 2>&1
	status=$?
	if [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$status" -lt 128 ]; then
		tap_result 0 "$description"
		return 0
	fi
	tap_result 1 "$description"
	diag "expected a prompt refusal, got status $status from: $*"
	sed -n '1,20p' "$TEST_TMP/last.out" | sed 's/^/#   /'
	return 1
}

# size FILE: its size in bytes (0 when missing).
size() { stat -c %s "$1" 2>/dev/null || echo 0; }

for kind in good loop-empty loop-calls nprocs counters huge ranks good-columns counters-columns \
	huge-columns; do
	"$craft" "$kind" "$TEST_TMP/$kind.ioa" || {
		echo "Bail out! craft-log $kind failed"
		exit 255
	}
done
cd "$TEST_TMP" || exit 255

# --- a trace loop of 2^62 iterations
bounded 20 "the honest log's trace expands" "$tools/ioatlas-trace" --expand good.ioa
like "$(cat "$TEST_TMP/last.out")" "^ +0 +15 POSIX +write +61440 " "to its 16 writes"
refuses 20 "trace --expand refuses a loop around nothing" \
	"$tools/ioatlas-trace" --expand loop-empty.ioa
like "$(cat "$TEST_TMP/last.out")" "cannot read the trace of 'loop-empty.ioa': rank 0's is malformed" \
	"saying the trace is malformed"
refuses 20 "trace --expand refuses 2^62 writes" "$tools/ioatlas-trace" --expand loop-calls.ioa
like "$(cat "$TEST_TMP/last.out")" \
	"rank 0 expands to 4611686018427387904 calls, more than the 4194303 left of --max-calls" \
	"saying how many calls, and the bound"
bounded 20 "trace shows the 2^62 loop compressed" "$tools/ioatlas-trace" loop-calls.ioa
like "$(cat "$TEST_TMP/last.out")" "loop 4611686018427387904 \(i0\)" "as one loop"
bounded 20 "report reads past the loop around nothing" \
	"$tools/ioatlas-report" loop-empty.ioa --json -o loop-empty.json
like "$(cat loop-empty.json)" '"trace":"none"' "leaving the malformed trace out"
bounded 60 "report reads the 2^62 writes in bounded time" \
	"$tools/ioatlas-report" loop-calls.ioa --json -o loop-calls.json
like "$(cat loop-calls.json)" '"trace":"partial"' "keeping the first calls, said partial"

# --- a trace group claiming 2^24 ranks (74 KB of log)
bounded 20 "trace shows the group of 2^24 ranks compressed" "$tools/ioatlas-trace" ranks.ioa
like "$(cat "$TEST_TMP/last.out")" "^# group 0: ranks 0-16777215 \(16777216\)" "as one group"
refuses 20 "trace --expand stops at --max-calls" "$tools/ioatlas-trace" --expand --max-calls 1000 ranks.ioa
like "$(cat "$TEST_TMP/last.out")" "rank 58 expands to 16 calls, more than the 13 left of --max-calls 1000" \
	"after the calls it allows"
bounded 60 "report reads the 2^24 ranks' traces in bounded time" \
	"$tools/ioatlas-report" ranks.ioa --json -o ranks.json
like "$(cat ranks.json)" '"trace":"partial"' "keeping the first ranks' calls, said partial"

# --- the kernel generator's walker
if [ -x "$tools/ioatlas-kernel" ]; then
	refuses 20 "kernel gen refuses the loop around nothing" \
		"$tools/ioatlas-kernel" gen loop-empty.ioa -o k-empty
	like "$(cat "$TEST_TMP/last.out")" "loop-empty.ioa: its operation trace is malformed" \
		"saying the trace is malformed"
	bounded 20 "kernel gen makes the 2^62 loop a loop" \
		"$tools/ioatlas-kernel" gen loop-calls.ioa -o k-calls
	refuses 20 "kernel gen refuses 2^24 ranks it would hold open at once" \
		"$tools/ioatlas-kernel" gen ranks.ioa -o k-ranks
	like "$(cat "$TEST_TMP/last.out")" "ranks.ioa: its trace claims more ranks than a kernel" \
		"saying why"
else
	skip "no ioatlas-kernel in this build" "kernel gen on the crafted traces"
fi

# --- 2^31 - 1 ranks claimed, one held
bounded 20 "report reads a job claiming 2^31 - 1 ranks" \
	"$tools/ioatlas-report" nprocs.ioa --json -o nprocs.json
like "$(cat nprocs.json)" '"ranks":1,' "its per-rank tables cover the one rank the log holds"
like "$(cat nprocs.json)" '"ranks_claimed":2147483647' "and it says what the log claimed"
bounded 20 "the page too" "$tools/ioatlas-report" nprocs.ioa -o nprocs.html
ok "the page stays small (under 1 MB: $(size nprocs.html) bytes)" \
	test -s nprocs.html -a "$(size nprocs.html)" -lt 1000000
like "$(cat nprocs.html)" "the log claims 2147483647 ranks but holds data for 1" "and says so"

# --- counters: sums that overflow, a negative count, NaN and infinite times
refuses 20 "parse --json refuses negative counts and times that are not numbers" \
	"$tools/ioatlas-parse" --json counters.ioa
like "$(cat "$TEST_TMP/last.out")" \
	"cannot read log 'counters.ioa': region [0-9]+: record 0: count POSIX_READS is negative \(-5\)" \
	"naming the record and the counter"
refuses 20 "report refuses them too" "$tools/ioatlas-report" counters.ioa -o counters.html
bounded 20 "parse --total sums counts of 2^63 - 1" "$tools/ioatlas-parse" --total huge.ioa
like "$(cat "$TEST_TMP/last.out")" "^total_POSIX_BYTES_WRITTEN: 9223372036854775807$" \
	"saturated, never wrapped negative"
# Of several files there is no one fastest or slowest rank: -1, as darshan-parser says.
unlike "$(grep -Ev '^total_[A-Z]+_(FASTEST|SLOWEST)_RANK(_BYTES)?: -1$' "$TEST_TMP/last.out")" \
	"^total_[A-Z_]+: -" "no total is negative (but the ranks no one rank stands for)"
bounded 20 "report sums them too" "$tools/ioatlas-report" huge.ioa --json -o huge.json

# --- the same in the column encoding (format 1.1)
refuses 20 "parse --json refuses a negative count in the column encoding" \
	"$tools/ioatlas-parse" --json counters-columns.ioa
like "$(cat "$TEST_TMP/last.out")" \
	"cannot read log 'counters-columns.ioa': region [0-9]+: record 0: count POSIX_READS is negative \(-5\)" \
	"naming the record and the counter"
refuses 20 "report refuses it too" "$tools/ioatlas-report" counters-columns.ioa -o counters-columns.html
bounded 20 "parse --total sums counts of 2^63 - 1 in the column encoding" \
	"$tools/ioatlas-parse" --total huge-columns.ioa
like "$(cat "$TEST_TMP/last.out")" "^total_POSIX_BYTES_WRITTEN: 9223372036854775807$" \
	"saturated, never wrapped negative"
bounded 20 "parse --bins reads the column encoding's bins" \
	"$tools/ioatlas-parse" --bins good-columns.ioa
like "$(cat "$TEST_TMP/last.out")" $'\t2\t2\\.000000\t3\\.000000\t0\t61440\t0\t15\t/scratch/crafted/data\\.bin' \
	"as written: 61440 bytes in 15 writes in bin 2"
bounded 20 "parse --json reads the honest log" "$tools/ioatlas-parse" --json good.ioa
cp "$TEST_TMP/last.out" good.json
ok "into strict JSON whose counts are finite and non-negative" python3 -c '
import json, math, sys
def strict(x):
    raise ValueError("not JSON: " + x)
doc = json.load(open(sys.argv[1]), parse_constant=strict)
for r in doc["records"]:
    assert r["id"].isdigit(), r["id"]
    for k, v in r["counters"].items():
        if isinstance(v, str):  # a record id: its digits, exact
            assert k.endswith("RENAMED_FROM") and v.isdigit(), k
            continue
        assert v >= 0 or k.endswith(("_RANK", "_ACCESS", "_STRIDE", "FIRST_OFFSET")), k
    for k, v in r["fcounters"].items():
        assert math.isfinite(v), k
' good.json

# --- the warehouse: ingest, analyze and dashboard under timeouts
if ! pg_bindir >/dev/null; then
	skip "no PostgreSQL server (initdb) is installed" "analyze and dashboard over the crafted jobs"
else
	wh="$tools/ioatlas-warehouse"
	ok "a throwaway cluster starts" pg_start
	ok "the warehouse is migrated" "$wh" migrate
	for kind in good loop-empty loop-calls nprocs ranks good-columns; do
		bounded 60 "$kind.ioa is ingested" "$tools/ioatlas-ingest" "$TEST_TMP/$kind.ioa"
	done
	fails "counters.ioa is refused at ingest" "$tools/ioatlas-ingest" "$TEST_TMP/counters.ioa"
	fails "counters-columns.ioa too" "$tools/ioatlas-ingest" "$TEST_TMP/counters-columns.ioa"
	bounded 120 "analyze runs over the crafted jobs in bounded time" \
		"$tools/ioatlas-analyze" --days 1
	bounded 120 "dashboard writes its pages and reports in bounded time" \
		"$tools/ioatlas-dashboard" --out "$TEST_TMP/www"
	total=$(du -sb "$TEST_TMP/www" | cut -f1)
	ok "and they stay small (under 20 MB: $total bytes)" test "$total" -lt 20000000
fi
done_testing
