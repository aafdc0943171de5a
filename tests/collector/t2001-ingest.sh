# t2001-ingest — ioatlasd moves real MPI jobs' logs into a
# throwaway warehouse: every record, counter and file name byte for byte;
# a second pass is a no-op; corrupt, truncated, foreign and forged logs are
# quarantined with their reasons; copies are recorded as duplicates; the
# service finds new logs by inotify, reloads on SIGHUP and stops on SIGTERM.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_mpi

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
daemon="$IOA_BUILD_DIR/sbin/ioatlasd"
ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"
mpiio="$IOA_BUILD_DIR/tests/workloads/mpi-io"
tops="$IOA_BUILD_DIR/tests/workloads/trace-ops"

ok "a throwaway cluster starts" pg_start
export IOATLAS_CONF=/dev/null
ok "the warehouse is migrated" "$wh" migrate
# The collector connects as an ingest-only role, as a site would run it.
psql -X -q -c 'CREATE ROLE collector LOGIN IN ROLE ioatlas_ingest'
export IOATLAS_WAREHOUSE_CONNINFO="user=collector"
out=$("$daemon" --once 2>&1)
is "$?" 1 "a collector role without BYPASSRLS: the collector stops at once"
like "$out" "role 'collector' cannot load tables under row-level security: a superuser must run ALTER ROLE .collector. BYPASSRLS" \
	"and says how to fix it"
psql -X -q -c 'ALTER ROLE collector BYPASSRLS'
q() { psql -X -t -A -U ioatlas -c "$1"; }

logs=$(ioa_logdir)
export IOATLAS_LOGDIR=$logs
data="$TEST_TMP/data"
mkdir -p "$data/<script>alert(1)<"

# --- real jobs --------------------------------------------------------------
ioa_mpi_preload "$logs" 4 120 "$mpiio" shared "$data" >/dev/null
ioa_mpi_preload "$logs" 2 120 "$tops" strided "$data" >/dev/null
odd=$(printf '%s/a\nb\377 q"uote' "$data")
script="$data/<script>alert(1)</script>"
ioa_preload "$logs" touch "$odd" "$script"
jobs=$(ioa_logs "$logs" | wc -l)
is "$jobs" 3 "three jobs left their logs"

ok "ioatlasd --once ingests the backlog" run_timeout 120 "$daemon" --once
once=$(cat "$TEST_TMP/last.out")
is "$(q 'SELECT count(*) FROM jobs')" "$jobs" "one job per log"
is "$(q "SELECT count(*) FROM ingest_ledger WHERE status = 'ingested' AND job IS NOT NULL")" \
	"$jobs" "each log's ledger row says ingested, with its job"
is "$(printf '%s\n' "$once" | grep -c "^ioatlasd: info: ingested '")" "$jobs" \
	"one info line per log"
like "$once" "summary: 3 logs in .*backlog 0, ingested 3, duplicates 0, quarantined 0" \
	"and a summary at the end"

# Every record of every log, with its counters, as `ioatlas parse` reads them.
want=$(for log in $(ioa_logs "$logs"); do
	"$IOA_CMD" parse "$log" | awk -F '\t' '$1 ~ /^(POSIX|STDIO|MPI-IO)$/ { n[$1 "|" $2 "|" $3]++ }
		END { print length(n) }'
done | awk '{ sum += $1 } END { print sum }')
is "$(q 'SELECT count(*) FROM records')" "$want" "every module record is in the warehouse"
is "$(q 'SELECT count(*) FROM records WHERE file IS NULL')" 0 \
	"each names its file (a rank's names region follows its module regions)"
log=$(ioa_logs "$logs" | grep trace-ops)
want=$(ioa_counter "$log" POSIX 0 "$data/d-strided.0" POSIX_WRITES)
got=$(q "SELECT r.counters[c.position] FROM records r
	JOIN file_names n ON n.sha256 = r.file
	JOIN counter_names c ON c.module = r.module AND c.kind = 'counter' AND c.name = 'POSIX_WRITES'
	WHERE n.display = '$data/d-strided.0' AND r.rank = 0")
is "$got" "$want" "a counter reads back as the log has it (POSIX_WRITES = $want)"
is "$(q "SELECT bytes_written FROM records r
	JOIN file_names n ON n.sha256 = r.file WHERE n.display = '$data/d-strided.0' AND module = 0")" \
	100000 "bytes written are pulled out of the counters"
is "$(q "SELECT nprocs FROM jobs j JOIN executables e ON e.id = j.exe_id
	WHERE e.display LIKE '%/trace-ops'")" 2 "the job's rank count"
is "$(q "SELECT array_length(rank_nodes, 1), hostnames[rank_nodes[1] + 1] FROM jobs j
	JOIN executables e ON e.id = j.exe_id WHERE e.display LIKE '%/trace-ops'")" \
	"2|$(hostname)" "where each rank ran"
is "$(q "SELECT count(*) FROM traces t JOIN jobs j ON j.id = t.job
	JOIN executables e ON e.id = j.exe_id WHERE e.display LIKE '%/trace-ops'")" 1 \
	"its operation trace is kept"
is "$(q "SELECT count(*) > 0 FROM time_bins")" t "time bins are in"

hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
is "$(q "SELECT encode(name, 'hex') FROM file_names WHERE display LIKE '%uote'")" \
	"$(hex "$odd")" "a name with a newline, a quote and a non-UTF-8 byte round-trips byte for byte"
is "$(q "SELECT display FROM file_names WHERE display LIKE '%uote'")" \
	"$data/a\\nb\\xff q\"uote" "and has a one-line display form"
is "$(q "SELECT encode(name, 'hex') FROM file_names WHERE display LIKE '%script>'")" \
	"$(hex "$script")" "a name with <script> round-trips byte for byte"

out=$(run_timeout 120 "$daemon" --once 2>&1)
is "$(printf '%s\n' "$out" | grep -c "ingested '")" 0 "a second pass ingests nothing"
is "$(q 'SELECT count(*) FROM jobs')" "$jobs" "and adds no job"

# --- bad logs ----------------------------------------------------------------
day=$(dirname "$log")
a_log=$(ioa_logs "$logs" | head -n 1)
cp "$a_log" "$day/copy_of_a_log.ioa"
size=$(stat -c %s "$a_log")
cp "$a_log" "$day/corrupt.ioa"
printf 'XXXXXXXX' | dd of="$day/corrupt.ioa" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
head -c $((size / 2)) "$a_log" >"$day/truncated.ioa"
head -c 5000 /dev/urandom >"$day/garbage.ioa"
ln -s "$a_log" "$day/link.ioa"
: >"$day/writing.ioa.part"
ioa_preload "$logs" "$ops" basic "$data" >/dev/null
forged=$(ioa_logs "$logs" | grep -v /quarantine/ | grep posix-ops)
chown nobody "$forged"

ok "ioatlasd --once takes the bad logs" run_timeout 120 "$daemon" --once
status() { q "SELECT status || ': ' || coalesce(error, '') FROM ingest_ledger WHERE path = '$1'"; }
is "$(status "$day/copy_of_a_log.ioa")" "duplicate: " "a copy of an ingested log is a duplicate"
like "$(status "$day/corrupt.ioa")" "^quarantined: .*(checksum|CRC|corrupt)" \
	"a corrupt log is quarantined, saying so"
like "$(status "$day/truncated.ioa")" "^quarantined: .*(truncated|past the end|short)" \
	"a truncated log is quarantined, saying so"
like "$(status "$day/garbage.ioa")" "^quarantined: .*not an ioatlas log" \
	"a file that is no log is quarantined"
like "$(status "$day/link.ioa")" "^quarantined: cannot open: a symbolic link" \
	"a symbolic link is not followed"
like "$(status "$forged")" "^quarantined: forged: the file belongs to uid [0-9]+ but records uid 0" \
	"a log owned by someone other than its recorded user is rejected as forged"
is "$(q "SELECT count(*) FROM ingest_ledger WHERE path LIKE '%.part'")" 0 "a .part file is left alone"
ok "quarantined logs are moved to the quarantine folder" \
	test -f "$logs/quarantine/corrupt.ioa" -a -f "$logs/quarantine/garbage.ioa" \
	-a ! -e "$day/corrupt.ioa"
is "$(q "SELECT count(*) FROM ingest_ledger WHERE status = 'quarantined' AND
	quarantine_path LIKE '$logs/quarantine/%'")" 5 "the ledger says where each went"
is "$(q 'SELECT count(*) FROM jobs')" "$jobs" "no bad log added a job"

# A move to the quarantine folder that fails (another file system: no
# rename there) is said, and finished by a later pass.
qdir="$TEST_TMP/qdir"
mkdir -m 0750 "$qdir"
cp "$a_log" "$day/late.ioa"
printf 'YYYYYYYY' | dd of="$day/late.ioa" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
if mount -t tmpfs -o size=1m,mode=0750 tmpfs "$qdir" 2>/dev/null; then
	at_exit "umount '$qdir' 2>/dev/null"
	IOATLAS_COLLECTOR_QUARANTINE="$qdir" run_timeout 120 "$daemon" --once >"$TEST_TMP/late.out" 2>&1
	is "$?" 0 "--once ends when a move to the quarantine folder fails (it used to rescan for ever)"
	like "$(cat "$TEST_TMP/late.out")" "cannot move '$day/late.ioa' to the quarantine folder" \
		"a move to the quarantine folder that fails is said"
	ok "the log stays where it was, recorded as quarantined" \
		test -f "$day/late.ioa" -a "$(status "$day/late.ioa" | cut -d: -f1)" = quarantined
	umount "$qdir"
else
	skip "mounting a small tmpfs needs root" "--once ends when a move to the quarantine folder fails"
	skip "mounting a small tmpfs needs root" "a move to the quarantine folder that fails is said"
	skip "mounting a small tmpfs needs root" "the log stays where it was, recorded as quarantined"
	IOATLAS_COLLECTOR_QUARANTINE="$qdir" run_timeout 120 "$daemon" --once >/dev/null 2>&1
	mv "$qdir/late.ioa" "$day/late.ioa"
fi
IOATLAS_COLLECTOR_QUARANTINE="$qdir" run_timeout 120 "$daemon" --once >"$TEST_TMP/late.out" 2>&1
ok "a later pass moves it where the ledger says" test -f "$qdir/late.ioa" -a ! -e "$day/late.ioa"

ioa_preload "$logs" "$ops" basic "$data" >/dev/null
trusted=$(ioa_logs "$logs" | grep -v /quarantine/ | grep posix-ops)
chown nobody "$trusted"
IOATLAS_COLLECTOR_TRUSTED_USER=nobody run_timeout 120 "$daemon" --once >/dev/null 2>&1
is "$(status "$trusted")" "ingested: " "a log owned by the trusted service account is accepted"

# --- by hand ------------------------------------------------------------------
by_hand=$(ioa_logdir)
ioa_preload "$by_hand" touch "$data/by-hand"
hl=$(ioa_only_log "$by_hand")
like "$("$IOA_CMD" ingest "$hl")" "^ingested $hl: job [0-9]+, [0-9]+ records$" \
	"ioatlas ingest LOG ingests a log by hand"
like "$(cd "$(dirname "$hl")" && "$IOA_CMD" ingest "$(basename "$hl")")" "^known $hl: in the ledger" \
	"a second time (named relative to the working folder) it is known"
out=$("$IOA_CMD" ingest "$by_hand/nonexistent.ioa")
is "$?" 1 "a log that is not there: status 1"
like "$out" "^gone $by_hand/nonexistent.ioa" "saying so"
status=$("$IOA_CMD" ingest --status)
like "$status" "^  quarantined:  6  6$" "ioatlas ingest --status counts the quarantined"
like "$status" "^  ingested:  $((jobs + 2))  $((jobs + 2))$" "and the ingested, all time and the last day"
like "$status" "^log tree $logs: [0-9]+ logs, backlog 0$" "and the tree's backlog"

# Progress on a terminal (script(1) gives the command one), nothing of it in a pipe.
many=$(ioa_logdir)
for i in 1 2 3; do ioa_preload "$many" touch "$data/many-$i"; done
set -- $(ioa_logs "$many")
tty_out=$(TERM=xterm run_timeout 60 script -qec "$(printf '%q ' "$IOA_CMD" ingest "$1" "$2")" /dev/null)
like "$tty_out" $'\r\033\\[Kioatlas ingest: ingesting logs 1/2 \\(50%\\)' \
	"on a terminal, ioatlas ingest shows its progress, redrawn in place"
like "$tty_out" "^ingested $1: job" "between its results"
pipe_out=$("$IOA_CMD" ingest "$3" "$1" 2>&1 | cat)
unlike "$pipe_out" $'ingesting logs|\r|\033' "in a pipe, no progress and no control characters"

# The example queries of docs/warehouse.md, on the warehouse this test filled.
awk -v dir="$TEST_TMP" '/^```sql$/ { n++; f = dir "/query." n ".sql"; next }
	/^```$/ { f = ""; next } f { print > f }' "$IOA_SOURCE_DIR/docs/warehouse.md"
bad=""
for f in "$TEST_TMP"/query.*.sql; do
	psql -X -q -v ON_ERROR_STOP=1 -U ioatlas -f "$f" >"$f.out" 2>&1 || bad="$bad $(basename "$f")"
done
is "$(ls "$TEST_TMP"/query.*.sql | wc -l):$bad" "8:" "the documented example queries run"
like "$(cat "$TEST_TMP/query.1.sql.out")" "^ root +\| +[0-9]+ \| +[0-9]+" "and find what the jobs did"

# --- the service ---------------------------------------------------------------
site="$TEST_TMP/site.conf"
printf 'collector.rescan = 1h\ncollector.summary = 1h\n' >"$site"
IOATLAS_CONF="$site" "$daemon" >"$TEST_TMP/daemon.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid 2>/dev/null"
sleep 1
before=$(q 'SELECT count(*) FROM jobs')
ioa_preload "$logs" touch "$data/new-file" >/dev/null
for _ in $(seq 100); do
	[ "$(q 'SELECT count(*) FROM jobs')" -gt "$before" ] && break
	sleep 0.1
done
is "$(q 'SELECT count(*) FROM jobs')" $((before + 1)) \
	"the service finds a new log at once (inotify; the rescan is an hour away)"
printf 'collector.rescan = soon\n' >"$site"
kill -HUP "$pid"
sleep 1
like "$(cat "$TEST_TMP/daemon.out")" "settings not reloaded: .*site.conf:1: bad value for collector.rescan" \
	"SIGHUP with a bad site file keeps the old settings, and says why"
ok "the service is still running" kill -0 "$pid"
printf 'collector.rescan = 2h\n' >"$site"
kill -HUP "$pid"
sleep 1
like "$(cat "$TEST_TMP/daemon.out")" "settings reloaded" "SIGHUP with a good one reloads them"
kill -TERM "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
wait "$pid"
is "$?" 0 "SIGTERM stops it cleanly"
like "$(cat "$TEST_TMP/daemon.out")" "stopping on signal 15" "saying why"

out=$(IOATLAS_COLLECTOR_RESCAN=soon "$daemon" --once 2>&1)
is "$?" 1 "bad settings: the collector refuses to start"
like "$out" "bad value in IOATLAS_COLLECTOR_RESCAN: 'soon' \(a duration" "and says what is wrong"
like "$("$daemon" --help)" "^usage: ioatlasd \[--once\]" "--help"

# The unit a site installs, pointed at this build's collector.
sed "s|^ExecStart=.*|ExecStart=$daemon|" "$IOA_BUILD_DIR/share/ioatlas/ioatlasd.service" \
	>"$TEST_TMP/ioatlasd.service"
ok "the systemd unit passes systemd-analyze verify" \
	systemd-analyze verify "$TEST_TMP/ioatlasd.service"

done_testing
