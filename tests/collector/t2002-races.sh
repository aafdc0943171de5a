# t2002-races — exactly once whatever happens around the
# collector: two collectors racing over 200 logs, the database stopped and
# started again in the middle of a backlog, and the collector killed with
# SIGKILL twenty times at random moments.  Every log ends up in the
# warehouse once, with its records, and nothing else does.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
daemon="$IOA_BUILD_DIR/sbin/ioatlasd"

ok "a throwaway cluster starts" pg_start
export IOATLAS_CONF=/dev/null
"$wh" migrate >/dev/null
psql -X -q -c 'CREATE ROLE collector LOGIN BYPASSRLS IN ROLE ioatlas_ingest'
export IOATLAS_WAREHOUSE_CONNINFO="user=collector" IOATLAS_COLLECTOR_LOG_LEVEL=warning
q() { psql -X -t -A -U ioatlas -c "$1"; }

logs=$(ioa_logdir)
export IOATLAS_LOGDIR=$logs
data="$TEST_TMP/data"
mkdir -p "$data"

# make_logs N TAG: N small jobs, each its own log.
make_logs() {
	local i
	for i in $(seq "$1"); do
		ioa_preload "$logs" touch "$data/$2-$i" || return 1
	done
}

# exactly_once: every log on disk has one ledger row, ingested, and one job;
# no job lacks its ledger row; every job has its records.
exactly_once() {
	local n
	n=$(ioa_logs "$logs" | wc -l)
	is "$(q "SELECT count(*) FROM ingest_ledger WHERE status = 'ingested'"):$(q 'SELECT count(*) FROM jobs')" \
		"$n:$n" "$1: each of the $n logs is in once, one job each" || return 1
	is "$(q 'SELECT count(*) FROM jobs j LEFT JOIN ingest_ledger l ON l.job = j.id
		WHERE l.id IS NULL OR j.ledger <> l.id')" 0 "$1: no job without its ledger row"
	is "$(q 'SELECT count(*) FROM jobs j WHERE NOT EXISTS
		(SELECT 1 FROM records r WHERE r.job = j.id)')" 0 "$1: every job has its records"
}

# --- two collectors, 200 logs ------------------------------------------------
ok "200 jobs leave 200 logs" make_logs 200 race
"$daemon" --once >"$TEST_TMP/c1" 2>&1 &
one=$!
"$daemon" --once >"$TEST_TMP/c2" 2>&1
two=$?
wait "$one"
is "$?:$two" "0:0" "two collectors on one tree both finish"
exactly_once "two collectors racing"
is "$(q "SELECT count(DISTINCT collector) FROM ingest_ledger")" 2 "both took a share of the work"

# --- the database stops and starts again mid-backlog ----------------------------
ok "100 more jobs" make_logs 100 restart
before=$(q 'SELECT count(*) FROM jobs')
IOATLAS_COLLECTOR_RESCAN=1 "$daemon" >"$TEST_TMP/d.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid 2>/dev/null"
for _ in $(seq 200); do
	[ "$(q 'SELECT count(*) FROM jobs')" -ge $((before + 10)) ] && break
	sleep 0.05
done
ok "the database stops in the middle of the backlog" pg_stop
sleep 2
ok "and starts again" pg_resume
total=$(ioa_logs "$logs" | wc -l)
for _ in $(seq 600); do
	[ "$(q 'SELECT count(*) FROM jobs' 2>/dev/null)" = "$total" ] && break
	sleep 0.1
done
kill -TERM "$pid"
wait "$pid"
exactly_once "the database restarted"
like "$(cat "$TEST_TMP/d.out")" "the warehouse went away|cannot connect to the warehouse" \
	"the collector saw the database go"
like "$(cat "$TEST_TMP/d.out")" "the warehouse is reachable again" "and come back"

# --- SIGKILL, twenty times -----------------------------------------------------
ok "100 more jobs" make_logs 100 killed
for k in $(seq 20); do
	"$daemon" --once >/dev/null 2>&1 &
	pid=$!
	sleep "0.$(printf '%02d' $((RANDOM % 40 + 2)))"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
done
is "$(q "SELECT count(*) FROM ingest_ledger")" "$(q "SELECT count(*) FROM jobs")" \
	"after 20 kills: as many ledger rows as jobs (nothing half-done)"
ok "a last run finishes the backlog" "$daemon" --once
exactly_once "killed 20 times"

done_testing
