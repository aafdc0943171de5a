# t2004-quarantine-folder — a user cannot take the quarantine folder over.
# The collector makes it (mode 0750) or checks it before it starts: a
# folder made by a user, one others may write, a symbolic link or a file
# in its place stop the collector with what is wrong and what to do, and
# no log moves there.  A user's symbolic link in the quarantine is never
# followed nor replaced, and a log moved once the collector runs goes into
# the folder it checked, even if the name is made to point elsewhere.  A
# folder of the log tree that is a symbolic link is not walked, and a log
# named through one is neither read nor moved.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
[ "$(id -u)" -eq 0 ] || skip_all "making folders that belong to another user needs root (CI runs as root)"

daemon="$IOA_BUILD_DIR/sbin/ioatlasd"
IOA_CMD="$IOA_BUILD_DIR/bin/ioatlas"

export IOATLAS_CONF=/dev/null
pg_warehouse
q() { psql -X -t -A -U ioatlas -c "$1"; }
status() { q "SELECT status || ': ' || coalesce(error, '') FROM ingest_ledger WHERE path = '$1'"; }

logs=$(ioa_logdir)
export IOATLAS_LOGDIR=$logs
chmod 755 "$logs"
ioa_preload "$logs" touch "$TEST_TMP/x" >/dev/null
good=$(ioa_only_log "$logs")
day=$(dirname "$good")
# bad NAME: a log that will be quarantined (not a log at all), fresh each time.
bad() { head -c 3000 /dev/urandom >"$day/$1.ioa"; }
qdir="$logs/quarantine"

# --- taken over before the collector starts ---------------------------------------
mkdir -m 0777 "$qdir"
chown 1 "$qdir"
bad first
out=$(run_timeout 60 "$daemon" --once 2>&1)
is "$?" 1 "a quarantine folder made by a user: the collector refuses to start"
like "$out" "quarantine folder '$qdir' belongs to uid 1, not to .*: .*chown" \
	"saying whose it is and what to do"
is "$(q 'SELECT count(*) FROM ingest_ledger')" 0 "and takes no log"
is "$(ls -A "$qdir")" "" "none moves there"

chown 0 "$qdir"
out=$(run_timeout 60 "$daemon" --once 2>&1)
is "$?" 1 "a quarantine folder others may write: refused"
like "$out" "quarantine folder '$qdir' is writable by (its group or )?others .*chmod go-w" \
	"saying what to do"

rmdir "$qdir"
elsewhere="$TEST_TMP/elsewhere"
mkdir -m 0750 "$elsewhere"
ln -s "$elsewhere" "$qdir"
out=$(run_timeout 60 "$daemon" --once 2>&1)
is "$?" 1 "a symbolic link in the quarantine folder's place: refused"
like "$out" "quarantine folder '$qdir' is a symbolic link" "saying so"
is "$(ls -A "$elsewhere")" "" "nothing moved where it points"

rm "$qdir"
: >"$qdir"
out=$(run_timeout 60 "$daemon" --once 2>&1)
is "$?" 1 "a file in the quarantine folder's place: refused"
like "$out" "quarantine folder '$qdir' is not a folder" "saying so"
rm "$qdir"

# --- made by the collector --------------------------------------------------------------
ok "with no quarantine folder the collector starts and takes the logs" \
	run_timeout 60 "$daemon" --once
is "$(stat -c '%u %a' "$qdir")" "0 750" "it made the folder, its own, mode 0750"
ok "the bad log is in it" test -f "$qdir/first.ioa" -a ! -e "$day/first.ioa"
is "$(status "$good" | cut -d: -f1)" ingested "the good log is ingested"

# A symbolic link already in the quarantine (a user's, made before the
# folder was checked) is neither followed nor replaced.
target="$TEST_TMP/target"
echo precious >"$target"
ln -s "$target" "$qdir/second.ioa"
bad second
ok "a log whose quarantine name holds a symbolic link" run_timeout 60 "$daemon" --once
is "$(cat "$target")" precious "the link's target is untouched"
ok "the link is still a link" test -L "$qdir/second.ioa"
like "$(q "SELECT quarantine_path FROM ingest_ledger WHERE path = '$day/second.ioa'")" \
	"^$qdir/second.ioa.1$" "the log went to a free name beside it"
ok "and is there" test -f "$qdir/second.ioa.1"

# --- a user's folder in the tree that is a symbolic link -----------------------------------
# A user who may make a year folder ahead makes it a link to folders whose
# files are another user's: the collector neither reads nor moves them.
victim="$TEST_TMP/victim"
mkdir -p "$victim/01/01" "$TEST_TMP/hop"
head -c 3000 /dev/urandom >"$victim/01/01/private.ioa"
ln -s "$victim" "$logs/2031"
ok "a pass over a tree with a linked year folder" run_timeout 60 "$daemon" --once
ok "the file behind the link is left where it is" test -f "$victim/01/01/private.ioa"
is "$(q "SELECT count(*) FROM ingest_ledger WHERE path LIKE '$logs/2031/%'")" 0 \
	"and the collector does not take it"
out=$(run_timeout 60 "$IOA_CMD" ingest "$logs/2031/01/01/private.ioa")
like "$out" "^quarantined $logs/2031/01/01/private.ioa: .*symbolic link" \
	"named by hand through the link, it is recorded as quarantined, saying why"
ok "but not moved" test -f "$victim/01/01/private.ioa"
is "$(q "SELECT coalesce(quarantine_path, 'none') FROM ingest_ledger WHERE path = '$logs/2031/01/01/private.ioa'")" \
	none "the ledger says it stayed"
rm "$logs/2031"

# --- the name made to point elsewhere while the collector runs ----------------------
printf 'collector.rescan = 1h\ncollector.summary = 1h\n' >"$TEST_TMP/site.conf"
IOATLAS_CONF="$TEST_TMP/site.conf" "$daemon" >"$TEST_TMP/daemon.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid 2>/dev/null"
for _ in $(seq 50); do grep -q "collecting" "$TEST_TMP/daemon.out" && break; sleep 0.1; done
sleep 0.5
mv "$qdir" "$logs/quarantine.checked"
ln -s "$elsewhere" "$qdir"
bad third
for _ in $(seq 100); do
	[ -n "$(status "$day/third.ioa")" ] && break
	sleep 0.1
done
sleep 0.3
kill -TERM "$pid"
wait "$pid"
like "$(status "$day/third.ioa")" "^quarantined: " "a log found while the collector runs is quarantined"
is "$(ls -A "$elsewhere")" "" "not into the folder the new link points to"
ok "but into the folder it checked" test -f "$logs/quarantine.checked/third.ioa"

done_testing
