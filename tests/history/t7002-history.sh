# t7002-history — across jobs, on programs nobody here wrote: twenty runs of
# GNU tar archiving 64 MiB, whose records (its writes) shrink from 1 MiB
# (-b 2048) to 512 B (-b 1) from run 12 on (the hidden change), and twenty
# runs of cat copying files of 48 to 80 MiB (noisy, unchanged), each under
# the runtime and ingested into a throwaway warehouse.  `ioatlas history
# --update` finds the tar regression at run 12 to 14 and nothing in cat's
# runs; `ioatlas diff` explains it by the transfer size, which tar's record
# size and its archives' sizes give; the site's hook hears of each change
# once; the build id is the one readelf reads from the binary, and a
# renamed copy of tar keeps tar's history; `ioatlas history`, the job's
# report and the dashboard show the runs and the change; every query of
# the dashboard and of the history is served by an index.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_cmd tar
require_cmd cat
require_cmd readelf

ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
history="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-history"
diff="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-diff"
export IOATLAS_CONF=/dev/null

pg_warehouse
q() { psql -X -t -A -U ioatlas -F '|' -c "$1"; }
cd "$TEST_TMP" || exit 1
logs=$(ioa_logdir)

# run OUT COMMAND...: runs it under the runtime, its output to OUT, ingests
# its log; prints the job id.
run() {
	local out=$1 before log
	shift
	before=$(ioa_logs "$logs")
	ioa_preload "$logs" "$@" >"$out" || return 1
	log=$(comm -13 <(printf '%s\n' "$before") <(ioa_logs "$logs"))
	"$ingest" "$log" | sed -n 's/^ingested .*: job \([0-9]*\),.*/\1/p'
}

declare -a tar_job
# tar's input and archives in memory: on a disk, the time of its 1 MiB writes moved by 3.4
# times between runs (the page cache's writeback), the change in it by 1.8 only on a host
# whose small writes are cheap, and the change was found late or not at all.
shm=$(mktemp -d /dev/shm/ioatlas-t7002.XXXXXX) || exit 1
at_exit "rm -rf '$shm'"
cd "$shm" || exit 1
mkdir -p in
for f in 1 2 3 4; do head -c 16777216 /dev/zero >"in/part$f"; done
RANDOM=7
for i in $(seq 1 20); do
	if [ "$i" -lt 12 ]; then
		tar_job[$i]=$(run /dev/null tar -c -b 2048 -f big.tar in)
	else
		tar_job[$i]=$(run /dev/null tar -c -b 1 -f small.tar in)
	fi
	head -c $(((48 + RANDOM % 33) * 1048576)) /dev/zero >cat.in
	run cat.out cat cat.in >/dev/null
done
big=$(stat -c %s big.tar) small=$(stat -c %s small.tar)
rm -f cat.in cat.out
is "$(q "SELECT count(*) FROM jobs")" 40 "forty runs are in the warehouse"
is "$(q "SELECT a.name || ' ' || count(*) FROM job_history h JOIN applications a
	ON a.id = h.app_id GROUP BY a.name ORDER BY a.name" | tr '\n' ' ')" "cat 20 tar 20 " \
	"each with its history row, under its program's application"

# Ground truth: tar's build id as readelf reads it; its writes, records of
# 512 bytes times its blocking factor, as many as its archive holds.
build=$(readelf -n "$(command -v tar)" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
like "$build" '^[0-9a-f]{8,}$' "readelf reads tar's build id"
is "$(q "SELECT DISTINCT build_id FROM jobs j JOIN applications a ON a.id = j.app_id
	WHERE a.name = 'tar'")" "$build" "the runtime recorded that build id for every tar run"
is "$(q "SELECT layer_bytes_written[1] FROM job_history WHERE job = ${tar_job[3]}")" "$big" \
	"a -b 2048 run: its archive's bytes"
is "$(q "SELECT layer_bytes_written[1] FROM job_history WHERE job = ${tar_job[15]}")" "$small" \
	"a -b 1 run: its archive's bytes"

# Run 21, by a renamed copy of the binary.
cp "$(command -v tar)" "$TEST_TMP/renamed-tar"
renamed=$(run /dev/null "$TEST_TMP/renamed-tar" -c -b 1 -f small.tar in)
is "$(q "SELECT a.name FROM jobs j JOIN applications a ON a.id = j.app_id WHERE j.id = $renamed")" \
	"tar" "a renamed copy of tar keeps tar's application (same build)"

# The nightly's step, as the reporting role the nightly runs as: the
# regression, once, and the hook told of it.
psql -X -q -c 'CREATE ROLE batch LOGIN IN ROLE ioatlas_reader'
export IOATLAS_WAREHOUSE_CONNINFO="user=batch"
export IOATLAS_HISTORY_HOOK="printf '%s %s %s %s\\n' \"\$IOATLAS_CHANGE_APPLICATION\" \
\"\$IOATLAS_CHANGE_METRIC\" \"\$IOATLAS_CHANGE_KIND\" \"\$IOATLAS_CHANGE_JOB\" >>'$TEST_TMP/hook.out'"
ok "ioatlas history --update finds the changes" run_timeout 120 "$history" --update
cp "$TEST_TMP/last.out" "$TEST_TMP/update.out"
sed 's/^/# /' "$TEST_TMP/update.out"
first=$(q "SELECT min(job) FROM history_changes")
is "$(q "SELECT DISTINCT a.name || ' ' || c.kind FROM history_changes c
	JOIN applications a ON a.id = c.app_id")" "tar regression" \
	"every change found is a regression of tar: nothing in cat's noisy runs"
ok "io time per byte is one of them" \
	test "$(q "SELECT count(*) FROM history_changes WHERE metric = 'io_time_per_byte'")" = 1 ||
	diag "tar's runs (job, I/O and metadata seconds, bytes):" "$(q "SELECT h.job, h.io_seconds,
		h.meta_seconds, h.bytes_written FROM job_history h JOIN applications a
		ON a.id = h.app_id WHERE a.name = 'tar' ORDER BY h.start_time")"
ok "found at run 12 to 14 (job $first; run 12 is job ${tar_job[12]})" \
	test "$first" -ge "${tar_job[12]}" -a "$first" -le "${tar_job[14]}"
is "$(q "SELECT previous_job FROM history_changes WHERE metric = 'io_time_per_byte'")" \
	"$(q "SELECT max(id) FROM jobs
	WHERE id < $first AND app_id = (SELECT app_id FROM jobs WHERE id = $first)")" \
	"the run before the change is named"
ok "with its confidence stated" grep -q 'confidence 99\.' "$TEST_TMP/update.out"
is "$(wc -l <"$TEST_TMP/hook.out")" "$(q "SELECT count(*) FROM history_changes")" \
	"the hook heard of each change"
like "$(head -1 "$TEST_TMP/hook.out")" "^tar [a-z_]+ regression $first\$" \
	"in IOATLAS_CHANGE_* variables"
ok "a second update" run_timeout 60 "$history" --update
is "$(q "SELECT count(*) FROM history_changes WHERE notified_at IS NULL")" 0 \
	"leaves no change untold"
is "$(wc -l <"$TEST_TMP/hook.out")" "$(q "SELECT count(*) FROM history_changes")" \
	"and tells none twice"

# What changed: ioatlas diff of the runs on either side of the change.
prev=$(q "SELECT previous_job FROM history_changes WHERE metric = 'io_time_per_byte'")
ok "ioatlas diff explains the change" run_timeout 60 "$diff" --json "$prev" "$first"
top=$(jq -r '.findings[0] | "\(.what) \(.layer) \(.explains)"' "$TEST_TMP/last.out")
like "$top" '^transfer size of (writes|reads) POSIX rate$' \
	"its largest finding: the POSIX transfer size ($top)"
is "$(jq -r '.findings[] | select(.what == "transfer size of writes") | "\(.a) | \(.b)"' \
	"$TEST_TMP/last.out")" "1 MiB mean, $((big / 1048576)) calls | 512 B mean, $((small / 512)) calls" \
	"1 MiB to 512 B writes, as tar's records, as many as its archives hold"
ok "its impact is most of the change in I/O time" jq -e \
	'(.findings[0].impact_seconds / .io_seconds_change) > 0.5' "$TEST_TMP/last.out"
ok "the table too" run_timeout 60 "$diff" "$prev" "$first"
sed 's/^/# /' "$TEST_TMP/last.out"
like "$(sed -n '6p' "$TEST_TMP/last.out")" 'transfer size of (writes|reads)' "ranked first"

# The history itself.
ok "ioatlas history tar" run_timeout 60 "$history" tar
cp "$TEST_TMP/last.out" "$TEST_TMP/history.out"
is "$(grep -c '^20[0-9-]* [0-9:]* ' "$TEST_TMP/last.out")" 21 "a row per run, the renamed one's too"
ok "the change is shown under its first run" grep -q '^  ^ REGRESSION tar' "$TEST_TMP/history.out"
sed 's/^/# /' "$TEST_TMP/history.out"
ok "as JSON" run_timeout 60 "$history" --json tar
is "$(jq '.jobs | length' "$TEST_TMP/last.out")" 21 "every run"
is "$(jq '[.jobs[] | .layer_seconds | length] | unique | .[0]' "$TEST_TMP/last.out")" 3 \
	"with its time per layer"
is "$(jq '[.jobs[] | (.layer_bandwidth[0] / .bandwidth - 1 | fabs < 1e-9) and
	.layer_bandwidth[2] == null] | unique' -c "$TEST_TMP/last.out")" '[true]' \
	"and its bandwidth per layer: tar's all POSIX's, none at MPI-IO"
ok "a user's history" run_timeout 60 "$history" --user "$(id -un)" -n 30
is "$(grep -c '^20[0-9-]* [0-9:]* ' "$TEST_TMP/last.out")" 30 "the latest 30 jobs, every program"
fails "an application nobody ran" "$history" nosuchapp
like "$(cat "$TEST_TMP/last.out")" "no jobs of user 'nosuchapp'" "is said so"

# The first run's report says so, and plots the runs around it; so does the dashboard.
report="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-report"
ok "the report of the first run after the change" run_timeout 60 "$report" --json -o r.json "$first"
is "$(jq -r '.history.application + " " + (.history.runs | length | tostring)' r.json)" "tar 21" \
	"places it among tar's 21 runs"
is "$(jq -r "[.history.changes[] | select(.job == $first) | .kind] | unique | .[]" r.json)" \
	regression "with the regression that begins at it"
ok "its page" run_timeout 60 "$report" -o r.html "$first"
ok "says it is the first run after the change" grep -q 'This run is the first after the change' r.html
ok "and plots the runs" grep -q '<svg[^>]*class="history"' r.html
ok "the dashboard" run_timeout 120 "$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-dashboard" --out www
ok "lists the regression" grep -q '<b>tar</b> (.*Regression</b>: I/O time per byte' www/index.html
ok "with tar's runs plotted" grep -q '<svg[^>]*class="history"' www/index.html

# Every query of the dashboard (its pages, its users' pages and reports) and
# of ioatlas history is served by an index: with sequential scans priced out
# (enable_seqscan off), PostgreSQL's auto_explain logs each plan, and none
# reads a per-job table, the ledger or the changes whole.
psql -X -q -c 'CREATE ROLE explainer LOGIN IN ROLE ioatlas_reader' \
	-c "ALTER ROLE explainer SET session_preload_libraries = 'auto_explain'" \
	-c 'ALTER ROLE explainer SET auto_explain.log_min_duration = 0' \
	-c 'ALTER ROLE explainer SET auto_explain.log_nested_statements = on' \
	-c 'ALTER ROLE explainer SET enable_seqscan = off'
logged=$(wc -l <"$PG_ROOT/server.log")
ok "the dashboard, its plans logged" run_timeout 120 env IOATLAS_WAREHOUSE_CONNINFO=user=explainer \
	"$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-dashboard" --out www-explained
for what in tar "-u $(id -un)" --changes --apps; do
	ok "ioatlas history $what, its plans logged" env IOATLAS_WAREHOUSE_CONNINFO=user=explainer \
		"$history" $what
done
plans=$(tail -n +"$logged" "$PG_ROOT/server.log")
like "$plans" 'Scan( Backward)? (using|on) jobs_[0-9]+_start_time_idx' "the plans were logged, the periods' by the jobs' start time"
whole=$(grep -oE 'Seq Scan on (jobs|records|time_bins|failures|hints|traces|job_mounts|analysis_results|job_history)_[0-9]+|Seq Scan on (ingest_ledger|history_changes|job_kernels)\b' <<<"$plans" | sort -u)
is "${whole:-none}" none "no plan reads a per-job table, the ledger or the changes whole"

# Every history query is served by an index (planned without sequential scans).
explain() { psql -X -t -A -U ioatlas -c "SET enable_seqscan = off; EXPLAIN $1"; }
like "$(explain "SELECT * FROM application_history WHERE app_id = 1
	ORDER BY start_time DESC LIMIT 50")" 'job_history_[0-9]*_app_id_start_time_idx' \
	"an application's history"
like "$(explain "SELECT * FROM job_history WHERE user_id = 1
	ORDER BY start_time DESC LIMIT 50")" 'job_history_[0-9]*_user_id_start_time_idx' "a user's"
like "$(explain "SELECT * FROM history_changes WHERE job = 1")" 'history_changes_job' \
	"a job's changes"
done_testing
