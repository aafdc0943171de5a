# t3002-scale — beyond one database server, on PostgreSQL's own machinery,
# with real servers: a warehouse of 1,500 varied jobs over three to four
# months (tests/perf/gen-jobs), analysed and looked at for changes; a
# streaming replica started with pg_basebackup; an archive server the
# oldest month moves to (`ioatlas warehouse archive`), attached back as
# foreign partitions through postgres_fdw.  `ioatlas history` (the
# applications, the most run one's runs, a user's, the changes), a job's
# report and the dashboard give the same answers from the primary before the
# move, after it, and from the replica (warehouse.read_conninfo) — which
# still answers with the primary stopped.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_pg

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
bin="$IOA_BUILD_DIR/libexec/ioatlas"
export IOATLAS_CONF=/dev/null IOATLAS_COLLECTOR_LOG_LEVEL=warning IOATLAS_DASHBOARD_REPORTS_MAX=5

ok "a throwaway cluster starts" pg_start
ok "the warehouse is migrated" run_timeout 60 "$wh" migrate
q() { psql -X -t -A -c "$1"; }
cd "$TEST_TMP" || exit 1

# The generated logs name their users: their owner (this account) is trusted to.
ok "1,500 jobs over 100 days are generated" "$IOA_BUILD_DIR/tests/perf/gen-jobs" logs 1500 100 3
ok "and ingested" run_timeout 300 env IOATLAS_LOGDIR="$TEST_TMP/logs" \
	IOATLAS_COLLECTOR_TRUSTED_USER="$(id -un)" "$IOA_BUILD_DIR/sbin/ioatlasd" --once
is "$(q "SELECT count(*) FROM jobs")" 1500 "every one of them"
ok "analysed" run_timeout 300 "$bin/ioatlas-analyze" --days 3660
ok "and looked at for changes" run_timeout 120 "$bin/ioatlas-history" --update
months=$(q "SELECT count(*) FROM pg_inherits WHERE inhparent = 'ioatlas.jobs'::regclass")
ok "over $months monthly partitions" test "$months" -ge 3

app=$(q "SELECT a.name FROM job_history h JOIN applications a ON a.id = h.app_id
	GROUP BY a.name ORDER BY count(*) DESC, a.name LIMIT 1")
user=$(q "SELECT u.name FROM job_history h JOIN users u ON u.id = h.user_id
	GROUP BY u.name ORDER BY count(*) DESC, u.name LIMIT 1")
old=$(q "SELECT to_char(min(start_time) AT TIME ZONE 'UTC', 'YYYY-MM') FROM jobs")
oldjob=$(q "SELECT min(id) FROM jobs WHERE start_time < date_trunc('month',
	(SELECT min(start_time) FROM jobs) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 month'")

# answers DIR: what the readers say, into DIR.
answers() {
	mkdir -p "$1"
	"$bin/ioatlas-history" --apps --json >"$1/apps.json" &&
		"$bin/ioatlas-history" --json -n 100000 "$app" >"$1/app.json" &&
		"$bin/ioatlas-history" --json -n 100000 -u "$user" >"$1/user.json" &&
		"$bin/ioatlas-history" --changes --json -d 3660 >"$1/changes.json" &&
		"$bin/ioatlas-report" --json -o "$1/report.json" "$oldjob" >/dev/null &&
		"$bin/ioatlas-dashboard" --out "$1/www" >/dev/null 2>&1 &&
		for page in "$1"/www/*.html; do
			# The pages' links to reports name the folder they were written to.
			sed "s|$1/||g" "$page" >"$page.cmp"
		done
}
same() { # same DESCRIPTION DIR_A DIR_B
	local out
	out=$(diff -r -x '*.html' -x 'users' "$2" "$3" 2>&1 | head -20)
	is "${out:-same}" same "$1"
}

ok "the primary answers" answers primary-before
like "$(jq '.jobs | length' primary-before/app.json)" '^[1-9][0-9]+$' "with $app's runs"
like "$(jq 'length' primary-before/changes.json)" '^[0-9]+$' "and the changes found"

# The replica: a copy of the primary by pg_basebackup, following it from then on.
ok "a streaming replica starts (pg_basebackup)" pg_more_start replica replica
is "$(psql -X -t -A -h "$TEST_TMP/pg-replica/sock" -c 'SELECT pg_is_in_recovery()')" t \
	"it is in recovery, following the primary"

# The archive server: its own cluster, the warehouse's schema, reached through postgres_fdw.
ok "an archive server starts" pg_more_start archive
archive="host=$TEST_TMP/pg-archive/sock user=ioatlas dbname=postgres"
ok "its schema is the warehouse's" env IOATLAS_WAREHOUSE_CONNINFO="$archive" "$wh" migrate
psql -X -q -c 'CREATE EXTENSION postgres_fdw' \
	-c "CREATE SERVER ioatlas_archive FOREIGN DATA WRAPPER postgres_fdw
		OPTIONS (host '$TEST_TMP/pg-archive/sock', dbname 'postgres')" \
	-c "CREATE USER MAPPING FOR PUBLIC SERVER ioatlas_archive
		OPTIONS (user 'ioatlas', password_required 'false')" \
	-c 'GRANT USAGE ON FOREIGN SERVER ioatlas_archive TO ioatlas_admin'
suffix=${old/-/}
before=$(q "SELECT count(*) FROM jobs_$suffix")
records=$(q "SELECT count(*) FROM records_$suffix")
export IOATLAS_WAREHOUSE_ARCHIVE_SERVER=ioatlas_archive IOATLAS_WAREHOUSE_ARCHIVE_CONNINFO="$archive"
ok "ioatlas warehouse archive $old" run_timeout 120 "$wh" archive "$old"
like "$(cat "$TEST_TMP/last.out")" "$old archived on server ioatlas_archive: [0-9]+ rows moved" \
	"says what it moved"
is "$(q "SELECT DISTINCT relkind FROM pg_class WHERE relname IN (SELECT name || '_$suffix'
	FROM partitioned_tables)")" f "the month's partitions are foreign tables now"
is "$(psql -X -t -A -h "$TEST_TMP/pg-archive/sock" -c "SELECT count(*) FROM ioatlas.jobs_$suffix") \
$(psql -X -t -A -h "$TEST_TMP/pg-archive/sock" -c "SELECT count(*) FROM ioatlas.records_$suffix")" \
	"$before $records" "their rows are on the archive server, all of them"
is "$(q "SELECT count(*) FROM jobs_$suffix")" "$before" "and reached from the warehouse"
is "$(q "SELECT month || ' ' || server FROM archived_months")" "$old-01 ioatlas_archive" \
	"the move is recorded"
ok "archiving the month again" run_timeout 60 "$wh" archive "$old"
like "$(cat "$TEST_TMP/last.out")" "is archived already" "changes nothing"
IOATLAS_WAREHOUSE_ARCHIVE_SERVER=nosuchserver fails "an unknown server is refused" "$wh" archive 2031-07

ok "the primary answers with the month archived" answers primary-after
same "the same answers as before the move (history, report, dashboard)" primary-before primary-after

# The replica: the readers pointed at it, after it replayed the primary's writes.
export IOATLAS_WAREHOUSE_READ_CONNINFO="host=$TEST_TMP/pg-replica/sock user=ioatlas dbname=postgres"
ok "the replica answers" answers replica
same "the same answers as the primary (history, report, dashboard)" primary-before replica
is "$(psql -X -t -A -h "$TEST_TMP/pg-replica/sock" -c "SELECT count(*) FROM ioatlas.jobs_$suffix")" \
	"$before" "the archived month through the replica's own foreign partitions"

pg_stop
ok "with the primary stopped, the replica still answers" \
	"$bin/ioatlas-history" --json -n 100000 "$app"
is "$(jq -c . "$TEST_TMP/last.out")" "$(jq -c . primary-before/app.json)" "the same"
done_testing
