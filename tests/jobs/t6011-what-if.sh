# t6011-what-if — `ioatlas kernel what-if`: a job's kernel replayed as the
# job ran and with a change, alternating, the medians compared.  A real
# ROMIO hint on a collective writer (ground-truth collective, MPICH): with
# cb_buffer_size at 16 KiB, each 1 MiB collective write takes 64 rounds of
# two-phase I/O instead of one, and the replay says it is measurably slower.
# Recorded with --job and --finding, the job's report shows the replay
# beside the finding it answers (escaped like every text it shows).  Bad
# requests are refused before anything runs.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_mpi

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
analyze="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-analyze"
kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
report="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-report"
gt="$IOA_BUILD_DIR/tests/jobs/ground-truth"
export IOATLAS_CONF=/dev/null

ok "a throwaway cluster starts" pg_start
ok "the warehouse is migrated" "$wh" migrate
q() { psql -X -t -A -U ioatlas -c "$1"; }

logs=$(ioa_logdir)
mkdir -p "$TEST_TMP/data"
ok "the collective writer runs under the runtime" \
	ioa_mpi_preload "$logs" 4 120 -genv GROUND_TRUTH_COMPUTE 0.01 "$gt" collective "$TEST_TMP/data"
log=$(ioa_only_log "$logs")
job=$("$ingest" "$log" | sed -n 's/^ingested .*: job \([0-9]*\),.*/\1/p')
like "$job" '^[0-9]+$' "and is ingested"
ok "and analysed" "$analyze" --job "$job"
is "$(q "SELECT count(*) FROM analysis_results, jsonb_array_elements(result->'findings') f
	WHERE job = $job AND f->>'code' = 'aggregation'")" 1 "its aggregation is a finding"
ok "its kernel is generated" "$kernel" gen "$log" -o "$TEST_TMP/k"

# Refused before anything runs.
out=$("$kernel" what-if "$TEST_TMP/k" 2>&1)
is "$?" 2 "no change: a usage error"
like "$out" "no change asked" "saying what is missing"
fails "a hint without '='" "$kernel" what-if "$TEST_TMP/k" --hint cb_nodes
fails "a hint with the kernel's separator" "$kernel" what-if "$TEST_TMP/k" --hint 'a=1;b=2'
fails "a transfer size of 0" "$kernel" what-if "$TEST_TMP/k" --transfer-size 0
fails "--finding without --job" "$kernel" what-if "$TEST_TMP/k" --hint a=1 --finding aggregation
fails "a folder without a kernel" "$kernel" what-if "$TEST_TMP" --hint a=1

# The replay, 3 runs of each in fast mode (no compute gaps: the I/O alone).  The second
# hint, unknown to ROMIO, carries markup for the report to escape.
out=$(run_timeout 600 "$kernel" what-if "$TEST_TMP/k" --hint cb_buffer_size=16384 \
	--hint 'ioatlas_note=<b>&' --runs 3 --mode fast --job "$job" --finding aggregation --json \
	2>"$TEST_TMP/whatif.err")
is "$?" 0 "what-if: cb_buffer_size=16384 (the JSON alone on standard output)" ||
	diag "$(cat "$TEST_TMP/whatif.err")"
is "$(jq -r '.runs, (.base_seconds | length), (.changed_seconds | length)' <<<"$out" | tr '\n' ' ')" \
	"3 3 3 " "three timed runs of each"
base=$(jq -r .base_median <<<"$out")
changed=$(jq -r .changed_median <<<"$out")
ok "the change is measurable: $changed s against $base s, 1.5 times or more" \
	awk -v a="$base" -v b="$changed" 'BEGIN { exit !(a > 0 && b >= 1.5 * a) }'
ok "and its difference is said (+$(jq -r '.difference * 100 | floor' <<<"$out")%)" \
	test "$(jq -r '.difference > 0.5' <<<"$out")" = true
is "$(q "SELECT change || '|' || finding || '|' || runs FROM job_whatif WHERE job = $job")" \
	"--hint cb_buffer_size=16384 --hint ioatlas_note=<b>&|aggregation|3" \
	"recorded for the job, with the finding it answers"
is "$(q "SELECT round(changed_seconds::numeric, 4) = round($changed::numeric, 4)
	FROM job_whatif WHERE job = $job")" t "with the medians it printed"

# The same in words, once, with the kernel's other knobs: a transfer size and an alignment.
ok "what-if in words, the POSIX knobs" run_timeout 600 "$kernel" what-if "$TEST_TMP/k" \
	--transfer-size 4k --align 1M --runs 1 --mode fast
like "$(cat "$TEST_TMP/last.out")" "--transfer-size 4096 --align 1048576 +[0-9.]+ " \
	"the change as the kernel's options, in bytes"
like "$(cat "$TEST_TMP/last.out")" "the change: [-+][0-9.]+% \\((faster|slower|the same)\\)" \
	"and the difference"

# The job's report: the replay beside the finding, and in the kernel's section.
ok "the job's report is written" env -C "$TEST_TMP" "$report" "$job"
page=$TEST_TMP/job-$job.html
is "$(grep -o 'What-if on the job' "$page" | wc -l)" 2 \
	"the replay is shown twice: beside its finding and with the kernel"
like "$(grep -o '<code>[^<]*</code>' "$page" | head -1)" \
	'<code>--hint cb_buffer_size=16384 --hint ioatlas_note=&lt;b&gt;&amp;</code>' \
	"its change escaped"
unlike "$(cat "$page")" "note=<b>" "no markup of the change reaches the page"
like "$(sed -n '/class="finding/,/<\/div><\/div>/p' "$page" | grep -o 'aggregat[^<]*\|What-if on the job' | tr '\n' ' ')" \
	"What-if on the job" "inside a finding's box"
is "$("$report" --json -o - "$job" | jq -r '.whatif[0].finding')" aggregation "the report's JSON carries it"

# A job the warehouse does not hold is said, after the replay.
out=$(run_timeout 600 "$kernel" what-if "$TEST_TMP/k" --hint cb_nodes=1 --runs 1 --mode fast \
	--job 999999 2>&1)
is "$?" 1 "a job not in the warehouse fails"
like "$out" "no job 999999 in the warehouse" "saying so"

pg_stop
done_testing
