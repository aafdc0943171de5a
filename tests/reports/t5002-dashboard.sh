# t5002-dashboard — `ioatlas dashboard` over a warehouse of jobs from two
# users (one with a hostile program name) and a quarantined log: the pages
# for each period open in headless Chromium with no console message, list
# the tops, insights and coverage, link every job to its report, and each
# user's reports are readable by that user alone (or by the site's report
# group when configured).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || skip_all "no chromium (Debian's chromium package)"
[ "$(id -u)" -eq 0 ] || skip_all "needs root: jobs of two users, reports given to each"

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
daemon="$IOA_BUILD_DIR/sbin/ioatlasd"
analyze="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-analyze"
dashboard="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-dashboard"
artifacts="$IOA_BUILD_DIR/tests/reports/artifacts"
mkdir -p "$artifacts"
chmod 711 "$TEST_TMP"

ok "a throwaway cluster starts" pg_start
export IOATLAS_CONF=/dev/null
ok "the warehouse is migrated" "$wh" migrate
q() { psql -X -t -A -U ioatlas -c "$1"; }

# Jobs: root runs a program with an HTML name, nobody runs another; a log is corrupt.
logs="$TEST_TMP/logs"
mkdir -p "$logs" "$TEST_TMP/bin" "$TEST_TMP/data"
chmod 1777 "$logs" "$TEST_TMP/data"
hostile_exe="$TEST_TMP/bin/<b onclick=x>touch"
cp "$(command -v touch)" "$hostile_exe"
ioa_preload "$logs" "$hostile_exe" "$TEST_TMP/data/root-file"
mkdir -m 777 "$TEST_TMP/data/nobody"
setpriv --reuid=nobody --regid=nogroup --clear-groups env IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 \
	LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	"$IOA_BUILD_DIR/tests/workloads/posix-ops" basic "$TEST_TMP/data/nobody"
day=$(find "$logs" -name '*.ioa' | head -n 1 | xargs dirname)
printf 'garbage' >"$day/broken.ioa"
IOATLAS_LOGDIR="$logs" "$daemon" --once >/dev/null 2>&1
is "$(q "SELECT count(*) FROM jobs")" 2 "two jobs are in the warehouse"
is "$(q "SELECT count(*) FROM ingest_ledger WHERE status = 'quarantined'")" 1 "and one log quarantined"
ok "they are analysed" "$analyze"

www="$TEST_TMP/www"
ok "the dashboard is written" "$dashboard" --out "$www"
for page in index.html 1d.html 7d.html 30d.html 365d.html; do
	ok "$page is there" test -s "$www/$page"
done
rm -f "$artifacts/t5002-dashboard.png"
run_timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
	--user-data-dir="$TEST_TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
	--enable-logging=stderr --v=0 --window-size=1280,3000 \
	--screenshot="$artifacts/t5002-dashboard.png" "file://$www/index.html" >/dev/null 2>"$TEST_TMP/console"
ok "it opens in Chromium (screenshot kept)" test -s "$artifacts/t5002-dashboard.png"
is "$(grep CONSOLE "$TEST_TMP/console")" "" "with no console message and no network request"

index=$(cat "$www/index.html")
like "$index" "<h3>users by bytes</h3>" "it shows the top users by bytes"
like "$index" "<text x=\"0\" y=\"[0-9]+\"><title>nobody</title>nobody</text>" "with nobody among them"
like "$index" "<h3>executables by jobs</h3>" "the top executables by jobs"
like "$index" "&lt;b onclick=x&gt;touch" "the hostile program name as text"
unlike "$index" "<b onclick" "never as markup"
like "$index" "<h2>Insights over time</h2>" "insight prevalence"
like "$index" '<td title="small_requests">[a-z][^<_]+</td>' \
	"with the small requests of nobody's job, in words (the code as its tooltip)"
like "$index" '<th class="n">[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:00)?</th>' \
	"per hour or day, dated as people read dates"
unlike "$index" '[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?\+00' "no raw timestamp anywhere"
like "$index" "<td>quarantined</td><td class=\"n\">1</td>" "coverage counts the quarantined log"
like "$index" "<td class=\"name\">truncated header [^<]*</td><td class=\"n\">1</td>" "and says why"

root_job=$(q "SELECT j.id FROM jobs j JOIN users u ON u.id = j.user_id WHERE u.name = 'root'")
nobody_job=$(q "SELECT j.id FROM jobs j JOIN users u ON u.id = j.user_id WHERE u.name = 'nobody'")
like "$index" "href=\"users/root/job-$root_job.html\"" "a job links to its report"
ok "which is there" test -s "$www/users/root/job-$root_job.html"
is "$(stat -c '%U %a' "$www/users/nobody" "$www/users/nobody/job-$nobody_job.html" | tr '\n' ' ')" \
	"nobody 700 nobody 600 " "a user's folder and reports are that user's alone"
ok "nobody reads their own report" \
	setpriv --reuid=nobody --regid=nogroup --clear-groups cat "$www/users/nobody/job-$nobody_job.html"
fails "but not root's" \
	setpriv --reuid=nobody --regid=nogroup --clear-groups cat "$www/users/root/job-$root_job.html"

# A report group (a web server's) may read every user's reports.
rm -rf "$www"
IOATLAS_DASHBOARD_REPORT_GROUP=nogroup ok "with a report group" "$dashboard" --out "$www"
is "$(stat -c '%U %G %a' "$www/users/nobody" "$www/users/nobody/job-$nobody_job.html" | tr '\n' ' ')" \
	"nobody nogroup 750 nobody nogroup 640 " "the group may read, others may not"
IOATLAS_DASHBOARD_REPORT_GROUP=no-such-group fails "an unknown group is refused" "$dashboard" --out "$www"
like "$(cat "$TEST_TMP/last.out")" "dashboard.report_group: no group 'no-such-group'" "by name"
done_testing
