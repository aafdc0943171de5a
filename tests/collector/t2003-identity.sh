# t2003-identity — a job belongs to the owner of its log, whatever name the
# log records.  A user (daemon, uid 1) runs a program with USER=root on a
# node whose directory service does not know them (a private /etc/passwd in
# a mount namespace), so the runtime records the name "root": the warehouse,
# its row-level security and the reports attribute the job to daemon, the
# name the collector's host gives uid 1, and keep "root" as display text
# only.  A log recording another uid than its owner's, and a root-owned copy
# of a user's log, are quarantined with the reason and what to do.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_cmd unshare
require_cmd setpriv
[ "$(id -u)" -eq 0 ] || skip_all "running a job as another user needs root (CI runs as root)"
getent passwd daemon >/dev/null || skip_all "no 'daemon' account (uid 1) on this host"

daemon="$IOA_BUILD_DIR/sbin/ioatlasd"
ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"

export IOATLAS_CONF=/dev/null
pg_warehouse
# Users' own roles, named as the Unix users (docs/warehouse.md, Roles).
psql -X -q -c 'CREATE ROLE root LOGIN IN ROLE ioatlas_user'
psql -X -q -c 'CREATE ROLE daemon LOGIN IN ROLE ioatlas_user'
q() { psql -X -t -A -U ioatlas -c "$1"; }
q_as() { psql -X -t -A -U "$1" -c "$2"; }

logs=$(ioa_logdir)
export IOATLAS_LOGDIR=$logs
chmod 1777 "$logs"
# The job's user reaches the runtime, the program and a work folder.
own="$TEST_TMP/own"
mkdir -p "$own/work"
cp "$IOA_RUNTIME_SO" "$ops" "$own/"
chmod 0755 "$own"
chmod 0777 "$own/work"
grep -v '^daemon:' /etc/passwd >"$TEST_TMP/passwd.node"

# as_hidden_daemon COMMAND...: COMMAND as uid 1 with USER=root, on a "node"
# whose passwd does not know uid 1 (the runtime then records $USER).
as_hidden_daemon() {
	run_timeout 60 unshare -m sh -c 'mount --bind "$0" /etc/passwd && exec "$@"' \
		"$TEST_TMP/passwd.node" setpriv --reuid=1 --regid=1 --clear-groups \
		env USER=root IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 \
		LD_PRELOAD="$(ioa_preload_list "$own/libioatlas.so")" "$@"
}

# --- the jobs ------------------------------------------------------------------
ok "daemon's job, with USER=root, leaves its log" as_hidden_daemon "$own/posix-ops" basic "$own/work"
forged_name=$(find "$logs" -name '*.ioa' -user 1 | head -n 1)
ok "the log is daemon's file" test -n "$forged_name"
is "$("$IOA_CMD" parse "$forged_name" | grep -E '^# (uid|user):' | tr '\n' ' ')" \
	"# uid: 1 # user: root " "and records uid 1 under the name 'root'"

ioa_preload "$logs" touch "$own/work/by-root" >/dev/null
root_log=$(find "$logs" -name '*.ioa' -user 0 | head -n 1)
ok "a job of root's leaves a log owned by root" test -n "$root_log"

# A log that records root's uid, handed to daemon (as a user would forge one).
ioa_preload "$logs" "$ops" basic "$own/work" >/dev/null
forged_uid=$(find "$logs" -name '*posix-ops*.ioa' -user 0 | head -n 1)
chown 1 "$forged_uid"
# An admin's root-owned copy of daemon's log (the original removed).
ok "a second job of daemon's" as_hidden_daemon "$own/posix-ops" stdio "$own/work"
second=$(find "$logs" -name '*.ioa' -user 1 ! -path "$forged_name" ! -path "$forged_uid" | head -n 1)
imported="$(dirname "$second")/imported.ioa"
cp "$second" "$imported" && rm -f "$second"

ok "ioatlasd --once takes the four logs" run_timeout 120 "$daemon" --once
out=$(cat "$TEST_TMP/last.out")
status() { q "SELECT status || ': ' || coalesce(error, '') FROM ingest_ledger WHERE path = '$1'"; }

# --- attribution ---------------------------------------------------------------------
is "$(status "$forged_name")" "ingested: " "daemon's log with USER=root is ingested"
is "$(q "SELECT j.user_name || ':' || j.uid FROM job_overview j JOIN ingest_ledger l ON l.id = j.ledger
	WHERE l.path = '$forged_name'")" "daemon:1" \
	"attributed to the file's owner, by the name the collector's host gives uid 1"
is "$(q "SELECT j.recorded_user FROM jobs j JOIN ingest_ledger l ON l.id = j.ledger
	WHERE l.path = '$forged_name'")" "root" "the name the log recorded is kept, as display text only"
is "$(q "SELECT count(*) FROM users WHERE name = 'root' AND uid <> 0")" 0 \
	"no users row gives the name root to another uid"
is "$(q "SELECT j.user_name || ':' || j.uid FROM job_overview j JOIN ingest_ledger l ON l.id = j.ledger
	WHERE l.path = '$root_log'")" "root:0" "root's own job is root's"

# Row-level security follows the owner.
is "$(q_as root 'SELECT count(*) FROM ioatlas.jobs')" 1 "root's role sees only root's job"
is "$(q_as root "SELECT count(*) FROM ioatlas.job_overview WHERE uid = 1")" 0 \
	"and not daemon's, whatever name daemon's log recorded"
is "$(q_as daemon 'SELECT count(*) FROM ioatlas.job_overview WHERE uid = 1')" 1 \
	"daemon's role sees daemon's job"
ok "daemon's role sees records of its job" test "$(q_as daemon 'SELECT count(*) FROM ioatlas.records')" -gt 0

# The dashboard's top users, from the warehouse (reports read users.name).
is "$(q "SELECT string_agg(user_name, ',' ORDER BY user_name) FROM job_overview")" "daemon,root" \
	"the users the reports list are the owners"

# --- forged and imported ---------------------------------------------------------------
like "$(status "$forged_uid")" "^quarantined: forged: the file belongs to uid 1 but records uid 0" \
	"a log recording another uid than its owner's is quarantined as forged"
like "$(status "$imported")" "^quarantined: forged: the file belongs to uid 0 but records uid 1.*chown" \
	"a root-owned copy of a user's log is quarantined too, saying what to do"
like "$out" "quarantined '$imported': forged: .*collector.trusted_user" \
	"the collector's message names the setting for an account that imports logs"
is "$(q 'SELECT count(*) FROM jobs')" 2 "neither added a job"

done_testing
