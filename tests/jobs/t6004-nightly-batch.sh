# t6004-nightly-batch — `ioatlas nightly`, the site's nightly batch, on a
# log tree and a throwaway warehouse: the backlog is ingested, the job
# analysed, its program's kernel published and linked, the dashboard
# written; a step that fails is said and the others still run; the steps
# can be chosen; bad settings are refused; the systemd unit and timer pass
# systemd-analyze verify.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_mpi

nightly="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-nightly"
wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
gt="$IOA_BUILD_DIR/tests/jobs/ground-truth"
runtime=$(ioa_preload_list "$IOA_RUNTIME_SO")

ok "a throwaway cluster starts" pg_start
ok "the warehouse is migrated" env IOATLAS_CONF=/dev/null "$wh" migrate
q() { psql -X -t -A -U ioatlas -c "$1"; }

logs=$(ioa_logdir)
mkdir -p "$TEST_TMP/data"
ioa_mpi_preload "$logs" 4 120 "$gt" header "$TEST_TMP/data" >/dev/null
conf="$TEST_TMP/ioatlas.conf"
cat >"$conf" <<EOF
logdir = $logs
nightly.dashboard_out = $TEST_TMP/www
kernel.repository = $TEST_TMP/kernels
kernel.nightly_top = 1
kernel.runtime = $runtime
EOF
export IOATLAS_CONF="$conf"

out=$(run_timeout 900 "$nightly" 2>&1)
is "$?" 0 "the nightly batch succeeds"
for step in ingest users analyze history kernels dashboard; do
	like "$out" "^ioatlas nightly: $step done in [0-9.]+ s$" "its $step step runs"
done
like "$out" "all steps done" "and it says so"
is "$(q "SELECT pg_has_role(rolname, 'ioatlas_user', 'MEMBER') FROM pg_roles WHERE rolname =
	'$(id -un)'")" t "the users step made the job's user a role of their own"
job=$(q "SELECT id FROM jobs")
like "$job" '^[0-9]+$' "the log is in the warehouse"
like "$(q "SELECT count(*) FROM analysis_results WHERE job = $job")" '^[1-9][0-9]*$' \
	"the job is analysed"
ok "its program's kernel is published" test -s "$TEST_TMP/kernels/kernels/ground-truth/$job/kernel.c"
is "$(q "SELECT name FROM job_kernels WHERE job = $job")" ground-truth "and recorded for its report"
ok "the dashboard is written" test -s "$TEST_TMP/www/index.html"

out=$(run_timeout 900 "$nightly" --steps analyze,dashboard --dashboard "$TEST_TMP/www/index.html" 2>&1)
is "$?" 1 "a step that fails fails the night ..."
like "$out" "dashboard failed \(status 1\)" "... saying which"
like "$out" "^ioatlas nightly: analyze done" "... the steps before it still done"
unlike "$out" "ingest|kernels" "only the steps asked for run"

printf 'nightly.steps = ingest, analyse\n' >"$conf"
out=$("$nightly" 2>&1)
is "$?" 2 "a step the batch does not know is refused"
like "$out" "no step 'analyse'" "naming it"
printf 'nightly.steps = analyze dashboard\n' >"$conf"
out=$("$nightly" 2>&1)
is "$?" 2 "a dashboard without a folder is refused"
like "$out" "nightly.dashboard_out or --dashboard" "saying where to name it"
printf 'nightly.stepz = ingest\n' >"$conf"
fails "an unknown nightly setting is refused" "$nightly"

# The units a site installs, pointed at this build.
for unit in ioatlas-nightly.service ioatlas-nightly.timer; do
	sed "s|^ExecStart=.*|ExecStart=$nightly|" "$IOA_BUILD_DIR/share/ioatlas/$unit" \
		>"$TEST_TMP/$unit"
done
ok "the nightly unit passes systemd-analyze verify" \
	systemd-analyze verify "$TEST_TMP/ioatlas-nightly.service"
ok "and its timer" systemd-analyze verify "$TEST_TMP/ioatlas-nightly.timer"

pg_stop
done_testing
