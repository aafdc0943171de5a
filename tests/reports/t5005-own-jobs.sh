# t5005-own-jobs — users find and read their own jobs, and only theirs,
# with nothing set up for them: two unprivileged accounts (made for the
# test) run jobs; the collector ingests them; the nightly's users step
# makes each user's role (by a reader role, without CREATEROLE: the
# migration, run by a superuser, gave create_user_roles() a role of its
# own); the warehouse then takes local connections by peer authentication
# as a site's does (pg_hba.conf: `local all all peer`).  Each user's
# `ioatlas jobs` lists their job and not the other's, `ioatlas report`
# reports their job and refuses the other's, naming the other user or
# PGUSER changes nothing; an admin (root's role, a reader) sees both.
# Without the warehouse, `ioatlas jobs` reads the user's own logs through
# own-logs, set-group-ID to the log tree's group as the packages install
# it: the user's logs, never the other's; not set-group-ID, it says what
# is missing.  The dashboard (run as root, as the nightly's may be) gives
# each user a page of their jobs that they alone may read, checked in
# Chromium opened as that user, and the site pages, which list everyone's
# jobs, to the site's staff group only.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
[ "$(id -u)" -eq 0 ] || skip_all "making two users and running their jobs needs root (CI runs as root)"
require_cmd useradd
require_cmd groupadd
require_cmd runuser
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || skip_all "no chromium (Debian's chromium package)"

export IOATLAS_CONF=/dev/null
pg_warehouse
libexec="$IOA_BUILD_DIR/libexec/ioatlas"
q() { psql -X -t -A -U ioatlas -c "$1"; }

# --- the accounts: two users, and the log tree's group -----------------------
users="ioat_ana ioat_ben"
group=ioat_logs
staff=ioat_staff
# made_group NAME / made_user NAME [OPTIONS]: made for the test, removed after
# (an account or group that was there already is used and left alone).
made_group() {
	getent group "$1" >/dev/null && return 0
	groupadd --system "$1" || bail "cannot make the group $1"
	at_exit "groupdel '$1' 2>/dev/null"
}
made_user() {
	local u=$1
	shift
	getent passwd "$u" >/dev/null && return 0
	useradd --system --no-create-home --shell /usr/sbin/nologin "$@" "$u" ||
		bail "cannot make the account $u"
	at_exit "userdel '$u' 2>/dev/null"
}
made_group "$staff"
made_user ioat_adm -G "$staff"
for u in $users; do
	made_user "$u"
done
made_group "$group"

# The programs the users run, where they can reach them (TEST_TMP is 0711).
own="$TEST_TMP/own"
mkdir -p "$own/bin"
cp "$IOA_RUNTIME_SO" "$IOA_BUILD_DIR/tests/workloads/posix-ops" "$own/"
cp "$libexec/ioatlas-jobs" "$libexec/ioatlas-report" "$libexec/own-logs" "$own/bin/"
chmod -R a+rX "$own"
runtime=$(ioa_preload_list "$own/libioatlas.so")

# The log tree as a site has it: day folders mode 3773 in the tree's group.
logs="$TEST_TMP/logtree"
ok "the log tree's day folders are made" \
	"$libexec/ioatlas-setup-logdir" --days 1 --group "$group" --logdir "$logs"
chmod 0755 "$logs"

# as USER COMMAND...: COMMAND as USER, with the user's own environment for
# the warehouse: no PGUSER, the site's connection string without a user.
as() {
	local u=$1
	shift
	run_timeout 120 runuser -u "$u" -- env -u PGUSER IOATLAS_WAREHOUSE_CONNINFO= \
		IOATLAS_LOGDIR="$logs" HOME="$TEST_TMP" "$@"
}

for u in $users; do
	mkdir -p "$TEST_TMP/work-$u"
	chown "$u" "$TEST_TMP/work-$u"
	ok "$u's job runs under the runtime" \
		as "$u" env IOATLAS_NONMPI=1 LD_PRELOAD="$runtime" "$own/posix-ops" basic "$TEST_TMP/work-$u"
done
ana_log=$(find "$logs" -name '*.ioa' -user ioat_ana)
ben_log=$(find "$logs" -name '*.ioa' -user ioat_ben)
ok "each leaves a log of their own" test -n "$ana_log" -a -n "$ben_log"

# --- the warehouse, by peer authentication -----------------------------------
ok "the collector ingests both" run_timeout 120 env IOATLAS_LOGDIR="$logs" \
	"$IOA_BUILD_DIR/sbin/ioatlasd" --once
ana_job=$(q "SELECT j.id FROM jobs j JOIN users u ON u.id = j.user_id WHERE u.name = 'ioat_ana'")
ben_job=$(q "SELECT j.id FROM jobs j JOIN users u ON u.id = j.user_id WHERE u.name = 'ioat_ben'")
like "$ana_job $ben_job" '^[0-9]+ [0-9]+$' "one job each in the warehouse"

# The site's pg_hba.conf: the service roles as set up, everyone else by peer.
cat >"$PG_ROOT/data/pg_hba.conf" <<EOF
local all ioatlas trust
local all collector trust
local all nightly trust
local all all peer
EOF
pg_as_owner "$PG_BINDIR/pg_ctl" -D "$PG_ROOT/data" reload >/dev/null
psql -X -q -c 'CREATE ROLE nightly LOGIN IN ROLE ioatlas_reader'
psql -X -q -c 'CREATE ROLE root LOGIN IN ROLE ioatlas_reader'

# Before the nightly: no role yet, and own-logs not set-group-ID.
out=$(as ioat_ana "$own/bin/ioatlas-jobs" 2>&1)
isnt_ok=$?
like "$out" "warehouse is out of reach.*ioat_ana" "no role yet: ioatlas jobs says the warehouse refused"
like "$out" "cannot list your logs in '$logs'.*set-group-ID" \
	"and that own-logs must be set-group-ID to read the log tree"
is "$isnt_ok" 1 "exiting 1"

out=$(run_timeout 60 env IOATLAS_WAREHOUSE_CONNINFO=user=nightly "$libexec/ioatlas-warehouse" users 2>&1)
like "$out" "^ioat_ana: created$" "the nightly's users step makes ana's role"
like "$out" "^ioat_ben: created$" "and ben's"
like "$(q "SELECT string_agg(rolname || ':' || rolcanlogin || ':' || pg_has_role(rolname, 'ioatlas_user',
	'MEMBER') || ':' || (rolpassword IS NULL), ' ' ORDER BY rolname) FROM pg_authid
	WHERE rolname LIKE 'ioat\\_%'")" "^ioat_ana:true:true:true ioat_ben:true:true:true$" \
	"login roles in ioatlas_user, without a password"
like "$(run_timeout 60 env IOATLAS_WAREHOUSE_CONNINFO=user=nightly "$libexec/ioatlas-warehouse" users)" \
	"^ioat_ana: exists$" "a second run leaves them be"
out=$(as ioat_ana "$libexec/ioatlas-warehouse" users 2>&1)
like "$out" "making roles needs a role with CREATEROLE" "a user, connected as herself, cannot make roles"

# jobs_of USER [ARGS...]: the warehouse ids `ioatlas jobs --json` lists for USER.
jobs_of() {
	local u=$1
	shift
	as "$u" "$own/bin/ioatlas-jobs" --json "$@" |
		python3 -c 'import json, sys; d = json.load(sys.stdin)
print(d["source"], " ".join(sorted(j["job"] + ":" + j["user"] for j in d["jobs"])))'
}
is "$(jobs_of ioat_ana)" "warehouse $ana_job:ioat_ana" "ana's jobs: hers"
is "$(jobs_of ioat_ben)" "warehouse $ben_job:ioat_ben" "ben's jobs: his"
is "$(jobs_of ioat_ana --user ioat_ben)" "warehouse " "ana naming ben sees none of his"
is "$(jobs_of ioat_ana --all)" "warehouse $ana_job:ioat_ana" "nor with --all"
out=$(as ioat_ana env PGUSER=ioat_ben "$own/bin/ioatlas-jobs" 2>&1)
like "$out" "warehouse is out of reach.*(peer|ioat_ben)" "PGUSER=ben is refused by peer authentication"
unlike "$out" "^ *$ben_job " "and lists no job of ben's"
table=$(as ioat_ana "$own/bin/ioatlas-jobs")
like "$table" "^$ana_job +[^ ]+ +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]+ +[0-9:]+ +1 +.* posix-ops +" \
	"the table: job, batch job, start, time, ranks, program"
like "$table" "^JOB +BATCH JOB +STARTED +RAN +RANKS +I/O +PROGRAM +TOP FINDING$" "under its header"

as ioat_ana "$own/bin/ioatlas-report" --json -o - "$ana_job" >"$TEST_TMP/ana.json" 2>"$TEST_TMP/ana.err"
is "$?" 0 "ana's report of her job" || diag "$(cat "$TEST_TMP/ana.err")"
like "$(cat "$TEST_TMP/ana.json")" "$TEST_TMP/work-ioat_ana/" "with her files"
out=$(as ioat_ana "$own/bin/ioatlas-report" --json -o - "$ben_job" 2>&1)
is "$?" 1 "ana's report of ben's job is refused"
like "$out" "no such job" "as a job she cannot see"
unlike "$out" "work-ioat_ben" "showing nothing of it"

is "$(jobs_of root --all)" "warehouse $(printf '%s\n' "$ana_job:ioat_ana" "$ben_job:ioat_ben" | sort | tr '\n' ' ' | sed 's/ $//')" \
	"an admin (a reader's role) sees both with --all"
is "$(jobs_of root --user ioat_ben)" "warehouse $ben_job:ioat_ben" "and one user's with --user"
like "$(as root "$own/bin/ioatlas-jobs" --all)" "USER" "the admin's table names each job's user"

# --- the log tree, through own-logs ------------------------------------------
chgrp "$group" "$own/bin/own-logs"
chmod 2755 "$own/bin/own-logs"
is "$(jobs_of ioat_ana --logs)" "logs $ana_log:ioat_ana" "ana's logs: hers, through the set-group-ID helper"
is "$(jobs_of ioat_ben --logs)" "logs $ben_log:ioat_ben" "ben's: his"
is "$(as ioat_ana env IOATLAS_WAREHOUSE_CONNINFO="host=$TEST_TMP/nowhere" "$own/bin/ioatlas-jobs" --json 2>/dev/null |
	python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["source"], len(d["jobs"]))')" "logs 1" \
	"the warehouse away: ana's one job from her logs"
like "$(as ioat_ana "$own/bin/ioatlas-jobs" --logs)" "^$ana_log +[^ ]+ .* posix-ops" \
	"the job is the log, for ioatlas report"
listed=$(as ioat_ana "$own/bin/own-logs" 1 "$logs" | tr '\0' '\n')
is "$listed" "$ana_log" "own-logs prints ana's log, not ben's"
is "$(as ioat_ana "$own/bin/own-logs" 1 "$PG_ROOT" | tr -d '\0')" "" \
	"pointed elsewhere (the database's folder) it shows her nothing"
fails "own-logs refuses a relative tree" as ioat_ana "$own/bin/own-logs" 1 logtree
fails "and a day count out of range" as ioat_ana "$own/bin/own-logs" 0 "$logs"
fails "--logs with --all is refused" as ioat_ana "$own/bin/ioatlas-jobs" --logs --all

# --- the dashboard: a page per user, the site's pages for staff -------------
www="$TEST_TMP/www"
ok "the dashboard is written (as root, the site group the staff's)" run_timeout 300 \
	env IOATLAS_WAREHOUSE_CONNINFO=user=nightly IOATLAS_DASHBOARD_SITE_GROUP="$staff" \
	"$libexec/ioatlas-dashboard" --out "$www"
is "$(stat -c '%U %G %a' "$www/index.html" "$www/users/ioat_ana" "$www/users/ioat_ana/index.html" |
	tr '\n' ' ')" "root $staff 640 ioat_ana root 700 ioat_ana root 600 " \
	"the site page is the staff's to read; ana's folder and page are hers alone"
ok "ana reads her page" as ioat_ana cat "$www/users/ioat_ana/index.html"
fails "but not ben's" as ioat_ana cat "$www/users/ioat_ben/index.html"
fails "nor the site's, which lists everyone's jobs" as ioat_ana cat "$www/index.html"
like "$(as ioat_adm cat "$www/index.html")" "ioat_ana.*ioat_ben|ioat_ben.*ioat_ana" \
	"a member of the staff group reads the site's page, with both users"
# ana's page in Chromium, opened as ana.
mkdir -p "$TEST_TMP/chromium-ana"
chown ioat_ana "$TEST_TMP/chromium-ana"
dom=$(as ioat_ana "$chromium" --headless=new --no-sandbox --disable-gpu \
	--user-data-dir="$TEST_TMP/chromium-ana" --host-resolver-rules="MAP * ~NOTFOUND" \
	--dump-dom "file://$www/users/ioat_ana/index.html" 2>/dev/null)
like "$dom" "<h1>I/O of ioat_ana's jobs</h1>" "in Chromium, ana's page is hers"
like "$dom" "href=\"job-$ana_job.html\">$ana_job</a>" "listing her job, linked to its report"
ok "which she may read" as ioat_ana test -r "$www/users/ioat_ana/job-$ana_job.html"
unlike "$dom" "ioat_ben|job-$ben_job\.html|>$ben_job<" "and nothing of ben's"

done_testing
