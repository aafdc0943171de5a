# t2005-unreadable — a log the collector may not read yet (its permissions
# are fixed later) is tried again with backoff, not quarantined for good:
# once readable it is ingested, once.  A log that stays unreadable is
# quarantined after collector.unreadable_wait, saying how often it was
# tried; a corrupt log is still quarantined at once, and the other logs
# do not wait.  The collector runs as nobody here (root reads everything).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_cmd setpriv
[ "$(id -u)" -eq 0 ] || skip_all "running the collector as another user needs root (CI runs as root)"

daemon="$IOA_BUILD_DIR/sbin/ioatlasd"

export IOATLAS_CONF=/dev/null
pg_warehouse
q() { psql -X -t -A -U ioatlas -c "$1"; }
status() { q "SELECT status || ': ' || coalesce(error, '') FROM ingest_ledger WHERE path = '$1'"; }

logs=$(ioa_logdir)
export IOATLAS_LOGDIR=$logs
ioa_preload "$logs" touch "$TEST_TMP/a" >/dev/null
ioa_preload "$logs" touch "$TEST_TMP/b" >/dev/null
ioa_preload "$logs" touch "$TEST_TMP/c" >/dev/null
set -- $(ioa_logs "$logs")
late=$1 never=$2 fine=$3
day=$(dirname "$late")
# The tree is the service account's (nobody); the logs are root's jobs'.
chown -R nobody "$logs"
chown root "$late" "$never" "$fine"
chmod 0400 "$late" "$never"
chmod 0444 "$fine"
head -c 3000 /dev/urandom >"$day/garbage.ioa"
chmod 0444 "$day/garbage.ioa"

# --- the service: permissions fixed while it waits --------------------------------------
printf 'collector.rescan = 1h\ncollector.summary = 1h\n' >"$TEST_TMP/site.conf"
chmod 0644 "$TEST_TMP/site.conf"
IOATLAS_CONF="$TEST_TMP/site.conf" IOATLAS_COLLECTOR_UNREADABLE_WAIT=1m setpriv --reuid=nobody --regid=nogroup --clear-groups "$daemon" \
	>"$TEST_TMP/d.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid 2>/dev/null"
for _ in $(seq 100); do
	[ -n "$(status "$fine")" ] && [ -n "$(status "$day/garbage.ioa")" ] && break
	sleep 0.1
done
is "$(status "$fine")" "ingested: " "a readable log is ingested, not held up by the unreadable ones"
like "$(status "$day/garbage.ioa")" "^quarantined: .*not an ioatlas log" \
	"a corrupt log is still quarantined at once"
sleep 1.5
is "$(status "$late")" "" "an unreadable log is not quarantined at the first refusal"
ok "it stays where it is" test -f "$late"
like "$(cat "$TEST_TMP/d.out")" "'$late' not readable now \(cannot open: Permission denied\): trying again in [0-9]+ s" \
	"the collector says it will try again"
chmod 0444 "$late"
for _ in $(seq 100); do
	[ -n "$(status "$late")" ] && break
	sleep 0.1
done
is "$(status "$late")" "ingested: " "once its permissions are fixed it is ingested"
is "$(q "SELECT count(*) FROM ingest_ledger l JOIN jobs j ON j.ledger = l.id WHERE l.path = '$late'")" 1 \
	"once"
kill -TERM "$pid"
wait "$pid"
is "$?" 0 "the service stops cleanly"

# --- --once: a log that stays unreadable ----------------------------------------------
start=$(date +%s)
IOATLAS_COLLECTOR_UNREADABLE_WAIT=3 run_timeout 60 \
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$daemon" --once >"$TEST_TMP/once.out" 2>&1
is "$?" 0 "ioatlasd --once finishes"
took=$(($(date +%s) - start))
ok "after waiting about collector.unreadable_wait (took $took s)" test "$took" -ge 3 -a "$took" -le 20
like "$(status "$never")" "^quarantined: unreadable after [0-9]+ tries over [0-9]+ s: cannot open: Permission denied" \
	"a log still unreadable then is quarantined, saying how often it was tried"
ok "and moved to the quarantine folder" test -f "$logs/quarantine/$(basename "$never")"
is "$(q "SELECT count(*) FROM ingest_ledger WHERE path = '$never'")" 1 "one ledger row for it"
is "$(q 'SELECT count(*) FROM jobs')" 2 "the two readable logs are in, once each"

# --- by hand -----------------------------------------------------------------------------
ioa_preload "$logs" touch "$TEST_TMP/d" >/dev/null
by_hand=$(ioa_logs "$logs" | grep -v /quarantine/ | while read -r f; do
	[ -n "$(status "$f")" ] || echo "$f"; done | head -n 1)
chown root "$by_hand"
chmod 0400 "$by_hand"
out=$(IOATLAS_COLLECTOR_UNREADABLE_WAIT=2 run_timeout 60 \
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOA_CMD" ingest "$by_hand" 2>&1)
like "$out" "'$by_hand' not readable now \(cannot open: Permission denied\): trying again in" \
	"ioatlas ingest tries an unreadable log again too"
like "$out" "^quarantined $by_hand: unreadable after [0-9]+ tries" "and quarantines it after the wait"

done_testing
