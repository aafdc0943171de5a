# t2008-recover-collector — ioatlasd recovers on its own a job whose
# processes are gone without a log (no epilog): a user's (daemon, uid 1)
# MPI program killed by SIGKILL leaves its spill in a folder of the log
# tree that the collector's group may read; ioatlasd, run as the service
# account (nobody, group nogroup, as packaged), recovers it once the spill
# is older than collector.recover_after, and ingests the log: partial,
# the job attributed to the spill's owner (uid 1), never to the account
# that wrote the log, and with every write the program reported.  A second
# pass makes no second log.  A partial log that a user forges (their own
# file, recording another uid) is still quarantined: only the service's
# own recovered logs are trusted.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_mpi
require_cmd setpriv
[ "$(id -u)" -eq 0 ] || skip_all "running a job and the collector as other users needs root (CI runs as root)"
getent passwd daemon >/dev/null || skip_all "no 'daemon' account (uid 1) on this host"

plan 16

daemon="$IOA_BUILD_DIR/sbin/ioatlasd"
export IOATLAS_CONF=/dev/null
pg_warehouse
q() { psql -X -t -A -U ioatlas -c "$1"; }

# The tree as setup-logdir makes it: the service's, its group handed down.
logs=$(ioa_logdir)
day="$logs/$(date -u +%Y/%m/%d)"
mkdir -p "$day"
chown -R nobody:nogroup "$logs"
chmod 755 "$logs"
chmod 3773 "$logs/$(date -u +%Y)" "$logs/$(date -u +%Y/%m)" "$day"

# The job's user reaches the runtime, the program and a work folder.
own="$TEST_TMP/own"
mkdir -p "$own/work"
cp "$IOA_RUNTIME_SO" "$IOA_BUILD_DIR/tests/workloads/mpi-killed" "$own/"
chmod 0755 "$own"
chmod 0777 "$own/work"
done_count() { od -An -tu8 "$own/work/done.0" 2>/dev/null | tr -d ' '; }

# A singleton MPI job of daemon's, killed once it wrote 100 blocks.
setpriv --reuid=1 --regid=1 --clear-groups env IOATLAS_LOGDIR="$logs" \
	LD_PRELOAD="$(ioa_preload_list "$own/libioatlas.so")" \
	timeout 120 "$own/mpi-killed" "$own/work" run >"$TEST_TMP/job.out" 2>&1 &
job=$!
for _ in $(seq 300); do
	[ "$(done_count)" -ge 100 ] 2>/dev/null && break
	sleep 0.1
done
dir=$(find "$day" -maxdepth 1 -name '.live-*')
is "$(stat -c '%U %G %a' "$dir")" "daemon nogroup 2750" \
	"the spill folder is the user's, readable by the collector's group"
is "$(stat -c '%U %G %a' "$dir"/*)" "daemon nogroup 640" "and so is the spill"
pkill -KILL -f "$own/mpi-killed $own/work"
wait "$job"
for _ in $(seq 100); do
	pgrep -f "$own/mpi-killed $own/work" >/dev/null || break
	sleep 0.1
done
done=$(done_count)
sleep 2

# The service, as packaged: nobody, recovering what is 1 s old.
collect() {
	IOATLAS_LOGDIR="$logs" IOATLAS_COLLECTOR_RECOVER_AFTER=1s \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$daemon" --once \
		>>"$TEST_TMP/collector.out" 2>&1
}
ok "ioatlasd --once runs" collect
like "$(cat "$TEST_TMP/collector.out")" "recovered: ranks 0, killed" "it recovers the dead job"
log=$(ioa_logs "$logs")
is "$(stat -c '%U' "$log")" nobody "the log is the collector's file"
is "$(q "SELECT j.user_name || ':' || j.uid || ':' || k.partial || ':' || k.partial_how
	FROM job_overview j JOIN jobs k ON k.id = j.job JOIN ingest_ledger l ON l.id = j.ledger
	WHERE l.path = '$log'")" \
	"daemon:1:true:killed" "the job is ingested as daemon's, partial, killed"
w=$(ioa_counter "$log" POSIX 0 "$own/work/out.0" POSIX_WRITES)
ok "its writes are all there ($w >= $done)" test "${w:-0}" -ge "$done"

ok "a second pass runs" collect
like "$(cat "$TEST_TMP/collector.out")" "recovered before" "and says the job was recovered before"
is "$(ioa_logs "$logs" | wc -l)" 1 "no second log"
is "$(q "SELECT count(*) FROM jobs WHERE partial")" 1 "one partial job in the warehouse"

# A forgery: a partial log recording uid 0 (root's), made a user's (bin, uid 2).
forged="$day/forged.ioa"
printf 'how=killed\nranks=0\n' >"$TEST_TMP/partial.txt"
"$IOA_BUILD_DIR/tests/common/craft-log" good "$forged" --partial "$TEST_TMP/partial.txt"
chown 2:nogroup "$forged"
ok "a third pass runs" collect
like "$(q "SELECT status || ': ' || coalesce(error, '') FROM ingest_ledger WHERE path = '$forged'")" \
	"^quarantined: .*forged" "a partial log of a user's, recording another uid, is quarantined"
like "$(cat "$TEST_TMP/collector.out")" "cannot remove|recovered before" \
	"the spills of another user's folder stay for its owner to remove"
